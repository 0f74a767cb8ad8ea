/* twinbench: the Black-Scholes primitives in explicit 512-bit vectors
 * (AVX-512F intrinsics), for the OpenMP twin's `kernel=avx512` loop. Each
 * function works on a whole vector of 16 floats (suffix f32) or 8 doubles
 * (f64) and keeps Intel's divider idle: the divisions and square roots of
 * the formula are formed from the 14-bit estimates vrcp14 and vrsqrt14 and
 * fused multiply-adds, and the exponentials scale by vscalef.
 *
 * The reciprocal, quotient and square root (and the log and CDFs that take
 * them) have a flag `ieee`: 1 puts them on the divider instead (IEEE
 * division and square root, within u), for the kernel's forms that use it.
 *
 * Contracts (u the unit roundoff, 2^-24 or 2^-53; derivations at each
 * function, the sum in doc/options.md, the tests in tests/test_vexp.c):
 *   rcp:  1 / a within (1 + 2^-4) u (float) or (1 + 2^-3) u (double),
 *         for a normal a whose reciprocal is normal (the CDFs clamp their
 *         arguments; the inputs' ranges keep X and v sqrt T there);
 *   div:  a / b within u (1 + 2^-20): the IEEE quotient's u up to a
 *         second-order term;
 *   sqrt: sqrt a within u (1 + 2^-13);
 *   exp, log and the normal CDFs: the same operations as vexp.h's tb_vexp,
 *         tb_vlog, tb_vncdf and options_math.h's polynomial CDF, so their
 *         bounds hold, with the reciprocals and divisions above in place of
 *         the IEEE ones (the margins this takes are stated at each). */
#ifndef TB_VEXP512_H
#define TB_VEXP512_H

#if defined(__AVX512F__)
#include <immintrin.h>

#include "vexp.h"

#include "../families/options_math.h"

/* Rounding to the nearest integer, as the reduction's shift by 1.5 2^23
 * (2^52) does in vexp.h: the same k. */
#define TB_V512_NEAREST (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)

/* Every primitive once for float (V __m512, S ps, 16 lanes) and once for
 * double (__m512d, pd, 8 lanes). RCP_STEPS and SQRT_STEPS are the Newton
 * steps that bring the 14-bit estimates to the precision (derived below),
 * EXP_LO the exponential's lowest argument (below it the result is under
 * half the smallest subnormal number: 0 either way), LN2 the two parts of
 * ln 2 of vexp.h's reduction (EXP_LN2LO added), LOG_LN2LO vexp.h's
 * log's low part (added), MTHR the top of the log's mantissa interval,
 * [2/3, 4/3) in float and [sqrt(1/2), sqrt 2) in double (vexp.h's). */
