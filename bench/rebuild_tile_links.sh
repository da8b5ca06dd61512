#!/bin/bash
# usage: bench/rebuild_tile_links.sh <scene> <runs> <ylo> <yhi> <box...>: one tiled build (64-cell
# tiles) with C2 jump links at step 4 and --cache, then <runs> rebuilds per changed box
# ("minx,miny,minz,maxx,maxy,maxz" with y from ylo to yhi; the geometry is unchanged, so the
# tiles the box touches are rebuilt and relinked on identical input), --threads 1; prints per box
# the medians of the stats times and checks the rebuilt file equals the built one.
L=${LEAPNAV:-build/release/bin/leapnav}
scene=$1; runs=$2; ylo=$3; yhi=$4; shift 4
dir=$(mktemp -d)
start=$(date +%s.%N)
$L build builtin:$scene --tile-size 64 --jump C2 --step 4 --cache $dir/c.cache -o $dir/full.lnav --threads 1 >/dev/null || exit 1
echo "build with --cache: $(echo "$(date +%s.%N) - $start" | bc) s"
for xz in "$@"; do
  IFS=, read -r x0 z0 x1 z1 <<<"$xz"
  box="$x0,$ylo,$z0,$x1,$yhi,$z1"
  for i in $(seq 1 $runs); do
    $L rebuild $dir/full.lnav builtin:$scene --cache $dir/c.cache --changed $box -o $dir/re.lnav --threads 1 --stats $dir/s$i.json >/dev/null || exit 1
  done
  cmp -s $dir/full.lnav $dir/re.lnav && same=identical || same=DIFFERENT
  python3 - "$dir" "$runs" "$scene" "$box" "$same" <<'PY'
import json, statistics, sys
d, runs, scene, box, same = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
rows = [json.load(open(f"{d}/s{i}.json")) for i in range(1, runs + 1)]
keys = ["load", "rebuild", "links", "write", "cache_write", "total"]
med = {k: statistics.median(r["times_ms"][k] for r in rows) for k in keys}
r = rows[0]
print(f"{scene} box {box}: rebuilt {r['tiles_rebuilt']} of {r['tiles']} tiles, relinked {r['tiles_relinked']}, "
      f"{r['jump_links']} links ({same}); median ms " + ", ".join(f"{k} {med[k]:.1f}" for k in keys))
lt = {}
for row in rows:
    for k, v in row["timings_ms"].items():
        if k.startswith("tile_links"):
            lt.setdefault(k, []).append(v)
print("   link timers: " + ", ".join(f"{k} {statistics.median(v):.1f}" for k, v in sorted(lt.items())))
PY
done
ls -la $dir/full.lnav $dir/c.cache | awk '{print $5, $9}'
rm -rf $dir
