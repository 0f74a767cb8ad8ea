/* The branch-free exp, exp2 and log of cpu_omp/vexp.h against their
 * contract (4 ulps where the result is normal; 0 or a subnormal within the
 * smallest normal below; +inf past the overflow threshold): in float on
 * every argument of the domain, against the double library function; in
 * double on random and boundary arguments, against the long double one.
 * Its sincos2pi (4 ulps, hence 4u absolute) on every float Monte Carlo
 * angle and on 10^8 double ones, against long double. The reciprocal
 * (1 ulp) and the normal CDF (its derived bound, over the whole range the
 * Black-Scholes twin passes it and past the clamps) on sweeps of float
 * arguments and 10^7 random double ones. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_omp/vexp.h"
#include "cpu_omp/vexp512.h"
#include "cpu_omp/vecmath.h"
#include "common/philox.h"
#include "families/options_math.h"
#include "testutil.h"

/* A float result y of the exact value ref (a double, 2^-29 ulps off at
 * most): its error in ulps of the float at ref where ref is normal; below
 * the smallest normal, in units of the smallest normal (allowed: 1), as a
 * negative number so that the two kinds stay apart; 1e9 for a wrong
 * infinity, NaN or sign. Branch-free, so that the sweeps vectorize it. */
static inline double err_f32(float y, double ref)
{
  const double ad = fabs((double)y - ref);
  uint64_t b;
  memcpy(&b, &ref, sizeof b);
  b = (b & 0x7ff0000000000000ull) - (23ull << 52); /* the float's ulp at ref */
  double ulp;
  memcpy(&ulp, &b, sizeof ulp);
  const int same_sign = (y < 0.0f) == (ref < 0.0);
  const double e = ref > (double)FLT_MAX * (1.0 + 0x1p-25) ? (y > FLT_MAX ? 0.0 : 1e9)
                   : fabs(ref) < (double)FLT_MIN         ? (same_sign ? -ad / FLT_MIN : -1e9)
                                                         : ad / ulp;
  return e <= 1e9 ? e : 1e9; /* NaN */
}

static double err_f64(double y, long double ref)
{
  if (ref > (long double)DBL_MAX * (1.0L + 0x1p-54L))
    return isinf(y) && y > 0 ? 0.0 : 1e9;
  if (fabsl(ref) < DBL_MIN)
    return (y < 0.0) == (ref < 0.0L) ? -(double)(fabsl((long double)y - ref) / DBL_MIN) : -1e9;
  if (!isfinite(y))
    return 1e9;
  int e;
  frexpl(ref, &e);
  return (double)(fabsl((long double)y - ref) / ldexpl(1.0L, e - 53));
}

/* The worst error of one function over a range of arguments. */
typedef struct worst {
  double ulps, under; /* largest ulps (normal results), |error| / min normal (below) */
  double at_ulps, at_under;
} worst_t;

static void see(worst_t *w, double e, double x)
{
  if (e >= 0.0 && e > w->ulps) {
    w->ulps = e;
    w->at_ulps = x;
  } else if (e < 0.0 && -e > w->under) {
    w->under = -e;
    w->at_under = x;
  }
}

static void merge(worst_t *w, const worst_t *o)
{
  if (o->ulps > w->ulps) {
    w->ulps = o->ulps;
    w->at_ulps = o->at_ulps;
  }
  if (o->under > w->under) {
    w->under = o->under;
    w->at_under = o->at_under;
  }
}

enum { F_EXP, F_EXP2, F_LOG };
static const char *const names[] = {"exp", "exp2", "log"};

#define CHUNK 4096

/* Every float whose bits lie in [lo, hi), in chunks: the function under test
 * and the double reference in simd loops, the comparison in scalar code. */
