/* twinbench: the Black-Scholes family's CUDA twins (the formulas of
 * options_math.h, as the OpenMP twin):
 *   gridstride: one option per thread per step of a grid-stride loop.
 *   pair:       two adjacent options per thread per step, with 8-byte (float2)
 *               or 16-byte (double2) loads and stores; an odd last option is
 *               priced by a scalar tail.
 *   quad:       float only: four adjacent options per thread per step, 16-byte
 *               (float4) loads and stores with streaming cache hints; the
 *               last n % 4 options by scalar tails.
 *   All take the block and grid as launch parameters (grid auto: up to 32
 *   waves, tb_gpu_grid), and both forms of the formulas (math=libm, fast). */
#include <config.h>

#include <cuda_runtime.h>
#include <stdlib.h>

#include "options.cuh"

namespace {

/* Option i: its inputs, priced, its results stored. */
template <typename T, bool EXACT, bool VARY, bool FAST>
__device__ __forceinline__ void tb_bs_one(const tb_opt_in<T> &in, T *call, T *put, int64_t i)
{
  tb_opt<T>::bs(in.s[i], in.x[i], in.t[i], VARY ? in.r[i] : in.r0, VARY ? in.v[i] : in.v0, EXACT,
                FAST, &call[i], &put[i]);
}

/* One option per thread per step; VARY: per-option r and v. */
template <typename T, bool EXACT, bool VARY, bool FAST>
__global__ void tb_k_bs(tb_opt_in<T> in, T *__restrict__ call, T *__restrict__ put, int64_t n)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    tb_bs_one<T, EXACT, VARY, FAST>(in, call, put, i);
}

/* Two adjacent options per thread per step through vector loads and stores;
 * the last option of an odd count by the first thread. */
template <typename T, bool EXACT, bool VARY, bool FAST>
__global__ void tb_k_bs_pair(tb_opt_in<T> in, T *__restrict__ call, T *__restrict__ put,
                             int64_t n)
{
  typedef typename tb_cuvec<T, 2>::type P;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const P *s = (const P *)in.s, *x = (const P *)in.x, *t = (const P *)in.t;
  const P *r = (const P *)in.r, *v = (const P *)in.v;
  P *c = (P *)call, *p = (P *)put;
  for (int64_t i = tid; i < n / 2; i += stride) {
    const P si = s[i], xi = x[i], ti = t[i];
    P ri, vi, ci, pi;
    if (VARY) {
      ri = r[i];
      vi = v[i];
    } else {
      ri.x = ri.y = in.r0;
      vi.x = vi.y = in.v0;
    }
    tb_opt<T>::bs(si.x, xi.x, ti.x, ri.x, vi.x, EXACT, FAST, &ci.x, &pi.x);
    tb_opt<T>::bs(si.y, xi.y, ti.y, ri.y, vi.y, EXACT, FAST, &ci.y, &pi.y);
    c[i] = ci;
    p[i] = pi;
  }
  if (tid == 0 && n % 2)
    tb_bs_one<T, EXACT, VARY, FAST>(in, call, put, n - 1);
}

/* Four adjacent options per thread per step (float only): 16-byte loads and
 * stores with the streaming cache hints (__ldcs, __stcs: each byte is used
 * once, so it need not stay in L2); the last n % 4 options by the first
 * threads. */
template <typename T, bool EXACT, bool VARY, bool FAST>
__global__ void tb_k_bs_quad(tb_opt_in<T> in, T *__restrict__ call, T *__restrict__ put,
                             int64_t n)
{
  static_assert(sizeof(T) == sizeof(float), "the quad kernel is float only");
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const float4 *s = (const float4 *)in.s, *x = (const float4 *)in.x, *t = (const float4 *)in.t;
  const float4 *r = (const float4 *)in.r, *v = (const float4 *)in.v;
  float4 *c = (float4 *)call, *p = (float4 *)put;
  for (int64_t i = tid; i < n / 4; i += stride) {
    const float4 si = __ldcs(&s[i]), xi = __ldcs(&x[i]), ti = __ldcs(&t[i]);
    float4 ri, vi, ci, pi;
    if (VARY) {
      ri = __ldcs(&r[i]);
      vi = __ldcs(&v[i]);
    } else {
      ri = make_float4(in.r0, in.r0, in.r0, in.r0);
      vi = make_float4(in.v0, in.v0, in.v0, in.v0);
    }
    tb_opt<float>::bs(si.x, xi.x, ti.x, ri.x, vi.x, EXACT, FAST, &ci.x, &pi.x);
    tb_opt<float>::bs(si.y, xi.y, ti.y, ri.y, vi.y, EXACT, FAST, &ci.y, &pi.y);
    tb_opt<float>::bs(si.z, xi.z, ti.z, ri.z, vi.z, EXACT, FAST, &ci.z, &pi.z);
    tb_opt<float>::bs(si.w, xi.w, ti.w, ri.w, vi.w, EXACT, FAST, &ci.w, &pi.w);
    __stcs(&c[i], ci);
    __stcs(&p[i], pi);
  }
  if (tid < n % 4)
    tb_bs_one<T, EXACT, VARY, FAST>(in, call, put, n / 4 * 4 + tid);
}

