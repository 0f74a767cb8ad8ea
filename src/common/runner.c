/* twinbench: the runner: the checks before a sweep, and the sweep. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy.h"
#include "mem.h"
#include "params.h"
#include "problem.h"
#include "runner.h"
#include "columns.h"
#include "timer.h"
#include "stats.h"
#include "status.h"
#include "tbmpi.h"

static volatile sig_atomic_t tb_stop;

void tb_runner_interrupt(void)
{
  tb_stop = 1;
}

/* Whether the sweep stops here. In an MPI run every rank passes these
 * points in step, and an interrupt may reach one rank, or reach them at
 * different moments: they agree (the largest flag), so that all stop at the
 * same point, rank 0 reports the rows measured so far and no rank is left
 * waiting in a collective for one that stopped. */
static int tb_stopping(void)
{
  return tb_mpi_size() > 1 ? tb_mpi_max((double)tb_stop) > 0.0 : tb_stop != 0;
}

/* Whether a row in progress stops between its runs: a signal ends it there
 * (the row is not recorded), so that a long row (minutes of repeats, or a
 * --min-time budget) does not hold the stop until it ends. One process
 * only: the ranks of an MPI run stop at the points above, where they agree,
 * not inside a row, whose runs are collective and counted by the
 * communication clock. */
static int tb_stopping_in_row(void)
{
  return tb_mpi_size() == 1 && tb_stop != 0;
}

int tb_run_stopping(void)
{
  return tb_stopping_in_row();
}

/* Size si of the sweep at precision prec (auto: STREAM's rule here). */
static int64_t tb_sweep_size(const tb_sweep_t *s, tb_topo_t *topo, tb_prec_t prec, int si)
{
  const int64_t n = s->sizes[si];
  return n == TB_SIZE_AUTO ? tb_stream_rule_elems(tb_topo_llc_bytes(topo),
                                                  (int64_t)tb_kind_size(tb_prec_kind(prec)))
                           : n;
}

/* Whether size si at precision prec is an earlier size's (auto resolved to a
 * size also given, as -n auto,2^28 where the rule's cap is 2^28): measured
 * once, and counted once in the sweep's total. */
static int tb_sweep_size_repeated(const tb_sweep_t *s, tb_topo_t *topo, tb_prec_t prec, int si)
{
  const int64_t n = tb_sweep_size(s, topo, prec, si);
  for (int sj = 0; sj < si; sj++)
    if (tb_sweep_size(s, topo, prec, sj) == n)
      return 1;
  return 0;
}

/* The parameter point `idx` of the sweep at size si, as a problem, set up
 * but not filled. */
static int tb_problem_init(tb_problem_t *p, const tb_sweep_t *s, tb_topo_t *topo, tb_prec_t prec,
                           int si, const int *idx)
{
  tb_param_value_t params[TB_MAX_PARAMS];
  const int64_t n = tb_sweep_size(s, topo, prec, si);
  for (int k = 0; k < s->algo->nparams; k++)
    params[k] = s->pv[k][idx[k]];
  return tb_problem_setup(p, s->algo, prec, n, s->seed, s->input_path, params);
}

/* Advance an odometer over digits of the given counts; returns 0 after the last. */
static int tb_odometer(int *idx, const int *count, int ndigits)
{
  for (int k = ndigits - 1; k >= 0; k--) {
    if (++idx[k] < count[k])
      return 1;
    idx[k] = 0;
  }
  return 0;
}

/* Whether variant v runs in an MPI run of several ranks. */
static int tb_variant_distributed(const tb_variant_t *v)
{
  return !!(v->flags & (TB_V_MPI | TB_V_MPI_WEAK));
}

int tb_sweep_selects(const tb_sweep_t *s, const tb_variant_t *v, tb_prec_t prec)
{
  if (v->algo != s->algo || !(v->precisions & TB_PREC_BIT(prec)))
    return 0;
  if (tb_mpi_size() > 1 && !tb_variant_distributed(v))
    return 0;
  /* The distributed variants run in MPI runs only, so that a run without
   * mpirun makes the rows it made before them. */
  if ((v->flags & TB_V_MPI) && !tb_mpi_active())
    return 0;
  if (!s->variants)
    return 1;
  for (int i = 0; i < s->nvariants; i++)
    if (!strcmp(s->variants[i], v->name))
      return 1;
  return 0;
}

/* Whether variant v is selected for some precision of the sweep. */
static int tb_sweep_selects_any(const tb_sweep_t *s, const tb_variant_t *v)
{
  for (int i = 0; i < s->nprec; i++)
    if (tb_sweep_selects(s, v, s->prec[i]))
      return 1;
  return 0;
}

/* ---- Checks before running --------------------------------------------- */

/* Probe the requested backends: those missing are dropped with a note, as
 * long as another one is usable. */
static int tb_check_backends(tb_sweep_t *s, tb_run_state_t *st)
{
  int usable = 0, first_bad = -1;
  for (int b = 0; b < tb_backend_count(); b++) {
    if (!s->use[b])
      continue;
    if (tb_backend_at(b)->probe() == TB_OK) {
      st->usable[b] = 1;
      usable++;
    } else {
      snprintf(st->reason[b], sizeof st->reason[b], "%s", tb_error_detail());
      if (first_bad < 0)
        first_bad = b;
    }
  }
  if (!usable)
    return tb_fail(TB_ENODEV, "the %s backend is not available: %s",
                   tb_backend_at(first_bad)->name, st->reason[first_bad]);
  for (int b = 0; b < tb_backend_count(); b++)
    if (s->use[b] && !st->usable[b]) {
      tb_note("%s backend skipped: %s", tb_backend_at(b)->name, st->reason[b]);
      s->use[b] = 0;
    }
  return TB_OK;
}

