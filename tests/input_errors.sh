#!/bin/sh
# The readers of the user's files against what a fuzzing campaign found:
# the options CSV (--input of blackscholes and montecarlo) and the bridge's
# --order, --times, --cov (a file) and --normals. Each class of bad input is
# refused by every reader it applies to with one line naming the file and
# exit status 2, and never echoes binary bytes: (1) endless sources (a
# character device, a FIFO fed for ever) and files over the size limit;
# (2) a FIFO or a pipe is read once, even though a sweep sets a problem up
# several times; (3) binary content; (4) empty files; (5) subnormal numbers;
# (6) the longest line; (7) directories and missing files.
#
# Nothing here may hang: the program runs under timeout, and so does every
# background writer of a FIFO, which is also killed once its case is done.
# Device nodes are private ones made with mknod in $TMP (as root only).
. "${srcdir:-.}/tests/lib.sh"

TB_BIN=$TB
tb_timed() { timeout 20 "$TB_BIN" "$@"; }
TB=tb_timed

RUN="--backend cpu --threads 1 $LIMIT --repeat 1 --warmup 0"
BR="run bridge $RUN --size 3 --steps 7"

# feed FIFO COMMAND...: COMMAND writes into FIFO in the background, for at
# most 20 s (the open of a FIFO blocks until a reader comes, so it is made
# inside the timeout too); unfeed stops it.
feed() {
  fifo=$1
  shift
  timeout 20 sh -c 'f=$1; shift; exec "$@" >"$f"' sh "$fifo" "$@" 2>/dev/null &
  feeder=$!
}
unfeed() { kill "$feeder" 2>/dev/null; wait "$feeder" 2>/dev/null; }

# runs OUT WHAT ARGS...: the program run with ARGS succeeds (WHAT names the
# case in failures), its report in OUT; answers whether it did.
runs() {
  out=$1 what=$2
  shift 2
  "$TB" "$@" >"$out" 2>"$TMP/err" && return 0
  fail "$what: $(cat "$TMP/err")"
  return 1
}

# no_raw_bytes: the last message holds printable ASCII only.
no_raw_bytes() {
  LC_ALL=C grep -q '[^ -~]' "$TMP/err" && fail "raw bytes in the message: $(od -c "$TMP/err")"
}

# each_text FILE SUFFIX: FILE given to each text reader is refused with one
# line "FILE" SUFFIX, printable.
each_text() {
  expect_error 2 "$1$2" run blackscholes $RUN --input "$1"
  no_raw_bytes
  expect_error 2 "$1$2" $BR --order "$1"
  no_raw_bytes
  expect_error 2 "$1$2" $BR --times "$1"
  no_raw_bytes
  expect_error 2 "$1$2" $BR --dim 2 --cov "$1"
  no_raw_bytes
}

# each_fed SUFFIX COMMAND...: a FIFO fed by COMMAND, given to each text
# reader, is refused with SUFFIX.
each_fed() {
  suffix=$1
  shift
  for opt in "run blackscholes $RUN --input" "$BR --order" "$BR --times" "$BR --dim 2 --cov"; do
    rm -f "$TMP/fifo" && mkfifo "$TMP/fifo" || { fail "mkfifo"; return; }
    feed "$TMP/fifo" "$@"
    expect_error 2 "$TMP/fifo$suffix" $opt "$TMP/fifo"
    unfeed
  done
}

# ---- (1) Endless sources and the size limit ----------------------------
# Blank lines for ever: nothing in them stops a reader but the size limit.
each_fed ": more than the [0-9]* bytes this input may hold" yes ""
yes 1 | head -c 17000000 >"$TMP/big"
expect_error 2 "$TMP/big: more than the 16777216 bytes this input may hold (it has 17000000)" \
  $BR --order "$TMP/big"
rm -f "$TMP/big"
# Character devices: a private /dev/zero (endless NUL bytes) and /dev/null.
if [ "$(id -u)" -eq 0 ] && mknod "$TMP/zero" c 1 5 2>/dev/null && mknod "$TMP/null" c 1 3 &&
  [ "$(head -c 4 "$TMP/zero" | od -An -tx1 | tr -d ' ')" = 00000000 ]; then
  each_text "$TMP/zero" ":1: binary data, not text (a NUL byte at column 1)"
  expect_error 2 "the normals file '$TMP/zero' is a character device, not a regular file" \
    $BR --normals "$TMP/zero"
  expect_error 2 "$TMP/null: empty file" run blackscholes $RUN --input "$TMP/null"
  expect_error 2 "$TMP/null holds no time indices" $BR --order "$TMP/null"
