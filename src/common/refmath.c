/* twinbench: arithmetic for references and verifiers (host only). */
#include <config.h>

#include "refmath.h"

long double tb_ref_sum(const void *x, const void *y, tb_prec_t prec, int64_t n)
{
  /* Fixed chunks, so that the result does not depend on the thread count. */
  enum { TB_REF_CHUNKS = 256 };
  const int64_t nchunks = n < 4096 ? 1 : TB_REF_CHUNKS;
  long double part[TB_REF_CHUNKS];
#pragma omp parallel for schedule(dynamic)
  for (int64_t k = 0; k < nchunks; k++) {
    long double s = 0.0L, c = 0.0L;
    for (int64_t i = n * k / nchunks; i < n * (k + 1) / nchunks; i++)
      tb_kahan_add(&s, &c, y ? tb_elem_ld(x, prec, i) * tb_elem_ld(y, prec, i)
                             : tb_elem_ld(x, prec, i));
    part[k] = s;
  }
  long double s = 0.0L, c = 0.0L;
  for (int64_t k = 0; k < nchunks; k++)
    tb_kahan_add(&s, &c, part[k]);
  return s;
}
