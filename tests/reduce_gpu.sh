#!/bin/sh
# Every CUDA reduction variant, int32, float and double, at n = 1, 31, 1000003
# and 2^22+5 (not powers of two, not multiples of 2 x block), over block sizes
# and grids: every row verified, the tree variants skip a block of 96 with a
# note, and every int32 sum of a size equals the CPU's exact one. Skips
# without a GPU.
. "${srcdir:-.}/tests/lib.sh"

gpu_present || { echo "no usable GPU: skipped"; exit 77; }
"$TB" run reduce --backend cpu,gpu --variant serial,reduce0,reduce1,reduce2,reduce3,reduce4,reduce5,reduce6,shfl,vec16,onepass,cub \
  --precision int32,float,double --size 1,31,1000003,2^22+5 --block 32,96,1024 --grid auto,3 \
  --repeat 2 --warmup 1 --seed 13 $LIMIT --format csv --output "$TMP/gpu.csv" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 0 ] || fail "run exited $rc: $(cat "$TMP/err")"
expect_verified "$TMP/gpu.csv"
expect_sum_verdicts "$TMP/gpu.csv"
# Per precision and size: serial 1; reduce0..reduce5 at blocks 32 and 1024 (a
# tree needs a power of two) 12; reduce6 at 2 blocks x 2 grids 4; shfl, vec16
# and onepass at 3 blocks x 2 grids 18; cub 1: 36, times 12.
expect_rows "$TMP/gpu.csv" 432
for k in reduce0 reduce5 reduce6; do
  grep -q "$k skipped (block=96" "$TMP/err" || fail "$k at block 96 was not reported as skipped"
done
csv_select "$TMP/gpu.csv" variant precision size result launches grid block >"$TMP/rows"
awk -F, '$2 == "int32" { if ($3 in s && s[$3] != $4) bad++; s[$3] = $4 } END { exit bad > 0 }' \
  "$TMP/rows" || fail "int32 sums differ between variants or backends"
# onepass is one launch; reduce6 at grid 3 is two; reduce0 at 2^22+5 with
# blocks of 32 takes ceil(log32(n)) = 5 levels.
awk -F, '$1 == "onepass" && $5 != 1 { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "onepass launched more than once"
awk -F, '$1 == "reduce6" && $6 == 3 && $5 != 2 { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "reduce6 at grid 3 did not launch twice"
l=$(awk -F, '$1 == "reduce0" && $2 == "int32" && $3 == 4194309 && $7 == 32 { print $5 }' \
  "$TMP/rows")
[ "$l" = 5 ] || fail "reduce0 at 2^22+5, block 32: '$l' launches, expected 5"
finish
