#!/bin/sh
# The scan family's OpenMP twins. Prefix sums: every variant, int32, float
# and double, inclusive and exclusive, at n = 1, 31, 1000003 and 2^22+5 on
# three threads (an uneven split): int32 exact (mod 2^32: the sums pass 2^31
# from about 4 million elements and wrap 2^32 from about 8.6 million, which
# 2^24+3 checks), double within its bound, float within its
# bound or honestly unverifiable where that bound reaches an input; the
# depth column follows each order; the blocked scan with small tiles (many
# rounds) too, pass 2 prefetching or summing the next block, pass 1 in
# independent vector sums, pass 2 in steps of several vectors, blocks taken
# from a shared counter, the share of time spent waiting. Compaction: exact and
# stable at every keep fraction, counts that agree. List ranking: exact for the walk, Wyllie and Helman-JaJa, with
# one splitter to half the nodes as splitters; a random tree's depths exact
# for the walk and Wyllie (Helman-JaJa skips trees), every row held against
# the team's gather ceiling. The series of 1/i^2
# within its bound of pi^2/6 minus the tail. The Irwin-Hall CDF's counts
# exact by both methods. Bad parameters: one line.
. "${srcdir:-.}/tests/lib.sh"
RUN_OPTS="--backend cpu --repeat 1 --warmup 1"

# ---- scan ------------------------------------------------------------------
run_csv "$TMP/scan.csv" scan --precision int32,float,double --kind inclusive,exclusive \
  --size 1,31,1000003,2^22+5 --threads 3 --seed 11
# 3 precisions x 2 kinds x 4 sizes x (serial, twopass, jump)
expect_rows "$TMP/scan.csv" 72
expect_verified "$TMP/scan.csv"
csv_select "$TMP/scan.csv" variant precision kind size verified error depth >"$TMP/rows"
awk -F, '$2 != "float" && $5 != "pass" { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "an int32 or double scan did not pass: $(grep -v ',float,' "$TMP/rows" | grep -v ',pass,')"
awk -F, '$2 == "int32" && $6 != 0 { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "an int32 scan has wrong elements"
awk -F, '$2 == "float" && $4 <= 31 && $5 != "pass" { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "a short float scan did not pass"
# Depths: n for the running sum, ceil(log2 n) for pointer jumping (23 at
# 2^22+5), 2 blocks + 2 tile + 2 for the blocked scan chained by look-back,
# its default (at 1000003 and tiles of 32768: 31 blocks).
awk -F, '$1 == "serial" && $7 != $4 { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "serial depth is not n"
d=$(awk -F, '$1 == "jump" && $2 == "double" && $4 == 4194309 { print $7; exit }' "$TMP/rows")
[ "$d" = 23 ] || fail "jump depth at 2^22+5 is '$d', expected 23"
d=$(awk -F, '$1 == "twopass" && $2 == "double" && $4 == 1000003 { print $7; exit }' "$TMP/rows")
[ "$d" = 65600 ] || fail "twopass depth at 1000003 is '$d', expected 65600"
# Pointer jumping's float error stays far below the running sum's.
s=$(awk -F, '$1 == "serial" && $2 == "float" && $3 == "inclusive" && $4 == 4194309 { print $6 }' "$TMP/rows")
j=$(awk -F, '$1 == "jump" && $2 == "float" && $3 == "inclusive" && $4 == 4194309 { print $6 }' "$TMP/rows")
awk -v s="$s" -v j="$j" 'BEGIN { exit !(s > 10 * j) }' ||
  fail "float error: serial $s is not far above pointer jumping's $j"

# int32 sums past 2^32 (about 8.6 million elements in 1..1000): the wrap.
run_csv "$TMP/wrap.csv" scan --variant serial,twopass,jump --precision int32 \
  --kind inclusive,exclusive --size 2^24+3 --threads 2 --seed 21 --sync barrier,lookback
all_pass "$TMP/wrap.csv" 8

# Many rounds of small tiles on two threads (long look-back chains over
# 15626 blocks), both ways of finding an offset, and an exclusive scan of
# one; the barrier's depth is blocks + 2 tile + 2 (at 1000003 and tiles of
# 1000: 1001 blocks). Three threads, which do not divide the blocks, run the
# look-back above; here they would share two cores, where 15626 barriers
# take minutes.
run_csv "$TMP/tile.csv" scan --variant twopass --precision int32,double --kind inclusive,exclusive \
  --size 1,65,1000003 --tile 64,1000 --threads 2 --sync barrier,lookback --seed 3
