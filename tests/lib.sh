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
