#!/bin/sh
# The bridge's CUDA twins: every variant, float and double, paths and
# increments, at path counts that are not multiples of a tile or a block,
# several block sizes, dimensions, orders and prefetch depths (and the wide
# variant's widths and cache hints), every row verified; (d) every GPU
# variant agrees with the CPU on the same normals to within 2 units in the
# last place; a plan too long for constant memory is skipped by the
# constant-memory variants only. Skips without a GPU.
. "${srcdir:-.}/tests/lib.sh"

gpu_present || { echo "no usable GPU: skipped"; exit 77; }
run() { "$TB" run bridge $LIMIT --repeat 1 --warmup 0 --format csv "$@"; }
nvar=$("$TB" list bridge | grep -c '^    gpu ')
[ "$nvar" -eq 6 ] || fail "$nvar GPU variants, expected 6"

# rows_ok FILE ERR EXPECTED [LEAST]: every configuration either ran and
# verified or was skipped with a note (a block size a kernel's registers do
# not allow), and at least LEAST of them ran (default: half).
rows_ok() {
  _rows=$(csv_rows "$1" | wc -l)
  _skipped=$(grep -c "note: .* skipped" "$2")
  [ $((_rows + _skipped)) -eq "$3" ] || fail "$1: $_rows rows + $_skipped skipped, expected $3"
  [ "$_rows" -ge "${4:-$(($3 / 2))}" ] || fail "$1: only $_rows of $3 configurations ran"
  expect_all_pass "$1"
}

# 2 precisions x 3 sizes x 2 modes x 2 dims x 2 orders = 48 problems, x 3
# blocks x (const and shared, which take no prefetch depth: 1 each; prefetch,
# reuse, wide and smem at 2 prefetch depths: 2 each) = 30 configurations a
# problem (smem's stack at block 1024 may exceed a block's shared memory in
# double at d = 3: skipped with a note).
run --backend gpu --precision float,double --size 1,33,4099 --mode paths,increments --dim 1,3 \
  --order bisection,random --prefetch 1,16 --block 32,100,1024 --seed 5 \
  >"$TMP/g.csv" 2>"$TMP/g.err" || fail "sweep: $(cat "$TMP/g.err")"
rows_ok "$TMP/g.csv" "$TMP/g.err" 1440
# The tuning values the variants do not take are not swept for them: const
# has one configuration per problem and block (144), its rows no prefetch.
cr=$(csv_select "$TMP/g.csv" variant | grep -c '^const$')
ce=$(csv_select "$TMP/g.csv" variant prefetch | grep -c '^const,$')
cs=$(grep -c "note: const skipped" "$TMP/g.err")
[ "$cr" -eq "$ce" ] && [ $((cr + cs)) -eq 144 ] ||
  fail "const: $cr rows ($ce without prefetch) and $cs skipped, expected 144 configurations"
# wide: 2 precisions x 2 sizes x 2 modes x 2 dims x 4 widths x 2 cache hints
# x 2 prefetch depths = 256 problems, x 2 blocks; width x dim over 8 values
# (4 x 3, 8 x 3) and prefetch x width x dim over 64 (16 x 2 x 3, 16 x 8 x 1)
# are refused.
run --backend gpu --variant wide --precision float,double --size 33,4099 \
  --mode paths,increments --dim 1,3 --order random --width 1,2,4,8 --cache stream,plain \
  --prefetch 2,16 --block 64,100 --seed 9 >"$TMP/w.csv" 2>"$TMP/w.err" ||
  fail "wide sweep: $(cat "$TMP/w.err")"
rows_ok "$TMP/w.csv" "$TMP/w.err" 512
for refusal in "width 4 x dim 3 values a step" "width 8 x dim 3 values a step" \
  "prefetch 16 x width 2 x dim 3" "prefetch 16 x width 8 x dim 1"; do
  [ "$(grep -c "$refusal" "$TMP/w.err")" -eq $(case $refusal in width*) echo 64 ;; *) echo 32 ;; esac) ] ||
    fail "wide sweep: '$refusal' not refused as often as expected"