all_pass "$TMP/tile.csv" 48
d=$(csv_select "$TMP/tile.csv" variant precision size tile sync depth |
  awk -F, '$3 == 1000003 && $4 == 1000 && $5 == "barrier" { print $6; exit }')
[ "$d" = 3003 ] || fail "twopass depth with barriers at 1000003, tile 1000 is '$d', expected 3003"
# Pass 2 in vectors of every width (tiles of 1000 leave a tail of 8 int32
# or 4 double elements to the scalar loop); the width is in the row.
run_csv "$TMP/simd.csv" scan --variant twopass --precision int32,double --kind inclusive,exclusive \
  --size 31,1000003 --tile 1000 --threads 2 --simd 16,32,64 --seed 47
all_pass "$TMP/simd.csv" 24
[ "$(csv_select "$TMP/simd.csv" simd | sort -u | tr '\n' ' ')" = "16 32 64 " ] ||
  fail "the rows do not name the vector widths 16, 32 and 64"
# Pass 2 prefetching the thread's next block or summing it (pass 1 of the
# next block inside this one's pass 2), by barrier rounds and by look-back,
# with tiles whose next block lies partly or wholly past n (the prefetch
# and the next block's sum must stop at n; 4096 elements are 4 chunks, the
# pass-1 prefetch's distance crossing into the next block's end) on three
# threads: exact int32, double within its bound, and the setting named in
# the rows.
run_csv "$TMP/prefetch.csv" scan --variant twopass --precision int32,double \
  --kind inclusive,exclusive --size 1,65,1000003 --tile 64,4096 --threads 3 \
  --sync barrier,lookback --prefetch off,next,pass1 --seed 53
all_pass "$TMP/prefetch.csv" 144
[ "$(csv_select "$TMP/prefetch.csv" prefetch | sort -u | tr '\n' ' ')" = "next off pass1 " ] ||
  fail "the rows do not name the prefetch settings off, next and pass1"
# Every twopass row says what share of its threads' time went to waiting
# for other threads, a fraction.
csv_select "$TMP/prefetch.csv" wait | awk '!($1 >= 0 && $1 <= 1) { bad++ } END { exit bad > 0 }' ||
  fail "a twopass row's wait is not a fraction: $(csv_select "$TMP/prefetch.csv" wait | sort -u)"
# Blocks summed ahead of the look-back (--lag 1 to 3: a thread publishes the
# totals of its next blocks before it looks back for this one's offset), with
# tiles whose lagged blocks lie partly or wholly past n, on three threads:
# exact int32, double within its bound, the lag in the rows; a lag with
# barrier rounds or with the pass-1 prefetch is skipped with a note.
run_csv "$TMP/lag.csv" scan --variant twopass --precision int32,double \
  --kind inclusive,exclusive --size 1,65,1000003 --tile 64,4096 --threads 3 --lag 1,2,3 --seed 59
all_pass "$TMP/lag.csv" 72
[ "$(csv_select "$TMP/lag.csv" lag | sort -u | tr '\n' ' ')" = "1 2 3 " ] ||
  fail "the rows do not name the lags 1, 2 and 3"
run_csv "$TMP/lagskip.csv" scan --variant twopass --precision int32 --size 1000 --threads 2 \
  --lag 0,1 --sync barrier,lookback --prefetch off,pass1
all_pass "$TMP/lagskip.csv" 5
grep -q "lag=1: only the look-back waits" "$TMP/err" &&
  grep -q "lag=1: --prefetch pass1 sums the next block" "$TMP/err" ||
  fail "a lag with barriers or the pass-1 prefetch was not skipped with a note: $(cat "$TMP/err")"
# Blocks taken from a shared counter (--assign counter: a thread's next
# block is the counter's next, so that a faster thread takes more), beside
# the round-robin deal, then with the blocks taken ahead for the prefetches
# (the next block) and the lag (the next 2), with tiles whose next blocks lie
# partly or wholly past n, on three threads: exact int32, double within its
# bound, the setting in the rows, wait a fraction, imbalance (the most
# blocks a thread scanned over the mean) from 1 to the threads, and the
# round-robin's the fixed split (245 blocks of 4096 at 1000003: 82 x 3 / 245,
# one block on one thread at size 1: 3). Double is checked within its bound,
# not bit for bit against static: a block's offset adds the totals back to
# the nearest published prefix, which depends on timing with either deal.
# Barrier rounds skip the counter with a note.
run_csv "$TMP/assign.csv" scan --variant twopass --precision int32,double \
  --kind inclusive,exclusive --size 1,65,1000003 --tile 64,4096 --threads 3 \
  --assign static,counter --seed 71
