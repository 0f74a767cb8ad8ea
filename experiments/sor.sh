#!/bin/bash
# Issue 15's benchmark: red-black SOR on both backends.
#  0. The stream sweep's tuning at 512^3, float and double: block (bx x by),
#     bx and zchunk swept; the best setting of each precision (the least
#     median) is used below.
#  1. The published sizes 300^3..600^3 in float (the manufactured problem, tol
#     1e-5, the residual checked every 10 iterations): each SOR variant's time
#     per iteration and to convergence, beside the seeds' published GPU times
#     to convergence (2.5, 6.0, 11.4, 19.3 s). The CPU (wave) runs once per size;
#     Jacobi is left out here (its O(n^2) iterations would take hours).
#  2. 512^3 in float and double against the memory ceiling of the same run:
#     the byte floor per update (v read and written, f, the material byte)
#     times the updates, over the time (the column roofline); the issue asks
#     >= 0.8 for the best GPU variant and the CPU at 16 threads. tol 1e-2
#     keeps the CPU's repeats short; the sweep rate does not depend on it.
#  3. Jacobi against SOR, time to solution at 32^3, 64^3 (both backends) and
#     128^3 (GPU), with maxiter raised so that Jacobi's O(n^2) iterations
#     converge.
# Run from the build folder (where ./twinbench is). Full results go to $OUT.
set -uo pipefail
OUT=${OUT:-.}
. "$(dirname "$0")/lib.sh"

CORES=$(nproc)

bench sor-tune run sor --backend gpu --variant stream --precision float,double --size 512 \
  -P tol=1e-2 --block 256,512,1024 --bx 32,64,128 --zchunk 16,32,64,128 \
  --repeat 3 --warmup 1
# best PRECISION: the stream row of least median in sor-tune, as options.
best() {
  python3 - "$OUT/sor-tune.csv" "$1" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))
        if r["precision"] == sys.argv[2] and r["verified"] == "pass"]
if rows:
    r = min(rows, key=lambda r: float(r["median_ms"]))
    print(f"--block {r['block']} --bx {r['bx']} --zchunk {r['zchunk']}")
else:
    print("--block 256 --bx 32 --zchunk 32")
PY
}
TUNE_F=$(best float)
TUNE_D=$(best double)
echo "== stream's best: float $TUNE_F, double $TUNE_D" >&2

# shellcheck disable=SC2086 # the tuning options split into words
bench sor-published run sor --backend gpu --variant published,split,fused,stream \
  --precision float --size 300,400,500,600 --repeat 3 --warmup 1 $TUNE_F
# The CPU's one-pass sweep only: the two-pass ones take minutes a solve at 600^3.
bench sor-published-cpu run sor --backend cpu --threads "$CORES" --variant wave \
  --precision float --size 300,400,500,600 --repeat 1 --warmup 0
# shellcheck disable=SC2086
bench sor-512 run sor --backend gpu --variant published,split,fused,stream --precision float \
  --size 512 -P tol=1e-2 --repeat 3 --warmup 1 $TUNE_F
# shellcheck disable=SC2086
bench sor-512d run sor --backend gpu --variant published,split,fused,stream --precision double \
  --size 512 -P tol=1e-2 --repeat 3 --warmup 1 $TUNE_D
# The CPU once a row (natural, the old baseline, takes tens of seconds; in float only).
bench sor-512-cpu run sor --backend cpu --threads "$CORES" --variant natural,split,wave \
  --precision float --size 512 -P tol=1e-2 --repeat 1 --warmup 0
bench sor-512d-cpu run sor --backend cpu --threads "$CORES" --variant split,wave \
  --precision double --size 512 -P tol=1e-2 --repeat 1 --warmup 0
bench sor-jacobi run sor --backend cpu,gpu --threads "$CORES" --precision float --size 32,64 \
  -P maxiter=1000000 --repeat 1 --warmup 0
