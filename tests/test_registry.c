/* The registry is consistent: every algorithm fits the fixed limits of a
 * problem (parameters, columns), names are unique, parameter defaults parse,
 * no parameter name clashes with an option of 'twinbench run' (every
 * parameter is also an option --NAME), and every variant belongs to a
 * registered algorithm, sits on its own backend and supports only precisions
 * its algorithm has. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "common/registry.h"
#include "testutil.h"

/* The long options of 'twinbench run' (src/twinbench.c). */
static const char *const run_options[] = {
    "backend", "variant", "precision", "size", "param", "threads", "placement", "block", "grid",
    "repeat", "warmup", "format", "output", "input", "dump", "seed", "no-verify", "limit-size",
    "pivot", "help", NULL};

int main(void)
{
  int nalgos = 0;
  for (const tb_algo_t *const *a = tb_algos; *a; a++, nalgos++) {
    const tb_algo_t *al = *a;
    CHECK(tb_algo_fits(al) == TB_OK, "%s", tb_error_detail());
    CHECK(al->precisions && (al->default_precisions & ~al->precisions) == 0,
          "%s: default precisions outside its precisions", al->name);
    CHECK(al->setup && al->generate && al->verify && al->cost, "%s lacks a required function",
          al->name);
    CHECK(tb_algo_find(al->name) == al, "%s is not found by name (a duplicate?)", al->name);
    for (int k = 0; k < al->nparams; k++) {
      const tb_param_def_t *d = &al->params[k];
      for (int o = 0; run_options[o]; o++)
        CHECK(strcmp(d->name, run_options[o]), "%s: parameter %s clashes with --%s", al->name,
              d->name, run_options[o]);
      for (int j = 0; j < k; j++)
        CHECK(strcmp(d->name, al->params[j].name), "%s: parameter %s twice", al->name, d->name);
      tb_param_value_t *v = NULL;
      int n = 0;
      CHECK(tb_param_parse_list(d, d->defaults, &v, &n) == TB_OK, "%s: default of %s: %s",
            al->name, d->name, tb_error_detail());
      for (int j = 0; j < n; j++)
        tb_param_value_free(&v[j]);
      free(v);
    }
    for (int c = 0; c < al->ncolumns; c++)
      CHECK(al->columns[c].name && al->columns[c].format, "%s: column %d unnamed", al->name, c);
  }
  CHECK(nalgos >= 1, "no algorithms registered");

  for (int b = 0; b < TB_NBACKENDS; b++)
    for (const tb_variant_t *const *v = tb_backends[b]->variants; *v; v++) {
      const tb_variant_t *var = *v;
      int known = 0;
      for (const tb_algo_t *const *a = tb_algos; *a; a++)
        known |= *a == var->algo;
      CHECK(known, "variant %s belongs to no registered algorithm", var->name);
      CHECK(var->backend == b, "variant %s is listed on the %s backend", var->name,
            tb_backends[b]->name);
      CHECK(var->run != NULL, "variant %s has no run", var->name);
      CHECK(var->precisions && (var->precisions & ~var->algo->precisions) == 0,
            "variant %s supports precisions %s does not have", var->name, var->algo->name);
      CHECK(tb_variant_find(var->algo, b, var->name) == var, "variant %s of %s twice on %s",
            var->name, var->algo->name, tb_backends[b]->name);
    }
  TEST_EXIT();
}
