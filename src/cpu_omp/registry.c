/* twinbench: the OpenMP backend's variants, a list per family. */
#include <config.h>

#include "../common/algo.h"

#define TB_FAMILY(F) extern const tb_variant_t *const tb_##F##_cpu_variants[];
#include "../families/families.def"
#undef TB_FAMILY

const tb_variant_t *const *const tb_cpu_variants[] = {
#define TB_FAMILY(F) tb_##F##_cpu_variants,
#include "../families/families.def"
#undef TB_FAMILY
    NULL,
};
