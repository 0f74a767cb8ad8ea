/* twinbench: branch-free exp, exp2, log, sin/cos, the reciprocal and the
 * normal CDF for the OpenMP simd loops.
 *
 * libmvec's vector expf, exp2f and logf (vecmath.h) handle every argument a
 * program may pass (NaN, infinities, subnormals, the errno cases) and cost a
 * call per vector with its own range checks; in the Black-Scholes loop that
 * made the twin compute-bound. These functions are plain C arithmetic (IEEE
 * add, multiply, fused multiply-add, integer operations on the bits), with
 * ternaries that GCC turns into min, max and blends, so an `omp simd` loop
 * inlines and vectorizes them: no call, no branch.
 *
 * The contract is the verifiers' one for a libm call: within 4 units in the
 * last place (ulps) of the exact value, for every finite argument:
 *   exp, exp2: where the result is a normal number; a result below the
 *     smallest normal (2^-126 in float, 2^-1022 in double) is 0 or the
 *     correctly scaled subnormal, an absolute error below that smallest
 *     normal (as the GPU's .ftz approximations, which the bounds allow for);
 *     a result above the largest finite number is +inf.
 *   log: for every positive normal argument (log of a ratio of prices).
 *   sincos2pi: sin(2 pi x) and cos(2 pi x) for |x| <= 1/2 (the Box-Muller
 *     angle, in turns).
 * The reciprocal (tb_vrcp: 1 ulp on [1, 2^120]) and the normal CDF
 * (tb_vncdf: a relative bound on its tail that grows with d^2, derived
 * there) have contracts of their own, which the Black-Scholes verifier
 * allows for.
 * tests/test_vexp.c checks this on every float argument and on 10^8 double
 * ones (sincos2pi on every float Monte Carlo angle); the error analysis is
 * in each function's comment.
 *
 * The polynomials were fitted for this project by a Remez exchange (in
 * mpmath, 50 digits) to the relative error on the reduced interval, and
 * their coefficients rounded to the precision; the fit errors below are
 * those of the rounded coefficients. */
#ifndef TB_VEXP_H
#define TB_VEXP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Always inlined: a call would keep the simd loops from vectorizing. */
#define TB_VINLINE static inline __attribute__((always_inline))

TB_VINLINE uint32_t tb__bits_f32(float x)
{
  uint32_t i;
  memcpy(&i, &x, sizeof i);
  return i;
}

TB_VINLINE float tb__from_bits_f32(uint32_t i)
{
  float x;
  memcpy(&x, &i, sizeof x);
  return x;
}

TB_VINLINE uint64_t tb__bits_f64(double x)
{
  uint64_t i;
  memcpy(&i, &x, sizeof i);
  return i;
}

TB_VINLINE double tb__from_bits_f64(uint64_t i)
{
  double x;
  memcpy(&x, &i, sizeof x);
  return x;
}

/* The reduction of exp and exp2, x = k + f (in units of ln 2 for exp):
 *   k = round(y - 1/2 + TB_VEXP_SLACK), y = x log2(e) (exp) or x (exp2),
 * rounded by adding and subtracting 1.5 2^23 (2^52), which leaves k in the
 * low bits of the sum. That is floor(y) except where y lies within the
 * slack above an integer, so f is in [-SLACK - rounding, 1), and the scale
 * 2^k is built from k + 127 (1023) as an exponent field: 1 to 254 a normal
 * power of 2, 0 the number 0. Three clamps of x (TB_VEXP_CLAMP) keep k and
 * f in range without a branch:
 *   below, x >= LO, where k = -127 (-1023): the scale, and the result, is 0.
 *     k = -127 only where y < -126 (the slack outweighs the rounding of y),
 *     so only results below 2^-126 are flushed; k = -126 results (f < 0
 *     makes some subnormal) are the product p 2^-126, rounded once.
 *   above, k from x up to HIK only, so k <= 127 (1023); f from x up to HIR,
 *     a little past the overflow threshold, so that f reaches 1.1 at most
 *     and p 2^127 rounds to +inf exactly when the true result overflows.
 * The polynomial p(f) ~ e^f (2^f) is fitted on [-0.002, 0.78] for exp (f up
 * to HIR - 127 ln 2) and [-0.003, 1.12] for exp2. A NaN argument gives a
 * number (the clamps order its bits as those of a large one): the callers'
 * other terms carry a NaN through. */
