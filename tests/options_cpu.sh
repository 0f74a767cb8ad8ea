#!/bin/sh
# The option pricing family on the CPU: Hull's textbook prices through
# --input, every Black-Scholes and Monte Carlo configuration verified at
# awkward sizes and team sizes, put-call parity and the --dump contents,
# per-option r and v, antithetic variates shrinking the standard error,
# Monte Carlo prices independent of the thread count, the rate columns, and
# malformed CSV files refused with their line.
. "${srcdir:-.}/tests/lib.sh"

# num FILE ROW COL: field COL (a name) of data row ROW of a CSV file.
num() { awk -F, -v r="$2" -v c="$(csv_col "$1" "$3")" 'NR == r + 1 { print $c }' "$1"; }
# near X Y TOL: |X - Y| <= TOL.
near() { awk -v x="$1" -v y="$2" -v t="$3" 'BEGIN { d = x - y; exit !(d <= t && -d <= t) }'; }

# Hull, Options, Futures and Other Derivatives: S 42, X 40, r 10%, v 20%,
# six months: call 4.7594, put 0.8086, in both precisions and both CDFs.
printf 'S,X,T,r,v\n42,40,0.5,0.1,0.2\n' >"$TMP/hull.csv"
for prec in float double; do
  for cnd in poly erfc; do
    for math in libm fast; do
      "$TB" run blackscholes --backend cpu --input "$TMP/hull.csv" --precision $prec --cnd $cnd \
        --math $math --threads 1 --repeat 1 --warmup 0 $LIMIT --dump "$TMP/h.csv" --format csv \
        >/dev/null 2>"$TMP/err" || fail "hull $prec $cnd $math: $(cat "$TMP/err")"
      near "$(num "$TMP/h.csv" 1 call)" 4.7594 5e-5 ||
        fail "hull $prec $cnd $math call $(num "$TMP/h.csv" 1 call)"
      near "$(num "$TMP/h.csv" 1 put)" 0.8086 5e-5 ||
        fail "hull $prec $cnd $math put $(num "$TMP/h.csv" 1 put)"
    done
  done
done
"$TB" run montecarlo --backend cpu --input "$TMP/hull.csv" --paths 2^20 --precision double \
  --threads 2 --repeat 1 --warmup 0 $LIMIT --dump "$TMP/hm.csv" --format csv >/dev/null \
  2>"$TMP/err" || fail "hull montecarlo: $(cat "$TMP/err")"
p=$(num "$TMP/hm.csv" 1 price) se=$(num "$TMP/hm.csv" 1 stderr)
awk -v p="$p" -v s="$se" 'BEGIN { exit !(s > 0 && s < 0.02 && (p - 4.7594) ^ 2 <= 36 * s * s) }' ||
  fail "hull montecarlo: $p +- $se, expected 4.7594"

# Black-Scholes: both precisions, CDFs and math forms, sizes 1, 7 and 2^20 + 3, teams of 1 and 3.
"$TB" run blackscholes --backend cpu --precision float,double --cnd poly,erfc --math libm,fast \
  --size 1,7,2^20+3 --threads 1,3 --repeat 2 --warmup 1 --seed 3 $LIMIT --format csv \
  --output "$TMP/bs.csv" 2>"$TMP/err" || fail "blackscholes run: $(cat "$TMP/err")"
all_pass "$TMP/bs.csv" 48
csv_header "$TMP/bs.csv" | grep -q ',cnd,math,options_per_s,l1,max_abs,parity,note$' ||
  fail "blackscholes header: $(csv_header "$TMP/bs.csv")"
# Every way the CDFs divide (the cdf tuning parameter: the divider, fused multiply-adds,
# libmvec's erfc) within the same bounds, on both sides of a block (1024) and a vector.
"$TB" run blackscholes --backend cpu --precision float,double --cnd poly,erfc --math libm,fast \
  --cdf sweep --size 7,2^12+13 --threads 2 --repeat 1 --warmup 0 --seed 5 $LIMIT --format csv \
  --output "$TMP/bsc.csv" 2>"$TMP/err" || fail "blackscholes cdf sweep: $(cat "$TMP/err")"
