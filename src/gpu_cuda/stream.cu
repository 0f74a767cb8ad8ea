/* twinbench: the STREAM family's CUDA twins.
 *
 * gridstride: one element per thread per step of a grid-stride loop.
 * vec16:      16-byte vector accesses (float4 / double2) per thread, the
 *             n % (16 / sizeof T) tail done by scalar threads.
 * Both take the block and grid as launch parameters, and two more tunings of
 * copy, scale, add and triad (the dot resolves them to plain and 1):
 *   stores: plain, or nt (st.global.cs, __stcs: streaming, evict first:
 *           each byte written is never read again); auto is plain. The
 *           names are the CPU twin's (nt there: non-temporal stores), as
 *           every value of a tuning option must be valid for each variant
 *           that has one of that name;
 *   unroll: the vectors (gridstride: elements) a thread moves per step of
 *           its loop, 1, 2 or 4, all loaded before the first is stored, so
 *           that each thread has that many loads in flight; the k-th is
 *           blockDim.x after the (k-1)-th, so that every access stays
 *           coalesced.
 * The grid defaults to a thread per element (vec16: per vector; per unroll of
 * them) for copy, scale, add and triad, and
 * to at most 32 waves of resident blocks for the dot, whose partials one
 * block adds (tb_gpu_grid in cuda_util.h says what was measured). The dot
 * product accumulates in double, reduces each block with warp shuffles, and
 * a second launch of one block sums the per-block partials (both launches
 * are timed). */
#include <config.h>

#include <cuda_runtime.h>
#include <stdlib.h>

#include "../families/stream.h"
#include "cuda_util.h"

