/* twinbench: helpers for the CUDA twins (CUDA C++ only). */
#ifndef TB_CUDA_UTIL_H
#define TB_CUDA_UTIL_H

#include <cuda_runtime.h>
#include <limits.h>
#include <string.h>

#include "../common/algo.h"
#include "gpu.h"

/* What a CUDA twin reads of its context: the device, the stream, and its
 * block and grid tuning values (0 when it has none, or for grid auto). */
static inline const tb_device_info_t *tb_gpu_dev(const tb_ctx_t *ctx)
{
  return &((const tb_gpu_config_t *)ctx->cfg)->dev;
}

static inline cudaStream_t tb_gpu_stream(const tb_ctx_t *ctx)
{
  return (cudaStream_t)((const tb_gpu_attached_t *)ctx->bstate)->stream;
}

static inline int tb_gpu_block(const tb_ctx_t *ctx)
{
  const tb_param_value_t *b = tb_tune(ctx, "block");
  return b ? (int)b->i : 0;
}

static inline int tb_gpu_grid_asked(const tb_ctx_t *ctx)
{
  const tb_param_value_t *g = tb_tune(ctx, "grid");
  return g ? (int)g->i : 0;
}

/* The grid tb_gpu_grid chose in prepare, for the launches in run. */
static inline int tb_gpu_grid_chosen(const tb_ctx_t *ctx)
{
  for (int k = 0; k < ctx->v->ntuning; k++)
    if (!strcmp(ctx->v->tuning[k].name, "grid"))
      return (int)ctx->tuned[k];
  return 0;
}

/* Turn a CUDA error into a twinbench status with a one-line explanation.
 * A missing device or driver is TB_ENODEV, so tests can skip. */
static inline int tb_cuda_status(cudaError_t e, const char *what, const char *file, int line)
{
  int st = (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) ? TB_ENODEV
           : e == cudaErrorMemoryAllocation                              ? TB_ENOMEM
                                                                         : TB_EDEVICE;
  return tb_fail(st, "%s: %s (%s) at %s:%d", what, cudaGetErrorString(e), cudaGetErrorName(e),
                 file, line);
}

/* A copy between the host and the device in the twin's stream, waited for.
 * A plain cudaMemcpy runs in the legacy default stream, which the twins'
 * non-blocking stream does not wait on, and from pageable memory it may
 * return before the bytes land: a kernel or copy queued next in the
 * twin's stream could read the old ones (mpi_gpu.sh caught the SOR
 * gather's err_max reading a half-written grid that way). */
static inline cudaError_t tb_gpu_copy(const tb_ctx_t *ctx, void *dst, const void *src,
                                      size_t bytes, cudaMemcpyKind kind)
{
  cudaStream_t s = tb_gpu_stream(ctx);
  cudaError_t e = cudaMemcpyAsync(dst, src, bytes, kind, s);
  return e != cudaSuccess ? e : cudaStreamSynchronize(s);
}

/* Check a CUDA call; on failure return its status from the enclosing function. */
#define TB_CUDA(call)                                                                           \
  do {                                                                                          \
    cudaError_t tb_e_ = (call);                                                                 \
    if (tb_e_ != cudaSuccess)                                                                   \
      return tb_cuda_status(tb_e_, #call, __FILE__, __LINE__);                                  \
  } while (0)

/* Check the launch just made. */
#define TB_CUDA_LAUNCH(name) TB_CUDA(cudaPeekAtLastError())

/* The tuning parameters of the grid-stride variants (tb_gpu_grid's rule). */
static const tb_param_def_t tb_gpu_gridstride_tuning[] = {
    TB_GPU_BLOCK("256"),
    TB_GPU_GRID(TB_GPU_GRID_WAVES),
};

/* Whether kernel can run blocks of tb_gpu_block(ctx) threads (its registers and
 * shared memory set the most it takes): TB_EUNSUP with the reason if not, so
 * the runner notes and skips the configuration. With fa, the kernel's
 * attributes; with per_sm, its resident blocks per SM at that block size. */
template <typename K>
static int tb_gpu_fit(const tb_ctx_t *ctx, K kernel, size_t smem, cudaFuncAttributes *fa,
                      int *per_sm)
{
  cudaFuncAttributes a;
  const int block = tb_gpu_block(ctx);
  TB_CUDA(cudaFuncGetAttributes(&a, kernel));
  if (block < 1 || block > a.maxThreadsPerBlock)
    return tb_fail(TB_EUNSUP, "block %d is outside 1..%d for this kernel", block,
                   a.maxThreadsPerBlock);
  if (per_sm)
    TB_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, kernel, block, smem));
  if (fa)
    *fa = a;
  return TB_OK;
}

/* The most dynamic shared memory a block of the context's device may have
 * on request (opt-in), bytes, into *optin. */
