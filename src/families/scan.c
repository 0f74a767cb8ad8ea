/* twinbench: the prefix sum's problem, reference, verifier and cost. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../common/refmath.h"
#include "../common/rng.h"
#include "scan.h"

static const char *const tb_scan_kinds[] = {"inclusive", "exclusive", NULL};

static const tb_param_def_t tb_scan_params[] = {
    {"kind", "inclusive (y_i includes x_i) or exclusive (y_0 = 0)", TB_PARAM_CHOICE,
     "inclusive", 0, 0, tb_scan_kinds, 0, "inclusive,exclusive"},
};

static const tb_column_def_t tb_scan_columns[] = {
    [TB_SCAN_DEPTH] = {"depth", "%.0f",
                       "the most additions between an input and an output of the variant's "
                       "order (h of the bound)", 0},
    [TB_SCAN_LAUNCHES] = {"launches", "%.0f",
                          "GPU: kernel launches per scan; CPU: passes over the data", 0},
    [TB_SCAN_WAIT] = {"wait", "%.3f",
                      "CPU twopass: the share of its threads' time the last run spent waiting for "
                      "other threads' blocks (the look-back's polls, the rounds' barriers)", 0},
    [TB_SCAN_IMBALANCE] = {"imbalance", "%.3f",
                           "CPU twopass: the most blocks one thread scanned in the last run over "
                           "the mean (blocks / threads); 1: an even split", 0},
};

static const tb_preset_t tb_scan_presets[] = {
    {"scan268m", (int64_t)1 << 28, "the study's size: 2^28 elements (1 GiB of int32 or float)"},
};

int64_t tb_scan_blocked_depth(int64_t blocks, int64_t tile)
{
  return blocks + 2 * tile + 2;
}

static int tb_scan_setup(tb_problem_t *p)
{
  if (p->n < 1)
    return tb_fail(TB_EINVAL, "scan needs at least one element (size %lld)", (long long)p->n);
  tb_scan_t *s = calloc(1, sizeof *s);
  if (!s)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = s;
  s->kind = (int)p->param[0].i;
  tb_kind_t k = tb_prec_kind(p->prec);
  s->x = tb_problem_add_array(p, "x", k, TB_IN, p->n);
  s->y = tb_problem_add_array(p, "y", k, TB_OUT, p->n);
  /* Pointer jumping's second buffer (both backends), and the GPU's tile
   * states and block sums (at most 16 bytes a tile of 256 elements) and
   * CUB's scratch. */
  const int64_t bytes = tb_count_mul(p, p->n, (int64_t)tb_kind_size(k));
  p->extra_host_bytes = bytes;
  p->extra_device_bytes = tb_count_add(p, bytes, p->n / 16 + ((int64_t)1 << 22));
  return p->overflow ? TB_EINVAL : TB_OK;
}

/* Never zero: int32 uniform on 1..1000 (sums wrap past 2^32 from about 8
 * million elements, which the exact check covers), floating point uniform
 * on [0.5, 1.5), positive so that sum|x| is the sum itself. */
static int tb_scan_generate(tb_problem_t *p)
{
  const tb_scan_t *s = p->priv;
  void *x = p->array[s->x].host;
  if (p->prec == TB_INT32)
    tb_rng_int32(x, p->n, p->seed, 1, 1, 1000);
  else
    tb_rng_uniform(p->prec, x, p->n, p->seed, 1, 0.5, 1.5);
  return TB_OK;
}

/* (1 + u)^k - 1, the relative bound of a sum whose terms pass through at
 * most k roundings: gamma_k = k u / (1 - k u) bounds it from above while
 * k u < 1/2 (one division per element), expm1 beyond. */
static double tb_scan_growth(double k, double u)
{
  const double ku = k * u;
  return ku < 0.5 ? ku / (1.0 - ku) : expm1(k * log1p(u));
}

/* The reference chunks: fixed, so that the reference does not depend on the
 * thread count; a chunk's offset is the compensated sum of those before it. */
enum { TB_SCAN_REF_CHUNKS = 256 };

/* int32: the prefix sums modulo 2^32 in unsigned arithmetic, exactly; the
 * error is the number of elements that differ, the tolerance 0. */
