#!/usr/bin/env bash
# Runs the listener soak test (tests/app/tst_listen_soak.cpp) for as long as asked:
#   scripts/soak.sh [SECONDS] [PRESET]      e.g. scripts/soak.sh 3600 asan
# SECONDS defaults to 300, PRESET to default. It builds what the test needs first, then
# prints the test's summary line (hits, keys, peak RSS, stop time) and exits non-zero on a
# failure. Under asan, leaks are checked with tests/lsan.supp.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-300}"
preset="${2:-default}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "soak.sh: SECONDS must be a whole number > 0, got '$seconds'" >&2
    exit 2
fi
if [[ ! -d "build/$preset" ]]; then
    scripts/build.sh "$preset"
fi
cmake --build "build/$preset" --target tst_listen_soak hitcounter-cli -j 2

export HITCOUNTER_SOAK_SECONDS="$seconds"
# Qt Test ends a test function after 5 minutes by default.
export QTEST_FUNCTION_TIMEOUT="$(((seconds + 300) * 1000))"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp}"
exec "build/$preset/tests/app/tst_listen_soak" -maxwarnings 0
