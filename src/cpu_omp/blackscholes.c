/* twinbench: the Black-Scholes family's OpenMP twin: parallel for simd over
 * the options, static schedule over the ranges the backend first-touched; the
 * formulas of options_math.h (either form), instantiated with the inlined
 * branch-free exp, exp2 and log of vexp.h and libmvec's vector erfc
 * (options_cpu.h). */
#include <config.h>

/* First: it sets the vector width for everything after it. */
#include "options_cpu.h"

/* The default width's loops (options_cpu.h: 512 bits where AVX-512 is
 * built), file-local; blackscholes_w256.c holds the 256-bit ones. */
#define TB_BS_LOOPS_LINK static
#define TB_BS_LOOPS_TAB(SFX) tb_bs_omp_##SFX
#include "blackscholes_loops.h"

#include "vexp512.h"

#if defined(__AVX512F__)
/* The explicit 512-bit kernel (`kernel=avx512`), with vexp512.h's
 * primitives, which leave Intel's divider idle (every division and square
 * root of a price by 14-bit estimates and fused multiply-adds) and spend
 * fewer instructions than the generic loops (vscalef, vgetexp/vgetmant,
 * masked selects; counts in doc/options.md). One form: its errors are
 * within the bounds of both `math` forms (derived in vexp512.h and
 * doc/options.md), so it prices the same way for either. As the generic
 * split loops, a thread prices its share in blocks of `span` options in
 * three loops over whole vectors (16 floats, 8 doubles): d1, d2 and K into
 * the block's buffers (in L1); N of the 2 x block d's; the call and the put,
 * out by streaming stores (density=one: two loops, the second the CDFs and
 * the prices with one exponential, tb_bs_v512_one). Each loop's chain per
 * vector is short, so the core overlaps many vectors (one loop over whole
 * prices, about 150 dependent instructions a vector, ran at half the speed
 * on the Zen 4 build machine). A thread's first block ends where the call array reaches a
 * 64-byte boundary, so the later blocks' vectors are aligned; a block's last
 * vector is masked (its lanes past the end read 1, which every primitive
 * takes, and are not stored). */
