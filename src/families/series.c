/* twinbench: the series of 1/i^2 (the seeds' OpenMP example): its problem,
 * reference, verifier and cost. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../common/refmath.h"
#include "scan.h"

static const tb_column_def_t tb_series_columns[] = {
    [TB_SERIES_RESULT] = {"result", "%.17g", "the sum the variant computed", 0},
    [TB_SERIES_DEPTH] = {"depth", "%.0f",
                         "the longest chain of additions of the variant's order (h of the bound)",
                         0},
};

static int tb_series_setup(tb_problem_t *p)
{
  if (p->n < 1 || p->n > TB_SERIES_MAX_N)
    return tb_fail(TB_EINVAL, "series: size %lld is outside 1..%lld terms", (long long)p->n,
                   (long long)TB_SERIES_MAX_N);
  tb_series_t *s = calloc(1, sizeof *s);
  if (!s)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = s;
  s->sum = tb_problem_add_array(p, "sum", tb_prec_kind(p->prec), TB_OUT, 1);
  /* The GPU's partial sums, one a block. */
  p->extra_device_bytes = (int64_t)1 << 20;
  return TB_OK;
}

/* No inputs: the terms are 1/i^2 for i = 1..n. */
static int tb_series_generate(tb_problem_t *p)
{
  (void)p;
  return TB_OK;
}

/* sum_{i=1}^{n} 1/i^2 = pi^2/6 - psi'(n + 1), in long double: directly for
 * n < 64, otherwise with the trigamma's asymptotic series at m = n + 1 >= 64,
 * psi'(m) = 1/m + 1/(2m^2) + 1/(6m^3) - 1/(30m^5) + 1/(42m^7) - 1/(30m^9) + ...,
 * whose next term (5/(66 m^11) < 10^-20) bounds its error. */
static long double tb_series_exact(int64_t n)
{
  if (n < 64) {
    long double s = 0;
    for (int64_t i = n; i >= 1; i--)
      s += 1.0L / ((long double)i * (long double)i);
    return s;
  }
  const long double m = (long double)(n + 1), r = 1.0L / m, r2 = r * r;
  const long double tail =
      r + r2 / 2 + r * r2 * (1.0L / 6 - r2 * (1.0L / 30 - r2 * (1.0L / 42 - r2 / 30)));
  return 1.644934066848226436472415166646025189L - tail;
}

/* Each term 1/i^2 is computed with at most 3 roundings (i to the
 * precision, the square, the division), and reaches the sum through at
 * most h additions (the depth the variant states; n for any order), so
 * with positive terms |s - S| <= ((1 + u)^(h + 3) - 1) S. The reference's
 * own error, a few long double roundings and the 10^-20 of the tail, is
 * covered by 4 LDBL_EPSILON. Where the bound reaches the smallest term
 * 1/n^2, a lost or repeated term would pass: unverifiable. */
static int tb_series_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  const tb_series_t *s = p->priv;
  const long double exact = tb_series_exact(p->n);
  const double got = (double)tb_elem_ld(view[s->sum], p->prec, 0);
  const double u = tb_unit_roundoff(p->prec);
  extra[TB_SERIES_RESULT] = got;
  extra[TB_SERIES_DEPTH] = tb_sum_depth(extra[TB_SERIES_DEPTH], p->n);
  const double tol = expm1((extra[TB_SERIES_DEPTH] + 3.0) * log1p(u)) + 4.0 * (double)LDBL_EPSILON;
  if (tb_check_against(chk, (double)(fabsl((long double)got - exact) / exact), tol))
    return tb_check_fail(chk, "sum %.17g, pi^2/6 minus the tail %.17Lg: error %.3g over the "
                         "bound %.3g%s", got, exact, chk->error, tol, tb_poison_note(got));
  const long double last = 1.0L / ((long double)p->n * (long double)p->n);
  return tb_ref_sum_vacuous(chk, exact, last);
}

/* No memory traffic but the sum; per term a square, a division and an
 * addition: 3 flops (the conversion of i is not counted). */
static void tb_series_cost(const tb_problem_t *p, tb_cost_t *c)
{
  c->read = 0.0;
  c->written = (double)tb_kind_size(tb_prec_kind(p->prec));
  c->flops = 3.0 * (double)p->n;
}

const tb_algo_t tb_algo_series = {
    .name = "series",
    .summary = "the series of 1/i^2 to n terms (the seeds' OpenMP example), against pi^2/6 minus "
               "the tail",
    .flags = TB_ALGO_COMPUTE,
    .precisions = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_precisions = TB_PREC_BIT(TB_DOUBLE),
    .default_sizes = "2^26",
    .size_meaning = "terms summed",
    .presets = NULL,
    .npresets = 0,
    .params = NULL,
    .nparams = 0,
    .columns = tb_series_columns,
    .ncolumns = TB_COUNT(tb_series_columns),
    .error_meaning = "|sum - S| / S, S = pi^2/6 minus the tail psi'(n+1); bound (1+u)^(h+3) - 1, "
                     "h the depth",
    .setup = tb_series_setup,
    .generate = tb_series_generate,
    .verify = tb_series_verify,
    .cost = tb_series_cost,
    .dump = NULL,
    .cleanup = tb_problem_free_priv,
};