#define TB_VEXP_SLACK 0x1p-10
#define TB_VEXP_SHIFT_F32 0x1.8p23f
#define TB_VEXP_SHIFT_F64 0x1.8p52

/* The polynomials' coefficients, highest degree first (Horner's order), for
 * these functions and for the explicit 512-bit kernels (vexp512.h), which
 * evaluate the same polynomials: e^r on the reduced interval (float, then
 * double), and ln's Q (float: ln(1 + f) = f + f^2 Q(f); double: the odd
 * series' R of ln(1 + f) = 2 s + s^3 R(s^2)). */
#define TB_VEXP_P_F32                                                                             \
  {0x1.0b0872p-9f, 0x1.f37276p-8f, 0x1.585d3cp-5f, 0x1.55237ep-3f, 0x1.000172p-1f,                \
   0x1.fffff2p-1f, 1.0f}
#define TB_VEXP_P_F64                                                                             \
  {0x1.a17f88333fb66p-29, 0x1.897d56ac67cb4p-26, 0x1.2acf376a9f6adp-22, 0x1.7193f4e5a3cb1p-19,    \
   0x1.a01ee5d0d097ep-16, 0x1.a019ca2dd59b5p-13, 0x1.6c16c30ff635fp-10, 0x1.11111108fe04ap-7,     \
   0x1.55555555865e8p-5,  0x1.5555555554adcp-3,  0x1.0000000000011p-1, 1.0, 1.0}
#define TB_VLOG_Q_F32                                                                             \
  {-0x1.095828p-3f, 0x1.1ed79cp-3f, -0x1.f24d4cp-4f, 0x1.1ebd38p-3f, -0x1.55a7e8p-3f,             \
   0x1.99d204p-3f,  -0x1.fffe82p-3f, 0x1.555502p-2f, -0.5f}
#define TB_VLOG_Q_F64                                                                             \
  {0x1.2f02e5bc20029p-3, 0x1.39a1fb9b156fdp-3, 0x1.74663c5391248p-3, 0x1.c71c52164c1a9p-3,        \
   0x1.24924941e0c33p-2, 0x1.999999997fee9p-2, 0x1.5555555555592p-1}

/* Horner's rule over a coefficient list c[0..n), highest degree first: the
 * polynomials below. Unrolled in full once inlined with a constant list,
 * or the simd loops around stay scalar. */
TB_VINLINE float tb__horner_f32(float x, const float *c, unsigned n)
{
  float p = c[0];
  _Pragma("GCC unroll 32") for (unsigned i = 1; i < n; i++) p = fmaf(p, x, c[i]);
  return p;
}

TB_VINLINE double tb__horner_f64(double x, const double *c, unsigned n)
{
  double p = c[0];
  _Pragma("GCC unroll 32") for (unsigned i = 1; i < n; i++) p = fma(p, x, c[i]);
  return p;
}

/* The clamps, on the bits as integers: GCC turns a float ternary into a
 * compare and a blend (and at times into branches that stop vectorization),
 * an integer one into a single min. Unsigned, the bits of negative numbers
 * order by magnitude above every positive one, so min(bits, bits(LO)) raises
 * x < LO (and -inf) to LO; signed, the positive ones order by value above
 * every negative one, so min(bits, bits(HI)) lowers x > HI to HI. XK, x up
 * to HIK, gives k; XR, x up to HIR, the reduced argument; W, the float's
 * bits (32 or 64). */