#define TB_BS_V512(T, SFX, V, M, S, W)                                                             \
  /* d1, d2 and K = X e^(-r T) of a vector of options, as tb_bs_d's libm form. v sqrt T is      \
   * taken as 2^-100 (double 2^-1000) where smaller (a file's v or T near the underflow): the   \
   * estimate's reciprocal of a subnormal overflows, and the quotient's step would make a NaN;   \
   * |d1| is then above 2^100 |num|, where N is 0 or 1 either way. */                           \
  static inline __attribute__((always_inline)) void tb_bs_v512_d_##SFX(                            \
      V s, V x, V t, V r, V v, int fdiv, int fsqrt, V *d1, V *d2, V *k)                            \
  {                                                                                                \
    const V vst = _mm512_max_##S(_mm512_set1_##S((T)(sizeof(T) == 4 ? 0x1p-100 : 0x1p-1000)),     \
                                 _mm512_mul_##S(v, tb_v512_sqrt_##SFX(t, fsqrt)));                 \
    const V a =                                                                                    \
        _mm512_mul_##S(_mm512_fmadd_##S(_mm512_mul_##S(v, _mm512_set1_##S((T)0.5)), v, r), t);     \
    const V num = _mm512_add_##S(tb_v512_log_##SFX(tb_v512_div_##SFX(s, x, fdiv), fdiv), a);       \
    *d1 = tb_v512_div_##SFX(num, vst, fdiv);                                                       \
    *d2 = _mm512_sub_##S(*d1, vst);                                                                \
    *k = _mm512_mul_##S(                                                                           \
        x, tb_v512_exp_##SFX(_mm512_mul_##S(_mm512_sub_##S(_mm512_setzero_##S(), r), t)));         \
  }                                                                                                \
  /* A whole vector by a plain load, a block's last, partial one by a masked load (its             \
   * other lanes 1): masked loads of whole vectors ran at half the speed on the Zen 4              \
   * build machine (2^22 options, one thread). */                                                  \
  static inline __attribute__((always_inline)) V tb_bs_v512_load_##SFX(const T *p, M m, int full)  \
  {                                                                                                \
    return full ? _mm512_loadu_##S(p) : _mm512_mask_loadu_##S(_mm512_set1_##S((T)1), m, p);        \
  }                                                                                                \
  /* Whole aligned vectors by streaming stores, the ends by masked ones. */                        \
  static inline                                                                                    \
      __attribute__((always_inline)) void tb_bs_v512_store_##SFX(T *p, M m, int full, V y)         \
  {                                                                                                \
    if (full && ((uintptr_t)p & 63) == 0)                                                          \
      _mm512_stream_##S(p, y);                                                                     \
    else                                                                                           \
      _mm512_mask_storeu_##S(p, m, y);                                                             \
  }                                                                                                \
  /* The call and the put of a vector of options from d1, d2, K and S with one density           \
   * (density=one): since d1^2 - d2^2 = 2 ln(S / K), S e^(-d1^2/2) = K e^(-d2^2/2), so K times    \
   * N(d2)'s tail is S (C e^(-d1^2/2)) k2 P(k2) (the erfc form: S e^(-d1^2/2) t2 P(t2)), from the    \
   * density of N(d1): one exponential a price fewer, and K does not enter it. Its error            \
   * (doc/options.md, sixth pass; tb_bs_bounds' allowance for it): the density of d2 from d1's      \
   * rounding, relative (v sqrt T) e_d1 + |d2| (e_d2 - e_d1) + u |d1^2 - d2^2| of K's tail. */     \
  static inline __attribute__((always_inline)) void tb_bs_v512_one_##SFX(                          \
      V sv, V d1, V d2, V k, int exact, int ieee, V *call, V *put)                                 \
  {                                                                                                \
    const V one = _mm512_set1_##S((T)1), e1 = tb_v512_dens_##SFX(d1);                              \
    const V dn = exact ? e1 : _mm512_mul_##S(_mm512_set1_##S((T)TB_RSQRT2PI), e1);                 \
    const V g1 = exact ? tb_v512_erfc_g_##SFX(d1, ieee) : tb_v512_poly_g_##SFX(d1, ieee);          \
    const V g2 = exact ? tb_v512_erfc_g_##SFX(d2, ieee) : tb_v512_poly_g_##SFX(d2, ieee);          \
    const V n1 = tb_v512_side_##SFX(d1, _mm512_mul_##S(dn, g1));                                   \
    /* K's tail of N(d2), K N(d2) and K (1 - N(d2)): the tail where d2 <= 0, K less it above */  \
    const V kt = _mm512_mul_##S(_mm512_mul_##S(sv, dn), g2), kr = _mm512_sub_##S(k, kt);           \
    const M pos = _mm512_cmp_##S##_mask(d2, _mm512_setzero_##S(), _CMP_GT_OQ);                     \
    *call = _mm512_fmsub_##S(sv, n1, _mm512_mask_blend_##S(pos, kt, kr));                          \
    *put = _mm512_fnmadd_##S(sv, _mm512_sub_##S(one, n1), _mm512_mask_blend_##S(pos, kr, kt));     \
  }                                                                                                \
  TB_BS_V512_FN4(T, SFX, V, M, S, W, 0, 0)                                                         \
  TB_BS_V512_FN4(T, SFX, V, M, S, W, 1, 0)                                                         \
  TB_BS_V512_FN4(T, SFX, V, M, S, W, 2, 0)                                                         \
  TB_BS_V512_FN4(T, SFX, V, M, S, W, 0, 1)                                                         \
  TB_BS_V512_FN4(T, SFX, V, M, S, W, 1, 1)                                                         \
  TB_BS_V512_FN4(T, SFX, V, M, S, W, 2, 1)                                                         \
  static void (*const tb_bs_v512_##SFX[24])(const tb_bs_t *, void *const *, int64_t, int, int) = { \
      TB_BS_V512_TAB4(SFX, 0, 0), TB_BS_V512_TAB4(SFX, 1, 0), TB_BS_V512_TAB4(SFX, 2, 0),          \
      TB_BS_V512_TAB4(SFX, 0, 1), TB_BS_V512_TAB4(SFX, 1, 1), TB_BS_V512_TAB4(SFX, 2, 1)};
