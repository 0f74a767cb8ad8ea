/* twinbench: result rows and reports in table, CSV and JSON form. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "params.h"
#include "registry.h"
#include "result.h"
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

/* One cell: empty, text, or a number with its formats for tables and CSV/JSON. */
typedef struct tb_val {
  int kind; /* 0 empty, 1 text, 2 number */
  double num;
  const char *table_fmt;
  double table_mul; /* the table shows num * table_mul */
  char text[1024];
} tb_val_t;

enum {
  C_ALGO, C_VARIANT, C_BACKEND, C_PREC, C_SIZE, C_THREADS, C_PLACEMENT, C_BLOCK, C_GRID,
  C_MEDIAN, C_MIN, C_MAX, C_XFER, C_E2E, C_GBS, C_GFLOPS, C_LIMIT, C_FRAC, C_VERIFIED,
  C_ERROR, C_H2D_PAGEABLE, C_D2H_PAGEABLE, C_H2D_PINNED, C_D2H_PINNED, C_E2E_PAGEABLE,
  C_BINDING, C_BINDING_OK, C_NCORE
};

static const struct {
  const char *name;
  const char *table_name; /* NULL: not shown in the table view */
} tb_core[C_NCORE] = {
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
  v->table_mul = 1.0;
}

static const char *tb_verdict_name(tb_verdict_t v)
{
  return v == TB_PASS ? "pass" : v == TB_FAIL ? "fail" : "skipped";
}

static void tb_core_value(const tb_result_t *r, int col, tb_val_t *v)
{
  int gpu = r->backend == TB_GPU;
  v->kind = 0;
  switch (col) {
  case C_ALGO: tb_val_text(v, "%s", r->algo->name); break;
  case C_VARIANT: tb_val_text(v, "%s", r->variant->name); break;
  case C_BACKEND: tb_val_text(v, "%s", tb_backends[r->backend]->name); break;
  case C_PREC: tb_val_text(v, "%s", tb_prec_name(r->prec)); break;
  case C_SIZE: tb_val_num(v, (double)r->n, "%.0f"); break;
  case C_THREADS:
    if (!gpu)
      tb_val_num(v, r->threads, "%.0f");
    break;
  case C_PLACEMENT:
    if (!gpu)
      tb_val_text(v, "%s", tb_placement_name(r->placement));
    break;
  case C_BLOCK:
    if (r->block)
      tb_val_num(v, r->block, "%.0f");
    break;
  case C_GRID:
    if (r->grid)
      tb_val_num(v, r->grid, "%.0f");
    break;
  case C_MEDIAN: tb_val_num(v, r->median_ms, "%.4g"); break;
  case C_MIN: tb_val_num(v, r->min_ms, "%.4g"); break;
  case C_MAX: tb_val_num(v, r->max_ms, "%.4g"); break;
  case C_XFER:
    if (gpu)
      tb_val_num(v, tb_result_xfer_ms(r), "%.4g");
    break;
  case C_E2E: tb_val_num(v, tb_result_e2e_ms(r), "%.4g"); break;
  case C_GBS: tb_val_num(v, tb_result_gbs(r), "%.1f"); break;
  case C_GFLOPS: tb_val_num(v, tb_result_gflops(r), "%.1f"); break;
  case C_LIMIT: tb_val_num(v, r->limit_gbs, "%.1f"); break;
  case C_FRAC:
    tb_val_num(v, tb_result_gbs(r) / r->limit_gbs, "%.1f");
    v->table_mul = 100.0; /* a percentage in the table, a fraction in CSV and JSON */
    break;
  case C_VERIFIED: tb_val_text(v, "%s", tb_verdict_name(r->check.verdict)); break;
  case C_ERROR: tb_val_num(v, r->check.error, "%.2g"); break;
  case C_H2D_PAGEABLE:
    if (gpu)
      tb_val_num(v, r->xfer.h2d_pageable_ms, "%.4g");
    break;
  case C_D2H_PAGEABLE:
    if (gpu)
      tb_val_num(v, r->xfer.d2h_pageable_ms, "%.4g");
    break;
  case C_H2D_PINNED:
    if (gpu)
      tb_val_num(v, r->xfer.h2d_pinned_ms, "%.4g");
    break;
  case C_D2H_PINNED:
    if (gpu)
      tb_val_num(v, r->xfer.d2h_pinned_ms, "%.4g");
    break;
  case C_E2E_PAGEABLE:
    if (gpu)
      tb_val_num(v, tb_result_e2e_pageable_ms(r), "%.4g");
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
      tb_val_text(v, "%s", r->binding_ok ? (r->oversubscribed ? "oversubscribed" : "yes") : "no");
    break;
  }
}

