/* twinbench: the double logarithm and exponential of the fused Monte Carlo
 * kernels, table-driven (after Tang, ACM TOMS 15(2), 1989, and 16(4), 1990).
 *
 * In double the fused kernel is bound by the GPU's double unit, and the
 * library's log and exp are most of its work: by their PTX, about 31 and 18
 * double operations (a reciprocal, a degree-8 polynomial in the log; a
 * reduction to |r| <= ln2 / 2 and a degree-11 polynomial in the exp). With
 * small tables in shared memory (a load issues outside the double unit) the
 * arguments reduce to |r| <= 2^-8 and low-degree polynomials are enough: 11
 * and 10 double operations.
 *
 * exp (tb_mcexp): x = (128 k + j) (ln2 / 128) + r, e^x = 2^k 2^(j/128) e^r,
 * with N = 128 k + j = rint(x 128 / ln2) taken by adding 1.5 2^52 (the low
 * word of the sum is N; a fused multiply-add), r = x - N L_hi - N L_lo
 * (L_hi = ln2 / 128 to 35 bits, so N L_hi is exact for |N| < 2^18, and L_lo
 * the rest), e^r = 1 + q with q = r (1 + r/2 + r^2/6 + r^3/24 + r^4/120),
 * and the result fma(t, q, t), t the table's 2^(j/128) with k added to its
 * exponent (integer operations). Error, relative, u = 2^-53: the table entry
 * is 2^(j/128) rounded once from long double, u (0.5 ulp); r is off by at
 * most 2u |r| (two roundings of fused multiply-adds) + |N| u |L_lo|, which
 * moves e^r by under 0.006u; the polynomial's truncation is below
 * |r|^6 / 720 < 5.5e-19 < 0.005u and its evaluation rounds q by about 2u
 * |q| < 0.006u relative to 1 + q; the final fma rounds once, u. In all under
 * 2.1u. tb_mcexp2 is the same for 2^a (the fast form).
 *
 * log (tb_mclog): u = 2^e m with m in [3/4, 3/2) (integer operations on the
 * bits), then j = the interval of m among 129: m_j = 3/4 + j / 256 below 1,
 * 1 + (j - 64) / 128 from 1 on, each interval reaching half a step either
 * side of m_j (the bits of m minus those of 3/4, plus half a step, shifted),
 * so that m_64 = 1 is an interval's centre; c_j = 1 / m_j rounded and
 * L_j = -ln c_j (long double, rounded) are the tables. Then
 *   ln u = e ln2 + L_j + log1p(r),   r = m c_j - 1 (one fma: within u |r|),
 * |r| <= (1/256) / 1 < 2^-8 (the widest half-step over its centre), and
 * log1p(r) = r + r^2 (c2 + r (c3 + ... + r c7)), c_k = (-1)^(k+1) / k,
 * truncated below |r|^8 / 8 < 2^-67 (2^-59 relative). The sum is
 * (e ln2_hi + L_j) + (e ln2_lo + p) (ln2_hi to 42 bits: e ln2_hi exact),
 * three roundings. Error, relative to |ln u|, to first order:
 * (u |e ln2_hi + L_j| + u |L_j| / 2 + 2u |p| + u |ln u|) / |ln u| (the
 * first fma, the table entry, r's rounding and p's own, the last add).
 * Where j = 64, L_j = 0, r = m - 1 exactly and ln u = p: about 2u. The
 * largest is at the upper end of j = 63 (u just below 1 - 1/512), where
 * L_63 = ln(1 - 1/256) = -0.00391 and p = +0.00196 cancel by half:
 * (0.5 0.00391 + 2 0.00196 + 0.00196) / 0.00196 = 4.0u; with e = -1 the
 * worst is 2.7u (ln u near -0.288 from -0.693 + 0.405). So about 4.1u; the
 * radius sqrt(-2 ln u1) is off by half of it plus the product's and the
 * square root's roundings: inside the 4 ulps (8u) the verifier allows a
 * library log.
 *
 * Both are inside the Monte Carlo verifier's allowance for a library call
 * (src/families/montecarlo.c), so its bounds and the "same paths" tests stand
 * unchanged. tests/test_mcmath.c holds the exponentials to 2.5u against the
 * long double exp and exp2 on the whole range a caller may pass, and the log
 * to 4.5u on random and boundary uniforms of the form (k + 1/2) 2^-52.
 *
 * Range: tb_mcexp and tb_mcexp2 take |x| <= TB_MCEXP_MAX only (so that 2^k t
 * is a normal double and |N| < 2^18); the Monte Carlo kernels check that once
 * per option (|mu| + sig r_max) and take the library's exp otherwise.
 * tb_mclog takes normal numbers in (0, 1), as every Monte Carlo uniform is. */
#ifndef TB_MCMATH_H
#define TB_MCMATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../common/types.h"

#define TB_MCEXP_BITS 7
#define TB_MCEXP_N (1 << TB_MCEXP_BITS) /* exp table entries */
#define TB_MCEXP_MAX 700.0               /* the largest |x| the exp forms take */
#define TB_MCLOG_N 129                   /* log table entries */

/* The tables, each entry rounded once from long double: exp's 2^(j / 128)
 * for j = 0 .. 127, and log's c_j = 1 / m_j and L_j = -ln c_j (of the
 * rounded c_j) for j = 0 .. 128. */
