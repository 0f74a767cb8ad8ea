/* twinbench: the CPU backend. Its configurations are teams of OpenMP threads
 * (the --threads list) placed by a policy (the --placement list) and bound
 * with hwloc; serial variants get a team of one. Arrays live in host working
 * copies that the bound team first-touches; the ceilings (ceilings.c) are
 * measured by the same bound team. */
#include <config.h>

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../common/mem.h"
#include "../common/params.h"
#include "../common/parse.h"
#include "../common/runner.h"
#include "../common/timer.h"
#include "ceilings.h"
#include "cpu.h"
#include "powercap.h"

extern const tb_variant_t *const *const tb_cpu_variants[];

/* The most threads a team may have, per PU: more only measures the
 * scheduler, and a runaway count would exhaust the OpenMP runtime. */
#define TB_CPU_MAX_THREADS_PER_PU 64

enum { TB_CPU_OPT_THREADS, TB_CPU_OPT_PLACEMENT, TB_CPU_OPT_CEILING, TB_CPU_NOPT };

static const tb_param_def_t tb_cpu_options[TB_CPU_NOPT] = {
    {"threads", "the team sizes: numbers, ranges, cores (one thread per core), pus (one per "
                "PU) or sweep (1, 2, 4, ... below the core count, the cores, then the PUs)",
     TB_PARAM_INT, "cores", 1, 1 << 30, NULL, 0, NULL},
    {"placement", "where a team's threads go: compact (topology order), scatter (round-robin "
                  "over packages, NUMA nodes, caches and cores) or cores (a thread per core "
                  "before any SMT sibling)",
     TB_PARAM_CHOICE, "cores", 0, 0, tb_placement_names, 0, NULL},
    {"ceiling-size", "elements per array of the CPU's memory ceilings (auto: 4 x the "
                     "last-level caches, in [2^25, 2^28])",
     TB_PARAM_INT, "auto", 1, (double)((int64_t)1 << 34), NULL, TB_PARAM_AUTO, NULL},
};

enum { TB_CPU_COL_THREADS, TB_CPU_COL_PLACEMENT, TB_CPU_COL_BINDING, TB_CPU_COL_BINDING_OK };

static const tb_column_def_t tb_cpu_columns[] = {
    {"threads", "%.0f", "the team size", 0},
    {"placement", NULL, "the placement policy", TB_COL_TEXT},
    {"binding", NULL, "the OS index of each thread's PU", TB_COL_TEXT | TB_COL_WIDE | TB_COL_LIST},
    {"binding_ok", NULL, "yes, oversubscribed (more threads than PUs) or no (not bound)",
     TB_COL_TEXT | TB_COL_WIDE},
};

typedef struct tb_cpu_state {
  double t0;
} tb_cpu_state_t;

static int tb_cpu_probe(void)
{
  return TB_OK;
}

extern const tb_backend_t tb_backend_cpu;

static void tb_cpu_info(FILE *f)
{
  fprintf(f, "  OpenMP %d, up to %d threads\n", _OPENMP, omp_get_thread_limit());
  tb_energy_info(f, &tb_backend_cpu, NULL);
}

static void tb_cpu_env_json(FILE *f)
{
  fprintf(f, "{\"openmp\": %d, \"thread_limit\": %d}", _OPENMP, omp_get_thread_limit());
}

/* Words for messages that count PUs: where the affinity mask leaves some
 * out, the counts are the mask's, and say so. */
static const char *tb_cpu_of_mask(const tb_topo_t *topo)
{
  return tb_topo_whole(topo) != topo ? " of the affinity mask" : "";
}

