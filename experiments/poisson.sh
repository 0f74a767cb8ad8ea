#!/bin/bash
# The spectral Poisson study on a GPU machine (16-core Xeon + H100/H200), run
# from the build folder:
#   OUT=results/poisson bash experiments/poisson.sh
# (a) GPU, 2-D at 4096^2 and 8192^2, float and double: every variant (the
#     published C2C pipeline, with k^2 in shared memory, R2C with the fused
#     solve, the solve in an LTO callback on either side: the R2C's store or
#     the C2R's load) beside cuFFT R2C + C2R alone (fftonly) in the same run;
#     the best solve over fftonly (target <= 1.10) and the fused r2c against
#     the three-kernel c2c (target: faster); cb's plan_ms includes the
#     callback's link by nvJitLink;
# (b) CPU at 16 threads, FFTW measure plans (wisdom in the cache after the
#     first run): the best solve (r2c, or panel over its widths: the column
#     passes and the solve done panel by panel in cache) over FFTW r2c + c2r
#     alone (target <= 1.10), c2c beside;
# (c) the speedup of the best GPU solve over the best CPU solve across sizes,
#     2-D 64..16384 and 3-D 32..512, with and without transfers (the run's
#     speedup summary), fftonly left out so that solves meet solves;
# (d) the discretisation error of the textbook problem as N doubles, and of
#     sigma = 0.05, in double (the err_linf and err_l2 columns);
# (e) the breakdown at the published size, 1024^2 float: H2D (pageable,
#     pinned), each FFT, each kernel, D2H, per GPU variant, in microseconds
#     beside the published Tesla C870 profile.
# Full CSV and logs go to $OUT; a short summary is printed last. The
# reference solve of the verifier runs in long double on the host (seconds
# at 8192^2, most of a minute at 16384^2), once per problem.
set -u
OUT=${OUT:-.}
mkdir -p "$OUT"
. "$(dirname "$0")/lib.sh"

# (a) GPU against cuFFT alone.
bench gpu_target run poisson --backend gpu --precision float,double --size 4096,8192 \
  --block 128,256,512 -P side=store,load --repeat 30 --warmup 5 \
  --pivot size+precision:variant:median_ms

# (b) CPU against FFTW alone, 16 threads, measured plans.
bench cpu_target run poisson --backend cpu --precision float,double --size 4096,8192 \
  --threads 16 -P planner=measure -P panel=auto,sweep --repeat 10 --warmup 2 \
  --pivot size+precision:variant:median_ms

# (c) Speedups across sizes, 2-D and 3-D.
bench speedup2d run poisson --backend cpu,gpu --precision float,double \
  --size 64,256,1024,4096,16384 --variant c2c,c2c_smem,r2c,cb,panel --threads 16 -P planner=measure \
  -P side=store,load --repeat 10 --warmup 2
bench speedup3d run poisson --backend cpu,gpu --precision float,double --size 32,64,128,256,512 \
  -P dim=3 --variant c2c,c2c_smem,r2c,cb,panel --threads 16 -P planner=measure -P side=store,load \
  --repeat 10 --warmup 2

# (d) The discretisation error.
bench error run poisson --backend cpu --precision double --size 8,16,32,64,128,256,512 \
  -P sigma=0.1,0.05 --variant r2c --threads 16 -P planner=estimate --repeat 1 --warmup 0

# (e) The breakdown at the published size (the doc's one command).
bench breakdown run poisson --backend gpu --size 1024 --precision float \
  --variant c2c,c2c_smem,r2c,cb,fftonly -P side=store,load --repeat 50 --warmup 5 \
  --columns variant,side,h2d_pageable_ms,h2d_pinned_ms,in_ms,fwd_ms,solve_ms,inv_ms,out_ms,\
d2h_pageable_ms,d2h_pinned_ms,median_ms

# ---- The summary ---------------------------------------------------------

