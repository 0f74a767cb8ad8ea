/* Every reduction variant on every available backend writes its sum on every
 * run, not only the first: the output is poisoned again before each of two
 * runs after one prepare, and both must verify. This catches state a variant
 * keeps between runs (onepass's block counter must be rearmed by the kernel),
 * which the runner cannot see because it poisons once per configuration. The
 * GPU part is skipped, with a note, when no GPU can be used. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "families/reduce.h"
#include "common/registry.h"
#include "common/runner.h"
#include "testutil.h"

/* Prepare one configuration, then poison, run, download and verify twice. */
static void run_twice(tb_ctx_t *base, const tb_variant_t *v, int threads, int block, int grid)
{
  const tb_backend_t *be = tb_backends[v->backend];
  tb_problem_t *p = (tb_problem_t *)base->p;
  tb_ctx_t ctx = *base;
  void *view[TB_MAX_ARRAYS] = {0};
  tb_xfer_t xfer;
  ctx.v = v;
  ctx.threads = threads;
  ctx.block = block;
  ctx.grid = grid;
  ctx.state = NULL;
  for (int k = 0; k < TB_MAX_COLUMNS; k++)
    ctx.extra[k] = NAN;
  int rc = v->prepare ? v->prepare(&ctx) : TB_OK;
  CHECK(rc == TB_OK, "%s prepare (block %d, grid %d): %s", v->name, block, grid,
        tb_error_detail());
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
    CHECK(rc || chk.verdict == TB_PASS, "%s %s n=%lld threads %d block %d grid %d, run %d: %s",
          v->name, tb_prec_name(p->prec), (long long)p->n, threads, block, grid, r, chk.note);
  }
  if (v->release)
    v->release(&ctx);
}

/* Every variant of backend b on problem p, over a few team sizes or launch shapes. */
static void run_backend(tb_problem_t *p, int b, const tb_device_info_t *dev)
{
  static const int threads[] = {1, 3}, blocks[] = {32, 256}, grids[] = {0, 3};
  const tb_backend_t *be = tb_backends[b];
  tb_ctx_t base;
  tb_xfer_t xfer;
  memset(&base, 0, sizeof base);
  base.p = p;
  base.dev = dev;
  base.threads = 3;
  base.block = 256;
  int rc = be->attach(&base, &xfer);
  CHECK(rc == TB_OK, "attach %s: %s", be->name, tb_error_detail());
  if (rc)
    return;
  for (const tb_variant_t *const *vp = be->variants; *vp; vp++) {
    const tb_variant_t *v = *vp;
    if (v->algo != &tb_algo_reduce)
      continue;
    if (b == TB_CPU)
      for (int t = 0; t < ((v->flags & TB_V_THREADS) ? 2 : 1); t++)
        run_twice(&base, v, threads[t], 256, 0);
    else
      for (int k = 0; k < ((v->flags & TB_V_BLOCK) ? 2 : 1); k++)
        for (int g = 0; g < ((v->flags & TB_V_GRID) ? 2 : 1); g++)
          run_twice(&base, v, 1, blocks[k], grids[g]);
  }
  be->detach(&base);
}

int main(void)
{
  static const int64_t sizes[] = {1, 31, 1000003};
  tb_device_info_t gpu;
  int have_gpu = tb_backends[TB_GPU]->probe(&gpu) == TB_OK;
  if (!have_gpu)
    printf("GPU part skipped: %s\n", tb_error_detail());
  for (int prec = TB_INT32; prec <= TB_DOUBLE; prec++)
    for (int si = 0; si < 3; si++) {
      tb_problem_t p;
      int rc = tb_problem_create(&p, &tb_algo_reduce, (tb_prec_t)prec, sizes[si], 3 + si, NULL);
      CHECK(rc == TB_OK, "create: %s", tb_error_detail());
      if (rc)
        continue;
      run_backend(&p, TB_CPU, &gpu);
      if (have_gpu)
        run_backend(&p, TB_GPU, &gpu);
      tb_problem_destroy(&p);
    }
  TEST_EXIT();
}
