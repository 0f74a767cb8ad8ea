/* twinbench: the spectral Poisson family's OpenMP twins, on FFTW3 with its
 * OpenMP threads.
 *
 * c2c      the published pipeline on the CPU: f copied into a complex array,
 *          an in-place complex forward transform, the solve, the inverse,
 *          the real part copied out;
 * r2c      real-to-complex from f into the half spectrum, the solve, and
 *          complex-to-real straight into u;
 * panel    r2c along the rows, then panels of a few columns, each
 *          transformed along the first axis, solved and transformed back
 *          while it is in the thread's cache, then c2r along the rows: the
 *          solve costs no pass over memory of its own, and neither does the
 *          first axis's round trip (3-D: the middle axis is transformed
 *          plane by plane before and after);
 * fftonly  r2c and c2r alone, no solve: the baseline the solve is timed
 *          against (verified as the round trip u = N^dim f).
 * The solve is one parallel, vectorised pass over the spectrum that divides
 * by -|k|^2 and applies the 1/N^dim normalisation in the same multiply.
 * Plans are made in prepare (untimed; their time is the plan_ms column),
 * with the planner flag a tuning parameter. The planner of FFTW_MEASURE and
 * beyond overwrites the arrays it plans on, and prepare runs after the
 * problem's data is in place, so the plans are made on the variant's own
 * work array and on the output u (poisoned before the runs anyway), and the
 * runs use FFTW's new-array execute on f (same alignment: both arrays are
 * page-aligned). Wisdom is kept in $XDG_CACHE_HOME/twinbench (or
 * ~/.cache/twinbench), one file per precision, so that repeated runs do not
 * re-measure; a cache that cannot be read or written only costs planning
 * time, with a note. */
#include <config.h>

#include "../families/poisson.h"
#include "cpu.h"
#include "poisson_cpu.h"

#ifdef TB_HAVE_FFTW

#include <errno.h>
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/outfile.h"
#include "../common/timer.h"

static const char *const tb_poisson_planners[] = {"estimate", "measure", NULL};
static const unsigned tb_poisson_planner_flags[] = {FFTW_ESTIMATE, FFTW_MEASURE};

/* The planner (every variant) and, for panel, the columns of a panel;
 * auto: 128 bytes of a row (two cache lines: 8 double or 16 float complex
 * values). */
static const tb_param_def_t tb_poisson_cpu_tuning[] = {
    {"planner", "FFTW's planner effort: estimate (the default: plans in microseconds) or "
                "measure (times candidate plans, seconds for large grids; wisdom keeps them)",
     TB_PARAM_CHOICE, "estimate", 0, 0, tb_poisson_planners, 0, "estimate,measure"},
    {"panel", "panel: complex columns a thread transforms and solves at once; auto: 128 bytes",
     TB_PARAM_INT, "auto", 1, 4096, NULL, TB_PARAM_AUTO, "4,8,16,32,64"},
};

/* What FFTW offers in one precision, through untyped pointers so that one
 * driver serves float and double. */
typedef struct tb_fftw_ops {
  const char *prec;
  int (*init_threads)(void);
  void (*plan_with_nthreads)(int);
  int (*import_wisdom)(const char *);
  void (*export_wisdom)(FILE *);
  void *(*alloc)(size_t);
  void (*dealloc)(void *);
  void *(*plan_c2c)(int, const int *, void *, void *, int, unsigned);
  void *(*plan_r2c)(int, const int *, void *, void *, unsigned);
  void *(*plan_c2r)(int, const int *, void *, void *, unsigned);
  void (*exec_c2c)(void *, void *, void *);
  void (*exec_r2c)(void *, void *, void *);
  void (*exec_c2r)(void *, void *, void *);
  void (*destroy)(void *);
  /* Rank-1 transforms of `howmany` lines of n points (panel): complex in
   * place, `stride` apart within a line and `dist` between lines; real rows. */
  void *(*plan_lines)(int, int, int, int, void *, int, unsigned);
  void *(*plan_rows_r2c)(int, int, void *, void *, unsigned);
  void *(*plan_rows_c2r)(int, int, void *, void *, unsigned);
  /* The twin's own passes: f into a complex array, the real part out, the
   * solve over rows, the solve of one panel. */
  void (*to_complex)(void *, const void *, int64_t, int);
  void (*real_part)(void *, const void *, int64_t, int);
  void (*solve)(void *, int64_t, int64_t, int64_t, int, const double *, double, int);
  void (*panel_solve)(void *, int64_t, int64_t, int64_t, const double *, const double *, double);
} tb_fftw_ops_t;

