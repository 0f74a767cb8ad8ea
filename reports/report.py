#!/usr/bin/env python3
"""twinbench report: a Markdown report with figures from twinbench results.

usage: twinbench report [--name NAME] [--outdir DIR] [--published FILE] FILE...

FILE is a results file exactly as `twinbench run --format csv` or `--format
json` writes it (or as `twinbench experiment` appends them: one file per study
and machine, rows with the columns `study` and `run`). Several files, from
several machines, go side by side. The report is written to
DIR/NAME/report.md (DIR default `reports`, NAME default the study, else the
algorithm) with PNG and SVG figures beside it; it replaces an older report of
the same name only once it is complete. See doc/report.md.
"""
import argparse
import csv
import json
import logging
import math
import os
import re
import shutil
import sys
import tempfile
import warnings
from collections import OrderedDict, defaultdict

PROG = "twinbench report"
# Where the published figures are looked for after --published and the
# folder of this program (the build writes the installed and source paths).
PUBLISHED_PATHS = []
EXIT_USAGE, EXIT_UNAVAILABLE = 2, 69

# The columns every row carries (figures and what ran); the others are the
# backend configuration, the tuning, the problem's parameters and the
# algorithm's own columns.
CORE = {
    "algo", "variant", "backend", "precision", "size", "median_ms", "min_ms", "max_ms", "mean_ms",
    "stddev_ms", "cv", "xfer_ms", "e2e_ms", "gbs", "gflops", "ceiling_gbs", "ceiling_gflops",
    "intensity", "bound", "roofline", "verified", "error", "tolerance", "repeats", "bytes",
    "bytes_read", "bytes_written", "flops", "mix", "flags", "h2d_pageable_ms", "d2h_pageable_ms",
    "h2d_pinned_ms", "d2h_pinned_ms", "e2e_pageable_ms", "binding", "binding_ok", "note",
    "samples_ms", "energy_j", "power_w", "j_per_gb", "study", "run", "machine",
}
# Backend configuration and tuning columns: they choose how a problem ran,
# never which problem, so a speedup takes the best over them.
TUNING = {"threads", "placement", "stores", "block", "grid", "planner", "panel", "width",
          "prefetch", "items", "tile", "unroll", "chunk", "vector",
          # MPI runs: how many ranks, and SOR's process grid.
          "ranks", "pgrid", "px", "py", "pz"}
# The bytes of one element of an all-reduce's payload, by precision (the
# reduction's all-reduce adds one element: doc/mpi.md).
ELEMENT = {"int32": 4, "float": 4, "double": 8}
MIX_KIND = {"read-only": "read", "1:1": "copy", "2:1": "triad"}
KINDS = ["read", "copy", "triad", "fp32", "fp64"]


class ReportError(Exception):
    """A fault of the input or the command line: one line, exit 2."""


# ---- reading ---------------------------------------------------------------

def number(text):
    """A CSV field as a number where it is one, None where empty, else the text."""
    if text is None or text == "":
        return None
    try:
        v = float(text)
    except ValueError:
        return text
    return int(v) if v.is_integer() and re.fullmatch(r"-?\d+", text) else v


def read_csv(path, text):
    """The rows and context of a CSV report (or several appended ones: each
    header line starts a new column set)."""
    meta = {"format": "csv", "host": None, "date": None, "cpu_model": None, "revision": None,
            "size_meaning": {}, "environment": None, "ceilings": [], "speedups": []}
    rows, header = [], None
    for line in text.splitlines():
        if line.startswith("#"):
            m = re.match(r"# twinbench (\S+) \((\S+)\), (\S+), on (.*?): ", line)
            if m:
                meta["revision"], meta["date"], meta["host"] = m.group(2), m.group(3), m.group(4)
            m = re.match(r"# cpu: ([^;]*); (\d+) packages, (\d+) cores, (\d+) PUs", line)
            if m:
                meta["cpu_model"] = m.group(1)
                meta["environment"] = {"cores": int(m.group(3)), "pus": int(m.group(4))}
            m = re.match(r"# (\w+): size = ([^;]*);", line)
            if m:
                meta["size_meaning"][m.group(1)] = m.group(2)
            continue
        if not line.strip():
            continue
        fields = next(csv.reader([line]))
        if "algo" in fields and "median_ms" in fields:
            header = fields
            continue
        if header is None:
            raise ReportError(f"{path}: not a twinbench results file (no header line naming algo "
                              "and median_ms)")
        if len(fields) != len(header):
            raise ReportError(f"{path}: a row has {len(fields)} fields where its header has "
                              f"{len(header)}")
        rows.append({k: number(v) for k, v in zip(header, fields)})
    if header is None:
        raise ReportError(f"{path}: not a twinbench results file (no header line naming algo and "
                          "median_ms)")
    return rows, meta


def json_reports(doc, ctx=None):
    """The report objects of a JSON document, each with the study, run and
    machine its enclosing objects name: a report, or reports at any depth of
    lists and objects (an experiment's file may wrap them); bare rows
    (objects with algo and median_ms) each make one."""
    ctx = dict(ctx or {})
    if isinstance(doc, dict):
        ctx.update({k: doc[k] for k in ("study", "run", "machine") if isinstance(doc.get(k), str)})
        if "results" in doc:
            return [(doc, ctx)]
        if "algo" in doc and "median_ms" in doc:
            return [({"results": [doc]}, ctx)]
        doc = list(doc.values())
    if isinstance(doc, list):
        return [r for d in doc for r in json_reports(d, ctx)]
    return []


def read_json(path, text):
    """The rows and context of a JSON report (or several: a list, JSON lines)."""
    try:
        docs = [json.loads(text)]
    except json.JSONDecodeError as e:
        try:
            docs = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError:
            raise ReportError(f"{path}: not JSON ({e.msg} at line {e.lineno})") from None
    reports = [r for d in docs for r in json_reports(d)]
    if not reports:
        raise ReportError(f"{path}: not a twinbench results file (no object with results)")
    meta = {"format": "json", "host": None, "date": None, "cpu_model": None, "revision": None,
            "size_meaning": {}, "environment": None, "ceilings": [], "speedups": []}
    # An experiment's results file keeps the environment of each session that
    # added rows under "sessions"; its rows carry no environment of their own.
    session_envs = [se.get("environment") for d in docs if isinstance(d, dict)
                    for se in (d.get("sessions") or []) if isinstance(se, dict)]
    session_env = next((e for e in session_envs if isinstance(e, dict)), {})
    rows = []
    for rep, ctx in reports:
        env = rep.get("environment") or session_env
        meta["environment"] = meta["environment"] or env
        meta["host"] = meta["host"] or env.get("host")
        meta["date"] = meta["date"] or env.get("date")
        meta["cpu_model"] = meta["cpu_model"] or env.get("cpu_model")
        meta["revision"] = meta["revision"] or env.get("git_revision")
        if rep.get("algo") and rep.get("size_meaning"):
            meta["size_meaning"][rep["algo"]] = rep["size_meaning"]
        for c in rep.get("ceilings") or []:
            meta["ceilings"].append(dict(c, algo=rep.get("algo")))
        if not isinstance(rep.get("results"), list):
            raise ReportError(f"{path}: not a twinbench results file (results is not a list)")
        for r in rep["results"]:
            if not isinstance(r, dict):
                raise ReportError(f"{path}: a result is not an object")
            row = {}
            for k, v in r.items():
                if k in ("params", "columns") and isinstance(v, dict):
                    row.update(v)
                elif isinstance(v, list) and k != "samples_ms":
                    row[k] = " ".join(str(x) for x in v)
                else:
                    row[k] = v
            for k, v in ctx.items():
                row.setdefault(k, v)
            rows.append(row)
    return rows, meta


def gpu_name(meta):
    env = meta.get("environment") or {}
    gpu = (env.get("backends") or {}).get("gpu") or {}
    return gpu.get("name")


