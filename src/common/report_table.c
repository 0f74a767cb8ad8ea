/* twinbench: the table a person reads, as text or Markdown: a heading that
 * says what the numbers are, the columns that are the same on every row
 * once above the table, then a column for each thing that varies and each
 * figure, kept to TB_TABLE_WIDTH characters unless asked for more. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "grid.h"
#include "registry.h"
#include "report.h"
#include "status.h"

/* What the rows hold in each column. */
typedef struct tb_colstat {
  unsigned char filled;  /* some row has a value */
  unsigned char varies;  /* two rows differ */
  unsigned char echo;    /* equal to median_ms on every row (e2e_ms without transfers) */
  unsigned char text;    /* some row has text: aligned left */
  unsigned char gaps;    /* some row has no value */
  unsigned char chosen;  /* a column of the table */
  unsigned char dropped; /* left out to keep the width */
} tb_colstat_t;

/* The cell as the table shows it; text with blanks is quoted so that the
 * table's columns stay one word wide. */
static const char *tb_table_cell(const tb_val_t *v, char *buf, size_t len)
{
  const char *s = v->kind == 0 ? "" : tb__tabled(v, buf, len);
  if (v->kind == 1 && strpbrk(s, " \t")) {
    snprintf(buf, len, "'%s'", s);
    return buf;
  }
  return s;
}

static void tb_colstats(const tb_results_t *res, const tb_colset_t *cs, tb_colstat_t *st)
{
  char a[64], b[64];
  tb_val_t v, w, m;
  int median = tb_colset_find(cs, "median_ms");
  for (int c = 0; c < cs->n; c++) {
    st[c] = (tb_colstat_t){0, 0, 1, 0, 0, 0, 0};
    int first = -1; /* the first row with a value */
    for (int i = 0; i < res->n; i++) {
      tb_colset_value(cs, &res->r[i], c, &v);
      st[c].text |= v.kind == 1;
      st[c].gaps |= v.kind == 0;
      /* Rows without a value (a GPU row's threads) do not make a column
       * vary: the value of the others is said once. */
      if (v.kind != 0 && first < 0)
        first = i;
      else if (v.kind != 0) {
        tb_colset_value(cs, &res->r[first], c, &w);
        st[c].varies |= strcmp(tb__plain(&v, a, sizeof a), tb__plain(&w, b, sizeof b)) != 0;
      }
      tb_colset_value(cs, &res->r[i], median, &m);
      st[c].echo &= c != median && v.kind == 2 && m.kind == 2 && v.num == m.num;
    }
    st[c].filled = first >= 0;
  }
}

/* Choose the columns: the ones --columns names, every filled one (--wide),
 * or by how each is shown. */
static void tb_table_choose(const tb_colset_t *cs, const tb_report_t *rep, tb_colstat_t *st)
{
  if (rep->columns) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", rep->columns);
    for (char *t, *save = NULL, *p = buf; (t = strtok_r(p, ",", &save)); p = NULL) {
      int c = tb_colset_find(cs, t);
      if (c >= 0)
        st[c].chosen = 1;
    }
    return;
  }
  for (int c = 0; c < cs->n; c++) {
    const tb_col_t *col = &cs->col[c];
    if (!st[c].filled || (col->kind == TB_CK_CORE && col->index == C_NOTE))
      continue;
    if (rep->wide)
      st[c].chosen = 1;
    else if (col->show == TB_SHOW_ALWAYS || col->show == TB_SHOW_FIGURE)
      st[c].chosen = !st[c].echo;
    else if (col->show == TB_SHOW_KEY)
      st[c].chosen = st[c].varies;
  }
}

/* Whether row r ends with its note: it failed or could not be verified. */
static int tb_row_noted(const tb_result_t *r)
{
  return r->check.verdict == TB_FAIL || r->check.verdict == TB_UNVERIFIABLE;
}

/* The number of row i's note among the distinct notes of the rows before
 * it and its own (1, 2, ...); *is_new when it is the first with it. */
