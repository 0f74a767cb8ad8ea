#!/bin/sh
# The bridge's OpenMP twins through the command line: every variant, float
# and double, paths and increments, at awkward sizes, orders, dimensions and
# team sizes, every row verified; the user's files (times, order, normals,
# covariance) and the dump; (e) malformed files rejected with one clear line.
. "${srcdir:-.}/tests/lib.sh"

run() { "$TB" run bridge --backend cpu $LIMIT --repeat 1 --warmup 0 --format csv "$@"; }
verified() { expect_rows "$1" "$2"; expect_all_pass "$1"; } # verified FILE ROWS: all verified

run --precision float,double --size 1,33,4099 --threads 1,3 --mode paths,increments \
  --order bisection,random,sequential --dim 1,3 --steps 64,7 --seed 21 \
  >"$TMP/a.csv" 2>"$TMP/err" || fail "sweep: $(cat "$TMP/err")"
# 2 precisions x 3 sizes x 2 modes x 3 orders x 2 dims x 2 steps x 2 teams x 2 variants
verified "$TMP/a.csv" 576
s=$(csv_col "$TMP/a.csv" stack)
o=$(csv_col "$TMP/a.csv" order)
st=$(csv_col "$TMP/a.csv" steps)
[ "$(awk -F, -v s="$s" -v o="$o" -v n="$st" '$o == "bisection" && $n == 64 {print $s}' \
  "$TMP/a.csv" | sort -u)" = 6 ] || fail "bisection of 64 steps does not report a stack of 6"
[ "$(awk -F, -v s="$s" -v o="$o" '$o == "sequential" {print $s}' "$TMP/a.csv" | sort -u)" = 2 ] ||
  fail "the sequential order does not report a stack of 2"

# Tiles over the omp variant's 256 KiB staging buffer (2100 steps: 269 KB in
# float) are built in place in the output and their increments taken there;
# both variants agree to the bit on them.
run --precision float,double --size 70 --threads 2 --steps 2100 --order random \
  --mode paths,increments --seed 4 >"$TMP/u.csv" 2>"$TMP/err" || fail "long tiles: $(cat "$TMP/err")"
verified "$TMP/u.csv" 8
for var in omp path; do
  run --variant $var --size 40 --threads 2 --steps 2100 --order random --mode increments \
    --x0 0.5 --dump "$TMP/u.$var" >/dev/null 2>"$TMP/err" || fail "long tiles $var: $(cat "$TMP/err")"
done
cmp -s "$TMP/u.omp" "$TMP/u.path" || fail "the CPU variants' increments of long tiles differ"

# Every parameter from the user: times, order, Sigma (a file), t0, x0.
printf '0.3\n0.35\n0.5\n0.9\n1.2\n2\n2.25\n' >"$TMP/times"
printf '7\n3\n1\n2\n5\n4\n6\n' >"$TMP/order"
printf '2 0.5\n0.5 1\n' >"$TMP/sigma"
run --precision float,double --size 77 --threads 2 --mode paths,increments --steps 7 --dim 2 \
  --times "$TMP/times" --order "$TMP/order" --cov "$TMP/sigma" --t0 0.25 --x0 -1.5 \
  >"$TMP/f.csv" 2>"$TMP/err" || fail "files: $(cat "$TMP/err")"
verified "$TMP/f.csv" 8
run --size 77 --threads 2 --steps 7 --dim 2 --chol '1.5 0; 0.3 0.4' --order random \
  >"$TMP/c.csv" 2>"$TMP/err" || fail "chol: $(cat "$TMP/err")"
verified "$TMP/c.csv" 2

# Raw normals: 3 paths x 7 steps of known values (1, -0.5, 0.25, 2). With
# uniform times T - t0 = 1, so X_T = x0 + Z_0.
f1='\000\000\200\077' f2='\000\000\000\277' f3='\000\000\200\076' f4='\000\000\000\100'
for p in 0 1 2; do
  for i in 0 1 2 3 4 5 6; do
    case $(((p + i) % 4)) in 0) printf "$f1" ;; 1) printf "$f2" ;; 2) printf "$f3" ;; 3) printf "$f4" ;; esac
  done
