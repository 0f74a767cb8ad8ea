/* twinbench: the registry of algorithms and backends.
 *
 * The algorithm table lives in registry.c; each backend lists its variants
 * in its own registry file (cpu_omp/registry.c, gpu_cuda/registry.c, or the
 * CUDA stub when CUDA is not built). */
#ifndef TB_REGISTRY_H
#define TB_REGISTRY_H

#include "algo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every algorithm, NULL-terminated. */
extern const tb_algo_t *const tb_algos[];

/* The backends, indexed by TB_CPU and TB_GPU. */
extern const tb_backend_t *const tb_backends[TB_NBACKENDS];

/* The algorithm called name, or NULL. */
const tb_algo_t *tb_algo_find(const char *name);

/* TB_OK if algo's parameters and columns fit a problem's fixed arrays
 * (tests/test_registry checks every registered algorithm). */
int tb_algo_fits(const tb_algo_t *algo);

/* Parse "cpu" or "gpu". */
int tb_backend_parse(const char *s, int *backend);

/* The variant of algo on backend called name, or NULL. */
const tb_variant_t *tb_variant_find(const tb_algo_t *algo, int backend, const char *name);

/* Number of variants of algo on backend. */
int tb_variant_count(const tb_algo_t *algo, int backend);

#ifdef __cplusplus
}
#endif
#endif
