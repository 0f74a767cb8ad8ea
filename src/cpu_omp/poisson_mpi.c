/* twinbench: the spectral Poisson family's distributed OpenMP twin (MPI
 * runs, tbmpi.h; the decomposition and its bound in doc/mpi.md).
 *
 * mpi  slabs of the slowest axis (2-D: rows; 3-D: z planes), P = N / R of
 *      them on each of the R ranks. Each rank transforms its slab with
 *      FFTW's threads along the other axes (r2c rows, or r2c planes) and
 *      cuts each of its P spectrum rows into R pieces, piece d holding the
 *      lines (the values along the slab axis) that rank d will own: 2-D a
 *      share of the N/2 + 1 spectrum columns (padded to a multiple of R with
 *      zero columns), 3-D a share of the y rows. The pack copies the pieces
 *      contiguously (block d: P rows of the pieces), and MPI_Alltoall does
 *      the transpose: rank r then holds block s's rows as rows s P .. of an
 *      N x (its lines) matrix, each of its lines a column. Each thread takes
 *      panels of a few adjacent columns, transforms them along the slab axis
 *      (strided), solves and transforms them back while they are in its
 *      cache; the second all-to-all returns every block to its sender, the
 *      unpack copies the pieces back, and c2r (rows, or planes) writes the
 *      rank's slab of u. Two all-to-alls a solve and no transpose outside
 *      them. The gauge needs no collective: the zero mode is rank 0's first
 *      column's first value, which it sets to zero, so u has mean zero as the
 *      one-process twins' has. collect (untimed) gathers the slabs of u on
 *      every rank for the verifier. */
#include <config.h>

#include "../families/poisson.h"
#include "cpu.h"
#include "poisson_cpu.h"

#ifdef TB_HAVE_FFTW

#include <fftw3.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/tbmpi.h"
#include "../common/timer.h"

static const char *const tb_pmpi_planners[] = {"estimate", "measure", NULL};
static const unsigned tb_pmpi_planner_flags[] = {FFTW_ESTIMATE, FFTW_MEASURE};

static const tb_param_def_t tb_pmpi_tuning[] = {
    {"planner", "FFTW's planner effort: estimate (the default) or measure", TB_PARAM_CHOICE,
     "estimate", 0, 0, tb_pmpi_planners, 0, "estimate,measure"},
    {"panel", "adjacent lines (columns) along the slab axis a thread transforms, solves and "
              "transforms back at once; auto: 128 bytes of a row",
     TB_PARAM_INT, "auto", 1, 4096, NULL, TB_PARAM_AUTO, "4,8,16,32,64"},
};

/* The geometry of the decomposition. A rank's spectrum slab (after the
 * local transforms) is P rows (the slab axis), zs complex values apart.
 * Piece d of row z starts at z zs + d (nq qs + dc) and holds count(d)
 * values, followed in block d by lines - count(d) zeros: 2-D, nq = 1,
 * cols = dc = C = ceil(H / R), zs = H, qs = 0, count(d) = the valid columns
 * of [d C, d C + C) below H; 3-D, nq = P y rows of cols = qs = H values,
 * dc = 0, zs = N H, count(d) = P H. Block d is its P pieces, `lines`
 * values apart (block = P lines). */
typedef struct tb_pmpi {
  int ranks, rank, threads;
  int64_t n, p, h, nq, cols, zs, qs, dc, lines, block, panel;
  int64_t slab;   /* complex values of the spectrum slab */
  void *work;     /* the spectrum slab */
  void *send, *recv; /* ranks blocks each; recv is the N x lines matrix */
  double *k2;     /* k^2 of each index of an axis */
  double *kline;  /* each line's |k|^2 without the slab axis's (1 on padding lines) */
  void *fwd, *inv, *pfwd, *pinv, *rfwd, *rinv; /* slab r2c, c2r; a panel and the last one */
  int dbl;
} tb_pmpi_t;

/* The values of piece d (the rest of its block's row is padding). */
static int64_t tb_pmpi_count(const tb_pmpi_t *g, int64_t d)
{
  const int64_t v = g->h - d * g->dc;
  return (g->nq - 1) * g->cols + (v < 0 ? 0 : v < g->cols ? v : g->cols);
}

/* The typed passes: the pack (every piece into its block, zeros in the
 * padding) and its inverse the unpack, and a panel's forward transform,
 * solve and inverse. */
