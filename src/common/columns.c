/* twinbench: the columns of a run's rows. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "status.h"

/* The core columns: their names, how the table shows them, and the table's
 * format of their numbers. */
static const struct {
  const char *name;
  tb_show_t show;
  int drop;
  const char *format;
} tb_core[C_NCORE] = {
    {"algo", TB_SHOW_KEY, 0, NULL},
    {"variant", TB_SHOW_ALWAYS, 0, NULL},
    {"backend", TB_SHOW_KEY, 0, NULL},
    {"precision", TB_SHOW_KEY, 0, NULL},
    {"size", TB_SHOW_KEY, 0, "%.0f"},
    {"median_ms", TB_SHOW_ALWAYS, 0, "%.4g"},
    {"min_ms", TB_SHOW_FIGURE, 90, "%.4g"},
    {"max_ms", TB_SHOW_FIGURE, 100, "%.4g"},
    {"mean_ms", TB_SHOW_HIDDEN, 0, "%.4g"},
    {"stddev_ms", TB_SHOW_HIDDEN, 0, "%.3g"},
    {"cv", TB_SHOW_FIGURE, 80, "%.3f"},
    {"xfer_ms", TB_SHOW_FIGURE, 20, "%.4g"},
    {"e2e_ms", TB_SHOW_FIGURE, 30, "%.4g"},
    {"gbs", TB_SHOW_ALWAYS, 0, "%.1f"},
    {"gflops", TB_SHOW_ALWAYS, 0, "%.1f"},
    {"ceiling_gbs", TB_SHOW_FIGURE, 40, "%.1f"},
    {"ceiling_gflops", TB_SHOW_HIDDEN, 0, "%.1f"},
    {"intensity", TB_SHOW_HIDDEN, 0, "%.3g"},
    {"bound", TB_SHOW_KEY, 0, NULL},
    {"roofline", TB_SHOW_ALWAYS, 0, "%.3f"},
    {"verified", TB_SHOW_ALWAYS, 0, NULL},
    {"error", TB_SHOW_FIGURE, 10, "%.2g"},
    {"tolerance", TB_SHOW_HIDDEN, 0, "%.2g"},
    {"repeats", TB_SHOW_HIDDEN, 0, "%.0f"},
    {"bytes", TB_SHOW_HIDDEN, 0, "%.4g"},
    {"bytes_read", TB_SHOW_HIDDEN, 0, "%.4g"},
    {"bytes_written", TB_SHOW_HIDDEN, 0, "%.4g"},
    {"flops", TB_SHOW_HIDDEN, 0, "%.4g"},
    {"mix", TB_SHOW_HIDDEN, 0, NULL},
    {"flags", TB_SHOW_HIDDEN, 0, NULL},
    {"h2d_pageable_ms", TB_SHOW_HIDDEN, 0, "%.4g"},
    {"d2h_pageable_ms", TB_SHOW_HIDDEN, 0, "%.4g"},
    {"h2d_pinned_ms", TB_SHOW_HIDDEN, 0, "%.4g"},
    {"d2h_pinned_ms", TB_SHOW_HIDDEN, 0, "%.4g"},
    {"e2e_pageable_ms", TB_SHOW_HIDDEN, 0, "%.4g"},
    {"energy_j", TB_SHOW_FIGURE, 25, "%.4g"},
    {"avg_w", TB_SHOW_FIGURE, 45, "%.4g"},
    {"j_per_gb", TB_SHOW_FIGURE, 60, "%.3g"},
    {"ranks", TB_SHOW_KEY, 0, "%.0f"},
    {"nodes", TB_SHOW_KEY, 0, "%.0f"},
    {"comm_ms", TB_SHOW_FIGURE, 35, "%.4g"},
    {"note", TB_SHOW_HIDDEN, 0, NULL},
};

/* An algorithm's own columns leave a too-wide table after min_ms and
 * max_ms, the last of them first. */
#define TB_DROP_EXTRA 50

static void tb_col_add(tb_colset_t *cs, tb_col_kind_t kind, int index, const char *name,
                       tb_show_t show, int drop, const char *format, unsigned flags)
{
  if (cs->n < TB_MAX_COLS)
    cs->col[cs->n++] = (tb_col_t){kind, index, name, show, drop, format, flags};
}

