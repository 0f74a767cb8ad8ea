#!/bin/sh
# twinbench report: a report from small results files made here by the CPU
# program (CSV, JSON, an experiment's files of two machines), its figures
# open as images and as XML, report.md names every figure and has the
# tables; bad input gives one line, a non-zero exit and no report. Skips
# where python3 or matplotlib is missing.
. "${srcdir:-.}/tests/lib.sh"
# The python3 with matplotlib that configure found (make check passes it).
PY=${PYTHON:-python3}
"$PY" -c 'import matplotlib' 2>/dev/null || { echo "python3 with matplotlib is missing"; exit 77; }

SMALL="--backend cpu -t 1,2 --repeat 3 --warmup 1 $LIMIT --quiet"
"$TB" run stream $SMALL -n 2^12,2^13,2^14 -P op=copy,triad -o "$TMP/s.csv" -o "$TMP/s.json" ||
  fail "stream run"
"$TB" run reduce $SMALL -n 2^14 -v serial,omp -o "$TMP/r.csv" || fail "reduce run"
"$TB" run bridge $SMALL -n 1024 -P steps=16 -o "$TMP/b.json" || fail "bridge run"
# The published Black-Scholes run's size: its one-core row has a published twin.
"$TB" run blackscholes --backend cpu -t 1 --repeat 2 --warmup 1 $LIMIT --quiet -n nvidia2008 \
  -o "$TMP/bs.csv" || fail "blackscholes run"

# check_report DIR: report.md names every figure, each figure is there as
# PNG (an image matplotlib reads, at least 100 x 100 pixels) and as SVG (XML
# whose text has units on its axes), and nothing else lies beside it.
check_report() {
  [ -s "$1/report.md" ] || { fail "no $1/report.md"; return; }
  "$PY" - "$1" <<'PY' || fail "figures of $1"
import os, re, sys
import xml.etree.ElementTree as ET
import matplotlib.image as mpimg
d = sys.argv[1]
md = open(os.path.join(d, "report.md")).read()
named = set(re.findall(r"!\[[^]]*\]\(([^)]+)\.png\) \(\[SVG\]\(\1\.svg\)\)", md))
files = set(os.listdir(d)) - {"report.md"}
stems = {os.path.splitext(f)[0] for f in files}
bad = []
if not named:
    bad.append("no figure named in report.md")
if files != {s + e for s in stems for e in (".png", ".svg")}:
    bad.append(f"files without a twin: {sorted(files)}")
if stems != named:
    bad.append(f"figures {sorted(stems ^ named)} not both named and present")
for s in sorted(stems):
    img = mpimg.imread(os.path.join(d, s + ".png"))
    if img.ndim != 3 or img.shape[0] < 100 or img.shape[1] < 100:
        bad.append(f"{s}.png is {img.shape}")
    root = ET.parse(os.path.join(d, s + ".svg")).getroot()
    text = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    if not re.search(r"ms|GB/s|GFLOP/s|\(x\)", text):
        bad.append(f"{s}.svg: no unit on any axis")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}

# One machine: CSV and JSON of the same run (counted once), CSV of another
# family, JSON of a third.
out=$TMP/rep
"$TB" report --outdir "$out" --name one "$TMP/s.csv" "$TMP/s.json" "$TMP/r.csv" "$TMP/b.json" \
  >"$TMP/out" 2>"$TMP/err" || fail "report: $(cat "$TMP/err")"
grep -q "wrote $out/one/report.md" "$TMP/out" || fail "report said '$(cat "$TMP/out")'"
check_report "$out/one"
md=$out/one/report.md
rows=$(($(csv_rows "$TMP/s.csv" | wc -l) + $(csv_rows "$TMP/r.csv" | wc -l) +
  $("$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$TMP/b.json")))
grep -q "($rows rows, 1 machine)" "$md" || fail "report.md does not count $rows rows: $(sed -n 3p "$md")"
for h in "## Machines and their measured ceilings" "## stream" "### stream: thread scaling" \
  "### stream: time by size" "### stream: roofline" "## reduce" "### reduce: roofline" "## bridge"; do
  grep -qx "$h" "$md" || fail "report.md has no '$h'"
done
grep -q "^| machine | backend | configuration | read GB/s | copy GB/s | triad GB/s" "$md" ||
  fail "report.md has no ceilings table"
grep -q "^| machine | variant | precision | problem | size | 1 thr | 2 thr | GPU ms | GPU speedup |" "$md" ||
  fail "report.md has no threads table"
grep -q "| omp | double | op=triad | 2^14 | [0-9.e+-]* | [0-9.e+-]* |" "$md" ||
  fail "the threads table has no triad row at 2^14"
ls -A "$out" | grep -v '^one$' | grep -q . && fail "left beside the report: $(ls -A "$out")"

