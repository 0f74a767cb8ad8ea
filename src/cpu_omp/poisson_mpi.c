/* twinbench: the spectral Poisson family's distributed OpenMP twin (MPI
 * runs, tbmpi.h; the decomposition and its bound in doc/mpi.md).
 *
 * mpi  slabs of the slowest axis (2-D: rows; 3-D: z planes), P = N / R of
 *      them on each of the R ranks. Each rank transforms its slab with
 *      FFTW's threads along the other axes (r2c rows, or r2c planes), packs
 *      it into one block per rank (a tiled, vectorised transpose that makes
 *      the slow axis the fastest), and MPI_Alltoall swaps the blocks. A rank
 *      then holds whole lines along the slow axis: 2-D a share of the
 *      N/2 + 1 spectrum columns (padded to a multiple of R with zero
 *      columns), 3-D a share of the y rows. Each thread takes batches of
 *      those lines into its own buffer, transforms them forward, solves,
 *      transforms them back while they are in its cache, and puts them back
 *      where they came from, so the second all-to-all returns every block
 *      to its sender in the sender's own packed order; the unpack is the
 *      pack's inverse, and c2r (rows, or planes) writes the rank's slab of
 *      u. Two all-to-alls a solve, no transpose of the whole grid outside
 *      them. The gauge needs no collective: the zero mode lies on rank 0's
 *      first line after the transpose, which sets it to zero, so u has mean
 *      zero as the one-process twins' has. collect (untimed) gathers the
 *      slabs of u on every rank for the verifier. */
#include <config.h>

#include "../families/poisson.h"
#include "cpu.h"

#ifdef TB_HAVE_FFTW

#include <fftw3.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../common/tbmpi.h"
#include "../common/timer.h"

static const char *const tb_pmpi_planners[] = {"estimate", "measure", NULL};
static const unsigned tb_pmpi_planner_flags[] = {FFTW_ESTIMATE, FFTW_MEASURE};

static const tb_param_def_t tb_pmpi_tuning[] = {
    {"planner", "FFTW's planner effort: estimate (the default) or measure", TB_PARAM_CHOICE,
     "estimate", 0, 0, tb_pmpi_planners, 0, "estimate,measure"},
    {"lines", "lines along the slab axis a thread transforms, solves and transforms back at "
              "once; auto: 64 KiB of them",
     TB_PARAM_INT, "auto", 1, 4096, NULL, TB_PARAM_AUTO, "1,4,16,64"},
};

/* The transposes work on tiles of TB_PMPI_TILE x TB_PMPI_TILE complex
 * values, so that the strided side of each tile stays in L1. */
#define TB_PMPI_TILE 16

/* The geometry of the decomposition. A rank's spectrum slab (after the
 * local transforms) is P rows of z (the slab axis), zs complex values
 * apart. Block d of the pack holds, for each of nq planes q and cols
 * columns x, the P values along z: block d, line l = q cols + x, at
 * d block + l P + z. Its source is slab value z zs + (d nq + q) qs + d dc
 * + x, and only its first valid(d) columns exist (2-D: the columns past
 * N/2 are padding, sent as zeros). 2-D: nq = 1, cols = C = ceil(H / R),
 * zs = H, qs = 0, dc = C. 3-D: nq = P (the y rows of the block), cols = H,
 * zs = N H, qs = H, dc = 0. */
typedef struct tb_pmpi {
  int ranks, rank, threads;
  int64_t n, p, h, nq, cols, zs, qs, dc, lines, block, batch;
  int64_t slab;   /* complex values of the spectrum slab */
  void *work;     /* the spectrum slab */
  void *send, *recv; /* ranks blocks each */
  void **tbuf;    /* a buffer of batch lines for each thread */
  double *k2;     /* k^2 of each index of an axis */
  double *kline;  /* each line's |k|^2 without the slab axis's (1 on padding lines) */
  void *fwd, *inv, *lfwd, *linv, *rfwd, *rinv; /* slab r2c, c2r; batch and remainder lines */
  int dbl;
} tb_pmpi_t;

static int64_t tb_pmpi_valid(const tb_pmpi_t *g, int64_t d)
{
  int64_t v = g->h - d * g->dc;
  return v < 0 ? 0 : v < g->cols ? v : g->cols;
}

