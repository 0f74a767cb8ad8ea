#!/bin/bash
# The GPU backend's headline figures in one run, each held against a peer
# or a ceiling measured in the same run: the STREAM triad (float and
# double) against the triad ceiling; reduce onepass against CUB at 2^22 and
# 2^28 int32 (and the read-only ceiling); the bridge's smem in float (NAG's
# 1,439,744 paths of 64 steps, P = 16, V = 1) against the copy ceiling (the
# better of the device copy and a copy kernel). A change to the framework must leave them
# within noise: run it with TB set to each build and compare. With ENERGY=1
# the runs read the GPU's energy counter (--energy; NVML) and each best row
# also shows its joules per run, mean power and joules per GB
# (doc/energy.md); the runs are then longer. Run from the
# build folder on the GPU machine:
#   OUT=results/headline bash experiments/headline.sh
# Full CSVs and logs go to $OUT; the summary is printed last (under a
# minute on an H100).
set -u
OUT=${OUT:-.}
mkdir -p "$OUT"
. "$(dirname "$0")/lib.sh"
energy=${ENERGY:+--energy}

bench triad run stream --backend gpu --precision float,double -P op=triad \
  --block 128,256,512,1024 --repeat 50 --warmup 5 $energy
bench reduce run reduce --backend gpu --precision int32 --size 2^22,2^28 --variant onepass,cub \
  --block 256,512,1024 --grid auto,1056,2112,4224 --repeat 50 --warmup 5 $energy
bench bridge run bridge --backend gpu --precision float --variant smem --prefetch 16 --width 1 \
  --block 256,512 --repeat 20 --warmup 3 $energy

# best FILE KEY...: per distinct KEY columns, the row with the highest gbs:
# the keys, then gbs, roofline and ceiling_gbs, and its energy where the
# report has the energy columns.
best() {
  f=$1
  shift
  keys=""
  for k in "$@"; do keys="$keys${keys:+,}$(csv_col "$f" "$k")"; done
  awk -F, -v keys="$keys" -v g="$(csv_col "$f" gbs)" -v fr="$(csv_col "$f" roofline)" \
    -v li="$(csv_col "$f" ceiling_gbs)" -v v="$(csv_col "$f" verified)" \
    -v ej="$(csv_col "$f" energy_j)" -v aw="$(csv_col "$f" avg_w)" -v jg="$(csv_col "$f" j_per_gb)" '
    BEGIN { n = split(keys, k, ",") }
    '"$CSV_ROW"' && $v != "fail" {
      key = $(k[1]); for (i = 2; i <= n; i++) key = key " " $(k[i])
      if (!(key in b) || $g > b[key]) {
        b[key] = $g; f[key] = $fr; l[key] = $li
        e[key] = ej && $ej != "" ? sprintf("  %.4g J/run %.0f W %.3g J/GB", $ej, $aw, $jg) : ""
      }
    }
    END { for (key in b) printf "%-28s %9.1f GB/s  roofline %.3f of %.1f GB/s%s\n", key, b[key], f[key], l[key], e[key] }' \
    "$f" | sort
}

echo
echo "### $("$TB" --version); GB/s of the best configuration, its roofline and the ceiling of its mix"
echo "-- STREAM triad (variant, precision)"
best "$OUT/triad.csv" variant precision
echo "-- reduce int32 (size, variant)"
best "$OUT/reduce.csv" size variant | tee "$OUT/reduce.best"
awk '{ gbs[$1 " " $2] = $3 } END { for (n in gbs) if (n ~ / onepass$/) { s = n; sub(/ onepass$/, "", s)
       printf "onepass / cub at %s: %.3f\n", s, gbs[n] / gbs[s " cub"] } }' "$OUT/reduce.best" | sort
echo "-- bridge smem, float paths (variant)"
best "$OUT/bridge.csv" variant
exit "$status"
