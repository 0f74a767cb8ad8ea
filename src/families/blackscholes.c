/* twinbench: Black-Scholes European options: problem, reference, verifier, cost. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "options_math.h"
#include "../common/refmath.h"

static const char *const tb_bs_cnds[] = {"poly", "erfc", NULL};
static const char *const tb_bs_maths[] = {"libm", "fast", NULL};

static const tb_param_def_t tb_bs_params[] = {
    {"cnd", "the normal CDF: the published 5-term polynomial, or erfc (exact to rounding)",
     TB_PARAM_CHOICE, "poly", 0, 0, tb_bs_cnds, 0, NULL},
    {"math", "the formula as written (IEEE divisions, expf, sqrtf), or rearranged around one "
             "reciprocal square root and pre-scaled exp2 (hardware approximations on the GPU)",
     TB_PARAM_CHOICE, "libm", 0, 0, tb_bs_maths, 0, NULL},
};

enum { TB_BS_CND, TB_BS_MATH };

static const tb_preset_t tb_bs_presets[] = {
    {"nvidia2008", 1000000, "the published run (NVIDIA, 2008): one million options"},
};

enum { TB_BS_RATE, TB_BS_L1, TB_BS_MAXABS, TB_BS_PARITY };

static const tb_column_def_t tb_bs_columns[] = {
    {"options_per_s", "%.4g", "options priced per second of the median time", 0},
    {"l1", "%.3g", "L1 norm of the error over calls and puts: sum|x - ref| / sum|ref|", 0},
    {"max_abs", "%.3g", "largest |x - ref| over calls and puts", 0},
    {"parity", "%.3g", "largest |call - put - (S - X exp(-rT))|", 0},
};

/* The options_per_s column counts the options of a run. */
static double tb_bs_per_run(const tb_problem_t *p, int column)
{
  return column == TB_BS_RATE ? (double)p->n : NAN;
}

/* An option's exact call and put and the bounds its results are held to
 * (tb_bs_bounds): they depend on the problem only, so they are computed
 * once, not at every verification. */
typedef struct tb_bs_ref {
  double call, put, b_call, b_put, b_parity;
} tb_bs_ref_t;

typedef struct tb_bs_priv {
  tb_bs_t pub;
  tb_bs_ref_t *ref; /* per option; NULL until needed */
} tb_bs_priv_t;

static int tb_bs_setup(tb_problem_t *p)
{
  tb_bs_priv_t *bp = calloc(1, sizeof *bp);
  if (!bp)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = bp;
  tb_bs_t *b = &bp->pub;
  int rc = tb_optset_setup(p, &b->in);
  if (rc)
    return rc;
  tb_kind_t k = tb_prec_kind(p->prec);
  b->call = tb_problem_add_array(p, "call", k, TB_OUT, p->n);
  b->put = tb_problem_add_array(p, "put", k, TB_OUT, p->n);
  b->exact = (int)p->param[TB_BS_CND].i;
  b->fast = (int)p->param[TB_BS_MATH].i;
  p->extra_host_bytes = tb_count_add(p, p->extra_host_bytes,
                                     tb_count_mul(p, p->n, (int64_t)sizeof(tb_bs_ref_t)));
  return TB_OK;
}

static int tb_bs_generate(tb_problem_t *p)
{
  const tb_bs_t *b = p->priv;
  return tb_optset_generate(p, &b->in);
}

/* The exact call and put of an option, in long double with N by erfc. The
 * put uses N(-d) directly, so that small puts keep their relative accuracy. */
static void tb_bs_exact(const tb_option_t *o, long double *call, long double *put)
{
  long double s = o->s, x = o->x, t = o->t, r = o->r, v = o->v;
  long double vst = v * sqrtl(t);
  long double d1 = (logl(s / x) + (r + 0.5L * v * v) * t) / vst, d2 = d1 - vst;
  long double k = x * expl(-r * t);
  *call = s * tb_ncdfl(d1) - k * tb_ncdfl(d2);
  *put = k * tb_ncdfl(-d2) - s * tb_ncdfl(-d1);
}

