/* twinbench: stream compaction's CUDA twins.
 *
 * mss      mark, scan, scatter as taught: a launch writes the flags
 *          x_i < below, the decoupled look-back scan (scan.cuh) turns them
 *          into exclusive indices, a third launch scatters the kept
 *          elements and writes the count (n flags and n indices of scratch);
 * onepass  one fused launch: each block flags its tile, scans the flags
 *          (look-back across tiles), stages its kept elements in shared
 *          memory in order and writes them as one contiguous, coalesced run
 *          from the tile's offset, each warp's stores one aligned 32-element
 *          piece; the last tile writes the count; tuned like the look-back
 *          scan (items, access, backoff, lookdelay, tileorder);
 * cub      cub::DeviceSelect::If, the vendor baseline.
 * All are stable. The tile variants count in 32 bits (n < 2^32). */
#include <config.h>

#include <climits>
#include <cmath>
#include <cub/device/device_select.cuh>
#include <cuda_runtime.h>
#include <stdlib.h>

#include "../families/scan.h"
#include "cuda_util.h"
#include "scan.cuh"

namespace {

using namespace tb_scan_dev;

/* The flags' elements a thread holds in the scans. */
constexpr int tb_flag_ipt = 16;

/* The selection: x < thr (for int32, thr = ceil(below), which keeps the
 * integers below `below`). */
template <typename T> struct tb_below {
  T thr;
  __host__ __device__ __forceinline__ bool operator()(const T &a) const { return a < thr; }
};

/* mss, launch 1: flags[i] = x_i < thr. */
template <typename T>
__global__ void k_mark(const T *__restrict__ x, unsigned *__restrict__ flags, int64_t n, T thr)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    flags[i] = x[i] < thr;
}

/* mss, launch 3: each kept x_i to y[idx_i]; the last element's thread writes the count. */
template <typename T>
__global__ void k_scatter(const T *__restrict__ x, const unsigned *__restrict__ flags,
                          const unsigned *__restrict__ idx, T *__restrict__ y,
                          long long *count, int64_t n)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const unsigned f = flags[i];
    if (f)
      y[idx[i]] = x[i];
    if (i == n - 1)
      *count = (long long)idx[i] + f;
  }
}

/* onepass: the fused kernel (tile numbers and prefixes as in k_lookback). */
template <typename T, int IPT, int ACC>
__global__ void k_compact(const T *__restrict__ x, T *__restrict__ y, long long *count,
                          int64_t n, T thr, tile_states<unsigned> st,
                          unsigned long long *counter, int64_t tiles, tile_opts o)
{
  static_assert(IPT <= 32, "a thread's flags are the bits of one word");
  __shared__ unsigned prefix_s;
  const int64_t tile = next_tile(counter, o.by_block), base = tile * blockDim.x * IPT;
  T v[IPT];
  load_tile<T, IPT, ACC>(x, base, n, v);
  /* The thread's flags are the bits of one word (bit j: element j kept),
   * one register where an array of flags took IPT of them (int32 at 16
   * items: 48 registers, 5 blocks of 256 an SM, where it had 50, allocated
   * as 56, and 4 blocks). */
  const int64_t first = base + (int64_t)threadIdx.x * IPT;
  unsigned keep = 0, agg;
#pragma unroll
  for (int j = 0; j < IPT; j++)
    keep |= (unsigned)(first + j < n && v[j] < thr) << j;
  unsigned pos = block_scan_total<unsigned>((unsigned)__popc(keep), &agg,
                                            (unsigned *)slots<T, IPT>(), o.lanes);
  /* The warps' regions are free since block_scan's barriers: stage the kept
   * elements there in tile order (tile-local positions need no prefix, so
   * the other warps stage while warp 0 looks back), then, once the prefix
   * is known, write them out contiguously. */
  T *stage = smem<T>();
#pragma unroll
  for (int j = 0; j < IPT; j++)
    if (keep >> j & 1u)
      stage[pos++] = v[j];
  tile_prefix<unsigned>(st, tile, agg, &prefix_s, o);
  __syncthreads();
  /* The run starts anywhere; counting from the 32-element boundary at or
   * before its start (lead places before it, which no thread writes), each
   * warp's stores fill one aligned 32-element piece of y, where stores
   * from the start itself straddled two of them and wrote 5 partial 32-byte
   * sectors in place of 4 whole ones (ncu: 26 of 32 bytes a sector used). */
  const int64_t out = prefix_s;
  const unsigned lead = (unsigned)(out & 31);
  for (unsigned k = threadIdx.x; k < agg + lead; k += blockDim.x)
    if (k >= lead)
      y[out + (k - lead)] = stage[k - lead];
  if (tile == tiles - 1 && threadIdx.x == 0)
    *count = out + agg;
}

