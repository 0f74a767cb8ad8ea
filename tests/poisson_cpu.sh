#!/bin/sh
# The FFTW twins of the Poisson family (skipped in a build without FFTW):
# every variant verified against the long-double reference in float and
# double, 2-D and 3-D, power-of-two and other even sizes; a single mode
# solved to rounding (double: err_linf and the relative error below 1e-12);
# the textbook's Gaussian error falling as N doubles down to the floor of
# its non-periodic tail, and sigma = 0.05 at N = 64 exact to rounding; the
# variants agree; the planner flag and plan time in the rows; wisdom saved
# where XDG_CACHE_HOME says, and a cache that cannot be written only noted;
# bad parameters refused with one line.
. "${srcdir:-.}/tests/lib.sh"

"$TB" list 2>/dev/null | grep -A3 '^poisson' | grep -q 'cpu: c2c' ||
  { echo "no FFTW in this build: skipped"; exit 77; }
RUN="run poisson --backend cpu --threads 2 --repeat 1 --warmup 0 $LIMIT --format csv"

# Single modes drawn from several seeds, 2-D and 3-D, both precisions.
for dim in 2 3; do
  sizes=4,6,16,64,100
  [ "$dim" -eq 3 ] && sizes=4,6,16,30
  for seed in 1 2 3; do
    "$TB" $RUN --precision float,double --size $sizes -P rhs=mode -P dim=$dim \
      -P planner=estimate --seed $seed --output "$TMP/mode$dim.$seed.csv" 2>"$TMP/err" ||
      fail "mode dim=$dim seed=$seed: $(cat "$TMP/err")"
    expect_all_pass "$TMP/mode$dim.$seed.csv"
    csv_select "$TMP/mode$dim.$seed.csv" precision variant error err_linf roundtrip |
      awk -F, '$1 == "double" && ($3 >= 1e-12 || ($5 == 0 && $4 >= 1e-12)) { bad++; print }
        END { exit bad > 0 }' || fail "dim=$dim seed=$seed: a double mode is not exact to 1e-12"
  done
done
expect_rows "$TMP/mode2.1.csv" 40
expect_rows "$TMP/mode3.1.csv" 32

# The textbook problem (sigma = 0.1): err_linf falls as N doubles and levels
# off at the floor of the Gaussian's non-periodic tail (about 2.3e-5, see
# doc/poisson.md), err_l2 (over N^2) halves at least; sigma = 0.05 at N = 64
# is exact to rounding.
"$TB" $RUN --precision double --size 8,16,32,64,128,256 --variant r2c -P planner=estimate \
  --output "$TMP/gauss.csv" 2>"$TMP/err" || fail "gauss: $(cat "$TMP/err")"
all_pass "$TMP/gauss.csv" 6
csv_select "$TMP/gauss.csv" size err_linf err_l2 | awk -F, '
  NR > 1 && !($2 < l && $3 < 0.55 * e) { bad++; print "N=" $1 ": " $2 " " $3 }
  { l = $2; e = $3 } $1 == 256 && !(l > 1e-5 && l < 3e-5) { bad++; print "floor " l }
  END { exit bad > 0 }' || fail "gauss errors do not fall as N doubles to the tail's floor"
"$TB" $RUN --precision double --size 64 -P sigma=0.05 -P planner=estimate \
  --output "$TMP/narrow.csv" 2>"$TMP/err" || fail "sigma 0.05: $(cat "$TMP/err")"
all_pass "$TMP/narrow.csv" 4
csv_select "$TMP/narrow.csv" variant err_linf | awk -F, '$1 != "fftonly" && !($2 < 1e-14) { bad++ }
  END { exit bad > 0 }' || fail "sigma 0.05 at N = 64 is not exact to rounding"

# 3-D: the same fall, and every variant in both precisions.
"$TB" $RUN --precision float,double --size 8,16,32 -P dim=3 -P planner=estimate \
  --output "$TMP/gauss3.csv" 2>"$TMP/err" || fail "gauss 3-D: $(cat "$TMP/err")"
