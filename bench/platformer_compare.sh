#!/bin/sh
# The platformer links of a tile map against the 3-D jump links of the same map extruded to 1 m
# boxes (bench/RESULTS.md, "Side-view platformers"). usage: platformer_compare.sh MAP.txt [RADIUS]
# The nine --jump configurations are the fixture parameters' (h, speed cap) grid: h = 1.1, 2.2,
# 3.3 m; d = the horizontal distance back at take-off height (v_b 2.1 accelerating by 9.7 up to the
# cap 2.1, 4.2 or 6.3 m/s under g 19.3); max_fall = the drop from the apex within T = 1.5 s.
set -eu
map=$1
radius=${2:-0.2}
leapnav=${LEAPNAV:-build/release/bin/leapnav}
out=$(mktemp -d)
cat > "$out/tiles3d.json" <<JSON
{"base": "thesis", "name": "platformer_tiles",
 "voxel": {"cell_size": 0.25, "cell_height": 0.1},
 "agent": {"height": 0.9, "radius": $radius, "max_climb": 0.4, "max_slope_deg": 45},
 "region": {"min_region_area": 0, "merge_region_area": 0}}
JSON
"$leapnav" platformer "$map" --obj "$out/level.obj" --depth 3 > /dev/null 2>&1
"$leapnav" build "$out/level.obj" -o "$out/level.lnav" --config "$out/tiles3d.json" --step 1 \
  --jump 1.100,1.418,13.038 --jump 1.100,2.609,13.038 --jump 1.100,3.345,13.038 \
  --jump 2.200,2.005,10.090 --jump 2.200,3.783,10.090 --jump 2.200,5.107,10.090 \
  --jump 3.300,2.456,8.083 --jump 3.300,4.685,8.083 --jump 3.300,6.459,8.083 > /dev/null
"$leapnav" export "$out/level.lnav" -o "$out/export.json" > /dev/null
"$leapnav" platformer "$map" --json > "$out/graph.json"
python3 "$(dirname "$0")/platformer_compare.py" "$map" "$out/graph.json" "$out/export.json"
rm -rf "$out"
