/* twinbench: the Brownian bridge family's problem, reference, verifier, cost
 * and dump (the recurrence and the memory layout are described in bridge.h).
 *
 * Tolerance. A variant computes each point as
 *   X = wl L + wr R + sig W,   W_k = sum_{j<=k} C_kj Z_j,
 * with weights computed in double and rounded to the precision (relative
 * error at most 6u, u the unit roundoff of the precision), C rounded to it
 * (u), at most three roundings on the term wl L and d + 1 on sig W. The
 * local error of a step is then at most c u M, c = d + 9, with
 *   M = wl |L| + wr |R| + sig sum_j |C_kj| |Z_j|,
 * and since wl + wr = 1 the errors of the neighbours pass on as a weighted
 * mean and never grow: by induction over the construction tree,
 *   |X^ - X| <= c u G,   G_s = wl G_l + wr G_r + M_s,   G_t0 = 0.
 * An increment (S - L) il adds two roundings and the rounding of il:
 *   |D^ - D| <= c u H,   H = (G_s + G_l + |S - L|) il.
 * The reference runs the recurrence in long double in the user's order (not
 * the variants' plans) and carries G along; the error column is the largest
 * |x^ - x| / (u G) (or / (u H)) over every checked value, and the tolerance
 * is c (1 + 2^-10 + 16 N u + u_ref / u): the slack covers the second-order
 * terms (weights off by 6u on errors of order c u G, over at most N levels)
 * and the reference's own rounding. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "../common/philox.h"
#include "../common/refmath.h"

static const char *const tb_bridge_modes[] = {"paths", "increments", NULL};

enum { P_STEPS, P_DIM, P_MODE, P_ORDER, P_TIMES, P_T0, P_X0, P_COV, P_CHOL, P_NORMALS, P_COUNT };

static const tb_param_def_t tb_bridge_params[P_COUNT] = {
    {"steps", "time steps N", TB_PARAM_INT, "64", 1, TB_BRIDGE_MAX_STEPS, NULL, 0, NULL},
    {"dim", "dimensions d of the motion", TB_PARAM_INT, "1", 1, TB_BRIDGE_MAX_DIM, NULL, 0, NULL},
    {"mode", "the output: sample paths (X at t_1..t_N) or scaled increments "
             "(X_i - X_{i-1}) / (t_i - t_{i-1})",
     TB_PARAM_CHOICE, "paths", 0, 0, tb_bridge_modes, 0, NULL},
    {"order", "construction order: bisection, sequential, random (drawn from --seed), or a "
              "FILE of 1-based time indices, one per line, a permutation of 1..N starting "
              "with N",
     TB_PARAM_TEXT, "bisection", 0, 0, NULL, 0, NULL},
    {"times", "the times t_1..t_N: uniform (t_i = t0 + i/N) or a FILE, one time per line, "
              "increasing, the last is T",
     TB_PARAM_TEXT, "uniform", 0, 0, NULL, 0, NULL},
    {"t0", "the start time", TB_PARAM_REAL, "0", -1e300, 1e300, NULL, 0, NULL},
    {"x0", "the start value (of every dimension)", TB_PARAM_REAL, "0", -1e300, 1e300, NULL, 0, NULL},
    {"cov", "Sigma: identity, a FILE (a row per line) or inline rows separated by ';' "
            "('1 0.5; 0.5 2'); the tool takes its Cholesky factor",
     TB_PARAM_TEXT, "identity", 0, 0, NULL, 0, NULL},
    {"chol", "C with Sigma = C C', instead of cov: identity, a FILE or inline rows",
     TB_PARAM_TEXT, "identity", 0, 0, NULL, 0, NULL},
    {"normals", "philox (generated outside the timed region), or a FILE of raw little-endian "
                "normals in the run's precision, path after path, Z_0..Z_{N-1} per path, d "
                "values per Z",
     TB_PARAM_TEXT, "philox", 0, 0, NULL, 0, NULL},
};

static const tb_column_def_t tb_bridge_columns[] = {
    {"init_ms", "%.3g", "host time of the initialisation (order -> least-stack plan)", 0},
    {"stack", "%.0f", "local-stack slots per path (points of one dimension) of the plan", 0},
};

static const tb_preset_t tb_bridge_presets[] = {
    {"nag", 1439744, "the NAG report's table: 1,439,744 paths (of 64 steps, bisection)"},
};

/* The Philox stream of the generated normals. */
#define TB_BRIDGE_STREAM 0x4e4f524du /* "NORM" */