# Two machines, as an experiment writes them: results/STUDY/MACHINE.csv with
# the study and run columns; the second machine's copy with other figures.
mkdir -p "$TMP/results/tiny"
for m in h100 h200; do
  awk '/^#/ { print; next } !h { print "study,run," $0; h = 1; next } { print "tiny,stream-line," $0 }' \
    "$TMP/s.csv" >"$TMP/results/tiny/$m.csv"
done
tb=$(cd "$(dirname "$TB")" && pwd)/$(basename "$TB")
(cd "$TMP" && "$tb" report results/tiny/h100.csv results/tiny/h200.csv) >"$TMP/out" 2>"$TMP/err" ||
  fail "two machines: $(cat "$TMP/err")"
md=$TMP/reports/tiny/report.md
check_report "$TMP/reports/tiny"
grep -q "rows, 2 machines)" "$md" || fail "two machines: $(sed -n 3p "$md")"
for m in h100 h200; do
  grep -q "^| $m | h100.csv\|^| $m | $m.csv" "$md" || fail "no machine row for $m"
  grep -q "^| $m | omp | double | op=copy | 2^14 |" "$md" || fail "no threads row for $m"
done

# Runs of one machine that measured their ceilings apart: the table gives the
# least to the best (here one run's rows at 2^12 with a 2:1 ceiling 20% lower).
"$PY" - "$TMP/s.csv" "$TMP/low.csv" <<'PY' || fail "low ceilings file"
import csv, sys
src = open(sys.argv[1]).read().splitlines(True)
head = [l for l in src if l.startswith("#")]
rows = list(csv.DictReader(l for l in src if not l.startswith("#")))
with open(sys.argv[2], "w") as f:
    f.writelines(head)
    w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    for r in rows:
        if r["size"] == "4096" and r["mix"] == "2:1":
            r["ceiling_gbs"] = repr(float(r["ceiling_gbs"]) * 0.8)
        w.writerow(r)
PY
"$TB" report --outdir "$TMP/low" "$TMP/low.csv" >"$TMP/out" 2>"$TMP/err" || fail "low: $(cat "$TMP/err")"
grep -q "^| [^|]* | cpu | threads=2 placement=cores | [^|]* | [^|]* | [0-9.e+]* to [0-9.e+]* |" \
  "$TMP/low/stream/report.md" || fail "ceilings apart: no range in $(grep -A4 '^| machine | backend' "$TMP/low/stream/report.md")"

# Two plain runs of hosts of the same name, told apart with -m.
"$TB" report --outdir "$TMP/m" -m H100 -m H200 "$TMP/s.csv" "$TMP/s.csv" >"$TMP/out" 2>"$TMP/err" ||
  fail "-m: $(cat "$TMP/err")"
grep -q "rows, 2 machines)" "$TMP/m/stream/report.md" || fail "-m: not two machines"
grep -q "^| H200 | s.csv |" "$TMP/m/stream/report.md" || fail "-m: no machine H200"

# The published table: today's one-core row beside the 2008 figure.
(cd "$TMP" && "$tb" report --name bs bs.csv) >"$TMP/out" 2>"$TMP/err" || fail "bs: $(cat "$TMP/err")"
md=$TMP/reports/bs/report.md
grep -qx "### Black-Scholes, 1,000,000 options, float" "$md" || fail "no published Black-Scholes table"
grep -q "^| CPU, one core | 454.7 |  | [0-9.e+-]* (omp) | [0-9.]*x |" "$md" ||
  fail "the published table has no one-core row beside today's"
grep -q "^- CPU, one core, .*roofline" "$md" ||
  fail "no measured reason beside the published one-core figure"
# Rows of several ranks are not a published figure's twin: the same row again
# as a 2-rank run, ten times faster, leaves the table at the one-rank row's
# time and has its ceilings apart (ranks=2).
"$PY" - "$TMP/bs.csv" "$TMP/bs2.csv" <<'PY' || fail "making the 2-rank file"
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
rows = list(csv.DictReader(l for l in lines if not l.startswith("#")))
with open(sys.argv[2], "w", newline="") as fh:
    fh.write("\n".join(l for l in lines if l.startswith("#")) + "\n")
    w = csv.DictWriter(fh, list(rows[0]) + ["ranks"])
    w.writeheader()
    for r in rows:
        w.writerow(dict(r, ranks=1))
        w.writerow(dict(r, ranks=2, median_ms=float(r["median_ms"]) / 10))
