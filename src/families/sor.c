/* twinbench: the red-black SOR family's problem, verifier and cost. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/refmath.h"
#include "../common/rng.h"
#include "../common/status.h"
#include "../common/tbmpi.h"
#include "sor.h"

static const char *const tb_sor_problems[] = {"manufactured", "laplace", "capacitor", NULL};
static const char *const tb_sor_meshes[] = {"uniform", "stretched", NULL};

enum { P_PROBLEM, P_MESH, P_OMEGA, P_TOL, P_MAXITER, P_CHECK, P_NX, P_NY, P_NZ, P_PGRID };

static const tb_param_def_t tb_sor_params[] = {
    {"problem", "manufactured (sin sin sin), laplace (quadratic boundary data) or capacitor",
     TB_PARAM_CHOICE, "manufactured", 0, 0, tb_sor_problems, 0, NULL},
    {"mesh", "uniform, or stretched (finer at the walls: x = s - sin(2 pi s) / (4 pi))",
     TB_PARAM_CHOICE, "uniform", 0, 0, tb_sor_meshes, 0, NULL},
    {"omega", "the relaxation factor in (0, 2); auto: 2 / (1 + sin(pi h)), h = 1 / (n + 1)",
     TB_PARAM_TEXT, "auto", 0, 0, NULL, 0, NULL},
    {"tol", "stop when ||r|| < tol ||r_0|| (at least 32 unit roundoffs of the precision)",
     TB_PARAM_REAL, "1e-5", 1e-15, 0.5, NULL, 0, NULL},
    {"maxiter", "the most iterations (a solve stopped there is shown so, not failed); auto: "
                "ln(1/tol) (n + 1) / pi + 50, twice what SOR needs", TB_PARAM_INT, "auto",
     1, 1e8, NULL, TB_PARAM_AUTO, NULL},
    {"check", "reduce the residual every check iterations", TB_PARAM_INT, "10", 1, 1e6, NULL, 0,
     NULL},
    {"nx", "interior points along x (auto: the size)", TB_PARAM_INT, "auto", 1, 1 << 20, NULL,
     TB_PARAM_AUTO, NULL},
    {"ny", "interior points along y (auto: the size)", TB_PARAM_INT, "auto", 1, 1 << 20, NULL,
     TB_PARAM_AUTO, NULL},
    {"nz", "interior points along z (auto: the size)", TB_PARAM_INT, "auto", 1, 1 << 20, NULL,
     TB_PARAM_AUTO, NULL},
    {"pgrid", "the MPI twins' process grid PXxPYxPZ (its product the ranks); auto: "
              "MPI_Dims_create's, the most ranks along z", TB_PARAM_TEXT, "auto", 0, 0, NULL, 0,
     NULL},
};

static const tb_column_def_t tb_sor_columns[] = {
    {"iterations", "%.0f", "iterations to the stop", 0},
    {"residual", "%.3g", "the solver's ||r|| / ||r_0|| at the stop", 0},
    {"err_max", "%.3g", "max |v - v_exact| (manufactured, laplace)", 0},
    {"err_discrete", "%.3g",
     "the discrete solution's error max |v_h - v_exact| (manufactured, uniform)", TB_COL_WIDE},
    {"true_res", "%.3g", "the verifier's ||f - A v|| / ||f - A v_0|| of the result", TB_COL_WIDE},
    {"glups", "%.4g", "cell updates (interior points x iterations) per second / 1e9", 0},
    {"ms_sweep", "%.4g", "median time per iteration (a red and a black sweep), ms", TB_COL_TIME},
    {"bytes_update", "%.3g", "the byte floor per cell update: v read and written, f, material", 0},
    {"r0", "%.6g", "the solver's ||r_0||", TB_COL_WIDE},
    {"px", "%.0f", "MPI: ranks of the process grid along x", 0},
    {"py", "%.0f", "MPI: ranks of the process grid along y", 0},
    {"pz", "%.0f", "MPI: ranks of the process grid along z", 0},
    {"halo_bytes", "%.4g", "MPI: halo bytes the busiest rank sends an iteration", TB_COL_WIDE},
};

/* The seeds' published single-precision GPU runs, with their times to convergence. */
static const tb_preset_t tb_sor_presets[] = {
    {"seeds300", 300, "the seeds' published run at 300^3 (float, GPU: 2.5 s)"},
    {"seeds400", 400, "the seeds' published run at 400^3 (float, GPU: 6.0 s)"},
    {"seeds500", 500, "the seeds' published run at 500^3 (float, GPU: 11.4 s)"},
    {"seeds600", 600, "the seeds' published run at 600^3 (float, GPU: 19.3 s)"},
};

/* The permittivities of the materials (TB_SOR_MAT of the byte): 0 the
 * background, 1 the capacitor's dielectric, 2 and 3 its plates (electrodes:
 * the plates' own value only weighs the faces next to them). */
