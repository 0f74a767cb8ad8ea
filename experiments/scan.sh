#!/bin/bash
# The scan family's study on a GPU machine (16-core Xeon + H100/H200), run
# from the build folder:
#   OUT=results/scan bash experiments/scan.sh
# (a) prefix sums at 2^28 int32 and float: the best own GPU scan (decoupled
#     look-back over blocks, items per thread, 16-byte or element-wide
#     accesses and the look-back's backoff; reduce-then-scan over blocks and
#     items) against CUB DeviceScan in the same run (target: >= 1.0), with
#     pointer jumping's cost beside them (ceil(log2 n) = 28 launches);
# (b) stream compaction at 2^28 (keep half): the fused one-pass (over the
#     same tuning) and mark-scan-scatter against CUB DeviceSelect::If in the
#     same run (target: >= 1.0);
# (c) the CPU's blocked two-pass scan at 16 threads against its memory
#     ceiling (the 1:1 copy ceiling of the same run; target >= 0.8), beside the
#     serial scan and pointer jumping, over the tile size and the way a block
#     finds its offset (a barrier a round, or look-back between blocks);
# (d) list ranking at 2^24 and 2^27 nodes on both backends: the serial walk,
#     Wyllie's pointer jumping and Helman-JaJa over the splitters' spacing,
#     each row's fraction of its backend's gather ceiling measured in the
#     same run (random 4-byte reads, 32 bytes a read: the unit of the rows'
#     GB/s); and a random tree's depths by Wyllie's pointer jumping against
#     the serial walk.
# (e) the series of 1/i^2 to 2^30 terms: the seeds' OpenMP example at 16
#     threads beside the GPU's grid-stride sum, compute-bound (held against
#     the FMA ceiling of the precision; the division bounds them both).
# (f) the Irwin-Hall CDF of 2^26 samples at 100 thresholds: a count per
#     threshold (100 passes) against one histogram pass, both backends.
# Full CSV and logs go to $OUT; a short summary is printed last. A few
# minutes (the serial list walk at 2^27 takes about ten seconds a run).
set -u
OUT=${OUT:-.}
mkdir -p "$OUT"
. "$(dirname "$0")/lib.sh"

# (a) Prefix sums at 2^28, both precisions and all GPU variants in one run.
bench scan_gpu run scan --backend gpu --precision int32,float --size scan268m \
  --variant hillis,rts,lookback,cub --block 128,256,512 --items 8,12,16,24 \
  --access scalar,vec16 --backoff 0,32,128 --repeat 20 --warmup 3 \
  --pivot precision+variant:block:gbs

# (b) Compaction at 2^28, keeping half, both precisions.
bench compact_gpu run compact --backend gpu --precision int32,float --size 2^28 --keep 0.5 \
  --variant mss,onepass,cub --block 128,256,512 --items 8,12,16,24 --access scalar,vec16 \
  --backoff 0,32,128 --repeat 20 --warmup 3 --pivot precision+variant:block:gbs

# (c) The CPU at 16 threads (serial at one) against the ceilings of the run.
bench scan_cpu run scan --backend cpu --precision int32,float --size scan268m --threads 16 \
  --tile 16384,32768,65536,131072,262144 --sync barrier,lookback --repeat 10 --warmup 2 \
  --pivot precision+variant:tile:roofline

# (d) List ranking at 2^24 and 2^27 nodes on both backends, and a random
# tree's depths (Wyllie against the serial walk).
bench listrank run listrank --backend cpu,gpu --size list16m,list134m --threads 16 \
  --spacing 16,64,256,1024,4096 --repeat 3 --warmup 1 --pivot size+variant:spacing:roofline
bench treedepth run listrank --backend cpu,gpu --shape tree --size list16m,list134m \
  --variant walk,wyllie --threads 16 --repeat 3 --warmup 1 --pivot size+variant:backend:roofline

# (e) The series, both backends and precisions.
bench series run series --backend cpu,gpu --precision float,double --size 2^30 --threads 16 \
  --block 256 --repeat 5 --warmup 1 --pivot precision+variant:backend:gflops

# (f) The CDF, both methods and backends.
bench cdf run cdf --backend cpu,gpu --precision float,double --size 2^26 --threads 16 \
  --block 256 --repeat 5 --warmup 1 --pivot precision+variant:backend:gbs