/* Every named variant exists on a requested backend, and on a usable one. */
static int tb_check_variants(const tb_sweep_t *s, const tb_run_state_t *st, const int *requested)
{
  for (int i = 0; i < s->nvariants; i++) {
    int usable = 0, unusable = -1;
    for (int b = 0; b < tb_backend_count(); b++)
      if (requested[b] && tb_variant_find(s->algo, b, s->variants[i])) {
        if (st->usable[b])
          usable = 1;
        else if (unusable < 0)
          unusable = b;
      }
    for (int b = 0; b < tb_backend_count() && usable && !tb_mpi_active(); b++) {
      const tb_variant_t *v = requested[b] ? tb_variant_find(s->algo, b, s->variants[i]) : NULL;
      if (v && (v->flags & TB_V_MPI))
        return tb_fail(TB_EINVAL, "variant '%s' of %s runs distributed over MPI ranks: start it "
                                  "with mpirun%s",
                       s->variants[i], s->algo->name,
                       tb_mpi_built() ? "" : " (and a build with MPI: configure --with-mpi)");
    }
    if (usable && tb_mpi_size() > 1) {
      int distributed = 0;
      for (int b = 0; b < tb_backend_count(); b++) {
        const tb_variant_t *v = requested[b] ? tb_variant_find(s->algo, b, s->variants[i]) : NULL;
        distributed |= v && tb_variant_distributed(v);
      }
      if (!distributed)
        return tb_fail(TB_EINVAL, "variant '%s' of %s does not run distributed over %d MPI ranks "
                                  "(see 'twinbench list %s' for the mpi variants)",
                       s->variants[i], s->algo->name, tb_mpi_size(), s->algo->name);
    }
    if (usable)
      continue;
    if (unusable >= 0)
      return tb_fail(TB_ENODEV, "variant '%s' runs on the %s backend, which is not available: %s",
                     s->variants[i], tb_backend_at(unusable)->name, st->reason[unusable]);
    char known[512], name[64];
    size_t k = 0;
    known[0] = '\0';
    for (int b = 0; b < tb_backend_count(); b++)
      for (const tb_variant_t *const *v = tb_backend_variants(b); *v && k < sizeof known; v++)
        if ((*v)->algo == s->algo && requested[b])
          k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", k ? ", " : "", (*v)->name);
    return tb_fail(TB_EINVAL, "unknown variant '%s' for %s on the chosen backends (known: %s)",
                   tb_printable(s->variants[i], name, sizeof name), s->algo->name,
                   known[0] ? known : "none");
  }
  for (int i = 0; i < s->nprec; i++)
    if (!(s->algo->precisions & TB_PREC_BIT(s->prec[i])))
      return tb_fail(TB_EINVAL, "%s does not support precision %s", s->algo->name,
                     tb_prec_name(s->prec[i]));
  return TB_OK;
}

/* The values of a tuning parameter: the user's list, or the default. */
static int tb_tuning_list(const tb_sweep_t *s, const tb_param_def_t *d, tb_param_value_t **val,
                          int *n)
{
  const char *list = d->defaults;
  for (int i = 0; i < s->ntuning; i++)
    if (!strcmp(s->tuning[i].name, d->name))
      list = s->tuning[i].list;
  return tb_param_parse_list(d, list, val, n);
}

/* Check every tuning setting against every parameter of that name (the
 * variants' of the algorithm, and the backends' common ones), so that a bad
 * value is refused also where no variant that takes it runs. */
static int tb_check_tuning_values(const tb_sweep_t *s)
{
  for (int b = 0; b < tb_backend_count(); b++) {
    const tb_backend_t *be = tb_backend_at(b);
    for (int k = 0; k < be->ntuning; k++) {
      tb_param_value_t *val;
      int n, rc = tb_tuning_list(s, &be->tuning[k], &val, &n);
      if (rc)
        return rc;
      tb_param_list_free(val, n);
    }
    for (const tb_variant_t *const *v = tb_backend_variants(b); *v; v++)
      for (int k = 0; (*v)->algo == s->algo && k < (*v)->ntuning; k++) {
        tb_param_value_t *val;
        int n, rc = tb_tuning_list(s, &(*v)->tuning[k], &val, &n);
        if (rc)
          return rc;
        tb_param_list_free(val, n);
      }
  }
  return TB_OK;
}

/* The tuning lists of every variant that may run. */
static int tb_check_tuning(const tb_sweep_t *s, tb_run_state_t *st)
{
  int rc = tb_check_tuning_values(s);
  if (rc)
    return rc;
  int count = 0;
  for (int b = 0; b < tb_backend_count(); b++)
    count += s->use[b] ? tb_variant_count(s->algo, b) : 0;
  if (!(st->tuning = calloc((size_t)count + 1, sizeof *st->tuning)))
    return tb_fail(TB_ENOMEM, "out of memory");
  for (int b = 0; b < tb_backend_count(); b++)
    for (const tb_variant_t *const *v = tb_backend_variants(b); s->use[b] && *v; v++) {
      if (!tb_sweep_selects_any(s, *v))
        continue;
      tb_tuning_t *t = &st->tuning[st->ntuning++];
      t->v = *v;
      t->b = b;
      for (int k = 0; k < (*v)->ntuning; k++)
        if ((rc = tb_tuning_list(s, &(*v)->tuning[k], &t->val[k], &t->nval[k])))
          return rc;
    }
  if (!st->ntuning && tb_mpi_size() > 1)
    return tb_fail(TB_EINVAL, "%s has no variant that runs distributed over %d MPI ranks on the "
                              "chosen backends and precisions",
                   s->algo->name, tb_mpi_size());
  return TB_OK;
}

void tb_sweep_columns(const tb_sweep_t *s, const tb_run_state_t *st, tb_colset_t *cs)
{
  tb_colset_begin(cs, s->algo);
  cs->mpi = tb_mpi_active();
  for (int b = 0; b < tb_backend_count(); b++)
    if (s->use[b]) {
      tb_colset_add_backend(cs, tb_backend_at(b));
      cs->energy |= st->energy[b];
    }
  for (int i = 0; i < st->ntuning; i++)
    tb_colset_add_variant(cs, st->tuning[i].v);
  tb_colset_end(cs);
}

/* Whether backend b's energy counters can be read (in its first
 * configuration: a backend's counters cover its hardware, not one team),
 * and what they count or why they are not read, for the reports. */
