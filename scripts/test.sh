#!/usr/bin/env bash
# Installs what is missing, builds every configuration once and runs the whole test suite:
# the asan build (AddressSanitizer + UBSan, warnings are errors: every unit, property, CLI and
# GUI test and the layering check; benchmarks are built, not timed), then ThreadSanitizer over
# the tests labelled "threads", then short fuzzing runs. The ci preset (-O2, warnings are
# errors) is not part of it: one full build, not two (docs/architecture.md, "The test suite").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

jobs="$(nproc)"
# Each section's heading says how long the run has taken so far (docs/architecture.md quotes them).
section() { printf '\n==== %s ==== (%d s)\n' "$*" "$SECONDS"; }

section "hot-shots statsd client (npm, pinned by tests/net/hotshots/package-lock.json)"
npm ci --prefix tests/net/hotshots --no-audit --no-fund --omit=optional --loglevel=error

# The test presets (CMakePresets.json) set QT_QPA_PLATFORM=offscreen and the sanitizers' options.
section "AddressSanitizer + UndefinedBehaviorSanitizer build (warnings are errors): every test"
scripts/build.sh asan
ctest --preset asan -j "$jobs"

section "ThreadSanitizer: the tests labelled threads"
# die_after_fork=0 (the tsan test preset): the process tests fork hitcounter-cli, redis-server...
# with QProcess from a test that has threads; the child only execs (its own TSan runtime checks it).
scripts/build.sh tsan
ctest --preset tsan -j "$jobs"

section "fuzzing (libFuzzer, 20 s per target)"
scripts/fuzz.sh 20

section "all test configurations passed"