all_pass "$TMP/bsc.csv" 48
cdfs=$(csv_rows "$TMP/bsc.csv" | cut -d, -f"$(csv_col "$TMP/bsc.csv" cdf)" | sort -u | tr '\n' ' ')
[ "$cdfs" = "div libmvec rcp " ] || fail "cdf values: $cdfs"
expect_error 2 "cdf" run blackscholes --backend cpu --cdf newton --size 8
# The fused loop (stages=fused: a block priced in one loop) and the two halves (stages=halves)
# under every CDF, form and way of dividing, at the same sizes, with generated and with
# per-option r and v (an input file of 300 options in and out of the money, short and long):
# the same bounds, and the same prices to the bit as the split loops where the formulas are
# the same operations in the same order.
"$TB" run blackscholes --backend cpu --precision float,double --cnd poly,erfc --math libm,fast \
  --cdf sweep --stages fused,halves --size 7,2^12+13 --threads 2 --repeat 1 --warmup 0 --seed 5 \
  $LIMIT --format csv --output "$TMP/bsf.csv" 2>"$TMP/err" ||
  fail "blackscholes fused, halves: $(cat "$TMP/err")"
all_pass "$TMP/bsf.csv" 96
awk 'BEGIN { print "S,X,T,r,v"; for (i = 0; i < 300; i++)
  printf "%.4f,%.4f,%.4f,%.4f,%.4f\n", 5 + (i * 37 % 25), 1 + (i * 53 % 99), 0.25 + (i % 40) / 4,
    -0.02 + (i % 7) / 50, 0.05 + (i % 11) / 10 }' >"$TMP/many.csv"
for prec in float double; do
  for cnd in poly erfc; do
    for math in libm fast; do
      for st in split fused halves; do
        "$TB" run blackscholes --backend cpu --input "$TMP/many.csv" --precision $prec --cnd $cnd \
          --math $math --stages $st --threads 2 --repeat 1 --warmup 0 $LIMIT --format csv \
          --output "$TMP/bs_$st.csv" --dump "$TMP/bsd_$st.csv" 2>"$TMP/err" ||
          fail "blackscholes $st $prec $cnd $math: $(cat "$TMP/err")"
        all_pass "$TMP/bs_$st.csv" 1
      done
      for st in fused halves; do
        cmp -s "$TMP/bsd_split.csv" "$TMP/bsd_$st.csv" ||
          fail "blackscholes $prec $cnd $math: $st prices differ from split ones"
      done
    done
  done
done
expect_error 2 "stages" run blackscholes --backend cpu --stages three --size 8
# The span tuning parameter (options a thread prices per block): every span from the
# smallest to the largest, in split and halves, at sizes that end mid-block and mid-vector
# with a team of 3 (shares that are not multiples of a span): the same bounds, and the same
# prices to the bit as the default span, since each option's operations do not depend on
# the block it falls in.
for prec in float double; do
  for cnd in poly erfc; do
    for st in split halves; do
      for span in 64 1024 4096; do
        "$TB" run blackscholes --backend cpu --precision $prec --cnd $cnd --stages $st \
          --span $span --size 12365 --threads 3 --repeat 1 --warmup 0 --seed 9 $LIMIT \
          --format csv --output "$TMP/bss.csv" --dump "$TMP/bssd_$span.csv" 2>"$TMP/err" ||
          fail "blackscholes span $span $st $prec $cnd: $(cat "$TMP/err")"
        all_pass "$TMP/bss.csv" 1
      done
      for span in 64 4096; do
        cmp -s "$TMP/bssd_1024.csv" "$TMP/bssd_$span.csv" ||
          fail "blackscholes $prec $cnd $st: span $span prices differ from span 1024's"
      done
    done
  done
done
expect_error 2 "span '100' is not a power of two" run blackscholes --backend cpu --span 100 --size 8
expect_error 2 "span '8192' must be at most 4096" run blackscholes --backend cpu --span 8192 \
  --size 8