PY
one=$(grep "^| CPU, one core | 454.7 |" "$md" | cut -d'|' -f5)
(cd "$TMP" && "$tb" report --name bs2 bs2.csv) >"$TMP/out" 2>"$TMP/err" || fail "bs2: $(cat "$TMP/err")"
md2=$TMP/reports/bs2/report.md
[ -n "$one" ] && [ "$(grep "^| CPU, one core | 454.7 |" "$md2" | cut -d'|' -f5)" = "$one" ] ||
  fail "a 2-rank row beside the published one-core figure: $(grep "^| CPU, one core" "$md2")"
grep -q "^| [^|]* | cpu | threads=1 [^|]*ranks=2 |" "$md2" ||
  fail "the 2-rank rows' ceilings not apart: $(grep -A4 '^| machine | backend' "$md2")"

# The GPU views, on a machine with no GPU: a second backend made here from
# the CPU rows (the two-thread rows as 'gpu' rows at two block sizes, faster,
# with transfers), so that the speedups, the heat map, the break-even and a
# roofline per backend are drawn. Their figures mean nothing; their presence
# and shape are what is checked.
"$PY" - "$TMP/s.csv" "$TMP/g.csv" <<'PY' || fail "making the two-backend file"
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
rows = list(csv.DictReader(l for l in lines if not l.startswith("#")))
with open(sys.argv[2], "w", newline="") as f:
    f.write("\n".join(l for l in lines if l.startswith("#")) + "\n")
    w = csv.DictWriter(f, list(rows[0]) + ["block"], lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r)
        if r["threads"] != "2":
            continue
        for block, speed in ((128, 4.0), (256, 5.0)):
            g = dict(r, backend="gpu", variant="vec", threads="", placement="", binding="",
                     binding_ok="", block=block)
            for k in ("median_ms", "min_ms", "max_ms", "mean_ms"):
                g[k] = float(r[k]) / speed
            g["h2d_pinned_ms"] = g["d2h_pinned_ms"] = float(r["bytes"]) / 2e7
            g["e2e_ms"] = g["median_ms"] + 2 * g["h2d_pinned_ms"]
            g["e2e_pageable_ms"] = g["e2e_ms"] * 2
            w.writerow(g)
PY
(cd "$TMP" && "$tb" report --name gpu g.csv) >"$TMP/out" 2>"$TMP/err" || fail "gpu: $(cat "$TMP/err")"
check_report "$TMP/reports/gpu"
md=$TMP/reports/gpu/report.md
for h in "### stream: CPU against GPU" "### stream: GPU threads a block" "### stream: time by size"; do
  grep -qx "$h" "$md" || fail "two backends: no '$h'"
done
grep -q "| double | op=triad | 2^14 | omp ([12] thr) | [0-9.e+-]* | vec | [0-9.e+-]* | [0-9.]*x | [0-9.]*x | [0-9.]*x | [0-9.]*x |$" "$md" ||
  fail "two backends: no triad speedup at 2^14"
grep -q "^| variant | 128 | 256 |" "$md" || fail "two backends: no block table"
grep -q "^Break-even" "$md" || fail "two backends: no break-even statement"
for f in stream-speedup stream-blocks stream-roofline stream-size; do
  [ -s "$TMP/reports/gpu/$f.png" ] || fail "two backends: no $f.png"
done

# The MPI views, without MPI: rows of MPI runs made here from a plain SOR
# run and a reduce run (the figures set so that the derived columns are
# exact): strong scaling of 16^3 over 1, 2, 4 ranks (grids 1x1x1, 1x1x2,
# 1x2x2) at 0.8, 0.5, 0.25 ms an iteration (speedup 1.6x and 3.2x,
# efficiency 0.80), comm_ms a tenth of the mean; weak scaling with a box of
# 8^3 a rank (8x8x8, 8x8x16, 8x16x16) at 0.1, 0.125, 0.2 ms an iteration
# (efficiency 0.80 and 0.50); the reduction's all-reduce of one double at
# 0.004 ms a run on 4 ranks: algbw 8 B / 4 us = 0.002 GB/s, busbw x 2 (3) /
# 4 = 0.003 GB/s.
"$TB" run sor --backend cpu -t 1 --repeat 2 --warmup 0 $LIMIT --quiet -v natural -p double -n 16 \
  -P tol=1e-2 -o "$TMP/sor.csv" || fail "sor run"
"$TB" run reduce --backend cpu -t 1 --repeat 2 --warmup 0 $LIMIT --quiet -v pairwise -p double \
  -n 2^14 -o "$TMP/red.csv" || fail "reduce run"
"$PY" - "$TMP/sor.csv" "$TMP/red.csv" "$TMP/mpi.csv" <<'PY' || fail "making the MPI file"
import csv, sys
def read(path):
    lines = open(path).read().splitlines()
    return [l for l in lines if l.startswith("#")], \
        list(csv.DictReader(l for l in lines if not l.startswith("#")))
