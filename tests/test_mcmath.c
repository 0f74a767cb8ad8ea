/* The table-driven math of the fused Monte Carlo kernels (gpu_cuda/mcmath.h)
 * against its derived bounds (u = 2^-53). The exponentials e^x and 2^x:
 * 2.1u relative (held to 2.5u) on 10^7 Philox-random arguments over their
 * whole range [-700, 700], at and around the reduction boundaries (where the
 * table index or the integer N changes), near 0 and at the range's ends,
 * against the long double exp and exp2. The logarithm: 4.1u relative (held
 * to 4.5u) on 10^7 random Monte Carlo uniforms (k + 1/2) 2^-52, at and
 * around the ends of its 129 intervals in each of the 53 binades, and at the
 * range's ends (2^-53, 1 - 2^-53), against logl. The host compiles the same
 * expressions the device does (fused multiply-adds, integer moves), so this
 * checks the device's arithmetic too; only the tables' place (shared memory)
 * differs. */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/philox.h"
#include "common/rng.h"
#include "gpu_cuda/mcmath.h"
#include "testutil.h"

/* The relative error of y as an approximation of e^x (base2: 2^x), in units
 * of 2^-53. */
static double rel_err(double y, double x, int base2)
{
  const long double ref = base2 ? exp2l((long double)x) : expl((long double)x);
  return (double)(fabsl((long double)y - ref) / ref * 0x1p53L);
}

/* The worst error of both functions over n arguments, and one argument that
 * reached it. */
static double worst(const double *x, int64_t n, const double *tab, double *at)
{
  double w = 0.0;
  for (int64_t i = 0; i < n; i++)
    for (int base2 = 0; base2 < 2; base2++) {
      const double y = base2 ? tb_mcexp2(x[i], tab) : tb_mcexp(x[i], tab);
      const double e = rel_err(y, x[i], base2);
      if (!(e <= w)) { /* NaN counts as the worst */
        w = isnan(e) ? INFINITY : e;
        *at = x[i];
      }
    }
  return w;
}

/* The worst relative error of tb_mclog over n uniforms, in units of 2^-53. */
static double worst_log(const double *x, int64_t n, const double *c, const double *l, double *at)
{
  double w = 0.0;
  for (int64_t i = 0; i < n; i++) {
    const long double ref = logl((long double)x[i]);
    const double e = (double)(fabsl((long double)tb_mclog(x[i], c, l) - ref) / -ref * 0x1p53L);
    if (!(e <= w)) {
      w = isnan(e) ? INFINITY : e;
      *at = x[i];
    }
  }
  return w;
}

