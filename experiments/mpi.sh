#!/bin/bash
# Issue 19's benchmark: MPI ranks on one node (doc/mpi.md), on the GPU
# machine (16 cores, one GPU, Open MPI). The ranks are started unbound
# (--bind-to none): each rank's team then takes its share of the cores
# (twinbench splits a mask that several ranks of a node share), with
# CORES / R threads, so that every run uses the whole CPU.
#  1. SOR strong scaling: 256^3 in float, 1, 2, 4, 8 (and 16) ranks on
#     MPI_Dims_create's 3-D process grids (1x1x2, 1x2x2, 2x2x2, 2x2x4), the
#     blocking and the overlapped halo exchange; time per iteration, speedup
#     and efficiency over one rank, and the communication share (comm_ms
#     over the mean time of a run, both means over the repeats). At 8 ranks
#     also the slabs 1x1x8 and 1x2x4 beside 2x2x2 (-P pgrid=LIST sweeps the
#     grids in one run): the halo bytes (column halo_bytes) against the
#     faces' packing and the messages' count.
#  2. SOR weak scaling: a box of 160^3 points a rank on grids 1x1x1, 1x1x2,
#     1x2x2, 2x2x2 (160^3 to 320^3), 100 iterations each (maxiter; tol below
#     reach), blocking and overlapped; efficiency = one rank's time per
#     iteration over R ranks'.
#  3. Ranks against threads on the 16 cores: R ranks of 16 / R threads.
#  4. reduce and Monte Carlo strong scaling (1, 2, 4, 8 ranks) and STREAM
#     weak scaling (each rank its own arrays); the all-reduce's time per run
#     and its bus bandwidth in nccl-tests' convention,
#     busbw = (bytes / comm_ms) 2 (R - 1) / R.
#  5. Two ranks sharing the GPU: reduce (CUDA-aware where the library is,
#     and host-staged), Monte Carlo, SOR (blocking and overlapped) and
#     STREAM, beside one process.
#  6. Spectral Poisson (slab decomposition, two MPI_Alltoall a solve):
#     strong scaling of 2-D 8192^2 and 3-D 256^3 (float and double) on 1,
#     2, 4, 8 ranks with the communication share; weak scaling with about
#     the same points a rank (2-D N = 4096, 5760, 8192, 11520; 3-D N = 128,
#     160, 200, 256: sizes of small prime factors that the ranks divide),
#     efficiency = one rank's time per point over R ranks' time per point
#     a rank; the panel of lines (--panel) swept on 4 ranks; one process's
#     r2c beside them; two ranks sharing the GPU (CUDA-aware and staged)
#     against one process's cuFFT r2c.
# Run from the build folder (where ./twinbench is). Full results go to $OUT.
# RESUME=1 keeps the steps whose CSV in $OUT has rows (a study cut short
# goes on where it stopped); the tables at the end read every step's CSV.
set -uo pipefail
OUT=${OUT:-.}
mkdir -p "$OUT" || exit 1
. "$(dirname "$0")/lib.sh"

CORES=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# A step stopped by its timeout gets 30 s to finish its row and write the
# rows it measured (Open MPI kills the ranks 1 s after it passes a stop on,
# by default).
export OMPI_MCA_odls_base_sigkill_timeout=${OMPI_MCA_odls_base_sigkill_timeout:-30}
RANKS="1 2 4 8"
# QUICK=1: the same study at sizes that fit a short lease (about 5 minutes on the
# 16-core machine): SOR at 128^3 and a box of 96^3 a rank, each solve capped
# at 50 iterations; Poisson strong scaling at 2-D 4096^2 and 3-D 128^3 and
# weak scaling from 2048^2 and 64^3; fewer repeats; no 16-rank run or panel
# sweep. The rows are the full study's in shape, so the same report reads them.
if [ "${QUICK:-0}" = 1 ]; then
  SOR_N=128 SOR_BOX=96 SOR_CAP="-P maxiter=50" SOR_WEAK_IT=50 REP=2
  P2D="--dim 2 --size 4096" P3D="--dim 3 --size 128"
  WEAK2="2 2048 2880 4096 5760" WEAK3="3 64 80 100 128"
else
  SOR_N=256 SOR_BOX=160 SOR_CAP="" SOR_WEAK_IT=100 REP=3
  P2D="--dim 2 --size 8192" P3D="--dim 3 --size 256"
  WEAK2="2 4096 5760 8192 11520" WEAK3="3 128 160 200 256"
fi
export SOR_N SOR_BOX P2D P3D

