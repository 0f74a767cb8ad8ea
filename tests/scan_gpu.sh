#!/bin/sh
# The scan family's CUDA twins beside the CPU's serial ones, on the same
# problems. Prefix sums: pointer jumping, reduce-then-scan, decoupled
# look-back and CUB, int32, float and double, inclusive and exclusive, at
# n = 1, 31, 1000003 and 2^22+5, over block sizes, items per thread (tiles of
# 128 elements make 32769 tiles to look back over) and grids: int32 exact
# (mod 2^32), double within its bound, float within it or honestly
# unverifiable; launches as designed; the look-back scan at every access
# (element-wide, 16-byte, 16-byte through shared memory too) and backoff
# (spin, sleep) over items and blocks, with tiles numbered by block index
# as well as by counter, and with the sleep before the first poll and the
# block scan by every thread's sum of the warps' totals (its depth stated).
# Compaction: mark-scan-scatter, one pass and CUB exact and stable at every
# keep fraction, counts equal to the CPU's; the one pass at every access,
# backoff, items and tile order. List ranking: Wyllie and Helman-JaJa exact, held
# against the GPU's gather ceiling; a random tree's depths by Wyllie exact.
# The series of 1/i^2 within its bound; the Irwin-Hall CDF's counts exact.
# Skips without a GPU.
. "${srcdir:-.}/tests/lib.sh"
RUN_OPTS="--backend cpu,gpu --repeat 2 --warmup 1"

gpu_present || { echo "no usable GPU: skipped"; exit 77; }

# ---- scan ------------------------------------------------------------------
run_csv "$TMP/scan.csv" scan --variant serial,hillis,rts,lookback,cub \
  --precision int32,float,double --kind inclusive,exclusive --size 1,31,1000003,2^22+5 \
  --block 32,256 --items auto,4,24 --grid auto,3 --seed 13
