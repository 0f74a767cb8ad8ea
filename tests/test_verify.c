/* The STREAM verifier passes correct results and catches wrong ones: an
 * element off by more than its rounding bound, an element never written
 * (still poisoned), and a dot product off by more than its bound. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"
#include "common/runner.h"
#include "families/stream.h"
#include "testutil.h"

static const char *const ops[] = {"copy", "scale", "add", "triad", "dot"};

/* Run the verifier on out for problem p; returns the verdict. */
static tb_verdict_t verdict(tb_problem_t *p, void *out)
{
  const tb_stream_t *s = p->priv;
  void *view[TB_MAX_ARRAYS] = {0};
  double extra[TB_MAX_COLUMNS];
  tb_check_t chk;
  memset(&chk, 0, sizeof chk);
  for (int k = 0; k < TB_MAX_COLUMNS; k++)
    extra[k] = NAN; /* as the runner leaves them: no depth stated, the bound of any order */
  view[s->a] = p->array[s->a].host;
  if (s->b >= 0)
    view[s->b] = p->array[s->b].host;
  view[s->c] = out;
  CHECK(p->algo->verify(p, view, extra, &chk) == TB_OK, "verify returned an error");
  return chk.verdict;
}

/* The correct result, computed the plain way in the problem's precision. */
static void compute(const tb_problem_t *p, void *out)
{
  const tb_stream_t *s = p->priv;
  const double q = TB_STREAM_Q;
  double dot = 0.0;
  for (int64_t i = 0; i < p->n; i++) {
    double a, b = 0, c;
    if (p->prec == TB_FLOAT) {
      a = ((float *)p->array[s->a].host)[i];
      if (s->b >= 0)
        b = ((float *)p->array[s->b].host)[i];
    } else {
      a = ((double *)p->array[s->a].host)[i];
      if (s->b >= 0)
        b = ((double *)p->array[s->b].host)[i];
    }
    switch (s->op) {
    case TB_STREAM_COPY: c = a; break;
    case TB_STREAM_SCALE: c = q * a; break;
    case TB_STREAM_ADD: c = a + b; break;
    case TB_STREAM_TRIAD: c = a + q * b; break;
    default: dot += a * b; continue;
    }
    if (p->prec == TB_FLOAT)
      ((float *)out)[i] = (float)c;
    else
      ((double *)out)[i] = c;
  }
  if (s->op == TB_STREAM_DOT) {
    if (p->prec == TB_FLOAT)
      *(float *)out = (float)dot;
    else
      *(double *)out = dot;
  }
}

int main(void)
{
  for (int prec = TB_FLOAT; prec <= TB_DOUBLE; prec++)
    for (int op = 0; op < 5; op++) {
      tb_param_value_t pv = {op, op, ops[op]};
      tb_problem_t p;
      int64_t n = 10007;
      int rc = tb_problem_create(&p, &tb_algo_stream, (tb_prec_t)prec, n, 1234 + op, &pv);
      CHECK(rc == TB_OK, "create: %s", tb_error_detail());
      if (rc)
        continue;
      size_t e = prec == TB_FLOAT ? 4 : 8;
      void *out = malloc(n * e);
      if (!out)
        return 99;
      compute(&p, out);
      CHECK(verdict(&p, out) == TB_PASS, "%s %s: correct result rejected", ops[op],
            prec == TB_FLOAT ? "float" : "double");

      /* Ten units in the last place on one element (or the sum) breaks every bound. */
      int64_t at = op == TB_STREAM_DOT ? 0 : n / 3;
      if (prec == TB_FLOAT)
        ((float *)out)[at] *= 1.0f + 10.0f * ldexpf(1.0f, -23);
      else
        ((double *)out)[at] *= 1.0 + 10.0 * ldexp(1.0, -52);
      if (op == TB_STREAM_DOT && prec == TB_DOUBLE) /* its bound grows with n */
        ((double *)out)[0] *= 1.0 + 1e-9;
      CHECK(verdict(&p, out) == TB_FAIL, "%s %s: wrong element accepted", ops[op],
            prec == TB_FLOAT ? "float" : "double");

      /* An element never written keeps its poison. */
      compute(&p, out);
      tb_poison(out, tb_prec_kind((tb_prec_t)prec), op == TB_STREAM_DOT ? 0 : n - 1,
                op == TB_STREAM_DOT ? 1 : n);
      CHECK(verdict(&p, out) == TB_FAIL, "%s %s: poisoned element accepted", ops[op],
            prec == TB_FLOAT ? "float" : "double");
      free(out);
      tb_problem_destroy(&p);
    }
  TEST_EXIT();
}