static const double tb_sor_eps[TB_SOR_NMAT] = {1.0, 4.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
#define TB_SOR_PLATE_A (2u | TB_SOR_FIXED)
#define TB_SOR_PLATE_B (3u | TB_SOR_FIXED)

/* The stretched mesh's node of s in [0, 1]: dx/ds = 1 - cos(2 pi s) / 2, in
 * [1/2, 3/2], finest at the walls; x(0) = 0 and x(1) = 1. */
static double tb_sor_node(int mesh, int64_t i, int64_t n)
{
  const double s = (double)i / (double)(n + 1);
  return mesh == TB_SOR_UNIFORM ? s : s - sin(2.0 * M_PI * s) / (4.0 * M_PI);
}

/* The family's private state: what variants see and the verifier's caches. */
typedef struct tb_sor_priv {
  tb_sor_t pub;
  int have_ref;
  long double r0_true;   /* ||f - A v_0||_2 of the initial state */
  long double k_bound;   /* K: ||C D^-1||_2 of the couplings of free points */
  long double a_inv;     /* ||A^-1||_inf <= 1 / (8 min A phi) (eps = 1 problems) */
  long double tau_inf;   /* ||A v_exact - f||_inf: truncation and rounding of the stored data */
  long double disc_err;  /* the discrete solution's error (manufactured, uniform), else NaN */
  long double disc_fac;  /* v_h = disc_fac v_exact there */
  long double f_dev;     /* ||f_stored - f_exact||_inf there */
  /* Each axis's nodes and sin(pi x) at them (nx + 2, ny + 2, nz + 2 values):
   * the exact solution and the nodes are per-point loops' table reads, not
   * three sinl (whose argument reduction took three quarters of the setup
   * and checks of a 256^3 problem) and the stretched mesh's sin a point. */
  long double *node[3], *sine[3];
} tb_sor_priv_t;

/* The process grid from -P pgrid (PXxPYxPZ, or auto: MPI_Dims_create's
 * over the ranks): its product must be the run's ranks, and no axis may
 * have more ranks than points (every rank a box of its own). */
static int tb_sor_pgrid(tb_sor_t *s, const char *text)
{
  const int ranks = tb_mpi_size();
  const int64_t n3[3] = {s->nx, s->ny, s->nz};
  char shown[48];
  if (!text || !strcmp(text, "auto"))
    tb_mpi_cart_dims(ranks, s->pgrid);
  else {
    const char *c = text;
    for (int a = 0; a < 3; a++) {
      char *end;
      const long d = *c >= '1' && *c <= '9' ? strtol(c, &end, 10) : 0;
      if (d < 1 || d > 1 << 20 || *end != (a < 2 ? 'x' : '\0'))
        return tb_fail(TB_EINVAL, "sor: -P pgrid '%s' is not PXxPYxPZ (positive integers) or auto",
                       tb_printable(text, shown, sizeof shown));
      s->pgrid[a] = (int)d;
      c = end + 1;
    }
  }
  const int64_t product = (int64_t)s->pgrid[0] * s->pgrid[1] * s->pgrid[2];
  if (product != ranks)
    return tb_fail(TB_EINVAL, "sor: the process grid %dx%dx%d has %lld ranks, the run %d",
                   s->pgrid[0], s->pgrid[1], s->pgrid[2], (long long)product, ranks);
  for (int a = 0; a < 3; a++)
    if (s->pgrid[a] > n3[a])
      return tb_fail(TB_EINVAL, "sor: the process grid %dx%dx%d puts %d ranks on the %lld points "
                                "along %c (-P pgrid)",
                     s->pgrid[0], s->pgrid[1], s->pgrid[2], s->pgrid[a], (long long)n3[a],
                     "xyz"[a]);
  return TB_OK;
}

/* sp's node and sine tables, one block from node[0] (tb_sor_cleanup), made
 * with the problem's data (the sizes then fit in memory). */
static int tb_sor_axes(tb_sor_priv_t *sp)
{
  const tb_sor_t *s = &sp->pub;
  const long double pi = 3.141592653589793238462643383279502884L;
  const int64_t n3[3] = {s->nx, s->ny, s->nz};
  if (sp->node[0]) /* the problem's, made once */
    return TB_OK;
  const size_t total = (size_t)(n3[0] + 2) + (size_t)(n3[1] + 2) + (size_t)(n3[2] + 2);
  long double *t = malloc(2 * total * sizeof *t);
  if (!t)
    return tb_fail(TB_ENOMEM, "sor: out of memory for the axes' tables (%zu values)", 2 * total);
  for (int a = 0; a < 3; a++) {
    sp->node[a] = t;
    sp->sine[a] = t + n3[a] + 2;
    for (int64_t i = 0; i < n3[a] + 2; i++) {
      sp->node[a][i] = tb_sor_node(s->mesh, i, n3[a]);
      sp->sine[a][i] = sinl(pi * sp->node[a][i]);
    }
    t += 2 * (n3[a] + 2);
  }
  return TB_OK;
}

static void tb_sor_cleanup(tb_problem_t *p)
{
  tb_sor_priv_t *sp = p->priv;
  if (sp)
    free(sp->node[0]);
  tb_problem_free_priv(p);
}

static int tb_sor_setup(tb_problem_t *p)
{
  tb_sor_priv_t *sp = calloc(1, sizeof *sp);
  if (!sp)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = sp;
  tb_sor_t *s = &sp->pub;
  if (p->n < 1)
    return tb_fail(TB_EINVAL, "sor: the size must be at least 1 interior point a side");
  s->problem = (int)p->param[P_PROBLEM].i;
  s->mesh = (int)p->param[P_MESH].i;
  s->nx = p->param[P_NX].i ? p->param[P_NX].i : p->n;
  s->ny = p->param[P_NY].i ? p->param[P_NY].i : p->n;
  s->nz = p->param[P_NZ].i ? p->param[P_NZ].i : p->n;
  s->tol = p->param[P_TOL].r;
  s->check = p->param[P_CHECK].i;
  int rc = tb_sor_pgrid(s, p->param[P_PGRID].s);
  if (rc)
    return rc;
  const double u = tb_unit_roundoff(p->prec);
  if (s->tol < 32 * u)
    return tb_fail(TB_EINVAL, "sor: --tol %g is below what %s resolves (32 unit roundoffs: %.2g)",
                   s->tol, tb_prec_name(p->prec), 32 * u);
  const int64_t nmax =
      s->nx > s->ny ? (s->nx > s->nz ? s->nx : s->nz) : (s->ny > s->nz ? s->ny : s->nz);
  const double h = 1.0 / (double)(nmax + 1);
  const char *w = p->param[P_OMEGA].s;
  if (!w || !strcmp(w, "auto"))
    s->omega = 2.0 / (1.0 + sin(M_PI * h));
  else {
    char *end;
    s->omega = strtod(w, &end);
    if (end == w || *end || !(s->omega > 0.0 && s->omega < 2.0))
      return tb_fail(TB_EINVAL, "sor: --omega '%.40s' must be a number in (0, 2), or auto", w);
  }
  /* SOR at the optimal omega contracts by omega - 1 ~ 1 - 2 pi h an
   * iteration: ln(1/tol) / (2 pi h) iterations (5.1 (n + 1) at tol 1e-14;
   * 5.5 (n + 1) measured on the stretched capacitor); twice that, and 50 for
   * the first iterations' transient. Jacobi needs O(n^2),
   * ln(1/tol) / (pi^2 h^2 / 2): give it maxiter to converge (by default it
   * stops there, noted). */
  s->maxiter = p->param[P_MAXITER].i ? p->param[P_MAXITER].i
                                     : (int64_t)ceil(log(1.0 / s->tol) / (M_PI * h)) + 50;
  s->sx = tb_count_add(p, s->nx, 2);
  s->sxy = tb_count_mul(p, s->sx, tb_count_add(p, s->ny, 2));
  s->cells = tb_count_mul(p, s->sxy, tb_count_add(p, s->nz, 2));
  const tb_kind_t k = tb_prec_kind(p->prec);
  s->v = tb_problem_add_array(p, "v", k, TB_INOUT, s->cells);
  s->f = tb_problem_add_array(p, "f", k, TB_IN, s->cells);
  s->mat = tb_problem_add_array(p, "mat", TB_KIND_U8, TB_IN, s->cells);
  s->ax[0] = 0;
  s->ax[1] = 2 * (s->nx + 2);
  s->ax[2] = s->ax[1] + 2 * (s->ny + 2);
  s->hm = s->ax[2] + 2 * (s->nz + 2);
  s->coef = tb_problem_add_array(p, "coef", k, TB_IN, s->hm + TB_SOR_NMAT * TB_SOR_NMAT);
  /* The variants' own copies: the colour-split arrays (v twice for the GPU
   * stream sweep's two iterates, f and the materials again, rows of nx + 3
   * points: at most 4/3 of the cells) or the second iterate; on the GPU also
   * a double per block of 256 points for the residual's partials. */
  const int64_t e = (int64_t)tb_kind_size(k);
  const int64_t extra = tb_count_mul(p, s->cells / 3 + 1, 4 * (3 * e + 1));
  p->extra_host_bytes = extra;
  p->extra_device_bytes = tb_count_add(p, tb_count_add(p, extra, s->cells / 16), 1 << 20);
  return TB_OK;
}

/* The exact solution at node (i, j, k) where one exists (the capacitor has
 * none: NaN): sin(pi x) sin(pi y) sin(pi z), or x^2 + y^2 - 2 z^2. */
static long double tb_sor_exact(const tb_sor_priv_t *sp, int64_t i, int64_t j, int64_t k)
{
  if (sp->pub.problem == TB_SOR_MANUFACTURED)
    return sp->sine[0][i] * sp->sine[1][j] * sp->sine[2][k];
  if (sp->pub.problem == TB_SOR_LAPLACE) {
    const long double x = sp->node[0][i], y = sp->node[1][j], z = sp->node[2][k];
    return x * x + y * y - 2 * z * z;
  }
  return NAN;
}

/* The plates of the capacitor: the z-planes nearest 0.3 and 0.7 over the
 * middle half in x and y, at +1 and -1; a dielectric (eps 4) fills the gap
 * between them over the middle 60%. */
static unsigned tb_sor_capacitor(const tb_sor_t *s, int64_t i, int64_t j, int64_t k, double *v)
{
  const int64_t ka = (int64_t)llround(0.3 * (double)(s->nz + 1));
  const int64_t kb = (int64_t)llround(0.7 * (double)(s->nz + 1));
  const double x = (double)i / (double)(s->nx + 1), y = (double)j / (double)(s->ny + 1);
  const int plate = x >= 0.25 && x <= 0.75 && y >= 0.25 && y <= 0.75;
  if (plate && k == ka && ka >= 1) {
    *v = 1.0;
    return TB_SOR_PLATE_A;
  }
  if (plate && k == kb && kb <= s->nz && kb != ka) {
    *v = -1.0;
    return TB_SOR_PLATE_B;
  }
  return k > ka && k < kb && x >= 0.2 && x <= 0.8 && y >= 0.2 && y <= 0.8;
}

static void tb_sor_put(tb_prec_t prec, void *a, int64_t i, double x)
{
  if (prec == TB_FLOAT)
    ((float *)a)[i] = (float)x;
  else
    ((double *)a)[i] = x;
}

/* The spacing factors of axis a: rxm_i = 1 / (h_{i-1} (h_{i-1} + h_i) / 2),
 * rxp_i = 1 / (h_i (h_{i-1} + h_i) / 2), h_i = x_{i+1} - x_i; 0 on the
 * boundary points, where no update reads them. */
static void tb_sor_axis(const tb_problem_t *p, const tb_sor_t *s, int64_t n, int64_t at)
{
  void *c = p->array[s->coef].host;
  for (int64_t i = 0; i < n + 2; i++) {
    double rm = 0.0, rp = 0.0;
    if (i >= 1 && i <= n) {
      const double xm = tb_sor_node(s->mesh, i - 1, n), x0 = tb_sor_node(s->mesh, i, n),
                   xp = tb_sor_node(s->mesh, i + 1, n);
      const double hm = x0 - xm, hp = xp - x0, mid = 0.5 * (hm + hp);
      rm = 1.0 / (hm * mid);
      rp = 1.0 / (hp * mid);
    }
    tb_sor_put(p->prec, c, at + i, rm);
    tb_sor_put(p->prec, c, at + n + 2 + i, rp);
  }
}

/* The initial state: the boundary data and electrode potentials (held), and
 * elsewhere a Philox draw, so no solve starts from zeros or from the answer. */
static int tb_sor_generate(tb_problem_t *p)
{
  tb_sor_priv_t *sp = p->priv;
  tb_sor_t *s = &sp->pub;
  const int64_t n3[3] = {s->nx, s->ny, s->nz};
  const int rc = tb_sor_axes(sp);
  if (rc)
    return rc;
  for (int a = 0; a < 3; a++)
    tb_sor_axis(p, s, n3[a], s->ax[a]);
  for (int m1 = 0; m1 < TB_SOR_NMAT; m1++)
    for (int m2 = 0; m2 < TB_SOR_NMAT; m2++) {
      const double e1 = tb_sor_eps[m1], e2 = tb_sor_eps[m2];
      tb_sor_put(p->prec, p->array[s->coef].host, s->hm + m1 * TB_SOR_NMAT + m2,
                 2.0 * e1 * e2 / (e1 + e2));
    }
  void *v = p->array[s->v].host, *f = p->array[s->f].host;
  uint8_t *mat = p->array[s->mat].host;
  tb_rng_uniform(p->prec, v, s->cells, p->seed, 1, s->problem == TB_SOR_MANUFACTURED ? 0.0 : -1.0,
                 1.0);
  const long double pi = 3.141592653589793238462643383279502884L;
  int64_t nfree = 0;
#pragma omp parallel for schedule(static) reduction(+ : nfree)
  for (int64_t k = 0; k < s->nz + 2; k++)
    for (int64_t j = 0; j < s->ny + 2; j++)
      for (int64_t i = 0; i < s->nx + 2; i++) {
        const int64_t c = i + s->sx * j + s->sxy * k;
        const int interior = i >= 1 && i <= s->nx && j >= 1 && j <= s->ny && k >= 1 && k <= s->nz;
        double held = 0.0, fc = 0.0;
        unsigned m = 0;
        if (s->problem == TB_SOR_CAPACITOR)
          m = tb_sor_capacitor(s, i, j, k, &held);
        else {
          const long double ex = tb_sor_exact(sp, i, j, k);
          held = (double)ex;
          if (s->problem == TB_SOR_MANUFACTURED)
            fc = (double)(3 * pi * pi * ex);
        }
        mat[c] = (uint8_t)m;
        tb_sor_put(p->prec, f, c, interior ? fc : 0.0);
        if (!interior || (m & TB_SOR_FIXED))
          tb_sor_put(p->prec, v, c, held);
        nfree += interior && !(m & TB_SOR_FIXED);
      }
  s->nfree = nfree;
  return TB_OK;
}

/* One interior point of the stored operator in long double: the residual
 * f - (A v), the magnitude of its terms (for rounding bounds) and the
 * diagonal. */
typedef struct tb_sor_row {
  long double r, mag, d, c[6];
  int64_t nb[6];
} tb_sor_row_t;

/* Neighbour q of node (i, j, k), in tb_sor_ops's order (-x, +x, -y, +y, -z,
 * +z): its coordinates, without dividing its index. */
static void tb_sor_nbr(int q, int64_t i, int64_t j, int64_t k, int64_t at[3])
{
  at[0] = i, at[1] = j, at[2] = k;
  at[q >> 1] += q & 1 ? 1 : -1;
}

/* The row's couplings c and neighbours nb of point (i, j, k), and its
 * diagonal d (their sum, in order), without v. */
static void tb_sor_ops(const tb_problem_t *p, const tb_sor_t *s, int64_t i, int64_t j, int64_t k,
                       tb_sor_row_t *w)
{
  const void *cf = p->array[s->coef].host;
  const uint8_t *mat = p->array[s->mat].host;
  const int64_t c = i + s->sx * j + s->sxy * k;
  const int64_t nb[6] = {c - 1, c + 1, c - s->sx, c + s->sx, c - s->sxy, c + s->sxy};
  const int64_t rx[6] = {s->ax[0] + i, s->ax[0] + s->nx + 2 + i, s->ax[1] + j,
                         s->ax[1] + s->ny + 2 + j, s->ax[2] + k, s->ax[2] + s->nz + 2 + k};
  const unsigned mc = TB_SOR_MAT(mat[c]);
  long double d = 0;
  for (int q = 0; q < 6; q++) {
    w->c[q] = tb_elem_ld(cf, p->prec, s->hm + mc * TB_SOR_NMAT + TB_SOR_MAT(mat[nb[q]])) *
              tb_elem_ld(cf, p->prec, rx[q]);
    w->nb[q] = nb[q];
    d += w->c[q];
  }
  w->d = d;
}

static void tb_sor_row(const tb_problem_t *p, const tb_sor_t *s, const void *v, int64_t i,
                       int64_t j, int64_t k, tb_sor_row_t *w)
{
  const int64_t c = i + s->sx * j + s->sxy * k;
  tb_sor_ops(p, s, i, j, k, w);
  long double sum = tb_elem_ld(p->array[s->f].host, p->prec, c), mag = fabsl(sum);
  for (int q = 0; q < 6; q++) {
    const long double t = w->c[q] * tb_elem_ld(v, p->prec, w->nb[q]);
    sum += t;
    mag += fabsl(t);
  }
  const long double dv = w->d * tb_elem_ld(v, p->prec, c);
  w->r = sum - dv;
  w->mag = mag + fabsl(dv);
}

static int tb_sor_interior(const tb_sor_t *s, int64_t c)
{
  const int64_t i = c % s->sx, j = c / s->sx % (s->ny + 2), k = c / s->sxy;
  return i >= 1 && i <= s->nx && j >= 1 && j <= s->ny && k >= 1 && k <= s->nz;
}

/* What depends on the problem only, once: the initial true residual, K, and
 * for eps = 1 the bound on ||A^-1||_inf and the truncation error. */
static void tb_sor_reference(tb_problem_t *p, tb_sor_priv_t *sp)
{
  const tb_sor_t *s = &sp->pub;
  const void *v0 = p->array[s->v].host, *f = p->array[s->f].host;
  const uint8_t *mat = p->array[s->mat].host;
  const int eps1 = s->problem != TB_SOR_CAPACITOR;
  const long double pi = 3.141592653589793238462643383279502884L;
  long double r2 = 0, kmax = 0, cmax = 0, phimin = INFINITY, tau = 0, fdev = 0;
  /* The manufactured problem on a uniform mesh: sin(pi x) sin(pi y) sin(pi z)
   * is an eigenvector of the stored operator with eigenvalue
   * lambda = sum_a 4 c_a sin^2(pi h_a / 2), so v_h = 3 pi^2 / lambda v_exact. */
  long double lambda = 0;
  const int64_t n3[3] = {s->nx, s->ny, s->nz};
  for (int a = 0; a < 3; a++) {
    const long double sa = sinl(pi / (2 * (n3[a] + 1)));
    lambda += 4 * tb_elem_ld(p->array[s->coef].host, p->prec, s->ax[a] + 1) * sa * sa;
  }
  sp->disc_fac = 3 * pi * pi / lambda;
  long double vmax = 0;
#pragma omp parallel for schedule(static) reduction(+ : r2) \
    reduction(max : kmax, cmax, tau, fdev, vmax) reduction(min : phimin)
  for (int64_t k = 1; k <= s->nz; k++)
    for (int64_t j = 1; j <= s->ny; j++)
      for (int64_t i = 1; i <= s->nx; i++) {
        const int64_t c = i + s->sx * j + s->sxy * k;
        if (mat[c] & TB_SOR_FIXED)
          continue;
        tb_sor_row_t w;
        tb_sor_row(p, s, v0, i, j, k, &w);
        r2 += w.r * w.r;
        /* Row i and column i of C D^-1 over free neighbours b: sums of
         * c_ib / d_b and of c_bi / d_i (K^2 <= max row sum x max column sum;
         * the stretched mesh's operator is not symmetric). */
        long double rs = 0, cs = 0;
        for (int q = 0; q < 6; q++)
          if (tb_sor_interior(s, w.nb[q]) && !(mat[w.nb[q]] & TB_SOR_FIXED)) {
            int64_t b[3];
            tb_sor_row_t wb;
            tb_sor_nbr(q, i, j, k, b);
            tb_sor_ops(p, s, b[0], b[1], b[2], &wb);
            rs += w.c[q] / wb.d;
            cs += wb.c[q ^ 1] / w.d;
          }
        kmax = rs > kmax ? rs : kmax;
        cmax = cs > cmax ? cs : cmax;
        if (!eps1)
          continue;
        /* phi = x (1 - x) / 2 (zero on the walls, -phi'' = 1, reproduced by the
         * 3-point stencil up to the coefficients' rounding): A phi >= phimin; and
         * tau = (A v_exact) - f_stored, with the boundary taken from v_exact. */
        long double ap = 0, av = 0;
        const long double x0 = sp->node[0][i], phi0 = x0 * (1 - x0) / 2;
        for (int q = 0; q < 6; q++) {
          int64_t b[3];
          tb_sor_nbr(q, i, j, k, b);
          const long double xb = sp->node[0][b[0]];
          ap += w.c[q] * (phi0 - xb * (1 - xb) / 2);
          av -= w.c[q] * tb_sor_exact(sp, b[0], b[1], b[2]);
        }
        phimin = ap < phimin ? ap : phimin;
        const long double ec = tb_sor_exact(sp, i, j, k);
        av += w.d * ec;
        const long double fs = tb_elem_ld(f, p->prec, c);
        const long double t = fabsl(av - fs);
        tau = t > tau ? t : tau;
        const long double fd =
            s->problem == TB_SOR_MANUFACTURED ? fabsl(fs - 3 * pi * pi * ec) : fabsl(fs);
        fdev = fd > fdev ? fd : fdev;
        const long double dv = fabsl((sp->disc_fac - 1) * ec);
        vmax = dv > vmax ? dv : vmax;
      }
  sp->r0_true = sqrtl(r2);
  sp->k_bound = sqrtl(kmax * cmax);
  sp->a_inv = eps1 && phimin > 0 ? 1 / (8 * phimin) : NAN;
  sp->tau_inf = tau;
  sp->f_dev = fdev;
  sp->disc_err = s->problem == TB_SOR_MANUFACTURED && s->mesh == TB_SOR_UNIFORM ? vmax : NAN;
  sp->have_ref = 1;
}

/* Verification (doc/sor.md):
 * 1. held points (the boundary and the electrodes) keep their bits;
 * 2. the solver stopped by its rule: residual < tol, or at maxiter (which
 *    passes with a note: the result is what the budget gives, and checked);
 * 3. the true residual of the result, computed here in long double, is at
 *    most B = (|1 - w| + w K)(res ||r_0|| + g8 ||M||) + 2 g8 ||M||, res the
 *    solver's relative residual at the stop (below tol if it converged), relative to
 *    the initial true residual: the stopping residual mixes the red points'
 *    residuals before the iteration with the black points' after the red
 *    sweep; the black sweep's updates scale the black residuals by (1 - w)
 *    and add w C D^-1 r_black to the red ones (K >= ||C D^-1||_2); each
 *    computed point residual errs by at most g8 M_i (eight roundings of terms
 *    of total magnitude M_i); the operator as computed (rounded coefficient
 *    products, the diagonal's chain) and the rounded update move the final
 *    residual by at most 2 g8 M_i more;
 * 4. with eps = 1: |v - v_exact|_inf <= 2u + ||A^-1||_inf (B + ||tau||_inf)
 *    (B absolute; 2u the rounded walls, |v_exact| <= 2 there),
 *    ||A^-1||_inf <= 1 / (8 min A phi), phi = x (1 - x) / 2; on the uniform
 *    mesh the manufactured problem's |v - v_h|_inf <= 2u + ||A^-1||_inf (B
 *    + ||f - f_exact||_inf) against the closed-form discrete solution v_h.
 *    A bound of half the solution's size or more tells nothing and is not
 *    held (the residual check stands). */
static int tb_sor_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  tb_sor_priv_t *sp = p->priv;
  const tb_sor_t *s = &sp->pub;
  if (!sp->have_ref)
    tb_sor_reference(p, sp);
  const void *v = view[s->v], *v0 = p->array[s->v].host;
  const uint8_t *mat = p->array[s->mat].host;
  const size_t e = tb_kind_size(tb_prec_kind(p->prec));
  int64_t moved = 0, moved_at = -1;
#pragma omp parallel for schedule(static) reduction(+ : moved) reduction(max : moved_at)
  for (int64_t c = 0; c < s->cells; c++)
    if ((!tb_sor_interior(s, c) || (mat[c] & TB_SOR_FIXED)) &&
        memcmp((const char *)v + c * e, (const char *)v0 + c * e, e)) {
      moved++;
      moved_at = c > moved_at ? c : moved_at;
    }
  long double r2 = 0, m2 = 0, err = 0, derr = 0, vmin = INFINITY, vmaxv = -INFINITY;
#pragma omp parallel for schedule(static) reduction(+ : r2, m2) reduction(max : err, derr, vmaxv) \
    reduction(min : vmin)
  for (int64_t k = 1; k <= s->nz; k++)
    for (int64_t j = 1; j <= s->ny; j++)
      for (int64_t i = 1; i <= s->nx; i++) {
        const int64_t c = i + s->sx * j + s->sxy * k;
        if (mat[c] & TB_SOR_FIXED)
          continue;
        tb_sor_row_t w;
        tb_sor_row(p, s, v, i, j, k, &w);
        const long double x = tb_elem_ld(v, p->prec, c);
        r2 += isnan(w.r) ? INFINITY : w.r * w.r;
        m2 += w.mag * w.mag;
        vmin = x < vmin ? x : vmin;
        vmaxv = x > vmaxv ? x : vmaxv;
        if (s->problem == TB_SOR_CAPACITOR)
          continue;
        const long double ex = tb_sor_exact(sp, i, j, k);
        const long double d1 = isnan(x) ? INFINITY : fabsl(x - ex),
                          d2 = isnan(x) ? INFINITY : fabsl(x - sp->disc_fac * ex);
        err = d1 > err ? d1 : err;
        derr = d2 > derr ? d2 : derr;
      }
  const double u = tb_unit_roundoff(p->prec), g8 = 8 * u / (1 - 8 * u);
  const double w = s->omega, K = (double)sp->k_bound;
  const double r0 = extra[TB_SOR_R0], rel = extra[TB_SOR_RESIDUAL], it = extra[TB_SOR_ITERATIONS];
  /* Jacobi's residual shrinks by at most K an iteration (its update is
   * w = 1 without the red-black split), so the larger factor serves both. */
  const double iter_w = fmax(fabs(1 - w) + w * K, K);
  const double bound_abs =
      iter_w * (rel * r0 + g8 * (double)sqrtl(m2)) + 2 * g8 * (double)sqrtl(m2);
  const double r0t = (double)sp->r0_true;
  const double true_rel = r0t > 0 ? (double)sqrtl(r2) / r0t : (double)sqrtl(r2);
  const double bound = r0t > 0 ? bound_abs / r0t : bound_abs;
  extra[TB_SOR_TRUE_RES] = true_rel;
  extra[TB_SOR_ERR] = s->problem == TB_SOR_CAPACITOR ? NAN : (double)err;
  extra[TB_SOR_ERR_DISC] = (double)sp->disc_err;
  const int failed_res = tb_check_against(chk, true_rel, bound);
  if (moved)
    return tb_check_fail(chk, "%lld held points (boundary, electrodes) changed, the last at %lld",
                         (long long)moved, (long long)moved_at);
  if (!(it >= 1) || it > (double)s->maxiter || !(rel >= 0) || !(r0 >= 0) ||
      (!(rel < s->tol) && it < (double)s->maxiter))
    return tb_check_fail(chk, "the solver stopped at iteration %.0f with residual %.3g (tol %.3g, "
                         "maxiter %lld): not by its rule", it, rel, s->tol, (long long)s->maxiter);
  if (failed_res)
    return tb_check_fail(chk, "true relative residual %.3g over the bound %.3g that the solver's "
                         "residual %.3g implies", true_rel, bound, rel);
  if (!(rel < s->tol))
    snprintf(chk->note, sizeof chk->note,
             "stopped at maxiter %lld before tol %.3g: residual %.3g (raise -P maxiter)",
             (long long)s->maxiter, s->tol, rel);
  if (s->problem == TB_SOR_CAPACITOR) {
    /* The discrete maximum principle: free points lie between the held values. */
    if (s->nfree && (vmin < -1 - 4 * u || vmaxv > 1 + 4 * u))
      return tb_check_fail(chk, "potential %.6g..%.6g outside the electrodes' [-1, 1]",
                           (double)vmin, (double)vmaxv);
    return TB_OK;
  }
  /* The boundary holds v_exact rounded (|v_exact| <= 2 there): the error
   * starts from at most 2u on the walls. */
  const long double rb = (long double)bound_abs, wall = 2 * u;
  if (s->mesh == TB_SOR_UNIFORM && s->problem == TB_SOR_MANUFACTURED) {
    const long double tolv = wall + sp->a_inv * (rb + sp->f_dev);
    if (tolv < 0.5L && derr > tolv)
      return tb_check_fail(chk,
                           "max |v - v_h| = %.3g over the bound %.3g (v_h the discrete solution)",
                           (double)derr, (double)tolv);
  }
  const long double tole = wall + sp->a_inv * (rb + sp->tau_inf);
  if (tole < 0.5L && err > tole)
    return tb_check_fail(chk, "max |v - v_exact| = %.3g over the bound %.3g", (double)err,
                         (double)tole);
  return TB_OK;
}

