/* The scan family's verifiers pass right answers and catch wrong ones:
 * a prefix sum with one element off by one input (int32 and double), or
 * never written (still poisoned), or a float sum whose error fits the bound
 * of a running sum but not the depth a variant states; a compaction with
 * two kept elements swapped (not stable) or a wrong count; a list ranking
 * or a tree's depths with two ranks swapped; and the generated list is one
 * chain from its head, the tree one tree of a random tree's depth; a series
 * of 1/i^2 with one term too many; an Irwin-Hall CDF with a count off by one. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"
#include "families/scan.h"
#include "testutil.h"

/* The verdict on the outputs out[] (by array index, NULL: the problem's
 * own) of problem p, the variant stating `depth` in column 0 (NaN: none). */
static tb_verdict_t verdict(tb_problem_t *p, void *const *out, double depth)
{
  void *view[TB_MAX_ARRAYS] = {0};
  double extra[TB_MAX_COLUMNS];
  tb_check_t chk;
  for (int k = 0; k < TB_MAX_COLUMNS; k++)
    extra[k] = NAN;
  extra[0] = depth;
  memset(&chk, 0, sizeof chk);
  for (int i = 0; i < p->narrays; i++)
    view[i] = out[i] ? out[i] : p->array[i].host;
  CHECK(p->algo->verify(p, view, extra, &chk) == TB_OK, "verify returned an error");
  CHECK(chk.verdict != TB_PASS || chk.error <= chk.tolerance, "a pass above the tolerance");
  return chk.verdict;
}

/* The right prefix sums of p's input: int32 in uint32 (wrapping), double
 * and float through a long double running sum rounded once. */
static void *scan_right(const tb_problem_t *p)
{
  const tb_scan_t *s = p->priv;
  const size_t e = tb_kind_size(tb_prec_kind(p->prec));
  void *y = malloc((size_t)p->n * e);
  uint32_t ti = 0;
  long double t = 0;
  for (int64_t i = 0; i < p->n; i++) {
    uint32_t ui = ti;
    long double ld = t;
    if (p->prec == TB_INT32) {
      ti += (uint32_t)((const int32_t *)p->array[s->x].host)[i];
      ((uint32_t *)y)[i] = s->kind == TB_SCAN_INCLUSIVE ? ti : ui;
    } else {
      t += p->prec == TB_FLOAT ? ((const float *)p->array[s->x].host)[i]
                               : ((const double *)p->array[s->x].host)[i];
      if (p->prec == TB_FLOAT)
        ((float *)y)[i] = (float)(s->kind == TB_SCAN_INCLUSIVE ? t : ld);
      else
        ((double *)y)[i] = (double)(s->kind == TB_SCAN_INCLUSIVE ? t : ld);
    }
  }
  return y;
}

static void test_scan(void)
{
  static const int64_t sizes[] = {1, 31, 100003};
  for (int prec = TB_INT32; prec <= TB_DOUBLE; prec++)
    for (int kind = 0; kind < 2; kind++)
      for (int si = 0; si < 3; si++) {
        tb_problem_t p;
        tb_param_value_t par[1] = {{kind, 0, kind ? "exclusive" : "inclusive"}};
        const int64_t n = sizes[si];
        CHECK(tb_problem_create(&p, &tb_algo_scan, (tb_prec_t)prec, n, 5 + si, par) == TB_OK,
              "create scan %d %lld", prec, (long long)n);
        const tb_scan_t *s = p.priv;
        void *out[TB_MAX_ARRAYS] = {0};
        void *y = scan_right(&p);
        out[s->y] = y;
        /* Right: a pass, or for float at 100003 unverifiable (its bound at
         * depth n reaches an input). */
        CHECK(verdict(&p, out, NAN) == (prec == TB_FLOAT && n > 31 ? TB_UNVERIFIABLE : TB_PASS),
              "right scan fails (prec %d, n %lld)", prec, (long long)n);
        const int64_t at = n / 2;
        if (prec == TB_INT32)
          ((uint32_t *)y)[at] += 1;
        else if (prec == TB_DOUBLE)
          ((double *)y)[at] += 0.5;
        else
          ((float *)y)[at] += 0.5f;
        if (prec != TB_FLOAT || n <= 31)
          CHECK(verdict(&p, out, NAN) == TB_FAIL, "an element off by 0.5 or 1 passes (prec %d, "
                "n %lld)", prec, (long long)n);
        tb_poison(y, tb_prec_kind(p.prec), at, at + 1);
        CHECK(verdict(&p, out, NAN) == TB_FAIL, "a poisoned element passes (prec %d, n %lld)",
              prec, (long long)n);
        if (prec == TB_FLOAT && n == 100003 && kind == 0) {
          /* A running float sum errs far beyond the bound of depth 17. */
          float r = 0;
          for (int64_t i = 0; i < n; i++)
            ((float *)y)[i] = r += ((const float *)p.array[s->x].host)[i];
          CHECK(verdict(&p, out, NAN) != TB_FAIL, "a running float sum fails at depth n");
          CHECK(verdict(&p, out, 17) == TB_FAIL, "a running float sum passes at depth 17");
        }
        free(y);
        tb_problem_destroy(&p);
      }
}

