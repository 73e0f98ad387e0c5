#!/usr/bin/env bash
# Configures (once) and builds one CMake preset: scripts/build.sh [default|asan|tsan|fuzz]
set -euo pipefail
preset="${1:-default}"
cd "$(dirname "$0")/.."
if [ ! -f "build/$preset/build.ninja" ]; then
    cmake --preset "$preset" >/dev/null
fi
cmake --build "build/$preset" --parallel "$(nproc)"