enum { TB_CG_MSS, TB_CG_ONEPASS, TB_CG_CUB };

struct tb_compact_gpu {
  int kind, grid, ipt;
  tile_opts opts;   /* onepass: the look-back's sleeps (ns) and the tile order */
  const void *fn;   /* onepass: the kernel of the tuning */
  int64_t tiles;
  unsigned *flags, *idx; /* mss */
  void *states;          /* the tile counter and states (of the flags' scan) */
  void *cub_tmp;
  size_t cub_bytes, clear_bytes;
  bool cub_wide;
};

/* The kernels' element type and threshold for a precision. */
template <typename T> T tb_compact_thr(double below);
template <> int tb_compact_thr<int>(double below) { return (int)ceil(below); }
template <> float tb_compact_thr<float>(double below) { return (float)below; }
template <> double tb_compact_thr<double>(double below) { return below; }

/* The items the fused kernel may hold a thread, as template instances (by
 * access: element-wide, 16-byte, 16-byte through shared memory too); auto
 * is 64 bytes a thread. */
const int tb_compact_ipts[] = {4, 8, 12, 16, 24};

template <typename T> struct tb_compact_fns {
  const void *fn[3]; /* by access (ACC_*) */
};

template <typename T, int IPT> constexpr tb_compact_fns<T> tb_compact_fns_of()
{
  return {{(const void *)k_compact<T, IPT, ACC_SCALAR>, (const void *)k_compact<T, IPT, ACC_VEC16>,
           (const void *)k_compact<T, IPT, ACC_WIDE>}};
}

template <typename T> const tb_compact_fns<T> tb_compact_table[] = {
    tb_compact_fns_of<T, 4>(), tb_compact_fns_of<T, 8>(), tb_compact_fns_of<T, 12>(),
    tb_compact_fns_of<T, 16>(), tb_compact_fns_of<T, 24>()};

/* The fused kernel's items from the tuning (auto: 16 for 4-byte elements,
 * 8 for 8-byte), its access and backoff, and the kernel they pick. */
template <typename T> int tb_compact_tuned(tb_ctx_t *ctx, const tb_compact_t *c,
                                           tb_compact_gpu *st)
{
  const tb_param_value_t *it = tb_tune(ctx, "items");
  const int want = it->i > 0 ? (int)it->i : sizeof(T) == 4 ? 16 : 8;
  for (int k = 0; k < TB_COUNT(tb_compact_ipts); k++)
    if (tb_compact_ipts[k] == want) {
      tb_tune_resolved(ctx, "items", want);
      st->ipt = want;
      int acc;
      int rc = tuned_access<T>(ctx, want, ctx->buf[c->x], ctx->buf[c->x], &acc, &st->opts);
      st->fn = tb_compact_table<T>[k].fn[acc];
      return rc;
    }
  return tb_fail(TB_EUNSUP, "items %d is not one of 4, 8, 12, 16, 24", want);
}

