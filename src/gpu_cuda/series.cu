/* twinbench: the series of 1/i^2, CUDA twin.
 *
 * direct  each thread sums its terms of a grid-stride loop, the block adds
 *         its threads' sums (warp shuffles), and one block adds the blocks'
 *         partials: two launches. Compute-bound, like its CPU twin. */
#include <config.h>

#include <cuda_runtime.h>
#include <stdlib.h>

#include "../families/scan.h"
#include "cuda_util.h"

namespace {

/* Each block's partial sum of 1/i^2 over its threads' terms. */
template <typename T> __global__ void k_series_part(T *part, int64_t n)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  T s = T(0);
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x + 1; i <= n; i += stride) {
    const T x = (T)i;
    s += T(1) / (x * x);
  }
  s = tb_block_sum(s);
  if (threadIdx.x == 0)
    part[blockIdx.x] = s;
}

/* One block: the sum of the g partials. */
template <typename T> __global__ void k_series_total(const T *part, int g, T *out)
{
  T s = T(0);
  for (int k = threadIdx.x; k < g; k += blockDim.x)
    s += part[k];
  s = tb_block_sum(s);
  if (threadIdx.x == 0)
    *out = s;
}

struct tb_series_gpu {
  int grid;
  void *part;
};

template <typename T> int tb_series_plan(tb_ctx_t *ctx, tb_series_gpu *st)
{
  const int block = tb_gpu_block(ctx);
  if (block % 32)
    return tb_fail(TB_EUNSUP, "the block sum needs a multiple of 32 threads");
  int rc = tb_gpu_grid(ctx, k_series_part<T>, ctx->p->n, 0, TB_GPU_WAVES, &st->grid);
  if (rc)
    return rc;
  TB_CUDA(cudaMalloc(&st->part, (size_t)st->grid * sizeof(T)));
  /* A thread's terms, its block's tree, the partials a thread of the last
   * block adds, and that block's tree. */
  const int64_t threads = (int64_t)st->grid * block;
  ctx->extra[TB_SERIES_DEPTH] = (double)((ctx->p->n + threads - 1) / threads + tb_block_sum_depth +
                                         (st->grid + block - 1) / block + tb_block_sum_depth);
  return TB_OK;
}

int tb_series_prepare(tb_ctx_t *ctx)
{
  tb_series_gpu *st = (tb_series_gpu *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  return ctx->p->prec == TB_FLOAT ? tb_series_plan<float>(ctx, st) : tb_series_plan<double>(ctx, st);
}

template <typename T> int tb_series_run_t(tb_ctx_t *ctx)
{
  const tb_series_t *s = (const tb_series_t *)ctx->p->priv;
  const tb_series_gpu *st = (const tb_series_gpu *)ctx->state;
  cudaStream_t stream = tb_gpu_stream(ctx);
  const int block = tb_gpu_block(ctx);
  k_series_part<T><<<st->grid, block, 0, stream>>>((T *)st->part, ctx->p->n);
  TB_CUDA_LAUNCH("series partials");
  k_series_total<T><<<1, block, 0, stream>>>((const T *)st->part, st->grid, (T *)ctx->buf[s->sum]);
  TB_CUDA_LAUNCH("series total");
  return TB_OK;
}

int tb_series_run(tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? tb_series_run_t<float>(ctx) : tb_series_run_t<double>(ctx);
}

void tb_series_release(tb_ctx_t *ctx)
{
  tb_series_gpu *st = (tb_series_gpu *)ctx->state;
  if (st)
    cudaFree(st->part);
  free(st);
  ctx->state = NULL;
}

TB_VARIANT(tb_series_gpu_direct, "direct", &tb_algo_series,
           TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE), 0, tb_gpu_gridstride_tuning,
           TB_COUNT(tb_gpu_gridstride_tuning), tb_series_prepare, tb_series_run, NULL,
           tb_series_release, "grid-stride per-thread sums, block sums, one block over the partials");

} /* namespace */

TB_VARIANT_LIST(series, gpu, &tb_series_gpu_direct);
