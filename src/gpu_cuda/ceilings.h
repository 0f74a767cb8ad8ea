/* twinbench: the GPU backend's measured ceilings (C and C++): what the
 * current device reaches on read-only, copy and triad traffic, and on FP32
 * and FP64 FMA throughput, each measured by the best of several ways. */
#ifndef TB_GPU_CEILINGS_H
#define TB_GPU_CEILINGS_H

#include "../common/algo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bytes of each buffer of a memory ceiling (three for the triad), at
 * most: halved while they would not fit in half the free memory. */
#define TB_GPU_CEILING_BYTES ((int64_t)1 << 30)

/* The ceiling of kind `kind` (tb_ceiling_kind_t in ../common/algo.h: TB_CEIL_READ,
 * TB_CEIL_COPY, TB_CEIL_TRIAD, TB_CEIL_FP32, TB_CEIL_FP64, TB_CEIL_GATHER) on the current
 * device: memory kinds in GB/s (10^9 bytes/s; the gather at 32 bytes a random read), compute
 * kinds in GFLOP/s (an FMA counts 2 flops).
 * *how (may be NULL) gets a short static text of how the winning measurement was taken
 * ("device-to-device copy", "copy kernel, 16-byte accesses, ..."). The caller has
 * selected the device (cudaSetDevice). Everything it allocates is freed before it
 * returns, on error too. Returns TB_OK, or a status with tb_fail's explanation. */
int tb_gpu_ceiling(int kind, double *value, const char **how);

#ifdef __cplusplus
}
#endif
#endif
