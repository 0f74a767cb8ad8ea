/* twinbench: arithmetic for references and verifiers (host only). */
#ifndef TB_REFMATH_H
#define TB_REFMATH_H

#include <math.h>
#include <stdint.h>

#include "types.h"

/* Element i of an array of precision prec as a long double: exact for
 * int32, float and double, so references start from the inputs' true values. */
static inline long double tb_elem_ld(const void *x, tb_prec_t prec, int64_t i)
{
  switch (prec) {
  case TB_INT32: return (long double)((const int32_t *)x)[i];
  case TB_FLOAT: return (long double)((const float *)x)[i];
  default: return (long double)((const double *)x)[i];
  }
}

/* ceil(log2(m)) for m >= 1: the levels of a tree over m values. */
static inline int tb_log2_ceil(int64_t m)
{
  int k = 0;
  while (((int64_t)1 << k) < m)
    k++;
  return k;
}

/* The depth of a sum of n terms that a variant stated (NaN: none): any
 * order of n terms adds each at most n times, so a stated depth above n (a
 * tree over a few terms adding zeros) or none is n. */
static inline double tb_sum_depth(double stated, int64_t n)
{
  return isnan(stated) || stated > (double)n ? (double)n : stated;
}

/* Add y to the compensated sum (s, c) (Kahan: c carries the rounding error of s). */
static inline void tb_kahan_add(long double *s, long double *c, long double y)
{
  long double z = y - *c, t = *s + z;
  *c = (t - *s) - z;
  *s = t;
}

/* sum_i x_i y_i (y NULL: sum_i x_i) over n elements of precision prec,
 * compensated in long double over fixed chunks (so the result does not
 * depend on the thread count), the chunks' sums combined compensated too;
 * smallest (when not NULL) gets the smallest |term|. */
long double tb_ref_sum(const void *x, const void *y, tb_prec_t prec, int64_t n,
                       long double *smallest);

/* A sum's relative bound is vacuous when it allows as much as the smallest
 * term: a result that lost a term, or counted one twice, would pass. Turns
 * chk's pass into unverifiable then, saying so. */
struct tb_check;
int tb_ref_sum_vacuous(struct tb_check *chk, long double sum, long double smallest);

/* The unit roundoff of a floating-point precision (double's for int32, whose
 * references are exact). */
static inline double tb_unit_roundoff(tb_prec_t prec)
{
  return prec == TB_FLOAT ? ldexp(1.0, -24) : ldexp(1.0, -53);
}

/* Significant decimal digits that print a value of the precision exactly. */
static inline int tb_prec_digits(tb_prec_t prec)
{
  return prec == TB_FLOAT ? 9 : 17;
}

/* The standard normal CDF N(x), exactly up to long double rounding. */
static inline long double tb_ncdfl(long double x)
{
  return 0.5L * erfcl(-x * 0.707106781186547524400844362104849039L);
}

#endif
