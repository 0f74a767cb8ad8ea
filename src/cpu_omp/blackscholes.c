/* twinbench: the Black-Scholes family's OpenMP twin: parallel for simd over
 * the options, static schedule over the ranges the backend first-touched; the
 * formulas of options_math.h (either form), with libmvec's vector
 * expf/exp2f/logf/erfcf (vecmath.h). */
#include <config.h>

#include "cpu.h"
#include "vecmath.h"

#include "../families/options.h"
#include "../families/options_math.h"

/* One pass over the options; VARY: per-option r and v, EXACT: the erfc CDF,
 * FAST: math=fast (constants, so each of the eight loops is specialised). */
#define TB_BS_FN(T, SFX, VARY, EXACT, FAST)                                                       \
  static void tb_bs_omp_##SFX##_##VARY##EXACT##FAST(const tb_bs_t *b, void *const *buf,          \
                                                    int64_t n, int threads)                       \
  {                                                                                               \
    const T *restrict s = buf[b->in.s], *restrict x = buf[b->in.x], *restrict t = buf[b->in.t];  \
    const T *restrict r = VARY ? buf[b->in.r] : NULL, *restrict v = VARY ? buf[b->in.v] : NULL;  \
    T *restrict call = buf[b->call], *restrict put = buf[b->put];                                 \
    const T r0 = (T)b->in.r0, v0 = (T)b->in.v0;                                                   \
    _Pragma("omp parallel for simd schedule(static) num_threads(threads)")                      \
    for (int64_t i = 0; i < n; i++)                                                               \
      tb_bs_price_##SFX(s[i], x[i], t[i], VARY ? r[i] : r0, VARY ? v[i] : v0, EXACT, FAST,       \
                        &call[i], &put[i]);                                                       \
  }

/* The eight loops of a precision, indexed [vary][exact][fast]. */
#define TB_BS_OMP(T, SFX)                                                                         \
  TB_BS_FN(T, SFX, 0, 0, 0)                                                                       \
  TB_BS_FN(T, SFX, 0, 0, 1)                                                                       \
  TB_BS_FN(T, SFX, 0, 1, 0)                                                                       \
  TB_BS_FN(T, SFX, 0, 1, 1)                                                                       \
  TB_BS_FN(T, SFX, 1, 0, 0)                                                                       \
  TB_BS_FN(T, SFX, 1, 0, 1)                                                                       \
  TB_BS_FN(T, SFX, 1, 1, 0)                                                                       \
  TB_BS_FN(T, SFX, 1, 1, 1)                                                                       \
  static void (*const tb_bs_omp_##SFX[8])(const tb_bs_t *, void *const *, int64_t, int) = {      \
      tb_bs_omp_##SFX##_000, tb_bs_omp_##SFX##_001, tb_bs_omp_##SFX##_010,                        \
      tb_bs_omp_##SFX##_011, tb_bs_omp_##SFX##_100, tb_bs_omp_##SFX##_101,                        \
      tb_bs_omp_##SFX##_110, tb_bs_omp_##SFX##_111};

TB_BS_OMP(float, f32)
TB_BS_OMP(double, f64)

static int tb_bs_omp_run(tb_ctx_t *ctx)
{
  const tb_bs_t *b = ctx->p->priv;
  const int k = 4 * (b->in.r >= 0) + 2 * b->exact + b->fast;
  if (ctx->p->prec == TB_FLOAT)
    tb_bs_omp_f32[k](b, ctx->buf, ctx->p->n, tb_cpu_threads(ctx));
  else
    tb_bs_omp_f64[k](b, ctx->buf, ctx->p->n, tb_cpu_threads(ctx));
  return TB_OK;
}

TB_VARIANT(tb_bs_omp, "omp", &tb_algo_blackscholes, TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
           0, NULL, 0, NULL, tb_bs_omp_run, NULL, NULL,
           "OpenMP parallel for simd over the options (libmvec vector math), static schedule");

TB_VARIANT_LIST(blackscholes, cpu, &tb_bs_omp);