else
  echo "not root, or no device nodes in $TMP: the character device cases are skipped"
fi

# ---- (2) A FIFO or a pipe is read once ---------------------------------
# The sweep sets each problem up twice (the memory check, then the run) and
# once per precision and parameter point: the results equal a file's.
printf 'S,X,T,r,v\n42,40,0.5,0.1,0.2\n10,20,1,,0.5\n30,20,2,0.05,\n' >"$TMP/o.csv"
OPTS="$RUN --precision float,double --format csv"
runs "$TMP/file.csv" "options from a file" run blackscholes $OPTS --cnd poly,erfc \
  --input "$TMP/o.csv"
rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
feed "$TMP/fifo" cat "$TMP/o.csv"
if runs "$TMP/fifo.csv" "options from a FIFO" run blackscholes $OPTS --cnd poly,erfc \
  --input "$TMP/fifo"; then
  [ "$(csv_select "$TMP/fifo.csv" precision cnd size verified error)" = \
    "$(csv_select "$TMP/file.csv" precision cnd size verified error)" ] ||
    fail "options from a FIFO differ from the file's: $(csv_select "$TMP/fifo.csv" size verified)"
  expect_rows "$TMP/fifo.csv" "$(csv_rows "$TMP/file.csv" | wc -l)"
  expect_all_pass "$TMP/fifo.csv"
fi
unfeed
# A pipe: the program's own standard input (Linux names it /proc/self/fd/0).
# The program runs inside the pipeline; the checks run in this shell.
if cat "$TMP/o.csv" | "$TB" run blackscholes $OPTS --cnd poly,erfc --input /proc/self/fd/0 \
  >"$TMP/pipe.csv" 2>"$TMP/err"; then
  [ "$(csv_select "$TMP/pipe.csv" precision cnd size verified error)" = \
    "$(csv_select "$TMP/file.csv" precision cnd size verified error)" ] ||
    fail "options from a pipe differ from the file's"
else
  fail "options from a pipe: $(cat "$TMP/err")"
fi
rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
feed "$TMP/fifo" cat "$TMP/o.csv"
if runs "$TMP/mc.csv" "montecarlo options from a FIFO" run montecarlo $OPTS --paths 4096 \
  --input "$TMP/fifo"; then
  expect_all_pass "$TMP/mc.csv"
  [ "$(csv_select "$TMP/mc.csv" size | sort -u)" = 3 ] || fail "montecarlo from a FIFO: not 3 options"
fi
unfeed

# The bridge's order, times and Sigma, each from its own FIFO, in a sweep of
# two precisions and two modes.
printf '7\n3\n1\n2\n5\n4\n6\n' >"$TMP/order"
printf '0.3\n0.35\n0.5\n0.9\n1.2\n2\n2.25\n' >"$TMP/times"
printf '1 0.5\n0.5 2\n' >"$TMP/sigma"
BOPTS="$RUN --size 5 --steps 7 --dim 2 --precision float,double --mode paths,increments --format csv"
runs "$TMP/bfile.csv" "bridge from files" run bridge $BOPTS --order "$TMP/order" \
  --times "$TMP/times" --cov "$TMP/sigma"
for f in fo ft fs; do rm -f "$TMP/$f" && mkfifo "$TMP/$f"; done
feed "$TMP/fo" cat "$TMP/order"
f1=$feeder
feed "$TMP/ft" cat "$TMP/times"
f2=$feeder
feed "$TMP/fs" cat "$TMP/sigma"
if runs "$TMP/bfifo.csv" "bridge from FIFOs" run bridge $BOPTS --order "$TMP/fo" \
  --times "$TMP/ft" --cov "$TMP/fs"; then
  [ "$(csv_select "$TMP/bfifo.csv" variant precision mode verified error)" = \
    "$(csv_select "$TMP/bfile.csv" variant precision mode verified error)" ] ||
    fail "the bridge from FIFOs differs from files: $(csv_select "$TMP/bfifo.csv" verified)"
  expect_all_pass "$TMP/bfifo.csv"
