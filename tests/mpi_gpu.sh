#!/bin/sh
# MPI runs on the GPU (doc/mpi.md): two ranks share the one GPU (the device
# is the node-local rank modulo the devices), through the CUDA-aware path
# where the library has one and through host staging (TB_MPI_CUDA_AWARE=0).
# reduce's mpi twin gives the exact int32 sum of one process at n = 2^22+5
# and passes its bound in float and double; Monte Carlo's gives fused's
# prices bit for bit; SOR's (blocking and overlapped) take published's
# iterations to published's solution bit for bit (err_max) on the process
# grids 1x1x2 (the default), 1x2x1 and 2x1x1 (every face's pack kernel and
# the shifted launches), and on four ranks 2x1x2 and 1x2x2 (two axes split),
# on the manufactured problem and on the stretched capacitor (held points
# and unequal coefficients on the faces), the residual to its summation
# order (N u for N = 41 x 40 x 45 cells: 1e-11, as derived in tests/mpi.sh;
# true_res, the capacitor's check of the solution, to its summation order,
# as there); spectral Poisson's gives r2c's solution (2-D 256^2, whose
# 129 spectrum columns are padded to 130, and 3-D 64^3) within the bound of
# tests/lib.sh's poisson_close; STREAM runs on each rank's own device arrays
# and moves twice the bytes. transport=nccl (src/gpu_cuda/comm.h): where
# the build has NCCL and each rank a GPU of its own, reduce's int32 sum,
# SOR's iterations and err_max and the Poisson solution are the one
# process's as above; elsewhere it is refused in one note (no row). Skips
# without MPI or a GPU.
. "${srcdir:-.}/tests/lib.sh"

