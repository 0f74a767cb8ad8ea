#!/bin/sh
# Every bad input gets one clear line on stderr and a non-zero exit, and no
# report file is left behind.
. "${srcdir:-.}/tests/lib.sh"

expect_error 2 "unknown command 'frobnicate'" frobnicate
expect_error 2 "run needs an algorithm" run
expect_error 2 "unknown algorithm 'nosuch'" run nosuch
expect_error 2 "unknown algorithm 'nosuch'" list nosuch
expect_error 2 "unknown variant 'nosuch' for stream" run stream --variant nosuch --backend cpu
expect_error 2 "unknown backend 'tpu'" run stream --backend tpu
expect_error 2 "unknown parameter 'color' for stream (known: op)" run stream --param color=red
expect_error 2 "\-\-op: unknown value 'fma'" run stream --param op=fma
expect_error 2 "takes NAME=LIST" run stream --param op
expect_error 2 "unknown precision 'half'" run stream --precision half
expect_error 2 "stream does not support precision int32" run stream --precision int32
expect_error 2 "size '0' must be at least 1" run stream --size 0
expect_error 2 "size '-5' is negative" run stream --size -5
expect_error 2 "size 'lots' is not a number" run stream --size lots
expect_error 2 "size '2^70' overflows 64 bits" run stream --size 2^70
expect_error 2 "size '99999999999999999999' overflows" run stream --size 99999999999999999999
expect_error 2 "empty item in list" run stream --size 1,,2
expect_error 2 "needs .* of host memory but .* is available" run stream --backend cpu --size 2^40
expect_error 2 "--threads '0' must be at least 1" run stream --threads 0
expect_error 2 "--block '0' must be at least 1" run stream --block 0
expect_error 2 "--repeat '0' must be at least 1" run stream --repeat 0
expect_error 2 "\-\-placement: unknown value 'random'" run stream --placement random
expect_error 2 "unknown format 'xml'" run stream --format xml
expect_error 2 "stream does not read input files" run stream --input /dev/null
expect_error 2 "stream does not write dumps" run stream --dump "$TMP/d.csv"
expect_error 2 "unknown option" run stream --frobnicate
expect_error 2 "unexpected argument 'extra'" run stream extra
expect_error 2 "takes no arguments" info extra

# The messages of the reliability classes: one line each, naming the option,
# quoting only printable text.
expect_error 2 "option '--no-verify=x' takes no value" run stream --no-verify=x
expect_error 2 "option '--size' needs a value" run stream --size
expect_error 2 "option '--p' is ambiguous (--precision, --param" run stream --p 1
expect_error 2 "unknown option '-x'" list -x
expect_error 2 "unknown option '--frob'" info --frob
expect_error 2 "\-\-seed '99999999999999999999' overflows 64 bits" run stream --seed 99999999999999999999
expect_error 2 "\-\-repeat '99999999999999999999' overflows 64 bits" run stream --repeat 99999999999999999999
expect_error 2 "unknown algorithm 'a?b'" run "$(printf 'a\033b')"
expect_error 2 "unknown algorithm 'a?b'" run "$(printf 'a\nb')"
# Counts near the 64-bit limit are refused with the problem named, never
# computed past it (each family's sizes).
for a in stream reduce blackscholes montecarlo bridge; do
  expect_error 2 "does not fit in memory\|needs .* of host memory\|is above" run $a --backend cpu \
    --size 9223372036854775807
done
expect_error 2 "montecarlo .* does not fit in memory: its element or byte counts overflow" \
  run montecarlo --backend cpu --size 2^50 --paths 2^20
# Thread counts beyond 64 a PU (or the OpenMP runtime's limit) are refused.
expect_error 2 "\-\-threads 100000 is more than 64 threads for each of the" run stream --threads 100000
expect_error 2 "\-\-threads 1073741824 is more than" run stream --threads 1G

