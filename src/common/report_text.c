/* twinbench: the table and CSV reports, and the choice of format. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "registry.h"
#include "report.h"
#include "status.h"

int tb_format_parse(const char *s, int *format)
{
  static const char *const names[] = {"table", "csv", "json", NULL};
  return tb_name_index(names, -1, s, "unknown format", format);
}

/* One CSV field, quoted when it holds a separator, a quote or a line end. */
static void tb_csv_field(FILE *f, const char *s, int first)
{
  if (!first)
    fputc(',', f);
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void tb_write_csv(FILE *f, const tb_results_t *res, const tb_colset_t *cs)
{
  char buf[64];
  tb_val_t v;
  for (int c = 0; c < cs->n; c++)
    tb_csv_field(f, cs->col[c].name, c == 0);
  fputc('\n', f);
  for (int i = 0; i < res->n; i++) {
    for (int c = 0; c < cs->n; c++) {
      tb_colset_value(cs, &res->r[i], c, &v);
      tb_csv_field(f, tb__plain(&v, buf, sizeof buf), c == 0);
    }
    fputc('\n', f);
  }
}

/* The heading of the table: what the size counts and what each backend's
 * limit is. */
static void tb_table_heading(FILE *f, const tb_results_t *res, const tb_algo_t *a)
{
  fprintf(f, "# %s: %s; bytes counted STREAM-style (no write-allocate); limit measured in this "
             "run:",
          a->name, a->size_meaning);
  for (int b = 0, first = 1; b < tb_backend_count(); b++) {
    int rows = 0;
    for (int i = 0; i < res->n && !rows; i++)
      rows = res->r[i].bi == b;
    if (!rows)
      continue;
    fprintf(f, "%s %s %s", first ? "" : ",", tb_backend_at(b)->name,
            tb_backend_at(b)->limit_names[a->limit]);
    first = 0;
  }
  fputc('\n', f);
}

static void tb_write_table(FILE *f, const tb_results_t *res, const tb_colset_t *cs)
{
  int *w = calloc((size_t)cs->n, sizeof *w);
  char buf[64];
  tb_val_t v;
  if (!w)
    return;
  for (int c = 0; c < cs->n; c++)
    w[c] = cs->col[c].table_name ? (int)strlen(cs->col[c].table_name) : -1;
  for (int i = 0; i < res->n; i++)
    for (int c = 0; c < cs->n; c++)
      if (w[c] >= 0) {
        tb_colset_value(cs, &res->r[i], c, &v);
        int l = (int)strlen(tb__tabled(&v, buf, sizeof buf));
        if (l > w[c])
          w[c] = l;
      }
  tb_table_heading(f, res, cs->algo);
  for (int c = 0, first = 1; c < cs->n; c++)
    if (w[c] >= 0) {
      fprintf(f, first ? "%-*s" : "  %*s", w[c], cs->col[c].table_name);
      first = 0;
    }
  fputc('\n', f);
  for (int i = 0; i < res->n; i++) {
    for (int c = 0, first = 1; c < cs->n; c++)
      if (w[c] >= 0) {
        tb_colset_value(cs, &res->r[i], c, &v);
        fprintf(f, first ? "%-*s" : "  %*s", w[c], tb__tabled(&v, buf, sizeof buf));
        first = 0;
      }
    if (res->r[i].check.verdict == TB_FAIL || res->r[i].check.verdict == TB_UNVERIFIABLE)
      fprintf(f, "  <- %s", res->r[i].check.note);
    fputc('\n', f);
  }
  free(w);
}

int tb_report_write(FILE *f, int format, const tb_results_t *res, const tb_report_t *rep)
{
  switch (format) {
  case TB_FMT_CSV: tb_write_csv(f, res, rep->cols); break;
  case TB_FMT_JSON: tb__write_json(f, res, rep); break;
  default:
    tb_write_table(f, res, rep->cols);
    tb_report_speedups(f, res);
    break;
  }
  if (fflush(f) || ferror(f))
    return tb_fail(TB_EIO, "writing the report failed: %s", strerror(errno ? errno : EIO));
  return TB_OK;
}
