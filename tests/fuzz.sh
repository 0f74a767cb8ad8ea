#!/bin/sh
# The command-line fuzzer (tests/fuzz_cli.c) against ./twinbench: about 500
# seeded cases of real options with hostile values and malformed files.
# TB_FUZZ_SEED and TB_FUZZ_CASES choose other cases; a failure prints each
# failing command line and how to rerun it.
. "${srcdir:-.}/tests/lib.sh"

FUZZ=${FUZZ:-tests/fuzz_cli}
[ -x "$FUZZ" ] || { echo "no fuzzer at $FUZZ"; exit 99; }
# Its temporary folder goes inside ours, which lib.sh removes on exit.
# A case gets 120 s: under a parallel make check every test's teams pin to
# the same first cores, and SOR's lockstep sweeps (wave and dense with flags:
# a hand-over a plane) then move at the scheduler's time slices. A 47^3 solve
# of 0.4 s alone took 0.7 s, then over 10 s and over 30 s (the H200 machine,
# make -j16 check, 2026-11-24) beside the 16-thread tests, and 14 s on the
# 2-core build machine with 8 busy threads pinned on each of its two cores.
# A hang still fails, two minutes later.
TMPDIR=$TMP "$FUZZ" -t 120 "$TB"
