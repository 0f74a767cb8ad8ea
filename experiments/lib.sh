# twinbench study scripts: shared helpers, sourced after TB and OUT are set.
# status collects failures of bench runs; a script exits with it.
status=0

# bench NAME ARGS...: one twinbench run to $OUT/NAME.csv with its stderr
# (notes, the pivot view, the speedups) in $OUT/NAME.log.
bench() {
  name=$1; shift
  echo "== $name: twinbench $*" >&2
  "$TB" "$@" --format csv --output "$OUT/$name.csv" 2>"$OUT/$name.log"
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "twinbench exited $rc for $name (see $OUT/$name.log)" >&2
    status=1
  fi
}

# pivot NAME: the pivot view a run left in its log.
pivot() { sed -n '/^# .* by /,/^$/p' "$OUT/$1.log"; }

# col FILE NAME: the column number of NAME in a CSV header.
col() { head -1 "$1" | tr ',' '\n' | grep -nx -- "$2" | cut -d: -f1; }
