#!/bin/bash
# Every family on both backends, each row on its roofline, each speedup
# beside the ratio the hardware predicts (issue 11's benchmark; issue 13
# reads it too). First the ceilings of the CPU at one thread and at every
# core, and of the GPU; then each family at a size past the caches, the CPU
# at every core; last, a short table: per family, backend and precision,
# the best row (by median), its roofline, bound and flags, and the kernel
# speedup beside the hardware's. Run from the build folder on the GPU
# machine:
#   OUT=results/roofline bash experiments/roofline.sh
# Full CSVs, tables and logs go to $OUT (about five minutes on an H100
# machine with 16 cores).
set -u
OUT=${OUT:-.}
mkdir -p "$OUT"
. "$(dirname "$0")/lib.sh"

CORES=${CORES:-cores}
echo "== ceilings: twinbench info --ceilings -t 1,$CORES" >&2
"$TB" info --ceilings -t "1,$CORES" >"$OUT/ceilings.txt" 2>"$OUT/ceilings.log" || status=1

bench stream run stream --threads "$CORES" --precision float,double
bench reduce run reduce --threads "$CORES" --precision int32,double --size 2^26
bench blackscholes run blackscholes --threads "$CORES" --precision float,double --size 2^24
bench montecarlo run montecarlo --threads "$CORES" --precision float,double
bench bridge run bridge --threads "$CORES" --precision float,double

echo
echo "### $("$TB" --version): ceilings (GB/s; GFLOP/s)"
cat "$OUT/ceilings.txt"
echo
python3 - "$OUT" <<'PY' || status=1
import csv, os, sys
out = sys.argv[1]
def rows(fam):
    path = os.path.join(out, fam + ".csv")
    if not os.path.exists(path):
        return []
    return list(csv.DictReader(l for l in open(path) if not l.startswith("#")))
fams = ["stream", "reduce", "blackscholes", "montecarlo", "bridge"]
print("### the best row of each family, backend, precision (and STREAM op), by median, on its roofline")
print(f"{'family':13s} {'prec':6s} {'be':3s} {'op':5s} {'best':34s} {'ms':>10s} {'roofline':>8s} bound   flags")
for fam in fams:
    best = {}
    for r in rows(fam):
        if r["verified"] == "fail":
            continue
        key = (r["precision"], r["backend"], r.get("op", "-"))
        if key not in best or float(r["median_ms"]) < float(best[key]["median_ms"]):
            best[key] = r
    for (prec, be, op), r in sorted(best.items()):
        what = r["variant"] + "".join(f" {k}={r[k]}" for k in ("threads", "block", "prefetch", "width")
                                      if r.get(k))
        print(f"{fam:13s} {prec:6s} {be:3s} {op:5s} {what:34s} {float(r['median_ms']):10.4g} "
              f"{float(r['roofline'] or 'nan'):8.3f} {r['bound']:7s} {r['flags']}")
print()
print("### rows above 1.05 of their roofline, and how many of them are unflagged (none may be)")
for fam in fams:
    above = [r for r in rows(fam) if r["roofline"] and float(r["roofline"]) > 1.05]
    bad = [r for r in above if "above-ceiling" not in r["flags"]]
    print(f"{fam:13s} {len(rows(fam)):4d} rows, {len(above)} above 1.05, {len(bad)} of them unflagged")
    if bad:
        sys.exit(1)
PY
echo
echo "### speedups: kernel (CPU best median / GPU best median) beside hardware (their roofline times' ratio)"
for fam in stream reduce blackscholes montecarlo bridge; do
  echo "-- $fam"
  sed -n '/^# speedup: /,/^$/p' "$OUT/$fam.txt" | grep -v '^#' | grep -v '^$'
done
exit "$status"
