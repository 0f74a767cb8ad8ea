/* twinbench: the views of a run's results: the speedup summary and the
 * pivot table. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "grid.h"
#include "params.h"
#include "registry.h"
#include "report.h"
#include "status.h"

/* ---- Speedups ----------------------------------------------------------- */

/* The order of problems: precision, size, then the problem parameters
 * (tuning values and configurations are how it ran, not what it is); 0 for
 * rows of one problem. */
static int tb_problem_cmp(const tb_result_t *x, const tb_result_t *y)
{
  if (x->prec != y->prec)
    return x->prec < y->prec ? -1 : 1;
  if (x->n != y->n)
    return x->n < y->n ? -1 : 1;
  for (int k = 0; k < x->algo->nparams; k++) {
    const tb_param_value_t *a = &x->param[k], *b = &y->param[k];
    int c = x->algo->params[k].type == TB_PARAM_TEXT ? strcmp(a->s, b->s)
            : a->i != b->i                           ? (a->i < b->i ? -1 : 1)
                                                     : (a->r > b->r) - (a->r < b->r);
    if (c)
      return c;
  }
  return 0;
}

/* Row indices, sorted by problem and, within one, by row: qsort's comparator. */
static const tb_results_t *tb_sort_res;
static int tb_row_cmp(const void *x, const void *y)
{
  int i = *(const int *)x, j = *(const int *)y;
  int c = tb_problem_cmp(&tb_sort_res->r[i], &tb_sort_res->r[j]);
  return c ? c : (i > j) - (i < j);
}

static double tb_median_ms(const tb_result_t *r)
{
  return r->median_ms;
}

/* The speedups of one problem, whose rows are row[0..n) (in row order):
 * the best row of each backend by each time, in one pass; the reference is
 * the first backend (in registry order) with rows. */
static int tb_problem_speedups(const tb_results_t *res, const int *row, int n, tb__speedup_t *sp)
{
  const tb_result_t *best[TB_MAX_BACKENDS][3] = {{NULL}};
  double (*const time[3])(const tb_result_t *) = {tb_median_ms, tb_result_e2e_ms,
                                                  tb_result_e2e_pageable_ms};
  for (int i = 0; i < n; i++) {
    const tb_result_t *r = &res->r[row[i]];
    if (r->check.verdict == TB_FAIL)
      continue;
    for (int t = 0; t < 3; t++)
      if (!best[r->bi][t] || time[t](r) < time[t](best[r->bi][t]))
        best[r->bi][t] = r;
  }
  int ref = 0, ns = 0;
  while (ref < tb_backend_count() && !best[ref][0])
    ref++;
  for (int b = ref + 1; b < tb_backend_count(); b++) {
    if (!best[b][0])
      continue;
    const tb_result_t *r = best[ref][0];
    sp[ns++] = (tb__speedup_t){r,
                               best[b][0],
                               best[b][1],
                               best[b][2],
                               r->median_ms / best[b][0]->median_ms,
                               r->median_ms / tb_result_e2e_ms(best[b][1]),
                               r->median_ms / tb_result_e2e_pageable_ms(best[b][2]),
                               tb_result_bound_ms(r) / tb_result_bound_ms(best[b][0]),
                               r->energy_j / best[b][0]->energy_j};
  }
  return ns;
}

/* A speedup with the first row of its problem, to put them in row order. */
typedef struct tb_ordered {
  int first;
  tb__speedup_t sp;
} tb_ordered_t;

static int tb_first_cmp(const void *x, const void *y)
{
  const tb_ordered_t *a = x, *b = y;
  if (a->first != b->first)
    return (a->first > b->first) - (a->first < b->first);
  return (a->sp.other->bi > b->sp.other->bi) - (a->sp.other->bi < b->sp.other->bi);
}