#define TB_VEXP_CLAMP(W, X, LO, HIK, HIR, XK, XR)                                                 \
  do {                                                                                            \
    const uint##W##_t lo_ = tb__bits_f##W(LO), b_ = tb__bits_f##W(X);                             \
    const int##W##_t hk_ = (int##W##_t)tb__bits_f##W(HIK), hr_ = (int##W##_t)tb__bits_f##W(HIR); \
    const int##W##_t c_ = (int##W##_t)(b_ > lo_ ? lo_ : b_);                                      \
    XK = tb__from_bits_f##W((uint##W##_t)(c_ > hk_ ? hk_ : c_));                                  \
    XR = tb__from_bits_f##W((uint##W##_t)(c_ > hr_ ? hr_ : c_));                                  \
  } while (0)

/* The clamps of an exponential of W-bit floats (32 or 64) that may skip
 * its upper ones (NEG: x stays below them, where they do not act: the same
 * bits), so that only the lower one is left; else TB_VEXP_CLAMP. */
#define TB_VEXP_CLAMPS(W, NEG, X, LO, HIK, HIR, XK, XR)                                           \
  do {                                                                                            \
    if (NEG) {                                                                                    \
      const uint##W##_t b_ = tb__bits_f##W(X), lo_ = tb__bits_f##W(LO);                          \
      XK = XR = tb__from_bits_f##W(b_ > lo_ ? lo_ : b_);                                          \
    } else                                                                                        \
      TB_VEXP_CLAMP(W, X, LO, HIK, HIR, XK, XR);                                                  \
  } while (0)

/* e^x in float. Error: the reduction r = x - k ln2_hi is exact where
 * |x| >= 1 (k ln2_hi is a multiple of 2^-21, x of 2^-23, |r| < 1) and rounds
 * once below; the ln2_lo term rounds once (0.5 ulp of r <= 2^-25: a relative
 * 2^-25 of e^r);
 * the fit 2^-27.6; Horner's six fused steps at most 6 roundings of partial
 * sums each smaller than the result, and r's error times p' ~ p, about
 * 3.5u (u = 2^-24) in the worst case; the scaling one more rounding (0.5u,
 * exact unless subnormal). Worst case about 5u = 2.5 ulps; the exhaustive
 * test finds 1 ulp. */
TB_VINLINE float tb__vexp_f32(float x, int neg)
{
  float xk, xr;
  TB_VEXP_CLAMPS(32, neg, x, -88.0f, 88.1f, 88.8f, xk, xr);
  const float t = fmaf(xk, 0x1.715476p+0f, TB_VEXP_SLACK - 0.5f) + TB_VEXP_SHIFT_F32;
  const float k = t - TB_VEXP_SHIFT_F32;
  float r = fmaf(k, -0x1.62e430p-1f, xr);
  r = fmaf(k, 0x1.05c610p-29f, r); /* ln 2 - ln2_hi */
  static const float cp[] = TB_VEXP_P_F32;
  const float p = tb__horner_f32(r, cp, sizeof cp / sizeof *cp);
  /* the low bits of t are k + 2^22; adding 127 and shifting gives 2^k */
  const float s = tb__from_bits_f32((tb__bits_f32(t) + 127u) << 23);
  return p * s;
}

TB_VINLINE float tb_vexp_f32(float x)
{
  return tb__vexp_f32(x, 0);
}

/* The same for arguments below the overflow threshold (x <= 0 for a
 * normal density): two clamps fewer, the rest as above. */
TB_VINLINE float tb_vexp_neg_f32(float x)
{
  return tb__vexp_f32(x, 1);
}

/* 2^x in float: as tb_vexp_f32 with f = x - k exact (Sterbenz: x and k are
 * within a factor 2 or f = x). Error: fit 2^-27.6 and Horner's roundings,
 * the scaling; the exhaustive test finds 1 ulp. */
