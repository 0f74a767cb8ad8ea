/* twinbench: the table a person reads, as text or Markdown: a heading that
 * says what the numbers are, the columns that are the same on every row
 * once above the table, then a column for each thing that varies and each
 * figure, kept to TB_TABLE_WIDTH characters unless asked for more. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "energy.h"
#include "grid.h"
#include "parse.h"
#include "registry.h"
#include "report.h"
#include "status.h"

/* What the rows hold in each column. */
typedef struct tb_colstat {
  int first;             /* the first row with a value, or -1 */
  int width;             /* the widest cell as the table shows it, the heading included */
  unsigned char varies;  /* two rows with a value differ */
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
  const char *s = v->kind == 0 ? "-" : tb__tabled(v, buf, len);
  if (v->kind == 1 && strpbrk(s, " \t")) {
    snprintf(buf, len, "'%s'", s);
    return buf;
  }
  return s;
}

/* One pass over the rows for each column: which rows have a value, whether
 * they agree, the width of the cells. */
static void tb_colstats(const tb_results_t *res, const tb_colset_t *cs, tb_colstat_t *st)
{
  char first[1100], buf[1100];
  tb_val_t v;
  for (int c = 0; c < cs->n; c++) {
    const int is_median = cs->col[c].kind == TB_CK_CORE && cs->col[c].index == C_MEDIAN;
    st[c] = (tb_colstat_t){-1, (int)strlen(cs->col[c].name), 0, !is_median, 0, 0, 0, 0};
    for (int i = 0; i < res->n; i++) {
      tb_colset_value(cs, &res->r[i], c, &v);
      const char *cell = tb_table_cell(&v, buf, sizeof buf);
      if ((int)strlen(cell) > st[c].width)
        st[c].width = (int)strlen(cell);
      st[c].text |= v.kind == 1;
      st[c].gaps |= v.kind == 0;
      st[c].echo &= v.kind == 2 && v.num == res->r[i].median_ms;
      /* Rows without a value (a GPU row's threads) do not make a column
       * vary: the value of the others is said once. */
      if (v.kind == 0)
        continue;
      const char *plain = tb__plain(&v, buf, sizeof buf);
      if (st[c].first < 0) {
        st[c].first = i;
        snprintf(first, sizeof first, "%s", plain);
      } else
        st[c].varies |= strcmp(plain, first) != 0;
    }
  }
}

/* Choose the columns: the ones --columns names, every filled one (--wide),
 * or by how each is shown. */
static void tb_table_choose(const tb_colset_t *cs, const tb_report_t *rep, tb_colstat_t *st)
{
  for (int k = 0; k < rep->ncolumns; k++)
    st[rep->columns[k]].chosen = 1;
  for (int c = 0; c < cs->n && !rep->ncolumns; c++) {
    const tb_col_t *col = &cs->col[c];
    if (st[c].first < 0 || (col->kind == TB_CK_CORE && col->index == C_NOTE))
      continue;
    if (rep->wide)
      st[c].chosen = 1;
    else if (col->show == TB_SHOW_ALWAYS || col->show == TB_SHOW_FIGURE)
      st[c].chosen = !st[c].echo;
    else if (col->show == TB_SHOW_KEY)
      st[c].chosen = st[c].varies;
  }
}

/* Whether row r ends with its note: it failed or could not be verified,
 * or its figures are suspect (tb_result_flags). */
static int tb_row_noted(const tb_result_t *r)
{
  return r->check.verdict == TB_FAIL || r->check.verdict == TB_UNVERIFIABLE ||
         tb_result_flags(r);
}

/* Number the distinct notes of the rows in order of first appearance:
 * note[i] is row i's number (0: none); returns how many there are. */
static int tb_note_numbers(const tb_results_t *res, int *note)
{
  int distinct = 0, first = 0;
  char a[1024], b[1024];
  for (int i = 0; i < res->n; i++) {
    note[i] = 0;
    if (!tb_row_noted(&res->r[i]))
      continue;
    tb_result_note(&res->r[i], a, sizeof a);
    /* Against the first row of each note so far (the distinct notes are few). */
    for (int j = first, d = 0; j < i && !note[i]; j++)
      if (note[j] > d && (d = note[j], tb_result_note(&res->r[j], b, sizeof b), !strcmp(a, b)))
        note[i] = note[j];
    if (!note[i] && !distinct++)
      first = i;
    if (!note[i])
      note[i] = distinct;
  }
  return distinct;
}

