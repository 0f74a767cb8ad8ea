#!/bin/bash
# The Brownian bridge study on a GPU machine (16-core Xeon + H100 or H200),
# run from the build folder:
#   OUT=results/bridge bash experiments/bridge.sh
# At the NAG report's size, 1,439,744 paths x 64 steps, bisection order:
# (a) the report's table: rows generator (paths, increments) x precision,
#     columns CPU thread counts (omp variant) and the GPU (best strategy and
#     block, P = 16, V = 1), with the GPU speedup, all in one run;
# (b) the GPU strategy ladder in float, prefetch depth P = 1..16 for the
#     prefetch and reuse strategies: the best strategy's bandwidth against the
#     copy ceiling measured in the same run (target >= 0.9);
# (s) smem (strategy 6) in float: width V = 1, 2, 4, P = 8, 16, blocks 128,
#     256, 512, against the copy ceiling;
# (w) with WIDE=1, the wide variant's candidates in float (width V = 1, 2,
#     4, 8, cache hints stream and plain, P = 4, 8, 16, blocks 128 and 256)
#     and, as a diagnostic, wide in the sequential order, whose accesses run
#     in address order within a tile (measured on the H200, reported);
# (c) the CPU at 16 threads against the STREAM triad of the same run
#     (target >= 0.8), and increments against paths on one thread.
# The published figures (Xeon X5680 and Tesla C2050, 2012) are printed
# beside ours. Full CSV and logs go to $OUT; a short summary is printed
# last, with the script's own time (181 s on the H100 machine without
# WIDE). SIZE and THREADS override the size and the thread sweep (for a
# quick try elsewhere).
set -u
OUT=${OUT:-.}
SIZE=${SIZE:-nag}
THREADS=${THREADS:-sweep}
mkdir -p "$OUT"
. "$(dirname "$0")/lib.sh"


# rows FILES...: the verified rows of CSV files as "backend variant precision
# mode threads block prefetch median_ms gbs roofline ceiling_gbs width cache",
# one per line.
rows() {
  for f in "$@"; do
    [ -s "$f" ] || continue
    awk -F, -v be="$(csv_col "$f" backend)" -v va="$(csv_col "$f" variant)" -v pr="$(csv_col "$f" precision)" \
      -v mo="$(csv_col "$f" mode)" -v th="$(csv_col "$f" threads)" -v bl="$(csv_col "$f" block)" \
      -v pf="$(csv_col "$f" prefetch)" -v ms="$(csv_col "$f" median_ms)" -v gb="$(csv_col "$f" gbs)" \
      -v fr="$(csv_col "$f" roofline)" -v li="$(csv_col "$f" ceiling_gbs)" -v ve="$(csv_col "$f" verified)" \
      -v wi="$(csv_col "$f" width)" -v ca="$(csv_col "$f" cache)" '
      '"$CSV_ROW"' && $ve == "pass" {
        print $be, $va, $pr, $mo, ($th == "" ? "-" : $th), ($bl == "" ? "-" : $bl), $pf, $ms, $gb, $fr, $li, $wi, $ca
      }' "$f"
  done
}

if "$TB" run stream --backend gpu --size 1 --repeat 1 --warmup 0 --format csv >/dev/null 2>&1; then
  gpu=1
  BACKENDS=cpu,gpu
  VARIANTS=omp,const,prefetch,shared,reuse,wide,smem
  GPU_TUNING="--prefetch 16 --width 1 --block 64,128,256,512"
else
  gpu=0
  BACKENDS=cpu
  VARIANTS=omp
  GPU_TUNING= # a CPU-only build has no GPU tuning options
  echo "no usable GPU: the CPU part only" >&2
fi

# (a) The table: the CPU thread sweep and every GPU strategy over block
# sizes, both generators, both precisions, prefetch P = 16 (the best of
# prefetch, reuse and smem on the H100; the report's was 8), wide and smem
# at width 1 (wide's cache hint stream). (Parameters the CPU variant does
# not take are not swept here, so that the CPU runs once a thread count.)
bench table run bridge --size "$SIZE" --precision float,double --mode paths,increments \
  --backend "$BACKENDS" --variant "$VARIANTS" --threads "$THREADS" $GPU_TUNING \
  --repeat 10 --warmup 2 --pivot mode+precision:threads:median_ms

# (b) The prefetch depth of strategies 3 and 5 in float (P = 1: strategy 5
# without prefetch).
if [ "$gpu" -eq 1 ]; then
  bench ladder run bridge --size "$SIZE" --precision float --mode paths,increments --backend gpu \
    --variant prefetch,reuse --prefetch 1,2,4,8,16 --block 64,128,256,512 --repeat 20 --warmup 3 \
    --pivot mode+variant+prefetch:block:gbs
  # (s) smem in float: width V, P and blocks.
  bench smem run bridge --size "$SIZE" --precision float --mode paths,increments --backend gpu \
    --variant smem --width 1,2,4 --prefetch 8,16 --block 128,256,512 --repeat 20 --warmup 3 \
    --pivot mode+width+prefetch:block:roofline
