/* twinbench: the CUDA backend's variants (built only with CUDA). */
#include <config.h>

#include "../common/algo.h"

extern const tb_variant_t tb_stream_gpu_gridstride;
extern const tb_variant_t tb_stream_gpu_vec16;
extern const tb_variant_t tb_reduce_gpu_reduce0, tb_reduce_gpu_reduce1, tb_reduce_gpu_reduce2,
    tb_reduce_gpu_reduce3, tb_reduce_gpu_reduce4, tb_reduce_gpu_reduce5, tb_reduce_gpu_reduce6,
    tb_reduce_gpu_shfl, tb_reduce_gpu_vec16, tb_reduce_gpu_onepass, tb_reduce_gpu_cub;
extern const tb_variant_t tb_bs_gpu_gridstride;
extern const tb_variant_t tb_bs_gpu_pair;
extern const tb_variant_t tb_bs_gpu_quad;
extern const tb_variant_t tb_mc_gpu_twostep;
extern const tb_variant_t tb_mc_gpu_fused;
extern const tb_variant_t tb_mc_gpu_fused1b;
extern const tb_variant_t tb_bridge_gpu_const, tb_bridge_gpu_prefetch, tb_bridge_gpu_shared,
    tb_bridge_gpu_reuse, tb_bridge_gpu_wide, tb_bridge_gpu_smem;

const tb_variant_t *const tb_gpu_variants[] = {
    &tb_stream_gpu_gridstride,
    &tb_stream_gpu_vec16,
    &tb_reduce_gpu_reduce0,
    &tb_reduce_gpu_reduce1,
    &tb_reduce_gpu_reduce2,
    &tb_reduce_gpu_reduce3,
    &tb_reduce_gpu_reduce4,
    &tb_reduce_gpu_reduce5,
    &tb_reduce_gpu_reduce6,
    &tb_reduce_gpu_shfl,
    &tb_reduce_gpu_vec16,
    &tb_reduce_gpu_onepass,
    &tb_reduce_gpu_cub,
    &tb_bs_gpu_gridstride,
    &tb_bs_gpu_pair,
    &tb_bs_gpu_quad,
    &tb_mc_gpu_twostep,
    &tb_mc_gpu_fused,
    &tb_mc_gpu_fused1b,
    &tb_bridge_gpu_const,
    &tb_bridge_gpu_prefetch,
    &tb_bridge_gpu_shared,
    &tb_bridge_gpu_reuse,
    &tb_bridge_gpu_wide,
    &tb_bridge_gpu_smem,
    NULL,
};
