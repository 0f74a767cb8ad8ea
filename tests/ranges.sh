#!/bin/sh
# Ranges in lists of integers (A:B doubling, A:B:S stepping, A:B:*F
# multiplying, always ending at B) expand the same way for sizes, threads,
# problem parameters and tuning parameters; a bad range is one line, exit 2.
. "${srcdir:-.}/tests/lib.sh"
RUN_OPTS="--backend cpu --repeat 1 --warmup 0"

# distinct FILE COLUMN WANT: the values of COLUMN, in order of first
# appearance, are WANT (space-separated).
distinct() {
  got=$(csv_select "$1" "$2" | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$3" ] || fail "$2 of $1: '$got', expected '$3'"
}

run_csv "$TMP/t.csv" stream -P op=copy --size 1000 -t 1:2
distinct "$TMP/t.csv" threads "1 2"
expect_rows "$TMP/t.csv" 2

run_csv "$TMP/s.csv" stream -P op=copy -t 1 --size 2^10:2^12
distinct "$TMP/s.csv" size "1024 2048 4096"
expect_all_pass "$TMP/s.csv"

run_csv "$TMP/t4.csv" stream -P op=copy --size 1000 -t 1:4:1
distinct "$TMP/t4.csv" threads "1 2 3 4"

# Items combine with commas; the end is measured even off the steps.
run_csv "$TMP/mix.csv" stream -P op=copy --size 1000 -t 1,3:6:3,1:5:*4
distinct "$TMP/mix.csv" threads "1 3 6 4 5"
run_csv "$TMP/end.csv" stream -P op=copy -t 1 --size 1:12
distinct "$TMP/end.csv" size "1 2 4 8 12"

# A problem parameter (-P and --NAME alike).
run_csv "$TMP/p.csv" bridge -t 1 --size 8 --steps 2:8
distinct "$TMP/p.csv" steps "2 4 8"
run_csv "$TMP/p2.csv" bridge -t 1 --size 8 -P steps=4:12:4
distinct "$TMP/p2.csv" steps "4 8 12"

expect_error 2 "\-\-threads '4:1' runs backwards: its start is above its end (write 1:4)" \
  run stream -t 4:1
expect_error 2 "\-\-threads '1:4:0': the step must be at least 1" run stream -t 1:4:0
expect_error 2 "\-\-threads '1-2' is negative; ranges are written A:B, as in 1:2" run stream -t 1-2
expect_error 2 "\-\-threads '1:4:\*1': the factor must be at least 2" run stream -t '1:4:*1'
expect_error 2 "\-\-threads '0:4': a range that multiplies starts at 1 or more" run stream -t 0:4
expect_error 2 "\-\-size '1:' is not a range: write A:B" run stream --size 1:
expect_error 2 "\-\-size '2^20:2^10' runs backwards" run stream --size 2^20:2^10
expect_error 2 "\-\-size '1:2^63': '2^63' overflows 64 bits" run stream --size 1:2^63
expect_error 2 "\-\-size '1:100000:1' gives more than 4096 values" run stream --size 1:100000:1
expect_error 2 "\-\-steps '8:2' runs backwards" run bridge -P steps=8:2
# The checks of each value apply to every value of a range: the thread
# ceiling (64 a PU), a parameter's bounds, sizes at the 64-bit limit.
expect_error 2 "\-\-threads [0-9]* is more than 64 threads for each of the" run stream -t 1:2^40
expect_error 2 "\-\-threads '0' must be at least 1" run stream -t 0:4:2
expect_error 2 "\-\-block '2048' must be at most 1024" run stream --backend cpu --block 1:2048
expect_error 2 "\-\-block '4:1' runs backwards" run stream --backend cpu --block 4:1
expect_error 2 "does not fit in memory\|needs .* of host memory" run stream --backend cpu \
  --size 2^62:9223372036854775807
expect_error 2 "\-\-ceiling-size takes one value, not a list" run stream --backend cpu \
  --ceiling-size 1K:4K
# Ranges are for integers: a choice or a real parameter refuses them.
expect_error 2 "\-\-op '1:2': ranges (A:B) are for integer parameters" run stream --op 1:2
expect_error 2 "\-\-x0 '0:1:0.5': ranges (A:B) are for integer parameters" run bridge --x0 0:1:0.5
finish
