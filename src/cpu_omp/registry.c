/* twinbench: the OpenMP backend's variants. */
#include <config.h>

#include "../common/algo.h"

extern const tb_variant_t tb_stream_cpu_omp;
extern const tb_variant_t tb_reduce_cpu_serial, tb_reduce_cpu_omp, tb_reduce_cpu_simd,
    tb_reduce_cpu_padded, tb_reduce_cpu_pairwise;
extern const tb_variant_t tb_bs_cpu_omp;
extern const tb_variant_t tb_mc_cpu_omp;
extern const tb_variant_t tb_bridge_cpu_omp, tb_bridge_cpu_path;

const tb_variant_t *const tb_cpu_variants[] = {
    &tb_stream_cpu_omp,
    &tb_reduce_cpu_serial,
    &tb_reduce_cpu_omp,
    &tb_reduce_cpu_simd,
    &tb_reduce_cpu_padded,
    &tb_reduce_cpu_pairwise,
    &tb_bs_cpu_omp,
    &tb_mc_cpu_omp,
    &tb_bridge_cpu_omp,
    &tb_bridge_cpu_path,
    NULL,
};
