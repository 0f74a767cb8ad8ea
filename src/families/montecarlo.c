/* twinbench: Monte Carlo European options: problem, statistical verifier, cost.
 *
 * The verifier holds each option's price against the Black-Scholes closed
 * form with a bound that is statistical (the sampling error) plus a rounding
 * term (the precision's error in each path):
 *
 *   |price - bs| <= c se + b,
 *
 * where se = sigma / sqrt(M) is the exact standard error of the mean of M
 * samples (sigma from the closed-form variance of one sample, tb__mc_moments,
 * so a variant that reports a wrong standard error cannot widen its own
 * bound), and c keeps the family-wise false-alarm rate over all n options
 * at most TB_MC_ALPHA (Bonferroni: each option at level alpha / n):
 *   - where the mean of M samples is close to normal, c = k, the two-sided
 *     normal quantile of alpha / n (k = 5.8 for 128 options, 7.1 for 2^20).
 *     "Close" means the mean's skewness, estimated as the larger of
 *     1 / sqrt(M p) (p the chance that a sample is not zero: rare in-the-money
 *     paths) and g(sig) / sqrt(M) (g the lognormal's skewness), is at most
 *     0.05; the Edgeworth correction to a k-sigma tail is then within a
 *     factor of about 3;
 *   - elsewhere (deep out of the money, few paths, large v sqrt T),
 *     c = sqrt(n / alpha), Chebyshev's inequality, which needs only the
 *     exact variance.
 * b bounds the rounding of the simulation on the same uniforms, in either
 * form of the formulas (math=libm or fast, options_math.h): with u the unit
 * roundoff and each libm call or hardware approximation allowed 4 ulps (8u;
 * the device's __sincosf is within 6u on the angles used), a normal from
 * Box-Muller is off by at most dz = r_max 30u: the radius sqrt(w),
 * w = -2 ln u1, by 4u from the log and 9u from w / sqrt(w) (fast; 1 / sqrt
 * 8u, a product u) or u (libm, sqrt), the angle 2 pi u2 - pi by 3 pi u and
 * its sine or cosine by 6u, the product u; r_max is the largest radius
 * sqrt(-2 ln u1) the uniforms allow (6.7 in float, counting cuRAND's 2^-32;
 * 8.6 in double). The terminal price S e^(mu + sig z) (fast: S 2^(mu' +
 * sig' z), the argument scaled by log2 e, which adds 2u to mu and sig) is then
 * off by a relative
 *   E = 11u + 4u (|r| + v^2/2) T + 2u |mu| + sig (dz + 4u r_max) + u (|mu| + sig r_max)
 * (8u for exp or 2^x, 3u for the products; mu's own rounding; the argument's
 * fma; a result below 2^-126 flushed to zero on the device is off by less
 * than u S), and so is each payoff (a max with 0 does not add error); the
 * mean of S_T e^(-rT) is S, doubled for the sample's deviation from it. The
 * sums: a payoff is at most S_T for a call and X for a put, so the mean
 * payoff is at most m = S e^(|r| T) + X; samples added in the precision, at
 * most 4 TB_MC_FSUM_GROUPS of them (the fast float GPU kernels; four
 * elsewhere), the antithetic mean and the final discount add (4 G + 2) u m
 * (G = TB_MC_FSUM_GROUPS), and the double sums of M terms at most M u_d m in
 * any order:
 *   b = 2 S E + (4 G + 2) u m + 2 M u_d m.
 * The same b bounds how far two runs on the same paths (CPU and GPU) may each
 * be from exact arithmetic, hence the "same seed agrees to rounding" test.
 *
 * The reported standard error is checked too where the normal regime holds:
 * it must be at least half the exact one. Only this lower side is checked:
 * the sample variance of lognormal payoffs has a heavy right tail, so a
 * two-sided window would either be wide or fail spuriously, while a standard
 * error reported too small (an over-confident interval) is the harmful
 * error. The exact computation of the standard error is tested apart. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "options_math.h"
#include "../common/philox.h"
#include "../common/refmath.h"

/* The family-wise false-alarm rate of one verification. */
#define TB_MC_ALPHA 1e-6
/* The largest skewness of the mean for which the normal quantile is used. */
#define TB_MC_MAX_SKEW 0.05
/* The 95% interval of the dump: price -+ 1.96 standard errors, as published. */
#define TB_MC_Z95 1.96