TB_VINLINE float tb__vexp2_f32(float x, int neg)
{
  float xk, xf;
  TB_VEXP_CLAMPS(32, neg, x, -127.0f, 127.4f, 128.1f, xk, xf);
  /* x + c as a fused multiply-add by 1 (the same sum): written as two adds,
   * GCC evaluates them in double, converting each half vector there and back */
  const float t = fmaf(xk, 1.0f, TB_VEXP_SLACK - 0.5f) + TB_VEXP_SHIFT_F32;
  const float f = xf - (t - TB_VEXP_SHIFT_F32);
  float p = 0x1.da3a24p-13f;
  p = fmaf(p, f, 0x1.3f7beep-10f);
  p = fmaf(p, f, 0x1.3dfdc6p-7f);
  p = fmaf(p, f, 0x1.c66d44p-5f);
  p = fmaf(p, f, 0x1.ebfeb4p-3f);
  p = fmaf(p, f, 0x1.62e426p-1f);
  p = fmaf(p, f, 1.0f);
  const float s = tb__from_bits_f32((tb__bits_f32(t) + 127u) << 23);
  return p * s;
}

TB_VINLINE float tb_vexp2_f32(float x)
{
  return tb__vexp2_f32(x, 0);
}

/* The same for arguments up to 127.4, where the upper clamps do not act
 * (the same bits there; tests/test_vexp.c compares the two). */
TB_VINLINE float tb_vexp2_neg_f32(float x)
{
  return tb__vexp2_f32(x, 1);
}

/* ln x in float, x a positive normal number. x = 2^e m with m in
 * [2/3, 4/3): subtracting the bits of 2/3 from x's leaves e in the exponent
 * field; f = m - 1 in [-1/3, 1/3] is exact (Sterbenz). ln(1 + f) =
 * f + f^2 Q(f), Q of degree 8 fitted to the relative error of the sum
 * (2^-26.6). Error: the fit; f^2 Q is at most 0.2 |ln(1 + f)| with Horner's
 * roundings relative to itself, about 0.5u of the result; the sum with f,
 * then e ln2_lo and e ln2_hi, each a fused operation, so 1.5u (e ln 2 and
 * ln m do not cancel: with e != 0, |ln x| >= ln(4/3)... at least 0.28 and
 * |ln m| <= 0.41). About 2u = 1 ulp worst case; the test finds 1 ulp. */
TB_VINLINE float tb_vlog_f32(float x)
{
  const uint32_t ix = tb__bits_f32(x);
  const int32_t e = (int32_t)(ix - 0x3f2aaaabu) >> 23;
  const float m = tb__from_bits_f32(ix - ((uint32_t)e << 23));
  const float f = m - 1.0f, ef = (float)e;
  static const float cq[] = TB_VLOG_Q_F32;
  const float q = tb__horner_f32(f, cq, sizeof cq / sizeof *cq);
  const float l = fmaf(f * f, q, f);
  return fmaf(ef, 0x1.62e430p-1f, fmaf(ef, -0x1.05c610p-29f, l));
}

/* e^x in double, as tb_vexp_f32 with k in [-1023, 1023] and a polynomial
 * of degree 12 (fit 2^-57.3). Error: the ln2_lo rounding (0.5 ulp of r),
 * Horner's roundings, the scaling: the random test finds 1 ulp. */
TB_VINLINE double tb__vexp_f64(double x, int neg)
{
  double xk, xr;
  TB_VEXP_CLAMPS(64, neg, x, -709.0, 709.1, 709.79, xk, xr);
  const double t = fma(xk, 0x1.71547652b82fep+0, TB_VEXP_SLACK - 0.5) + TB_VEXP_SHIFT_F64;
  const double k = t - TB_VEXP_SHIFT_F64;
  double r = fma(k, -0x1.62e42fefa39efp-1, xr);
  r = fma(k, -0x1.abc9e3b39803fp-56, r);
  static const double cp[] = TB_VEXP_P_F64;
  const double p = tb__horner_f64(r, cp, sizeof cp / sizeof *cp);
  const double s = tb__from_bits_f64((tb__bits_f64(t) + 1023u) << 52);
  return p * s;
}

TB_VINLINE double tb_vexp_f64(double x)
{
  return tb__vexp_f64(x, 0);
}

/* The same for arguments below the overflow threshold (x <= 0 for a
 * normal density): two clamps fewer, the rest as above. */
TB_VINLINE double tb_vexp_neg_f64(double x)
{
  return tb__vexp_f64(x, 1);
}

