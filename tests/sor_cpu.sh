#!/bin/sh
# The red-black SOR family on the CPU: the manufactured problem's error is the
# discrete solution's (closed form) and falls about 4x per halving of h; the
# quadratic Laplace problem is solved to the tolerance on uniform and
# stretched meshes; the natural and colour-split layouts and the fused
# one-pass sweeps (fused, wave, dense) give the same bits and iteration counts in
# every problem and precision, the uniform-row path (manufactured, laplace)
# and the per-face one (the capacitor's rows by its plates and dielectric)
# alike, wave and dense with either synchronisation (a barrier a plane, or the
# neighbours' flags, also with teams larger than the cores); Jacobi needs more
# iterations than SOR; every row verified (held points bit for bit, the true
# residual against the bound tol implies); bad parameters are one line.
. "${srcdir:-.}/tests/lib.sh"
RUN_OPTS="--backend cpu --threads 2 --repeat 1 --warmup 0"

# Convergence: h = 1/8, 1/16, 1/32 in double, solved far below the
# discretisation error.
run_csv "$TMP/conv.csv" sor --precision double --size 7,15,31 -P tol=1e-11 -P maxiter=100000
all_pass "$TMP/conv.csv" 18
csv_select "$TMP/conv.csv" variant size err_max err_discrete iterations check >"$TMP/conv"
awk -F, '{ e[$1, $2] = $3
    # the error is the closed-form discrete solution error to 1e-6 of itself
    if ($3 - $4 > 1e-6 * $4 || $4 - $3 > 1e-6 * $4) { print "err " $0; bad++ } }
  END { split("natural split fused wave dense jacobi", v, " ")
    for (k = 1; k <= 6; k++) {
      r1 = e[v[k], 7] / e[v[k], 15]; r2 = e[v[k], 15] / e[v[k], 31]
      if (r1 < 3.8 || r1 > 4.2 || r2 < 3.9 || r2 > 4.1) { print v[k] " ratios " r1 " " r2; bad++ } }
    exit bad > 0 }' "$TMP/conv" || fail "manufactured error: not the discrete error, or not ~4x a halving"
# SOR against Jacobi: the ordering buys iterations (omega_opt: O(n) against O(n^2)).
awk -F, '$2 == 31 { it[$1] = $5 } END { exit !(it["jacobi"] > 10 * it["natural"]) }' "$TMP/conv" ||
  fail "jacobi does not take far more iterations than SOR at n = 31"

# Laplace with quadratic data: reproduced exactly by the stencil, so the
# error is the solver's alone, on both meshes.
run_csv "$TMP/lap.csv" sor --precision double --size 12 -P problem=laplace -P mesh=uniform,stretched \
  -P tol=1e-12 -P maxiter=100000
all_pass "$TMP/lap.csv" 12
awk -F, -v e="$(csv_col "$TMP/lap.csv" err_max)" "$CSV_ROW"' { if (!($e < 1e-9)) bad++ }
  END { exit bad > 0 }' "$TMP/lap.csv" || fail "laplace: an error above 1e-9 at tol 1e-12"

# The layouts and the fused sweep agree bit for bit (the same err_max and true residual to 17
# digits, the same iterations) on every problem and mesh, in float and double,
# with unequal sides and a check interval of 3.
run_csv "$TMP/lay.csv" sor --precision float,double --size 10 -P nx=13 -P ny=9 -P nz=11 -P check=3 \
  -P maxiter=100000 --sync barrier,flags \
  -P problem=manufactured,laplace,capacitor -P mesh=uniform,stretched
all_pass "$TMP/lay.csv" 96
csv_select "$TMP/lay.csv" variant precision problem mesh iterations err_max true_res residual >"$TMP/lay"
awk -F, '$1 != "jacobi" { key = $2 "," $3 "," $4; val = $5 "," $6 "," $7
    if (key in s && s[key] != val) { print key ": " s[key] " vs " val; bad++ }; s[key] = val }
  $1 == "jacobi" && $5 % 3 != 0 { print "jacobi stopped off the check: " $0; bad++ }
  END { exit bad > 0 }' "$TMP/lay" || fail "natural and split differ, or a stop off the check interval"