static const char *const tb_mc_noyes[] = {"no", "yes", NULL};
static const char *const tb_mc_payoffs[] = {"call", "put", NULL};
static const char *const tb_mc_maths[] = {"libm", "fast", NULL};

static const tb_param_def_t tb_mc_params[] = {
    {"paths", "simulated paths (terminal prices) per option", TB_PARAM_INT, "2^18", 2,
     4294967296.0, NULL, 0, NULL},
    {"antithetic", "antithetic variates: paths in pairs (z, -z), one normal per pair",
     TB_PARAM_CHOICE, "no", 0, 0, tb_mc_noyes, 0, NULL},
    {"payoff", "the European option priced", TB_PARAM_CHOICE, "call", 0, 0, tb_mc_payoffs, 0, NULL},
    {"math", "the formulas with the library's exp and sqrt, or with pre-scaled exp2 and a "
             "reciprocal square root (hardware approximations and float partial sums on the GPU)",
     TB_PARAM_CHOICE, "libm", 0, 0, tb_mc_maths, 0, NULL},
};

enum { TB_MC_PATHS, TB_MC_ANTI, TB_MC_PAYOFF, TB_MC_MATH };

enum { TB_MC_RATE, TB_MC_SRATE, TB_MC_ZMAX, TB_MC_K, TB_MC_SEMEAN, TB_MC_SERATIO, TB_MC_TELLS };

static const tb_column_def_t tb_mc_columns[] = {
    {"options_per_s", "%.4g", "options priced per second of the median time", 0},
    {"samples_per_s", "%.4g", "paths simulated per second of the median time (options x paths)", 0},
    {"z_max", "%.3g", "largest |price - Black-Scholes| in exact standard errors", 0},
    {"k", "%.3g", "the normal quantile the prices were held to (family-wise rate 1e-6)", 0},
    {"se_mean", "%.4g", "the mean reported standard error over the options", 0},
    {"se_ratio", "%.4g", "mean of reported over exact standard error (normal-regime options)", 0},
    {"tells", "%.3g", "the fraction of options whose bound is below their price (a bound that "
                      "would catch a price of 0); none: the row is unverifiable", 0},
};

/* The rate columns count the options, and the paths, of a run. */
static double tb_mc_per_run(const tb_problem_t *p, int column)
{
  const tb_mc_t *m = p->priv;
  return column == TB_MC_RATE    ? (double)p->n
         : column == TB_MC_SRATE ? (double)p->n * (double)m->paths
                                 : NAN;
}

/* What the verifier knows of one option, computed once per problem. */
typedef struct tb_mc_ref {
  double bs;    /* the Black-Scholes price */
  double se;    /* the exact standard error of the price */
  double allow; /* the bound on |price - bs| */
  int normal;   /* the mean is in the normal regime */
} tb_mc_ref_t;

typedef struct tb_mc_priv {
  tb_mc_t pub;
  tb_mc_ref_t *ref; /* NULL until needed */
  double k;         /* the normal quantile of the bound */
  int64_t tells;    /* options whose bound is below their price */
} tb_mc_priv_t;

/* Whether every simulated price fits in the run's precision: S e^(mu + sig
 * z) for the largest normal the run draws (6.7 in float, 8.6 in double),
 * with room for the sums. Generated options always fit; a file's option
 * that does not is refused here, before it could end as a verification
 * failure. */
static int tb_mc_check_range(const tb_problem_t *p, const tb_mc_t *m)
{
  const double most = (p->prec == TB_FLOAT ? FLT_MAX : DBL_MAX) / 16;
  const double zmax = tb_box_muller_zmax(p->prec);
  for (int64_t i = 0; m->in.file && i < p->n; i++) {
    tb_option_t o;
    tb_optset_file_get(&m->in, i, &o);
    const double mu = (o.r - 0.5 * o.v * o.v) * o.t, sig = o.v * sqrt(o.t);
    const double reach = o.s * exp(mu + sig * zmax) + o.x;
    if (!(reach <= most))
      return tb_fail(TB_EINVAL, "%s: option %lld (S %g, T %g, v %g): simulated prices reach "
                                "%.3g, more than %s holds: use double",
                     p->input_path, (long long)i + 1, o.s, o.t, o.v, reach,
                     tb_prec_name(p->prec));
  }
  return TB_OK;
}

