#!/bin/sh
# twinbench report: a report from small results files made here by the CPU
# program (CSV, JSON, an experiment's files of two machines), its figures
# open as images and as XML, report.md names every figure and has the
# tables; bad input gives one line, a non-zero exit and no report. Skips
# where python3 or matplotlib is missing.
. "${srcdir:-.}/tests/lib.sh"
python3 -c 'import matplotlib' 2>/dev/null || { echo "python3 with matplotlib is missing"; exit 77; }

SMALL="--backend cpu -t 1,2 --repeat 3 --warmup 1 $LIMIT --quiet"
"$TB" run stream $SMALL -n 2^12,2^13,2^14 -P op=copy,triad -o "$TMP/s.csv" -o "$TMP/s.json" ||
  fail "stream run"
"$TB" run reduce $SMALL -n 2^14 -v serial,omp -o "$TMP/r.csv" || fail "reduce run"
"$TB" run bridge $SMALL -n 1024 -P steps=16 -o "$TMP/b.json" || fail "bridge run"

# check_report DIR: report.md names every figure, each figure is there as
# PNG (an image matplotlib reads, at least 100 x 100 pixels) and as SVG (XML
# whose text has units on its axes), and nothing else lies beside it.
check_report() {
  [ -s "$1/report.md" ] || { fail "no $1/report.md"; return; }
  python3 - "$1" <<'PY' || fail "figures of $1"
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
  $(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$TMP/b.json")))
grep -q "($rows rows, 1 machine)" "$md" || fail "report.md does not count $rows rows: $(sed -n 3p "$md")"
for h in "## Machines and their measured ceilings" "## stream" "### stream: thread scaling" \
  "### stream: time by size" "### stream: roofline" "## reduce" "### reduce: roofline" "## bridge"; do
  grep -qx "$h" "$md" || fail "report.md has no '$h'"
done
grep -q "^| machine | backend | configuration | read GB/s | copy GB/s | triad GB/s" "$md" ||
  fail "report.md has no ceilings table"
grep -q "^| machine | variant | precision | problem | size | 1 thr | 2 thr | GPU ms | GPU speedup |" "$md" ||
  fail "report.md has no threads table"
grep -q "^| vm\?[^|]* | omp | double | op=triad | 2^14 | [0-9.]* | [0-9.]* |" "$md" ||
  grep -q "| omp | double | op=triad | 2^14 | [0-9.]* | [0-9.]* |" "$md" ||
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