/* The error of the computed N(d) = n, given the error e_d of the computed d:
 * the CDF's own approximation error (the polynomial's bound, 0 for erfc),
 * the propagated phi(d) e_d, and the rounding of N's own evaluation:
 *   poly: the tail phi(d) k P(k) has a relative error of
 *         libm: (68 + d^2) u: k = 1 / (1 + K |d|) is off by 3u, which k P(k)
 *               turns into at most TB_CND_KSENS x 3u; Horner's scheme 10u
 *               times sum|A_i| k^i / P(k) <= 4.5; exp's 4 ulps = 8u plus
 *               u d^2 from its rounded argument; 4u in the products;
 *         fast: (91 + 1.5 d^2) u: k by a reciprocal is off by 2u + 8u,
 *               times TB_CND_KSENS; Horner 45u as above; 2^x is off by 8u,
 *               plus ln 2 times its argument's error (3u of |TB_CND_EXPC|
 *               d^2 and 2u of |TB_CND_EXPC0|: 1.5u d^2 + 1.84u); one product;
 *         and 1 - tail one more u (the final absolute u also holds a tail
 *         below 2^-126 that the device's 2^x flushes to zero);
 *   erfc: the larger of the library erfc's (the GPU's) 4 ulps of its value
 *         (at most 8u N(d)) with 2u |d| phi(d) from the rounded argument,
 *         and a twin's own CDF's (TB_CND_TWIN_ERR + d^2 / 2) u of the tail
 *         (the OpenMP twin's, derived and tested in cpu_omp/vexp.h), and
 *         u for 1 - N. */
static double tb_bs_cnd_error(double d, double n, double e_d, int exact, int fast, double u)
{
  const double phi = TB_RSQRT2PI * exp(-0.5 * d * d);
  const double tail = d > 0 ? 1 - n : n;
  const double rel = fast ? 91 + 1.5 * d * d : 68 + d * d;
  double eval = exact ? fmax(8 * u * n + 2 * u * fabs(d) * phi,
                             tail * (TB_CND_TWIN_ERR + 0.5 * d * d) * u)
                      : tail * rel * u;
  return (exact ? 0.0 : TB_CND_POLY_ERR) + phi * e_d + eval + u;
}

/* The bounds on |call - ref|, |put - ref| and the parity residual of one
 * option computed in a precision of unit roundoff u, to first order, doubled
 * to cover what first order leaves out. Each libm call (log, exp, erfc) and
 * each hardware approximation of the fast form (2^x, 1 / x, 1 / sqrt x) is
 * allowed 4 ulps (8u); sqrt, the IEEE divisions and the arithmetic round once
 * (u each):
 *   ln(S/X) + a, a = (r + v^2/2) T:  e_num = u + 8u |ln(S/X)| + 4u (|r| + v^2/2) T
 *                                           + u (|ln(S/X)| + |a|)
 *   d1 = num / (v sqrt T):            e_d1 = e_num / (v sqrt T) + c1 u |d1|
 *   d2 = d1 - v sqrt T:               e_d2 = e_d1 + c2 u v sqrt T + u |d2|
 *   K = X exp(-r T):                  relative e_K
 *   N(d1), N(d2):                     dN_i = tb_bs_cnd_error(d_i, e_di)
 *   call = S N1 - K N2:    S dN1 + K dN2 + K N2 e_K + 3u (S N1 + K N2)
 *   put = K (1-N2) - S (1-N1):  S dN1 + K dN2 + K (1-N2) e_K + 3u (K (1-N2) + S (1-N1))
 * The OpenMP twin's explicit kernels may take N(d2)'s density from N(d1)'s (density=one:
 * K e^(-d2^2/2) = S e^(-d1^2/2), exact for exact d's, since d1^2 - d2^2 = 2 ln(S/K)). The
 * computed d's are d_i + delta_i; the tail's first-order change is then
 * tail (-d1 delta1 + (ln M)' delta2) (M the tail over the density) where the direct form's is
 * tail (-d2 delta2 + (ln M)' delta2) = -phi(d2) delta2, which phi(d2) e_d2 bounds: the excess
 * is tail |d1 delta1 - d2 delta2| = tail |v sqrt T delta1 + d2 (delta1 - delta2)|, at most
 * tail ((v sqrt T) e_d1 + |d2| (e_d2 - e_d1)), with (v sqrt T) e_d1 = e_num + c1 u |d1| v sqrt T
 * (no growth with v sqrt T), and the exponential's argument d1^2 / 2 rounded in place of
 * d2^2 / 2: u |d1^2 - d2^2| more. There K N2 is S times the density times the polynomial
 * (d2 <= 0, no K) or K less that (d2 > 0), so K's error enters K N2 whole where d2 > 0 and
 * K (1 - N2) whole where d2 <= 0: max(N2, [d2 > 0]) and max(1 - N2, [d2 <= 0]) in place of N2
 * and 1 - N2 in the e_K terms. Both are added to every row's bound (the direct forms' errors
 * lie within it all the more). The parity residual is unchanged: call - put still adds K N2
 * and K (1 - N2) back to K up to a rounding.
 * libm: v sqrt T is off by 2u (sqrt, product), the division adds u: c1 = 4,
 *   c2 = 3; e_K = 8u (exp) + 2u (products) + u |r T| (the rounded argument).
 * fast: 1 / sqrt T is off by 8u, so v sqrt T = v (T / sqrt T) by 10u and
 *   1 / (v sqrt T) = (1 / sqrt T) (1 / v) by 10u; d1 is their product: c1 = 11,
 *   c2 = 10; K = X 2^(-(r log2 e) T): 8u (2^x) + u (product) and ln 2 times
 *   the argument's 3u (log2 e, two products), e_K = 9u + 3u |r T|.
 * With the polynomial, dN holds its 7.5e-8, so a poly result is held to what
 * the polynomial can achieve. The parity residual call - put - (S - K) does
 * not see N at all (the errors of N1 and N2 cancel): only K's error and the
 * final arithmetic, K e_K + 8u (S + K). Each bound adds 4 u_d (S + K) for the
 * double rounding of the reference. */
