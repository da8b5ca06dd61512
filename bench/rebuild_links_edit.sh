#!/bin/bash
# usage: bench/rebuild_links_edit.sh <scene> <runs> <x0,z0,x1,z1> <height> <leapnav>...: a real
# one-tile edit with C2 jump links at step 4. Exports builtin <scene> as OBJ, appends a box
# [x0, x1] x [0, height] x [z0, z1] (12 triangles) as the edited level, builds the original with
# 64-cell tiles and --cache (first binary, --threads 2), then for each run and each binary in
# turn (alternating, so load drifts hit both alike) restores the pristine cache and rebuilds with
# the edited level and --changed the box, --threads 1. Checks every rebuilt file equals a full
# build of the edited level, and prints per binary the medians of the stats times (library
# calls: "rebuild" the mesh, "links" the jump links, wall and processor time) and of the link
# timers, and the median processor time of the whole CLI call (GNU time), then per relinked tile
# (first run's reason and changed flag, median processor time and stage timers).
# EDIT_DIR=<dir>: keep the scenes and the two full builds there and reuse them on the next call
# with the same arguments (the full builds of city:25 take about a minute).
set -e
scene=$1; runs=$2; xz=$3; height=$4; shift 4
bins=("$@")
if [ -n "$EDIT_DIR" ]; then dir=$EDIT_DIR; mkdir -p "$dir"; else dir=$(mktemp -d); fi
IFS=, read -r x0 z0 x1 z1 <<<"$xz"
L=${bins[0]}
$L scene "$scene" -o $dir/a.obj >/dev/null
python3 - "$dir/a.obj" "$dir/b.obj" "$x0" "$z0" "$x1" "$z1" "$height" <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
x0, z0, x1, z1, h = map(float, sys.argv[3:])
lines = open(src).read().splitlines()
nv = sum(1 for l in lines if l.startswith("v "))
out = list(lines)
for k in range(8):
    out.append(f"v {x1 if k & 1 else x0} {h if k & 2 else 0.0} {z1 if k & 4 else z0}")
for q in ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)):
    v = [nv + 1 + i for i in q]
    out.append(f"f {v[0]} {v[2]} {v[1]}")
    out.append(f"f {v[0]} {v[3]} {v[2]}")
open(dst, "w").write("\n".join(out) + "\n")
PY
box="$x0,0,$z0,$x1,$height,$z1"
opts="--tile-size 64 --jump C2 --step 4"
key="$scene $xz $height"
if [ -z "$EDIT_DIR" ] || [ "$(cat $dir/key 2>/dev/null)" != "$key" ]; then
  $L build $dir/a.obj $opts --cache $dir/c0.cache -o $dir/a.lnav --threads 2 >/dev/null
  $L build $dir/b.obj $opts -o $dir/b.lnav --threads 2 >/dev/null
  echo "$key" >$dir/key
fi
for i in $(seq 1 $runs); do
  for k in "${!bins[@]}"; do
    cp $dir/c0.cache $dir/c.cache
    cp $dir/c0.cache.links $dir/c.cache.links
    /usr/bin/time -f "%U %S" -o $dir/t$k-$i.txt ${bins[$k]} rebuild $dir/a.lnav $dir/b.obj \
      --cache $dir/c.cache --changed $box -o $dir/re.lnav --threads 1 --stats $dir/s$k-$i.json >/dev/null
    cmp -s $dir/b.lnav $dir/re.lnav || { echo "binary $k run $i: rebuilt file differs from the full build"; exit 1; }
  done
done
python3 - "$dir" "$runs" "$scene" "$box" "${bins[@]}" <<'PY'
import json, statistics, sys
d, runs, scene, box = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
bins = sys.argv[5:]
for k, b in enumerate(bins):
    rows = [json.load(open(f"{d}/s{k}-{i}.json")) for i in range(1, runs + 1)]
    r = rows[0]
    med = lambda f: statistics.median(f(x) for x in rows)
    print(f"{b}: {scene} box {box}: rebuilt {r['tiles_rebuilt']} of {r['tiles']} tiles, relinked "
          f"{r['tiles_relinked']} ({r['tiles_polygons_changed']} with changed polygons, {r.get('tiles_links_changed', '?')} with changed links), "
          f"{r['jump_links']} links, same as the full build; median ms: "
          + ", ".join(f"{key} {med(lambda x: x['times_ms'].get(key, float('nan'))):.1f}" for key in ("rebuild", "links", "rebuild_cpu", "links_cpu", "total")))
    cpu = statistics.median(sum(map(float, open(f"{d}/t{k}-{i}.txt").read().split())) for i in range(1, runs + 1))
    print(f"   process CPU (user + sys, whole CLI call) median {1000 * cpu:.0f} ms")
    keys = sorted({key for x in rows for key in x["timings_ms"] if key.startswith(("tile_links", "relink"))})
    print("   timers: " + ", ".join(f"{key} {med(lambda x: x['timings_ms'].get(key, 0.0)):.1f}" for key in keys))
    if "relinked_tiles" in r:
        for j, tile in enumerate(r["relinked_tiles"]):
            per = [x["relinked_tiles"][j] for x in rows]
            stages = sorted(tile["stages_ms"], key=lambda s: -statistics.median(p["stages_ms"].get(s, 0.0) for p in per))
            print(f"   {tile['tile']} ({tile['reason']}, {tile['links']} links, "
                  f"{'changed' if tile['links_changed'] else 'same'}): cpu {statistics.median(p['cpu_ms'] for p in per):.1f} ms; "
                  + ", ".join(f"{s} {statistics.median(p['stages_ms'].get(s, 0.0) for p in per):.1f}" for s in stages[:8]))
PY
if [ -z "$EDIT_DIR" ]; then rm -rf $dir; else rm -f $dir/s*.json $dir/t*.txt $dir/re.lnav $dir/c.cache $dir/c.cache.links; fi
