#!/usr/bin/env bash
# Filtered replay against unfiltered (#28): hitcounter-cli replay on one deterministic combined
# log, without --filter and with three filters, in the same run, alternating, median of RUNS,
# with the ratio of each to the unfiltered replay. Prints a Markdown table for
# docs/benchmarks.md, with the machine and the load average before and after.
#   scripts/bench-filter.sh [SIZE_MB=100] [RUNS=5] [BUILD=build/default] [DIR=/tmp/hitcounter-bench-filter]
# Needs a build of hitcounter-cli in BUILD (scripts/build.sh default).
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb="${1:-100}"
runs="${2:-5}"
cli="$PWD/${3:-build/default}/app/hitcounter-cli"
dir="${4:-/tmp/hitcounter-bench-filter}"
mkdir -p "$dir"
log="$dir/access-${size_mb}M.log"

if [ ! -f "$log" ]; then
    echo "generating $log (${size_mb} MB, combined format)" >&2
    # 50 lines a second; 1 in 4 under /api/, 1 in 23 a 404, 1 in 61 a 5xx, 1 in 5 a POST.
    awk -v bytes="$((size_mb * 1024 * 1024))" 'BEGIN {
        srand(42); t = 1700000000; n = 0; written = 0
        while (written < bytes) {
            if (n % 50 == 0) t++
            s = t - 1700000000
            day = 14 + int(s / 86400); hh = int(s / 3600) % 24; mm = int(s / 60) % 60; ss = s % 60
            status = n % 61 == 0 ? 500 + n % 4 : (n % 23 == 0 ? 404 : 200)
            line = sprintf("10.%d.%d.%d - - [%02d/Nov/2023:%02d:%02d:%02d +0000] \"%s /%s/%d?ref=%d HTTP/1.1\" %d %d \"https://example.com/\" \"Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0\"",
                int(rand() * 20), int(rand() * 250), int(rand() * 250), day, hh, mm, ss,
                n % 5 == 0 ? "POST" : "GET", n % 4 == 0 ? "api" : "page",
                int(rand() * rand() * 1000), n % 7, status, 100 + n % 5000)
            print line
            written += length(line) + 1; n++
        }
    }' > "$log"
fi
lines=$(wc -l < "$log")

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# "wall cpu" seconds of one command (cpu = user + system): on a busy machine wall time shows
# the load, cpu time the work.
measure() {
    local TIMEFORMAT='%R %U %S' out
    out=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
    awk '{ printf "%s %.3f\n", $1, $2 + $3 }' <<<"$out"
}

names=(none status regex all)
declare -A filter=(
    [status]="status=5xx"
    [regex]="path~'^/api/' and not status=200"
    [all]="path~'.'"
)
declare -A wall cpu
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((i = 0; i < runs; i++)); do
    for name in "${names[@]}"; do
        if [ "$name" = none ]; then
            m=$(measure "$cli" replay "$log")
        else
            m=$(measure "$cli" replay "$log" --filter "${filter[$name]}")
        fi
        wall[$name]+="${m% *}"$'\n'
        cpu[$name]+="${m#* }"$'\n'
    done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

cpu_model=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
echo "file: $log ($(du -h "$log" | cut -f1), $lines lines), median of $runs runs alternating,"
echo "$(nproc) cores ($cpu_model), load average $load_before before, $load_after after"
echo
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