/* Columns after the core: the parameters, then the algorithm's own. */
static int tb_ncols(const tb_algo_t *a)
{
  return C_NCORE + a->nparams + a->ncolumns;
}

static const char *tb_col_name(const tb_algo_t *a, int col, int table)
{
  if (col < C_NCORE)
    return table ? tb_core[col].table_name : tb_core[col].name;
  col -= C_NCORE;
  if (col < a->nparams)
    return a->params[col].name;
  return a->columns[col - a->nparams].name;
}

static void tb_value(const tb_result_t *r, int col, tb_val_t *v)
{
  const tb_algo_t *a = r->algo;
  if (col < C_NCORE) {
    tb_core_value(r, col, v);
    return;
  }
  col -= C_NCORE;
  if (col < a->nparams) {
    const tb_param_value_t *pv = &r->param[col];
    if (a->params[col].type == TB_PARAM_CHOICE || a->params[col].type == TB_PARAM_TEXT)
      tb_val_text(v, "%s", pv->s);
    else
      tb_val_num(v, a->params[col].type == TB_PARAM_INT ? (double)pv->i : pv->r, "%.6g");
    return;
  }
  col -= a->nparams;
  tb_val_num(v, r->extra[col], a->columns[col].format);
}

/* The cell as CSV/JSON text: numbers with enough digits to round-trip timings. */
static const char *tb_plain(const tb_val_t *v, char *buf, size_t len)
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

static const char *tb_tabled(const tb_val_t *v, char *buf, size_t len)
{
  if (v->kind == 1)
    return v->text;
  if (v->kind == 0)
    return "-";
  snprintf(buf, len, v->table_fmt ? v->table_fmt : "%.6g", v->num * v->table_mul);
  return buf;
}

/* ---- Writers ----------------------------------------------------------- */

static void tb_write_csv(FILE *f, const tb_results_t *res, const tb_algo_t *a)
{
  char buf[64];
  tb_val_t v;
  int nc = tb_ncols(a);
  for (int c = 0; c < nc; c++)
    fprintf(f, "%s%s", c ? "," : "", tb_col_name(a, c, 0));
  fputc('\n', f);
  for (int i = 0; i < res->n; i++) {
    for (int c = 0; c < nc; c++) {
      tb_value(&res->r[i], c, &v);
      const char *s = tb_plain(&v, buf, sizeof buf);
      if (strpbrk(s, ",\"\n")) {
        fputs(c ? ",\"" : "\"", f);
        for (; *s; s++)
          fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
        fputc('"', f);
      } else
        fprintf(f, "%s%s", c ? "," : "", s);
    }
    fputc('\n', f);
  }
}