int tb__speedups(const tb_results_t *res, tb__speedup_t **out)
{
  tb__speedup_t *sp = calloc((size_t)res->n * TB_MAX_BACKENDS + 1, sizeof *sp);
  tb_ordered_t *ord = malloc(((size_t)res->n * TB_MAX_BACKENDS + 1) * sizeof *ord);
  int *row = malloc(((size_t)res->n + 1) * sizeof *row);
  int ns = 0;
  *out = sp;
  if (!sp || !ord || !row) {
    free(ord);
    free(row);
    return 0;
  }
  /* Group the rows by problem in O(n log n), then each group in one pass. */
  for (int i = 0; i < res->n; i++)
    row[i] = i;
  tb_sort_res = res;
  qsort(row, (size_t)res->n, sizeof *row, tb_row_cmp);
  for (int i = 0, j; i < res->n; i = j) {
    for (j = i + 1; j < res->n && !tb_problem_cmp(&res->r[row[i]], &res->r[row[j]]);)
      j++;
    int k = tb_problem_speedups(res, row + i, j - i, sp);
    for (int g = 0; g < k; g++)
      ord[ns++] = (tb_ordered_t){row[i], sp[g]};
  }
  /* In the order the problems first ran. */
  qsort(ord, (size_t)ns, sizeof *ord, tb_first_cmp);
  for (int g = 0; g < ns; g++)
    sp[g] = ord[g].sp;
  free(ord);
  free(row);
  return ns;
}

/* Whether problem parameter p differs among the speedups' problems. */
static int tb_speedup_param_varies(const tb__speedup_t *sp, int ns, int p)
{
  const tb_algo_t *a = sp[0].ref->algo;
  for (int g = 1; g < ns; g++) {
    const tb_param_value_t *x = &sp[g].ref->param[p], *y = &sp[0].ref->param[p];
    if (a->params[p].type == TB_PARAM_TEXT ? strcmp(x->s, y->s) != 0 : x->i != y->i || x->r != y->r)
      return 1;
  }
  return 0;
}

/* The figures of a speedup: kernel, hardware, energy, pinned, pageable. */
enum { TB_FIG_KERNEL, TB_FIG_HARDWARE, TB_FIG_ENERGY, TB_FIG_PINNED, TB_FIG_PAGEABLE, TB_NFIG };

static double tb_speedup_figure(const tb__speedup_t *s, int fig)
{
  const double x[TB_NFIG] = {s->kernel, s->hardware, s->energy, s->pinned, s->pageable};
  return x[fig];
}

/* A best row's cell: the variant and its settings (key=value words). */
#define TB_CFG_CELL 160

/* The next word at *t: its start in *w and length in *l, *t moved past
 * it; 0 when no word is left. */
static int tb_word(const char **t, const char **w, size_t *l)
{
  *t += strspn(*t, " ");
  *w = *t;
  *l = strcspn(*t, " ");
  *t += *l;
  return *l > 0;
}

/* Whether the words of text include the wl characters at x. */
static int tb_has_word(const char *text, const char *x, size_t wl)
{
  const char *w;
  size_t l;
  while (tb_word(&text, &w, &l))
    if (l == wl && !strncmp(w, x, l))
      return 1;
  return 0;
}

/* The settings every one of the n cells has, appended to the heading text
 * (at *k, as "; every NAME: a=b c=d") and taken out of the cells, so that
 * the cells keep only what tells the rows apart (the quick start's table
 * was 133 columns wide with the GPU's block, stores and unroll on every
 * row). A cell's first word (its variant or backend) stays; a lone row
 * keeps its cells whole. */
static void tb_common_settings(char (*cell)[TB_CFG_CELL], int n, const char *name, char *text,
                               size_t len, size_t *k)
{
  char common[TB_CFG_CELL] = "";
  size_t nc = 0, l;
  const char *t, *w;
  if (n < 2) /* one row: its cells are the heading's whole story */
    return;
  for (t = cell[0]; tb_word(&t, &w, &l);) {
    int all = memchr(w, '=', l) != NULL;
    for (int g = 1; g < n && all; g++)
      all = tb_has_word(cell[g], w, l);
    if (all && nc + l + 2 < sizeof common)
      nc += (size_t)snprintf(common + nc, sizeof common - nc, "%s%.*s", nc ? " " : "", (int)l, w);
  }
  if (!nc)
    return;
  if (*k < len)
    *k += (size_t)snprintf(text + *k, len - *k, "; every %s: %s", name, common);
  for (int g = 0; g < n; g++) {
    char kept[TB_CFG_CELL];
    size_t m = 0;
    for (t = cell[g]; tb_word(&t, &w, &l);)
      if (!m || !tb_has_word(common, w, l))
        m += (size_t)snprintf(kept + m, sizeof kept - m, "%s%.*s", m ? " " : "", (int)l, w);
    memcpy(cell[g], kept, m + 1);
  }
}