/* The lanes of a block of m options that its vector from option j holds: all W, or the
 * m - j < W at its end. */
#define TB_BS_V512_MASK(M, W, j, m) ((M)((m) - (j) >= (W) ? ~0u : (1u << ((m) - (j))) - 1u))
/* The four loops of a form and density, indexed [vary][exact]. */
#define TB_BS_V512_FN4(T, SFX, V, M, S, W, FORM, ONE)                                              \
  TB_BS_V512_FN(T, SFX, V, M, S, W, FORM, ONE, 0, 0)                                               \
  TB_BS_V512_FN(T, SFX, V, M, S, W, FORM, ONE, 0, 1)                                               \
  TB_BS_V512_FN(T, SFX, V, M, S, W, FORM, ONE, 1, 0)                                               \
  TB_BS_V512_FN(T, SFX, V, M, S, W, FORM, ONE, 1, 1)
#define TB_BS_V512_TAB4(SFX, FORM, ONE)                                                            \
  tb_bs_v512_##SFX##_##FORM##ONE##00, tb_bs_v512_##SFX##_##FORM##ONE##01,                          \
      tb_bs_v512_##SFX##_##FORM##ONE##10, tb_bs_v512_##SFX##_##FORM##ONE##11
/* One pass: FORM where the divisions and square roots go (0: all by the estimates and fused
 * multiply-adds, kernel=avx512; 1: all on the divider, avx512div; 2: the d's three
 * divisions on the divider, the square root and the CDFs' reciprocals by fused
 * multiply-adds, avx512mix), ONE the density parameter (0: two, each CDF its own
 * exponential, in a loop over the 2 x block d's, then the prices; 1: one, the CDFs and the
 * prices in one loop, tb_bs_v512_one), VARY per-option r and v, EXACT the erfc CDF
 * (constants). */
#define TB_BS_V512_FN(T, SFX, V, M, S, W, FORM, ONE, VARY, EXACT)                                    \
  static void tb_bs_v512_##SFX##_##FORM##ONE##VARY##EXACT(                                        \
      const tb_bs_t *b, void *const *buf, int64_t n, int threads, int span)                        \
  {                                                                                                \
    const T *s = buf[b->in.s], *x = buf[b->in.x], *t = buf[b->in.t];                               \
    const T *r = VARY ? buf[b->in.r] : NULL, *v = VARY ? buf[b->in.v] : NULL;                      \
    T *call = buf[b->call], *put = buf[b->put];                                                    \
    const V r0 = _mm512_set1_##S((T)b->in.r0), v0 = _mm512_set1_##S((T)b->in.v0);                  \
    _Pragma("omp parallel num_threads(threads)")                                                   \
    {                                                                                              \
      const V one = _mm512_set1_##S((T)1);                                                         \
      V d[2 * TB_BS_SPAN_MAX / W], k[TB_BS_SPAN_MAX / W];                                          \
      int64_t lo, hi;                                                                              \
      tb_cpu_share(n, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);                      \
      for (int64_t i0 = lo; i0 < hi;) {                                                            \
        /* the block ends on a 64-byte boundary of call, or at hi */                               \
        const uintptr_t end =                                                                      \
            ((uintptr_t)(call + i0) + (uintptr_t)span * sizeof(T)) & ~(uintptr_t)63;               \
        const int64_t e = i0 + (int64_t)((end - (uintptr_t)(call + i0)) / sizeof(T));              \
        const int m = (int)((e < hi ? e : hi) - i0), nv = (m + W - 1) / W;                         \
        for (int j = 0; j < nv; j++) {                                                             \
          const M mk = TB_BS_V512_MASK(M, W, j * W, m);                                            \
          const int64_t i = i0 + j * W;                                                            \
          const int full = m - j * W >= W;                                                         \
          tb_bs_v512_d_##SFX(tb_bs_v512_load_##SFX(s + i, mk, full),                               \
                             tb_bs_v512_load_##SFX(x + i, mk, full),                               \
                             tb_bs_v512_load_##SFX(t + i, mk, full),                               \
                             VARY ? tb_bs_v512_load_##SFX(r + i, mk, full) : r0,                   \
                             VARY ? tb_bs_v512_load_##SFX(v + i, mk, full) : v0, FORM != 0,        \
                             FORM == 1, &d[j], &d[nv + j], &k[j]);                                 \
        }                                                                                          \
        if (!ONE)                                                                                  \
          for (int j = 0; j < 2 * nv; j++)                                                         \
            d[j] = EXACT ? tb_v512_cnd_erfc_##SFX(d[j], FORM == 1)                                 \
                         : tb_v512_cnd_poly_##SFX(d[j], FORM == 1);                                \
        for (int j = 0; j < nv; j++) {                                                             \
          const M mk = TB_BS_V512_MASK(M, W, j * W, m);                                            \
          const int64_t i = i0 + j * W;                                                            \
          const int full = m - j * W >= W;                                                         \
          const V sv = tb_bs_v512_load_##SFX(s + i, mk, full);                                     \
          V c, p;                                                                                  \
          if (ONE) {                                                                               \
            tb_bs_v512_one_##SFX(sv, d[j], d[nv + j], k[j], EXACT, FORM == 1, &c, &p);             \
          } else {                                                                                 \
            const V n1 = d[j], n2 = d[nv + j];                                                     \
            c = _mm512_fmsub_##S(sv, n1, _mm512_mul_##S(k[j], n2));                                \
            p = _mm512_fmsub_##S(k[j], _mm512_sub_##S(one, n2),                                    \
                                 _mm512_mul_##S(sv, _mm512_sub_##S(one, n1)));                     \
          }                                                                                        \
          tb_bs_v512_store_##SFX(call + i, mk, full, c);                                           \
          tb_bs_v512_store_##SFX(put + i, mk, full, p);                                            \
        }                                                                                          \
        i0 += m;                                                                                   \
      }                                                                                            \
      TB_BS_FENCE();                                                                               \
    }                                                                                              \
  }
