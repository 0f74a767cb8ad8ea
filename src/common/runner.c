/* twinbench: the runner. */
#include <config.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "params.h"
#include "outfile.h"
#include "problem.h"
#include "registry.h"
#include "runner.h"
#include "stats.h"
#include "status.h"

static volatile sig_atomic_t tb_stop;

void tb_runner_interrupt(void)
{
  tb_stop = 1;
}

/* The parameter point `idx` of the sweep, as a problem, set up but not filled. */
static int tb_problem_init(tb_problem_t *p, const tb_sweep_t *s, tb_prec_t prec, int64_t n,
                           const int *idx)
{
  tb_param_value_t params[TB_MAX_PARAMS];
  if (n == TB_SIZE_AUTO)
    n = tb_stream_rule_elems(s->llc_bytes, (int64_t)tb_kind_size(tb_prec_kind(prec)));
  for (int k = 0; k < s->algo->nparams; k++)
    params[k] = s->pv[k][idx[k]];
  return tb_problem_setup(p, s->algo, prec, n, s->seed, s->input_path, params);
}

/* Host and device bytes a problem takes while it runs on the chosen backends. */
static void tb_problem_needs(const tb_problem_t *p, const tb_sweep_t *s, int64_t *host,
                             int64_t *dev)
{
  int64_t in = 0, out = 0, inout = 0, largest = 0;
  for (int i = 0; i < p->narrays; i++) {
    int64_t b = tb_array_bytes(&p->array[i]);
    if (p->array[i].role == TB_IN)
      in += b;
    else if (p->array[i].role == TB_OUT)
      out += b;
    else
      inout += b;
    if (b > largest)
      largest = b;
  }
  int64_t during = 0;
  if (s->use[TB_CPU]) {
    int64_t limit = (p->algo->limit == TB_LIMIT_READ ? 1 : 3) * s->limit_elems * 8;
    int64_t work = in + out + inout;
    during = limit > work ? limit : work;
  }
  if (s->use[TB_GPU] && out + inout + largest > during)
    during = out + inout + largest;
  *host = in + inout + p->extra_host_bytes + during;
  *dev = in + out + 2 * inout + p->extra_device_bytes;
  if (*dev < 2 * TB_GPU_LIMIT_BYTES)
    *dev = 2 * TB_GPU_LIMIT_BYTES;
}

/* Advance the parameter odometer; returns 0 after the last point. */
static int tb_next_point(const tb_sweep_t *s, int *idx)
{
  for (int k = s->algo->nparams - 1; k >= 0; k--) {
    if (++idx[k] < s->npv[k])
      return 1;
    idx[k] = 0;
  }
  return 0;
}

static int tb_variant_selected(const tb_sweep_t *s, const tb_variant_t *v, tb_prec_t prec)
{
  if (!(v->precisions & TB_PREC_BIT(prec)))
    return 0;
  if (!s->variants)
    return 1;
  for (int i = 0; i < s->nvariants; i++)
    if (!strcmp(s->variants[i], v->name))
      return 1;
  return 0;
}

/* ---- Checks before running --------------------------------------------- */

