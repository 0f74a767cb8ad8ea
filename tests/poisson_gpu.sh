#!/bin/sh
# The cuFFT twins of the Poisson family beside the FFTW ones (where the build
# has FFTW): every variant verified against the long-double reference in
# float and double, 2-D and 3-D, power-of-two and other even sizes, over
# block sizes (the shared-memory solve skips a block that is no multiple of
# 32, with a note); the callback variant on both sides (the R2C's store, the
# C2R's load), and cols (the callback on the column transforms of the
# transform split into rows and columns) on both sides in both layouts, a
# failure to link either an error unless cuFFT reports its libraries missing
# (CUFFT_MISSING_DEPENDENCY: a note); panel (the column FFT, solve and
# inverse in shared memory) over its panel widths and block sizes against
# r2c, cols and the CPU in its three schemes (radix 4, 16, and 32: radix 16
# with a last stage of up to 32 values), register bounds (minblocks 1, 2
# and 3), twiddle tables (flat, staged), layouts (natural, transposed) and
# butterflies a thread at a time (ilp 1 and 2: the same bits), its
# refusals (N no power of two, 3-D, a panel over shared memory, a width no
# power of two, radix 16 over 512 threads a block, radix 32 in double over
# 256, radix 4 bounded for two blocks, with the staged twiddle table or at
# ilp 2) one-line notes, ilp 3 an error of one line; a single mode solved
# to rounding (double below 1e-12); sigma = 0.05 at N = 64 exact to
# rounding; every variant on both backends gives the same error columns;
# plan times and the breakdown's stage times reported; a size over the
# device's memory refused with one line. Skips without a GPU.
. "${srcdir:-.}/tests/lib.sh"

gpu_present || { echo "no usable GPU: skipped"; exit 77; }
backends=gpu
"$TB" list 2>/dev/null | grep -A3 '^poisson' | grep -q 'cpu: c2c' && backends=cpu,gpu
RUN="run poisson --threads 2 --repeat 2 --warmup 1 $LIMIT --format csv -P planner=estimate"
: >"$TMP/cbskips"

# Single modes, several seeds, both dimensions, blocks 64, 100 and 256.
for dim in 2 3; do
  sizes=4,6,16,64,100,1024
  [ "$dim" -eq 3 ] && sizes=4,6,16,30,64
  for seed in 1 2; do
    "$TB" $RUN --backend gpu --precision float,double --size $sizes -P rhs=mode -P dim=$dim \
      --block 64,100,256 --seed $seed --output "$TMP/mode$dim.$seed.csv" 2>"$TMP/err" ||
      fail "mode dim=$dim seed=$seed: $(cat "$TMP/err")"
    expect_all_pass "$TMP/mode$dim.$seed.csv"
    csv_select "$TMP/mode$dim.$seed.csv" precision variant error err_linf roundtrip |
      awk -F, '$1 == "double" && ($3 >= 1e-12 || ($5 == 0 && $4 >= 1e-12)) { bad++; print }
        END { exit bad > 0 }' || fail "dim=$dim seed=$seed: a double mode is not exact to 1e-12"
    grep -q "c2c_smem skipped (block=100" "$TMP/err" ||
      fail "c2c_smem at block 100 was not reported as skipped"
    grep -q "panel skipped.*$([ "$dim" -eq 2 ] && echo 'N = 6 is no power of two' ||
      echo '2-D only')" "$TMP/err" || fail "panel dim=$dim: no skip note: $(cat "$TMP/err")"
    grep -E "(cb|cols) skipped" "$TMP/err" >>"$TMP/cbskips"
  done