TB_BS_V512(float, f32, __m512, __mmask16, ps, 16)
TB_BS_V512(double, f64, __m512d, __mmask8, pd, 8)
#undef TB_BS_V512
#undef TB_BS_V512_FN
#undef TB_BS_V512_FN4
#undef TB_BS_V512_TAB4
#undef TB_BS_V512_MASK
#endif

/* The cdf tuning parameter: how the CDFs form their reciprocals (k of the
 * polynomial, t of the exact form's tb_vncdf): by the divider (div) or by
 * fused multiply-adds (rcp: tb_vrcp); or the exact form by libmvec's erfc
 * (libmvec, the polynomial's k by the divider). auto: div in float, rcp in
 * double, as the budget in doc/options.md reasons for Intel's cores. Every
 * choice is held to the same bounds: the reciprocals are within 1 ulp,
 * the CDFs within TB_CND_TWIN_ERR or libmvec's 4 ulps. */
enum { TB_BS_CDF_AUTO, TB_BS_CDF_DIV, TB_BS_CDF_RCP, TB_BS_CDF_MVEC };
/* The kernel tuning parameter: the generic simd loops above (every cdf,
 * stages and span) or, where the build has AVX-512, the explicit 512-bit
 * one (span only), its divisions and square roots by fused multiply-adds
 * (avx512), by the divider (avx512div: where the divider keeps up, as on
 * AMD's cores, fewer instructions), or d1's three divisions by the divider
 * and the rest by fused multiply-adds (avx512mix: the two units share the
 * work where the divider is slow, as on Intel's cores, and the core's
 * second hyperthread runs the other loops beside it). auto takes, where
 * AVX-512 is built, avx512div in both precisions (with one density, the
 * default): the H100 machine's 16-core Xeon, 16 threads, 2^26 options, one
 * run (doc/options.md, "Sixth pass"): float poly avx512div 0.543 of the
 * memory ceiling against generic 0.449 to 0.505 and avx512mix 0.410, erfc
 * 0.455 against generic 0.474 and avx512mix 0.497 (noisy rows); double
 * poly avx512div 0.426 against generic 0.347 and avx512mix 0.416, erfc
 * 0.341 against 0.255 and 0.348. poly is the default CDF, so avx512div. */
