#!/usr/bin/env python3
"""Feeds scripts/check-layers.py bad trees and expects it to fail, naming file, line and edge.

Usage: check_layers_test.py <check-layers.py> <repo root> <core_layers.txt>

Each case copies the real core/ (and the real layer table) into a temporary folder, breaks one
thing, runs the check and asserts its exit code and message. The unbroken copy must pass, so a
failure is caused by the break and not by the copy.
"""

import os
import shutil
import subprocess
import sys
import tempfile

CHECK, ROOT, LAYERS = sys.argv[1:4]
failures = []


def run(tree, layers):
    result = subprocess.run([sys.executable, CHECK, '--root', tree, '--layers', layers],
                            capture_output=True, text=True, timeout=120)
    return result.returncode, result.stdout + result.stderr


def insert_after_includes(path, line_text):
    """Inserts line_text after the file's last #include; returns its 1-based line number."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    last = max(i for i, l in enumerate(lines) if l.startswith('#include'))
    lines.insert(last + 1, line_text)
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines))
    return last + 2


def case(name, expect_rc, expected, breaker):
    with tempfile.TemporaryDirectory(prefix='check_layers_') as tmp:
        shutil.copytree(os.path.join(ROOT, 'core'), os.path.join(tmp, 'core'),
                        ignore=shutil.ignore_patterns('*.txt', '*.md'))
        layers = os.path.join(tmp, 'core_layers.txt')
        shutil.copyfile(LAYERS, layers)
        expected = expected(breaker(tmp, layers))
        rc, output = run(tmp, layers)
        ok = rc == expect_rc and all(e in output for e in expected)
        print(f'{"PASS" if ok else "FAIL"}: {name}')
        if not ok:
            failures.append(name)
            print(f'  exit code {rc} (expected {expect_rc}); expected text {expected!r}')
            print('  output:\n    ' + output.replace('\n', '\n    '))


def unchanged(tmp, layers):
    return None


def upward_include(tmp, layers):
    return insert_after_includes(os.path.join(tmp, 'core/base/hit_event.h'),
                                 '#include "core/engine/engine.h"')


def qt_include(tmp, layers):
    return insert_after_includes(os.path.join(tmp, 'core/counters/ring_counter.cpp'),
                                 '#include <QString>')


def target_cycle(tmp, layers):
    with open(layers, encoding='utf-8') as f:
        lines = f.read().split('\n')
    lines = [l + ' hitcounter::counters' if l.startswith('base:') else l for l in lines]
    with open(layers, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines))


def folder_without_target(tmp, layers):
    os.makedirs(os.path.join(tmp, 'core/stray'))
    with open(os.path.join(tmp, 'core/stray/stray.h'), 'w', encoding='utf-8') as f:
        f.write('#pragma once\n')


def library_include(tmp, layers):
    return insert_after_includes(os.path.join(tmp, 'core/metrics/exposition.cpp'),
                                 '#include <microhttpd.h>')


case('the unchanged copy passes', 0, lambda _: ['check-layers: ok'], unchanged)
case('an upward include names file, line and edge', 1,
     lambda line: [f'core/base/hit_event.h:{line}: forbidden include "core/engine/engine.h"',
                   'base -> engine', 'hitcounter::base does not link hitcounter::engine',
                   'FAILED'],
     upward_include)
case('a Qt include in core is rejected', 1,
     lambda line: [f'core/counters/ring_counter.cpp:{line}: includes the Qt header <QString>'],
     qt_include)
case('a cycle between core targets is rejected', 1,
     lambda _: ['cycle between core targets: base -> counters -> base'], target_cycle)
case('a folder without a target is rejected', 1,
     lambda _: ['core/stray/: folder has sources but no target hitcounter::stray'],
     folder_without_target)
case('a library header where the target does not link the library is rejected', 1,
     lambda line: [f'core/metrics/exposition.cpp:{line}: includes <microhttpd.h> of '
                   'libmicrohttpd, but hitcounter::metrics does not link it'],
     library_include)

if failures:
    print(f'{len(failures)} case(s) failed')
    sys.exit(1)
print('all cases passed')
