/* twinbench: the reduction family's CUDA twins: the classic ladder and beyond.
 *
 * Names follow NVIDIA's CUDA sample (reduce0..reduce6); the 2008 slides number
 * the same kernels 1..7 (slide kernel k = reduceK-1):
 *   reduce0  interleaved addressing, divergent branch tid % (2 s)   (kernel 1)
 *   reduce1  interleaved addressing, strided index 2 s tid: bank conflicts (2)
 *   reduce2  sequential addressing: stride halving, tid < s           (3)
 *   reduce3  first add during the global load: half as many blocks    (4)
 *   reduce4  the last warp unrolled, with __syncwarp between steps    (5)
 *   reduce5  completely unrolled, block size a template parameter     (6)
 *   reduce6  many elements per thread (grid-stride, Brent), grid swept (7)
 *   shfl     reduce6's loads, then warp-shuffle block reduction
 *   vec16    16-byte vector loads, four in flight per thread, shuffles
 *   onepass  vec16, and the last block to finish sums the partials: one launch
 *   cub      cub::DeviceReduce::Sum, the vendor baseline
 *   mpi      distributed over MPI ranks (tbmpi.h): each rank's device sums
 *            its share of the inputs with cub::DeviceReduce::Sum, then the
 *            ranks' sums are added by the transport (comm.h): MPI_Allreduce
 *            on the device buffer (aware) or through a pinned host copy
 *            (staged), or ncclAllReduce (nccl), inside the timed run
 * reduce0..reduce5 reduce each block to one partial and launch again over the
 * partials until one value is left; reduce6, shfl and vec16 launch twice
 * unless their grid is one block (the second launch is one block over the
 * partials). Every launch is inside the timed run. The warp-synchronous steps of reduce4..reduce6 exchange values
 * through shared memory with __syncwarp between reads and writes: correct
 * under independent thread scheduling (Volta and later), where the 2008 code's
 * volatile-only lockstep is a race. */
#include <config.h>

#include <climits>
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>
#include <stdlib.h>

#include "../common/refmath.h"
#include "../common/tbmpi.h"
#include "../families/reduce.h"
#include "comm.h"
#include "cuda_util.h"

