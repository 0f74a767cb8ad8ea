#!/bin/sh
# Report and dump files: a device, a FIFO or a symbolic link given as the
# output is written through and never replaced; a write error (a full
# device, a closed pipe) is said with exit 1; the output may not be an input
# or the other output, nor a file another run is writing; a run that
# measured nothing, or whose dump failed before its first row, leaves an old
# report as it was; "-" is standard output. Device nodes are private ones
# made with mknod in the test's folder (as root only), never /dev's.
. "${srcdir:-.}/tests/lib.sh"

RUN="run stream --backend cpu --size 1000 --threads 1 $LIMIT --repeat 1 --warmup 0"
run() { "$TB" $RUN "$@"; }

# A device node stays a device node; a full device is a write error.
if [ "$(id -u)" -eq 0 ] && mknod "$TMP/null" c 1 3 2>/dev/null && mknod "$TMP/full" c 1 7; then
  run --format csv --output "$TMP/null" 2>"$TMP/err" || fail "-o null device: $(cat "$TMP/err")"
  [ -c "$TMP/null" ] || fail "the null device node was replaced"
  expect_error 1 "writing '$TMP/full' failed: No space left on device" $RUN --output "$TMP/full"
  [ -c "$TMP/full" ] || fail "the full device node was replaced"
  # A dump that fails before the first row leaves the old report as it was.
  echo old >"$TMP/r.csv"
  "$TB" run blackscholes --backend cpu --size 1000 --threads 1 $LIMIT --repeat 1 --format csv \
    --output "$TMP/r.csv" --dump "$TMP/full" >/dev/null 2>"$TMP/err"
  [ $? -eq 1 ] && grep -q "writing the dump '$TMP/full' failed" "$TMP/err" ||
    fail "a dump to a full device did not fail: $(cat "$TMP/err")"
  [ "$(cat "$TMP/r.csv")" = old ] || fail "a failed dump replaced the old report"
fi

# A symbolic link keeps being a link; its target gets the report.
echo old >"$TMP/target.csv"
ln -s target.csv "$TMP/link.csv"
run --format csv --output "$TMP/link.csv" 2>"$TMP/err" || fail "-o link: $(cat "$TMP/err")"
[ -L "$TMP/link.csv" ] || fail "the link was replaced"
csv_header "$TMP/target.csv" | grep -q "^algo," || fail "the link's target did not get the report"

# A FIFO: written in place when a process reads it, refused at once otherwise.
mkfifo "$TMP/fifo"
timeout 20 cat "$TMP/fifo" >"$TMP/from-fifo" &
reader=$!
run --format csv --output "$TMP/fifo" 2>"$TMP/err" || fail "-o fifo: $(cat "$TMP/err")"
wait $reader
[ -p "$TMP/fifo" ] || fail "the FIFO was replaced"
[ "$(csv_rows "$TMP/from-fifo" | wc -l)" -eq 5 ] ||
  fail "the FIFO's reader got $(csv_rows "$TMP/from-fifo" | wc -l) rows"
expect_error 2 "a FIFO that no process reads" $RUN --output "$TMP/fifo"

# A closed pipe is a write error, not a silent death.
(run --format csv --size 100000 -P op=copy 2>"$TMP/pipe.err"; echo $? >"$TMP/pipe.rc") | true
[ "$(cat "$TMP/pipe.rc")" -eq 1 ] || fail "a closed pipe exited $(cat "$TMP/pipe.rc")"
grep -q "Broken pipe" "$TMP/pipe.err" || fail "a closed pipe was not said: $(cat "$TMP/pipe.err")"

# "-" is standard output.
run --format csv --output - -P op=copy >"$TMP/stdout.csv" 2>"$TMP/err" || fail "-o -: $(cat "$TMP/err")"
[ -e ./- ] && fail "-o - created a file named -"
[ "$(csv_rows "$TMP/stdout.csv" | wc -l)" -eq 1 ] && [ "$(csv_header "$TMP/stdout.csv" | cut -d, -f1)" = algo ] ||
  fail "-o - did not write the report to stdout, alone: $(cat "$TMP/stdout.csv")"