expect_error 2 "span '32' must be at least 64" run blackscholes --backend cpu --span 32 --size 8
# The kernel tuning parameter: the explicit AVX-512 kernel in its three forms (avx512: the
# divisions and square roots by 14-bit estimates and fused multiply-adds; avx512div: by the
# divider; avx512mix: d1's divisions by the divider, the rest by the estimates) in both precisions, CDFs and math forms, at sizes that end mid-vector and mid-block
# (1, 17, 1000003) with teams of 1 and 3 (shares that start off a vector boundary): every
# price within the verifier's bounds, which the kernel's derivation (vexp512.h,
# doc/options.md) meets; with per-option r and v; and the same prices to the bit whatever the
# span (each option's operations do not depend on its block). auto is avx512div in both precisions where built.
# Each kernel in both density forms (two: each CDF its own exponential; one: N(d2)'s density
# from N(d1)'s, whose allowance tb_bs_bounds adds), auto being one.
# Built without AVX-512, only generic is offered.
if "$TB" run blackscholes --backend cpu --kernel avx512 --size 8 --repeat 1 --warmup 0 $LIMIT \
  >/dev/null 2>&1; then
  "$TB" run blackscholes --backend cpu --precision float,double --cnd poly,erfc --math libm,fast \
    --kernel avx512,avx512div,avx512mix --density two,one --size 1,17,1000003 --threads 1,3 \
    --repeat 1 --warmup 0 --seed 7 $LIMIT --format csv --output "$TMP/bsk.csv" 2>"$TMP/err" ||
    fail "blackscholes avx512 kernels: $(cat "$TMP/err")"
  all_pass "$TMP/bsk.csv" 288
  densities=$(csv_rows "$TMP/bsk.csv" | cut -d, -f"$(csv_col "$TMP/bsk.csv" density)" | sort -u |
    tr '\n' ' ')
  [ "$densities" = "one two " ] || fail "density values: $densities"
  kernels=$(csv_rows "$TMP/bsk.csv" | cut -d, -f"$(csv_col "$TMP/bsk.csv" kernel)" | sort -u |
    tr '\n' ' ')
  [ "$kernels" = "avx512 avx512div avx512mix " ] || fail "kernel values: $kernels"
  "$TB" run blackscholes --backend cpu --size 8 --precision float,double --repeat 1 --warmup 0 \
    $LIMIT --format csv --output "$TMP/bsa.csv" 2>"$TMP/err" ||
    fail "blackscholes auto kernel: $(cat "$TMP/err")"
  kernel=$(csv_rows "$TMP/bsa.csv" | cut -d, -f"$(csv_col "$TMP/bsa.csv" precision),$(csv_col "$TMP/bsa.csv" kernel)" |
    tr '\n' ' ')
  [ "$kernel" = "float,avx512div double,avx512div " ] ||
    fail "kernel auto is not avx512div in both precisions: $kernel"
  density=$(csv_rows "$TMP/bsa.csv" | cut -d, -f"$(csv_col "$TMP/bsa.csv" density)" | sort -u)
  [ "$density" = one ] || fail "density auto is not one: $density"
  # v sqrt T below the smallest normal float (v 1e-39, T 1e-44) and far out of the money:
  # the estimates' reciprocal must not turn these into NaNs.
  printf '%s\n' S,X,T,r,v 42,40,0.5,0.1,1e-30 42,40,0.5,0.1,1e-39 30,40,1,0.1,1e-39 \
    42,42,1,0,1e-39 42,40,1e-39,0.1,0.3 42,40,1e-44,0.1,5 30,1,100,1,0.01 >"$TMP/tiny.csv"
  "$TB" run blackscholes --backend cpu --input "$TMP/tiny.csv" --precision float,double \
    --cnd poly,erfc --kernel generic,avx512,avx512div,avx512mix --density two,one --threads 1 --repeat 1 \
    --warmup 0 $LIMIT --format csv --output "$TMP/bskt.csv" 2>"$TMP/err" ||
    fail "avx512 tiny v sqrt T: $(cat "$TMP/err")"
  all_pass "$TMP/bskt.csv" 32
  # The one density where its allowance is largest: v sqrt T up to 50 (v 5, T 100), |ln(S/X)|
  # up to 20, rates of -1 and 1 (K within the float range), d1 and d2 of both signs and far apart (d1 = 40, d2 = -10 and
  # the like), deep in and out of the money: every price within the bounds, both densities.
  printf '%s\n' S,X,T,r,v 1e9,1,100,1,5 1,1e9,30,-1,5 1e9,1,0.01,0,0.01 1,1e9,100,1,0.05 \
    100,1,30,-1,5 1,100,100,1,5 40,42,100,0.5,4 5e8,1e-3,2,-0.7,3 3,1e3,50,1,0.3 \
    42,40,0.5,0.1,0.2 1e-3,1e3,30,-1,5 7,7,100,0,5 >"$TMP/wide.csv"
  "$TB" run blackscholes --backend cpu --input "$TMP/wide.csv" --precision float,double \
    --cnd poly,erfc --math libm,fast --kernel avx512,avx512div,avx512mix --density two,one \
    --threads 1 --repeat 1 --warmup 0 $LIMIT --format csv --output "$TMP/bskw.csv" 2>"$TMP/err" ||
    fail "avx512 wide inputs: $(cat "$TMP/err")"
  all_pass "$TMP/bskw.csv" 48
  for prec in float double; do
    for cnd in poly erfc; do
      "$TB" run blackscholes --backend cpu --input "$TMP/many.csv" --precision $prec --cnd $cnd \
        --kernel avx512,avx512div,avx512mix --density two,one --threads 2 --repeat 1 --warmup 0 \
        $LIMIT --format csv --output "$TMP/bskv.csv" 2>"$TMP/err" ||
        fail "avx512 r,v $prec $cnd: $(cat "$TMP/err")"
      all_pass "$TMP/bskv.csv" 6
      for span in 64 4096; do
        "$TB" run blackscholes --backend cpu --precision $prec --cnd $cnd --kernel avx512 \
          --span $span --size 12365 --threads 3 --repeat 1 --warmup 0 --seed 9 $LIMIT \
          --format csv --output "$TMP/bsks.csv" --dump "$TMP/bsksd_$span.csv" 2>"$TMP/err" ||
          fail "avx512 span $span $prec $cnd: $(cat "$TMP/err")"
        all_pass "$TMP/bsks.csv" 1
      done
      cmp -s "$TMP/bsksd_64.csv" "$TMP/bsksd_4096.csv" ||
        fail "avx512 $prec $cnd: span 64 and 4096 prices differ"
    done
  done
