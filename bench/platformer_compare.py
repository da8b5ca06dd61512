#!/usr/bin/env python3
"""Compare the platformer jump/fall links of a tile map with the 3-D jump links that
`leapnav build --jump` generates for the same map extruded to boxes (bench/RESULTS.md,
"Side-view platformers").

usage: platformer_compare.py MAP.txt GRAPH.json EXPORT.json
  GRAPH.json   `leapnav platformer MAP.txt --json`
  EXPORT.json  `leapnav export LEVEL.lnav -o EXPORT.json` of the extruded level's build
Prints the platform pairs (start platform -> destination platform) each method connects.
A 3-D link's start and the midpoint of its land segment are mapped to tiles: column = floor(x),
row = round(y) (the floor of row r is at y = r plus at most a cell height); points on the
frame's roof (row >= H) and pairs within one platform are left out.
"""
import json
import sys


def main():
    map_path, graph_path, export_path = sys.argv[1:4]
    with open(map_path) as f:
        header = f.readline().split()
    height = int(header[2])
    graph = json.load(open(graph_path))
    platform_of = {tuple(p["tile"]): p["platform"] for p in graph["nav_points"]}
    tiles_of = {}
    for tile, platform in platform_of.items():
        tiles_of.setdefault(platform, []).append(tile)
    jumps2, falls2 = {}, {}
    for link in graph["links"]:
        pair = (platform_of[tuple(link["from"])], platform_of[tuple(link["to"])])
        if link["kind"] == "jump":
            jumps2.setdefault(pair, link)
        elif link["kind"] == "fall":
            falls2.setdefault(pair, link)

    def platform_at(point):
        c, r = int(point[0] // 1), int(round(point[1]))
        if r >= height:
            return None
        for dc in (0, -1, 1):
            if (c + dc, r) in platform_of:
                return platform_of[(c + dc, r)]
        return -1  # on no nav point of the tile map

    links3 = {}
    unmapped = 0
    roof = 0
    export = json.load(open(export_path))
    for link in export.get("links", []):
        a = platform_at(link["start"])
        land = link["land"]
        mid = [(land[0][k] + land[1][k]) / 2 for k in range(3)]
        b = platform_at(mid)
        if a is None or b is None:
            roof += 1
            continue
        if a < 0 or b < 0:
            unmapped += 1
            continue
        if a != b:
            links3.setdefault((a, b), link)

    def describe(pair):
        a, b = pair
        ta, tb = min(tiles_of[a]), min(tiles_of[b])
        return "%d%s -> %d%s" % (a, ta, b, tb)

    pairs2 = set(jumps2) | set(falls2)
    pairs3 = set(links3)
    print("platforms: %d" % graph["platforms"])
    print("2-D: %d jump pairs, %d fall pairs, %d pairs in all" %
          (len(jumps2), len(falls2), len(pairs2)))
    print("3-D: %d links, %d on the frame's roof, %d off the nav points, %d platform pairs" %
          (len(export.get("links", [])), roof, unmapped, len(pairs3)))
    print("both: %d" % len(pairs2 & pairs3))
    only2 = sorted(pairs2 - pairs3)
    only3 = sorted(pairs3 - pairs2)
    print("only 2-D (%d):" % len(only2))
    for pair in only2:
        link = jumps2.get(pair) or falls2.get(pair)
        extra = " h %.1f speed %.1f" % (link["h"], link["speed"]) if link["kind"] == "jump" else ""
        print("  %s  %s %s->%s%s" % (describe(pair), link["kind"], link["from"], link["to"], extra))
    print("only 3-D (%d):" % len(only3))
    for pair in only3:
        link = links3[pair]
        print("  %s  start %s land %s h %.2f d %.2f" %
              (describe(pair), [round(v, 2) for v in link["start"]],
               [round(v, 2) for v in link["land"][0]], link["h"], link["d"]))


if __name__ == "__main__":
    main()