static void tb_write_table(FILE *f, const tb_results_t *res, const tb_algo_t *a)
{
  int nc = tb_ncols(a);
  int *w = calloc((size_t)nc, sizeof *w);
  char buf[64];
  tb_val_t v;
  if (!w)
    return;
  for (int c = 0; c < nc; c++) {
    const char *name = tb_col_name(a, c, 1);
    w[c] = name ? (int)strlen(name) : -1;
  }
  for (int i = 0; i < res->n; i++)
    for (int c = 0; c < nc; c++)
      if (w[c] >= 0) {
        tb_value(&res->r[i], c, &v);
        int l = (int)strlen(tb_tabled(&v, buf, sizeof buf));
        if (l > w[c])
          w[c] = l;
      }
  fprintf(f, "# %s: %s; bytes counted STREAM-style (no write-allocate); limit = %s (CPU) or %s (GPU), "
             "measured in this run\n",
          a->name, a->size_meaning, tb_backends[TB_CPU]->limit_names[a->limit],
          tb_backends[TB_GPU]->limit_names[a->limit]);
  for (int c = 0, first = 1; c < nc; c++)
    if (w[c] >= 0) {
      fprintf(f, first ? "%-*s" : "  %*s", w[c], tb_col_name(a, c, 1));
      first = 0;
    }
  fputc('\n', f);
  for (int i = 0; i < res->n; i++) {
    for (int c = 0, first = 1; c < nc; c++)
      if (w[c] >= 0) {
        tb_value(&res->r[i], c, &v);
        fprintf(f, first ? "%-*s" : "  %*s", w[c], tb_tabled(&v, buf, sizeof buf));
        first = 0;
      }
    if (res->r[i].check.verdict == TB_FAIL)
      fprintf(f, "  <- %s", res->r[i].check.note);
    fputc('\n', f);
  }
  free(w);
}

void tb_json_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", f);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static void tb_json_val(FILE *f, const tb_val_t *v)
{
  if (v->kind == 1)
    tb_json_string(f, v->text);
  else if (v->kind == 0 || !isfinite(v->num))
    fputs("null", f);
  else
    fprintf(f, "%.17g", v->num);
}

/* The best rows of each problem that ran on both backends. */
typedef struct tb_speedup {
  const tb_result_t *cpu, *gpu, *gpu_pinned, *gpu_pageable;
  double kernel, pinned, pageable; /* best CPU over best GPU: kernel, with transfers */
} tb_speedup_t;

static int tb_same_problem(const tb_result_t *x, const tb_result_t *y)
{
  if (x->prec != y->prec || x->n != y->n)
    return 0;
  for (int k = 0; k < x->algo->nparams; k++) {
    const tb_param_value_t *a = &x->param[k], *b = &y->param[k];
    if (x->algo->params[k].type == TB_PARAM_TEXT ? strcmp(a->s, b->s) != 0
                                                  : a->i != b->i || a->r != b->r)
      return 0;
  }
  return 1;
}

static int tb_speedups(const tb_results_t *res, tb_speedup_t **out)
{
  tb_speedup_t *sp = calloc((size_t)res->n + 1, sizeof *sp);
  int ns = 0;
  if (!sp)
    return 0;
  for (int i = 0; i < res->n; i++) {
    const tb_result_t *r = &res->r[i];
    if (r->check.verdict == TB_FAIL)
      continue;
    int g = 0;
    while (g < ns && !tb_same_problem(sp[g].cpu ? sp[g].cpu : sp[g].gpu, r))
      g++;
    if (g == ns)
      ns++;
    tb_speedup_t *s = &sp[g];
    if (r->backend == TB_CPU) {
      if (!s->cpu || r->median_ms < s->cpu->median_ms)
        s->cpu = r;
    } else {
      if (!s->gpu || r->median_ms < s->gpu->median_ms)
        s->gpu = r;
      if (!s->gpu_pinned || tb_result_e2e_ms(r) < tb_result_e2e_ms(s->gpu_pinned))
        s->gpu_pinned = r;
      if (!s->gpu_pageable || tb_result_e2e_pageable_ms(r) < tb_result_e2e_pageable_ms(s->gpu_pageable))
        s->gpu_pageable = r;
    }
  }
  int k = 0;
  for (int g = 0; g < ns; g++)
    if (sp[g].cpu && sp[g].gpu) {
      tb_speedup_t *s = &sp[k++];
      *s = sp[g];
      s->kernel = s->cpu->median_ms / s->gpu->median_ms;
      s->pinned = s->cpu->median_ms / tb_result_e2e_ms(s->gpu_pinned);
      s->pageable = s->cpu->median_ms / tb_result_e2e_pageable_ms(s->gpu_pageable);
    }
  *out = sp;
  return k;
}

static void tb_config_text(const tb_result_t *r, char *buf, size_t len)
{
  if (r->backend == TB_CPU)
    snprintf(buf, len, "%s t=%d %s", r->variant->name, r->threads, tb_placement_name(r->placement));
  else if (r->block)
    snprintf(buf, len, "%s b=%d g=%d", r->variant->name, r->block, r->grid);
  else
    snprintf(buf, len, "%s", r->variant->name);
}

