/* twinbench: the prefix sum's CUDA twins.
 *
 * hillis    pointer jumping as published (Hillis and Steele 1986): ceil(log2 n)
 *           launches, each y'_i = y_i + y_{i-d} for d = 1, 2, 4, ..., between
 *           y and a second buffer (double buffering: no launch reads what it
 *           writes); O(n log n) work, 2 n log n elements of traffic;
 * rts       reduce-then-scan in three launches: each tile's total, one block's
 *           scan of the totals, each tile's scan from its offset (x read twice);
 * lookback  a single pass with decoupled look-back (Merrill and Garland 2016):
 *           each block takes the next tile number from a counter (or its
 *           block index, tuning order), scans its
 *           tile, publishes the tile's aggregate, looks back for its prefix and
 *           publishes its inclusive prefix; x read once, y written once;
 * cub       cub::DeviceScan::InclusiveSum / ExclusiveSum, the vendor baseline.
 * rts and lookback hold `items` consecutive elements a thread (tile = block x
 * items), loaded and stored coalesced through shared memory (scan.cuh);
 * lookback's tuning also picks element-wide or 16-byte accesses, in global
 * memory or in global and shared memory (access), the look-back's sleeps
 * between polls (backoff) and before the first (lookdelay), and the tile
 * order (tileorder). */
#include <config.h>

#include <climits>
#include <cmath>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>
#include <stdlib.h>

#include "../common/refmath.h"
#include "../families/scan.h"
#include "cuda_util.h"
#include "scan.cuh"

namespace {

using namespace tb_scan_dev;

/* ---- Kernels ------------------------------------------------------------ */

/* One step of pointer jumping: dst_i = src_i + src_{i-d} (src_{i-d} = 0 below
 * d). The first step reads x itself, shifted one place for an exclusive
 * scan (so that the inclusive scan of the shifted x is the exclusive one). */
template <typename T>
__global__ void k_hillis(const T *__restrict__ src, T *__restrict__ dst, int64_t n, int64_t d,
                         int shift)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const T a = i >= shift ? src[i - shift] : T(0);
    const T b = i >= d + shift ? src[i - d - shift] : T(0);
    dst[i] = a + b;
  }
}

/* rts, launch 1: the total of each tile into sums[tile] (a thread's
 * warp-striped elements, then the block sum). */
template <typename T, int IPT>
__global__ void k_rts_reduce(const T *__restrict__ in, T *__restrict__ sums, int64_t n)
{
  const int64_t base = (int64_t)blockIdx.x * blockDim.x * IPT;
  T t = T(0);
#pragma unroll
  for (int k = 0; k < IPT; k++) {
    const int64_t g = base + (int64_t)k * blockDim.x + threadIdx.x;
    if (g < n)
      t += in[g];
  }
  t = tb_block_sum(t);
  if (threadIdx.x == 0)
    sums[blockIdx.x] = t;
}

/* rts, launch 2: one block turns sums[0 .. tiles) into their exclusive
 * prefixes, tile by tile with a carry. */
template <typename T, int IPT> __global__ void k_rts_spine(T *sums, int64_t tiles)
{
  const int64_t per = (int64_t)blockDim.x * IPT;
  T carry = T(0);
  for (int64_t base = 0; base < tiles; base += per) {
    T v[IPT], agg;
    load_tile<T, IPT>(sums, base, tiles, v);
    finish<T, IPT>(v, carry + block_scan<T, IPT>(v, &agg, slots<T, IPT>()), 1);
    store_tile<T, IPT>(sums, base, tiles, v);
    carry += agg;
    __syncthreads();
  }
}

/* rts, launch 3: each tile scanned from its offset sums[tile]. */
template <typename T, int IPT>
__global__ void k_rts_scan(const T *__restrict__ in, T *__restrict__ out, const T *sums,
                           int64_t n, int excl)
{
  const int64_t base = (int64_t)blockIdx.x * blockDim.x * IPT;
  T v[IPT], agg;
  load_tile<T, IPT>(in, base, n, v);
  const T local = block_scan<T, IPT>(v, &agg, slots<T, IPT>());
  finish<T, IPT>(v, sums[blockIdx.x] + local, excl);
  store_tile<T, IPT>(out, base, n, v);
}

/* ---- Plans -------------------------------------------------------------- */

enum { TB_SG_HILLIS, TB_SG_RTS, TB_SG_LOOKBACK, TB_SG_CUB };

/* The items a thread may hold (the tuning parameter items), as template instances. */
const int tb_scan_ipts[] = {4, 8, 12, 16, 24};