all_pass "$TMP/gauss3.csv" 24
csv_select "$TMP/gauss3.csv" precision variant size err_linf | awk -F, '
  $1 == "double" && $2 == "r2c" { if (seen && !($4 < l)) bad++; l = $4; seen = 1 }
  END { exit bad > 0 }' ||
  fail "3-D gauss error does not fall as N doubles"

# The variants agree: the error columns of c2c, r2c and panel match to rounding
# (1e-12 in double, 1e-5 in float: the verdicts' bounds, in absolute terms),
# and fftonly rows are round trips without them.
csv_select "$TMP/gauss3.csv" precision size variant err_linf roundtrip | awk -F, '
  $3 == "fftonly" { if ($5 != 1 || $4 != "") bad++; next }
  { k = $1 "," $2; t = $1 == "double" ? 1e-12 : 1e-5
    if (k in e && (e[k] - $4 > t || $4 - e[k] > t)) bad++; e[k] = $4 }
  END { exit bad > 0 }' || fail "the variants' error columns disagree"

# panel: any width (odd, one column, wider than the columns: clamped to them)
# solves the same, 2-D and 3-D.
for dim in 2 3; do
  "$TB" $RUN --precision float,double --size 6,32 -P dim=$dim --variant panel,r2c \
    -P panel=1,3,auto,4000 --output "$TMP/panel$dim.csv" 2>"$TMP/err" ||
    fail "panel dim=$dim: $(cat "$TMP/err")"
  all_pass "$TMP/panel$dim.csv" 20
  csv_select "$TMP/panel$dim.csv" precision size err_linf | awk -F, '
    { k = $1 "," $2; t = $1 == "double" ? 1e-12 : 1e-5
      if (k in e && (e[k] - $3 > t || $3 - e[k] > t)) bad++; e[k] = $3 }
    END { exit bad > 0 }' || fail "panel dim=$dim: the widths disagree"
done
[ "$(csv_select "$TMP/panel2.csv" precision size variant panel | grep -c '^double,32,panel,17$')" -eq 1 ] ||
  fail "panel wider than the 17 columns of N = 32 was not clamped to them"

# The planner flag is a tuning parameter of the rows; measure keeps wisdom
# in the cache, and a cache that cannot be made only costs a note.
"$TB" $RUN --precision double --size 32 --variant r2c -P planner=estimate,measure \
  --output "$TMP/plan.csv" 2>"$TMP/err" || fail "planners: $(cat "$TMP/err")"
all_pass "$TMP/plan.csv" 2
[ "$(csv_select "$TMP/plan.csv" planner | tr '\n' ' ')" = "estimate measure " ] ||
  fail "planner column: $(csv_select "$TMP/plan.csv" planner plan_ms)"
[ -s "$TMP/cache/twinbench/fftw-wisdom-double" ] || fail "no wisdom file saved"
ls "$TMP/cache/twinbench" | grep -q tmp && fail "a temporary wisdom file was left behind"
: >"$TMP/notadir"
XDG_CACHE_HOME=$TMP/notadir "$TB" $RUN --precision float --size 16 --variant r2c -P planner=measure \
  --output "$TMP/nocache.csv" 2>"$TMP/err" || fail "unwritable cache: $(cat "$TMP/err")"
all_pass "$TMP/nocache.csv" 1
grep -q "FFTW wisdom not saved" "$TMP/err" || fail "no note on the unwritable cache: $(cat "$TMP/err")"
[ -s "$TMP/notadir" ] && fail "the file in the cache's place was written"

# Bad parameters: one line each.
expect_error 2 "even N of at least 4" $RUN --size 7
expect_error 2 "even N of at least 4" $RUN --size 2
expect_error 2 "needs .* of host memory" $RUN --size 2^20
expect_error 2 "needs .* of host memory" $RUN --size 2^12 -P dim=3
expect_error 2 "must be at most 3" $RUN --size 16 -P dim=4
expect_error 2 "must be at least" $RUN --size 16 -P sigma=0
finish