template <typename T> int tb_compact_plan(tb_ctx_t *ctx, tb_compact_gpu *st)
{
  const tb_compact_t *c = (const tb_compact_t *)ctx->p->priv;
  const int64_t n = ctx->p->n;
  const int block = tb_gpu_block(ctx);
  if (st->kind == TB_CG_CUB) {
    const T *x = (const T *)ctx->buf[c->x];
    T *y = (T *)ctx->buf[c->y];
    long long *count = (long long *)ctx->buf[c->count];
    const tb_below<T> op{tb_compact_thr<T>(c->below)};
    st->cub_wide = n > INT_MAX;
    TB_CUDA(st->cub_wide ? cub::DeviceSelect::If(nullptr, st->cub_bytes, x, y, count, n, op)
                         : cub::DeviceSelect::If(nullptr, st->cub_bytes, x, y, count, (int)n, op));
    TB_CUDA(cudaMalloc(&st->cub_tmp, st->cub_bytes ? st->cub_bytes : 1));
    ctx->extra[TB_COMPACT_LAUNCHES] = NAN;
    return TB_OK;
  }
  if (n > (int64_t)UINT_MAX)
    return tb_fail(TB_EUNSUP, "the tile compactions count in 32 bits: size %lld is above 2^32 - 1",
                   (long long)n);
  if (block % 32 || block > 1024)
    return tb_fail(TB_EUNSUP, "a tile scan needs a multiple of 32 threads up to 1024");
  int rc = st->kind == TB_CG_MSS ? (int)TB_OK : tb_compact_tuned<T>(ctx, c, st);
  if (rc)
    return rc;
  const int ipt = st->kind == TB_CG_MSS ? tb_flag_ipt : st->ipt;
  const size_t smem = st->kind == TB_CG_MSS ? smem_bytes<unsigned>(block, ipt)
                                            : smem_bytes<T>(block, ipt);
  const void *fn = st->kind == TB_CG_MSS ? (const void *)k_lookback<unsigned, tb_flag_ipt>
                                         : st->fn;
  if ((rc = tb_gpu_fit_smem(ctx, fn, smem, "a tile", NULL)))
    return rc;
  const int64_t per = (int64_t)block * ipt;
  st->tiles = (n + per - 1) / per;
  if (st->tiles > INT_MAX)
    return tb_fail(TB_EUNSUP, "%lld tiles exceed the grid limit", (long long)st->tiles);
  TB_CUDA(cudaMalloc(&st->states, counter_bytes + tile_states<unsigned>::bytes(st->tiles)));
  st->clear_bytes = counter_bytes + states_clear_bytes<unsigned>(st->tiles);
  if (st->kind == TB_CG_MSS) {
    if ((rc = tb_gpu_grid(ctx, k_mark<T>, n, 0, TB_GPU_WAVES, &st->grid)))
      return rc;
    TB_CUDA(cudaMalloc(&st->flags, (size_t)n * sizeof(unsigned)));
    TB_CUDA(cudaMalloc(&st->idx, (size_t)n * sizeof(unsigned)));
    ctx->extra[TB_COMPACT_LAUNCHES] = 3;
  } else {
    ctx->extra[TB_COMPACT_LAUNCHES] = 1;
  }
  return TB_OK;
}

template <typename T> int tb_compact_run_t(tb_ctx_t *ctx)
{
  const tb_compact_t *c = (const tb_compact_t *)ctx->p->priv;
  const tb_compact_gpu *st = (const tb_compact_gpu *)ctx->state;
  cudaStream_t stream = tb_gpu_stream(ctx);
  const T *x = (const T *)ctx->buf[c->x];
  T *y = (T *)ctx->buf[c->y];
  long long *count = (long long *)ctx->buf[c->count];
  const int64_t n = ctx->p->n;
  const int block = tb_gpu_block(ctx);
  const T thr = tb_compact_thr<T>(c->below);
  if (st->kind == TB_CG_CUB) {
    size_t bytes = st->cub_bytes;
    const tb_below<T> op{thr};
    TB_CUDA(st->cub_wide
                ? cub::DeviceSelect::If(st->cub_tmp, bytes, x, y, count, n, op, stream)
                : cub::DeviceSelect::If(st->cub_tmp, bytes, x, y, count, (int)n, op, stream));
    return TB_OK;
  }
  tile_states<unsigned> states;
  states.bind((char *)st->states + counter_bytes, st->tiles);
  TB_CUDA(cudaMemsetAsync(st->states, 0, st->clear_bytes, stream));
  unsigned long long *counter = (unsigned long long *)st->states;
  if (st->kind == TB_CG_MSS) {
    k_mark<T><<<st->grid, block, 0, stream>>>(x, st->flags, n, thr);
    TB_CUDA_LAUNCH("mark");
    k_lookback<unsigned, tb_flag_ipt><<<(int)st->tiles, block, smem_bytes<unsigned>(block, tb_flag_ipt),
                                        stream>>>(st->flags, st->idx, n, 1, states, counter,
                                                 tile_opts{0, 0, 0, false});
    TB_CUDA_LAUNCH("scan of the flags");
    k_scatter<T><<<st->grid, block, 0, stream>>>(x, st->flags, st->idx, y, count, n);
    TB_CUDA_LAUNCH("scatter");
    return TB_OK;
  }
  ((void (*)(const T *, T *, long long *, int64_t, T, tile_states<unsigned>,
             unsigned long long *, int64_t, tile_opts))st->fn)<<<(int)st->tiles, block,
                                                                smem_bytes<T>(block, st->ipt),
                                                                stream>>>(
      x, y, count, n, thr, states, counter, st->tiles, st->opts);
  TB_CUDA_LAUNCH("compact");
  return TB_OK;
}