/* 2^x in double (fit 2^-56.2), f = x - k exact. */
TB_VINLINE double tb__vexp2_f64(double x, int neg)
{
  double xk, xf;
  TB_VEXP_CLAMPS(64, neg, x, -1023.0, 1023.4, 1024.1, xk, xf);
  const double t = fma(xk, 1.0, TB_VEXP_SLACK - 0.5) + TB_VEXP_SHIFT_F64;
  const double f = xf - (t - TB_VEXP_SHIFT_F64);
  double p = 0x1.488cd99da55dap-35;
  p = fma(p, f, 0x1.bef187124b43dp-32);
  p = fma(p, f, 0x1.e9945746261d3p-28);
  p = fma(p, f, 0x1.b4cd826e5af88p-24);
  p = fma(p, f, 0x1.62c44ee2141f0p-20);
  p = fma(p, f, 0x1.ffcbb7e48b7a3p-17);
  p = fma(p, f, 0x1.4309146fee5d2p-13);
  p = fma(p, f, 0x1.5d87fe6e2a657p-10);
  p = fma(p, f, 0x1.3b2ab6fbd345dp-7);
  p = fma(p, f, 0x1.c6b08d7049241p-5);
  p = fma(p, f, 0x1.ebfbdff82c5b1p-3);
  p = fma(p, f, 0x1.62e42fefa39efp-1);
  p = fma(p, f, 1.0);
  const double s = tb__from_bits_f64((tb__bits_f64(t) + 1023u) << 52);
  return p * s;
}

TB_VINLINE double tb_vexp2_f64(double x)
{
  return tb__vexp2_f64(x, 0);
}

/* The same for arguments up to 1023.4 (the same bits there). */
TB_VINLINE double tb_vexp2_neg_f64(double x)
{
  return tb__vexp2_f64(x, 1);
}

/* 1 / a in float and double for a in [1, 2^120] (larger arguments, +inf
 * among them, are taken as 2^120: their reciprocal is below 2^-120 and
 * every caller's product with it underflows or vanishes beside 1). The
 * dividers of Intel's cores issue a 512-bit division every 10 (float) or 16
 * (double) cycles, against two fused multiply-adds per cycle; these are
 * eight and eleven vector operations on the FMA ports. y0 = the bits of
 * MAGIC - bits(a) is within 0.0506 of 1 / a (relative, for every mantissa:
 * the constant minimizes that, found by a scan); each cubic step
 * e = 1 - a y, y' = y + y (e + e^2) gives a y' = 1 - e^3, so the error
 * goes 0.0506 -> 1.3e-4 -> 2.1e-12 (float: two steps) -> 9.8e-36
 * (double: three). e is formed by a fused multiply-add (a y exact inside
 * it, then one rounding of a number below 0.06: a relative u of e, which
 * changes y by u e y), so every step but
 * the last is exact up to terms below 2^-40 relative, and the last rounds
 * once: |y - 1 / a| <= 0.5 ulp(1 / a) + 2.1e-12 (float) or + 9.8e-36
 * (double) relative, below u (1 + 2^-14) relative (u = 2^-24, 2^-53). The
 * test checks every float in [1, 2), every 7th in [2^-10, 2^120] and 10^7
 * random doubles in [1, 2^120): at most 1 ulp (it finds 0.5). */
#define TB_VRCP(T, SFX, UT, FMA, MAGIC, CLAMP, STEPS)                                             \
  TB_VINLINE T tb_vrcp_##SFX(T a)                                                                 \
  {                                                                                               \
    /* the clamp on the bits, an integer min (see TB_VEXP_CLAMP) */                               \
    const UT b = tb__bits_##SFX(a), bc = b < (UT)(CLAMP) ? b : (UT)(CLAMP);                       \
    const T c = tb__from_bits_##SFX(bc);                                                          \
    T y = tb__from_bits_##SFX((UT)(MAGIC)-bc);                                                    \
    _Pragma("GCC unroll 4") for (int i = 0; i < STEPS; i++)                                       \
    {                                                                                             \
      const T e = FMA(-c, y, (T)1);                                                               \
      y = FMA(y, FMA(e, e, e), y);                                                                \
    }                                                                                             \
    return y;                                                                                     \
  }
