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
 * Both come in two forms, the problem's `math` parameter:
 *   libm: as written above (IEEE divisions, logf, expf, sqrtf);
 *   fast: the same quantities, rearranged to spend fewer instructions: one
 *         reciprocal square root of T gives sqrt T and 1 / (v sqrt T), so
 *         d1 is a product; exponentials are 2^x of pre-scaled arguments
 *         (the constant 1 / sqrt(2 pi) of the CDF folded into the exponent);
 *         the CDF's 1 / (1 + K |d|) is a reciprocal. On the device these
 *         are the hardware's approximations (tb__ex2, tb__rcp, tb__rsqrt:
 *         2 units in the last place), on the host the library's exp2f, 1 / x
 *         and 1 / sqrtf; S / X and 1 / v stay IEEE divisions and ln(S/X)
 *         stays the library's log, whose accuracy d1 needs near the money.
 *         The verifiers derive a bound for each form.
 *
 * Monte Carlo: the terminal price S exp(mu + sig z), mu = (r - v^2/2) T,
 * sig = v sqrt T, with z standard normal from Philox4x32-10 (philox.h) and
 * Box-Muller; a sample is the payoff of one path, or with antithetic
 * variates the mean of the payoffs of z and -z. A Philox block gives one
 * group of normals (four in float, two in double); a group's samples are
 * added in the precision, groups in double (sum and sum of squares) on both
 * backends, and the price and its standard error come from tb_mc_finish.
 * With math=fast, S_T = S 2^(mu' + sig' z) with mu' = mu log2 e and
 * sig' = sig log2 e; in float w = -2 ln u1 comes from tb__neg2ln_f32 and
 * the radius sqrt(w) from tb__sqrt_normal (on the device w / sqrt(w), a
 * reciprocal square root); the float GPU kernels then also add
 * TB_MC_FSUM_GROUPS groups in float before handing them on in double. */
#ifndef TB_OPTIONS_MATH_H
#define TB_OPTIONS_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../common/philox.h"
#include "../common/types.h"

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
#define TB_LOG2E 1.44269504088896340736     /* log2(e) */
/* The CDF's tail in base 2: phi(d) = 2^(TB_CND_EXPC d^2 + TB_CND_EXPC0). */
#define TB_CND_EXPC -0.72134752044448170368  /* -log2(e) / 2 */
#define TB_CND_EXPC0 -1.32574806473615939900 /* log2(1 / sqrt(2 pi)) */
/* The sensitivity of k P(k) (the polynomial tail) to k: the largest of
 * sum i A_i k^i / sum A_i k^i over k in (0, 1], at k = 1. A relative error
 * e in k gives a relative error of at most TB_CND_KSENS e in the tail. */
#define TB_CND_KSENS 3.45
#define TB_SQRT1_2 0.70710678118654752440  /* 1 / sqrt(2) */
/* A twin's own exact-form CDF (the OpenMP twin's tb_vncdf, vexp.h) computes
 * the tail N(-|d|) within (TB_CND_TWIN_ERR + d^2 / 2) u of itself (u the
 * unit roundoff) and N(d) = 1 - tail with one rounding more; the verifier
 * allows that beside the library erfc's 4 ulps. */
#define TB_CND_TWIN_ERR 28.0

/* The Philox stream of the Monte Carlo normals, apart from the streams (1-3)
 * the inputs are generated from. The block counter is (option << 32 | group),
 * so a path's normals depend only on (seed, option, path). */
#define TB_MC_STREAM 0x4D430000u

/* Normals per Philox block: four in float (four 23-bit uniforms), two in
 * double (two 52-bit uniforms from pairs of words). */
#define TB_MC_W_F32 4
#define TB_MC_W_F64 2

/* With math=fast, the float GPU kernels add this many Philox groups (16
 * samples) in float before they convert the sums to double. */
#define TB_MC_FSUM_GROUPS 4

/* max(d, 0), the payoff, exactly: one min/max instruction on the device; on
 * the host (d + |d|) / 2, which is exact for any finite price and, unlike a
 * comparison or fmax (a library call without -ffinite-math-only), leaves the
 * simd loops of the OpenMP twin vectorizable. Both give the same sums. */
