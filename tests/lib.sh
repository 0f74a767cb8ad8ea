# twinbench shell tests: shared helpers. Sourced by each tests/*.sh.
# Exit codes for the Automake harness: 0 pass, 1 fail, 77 skip, 99 hard error.
set -u
TB=${TB:-./twinbench}
[ -x "$TB" ] || { echo "no twinbench binary at $TB"; exit 99; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tbtest.XXXXXX") || exit 99
trap 'rm -rf "$TMP"' EXIT
FAILS=0
# Keep the CPU limit measurement small: tests check behaviour, not speed.
LIMIT="--limit-size 256K"

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
finish() { [ "$FAILS" -eq 0 ] || { echo "$FAILS check(s) failed"; exit 1; }; exit 0; }

# expect_error CODE PATTERN ARGS...: the command exits with CODE and prints
# exactly one line on stderr, matching PATTERN.
expect_error() {
  want=$1 pat=$2; shift 2
  "$TB" "$@" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  lines=$(wc -l <"$TMP/err")
  if [ "$rc" -ne "$want" ]; then
    fail "'$*' exited $rc, expected $want: $(cat "$TMP/err")"
  elif [ "$lines" -ne 1 ]; then
    fail "'$*' printed $lines lines on stderr: $(cat "$TMP/err")"
  elif ! grep -q -- "$pat" "$TMP/err"; then
    fail "'$*' said '$(cat "$TMP/err")', expected /$pat/"
  fi
}

# csv_col FILE NAME: the column number of NAME in the CSV header.
csv_col() { head -1 "$1" | tr ',' '\n' | grep -nx -- "$2" | cut -d: -f1; }

# The GPU answers 0 when usable; otherwise the tests that need it skip.
gpu_present() { "$TB" run stream --backend gpu --size 1 --repeat 1 --warmup 0 -P op=copy \
  --format csv >/dev/null 2>&1; }

# expect_rows FILE N: the CSV report FILE has N result rows.
expect_rows() {
  rows=$(($(wc -l <"$1") - 1))
  [ "$rows" -eq "$2" ] || fail "$rows rows in $1, expected $2"
}

# expect_all_pass FILE: every row of the CSV report FILE passed verification.
expect_all_pass() {
  bad=$(tail -n +2 "$1" | cut -d, -f"$(csv_col "$1" verified)" | grep -vc '^pass$')
  [ "$bad" -eq 0 ] || fail "$bad rows of $1 not verified"
}

# csv_select FILE NAME...: the named columns of every row of FILE, in the
# order given, comma-separated.
csv_select() {
  f=$1
  shift
  cols=""
  for c in "$@"; do cols="$cols${cols:+,}$(csv_col "$f" "$c")"; done
  awk -F, -v cols="$cols" 'BEGIN { n = split(cols, c, ",") }
    NR > 1 { line = $(c[1]); for (i = 2; i <= n; i++) line = line "," $(c[i]); print line }' "$f"
}
