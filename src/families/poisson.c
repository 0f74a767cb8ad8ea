/* twinbench: the spectral Poisson family's problem, reference, verifier and
 * cost (derivations in doc/poisson.md). */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poisson.h"
#include "../common/refmath.h"
#include "../common/rng.h"

static const char *const tb_poisson_rhs_names[] = {"gauss", "mode", NULL};

enum { TB_PP_L, TB_PP_SIGMA, TB_PP_DIM, TB_PP_RHS };

static const tb_param_def_t tb_poisson_params[] = {
    [TB_PP_L] = {"L", "the side of the periodic square (cube)", TB_PARAM_REAL, "1", 1e-3, 1e3,
                 NULL, 0, NULL},
    [TB_PP_SIGMA] = {"sigma", "gauss: the width of the Gaussian solution", TB_PARAM_REAL, "0.1",
                     1e-3, 1e3, NULL, 0, NULL},
    [TB_PP_DIM] = {"dim", "dimensions: 2 (square) or 3 (cube)", TB_PARAM_INT, "2", 2, 3, NULL, 0,
                   NULL},
    [TB_PP_RHS] = {"rhs",
                   "the right-hand side: gauss (the textbook's Laplacian of a Gaussian) or mode "
                   "(one Fourier mode, drawn from the seed, solved exactly up to rounding)",
                   TB_PARAM_CHOICE, "gauss", 0, 0, tb_poisson_rhs_names, 0, NULL},
};

static const tb_preset_t tb_poisson_presets[] = {
    {"nvidia2008", 1024, "the published profile's size (1024^2 on a Tesla C870)"},
    {"textbook", 64, "the textbook script's size (64^2, L = 1, sigma = 0.1)"},
};

static const tb_column_def_t tb_poisson_columns[] = {
    [TB_POISSON_ERR_LINF] = {"err_linf", "%.3g",
                             "max|u - u_exact| after the textbook's shift u - u(0): the "
                             "discretisation's error, beside the verdict's rounding check", 0},
    [TB_POISSON_ERR_L2] = {"err_l2", "%.3g",
                           "sqrt(sum (u - u_exact)^2) / N^dim after the same shift (the "
                           "textbook's normalisation)", 0},
    [TB_POISSON_PLAN_MS] = {"plan_ms", "%.4g", "milliseconds the FFT plans took (untimed, in "
                                               "prepare; with FFTW wisdom, mostly a lookup)", 0},
    [TB_POISSON_ROUNDTRIP] = {"roundtrip", "%.0f",
                              "1: a baseline that only transforms (forward and inverse FFT, no "
                              "solve), verified as the round trip u = N^dim f", 0},
    [TB_POISSON_IN_MS] = {"in_ms", "%.4g",
                          "GPU c2c: ms of the real2complex copy (the breakdown: the median of "
                          "21 runs timed stage by stage with events, untimed)", 0},
    [TB_POISSON_FWD_MS] = {"fwd_ms", "%.4g",
                           "GPU: ms of the forward FFT (cb side=store: with its callback)", 0},
    [TB_POISSON_SOLVE_MS] = {"solve_ms", "%.4g",
                             "GPU: ms of the solve kernel (panel: with the column transforms)", 0},
    [TB_POISSON_INV_MS] = {"inv_ms", "%.4g",
                           "GPU: ms of the inverse FFT (cb side=load: with its callback)", 0},
    [TB_POISSON_OUT_MS] = {"out_ms", "%.4g",
                           "GPU c2c: ms of the complex2real copy with the scaling", 0},
};

/* The constants of the FFT error bound (doc/poisson.md): a transform of M
 * points in precision u errs in the 2-norm by at most eps = C log2(M) u of
 * the exact transform's norm, C = 7 from the radix-2 bound (Higham,
 * Accuracy and Stability, Thm 24.2: eta = mu + gamma_4 (sqrt(2) + mu) per
 * level with twiddles good to mu = u, so eta < 6.7 u); the solve step's
 * wavenumbers, divide and scale round at most TB_POISSON_SOLVE_ROUNDINGS
 * times per value. */