struct tb_scan_gpu {
  int kind, ipt_index, grid, steps;
  int acc;           /* lookback: the accesses (ACC_*) */
  tile_opts opts;    /* lookback: the sleeps (ns) and the tile order */
  int64_t tiles;
  void *tmp; /* hillis: the second buffer; rts: the tile sums; lookback: counter and states */
  void *cub_tmp;
  size_t cub_bytes, clear_bytes;
  bool cub_wide;
};

/* The kernels of one element type and items per thread, by ipt index. */
template <typename T> struct tb_scan_fns {
  const void *reduce, *spine, *scan, *lookback[3]; /* lookback: by access (ACC_*) */
};

template <typename T, int IPT> constexpr tb_scan_fns<T> tb_scan_fns_of()
{
  return {(const void *)k_rts_reduce<T, IPT>, (const void *)k_rts_spine<T, IPT>,
          (const void *)k_rts_scan<T, IPT>,
          {(const void *)k_lookback<T, IPT, ACC_SCALAR>, (const void *)k_lookback<T, IPT, ACC_VEC16>,
           (const void *)k_lookback<T, IPT, ACC_WIDE>}};
}

template <typename T> const tb_scan_fns<T> tb_scan_table[] = {
    tb_scan_fns_of<T, 4>(), tb_scan_fns_of<T, 8>(), tb_scan_fns_of<T, 12>(),
    tb_scan_fns_of<T, 16>(), tb_scan_fns_of<T, 24>()};

/* items auto: 16 for 4-byte elements, 8 for 8-byte (64 bytes a thread). */
template <typename T> int tb_scan_ipt_index(tb_ctx_t *ctx)
{
  const tb_param_value_t *it = tb_tune(ctx, "items");
  int want = it && it->i > 0 ? (int)it->i : sizeof(T) == 4 ? 16 : 8;
  for (int k = 0; k < TB_COUNT(tb_scan_ipts); k++)
    if (tb_scan_ipts[k] == want) {
      tb_tune_resolved(ctx, "items", want);
      return k;
    }
  tb_fail(TB_EUNSUP, "items %d is not one of 4, 8, 12, 16, 24", want);
  return -1;
}

template <typename T> int tb_scan_plan(tb_ctx_t *ctx, tb_scan_gpu *st)
{
  const tb_scan_t *s = (const tb_scan_t *)ctx->p->priv;
  const int64_t n = ctx->p->n;
  const int block = tb_gpu_block(ctx);
  const size_t e = sizeof(T);
  if (st->kind == TB_SG_CUB) {
    const T *x = (const T *)ctx->buf[s->x];
    T *y = (T *)ctx->buf[s->y];
    st->cub_wide = n > INT_MAX;
    if (s->kind == TB_SCAN_INCLUSIVE)
      TB_CUDA(st->cub_wide ? cub::DeviceScan::InclusiveSum(nullptr, st->cub_bytes, x, y, n)
                           : cub::DeviceScan::InclusiveSum(nullptr, st->cub_bytes, x, y, (int)n));
    else
      TB_CUDA(st->cub_wide ? cub::DeviceScan::ExclusiveSum(nullptr, st->cub_bytes, x, y, n)
                           : cub::DeviceScan::ExclusiveSum(nullptr, st->cub_bytes, x, y, (int)n));
    TB_CUDA(cudaMalloc(&st->cub_tmp, st->cub_bytes ? st->cub_bytes : 1));
    /* CUB does not document its order: only the bound for any order holds. */
    ctx->extra[TB_SCAN_DEPTH] = (double)n;
    ctx->extra[TB_SCAN_LAUNCHES] = NAN;
    return TB_OK;
  }
  if (st->kind == TB_SG_HILLIS) {
    int rc = tb_gpu_grid(ctx, k_hillis<T>, n, 0, TB_GPU_WAVES, &st->grid);
    if (rc)
      return rc;
    st->steps = tb_log2_ceil(n) > 0 ? tb_log2_ceil(n) : 1;
    TB_CUDA(cudaMalloc(&st->tmp, (size_t)n * e));
    ctx->extra[TB_SCAN_DEPTH] = st->steps;
    ctx->extra[TB_SCAN_LAUNCHES] = st->steps;
    return TB_OK;
  }
  if (block % 32 || block > 1024)
    return tb_fail(TB_EUNSUP, "a tile scan needs a multiple of 32 threads up to 1024");
  st->ipt_index = tb_scan_ipt_index<T>(ctx);
  if (st->ipt_index < 0)
    return TB_EUNSUP;
  const int ipt = tb_scan_ipts[st->ipt_index];
  const tb_scan_fns<T> &fns = tb_scan_table<T>[st->ipt_index];
  const size_t smem = smem_bytes<T>(block, ipt);
  const int64_t per = (int64_t)block * ipt;
  st->tiles = (n + per - 1) / per;
  if (st->tiles > INT_MAX)
    return tb_fail(TB_EUNSUP, "%lld tiles exceed the grid limit", (long long)st->tiles);
  const int depth = tile_depth(ipt);
  if (st->kind == TB_SG_RTS) {
    int rc;
    if ((rc = tb_gpu_fit_smem(ctx, fns.scan, smem, "a tile", NULL)) ||
        (rc = tb_gpu_fit_smem(ctx, fns.spine, smem, "a tile", NULL)) ||
        (rc = tb_gpu_fit(ctx, fns.reduce, 0, NULL, NULL)))
      return rc;
    TB_CUDA(cudaMalloc(&st->tmp, (size_t)st->tiles * e));
    /* An output is its tile's offset plus its tile-local prefix (depth). The
     * offset is a tile total (ipt + tb_block_sum_depth additions) carried
     * through the spine: a running carry over the spine's own tiles of
     * `per` totals, and one tile scan (depth) inside them. */
    ctx->extra[TB_SCAN_DEPTH] = (double)tb_scan_blocked_depth(
        st->tiles / per + 1 + depth + ipt + tb_block_sum_depth, depth);
    ctx->extra[TB_SCAN_LAUNCHES] = 3;
    return TB_OK;
  }
  int rc = tuned_access<T>(ctx, ipt, ctx->buf[s->x], ctx->buf[s->y], &st->acc, &st->opts);
  if (rc || (rc = tb_gpu_fit_smem(ctx, fns.lookback[st->acc], smem, "a tile", NULL)))
    return rc;
  TB_CUDA(cudaMalloc(&st->tmp, counter_bytes + tile_states<T>::bytes(st->tiles)));
  st->clear_bytes = counter_bytes + states_clear_bytes<T>(st->tiles);
  /* Each look-back adds at most 5 shuffle levels and one window per 32
   * tiles to the prefix it found, and the tile's aggregate once: at most 8
   * additions a tile along the chain of prefixes (doc/scan.md). With
   * blockscan lanes, a thread's sum over the warps' totals adds one a warp. */
  ctx->extra[TB_SCAN_DEPTH] = (double)tb_scan_blocked_depth(
      8 * st->tiles, st->opts.lanes ? tile_depth(ipt, block / 32) : depth);
  ctx->extra[TB_SCAN_LAUNCHES] = 1;
  return TB_OK;
}

