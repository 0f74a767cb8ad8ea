#!/bin/sh
# twinbench experiment: a study runs into both results files, a re-run
# makes nothing again, a study killed mid-way resumes and ends with every
# row exactly once, a signal stops a long row between its runs, --force makes the rows again, a GPU line on a machine
# without a GPU is skipped with a note, and a bad file, option or results
# folder is one line, a non-zero exit and nothing written.
. "${srcdir:-.}/tests/lib.sh"

cd "$TMP" || exit 99
TB=$(cd "$OLDPWD" && cd "$(dirname "$TB")" && pwd)/$(basename "$TB")
schema=$(cd "$OLDPWD" && cd "${srcdir:-.}" && pwd)/doc/experiment.schema.json
check_json=$(cd "$OLDPWD" && cd "${srcdir:-.}" && pwd)/tests/check_json.py
py() { command -v python3 >/dev/null 2>&1; }

# rows CSV: the result rows of a results file; keys CSV: their run and key
# fields, one line each (keys hold no comma: the CSV leaves them unquoted).
rows() { tail -n +2 "$1" | wc -l; }
keys() { tail -n +2 "$1" | cut -d, -f3,5; }
json_ok() { ! py || python3 "$check_json" "$schema" "$1" >/dev/null || fail "$1: $(python3 "$check_json" "$schema" "$1")"; }

cat >small.tb <<EOF
# A small study: two sizes over the machine's thread list, and a reduction.
study small
SIZES = 2^10,2^11   # a trailing comment
CPU = -b cpu --ceiling-size 256K -r 2 -w 1
run copy: stream \$CPU -n \$SIZES -t \${THREADS} --op copy,triad
run sum: reduce \$CPU -n \$((2^10 * 3)) -t 1 -v serial,simd
EOF
M=--machine=box
out=results/small/box
"$TB" experiment small.tb $M --dry-run >dry.txt 2>dry.err || fail "dry run: $(cat dry.err)"
[ ! -e results ] || fail "--dry-run wrote results"
total=$(sed -n 's/.*# \([0-9]*\) rows.*/\1/p' dry.txt | awk '{ s += $1 } END { print s + 0 }')
[ "$total" -gt 4 ] || fail "dry run: $total rows: $(cat dry.txt)"
grep -q '^sum: twinbench run reduce -b cpu --ceiling-size 256K -r 2 -w 1 -n 3072 -t 1 -v serial,simd' dry.txt ||
  fail "dry run: the line is not expanded: $(cat dry.txt)"

"$TB" experiment small.tb $M 2>err.txt || fail "first run: $(cat err.txt)"
[ -f $out.csv ] && [ -f $out.json ] || fail "no results files: $(ls -R results)"
[ "$(rows $out.csv)" -eq "$total" ] || fail "first run: $(rows $out.csv) rows, expected $total"
head -1 $out.csv | grep -q '^study,machine,run,hash,key,algo,variant,backend,precision,size,' ||
  fail "CSV header: $(head -1 $out.csv)"
[ "$(keys $out.csv | sort -u | wc -l)" -eq "$total" ] || fail "first run: keys repeat"
grep -q "rows, .* left\] copy:" err.txt || fail "no progress line: $(cat err.txt)"
json_ok $out.json

# A re-run makes nothing: the files stay byte for byte.
cp $out.csv before.csv
cp $out.json before.json
sleep 1
"$TB" experiment small.tb $M 2>err.txt || fail "re-run: $(cat err.txt)"
cmp -s before.csv $out.csv || fail "re-run changed the CSV"
cmp -s before.json $out.json || fail "re-run changed the JSON"
grep -q ": 0 rows made, $total of $total recorded" err.txt || fail "re-run: $(cat err.txt)"

# --only and --force: the named line's rows are made again, in place.
"$TB" experiment small.tb $M --force --only sum 2>err.txt || fail "--force: $(cat err.txt)"
[ "$(rows $out.csv)" -eq "$total" ] || fail "--force: $(rows $out.csv) rows, expected $total"
changed=$(diff before.csv $out.csv | grep -c '^>')
[ "$changed" -eq 2 ] || fail "--force --only sum changed $changed rows, expected 2"
grep -q '"session": 2' $out.json || fail "--force: no second session in the JSON"
json_ok $out.json

