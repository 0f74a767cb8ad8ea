#!/bin/sh
# MPI runs (doc/mpi.md), on the CPU: under mpirun -np 1, 2 and 4 every
# distributed twin gives the answer of one process (reduce: the exact int32
# sum; Monte Carlo: the same prices bit for bit; SOR: the same iterations
# and the same solution, the residual's norm to its summation order;
# spectral Poisson: the one-process solution within the derived bound); rank 0
# alone reports; the rows gain ranks, nodes and comm_ms, and the JSON report
# keeps to the schema; a rank that fails or dies ends the whole run with a
# non-zero exit inside the timeout; a run without mpirun is the same as
# before. Skips without MPI.
. "${srcdir:-.}/tests/lib.sh"

grep -q '^#define TB_HAVE_MPI 1' config.h 2>/dev/null || { echo "built without MPI: skipped"; exit 77; }
command -v mpirun >/dev/null 2>&1 || { echo "no mpirun: skipped"; exit 77; }
# CI runs as root, which Open MPI refuses unless told. Open MPI's own
# allocations are still held at exit, which LeakSanitizer (CI's sanitizer
# build) would report as a failure of every rank: leak checks are off for
# the ranks, the other checks on.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Oversubscribed ranks yield the cores while they wait (Open MPI's and
# OpenMP's), so the tests that make check runs beside these keep their timings.
export OMPI_MCA_mpi_yield_when_idle=1 OMP_WAIT_POLICY=passive
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# The ranks share the test machine's cores (CI has two).
OPTS="--backend cpu --threads 1 --repeat 2 --warmup 1 $LIMIT"

# mpi NP FILE ARGS...: `twinbench run ARGS` on NP ranks into the CSV report
# FILE, under a timeout; a failed run fails the test with its message.
mpi() {
  np=$1 out=$2
  shift 2
  timeout 300 mpirun --oversubscribe -np "$np" "$TB" run "$@" $OPTS --format csv \
    --output "$out" >"$TMP/mpi.out" 2>"$TMP/mpi.err" ||
    fail "mpirun -np $np twinbench run $*: $(cat "$TMP/mpi.err")"
}

# Without mpirun nothing changes: no MPI columns, no distributed variant.
"$TB" run reduce --variant pairwise --precision int32 --size 1000003 $OPTS --format csv \
  --output "$TMP/one.csv" 2>"$TMP/err" || fail "plain run: $(cat "$TMP/err")"
csv_header "$TMP/one.csv" | grep -q 'ranks\|nodes\|comm_ms' && fail "a plain run has MPI columns"
expect_error 2 "runs distributed over MPI ranks: start it with mpirun" run reduce --variant mpi
"$TB" run reduce --size 1000 $OPTS --format csv --output "$TMP/all.csv" 2>"$TMP/err" ||
  fail "plain run of every variant: $(cat "$TMP/err")"
grep -q '^reduce,pairwise,' "$TMP/all.csv" || fail "the plain run's report has no rows"
grep -q '^reduce,mpi,' "$TMP/all.csv" && fail "a plain run ran the mpi variant"

# reduce: n = 1000003 is no multiple of 2 or 4, so the ranks' shares differ;
# the int32 sum is exact in any order, so every rank count gives the one
# process's sum; float and double pass their bound (depth: the largest
# share's, plus size - 1 for the all-reduce).
want=$(csv_select "$TMP/one.csv" result)
for np in 1 2 4; do
  mpi $np "$TMP/r$np.csv" reduce --variant mpi --precision int32,float,double --size 1000003
  expect_rows "$TMP/r$np.csv" 3
  expect_sum_verdicts "$TMP/r$np.csv"
  got=$(csv_select "$TMP/r$np.csv" precision result | awk -F, '$1 == "int32" { print $2 }')
  [ "$got" = "$want" ] || fail "reduce int32 on $np ranks: $got, one process: $want"
  [ "$(csv_select "$TMP/r$np.csv" ranks nodes | sort -u)" = "$np,1" ] ||
    fail "reduce on $np ranks: ranks,nodes $(csv_select "$TMP/r$np.csv" ranks nodes | sort -u)"
  csv_select "$TMP/r$np.csv" comm_ms | awk '!($1 >= 0) { bad++ } END { exit bad > 0 }' ||
    fail "reduce on $np ranks: comm_ms $(csv_select "$TMP/r$np.csv" comm_ms)"
done
# Rank 0 alone reports: on stdout, one header and one row from 4 ranks.
timeout 300 mpirun --oversubscribe -np 4 "$TB" run reduce --variant mpi --precision int32 \
  --size 1000 $OPTS --format csv >"$TMP/out4" 2>"$TMP/err" || fail "csv: $(cat "$TMP/err")"