TB_VRCP(float, f32, uint32_t, fmaf, 0x7ef31200u, 0x7b800000u, 2)
TB_VRCP(double, f64, uint64_t, fma, 0x7fde623e00000000u, 0x4770000000000000u, 3)
#undef TB_VRCP

/* ln x in double, x a positive normal number: x = 2^e m, m in
 * [sqrt(1/2), sqrt 2), f = m - 1, and ln(1 + f) = 2 atanh s with
 * s = f / (2 + f) in [-0.172, 0.172]: 2 s + s^3 R(s^2), R of degree 6
 * (fit 2^-59.3). Error: 2 + f and the division round (s off by 1.5u at
 * most, the result by as much), the odd series' sum one rounding, e ln 2
 * as in float: about 3u = 1.5 ulps worst case; the test finds 1 ulp. */
TB_VINLINE double tb_vlog_f64(double x)
{
  const uint64_t ix = tb__bits_f64(x);
  const int64_t e = (int64_t)(ix - 0x3fe6a09e667f3bcdu) >> 52;
  const double m = tb__from_bits_f64(ix - ((uint64_t)e << 52));
  const double f = m - 1.0, ef = (double)e;
  const double s = f / (2.0 + f), z = s * s;
  static const double cq[] = TB_VLOG_Q_F64;
  const double q = tb__horner_f64(z, cq, sizeof cq / sizeof *cq);
  const double l = fma(s * z, q, 2.0 * s);
  return fma(ef, 0x1.62e42fefa39efp-1, fma(ef, 0x1.abc9e3b39803fp-56, l));
}

/* The normal CDF N(d) for every finite d, without erfc: with a = |d|
 * (taken as 14 in float, 38.5 in double where it is larger: the tail is
 * then below the smallest normal number, as it is for every larger a),
 * the tail N(-a) = e^(-a^2/2) t P(t), t = 1 / (1 + a/4) in (0, 1], and
 * N(d) = 1 - tail for d > 0. t P(t) is e^(a^2/2) N(-a), smooth in t on
 * [0, 1] (P(0) = 1 / (4 sqrt(2 pi))); P has degree 10 (float) or 24
 * (double), fitted for this project by a Chebyshev interpolation in mpmath
 * (50 digits), evaluated in t by Horner's rule. Relative error of the tail,
 * in units u (2^-24, 2^-53), each term at most (measured on 2000 points of
 * t, or derived):
 *   the fit with rounded coefficients   0.81 (float), 1.1 (double)
 *   t: 1 + a/4 (one fused rounding) and the reciprocal (u: the IEEE
 *     division in float, where Intel's divider keeps up with the loop's
 *     other work, tb_vrcp in double, where it does not; tb_vncdf_rcp_f32
 *     and tb_vncdf_div_f64 take the other one): 2u in t, which
 *     t P(t) turns into (1 + t |P'| / P <= 3.19) x 2u      6.4
 *   Horner's roundings: u sum_k |h_k| t^k / |P|, h_k the partial
 *     sums                                         3.45 (float), 8.93 (double)
 *   t P, the exponential times it                       2
 *   the exponential (the 4 ulps of tb_vexp)               8
 *   its argument -(a a) / 2, a a rounded: a^2 / 2 of it     a^2 / 2
 * so the tail is within (TB_VNCDF_ERR + a^2 / 2) u of itself, and
 * N(d) = 1 - tail adds u absolute. tests/test_vexp.c holds it to that
 * over the whole range the option formulas pass (every float d in
 * [-15, 15], 10^7 random double ones in [-40, 40]), against long double. */
#define TB_VNCDF_ERR 28.0
TB_VINLINE float tb__div1_ieee_f32(float a)
{
  return 1.0f / a;
}

TB_VINLINE double tb__div1_ieee_f64(double a)
{
  return 1.0 / a;
}

