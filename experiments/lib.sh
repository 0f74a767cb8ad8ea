# twinbench study scripts: shared helpers, sourced after OUT is set.
# status collects failures of bench runs; a script exits with it.
status=0

# The program: $TB (a path, or a name looked up in PATH); else, for the
# scripts make install copied, the twinbench installed with them (make install
# writes its path into tb_installed); else ./twinbench, the program of the
# build folder the script is run from.
tb_installed=
TB=${TB:-${tb_installed:-./twinbench}}
command -v "$TB" >/dev/null 2>&1 ||
  { echo "no twinbench at $TB (run from the build folder, or set TB)" >&2; exit 1; }

# bench NAME ARGS...: one twinbench run to $OUT/NAME.csv, its table (with
# the speedups and the pivot view) in $OUT/NAME.txt and its notes in
# $OUT/NAME.log.
# RESUME=1: a step whose $OUT/NAME.csv has rows already is kept, not run again
# (a study cut short by a time limit goes on where it stopped).
kept() {
  [ "${RESUME:-0}" = 1 ] && grep -q '^[^#]' "$OUT/$1.csv" 2>/dev/null &&
    { echo "== $1: kept (RESUME=1, $OUT/$1.csv has rows)" >&2; return 0; }
  return 1
}
bench() {
  name=$1; shift
  kept "$name" && return 0
  echo "== $name: twinbench $*" >&2
  "$TB" "$@" --output "$OUT/$name.csv" >"$OUT/$name.txt" 2>"$OUT/$name.log"
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "twinbench exited $rc for $name (see $OUT/$name.log)" >&2
    status=1
  fi
}

# pivot NAME: the pivot view of a run's table.
pivot() { sed -n '/^# .* by .* (rows) and /,/^$/p' "$OUT/$1.txt"; }

# The CSV helpers (csv_col, csv_rows, CSV_ROW, ...), beside this file.
. "$(dirname "${BASH_SOURCE[0]}")/csv.sh"
