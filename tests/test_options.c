/* The option pricing family's formulas and verifiers:
 * - the published CDF polynomial is within its 7.5e-8 of N, and not much
 *   closer (so the verifier's allowance for it is needed);
 * - Hull's textbook option prices;
 * - the Black-Scholes verifier passes the OpenMP twin's results and fails a
 *   wrong element, a poisoned one, a put that breaks parity by less than the
 *   polynomial's allowance, and polynomial results held to the exact CDF;
 * - the closed-form Monte Carlo moments agree with numerical integration;
 * - the Monte Carlo OpenMP twin gives the same bits at any thread count,
 *   prices and standard errors equal to a long double recomputation over the
 *   same Philox paths, and passes its verifier, which fails a price off by
 *   ten standard errors, a standard error a third of the truth, and poison;
 * - the OpenMP twin's vector Philox blocks are philox.h's, bit for bit. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"
#include "common/params.h"
#include "common/registry.h"
#include "cpu_omp/cpu.h"
#include "cpu_omp/vphilox.h"
#include "families/options.h"
#include "families/options_math.h"
#include "common/runner.h"
#include "testutil.h"


static long double ncdf(long double x)
{
  return 0.5L * erfcl(-x / sqrtl(2.0L));
}

/* Run a CPU variant on problem p, outputs into out[] (indexed like the arrays). */
static void run_cpu(const tb_variant_t *v, tb_problem_t *p, void **out, int threads)
{
  tb_cpu_config_t cfg = {.threads = threads};
  tb_param_value_t point[TB_MAX_TUNING];
  tb_ctx_t ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.p = p;
  ctx.v = v;
  ctx.cfg = &cfg;
  CHECK(tb_params_point(v->tuning, v->ntuning, "", point) == TB_OK, "tuning: %s",
        tb_error_detail());
  ctx.tune = point; /* the variant's defaults */
  for (int i = 0; i < p->narrays; i++)
    ctx.buf[i] = p->array[i].role == TB_OUT ? out[i] : p->array[i].host;
  CHECK(!v->prepare || v->prepare(&ctx) == TB_OK, "prepare: %s", tb_error_detail());
  CHECK(v->run(&ctx) == TB_OK, "run: %s", tb_error_detail());
  if (v->release)
    v->release(&ctx);
  tb_params_point_free(point, v->ntuning);
}

/* Output arrays for problem p (NULL for the inputs). */
static void alloc_out(const tb_problem_t *p, void **out)
{
  for (int i = 0; i < p->narrays; i++)
    out[i] = p->array[i].role == TB_OUT ? malloc((size_t)tb_array_bytes(&p->array[i])) : NULL;
}

static void free_out(const tb_problem_t *p, void **out)
{
  for (int i = 0; i < p->narrays; i++)
    free(out[i]);
}

static tb_verdict_t verdict(tb_problem_t *p, void **out, double *error)
{
  void *view[TB_MAX_ARRAYS] = {0};
  double extra[TB_MAX_COLUMNS];
  tb_check_t chk;
  memset(&chk, 0, sizeof chk);
  for (int i = 0; i < p->narrays; i++)
    view[i] = p->array[i].role == TB_OUT ? out[i] : p->array[i].host;
  CHECK(p->algo->verify(p, view, extra, &chk) == TB_OK, "verify returned an error");
  if (error)
    *error = chk.error;
  return chk.verdict;
}

/* Scale element i of array a by (1 + rel) and add abs. */
static void nudge(const tb_problem_t *p, void *a, int64_t i, double rel, double abs)
{
  if (p->prec == TB_FLOAT)
    ((float *)a)[i] = (float)(((float *)a)[i] * (1 + rel) + abs);
  else
    ((double *)a)[i] = ((double *)a)[i] * (1 + rel) + abs;
}

static double at(const tb_problem_t *p, const void *a, int64_t i)
{
  return p->prec == TB_FLOAT ? ((const float *)a)[i] : ((const double *)a)[i];
}

