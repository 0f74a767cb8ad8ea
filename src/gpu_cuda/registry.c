/* twinbench: the CUDA backend's variants, a list per family (built only
 * with CUDA). */
#include <config.h>

#include "../common/algo.h"

#define TB_FAMILY(F) extern const tb_variant_t *const tb_##F##_gpu_variants[];
#include "../families/families.def"
#undef TB_FAMILY

const tb_variant_t *const *const tb_gpu_variants[] = {
#define TB_FAMILY(F) tb_##F##_gpu_variants,
#include "../families/families.def"
#undef TB_FAMILY
    NULL,
};