void tb_report_speedups(FILE *f, const tb_results_t *res)
{
  tb_speedup_t *sp = NULL;
  int ns = tb_speedups(res, &sp);
  char params[256], cpu[96], gpu[96];
  if (ns > 0) {
    fprintf(f, "\n# CPU-vs-GPU speedup: best GPU over best CPU (median times); 'kernel' leaves "
               "transfers out, '+pinned' and '+pageable' add the GPU's H2D and D2H copies\n");
    fprintf(f, "%-7s %12s %-18s %-28s %10s %-28s %10s %9s %9s %9s\n", "prec", "size", "params",
            "best CPU", "ms", "best GPU", "ms", "kernel", "+pinned", "+pageable");
  }
  for (int g = 0; g < ns; g++) {
    const tb_speedup_t *s = &sp[g];
    tb_params_format(s->cpu->algo, s->cpu->param, params, sizeof params);
    tb_config_text(s->cpu, cpu, sizeof cpu);
    tb_config_text(s->gpu, gpu, sizeof gpu);
    fprintf(f, "%-7s %12lld %-18s %-28s %10.4g %-28s %10.4g %8.2fx %8.2fx %8.2fx\n",
            tb_prec_name(s->cpu->prec), (long long)s->cpu->n, params, cpu, s->cpu->median_ms, gpu,
            s->gpu->median_ms, s->kernel, s->pinned, s->pageable);
  }
  free(sp);
}

static void tb_write_json(FILE *f, const tb_results_t *res, const tb_report_t *rep)
{
  const tb_algo_t *a = rep->algo;
  tb_val_t v;
  fprintf(f, "{\n  \"twinbench\": \"%s\",\n  \"algo\": ", PACKAGE_VERSION);
  tb_json_string(f, a->name);
  fprintf(f, ",\n  \"size_meaning\": ");
  tb_json_string(f, a->size_meaning);
  fprintf(f, ",\n  \"error_meaning\": ");
  tb_json_string(f, a->error_meaning);
  fprintf(f, ",\n  \"bytes_counting\": \"STREAM-style: each array read or written once, no "
             "write-allocate\",\n  \"interrupted\": %s,\n  \"environment\": ",
          rep->interrupted ? "true" : "false");
  tb_env_json(f, rep);
  fprintf(f, ",\n  \"results\": [");
  for (int i = 0; i < res->n; i++) {
    const tb_result_t *r = &res->r[i];
    fprintf(f, "%s\n    {", i ? "," : "");
    for (int c = 0; c < C_NCORE; c++) {
      if (c == C_BINDING) {
        fprintf(f, "\"binding\": ");
        if (!r->nbind)
          fputs("null", f);
        else
          for (int t = 0; t < r->nbind; t++)
            fprintf(f, "%s%d", t ? ", " : "[", r->bind_pu[t]);
        fputs(r->nbind ? "], " : ", ", f);
        continue;
      }
      tb_core_value(r, c, &v);
      fprintf(f, "\"%s\": ", tb_core[c].name);
      tb_json_val(f, &v);
      fputs(", ", f);
    }
    fprintf(f, "\"note\": ");
    tb_json_string(f, r->check.note);
    fprintf(f, ", \"tolerance\": ");
    tb_val_num(&v, r->check.tolerance, NULL);
    tb_json_val(f, &v);
    fprintf(f, ", \"repeats\": %d, \"bytes\": %.17g, \"flops\": %.17g, \"params\": {", r->repeats,
            r->bytes, r->flops);
    for (int c = 0; c < a->nparams; c++) {
      fprintf(f, "%s\"%s\": ", c ? ", " : "", a->params[c].name);
      tb_value(r, C_NCORE + c, &v);
      tb_json_val(f, &v);
    }
    fprintf(f, "}, \"columns\": {");
    for (int c = 0; c < a->ncolumns; c++) {
      fprintf(f, "%s\"%s\": ", c ? ", " : "", a->columns[c].name);
      tb_value(r, C_NCORE + a->nparams + c, &v);
      tb_json_val(f, &v);
    }
    fputs("}}", f);
  }
  fprintf(f, "\n  ],\n  \"speedups\": [");
  tb_speedup_t *sp = NULL;
  int ns = tb_speedups(res, &sp);
  for (int g = 0; g < ns; g++) {
    const tb_speedup_t *s = &sp[g];
    char cpu[96], gpu[96];
    tb_config_text(s->cpu, cpu, sizeof cpu);
    tb_config_text(s->gpu, gpu, sizeof gpu);
    fprintf(f, "%s\n    {\"precision\": \"%s\", \"size\": %lld, \"params\": {", g ? "," : "",
            tb_prec_name(s->cpu->prec), (long long)s->cpu->n);
    for (int c = 0; c < a->nparams; c++) {
      fprintf(f, "%s\"%s\": ", c ? ", " : "", a->params[c].name);
      tb_value(s->cpu, C_NCORE + c, &v);
      tb_json_val(f, &v);
    }
    fprintf(f, "}, \"best_cpu\": ");
    tb_json_string(f, cpu);
    fprintf(f, ", \"cpu_ms\": %.6g, \"best_gpu\": ", s->cpu->median_ms);
    tb_json_string(f, gpu);
    fprintf(f, ", \"gpu_ms\": %.6g, \"kernel_speedup\": %.6g, \"pinned_speedup\": %.6g, "
               "\"pageable_speedup\": %.6g}",
            s->gpu->median_ms, s->kernel, s->pinned, s->pageable);
  }
  free(sp);
  fprintf(f, "%s]\n}\n", ns ? "\n  " : "");
}

