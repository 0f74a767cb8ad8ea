#!/bin/sh
# The red-black SOR family on the GPU against the CPU: every CUDA variant
# (published, split, fused, stream, roll, lean, jacobi) in float and double on
# unequal sides that are not multiples of the tiles (16 x 16, 32 x 8, the
# fused sweep's 30 x 6 outputs and 32 planes a block, the stream and roll
# sweeps' shapes, plane chunks and roll's register caps), on the
# manufactured problem (stretched
# mesh), the Laplace problem (every row uniform) and the capacitor
# (electrodes held, rows of mixed materials), lean with and without its L2
# prefetches (both ways) and its pipe of asynchronous copies (every depth):
# every row verified, and within
# each method the CPU and GPU twins give the same bits (err_max and the true
# residual to 17 digits) after the same number of iterations: the one-pass
# sweeps (fused, stream, roll; the CPU's fused and wave) equal the two-pass
# ones.
# The convergence rate on the GPU: about 4x per halving of h. Skips without
# a GPU.
. "${srcdir:-.}/tests/lib.sh"
RUN_OPTS="--backend cpu,gpu --threads 2 --repeat 2 --warmup 0"

gpu_present || { echo "no usable GPU: skipped"; exit 77; }

# same_bits FILE: per precision, problem, mesh and size, every SOR row (natural, split,
# fused, published) has one (iterations, err_max, true_res), and so has every
# jacobi row; the column true_res comes from the verifier's long-double pass
# over the result, so equal digits mean an equal result.
same_bits() {
  csv_select "$1" backend variant precision problem mesh size nx iterations err_max true_res \
    >"$TMP/bits"
  awk -F, '{ m = $2 == "jacobi" ? "jacobi" : "sor"; key = m "," $3 "," $4 "," $5 "," $6 "," $7
      val = $8 "," $9 "," $10; n[key]++
      if (key in s && s[key] != val) { print key ": " s[key] " vs " $1 " " $2 " " val; bad++ }
      s[key] = val }
    END { for (k in n) if (n[k] < 2) { print "only one row for " k; bad++ }; exit bad > 0 }' \
    "$TMP/bits" || fail "$1: CPU and GPU twins differ within a method"
}

run_csv "$TMP/a.csv" sor --variant natural,split,published,fused,wave,dense,stream,roll \
  --precision float,double --size 20 -P nx=37 -P ny=21 -P nz=70 -P check=5 \
  -P problem=manufactured,capacitor -P mesh=stretched --block 96,256 --bx 32,64 --zchunk 1,9,128
# 2 precisions x 2 problems x (5 CPU + 3 GPU + 9 stream + 9 roll: blocks of 32 x 3 (bx 64
# does not divide 96, skipped), 32 x 8 and 64 x 4, each with 1, 9 and 128 planes a block)
all_pass "$TMP/a.csv" 104
same_bits "$TMP/a.csv"
# The solver stopped on the check interval, before maxiter.
awk -F, -v i="$(csv_col "$TMP/a.csv" iterations)" "$CSV_ROW"' { if ($i % 5 != 0) bad++ }
  END { exit bad > 0 }' "$TMP/a.csv" || fail "a stop off the check interval of 5"

# Single points, two and three a side, and a box of odd sides: the kernels'
# edges, and jacobi on both backends (every variant: 6 CPU, 7 GPU).
run_csv "$TMP/edge.csv" sor --precision double --size 1,2,3,9 -P nx=auto,11 -P problem=laplace \
  -P tol=1e-10 -P maxiter=100000
all_pass "$TMP/edge.csv" 104
same_bits "$TMP/edge.csv"

# The manufactured error on the GPU falls about 4x a halving, as on the CPU.
run_csv "$TMP/conv.csv" sor --variant natural,fused,split,published,stream,roll,lean \
  --precision double --size 15,31,63 -P tol=1e-11
all_pass "$TMP/conv.csv" 27
csv_select "$TMP/conv.csv" backend variant size err_max >"$TMP/conv"
awk -F, '{ e[$2, $3] = $4 }
  END { split("published split fused stream roll lean", v, " ")
    for (k = 1; k <= 6; k++) {
      r1 = e[v[k], 15] / e[v[k], 31]; r2 = e[v[k], 31] / e[v[k], 63]
      if (r1 < 3.9 || r1 > 4.1 || r2 < 3.9 || r2 > 4.1) { print v[k] " ratios " r1 " " r2; bad++ } }
    exit bad > 0 }' "$TMP/conv" || fail "GPU manufactured error: not ~4x a halving"
same_bits "$TMP/conv.csv"

# The stream and roll sweeps' shapes against the CPU's wave: a row of 38 slots (nx 75)
# over one, two and a part of a third tile's width, 19 rows over tiles of 1, 6 and 30
# rows (roll's shared black plane with its rows beyond the tile), 33 planes in chunks of
# 1, 4 and 33 (roll's loads a step ahead at a chunk's last planes and the grid's); the
# capacitor's mixed rows and Laplace's uniform ones, with the residual reduced every
# iteration (check 1). Caps of 40 and 64 registers fit blocks of 1024 threads.
run_csv "$TMP/st.csv" sor --variant wave,stream,roll --precision float,double --size 20 \
  -P nx=75 -P ny=19 -P nz=33 -P check=1 -P problem=capacitor,laplace --block 96,256,1024 \
  --bx 32,128 --zchunk 1,4,33 --regs 40,64