static void tb_core_add(tb_colset_t *cs, int c)
{
  const int text = c == C_NOTE || c == C_FLAGS || c == C_MIX || c == C_BOUND;
  tb_col_add(cs, TB_CK_CORE, c, tb_core[c].name, tb_core[c].show, tb_core[c].drop,
             tb_core[c].format, text ? TB_COL_TEXT : 0);
}

static void tb_pending_add(tb_colset_t *cs, tb_col_kind_t kind, const char *name,
                           const char *format, unsigned flags)
{
  for (int i = 0; i < cs->npending; i++)
    if (!strcmp(cs->pending[i].name, name))
      return;
  if (cs->npending < TB_MAX_COLS)
    cs->pending[cs->npending++] = (tb_col_t){kind, 0, name, TB_SHOW_KEY, 0, format, flags};
}

void tb_colset_begin(tb_colset_t *cs, const tb_algo_t *algo)
{
  memset(cs, 0, sizeof *cs);
  cs->algo = algo;
}

void tb_colset_add_backend(tb_colset_t *cs, const tb_backend_t *be)
{
  for (int k = 0; k < be->ncolumns; k++)
    tb_pending_add(cs, TB_CK_CONFIG, be->columns[k].name, be->columns[k].format,
                   be->columns[k].flags);
}

void tb_colset_add_variant(tb_colset_t *cs, const tb_variant_t *v)
{
  for (int k = 0; k < v->ntuning; k++) {
    const tb_param_def_t *d = &v->tuning[k];
    int number = d->type == TB_PARAM_INT || d->type == TB_PARAM_REAL;
    tb_pending_add(cs, TB_CK_TUNE, d->name, number ? "%.6g" : NULL, number ? 0 : TB_COL_TEXT);
  }
}

/* How the table shows a backend's or an algorithm's column: a list is too
 * long for it, anything else is what its kind is by default. */
static tb_show_t tb_col_show(unsigned flags, tb_show_t kind)
{
  return flags & TB_COL_LIST ? TB_SHOW_HIDDEN : kind;
}

/* The pending columns of kind `kind` whose wide flag is `wide`. */
static void tb_colset_take(tb_colset_t *cs, tb_col_kind_t kind, int wide)
{
  for (int i = 0; i < cs->npending; i++) {
    const tb_col_t *c = &cs->pending[i];
    if (c->kind == kind && !!(c->flags & TB_COL_WIDE) == wide)
      tb_col_add(cs, kind, 0, c->name, tb_col_show(c->flags, TB_SHOW_KEY), 0, c->format,
                 c->flags);
  }
}

/* The _per_j twin of each of the algorithm's _per_s rate columns: items
 * per joule beside items per second. */
static void tb_colset_per_j(tb_colset_t *cs)
{
  const tb_algo_t *a = cs->algo;
  const size_t ls = strlen(TB_RATE_SUFFIX);
  for (int k = 0; k < a->ncolumns && k < TB_MAX_COLUMNS; k++) {
    const char *name = a->columns[k].name;
    size_t len = strlen(name);
    if (len <= ls || len - ls + sizeof TB_ENERGY_RATE_SUFFIX > sizeof cs->per_j_name[k] ||
        strcmp(name + len - ls, TB_RATE_SUFFIX))
      continue;
    snprintf(cs->per_j_name[k], sizeof cs->per_j_name[k], "%.*s%s", (int)(len - ls), name,
             TB_ENERGY_RATE_SUFFIX);
    tb_col_add(cs, TB_CK_PER_J, k, cs->per_j_name[k], TB_SHOW_FIGURE, TB_DROP_EXTRA + 1 + k,
               "%.4g", 0);
  }
}

void tb_colset_end(tb_colset_t *cs)
{
  const tb_algo_t *a = cs->algo;
  for (int c = 0; c < C_NHEAD; c++)
    tb_core_add(cs, c);
  tb_colset_take(cs, TB_CK_CONFIG, 0);
  tb_colset_take(cs, TB_CK_TUNE, 0);
  for (int c = C_NHEAD; c < C_NOTE; c++)
    if ((cs->energy || c < C_ENERGY || c > C_J_PER_GB) && (cs->mpi || c < C_RANKS))
      tb_core_add(cs, c);
  tb_colset_take(cs, TB_CK_CONFIG, 1);
  for (int k = 0; k < a->nparams; k++) {
    int number = a->params[k].type == TB_PARAM_INT || a->params[k].type == TB_PARAM_REAL;
    tb_col_add(cs, TB_CK_PARAM, k, a->params[k].name, TB_SHOW_KEY, 0, "%.6g",
               number ? 0 : TB_COL_TEXT);
  }
  for (int k = 0; k < a->ncolumns; k++)
    tb_col_add(cs, TB_CK_EXTRA, k, a->columns[k].name,
               tb_col_show(a->columns[k].flags, TB_SHOW_FIGURE), TB_DROP_EXTRA + k,
               a->columns[k].format, a->columns[k].flags);
  if (cs->energy)
    tb_colset_per_j(cs);
  tb_core_add(cs, C_NOTE);
  cs->npending = 0;
}

