#!/usr/bin/env bash
# Installs what is missing, builds every configuration once and runs the whole test suite:
# the asan build (AddressSanitizer everywhere and UBSan over core/, warnings are errors: every
# unit, property, CLI and GUI test and the layering check; benchmarks are built, not timed),
# then ThreadSanitizer over the tests labelled "threads", then short fuzzing runs. The ci preset
# (-O2, warnings are errors) is not part of it: one full build, not two (docs/architecture.md,
# "The test suite").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

jobs="$(nproc)"
# Each section's heading says how long the run has taken so far (docs/architecture.md quotes them).
section() { printf '\n==== %s ==== (%d s)\n' "$*" "$SECONDS"; }

section "hot-shots statsd client (npm, pinned by tests/net/hotshots/package-lock.json)"
npm ci --prefix tests/net/hotshots --no-audit --no-fund --omit=optional --loglevel=error

# The test presets (CMakePresets.json) set QT_QPA_PLATFORM=offscreen and the sanitizers' options.
section "AddressSanitizer build (UBSan over core/; warnings are errors)"
scripts/build.sh asan

# The tests spend much of their time waiting on sockets, child processes and timers; the TSan
# and fuzz builds take the CPU they leave, at the lowest priority. (No test may depend on idle
# cores, so this is also a run on a busy machine.) The builds' output is in build/side-builds.log.
section "every test under ASan; beside them, at nice 19, the TSan and fuzz builds"
mkdir -p build
setsid nice -n 19 bash -c 'scripts/build.sh tsan && scripts/fuzz.sh --build-only' \
    >build/side-builds.log 2>&1 &
side=$!
trap 'kill -- -"$side" 2>/dev/null || true' EXIT
ctest --preset asan -j "$jobs"
if ! wait "$side"; then
    tail -n 60 build/side-builds.log
    echo "the TSan or fuzz build failed: build/side-builds.log"
    exit 1
fi
trap - EXIT

section "ThreadSanitizer: the tests labelled threads"
# die_after_fork=0 (the tsan test preset): the process tests fork hitcounter-cli, redis-server...
# with QProcess from a test that has threads; the child only execs (its own TSan runtime checks it).
ctest --preset tsan -j "$jobs"

section "fuzzing (libFuzzer, 20 s per target)"
scripts/fuzz.sh 20

section "all test configurations passed"
