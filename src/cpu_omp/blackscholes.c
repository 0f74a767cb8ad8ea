/* twinbench: the Black-Scholes family's OpenMP twin: parallel for simd over
 * the options, static schedule over the ranges the backend first-touched; the
 * formulas of options_math.h (either form), instantiated with the inlined
 * branch-free exp, exp2 and log of vexp.h and libmvec's vector erfc
 * (options_cpu.h). */
#include <config.h>

/* First: it sets the vector width for everything after it. */
#include "options_cpu.h"

#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "cpu.h"
#include "ntstore.h"

#include "../families/options.h"

/* dst[0..m) = src[0..m) for the precision SFX: the outputs are written
 * once and read by no one until the verifier, so the whole vectors go to
 * memory with non-temporal stores (no read of the line first, which plain
 * stores cost: a third more traffic), the ends plainly. */
#if TB_HAVE_NT
#define TB_BS_OUT(SFX, dst, src, m) tb_nt_span_##SFX(TB_STREAM_COPY, dst, src, NULL, 0, 0, m)
#define TB_BS_FENCE() tb_nt_fence()
#else
#define TB_BS_OUT(SFX, dst, src, m) memcpy(dst, src, (size_t)(m) * sizeof *(dst))
#define TB_BS_FENCE() ((void)0)
#endif

/* Options per stage: the block's d1, d2 and K stay in L1 between the
 * stages (3 x 8 KiB in double). */
#define TB_BS_BLOCK 1024

/* One pass over the options; VARY: per-option r and v, EXACT: the erfc CDF,
 * FAST: math=fast (constants, so each of the eight loops is specialised).
 * Each thread takes its static share (tb_cpu_share, the split the backend
 * first-touched) in blocks, and prices a block in three simd loops: d1, d2
 * and K; N of the 2 x block d's; the call and the put (as tb_bs_price ends),
 * which leave through non-temporal stores. Each stage's dependency chain per
 * vector is a fraction of tb_bs_price's (some 150 cycles), so more vectors
 * overlap; measured, the stages alone gained little (float, one thread: 21
 * against 22 ms for 2^24 options), the stores from L1 more. */
#define TB_BS_FN(T, SFX, VARY, EXACT, FAST)                                                       \
  static void tb_bs_omp_##SFX##_##VARY##EXACT##FAST(const tb_bs_t *b, void *const *buf,           \
                                                    int64_t n, int threads)                       \
  {                                                                                               \
    const T *restrict s = buf[b->in.s], *restrict x = buf[b->in.x], *restrict t = buf[b->in.t];   \
    const T *restrict r = VARY ? buf[b->in.r] : NULL, *restrict v = VARY ? buf[b->in.v] : NULL;   \
    T *restrict call = buf[b->call], *restrict put = buf[b->put];                                 \
    const T r0 = (T)b->in.r0, v0 = (T)b->in.v0;                                                   \
    _Pragma("omp parallel num_threads(threads)")                                                  \
    {                                                                                             \
      T d[2 * TB_BS_BLOCK], k[TB_BS_BLOCK];                                                       \
      int64_t lo, hi;                                                                             \
      tb_cpu_share(n, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);                     \
      for (int64_t i0 = lo; i0 < hi; i0 += TB_BS_BLOCK) {                                         \
        const int m = (int)(hi - i0 < TB_BS_BLOCK ? hi - i0 : TB_BS_BLOCK);                       \
        const T *restrict sb = s + i0, *restrict xb = x + i0, *restrict tb = t + i0;              \
        const T *restrict rb = VARY ? r + i0 : NULL, *restrict vb = VARY ? v + i0 : NULL;         \
        T *restrict cb = call + i0, *restrict pb = put + i0;                                      \
        _Pragma("omp simd")                                                                       \
        for (int j = 0; j < m; j++)                                                               \
          tb_bs_d_cpu_##SFX(sb[j], xb[j], tb[j], VARY ? rb[j] : r0, VARY ? vb[j] : v0, FAST,      \
                            &d[j], &d[m + j], &k[j]);                                             \
        _Pragma("omp simd")                                                                       \
        for (int j = 0; j < 2 * m; j++)                                                           \
          d[j] = tb_cnd_cpu_##SFX(d[j], EXACT, FAST);                                             \
        _Pragma("omp simd")                                                                       \
        for (int j = 0; j < m; j++) {                                                             \
          const T n1 = d[j], n2 = d[m + j];                                                       \
          tb_bs_combine_cpu_##SFX(sb[j], k[j], n1, n2, &d[j], &d[m + j]);                          \
        }                                                                                         \
        TB_BS_OUT(SFX, cb, d, m);                                                                 \
        TB_BS_OUT(SFX, pb, d + m, m);                                                             \
      }                                                                                           \
      TB_BS_FENCE();                                                                              \
    }                                                                                             \
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
  static void (*const tb_bs_omp_##SFX[8])(const tb_bs_t *, void *const *, int64_t, int) = {       \
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
           "OpenMP parallel for simd over the options (inlined exp and log, libmvec "
           "erfc), static schedule");

TB_VARIANT_LIST(blackscholes, cpu, &tb_bs_omp);

