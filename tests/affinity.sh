#!/bin/sh
# Teams are placed inside the affinity mask the process was given (taskset):
# bound to its PUs only, several threads to a PU rather than spilled outside
# it; the thread ceiling counts its PUs; info and the JSON report say how
# many PUs it allows.
. "${srcdir:-.}/tests/lib.sh"

command -v taskset >/dev/null 2>&1 || { echo "no taskset"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "one PU: a mask cannot leave any out"; exit 77; }
# The first PU this process may use: a container need not hold PU 0.
pu=$(taskset -cp $$ | sed 's/.*: *//; s/[-,].*//')
taskset -c "$pu" true 2>/dev/null || { echo "taskset cannot set a mask here"; exit 77; }

masked() { taskset -c "$pu" "$TB" "$@"; }

masked run stream --backend cpu -t 2 --size 1000 -P op=copy --placement compact,scatter,cores \
  --repeat 1 --warmup 0 $LIMIT --format csv --output "$TMP/m.csv" 2>"$TMP/err" ||
  fail "masked run: $(cat "$TMP/err")"
got=$(csv_select "$TMP/m.csv" threads binding binding_ok | sort -u)
[ "$got" = "2,$pu $pu,oversubscribed" ] || fail "2 threads in a mask of PU $pu: '$got'"
grep -q "2 threads on 1 PUs of the affinity mask" "$TMP/err" || fail "no note: $(cat "$TMP/err")"

# The default team (one thread per core) and the words count the mask's cores and PUs.
masked run stream --backend cpu -t cores,pus,sweep --size 1000 -P op=copy --repeat 1 \
  --warmup 0 $LIMIT --format csv --output "$TMP/d.csv" 2>"$TMP/err" ||
  fail "masked run of the words: $(cat "$TMP/err")"
got=$(csv_select "$TMP/d.csv" threads binding binding_ok | sort -u)
[ "$got" = "1,$pu,yes" ] || fail "cores, pus and sweep in a mask of one PU: '$got'"

# The ceiling of 64 threads a PU counts the mask's PUs (expect_error runs $TB).
TB_SAVED=$TB
TB="$TMP/masked-tb"
printf '#!/bin/sh\nexec taskset -c %s "%s" "$@"\n' "$pu" "$TB_SAVED" >"$TB"
chmod +x "$TB"
expect_error 2 "\-\-threads 65 is more than 64 threads for each of the 1 PUs of the affinity mask" \
  run stream --backend cpu -t 1:65:64
TB=$TB_SAVED

# An OpenMP runtime that binds its threads (OMP_PROC_BIND) binds the first
# one to a single PU when it starts: that is no mask, and a team of two
# still gets two PUs; inside a mask it still stays there.
OMP_PROC_BIND=true "$TB" run stream --backend cpu -t 2 --size 1000 -P op=copy --repeat 1 \
  --warmup 0 $LIMIT --format csv --output "$TMP/b.csv" 2>"$TMP/err" ||
  fail "run with OMP_PROC_BIND: $(cat "$TMP/err")"
csv_select "$TMP/b.csv" binding binding_ok | grep -q '^\([0-9]*\) \([0-9]*\),yes$' &&
  ! csv_select "$TMP/b.csv" binding | grep -q '^\([0-9]*\) \1$' ||
  fail "OMP_PROC_BIND=true: $(csv_select "$TMP/b.csv" binding binding_ok)"
OMP_PROC_BIND=true masked run stream --backend cpu -t 2 --size 1000 -P op=copy --repeat 1 \
  --warmup 0 $LIMIT --format csv --output "$TMP/bm.csv" 2>"$TMP/err" ||
  fail "masked run with OMP_PROC_BIND: $(cat "$TMP/err")"
got=$(csv_select "$TMP/bm.csv" binding binding_ok)
[ "$got" = "$pu $pu,oversubscribed" ] || fail "OMP_PROC_BIND=true in a mask: '$got'"

masked info >"$TMP/info" 2>&1 || fail "masked info: $(cat "$TMP/info")"
grep -q "PUs: [0-9]* (1 allowed by the affinity mask: $pu)" "$TMP/info" ||
  fail "info does not show the mask: $(cat "$TMP/info")"
masked run stream --backend cpu -t 1 --size 1000 -P op=copy --repeat 1 --warmup 0 $LIMIT \
  --format json --output "$TMP/m.json" 2>"$TMP/err" || fail "masked JSON run: $(cat "$TMP/err")"
grep -q "\"affinity\": \"$pu\"" "$TMP/m.json" || fail "the JSON report lacks the mask"
grep -q '"allowed_pus": 1,' "$TMP/m.json" || fail "the JSON report lacks the mask's PUs"
finish