template <int KIND> int tb_compact_prepare(tb_ctx_t *ctx)
{
  tb_compact_gpu *st = (tb_compact_gpu *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  st->kind = KIND;
  switch (ctx->p->prec) {
  case TB_INT32: return tb_compact_plan<int>(ctx, st);
  case TB_FLOAT: return tb_compact_plan<float>(ctx, st);
  default: return tb_compact_plan<double>(ctx, st);
  }
}

int tb_compact_run(tb_ctx_t *ctx)
{
  switch (ctx->p->prec) {
  case TB_INT32: return tb_compact_run_t<int>(ctx);
  case TB_FLOAT: return tb_compact_run_t<float>(ctx);
  default: return tb_compact_run_t<double>(ctx);
  }
}

void tb_compact_release(tb_ctx_t *ctx)
{
  tb_compact_gpu *st = (tb_compact_gpu *)ctx->state;
  if (st) {
    cudaFree(st->flags);
    cudaFree(st->idx);
    cudaFree(st->states);
    cudaFree(st->cub_tmp);
  }
  free(st);
  ctx->state = NULL;
}

const unsigned tb_all = TB_PREC_BIT(TB_INT32) | TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE);

const tb_param_def_t tb_compact_tuning_tile[] = {TB_GPU_BLOCK("256"), TB_SCAN_ITEMS,
                                                 TB_SCAN_ACCESS, TB_SCAN_BACKOFF, TB_SCAN_ORDER,
                                                 TB_SCAN_DELAY, TB_SCAN_BLOCKSCAN};

TB_VARIANT(tb_compact_gpu_mss, "mss", &tb_algo_compact, tb_all, 0, tb_gpu_gridstride_tuning,
           TB_COUNT(tb_gpu_gridstride_tuning), tb_compact_prepare<TB_CG_MSS>, tb_compact_run,
           NULL, tb_compact_release,
           "mark, scan (decoupled look-back), scatter: 3 launches, n flags and indices");
TB_VARIANT(tb_compact_gpu_onepass, "onepass", &tb_algo_compact, tb_all, 0, tb_compact_tuning_tile,
           TB_COUNT(tb_compact_tuning_tile), tb_compact_prepare<TB_CG_ONEPASS>, tb_compact_run,
           NULL, tb_compact_release,
           "one fused launch: flags, tile scan, look-back, staged coalesced writes");
TB_VARIANT(tb_compact_gpu_cub, "cub", &tb_algo_compact, tb_all, 0, NULL, 0,
           tb_compact_prepare<TB_CG_CUB>, tb_compact_run, NULL, tb_compact_release,
           "cub::DeviceSelect::If (vendor baseline)");

} /* namespace */

TB_VARIANT_LIST(compact, gpu, &tb_compact_gpu_mss, &tb_compact_gpu_onepass, &tb_compact_gpu_cub);