all_pass "$TMP/assign.csv" 48
[ "$(csv_select "$TMP/assign.csv" assign | sort -u | tr '\n' ' ')" = "counter static " ] ||
  fail "the rows do not name the assignments static and counter"
csv_select "$TMP/assign.csv" assign size tile wait imbalance |
  awk -F, '!($4 >= 0 && $4 <= 1) || !($5 >= 1 && $5 <= 3) { bad++ }
    $1 == "static" && $2 == 1000003 && $3 == 4096 && ($5 - 246 / 245) ^ 2 > 1e-18 { bad++ }
    $1 == "static" && $2 == 1 && $5 != 3 { bad++ }
    END { exit bad > 0 }' ||
  fail "a row's wait or imbalance is off: $(csv_select "$TMP/assign.csv" assign size tile wait imbalance)"
run_csv "$TMP/assignpf.csv" scan --variant twopass --precision int32,double \
  --kind inclusive,exclusive --size 1,65,1000003 --tile 64,4096 --threads 3 --assign counter \
  --prefetch off,next,pass1 --lag 0,2 --seed 73
# 2 precisions x 2 kinds x 3 sizes x 2 tiles x 5 settings (lag 2 with pass1 skipped)
all_pass "$TMP/assignpf.csv" 120
run_csv "$TMP/assignskip.csv" scan --variant twopass --precision int32 --size 1000 --threads 2 \
  --assign static,counter --sync barrier,lookback
all_pass "$TMP/assignskip.csv" 3
grep -q "assign=counter: the barrier rounds deal the blocks round-robin" "$TMP/err" ||
  fail "the counter with barrier rounds was not skipped with a note: $(cat "$TMP/err")"
# Pass 1 in 1, 2 or 4 independent vector sums and pass 2 in steps of 1, 2
# or 4 vectors, of 16 or 64 bytes, with and without the pass-1 prefetch
# (distance 0 and 3 chunks): int32 exact at sizes that leave tails to the
# scalar loops and to steps of fewer vectors (31; 1000003 in tiles of
# 4096), double within its bound, float within its bound where that bound
# can tell a wrong sum (5000 elements in 20 blocks of 256: depth 554,
# 554 u s ~ 0.17 of an input of at least 0.5), and the settings in the rows.
run_csv "$TMP/chains.csv" scan --variant twopass --precision int32,double \
  --size 31,1000003 --tile 4096 --threads 2 --chains 1,2,4 --carry 1,2,4 --simd 16,64 \
  --prefetch pass1 --pfdist 0,3 --seed 61
all_pass "$TMP/chains.csv" 144
run_csv "$TMP/chainsf.csv" scan --variant twopass --precision float --kind inclusive,exclusive \
  --size 31,5000 --tile 256 --threads 2 --chains 1,4 --carry 1,4 --sync barrier,lookback \
  --prefetch off,pass1 --seed 67
all_pass "$TMP/chainsf.csv" 64
[ "$(csv_select "$TMP/chains.csv" chains | sort -u | tr '\n' ' ')" = "1 2 4 " ] ||
  fail "the rows do not name the chains 1, 2 and 4"
[ "$(csv_select "$TMP/chains.csv" carry | sort -u | tr '\n' ' ')" = "1 2 4 " ] ||
  fail "the rows do not name the carry steps 1, 2 and 4"
[ "$(csv_select "$TMP/chains.csv" pfdist | sort -u | tr '\n' ' ')" = "0 3 " ] ||
  fail "the rows do not name the prefetch distances 0 and 3"

# ---- compact ---------------------------------------------------------------
run_csv "$TMP/compact.csv" compact --precision int32,float,double --size 1,31,1000003 \
  --keep 0,0.3,1 --threads 3 --seed 7
all_pass "$TMP/compact.csv" 54
csv_select "$TMP/compact.csv" variant precision size keep result >"$TMP/rows"
awk -F, '{ k = $2 "," $3 "," $4; if (k in c && c[k] != $5) bad++; c[k] = $5 }
  $4 == 0 && $5 != 0 { bad++ } $4 == 1 && $5 != $3 { bad++ }
  END { exit bad > 0 }' "$TMP/rows" || fail "compaction counts disagree: $(cat "$TMP/rows")"