static void tb_bridge_cleanup(tb_problem_t *p)
{
  tb_bridge_t *b = p->priv;
  if (!b)
    return;
  free(b->t);
  free(b->order);
  free(b->left);
  free(b->right);
  free(b->chol);
  free(b->sigma);
  free(b->wref);
  free(b);
  p->priv = NULL;
}

/* The order of spec: a helper's name or a file. */
static int tb_bridge_setup_order(tb_bridge_t *b, const char *spec, uint64_t seed)
{
  const int n = b->steps;
  int *line = NULL, rc = TB_OK;
  if (!strcmp(spec, "bisection"))
    rc = tb_bridge_order_bisection(n, b->order);
  else if (!strcmp(spec, "sequential"))
    tb_bridge_order_sequential(n, b->order);
  else if (!strcmp(spec, "random"))
    tb_bridge_order_random(n, seed, b->order);
  else {
    if (!(line = malloc((size_t)n * sizeof *line)))
      return tb_fail(TB_ENOMEM, "out of memory");
    rc = tb__bridge_read_order(spec, n, b->order, line);
  }
  if (!rc)
    rc = tb_bridge_neighbours(n, b->order, line ? spec : "order", line, b->left, b->right);
  free(line);
  return rc;
}

/* Whether the paths (or increments) fit in the run's precision: a point is
 * at most |x0| plus, over the steps that built it, sig |C Z|, so every
 * value is below B = |x0| + z_max c S, with S the sum of the steps' sig, c
 * the largest row sum of |C| and z_max the largest normal the run draws
 * (Philox's Box-Muller: 6.7 in float, 8.6 in double; a file's largest);
 * an increment is below 2 z_max c S / dt_min. A value beyond half
 * the largest finite number (an increment's difference doubles it) would
 * end as a verification failure: it is refused here instead. */
static int tb_bridge_check_range(const tb_bridge_t *b, tb_prec_t prec)
{
  const double most = (prec == TB_FLOAT ? FLT_MAX : DBL_MAX) / 2;
  const double zmax = b->normals ? b->zmax : tb_box_muller_zmax(prec);
  double c = 0.0, sum_sig = 0.0, dt_min = INFINITY;
  for (int k = 0; k < b->dim; k++) {
    double row = 0.0;
    for (int j = 0; j < b->dim; j++)
      row += fabs(b->chol[k * b->dim + j]);
    c = fmax(c, row);
  }
  for (int i = 0; i < b->steps; i++) {
    sum_sig += (double)b->wref[3 * i + 2];
    dt_min = fmin(dt_min, b->t[i + 1] - b->t[i]);
  }
  const double spread = zmax * c * sum_sig;
  const double reach = b->mode == TB_BRIDGE_INCREMENTS ? 2 * spread / dt_min : fabs(b->x0) + spread;
  if (!(reach <= most) || (b->mode == TB_BRIDGE_INCREMENTS && !(1.0 / dt_min <= most)))
    return tb_fail(TB_EINVAL, "the %s may reach %.3g (x0 %g, the normals' spread %.3g%s), more "
                              "than %s holds: use double, or smaller inputs",
                   b->mode == TB_BRIDGE_INCREMENTS ? "increments" : "paths", reach, b->x0, spread,
                   b->mode == TB_BRIDGE_INCREMENTS ? ", over the shortest time step" : "",
                   tb_prec_name(prec));
  return TB_OK;
}

