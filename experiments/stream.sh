#!/bin/bash
# The foundation's benchmark: STREAM on both backends with a CPU thread sweep,
# the ceilings measured in the same run, and the two acceptance ratios:
#   CPU triad at the full core count / the CPU's triad ceiling (>= 0.9)
#   best GPU triad / the GPU's triad ceiling (>= 0.95)
# Run from the build folder (where ./twinbench is). Full results go to $OUT.
set -euo pipefail
OUT=${OUT:-.}
. "$(dirname "$0")/lib.sh"

"$TB" info | tee "$OUT/stream-info.txt"
"$TB" run stream --backend cpu,gpu --threads sweep --precision float,double \
  --output "$OUT/stream.csv" --pivot op+backend+precision:threads:gbs
echo
echo "# acceptance ratios (from $OUT/stream.csv, all measured in that one run)"
python3 - "$OUT/stream.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
cores = max(int(r["threads"]) for r in rows if r["backend"] == "cpu")
for prec in ("float", "double"):
    cpu = [r for r in rows if r["backend"] == "cpu" and r["op"] == "triad"
           and r["precision"] == prec and int(r["threads"]) == cores]
    gpu = [r for r in rows if r["backend"] == "gpu" and r["op"] == "triad" and r["precision"] == prec]
    c = max(cpu, key=lambda r: float(r["gbs"]))
    g = max(gpu, key=lambda r: float(r["gbs"]))
    print(f"{prec:6s} CPU triad {cores} threads: {float(c['gbs']):8.1f} GB/s = {float(c['roofline']):.3f} x the triad ceiling {float(c['ceiling_gbs']):.1f} GB/s")
    print(f"{prec:6s} GPU triad best ({g['variant']} b={g['block']} g={g['grid']}): {float(g['gbs']):8.1f} GB/s = {float(g['roofline']):.3f} x the triad ceiling {float(g['ceiling_gbs']):.1f} GB/s")
bad = [r for r in rows if r["verified"] != "pass"]
print(f"{len(rows)} rows, {len(bad)} not verified")
PY
