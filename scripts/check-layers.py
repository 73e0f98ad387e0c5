#!/usr/bin/env python3
"""Checks that core/ keeps the layering its CMake targets declare.

Usage: scripts/check-layers.py --layers build/<preset>/core_layers.txt [--root <repo>]

The allowed edges are not written here: core/CMakeLists.txt reads them back from the targets
(the LINK_LIBRARIES of each hitcounter_<folder>) and writes core_layers.txt, one line per
folder: "<folder>: <linked item> <linked item> ...". A folder may include
"core/<other>/..." only when its target links hitcounter::<other> directly.

It fails (exit 1), naming the file and line, when
  - core/<a>/... includes core/<b>/... and hitcounter::<a> does not link hitcounter::<b>,
  - anything under core/ includes a Qt header or ui/ or app/ code,
  - core/<a>/... includes a third-party library's header (libmicrohttpd, hiredis, zlib, toml++,
    libsystemd) and hitcounter::<a> does not link that library (so the umbrella stays free of
    what only fleet or http need, and a new dependency is declared where it is used),
  - a folder of core/ with sources has no target in the table,
  - a core target links Qt, or the links between core folders form a cycle.
"""

import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
QT_HEADER = re.compile(r'^(Qt[A-Za-z]*/|Q[A-Z][A-Za-z0-9]*$|q[a-z0-9_]*\.h$|qcustomplot\.h$)')
SOURCE_SUFFIXES = ('.h', '.hpp', '.cpp', '.cc')
# Third-party headers: (header or header folder, a text that the linked item must contain,
# the library's name for the message).
LIBRARY_HEADERS = (
    ('microhttpd.h', 'MICROHTTPD', 'libmicrohttpd'),
    ('hiredis/', 'HIREDIS', 'hiredis'),
    ('zlib.h', 'ZLIB', 'zlib'),
    ('toml++/', 'tomlplusplus', 'toml++'),
    ('systemd/', 'SYSTEMD', 'libsystemd'),
)


def library_of(header):
    """(link text, library name) if `header` belongs to a known third-party library."""
    for prefix, link, name in LIBRARY_HEADERS:
        if header == prefix or (prefix.endswith('/') and header.startswith(prefix)):
            return link, name
    return None


def read_layers(path):
    """Returns {folder: [linked items]} from core_layers.txt."""
    layers = {}
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            folder, sep, items = line.partition(':')
            if not sep:
                raise SystemExit(f'{path}:{number}: expected "<folder>: <links>", got {line!r}')
            layers[folder.strip()] = items.split()
    return layers


def core_edges(layers):
    """{folder: set of core folders its target links} (hitcounter::<folder> items only)."""
    edges = {}
    for folder, items in layers.items():
        edges[folder] = {item.split('::', 1)[1] for item in items
                         if item.startswith('hitcounter::') and item.split('::', 1)[1] in layers}
    return edges


def find_cycle(edges):
    """One cycle as a list of folders [a, b, ..., a], or None."""
    state = {}
    stack = []

    def visit(node):
        state[node] = 'open'
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 'open':
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 'done'
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def check(root, layers_path):
    layers = read_layers(layers_path)
    edges = core_edges(layers)
    core = os.path.join(root, 'core')
    problems = []
    include_edges = {}
    includes_seen = 0

    for folder in sorted(os.listdir(core)):
        folder_path = os.path.join(core, folder)
        if not os.path.isdir(folder_path):
            continue
        files = []
        for dirpath, _, names in os.walk(folder_path):
            files += [os.path.join(dirpath, n) for n in names if n.endswith(SOURCE_SUFFIXES)]
        if not files:
            continue
        if folder not in layers:
            problems.append(f'core/{folder}/: folder has sources but no target '
                            f'hitcounter::{folder} (add it with hitcounter_core_library in '
                            f'core/{folder}/CMakeLists.txt)')
            continue
        for path in sorted(files):
            rel = os.path.relpath(path, root).replace(os.sep, '/')
            with open(path, encoding='utf-8', errors='replace') as f:
                for number, line in enumerate(f, 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    includes_seen += 1
                    header = match.group(2)
                    if match.group(1) == '<' and QT_HEADER.match(header):
                        problems.append(f'{rel}:{number}: includes the Qt header <{header}>: '
                                        f'core/ must stay Qt-free (add an interface instead)')
                        continue
                    library = library_of(header) if match.group(1) == '<' else None
                    if library and not any(library[0] in item for item in layers[folder]):
                        problems.append(f'{rel}:{number}: includes <{header}> of {library[1]}, '
                                        f'but hitcounter::{folder} does not link it. Link it in '
                                        f'core/{folder}/CMakeLists.txt, or keep the code that '
                                        f'needs it in the folder that does')
                        continue
                    parts = header.split('/')
                    if parts[0] in ('ui', 'app'):
                        problems.append(f'{rel}:{number}: includes "{header}": core/ must not '
                                        f'depend on {parts[0]}/')
                        continue
                    if parts[0] != 'core' or len(parts) < 3:
                        continue
                    target = parts[1]
                    if target == folder:
                        continue
                    include_edges.setdefault(folder, set()).add(target)
                    if target not in edges[folder]:
                        allowed = ', '.join(sorted(edges[folder])) or 'no core folder'
                        problems.append(
                            f'{rel}:{number}: forbidden include "{header}": '
                            f'{folder} -> {target}, but hitcounter::{folder} does not link '
                            f'hitcounter::{target} (it links {allowed}). Link it in '
                            f'core/{folder}/CMakeLists.txt if that edge belongs in the layering, '
                            f'or move the code down a layer')

    for folder, items in sorted(layers.items()):
        for item in items:
            if item.startswith('Qt') and '::' in item:
                problems.append(f'core/{folder}/CMakeLists.txt: hitcounter::{folder} links {item}: '
                                f'core/ must stay Qt-free')

    cycle = find_cycle(edges)
    if cycle:
        problems.append('cycle between core targets: ' + ' -> '.join(cycle))
    cycle = find_cycle(include_edges)
    if cycle:
        problems.append('cycle between core folders\' includes: ' + ' -> '.join(cycle))

    for problem in problems:
        print(f'check-layers: {problem}', file=sys.stderr)
    if problems:
        print(f'check-layers: FAILED, {len(problems)} problem(s)', file=sys.stderr)
        return 1
    edge_count = sum(len(v) for v in include_edges.values())
    print(f'check-layers: ok, {len(layers)} core targets, {includes_seen} includes, '
          f'{edge_count} folder edges, all linked, no cycles, no Qt')
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--layers', required=True, help='core_layers.txt from the build tree')
    parser.add_argument('--root', default=os.path.join(os.path.dirname(__file__), '..'),
                        help='repository root (holds core/)')
    args = parser.parse_args()
    return check(os.path.abspath(args.root), args.layers)


if __name__ == '__main__':
    sys.exit(main())