#define TB_PMPI_PASSES(T, X, PANEL)                                                            \
  static void X##pmpi_pack(const tb_pmpi_t *g, T *restrict blocks, T *restrict slab, int back) \
  {                                                                                               \
    const size_t ce = 2 * sizeof(T);                                                              \
    _Pragma("omp parallel for collapse(2) schedule(static) num_threads(g->threads)")              \
    for (int64_t d = 0; d < g->ranks; d++)                                                        \
      for (int64_t z = 0; z < g->p; z++) {                                                        \
        const int64_t count = tb_pmpi_count(g, d);                                                \
        T *piece = slab + 2 * (z * g->zs + d * (g->nq * g->qs + g->dc));                          \
        T *row = blocks + 2 * (d * g->block + z * g->lines);                                      \
        if (back) {                                                                               \
          memcpy(piece, row, (size_t)count * ce);                                                 \
        } else {                                                                                  \
          memcpy(row, piece, (size_t)count * ce);                                                 \
          memset(row + 2 * count, 0, (size_t)(g->lines - count) * ce);                            \
        }                                                                                         \
      }                                                                                           \
  }                                                                                               \
  /* Columns c0 .. c0 + m of the N x lines matrix w: forward along the */                        \
  /* slab axis, divided by -|k|^2 N^dim (the zero mode set to zero), inverse. */                 \
  static void X##pmpi_panel(const tb_pmpi_t *g, T *restrict w, int64_t c0, int64_t m,            \
                            void *fwd, void *inv, double scale)                                   \
  {                                                                                               \
    T *at = w + 2 * c0;                                                                           \
    X##execute_dft(fwd, (X##complex *)at, (X##complex *)at);                                      \
    PANEL(at, g->n, g->lines, m, g->k2, g->kline + c0, scale);                                    \
    if (g->rank == 0 && c0 == 0)                                                                  \
      at[0] = at[1] = 0;                                                                          \
    X##execute_dft(inv, (X##complex *)at, (X##complex *)at);                                      \
  }                                                                                               \
  static int X##pmpi_run(tb_ctx_t *ctx, tb_pmpi_t *g)                                             \
  {                                                                                               \
    const tb_poisson_t *s = ctx->p->priv;                                                         \
    const int64_t off = g->rank * g->p * (s->total / s->n);                                       \
    const int64_t np = (g->lines + g->panel - 1) / g->panel;                                      \
    const double scale = 1.0 / (double)s->total;                                                  \
    int rc;                                                                                       \
    X##execute_dft_r2c(g->fwd, (T *)ctx->buf[s->f] + off, g->work);                               \
    X##pmpi_pack(g, g->send, g->work, 0);                                                         \
    if ((rc = tb_mpi_alltoall(g->send, g->recv, g->block, 2 * (int64_t)sizeof(T))))               \
      return rc;                                                                                  \
    _Pragma("omp parallel for schedule(static) num_threads(g->threads)")                          \
    for (int64_t b = 0; b < np; b++) {                                                            \
      const int full = (b + 1) * g->panel <= g->lines;                                            \
      X##pmpi_panel(g, g->recv, b * g->panel, full ? g->panel : g->lines - b * g->panel,          \
                    full ? g->pfwd : g->rfwd, full ? g->pinv : g->rinv, scale);                   \
    }                                                                                             \
    if ((rc = tb_mpi_alltoall(g->recv, g->send, g->block, 2 * (int64_t)sizeof(T))))               \
      return rc;                                                                                  \
    X##pmpi_pack(g, g->send, g->work, 1);                                                         \
    X##execute_dft_c2r(g->inv, g->work, (T *)ctx->buf[s->u] + off);                               \
    return TB_OK;                                                                                 \
  }                                                                                               \
  /* The plans: the slab's r2c and c2r (rows, or planes) with the team, */                     \
  /* made on u (its slab offset as f's: the same alignment) and run on f */                      \
  /* by the new-array execute; a panel's columns and the last, narrower */                        \
  /* panel's, single-threaded, at any column offset (so unaligned). */                            \
  static int X##pmpi_plan(tb_ctx_t *ctx, tb_pmpi_t *g, unsigned flags)                            \
  {                                                                                               \
    const tb_poisson_t *s = ctx->p->priv;                                                         \
    const int nn[2] = {(int)s->n, (int)s->n}, r = s->dim - 1, n = (int)s->n;                      \
    const int idist = (int)(s->total / s->n), odist = (int)(g->slab / g->p), l = (int)g->lines;   \
    T *u = (T *)ctx->buf[s->u] + g->rank * g->p * idist;                                          \
    X##plan_with_nthreads(g->threads);                                                            \
    g->fwd = X##plan_many_dft_r2c(r, nn, (int)g->p, u, NULL, 1, idist, g->work, NULL, 1, odist,   \
                                  flags);                                                         \
    g->inv = X##plan_many_dft_c2r(r, nn, (int)g->p, g->work, NULL, 1, odist, u, NULL, 1, idist,   \
                                  flags);                                                         \
    X##plan_with_nthreads(1);                                                                     \
    const int64_t rem = g->lines % g->panel;                                                      \
    for (int k = 0; k < (rem ? 2 : 1); k++) {                                                     \
      const int m = (int)(k ? rem : g->panel);                                                    \
      void **pf = k ? &g->rfwd : &g->pfwd, **pi = k ? &g->rinv : &g->pinv;                        \
      *pf = X##plan_many_dft(1, &n, m, g->recv, NULL, l, 1, g->recv, NULL, l, 1, FFTW_FORWARD,    \
                             flags | FFTW_UNALIGNED);                                             \
      *pi = X##plan_many_dft(1, &n, m, g->recv, NULL, l, 1, g->recv, NULL, l, 1, FFTW_BACKWARD,   \
                             flags | FFTW_UNALIGNED);                                             \
    }                                                                                             \
    if (!rem) {                                                                                   \
      g->rfwd = g->pfwd;                                                                          \
      g->rinv = g->pinv;                                                                          \
    }                                                                                             \
    if (!g->fwd || !g->inv || !g->pfwd || !g->pinv || !g->rfwd || !g->rinv)                       \
      return tb_fail(TB_ENOMEM, "FFTW (" #T ") made no plan for mpi, %d-D N = %d", s->dim, n);    \
    return TB_OK;                                                                                 \
  }                                                                                               \
  static void X##pmpi_free(tb_pmpi_t *g)                                                          \
  {                                                                                               \
    void *plans[] = {g->fwd, g->inv, g->pfwd, g->pinv,                                            \
                     g->rfwd != g->pfwd ? g->rfwd : NULL, g->rinv != g->pinv ? g->rinv : NULL};   \
    for (int k = 0; k < TB_COUNT(plans); k++)                                                     \
      if (plans[k])                                                                               \
        X##destroy_plan(plans[k]);                                                                \
  }

