#!/bin/sh
# Energy columns (doc/energy.md), asked for with --energy: absent, with the
# reason said once, where no backend of the run has an energy counter, and
# the run succeeds; present where one has, from a copy of the powercap tree
# ($TWINBENCH_POWERCAP): a counter that does not move leaves the row without
# energy and flagged energy-short, one that moves gives joules per run,
# watts and J/GB that agree with each other and with the time; never
# without --energy. The arithmetic on the readings (wrap-around, short
# windows) is tests/test_energy.c's.
. "${srcdir:-.}/tests/lib.sh"

RUN="run stream --backend cpu --size 64K --threads 1 --variant omp -P op=copy --repeat 3 $LIMIT --energy"

# No counter (a tree that is not there, as on a virtual machine): no energy
# column in any format, one note that says why, and the run succeeds.
TWINBENCH_POWERCAP=$TMP/none "$TB" $RUN --format csv >"$TMP/none.csv" 2>"$TMP/err" ||
  fail "run without a counter: $(cat "$TMP/err")"
all_pass "$TMP/none.csv" 1
[ "$(grep -c "energy" "$TMP/err")" -eq 1 ] &&
  grep -q "note: --energy: no backend of the run has an energy counter.*cpu: not measured: .*absent" "$TMP/err" ||
  fail "the missing counter is not said once: $(cat "$TMP/err")"
csv_header "$TMP/none.csv" | grep -q 'energy_j\|avg_w\|j_per_gb\|_per_j' &&
  fail "energy columns without a counter: $(csv_header "$TMP/none.csv")"
TWINBENCH_POWERCAP=$TMP/none "$TB" $RUN -o "$TMP/none.json" >"$TMP/none.txt" 2>"$TMP/err" ||
  fail "JSON run without a counter: $(cat "$TMP/err")"
grep -q 'energy' "$TMP/none.txt" && fail "the table speaks of energy: $(cat "$TMP/none.txt")"
python3 - "$TMP/none.json" <<'PY' || fail "JSON without a counter"
import json, sys
d = json.load(open(sys.argv[1]))
why = d["environment"]["energy"]["cpu"]
assert why.startswith("not measured: ") and "absent" in why, why
assert not any(k in r for r in d["results"] for k in ("energy_j", "avg_w", "j_per_gb")), "columns"
PY
TWINBENCH_POWERCAP=$TMP/none "$TB" info >"$TMP/info" 2>&1 || fail "info without a counter"
grep -q "energy: not measured: .*absent" "$TMP/info" || fail "info: $(cat "$TMP/info")"

# A tree with a package and its DRAM whose counters stay still: the columns
# are there, the row has no energy and says why.
PC=$TMP/powercap
mkdir -p "$PC/intel-rapl:0" "$PC/intel-rapl:0:0" "$PC/intel-rapl:0:1" "$PC/intel-rapl-mmio:0"
echo package-0 >"$PC/intel-rapl:0/name"
echo dram >"$PC/intel-rapl:0:0/name"
echo core >"$PC/intel-rapl:0:1/name"
echo package-0 >"$PC/intel-rapl-mmio:0/name"
for z in intel-rapl:0 intel-rapl:0:0 intel-rapl:0:1 intel-rapl-mmio:0; do
  echo 262143328850 >"$PC/$z/max_energy_range_uj"
  echo 1000 >"$PC/$z/energy_uj"
done
TWINBENCH_POWERCAP=$PC "$TB" info >"$TMP/info" 2>&1 || fail "info with a counter"
grep -q "energy: powercap RAPL .*: package-0, dram$" "$TMP/info" ||
  fail "info does not name the package and DRAM zones alone: $(cat "$TMP/info")"
TWINBENCH_POWERCAP=$PC "$TB" $RUN --format csv >"$TMP/still.csv" 2>"$TMP/err" ||
  fail "run with a still counter: $(cat "$TMP/err")"
[ -s "$TMP/err" ] && fail "notes with a counter: $(cat "$TMP/err")"
all_pass "$TMP/still.csv" 1
[ "$(csv_select "$TMP/still.csv" energy_j avg_w j_per_gb)" = ",," ] ||
  fail "a still counter gave energy: $(csv_select "$TMP/still.csv" energy_j avg_w j_per_gb)"
csv_select "$TMP/still.csv" flags | grep -q "energy-short" ||
  fail "the row is not flagged energy-short: $(csv_rows "$TMP/still.csv")"

# A counter that moves (a writer adds 2000 uJ every 10 ms or so, about
# 0.2 W): every figure is there and they agree: j_per_gb is energy_j over
# the GB of a copy of 64K doubles (2 x 8 x 65536 bytes), avg_w times the
# window is energy_j times the runs, and that window lies between the
# least the runner allows and the most it gives.
(v=1000; while [ -d "$PC" ]; do
   v=$((v + 2000)); echo $v >"$PC/intel-rapl:0/energy_uj.new" &&
   mv "$PC/intel-rapl:0/energy_uj.new" "$PC/intel-rapl:0/energy_uj"; sleep 0.01; done) &
writer=$!
TWINBENCH_POWERCAP=$PC "$TB" $RUN --format csv >"$TMP/moving.csv" 2>"$TMP/err" ||
  fail "run with a moving counter: $(cat "$TMP/err")"
TWINBENCH_POWERCAP=$PC "$TB" $RUN -o "$TMP/moving.json" >"$TMP/moving.txt" 2>"$TMP/err" ||
  fail "JSON run with a moving counter: $(cat "$TMP/err")"