done >"$TMP/z.f32"
[ "$(wc -c <"$TMP/z.f32")" -eq 84 ] || fail "the normals file has $(wc -c <"$TMP/z.f32") bytes"
for var in omp path; do
  run --variant $var --size 3 --threads 2 --steps 7 --x0 2 --normals "$TMP/z.f32" \
    --dump "$TMP/$var.dump" >"$TMP/n.csv" 2>"$TMP/err" || fail "normals $var: $(cat "$TMP/err")"
  verified "$TMP/n.csv" 1
  [ "$(wc -l <"$TMP/$var.dump")" -eq 4 ] || fail "$var dump: $(wc -l <"$TMP/$var.dump") lines, expected 4"
  [ "$(head -1 "$TMP/$var.dump")" = "path,t1,t2,t3,t4,t5,t6,t7" ] ||
    fail "$var dump header: $(head -1 "$TMP/$var.dump")"
  # Z_0 of path 0 is 1 and of path 1 is -0.5: X_T = 3 and 1.5.
  [ "$(sed -n 2p "$TMP/$var.dump" | cut -d, -f8)" = 3 ] && [ "$(sed -n 3p "$TMP/$var.dump" | cut -d, -f8)" = 1.5 ] ||
    fail "$var: X_T of the known normals: $(cut -d, -f8 "$TMP/$var.dump" | tr '\n' ' ')"
done
cmp -s "$TMP/omp.dump" "$TMP/path.dump" || fail "the two CPU variants differ on the same normals"
# Increments, dimension 2 (3 paths x 7 steps x 2 values is 21 pairs): the dump
# has d x N values a row, and the increments of the file's normals verify.
cat "$TMP/z.f32" "$TMP/z.f32" >"$TMP/z2.f32"
run --size 3 --threads 1 --steps 7 --dim 2 --mode increments --normals "$TMP/z2.f32" \
  --dump "$TMP/i.dump" >"$TMP/i.csv" 2>"$TMP/err" || fail "increments normals: $(cat "$TMP/err")"
verified "$TMP/i.csv" 2
[ "$(head -2 "$TMP/i.dump" | tail -1 | tr ',' '\n' | wc -l)" -eq 15 ] ||
  fail "increments dump of d = 2: $(head -2 "$TMP/i.dump" | tail -1)"

# (e) Malformed files: one line, naming the file and the line (or byte offset).
E="--backend cpu --size 3 --steps 7"
# bad NAME CONTENT OPTION PATTERN: the file NAME, holding CONTENT (a printf
# format), given to OPTION is refused with one line matching PATTERN.
bad() {
  printf "$2" >"$TMP/$1"
  expect_error 2 "$4" run bridge $E "$3" "$TMP/$1"
}
bad o.dup '7\n3\n3\n1\n2\n5\n4\n' --order "o.dup:3: index 3 appears twice (first at line 2)"
bad o.first '3\n7\n1\n2\n5\n4\n6\n' --order "o.first:1: the order starts with 3, not 7 (T is built first)"
bad o.range '7\n3\n9\n1\n2\n5\n4\n' --order "o.range:3: 9 is not a time index in 1..7"
bad o.word '7\n\n3\nx\n1\n2\n5\n4\n' --order "o.word:4: 'x' is not a finite number"
bad o.frac '7\n3\n1.5\n2\n5\n4\n6\n' --order "o.frac:3: 1.5 is not a time index"
bad o.two '7\n3 1\n2\n5\n4\n6\n' --order "o.two:2: 2 numbers, expected 1 (a time index)"
bad o.short '7\n3\n1\n' --order "o.short holds 3 time indices but steps is 7 (use --steps 3)"
bad t.flat '0.1\n0.2\n0.2\n0.4\n0.5\n0.6\n1\n' --times "t.flat:3: time 0.2.* is not after the previous time 0.2"
bad t.zero '0\n0.2\n0.3\n0.4\n0.5\n0.6\n1\n' --times "t.zero:1: time 0 is not after t0 = 0"
bad t.inf '0.1\n0.2\ninf\n' --times "t.inf:3: 'inf' is not a finite number"
bad t.short '0.1\n0.2\n' --times "t.short holds 2 times but steps is 7 (use --steps 2)"
expect_error 2 "cannot open the order file '$TMP/nosuch'" run bridge $E --order "$TMP/nosuch"
head -c 80 "$TMP/z.f32" >"$TMP/z.part"
expect_error 2 "z.part holds 80 bytes, not a whole number of paths of 7 steps x 1 dimensions of float (28 bytes each)" \
  run bridge $E --normals "$TMP/z.part"