# Every solve above converged: below tol, before maxiter, no maxiter note.
for f in conv lap lay; do
  awk -F, -v i="$(csv_col "$TMP/$f.csv" iterations)" -v r="$(csv_col "$TMP/$f.csv" residual)" \
    -v n="$(csv_col "$TMP/$f.csv" note)" "$CSV_ROW"' { if (!($i < 100000) || $n ~ /maxiter/) bad++ }
    END { exit bad > 0 }' "$TMP/$f.csv" || fail "$f: a solve stopped at maxiter or carries a note"
done
awk -F, '{ if (!($8 < 1e-5)) bad++ } END { exit bad > 0 }' "$TMP/lay" || fail "a residual above tol"

# A solve stopped by maxiter is what its budget gives: checked against its own
# residual, passed, and noted; the residual is that of its last iteration.
run_csv "$TMP/cap.csv" sor --precision double --size 24 --variant jacobi -P maxiter=37
all_pass "$TMP/cap.csv" 1
csv_select "$TMP/cap.csv" iterations residual note >"$TMP/cap"
grep -q '^37,[0-9.e-]*,stopped at maxiter 37 before tol' "$TMP/cap" || fail "maxiter stop: $(cat "$TMP/cap")"

# Repeats start from the same state (v restored before each run): the same
# iterations and bits after three runs as after one.
run_csv "$TMP/rep1.csv" sor --precision float --size 11 --variant natural,split,fused,wave,dense
"$TB" run sor --backend cpu --threads 2 --repeat 3 --warmup 1 $LIMIT --format csv \
  --output "$TMP/rep3.csv" --precision float --size 11 --variant natural,split,fused,wave,dense \
  2>"$TMP/err" ||
  fail "repeats: $(cat "$TMP/err")"
[ "$(csv_select "$TMP/rep1.csv" variant iterations err_max true_res)" = \
  "$(csv_select "$TMP/rep3.csv" variant iterations err_max true_res)" ] ||
  fail "three runs differ from one: the state was not restored"

# The one-pass sweeps' shares (fused and share planes: of planes; wave and
# dense: of rows): more threads than planes or rows, one a share, uneven
# shares; the same bits as the natural layout's two passes. Then wave's flags with teams of up to 8 on
# this machine's cores, so threads are descheduled while their neighbours
# wait (a missing wait would let a thread read a row before or after its
# neighbour's update and change the bits), over 40 planes and a residual
# reduced every iteration.
"$TB" run sor --backend cpu --threads 1,3 --repeat 1 --warmup 0 $LIMIT --format csv \
  --output "$TMP/sh.csv" --precision double --size 4 -P nz=1,2,5 -P ny=1,2,5 --sync barrier,flags \
  --share rows,planes \
  -P problem=capacitor --variant natural,fused,wave,dense 2>"$TMP/err" ||
  fail "shares: $(cat "$TMP/err")"
all_pass "$TMP/sh.csv" 180
csv_select "$TMP/sh.csv" ny nz iterations err_max true_res | sort -u | cut -d, -f1,2 | uniq -d |
  grep -q . && fail "shares: the fused sweep differs from the natural layout"
"$TB" run sor --backend cpu --threads 2,5,8 --repeat 2 --warmup 0 $LIMIT --format csv \
  --output "$TMP/fl.csv" --precision float --size 12 -P ny=9,16 -P nz=40 -P check=1 \
  -P problem=capacitor -P mesh=stretched --variant natural,wave,dense --sync flags 2>"$TMP/err" ||
  fail "flags: $(cat "$TMP/err")"