fi
if [ "$gpu" -eq 1 ] && [ "${WIDE:-0}" -eq 1 ]; then
  # (w) The wide variant's candidates (WIDE=1; measured on the H200 and reported).
  bench wide run bridge --size "$SIZE" --precision float --mode paths,increments --backend gpu \
    --variant wide --width 1,2,4,8 --cache stream,plain --prefetch 4,8,16 --block 128,256 \
    --repeat 20 --warmup 3 --pivot mode+width+cache+prefetch:block:roofline
  # (o) A diagnostic, not the table's problem: the sequential order reads a
  # tile's normals and writes its outputs row after row in address order,
  # where the bisection plan visits them scattered over the tile's 64 rows.
  bench order run bridge --size "$SIZE" --precision float --mode paths --backend gpu \
    --variant wide --order sequential --width 1,4,8 --cache stream --prefetch 8 --block 256 \
    --repeat 20 --warmup 3
fi

# ---- The summary ---------------------------------------------------------
all=$(rows "$OUT/table.csv" "$OUT/ladder.csv" "$OUT/wide.csv" "$OUT/smem.csv")
echo
echo "### (a) the report's table, median ms: rows generator + precision, columns CPU threads (omp) and the GPU (best strategy and block, P = 16, V = 1)"
pivot table
sed -n '/^# speedup: /,/^$/p' "$OUT/table.txt"

if [ "$gpu" -eq 1 ]; then
  echo
  echo "### (b) GPU ladder, float, paths: best GB/s of each strategy (over blocks and P), of the copy ceiling; NAG on a Tesla C2050 (of its 120 GB/s with ECC)"
  echo "$all" | awk '
    $1 == "gpu" && $3 == "float" && $4 == "paths" {
      k = ($2 == "reuse" && $7 == 1) ? "reuse1" : $2
      if ($9 > gb[k]) {
        gb[k] = $9; fr[k] = $10
        at[k] = "block " $6 (($2 == "prefetch" || $2 == "reuse" || $2 == "wide" || $2 == "smem") ? ", P " $7 : "") (($2 == "wide" || $2 == "smem") ? ", V " $12 : "") ($2 == "wide" ? ", " $13 : "")
      }
    }
    END {
      split("const prefetch shared reuse1 reuse wide smem", ks, " ")
      split("1 strategy in constant memory|3 prefetch P normals|4 shared-memory plan, C in registers|5 reuse, without prefetch|5 reuse, with prefetch|5 wide: V paths a thread, P in flight|6 smem: stack in shared memory", nm, "|")
      split("29 58 85 79 102 - -", ng, " "); split("24% 48% 71% 66% 85% - -", np, " ")
      printf "%-38s %9s %9s  %-30s | %8s %8s\n", "strategy", "GB/s", "of copy", "at", "NAG GB/s", "of peak"
      for (i = 1; i <= 7; i++)
        printf "%-38s %9.1f %8.1f%%  %-30s | %8s %8s\n", nm[i], gb[ks[i]], 100 * fr[ks[i]], at[ks[i]], ng[i], np[i]
    }'
  echo "$all" | awk '
    $1 == "gpu" && $3 == "float" && $10 > best[$4] {
      best[$4] = $10; gb[$4] = $9; li[$4] = $11; at[$4] = $2 " block " $6 " P " $7 (($2 == "wide" || $2 == "smem") ? " V " $12 : "") ($2 == "wide" ? " " $13 : "")
    }
    END {
      for (m in best)
        printf "best GPU, float %-10s: %7.1f GB/s = %.3f of the copy ceiling (%.0f GB/s) (%s); target >= 0.9\n", m, gb[m], best[m], li[m], at[m]
    }' | sort

  echo
  echo "### (s) smem, float: roofline (of the copy ceiling) by width V and P (rows) and block (columns)"
  pivot smem
  if [ -s "$OUT/wide.csv" ]; then
    echo "### (w) wide, float: roofline (of the copy ceiling; median times), best over the blocks run (128, 256; 64..512 for the table's V 4 stream P 8); reuse (strategy 5: one path a thread, P normals loaded a group at a time; blocks 64..512) beside it"
    echo "$all" | awk '
      $1 == "gpu" && $3 == "float" && ($2 == "wide" || $2 == "reuse") {
        k = $4 SUBSEP ($2 == "wide" ? $12 SUBSEP $13 : "reuse") SUBSEP $7
        if ($10 > f[k]) { f[k] = $10; b[k] = $6 }
      }
      END {
        split("paths increments", ms, " "); split("4 8 16", ps, " ")
        split("reuse|1 plain|1 stream|2 plain|2 stream|4 plain|4 stream|8 plain|8 stream", rs, "|")
        printf "%-16s", "V cache"
        for (mi = 1; mi <= 2; mi++) for (pi = 1; pi <= 3; pi++) printf " %11s", substr(ms[mi], 1, 5) " P" ps[pi]
        printf "\n"
        for (ri = 1; ri <= 9; ri++) {
          split(rs[ri], r, " ")
          printf "%-16s", (rs[ri] == "reuse" ? "reuse (V 1)" : "wide V " r[1] " " r[2])
          for (mi = 1; mi <= 2; mi++)
            for (pi = 1; pi <= 3; pi++) {
              k = ms[mi] SUBSEP (rs[ri] == "reuse" ? "reuse" : r[1] SUBSEP r[2]) SUBSEP ps[pi]
              printf " %11s", (k in f) ? sprintf("%.3f/%d", f[k], b[k]) : "-"
            }
          printf "\n"
        }
        print "(cells: fraction of the copy / the block that gave it; -: not run (V 8 x P 16 is over the 64 registers of normals), or no verified row)"
      }'
    echo "access order (diagnostic, wide stream P 8 block 256, paths): fraction of the copy in the sequential order (rows in address order) against bisection (rows scattered over the tile)"
    { rows "$OUT/order.csv" | sed 's/^/seq /'; echo "$all" | sed 's/^/bis /'; } | awk '
      $2 == "gpu" && $3 == "wide" && $4 == "float" && $5 == "paths" && $7 == 256 && $8 == 8 && $14 == "stream" && $11 > f[$1, $13] { f[$1, $13] = $11 }
      END {
        split("1 4 8", vs, " ")
        for (i = 1; i <= 3; i++)
          printf "  V %d: sequential %s, bisection %s\n", vs[i], (("seq", vs[i]) in f) ? sprintf("%.3f", f["seq", vs[i]]) : "-",
            (("bis", vs[i]) in f) ? sprintf("%.3f", f["bis", vs[i]]) : "-"
      }'
  fi