static void test_cdf_and_hull(void)
{
  long double worst = 0;
  for (int k = -100000; k <= 100000; k++) {
    double x = k * 1e-4;
    long double e = fabsl((long double)tb_cnd_poly_f64(x) - ncdf(x));
    worst = e > worst ? e : worst;
  }
  CHECK(worst < TB_CND_POLY_ERR && worst > 0.5 * TB_CND_POLY_ERR,
        "polynomial CDF error %.3Lg, expected just under %g", worst, TB_CND_POLY_ERR);
  for (int exact = 0; exact <= 1; exact++) {
    double c, q;
    tb_bs_price_f64(42, 40, 0.5, 0.1, 0.2, exact, 0, &c, &q);
    CHECK(fabs(c - 4.7594) < 5e-5 && fabs(q - 0.8086) < 5e-5, "Hull: call %.6f put %.6f", c, q);
  }
}

static void test_bs_verifier(void)
{
  static const char *const cnds[] = {"poly", "erfc"}, *const maths[] = {"libm", "fast"};
  for (int prec = TB_FLOAT; prec <= TB_DOUBLE; prec++)
    for (int exact = 0; exact <= 1; exact++)
      for (int fast = 0; fast <= 1; fast++) {
        tb_param_value_t pv[2] = {{exact, exact, cnds[exact]}, {fast, fast, maths[fast]}};
        tb_problem_t p;
        const int64_t n = 10007;
        int rc = tb_problem_create(&p, &tb_algo_blackscholes, (tb_prec_t)prec, n, 99 + exact, pv);
        CHECK(rc == TB_OK, "create: %s", tb_error_detail());
        if (rc)
          continue;
        const tb_bs_t *b = p.priv;
        char what[32];
        snprintf(what, sizeof what, "%s %s", prec == TB_FLOAT ? "float" : "double", maths[fast]);
        void *out[TB_MAX_ARRAYS];
        alloc_out(&p, out);
        run_cpu(CPU_VARIANT(&tb_algo_blackscholes, "omp"), &p, out, 2);
        double err;
        CHECK(verdict(&p, out, &err) == TB_PASS, "%s %s: the OpenMP twin's result rejected", what,
              cnds[exact]);
        CHECK(err > 1e-3, "%s %s: error %.3g: the bound is far too loose", what, cnds[exact], err);

        /* A call off by 100 times the precision's rounding (or the polynomial's error). */
        const double off = prec == TB_FLOAT ? 1e-4 : exact ? 1e-12 : 1e-5;
        nudge(&p, out[b->call], n / 3, 0, off * at(&p, p.array[b->in.s].host, n / 3));
        CHECK(verdict(&p, out, NULL) == TB_FAIL, "%s %s: a wrong call accepted", what, cnds[exact]);
        run_cpu(CPU_VARIANT(&tb_algo_blackscholes, "omp"), &p, out, 1);
        tb_poison(out[b->put], tb_prec_kind((tb_prec_t)prec), n - 1, n);
        CHECK(verdict(&p, out, NULL) == TB_FAIL, "%s %s: a poisoned put accepted", what,
              cnds[exact]);

        /* A put within the polynomial's allowance of the exact put, but off
         * parity by a million ulps: only the parity check can see it. */
        if (prec == TB_DOUBLE && !exact) {
          run_cpu(CPU_VARIANT(&tb_algo_blackscholes, "omp"), &p, out, 1);
          nudge(&p, out[b->put], 17, 0, 1e6 * ldexp(at(&p, p.array[b->in.s].host, 17), -52));
          CHECK(verdict(&p, out, NULL) == TB_FAIL, "a put breaking parity accepted");
        }
        free_out(&p, out);
        tb_problem_destroy(&p);
      }

  /* Polynomial results are not exact: held to the erfc problem's rounding-only
   * bounds, they fail. */
  tb_param_value_t poly[2] = {{0, 0, "poly"}, {0, 0, "libm"}};
  tb_param_value_t erfc_[2] = {{1, 1, "erfc"}, {0, 0, "libm"}};
  tb_problem_t pp, pe;
  if (tb_problem_create(&pp, &tb_algo_blackscholes, TB_DOUBLE, 4096, 5, poly) == TB_OK &&
      tb_problem_create(&pe, &tb_algo_blackscholes, TB_DOUBLE, 4096, 5, erfc_) == TB_OK) {
    void *out[TB_MAX_ARRAYS];
    alloc_out(&pp, out);
    run_cpu(CPU_VARIANT(&tb_algo_blackscholes, "omp"), &pp, out, 1);
    CHECK(verdict(&pe, out, NULL) == TB_FAIL, "polynomial results passed the exact bounds");
    free_out(&pp, out);
    tb_problem_destroy(&pp);
    tb_problem_destroy(&pe);
  } else
    CHECK(0, "create: %s", tb_error_detail());
}