/* The byte floor of one cell update: v read and written, f and the
 * material byte read (the spacing and permittivity tables are a few
 * kilobytes and stay in cache). */
static double tb_sor_floor(const tb_problem_t *p)
{
  return 3.0 * (double)tb_kind_size(tb_prec_kind(p->prec)) + 1.0;
}

void tb_sor_finish(tb_ctx_t *ctx, int64_t iters, double r0, double rel)
{
  tb_sor_t *s = ctx->p->priv;
  s->last_iters = iters;
  ctx->extra[TB_SOR_ITERATIONS] = (double)iters;
  ctx->extra[TB_SOR_RESIDUAL] = rel;
  ctx->extra[TB_SOR_R0] = r0;
  ctx->extra[TB_SOR_BYTES] = tb_sor_floor(ctx->p);
}

void tb_sor_box_of(const tb_sor_t *s, const int coords[3], tb_sor_box_t *b)
{
  const int64_t n3[3] = {s->nx, s->ny, s->nz};
  for (int a = 0; a < 3; a++) {
    tb_mpi_part(n3[a], s->pgrid[a], coords[a], &b->lo[a], &b->hi[a]);
    b->lo[a] += 1; /* interior points are 1..n; hi is then the last one */
  }
}

int tb_sor_sweep_boxes(const tb_sor_box_t *b, const int has[3][2], int overlap, tb_sor_box_t *out,
                       int *early)
{
  int n = 0;
  tb_sor_box_t rest = *b;
  *early = 0;
  if (overlap)
    /* Peel each travelling face off what is left, axis by axis: z's
     * faces take the whole planes, y's the rows left between them, x's the
     * points left between those, so the boxes are disjoint and cover b. */
    for (int a = 2; a >= 0; a--)
      for (int side = 0; side < 2; side++) {
        if (!has[a][side] || rest.hi[a] < rest.lo[a])
          continue;
        tb_sor_box_t face = rest;
        if (side)
          face.lo[a] = rest.hi[a]--;
        else
          face.hi[a] = rest.lo[a]++;
        if (!tb_sor_box_empty(&face))
          out[n++] = face;
      }
  *early = n;
  if (!tb_sor_box_empty(&rest))
    out[n++] = rest;
  return n;
}