static void tb_check_energy(tb_run_state_t *st, int b)
{
  const tb_backend_t *be = tb_backend_at(b);
  const size_t len = sizeof st->energy_what[b];
  tb_energy_reading_t r;
  if (!be->energy_read)
    snprintf(st->energy_what[b], len, "not measured: the %s backend has no energy counter",
             be->name);
  else if (st->configs[b].n > 0 && be->energy_read(st->configs[b].cfg[0], &r) == TB_OK) {
    st->energy[b] = 1;
    be->energy_what(st->configs[b].cfg[0], st->energy_what[b], len);
  } else
    snprintf(st->energy_what[b], len, "not measured: %s", tb_error_detail());
  tb_error_clear();
}

/* With --energy, a note when no backend of the run can read its counters:
 * the run goes on, without the energy columns. */
static void tb_note_energy(const tb_sweep_t *s, const tb_run_state_t *st)
{
  char why[1024];
  size_t k = 0;
  why[0] = '\0';
  for (int b = 0; b < tb_backend_count(); b++) {
    if (s->use[b] && st->energy[b])
      return;
    if (s->use[b] && k < sizeof why)
      k += (size_t)snprintf(why + k, sizeof why - k, "%s%s: %s", k ? "; " : "",
                            tb_backend_at(b)->name, st->energy_what[b]);
  }
  tb_note("--energy: no backend of the run has an energy counter, so the rows have no energy "
          "(%s)", why);
}

/* The configurations of every usable backend, from its options. */
static int tb_check_configs(const tb_sweep_t *s, tb_run_state_t *st)
{
  for (int b = 0; b < tb_backend_count(); b++) {
    const tb_backend_t *be = tb_backend_at(b);
    const char *text[TB_MAX_OPTIONS];
    if (!s->use[b])
      continue;
    for (int k = 0; k < be->noptions; k++)
      text[k] = s->option[b][k] ? s->option[b][k] : be->options[k].defaults;
    int rc = be->configs(st->topo, text, &st->configs[b]);
    if (rc)
      return rc;
    if (s->energy)
      tb_check_energy(st, b);
    if (!(st->ceiling[b] = calloc((size_t)st->configs[b].n * TB_NCEIL, sizeof *st->ceiling[b])))
      return tb_fail(TB_ENOMEM, "out of memory");
  }
  return TB_OK;
}

/* Whether problem p fits: its arrays on the host, and what each backend
 * adds in its largest configuration, on the host (one backend at a time) and
 * on its own device. */
static int tb_check_memory(const tb_sweep_t *s, const tb_run_state_t *st, const tb_problem_t *p)
{
  char what[256], b1[32], b2[32];
  int64_t base = tb_count_add(NULL, p->extra_host_bytes, 0), most = 0, avail;
  for (int i = 0; i < p->narrays; i++)
    if (p->array[i].role != TB_OUT)
      base = tb_count_add(NULL, base, tb_array_bytes(&p->array[i]));
  tb_problem_text(p, what, sizeof what);
  for (int b = 0; b < tb_backend_count(); b++) {
    const tb_backend_t *be = tb_backend_at(b);
    int64_t host = 0, own = 0, h, o;
    for (int c = 0; s->use[b] && c < st->configs[b].n; c++) {
      be->needs(st->configs[b].cfg[c], p, &h, &o);
      host = h > host ? h : host;
      own = o > own ? o : own;
    }
    most = host > most ? host : most;
    if (!s->use[b] || !be->mem_available)
      continue;
    int rc = be->mem_available(&avail);
    if (rc)
      return rc;
    if (own > avail)
      return tb_fail(TB_ENOMEM, "%s needs %s of %s memory but %s is free", what,
                     tb_format_bytes((double)own, b1), be->name, tb_format_bytes((double)avail, b2));
  }
  int rc = tb_host_mem_available(&avail);
  int64_t need = tb_count_add(NULL, base, most);
  if (!rc && need > avail)
    rc = tb_fail(TB_ENOMEM, "%s needs %s of host memory but %s is available", what,
                 tb_format_bytes((double)need, b1), tb_format_bytes((double)avail, b2));
  return rc;
}

/* Set up every problem of the sweep (reading any input) and check its memory. */
static int tb_check_problems(const tb_sweep_t *s, const tb_run_state_t *st)
{
  int idx[TB_MAX_PARAMS] = {0}, rc = TB_OK;
  for (int pi = 0; pi < s->nprec && !rc; pi++)
    for (int si = 0; si < s->nsizes && !rc; si++) {
      if (tb_sweep_size_repeated(s, st->topo, s->prec[pi], si))
        continue; /* checked as the earlier size */
      memset(idx, 0, sizeof idx);
      do {
        tb_problem_t p;
        rc = tb_problem_init(&p, s, st->topo, s->prec[pi], si, idx);
        if (!rc)
          rc = tb_check_memory(s, st, &p);
        tb_problem_destroy(&p);
      } while (!rc && tb_odometer(idx, s->npv, s->algo->nparams));
    }
  return rc;
}

int tb_sweep_check(tb_sweep_t *s, tb_topo_t *topo, tb_run_state_t *st)
{
  int requested[TB_MAX_BACKENDS];
  memset(st, 0, sizeof *st);
  st->topo = topo;
  memcpy(requested, s->use, sizeof requested);
  tb_note_hold();
  /* The energy window decides the repeats from each rank's own counters,
   * which would part the ranks' loops. */
  int rc = s->energy && tb_mpi_size() > 1
               ? tb_fail(TB_EINVAL, "--energy is not supported in MPI runs of several ranks")
               : TB_OK;
  if (!rc)
    rc = tb_check_backends(s, st);
  if (!rc)
    rc = tb_check_variants(s, st, requested);
  if (!rc)
    rc = tb_check_tuning(s, st);
  if (!rc)
    rc = tb_check_configs(s, st);
  if (!rc && s->energy)
    tb_note_energy(s, st);
  if (!rc)
    rc = tb_check_problems(s, st);
  if (rc)
    tb_note_release(0);
  return rc;
}