# ---- The summary ---------------------------------------------------------
# best FILE: per precision (or size), the best verified GB/s of each variant.
best() {
  f=$OUT/$1.csv
  [ -s "$f" ] || return
  awk -F, -v k="$(csv_col "$f" "$2")" -v va="$(csv_col "$f" variant)" \
    -v gb="$(csv_col "$f" gbs)" -v ve="$(csv_col "$f" verified)" -v bl="$(csv_col "$f" block)" \
    -v it="$(csv_col "$f" items)" -v la="$(csv_col "$f" launches)" \
    -v ac="$(csv_col "$f" access)" -v bo="$(csv_col "$f" backoff)" '
    '"$CSV_ROW"' && ($ve == "pass" || $ve == "unverifiable") {
      key = $k; if (!(key in seen)) { seen[key] = 1; keys[nk++] = key }
      if ($gb > g[key, $va]) { g[key, $va] = $gb; cfg[key, $va] = (bl ? "block " $bl : "") (it ? " items " $it : "") (ac && $ac != "" ? " access " $ac " backoff " $bo : "") " launches " $la }
      if ($va == "cub") { if ($gb > cub[key]) cub[key] = $gb }
      else if ($va != "hillis" && $va != "mss" && $gb > own[key]) { own[key] = $gb; ov[key] = $va }
      vars[$va] = 1
    }
    END {
      for (i = 0; i < nk; i++) {
        key = keys[i]
        for (v in vars) if ((key, v) in g) printf "  %-8s %-9s %8.1f GB/s  (%s)\n", key, v, g[key, v], cfg[key, v]
        if (cub[key] > 0)
          printf "  %-8s best own (%s) / cub = %.3f (target >= 1.0)\n", key, ov[key], own[key] / cub[key]
      }
    }' "$f"
}

echo
echo "### (a) prefix sums, 2^28, GB/s (n read + n written) by variant and block"
pivot scan_gpu
best scan_gpu precision
echo
echo "### (b) compaction, 2^28, keep 0.5, GB/s (n read + kept written) by variant and block"
pivot compact_gpu
best compact_gpu precision
echo
echo "### (c) CPU scan at 16 threads (serial: 1), 2^28: fraction of the run's copy ceiling"
pivot scan_cpu
f=$OUT/scan_cpu.csv
if [ -s "$f" ]; then
  awk -F, -v va="$(csv_col "$f" variant)" -v pr="$(csv_col "$f" precision)" \
    -v gb="$(csv_col "$f" gbs)" -v li="$(csv_col "$f" ceiling_gbs)" -v fr="$(csv_col "$f" roofline)" \
    -v ti="$(csv_col "$f" tile)" -v sy="$(csv_col "$f" sync)" -v ve="$(csv_col "$f" verified)" '
    '"$CSV_ROW"' && $va == "twopass" && $ve != "fail" && $fr > best[$pr] {
      best[$pr] = $fr; line[$pr] = sprintf("%.1f GB/s of a %.1f GB/s ceiling, tile %s, sync %s", $gb, $li, $ti, $sy) }
    END { for (p in best) printf "  %-6s twopass %.3f of its ceiling: %s (target >= 0.8)\n", p, best[p], line[p] }' "$f"
fi
echo
echo "### (d) list ranking: the fraction of the backend's gather ceiling, by variant and spacing"
pivot listrank
# fraction NAME: per backend, size and variant, the best verified fraction
# of the gather ceiling, with the ceiling (GB/s at 32 bytes a read, and
# millions of gathers a second) it was held against.
fraction() {
  f=$OUT/$1.csv
  [ -s "$f" ] || return
  awk -F, -v be="$(csv_col "$f" backend)" -v sz="$(csv_col "$f" size)" \
    -v va="$(csv_col "$f" variant)" -v fr="$(csv_col "$f" roofline)" \
    -v gb="$(csv_col "$f" gbs)" -v li="$(csv_col "$f" ceiling_gbs)" -v ve="$(csv_col "$f" verified)" '
    '"$CSV_ROW"' && $ve == "pass" {
      k = $be " " $sz " " $va; if (!(k in best)) keys[nk++] = k
      if ($fr > best[k]) { best[k] = $fr; line[k] = sprintf("%.1f GB/s of a %.1f GB/s (%.0f Mgather/s) gather ceiling", $gb, $li, $li / 32 * 1000) }
    }
    END { for (i = 0; i < nk; i++) printf "  %-22s %.3f of its gather ceiling: %s\n", keys[i], best[keys[i]], line[keys[i]] }' "$f"
}
fraction listrank
echo "-- a random tree's depths"
pivot treedepth
fraction treedepth
echo
echo "### (e) the series of 1/i^2, 2^30 terms: GFLOP/s (3 a term) and the error against pi^2/6"
pivot series
echo
echo "### (f) the Irwin-Hall CDF of 2^26 samples: GB/s (the sample read once)"
pivot cdf
exit $status