/* The wrappers and passes for element type T with FFTW prefix X. The solve
 * visits rows of `cols` complex values: row r's wavenumbers squared add up
 * from the axis table k2 (2-D: k2[r]; 3-D: k2[r / N] + k2[r % N]), the
 * column's from k2[c], and each value is multiplied by -scale / |k|^2; the
 * zero mode (which the loop divides by zero) is set to zero afterwards. */
#define TB_POISSON_FFTW(T, X, PANEL)                                                           \
  static void *X##w_plan_c2c(int rank, const int *n, void *in, void *out, int sign,            \
                             unsigned flags)                                                    \
  {                                                                                             \
    return X##plan_dft(rank, n, in, out, sign, flags);                                         \
  }                                                                                             \
  static void *X##w_plan_r2c(int rank, const int *n, void *in, void *out, unsigned flags)       \
  {                                                                                             \
    return X##plan_dft_r2c(rank, n, in, out, flags);                                           \
  }                                                                                             \
  static void *X##w_plan_c2r(int rank, const int *n, void *in, void *out, unsigned flags)       \
  {                                                                                             \
    return X##plan_dft_c2r(rank, n, in, out, flags);                                           \
  }                                                                                             \
  static void X##w_exec_c2c(void *plan, void *in, void *out)                                    \
  {                                                                                             \
    X##execute_dft(plan, in, out);                                                             \
  }                                                                                             \
  static void X##w_exec_r2c(void *plan, void *in, void *out)                                    \
  {                                                                                             \
    X##execute_dft_r2c(plan, in, out);                                                         \
  }                                                                                             \
  static void X##w_exec_c2r(void *plan, void *in, void *out)                                    \
  {                                                                                             \
    X##execute_dft_c2r(plan, in, out);                                                         \
  }                                                                                             \
  static void X##w_destroy(void *plan)                                                          \
  {                                                                                             \
    X##destroy_plan(plan);                                                                     \
  }                                                                                             \
  static void *X##w_plan_lines(int n, int howmany, int stride, int dist, void *w, int sign,    \
                               unsigned flags)                                                  \
  {                                                                                             \
    return X##plan_many_dft(1, &n, howmany, w, NULL, stride, dist, w, NULL, stride, dist, sign, \
                            flags);                                                             \
  }                                                                                             \
  static void *X##w_plan_rows_r2c(int n, int howmany, void *in, void *out, unsigned flags)      \
  {                                                                                             \
    return X##plan_many_dft_r2c(1, &n, howmany, in, NULL, 1, n, out, NULL, 1, n / 2 + 1, flags); \
  }                                                                                             \
  static void *X##w_plan_rows_c2r(int n, int howmany, void *in, void *out, unsigned flags)      \
  {                                                                                             \
    return X##plan_many_dft_c2r(1, &n, howmany, in, NULL, 1, n / 2 + 1, out, NULL, 1, n, flags); \
  }                                                                                             \
  /* One panel (poisson_cpu.h; the MPI twin's panels too). */                                   \
  void PANEL(void *wv, int64_t n, int64_t stride, int64_t b, const double *k2,                 \
             const double *kc, double scale)                                                    \
  {                                                                                             \
    T *restrict w = wv;                                                                         \
    const T ns = (T)-scale;                                                                     \
    for (int64_t i = 0; i < n; i++) {                                                           \
      const T kr = (T)k2[i];                                                                    \
      T *restrict line = w + 2 * i * stride;                                                    \
      _Pragma("omp simd")                                                                       \
      for (int64_t c = 0; c < b; c++) {                                                         \
        const T g = ns / (kr + (T)kc[c]);                                                       \
        line[2 * c] *= g;                                                                       \
        line[2 * c + 1] *= g;                                                                   \
      }                                                                                         \
    }                                                                                           \
  }                                                                                             \
  static void X##w_to_complex(void *wv, const void *fv, int64_t m, int threads)                 \
  {                                                                                             \
    T *restrict w = wv;                                                                         \
    const T *restrict f = fv;                                                                   \
    _Pragma("omp parallel for simd schedule(static) num_threads(threads)")                      \
    for (int64_t j = 0; j < m; j++) {                                                           \
      w[2 * j] = f[j];                                                                          \
      w[2 * j + 1] = 0;                                                                         \
    }                                                                                           \
  }                                                                                             \
  static void X##w_real_part(void *uv, const void *wv, int64_t m, int threads)                  \
  {                                                                                             \
    T *restrict u = uv;                                                                         \
    const T *restrict w = wv;                                                                   \
    _Pragma("omp parallel for simd schedule(static) num_threads(threads)")                      \
    for (int64_t j = 0; j < m; j++)                                                             \
      u[j] = w[2 * j];                                                                          \
  }                                                                                             \
  static void X##w_solve(void *wv, int64_t rows, int64_t cols, int64_t n, int dim,              \
                         const double *k2d, double scale, int threads)                          \
  {                                                                                             \
    T *restrict w = wv;                                                                         \
    const double *restrict k2 = k2d;                                                            \
    const T ns = (T)-scale;                                                                     \
    _Pragma("omp parallel for schedule(static) num_threads(threads)")                           \
    for (int64_t r = 0; r < rows; r++) {                                                        \
      const T kr = (T)(dim == 2 ? k2[r] : k2[r / n] + k2[r % n]);                               \
      T *restrict line = w + 2 * r * cols;                                                      \
      _Pragma("omp simd")                                                                       \
      for (int64_t c = 0; c < cols; c++) {                                                      \
        const T g = ns / (kr + (T)k2[c]);                                                       \
        line[2 * c] *= g;                                                                       \
        line[2 * c + 1] *= g;                                                                   \
      }                                                                                         \
    }                                                                                           \
    w[0] = w[1] = 0;                                                                            \
  }                                                                                             \
  static const tb_fftw_ops_t X##w_ops = {                                                       \
      #T,           X##init_threads, X##plan_with_nthreads, X##import_wisdom_from_filename,     \
      X##export_wisdom_to_file,     X##malloc, X##free, X##w_plan_c2c, X##w_plan_r2c,          \
      X##w_plan_c2r, X##w_exec_c2c, X##w_exec_r2c, X##w_exec_c2r, X##w_destroy,                 \
      X##w_plan_lines, X##w_plan_rows_r2c, X##w_plan_rows_c2r, X##w_to_complex, X##w_real_part, \
      X##w_solve, PANEL};