static inline int tb_gpu_smem_optin(const tb_ctx_t *ctx, int *optin)
{
  TB_CUDA(cudaDeviceGetAttribute(optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                 ((const tb_gpu_config_t *)ctx->cfg)->device));
  return TB_OK;
}

/* Whether kernel runs blocks of the tuning's size with smem bytes of dynamic
 * shared memory, which `what` needs: TB_EUNSUP with the reason where the
 * device allows a block less, the kernel cannot take the block, or no such
 * block fits on an SM; above the default 48 KiB the kernel's limit is raised
 * to smem (opt-in) first. With per_sm, the resident blocks per SM. */
template <typename K>
static int tb_gpu_fit_smem(const tb_ctx_t *ctx, K kernel, size_t smem, const char *what,
                           int *per_sm)
{
  int optin = 0, fits = 0, rc;
  if ((rc = tb_gpu_smem_optin(ctx, &optin)))
    return rc;
  if (smem > (size_t)optin)
    return tb_fail(TB_EUNSUP, "%s needs %zu bytes of shared memory a block, the device gives at "
                   "most %d", what, smem, optin);
  if (smem > 48 * 1024)
    TB_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  if ((rc = tb_gpu_fit(ctx, kernel, smem, NULL, &fits)))
    return rc;
  if (fits < 1)
    return tb_fail(TB_EUNSUP, "%s: no block of %d threads with %zu bytes of shared memory fits "
                   "on an SM", what, tb_gpu_block(ctx), smem);
  if (per_sm)
    *per_sm = fits;
  return TB_OK;
}

/* The launch grid of a grid-stride kernel (the rule TB_GPU_GRID_WAVES): the
 * requested grid, or, for auto, one block per `block` work items up to
 * `waves` full waves of resident blocks (occupancy x SMs x waves; 0: no cap,
 * every thread one work item, as far as the grid limit allows). Measured on
 * an H200 (STREAM triad, 2^26 doubles): a single full wave looping over the
 * array reached 0.95 of a device copy, 32 waves 1.00; at 2^28 (H200, this
 * session's run) a thread per vector reached 4422 GB/s in double against
 * 4236 at 32 waves. So many blocks with short loops is the default
 * (TB_GPU_WAVES), and STREAM's elementwise kernels take no cap. Records the
 * grid for the row. Block sizes the kernel cannot take are TB_EUNSUP. */
static const int TB_GPU_WAVES = 32;

template <typename K>
static int tb_gpu_grid(tb_ctx_t *ctx, K kernel, int64_t work, size_t smem, int waves, int *grid)
{
  int per_sm = 0;
  const int asked = tb_gpu_grid_asked(ctx), block = tb_gpu_block(ctx);
  int rc = tb_gpu_fit(ctx, kernel, smem, NULL, asked > 0 ? NULL : &per_sm);
  if (rc)
    return rc;
  if (asked > 0) {
    *grid = asked;
  } else {
    int64_t g = waves > 0 ? (int64_t)waves * (per_sm > 0 ? per_sm : 1) * tb_gpu_dev(ctx)->sms
                          : (int64_t)INT_MAX;
    int64_t need = (work + block - 1) / block;
    if (need < g)
      g = need > 0 ? need : 1;
    *grid = (int)g;
  }
  tb_tune_resolved(ctx, "grid", *grid);
  return TB_OK;
}

/* The CUDA vector type of E adjacent values of T, one access of at most 16
 * bytes (tb_cuvec<float, 4>::type is float4), and the 16-byte vector of T
 * with its width: the twins' vector loads and stores all use these. */
template <typename T, int E> struct tb_cuvec;
template <> struct tb_cuvec<int, 4> { typedef int4 type; };
template <> struct tb_cuvec<float, 1> { typedef float type; };
template <> struct tb_cuvec<float, 2> { typedef float2 type; };
template <> struct tb_cuvec<float, 4> { typedef float4 type; };
template <> struct tb_cuvec<double, 1> { typedef double type; };
template <> struct tb_cuvec<double, 2> { typedef double2 type; };

template <typename T> __host__ __device__ constexpr int tb_width16()
{
  return 16 / (int)sizeof(T);
}
template <typename T> using tb_vec16_t = typename tb_cuvec<T, tb_width16<T>()>::type;

/* Sum over a warp; every lane of the warp must take part. */
template <typename T> __device__ __forceinline__ T tb_warp_sum(T v)
{
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

/* The additions tb_block_sum puts between a thread's value and the block's
 * sum: 5 shuffle levels within the warps, 5 across them. */
constexpr int tb_block_sum_depth = 10;

/* Sum over a block whose size is a multiple of 32; the total is valid in thread 0. */
template <typename T> __device__ __forceinline__ T tb_block_sum(T v)
{
  __shared__ T warp_part[32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  v = tb_warp_sum(v);
  if (lane == 0)
    warp_part[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = lane < (int)(blockDim.x >> 5) ? warp_part[lane] : T(0);
    v = tb_warp_sum(v);
  }
  return v;
}

#endif