#define TB_POISSON_FFT_C 7.0
#define TB_POISSON_SOLVE_ROUNDINGS 12.0

/* The problem's private state: what variants see, the right-hand side, and
 * the cached reference. */
typedef struct tb_poisson_priv {
  tb_poisson_t pub;
  int rhs;
  double sigma;
  int mode[3];  /* mode: its frequencies, from the seed */
  double phase; /* mode: its phase, from the seed */
  double *uref; /* the reference solution, mean zero (NULL until verified) */
  double uref_norm; /* its 2-norm over the grid */
  double ratio;     /* R = ||F|| / (k_min^2 ||F / k^2||), the solve's amplification */
  double ref_eps;   /* the reference's own relative error bound */
} tb_poisson_priv_t;

static int tb_poisson_setup(tb_problem_t *p)
{
  const int64_t n = p->n;
  const int dim = (int)p->param[TB_PP_DIM].i;
  if (n < 4 || n % 2)
    return tb_fail(TB_EINVAL, "poisson needs an even N of at least 4 points a side (size %lld)",
                   (long long)n);
  if (n > ((int64_t)1 << 30))
    return tb_fail(TB_EINVAL, "poisson: N = %lld is above 2^30 points a side", (long long)n);
  tb_poisson_priv_t *pp = calloc(1, sizeof *pp);
  if (!pp)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = pp;
  tb_poisson_t *s = &pp->pub;
  s->dim = dim;
  s->n = n;
  s->L = p->param[TB_PP_L].r;
  s->rows = dim == 2 ? n : tb_count_mul(p, n, n);
  s->total = tb_count_mul(p, s->rows, n);
  s->half = n / 2 + 1;
  pp->rhs = (int)p->param[TB_PP_RHS].i;
  pp->sigma = p->param[TB_PP_SIGMA].r;
  tb_kind_t k = tb_prec_kind(p->prec);
  const int64_t e = (int64_t)tb_kind_size(k);
  s->f = tb_problem_add_array(p, "f", k, TB_IN, s->total);
  s->u = tb_problem_add_array(p, "u", k, TB_OUT, s->total);
  /* Host: the reference (complex long double and the double solution) and a
   * CPU twin's complex work array; device: the complex work array and
   * cuFFT's workspace (at most as large, for these transforms). */
  const int64_t cplx = tb_count_mul(p, s->total, 2 * e);
  p->extra_host_bytes = tb_count_add(p, tb_count_mul(p, s->total, 2 * (int64_t)sizeof(long double) +
                                                                       (int64_t)sizeof(double)),
                                     cplx);
  p->extra_device_bytes = tb_count_mul(p, cplx, 2);
  return TB_OK;
}

/* The multi-index of grid point j (row-major, the last index fastest). */
static void tb_poisson_index(const tb_poisson_t *s, int64_t j, int64_t *idx)
{
  for (int a = s->dim - 1; a >= 0; a--) {
    idx[a] = j % s->n;
    j /= s->n;
  }
}

/* The exact solution at grid point j (before the textbook's shift), and,
 * through f (when not NULL), the right-hand side there. gauss: u =
 * exp(-rho^2 / (2 sigma^2)), rho the distance to the centre, f = u (rho^2 -
 * dim sigma^2) / sigma^4. mode: u = cos(theta), theta = 2 pi (m . i mod N) / N
 * + phase (the integer reduction keeps theta exact), f = -|k|^2 u. */