#define TB_VNCDF(T, NAME, SFX, UT, FMA, RCP, AMAX, PN)                                            \
  TB_VINLINE T NAME(T d)                                                                          \
  {                                                                                               \
    static const T pn[] = PN;                                                                     \
    /* |d| and the clamp on the bits: an and, an integer min */                                   \
    const UT ab = tb__bits_##SFX(d) & (~(UT)0 >> 1), am = tb__bits_##SFX(AMAX);                   \
    const T a = tb__from_bits_##SFX(ab < am ? ab : am);                                           \
    const T t = RCP(FMA(a, (T)0.25, (T)1));                                                       \
    const T p = tb__horner_##SFX(t, pn, sizeof pn / sizeof *pn);                                  \
    const T tail = tb_vexp_neg_##SFX((a * (T)-0.5) * a) * (t * p);                                \
    return d > 0 ? (T)1 - tail : tail;                                                            \
  }
#define TB_VNCDF_F32                                                                              \
  {-0x1.c12d5cp-12f, 0x1.6c998ap-6f, -0x1.636fc4p-4f, 0x1.a6ce5ep-4f, -0x1.33bacep-5f,            \
   0x1.10146ep-4f, 0x1.dce37ap-5f, 0x1.4ebce8p-4f, 0x1.7eccaep-4f, 0x1.988586p-4f,                \
   0x1.988452p-4f}
#define TB_VNCDF_F64                                                                              \
  {0x1.828df1c3afaadp-10, -0x1.1de19c914ec0dp-6, 0x1.84d79bbc4d273p-4, -0x1.40e494bfc6011p-2,     \
   0x1.64f17afc312cap-1, -0x1.191d71b0060b4p+0, 0x1.41294be331cb8p+0, -0x1.0dcee2dd8ec94p+0,      \
   0x1.52aabf5880cd7p-1, -0x1.4318542872370p-2, 0x1.bd0e97e17782dp-4, -0x1.52262262ec191p-6,      \
   0x1.0dbfbc23e0d76p-8, 0x1.d1c87c3ed3797p-12, -0x1.6972a5cfd9efbp-8, -0x1.a99e0ebcfd2d1p-8,     \
   -0x1.93cd34ede10e5p-9, 0x1.d6f73c3f48140p-8, 0x1.7f60fceed5f1ap-6, 0x1.6242c96723193p-5,       \
   0x1.041c40d16ba64p-4, 0x1.4beb83a2e2e31p-4, 0x1.7efc0e096ba4ap-4, 0x1.9884533d43697p-4,        \
   0x1.9884533d43650p-4}
TB_VNCDF(float, tb_vncdf_f32, f32, uint32_t, fmaf, tb__div1_ieee_f32, 14.0f, TB_VNCDF_F32)
TB_VNCDF(double, tb_vncdf_f64, f64, uint64_t, fma, tb_vrcp_f64, 38.5, TB_VNCDF_F64)
/* The same with the other reciprocal, for machines whose divider says so */
TB_VNCDF(float, tb_vncdf_rcp_f32, f32, uint32_t, fmaf, tb_vrcp_f32, 14.0f, TB_VNCDF_F32)
TB_VNCDF(double, tb_vncdf_div_f64, f64, uint64_t, fma, tb__div1_ieee_f64, 38.5, TB_VNCDF_F64)
#undef TB_VNCDF

