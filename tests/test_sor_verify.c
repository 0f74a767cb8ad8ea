/* The SOR verifier passes a right solve and catches wrong ones: a free point
 * moved (its true residual over the bound the solver's residual implies), a
 * wall point or an electrode changed, a residual claimed below the truth,
 * a stop before tol and before maxiter, and a result never written (poison).
 * The uniform rows are exactly those whose every interior point and its six
 * neighbours share one material. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/registry.h"
#include "cpu_omp/cpu.h"
#include "families/sor.h"
#include "testutil.h"

/* The verdict on v with the columns extra (copied: verify fills some). */
static tb_verdict_t verdict(tb_problem_t *p, void *const *buf, const double *extra, char *note)
{
  double x[TB_MAX_COLUMNS];
  tb_check_t chk;
  memcpy(x, extra, sizeof x);
  memset(&chk, 0, sizeof chk);
  CHECK(p->algo->verify(p, buf, x, &chk) == TB_OK, "verify returned an error");
  CHECK(chk.verdict != TB_PASS || chk.error <= chk.tolerance, "a pass above the tolerance");
  if (note)
    strcpy(note, chk.note);
  return chk.verdict;
}

/* Set up and fill SOR problem `which` (its problem code) on mesh `mesh`,
 * size n, double; 0 when it is ready, else the failure is counted. */
static int sor_problem(tb_problem_t *p, const char *which, int code, const char *mesh,
                       int mesh_code, int64_t n)
{
  tb_param_value_t params[TB_MAX_PARAMS];
  memset(params, 0, sizeof params);
  params[0].s = which;
  params[0].i = code;
  params[1].s = mesh;
  params[1].i = mesh_code;
  params[2].s = "auto";
  params[3].r = 1e-9;
  params[5].i = 10;
  int rc = tb_problem_setup(p, &tb_algo_sor, TB_DOUBLE, n, 3, NULL, params);
  if (!rc)
    rc = tb_problem_fill(p);
  CHECK(rc == TB_OK, "%s: create: %s", which, tb_error_detail());
  return rc;
}

/* Solve problem `which` with the CPU twin natural, then tamper. */
static void check_problem(const char *which)
{
  tb_problem_t p;
  int rc = sor_problem(&p, which,
                       !strcmp(which, "manufactured") ? TB_SOR_MANUFACTURED
                       : !strcmp(which, "laplace")    ? TB_SOR_LAPLACE
                                                      : TB_SOR_CAPACITOR,
                       "stretched", TB_SOR_STRETCHED, 12);
  if (rc)
    return;
  const tb_sor_t *s = p.priv;
  const tb_variant_t *v = CPU_VARIANT(&tb_algo_sor, "natural");
  tb_cpu_config_t cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.threads = 2;
  tb_ctx_t ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.p = &p;
  ctx.v = v;
  ctx.cfg = &cfg;
  const size_t vb = (size_t)s->cells * sizeof(double);
  double *x = malloc(vb);
  CHECK(x != NULL, "out of memory");
  if (!x)
    return;
  for (int i = 0; i < p.narrays; i++)
    ctx.buf[i] = p.array[i].host;
  memcpy(x, p.array[s->v].host, vb);
  ctx.buf[s->v] = x;
  for (int k = 0; k < TB_MAX_COLUMNS; k++)
    ctx.extra[k] = NAN;
  rc = v->prepare ? v->prepare(&ctx) : TB_OK;
  if (!rc)
    rc = v->run(&ctx);
  CHECK(rc == TB_OK, "%s: run: %s", which, tb_error_detail());
  char note[200];
  CHECK(verdict(&p, ctx.buf, ctx.extra, note) == TB_PASS, "%s: the solve fails: %s", which, note);

  /* A free point in the middle moved by 1e-4 of the solution's size. */
  const int64_t mid = s->nx / 2 + s->sx * (s->ny / 2) + s->sxy * (s->nz / 2 + 1);
  const uint8_t *mat = p.array[s->mat].host;
  int64_t c = mid;
  while (mat[c] & TB_SOR_FIXED)
    c++;
  const double keep = x[c];
  x[c] += 1e-4;
  CHECK(verdict(&p, ctx.buf, ctx.extra, note) == TB_FAIL, "%s: a moved point passes", which);
  x[c] = keep;
  /* A wall point changed (by one ulp). */
  x[1] = nextafter(x[1], 1.0);
  CHECK(verdict(&p, ctx.buf, ctx.extra, note) == TB_FAIL && strstr(note, "held points"),
        "%s: a changed wall point passes: %s", which, note);
  x[1] = ((const double *)p.array[s->v].host)[1];
  /* An electrode changed. */
  for (int64_t e = 0; e < s->cells; e++)
    if (mat[e] & TB_SOR_FIXED) {
      const double was = x[e];
      x[e] = 0.5;
      CHECK(verdict(&p, ctx.buf, ctx.extra, note) == TB_FAIL, "%s: a moved electrode passes",
            which);
      x[e] = was;
      break;
    }
  /* The residual claimed 1000x below what it was. */
  double lie[TB_MAX_COLUMNS];
  memcpy(lie, ctx.extra, sizeof lie);
  lie[TB_SOR_RESIDUAL] /= 1e3;
  CHECK(verdict(&p, ctx.buf, lie, note) == TB_FAIL, "%s: a false residual passes", which);
  /* A stop above tol before maxiter. */
  memcpy(lie, ctx.extra, sizeof lie);
  lie[TB_SOR_RESIDUAL] = 2 * s->tol;
  CHECK(verdict(&p, ctx.buf, lie, note) == TB_FAIL && strstr(note, "not by its rule"),
        "%s: an early stop passes: %s", which, note);
  /* A result never written. */
  x[c] = NAN;
  CHECK(verdict(&p, ctx.buf, ctx.extra, note) == TB_FAIL, "%s: a NaN passes", which);
  if (v->release)
    v->release(&ctx);
  free(x);
  tb_problem_destroy(&p);
}