TB_POISSON_FFTW(float, fftwf_, tb_poisson_panel_solve_f32)
TB_POISSON_FFTW(double, fftw_, tb_poisson_panel_solve_f64)

/* The operations of a problem's precision. */
static const tb_fftw_ops_t *tb_poisson_ops(const tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? &fftwf_w_ops : &fftw_w_ops;
}

/* ---- Threads and wisdom (FFTW's planner is global and single-threaded;
 * the runner calls prepare from one thread) ------------------------------ */

static int tb_poisson_threads_ready[TB_NPREC];
static int tb_poisson_wisdom_noted;

/* The wisdom file of a precision, its folder created (mode 0700) if
 * missing: $XDG_CACHE_HOME/twinbench or $HOME/.cache/twinbench. Returns 0
 * without a usable folder. */
static int tb_poisson_wisdom_path(const char *prec, char *path, size_t len)
{
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  char dir[4096];
  if (xdg && *xdg == '/')
    snprintf(dir, sizeof dir, "%s", xdg);
  else if (home && *home == '/')
    snprintf(dir, sizeof dir, "%s/.cache", home);
  else
    return 0;
  if (mkdir(dir, 0700) && errno != EEXIST)
    return 0;
  if ((size_t)snprintf(path, len, "%s/twinbench", dir) >= len ||
      (mkdir(path, 0700) && errno != EEXIST))
    return 0;
  return (size_t)snprintf(path, len, "%s/twinbench/fftw-wisdom-%s", dir, prec) < len;
}