static int tb_scan_verify_int(tb_problem_t *p, const tb_scan_t *s, const uint32_t *x,
                              const uint32_t *y, tb_check_t *chk)
{
  const int64_t n = p->n, nc = n < 4096 ? 1 : TB_SCAN_REF_CHUNKS;
  uint32_t off[TB_SCAN_REF_CHUNKS + 1];
  off[0] = 0;
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < nc; c++) {
    uint32_t t = 0;
    for (int64_t i = n * c / nc; i < n * (c + 1) / nc; i++)
      t += x[i];
    off[c + 1] = t;
  }
  for (int64_t c = 0; c < nc; c++)
    off[c + 1] += off[c];
  int64_t bad = 0;
  tb_worst_t first = TB_WORST_NONE;
#pragma omp parallel for schedule(static) reduction(+ : bad)
  for (int64_t c = 0; c < nc; c++) {
    uint32_t t = off[c];
    int64_t mine = -1;
    for (int64_t i = n * c / nc; i < n * (c + 1) / nc; i++) {
      uint32_t ex = t;
      t += x[i];
      uint32_t want = s->kind == TB_SCAN_INCLUSIVE ? t : ex;
      if (y[i] != want) {
        bad++;
        if (mine < 0)
          mine = i;
      }
    }
    if (mine >= 0) {
      tb_worst_t w = {(double)-mine, mine};
#pragma omp critical
      tb_worst_merge(&first, &w);
    }
  }
  if (tb_check_against(chk, (double)bad, 0.0)) {
    const int64_t i = first.at;
    uint32_t want = 0;
    for (int64_t j = 0; j < i + (s->kind == TB_SCAN_INCLUSIVE); j++)
      want += x[j];
    tb_check_fail(chk, "%lld elements differ from the exact sums mod 2^32, the first y[%lld] = "
                  "%ld, exact %ld%s", (long long)bad, (long long)i, (long)(int32_t)y[i],
                  (long)(int32_t)want,
                  y[i] == 0xA5A5A5A5u ? " (never written: still poisoned)" : "");
  }
  return TB_OK;
}

/* Floating point. Output y_i is a sum of the m_i inputs before it (m_i =
 * i + 1 inclusive, i exclusive) formed by additions; each input reaches y_i
 * through at most k_i roundings, each a factor (1 + d), |d| <= u, so
 *   |y_i - s_i| <= ((1 + u)^k_i - 1) sum_{j < m_i} |x_j|,
 * with k_i <= m_i - 1 for any order (a sum of m terms has m - 1 additions;
 * an addition of zero, a tree's padding, is exact) and k_i <= h, the depth
 * the variant states for its order (ctx->extra[TB_SCAN_DEPTH], clamped to
 * n by tb_sum_depth). The inputs are positive, so sum|x_j| = s_i. The
 * reference s_i is compensated in long double (chunk offsets compensated
 * too): its own error, at most 2 LDBL_EPSILON s_i, is added to the bound.
 * The error column is the largest |y_i - s_i| / s_i, the tolerance column
 * the bound at depth min(h, n - 1); an element fails against its own k_i.
 * Where the last element's bound reaches the smallest input, a lost or
 * repeated input near the end would pass: unverifiable, not pass. */