template <typename T> int tb_scan_run_t(tb_ctx_t *ctx)
{
  const tb_scan_t *s = (const tb_scan_t *)ctx->p->priv;
  const tb_scan_gpu *st = (const tb_scan_gpu *)ctx->state;
  cudaStream_t stream = tb_gpu_stream(ctx);
  const T *x = (const T *)ctx->buf[s->x];
  T *y = (T *)ctx->buf[s->y];
  const int64_t n = ctx->p->n;
  const int excl = s->kind == TB_SCAN_EXCLUSIVE, block = tb_gpu_block(ctx);
  switch (st->kind) {
  case TB_SG_CUB: {
    size_t bytes = st->cub_bytes;
    if (s->kind == TB_SCAN_INCLUSIVE)
      TB_CUDA(st->cub_wide ? cub::DeviceScan::InclusiveSum(st->cub_tmp, bytes, x, y, n, stream)
                           : cub::DeviceScan::InclusiveSum(st->cub_tmp, bytes, x, y, (int)n, stream));
    else
      TB_CUDA(st->cub_wide ? cub::DeviceScan::ExclusiveSum(st->cub_tmp, bytes, x, y, n, stream)
                           : cub::DeviceScan::ExclusiveSum(st->cub_tmp, bytes, x, y, (int)n, stream));
    return TB_OK;
  }
  case TB_SG_HILLIS: {
    T *tmp = (T *)st->tmp;
    for (int k = 0; k < st->steps; k++) {
      T *dst = (st->steps - 1 - k) % 2 == 0 ? y : tmp;
      const T *src = k == 0 ? x : dst == y ? tmp : y;
      k_hillis<T><<<st->grid, block, 0, stream>>>(src, dst, n, (int64_t)1 << k,
                                                  k == 0 ? excl : 0);
      TB_CUDA_LAUNCH("hillis step");
    }
    return TB_OK;
  }
  default: break;
  }
  const int ipt = tb_scan_ipts[st->ipt_index];
  const tb_scan_fns<T> &fns = tb_scan_table<T>[st->ipt_index];
  const size_t smem = smem_bytes<T>(block, ipt);
  const int grid = (int)st->tiles;
  if (st->kind == TB_SG_RTS) {
    T *sums = (T *)st->tmp;
    ((void (*)(const T *, T *, int64_t))fns.reduce)<<<grid, block, 0, stream>>>(x, sums, n);
    TB_CUDA_LAUNCH("rts reduce");
    ((void (*)(T *, int64_t))fns.spine)<<<1, block, smem, stream>>>(sums, st->tiles);
    TB_CUDA_LAUNCH("rts spine");
    ((void (*)(const T *, T *, const T *, int64_t, int))fns.scan)<<<grid, block, smem, stream>>>(
        x, y, sums, n, excl);
    TB_CUDA_LAUNCH("rts scan");
    return TB_OK;
  }
  tile_states<T> states;
  states.bind((char *)st->tmp + counter_bytes, st->tiles);
  TB_CUDA(cudaMemsetAsync(st->tmp, 0, st->clear_bytes, stream));
  ((void (*)(const T *, T *, int64_t, int, tile_states<T>, unsigned long long *,
             tile_opts))fns.lookback[st->acc])<<<grid, block, smem, stream>>>(
      x, y, n, excl, states, (unsigned long long *)st->tmp, st->opts);
  TB_CUDA_LAUNCH("lookback");
  return TB_OK;
}

