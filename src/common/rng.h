/* twinbench: problem generators' random fills, on the host, from Philox.
 *
 * Element i of a fill depends only on (seed, stream, i): the fills run in
 * parallel with OpenMP and give the same array at any thread count, and a
 * GPU kernel using philox.h can produce the same values. */
#ifndef TB_RNG_H
#define TB_RNG_H

#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Uniforms lo + (hi - lo) u, u in (0, 1); element i is word i % 4 of block i / 4. */
void tb_rng_uniform_f32(float *dst, int64_t n, uint64_t seed, uint32_t stream, float lo, float hi);

/* Uniforms lo + (hi - lo) u, u in (0, 1); element i uses words 2(i % 2), 2(i % 2) + 1 of block i / 2. */
void tb_rng_uniform_f64(double *dst, int64_t n, uint64_t seed, uint32_t stream, double lo,
                        double hi);

/* Integers uniform on [lo, hi] (multiply-shift of word i % 4 of block i / 4). */
void tb_rng_int32(int32_t *dst, int64_t n, uint64_t seed, uint32_t stream, int32_t lo,
                  int32_t hi);

/* Uniforms in the problem's precision: dispatches to the fills above. */
void tb_rng_uniform(tb_prec_t prec, void *dst, int64_t n, uint64_t seed, uint32_t stream,
                    double lo, double hi);

#ifdef __cplusplus
}
#endif
#endif
