#!/usr/bin/env bash
# Builds the libFuzzer targets (preset fuzz, clang) and runs each for SECONDS (default 20), as
# many at once as there are cores, starting from its seeds in tests/fuzz/corpus/<target>/.
# Fails if a target crashes, leaks, times out or trips a sanitizer; the input that did it is
# written to build/fuzz/artifacts/ and the end of its log is printed.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: statsd_parser graphite_parser
# trace_reader leetcode_input)
#        scripts/fuzz.sh --build-only              (builds the targets, runs none)
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
if [ "${1:-}" = "--build-only" ]; then
    build_only=1
    shift
fi
seconds="${1:-20}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(statsd_parser graphite_parser trace_reader leetcode_input)

if [ ! -f build/fuzz/build.ninja ]; then
    cmake --preset fuzz >/dev/null
fi
cmake --build build/fuzz --target hitcounter_fuzzers --parallel "$(nproc)"
[ "$build_only" = 0 ] || exit 0

mkdir -p build/fuzz/artifacts
# One target per core at a time: each runs SECONDS of wall time whatever the others do.
fuzz_one() {
    local target="$1"
    # New inputs go to the build tree; the checked-in seeds are only read.
    local corpus="build/fuzz/corpus/$target"
    mkdir -p "$corpus"
    local log="build/fuzz/$target.log"
    if ! "build/fuzz/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="build/fuzz/artifacts/$target-" \
        "$corpus" "tests/fuzz/corpus/$target" >"$log" 2>&1; then
        tail -n 40 "$log"
        echo "fuzz_$target FAILED: the input is in build/fuzz/artifacts/, the log in $log"
        return 1
    fi
    echo "fuzz_$target: $(grep -oE 'number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+') runs in ${seconds} s, no crash"
}

failed=0
running=()
for target in "${targets[@]}"; do
    fuzz_one "$target" &
    running+=($!)
    if [ ${#running[@]} -ge "$(nproc)" ]; then
        wait "${running[0]}" || failed=1
        running=("${running[@]:1}")
    fi
done
for pid in "${running[@]}"; do
    wait "$pid" || failed=1
done
exit "$failed"
