#!/usr/bin/env bash
# Installs the Debian 12 packages hitcounter needs to build, run and test, skipping those
# already present. Runs apt as root, or through sudo.
#   scripts/install-deps.sh [--screenshots]
# --screenshots adds what scripts/wm-screenshots.sh needs to take the docs' screenshots under a
# real window manager (no test needs them).
set -euo pipefail

packages=(
    # Build: compiler, CMake + Ninja (every preset uses Ninja), ccache (CMakeLists.txt and
    # scripts/build.sh use it when present), pkg-config (core/fleet finds hiredis with it).
    build-essential cmake ninja-build ccache pkg-config
    # The fuzz preset: clang++ and its libFuzzer/sanitizer runtimes (scripts/fuzz.sh).
    clang libclang-rt-14-dev
    # Qt 6 (Core, Test, Gui, Widgets, PrintSupport) and QCustomPlot for ui/ and the GUI;
    # Qt6Gui's CMake package requires the OpenGL headers (WrapOpenGL) even with OpenGL off.
    qt6-base-dev libqcustomplot-dev libgl1-mesa-dev
    # The teaching view's Code tab and `hitcounter-cli teach --code` run the student's
    # JavaScript in Qt's own engine, QJSEngine (Qt6::Qml; app/teach_js).
    qt6-declarative-dev
    # tests/teach checks the handout PDF by turning its pages into PNGs (pdftoppm) and reading
    # its text back (pdftotext).
    poppler-utils
    # core/io reads gzipped logs (zlib); core/fleet talks to Redis (hiredis); tests/fleet,
    # tests/app and the Redis benchmarks start real redis-server instances.
    zlib1g-dev libhiredis-dev redis-server
    # core/filter matches --filter's regular expressions (path~'^/api/') with RE2: linear time
    # in the line, never backtracking, so no pattern can stall a replay or a listener.
    libre2-dev
    # tests/ui/tst_state_json replays a real 2009 Apache log no one here wrote: logstalgia's
    # example (/usr/share/logstalgia/example.log, 3,260 lines in a +1200 zone).
    logstalgia
    # tests/benchmarks (Google Benchmark); scripts/bench-access-log.sh times goaccess beside
    # hitcounter-cli (docs/benchmarks.md).
    libbenchmark-dev goaccess
    # The layering check in the test command (scripts/check-layers.py, tests/layers).
    python3
    # tests/ui/tst_policy_costs keeps a core busy beside the monitor (stress-ng --cpu 1) while
    # it checks the policy comparison's cost ranking (issue 23).
    stress-ng
    # `listen --metrics` serves Prometheus' formats over HTTP (libmicrohttpd), `--config` reads
    # TOML (toml++), and the systemd service's readiness and watchdog go through sd_notify
    # (libsystemd; without systemd it does nothing).
    libmicrohttpd-dev libtomlplusplus-dev libsystemd-dev
    # tests/app and tests/metrics check the exposition with promtool and scrape a real
    # Prometheus 2.42 that they start themselves (on a free 127.0.0.1 port, temporary storage).
    prometheus
)
if [ "${1:-}" = "--screenshots" ]; then
    # scripts/wm-screenshots.sh: a virtual X server, a window manager (title bar, borders),
    # a way to maximise the window and a screen grabber (docs/gui.md, "Screenshots");
    # x11-utils for xdpyinfo, which the script polls until the X server answers.
    packages+=(xvfb openbox xdotool imagemagick x11-utils)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm may come from elsewhere than Debian (a bundled npm is not a Debian package);
# install Debian's only when the commands are missing.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"

# Debian's prometheus package starts its own service on install (0.0.0.0:9090, scraping
# localhost). The tests start their own Prometheus; nothing of ours should listen unasked, so
# stop the packaged one and keep it from starting at boot.
if printf '%s\n' "${missing[@]}" | grep -qx prometheus; then
    if [ -d /run/systemd/system ]; then
        "${as_root[@]}" systemctl disable --now prometheus.service >/dev/null 2>&1 || true
    else
        "${as_root[@]}" service prometheus stop >/dev/null 2>&1 || true
        "${as_root[@]}" update-rc.d prometheus disable >/dev/null 2>&1 || true
    fi
fi