with open(sys.argv[3], "w", newline="") as f:
    for path, make in ((sys.argv[1], "sor"), (sys.argv[2], "reduce")):
        head, rows = read(path)
        f.write("\n".join(head) + "\n")
        w = csv.DictWriter(f, list(rows[0]) + ["ranks", "nodes", "comm_ms"], lineterminator="\n")
        w.writeheader()
        r = rows[0]
        if make == "reduce":
            for ranks in (2, 4):
                w.writerow(dict(r, variant="mpi", ranks=ranks, nodes=1, comm_ms=0.004))
            continue
        it = float(r["iterations"])
        per_point = float(r["bytes"]) / (it * 16 ** 3)
        for kind, grids, ms in (("strong", ((1, 1, 1), (1, 1, 2), (1, 2, 2)), (0.8, 0.5, 0.25)),
                                ("weak", ((1, 1, 1), (1, 1, 2), (1, 2, 2)), (0.1, 0.125, 0.2))):
            for g, t in zip(grids, ms):
                n = (16, 16, 16) if kind == "strong" else tuple(8 * x for x in g)
                run = t * it
                w.writerow(dict(r, variant="mpi", ranks=g[0] * g[1] * g[2], nodes=1,
                                comm_ms=run / 10, median_ms=run, min_ms=run, max_ms=run,
                                mean_ms=run, ms_sweep=t, px=g[0], py=g[1], pz=g[2],
                                nx=n[0], ny=n[1], nz=n[2], pgrid="x".join(map(str, g)),
                                bytes=per_point * it * n[0] * n[1] * n[2]))
PY
(cd "$TMP" && "$tb" report --name mpi mpi.csv) >"$TMP/out" 2>"$TMP/err" || fail "mpi: $(cat "$TMP/err")"
check_report "$TMP/reports/mpi"
md=$TMP/reports/mpi/report.md
for h in "### sor: strong scaling over MPI ranks" "### sor: weak scaling over MPI ranks" \
  "### reduce: all-reduce bus bandwidth"; do
  grep -qx "$h" "$md" || fail "mpi: no '$h'"
done
grep -q "^| machine | variant | precision | problem | ranks | grid | threads | ms/iteration | speedup | efficiency | comm ms | comm share | GB/s |" "$md" ||
  fail "mpi: no scaling table"
grep -q "| mpi | double | 16x16x16 | 2 | 1x1x2 | 1 | 0.5000 | 1.60x | 0.80 | [0-9.]* | 10.0% |" "$md" ||
  fail "mpi: no strong row at 2 ranks"
grep -q "| mpi | double | 16x16x16 | 4 | 1x2x2 | 1 | 0.2500 | 3.20x | 0.80 |" "$md" ||
  fail "mpi: no strong row at 4 ranks"
grep -q "| mpi | double | box 8x8x8 | 4 | 1x2x2 | 1 | 0.2000 | 2.00x | 0.50 |" "$md" ||
  fail "mpi: no weak row at 4 ranks"
grep -q "| mpi | double | 4 | 8 | 0.004000 | 0.002000 | 0.003000 |$" "$md" ||
  fail "mpi: no bus bandwidth at 4 ranks"
for f in sor-strong sor-weak; do
  [ -s "$TMP/reports/mpi/$f.png" ] || fail "mpi: no $f.png"
done

# Bad input: one line, a non-zero exit, no report and nothing half-written;
# an earlier report of the same name survives.
echo "a,b" >"$TMP/other.csv"; echo "1,2" >>"$TMP/other.csv"
grep '^#\|^algo,' "$TMP/s.csv" >"$TMP/empty.csv"
: >"$TMP/zero.csv"
echo '{"results": 3}' >"$TMP/bad.json"
before=$(cksum <"$out/one/report.md")
for bad in "$TMP/missing.csv:No such file" "$TMP/other.csv:not a twinbench results file" \
  "$TMP/empty.csv:no result rows" "$TMP/zero.csv:empty file" "$TMP/bad.json:not a twinbench"; do
  f=${bad%%:*} pat=${bad#*:}
  "$TB" report --outdir "$out" --name one "$TMP/s.csv" "$f" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  [ "$rc" -ne 0 ] || fail "report of $f exited 0"
  [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "report of $f printed: $(cat "$TMP/err")"
  grep -q "$pat" "$TMP/err" || fail "report of $f said '$(cat "$TMP/err")', expected /$pat/"
  [ "$(ls -A "$out")" = one ] || fail "report of $f left: $(ls -A "$out")"
  [ "$(cksum <"$out/one/report.md")" = "$before" ] || fail "report of $f changed the earlier report"
done
expect_error 2 "no results files" report --outdir "$out"
expect_error 2 "report name" report --outdir "$out" --name ../up "$TMP/s.csv"
finish