static TB_INLINE TB_HD float tb__pos_f32(float d)
{
#if defined(__CUDA_ARCH__)
  return fmaxf(d, 0.0f);
#else
  return 0.5f * (d + fabsf(d));
#endif
}

static TB_INLINE TB_HD double tb__pos_f64(double d)
{
#if defined(__CUDA_ARCH__)
  return fmax(d, 0.0);
#else
  return 0.5 * (d + fabs(d));
#endif
}

/* sin and cos of the Box-Muller angle t = 2 pi u - pi, in [-pi, pi], for a
 * uniform u. On the device, float uses the hardware's __sincosf, whose
 * absolute error there is below 2^-21.4 (about 6 units of 2^-24), inside the
 * 4 ulps the verifier allows a libm call, in two hardware instructions where
 * the accurate sinf and cosf take a range reduction and two polynomials.
 * A twin may instead reduce u - 1/2 in turns (the OpenMP twin: exact,
 * vexp.h's sincos2pi); the verifier's bound holds either way. */
static TB_INLINE TB_HD void tb__sincos_turn_f32(float u, float *s, float *c)
{
  const float t = 6.28318530717958647692f * u - 3.14159265358979323846f;
#if defined(__CUDA_ARCH__)
  __sincosf(t, s, c);
#else
  *s = sinf(t);
  *c = cosf(t);
#endif
}

/* The same in double. The device takes sincospi of t / pi = 2 u - 1, which is
 * exact for our uniforms ((k + 1/2) 2^-52: an integer times 2^-52 below 1 in
 * magnitude), so the angle is not rounded at all and the accurate sine and
 * cosine lose their reduction by pi, the largest part of them in a unit that
 * issues double at half the float rate; sincospi stays within the 4 ulps the
 * verifier allows a libm call. The host keeps sin and cos of t. */
static TB_INLINE TB_HD void tb__sincos_turn_f64(double u, double *s, double *c)
{
#if defined(__CUDA_ARCH__)
  sincospi(2.0 * u - 1.0, s, c);
#else
  const double t = 6.28318530717958647692 * u - 3.14159265358979323846;
  *s = sin(t);
  *c = cos(t);
#endif
}

/* The primitives of the fast formulas. On the device in float: the
 * hardware's approximations, each within 2 units in the last place (4u
 * relative), as the CUDA documentation states for exp2f, rsqrtf and
 * __fdividef, which are these instructions with a scaling for subnormal
 * arguments or results. tb__ex2 and tb__rcp skip that scaling (.ftz): their
 * callers never need a subnormal result (below 2^-126 a result flushes to
 * zero, an absolute error under 2^-126 that the bounds' absolute terms
 * hold). tb__rsqrt keeps it (rsqrtf: T can be anything the input allows);
 * tb__sqrt_normal, sqrt a as a / sqrt(a) (a product more: 4u + u), is for
 * arguments known to be normal numbers. On the host and in double: the
 * library's exp2 and IEEE 1 / x, 1 / sqrt x, sqrt x (in double a fast
 * formula is no cheaper: there is no double hardware approximation). */
#if defined(__CUDA_ARCH__)
#define TB__APPROX_F32(NAME, INSN, HOST)                                                          \
  static TB_INLINE TB_HD float NAME(float a)                                                         \
  {                                                                                               \
    float y;                                                                                      \
    asm(INSN " %0, %1;" : "=f"(y) : "f"(a));                                                      \
    return y;                                                                                     \
  }
#else
#define TB__APPROX_F32(NAME, INSN, HOST)                                                          \
  static TB_INLINE TB_HD float NAME(float a)                                                         \
  {                                                                                               \
    return HOST;                                                                                  \
  }