done
[ "$(csv_rows "$TMP/w.csv" | wc -l)" -eq 320 ] || fail "wide sweep: not 320 rows"
# smem at every width: 128 problems x 2 blocks, the same refusals (no cache
# hints: 32, 16, 16 and 16 of them).
run --backend gpu --variant smem --precision float,double --size 33,4099 \
  --mode paths,increments --dim 1,3 --order random --width 1,2,4,8 --prefetch 2,16 \
  --block 64,100 --seed 10 >"$TMP/v.csv" 2>"$TMP/v.err" || fail "smem sweep: $(cat "$TMP/v.err")"
rows_ok "$TMP/v.csv" "$TMP/v.err" 256
[ "$(csv_rows "$TMP/v.csv" | wc -l)" -eq 160 ] || fail "smem sweep: not 160 rows"
# smem's ring of normals through plans shorter than the ring (5 steps, P 16),
# staged at once (64 steps) and in chunks (200 steps).
run --backend gpu --variant smem --size 4099 --steps 5,64,200 --mode paths,increments \
  --order random --prefetch 16 --width 1,2 --block 64 --seed 11 \
  >"$TMP/p.csv" 2>"$TMP/p.err" || fail "smem steps: $(cat "$TMP/p.err")"
rows_ok "$TMP/p.csv" "$TMP/p.err" 12
[ "$(csv_rows "$TMP/p.csv" | wc -l)" -eq 12 ] || fail "smem steps: not 12 rows"
# Rings as long as a path (P 32 and 64, one value a step: P x V x d = 64 at
# most): every ring-taking variant, plans shorter than the ring (5 steps),
# one ring a path (64) and chunked (200), 96 configurations, all of them run.
run --backend gpu --variant prefetch,reuse,wide,smem --precision float,double --size 4099 \
  --steps 5,64,200 --order bisection,random --prefetch 32,64 --width 1 --block 64 --seed 12 \
  >"$TMP/r.csv" 2>"$TMP/r.err" || fail "long rings: $(cat "$TMP/r.err")"
rows_ok "$TMP/r.csv" "$TMP/r.err" 96 96

# Eight dimensions: P x d above 64 registers is refused (prefetch 16), the rest
# runs; wide and smem at width 4 are refused (4 x 8 values a step), at width
# 1 wide runs. One problem: const and shared once, the others at prefetch 8
# and 16.
run --backend gpu --size 77 --dim 8 --steps 9 --prefetch 8,16 --width 4 --block 64 \
  >"$TMP/d.csv" 2>"$TMP/d.err" || fail "dim 8: $(cat "$TMP/d.err")"
rows_ok "$TMP/d.csv" "$TMP/d.err" 10 4
[ "$(grep -c "prefetch 16 x dim 8" "$TMP/d.err")" -eq 2 ] ||
  fail "prefetch 16 at dim 8 not refused by prefetch and reuse: $(cat "$TMP/d.err")"
[ "$(grep -c "width 4 x dim 8 values a step" "$TMP/d.err")" -eq 4 ] ||
  fail "width 4 at dim 8 not refused by wide and smem: $(cat "$TMP/d.err")"
run --backend gpu --variant wide --size 77 --dim 8 --steps 9 --prefetch 8 --width 1 --block 64 \
  >"$TMP/d1.csv" 2>"$TMP/d.err" || fail "dim 8, width 1: $(cat "$TMP/d.err")"
rows_ok "$TMP/d1.csv" "$TMP/d.err" 1
# auto (smem's P and V, wide's V, the defaults): the deepest ring of at most
# 32, then the widest V (smem 2, wide 4), whose P x V x d normals fit in 64
# registers and V x d values in 8; the rows name the values taken, and
# verify. d = 1, 2, 3 and 8 at the defaults; smem with P or V given.
run --backend gpu --variant wide,smem --precision float,double --size 4099 --dim 1,2,3,8 \
  --steps 9 --block 64 >"$TMP/a.csv" 2>"$TMP/a.err" || fail "auto: $(cat "$TMP/a.err")"