static double tb_poisson_exact(const tb_poisson_priv_t *pp, int64_t j, double *f)
{
  const tb_poisson_t *s = &pp->pub;
  int64_t idx[3];
  tb_poisson_index(s, j, idx);
  if (pp->rhs == TB_POISSON_GAUSS) {
    const double h = s->L / (double)s->n, s2 = pp->sigma * pp->sigma;
    double rho2 = 0.0;
    for (int a = 0; a < s->dim; a++) {
      double d = (double)idx[a] * h - 0.5 * s->L;
      rho2 += d * d;
    }
    double u = exp(-rho2 / (2.0 * s2));
    if (f)
      *f = u * (rho2 - s->dim * s2) / (s2 * s2);
    return u;
  }
  int64_t m = 0;
  double k2 = 0.0;
  for (int a = 0; a < s->dim; a++) {
    m = (m + (int64_t)pp->mode[a] * idx[a]) % s->n;
    double k = 2.0 * M_PI / s->L * pp->mode[a];
    k2 += k * k;
  }
  if (m < 0)
    m += s->n;
  double u = cos(2.0 * M_PI * (double)m / (double)s->n + pp->phase);
  if (f)
    *f = -k2 * u;
  return u;
}

/* gauss: the textbook's right-hand side (nothing random). mode: the
 * frequencies from the seed, m_0 in 1..A and the others in -A..A with
 * A = min(N/2 - 1, 8) (resolved on the grid, the mode never zero), and a
 * phase in [0, 2 pi). Both are smooth and never zero everywhere. */
void tb_poisson_axis_k2(const tb_poisson_t *s, double *k2)
{
  for (int64_t i = 0; i < s->n; i++) {
    const double k = 2.0 * M_PI / s->L * (double)tb_poisson_freq(i, s->n);
    k2[i] = k * k;
  }
}

double tb_poisson_solution(const tb_problem_t *p, int64_t j)
{
  return tb_poisson_exact(p->priv, j, NULL);
}

static int tb_poisson_generate(tb_problem_t *p)
{
  tb_poisson_priv_t *pp = p->priv;
  const tb_poisson_t *s = &pp->pub;
  if (pp->rhs == TB_POISSON_MODE) {
    const int32_t amax = (int32_t)(s->n / 2 - 1 < 8 ? s->n / 2 - 1 : 8);
    tb_rng_int32(pp->mode, 1, p->seed, 1, 1, amax);
    tb_rng_int32(pp->mode + 1, 2, p->seed, 2, -amax, amax);
    tb_rng_uniform_f64(&pp->phase, 1, p->seed, 3, 0.0, 2.0 * M_PI);
  }
  void *f = p->array[s->f].host;
  const int64_t total = s->total;
  const int isfloat = p->prec == TB_FLOAT;
#pragma omp parallel for schedule(static)
  for (int64_t j = 0; j < total; j++) {
    double v;
    tb_poisson_exact(pp, j, &v);
    if (isfloat)
      ((float *)f)[j] = (float)v;
    else
      ((double *)f)[j] = v;
  }
  return TB_OK;
}

/* ---- The reference: a long-double FFT of the whole grid ---------------- */

/* pi in long double (M_PI is a double). */
static const long double tb_pi_ld = 3.141592653589793238462643383279502884L;

/* Twiddles exp(sign 2 pi i j / n), j < n, as (re, im) pairs. */
static long double *tb_poisson_twiddles(int64_t n, int sign)
{
  long double *w = malloc((size_t)n * 2 * sizeof *w);
  if (!w)
    return NULL;
  for (int64_t j = 0; j < n; j++) {
    long double t = 2.0L * tb_pi_ld * (long double)j / (long double)n;
    w[2 * j] = cosl(t);
    w[2 * j + 1] = sign * sinl(t);
  }
  return w;
}

