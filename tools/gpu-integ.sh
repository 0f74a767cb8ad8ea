#!/bin/bash
# The developers' script for the GPU machine (the device tool; not installed): one call
# builds, tests and benchmarks in parts, within the call's time limit, and later calls
# while the machine is warm reuse the build. Here:
#   ../shared/tools/gpu-check; cp tools/gpu-integ.sh .gpu/integ.sh
#   rm -rf .old/integ && mkdir -p .old/integ && git archive HEAD | tar x -C .old/integ
#   find .old/integ/reports -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
# (.old/ git-ignored through .git/info/exclude; the build needs reports/report.py, not the
# committed reports, which would take the tree past the device tool's 64 MiB), then the
# device tool's run with carry [".gpu", ".old"] and the command
#   cd .old/integ && DEADLINE=585 REBUILD=1 bash ../../.gpu/integ.sh build check
# and in a chained call `... integ.sh build rest 'cmd:./twinbench run ...' exp:sor`.
# PARTs: build | check | check:I/N (every N-th test from the I-th: check:1/2 in one call and
#   check:2/2 in the next need no warm machine) | rest (the tests a cut check left
#   unfinished) | tests:T1+T2 |
#   exp:STUDY[@line+line] (resumable; seeded once from .old/integ/results-seed, a copy of a
#   results folder, e.g. reports/h100-2026-11-24-experiments/results) | cmd:COMMAND (in the
#   build folder). Each part gets what is left of DEADLINE (then SIGTERM, and SIGKILL 15 s
#   later); logs and results come back in $OUT/all.tgz. Before a CPU benchmark that follows
#   a cut check, kill its tests (`pkill -x twinbench`; never `pkill -f`, which matches this
#   script's own arguments).
# Env: DEADLINE (s since start, default 590), REBUILD=1, MACHINE (h100), OUT.
set -u
# The source is copied to /tmp/src at build (a chained call re-sends the tree, whose
# fresh mtimes would make make re-run the autotools); results live in /tmp/results.
export T=$PWD S=/tmp/src B=/tmp/tb R=/tmp/results
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" "$OUT/results"
DEADLINE=${DEADLINE:-590}; T0=$(date +%s)
MACHINE=${MACHINE:-h100}
left() { echo $(( DEADLINE - ($(date +%s) - T0) )); }
nvidia-smi -L 2>&1 | head -2
# COMMAND... within the time left $1 (less 10 s), then SIGTERM, and SIGKILL 15 s later
within() { local l=$1; shift; timeout -k 15 $((l - 10)) "$@"; }
# make check over the tests $1, appended to the part's log $2, within the time left $3
run_tests() {
  ( cd "$B" && within "$3" make -j"$(nproc)" check TESTS="$1" ) >> "$2" 2>&1
}
summary=()
n=0
for part in "$@"; do
  n=$((n+1)); L=$(left)
  if [ "$L" -le 15 ]; then summary+=("$part: not run (deadline)"); continue; fi
  log="$OUT/p$n.log"; t=$(date +%s)
  case "$part" in
    build)
      if [ -x "$B/twinbench" ] && [ "${REBUILD:-0}" != 1 ]; then summary+=("build: kept $B"); continue; fi
      ( rm -rf "$S" && cp -a "$T" "$S" && cd "$S" && autoreconf -fi && rm -rf "$B" && mkdir -p "$B" && cd "$B" && "$S/configure" ${CONFIGURE_FLAGS:-} \
        && make -j"$(nproc)" ) > "$log" 2>&1
      rc=$?; grep -c 'warning:' "$log" | sed 's/^/build warnings: /'
      [ $rc -ne 0 ] && tail -30 "$log" ;;
    check)
      ( cd "$B" && within "$L" make -j"$(nproc)" check ) > "$log" 2>&1; rc=$?
      find "$B" -name test-suite.log -exec cp {} "$OUT/" \; 2>/dev/null
      grep -E '^(# |FAIL|ERROR|XPASS)' "$log" | tail -20
      grep -E '^(PASS|FAIL|SKIP|ERROR)' "$log" | awk '{print $1}' | sort | uniq -c ;;
    check:*)
      # one share of the suite (check:I/N: every N-th test from the I-th, the GPU tests, the
      # longest, dealt first), so that a call on a fresh machine (a build of some 200 to
      # 250 s) still ends its share of the tests within the call's limit
      sh=${part#check:}; i=${sh%/*}; nn=${sh#*/}
      tl=$(make -s -C "$B" -f Makefile -f <(printf 'tb-print-tests:\n\t@echo $(TESTS)\n') tb-print-tests \
        | tr ' ' '\n' | grep . | awk '{ print (/gpu/ ? 0 : 1), $0 }' | sort -s -k1,1 | cut -d' ' -f2 \
        | awk -v i="$i" -v n="$nn" '(NR - i) % n == 0' | tr '\n' ' ')
      echo "share $sh: $tl" > "$log"; run_tests "$tl" "$log" "$L"; rc=$?
      find "$B" -name test-suite.log -exec cp {} "$OUT/test-suite-$i-of-$nn.log" \; 2>/dev/null
      grep -E '^(# |FAIL|ERROR|XPASS)' "$log" | tail -9 ;;
    rest)
      # the tests a cut check left without a result: their logs removed, then
      # make check with RECHECK_LOGS empty remakes only the missing logs
      ( cd "$B" && for l in $(find . -name '*.log' ! -name test-suite.log ! -name config.log); do
          [ -f "${l%.log}.trs" ] || { echo "rerun ${l%.log}"; rm -f "$l"; }; done
        within "$L" make -j"$(nproc)" check RECHECK_LOGS= ) > "$log" 2>&1; rc=$?
      find "$B" -name test-suite.log -exec cp {} "$OUT/" \; 2>/dev/null
      grep -E '^(rerun|PASS|FAIL|SKIP|ERROR|# )' "$log" | tail -25 ;;
    tests:*)
      : > "$log"; run_tests "$(echo "${part#tests:}" | tr '+' ' ')" "$log" "$L"; rc=$?
      grep -E '^(PASS|FAIL|SKIP|ERROR|# )' "$log" | tail -20 ;;
    exp:*)
      spec=${part#exp:}; st=${spec%%@*}; only=""
      [ "$spec" != "$st" ] && only="--only $(echo "${spec#*@}" | tr '+' ',')"
      [ -d "$R" ] || { mkdir -p "$R"; [ -d "$T/results-seed" ] && cp -r "$T/results-seed/." "$R/"; }
      # the rows made so far go to $OUT every 20 s too, so that a call the device tool
      # cuts at its limit (before the packing below) still brings them back
      ( while sleep 20; do cp -r "$R/$st" "$OUT/results/" 2>/dev/null; done ) & sync=$!
      ( cd "$S" && within "$L" "$B/twinbench" experiment "experiments/$st.tb" --machine "$MACHINE" \
        --results "$R" $only ) > "$log" 2>&1; rc=$?
      kill $sync 2>/dev/null; wait $sync 2>/dev/null
      cp -r "$R/$st" "$OUT/results/" 2>/dev/null
      tail -4 "$log" ;;
    cmd:*)
      ( cd "$B" && within "$L" bash -c "${part#cmd:}" ) > "$log" 2>&1; rc=$?
      tail -40 "$log" ;;
    *) echo "unknown part $part"; rc=2 ;;
  esac
  summary+=("p$n $part: rc=$rc $(( $(date +%s) - t ))s")
done
printf '%s\n' "${summary[@]}" > "$OUT/summary.txt"
( cd "$OUT" && tar czf /tmp/integ-out.tgz --exclude=all.tgz . && find . -mindepth 1 -delete \
  && mv /tmp/integ-out.tgz all.tgz && printf '%s\n' "${summary[@]}" > summary.txt )
echo "== summary"; printf '%s\n' "${summary[@]}"