static int tb_bridge_setup(tb_problem_t *p)
{
  tb_bridge_t *b = calloc(1, sizeof *b);
  const tb_param_value_t *v = p->param;
  int rc;
  if (!b)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = b;
  const int n = b->steps = (int)v[P_STEPS].i, d = b->dim = (int)v[P_DIM].i;
  b->mode = (int)v[P_MODE].i;
  b->t0 = v[P_T0].r;
  b->x0 = v[P_X0].r;
  b->paths = p->n;
  b->tiles = p->n / TB_BRIDGE_LANES + (p->n % TB_BRIDGE_LANES != 0);

  b->t = malloc((size_t)(n + 1) * sizeof *b->t);
  b->order = malloc((size_t)n * sizeof *b->order);
  b->left = malloc((size_t)n * sizeof *b->left);
  b->right = malloc((size_t)n * sizeof *b->right);
  b->chol = malloc((size_t)(d * d) * sizeof *b->chol);
  b->sigma = malloc((size_t)(d * d) * sizeof *b->sigma);
  b->wref = malloc((size_t)(3 * n) * sizeof *b->wref);
  if (!b->t || !b->order || !b->left || !b->right || !b->chol || !b->sigma || !b->wref)
    return tb_fail(TB_ENOMEM, "out of memory");

  if (!strcmp(v[P_TIMES].s, "uniform")) {
    b->t[0] = b->t0;
    for (int i = 1; i <= n; i++)
      b->t[i] = b->t0 + (double)i / n;
  } else if ((rc = tb__bridge_read_times(v[P_TIMES].s, n, b->t0, b->t)))
    return rc;
  if ((rc = tb_bridge_setup_order(b, v[P_ORDER].s, p->seed)))
    return rc;
  int has_cov = strcmp(v[P_COV].s, "identity") != 0, has_chol = strcmp(v[P_CHOL].s, "identity") != 0;
  if (has_cov && has_chol)
    return tb_fail(TB_EINVAL, "give cov (Sigma) or chol (C), not both");
  if ((rc = tb__bridge_read_matrix(has_chol ? v[P_CHOL].s : v[P_COV].s, has_chol ? "chol" : "cov",
                                   has_chol, d, p->prec, b->sigma, b->chol)))
    return rc;
  if (strcmp(v[P_NORMALS].s, "philox")) {
    b->normals = v[P_NORMALS].s;
    if ((rc = tb__bridge_normals_check(b->normals, b, p->prec, &b->zmax)))
      return rc;
  }

  /* The reference's weights, in long double from the same double times. */
  for (int i = 0; i < n; i++) {
    long double ts = b->t[b->order[i]], tl = b->t[b->left[i]], *w = &b->wref[3 * i];
    if (b->right[i] < 0) {
      w[0] = 1.0L;
      w[1] = 0.0L;
      w[2] = sqrtl(ts - tl);
    } else {
      long double tr = b->t[b->right[i]], span = tr - tl;
      w[0] = (tr - ts) / span;
      w[1] = (ts - tl) / span;
      w[2] = sqrtl((tr - ts) * (ts - tl) / span);
    }
  }
  if ((rc = tb_bridge_check_range(b, p->prec)))
    return rc;

  int64_t count = tb_count_mul(p, tb_count_mul(p, b->tiles, TB_BRIDGE_LANES), (int64_t)n * d);
  tb_kind_t k = tb_prec_kind(p->prec);
  b->z = tb_problem_add_array(p, "z", k, TB_IN, count);
  b->x = tb_problem_add_array(p, "x", k, TB_OUT, count);
  /* The GPU keeps a copy of the plan: at most 32 bytes of offsets and 8
   * weights a step (smem's records). */
  p->extra_device_bytes = (int64_t)n * (32 + 8 * 8) + 4096;
  return TB_OK;
}

/* Standard normals from Philox (Box-Muller), element q of the file order
 * (path after path, Z_0..Z_{N-1}, d values each) from block q / 4 in float
 * and q / 2 in double, so any thread count gives the same array. The padding
 * paths of the last tile get normals too. */
static void tb_bridge_philox(const tb_problem_t *p, const tb_bridge_t *b)
{
  const int64_t per_path = (int64_t)b->steps * b->dim;
  const int64_t total = b->tiles * TB_BRIDGE_LANES * per_path;
  const int per = p->prec == TB_FLOAT ? 4 : 2;
  const int64_t nblk = (total + per - 1) / per;
  void *z = p->array[b->z].host;
#pragma omp parallel for schedule(static)
  for (int64_t blk = 0; blk < nblk; blk++) {
    tb_philox4_t w = tb_philox_block(p->seed, TB_BRIDGE_STREAM, (uint64_t)blk);
    double v[4] = {0.0, 0.0, 0.0, 0.0};
    if (p->prec == TB_FLOAT) {
      tb_box_muller_f64(tb_u01_f32(w.v[0]), tb_u01_f32(w.v[1]), &v[0], &v[1]);
      tb_box_muller_f64(tb_u01_f32(w.v[2]), tb_u01_f32(w.v[3]), &v[2], &v[3]);
    } else
      tb_box_muller_f64(tb_u01_f64(w.v[0], w.v[1]), tb_u01_f64(w.v[2], w.v[3]), &v[0], &v[1]);
    for (int j = 0; j < per && blk * per + j < total; j++) {
      const int64_t at = tb_bridge_at_file(b, blk * per + j);
      if (p->prec == TB_FLOAT)
        ((float *)z)[at] = (float)v[j];
      else
        ((double *)z)[at] = v[j];
    }
  }
}

