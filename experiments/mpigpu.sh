#!/bin/bash
# Issue 20's study: the distributed GPU twins on a machine of several GPUs,
# one MPI rank a GPU (twinbench gives rank r of a node device r modulo the
# devices), on 1, 2, 4, ... ranks up to the machine's GPUs (doc/mpi.md).
#  1. STREAM (vec16, copy and triad, float and double, 2^28 elements a
#     rank): weak scaling, each rank its own arrays; GB/s is the ranks'
#     together (the aggregate bandwidth), efficiency = R-rank GB/s over R
#     times one rank's.
#  2. reduce (mpi, 2^29 int32 and double: int32 sums of 2^30 inputs
#     overflow): strong scaling; each rank's CUB
#     sum of its share, then the all-reduce of one element by each
#     transport (aware: CUDA-aware MPI, staged: MPI through pinned host
#     memory, nccl: NCCL; one the machine cannot do is skipped with a note);
#     its bus bandwidth in nccl-tests' convention, busbw = algbw 2 (R - 1) /
#     R with algbw = bytes / comm time (one element: latency-bound). One
#     GPU's cub beside it.
#  3. Monte Carlo (mpi, 256 options x 2^20 paths, float and double):
#     strong scaling; one GPU's fused beside it.
#  4. SOR, float, 100 iterations a solve (tol 1e-5 out of its reach, so every row
#     does the same work): weak scaling with a box of 512^3 a GPU (grid
#     1 x 1 x R), strong scaling of 1024^3 (grids 1x1xR and Rx1x1, the
#     latter's faces strided), blocking (mpi) and overlapped (mpi-overlap)
#     halos, each transport; one GPU's published (the kernel every box
#     runs) and lean (the best one-GPU sweep) beside them. Time per
#     iteration (ms_sweep); speedup = one rank's / R ranks' time per
#     iteration (weak: that ratio is the efficiency); comm share = comm_ms
#     over the mean time of a run.
#  5. Spectral Poisson 3-D (mpi: slabs of the z planes, two all-to-alls a
#     solve) at 1024^3 float, unverified (--no-verify: the verifier's
#     long-double reference FFT of 2^30 points takes longer than the study),
#     and at 512^3 float and double, verified; one GPU's r2c beside them.
# At full size it took 21 minutes on 4 H200s (2026-11-29, MEMWARM=160
# included; each rank builds and verifies the whole 1024^3 SOR grid for
# every row): run it in parts of a time limit with RESUME=1, each part going
# on where the last stopped.
# Run from the build folder (where ./twinbench is), on a machine with GPUs
# and MPI; without a GPU (or without mpirun) it exits 77 with one line.
# Results in $OUT: every step's CSV, table and notes (NAME.csv, .txt,
# .log), tables.txt (the tables printed at the end) and mpigpu-summary.csv
# (a line a row: step, variant, transport, precision, ranks, median_ms,
# speedup, efficiency, comm_share = comm_ms / mean_ms, gbs, verified, then
# the grid and the figure the speedup compares: metric and value),
# and mpigpu/report.md, `twinbench report` over the steps' rows (scaling
# tables and figures, rooflines).
# Env: OUT, TB (lib.sh), GPUS (default: nvidia-smi's count), RESUME=1 (keep
# the steps whose CSV has rows), QUICK=1 (SOR 256^3 a GPU and 512^3,
# Poisson 512^3 and 256^3, 30 iterations: about 10 minutes on 2 GPUs, the
# steps' start-up, problems and verification most of it), MEMWARM=GiB
# (touch that much host memory first: on machines whose memory grows as it
# is used, the device tool's, twinbench's check of the available memory
# otherwise refuses the large problems); the NVLink multicast switches
# below and TB_MPI_CUDA_AWARE, where set, reach every rank (mpirun -x).
set -uo pipefail
G=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
[ "${G:-0}" -ge 1 ] 2>/dev/null ||
  { echo "mpigpu: no GPU (nvidia-smi -L lists none): skipped" >&2; exit 77; }
