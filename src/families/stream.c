/* twinbench: the STREAM family's problem, reference, verifier and cost. */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "../common/refmath.h"
#include "../common/rng.h"
#include "stream.h"

static const char *const tb_stream_ops[] = {"copy", "scale", "add", "triad", "dot", NULL};

static const tb_param_def_t tb_stream_params[] = {
    {"op", "the STREAM operation", TB_PARAM_CHOICE, "copy,scale,add,triad,dot", 0, 0,
     tb_stream_ops, 0, NULL},
};

static const tb_column_def_t tb_stream_columns[] = {
    {"result", "%.10g", "dot: the sum the variant computed", 0},
    {"depth", "%.0f", "dot: the most additions between a product and the sum, as the variant sums", 0},
};

/* The problem's private state: what variants see, and the cached dot reference. */
typedef struct tb_stream_priv {
  tb_stream_t pub;
  int have_ref;
  long double ref, smallest; /* the dot's sum and its smallest term */
} tb_stream_priv_t;

static int tb_stream_setup(tb_problem_t *p)
{
  tb_stream_priv_t *sp = calloc(1, sizeof *sp);
  if (!sp)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = sp;
  tb_stream_t *s = &sp->pub;
  s->op = (int)p->param[0].i;
  tb_kind_t k = tb_prec_kind(p->prec);
  s->b = -1;
  s->a = tb_problem_add_array(p, "a", k, TB_IN, p->n);
  if (s->op == TB_STREAM_ADD || s->op == TB_STREAM_TRIAD || s->op == TB_STREAM_DOT)
    s->b = tb_problem_add_array(p, "b", k, TB_IN, p->n);
  s->c = tb_problem_add_array(p, s->op == TB_STREAM_DOT ? "sum" : "c", k, TB_OUT,
                              s->op == TB_STREAM_DOT ? 1 : p->n);
  /* The GPU dot keeps one double partial per block. */
  p->extra_device_bytes = 1 << 20;
  return TB_OK;
}

/* Inputs uniform in [0.5, 1.5): positive, so no cancellation hides errors,
 * and never zero or constant. */
static int tb_stream_generate(tb_problem_t *p)
{
  const tb_stream_t *s = p->priv;
  tb_rng_uniform(p->prec, p->array[s->a].host, p->n, p->seed, 1, 0.5, 1.5);
  if (s->b >= 0)
    tb_rng_uniform(p->prec, p->array[s->b].host, p->n, p->seed, 2, 0.5, 1.5);
  return TB_OK;
}

/* The rounding error bounds, with u the unit roundoff of the precision:
 *   copy   exact;
 *   scale  |c - q a| <= u |q a|          (one rounding);
 *   add    |c - (a + b)| <= u |a + b|    (one rounding);
 *   triad  |c - (a + q b)| <= 2u (|a| + |q b|)  (two roundings, or one with FMA);
 *   dot    products and sums in double; each product reaches the sum through at most
 *          h additions (the depth the variant states for its order; n for any order):
 *          |s - sum| <= gamma_{h+1}(u_d) sum|a b| + u |sum|  (final rounding to the precision),
 *          gamma_k = k u_d / (1 - k u_d); all terms are positive, so sum|a b| = |sum|.
 * The error column is the largest |x - ref| / m over the elements, where m is
 * the magnitude in the bound (|ref|, or |a| + |q b| for triad). */