void tb_sor_face_of(const tb_sor_t *s, const tb_sor_box_t *b, int d, int recv, tb_sor_face_t *f)
{
  const int a = d / 2, side = d % 2;
  /* The face's two axes, the faster first (x before y before z). */
  const int ua = a == 0 ? 1 : 0, ub = a == 2 ? 1 : 2;
  const int64_t stride[3] = {1, s->sx, s->sxy};
  int64_t at[3] = {b->lo[0], b->lo[1], b->lo[2]};
  at[a] = side ? b->hi[a] + recv : b->lo[a] - recv;
  f->origin = at[0] + s->sx * at[1] + s->sxy * at[2];
  f->par = (int)((at[0] + at[1] + at[2]) & 1);
  f->sa = stride[ua];
  f->sb = stride[ub];
  f->na = b->hi[ua] - b->lo[ua] + 1;
  f->nb = b->hi[ub] - b->lo[ub] + 1;
  f->w = (f->na + 1) / 2;
}

/* The MPI columns: the process grid and the busiest rank's halo bytes an
 * iteration. */
static void tb_sor_mpi_columns(tb_ctx_t *ctx)
{
  const tb_sor_t *s = ctx->p->priv;
  const int64_t e = (int64_t)tb_kind_size(tb_prec_kind(ctx->p->prec));
  double most = 0.0;
  /* Every rank's sends (both colours' slots of its faces that have a
   * neighbour), the largest: the grid's coordinates, not the ranks, so
   * no communication is needed. */
  for (int cx = 0; cx < s->pgrid[0]; cx++)
    for (int cy = 0; cy < s->pgrid[1]; cy++)
      for (int cz = 0; cz < s->pgrid[2]; cz++) {
        const int co[3] = {cx, cy, cz};
        tb_sor_box_t b;
        double bytes = 0.0;
        tb_sor_box_of(s, co, &b);
        for (int d = 0; d < 6; d++) {
          tb_sor_face_t f;
          if (d % 2 ? co[d / 2] == s->pgrid[d / 2] - 1 : co[d / 2] == 0)
            continue;
          tb_sor_face_of(s, &b, d, 0, &f);
          bytes += 2.0 * (double)tb_sor_face_slots(&f) * (double)e;
        }
        most = bytes > most ? bytes : most;
      }
  for (int a = 0; a < 3; a++)
    ctx->extra[TB_SOR_PX + a] = s->pgrid[a];
  ctx->extra[TB_SOR_HALO] = most;
}

