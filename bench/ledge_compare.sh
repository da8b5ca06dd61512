#!/usr/bin/env bash
# Ledge links (edge pairing, ledgelinks/) against the thesis's voxel jump-link generator on
# dungeon, nav_test and the demo: thesis configuration, max_jump_up / max_drop = the h / max_fall
# of C1 and C2. Per level and configuration: links found by each method, generation time (one
# thread, median of RUNS builds), and usefulness over random query pairs: how many pairs each set
# loses (no path where the union of both sets finds one) and how much longer its paths are.
# Usage: bench/ledge_compare.sh [RUNS] [PAIRS]   (from the repository root, after a release build)
set -euo pipefail
RUNS=${1:-3}
PAIRS=${2:-300}
L=build/release/bin/leapnav
SHARED=${LEAPNAV_SHARED:-../shared/meshes}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
echo "level,config,method,links,gen_ms_median,found,lost_vs_union,longer_1pct,mean_excess_pct"
for level in dungeon nav_test demo; do
  if [ "$level" = demo ]; then scene=builtin:demo; else scene=$SHARED/$level.obj; fi
  [ "$level" != demo ] && [ ! -f "$scene" ] && { echo "# $scene missing, skipped" >&2; continue; }
  for jc in C1 C2; do
    if [ "$jc" = C1 ]; then h=1; fall=2.5; else h=3; fall=7.5; fi
    echo "{\"base\":\"thesis\",\"agent\":{\"max_jump_up\":$h,\"max_drop\":$fall}}" > "$OUT/cfg.json"
    for run in $(seq 1 "$RUNS"); do
      $L build "$scene" --config "$OUT/cfg.json" --jump $jc --ledge-links --threads 1 \
        -o "$OUT/nav.lnav" --stats "$OUT/stats$run.json" > /dev/null
    done
    $L sample "$OUT/nav.lnav" -n $((2 * PAIRS)) --seed 27 |
      paste -d' ' - - > "$OUT/queries.txt"
    $L paths "$OUT/nav.lnav" "$OUT/queries.txt" -j 1 > "$OUT/union.jsonl"
    $L paths "$OUT/nav.lnav" "$OUT/queries.txt" -j 1 --no-ledge-links > "$OUT/jump.jsonl"
    $L paths "$OUT/nav.lnav" "$OUT/queries.txt" -j 1 --no-jumps > "$OUT/ledge.jsonl"
    $L paths "$OUT/nav.lnav" "$OUT/queries.txt" -j 1 --no-jumps --no-ledge-links > "$OUT/walk.jsonl"
    python3 - "$OUT" "$level" "$jc" "$RUNS" <<'PY'
import json, statistics, sys
out, level, jc, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
stats = [json.load(open(f"{out}/stats{r}.json")) for r in range(1, runs + 1)]
def med(keys):
    return statistics.median(sum(s["timings_ms"].get(k, 0.0) for k in keys) for s in stats)
jump_keys = [k for k in stats[0]["timings_ms"] if k.startswith("jump") or k.startswith("refine")]
def load(name):
    return [json.loads(l) for l in open(f"{out}/{name}.jsonl") if '"summary"' not in l]
union = load("union")
rows = {"jump": (stats[0]["jump_links"], med(jump_keys)),
        "ledge": (stats[0]["ledge_links"], med(["ledge_links"])),
        "walk": (0, 0.0), "union": (stats[0]["jump_links"] + stats[0]["ledge_links"], 0.0)}
for method in ["walk", "jump", "ledge", "union"]:
    paths = load(method)
    found = sum(p["status"] == "found" for p in paths)
    lost = sum(u["status"] == "found" and p["status"] != "found" for u, p in zip(union, paths))
    both = [(u["length"], p["length"]) for u, p in zip(union, paths)
            if u["status"] == "found" and p["status"] == "found" and u["length"] > 0]
    longer = sum(p > u * 1.01 for u, p in both)
    excess = 100.0 * statistics.mean(p / u - 1.0 for u, p in both) if both else 0.0
    links, ms = rows[method]
    print(f"{level},{jc},{method},{links},{ms:.1f},{found},{lost},{longer},{excess:.2f}")
print(f"# {level} {jc}: ledge kinds {stats[0]['ledge_kinds']}, candidates "
      f"{stats[0]['ledge_candidates']}, failing the check {stats[0]['ledge_links_failing']} "
      f"(dropped {stats[0]['ledge_links_dropped']}); jump timers {jump_keys}")
PY
  done
done