/* Radix 2 in place on n (a power of two) complex values, twiddles w of n. */
static void tb_poisson_radix2(long double *x, int64_t n, const long double *w)
{
  for (int64_t i = 1, j = 0; i < n; i++) {
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j ^= bit;
    if (i < j)
      for (int c = 0; c < 2; c++) {
        long double t = x[2 * i + c];
        x[2 * i + c] = x[2 * j + c];
        x[2 * j + c] = t;
      }
  }
  for (int64_t len = 2; len <= n; len <<= 1) {
    const int64_t step = n / len;
    for (int64_t b = 0; b < n; b += len)
      for (int64_t q = 0; q < len / 2; q++) {
        const long double wr = w[2 * q * step], wi = w[2 * q * step + 1];
        long double *a = x + 2 * (b + q), *c = x + 2 * (b + q + len / 2);
        long double tr = c[0] * wr - c[1] * wi, ti = c[0] * wi + c[1] * wr;
        c[0] = a[0] - tr;
        c[1] = a[1] - ti;
        a[0] += tr;
        a[1] += ti;
      }
  }
}

int tb_poisson_ref_fft(long double *x, int64_t n, int sign)
{
  long double *w = tb_poisson_twiddles(n, sign);
  if (!w)
    return TB_ENOMEM;
  tb_poisson_radix2(x, n, w);
  free(w);
  return TB_OK;
}

/* The transform of one axis length n in one direction: radix 2 when n is a
 * power of two, else Bluestein's: with c_j = exp(sign i pi j^2 / n),
 * X_k = c_k sum_j (x_j c_j) conj(c_(k-j)), a convolution done by radix-2
 * transforms of len >= 2n - 1 points. */
typedef struct tb_poisson_axis {
  int64_t n, len;
  long double *w;     /* radix 2: twiddles of n; Bluestein: forward twiddles of len */
  long double *wi;    /* Bluestein: inverse twiddles of len */
  long double *chirp; /* Bluestein: c_j, j < n */
  long double *bhat;  /* Bluestein: the transform of conj(c) wrapped to len */
} tb_poisson_axis_t;

static void tb_poisson_axis_free(tb_poisson_axis_t *a)
{
  free(a->w);
  free(a->wi);
  free(a->chirp);
  free(a->bhat);
}

static int tb_poisson_axis_init(tb_poisson_axis_t *a, int64_t n, int sign)
{
  memset(a, 0, sizeof *a);
  a->n = a->len = n;
  if ((n & (n - 1)) == 0)
    return (a->w = tb_poisson_twiddles(n, sign)) ? TB_OK : TB_ENOMEM;
  for (a->len = 1; a->len < 2 * n - 1;)
    a->len *= 2;
  a->w = tb_poisson_twiddles(a->len, -1);
  a->wi = tb_poisson_twiddles(a->len, 1);
  a->chirp = malloc((size_t)n * 2 * sizeof *a->chirp);
  a->bhat = calloc((size_t)a->len * 2, sizeof *a->bhat);
  if (!a->w || !a->wi || !a->chirp || !a->bhat)
    return TB_ENOMEM;
  for (int64_t j = 0; j < n; j++) {
    /* j^2 mod 2n keeps the angle exact. */
    long double t = tb_pi_ld * (long double)((j * j) % (2 * n)) / (long double)n;
    a->chirp[2 * j] = cosl(t);
    a->chirp[2 * j + 1] = sign * sinl(t);
  }
  for (int64_t j = 0; j < n; j++) {
    int64_t at[2] = {j, (a->len - j) % a->len};
    for (int c = 0; c < 2; c++) {
      a->bhat[2 * at[c]] = a->chirp[2 * j];
      a->bhat[2 * at[c] + 1] = -a->chirp[2 * j + 1];
    }
  }
  tb_poisson_radix2(a->bhat, a->len, a->w);
  return TB_OK;
}

/* One line of the axis's length (x, interleaved complex) in place; buf
 * holds len complex values. */