int tb_sweep_check(tb_sweep_t *s, tb_topo_t *topo, tb_run_state_t *st)
{
  const tb_algo_t *a = s->algo;
  char buf[32], buf2[32], what[256];
  int rc;

  memset(st, 0, sizeof *st);
  for (int i = 0; i < s->nvariants; i++) {
    int found = 0;
    for (int b = 0; b < TB_NBACKENDS; b++)
      found |= s->use[b] && tb_variant_find(a, b, s->variants[i]) != NULL;
    if (!found) {
      char known[512];
      size_t k = 0;
      known[0] = '\0';
      for (int b = 0; b < TB_NBACKENDS; b++)
        for (const tb_variant_t *const *v = tb_backends[b]->variants; *v && k < sizeof known; v++)
          if ((*v)->algo == a && s->use[b])
            k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", k ? ", " : "", (*v)->name);
      return tb_fail(TB_EINVAL, "unknown variant '%s' for %s on the chosen backends (known: %s)",
                     s->variants[i], a->name, known[0] ? known : "none");
    }
  }
  for (int i = 0; i < s->nprec; i++)
    if (!(a->precisions & TB_PREC_BIT(s->prec[i])))
      return tb_fail(TB_EINVAL, "%s does not support precision %s", a->name,
                     tb_prec_name(s->prec[i]));

  if (s->use[TB_GPU]) {
    rc = tb_backends[TB_GPU]->probe(&st->gpu);
    if (rc) {
      snprintf(st->gpu_reason, sizeof st->gpu_reason, "%s", tb_error_detail());
      if (!s->use[TB_CPU])
        return tb_fail(TB_ENODEV, "the gpu backend is not available: %s", st->gpu_reason);
      s->use[TB_GPU] = 0;
      fprintf(stderr, "twinbench: gpu backend skipped: %s\n", st->gpu_reason);
    } else
      st->gpu_ok = 1;
  } else
    snprintf(st->gpu_reason, sizeof st->gpu_reason, "not requested");

  int npus = tb_topo_npus(topo);
  if (s->use[TB_CPU])
    for (int i = 0; i < s->nthreads; i++)
      if (s->threads[i] > npus) {
        fprintf(stderr,
                "twinbench: note: %d threads on %d PUs: threads are placed round-robin over the "
                "PUs, several to a PU (rows say binding_ok=oversubscribed)\n",
                s->threads[i], npus);
        break;
      }

  int64_t host_avail = 0, dev_avail = 0;
  if ((rc = tb_host_mem_available(&host_avail)))
    return rc;
  if (s->use[TB_GPU] && (rc = tb_backends[TB_GPU]->mem_available(&dev_avail)))
    return rc;
  s->llc_bytes = tb_topo_llc_bytes(topo);
  if (!s->limit_elems)
    s->limit_elems = tb_stream_rule_elems(s->llc_bytes, 8);
  int idx[TB_MAX_PARAMS] = {0};
  for (int pi = 0; pi < s->nprec; pi++)
    for (int si = 0; si < s->nsizes; si++) {
      memset(idx, 0, sizeof idx);
      do {
        tb_problem_t p;
        int64_t host, dev;
        rc = tb_problem_init(&p, s, s->prec[pi], s->sizes[si], idx);
        if (rc) {
          tb_problem_destroy(&p);
          return rc;
        }
        tb_problem_needs(&p, s, &host, &dev);
        tb_problem_text(&p, what, sizeof what);
        tb_problem_destroy(&p);
        if (host > host_avail)
          return tb_fail(TB_ENOMEM, "%s needs %s of host memory but %s is available", what,
                         tb_format_bytes((double)host, buf), tb_format_bytes((double)host_avail, buf2));
        if (s->use[TB_GPU] && dev > dev_avail)
          return tb_fail(TB_ENOMEM, "%s needs %s of GPU memory but %s is free on %s", what,
                         tb_format_bytes((double)dev, buf), tb_format_bytes((double)dev_avail, buf2),
                         st->gpu.name);
      } while (tb_next_point(s, idx));
    }
  return TB_OK;
}

/* ---- Running ----------------------------------------------------------- */

/* Measured limits, one per CPU team shape and limit kind and one per GPU
 * kind: measured when first needed and once more at the end of the run, and
 * every row gets the better of the two, so that a limit taken while the
 * machine was busy (a VM still backing fresh memory, say) does not flatter
 * the rows measured later. */
typedef struct tb_limit_cache {
  int n;
  struct {
    int backend, threads, placement, kind;
    double gbs;
  } e[256];
} tb_limit_cache_t;

static int tb_limit_find(const tb_limit_cache_t *lc, int backend, int threads, int placement,
                         int kind)
{
  for (int i = 0; i < lc->n; i++)
    if (lc->e[i].backend == backend && lc->e[i].threads == threads &&
        lc->e[i].placement == placement && lc->e[i].kind == kind)
      return i;
  return -1;
}

