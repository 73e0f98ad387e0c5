#!/usr/bin/env bash
# GUI frame times under real statsd UDP traffic (docs/benchmarks.md, issue 29 item 3): the GUI
# times its frames (--bench-frames) while bench_udp_receivers' paced sender (its own process,
# the same sender as scripts/bench-udp.sh) sends `page.K:1|c` lines, 20 per datagram, over
# 1,000 keys. Each rate is run --runs times, the rates taking turns; with --busy, stress-ng keeps
# one core busy beside the runs. Prints one line per run and the medians per rate.
#   scripts/bench-frames-udp.sh [--runs 5] [--rates 0,100000,1000000,3000000] [--busy]
#                               [--receivers N] [--size 1600x1000] [--frames 240]
# Rate 0 sends nothing (the limit: frames with no traffic). Needs a default build
# (scripts/build.sh default) and, for --busy, stress-ng (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
gui="$PWD/build/default/app/hitcounter"
sender="$PWD/build/default/tests/benchmarks/bench_udp_receivers"
runs=5
rates="0,100000,1000000,3000000"
busy=0
receivers=""
size="1600x1000"
frames=240 # the GUI draws about 30 frames a second: 8 s, the sending and a margin
while [ $# -gt 0 ]; do
    case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --rates) rates="$2"; shift 2 ;;
    --busy) busy=1; shift ;;
    --receivers) receivers="--receivers $2"; shift 2 ;;
    --size) size="$2"; shift 2 ;;
    --frames) frames="$2"; shift 2 ;;
    *) echo "bench-frames-udp.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
for program in "$gui" "$sender"; do
    [ -x "$program" ] || { echo "bench-frames-udp.sh: $program missing: build first" >&2; exit 2; }
done
work="$(mktemp -d)"
stress_pid=""
cleanup() {
    if [ -n "$stress_pid" ]; then kill "$stress_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
if [ "$busy" = 1 ]; then
    stress-ng --cpu 1 --quiet &
    stress_pid=$!
fi
send_after=1.5
send_for=6
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
IFS=, read -r -a rate_list <<<"$rates"
for run in $(seq "$runs"); do
    for rate in "${rate_list[@]}"; do
        port="$(python3 -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')"
        # shellcheck disable=SC2086
        QT_QPA_PLATFORM=offscreen "$gui" --listen-udp "127.0.0.1:$port" $receivers \
            --bench-frames "$frames" --size "$size" >"$work/gui" 2>"$work/gui.err" &
        gui_pid=$!
        sent=0
        if [ "$rate" != 0 ]; then
            sleep "$send_after"
            read -r sent _ < <("$sender" send "$port" "$rate" 20 "$send_for")
        fi
        wait "$gui_pid" || { cat "$work/gui.err" >&2; exit 1; }
        line="$(grep '^frames' "$work/gui")"
        echo "run $run rate $rate sent $((sent * 20)) load $(cut -d' ' -f1 /proc/loadavg) | $line"
    done
done | tee "$work/runs"
python3 - "$work/runs" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.search(r"rate (\d+) sent (\d+) load ([\d.]+) \| frames \d+\s+median ([\d.]+) ms\s+p99 ([\d.]+) ms.*hits counted (\d+)", line)
    if m:
        rate, sent, load, med, p99, counted = m.groups()
        rows.setdefault(int(rate), []).append((float(med), float(p99), int(sent), int(counted), float(load)))
print("| rate (lines/s) | frame median | p99 | counted / sent (all runs) | load average |")
print("|---:|---:|---:|---:|---:|")
base = None
for rate in sorted(rows):
    r = rows[rate]
    med = statistics.median(x[0] for x in r)
    p99 = statistics.median(x[1] for x in r)
    sent = sum(x[2] for x in r); counted = sum(x[3] for x in r)
    loads = [x[4] for x in r]
    if rate == 100000:
        base = med
    print(f"| {rate:,} | {med:.2f} ms | {p99:.2f} ms | {counted:,} / {sent:,} | {min(loads):.1f}–{max(loads):.1f} |")
if base:
    for rate in sorted(rows):
        if rate > 100000:
            print(f"median at {rate:,} / median at 100,000: {statistics.median(x[0] for x in rows[rate]) / base:.2f}")
PY
