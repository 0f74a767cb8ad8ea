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

"$TB" run stream --backend cpu --size 1000 --threads 1,2 -P op=triad,dot $LIMIT \
  >"$TMP/table" 2>"$TMP/err" || fail "table run: $(cat "$TMP/err")"
grep -q "^variant .*median_ms .*GB/s .*%limit .*verified" "$TMP/table" || fail "table header"
[ "$(grep -c '^omp ' "$TMP/table")" -eq 4 ] || fail "table rows: $(cat "$TMP/table")"

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
    "$TB" run $fam --backend cpu --size 64 --threads 1 --repeat 1 $LIMIT --format json \
      --output "$TMP/$fam.json" 2>"$TMP/err" || fail "$fam json run: $(cat "$TMP/err")"
    python3 "$CHECK" "$SCHEMA" "$TMP/$fam.json" || fail "$fam JSON breaks the schema"
  done
  OMP_TB_NOTE="$(printf 'x\377\376y')" "$TB" run stream --backend cpu --size 100 \
    --threads 1 $LIMIT --format json --output "$TMP/bytes.json" 2>"$TMP/err" ||
    fail "json run with odd bytes: $(cat "$TMP/err")"
  python3 "$CHECK" "$SCHEMA" "$TMP/bytes.json" || fail "JSON with odd bytes breaks the schema"
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
[ "$(tail -n +2 "$TMP/alias.csv" | wc -l)" -eq 1 ] && grep -q ',dot,' "$TMP/alias.csv" ||
  fail "--op dot did not select the dot product"

# An interrupt stops the sweep after the current configuration; what was
# measured is still written, completely, and the exit status says so.
"$TB" run stream --backend cpu --size 2^21 --threads 1 --repeat 1000 $LIMIT --format csv \
  --output "$TMP/int.csv" 2>"$TMP/int.err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 130 ] || fail "interrupted run exited $rc: $(cat "$TMP/int.err")"
grep -q "interrupted" "$TMP/int.err" || fail "no word of the interrupt: $(cat "$TMP/int.err")"
head -1 "$TMP/int.csv" | grep -q "^algo," || fail "interrupted run left no complete report"
[ "$(wc -l <"$TMP/int.csv")" -lt 6 ] || fail "the sweep did not stop at the interrupt"

ls "$TMP" | grep -q '\.tmp\.' && fail "temporary report files left"
finish