static int tb_limit_get(tb_limit_cache_t *lc, int backend, tb_ctx_t *ctx, int placement,
                        double *gbs)
{
  int kind = ctx->p->algo->limit;
  int i = tb_limit_find(lc, backend, ctx->threads, placement, kind);
  if (i >= 0) {
    *gbs = lc->e[i].gbs;
    return TB_OK;
  }
  int rc = tb_backends[backend]->measure_limit(ctx, kind, gbs);
  if (rc)
    return rc;
  if (lc->n < 256) {
    lc->e[lc->n].backend = backend;
    lc->e[lc->n].threads = ctx->threads;
    lc->e[lc->n].placement = placement;
    lc->e[lc->n].kind = kind;
    lc->e[lc->n].gbs = *gbs;
    lc->n++;
  }
  return TB_OK;
}

/* Measure every cached limit again (CPU teams bound as before) and give each
 * row the better of its limit's two measurements. */
static int tb_limits_finish(tb_limit_cache_t *lc, const tb_sweep_t *s, tb_topo_t *topo,
                            tb_results_t *res)
{
  int rc = TB_OK;
  for (int i = 0; i < lc->n && !rc; i++) {
    tb_ctx_t ctx;
    tb_binding_t b;
    double gbs = 0.0;
    memset(&ctx, 0, sizeof ctx);
    memset(&b, 0, sizeof b);
    ctx.threads = lc->e[i].threads;
    ctx.limit_elems = s->limit_elems;
    if (lc->e[i].backend == TB_CPU) {
      rc = tb_topo_bind_team(topo, lc->e[i].placement, ctx.threads, &b);
      if (rc == TB_ETOPO && b.pu)
        rc = TB_OK; /* as during the run: unbound, and the rows say so */
    }
    if (!rc)
      rc = tb_backends[lc->e[i].backend]->measure_limit(&ctx, lc->e[i].kind, &gbs);
    if (lc->e[i].backend == TB_CPU && b.pu) {
      tb_topo_unbind_team(topo, ctx.threads);
      tb_binding_free(&b);
    }
    if (!rc && gbs > lc->e[i].gbs)
      lc->e[i].gbs = gbs;
  }
  for (int r = 0; r < res->n; r++) {
    tb_result_t *row = &res->r[r];
    int i = tb_limit_find(lc, row->backend, row->backend == TB_CPU ? row->threads : 0,
                          row->placement, row->algo->limit);
    if (i >= 0)
      row->limit_gbs = lc->e[i].gbs;
  }
  return rc;
}

typedef struct tb_progress {
  int on;
  long done;
} tb_progress_t;

static void tb_progress_show(tb_progress_t *pg, const tb_ctx_t *ctx, int placement)
{
  if (!pg->on)
    return;
  pg->done++;
  const tb_problem_t *p = ctx->p;
  if (ctx->v->backend == TB_CPU)
    fprintf(stderr, "\r\033[K[%ld] %s %s %s n=%lld threads=%d %s", pg->done, p->algo->name,
            ctx->v->name, tb_prec_name(p->prec), (long long)p->n, ctx->threads,
            tb_placement_name(placement));
  else
    fprintf(stderr, "\r\033[K[%ld] %s %s %s n=%lld block=%d grid=%d", pg->done, p->algo->name,
            ctx->v->name, tb_prec_name(p->prec), (long long)p->n, ctx->block, ctx->grid);
  fflush(stderr);
}

static void tb_progress_end(tb_progress_t *pg)
{
  if (pg->on && pg->done)
    fprintf(stderr, "\r\033[K");
}

/* Everything fixed while the variants of one backend configuration run. */
typedef struct tb_stage {
  const tb_sweep_t *s;
  tb_problem_t *p;
  tb_topo_t *topo;
  tb_run_state_t *st;
  tb_results_t *res;
  tb_limit_cache_t *limits;
  tb_progress_t *pg;
  int backend;
  int placement;
  tb_binding_t *binding; /* CPU */
  tb_xfer_t xfer;        /* host-to-device fields from attach */
  int has_inout;
} tb_stage_t;

