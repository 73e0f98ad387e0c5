#!/usr/bin/env bash
# Filtered replay against unfiltered (#28): hitcounter-cli replay on one deterministic combined
# log, without --filter and with three filters, in the same run, alternating, median of RUNS,
# with the ratio of each to the unfiltered replay. Prints a Markdown table for
# docs/benchmarks.md, with the machine and the load average before and after.
#   scripts/bench-filter.sh [SIZE_MB=100] [RUNS=5] [BUILD=build/default] [DIR=/tmp/hitcounter-bench-filter]
# Needs a build of hitcounter-cli in BUILD (scripts/build.sh default).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-replay-common.sh
setup_replay_bench "$@"

names=(none status regex all)
declare -A filter=(
    [status]="status=5xx"
    [regex]="path~'^/api/' and not status=200"
    [all]="path~'.'"
)
run_variant() {
    if [ "$1" = none ]; then
        "$cli" replay "$log"
    else
        "$cli" replay "$log" --filter "${filter[$1]}"
    fi
}
declare -A wall cpu
alternate "$runs" "${names[@]}"

print_bench_header
echo "| replay | accepted lines | wall s | cpu s | cpu vs unfiltered |"
echo "| --- | --- | --- | --- | --- |"
base=$(printf '%s' "${cpu[none]}" | median)
for name in "${names[@]}"; do
    w=$(printf '%s' "${wall[$name]}" | median)
    c=$(printf '%s' "${cpu[$name]}" | median)
    if [ "$name" = none ]; then
        label="(no filter)"
        rows=$lines
    else
        label="--filter \"${filter[$name]}\""
        rows=$("$cli" replay "$log" --filter "${filter[$name]}" --json |
            awk -F': ' '/"rows"/ { gsub(",", "", $2); print $2 }')
    fi
    awk -v l="$label" -v r="$rows" -v w="$w" -v c="$c" -v b="$base" \
        'BEGIN { printf "| `%s` | %d | %.2f | %.2f | %.2fx |\n", l, r, w, c, c / b }'
done
