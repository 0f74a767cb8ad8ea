/* twinbench: the views of a run's results: the CPU-vs-GPU speedup summary
 * and the pivot table. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "params.h"
#include "registry.h"
#include "report.h"
#include "status.h"

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

int tb__speedups(const tb_results_t *res, tb__speedup_t **out)
{
  tb__speedup_t *sp = calloc((size_t)res->n + 1, sizeof *sp);
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
    tb__speedup_t *s = &sp[g];
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
      tb__speedup_t *s = &sp[k++];
      *s = sp[g];
      s->kernel = s->cpu->median_ms / s->gpu->median_ms;
      s->pinned = s->cpu->median_ms / tb_result_e2e_ms(s->gpu_pinned);
      s->pageable = s->cpu->median_ms / tb_result_e2e_pageable_ms(s->gpu_pageable);
    }
  *out = sp;
  return k;
}

void tb__config_text(const tb_result_t *r, char *buf, size_t len)
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
  tb__speedup_t *sp = NULL;
  int ns = tb__speedups(res, &sp);
  char params[256], cpu[96], gpu[96];
  if (ns > 0) {
    fprintf(f, "\n# CPU-vs-GPU speedup: best GPU over best CPU (median times); 'kernel' leaves "
               "transfers out, '+pinned' and '+pageable' add the GPU's H2D and D2H copies\n");
    fprintf(f, "%-7s %12s %-18s %-28s %10s %-28s %10s %9s %9s %9s\n", "prec", "size", "params",
            "best CPU", "ms", "best GPU", "ms", "kernel", "+pinned", "+pageable");
  }
  for (int g = 0; g < ns; g++) {
    const tb__speedup_t *s = &sp[g];
    tb_params_format(s->cpu->algo, s->cpu->param, params, sizeof params);
    tb__config_text(s->cpu, cpu, sizeof cpu);
    tb__config_text(s->gpu, gpu, sizeof gpu);
    fprintf(f, "%-7s %12lld %-18s %-28s %10.4g %-28s %10.4g %8.2fx %8.2fx %8.2fx\n",
            tb_prec_name(s->cpu->prec), (long long)s->cpu->n, params, cpu, s->cpu->median_ms, gpu,
            s->gpu->median_ms, s->kernel, s->pinned, s->pageable);
  }
  free(sp);
}

/* ---- Pivot view --------------------------------------------------------- */

static int tb_col_index(const tb_algo_t *a, const char *name)
{
  for (int c = 0; c < tb__ncols(a); c++)
    if (!strcmp(tb__col_name(a, c, 0), name))
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
      tb__value(r, pv.rows[j], &v);
      k += (size_t)snprintf(key + k, sizeof key - (k < sizeof key ? k : sizeof key), "%s%s",
                            j ? " " : "", v.kind ? tb__plain(&v, buf, sizeof buf) : "-");
      if (k >= sizeof key)
        k = sizeof key - 1;
    }
    ri[i] = tb_key_index(rkeys, &nr, key);
    tb__value(r, pv.col, &v);
    snprintf(key, sizeof key, "%.95s", v.kind ? tb__plain(&v, buf, sizeof buf) : tb_backends[r->backend]->name);
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
    tb__value(r, pv.col, &v);
    snprintf(key, sizeof key, "%.95s", v.kind ? tb__plain(&v, buf, sizeof buf) : tb_backends[r->backend]->name);
    int c = tb_key_index(ckeys, &nc, key);
    tb__value(r, pv.cell, &v);
    if (v.kind != 2)
      continue;
    double *x = &cell[ri[i] * nc + c];
    if (isnan(*x) || (pv.lower_better ? v.num < *x : v.num > *x))
      *x = v.num;
  }
  int wr = 4;
  for (int r = 0; r < nr; r++)
    wr = (int)strlen(rkeys[r]) > wr ? (int)strlen(rkeys[r]) : wr;
  const char *cellname = tb__col_name(a, pv.cell, 0);
  fprintf(f, "\n# %s by", cellname);
  for (int j = 0; j < pv.nrows; j++)
    fprintf(f, "%s%s", j ? " + " : " ", tb__col_name(a, pv.rows[j], 0));
  fprintf(f, " (rows) and %s (columns): the %s of each cell; 'ratio' is the row's best over the "
             "first row's best (%s)\n",
          tb__col_name(a, pv.col, 0), pv.lower_better ? "lowest" : "highest",
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

