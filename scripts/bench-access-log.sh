#!/usr/bin/env bash
# Access-log parsing speed: hitcounter-cli replay (lines parsed on one thread, and with --jobs
# on every core) next to goaccess on the same combined log, plain and gzipped, timed in the
# same run, alternating, median of RUNS.
#   scripts/bench-access-log.sh [SIZE_MB=1024] [RUNS=3] [DIR=/tmp/hitcounter-bench-log]
# Needs a build of the default preset (BUILD=build/ci for the ci preset's) and goaccess
# (scripts/install-deps.sh; Debian 12's goaccess 1.7 parses on one thread: no --jobs).
# GOACCESS=0 leaves goaccess out (it takes about 40 min a GB here).
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb="${1:-1024}"
runs="${2:-3}"
dir="${3:-/tmp/hitcounter-bench-log}"
cli="$PWD/${BUILD:-build/default}/app/hitcounter-cli"
jobs=$(nproc)
keys="hc_plain hc_plain_jobs ga_plain hc_gz hc_gz_jobs ga_gz"
[ "${GOACCESS:-1}" = 0 ] && keys="hc_plain hc_plain_jobs hc_gz hc_gz_jobs"
mkdir -p "$dir"
log="$dir/access-${size_mb}M.log"

if [ ! -f "$log" ]; then
    echo "generating $log (${size_mb} MB, combined format, 1000 paths, 5000 clients)" >&2
    awk -v bytes="$((size_mb * 1024 * 1024))" 'BEGIN {
        srand(42); t = 1700000000; n = 0; written = 0
        split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", mon, " ")
        while (written < bytes) {
            if (n % 50 == 0) t++
            s = t - 1700000000
            day = 14 + int(s / 86400); hh = int(s / 3600) % 24; mm = int(s / 60) % 60; ss = s % 60
            line = sprintf("10.%d.%d.%d - - [%02d/Nov/2023:%02d:%02d:%02d +0000] \"GET /page/%d?ref=%d HTTP/1.1\" %d %d \"https://example.com/\" \"Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0\"",
                int(rand() * 20), int(rand() * 250), int(rand() * 250), day, hh, mm, ss,
                int(rand() * rand() * 1000), n % 7, (n % 23 == 0 ? 404 : 200), 100 + n % 5000)
            print line
            written += length(line) + 1; n++
        }
    }' > "$log"
fi
[ -f "$log.gz" ] || gzip -k -1 "$log"
lines=$(wc -l < "$log")

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# "wall cpu" seconds of one command (cpu = user + system, children included): on a busy
# machine wall time shows the load, cpu time the work.
measure() {
    local TIMEFORMAT='%R %U %S' out
    out=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
    awk '{ printf "%s %.3f\n", $1, $2 + $3 }' <<<"$out"
}

declare -A wall cpu
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((i = 0; i < runs; i++)); do
    for key in $keys; do
        case $key in
        hc_plain) m=$(measure "$cli" replay "$log" --top 10) ;;
        hc_plain_jobs) m=$(measure "$cli" replay "$log" --top 10 --jobs "$jobs") ;;
        hc_gz_jobs) m=$(measure "$cli" replay "$log.gz" --top 10 --jobs "$jobs") ;;
        ga_plain) m=$(measure goaccess "$log" --log-format=COMBINED --no-global-config -o "$dir/out.json") ;;
        hc_gz) m=$(measure "$cli" replay "$log.gz" --top 10) ;;
        ga_gz) m=$(measure sh -c "zcat '$log.gz' | goaccess - --log-format=COMBINED --no-global-config -o '$dir/out.json'") ;;
        esac
        wall[$key]+="${m% *}"$'\n'
        cpu[$key]+="${m#* }"$'\n'
    done
done

echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "file: $log ($(du -h "$log" | cut -f1), $lines lines; gzip: $(du -h "$log.gz" | cut -f1)), median of $runs runs, $(nproc) cores"
echo "| input | tool | wall s | cpu s | lines/s (wall) | lines/s (cpu) |"
echo "| --- | --- | --- | --- | --- | --- |"
for key in $keys; do
    w=$(printf '%s' "${wall[$key]}" | median)
    c=$(printf '%s' "${cpu[$key]}" | median)
    case $key in
    hc_*_jobs) tool="hitcounter-cli replay FILE --top 10 --jobs $jobs" ;;
    hc_*) tool="hitcounter-cli replay FILE --top 10" ;;
    ga_*) tool="goaccess FILE --log-format=COMBINED -o out.json" ;;
    esac
    case $key in *plain*) input=plain ;; *) input=gzip ;; esac
    awk -v i="$input" -v t="$tool" -v w="$w" -v c="$c" -v l="$lines" \
        'BEGIN { printf "| %s | %s | %.2f | %.2f | %.0f | %.0f |\n", i, t, w, c, l / w, l / c }'
done
