#!/bin/bash
# The reduction study on a GPU machine (16-core Xeon + H200), run from the
# build folder:
#   OUT=results/reduce bash experiments/reduce.sh
# (a) the ladder, rows = variant, columns = threads per block, cells = GB/s,
#     at 2^22 and 2^28 int32 (the two published tables), with each variant's
#     best block and its speedup over reduce0 (the 2008 slides' kernel 1);
# (b) the best own GPU configuration against CUB at 2^28 and 2^22 int32,
#     measured in the same run, and their ratio (targets: >= 1.0 and >= 0.9);
# (c) the CPU variants at 16 threads against the read-only ceiling of that run
#     (target: the best >= 0.9);
# (d) the float error of each summation order as n grows (2^16 .. 2^26).
# Full CSV and logs go to $OUT; a short summary is printed last. About a
# minute on an H200 (2^28 runs take well under a millisecond each, so the
# repeats are generous).
set -u
OUT=${OUT:-.}
mkdir -p "$OUT"
. "$(dirname "$0")/lib.sh"



GRIDS=auto,64,256,1024,4096
ALL_GPU=reduce0,reduce1,reduce2,reduce3,reduce4,reduce5,reduce6,shfl,vec16,onepass,cub

# (a) The ladders. reduce6, shfl, vec16 and onepass also sweep the grid; a
# cell is the best over the grids.
bench ladder4m run reduce --backend gpu --precision int32 --size ladder4m --variant "$ALL_GPU" \
  --block sweep --grid "$GRIDS" --repeat 50 --warmup 5 --pivot variant:block:gbs
bench ladder268m run reduce --backend gpu --precision int32 --size ladder268m --variant "$ALL_GPU" \
  --block sweep --grid "$GRIDS" --repeat 20 --warmup 3 --pivot variant:block:gbs

# (b) The fastest own variants against CUB, both sizes in one run, with a
# finer grid sweep.
bench vs_cub run reduce --backend gpu --precision int32 --size ladder4m,ladder268m \
  --variant reduce6,shfl,vec16,onepass,cub --block 128,256,512,1024 \
  --grid auto,132,264,528,1056,2112,4224,8448 --repeat 50 --warmup 5 --pivot size+variant:block:gbs

# (c) The CPU at 16 threads (serial at one) against the read-only ceiling.
bench cpu run reduce --backend cpu --precision int32 --size ladder268m --threads 16 \
  --repeat 10 --warmup 2 --pivot variant:threads:roofline

# (d) Float error growth: one running sum against blocked, pairwise and tree orders.
bench float_error run reduce --backend cpu,gpu --precision float --size 2^16,2^18,2^20,2^22,2^24,2^26 \
  --variant serial,omp,simd,pairwise,reduce2,shfl,onepass,cub --threads 16 --block 256 \
  --repeat 3 --warmup 1 --pivot variant:size:error

# ---- The summary ---------------------------------------------------------
echo
echo "### (a) reduction ladder, int32, GB/s by threads per block ('gpu' = cub; ratio = over reduce0)"
for t in ladder4m ladder268m; do
  echo "-- $t"
  pivot $t
done

echo "### per variant at 2^28: best configuration, launches, registers, theoretical occupancy"
f=$OUT/ladder268m.csv
if [ -s "$f" ]; then
  awk -F, -v va="$(csv_col "$f" variant)" -v bl="$(csv_col "$f" block)" -v gr="$(csv_col "$f" grid)" \
    -v gb="$(csv_col "$f" gbs)" -v la="$(csv_col "$f" launches)" -v rg="$(csv_col "$f" regs)" \
    -v oc="$(csv_col "$f" occupancy)" -v ve="$(csv_col "$f" verified)" '
    '"$CSV_ROW"' && $ve == "pass" && (!($va in best) || $gb > best[$va]) {
      if (!($va in best)) order[n++] = $va
      best[$va] = $gb; line[$va] = sprintf("%-8s %8.1f %6s %6s %8s %5s %9s", $va, $gb, $bl, $gr, $la, $rg, $oc)
    }
    END {
      printf "%-8s %8s %6s %6s %8s %5s %9s\n", "variant", "GB/s", "block", "grid", "launches", "regs", "occupancy"
      for (i = 0; i < n; i++) print line[order[i]]
    }' "$f"
fi

echo
echo "### (b) best own GPU configuration vs CUB, int32, same run"
f=$OUT/vs_cub.csv
if [ -s "$f" ]; then
  awk -F, -v va="$(csv_col "$f" variant)" -v sz="$(csv_col "$f" size)" -v bl="$(csv_col "$f" block)" \
    -v gr="$(csv_col "$f" grid)" -v gb="$(csv_col "$f" gbs)" -v ve="$(csv_col "$f" verified)" '
    '"$CSV_ROW"' && $ve == "pass" {
      if ($va == "cub") { if ($gb > cub[$sz]) cub[$sz] = $gb }
      else if ($gb > own[$sz]) { own[$sz] = $gb; what[$sz] = $va " block " $bl " grid " $gr }
      sizes[$sz] = 1
    }
    END {
      for (s in sizes)
        printf "n = %-10s own best %8.1f GB/s (%s)  cub %8.1f GB/s  ratio %.3f (target %s)\n",
               s, own[s], what[s], cub[s], (cub[s] > 0 ? own[s] / cub[s] : 0),
               (s + 0 >= 268435456 ? ">= 1.0" : ">= 0.9")
    }' "$f" | sort -t= -k2 -n
fi

echo
echo "### (c) CPU at 16 threads (serial: 1), int32 2^28: fraction of the read-only ceiling"
pivot cpu
f=$OUT/cpu.csv
if [ -s "$f" ]; then
  awk -F, -v va="$(csv_col "$f" variant)" -v gb="$(csv_col "$f" gbs)" -v li="$(csv_col "$f" ceiling_gbs)" \
    -v fr="$(csv_col "$f" roofline)" -v th="$(csv_col "$f" threads)" -v ve="$(csv_col "$f" verified)" '
    '"$CSV_ROW"' && $ve == "pass" && $fr > best { best = $fr; b = $va " at " $th " threads"; g = $gb; l = $li }
    END { printf "best: %s, %.1f GB/s of a %.1f GB/s read-only ceiling = %.3f (target >= 0.9)\n", b, g, l, best }' "$f"
fi

echo
echo "### (d) float: error |sum - ref| / sum|x| by n (CPU at 16 threads, GPU at block 256)"
pivot float_error
exit $status