/* The thread counts of text (numbers and the words cores, pus and sweep). */
static int tb_cpu_parse_threads(tb_topo_t *topo, const char *text, int **out, int *n)
{
  char **items;
  int count, rc, k = 0, sweep[64], nsweep = tb_topo_thread_sweep(topo, sweep);
  const int npus = tb_topo_npus(topo);
  const int64_t most = (int64_t)TB_CPU_MAX_THREADS_PER_PU * npus;
  const int64_t runtime = omp_get_thread_limit();
  if ((rc = tb_list_split_ints(text, "--threads", &items, &count)))
    return rc;
  int *v = malloc((size_t)count * (size_t)nsweep * sizeof *v);
  for (int i = 0; v && i < count && !rc; i++) {
    int64_t x;
    if (!strcmp(items[i], "sweep")) {
      memcpy(v + k, sweep, (size_t)nsweep * sizeof *v);
      k += nsweep;
      continue;
    }
    if (!strcmp(items[i], "cores"))
      x = tb_topo_ncores(topo);
    else if (!strcmp(items[i], "pus"))
      x = npus;
    else if ((rc = tb_parse_size(items[i], "--threads", &x)))
      break;
    if (x > most)
      rc = tb_fail(TB_EINVAL, "--threads %lld is more than %d threads for each of the %d PUs%s",
                   (long long)x, TB_CPU_MAX_THREADS_PER_PU, npus, tb_cpu_of_mask(topo));
    else if (x > runtime)
      rc = tb_fail(TB_EINVAL, "--threads %lld is more than the OpenMP runtime allows (%lld)",
                   (long long)x, (long long)runtime);
    v[k++] = (int)x;
  }
  if (!v)
    rc = tb_fail(TB_ENOMEM, "out of memory");
  tb_list_free(items, count);
  if (rc) {
    free(v);
    return rc;
  }
  *out = v;
  *n = k;
  return TB_OK;
}

static int tb_cpu_parse_options(tb_topo_t *topo, const char *const *text, int **threads,
                                int *nthreads, tb_param_value_t **place, int *nplace,
                                int64_t *ceiling)
{
  tb_param_value_t *lim = NULL;
  int nlim = 0, rc;
  if ((rc = tb_cpu_parse_threads(topo, text[TB_CPU_OPT_THREADS], threads, nthreads)))
    return rc;
  if ((rc = tb_param_parse_list(&tb_cpu_options[TB_CPU_OPT_PLACEMENT],
                                text[TB_CPU_OPT_PLACEMENT], place, nplace)))
    return rc;
  if ((rc = tb_param_parse_list(&tb_cpu_options[TB_CPU_OPT_CEILING], text[TB_CPU_OPT_CEILING], &lim,
                                &nlim)))
    return rc;
  if (nlim != 1)
    rc = tb_fail(TB_EINVAL, "--ceiling-size takes one value, not a list");
  *ceiling = lim[0].i ? lim[0].i : tb_stream_rule_elems(tb_topo_llc_bytes(topo), 8);
  tb_param_list_free(lim, nlim);
  return rc;
}

static int tb_cpu_config_add(tb_configs_t *c, tb_topo_t *topo, int threads, int placement,
                             int team, int64_t ceiling)
{
  tb_cpu_config_t *cfg = calloc(1, sizeof *cfg);
  if (!cfg)
    return tb_fail(TB_ENOMEM, "out of memory");
  cfg->threads = threads;
  cfg->placement = placement;
  cfg->team = team;
  cfg->serial = !team;
  cfg->ceiling_elems = ceiling;
  cfg->topo = topo;
  c->cfg[c->n++] = cfg;
  return TB_OK;
}

/* A team for every thread count and placement, in that order; the serial
 * variants run in the first one-thread team of the first placement, or in
 * one of their own placed before the others. */
static int tb_cpu_configs(tb_topo_t *topo, const char *const *text, tb_configs_t *out)
{
  int *threads = NULL, nthreads = 0, nplace = 0, rc;
  tb_param_value_t *place = NULL;
  int64_t ceiling = 0;
  memset(out, 0, sizeof *out);
  rc = tb_cpu_parse_options(topo, text, &threads, &nthreads, &place, &nplace, &ceiling);
  if (!rc && !(out->cfg = calloc((size_t)(nthreads * nplace + 1), sizeof *out->cfg)))
    rc = tb_fail(TB_ENOMEM, "out of memory");
  int serial = -1;
  for (int t = 0; !rc && t < nthreads; t++)
    for (int q = 0; !rc && q < nplace; q++) {
      if (serial < 0 && threads[t] == 1 && q == 0)
        serial = out->n;
      rc = tb_cpu_config_add(out, topo, threads[t], (int)place[q].i, 1, ceiling);
    }
  if (!rc && serial >= 0)
    ((tb_cpu_config_t *)out->cfg[serial])->serial = 1;
  else if (!rc && !(rc = tb_cpu_config_add(out, topo, 1, (int)place[0].i, 0, ceiling))) {
    void *own = out->cfg[out->n - 1];
    memmove(out->cfg + 1, out->cfg, (size_t)(out->n - 1) * sizeof *out->cfg);
    out->cfg[0] = own;
  }
  for (int t = 0; !rc && t < nthreads; t++)
    if (threads[t] > tb_topo_npus(topo)) {
      tb_note("%d threads on %d PUs%s: threads are placed round-robin over the PUs, several to "
              "a PU (rows say binding_ok=oversubscribed)",
              threads[t], tb_topo_npus(topo), tb_cpu_of_mask(topo));
      break;
    }
  free(threads);
  tb_param_list_free(place, nplace);
  if (rc)
    tb_configs_free(out);
  return rc;
}

