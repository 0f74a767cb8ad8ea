/* twinbench: the registry of algorithms and backends.
 *
 * The algorithms are the families of src/families/families.def. The
 * backends are the CPU's and the GPU's (the CUDA stub when CUDA is not
 * built), registered first, and any that a program or a test registers. */
#ifndef TB_REGISTRY_H
#define TB_REGISTRY_H

#include "algo.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TB_MAX_BACKENDS 8
#define TB_MAX_VARIANTS 256 /* variants of one backend, all algorithms */

/* Every algorithm, NULL-terminated. */
extern const tb_algo_t *const tb_algos[];

/* The algorithm called name, or NULL. */
const tb_algo_t *tb_algo_find(const char *name);

/* TB_OK if algo's parameters and columns fit a problem's fixed arrays
 * (tests/test_registry checks every registered algorithm). */
int tb_algo_fits(const tb_algo_t *algo);

/* Add a backend after the built-in ones; TB_EINVAL when its name is taken,
 * the table is full or a variant does not fit (too many tuning
 * parameters, more columns than a row holds). */
int tb_backend_register(const tb_backend_t *be);

/* The registered backends, in order: the built-in CPU and GPU first. */
int tb_backend_count(void);
const tb_backend_t *tb_backend_at(int b);

/* The index of the backend called name, or TB_EINVAL with the known names. */
int tb_backend_parse(const char *s, int *b);

/* Backend b's variants, all algorithms, NULL-terminated. */
const tb_variant_t *const *tb_backend_variants(int b);

/* The variant of algo on backend b called name, or NULL. */
const tb_variant_t *tb_variant_find(const tb_algo_t *algo, int b, const char *name);

/* Number of variants of algo on backend b. */
int tb_variant_count(const tb_algo_t *algo, int b);

#ifdef __cplusplus
}
#endif
#endif
