#!/usr/bin/env python3
"""Ledge links per scene, untiled and tiled: `leapnav build SCENE --ledge-links [--tile-size N]`,
then `leapnav info --json` for the count per kind and the ledge hash.

usage: bench/ledge_link_counts.py LEAPNAV [--tiles 0,16,32,64] [--scenes demo,rise:1,...]
Real levels are read from ../shared/meshes/NAME when the scene names a .obj file there.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

KINDS = ["walk", "step_up", "step_down", "jump_up", "drop"]


def scene_arg(name, here):
    if name.endswith(".obj"):
        path = os.path.join(here, "..", "..", "shared", "meshes", name)
        return path if os.path.exists(path) else None
    return "builtin:" + name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("leapnav")
    ap.add_argument("--tiles", default="0,16,32,64")
    ap.add_argument(
        "--scenes",
        default="demo,rise:0.5,rise:1,rise:1.5,drop:2,drop:3,dungeon.obj,nav_test.obj")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    print("| scene | tiles | links | " + " | ".join(KINDS) + " | ledge hash |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in KINDS) + " | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.lnav")
        for name in args.scenes.split(","):
            scene = scene_arg(name, here)
            if scene is None:
                print(f"| {name} | skipped: not in ../shared/meshes | | | | | | | |")
                continue
            for tile in [int(t) for t in args.tiles.split(",")]:
                cmd = [args.leapnav, "build", scene, "--ledge-links", "-o", out]
                if tile > 0:
                    cmd += ["--tile-size", str(tile)]
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                info = subprocess.run([args.leapnav, "info", out, "--json"], check=True,
                                      capture_output=True, text=True)
                j = json.loads(info.stdout)
                kinds = j.get("ledge_kinds", {})
                cells = " | ".join(str(kinds.get(k, 0)) for k in KINDS)
                label = "untiled" if tile == 0 else str(tile)
                print(f"| {name} | {label} | {j.get('ledge_links', 0)} | {cells} | "
                      f"{j.get('ledge_hash', '')} |")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
