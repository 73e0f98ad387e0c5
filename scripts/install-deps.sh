#!/usr/bin/env bash
# Installs the Debian 12 packages hitcounter needs to build, run and test, skipping those
# already present. Runs apt as root, or through sudo.
set -euo pipefail

packages=(
    build-essential cmake ninja-build ccache clang libclang-rt-14-dev
    qt6-base-dev libqcustomplot-dev libgl1-mesa-dev
    libgtest-dev libbenchmark-dev
    xvfb xauth
    redis-server libhiredis-dev
    zlib1g-dev goaccess
)

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
