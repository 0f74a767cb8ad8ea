/* twinbench: the option pricing family, Black-Scholes and Monte Carlo.
 *
 * blackscholes: n European options priced in closed form (call and put), with
 *   the normal CDF as the published polynomial (cnd=poly) or erfc (cnd=erfc),
 *   by the formula as written (math=libm) or rearranged (math=fast).
 * montecarlo: n European options (call or put) priced by simulating `paths`
 *   terminal prices each, from Philox normals that depend only on (seed,
 *   option, path); price and standard error per option.
 * Both read the same inputs (options_io.h): generated, or --input FILE.csv. */
#ifndef TB_OPTIONS_H
#define TB_OPTIONS_H

#include "../common/problem.h"
#include "options_io.h"
#include "options_math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The Black-Scholes problem as variants see it (the first member of p->priv). */
typedef struct tb_bs {
  tb_optset_t in;
  int call, put; /* the output arrays */
  int exact;     /* 1: N by erfc; 0: by the polynomial */
  int fast;      /* 1: math=fast, the rearranged formula (options_math.h) */
} tb_bs_t;

/* The Monte Carlo problem as variants see it (the first member of p->priv). */
typedef struct tb_mc {
  tb_optset_t in;
  int price, se;   /* the output arrays: price and its standard error */
  int64_t paths;   /* simulated terminal prices per option */
  int64_t samples; /* independent samples per option: paths, or paths / 2 antithetic pairs,
                      one normal each */
  int anti;        /* antithetic pairs (z, -z) */
  int put;         /* 1: put payoff; 0: call */
  int fast;        /* 1: math=fast (options_math.h) */
} tb_mc_t;

/* Paths of a CPU work item: the OpenMP twin sums each option's samples in
 * items of TB_MC_CHUNK Philox groups, in a fixed order, so that its prices do
 * not depend on the thread count at all. */
#define TB_MC_CHUNK 1024

/* The OpenMP twin's work items per option, of TB_MC_CHUNK Philox groups. */
static inline int64_t tb_mc_chunks(tb_prec_t prec, int64_t samples)
{
  const int64_t w = prec == TB_FLOAT ? TB_MC_W_F32 : TB_MC_W_F64;
  return ((samples + w - 1) / w + TB_MC_CHUNK - 1) / TB_MC_CHUNK;
}

extern const tb_algo_t tb_algo_blackscholes;
extern const tb_algo_t tb_algo_montecarlo;

/* The exact mean and variance of one Monte Carlo sample of option o (the
 * undiscounted payoff, or the antithetic pair's mean), in closed form. For
 * the verifier and its tests. */
void tb__mc_moments(const tb_option_t *o, int put, int anti, long double *mean,
                    long double *var);

#ifdef __cplusplus
}
#endif
#endif
