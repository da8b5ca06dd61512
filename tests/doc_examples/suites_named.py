#!/usr/bin/env python3
"""Every test suite README.md and docs/*.md name as evidence (`mesh.tiles`, `ledgelinks.*`)
exists: a TEST_SUITE of that name, or (for `x.*` or a name that is a group) of names under it.

Usage: suites_named.py ROOT   (prints the names and the suites they stand for; exit 1 if one is
missing)
"""
import pathlib
import re
import sys

FOLDERS = "core|voxel|mesh|jumplinks|ledgelinks|plan|planning|io|cli|capi|grid3d|platformer"
NAMED = re.compile(r"`((?:" + FOLDERS + r")\.[a-z0-9_.]*\*?)`")


def main():
    root = pathlib.Path(sys.argv[1])
    suites = set()
    for source in (root / "tests").rglob("*.cpp"):
        suites.update(re.findall(r'TEST_SUITE\("([^"]+)"', source.read_text(encoding="utf-8")))
    missing = 0
    for doc in [root / "README.md"] + sorted((root / "docs").glob("*.md")):
        for number, line in enumerate(doc.read_text(encoding="utf-8").split("\n"), 1):
            for name in NAMED.findall(line):
                group = name.rstrip("*").rstrip(".")
                found = sorted(s for s in suites if s == group or s.startswith(group + "."))
                where = f"{doc.relative_to(root).as_posix()}:{number}"
                if not found:
                    print(f"{where}: `{name}` names no test suite", file=sys.stderr)
                    missing += 1
                else:
                    print(f"{where}: `{name}`: {len(found)} suite(s)")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