# An edited run line's old rows are not taken as its new ones.
sed 's/-v serial,simd/-v serial/' small.tb >edited.tb
"$TB" experiment edited.tb $M 2>err.txt || fail "edited: $(cat err.txt)"
grep -q "run sum has changed since its 2 recorded rows" err.txt || fail "edited: $(cat err.txt)"
[ "$(grep -c ',sum,' $out.csv)" -eq 1 ] || fail "edited: $(grep -c ',sum,' $out.csv) sum rows, expected 1"

# Killed mid-way (SIGKILL, then SIGTERM), a study resumes and ends with
# every row exactly once.
cat >long.tb <<EOF
study long
run copy: stream -b cpu --ceiling-size 256K -n 2^10,2^11,2^12 -t 1 --min-time 0.03 -w 0
EOF
"$TB" experiment long.tb $M --dry-run >dry.txt 2>&1 || fail "long dry run: $(cat dry.txt)"
ltotal=$(sed -n 's/.*# \([0-9]*\) rows.*/\1/p' dry.txt)
lout=results/long/box
for sig in KILL TERM; do
  rm -rf results/long
  "$TB" experiment long.tb $M 2>kill.err &
  pid=$!
  n=0
  while [ "$(cat $lout.csv 2>/dev/null | wc -l)" -lt 3 ] && [ $n -lt 300 ]; do
    sleep 0.1
    n=$((n + 1))
  done
  kill -$sig $pid
  wait $pid
  rc=$?
  [ $sig = KILL ] || [ $rc -eq 130 ] || fail "SIGTERM: exit $rc, expected 130: $(cat kill.err)"
  done=$(rows $lout.csv)
  [ "$done" -ge 2 ] && [ "$done" -lt "$ltotal" ] || fail "SIG$sig: $done of $ltotal rows when killed"
  json_ok $lout.json
  cp $lout.csv killed.csv
  "$TB" experiment long.tb $M 2>err.txt || fail "resume after SIG$sig: $(cat err.txt)"
  [ "$(rows $lout.csv)" -eq "$ltotal" ] || fail "SIG$sig: $(rows $lout.csv) rows after resuming, expected $ltotal"
  [ "$(keys $lout.csv | sort -u | wc -l)" -eq "$ltotal" ] || fail "SIG$sig: a row is there twice"
  # The rows made before the kill are kept as they were, not made again.
  tail -n +2 killed.csv | while IFS= read -r line; do
    grep -qxF "$line" $lout.csv || { echo x; break; }
  done | grep -q x && fail "SIG$sig: a row made before the kill was made again"
  grep -q ": $((ltotal - done)) rows made" err.txt || fail "SIG$sig resume: $(cat err.txt)"
  json_ok $lout.json
done

# A signal stops a row in progress between its runs, not after all of
# them: a row of a minute of runs (--min-time 60) ends within seconds of
# SIGTERM, exit 130, the row not recorded.
cat >slow.tb <<EOF
study slow
run slow: stream -b cpu --ceiling-size 256K -n 2^20 -t 1 --op copy --min-time 60 -w 0
EOF
"$TB" experiment slow.tb $M 2>slow.err &
pid=$!
sleep 3
stop_within TERM $pid 10
[ $rc -eq 130 ] || fail "slow row, SIGTERM: exit $rc, expected 130: $(cat slow.err)"
[ ! -f results/slow/box.csv ] || [ "$(rows results/slow/box.csv)" -eq 0 ] ||
  fail "slow row: a cut row was recorded"

# Killed between the two renames: a row in the JSON only is made again.
head -n -1 $lout.csv >cut.csv && cat cut.csv >$lout.csv
"$TB" experiment long.tb $M 2>err.txt || fail "one row missing: $(cat err.txt)"
grep -q "1 row in only one of the results files" err.txt || fail "one row missing: $(cat err.txt)"
grep -q ": 1 row made" err.txt || fail "one row missing: $(cat err.txt)"
[ "$(keys $lout.csv | sort -u | wc -l)" -eq "$ltotal" ] || fail "one row missing: not made again"
json_ok $lout.json

# A results file that is not the experiment's is left alone.
printf 'a,b\n1,2\n' >$lout.csv
expect_error 2 "no experiment results file" experiment long.tb $M
[ "$(cat $lout.csv)" = "$(printf 'a,b\n1,2')" ] || fail "a foreign CSV was written over"

# A GPU line on a machine without a GPU: skipped with a note, exit 0.
if ! gpu_present; then
  cat >gpu.tb <<EOF
