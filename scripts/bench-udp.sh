#!/usr/bin/env bash
# statsd over UDP side by side: an empty receiver (the loopback's limit), hitcounter's listener
# with 1 and N receiver threads, and etsy statsd, fed by the same paced sender in one run
# (tests/benchmarks/bench_udp_receivers.cpp; results in docs/benchmarks.md).
#   scripts/bench-udp.sh [bench_udp_receivers options, e.g. --runs 5 --seconds 2]
# etsy statsd is not a dependency of the project: install it into a scratch directory outside
# the repository and point STATSD_DIR at it (default /work/scratch/statsd):
#   mkdir -p /work/scratch/statsd && (cd /work/scratch/statsd && npm install statsd)
# Without it the table has no statsd rows. Needs a default build (scripts/build.sh default).
set -euo pipefail
cd "$(dirname "$0")/.."
bench="$PWD/build/default/tests/benchmarks/bench_udp_receivers"
statsd_dir="${STATSD_DIR:-/work/scratch/statsd}"
statsd_js="$statsd_dir/node_modules/statsd/stats.js"
args=("$@")
if [ -f "$statsd_js" ] && command -v node >/dev/null; then
    work="$(mktemp -d)"
    trap 'kill "$statsd_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
    # Free ports picked by the kernel; the flush interval is longer than any run, so its
    # counters keep everything received (no backend is asked to send anything).
    read -r port mgmt < <(python3 -c 'import socket
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); a.bind(("127.0.0.1", 0))
b = socket.socket(); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
    cat > "$work/config.js" <<CONFIG
{ address: "127.0.0.1", port: $port, mgmt_address: "127.0.0.1", mgmt_port: $mgmt,
  flushInterval: 86400000, backends: ["./backends/console"], deleteCounters: false }
CONFIG
    (cd "$statsd_dir/node_modules/statsd" && exec node stats.js "$work/config.js") \
        > "$work/statsd.log" 2>&1 &
    statsd_pid=$!
    for _ in $(seq 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$mgmt") 2>/dev/null; then break; fi
        sleep 0.1
    done
    echo "etsy statsd $(node -p "require('$statsd_dir/node_modules/statsd/package.json').version") (node $(node --version)) on 127.0.0.1:$port, pid $statsd_pid" >&2
    args+=(--statsd "$port:$mgmt:$statsd_pid")
else
    echo "no etsy statsd in $statsd_dir: measuring without it" >&2
fi
"$bench" "${args[@]}"