k=$(awk -F, '$2 == "int32" && $3 == 1000003 && $4 == 0.3 { print $5; exit }' "$TMP/rows")
awk -v k="$k" 'BEGIN { exit !(k > 290000 && k < 310000) }' || fail "keep 0.3 kept $k of 1000003"

# ---- listrank --------------------------------------------------------------
run_csv "$TMP/list.csv" listrank --shape list,tree --size 1,2,31,1000003 --spacing 2,1024 \
  --threads 3 --seed 9
# 4 sizes x (list: walk, wyllie, hj at 2 spacings; tree: walk, wyllie)
all_pass "$TMP/list.csv" 24
grep -q "hj skipped (spacing=2): Helman-JaJa ranks lists" "$TMP/err" ||
  fail "hj on a tree was not skipped with a note: $(cat "$TMP/err")"
s=$(csv_select "$TMP/list.csv" variant size spacing splitters |
  awk -F, '$1 == "hj" && $2 == 1000003 && $3 == 2 { print $4 }')
[ "$s" = 500001 ] || fail "hj at spacing 2 has '$s' splitters, expected 500001"
# Every row is held against the gather ceiling of its team, the same for
# every row of a team, with its roofline the row's 2 n random accesses at
# 32 bytes over that ceiling, over its median.
csv_select "$TMP/list.csv" threads size mix ceiling_gbs roofline median_ms |
  awk -F, '$3 != "random" || !($4 > 0) { bad++ }
    { if ($1 in c && c[$1] != $4) bad++; c[$1] = $4
      want = 64 * $2 / ($4 * 1e6) / $6
      if ($5 < 0.999 * want || $5 > 1.001 * want) bad++ }
    END { exit bad > 0 }' || fail "a listrank row is not on its gather ceiling: $(cat "$TMP/list.csv")"

# ---- series ----------------------------------------------------------------
# The sum of 1/i^2 against pi^2/6 minus the tail: within the bound at every
# size; a pass where the bound is below the last term 1/n^2 (double to 1000
# terms, float to 65), unverifiable beyond (a lost last term would pass).
run_csv "$TMP/series.csv" series --precision float,double --size 1,31,64,65,1000,1000003 \
  --threads 3
expect_rows "$TMP/series.csv" 24
expect_verified "$TMP/series.csv"
csv_select "$TMP/series.csv" precision size verified >"$TMP/rows"
awk -F, '($1 == "double" && $2 <= 1000 || $2 <= 65) && $3 != "pass" { bad++ }
  END { exit bad > 0 }' "$TMP/rows" || fail "a short series did not pass: $(cat "$TMP/rows")"

# ---- cdf -------------------------------------------------------------------
# The empirical Irwin-Hall CDF: exact counts by both methods, and the sample
# within 5 standard errors of the distribution at every threshold.
run_csv "$TMP/cdf.csv" cdf --precision float,double --size 1,31,1000003 --threads 3 --seed 5
all_pass "$TMP/cdf.csv" 12

# ---- bad parameters: one line, exit 2 ---------------------------------------
expect_error 2 "unknown value 'bogus'" run scan --backend cpu --kind bogus
expect_error 2 "\-\-tile '1' must be at least 64" run scan --backend cpu --tile 1
expect_error 2 "unknown value '48'" run scan --backend cpu --variant twopass --simd 48
expect_error 2 "unknown value 'far'" run scan --backend cpu --variant twopass --prefetch far
expect_error 2 "unknown value '3'" run scan --backend cpu --variant twopass --chains 3
expect_error 2 "unknown value '8'" run scan --backend cpu --variant twopass --carry 8
expect_error 2 "unknown value 'guided'" run scan --backend cpu --variant twopass --assign guided
expect_error 2 "\-\-pfdist '65' must be at most 64" run scan --backend cpu --variant twopass \
  --pfdist 65
expect_error 2 "\-\-pfdist '-1' must be at least 0" run scan --backend cpu --variant twopass \
  --pfdist -1
expect_error 2 "\-\-keep '2' must be at most 1" run compact --backend cpu --keep 2
expect_error 2 "\-\-spacing '1' must be at least 2" run listrank --backend cpu --spacing 1
expect_error 2 "unknown value 'graph'" run listrank --backend cpu --shape graph
expect_error 2 "the most nodes int32 links can name" run listrank --backend cpu --size 2^31 \
  --threads 1 $LIMIT
expect_error 2 "listrank does not support precision float" run listrank --backend cpu \
  --precision float
expect_error 2 "series: size 8589934592 is outside 1..4294967296 terms" run series --backend cpu \
  --size 2^33 --threads 1 $LIMIT
finish