def load(path):
    """The rows of one results file, each with its machine."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ReportError(f"{path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not a twinbench results file (not text)") from None
    if not text.strip():
        raise ReportError(f"{path}: empty file")
    rows, meta = (read_json if text.lstrip()[:1] in "[{" else read_csv)(path, text)
    rows = [r for r in rows if r.get("algo") and isinstance(r.get("median_ms"), (int, float))]
    if not rows:
        raise ReportError(f"{path}: no result rows")
    # The machine: a machine column; else, for an experiment's results
    # (results/STUDY/MACHINE.csv), the file's name; else the host the run
    # describes (not its GPU: a CSV does not name it, and the CSV and JSON
    # of one run are one machine).
    stem = os.path.splitext(os.path.basename(path))[0]
    for r in rows:
        if r.get("machine") is None:
            r["machine"] = stem if r.get("study") is not None else (meta["host"] or stem)
        r["machine"] = str(r["machine"])
    meta["path"] = path
    return rows, meta


# ---- helpers ---------------------------------------------------------------

def ok(r):
    return r.get("verified") != "fail" and isinstance(r.get("median_ms"), (int, float)) \
        and r["median_ms"] > 0


def num(r, k):
    v = r.get(k)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) \
        else None


def ranks(r):
    """The ranks of an MPI row (1 for a run of one process)."""
    return num(r, "ranks") or 1


def fmt(v, digits=4):
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) < 1e15):
        return f"{int(v):,}" if abs(v) >= 10000 else str(int(v))
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1e6 or a < 1e-3:
        return f"{v:.{digits - 1}e}"
    return f"{v:.{max(0, digits - 1 - int(math.floor(math.log10(a))))}f}"


def fsize(v):
    """A size as 2^k where it is a power of two, else with separators."""
    if isinstance(v, int) and v > 1024 and v & (v - 1) == 0:
        return f"2^{v.bit_length() - 1}"
    return fmt(v)


def md_table(head, body):
    if not body:
        return ""
    numeric = [all(re.match(r"^[-+]?[\d.]", str(row[i])) or str(row[i]) == "" for row in body)
               for i in range(len(head))]
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    out += ["| " + " | ".join(str(c).replace("|", "/") for c in row) + " |" for row in body]
    return "\n".join(out) + "\n"


def best(rows, key, time="median_ms"):
    """The row of least time for each key(row) (verified rows only)."""
    out = OrderedDict()
    for r in rows:
        t = num(r, time)
        if not ok(r) or t is None:
            continue
        k = key(r)
        if k not in out or t < num(out[k], time):
            out[k] = r
    return out


def param_names(rows):
    """The problem's parameters of these rows: the columns that are neither
    core figures nor tuning, and whose values are words (op=copy), or that
    the JSON report filed under params; numbers the algorithm computes
    (result, depth) are left out, as they vary from variant to variant."""
    names = []
    for r in rows[:1]:
        for k in r:
            if k in CORE or k in TUNING or k.endswith("_per_s") or k.endswith("_per_j"):
                continue
            # An MPI run's nodes are where it ran, not a parameter.
            if k == "nodes" and "ranks" in r:
                continue
            vals = {x.get(k) for x in rows}
            if all(isinstance(v, str) or v is None for v in vals) and \
                    any(isinstance(v, str) for v in vals):
                names.append(k)
            elif k in PARAMS_HINT and all(isinstance(v, (int, float)) or v is None for v in vals):
                names.append(k)
    return names


# Numeric problem parameters of the known families (a problem key needs them;
# a numeric column of an unknown family is taken for a figure).
PARAMS_HINT = {"steps", "dim", "paths", "L", "sigma", "tol", "maxiter", "check", "nx", "ny", "nz",
               "t0", "x0", "omega", "thresholds", "nodes"}


def pstr(r, names):
    return " ".join(f"{k}={fmt(r.get(k))}" for k in names if r.get(k) is not None)


def distinct(rows, k):
    return sorted({r.get(k) for r in rows if r.get(k) is not None}, key=lambda v: (str(type(v)), v))


def slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "-", str(text)).strip("-").lower() or "x"


def sig(x, digits=3):
    """x to a few significant digits, a key that tolerates rounding."""
    return float(f"{x:.{digits}g}")


def unit_work(r):
    """The work of one unit of a row: its bytes (else flops), an iteration
    where the row counts iterations, else a run."""
    w = num(r, "bytes") or num(r, "flops")
    it = num(r, "iterations")
    return w / it if w and it else w


def per_unit(r):
    """A row's median time a unit: an iteration (ms_sweep) where it counts
    them, else a run."""
    t = num(r, "ms_sweep")
    if t is None and num(r, "iterations"):
        t = r["median_ms"] / r["iterations"]
    return t if t is not None else r["median_ms"]


def grid_of(r):
    """SOR's process grid PXxPYxPZ, or empty."""
    g = [num(r, k) for k in ("px", "py", "pz")]
    return "x".join(str(int(x)) for x in g) if all(x is not None for x in g) else ""


def axes_of(r):
    """SOR's points along x, y and z (a parameter left at auto, 0 in the
    rows, is the size), or None for a family without them."""
    if r.get("nz") is None or num(r, "size") is None:
        return None
    return [int(num(r, k) or r["size"]) for k in ("nx", "ny", "nz")]


