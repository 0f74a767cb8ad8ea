/* twinbench: the empirical CDF of an Irwin-Hall sample (the seeds' example):
 * problem, reference, verifier and cost. */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "../common/rng.h"
#include "scan.h"

static const tb_column_def_t tb_cdf_columns[] = {
    [TB_CDF_ZMAX] = {"zmax", "%.3f",
                     "the sample's largest |count / n - F(t)| over thresholds, in standard errors "
                     "sqrt(F (1 - F) / n) of the Irwin-Hall CDF F (the check: at most 5)", 0},
    [TB_CDF_LAUNCHES] = {"launches", "%.0f", "GPU: kernel launches; CPU: passes over the data", 0},
};

double tb_cdf_threshold(int k)
{
  return TB_CDF_TERMS * (k + 1.0) / (TB_CDF_THRESHOLDS + 1.0);
}

static int tb_cdf_setup(tb_problem_t *p)
{
  if (p->n < 1)
    return tb_fail(TB_EINVAL, "cdf needs at least one sample (size %lld)", (long long)p->n);
  tb_cdf_t *c = calloc(1, sizeof *c);
  if (!c)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = c;
  c->x = tb_problem_add_array(p, "x", tb_prec_kind(p->prec), TB_IN, p->n);
  c->counts = tb_problem_add_array(p, "counts", TB_KIND_I64, TB_OUT, TB_CDF_THRESHOLDS);
  /* The generator's uniforms, one array of them at a time. */
  p->extra_host_bytes = tb_count_mul(p, p->n, (int64_t)tb_kind_size(tb_prec_kind(p->prec)));
  p->extra_device_bytes = (int64_t)1 << 20;
  return p->overflow ? TB_EINVAL : TB_OK;
}

/* x_i: the sum of TB_CDF_TERMS uniforms on (0, 1), in the precision. */
static int tb_cdf_generate(tb_problem_t *p)
{
  const tb_cdf_t *c = p->priv;
  const int64_t n = p->n;
  const size_t e = tb_kind_size(tb_prec_kind(p->prec));
  void *x = p->array[c->x].host, *u = malloc((size_t)n * e);
  if (!u)
    return tb_fail(TB_ENOMEM, "out of memory for the uniforms (%lld)", (long long)n);
  tb_rng_uniform(p->prec, x, n, p->seed, 1, 0.0, 1.0);
  for (uint32_t k = 1; k < TB_CDF_TERMS; k++) {
    tb_rng_uniform(p->prec, u, n, p->seed, 1 + k, 0.0, 1.0);
    if (p->prec == TB_FLOAT)
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < n; i++)
        ((float *)x)[i] += ((const float *)u)[i];
    else
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < n; i++)
        ((double *)x)[i] += ((const double *)u)[i];
  }
  free(u);
  return TB_OK;
}

/* The Irwin-Hall CDF of m uniforms at t: (1/m!) sum_{k <= t} (-1)^k C(m, k)
 * (t - k)^m, from the nearer end (F(t) = 1 - F(m - t)) so that few terms of
 * alternating sign meet. */
static long double tb_irwin_hall(int m, long double t)
{
  if (t <= 0)
    return 0;
  if (t >= m)
    return 1;
  if (t > m / 2.0L)
    return 1 - tb_irwin_hall(m, m - t);
  long double s = 0, binom = 1, fact = 1;
  for (int k = 1; k <= m; k++)
    fact *= k;
  for (int k = 0; k <= (int)t; k++) {
    s += (k % 2 ? -1 : 1) * binom * powl(t - k, m);
    binom = binom * (m - k) / (k + 1);
  }
  return s / fact;
}

/* Exact: every count equals the reference's, counted with the same
 * comparisons (x_i < t_k in the precision). And the sample itself follows
 * the Irwin-Hall distribution: each count within 5 standard errors of
 * n F(t_k) (plus one for the count's discreteness); a generator that broke
 * would fail every row. The error is the number of wrong counts. */
static int tb_cdf_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  const tb_cdf_t *c = p->priv;
  const int64_t *got = view[c->counts], n = p->n;
  const void *x = view[c->x];
  int64_t ref[TB_CDF_THRESHOLDS] = {0};
  for (int k = 0; k < TB_CDF_THRESHOLDS; k++) {
    const double t = tb_cdf_threshold(k);
    const float tf = (float)t;
    int64_t m = 0;
    if (p->prec == TB_FLOAT)
#pragma omp parallel for schedule(static) reduction(+ : m)
      for (int64_t i = 0; i < n; i++)
        m += ((const float *)x)[i] < tf;
    else
#pragma omp parallel for schedule(static) reduction(+ : m)
      for (int64_t i = 0; i < n; i++)
        m += ((const double *)x)[i] < t;
    ref[k] = m;
  }
  int64_t bad = 0, first = -1;
  double zmax = 0;
  for (int k = 0; k < TB_CDF_THRESHOLDS; k++) {
    if (got[k] != ref[k] && !bad++)
      first = k;
    const double f = (double)tb_irwin_hall(TB_CDF_TERMS, tb_cdf_threshold(k));
    const double se = sqrt(f * (1 - f) / (double)n), dev = fabs((double)ref[k] / n - f) - 1.0 / n;
    const double z = dev <= 0 ? 0 : se > 0 ? dev / se : INFINITY;
    zmax = z > zmax ? z : zmax;
  }
  extra[TB_CDF_ZMAX] = zmax;
  if (tb_check_against(chk, (double)bad, 0.0))
    return tb_check_fail(chk, "%lld wrong counts; the first below %.4f: %lld, exact %lld",
                         (long long)bad, tb_cdf_threshold((int)first), (long long)got[first],
                         (long long)ref[first]);
  if (zmax > 5)
    return tb_check_fail(chk, "the sample is %.1f standard errors off the Irwin-Hall CDF", zmax);
  return TB_OK;
}

/* The samples read once, the counts written once; comparisons are no flops. */
static void tb_cdf_cost(const tb_problem_t *p, tb_cost_t *c)
{
  c->read = (double)p->n * (double)tb_kind_size(tb_prec_kind(p->prec));
  c->written = 8.0 * TB_CDF_THRESHOLDS;
  c->flops = 0.0;
}

const tb_algo_t tb_algo_cdf = {
    .name = "cdf",
    .summary = "the empirical CDF of n Irwin-Hall samples (sums of 10 uniforms) at 100 thresholds: "
               "a count per threshold, or one histogram pass",
    .flags = 0,
    .precisions = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_precisions = TB_PREC_BIT(TB_DOUBLE),
    .default_sizes = "2^24",
    .size_meaning = "samples",
    .presets = NULL,
    .npresets = 0,
    .params = NULL,
    .nparams = 0,
    .columns = tb_cdf_columns,
    .ncolumns = TB_COUNT(tb_cdf_columns),
    .error_meaning = "the number of counts that differ from the exact ones (bound 0)",
    .setup = tb_cdf_setup,
    .generate = tb_cdf_generate,
    .verify = tb_cdf_verify,
    .cost = tb_cdf_cost,
    .dump = NULL,
    .cleanup = tb_problem_free_priv,
};
