#!/bin/bash
# usage: bench/rebuild_tile.sh <scene> <runs> <ylo> <yhi>: one tiled build with --cache, then <runs>
# rebuilds per changed box (three boxes inside one 64-cell tile each), --threads 1; prints per box
# the median of every stats time and checks the rebuilt file equals the built one.
# "phases" sums the medians of the call's phases; "rebuild_min" is the fastest call.
# With LEAPNAV_B set to a second binary, both binaries build their own cache and their rebuilds
# alternate run by run (A, B, A, B, ...); each gets its own medians.
L=${LEAPNAV:-build/release/bin/leapnav}
scene=$1; runs=$2; ylo=$3; yhi=$4
dir=$(mktemp -d)
names=(A); bins=("$L")
if [ -n "$LEAPNAV_B" ]; then names=(A B); bins=("$L" "$LEAPNAV_B"); fi
for k in "${!bins[@]}"; do
  n=${names[$k]}
  ${bins[$k]} build builtin:$scene --tile-size 64 --cache $dir/$n.cache -o $dir/$n.full.lnav --threads 1 >/dev/null || exit 1
done
# BOXES="x0,y0,z0,x1,y1,z1 ..." replaces the three boxes
for box in ${BOXES:-"505,$ylo,505,510,$yhi,510" "200,$ylo,200,205,$yhi,205" "795,$ylo,300,800,$yhi,305"}; do
  for i in $(seq 1 $runs); do
    for k in "${!bins[@]}"; do
      n=${names[$k]}
      ${bins[$k]} rebuild $dir/$n.full.lnav builtin:$scene --cache $dir/$n.cache --changed $box -o $dir/$n.re.lnav --threads 1 --stats $dir/$n.s$i.json >/dev/null || exit 1
    done
  done
  for k in "${!bins[@]}"; do
    n=${names[$k]}
    cmp -s $dir/$n.full.lnav $dir/$n.re.lnav && same=identical || same=DIFFERENT
    python3 - "$dir" "$runs" "$scene" "$box" "$same" "$n" "${bins[$k]}" <<'PY'
import json, statistics, sys
d, runs, scene, box, same, n, binary = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7]
rows = [json.load(open(f"{d}/{n}.s{i}.json")) for i in range(1, runs + 1)]
keys = ["load", "pieces_load", "hash_load", "assign", "check", "scan", "fingerprints", "tiles", "tile_stages", "stitch", "stitch_pieces", "splice", "validate", "hash", "rebuild", "rebuild_cpu", "write", "cache_write", "total"]
keys = [k for k in keys if k in rows[0]["times_ms"]]
med = {k: statistics.median(r["times_ms"][k] for r in rows) for k in keys}
# on a loaded host a run is preempted for whole scheduler ticks (~4 ms) in some phase: the sum of
# the phases' medians (assign, tiles, stitch, hash, and the rest of the call) and the fastest
# call estimate the call without them
rest = statistics.median(r["times_ms"]["rebuild"] - sum(r["times_ms"][k] for k in ("assign", "tiles", "stitch", "hash")) for r in rows)
med["phases"] = sum(med[k] for k in ("assign", "tiles", "stitch", "hash")) + rest
med["rebuild_min"] = min(r["times_ms"]["rebuild"] for r in rows)
keys += ["phases", "rebuild_min"]
stages = {}
for r in rows:
    for k, v in r["timings_ms"].items():
        if k.startswith("tile:"):
            stages.setdefault(k[5:], []).append(v)
print(f"[{n}: {binary}] {scene} box {box}: rebuilt {rows[0]['tiles_rebuilt']} reused {rows[0]['tiles_reused']} listed {rows[0].get('tiles_listed', '-')} pieces {rows[0].get('pieces_stitched', '-')}/{rows[0].get('pieces_linked', '-')} rehashed {rows[0].get('tiles_rehashed', '-')} ({same}); median ms " +
      ", ".join(f"{k} {med[k]:.2f}" for k in keys))
print("   stages: " + ", ".join(f"{k} {statistics.median(v):.3f}" for k, v in stages.items()))
PY
  done
done
for n in "${names[@]}"; do ls -la $dir/$n.full.lnav $dir/$n.cache | awk '{print $5, $9}'; done
rm -rf $dir