int tb_sor_plan_make(tb_ctx_t *ctx, int overlap, tb_sor_plan_t *pl)
{
  const tb_sor_t *s = ctx->p->priv;
  int has[3][2], early, rc;
  memset(pl, 0, sizeof *pl);
  if ((rc = tb_mpi_cart_create(s->pgrid, &pl->cart)))
    return rc;
  pl->have_cart = 1;
  tb_sor_box_of(s, pl->cart.coords, &pl->box);
  for (int d = 0; d < 6; d++) {
    has[d / 2][d % 2] = pl->cart.nbr[d / 2][d % 2] >= 0;
    tb_sor_face_of(s, &pl->box, d, 0, &pl->send[d]);
    tb_sor_face_of(s, &pl->box, d, 1, &pl->recv[d]);
    pl->off[d + 1] = pl->off[d] + (has[d / 2][d % 2] ? tb_sor_face_slots(&pl->send[d]) : 0);
  }
  const int n = tb_sor_sweep_boxes(&pl->box, has, overlap, pl->sweep, &early);
  pl->nbefore = overlap ? early : n;
  pl->nafter = n - pl->nbefore;
  tb_sor_mpi_columns(ctx);
  return TB_OK;
}

void tb_sor_plan_free(tb_sor_plan_t *pl)
{
  if (pl->have_cart)
    tb_mpi_cart_free(&pl->cart);
  pl->have_cart = 0;
}

