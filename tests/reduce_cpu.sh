#!/bin/sh
# Every OpenMP reduction variant, int32, float and double, at n = 1, 31,
# 1000003 and 2^22+5 with one and three threads: every row verified (or, in
# float, unverifiable exactly where its bound is as large as an input), the
# exact int32 sums agree, the depth column follows each variant's order, and
# the float error of one running sum is far above the pairwise sum's.
. "${srcdir:-.}/tests/lib.sh"

"$TB" run reduce --backend cpu --precision int32,float,double --size 1,31,1000003,2^22+5 \
  --threads 1,3 --repeat 1 --warmup 1 --seed 5 $LIMIT --format csv --output "$TMP/cpu.csv" \
  2>"$TMP/err"
rc=$?
[ "$rc" -eq 0 ] || fail "run exited $rc: $(cat "$TMP/err")"
# 3 precisions x 4 sizes x (serial once + 4 threaded variants x 2 team sizes)
expect_rows "$TMP/cpu.csv" 108
expect_verified "$TMP/cpu.csv"
expect_sum_verdicts "$TMP/cpu.csv"
[ "$(grep -c ',unverifiable,' "$TMP/cpu.csv")" -gt 0 ] || fail "no float running sum is unverifiable"
grep ',unverifiable,' "$TMP/cpu.csv" | grep -vq ',float,' && fail "a non-float sum is unverifiable"
csv_header "$TMP/cpu.csv" | grep -q ',result,depth,launches,regs,occupancy,note$' ||
  fail "header: $(csv_header "$TMP/cpu.csv")"
csv_select "$TMP/cpu.csv" variant precision size threads error result depth >"$TMP/rows"

# int32 sums are exact: one result per size.
awk -F, '$2 == "int32" { if ($3 in s && s[$3] != $6) bad++; s[$3] = $6 } END { exit bad > 0 }' \
  "$TMP/rows" || fail "int32 sums differ between variants"
# The depth column: n for serial; a share plus the team for omp at 3 threads.
awk -F, '$1 == "serial" && $7 != $3 { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "serial depth is not n"
d=$(awk -F, '$1 == "omp" && $2 == "int32" && $3 == 1000003 && $4 == 3 { print $7 }' "$TMP/rows")
[ "$d" = 333338 ] || fail "omp depth at n=1000003, 3 threads is '$d', expected 333338"
d=$(awk -F, '$1 == "pairwise" && $2 == "float" && $3 == 4194309 && $4 == 1 { print $7 }' "$TMP/rows")
[ "$d" = 25 ] || fail "pairwise depth at n=2^22+5 is '$d', expected 25"
# Float at 2^22+5: one running sum errs by far more than pairwise summation.
s=$(awk -F, '$1 == "serial" && $2 == "float" && $3 == 4194309 { print $5 }' "$TMP/rows")
p=$(awk -F, '$1 == "pairwise" && $2 == "float" && $3 == 4194309 && $4 == 1 { print $5 }' "$TMP/rows")
awk -v s="$s" -v p="$p" 'BEGIN { exit !(s > 1e-6 && s > 100 * p) }' ||
  fail "float error: serial $s is not far above pairwise $p"

# int32 refuses sizes whose exact sum could overflow, before allocating.
expect_error 2 "is above 1073741823" run reduce --backend cpu --size 2^30 --threads 1 $LIMIT
# Another seed verifies too (float at 4099: the running sums' bounds are
# about one input, the pairwise sum's far below).
"$TB" run reduce --backend cpu --precision float --size 4099 --threads 2 --seed 987654321 \
  $LIMIT --format csv >"$TMP/seed.csv" 2>"$TMP/err" || fail "seeded run: $(cat "$TMP/err")"
expect_rows "$TMP/seed.csv" 5
expect_sum_verdicts "$TMP/seed.csv"
[ "$(csv_select "$TMP/seed.csv" variant verified | grep -c '^pairwise,pass$')" -eq 1 ] ||
  fail "seeded run: pairwise not verified"
finish