static void tb_poisson_line(const tb_poisson_axis_t *a, long double *x, long double *buf)
{
  if (!a->chirp) {
    tb_poisson_radix2(x, a->n, a->w);
    return;
  }
  const long double *c = a->chirp, *b = a->bhat;
  for (int64_t j = 0; j < a->len; j++) {
    buf[2 * j] = j < a->n ? x[2 * j] * c[2 * j] - x[2 * j + 1] * c[2 * j + 1] : 0.0L;
    buf[2 * j + 1] = j < a->n ? x[2 * j] * c[2 * j + 1] + x[2 * j + 1] * c[2 * j] : 0.0L;
  }
  tb_poisson_radix2(buf, a->len, a->w);
  for (int64_t j = 0; j < a->len; j++) {
    long double re = buf[2 * j] * b[2 * j] - buf[2 * j + 1] * b[2 * j + 1];
    buf[2 * j + 1] = buf[2 * j] * b[2 * j + 1] + buf[2 * j + 1] * b[2 * j];
    buf[2 * j] = re;
  }
  tb_poisson_radix2(buf, a->len, a->wi);
  for (int64_t k = 0; k < a->n; k++) {
    long double re = buf[2 * k] * c[2 * k] - buf[2 * k + 1] * c[2 * k + 1];
    long double im = buf[2 * k] * c[2 * k + 1] + buf[2 * k + 1] * c[2 * k];
    x[2 * k] = re / (long double)a->len;
    x[2 * k + 1] = im / (long double)a->len;
  }
}

/* The unnormalised transform of the whole grid z (interleaved complex) along
 * every axis. Each thread gathers lines into its buffer: along a strided
 * axis, 8 adjacent lines at once, so that every cache line and page it
 * touches gives 8 values (one line's values are a page apart on large grids). */
static int tb_poisson_fft_grid(const tb_poisson_t *s, long double *z, int sign)
{
  const int64_t n = s->n, lines = s->total / n;
  tb_poisson_axis_t ax;
  int rc = tb_poisson_axis_init(&ax, n, sign);
  for (int a = 0; a < s->dim && !rc; a++) {
    int64_t stride = 1;
    for (int b = a + 1; b < s->dim; b++)
      stride *= n;
    /* The groups of adjacent lines: stride divides the lines, so a group
     * never straddles two blocks of `stride` lines. */
    const int64_t group = stride % 8 ? 1 : 8;
#pragma omp parallel
    {
      long double *buf = malloc((size_t)(group * n + ax.len) * 2 * sizeof *buf);
      if (!buf) {
#pragma omp atomic write
        rc = TB_ENOMEM;
      }
#pragma omp for schedule(static)
      for (int64_t l = 0; l < lines; l += group) {
        if (!buf)
          continue;
        const int64_t base = (l / stride) * stride * n + l % stride;
        for (int64_t j = 0; j < n; j++)
          for (int64_t g = 0; g < group; g++) {
            buf[2 * (g * n + j)] = z[2 * (base + g + j * stride)];
            buf[2 * (g * n + j) + 1] = z[2 * (base + g + j * stride) + 1];
          }
        for (int64_t g = 0; g < group; g++)
          tb_poisson_line(&ax, buf + 2 * g * n, buf + 2 * group * n);
        for (int64_t j = 0; j < n; j++)
          for (int64_t g = 0; g < group; g++) {
            z[2 * (base + g + j * stride)] = buf[2 * (g * n + j)];
            z[2 * (base + g + j * stride) + 1] = buf[2 * (g * n + j) + 1];
          }
      }
      free(buf);
    }
  }
  tb_poisson_axis_free(&ax);
  return rc ? tb_fail(TB_ENOMEM, "out of memory for the poisson reference") : TB_OK;
}

/* |k|^2 of grid point j's frequencies, in long double. */
static long double tb_poisson_k2(const tb_poisson_t *s, int64_t j)
{
  int64_t idx[3];
  long double k2 = 0.0L, k0 = 2.0L * tb_pi_ld / (long double)s->L;
  tb_poisson_index(s, j, idx);
  for (int a = 0; a < s->dim; a++) {
    long double k = k0 * (long double)tb_poisson_freq(idx[a], s->n);
    k2 += k * k;
  }
  return k2;
}

