/* twinbench: the CUDA backend's variants (built only with CUDA). */
#include <config.h>

#include "../common/algo.h"

extern const tb_variant_t tb_stream_gpu_gridstride;
extern const tb_variant_t tb_stream_gpu_vec16;

const tb_variant_t *const tb_gpu_variants[] = {
    &tb_stream_gpu_gridstride,
    &tb_stream_gpu_vec16,
    NULL,
};