int tb_colset_find(const tb_colset_t *cs, const char *name)
{
  for (int c = 0; c < cs->n; c++)
    if (!strcmp(cs->col[c].name, name))
      return c;
  return -1;
}

static void tb_val_text(tb_val_t *v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void tb_val_text(tb_val_t *v, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->text, sizeof v->text, fmt, ap);
  va_end(ap);
  v->kind = 1;
}

static void tb_val_num(tb_val_t *v, double x, const char *table_fmt)
{
  if (isnan(x)) {
    v->kind = 0;
    return;
  }
  v->kind = 2;
  v->num = x;
  v->table_fmt = table_fmt;
}

static const char *tb_verdict_name(tb_verdict_t v)
{
  switch (v) {
  case TB_PASS: return "pass";
  case TB_FAIL: return "fail";
  case TB_UNVERIFIABLE: return "unverifiable";
  default: return "skipped";
  }
}

static void tb_core_value(const tb_result_t *r, int col, const char *fmt, tb_val_t *v)
{
  const int offload = (r->backend->flags & TB_BACKEND_OFFLOAD) != 0;
  /* Bandwidth means nothing for compute-bound work. */
  const int moves = !(r->algo->flags & TB_ALGO_COMPUTE);
  switch (col) {
  case C_ALGO: tb_val_text(v, "%s", r->algo->name); break;
  case C_VARIANT: tb_val_text(v, "%s", r->variant->name); break;
  case C_BACKEND: tb_val_text(v, "%s", r->backend->name); break;
  case C_PREC: tb_val_text(v, "%s", tb_prec_name(r->prec)); break;
  case C_SIZE: tb_val_num(v, (double)r->n, fmt); break;
  case C_MEDIAN: tb_val_num(v, r->median_ms, fmt); break;
  case C_MIN: tb_val_num(v, r->min_ms, fmt); break;
  case C_MAX: tb_val_num(v, r->max_ms, fmt); break;
  case C_XFER: tb_val_num(v, offload ? tb_result_xfer_ms(r) : NAN, fmt); break;
  case C_E2E: tb_val_num(v, tb_result_e2e_ms(r), fmt); break;
  case C_MEAN: tb_val_num(v, r->mean_ms, fmt); break;
  case C_STDDEV: tb_val_num(v, r->repeats > 1 ? r->stddev_ms : NAN, fmt); break;
  case C_CV: tb_val_num(v, tb_result_cv(r), fmt); break;
  case C_GBS: tb_val_num(v, moves ? tb_result_gbs(r) : NAN, fmt); break;
  case C_GFLOPS: tb_val_num(v, tb_result_gflops(r), fmt); break;
  case C_CEIL_GBS: tb_val_num(v, r->ceiling_gbs > 0 ? r->ceiling_gbs : NAN, fmt); break;
  case C_CEIL_GFLOPS: tb_val_num(v, r->ceiling_gflops > 0 ? r->ceiling_gflops : NAN, fmt); break;
  case C_INTENSITY: tb_val_num(v, tb_result_intensity(r), fmt); break;
  case C_BOUND:
    if (!isnan(tb_result_roofline(r)))
      tb_val_text(v, "%s", tb_result_compute_bound(r) ? "compute" : "memory");
    break;
  case C_ROOFLINE: tb_val_num(v, tb_result_roofline(r), fmt); break;
  case C_VERIFIED: tb_val_text(v, "%s", tb_verdict_name(r->check.verdict)); break;
  case C_ERROR: tb_val_num(v, r->check.error, fmt); break;
  case C_TOLERANCE: tb_val_num(v, r->check.tolerance, fmt); break;
  case C_REPEATS: tb_val_num(v, r->repeats, fmt); break;
  case C_BYTES: tb_val_num(v, tb_result_bytes(r), fmt); break;
  case C_BYTES_READ: tb_val_num(v, r->cost.read, fmt); break;
  case C_BYTES_WRITTEN: tb_val_num(v, r->cost.written, fmt); break;
  case C_FLOPS: tb_val_num(v, r->cost.flops, fmt); break;
  case C_MIX: tb_val_text(v, "%s", tb_ceiling_mix_name(r->mem_ceiling)); break;
  case C_FLAGS:
    tb_result_flag_words(r, v->text, sizeof v->text);
    v->kind = v->text[0] ? 1 : 0;
    break;
  case C_NOTE:
    tb_result_note(r, v->text, sizeof v->text);
    v->kind = v->text[0] ? 1 : 0;
    break;
  case C_H2D_PAGEABLE: tb_val_num(v, offload ? r->xfer.h2d_pageable_ms : NAN, "%.4g"); break;
  case C_D2H_PAGEABLE: tb_val_num(v, offload ? r->xfer.d2h_pageable_ms : NAN, "%.4g"); break;
  case C_H2D_PINNED: tb_val_num(v, offload ? r->xfer.h2d_pinned_ms : NAN, "%.4g"); break;
  case C_D2H_PINNED: tb_val_num(v, offload ? r->xfer.d2h_pinned_ms : NAN, "%.4g"); break;
  case C_E2E_PAGEABLE: tb_val_num(v, offload ? tb_result_e2e_pageable_ms(r) : NAN, "%.4g"); break;
  case C_ENERGY: tb_val_num(v, r->energy_j, fmt); break;
  case C_AVG_W: tb_val_num(v, r->avg_w, fmt); break;
  case C_RANKS: tb_val_num(v, r->ranks, fmt); break;
  case C_NODES: tb_val_num(v, r->nodes, fmt); break;
  case C_COMM_MS: tb_val_num(v, r->comm_ms, fmt); break;
  case C_J_PER_GB: tb_val_num(v, moves ? tb_result_j_per_gb(r) : NAN, fmt); break;
  }
}