/* E[Y] and Var[Y] of one Monte Carlo sample by Simpson's rule over z in
 * [-14, 14], on a grid fine enough that the kinks at the strike cost little. */
static void moments_numeric(const tb_option_t *o, int put, int anti, long double *mean,
                            long double *var)
{
  const long double sig = o->v * sqrtl(o->t), mu = (o->r - 0.5L * o->v * o->v) * o->t;
  const int steps = 400000;
  const long double lo = -14, h = 28.0L / steps;
  long double m1 = 0, m2 = 0;
  for (int i = 0; i <= steps; i++) {
    const long double z = lo + i * h, w = (i == 0 || i == steps) ? 1 : (i % 2 ? 4 : 2);
    const long double phi = expl(-0.5L * z * z) / sqrtl(2 * M_PI);
    const long double st = o->s * expl(mu + sig * z), st2 = o->s * expl(mu - sig * z);
    const long double g1 = fmaxl(put ? o->x - st : st - o->x, 0);
    const long double g2 = fmaxl(put ? o->x - st2 : st2 - o->x, 0);
    const long double y = anti ? 0.5L * (g1 + g2) : g1;
    m1 += w * phi * y;
    m2 += w * phi * y * y;
  }
  *mean = m1 * h / 3;
  *var = m2 * h / 3 - *mean * *mean;
}

static void test_mc_moments(void)
{
  static const tb_option_t opts[] = {
      {42, 40, 0.5, 0.1, 0.2}, {5, 100, 10, 0.02, 0.3}, {30, 1, 0.25, 0.02, 0.3},
      {20, 25, 3, -0.01, 0.6}, {10, 10, 1, 0.05, 0.1},
  };
  for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
    for (int put = 0; put <= 1; put++)
      for (int anti = 0; anti <= 1; anti++) {
        long double m, v, mn, vn;
        tb__mc_moments(&opts[i], put, anti, &m, &v);
        moments_numeric(&opts[i], put, anti, &mn, &vn);
        const long double scale = opts[i].s + opts[i].x;
        CHECK(fabsl(m - mn) <= 1e-9L * scale && fabsl(v - vn) <= 1e-9L * scale * scale,
              "option %zu put %d anti %d: mean %.12Lg vs %.12Lg, var %.12Lg vs %.12Lg", i, put,
              anti, m, mn, v, vn);
        if (!anti) { /* the mean is the Black-Scholes price, undiscounted */
          double c, q;
          tb_bs_price_f64(opts[i].s, opts[i].x, opts[i].t, opts[i].r, opts[i].v, 1, 0, &c, &q);
          const long double bs = (put ? q : c) * expl((long double)opts[i].r * opts[i].t);
          CHECK(fabsl(m - bs) <= 1e-12L * scale, "option %zu put %d: mean %.15Lg, bs %.15Lg", i,
                put, m, bs);
        }
      }
}

/* Option o's price and standard error over the same Philox paths as the
 * twins, every step in long double from the same uniforms. */
