/* twinbench: the option pricing formulas, one definition for host and device.
 *
 * Like philox.h, this header serves C host code and CUDA device code, so the
 * OpenMP and CUDA twins evaluate the same expressions in the same order (as
 * the 2008 sample compiled one function for both); they differ only in how
 * their math libraries round expf, logf and erfcf, which the verifiers'
 * bounds allow for (4 units in the last place per call). Every formula is
 * instantiated for float (suffix f32) and double (f64).
 *
 * Black-Scholes, with K = X exp(-r T):
 *   d1 = (ln(S/X) + (r + v^2/2) T) / (v sqrt T),  d2 = d1 - v sqrt T,
 *   call = S N(d1) - K N(d2),  put = K (1 - N(d2)) - S (1 - N(d1)).
 * The put is written with 1 - N, as published, so that call - put = S - K
 * holds up to rounding whichever N is used (the verifier checks it apart).
 *
 * Monte Carlo: the terminal price S exp(mu + sig z), mu = (r - v^2/2) T,
 * sig = v sqrt T, with z standard normal from Philox4x32-10 (philox.h) and
 * Box-Muller; a sample is the payoff of one path, or with antithetic
 * variates the mean of the payoffs of z and -z. A Philox block gives one
 * group of normals (four in float, two in double); a group's samples are
 * added in the precision, groups in double (sum and sum of squares) on both
 * backends, and the price and its standard error come from tb_mc_finish. */
#ifndef TB_OPTIONS_MATH_H
#define TB_OPTIONS_MATH_H

#include <math.h>
#include <stdint.h>

#include "philox.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The normal CDF's 5-term polynomial (Hastings; Abramowitz and Stegun
 * 26.2.17): for d >= 0, N(d) = 1 - phi(d) (A1 k + A2 k^2 + ... + A5 k^5) with
 * k = 1 / (1 + K |d|), absolute error below TB_CND_POLY_ERR; N(-d) = 1 - N(d). */
#define TB_CND_K 0.2316419
#define TB_CND_A1 0.31938153
#define TB_CND_A2 -0.356563782
#define TB_CND_A3 1.781477937
#define TB_CND_A4 -1.821255978
#define TB_CND_A5 1.330274429
#define TB_CND_POLY_ERR 7.5e-8
#define TB_RSQRT2PI 0.39894228040143267794 /* 1 / sqrt(2 pi) */
#define TB_SQRT1_2 0.70710678118654752440  /* 1 / sqrt(2) */

/* The Philox stream of the Monte Carlo normals, apart from the streams (1-3)
 * the inputs are generated from. The block counter is (option << 32 | group),
 * so a path's normals depend only on (seed, option, path). */
#define TB_MC_STREAM 0x4D430000u

/* Normals per Philox block: four in float (four 23-bit uniforms), two in
 * double (two 52-bit uniforms from pairs of words). */
#define TB_MC_W_F32 4
#define TB_MC_W_F64 2

/* sin and cos of t in [-pi, pi]. On the device, float uses the hardware's
 * __sincosf, whose absolute error there is below 2^-21.4 (about 6 units of
 * 2^-24), inside the 4 ulps the verifier allows a libm call, in two
 * hardware instructions where the accurate sinf and cosf take a range
 * reduction and two polynomials. */
static inline TB_HD void tb__sincos_f32(float t, float *s, float *c)
{
#if defined(__CUDA_ARCH__)
  __sincosf(t, s, c);
#else
  *s = sinf(t);
  *c = cosf(t);
#endif
}

static inline TB_HD void tb__sincos_f64(double t, double *s, double *c)
{
  *s = sin(t);
  *c = cos(t);
}