static int tb_mc_setup(tb_problem_t *p)
{
  tb_mc_priv_t *mp = calloc(1, sizeof *mp);
  if (!mp)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = mp;
  tb_mc_t *m = &mp->pub;
  m->paths = p->param[TB_MC_PATHS].i;
  m->anti = (int)p->param[TB_MC_ANTI].i;
  m->put = (int)p->param[TB_MC_PAYOFF].i;
  m->fast = (int)p->param[TB_MC_MATH].i;
  if (m->anti && (m->paths % 2 || m->paths < 4))
    return tb_fail(TB_EINVAL, "antithetic paths come in pairs: paths must be even and at "
                   "least 4, not %lld", (long long)m->paths);
  m->samples = m->anti ? m->paths / 2 : m->paths;
  int rc = tb_optset_setup(p, &m->in);
  if (rc || (rc = tb_mc_check_range(p, m)))
    return rc;
  tb_kind_t k = tb_prec_kind(p->prec);
  m->price = tb_problem_add_array(p, "price", k, TB_OUT, p->n);
  m->se = tb_problem_add_array(p, "stderr", k, TB_OUT, p->n);
  const int64_t chunks = tb_mc_chunks(p->prec, m->samples);
  /* The reference, and the OpenMP twin's per-chunk sums. */
  p->extra_host_bytes =
      tb_count_add(p, p->extra_host_bytes,
                   tb_count_add(p, tb_count_mul(p, p->n, (int64_t)sizeof(tb_mc_ref_t)),
                                tb_count_mul(p, tb_count_mul(p, p->n, chunks), 16)));
  /* The two-step pipeline's normals (an even count, as cuRAND asks), and the
   * per-block sums of the many-blocks kernels. */
  const int64_t normals = tb_count_add(p, tb_count_mul(p, p->n, m->samples), 1);
  p->extra_device_bytes =
      tb_count_add(p, tb_count_mul(p, normals, (int64_t)tb_kind_size(k)),
                   tb_count_mul(p, tb_count_add(p, p->n, (int64_t)1 << 20), 16));
  return TB_OK;
}

static int tb_mc_generate(tb_problem_t *p)
{
  const tb_mc_t *m = p->priv;
  return tb_optset_generate(p, &m->in);
}

/* N(hi) - N(lo), from whichever tails keep it accurate. */
static long double tb_phil_band(long double lo, long double hi)
{
  if (lo > 0)
    return tb_ncdfl(-lo) - tb_ncdfl(-hi);
  if (hi < 0)
    return tb_ncdfl(hi) - tb_ncdfl(lo);
  return 1.0L - tb_ncdfl(lo) - tb_ncdfl(-hi);
}

/* With A = S exp((r - v^2/2) T), sig = v sqrt T, d2 = ln(A / X) / sig and
 * M_k = A^k exp(k^2 sig^2 / 2), E[S_T^k 1{S_T > X}] = M_k N(d2 + k sig), so
 *   call: E[g] = M1 N(d2 + sig) - X N(d2),
 *         E[g^2] = M2 N(d2 + 2 sig) - 2 X M1 N(d2 + sig) + X^2 N(d2);
 *   put:  the same with the complementary tails.
 * An antithetic sample (g(z) + g(-z)) / 2 has variance (var g + cov) / 2,
 * cov = E[g(z) g(-z)] - E[g]^2. Both payoffs are positive only on the band
 * |z| < |d2| (calls with d2 > 0, puts with d2 < 0), where the product is
 * A^2 + X^2 - X A (e^(sig z) + e^(-sig z)), and E[e^(c z) 1{lo < z < hi}] =
 * e^(c^2/2) (N(hi - c) - N(lo - c)). */
void tb__mc_moments(const tb_option_t *o, int put, int anti, long double *mean, long double *var)
{
  const long double s = o->s, x = o->x, t = o->t, r = o->r, v = o->v;
  const long double sig = v * sqrtl(t), a = s * expl((r - 0.5L * v * v) * t);
  const long double d2 = logl(a / x) / sig;
  const long double m1 = a * expl(0.5L * sig * sig), m2 = a * a * expl(2.0L * sig * sig);
  long double e1, e2;
  if (!put) {
    e1 = m1 * tb_ncdfl(d2 + sig) - x * tb_ncdfl(d2);
    e2 = m2 * tb_ncdfl(d2 + 2 * sig) - 2 * x * m1 * tb_ncdfl(d2 + sig) + x * x * tb_ncdfl(d2);
  } else {
    e1 = x * tb_ncdfl(-d2) - m1 * tb_ncdfl(-d2 - sig);
    e2 = x * x * tb_ncdfl(-d2) - 2 * x * m1 * tb_ncdfl(-d2 - sig) + m2 * tb_ncdfl(-d2 - 2 * sig);
  }
  long double vr = e2 - e1 * e1;
  if (anti) {
    long double cross = 0.0L;
    if (put ? d2 < 0 : d2 > 0) {
      const long double h = fabsl(d2);
      cross = (a * a + x * x) * tb_phil_band(-h, h) -
              x * a * expl(0.5L * sig * sig) *
                  (tb_phil_band(-h - sig, h - sig) + tb_phil_band(-h + sig, h + sig));
    }
    vr = 0.5L * (vr + cross - e1 * e1);
  }
  *mean = e1;
  *var = vr > 0 ? vr : 0.0L;
}