# 2 precisions x 2 problems x (wave + stream at 32 x 3, 32 x 8, 32 x 32, 128 x 8 by 3
# chunks + roll at the same by 2 caps)
all_pass "$TMP/st.csv" 148
same_bits "$TMP/st.csv"

# Every register cap of roll (the larger spill nothing, the smaller spill to local
# memory) on an odd box of the capacitor, on blocks of 256 threads, which every cap fits:
# the same bits as the CPU's wave.
run_csv "$TMP/rg.csv" sor --variant wave,roll --precision float,double --size 20 -P nx=41 \
  -P ny=23 -P nz=17 -P check=3 -P problem=capacitor --block 256 --zchunk 5 \
  --regs 40,48,64,80,128,255
# 2 precisions x (wave + roll at 6 caps)
all_pass "$TMP/rg.csv" 14
same_bits "$TMP/rg.csv"
# lean (roll for one-material problems) against the CPU's wave, the same bits, in float
# and double, with 2 and 6 steps a turn of its loop: cubes of 1, 7 and 33 points a side
# in chunks of 5 and 12 planes (a chunk ending inside a turn and on one), and boxes of
# unequal odd sides (a row of 38 slots over one, two and part of a third tile, 19 rows
# over tiles of 1, 6 and 30, 33 planes in chunks of 1, 4 and 33: the loads a step ahead
# at a chunk's last planes and the grid's), the manufactured problem on the stretched
# mesh (every spacing factor its own) and Laplace's (boundary values), the residual
# every iteration (check 1) and every third.
run_csv "$TMP/ln.csv" sor --variant wave,lean --precision float,double --size 1,7,33 \
  -P check=3 -P problem=manufactured,laplace -P mesh=stretched --block 256 --zchunk 5,12 \
  --regs 48,64 --turn 2,6
# 2 precisions x 3 sizes x 2 problems x (wave + lean at 2 chunks, 2 caps and 2 turns)
all_pass "$TMP/ln.csv" 108
same_bits "$TMP/ln.csv"
run_csv "$TMP/lb.csv" sor --variant wave,lean --precision float,double --size 20 -P nx=75 \
  -P ny=19 -P nz=33 -P check=1 -P problem=manufactured,laplace -P mesh=stretched \
  --block 96,256,1024 --bx 32,128 --zchunk 1,4,33 --regs 40,64 --turn 2,6
# 2 precisions x 2 problems x (wave + lean at 32 x 3, 32 x 8, 32 x 32, 128 x 8 by 3 chunks
# by 2 caps by 2 turns)
all_pass "$TMP/lb.csv" 196
same_bits "$TMP/lb.csv"
# Every cap on another odd box, uniform mesh, where lean's one-material coefficients are
# the same for every point: the same bits as wave, and as roll.
run_csv "$TMP/lc.csv" sor --variant wave,roll,lean --precision float,double --size 20 \
  -P nx=41 -P ny=23 -P nz=17 -P check=3 --block 256 --zchunk 5 --regs 40,48,64,80,128,255 \
  --turn 2,6
# 2 precisions x (wave + roll at 6 caps + lean at 6 caps and 2 turns)
all_pass "$TMP/lc.csv" 38
same_bits "$TMP/lc.csv"
# lean's L2 prefetches (--l2ahead P: step k prefetches plane k + 2 + P, up to the
# chunk's last read and the grid's last plane; the block prefetches the first P before
# its march), each thread its own elements or (--l2mode lane) a warp's row segments a
# sector a lane, change no bit: the awkward cubes and chunks above, in float and
# double, with 1 plane ahead (the prefetch one step beyond red's loads), 5 (past a whole
# chunk of 5) and 32 (the most: past every chunk and the grid, so that only the
# prologue's bounded planes are prefetched), both turns.
run_csv "$TMP/lp.csv" sor --variant wave,lean --precision float,double --size 1,7,33 \
  -P check=3 -P problem=manufactured,laplace -P mesh=stretched --block 256 --zchunk 5,12 \
  --regs 64 --turn 2,6 --l2ahead 1,5,32 --l2mode thread,lane
# 2 precisions x 3 sizes x 2 problems x (wave + lean at 2 chunks, 2 turns, 3 distances
# and 2 modes)
all_pass "$TMP/lp.csv" 300
same_bits "$TMP/lp.csv"
# ... and on the odd box: rows of 38 slots over one, two and part of a third tile of 32
# slots and within one of 128 (four warps a row: the lanes' segments of the second to
# fourth warps, the last one's past the row's end), tiles of 3, 8 and 32 rows (the halo
# rows' prefetches), chunks of 1, 4 and 33 planes, the residual every iteration, 2 and 8
# planes ahead.
run_csv "$TMP/lq.csv" sor --variant wave,lean --precision float,double --size 20 -P nx=75 \
  -P ny=19 -P nz=33 -P check=1 -P problem=manufactured,laplace -P mesh=stretched \
  --block 96,1024 --bx 32,128 --zchunk 1,4,33 --regs 64 --l2ahead 2,8 --l2mode thread,lane