void tb_run_state_free(tb_run_state_t *st)
{
  for (int b = 0; b < TB_MAX_BACKENDS; b++) {
    if (st->configs[b].cfg)
      tb_backend_at(b)->configs_free(&st->configs[b]);
    free(st->ceiling[b]);
    st->ceiling[b] = NULL;
  }
  for (int i = 0; st->tuning && i < st->ntuning; i++)
    for (int k = 0; k < st->tuning[i].v->ntuning; k++)
      tb_param_list_free(st->tuning[i].val[k], st->tuning[i].nval[k]);
  free(st->tuning);
  st->tuning = NULL;
}

/* ---- Running ----------------------------------------------------------- */

/* Ceilings are measured per backend configuration and kind, when first
 * needed and once more at the end of the run, and every row gets the
 * better of the two, so that a ceiling taken while the machine was busy (a
 * VM still backing fresh memory, say) does not flatter the rows measured
 * later. In an MPI run the ranks measure at once (after a barrier) and the
 * ceiling is their sum: the job's, which its rows' aggregate figures are
 * held against. */
static int tb_ceiling_get(tb_run_state_t *st, int b, int c, int kind, double *value)
{
  double *slot = &st->ceiling[b][c * TB_NCEIL + kind];
  if (*slot <= 0.0) {
    tb_mpi_barrier();
    int rc = tb_backend_at(b)->measure_ceiling(st->configs[b].cfg[c], kind, slot);
    if (rc)
      return rc;
    *slot = tb_mpi_sum(*slot);
  }
  *value = *slot;
  return TB_OK;
}

/* The ceilings a problem's rows are held against: the memory ceiling of its
 * read:write mix, and the compute ceiling of its precision if it counts
 * flops (else -1). */
static void tb_problem_ceilings(const tb_problem_t *p, int *mem, int *comp)
{
  tb_cost_t c = {0, 0, 0, 0};
  p->algo->cost(p, &c);
  *mem = tb_cost_mem_ceiling(&c);
  *comp = tb_cost_compute_ceiling(&c, p->prec);
}

/* A row's ceilings, from the run's (NaN: none of that kind). */
static void tb_row_ceilings(const tb_run_state_t *st, tb_result_t *row)
{
  const double *slot = &st->ceiling[row->bi][row->ci * TB_NCEIL];
  const int comp = row->comp_ceiling;
  row->ceiling_gbs = slot[row->mem_ceiling] > 0 ? slot[row->mem_ceiling] : NAN;
  row->ceiling_gflops = comp >= 0 && slot[comp] > 0 ? slot[comp] : NAN;
}

static int tb_ceilings_finish(tb_run_state_t *st, tb_results_t *res)
{
  int rc = TB_OK;
  for (int b = 0; b < tb_backend_count() && !rc; b++)
    for (int c = 0; st->ceiling[b] && c < st->configs[b].n && !rc; c++) {
      const tb_backend_t *be = tb_backend_at(b);
      void *cfg = st->configs[b].cfg[c];
      int entered = 0;
      for (int kind = 0; kind < TB_NCEIL && !rc; kind++) {
        double *slot = &st->ceiling[b][c * TB_NCEIL + kind], value = 0.0;
        if (*slot <= 0.0)
          continue;
        if (!entered && !(rc = be->enter(cfg)))
          entered = 1;
        tb_mpi_barrier();
        if (!rc && !(rc = be->measure_ceiling(cfg, kind, &value)) &&
            (value = tb_mpi_sum(value)) > *slot)
          *slot = value;
      }
      if (entered)
        be->leave(cfg);
    }
  for (int r = 0; r < res->n; r++)
    tb_row_ceilings(st, &res->r[r]);
  return rc;
}

typedef struct tb_progress {
  int on;
  long done, total;
  double start; /* tb_wtime() at the start of the sweep */
} tb_progress_t;

/* The time left, from the mean time of the configurations done so far. */
static void tb_progress_eta(const tb_progress_t *pg, char *buf, size_t len)
{
  double left = (tb_wtime() - pg->start) / (double)pg->done * (double)(pg->total - pg->done);
  if (pg->done >= pg->total)
    snprintf(buf, len, "writing the report");
  else if (left < 90)
    snprintf(buf, len, "about %.0f s left", left);
  else if (left < 5400)
    snprintf(buf, len, "about %.0f min left", left / 60);
  else
    snprintf(buf, len, "about %.1f h left", left / 3600);
}

static void tb_progress_show(tb_progress_t *pg, const tb_result_t *row)
{
  char cfg[160], eta[64];
  if (!pg->on)
    return;
  pg->done++;
  tb_result_config_text(row, cfg, sizeof cfg);
  tb_progress_eta(pg, eta, sizeof eta);
  /* One line within the terminal's usual width. */
  fprintf(stderr, "\r\033[K[%ld/%ld, %s] %.60s %s n=%lld", pg->done, pg->total, eta, cfg,
          tb_prec_name(row->prec), (long long)row->n);
  fflush(stderr);
  tb_note_progress(1);
}

static void tb_progress_end(tb_progress_t *pg)
{
  if (pg->on && pg->done)
    fprintf(stderr, "\r\033[K");
  tb_note_progress(0);
}

/* Everything fixed while the variants of one backend configuration run. */
typedef struct tb_stage {
  const tb_sweep_t *s;
  tb_run_state_t *st;
  tb_problem_t *p;
  tb_results_t *res;
  tb_progress_t *pg;
  int b, c;       /* the backend and its configuration */
  tb_xfer_t xfer; /* host-to-device fields from attach */
  int has_inout;
} tb_stage_t;

/* The first verified configuration's results, into the claimed dump file. */
static int tb_write_dump(const tb_stage_t *g, const tb_result_t *row, void *const *view)
{
  int rc = g->p->algo->dump(g->p, view, g->s->dump);
  if (rc)
    return rc;
  if (fflush(g->s->dump) || ferror(g->s->dump))
    return tb_fail(TB_EIO, "writing the dump '%s' failed: %s", g->s->dump_path,
                   strerror(errno ? errno : EIO));
  char cfg[96];
  tb_result_config_text(row, cfg, sizeof cfg);
  snprintf(g->st->dump_what, sizeof g->st->dump_what, "%s on %s", cfg,
           tb_backend_at(g->b)->name);
  g->st->dumped = 1;
  return TB_OK;
}