/* Once per precision: FFTW's threads, and the wisdom saved by earlier runs
 * (a missing or unreadable file is no wisdom). */
static int tb_poisson_fftw_init(const tb_ctx_t *ctx, const tb_fftw_ops_t *ops)
{
  char path[4200];
  if (tb_poisson_threads_ready[ctx->p->prec])
    return TB_OK;
  if (!ops->init_threads())
    return tb_fail(TB_ENOMEM, "FFTW (%s) could not start its threads", ops->prec);
  if (tb_poisson_wisdom_path(ops->prec, path, sizeof path))
    ops->import_wisdom(path);
  tb_poisson_threads_ready[ctx->p->prec] = 1;
  return TB_OK;
}

/* Save the planner's wisdom as the reports are saved (outfile.h): into a
 * temporary file beside it, renamed over it, so that a reader never sees
 * half a file, and refused while another run writes it. Failing costs only
 * a note. */
static void tb_poisson_wisdom_save(const tb_fftw_ops_t *ops)
{
  char path[4200];
  tb_outfile_t o;
  int ok = tb_poisson_wisdom_path(ops->prec, path, sizeof path) && !tb_outfile_open(&o, path);
  if (ok) {
    ops->export_wisdom(o.f);
    ok = !tb_outfile_commit(&o);
  }
  tb_error_clear();
  if (!ok && !tb_poisson_wisdom_noted) {
    tb_poisson_wisdom_noted = 1;
    tb_note("FFTW wisdom not saved (no writable $XDG_CACHE_HOME/twinbench or "
            "~/.cache/twinbench): later runs plan again");
  }
}

/* ---- The variants ------------------------------------------------------ */

enum { TB_PV_C2C, TB_PV_R2C, TB_PV_PANEL, TB_PV_FFTONLY };

/* The plans of a variant: the whole transforms (c2c: one plan each way; r2c,
 * fftonly: r2c and c2r), or panel's rows, planes (3-D) and panels (a full
 * panel, and the narrower last one when the columns do not divide). */
enum { TB_PP_FWD, TB_PP_INV, TB_PP_MID_FWD, TB_PP_MID_INV, TB_PP_COL_FWD, TB_PP_COL_INV,
       TB_PP_LAST_FWD, TB_PP_LAST_INV, TB_NPLANS };

typedef struct tb_poisson_cpu {
  const tb_fftw_ops_t *ops;
  void *work;    /* complex: N^dim (c2c) or N^(dim-1) (N/2 + 1) values */
  void *plan[TB_NPLANS];
  double *k2;    /* k^2 of each index of an axis */
  double *kcol;  /* panel: k^2 of each column of the [N][C] view (all axes but the first) */
  int64_t cols;  /* panel: C, the columns of that view */
  int64_t panel; /* panel: columns per panel */
} tb_poisson_cpu_t;

static void tb_poisson_cpu_release(tb_ctx_t *ctx)
{
  tb_poisson_cpu_t *st = ctx->state;
  if (!st)
    return;
  for (int k = 0; k < TB_NPLANS; k++)
    if (st->plan[k])
      st->ops->destroy(st->plan[k]);
  st->ops->dealloc(st->work);
  free(st->k2);
  free(st->kcol);
  free(st);
  ctx->state = NULL;
}