/* The typed passes: the pack (the slab's values of every block, zeros in
 * the padding), its inverse the unpack, and the lines' forward transform,
 * solve and inverse. */
#define TB_PMPI_PASSES(T, X)                                                                      \
  static void X##pmpi_pack(const tb_pmpi_t *g, T *restrict blocks, T *restrict slab, int back) \
  {                                                                                               \
    const int64_t tiles = (g->cols + TB_PMPI_TILE - 1) / TB_PMPI_TILE;                            \
    _Pragma("omp parallel for collapse(3) schedule(static) num_threads(g->threads)")              \
    for (int64_t d = 0; d < g->ranks; d++)                                                        \
      for (int64_t q = 0; q < g->nq; q++)                                                         \
        for (int64_t t = 0; t < tiles; t++) {                                                     \
          const int64_t x0 = t * TB_PMPI_TILE, valid = tb_pmpi_valid(g, d);                       \
          const int64_t x1 = x0 + TB_PMPI_TILE < g->cols ? x0 + TB_PMPI_TILE : g->cols;           \
          const int64_t so = (d * g->nq + q) * g->qs + d * g->dc, zs = 2 * g->zs;                 \
          T *restrict b = blocks + 2 * (d * g->block + q * g->cols * g->p);                       \
          for (int64_t z0 = 0; z0 < g->p; z0 += TB_PMPI_TILE) {                                   \
            const int64_t z1 = z0 + TB_PMPI_TILE < g->p ? z0 + TB_PMPI_TILE : g->p;               \
            for (int64_t x = x0; x < x1; x++) {                                                   \
              T *restrict line = b + 2 * x * g->p;                                                \
              T *restrict col = slab + 2 * (so + x);                                              \
              if (x >= valid) {                                                                   \
                if (!back)                                                                        \
                  memset(line + 2 * z0, 0, (size_t)(z1 - z0) * 2 * sizeof(T));                    \
              } else if (back) {                                                                  \
                _Pragma("omp simd")                                                               \
                for (int64_t z = z0; z < z1; z++) {                                               \
                  col[z * zs] = line[2 * z];                                                      \
                  col[z * zs + 1] = line[2 * z + 1];                                              \
                }                                                                                 \
              } else {                                                                            \
                _Pragma("omp simd")                                                               \
                for (int64_t z = z0; z < z1; z++) {                                               \
                  line[2 * z] = col[z * zs];                                                      \
                  line[2 * z + 1] = col[z * zs + 1];                                              \
                }                                                                                 \
              }                                                                                   \
            }                                                                                     \
          }                                                                                       \
        }                                                                                         \
  }                                                                                               \
  /* Lines l0 .. l0 + m of the received blocks: gathered into the thread's */                   \
  /* buffer (line l's values from rank s are its z range s P ..), forward, */                   \
  /* divided by -|k|^2 N^dim (the zero mode set to zero), inverse, and */                       \
  /* scattered back to where they came from. */                                                   \
  static void X##pmpi_lines(const tb_pmpi_t *g, T *restrict recv, T *restrict buf, int64_t l0,   \
                            int64_t m, void *fwd, void *inv, double scale)                        \
  {                                                                                               \
    const int64_t n = g->n, p = g->p;                                                             \
    const size_t run = (size_t)p * 2 * sizeof(T);                                                 \
    for (int64_t j = 0; j < m; j++)                                                               \
      for (int64_t s = 0; s < g->ranks; s++)                                                      \
        memcpy(buf + 2 * (j * n + s * p), recv + 2 * (s * g->block + (l0 + j) * p), run);         \
    X##execute_dft(fwd, (X##complex *)buf, (X##complex *)buf);                                    \
    const T ns = (T)-scale;                                                                       \
    for (int64_t j = 0; j < m; j++) {                                                             \
      const T kl = (T)g->kline[l0 + j];                                                           \
      T *restrict line = buf + 2 * j * n;                                                         \
      _Pragma("omp simd")                                                                         \
      for (int64_t z = 0; z < n; z++) {                                                           \
        const T f = ns / (kl + (T)g->k2[z]);                                                      \
        line[2 * z] *= f;                                                                         \
        line[2 * z + 1] *= f;                                                                     \
      }                                                                                           \
    }                                                                                             \
    if (g->rank == 0 && l0 == 0)                                                                  \
      buf[0] = buf[1] = 0;                                                                        \
    X##execute_dft(inv, (X##complex *)buf, (X##complex *)buf);                                    \
    for (int64_t j = 0; j < m; j++)                                                               \
      for (int64_t s = 0; s < g->ranks; s++)                                                      \
        memcpy(recv + 2 * (s * g->block + (l0 + j) * p), buf + 2 * (j * n + s * p), run);         \
  }                                                                                               \
  static int X##pmpi_run(tb_ctx_t *ctx, tb_pmpi_t *g)                                             \
  {                                                                                               \
    const tb_poisson_t *s = ctx->p->priv;                                                         \
    const int64_t off = g->rank * g->p * (s->total / s->n);                                       \
    const int64_t nb = (g->lines + g->batch - 1) / g->batch;                                      \
    const double scale = 1.0 / (double)s->total;                                                  \
    int rc;                                                                                       \
    X##execute_dft_r2c(g->fwd, (T *)ctx->buf[s->f] + off, g->work);                               \
    X##pmpi_pack(g, g->send, g->work, 0);                                                         \
    if ((rc = tb_mpi_alltoall(g->send, g->recv, g->block, 2 * (int64_t)sizeof(T))))               \
      return rc;                                                                                  \
    _Pragma("omp parallel for schedule(static) num_threads(g->threads)")                          \
    for (int64_t b = 0; b < nb; b++) {                                                            \
      const int full = (b + 1) * g->batch <= g->lines;                                            \
      X##pmpi_lines(g, g->recv, g->tbuf[omp_get_thread_num()], b * g->batch,                      \
                    full ? g->batch : g->lines - b * g->batch, full ? g->lfwd : g->rfwd,          \
                    full ? g->linv : g->rinv, scale);                                             \
    }                                                                                             \
    if ((rc = tb_mpi_alltoall(g->recv, g->send, g->block, 2 * (int64_t)sizeof(T))))               \
      return rc;                                                                                  \
    X##pmpi_pack(g, g->send, g->work, 1);                                                         \
    X##execute_dft_c2r(g->inv, g->work, (T *)ctx->buf[s->u] + off);                               \
    return TB_OK;                                                                                 \
  }                                                                                               \
  /* The plans: the slab's r2c and c2r (rows, or planes) with the team; */                      \
  /* the lines of a batch and of the last, shorter one, single-threaded on */                   \
  /* a thread buffer (every buffer is FFTW's, so equally aligned). The */                       \
  /* slab's are made on u (its slab offset as f's: the same alignment) and */                   \
  /* run on f by the new-array execute. */                                                        \
  static int X##pmpi_plan(tb_ctx_t *ctx, tb_pmpi_t *g, unsigned flags)                            \
  {                                                                                               \
    const tb_poisson_t *s = ctx->p->priv;                                                         \
    const int nn[2] = {(int)s->n, (int)s->n}, r = s->dim - 1, n = (int)s->n;                      \
    const int idist = (int)(s->total / s->n), odist = (int)(g->slab / g->p);                      \
    T *u = (T *)ctx->buf[s->u] + g->rank * g->p * idist;                                          \
    X##plan_with_nthreads(g->threads);                                                            \
    g->fwd = X##plan_many_dft_r2c(r, nn, (int)g->p, u, NULL, 1, idist, g->work, NULL, 1, odist,   \
                                  flags);                                                         \
    g->inv = X##plan_many_dft_c2r(r, nn, (int)g->p, g->work, NULL, 1, odist, u, NULL, 1, idist,   \
                                  flags);                                                         \
    X##plan_with_nthreads(1);                                                                     \
    const int64_t rem = g->lines % g->batch;                                                      \
    for (int k = 0; k < (rem ? 2 : 1); k++) {                                                     \
      const int m = (int)(k ? rem : g->batch);                                                    \
      void **pf = k ? &g->rfwd : &g->lfwd, **pi = k ? &g->rinv : &g->linv;                        \
      *pf = X##plan_many_dft(1, &n, m, g->tbuf[0], NULL, 1, n, g->tbuf[0], NULL, 1, n,            \
                             FFTW_FORWARD, flags);                                                \
      *pi = X##plan_many_dft(1, &n, m, g->tbuf[0], NULL, 1, n, g->tbuf[0], NULL, 1, n,            \
                             FFTW_BACKWARD, flags);                                               \
    }                                                                                             \
    if (!rem) {                                                                                   \
      g->rfwd = g->lfwd;                                                                          \
      g->rinv = g->linv;                                                                          \
    }                                                                                             \
    if (!g->fwd || !g->inv || !g->lfwd || !g->linv || !g->rfwd || !g->rinv)                       \
      return tb_fail(TB_ENOMEM, "FFTW (" #T ") made no plan for mpi, %d-D N = %d", s->dim, n);    \
    return TB_OK;                                                                                 \
  }                                                                                               \
  static void X##pmpi_free(tb_pmpi_t *g)                                                          \
  {                                                                                               \
    void *plans[] = {g->fwd, g->inv, g->lfwd, g->linv,                                            \
                     g->rfwd != g->lfwd ? g->rfwd : NULL, g->rinv != g->linv ? g->rinv : NULL};   \
    for (int k = 0; k < TB_COUNT(plans); k++)                                                     \
      if (plans[k])                                                                               \
        X##destroy_plan(plans[k]);                                                                \
  }