#endif
TB__APPROX_F32(tb__ex2_f32, "ex2.approx.ftz.f32", exp2f(a))
TB__APPROX_F32(tb__rcp_f32, "rcp.approx.ftz.f32", 1.0f / a)
TB__APPROX_F32(tb__rsqrt_approx_f32, "rsqrt.approx.ftz.f32", 1.0f / sqrtf(a))
#undef TB__APPROX_F32

static TB_INLINE TB_HD float tb__rsqrt_f32(float a)
{
#if defined(__CUDA_ARCH__)
  return rsqrtf(a);
#else
  return 1.0f / sqrtf(a);
#endif
}

static TB_INLINE TB_HD float tb__sqrt_normal_f32(float a)
{
#if defined(__CUDA_ARCH__)
  return a * tb__rsqrt_approx_f32(a);
#else
  return sqrtf(a);
#endif
}

/* -2 ln u for u in [2^-24, 1) (a normal float, as the Monte Carlo uniforms
 * are), the Box-Muller radius squared of the fast float form, in 16
 * instructions where the library's logf takes 25 (it handles subnormal,
 * zero, infinite and NaN arguments, which cannot occur here). u = 2^e m
 * with m in [2/3, 4/3), f = m - 1 exact; -2 ln m = f P(f) with
 * P(f) = -2 + f Q(f), Q a degree-7 polynomial fitted for this project to the
 * relative error of -2 ln(1 + f) / f on [-1/3, 1/3] (2.8e-8 before
 * rounding); the result is e (-2 ln 2) + f P(f). Every operation is an IEEE
 * add, multiply or fused multiply-add, so host and device agree to the bit;
 * the unit test runs it on every one of the 2^23 uniforms and holds it to
 * 4 units in the last place. */
static TB_INLINE TB_HD float tb__neg2ln_f32(float u)
{
  uint32_t iu, im;
#if defined(__CUDA_ARCH__)
  iu = __float_as_uint(u);
#else
  memcpy(&iu, &u, sizeof iu);
#endif
  const uint32_t eb = (iu - 0x3f2aaaabu) & 0xff800000u; /* the exponent e, in place */
  im = iu - eb;
  float m;
#if defined(__CUDA_ARCH__)
  m = __uint_as_float(im);
#else
  memcpy(&m, &im, sizeof m);
#endif
  const float f = m - 1.0f;
  float q = -2.813491523e-01f;
  q = fmaf(q, f, 3.085757792e-01f);
  q = fmaf(q, f, -2.797600627e-01f);
  q = fmaf(q, f, 3.281853199e-01f);
  q = fmaf(q, f, -4.002321959e-01f);
  q = fmaf(q, f, 5.001625419e-01f);
  q = fmaf(q, f, -6.666638255e-01f);
  q = fmaf(q, f, 9.999986291e-01f);
  const float p = fmaf(q, f, -2.0f);
  /* e 2^23 as a float, times -2 ln 2 / 2^23 */
  return fmaf((float)(int32_t)eb, -1.652591664e-07f, f * p);
}

static TB_INLINE TB_HD double tb__neg2ln_f64(double u)
{
  return -2.0 * log(u);
}

static TB_INLINE TB_HD double tb__ex2_f64(double a)
{
  return exp2(a);
}

static TB_INLINE TB_HD double tb__rcp_f64(double a)
{
  return 1.0 / a;
}

static TB_INLINE TB_HD double tb__rsqrt_f64(double a)
{
  return 1.0 / sqrt(a);
}

static TB_INLINE TB_HD double tb__sqrt_normal_f64(double a)
{
  return sqrt(a);
}

/* N(d) = erfc(-d / sqrt 2) / 2 by the library's erfc, and the IEEE 1 / a:
 * the normal CDF and the reciprocal of the polynomial CDF's k that the
 * formulas take (an OpenMP twin passes its own: options_cpu.h). */
static TB_INLINE TB_HD float tb__ncdf_erfc_f32(float d)
{
  return 0.5f * erfcf(-d * (float)TB_SQRT1_2);
}

static TB_INLINE TB_HD double tb__ncdf_erfc_f64(double d)
{
  return 0.5 * erfc(-d * TB_SQRT1_2);
}

