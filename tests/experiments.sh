#!/bin/sh
# The study scripts' choice of program (experiments/lib.sh): ./twinbench from
# the build folder, $TB when set (a path, or a name in PATH), the installed
# program for the copy make install made, and a clear error without one.
. "${srcdir:-.}/tests/lib.sh"

build=$(pwd)
exp=$(cd "${srcdir:-.}/experiments" && pwd) || exit 99

# chosen DIR LIB [VAR=VALUE...]: what lib.sh LIB, sourced by bash (as the
# study scripts do) in DIR with TB unset and then the assignments made,
# takes as the program.
chosen() {
  dir=$1 lib=$2
  shift 2
  (unset TB; cd "$dir" && for a in "$@"; do export "$a"; done &&
    bash -c '. "$1" && echo "$TB"' chosen "$lib") 2>&1
}

[ "$(chosen "$build" "$exp/lib.sh")" = ./twinbench ] || fail "build folder: $(chosen "$build" "$exp/lib.sh")"
out=$(chosen "$TMP" "$exp/lib.sh")
[ $? -eq 1 ] || fail "no program: lib.sh went on with '$out'"
echo "$out" | grep -q "no twinbench at ./twinbench" || fail "no program: '$out'"
[ "$(chosen "$TMP" "$exp/lib.sh" "TB=$build/twinbench")" = "$build/twinbench" ] || fail "TB as a path"
[ "$(chosen "$TMP" "$exp/lib.sh" TB=twinbench "PATH=$build:$PATH")" = twinbench ] || fail "TB in PATH"

# make install rewrites the one tb_installed line to name the installed program.
[ "$(grep -c '^tb_installed=' "$exp/lib.sh")" -eq 1 ] || fail "lib.sh has no single tb_installed line"
sed "s|^tb_installed=.*|tb_installed='$build/twinbench'|" "$exp/lib.sh" >"$TMP/lib.sh"
cp "$exp/csv.sh" "$TMP/csv.sh" # installed beside it
[ "$(chosen "$TMP" "$TMP/lib.sh")" = "$build/twinbench" ] || fail "installed: $(chosen "$TMP" "$TMP/lib.sh")"
[ "$(chosen "$TMP" "$TMP/lib.sh" TB=/bin/true)" = /bin/true ] || fail "installed: TB does not win"
finish