/* ---- Pivot view --------------------------------------------------------- */

static int tb_col_index(const tb_algo_t *a, const char *name)
{
  for (int c = 0; c < tb_ncols(a); c++)
    if (!strcmp(tb_col_name(a, c, 0), name))
      return c;
  return -1;
}

typedef struct tb_pivot {
  int rows[8];
  int nrows;
  int col, cell;
  int lower_better;
} tb_pivot_t;

static int tb_pivot_parse(const tb_algo_t *a, const char *spec, tb_pivot_t *pv)
{
  char buf[256], *parts[3] = {NULL, NULL, NULL};
  int np = 0;
  if (strlen(spec) >= sizeof buf)
    return tb_fail(TB_EINVAL, "--pivot '%s' is too long", spec);
  strcpy(buf, spec);
  for (char *t = buf, *save = NULL; np < 3 && (t = strtok_r(np ? NULL : t, ":", &save)); np++)
    parts[np] = t;
  if (np < 2 || strchr(spec, ':') == spec)
    return tb_fail(TB_EINVAL, "--pivot takes ROWS:COL[:CELL], not '%s'", spec);
  memset(pv, 0, sizeof *pv);
  for (char *t = parts[0], *save = NULL; (t = strtok_r(pv->nrows ? NULL : t, "+", &save));) {
    if (pv->nrows == 8)
      return tb_fail(TB_EINVAL, "--pivot: at most 8 row columns");
    if ((pv->rows[pv->nrows++] = tb_col_index(a, t)) < 0)
      return tb_fail(TB_EINVAL, "--pivot: unknown column '%s' for %s", t, a->name);
  }
  if ((pv->col = tb_col_index(a, parts[1])) < 0)
    return tb_fail(TB_EINVAL, "--pivot: unknown column '%s' for %s", parts[1], a->name);
  const char *cell = parts[2] ? parts[2] : "gbs";
  if ((pv->cell = tb_col_index(a, cell)) < 0)
    return tb_fail(TB_EINVAL, "--pivot: unknown column '%s' for %s", cell, a->name);
  size_t len = strlen(cell);
  pv->lower_better = !strcmp(cell, "error") || (len > 3 && !strcmp(cell + len - 3, "_ms"));
  return TB_OK;
}

int tb_pivot_check(const tb_algo_t *a, const char *spec)
{
  tb_pivot_t pv;
  return tb_pivot_parse(a, spec, &pv);
}

