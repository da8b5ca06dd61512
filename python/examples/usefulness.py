#!/usr/bin/env python3
"""The path-usefulness experiment of van de Kerkhof's thesis (section 8.2) through the Python
module: jump links sampled every `step` columns lose paths as the step grows. For random query pairs
whose path with the finest step uses a jump (it is shorter than the walk, or the walk fails), plot
against the step the fraction that finds no path and the mean relative length increase of those
still found, one line per level.

Usage: python3 python/examples/usefulness.py [--levels ../shared/meshes/dungeon.obj ...]
           [--config thesis] [--jump C2] [--steps 1 2 4 8 16 32] [--queries 4000] [--seed 1] [--out usefulness.png]
"""
import argparse
import pathlib
import time

import numpy as np

import leapnav

HERE = pathlib.Path(__file__).resolve()
DEFAULT_LEVELS = [HERE.parents[2] / ".." / "shared" / "meshes" / name
                  for name in ("dungeon.obj", "nav_test.obj")]


def load_obj(path):
    vertices, triangles = [], []
    for line in open(path):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "v":
            vertices.append([float(x) for x in parts[1:4]])
        elif parts[0] == "f":
            idx = [int(p.split("/")[0]) - 1 for p in parts[1:]]
            triangles += [[idx[0], idx[k], idx[k + 1]] for k in range(1, len(idx) - 1)]
    return np.array(vertices, np.float32), np.array(triangles, np.int64)


def usefulness(path, config, jump, steps, queries, seed):
    vertices, triangles = load_obj(path)
    rows = []
    reference = None
    for step in steps:
        t0 = time.perf_counter()
        nav = leapnav.build(vertices, triangles, config=config, jumps=[jump], step=step)
        built = time.perf_counter() - t0
        if reference is None:
            starts = nav.random_points(queries, seed=seed)
            ends = nav.random_points(queries, seed=seed + 1)
            walk_status, walk_length = nav.find_paths(starts, ends, jumps=False)
            status, length = nav.find_paths(starts, ends)
            found = np.array([s == "found" for s in status])
            walk_found = np.array([s == "found" for s in walk_status])
            # a jump query: found with jumps, and the walk fails or is longer
            jumping = found & (~walk_found | (walk_length > length + 1e-6))
            reference = (starts[jumping], ends[jumping], length[jumping])
        starts, ends, ref_length = reference
        status, length = nav.find_paths(starts, ends)
        found = np.array([s == "found" for s in status], dtype=bool)
        no_path = 1.0 - found.mean() if len(found) else 0.0
        increase = (length[found] / ref_length[found] - 1.0).mean() if found.any() else 0.0
        rows.append((step, nav.stats.get("jump_links", 0), len(found), no_path, increase, built))
        print(f"{path.stem:10s} step {step:3d}: {rows[-1][1]:7d} links, {len(found):5d} jump queries, "
              f"no path {100 * no_path:6.2f} %, length +{100 * increase:6.2f} %, built in {built:.1f} s")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", type=pathlib.Path, default=DEFAULT_LEVELS)
    parser.add_argument("--config", default="thesis", help="named configuration (as the benchmark)")
    parser.add_argument("--jump", default="C2")
    parser.add_argument("--steps", nargs="+", type=int, default=[1, 2, 4, 8, 16, 32])
    parser.add_argument("--queries", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("usefulness.png"))
    args = parser.parse_args()

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for level in args.levels:
        if not level.exists():
            print(f"skipping {level}: not found")
            continue
        rows = usefulness(level, args.config, args.jump, sorted(args.steps), args.queries, args.seed)
        steps = [r[0] for r in rows]
        left.plot(steps, [100 * r[3] for r in rows], marker="o", label=level.stem)
        right.plot(steps, [100 * r[4] for r in rows], marker="o", label=level.stem)
    for axis, title in ((left, "jump queries without a path [%]"),
                        (right, "mean length increase of the rest [%]")):
        axis.set_xlabel("sample step [columns]")
        axis.set_title(title)
        axis.set_xscale("log", base=2)
        axis.grid(True, alpha=0.3)
        axis.legend()
    fig.suptitle(f"Path usefulness against the sample step ({args.jump}, reference: the finest step)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
