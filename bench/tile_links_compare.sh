#!/usr/bin/env bash
# Tiled vs untiled jump links on dungeon.obj (bench/RESULTS.md, "Jump links on tiled builds"):
# link counts, check-links, and the same 2,000 path queries on each file.
# Usage: bench/tile_links_compare.sh path/to/leapnav ../shared/meshes/dungeon.obj OUTDIR
set -euo pipefail
B=$(realpath "$1"); S=$(realpath "$2"); mkdir -p "$3"; cd "$3"
for ts in 0 64 32; do
  /usr/bin/time -v "$B" build "$S" -c thesis --jump C2 --tile-size "$ts" --threads 2 -o "d$ts.lnav" \
    --stats "d$ts.json" > "d$ts.out" 2>&1
  "$B" check-links "d$ts.lnav" "$S" | tee "d$ts.check"
done
"$B" sample d0.lnav -n 4000 --seed 7 > points.txt
paste -d' ' <(head -2000 points.txt) <(tail -2000 points.txt) > queries.txt
python3 - "$B" queries.txt d0.lnav d64.lnav d32.lnav <<'PY'
import json, subprocess, sys
B, q, files = sys.argv[1], sys.argv[2], sys.argv[3:]
runs = {}
for f in files:
    lines = subprocess.run([B, "paths", f, q, "-j", "1"], capture_output=True, text=True,
                           check=True).stdout.strip().split("\n")
    runs[f] = [json.loads(l) for l in lines[:-1]]
base = runs[files[0]]
for f in files:
    rows = runs[f]
    ok = lambda r: r.get("status") == "found"
    jumps = sum(1 for r in rows if ok(r) and any(s["kind"] != "walk" for s in r["segments"]))
    both = [(b["length"], r["length"]) for b, r in zip(base, rows) if ok(b) and ok(r)]
    mb = sum(x for x, _ in both) / max(1, len(both))
    mr = sum(y for _, y in both) / max(1, len(both))
    lost = sum(1 for b, r in zip(base, rows) if ok(b) and not ok(r))
    new = sum(1 for b, r in zip(base, rows) if not ok(b) and ok(r))
    print(f"{f}: found {sum(map(ok, rows))} of {len(rows)}, with jumps {jumps}, mean length "
          f"{mr:.3f} m vs {mb:.3f} m ({100 * (mr / mb - 1):+.2f} %), lost {lost}, new {new}")
PY