static int tb_cpu_runs(const void *cfg, const tb_variant_t *v)
{
  const tb_cpu_config_t *c = cfg;
  return (v->flags & TB_V_SERIAL) ? c->serial : c->team;
}

/* The working copies, or the three arrays of the memory ceilings (measured
 * before the copies exist), whichever is larger. */
static void tb_cpu_needs(const void *cfg, const tb_problem_t *p, int64_t *host, int64_t *own)
{
  const tb_cpu_config_t *c = cfg;
  int64_t work = 0, ceiling;
  for (int i = 0; i < p->narrays; i++)
    work = tb_count_add(NULL, work, tb_array_bytes(&p->array[i]));
  ceiling = tb_count_mul(NULL, 3 * 8, c->ceiling_elems);
  *host = ceiling > work ? ceiling : work;
  *own = 0;
}

static int tb_cpu_enter(void *cfg)
{
  tb_cpu_config_t *c = cfg;
  int rc = tb_topo_bind_team(c->topo, c->placement, c->threads, &c->binding);
  if (!rc && !c->binding.ok)
    tb_note("warning: %s; the team of %d runs unbound (rows say binding_ok=no)", c->binding.why,
            c->threads);
  return rc;
}

static void tb_cpu_leave(void *cfg)
{
  tb_cpu_config_t *c = cfg;
  tb_topo_unbind_team(c->topo, c->threads);
  tb_binding_free(&c->binding);
}

static int tb_cpu_record(void *cfg, const tb_ctx_t *ctx, tb_cell_t *cells)
{
  tb_cpu_config_t *c = cfg;
  tb_binding_t *b = &c->binding;
  char *list = malloc((size_t)b->threads * 12 + 1);
  (void)ctx;
  if (!list)
    return tb_fail(TB_ENOMEM, "out of memory");
  tb_topo_check_team(c->topo, b);
  size_t k = 0;
  list[0] = '\0';
  for (int i = 0; i < b->threads; i++)
    k += (size_t)sprintf(list + k, i ? " %d" : "%d", b->pu[i]);
  cells[TB_CPU_COL_THREADS].num = c->threads;
  cells[TB_CPU_COL_PLACEMENT].text = strdup(tb_placement_name(c->placement));
  cells[TB_CPU_COL_BINDING].text = list;
  cells[TB_CPU_COL_BINDING_OK].text =
      strdup(b->ok ? (b->oversubscribed ? "oversubscribed" : "yes") : "no");
  if (!cells[TB_CPU_COL_PLACEMENT].text || !cells[TB_CPU_COL_BINDING_OK].text)
    return tb_fail(TB_ENOMEM, "out of memory");
  return TB_OK;
}

/* Copy (or poison) array i into its working copy, each thread its own share. */
static void tb_cpu_fill(const tb_ctx_t *ctx, int i, int poison)
{
  const tb_array_t *a = &ctx->p->array[i];
  size_t sz = tb_kind_size(a->kind);
  char *dst = ctx->buf[i];
#pragma omp parallel num_threads(tb_cpu_threads(ctx))
  {
    int64_t lo, hi;
    tb_cpu_share(a->count, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);
    if (poison)
      tb_poison(dst, a->kind, lo, hi);
    else
      memcpy(dst + lo * sz, (const char *)a->host + lo * sz, (size_t)(hi - lo) * sz);
  }
}

static int tb_cpu_measure_ceiling(void *cfg, int kind, double *value)
{
  const tb_cpu_config_t *c = cfg;
  return tb_cpu_ceiling(kind, c->threads, c->ceiling_elems, value, NULL);
}

/* The last-level caches of the whole (allowed) machine: a team may reach
 * the others' through coherence, so this is where a row stops being
 * surely in memory. */
static int64_t tb_cpu_cache_bytes(const void *cfg)
{
  return tb_topo_llc_bytes(((const tb_cpu_config_t *)cfg)->topo);
}

