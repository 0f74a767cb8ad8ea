/* twinbench: stream compaction's problem, reference, verifier and cost. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "../common/rng.h"
#include "scan.h"

static const tb_param_def_t tb_compact_params[] = {
    {"keep", "the fraction of the inputs below the threshold (inputs uniform on [1, 1001), "
             "threshold 1 + 1000 keep)", TB_PARAM_REAL, "0.5", 0.0, 1.0, NULL, 0, NULL},
};

static const tb_column_def_t tb_compact_columns[] = {
    [TB_COMPACT_RESULT] = {"result", "%.0f", "the count of kept elements the variant wrote", 0},
    [TB_COMPACT_LAUNCHES] = {"launches", "%.0f",
                             "GPU: kernel launches per compaction; CPU: passes over the data", 0},
};

/* The reference's fixed chunks (the result does not depend on the team). */
enum { TB_COMPACT_CHUNKS = 256 };

static int tb_compact_setup(tb_problem_t *p)
{
  if (p->n < 1)
    return tb_fail(TB_EINVAL, "compact needs at least one element (size %lld)", (long long)p->n);
  tb_compact_t *c = calloc(1, sizeof *c);
  if (!c)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = c;
  tb_kind_t k = tb_prec_kind(p->prec);
  c->below = 1.0 + 1000.0 * p->param[0].r;
  c->x = tb_problem_add_array(p, "x", k, TB_IN, p->n);
  c->y = tb_problem_add_array(p, "y", k, TB_OUT, p->n);
  c->count = tb_problem_add_array(p, "count", TB_KIND_I64, TB_OUT, 1);
  /* The GPU's flags and indices (8 bytes an element), tile states and CUB's scratch. */
  p->extra_device_bytes = tb_count_add(p, tb_count_mul(p, p->n, 8), (int64_t)1 << 22);
  return p->overflow ? TB_EINVAL : TB_OK;
}

/* Whether element i of x is kept. */
static int tb_compact_keeps(const tb_problem_t *p, const void *x, int64_t i)
{
  const tb_compact_t *c = p->priv;
  switch (p->prec) {
  case TB_INT32: return (double)((const int32_t *)x)[i] < c->below;
  case TB_FLOAT: return ((const float *)x)[i] < (float)c->below;
  default: return ((const double *)x)[i] < c->below;
  }
}

/* Never zero: int32 uniform on 1..1000, floating point on [1, 1001); the
 * reference count (the cost model's bytes written) follows. */
static int tb_compact_generate(tb_problem_t *p)
{
  tb_compact_t *c = p->priv;
  void *x = p->array[c->x].host;
  if (p->prec == TB_INT32)
    tb_rng_int32(x, p->n, p->seed, 1, 1, 1000);
  else
    tb_rng_uniform(p->prec, x, p->n, p->seed, 1, 1.0, 1001.0);
  int64_t kept = 0;
#pragma omp parallel for schedule(static) reduction(+ : kept)
  for (int64_t i = 0; i < p->n; i++)
    kept += tb_compact_keeps(p, x, i);
  c->kept = kept;
  return TB_OK;
}

/* Exact and stable: the count equals the reference's, and y[0 .. count)
 * holds the kept inputs bit for bit in their input order (each chunk of x
 * checked against its slice of y from the counts of the chunks before it).
 * The error is the number of wrong elements plus the count's difference. */
static int tb_compact_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  const tb_compact_t *c = p->priv;
  const void *x = view[c->x];
  const char *y = view[c->y];
  const int64_t got = *(const int64_t *)view[c->count], n = p->n;
  const int64_t nc = n < 4096 ? 1 : TB_COMPACT_CHUNKS;
  const size_t e = tb_kind_size(tb_prec_kind(p->prec));
  int64_t off[TB_COMPACT_CHUNKS + 1];
  extra[TB_COMPACT_RESULT] = (double)got;
  off[0] = 0;
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < nc; k++) {
    int64_t m = 0;
    for (int64_t i = n * k / nc; i < n * (k + 1) / nc; i++)
      m += tb_compact_keeps(p, x, i);
    off[k + 1] = m;
  }
  for (int64_t k = 0; k < nc; k++)
    off[k + 1] += off[k];
  int64_t bad = 0, first = INT64_MAX;
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first)
  for (int64_t k = 0; k < nc; k++) {
    int64_t j = off[k];
    for (int64_t i = n * k / nc; i < n * (k + 1) / nc; i++)
      if (tb_compact_keeps(p, x, i)) {
        if (memcmp(y + j * e, (const char *)x + i * e, e)) {
          bad++;
          if (j < first)
            first = j;
        }
        j++;
      }
  }
  const int64_t diff = got > c->kept ? got - c->kept : c->kept - got;
  if (tb_check_against(chk, (double)(bad + diff), 0.0)) {
    if (diff)
      return tb_check_fail(chk, "count %lld, the reference keeps %lld of %lld", (long long)got,
                           (long long)c->kept, (long long)n);
    return tb_check_fail(chk, "%lld kept elements wrong or out of order, the first y[%lld]",
                         (long long)bad, (long long)first);
  }
  return TB_OK;
}

/* Each input read once; the kept ones and the count written once. */
static void tb_compact_cost(const tb_problem_t *p, tb_cost_t *c)
{
  const tb_compact_t *cp = p->priv;
  const double e = (double)tb_kind_size(tb_prec_kind(p->prec));
  c->read = (double)p->n * e;
  c->written = (double)cp->kept * e + 8.0;
  c->flops = 0.0;
}

const tb_algo_t tb_algo_compact = {
    .name = "compact",
    .summary = "stream compaction (keep the values below a threshold, stable): mark-scan-scatter, "
               "one pass, CUB",
    .flags = 0,
    .precisions = TB_PREC_BIT(TB_INT32) | TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_precisions = TB_PREC_BIT(TB_INT32),
    .default_sizes = "2^24",
    .size_meaning = "elements filtered",
    .presets = NULL,
    .npresets = 0,
    .params = tb_compact_params,
    .nparams = TB_COUNT(tb_compact_params),
    .columns = tb_compact_columns,
    .ncolumns = TB_COUNT(tb_compact_columns),
    .error_meaning = "wrong or misplaced kept elements plus the count's difference (bound 0)",
    .setup = tb_compact_setup,
    .generate = tb_compact_generate,
    .verify = tb_compact_verify,
    .cost = tb_compact_cost,
    .dump = NULL,
    .cleanup = tb_problem_free_priv,
};