/* Whether the adaptive repeats (--min-time, --max-noise) want another run
 * after n, whose times add to sum ms with a Welford m2 (n * variance). */
static int tb_more_runs(const tb_sweep_t *s, int n, double sum, double mean, double m2)
{
  const double cap_ms = 1e3 * (2 * s->min_time > TB_NOISE_TIMEOUT ? 2 * s->min_time
                                                                     : TB_NOISE_TIMEOUT);
  if (n < s->repeat)
    return 1;
  if (n >= TB_MAX_REPEATS)
    return 0;
  if (s->min_time > 0 && sum < 1e3 * s->min_time)
    return 1;
  if (s->max_noise > 0 && n > 1 && mean > 0 && sqrt(m2 / (n - 1)) / mean > s->max_noise)
    return sum < cap_ms;
  return 0;
}

/* The energy of a row's timed runs: the backend's counters read before
 * the first and after the last, the window between the two readings, and
 * the counters' advance over it (NaN until read). */
typedef struct tb_meter {
  int on;
  tb_energy_reading_t r0;
  double seconds, joules;
} tb_meter_t;

/* Read the stage's backend's counters, stamped with the host time. A
 * counter that fails after it read well at the start is noted, and the
 * backend's rows go on without energy rather than the sweep stopping. */
static int tb_meter_read(const tb_stage_t *g, tb_meter_t *m, tb_energy_reading_t *r)
{
  const tb_backend_t *be = tb_backend_at(g->b);
  if (be->energy_read(g->st->configs[g->b].cfg[g->c], r)) {
    tb_note("%s energy: reading the counters failed (%s); the rows from here have no energy",
            be->name, tb_error_detail());
    snprintf(g->st->energy_what[g->b], sizeof g->st->energy_what[g->b],
             "not measured after a failed reading: %s", tb_error_detail());
    tb_error_clear();
    g->st->energy[g->b] = 0;
    m->on = 0;
    return -1;
  }
  r->t = tb_wtime();
  return 0;
}

/* Whether the meter wants another timed run after n: while the window is
 * too short for its counters (energy.h). The counters are read only once
 * the window could be long enough. */
static int tb_meter_more(const tb_stage_t *g, tb_meter_t *m, int n)
{
  tb_energy_reading_t r1;
  if (!m->on)
    return 0;
  m->seconds = tb_wtime() - m->r0.t;
  m->joules = NAN;
  if (m->seconds >= TB_ENERGY_MIN_WINDOW) {
    if (tb_meter_read(g, m, &r1))
      return 0;
    m->seconds = r1.t - m->r0.t;
    m->joules = tb_energy_joules(&m->r0, &r1);
  }
  return tb_energy_more(m->seconds, m->joules, n, TB_ENERGY_MAX_RUNS);
}

/* One timed run. In an MPI run the ranks start together (a barrier) and
 * the run's time is the slowest rank's, so that every rank records the same
 * times and takes the same adaptive-repeat decisions. */
static int tb_time_one(const tb_stage_t *g, tb_ctx_t *ctx, double *ms)
{
  const tb_backend_t *be = tb_backend_at(g->b);
  int rc = tb_mpi_fault_point();
  tb_mpi_barrier();
  if (!rc && !(rc = be->timer_start(ctx)) && !(rc = ctx->v->run(ctx)) &&
      !(rc = be->timer_stop(ctx, ms)))
    *ms = tb_mpi_max(*ms);
  return rc;
}

/* Warm up, then time the repeats into *times (grown as the adaptive
 * repeats and the energy window need; *n of them), reading the energy
 * counters around them where the backend has them. The communication
 * clock (tbmpi.h) counts the timed runs' MPI time into *comm_ms. */
static int tb_time_runs(const tb_stage_t *g, tb_ctx_t *ctx, double **times, int *n, tb_meter_t *m,
                        double *comm_ms)
{
  const tb_backend_t *be = tb_backend_at(g->b);
  const tb_sweep_t *s = g->s;
  double sum = 0.0, mean = 0.0, m2 = 0.0;
  int cap = s->repeat, rc = be->reset(ctx, 1);
  *n = 0;
  for (int w = 0; w < s->warmup && !rc; w++) {
    if (tb_stopping_in_row())
      return TB_EINTR;
    if (g->has_inout && w && (rc = be->reset(ctx, 0)))
      break;
    rc = ctx->v->run(ctx);
  }
  m->on = g->st->energy[g->b];
  m->seconds = m->joules = NAN;
  /* The warm-ups must be over before the first reading, or their energy
   * would be the timed runs': a reset waits for the backend's device (the
   * GPU's synchronises its stream), as the last run's timer_stop does at
   * the other end of the window. */
  if (!rc && m->on && !(rc = be->reset(ctx, 0)))
    tb_meter_read(g, m, &m->r0);
  tb_mpi_comm_reset();
  for (int r = 0; !rc && (tb_more_runs(s, r, sum, mean, m2) || tb_meter_more(g, m, r)); r++) {
    if (tb_stopping_in_row())
      return TB_EINTR;
    if (r == cap) {
      double *t = realloc(*times, (size_t)(cap *= 2) * sizeof *t);
      if (!t)
        return tb_fail(TB_ENOMEM, "out of memory for %d times", cap);
      *times = t;
    }
    if (g->has_inout && (r || s->warmup) && (rc = be->reset(ctx, 0)))
      break;
    if (!(rc = tb_time_one(g, ctx, &(*times)[r]))) {
      double x = (*times)[r], d = x - mean;
      sum += x;
      mean += d / (r + 1);
      m2 += d * (x - mean);
      *n = r + 1;
    }
  }
  *comm_ms = tb_mpi_comm_ms();
  if (!rc && ctx->v->collect)
    rc = ctx->v->collect(ctx);
  return rc;
}