/* The speedups' grid: the problem columns that vary, both bests with
 * their times, then the first nfig figures of figs[]. */
static void tb_speedup_grid(tb_grid_t *gr, const tb__speedup_t *sp, int ns, int prec_varies,
                            int size_varies, const int *pvary, int nvary,
                            char (*refc)[TB_CFG_CELL], char (*otherc)[TB_CFG_CELL],
                            const char *const *fig_names, const int *figs, int nfig)
{
  const tb_algo_t *a = sp[0].ref->algo;
  char cell[160];
  int c = 0;
  tb_grid_init(gr, prec_varies + size_varies + nvary + 4 + nfig);
  if (prec_varies)
    tb_grid_head(gr, c++, "precision", 1);
  if (size_varies)
    tb_grid_head(gr, c++, "size", 0);
  for (int j = 0; j < nvary; j++)
    tb_grid_head(gr, c++, a->params[pvary[j]].name, 1);
  snprintf(cell, sizeof cell, "%s best", sp[0].ref->backend->name);
  tb_grid_head(gr, c++, cell, 1);
  tb_grid_head(gr, c++, "ms", 0);
  tb_grid_head(gr, c++, "other best", 1);
  tb_grid_head(gr, c++, "ms", 0);
  for (int j = 0; j < nfig; j++)
    tb_grid_head(gr, c++, fig_names[figs[j]], 0);
  for (int g = 0; g < ns; g++) {
    const tb__speedup_t *s = &sp[g];
    int row = tb_grid_row(gr);
    c = 0;
    if (prec_varies)
      tb_grid_set(gr, row, c++, tb_prec_name(s->ref->prec));
    if (size_varies) {
      snprintf(cell, sizeof cell, "%lld", (long long)s->ref->n);
      tb_grid_set(gr, row, c++, cell);
    }
    for (int j = 0; j < nvary; j++)
      tb_grid_set(gr, row, c++, s->ref->param[pvary[j]].s);
    tb_grid_set(gr, row, c++, refc[g]);
    snprintf(cell, sizeof cell, "%.4g", s->ref->median_ms);
    tb_grid_set(gr, row, c++, cell);
    tb_grid_set(gr, row, c++, otherc[g]);
    snprintf(cell, sizeof cell, "%.4g", s->other->median_ms);
    tb_grid_set(gr, row, c++, cell);
    for (int j = 0; j < nfig; j++) {
      double x = tb_speedup_figure(s, figs[j]);
      snprintf(cell, sizeof cell, isfinite(x) ? "%.2fx" : "", x);
      tb_grid_set(gr, row, c++, cell);
    }
  }
}