TB_PMPI_PASSES(float, fftwf_, tb_poisson_panel_solve_f32)
TB_PMPI_PASSES(double, fftw_, tb_poisson_panel_solve_f64)

static void tb_pmpi_release(tb_ctx_t *ctx)
{
  tb_pmpi_t *g = ctx->state;
  if (!g)
    return;
  if (g->dbl)
    fftw_pmpi_free(g);
  else
    fftwf_pmpi_free(g);
  fftw_free(g->work);
  fftw_free(g->send);
  fftw_free(g->recv);
  free(g->k2);
  free(g->kline);
  free(g);
  ctx->state = NULL;
}

/* The decomposition of the problem over the ranks, its buffers (first
 * touched by the team) and its plans. N must be a multiple of the ranks
 * (the balanced all-to-all), and every count must fit FFTW's and MPI's int. */
static int tb_pmpi_prepare(tb_ctx_t *ctx)
{
  const tb_poisson_t *s = ctx->p->priv;
  const int ranks = tb_mpi_size(), dbl = ctx->p->prec == TB_DOUBLE;
  const size_t ce = 2 * (dbl ? sizeof(double) : sizeof(float));
  if (s->n % ranks)
    return tb_fail(TB_EUNSUP, "poisson mpi: N = %lld is not a multiple of the %d MPI ranks",
                   (long long)s->n, ranks);
  tb_pmpi_t *g = calloc(1, sizeof *g);
  if (!g)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = g;
  g->dbl = dbl;
  g->ranks = ranks;
  g->rank = tb_mpi_rank();
  g->threads = tb_cpu_threads(ctx);
  g->n = s->n;
  g->h = s->half;
  g->p = s->n / ranks;
  if (s->dim == 2) {
    g->nq = 1;
    g->cols = g->dc = (g->h + ranks - 1) / ranks;
    g->zs = g->h;
  } else {
    g->nq = g->p;
    g->cols = g->qs = g->h;
    g->zs = s->n * g->h;
  }
  g->lines = g->nq * g->cols;
  g->block = g->lines * g->p;
  g->slab = g->p * g->zs;
  if (g->block * ranks > INT_MAX || s->total / s->n > INT_MAX)
    return tb_fail(TB_EUNSUP, "poisson mpi: %d-D N = %lld is more than FFTW's and MPI's int "
                   "counts on %d ranks", s->dim, (long long)s->n, ranks);
  const tb_param_value_t *pv = tb_tune(ctx, "panel");
  g->panel = pv->i ? pv->i : (int64_t)(128 / ce);
  g->panel = g->panel > g->lines ? g->lines : g->panel;
  tb_tune_resolved(ctx, "panel", (double)g->panel);

  g->work = fftw_malloc((size_t)g->slab * ce);
  g->send = fftw_malloc((size_t)(g->block * ranks) * ce);
  g->recv = fftw_malloc((size_t)(g->block * ranks) * ce);
  g->k2 = malloc((size_t)s->n * sizeof *g->k2);
  g->kline = malloc((size_t)g->lines * sizeof *g->kline);
  if (!g->work || !g->send || !g->recv || !g->k2 || !g->kline)
    return tb_fail(TB_ENOMEM, "out of memory for poisson mpi's buffers");
  tb_poisson_axis_k2(s, g->k2);
  /* Line l of this rank: 2-D column r C + l (padding past N/2), 3-D row
   * y = r P + l / H and column x = l % H. */
  for (int64_t l = 0; l < g->lines; l++) {
    const int64_t x = g->rank * g->dc + l % g->cols, y = g->rank * g->nq + l / g->cols;
    g->kline[l] = x >= g->h ? 1.0 : s->dim == 2 ? g->k2[x] : g->k2[y] + g->k2[x];
  }
  /* First touch by the team, in the static splits of the passes. */
#pragma omp parallel num_threads(g->threads)
  {
#pragma omp for schedule(static)
    for (int64_t j = 0; j < g->slab * (int64_t)ce; j += 4096)
      ((char *)g->work)[j] = 0;
#pragma omp for schedule(static)
    for (int64_t j = 0; j < g->block * ranks * (int64_t)ce; j += 4096)
      ((char *)g->send)[j] = ((char *)g->recv)[j] = 0;
  }
  if (!(dbl ? fftw_init_threads() : fftwf_init_threads()))
    return tb_fail(TB_ENOMEM, "FFTW could not start its threads");
  const unsigned flags = tb_pmpi_planner_flags[tb_tune(ctx, "planner")->i];
  const double t0 = tb_wtime();
  int rc = dbl ? fftw_pmpi_plan(ctx, g, flags) : fftwf_pmpi_plan(ctx, g, flags);
  ctx->extra[TB_POISSON_PLAN_MS] = 1e3 * (tb_wtime() - t0);
  ctx->extra[TB_POISSON_ROUNDTRIP] = 0.0;
  return rc;
}

static int tb_pmpi_run(tb_ctx_t *ctx)
{
  tb_pmpi_t *g = ctx->state;
  return g->dbl ? fftw_pmpi_run(ctx, g) : fftwf_pmpi_run(ctx, g);
}

/* Every rank's slab of u into every rank's u, for the verifier. */
static int tb_pmpi_collect(tb_ctx_t *ctx)
{
  const tb_poisson_t *s = ctx->p->priv;
  const int64_t e = (int64_t)tb_kind_size(tb_prec_kind(ctx->p->prec));
  return tb_mpi_allgather_bytes(ctx->buf[s->u], s->n, s->total / s->n * e);
}

const tb_variant_t tb__poisson_cpu_mpi = {
    "mpi",
    "MPI ranks: slabs of the slowest axis, FFTW r2c of the slab, MPI_Alltoall (the transpose), "
    "panels of lines along the slab axis forward, solved and back in cache, MPI_Alltoall back, "
    "c2r",
    &tb_algo_poisson,
    TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    TB_V_MPI,
    tb_pmpi_tuning,
    TB_COUNT(tb_pmpi_tuning),
    tb_pmpi_prepare,
    tb_pmpi_run,
    tb_pmpi_collect,
    tb_pmpi_release};

#endif