enum {
  TB_BS_KERNEL_AUTO,
  TB_BS_KERNEL_GENERIC,
  TB_BS_KERNEL_AVX512,
  TB_BS_KERNEL_AVX512DIV,
  TB_BS_KERNEL_AVX512MIX
};
#if defined(__AVX512F__)
static const char *const tb_bs_kernels[] = {"auto", "generic", "avx512", "avx512div", "avx512mix",
                                            NULL};
#define TB_BS_KERNEL_SWEEP "generic,avx512,avx512div,avx512mix"
#define TB_BS_KERNEL_BEST TB_BS_KERNEL_AVX512DIV
#else
static const char *const tb_bs_kernels[] = {"auto", "generic", NULL};
#define TB_BS_KERNEL_SWEEP "generic"
#define TB_BS_KERNEL_BEST TB_BS_KERNEL_GENERIC
#endif
static const char *const tb_bs_cdfs[] = {"auto", "div", "rcp", "libmvec", NULL};
/* The width parameter: the generic loops' vector width in bits, 512 (the
 * loops above, options_cpu.h's setting) or 256 (blackscholes_w256.c), for
 * the cores that issue 256-bit floating-point operations on two ports and
 * 512-bit ones on one (doc/options.md, fifth pass). Same operations on each
 * option, so the same prices to the bit. */
enum { TB_BS_WIDTH_512, TB_BS_WIDTH_256 };
#if TB_BS_HAVE_W256
static const char *const tb_bs_widths[] = {"512", "256", NULL};
#define TB_BS_WIDTH_SWEEP "512,256"
#else
static const char *const tb_bs_widths[] = {"512", NULL};
#define TB_BS_WIDTH_SWEEP "512"
#endif
/* The stages parameter: a block priced in three loops, one or two (TB_BS_FN). */
static const char *const tb_bs_stages[] = {"split", "fused", "halves", NULL};
/* The density parameter of the explicit kernels: two exponentials a price (each CDF its own
 * density) or one (N(d2)'s from N(d1)'s, tb_bs_v512_one: about 12 vector instructions a
 * vector fewer in float, 18 in double; doc/options.md, sixth pass). auto: one. */
enum { TB_BS_DENSITY_AUTO, TB_BS_DENSITY_TWO, TB_BS_DENSITY_ONE };
static const char *const tb_bs_densities[] = {"auto", "two", "one", NULL};
static const tb_param_def_t tb_bs_omp_tuning[] = {
    {"kernel", "the generic simd loops (cdf, stages, span apply) or the explicit AVX-512 one "
               "(span applies; built with AVX-512 only): avx512 forms its divisions and square "
               "roots by fused multiply-adds, avx512div on the divider, avx512mix d1's "
               "divisions on the divider and the rest by fused multiply-adds; auto: generic in "
               "float, avx512div in double where built",
     TB_PARAM_CHOICE, "auto", 0, 0, tb_bs_kernels, 0, TB_BS_KERNEL_SWEEP},
    {"cdf", "how the CDFs divide: div (the divider), rcp (fused multiply-adds), libmvec (cnd=erfc "
            "by libmvec's erfc); auto: div in float, rcp in double",
     TB_PARAM_CHOICE, "auto", 0, 0, tb_bs_cdfs, 0, "div,rcp,libmvec"},
    {"stages", "how a block of options is priced: split (three loops: d's, CDFs, prices), "
               "fused (one loop: the divisions overlap the CDFs' arithmetic) or halves (two: "
               "d1, d2, K and N(d1); N(d2) and the prices)",
     TB_PARAM_CHOICE, "split", 0, 0, tb_bs_stages, 0, "split,fused,halves"},
    {"span", "options a thread prices per block (the stages' d1, d2 and K in L1 between "
             "the loops; a power of 2)",
     TB_PARAM_INT, "256", 64, TB_BS_SPAN_MAX, NULL, TB_PARAM_POW2, "64,128,256,512,1024,4096"},
    {"width", "the generic loops' vector width in bits: 512 (the build's own where it has no "
              "AVX-512) or 256 (GCC builds with AVX-512 only); the explicit avx512 kernels stay "
              "512-bit and ignore it",
     TB_PARAM_CHOICE, "512", 0, 0, tb_bs_widths, 0, TB_BS_WIDTH_SWEEP},
    {"density", "the explicit avx512 kernels' normal densities a price: two (one exponential "
                "each CDF) or one (N(d2)'s from N(d1)'s by S e^(-d1^2/2) = K e^(-d2^2/2)); the "
                "generic loops ignore it; auto: one",
     TB_PARAM_CHOICE, "auto", 0, 0, tb_bs_densities, 0, "two,one"},
};