static int tb_write_dump(const tb_stage_t *g, const tb_ctx_t *ctx, void *const *view)
{
  tb_outfile_t o;
  int rc = tb_outfile_open(&o, g->s->dump_path);
  if (rc)
    return rc;
  rc = g->p->algo->dump(g->p, view, o.f);
  if (rc) {
    tb_outfile_abort(&o);
    return rc;
  }
  if ((rc = tb_outfile_commit(&o)))
    return rc;
  fprintf(stderr, "twinbench: wrote %s (%s on %s)\n", g->s->dump_path, ctx->v->name,
          tb_backends[ctx->v->backend]->name);
  return TB_OK;
}

/* One configuration: prepare, poison, warm up, time, collect, verify, record. */
static int tb_run_config(tb_stage_t *g, tb_ctx_t *ctx)
{
  const tb_sweep_t *s = g->s;
  const tb_backend_t *be = tb_backends[g->backend];
  const tb_variant_t *v = ctx->v;
  tb_result_t row;
  double *times = NULL;
  void *view[TB_MAX_ARRAYS] = {0};
  int rc;

  memset(&row, 0, sizeof row);
  for (int k = 0; k < TB_MAX_COLUMNS; k++)
    ctx->extra[k] = NAN;
  ctx->state = NULL;
  ctx->grid_used = 0;
  tb_error_clear();

  if (v->prepare && (rc = v->prepare(ctx))) {
    if (rc == TB_EUNSUP) {
      fprintf(stderr, "%stwinbench: note: %s skipped (block %d, grid %d): %s\n",
              g->pg->on ? "\r\033[K" : "", v->name, ctx->block, ctx->grid, tb_error_detail());
      rc = TB_OK;
    }
    goto out;
  }
  times = malloc((size_t)s->repeat * sizeof *times);
  if (!times) {
    rc = tb_fail(TB_ENOMEM, "out of memory");
    goto out;
  }
  if ((rc = be->reset(ctx, 1)))
    goto out;
  for (int w = 0; w < s->warmup; w++) {
    if (g->has_inout && w && (rc = be->reset(ctx, 0)))
      goto out;
    if ((rc = v->run(ctx)))
      goto out;
  }
  for (int r = 0; r < s->repeat; r++) {
    if (g->has_inout && (r || s->warmup) && (rc = be->reset(ctx, 0)))
      goto out;
    if ((rc = be->timer_start(ctx)) || (rc = v->run(ctx)) || (rc = be->timer_stop(ctx, &times[r])))
      goto out;
  }
  if (v->collect && (rc = v->collect(ctx)))
    goto out;
  row.xfer = g->xfer;
  if ((rc = be->download(ctx, view, &row.xfer)))
    goto out;

  tb_stats_t st;
  if ((rc = tb_stats_compute(times, s->repeat, &st)))
    goto out;
  row.algo = g->p->algo;
  row.variant = v;
  row.backend = g->backend;
  row.prec = g->p->prec;
  row.n = g->p->n;
  memcpy(row.param, g->p->param, sizeof row.param);
  row.repeats = s->repeat;
  row.median_ms = st.median;
  row.min_ms = st.min;
  row.max_ms = st.max;
  g->p->algo->cost(g->p, &row.bytes, &row.flops);
  row.check.error = NAN;
  row.check.tolerance = NAN;
  if (s->verify) {
    if ((rc = g->p->algo->verify(g->p, view, ctx->extra, &row.check)))
      goto out;
    if (row.check.verdict == TB_FAIL)
      g->st->failures++;
  }
  memcpy(row.extra, ctx->extra, sizeof row.extra);
  for (int k = 0; k < g->p->algo->ncolumns && g->p->algo->per_run; k++) {
    double items = g->p->algo->per_run(g->p, k);
    if (!isnan(items) && st.median > 0)
      row.extra[k] = items / (st.median * 1e-3);
  }

  if (g->backend == TB_CPU) {
    tb_binding_t *b = g->binding;
    if ((rc = tb_topo_check_team(g->topo, b)))
      goto out;
    row.threads = ctx->threads;
    row.placement = g->placement;
    row.nbind = ctx->threads;
    row.bind_pu = malloc((size_t)row.nbind * sizeof *row.bind_pu);
    if (!row.bind_pu) {
      rc = tb_fail(TB_ENOMEM, "out of memory");
      goto out;
    }
    memcpy(row.bind_pu, b->pu, (size_t)row.nbind * sizeof *row.bind_pu);
    row.binding_ok = b->ok;
    row.oversubscribed = b->oversubscribed;
    rc = tb_limit_get(g->limits, TB_CPU, ctx, g->placement, &row.limit_gbs);
  } else {
    row.threads = 0;
    row.placement = -1;
    row.binding_ok = -1;
    row.block = (v->flags & TB_V_BLOCK) ? ctx->block : 0;
    row.grid = ctx->grid_used ? ctx->grid_used : ctx->grid;
    rc = tb_limit_get(g->limits, TB_GPU, ctx, -1, &row.limit_gbs);
  }
  if (rc) {
    free(row.bind_pu);
    goto out;
  }
  if (s->dump_path && !g->st->dumped && row.check.verdict != TB_FAIL) {
    if ((rc = tb_write_dump(g, ctx, view))) {
      free(row.bind_pu);
      goto out;
    }
    g->st->dumped = 1;
  }
  if ((rc = tb_results_push(g->res, &row)))
    free(row.bind_pu);
  tb_progress_show(g->pg, ctx, g->placement);

out:
  if (v->release)
    v->release(ctx);
  free(times);
  return rc;
}

