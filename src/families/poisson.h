/* twinbench: the spectral Poisson family: Laplacian(u) = f on the periodic
 * square [0,L)^2 (or cube [0,L)^3) with N points a side, solved by a
 * forward FFT, a divide by -|k|^2 (mode 0 set to zero) and an inverse FFT.
 *
 * One input array f and one output array u, N^dim values each, row-major
 * (the last index the contiguous one). The variants return the solution
 * whose mean (mode 0) is zero; the verifier compares it with a reference
 * solve in long double (the verdict: the variant's rounding, against a
 * derived bound) and, shifted as the textbook script shifts it (u - u at
 * grid point 0), with the exact solution (the err_linf and err_l2 columns:
 * the discretisation's error). A variant that only transforms (fftonly, the
 * baseline the solve is timed against) says so in the roundtrip column and
 * is verified as the round trip u = N^dim f. Derivations: doc/poisson.md. */
#ifndef TB_POISSON_H
#define TB_POISSON_H

#include <stdint.h>

#include "../common/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The algorithm's columns, in ctx->extra and in the rows. */
enum {
  TB_POISSON_ERR_LINF,  /* max |u - u_exact| after the textbook's shift (verifier) */
  TB_POISSON_ERR_L2,    /* ||u - u_exact||_2 / N^dim after the shift (verifier) */
  TB_POISSON_PLAN_MS,   /* the variant: milliseconds its FFT plans took in prepare */
  TB_POISSON_ROUNDTRIP, /* the variant: 1 for a transform-only baseline (no solve) */
  /* The breakdown of a GPU run (collect, untimed: median milliseconds of
   * each stage over TB_POISSON_STAGE_RUNS runs timed stage by stage with
   * events; NaN where the pipeline has no such stage, and on the CPU). */
  TB_POISSON_IN_MS,    /* c2c: f copied into the complex array (real2complex) */
  TB_POISSON_FWD_MS,   /* the forward transform (cb store: with its callback) */
  TB_POISSON_SOLVE_MS, /* the solve kernel */
  TB_POISSON_INV_MS,   /* the inverse transform (cb load: with its callback) */
  TB_POISSON_OUT_MS    /* c2c: the real part scaled into u (complex2real) */
};

/* The stage-by-stage runs behind the breakdown columns. */
#define TB_POISSON_STAGE_RUNS 21

/* The right-hand sides. */
enum { TB_POISSON_GAUSS, TB_POISSON_MODE };

/* The problem as variants see it. */
typedef struct tb_poisson {
  int f, u;      /* the arrays: right-hand side and solution */
  int dim;       /* 2 or 3 */
  int64_t n;     /* N, points a side */
  int64_t total; /* N^dim grid points */
  int64_t rows;  /* N^(dim-1): the lines along the contiguous axis */
  int64_t half;  /* N / 2 + 1: complex values a line of a real-to-complex transform keeps */
  double L;      /* the side of the domain */
} tb_poisson_t;

extern const tb_algo_t tb_algo_poisson;

/* The exact solution of problem p (before the textbook's shift) at grid
 * point j: the Gaussian, or the mode (whose grid mean is zero). */
double tb_poisson_solution(const tb_problem_t *p, int64_t j);

/* The signed frequency of index i of an axis of N points: i for i < N/2,
 * i - N from N/2 on (N/2 is the Nyquist frequency, taken as -N/2). */
static inline int64_t tb_poisson_freq(int64_t i, int64_t n)
{
  return i < n / 2 ? i : i - n;
}

/* k^2 of each index of an axis, (2 pi / L)^2 tb_poisson_freq(i, N)^2 for
 * i in [0, N), into k2[0, N): the table every FFTW twin's solve reads. */
void tb_poisson_axis_k2(const tb_poisson_t *s, double *k2);

/* The reference's radix-2 FFT, for tests of the twins' own transforms: x,
 * n interleaved complex values (n a power of two), replaced in place by
 * X_k = sum_j x_j exp(sign 2 pi i j k / n), unnormalised. TB_OK, or
 * TB_ENOMEM when its twiddles cannot be allocated. */
int tb_poisson_ref_fft(long double *x, int64_t n, int sign);

#ifdef __cplusplus
}
#endif
#endif