def rank_box(r):
    """The points of a rank's box (SOR: nx / px by ny / py by nz / pz, the
    largest), or None."""
    n, p = axes_of(r), [num(r, k) for k in ("px", "py", "pz")]
    if not n or any(x is None for x in p):
        return None
    return tuple(-(-int(a) // int(b)) for a, b in zip(n, p))


def comm_share(r):
    """The share of a run the slowest rank spent in MPI (comm_ms over mean_ms)."""
    c, t = num(r, "comm_ms"), num(r, "mean_ms") or num(r, "median_ms")
    return c / t if c is not None and t else None


# ---- figures ---------------------------------------------------------------

class Figures:
    """Saves each figure as PNG and SVG in the report's folder."""

    def __init__(self, plt, folder):
        self.plt, self.folder, self.names = plt, folder, []

    def save(self, fig, name):
        for ext in ("png", "svg"):
            fig.savefig(os.path.join(self.folder, f"{name}.{ext}"), dpi=110)
        self.plt.close(fig)
        self.names.append(name)
        return f"![{name}]({name}.png) ([SVG]({name}.svg))\n"


def log_axis(ax, axis, values):
    """A log axis, base 2 where the values double; ticks at the values."""
    vals = sorted(v for v in values if v and v > 0)
    if len(vals) < 2 or vals[-1] / vals[0] < 2:
        return
    ratios = [b / a for a, b in zip(vals, vals[1:])]
    base = 2 if all(abs(x - round(x)) < 1e-9 and round(x) >= 1 and math.log2(x).is_integer()
                    for x in ratios) else 10
    (ax.set_xscale if axis == "x" else ax.set_yscale)("log", base=base)
    if axis == "x":
        if len(vals) > 12:
            vals = vals[::(len(vals) + 11) // 12]
        ax.set_xticks(vals)
        ax.set_xticklabels([fsize(int(v)) if float(v).is_integer() else fmt(v) for v in vals])
        ax.minorticks_off()


def errbar(ax, xs, rows, scale, **kw):
    """A line with min-max error bars: scale(row, t) maps a time to the axis."""
    ys = [scale(r, r["median_ms"]) for r in rows]
    lo = [scale(r, num(r, "max_ms") or r["median_ms"]) for r in rows]
    hi = [scale(r, num(r, "min_ms") or r["median_ms"]) for r in rows]
    lo, hi = [min(a, b) for a, b in zip(lo, hi)], [max(a, b) for a, b in zip(lo, hi)]
    yerr = [[max(0, y - a) for y, a in zip(ys, lo)], [max(0, b - y) for y, b in zip(ys, hi)]]
    ax.errorbar(xs, ys, yerr=yerr, marker="o", capsize=3, **kw)


def as_ms(_r, t):
    return t


def as_gbs(r, t):
    b = num(r, "bytes")
    return b / (t * 1e6) if b else 0.0


def subplots(plt, nrows, ncols, w=5.2, h=3.8):
    fig, axes = plt.subplots(nrows, ncols, figsize=(w * ncols, h * nrows), squeeze=False)
    return fig, axes


# ---- the sections ----------------------------------------------------------

class Report:
    def __init__(self, rows, metas, plt, folder, published):
        self.rows, self.metas, self.plt = rows, metas, plt
        self.figs = Figures(plt, folder)
        self.published = published
        self.machines = list(OrderedDict.fromkeys(r["machine"] for r in rows))
        self.out = []

    def w(self, text=""):
        self.out.append(text)

    # The environment and the ceilings of each machine.
    def environment(self):
        self.w("## Machines and their measured ceilings\n")
        body = []
        for m in self.machines:
            files = [x for x in self.metas if any(r["machine"] == m for r in x["rows"])]
            first = files[0]
            env = first.get("environment") or {}
            cores = env.get("cores")
            body.append([m, ", ".join(os.path.basename(x["path"]) for x in files),
                         first.get("date") or "", first.get("host") or "",
                         first.get("cpu_model") or "",
                         f"{cores} cores, {env.get('pus')} PUs" if cores else "",
                         gpu_name(first) or "", first.get("revision") or ""])
        self.w(md_table(["machine", "files", "date", "host", "CPU", "topology", "GPU",
                         "revision"], body))
        ceil, low = self.ceilings()
        if not ceil:
            return
        self.w("Ceilings measured in the same runs as the rows (GB/s, 10^9 bytes, STREAM-style; "
               "GFLOP/s of FMA, 2 flops each; the best each run saw, and where the runs of one "
               "machine saw values more than 5% apart, the least to the best: each row is held "
               "to its own run's; doc/roofline.md):\n")

        def cell(key, v, k):
            lo = low.get(key, {}).get(k)
            if v.get(k) and lo is not None and lo < 0.95 * v[k]:
                return f"{fmt(lo)} to {fmt(v[k])}"
            return fmt(v.get(k))

        body = [[m, b, c] + [cell((m, b, c), v, k) for k in KINDS]
                for (m, b, c), v in ceil.items()]
        self.w(md_table(["machine", "backend", "configuration", "read GB/s", "copy GB/s",
                         "triad GB/s", "fp32 GFLOP/s", "fp64 GFLOP/s"], body))
        # Each machine's widest configuration per backend, side by side.
        top = OrderedDict()
        for (m, b, c), v in ceil.items():
            t = re.search(r"threads=(\d+)", c)
            k = (m, b)
            if k not in top or (t and int(t.group(1)) > top[k][0]):
                top[k] = (int(t.group(1)) if t else 0, c, v)
        fig, axes = subplots(self.plt, 1, 2, w=6.5)
        for ax, kinds, unit in ((axes[0][0], KINDS[:3], "GB/s (10^9 B/s)"),
                                (axes[0][1], KINDS[3:], "GFLOP/s (FMA = 2 flops)")):
            labels = [f"{m}\n{b} {c}" for (m, b), (_, c, _) in top.items()]
            width = 0.8 / len(kinds)
            if not any(v.get(k) for _, _, v in top.values() for k in kinds):
                # no row of these files is held to these ceilings (integer data: no FMA)
                ax.axis("off")
                ax.text(0.5, 0.5, "not measured: no row is held to them", ha="center",
                        va="center", fontsize=9, transform=ax.transAxes)
                continue
            for i, k in enumerate(kinds):
                ax.bar([j + i * width for j in range(len(top))],
                       [v.get(k) or 0 for _, _, v in top.values()], width, label=k)
            ax.set_xticks([j + width * (len(kinds) - 1) / 2 for j in range(len(top))])
            ax.set_xticklabels(labels, fontsize=7)
            ax.set_yscale("log")
            ax.set_ylabel(unit)
            ax.legend(fontsize=8)
            ax.grid(True, axis="y", alpha=0.3)
        axes[0][0].set_title("memory ceilings")
        axes[0][1].set_title("FMA ceilings")
        fig.tight_layout()
        self.w(self.figs.save(fig, "ceilings"))
        gpu = {m: v for (m, b), (_, _, v) in top.items() if b == "gpu"}
        cpu = {m: v for (m, b), (_, _, v) in top.items() if b == "cpu"}
        lines = []
        for m in self.machines:
            if m in gpu and m in cpu and cpu[m].get("copy") and gpu[m].get("copy"):
                lines.append(f"- {m}: GPU over CPU (widest team): copy "
                             f"{gpu[m]['copy'] / cpu[m]['copy']:.1f}x" +
                             (f", fp32 {gpu[m]['fp32'] / cpu[m]['fp32']:.1f}x"
                              if gpu[m].get("fp32") and cpu[m].get("fp32") else ""))
        gms = [m for m in self.machines if m in gpu and gpu[m].get("copy")]
        for a, b in zip(gms, gms[1:]):
            lines.append(f"- {b} over {a}: GPU copy ceiling {gpu[b]['copy'] / gpu[a]['copy']:.2f}x")
        if lines:
            self.w("Hardware ratios from these ceilings:\n\n" + "\n".join(lines) + "\n")

    def ceilings(self):
        """Two maps (machine, backend, configuration) -> {kind: value} of the
        JSON reports' ceilings and the rows' ceiling columns (by traffic mix
        and precision): the best of each, and the least (the runs measure
        their own, and they can differ)."""
        out, low = OrderedDict(), {}

        def seen(key, k, v):
            d = out.setdefault(key, {})
            d[k] = max(d.get(k) or 0, v)
            lo = low.setdefault(key, {})
            lo[k] = min(lo.get(k, v), v)

        for x in self.metas:
            m = x["rows"][0]["machine"]
            for c in x["ceilings"]:
                if isinstance(c.get("value"), (int, float)):
                    seen((m, c.get("backend"), c.get("configuration")), c.get("kind"),
                         c["value"])
        for r in self.rows:
            # rows of several ranks hold the ranks' ceilings together (each rank measures
            # its own device or share of the node): their own configuration
            parts = [f"{k}={r[k]}" for k in ("threads", "placement") if r.get(k) is not None]
            if ranks(r) > 1:
                parts.append(f"ranks={r['ranks']}")
            cfg = " ".join(parts) or "device 0"
            key = (r["machine"], r.get("backend"), cfg)
            kind = MIX_KIND.get(r.get("mix"))
            if kind and num(r, "ceiling_gbs"):
                seen(key, kind, r["ceiling_gbs"])
            if num(r, "ceiling_gflops") and r.get("precision") in ("float", "double"):
                seen(key, "fp32" if r["precision"] == "float" else "fp64", r["ceiling_gflops"])
        return out, low

    # One family.
    def family(self, algo):
        rows = [r for r in self.rows if r["algo"] == algo]
        every = param_names(rows)
        names = [k for k in every if len(distinct(rows, k)) > 1]
        fixed = [f"{k}={fmt(rows[0].get(k))}" for k in every if k not in names
                 and rows[0].get(k) is not None]
        meaning = next((x["size_meaning"][algo] for x in self.metas if algo in x["size_meaning"]),
                       "size")
        self.w(f"## {algo}\n")
        self.w(f"{len(rows)} rows ({sum(1 for r in rows if r.get('verified') == 'fail')} failed "
               f"verification) from {', '.join(distinct(rows, 'machine'))}; size = {meaning}"
               + (f"; parameters that vary: {', '.join(names)}" if names else "")
               + (f"; fixed: {' '.join(fixed)}" if fixed else "") + ".\n")
        if not any(ok(r) for r in rows):
            self.w("No row of this family verified: no views.\n")
            return
        self.best_rows(algo, rows, names)
        one = [r for r in rows if ranks(r) == 1]
        if any(len(distinct([r for r in one if r.get("backend") == "cpu"
                             and r["machine"] == m], "threads")) >= 2 for m in self.machines):
            self.scaling(algo, one, names, meaning)
        if any(len(distinct([r for r in rows if r["machine"] == m], "ranks")) >= 2
               for m in self.machines):
            self.rank_scaling(algo, rows, names)
        if algo == "reduce" and any(ranks(r) > 1 for r in rows):
            self.busbw(algo, rows)
        if len({r["backend"] for r in rows}) >= 2:
            self.speedups(algo, rows, names)
        if any(len(distinct([r for r in rows if r["machine"] == m and r.get("backend") == "gpu"],
                            "block")) >= 2 for m in self.machines):
            self.heatmap(algo, rows, names)
        axis = self.sweep_axis(rows, names)
        if axis:
            self.sizes(algo, rows, names, axis, meaning if axis == "size" else axis)
        self.roofline(algo, rows, names)

    def best_rows(self, algo, rows, names):
        big = {}
        for r in rows:
            k = (r["machine"], r.get("backend"))
            big[k] = max(big.get(k, 0), r.get("size") or 0)
        top = best([r for r in rows if (r.get("size") or 0) == big[(r["machine"], r.get("backend"))]],
                   lambda r: (r["machine"], r.get("backend"), r.get("precision"), pstr(r, names),
                              r.get("variant")))
        body = []
        for (m, b, p, ps, v), r in top.items():
            how = " ".join(f"{k}={fmt(r[k])}" for k in sorted(TUNING) if r.get(k) is not None)
            body.append([m, b, v, p or "", ps, fsize(r.get("size")), how, fmt(r["median_ms"]),
                         fmt(num(r, "gbs")), fmt(num(r, "roofline"), 3), r.get("bound") or "",
                         r.get("verified") or "", r.get("flags") or ""])
        self.w("Best row of each variant at the largest size (median ms; GB/s over it; roofline = "
               "the least time the measured ceilings allow over the median):\n")
        self.w(md_table(["machine", "backend", "variant", "precision", "problem", "size",
                         "configuration", "ms", "GB/s", "roofline", "bound", "verified", "flags"],
                        body[:60]))

    def scaling(self, algo, rows, names, meaning):
        cpu = [r for r in rows if r.get("backend") == "cpu" and r.get("threads") is not None]
        gpu = [r for r in rows if r.get("backend") == "gpu"]
        self.w(f"### {algo}: thread scaling\n")
        threads = distinct(cpu, "threads")
        line = lambda r: (r.get("variant"), r.get("precision"), pstr(r, names), r.get("size"))
        body = []
        for m in self.machines:
            cm = [r for r in cpu if r["machine"] == m]
            cells = best(cm, lambda r: line(r) + (r["threads"],))
            gbest = best([r for r in gpu if r["machine"] == m],
                         lambda r: (r.get("precision"), pstr(r, names), r.get("size")))
            big = {}
            for r in cm:
                big[line(r)[:3]] = max(big.get(line(r)[:3], 0), r.get("size") or 0)
            for key in OrderedDict.fromkeys(line(r) for r in cm
                                            if (r.get("size") or 0) == big[line(r)[:3]]):
                ts = {t: cells.get(key + (t,)) for t in threads}
                fastest = min((r["median_ms"] for r in ts.values() if r), default=None)
                g = gbest.get((key[1], key[2], key[3]))
                body.append([m, key[0], key[1] or "", key[2], fsize(key[3])] +
                            [fmt(ts[t]["median_ms"]) if ts[t] else "" for t in threads] +
                            [fmt(g["median_ms"]) if g else "",
                             f"{fastest / g['median_ms']:.1f}x" if g and fastest else ""])
        self.w("Median ms by CPU threads at the largest size of each line; the GPU's best row of the same problem and the speedup "
               "of the GPU over the fastest CPU team (the published tables' shape):\n")
        self.w(md_table(["machine", "variant", "precision", "problem", "size"] +
                        [f"{t} thr" for t in threads] + ["GPU ms", "GPU speedup"], body[:80]))
        # Figures: per machine a column, rows time, GB/s, efficiency; the
        # largest size of each line.
        fig, axes = subplots(self.plt, 3, len(self.machines))
        for j, m in enumerate(self.machines):
            cm = [r for r in cpu if r["machine"] == m]
            if not cm:
                continue
            big = max(r.get("size") or 0 for r in cm)
            cm = [r for r in cm if (r.get("size") or 0) == big]
            cells = best(cm, lambda r: line(r) + (r["threads"],))
            series = defaultdict(list)
            for k, r in cells.items():
                series[k[:-1]].append(r)
            ceil = defaultdict(dict)
            for r in cm:
                if num(r, "ceiling_gbs") and r.get("mix"):
                    ceil[r["mix"]][r["threads"]] = max(ceil[r["mix"]].get(r["threads"], 0),
                                                       r["ceiling_gbs"])
            for k, rs in list(series.items())[:12]:
                rs.sort(key=lambda r: r["threads"])
                xs = [r["threads"] for r in rs]
                label = " ".join(str(x) for x in k[:3] if x)
                errbar(axes[0][j], xs, rs, as_ms, label=label)
                if any(num(r, "bytes") for r in rs):
                    errbar(axes[1][j], xs, rs, as_gbs, label=label)
                base = rs[0]["median_ms"] * rs[0]["threads"]
                axes[2][j].plot(xs, [base / (r["threads"] * r["median_ms"]) for r in rs],
                                marker="o", label=label)
            for mix, pts in ceil.items():
                xs = sorted(pts)
                axes[1][j].plot(xs, [pts[x] for x in xs], "--", color="gray", linewidth=1)
                axes[1][j].annotate(f"{MIX_KIND.get(mix, mix)} ceiling", (xs[-1], pts[xs[-1]]),
                                    fontsize=7, color="gray", ha="right", va="bottom")
            axes[0][j].set_title(f"{m}: {algo}, size {fsize(big)}", fontsize=9)
            axes[0][j].set_ylabel("time (ms, median; bars min-max)")
            axes[1][j].set_ylabel("bandwidth (GB/s, 10^9 B/s)")
            axes[2][j].set_ylabel("parallel efficiency T1 / (p Tp)")
            axes[2][j].axhline(1.0, color="gray", linewidth=0.8)
            for i in range(3):
                log_axis(axes[i][j], "x", threads)
                axes[i][j].set_xlabel("CPU threads")
                axes[i][j].grid(True, alpha=0.3)
            axes[0][j].set_yscale("log")
            axes[0][j].legend(fontsize=7)
        fig.tight_layout()
        self.w(self.figs.save(fig, f"{slug(algo)}-threads"))

    def rank_series(self, rows, names):
        """The rows of MPI runs as scaling series over the ranks, by kind:
        strong where the work of a unit (bytes, else flops, an iteration
        where the row counts them) stays as the ranks grow (the same
        problem split), weak where the work per rank stays (a problem that
        grows with the ranks: every rank its own arrays, or SOR's box per
        rank). A series is keyed by machine, backend, variant, precision and
        the other parameters, and needs two rank counts or more."""
        sized = {"size", "nx", "ny", "nz"}
        other = [k for k in names if k not in sized]
        groups = {"strong": defaultdict(list), "weak": defaultdict(list)}
        for r in rows:
            nr, w = num(r, "ranks"), unit_work(r)
            if not ok(r) or not nr or not w:
                continue
            head = (r["machine"], r.get("backend"), r.get("variant"), r.get("precision"))
            n = axes_of(r)
            dims = "x".join(fmt(x) for x in n) if n else f"size {fsize(r.get('size'))}"
            groups["strong"][head + (" ".join(x for x in (pstr(r, other), dims) if x),)].append(r)
            box = rank_box(r)
            each = f"box {'x'.join(str(x) for x in box)}" if box else f"{fmt(sig(w / nr))} B a rank"
            groups["weak"][head + (" ".join(x for x in (pstr(r, other), each) if x),)].append(r)
        out = {}
        for kind, g in groups.items():
            series = []
            for key, rs in g.items():
                if len(distinct(rs, "ranks")) < 2:
                    continue
                ws = [unit_work(r) / (r["ranks"] if kind == "weak" else 1) for r in rs]
                if max(ws) > 1.01 * min(ws):
                    continue
                series.append((key, sorted(rs, key=lambda r: (r["ranks"], grid_of(r)))))
            out[kind] = series
        return out

    def rank_scaling(self, algo, rows, names):
        """Strong and weak scaling over the MPI ranks: a table a series
        (time a unit, speedup and parallel efficiency against the series'
        fewest ranks, the communication share), and a figure each kind."""
        for kind, series in self.rank_series(rows, names).items():
            if not series:
                continue
            unit = "iteration" if any(num(r, "iterations") for _, rs in series for r in rs) \
                else "run"
            self.w(f"### {algo}: {kind} scaling over MPI ranks\n")
            if kind == "strong":
                self.w(f"The same problem split over more ranks: ms = median time per {unit} (the "
                       "slowest rank's); speedup = the fewest ranks' time over this one's; "
                       "efficiency = speedup x fewest ranks / ranks; comm = comm_ms over mean_ms, "
                       "the share of a run the slowest rank spent in MPI calls.\n")
            else:
                self.w(f"The work per rank fixed: ms = median time per {unit}; efficiency = the "
                       "fewest ranks' time over this one's; scaled speedup = efficiency x ranks / "
                       "fewest ranks; comm as for strong scaling.\n")
            body, lines = [], []
            for key, rs in series:
                b0 = min(rs, key=lambda r: (r["ranks"], per_unit(r)))
                base_r, base_t = b0["ranks"], per_unit(b0)
                label = " ".join(str(x) for x in key[2:] if x)
                pts = OrderedDict()
                for r in rs:
                    t = per_unit(r)
                    speed = base_t / t if kind == "strong" else base_t / t * r["ranks"] / base_r
                    eff = speed * base_r / r["ranks"]
                    share = comm_share(r)
                    body.append([key[0], key[2], key[3] or "", key[4], fmt(r["ranks"]), grid_of(r),
                                 fmt(r.get("threads")), fmt(t), f"{speed:.2f}x", f"{eff:.2f}",
                                 fmt(num(r, "comm_ms")), f"{100 * share:.1f}%" if share is not None
                                 else "", fmt(num(r, "gbs"))])
                    if r["ranks"] not in pts or t < per_unit(pts[r["ranks"]]):
                        pts[r["ranks"]] = r
                lines.append((key[0], label, base_r, base_t, list(pts.values())))
            self.w(md_table(["machine", "variant", "precision", "problem", "ranks", "grid",
                             "threads", f"ms/{unit}", "speedup", "efficiency", "comm ms",
                             "comm share", "GB/s"], body[:120]))
            fig, axes = subplots(self.plt, 3, len(self.machines))
            for j, m in enumerate(self.machines):
                for mm, label, base_r, base_t, pts in lines[:24]:
                    if mm != m:
                        continue
                    xs = [r["ranks"] for r in pts]
                    ts = [per_unit(r) for r in pts]
                    axes[0][j].plot(xs, ts, marker="o", label=label)
                    effs = [base_t / t * (base_r / x if kind == "strong" else 1)
                            for x, t in zip(xs, ts)]
                    axes[1][j].plot(xs, effs, marker="o", label=label)
                    shares = [comm_share(r) for r in pts]
                    axes[2][j].plot([x for x, c in zip(xs, shares) if c is not None],
                                    [100 * c for c in shares if c is not None], marker="o",
                                    label=label)
                axes[0][j].set_title(f"{m}: {algo}, {kind} scaling", fontsize=9)
                axes[0][j].set_ylabel(f"time per {unit} (ms, median)")
                axes[0][j].set_yscale("log")
                axes[1][j].set_ylabel("parallel efficiency" + (" T1 R1 / (R TR)" if kind ==
                                      "strong" else " T1 / TR"))
                axes[1][j].axhline(1.0, color="gray", linewidth=0.8)
                axes[2][j].set_ylabel("communication share (% of a run)")
                for i in range(3):
                    log_axis(axes[i][j], "x", distinct([r for r in rows if r["machine"] == m],
                                                       "ranks"))
                    axes[i][j].set_xlabel("MPI ranks")
                    axes[i][j].grid(True, alpha=0.3)
                axes[0][j].legend(fontsize=7)
            fig.tight_layout()
            self.w(self.figs.save(fig, f"{slug(algo)}-{kind}"))

    def busbw(self, algo, rows):
        """The reduction's all-reduce in nccl-tests' convention: algbw = S /
        t, busbw = algbw 2 (R - 1) / R, for S the payload (one element)
        and t the all-reduce's time a run (comm_ms)."""
        body = []
        for r in rows:
            ranks, c = num(r, "ranks"), num(r, "comm_ms")
            size = ELEMENT.get(r.get("precision"))
            if not ok(r) or not ranks or ranks < 2 or not c or not size:
                continue
            alg = size / (c * 1e6)
            body.append([r["machine"], r.get("backend") or "", r.get("variant") or "",
                         r.get("precision") or "", fmt(ranks), fmt(size), fmt(c), fmt(alg),
                         fmt(alg * 2 * (ranks - 1) / ranks)])
        if not body:
            return
        self.w(f"### {algo}: all-reduce bus bandwidth\n")
        self.w("nccl-tests' convention (doc/mpi.md): algbw = bytes / time, busbw = algbw x "
               "2 (R - 1) / R; time = comm_ms, the all-reduce's time a run. One element is a "
               "latency, not a bandwidth, measurement.\n")
        self.w(md_table(["machine", "backend", "variant", "precision", "ranks", "bytes",
                         "comm ms", "algbw GB/s", "busbw GB/s"], body[:60]))

    def speedups(self, algo, rows, names):
        """CPU vs GPU per problem: kernel, +pinned, +pageable, and the
        hardware ratio of the two best rows' roofline times."""
        prob = lambda r: (r["machine"], r.get("precision"), pstr(r, names), r.get("size"))
        cpu = best([r for r in rows if r.get("backend") == "cpu"], prob)
        gk = best([r for r in rows if r.get("backend") == "gpu"], prob)
        gp = best([r for r in rows if r.get("backend") == "gpu"], prob, "e2e_ms")
        gg = best([r for r in rows if r.get("backend") == "gpu"], prob, "e2e_pageable_ms")
        body, bars = [], []
        for k, c in sorted(cpu.items(), key=lambda kv: tuple(str(x) for x in kv[0][:3]) +
                           (kv[0][3] or 0,)):
            g = gk.get(k)
            if not g:
                continue
            s = c["median_ms"] / g["median_ms"]
            pin = c["median_ms"] / gp[k]["e2e_ms"] if k in gp else None
            pag = c["median_ms"] / gg[k]["e2e_pageable_ms"] if k in gg else None
            hw = None
            if num(c, "roofline") and num(g, "roofline"):
                hw = (c["roofline"] * c["median_ms"]) / (g["roofline"] * g["median_ms"])
            body.append([k[0], k[1] or "", k[2], fsize(k[3]),
                         f"{c['variant']} ({fmt(c.get('threads'))} thr)", fmt(c["median_ms"]),
                         g["variant"], fmt(g["median_ms"]), f"{s:.2f}x",
                         f"{pin:.2f}x" if pin else "", f"{pag:.2f}x" if pag else "",
                         f"{hw:.2f}x" if hw else ""])
            bars.append((k, s, pin, pag, hw))
        if not body:
            return
        self.w(f"### {algo}: CPU against GPU\n")
        self.w("Kernel speedup = the best CPU row's median over the best GPU row's; +pinned and "
               "+pageable add the GPU's host-device copies; hardware = the speedup the two rows' "
               "measured ceilings predict (their roofline times). A kernel speedup far above the "
               "hardware ratio is the CPU twin's weakness, far below the GPU twin's.\n")
        self.w(md_table(["machine", "precision", "problem", "size", "CPU best", "CPU ms",
                         "GPU best", "GPU ms", "kernel", "+pinned", "+pageable", "hardware"],
                        body[:60]))
        # The largest size of each problem line, at most 16 groups.
        big = {}
        for k, *_ in bars:
            big[k[:3]] = max(big.get(k[:3], 0), k[3] or 0)
        bars = [b for b in bars if (b[0][3] or 0) == big[b[0][:3]]][:16]
        fig, axes = subplots(self.plt, 1, 1, w=max(6, 1.1 * len(bars) + 2), h=4.2)
        ax = axes[0][0]
        for i, (label, idx) in enumerate((("kernel", 1), ("+pinned", 2), ("+pageable", 3))):
            ax.bar([j + i * 0.25 for j in range(len(bars))], [b[idx] or 0 for b in bars], 0.25,
                   label=label)
        hx = [j + 0.25 for j, b in enumerate(bars) if b[4]]
        ax.scatter(hx, [b[4] for b in bars if b[4]], marker="_", s=600, color="black",
                   zorder=3, label="hardware ratio (ceilings)")
        ax.set_xticks([j + 0.25 for j in range(len(bars))])
        ax.set_xticklabels([" ".join(str(x) for x in (b[0][0], b[0][1], b[0][2], fsize(b[0][3]))
                                     if x) for b in bars], fontsize=7, rotation=20, ha="right")
        ax.set_yscale("log")
        ax.axhline(1.0, color="gray", linewidth=0.8)
        ax.set_ylabel("GPU speedup over the best CPU row (x)")
        ax.set_title(f"{algo}: CPU vs GPU", fontsize=9)
        ax.legend(fontsize=7)
        ax.grid(True, axis="y", alpha=0.3)
        fig.tight_layout()
        self.w(self.figs.save(fig, f"{slug(algo)}-speedup"))

    def heatmap(self, algo, rows, names):
        gpu = [r for r in rows if r.get("backend") == "gpu" and r.get("block") is not None]
        groups = OrderedDict.fromkeys((r["machine"], r.get("precision"), pstr(r, names),
                                       r.get("size")) for r in gpu)
        groups = [g for g in groups if len(distinct([r for r in gpu if (r["machine"],
                  r.get("precision"), pstr(r, names), r.get("size")) == g], "block")) >= 2]
        sizes = defaultdict(list)
        for g in groups:
            sizes[g[:3]].append(g[3] or 0)
        groups = [g for g in groups if (g[3] or 0) in sorted(sizes[g[:3]])[-2:]][:8]
        if not groups:
            return
        self.w(f"### {algo}: GPU threads a block\n")
        ncols = min(2, len(groups))
        nrows = (len(groups) + ncols - 1) // ncols
        fig, axes = subplots(self.plt, nrows, ncols, w=6, h=0.45 * 12 + 1)
        for ax in axes.flat[len(groups):]:
            ax.set_visible(False)
        for j, g in enumerate(groups):
            rs = [r for r in gpu if (r["machine"], r.get("precision"), pstr(r, names),
                                     r.get("size")) == g]
            blocks, variants = distinct(rs, "block"), list(OrderedDict.fromkeys(
                r["variant"] for r in rs))
            cell = best(rs, lambda r: (r["variant"], r["block"]))
            use_gbs = all(num(r, "gbs") for r in cell.values())
            body = []
            data = []
            for v in variants:
                vals = [cell.get((v, b)) for b in blocks]
                body.append([v] + [fmt(r["median_ms"]) if r else "" for r in vals])
                data.append([(r["gbs"] if use_gbs else r["median_ms"]) if r else float("nan")
                             for r in vals])
            self.w(f"{g[0]}, {g[1] or ''} {g[2]} size {fsize(g[3])}: median ms (best over the "
                   "other tunings) by threads a block:\n")
            self.w(md_table(["variant"] + [str(b) for b in blocks], body))
            ax = axes.flat[j]
            im = ax.imshow(data, aspect="auto", cmap="viridis")
            vals = [v for rowv in data for v in rowv if v == v]
            mid = (min(vals) + max(vals)) / 2 if vals else 0
            ax.set_xticks(range(len(blocks)))
            ax.set_xticklabels([str(b) for b in blocks])
            ax.set_yticks(range(len(variants)))
            ax.set_yticklabels(variants, fontsize=8)
            for y, rowv in enumerate(data):
                for x, v in enumerate(rowv):
                    if v == v:
                        ax.text(x, y, fmt(v, 3), ha="center", va="center", fontsize=7,
                                color="black" if v > mid else "white")
            ax.set_xlabel("threads a block")
            ax.set_title(f"{g[0]} {g[1] or ''} {fsize(g[3])}", fontsize=9)
            fig.colorbar(im, ax=ax, label="GB/s (10^9 B/s)" if use_gbs else "time (ms)")
        fig.tight_layout()
        self.w(self.figs.save(fig, f"{slug(algo)}-blocks"))

    def sweep_axis(self, rows, names):
        if len(distinct(rows, "size")) >= 3:
            return "size"
        for k in names:
            vals = distinct(rows, k)
            if len(vals) >= 3 and all(isinstance(v, (int, float)) for v in vals):
                return k
        return None

    def sizes(self, algo, rows, names, axis, meaning):
        rest = [k for k in names if k != axis]
        self.w(f"### {algo}: time by {axis}\n")
        fig, axes = subplots(self.plt, 1, len(self.machines), w=6)
        notes = []
        for j, m in enumerate(self.machines):
            mr = [r for r in rows if r["machine"] == m and r.get(axis) is not None]
            ax = axes[0][j]
            xs_all = distinct(mr, axis)
            lines = best(mr, lambda r: (r.get("backend"), r.get("variant"), r.get("precision"),
                                        pstr(r, rest), r[axis]))
            series = defaultdict(list)
            for k, r in lines.items():
                series[k[:-1]].append(r)
            for k, rs in list(series.items())[:14]:
                rs.sort(key=lambda r: r[axis])
                errbar(ax, [r[axis] for r in rs], rs, as_ms,
                       label=" ".join(str(x) for x in k if x), linewidth=1)
            # Break-even: the best CPU row against the best GPU row with
            # pinned transfers, per problem line.
            for pl in OrderedDict.fromkeys((r.get("precision"), pstr(r, rest)) for r in mr):
                sub = [r for r in mr if (r.get("precision"), pstr(r, rest)) == pl]
                c = best([r for r in sub if r.get("backend") == "cpu"], lambda r: r[axis])
                g = best([r for r in sub if r.get("backend") == "gpu"], lambda r: r[axis], "e2e_ms")
                xs = [x for x in xs_all if x in c and x in g]
                if len(xs) < 2:
                    continue
                ratio = [c[x]["median_ms"] / g[x]["e2e_ms"] for x in xs]
                ax.plot(xs, [g[x]["e2e_ms"] for x in xs], ":", color="black", linewidth=1,
                        label=f"GPU + pinned transfers {pl[0] or ''} {pl[1]}")
                where = None
                for (x0, r0), (x1, r1) in zip(zip(xs, ratio), zip(xs[1:], ratio[1:])):
                    if r0 < 1 <= r1:
                        f = math.log(1 / r0) / math.log(r1 / r0) if r1 != r0 else 0
                        where = x0 * (x1 / x0) ** f
                        break
                what = f"{m}, {pl[0] or ''} {pl[1]}".strip()
                if where:
                    ax.axvline(where, color="red", linestyle="--", linewidth=1)
                    ax.annotate(f"break-even ~{fmt(where, 3)}", (where, ax.get_ylim()[0]),
                                fontsize=7, color="red", rotation=90, va="bottom")
                    notes.append(f"- {what}: the GPU with pinned transfers overtakes the best CPU "
                                 f"row at {axis} ~{fmt(where, 3)} (interpolated between "
                                 f"{fsize(x0)} and {fsize(x1)}).")
                elif all(v >= 1 for v in ratio):
                    notes.append(f"- {what}: the GPU with pinned transfers is ahead at every "
                                 f"{axis} measured ({fsize(xs[0])} and up; {ratio[0]:.2f}x at the "
                                 "smallest).")
                elif all(v < 1 for v in ratio):
                    notes.append(f"- {what}: the best CPU row stays ahead at every {axis} "
                                 f"measured (up to {fsize(xs[-1])}; GPU+pinned at "
                                 f"{ratio[-1]:.2f}x there).")
            log_axis(ax, "x", xs_all)
            ax.set_yscale("log")
            ax.set_xlabel(meaning if axis == "size" else axis)
            ax.set_ylabel("time (ms, median; bars min-max)")
            ax.set_title(f"{m}: {algo}", fontsize=9)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=6)
        fig.tight_layout()
        self.w(self.figs.save(fig, f"{slug(algo)}-{slug(axis)}"))
        if notes:
            self.w("Break-even (best CPU row against the GPU's kernel plus pinned transfers):\n\n"
                   + "\n".join(notes) + "\n")

    def roofline(self, algo, rows, names):
        """Per backend and machine: the best row of each variant (largest size,
        widest CPU team) on the roofline in its bandwidth form."""
        backends = [b for b in ("cpu", "gpu") if any(r.get("backend") == b for r in rows)]
        backends += sorted({r.get("backend") for r in rows} - set(backends) - {None})
        fig, axes = subplots(self.plt, len(backends), len(self.machines), w=5.5, h=4.2)
        self.w(f"### {algo}: roofline\n")
        self.w("Each variant's best row (largest size; its widest CPU team) at its arithmetic "
               "intensity, its height the bandwidth it reached; the roofs are the measured "
               "memory ceilings (flat) and the FMA ceilings over intensity (falling): a row on a "
               "roof is at its machine's limit. Rows with no flops sit at the left edge.\n")
        for i, b in enumerate(backends):
            for j, m in enumerate(self.machines):
                ax = axes[i][j]
                br = [r for r in rows if r["machine"] == m and r.get("backend") == b
                      and num(r, "bytes")]
                if not br:
                    ax.set_visible(False)
                    continue
                big = max(r.get("size") or 0 for r in br)
                br = [r for r in br if (r.get("size") or 0) == big]
                widest = {}
                for r in br:
                    widest[r.get("variant")] = max(widest.get(r.get("variant"), 0),
                                                   r.get("threads") or 0)
                br = [r for r in br if (r.get("threads") or 0) == widest[r.get("variant")]]
                top_t = max(widest.values())
                pts = best(br, lambda r: (r.get("variant"), r.get("precision"), pstr(r, names)))
                ints = [r["intensity"] for r in pts.values() if num(r, "intensity")]
                lo = min(ints) / 8 if ints else 1e-3
                hi = max(ints) * 8 if ints else 10
                lo, hi = min(lo, 1e-2), max(hi, 100)
                xs = [lo * (hi / lo) ** (t / 100) for t in range(101)]
                for mix in sorted({r.get("mix") for r in br if r.get("mix")}):
                    bw = max((r["ceiling_gbs"] for r in br if r.get("mix") == mix
                              and num(r, "ceiling_gbs")), default=None)
                    if bw:
                        ax.plot(xs, [bw] * len(xs), "--", color="gray", linewidth=1)
                        ax.annotate(f"{MIX_KIND.get(mix, mix)} {fmt(bw, 3)} GB/s", (xs[-1], bw),
                                    fontsize=7, ha="right", va="bottom", color="gray")
                for p in sorted({r.get("precision") for r in br if r.get("precision")}):
                    fl = max((r["ceiling_gflops"] for r in br if r.get("precision") == p
                              and num(r, "ceiling_gflops")), default=None)
                    if fl:
                        ax.plot(xs, [fl / x for x in xs], "-.", color="brown", linewidth=1)
                        ax.annotate(f"{'fp32' if p == 'float' else 'fp64'} {fmt(fl, 3)} GFLOP/s",
                                    (xs[len(xs) // 2], fl / xs[len(xs) // 2]), fontsize=7,
                                    color="brown")
                for (v, p, ps), r in pts.items():
                    x = r["intensity"] if num(r, "intensity") else lo
                    ax.scatter([x if x > 0 else lo], [as_gbs(r, r["median_ms"])], zorder=3,
                               label=" ".join(str(s) for s in (v, p, ps) if s) +
                               (f" ({r['roofline']:.2f})" if num(r, "roofline") else ""))
                ax.set_xscale("log")
                ax.set_yscale("log")
                heights = [as_gbs(r, r["median_ms"]) for r in pts.values()] + \
                    [r["ceiling_gbs"] for r in br if num(r, "ceiling_gbs")]
                heights = [h for h in heights if h > 0]
                if heights:
                    ax.set_ylim(min(heights) / 3, max(heights) * 3)
                ax.set_xlabel("arithmetic intensity (flop/byte)")
                ax.set_ylabel("bandwidth reached (GB/s, 10^9 B/s)")
                ax.set_title(f"{m}: {algo} {b}" + (f", up to {top_t} threads" if top_t else "") +
                             f", size {fsize(big)}", fontsize=9)
                ax.grid(True, alpha=0.3, which="both")
                ax.legend(fontsize=6, title="(roofline)", title_fontsize=6)
        fig.tight_layout()
        self.w(self.figs.save(fig, f"{slug(algo)}-roofline"))

    # ---- the published tables ---------------------------------------------

    def matching(self, match, extra):
        """Today's rows matching a published table's row, by machine."""
        want = dict(match, **{k: v for k, v in extra.items()
                              if k not in ("label", "ms", "gbs", "rate", "column")})
        out = defaultdict(list)
        for r in self.rows:
            # a published figure is one device's or one CPU's: rows of several ranks
            # (several GPUs, or one node's cores split) are not its twin
            if ranks(r) > 1 and "ranks" not in want:
                continue
            if all(str(r.get(k)) == str(v) for k, v in want.items()):
                out[r["machine"]].append(r)
        return out

    def why(self, pub, r, ratio, pub_ms=None):
        """A measured reason for a ratio of published over today's time: the
        bandwidth ratio (today's measured ceiling over the published machine's
        peak) times the efficiency ratio (today's fraction of its roofline over
        the published fraction of peak, for the same bytes)."""
        parts = []
        peak, ceil, b = pub.get("peak_gbs"), num(r, "ceiling_gbs"), num(r, "bytes")
        if peak and ceil and ratio:
            bw = ceil / peak
            text = (f"{ratio:.1f}x = bandwidth {bw:.1f}x (today's measured "
                    f"{MIX_KIND.get(r.get('mix'), 'memory')} ceiling {fmt(ceil)} GB/s over the "
                    f"published {fmt(peak)} GB/s peak) x efficiency {ratio / bw:.2f}")
            if b and pub_ms and num(r, "roofline") and r.get("bound") != "compute":
                frac = b / (pub_ms * 1e6) / peak
                text += (f" (today at {r['roofline']:.2f} of its roofline, the published run at "
                         f"{fmt(frac, 2)} of its peak for the same bytes)")
            parts.append(text)
        elif num(r, "roofline"):
            parts.append(f"today's row is at {r['roofline']:.2f} of its roofline "
                         f"({r.get('bound') or 'memory'}-bound)")
        if r["median_ms"] < 0.05:
            launches = num(r, "launches")
            parts.append(f"at {r['median_ms'] * 1000:.1f} us a run, launch latency (a few us a "
                         "launch" + (f", {int(launches)} launches" if launches else "") +
                         ") is a large part of it")
        if num(r, "occupancy"):
            parts.append(f"occupancy {r['occupancy']:.2f}")
        return "; ".join(parts)

    def published_tables(self):
        if not self.published:
            return
        algos = {r["algo"] for r in self.rows}
        tables = [t for t in self.published.get("tables", []) if t["match"].get("algo") in algos]
        if not tables:
            return
        start = len(self.out)
        self.w("## The published tables beside today's\n")
        self.w(f"Published figures from {os.path.basename(self.published['_path'])} (each table "
               "names its source); today's are the best matching row of each machine; ratio = "
               "published time over today's.\n")
        for t in tables:
            kind = t.get("kind", "rows")
            before = len(self.out)
            self.w(f"### {t['title']}\n\nSource: {t['source']}.\n")
            n = {"rows": self.pub_rows, "block": self.pub_block, "threads": self.pub_threads,
                 "transfers": self.pub_rows, "rate": self.pub_rate}[kind](t)
            if not n:
                del self.out[before:]
        if len(self.out) == start + 2:
            del self.out[start:]

    def pub_rows(self, t):
        body, reasons = [], []
        for pr in t["rows"]:
            cells = [pr["label"]] + [f"{pr[k]:g}" if k in pr else "" for k in ("ms", "gbs")]
            found = False
            for m in self.machines:
                rs = self.matching(t["match"], pr).get(m, [])
                col = pr.get("column", "median_ms")
                rs = [r for r in rs if num(r, col)]
                if pr.get("threads") is None and rs and rs[0].get("backend") == "cpu" \
                        and t.get("kind") != "transfers":
                    top = max(r.get("threads") or 0 for r in rs)
                    rs = [r for r in rs if (r.get("threads") or 0) == top]
                r = min((r for r in rs if ok(r)), key=lambda r: r[col], default=None)
                if r is None:
                    cells += ["", ""]
                    continue
                found = True
                ratio = pr["ms"] / r[col] if pr.get("ms") else None
                cells += [fmt(r[col]) + (f" ({r['variant']})" if "variant" not in pr else ""),
                          f"{ratio:.1f}x" if ratio else ""]
                if col in ("median_ms", "e2e_ms"):
                    reasons.append(f"- {pr['label']}, {m}: {self.why(t, r, ratio, pr.get('ms'))}.")
                else:
                    # The inputs go down, the outputs come back.
                    moved = num(r, "bytes_read" if col.startswith("h2d") else "bytes_written")
                    if moved:
                        reasons.append(f"- {pr['label']}, {m}: {moved / (r[col] * 1e6):.2f} GB/s "
                                       f"over the bus today ({fmt(moved)} bytes; PCIe of 2008: "
                                       "1-1.5 GB/s pageable, over 3 GB/s pinned).")
            if found:
                body.append(cells)
        if not body:
            return 0
        head = ["published", "ms", "GB/s"]
        for m in self.machines:
            head += [f"{m} ms", "ratio"]
        self.w(f"Published machine: {t.get('machine', '')}.\n")
        self.w(md_table(head, body))
        self.w("Why the ratio (measured):\n\n" + "\n".join(reasons) + "\n")
        return 1

    def pub_block(self, t):
        blocks = t["blocks"]
        body, reasons = [], []
        for pr in t["rows"]:
            for m in self.machines:
                rs = self.matching(t["match"], pr).get(m, [])
                cell = best(rs, lambda r: r.get("block"))
                if not cell:
                    continue
                body.append([pr["label"], m] + [
                    f"{p:g} / {fmt(cell[b]['median_ms'])}" if b in cell else f"{p:g}"
                    for b, p in zip(blocks, pr["ms"])])
                bb = min(cell.values(), key=lambda r: r["median_ms"])
                pb = min(pr["ms"])
                reasons.append(f"- {pr['label']}, {m}: best today {fmt(bb['median_ms'])} ms at "
                               f"block {bb.get('block')}, published {fmt(pb)} ms: "
                               f"{self.why(t, bb, pb / bb['median_ms'], pb)}.")
        if not body:
            return 0
        self.w(f"Published machine: {t.get('machine', '')}. Cells: published ms / today's ms "
               "(best over the other tunings).\n")
        self.w(md_table(["kernel", "machine"] + [str(b) for b in blocks], body))
        self.w("Why the ratio (measured):\n\n" + "\n".join(reasons) + "\n")
        return 1

    def pub_threads(self, t):
        threads = sorted({r.get("threads") for r in self.rows if r.get("algo") == t["match"]["algo"]
                          and r.get("backend") == "cpu" and r.get("threads") is not None})
        body = []
        for i, pr in enumerate(t["rows"]):
            for m in self.machines:
                rs = self.matching(t["match"], pr).get(m, [])
                if not rs:
                    continue
                cell = best(rs, lambda r: r.get("threads"))
                gmatch = dict(t["match"], backend="gpu")
                g = best(self.matching(gmatch, pr).get(m, []), lambda r: 0).get(0)
                fastest = min(r["median_ms"] for r in cell.values()) if cell else None
                body.append([pr["label"], f"today: {m}"] +
                            [fmt(cell[x]["median_ms"]) if x in cell else "" for x in threads] +
                            ["", f"{fastest / g['median_ms']:.1f}x" if g and fastest else ""])
            for pm in t["machines"]:
                series = ", ".join(f"{x}: {v:g}" for x, v in zip(pm["threads"], pm["ms"][i]))
                body.append([pr["label"], f"published: {pm['machine']}"] + [""] * len(threads) +
                            [series, f"{pm['gpu_speedup'][i]}x"])
        if not any(b[1].startswith("today") for b in body):
            return 0
        self.w("Median ms by CPU threads (published rows: threads: ms) and the GPU speedup over "
               "the fastest CPU team; the published speedups are over a Tesla C2050.\n")
        self.w(md_table(["generator", "machine"] + [f"{x} thr" for x in threads] +
                        ["published (threads: ms)", "GPU speedup"], body))
        ceil = {}
        for r in self.rows:
            if r.get("algo") == t["match"]["algo"] and r.get("backend") in ("cpu", "gpu") \
                    and num(r, "ceiling_gbs") and r.get("mix") == "1:1":
                k = (r["machine"], r["backend"])
                if (r.get("threads") or 0) >= ceil.get(k, (0, 0))[0]:
                    ceil[k] = (r.get("threads") or 0, r["ceiling_gbs"])
        why = [f"- {m}: the bandwidth-bound bridge follows the copy ceilings: GPU "
               f"{fmt(ceil[(m, 'gpu')][1])} GB/s over CPU ({ceil[(m, 'cpu')][0]} threads) "
               f"{fmt(ceil[(m, 'cpu')][1])} GB/s = {ceil[(m, 'gpu')][1] / ceil[(m, 'cpu')][1]:.1f}x, "
               "the speedup the hardware allows" for m in self.machines
               if (m, "gpu") in ceil and (m, "cpu") in ceil]
        if why:
            self.w("Why the ratio (measured):\n\n" + "\n".join(why) + "\n")
        return 1

    def pub_rate(self, t):
        body = []
        col = t["column"]
        for pr in t["rows"]:
            for m in self.machines:
                rs = [r for r in self.matching(t["match"], {}).get(m, []) if ok(r) and num(r, col)]
                if not rs:
                    continue
                r = max(rs, key=lambda r: r[col])
                body.append([pr["label"], m, fmt(pr["rate"]), fmt(r[col]),
                             f"{r[col] / pr['rate']:.1f}x", r["variant"], r.get("precision"),
                             fmt(num(r, "roofline"), 3)])
        if not body:
            return 0
        self.w(md_table(["published", "machine", "published /s", "today /s", "today over published",
                         "variant", "precision", "roofline (compute)"], body))
        self.w("Why the ratio (measured): the rows are compute-bound; their roofline column is the "
               "fraction of the FMA ceiling measured in the same run that their operation count "
               "takes, so the ratio is the newer machine's FMA rate times that fraction.\n")
        return 1

    def write(self, name, files):
        self.w(f"# {name}\n")
        self.w(f"Generated by `twinbench report` from {', '.join(os.path.basename(f) for f in files)}"
               f" ({len(self.rows)} rows, {len(self.machines)} machine"
               f"{'s' if len(self.machines) > 1 else ''}). Times are medians in ms over the "
               "repeats (bars: min to max); GB is 10^9 bytes, counted STREAM-style.\n")
        self.environment()
        self.published_tables()
        for algo in OrderedDict.fromkeys(r["algo"] for r in self.rows):
            self.family(algo)
        return "\n".join(self.out)


def main(argv):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0],
                                 epilog="See doc/report.md and man twinbench.")
    ap.add_argument("files", nargs="*", metavar="FILE", help="results files (.csv or .json)")
    ap.add_argument("--name", help="the report's name (default: the study, else the algorithm)")
    ap.add_argument("--outdir", default="reports", help="where NAME/ goes (default reports)")
    ap.add_argument("-m", "--machine", action="append", default=[],
                    help="the machine of the rows of the n-th FILE, for the n-th use (repeatable; "
                    "default: the machine column, an experiment's file name, or the host)")
    ap.add_argument("--published", help="the published figures (default: published.json beside "
                    "this program, or share/twinbench/published.json)")
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return EXIT_USAGE if e.code else 0
    if not a.files:
        raise ReportError("no results files given (usage: twinbench report [--name NAME] FILE...)")
    if len(a.machine) > len(a.files):
        raise ReportError(f"{len(a.machine)} --machine names for {len(a.files)} files")
    try:
        import matplotlib
        matplotlib.use("Agg")
        # SVG text stays text: searchable, and smaller than glyph outlines.
        matplotlib.rcParams["svg.fonttype"] = "none"
        # An empty panel (a machine without rows of a view) is no news.
        logging.getLogger("matplotlib").setLevel(logging.ERROR)
        warnings.filterwarnings("ignore", module="matplotlib")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"{PROG}: matplotlib is not installed (Debian: apt-get install python3-matplotlib)",
              file=sys.stderr)
        return EXIT_UNAVAILABLE
    rows, metas, seen = [], [], set()
    for i, path in enumerate(a.files):
        r, m = load(path)
        for x in r[:len(r) if i < len(a.machine) else 0]:
            x["machine"] = a.machine[i]
        m["rows"] = r
        metas.append(m)
        # A run's CSV and JSON hold the same rows: each is counted once.
        for x in r:
            k = tuple(str(x.get(c)) for c in ("machine", "algo", "variant", "backend", "precision",
                                              "size", "threads", "block", "grid", "ranks", "px",
                                              "py", "pz", "median_ms", "min_ms", "max_ms", "run"))
            if k not in seen:
                seen.add(k)
                rows.append(x)
    published = None
    here = os.path.dirname(os.path.abspath(__file__))
    for p in [a.published] if a.published else [os.path.join(here, "published.json")] + \
            PUBLISHED_PATHS:
        if p and (a.published or os.path.exists(p)):
            try:
                with open(p, encoding="utf-8") as f:
                    published = json.load(f)
            except (OSError, json.JSONDecodeError) as e:
                raise ReportError(f"{p}: cannot read the published figures ({e})") from None
            published["_path"] = p
            break
    studies = distinct(rows, "study")
    name = a.name or (str(studies[0]) if len(studies) == 1 else None) or \
        "-".join(str(x) for x in OrderedDict.fromkeys(r["algo"] for r in rows))[:60]
    if not re.fullmatch(r"[A-Za-z0-9._+-]+", name) or name in (".", ".."):
        raise ReportError(f"'{name}': a report name is letters, digits, '.', '_', '+' and '-'")
    try:
        os.makedirs(a.outdir, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=f".{name}.", dir=a.outdir)
    except OSError as e:
        raise ReportError(f"{a.outdir}: {e.strerror}") from None
    final = os.path.join(a.outdir, name)
    try:
        text = Report(rows, metas, plt, tmp, published).write(name, a.files)
        with open(os.path.join(tmp, "report.md"), "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o755)
        old = None
        if os.path.exists(final):
            old = tempfile.mkdtemp(prefix=f".{name}.old.", dir=a.outdir)
            os.rename(final, os.path.join(old, name))
        os.rename(tmp, final)
        if old:
            shutil.rmtree(old)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    print(f"{PROG}: wrote {os.path.join(final, 'report.md')}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except ReportError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:  # A fault of this program: one line, the detail on request.
        if os.environ.get("TWINBENCH_DEBUG"):
            raise
        print(f"{PROG}: internal error: {type(e).__name__}: {e} (TWINBENCH_DEBUG=1 shows where)",
              file=sys.stderr)
        sys.exit(1)
