# What the replay benchmarks share (sourced by bench-filter.sh and bench-alert.sh):
# setup_replay_bench [SIZE_MB=100] [RUNS=5] [BUILD=build/default] [DIR=/tmp/hitcounter-bench-filter]
# sets size_mb, runs, cli, log and lines, generating the log first if it is not there;
# generate_log FILE SIZE_MB writes one deterministic Combined log (unless FILE exists);
# median reads numbers, one a line, and prints their median; measure CMD... prints "wall cpu"
# seconds of one run (cpu = user + system: on a busy machine wall time shows the load, cpu
# time the work).

generate_log() {
    local log="$1" size_mb="$2"
    [ -f "$log" ] && return
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
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

measure() {
    local TIMEFORMAT='%R %U %S' out
    out=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
    awk '{ printf "%s %.3f\n", $1, $2 + $3 }' <<<"$out"
}

# alternate RUNS NAME...: RUNS rounds, each running every NAME once in turn through the
# caller's `run_variant NAME` under measure; the "wall" and "cpu" of each run are appended to
# the caller's associative arrays wall[NAME] and cpu[NAME], one a line; load_before and
# load_after are the load averages around it all.
alternate() {
    local runs="$1" i name m
    shift
    load_before=$(cut -d' ' -f1-3 /proc/loadavg)
    for ((i = 0; i < runs; i++)); do
        for name in "$@"; do
            m=$(measure run_variant "$name")
            wall[$name]+="${m% *}"$'\n'
            cpu[$name]+="${m#* }"$'\n'
        done
    done
    load_after=$(cut -d' ' -f1-3 /proc/loadavg)
}

setup_replay_bench() {
    size_mb="${1:-100}"
    runs="${2:-5}"
    cli="$PWD/${3:-build/default}/app/hitcounter-cli"
    local dir="${4:-/tmp/hitcounter-bench-filter}"
    mkdir -p "$dir"
    log="$dir/access-${size_mb}M.log"
    generate_log "$log" "$size_mb"
    lines=$(wc -l < "$log")
}

# The lines above a table: the log, the runs, the machine and the load around alternate().
print_bench_header() {
    local cpu_model
    cpu_model=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
    echo "file: $log ($(du -h "$log" | cut -f1), $lines lines), median of $runs runs alternating,"
    echo "$(nproc) cores ($cpu_model), load average $load_before before, $load_after after"
    echo
}