/* The grid of the chosen columns. Failed and unverifiable rows end with
 * their note: in Markdown its text, in text its number (the notes follow
 * the table, so that a long one keeps the width). */
static void tb_table_grid(tb_grid_t *g, const tb_results_t *res, const tb_colset_t *cs,
                          const tb_colstat_t *st, const int *order, int n, const int *note,
                          int md)
{
  char buf[1100];
  tb_val_t v;
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
    if (!note[i])
      continue;
    if (md)
      tb_result_note(r, buf, sizeof buf);
    else
      snprintf(buf, sizeof buf, "<- note %d", note[i]);
    tb_grid_trail(g, row, buf);
  }
}

/* The notes the rows of a text table point to, each once. */
static void tb_table_notes(FILE *f, const tb_results_t *res, const int *note)
{
  char text[1200], body[1024];
  for (int i = 0, shown = 0; i < res->n; i++)
    if (note[i] > shown) {
      shown = note[i];
      tb_result_note(&res->r[i], body, sizeof body);
      snprintf(text, sizeof text, "note %d: %s", note[i], body);
      tb_comment(f, 0, text);
    }
}

/* The order of the chosen columns: the --columns order, else the set's. */
static int tb_table_order(const tb_colset_t *cs, const tb_report_t *rep, const tb_colstat_t *st,
                          int *order)
{
  int n = 0;
  for (int k = 0; k < rep->ncolumns; k++)
    order[n++] = rep->columns[k];
  for (int c = 0; c < cs->n && !rep->ncolumns; c++)
    if (st[c].chosen && !st[c].dropped)
      order[n++] = c;
  return n;
}

/* The width of the table of the chosen columns, with "<- note N" after the
 * rows that have one. */
static int tb_table_width(const tb_colset_t *cs, const tb_colstat_t *st, int notes)
{
  int w = 0, n = 0;
  for (int c = 0; c < cs->n; c++)
    if (st[c].chosen && !st[c].dropped)
      w += st[c].width + (n++ ? 2 : 0);
  if (notes) {
    char buf[32];
    w += 2 + snprintf(buf, sizeof buf, "<- note %d", notes);
  }
  return w;
}

/* Too wide: the figures go, the highest drop rank first. */
static void tb_table_fit(const tb_colset_t *cs, tb_colstat_t *st, int notes)
{
  while (tb_table_width(cs, st, notes) > TB_TABLE_WIDTH) {
    int worst = -1;
    for (int c = 0; c < cs->n; c++)
      if (st[c].chosen && !st[c].dropped && cs->col[c].show == TB_SHOW_FIGURE &&
          (worst < 0 || cs->col[c].drop > cs->col[worst].drop))
        worst = c;
    if (worst < 0)
      return;
    st[worst].dropped = 1;
  }
}

/* The energy columns' line: how they were taken, and each backend's
 * counters or why it has none. */
static void tb_energy_heading(FILE *f, const tb_report_t *rep, int md)
{
  char text[2048];
  size_t k = (size_t)snprintf(
      text, sizeof text,
      "energy_j = joules per run: the energy counters' advance from before the first timed run "
      "to after the last, over the runs (more runs are timed until that window is %.1f s and "
      "the counters moved); avg_w = that advance over the window; j_per_gb = energy_j per GB "
      "moved; *_per_j = items per joule",
      TB_ENERGY_MIN_WINDOW);
  for (int b = 0; b < tb_backend_count() && k < sizeof text; b++)
    if (rep->energy[b])
      k += (size_t)snprintf(text + k, sizeof text - k, "; %s: %s", tb_backend_at(b)->name,
                            rep->energy[b]);
  tb_comment(f, md, text);
}

/* The heading: what the size counts, how times, bandwidth and the
 * roofline were taken, and what the error is. */