# Without --energy, no energy even where there is a counter.
TWINBENCH_POWERCAP=$PC "$TB" ${RUN% --energy} --format csv >"$TMP/off.csv" 2>"$TMP/err" ||
  fail "run without --energy: $(cat "$TMP/err")"
kill "$writer"
csv_header "$TMP/off.csv" | grep -q 'energy' && fail "energy without --energy: $(csv_header "$TMP/off.csv")"
all_pass "$TMP/moving.csv" 1
csv_select "$TMP/moving.csv" energy_j avg_w j_per_gb repeats median_ms |
  awk -F, '{ window = $1 * $4 / $2
    if (!($1 > 0 && $2 > 0 && $3 > 0)) { print "no energy: " $0; exit 1 }
    if (($3 - $1 / 1.048576e-3) ^ 2 > (1e-9 * $3) ^ 2) { print "j_per_gb: " $0; exit 1 }
    if (window < 0.5 || window > 2.5) { print "window " window " s: " $0; exit 1 } }' ||
  fail "moving counter: $(csv_rows "$TMP/moving.csv")"
csv_select "$TMP/moving.csv" flags | grep -q "energy-short" &&
  fail "a moving counter flagged energy-short"
grep -q "^# energy_j = joules per run" "$TMP/moving.txt" && grep -q "cpu: powercap RAPL" "$TMP/moving.txt" &&
  grep -q "the median of at least 3 runs" "$TMP/moving.txt" ||
  fail "the table does not say how energy was taken: $(cat "$TMP/moving.txt")"
grep -q "^variant .*energy_j .*avg_w" "$TMP/moving.txt" ||
  fail "the table lacks the energy columns: $(cat "$TMP/moving.txt")"
python3 "${srcdir:-.}/tests/check_json.py" "${srcdir:-.}/doc/report.schema.json" "$TMP/moving.json" ||
  fail "the JSON report with energy does not follow the schema"
python3 - "$TMP/moving.json" <<'PY' || fail "JSON with a counter"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["environment"]["energy"]["cpu"].startswith("powercap RAPL"), d["environment"]["energy"]
r = d["results"][0]
assert r["energy_j"] > 0 and r["avg_w"] > 0 and r["j_per_gb"] > 0, r
PY

# A rate column gets its per-joule twin: options per joule are options per
# second times the seconds of a run over its joules.
(v=1000; while [ -d "$PC" ]; do
   v=$((v + 2000)); echo $v >"$PC/intel-rapl:0/energy_uj.new" &&
   mv "$PC/intel-rapl:0/energy_uj.new" "$PC/intel-rapl:0/energy_uj"; sleep 0.01; done) &
writer=$!
TWINBENCH_POWERCAP=$PC "$TB" run blackscholes --backend cpu --size 4096 --threads 1 --repeat 2 \
  $LIMIT --energy --format csv >"$TMP/bs.csv" 2>"$TMP/err" || fail "Black-Scholes: $(cat "$TMP/err")"
kill "$writer"
[ "$(csv_rows "$TMP/bs.csv" | wc -l)" -ge 1 ] || fail "no Black-Scholes rows"
csv_select "$TMP/bs.csv" options_per_j options_per_s median_ms energy_j |
  awk -F, '{ want = $2 * $3 * 1e-3 / $4
    if (!($1 > 0) || ($1 - want) ^ 2 > (1e-9 * want) ^ 2) { print; bad = 1 } } END { exit bad }' ||
  fail "options_per_j: $(csv_select "$TMP/bs.csv" options_per_j options_per_s median_ms energy_j)"

# The GPU, where there is one: with NVML (info says so) its rows have
# energy within physical bounds (a board draws between 10 W and 1.25 times
# its power limit over half a second; a device copy costs between 0.005 and
# 5 J per GB: the H200 measured 0.09), the CPU rows beside them none and no
# flag (no counter is not a short window), and the heading names the board's
# counter and the CPU's reason; without NVML, no energy column and the note.
if gpu_present; then
  TWINBENCH_POWERCAP=$TMP/none "$TB" run stream --backend cpu,gpu --size 2^24 --threads 2 \
    -P op=copy --repeat 5 $LIMIT --energy -o "$TMP/gpu.csv" >"$TMP/gpu.txt" 2>"$TMP/err" ||
    fail "GPU run: $(cat "$TMP/err")"
  if "$TB" info 2>&1 | grep -q "^  energy: NVML"; then
    limit=$("$TB" info 2>&1 | sed -n 's/^  energy: NVML.*power limit \([0-9.]*\) W.*/\1/p')
    csv_select "$TMP/gpu.csv" backend energy_j avg_w j_per_gb flags |
      awk -F, -v limit="${limit:-0}" '
        $1 == "gpu" && !($2 > 0 && $3 >= 10 && (limit == 0 || $3 <= 1.25 * limit) &&
                         $4 >= 0.005 && $4 <= 5) { print "gpu: " $0; bad = 1 }
        $1 == "cpu" && ($2 != "" || $5 ~ /energy-short/) { print "cpu: " $0; bad = 1 }
        END { exit bad }' || fail "GPU energy: $(csv_select "$TMP/gpu.csv" backend energy_j avg_w j_per_gb flags)"
    grep -q "gpu: NVML total energy" "$TMP/gpu.txt" && grep -q "cpu: not measured" "$TMP/gpu.txt" ||
      fail "the heading does not name the counters: $(cat "$TMP/gpu.txt")"
  else
    csv_header "$TMP/gpu.csv" | grep -q energy && fail "energy columns without NVML"
    grep -q "note: --energy: no backend .*gpu: not measured" "$TMP/err" ||
      fail "no note without NVML: $(cat "$TMP/err")"
  fi
fi
finish
