/* twinbench: the option formulas of options_math.h for the OpenMP twins
 * (suffix cpu_f32, cpu_f64), with exp, exp2, log and the Box-Muller sine
 * and cosine from vexp.h: within the 4 ulps that the verifiers allow a libm
 * call or an approximation of the fast form, but inlined into the simd
 * loops, where libmvec's calls with their full range handling made the
 * loops compute-bound. The fast form's other primitives stay IEEE (1 / x,
 * 1 / sqrt x), as the host's f32 and f64 ones, and its -2 ln u is
 * options_math.h's polynomial in float (the device's, to the bit) and
 * -2 tb_vlog in double (the host's is the library's log); the CDF's erfc
 * is libmvec's (vecmath.h). The Box-Muller angle 2 pi u2 - pi is reduced
 * in turns, from u2 - 1/2 (exact for the uniforms of philox.h): no
 * rounding of the angle, where the radian form rounds it by 3 pi u, which
 * the Monte Carlo verifier's bound allows for; so the bound holds these
 * normals too. */
#ifndef TB_OPTIONS_CPU_H
#define TB_OPTIONS_CPU_H

/* GCC keeps 256-bit vectors on Intel cores unless told otherwise (its
 * tuning for them prefers 256 bits); the FMA ceiling the option twins are
 * held to is measured with 512-bit ones, and both are bound by vector
 * arithmetic per byte, so their loops use 512-bit vectors too. The twins
 * include this header first: the functions inlined into their loops must
 * share the setting. A file that defines TB_OPTIONS_CPU_W256 first gets
 * 256-bit vectors instead (the Black-Scholes `width` parameter). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)
#if defined(TB_OPTIONS_CPU_W256)
#pragma GCC target("prefer-vector-width=256")
#else
#pragma GCC target("prefer-vector-width=512")
#endif
#endif

#include "vecmath.h"
#include "vexp.h"

#include "../families/options_math.h"

#define TB_OPTIONS_CPU_PRIMS(T, SFX, BASE, EX2, RCP, NEG2LN)                                      \
  static TB_INLINE T tb__ex2_##SFX(T a)                                                            \
  {                                                                                                \
    return EX2(a);                                                                                 \
  }                                                                                                \
  static TB_INLINE T tb__rcp_##SFX(T a)                                                            \
  {                                                                                                \
    return RCP(a);                                                                                 \
  }                                                                                                \
  static TB_INLINE T tb__rsqrt_##SFX(T a)                                                          \
  {                                                                                                \
    return tb__rsqrt_##BASE(a);                                                                    \
  }                                                                                                \
  static TB_INLINE T tb__pos_##SFX(T d)                                                            \
  {                                                                                                \
    return tb__pos_##BASE(d);                                                                      \
  }                                                                                                \
  static TB_INLINE T tb__sqrt_normal_##SFX(T a)                                                    \
  {                                                                                                \
    return tb__sqrt_normal_##BASE(a);                                                              \
  }                                                                                                \
  static TB_INLINE T tb__neg2ln_##SFX(T u)                                                         \
  {                                                                                                \
    return NEG2LN;                                                                                 \
  }                                                                                                \
  static TB_INLINE void tb__sincos_turn_##SFX(T u2, T *s, T *c)                                    \
  {                                                                                                \
    tb_vsincos2pi_##BASE(u2 - (T)0.5, s, c);                                                       \
  }
/* Three instances a precision, which differ in the CDFs only (the
 * Black-Scholes twin's `cdf` tuning parameter): cpu_ (the default: the
 * inlined CDFs, their reciprocals by the IEEE division in float and by
 * tb_vrcp in double), cpu_x_ (the other reciprocal) and cpu_mvec_ (the
 * exact form by libmvec's erfc, the polynomial's k by the IEEE division);
 * and a fourth, in_cpu_, for the Monte Carlo samples of an option whose
 * exponents mu +- sig z stay at most TB_MC_EXP_IN (tb_mc_exp_in): every
 * exponential by tb_vexp_neg, 2^x by tb_vexp2_neg, which keep only the
 * lower clamp and there give tb_vexp's and tb_vexp2's bits (their upper
 * clamps, at 88.1, 709.1, 127.4 and 1023.4 and above, do not act below
 * them; tests/test_vexp.c compares them), two integer minimums fewer a
 * sample. */
