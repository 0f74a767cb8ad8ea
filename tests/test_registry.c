/* The registry is consistent: every algorithm fits the fixed limits of a
 * problem (parameters, columns), names are unique, parameter defaults parse,
 * no parameter name clashes with an option of 'twinbench run' (every
 * parameter is also an option --NAME), a problem parameter is no backend
 * option or tuning parameter (a --NAME must mean one thing), and every
 * variant belongs to a registered algorithm, is listed once on its backend,
 * supports only precisions its algorithm has, and has tuning parameters
 * whose defaults parse. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/grammar.h"
#include "common/params.h"
#include "common/registry.h"
#include "testutil.h"

/* Whether name is a backend option or a backend's or variant's tuning
 * parameter anywhere in the build. */
static int is_option_or_tuning(const char *name)
{
  for (int b = 0; b < tb_backend_count(); b++) {
    const tb_backend_t *be = tb_backend_at(b);
    if (tb_param_index(be->options, be->noptions, name) >= 0 ||
        tb_param_index(be->tuning, be->ntuning, name) >= 0)
      return 1;
    for (const tb_variant_t *const *v = tb_backend_variants(b); *v; v++)
      if (tb_param_index((*v)->tuning, (*v)->ntuning, name) >= 0)
        return 1;
  }
  return 0;
}

/* Every parameter of defs is unique there, no run option, and its default parses. */
static void check_params(const char *who, const tb_param_def_t *defs, int n)
{
  for (int k = 0; k < n; k++) {
    const tb_param_def_t *d = &defs[k];
    CHECK(!tb_grammar_is_fixed(d->name), "%s: parameter %s clashes with --%s", who, d->name,
          d->name);
    for (int j = 0; j < k; j++)
      CHECK(strcmp(d->name, defs[j].name), "%s: parameter %s twice", who, d->name);
    tb_param_value_t *v = NULL;
    int nv = 0;
    CHECK(tb_param_parse_list(d, d->defaults, &v, &nv) == TB_OK,
          "%s: default of %s: %s", who, d->name, tb_error_detail());
    tb_param_list_free(v, nv);
  }
}

static void check_algos(void)
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
    check_params(al->name, al->params, al->nparams);
    for (int k = 0; k < al->nparams; k++)
      CHECK(!is_option_or_tuning(al->params[k].name),
            "%s: parameter %s is also a backend option or tuning parameter", al->name,
            al->params[k].name);
    for (int c = 0; c < al->ncolumns; c++)
      CHECK(al->columns[c].name && al->columns[c].format, "%s: column %d unnamed", al->name, c);
  }
  CHECK(nalgos >= 1, "no algorithms registered");
}

static void check_variants(int b)
{
  const tb_backend_t *be = tb_backend_at(b);
  check_params(be->name, be->tuning, be->ntuning);
  for (const tb_variant_t *const *v = tb_backend_variants(b); *v; v++) {
    const tb_variant_t *var = *v;
    int known = 0;
    for (const tb_algo_t *const *a = tb_algos; *a; a++)
      known |= *a == var->algo;
    CHECK(known, "variant %s belongs to no registered algorithm", var->name);
    CHECK(var->run != NULL, "variant %s has no run", var->name);
    CHECK(var->precisions && (var->precisions & ~var->algo->precisions) == 0,
          "variant %s supports precisions %s does not have", var->name, var->algo->name);
    CHECK(tb_variant_find(var->algo, b, var->name) == var, "variant %s of %s twice on %s",
          var->name, var->algo->name, be->name);
    CHECK(var->ntuning <= TB_MAX_TUNING, "variant %s: %d tuning parameters", var->name,
          var->ntuning);
    check_params(var->name, var->tuning, var->ntuning);
  }
}

int main(void)
{
  check_algos();
  CHECK(tb_backend_count() >= 2, "%d backends registered", tb_backend_count());
  for (int b = 0; b < tb_backend_count(); b++)
    check_variants(b);
  TEST_EXIT();
}