/* The points of box b, row after row, between the grid and buf (out: grid
 * to buf). */
static void tb_sor_box_copy(const tb_sor_t *s, const tb_sor_box_t *b, char *grid, char *buf,
                            size_t e, int out)
{
  const int64_t w = b->hi[0] - b->lo[0] + 1, ny = b->hi[1] - b->lo[1] + 1;
  const int64_t rows = ny * (b->hi[2] - b->lo[2] + 1);
#pragma omp parallel for schedule(static)
  for (int64_t q = 0; q < rows; q++) {
    const int64_t c = b->lo[0] + s->sx * (b->lo[1] + q % ny) + s->sxy * (b->lo[2] + q / ny);
    char *g = grid + (size_t)c * e, *x = buf + (size_t)(q * w) * e;
    memcpy(out ? x : g, out ? g : x, (size_t)w * e);
  }
}

int tb_sor_mpi_gather(const tb_sor_t *s, const tb_mpi_cart_t *cart, void *grid, size_t e)
{
  const int64_t points = s->nx * s->ny * s->nz;
  const int ranks = tb_mpi_size();
  int co[3];
  tb_sor_box_t b;
  tb_mpi_cart_coords(cart, tb_mpi_rank(), co);
  tb_sor_box_of(s, co, &b);
  const int64_t count = tb_sor_box_points(&b);
  char *all = malloc((size_t)points * e), *mine = malloc((size_t)count * e + 1);
  int rc = TB_OK;
  if (!all || !mine)
    rc = tb_fail(TB_ENOMEM, "out of memory for the gathered grid");
  if (!rc) {
    tb_sor_box_copy(s, &b, grid, mine, e, 1);
    rc = tb_mpi_allgatherv(mine, count, all, (int64_t)e);
  }
  /* The ranks' boxes arrive in rank order. */
  for (int64_t r = 0, at = 0; !rc && r < ranks; r++) {
    tb_mpi_cart_coords(cart, (int)r, co);
    tb_sor_box_of(s, co, &b);
    tb_sor_box_copy(s, &b, grid, all + (size_t)at * e, e, 0);
    at += tb_sor_box_points(&b);
  }
  free(all);
  free(mine);
  return rc;
}

