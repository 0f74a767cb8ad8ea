/* twinbench: the JSON report. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "columns.h"
#include "env.h"
#include "json.h"
#include "report.h"

static void tb_json_val(FILE *f, const tb_val_t *v)
{
  if (v->kind == 1)
    tb_json_string(f, v->text);
  else if (v->kind == 0 || !isfinite(v->num))
    fputs("null", f);
  else
    fprintf(f, "%.17g", v->num);
}

void tb__write_json(FILE *f, const tb_results_t *res, const tb_report_t *rep)
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
      tb__core_value(r, c, &v);
      fprintf(f, "\"%s\": ", tb__core[c].name);
      tb_json_val(f, &v);
      fputs(", ", f);
    }
    fprintf(f, "\"note\": ");
    tb_json_string(f, r->check.note);
    fprintf(f, ", \"tolerance\": ");
    tb__val_num(&v, r->check.tolerance, NULL);
    tb_json_val(f, &v);
    fprintf(f, ", \"repeats\": %d, \"bytes\": %.17g, \"flops\": %.17g, \"params\": {", r->repeats,
            r->bytes, r->flops);
    for (int c = 0; c < a->nparams; c++) {
      fprintf(f, "%s\"%s\": ", c ? ", " : "", a->params[c].name);
      tb__value(r, C_NCORE + c, &v);
      tb_json_val(f, &v);
    }
    fprintf(f, "}, \"columns\": {");
    for (int c = 0; c < a->ncolumns; c++) {
      fprintf(f, "%s\"%s\": ", c ? ", " : "", a->columns[c].name);
      tb__value(r, C_NCORE + a->nparams + c, &v);
      tb_json_val(f, &v);
    }
    fputs("}}", f);
  }
  fprintf(f, "\n  ],\n  \"speedups\": [");
  tb__speedup_t *sp = NULL;
  int ns = tb__speedups(res, &sp);
  for (int g = 0; g < ns; g++) {
    const tb__speedup_t *s = &sp[g];
    char cpu[96], gpu[96];
    tb__config_text(s->cpu, cpu, sizeof cpu);
    tb__config_text(s->gpu, gpu, sizeof gpu);
    fprintf(f, "%s\n    {\"precision\": \"%s\", \"size\": %lld, \"params\": {", g ? "," : "",
            tb_prec_name(s->cpu->prec), (long long)s->cpu->n);
    for (int c = 0; c < a->nparams; c++) {
      fprintf(f, "%s\"%s\": ", c ? ", " : "", a->params[c].name);
      tb__value(s->cpu, C_NCORE + c, &v);
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
