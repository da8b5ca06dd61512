#!/usr/bin/env python3
"""Turns leapnav_bench CSV into the markdown tables of bench/RESULTS.md."""
import csv
import math
import sys
from collections import defaultdict

RECAST_TOTAL = {("dungeon", "default"): 14.1, ("dungeon", "thesis"): 19.5,
                ("nav_test", "default"): 19.6, ("nav_test", "thesis"): 26.6}
RECAST_VOXEL = {("dungeon", "default"): 11.3, ("nav_test", "default"): 13.5}
RECAST_POLYS = {("dungeon", "default"): 118, ("dungeon", "thesis"): 175,
                ("nav_test", "default"): 155, ("nav_test", "thesis"): 203}
THESIS_TIME = {
    ("dungeon", "C1"): [2.37, 0.96, 0.20, 0.05, 0.03, 0.01, 0.01, 0.00, 0.00],
    ("dungeon", "C2"): [4.48, 1.26, 0.39, 0.12, 0.06, 0.03, 0.02, 0.01, 0.01],
    ("dungeon", "C3"): [3.66, 1.07, 0.28, 0.09, 0.05, 0.02, 0.02, 0.01, 0.01],
    ("nav_test", "C1"): [7.47, 3.01, 0.80, 0.30, 0.14, 0.04, 0.02, 0.01, 0.01],
    ("nav_test", "C2"): [14.28, 3.61, 1.32, 0.60, 0.30, 0.12, 0.08, 0.06, 0.04],
    ("nav_test", "C3"): [25.69, 5.65, 1.80, 0.97, 0.48, 0.23, 0.15, 0.11, 0.08],
}
THESIS_MB = {
    ("dungeon", "C1"): [1.97, 0.49, 0.13, 0.06, 0.03, 0.02, 0.01, 0.01, 0.01],
    ("dungeon", "C2"): [4.39, 1.11, 0.29, 0.12, 0.07, 0.04, 0.03, 0.02, 0.02],
    ("dungeon", "C3"): [2.47, 0.62, 0.16, 0.07, 0.04, 0.02, 0.02, 0.01, 0.01],
    ("nav_test", "C1"): [4.11, 1.03, 0.26, 0.12, 0.07, 0.04, 0.03, 0.02, 0.02],
    ("nav_test", "C2"): [13.87, 3.48, 0.87, 0.39, 0.22, 0.14, 0.10, 0.07, 0.05],
    ("nav_test", "C3"): [20.35, 5.09, 1.27, 0.57, 0.32, 0.21, 0.15, 0.11, 0.08],
}
STEPS = [1, 2, 4, 6, 8, 10, 12, 14, 16]


def extras(row):
    out = {}
    for item in row["extra"].split():
        if "=" in item:
            k, v = item.split("=", 1)
            out[k] = v
    return out


def main(path):
    rows = list(csv.DictReader(open(path)))
    build = defaultdict(dict)
    for r in rows:
        if r["stage"].startswith(("jump_", "query", "optimality", "load_obj")):
            continue
        build[(r["scene"], r["config"], int(r["threads"]))][r["stage"]] = r
    if build:
        stages = ["rasterize", "filter", "compact", "erode", "distance_field", "regions", "contours",
                  "polygons", "heights", "span_map", "voxel_stages", "total"]
        print("### Build (median ms per stage)\n")
        print("| scene | config | threads | " + " | ".join(stages) +
              " | CPU ms | Recast total | wall ratio | CPU ratio | polygons (Recast) | regions |")
        print("|" + "---|" * (len(stages) + 9))
        for (scene, config, threads), st in sorted(build.items()):
            cells = [f"{float(st[s]['ms_median']):.2f}" if s in st else "" for s in stages]
            total = float(st["total"]["ms_median"]) if "total" in st else None
            ref = RECAST_TOTAL.get((scene, config))
            ratio = f"{total / ref:.2f}x" if total and ref else ""
            ex = extras(st["total"]) if "total" in st else {}
            cpu = float(ex["cpu_ms_median"]) if "cpu_ms_median" in ex else None
            cpu_ratio = f"{cpu / ref:.2f}x" if cpu and ref and threads == 1 else ""
            polys = ex.get("polygons", "")
            if (scene, config) in RECAST_POLYS:
                polys += f" ({RECAST_POLYS[(scene, config)]})"
            cpu_text = f"{cpu:.2f}" if cpu else ""
            print(f"| {scene} | {config} | {threads} | " + " | ".join(cells) +
                  f" | {cpu_text} | {ref or ''} | {ratio} | {cpu_ratio} | {polys} |"
                  f" {ex.get('regions', '')} |")
        print()
    jumps = [r for r in rows
             if r["stage"].startswith("jump_") and not r["stage"].startswith("jump_query")]
    if jumps:
        print("### Jump links: generation time, seconds (leapnav / thesis, speed-up)\n")
        print("One thread: process CPU time; all threads: wall time. Speed-ups rounded down.\n")
        by = defaultdict(dict)
        for r in jumps:
            ex = extras(r)
            by[(r["scene"], ex["jump"], int(r["threads"]))][int(ex["step"])] = (r, ex)
        print("| scene | jump | threads | " + " | ".join(str(s) for s in STEPS) + " |")
        print("|" + "---|" * (len(STEPS) + 3))
        for (scene, jump, threads), cells in sorted(by.items()):
            ref = THESIS_TIME.get((scene, jump), [None] * 9)
            out = []
            for i, s in enumerate(STEPS):
                if s in cells:
                    row, ex = cells[s]
                    t = float(row["ms_median"]) / 1000.0
                    if threads == 1 and "cpu_ms_median" in ex:
                        t = float(ex["cpu_ms_median"]) / 1000.0
                    # note: rounded down, so that a cell short of a target (49.7x) never reads as
                    # meeting it
                    speed = f" ({math.floor(ref[i] / t)}x)" if ref[i] and t > 0 else ""
                    out.append(f"{t:.4f} / {ref[i]}{speed}")
                else:
                    out.append("")
            print(f"| {scene} | {jump} | {threads} | " + " | ".join(out) + " |")
        print("\n### Jump links: memory MB (leapnav / thesis), links, unsound links\n")
        print("| scene | jump | " + " | ".join(str(s) for s in STEPS) + " |")
        print("|" + "---|" * (len(STEPS) + 2))
        for (scene, jump, threads), cells in sorted(by.items()):
            if threads != 1:
                continue
            ref = THESIS_MB.get((scene, jump), [None] * 9)
            out = []
            for i, s in enumerate(STEPS):
                if s in cells:
                    ex = cells[s][1]
                    out.append(f"{float(ex['MB']):.2f} / {ref[i]}; {ex['links']} links; "
                               f"{ex.get('unsound', '?')} unsound")
                else:
                    out.append("")
            print(f"| {scene} | {jump} | " + " | ".join(out) + " |")
        print()
    queries = [r for r in rows if r["stage"].startswith(("query", "optimality"))]
    if queries:
        print("### Queries\n")
        print("| scene | stage | threads | notes |")
        print("|---|---|---|---|")
        for r in queries:
            print(f"| {r['scene']} | {r['stage']} | {r['threads']} | {r['extra']} |")
        print()
    obj = [r for r in rows if r["stage"] == "load_obj"]
    for r in obj:
        print(f"OBJ reader: {r['extra']} (median {float(r['ms_median']):.1f} ms)\n")


if __name__ == "__main__":
    main(sys.argv[1])