#define TB_OPTIONS_CPU(T, SFX, BASE, EXP, EXPN, EX2, EX2N, LOG, SQRT, FABS, NEG2LN, NCDF, RCP,    \
                       XNCDF, XRCP, DIV)                                                          \
  TB_OPTIONS_CPU_PRIMS(T, SFX, BASE, EX2, RCP, NEG2LN)                                             \
  TB_OPTIONS_MATH(T, SFX, EXP, EXPN, LOG, SQRT, NCDF, RCP, FABS)                                   \
  TB_OPTIONS_CPU_PRIMS(T, x_##SFX, BASE, EX2, XRCP, NEG2LN)                                        \
  TB_OPTIONS_MATH(T, x_##SFX, EXP, EXPN, LOG, SQRT, XNCDF, XRCP, FABS)                             \
  TB_OPTIONS_CPU_PRIMS(T, mvec_##SFX, BASE, EX2, DIV, NEG2LN)                                      \
  TB_OPTIONS_MATH(T, mvec_##SFX, EXP, EXPN, LOG, SQRT, tb__ncdf_erfc_##BASE, DIV, FABS)          \
  TB_OPTIONS_CPU_PRIMS(T, in_##SFX, BASE, EX2N, RCP, NEG2LN)                                       \
  TB_OPTIONS_MATH(T, in_##SFX, EXPN, EXPN, LOG, SQRT, NCDF, RCP, FABS)
TB_OPTIONS_CPU(float, cpu_f32, f32, tb_vexp_f32, tb_vexp_neg_f32, tb_vexp2_f32, tb_vexp2_neg_f32,
               tb_vlog_f32, sqrtf, fabsf, tb__neg2ln_f32(u), tb_vncdf_f32, tb__div1_f32,
               tb_vncdf_rcp_f32, tb_vrcp_f32, tb__div1_f32)
TB_OPTIONS_CPU(double, cpu_f64, f64, tb_vexp_f64, tb_vexp_neg_f64, tb_vexp2_f64, tb_vexp2_neg_f64,
               tb_vlog_f64, sqrt, fabs, -2.0 * tb_vlog_f64(u), tb_vncdf_f64, tb_vrcp_f64,
               tb_vncdf_div_f64, tb__div1_f64, tb__div1_f64)
#undef TB_OPTIONS_CPU
#undef TB_OPTIONS_CPU_PRIMS
TB_MC_GROUPS(cpu_f32, cpu_f64)
TB_MC_GROUPS(in_cpu_f32, in_cpu_f64)

/* The largest exponent of the in_cpu_ instance: below the upper clamps of
 * tb_vexp_f32 (88.1), tb_vexp_f64 (709.1), tb_vexp2_f32 (127.4) and
 * tb_vexp2_f64 (1023.4), with room for the rounding of mu + sig z (a few
 * units of 2^-17 at 127). [fast][double] */
static const double tb_mc_exp_in_max[2][2] = {{88.0, 709.0}, {127.0, 1023.0}};

/* Whether every exponent mu +- sig z of an option stays at most the bound
 * above, for |z| up to tb_box_muller_zmax (no for a NaN); with fast, mu and
 * sig are tb_mc_drift's, scaled by log2 e, and the exponent is 2's. */
static inline int tb_mc_exp_in(double mu, double sig, tb_prec_t prec, int fast)
{
  return mu + fabs(sig) * tb_box_muller_zmax(prec) <= tb_mc_exp_in_max[fast][prec != TB_FLOAT];
}

/* F(ARGS..., a, b, c) for the eight bits a, b, c (000 to 111): the option
 * twins' loops, one per combination of three constant flags. */
#define TB_OPTIONS_EACH8(F, ...)                                                                  \
  F(__VA_ARGS__, 0, 0, 0)                                                                         \
  F(__VA_ARGS__, 0, 0, 1)                                                                         \
  F(__VA_ARGS__, 0, 1, 0)                                                                         \
  F(__VA_ARGS__, 0, 1, 1)                                                                         \
  F(__VA_ARGS__, 1, 0, 0)                                                                         \
  F(__VA_ARGS__, 1, 0, 1)                                                                         \
  F(__VA_ARGS__, 1, 1, 0)                                                                         \
  F(__VA_ARGS__, 1, 1, 1)

/* The Black-Scholes verifier allows the exact-form CDF the error that
 * options_math.h states for a twin's own; tb_vncdf's derivation and test
 * are against that. */
_Static_assert(TB_VNCDF_ERR <= TB_CND_TWIN_ERR, "tb_vncdf within the verifier's allowance");

#endif