# ratio FILE: per size and precision, each variant's median over fftonly's,
# and whether the best solve is within 1.10 and r2c beats c2c.
ratio() {
  f=$1
  [ -s "$f" ] || return
  awk -F, -v va="$(csv_col "$f" variant)" -v sz="$(csv_col "$f" size)" \
    -v pr="$(csv_col "$f" precision)" -v ms="$(csv_col "$f" median_ms)" \
    -v ve="$(csv_col "$f" verified)" '
    '"$CSV_ROW"' && $ve == "pass" {
      k = $sz " " $pr
      if (!(k in seen)) { seen[k] = 1; order[n++] = k }
      if (!((k, $va) in t) || $ms < t[k, $va]) t[k, $va] = $ms
    }
    END {
      printf "%-14s %10s %10s %10s %10s %10s %10s %9s %9s %s\n", "size prec", "fftonly", "c2c",
        "c2c_smem", "r2c", "cb", "panel", "best/fft", "r2c/c2c", "targets"
      for (i = 0; i < n; i++) {
        k = order[i]; b = ""
        split("c2c c2c_smem r2c cb panel", vs, " ")
        for (j = 1; j <= 5; j++) if ((k, vs[j]) in t && (b == "" || t[k, vs[j]] < b)) b = t[k, vs[j]]
        fo = t[k, "fftonly"]; c = (k, "c2c") in t ? t[k, "c2c"] : ""; r = t[k, "r2c"]
        printf "%-14s %10.4g %10s %10s %10.4g %10s %10s %9.3f %9s %s\n", k, fo,
          c == "" ? "-" : sprintf("%.4g", c),
          (k, "c2c_smem") in t ? sprintf("%.4g", t[k, "c2c_smem"]) : "-", r,
          (k, "cb") in t ? sprintf("%.4g", t[k, "cb"]) : "-",
          (k, "panel") in t ? sprintf("%.4g", t[k, "panel"]) : "-", b / fo,
          c == "" ? "-" : sprintf("%.3f", r / c),
          (b / fo <= 1.10 ? "best<=1.10x" : "best>1.10x") (c == "" ? "" : (r < c ? ", r2c beats c2c" : ", r2c NOT faster"))
      }
    }' "$f"
}

echo
echo "### (a) GPU: median ms per variant, the best solve over cuFFT R2C + C2R alone"
ratio "$OUT/gpu_target.csv"
echo
echo "### (b) CPU, 16 threads: median ms per variant, the best solve over FFTW r2c + c2r alone"
ratio "$OUT/cpu_target.csv"
echo
echo "### (c) speedups of the best GPU solve over the best CPU solve (kernel, with transfers)"
for t in speedup2d speedup3d; do
  echo "-- $t"
  sed -n '/[Ss]peedup/,/^$/p' "$OUT/$t.txt"
done
echo
echo "### (d) discretisation error (double): err_linf and err_l2 by N and sigma"
f=$OUT/error.csv
[ -s "$f" ] && csv_select "$f" sigma size err_linf err_l2 verified
echo
echo "### (e) the breakdown at 1024^2 float, microseconds: published (Tesla C870) beside today"
f=$OUT/breakdown.csv
if [ -s "$f" ]; then
  # The columns by number (0: absent, as side is when cb did not run).
  cols=
  for c in variant side h2d_pageable_ms h2d_pinned_ms in_ms fwd_ms solve_ms inv_ms out_ms \
    d2h_pageable_ms d2h_pinned_ms median_ms; do
    k=$(csv_col "$f" "$c")
    cols="$cols${cols:+,}${k:-0}"
  done
  awk -F, -v cols="$cols" '
    function cell(k) { return c[k] ? $(c[k]) : "" }
    function us(x) { return x == "" ? "-" : sprintf("%.1f", 1000 * x) }
    BEGIN {
      split(cols, c, ",")
      split("H2D pageable,H2D pinned,real2complex,forward FFT,solve,inverse FFT,complex2real," \
            "D2H pageable,D2H pinned,run (no transfers)", stage, ",")
      split("1427,-,1654,22760,6390 (2760 smem),22760,2844 (1525 coalesced),2461,-,60296", pub, ",")
    }
    '"$CSV_ROW"' {
      n++; name[n] = cell(1) (cell(2) == "" ? "" : "/" cell(2))
      for (k = 3; k <= 12; k++) v[n, k - 2] = cell(k)
    }
    END {
      printf "%-20s %22s", "stage", "published C870"
      for (i = 1; i <= n; i++) printf " %14s", name[i]
      printf "\n"
      for (k = 1; k <= 10; k++) {
        printf "%-20s %22s", stage[k], pub[k]
        for (i = 1; i <= n; i++) printf " %14s", us(v[i, k])
        printf "\n"
      }
    }' "$f"
fi
exit $status
