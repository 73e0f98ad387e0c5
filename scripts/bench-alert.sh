#!/usr/bin/env bash
# What --alert adds to a replay (#28): hitcounter-cli replay on the deterministic combined log
# of bench-filter.sh, plain and with alert rules (one on every hit, one over a filtered
# series, four over three series and the bytes), in the same run, alternating, median of
# RUNS, with the ratio of each to the plain replay. Prints a Markdown table for
# docs/benchmarks.md, with the machine and the load average before and after.
#   scripts/bench-alert.sh [SIZE_MB=100] [RUNS=5] [BUILD=build/default] [DIR=/tmp/hitcounter-bench-filter]
# Needs a build of hitcounter-cli in BUILD (scripts/build.sh default).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-replay-common.sh
setup_replay_bench "$@"

names=(none all series four)
declare -A rules=(
    [all]="busy: rate(*) > 40"
    [series]="errors: count(status=5xx) / count(*) > 2% for 60s clear < 1%"
    [four]="errors: count(status=5xx) / count(*) > 2% for 60s clear < 1%
missing: count(status=404) / count(*) > 5%
api: rate(path~'^/api/') > 20
heavy: bytes(*) > 1000000000"
)
declare -A labels=(
    [none]="(plain)"
    [all]="--alert on every hit"
    [series]="--alert on a filtered series"
    [four]="4 rules, 3 series, bytes"
)
rule_arguments() {
    local rule
    while IFS= read -r rule; do
        printf '%s\0%s\0' --alert "$rule"
    done <<<"${rules[$1]}"
}
run_variant() {
    if [ "$1" = none ]; then
        "$cli" replay "$log"
    else
        local arguments=()
        mapfile -d '' arguments < <(rule_arguments "$1")
        "$cli" replay "$log" "${arguments[@]}"
    fi
}
declare -A wall cpu
alternate "$runs" "${names[@]}"

print_bench_header
echo "| replay | rules | transitions | wall s | cpu s | cpu vs plain |"
echo "| --- | --- | --- | --- | --- | --- |"
base=$(printf '%s' "${cpu[none]}" | median)
for name in "${names[@]}"; do
    w=$(printf '%s' "${wall[$name]}" | median)
    c=$(printf '%s' "${cpu[$name]}" | median)
    label="${labels[$name]}"
    if [ "$name" = none ]; then
        count=0
        transitions=0
    else
        count=$(grep -c . <<<"${rules[$name]}")
        # (exit code 3 when a rule fired)
        transitions=$(( $( (run_variant "$name" 2>/dev/null || true) | wc -l) - 1 ))
    fi
    awk -v l="$label" -v n="$count" -v t="$transitions" -v w="$w" -v c="$c" -v b="$base" \
        'BEGIN { printf "| %s | %d | %d | %.2f | %.2f | %.2fx |\n", l, n, t, w, c, c / b }'
done
