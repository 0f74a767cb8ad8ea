/* twinbench: the empirical CDF's CUDA twins.
 *
 * count  as published: one launch per threshold, each a grid-stride count,
 *        a block sum and one atomic addition per block (100 launches);
 * hist   one pass: each sample's bin into the block's histogram in shared
 *        memory (atomics), the block's histogram added to the global one
 *        (atomics), and one small launch turns the bins into counts by a
 *        prefix sum. The counts (or bins) are zeroed inside each timed run. */
#include <config.h>

#include <cuda_runtime.h>
#include <stdlib.h>

#include "../families/scan.h"
#include "cuda_util.h"

namespace {

constexpr int tb_nbins = TB_CDF_THRESHOLDS + 1;

/* count: the samples below t, added to *count. */
template <typename T>
__global__ void k_cdf_count(const T *__restrict__ x, int64_t n, T t, unsigned long long *count)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  unsigned m = 0;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    m += x[i] < t;
  m = tb_block_sum(m);
  if (threadIdx.x == 0 && m)
    atomicAdd(count, (unsigned long long)m);
}

/* The thresholds in the kernels' precision. */
template <typename T> struct tb_cdf_thresholds {
  T t[TB_CDF_THRESHOLDS];
};

/* hist: each sample's bin (the number of thresholds at or below it: a guess
 * from their spacing, corrected by exact comparisons) into the block's
 * histogram, then the block's into bins[]. */
template <typename T>
__global__ void k_cdf_hist(const T *__restrict__ x, int64_t n, tb_cdf_thresholds<T> th,
                           unsigned long long *bins)
{
  __shared__ unsigned h[tb_nbins];
  for (int k = threadIdx.x; k < tb_nbins; k += blockDim.x)
    h[k] = 0;
  __syncthreads();
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const T v = x[i];
    const T g = v * (T)((TB_CDF_THRESHOLDS + 1.0) / TB_CDF_TERMS);
    int j = g <= T(0) ? 0 : g >= T(TB_CDF_THRESHOLDS) ? TB_CDF_THRESHOLDS : (int)g;
    while (j > 0 && v < th.t[j - 1])
      j--;
    while (j < TB_CDF_THRESHOLDS && !(v < th.t[j]))
      j++;
    atomicAdd(&h[j], 1u);
  }
  __syncthreads();
  for (int k = threadIdx.x; k < tb_nbins; k += blockDim.x)
    if (h[k])
      atomicAdd(&bins[k], (unsigned long long)h[k]);
}

/* One thread: counts[k] = bins[0] + ... + bins[k]. */
__global__ void k_cdf_prefix(const unsigned long long *bins, long long *counts)
{
  unsigned long long run = 0;
  for (int k = 0; k < TB_CDF_THRESHOLDS; k++) {
    run += bins[k];
    counts[k] = (long long)run;
  }
}

enum { TB_CG_COUNT, TB_CG_HIST };

struct tb_cdf_gpu {
  int kind, grid;
  unsigned long long *bins;
};

template <typename T> int tb_cdf_plan(tb_ctx_t *ctx, tb_cdf_gpu *st)
{
  const int block = tb_gpu_block(ctx);
  if (block % 32)
    return tb_fail(TB_EUNSUP, "the block sum needs a multiple of 32 threads");
  int rc = st->kind == TB_CG_COUNT ? tb_gpu_grid(ctx, k_cdf_count<T>, ctx->p->n, 0, TB_GPU_WAVES, &st->grid)
                                   : tb_gpu_grid(ctx, k_cdf_hist<T>, ctx->p->n, 0, TB_GPU_WAVES, &st->grid);
  if (rc)
    return rc;
  if (ctx->p->n / st->grid >= ((int64_t)1 << 31))
    return tb_fail(TB_EUNSUP, "a block would count past its 32-bit counters: more blocks, please");
  if (st->kind == TB_CG_HIST)
    TB_CUDA(cudaMalloc(&st->bins, tb_nbins * sizeof(unsigned long long)));
  ctx->extra[TB_CDF_LAUNCHES] = st->kind == TB_CG_COUNT ? TB_CDF_THRESHOLDS : 2;
  return TB_OK;
}

template <int KIND> int tb_cdf_prepare(tb_ctx_t *ctx)
{
  tb_cdf_gpu *st = (tb_cdf_gpu *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  st->kind = KIND;
  return ctx->p->prec == TB_FLOAT ? tb_cdf_plan<float>(ctx, st) : tb_cdf_plan<double>(ctx, st);
}

template <typename T> int tb_cdf_run_t(tb_ctx_t *ctx)
{
  const tb_cdf_t *c = (const tb_cdf_t *)ctx->p->priv;
  const tb_cdf_gpu *st = (const tb_cdf_gpu *)ctx->state;
  cudaStream_t stream = tb_gpu_stream(ctx);
  const T *x = (const T *)ctx->buf[c->x];
  long long *counts = (long long *)ctx->buf[c->counts];
  const int block = tb_gpu_block(ctx);
  const int64_t n = ctx->p->n;
  if (st->kind == TB_CG_COUNT) {
    TB_CUDA(cudaMemsetAsync(counts, 0, TB_CDF_THRESHOLDS * sizeof(long long), stream));
    for (int k = 0; k < TB_CDF_THRESHOLDS; k++) {
      k_cdf_count<T><<<st->grid, block, 0, stream>>>(x, n, (T)tb_cdf_threshold(k),
                                                     (unsigned long long *)counts + k);
      TB_CUDA_LAUNCH("cdf count");
    }
    return TB_OK;
  }
  tb_cdf_thresholds<T> th;
  for (int k = 0; k < TB_CDF_THRESHOLDS; k++)
    th.t[k] = (T)tb_cdf_threshold(k);
  TB_CUDA(cudaMemsetAsync(st->bins, 0, tb_nbins * sizeof(unsigned long long), stream));
  k_cdf_hist<T><<<st->grid, block, 0, stream>>>(x, n, th, st->bins);
  TB_CUDA_LAUNCH("cdf hist");
  k_cdf_prefix<<<1, 1, 0, stream>>>(st->bins, counts);
  TB_CUDA_LAUNCH("cdf prefix");
  return TB_OK;
}

int tb_cdf_run(tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? tb_cdf_run_t<float>(ctx) : tb_cdf_run_t<double>(ctx);
}

void tb_cdf_release(tb_ctx_t *ctx)
{
  tb_cdf_gpu *st = (tb_cdf_gpu *)ctx->state;
  if (st)
    cudaFree(st->bins);
  free(st);
  ctx->state = NULL;
}

const unsigned tb_cdf_precs = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE);

TB_VARIANT(tb_cdf_gpu_count, "count", &tb_algo_cdf, tb_cdf_precs, 0, tb_gpu_gridstride_tuning,
           TB_COUNT(tb_gpu_gridstride_tuning), tb_cdf_prepare<TB_CG_COUNT>, tb_cdf_run, NULL,
           tb_cdf_release, "one launch per threshold: grid-stride count, block sum, an atomic");
TB_VARIANT(tb_cdf_gpu_hist, "hist", &tb_algo_cdf, tb_cdf_precs, 0, tb_gpu_gridstride_tuning,
           TB_COUNT(tb_gpu_gridstride_tuning), tb_cdf_prepare<TB_CG_HIST>, tb_cdf_run, NULL,
           tb_cdf_release, "one pass: shared-memory histograms, atomics, a prefix over the bins");

} /* namespace */

TB_VARIANT_LIST(cdf, gpu, &tb_cdf_gpu_count, &tb_cdf_gpu_hist);