/* The x with N(-x) = q (0 < q < 1/2), by bisection. */
static double tb_normal_quantile(long double q)
{
  double lo = 0.0, hi = 40.0;
  for (int i = 0; i < 200; i++) {
    double mid = 0.5 * (lo + hi);
    if (tb_ncdfl(-(long double)mid) > q)
      lo = mid;
    else
      hi = mid;
  }
  return hi;
}

/* The rounding term b of option o (the header comment derives it). */
static double tb_mc_rounding(const tb_option_t *o, int64_t samples, tb_prec_t prec)
{
  const double u = tb_unit_roundoff(prec), ud = tb_unit_roundoff(TB_DOUBLE);
  const double rmax = tb_box_muller_zmax(prec);
  const double sig = o->v * sqrt(o->t), mu = (o->r - 0.5 * o->v * o->v) * o->t;
  const double dz = rmax * 30 * u;
  const double e = 11 * u + 4 * u * (fabs(o->r) + 0.5 * o->v * o->v) * o->t + 2 * u * fabs(mu) +
                   sig * (dz + 4 * u * rmax) + u * (fabs(mu) + sig * rmax);
  const double m = o->s * exp(fabs(o->r) * o->t) + o->x;
  return 2 * o->s * e + (4 * TB_MC_FSUM_GROUPS + 2) * u * m + 2 * (double)samples * ud * m;
}

/* The verifier's knowledge of every option, once per problem. */
static int tb_mc_reference(const tb_problem_t *p)
{
  tb_mc_priv_t *mp = p->priv;
  const tb_mc_t *m = &mp->pub;
  if (mp->ref)
    return TB_OK;
  mp->ref = malloc((size_t)p->n * sizeof *mp->ref);
  if (!mp->ref)
    return tb_fail(TB_ENOMEM, "cannot allocate the Monte Carlo reference (%lld options)",
                   (long long)p->n);
  mp->k = tb_normal_quantile((long double)TB_MC_ALPHA / (2.0L * (long double)p->n));
  const double cheb = sqrt((double)p->n / TB_MC_ALPHA);
  const double msamples = (double)m->samples;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < p->n; i++) {
    tb_option_t o;
    long double mean, var;
    tb_optset_get(p, &m->in, i, &o);
    tb__mc_moments(&o, m->put, m->anti, &mean, &var);
    const long double disc = expl(-(long double)o.r * o.t);
    tb_mc_ref_t *ref = &mp->ref[i];
    ref->bs = (double)(disc * mean);
    ref->se = (double)(disc * sqrtl(var / msamples));
    /* The chance that a sample is not zero, and the skewness of the mean. */
    const double sig = o.v * sqrt(o.t);
    const double d2 = (log(o.s / o.x) + (o.r - 0.5 * o.v * o.v) * o.t) / sig;
    const double itm = tb_cnd_erfc_f64(m->put ? -d2 : d2);
    const double nonzero = m->anti ? fmin(1.0, 2 * itm) : itm;
    const double e2 = exp(sig * sig);
    const double skew =
        fmax(1.0 / sqrt(msamples * nonzero), (e2 + 2) * sqrt(e2 - 1) / sqrt(msamples));
    ref->normal = nonzero > 0 && skew <= TB_MC_MAX_SKEW;
    ref->allow = (ref->normal ? mp->k : cheb) * ref->se + tb_mc_rounding(&o, m->samples, p->prec);
  }
  mp->tells = 0;
  for (int64_t i = 0; i < p->n; i++)
    mp->tells += mp->ref[i].allow < fabs(mp->ref[i].bs);
  return TB_OK;
}

