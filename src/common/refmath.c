/* twinbench: arithmetic for references and verifiers (host only). */
#include <config.h>

#include "problem.h"
#include "refmath.h"

long double tb_ref_sum(const void *x, const void *y, tb_prec_t prec, int64_t n,
                       long double *smallest)
{
  /* Fixed chunks, so that the result does not depend on the thread count. */
  enum { TB_REF_CHUNKS = 256 };
  const int64_t nchunks = n < 4096 ? 1 : TB_REF_CHUNKS;
  long double part[TB_REF_CHUNKS], least[TB_REF_CHUNKS];
#pragma omp parallel for schedule(dynamic)
  for (int64_t k = 0; k < nchunks; k++) {
    long double s = 0.0L, c = 0.0L, m = INFINITY;
    for (int64_t i = n * k / nchunks; i < n * (k + 1) / nchunks; i++) {
      long double t = y ? tb_elem_ld(x, prec, i) * tb_elem_ld(y, prec, i) : tb_elem_ld(x, prec, i);
      tb_kahan_add(&s, &c, t);
      m = fabsl(t) < m ? fabsl(t) : m;
    }
    part[k] = s;
    least[k] = m;
  }
  long double s = 0.0L, c = 0.0L, m = INFINITY;
  for (int64_t k = 0; k < nchunks; k++) {
    tb_kahan_add(&s, &c, part[k]);
    m = least[k] < m ? least[k] : m;
  }
  if (smallest)
    *smallest = m;
  return s;
}

int tb_ref_sum_vacuous(tb_check_t *chk, long double sum, long double smallest)
{
  const long double slack = (long double)chk->tolerance * fabsl(sum);
  if (chk->verdict == TB_PASS && slack >= smallest)
    tb_check_unverifiable(chk, "the bound (%.3g of %.6Lg) is as large as the smallest term "
                               "(%.3Lg): a lost or repeated term would pass",
                          chk->tolerance, sum, smallest);
  return TB_OK;
}