/* panel's plans. Rows: r2c and c2r along the contiguous axis with the
 * team. 3-D planes: the middle axis of one plane of N x (N/2 + 1) values.
 * Panels: the first axis of `panel` columns of the [N][C] view. Planes and
 * panels run one per thread at an offset into the work array, so they are
 * single-threaded and planned without FFTW's alignment assumption. */
static int tb_poisson_panel_plans(tb_ctx_t *ctx, tb_poisson_cpu_t *st, unsigned flags)
{
  const tb_poisson_t *s = ctx->p->priv;
  const tb_fftw_ops_t *ops = st->ops;
  const int n = (int)s->n, half = (int)s->half, c = (int)st->cols, b = (int)st->panel;
  void **pl = st->plan;
  ops->plan_with_nthreads(tb_cpu_threads(ctx));
  pl[TB_PP_FWD] = ops->plan_rows_r2c(n, (int)s->rows, ctx->buf[s->u], st->work, flags);
  pl[TB_PP_INV] = ops->plan_rows_c2r(n, (int)s->rows, st->work, ctx->buf[s->u], flags);
  ops->plan_with_nthreads(1);
  flags |= FFTW_UNALIGNED;
  if (s->dim == 3) {
    pl[TB_PP_MID_FWD] = ops->plan_lines(n, half, half, 1, st->work, FFTW_FORWARD, flags);
    pl[TB_PP_MID_INV] = ops->plan_lines(n, half, half, 1, st->work, FFTW_BACKWARD, flags);
  }
  pl[TB_PP_COL_FWD] = ops->plan_lines(n, b, c, 1, st->work, FFTW_FORWARD, flags);
  pl[TB_PP_COL_INV] = ops->plan_lines(n, b, c, 1, st->work, FFTW_BACKWARD, flags);
  if (c % b) {
    pl[TB_PP_LAST_FWD] = ops->plan_lines(n, c % b, c, 1, st->work, FFTW_FORWARD, flags);
    pl[TB_PP_LAST_INV] = ops->plan_lines(n, c % b, c, 1, st->work, FFTW_BACKWARD, flags);
  }
  for (int k = 0; k < TB_NPLANS; k++) {
    const int needed = k == TB_PP_MID_FWD || k == TB_PP_MID_INV     ? s->dim == 3
                       : k == TB_PP_LAST_FWD || k == TB_PP_LAST_INV ? c % b != 0
                                                                    : 1;
    if (needed && !pl[k])
      return tb_fail(TB_ENOMEM, "FFTW (%s) made no plan for panel, %d-D N = %d", ops->prec,
                     s->dim, n);
  }
  return TB_OK;
}