static int tb_is_number(const char *s)
{
  char *end;
  if (!*s)
    return 0;
  strtod(s, &end);
  return *end == '\0';
}

/* Index of key in keys[0..*n), appending it when new. */
static int tb_key_index(char (*keys)[96], int *n, const char *key)
{
  for (int i = 0; i < *n; i++)
    if (!strcmp(keys[i], key))
      return i;
  snprintf(keys[*n], sizeof keys[0], "%s", key);
  return (*n)++;
}

static int tb_key_cmp(const void *x, const void *y)
{
  double a = strtod((const char *)x, NULL), b = strtod((const char *)y, NULL);
  return (a > b) - (a < b);
}

int tb_report_pivot(FILE *f, const tb_results_t *res, const tb_algo_t *a, const char *spec)
{
  tb_pivot_t pv;
  int rc = tb_pivot_parse(a, spec, &pv);
  if (rc || res->n == 0)
    return rc;
  int n = res->n, nr = 0, nc = 0;
  char (*rkeys)[96] = calloc((size_t)n, sizeof *rkeys);
  char (*ckeys)[96] = calloc((size_t)n, sizeof *ckeys);
  double *cell = NULL;
  int *ri = malloc((size_t)n * sizeof *ri);
  char buf[64], key[96];
  tb_val_t v;
  if (!rkeys || !ckeys || !ri) {
    rc = tb_fail(TB_ENOMEM, "out of memory");
    goto out;
  }
  /* The keys of every row; an empty column value (threads of a GPU row) is
   * labelled with the row's backend. */
  for (int i = 0; i < n; i++) {
    const tb_result_t *r = &res->r[i];
    size_t k = 0;
    key[0] = '\0';
    for (int j = 0; j < pv.nrows; j++) {
      tb_value(r, pv.rows[j], &v);
      k += (size_t)snprintf(key + k, sizeof key - (k < sizeof key ? k : sizeof key), "%s%s",
                            j ? " " : "", v.kind ? tb_plain(&v, buf, sizeof buf) : "-");
      if (k >= sizeof key)
        k = sizeof key - 1;
    }
    ri[i] = tb_key_index(rkeys, &nr, key);
    tb_value(r, pv.col, &v);
    snprintf(key, sizeof key, "%.95s", v.kind ? tb_plain(&v, buf, sizeof buf) : tb_backends[r->backend]->name);
    tb_key_index(ckeys, &nc, key);
  }
  /* Numeric column labels in order, backend labels after them. */
  int nnum = 0;
  for (int c = 0; c < nc; c++)
    if (tb_is_number(ckeys[c])) {
      char t[96];
      memcpy(t, ckeys[c], sizeof t);
      memmove(ckeys[nnum + 1], ckeys[nnum], (size_t)(c - nnum) * sizeof *ckeys);
      memcpy(ckeys[nnum++], t, sizeof t);
    }
  qsort(ckeys, (size_t)nnum, sizeof *ckeys, tb_key_cmp);
  if (!(cell = malloc((size_t)nr * (size_t)nc * sizeof *cell))) {
    rc = tb_fail(TB_ENOMEM, "out of memory");
    goto out;
  }
  for (int i = 0; i < nr * nc; i++)
    cell[i] = NAN;
  for (int i = 0; i < n; i++) {
    const tb_result_t *r = &res->r[i];
    if (r->check.verdict == TB_FAIL)
      continue;
    tb_value(r, pv.col, &v);
    snprintf(key, sizeof key, "%.95s", v.kind ? tb_plain(&v, buf, sizeof buf) : tb_backends[r->backend]->name);
    int c = tb_key_index(ckeys, &nc, key);
    tb_value(r, pv.cell, &v);
    if (v.kind != 2)
      continue;
    double *x = &cell[ri[i] * nc + c];
    if (isnan(*x) || (pv.lower_better ? v.num < *x : v.num > *x))
      *x = v.num;
  }
  int wr = 4;
  for (int r = 0; r < nr; r++)
    wr = (int)strlen(rkeys[r]) > wr ? (int)strlen(rkeys[r]) : wr;
  const char *cellname = tb_col_name(a, pv.cell, 0);
  fprintf(f, "\n# %s by", cellname);
  for (int j = 0; j < pv.nrows; j++)
    fprintf(f, "%s%s", j ? " + " : " ", tb_col_name(a, pv.rows[j], 0));
  fprintf(f, " (rows) and %s (columns): the %s of each cell; 'ratio' is the row's best over the "
             "first row's best (%s)\n",
          tb_col_name(a, pv.col, 0), pv.lower_better ? "lowest" : "highest",
          pv.lower_better ? "first / row" : "row / first");
  fprintf(f, "%-*s", wr, "");
  for (int c = 0; c < nc; c++)
    fprintf(f, " %10s", ckeys[c]);
  fprintf(f, " %10s %10s %8s\n", "best", "at", "ratio");
  double first = NAN;
  for (int r = 0; r < nr; r++) {
    double best = NAN;
    int at = -1;
    fprintf(f, "%-*s", wr, rkeys[r]);
    for (int c = 0; c < nc; c++) {
      double x = cell[r * nc + c];
      if (isnan(x))
        fprintf(f, " %10s", "-");
      else
        fprintf(f, " %10.4g", x);
      if (!isnan(x) && (isnan(best) || (pv.lower_better ? x < best : x > best))) {
        best = x;
        at = c;
      }
    }
    if (r == 0)
      first = best;
    double ratio = pv.lower_better ? first / best : best / first;
    fprintf(f, " %10.4g %10s %7.2fx\n", best, at >= 0 ? ckeys[at] : "-", ratio);
  }
out:
  free(rkeys);
  free(ckeys);
  free(cell);
  free(ri);
  return rc;
}

