#!/bin/sh
# The command-line fuzzer (tests/fuzz_cli.c) against ./twinbench: about 500
# seeded cases of real options with hostile values and malformed files.
# TB_FUZZ_SEED and TB_FUZZ_CASES choose other cases; a failure prints each
# failing command line and how to rerun it.
. "${srcdir:-.}/tests/lib.sh"

FUZZ=${FUZZ:-tests/fuzz_cli}
[ -x "$FUZZ" ] || { echo "no fuzzer at $FUZZ"; exit 99; }
# Its temporary folder goes inside ours, which lib.sh removes on exit.
TMPDIR=$TMP "$FUZZ" "$TB"