static void tb_bs_bounds(const tb_option_t *o, int exact, int fast, double u, double *b_call,
                         double *b_put, double *b_parity)
{
  const double ud = tb_unit_roundoff(TB_DOUBLE);
  const double s = o->s, x = o->x, t = o->t, r = o->r, v = o->v;
  const double vst = v * sqrt(t), lq = log(s / x), a = (r + 0.5 * v * v) * t;
  const double d1 = (lq + a) / vst, d2 = d1 - vst, k = x * exp(-r * t);
  const double e_num = u + 8 * u * fabs(lq) + 4 * u * (fabs(r) + 0.5 * v * v) * t +
                       u * (fabs(lq) + fabs(a));
  const double e_d1 = e_num / vst + (fast ? 11 : 4) * u * fabs(d1);
  const double e_d2 = e_d1 + (fast ? 10 : 3) * u * vst + u * fabs(d2);
  const double e_k = fast ? 9 * u + 3 * u * fabs(r * t) : 10 * u + u * fabs(r * t);
  const double n1 = tb_cnd_erfc_f64(d1), n2 = tb_cnd_erfc_f64(d2);
  const double dn1 = tb_bs_cnd_error(d1, n1, e_d1, exact, fast, u);
  /* the OpenMP twin's one density (density=one): N(d2)'s tail from d1's density, relative
   * (v sqrt T) e_d1 + |d2| (e_d2 - e_d1) + u |d1^2 - d2^2|, and K in K N(d2) (d2 > 0) or
   * K (1 - N(d2)) (d2 <= 0) whole */
  const double e_one = vst * e_d1 + fabs(d2) * (e_d2 - e_d1) + u * fabs(d1 * d1 - d2 * d2);
  const double dn2 = tb_bs_cnd_error(d2, n2, e_d2, exact, fast, u) + (d2 > 0 ? 1 - n2 : n2) * e_one;
  const double kn2 = fmax(n2, d2 > 0), kq2 = fmax(1 - n2, d2 <= 0);
  const double ref_round = 4 * ud * (s + k);
  *b_call = 2 * (s * dn1 + k * dn2 + k * kn2 * e_k + 3 * u * (s * n1 + k * n2)) + ref_round;
  *b_put = 2 * (s * dn1 + k * dn2 + k * kq2 * e_k + 3 * u * (k * (1 - n2) + s * (1 - n1))) +
           ref_round;
  *b_parity = 2 * (k * e_k + 8 * u * (s + k)) + ref_round;
}

static int tb_bs_reference(tb_problem_t *p)
{
  tb_bs_priv_t *bp = p->priv;
  const tb_bs_t *b = &bp->pub;
  const double u = tb_unit_roundoff(p->prec);
  if (bp->ref)
    return TB_OK;
  bp->ref = malloc((size_t)p->n * sizeof *bp->ref);
  if (!bp->ref)
    return tb_fail(TB_ENOMEM, "cannot allocate the Black-Scholes reference (%lld options)",
                   (long long)p->n);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < p->n; i++) {
    tb_option_t o;
    long double c, q;
    tb_bs_ref_t *r = &bp->ref[i];
    tb_optset_get(p, &b->in, i, &o);
    tb_bs_exact(&o, &c, &q);
    r->call = (double)c;
    r->put = (double)q;
    tb_bs_bounds(&o, b->exact, b->fast, u, &r->b_call, &r->b_put, &r->b_parity);
  }
  return TB_OK;
}

/* Every call and put against the exact reference, each within its bound
 * (tb_bs_bounds), and put-call parity within its rounding-only bound. The
 * error column is the largest fraction of a bound used (pass <= 1). */
static int tb_bs_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  const tb_bs_priv_t *bp = p->priv;
  const tb_bs_t *b = &bp->pub;
  const void *call = view[b->call], *put = view[b->put];
  int rc = tb_bs_reference(p);
  if (rc)
    return rc;
  double sum_diff = 0.0, sum_ref = 0.0, max_abs = 0.0, max_par = 0.0;
  tb_worst_t worst = TB_WORST_NONE;
