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

void tb__json_row(FILE *f, const tb_colset_t *cs, const tb_result_t *r)
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
  tb_json_cols(f, cs, r, TB_CK_EXTRA, TB_CK_PER_J, &first);
  fprintf(f, "}, \"samples_ms\": [");
  for (int i = 0; r->samples && i < r->repeats; i++) {
    fputs(i ? ", " : "", f);
    tb_json_number(f, r->samples[i]);
  }
  fputs("]}", f);
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
    const double figures[] = {s->other->median_ms, s->kernel, s->hardware, s->pinned,
                              s->pageable, s->energy};
    static const char *const names[] = {"ms", "kernel_speedup", "hardware_ratio",
                                        "pinned_speedup", "pageable_speedup", "energy_ratio"};
    for (int k = 0; k < TB_COUNT(figures); k++) {
      fprintf(f, ", \"%s\": ", names[k]);
      tb_json_number(f, figures[k]);
    }
    fputc('}', f);
  }
  free(sp);
  fprintf(f, "%s]", ns ? "\n  " : "");
}

/* One ceiling the rows used, once per backend configuration and kind. */
static void tb_json_ceiling(FILE *f, const tb_result_t *r, int kind, double value, int *n)
{
  char text[160];
  fprintf(f, "%s\n    {\"backend\": ", (*n)++ ? "," : "");
  tb_json_string(f, r->backend->name);
  tb_result_configuration(r, text, sizeof text);
  fprintf(f, ", \"configuration\": ");
  tb_json_string(f, text);
  fprintf(f, ", \"kind\": ");
  tb_json_string(f, tb_ceiling_name(kind));
  fprintf(f, ", \"how\": ");
  tb_json_string(f, r->backend->ceiling_names[kind]);
  fprintf(f, ", \"value\": ");
  tb_json_number(f, value);
  fprintf(f, ", \"unit\": \"%s\"}", tb_ceiling_is_memory(kind) ? "GB/s" : "GFLOP/s");
}

/* The measured ceilings the rows are held against: each row's two (its
 * mix's and its precision's), once per configuration and kind, in the order
 * the rows first use them. */
static void tb_json_ceilings(FILE *f, const tb_results_t *res)
{
  struct seen {
    int bi, ci, kind;
  } *seen = malloc(((size_t)res->n * 2 + 1) * sizeof *seen);
  int n = 0;
  fprintf(f, ",\n  \"ceilings\": [");
  for (int i = 0; seen && i < res->n; i++) {
    const tb_result_t *r = &res->r[i];
    const int kinds[2] = {r->mem_ceiling, r->comp_ceiling};
    const double values[2] = {r->ceiling_gbs, r->ceiling_gflops};
    for (int k = 0; k < 2; k++) {
      int j = 0;
      if (kinds[k] < 0 || !(values[k] > 0))
        continue;
      /* The distinct ceilings are few: a configuration has five. */
      while (j < n && !(seen[j].bi == r->bi && seen[j].ci == r->ci && seen[j].kind == kinds[k]))
        j++;
      if (j < n)
        continue;
      seen[n] = (struct seen){r->bi, r->ci, kinds[k]};
      tb_json_ceiling(f, r, kinds[k], values[k], &n);
    }
  }
  free(seen);
  fprintf(f, "%s]", n ? "\n  " : "");
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
             "\"seed\": %llu, \"repeats\": %d, \"warmups\": %d, \"min_time_s\": %.17g, "
             "\"max_noise\": %.17g, \"verify\": %s, \"interrupted\": %s},\n  \"environment\": ",
          (unsigned long long)rep->seed, rep->repeats, rep->warmups, rep->min_time, rep->max_noise,
          rep->verify ? "true" : "false", rep->interrupted ? "true" : "false");
  tb_env_json(f, rep);
  tb_json_ceilings(f, res);
  fprintf(f, ",\n  \"results\": [");
  for (int i = 0; i < res->n; i++) {
    fprintf(f, "%s\n    ", i ? "," : "");
    tb__json_row(f, rep->cols, &res->r[i]);
  }
  fprintf(f, "\n  ]");
  tb_json_speedups(f, res, rep->cols);
  fprintf(f, "\n}\n");
}