rows_ok "$TMP/a.csv" "$TMP/a.err" 16 16
[ "$(csv_select "$TMP/a.csv" variant dim prefetch width | sort -u | tr '\n' ' ')" = \
  "smem,1,32,2 smem,2,32,1 smem,3,16,1 smem,8,8,1 wide,1,8,4 wide,2,8,4 wide,3,8,2 wide,8,8,1 " ] ||
  fail "auto: not the values of the rule: $(csv_select "$TMP/a.csv" variant dim prefetch width | sort -u)"
for given in "--prefetch 8:8,2" "--width 4:16,4"; do
  run --backend gpu --variant smem --size 4099 ${given%:*} >"$TMP/a1.csv" 2>"$TMP/a.err" &&
    [ "$(csv_select "$TMP/a1.csv" prefetch width)" = "${given#*:}" ] ||
    fail "auto beside ${given%:*}: $(cat "$TMP/a1.csv" "$TMP/a.err")"
  expect_all_pass "$TMP/a1.csv"
done
# smem's stack in shared memory: d = 8 in double at block 1024 needs more
# than a block may have, and is skipped with a note.
run --backend gpu --variant smem --precision double --size 77 --dim 8 --steps 9 --prefetch 1 \
  --width 1 --block 1024 >"$TMP/s.csv" 2>"$TMP/s.err"
grep -q "bytes of shared memory; a block may have" "$TMP/s.err" ||
  fail "smem's stack over shared memory not refused: $(cat "$TMP/s.err")"
# 2000 steps do not fit in constant memory: const and prefetch are skipped.
run --backend gpu --size 65 --steps 2000 --order random --block 128 \
  >"$TMP/l.csv" 2>"$TMP/l.err" || fail "2000 steps: $(cat "$TMP/l.err")"
[ "$(grep -c "do not fit in constant memory" "$TMP/l.err")" -eq 2 ] ||
  fail "2000 steps: const and prefetch not skipped: $(cat "$TMP/l.err")"
[ "$(csv_rows "$TMP/l.csv" | wc -l)" -eq 4 ] || fail "2000 steps: shared, reuse, wide and smem did not run"

# Both backends, GPU tuning values: each CPU variant once per thread count
# (not once per GPU knob), each GPU variant once per (prefetch, width) it
# takes: const and shared 1, prefetch and reuse 2, wide and smem 4; and the
# speedup summary has one line for the one problem, naming each backend's
# best configuration with its tuning values.
"$TB" run bridge --backend cpu,gpu --threads 1,2 --prefetch 8,16 --width 1,2 --size 4099 \
  --repeat 1 --warmup 0 $LIMIT --output "$TMP/both.csv" >"$TMP/both.txt" 2>"$TMP/both.err" ||
  fail "cpu,gpu: $(cat "$TMP/both.err")"
[ "$(grep -c ',cpu,' "$TMP/both.csv")" -eq 4 ] || fail "cpu,gpu: not 4 CPU rows"
gr=$(grep -c ',gpu,' "$TMP/both.csv")
gs=$(grep -c "note: .* skipped" "$TMP/both.err")
[ $((gr + gs)) -eq 14 ] || fail "cpu,gpu: $gr GPU rows and $gs skipped, expected 14"
# The table (on stdout beside the CSV file) ends with the summary.
[ "$(grep -c ' threads=.* gpu .* block=.*[0-9]x' "$TMP/both.txt")" -eq 1 ] ||
  fail "cpu,gpu: not one speedup line naming the best configurations: $(cat "$TMP/both.txt")"