# 2 precisions x 2 problems x (wave + lean at 32 x 3, 32 x 32 and 128 x 8 by 3 chunks,
# 2 distances and 2 modes)
all_pass "$TMP/lq.csv" 148
same_bits "$TMP/lq.csv"
# lean's pipe (--pipe d: every value brought into shared memory by cp.async d steps
# ahead, into a ring of d + 3 black planes and d + 1 stages; the materials as the words
# that hold a warp's bytes) changes no bit: the awkward cubes and chunks above (a chunk of
# 5 shorter than the prologue's d + 2 planes at d 4; 1 point a side: rows of 2 slots),
# in float and double, every depth, without and with L2 prefetches 3 planes beyond the
# copies (past a whole chunk of 5).
run_csv "$TMP/pp.csv" sor --variant wave,lean --precision float,double --size 1,7,33 \
  -P check=3 -P problem=manufactured,laplace -P mesh=stretched --block 256 --zchunk 5,12 \
  --regs 64 --pipe 1,2,3,4 --l2ahead 0,3 --l2mode lane
# 2 precisions x 3 sizes x 2 problems x (wave + lean at 2 chunks, 4 depths and 2 distances)
all_pass "$TMP/pp.csv" 204
same_bits "$TMP/pp.csv"
# ... and on the odd box: rows of 38 slots over one, two and part of a third tile of 32
# slots and within one of 128 (four warps a row, each with its own words of materials,
# which start at every offset in a word over the rows and planes: 38 x 21 slots a
# plane), tiles of 3, 16 and 4 rows (1, 14 and 2 rows of outputs: the halo rows'
# copies), chunks of 1, 4 and 33 planes, the residual every iteration, two caps, depths
# 1 and 3, each thread's L2 prefetches 2 planes on or none. (Blocks of 512: at depth 3 a
# block of 1024 in double needs more shared memory than a block may have.)
run_csv "$TMP/pq.csv" sor --variant wave,lean --precision float,double --size 20 -P nx=75 \
  -P ny=19 -P nz=33 -P check=1 -P problem=manufactured,laplace -P mesh=stretched \
  --block 96,512 --bx 32,128 --zchunk 1,4,33 --regs 40,64 --pipe 1,3 --l2ahead 0,2 \
  --l2mode thread
# 2 precisions x 2 problems x (wave + lean at 32 x 3, 32 x 16 and 128 x 4 by 3 chunks,
# 2 caps, 2 depths and 2 distances)
all_pass "$TMP/pq.csv" 292
same_bits "$TMP/pq.csv"
# Every cap at depth 2 on another odd box, uniform mesh: the same bits as wave.
run_csv "$TMP/pr.csv" sor --variant wave,lean --precision float,double --size 20 -P nx=41 \
  -P ny=23 -P nz=17 -P check=3 --block 256 --zchunk 5 --regs 40,48,64,80,128,255 --pipe 2
# 2 precisions x (wave + lean at 6 caps)
all_pass "$TMP/pr.csv" 14
same_bits "$TMP/pr.csv"
# The pipe runs a step a turn: with --turn 6 lean skips, saying so.
run_csv "$TMP/ps.csv" sor --variant wave,lean --precision float --size 9 --pipe 2 --turn 6
all_pass "$TMP/ps.csv" 1
grep -q "lean skipped.*turn 2 only" "$TMP/err" || fail "lean's pipe at turn 6: $(cat "$TMP/err")"

# The capacitor (two materials) is not lean's: it skips, saying so, and roll runs it.
run_csv "$TMP/ld.csv" sor --variant wave,roll,lean --precision float --size 20 \
  -P problem=capacitor --block 256 --regs 64
all_pass "$TMP/ld.csv" 2
same_bits "$TMP/ld.csv"
grep -q "lean skipped.*one material" "$TMP/err" || fail "lean on the capacitor: $(cat "$TMP/err")"

# A cap that has no kernel is refused in one line.
expect_error 2 "\-\-regs: unknown value '50'" run sor --backend gpu --variant roll --regs 50 \
  --size 8
expect_error 2 "\-\-turn: unknown value '3'" run sor --backend gpu --variant lean --turn 3 --size 8
expect_error 2 "\-\-l2ahead '33' must be at most 32" run sor --backend gpu --variant lean \
  --l2ahead 33 --size 8
expect_error 2 "\-\-l2ahead '-1' must be at least 0" run sor --backend gpu --variant lean \
  --l2ahead=-1 --size 8
expect_error 2 "\-\-l2mode: unknown value 'warp'" run sor --backend gpu --variant lean \
  --l2ahead 2 --l2mode warp --size 8
expect_error 2 "\-\-pipe '5' must be at most 4" run sor --backend gpu --variant lean --pipe 5 \
  --size 8
expect_error 2 "\-\-pipe '-1' must be at least 0" run sor --backend gpu --variant lean \
  --pipe=-1 --size 8
finish