# mpibench NAME R ARGS...: bench's run on R ranks, each of CORES / R threads.
mpibench() {
  name=$1 r=$2
  shift 2
  kept "$name" && return 0
  echo "== $name: mpirun -np $r twinbench $*" >&2
  timeout 3000 mpirun --oversubscribe --bind-to none -np "$r" "$TB" "$@" \
    --threads $((CORES / r)) --output "$OUT/$name.csv" >"$OUT/$name.txt" 2>"$OUT/$name.log" ||
    { echo "twinbench on $r ranks exited $? for $name (see $OUT/$name.log)" >&2; status=1; }
}

# ---- SOR (issue 19's 3-D decomposition) ----
# The weak-scaling grids: R ranks, PXxPYxPZ, a box of 160^3 a rank.
sor_weak_grid() { case $1 in 1) echo 1x1x1 ;; 2) echo 1x1x2 ;; 4) echo 1x2x2 ;; 8) echo 2x2x2 ;; esac; }
for r in $RANKS; do
  grids=auto
  [ "$r" = 8 ] && grids=2x2x2,1x2x4,1x1x8
  mpibench "mpi-sor-strong-$r" "$r" run sor --backend cpu --variant mpi,mpi-overlap \
    --precision float --size $SOR_N -P tol=1e-3 $SOR_CAP -P pgrid=$grids --repeat $REP --warmup 1
  g=$(sor_weak_grid "$r")
  px=${g%%x*} pz=${g##*x} py=${g#*x}
  py=${py%x*}
  mpibench "mpi-sor-weak-$r" "$r" run sor --backend cpu --variant mpi,mpi-overlap \
    --precision float -P nx=$((SOR_BOX * px)) -P ny=$((SOR_BOX * py)) -P nz=$((SOR_BOX * pz)) \
    -P pgrid=$g -P tol=1e-5 -P maxiter=$SOR_WEAK_IT --repeat $REP --warmup 1
  mpibench "mpi-reduce-$r" "$r" run reduce --backend cpu --variant mpi --precision int32,double \
    --size 2^28 --repeat 10
  mpibench "mpi-mc-$r" "$r" run montecarlo --backend cpu --variant mpi --precision float,double \
    --size 128 -P paths=2^20 --repeat 5
  mpibench "mpi-stream-$r" "$r" run stream --backend cpu -P op=triad --precision double \
    --size 2^26 --repeat 10
done
r=16
[ "${QUICK:-0}" = 1 ] || mpibench "mpi-sor-strong-$r" "$r" run sor --backend cpu \
  --variant mpi,mpi-overlap --precision float --size $SOR_N -P tol=1e-3 --repeat $REP --warmup 1
bench mpi-sor-natural run sor --backend cpu --threads "$CORES" --variant natural --precision float \
  --size $SOR_N -P tol=1e-3 $SOR_CAP --repeat $REP --warmup 1
bench mpi-gpu-one run reduce --backend gpu --variant cub --precision int32,double --size 2^28
for aware in 1 0; do
  TB_MPI_CUDA_AWARE=$aware mpibench "mpi-gpu-reduce-aware$aware" 2 run reduce --backend gpu \
    --variant mpi --precision int32,double --size 2^28
done
mpibench mpi-gpu-stream 2 run stream --backend gpu -P op=triad --precision double --size 2^27
bench mpi-gpu-sor-one run sor --backend gpu --variant published --precision float --size $SOR_N \
  -P tol=1e-3 $SOR_CAP --repeat $REP --warmup 1
mpibench mpi-gpu-sor 2 run sor --backend gpu --variant mpi,mpi-overlap --precision float \
  --size $SOR_N -P tol=1e-3 $SOR_CAP -P pgrid=1x1x2,1x2x1,2x1x1 --repeat $REP --warmup 1
bench mpi-gpu-mc-one run montecarlo --backend gpu --variant fused --precision float,double \
  --size 128 -P paths=2^20
mpibench mpi-gpu-mc 2 run montecarlo --backend gpu --variant mpi --precision float,double \
  --size 128 -P paths=2^20

# 6. Spectral Poisson.
for r in $RANKS; do
  mpibench "mpi-poisson2d-strong-$r" "$r" run poisson --backend cpu --variant mpi $P2D \
    --precision float,double --repeat 5 --warmup 1
  mpibench "mpi-poisson3d-strong-$r" "$r" run poisson --backend cpu --variant mpi $P3D \
    --precision float,double --repeat 5 --warmup 1
done
for sizes in "$WEAK2" "$WEAK3"; do
  set -- $sizes
  dim=$1
  shift
  for r in $RANKS; do
    mpibench "mpi-poisson${dim}d-weak-$r" "$r" run poisson --backend cpu --variant mpi \
      --dim "$dim" --size "$1" --precision float --repeat 5 --warmup 1
    shift
  done
done
if [ "${QUICK:-0}" != 1 ]; then
  mpibench mpi-poisson-panel2d 4 run poisson --backend cpu --variant mpi $P2D --precision float \
    --panel 4,8,16,32,64 --repeat 5 --warmup 1
  mpibench mpi-poisson-panel3d 4 run poisson --backend cpu --variant mpi $P3D --precision float \
    --panel 4,8,16,32,64 --repeat 5 --warmup 1
fi
bench mpi-poisson-one run poisson --backend cpu --threads "$CORES" --variant r2c,panel \
  $P2D --precision float,double --repeat 5 --warmup 1
bench mpi-poisson-one3d run poisson --backend cpu --threads "$CORES" --variant r2c,panel \
  $P3D --precision float,double --repeat 5 --warmup 1
for case in "2 4096" "3 256"; do
  set -- $case
  bench "mpi-gpu-poisson${1}d-one" run poisson --backend gpu --variant r2c --dim "$1" \
    --size "$2" --precision float,double
  for aware in 1 0; do
    TB_MPI_CUDA_AWARE=$aware mpibench "mpi-gpu-poisson${1}d-aware$aware" 2 run poisson \
      --backend gpu --variant mpi --dim "$1" --size "$2" --precision float,double
  done
done

python3 - "$OUT" <<'PY'
import csv, math, os, pathlib, sys
E = os.environ
out = pathlib.Path(sys.argv[1])

def rows(name):
    """The rows of $OUT/NAME.csv (none when the run wrote no file)."""
    p = out / f"{name}.csv"
    return list(csv.DictReader(x for x in p.open() if x[0] != "#")) if p.exists() else []

def f(r, k):
    """Column k of row r as a number, NaN when empty or absent."""
    try:
        return float(r.get(k) or "nan")
    except ValueError:
        return math.nan

def scaling(title, prefix, per, weak):
    print(f"# {title}")
    print(f"{'ranks':>5} {'grid':>6} {'variant':12} {'prec':6} {'iters':>6} {'ms/run':>10} "
          f"{'ms/iter':>9} {'speedup':>8} {'eff':>6} {'comm %':>7} {'GB/s':>8} {'verified':>9}")
    base = {}
    for r_ in (1, 2, 4, 8, 16):
        for r in rows(f"{prefix}-{r_}"):
            key = (r["variant"], r["precision"])
            t = f(r, per) if per else f(r, "median_ms")
            base.setdefault(key, (r_, t))
            b_r, b_t = base[key]
            speed = b_t / t  # weak: the time ratio, which is the efficiency
            eff = speed if weak else speed / (r_ / b_r)
            share = 100 * f(r, "comm_ms") / f(r, "mean_ms")
            grid = "x".join(r.get(k) or "-" for k in ("px", "py", "pz"))
            print(f"{r_:5d} {grid:>6} {r['variant']:12} {r['precision']:6} {f(r, 'iterations'):6.0f} "
                  f"{f(r, 'median_ms'):10.3f} {f(r, 'ms_sweep'):9.4f} {speed:8.2f} {eff:6.2f} "
                  f"{share:7.1f} {f(r, 'gbs'):8.1f} {r['verified']:>9}")
    print()

scaling(f"1. SOR strong scaling, {E['SOR_N']}^3 float (time per iteration; efficiency = speedup / ranks)",
        "mpi-sor-strong", "ms_sweep", False)
for r in rows("mpi-sor-natural"):
    print(f"  one process, natural, {r['threads']} threads: {f(r, 'ms_sweep'):.4f} ms/iter, "
          f"{f(r, 'iterations'):.0f} iterations\n")
scaling(f"2. SOR weak scaling, a box of {E['SOR_BOX']}^3 a rank (efficiency = one rank's time / R ranks')",
        "mpi-sor-weak", "ms_sweep", True)
scaling("4a. reduce strong scaling, 2^28 elements", "mpi-reduce", None, False)
print("# 4b. the all-reduce of the reduction: one element, so latency-bound")
print(f"{'ranks':>5} {'prec':6} {'comm_ms':>9} {'busbw GB/s':>11}")
for r_ in (2, 4, 8):
    for r in rows(f"mpi-reduce-{r_}"):
        size = 4 if r["precision"] == "int32" else 8
        c = f(r, "comm_ms")
        print(f"{r_:5d} {r['precision']:6} {c:9.4f} {size / (c * 1e6) * 2 * (r_ - 1) / r_:11.6f}")
print()
scaling("4c. Monte Carlo strong scaling, 128 options x 2^20 paths", "mpi-mc", None, False)
scaling("4d. STREAM triad weak scaling, 2^26 doubles a rank (GB/s is the ranks' together)",
        "mpi-stream", None, True)
print("# 5. two ranks sharing the GPU")
for name in ("mpi-gpu-one", "mpi-gpu-reduce-aware1", "mpi-gpu-reduce-aware0", "mpi-gpu-stream",
             "mpi-gpu-sor-one", "mpi-gpu-sor", "mpi-gpu-mc-one", "mpi-gpu-mc"):
    for r in rows(name):
        print(f"  {name:24} {r['variant']:8} {r['precision']:6} {f(r, 'median_ms'):9.4f} ms "
              f"{f(r, 'gbs'):8.1f} GB/s comm {f(r, 'comm_ms'):8.4f} ms result {r.get('result', '')} "
              f"{r['verified']}")
def poisson_scaling(title, prefix, weak):
    """Poisson's rows on 1, 2, 4, 8 ranks: speedup and efficiency against
    one rank (weak: per point a rank, since the sizes only nearly scale),
    and the share of a run spent in MPI_Alltoall."""
    print(f"# {title}")
    print(f"{'ranks':>5} {'dim':>3} {'N':>6} {'prec':6} {'ms/run':>10} {'speedup':>8} {'eff':>6} "
          f"{'comm %':>7} {'GB/s':>8} {'error':>9} {'verified':>9}")
    base = {}
    for r_ in (1, 2, 4, 8):
        for r in rows(f"{prefix}-{r_}"):
            n, d = f(r, "size"), f(r, "dim")
            key = (d, r["precision"])
            t = f(r, "median_ms") / (n ** d / r_ if weak else 1.0)
            base.setdefault(key, (r_, t))
            b_r, b_t = base[key]
            speed = b_t / t
            eff = speed if weak else speed / (r_ / b_r)
            share = 100 * f(r, "comm_ms") / f(r, "mean_ms")
            print(f"{r_:5d} {d:3.0f} {n:6.0f} {r['precision']:6} {f(r, 'median_ms'):10.3f} "
                  f"{speed:8.2f} {eff:6.2f} {share:7.1f} {f(r, 'gbs'):8.1f} {f(r, 'error'):9.2g} "
                  f"{r['verified']:>9}")
    print()

poisson_scaling(f"6a. Poisson strong scaling, 2-D {E['P2D'].split()[-1]}^2", "mpi-poisson2d-strong", False)
poisson_scaling(f"6b. Poisson strong scaling, 3-D {E['P3D'].split()[-1]}^3", "mpi-poisson3d-strong", False)
for name in ("mpi-poisson-one", "mpi-poisson-one3d"):
    for r in rows(name):
        print(f"  one process, {r['variant']} {r['dim']}-D {r['precision']}, {r['threads']} "
              f"threads: {f(r, 'median_ms'):.3f} ms")
print()
poisson_scaling("6c. Poisson weak scaling, 2-D (efficiency per point a rank)",
                "mpi-poisson2d-weak", True)
poisson_scaling("6d. Poisson weak scaling, 3-D (efficiency per point a rank)",
                "mpi-poisson3d-weak", True)
print("# 6e. the panel of lines (--panel, CPU) on 4 ranks")
for r in rows("mpi-poisson-panel2d") + rows("mpi-poisson-panel3d"):
    print(f"  {r['dim']}-D N={r['size']:>5} panel {r['panel']:>3}: {f(r, 'median_ms'):9.3f} ms "
          f"comm {f(r, 'comm_ms'):8.3f} ms {r['verified']}")
print("# 6f. two ranks sharing the GPU against one process's r2c (the same answers: error)")
for name in (f"mpi-gpu-poisson{d}d-{k}" for d in (2, 3) for k in ("one", "aware1", "aware0")):
    for r in rows(name):
        print(f"  {name:24} {r['variant']:4} {r['dim']}-D N={r['size']:>5} {r['precision']:6} "
              f"{f(r, 'median_ms'):9.4f} ms comm {f(r, 'comm_ms'):8.4f} ms error "
              f"{f(r, 'error'):.3g} err_linf {f(r, 'err_linf'):.3g} {r['verified']}")
PY

# The scaling views and their figures (doc/report.md: strong and weak
# scaling tables, time, efficiency and communication share over the ranks,
# the all-reduce's bus bandwidth): $OUT/mpi/report.md.
"$TB" report --outdir "$OUT" --name mpi "$OUT"/mpi-sor-strong-*.csv "$OUT"/mpi-sor-weak-*.csv \
  "$OUT"/mpi-reduce-*.csv "$OUT"/mpi-stream-*.csv || status=1
exit $status