fi
unfeed
feeder=$f1 && unfeed
feeder=$f2 && unfeed
# The raw normals are checked by their size: a FIFO is refused, unopened.
rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
expect_error 2 "the normals file '$TMP/fifo' is a FIFO or a pipe, not a regular file" \
  $BR --normals "$TMP/fifo"

# ---- (3) Binary content --------------------------------------------------
# A NUL byte inside a line (once skipped silently), a control character
# (once echoed raw), bytes that are not UTF-8.
printf '1\n2\0003\n' >"$TMP/nul"
each_text "$TMP/nul" ":2: binary data, not text (a NUL byte at column 2)"
printf 'S,X,T\n10,20,1\n10,2\0000,1\n' >"$TMP/nul.csv"
expect_error 2 "$TMP/nul.csv:3: binary data, not text (a NUL byte at column 5)" \
  run montecarlo $RUN --input "$TMP/nul.csv"
printf 'S\033[31m,X,T\n1,2,3\n' >"$TMP/esc"
each_text "$TMP/esc" ":1: binary data, not text (a control character at column 2)"
printf '1 2\n\377\376\n' >"$TMP/latin"
each_text "$TMP/latin" ":2: binary data, not text (a byte that is not UTF-8 at column 1)"

# ---- (4) Empty files -----------------------------------------------------
: >"$TMP/empty"
expect_error 2 "$TMP/empty: empty file (expected a header" run blackscholes $RUN --input "$TMP/empty"
expect_error 2 "$TMP/empty holds no time indices: expected 7 (steps is 7)" $BR --order "$TMP/empty"
expect_error 2 "$TMP/empty holds no times: expected 7 (steps is 7)" $BR --times "$TMP/empty"
expect_error 2 "$TMP/empty holds no rows: expected 2 rows of 2 numbers" \
  $BR --dim 2 --cov "$TMP/empty"
expect_error 2 "normals file $TMP/empty is empty: expected 3 paths" $BR --normals "$TMP/empty"
# Nor is a count over the most steps answered with an impossible --steps.
seq 1 20000 >"$TMP/many"
expect_error 2 "$TMP/many holds 20000 time indices, more than the 16384 steps allowed" \
  $BR --order "$TMP/many"
printf '# only a comment\n\n' >"$TMP/blank"
expect_error 2 "$TMP/blank: no header, only blank and comment lines" \
  run montecarlo $RUN --input "$TMP/blank"

# ---- (5) Subnormal numbers -------------------------------------------------
# A subnormal covariance is a valid number: its factor is far inside the
# normal range in double. A factor lost below float's range, or a number
# that underflows to 0, is refused with that reason.
printf '1 4e-320\n4e-320 1\n' >"$TMP/sub"
for prec in float double; do
  runs "$TMP/sub.csv" "a subnormal Sigma entry in $prec" $BR --dim 2 --precision $prec \
    --cov "$TMP/sub" --format csv && expect_all_pass "$TMP/sub.csv"
done
runs "$TMP/sub.csv" "a subnormal Sigma in double" $BR --precision double --cov 4e-320 \
  --format csv && expect_all_pass "$TMP/sub.csv"
expect_error 2 "row 1 of the Cholesky factor is below the smallest normal float" \
  $BR --cov 4e-320
expect_error 2 "row 1: '1e-400' is too small for a double: it would be read as 0" \
  $BR --precision double --cov 1e-400

# ---- (6) The longest line ------------------------------------------------
printf '%04096d\n3\n1\n2\n5\n4\n6\n' 7 >"$TMP/long"
runs /dev/null "a line of 4096 bytes" $BR --order "$TMP/long"
printf '%04097d\n3\n1\n2\n5\n4\n6\n' 7 >"$TMP/long"
each_text "$TMP/long" ":1: line longer than 4096 bytes"

# ---- (7) Directories and missing files -----------------------------------
mkdir "$TMP/dir"
each_text "$TMP/dir" ": is a directory, not a file"
expect_error 2 "the normals file '$TMP/dir' is a directory, not a regular file" \
  $BR --normals "$TMP/dir"
expect_error 2 "$TMP/nosuch: cannot open: No such file" run montecarlo $RUN --input "$TMP/nosuch"
expect_error 2 "cannot open the times file '$TMP/nosuch'" $BR --times "$TMP/nosuch"
expect_error 2 "cov '$TMP/nosuch' (not a file" $BR --cov "$TMP/nosuch"
finish