#define TB_V512(T, SFX, V, M, S, RCP_STEPS, SQRT_STEPS, EXP_LO, LN2HI, EXP_LN2LO, LOG_LN2LO, MTHR, \
                EXPP, LOGQ, NCDFP, AMAX)                                                           \
  /* 1 / a, a and 1 / a normal. y0 = vrcp14(a) is within 2^-14 (Intel's                            \
   * bound); a step e = 1 - a y (one rounding of a number below 2^-14:                             \
   * u |e|), y' = y + y e (one rounding: u) squares the error and adds                             \
   * u (1 + 2^-14): float, one step, 2^-28 + u (1 + 2^-14) < u (1 + 2^-4);                         \
   * double, two steps, 2^-28 (1 + 2^-25), then 2^-56 (1 + 2^-24) +                                \
   * u (1 + 2^-28) < u (1 + 2^-3). */                                                              \
  static inline __attribute__((always_inline)) V tb_v512_rcp_##SFX(V a, int ieee)                  \
  {                                                                                                \
    const V one = _mm512_set1_##S((T)1);                                                           \
    if (ieee)                                                                                      \
      return _mm512_div_##S(one, a);                                                               \
    V y = _mm512_rcp14_##S(a);                                                                     \
    for (int i = 0; i < RCP_STEPS; i++)                                                            \
      y = _mm512_fmadd_##S(y, _mm512_fnmadd_##S(a, y, one), y);                                    \
    return y;                                                                                      \
  }                                                                                                \
  /* a / b with y = 1 / b from tb_v512_rcp (relative error e <= (1 + 2^-3) u):                     \
   * q = a y has relative error w <= e + u; the remainder a - q b (one fused                       \
   * rounding of a number w |a| small) and q' = q + (a - q b) y, one rounding                      \
   * of q (1 - w e) up to w u: q' is the quotient rounded once, after an                           \
   * error w (e + u) <= 4.6 u^2 = u 2^-20 (double; float 4.3 u^2): within                          \
   * u (1 + 2^-20), where the IEEE division is within u. */                                        \
  static inline __attribute__((always_inline)) V tb_v512_div_##SFX(V a, V b, int ieee)             \
  {                                                                                                \
    if (ieee)                                                                                      \
      return _mm512_div_##S(a, b);                                                                 \
    const V y = tb_v512_rcp_##SFX(b, 0), q = _mm512_mul_##S(a, y);                                 \
    return _mm512_fmadd_##S(_mm512_fnmadd_##S(q, b, a), y, q);                                     \
  }                                                                                                \
  /* sqrt a for a normal a > 0: y = vrsqrt14(a) within 2^-14, s = a y and                          \
   * h = y / 2; a step e = a - s^2 (fused: one rounding of e), s' = s + e h. With                  \
   * s = sqrt(a) (1 + w), s' = sqrt(a) (1 - w^2 / 2 - w (2^-14 + u) + ...)                         \
   * rounded once: w goes 2^-14 -> 1.5 2^-28 + u -> ... (float, two steps:                         \
   * u (1 + 2^-13.9); double, four: 2^-28.4, 2^-41.4, u (1 + 2^-2.4),                              \
   * u (1 + 2^-13.7)). */                                                                          \
  static inline __attribute__((always_inline)) V tb_v512_sqrt_##SFX(V a, int ieee)                 \
  {                                                                                                \
    if (ieee)                                                                                      \
      return _mm512_sqrt_##S(a);                                                                   \
    const V y = _mm512_rsqrt14_##S(a), h = _mm512_mul_##S(y, _mm512_set1_##S((T)0.5));             \
    V s = _mm512_mul_##S(a, y);                                                                    \
    for (int i = 0; i < SQRT_STEPS; i++)                                                           \
      s = _mm512_fmadd_##S(_mm512_fnmadd_##S(s, s, a), h, s);                                      \
    return s;                                                                                      \
  }                                                                                                \
  /* Horner's rule over a coefficient list, highest degree first. */                               \
  static inline __attribute__((always_inline)) V tb_v512_horner_##SFX(V x, const T *c, int n)      \
  {                                                                                                \
    V p = _mm512_set1_##S(c[0]);                                                                   \
    _Pragma("GCC unroll 32") for (int i = 1; i < n; i++) p =                                       \
        _mm512_fmadd_##S(p, x, _mm512_set1_##S(c[i]));                                             \
    return p;                                                                                      \
  }                                                                                                \
  /* e^x for x <= 100 (the callers': -r T with |r| <= 1, T <= 100, and the                         \
   * density's -d^2 / 2): vexp.h's reduction and polynomial (k by rounding to                      \
   * the nearest integer, the same k as its shift), scaled by vscalef (p 2^k                       \
   * rounded once, as vexp.h's product, and subnormal or 0 or +inf where the                       \
   * result is), so no clamp but the one below: EXP_LO keeps k and the reduced                     \
   * argument small (the max returns a NaN x). */                                                  \
  static inline __attribute__((always_inline)) V tb_v512_exp_##SFX(V x)                            \
  {                                                                                                \
    static const T cp[] = EXPP;                                                                    \
    x = _mm512_max_##S(_mm512_set1_##S((T)(EXP_LO)), x);                                           \
    const V t = _mm512_fmadd_##S(x, _mm512_set1_##S((T)TB_LOG2E),                                  \
                                 _mm512_set1_##S((T)(TB_VEXP_SLACK - 0.5)));                       \
    const V k = _mm512_roundscale_##S(t, TB_V512_NEAREST);                                         \
    V r = _mm512_fnmadd_##S(k, _mm512_set1_##S(LN2HI), x);                                         \
    r = _mm512_fmadd_##S(k, _mm512_set1_##S(EXP_LN2LO), r);                                        \
    return _mm512_scalef_##S(tb_v512_horner_##SFX(r, cp, (int)(sizeof cp / sizeof *cp)), k);       \
  }                                                                                                \
  /* ln x for a positive normal x, as vexp.h's tb_vlog: x = 2^e m with m in                        \
   * [1, 2) by vgetexp and vgetmant, halved (e + 1) where m >= MTHR, which                         \
   * gives vexp.h's interval and the same f = m - 1 (exact). Float:                                \
   * f + f^2 Q(f); double: 2 s + s^3 R(s^2), s = f / (2 + f) by tb_v512_div                        \
   * (vexp.h's bound takes the division's u; this one's 2^-20 u more is                            \
   * second order). */                                                                             \
  static inline __attribute__((always_inline)) V tb_v512_log_##SFX(V x, int ieee)                  \
  {                                                                                                \
    static const T cq[] = LOGQ;                                                                    \
    const int nq = (int)(sizeof cq / sizeof *cq);                                                  \
    const V one = _mm512_set1_##S((T)1);                                                           \
    V m = _mm512_getmant_##S(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_src);                             \
    V e = _mm512_getexp_##S(x);                                                                    \
    const M big = _mm512_cmp_##S##_mask(m, _mm512_set1_##S(MTHR), _CMP_GE_OQ);                     \
    m = _mm512_mask_mul_##S(m, big, m, _mm512_set1_##S((T)0.5));                                   \
    e = _mm512_mask_add_##S(e, big, e, one);                                                       \
    const V f = _mm512_sub_##S(m, one);                                                            \
    V l;                                                                                           \
    if (sizeof(T) == 4) {                                                                          \
      l = _mm512_fmadd_##S(_mm512_mul_##S(f, f), tb_v512_horner_##SFX(f, cq, nq), f);              \
    } else {                                                                                       \
      const V s = tb_v512_div_##SFX(f, _mm512_add_##S(f, _mm512_set1_##S((T)2)), ieee);            \
      const V z = _mm512_mul_##S(s, s);                                                            \
      l = _mm512_fmadd_##S(_mm512_mul_##S(s, z), tb_v512_horner_##SFX(z, cq, nq),                  \
                           _mm512_add_##S(s, s));                                                  \
    }                                                                                              \
    return _mm512_fmadd_##S(e, _mm512_set1_##S(LN2HI),                                             \
                            _mm512_fmadd_##S(e, _mm512_set1_##S(LOG_LN2LO), l));                   \
  }                                                                                                \
  /* N(d) from its tail: 1 - tail where d > 0 (one masked subtraction). */                         \
  static inline __attribute__((always_inline)) V tb_v512_side_##SFX(V d, V tail)                   \
  {                                                                                                \
    const M pos = _mm512_cmp_##S##_mask(d, _mm512_setzero_##S(), _CMP_GT_OQ);                      \
    return _mm512_mask_sub_##S(tail, pos, _mm512_set1_##S((T)1), tail);                            \
  }                                                                                                \
  /* The normal density's exponential e^(-d^2/2), as both CDFs take it: (d (-1/2)) d, whose      \
   * product with -1/2 is exact, so the argument is d^2 / 2 rounded once (for the erfc form's       \
   * a = |d|, a a is the same number; below the clamp a that large gives 0 either way). */         \
  static inline __attribute__((always_inline)) V tb_v512_dens_##SFX(V d)                           \
  {                                                                                                \
    return tb_v512_exp_##SFX(_mm512_mul_##S(_mm512_mul_##S(d, _mm512_set1_##S((T)-0.5)), d));      \
  }                                                                                                \
  /* The polynomial CDF's tail over its density, k P(k) (the tail is (C e^(-d^2/2)) k P(k),        \
   * C = 1 / sqrt(2 pi)), as options_math.h's tb_cnd_poly (the same operations, |d| clamped at     \
   * 2^60, where the tail is 0 long before): k = 1 / (1 + K |d|) by tb_v512_rcp is off by u        \
   * (fused) + (1 + 2^-3) u, within the 3u that the verifier's bound takes for it. */              \
  static inline __attribute__((always_inline)) V tb_v512_poly_g_##SFX(V d, int ieee)               \
  {                                                                                                \
    static const T ca[] = {(T)TB_CND_A5, (T)TB_CND_A4, (T)TB_CND_A3, (T)TB_CND_A2, (T)TB_CND_A1};  \
    const V a = _mm512_min_##S(_mm512_set1_##S((T)0x1p60), _mm512_abs_##S(d));                     \
    const V k = tb_v512_rcp_##SFX(                                                                 \
        _mm512_fmadd_##S(_mm512_set1_##S((T)TB_CND_K), a, _mm512_set1_##S((T)1)), ieee);           \
    return _mm512_mul_##S(k, tb_v512_horner_##SFX(k, ca, 5));                                      \
  }                                                                                                \
  /* The published polynomial CDF: its density, scaled by C, times k P(k). */                      \
  static inline __attribute__((always_inline)) V tb_v512_cnd_poly_##SFX(V d, int ieee)             \
  {                                                                                                \
    const V cd = _mm512_mul_##S(_mm512_set1_##S((T)TB_RSQRT2PI), tb_v512_dens_##SFX(d));           \
    return tb_v512_side_##SFX(d, _mm512_mul_##S(cd, tb_v512_poly_g_##SFX(d, ieee)));               \
  }                                                                                                \
  /* The exact-form CDF's tail over its density, t P(t), as vexp.h's tb_vncdf: t = 1 / (1 + a/4)  \
   * by tb_v512_rcp, off by (2 + 2^-3) u where tb_vncdf's is 2u: times its 3.19 that adds 0.4u      \
   * to the tail's 26.4u (double; float 0.2u to 20.7u), within TB_VNCDF_ERR (28). */              \
  static inline __attribute__((always_inline)) V tb_v512_erfc_g_##SFX(V d, int ieee)               \
  {                                                                                                \
    static const T pn[] = NCDFP;                                                                   \
    const V a = _mm512_min_##S(_mm512_set1_##S(AMAX), _mm512_abs_##S(d));                          \
    const V t = tb_v512_rcp_##SFX(                                                                 \
        _mm512_fmadd_##S(a, _mm512_set1_##S((T)0.25), _mm512_set1_##S((T)1)), ieee);               \
    return _mm512_mul_##S(t, tb_v512_horner_##SFX(t, pn, (int)(sizeof pn / sizeof *pn)));          \
  }                                                                                                \
  /* The exact-form CDF: its density (of the clamped a, as tb_vncdf) times t P(t). */              \
  static inline __attribute__((always_inline)) V tb_v512_cnd_erfc_##SFX(V d, int ieee)             \
  {                                                                                                \
    const V a = _mm512_min_##S(_mm512_set1_##S(AMAX), _mm512_abs_##S(d));                          \
    return tb_v512_side_##SFX(d, _mm512_mul_##S(tb_v512_dens_##SFX(a), tb_v512_erfc_g_##SFX(d, ieee))); \
  }
TB_V512(float, f32, __m512, __mmask16, ps, 1, 2, -104.0f, 0x1.62e430p-1f, 0x1.05c610p-29f,
        -0x1.05c610p-29f, 0x1.555556p+0f, TB_VEXP_P_F32, TB_VLOG_Q_F32, TB_VNCDF_F32, 14.0f)
TB_V512(double, f64, __m512d, __mmask8, pd, 2, 4, -745.5, 0x1.62e42fefa39efp-1,
        -0x1.abc9e3b39803fp-56, 0x1.abc9e3b39803fp-56, 0x1.6a09e667f3bcdp+0, TB_VEXP_P_F64,
        TB_VLOG_Q_F64, TB_VNCDF_F64, 38.5)
#undef TB_V512

#endif
#endif