static int tb_note_number(const tb_results_t *res, int i, int *is_new)
{
  int number = 0;
  for (int j = 0; j < i; j++) {
    if (!tb_row_noted(&res->r[j]))
      continue;
    int seen = 0;
    for (int k = 0; k < j && !seen; k++)
      seen = tb_row_noted(&res->r[k]) && !strcmp(res->r[k].check.note, res->r[j].check.note);
    if (!seen) {
      number++;
      if (!strcmp(res->r[j].check.note, res->r[i].check.note)) {
        *is_new = 0;
        return number;
      }
    }
  }
  *is_new = 1;
  return number + 1;
}

/* The grid of the chosen columns. Failed and unverifiable rows end with
 * their note: in Markdown its text, in text its number (the notes follow
 * the table, so that a long one keeps the width). */
static void tb_table_grid(tb_grid_t *g, const tb_results_t *res, const tb_colset_t *cs,
                          const tb_colstat_t *st, int *order, int n, int md)
{
  char buf[1100];
  tb_val_t v;
  int is_new;
  tb_grid_init(g, n);
  for (int k = 0; k < n; k++)
    tb_grid_head(g, k, cs->col[order[k]].name, st[order[k]].text);
  for (int i = 0; i < res->n; i++) {
    const tb_result_t *r = &res->r[i];
    int row = tb_grid_row(g);
    for (int k = 0; k < n; k++) {
      tb_colset_value(cs, r, order[k], &v);
      tb_grid_set(g, row, k, tb_table_cell(&v, buf, sizeof buf));
    }
    if (!tb_row_noted(r))
      continue;
    if (md)
      snprintf(buf, sizeof buf, "%s", r->check.note);
    else
      snprintf(buf, sizeof buf, "<- note %d", tb_note_number(res, i, &is_new));
    tb_grid_trail(g, row, buf);
  }
}

/* The notes the rows of a text table point to, each once. */
static void tb_table_notes(FILE *f, const tb_results_t *res)
{
  char text[1200];
  int is_new;
  for (int i = 0; i < res->n; i++) {
    if (!tb_row_noted(&res->r[i]))
      continue;
    int number = tb_note_number(res, i, &is_new);
    if (is_new) {
      snprintf(text, sizeof text, "note %d: %s", number, res->r[i].check.note);
      tb_comment(f, 0, text);
    }
  }
}

/* The order of the chosen columns: the --columns order, else the set's. */
static int tb_table_order(const tb_colset_t *cs, const tb_report_t *rep, const tb_colstat_t *st,
                          int *order)
{
  int n = 0;
  if (rep->columns) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", rep->columns);
    for (char *t, *save = NULL, *p = buf; (t = strtok_r(p, ",", &save)); p = NULL) {
      int c = tb_colset_find(cs, t);
      if (c >= 0 && n < TB_MAX_COLS)
        order[n++] = c;
    }
    return n;
  }
  for (int c = 0; c < cs->n; c++)
    if (st[c].chosen && !st[c].dropped)
      order[n++] = c;
  return n;
}

/* The heading: what the size counts, how times, bandwidth and the limit
 * were taken, and what the error is. */
void tb_report_heading(FILE *f, const tb_results_t *res, const tb_report_t *rep, int md,
                       int brief)
{
  const tb_algo_t *a = rep->algo;
  char text[2048];
  size_t k = 0;
  k += (size_t)snprintf(text + k, sizeof text - k,
                        "%s: size = %s; times in ms, the median of %d run%s after %d warm-up%s",
                        a->name, a->size_meaning, rep->repeats, rep->repeats == 1 ? "" : "s",
                        rep->warmups, rep->warmups == 1 ? "" : "s");
  if (!(a->flags & TB_ALGO_COMPUTE)) {
    k += (size_t)snprintf(text + k, sizeof text - k,
                          "; gbs = GB/s over the median (GB = 10^9 bytes, counted STREAM-style, "
                          "no write-allocate); frac_limit = gbs / limit_gbs, measured in this "
                          "run:");
    for (int b = 0, first = 1; b < tb_backend_count() && k < sizeof text; b++) {
      int rows = 0;
      for (int i = 0; i < res->n && !rows; i++)
        rows = res->r[i].bi == b;
      if (!rows)
        continue;
      k += (size_t)snprintf(text + k, sizeof text - k, "%s %s %s", first ? "" : ",",
                            tb_backend_at(b)->name, tb_backend_at(b)->limit_names[a->limit]);
      first = 0;
    }
  }
  if (k < sizeof text && !brief)
    snprintf(text + k, sizeof text - k, "; error = %s", a->error_meaning);
  tb_comment(f, md, text);
}