static worst_t sweep_f32(int fn, uint32_t lo, uint32_t hi)
{
  worst_t all = {0, 0, 0, 0};
#pragma omp parallel
  {
    worst_t w = {0, 0, 0, 0};
    float x[CHUNK], y[CHUNK];
    double ref[CHUNK];
#pragma omp for schedule(dynamic, 16)
    for (int64_t c = lo; c < (int64_t)hi; c += CHUNK) {
      const int n = (int)((int64_t)hi - c < CHUNK ? (int64_t)hi - c : CHUNK);
      for (int i = 0; i < n; i++) {
        uint32_t b = (uint32_t)c + (uint32_t)i;
        memcpy(&x[i], &b, sizeof b);
      }
      if (fn == F_EXP) {
#pragma omp simd
        for (int i = 0; i < n; i++) {
          y[i] = tb_vexp_f32(x[i]);
          ref[i] = exp((double)x[i]);
        }
      } else if (fn == F_EXP2) {
#pragma omp simd
        for (int i = 0; i < n; i++) {
          y[i] = tb_vexp2_f32(x[i]);
          ref[i] = exp2((double)x[i]);
        }
      } else {
#pragma omp simd
        for (int i = 0; i < n; i++) {
          y[i] = tb_vlog_f32(x[i]);
          ref[i] = log((double)x[i]);
        }
      }
      double hi_e = 0.0, lo_e = 0.0;
#pragma omp simd reduction(max : hi_e) reduction(min : lo_e)
      for (int i = 0; i < n; i++) {
        ref[i] = err_f32(y[i], ref[i]);
        hi_e = ref[i] > hi_e ? ref[i] : hi_e;
        lo_e = ref[i] < lo_e ? ref[i] : lo_e;
      }
      if (hi_e > w.ulps || -lo_e > w.under) /* a new worst: find where */
        for (int i = 0; i < n; i++)
          see(&w, ref[i], x[i]);
    }
#pragma omp critical
    merge(&all, &w);
  }
  return all;
}