static int tb_poisson_cpu_prepare(tb_ctx_t *ctx, int kind)
{
  const tb_poisson_t *s = ctx->p->priv;
  const tb_fftw_ops_t *ops = tb_poisson_ops(ctx);
  const int threads = tb_cpu_threads(ctx);
  const int dims[3] = {(int)s->n, (int)s->n, (int)s->n};
  const size_t e = ctx->p->prec == TB_FLOAT ? sizeof(float) : sizeof(double);
  const int64_t cplx = kind == TB_PV_C2C ? s->total : s->rows * s->half;
  int rc = tb_poisson_fftw_init(ctx, ops);
  if (rc)
    return rc;
  tb_poisson_cpu_t *st = calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  st->ops = ops;
  st->work = ops->alloc((size_t)cplx * 2 * e);
  st->k2 = malloc((size_t)s->n * sizeof *st->k2);
  if (!st->work || !st->k2)
    return tb_fail(TB_ENOMEM, "out of memory for the poisson work array");
  tb_poisson_axis_k2(s, st->k2);
  if (kind == TB_PV_PANEL) {
    const tb_param_value_t *pv = tb_tune(ctx, "panel");
    st->cols = s->dim == 2 ? s->half : s->n * s->half;
    st->panel = pv->i ? pv->i : 128 / (int64_t)(2 * e);
    if (st->panel > st->cols)
      st->panel = st->cols;
    tb_tune_resolved(ctx, "panel", (double)st->panel);
    if (!(st->kcol = malloc((size_t)st->cols * sizeof *st->kcol)))
      return tb_fail(TB_ENOMEM, "out of memory");
    for (int64_t c = 0; c < st->cols; c++)
      st->kcol[c] = s->dim == 2 ? st->k2[c] : st->k2[c / s->half] + st->k2[c % s->half];
  }
  /* First touch of each page by the team, in the static split the passes use. */
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t j = 0; j < cplx * 2 * (int64_t)e; j += 4096)
    ((char *)st->work)[j] = 0;

  const unsigned flags = tb_poisson_planner_flags[tb_tune(ctx, "planner")->i];
  const double t0 = tb_wtime();
  ops->plan_with_nthreads(threads);
  if (kind == TB_PV_C2C) {
    st->plan[TB_PP_FWD] = ops->plan_c2c(s->dim, dims, st->work, st->work, FFTW_FORWARD, flags);
    st->plan[TB_PP_INV] = ops->plan_c2c(s->dim, dims, st->work, st->work, FFTW_BACKWARD, flags);
  } else if (kind == TB_PV_PANEL) {
    rc = tb_poisson_panel_plans(ctx, st, flags);
  } else {
    st->plan[TB_PP_FWD] = ops->plan_r2c(s->dim, dims, ctx->buf[s->u], st->work, flags);
    st->plan[TB_PP_INV] = ops->plan_c2r(s->dim, dims, st->work, ctx->buf[s->u], flags);
  }
  ctx->extra[TB_POISSON_PLAN_MS] = 1e3 * (tb_wtime() - t0);
  if (rc)
    return rc;
  if (!st->plan[TB_PP_FWD] || !st->plan[TB_PP_INV])
    return tb_fail(TB_ENOMEM, "FFTW (%s) made no plan for %d-D N = %lld", ops->prec, s->dim,
                   (long long)s->n);
  if (flags != FFTW_ESTIMATE)
    tb_poisson_wisdom_save(ops);
  ctx->extra[TB_POISSON_ROUNDTRIP] = kind == TB_PV_FFTONLY ? 1.0 : 0.0;
  return TB_OK;
}

/* panel's timed run: rows forward with the team; (3-D) each plane's middle
 * axis; each panel's first axis forward, its solve and its inverse while it
 * is in cache, one panel per thread at a time; the planes back; the rows
 * back into u. */
static void tb_poisson_panel_run(const tb_ctx_t *ctx, const tb_poisson_cpu_t *st)
{
  const tb_poisson_t *s = ctx->p->priv;
  const tb_fftw_ops_t *ops = st->ops;
  const int threads = tb_cpu_threads(ctx);
  const size_t ce = 2 * (ctx->p->prec == TB_FLOAT ? sizeof(float) : sizeof(double));
  char *w = st->work;
  const int64_t plane = s->n * s->half, npanels = (st->cols + st->panel - 1) / st->panel;
  const double scale = 1.0 / (double)s->total;
  ops->exec_r2c(st->plan[TB_PP_FWD], ctx->buf[s->f], w);
  if (s->dim == 3) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < s->n; i++)
      ops->exec_c2c(st->plan[TB_PP_MID_FWD], w + i * plane * ce, w + i * plane * ce);
  }
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t p = 0; p < npanels; p++) {
    const int64_t c0 = p * st->panel;
    const int last = c0 + st->panel > st->cols;
    char *at = w + c0 * ce;
    ops->exec_c2c(st->plan[last ? TB_PP_LAST_FWD : TB_PP_COL_FWD], at, at);
    ops->panel_solve(at, s->n, st->cols, last ? st->cols - c0 : st->panel, st->k2, st->kcol + c0,
                     scale);
    if (c0 == 0)
      memset(at, 0, ce);
    ops->exec_c2c(st->plan[last ? TB_PP_LAST_INV : TB_PP_COL_INV], at, at);
  }
  if (s->dim == 3) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < s->n; i++)
      ops->exec_c2c(st->plan[TB_PP_MID_INV], w + i * plane * ce, w + i * plane * ce);
  }
  ops->exec_c2r(st->plan[TB_PP_INV], w, ctx->buf[s->u]);
}

