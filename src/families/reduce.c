/* twinbench: the reduction family's problem, reference, verifier and cost. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "reduce.h"
#include "../common/refmath.h"
#include "../common/rng.h"

static const tb_preset_t tb_reduce_presets[] = {
    {"ladder4m", (int64_t)1 << 22, "the 2008 ladder's size (4M ints on a G80)"},
    {"ladder268m", (int64_t)1 << 28,
     "the 2018 block-size sweep's size (268M ints on a GTX 1080; it used 2^28+1234)"},
};

static const tb_column_def_t tb_reduce_columns[] = {
    [TB_REDUCE_RESULT] = {"result", "%.10g", "the sum the variant computed", 0},
    [TB_REDUCE_DEPTH] = {"depth", "%.0f",
                         "the longest chain of additions of the variant's order (h of the bound)", 0},
    [TB_REDUCE_LAUNCHES] = {"launches", "%.0f", "GPU: kernel launches per reduction", 0},
    [TB_REDUCE_REGS] = {"regs", "%.0f", "GPU: registers per thread of the first kernel", 0},
    [TB_REDUCE_OCCUPANCY] = {"occupancy", "%.3f",
                             "GPU: resident threads per SM over the maximum, first kernel "
                             "(theoretical, from the occupancy calculator)", 0},
};

/* The problem's private state: what variants see, and the cached reference. */
typedef struct tb_reduce_priv {
  tb_reduce_t pub;
  int have_ref;
  long double ref;      /* float and double: the sum (= sum|x|: the inputs are positive) */
  long double smallest; /* float and double: the smallest |x| */
  int64_t iref;    /* int32: the same, exact */
} tb_reduce_priv_t;

/* The largest int32 input of a problem of n elements (see TB_REDUCE_INT32_MAX_N). */
static int32_t tb_reduce_int32_max(int64_t n)
{
  int64_t m = ((((int64_t)1 << 31) - 1) / n);
  return (int32_t)(m < 1000 ? m : 1000);
}

static int tb_reduce_setup(tb_problem_t *p)
{
  if (p->n < 1)
    return tb_fail(TB_EINVAL, "reduce needs at least one element (size %lld)", (long long)p->n);
  if (p->prec == TB_INT32 && p->n > TB_REDUCE_INT32_MAX_N)
    return tb_fail(TB_EINVAL,
                   "reduce int32: size %lld is above %lld, the largest whose exact sum of inputs "
                   "in 1..2 still fits in int32",
                   (long long)p->n, (long long)TB_REDUCE_INT32_MAX_N);
  tb_reduce_priv_t *rp = calloc(1, sizeof *rp);
  if (!rp)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = rp;
  tb_kind_t k = tb_prec_kind(p->prec);
  rp->pub.x = tb_problem_add_array(p, "x", k, TB_IN, p->n);
  rp->pub.sum = tb_problem_add_array(p, "sum", k, TB_OUT, 1);
  /* GPU partial sums (at most n/32 + n/32^2 + ... of them) and CUB's scratch. */
  p->extra_device_bytes = (p->n / 16 + ((int64_t)1 << 20)) * (int64_t)tb_kind_size(k);
  return TB_OK;
}

/* Positive inputs, so that sum|x| = |sum| and no cancellation hides an error:
 * int32 uniform on 1..M (exact sums, see TB_REDUCE_INT32_MAX_N), floating
 * point uniform on [0.5, 1.5). */
static int tb_reduce_generate(tb_problem_t *p)
{
  const tb_reduce_t *r = p->priv;
  void *x = p->array[r->x].host;
  if (p->prec == TB_INT32)
    tb_rng_int32(x, p->n, p->seed, 1, 1, tb_reduce_int32_max(p->n));
  else
    tb_rng_uniform(p->prec, x, p->n, p->seed, 1, 0.5, 1.5);
  return TB_OK;
}

/* The reference, once per problem: int32 exactly in int64; float and double
 * compensated in long double (tb_ref_sum). */
static void tb_reduce_reference(tb_problem_t *p, tb_reduce_priv_t *rp)
{
  const void *x = p->array[rp->pub.x].host;
  const int64_t n = p->n;
  if (p->prec == TB_INT32) {
    int64_t s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
    for (int64_t i = 0; i < n; i++)
      s += ((const int32_t *)x)[i];
    rp->iref = s;
  } else {
    rp->ref = tb_ref_sum(x, NULL, p->prec, n, &rp->smallest);
  }
  rp->have_ref = 1;
}

