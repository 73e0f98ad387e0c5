#!/usr/bin/env bash
# Seek latency in the real window: `hitcounter --replay T --seek ... --state-json OUT` on a
# deterministic trace of ROWS rows (100 a second, 7 keys, 1000 visitors: the trace of
# bench_sources' replaySeekCounted), offscreen. One window makes the first seek (to the end:
# it fast-forwards from the start, leaving the counting thread's checkpoints on its way), then
# SEEKS seeks spread over the trace in a shuffled order; seek_ms is each one's time from the
# request until every view showed the exact state (docs/gui.md "The screen's state").
#   scripts/bench-seek.sh [ROWS=10000000] [SEEKS=5] [DIR=/tmp/hitcounter-bench-seek]
# Prints every seek's seek_ms and the median of the SEEKS after the first. Needs a build of
# the ci or default preset (BUILD=build/ci by default).
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-10000000}"
seeks="${2:-5}"
dir="${3:-/tmp/hitcounter-bench-seek}"
gui="$PWD/${BUILD:-build/ci}/app/hitcounter"
first=1700000000
mkdir -p "$dir"
trace="$dir/trace-${rows}.csv"

if [ ! -f "$trace" ]; then
    echo "generating $trace ($rows rows)" >&2
    awk -v rows="$rows" -v first="$first" 'BEGIN {
        print "timestamp,key,visitor"
        for (i = 0; i < rows; i++) printf "%d,/page/%d,v%d\n", first + int(i / 100), i % 7, i % 1000
    }' > "$trace.part"
    mv "$trace.part" "$trace"
fi

last=$((first + (rows - 1) / 100))
# The end first, then SEEKS targets at (k + 0.5) / SEEKS of the trace, odd ones first: seeks
# forward and back, each between two checkpoints rather than on one.
targets="$last"
for k in $(seq 1 2 $((seeks - 1))) $(seq 0 2 $((seeks - 1))); do
    targets="$targets,$((first + (last - first) * (2 * k + 1) / (2 * seeks)))"
done

out="$dir/states.jsonl"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
start=$(date +%s.%N)
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$dir/config" \
    "$gui" --replay "$trace" --seek "$targets" --state-json "$out"
echo "whole run (load, $((seeks + 1)) seeks, write): $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s" >&2
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

python3 - "$out" <<'EOF'
import json, statistics, sys
states = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
for i, s in enumerate(states):
    note = " (first seek: from the start)" if i == 0 else ""
    print(f"seek to {s['time']}: {s['seek_ms']:.1f} ms, window total {s['policies']['deque']}{note}")
later = [s["seek_ms"] for s in states[1:]]
if later:
    print(f"median of the {len(later)} seeks after the first: {statistics.median(later):.1f} ms")
EOF