void tb_report_speedups(FILE *f, const tb_results_t *res, int md)
{
  tb__speedup_t *sp = NULL;
  int ns = tb__speedups(res, &sp);
  char text[1024];
  if (ns <= 0) {
    free(sp);
    return;
  }
  /* The problem columns that vary among the speedups; the others once above. */
  const tb_algo_t *a = sp[0].ref->algo;
  int prec_varies = 0, size_varies = 0, pvary[TB_MAX_PARAMS] = {0}, nvary = 0;
  for (int g = 1; g < ns; g++) {
    prec_varies |= sp[g].ref->prec != sp[0].ref->prec;
    size_varies |= sp[g].ref->n != sp[0].ref->n;
  }
  size_t k = (size_t)snprintf(text, sizeof text,
                              "speedup: the best row of each backend (by median time) and the "
                              "first backend's time over the other's; 'kernel' leaves transfers "
                              "out, 'pinned' and 'pageable' add the other's host-device copies; "
                              "'hardware' is the kernel speedup the two rows' ceilings predict "
                              "(the ratio of their roofline times: bandwidth or FMA throughput "
                              "as each row is bound): a kernel speedup far from it is a twin's "
                              "doing, not the hardware's");
  if (!prec_varies)
    k += (size_t)snprintf(text + k, sizeof text - k, "; every problem: precision=%s",
                          tb_prec_name(sp[0].ref->prec));
  if (!size_varies && k < sizeof text)
    k += (size_t)snprintf(text + k, sizeof text - k, "%s size=%lld",
                          prec_varies ? "; every problem:" : "", (long long)sp[0].ref->n);
  for (int p = 0; p < a->nparams && k < sizeof text; p++) {
    if (tb_speedup_param_varies(sp, ns, p))
      pvary[nvary++] = p;
    else
      k += (size_t)snprintf(text + k, sizeof text - k, " %s=%s", a->params[p].name,
                            sp[0].ref->param[p].s);
  }
  /* The best rows' cells, without the settings that all of a column's share. */
  char(*refc)[TB_CFG_CELL] = malloc((size_t)ns * sizeof *refc);
  char(*otherc)[TB_CFG_CELL] = malloc((size_t)ns * sizeof *otherc);
  if (!refc || !otherc) {
    free(refc);
    free(otherc);
    free(sp);
    return;
  }
  for (int g = 0; g < ns; g++) {
    char rt[140];
    tb_result_config_text(sp[g].ref, refc[g], TB_CFG_CELL);
    tb_result_config_text(sp[g].other, rt, sizeof rt);
    snprintf(otherc[g], TB_CFG_CELL, "%s %s", sp[g].other->backend->name, rt);
  }
  char name[64];
  snprintf(name, sizeof name, "%s best", sp[0].ref->backend->name);
  tb_common_settings(refc, ns, name, text, sizeof text, &k);
  tb_common_settings(otherc, ns, "other best", text, sizeof text, &k);
  fputc('\n', f);
  tb_comment(f, md, text);

  /* The energy figure where some problem has one; the figures from the
   * right leave a too-wide text table. */
  static const char *const fig_names[TB_NFIG] = {"kernel", "hardware", "energy", "pinned",
                                                 "pageable"};
  int figs[TB_NFIG], nall = 0, energy = 0;
  for (int g = 0; g < ns; g++)
    energy |= isfinite(sp[g].energy);
  for (int j = 0; j < TB_NFIG; j++)
    if (j != TB_FIG_ENERGY || energy)
      figs[nall++] = j;
  if (energy)
    tb_comment(f, md, "energy: the first backend's joules per run over the other's, each from "
                      "its own counters (the heading's energy line says which); above 1 the "
                      "other spends less energy per result");
  tb_grid_t gr;
  int nfig = nall;
  for (;; nfig--) {
    tb_speedup_grid(&gr, sp, ns, prec_varies, size_varies, pvary, nvary, refc, otherc, fig_names,
                    figs, nfig);
    if (md || nfig == 1 || tb_grid_width(&gr) <= TB_TABLE_WIDTH)
      break;
    tb_grid_free(&gr);
  }
  if (nfig < nall) {
    k = (size_t)snprintf(text, sizeof text, "not shown to keep the width:");
    for (int j = nfig; j < nall; j++)
      k += (size_t)snprintf(text + k, sizeof text - k, "%s %s", j > nfig ? "," : "",
                            fig_names[figs[j]]);
    snprintf(text + k, sizeof text - k, " (CSV and JSON reports have them)");
    tb_comment(f, md, text);
  }
  tb_grid_print(f, &gr, md);
  tb_grid_free(&gr);
  free(refc);
  free(otherc);
  free(sp);
}

/* ---- Pivot view --------------------------------------------------------- */

typedef struct tb_pivot {
  int rows[8];
  int nrows;
  int col, cell;
  int lower_better;
} tb_pivot_t;

static int tb_pivot_column(const tb_colset_t *cs, const char *name, int *c)
{
  char shown[64];
  if ((*c = tb_colset_find(cs, name)) < 0)
    return tb_fail(TB_EINVAL, "--pivot: unknown column '%s' for %s",
                   tb_printable(name, shown, sizeof shown), cs->algo->name);
  return TB_OK;
}