/* Whether variant v runs in this backend configuration: selected, and a CPU
 * variant that takes no team only once, with the first team (as 1 thread). */
static int tb_variant_runs(const tb_stage_t *g, const tb_variant_t *v, int first_team)
{
  if (v->algo != g->p->algo || !tb_variant_selected(g->s, v, g->p->prec))
    return 0;
  return g->backend != TB_CPU || (v->flags & TB_V_THREADS) || first_team;
}

/* All variants of one backend configuration (a CPU team, or the GPU). */
static int tb_run_stage(tb_stage_t *g, tb_ctx_t *base, int first_team)
{
  const tb_sweep_t *s = g->s;
  static const int default_block = 256, auto_grid = 0;
  int rc = TB_OK;

  for (const tb_variant_t *const *vp = tb_backends[g->backend]->variants; *vp && !rc; vp++) {
    const tb_variant_t *v = *vp;
    if (!tb_variant_runs(g, v, first_team))
      continue;
    const int *blocks = (v->flags & TB_V_BLOCK) ? s->blocks : &default_block;
    int nblocks = (v->flags & TB_V_BLOCK) ? s->nblocks : 1;
    const int *grids = (v->flags & TB_V_GRID) ? s->grids : &auto_grid;
    int ngrids = (v->flags & TB_V_GRID) ? s->ngrids : 1;
    for (int bi = 0; bi < nblocks && !rc; bi++)
      for (int gi = 0; gi < ngrids && !rc; gi++) {
        if (tb_stop)
          return TB_EINTR;
        tb_ctx_t ctx = *base;
        ctx.v = v;
        ctx.block = blocks[bi];
        ctx.grid = grids[gi];
        if (g->backend == TB_CPU && !(v->flags & TB_V_THREADS))
          ctx.threads = 1;
        rc = tb_run_config(g, &ctx);
      }
  }
  return rc;
}