int main(void)
{
  const double bound = 2.5; /* the header's 2.1u, with room for the reference's own error */
  double tab[TB_MCEXP_N], at = 0.0;
  tb_mcexp_table(tab);

  /* Every table entry within half an ulp, u relative (and the long double's
   * own error), of 2^(j/128). */
  for (int j = 0; j < TB_MCEXP_N; j++)
    CHECK(rel_err(tab[j], (double)j / TB_MCEXP_N, 1) <= 1.01, "table entry %d", j);

  const int64_t n = 10000000;
  double *x = malloc((size_t)n * sizeof *x);
  CHECK(x != NULL, "out of memory");
  if (!x)
    TEST_EXIT();
  tb_rng_uniform_f64(x, n, 61, 1, -TB_MCEXP_MAX, TB_MCEXP_MAX);
  double w = worst(x, n, tab, &at);
  CHECK(w <= bound, "random arguments: %.3g u at x = %.17g", w, at);
  printf("random: worst %.3f u (at %.17g)\n", w, at);

  /* Around the reduction boundaries within the range (a sample of N): for
   * e^x, (N + 1/2) ln2 / 128, where N changes, and N ln2 / 128, where the
   * table index does; for 2^x, (N + 1/2) / 128 and N / 128; each with its
   * neighbours an ulp either side. Then the small arguments where the
   * result is near 1, and the ends. */
  int64_t m = 0;
  for (int64_t nn = -89600; nn <= 89600; nn += 3)
    for (int h = 0; h < 4; h++) {
      const long double a = ((long double)nn + (h & 1) * 0.5L) / TB_MCEXP_N;
      const double b = (double)(h & 2 ? a : a * logl(2.0L));
      x[m++] = nextafter(b, -INFINITY);
      x[m++] = b;
      x[m++] = nextafter(b, INFINITY);
    }
  const double small[] = {0.0, -0.0, 1e-300, -1e-300, 0x1p-53, -0x1p-53, 1e-10, -1e-10,
                          2.7e-3, -2.7e-3, TB_MCEXP_MAX, -TB_MCEXP_MAX};
  for (size_t i = 0; i < sizeof small / sizeof *small; i++)
    x[m++] = small[i];
  w = worst(x, m, tab, &at);
  CHECK(w <= bound, "boundary arguments: %.3g u at x = %.17g", w, at);
  printf("boundaries and ends: worst %.3f u (at %.17g) over %lld arguments\n", w, at,
         (long long)m);
  CHECK(tb_mcexp(0.0, tab) == 1.0 && tb_mcexp2(0.0, tab) == 1.0, "e^0 or 2^0 is not 1");

  /* The log on the uniforms of the double Monte Carlo kernels. */
  const double lbound = 4.5; /* the header's 4.1u, with room for second-order terms */
  double c[TB_MCLOG_N], l[TB_MCLOG_N];
  tb_mclog_table(c, l);
  CHECK(c[64] == 1.0 && l[64] == 0.0, "the table's entry at 1 is %.17g, %.17g, not 1, 0", c[64],
        l[64]);
  uint32_t *w32 = malloc((size_t)n * 2 * sizeof *w32);
  CHECK(w32 != NULL, "out of memory");
  if (w32) {
    tb_rng_int32((int32_t *)w32, 2 * n, 62, 1, INT32_MIN, INT32_MAX);
    for (int64_t i = 0; i < n; i++)
      x[i] = tb_u01_f64(w32[2 * i], w32[2 * i + 1]);
    free(w32);
    w = worst_log(x, n, c, l, &at);
    CHECK(w <= lbound, "log, random uniforms: %.3g u at u = %.17g", w, at);
    printf("log, random: worst %.3f u (at %.17g)\n", w, at);
  }
  /* Each interval's ends, 3/4 2^-e + (j 2^45 -+ 2^44) units of the bits
   * (j = 0 .. 128), and a unit either side, in every binade of the
   * uniforms; then the range's ends. */
  m = 0;
  for (int e = 0; e < 53; e++)
    for (int j = 0; j <= 128; j++)
      for (int side = -1; side <= 1; side += 2)
        for (int d = -1; d <= 1; d++) {
          const double b = ldexp(0.75, -e);
          int64_t bits;
          memcpy(&bits, &b, sizeof bits);
          bits += (int64_t)j * ((int64_t)1 << 45) + side * ((int64_t)1 << 44) + d;
          double y;
          memcpy(&y, &bits, sizeof y);
          if (y < 1.0 && y >= 0x1p-53) /* the kernels' uniforms' range */
            x[m++] = y;
        }
  x[m++] = 0x1p-53;
  x[m++] = 1.0 - 0x1p-53;
  x[m++] = 0.75;
  x[m++] = 0.375;
  w = worst_log(x, m, c, l, &at);
  CHECK(w <= lbound, "log, interval ends: %.3g u at u = %.17g", w, at);
  printf("log, interval ends: worst %.3f u (at %.17g) over %lld uniforms\n", w, at,
         (long long)m);
  CHECK(tb_mcexp2(-3.0, tab) == 0.125 && tb_mcexp2(600.0, tab) == 0x1p600,
        "2^x is not exact at integers");
  free(x);
  TEST_EXIT();
}