command -v mpirun >/dev/null 2>&1 || { echo "mpigpu: no mpirun: skipped" >&2; exit 77; }
OUT=${OUT:-.}
mkdir -p "$OUT" || exit 1
. "$(dirname "$0")/lib.sh"
RANKS=
for r in 1 2 4 8 16; do [ "$r" -le "$G" ] && RANKS="$RANKS $r"; done
CORES=$(nproc)
# NVLink multicast stays off on shared machines (the device tool's rule),
# for NCCL and whatever else a rank starts.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
# mpirun -x passes each on to the ranks; only those set (a name that is not
# set makes Open MPI warn in every step's log).
XENV=()
for v in NCCL_NVLS_ENABLE TORCH_SYMM_MEM_DISABLE_MULTICAST NVSHMEM_DISABLE_NVLS \
  TB_MPI_CUDA_AWARE; do
  [ -n "${!v+set}" ] && XENV+=(-x "$v")
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_odls_base_sigkill_timeout=${OMPI_MCA_odls_base_sigkill_timeout:-30}
if [ "${QUICK:-0}" = 1 ]; then
  BOX=256 STRONG=512 IT=30 PBIG=512 PSMALL=256
else
  BOX=512 STRONG=1024 IT=100 PBIG=1024 PSMALL=512
fi
XP=(--transport "aware,staged,nccl")
export BOX STRONG IT PBIG PSMALL

if [ "${MEMWARM:-0}" -gt 0 ]; then
  echo "== touching ${MEMWARM} GiB of host memory" >&2
  python3 -c "
import sys
keep = [bytearray(b'\x01') * (1 << 30) for _ in range(int(sys.argv[1]))]
" "$MEMWARM" || echo "mpigpu: the memory warm-up failed; the large steps may be refused" >&2
fi

# gbench NAME R ARGS...: a run on R ranks, one a GPU, CORES / R threads each
# (at least one).
gbench() {
  name=$1 r=$2
  shift 2
  kept "$name" && return 0
  echo "== $name: mpirun -np $r twinbench $*" >&2
  t=$((CORES / r))
  [ "$t" -ge 1 ] || t=1
  timeout 1200 mpirun --oversubscribe --bind-to none -np "$r" "${XENV[@]}" "$TB" "$@" \
    --threads "$t" --output "$OUT/$name.csv" >"$OUT/$name.txt" 2>"$OUT/$name.log" ||
    { echo "twinbench on $r ranks exited $? for $name (see $OUT/$name.log)" >&2; status=1; }
}

SOR=(run sor --backend gpu --precision float -P tol=1e-5 -P "maxiter=$IT" --repeat 3 --warmup 1)
for r in $RANKS; do
  gbench "stream-$r" "$r" run stream --backend gpu --variant vec16 -P op=copy,triad \
    --precision float,double --size 2^28 --repeat 20
  gbench "reduce-$r" "$r" run reduce --backend gpu --variant mpi "${XP[@]}" \
    --precision int32,double --size 2^29 --repeat 20
  gbench "mc-$r" "$r" run montecarlo --backend gpu --variant mpi --precision float,double \
    --size 256 -P paths=2^20 --repeat 10
  gbench "sorweak-$r" "$r" "${SOR[@]}" --variant mpi,mpi-overlap "${XP[@]}" -P "nx=$BOX" \
    -P "ny=$BOX" -P nz=$((BOX * r)) -P "pgrid=1x1x$r"
  grids=1x1x$r
  [ "$r" -gt 1 ] && grids="$grids,${r}x1x1"
  gbench "sorstrong-$r" "$r" "${SOR[@]}" --variant mpi,mpi-overlap "${XP[@]}" --size "$STRONG" \
    -P "pgrid=$grids"
  gbench "poisson$PSMALL-$r" "$r" run poisson --backend gpu --variant mpi "${XP[@]}" --dim 3 \
    --size "$PSMALL" --precision float,double --repeat 5 --warmup 1
  gbench "poisson$PBIG-$r" "$r" run poisson --backend gpu --variant mpi "${XP[@]}" --dim 3 \
    --size "$PBIG" --precision float --repeat 5 --warmup 1 --no-verify