static int tb_bs_omp_prepare(tb_ctx_t *ctx)
{
  if (tb_tune(ctx, "kernel")->i == TB_BS_KERNEL_AUTO)
    tb_tune_resolved(ctx, "kernel", TB_BS_KERNEL_BEST);
  if (tb_tune(ctx, "cdf")->i == TB_BS_CDF_AUTO)
    tb_tune_resolved(ctx, "cdf", ctx->p->prec == TB_FLOAT ? TB_BS_CDF_DIV : TB_BS_CDF_RCP);
  if (tb_tune(ctx, "density")->i == TB_BS_DENSITY_AUTO)
    tb_tune_resolved(ctx, "density", TB_BS_DENSITY_ONE);
  return TB_OK;
}

static int tb_bs_omp_run(tb_ctx_t *ctx)
{
  const tb_bs_t *b = ctx->p->priv;
  const int k = 4 * (b->in.r >= 0) + 2 * b->exact + b->fast;
  /* instance 0 takes each precision's own reciprocal, 1 the other one */
  const int dflt = ctx->p->prec == TB_FLOAT ? TB_BS_CDF_DIV : TB_BS_CDF_RCP;
  const int cdf = (int)tb_tune(ctx, "cdf")->i;
  const int inst = cdf == TB_BS_CDF_MVEC ? 2 : cdf != TB_BS_CDF_AUTO && cdf != dflt;
  const int stages = (int)tb_tune(ctx, "stages")->i, span = (int)tb_tune(ctx, "span")->i;
#if defined(__AVX512F__)
  const int tk = (int)tb_tune(ctx, "kernel")->i;
  const int kernel = tk == TB_BS_KERNEL_AUTO ? TB_BS_KERNEL_BEST : tk;
  if (kernel != TB_BS_KERNEL_GENERIC) {
    /* avx512, avx512div, avx512mix: forms 0, 1, 2; density two, one */
    const int form = kernel - TB_BS_KERNEL_AVX512;
    const int one = tb_tune(ctx, "density")->i != TB_BS_DENSITY_TWO;
    const int kv = 12 * one + 4 * form + 2 * (b->in.r >= 0) + b->exact;
    if (ctx->p->prec == TB_FLOAT)
      tb_bs_v512_f32[kv](b, ctx->buf, ctx->p->n, tb_cpu_threads(ctx), span);
    else
      tb_bs_v512_f64[kv](b, ctx->buf, ctx->p->n, tb_cpu_threads(ctx), span);
    return TB_OK;
  }
#endif
  tb_bs_loop_fn *const(*f32)[3][8] = tb_bs_omp_f32, *const(*f64)[3][8] = tb_bs_omp_f64;
#if TB_BS_HAVE_W256
  if (tb_tune(ctx, "width")->i == TB_BS_WIDTH_256) {
    f32 = tb_bs_omp_w256_f32;
    f64 = tb_bs_omp_w256_f64;
  }
#endif
  if (ctx->p->prec == TB_FLOAT)
    f32[inst][stages][k](b, ctx->buf, ctx->p->n, tb_cpu_threads(ctx), span);
  else
    f64[inst][stages][k](b, ctx->buf, ctx->p->n, tb_cpu_threads(ctx), span);
  return TB_OK;
}

TB_VARIANT(tb_bs_omp, "omp", &tb_algo_blackscholes, TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
           0, tb_bs_omp_tuning, TB_COUNT(tb_bs_omp_tuning), tb_bs_omp_prepare, tb_bs_omp_run,
           NULL, NULL,
           "OpenMP parallel for simd over the options (inlined exp, log and CDFs), static "
           "schedule, streaming stores");

TB_VARIANT_LIST(blackscholes, cpu, &tb_bs_omp);

