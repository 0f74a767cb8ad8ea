/* twinbench: the registry of algorithms and backends.
 *
 * To add an algorithm: its descriptor in src/common/, its variants in
 * src/cpu_omp/ and src/gpu_cuda/, one line below and one line in each
 * backend's registry file. The runner needs no change. */
#include <config.h>

#include <string.h>

#include "../families/bridge.h"
#include "../families/options.h"
#include "../families/reduce.h"
#include "registry.h"
#include "../families/stream.h"

const tb_algo_t *const tb_algos[] = {
    &tb_algo_stream,
    &tb_algo_reduce,
    &tb_algo_blackscholes,
    &tb_algo_montecarlo,
    &tb_algo_bridge,
    NULL,
};

extern const tb_backend_t tb_backend_cpu;
extern const tb_backend_t tb_backend_gpu;

const tb_backend_t *const tb_backends[TB_NBACKENDS] = {&tb_backend_cpu, &tb_backend_gpu};

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

int tb_backend_parse(const char *s, int *backend)
{
  for (int b = 0; b < TB_NBACKENDS; b++)
    if (!strcmp(tb_backends[b]->name, s)) {
      *backend = b;
      return TB_OK;
    }
  return tb_fail(TB_EINVAL, "unknown backend '%s' (known: cpu, gpu)", s);
}

const tb_variant_t *tb_variant_find(const tb_algo_t *algo, int backend, const char *name)
{
  for (const tb_variant_t *const *v = tb_backends[backend]->variants; *v; v++)
    if ((*v)->algo == algo && !strcmp((*v)->name, name))
      return *v;
  return NULL;
}

int tb_variant_count(const tb_algo_t *algo, int backend)
{
  int n = 0;
  for (const tb_variant_t *const *v = tb_backends[backend]->variants; *v; v++)
    n += (*v)->algo == algo;
  return n;
}
