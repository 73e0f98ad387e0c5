#!/usr/bin/env bash
# Runs one preset's whole ctest suite RUNS times in a row while stress-ng keeps every core busy
# beside it, as a machine doing other work would (issue 25: no test may depend on idle cores):
#   scripts/test-loaded.sh [RUNS] [PRESET]      e.g. scripts/test-loaded.sh 3 asan
# RUNS defaults to 3, PRESET to asan, what scripts/test.sh tests (built first if needed); the
# test preset sets the sanitizers' options. Prints each run's wall time and the
# load average after it; stops at the first failing run (its failures are printed) and exits
# non-zero then. stress-ng is stopped on every exit.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-3}"
preset="${2:-asan}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
    echo "test-loaded.sh: RUNS must be a whole number > 0, got '$runs'" >&2
    exit 2
fi
command -v stress-ng >/dev/null || scripts/install-deps.sh
scripts/build.sh "$preset"

cores="$(nproc)"
stress-ng --cpu "$cores" --quiet &
stress=$!
trap 'kill "$stress" 2>/dev/null || true; wait "$stress" 2>/dev/null || true' EXIT

for run in $(seq 1 "$runs"); do
    start=$(date +%s)
    if ! ctest --preset "$preset" -j "$cores" >"build/$preset/loaded-run-$run.log" 2>&1; then
        echo "run $run of $runs FAILED beside stress-ng --cpu $cores:"
        grep -E "Failed|Timeout|\*\*\*" "build/$preset/loaded-run-$run.log" || true
        exit 1
    fi
    echo "run $run of $runs passed beside stress-ng --cpu $cores in $(($(date +%s) - start)) s;" \
        "$(grep -E 'tests passed' "build/$preset/loaded-run-$run.log");" \
        "load average $(cut -d' ' -f1-3 /proc/loadavg)"
done