static int tb_stream_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  const tb_stream_t *s = p->priv;
  const void *a = view[s->a], *b = s->b >= 0 ? view[s->b] : NULL, *c = view[s->c];
  const double u = tb_unit_roundoff(p->prec);
  const long double q = TB_STREAM_Q;
  const int64_t n = p->n;

  if (s->op == TB_STREAM_DOT) {
    const double ud = tb_unit_roundoff(TB_DOUBLE);
    tb_stream_priv_t *sp = p->priv;
    if (!sp->have_ref) { /* compensated, in extended precision, once per problem */
      sp->ref = tb_ref_sum(a, b, p->prec, n, &sp->smallest);
      sp->have_ref = 1;
    }
    long double sum = sp->ref;
    extra[TB_STREAM_DEPTH] = tb_sum_depth(extra[TB_STREAM_DEPTH], n);
    double k = (extra[TB_STREAM_DEPTH] + 1.0) * ud;
    double got = (double)tb_elem_ld(c, p->prec, 0);
    extra[TB_STREAM_RESULT] = got;
    if (tb_check_against(chk, (double)(fabsl((long double)got - sum) / sum),
                         k / (1.0 - k) + u * (1.0 + k)))
      tb_check_fail(chk, "sum %.17g, reference %.17Lg: relative error %.3g over the bound %.3g%s",
                    got, sum, chk->error, chk->tolerance, tb_poison_note(got));
    return tb_ref_sum_vacuous(chk, sum, sp->smallest);
  }

  tb_worst_t worst = TB_WORST_NONE;
#pragma omp parallel
  {
    tb_worst_t w = TB_WORST_NONE;
#pragma omp for schedule(static) nowait
    for (int64_t i = 0; i < n; i++) {
      long double x = tb_elem_ld(a, p->prec, i), ref, mag;
      switch (s->op) {
      case TB_STREAM_COPY: ref = x; mag = fabsl(x); break;
      case TB_STREAM_SCALE: ref = q * x; mag = fabsl(ref); break;
      case TB_STREAM_ADD: ref = x + tb_elem_ld(b, p->prec, i); mag = fabsl(ref); break;
      default: {
        long double qb = q * tb_elem_ld(b, p->prec, i);
        ref = x + qb;
        mag = fabsl(x) + fabsl(qb);
      }
      }
      tb_worst_see(&w, (double)(fabsl(tb_elem_ld(c, p->prec, i) - ref) / mag), i);
    }
#pragma omp critical
    tb_worst_merge(&worst, &w);
  }
  const double tol =
      (s->op == TB_STREAM_COPY ? 0.0 : s->op == TB_STREAM_TRIAD ? 2.0 : 1.0) * u * (1.0 + 2 * u);
  if (tb_check_against(chk, worst.err, tol)) {
    double got = (double)tb_elem_ld(c, p->prec, worst.at);
    tb_check_fail(chk, "c[%lld] = %.17g (a = %.17g): error %.3g over the bound %.3g%s",
                  (long long)worst.at, got, (double)tb_elem_ld(a, p->prec, worst.at), worst.err,
                  tol, tb_poison_note(got));
  }
  return TB_OK;
}

static void tb_stream_cost(const tb_problem_t *p, tb_cost_t *c)
{
  /* Arrays read and written (the dot writes one number), and flops, per element. */
  static const double read[] = {1, 1, 2, 2, 2}, written[] = {1, 1, 1, 1, 0},
                      ops[] = {0, 1, 1, 2, 2};
  const tb_stream_t *s = p->priv;
  double e = (double)tb_kind_size(tb_prec_kind(p->prec));
  c->read = read[s->op] * (double)p->n * e;
  c->written = s->op == TB_STREAM_DOT ? e : written[s->op] * (double)p->n * e;
  c->flops = ops[s->op] * (double)p->n;
}

const tb_algo_t tb_algo_stream = {
    .name = "stream",
    .summary = "STREAM copy, scale, add, triad and dot: the memory-bandwidth baseline",
    .flags = 0,
    .precisions = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_precisions = TB_PREC_BIT(TB_DOUBLE),
    .default_sizes = "auto",
    .size_meaning = "elements per array",
    .presets = NULL,
    .npresets = 0,
    .params = tb_stream_params,
    .nparams = TB_COUNT(tb_stream_params),
    .columns = tb_stream_columns,
    .ncolumns = TB_COUNT(tb_stream_columns),
    .error_meaning = "largest |x - ref| / m over the elements, m the magnitude in the rounding "
                     "bound; dot: relative error of the sum",
    .setup = tb_stream_setup,
    .generate = tb_stream_generate,
    .verify = tb_stream_verify,
    .cost = tb_stream_cost,
    .dump = NULL,
    .cleanup = tb_problem_free_priv,
};
