#!/bin/sh
# Every STREAM operation of both CUDA twins, float and double, at sizes that
# are not multiples of the block or of the vector width, over block sizes and
# grids: every row verified. Skips without a GPU.
. "${srcdir:-.}/tests/lib.sh"

gpu_present || { echo "no usable GPU: skipped"; exit 77; }
"$TB" run stream --backend gpu --precision float,double --size 1,3,4099,1000003 \
  --block 32,100,1024 --grid auto,1,7 --repeat 2 --warmup 1 --seed 11 --format csv \
  --output "$TMP/gpu.csv" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 0 ] || fail "run exited $rc: $(cat "$TMP/err")"
nvar=$("$TB" list stream | grep -c '^    gpu ')
# 2 precisions x 4 sizes x the variants x 3 grids x (4 elementwise ops x 3
# blocks + dot at the 2 blocks that are multiples of 32)
all_pass "$TMP/gpu.csv" $((336 * nvar))
grep -q "skipped (block=100" "$TMP/err" || fail "dot at block 100 was not reported as skipped"
# The stores and unroll tunings on the same awkward sizes (the unrolled loop's
# last step partly past n, the vectors' scalar tail): 2 precisions x 4 sizes x
# the variants x 2 grids x (4 elementwise ops x 2 blocks x 2 stores x 3
# unrolls + the dot at block 32 for each of the 6 settings), every row
# verified; the dot resolves both to plain and 1, the others keep theirs.
"$TB" run stream --backend gpu --precision float,double --size 1,3,4099,1000003 \
  --block 32,100 --grid auto,7 --stores plain,nt --unroll 1,2,4 --repeat 1 --seed 12 \
  --format csv --output "$TMP/tune.csv" 2>"$TMP/err" || fail "tuned run: $(cat "$TMP/err")"
all_pass "$TMP/tune.csv" $((864 * nvar))
csv_select "$TMP/tune.csv" op stores unroll | awk -F, '
  $1 == "dot" && ($2 != "plain" || $3 != 1) { print "dot not resolved: " $0; bad++ }
  $1 != "dot" { seen[$2 "," $3]++ }
  END { for (k in seen) n++; if (n != 6) { print n " settings of stores and unroll, not 6"; bad++ }
        exit bad > 0 }' || fail "stores and unroll are not reported as run"
# Bad tunings: one line, exit 2.
expect_error 2 "unroll '3' is not a power of two" run stream --backend gpu --unroll 3
expect_error 2 "unroll" run stream --backend gpu --unroll 8
expect_error 2 "stores: unknown value 'cs'" run stream --backend gpu --stores cs
# Transfers were timed for both kinds of host memory.
for c in h2d_pageable_ms h2d_pinned_ms d2h_pageable_ms d2h_pinned_ms; do
  k=$(csv_col "$TMP/gpu.csv" $c)
  empty=$(csv_rows "$TMP/gpu.csv" | cut -d, -f"$k" | grep -c '^$')
  [ "$empty" -eq 0 ] || fail "$empty rows without $c"
done
# The dot states the depth of its order: a thread's chain over the grid
# stride (W elements a 16-byte vector for vec16, then the tail), the block's
# two warp trees (10), the final block's chain over the partials and trees;
# at most n.
csv_select "$TMP/gpu.csv" op variant precision size block grid depth | awk -F, '
  function ceil(x) { return x == int(x) ? x : int(x) + 1 }
  $1 == "dot" {
    w = $2 == "vec16" ? ($3 == "float" ? 4 : 2) : 1; s = $5 * $6; nv = int($4 / w)
    want = w * ceil(nv / s) + ceil(($4 - nv * w) / s) + 10 + ceil($6 / 1024) + 10
    if (want > $4) want = $4 # no order of n terms is deeper than n: the verifier keeps the less
    if ($7 != want) { print "depth " $7 ", expected " want ": " $0; bad++ } }
  END { exit bad > 0 }' || fail "a dot row's depth is not its order's"
finish