/* The formulas for one precision T; SFX names the instance. */
#define TB_OPTIONS_MATH(T, SFX, EXP, LOG, SQRT, ERFC, FABS)                                      \
  /* N(d) by the published polynomial. */                                                        \
  static inline TB_HD T tb_cnd_poly_##SFX(T d)                                                   \
  {                                                                                               \
    const T k = (T)1 / ((T)1 + (T)TB_CND_K * FABS(d));                                            \
    const T poly =                                                                                \
        k * ((T)TB_CND_A1 +                                                                       \
             k * ((T)TB_CND_A2 + k * ((T)TB_CND_A3 + k * ((T)TB_CND_A4 + k * (T)TB_CND_A5))));    \
    const T tail = (T)TB_RSQRT2PI * EXP((T)-0.5 * d * d) * poly;                                  \
    return d > 0 ? (T)1 - tail : tail;                                                            \
  }                                                                                               \
  /* N(d) = erfc(-d / sqrt 2) / 2, exact up to the library's rounding. */                         \
  static inline TB_HD T tb_cnd_erfc_##SFX(T d)                                                   \
  {                                                                                               \
    return (T)0.5 * ERFC(-d * (T)TB_SQRT1_2);                                                     \
  }                                                                                               \
  /* A European call and put; exact selects the erfc-based N (pass a constant). */                \
  static inline TB_HD void tb_bs_price_##SFX(T s, T x, T t, T r, T v, int exact, T *call, T *put) \
  {                                                                                               \
    const T vst = v * SQRT(t);                                                                    \
    const T d1 = (LOG(s / x) + (r + (T)0.5 * v * v) * t) / vst;                                   \
    const T d2 = d1 - vst;                                                                        \
    const T k = x * EXP(-r * t);                                                                  \
    const T n1 = exact ? tb_cnd_erfc_##SFX(d1) : tb_cnd_poly_##SFX(d1);                           \
    const T n2 = exact ? tb_cnd_erfc_##SFX(d2) : tb_cnd_poly_##SFX(d2);                           \
    *call = s * n1 - k * n2;                                                                      \
    *put = k * ((T)1 - n2) - s * ((T)1 - n1);                                                     \
  }                                                                                               \
  /* The per-option constants of the terminal price S exp(mu + sig z). */                        \
  static inline TB_HD void tb_mc_drift_##SFX(T t, T r, T v, T *mu, T *sig)                       \
  {                                                                                               \
    *sig = v * SQRT(t);                                                                           \
    *mu = (r - (T)0.5 * v * v) * t;                                                               \
  }                                                                                               \
  /* One sample: the payoff at z (max(d, 0) as (d + |d|) / 2, exact and without a branch), or  \
   * with anti the mean of the payoffs at z and -z. */                                          \
  static inline TB_HD T tb_mc_sample_##SFX(T s, T x, T mu, T sig, T z, int put, int anti)        \
  {                                                                                               \
    const T st = s * EXP(mu + sig * z);                                                           \
    const T d = put ? x - st : st - x;                                                            \
    T y = (T)0.5 * (d + FABS(d));                                                                 \
    if (anti) {                                                                                   \
      const T st2 = s * EXP(mu - sig * z);                                                        \
      const T d2 = put ? x - st2 : st2 - x;                                                       \
      y = (T)0.5 * (y + (T)0.5 * (d2 + FABS(d2)));                                                \
    }                                                                                             \
    return y;                                                                                     \
  }                                                                                               \
  /* Two standard normals from two uniforms on (0, 1) by Box-Muller, the angle in [-pi, pi]. */  \
  static inline TB_HD void tb_mc_box_muller_##SFX(T u1, T u2, T *z0, T *z1)                      \
  {                                                                                               \
    const T r = SQRT((T)-2 * LOG(u1));                                                            \
    const T t = (T)6.28318530717958647692 * u2 - (T)3.14159265358979323846;                       \
    T sn, cs;                                                                                     \
    tb__sincos_##SFX(t, &sn, &cs);                                                                \
    *z0 = r * cs;                                                                                 \
    *z1 = r * sn;                                                                                 \
  }

TB_OPTIONS_MATH(float, f32, expf, logf, sqrtf, erfcf, fabsf)
TB_OPTIONS_MATH(double, f64, exp, log, sqrt, erfc, fabs)

/* The sum and the sum of squares of some samples. */
typedef struct tb_mc_sum {
  double s1, s2;
} tb_mc_sum_t;

/* The first `count` (at most TB_MC_W_F32) samples of Philox group `group` of
 * an option: its normals are z0..z3 of block (option << 32 | group), in this
 * order; the four samples and their squares are added pairwise in float,
 * then handed on in double. Pass put, anti (and count, for a full group) as
 * constants: each combination is then straight-line code. */
static inline TB_HD tb_mc_sum_t tb_mc_group_f32(uint64_t seed, uint64_t option, uint64_t group,
                                                int count, float s, float x, float mu, float sig,
                                                int put, int anti)
{
  tb_philox4_t w = tb_philox_block(seed, TB_MC_STREAM, (option << 32) | group);
  float z0, z1, z2, z3;
  tb_mc_box_muller_f32(tb_u01_f32(w.v[0]), tb_u01_f32(w.v[1]), &z0, &z1);
  tb_mc_box_muller_f32(tb_u01_f32(w.v[2]), tb_u01_f32(w.v[3]), &z2, &z3);
  const float y0 = tb_mc_sample_f32(s, x, mu, sig, z0, put, anti);
  const float y1 = count > 1 ? tb_mc_sample_f32(s, x, mu, sig, z1, put, anti) : 0.0f;
  const float y2 = count > 2 ? tb_mc_sample_f32(s, x, mu, sig, z2, put, anti) : 0.0f;
  const float y3 = count > 3 ? tb_mc_sample_f32(s, x, mu, sig, z3, put, anti) : 0.0f;
  tb_mc_sum_t r = {(double)((y0 + y1) + (y2 + y3)),
                   (double)((y0 * y0 + y1 * y1) + (y2 * y2 + y3 * y3))};
  return r;
}

/* The same in double: TB_MC_W_F64 normals z0, z1 per group. */
static inline TB_HD tb_mc_sum_t tb_mc_group_f64(uint64_t seed, uint64_t option, uint64_t group,
                                                int count, double s, double x, double mu,
                                                double sig, int put, int anti)
{
  tb_philox4_t w = tb_philox_block(seed, TB_MC_STREAM, (option << 32) | group);
  double z0, z1;
  tb_mc_box_muller_f64(tb_u01_f64(w.v[0], w.v[1]), tb_u01_f64(w.v[2], w.v[3]), &z0, &z1);
  const double y0 = tb_mc_sample_f64(s, x, mu, sig, z0, put, anti);
  const double y1 = count > 1 ? tb_mc_sample_f64(s, x, mu, sig, z1, put, anti) : 0.0;
  tb_mc_sum_t r = {y0 + y1, y0 * y0 + y1 * y1};
  return r;
}

/* The price and standard error from m samples' sum s1 and sum of squares s2,
 * discounted by disc = exp(-r T) (computed in double by the caller). */
static inline TB_HD void tb_mc_finish(double s1, double s2, int64_t m, double disc, double *price,
                                      double *se)
{
  const double mean = s1 / (double)m;
  double var = (s2 - s1 * mean) / (double)(m - 1);
  if (var < 0.0) /* rounding, when every sample is (nearly) the same */
    var = 0.0;
  *price = disc * mean;
  *se = disc * sqrt(var / (double)m);
}

#ifdef __cplusplus
}
#endif
#endif
