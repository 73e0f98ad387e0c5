#!/usr/bin/env bash
# Configures (once) and builds one CMake preset: scripts/build.sh [default|ci|asan|tsan|fuzz]
# (ci = default with warnings as errors; scripts/test.sh builds it)
set -euo pipefail
preset="${1:-default}"
cd "$(dirname "$0")/.."
# Let ccache share results between clones in different folders (CI builds a fresh clone).
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
if [ ! -f "build/$preset/build.ninja" ]; then
    cmake --preset "$preset" >/dev/null
fi
cmake --build "build/$preset" --parallel "$(nproc)"