void tb_report_heading(FILE *f, const tb_report_t *rep, int md, int brief)
{
  const tb_algo_t *a = rep->algo;
  /* The adaptive repeats and the energy window may time more runs. */
  const int more = rep->min_time > 0 || rep->max_noise > 0 || rep->cols->energy;
  char text[2048];
  size_t k = 0;
  k += (size_t)snprintf(text + k, sizeof text - k,
                        "%s: size = %s; times in ms, the median of %s%d run%s after %d warm-up%s",
                        a->name, a->size_meaning, more ? "at least " : "", rep->repeats,
                        rep->repeats == 1 ? "" : "s", rep->warmups, rep->warmups == 1 ? "" : "s");
  if (more)
    k += (size_t)snprintf(text + k, sizeof text - k, " (the repeats column has how many)");
  if (!(a->flags & TB_ALGO_COMPUTE))
    k += (size_t)snprintf(text + k, sizeof text - k,
                          "; gbs = GB/s over the median (GB = 10^9 bytes, counted STREAM-style, "
                          "no write-allocate)");
  if (k < sizeof text)
    k += (size_t)snprintf(text + k, sizeof text - k,
                          "; roofline = the least time the ceilings measured in this run "
                          "allow, max(bytes / ceiling_gbs of the row's read:write mix (random "
                          "accesses: the gather's), flops / the FMA ceiling of its precision), "
                          "over the median");
  if (k < sizeof text && !brief)
    snprintf(text + k, sizeof text - k, "; error = %s", a->error_meaning);
  tb_comment(f, md, text);
  if (rep->cols->energy)
    tb_energy_heading(f, rep, md);
}

/* "name=value" of each key column that is the same on every row (that has
 * a value in it). */
static void tb_table_constants(FILE *f, const tb_results_t *res, const tb_colset_t *cs,
                               const tb_colstat_t *st, int md)
{
  char text[4096], buf[1100];
  int any = 0, gaps = 0;
  tb_val_t v;
#define TB_CONSTANT(c)                                                                          \
  (st[c].first >= 0 && !st[c].chosen && !st[c].varies && cs->col[c].show == TB_SHOW_KEY)
  for (int c = 0; c < cs->n; c++)
    gaps |= TB_CONSTANT(c) && st[c].gaps;
  size_t k = (size_t)snprintf(text, sizeof text, "%s", gaps ? "same on every row that has it:"
                                                            : "same on every row:");
  for (int c = 0; c < cs->n && k < sizeof text; c++) {
    if (!TB_CONSTANT(c))
      continue;
    tb_colset_value(cs, &res->r[st[c].first], c, &v);
    k += (size_t)snprintf(text + k, sizeof text - k, " %s=%s", cs->col[c].name,
                          tb_table_cell(&v, buf, sizeof buf));
    any = 1;
  }
#undef TB_CONSTANT
  if (any)
    tb_comment(f, md, text);
}

int tb_report_table(FILE *f, const tb_results_t *res, const tb_report_t *rep, int md)
{
  const tb_colset_t *cs = rep->cols;
  tb_colstat_t *st = calloc((size_t)cs->n, sizeof *st);
  int *order = malloc(TB_MAX_COLS * sizeof *order);
  int *note = malloc(((size_t)res->n + 1) * sizeof *note);
  tb_grid_t g;
  if (!st || !order || !note) {
    free(st);
    free(order);
    free(note);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  int notes = tb_note_numbers(res, note);
  tb_colstats(res, cs, st);
  tb_table_choose(cs, rep, st);
  if (!rep->ncolumns && !rep->wide && !md)
    tb_table_fit(cs, st, notes);
  int n = tb_table_order(cs, rep, st, order);
  tb_table_grid(&g, res, cs, st, order, n, note, md);
  tb_report_heading(f, rep, md, !md);
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
    tb_table_notes(f, res, note);
  int failed = g.failed;
  tb_grid_free(&g);
  free(st);
  free(order);
  free(note);
  return failed ? tb_fail(TB_ENOMEM, "out of memory") : TB_OK;
}

int tb_columns_parse(const tb_colset_t *cs, const char *spec, int **columns, int *n)
{
  char **names = NULL, shown[64];
  int nnames = 0, rc;
  *columns = NULL;
  *n = 0;
  if ((rc = tb_list_split(spec, &names, &nnames)))
    return tb_fail(rc, "--columns: %s", tb_error_detail());
  if (nnames > TB_MAX_COLS)
    rc = tb_fail(TB_EINVAL, "--columns names more than %d columns", TB_MAX_COLS);
  else if (!(*columns = malloc((size_t)nnames * sizeof **columns)))
    rc = tb_fail(TB_ENOMEM, "out of memory");
  for (int i = 0; i < nnames && !rc; i++)
    if (((*columns)[i] = tb_colset_find(cs, names[i])) < 0)
      rc = tb_fail(TB_EINVAL, "--columns: unknown column '%s' for %s (see the CSV header)",
                   tb_printable(names[i], shown, sizeof shown), cs->algo->name);
  tb_list_free(names, nnames);
  if (rc) {
    free(*columns);
    *columns = NULL;
  } else
    *n = nnames;
  return rc;
}