study gpu
run cpu: stream -b cpu --ceiling-size 256K -n 2^10 -t 1 --op copy -r 2 -w 1
run gpu: bridge -b gpu -n 2^10 --prefetch 16 --width 1
EOF
  "$TB" experiment gpu.tb $M 2>err.txt || fail "GPU line without a GPU: $(cat err.txt)"
  grep -q "note: run gpu skipped: the gpu backend is not available" err.txt || fail "no note: $(cat err.txt)"
  [ "$(rows results/gpu/box.csv)" -eq 1 ] || fail "GPU study: $(rows results/gpu/box.csv) rows"
fi

# Bad files and options: one line, exit 2, nothing written.
bad() {
  want_msg=$1
  printf '%b' "$2" >bad.tb
  shift 2
  rm -rf results
  expect_error 2 "$want_msg" experiment bad.tb --results results "$@"
  [ ! -e results ] || fail "bad file ($want_msg) wrote results"
}
bad 'bad.tb:3: unknown variable .NOPE.' 'study b\n# x\nrun a: stream -n $NOPE\n'
bad 'bad.tb:2: run a: .*bogus' 'study b\nrun a: stream --bogus 1\n'
bad "bad.tb:2: expected 'run NAME: ALGO OPTIONS'" 'study b\nrun a stream\n'
bad 'bad.tb:2: expected .study NAME.' 'study b\nthis is nothing\n'
bad 'bad.tb:3: a second run line called .a.' 'study b\nrun a: stream\nrun a: stream\n'
bad 'bad.tb:2: run a: a run line takes no report options' 'study b\nrun a: stream --output x.csv\n'
bad "bad.tb: no 'study NAME' line" 'run a: stream\n'
bad 'bad.tb:1: bad arithmetic' 'X = $((2 +))\nstudy b\nrun a: stream\n'
bad 'bad.tb:2: variable .THREADS. is already set' 'study b\nTHREADS = 1\nrun a: stream\n'
bad 'bad.tb:2: run a: unknown algorithm' 'study b\nrun a: nosuch\n'
bad "no run line called 'z'" 'study b\nrun a: stream\n' --only z
expect_error 2 'missing.tb' experiment missing.tb
[ ! -e results ] || fail "a missing file wrote results"
printf 'study b\nrun a: stream -b cpu -n 2^10 -t 1\n' >ok.tb
: >notadir
expect_error 2 "cannot .* results folder 'notadir/b'" experiment ok.tb --results notadir
expect_error 2 'machine name' experiment ok.tb --machine ../x
# A name of more than 64 characters is refused, not cut.
expect_error 2 "machine name 'm.*': 1 to 64 letters" experiment ok.tb \
  --machine "$(printf 'm%.0s' $(seq 65))"
expect_error 2 'takes one experiment file' experiment

# A configuration a variant refuses here (the scan's lag without the
# look-back) is no row to wait for: 3 of 3 recorded, and the refusal counted,
# on the first run and on the re-run that makes nothing.
rm -rf results
printf 'study refu\nrun a: scan -b cpu -n 2^12 -v twopass --sync barrier,lookback --lag 0,1 -t 1 -r 1 -w 0 %s\n' \
  "$LIMIT" >refu.tb
for k in 1 2; do
  "$TB" experiment refu.tb $M >refu.out 2>&1 || fail "refused configuration, run $k: $(cat refu.out)"
  grep -q "refu: $((k == 1 ? 3 : 0)) rows made, 3 of 3 recorded in .*(1 configuration refused here" \
    refu.out || fail "refused configuration, run $k: $(tail -1 refu.out)"
done

# A size given twice (or auto resolving to a size given too) is one problem:
# measured once and counted once.
printf 'study dup\nrun a: stream -b cpu -n 2^10,2^12,2^10 -t 1 -r 1 -w 0 %s\n' "$LIMIT" >dup.tb
"$TB" experiment dup.tb --dry-run $M | grep -q "# 10 rows, 0 recorded" ||
  fail "a repeated size counted twice: $("$TB" experiment dup.tb --dry-run $M 2>&1 | tail -1)"
"$TB" experiment dup.tb $M >dup.out 2>&1 && grep -q "dup: 10 rows made, 10 of 10 recorded" dup.out &&
  grep -q "size 1024 here is a size given before it: measured once" dup.out ||
  fail "a repeated size: $(cat dup.out)"
finish
