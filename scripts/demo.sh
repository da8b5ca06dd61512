#!/usr/bin/env bash
# The main job on the built-in demo scene: install what is missing, build Release, build the demo
# level's navmesh, and write it, its statistics, exports and a picture under out/.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target leapnav_cli_exe
leapnav=build/release/bin/leapnav
mkdir -p out

"$leapnav" scene demo -o out/demo.obj
"$leapnav" build builtin:demo -o out/demo.lnav --stats out/demo_stats.json
"$leapnav" info out/demo.lnav
"$leapnav" export out/demo.lnav -o out/demo_navmesh.json
"$leapnav" export out/demo.lnav -o out/demo_navmesh.obj
"$leapnav" render out/demo.lnav -o out/demo.svg --png
echo "demo: outputs in out/: $(ls out | tr '\n' ' ')"