/* sin(2 pi x) and cos(2 pi x) for x in [-1/2, 1/2]: the Box-Muller angle
 * 2 pi u2 - pi with x = u2 - 1/2, which is exact for the Monte Carlo
 * uniforms (multiples of 2^-24 in float, 2^-53 in double). Reduction in
 * turns: q = round(4 x) (by adding 1.5 2^23, 1.5 2^52: q, in [-2, 2], in
 * the low bits of the sum) and f = x - q / 4 in [-1/8, 1/8] are exact
 * (Sterbenz: q / 4 and x are within a factor 2 where q != 0), so the angle
 * 2 pi f + q pi / 2 carries no reduction error at all, where the radian
 * form 2 pi u2 - pi rounds by 3 pi u before any reduction. Then
 * sin(2 pi f) = f S(f^2), cos(2 pi f) = C(f^2) on |2 pi f| <= pi / 4, and
 * the quadrant q mod 4 swaps them (odd q) and sets their signs (bit 1 of q
 * for the sine, of q + 1 for the cosine), on the bits: no branch, no
 * blend of floats. Error (u the unit roundoff): the fits (rounded
 * coefficients, absolute, on [-1/8, 1/8]) 0.40u and 0.12u in float, 0.24u
 * and 0.14u in double; Horner's roundings, each of a partial sum at most
 * 2^-2 of the result's size, under 0.5u; the last product or fused add,
 * 0.5 ulp of the result. So about 2 ulps of the result at most, and 2u
 * absolute (the result is below 1); the tests find 1.7 ulps in float (every
 * angle) and 1.5 in double. */
#define TB_VSINCOS2PI(T, SFX, UT, SHIFT, SIGN, PS, PC)                                            \
  TB_VINLINE void tb_vsincos2pi_##SFX(T x, T *s, T *c)                                             \
  {                                                                                               \
    static const T ps[] = PS, pc[] = PC;                                                          \
    const T t = x * (T)4 + SHIFT;                                                                 \
    const UT q = tb__bits_##SFX(t);                                                               \
    const T f = x - (t - SHIFT) * (T)0.25, z = f * f;                                             \
    T sp = ps[0], cp = pc[0];                                                                     \
    for (unsigned i = 1; i < sizeof ps / sizeof *ps; i++)                                         \
      sp = sp * z + ps[i];                                                                        \
    for (unsigned i = 1; i < sizeof pc / sizeof *pc; i++)                                         \
      cp = cp * z + pc[i];                                                                        \
    const UT sb = tb__bits_##SFX(f * sp), cb = tb__bits_##SFX(cp);                                \
    const UT swap = (UT)0 - (q & 1); /* all ones for odd q */                                     \
    const UT sq = (sb & ~swap) | (cb & swap), cq = (cb & ~swap) | (sb & swap);                    \
    *s = tb__from_bits_##SFX(sq ^ ((q & 2) << (SIGN - 1)));                                       \
    *c = tb__from_bits_##SFX(cq ^ (((q + 1) & 2) << (SIGN - 1)));                                 \
  }
#define TB_VSC_F32_S {-0x1.2d9b4p+6f, 0x1.465ec4p+6f, -0x1.4abbbap+5f, 0x1.921fb6p+2f}
#define TB_VSC_F32_C {0x1.d9c2e8p+5f, -0x1.55c57ap+6f, 0x1.03c1dcp+6f, -0x1.3bd3ccp+4f, 1.0f}
#define TB_VSC_F64_S                                                                              \
  {0x1.e3f38399551bfp+1,  -0x1.e30071afc3e59p+3, 0x1.50782fda12d96p+5, -0x1.32d2cce2e5b19p+6,     \
   0x1.466bc677587f8p+6,  -0x1.4abbce625be41p+5, 0x1.921fb54442d18p+2}
#define TB_VSC_F64_C                                                                              \
  {-0x1.b264ba152378ap+0, 0x1.f9cc41140bb60p+2,  -0x1.a6d1ec7906c20p+4, 0x1.e1f5068355e15p+5,     \
   -0x1.55d3c7e3c90f8p+6, 0x1.03c1f081b5aacp+6,  -0x1.3bd3cc9be45dep+4, 1.0}
TB_VSINCOS2PI(float, f32, uint32_t, TB_VEXP_SHIFT_F32, 31, TB_VSC_F32_S, TB_VSC_F32_C)
TB_VSINCOS2PI(double, f64, uint64_t, TB_VEXP_SHIFT_F64, 63, TB_VSC_F64_S, TB_VSC_F64_C)
#undef TB_VSINCOS2PI
#undef TB_VSC_F32_S
#undef TB_VSC_F32_C
#undef TB_VSC_F64_S
#undef TB_VSC_F64_C

#endif
