/* twinbench: the Black-Scholes OpenMP twin's generic loops at 256-bit
 * vectors (`width=256`): the loops of blackscholes_loops.h compiled a
 * second time, with options_cpu.h told to prefer 256-bit vectors, for the
 * cores where 512-bit floating-point operations issue on one port and
 * 256-bit ones on two (doc/options.md, fifth pass). Built where GCC builds
 * AVX-512 only; elsewhere the build's own width is the only one. */
#include <config.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)
/* Before options_cpu.h: it sets the width for everything after it. */
#define TB_OPTIONS_CPU_W256 1
#include "options_cpu.h"

#define TB_BS_LOOPS_LINK
#define TB_BS_LOOPS_TAB(SFX) tb_bs_omp_w256_##SFX
#include "blackscholes_loops.h"
#endif
