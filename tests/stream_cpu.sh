#!/bin/sh
# Every STREAM operation of the OpenMP twin, float and double, at awkward
# sizes, several team sizes and every placement: every row verified.
. "${srcdir:-.}/tests/lib.sh"

npus=$(nproc)
"$TB" run stream --backend cpu --precision float,double --size 1,1000003,4099 \
  --threads 1,2,3 --placement compact,scatter,cores --repeat 2 --warmup 1 --seed 7 $LIMIT \
  --format csv --output "$TMP/cpu.csv" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 0 ] || fail "run exited $rc: $(cat "$TMP/err")"
# 2 precisions x 3 sizes x 5 operations x 3 team sizes x 3 placements
all_pass "$TMP/cpu.csv" 270
b=$(csv_col "$TMP/cpu.csv" binding_ok)
want=yes
[ "$npus" -lt 3 ] && want="yes\|oversubscribed"
bad=$(csv_rows "$TMP/cpu.csv" | cut -d, -f"$b" | grep -vc "^\($want\)$")
[ "$bad" -eq 0 ] || fail "$bad rows with a failed binding"

# The documented columns of a CPU run, in order: what ran, the CPU
# configuration, the twin's stores, the figures, the binding; no GPU tuning columns; the
# parameters and the algorithm's columns; the check's note last.
core="algo,variant,backend,precision,size,threads,placement,stores,median_ms,min_ms,max_ms,mean_ms,stddev_ms,cv,xfer_ms,e2e_ms,gbs,gflops,ceiling_gbs,ceiling_gflops,intensity,bound,roofline,verified,error,tolerance,repeats,bytes,bytes_read,bytes_written,flops,mix,flags,h2d_pageable_ms,d2h_pageable_ms,h2d_pinned_ms,d2h_pinned_ms,e2e_pageable_ms,binding,binding_ok"
csv_header "$TMP/cpu.csv" | grep -q "^$core,op,result,depth,note$" || fail "header: $(csv_header "$TMP/cpu.csv")"

# The dot states its depth: a thread's chain over its share of the blocks of
# 16, the tree of its 16 sums (4), one addition a thread where the team's
# sums combine, the tail. 1000003 elements: 62500 blocks and a tail of 3.
csv_select "$TMP/cpu.csv" op size threads depth | awk -F, '$1 == "dot" && $2 == 1000003 {
    want = int((62500 + $3 - 1) / $3) + 4 + $3 + 3
    if ($4 != want) { print "threads " $3 ": depth " $4 ", expected " want; bad++ } }
  END { exit bad > 0 }' || fail "the dot's depth"

# Fresh inputs from another seed verify too; --no-verify marks rows skipped.
"$TB" run stream --backend cpu --size 777 --threads 2 --seed 123456789 $LIMIT --format csv \
  >"$TMP/seed.csv" 2>"$TMP/err" || fail "seeded run: $(cat "$TMP/err")"
[ "$(grep -c ',pass,' "$TMP/seed.csv")" -eq 5 ] || fail "seeded run not verified"
"$TB" run stream --backend cpu --size 777 --threads 1 --no-verify $LIMIT --format csv \
  >"$TMP/nov.csv" 2>"$TMP/err" || fail "--no-verify run: $(cat "$TMP/err")"
[ "$(grep -c ',skipped,' "$TMP/nov.csv")" -eq 5 ] || fail "--no-verify rows not marked skipped"
# Plain and non-temporal stores both verify, at a size that leaves a head
# and a tail around each thread's whole vectors; the dot stores plainly; a
# small problem's auto is plain.
"$TB" run stream --backend cpu --threads 1,2 --size 1000003 --precision float,double \
  --stores plain,nt --repeat 2 $LIMIT -o "$TMP/nt.csv" -q 2>"$TMP/err" ||
  fail "stores run: $(cat "$TMP/err")"
all_pass "$TMP/nt.csv" 40
[ "$(csv_select "$TMP/nt.csv" op stores | sort -u | tr '\n' ' ')" = \
  "add,nt add,plain copy,nt copy,plain dot,plain scale,nt scale,plain triad,nt triad,plain " ] ||
  fail "stores as run: $(csv_select "$TMP/nt.csv" op stores | sort -u | tr '\n' ' ')"
"$TB" run stream --backend cpu --threads 1 --size 4096 -P op=copy --repeat 1 $LIMIT \
  -o "$TMP/small.csv" -q 2>"$TMP/err" || fail "small copy: $(cat "$TMP/err")"
[ "$(csv_select "$TMP/small.csv" stores)" = plain ] ||
  fail "a cache-resident copy does not store plainly: $(csv_select "$TMP/small.csv" stores)"
finish