int tb_report_write(FILE *f, int format, const tb_results_t *res, const tb_report_t *rep)
{
  switch (format) {
  case TB_FMT_CSV: tb_write_csv(f, res, rep->algo); break;
  case TB_FMT_JSON: tb_write_json(f, res, rep); break;
  default:
    tb_write_table(f, res, rep->algo);
    tb_report_speedups(f, res);
    break;
  }
  if (fflush(f) || ferror(f))
    return tb_fail(TB_EIO, "writing the report failed: %s", strerror(errno));
  return TB_OK;
}

/* ---- Output files ------------------------------------------------------ */

int tb_outfile_open(tb_outfile_t *o, const char *path)
{
  memset(o, 0, sizeof *o);
  size_t len = strlen(path);
  o->path = strdup(path);
  o->tmp = malloc(len + 16);
  if (!o->path || !o->tmp) {
    tb_outfile_abort(o);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  snprintf(o->tmp, len + 16, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    tb_outfile_abort(o);
    return tb_fail(TB_EIO, "cannot write '%s': %s", path, strerror(e));
  }
  /* mkstemp creates the file private; give it the mode a plain fopen would. */
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  o->f = fdopen(fd, "w");
  if (!o->f) {
    close(fd);
    tb_outfile_abort(o);
    return tb_fail(TB_EIO, "cannot write '%s': %s", path, strerror(errno));
  }
  return TB_OK;
}

int tb_outfile_commit(tb_outfile_t *o)
{
  int bad = fflush(o->f) || ferror(o->f);
  int e = errno;
  if (fclose(o->f))
    bad = 1, e = errno;
  o->f = NULL;
  if (bad) {
    tb_fail(TB_EIO, "writing '%s' failed: %s", o->path, strerror(e));
    tb_outfile_abort(o);
    return TB_EIO;
  }
  if (rename(o->tmp, o->path)) {
    tb_fail(TB_EIO, "cannot rename the report to '%s': %s", o->path, strerror(errno));
    tb_outfile_abort(o);
    return TB_EIO;
  }
  free(o->tmp);
  free(o->path);
  o->tmp = o->path = NULL;
  return TB_OK;
}

void tb_outfile_abort(tb_outfile_t *o)
{
  if (o->f)
    fclose(o->f);
  if (o->tmp)
    unlink(o->tmp);
  free(o->tmp);
  free(o->path);
  memset(o, 0, sizeof *o);
}
