/* twinbench: result rows and their columns. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "registry.h"
#include "status.h"

/* ---- Rows -------------------------------------------------------------- */

int tb_results_push(tb_results_t *res, const tb_result_t *row)
{
  if (res->n == res->cap) {
    int cap = res->cap ? 2 * res->cap : 64;
    tb_result_t *r = realloc(res->r, (size_t)cap * sizeof *r);
    if (!r)
      return tb_fail(TB_ENOMEM, "out of memory for results");
    res->r = r;
    res->cap = cap;
  }
  res->r[res->n++] = *row;
  return TB_OK;
}

void tb_results_free(tb_results_t *res)
{
  for (int i = 0; i < res->n; i++)
    free(res->r[i].bind_pu);
  free(res->r);
  res->r = NULL;
  res->n = res->cap = 0;
}

double tb_result_gbs(const tb_result_t *r)
{
  return r->median_ms > 0 && r->bytes > 0 ? r->bytes / (r->median_ms * 1e6) : NAN;
}

double tb_result_gflops(const tb_result_t *r)
{
  return r->median_ms > 0 && r->flops > 0 ? r->flops / (r->median_ms * 1e6) : NAN;
}

double tb_result_xfer_ms(const tb_result_t *r)
{
  return r->xfer.h2d_pinned_ms + r->xfer.d2h_pinned_ms;
}

double tb_result_e2e_ms(const tb_result_t *r)
{
  return r->backend == TB_CPU ? r->median_ms : r->median_ms + tb_result_xfer_ms(r);
}

double tb_result_e2e_pageable_ms(const tb_result_t *r)
{
  return r->backend == TB_CPU ? r->median_ms
                              : r->median_ms + r->xfer.h2d_pageable_ms + r->xfer.d2h_pageable_ms;
}

int tb_format_parse(const char *s, int *format)
{
  static const char *const names[] = {"table", "csv", "json"};
  for (int i = 0; i < 3; i++)
    if (!strcmp(s, names[i])) {
      *format = i;
      return TB_OK;
    }
  return tb_fail(TB_EINVAL, "unknown format '%s' (known: table, csv, json)", s);
}

/* ---- Columns ----------------------------------------------------------- */


const struct tb__core_col tb__core[C_NCORE] = {
    {"algo", NULL},
    {"variant", "variant"},
    {"backend", "backend"},
    {"precision", "prec"},
    {"size", "size"},
    {"threads", "thr"},
    {"placement", "place"},
    {"block", "block"},
    {"grid", "grid"},
    {"median_ms", "median_ms"},
    {"min_ms", "min_ms"},
    {"max_ms", "max_ms"},
    {"xfer_ms", "xfer_ms"},
    {"e2e_ms", "e2e_ms"},
    {"gbs", "GB/s"},
    {"gflops", "GFLOP/s"},
    {"limit_gbs", "limit"},
    {"frac_limit", "%limit"},
    {"verified", "verified"},
    {"error", "error"},
    {"h2d_pageable_ms", NULL},
    {"d2h_pageable_ms", NULL},
    {"h2d_pinned_ms", NULL},
    {"d2h_pinned_ms", NULL},
    {"e2e_pageable_ms", NULL},
    {"binding", NULL},
    {"binding_ok", NULL},
};

void tb__val_text(tb_val_t *v, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->text, sizeof v->text, fmt, ap);
  va_end(ap);
  v->kind = 1;
}

void tb__val_num(tb_val_t *v, double x, const char *table_fmt)
{
  if (isnan(x)) {
    v->kind = 0;
    return;
  }
  v->kind = 2;
  v->num = x;
  v->table_fmt = table_fmt;
  v->table_mul = 1.0;
}

const char *tb__verdict_name(tb_verdict_t v)
{
  return v == TB_PASS ? "pass" : v == TB_FAIL ? "fail" : "skipped";
}