static int tb_bridge_generate(tb_problem_t *p)
{
  const tb_bridge_t *b = p->priv;
  if (!b->normals) {
    tb_bridge_philox(p, b);
    return TB_OK;
  }
  /* The padding lanes of a file's last tile are zero (never checked); the
   * reader writes every other value. */
  const int64_t tile = (int64_t)b->steps * b->dim * TB_BRIDGE_LANES *
                       (int64_t)tb_kind_size(tb_prec_kind(p->prec));
  memset((char *)p->array[b->z].host + (b->tiles - 1) * tile, 0, (size_t)tile);
  return tb__bridge_normals_read(b->normals, b, p->prec, p->array[b->z].host);
}

void tb_bridge_reference(const tb_bridge_t *b, tb_prec_t prec, const void *z, int64_t path,
                         long double *x, double *g)
{
  const int n = b->steps, d = b->dim;
  /* The variants hold x0 in the precision; so does the reference. */
  const long double x0 = prec == TB_FLOAT ? (long double)(float)b->x0 : (long double)b->x0;
  for (int k = 0; k < d; k++) {
    x[k] = x0;
    g[k] = 0.0;
  }
  for (int i = 0; i < n; i++) {
    const int s = b->order[i], l = b->left[i], r = b->right[i];
    const long double *w = &b->wref[3 * i];
    for (int k = 0; k < d; k++) {
      long double wz = 0.0L, az = 0.0L;
      for (int j = 0; j <= k; j++) {
        long double cz = (long double)b->chol[k * d + j] * tb_elem_ld(z, prec, tb_bridge_at(n, d, path, i, j));
        wz += cz;
        az += fabsl(cz);
      }
      long double xl = x[l * d + k], xr = r >= 0 ? x[r * d + k] : 0.0L;
      long double gl = g[l * d + k], gr = r >= 0 ? g[r * d + k] : 0.0;
      x[s * d + k] = w[0] * xl + w[1] * xr + w[2] * wz;
      g[s * d + k] = (double)(w[0] * (gl + fabsl(xl)) + w[1] * (gr + fabsl(xr)) + w[2] * az);
    }
  }
}

/* |got - want| / scale, with an exact match always 0 (the unit-vector
 * inputs make exact zeros whose scale is zero) and NaN as infinity. */
static double tb_bridge_ratio(long double got, long double want, double scale)
{
  long double e = fabsl(got - want);
  if (e == 0.0L)
    return 0.0;
  double r = (double)(e / scale);
  return isnan(r) ? INFINITY : r;
}

/* The value of the output at time index i, dimension k of path (a point, or
 * an increment), and its reference and error scale from x, g. */
static void tb_bridge_expect(const tb_bridge_t *b, tb_prec_t prec, const void *out, int64_t path,
                             int i, int k, const long double *x, const double *g,
                             long double *got, long double *want, double *scale)
{
  const int n = b->steps, d = b->dim;
  const double u = tb_unit_roundoff(prec);
  *got = tb_elem_ld(out, prec, tb_bridge_at(n, d, path, i - 1, k));
  *want = x[i * d + k];
  *scale = u * g[i * d + k];
  if (b->mode == TB_BRIDGE_INCREMENTS) {
    long double dt = (long double)b->t[i] - (long double)b->t[i - 1];
    long double dx = x[i * d + k] - x[(i - 1) * d + k];
    *want = dx / dt;
    *scale = (double)(u * (g[i * d + k] + g[(i - 1) * d + k] + fabsl(dx)) / dt);
  }
}

static int tb_bridge_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  const tb_bridge_t *b = p->priv;
  const int n = b->steps, d = b->dim;
  const double u = tb_unit_roundoff(p->prec);
  const double uref = LDBL_EPSILON / 2;
  const double c = d + 9;
  const void *z = view[b->z], *out = view[b->x];
  const size_t per_path = (size_t)((n + 1) * d);
  tb_worst_t worst = TB_WORST_NONE;
  int nomem = 0;
  (void)extra;