/* A 64-bit xorshift-multiply generator (splitmix64). */
static uint64_t mix(uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Argument j of n for a double function: the first few are boundaries,
 * then uniform over the range, then log-uniform magnitudes (small |x|, and
 * for log every binade). */
static double arg_f64(int fn, int64_t j)
{
  static const double exp_edges[] = {-745.2, -745.1, -709.0, -708.4, -708.39, -0.0, 0.0,
                                     0x1p-60, -0x1p-60, 709.78, 709.7827, 709.79, 710.0};
  static const double exp2_edges[] = {-1075.0, -1074.0, -1023.0, -1022.0, -1021.99, 0.0,
                                      -0x1p-60, 0x1p-60, 1023.99, 1024.0, 1024.1};
  static const double log_edges[] = {DBL_MIN, DBL_MAX, 1.0, 0x1.6a09e667f3bcdp-1,
                                     0x1.6a09e667f3bcdp+0, 1.0 + 0x1p-52, 1.0 - 0x1p-53,
                                     2.0, 0.5};
  const uint64_t z = mix((uint64_t)j * 0x9e3779b97f4a7c15ull + (uint64_t)fn);
  const double u = (double)(z >> 11) * 0x1p-53; /* [0, 1) */
  if (fn == F_EXP) {
    if (j < (int64_t)(sizeof exp_edges / sizeof *exp_edges))
      return exp_edges[j];
    if (j & 1)
      return -745.2 + u * (709.79 + 745.2);
    return ldexp(u - 0.5, -(int)(z & 63)); /* small |x| */
  }
  if (fn == F_EXP2) {
    if (j < (int64_t)(sizeof exp2_edges / sizeof *exp2_edges))
      return exp2_edges[j];
    if (j & 1)
      return -1075.0 + u * (1024.1 + 1075.0);
    return ldexp(u - 0.5, -(int)(z & 63));
  }
  if (j < (int64_t)(sizeof log_edges / sizeof *log_edges))
    return log_edges[j];
  if (j & 1) /* near 1 */
    return 1.0 + ldexp(u - 0.5, -(int)(z & 63));
  /* any positive normal: a random exponent and mantissa */
  const uint64_t b = ((1 + (z >> 53) % 2046) << 52) | (mix(z) >> 12);
  double x;
  memcpy(&x, &b, sizeof x);
  return x;
}

static worst_t sweep_f64(int fn, int64_t n)
{
  worst_t all = {0, 0, 0, 0};
#pragma omp parallel
  {
    worst_t w = {0, 0, 0, 0};
    double x[CHUNK], y[CHUNK];
#pragma omp for schedule(dynamic, 4)
    for (int64_t c = 0; c < n; c += CHUNK) {
      const int m = (int)(n - c < CHUNK ? n - c : CHUNK);
      for (int i = 0; i < m; i++)
        x[i] = arg_f64(fn, c + i);
      if (fn == F_EXP) {
#pragma omp simd
        for (int i = 0; i < m; i++)
          y[i] = tb_vexp_f64(x[i]);
      } else if (fn == F_EXP2) {
#pragma omp simd
        for (int i = 0; i < m; i++)
          y[i] = tb_vexp2_f64(x[i]);
      } else {
#pragma omp simd
        for (int i = 0; i < m; i++)
          y[i] = tb_vlog_f64(x[i]);
      }
      for (int i = 0; i < m; i++) {
        const long double xl = x[i];
        const long double ref = fn == F_EXP ? expl(xl) : fn == F_EXP2 ? exp2l(xl) : logl(xl);
        see(&w, err_f64(y[i], ref), x[i]);
      }
    }
#pragma omp critical
    merge(&all, &w);
  }
  return all;
}

/* sin(2 pi x) and cos(2 pi x) in long double: x less its nearest quarter
 * turn (exact), whose sine and cosine on [-pi/4, pi/4] long double's 2 pi
 * holds to 2^-63 relative, then the quarter turns as an exact swap and
 * signs; the direct sinl(2 pi x) would lose that near x = +-1/2. */
static void ref_sincos2pi(long double x, long double *s, long double *c)
{
  const long double q = roundl(4.0L * x), f = x - q / 4.0L;
  const long double a = 6.283185307179586476925286766559L * f;
  const long double sf = sinl(a), cf = cosl(a);
  switch ((int)q & 3) {
  case 0: *s = sf; *c = cf; break;
  case 1: *s = cf; *c = -sf; break;
  case 2: *s = -sf; *c = -cf; break;
  default: *s = -cf; *c = sf; break;
  }
}

/* The worst sine and cosine errors, in ulps, over the float angles
 * x = tb_u01_f32(k 2^9) - 1/2 of every 23-bit k (all the Monte Carlo
 * twin draws). */
static void sweep_sincos_f32(worst_t *ws, worst_t *wc)
{
#pragma omp parallel
  {
    worst_t a = {0, 0, 0, 0}, b = {0, 0, 0, 0};
    float x[CHUNK], s[CHUNK], c[CHUNK];
#pragma omp for schedule(static)
    for (int64_t k0 = 0; k0 < (int64_t)1 << 23; k0 += CHUNK) {
#pragma omp simd
      for (int i = 0; i < CHUNK; i++) {
        x[i] = tb_u01_f32((uint32_t)(k0 + i) << 9) - 0.5f;
        tb_vsincos2pi_f32(x[i], &s[i], &c[i]);
      }
      for (int i = 0; i < CHUNK; i++) {
        long double rs, rc;
        ref_sincos2pi(x[i], &rs, &rc);
        see(&a, err_f32(s[i], (double)rs), x[i]);
        see(&b, err_f32(c[i], (double)rc), x[i]);
      }
    }
#pragma omp critical
    {
      merge(ws, &a);
      merge(wc, &b);
    }
  }
}

/* The same over n double angles tb_u01_f64 - 1/2: both ends, either side
 * of each quarter turn, then random 52-bit uniforms. */
static void sweep_sincos_f64(int64_t n, worst_t *ws, worst_t *wc)
{
  static const double edges[] = {0x1p-53, -0x1p-53, 0.125, -0.125, 0.375, -0.375, 0.25, -0.25};
#pragma omp parallel
  {
    worst_t a = {0, 0, 0, 0}, b = {0, 0, 0, 0};
    double x[CHUNK], s[CHUNK], c[CHUNK];
#pragma omp for schedule(static)
    for (int64_t c0 = 0; c0 < n; c0 += CHUNK) {
      const int m = (int)(n - c0 < CHUNK ? n - c0 : CHUNK);
      for (int i = 0; i < m; i++) {
        const int64_t j = c0 + i, ne = (int64_t)(sizeof edges / sizeof *edges);
        const uint64_t z = mix((uint64_t)j * 0x9e3779b97f4a7c15ull);
        if (j < ne) /* the ends, +-(1/2 - (2j + 1) 2^-53) */
          x[i] = (j & 1 ? -1.0 : 1.0) * (0.5 - 0x1p-53 * (double)(2 * j + 1));
        else if (j < 4 * ne) /* a quarter turn's edge, and one step either side */
          x[i] = edges[j % ne] + (double)(j / ne - 2) * 0x1p-53;
        else
          x[i] = tb_u01_f64((uint32_t)(z >> 32), (uint32_t)z) - 0.5;
      }
#pragma omp simd
      for (int i = 0; i < m; i++)
        tb_vsincos2pi_f64(x[i], &s[i], &c[i]);
      for (int i = 0; i < m; i++) {
        long double rs, rc;
        ref_sincos2pi(x[i], &rs, &rc);
        see(&a, err_f64(s[i], rs), x[i]);
        see(&b, err_f64(c[i], rc), x[i]);
      }
    }
#pragma omp critical
    {
      merge(ws, &a);
      merge(wc, &b);
    }
  }
}

static void report_sincos(const char *prec, worst_t ws, worst_t wc, const char *domain)
{
  printf("%-6s sin(2 pi x) max %.3f ulps (at %.17g), cos(2 pi x) max %.3f ulps (at %.17g) over "
         "%s\n",
         prec, ws.ulps, ws.at_ulps, wc.ulps, wc.at_ulps, domain);
  CHECK(ws.ulps <= 4.0 && ws.under == 0.0, "%s sin(2 pi x): %.3f ulps at %a", prec, ws.ulps,
        ws.at_ulps);
  CHECK(wc.ulps <= 4.0 && wc.under == 0.0, "%s cos(2 pi x): %.3f ulps at %a", prec, wc.ulps,
        wc.at_ulps);
}

/* tb_vrcp against 1 / a: in float on every mantissa at exponent 0 and on
 * every 7th float in [2^-10, 2^120] (as a double, the quotient is exact to
 * 2^-29 ulps), in double on n random arguments, every binade of [1, 2^120]
 * (against the long double quotient); above 2^120 the reciprocal is that
 * of 2^120. Contract: 1 ulp. */
static void test_rcp(int64_t n)
{
  worst_t w = {0, 0, 0, 0}, wd = {0, 0, 0, 0};
#pragma omp parallel
  {
    worst_t a = {0, 0, 0, 0}, b = {0, 0, 0, 0};
    float x[CHUNK], y[CHUNK];
    double xd[CHUNK], yd[CHUNK];
#pragma omp for schedule(dynamic, 16)
    for (int64_t c = 0; c < ((int64_t)1 << 23) + (0x7b800000 - 0x3a800000) / 7; c += CHUNK) {
      for (int i = 0; i < CHUNK; i++) {
        const int64_t j = c + i;
        const int64_t k = j < (1 << 23) ? 0x3f800000 + j : 0x3a800000 + 7 * (j - (1 << 23));
        const uint32_t bits = (uint32_t)(k < 0x7b800000 ? k : 0x7b800000); /* to 2^120 */
        memcpy(&x[i], &bits, sizeof bits);
      }
#pragma omp simd
      for (int i = 0; i < CHUNK; i++)
        y[i] = tb_vrcp_f32(x[i]);
      for (int i = 0; i < CHUNK; i++)
        see(&a, err_f32(y[i], 1.0 / (double)x[i]), x[i]);
    }
#pragma omp for schedule(dynamic, 4)
    for (int64_t c = 0; c < n; c += CHUNK) {
      const int m = (int)(n - c < CHUNK ? n - c : CHUNK);
      for (int i = 0; i < m; i++) {
        const uint64_t z = mix((uint64_t)(c + i) * 0x9e3779b97f4a7c15ull + 7);
        xd[i] = ldexp(1.0 + (double)(z >> 12) * 0x1p-52, (int)((z & 0xfff) % 120));
      }
#pragma omp simd
      for (int i = 0; i < m; i++)
        yd[i] = tb_vrcp_f64(xd[i]);
      for (int i = 0; i < m; i++)
        see(&b, err_f64(yd[i], 1.0L / (long double)xd[i]), xd[i]);
    }
#pragma omp critical
    {
      merge(&w, &a);
      merge(&wd, &b);
    }
  }
  printf("float  rcp  max %.3f ulps (at %.9g) over [1, 2) and every 7th float of [2^-10, 2^120]\n",
         w.ulps, w.at_ulps);
  printf("double rcp  max %.3f ulps (at %.17g) over %lld random doubles in [1, 2^120)\n", wd.ulps,
         wd.at_ulps, (long long)n);
  CHECK(w.ulps <= 1.0 && w.under == 0.0, "float rcp: %.3f ulps at %a", w.ulps, w.at_ulps);
  CHECK(wd.ulps <= 1.0 && wd.under == 0.0, "double rcp: %.3f ulps at %a", wd.ulps, wd.at_ulps);
  CHECK(tb_vrcp_f32(INFINITY) == tb_vrcp_f32(0x1p120f) && tb_vrcp_f32(0x1p120f) == 0x1p-120f,
        "float rcp above 2^120: %a", (double)tb_vrcp_f32(INFINITY));
  CHECK(tb_vrcp_f64(INFINITY) == 0x1p-120, "double rcp of +inf: %a", tb_vrcp_f64(INFINITY));
}

/* The fraction of its bound that a computed N(d) = y uses: the tail
 * (N(-|d|), exact to far below u here) within (TB_VNCDF_ERR + d^2 / 2) u of
 * itself, plus u absolute for d > 0 (1 - tail), plus the smallest normal
 * (a tail below it may flush). ref is the exact N(d), tail the exact
 * N(-|d|). */
static double ncdf_use(double y, long double ref, long double tail, double d, double u,
                       double tiny)
{
  const double bound =
      (double)tail * (TB_VNCDF_ERR + 0.5 * d * d) * u + (d > 0 ? u : 0.0) + tiny;
  const double e = (double)fabsl((long double)y - ref) / bound;
  return e <= 1e9 ? e : 1e9; /* NaN */
}

/* tb_vncdf (both reciprocals) on every 61st float in [-15, 15] (15 is past the float clamp,
 * 14) against the double erfc, and on n random doubles in [-40, 40] (past
 * 38.5) and their edges against long double; prints the largest relative
 * error of the tail (d <= 0) beside the fraction of the bound used. */
static void test_ncdf(int64_t n)
{
  const int64_t nf = 2 * (int64_t)(0x41700000 / 61);
  double use_f = 0.0, use_d = 0.0, at_f = 0.0, at_d = 0.0;
#pragma omp parallel
  {
    double uf = 0.0, ud = 0.0, af = 0.0, ad = 0.0;
    float x[CHUNK], y[CHUNK], y2[CHUNK];
    double xd[CHUNK], yd[CHUNK], yd2[CHUNK];
#pragma omp for schedule(dynamic, 16)
    for (int64_t c = 0; c < nf; c += CHUNK) {
      const int m = (int)(nf - c < CHUNK ? nf - c : CHUNK);
      for (int i = 0; i < m; i++) {
        const int64_t j = c + i;
        const uint32_t bits = (uint32_t)(j / 2) * 61u | (uint32_t)(j & 1) << 31;
        memcpy(&x[i], &bits, sizeof bits);
      }
#pragma omp simd
      for (int i = 0; i < m; i++) {
        y[i] = tb_vncdf_f32(x[i]);
        y2[i] = tb_vncdf_rcp_f32(x[i]);
      }
      for (int i = 0; i < m; i++) {
        const double d = x[i], tail = 0.5 * erfc(fabs(d) * TB_SQRT1_2);
        const long double ref = d > 0 ? 1.0L - tail : tail;
        const double e = fmax(ncdf_use(y[i], ref, tail, d, 0x1p-24, FLT_MIN),
                              ncdf_use(y2[i], ref, tail, d, 0x1p-24, FLT_MIN));
        if (e > uf) {
          uf = e;
          af = d;
        }
      }
    }
#pragma omp for schedule(dynamic, 4)
    for (int64_t c = 0; c < n; c += CHUNK) {
      const int m = (int)(n - c < CHUNK ? n - c : CHUNK);
      for (int i = 0; i < m; i++) {
        static const double edges[] = {0.0, -0.0, 38.5, -38.5, 37.5, -37.5, 1e-300, -1e-300};
        const int64_t j = c + i, ne = (int64_t)(sizeof edges / sizeof *edges);
        const uint64_t z = mix((uint64_t)j * 0x9e3779b97f4a7c15ull + 11);
        xd[i] = j < ne ? edges[j] : (double)(z >> 11) * 0x1p-53 * 80.0 - 40.0;
      }
#pragma omp simd
      for (int i = 0; i < m; i++) {
        yd[i] = tb_vncdf_f64(xd[i]);
        yd2[i] = tb_vncdf_div_f64(xd[i]);
      }
      for (int i = 0; i < m; i++) {
        const double d = xd[i];
        const long double tail = 0.5L * erfcl(fabsl((long double)d) * 0.70710678118654752440L);
        const long double ref = d > 0 ? 1.0L - tail : tail;
        const double e = fmax(ncdf_use(yd[i], ref, tail, d, 0x1p-53, DBL_MIN),
                              ncdf_use(yd2[i], ref, tail, d, 0x1p-53, DBL_MIN));
        if (e > ud) {
          ud = e;
          ad = d;
        }
      }
    }
#pragma omp critical
    {
      if (uf > use_f) {
        use_f = uf;
        at_f = af;
      }
      if (ud > use_d) {
        use_d = ud;
        at_d = ad;
      }
    }
  }
  printf("float  ncdf uses %.3f of its bound (at %.9g) over every 61st float in [-15, 15]\n",
         use_f, at_f);
  printf("double ncdf uses %.3f of its bound (at %.17g) over %lld random doubles in [-40, 40]\n",
         use_d, at_d, (long long)n);
  CHECK(use_f <= 1.0, "float ncdf: %.3f of the bound at %a", use_f, at_f);
  CHECK(use_d <= 1.0, "double ncdf: %.3f of the bound at %a", use_d, at_d);
}

static void report(const char *prec, int fn, worst_t w, const char *domain)
{
  printf("%-6s %-4s max %.3f ulps (at %.9g), below the smallest normal %.3f of it (at %.9g)"
         " over %s\n",
         prec, names[fn], w.ulps, w.at_ulps, w.under, w.at_under, domain);
  CHECK(w.ulps <= 4.0, "%s %s: %.3f ulps at %a", prec, names[fn], w.ulps, w.at_ulps);
  CHECK(w.under <= 1.0, "%s %s: %.3f of the smallest normal at %a", prec, names[fn], w.under,
        w.at_under);
}

#if defined(__AVX512F__)
/* An err_f32 / err_f64 result as a fraction of the 4-ulp contract, or of
 * the smallest normal number (its negative values) below it. */
static double ulps4(double e)
{
  return e < 0.0 ? -e : e / 4.0;
}

/* vexp512.h's primitives, both forms (ieee 0: the estimates and fused
 * multiply-adds; 1: the divider), on n random arguments each, against long
 * double: the reciprocal, quotient and square root within their relative
 * contracts (in units u), exp and log within 4 ulps (below the smallest
 * normal number, within it: ulps4), both CDFs within the bounds the verifier takes for them
 * (tb_vncdf's for erfc; the polynomial's 7.5e-8 and (68 + d^2) u of the tail
 * for poly). Arguments: 1/a on [1, 2^120); a / b on [2^-40, 2^40]^2; sqrt
 * and log on [2^-40, 2^41); exp on [-800, 100] (float [-110, 88]); the CDFs on [-40, 40] (float
 * [-15, 15]). */
#define TEST_V512(T, SFX, V, S, W, U, TINY, RCPC, EXPX0, EXPX1, DMAX, ERRF)                        \
  static void test_v512_##SFX(int64_t n, int ieee)                                                 \
  {                                                                                                \
    double use[7] = {0, 0, 0, 0, 0, 0, 0};                                                         \
    _Pragma("omp parallel")                                                                        \
    {                                                                                              \
      double u7[7] = {0, 0, 0, 0, 0, 0, 0};                                                        \
      _Pragma("omp for schedule(static)") for (int64_t c = 0; c < n; c += W)                       \
      {                                                                                            \
        T a[W], b[W], q[W], e[W], d[W], y[7][W];                                                   \
        for (int i = 0; i < W; i++) {                                                              \
          const uint64_t z = mix((uint64_t)(c + i) * 0x9e3779b97f4a7c15ull + 17);                  \
          const double f = (double)(z >> 11) * 0x1p-53, g = (double)(mix(z) >> 11) * 0x1p-53;      \
          a[i] = (T)ldexp(1.0 + f, (int)(z % 120));                                                \
          b[i] = (T)ldexp(1.0 + g, (int)(mix(z + 1) % 81) - 40);                                   \
          q[i] = (T)ldexp(1.0 + f, (int)(z % 81) - 40);                                            \
          e[i] = (T)(EXPX0 + (EXPX1 - EXPX0) * g);                                                 \
          d[i] = (T)(DMAX * (2.0 * f - 1.0));                                                      \
        }                                                                                          \
        const V va = _mm512_loadu_##S(a), vb = _mm512_loadu_##S(b), vq = _mm512_loadu_##S(q);      \
        _mm512_storeu_##S(y[0], tb_v512_rcp_##SFX(va, ieee));                                      \
        _mm512_storeu_##S(y[1], tb_v512_div_##SFX(vq, vb, ieee));                                  \
        _mm512_storeu_##S(y[2], tb_v512_sqrt_##SFX(vq, ieee));                                     \
        _mm512_storeu_##S(y[3], tb_v512_exp_##SFX(_mm512_loadu_##S(e)));                           \
        _mm512_storeu_##S(y[4], tb_v512_log_##SFX(vq, ieee));                                      \
        _mm512_storeu_##S(y[5], tb_v512_cnd_erfc_##SFX(_mm512_loadu_##S(d), ieee));                \
        _mm512_storeu_##S(y[6], tb_v512_cnd_poly_##SFX(_mm512_loadu_##S(d), ieee));                \
        for (int i = 0; i < W; i++) {                                                              \
          const long double la = a[i], lb = b[i], lq = q[i], ld = d[i];                            \
          const long double tail = 0.5L * erfcl(fabsl(ld) * 0.70710678118654752440L);              \
          const long double ncdf = ld > 0 ? 1.0L - tail : tail;                                    \
          const double dd = (double)ld,                                                            \
                       pb = TB_CND_POLY_ERR + (double)tail * (68 + dd * dd) * U + U;               \
          const double m[7] = {(double)(fabsl(y[0][i] - 1.0L / la) * la) / U,                      \
                               (double)(fabsl(y[1][i] - lq / lb) / (lq / lb)) / U,                 \
                               (double)(fabsl(y[2][i] - sqrtl(lq)) / sqrtl(lq)) / U,               \
                               ulps4(ERRF(y[3][i], expl((long double)e[i]))),                      \
                               ulps4(ERRF(y[4][i], logl(lq))),                                     \
                               ncdf_use(y[5][i], ncdf, tail, dd, U, TINY),                         \
                               (double)fabsl(y[6][i] - ncdf) / pb};                                \
          for (int k = 0; k < 7; k++)                                                              \
            u7[k] = fmax(u7[k], m[k] <= 1e9 ? m[k] : 1e9);                                         \
        }                                                                                          \
      }                                                                                            \
      _Pragma("omp critical") for (int k = 0; k < 7; k++) use[k] = fmax(use[k], u7[k]);            \
    }                                                                                              \
    const double lim[7] = {RCPC, 1.0 + 0x1p-19, 1.0 + 0x1p-12, 1.0, 1.0, 1.0, 1.0};                \
    static const char *const what[7] = {"rcp (u)",          "div (u)",       "sqrt (u)",           \
                                        "exp (/4 ulps)",    "log (/4 ulps)", "cnd erfc (/bound)",  \
                                        "cnd poly (/bound)"};                                      \
    for (int k = 0; k < 7; k++) {                                                                  \
      printf(#T " 512-bit %s %-18s %.4f (limit %.4f), %lld arguments\n",                           \
             ieee ? "divider" : "fma    ", what[k], use[k], ieee ? fmax(lim[k], 1.0) : lim[k],     \
             (long long)n);                                                                        \
      CHECK(use[k] <= (ieee ? fmax(lim[k], 1.0) : lim[k]), #T " 512-bit %s: %.4f", what[k],        \
            use[k]);                                                                               \
    }                                                                                              \
  }
TEST_V512(float, f32, __m512, ps, 16, 0x1p-24, FLT_MIN, 1.0 + 0x1p-4, -110.0, 88.0, 15.0, err_f32)
TEST_V512(double, f64, __m512d, pd, 8, 0x1p-53, DBL_MIN, 1.0 + 0x1p-3, -800.0, 100.0, 40.0, err_f64)
#undef TEST_V512
#endif

/* tb_vexp_neg and tb_vexp2_neg (only the lower clamp) against tb_vexp and
 * tb_vexp2, bit for bit, up to the Monte Carlo twin's bounds for them
 * (options_cpu.h's tb_mc_exp_in_max) and a little past them, to each upper
 * clamp: in float on every 101st bit pattern from LO up to HI and every
 * one over the last 8; in double on n random arguments of [LO, HI] and on
 * the 4096 doubles from HI down. */
static int64_t vexp_neg_f32(float (*f)(float), float (*g)(float), float lo, float hi)
{
  uint32_t bhi, blo, b8;
  const float hi8 = hi - 8.0f;
  memcpy(&bhi, &hi, sizeof bhi);
  memcpy(&blo, &lo, sizeof blo);
  memcpy(&b8, &hi8, sizeof b8);
  int64_t bad = 0;
  for (uint32_t b = 0; b <= bhi; b += b < b8 ? 101 : 1) { /* +0 to hi */
    float x;
    memcpy(&x, &b, sizeof x);
    const float y0 = f(x), y1 = g(x);
    bad += memcmp(&y0, &y1, sizeof y0) != 0;
  }
  for (uint32_t b = 0x80000000u; b <= blo; b += 101) { /* -0 to lo */
    float x;
    memcpy(&x, &b, sizeof x);
    const float y0 = f(x), y1 = g(x);
    bad += memcmp(&y0, &y1, sizeof y0) != 0;
  }
  return bad;
}

static int64_t vexp_neg_f64(double (*f)(double), double (*g)(double), double lo, double hi,
                            int64_t n)
{
  int64_t bad = 0;
  uint64_t state = 0x9e3779b97f4a7c15ull;
  double top = hi;
  for (int64_t i = 0; i < n + 4096; i++) {
    double x;
    if (i < n) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      x = lo + (hi - lo) * (double)(state >> 11) * 0x1p-53;
    } else {
      x = top;
      top = nextafter(top, 0.0);
    }
    const double y0 = f(x), y1 = g(x);
    bad += memcmp(&y0, &y1, sizeof y0) != 0;
  }
  return bad;
}

