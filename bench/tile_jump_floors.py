#!/usr/bin/env python3
"""Where a tiled jump-link set's extra links come from.

Usage: bench/tile_jump_floors.py UNTILED.json TILED.json
(each `leapnav export LEVEL.lnav -o LEVEL.json` of a build with --jump; the same level, tiled and
untiled). Every link's start point and landing-segment midpoint are located on the untiled mesh
(closed xz outline, floor within 1 m, the polygon's mean vertex height). Prints per file: links,
(start, land, configuration) groups, and the links whose start and landing fall in one untiled
polygon: on a tiled mesh, jumps between two pieces of one floor that a tile border cut (the
untiled generator never links a polygon to itself). For those of the tiled file, when the two
pieces are neighbours: how much longer the walk through the shared portal's midpoint is than the
jump (the walkable-link filter's bound, jumplinks/link_filter.hpp), and the portal's length.
"""
import collections
import json
import math
import sys


def load(path):
    d = json.load(open(path))
    polys = [[d["vertices"][i] for i in p["vertices"]] for p in d["polygons"]]
    return d, polys


def inside(poly, x, z):
    n = len(poly)
    for k in range(n):
        a, b = poly[k], poly[(k + 1) % n]
        if (b[0] - a[0]) * (z - a[2]) - (x - a[0]) * (b[2] - a[2]) < -1e-4:
            return False
    return True


def cells(polys):
    grid = collections.defaultdict(list)
    for i, p in enumerate(polys):
        xs = [v[0] for v in p]
        zs = [v[2] for v in p]
        for a in range(int(min(xs) // 4), int(max(xs) // 4) + 1):
            for b in range(int(min(zs) // 4), int(max(zs) // 4) + 1):
                grid[(a, b)].append(i)
    return grid


def locate(polys, grid, pt):
    best, nearest = None, 1.0
    x, y, z = pt
    for i in grid.get((int(x // 4), int(z // 4)), []):
        if inside(polys[i], x, z):
            dy = abs(sum(v[1] for v in polys[i]) / len(polys[i]) - y)
            if dy < nearest:
                best, nearest = i, dy
    return best


def main():
    _, upolys = load(sys.argv[1])
    ugrid = cells(upolys)
    for path in sys.argv[1:]:
        d, _ = load(path)
        links = d["links"]
        groups = {(l["start_polygon"], l["land_polygon"], l["h"], l["d"]) for l in links}
        same, unlocated, excess = 0, 0, []
        adjacent = 0
        for l in links:
            mid = [(a + b) / 2 for a, b in zip(l["land"][0], l["land"][1])]
            s = locate(upolys, ugrid, l["start"])
            t = locate(upolys, ugrid, mid)
            if s is None or t is None:
                unlocated += 1
                continue
            if s != t:
                continue
            same += 1
            poly = d["polygons"][l["start_polygon"]]
            if l["land_polygon"] not in poly["neighbors"]:
                continue
            adjacent += 1
            k = poly["neighbors"].index(l["land_polygon"])
            vs = poly["vertices"]
            a = d["vertices"][vs[k]]
            b = d["vertices"][vs[(k + 1) % len(vs)]]
            pm = [(a[i] + b[i]) / 2 for i in range(3)]
            st = l["start"]
            far = max(l["land"], key=lambda q: math.hypot(q[0] - pm[0], q[2] - pm[2]))
            walk = math.hypot(pm[0] - st[0], pm[2] - st[2]) + math.hypot(far[0] - pm[0], far[2] - pm[2])
            jump = math.hypot(mid[0] - st[0], mid[2] - st[2])
            excess.append((walk - jump, math.hypot(a[0] - b[0], a[2] - b[2])))
        print(f"{path}: {len(links)} links, {len(groups)} groups, {same} within one untiled polygon "
              f"({adjacent} between neighbouring pieces), {unlocated} not located")
        if excess:
            excess.sort()
            n = len(excess)
            print(f"  neighbouring pieces: midpoint walk - jump median {excess[n // 2][0]:.2f} m, "
                  f"p90 {excess[9 * n // 10][0]:.2f} m, > 4 m: {sum(e[0] > 4 for e in excess)}; "
                  f"portal length median {sorted(e[1] for e in excess)[n // 2]:.2f} m")


if __name__ == "__main__":
    main()