namespace {

template <int OP> __device__ __forceinline__ constexpr bool tb_reads_b()
{
  return OP == TB_STREAM_ADD || OP == TB_STREAM_TRIAD || OP == TB_STREAM_DOT;
}

template <typename T, int OP> __device__ __forceinline__ T tb_apply(T a, T b, T q)
{
  if (OP == TB_STREAM_COPY)
    return a;
  if (OP == TB_STREAM_SCALE)
    return q * a;
  if (OP == TB_STREAM_ADD)
    return a + b;
  return a + q * b;
}

/* The n items (elements or vectors E) of a (and b) by a grid-stride loop:
 * each step a thread loads U items blockDim.x apart, then calls f on each
 * (its lanes, for vectors) and with STORE writes the results to c, with CS
 * by streaming stores. */
template <typename T, typename E, bool READ_B, bool STORE, bool CS, int U, typename F>
__device__ __forceinline__ void tb_stream_items(const E *__restrict__ a, const E *__restrict__ b,
                                                E *__restrict__ c, int64_t n, int64_t first,
                                                F f)
{
  const int W = sizeof(E) / sizeof(T);
  const int64_t step = (int64_t)gridDim.x * blockDim.x * U;
  for (int64_t i0 = first + (int64_t)blockIdx.x * blockDim.x * U + threadIdx.x; i0 < n;
       i0 += step) {
    E x[U], y[U];
#pragma unroll
    for (int k = 0; k < U; k++) {
      const int64_t i = i0 + (int64_t)k * blockDim.x;
      if (i < n) {
        x[k] = a[i];
        y[k] = READ_B ? b[i] : x[k];
      }
    }
#pragma unroll
    for (int k = 0; k < U; k++) {
      const int64_t i = i0 + (int64_t)k * blockDim.x;
      if (i < n) {
        E z;
        const T *px = reinterpret_cast<const T *>(&x[k]), *py = reinterpret_cast<const T *>(&y[k]);
        T *pz = reinterpret_cast<T *>(&z);
#pragma unroll
        for (int l = 0; l < W; l++)
          pz[l] = f(px[l], READ_B ? py[l] : T(0));
        if constexpr (STORE && CS)
          __stcs(c + i, z);
        else if constexpr (STORE)
          c[i] = z;
      }
    }
  }
}

/* Visit the n elements of a (and b), calling f(a[i], b[i]) and, with STORE,
 * writing its value to c[i] (CS, U: tb_stream_items). VEC moves 16-byte
 * vectors, then the n % width tail element by element. */
template <typename T, bool VEC, bool READ_B, bool STORE, bool CS, int U, typename F>
__device__ __forceinline__ void tb_stream_visit(const T *__restrict__ a, const T *__restrict__ b,
                                                T *__restrict__ c, int64_t n, F f)
{
  int64_t done = 0;
  if constexpr (VEC) {
    typedef tb_vec16_t<T> V;
    const int64_t nv = n / tb_width16<T>();
    tb_stream_items<T, V, READ_B, STORE, CS, U>(reinterpret_cast<const V *>(a),
                                                reinterpret_cast<const V *>(b),
                                                reinterpret_cast<V *>(c), nv, 0, f);
    done = nv * tb_width16<T>();
  }
  tb_stream_items<T, T, READ_B, STORE, CS, VEC ? 1 : U>(a, b, c, n, done, f);
}

/* copy, scale, add, triad: c = op(a, b) over n elements. */
template <typename T, bool VEC, int OP, bool CS, int U>
__global__ void tb_k_stream(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ c,
                            T q, int64_t n)
{
  tb_stream_visit<T, VEC, tb_reads_b<OP>(), true, CS, U>(
      a, b, c, n, [=](T x, T y) { return tb_apply<T, OP>(x, y, q); });
}

/* The block of the dot's second launch. */
const int tb_dot_final_block = 1024;

/* dot: per-block partial sums of a b in double. */
template <typename T, bool VEC>
__global__ void tb_k_dot(const T *__restrict__ a, const T *__restrict__ b, double *partial,
                         int64_t n)
{
  double s = 0.0;
  tb_stream_visit<T, VEC, true, false, false, 1>(a, b, (T *)nullptr, n, [&](T x, T y) {
    s += (double)x * (double)y;
    return T(0);
  });
  s = tb_block_sum(s);
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s;
}

/* dot, second launch: one block sums the partials and rounds to T. */
template <typename T> __global__ void tb_k_dot_final(const double *partial, int np, T *out)
{
  double s = 0.0;
  for (int i = threadIdx.x; i < np; i += blockDim.x)
    s += partial[i];
  s = tb_block_sum(s);
  if (threadIdx.x == 0)
    *out = (T)s;
}

/* The dot's depth, the most additions between a product and the sum: a
 * thread's chain (W products a vector, then the tail), tb_block_sum, a final
 * thread's chain over the partials and its block's tb_block_sum. */
template <typename T, bool VEC> double tb_stream_dot_depth(int64_t n, int grid, int block)
{
  const int64_t stride = (int64_t)grid * block;
  const int64_t w = VEC ? tb_width16<T>() : 1, nv = n / w, tail = n - nv * w;
  const int64_t chain = w * ((nv + stride - 1) / stride) + (tail + stride - 1) / stride;
  return (double)(chain + tb_block_sum_depth + (grid + tb_dot_final_block - 1) / tb_dot_final_block +
                  tb_block_sum_depth);
}

template <typename T, bool VEC>
using tb_stream_kernel_t = void (*)(const T *, const T *, T *, T, int64_t);

/* The tuning parameters stores (the CPU twin's names) and unroll (the index
 * of 1, 2, 4). */
enum { TB_STREAM_AUTO, TB_STREAM_PLAIN, TB_STREAM_NT };
const char *const tb_stream_gpu_stores[] = {"auto", "plain", "nt", NULL};
const int tb_stream_unrolls[] = {1, 2, 4};

/* The kernels of one operation, by stores and unroll. */
#define TB_STREAM_KERNELS(OP)                                                                     \
  {{tb_k_stream<T, VEC, OP, false, 1>, tb_k_stream<T, VEC, OP, false, 2>,                        \
    tb_k_stream<T, VEC, OP, false, 4>},                                                           \
   {tb_k_stream<T, VEC, OP, true, 1>, tb_k_stream<T, VEC, OP, true, 2>,                          \
    tb_k_stream<T, VEC, OP, true, 4>}}

/* The elementwise kernels, indexed by operation, stores and unroll's index. */
template <typename T, bool VEC>
tb_stream_kernel_t<T, VEC> tb_stream_kernel(int op, int stores, int u)
{
  static const tb_stream_kernel_t<T, VEC> table[4][2][3] = {
      TB_STREAM_KERNELS(TB_STREAM_COPY), TB_STREAM_KERNELS(TB_STREAM_SCALE),
      TB_STREAM_KERNELS(TB_STREAM_ADD), TB_STREAM_KERNELS(TB_STREAM_TRIAD)};
  return table[op][stores == TB_STREAM_NT][u];
}

struct tb_stream_gpu_state {
  int grid;
  int stores, u;     /* stores (TB_STREAM_PLAIN, TB_STREAM_NT) and unroll's index */
  double *partial;
};

template <typename T, bool VEC> int tb_stream_prepare_t(tb_ctx_t *ctx, tb_stream_gpu_state *st)
{
  const tb_stream_t *s = (const tb_stream_t *)ctx->p->priv;
  const int64_t work = VEC ? ctx->p->n / tb_width16<T>() : ctx->p->n;
  const int64_t unroll = tb_tune(ctx, "unroll")->i;
  st->stores = s->op == TB_STREAM_DOT ? TB_STREAM_PLAIN : (int)tb_tune(ctx, "stores")->i;
  if (st->stores == TB_STREAM_AUTO)
    st->stores = TB_STREAM_PLAIN;
  st->u = s->op == TB_STREAM_DOT ? 0 : unroll == 4 ? 2 : unroll == 2 ? 1 : 0;
  tb_tune_resolved(ctx, "stores", st->stores);
  tb_tune_resolved(ctx, "unroll", tb_stream_unrolls[st->u]);
  if (s->op == TB_STREAM_DOT) {
    if (tb_gpu_block(ctx) % 32)
      return tb_fail(TB_EUNSUP, "the dot reduction needs a block size that is a multiple of 32");
    int rc = tb_gpu_grid(ctx, tb_k_dot<T, VEC>, work, 0, TB_GPU_WAVES, &st->grid);
    if (rc)
      return rc;
    TB_CUDA(cudaMalloc(&st->partial, (size_t)st->grid * sizeof(double)));
    ctx->extra[TB_STREAM_DEPTH] = tb_stream_dot_depth<T, VEC>(ctx->p->n, st->grid, tb_gpu_block(ctx));
    return TB_OK;
  }
  const int u = tb_stream_unrolls[st->u];
  return tb_gpu_grid(ctx, tb_stream_kernel<T, VEC>(s->op, st->stores, st->u), (work + u - 1) / u,
                     0, 0, &st->grid);
}

template <typename T, bool VEC> int tb_stream_run_t(tb_ctx_t *ctx)
{
  const tb_stream_t *s = (const tb_stream_t *)ctx->p->priv;
  const tb_stream_gpu_state *st = (const tb_stream_gpu_state *)ctx->state;
  cudaStream_t stream = tb_gpu_stream(ctx);
  const T *a = (const T *)ctx->buf[s->a];
  const T *b = s->b >= 0 ? (const T *)ctx->buf[s->b] : a;
  T *c = (T *)ctx->buf[s->c];
  if (s->op == TB_STREAM_DOT) {
    tb_k_dot<T, VEC><<<st->grid, tb_gpu_block(ctx), 0, stream>>>(a, b, st->partial, ctx->p->n);
    TB_CUDA_LAUNCH("dot");
    tb_k_dot_final<T><<<1, tb_dot_final_block, 0, stream>>>(st->partial, st->grid, c);
    TB_CUDA_LAUNCH("dot final");
    return TB_OK;
  }
  tb_stream_kernel<T, VEC>(s->op, st->stores, st->u)<<<st->grid, tb_gpu_block(ctx), 0, stream>>>(
      a, b, c, (T)TB_STREAM_Q, ctx->p->n);
  TB_CUDA_LAUNCH("stream");
  return TB_OK;
}

template <bool VEC> int tb_stream_prepare(tb_ctx_t *ctx)
{
  tb_stream_gpu_state *st = (tb_stream_gpu_state *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  return ctx->p->prec == TB_FLOAT ? tb_stream_prepare_t<float, VEC>(ctx, st)
                                  : tb_stream_prepare_t<double, VEC>(ctx, st);
}

template <bool VEC> int tb_stream_run(tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? tb_stream_run_t<float, VEC>(ctx)
                                  : tb_stream_run_t<double, VEC>(ctx);
}

void tb_stream_release(tb_ctx_t *ctx)
{
  tb_stream_gpu_state *st = (tb_stream_gpu_state *)ctx->state;
  if (st)
    cudaFree(st->partial);
  free(st);
  ctx->state = NULL;
}

const unsigned tb_stream_precs = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE);

const tb_param_def_t tb_stream_gpu_tuning[] = {
    TB_GPU_BLOCK("256"),
    TB_GPU_GRID("one block per block-size work items (elements, or vectors for vec16, "
                "unroll of them a thread); dot: at most 32 waves of resident blocks"),
    {"stores", "how copy, scale, add and triad write: plain, nt (st.global.cs: streaming, "
               "evict first) or auto (plain); the dot writes one number (plain)",
     TB_PARAM_CHOICE, "auto", 0, 0, tb_stream_gpu_stores, 0, "plain,nt"},
    {"unroll", "vectors (gridstride: elements) a thread loads before it stores them, blockDim "
               "apart: 1, 2 or 4 (the dot: 1)",
     TB_PARAM_INT, "1", 1, 4, NULL, TB_PARAM_POW2, "1,2,4"},
};

/* In an MPI run every rank runs STREAM on its own device arrays (weak
 * scaling): the row's bandwidth is the ranks' together. */
#define TB_STREAM_VARIANT(ID, NAME, VEC, SUMMARY)                                            \
  TB_VARIANT(ID, NAME, &tb_algo_stream, tb_stream_precs, TB_V_MPI_WEAK, tb_stream_gpu_tuning,     \
             TB_COUNT(tb_stream_gpu_tuning), tb_stream_prepare<VEC>, tb_stream_run<VEC>, NULL, \
             tb_stream_release, SUMMARY)

TB_STREAM_VARIANT(tb_stream_gridstride, "gridstride", false,
                  "grid-stride loop, one element per thread per step");
TB_STREAM_VARIANT(tb_stream_vec16, "vec16", true,
                  "grid-stride loop of 16-byte vector loads and stores (float4, double2)");

} /* namespace */

TB_VARIANT_LIST(stream, gpu, &tb_stream_gridstride, &tb_stream_vec16);