static void test_vexp_neg(int64_t n)
{
  int64_t bad = vexp_neg_f32(tb_vexp_f32, tb_vexp_neg_f32, -104.0f, 88.1f);
  CHECK(bad == 0, "float tb_vexp_neg differs from tb_vexp up to 88.1 on %lld arguments",
        (long long)bad);
  bad = vexp_neg_f32(tb_vexp2_f32, tb_vexp2_neg_f32, -150.0f, 127.4f);
  CHECK(bad == 0, "float tb_vexp2_neg differs from tb_vexp2 up to 127.4 on %lld arguments",
        (long long)bad);
  bad = vexp_neg_f64(tb_vexp_f64, tb_vexp_neg_f64, -745.0, 709.1, n);
  CHECK(bad == 0, "double tb_vexp_neg differs from tb_vexp up to 709.1 on %lld arguments",
        (long long)bad);
  bad = vexp_neg_f64(tb_vexp2_f64, tb_vexp2_neg_f64, -1075.0, 1023.4, n);
  CHECK(bad == 0, "double tb_vexp2_neg differs from tb_vexp2 up to 1023.4 on %lld arguments",
        (long long)bad);
}

int main(int argc, char **argv)
{
  /* argv[1]: double arguments per function (10^8 unless given) */
  const int64_t n64 = argc > 1 ? (int64_t)atof(argv[1]) : 100000000;

  /* float: exp on [-104, 88.72] (below -104 the result is 0 to the last
   * bit of a subnormal; above, +inf) and the ends beyond it; exp2 on
   * [-150, 128]; log on every positive normal float. */
  const uint32_t fbits_m104 = 0xc2d00000u, fbits_m150 = 0xc3160000u;
  worst_t w = sweep_f32(F_EXP, 0x00000000u, 0x42b20000u); /* +0 to 89 */
  worst_t wn = sweep_f32(F_EXP, 0x80000000u, fbits_m104 + 1);
  merge(&w, &wn);
  wn = sweep_f32(F_EXP, 0xc3000000u, 0xc3000100u); /* around -128 */
  merge(&w, &wn);
  wn = sweep_f32(F_EXP, 0x7f000000u, 0x7f000100u); /* huge: +inf */
  merge(&w, &wn);
  report("float", F_EXP, w, "[-104, 89] (every float)");

  w = sweep_f32(F_EXP2, 0x00000000u, 0x43010000u); /* +0 to 129 */
  wn = sweep_f32(F_EXP2, 0x80000000u, fbits_m150 + 1);
  merge(&w, &wn);
  report("float", F_EXP2, w, "[-150, 129] (every float)");

  w = sweep_f32(F_LOG, 0x00800000u, 0x7f800000u);
  report("float", F_LOG, w, "every positive normal float");

  char what[64];
  snprintf(what, sizeof what, "%lld random and boundary doubles", (long long)n64);
  for (int fn = F_EXP; fn <= F_LOG; fn++)
    report("double", fn, sweep_f64(fn, n64), what);

  worst_t ws = {0, 0, 0, 0}, wc = {0, 0, 0, 0};
  sweep_sincos_f32(&ws, &wc);
  report_sincos("float", ws, wc, "every Monte Carlo angle u2 - 1/2");
  ws = wc = (worst_t){0, 0, 0, 0};
  sweep_sincos_f64(n64, &ws, &wc);
  report_sincos("double", ws, wc, what);
  test_rcp(n64 / 10);
  test_ncdf(n64 / 10);
  test_vexp_neg(n64 / 10);
#if defined(__AVX512F__)
  for (int ieee = 0; ieee < 2; ieee++) {
    test_v512_f32(n64 / 10, ieee);
    test_v512_f64(n64 / 10, ieee);
  }
#endif
  TEST_EXIT();
}
