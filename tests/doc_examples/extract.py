#!/usr/bin/env python3
"""Extracts the C++, C and Python code blocks of README.md and docs/*.md into programs.

Every fenced block whose language is cpp, c or python must be claimed, or the extraction fails:
- by a marker on the line before its fence, `<!-- example: NAME -->`, or
- by a line of unmarked.txt (for files that cannot carry markers), `FILE ORDINAL NAME`, ORDINAL
  counting the file's cpp, c and python blocks from 1.
`<!-- example: none REASON -->` exempts a block (the reason is printed).

Block NAME is inserted verbatim into the template NAME.cpp, NAME.c or NAME.py beside this script,
in place of its line `// @example` (C++), `/* @example */` (C) or `# @example`
(Python). A template declares what
the block takes as given (the level's arrays, start and goal, ...) before that line and checks
what the text around the block says after it. C and C++ blocks get #line directives, so a
compiler error names the Markdown file and line.

Usage: extract.py ROOT OUT_DIR   (writes OUT_DIR/NAME.{cpp,c,py}; prints one line per block)
"""
import pathlib
import re
import sys

LANGUAGES = {"cpp": "cpp", "c++": "cpp", "c": "c", "python": "py", "py": "py"}
MARKER = re.compile(r"^<!--\s*example:\s*(\S+)(.*?)-->\s*$")
FENCE = re.compile(r"^ {0,3}(```+|~~~+)\s*([A-Za-z0-9+#-]*)(?:\s.*)?$")


def blocks(path):
    """(language, first code line number, code text, marker name or None, marker rest)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    result = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        close = fence.group(1)
        language = fence.group(2).lower()
        j = i + 1
        while j < len(lines) and lines[j].strip() != close:
            j += 1
        if language in LANGUAGES:
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            marker = MARKER.match(lines[k].strip()) if k >= 0 else None
            result.append((LANGUAGES[language], i + 2, "\n".join(lines[i + 1:j]) + "\n",
                           marker.group(1) if marker else None,
                           marker.group(2).strip() if marker else ""))
        i = j + 1
    return result


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    out = pathlib.Path(sys.argv[2])
    here = pathlib.Path(__file__).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    for stale in [*out.glob("*.cpp"), *out.glob("*.c"), *out.glob("*.py")]:
        stale.unlink()
    unmarked = {}
    for number, line in enumerate((here / "unmarked.txt").read_text().split("\n"), 1):
        if line.strip() and not line.startswith("#"):
            file, ordinal, name = line.split()
            unmarked[(file, int(ordinal))] = (name, number)
    errors = []
    used = set()
    names = {}
    for path in [root / "README.md"] + sorted((root / "docs").glob("*.md")):
        rel = path.relative_to(root).as_posix()
        for ordinal, (ext, first, code, marker, rest) in enumerate(blocks(path), 1):
            where = f"{rel}:{first - 1}"
            name = marker
            if (rel, ordinal) in unmarked:
                if marker:
                    errors.append(f"{where}: marked '{marker}' and in unmarked.txt")
                name = unmarked[(rel, ordinal)][0]
                used.add((rel, ordinal))
            if name is None:
                errors.append(f"{where}: a {ext} block without '<!-- example: NAME -->' before it "
                              f"(tests/doc_examples/extract.py)")
                continue
            if name == "none":
                print(f"{where}: not compiled ({rest or 'no reason given'})")
                continue
            if name in names:
                errors.append(f"{where}: example '{name}' also at {names[name]}")
                continue
            names[name] = where
            template_path = here / f"{name}.{ext}"
            if not template_path.exists():
                errors.append(f"{where}: no template tests/doc_examples/{name}.{ext}")
                continue
            template = template_path.read_text(encoding="utf-8").split("\n")
            slot = "# @example" if ext == "py" else "/* @example */" if ext == "c" else "// @example"
            at = [n for n, line in enumerate(template) if line.strip() == slot]
            if len(at) != 1:
                errors.append(f"{template_path.name}: needs exactly one line '{slot}'")
                continue
            n = at[0]
            if ext == "py":
                body = [f"# {rel}:{first}", code.rstrip("\n")]
            else:
                body = [f'#line {first} "{rel}"', code.rstrip("\n"),
                        f'#line {n + 2} "tests/doc_examples/{template_path.name}"']
            (out / f"{name}.{ext}").write_text("\n".join(template[:n] + body + template[n + 1:]),
                                              encoding="utf-8")
            print(f"{where}: {name}.{ext}")
    for key, (name, number) in unmarked.items():
        if key not in used:
            errors.append(f"unmarked.txt:{number}: {key[0]} has no code block {key[1]} ({name})")
    for error in errors:
        print(f"extract.py: error: {error}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