# Per precision, kind and size: serial 1, hillis 2 blocks x 2 grids, rts and
# lookback 2 blocks x 3 items each, cub 1: 18, times 24.
expect_rows "$TMP/scan.csv" 432
expect_verified "$TMP/scan.csv"
csv_select "$TMP/scan.csv" variant precision kind size verified error launches >"$TMP/rows"
awk -F, '$2 != "float" && $5 != "pass" { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "an int32 or double scan did not pass: $(grep -v ',float,' "$TMP/rows" | grep -v ',pass,' | head -5)"
awk -F, '$2 == "float" && $4 <= 31 && $5 != "pass" { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "a short float scan did not pass"
awk -F, '$1 == "lookback" && $7 != 1 { bad++ } $1 == "rts" && $7 != 3 { bad++ }
  $1 == "hillis" && $4 == 4194309 && $7 != 23 { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "launches: lookback 1, rts 3, hillis ceil(log2 n)"
# Blocks of 1024 threads (the tile kernels with few items a thread).
run_csv "$TMP/big.csv" scan --variant rts,lookback --precision int32,float,double \
  --kind inclusive,exclusive --size 2^22+5 --block 1024 --items 4 --seed 17
all_pass_or_float() {
  expect_verified "$1"
  csv_select "$1" precision verified | grep -v '^float,' | grep -vq ',pass$' &&
    fail "$1: an int32 or double row did not pass"
}
expect_rows "$TMP/big.csv" 12
all_pass_or_float "$TMP/big.csv"

# The look-back's tuning: element-wide, 16-byte and wide accesses (whole
# warps' parts in vectors, the tail element-wise; wide also moves them
# through shared memory in vectors, unpadded, while the tail goes padded),
# spinning and sleeping between polls, over items and blocks. Per
# precision, kind and size: 2 blocks x 3 items x 3 accesses x 2 backoffs =
# 36, times 24.
run_csv "$TMP/tune.csv" scan --variant lookback --precision int32,float,double \
  --kind inclusive,exclusive --size 1,31,1000003,2^22+5 --block 32,256 --items 4,12,24 \
  --access scalar,vec16,wide --backoff 0,64 --seed 31
expect_rows "$TMP/tune.csv" 864
all_pass_or_float "$TMP/tune.csv"
csv_select "$TMP/tune.csv" precision size verified >"$TMP/rows"
awk -F, '$1 == "float" && $2 <= 31 && $3 != "pass" { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "a short float look-back scan did not pass"
# Tiles numbered by block index (no counter): per precision, kind and size,
# 2 blocks x 2 items x 2 accesses = 8, times 24.
run_csv "$TMP/order.csv" scan --variant lookback --precision int32,float,double \
  --kind inclusive,exclusive --size 1,31,1000003,2^22+5 --block 32,256 --items 4,24 \
  --access scalar,vec16 --tileorder block --seed 41
expect_rows "$TMP/order.csv" 192
all_pass_or_float "$TMP/order.csv"
# The settings taken from CUB's: a sleep before the first poll, CUB-like
# sleeps between polls, the block scan by every thread (lanes) or by warp 0,
# over blocks of 1 and 16 warps (512 threads: double at 24 items takes 80
# registers a thread, too many for 1024), items and the vector accesses. Per
# precision, kind and size: 2 blocks x 2 items x 2 accesses x 2 block scans
# = 16, times 24.
run_csv "$TMP/cub.csv" scan --variant lookback --precision int32,float,double \
  --kind inclusive,exclusive --size 1,31,1000003,2^22+5 --block 32,512 --items 4,24 \
  --access vec16,wide --lookdelay 1245 --backoff 640 --blockscan warp0,lanes --seed 59
expect_rows "$TMP/cub.csv" 384
all_pass_or_float "$TMP/cub.csv"
csv_select "$TMP/cub.csv" precision size verified >"$TMP/rows"
awk -F, '$1 == "float" && $2 <= 31 && $3 != "pass" { bad++ } END { exit bad > 0 }' "$TMP/rows" ||
  fail "a short float look-back scan with CUB's settings did not pass"
# The stated depth, blocked(8 tiles, items + 7 + over): at 2^22+5 in tiles
# of 512 x 4 (2049 tiles) over = 5 (warp 0's shuffles) gives 16426, over =
# 16 (a thread's sum over 16 warps' totals) 16448.
d=$(csv_select "$TMP/cub.csv" precision size block items blockscan depth | awk -F, '$1 == "double" &&
  $2 == 4194309 && $3 == 512 && $4 == 4 { print $5 "=" $6 }' | sort -u | tr '\n' ' ')
[ "$d" = "lanes=16448 warp0=16426 " ] || fail "look-back depths at 2^22+5, 512 x 4: '$d'"

# int32 sums past 2^32: every variant wraps as the exact sums mod 2^32.
run_csv "$TMP/wrap.csv" scan --variant serial,hillis,rts,lookback,cub --precision int32 \
  --kind inclusive,exclusive --size 2^24+3 --seed 29
all_pass "$TMP/wrap.csv" 10

# ---- compact ---------------------------------------------------------------
run_csv "$TMP/compact.csv" compact --variant serial,mss,onepass,cub \
  --precision int32,float,double --size 1,31,1000003,2^22+5 --keep 0,0.3,1 --block 32,256,1024 \
  --seed 19
# Per precision, size and keep: serial 1, mss and onepass 3 blocks each, cub 1.
all_pass "$TMP/compact.csv" 288
csv_select "$TMP/compact.csv" variant precision size keep result >"$TMP/rows"
awk -F, '{ k = $2 "," $3 "," $4; if (k in c && c[k] != $5) bad++; c[k] = $5 }
  END { exit bad > 0 }' "$TMP/rows" || fail "compaction counts differ between variants or backends"
# The one pass's tuning, beside the CPU's serial count. Per precision, size
# and keep: serial 1, onepass 2 blocks x 3 items x 3 accesses x 2 backoffs.
run_csv "$TMP/ctune.csv" compact --variant serial,onepass --precision int32,float,double \
  --size 31,1000003,2^22+5 --keep 0.3,1 --block 32,256 --items 4,12,24 \
  --access scalar,vec16,wide --backoff 0,64 --seed 37
all_pass "$TMP/ctune.csv" 666
csv_select "$TMP/ctune.csv" variant precision size keep result >"$TMP/rows"
awk -F, '{ k = $2 "," $3 "," $4; if (k in c && c[k] != $5) bad++; c[k] = $5 }
  END { exit bad > 0 }' "$TMP/rows" || fail "tuned compaction counts differ from the CPU's"
# Tiles numbered by block index: per precision, size and keep, serial 1 and
# onepass 2 blocks x 3 items x 2 accesses.
run_csv "$TMP/corder.csv" compact --variant serial,onepass --precision int32,float,double \
  --size 31,1000003,2^22+5 --keep 0,0.3,1 --block 32,256 --items 4,12,24 \
  --access scalar,vec16 --tileorder block --seed 43
all_pass "$TMP/corder.csv" 351
csv_select "$TMP/corder.csv" variant precision size keep result >"$TMP/rows"
awk -F, '{ k = $2 "," $3 "," $4; if (k in c && c[k] != $5) bad++; c[k] = $5 }
  END { exit bad > 0 }' "$TMP/rows" || fail "compaction counts by block order differ from the CPU's"
# CUB's settings in the one pass: the sleep before the first poll, sleeps
# between polls, the block scan by every thread or by warp 0. Per
# precision, size and keep: serial 1 and onepass 2 blocks x 2 items x 2
# accesses x 2 block scans.
run_csv "$TMP/ccub.csv" compact --variant serial,onepass --precision int32,float,double \
  --size 31,1000003,2^22+5 --keep 0,0.3,1 --block 32,512 --items 4,24 --access vec16,wide \
  --lookdelay 1245 --backoff 640 --blockscan warp0,lanes --seed 61
all_pass "$TMP/ccub.csv" 459
csv_select "$TMP/ccub.csv" variant precision size keep result >"$TMP/rows"
awk -F, '{ k = $2 "," $3 "," $4; if (k in c && c[k] != $5) bad++; c[k] = $5 }
  END { exit bad > 0 }' "$TMP/rows" || fail "compaction counts with CUB's settings differ from the CPU's"

# Bad tuning values: one line, exit 2.
expect_error 2 "\-\-lookdelay '5000' must be at most 4096" run scan --backend gpu \
  --variant lookback --lookdelay 5000
expect_error 2 "unknown value 'bogus'" run scan --backend gpu --variant lookback --blockscan bogus
expect_error 2 "unknown value 'wider'" run compact --backend gpu --variant onepass --access wider

# ---- listrank --------------------------------------------------------------
run_csv "$TMP/list.csv" listrank --variant walk,wyllie,hj --shape list,tree \
  --size 1,2,31,1000003,2^22+5 --spacing 2,64 --grid auto,3 --seed 23
# Per size: a list: the CPU's walk 1, wyllie 1 and hj 2 spacings, the GPU's
# wyllie 2 grids and hj 2 spacings x 2 grids; a tree: the CPU's walk and
# wyllie, the GPU's wyllie 2 grids (hj skips trees): 14, times 5 sizes.
all_pass "$TMP/list.csv" 70
# Every list ranking row is held against its backend's gather ceiling.
csv_select "$TMP/list.csv" mix ceiling_gbs roofline | awk -F, '$1 != "random" || !($2 > 0) ||
  !($3 > 0) { bad++ } END { exit bad > 0 }' || fail "a listrank row is not on the gather ceiling"
# ---- series ----------------------------------------------------------------
run_csv "$TMP/series.csv" series --variant serial,direct --precision float,double \
  --size 1,31,1000,1000003,2^26 --block 32,256 --grid auto,3
# Per precision and size: serial 1, direct 2 blocks x 2 grids.
expect_rows "$TMP/series.csv" 50
expect_verified "$TMP/series.csv"
csv_select "$TMP/series.csv" precision size verified >"$TMP/rows"
awk -F, '($1 == "double" && $2 <= 1000 || $2 <= 31) && $3 != "pass" { bad++ }
  END { exit bad > 0 }' "$TMP/rows" || fail "a short series did not pass: $(cat "$TMP/rows")"
# ---- cdf -------------------------------------------------------------------
run_csv "$TMP/cdf.csv" cdf --variant count,hist --precision float,double \
  --size 1,31,1000003,2^22+5 --block 32,256 --grid auto,3 --threads 2
# Per precision and size: CPU count and hist at 2 threads, GPU count and hist
# at 2 blocks x 2 grids each.
all_pass "$TMP/cdf.csv" 80
finish