static int tb_pivot_parse(const tb_colset_t *cs, const char *spec, tb_pivot_t *pv)
{
  char buf[256], shown[64], *parts[3] = {NULL, NULL, NULL};
  int np = 0, rc;
  if (strlen(spec) >= sizeof buf)
    return tb_fail(TB_EINVAL, "--pivot '%s' is too long", tb_printable(spec, shown, sizeof shown));
  strcpy(buf, spec);
  for (char *t = buf, *save = NULL; np < 3 && (t = strtok_r(np ? NULL : t, ":", &save)); np++)
    parts[np] = t;
  if (np < 2 || strchr(spec, ':') == spec)
    return tb_fail(TB_EINVAL, "--pivot takes ROWS:COL[:CELL], not '%s'",
                   tb_printable(spec, shown, sizeof shown));
  memset(pv, 0, sizeof *pv);
  for (char *t = parts[0], *save = NULL; (t = strtok_r(pv->nrows ? NULL : t, "+", &save));) {
    if (pv->nrows == 8)
      return tb_fail(TB_EINVAL, "--pivot: at most 8 row columns");
    if ((rc = tb_pivot_column(cs, t, &pv->rows[pv->nrows++])))
      return rc;
  }
  const char *cell = parts[2] ? parts[2] : "gbs";
  if ((rc = tb_pivot_column(cs, parts[1], &pv->col)) || (rc = tb_pivot_column(cs, cell, &pv->cell)))
    return rc;
  size_t len = strlen(cell);
  /* Times, errors and energies are better low. */
  pv->lower_better = !strcmp(cell, "error") || (len > 3 && !strcmp(cell + len - 3, "_ms")) ||
                     !strcmp(cell, "energy_j") || !strcmp(cell, "j_per_gb");
  return TB_OK;
}

