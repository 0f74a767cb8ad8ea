#!/usr/bin/env python3
"""Plot twinbench CSV results: one line per group, the measured limit dashed.

Installed as twinbench-plot. Examples:
  reports/plot.py stream.csv --x threads --y gbs --by op --where backend=cpu -o cpu.png
  reports/plot.py reduce.csv --x block --y gbs --by variant --where precision=int32 -o ladder.png

Needs matplotlib (present on the GPU machine); twinbench itself does not.
"""
import argparse
import csv
import sys
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", help="a report written with --format csv")
    ap.add_argument("--x", required=True, help="numeric column for the x axis (threads, block, size, ...)")
    ap.add_argument("--y", default="gbs", help="numeric column for the y axis (default gbs)")
    ap.add_argument("--by", default="variant", help="columns naming the lines, joined with + (default variant)")
    ap.add_argument("--where", action="append", default=[], help="keep rows with COLUMN=VALUE (repeatable)")
    ap.add_argument("--logx", action="store_true", help="logarithmic x axis")
    ap.add_argument("-o", "--output", required=True, help="image file to write (png, pdf, svg)")
    a = ap.parse_args()

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit(f"{ap.prog}: matplotlib is not installed")

    with open(a.csv) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    for cond in a.where:
        k, _, v = cond.partition("=")
        rows = [r for r in rows if r.get(k) == v]
    rows = [r for r in rows if r.get(a.x) and r.get(a.y) and r.get("verified") != "fail"]
    if not rows:
        sys.exit(f"{ap.prog}: no rows to plot (check --x, --y and --where)")
    keys = a.by.split("+")
    for k in [a.x, a.y] + keys:
        if k not in rows[0]:
            sys.exit(f"{ap.prog}: no column '{k}' in {a.csv}")

    # The best y at each x of each line: lowest for times and errors, highest otherwise.
    lower = a.y.endswith("_ms") or a.y == "error"
    lines = defaultdict(dict)
    limits = defaultdict(dict)
    for r in rows:
        name = " ".join(r[k] for k in keys)
        x, y = float(r[a.x]), float(r[a.y])
        old = lines[name].get(x)
        if old is None or (y < old if lower else y > old):
            lines[name][x] = y
        if a.y == "gbs" and r.get("ceiling_gbs"):
            limits[r["backend"]][x] = float(r["ceiling_gbs"])

    fig, ax = plt.subplots(figsize=(8, 5))
    for name, pts in sorted(lines.items()):
        xs = sorted(pts)
        ax.plot(xs, [pts[x] for x in xs], marker="o", label=name)
    for backend, pts in sorted(limits.items()):
        xs = sorted(pts)
        ax.plot(xs, [pts[x] for x in xs], linestyle="--", color="gray", label=f"{backend} limit")
    if a.logx:
        ax.set_xscale("log", base=2)
    ax.set_xlabel(a.x)
    ax.set_ylabel(a.y)
    ax.set_title(f"{rows[0]['algo']}: {a.y} by {a.x}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print(f"{ap.prog}: wrote {a.output}")


if __name__ == "__main__":
    main()