grep -q '^#define TB_HAVE_MPI 1' config.h 2>/dev/null || { echo "built without MPI: skipped"; exit 77; }
command -v mpirun >/dev/null 2>&1 || { echo "no mpirun: skipped"; exit 77; }
gpu_present || { echo "no usable GPU: skipped"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# NVLink multicast stays off on the shared GPU machines, NCCL's included.
export NCCL_NVLS_ENABLE=0
# Oversubscribed ranks yield the cores while they wait (Open MPI's and
# OpenMP's), so the tests that make check runs beside these keep their timings.
export OMPI_MCA_mpi_yield_when_idle=1 OMP_WAIT_POLICY=passive
OPTS="--threads 1 --repeat 3 --warmup 1 $LIMIT"

"$TB" run reduce --backend cpu --variant pairwise --precision int32 --size 2^22+5 $OPTS \
  --format csv --output "$TMP/one.csv" 2>"$TMP/err" || fail "one process: $(cat "$TMP/err")"
want=$(csv_select "$TMP/one.csv" result)
for prec in float double; do
  "$TB" run montecarlo --backend gpu --variant fused --precision $prec --size 37 -P paths=2^16 \
    $OPTS -q --dump "$TMP/mc-$prec.csv" >/dev/null 2>"$TMP/err" || fail "fused: $(cat "$TMP/err")"
done
SOR_M="-P nx=41 -P ny=40 -P nz=45"
SOR_C="$SOR_M -P problem=capacitor -P mesh=stretched -P maxiter=80"
for pb in M C; do
  eval "args=\$SOR_$pb"
  "$TB" run sor --backend gpu --variant published --precision float,double $args $OPTS \
    --format csv --output "$TMP/sor1-$pb.csv" 2>"$TMP/err" || fail "published: $(cat "$TMP/err")"
done
for aware in 1 0; do
  for prec in float double; do
    TB_MPI_CUDA_AWARE=$aware timeout 300 mpirun --oversubscribe -np 2 "$TB" run montecarlo \
      --backend gpu --variant mpi --precision $prec --size 37 -P paths=2^16 $OPTS -q \
      --dump "$TMP/mc2-$prec.csv" >/dev/null 2>"$TMP/err" ||
      fail "montecarlo on 2 ranks (aware=$aware): $(cat "$TMP/err")"
    cmp -s "$TMP/mc-$prec.csv" "$TMP/mc2-$prec.csv" ||
      fail "montecarlo $prec on 2 ranks (aware=$aware): not fused's prices"
  done
  for case in 2:M:1x1x2 2:M:1x2x1 2:C:2x1x1 2:C:1x1x2 4:C:2x1x2 4:M:1x2x2; do
    np=${case%%:*} grid=${case##*:} pb=${case#*:}
    pb=${pb%%:*}
    eval "args=\$SOR_$pb"
    TB_MPI_CUDA_AWARE=$aware timeout 300 mpirun --oversubscribe -np $np "$TB" run sor \
      --backend gpu --variant mpi,mpi-overlap --precision float,double $args -P pgrid=$grid \
      $OPTS --format csv --output "$TMP/sor2.csv" >/dev/null 2>"$TMP/err" ||
      fail "sor $grid on $np ranks (aware=$aware): $(cat "$TMP/err")"
    expect_rows "$TMP/sor2.csv" 4
    expect_verified "$TMP/sor2.csv"
    sor_same_rows "$TMP/sor1-$pb.csv" "$TMP/sor2.csv" 1e-11 ||
      fail "sor $pb $grid on $np ranks (aware=$aware): $(cat "$TMP/got"), one process: $(cat "$TMP/want")"
    [ "$(csv_select "$TMP/sor2.csv" px py pz | sort -u | tr , x)" = "$grid" ] ||
      fail "sor -P pgrid=$grid on the GPU: the rows say $(csv_select "$TMP/sor2.csv" px py pz | sort -u)"
  done
  TB_MPI_CUDA_AWARE=$aware timeout 300 mpirun --oversubscribe -np 2 "$TB" run reduce \
    --backend gpu --variant mpi --precision int32,float,double --size 2^22+5 $OPTS --format csv \
    --output "$TMP/g$aware.csv" >/dev/null 2>"$TMP/err" ||
    fail "reduce on 2 ranks (aware=$aware): $(cat "$TMP/err")"
  expect_rows "$TMP/g$aware.csv" 3
  expect_sum_verdicts "$TMP/g$aware.csv"
  got=$(csv_select "$TMP/g$aware.csv" precision result | awk -F, '$1 == "int32" { print $2 }')
  [ "$got" = "$want" ] || fail "GPU reduce int32 on 2 ranks (aware=$aware): $got, want $want"
done

# Spectral Poisson: 2 ranks sharing the GPU against one process's r2c.
for prec in float double; do
  for case in "2 256 gauss" "3 64 mode"; do
    set -- $case
    PP="--backend gpu --precision $prec --size $2 --dim $1 --rhs $3"
    "$TB" run poisson --variant r2c $PP $OPTS --format csv --output "$TMP/p1.csv" \
      --dump "$TMP/pd1.csv" >/dev/null 2>"$TMP/err" || fail "poisson r2c: $(cat "$TMP/err")"
    for aware in 1 0; do
      TB_MPI_CUDA_AWARE=$aware timeout 300 mpirun --oversubscribe -np 2 "$TB" run poisson \
        --variant mpi $PP $OPTS --format csv --output "$TMP/p2.csv" --dump "$TMP/pd2.csv" \
        >/dev/null 2>"$TMP/err" ||
        fail "poisson $1-D $prec on 2 ranks (aware=$aware): $(cat "$TMP/err")"
      all_pass "$TMP/p2.csv" 1
      poisson_close "$TMP/p1.csv" "$TMP/pd1.csv" "$TMP/p2.csv" "$TMP/pd2.csv"
    done
  done
done

# NCCL: two ranks (four where there are four GPUs), each on its own GPU.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if grep -q '^#define TB_HAVE_NCCL 1' config.h && [ "${gpus:-0}" -ge 2 ]; then
  timeout 300 mpirun --oversubscribe -np 2 "$TB" run reduce --backend gpu --variant mpi \
    --transport nccl --precision int32,float,double --size 2^22+5 $OPTS --format csv \
    --output "$TMP/gn.csv" >/dev/null 2>"$TMP/err" || fail "reduce over NCCL: $(cat "$TMP/err")"
  expect_rows "$TMP/gn.csv" 3
  expect_sum_verdicts "$TMP/gn.csv"
  got=$(csv_select "$TMP/gn.csv" precision result | awk -F, '$1 == "int32" { print $2 }')
  [ "$got" = "$want" ] || fail "GPU reduce int32 over NCCL: $got, want $want"
  cases="2:M:1x1x2 2:C:1x2x1 2:M:2x1x1"
  [ "$gpus" -ge 4 ] && cases="$cases 4:C:2x1x2"
  for case in $cases; do
    np=${case%%:*} grid=${case##*:} pb=${case#*:}
    pb=${pb%%:*}
    eval "args=\$SOR_$pb"
    timeout 300 mpirun --oversubscribe -np $np "$TB" run sor --backend gpu \
      --variant mpi,mpi-overlap --transport nccl --precision float,double $args -P pgrid=$grid \
      $OPTS --format csv --output "$TMP/sorn.csv" >/dev/null 2>"$TMP/err" ||
      fail "sor $grid over NCCL: $(cat "$TMP/err")"
    expect_verified "$TMP/sorn.csv"
    sor_same_rows "$TMP/sor1-$pb.csv" "$TMP/sorn.csv" 1e-11 ||
      fail "sor $pb $grid over NCCL: $(cat "$TMP/got"), one process: $(cat "$TMP/want")"
    [ "$(csv_select "$TMP/sorn.csv" transport | sort -u)" = nccl ] ||
      fail "sor over NCCL: the rows say transport $(csv_select "$TMP/sorn.csv" transport)"
  done
  for prec in float double; do
    PP="--backend gpu --precision $prec --size 64 --dim 3 --rhs mode"
    "$TB" run poisson --variant r2c $PP $OPTS --format csv --output "$TMP/p1.csv" \
      --dump "$TMP/pd1.csv" >/dev/null 2>"$TMP/err" || fail "poisson r2c: $(cat "$TMP/err")"
    timeout 300 mpirun --oversubscribe -np 2 "$TB" run poisson --variant mpi --transport nccl \
      $PP $OPTS --format csv --output "$TMP/p2.csv" --dump "$TMP/pd2.csv" >/dev/null \
      2>"$TMP/err" || fail "poisson 3-D $prec over NCCL: $(cat "$TMP/err")"
    all_pass "$TMP/p2.csv" 1
    poisson_close "$TMP/p1.csv" "$TMP/pd1.csv" "$TMP/p2.csv" "$TMP/pd2.csv"
  done
else
  # Refused: the only row asked for is skipped with a note, so nothing ran.
  timeout 300 mpirun --oversubscribe -np 2 "$TB" run reduce --backend gpu --variant mpi \
    --transport nccl --precision int32 --size 2^22+5 $OPTS --format csv \
    --output "$TMP/gn.csv" >/dev/null 2>"$TMP/err" && fail "reduce over NCCL ran where it cannot"
  grep -q 'transport=nccl: ' "$TMP/err" || fail "reduce over NCCL, refused: $(cat "$TMP/err")"
fi

"$TB" run stream --backend gpu --variant vec16 -P op=triad --size 16M $OPTS --format csv \
  --output "$TMP/s1.csv" 2>"$TMP/err" || fail "stream: $(cat "$TMP/err")"
timeout 300 mpirun --oversubscribe -np 2 "$TB" run stream --backend gpu --variant vec16 \
  -P op=triad --size 16M $OPTS --format csv --output "$TMP/s2.csv" >/dev/null 2>"$TMP/err" ||
  fail "stream on 2 ranks: $(cat "$TMP/err")"
expect_all_pass "$TMP/s2.csv"
b1=$(csv_select "$TMP/s1.csv" bytes) b2=$(csv_select "$TMP/s2.csv" bytes)
[ "$(awk -v a="$b1" -v b="$b2" 'BEGIN { print (b == 2 * a) }')" = 1 ] ||
  fail "stream on 2 ranks moved $b2 bytes, one process $b1"
finish