double tb_reduce_tolerance(tb_prec_t prec, double depth)
{
  if (prec == TB_INT32)
    return 0.0;
  const double u = tb_unit_roundoff(prec);
  /* Compensated summation in long double errs by at most (2 u_ld + O(n u_ld^2))
   * sum|x| with 2 u_ld = LDBL_EPSILON; twice that covers the second-order
   * term for any n that fits in memory. */
  return expm1(depth * log1p(u)) + 2.0 * (double)LDBL_EPSILON;
}

/* Each input x_i reaches the computed sum through h_i <= h roundings of
 * additions, each a factor (1 + d) with |d| <= u, so
 *   |sum - exact| <= sum_i |x_i| ((1 + u)^h_i - 1) <= ((1 + u)^h - 1) sum|x|.
 * Any order of n additions has h <= n; a variant that states its order's
 * depth (ctx->extra[TB_REDUCE_DEPTH]) gets the tighter bound. The error is
 * relative to sum|x| (= the sum: the inputs are positive). int32 is exact.
 * Where the bound allows as much as the smallest input (a running sum in
 * float from about 4K elements), a lost or repeated input would pass: the
 * row says unverifiable, not pass. */
static int tb_reduce_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  tb_reduce_priv_t *rp = p->priv;
  const void *out = view[rp->pub.sum];
  if (!rp->have_ref)
    tb_reduce_reference(p, rp);
  extra[TB_REDUCE_DEPTH] = tb_sum_depth(extra[TB_REDUCE_DEPTH], p->n);
  const double tol = tb_reduce_tolerance(p->prec, extra[TB_REDUCE_DEPTH]);
  if (p->prec == TB_INT32) {
    int32_t got = *(const int32_t *)out;
    extra[TB_REDUCE_RESULT] = got;
    if (tb_check_against(chk, fabs((double)got - (double)rp->iref) / (double)rp->iref, tol) ||
        (int64_t)got != rp->iref)
      tb_check_fail(chk, "sum %ld, exact %lld%s", (long)got, (long long)rp->iref,
                    got == (int32_t)0xA5A5A5A5u ? " (never written: still poisoned)" : "");
    return TB_OK;
  }
  double got = (double)tb_elem_ld(out, p->prec, 0);
  extra[TB_REDUCE_RESULT] = got;
  if (tb_check_against(chk, (double)(fabsl((long double)got - rp->ref) / rp->ref), tol))
    tb_check_fail(chk, "sum %.17g, reference %.17Lg: error %.3g over the bound %.3g (depth %.0f)%s",
                  got, rp->ref, chk->error, chk->tolerance, extra[TB_REDUCE_DEPTH],
                  tb_poison_note(got));
  return tb_ref_sum_vacuous(chk, rp->ref, rp->smallest);
}

/* Each input read once and the sum written once; one addition per input
 * after the first (integer additions are not counted as flops). */
static void tb_reduce_cost(const tb_problem_t *p, tb_cost_t *c)
{
  double e = (double)tb_kind_size(tb_prec_kind(p->prec));
  c->read = (double)p->n * e;
  c->written = e;
  c->flops = p->prec == TB_INT32 ? 0.0 : (double)(p->n - 1);
}

const tb_algo_t tb_algo_reduce = {
    .name = "reduce",
    .summary = "the sum of n numbers: the reduce0..6 ladder, shuffles, vector loads, one pass, CUB",
    .flags = 0,
    .precisions = TB_PREC_BIT(TB_INT32) | TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_precisions = TB_PREC_BIT(TB_INT32),
    .default_sizes = "2^24",
    .size_meaning = "elements summed",
    .presets = tb_reduce_presets,
    .npresets = TB_COUNT(tb_reduce_presets),
    .params = NULL,
    .nparams = 0,
    .columns = tb_reduce_columns,
    .ncolumns = TB_COUNT(tb_reduce_columns),
    .error_meaning = "|sum - ref| / sum|x|, ref exact (int32) or compensated in long double; "
                     "bound 0 (int32) or (1+u)^h - 1, h the depth column",
    .setup = tb_reduce_setup,
    .generate = tb_reduce_generate,
    .verify = tb_reduce_verify,
    .cost = tb_reduce_cost,
    .dump = NULL,
    .cleanup = tb_problem_free_priv,
};
