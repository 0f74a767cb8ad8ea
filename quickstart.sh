#!/bin/sh
# twinbench quick start: install what is missing, build, and run the main job,
# a STREAM CPU-vs-GPU comparison with a thread sweep (the CPU part alone when
# there is no GPU). Extra arguments go to 'twinbench run'.
set -e
cd "$(dirname "$0")"
sh tools/install-deps.sh
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc)"
./twinbench run stream --backend cpu,gpu --threads sweep "$@"