done
# Per precision and size: c2c 3 blocks, c2c_smem 2, r2c 3, fftonly 1, and
# cb and cols 1 each where cuFFT takes the callback. Both must link the LTO
# callback: only a toolkit without the libraries cuFFT links it with
# (nvJitLink, NVRTC) may skip it everywhere (CUFFT_MISSING_DEPENDENCY), and
# cuFFT may refuse a callback on a shape it does not support
# (CUFFT_NOT_SUPPORTED), but never on the 2-D 1024^2 of the benchmarks, nor
# cols's batched column transforms at 64^3; the notes are shown here.
cb=1
while read -r note; do
  case $note in
    *CUFFT_MISSING_DEPENDENCY*) cb=0; echo "note: $note" ;;
    *CUFFT_NOT_SUPPORTED*) echo "note: $note" ;;
    *) fail "the callback variant did not link: $note" ;;
  esac
done <"$TMP/cbskips"
# panel: 3 blocks at each power-of-two size of 2-D (4, 16, 64, 1024) in
# both precisions, nothing in 3-D.
for dim in 2 3; do
  rows=$((dim == 2 ? 12 : 10))
  cbrows=$(csv_select "$TMP/mode$dim.1.csv" variant | grep -cE '^(cb|cols)$')
  panelrows=$((dim == 2 ? 24 : 0))
  [ "$(csv_select "$TMP/mode$dim.1.csv" variant | grep -c '^panel$')" -eq $panelrows ] ||
    fail "dim=$dim: panel did not run $panelrows times"
  expect_rows "$TMP/mode$dim.1.csv" $((rows * 9 + cbrows + panelrows))
done
if [ "$cb" -eq 1 ]; then
  for v in cb cols; do
    [ "$(csv_select "$TMP/mode2.1.csv" variant size | grep -c "^$v,1024\$")" -eq 2 ] ||
      fail "$v did not run at 1024^2 in float and double"
  done
  [ "$(csv_select "$TMP/mode3.1.csv" variant size | grep -c '^cols,64$')" -eq 2 ] ||
    fail "cols did not run at 64^3 in float and double"
fi

# Both sides of the callback (cols: in both layouts), 2-D and 3-D, both
# precisions: verified, and the same error columns as r2c's (1e-12 in
# double, 1e-5 in float). cols runs at every point: its column transforms
# are the plain batched shapes cuFFT takes callbacks on.
if [ "$cb" -eq 1 ]; then
  for dim in 2 3; do
    sizes=16,64,130
    [ "$dim" -eq 3 ] && sizes=16,30,64
    "$TB" $RUN --backend gpu --precision float,double --size $sizes -P dim=$dim \
      --variant r2c,cb,cols -P side=store,load -P layout=natural,transposed \
      --output "$TMP/cb$dim.csv" 2>"$TMP/err" || fail "cb dim=$dim: $(cat "$TMP/err")"
    expect_all_pass "$TMP/cb$dim.csv"
    for side in store load; do
      [ "$(csv_select "$TMP/cb$dim.csv" variant side | grep -c "^cb,$side\$")" -ge 4 ] ||
        fail "cb side=$side dim=$dim: fewer than 4 of its 6 rows ran"
      for layout in natural transposed; do
        [ "$(csv_select "$TMP/cb$dim.csv" variant side layout |
          grep -c "^cols,$side,$layout\$")" -eq 6 ] ||
          fail "cols side=$side layout=$layout dim=$dim: not all 6 rows ran: $(cat "$TMP/err")"
      done
    done
    csv_select "$TMP/cb$dim.csv" precision size variant side err_linf | awk -F, '
      { k = $1 "," $2 }
      $3 == "r2c" { e[k] = $5; next }
      { cb[++n] = $0; key[n] = k; v[n] = $5; t[n] = $1 == "double" ? 1e-12 : 1e-5 }
      END { for (i = 1; i <= n; i++)
              if (!(key[i] in e) || e[key[i]] - v[i] > t[i] || v[i] - e[key[i]] > t[i]) {
                bad++; print cb[i] }
            exit bad > 0 }' || fail "dim=$dim: a callback variant disagrees with r2c"
  done
fi

# panel in both schemes (radix 4 through shared memory, radix 16 in
# registers) over its widths (1, 2, 4, 8, auto) and block sizes (32, 96 and
# the scheme's largest: 1024, 512), float and double, the single mode and
# the Gaussian, at power-of-two sizes from 8 to 2048 (radix 16: one stage
# at 8, two of them with a last of radix 4 at 64, two at 256, three with a
# last of radix 8 at 2048): verified, and its error columns those of r2c
# and cols (1e-12 in double, 1e-5 in float; cols where cuFFT takes its
# callback). Every point runs but those whose panel exceeds shared memory,
# which must be skipped with a one-line note (none below N = 2048 in float).
vs=r2c
[ "$cb" -eq 1 ] && vs=r2c,cols
# agree_r2c CSV WHAT: every row's err_linf within 1e-12 (double) or 1e-5
# (float) of r2c's at its precision and size.
agree_r2c() {
  csv_select "$1" precision size variant err_linf | awk -F, '
    { k = $1 "," $2; t = $1 == "double" ? 1e-12 : 1e-5 }
    $3 == "r2c" { e[k] = $4; next }
    { row[++n] = $0; key[n] = k; v[n] = $4; tol[n] = t }
    END { for (i = 1; i <= n; i++)
            if (!(key[i] in e) || e[key[i]] - v[i] > tol[i] || v[i] - e[key[i]] > tol[i]) {
              bad++; print row[i] }
          exit bad > 0 }' || fail "$2: the error columns disagree with r2c's"
}
# panel's rows of results file $1 ($2 what they are) that differ only in
# ilp, the other knobs the columns named after $2, give the same error
# columns to the CSV's full precision (ilp 2 reorders operations across
# independent butterflies only: the same bits).
agree_ilp() {
  file=$1 what=$2
  shift 2
  csv_select "$file" variant error err_linf err_l2 "$@" | awk -F, '$1 == "panel" {
      k = ""; for (i = 5; i <= NF; i++) k = k "," $i; e = $2 "," $3 "," $4
      if (k in seen && seen[k] != e) { bad++; print k ": " seen[k] " and " e } seen[k] = e }
    END { exit bad > 0 }' || fail "$what: ilp 2's error columns are not ilp 1's"
}
for rhs in mode gauss; do
  for rb in 4:1024 16:512; do
    what="panel rhs=$rhs radix=${rb%:*}"
    "$TB" $RUN --backend gpu --precision float,double --size 8,64,256,2048 -P rhs=$rhs \
      --variant $vs,panel -P panel=1,2,4,8,auto -P radix=${rb%:*} --block 32,96,${rb#*:} \
      --output "$TMP/panel.$rhs.csv" 2>"$TMP/err" || fail "$what: $(cat "$TMP/err")"
    expect_all_pass "$TMP/panel.$rhs.csv"
    grep "panel skipped" "$TMP/err" | grep -v "bytes of shared memory a block" &&
      fail "$what: skipped for another reason than its shared memory"
    csv_select "$TMP/panel.$rhs.csv" precision size variant panel block | awk -F, '
      $3 == "panel" { n[$1 "," $2]++; seen[$1 "," $2 "," $4]++ }
      END { for (k in n) if (n[k] < 6) { bad++; print "few rows: " k }
            if (n["float,256"] != 15 || n["double,256"] != 15) { bad++; print "256: not 15 rows" }
            exit bad > 0 }' || fail "$what: points are missing"
    agree_r2c "$TMP/panel.$rhs.csv" "$what"
  done
done
# radix 32 and the register bounds for several blocks an SM (minblocks 2
# and 3) with both twiddle tables (flat, staged): every kernel the two
# schemes have, 256-thread bounds at blocks 96 and 256, 512-thread ones at
# 512, in float and double, the single mode and
# the Gaussian, at the sizes whose last stage radix 32 changes (32: one
# stage of 32 instead of 16 and 2; 512: 16 x 32 instead of 16 x 16 x 2) and
# 2048 (16 x 16 x 8 in both, radix 32 with its own swizzle), panels 1, 2
# and auto: every point runs (all fit: 2048 x 4 float values are 64 KB) but
# radix 32 in double at block 512 (a note), verified, with r2c's error
# columns.
for rhs in mode gauss; do
  what="panel rhs=$rhs radix=16,32 minblocks=1,2,3 twiddle=flat,staged"
  "$TB" $RUN --backend gpu --precision float,double --size 32,512,2048 -P rhs=$rhs \
    --variant r2c,panel -P panel=1,2,auto -P radix=16,32 -P minblocks=1,2,3 \
    -P twiddle=flat,staged --block 96,256,512 --output "$TMP/panel32.$rhs.csv" 2>"$TMP/err" ||
    fail "$what: $(cat "$TMP/err")"
  expect_all_pass "$TMP/panel32.$rhs.csv"
  grep "panel skipped" "$TMP/err" | grep -v "block 512 is outside 1..256" &&
    fail "$what: skipped for another reason than radix 32's double bound"
  csv_select "$TMP/panel32.$rhs.csv" precision size variant radix minblocks twiddle | awk -F, '
    $3 == "panel" { n[$1 "," $2]++; seen[$4 "," $5 "," $6]++ }
    END { for (k in n) {
            sizes++; want = k ~ /^float/ ? 108 : 90
            if (n[k] != want) { bad++; print "not " want " rows: " k } }
          for (k in seen) points++
          if (sizes != 6 || points != 12) { bad++; print "a size or a point is missing" }
          exit bad > 0 }' || fail "$what: points are missing"
  agree_r2c "$TMP/panel32.$rhs.csv" "$what"
done
# The transposed half spectrum (cols's plans write the rows' transforms
# column-major; the panel's loads are contiguous) in the three schemes,
# float and double, both right-hand sides, at 8 (one stage), 512 and 2048,
# panels 1, 2 and auto, blocks 96 and 256: every point runs, verified, with
# r2c's error columns.
for rhs in mode gauss; do
  what="panel rhs=$rhs layout=transposed"
  "$TB" $RUN --backend gpu --precision float,double --size 8,512,2048 -P rhs=$rhs \
    --variant r2c,panel -P layout=transposed -P panel=1,2,auto -P radix=4,16,32 --block 96,256 \
    --output "$TMP/paneltr.$rhs.csv" 2>"$TMP/err" || fail "$what: $(cat "$TMP/err")"
  expect_all_pass "$TMP/paneltr.$rhs.csv"
  grep "panel skipped" "$TMP/err" && fail "$what: a point was skipped"
  trrows=$(csv_select "$TMP/paneltr.$rhs.csv" variant layout | grep -c "^panel,transposed$")
  [ "$trrows" -eq 108 ] || fail "$what: $trrows rows, not 108"
  agree_r2c "$TMP/paneltr.$rhs.csv" "$what"
done
# Two butterflies a thread at a time (ilp 2) against one (ilp 1): radix 16
# and 32, float and double, both right-hand sides, at 512 (16 x 32 or
# 16 x 16 x 2), 2048 and 4096, panels 1, 2 and auto, blocks 96 (a thread's
# butterflies odd in number at some threads: a pair, then the last alone)
# and 256: every point runs, verified, and the two give the same error
# columns bit for bit (the same operations on every value, reordered
# across independent butterflies only).
for rhs in mode gauss; do
  what="panel rhs=$rhs ilp=1,2"
  "$TB" $RUN --backend gpu --precision float,double --size 512,2048,4096 -P rhs=$rhs \
    --variant r2c,panel -P panel=1,2,auto -P radix=16,32 -P ilp=1,2 --block 96,256 \
    --output "$TMP/panelilp.$rhs.csv" 2>"$TMP/err" || fail "$what: $(cat "$TMP/err")"
  expect_all_pass "$TMP/panelilp.$rhs.csv"
  grep "panel skipped" "$TMP/err" && fail "$what: a point was skipped"
  [ "$(csv_select "$TMP/panelilp.$rhs.csv" variant ilp | grep -c '^panel,2$')" -eq 72 ] ||
    fail "$what: not 72 rows at ilp 2"
  agree_r2c "$TMP/panelilp.$rhs.csv" "$what"
  agree_ilp "$TMP/panelilp.$rhs.csv" "$what" precision size panel radix block
done
# The size the schemes are for, once (one reference solve): 8192^2 float,
# radix 32 (16 x 16 x 32) at panels 1 and 2, every register bound, both
# twiddle tables, both layouts, ilp 1 and 2 and blocks 256 and 512,
# verified, with r2c's error columns, ilp 2's the same bits as ilp 1's.
"$TB" $RUN --backend gpu --precision float --size 8192 -P rhs=mode --variant r2c,panel \
  -P panel=1,2 -P radix=32 -P minblocks=1,2,3 -P twiddle=flat,staged \
  -P layout=natural,transposed -P ilp=1,2 --block 256,512 --output "$TMP/panel8k.csv" \
  2>"$TMP/err" || fail "panel 8192 radix 32: $(cat "$TMP/err")"
expect_all_pass "$TMP/panel8k.csv"
[ "$(csv_select "$TMP/panel8k.csv" variant | grep -c '^panel$')" -eq 96 ] ||
  fail "panel 8192 radix 32: not 96 rows: $(cat "$TMP/err")"
agree_r2c "$TMP/panel8k.csv" "panel 8192 radix 32"
agree_ilp "$TMP/panel8k.csv" "panel 8192 radix 32" panel minblocks twiddle layout block
# The defaults (radix and twiddle auto) resolve as documented: radix 32
# where it saves radix 16 a stage (N = 32 x 16^k) and the block is within
# its bound (float 512, double 256), else 16; the staged table with both.
"$TB" $RUN --backend gpu --precision float,double --size 32,256,512 --variant r2c,panel \
  --output "$TMP/panelauto.csv" 2>"$TMP/err" || fail "panel auto: $(cat "$TMP/err")"
expect_all_pass "$TMP/panelauto.csv"
agree_r2c "$TMP/panelauto.csv" "panel auto"
got=$(csv_select "$TMP/panelauto.csv" variant precision size radix twiddle | grep "^panel," | sort | tr '\n' ' ')
want="panel,double,256,16,staged panel,double,32,16,staged panel,double,512,16,staged \
panel,float,256,16,staged panel,float,32,32,staged panel,float,512,32,staged "
[ "$got" = "$want" ] || fail "panel auto: resolved to '$got', not '$want'"
# The refusals, each a one-line note and no error: N no power of two, 3-D,
# a panel wider than shared memory holds (in both schemes), a width no power
# of two, radix 16 (and radix 32 in double) with more threads a block than
# its kernel takes, radix 4 bounded for more than one block an SM, with
# the staged twiddle table or at ilp 2 (r2c runs
# beside it: a run where no configuration ran at all is an error).
for args in "-n 100:N = 100 is no power of two" "-n 16 -P dim=3:2-D only" \
  "-n 1024 -P panel=2048:bytes of shared memory a block" "-n 64 -P panel=3:power of two" \
  "-n 1024 -P panel=2048 -P radix=16:bytes of shared memory a block" \
  "-n 64 -P radix=16 --block 1024:block 1024 is outside 1..512" \
  "-n 64 -p double -P radix=32 --block 512:block 512 is outside 1..256" \
  "-n 64 -P radix=4 -P minblocks=2:bounded for one block an SM" \
  "-n 64 -P radix=4 -P twiddle=staged:reads the flat table only" \
  "-n 64 -P radix=4 -P ilp=2:one butterfly at a time only"; do
  "$TB" $RUN --backend gpu --variant r2c,panel ${args%%:*} --output "$TMP/refuse.csv" 2>"$TMP/err" ||
    fail "panel ${args%%:*}: an error: $(cat "$TMP/err")"
  [ "$(grep -c "panel skipped.*${args#*:}" "$TMP/err")" -ge 1 ] ||
    fail "panel ${args%%:*}: no note saying '${args#*:}': $(cat "$TMP/err")"
  [ "$(csv_select "$TMP/refuse.csv" variant | grep -c '^panel$')" -eq 0 ] ||
    fail "panel ${args%%:*}: a row ran"
done
# ilp outside 1..2: the parser's one-line error.
expect_error 2 "must be at most 2" run poisson --backend gpu --variant panel -n 64 -P ilp=3

# The breakdown (collect's stage times): every GPU row has its forward and
# inverse transforms; the solve kernels where the pipeline has one, the
# copies of the C2C pipelines only there; the stages add up to the order of
# the timed run's fastest repeat (events around each stage cost a little; a
# loose band; the fastest, not the median, because make check runs other
# GPU tests at once and a shared GPU can stretch both repeats of a run).
"$TB" $RUN --backend gpu --precision float --size 1024 --output "$TMP/stages.csv" \
  2>"$TMP/err" || fail "breakdown: $(cat "$TMP/err")"
expect_all_pass "$TMP/stages.csv"
csv_select "$TMP/stages.csv" variant in_ms fwd_ms solve_ms inv_ms out_ms min_ms | awk -F, '
  { c2c = $1 ~ /^c2c/; solve = $1 == "c2c" || $1 == "c2c_smem" || $1 == "r2c" || $1 == "panel"
    if (!($3 > 0 && $5 > 0)) { bad++; print "no FFT times: " $0 }
    if (solve != ($4 > 0) || (!solve && $4 != "")) { bad++; print "solve: " $0 }
    if (c2c != ($2 > 0 && $6 > 0) || (!c2c && ($2 != "" || $6 != ""))) {
      bad++; print "copies: " $0 }
    sum = $2 + $3 + $4 + $5 + $6
    if (!(sum > 0.3 * $7 && sum < 3 * $7 + 0.05)) { bad++; print "sum " sum ": " $0 } }
  END { exit bad > 0 }' || fail "the breakdown columns are wrong"

# The textbook problem and the narrow Gaussian on both backends: every
# variant's error columns agree with every other's to rounding (1e-12 in
# double, 1e-5 in float, absolute).
for dim in 2 3; do
  "$TB" $RUN --backend $backends --precision float,double --size 16,64,128 -P dim=$dim \
    -P sigma=0.1,0.05 --output "$TMP/gauss$dim.csv" 2>"$TMP/err" ||
    fail "gauss dim=$dim: $(cat "$TMP/err")"
  expect_all_pass "$TMP/gauss$dim.csv"
  csv_select "$TMP/gauss$dim.csv" precision size sigma variant err_linf roundtrip | awk -F, '
    $6 == 1 { if ($5 != "") bad++; next }
    { k = $1 "," $2 "," $3; t = $1 == "double" ? 1e-12 : 1e-5
      if (k in e && (e[k] - $5 > t || $5 - e[k] > t)) { bad++; print } e[k] = $5 }
    END { exit bad > 0 }' || fail "dim=$dim: the variants' error columns disagree"
  csv_select "$TMP/gauss$dim.csv" precision size sigma variant err_linf | awk -F, '
    $1 == "double" && $2 == 64 && $3 == 0.05 && $4 != "fftonly" && !($5 < 1e-14) { bad++ }
    END { exit bad > 0 }' || fail "dim=$dim: sigma 0.05 at N = 64 is not exact to rounding"
done
csv_select "$TMP/gauss2.csv" backend plan_ms | awk -F, '$1 == "gpu" && !($2 > 0) { bad++ }
  END { exit bad > 0 }' || fail "a GPU row without its plan time"

# A size over the device's memory: one line.
expect_error 2 "memory" run poisson --backend gpu --size 2^17 --repeat 1
finish