static void mc_exact(const tb_problem_t *p, int64_t i, long double *price, long double *se)
{
  const tb_mc_t *m = p->priv;
  tb_option_t o;
  tb_optset_get(p, &m->in, i, &o);
  const long double sig = o.v * sqrtl(o.t), mu = (o.r - 0.5L * o.v * o.v) * o.t;
  long double s1 = 0, s2 = 0;
  for (int64_t k = 0; k < m->samples; k++) {
    long double u1, u2;
    int second;
    if (p->prec == TB_FLOAT) {
      tb_philox4_t w =
          tb_philox_block(p->seed, TB_MC_STREAM, ((uint64_t)i << 32) | (uint64_t)(k / 4));
      int j = (int)(k % 4) / 2;
      u1 = tb_u01_f32(w.v[2 * j]);
      u2 = tb_u01_f32(w.v[2 * j + 1]);
      second = k % 2;
    } else {
      tb_philox4_t w =
          tb_philox_block(p->seed, TB_MC_STREAM, ((uint64_t)i << 32) | (uint64_t)(k / 2));
      u1 = tb_u01_f64(w.v[0], w.v[1]);
      u2 = tb_u01_f64(w.v[2], w.v[3]);
      second = k % 2;
    }
    const long double pi = 3.14159265358979323846264338327950288L;
    const long double rad = sqrtl(-2 * logl(u1)), t = 2 * pi * u2 - pi;
    const long double z = second ? rad * sinl(t) : rad * cosl(t);
    const long double st = o.s * expl(mu + sig * z), st2 = o.s * expl(mu - sig * z);
    long double y = fmaxl(m->put ? o.x - st : st - o.x, 0);
    if (m->anti)
      y = 0.5L * (y + fmaxl(m->put ? o.x - st2 : st2 - o.x, 0));
    s1 += y;
    s2 += y * y;
  }
  const long double n = (long double)m->samples, mean = s1 / n,
                    disc = expl(-(long double)o.r * o.t);
  *price = disc * mean;
  *se = disc * sqrtl((s2 - s1 * mean) / (n - 1) / n);
}

static void test_mc(void)
{
  static const char *const noyes[] = {"no", "yes"}, *const payoffs[] = {"call", "put"};
  static const char *const maths[] = {"libm", "fast"};
  for (int prec = TB_FLOAT; prec <= TB_DOUBLE; prec++)
    for (int anti = 0; anti <= 1; anti++)
      for (int put = 0; put <= 1; put++) {
        /* An odd number of samples per option leaves a partial Philox group;
         * half the combinations use the fast formulas. */
        const int64_t paths = anti ? 2 * 10003 : 10003, n = 37;
        const int fast = anti ^ put;
        tb_param_value_t pv[4] = {{paths, (double)paths, "10003"},
                                  {anti, anti, noyes[anti]},
                                  {put, put, payoffs[put]},
                                  {fast, fast, maths[fast]}};
        tb_problem_t p;
        int rc = tb_problem_create(&p, &tb_algo_montecarlo, (tb_prec_t)prec, n, 7 + put, pv);
        CHECK(rc == TB_OK, "create: %s", tb_error_detail());
        if (rc)
          continue;
        const tb_mc_t *m = p.priv;
        const size_t bytes = (size_t)tb_array_bytes(&p.array[m->price]);
        void *out[TB_MAX_ARRAYS], *out3[TB_MAX_ARRAYS];
        alloc_out(&p, out);
        alloc_out(&p, out3);
        run_cpu(CPU_VARIANT(&tb_algo_montecarlo, "omp"), &p, out, 1);
        run_cpu(CPU_VARIANT(&tb_algo_montecarlo, "omp"), &p, out3, 3);
        CHECK(!memcmp(out[m->price], out3[m->price], bytes) &&
                  !memcmp(out[m->se], out3[m->se], bytes),
              "prec %d anti %d put %d: prices differ between 1 and 3 threads", prec, anti, put);
        /* The same paths in long double: the difference is rounding only,
         * far below the standard error. */
        const double tol = prec == TB_FLOAT ? 1e-4 : 1e-11;
        for (int64_t i = 0; i < n; i += 6) {
          long double ep, es;
          mc_exact(&p, i, &ep, &es);
          const double price = at(&p, out[m->price], i), se = at(&p, out[m->se], i);
          tb_option_t o;
          tb_optset_get(&p, &m->in, i, &o);
          CHECK(fabsl(price - ep) <= tol * o.s && fabsl(se - es) <= tol * o.s + 1e-3L * es,
                "prec %d anti %d put %d option %lld: price %.9g se %.4g, exact %.9Lg %.4Lg", prec,
                anti, put, (long long)i, price, se, ep, es);
        }
        double err;
        CHECK(verdict(&p, out, &err) == TB_PASS, "prec %d anti %d put %d: rejected (%.3g)", prec,
              anti, put, err);
        /* The deepest in-the-money option of at most 3 years: nearly every
         * path pays, v sqrt T is small, so its mean is in the normal regime
         * and its standard error is checked. */
        int64_t k = -1;
        double best = 0;
        for (int64_t i = 0; i < n; i++) {
          tb_option_t o;
          tb_optset_get(&p, &m->in, i, &o);
          const double moneyness = put ? o.x / o.s : o.s / o.x;
          if (o.t < 3 && moneyness > best) {
            best = moneyness;
            k = i;
          }
        }
        const double se = at(&p, out[m->se], k);
        nudge(&p, out[m->price], k, 0, 10 * se);
        CHECK(verdict(&p, out, NULL) == TB_FAIL, "a price off by 10 standard errors accepted");
        nudge(&p, out[m->price], k, 0, -10 * se);
        nudge(&p, out[m->se], k, -2.0 / 3, 0);
        CHECK(verdict(&p, out, NULL) == TB_FAIL, "a third of the standard error accepted");
        run_cpu(CPU_VARIANT(&tb_algo_montecarlo, "omp"), &p, out, 2);
        tb_poison(out[m->price], tb_prec_kind((tb_prec_t)prec), n - 1, n);
        CHECK(verdict(&p, out, NULL) == TB_FAIL, "a poisoned price accepted");
        free_out(&p, out);
        free_out(&p, out3);
        tb_problem_destroy(&p);
      }
}