template <int KIND> int tb_scan_prepare(tb_ctx_t *ctx)
{
  tb_scan_gpu *st = (tb_scan_gpu *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  st->kind = KIND;
  switch (ctx->p->prec) {
  case TB_INT32: return tb_scan_plan<unsigned>(ctx, st);
  case TB_FLOAT: return tb_scan_plan<float>(ctx, st);
  default: return tb_scan_plan<double>(ctx, st);
  }
}

int tb_scan_run(tb_ctx_t *ctx)
{
  switch (ctx->p->prec) {
  case TB_INT32: return tb_scan_run_t<unsigned>(ctx);
  case TB_FLOAT: return tb_scan_run_t<float>(ctx);
  default: return tb_scan_run_t<double>(ctx);
  }
}

void tb_scan_release(tb_ctx_t *ctx)
{
  tb_scan_gpu *st = (tb_scan_gpu *)ctx->state;
  if (st) {
    cudaFree(st->tmp);
    cudaFree(st->cub_tmp);
  }
  free(st);
  ctx->state = NULL;
}

const unsigned tb_all = TB_PREC_BIT(TB_INT32) | TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE);

const tb_param_def_t tb_scan_tuning_tile[] = {TB_GPU_BLOCK("256"), TB_SCAN_ITEMS};
const tb_param_def_t tb_scan_tuning_lookback[] = {TB_GPU_BLOCK("256"), TB_SCAN_ITEMS,
                                                  TB_SCAN_ACCESS, TB_SCAN_BACKOFF, TB_SCAN_ORDER,
                                                  TB_SCAN_DELAY, TB_SCAN_BLOCKSCAN};

TB_VARIANT(tb_scan_gpu_hillis, "hillis", &tb_algo_scan, tb_all, 0, tb_gpu_gridstride_tuning,
           TB_COUNT(tb_gpu_gridstride_tuning), tb_scan_prepare<TB_SG_HILLIS>, tb_scan_run, NULL,
           tb_scan_release,
           "pointer jumping (Hillis-Steele): ceil(log2 n) launches, double buffer");
TB_VARIANT(tb_scan_gpu_rts, "rts", &tb_algo_scan, tb_all, 0, tb_scan_tuning_tile,
           TB_COUNT(tb_scan_tuning_tile), tb_scan_prepare<TB_SG_RTS>, tb_scan_run, NULL,
           tb_scan_release,
           "reduce-then-scan: tile totals, one block's scan of them, tile scans (3 launches)");
TB_VARIANT(tb_scan_gpu_lookback, "lookback", &tb_algo_scan, tb_all, 0, tb_scan_tuning_lookback,
           TB_COUNT(tb_scan_tuning_lookback), tb_scan_prepare<TB_SG_LOOKBACK>, tb_scan_run, NULL,
           tb_scan_release, "single pass, decoupled look-back (Merrill-Garland 2016)");
TB_VARIANT(tb_scan_gpu_cub, "cub", &tb_algo_scan, tb_all, 0, NULL, 0,
           tb_scan_prepare<TB_SG_CUB>, tb_scan_run, NULL, tb_scan_release,
           "cub::DeviceScan::InclusiveSum / ExclusiveSum (vendor baseline)");

} /* namespace */

TB_VARIANT_LIST(scan, gpu, &tb_scan_gpu_hillis, &tb_scan_gpu_rts, &tb_scan_gpu_lookback,
                &tb_scan_gpu_cub);
