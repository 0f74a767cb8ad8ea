/* Every reduction variant on every available backend writes its sum on every
 * run, not only the first: the output is poisoned again before each of two
 * runs after one prepare, and both must verify. This catches state a variant
 * keeps between runs (onepass's block counter must be rearmed by the kernel),
 * which the runner cannot see because it poisons once per configuration. The
 * variants run through the backends' own configurations (teams of 1 and 3
 * threads on the CPU, the device on the GPU) and over a few tuning points;
 * a backend that is not available (no GPU) is skipped with a note. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/params.h"
#include "common/registry.h"
#include "common/runner.h"
#include "families/reduce.h"
#include "testutil.h"

/* Prepare one tuning point, then poison, run, download and verify twice. */
static void run_twice(const tb_backend_t *be, tb_ctx_t *base, const tb_variant_t *v,
                      const char *tuning)
{
  tb_problem_t *p = (tb_problem_t *)base->p;
  tb_param_value_t point[TB_MAX_TUNING];
  tb_ctx_t ctx = *base;
  void *view[TB_MAX_ARRAYS] = {0};
  tb_xfer_t xfer;
  int rc = tb_params_point(v->tuning, v->ntuning, tuning, point);
  CHECK(rc == TB_OK, "%s tuning '%s': %s", v->name, tuning, tb_error_detail());
  if (rc)
    return;
  ctx.v = v;
  ctx.tune = point;
  ctx.state = NULL;
  for (int k = 0; k < TB_MAX_COLUMNS; k++)
    ctx.extra[k] = NAN;
  for (int k = 0; k < TB_MAX_TUNING; k++)
    ctx.tuned[k] = NAN;
  rc = v->prepare ? v->prepare(&ctx) : TB_OK;
  CHECK(rc == TB_OK, "%s prepare (%s): %s", v->name, tuning, tb_error_detail());
  for (int r = 0; r < 2 && rc == TB_OK; r++) {
    tb_check_t chk;
    memset(&chk, 0, sizeof chk);
    rc = be->reset(&ctx, 1);
    if (!rc)
      rc = v->run(&ctx);
    if (!rc)
      rc = be->download(&ctx, view, &xfer);
    if (!rc)
      rc = p->algo->verify(p, view, ctx.extra, &chk);
    CHECK(rc == TB_OK, "%s run %d: %s", v->name, r, tb_error_detail());
    /* Unverifiable (a running sum's vacuous bound in float) still says the
     * sum was written: a poisoned one fails. */
    CHECK(rc || chk.verdict == TB_PASS || chk.verdict == TB_UNVERIFIABLE,
          "%s on %s %s n=%lld (%s), run %d: %s", v->name, be->name, tb_prec_name(p->prec),
          (long long)p->n, tuning, r, chk.note);
  }
  if (v->release)
    v->release(&ctx);
  tb_params_point_free(point, v->ntuning);
}

/* A few tuning points of v: its blocks and grids where it has them. */
static void run_points(const tb_backend_t *be, tb_ctx_t *base, const tb_variant_t *v)
{
  static const char *const blocks[] = {"block=32", "block=256"};
  static const char *const grids[] = {"grid=auto", "grid=3"};
  const int nb = tb_param_index(v->tuning, v->ntuning, "block") >= 0 ? 2 : 1;
  const int ng = tb_param_index(v->tuning, v->ntuning, "grid") >= 0 ? 2 : 1;
  for (int k = 0; k < nb; k++)
    for (int g = 0; g < ng; g++) {
      char settings[64];
      snprintf(settings, sizeof settings, "%s %s", nb > 1 ? blocks[k] : "", ng > 1 ? grids[g] : "");
      run_twice(be, base, v, settings);
    }
}

/* Every reduction variant of backend b in each of its configurations. */
static void run_backend(tb_topo_t *topo, tb_problem_t *p, int b)
{
  const tb_backend_t *be = tb_backend_at(b);
  const char *text[TB_MAX_OPTIONS];
  tb_configs_t cfgs;
  for (int k = 0; k < be->noptions; k++)
    text[k] = !strcmp(be->options[k].name, "threads")      ? "1,3"
              : !strcmp(be->options[k].name, "ceiling-size") ? "64K"
                                                           : be->options[k].defaults;
  int rc = be->configs(topo, text, &cfgs);
  CHECK(rc == TB_OK, "%s configurations: %s", be->name, tb_error_detail());
  for (int c = 0; !rc && c < cfgs.n; c++) {
    tb_ctx_t base;
    tb_xfer_t xfer;
    memset(&base, 0, sizeof base);
    base.p = p;
    base.cfg = cfgs.cfg[c];
    if ((rc = be->enter(cfgs.cfg[c])) || (rc = be->attach(&base, &xfer))) {
      CHECK(0, "enter or attach %s: %s", be->name, tb_error_detail());
      break;
    }
    for (const tb_variant_t *const *v = tb_backend_variants(b); *v; v++)
      if ((*v)->algo == &tb_algo_reduce && (*v)->precisions & TB_PREC_BIT(p->prec) &&
          be->runs(cfgs.cfg[c], *v))
        run_points(be, &base, *v);
    be->detach(&base);
    be->leave(cfgs.cfg[c]);
  }
  if (!rc)
    be->configs_free(&cfgs);
}

int main(void)
{
  static const int64_t sizes[] = {1, 31, 1000003};
  tb_topo_t *topo;
  CHECK(tb_topo_open(&topo) == TB_OK, "topology: %s", tb_error_detail());
  for (int b = 0; b < tb_backend_count(); b++)
    if (tb_backend_at(b)->probe() != TB_OK)
      printf("%s part skipped: %s\n", tb_backend_at(b)->name, tb_error_detail());
  for (int prec = TB_INT32; prec <= TB_DOUBLE; prec++)
    for (int si = 0; si < 3; si++) {
      tb_problem_t p;
      int rc = tb_problem_create(&p, &tb_algo_reduce, (tb_prec_t)prec, sizes[si], 3 + si, NULL);
      CHECK(rc == TB_OK, "create: %s", tb_error_detail());
      if (rc)
        continue;
      for (int b = 0; b < tb_backend_count(); b++)
        if (tb_backend_at(b)->probe() == TB_OK)
          run_backend(topo, &p, b);
      tb_problem_destroy(&p);
    }
  tb_topo_close(topo);
  TEST_EXIT();
}
