/* twinbench: the reduction family: the sum of n numbers.
 *
 * One input array x of n elements and one output array of one element, the
 * sum, in the problem's precision (int32, float or double); every variant
 * accumulates in that precision, so that float shows what the order of the
 * additions does to the result. The error of a floating-point sum depends
 * on that order only through the longest chain of additions an input takes
 * part in (the "depth" h): |sum - exact| <= ((1 + u)^h - 1) sum|x|. Each
 * variant reports the h of its own order in the depth column (ctx->extra),
 * and the verifier derives the tolerance from it. */
#ifndef TB_REDUCE_H
#define TB_REDUCE_H

#include <stdint.h>

#include "../common/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The algorithm's columns, in ctx->extra and in the rows. */
enum {
  TB_REDUCE_RESULT,   /* the sum the variant computed (filled by the verifier) */
  TB_REDUCE_DEPTH,    /* the longest addition chain of the variant's order */
  TB_REDUCE_LAUNCHES, /* GPU: kernel launches per reduction */
  TB_REDUCE_REGS,     /* GPU: registers per thread of the main kernel */
  TB_REDUCE_OCCUPANCY /* GPU: resident threads per SM / the SM's maximum, main kernel */
};

/* The largest int32 problem: its inputs are drawn from 1..M with
 * M = min(1000, (2^31 - 1) / n) >= 2, so that no partial sum of any order
 * exceeds n M <= 2^31 - 1 and the int32 sum is exact. */
#define TB_REDUCE_INT32_MAX_N ((int64_t)((((int64_t)1 << 31) - 1) / 2))

/* The problem as variants see it: which array is which. */
typedef struct tb_reduce {
  int x;   /* the n inputs */
  int sum; /* the one-element output */
} tb_reduce_t;

extern const tb_algo_t tb_algo_reduce;

/* The tolerance of a sum of positive inputs relative to sum|x| for a
 * summation order of depth h: 0 for int32 (exact), otherwise
 * (1 + u)^h - 1 (which is at most gamma_h = h u / (1 - h u) while h u < 1 and
 * stays defined beyond) plus 2^-60 for the reference's own error. */
double tb_reduce_tolerance(tb_prec_t prec, double depth);

#ifdef __cplusplus
}
#endif
#endif