static void tb_cell_value(const tb_cell_t *cell, const char *fmt, tb_val_t *v)
{
  if (!cell)
    return;
  if (cell->text)
    tb_val_text(v, "%s", cell->text);
  else
    tb_val_num(v, cell->num, fmt);
}

void tb_colset_value(const tb_colset_t *cs, const tb_result_t *r, int c, tb_val_t *v)
{
  const tb_col_t *col = &cs->col[c];
  const tb_algo_t *a = r->algo;
  v->kind = 0;
  switch (col->kind) {
  case TB_CK_CORE: tb_core_value(r, col->index, col->format, v); break;
  case TB_CK_CONFIG:
  case TB_CK_TUNE: tb_cell_value(tb_result_cell(r, col->name), col->format, v); break;
  case TB_CK_PARAM: {
    const tb_param_value_t *pv = &r->param[col->index];
    if (col->flags & TB_COL_TEXT)
      tb_val_text(v, "%s", pv->s);
    else
      tb_val_num(v, a->params[col->index].type == TB_PARAM_INT ? (double)pv->i : pv->r,
                 col->format);
    break;
  }
  case TB_CK_EXTRA: tb_val_num(v, r->extra[col->index], col->format); break;
  case TB_CK_PER_J:
    /* Items per joule: the rate column's items per second times the
     * seconds of a run, over the joules of a run. */
    tb_val_num(v, r->extra[col->index] * (r->median_ms * 1e-3) / r->energy_j, col->format);
    break;
  }
}

const char *tb__plain(const tb_val_t *v, char *buf, size_t len)
{
  if (v->kind == 1)
    return v->text;
  if (v->kind == 0)
    return "";
  if (v->num == floor(v->num) && fabs(v->num) < 1e15)
    snprintf(buf, len, "%.0f", v->num);
  else /* the fewest digits that read back as the same double */
    for (int digits = 15; digits <= 17; digits++) {
      snprintf(buf, len, "%.*g", digits, v->num);
      if (strtod(buf, NULL) == v->num)
        break;
    }
  return buf;
}

const char *tb__tabled(const tb_val_t *v, char *buf, size_t len)
{
  if (v->kind == 1)
    return v->text;
  if (v->kind == 0)
    return "-";
  snprintf(buf, len, v->table_fmt ? v->table_fmt : "%.6g", v->num);
  return buf;
}