/* Each price within its bound of Black-Scholes, and each normal-regime
 * standard error at least half the exact one. The error column is the
 * largest fraction of a price bound used (pass <= 1), or of the standard
 * error's where that fails. */
static int tb_mc_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  const tb_mc_priv_t *mp = p->priv;
  const tb_mc_t *m = &mp->pub;
  int rc = tb_mc_reference(p);
  if (rc)
    return rc;
  double zmax = 0.0, se_sum = 0.0, ratio_sum = 0.0;
  int64_t nratio = 0;
  tb_worst_t worst = TB_WORST_NONE;
#pragma omp parallel
  {
    double z = 0.0, ss = 0.0, rs = 0.0;
    int64_t nr = 0;
    tb_worst_t w = TB_WORST_NONE;
#pragma omp for schedule(static) nowait
    for (int64_t i = 0; i < p->n; i++) {
      const tb_mc_ref_t *ref = &mp->ref[i];
      const double price = tb_optset_elem(p, view[m->price], i),
                   se = tb_optset_elem(p, view[m->se], i);
      const double dev = fabs(price - ref->bs);
      double f = dev / ref->allow;
      if (ref->normal) {
        const double fse = 0.5 * ref->se / se; /* > 1: below half the exact standard error */
        if (!(fse <= 1.0))
          f = fmax(f, fse);
        rs += se / ref->se;
        nr++;
      }
      if (isnan(dev) || !(se >= 0.0 && se < INFINITY))
        f = INFINITY; /* the poison, or a result that is no number */
      if (ref->se > 0)
        z = fmax(z, dev / ref->se);
      ss += se;
      tb_worst_see(&w, f, i);
    }
#pragma omp critical
    {
      zmax = fmax(zmax, z);
      se_sum += ss;
      ratio_sum += rs;
      nratio += nr;
      tb_worst_merge(&worst, &w);
    }
  }
  extra[TB_MC_ZMAX] = zmax;
  extra[TB_MC_K] = mp->k;
  extra[TB_MC_SEMEAN] = se_sum / (double)p->n;
  extra[TB_MC_SERATIO] = nratio ? ratio_sum / (double)nratio : NAN;
  extra[TB_MC_TELLS] = (double)mp->tells / (double)p->n;
  if (tb_check_against(chk, worst.err, 1.0)) {
    const tb_mc_ref_t *ref = &mp->ref[worst.at];
    const double price = tb_optset_elem(p, view[m->price], worst.at),
                 se = tb_optset_elem(p, view[m->se], worst.at);
    tb_check_fail(chk,
                  "option %lld: price %.9g +- %.3g, Black-Scholes %.9g (exact standard error "
                  "%.3g, bound %.3g): %.3g times its bound%s",
                  (long long)worst.at, price, se, ref->bs, ref->se, ref->allow, worst.err,
                  tb_poison_note(price + se));
  }
  if (!mp->tells)
    tb_check_unverifiable(chk, "no option's bound is below its price (option 0: bound %.3g, "
                               "Black-Scholes %.3g): a price of 0 would pass; use more paths",
                          mp->ref[0].allow, mp->ref[0].bs);
  return TB_OK;
}

/* The operations of one Philox group, by piece, as the reference evaluation
 * performs them (options_math.h's formulas with vexp.h's polynomials, the
 * OpenMP twin's code), one count per lane: every add, multiply, fused
 * multiply-add, square root, division, conversion and integer operation
 * (a 32-bit multiply's low or high word, xor, shift, and, min, a select)
 * counts as one. doc/options.md lists them. [0] float, [1] double. */
typedef struct tb_mc_ops {
  double philox;  /* 10 rounds of 2 multiplies' high and low words and 4 xors */
  double uniform; /* one uniform: float shift, convert, fma; double 2 shifts, xor, convert, 2 */
  double ln[2];   /* -2 ln u1: [libm, fast] (fast float: tb__neg2ln_f32) */
  double sincos;  /* sincos2pi of u2 - 1/2: reduction, 2 polynomials, quadrant */
  double exp[2];  /* e^x, 2^x (the fast form) */
  double sums;    /* a group's sum and sum of squares into the double sums */
} tb_mc_ops_t;

static const tb_mc_ops_t tb_mc_ops[2] = {
    {80, 3, {19, 15}, 28, {17, 16}, 12},
    {80, 6, {21, 21}, 34, {23, 22}, 5},
};