/* The reference solve of the problem's own (rounded) f, in long double:
 * F = FFT(f), U = -F / |k|^2 with U_0 = 0, u = IFFT(U) / N^dim; and the
 * figures of the bound: R = ||F|| / (k_min^2 ||U||), the norm of u, and the
 * reference's own error bound. */
static int tb_poisson_reference(tb_problem_t *p, tb_poisson_priv_t *pp)
{
  const tb_poisson_t *s = &pp->pub;
  const int64_t total = s->total;
  const void *f = p->array[s->f].host;
  long double *z = malloc((size_t)total * 2 * sizeof *z);
  pp->uref = malloc((size_t)total * sizeof *pp->uref);
  if (!z || !pp->uref) {
    free(z);
    return tb_fail(TB_ENOMEM, "out of memory for the poisson reference");
  }
#pragma omp parallel for schedule(static)
  for (int64_t j = 0; j < total; j++) {
    z[2 * j] = tb_elem_ld(f, p->prec, j);
    z[2 * j + 1] = 0.0L;
  }
  int rc = tb_poisson_fft_grid(s, z, -1);
  long double fn = 0.0L, un = 0.0L;
  const long double kmin = 2.0L * tb_pi_ld / (long double)s->L;
#pragma omp parallel for schedule(static) reduction(+ : fn, un)
  for (int64_t j = 0; j < total; j++) {
    long double re = z[2 * j], im = z[2 * j + 1];
    fn += re * re + im * im;
    long double g = j ? -1.0L / tb_poisson_k2(s, j) : 0.0L;
    z[2 * j] = re * g;
    z[2 * j + 1] = im * g;
    un += (re * re + im * im) * g * g;
  }
  if (!rc)
    rc = tb_poisson_fft_grid(s, z, 1);
  long double un2 = 0.0L;
#pragma omp parallel for schedule(static) reduction(+ : un2)
  for (int64_t j = 0; j < total; j++) {
    double v = (double)(z[2 * j] / (long double)total);
    pp->uref[j] = v;
    un2 += (long double)v * v;
  }
  free(z);
  pp->uref_norm = (double)sqrtl(un2);
  pp->ratio = un > 0 ? (double)(sqrtl(fn) / (kmin * kmin * sqrtl(un))) : INFINITY;
  /* The reference's own error: the same bound in long double (Bluestein's
   * transform of a length that is no power of two is three radix-2
   * transforms of 2n - 1 to 4n points and four products), and its rounding
   * to double. */
  const double uld = (double)LDBL_EPSILON / 2.0;
  const double levels =
      (double)s->dim * ((s->n & (s->n - 1)) ? 3.0 * (tb_log2_ceil(2 * s->n - 1) + 2) : tb_log2_ceil(s->n));
  pp->ref_eps = (2.0 * TB_POISSON_FFT_C * levels + TB_POISSON_SOLVE_ROUNDINGS) * uld *
                    (pp->ratio + 1.0) +
                ldexp(1.0, -53);
  return rc;
}

/* ---- Verification ------------------------------------------------------ */

/* The 2-norm of a - scale b over the grid (a in the problem's precision, b
 * double or the precision's f), and the worst point. */
static long double tb_poisson_diff(const tb_problem_t *p, const void *a, long double scale,
                                   const void *b, int b_double, tb_worst_t *worst)
{
  const int64_t total = ((const tb_poisson_t *)p->priv)->total;
  long double sum = 0.0L;
  *worst = (tb_worst_t)TB_WORST_NONE;
#pragma omp parallel reduction(+ : sum)
  {
    tb_worst_t w = TB_WORST_NONE;
#pragma omp for schedule(static)
    for (int64_t j = 0; j < total; j++) {
      long double bj = b_double ? (long double)((const double *)b)[j] : tb_elem_ld(b, p->prec, j);
      long double d = tb_elem_ld(a, p->prec, j) * scale - bj;
      sum += d * d;
      tb_worst_see(&w, (double)fabsl(d), j);
    }
#pragma omp critical
    tb_worst_merge(worst, &w);
  }
  return sum;
}

