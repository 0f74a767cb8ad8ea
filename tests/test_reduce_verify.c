/* The reduction verifier passes right sums and catches wrong ones: an int32
 * sum off by one, a floating-point sum off by more than its bound, a sum never
 * written (still poisoned), and a float sum whose error fits the bound of one
 * running sum (depth n) but not the bound of the order a variant claims. */
#include <config.h>

#include <math.h>
#include <string.h>

#include "common/mem.h"
#include "families/reduce.h"
#include "common/runner.h"
#include "testutil.h"

/* The verdict on `sum` for problem p when the variant states `depth` (NaN: none). */
static tb_verdict_t verdict(tb_problem_t *p, const void *sum, double depth, double *error)
{
  const tb_reduce_t *r = p->priv;
  void *view[TB_MAX_ARRAYS] = {0};
  double extra[TB_MAX_COLUMNS];
  tb_check_t chk;
  for (int k = 0; k < TB_MAX_COLUMNS; k++)
    extra[k] = NAN;
  extra[TB_REDUCE_DEPTH] = depth;
  memset(&chk, 0, sizeof chk);
  view[r->x] = p->array[r->x].host;
  view[r->sum] = (void *)sum;
  CHECK(p->algo->verify(p, view, extra, &chk) == TB_OK, "verify returned an error");
  CHECK(chk.verdict != TB_PASS || chk.error <= chk.tolerance, "a pass above the tolerance");
  if (error)
    *error = chk.error;
  return chk.verdict;
}

/* One running sum in the problem's precision (float and double), and the
 * sum in double, which is exact for these sizes of int32 and nearly so for
 * float. */
static double running_sum(const tb_problem_t *p, double *wide)
{
  const void *x = p->array[((const tb_reduce_t *)p->priv)->x].host;
  float sf = 0.0f;
  double sd = 0.0;
  *wide = 0.0;
  for (int64_t i = 0; i < p->n; i++) {
    double v = p->prec == TB_INT32   ? ((const int32_t *)x)[i]
               : p->prec == TB_FLOAT ? ((const float *)x)[i]
                                     : ((const double *)x)[i];
    if (p->prec == TB_FLOAT)
      sf += (float)v;
    else
      sd += v;
    *wide += v;
  }
  return p->prec == TB_FLOAT ? sf : sd;
}

int main(void)
{
  static const int64_t sizes[] = {1, 31, 1000003};
  for (int prec = TB_INT32; prec <= TB_DOUBLE; prec++)
    for (int si = 0; si < 3; si++) {
      tb_problem_t p;
      int64_t n = sizes[si];
      const char *pn = tb_prec_name((tb_prec_t)prec);
      int rc = tb_problem_create(&p, &tb_algo_reduce, (tb_prec_t)prec, n, 77 + si, NULL);
      CHECK(rc == TB_OK, "create: %s", tb_error_detail());
      if (rc)
        continue;
      double wide, plain = running_sum(&p, &wide);
      union {
        int32_t i;
        float f;
        double d;
      } s;

      /* The right sum passes, with the bound of any order (no depth given);
       * in float at 10^6 that bound (depth n) is as large as an input, so
       * the row says so instead. */
      const tb_verdict_t right = prec == TB_FLOAT && n > 4096 ? TB_UNVERIFIABLE : TB_PASS;
      if (prec == TB_INT32)
        s.i = (int32_t)wide;
      else if (prec == TB_FLOAT)
        s.f = (float)plain;
      else
        s.d = plain;
      CHECK(verdict(&p, &s, NAN, NULL) == right, "%s n=%lld: right sum rejected", pn,
            (long long)n);

      /* Off by one (int32), or by a quarter (beyond every bound here: the
       * loosest, float at depth 10^6, is 0.06). */
      if (prec == TB_INT32)
        s.i += 1;
      else if (prec == TB_FLOAT)
        s.f = (float)(wide * 1.25);
      else
        s.d = wide * 1.25;
      CHECK(verdict(&p, &s, NAN, NULL) == TB_FAIL, "%s n=%lld: wrong sum accepted", pn,
            (long long)n);

      /* Never written: the backends' poison. */
      tb_poison(&s, tb_prec_kind((tb_prec_t)prec), 0, 1);
      CHECK(verdict(&p, &s, NAN, NULL) == TB_FAIL, "%s n=%lld: poisoned sum accepted", pn,
            (long long)n);

      /* The float running sum at 10^6 errs by far more than a depth of 25
       * allows, but within the bound for depth n, which is vacuous: a sum
       * that dropped its last input is inside it too, so neither passes. */
      if (prec == TB_FLOAT && n == 1000003) {
        double err;
        s.f = (float)plain;
        CHECK(verdict(&p, &s, (double)n, &err) == TB_UNVERIFIABLE, "float running sum rejected");
        CHECK(err > tb_reduce_tolerance(TB_FLOAT, 25), "float running sum error %g is small", err);
        CHECK(verdict(&p, &s, 25, NULL) == TB_FAIL, "float running sum passed at depth 25");
        s.f = (float)(plain - (double)((const float *)p.array[((const tb_reduce_t *)p.priv)->x].host)[n - 1]);
        CHECK(verdict(&p, &s, (double)n, NULL) == TB_UNVERIFIABLE,
              "a running sum without its last input passed");
      }
      /* A dropped input never passes: at depth 25 (pairwise) it fails, but
       * in float at 10^6 even that bound is as large as an input. */
      if (prec != TB_INT32) {
        double last = prec == TB_FLOAT ? ((const float *)p.array[((const tb_reduce_t *)p.priv)->x].host)[n - 1]
                                       : ((const double *)p.array[((const tb_reduce_t *)p.priv)->x].host)[n - 1];
        if (prec == TB_FLOAT)
          s.f = (float)(wide - last);
        else
          s.d = wide - last;
        CHECK(verdict(&p, &s, 25, NULL) == (prec == TB_FLOAT && n > 4096 ? TB_UNVERIFIABLE : TB_FAIL),
              "%s n=%lld: a sum without its last input passed at depth 25", pn, (long long)n);
      }
      tb_problem_destroy(&p);
    }

  /* The tolerances: exact for int32; (1+u)^h - 1 is gamma_h to first order
   * and stays finite where h u >= 1. */
  CHECK(tb_reduce_tolerance(TB_INT32, 1e9) == 0.0, "int32 tolerance not zero");
  double t = tb_reduce_tolerance(TB_DOUBLE, 1000);
  CHECK(fabs(t - 1000 * ldexp(1.0, -53)) < 1e-3 * t, "double tolerance %g at depth 1000", t);
  t = tb_reduce_tolerance(TB_FLOAT, 1 << 28);
  CHECK(isfinite(t) && t > 1.0, "float tolerance %g at depth 2^28", t);
  TEST_EXIT();
}
