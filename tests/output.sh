#!/bin/sh
# Reports: the table and its speedup summary, JSON that parses and carries
# the environment, atomic output files, help on every command.
. "${srcdir:-.}/tests/lib.sh"

for c in "" "run" "list" "info"; do
  "$TB" $c --help >"$TMP/help" 2>&1 || fail "'$c --help' failed"
  grep -q "usage: twinbench" "$TMP/help" || fail "'$c --help' printed no usage"
done
"$TB" --version | grep -q "^twinbench " || fail "--version"
"$TB" info >"$TMP/info" 2>&1 || fail "info failed: $(cat "$TMP/info")"
grep -q "cores: $(nproc)\|PUs: $(nproc)\|($(nproc) allowed" "$TMP/info" || fail "info does not show the PUs"
grep -q "^GPU" "$TMP/info" || fail "info does not mention the GPU"
"$TB" list | grep -q "^stream" || fail "list lacks stream"
"$TB" list stream | grep -q "gpu  gridstride\|gpu  (none in this build)" || fail "list stream"

# The table: CSV's column names, the columns that vary, the rest once above,
# within 120 characters.
"$TB" run stream --backend cpu --size 1000 --threads 1,2 -P op=triad,dot $LIMIT \
  >"$TMP/table" 2>"$TMP/err" || fail "table run: $(cat "$TMP/err")"
grep -q "^variant  threads  median_ms .* gbs .* roofline  verified .* op" "$TMP/table" ||
  fail "table header: $(cat "$TMP/table")"
[ "$(grep -c '^omp ' "$TMP/table")" -eq 4 ] || fail "table rows: $(cat "$TMP/table")"
grep -q "^# same on every row: algo=stream backend=cpu precision=double size=1000 " "$TMP/table" ||
  fail "the constant columns are not said once: $(cat "$TMP/table")"
grep -q "^# .*10^9 bytes" "$TMP/table" || fail "the table does not say what a GB is"

# The quick start's run (at a small size) and every family fit 120 columns.
"$TB" run stream --backend cpu,gpu --threads sweep --size 4096 $LIMIT >"$TMP/quick" 2>"$TMP/err" ||
  fail "quick start run: $(cat "$TMP/err")"
[ "$(wide "$TMP/quick")" -le 120 ] || fail "the quick start's table is $(wide "$TMP/quick") wide"
# (Their JSON, written by the same runs, is checked against the schema below.)
for fam in reduce blackscholes montecarlo bridge; do
  "$TB" run $fam --backend cpu --size 64 --threads 1,2 --repeat 1 $LIMIT -o "$TMP/$fam.json" \
    >"$TMP/$fam.txt" 2>"$TMP/err" || fail "$fam table: $(cat "$TMP/err")"
  [ "$(wide "$TMP/$fam.txt")" -le 120 ] || fail "the $fam table is $(wide "$TMP/$fam.txt") wide"
done
# A row that cannot be verified points to its note, which follows the table
# once, so that the table keeps its width.
"$TB" run reduce --backend cpu --precision float --size 2^16 --threads 1 --repeat 1 $LIMIT \
  >"$TMP/notes.txt" 2>"$TMP/err" || fail "unverifiable run: $(cat "$TMP/err")"
grep -q "unverifiable .*<- note 1$" "$TMP/notes.txt" && grep -q "^# note 1: the bound" "$TMP/notes.txt" ||
  fail "no numbered note: $(cat "$TMP/notes.txt")"
