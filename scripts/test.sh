#!/usr/bin/env bash
# Installs what is missing, builds every configuration once and runs the whole test suite:
# the ci build (the default configuration with -Werror: unit, property, CLI, GUI tests and the
# layering check; benchmarks are built, not timed), then
# AddressSanitizer + UBSan, then ThreadSanitizer on the core, then short fuzzing runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

export QT_QPA_PLATFORM=offscreen
jobs="$(nproc)"
section() { printf '\n==== %s ====\n' "$*"; }

section "hot-shots statsd client (npm, pinned by tests/net/hotshots/package-lock.json)"
npm ci --prefix tests/net/hotshots --no-audit --no-fund --omit=optional --loglevel=error

section "ci build (default configuration, warnings are errors)"
scripts/build.sh ci
ctest --test-dir build/ci --output-on-failure --no-tests=error -j "$jobs"

section "AddressSanitizer + UndefinedBehaviorSanitizer"
scripts/build.sh asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    LSAN_OPTIONS=suppressions="$PWD/tests/lsan.supp" \
    ctest --test-dir build/asan --output-on-failure --no-tests=error -j "$jobs"

section "ThreadSanitizer (core)"
scripts/build.sh tsan
# die_after_fork=0: the process tests fork hitcounter-cli, redis-server... with QProcess from a
# test that has threads; the child only execs (it is then checked by its own TSan runtime).
TSAN_OPTIONS=halt_on_error=1:die_after_fork=0:suppressions="$PWD/tests/tsan.supp" \
    ctest --test-dir build/tsan --output-on-failure --no-tests=error -j "$jobs"

section "fuzzing (libFuzzer, 20 s per target)"
scripts/fuzz.sh 20

section "all test configurations passed"