#pragma omp parallel
  {
    long double *x = malloc(per_path * sizeof *x);
    double *g = malloc(per_path * sizeof *g);
    tb_worst_t w = TB_WORST_NONE;
    if (!x || !g) {
#pragma omp atomic write
      nomem = 1;
    }
#pragma omp for schedule(dynamic, 256)
    for (int64_t path = 0; path < b->paths; path++) {
      if (!x || !g)
        continue;
      tb_bridge_reference(b, p->prec, z, path, x, g);
      for (int k = 0; k < d; k++)
        for (int i = 1; i <= n; i++) {
          long double got, want;
          double scale;
          tb_bridge_expect(b, p->prec, out, path, i, k, x, g, &got, &want, &scale);
          tb_worst_see(&w, tb_bridge_ratio(got, want, scale), (path * (n + 1) + i) * d + k);
        }
    }
#pragma omp critical
    tb_worst_merge(&worst, &w);
    free(x);
    free(g);
  }
  if (nomem)
    return tb_fail(TB_ENOMEM, "out of memory in the bridge verifier");
  if (tb_check_against(chk, worst.err, c * (1.0 + ldexp(1.0, -10) + 16.0 * n * u + uref / u))) {
    const int64_t path = worst.at / ((n + 1) * d);
    const int i = (int)(worst.at / d % (n + 1)), k = (int)(worst.at % d);
    long double *x = malloc(per_path * sizeof *x), got = 0.0L, want = 0.0L;
    double *g = malloc(per_path * sizeof *g), scale;
    if (x && g) {
      tb_bridge_reference(b, p->prec, z, path, x, g);
      tb_bridge_expect(b, p->prec, out, path, i, k, x, g, &got, &want, &scale);
    }
    free(x);
    free(g);
    tb_check_fail(chk, "path %lld, t_%d, dimension %d: %.9Lg, reference %.9Lg: error %.3g over "
                       "the bound %.3g%s",
                  (long long)path, i, k + 1, got, want, worst.err, chk->tolerance,
                  tb_poison_note((double)got));
  }
  return TB_OK;
}

static void tb_bridge_cost(const tb_problem_t *p, tb_cost_t *c)
{
  const tb_bridge_t *b = p->priv;
  const double points = (double)p->n * b->steps, d = b->dim;
  /* Read every normal and write every output value once. */
  c->read = c->written = points * d * (double)tb_kind_size(tb_prec_kind(p->prec));
  /* Per point and dimension: 3 multiplications and 2 additions, C Z (d
   * multiply-adds per dimension, folded into sig when d = 1), and for an
   * increment a subtraction and a multiplication. */
  c->flops = points * (5.0 * d + (d > 1 ? d * d : 0.0) + (b->mode == TB_BRIDGE_INCREMENTS ? 2.0 * d : 0.0));
}

static int tb_bridge_dump(const tb_problem_t *p, void *const *view, FILE *f)
{
  const tb_bridge_t *b = p->priv;
  const int n = b->steps, d = b->dim;
  const void *out = view[b->x];
  fputs("path", f);
  for (int k = 0; k < d; k++)
    for (int i = 1; i <= n; i++)
      if (d == 1)
        fprintf(f, ",t%d", i);
      else
        fprintf(f, ",d%d_t%d", k + 1, i);
  fputc('\n', f);
  for (int64_t path = 0; path < b->paths; path++) {
    fprintf(f, "%lld", (long long)path);
    for (int k = 0; k < d; k++)
      for (int i = 0; i < n; i++) {
        int64_t at = tb_bridge_at(n, d, path, i, k);
        if (p->prec == TB_FLOAT)
          fprintf(f, ",%.9g", (double)((const float *)out)[at]);
        else
          fprintf(f, ",%.17g", ((const double *)out)[at]);
      }
    fputc('\n', f);
  }
  return ferror(f) ? tb_fail(TB_EIO, "writing the dump failed") : TB_OK;
}

const tb_algo_t tb_algo_bridge = {
    .name = "bridge",
    .summary = "Brownian bridge paths or increments in any construction order (NAG, 2012)",
    .flags = 0,
    .precisions = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    .default_precisions = TB_PREC_BIT(TB_FLOAT),
    .default_sizes = "nag",
    .size_meaning = "paths",
    .presets = tb_bridge_presets,
    .npresets = TB_COUNT(tb_bridge_presets),
    .params = tb_bridge_params,
    .nparams = TB_COUNT(tb_bridge_params),
    .columns = tb_bridge_columns,
    .ncolumns = TB_COUNT(tb_bridge_columns),
    .error_meaning = "largest |x - ref| / (u G) over every value, G the magnitude the rounding "
                     "errors of the construction are bounded by (see the README); the tolerance "
                     "is about d + 9",
    .setup = tb_bridge_setup,
    .generate = tb_bridge_generate,
    .verify = tb_bridge_verify,
    .cost = tb_bridge_cost,
    .dump = tb_bridge_dump,
    .cleanup = tb_bridge_cleanup,
};