[ "$(grep -c '^algo,' "$TMP/out4"),$(grep -c '^reduce,mpi,' "$TMP/out4")" = 1,1 ] ||
  fail "4 ranks wrote $(grep -c '^algo,' "$TMP/out4") headers, $(grep -c '^reduce,' "$TMP/out4") rows"

# Monte Carlo: the ranks make shares of the same Philox work items and add
# each option's in the same order, so the dumped prices (printed to round
# trip in their precision) are the one process's bit for bit.
for prec in float double; do
  "$TB" run montecarlo --variant omp --precision $prec --size 37 -P paths=20000 $OPTS -q \
    --dump "$TMP/mc1-$prec.csv" >/dev/null 2>"$TMP/err" || fail "montecarlo: $(cat "$TMP/err")"
  for np in 1 2 4; do
    timeout 300 mpirun --oversubscribe -np $np "$TB" run montecarlo --variant mpi \
      --precision $prec --size 37 -P paths=20000 $OPTS -q --dump "$TMP/mc$np-$prec.x.csv" \
      >/dev/null 2>"$TMP/err" || fail "montecarlo on $np ranks: $(cat "$TMP/err")"
    cmp -s "$TMP/mc1-$prec.csv" "$TMP/mc$np-$prec.x.csv" ||
      fail "montecarlo $prec on $np ranks: the prices differ from one process's"
  done
done

# SOR (the 3-D decomposition): red-black updates read only the other
# colour, so the ranks' boxes update every point from the same values as
# natural does: the same iterations and err_max (the solution) bit for bit,
# on every process grid: the default (MPI_Dims_create's: 1x1x2, 1x2x2), the
# slabs 1x1x4 and grids 2x2x1 and 1x2x2 given explicitly, and 2x1x2 with
# uneven shares on every axis (21 x 20 x 23 points). The residual's square
# sum is added in another order: a sum of N >= 0 terms is off by at most
# (N - 1) u in any order, its square root by half that, so two orders'
# relative residuals differ by at most N u = 21 * 20 * 23 * 1.1e-16 < 1e-12.
# The capacitor has no err_max: its solution is held by true_res, the
# verifier's long-double sum over the points of the same bits, whose order
# follows the verifier's threads: N u_ld = 1e4 * 5.4e-20 apart at most, held
# to 1e-12 (a wrong halo moves it by orders of magnitude more). The
# capacitor's electrodes and dielectric and the stretched mesh make the
# faces carry held points and unequal coefficients.
# sor_same NAME FILE: FILE's rows are the one process's answer (sor1-NAME).
sor_same() {
  sor_same_rows "$TMP/sor1-$1.csv" "$2" 1e-12 ||
    fail "sor $1 ($2): $(cat "$TMP/got"), one process: $(cat "$TMP/want")"
}
SOR_M="-P nx=21 -P ny=20 -P nz=23"
SOR_C="-P nx=21 -P ny=20 -P nz=23 -P problem=capacitor -P mesh=stretched -P maxiter=60"
run_csv "$TMP/sor1-m.csv" sor --variant natural --precision float,double $SOR_M $OPTS
run_csv "$TMP/sor1-c.csv" sor --variant natural --precision float,double $SOR_C $OPTS
for np in 1 2 4; do
  mpi $np "$TMP/sor$np.x.csv" sor --variant mpi,mpi-overlap --precision float,double $SOR_M
  expect_rows "$TMP/sor$np.x.csv" 4
  expect_all_pass "$TMP/sor$np.x.csv"
  sor_same m "$TMP/sor$np.x.csv"
  want=$(case $np in 1) echo 1,1,1 ;; 2) echo 1,1,2 ;; 4) echo 1,2,2 ;; esac)
  [ "$(csv_select "$TMP/sor$np.x.csv" px py pz | sort -u)" = "$want" ] ||
    fail "sor on $np ranks: the default grid is $(csv_select "$TMP/sor$np.x.csv" px py pz | sort -u)"
done
for grid in 1x1x4 2x2x1 1x2x2 2x1x2; do
  mpi 4 "$TMP/sorg.csv" sor --variant mpi,mpi-overlap --precision float,double $SOR_C \
    -P pgrid=$grid
  expect_rows "$TMP/sorg.csv" 4
  expect_verified "$TMP/sorg.csv" pass
  sor_same c "$TMP/sorg.csv"
  [ "$(csv_select "$TMP/sorg.csv" px py pz | sort -u | tr , x)" = "$grid" ] ||
    fail "sor -P pgrid=$grid: the rows say $(csv_select "$TMP/sorg.csv" px py pz | sort -u)"