all_pass "$TMP/fl.csv" 18
csv_select "$TMP/fl.csv" ny iterations err_max true_res | sort -u | cut -d, -f1 | uniq -d |
  grep -q . && fail "flags: wave differs from the natural layout"

# dense's rows in whole vectors and a masked tail: rows of 1 to 70 points (under one vector, a
# vector and a tail, several), both precisions and problems whose rows take either path (uniform,
# per-face), the residual every iteration (the summed loops) and every 4th (the others between):
# the natural layout's bits and iterations.
"$TB" run sor --backend cpu --threads 2 --repeat 1 --warmup 0 $LIMIT --format csv \
  --output "$TMP/dn.csv" --precision float,double --size 6 -P nx=1,15,16,17,37,70 -P check=1,4 \
  -P problem=laplace,capacitor --variant natural,dense --share rows,planes 2>"$TMP/err" ||
  fail "dense: $(cat "$TMP/err")"
all_pass "$TMP/dn.csv" 144
csv_select "$TMP/dn.csv" precision nx check problem iterations err_max true_res | sort -u |
  cut -d, -f1-4 | uniq -d | grep -q . && fail "dense differs from the natural layout"

# split's and wave's rows in whole vector steps (64 points) and a last step over the row's end,
# its lanes already updated masked out: colour rows of 63 to 101 points (under a step, one step,
# a step and a tail, a step and a long tail), both precisions and problems whose rows take
# either path (uniform, per-face), the residual every iteration and every 4th: the natural
# layout's bits and iterations.
"$TB" run sor --backend cpu --threads 2 --repeat 1 --warmup 0 $LIMIT --format csv \
  --output "$TMP/sp.csv" --precision float,double --size 6 -P nx=127,128,129,130,203 -P check=1,4 \
  -P problem=laplace,capacitor --variant natural,split,wave 2>"$TMP/err" ||
  fail "split rows: $(cat "$TMP/err")"
all_pass "$TMP/sp.csv" 120
csv_select "$TMP/sp.csv" precision nx check problem iterations err_max true_res | sort -u |
  cut -d, -f1-4 | uniq -d | grep -q . && fail "split or wave differs from the natural layout"

# omega is a parameter: another value still converges (slower) and verifies.
run_csv "$TMP/om.csv" sor --precision double --size 9 --variant natural -P omega=1,1.5,auto
all_pass "$TMP/om.csv" 3

# Bad parameters: one line each, exit 2.
expect_error 2 "omega '2' must be a number in (0, 2)" run sor --backend cpu -P omega=2 $LIMIT
expect_error 2 "omega '0' must be a number in (0, 2)" run sor --backend cpu -P omega=0 $LIMIT
expect_error 2 "omega '-0.5' must be a number in (0, 2)" run sor --backend cpu -P omega=-0.5 $LIMIT
expect_error 2 "omega 'fast' must be a number in (0, 2)" run sor --backend cpu -P omega=fast $LIMIT
expect_error 2 "\-\-size '0' must be at least 1" run sor --backend cpu --size 0 $LIMIT
expect_error 2 "\-\-sync: unknown value 'spin'" run sor --backend cpu --variant wave --sync spin $LIMIT
expect_error 2 "\-\-sync: unknown value 'spin'" run sor --backend cpu --variant dense --sync spin \
  $LIMIT
expect_error 2 "\-\-share: unknown value 'cols'" run sor --backend cpu --variant wave --share cols \
  $LIMIT
expect_error 2 "\-\-nx '0' must be at least 1" run sor --backend cpu -P nx=0 $LIMIT
expect_error 2 "tol 1e-09 is below what float resolves" run sor --backend cpu -P tol=1e-9 $LIMIT
expect_error 2 "does not fit in memory\|needs .* of host memory" run sor --backend cpu --size 2^18 \
  $LIMIT
expect_error 2 "overflow\|does not fit in memory\|needs .* of host memory" run sor --backend cpu \
  --size 2^40 $LIMIT
finish