else
  expect_error 2 "kernel" run blackscholes --backend cpu --kernel avx512 --size 8
fi
expect_error 2 "kernel" run blackscholes --backend cpu --kernel avx1024 --size 8
expect_error 2 "unknown value 'three'" run blackscholes --backend cpu --density three --size 8
# The width tuning parameter: the generic loops compiled at 256-bit vectors beside the
# default 512 (GCC builds with AVX-512 only). Each option goes through the same element-wise
# operations at either width, so with the inlined CDFs (cdf auto, div, rcp) the prices are the
# same to the bit: both precisions, CDFs and math forms, sizes 1, 17 and 1000003, teams of 1
# and 3 (shares that start off a vector boundary), each verified and dumped at both widths.
# cdf=libmvec calls libmvec's erfc, whose 256-bit and 512-bit versions are different code
# (they differ in the last bits in double), so there both widths are held to the verifier's
# bounds only. Built without AVX-512, 256 is refused in one line.
if "$TB" run blackscholes --backend cpu --width 256 --size 8 --repeat 1 --warmup 0 $LIMIT \
  >/dev/null 2>&1; then
  for prec in float double; do
    for cnd in poly erfc; do
      for math in libm fast; do
        for size in 1 17 1000003; do
          for th in 1 3; do
            for w in 512 256; do
              "$TB" run blackscholes --backend cpu --kernel generic --width $w --precision $prec \
                --cnd $cnd --math $math --size $size --threads $th --repeat 1 --warmup 0 \
                --seed 11 $LIMIT --format csv --output "$TMP/bsw.csv" \
                --dump "$TMP/bswd_$w.csv" 2>"$TMP/err" ||
                fail "blackscholes width $w $prec $cnd $math $size x$th: $(cat "$TMP/err")"
              all_pass "$TMP/bsw.csv" 1
            done
            cmp -s "$TMP/bswd_512.csv" "$TMP/bswd_256.csv" ||
              fail "blackscholes $prec $cnd $math $size x$th: width 256 prices differ from 512's"
          done
        done
      done
    done
  done
  "$TB" run blackscholes --backend cpu --kernel generic --cdf libmvec --width 512,256 \
    --precision float,double --cnd poly,erfc --size 17,1000003 --threads 3 --repeat 1 \
    --warmup 0 $LIMIT --format csv --output "$TMP/bswm.csv" 2>"$TMP/err" ||
    fail "blackscholes width libmvec: $(cat "$TMP/err")"
  all_pass "$TMP/bswm.csv" 16
  widths=$(csv_rows "$TMP/bswm.csv" | cut -d, -f"$(csv_col "$TMP/bswm.csv" width)" | sort -u |
    tr '\n' ' ')
  [ "$widths" = "256 512 " ] || fail "width values: $widths"