bench sor-jacobi-128 run sor --backend gpu --precision float --size 128 -P maxiter=1000000 \
  --repeat 1 --warmup 0

python3 - "$OUT" <<'PY'
import csv, os, sys
out = sys.argv[1]
def rows(name):
    path = os.path.join(out, name + ".csv")
    if not os.path.exists(path):
        return []
    return list(csv.DictReader(l for l in open(path) if not l.startswith("#")))
def f(r, k):
    try:
        return float(r[k])
    except (KeyError, ValueError):
        return float("nan")

published = {300: 2.5, 400: 6.0, 500: 11.4, 600: 19.3}
print("# 1. published sizes, float: time per iteration (ms) and to convergence (s)")
print(f"{'size':>5} {'backend':8} {'variant':10} {'iters':>6} {'ms/iter':>9} {'solve s':>9} {'GLUP/s':>8} {'published s':>12} {'verified':>9}")
for r in sorted(rows("sor-published") + rows("sor-published-cpu"),
                key=lambda r: (int(r["size"]), r["backend"], r["variant"])):
    n = int(r["size"])
    print(f"{n:5d} {r['backend']:8} {r['variant']:10} {f(r, 'iterations'):6.0f} {f(r, 'ms_sweep'):9.3f} "
          f"{f(r, 'median_ms') / 1e3:9.3f} {f(r, 'glups'):8.2f} {published.get(n, float('nan')):12.1f} {r['verified']:>9}")

print("# stream's tuning at 512^3 (best five of each precision)")
tune = rows("sor-tune")
for prec in ("float", "double"):
    for r in sorted((r for r in tune if r["precision"] == prec), key=lambda r: f(r, "median_ms"))[:5]:
        print(f"{prec:9} block {r['block']:>5} bx {r['bx']:>4} zchunk {r['zchunk']:>4} "
              f"{f(r, 'ms_sweep'):9.3f} ms/iter {f(r, 'roofline'):7.3f} of the ceiling")
print()
print("# 2. 512^3: GB/s on the byte floor over the memory ceiling of the row's read:write mix, same run")
print(f"{'precision':9} {'backend':8} {'variant':10} {'B/update':>9} {'GB/s':>8} {'ceiling':>8} {'of mem':>7} {'roofline':>9} {'ms/iter':>9} {'verified':>9}")
def mem(r):
    return f(r, "gbs") / f(r, "ceiling_gbs")
best = {}
for r in rows("sor-512") + rows("sor-512d") + rows("sor-512-cpu") + rows("sor-512d-cpu"):
    print(f"{r['precision']:9} {r['backend']:8} {r['variant']:10} {f(r, 'bytes_update'):9.0f} {f(r, 'gbs'):8.1f} "
          f"{f(r, 'ceiling_gbs'):8.1f} {mem(r):7.3f} {f(r, 'roofline'):9.3f} {f(r, 'ms_sweep'):9.3f} {r['verified']:>9}")
    key = (r["precision"], r["backend"])
    if key not in best or mem(r) > mem(best[key]):
        best[key] = r
for (prec, be), r in sorted(best.items()):
    verdict = "meets" if mem(r) >= 0.8 else "below"
    print(f"best {be} {prec}: {r['variant']} at {mem(r):.3f} of the memory ceiling ({verdict} the 0.8 target)")

print()
print("# 3. Jacobi against SOR, float, time to solution")
print(f"{'size':>5} {'backend':8} {'variant':10} {'iters':>7} {'solve ms':>10} {'ms/iter':>9} {'verified':>9}")
for r in sorted(rows("sor-jacobi") + rows("sor-jacobi-128"),
                key=lambda r: (int(r["size"]), r["backend"], r["variant"])):
    print(f"{int(r['size']):5d} {r['backend']:8} {r['variant']:10} {f(r, 'iterations'):7.0f} "
          f"{f(r, 'median_ms'):10.2f} {f(r, 'ms_sweep'):9.4f} {r['verified']:>9}")
PY
exit $status
