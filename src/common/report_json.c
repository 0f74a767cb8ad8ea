/* twinbench: the JSON report. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "columns.h"
#include "env.h"
#include "json.h"
#include "report.h"

static void tb_json_val(FILE *f, const tb_val_t *v, unsigned flags)
{
  if (v->kind == 1 && (flags & TB_COL_LIST)) {
    /* Space-separated integers, as a list. */
    const char *s = v->text;
    char *end;
    fputc('[', f);
    for (int first = 1;; first = 0) {
      long x = strtol(s, &end, 10);
      if (end == s)
        break;
      fprintf(f, "%s%ld", first ? "" : ", ", x);
      s = end;
    }
    fputc(']', f);
  } else if (v->kind == 1)
    tb_json_string(f, v->text);
  else
    tb_json_number(f, v->kind == 0 ? NAN : v->num);
}

/* The columns of kind k1 or k2 of row r as "name": value pairs, the first
 * without a separator when *first is set (which it then clears). */
static void tb_json_cols(FILE *f, const tb_colset_t *cs, const tb_result_t *r, int k1, int k2,
                         int *first)
{
  tb_val_t v;
  for (int c = 0; c < cs->n; c++) {
    if ((int)cs->col[c].kind != k1 && (int)cs->col[c].kind != k2)
      continue;
    tb_colset_value(cs, r, c, &v);
    fprintf(f, "%s", *first ? "" : ", ");
    tb_json_string(f, cs->col[c].name);
    fputs(": ", f);
    tb_json_val(f, &v, cs->col[c].flags);
    *first = 0;
  }
}

static void tb_json_row(FILE *f, const tb_colset_t *cs, const tb_result_t *r)
{
  int first = 1;
  fputc('{', f);
  tb_json_cols(f, cs, r, TB_CK_CORE, TB_CK_CONFIG, &first);
  tb_json_cols(f, cs, r, TB_CK_TUNE, TB_CK_TUNE, &first);
  fprintf(f, ", \"params\": {");
  first = 1;
  tb_json_cols(f, cs, r, TB_CK_PARAM, TB_CK_PARAM, &first);
  fprintf(f, "}, \"columns\": {");
  first = 1;
  tb_json_cols(f, cs, r, TB_CK_EXTRA, TB_CK_EXTRA, &first);
  fputs("}}", f);
}

static void tb_json_speedups(FILE *f, const tb_results_t *res, const tb_colset_t *cs)
{
  tb__speedup_t *sp = NULL;
  int ns = tb__speedups(res, &sp);
  char text[160];
  fprintf(f, ",\n  \"speedups\": [");
  for (int g = 0; g < ns; g++) {
    const tb__speedup_t *s = &sp[g];
    int first = 1;
    fprintf(f, "%s\n    {\"precision\": \"%s\", \"size\": %lld, \"params\": {", g ? "," : "",
            tb_prec_name(s->ref->prec), (long long)s->ref->n);
    tb_json_cols(f, cs, s->ref, TB_CK_PARAM, TB_CK_PARAM, &first);
    fprintf(f, "}, \"reference\": ");
    tb_json_string(f, s->ref->backend->name);
    fprintf(f, ", \"reference_best\": ");
    tb_result_config_text(s->ref, text, sizeof text);
    tb_json_string(f, text);
    fprintf(f, ", \"reference_ms\": ");
    tb_json_number(f, s->ref->median_ms);
    fprintf(f, ", \"backend\": ");
    tb_json_string(f, s->other->backend->name);
    fprintf(f, ", \"best\": ");
    tb_result_config_text(s->other, text, sizeof text);
    tb_json_string(f, text);
    const double figures[] = {s->other->median_ms, s->kernel, s->pinned, s->pageable};
    static const char *const names[] = {"ms", "kernel_speedup", "pinned_speedup",
                                        "pageable_speedup"};
    for (int k = 0; k < 4; k++) {
      fprintf(f, ", \"%s\": ", names[k]);
      tb_json_number(f, figures[k]);
    }
    fputc('}', f);
  }
  free(sp);
  fprintf(f, "%s]", ns ? "\n  " : "");
}

/* The measured limits of the run: one per backend configuration and kind. */
static void tb_json_limits(FILE *f, const tb_results_t *res)
{
  char text[160];
  fprintf(f, ",\n  \"limits\": [");
  for (int i = 0, n = 0; i < res->n; i++) {
    const tb_result_t *r = &res->r[i];
    int seen = 0;
    for (int j = 0; j < i && !seen; j++)
      seen = res->r[j].bi == r->bi && res->r[j].ci == r->ci;
    if (seen)
      continue;
    fprintf(f, "%s\n    {\"backend\": ", n++ ? "," : "");
    tb_json_string(f, r->backend->name);
    tb_result_configuration(r, text, sizeof text);
    fprintf(f, ", \"configuration\": ");
    tb_json_string(f, text);
    fprintf(f, ", \"kind\": ");
    tb_json_string(f, r->backend->limit_names[r->algo->limit]);
    fprintf(f, ", \"gbs\": ");
    tb_json_number(f, r->limit_gbs);
    fputc('}', f);
  }
  fprintf(f, "\n  ]");
}

void tb__write_json(FILE *f, const tb_results_t *res, const tb_report_t *rep)
{
  const tb_algo_t *a = rep->algo;
  fprintf(f, "{\n  \"schema_version\": %d,\n  \"twinbench\": \"%s\",\n  \"algo\": ",
          TB_REPORT_SCHEMA_VERSION, PACKAGE_VERSION);
  tb_json_string(f, a->name);
  fprintf(f, ",\n  \"size_meaning\": ");
  tb_json_string(f, a->size_meaning);
  fprintf(f, ",\n  \"error_meaning\": ");
  tb_json_string(f, a->error_meaning);
  fprintf(f, ",\n  \"bytes_counting\": \"STREAM-style: each array read or written once, no "
             "write-allocate; GB = 10^9 bytes; rates over the median time\",\n  \"run\": {"
             "\"seed\": %llu, \"repeats\": %d, \"warmups\": %d, \"verify\": %s, "
             "\"interrupted\": %s},\n  \"environment\": ",
          (unsigned long long)rep->seed, rep->repeats, rep->warmups,
          rep->verify ? "true" : "false", rep->interrupted ? "true" : "false");
  tb_env_json(f, rep);
  tb_json_limits(f, res);
  fprintf(f, ",\n  \"results\": [");
  for (int i = 0; i < res->n; i++) {
    fprintf(f, "%s\n    ", i ? "," : "");
    tb_json_row(f, rep->cols, &res->r[i]);
  }
  fprintf(f, "\n  ]");
  tb_json_speedups(f, res, rep->cols);
  fprintf(f, "\n}\n");
}