template <typename T> using tb_bs_kernel_t = void (*)(tb_opt_in<T>, T *, T *, int64_t);

enum { TB_BS_GRIDSTRIDE, TB_BS_PAIR, TB_BS_QUAD };

/* Options per thread per step of a variant. */
const int tb_bs_width[] = {1, 2, 4};

/* Kernel K for a CDF, per-option r, v and the math form. */
#define TB_BS_PICK(K, T, b)                                                                       \
  do {                                                                                            \
    static const tb_bs_kernel_t<T> table[2][2][2] = {                                            \
        {{K<T, false, false, false>, K<T, false, false, true>},                                   \
         {K<T, false, true, false>, K<T, false, true, true>}},                                    \
        {{K<T, true, false, false>, K<T, true, false, true>},                                     \
         {K<T, true, true, false>, K<T, true, true, true>}}};                                     \
    return table[(b)->exact][(b)->in.r >= 0][(b)->fast];                                          \
  } while (0)

/* The kernel of a variant (KIND) for the problem. */
template <typename T, int KIND> tb_bs_kernel_t<T> tb_bs_kernel(const tb_bs_t *b)
{
  if constexpr (KIND == TB_BS_GRIDSTRIDE)
    TB_BS_PICK(tb_k_bs, T, b);
  else if constexpr (KIND == TB_BS_PAIR)
    TB_BS_PICK(tb_k_bs_pair, T, b);
  else
    TB_BS_PICK(tb_k_bs_quad, T, b);
}

template <typename T, int KIND> int tb_bs_prepare_t(tb_ctx_t *ctx)
{
  const tb_bs_t *b = (const tb_bs_t *)ctx->p->priv;
  int grid;
  return tb_gpu_grid(ctx, tb_bs_kernel<T, KIND>(b), ctx->p->n / tb_bs_width[KIND], 0, TB_GPU_WAVES,
                     &grid);
}

template <typename T, int KIND> int tb_bs_run_t(tb_ctx_t *ctx)
{
  const tb_bs_t *b = (const tb_bs_t *)ctx->p->priv;
  tb_bs_kernel<T, KIND>(b)<<<tb_gpu_grid_chosen(ctx), tb_gpu_block(ctx), 0, tb_gpu_stream(ctx)>>>(
      tb_opt_in_of<T>(ctx, &b->in), (T *)ctx->buf[b->call], (T *)ctx->buf[b->put], ctx->p->n);
  TB_CUDA_LAUNCH("black-scholes");
  return TB_OK;
}

/* Call f with a value of the problem's element type (quad: float only, the
 * variant says so; no double instance of it is made). */
template <int KIND, typename F> int tb_bs_typed(tb_ctx_t *ctx, F f)
{
  if constexpr (KIND == TB_BS_QUAD)
    return f(0.0f);
  else
    return ctx->p->prec == TB_FLOAT ? f(0.0f) : f(0.0);
}

template <int KIND> int tb_bs_prepare(tb_ctx_t *ctx)
{
  return tb_bs_typed<KIND>(ctx, [ctx](auto t) { return tb_bs_prepare_t<decltype(t), KIND>(ctx); });
}

template <int KIND> int tb_bs_run(tb_ctx_t *ctx)
{
  return tb_bs_typed<KIND>(ctx, [ctx](auto t) { return tb_bs_run_t<decltype(t), KIND>(ctx); });
}

const unsigned tb_bs_precs = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE);

#define TB_BS_VARIANT(ID, NAME, PRECS, KIND, SUMMARY)                                          \
  TB_VARIANT(ID, NAME, &tb_algo_blackscholes, PRECS, 0, tb_gpu_gridstride_tuning,                 \
             TB_COUNT(tb_gpu_gridstride_tuning), tb_bs_prepare<KIND>, tb_bs_run<KIND>, NULL, NULL, \
             SUMMARY)

TB_BS_VARIANT(tb_bs_gridstride, "gridstride", tb_bs_precs, TB_BS_GRIDSTRIDE,
              "grid-stride loop, one option per thread per step");
TB_BS_VARIANT(tb_bs_pair, "pair", tb_bs_precs, TB_BS_PAIR,
              "grid-stride loop, two options per thread per step (float2 / double2 accesses)");
TB_BS_VARIANT(tb_bs_quad, "quad", TB_PREC_BIT(TB_FLOAT), TB_BS_QUAD,
              "grid-stride loop, four options per thread per step (float4 accesses, streaming "
              "cache hints)");

} /* namespace */

TB_VARIANT_LIST(blackscholes, gpu, &tb_bs_gridstride, &tb_bs_pair, &tb_bs_quad);