sed -n '/^# speedup: /,$p' "$TMP/both.txt" >"$TMP/both.sp"
grep -q "^#.* precision=float" "$TMP/both.sp" && grep -q "^#.* size=4099" "$TMP/both.sp" ||
  fail "cpu,gpu: the summary does not say the problem: $(cat "$TMP/both.txt")"
# The table and its speedup summary keep to 120 columns.
[ "$(wide "$TMP/both.txt")" -le 120 ] || fail "cpu,gpu: the table is $(wide "$TMP/both.txt") wide: $(cat "$TMP/both.txt")"

# ulps FILE1 FILE2 PREC: the largest difference between two dumps in units in
# the last place of the larger value (0 when they are equal).
ulps() {
  awk -F, -v mant="$([ "$3" = float ] && echo 23 || echo 52)" \
    -v emin="$([ "$3" = float ] && echo -126 || echo -1022)" '
    NR == FNR { if (FNR > 1) for (i = 2; i <= NF; i++) a[FNR, i] = $i; rows = FNR; next }
    FNR > 1 {
      for (i = 2; i <= NF; i++) {
        x = a[FNR, i] + 0; y = $i + 0
        if (x == y) continue
        m = x < 0 ? -x : x; if ((y < 0 ? -y : y) > m) m = y < 0 ? -y : y
        e = int(log(m) / log(2)); if (2 ^ e > m) e--; if (2 ^ (e + 1) <= m) e++
        if (e < emin) e = emin
        r = (x > y ? x - y : y - x) / 2 ^ (e - mant)
        if (r > worst) worst = r
      }
      seen = FNR
    }
    END { print (seen == rows ? worst + 0 : "rows-differ") }' "$1" "$2"
}

# (d) The same normals on both backends: within 2 ulp (the kernels use the
# same fused operations, so 0 is expected).
printf '2 0.6\n0.6 1\n' >"$TMP/sigma"
for prec in float double; do
  for mode in paths increments; do
    for dim in 1 2; do
      common="--precision $prec --size 1000 --mode $mode --dim $dim --order random --seed 8"
      [ "$dim" -eq 2 ] && common="$common --cov $TMP/sigma"
      "$TB" run bridge --backend cpu --variant omp --threads 2 $LIMIT --repeat 1 --warmup 0 \
        $common --dump "$TMP/cpu.dump" >/dev/null 2>"$TMP/err" || fail "cpu dump: $(cat "$TMP/err")"
      for v in const prefetch shared reuse wide "wide --width 1 --cache plain --prefetch 2" \
        smem "smem --width 1 --prefetch 16" "smem --width 2 --prefetch 4"; do
        "$TB" run bridge --backend gpu --variant $v --block 96 --repeat 1 --warmup 0 $common \
          --dump "$TMP/gpu.dump" >/dev/null 2>"$TMP/err" || fail "$v dump: $(cat "$TMP/err")"
        u=$(ulps "$TMP/cpu.dump" "$TMP/gpu.dump" $prec)
        [ "$u" != rows-differ ] && awk -v u="$u" 'BEGIN { exit !(u <= 2) }' ||
          fail "(d) $v $prec $mode d=$dim: CPU and GPU differ by $u ulp"
      done
    done
  done
done

# A normals file on the GPU: X_T = x0 + Z_0 (uniform times, T - t0 = 1).
printf '\000\000\200\077\000\000\000\277' >"$TMP/z2"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do cat "$TMP/z2"; done >"$TMP/z.f32" # 4 paths x 7
for v in const prefetch shared reuse wide smem; do
  "$TB" run bridge --backend gpu --variant $v --size 4 --steps 7 --x0 2 --normals "$TMP/z.f32" \
    --repeat 1 --warmup 0 --dump "$TMP/n.dump" --format csv >"$TMP/n.csv" 2>"$TMP/err" ||
    fail "$v normals: $(cat "$TMP/err")"
  [ "$(sed -n 2p "$TMP/n.dump" | cut -d, -f8)" = 3 ] || fail "$v: X_T of the known normals"
done
finish
