#!/usr/bin/env bash
# The viewer in a real browser: installs Debian's chromium when missing, builds the viewer bundle
# (scripts/viewer.sh), writes the demo level's viewer folder with `leapnav view` (C1 and C2 links,
# a path that must jump), and runs viewer/test with node's test runner in headless Chromium: no
# console errors, the loaded nodes, the navmesh colours in a screenshot, click-to-inspect and the
# path tool. The screenshot is kept as build/viewer/viewer.png (docs/viewer.png is one of these).
# Usage: scripts/viewer_test.sh [leapnav executable]   (default build/release/bin/leapnav)
set -euo pipefail
cd "$(dirname "$0")/.."
leapnav=${1:-build/release/bin/leapnav}

if ! command -v chromium >/dev/null 2>&1; then
  echo "viewer test: installing chromium"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends chromium
fi
scripts/viewer.sh

out=build/viewer
mkdir -p "$out"
"$leapnav" build builtin:demo --jump C1 --jump C2 --step 2 -o "$out/demo.lnav" >/dev/null
stones=(--from 2.2,0.1,32.5 --to 22,0.1,37)
"$leapnav" view "$out/demo.lnav" --scene builtin:demo --max-links 300 "${stones[@]}" -o "$out/demo_view"
cd viewer
LEAPNAV_VIEW_DIR="../$out/demo_view" LEAPNAV_SCREENSHOT="../$out/viewer.png" \
  LEAPNAV_PATH_FROM=2.2,0.1,32.5 LEAPNAV_PATH_TO=22,0.1,37 LEAPNAV_PATH_JUMPS=1 \
  CHROMIUM="$(command -v chromium)" node --test test/
