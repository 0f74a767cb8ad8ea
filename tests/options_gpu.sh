#!/bin/sh
# The option pricing family's CUDA twins: every variant at awkward sizes,
# block sizes and grids, every row verified, transfers timed; Black-Scholes
# on the GPU within an L1 of 1e-6 of the CPU in float; the fused Monte Carlo
# kernels on the CPU's paths (same seed), agreeing with the CPU to rounding,
# while cuRAND's two-step pipeline (other normals) does not. Skips without a GPU.
. "${srcdir:-.}/tests/lib.sh"

gpu_present || { echo "no usable GPU: skipped"; exit 77; }

# Black-Scholes: 2 CDFs x 2 math forms x 4 sizes (1, 3: below a pair or a
# quad; odd tails) x 3 blocks x 3 grids for each variant and precision it
# takes (quad is float only).
"$TB" run blackscholes --backend gpu --precision float,double --cnd poly,erfc --math libm,fast \
  --size 1,3,4099,1000003 --block 32,100,1024 --grid auto,1,7 --repeat 2 --warmup 1 --seed 11 \
  --format csv --output "$TMP/bs.csv" 2>"$TMP/err" || fail "blackscholes: $(cat "$TMP/err")"
# nvp: the (variant, precision) pairs; nvar: the variants.
nvp=$("$TB" list blackscholes | awk '$1 == "gpu" { sub(/;$/, "", $3); n += split($3, a, ",") } END { print n }')
nvar=$("$TB" list blackscholes | grep -c '^    gpu ')
# A kernel instance with too many registers for 1024 threads is skipped with a
# note (the runner's TB_EUNSUP); those configurations have no rows.
skipped=$(grep -c "skipped (block=1024" "$TMP/err")
[ "$(grep -c "skipped (block=" "$TMP/err")" -eq "$skipped" ] || fail "skips at blocks below 1024"
all_pass "$TMP/bs.csv" $((144 * nvp - skipped))
for c in h2d_pageable_ms h2d_pinned_ms d2h_pageable_ms d2h_pinned_ms; do
  empty=$(csv_rows "$TMP/bs.csv" | cut -d, -f"$(csv_col "$TMP/bs.csv" $c)" | grep -c '^$')
  [ "$empty" -eq 0 ] || fail "$empty blackscholes rows without $c"
done
# Float results against the exact reference: L1 below 1e-6 (the polynomial's share included).
awk -F, -v p="$(csv_col "$TMP/bs.csv" precision)" -v s="$(csv_col "$TMP/bs.csv" size)" \
  -v l="$(csv_col "$TMP/bs.csv" l1)" "$CSV_ROW"' && $p == "float" && $s > 1000 && !($l <= 1e-6) { bad++ }
  END { exit bad > 0 }' "$TMP/bs.csv" || fail "float L1 above 1e-6"

# GPU against CPU, float, the same formula: L1 = sum |gpu - cpu| / sum |cpu|
# over calls and puts <= 1e-6.
for cnd in poly erfc; do
  for math in libm fast; do
    "$TB" run blackscholes --backend cpu --size 2^20+1 --cnd $cnd --math $math --threads 2 \
      --repeat 1 --seed 12 $LIMIT --dump "$TMP/cpu.csv" --format csv >/dev/null 2>"$TMP/err" ||
      fail "cpu dump: $(cat "$TMP/err")"
    for v in $("$TB" list blackscholes | awk '$1 == "gpu" { print $2 }'); do
      "$TB" run blackscholes --backend gpu --variant $v --size 2^20+1 --cnd $cnd --math $math \
        --repeat 1 --seed 12 --dump "$TMP/gpu.csv" --format csv >/dev/null 2>"$TMP/err" ||
        fail "gpu dump $v: $(cat "$TMP/err")"
      l1=$(paste -d, "$TMP/cpu.csv" "$TMP/gpu.csv" | awk -F, 'NR > 1 {
             d += ($6 > $13 ? $6 - $13 : $13 - $6) + ($7 > $14 ? $7 - $14 : $14 - $7); s += $6 + $7 }
             END { printf "%.3g", d / s }')
      awk -v l="$l1" 'BEGIN { exit !(l <= 1e-6) }' ||
        fail "$v $cnd $math: GPU vs CPU L1 $l1 above 1e-6"
    done
  done
done

# Monte Carlo: calls, odd path counts (partial Philox groups; 16387 leaves
# the fast float kernels whole rounds of TB_MC_FSUM_GROUPS groups and a
# remainder) and 4100 (the two-step kernel's 16-byte loads of normals), 2
# precisions x 2 math forms x 3 sizes x 3 path counts; blocks 32 and 512 (100
# is skipped: the block reduction needs multiples of 32; 1024 would be
# skipped in double, whose fused kernel needs more than 64 registers a
# thread); twostep and fused over 3 grids, fused1b (one block per option)
# without a grid axis: 14 rows per problem.
"$TB" run montecarlo --backend gpu --precision float,double --math libm,fast --size 1,3,37 \
  --paths 1001,4100,16387 --block 32,100,512 --grid auto,1,7 --repeat 2 --warmup 1 --seed 13 \
  --format csv --output "$TMP/mc.csv" 2>"$TMP/err" || fail "montecarlo: $(cat "$TMP/err")"
mc_verified "$TMP/mc.csv" 504
grep -q "skipped (block=100" "$TMP/err" || fail "montecarlo block 100 was not reported as skipped"
# The fused kernels' math as run: the tables in double (all, the default),
# the library's in float (which has no table forms); twostep has no such
# tuning.
csv_select "$TMP/mc.csv" variant precision tables | awk -F, '
  $1 == "twostep" && $3 != "" { bad++ }
  $1 != "twostep" && $3 != ($2 == "double" ? "all" : "none") { bad++ }
  END { exit bad > 0 }' || fail "montecarlo: the tables column is not the math run"
expect_error 2 "tables: unknown value 'some'" run montecarlo --backend gpu --tables some
# Antithetic pairs, calls and puts: 2 x 2 x 2 x 2 x 2 problems, 2 blocks, 6 rows each.
"$TB" run montecarlo --backend gpu --precision float,double --size 5,37 --paths 1002,16386 \
  --antithetic yes --payoff call,put --math libm,fast --block 64,256 --repeat 1 --seed 14 \
  --format csv --output "$TMP/anti.csv" 2>"$TMP/err" || fail "antithetic: $(cat "$TMP/err")"
mc_verified "$TMP/anti.csv" 192

# Per-option r and v from a file: the kernels' array forms.
printf 'S,X,T,r,v\n42,40,0.5,0.1,0.2\n100,95,1,0.05,0.25\n50,55,2,,\n20,20,0.5,-0.01,0.4\n30,10,3,0.03,0.5\n' \
  >"$TMP/rv.csv"
for prec in float double; do
  nv=$("$TB" list blackscholes | awk -v p=$prec '$1 == "gpu" && index($3, p) { n++ } END { print n }')
  "$TB" run blackscholes --backend gpu --input "$TMP/rv.csv" --precision $prec --cnd poly,erfc \
    --math libm,fast --repeat 1 --format csv --output "$TMP/rvb.csv" 2>"$TMP/err" ||
    fail "rv bs: $(cat "$TMP/err")"
  all_pass "$TMP/rvb.csv" $((4 * nv))
  "$TB" run montecarlo --backend gpu --input "$TMP/rv.csv" --precision $prec --paths 2^16 \
    --antithetic no,yes --math libm,fast --repeat 1 --format csv --output "$TMP/rvm.csv" \
    2>"$TMP/err" || fail "rv mc: $(cat "$TMP/err")"
  mc_verified "$TMP/rvm.csv" 12
done

# CPU and GPU with the same seed simulate the same paths: each price and
# standard error within 2b of the CPU's, b the rounding bound of the verifier
# (src/families/montecarlo.c): each run is within b of exact arithmetic on the
# same uniforms. The bound is far below the standard error, so independent
# paths (cuRAND's) are caught.
# agree CPU GPU PREC SAMPLES prints three counts: the options outside 2b; the
# informative options, whose CPU standard error is over 50 times 2b (there two
# independent estimates land within 2b of each other with probability below
# 0.56 * 2b / se < 0.012); and the informative options outside 2b.
agree() {
  paste -d, "$1" "$2" | awk -F, -v prec="$3" -v m="$4" 'NR > 1 {
    u = prec == "float" ? 2 ^ -24 : 2 ^ -53; ud = 2 ^ -53; rmax = prec == "float" ? 6.7 : 8.6
    sig = $5 * sqrt($3); mu = ($4 - 0.5 * $5 * $5) * $3; amu = mu < 0 ? -mu : mu
    ar = $4 < 0 ? -$4 : $4; dz = rmax * 30 * u
    e = 11 * u + 4 * u * (ar + 0.5 * $5 * $5) * $3 + 2 * u * amu
    e += sig * (dz + 4 * u * rmax) + u * (amu + sig * rmax)
    sc = $1 * exp(ar * $3) + $2
    tol = 2 * (2 * $1 * e + 18 * u * sc + 2 * m * ud * sc)
    dp = $6 - $16; ds = $7 - $17
    far = dp * dp > tol * tol || ds * ds > tol * tol
    out += far
    if ($7 > 50 * tol) { inf++; infout += far } }
    END { print out + 0, inf + 0, infout + 0 }'
}
for prec in float double; do
  for anti in no yes; do
    for math in libm fast; do
      # Odd sample counts leave a partial Philox group; few paths keep the
      # standard errors large next to 2b, so that at least 10 options in float
      # are informative.
      if [ $anti = yes ]; then paths=4098 samples=2049; else paths=4097 samples=4097; fi
      common="--precision $prec --size 37 --paths $paths --antithetic $anti --math $math"
      common="$common --repeat 1 --seed 15"
      "$TB" run montecarlo --backend cpu $common --threads 2 $LIMIT --dump "$TMP/c.csv" \
        --format csv >/dev/null 2>"$TMP/err" || fail "mc cpu dump: $(cat "$TMP/err")"
      # fused --tables none, exp: the library's log and exp, or its log and the
      # table's exp, where the default takes both from tables (double; float
      # always takes the library's).
      for cfg in "fused --grid auto" "fused --grid 7" "fused1b --block 96" \
        "fused --tables none" "fused --tables exp"; do
        "$TB" run montecarlo --backend gpu $common --variant $cfg --dump "$TMP/g.csv" \
          --format csv >/dev/null 2>"$TMP/err" || fail "mc gpu dump $cfg: $(cat "$TMP/err")"
        set -- $(agree "$TMP/c.csv" "$TMP/g.csv" $prec $samples)
        [ "$1" -eq 0 ] ||
          fail "$prec $math antithetic=$anti $cfg: $1 of 37 options differ from the CPU beyond rounding"
      done
      "$TB" run montecarlo --backend gpu $common --variant twostep --dump "$TMP/g.csv" \
        --format csv >/dev/null 2>"$TMP/err" || fail "mc twostep dump: $(cat "$TMP/err")"
      # cuRAND's normals are not Philox's: the informative options differ (at
      # least three in four, which independent estimates miss with odds far
      # below one in a thousand; options priced at zero by every path cannot).
      set -- $(agree "$TMP/c.csv" "$TMP/g.csv" $prec $samples)
      [ "$2" -ge 10 ] && [ $((4 * $3)) -ge $((3 * $2)) ] ||
        fail "$prec $math antithetic=$anti twostep: $3 of $2 informative options differ (other normals)"
    done
  done
done
finish
