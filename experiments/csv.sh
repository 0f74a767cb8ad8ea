# twinbench CSV reports in shell and awk: shared by the tests and the study
# scripts (sourced by tests/lib.sh and experiments/lib.sh).
# A CSV report: '#' lines of context, the header, the rows.
# csv_header FILE: the header; csv_rows FILE: the rows.
csv_header() { grep -v '^#' "$1" | head -1; }
csv_rows() { grep -v '^#' "$1" | tail -n +2; }
# csv_col FILE NAME: the column number of NAME in the CSV header.
csv_col() { csv_header "$1" | tr ',' '\n' | grep -nx -- "$2" | cut -d: -f1; }
# In awk, the rows of a CSV report are the lines that match CSV_ROW.
CSV_ROW='!/^#/ && ++_line > 1'

# csv_select FILE NAME...: the named columns of every row of FILE, in the
# order given, comma-separated.
csv_select() {
  f=$1
  shift
  cols=""
  for c in "$@"; do cols="$cols${cols:+,}$(csv_col "$f" "$c")"; done
  awk -F, -v cols="$cols" 'BEGIN { n = split(cols, c, ",") }
    '"$CSV_ROW"' { line = $(c[1]); for (i = 2; i <= n; i++) line = line "," $(c[i]); print line }' "$f"
}