static TB_INLINE TB_HD float tb__div1_f32(float a)
{
  return 1.0f / a;
}

static TB_INLINE TB_HD double tb__div1_f64(double a)
{
  return 1.0 / a;
}

/* The formulas for one precision T; SFX names the instance; NCDF is N(d)
 * for the exact CDF, RCP the reciprocal in the libm form's polynomial CDF;
 * EXPN is e^x for x <= 0 (the density's -d^2 / 2), the same function as
 * EXP there, so that a twin may pass one without the clamps above. */
#define TB_OPTIONS_MATH(T, SFX, EXP, EXPN, LOG, SQRT, NCDF, RCP, FABS)                               \
  /* N(d) by the published polynomial. */                                                        \
  static TB_INLINE TB_HD T tb_cnd_poly_##SFX(T d)                                                   \
  {                                                                                               \
    const T k = RCP((T)1 + (T)TB_CND_K * FABS(d));                                                \
    const T poly =                                                                                \
        k * ((T)TB_CND_A1 +                                                                       \
             k * ((T)TB_CND_A2 + k * ((T)TB_CND_A3 + k * ((T)TB_CND_A4 + k * (T)TB_CND_A5))));    \
    const T tail = (T)TB_RSQRT2PI * EXPN((T)-0.5 * d * d) * poly;                                  \
    return d > 0 ? (T)1 - tail : tail;                                                            \
  }                                                                                               \
  /* The same polynomial in the fast form: k by a reciprocal, and                                \
   * phi(d) = 2^(TB_CND_EXPC d^2 + TB_CND_EXPC0) in one exponential. */                          \
  static TB_INLINE TB_HD T tb_cnd_poly_fast_##SFX(T d)                                              \
  {                                                                                               \
    const T k = tb__rcp_##SFX((T)TB_CND_K * FABS(d) + (T)1);                                     \
    const T poly =                                                                                \
        k * ((T)TB_CND_A1 +                                                                       \
             k * ((T)TB_CND_A2 + k * ((T)TB_CND_A3 + k * ((T)TB_CND_A4 + k * (T)TB_CND_A5))));    \
    const T tail = tb__ex2_##SFX(d * ((T)TB_CND_EXPC * d) + (T)TB_CND_EXPC0) * poly;             \
    return d > 0 ? (T)1 - tail : tail;                                                            \
  }                                                                                               \
  /* N(d) exact up to rounding (erfc(-d / sqrt 2) / 2, or a twin's own). */                      \
  static TB_INLINE TB_HD T tb_cnd_erfc_##SFX(T d)                                                   \
  {                                                                                               \
    return NCDF(d);                                                                               \
  }                                                                                               \
  /* The option's d1, d2 and K = X exp(-r T) (with fast, X 2^(-r log2(e) T)): the first half     \
   * of a price, apart so that a twin may evaluate the halves in separate loops. */             \
  static TB_INLINE TB_HD void tb_bs_d_##SFX(T s, T x, T t, T r, T v, int fast, T *d1, T *d2,      \
                                         T *k)                                                    \
  {                                                                                               \
    if (fast) {                                                                                   \
      const T rs = tb__rsqrt_##SFX(t), vst = v * (t * rs);                                        \
      *d1 = (LOG(s / x) + (r + (T)0.5 * v * v) * t) * (rs * ((T)1 / v));                          \
      *d2 = *d1 - vst;                                                                            \
      *k = x * tb__ex2_##SFX(-(r * (T)TB_LOG2E) * t);                                             \
    } else {                                                                                      \
      const T vst = v * SQRT(t);                                                                  \
      *d1 = (LOG(s / x) + (r + (T)0.5 * v * v) * t) / vst;                                        \
      *d2 = *d1 - vst;                                                                            \
      *k = x * EXP(-r * t);                                                                       \
    }                                                                                             \
  }                                                                                               \
  /* N(d) in the form chosen: erfc (exact), the polynomial, or its fast form. */                  \
  static TB_INLINE TB_HD T tb_cnd_##SFX(T d, int exact, int fast)                                   \
  {                                                                                               \
    return exact ? tb_cnd_erfc_##SFX(d) : fast ? tb_cnd_poly_fast_##SFX(d) : tb_cnd_poly_##SFX(d); \
  }                                                                                               \
  /* The call and the put from S, K, N(d1) and N(d2): the second half. */                        \
  static TB_INLINE TB_HD void tb_bs_combine_##SFX(T s, T k, T n1, T n2, T *call, T *put)          \
  {                                                                                               \
    *call = s * n1 - k * n2;                                                                      \
    *put = k * ((T)1 - n2) - s * ((T)1 - n1);                                                     \
  }                                                                                               \
  /* A European call and put; exact selects the erfc-based N, fast the fast form (pass           \
   * constants). */                                                                               \
  static TB_INLINE TB_HD void tb_bs_price_##SFX(T s, T x, T t, T r, T v, int exact, int fast,       \
                                             T *call, T *put)                                     \
  {                                                                                               \
    T d1, d2, k;                                                                                  \
    tb_bs_d_##SFX(s, x, t, r, v, fast, &d1, &d2, &k);                                             \
    tb_bs_combine_##SFX(s, k, tb_cnd_##SFX(d1, exact, fast), tb_cnd_##SFX(d2, exact, fast), call, \
                        put);                                                                     \
  }                                                                                               \
  /* The per-option constants of the terminal price S exp(mu + sig z); with fast, of             \
   * S 2^(mu + sig z) (both scaled by log2 e). */                                                 \
  static TB_INLINE TB_HD void tb_mc_drift_##SFX(T t, T r, T v, int fast, T *mu, T *sig)             \
  {                                                                                               \
    *sig = v * SQRT(t);                                                                           \
    *mu = (r - (T)0.5 * v * v) * t;                                                               \
    if (fast) {                                                                                   \
      *sig *= (T)TB_LOG2E;                                                                        \
      *mu *= (T)TB_LOG2E;                                                                         \
    }                                                                                             \
  }                                                                                               \
  /* One sample: the payoff at z (max(d, 0) as a select, exact), or with anti the mean of       \
   * the payoffs at z and -z. */                                                                  \
  static TB_INLINE TB_HD T tb_mc_sample_##SFX(T s, T x, T mu, T sig, T z, int put, int anti,        \
                                           int fast)                                              \
  {                                                                                               \
    const T st = s * (fast ? tb__ex2_##SFX(mu + sig * z) : EXP(mu + sig * z));                    \
    const T d = put ? x - st : st - x;                                                            \
    T y = tb__pos_##SFX(d);                                                                       \
    if (anti) {                                                                                   \
      const T st2 = s * (fast ? tb__ex2_##SFX(mu - sig * z) : EXP(mu - sig * z));                 \
      const T d2 = put ? x - st2 : st2 - x;                                                       \
      y = (T)0.5 * (y + tb__pos_##SFX(d2));                                                       \
    }                                                                                             \
    return y;                                                                                     \
  }                                                                                               \
  /* Two standard normals from two uniforms on (0, 1) by Box-Muller, the angle in [-pi, pi];     \
   * with fast, w = -2 ln u1 by tb__neg2ln (float) and the radius by tb__sqrt_normal             \
   * (w >= 2^-23 for our uniforms: a normal number). */                                          \
  static TB_INLINE TB_HD void tb_mc_box_muller_##SFX(T u1, T u2, int fast, T *z0, T *z1)           \
  {                                                                                               \
    const T w = fast ? tb__neg2ln_##SFX(u1) : (T)-2 * LOG(u1);                                    \
    const T r = fast ? tb__sqrt_normal_##SFX(w) : SQRT(w);                                        \
    T sn, cs;                                                                                     \
    tb__sincos_turn_##SFX(u2, &sn, &cs);                                                          \
    *z0 = r * cs;                                                                                 \
    *z1 = r * sn;                                                                                 \
  }

TB_OPTIONS_MATH(float, f32, expf, expf, logf, sqrtf, tb__ncdf_erfc_f32, tb__div1_f32, fabsf)
TB_OPTIONS_MATH(double, f64, exp, exp, log, sqrt, tb__ncdf_erfc_f64, tb__div1_f64, fabs)

/* The sum and the sum of squares of some samples. */
typedef struct tb_mc_sum {
  double s1, s2;
} tb_mc_sum_t;

/* The same in float (the sums of a few groups, before they go to double). */
typedef struct tb_mc_fsum {
  float s1, s2;
} tb_mc_fsum_t;

/* A Philox group's normals, in float and in double. */
typedef struct tb_mc_fz {
  float v[TB_MC_W_F32];
} tb_mc_fz_t;

typedef struct tb_mc_dz {
  double v[TB_MC_W_F64];
} tb_mc_dz_t;

/* NAME(seed, option, group, count, ...): WORDS(...) of the option's block
 * for that group. */
#define TB__MC_BY_GROUP(RET, NAME, WORDS, T)                                                      \
  static TB_INLINE TB_HD RET NAME(uint64_t seed, uint64_t option, uint64_t group, int count, T s, \
                                  T x, T mu, T sig, int put, int anti, int fast)                  \
  {                                                                                               \
    return WORDS(tb_philox_block(seed, TB_MC_STREAM, (option << 32) | group), count, s, x, mu,    \
                 sig, put, anti, fast);                                                           \
  }

/* The Monte Carlo groups, for the formulas of suffixes F (float) and D
 * (double), so that a twin that instantiates TB_OPTIONS_MATH with its own
 * primitives (the OpenMP twin) draws its groups the same way.
 *
 * tb_mc_fgroup_F: the first `count` (at most TB_MC_W_F32) samples of Philox
 * group `group` of an option: its normals are z0..z3 of block
 * (option << 32 | group), in this order; the four samples and their squares
 * are added pairwise in float. Pass put, anti, fast (and count, for a full
 * group) as constants: each combination is then straight-line code.
 * tb_mc_group_F: the same group's sums handed on in double. tb_mc_group_D:
 * the same in double, TB_MC_W_F64 normals z0, z1 per group. The *words_*
 * forms take the block's four words, made elsewhere (the OpenMP twin makes
 * a chunk's blocks first, in vectors of 64-bit lanes: vphilox.h). Each is
 * the group's normals (tb_mc_normals_*) followed by their samples' sums
 * (tb_mc_zsum_*, tb_mc_fzsum_F), which the OpenMP twin runs as two loops. */
#define TB_MC_GROUPS(F, D)                                                                        \
  static TB_INLINE TB_HD tb_mc_fz_t tb_mc_normals_##F(tb_philox4_t w, int fast)                 \
  {                                                                                               \
    tb_mc_fz_t z;                                                                                 \
    tb_mc_box_muller_##F(tb_u01_f32(w.v[0]), tb_u01_f32(w.v[1]), fast, &z.v[0], &z.v[1]);         \
    tb_mc_box_muller_##F(tb_u01_f32(w.v[2]), tb_u01_f32(w.v[3]), fast, &z.v[2], &z.v[3]);         \
    return z;                                                                                     \
  }                                                                                               \
  static TB_INLINE TB_HD tb_mc_fsum_t tb_mc_fzsum_##F(tb_mc_fz_t z, int count,                  \
                                                   float s, float x, float mu, float sig,        \
                                                   int put, int anti, int fast)                   \
  {                                                                                               \
    const float y0 = tb_mc_sample_##F(s, x, mu, sig, z.v[0], put, anti, fast);                      \
    const float y1 = count > 1 ? tb_mc_sample_##F(s, x, mu, sig, z.v[1], put, anti, fast) : 0.0f;   \
    const float y2 = count > 2 ? tb_mc_sample_##F(s, x, mu, sig, z.v[2], put, anti, fast) : 0.0f;   \
    const float y3 = count > 3 ? tb_mc_sample_##F(s, x, mu, sig, z.v[3], put, anti, fast) : 0.0f;   \
    tb_mc_fsum_t r = {(y0 + y1) + (y2 + y3), (y0 * y0 + y1 * y1) + (y2 * y2 + y3 * y3)};         \
    return r;                                                                                     \
  }                                                                                               \
  static TB_INLINE TB_HD tb_mc_sum_t tb_mc_zsum_##F(tb_mc_fz_t z, int count,                    \
                                                 float s, float x, float mu, float sig, int put,  \
                                                 int anti, int fast)                              \
  {                                                                                               \
    const tb_mc_fsum_t f = tb_mc_fzsum_##F(z, count, s, x, mu, sig, put, anti, fast);             \
    tb_mc_sum_t r = {(double)f.s1, (double)f.s2};                                                 \
    return r;                                                                                     \
  }                                                                                               \
  static TB_INLINE TB_HD tb_mc_fsum_t tb_mc_fwords_##F(tb_philox4_t w, int count, float s,       \
                                                    float x, float mu, float sig, int put,        \
                                                    int anti, int fast)                           \
  {                                                                                               \
    const tb_mc_fz_t z = tb_mc_normals_##F(w, fast);                                              \
    return tb_mc_fzsum_##F(z, count, s, x, mu, sig, put, anti, fast);                             \
  }                                                                                               \
  TB__MC_BY_GROUP(tb_mc_fsum_t, tb_mc_fgroup_##F, tb_mc_fwords_##F, float)                         \
  static TB_INLINE TB_HD tb_mc_sum_t tb_mc_words_##F(tb_philox4_t w, int count, float s,         \
                                                  float x, float mu, float sig, int put,         \
                                                  int anti, int fast)                             \
  {                                                                                               \
    const tb_mc_fz_t z = tb_mc_normals_##F(w, fast);                                              \
    return tb_mc_zsum_##F(z, count, s, x, mu, sig, put, anti, fast);                              \
  }                                                                                               \
  TB__MC_BY_GROUP(tb_mc_sum_t, tb_mc_group_##F, tb_mc_words_##F, float)                            \
  static TB_INLINE TB_HD tb_mc_dz_t tb_mc_normals_##D(tb_philox4_t w, int fast)                 \
  {                                                                                               \
    tb_mc_dz_t z;                                                                                 \
    tb_mc_box_muller_##D(tb_u01_f64(w.v[0], w.v[1]), tb_u01_f64(w.v[2], w.v[3]), fast, &z.v[0],  \
                         &z.v[1]);                                                                \
    return z;                                                                                     \
  }                                                                                               \
  static TB_INLINE TB_HD tb_mc_sum_t tb_mc_zsum_##D(tb_mc_dz_t z, int count,                    \
                                                 double s, double x, double mu, double sig,      \
                                                 int put, int anti, int fast)                     \
  {                                                                                               \
    const double y0 = tb_mc_sample_##D(s, x, mu, sig, z.v[0], put, anti, fast);                     \
    const double y1 = count > 1 ? tb_mc_sample_##D(s, x, mu, sig, z.v[1], put, anti, fast) : 0.0;   \
    tb_mc_sum_t r = {y0 + y1, y0 * y0 + y1 * y1};                                                 \
    return r;                                                                                     \
  }                                                                                               \
  static TB_INLINE TB_HD tb_mc_sum_t tb_mc_words_##D(tb_philox4_t w, int count, double s,        \
                                                  double x, double mu, double sig, int put,      \
                                                  int anti, int fast)                             \
  {                                                                                               \
    const tb_mc_dz_t z = tb_mc_normals_##D(w, fast);                                              \
    return tb_mc_zsum_##D(z, count, s, x, mu, sig, put, anti, fast);                              \
  }                                                                                               \
  TB__MC_BY_GROUP(tb_mc_sum_t, tb_mc_group_##D, tb_mc_words_##D, double)
TB_MC_GROUPS(f32, f64)

/* The price and standard error from m samples' sum s1 and sum of squares s2,
 * discounted by disc = exp(-r T) (computed in double by the caller). */
static TB_INLINE TB_HD void tb_mc_finish(double s1, double s2, int64_t m, double disc, double *price,
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
