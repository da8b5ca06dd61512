#!/usr/bin/env bash
# The main job on the built-in demo scene: install what is missing, build Release, then build the
# demo level's navmesh and write the results under out/.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target leapnav_cli_exe
leapnav=build/release/bin/leapnav
mkdir -p out

"$leapnav" scene demo -o out/demo.obj
"$leapnav" voxelize builtin:demo --stats out/demo_voxels.json
echo "demo: outputs in out/: $(ls out | tr '\n' ' ')"