/* The fast formulas' pieces on every float uniform the Monte Carlo twins can
 * draw: tb_u01_f32 is (k + 1/2) 2^-23 to the bit, and tb__neg2ln_f32 is
 * within the 4 units in the last place that the rounding bound allows a
 * logarithm (it reaches about 2). */
static void test_fast_pieces(void)
{
  double worst = 0.0;
  float at_u = 0.0f;
  int bad_u = 0;
  for (uint32_t k = 0; k < (1u << 23); k++) {
    const float u = tb_u01_f32(k << 9);
    bad_u += u != ((float)k + 0.5f) * 0x1p-23f;
    const long double ex = -2.0L * logl((long double)u);
    int e;
    frexpl(ex, &e);
    const double ulps = (double)(fabsl((long double)tb__neg2ln_f32(u) - ex) / ldexpl(1.0L, e - 24));
    if (ulps > worst) {
      worst = ulps;
      at_u = u;
    }
  }
  CHECK(bad_u == 0, "%d uniforms differ from (k + 1/2) 2^-23", bad_u);
  CHECK(worst <= 4.0 && worst > 0.5, "-2 ln u: %.3f ulps at u = %.9g (allowed 4)", worst, at_u);
}

/* tb_vphilox_blocks against tb_philox_block, word for word: several seeds
 * and streams, a low word that wraps past 2^32 within the call, counts that
 * are not a multiple of its lanes. */
static void test_vphilox(void)
{
  enum { N = 203 };
  static const uint64_t seeds[] = {1, 0xfedcba9876543210ull, 0x00000000ffffffffull};
  static const uint32_t his[] = {0, 7, 0xffffffffu}, los[] = {0, 1000, 0xffffff9cu};
  uint32_t w[4][N + TB_VPHILOX_LANES];
  uint32_t *const wp[4] = {w[0], w[1], w[2], w[3]};
  int bad = 0;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      const int64_t n = N - 17 * b;
      tb_vphilox_blocks(seeds[a], TB_MC_STREAM + (uint32_t)b, his[b], los[a], n, wp);
      for (int64_t i = 0; i < n; i++) {
        const tb_philox4_t r = tb_philox_block(seeds[a], TB_MC_STREAM + (uint32_t)b,
                                               (uint64_t)his[b] << 32 | (uint32_t)(los[a] + i));
        for (int j = 0; j < 4; j++)
          bad += w[j][i] != r.v[j];
      }
    }
  CHECK(bad == 0, "%d vector Philox words differ from philox.h's", bad);
}

int main(void)
{
  test_vphilox();
  test_fast_pieces();
  test_cdf_and_hull();
  test_bs_verifier();
  test_mc_moments();
  test_mc();
  TEST_EXIT();
}