done
# Teams of two threads a rank: the faces packed and unpacked by the team.
timeout 300 mpirun --oversubscribe -np 2 "$TB" run sor --variant mpi,mpi-overlap \
  --precision float,double $SOR_C -P pgrid=2x1x1 --backend cpu --threads 2 --repeat 1 \
  --warmup 0 $LIMIT --format csv --output "$TMP/sort.csv" >/dev/null 2>"$TMP/err" ||
  fail "sor with two threads a rank: $(cat "$TMP/err")"
expect_rows "$TMP/sort.csv" 4
sor_same c "$TMP/sort.csv"
# The halo column, from the last grid of the loop, 2x1x2: the busiest rank's box is
# 11 x 20 x 12 (x and z split 21 = 11 + 10 and 23 = 12 + 11) with
# neighbours above in x and z. Its x face is 20 x 12 points, 12 rows of 10
# slots of a colour; its z face 11 x 20, 20 rows of 6 slots: 240 slots a
# colour, both colours an iteration: 480 elements, 1920 bytes in float,
# 3840 in double.
[ "$(csv_select "$TMP/sorg.csv" precision halo_bytes | sort -u | tr '\n' ' ')" = \
  "double,3840 float,1920 " ] ||
  fail "sor 2x1x2: halo_bytes $(csv_select "$TMP/sorg.csv" precision halo_bytes | sort -u)"
# A bad process grid is refused in one line (mpirun adds its own), by
# every rank at once.
for bad in "2x2x2:has 8 ranks, the run 4" "4x1x1:puts 4 ranks on the 3 points along x" \
    "2x2:is not PXxPYxPZ" "0x2x2:is not PXxPYxPZ"; do
  timeout 120 mpirun --oversubscribe -np 4 "$TB" run sor --variant mpi -P nx=3 \
    -P pgrid="${bad%%:*}" $OPTS >/dev/null 2>"$TMP/err" && fail "pgrid ${bad%%:*} ran on 4 ranks"
  [ "$(grep -c '^twinbench:' "$TMP/err")" = 1 ] && grep -q "${bad#*:}" "$TMP/err" ||
    fail "pgrid ${bad%%:*} on 4 ranks: $(cat "$TMP/err")"
done
expect_error 2 "the process grid 1x1x2 has 2 ranks, the run 1" run sor -P pgrid=1x1x2

# STREAM is weak-scaled: every rank its own arrays, the row's bytes the
# ranks' together.
run_csv "$TMP/st1.csv" stream -P op=triad --size 1M $OPTS
mpi 2 "$TMP/st2.csv" stream -P op=triad --size 1M
expect_all_pass "$TMP/st2.csv"
b1=$(csv_select "$TMP/st1.csv" bytes) b2=$(csv_select "$TMP/st2.csv" bytes)
[ "$(awk -v a="$b1" -v b="$b2" 'BEGIN { print (b == 2 * a) }')" = 1 ] ||
  fail "stream on 2 ranks moved $b2 bytes, one process $b1"

# Spectral Poisson: the ranks' slabs, transposed by MPI_Alltoall, give the
# one-process solution within the bound poisson_close derives (tests/lib.sh).
# N = 24 (2-D: 13 spectrum columns, padded to a multiple of 4) and 12 (3-D),
# --panel 5 so that the last panel of lines is narrower.
for prec in float double; do
  for case in "2 24 gauss" "3 12 mode"; do
    set -- $case
    PP="--precision $prec --size $2 --dim $1 --rhs $3"
    "$TB" run poisson --variant r2c $PP $OPTS --format csv --output "$TMP/p1.csv" \
      --dump "$TMP/pd1.csv" >/dev/null 2>"$TMP/err" || fail "poisson r2c: $(cat "$TMP/err")"
    for np in 1 2 4; do
      timeout 300 mpirun --oversubscribe -np $np "$TB" run poisson --variant mpi $PP --panel 5 \
        $OPTS --format csv --output "$TMP/p$np.x.csv" --dump "$TMP/pd$np.x.csv" >/dev/null \
        2>"$TMP/err" || fail "poisson $1-D $prec on $np ranks: $(cat "$TMP/err")"
      expect_rows "$TMP/p$np.x.csv" 1
      expect_all_pass "$TMP/p$np.x.csv"
      [ "$(csv_select "$TMP/p$np.x.csv" ranks)" = "$np" ] || fail "poisson on $np ranks: ranks"
      poisson_close "$TMP/p1.csv" "$TMP/pd1.csv" "$TMP/p$np.x.csv" "$TMP/pd$np.x.csv"
    done
  done