else
  expect_error 2 "width" run blackscholes --backend cpu --width 256 --size 8
fi
expect_error 2 "width" run blackscholes --backend cpu --width 128 --size 8
# The published accuracy (1M options, float, polynomial): L1 6e-8 and max 1.5e-5 against
# a double CPU run of the same polynomial; against the exact N add the polynomial's 7.5e-8.
awk -F, -v p="$(csv_col "$TMP/bs.csv" precision)" -v s="$(csv_col "$TMP/bs.csv" size)" \
  -v l="$(csv_col "$TMP/bs.csv" l1)" -v r="$(csv_col "$TMP/bs.csv" options_per_s)" \
  "$CSV_ROW"' && $s > 1000 && !($l < ($p == "float" ? 1e-6 : 2e-7) && $r > 0) { bad++ }
   END { exit bad > 0 }' "$TMP/bs.csv" || fail "blackscholes l1 or options_per_s out of range"

# --dump: the header, one row per option, the inputs in the published ranges,
# and put-call parity call - put = S - X exp(-rT).
"$TB" run blackscholes --backend cpu --size 1000 --precision double --threads 2 --repeat 1 \
  --seed 9 $LIMIT --dump "$TMP/d.csv" --format csv >/dev/null 2>"$TMP/err" ||
  fail "dump run: $(cat "$TMP/err")"
[ "$(head -1 "$TMP/d.csv")" = "S,X,T,r,v,call,put" ] || fail "dump header $(head -1 "$TMP/d.csv")"
[ "$(($(wc -l <"$TMP/d.csv") - 1))" -eq 1000 ] || fail "dump rows"
awk -F, 'NR > 1 { if ($1 < 5 || $1 > 30 || $2 < 1 || $2 > 100 || $3 < 0.25 || $3 > 10 ||
                      $4 != 0.02 || $5 != 0.3 || $6 < 0 || $7 < 0) bad++
                  d = $6 - $7 - ($1 - $2 * exp(-$4 * $3)); if (d * d > 1e-20 * ($1 + $2) ^ 2) bad++ }
         END { exit bad > 0 }' "$TMP/d.csv" || fail "dump values or parity"

# Per-option r and v in any column order, an empty field taking the default:
# r and v become arrays, and the dump echoes them.
printf 'v, T ,S,X,r\n0.25,1,100,95,0.05\n,2,50,55,\n0.4,0.5,20,20,-0.01\n' >"$TMP/rv.csv"
"$TB" run blackscholes --backend cpu --input "$TMP/rv.csv" --precision double --cnd erfc \
  --threads 1 --repeat 1 $LIMIT --dump "$TMP/rvd.csv" --format csv >"$TMP/rv.out" \
  2>"$TMP/err" || fail "r,v input: $(cat "$TMP/err")"
[ "$(num "$TMP/rvd.csv" 2 r)" = 0.02 ] && [ "$(num "$TMP/rvd.csv" 2 v)" = 0.29999999999999999 ] &&
  [ "$(num "$TMP/rvd.csv" 3 r)" = -0.01 ] && [ "$(num "$TMP/rvd.csv" 1 S)" = 100 ] ||
  fail "r,v dump: $(cat "$TMP/rvd.csv")"
# 5 input arrays and 2 outputs of 3 doubles: 168 bytes per run.
awk -F, -v g="$(csv_col "$TMP/rv.out" gbs)" -v m="$(csv_col "$TMP/rv.out" median_ms)" \
  "$CSV_ROW"' { exit !(($g * $m * 1e6 - 168) ^ 2 < 1) }' "$TMP/rv.out" || fail "r,v bytes"