[ "$(wide "$TMP/notes.txt")" -le 120 ] || fail "the table with notes is $(wide "$TMP/notes.txt") wide"
# Monte Carlo moves too few bytes for bandwidth: no gbs column in the
# table, empty cells in CSV; but its roofline (compute-bound); text with
# blanks is quoted.
grep -q " gbs " "$TMP/montecarlo.txt" && fail "montecarlo shows bandwidth"
grep -q "^variant .* roofline " "$TMP/montecarlo.txt" || fail "montecarlo lacks its roofline"
grep -q "bound=compute" "$TMP/montecarlo.txt" || fail "montecarlo is not compute-bound: $(cat "$TMP/montecarlo.txt")"
"$TB" run bridge --backend cpu --size 100 --threads 1 --dim 2 --cov '2 0.5; 0.5 1' --repeat 1 \
  $LIMIT >"$TMP/cov.txt" 2>"$TMP/err" || fail "cov run: $(cat "$TMP/err")"
grep -q "cov='2 0.5; 0.5 1'" "$TMP/cov.txt" || fail "a text with blanks is not quoted: $(cat "$TMP/cov.txt")"
# --wide: every column; --columns: these, in this order; an unknown one is refused.
"$TB" run stream --backend cpu --size 1000 --threads 1 -P op=dot $LIMIT --wide >"$TMP/wide" \
  2>"$TMP/err" || fail "--wide: $(cat "$TMP/err")"
grep -q "^algo .* max_ms .* tolerance \+repeats \+bytes \+bytes_read \+bytes_written \+flops .* binding" "$TMP/wide" ||
  fail "--wide lacks columns: $(cat "$TMP/wide")"
"$TB" run stream --backend cpu --size 1000 --threads 1,2 -P op=dot $LIMIT \
  --columns threads,gbs,verified >"$TMP/cols" 2>"$TMP/err" || fail "--columns: $(cat "$TMP/err")"
grep -q "^threads \+gbs  verified$" "$TMP/cols" || fail "--columns: $(cat "$TMP/cols")"
expect_error 2 "--columns: unknown column 'GB/s' for stream" run stream --columns threads,GB/s
# --pivot takes the same names.
"$TB" run stream --backend cpu --size 1000 --threads 1,2 $LIMIT --pivot op:threads:roofline \
  >"$TMP/pv" 2>"$TMP/err" || fail "pivot on roofline: $(cat "$TMP/err")"

# Several outputs at once, the format from each extension, the table on the
# terminal; CSV and JSON carry the same columns; Markdown is a table.
"$TB" run stream --backend cpu --size 1000 --threads 1,2 -P op=triad,dot $LIMIT -o "$TMP/m.csv" \
  -o "$TMP/m.json" -o "$TMP/m.md" -o "$TMP/m.txt" >"$TMP/m.out" 2>"$TMP/err" ||
  fail "several outputs: $(cat "$TMP/err")"
for e in csv json md txt; do
  grep -q "wrote 4 results to $TMP/m.$e" "$TMP/err" || fail "no word of m.$e: $(cat "$TMP/err")"
done
[ "$(csv_rows "$TMP/m.csv" | wc -l)" -eq 4 ] || fail "m.csv: $(cat "$TMP/m.csv")"
head -1 "$TMP/m.csv" | grep -q "^# twinbench .* on .*: twinbench run stream" ||
  fail "the CSV has no context: $(head -3 "$TMP/m.csv")"
grep -q "^# cpu: .* seed=1 repeats=10 warmups=2 verify=yes" "$TMP/m.csv" ||
  fail "the CSV context lacks the run: $(head -3 "$TMP/m.csv")"
grep -q "^| variant | threads | " "$TMP/m.md" && grep -q "^| --- | ---: |" "$TMP/m.md" ||
  fail "m.md is not a Markdown table: $(cat "$TMP/m.md")"
grep -q "^variant  threads" "$TMP/m.out" || fail "the table is not on the terminal: $(cat "$TMP/m.out")"
cmp -s "$TMP/m.out" "$TMP/m.txt" || fail "the .txt output is not the table"
if command -v python3 >/dev/null 2>&1; then
  python3 - "$TMP/m.csv" "$TMP/m.json" <<'PY' || fail "CSV and JSON columns differ: see above"