# Paths checked before any work: a directory, a missing folder, an input,
# the other output.
mkdir "$TMP/dir"
expect_error 2 "cannot write '$TMP/dir': Is a directory" $RUN --output "$TMP/dir"
expect_error 2 "cannot write '$TMP/missing/r.csv'" $RUN --output "$TMP/missing/r.csv"
printf 'S,X,T\n100,100,1\n' >"$TMP/in.csv"
expect_error 2 "is the --input file" run blackscholes --backend cpu --input "$TMP/in.csv" \
  --output "$TMP/in.csv"
expect_error 2 "is the --input file" run blackscholes --backend cpu --input "$TMP/in.csv" \
  --dump "$TMP/in.csv"
expect_error 2 "are the same file" run blackscholes --backend cpu --input "$TMP/in.csv" \
  --output "$TMP/d.csv" --dump "$TMP/d.csv"
printf '2\n1\n' >"$TMP/order"
expect_error 2 "is an input of the run (--order)" run bridge --backend cpu --size 3 \
  --steps 2 --order "$TMP/order" --output "$TMP/order"
expect_error 2 "cannot write '$TMP/dir': Is a directory" run blackscholes --backend cpu \
  --input "$TMP/in.csv" --dump "$TMP/dir"
[ "$(cat "$TMP/order")" = "$(printf '2\n1')" ] || fail "the order file was touched"

# start_long NAME: a long run to $TMP/NAME in the background (its pid in
# $first), once it has claimed the file (its temporary file is there).
start_long() {
  "$TB" run stream --backend cpu --size 2^20 --threads 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 $LIMIT \
    --repeat 100 --format csv --output "$TMP/$1" 2>"$TMP/$1.err" &
  first=$!
  tries=0
  while ! ls "$TMP" | grep -q "$1.tmp" && [ $tries -lt 100 ]; do
    sleep 0.1
    tries=$((tries + 1))
  done
}
# A second run to a file another run is writing is refused; the first one's
# rows are kept. (An interrupt stops a run after its current configuration:
# many short ones.)
echo old >"$TMP/busy.csv"
start_long busy.csv
expect_error 2 "another run is writing it" $RUN --output "$TMP/busy.csv"
sleep 1 # a few of its configurations measured (an interrupt before the first keeps the old file)
kill -INT $first
wait $first
[ "$(csv_header "$TMP/busy.csv" | cut -d, -f1)" = algo ] || fail "the first run's report was lost"

# A run killed before its commit (SIGKILL: no chance to clean up) leaves its
# temporary file; the next run to that target removes it once it is older
# than a live run's first moments (10 s: made older here), and leaves alone
# a fresh one and one a process holds locked (a live run's).
start_long killed.csv
kill -KILL $first
wait $first
left=$(ls "$TMP" | grep 'killed.csv.tmp')
[ -n "$left" ] || fail "no temporary file after SIGKILL"
touch -d '1 minute ago' "$TMP/$left"
: >"$TMP/killed.csv.tmp.fresh1"
held=
if command -v flock >/dev/null 2>&1; then
  : >"$TMP/killed.csv.tmp.held01"
  touch -d '1 minute ago' "$TMP/killed.csv.tmp.held01"
  # the lock on fd 9, kept by the sleep the subshell becomes ($held)
  (exec 9<"$TMP/killed.csv.tmp.held01" && flock 9 && exec sleep 30) &
  held=$!
  sleep 0.3
fi
"$TB" $RUN --output "$TMP/killed.csv" 2>"$TMP/err" || fail "the run after the killed one: $(cat "$TMP/err")"
[ -e "$TMP/$left" ] && fail "the killed run's temporary file $left was left"
[ -e "$TMP/killed.csv.tmp.fresh1" ] || fail "a temporary file under 10 s old was removed"
if [ -n "$held" ]; then
  [ -e "$TMP/killed.csv.tmp.held01" ] || fail "a locked temporary file was removed"
  kill $held 2>/dev/null
  wait $held 2>/dev/null
  rm -f "$TMP/killed.csv.tmp.held01"
fi
rm -f "$TMP/killed.csv.tmp.fresh1"

ls "$TMP" | grep -q '\.tmp\.' && fail "temporary files left: $(ls "$TMP")"
finish