done
# One GPU's own twins, the baselines the tables set beside the ranks.
gbench one-reduce 1 run reduce --backend gpu --variant cub --precision int32,double --size 2^29 \
  --repeat 20
gbench one-mc 1 run montecarlo --backend gpu --variant fused --precision float,double --size 256 \
  -P paths=2^20 --repeat 10
gbench one-sorweak 1 "${SOR[@]}" --variant published,lean -P "nx=$BOX" -P "ny=$BOX" -P "nz=$BOX"
gbench one-sorstrong 1 "${SOR[@]}" --variant published,lean --size "$STRONG"
gbench "one-poisson$PSMALL" 1 run poisson --backend gpu --variant r2c --dim 3 --size "$PSMALL" \
  --precision float,double --repeat 5 --warmup 1
gbench "one-poisson$PBIG" 1 run poisson --backend gpu --variant r2c --dim 3 --size "$PBIG" \
  --precision float --repeat 5 --warmup 1 --no-verify

python3 - "$OUT" "$RANKS" <<'PY' | tee "$OUT/tables.txt" || status=1
import csv, math, os, pathlib, sys
out, ranks = pathlib.Path(sys.argv[1]), [int(r) for r in sys.argv[2].split()]
E = os.environ

def rows(name):
    """The rows of OUT/NAME.csv (none when the step wrote no file); a
    column a short row lacks reads as empty."""
    p = out / f"{name}.csv"
    if not p.exists():
        return []
    with p.open() as fh:
        return [{k: v or "" for k, v in r.items() if k is not None}
                for r in csv.DictReader(x for x in fh if x.strip() and x[0] != "#")]

def f(r, k):
    """Column k of row r as a number, NaN when empty or absent."""
    try:
        return float(r.get(k) or "nan")
    except ValueError:
        return math.nan

def div(a, b):
    """a / b, NaN where b is zero (a row that measured nothing)."""
    return a / b if b else math.nan

summary = []

def study(title, step, metric, weak, extra=None, baseline=None):
    """Rows of step-R for every R: metric (a time, or GB/s where weak is
    'gbs') against the one-rank row of the same variant, transport,
    precision and operation (every grid of R ranks against one rank's); the
    one-GPU baseline rows after."""
    print(f"# {title}")
    print(f"{'R':>2} {'variant':12} {'transport':9} {'prec':6} {'grid':6} {'median ms':>10} "
          f"{metric:>9} {'speedup':>8} {'eff':>5} {'comm %':>7} {'GB/s':>8} {'verified':>10}"
          + (f" {extra:>10}" if extra else ""))
    base = {}
    for r_ in ranks:
        for r in rows(f"{step}-{r_}"):
            grid = "x".join(r.get(k, "") for k in ("px", "py", "pz")) if r.get("px") else "-"
            key = (r.get("variant", ""), r.get("transport", ""), r.get("precision", ""),
                   r.get("op", ""))
            m = f(r, metric)
            if r_ == ranks[0]:
                base.setdefault(key, (r_, m))
            b_r, b_m = base.get(key, (math.nan, math.nan))
            if weak == "gbs":
                speed = div(m, b_m)
                eff = div(speed * b_r, r_)
            else:
                speed = div(b_m, m)
                eff = speed if weak else div(speed * b_r, r_)
            share = div(f(r, "comm_ms"), f(r, "mean_ms"))
            v = r.get("variant", "") + ("/" + r["op"] if r.get("op") else "")
            print(f"{r_:2d} {v:12} {r.get('transport', ''):9} {r.get('precision', ''):6} "
                  f"{grid:6} "
                  f"{f(r, 'median_ms'):10.4g} {m:9.4g} {speed:8.2f} {eff:5.2f} {100 * share:7.1f} "
                  f"{f(r, 'gbs'):8.1f} {r.get('verified', ''):>10}"
                  + (f" {f(r, extra):10.4g}" if extra else ""))
            summary.append([step, v, r.get("transport", ""), r.get("precision", ""), r_,
                            r.get("median_ms", ""), f"{speed:.4f}", f"{eff:.4f}", f"{share:.4f}",
                            r.get("gbs", ""), r.get("verified", ""), grid, metric, f"{m:.6g}"])
    for name in baseline or []:
        for r in rows(name):
            mb = metric if r.get(metric) else "median_ms"
            print(f" 1 {r.get('variant', ''):12} {'(1 GPU)':9} {r.get('precision', ''):6} {'-':6} "
                  f"{f(r, 'median_ms'):10.4g} {f(r, mb):9.4g} "
                  f"{'':8} {'':5} {'':7} {f(r, 'gbs'):8.1f} {r.get('verified', ''):>10}")
            summary.append([name, r.get("variant", ""), "", r.get("precision", ""), 1,
                            r.get("median_ms", ""), "", "", "", r.get("gbs", ""),
                            r.get("verified", ""), "-", mb, r.get(mb, "")])
    print()