static int tb_poisson_cpu_run(tb_ctx_t *ctx, int kind)
{
  const tb_poisson_t *s = ctx->p->priv;
  tb_poisson_cpu_t *st = ctx->state;
  const tb_fftw_ops_t *ops = st->ops;
  const int threads = tb_cpu_threads(ctx);
  void *f = ctx->buf[s->f], *u = ctx->buf[s->u], *fwd = st->plan[TB_PP_FWD],
       *inv = st->plan[TB_PP_INV];
  const double scale = 1.0 / (double)s->total;
  switch (kind) {
  case TB_PV_C2C:
    ops->to_complex(st->work, f, s->total, threads);
    ops->exec_c2c(fwd, st->work, st->work);
    ops->solve(st->work, s->rows, s->n, s->n, s->dim, st->k2, scale, threads);
    ops->exec_c2c(inv, st->work, st->work);
    ops->real_part(u, st->work, s->total, threads);
    break;
  case TB_PV_R2C:
    ops->exec_r2c(fwd, f, st->work);
    ops->solve(st->work, s->rows, s->half, s->n, s->dim, st->k2, scale, threads);
    ops->exec_c2r(inv, st->work, u);
    break;
  case TB_PV_PANEL:
    tb_poisson_panel_run(ctx, st);
    break;
  default:
    ops->exec_r2c(fwd, f, st->work);
    ops->exec_c2r(inv, st->work, u);
  }
  return TB_OK;
}

#define TB_POISSON_CPU_VARIANT(NAME, KIND, NTUNING, SUMMARY)                                    \
  static int tb_poisson_prepare_##NAME(tb_ctx_t *ctx)                                           \
  {                                                                                             \
    return tb_poisson_cpu_prepare(ctx, KIND);                                                   \
  }                                                                                             \
  static int tb_poisson_run_##NAME(tb_ctx_t *ctx)                                               \
  {                                                                                             \
    return tb_poisson_cpu_run(ctx, KIND);                                                       \
  }                                                                                             \
  TB_VARIANT(tb_poisson_cpu_##NAME, #NAME, &tb_algo_poisson,                                    \
             TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE), 0, tb_poisson_cpu_tuning, NTUNING, \
             tb_poisson_prepare_##NAME, tb_poisson_run_##NAME,                                  \
             NULL, tb_poisson_cpu_release, SUMMARY);

TB_POISSON_CPU_VARIANT(c2c, TB_PV_C2C, 1,
                       "FFTW complex in-place transforms: copy in, forward, solve, inverse, "
                       "real part out (the published pipeline)")
TB_POISSON_CPU_VARIANT(r2c, TB_PV_R2C, 1,
                       "FFTW r2c into the half spectrum, the fused solve and scale, c2r into u")
TB_POISSON_CPU_VARIANT(panel, TB_PV_PANEL, 2,
                       "r2c rows; per panel of columns the first axis forward, solve, inverse in "
                       "cache; c2r rows")
TB_POISSON_CPU_VARIANT(fftonly, TB_PV_FFTONLY, 1,
                       "baseline: FFTW r2c and c2r alone, no solve (verified as a round trip)")

/* The distributed twin (MPI runs only), in poisson_mpi.c. */
extern const tb_variant_t tb__poisson_cpu_mpi;

TB_VARIANT_LIST(poisson, cpu, &tb_poisson_cpu_c2c, &tb_poisson_cpu_r2c, &tb_poisson_cpu_panel,
                &tb_poisson_cpu_fftonly, &tb__poisson_cpu_mpi);

#else

/* Without FFTW the family has no CPU twins (its summary says so). */
const tb_variant_t *const tb_poisson_cpu_variants[] = {NULL};

#endif