TB_PMPI_PASSES(float, fftwf_)
TB_PMPI_PASSES(double, fftw_)

static void tb_pmpi_release(tb_ctx_t *ctx)
{
  tb_pmpi_t *g = ctx->state;
  if (!g)
    return;
  if (g->dbl)
    fftw_pmpi_free(g);
  else
    fftwf_pmpi_free(g);
  if (g->tbuf)
    for (int t = 0; t < g->threads; t++)
      fftw_free(g->tbuf[t]);
  fftw_free(g->work);
  fftw_free(g->send);
  fftw_free(g->recv);
  free(g->tbuf);
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
  const tb_param_value_t *lv = tb_tune(ctx, "lines");
  g->batch = lv->i ? lv->i : (int64_t)(65536 / ((size_t)s->n * ce));
  g->batch = g->batch < 1 ? 1 : g->batch > g->lines ? g->lines : g->batch;
  tb_tune_resolved(ctx, "lines", (double)g->batch);

  g->work = fftw_malloc((size_t)g->slab * ce);
  g->send = fftw_malloc((size_t)(g->block * ranks) * ce);
  g->recv = fftw_malloc((size_t)(g->block * ranks) * ce);
  g->tbuf = calloc((size_t)g->threads, sizeof *g->tbuf);
  g->k2 = malloc((size_t)s->n * sizeof *g->k2);
  g->kline = malloc((size_t)g->lines * sizeof *g->kline);
  if (!g->work || !g->send || !g->recv || !g->tbuf || !g->k2 || !g->kline)
    return tb_fail(TB_ENOMEM, "out of memory for poisson mpi's buffers");
  for (int64_t i = 0; i < s->n; i++) {
    double k = 2.0 * M_PI / s->L * (double)tb_poisson_freq(i, s->n);
    g->k2[i] = k * k;
  }
  /* Line l of this rank: 2-D column r C + l (padding past N/2), 3-D row
   * y = r P + l / H and column x = l % H. */
  for (int64_t l = 0; l < g->lines; l++) {
    const int64_t x = g->rank * g->dc + l % g->cols, y = g->rank * g->nq + l / g->cols;
    g->kline[l] = x >= g->h ? 1.0 : s->dim == 2 ? g->k2[x] : g->k2[y] + g->k2[x];
  }
  int fail = 0;
#pragma omp parallel num_threads(g->threads) reduction(+ : fail)
  {
    const int t = omp_get_thread_num();
    if (!(g->tbuf[t] = fftw_malloc((size_t)(g->batch * s->n) * ce)))
      fail++;
    else
      memset(g->tbuf[t], 0, (size_t)(g->batch * s->n) * ce);
#pragma omp for schedule(static)
    for (int64_t j = 0; j < g->slab * (int64_t)ce; j += 4096)
      ((char *)g->work)[j] = 0;
#pragma omp for schedule(static)
    for (int64_t j = 0; j < g->block * ranks * (int64_t)ce; j += 4096)
      ((char *)g->send)[j] = ((char *)g->recv)[j] = 0;
  }
  if (fail)
    return tb_fail(TB_ENOMEM, "out of memory for poisson mpi's line buffers");
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
    "MPI ranks: slabs of the slowest axis, FFTW r2c of the slab, MPI_Alltoall, the slab axis's "
    "lines forward, solved and back in cache, MPI_Alltoall back, c2r",
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