expect_error 2 "z.f32 holds 3 paths .* but the size is 4 paths (use --size 3)" \
  run bridge --backend cpu --size 4 --steps 7 --normals "$TMP/z.f32"
head -c 112 "$TMP/z2.f32" >"$TMP/z.f64"
expect_error 2 "z.f64 holds 2 paths of 7 steps x 1 dimensions of double, but the size is 3" \
  run bridge $E --precision double --normals "$TMP/z.f64"
{ head -c 8 "$TMP/z.f32"; printf '\000\000\300\177'; tail -c 72 "$TMP/z.f32"; } >"$TMP/z.nan"
expect_error 2 "z.nan: byte offset 8 holds NaN, not a finite number" run bridge $E --normals "$TMP/z.nan"
expect_error 2 "cannot open the normals file '$TMP/nosuch'" run bridge $E --normals "$TMP/nosuch"
E="$E --dim 2"
bad s.indef '1 2\n2 1\n' --cov "s.indef is not positive definite (pivot 2"
bad s.asym '1 0.5\n0.4 1\n' --cov "s.asym: Sigma is not symmetric"
bad s.row '1 0.5\n0.5\n' --cov "s.row:2: 1 numbers, expected 2 (dim)"
expect_error 2 "cov '1 0; 0 1; 1 1' (not a file: read as rows separated by ';'): 3 rows but dim is 2" \
  run bridge $E --cov '1 0; 0 1; 1 1'
expect_error 2 "cov 'sigma.txt' (not a file: read as rows separated by ';'): row 1: 'sigma.txt' is not a finite number" \
  run bridge $E --cov sigma.txt
expect_error 2 "give cov (Sigma) or chol (C), not both" run bridge $E --cov 2 --chol 1
# The GPU variants' tuning parameters, where the build has those variants.
if "$TB" list bridge | grep -q "^ *prefetch "; then
  expect_error 2 "\-\-prefetch '3' is not a power of two" run bridge $E --prefetch 3
  expect_error 2 "\-\-width '3' is not a power of two" run bridge $E --width 3
fi
expect_error 2 "\-\-steps '0' must be at least 1" run bridge $E --steps 0
# Values beyond the precision are refused, not failed: a start near float's
# largest, increments over a step of 1e-39.
expect_error 2 "the paths may reach .* more than float holds" run bridge $E --x0 3e38
"$TB" run bridge --backend cpu --size 3 --steps 7 --precision double --x0 3e38 --threads 1 \
  --repeat 1 $LIMIT --format csv >"$TMP/big.csv" 2>"$TMP/err" || fail "x0 3e38 in double: $(cat "$TMP/err")"
printf '1e-39\n0.5\n1\n' >"$TMP/tiny"
expect_error 2 "the increments may reach .* more than float holds" run bridge --backend cpu \
  --size 3 --steps 3 --times "$TMP/tiny" --mode increments
finish