static int tb_cpu_attach(tb_ctx_t *ctx, tb_xfer_t *xfer)
{
  (void)xfer;
  tb_cpu_state_t *st = calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->bstate = st;
  for (int i = 0; i < ctx->p->narrays; i++) {
    const tb_array_t *a = &ctx->p->array[i];
    ctx->buf[i] = tb_alloc(tb_array_bytes(a));
    if (!ctx->buf[i]) {
      char b[32];
      int rc = tb_fail(TB_ENOMEM, "cannot allocate %s for the working copy of %s",
                       tb_format_bytes((double)tb_array_bytes(a), b), a->name);
      for (int j = 0; j < i; j++)
        tb_free(ctx->buf[j]);
      free(st);
      ctx->bstate = NULL;
      return rc;
    }
    tb_cpu_fill(ctx, i, a->role == TB_OUT);
  }
  return TB_OK;
}

static int tb_cpu_reset(tb_ctx_t *ctx, int poison)
{
  for (int i = 0; i < ctx->p->narrays; i++) {
    tb_role_t role = ctx->p->array[i].role;
    if (role == TB_INOUT)
      tb_cpu_fill(ctx, i, 0);
    else if (role == TB_OUT && poison)
      tb_cpu_fill(ctx, i, 1);
  }
  return TB_OK;
}

static int tb_cpu_timer_start(tb_ctx_t *ctx)
{
  ((tb_cpu_state_t *)ctx->bstate)->t0 = tb_wtime();
  return TB_OK;
}

static int tb_cpu_timer_stop(tb_ctx_t *ctx, double *ms)
{
  *ms = 1e3 * (tb_wtime() - ((tb_cpu_state_t *)ctx->bstate)->t0);
  return TB_OK;
}

static int tb_cpu_download(tb_ctx_t *ctx, void **view, tb_xfer_t *xfer)
{
  (void)xfer;
  for (int i = 0; i < ctx->p->narrays; i++)
    view[i] = ctx->buf[i];
  return TB_OK;
}

static void tb_cpu_detach(tb_ctx_t *ctx)
{
  for (int i = 0; i < ctx->p->narrays; i++) {
    tb_free(ctx->buf[i]);
    ctx->buf[i] = NULL;
  }
  free(ctx->bstate);
  ctx->bstate = NULL;
}

const tb_backend_t tb_backend_cpu = {
    .name = "cpu",
    .summary = "OpenMP twins on teams of host threads bound with hwloc",
    .flags = 0,
    .ceiling_names = {"read-only sum by the same bound team",
                      "copy by the same bound team, plain or non-temporal stores (the better)",
                      "STREAM triad by the same bound team, plain or non-temporal stores (the "
                      "better)",
                      "FP32 FMA chains on the build's vector registers, every thread of the team",
                      "FP64 FMA chains on the build's vector registers, every thread of the "
                      "team",
                      "gather out[i] = in[idx[i]] of 4-byte elements at random indices over a "
                      "table of --ceiling-size doubles' bytes, by the same bound team: 32 bytes "
                      "a read (the CPU moves a 64-byte line)"},
    .variants = tb_cpu_variants,
    .options = tb_cpu_options,
    .noptions = TB_CPU_NOPT,
    .tuning = NULL,
    .ntuning = 0,
    .columns = tb_cpu_columns,
    .ncolumns = TB_COUNT(tb_cpu_columns),
    .probe = tb_cpu_probe,
    .info = tb_cpu_info,
    .env_json = tb_cpu_env_json,
    .mem_available = NULL,
    .configs = tb_cpu_configs,
    .configs_free = tb_configs_free,
    .runs = tb_cpu_runs,
    .needs = tb_cpu_needs,
    .enter = tb_cpu_enter,
    .leave = tb_cpu_leave,
    .measure_ceiling = tb_cpu_measure_ceiling,
    .cache_bytes = tb_cpu_cache_bytes,
    .attach = tb_cpu_attach,
    .reset = tb_cpu_reset,
    .timer_start = tb_cpu_timer_start,
    .timer_stop = tb_cpu_timer_stop,
    .download = tb_cpu_download,
    .detach = tb_cpu_detach,
    .record = tb_cpu_record,
    .energy_read = tb__cpu_energy_read,
    .energy_what = tb__cpu_energy_what,
};