# Monte Carlo: both precisions, calls and puts, both math forms, with and
# without antithetic pairs, odd path counts (partial Philox groups), teams of 1 and 3.
"$TB" run montecarlo --backend cpu --precision float,double --size 3,61 --paths 4099,20002 \
  --antithetic no,yes --payoff call,put --threads 1,3 --repeat 1 --warmup 0 --seed 5 $LIMIT \
  --format csv --output "$TMP/mc.csv" 2>"$TMP/err"
rc=$?
# 4099 paths cannot pair: those 16 points are refused before anything runs.
[ "$rc" -eq 2 ] && grep -q "paths must be even" "$TMP/err" || fail "odd antithetic paths: $rc $(cat "$TMP/err")"
"$TB" run montecarlo --backend cpu --precision float,double --size 3,61 --paths 4097,20002 \
  --payoff call,put --math libm,fast --threads 1,3 --loops two,one --repeat 1 --warmup 0 --seed 5 \
  $LIMIT --format csv --output "$TMP/mc.csv" 2>"$TMP/err" || fail "montecarlo run: $(cat "$TMP/err")"
mc_verified "$TMP/mc.csv" 128
"$TB" run montecarlo --backend cpu --precision float,double --size 61 --paths 2^15 \
  --antithetic no,yes --payoff call,put --threads 2 --repeat 1 --warmup 0 --seed 6 $LIMIT \
  --format csv --output "$TMP/anti.csv" 2>"$TMP/err" || fail "antithetic run: $(cat "$TMP/err")"
all_pass "$TMP/anti.csv" 8
# Antithetic pairs: for each precision and payoff, the mean standard error drops.
awk -F, -v p="$(csv_col "$TMP/anti.csv" precision)" -v a="$(csv_col "$TMP/anti.csv" antithetic)" \
  -v o="$(csv_col "$TMP/anti.csv" payoff)" -v s="$(csv_col "$TMP/anti.csv" se_mean)" \
  -v r="$(csv_col "$TMP/anti.csv" samples_per_s)" \
  "$CSV_ROW"' { se[$p " " $o " " $a] = $s; if (!($r > 0)) bad++ }
   END { for (k in se) { split(k, f, " "); if (f[3] == "yes" && !(se[k] < se[f[1] " " f[2] " no"])) bad++ }
         exit bad > 0 }' "$TMP/anti.csv" || fail "antithetic standard errors did not drop: $(cat "$TMP/anti.csv")"

# The same prices, bit for bit, from teams of 1 and 3 threads; the dump's columns.
for t in 1 3; do
  "$TB" run montecarlo --backend cpu --size 40 --paths 30001 --threads $t --repeat 1 --seed 8 \
    $LIMIT --dump "$TMP/t$t.csv" --format csv >/dev/null 2>"$TMP/err" ||
    fail "montecarlo threads $t: $(cat "$TMP/err")"
done
cmp -s "$TMP/t1.csv" "$TMP/t3.csv" || fail "montecarlo prices depend on the thread count"
expect_error 2 "\-\-loops: unknown value 'three'" run montecarlo --backend cpu --loops three --size 8
# The two loop forms (--loops) simulate the same paths with the same
# arithmetic; the compiler may fuse a multiply and an add differently in
# each, so the prices may differ by rounding: a few units of 2^-24 of a
# sample in float, averaged over the paths, where other paths would move a
# price by about its standard error (over 1e-3 of it here). 1e-5 of the
# price (plus 1e-9 for the prices near 0) tells the two apart. Each form is
# bit for bit the same at any team size.
for p in float double; do
  for l in one two; do
    for t in 1 3; do
      "$TB" run montecarlo --backend cpu --size 40 --paths 30001 --precision $p --loops $l \
        --threads $t --repeat 1 --seed 8 $LIMIT --dump "$TMP/l$l$t.csv" --format csv >/dev/null \
        2>"$TMP/err" || fail "montecarlo $p loops $l threads $t: $(cat "$TMP/err")"
    done
    cmp -s "$TMP/l${l}1.csv" "$TMP/l${l}3.csv" || fail "montecarlo $p loops $l: prices depend on the thread count"
  done
  paste -d, "$TMP/lone1.csv" "$TMP/ltwo1.csv" |
    awk -F, 'NR > 1 { n++; d = $6 - $16; if (d * d > (1e-5 * $6 + 1e-9) ^ 2) bad++ }
             END { exit bad > 0 || n != 40 }' || fail "montecarlo $p: loops one and two differ"