/* The row's identity, its tuning values as run and its backend's columns. */
static int tb_row_describe(const tb_stage_t *g, const tb_ctx_t *ctx, tb_result_t *row)
{
  const tb_backend_t *be = tb_backend_at(g->b);
  const tb_variant_t *v = ctx->v;
  row->algo = g->p->algo;
  row->variant = v;
  row->backend = be;
  row->bi = g->b;
  row->ci = g->c;
  row->prec = g->p->prec;
  row->n = g->p->n;
  memcpy(row->param, g->p->param, sizeof row->param);
  for (int k = 0; k < TB_MAX_CONFIG_COLUMNS; k++)
    row->config[k].num = NAN;
  for (int k = 0; k < v->ntuning; k++) {
    const tb_param_def_t *d = &v->tuning[k];
    row->tune[k].num = NAN;
    if (!isnan(ctx->tuned[k]) && d->type == TB_PARAM_CHOICE) {
      if (!(row->tune[k].text = strdup(d->choices[(int)ctx->tuned[k]])))
        return tb_fail(TB_ENOMEM, "out of memory");
    } else if (!isnan(ctx->tuned[k]))
      row->tune[k].num = ctx->tuned[k];
    else if ((d->type == TB_PARAM_INT && (ctx->tune[k].i || !(d->flags & TB_PARAM_AUTO))) ||
             d->type == TB_PARAM_REAL)
      row->tune[k].num = ctx->tune[k].r;
    else if (!(row->tune[k].text = strdup(ctx->tune[k].s)))
      return tb_fail(TB_ENOMEM, "out of memory");
  }
  return be->record(g->st->configs[g->b].cfg[g->c], ctx, row->config);
}

/* The row's energy from the meter: per run and mean power when the window
 * was long enough, else none (and the flag, when the counters were read). */
static void tb_row_energy(const tb_meter_t *m, int n, tb_result_t *row)
{
  row->energy_j = row->avg_w = NAN;
  if (!m->on)
    return;
  if (tb_energy_enough(m->seconds, m->joules) && n > 0) {
    row->energy_j = m->joules / n;
    row->avg_w = m->joules / m->seconds;
  } else
    row->energy_short = 1;
}

/* The verdicts of every rank as one: the worst (a failure before an
 * unverifiable result before a pass), with the largest error, so that the
 * row rank 0 reports stands for the whole job. A rank whose own check
 * passed while another's failed says which rank failed. */
static void tb_check_combine(tb_check_t *chk)
{
  const int fail = tb_mpi_max(chk->verdict == TB_FAIL) > 0;
  const int unverifiable = tb_mpi_max(chk->verdict == TB_UNVERIFIABLE) > 0;
  const int checked = tb_mpi_max(chk->verdict != TB_SKIPPED) > 0;
  const double error = tb_mpi_max(isnan(chk->error) ? -INFINITY : chk->error);
  const double first_fail = tb_mpi_min(chk->verdict == TB_FAIL ? tb_mpi_rank() : INFINITY);
  if (fail && chk->verdict != TB_FAIL)
    snprintf(chk->note, sizeof chk->note, "failed verification on MPI rank %.0f", first_fail);
  chk->verdict = fail ? TB_FAIL : unverifiable ? TB_UNVERIFIABLE : checked ? TB_PASS : TB_SKIPPED;
  chk->error = isinf(error) ? NAN : error;
}

/* An MPI run's columns: its shape, and the communication time per run of
 * the rank that spent the most. A variant that runs the whole problem on
 * every rank (TB_V_MPI_WEAK) moves the ranks' bytes and flops together. */
static void tb_row_mpi(const tb_ctx_t *ctx, double comm_ms, int n, tb_result_t *row)
{
  if (!tb_mpi_active())
    return;
  row->ranks = tb_mpi_size();
  row->nodes = tb_mpi_nodes();
  row->comm_ms = n > 0 ? tb_mpi_max(comm_ms) / n : NAN;
  if (ctx->v->flags & TB_V_MPI_WEAK) {
    row->cost.read *= row->ranks;
    row->cost.written *= row->ranks;
    row->cost.flops *= row->ranks;
    row->footprint *= row->ranks;
  }
}

/* Verify the outputs and fill the figures of the row from the n times. */
static int tb_row_measure(const tb_stage_t *g, tb_ctx_t *ctx, void *const *view,
                          const double *times, int n, tb_result_t *row)
{
  const tb_algo_t *a = g->p->algo;
  const tb_backend_t *be = tb_backend_at(g->b);
  tb_stats_t st;
  int rc = tb_stats_compute(times, n, &st);
  if (rc)
    return rc;
  row->repeats = n;
  row->median_ms = st.median;
  row->min_ms = st.min;
  row->max_ms = st.max;
  row->mean_ms = st.mean;
  row->stddev_ms = st.stddev;
  memset(&row->cost, 0, sizeof row->cost);
  a->cost(g->p, &row->cost);
  row->mem_ceiling = tb_cost_mem_ceiling(&row->cost);
  row->comp_ceiling = tb_cost_compute_ceiling(&row->cost, row->prec);
  for (int i = 0; i < g->p->narrays; i++)
    row->footprint += (double)tb_array_bytes(&g->p->array[i]);
  row->cache_bytes = be->cache_bytes ? (double)be->cache_bytes(g->st->configs[g->b].cfg[g->c]) : 0;
  row->check.error = NAN;
  row->check.tolerance = NAN;
  if (g->s->verify && (rc = a->verify(g->p, view, ctx->extra, &row->check)))
    return rc;
  if (tb_mpi_size() > 1)
    tb_check_combine(&row->check);
  g->st->failures += row->check.verdict == TB_FAIL;
  g->st->unverifiable += row->check.verdict == TB_UNVERIFIABLE;
  memcpy(row->extra, ctx->extra, sizeof row->extra);
  for (int k = 0; k < a->ncolumns && a->per_run; k++) {
    double items = a->per_run(g->p, k);
    if (!isnan(items) && st.median > 0)
      row->extra[k] = a->columns[k].flags & TB_COL_TIME ? st.median * 1e-3 / items
                                                        : items / (st.median * 1e-3);
  }
  tb_row_ceilings(g->st, row);
  return TB_OK;
}