study("1. STREAM vec16, 2^28 elements a rank (weak: GB/s of all ranks; eff = GB/s / (R x one rank's))",
      "stream", "gbs", "gbs")
study("2. reduce mpi, 2^29 elements (strong)", "reduce", "median_ms", False, "comm_ms",
      ["one-reduce"])
print("# 2b. the all-reduce of one element (latency-bound): algbw = bytes / comm time, "
      "busbw = algbw 2 (R-1) / R")
print(f"{'R':>2} {'transport':9} {'prec':6} {'comm ms':>9} {'algbw GB/s':>11} {'busbw GB/s':>11}")
for r_ in ranks[1:]:
    for r in rows(f"reduce-{r_}"):
        size = 4 if r.get("precision") in ("int32", "float") else 8
        c = f(r, "comm_ms")
        alg = div(size, c * 1e6)
        print(f"{r_:2d} {r.get('transport', ''):9} {r.get('precision', ''):6} {c:9.4f} "
              f"{alg:11.4g} {alg * 2 * (r_ - 1) / r_:11.4g}")
print()
study("3. Monte Carlo mpi, 256 options x 2^20 paths (strong)", "mc", "median_ms", False, None,
      ["one-mc"])
study(f"4a. SOR float, a box of {E['BOX']}^3 a GPU (weak; {E['IT']} iterations; eff = one rank's "
      "time per iteration / R ranks')", "sorweak", "ms_sweep", True, "halo_bytes",
      ["one-sorweak"])
study(f"4b. SOR float, {E['STRONG']}^3 (strong; {E['IT']} iterations)", "sorstrong", "ms_sweep",
      False, "halo_bytes", ["one-sorstrong"])
study(f"5a. Poisson 3-D {E['PSMALL']}^3 (strong)", f"poisson{E['PSMALL']}", "median_ms", False,
      "error", [f"one-poisson{E['PSMALL']}"])
study(f"5b. Poisson 3-D {E['PBIG']}^3 float (strong, unverified)", f"poisson{E['PBIG']}",
      "median_ms", False, None, [f"one-poisson{E['PBIG']}"])
with (out / "mpigpu-summary.csv").open("w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["step", "variant", "transport", "precision", "ranks", "median_ms", "speedup",
                "efficiency", "comm_share", "gbs", "verified", "grid", "metric", "value"])
    w.writerows(summary)
PY

# The scaling views, rooflines and figures of every step (doc/report.md):
# $OUT/mpigpu/report.md (python3 with matplotlib, as the GPU machines have).
shopt -s nullglob
steps=("$OUT"/{stream,reduce,mc,sorweak,sorstrong,poisson"$PSMALL",poisson"$PBIG"}-[0-9]*.csv)
shopt -u nullglob
[ ${#steps[@]} -eq 0 ] || "$TB" report --outdir "$OUT" --name mpigpu "${steps[@]}" || status=1
exit "$status"