#pragma omp parallel
  {
    double sd = 0.0, sr = 0.0, ma = 0.0, mp = 0.0;
    tb_worst_t w = TB_WORST_NONE;
#pragma omp for schedule(static) nowait
    for (int64_t i = 0; i < p->n; i++) {
      const tb_bs_ref_t *r = &bp->ref[i];
      const double c = tb_optset_elem(p, call, i), q = tb_optset_elem(p, put, i);
      const double rc_ = r->call, rq = r->put;
      const double dc = fabs(c - rc_), dq = fabs(q - rq), par = fabs((c - q) - (rc_ - rq));
      sd += dc + dq;
      sr += fabs(rc_) + fabs(rq);
      ma = fmax(ma, fmax(dc, dq));
      mp = fmax(mp, par);
      tb_worst_see(&w, isnan(dc + dq + par) ? NAN : fmax(fmax(dc / r->b_call, dq / r->b_put),
                                                         par / r->b_parity), i);
    }
#pragma omp critical
    {
      sum_diff += sd;
      sum_ref += sr;
      max_abs = fmax(max_abs, ma);
      max_par = fmax(max_par, mp);
      tb_worst_merge(&worst, &w);
    }
  }
  extra[TB_BS_L1] = sum_diff / sum_ref;
  extra[TB_BS_MAXABS] = max_abs;
  extra[TB_BS_PARITY] = max_par;
  if (tb_check_against(chk, worst.err, 1.0)) {
    tb_option_t o;
    const int64_t at = worst.at;
    tb_optset_get(p, &b->in, at, &o);
    const double c = tb_optset_elem(p, call, at), q = tb_optset_elem(p, put, at);
    tb_check_fail(chk,
                  "option %lld (S %g, X %g, T %g): call %.9g (exact %.9g), put %.9g (exact "
                  "%.9g): %.3g times its bound%s",
                  (long long)at, o.s, o.x, o.t, c, bp->ref[at].call, q, bp->ref[at].put,
                  worst.err, tb_poison_note(c + q));
  }
  return TB_OK;
}

/* Three input arrays (five with per-option r and v) and two outputs, each
 * once. Flops per option, counting a libm call as one: 14 for d1, d2 and K,
 * 19 for each polynomial N (3 for an erfc-based N), 8 for the call and put. */
static void tb_bs_cost(const tb_problem_t *p, tb_cost_t *c)
{
  const tb_bs_t *b = p->priv;
  tb_optset_cost(p, &b->in, 2, c);
  c->flops = (b->exact ? 28.0 : 60.0) * (double)p->n;
}

static int tb_bs_dump(const tb_problem_t *p, void *const *view, FILE *f)
{
  const tb_bs_t *b = p->priv;
  int digits = tb_prec_digits(p->prec);
  fprintf(f, "S,X,T,r,v,call,put\n");
  for (int64_t i = 0; i < p->n; i++) {
    tb_optset_dump_row(f, p, &b->in, i);
    fprintf(f, ",%.*g,%.*g\n", digits, tb_optset_elem(p, view[b->call], i), digits,
            tb_optset_elem(p, view[b->put], i));
  }
  return TB_OK;
}

static void tb_bs_cleanup(tb_problem_t *p)
{
  tb_bs_priv_t *bp = p->priv;
  if (bp) {
    free(bp->ref);
    tb_optset_free(&bp->pub.in);
  }
  free(bp);
  p->priv = NULL;
}

const tb_algo_t tb_algo_blackscholes = {
    .name = "blackscholes",
    .summary = "Black-Scholes European calls and puts in closed form (NVIDIA, 2008)",
    .flags = TB_ALGO_INPUT,
    .precisions = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_precisions = TB_PREC_BIT(TB_FLOAT),
    .default_sizes = "nvidia2008",
    .size_meaning = "options (each priced as a call and a put)",
    .presets = tb_bs_presets,
    .npresets = TB_COUNT(tb_bs_presets),
    .params = tb_bs_params,
    .nparams = TB_COUNT(tb_bs_params),
    .columns = tb_bs_columns,
    .ncolumns = TB_COUNT(tb_bs_columns),
    .error_meaning = "largest fraction of its derived bound that a call, a put or a put-call "
                     "parity residual uses (pass <= 1); the bounds allow the polynomial CDF's "
                     "7.5e-8 (cnd=poly) and the rounding of the formula (math=libm or fast)",
    .setup = tb_bs_setup,
    .generate = tb_bs_generate,
    .verify = tb_bs_verify,
    .cost = tb_bs_cost,
    .dump = tb_bs_dump,
    .cleanup = tb_bs_cleanup,
    .per_run = tb_bs_per_run,
};