/* The textbook's error columns: u and the exact solution both shifted to be
 * 0 at grid point 0, then the largest difference and the 2-norm of the
 * differences over N^dim. */
static void tb_poisson_errors(const tb_problem_t *p, const void *u, double *extra)
{
  const tb_poisson_priv_t *pp = p->priv;
  const int64_t total = pp->pub.total;
  const long double u0 = tb_elem_ld(u, p->prec, 0);
  const double e0 = tb_poisson_exact(pp, 0, NULL);
  long double sum = 0.0L;
  double worst = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : sum) reduction(max : worst)
  for (int64_t j = 0; j < total; j++) {
    long double d = (tb_elem_ld(u, p->prec, j) - u0) - (long double)(tb_poisson_exact(pp, j, NULL) - e0);
    double ad = (double)fabsl(d);
    sum += d * d;
    worst = ad > worst || ad != ad ? ad : worst;
  }
  extra[TB_POISSON_ERR_LINF] = worst;
  extra[TB_POISSON_ERR_L2] = (double)(sqrtl(sum) / (long double)total);
}

/* The verdict: the variant's rounding against the derived bound (doc/poisson.md).
 * A solve: ||u - u_ref|| / ||u_ref|| <= (eps R + eps_s)(1 + eps) + eps + eps_ref,
 * eps = C log2(N^dim) u per transform, eps_s = 12 u the solve step's roundings,
 * R = ||F|| / (k_min^2 ||U||) how much the divide by |k|^2 can amplify a
 * forward transform's error relative to the solution. A round trip:
 * ||u / N^dim - f|| / ||f|| <= 2 eps (1 + eps) + u. */
static int tb_poisson_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  tb_poisson_priv_t *pp = p->priv;
  const tb_poisson_t *s = &pp->pub;
  const void *u = view[s->u];
  const double ur = tb_unit_roundoff(p->prec);
  const double eps = TB_POISSON_FFT_C * s->dim * tb_log2_ceil(s->n) * ur;
  tb_worst_t w;
  int rc;
  if (extra[TB_POISSON_ROUNDTRIP] == 1.0) {
    extra[TB_POISSON_ERR_LINF] = extra[TB_POISSON_ERR_L2] = NAN;
    const void *f = view[s->f];
    long double fn = 0.0L;
    for (int64_t j = 0; j < s->total; j++)
      fn += tb_elem_ld(f, p->prec, j) * tb_elem_ld(f, p->prec, j);
    long double d = tb_poisson_diff(p, u, 1.0L / (long double)s->total, f, 0, &w);
    double err = (double)sqrtl(d / fn);
    if (tb_check_against(chk, err == err ? err : INFINITY, 2.0 * eps * (1.0 + eps) + ur))
      tb_check_fail(chk, "round trip u / N^%d differs from f by %.3g relative (2-norm), over the "
                    "bound %.3g; worst at point %lld%s", s->dim, chk->error, chk->tolerance,
                    (long long)w.at, tb_poison_note((double)tb_elem_ld(u, p->prec, w.at)));
    return TB_OK;
  }
  if (!pp->uref && (rc = tb_poisson_reference(p, pp)))
    return rc;
  tb_poisson_errors(p, u, extra);
  long double d = tb_poisson_diff(p, u, 1.0L, pp->uref, 1, &w);
  double err = (double)(sqrtl(d) / (long double)pp->uref_norm);
  const double eps_s = TB_POISSON_SOLVE_ROUNDINGS * ur;
  const double tol = (eps * pp->ratio + eps_s) * (1.0 + eps) + eps + pp->ref_eps;
  if (tb_check_against(chk, err == err ? err : INFINITY, tol))
    tb_check_fail(chk, "u differs from the reference solve by %.3g relative (2-norm), over the "
                  "bound %.3g (R = %.3g); worst at point %lld: %.17g, reference %.17g%s",
                  chk->error, chk->tolerance, pp->ratio, (long long)w.at,
                  (double)tb_elem_ld(u, p->prec, w.at), pp->uref[w.at],
                  tb_poison_note((double)tb_elem_ld(u, p->prec, w.at)));
  return TB_OK;
}

