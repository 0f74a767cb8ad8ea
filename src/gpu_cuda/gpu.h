/* twinbench: what the GPU backend shows its twins and the stub (C and C++):
 * its configuration (a device), what an attached context holds, and the
 * block and grid tuning parameters its variants share. */
#ifndef TB_GPU_H
#define TB_GPU_H

#include <stdint.h>

#include "../common/algo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the GPU backend reports of its device. */
typedef struct tb_device_info {
  char name[256];
  char pci_bus[32];
  int cc_major, cc_minor;
  int sms;
  int warp_size;
  int max_threads_per_block;
  int max_threads_per_sm;
  int64_t global_mem;
  int64_t l2_bytes;
  int64_t shared_per_block;
  int64_t shared_per_sm;
  int clock_khz;
  int mem_clock_khz;
  int bus_width_bits;
  int driver_version;
  int runtime_version;
  char compiler[64]; /* the compiler that built the device code */
} tb_device_info_t;

/* A configuration of the GPU backend: one device. */
typedef struct tb_gpu_config {
  int device;
  tb_device_info_t dev;
} tb_gpu_config_t;

/* The first member of ctx->bstate while a context is attached. */
typedef struct tb_gpu_attached {
  void *stream; /* the cudaStream_t variants launch on */
} tb_gpu_attached_t;

/* The block sizes `--block sweep` tries. */
#define TB_GPU_BLOCK_SWEEP "32,64,128,256,512,1024"

/* The tuning parameters block and grid, for a variant's tuning table: the
 * default block size, and the grid's auto rule in words. */
#define TB_GPU_BLOCK(DEFAULT)                                                                    \
  {"block", "threads per block", TB_PARAM_INT, DEFAULT, 1, 1024, NULL, 0, TB_GPU_BLOCK_SWEEP}
#define TB_GPU_GRID(RULE)                                                                        \
  {"grid", "blocks launched; auto: " RULE, TB_PARAM_INT, "auto", 1, 2147483647.0, NULL,         \
   TB_PARAM_AUTO, NULL}

/* The tuning parameters common to the GPU variants, which the backend (and
 * the stub of a build without CUDA, so that the same options parse) gives
 * the command line. */
#define TB_GPU_BACKEND_TUNING                                                                    \
  {TB_GPU_BLOCK("256"), TB_GPU_GRID("the variant's rule (twinbench list ALGO)")}

/* The grid rule of the grid-stride kernels (tb_gpu_grid in cuda_util.h). */
#define TB_GPU_GRID_WAVES "one block per block-size work items, at most 32 waves of resident blocks"

#ifdef __cplusplus
}
#endif
#endif