/* "name=value" of each key column that is the same on every row (that has
 * a value in it). */
static void tb_table_constants(FILE *f, const tb_results_t *res, const tb_colset_t *cs,
                               const tb_colstat_t *st, int md)
{
  char text[4096], buf[1100];
  int any = 0, gaps = 0;
  size_t k = 0;
  tb_val_t v;
  for (int c = 0; c < cs->n; c++)
    gaps |= st[c].filled && !st[c].chosen && !st[c].varies && st[c].gaps &&
            cs->col[c].show == TB_SHOW_KEY;
  k = (size_t)snprintf(text, sizeof text, "%s", gaps ? "same on every row that has it:"
                                                     : "same on every row:");
  for (int c = 0; c < cs->n && k < sizeof text; c++) {
    if (st[c].chosen || !st[c].filled || st[c].varies || cs->col[c].show != TB_SHOW_KEY)
      continue;
    for (int i = 0; i < res->n; i++) {
      tb_colset_value(cs, &res->r[i], c, &v);
      if (v.kind)
        break;
    }
    k += (size_t)snprintf(text + k, sizeof text - k, " %s=%s", cs->col[c].name,
                          tb_table_cell(&v, buf, sizeof buf));
    any = 1;
  }
  if (any)
    tb_comment(f, md, text);
}

int tb_report_table(FILE *f, const tb_results_t *res, const tb_report_t *rep, int md)
{
  const tb_colset_t *cs = rep->cols;
  tb_colstat_t *st = calloc((size_t)cs->n, sizeof *st);
  int *order = malloc(TB_MAX_COLS * sizeof *order);
  tb_grid_t g;
  if (!st || !order) {
    free(st);
    free(order);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  tb_colstats(res, cs, st);
  tb_table_choose(cs, rep, st);
  int n = tb_table_order(cs, rep, st, order);
  tb_table_grid(&g, res, cs, st, order, n, md);
  /* Too wide: the figures go, the highest drop rank first. */
  while (!rep->columns && !rep->wide && !md && tb_grid_width(&g) > TB_TABLE_WIDTH) {
    int worst = -1;
    for (int k = 0; k < n; k++) {
      const tb_col_t *col = &cs->col[order[k]];
      if (col->show == TB_SHOW_FIGURE && (worst < 0 || col->drop > cs->col[worst].drop))
        worst = order[k];
    }
    if (worst < 0)
      break;
    st[worst].dropped = 1;
    tb_grid_free(&g);
    n = tb_table_order(cs, rep, st, order);
    tb_table_grid(&g, res, cs, st, order, n, md);
  }
  tb_report_heading(f, res, rep, md, !md);
  tb_table_constants(f, res, cs, st, md);
  char text[1024];
  size_t k = 0;
  for (int c = 0; c < cs->n && k < sizeof text; c++)
    if (st[c].dropped)
      k += (size_t)snprintf(text + k, sizeof text - k, "%s%s", k ? ", " : "not shown to keep "
                            "the width: ", cs->col[c].name);
  if (k && k < sizeof text) {
    snprintf(text + k, sizeof text - k, " (--wide shows every column, --columns chooses)");
    tb_comment(f, md, text);
  }
  tb_grid_print(f, &g, md);
  if (!md)
    tb_table_notes(f, res);
  int failed = g.failed;
  tb_grid_free(&g);
  free(st);
  free(order);
  return failed ? tb_fail(TB_ENOMEM, "out of memory") : TB_OK;
}

int tb_columns_check(const tb_colset_t *cs, const char *spec)
{
  char buf[1024], shown[64];
  int n = 0;
  if (strlen(spec) >= sizeof buf)
    return tb_fail(TB_EINVAL, "--columns is too long");
  snprintf(buf, sizeof buf, "%s", spec);
  for (char *t, *save = NULL, *p = buf; (t = strtok_r(p, ",", &save)); p = NULL, n++)
    if (tb_colset_find(cs, t) < 0)
      return tb_fail(TB_EINVAL, "--columns: unknown column '%s' for %s (see the CSV header)",
                     tb_printable(t, shown, sizeof shown), cs->algo->name);
  if (n == 0)
    return tb_fail(TB_EINVAL, "--columns names no column");
  return TB_OK;
}
