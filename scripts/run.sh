#!/usr/bin/env bash
# Installs what is missing, builds, and starts the hitcounter monitor on its default source
# (the traffic simulator). Extra arguments go to the GUI, e.g. scripts/run.sh --replay t.csv
# Without a display (no DISPLAY or WAYLAND_DISPLAY) it writes a screenshot instead:
# build/default/screenshot.png.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh default
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "run: no display; writing build/default/screenshot.png after 4 s instead"
    QT_QPA_PLATFORM=offscreen build/default/app/hitcounter "$@" \
        --screenshot build/default/screenshot.png --after 4
    exit 0
fi
exec build/default/app/hitcounter "$@"