import csv, json, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
doc = json.load(open(sys.argv[2]))
for c, j in zip(rows, doc["results"]):
    flat = {k: v for k, v in j.items() if k not in ("params", "columns", "samples_ms")}
    # JSON alone has the raw samples: one per repeat, their median the row's.
    s = sorted(j["samples_ms"]); n = len(s)
    assert n == j["repeats"] and abs((s[n // 2] + s[(n - 1) // 2]) / 2 - j["median_ms"]) < 1e-12, j
    flat.update(j["params"]); flat.update(j["columns"])
    assert set(c) == set(flat), (set(c) ^ set(flat))
    for k, v in c.items():
        x = flat[k]
        x = " ".join(map(str, x)) if isinstance(x, list) else x
        assert v == ("" if x is None else str(x)) or float(v) == float(x), (k, v, x)
PY
fi
# -f gives the format of an output whose extension says none; two outputs
# to one file are refused; --quiet leaves the terminal alone.
"$TB" run stream --backend cpu --size 100 --threads 1 -P op=copy $LIMIT -f json -o "$TMP/r.out" \
  -q >"$TMP/q.out" 2>"$TMP/q.err" || fail "-f json -o r.out: $(cat "$TMP/q.err")"
head -c 1 "$TMP/r.out" | grep -q '{' || fail "-f json -o r.out did not write JSON"
[ -s "$TMP/q.out" ] || [ -s "$TMP/q.err" ] && fail "--quiet printed: $(cat "$TMP/q.out" "$TMP/q.err")"
expect_error 2 "--output '$TMP/x.csv' is given twice" run stream -o "$TMP/x.csv" -o "$TMP/x.csv"
expect_error 2 "at most 8 --output files" run stream -o 1.csv -o 2.csv -o 3.csv -o 4.csv \
  -o 5.csv -o 6.csv -o 7.csv -o 8.csv -o 9.csv

# Small defects: help of an unknown command, list's integer ranges.
expect_error 2 "help: unknown command 'nosuch'" help nosuch
"$TB" list stream | grep -q "e+0" && fail "list prints an integer range in exponent form"

"$TB" run stream --backend cpu --size 1000 --threads 1 -P op=dot $LIMIT --format json \
  --output "$TMP/r.json" 2>"$TMP/err" || fail "json run: $(cat "$TMP/err")"
grep -q "wrote 1 result to $TMP/r.json" "$TMP/err" || fail "no note of the report file"
if command -v python3 >/dev/null 2>&1; then
  python3 - "$TMP/r.json" <<'PY' || fail "JSON report: see above"
import json, sys
d = json.load(open(sys.argv[1]))
env = d["environment"]
for k in ("cpu_model", "cores", "pus", "git_revision", "cc", "cflags", "date"):
    assert k in env, k
r = d["results"][0]
assert r["verified"] == "pass" and r["binding_ok"] == "yes", r
assert isinstance(r["binding"], list) and len(r["binding"]) == 1, r
assert r["params"]["op"] == "dot" and r["columns"]["result"] > 0, r
assert d["bytes_counting"].startswith("STREAM-style")
PY
  # Every family's JSON follows doc/report.schema.json, including strings
  # that came from non-UTF-8 bytes on the command line.
  SCHEMA="${srcdir:-.}/doc/report.schema.json"
  CHECK="${srcdir:-.}/tests/check_json.py"
  python3 "$CHECK" "$SCHEMA" "$TMP/r.json" || fail "stream JSON breaks the schema"
  for fam in reduce blackscholes montecarlo bridge; do
    python3 "$CHECK" "$SCHEMA" "$TMP/$fam.json" || fail "$fam JSON breaks the schema"
  done
  OMP_TB_NOTE="$(printf 'x\377\376y')" "$TB" run stream --backend cpu --size 100 \
    --threads 1 $LIMIT --format json --output "$TMP/bytes.json" 2>"$TMP/err" ||
    fail "json run with odd bytes: $(cat "$TMP/err")"
  python3 "$CHECK" "$SCHEMA" "$TMP/bytes.json" || fail "JSON with odd bytes breaks the schema"
  # A file name that is not UTF-8 reaches the JSON (its command) as valid text.
  odd="$TMP/$(printf 'r\351\377')"
  "$TB" run stream --backend cpu --size 100 --threads 1 $LIMIT -o "$odd.json" 2>"$TMP/err" ||
    fail "json run to a non-UTF-8 name: $(cat "$TMP/err")"
  python3 "$CHECK" "$SCHEMA" "$odd.json" || fail "JSON naming a non-UTF-8 file breaks the schema"
  grep -q 'r\\ufffd\\ufffd.json' "$odd.json" || fail "the odd bytes are not U+FFFD in the JSON"
fi
# --pivot: rows by op, a column per thread count, and bad specifications refused.
"$TB" run stream --backend cpu --size 1000 --threads 1,2 $LIMIT --pivot op:threads:gbs \
  >"$TMP/pivot" 2>"$TMP/err" || fail "pivot run: $(cat "$TMP/err")"
grep -q "^# gbs by op (rows) and threads (columns)" "$TMP/pivot" || fail "no pivot view"
grep -q "^triad " "$TMP/pivot" || fail "pivot lacks the triad row"
expect_error 2 "unknown column 'nosuch'" run stream --pivot nosuch:threads
expect_error 2 "takes ROWS:COL" run stream --pivot op

# --NAME is --param NAME=...
"$TB" run stream --backend cpu --size 100 --threads 1 $LIMIT --op dot --format csv \
  >"$TMP/alias.csv" 2>"$TMP/err" || fail "--op run: $(cat "$TMP/err")"
[ "$(csv_rows "$TMP/alias.csv" | wc -l)" -eq 1 ] && grep -q ',dot,' "$TMP/alias.csv" ||
  fail "--op dot did not select the dot product"

# An interrupt stops the sweep in the row that runs, between its runs (the
# row is not recorded); the rows measured before it are still written,
# completely, and the exit status says so. The small size's five rows take
# milliseconds, each of the large size's seconds.
"$TB" run stream --backend cpu --size 2^10,2^21 --threads 1 --repeat 2000 $LIMIT --format csv \
  --output "$TMP/int.csv" 2>"$TMP/int.err" &
pid=$!
sleep 2
stop_within INT $pid 3
[ "$rc" -eq 130 ] || fail "interrupted run exited $rc: $(cat "$TMP/int.err")"
grep -q "interrupted" "$TMP/int.err" || fail "no word of the interrupt: $(cat "$TMP/int.err")"
csv_header "$TMP/int.csv" | grep -q "^algo," || fail "interrupted run left no complete report"
n=$(csv_rows "$TMP/int.csv" | wc -l)
[ "$n" -ge 1 ] && [ "$n" -lt 10 ] || fail "$n rows: the sweep did not stop at the interrupt"

# Within one run too: a solve of many iterations (SOR's Jacobi at 128^3 to
# 1e-9 runs for minutes) stops at the next iteration; the small size's row,
# solved before the signal, is written.
"$TB" run sor --backend cpu -p double --size 8,128 -v jacobi -P tol=1e-9 -P maxiter=1000000 \
  --threads 1 --repeat 1 --warmup 0 $LIMIT --format csv --output "$TMP/sorint.csv" \
  2>"$TMP/sorint.err" &
pid=$!
sleep 3
stop_within TERM $pid 3
[ "$rc" -eq 130 ] || fail "interrupted solve exited $rc: $(cat "$TMP/sorint.err")"
[ "$(csv_rows "$TMP/sorint.csv" | wc -l)" -eq 1 ] || fail "interrupted solve: not the one row before it"

ls "$TMP" | grep -q '\.tmp\.' && fail "temporary report files left"
finish
