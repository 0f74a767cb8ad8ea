#!/bin/bash
# Our STREAM twins beside BabelStream (UoB-HPC's peer benchmark) in the same
# run, at the same array size, on both backends: its CUDA model against our
# GPU twin, its OpenMP model against our CPU twin at the same thread count.
# BabelStream is not part of twinbench: point BABELSTREAM at the src folder of
# a copy of it (kept outside the tree, or in a git-ignored folder); this
# script builds its CUDA and OpenMP models into $OUT with nvcc and g++.
#   BABELSTREAM=../BabelStream/src OUT=results/babel bash experiments/babelstream.sh
# Both take the same array size N (default 2^28 elements; BabelStream's own
# default is 2^25: N=33554432 runs both at that). Both report GB/s (10^9 bytes, no write-allocate); BabelStream's best is
# its fastest run, so ours is shown both ways: over the fastest run (min_ms,
# the like-for-like figure) and over the median. Run from the build folder
# on the GPU machine.
set -u
OUT=${OUT:-.}
mkdir -p "$OUT"
. "$(dirname "$0")/lib.sh"
BS=${BABELSTREAM:?set BABELSTREAM to BabelStream\'s src folder}
N=${N:-268435456}
THREADS=${THREADS:-$(nproc)}

echo "== building BabelStream's OpenMP and CUDA models from $BS" >&2
g++ -O3 -march=native -fopenmp -std=c++17 -DOMP -I"$BS" -I"$BS/omp" "$BS/main.cpp" \
  "$BS/omp/OMPStream.cpp" -o "$OUT/babel-omp" >"$OUT/babel-build.log" 2>&1 || status=1
if command -v nvcc >/dev/null 2>&1; then
  nvcc -O3 -std=c++17 -arch=native -DCUDA -DDEFAULT -DGRID_STRIDE --extended-lambda -I"$BS" \
    -I"$BS/cuda" "$BS/main.cpp" "$BS/cuda/CUDAStream.cu" -lnvidia-ml -o "$OUT/babel-cuda" \
    >>"$OUT/babel-build.log" 2>&1 || status=1
fi

for prec in double float; do
  flag=$([ $prec = float ] && echo --float)
  if [ -x "$OUT/babel-cuda" ]; then
    "$OUT/babel-cuda" --arraysize "$N" --numtimes 100 --csv --gigabytes $flag \
      >"$OUT/babel-cuda-$prec.csv" 2>>"$OUT/babel-run.log" || status=1
  fi
  OMP_NUM_THREADS=$THREADS OMP_PROC_BIND=spread OMP_PLACES=cores "$OUT/babel-omp" --arraysize "$N" \
    --numtimes 20 --csv --gigabytes $flag >"$OUT/babel-omp-$prec.csv" 2>>"$OUT/babel-run.log" ||
    status=1
done
# Ours over its tunings (the table below takes the fastest per operation):
# blocks, plain or streaming stores (nt: st.global.cs), 1, 2 or 4 vectors loaded per thread
# before they are stored; 2 x 4 x 2 x 3 rows per operation and precision.
bench ours-gpu run stream --backend gpu --size "$N" --precision float,double \
  --block 128,256,512,1024 --stores plain,nt --unroll 1,2,4 --repeat 100 --warmup 5
bench ours-cpu run stream --backend cpu --threads "$THREADS" --size "$N" --precision float,double \
  --repeat 20 --warmup 2

echo
echo "### $("$TB" --version) beside BabelStream, $N elements, CPU at $THREADS threads"
python3 - "$OUT" <<'PY' || status=1
import csv, os, sys
out = sys.argv[1]
ops = {"copy": "Copy", "scale": "Mul", "add": "Add", "triad": "Triad", "dot": "Dot"}
def read(path):
    """A CSV's rows from its header on: ours after '#' lines, BabelStream's
    after the lines its models print about the device."""
    if not os.path.exists(path):
        return []
    lines = [l for l in open(path) if not l.startswith("#")]
    head = next((i for i, l in enumerate(lines) if l.lower().startswith(("algo,", "function,"))), None)
    return [] if head is None else list(csv.DictReader(lines[head:]))
print(f"{'backend':7s} {'prec':6s} {'op':5s} {'ours (fastest)':>14s} {'ours (median)':>13s} "
      f"{'BabelStream':>11s} {'ratio':>6s}  our best")
for be, peer in (("gpu", "cuda"), ("cpu", "omp")):
    rows = read(os.path.join(out, f"ours-{be}.csv"))
    for prec in ("float", "double"):
        theirs = {r["function"]: float(r["max_GB_per_sec"])
                  for r in read(os.path.join(out, f"babel-{peer}-{prec}.csv"))}
        for op, name in ops.items():
            mine = [r for r in rows if r["precision"] == prec and r["op"] == op
                    and r["verified"] != "fail"]
            if not mine or name not in theirs:
                continue
            fast = max(mine, key=lambda r: float(r["bytes"]) / float(r["min_ms"]))
            g_fast = float(fast["bytes"]) / float(fast["min_ms"]) / 1e6
            g_med = max(float(r["gbs"]) for r in mine)
            what = fast["variant"] + (f" block={fast['block']}" if fast.get("block") else "") + \
                (f" stores={fast['stores']}" if fast.get("stores") else "") + \
                (f" unroll={fast['unroll']}" if fast.get("unroll") else "")
            print(f"{be:7s} {prec:6s} {op:5s} {g_fast:14.1f} {g_med:13.1f} {theirs[name]:11.1f} "
                  f"{g_fast / theirs[name]:6.3f}  {what}")
PY
exit "$status"