/* The key of a point (runner.h). */
static void tb_point_key(const tb_problem_t *p, int b, int c, const tb_variant_t *v,
                         const tb_param_value_t *tune, char *buf, size_t len)
{
  char what[256], tuning[256];
  tb_problem_text(p, what, sizeof what);
  tb_params_format(v->tuning, v->ntuning, tune, tuning, sizeof tuning);
  snprintf(buf, len, "%s | %s configuration %d | %s%s%s", what, tb_backend_at(b)->name, c + 1,
           v->name, tuning[0] ? " " : "", tuning);
}

static const tb_tuning_t *tb_tuning_of(const tb_run_state_t *st, const tb_variant_t *v);

/* Whether the caller's skip hook leaves any tuning point of variant v in
 * configuration c of backend b to run for problem p. */
static int tb_variant_wanted(const tb_sweep_t *s, const tb_run_state_t *st, const tb_problem_t *p,
                             int b, int c, const tb_variant_t *v)
{
  const tb_tuning_t *t = tb_tuning_of(st, v);
  int idx[TB_MAX_TUNING] = {0};
  tb_param_value_t point[TB_MAX_TUNING];
  char key[768];
  if (!s->skip)
    return 1;
  do {
    for (int k = 0; k < v->ntuning; k++)
      point[k] = t->val[k][idx[k]];
    tb_point_key(p, b, c, v, point, key, sizeof key);
    if (!s->skip(s->hook_arg, key))
      return 1;
  } while (tb_odometer(idx, t->nval, v->ntuning));
  return 0;
}

/* Whether any point of problem p is left to run, so that a problem whose
 * rows are all recorded is not even filled. */
static int tb_problem_wanted(const tb_sweep_t *s, const tb_run_state_t *st, const tb_problem_t *p)
{
  for (int b = 0; b < tb_backend_count(); b++)
    for (int c = 0; s->use[b] && c < st->configs[b].n; c++)
      for (const tb_variant_t *const *v = tb_backend_variants(b); *v; v++)
        if (tb_sweep_selects(s, *v, p->prec) && tb_backend_at(b)->runs(st->configs[b].cfg[c], *v) &&
            tb_variant_wanted(s, st, p, b, c, *v))
          return 1;
  return 0;
}

/* One tuning point of a variant: prepare, time, verify, record, release. */
static int tb_run_point(tb_stage_t *g, tb_ctx_t *ctx)
{
  const tb_variant_t *v = ctx->v;
  tb_result_t row;
  double *times = NULL;
  void *view[TB_MAX_ARRAYS] = {0};
  char cfg[160];
  tb_meter_t meter;
  double comm_ms = 0.0;
  int rc, ntimes = 0;

  memset(&row, 0, sizeof row);
  row.energy_j = row.avg_w = NAN;
  for (int k = 0; k < TB_MAX_COLUMNS; k++)
    ctx->extra[k] = NAN;
  for (int k = 0; k < TB_MAX_TUNING; k++)
    ctx->tuned[k] = NAN;
  ctx->state = NULL;
  tb_error_clear();
  if (v->prepare && (rc = v->prepare(ctx))) {
    if (rc == TB_EUNSUP) {
      g->st->refused++;
      tb_params_format(v->tuning, v->ntuning, ctx->tune, cfg, sizeof cfg);
      tb_note("%s skipped (%s): %s", v->name, cfg[0] ? cfg : "its only configuration",
              tb_error_detail());
      rc = TB_OK;
    }
    goto out;
  }
  row.xfer = g->xfer;
  if (!(times = malloc((size_t)g->s->repeat * sizeof *times)))
    rc = tb_fail(TB_ENOMEM, "out of memory");
  else if (!(rc = tb_time_runs(g, ctx, &times, &ntimes, &meter, &comm_ms)) &&
           !(rc = tb_backend_at(g->b)->download(ctx, view, &row.xfer)) &&
           !(rc = tb_row_describe(g, ctx, &row)) &&
           !(rc = tb_row_measure(g, ctx, view, times, ntimes, &row))) {
    tb_row_energy(&meter, ntimes, &row);
    tb_row_mpi(ctx, comm_ms, ntimes, &row);
    row.samples = times; /* the row's now */
    times = NULL;
  }
  if (!rc && g->s->dump && !g->st->dumped &&
      (row.check.verdict == TB_PASS || row.check.verdict == TB_SKIPPED))
    rc = tb_write_dump(g, &row, view);
  if (!rc && !(rc = tb_results_push(g->res, &row))) {
    tb_progress_show(g->pg, &g->res->r[g->res->n - 1]);
    if (g->s->row) {
      char key[768];
      tb_point_key(g->p, g->b, g->c, v, ctx->tune, key, sizeof key);
      rc = g->s->row(g->s->hook_arg, key, &g->res->r[g->res->n - 1]);
    }
  } else
    tb_result_free(&row);
out:
  if (v->release)
    v->release(ctx);
  free(times);
  return rc;
}

static const tb_tuning_t *tb_tuning_of(const tb_run_state_t *st, const tb_variant_t *v)
{
  for (int i = 0; i < st->ntuning; i++)
    if (st->tuning[i].v == v)
      return &st->tuning[i];
  return NULL;
}

/* Every tuning point of variant v. */
static int tb_run_variant(tb_stage_t *g, const tb_ctx_t *base, const tb_variant_t *v)
{
  const tb_tuning_t *t = tb_tuning_of(g->st, v);
  int idx[TB_MAX_TUNING] = {0}, rc = TB_OK;
  tb_param_value_t point[TB_MAX_TUNING];
  do {
    if (tb_stopping())
      return TB_EINTR;
    tb_ctx_t ctx = *base;
    for (int k = 0; k < v->ntuning; k++)
      point[k] = t->val[k][idx[k]];
    ctx.v = v;
    ctx.tune = point;
    char key[768];
    if (g->s->skip)
      tb_point_key(g->p, g->b, g->c, v, point, key, sizeof key);
    if (!g->s->skip || !g->s->skip(g->s->hook_arg, key))
      rc = tb_run_point(g, &ctx);
  } while (!rc && tb_odometer(idx, t->nval, v->ntuning));
  return rc;
}

