/* twinbench: the CPU backend's measured ceilings (memory bandwidth by
 * read:write mix, FMA throughput by precision) for one bound team. */
#ifndef TB_CPU_CEILINGS_H
#define TB_CPU_CEILINGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ceiling of kind `kind` (tb_ceiling_kind_t from ../common/algo.h:
 * TB_CEIL_READ, TB_CEIL_COPY, TB_CEIL_TRIAD, TB_CEIL_FP32, TB_CEIL_FP64, TB_CEIL_GATHER) for a team of
 * `threads` OpenMP threads. The caller has already bound the team (the threads of an
 * `omp parallel num_threads(threads)` region land on their PUs); nothing is bound here.
 * Memory kinds use arrays of `elems` doubles each and give GB/s (10^9 bytes/s, STREAM-style
 * bytes: no write-allocate); the gather, random reads from a table of 2 elems int32, gives
 * GB/s at 32 bytes a read; compute kinds give GFLOP/s, an FMA counting 2 flops. *how (may
 * be NULL) gets a short static text of how the winning measurement was taken, e.g.
 * "non-temporal stores", "plain stores", "sum", "12 chains of 512-bit FMA". Returns TB_OK,
 * or an error through tb_fail: TB_EINVAL for a bad argument or a kernel whose result is
 * wrong, TB_ENOMEM when the arrays cannot be allocated. */
int tb_cpu_ceiling(int kind, int threads, int64_t elems, double *value, const char **how);

#ifdef __cplusplus
}
#endif
#endif