namespace {

/* ---- Device building blocks -------------------------------------------- */

/* The dynamic shared memory of a launch, as T. */
template <typename T> __device__ __forceinline__ T *tb_smem()
{
  extern __shared__ __align__(16) unsigned char tb_smem_raw[];
  return reinterpret_cast<T *>(tb_smem_raw);
}

/* Sequential addressing over the b partial sums in s[]: while more than
 * 2 stop are live, the first h = live / 2 threads add the upper half onto the
 * lower, with a barrier after each step (stop 0 leaves the sum in s[0];
 * stop 32 leaves 64 partial sums for the warp tail). */
template <typename T>
__device__ __forceinline__ void tb_tree_sequential(T *s, unsigned tid, unsigned b, unsigned stop)
{
  for (unsigned h = b / 2; h > stop; h >>= 1) {
    if (tid < h)
      s[tid] += s[tid + h];
    __syncthreads();
  }
}

/* Warp 0 adds the last min(b, 64) partial sums of s[]; the total is valid in
 * thread 0. Each step reads its partner before any lane writes (__syncwarp),
 * and writes before the next step reads: no lockstep is assumed. Lanes whose
 * partner lies beyond the live values read s[b .. 64) (zeroed by the caller
 * when b < 64) and only feed lanes that are discarded. */
template <typename T> __device__ __forceinline__ T tb_warp_tail(T *s, unsigned tid, unsigned b)
{
  T v = s[tid];
#pragma unroll
  for (unsigned o = 32; o > 0; o >>= 1)
    if (2 * o <= b) {
      v += s[tid + o];
      __syncwarp();
      s[tid] = v;
      __syncwarp();
    }
  return v;
}

/* One element per thread, or zero past the end. */
template <typename T> __device__ __forceinline__ T tb_load1(const T *in, int64_t m, int64_t i)
{
  return i < m ? in[i] : T(0);
}

/* Two elements per thread, b apart: the first add during the load. */
template <typename T>
__device__ __forceinline__ T tb_load2(const T *in, int64_t m, int64_t i, unsigned b)
{
  return tb_load1(in, m, i) + tb_load1(in, m, i + b);
}

/* Brent's cascade: a thread adds the pairs (i, i + b) of a grid-stride loop. */
template <typename T>
__device__ __forceinline__ T tb_load_cascade(const T *__restrict__ in, int64_t m, unsigned b)
{
  const int64_t stride = 2 * (int64_t)b * gridDim.x;
  T v = T(0);
  for (int64_t i = (int64_t)blockIdx.x * 2 * b + threadIdx.x; i < m; i += stride) {
    v += in[i];
    if (i + b < m)
      v += in[i + b];
  }
  return v;
}

/* 16-byte vectors each thread keeps in flight. */
constexpr int tb_vec_unroll = 4;

template <typename T, typename V> __device__ __forceinline__ T tb_vsum(V x)
{
  const T *e = reinterpret_cast<const T *>(&x);
  T s = e[0];
#pragma unroll
  for (int k = 1; k < tb_width16<T>(); k++)
    s += e[k];
  return s;
}

/* A thread's sum of its 16-byte vectors (tb_vec_unroll loads in flight per
 * step of the grid-stride loop), then of its share of the m % width tail. */
template <typename T> __device__ __forceinline__ T tb_load_vec16(const T *__restrict__ in, int64_t m)
{
  typedef tb_vec16_t<T> V;
  const V *v = reinterpret_cast<const V *>(in);
  const int64_t nv = m / tb_width16<T>(), stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t first = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  T acc = T(0);
  int64_t i = first;
  for (; i + (tb_vec_unroll - 1) * stride < nv; i += tb_vec_unroll * stride) {
    V x[tb_vec_unroll];
#pragma unroll
    for (int k = 0; k < tb_vec_unroll; k++)
      x[k] = __ldg(v + i + k * stride);
#pragma unroll
    for (int k = 0; k < tb_vec_unroll; k++)
      acc += tb_vsum<T>(x[k]);
  }
  for (; i < nv; i += stride)
    acc += tb_vsum<T>(__ldg(v + i));
  for (int64_t j = nv * tb_width16<T>() + first; j < m; j += stride)
    acc += in[j];
  return acc;
}

/* ---- Kernels: each reduces in[0..m) to one partial per block in out[] --- */

/* reduce0..reduce3 (K = 0..3): one or two inputs a thread into shared
 * memory, then a tree over the block with a barrier after every level:
 *   0  interleaved addressing: the threads with tid % (2h) == 0 add, so most
 *      threads of a warp idle on a divergent branch (and % is slow);
 *   1  interleaved with a strided index 2h tid: no divergence, but the
 *      threads of a warp hit the same shared-memory banks;
 *   2  sequential addressing: the first h threads add s[tid + h], conflict-free;
 *   3  reduce2 with the first add during the load (2 b inputs a block). */
template <typename T, int K> __global__ void tb_k_classic(const T *__restrict__ in, T *out, int64_t m)
{
  T *s = tb_smem<T>();
  const unsigned tid = threadIdx.x, b = blockDim.x;
  if constexpr (K == 3)
    s[tid] = tb_load2(in, m, (int64_t)blockIdx.x * 2 * b + tid, b);
  else
    s[tid] = tb_load1(in, m, (int64_t)blockIdx.x * b + tid);
  __syncthreads();
  if constexpr (K == 0) {
    for (unsigned h = 1; h < b; h *= 2) {
      if (tid % (2 * h) == 0)
        s[tid] += s[tid + h];
      __syncthreads();
    }
  } else if constexpr (K == 1) {
    for (unsigned h = 1; h < b; h *= 2) {
      unsigned k = 2 * h * tid;
      if (k < b)
        s[k] += s[k + h];
      __syncthreads();
    }
  } else {
    tb_tree_sequential(s, tid, b, 0);
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

/* Store v, run the barrier-synchronised steps down to 64 partials, and let
 * warp 0 finish; B is a template constant (reduce5, reduce6) or the runtime
 * block size (reduce4, B = 0). Shared memory holds max(b, 64) elements. */
template <typename T, unsigned B> __device__ __forceinline__ T tb_block_tree(T *s, T v)
{
  const unsigned tid = threadIdx.x, b = B ? B : blockDim.x;
  s[tid] = v;
  if (b < 64)
    s[tid + 32] = T(0);
  __syncthreads();
  if constexpr (B != 0) {
#pragma unroll
    for (unsigned h = B / 2; h > 32; h >>= 1) {
      if (tid < h)
        s[tid] += s[tid + h];
      __syncthreads();
    }
  } else {
    tb_tree_sequential(s, tid, b, 32);
  }
  return tid < 32 ? tb_warp_tail(s, tid, b) : v;
}

/* reduce4: reduce3 with the last warp's steps unrolled (no block barrier). */
template <typename T> __global__ void tb_k_reduce4(const T *__restrict__ in, T *out, int64_t m)
{
  const unsigned tid = threadIdx.x;
  T v = tb_block_tree<T, 0>(tb_smem<T>(),
                            tb_load2(in, m, (int64_t)blockIdx.x * 2 * blockDim.x + tid, blockDim.x));
  if (tid == 0)
    out[blockIdx.x] = v;
}

/* reduce5: every step unrolled for the compile-time block size B. */
template <typename T, unsigned B> __global__ void tb_k_reduce5(const T *__restrict__ in, T *out, int64_t m)
{
  __shared__ T s[B < 64 ? 64 : B];
  const unsigned tid = threadIdx.x;
  T v = tb_block_tree<T, B>(s, tb_load2(in, m, (int64_t)blockIdx.x * 2 * B + tid, B));
  if (tid == 0)
    out[blockIdx.x] = v;
}

/* reduce6: a grid-stride cascade of pairs per thread, then reduce5's tree. */
template <typename T, unsigned B> __global__ void tb_k_reduce6(const T *__restrict__ in, T *out, int64_t m)
{
  __shared__ T s[B < 64 ? 64 : B];
  T v = tb_block_tree<T, B>(s, tb_load_cascade(in, m, B));
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

/* shfl: reduce6's cascade, then warp shuffles (any multiple of 32 threads). */
template <typename T> __global__ void tb_k_shfl(const T *__restrict__ in, T *out, int64_t m)
{
  T v = tb_block_sum(tb_load_cascade(in, m, blockDim.x));
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

/* vec16: 16-byte vector loads, then warp shuffles. */
template <typename T> __global__ void tb_k_vec16(const T *__restrict__ in, T *out, int64_t m)
{
  T v = tb_block_sum(tb_load_vec16(in, m));
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

/* onepass: vec16's partials; the last block to finish (counted with an
 * atomic after a fence that publishes its partial) adds them all, in block
 * order, writes the sum and rearms the counter for the next launch. */
template <typename T>
__global__ void tb_k_onepass(const T *__restrict__ in, T *out, int64_t m, T *partial,
                             unsigned *done)
{
  __shared__ bool last;
  T v = tb_block_sum(tb_load_vec16(in, m));
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = v;
    __threadfence();
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
    return;
  __threadfence();
  T s = T(0);
  for (unsigned k = threadIdx.x; k < gridDim.x; k += blockDim.x)
    s += __ldcg(&partial[k]);
  s = tb_block_sum(s);
  if (threadIdx.x == 0) {
    *out = s;
    *done = 0;
  }
}

template <typename T> using tb_pass_fn = void (*)(const T *, T *, int64_t);

/* The template instances for block sizes 32, 64, ..., 1024 (index log2(b) - 5). */
template <typename T>
const tb_pass_fn<T> tb_reduce5_table[] = {tb_k_reduce5<T, 32>,  tb_k_reduce5<T, 64>,
                                          tb_k_reduce5<T, 128>, tb_k_reduce5<T, 256>,
                                          tb_k_reduce5<T, 512>, tb_k_reduce5<T, 1024>};
template <typename T>
const tb_pass_fn<T> tb_reduce6_table[] = {tb_k_reduce6<T, 32>,  tb_k_reduce6<T, 64>,
                                          tb_k_reduce6<T, 128>, tb_k_reduce6<T, 256>,
                                          tb_k_reduce6<T, 512>, tb_k_reduce6<T, 1024>};

/* ---- Plans: the launches of one reduction ------------------------------ */

enum tb_kind_gpu {
  TB_K0, TB_K1, TB_K2, TB_K3, TB_K4, TB_K5, /* multi-level: launch until one value */
  TB_K6, TB_KSHFL, TB_KVEC16,               /* grid-stride, then one block */
  TB_KONEPASS,
  TB_KCUB,
  TB_KMPI
};

const int tb_max_passes = 12;

/* One launch: kernel fn over m inputs at in_off into grid outputs at out_off
 * (offsets into the scratch; -1 is the input array, or the output sum). */
struct tb_pass {
  const void *fn;
  int grid;
  size_t smem;
  int64_t m, in_off, out_off;
};

struct tb_reduce_gpu_state {
  int kind, npass;
  tb_pass pass[tb_max_passes];
  void *scratch;     /* the partial sums of every level */
  unsigned *done;    /* onepass: blocks finished */
  void *cub_tmp;     /* cub: its temporary storage */
  size_t cub_bytes;
  bool cub_wide;     /* cub: 64-bit item count */
  int64_t lo, hi;    /* cub and mpi: the inputs this rank sums */
  void *host;        /* mpi, staged: the pinned copy of the sum */
  int xport;         /* mpi: the transport (comm.h) */
  tb_nccl_t *nccl;   /* mpi, nccl: the communicator */
};

/* Registers and theoretical occupancy of kernel fn at the block size, as
 * columns; per_sm gets the resident blocks per SM. */
int tb_reduce_occupancy(tb_ctx_t *ctx, const void *fn, size_t smem, int *per_sm)
{
  cudaFuncAttributes fa = {};
  int rc = tb_gpu_fit(ctx, fn, smem, &fa, per_sm);
  if (rc)
    return rc;
  ctx->extra[TB_REDUCE_REGS] = fa.numRegs;
  ctx->extra[TB_REDUCE_OCCUPANCY] =
      (double)*per_sm * tb_gpu_block(ctx) /
      (tb_gpu_dev(ctx)->max_threads_per_sm ? tb_gpu_dev(ctx)->max_threads_per_sm : 2048);
  return TB_OK;
}

/* Append a launch of fn over m inputs read from in_off; returns the
 * offset of its outputs in the scratch (or -1 when it writes the sum). */
int64_t tb_plan_add(tb_reduce_gpu_state *st, const void *fn, int64_t m, int grid, size_t smem,
                    int64_t in_off, int64_t *scratch_used)
{
  tb_pass *p = &st->pass[st->npass++];
  p->fn = fn;
  p->grid = grid;
  p->smem = smem;
  p->m = m;
  p->in_off = in_off;
  p->out_off = grid == 1 ? -1 : *scratch_used;
  if (grid > 1)
    *scratch_used += grid;
  return p->out_off;
}

/* reduce0..reduce5: launch over the partials until one is left. Each level
 * takes `per_block` inputs a block and adds log2(b) levels of tree (plus one
 * for the add during the load). */
template <typename T>
int tb_plan_levels(tb_ctx_t *ctx, tb_reduce_gpu_state *st, const void *fn, int per_thread,
                   size_t smem, int64_t *scratch_used)
{
  const int block = tb_gpu_block(ctx);
  const int64_t per_block = (int64_t)per_thread * block;
  int64_t m = ctx->p->n, in = -1, depth = 0;
  do {
    int64_t grid = (m + per_block - 1) / per_block;
    if (grid > INT_MAX)
      return tb_fail(TB_EUNSUP, "%lld blocks of %d exceed the grid limit", (long long)grid,
                     block);
    if (st->npass == tb_max_passes)
      return tb_fail(TB_EUNSUP, "more than %d levels", tb_max_passes);
    in = tb_plan_add(st, fn, m, (int)grid, smem, in, scratch_used);
    depth += (per_thread - 1) + tb_log2_ceil(block);
    m = grid;
  } while (m > 1);
  ctx->extra[TB_REDUCE_DEPTH] = (double)depth;
  return TB_OK;
}

/* The depth of a grid-stride pass over m inputs by grid x b threads, each
 * adding at most `per_thread(m, threads)` inputs into a zero-started sum,
 * then a block tree of `tree` levels. */
int64_t tb_gridstride_depth(int kind, int64_t m, int64_t threads, int width, int tree)
{
  int64_t each;
  if (kind == TB_K6 || kind == TB_KSHFL) /* pairs (i, i + b): at most 2 per step */
    each = 2 * ((m + 2 * threads - 1) / (2 * threads));
  else /* vectors of `width`, plus at most one tail element */
    each = width * ((m / width + threads - 1) / threads) + 1;
  return each + tree;
}

/* reduce6, shfl, vec16 (two launches) and onepass (one): grid G blocks. */
template <typename T>
int tb_plan_gridstride(tb_ctx_t *ctx, tb_reduce_gpu_state *st, const void *fn, const void *fn2,
                       int tree, int64_t *scratch_used)
{
  const int64_t n = ctx->p->n, b = tb_gpu_block(ctx), asked = tb_gpu_grid_asked(ctx);
  int per_sm;
  int rc = tb_reduce_occupancy(ctx, fn, 0, &per_sm);
  if (rc)
    return rc;
  /* auto: one full wave of resident blocks, but no block without a step of work. */
  int64_t step = st->kind == TB_K6 || st->kind == TB_KSHFL ? 2 : tb_width16<T>() * tb_vec_unroll;
  int64_t g = asked > 0 ? asked : (int64_t)(per_sm > 0 ? per_sm : 1) * tb_gpu_dev(ctx)->sms;
  int64_t need = (n + step * b - 1) / (step * b);
  if (asked <= 0 && g > need)
    g = need;
  int64_t depth = tb_gridstride_depth(st->kind, n, g * b, tb_width16<T>(), tree);
  if (st->kind == TB_KONEPASS) {
    st->pass[0] = tb_pass{fn, (int)g, 0, n, -1, -1};
    st->npass = 1;
    *scratch_used = g;
    depth += (g + b - 1) / b + tree;
  } else {
    int64_t in = tb_plan_add(st, fn, n, (int)g, 0, -1, scratch_used);
    if (g > 1) {
      tb_plan_add(st, fn2, g, 1, 0, in, scratch_used);
      depth += tb_gridstride_depth(st->kind == TB_K6 ? TB_K6 : TB_KSHFL, g, b, 1, tree);
    }
  }
  ctx->extra[TB_REDUCE_DEPTH] = (double)depth;
  return TB_OK;
}

/* CUB: its temporary storage, sized for this n (32-bit count when it fits). */
template <typename T> int tb_plan_cub(tb_ctx_t *ctx, tb_reduce_gpu_state *st)
{
  const tb_reduce_t *r = (const tb_reduce_t *)ctx->p->priv;
  const T *x = (const T *)ctx->buf[r->x];
  T *sum = (T *)ctx->buf[r->sum];
  st->lo = 0;
  st->hi = ctx->p->n;
  if (st->kind == TB_KMPI) {
    tb_mpi_share(ctx->p->n, tb_mpi_rank(), &st->lo, &st->hi);
    int rc = tb_gpu_transport(ctx, &st->xport, &st->nccl);
    if (rc)
      return rc;
    if (st->xport == TB_XPORT_STAGED)
      TB_CUDA(cudaMallocHost(&st->host, sizeof(T)));
  }
  const int64_t m = st->hi - st->lo;
  st->cub_wide = m > INT_MAX;
  if (st->cub_wide)
    TB_CUDA(cub::DeviceReduce::Sum(nullptr, st->cub_bytes, x + st->lo, sum, m));
  else
    TB_CUDA(cub::DeviceReduce::Sum(nullptr, st->cub_bytes, x + st->lo, sum, (int)m));
  TB_CUDA(cudaMalloc(&st->cub_tmp, st->cub_bytes ? st->cub_bytes : 1));
  /* CUB does not document its order: only the bound for any order holds,
   * over the largest share; the all-reduce adds at most size - 1 additions
   * (any order of the ranks' sums). */
  const int64_t share = (ctx->p->n + tb_mpi_size() - 1) / tb_mpi_size();
  ctx->extra[TB_REDUCE_DEPTH] = (double)(share + tb_mpi_size() - 1);
  return TB_OK;
}

/* The index of a power-of-two block size in 32..1024 in the template tables,
 * or -1 with TB_EUNSUP recorded. */
int tb_block_index(int b)
{
  if (b < 32 || b > 1024 || (b & (b - 1))) {
    tb_fail(TB_EUNSUP, "this tree needs a power-of-two block of 32 to 1024 threads");
    return -1;
  }
  return tb_log2_ceil(b) - 5;
}

template <typename T> int tb_reduce_plan(tb_ctx_t *ctx, tb_reduce_gpu_state *st)
{
  const int b = tb_gpu_block(ctx);
  int64_t used = 0;
  int rc = TB_OK, per_sm;
  if (st->kind == TB_KCUB || st->kind == TB_KMPI)
    return tb_plan_cub<T>(ctx, st);
  if (st->kind <= TB_K6) {
    int bi = tb_block_index(b);
    if (bi < 0)
      return TB_EUNSUP;
    static const tb_pass_fn<T> multi[] = {tb_k_classic<T, 0>, tb_k_classic<T, 1>,
                                          tb_k_classic<T, 2>, tb_k_classic<T, 3>, tb_k_reduce4<T>};
    const tb_pass_fn<T> fn = st->kind == TB_K5   ? tb_reduce5_table<T>[bi]
                             : st->kind == TB_K6 ? tb_reduce6_table<T>[bi]
                                                 : multi[st->kind];
    if (st->kind == TB_K6) {
      rc = tb_plan_gridstride<T>(ctx, st, (const void *)fn, (const void *)fn, bi + 5, &used);
    } else {
      /* reduce4's warp tail reads up to 64 elements; the others b. */
      size_t smem = st->kind == TB_K5 ? 0 : (size_t)(st->kind == TB_K4 && b < 64 ? 64 : b) * sizeof(T);
      if (!(rc = tb_reduce_occupancy(ctx, (const void *)fn, smem, &per_sm)))
        rc = tb_plan_levels<T>(ctx, st, (const void *)fn, st->kind >= TB_K3 ? 2 : 1, smem, &used);
    }
  } else {
    if (b % 32 || b > 1024)
      return tb_fail(TB_EUNSUP, "shuffle reductions need a multiple of 32 threads up to 1024");
    const int tree = tb_block_sum_depth;
    if (st->kind == TB_KONEPASS)
      rc = tb_plan_gridstride<T>(ctx, st, (const void *)tb_k_onepass<T>, NULL, tree, &used);
    else
      rc = tb_plan_gridstride<T>(ctx, st,
                                 st->kind == TB_KSHFL ? (const void *)tb_k_shfl<T>
                                                      : (const void *)tb_k_vec16<T>,
                                 (const void *)tb_k_shfl<T>, tree, &used);
  }
  if (rc)
    return rc;
  ctx->extra[TB_REDUCE_LAUNCHES] = st->npass;
  tb_tune_resolved(ctx, "grid", st->pass[0].grid);
  if (used)
    TB_CUDA(cudaMalloc(&st->scratch, (size_t)used * sizeof(T)));
  if (st->kind == TB_KONEPASS) {
    TB_CUDA(cudaMalloc(&st->done, sizeof(unsigned)));
    /* On the runs' stream (non-blocking: a cudaMemset on the legacy stream
     * would not be ordered before them). */
    TB_CUDA(cudaMemsetAsync(st->done, 0, sizeof(unsigned), tb_gpu_stream(ctx)));
  }
  return TB_OK;
}

template <typename T> int tb_reduce_run_t(tb_ctx_t *ctx)
{
  const tb_reduce_t *r = (const tb_reduce_t *)ctx->p->priv;
  const tb_reduce_gpu_state *st = (const tb_reduce_gpu_state *)ctx->state;
  cudaStream_t stream = tb_gpu_stream(ctx);
  const T *x = (const T *)ctx->buf[r->x];
  T *sum = (T *)ctx->buf[r->sum], *scratch = (T *)st->scratch;
  if (st->kind == TB_KCUB || st->kind == TB_KMPI) {
    size_t bytes = st->cub_bytes;
    const int64_t m = st->hi - st->lo;
    if (st->cub_wide)
      TB_CUDA(cub::DeviceReduce::Sum(st->cub_tmp, bytes, x + st->lo, sum, m, stream));
    else
      TB_CUDA(cub::DeviceReduce::Sum(st->cub_tmp, bytes, x + st->lo, sum, (int)m, stream));
    if (st->kind == TB_KCUB)
      return TB_OK;
    const tb_kind_t kind = tb_prec_kind(ctx->p->prec);
    if (st->xport == TB_XPORT_NCCL)
      return tb_nccl_allreduce_sum(st->nccl, sum, 1, kind, stream);
    if (st->xport == TB_XPORT_AWARE) {
      TB_CUDA(cudaStreamSynchronize(stream));
      return tb_mpi_allreduce_sum(sum, 1, kind);
    }
    TB_CUDA(cudaMemcpyAsync(st->host, sum, sizeof(T), cudaMemcpyDeviceToHost, stream));
    TB_CUDA(cudaStreamSynchronize(stream));
    int rc = tb_mpi_allreduce_sum(st->host, 1, kind);
    if (!rc)
      TB_CUDA(cudaMemcpyAsync(sum, st->host, sizeof(T), cudaMemcpyHostToDevice, stream));
    return rc;
  }
  if (st->kind == TB_KONEPASS) {
    tb_k_onepass<T><<<st->pass[0].grid, tb_gpu_block(ctx), 0, stream>>>(x, sum, ctx->p->n,
                                                                          scratch, st->done);
    TB_CUDA_LAUNCH("onepass");
    return TB_OK;
  }
  for (int k = 0; k < st->npass; k++) {
    const tb_pass *p = &st->pass[k];
    ((tb_pass_fn<T>)p->fn)<<<p->grid, tb_gpu_block(ctx), p->smem, stream>>>(
        p->in_off < 0 ? x : scratch + p->in_off, p->out_off < 0 ? sum : scratch + p->out_off, p->m);
    TB_CUDA_LAUNCH("reduce pass");
  }
  return TB_OK;
}

template <int KIND> int tb_reduce_prepare(tb_ctx_t *ctx)
{
  tb_reduce_gpu_state *st = (tb_reduce_gpu_state *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  st->kind = KIND;
  switch (ctx->p->prec) {
  case TB_INT32: return tb_reduce_plan<int>(ctx, st);
  case TB_FLOAT: return tb_reduce_plan<float>(ctx, st);
  default: return tb_reduce_plan<double>(ctx, st);
  }
}

int tb_reduce_run(tb_ctx_t *ctx)
{
  switch (ctx->p->prec) {
  case TB_INT32: return tb_reduce_run_t<int>(ctx);
  case TB_FLOAT: return tb_reduce_run_t<float>(ctx);
  default: return tb_reduce_run_t<double>(ctx);
  }
}

void tb_reduce_release(tb_ctx_t *ctx)
{
  tb_reduce_gpu_state *st = (tb_reduce_gpu_state *)ctx->state;
  if (st) {
    cudaFree(st->scratch);
    cudaFree(st->done);
    cudaFree(st->cub_tmp);
    cudaFreeHost(st->host);
    tb_nccl_free(st->nccl);
  }
  free(st);
  ctx->state = NULL;
}

const unsigned tb_all = TB_PREC_BIT(TB_INT32) | TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE);

/* The tree variants launch as many blocks as the data needs, level by level;
 * the grid-stride ones take a grid. */
const tb_param_def_t tb_reduce_tuning_tree[] = {TB_GPU_BLOCK("256")};
const tb_param_def_t tb_reduce_tuning_stride[] = {
    TB_GPU_BLOCK("256"),
    TB_GPU_GRID("one full wave of resident blocks (occupancy x SMs), and no block without a "
                "step of work"),
};

#define TB_REDUCE_GPU_VARIANT(NAME, KIND, TUNING, SUMMARY)                                      \
  TB_VARIANT(tb_reduce_gpu_##NAME, #NAME, &tb_algo_reduce, tb_all, 0, TUNING, TB_COUNT(TUNING), \
             tb_reduce_prepare<KIND>, tb_reduce_run, NULL, tb_reduce_release, SUMMARY);
#define TB_TREE tb_reduce_tuning_tree
#define TB_STRIDE tb_reduce_tuning_stride

TB_REDUCE_GPU_VARIANT(reduce0, TB_K0, TB_TREE, "1: interleaved addressing, divergent tid % (2s)")
TB_REDUCE_GPU_VARIANT(reduce1, TB_K1, TB_TREE, "2: interleaved, strided index (bank conflicts)")
TB_REDUCE_GPU_VARIANT(reduce2, TB_K2, TB_TREE, "3: sequential addressing")
TB_REDUCE_GPU_VARIANT(reduce3, TB_K3, TB_TREE, "4: first add during the global load")
TB_REDUCE_GPU_VARIANT(reduce4, TB_K4, TB_TREE, "5: last warp unrolled (__syncwarp steps)")
TB_REDUCE_GPU_VARIANT(reduce5, TB_K5, TB_TREE,
                      "6: completely unrolled, block size a template (instances in a table)")
TB_REDUCE_GPU_VARIANT(reduce6, TB_K6, TB_STRIDE,
                      "7: many elements per thread (grid-stride cascade), then one block")
TB_REDUCE_GPU_VARIANT(shfl, TB_KSHFL, TB_STRIDE, "8: reduce6's loads, warp-shuffle block reduction")
TB_REDUCE_GPU_VARIANT(vec16, TB_KVEC16, TB_STRIDE,
                      "9: 16-byte vector loads (4 in flight) and shuffles")
TB_REDUCE_GPU_VARIANT(onepass, TB_KONEPASS, TB_STRIDE,
                      "10: vec16 in one launch: the last block adds the partials")
TB_VARIANT(tb_reduce_gpu_cub, "cub", &tb_algo_reduce, tb_all, 0, NULL, 0,
           tb_reduce_prepare<TB_KCUB>, tb_reduce_run, NULL, tb_reduce_release,
           "11: cub::DeviceReduce::Sum (vendor baseline)");
const tb_param_def_t tb_reduce_tuning_mpi[] = {TB_GPU_TRANSPORT};
TB_VARIANT(tb_reduce_gpu_mpi, "mpi", &tb_algo_reduce, tb_all, TB_V_MPI, tb_reduce_tuning_mpi,
           TB_COUNT(tb_reduce_tuning_mpi), tb_reduce_prepare<TB_KMPI>, tb_reduce_run, NULL,
           tb_reduce_release,
           "MPI ranks: cub::DeviceReduce::Sum of each rank's share, then the ranks' sums added "
           "by the transport (MPI_Allreduce on device or pinned host buffers, or NCCL)");

} /* namespace */

TB_VARIANT_LIST(reduce, gpu, &tb_reduce_gpu_reduce0, &tb_reduce_gpu_reduce1, &tb_reduce_gpu_reduce2,
                &tb_reduce_gpu_reduce3, &tb_reduce_gpu_reduce4, &tb_reduce_gpu_reduce5,
                &tb_reduce_gpu_reduce6, &tb_reduce_gpu_shfl, &tb_reduce_gpu_vec16,
                &tb_reduce_gpu_onepass, &tb_reduce_gpu_cub, &tb_reduce_gpu_mpi);
