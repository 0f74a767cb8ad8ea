# twinbench shell tests: shared helpers. Sourced by each tests/*.sh.
# Exit codes for the Automake harness: 0 pass, 1 fail, 77 skip, 99 hard error.
set -u
TB=${TB:-./twinbench}
[ -x "$TB" ] || { echo "no twinbench binary at $TB"; exit 99; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tbtest.XXXXXX") || exit 99
trap 'rm -rf "$TMP"' EXIT
# Caches a run writes (FFTW wisdom) stay in the test's folder, not in ~/.cache.
XDG_CACHE_HOME=$TMP/cache
export XDG_CACHE_HOME
FAILS=0
# Keep the CPU limit measurement small: tests check behaviour, not speed.
LIMIT="--ceiling-size 256K"

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
finish() { [ "$FAILS" -eq 0 ] || { echo "$FAILS check(s) failed"; exit 1; }; exit 0; }

# stop_within SIG PID MAX: send SIG to the background job PID and wait for
# it; its exit status in $rc; fail when it took more than MAX seconds to go.
stop_within() {
  kill -"$1" "$2"
  _t0=$(date +%s)
  wait "$2"
  rc=$?
  [ $(($(date +%s) - _t0)) -le "$3" ] || fail "SIG$1: more than $3 s from the signal to the exit"
}

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

# run_csv FILE ARGS...: `twinbench run ARGS`, then the test's fixed options
# $RUN_OPTS (backend, repeats, ...) and the small ceiling size, into the CSV
# report FILE; a failed run fails the test with its message.
run_csv() {
  out=$1
  shift
  "$TB" run "$@" ${RUN_OPTS:-} $LIMIT --format csv --output "$out" >/dev/null 2>"$TMP/err" ||
    fail "run $*: $(cat "$TMP/err")"
}

# The CSV helpers, shared with the study scripts.
. "${srcdir:-.}/experiments/csv.sh"

# The GPU answers 0 when usable; otherwise the tests that need it skip.
gpu_present() { "$TB" run stream --backend gpu --size 1 --repeat 1 --warmup 0 -P op=copy \
  --format csv >/dev/null 2>&1; }

# expect_rows FILE N: the CSV report FILE has N result rows.
# sor_same_rows WANT GOT RTOL: the SOR rows of CSV file GOT give WANT's
# answer (four rows, by precision): the same iterations and err_max, the
# residual within RTOL relative (its summation order may differ) and the
# true residual within 1e-12. Both selections are left in $TMP/want and
# $TMP/got for the caller's message.
sor_same_rows() {
  csv_select "$1" precision iterations err_max residual true_res >"$TMP/want"
  csv_select "$2" precision iterations err_max residual true_res >"$TMP/got"
  awk -F, -v rtol="$3" 'NR == FNR { it[$1] = $2; err[$1] = $3; res[$1] = $4; tr[$1] = $5; next }
           $2 != it[$1] || $3 != err[$1] || ($4 - res[$1]) > rtol * res[$1] ||
           (res[$1] - $4) > rtol * res[$1] || ($5 - tr[$1]) > 1e-12 * tr[$1] ||
           (tr[$1] - $5) > 1e-12 * tr[$1] { bad++ }
           END { exit bad > 0 || FNR != 4 }' "$TMP/want" "$TMP/got"
}

expect_rows() {
  rows=$(csv_rows "$1" | wc -l)
  [ "$rows" -eq "$2" ] || fail "$rows rows in $1, expected $2"
}

# expect_all_pass FILE: every row of the CSV report FILE passed verification.
expect_all_pass() {
  bad=$(csv_rows "$1" | cut -d, -f"$(csv_col "$1" verified)" | grep -vc '^pass$')
  [ "$bad" -eq 0 ] || fail "$bad rows of $1 not verified"
}

# all_pass FILE ROWS: the CSV report FILE has ROWS rows, every one verified.
all_pass() { expect_rows "$1" "$2"; expect_all_pass "$1"; }

# wide FILE: the length of the longest line of FILE.
wide() { awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$1"; }

# expect_verified FILE: no row of the CSV report FILE failed or went
# unchecked: each passed, or says unverifiable (its bound cannot tell a
# wrong result from a right one, and its note says why).
expect_verified() {
  bad=$(csv_rows "$1" | cut -d, -f"$(csv_col "$1" verified)" | grep -vc '^\(pass\|unverifiable\)$')
  [ "$bad" -eq 0 ] || fail "$bad rows of $1 failed or were not verified"
}

# expect_sum_verdicts FILE: the rows of a CSV report of sums (reduce) pass
# exactly where their bound (tolerance x result) is below the smallest
# input, 0.5, and say unverifiable where it is not.
expect_sum_verdicts() {
  awk -F, -v v="$(csv_col "$1" verified)" -v t="$(csv_col "$1" tolerance)" \
    -v r="$(csv_col "$1" result)" "$CSV_ROW"' {
      vac = $t * $r >= 0.5
      if ($v != (vac ? "unverifiable" : "pass")) { print "row " NR ": " $0; bad++ } }
    END { exit bad > 0 }' "$1" || fail "$1: a sum's verdict does not follow its bound"
}

# mc_verified FILE N: N Monte Carlo rows, each passed or, where no option's
# bound is below its price (tells = 0: a handful of options and few paths),
# unverifiable; and some of them passed.
mc_verified() {
  expect_rows "$1" "$2"
  awk -F, -v v="$(csv_col "$1" verified)" -v t="$(csv_col "$1" tells)" "$CSV_ROW"' {
      if (!($v == "pass" && $t > 0) && !($v == "unverifiable" && $t == 0)) bad++
      pass += $v == "pass" }
    END { exit bad > 0 || pass == 0 }' "$1" ||
    fail "$1: rows neither passed nor honestly unverifiable: $(cat "$1")"
}

# poisson_close ONE.csv ONE.dump RUN.csv RUN.dump: two Poisson solves of
# the same problem (one-row CSV reports and their --dump of u, printed to
# round trip) agree as their bounds allow. Both passed the verifier's bound
# tol (RUN's tolerance column) against the same long-double reference
# u_ref, so ||u_run - u_one||_2 <= 2 tol ||u_ref||_2 <= 2 tol ||u_one||_2 /
# (1 - tol); their err_linf columns (the distance to the exact solution
# after the shift by u(0)) differ by at most twice the largest pointwise
# difference, itself at most that 2-norm: 4 tol ||u_one||_2 / (1 - tol).
poisson_close() {
  awk -F, -v tol="$(csv_select "$3" tolerance)" -v e1="$(csv_select "$1" err_linf)" \
    -v ex="$(csv_select "$3" err_linf)" '
    FNR == 1 { next }
    NR == FNR { u[$1] = $3; n1 += $3 * $3; next }
    { d += ($3 - u[$1]) ^ 2; m++ }
    END { b = 2 * tol * sqrt(n1) / (1 - tol); dl = ex - e1
          exit !(m == FNR - 1 && m > 0 && sqrt(d) <= b && dl <= 2 * b && -dl <= 2 * b) }' \
    "$2" "$4" || fail "$3: u or err_linf off $1's solution by more than the bound"
}