int tb_pivot_check(const tb_colset_t *cs, const char *spec)
{
  tb_pivot_t pv;
  return tb_pivot_parse(cs, spec, &pv);
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

/* The pivot's data: the row and column labels and the best cell of each. */
typedef struct tb_pivot_grid {
  int nr, nc;
  char (*rkeys)[96], (*ckeys)[96];
  int *ri;
  double *cell;
} tb_pivot_grid_t;

/* The column label of a row: its value, or its backend's name when it has
 * none (threads of a GPU row). */
static void tb_pivot_ckey(const tb_colset_t *cs, const tb_pivot_t *pv, const tb_result_t *r,
                          char *key)
{
  char buf[64];
  tb_val_t v;
  tb_colset_value(cs, r, pv->col, &v);
  snprintf(key, 96, "%.95s", v.kind ? tb__plain(&v, buf, sizeof buf) : r->backend->name);
}

/* The labels: every row's key, the column labels with the numbers in order
 * and the backend labels after them. */
static void tb_pivot_labels(const tb_results_t *res, const tb_colset_t *cs, const tb_pivot_t *pv,
                            tb_pivot_grid_t *g)
{
  char buf[64], key[96];
  tb_val_t v;
  for (int i = 0; i < res->n; i++) {
    size_t k = 0;
    key[0] = '\0';
    for (int j = 0; j < pv->nrows && k < sizeof key; j++) {
      tb_colset_value(cs, &res->r[i], pv->rows[j], &v);
      k += (size_t)snprintf(key + k, sizeof key - k, "%s%s", j ? " " : "",
                            v.kind ? tb__plain(&v, buf, sizeof buf) : "-");
    }
    g->ri[i] = tb_key_index(g->rkeys, &g->nr, key);
    tb_pivot_ckey(cs, pv, &res->r[i], key);
    tb_key_index(g->ckeys, &g->nc, key);
  }
  int nnum = 0;
  for (int c = 0; c < g->nc; c++)
    if (tb_is_number(g->ckeys[c])) {
      char t[96];
      memcpy(t, g->ckeys[c], sizeof t);
      memmove(g->ckeys[nnum + 1], g->ckeys[nnum], (size_t)(c - nnum) * sizeof *g->ckeys);
      memcpy(g->ckeys[nnum++], t, sizeof t);
    }
  qsort(g->ckeys, (size_t)nnum, sizeof *g->ckeys, tb_key_cmp);
}

/* The best value of every cell, from the rows that did not fail. */
static void tb_pivot_cells(const tb_results_t *res, const tb_colset_t *cs, const tb_pivot_t *pv,
                           tb_pivot_grid_t *g)
{
  char key[96];
  tb_val_t v;
  for (int i = 0; i < g->nr * g->nc; i++)
    g->cell[i] = NAN;
  for (int i = 0; i < res->n; i++) {
    const tb_result_t *r = &res->r[i];
    if (r->check.verdict == TB_FAIL)
      continue;
    tb_pivot_ckey(cs, pv, r, key);
    int c = tb_key_index(g->ckeys, &g->nc, key);
    tb_colset_value(cs, r, pv->cell, &v);
    if (v.kind != 2)
      continue;
    double *x = &g->cell[g->ri[i] * g->nc + c];
    if (isnan(*x) || (pv->lower_better ? v.num < *x : v.num > *x))
      *x = v.num;
  }
}

static void tb_pivot_print(FILE *f, const tb_colset_t *cs, const tb_pivot_t *pv,
                           const tb_pivot_grid_t *g)
{
  char text[512], label[256];
  size_t l = 0;
  label[0] = '\0';
  for (int j = 0; j < pv->nrows && l < sizeof label; j++)
    l += (size_t)snprintf(label + l, sizeof label - l, "%s%s", j ? "+" : "",
                          cs->col[pv->rows[j]].name);
  size_t k = (size_t)snprintf(text, sizeof text, "%s by", cs->col[pv->cell].name);
  for (int j = 0; j < pv->nrows && k < sizeof text; j++)
    k += (size_t)snprintf(text + k, sizeof text - k, "%s%s", j ? " + " : " ",
                          cs->col[pv->rows[j]].name);
  if (k < sizeof text)
    snprintf(text + k, sizeof text - k,
             " (rows) and %s (columns): the %s of each cell; 'ratio' is the row's best over the "
             "first row's best (%s)",
             cs->col[pv->col].name, pv->lower_better ? "lowest" : "highest",
             pv->lower_better ? "first / row" : "row / first");
  fputc('\n', f);
  tb_comment(f, 0, text);
  tb_grid_t gr;
  char cell[64];
  tb_grid_init(&gr, g->nc + 4);
  tb_grid_head(&gr, 0, label, 1);
  for (int c = 0; c < g->nc; c++)
    tb_grid_head(&gr, c + 1, g->ckeys[c], 0);
  tb_grid_head(&gr, g->nc + 1, "best", 0);
  tb_grid_head(&gr, g->nc + 2, "at", 0);
  tb_grid_head(&gr, g->nc + 3, "ratio", 0);
  double first = NAN;
  for (int r = 0; r < g->nr; r++) {
    double best = NAN;
    int at = -1, row = tb_grid_row(&gr);
    tb_grid_set(&gr, row, 0, g->rkeys[r]);
    for (int c = 0; c < g->nc; c++) {
      double x = g->cell[r * g->nc + c];
      if (isnan(x))
        continue;
      snprintf(cell, sizeof cell, "%.4g", x);
      tb_grid_set(&gr, row, c + 1, cell);
      if (isnan(best) || (pv->lower_better ? x < best : x > best)) {
        best = x;
        at = c;
      }
    }
    if (r == 0)
      first = best;
    snprintf(cell, sizeof cell, "%.4g", best);
    tb_grid_set(&gr, row, g->nc + 1, cell);
    tb_grid_set(&gr, row, g->nc + 2, at >= 0 ? g->ckeys[at] : "-");
    snprintf(cell, sizeof cell, "%.2fx", pv->lower_better ? first / best : best / first);
    tb_grid_set(&gr, row, g->nc + 3, cell);
  }
  tb_grid_print(f, &gr, 0);
  tb_grid_free(&gr);
}

int tb_report_pivot(FILE *f, const tb_results_t *res, const tb_colset_t *cs, const char *spec)
{
  tb_pivot_t pv;
  tb_pivot_grid_t g;
  int rc = tb_pivot_parse(cs, spec, &pv);
  if (rc || res->n == 0)
    return rc;
  memset(&g, 0, sizeof g);
  g.rkeys = calloc((size_t)res->n, sizeof *g.rkeys);
  g.ckeys = calloc((size_t)res->n, sizeof *g.ckeys);
  g.ri = malloc((size_t)res->n * sizeof *g.ri);
  if (g.rkeys && g.ckeys && g.ri) {
    tb_pivot_labels(res, cs, &pv, &g);
    g.cell = malloc((size_t)g.nr * (size_t)g.nc * sizeof *g.cell);
  }
  if (g.cell) {
    tb_pivot_cells(res, cs, &pv, &g);
    tb_pivot_print(f, cs, &pv, &g);
  } else
    rc = tb_fail(TB_ENOMEM, "out of memory");
  free(g.rkeys);
  free(g.ckeys);
  free(g.cell);
  free(g.ri);
  return rc;
}
