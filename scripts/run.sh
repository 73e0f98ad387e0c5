#!/usr/bin/env bash
# Installs what is missing, builds, and runs hitcounter's main job on its default.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh default
trace="build/default/demo_trace.csv"
build/default/app/hitcounter-cli gen --pattern poisson --rate 50 --duration 900 --keys 20 \
    --seed 1 --out "$trace"
build/default/app/hitcounter-cli replay "$trace" --policy all --at 300,600,900