/* The byte floor of the pipeline (doc/poisson.md): a real-to-complex
 * transform reads f and writes the half spectrum (N^(dim-1) (N/2 + 1)
 * complex values), the solve reads and writes it, the complex-to-real
 * transform reads it and writes u: each array once per stage, the fewest
 * passes a pipeline of three library-bound stages allows. Flops: the FFT
 * convention 5 M log2 M for a complex transform of M points, half that for
 * a real one (R2C and C2R: 5 M log2 M together), and 2 dim + 2 per
 * half-spectrum value for the solve (|k|^2, one divide, two products). Every
 * variant of a problem is held to the same cost, so the C2C pipelines' extra
 * traffic shows as a lower fraction of the roofline, and the transform-only
 * baseline's rows read as the solve they stand in for. */
static void tb_poisson_cost(const tb_problem_t *p, tb_cost_t *c)
{
  const tb_poisson_t *s = p->priv;
  const double e = (double)tb_kind_size(tb_prec_kind(p->prec));
  const double m = (double)s->total, half = (double)s->rows * (double)s->half;
  c->read = m * e + 2.0 * (2.0 * e * half);
  c->written = 2.0 * (2.0 * e * half) + m * e;
  c->flops = 5.0 * m * log2(m) + (2.0 * s->dim + 2.0) * half;
}

/* The grid point by point (--dump): its index, f and the variant's u,
 * printed to round trip in the precision, so that two runs' solutions can
 * be compared (the MPI test holds every rank count to the one-rank u). */
static int tb_poisson_dump(const tb_problem_t *p, void *const *view, FILE *out)
{
  const tb_poisson_t *s = p->priv;
  const int digits = tb_prec_digits(p->prec);
  fprintf(out, "j,f,u\n");
  for (int64_t j = 0; j < s->total; j++)
    fprintf(out, "%lld,%.*g,%.*g\n", (long long)j, digits,
            (double)tb_elem_ld(view[s->f], p->prec, j), digits,
            (double)tb_elem_ld(view[s->u], p->prec, j));
  return TB_OK;
}

static void tb_poisson_cleanup(tb_problem_t *p)
{
  tb_poisson_priv_t *pp = p->priv;
  if (pp)
    free(pp->uref);
  tb_problem_free_priv(p);
}

const tb_algo_t tb_algo_poisson = {
    .name = "poisson",
    .summary = "spectral Poisson solve on a periodic square or cube: FFTW3 with threads vs cuFFT, "
               "the published C2C pipeline, R2C with a fused solve"
#ifndef TB_HAVE_FFTW
               " (CPU twins need FFTW3, absent from this build)"
#endif
    ,
    .flags = 0,
    .precisions = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_precisions = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_sizes = "1024",
    .size_meaning = "N, points a side (N^dim grid points; even, at least 4)",
    .presets = tb_poisson_presets,
    .npresets = TB_COUNT(tb_poisson_presets),
    .params = tb_poisson_params,
    .nparams = TB_COUNT(tb_poisson_params),
    .columns = tb_poisson_columns,
    .ncolumns = TB_COUNT(tb_poisson_columns),
    .error_meaning = "||u - u_ref||_2 / ||u_ref||_2, u_ref a long-double solve of the same f "
                     "(round trip: ||u / N^dim - f|| / ||f||); bound from the FFT's rounding, "
                     "doc/poisson.md",
    .setup = tb_poisson_setup,
    .generate = tb_poisson_generate,
    .verify = tb_poisson_verify,
    .cost = tb_poisson_cost,
    .dump = tb_poisson_dump,
    .cleanup = tb_poisson_cleanup,
};
