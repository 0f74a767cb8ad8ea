/* twinbench: the table and CSV reports, and the choice of format. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "registry.h"
#include "report.h"
#include "status.h"

static void tb_write_csv(FILE *f, const tb_results_t *res, const tb_algo_t *a)
{
  char buf[64];
  tb_val_t v;
  int nc = tb__ncols(a);
  for (int c = 0; c < nc; c++)
    fprintf(f, "%s%s", c ? "," : "", tb__col_name(a, c, 0));
  fputc('\n', f);
  for (int i = 0; i < res->n; i++) {
    for (int c = 0; c < nc; c++) {
      tb__value(&res->r[i], c, &v);
      const char *s = tb__plain(&v, buf, sizeof buf);
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
  int nc = tb__ncols(a);
  int *w = calloc((size_t)nc, sizeof *w);
  char buf[64];
  tb_val_t v;
  if (!w)
    return;
  for (int c = 0; c < nc; c++) {
    const char *name = tb__col_name(a, c, 1);
    w[c] = name ? (int)strlen(name) : -1;
  }
  for (int i = 0; i < res->n; i++)
    for (int c = 0; c < nc; c++)
      if (w[c] >= 0) {
        tb__value(&res->r[i], c, &v);
        int l = (int)strlen(tb__tabled(&v, buf, sizeof buf));
        if (l > w[c])
          w[c] = l;
      }
  fprintf(f, "# %s: %s; bytes counted STREAM-style (no write-allocate); limit = %s (CPU) or %s (GPU), "
             "measured in this run\n",
          a->name, a->size_meaning, tb_backends[TB_CPU]->limit_names[a->limit],
          tb_backends[TB_GPU]->limit_names[a->limit]);
  for (int c = 0, first = 1; c < nc; c++)
    if (w[c] >= 0) {
      fprintf(f, first ? "%-*s" : "  %*s", w[c], tb__col_name(a, c, 1));
      first = 0;
    }
  fputc('\n', f);
  for (int i = 0; i < res->n; i++) {
    for (int c = 0, first = 1; c < nc; c++)
      if (w[c] >= 0) {
        tb__value(&res->r[i], c, &v);
        fprintf(f, first ? "%-*s" : "  %*s", w[c], tb__tabled(&v, buf, sizeof buf));
        first = 0;
      }
    if (res->r[i].check.verdict == TB_FAIL)
      fprintf(f, "  <- %s", res->r[i].check.note);
    fputc('\n', f);
  }
  free(w);
}

int tb_report_write(FILE *f, int format, const tb_results_t *res, const tb_report_t *rep)
{
  switch (format) {
  case TB_FMT_CSV: tb_write_csv(f, res, rep->algo); break;
  case TB_FMT_JSON: tb__write_json(f, res, rep); break;
  default:
    tb_write_table(f, res, rep->algo);
    tb_report_speedups(f, res);
    break;
  }
  if (fflush(f) || ferror(f))
    return tb_fail(TB_EIO, "writing the report failed: %s", strerror(errno));
  return TB_OK;
}
