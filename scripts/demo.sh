#!/usr/bin/env bash
# The main job on the built-in demo scene: install what is missing, build Release, build the demo
# level's navmesh with jump links (the thesis's C1 and C2 jumps), check the links exactly against
# the triangles, plan a path that must jump, and write the navmesh, its statistics, exports, the
# path and pictures under out/, with a glTF file and a 3-D browser viewer folder (out/demo_view);
# last, set up the Python module.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target leapnav_cli_exe
leapnav=build/release/bin/leapnav
mkdir -p out

"$leapnav" scene demo -o out/demo.obj
"$leapnav" build builtin:demo --jump C1 --jump C2 --step 2 -o out/demo.lnav --stats out/demo_stats.json
"$leapnav" info out/demo.lnav
"$leapnav" check-links out/demo.lnav builtin:demo
"$leapnav" export out/demo.lnav -o out/demo_navmesh.json
"$leapnav" export out/demo.lnav -o out/demo_navmesh.obj
"$leapnav" render out/demo.lnav -o out/demo.svg --png
"$leapnav" render out/demo.lnav -o out/demo_links.svg --png --links --max-links 300
"$leapnav" render out/demo.lnav -o out/demo_path.svg --png --from 2.2,0.1,32.5 --to 32,0.1,18
# the stepping stones in the pit can only be reached by jumping: walk and jump from the pier
"$leapnav" path out/demo.lnav --from 2.2,0.1,32.5 --to 22,0.1,37
"$leapnav" path out/demo.lnav --from 2.2,0.1,32.5 --to 22,0.1,37 --json >out/demo_jump_path.json
"$leapnav" render out/demo.lnav -o out/demo_jump_path.svg --png --from 2.2,0.1,32.5 --to 22,0.1,37
# the 3-D viewer: open out/demo_view/index.html in a browser (no server needed)
scripts/viewer.sh
"$leapnav" export out/demo.lnav -o out/demo.glb --scene builtin:demo --links --max-links 300 \
  --from 2.2,0.1,32.5 --to 22,0.1,37
"$leapnav" view out/demo.lnav --scene builtin:demo --max-links 300 --from 2.2,0.1,32.5 \
  --to 22,0.1,37 -o out/demo_view
# the Python module: `python3 -c "import leapnav"` works from here on
scripts/python_setup.sh
echo "demo: outputs in out/: $(ls out | tr '\n' ' ')"
