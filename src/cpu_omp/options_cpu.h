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
 * share the setting. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)
#pragma GCC target("prefer-vector-width=512")
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
TB_OPTIONS_CPU_PRIMS(float, cpu_f32, f32, tb_vexp2_f32, tb__div1_f32, tb__neg2ln_f32(u))
TB_OPTIONS_CPU_PRIMS(double, cpu_f64, f64, tb_vexp2_f64, tb_vrcp_f64, -2.0 * tb_vlog_f64(u))
#undef TB_OPTIONS_CPU_PRIMS
TB_OPTIONS_MATH(float, cpu_f32, tb_vexp_f32, tb_vlog_f32, sqrtf, tb_vncdf_f32, tb__div1_f32, fabsf)
TB_OPTIONS_MATH(double, cpu_f64, tb_vexp_f64, tb_vlog_f64, sqrt, tb_vncdf_f64, tb_vrcp_f64, fabs)
TB_MC_GROUPS(cpu_f32, cpu_f64)

/* The Black-Scholes verifier allows the exact-form CDF the error that
 * options_math.h states for a twin's own; tb_vncdf's derivation and test
 * are against that. */
_Static_assert(TB_VNCDF_ERR <= TB_CND_TWIN_ERR, "tb_vncdf within the verifier's allowance");

#endif