# An unwritable output path is refused before any work, and leaves nothing.
expect_error 2 "cannot write '$TMP/missing/out.csv'" run stream --backend cpu --size 1 \
  --output "$TMP/missing/out.csv"
[ -e "$TMP/missing" ] && fail "an output folder was created"
mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
if [ "$(id -u)" -ne 0 ]; then
  expect_error 2 "cannot write" run stream --backend cpu --size 1 --output "$TMP/ro/out.csv"
fi
[ -z "$(ls "$TMP/ro")" ] || fail "files left in a read-only folder: $(ls "$TMP/ro")"

# The GPU: asked for alone without one is an error (69); with the CPU it is
# skipped with a note and the CPU part runs.
if ! gpu_present; then
  expect_error 69 "the gpu backend is not available" run stream --backend gpu --size 1
  "$TB" run stream --backend cpu,gpu --size 1000 --threads 1 $LIMIT --format csv \
    >"$TMP/mixed.csv" 2>"$TMP/mixed.err"
  rc=$?
  [ "$rc" -eq 0 ] || fail "cpu,gpu without a GPU exited $rc: $(cat "$TMP/mixed.err")"
  grep -q "gpu backend skipped" "$TMP/mixed.err" || fail "no note that the GPU was skipped"
  [ "$(grep -c ',cpu,' "$TMP/mixed.csv")" -eq 5 ] || fail "the CPU part did not run"
  # A variant that runs only on a GPU that is not there: 69, not 1.
  if "$TB" list stream | grep -q "gpu  vec16"; then
    expect_error 69 "variant 'vec16' runs on the gpu backend, which is not available" \
      run stream --variant vec16 --size 1000
  fi
fi

# list and info whose output cannot be written: exit 1, said (a private full
# device, as root).
if [ "$(id -u)" -eq 0 ] && mknod "$TMP/full" c 1 7 2>/dev/null; then
  for c in list info; do
    "$TB" $c >"$TMP/full" 2>"$TMP/err"
    rc=$?
    [ "$rc" -eq 1 ] && grep -q "writing the output failed: No space left" "$TMP/err" ||
      fail "$c to a full device exited $rc: $(cat "$TMP/err")"
  done
fi

# A text value with a carriage return is quoted in CSV.
printf '2\n1\n' >"$TMP/$(printf 'o\rr')"
"$TB" run bridge --backend cpu --size 3 --steps 2 --threads 1 --repeat 1 $LIMIT \
  --order "$TMP/$(printf 'o\rr')" --format csv >"$TMP/cr.csv" 2>"$TMP/err" ||
  fail "an order file with a CR in its name: $(cat "$TMP/err")"
grep -q "$(printf ',"[^"]*o\rr"')" "$TMP/cr.csv" || fail "a CR in a CSV field is not quoted"

# More threads than PUs: said, and done (oversubscribed, recorded per row).
npus=$(nproc)
"$TB" run stream --backend cpu --size 1000 --threads $((npus + 1)) -P op=triad $LIMIT \
  --format csv >"$TMP/over.csv" 2>"$TMP/over.err"
rc=$?
[ "$rc" -eq 0 ] || fail "oversubscribed run exited $rc: $(cat "$TMP/over.err")"
grep -q "threads on $npus PUs" "$TMP/over.err" || fail "no note on oversubscription"
grep -q ",oversubscribed," "$TMP/over.csv" || fail "rows do not say oversubscribed"

# A list word repeated expands every time (it once overran the list).
"$TB" run stream --backend cpu --size 1000 --threads sweep,sweep --block sweep,sweep,sweep \
  -P op=copy $LIMIT --repeat 1 --warmup 0 --format csv >"$TMP/sw.csv" 2>"$TMP/sw.err" ||
  fail "repeated sweep words: $(cat "$TMP/sw.err")"

# No partial files anywhere in the temporary folder.
ls "$TMP" | grep -q '\.tmp\.' && fail "temporary report files left: $(ls "$TMP")"
finish