/* Whether variant v runs in the stage's configuration for its problem,
 * with a point the caller has not recorded. */
static int tb_variant_runs(const tb_stage_t *g, const tb_variant_t *v)
{
  return tb_sweep_selects(g->s, v, g->p->prec) &&
         tb_backend_at(g->b)->runs(g->st->configs[g->b].cfg[g->c], v) &&
         tb_variant_wanted(g->s, g->st, g->p, g->b, g->c, v);
}

/* One configuration: enter it, take the ceilings its rows need before the
 * working copies exist (the memory check counts the larger of the two, not
 * both), attach, run every variant that runs in it, detach, leave. */
static int tb_run_config(tb_stage_t *g)
{
  const tb_backend_t *be = tb_backend_at(g->b);
  const tb_variant_t *const *vs = tb_backend_variants(g->b);
  void *cfg = g->st->configs[g->b].cfg[g->c];
  int any = 0, rc;
  for (const tb_variant_t *const *v = vs; *v && !any; v++)
    any = tb_variant_runs(g, *v);
  if (!any)
    return TB_OK;
  if ((rc = be->enter(cfg)))
    return rc;
  tb_ctx_t base;
  double value;
  int mem, comp;
  memset(&base, 0, sizeof base);
  base.p = g->p;
  base.cfg = cfg;
  g->xfer.h2d_pageable_ms = g->xfer.h2d_pinned_ms = NAN;
  g->xfer.d2h_pageable_ms = g->xfer.d2h_pinned_ms = NAN;
  tb_problem_ceilings(g->p, &mem, &comp);
  rc = tb_ceiling_get(g->st, g->b, g->c, mem, &value);
  if (!rc && comp >= 0)
    rc = tb_ceiling_get(g->st, g->b, g->c, comp, &value);
  if (!rc && !(rc = be->attach(&base, &g->xfer))) {
    for (const tb_variant_t *const *v = vs; *v && !rc; v++)
      if (tb_variant_runs(g, *v))
        rc = tb_run_variant(g, &base, *v);
    be->detach(&base);
  }
  be->leave(cfg);
  return rc;
}

/* One problem on every backend and configuration. */
static int tb_run_problem(const tb_sweep_t *s, tb_run_state_t *st, tb_problem_t *p,
                          tb_results_t *res, tb_progress_t *pg)
{
  int rc = TB_OK;
  for (int b = 0; b < tb_backend_count() && !rc; b++) {
    tb_stage_t g = {s, st, p, res, pg, b, 0, {0, 0, 0, 0}, 0};
    for (int i = 0; i < p->narrays; i++)
      g.has_inout |= p->array[i].role == TB_INOUT;
    for (g.c = 0; s->use[b] && g.c < st->configs[b].n && !rc; g.c++)
      rc = tb_run_config(&g);
  }
  return rc;
}

long tb_sweep_total(const tb_sweep_t *s, const tb_run_state_t *st)
{
  long total = 0, problems[TB_NPREC] = {0};
  for (int pi = 0; pi < s->nprec; pi++) {
    for (int si = 0; si < s->nsizes; si++)
      problems[pi] += !tb_sweep_size_repeated(s, st->topo, s->prec[pi], si);
    for (int k = 0; k < s->algo->nparams; k++)
      problems[pi] *= s->npv[k];
  }
  for (int i = 0; i < st->ntuning; i++) {
    const tb_tuning_t *t = &st->tuning[i];
    long points = 0;
    for (int c = 0; c < st->configs[t->b].n; c++)
      points += tb_backend_at(t->b)->runs(st->configs[t->b].cfg[c], t->v);
    for (int k = 0; k < t->v->ntuning; k++)
      points *= t->nval[k];
    for (int pi = 0; pi < s->nprec; pi++)
      total += tb_sweep_selects(s, t->v, s->prec[pi]) ? points * problems[pi] : 0;
  }
  return total;
}

int tb_sweep_run(const tb_sweep_t *s, tb_run_state_t *st, tb_results_t *res)
{
  tb_progress_t pg = {s->progress, 0, tb_sweep_total(s, st), tb_wtime()};
  int idx[TB_MAX_PARAMS];
  int rc = TB_OK;
  char what[256];

  for (int pi = 0; pi < s->nprec && !rc; pi++)
    for (int si = 0; si < s->nsizes && !rc; si++) {
      if (tb_sweep_size_repeated(s, st->topo, s->prec[pi], si)) {
        tb_note("%s %s: size %s%lld here is a size given before it: measured once",
                s->algo->name, tb_prec_name(s->prec[pi]),
                s->sizes[si] == TB_SIZE_AUTO ? "auto = " : "",
                (long long)tb_sweep_size(s, st->topo, s->prec[pi], si));
        continue;
      }
      memset(idx, 0, sizeof idx);
      do {
        tb_problem_t p;
        if (tb_stopping()) {
          rc = TB_EINTR;
          break;
        }
        rc = tb_problem_init(&p, s, st->topo, s->prec[pi], si, idx);
        if (!rc && !tb_problem_wanted(s, st, &p)) {
          tb_problem_destroy(&p);
          continue;
        }
        if (!rc)
          rc = tb_problem_fill(&p);
        if (rc) {
          tb_problem_text(&p, what, sizeof what);
          tb_fail(rc, "%s: %s", what, tb_error_detail());
        }
        if (!rc)
          rc = tb_run_problem(s, st, &p, res, &pg);
        tb_problem_destroy(&p);
      } while (!rc && tb_odometer(idx, s->npv, s->algo->nparams));
    }
  tb_progress_end(&pg);
  /* After a sweep that went through, the ranks agree once more (an
   * interrupt during the last point); an error is not agreed on: its rank
   * ends the job (tb_sweep_error), and must not wait in a collective here. */
  const int stop = rc ? rc == TB_EINTR || tb_stop : tb_stopping();
  if (!rc && !stop)
    rc = tb_ceilings_finish(st, res);
  if (stop) {
    st->interrupted = 1;
    rc = tb_fail(TB_EINTR, "interrupted; %d results were measured before the stop", res->n);
  }
  return rc;
}