static int tb_scan_verify_real(tb_problem_t *p, const tb_scan_t *s, const void *x,
                               const void *y, double depth, tb_check_t *chk)
{
  const int64_t n = p->n, nc = n < 4096 ? 1 : TB_SCAN_REF_CHUNKS;
  const double u = tb_unit_roundoff(p->prec), refrel = 2.0 * (double)LDBL_EPSILON;
  const int incl = s->kind == TB_SCAN_INCLUSIVE;
  long double sum[TB_SCAN_REF_CHUNKS + 1], comp[TB_SCAN_REF_CHUNKS + 1];
  long double least = INFINITY;
  sum[0] = comp[0] = 0;
#pragma omp parallel for schedule(static) reduction(min : least)
  for (int64_t c = 0; c < nc; c++) {
    long double t = 0, e = 0;
    for (int64_t i = n * c / nc; i < n * (c + 1) / nc; i++) {
      long double v = tb_elem_ld(x, p->prec, i);
      tb_kahan_add(&t, &e, v);
      if (v < least)
        least = v;
    }
    sum[c + 1] = t;
    comp[c + 1] = e;
  }
  for (int64_t c = 0; c < nc; c++) { /* the offsets: (s, e) pairs added compensated */
    long double t = sum[c], e = comp[c];
    tb_kahan_add(&t, &e, sum[c + 1]);
    tb_kahan_add(&t, &e, -comp[c + 1]);
    sum[c + 1] = t;
    comp[c + 1] = e;
  }
  tb_worst_t worst = TB_WORST_NONE, rel = TB_WORST_NONE;
#pragma omp parallel
  {
    tb_worst_t w = TB_WORST_NONE, r = TB_WORST_NONE;
#pragma omp for schedule(static) nowait
    for (int64_t c = 0; c < nc; c++) {
      long double t = sum[c], e = comp[c];
      for (int64_t i = n * c / nc; i < n * (c + 1) / nc; i++) {
        long double before = t - e;
        tb_kahan_add(&t, &e, tb_elem_ld(x, p->prec, i));
        const long double ref = incl ? t - e : before;
        const int64_t m = incl ? i + 1 : i;
        const double k = m < 1 ? 0.0 : fmin(depth, (double)(m - 1));
        const long double diff = fabsl(tb_elem_ld(y, p->prec, i) - ref);
        const long double slack = (long double)(tb_scan_growth(k, u) + refrel) * ref;
        /* Where the bound is 0 (y_0 of an exclusive scan) only an exact 0
         * passes; a NaN (the poison) is infinitely wrong either way. */
        tb_worst_see(&w, (double)(slack > 0 ? diff / slack : diff == 0 ? 0.0 : INFINITY), i);
        tb_worst_see(&r, (double)(ref > 0 ? diff / ref : diff == 0 ? 0.0 : INFINITY), i);
      }
    }
#pragma omp critical
    {
      tb_worst_merge(&worst, &w);
      tb_worst_merge(&rel, &r);
    }
  }
  const long double last = sum[nc] - comp[nc]; /* s_{n-1}, inclusive */
  const double tol = tb_scan_growth(fmin(depth, (double)(n - 1)), u) + refrel;
  tb_check_against(chk, rel.err, tol);
  if (worst.err > 1.0) {
    const int64_t i = worst.at;
    const double got = (double)tb_elem_ld(y, p->prec, i);
    return tb_check_fail(chk, "y[%lld] = %.17g is %.3g times its bound off the reference "
                         "(depth %.0f)%s", (long long)i, got, worst.err, depth,
                         tb_poison_note(got));
  }
  return tb_ref_sum_vacuous(chk, last, least);
}

static int tb_scan_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  const tb_scan_t *s = p->priv;
  extra[TB_SCAN_DEPTH] = tb_sum_depth(extra[TB_SCAN_DEPTH], p->n);
  if (p->prec == TB_INT32)
    return tb_scan_verify_int(p, s, view[s->x], view[s->y], chk);
  return tb_scan_verify_real(p, s, view[s->x], view[s->y], extra[TB_SCAN_DEPTH], chk);
}

/* STREAM-style: each input read once, each output written once; one
 * addition per element in floating point (integer additions count none). */
static void tb_scan_cost(const tb_problem_t *p, tb_cost_t *c)
{
  const double e = (double)tb_kind_size(tb_prec_kind(p->prec));
  c->read = (double)p->n * e;
  c->written = (double)p->n * e;
  c->flops = p->prec == TB_INT32 ? 0.0 : (double)p->n;
}

const tb_algo_t tb_algo_scan = {
    .name = "scan",
    .summary = "prefix sums: pointer jumping, reduce-then-scan, decoupled look-back, CUB",
    .flags = 0,
    .precisions = TB_PREC_BIT(TB_INT32) | TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_precisions = TB_PREC_BIT(TB_INT32),
    .default_sizes = "2^24",
    .size_meaning = "elements scanned",
    .presets = tb_scan_presets,
    .npresets = TB_COUNT(tb_scan_presets),
    .params = tb_scan_params,
    .nparams = TB_COUNT(tb_scan_params),
    .columns = tb_scan_columns,
    .ncolumns = TB_COUNT(tb_scan_columns),
    .error_meaning = "int32: elements that differ from the exact sums mod 2^32 (bound 0); "
                     "float, double: largest |y_i - s_i| / s_i, bound (1+u)^h - 1, h the depth",
    .setup = tb_scan_setup,
    .generate = tb_scan_generate,
    .verify = tb_scan_verify,
    .cost = tb_scan_cost,
    .dump = NULL,
    .cleanup = tb_problem_free_priv,
};