done
# An N that the ranks do not divide is refused with its reason, and a run
# with nothing left to run exits non-zero.
timeout 120 mpirun --oversubscribe -np 4 "$TB" run poisson --variant mpi --size 6 \
  --precision float $OPTS >/dev/null 2>"$TMP/err" && fail "poisson mpi ran N = 6 on 4 ranks"
grep -q "N = 6 is not a multiple of the 4 MPI ranks" "$TMP/err" ||
  fail "poisson mpi N = 6 on 4 ranks: $(cat "$TMP/err")"

# The JSON report of an MPI run keeps to the schema, with its columns.
timeout 300 mpirun --oversubscribe -np 2 "$TB" run reduce --variant mpi --size 1000 $OPTS \
  --format json --output "$TMP/r.json" >/dev/null 2>"$TMP/err" || fail "json: $(cat "$TMP/err")"
python3 "${srcdir:-.}/tests/check_json.py" "${srcdir:-.}/doc/report.schema.json" "$TMP/r.json" ||
  fail "the MPI run's JSON report breaks the schema"
grep -q '"ranks": 2' "$TMP/r.json" || fail "the JSON report has no ranks"

# A variant that does not run distributed is refused in one line.
timeout 120 mpirun --oversubscribe -np 2 "$TB" run reduce --variant omp $OPTS >/dev/null \
  2>"$TMP/err" && fail "a variant that is not distributed ran on 2 ranks"
[ "$(grep -c '^twinbench:' "$TMP/err")" = 1 ] && grep -q "does not run distributed" "$TMP/err" ||
  fail "refusing omp on 2 ranks: $(cat "$TMP/err")"

# A rank that fails (an error on rank 1 alone) or dies (SIGKILL) ends the
# whole run with a non-zero exit, well inside the timeout (124).
for fault in error die; do
  TB_MPI_FAULT=1:$fault timeout 120 mpirun --oversubscribe -np 2 "$TB" run reduce --variant mpi \
    --size 1M $OPTS >/dev/null 2>"$TMP/err"
  rc=$?
  { [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; } || fail "rank 1 ($fault) ended with $rc: $(cat "$TMP/err")"
done
TB_MPI_FAULT=1:error timeout 120 mpirun --oversubscribe -np 2 "$TB" run reduce --variant mpi \
  --size 1M $OPTS >/dev/null 2>"$TMP/err"
grep -q "^twinbench: MPI rank 1 of 2: TB_MPI_FAULT" "$TMP/err" ||
  fail "the failing rank did not say so: $(cat "$TMP/err")"

# An interrupt keeps the rows measured. A batch system's stop (scancel) or
# a user's kill reaches the ranks themselves, not always all of them at
# once: here one rank alone gets SIGTERM. The ranks finish the row in
# progress and agree to stop before the next, rank 0 writes the rows, no
# temporary file is left, and the job ends non-zero. Rows of half a second
# each (--min-time), thirty of them, and small ceilings ($LIMIT: the default
# arrays took more than the 6 s on the H100 machine's loaded host); the
# signal comes after 6 s.
timeout -k 60 300 mpirun --oversubscribe -np 2 "$TB" run reduce --variant mpi \
  --precision int32,float,double --size 1000:512000:*2 --backend cpu --threads 1 --repeat 2 \
  --min-time 0.5 $LIMIT --output "$TMP/int.csv" >/dev/null 2>"$TMP/err" &
pid=$!
sleep 6
pkill -TERM -n -f "^[^ ]*twinbench run reduce --variant mpi --precision int32,float,double --size 1000:"
wait $pid
rc=$?
{ [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; } ||
  fail "the interrupted MPI run ended with $rc: $(cat "$TMP/err")"
[ -f "$TMP/int.csv" ] || fail "the interrupted MPI run wrote no report: $(cat "$TMP/err")"
n=$(csv_rows "$TMP/int.csv" | wc -l)
{ [ "$n" -ge 1 ] && [ "$n" -lt 30 ]; } ||
  fail "the interrupted MPI run kept $n rows of 30 (expected some, not all): $(cat "$TMP/err")"
grep -q "interrupted; $n results were measured" "$TMP/err" ||
  fail "the interrupted MPI run did not say so: $(cat "$TMP/err")"
ls "$TMP"/int.csv.tmp.* >/dev/null 2>&1 && fail "the interrupted MPI run left a temporary file"
finish
