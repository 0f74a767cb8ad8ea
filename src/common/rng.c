/* twinbench: parallel, deterministic random fills for problem generators. */
#include <config.h>

#include "philox.h"
#include "rng.h"

/* Each loop runs over Philox blocks, so a thread computes a block once and
 * writes all of its words; the static schedule keeps the output identical at
 * any thread count because every element is a pure function of its index. */

void tb_rng_uniform_f32(float *dst, int64_t n, uint64_t seed, uint32_t stream, float lo, float hi)
{
  int64_t nblocks = (n + 3) / 4;
  float w = hi - lo;
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < nblocks; b++) {
    tb_philox4_t r = tb_philox_block(seed, stream, (uint64_t)b);
    for (int j = 0; j < 4 && 4 * b + j < n; j++)
      dst[4 * b + j] = lo + w * tb_u01_f32(r.v[j]);
  }
}

void tb_rng_uniform_f64(double *dst, int64_t n, uint64_t seed, uint32_t stream, double lo,
                        double hi)
{
  int64_t nblocks = (n + 1) / 2;
  double w = hi - lo;
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < nblocks; b++) {
    tb_philox4_t r = tb_philox_block(seed, stream, (uint64_t)b);
    dst[2 * b] = lo + w * tb_u01_f64(r.v[0], r.v[1]);
    if (2 * b + 1 < n)
      dst[2 * b + 1] = lo + w * tb_u01_f64(r.v[2], r.v[3]);
  }
}

void tb_rng_int32(int32_t *dst, int64_t n, uint64_t seed, uint32_t stream, int32_t lo,
                  int32_t hi)
{
  int64_t nblocks = (n + 3) / 4;
  uint64_t range = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < nblocks; b++) {
    tb_philox4_t r = tb_philox_block(seed, stream, (uint64_t)b);
    for (int j = 0; j < 4 && 4 * b + j < n; j++)
      dst[4 * b + j] = (int32_t)((int64_t)lo + (int64_t)(((uint64_t)r.v[j] * range) >> 32));
  }
}

void tb_rng_uniform(tb_prec_t prec, void *dst, int64_t n, uint64_t seed, uint32_t stream,
                    double lo, double hi)
{
  switch (prec) {
  case TB_FLOAT: tb_rng_uniform_f32((float *)dst, n, seed, stream, (float)lo, (float)hi); break;
  case TB_DOUBLE: tb_rng_uniform_f64((double *)dst, n, seed, stream, lo, hi); break;
  default: tb_rng_int32((int32_t *)dst, n, seed, stream, (int32_t)lo, (int32_t)hi); break;
  }
}