static void test_compact(void)
{
  tb_problem_t p;
  tb_param_value_t par[1] = {{0, 0.5, "0.5"}};
  const int64_t n = 10007;
  CHECK(tb_problem_create(&p, &tb_algo_compact, TB_DOUBLE, n, 3, par) == TB_OK, "create compact");
  const tb_compact_t *c = p.priv;
  const double *x = p.array[c->x].host;
  double *y = calloc((size_t)n, sizeof *y);
  int64_t m = 0;
  for (int64_t i = 0; i < n; i++)
    if (x[i] < c->below)
      y[m++] = x[i];
  void *out[TB_MAX_ARRAYS] = {0};
  out[c->y] = y;
  out[c->count] = &m;
  CHECK(m > 4000 && m < 6000, "keep 0.5 kept %lld of %lld", (long long)m, (long long)n);
  CHECK(verdict(&p, out, NAN) == TB_PASS, "right compaction fails");
  double t = y[1];
  y[1] = y[2];
  y[2] = t;
  CHECK(verdict(&p, out, NAN) == TB_FAIL, "an unstable compaction passes");
  y[2] = y[1];
  y[1] = t;
  m--;
  CHECK(verdict(&p, out, NAN) == TB_FAIL, "a short count passes");
  free(y);
  tb_problem_destroy(&p);
}

/* List ranks and tree depths: the ranks by definition (the links from each
 * node to the end, followed one by one) pass, two of them swapped fail. */
static void test_listrank(void)
{
  static const int64_t sizes[] = {1, 2, 1000};
  for (int shape = TB_SHAPE_LIST; shape <= TB_SHAPE_TREE; shape++)
    for (int si = 0; si < 3; si++) {
      tb_problem_t p;
      const int64_t n = sizes[si];
      tb_param_value_t par[1] = {{shape, 0, shape ? "tree" : "list"}};
      CHECK(tb_problem_create(&p, &tb_algo_listrank, TB_INT32, n, 9, par) == TB_OK,
            "create listrank");
      const tb_listrank_t *l = p.priv;
      const int32_t *succ = p.array[l->succ].host;
      int32_t *rank = calloc((size_t)n, sizeof *rank);
      int64_t ends = 0, deepest = 0;
      for (int64_t i = 0; i < n; i++) {
        int64_t d = 0;
        for (int32_t v = succ[i]; v != TB_LIST_END && d <= n; v = succ[v])
          d++;
        rank[i] = (int32_t)d;
        ends += succ[i] == TB_LIST_END;
        deepest = d > deepest ? d : deepest;
      }
      CHECK(ends == 1, "%lld ends, not one (shape %d, n %lld)", (long long)ends, shape,
            (long long)n);
      if (shape == TB_SHAPE_LIST)
        CHECK(deepest == n - 1 && rank[*(const int32_t *)p.array[l->head].host] == n - 1,
              "the list is no single chain from the head (n %lld)", (long long)n);
      else if (n == 1000)
        CHECK(deepest > 5 && deepest < 60, "a random tree of 1000 nodes %lld deep",
              (long long)deepest);
      void *out[TB_MAX_ARRAYS] = {0};
      out[l->rank] = rank;
      CHECK(verdict(&p, out, NAN) == TB_PASS, "right ranks fail (shape %d, n %lld)", shape,
            (long long)n);
      if (n > 1) {
        int32_t t = rank[0];
        rank[0] = rank[n - 1] == t ? t + 1 : rank[n - 1];
        rank[n - 1] = t;
        CHECK(verdict(&p, out, NAN) == TB_FAIL, "wrong ranks pass (shape %d, n %lld)", shape,
              (long long)n);
      }
      free(rank);
      tb_problem_destroy(&p);
    }
}

/* The series: pi^2/6 minus the tail passes, one term too many fails. */
static void test_series(void)
{
  tb_problem_t p;
  const int64_t n = 1000;
  CHECK(tb_problem_create(&p, &tb_algo_series, TB_DOUBLE, n, 1, NULL) == TB_OK, "create series");
  const tb_series_t *s = p.priv;
  double sum = 0;
  for (int64_t i = n; i >= 1; i--)
    sum += 1.0 / ((double)i * (double)i);
  void *out[TB_MAX_ARRAYS] = {0};
  out[s->sum] = &sum;
  CHECK(verdict(&p, out, NAN) == TB_PASS, "the right series fails");
  sum += 1.0 / ((double)(n + 1) * (double)(n + 1));
  CHECK(verdict(&p, out, NAN) == TB_FAIL, "a series of n + 1 terms passes");
  tb_problem_destroy(&p);
}

/* The CDF: the exact counts pass, one count off by one fails. */
static void test_cdf(void)
{
  tb_problem_t p;
  const int64_t n = 100003;
  CHECK(tb_problem_create(&p, &tb_algo_cdf, TB_FLOAT, n, 2, NULL) == TB_OK, "create cdf");
  const tb_cdf_t *c = p.priv;
  const float *x = p.array[c->x].host;
  int64_t counts[TB_CDF_THRESHOLDS] = {0};
  for (int k = 0; k < TB_CDF_THRESHOLDS; k++)
    for (int64_t i = 0; i < n; i++)
      counts[k] += x[i] < (float)tb_cdf_threshold(k);
  /* t_49 = 4.95, just below the median 5: F = 0.478 (density 0.43 there). */
  CHECK(counts[49] > n * 0.46 && counts[49] < n * 0.5, "%lld of %lld below 4.95",
        (long long)counts[49], (long long)n);
  void *out[TB_MAX_ARRAYS] = {0};
  out[c->counts] = counts;
  CHECK(verdict(&p, out, NAN) == TB_PASS, "the exact counts fail");
  counts[10]++;
  CHECK(verdict(&p, out, NAN) == TB_FAIL, "a count off by one passes");
  tb_problem_destroy(&p);
}

int main(void)
{
  test_scan();
  test_cdf();
  test_series();
  test_compact();
  test_listrank();
  TEST_EXIT();
}
