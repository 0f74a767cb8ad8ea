#!/bin/sh
# Install what twinbench needs to build on Debian or Ubuntu, only where it is
# missing (idempotent): autotools, make, gcc, pkg-config, hwloc, FFTW3, Open MPI, and
# python3 with matplotlib for 'twinbench report' (its test skips without it).
# The CUDA toolkit is optional and not installed here: configure finds nvcc
# on PATH or in /usr/local/cuda.
set -e
missing=
have_header() { echo "#include <$1>" | ${CC:-gcc} -E - >/dev/null 2>&1; }
for c in autoconf automake make gcc pkg-config; do
  command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
done
have_header hwloc.h || missing="$missing libhwloc-dev"
have_header fftw3.h || missing="$missing libfftw3-dev"
# Open MPI: optional for the build, but CI runs the MPI tests (tests/mpi.sh).
command -v mpicc >/dev/null 2>&1 || missing="$missing libopenmpi-dev"
command -v mpirun >/dev/null 2>&1 || missing="$missing openmpi-bin"
python3 -c 'import matplotlib' >/dev/null 2>&1 || missing="$missing python3-matplotlib"
[ -z "$missing" ] && exit 0
echo "install-deps: installing:$missing"
if [ "$(id -u)" -eq 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; else
  echo "install-deps: run as root or install:$missing" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing
