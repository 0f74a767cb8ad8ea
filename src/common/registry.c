/* twinbench: the registry of algorithms and backends. To add an algorithm:
 * its descriptor in src/families/, its variants in src/cpu_omp/ and
 * src/gpu_cuda/, and one line in src/families/families.def. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

#define TB_FAMILY(F) extern const tb_algo_t tb_algo_##F;
#include "../families/families.def"
#undef TB_FAMILY

const tb_algo_t *const tb_algos[] = {
#define TB_FAMILY(F) &tb_algo_##F,
#include "../families/families.def"
#undef TB_FAMILY
    NULL,
};

extern const tb_backend_t tb_backend_cpu;
extern const tb_backend_t tb_backend_gpu;

/* The backends and, per backend, its variants of every family in one list. */
static struct {
  int n;
  const tb_backend_t *be[TB_MAX_BACKENDS];
  const tb_variant_t *variants[TB_MAX_BACKENDS][TB_MAX_VARIANTS + 1];
} tb_reg;

void tb_configs_free(tb_configs_t *c)
{
  for (int i = 0; i < c->n; i++)
    free(c->cfg[i]);
  free(c->cfg);
  c->cfg = NULL;
  c->n = 0;
}

const tb_algo_t *tb_algo_find(const char *name)
{
  for (const tb_algo_t *const *a = tb_algos; *a; a++)
    if (!strcmp((*a)->name, name))
      return *a;
  return NULL;
}

int tb_algo_fits(const tb_algo_t *algo)
{
  if (algo->nparams > TB_MAX_PARAMS || algo->ncolumns > TB_MAX_COLUMNS)
    return tb_fail(TB_EINVAL, "%s declares %d parameters and %d columns; a problem holds %d and %d",
                   algo->name, algo->nparams, algo->ncolumns, TB_MAX_PARAMS, TB_MAX_COLUMNS);
  return TB_OK;
}

static int tb_register(const tb_backend_t *be)
{
  int b = tb_reg.n, k = 0;
  if (b == TB_MAX_BACKENDS)
    return tb_fail(TB_EINVAL, "cannot register backend %s: %d are registered", be->name, b);
  for (int i = 0; i < b; i++)
    if (!strcmp(tb_reg.be[i]->name, be->name))
      return tb_fail(TB_EINVAL, "a backend called %s is registered already", be->name);
  if (be->ncolumns > TB_MAX_CONFIG_COLUMNS)
    return tb_fail(TB_EINVAL, "backend %s has %d columns; a row holds %d", be->name,
                   be->ncolumns, TB_MAX_CONFIG_COLUMNS);
  for (const tb_variant_t *const *const *l = be->variants; l && *l; l++)
    for (const tb_variant_t *const *v = *l; *v; v++) {
      if (k == TB_MAX_VARIANTS)
        return tb_fail(TB_EINVAL, "backend %s has more than %d variants", be->name, k);
      if ((*v)->ntuning > TB_MAX_TUNING)
        return tb_fail(TB_EINVAL, "variant %s has %d tuning parameters; a row holds %d",
                       (*v)->name, (*v)->ntuning, TB_MAX_TUNING);
      tb_reg.variants[b][k++] = *v;
    }
  tb_reg.variants[b][k] = NULL;
  tb_reg.be[b] = be;
  tb_reg.n++;
  return TB_OK;
}

/* The built-in backends, registered on first use. */
static void tb_registry_init(void)
{
  if (tb_reg.n)
    return;
  if (tb_register(&tb_backend_cpu) || tb_register(&tb_backend_gpu)) {
    fprintf(stderr, "twinbench: the built-in backends do not register: %s\n", tb_error_detail());
    tb_reg.n = 0;
  }
}

int tb_backend_register(const tb_backend_t *be)
{
  tb_registry_init();
  return tb_register(be);
}

int tb_backend_count(void)
{
  tb_registry_init();
  return tb_reg.n;
}

const tb_backend_t *tb_backend_at(int b)
{
  tb_registry_init();
  return b >= 0 && b < tb_reg.n ? tb_reg.be[b] : NULL;
}

int tb_backend_parse(const char *s, int *b)
{
  const char *names[TB_MAX_BACKENDS];
  tb_registry_init();
  for (int i = 0; i < tb_reg.n; i++)
    names[i] = tb_reg.be[i]->name;
  return tb_name_index(names, tb_reg.n, s, "unknown backend", b);
}

const tb_variant_t *const *tb_backend_variants(int b)
{
  static const tb_variant_t *const none[] = {NULL};
  tb_registry_init();
  return b >= 0 && b < tb_reg.n ? tb_reg.variants[b] : none;
}

const tb_variant_t *tb_variant_find(const tb_algo_t *algo, int b, const char *name)
{
  for (const tb_variant_t *const *v = tb_backend_variants(b); *v; v++)
    if ((*v)->algo == algo && !strcmp((*v)->name, name))
      return *v;
  return NULL;
}

int tb_variant_count(const tb_algo_t *algo, int b)
{
  int n = 0;
  for (const tb_variant_t *const *v = tb_backend_variants(b); *v; v++)
    n += (*v)->algo == algo;
  return n;
}
