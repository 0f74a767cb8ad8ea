#!/bin/sh
# The command-line fuzzer (tests/fuzz_cli.c) against ./twinbench: about 500
# seeded cases of real options with hostile values and malformed files.
# TB_FUZZ_SEED and TB_FUZZ_CASES choose other cases; a failure prints each
# failing command line and how to rerun it.
. "${srcdir:-.}/tests/lib.sh"

FUZZ=${FUZZ:-tests/fuzz_cli}
[ -x "$FUZZ" ] || { echo "no fuzzer at $FUZZ"; exit 99; }
# Its temporary folder goes inside ours, which lib.sh removes on exit.
# A case gets 30 s: under a parallel make check on the GPU machine (16-thread
# CPU tests beside it) a 47^3 SOR solve that takes 0.7 s alone once passed 10 s.
TMPDIR=$TMP "$FUZZ" -t 30 "$TB"