/* Three input arrays (five with per-option r and v) and two outputs, each
 * once. The flops are twice the operations of a run (tb_mc_ops): each
 * operation is charged one fused multiply-add, the two flops the FMA
 * ceiling counts it as, so that flops / that ceiling is the time the op
 * count would take if every operation issued at the FMA rate. Integer
 * operations (Philox) and square roots do not on most hardware (on x86 a
 * float lane's Philox words take 64-bit lanes, at half the float rate;
 * square roots and divisions are slower still), so a row's roofline says
 * how close it came to the FMA rate for this count, not that the machine
 * had no other limit. Per group of w normals (4 float, 2 double): Philox,
 * 4 (2) uniforms by 32-bit words (2 per 52-bit double), w / 2 Box-Muller
 * pairs (-2 ln u1, its square root, sincos, 2 products), w samples (the
 * argument's fma, e^x, the product by S, the difference with X, the payoff
 * (d + |d|) / 2 in 3; antithetic: twice, and the pair's mean in 2), the
 * sums. Float, call, libm: 296 operations per group, 74 per path. */
static void tb_mc_cost(const tb_problem_t *p, tb_cost_t *c)
{
  const tb_mc_t *m = p->priv;
  const int d = p->prec == TB_DOUBLE, w = d ? TB_MC_W_F64 : TB_MC_W_F32;
  const tb_mc_ops_t *o = &tb_mc_ops[d];
  const double sample = (1 + o->exp[m->fast] + 1 + 1 + 3) * (m->anti ? 2 : 1) + (m->anti ? 2 : 0);
  const double group = o->philox + o->uniform * (d ? 2 : 4) +
                       (w / 2) * (o->ln[m->fast] + 1 + o->sincos + 2) + w * sample + o->sums;
  tb_optset_cost(p, &m->in, 2, c);
  c->flops = 2.0 * group * (double)p->n * (double)m->samples / w;
}

static int tb_mc_dump(const tb_problem_t *p, void *const *view, FILE *f)
{
  const tb_mc_priv_t *mp = p->priv;
  const tb_mc_t *m = &mp->pub;
  int digits = tb_prec_digits(p->prec);
  int rc = tb_mc_reference(p);
  if (rc)
    return rc;
  fprintf(f, "S,X,T,r,v,price,stderr,ci_low,ci_high,bs_price\n");
  for (int64_t i = 0; i < p->n; i++) {
    const double price = tb_optset_elem(p, view[m->price], i),
                 se = tb_optset_elem(p, view[m->se], i);
    tb_optset_dump_row(f, p, &m->in, i);
    fprintf(f, ",%.*g,%.*g,%.*g,%.*g,%.17g\n", digits, price, digits, se, digits,
            price - TB_MC_Z95 * se, digits, price + TB_MC_Z95 * se, mp->ref[i].bs);
  }
  return TB_OK;
}

static void tb_mc_cleanup(tb_problem_t *p)
{
  tb_mc_priv_t *mp = p->priv;
  if (mp) {
    free(mp->ref);
    tb_optset_free(&mp->pub.in);
  }
  free(mp);
  p->priv = NULL;
}

const tb_algo_t tb_algo_montecarlo = {
    .name = "montecarlo",
    .summary = "Monte Carlo European options: price, standard error and 95% interval (NVIDIA, "
               "2008)",
    .flags = TB_ALGO_INPUT | TB_ALGO_COMPUTE,
    .precisions = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_precisions = TB_PREC_BIT(TB_FLOAT),
    .default_sizes = "256",
    .size_meaning = "options (each priced from `paths` simulated terminal prices)",
    .presets = NULL,
    .npresets = 0,
    .params = tb_mc_params,
    .nparams = TB_COUNT(tb_mc_params),
    .columns = tb_mc_columns,
    .ncolumns = TB_COUNT(tb_mc_columns),
    .error_meaning = "largest fraction of its price bound that an option uses (pass <= 1): "
                     "|price - Black-Scholes| <= c exact-se + rounding, c the normal quantile k "
                     "(or Chebyshev's) of a family-wise rate of 1e-6; a stderr below exact-se / 2 "
                     "fails too",
    .setup = tb_mc_setup,
    .generate = tb_mc_generate,
    .verify = tb_mc_verify,
    .cost = tb_mc_cost,
    .dump = tb_mc_dump,
    .cleanup = tb_mc_cleanup,
    .per_run = tb_mc_per_run,
};
