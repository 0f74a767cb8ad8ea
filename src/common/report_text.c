/* twinbench: the CSV and Markdown reports, and the choice of format. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "columns.h"
#include "env.h"
#include "registry.h"
#include "report.h"
#include "status.h"

int tb_format_parse(const char *s, int *format)
{
  static const char *const names[] = {"table", "csv", "json", "markdown", NULL};
  if (!strcmp(s, "md")) {
    *format = TB_FMT_MARKDOWN;
    return TB_OK;
  }
  return tb_name_index(names, -1, s, "unknown format", format);
}

int tb_format_of_path(const char *path)
{
  static const struct {
    const char *ext;
    int format;
  } known[] = {{".txt", TB_FMT_TABLE}, {".csv", TB_FMT_CSV}, {".json", TB_FMT_JSON},
               {".md", TB_FMT_MARKDOWN}, {".markdown", TB_FMT_MARKDOWN}};
  const char *base = strrchr(path, '/');
  const char *dot = strrchr(base ? base : path, '.');
  for (size_t i = 0; dot && i < sizeof known / sizeof known[0]; i++)
    if (!strcasecmp(dot, known[i].ext))
      return known[i].format;
  return -1;
}

/* One CSV field, quoted when it holds a separator, a quote or a line end. */
void tb__csv_field(FILE *f, const char *s, int first)
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

/* CSV: lines of '#' context, the header, the rows. */
static void tb_write_csv(FILE *f, const tb_results_t *res, const tb_report_t *rep)
{
  const tb_colset_t *cs = rep->cols;
  char buf[64];
  tb_val_t v;
  tb_env_context(f, rep, "# ");
  tb_report_heading(f, rep, 0, 0);
  for (int c = 0; c < cs->n; c++)
    tb__csv_field(f, cs->col[c].name, c == 0);
  fputc('\n', f);
  for (int i = 0; i < res->n; i++) {
    for (int c = 0; c < cs->n; c++) {
      tb_colset_value(cs, &res->r[i], c, &v);
      tb__csv_field(f, tb__plain(&v, buf, sizeof buf), c == 0);
    }
    fputc('\n', f);
  }
}

/* Markdown: a heading, the context, the table and the speedups. */
static int tb_write_markdown(FILE *f, const tb_results_t *res, const tb_report_t *rep)
{
  fprintf(f, "## twinbench run %s\n\n", rep->algo->name);
  tb_env_context(f, rep, "- ");
  fputc('\n', f);
  int rc = tb_report_table(f, res, rep, 1);
  tb_report_speedups(f, res, 1);
  return rc;
}

int tb_report_write(FILE *f, int format, const tb_results_t *res, const tb_report_t *rep)
{
  int rc = TB_OK;
  switch (format) {
  case TB_FMT_CSV: tb_write_csv(f, res, rep); break;
  case TB_FMT_JSON: tb__write_json(f, res, rep); break;
  case TB_FMT_MARKDOWN: rc = tb_write_markdown(f, res, rep); break;
  default:
    rc = tb_report_table(f, res, rep, 0);
    tb_report_speedups(f, res, 0);
    break;
  }
  if (rc)
    return rc;
  if (fflush(f) || ferror(f))
    return tb_fail(TB_EIO, "writing the report failed: %s", strerror(errno ? errno : EIO));
  return TB_OK;
}