static int tb_run_backend(tb_stage_t *g)
{
  const tb_sweep_t *s = g->s;
  const tb_backend_t *be = tb_backends[g->backend];
  int rc = TB_OK;

  g->has_inout = 0;
  for (int i = 0; i < g->p->narrays; i++)
    g->has_inout |= g->p->array[i].role == TB_INOUT;

  int nteams = g->backend == TB_CPU ? s->nthreads * s->nplacements : 1;
  for (int t = 0; t < nteams && !rc; t++) {
    /* What runs with this team: variants on the team (or the GPU), and CPU
     * variants that take no team (on 1 thread). */
    int on_team = 0, single = 0;
    for (const tb_variant_t *const *vp = be->variants; *vp; vp++)
      if (tb_variant_runs(g, *vp, t == 0)) {
        if (g->backend == TB_CPU && !((*vp)->flags & TB_V_THREADS))
          single = 1;
        else
          on_team = 1;
      }
    if (!on_team && !single)
      continue;
    tb_ctx_t base;
    tb_binding_t binding;
    memset(&base, 0, sizeof base);
    memset(&binding, 0, sizeof binding);
    base.p = g->p;
    base.dev = &g->st->gpu;
    base.limit_elems = s->limit_elems;
    g->placement = -1;
    if (g->backend == TB_CPU) {
      base.threads = s->threads[t / s->nplacements];
      g->placement = s->placements[t % s->nplacements];
      rc = tb_topo_bind_team(g->topo, g->placement, base.threads, &binding);
      if (rc == TB_ETOPO && binding.pu) {
        /* Measure anyway; every row of this team says binding_ok=no. */
        fprintf(stderr, "%stwinbench: warning: %s; the team runs unbound\n",
                g->pg->on ? "\r\033[K" : "", tb_error_detail());
        rc = TB_OK;
      }
      if (rc)
        break;
      g->binding = &binding;
    }
    g->xfer.h2d_pageable_ms = g->xfer.h2d_pinned_ms = NAN;
    g->xfer.d2h_pageable_ms = g->xfer.d2h_pinned_ms = NAN;
    /* The limits the rows need, measured before the working copies exist
     * (tb_problem_needs counts the larger of the two, not both). */
    double limit;
    tb_ctx_t one = base;
    one.threads = 1;
    if (on_team)
      rc = tb_limit_get(g->limits, g->backend, &base, g->placement, &limit);
    if (!rc && single)
      rc = tb_limit_get(g->limits, g->backend, &one, g->placement, &limit);
    if (!rc && !(rc = be->attach(&base, &g->xfer))) {
      rc = tb_run_stage(g, &base, t == 0);
      be->detach(&base);
    }
    if (g->backend == TB_CPU) {
      tb_topo_unbind_team(g->topo, base.threads);
      tb_binding_free(&binding);
      g->binding = NULL;
    }
  }
  return rc;
}

int tb_sweep_run(const tb_sweep_t *s, tb_topo_t *topo, tb_run_state_t *st, tb_results_t *res)
{
  tb_limit_cache_t *limits = calloc(1, sizeof *limits);
  tb_progress_t pg = {s->progress, 0};
  int idx[TB_MAX_PARAMS];
  int rc = TB_OK;
  char what[256];

  if (!limits)
    return tb_fail(TB_ENOMEM, "out of memory");
  for (int pi = 0; pi < s->nprec && !rc; pi++)
    for (int si = 0; si < s->nsizes && !rc; si++) {
      memset(idx, 0, sizeof idx);
      do {
        tb_problem_t p;
        if (tb_stop) {
          rc = TB_EINTR;
          break;
        }
        rc = tb_problem_init(&p, s, s->prec[pi], s->sizes[si], idx);
        if (!rc)
          rc = tb_problem_fill(&p);
        if (rc) {
          tb_problem_text(&p, what, sizeof what);
          tb_fail(rc, "%s: %s", what, tb_error_detail());
        }
        for (int b = 0; b < TB_NBACKENDS && !rc; b++) {
          if (!s->use[b])
            continue;
          tb_stage_t g = {s, &p, topo, st, res, limits, &pg, b, -1, NULL, {0, 0, 0, 0}, 0};
          rc = tb_run_backend(&g);
        }
        tb_problem_destroy(&p);
      } while (!rc && tb_next_point(s, idx));
    }
  tb_progress_end(&pg);
  if (!rc && !tb_stop)
    rc = tb_limits_finish(limits, s, topo, res);
  if (rc == TB_EINTR || tb_stop) {
    st->interrupted = 1;
    rc = tb_fail(TB_EINTR, "interrupted; %d results were measured before the stop", res->n);
  }
  free(limits);
  return rc;
}