void tb_sor_uniform_rows(const tb_sor_t *s, const uint8_t *mat, int8_t *row)
{
  const int64_t ny2 = s->ny + 2;
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < s->nz + 2; k++)
    for (int64_t j = 0; j < ny2; j++) {
      const int64_t c = s->sx * j + s->sxy * k;
      int m = TB_SOR_MAT(mat[c]);
      if (j < 1 || j > s->ny || k < 1 || k > s->nz)
        m = -1;
      /* The row itself, walls included (the x neighbours), then the four
       * rows beside it over the interior points. */
      for (int64_t i = 0; m >= 0 && i < s->nx + 2; i++)
        if (TB_SOR_MAT(mat[c + i]) != (unsigned)m)
          m = -1;
      const int64_t nb[4] = {-s->sx, s->sx, -s->sxy, s->sxy};
      for (int q = 0; m >= 0 && q < 4; q++)
        for (int64_t i = 1; i <= s->nx; i++)
          if (TB_SOR_MAT(mat[c + nb[q] + i]) != (unsigned)m) {
            m = -1;
            break;
          }
      row[j + ny2 * k] = (int8_t)m;
    }
}

/* Every iteration updates every interior point once; a run costs the floor
 * per update times the interior points times its iterations (at least one
 * before any run, so the read:write mix is known). */
