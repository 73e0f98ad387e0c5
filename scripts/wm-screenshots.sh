#!/usr/bin/env bash
# Screenshots of the monitor under a real window manager, as a user sees it: a virtual X
# screen (Xvfb) of each size, openbox with its title bar and borders and a 30 px strip kept
# free as a panel would (openbox <margins>), the window maximised by openbox into what is left,
# the whole screen captured with ImageMagick's import. Light and dark at 1280x720,
# 1024x768 and 1920x1080 (docs/gui.md, "Screenshots under a window manager").
#   scripts/wm-screenshots.sh [BUILD_DIR=build/default] [OUT_DIR=docs]
# Needs: scripts/install-deps.sh --screenshots (xvfb, openbox, xdotool, imagemagick).
# Each run uses its own display number and settings folder, and stops what it started.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/default}"
out="${2:-docs}"
gui="$build/app/hitcounter"
for tool in Xvfb openbox xdotool import; do
    command -v "$tool" >/dev/null || { echo "wm-screenshots: $tool missing (scripts/install-deps.sh --screenshots)" >&2; exit 2; }
done
[ -x "$gui" ] || { echo "wm-screenshots: $gui not built (scripts/build.sh default)" >&2; exit 2; }

work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# openbox: the default decorations, a panel's 30 px kept free at the bottom, new windows
# maximised (what a user does with a monitor on a small screen).
mkdir -p "$work/openbox"
cat > "$work/openbox/rc.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<openbox_config xmlns="http://openbox.org/3.4/rc">
  <margins><top>0</top><bottom>30</bottom><left>0</left><right>0</right></margins>
  <applications><application class="*"><maximized>yes</maximized></application></applications>
</openbox_config>
XML

display=$((90 + RANDOM % 400))
for size in 1280x720 1024x768 1920x1080; do
    for theme in light dark; do
        Xvfb ":$display" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
        pids+=($!)
        for _ in $(seq 50); do xdpyinfo -display ":$display" >/dev/null 2>&1 && break; sleep 0.1; done
        DISPLAY=":$display" openbox --config-file "$work/openbox/rc.xml" >/dev/null 2>&1 &
        pids+=($!)
        sleep 1
        # A settings folder of its own: the first window fits the screen's available area.
        XDG_CONFIG_HOME="$work/config-$size-$theme" DISPLAY=":$display" QT_QPA_PLATFORM=xcb \
            "$gui" --simulate poisson --theme "$theme" >/dev/null 2>&1 &
        app=$!
        pids+=($app)
        DISPLAY=":$display" xdotool search --sync --onlyvisible --pid "$app" >/dev/null
        sleep 15  # warm-up, a full window, the first cost figures (slower on a busy machine)
        file="$out/wm-monitor-$size-$theme.png"
        DISPLAY=":$display" import -window root "$file"
        echo "$file"
        window=$(DISPLAY=":$display" xdotool search --onlyvisible --pid "$app" | head -1)
        DISPLAY=":$display" xdotool getwindowgeometry "$window"
        kill "${pids[@]}" 2>/dev/null || true
        wait "${pids[@]}" 2>/dev/null || true
        pids=()
        display=$((display + 1))
    done
done