fi

echo
echo "### (c) CPU (omp) at 16 threads: fraction of the STREAM triad at 16 threads of the same run (target >= 0.8)"
echo "$all" | awk '
  $1 == "cpu" && $2 == "omp" && $5 == 16 {
    printf "%-10s %-6s %8.2f ms %7.1f GB/s of %6.1f GB/s = %.3f\n", $4, $3, $8, $9, $11, $10; n++
  }
  END { if (!n) print "(no 16-thread rows: THREADS does not include 16)" }'
echo "$all" | awk '
  $1 == "cpu" && $2 == "omp" && $5 == 1 { t[$3, $4] = $8 }
  END {
    split("float double", ps, " ")
    for (i = 1; i <= 2; i++)
      if ((ps[i], "paths") in t && (ps[i], "increments") in t)
        printf "1 thread, %-6s: increments %.2f ms / paths %.2f ms = %.2f (run 5, before the fix: 2.82 float, 1.66 double)\n",
          ps[i], t[ps[i], "increments"], t[ps[i], "paths"], t[ps[i], "increments"] / t[ps[i], "paths"]
  }'

echo
echo "### This run against NAG 2012 (Xeon X5680, 12 cores; Tesla C2050), 1,439,744 x 64: ms and the GPU speedup (best CPU / best GPU)"
echo "$all" | awk '
  $1 == "cpu" && $2 == "omp" {
    k = $4 " " $3
    if ($5 == 1) one[k] = $8
    if (!(k in cpu) || $8 < cpu[k]) { cpu[k] = $8; cth[k] = $5 }
  }
  $1 == "gpu" { k = $4 " " $3; if (!(k in g) || $8 < g[k]) { g[k] = $8; gat[k] = $2 "/" $6 "/P" $7 (($2 == "wide" || $2 == "smem") ? "/V" $12 : "") } }
  END {
    split("paths float|paths double|increments float|increments double", ks, "|")
    split("1392.1 1463.8 1207.4 1308.1", n1, " "); split("171.2 193.6 146.0 166.2", nb, " ")
    split("10.01 17.12 9.09 17.01", ng, " "); split("17.2 11.4 16.2 9.8", ns, " ")
    printf "%-18s %9s %9s %4s %9s %-21s %8s | %9s %9s %9s %8s\n", "generator", "CPU 1thr", "CPU best",
      "thr", "GPU", "(variant/blk/P)", "speedup", "NAG 1thr", "NAG best", "NAG GPU", "speedup"
    for (i = 1; i <= 4; i++) {
      k = ks[i]
      gpu = k in g ? sprintf("%9.3f %-21s %7.1fx", g[k], gat[k], cpu[k] / g[k]) : sprintf("%9s %-21s %8s", "-", "", "-")
      printf "%-18s %9.2f %9.2f %4s %s | %9.1f %9.1f %9.2f %7.1fx\n", k, one[k], cpu[k], cth[k], gpu,
        n1[i], nb[i], ng[i], ns[i]
    }
  }'
echo
echo "(this script took $SECONDS s)"
exit $status