static inline void tb_mcexp_table(double *tab)
{
  for (int j = 0; j < TB_MCEXP_N; j++)
    tab[j] = (double)exp2l((long double)j / TB_MCEXP_N);
}

static inline void tb_mclog_table(double *c, double *l)
{
  for (int j = 0; j < TB_MCLOG_N; j++) {
    const long double m = j < 64 ? 0.75L + j / 256.0L : 1.0L + (j - 64) / 128.0L;
    c[j] = (double)(1.0L / m);
    l[j] = (double)-logl((long double)c[j]);
  }
}

/* The bits of a double and back: the device's register moves, the host's memcpy. */
static TB_INLINE TB_HD int64_t tb__mc_bits(double a)
{
#if defined(__CUDA_ARCH__)
  return __double_as_longlong(a);
#else
  int64_t b;
  memcpy(&b, &a, sizeof b);
  return b;
#endif
}

static TB_INLINE TB_HD double tb__mc_double(int64_t b)
{
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(b);
#else
  double a;
  memcpy(&a, &b, sizeof a);
  return a;
#endif
}

/* 2^(N / 128) (1 + q): 2^k added to the exponent field of the table's
 * 2^(j/128), j = N mod 128 in [0, 127] and k = (N - j) / 128, then one fma. */
static TB_INLINE TB_HD double tb__mcexp_scale(int32_t n, double q, const double *tab)
{
  const int32_t j = n & (TB_MCEXP_N - 1);
  const int64_t k = (n - j) / TB_MCEXP_N;
  const double t = tb__mc_double(tb__mc_bits(tab[j]) + k * ((int64_t)1 << 52));
  return fma(t, q, t);
}

/* 1.5 2^52: added to a number below 2^51 in magnitude, it leaves the number
 * rounded to an integer in the sum's low word. */
#define TB__MCEXP_SHIFT 6755399441055744.0

/* e^x for |x| <= TB_MCEXP_MAX, tab the table of tb_mcexp_table. */
static TB_INLINE TB_HD double tb_mcexp(double x, const double *tab)
{
  const double n1 = fma(x, 184.66496523378731, TB__MCEXP_SHIFT); /* 128 / ln 2 */
  const double nd = n1 - TB__MCEXP_SHIFT;
  double r = fma(nd, -0x1.62e42fefcp-8, x); /* L_hi = ln2 / 128 to 35 bits */
  r = fma(nd, 1.0082281460997769e-13, r);   /* minus L_lo */
  double p = fma(r, 1.0 / 120, 1.0 / 24);
  p = fma(p, r, 1.0 / 6);
  p = fma(p, r, 0.5);
  p = fma(p, r, 1.0);
  return tb__mcexp_scale((int32_t)tb__mc_bits(n1), p * r, tab);
}

/* 2^a for |a| <= TB_MCEXP_MAX (the fast form's exponential): N = rint(128 a)
 * and f = a - N / 128 are exact (the product by 128 is, and f by Sterbenz's
 * lemma), |f| <= 1/256, and 2^f = 1 + q with q = f (c1 + f (c2 + ... + f c5)),
 * c_k = ln2^k / k!, the same Taylor polynomial in r = f ln2 with ln2 folded
 * into its coefficients (their roundings move q by about u |q|): the same
 * error as tb_mcexp, less the reduction's. */
static TB_INLINE TB_HD double tb_mcexp2(double a, const double *tab)
{
  const double n1 = fma(a, (double)TB_MCEXP_N, TB__MCEXP_SHIFT);
  const double f = fma(n1 - TB__MCEXP_SHIFT, -1.0 / TB_MCEXP_N, a);
  double p = fma(f, 1.3333558146428443e-03, 9.618129107628477e-03);
  p = fma(p, f, 5.550410866482158e-02);
  p = fma(p, f, 2.4022650695910072e-01);
  p = fma(p, f, 6.931471805599453e-01);
  return tb__mcexp_scale((int32_t)tb__mc_bits(n1), p * f, tab);
}

/* ln u for a normal u in (0, 1), c and l the tables of tb_mclog_table. The
 * bits of 3/4 are subtracted to find e with m in [3/4, 3/2); j counts steps
 * of 2^45 in the bits of m above 3/4 (1/256 below 1, 1/128 from 1 on: the
 * exponent changes there), offset by half a step. */
static TB_INLINE TB_HD double tb_mclog(double u, const double *c, const double *l)
{
  const int64_t b = tb__mc_bits(u), b34 = 0x3fe8000000000000; /* the bits of 3/4 */
  const int64_t eb = (b - b34) & -((int64_t)1 << 52);         /* e 2^52 */
  const double m = tb__mc_double(b - eb);
  const int j = (int)((b - eb - b34 + ((int64_t)1 << 44)) >> 45);
  const double e = (double)(eb / ((int64_t)1 << 52));
  const double r = fma(m, c[j], -1.0);
  double q = fma(r, 1.0 / 7, -1.0 / 6);
  q = fma(q, r, 1.0 / 5);
  q = fma(q, r, -1.0 / 4);
  q = fma(q, r, 1.0 / 3);
  q = fma(q, r, -1.0 / 2);
  const double p = fma(q, r * r, r);
  return fma(e, 0x1.62e42fefa38p-1, l[j]) + fma(e, 5.497923018708371e-14, p); /* ln2 hi, lo */
}

#endif
