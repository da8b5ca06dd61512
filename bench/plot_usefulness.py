#!/usr/bin/env python3
"""The path-usefulness experiment (thesis section 8.2) from leapnav_bench CSV rows
`jump_query_stepN`: a markdown table on stdout and, with --svg FILE, a two-panel SVG plot of the
fraction of queries with no path and the mean relative length increase against the sample step.
Usage: bench/plot_usefulness.py results.csv [--svg bench/usefulness.svg]"""
import csv
import sys
from collections import defaultdict

COLORS = {"dungeon": "#1f77b4", "nav_test": "#d62728"}


def extras(row):
    return dict(item.split("=", 1) for item in row["extra"].split() if "=" in item)


def load(path):
    series = defaultdict(dict)
    for r in csv.DictReader(open(path)):
        if not r["stage"].startswith("jump_query_step"):
            continue
        ex = extras(r)
        series[r["scene"]][int(ex["step"])] = ex
    return series


def table(series):
    print("| scene | step | links | queries (step-1 path jumps) | no path | still jumping | "
          "mean length increase | query us median (all pairs) | p99 | median (jump queries) | p99 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for scene, steps in sorted(series.items()):
        for step, ex in sorted(steps.items()):
            print(f"| {scene} | {step} | {ex['links']} | {ex['jump_queries']} of {ex['of_pool']} | "
                  f"{100 * float(ex['no_path_fraction']):.2f} % | "
                  f"{100 * float(ex['still_jumping_fraction']):.1f} % | "
                  f"{float(ex['mean_increase_pct']):.2f} % | {float(ex['us_median']):.2f} | "
                  f"{float(ex['us_p99']):.2f} | {float(ex['jump_us_median']):.2f} | "
                  f"{float(ex['jump_us_p99']):.2f} |")


def panel(x0, y0, w, h, title, ylabel, series, key, scale):
    out = []
    steps = sorted({s for st in series.values() for s in st})
    values = [scale * float(ex[key]) for st in series.values() for ex in st.values()]
    ymax = max(values + [1e-9]) * 1.1
    smin, smax = min(steps), max(steps)

    def px(step):
        return x0 + (step - smin) / max(smax - smin, 1) * w

    def py(v):
        return y0 + h - v / ymax * h

    out.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#888"/>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 - 10}" text-anchor="middle" '
               f'font-size="14">{title}</text>')
    out.append(f'<text x="{x0 - 45}" y="{y0 + h / 2}" text-anchor="middle" font-size="12" '
               f'transform="rotate(-90 {x0 - 45} {y0 + h / 2})">{ylabel}</text>')
    for i in range(5):
        v = ymax * i / 4
        out.append(f'<line x1="{x0}" x2="{x0 + w}" y1="{py(v):.1f}" y2="{py(v):.1f}" '
                   f'stroke="#eee"/>')
        out.append(f'<text x="{x0 - 5}" y="{py(v) + 4:.1f}" text-anchor="end" '
                   f'font-size="11">{v:.1f}</text>')
    for s in steps:
        out.append(f'<text x="{px(s):.1f}" y="{y0 + h + 16}" text-anchor="middle" '
                   f'font-size="11">{s}</text>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 34}" text-anchor="middle" '
               f'font-size="12">sample step (voxels)</text>')
    for scene, st in sorted(series.items()):
        pts = " ".join(f"{px(s):.1f},{py(scale * float(ex[key])):.1f}"
                       for s, ex in sorted(st.items()))
        color = COLORS.get(scene, "#333")
        out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2"/>')
        for s, ex in sorted(st.items()):
            out.append(f'<circle cx="{px(s):.1f}" cy="{py(scale * float(ex[key])):.1f}" r="3" '
                       f'fill="{color}"/>')
    return out


def svg(series, path):
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="860" height="360" '
             'font-family="sans-serif">', '<rect width="860" height="360" fill="white"/>']
    parts += panel(70, 40, 320, 240, "queries with no path", "% of queries", series,
                   "no_path_fraction", 100.0)
    parts += panel(500, 40, 320, 240, "mean path length increase", "% over step 1", series,
                   "mean_increase_pct", 1.0)
    for i, scene in enumerate(sorted(series)):
        color = COLORS.get(scene, "#333")
        parts.append(f'<line x1="{300 + 150 * i}" x2="{330 + 150 * i}" y1="345" y2="345" '
                     f'stroke="{color}" stroke-width="2"/>')
        parts.append(f'<text x="{335 + 150 * i}" y="349" font-size="12">{scene} (C2)</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    series = load(argv[1])
    if not series:
        print("plot_usefulness: no jump_query_step rows in " + argv[1], file=sys.stderr)
        return 1
    table(series)
    if "--svg" in argv:
        svg(series, argv[argv.index("--svg") + 1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