/* tb_sor_uniform_rows against its meaning, point by point, on the capacitor
 * (rows of both kinds) and on a uniform problem (every interior row). */
static void check_rows(const char *which, int capacitor)
{
  tb_problem_t p;
  if (sor_problem(&p, which, capacitor ? TB_SOR_CAPACITOR : TB_SOR_LAPLACE, "uniform",
                  TB_SOR_UNIFORM, 14))
    return;
  const tb_sor_t *s = p.priv;
  const uint8_t *mat = p.array[s->mat].host;
  const int64_t ny2 = s->ny + 2;
  int8_t *row = malloc((size_t)(ny2 * (s->nz + 2)));
  CHECK(row != NULL, "out of memory");
  if (!row)
    return;
  tb_sor_uniform_rows(s, mat, row);
  int64_t uniform = 0, mixed = 0;
  for (int64_t k = 0; k < s->nz + 2; k++)
    for (int64_t j = 0; j < ny2; j++) {
      int want = -1;
      if (j >= 1 && j <= s->ny && k >= 1 && k <= s->nz) {
        const int64_t c0 = 1 + s->sx * j + s->sxy * k;
        want = (int)TB_SOR_MAT(mat[c0]);
        for (int64_t i = 1; i <= s->nx; i++) {
          const int64_t c = i + s->sx * j + s->sxy * k;
          const int64_t nb[7] = {c, c - 1, c + 1, c - s->sx, c + s->sx, c - s->sxy, c + s->sxy};
          for (int q = 0; q < 7; q++)
            if ((int)TB_SOR_MAT(mat[nb[q]]) != want)
              want = -1;
        }
        uniform += want >= 0;
        mixed += want < 0;
      }
      CHECK(row[j + ny2 * k] == want, "%s: row (%lld, %lld) is %d, not %d", which, (long long)j,
            (long long)k, row[j + ny2 * k], want);
    }
  CHECK(uniform > 0 && (mixed > 0) == capacitor, "%s: %lld uniform and %lld mixed rows", which,
        (long long)uniform, (long long)mixed);
  free(row);
  tb_problem_destroy(&p);
}

int main(void)
{
  check_rows("capacitor", 1);
  check_rows("laplace", 0);
  check_problem("manufactured");
  check_problem("laplace");
  check_problem("capacitor");
  TEST_EXIT();
}
