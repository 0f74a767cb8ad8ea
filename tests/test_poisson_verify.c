/* The Poisson verifier passes right solutions and catches wrong ones: on a
 * single Fourier mode (whose exact solution is also the discrete one) in 2-D
 * and 3-D, float and double, the exact solution passes with its error
 * columns at rounding, and a solution off by 5 %, one without the 1/N^dim
 * scaling, one with a point never written (the poison) and one with its mean
 * left in all fail; a transform-only row passes as the round trip N^dim f and
 * fails without the factor. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"
#include "common/refmath.h"
#include "families/poisson.h"
#include "testutil.h"

/* The verdict on u for problem p; roundtrip marks a transform-only row. */
static tb_verdict_t verdict(tb_problem_t *p, const void *u, int roundtrip, double *extra)
{
  const tb_poisson_t *s = p->priv;
  void *view[TB_MAX_ARRAYS] = {0};
  tb_check_t chk;
  for (int k = 0; k < TB_MAX_COLUMNS; k++)
    extra[k] = NAN;
  extra[TB_POISSON_ROUNDTRIP] = roundtrip;
  memset(&chk, 0, sizeof chk);
  view[s->f] = p->array[s->f].host;
  view[s->u] = (void *)u;
  CHECK(p->algo->verify(p, view, extra, &chk) == TB_OK, "verify returned an error");
  CHECK(chk.verdict != TB_PASS || chk.error <= chk.tolerance, "a pass above the tolerance");
  return chk.verdict;
}

/* u_j = a x_j + b in the problem's precision, x the exact solution
 * (exact = 1) or f. */
static void affine(const tb_problem_t *p, void *u, int exact, double a, double b)
{
  const tb_poisson_t *s = p->priv;
  for (int64_t j = 0; j < s->total; j++) {
    double x = exact ? tb_poisson_solution(p, j) : (double)tb_elem_ld(p->array[s->f].host, p->prec, j);
    if (p->prec == TB_FLOAT)
      ((float *)u)[j] = (float)(a * x + b);
    else
      ((double *)u)[j] = a * x + b;
  }
}

int main(void)
{
  static const struct {
    int dim;
    int64_t n;
  } shapes[] = {{2, 16}, {2, 10}, {3, 8}};
  for (int prec = TB_FLOAT; prec <= TB_DOUBLE; prec++)
    for (int si = 0; si < TB_COUNT(shapes); si++) {
      const int dim = shapes[si].dim;
      const char *pn = tb_prec_name((tb_prec_t)prec);
      tb_param_value_t pv[4] = {{0, 1.0, "1"}, {0, 0.1, "0.1"}, {dim, dim, dim == 2 ? "2" : "3"},
                                {1, 1, "mode"}};
      tb_problem_t p;
      double extra[TB_MAX_COLUMNS];
      int rc = tb_problem_create(&p, &tb_algo_poisson, (tb_prec_t)prec, shapes[si].n, 31 + si, pv);
      CHECK(rc == TB_OK, "create: %s", tb_error_detail());
      if (rc)
        continue;
      const tb_poisson_t *s = p.priv;
      const size_t e = tb_kind_size(tb_prec_kind((tb_prec_t)prec));
      void *u = malloc((size_t)s->total * e);
      CHECK(u != NULL, "out of memory");
      if (!u)
        continue;
      /* The exact solution of a mode is the discrete one: it passes, and its
       * error columns are its rounding to the precision. */
      affine(&p, u, 1, 1.0, 0.0);
      CHECK(verdict(&p, u, 0, extra) == TB_PASS, "%s dim %d: the exact solution failed", pn, dim);
      CHECK(extra[TB_POISSON_ERR_LINF] <= 4 * tb_unit_roundoff((tb_prec_t)prec),
            "%s dim %d: the exact solution's err_linf is %g", pn, dim, extra[TB_POISSON_ERR_LINF]);
      affine(&p, u, 1, 1.05, 0.0);
      CHECK(verdict(&p, u, 0, extra) == TB_FAIL, "%s dim %d: a solution off by 5%% passed", pn, dim);
      affine(&p, u, 1, (double)s->total, 0.0);
      CHECK(verdict(&p, u, 0, extra) == TB_FAIL, "%s dim %d: an unscaled solution passed", pn, dim);
      affine(&p, u, 1, 1.0, 0.5);
      CHECK(verdict(&p, u, 0, extra) == TB_FAIL, "%s dim %d: a solution with a mean passed", pn,
            dim);
      affine(&p, u, 1, 1.0, 0.0);
      tb_poison(u, tb_prec_kind((tb_prec_t)prec), 3, 4);
      CHECK(verdict(&p, u, 0, extra) == TB_FAIL, "%s dim %d: a poisoned point passed", pn, dim);
      affine(&p, u, 0, (double)s->total, 0.0);
      CHECK(verdict(&p, u, 1, extra) == TB_PASS, "%s dim %d: the round trip N^dim f failed", pn,
            dim);
      CHECK(isnan(extra[TB_POISSON_ERR_LINF]), "%s: a round trip has an error column", pn);
      affine(&p, u, 0, 1.0, 0.0);
      CHECK(verdict(&p, u, 1, extra) == TB_FAIL, "%s dim %d: a round trip without N^dim passed",
            pn, dim);
      free(u);
      tb_problem_destroy(&p);
    }
  TEST_EXIT();
}