void tb__core_value(const tb_result_t *r, int col, tb_val_t *v)
{
  int gpu = r->backend == TB_GPU;
  v->kind = 0;
  switch (col) {
  case C_ALGO: tb__val_text(v, "%s", r->algo->name); break;
  case C_VARIANT: tb__val_text(v, "%s", r->variant->name); break;
  case C_BACKEND: tb__val_text(v, "%s", tb_backends[r->backend]->name); break;
  case C_PREC: tb__val_text(v, "%s", tb_prec_name(r->prec)); break;
  case C_SIZE: tb__val_num(v, (double)r->n, "%.0f"); break;
  case C_THREADS:
    if (!gpu)
      tb__val_num(v, r->threads, "%.0f");
    break;
  case C_PLACEMENT:
    if (!gpu)
      tb__val_text(v, "%s", tb_placement_name(r->placement));
    break;
  case C_BLOCK:
    if (r->block)
      tb__val_num(v, r->block, "%.0f");
    break;
  case C_GRID:
    if (r->grid)
      tb__val_num(v, r->grid, "%.0f");
    break;
  case C_MEDIAN: tb__val_num(v, r->median_ms, "%.4g"); break;
  case C_MIN: tb__val_num(v, r->min_ms, "%.4g"); break;
  case C_MAX: tb__val_num(v, r->max_ms, "%.4g"); break;
  case C_XFER:
    if (gpu)
      tb__val_num(v, tb_result_xfer_ms(r), "%.4g");
    break;
  case C_E2E: tb__val_num(v, tb_result_e2e_ms(r), "%.4g"); break;
  case C_GBS: tb__val_num(v, tb_result_gbs(r), "%.1f"); break;
  case C_GFLOPS: tb__val_num(v, tb_result_gflops(r), "%.1f"); break;
  case C_LIMIT: tb__val_num(v, r->limit_gbs, "%.1f"); break;
  case C_FRAC:
    tb__val_num(v, tb_result_gbs(r) / r->limit_gbs, "%.1f");
    v->table_mul = 100.0; /* a percentage in the table, a fraction in CSV and JSON */
    break;
  case C_VERIFIED: tb__val_text(v, "%s", tb__verdict_name(r->check.verdict)); break;
  case C_ERROR: tb__val_num(v, r->check.error, "%.2g"); break;
  case C_H2D_PAGEABLE:
    if (gpu)
      tb__val_num(v, r->xfer.h2d_pageable_ms, "%.4g");
    break;
  case C_D2H_PAGEABLE:
    if (gpu)
      tb__val_num(v, r->xfer.d2h_pageable_ms, "%.4g");
    break;
  case C_H2D_PINNED:
    if (gpu)
      tb__val_num(v, r->xfer.h2d_pinned_ms, "%.4g");
    break;
  case C_D2H_PINNED:
    if (gpu)
      tb__val_num(v, r->xfer.d2h_pinned_ms, "%.4g");
    break;
  case C_E2E_PAGEABLE:
    if (gpu)
      tb__val_num(v, tb_result_e2e_pageable_ms(r), "%.4g");
    break;
  case C_BINDING:
    if (r->nbind) {
      size_t k = 0;
      for (int i = 0; i < r->nbind && k + 12 < sizeof v->text; i++)
        k += (size_t)snprintf(v->text + k, sizeof v->text - k, i ? " %d" : "%d", r->bind_pu[i]);
      v->kind = 1;
    }
    break;
  case C_BINDING_OK:
    if (r->binding_ok >= 0)
      tb__val_text(v, "%s", r->binding_ok ? (r->oversubscribed ? "oversubscribed" : "yes") : "no");
    break;
  }
}

/* Columns after the core: the parameters, then the algorithm's own. */
int tb__ncols(const tb_algo_t *a)
{
  return C_NCORE + a->nparams + a->ncolumns;
}

const char *tb__col_name(const tb_algo_t *a, int col, int table)
{
  if (col < C_NCORE)
    return table ? tb__core[col].table_name : tb__core[col].name;
  col -= C_NCORE;
  if (col < a->nparams)
    return a->params[col].name;
  return a->columns[col - a->nparams].name;
}

void tb__value(const tb_result_t *r, int col, tb_val_t *v)
{
  const tb_algo_t *a = r->algo;
  if (col < C_NCORE) {
    tb__core_value(r, col, v);
    return;
  }
  col -= C_NCORE;
  if (col < a->nparams) {
    const tb_param_value_t *pv = &r->param[col];
    if (a->params[col].type == TB_PARAM_CHOICE || a->params[col].type == TB_PARAM_TEXT)
      tb__val_text(v, "%s", pv->s);
    else
      tb__val_num(v, a->params[col].type == TB_PARAM_INT ? (double)pv->i : pv->r, "%.6g");
    return;
  }
  col -= a->nparams;
  tb__val_num(v, r->extra[col], a->columns[col].format);
}

/* The cell as CSV/JSON text: numbers with enough digits to round-trip timings. */
const char *tb__plain(const tb_val_t *v, char *buf, size_t len)
{
  if (v->kind == 1)
    return v->text;
  if (v->kind == 0)
    return "";
  if (v->num == floor(v->num) && fabs(v->num) < 1e15)
    snprintf(buf, len, "%.0f", v->num);
  else
    snprintf(buf, len, "%.10g", v->num);
  return buf;
}

const char *tb__tabled(const tb_val_t *v, char *buf, size_t len)
{
  if (v->kind == 1)
    return v->text;
  if (v->kind == 0)
    return "-";
  snprintf(buf, len, v->table_fmt ? v->table_fmt : "%.6g", v->num * v->table_mul);
  return buf;
}