static void tb_sor_cost(const tb_problem_t *p, tb_cost_t *c)
{
  const tb_sor_t *s = p->priv;
  const double it = s->last_iters > 0 ? (double)s->last_iters : 1.0;
  const double e = (double)tb_kind_size(tb_prec_kind(p->prec));
  const double n = (double)s->nx * (double)s->ny * (double)s->nz;
  c->read = it * n * (2.0 * e + 1.0);
  c->written = it * n * e;
  c->flops = it * n * TB_SOR_FLOPS;
}

static double tb_sor_per_run(const tb_problem_t *p, int column)
{
  const tb_sor_t *s = p->priv;
  if (column == TB_SOR_GLUPS)
    return (double)s->last_iters * (double)s->nx * (double)s->ny * (double)s->nz * 1e-9;
  if (column == TB_SOR_SWEEP_MS)
    return (double)s->last_iters * 1e-3;
  return NAN;
}

const tb_algo_t tb_algo_sor = {
    .name = "sor",
    .summary =
        "red-black SOR for -div(eps grad v) = f in 3-D: materials, electrodes, stretched meshes",
    .flags = 0,
    .precisions = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_precisions = TB_PREC_BIT(TB_FLOAT),
    .default_sizes = "64",
    .size_meaning = "interior points a side (nx, ny, nz override)",
    .presets = tb_sor_presets,
    .npresets = TB_COUNT(tb_sor_presets),
    .params = tb_sor_params,
    .nparams = TB_COUNT(tb_sor_params),
    .columns = tb_sor_columns,
    .ncolumns = TB_COUNT(tb_sor_columns),
    .error_meaning = "the true relative residual ||f - A v|| / ||f - A v_0|| of the result; "
                     "tolerance: what the solver's tol implies",
    .setup = tb_sor_setup,
    .generate = tb_sor_generate,
    .verify = tb_sor_verify,
    .cost = tb_sor_cost,
    .dump = NULL,
    .cleanup = tb_sor_cleanup,
    .per_run = tb_sor_per_run,
};