done
[ "$(head -1 "$TMP/t1.csv")" = "S,X,T,r,v,price,stderr,ci_low,ci_high,bs_price" ] ||
  fail "montecarlo dump header $(head -1 "$TMP/t1.csv")"
awk -F, 'NR > 1 { n++; if (!($7 >= 0) || ($8 - ($6 - 1.96 * $7)) ^ 2 > 1e-10 * $6 ^ 2 + 1e-30 ||
                            ($9 - ($6 + 1.96 * $7)) ^ 2 > 1e-10 * $6 ^ 2 + 1e-30 || $10 < 0) bad++ }
         END { exit bad > 0 || n != 40 }' "$TMP/t1.csv" || fail "montecarlo dump values"

# Malformed files: one line on stderr naming the file and the line.
bad_csv() { # NAME CONTENT PATTERN
  printf "$2" >"$TMP/$1.csv"
  expect_error 2 "$TMP/$1.csv$3" run blackscholes --backend cpu --input "$TMP/$1.csv"
  expect_error 2 "$TMP/$1.csv$3" run montecarlo --backend cpu --input "$TMP/$1.csv"
}
bad_csv empty '' ': empty file'
bad_csv noopts 'S,X,T\n# nothing\n\n' ': no options after the header'
bad_csv header 'S,X,Q\n1,2,3\n' ":1: unknown column 'Q'"
bad_csv missing '# comment first\nS,T,r\n1,2,0.1\n' ':2: the header has no column X'
bad_csv twice 'S,X,T,s\n1,2,3,4\n' ':1: column S is named twice'
bad_csv fields 'S,X,T\n10,20,1\n10,20\n' ':3: 2 fields, but the header names 3'
bad_csv word 'S,X,T\n10,20,1\n\n10,abc,1\n' ":4: X is 'abc', not a finite number"
bad_csv range 'S,X,T,v\n10,20,0,0.2\n' ':2: T = 0 is outside (0, 100]'
bad_csv emptys 'S,X,T\n,20,1\n' ':2: S is empty'
bad_csv nan 'S,X,T,r\n10,20,1,nan\n' ":2: r is 'nan', not a finite number"
expect_error 2 "$TMP/none.csv: cannot open" run blackscholes --backend cpu --input "$TMP/none.csv"
expect_error 2 "--size cannot be combined with --input" run blackscholes --backend cpu \
  --input "$TMP/hull.csv" --size 10

# Valid but extreme inputs: 1K paths of a 100-year option at v = 3 cannot be
# priced to anything a bound could hold (prices of 0 would pass): the row is
# unverifiable, never pass. Prices beyond float are refused before running.
printf 'S,X,T,r,v\n100,100,100,0.02,3\n' >"$TMP/extreme.csv"
"$TB" run montecarlo --backend cpu --input "$TMP/extreme.csv" --paths 1K --threads 1 --repeat 1 \
  $LIMIT --format csv --output "$TMP/ext.csv" 2>"$TMP/err" || fail "extreme options: $(cat "$TMP/err")"
[ "$(csv_select "$TMP/ext.csv" verified tells)" = "unverifiable,0" ] ||
  fail "extreme options: $(csv_select "$TMP/ext.csv" verified tells), expected unverifiable"
grep -q "1 of 1 results could not be verified" "$TMP/err" || fail "no word of the unverifiable row"
printf 'S,X,T,r,v\n100,100,100,1,0.67\n' >"$TMP/huge.csv"
expect_error 2 "option 1 .* simulated prices reach .* more than float holds" run montecarlo \
  --backend cpu --input "$TMP/huge.csv" --paths 1K
"$TB" run montecarlo --backend cpu --input "$TMP/huge.csv" --paths 1K --precision double \
  --threads 1 --repeat 1 $LIMIT --format csv >/dev/null 2>"$TMP/err" ||
  fail "the same option in double: $(cat "$TMP/err")"
finish
