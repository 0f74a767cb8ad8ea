/* twinbench: the red-black SOR family's OpenMP twins.
 *
 * natural: the problem's layout; each colour's sweep visits every other
 *          point of a row (a stride-2 access that uses half of each line).
 * split:   red and black stored apart (v, f and the materials), so each
 *          colour's sweep reads its own points contiguously; the run splits
 *          v on entry and merges it on exit (timed), f and the materials
 *          once in prepare.
 * fused:   the natural layout in place, one pass an iteration: each thread
 *          marches up its planes, red on plane k + 1, then black on plane k.
 * wave:    the colour-split layout in one pass an iteration: the team walks
 *          up the planes together, each thread over its static share of the
 *          rows of every plane, red on row (j, k + 1) then black on row
 *          (j, k), a barrier a plane; the few planes in flight stay in the
 *          caches, so v, f and the materials come from memory once an
 *          iteration (the byte floor). Its shares may also be planes
 *          (tuning share): each thread up its own share of the planes, as fused.
 * dense:   wave's order over the natural layout: every point of a row in
 *          contiguous vectors, the colour's points stored by mask; no split
 *          or merge of v, twice the arithmetic.
 * jacobi:  the baseline: every point from the previous iterate, two arrays.
 * One parallel region an iteration, static schedules (the scratch arrays
 * first-touched by the threads that sweep them), the residual's square sum
 * fused into the sweeps as an OpenMP reduction. The split layouts keep the
 * spacing factors of x split by parity too (contiguous loads), and a row
 * whose points and neighbours share one material (tb_sor_uniform_rows) takes
 * one harmonic mean for every face, with no gathers. A held point's residual
 * enters the sum times 0 (it is finite: its neighbours and f are), not
 * through a select: gcc 12 does not vectorise a float loop whose double
 * reduction takes a select on a byte's bit, and the product adds the same +0.
 *
 * The distributed twins (MPI runs, tbmpi.h) split the interior planes in z
 * over the ranks (tb_mpi_share: 1-D slabs), sweep each colour over the
 * rank's planes as natural does, and exchange the slab's edge planes with
 * the ranks below and above after each colour, since the other colour's
 * sweep of an edge plane reads the neighbour's plane:
 *   mpi          the exchange after the colour's sweep (blocking);
 *   mpi-overlap  the two edge planes first, the exchange started, the
 *                interior planes swept while the halos travel, then waited.
 * The residual's square sum is reduced over the ranks where the solver's
 * schedule reads it, so every rank stops after the same iteration; every
 * point is updated from the same values as in natural, so the solution is
 * natural's bit for bit after the same number of iterations. Every rank
 * keeps the whole grid; the ranks' planes are gathered after the runs
 * (collect, untimed) for the verifier. */
#include <config.h>

/* GCC keeps 256-bit vectors on Intel cores unless told otherwise; a point
 * update is some 30 vector instructions and a division, so at 256 bits the
 * row loops issue about 4 instructions an update in float and 8 in double,
 * which 16 threads cannot sustain at the memory's rate; 512-bit vectors
 * halve that (the divider's lanes a cycle stay about the same). The pragma
 * comes before the headers: the point update of sor.h, inlined into the
 * loops, must share the setting. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)
#pragma GCC target("prefer-vector-width=512")
#endif

#include <limits.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../common/tbmpi.h"
#include "../families/sor.h"
#include "cpu.h"

/* The colour-split geometry: a row of nx + 2 points holds w = (nx + 3) / 2
 * of each colour; point (i, j, k) of colour (i + j + k) & 1 sits at
 * i / 2 + w (j + (ny + 2) k) of its colour's arrays. */
typedef struct tb_sor_cpu {
  int64_t w, half; /* points of one colour a row, and in all */
  void *v[2], *f[2];
  uint8_t *mat[2];
  void *rx[4];  /* rxm and rxp at the points i = 2 ih + p: p = 0, then p = 1 */
  int8_t *urow; /* the uniform rows' materials (tb_sor_uniform_rows) */
  void *v2;     /* jacobi's second iterate */
  struct tb_sor_done *done; /* wave with sync flags: a counter a thread */
  int planes;               /* wave and dense: share planes */
} tb_sor_cpu_t;

enum { TB_SOR_NATURAL, TB_SOR_SPLIT, TB_SOR_JACOBI, TB_SOR_FUSED, TB_SOR_WAVE, TB_SOR_DENSE };

/* wave's synchronisation between phases (tuning parameter sync): a team
 * barrier, or flags: each thread publishes the phases it has finished and
 * waits only for the two threads whose rows border its own (the only rows
 * it reads besides its own), so a slow thread holds up its neighbours, not
 * the team, and a thread may run phases ahead of the threads far from it. */
enum { TB_SOR_SYNC_BARRIER, TB_SOR_SYNC_FLAGS };
static const char *const tb_sor_syncs[] = {"barrier", "flags", NULL};
/* wave's and dense's thread shares (tuning parameter share): rows, the team up the
 * planes together, each thread over its share of the rows of every plane
 * (a thread's working set a few rows of the planes in flight, a wait a
 * plane); or planes, each thread up its own share of the planes as fused
 * does (every stream a thread reads contiguous over its whole share, one
 * barrier an iteration, but the planes in flight, some six colour planes,
 * each thread's alone). */
enum { TB_SOR_SHARE_ROWS, TB_SOR_SHARE_PLANES };
static const char *const tb_sor_shares[] = {"rows", "planes", NULL};
static const tb_param_def_t tb_sor_wave_tuning[] = {
    {"sync", "how wave's threads wait between planes: barrier (the team's), flags (the two "
             "neighbouring threads' progress counters)",
     TB_PARAM_CHOICE, "flags", 0, 0, tb_sor_syncs, 0, "barrier,flags"},
    {"share", "wave's and dense's thread shares: rows (the team up the planes, a share of the "
              "rows of each), planes (each thread up its own share of the planes)",
     TB_PARAM_CHOICE, "rows", 0, 0, tb_sor_shares, 0, "rows,planes"},
};

/* A thread's finished phases, alone on its cache line. */
typedef struct tb_sor_done {
  _Alignas(64) atomic_llong n;
} tb_sor_done_t;

/* Wait until the thread of d has finished k phases (acquired, so its rows'
 * values are visible), polled politely (tb_cpu_backoff). */
static void tb_sor_wait(tb_sor_done_t *d, long long k)
{
  for (int spins = 0; atomic_load_explicit(&d->n, memory_order_acquire) < k; spins++)
    tb_cpu_backoff(spins);
}

static int64_t tb_sor_half_index(const tb_sor_t *s, int64_t w, int64_t c)
{
  const int64_t i = c % s->sx, r = c / s->sx;
  return i / 2 + w * r;
}

/* The contiguous rows' vector step (split's, wave's and Jacobi's), in
 * points: GCC vectorises their loops 64 points a step (the material bytes
 * fill a 512-bit vector) and leaves the remainder of a row (up to 63
 * points) to a scalar loop, which at nx = 382 (191 points a colour row)
 * took some 70% of wave's time and made a sweep 2.7 times slower than at
 * nx = 384 (one thread of the 2-core build machine). */
#define TB_SOR_STEP 64

/* The point update of a split row's uniform rows (all six faces' harmonic
 * mean h) and of its other rows (each face's from the two materials),
 * giving the residual r and the new value out of point ih. */
#define TB_SOR_SROW_UNIFORM(T, SFX, ih, m, r, out)                                                \
  const T r = tb_sor_update_##SFX(v[ih], f[ih], o[ih + p - 1], o[ih + p], o[ih - w], o[ih + w],   \
                                  o[ih - wz], o[ih + wz], h, h, h, h, h, h, rxm[ih], rxp[ih],     \
                                  rym, ryp, rzm, rzp, omega, &out)
#define TB_SOR_SROW_FACES(T, SFX, ih, m, r, out)                                                  \
  const T r = tb_sor_point_##SFX(                                                                 \
      v[ih], f[ih], o[ih + p - 1], o[ih + p], o[ih - w], o[ih + w], o[ih - wz], o[ih + wz],       \
      t->hm + TB_SOR_MAT(m) * TB_SOR_NMAT, mo[ih + p - 1], mo[ih + p], mo[ih - w], mo[ih + w],    \
      mo[ih - wz], mo[ih + wz], rxm[ih], rxp[ih], rym, ryp, rzm, rzp, omega, &out)

/* The same for a uniform row whose spacing factors of x are one pair along
 * the row (the uniform mesh's; tb_sor_tab's xc): the six coefficients and the
 * diagonal, TB_SOR_COEFS's, are the row's constants. */
#define TB_SOR_SROW_CONST(T, SFX, ih, m, r, out)                                                  \
  const T r = tb_sor_apply_##SFX(v[ih], f[ih], o[ih + p - 1], o[ih + p], o[ih - w], o[ih + w],    \
                                 o[ih - wz], o[ih + wz], cw_, ce_, cs_, cn_, cb_, ct_, d_, omega, \
                                 &out)

/* The same for a row of the natural layout from the iterate c (Jacobi's
 * rows: every point, from the previous iterate). */
#define TB_SOR_NROW_UNIFORM(T, SFX, ih, m, r, out)                                                \
  const T r = tb_sor_update_##SFX(c[ih], f[ih], c[ih - 1], c[ih + 1], c[ih - sx], c[ih + sx],     \
                                  c[ih - sxy], c[ih + sxy], h, h, h, h, h, h, rxm[ih], rxp[ih],   \
                                  rym, ryp, rzm, rzp, omega, &out)
#define TB_SOR_NROW_CONST(T, SFX, ih, m, r, out)                                                  \
  const T r = tb_sor_apply_##SFX(c[ih], f[ih], c[ih - 1], c[ih + 1], c[ih - sx], c[ih + sx],      \
                                 c[ih - sxy], c[ih + sxy], cw_, ce_, cs_, cn_, cb_, ct_, d_,      \
                                 omega, &out)
#define TB_SOR_NROW_FACES(T, SFX, ih, m, r, out)                                                  \
  const T r = tb_sor_point_##SFX(                                                                 \
      c[ih], f[ih], c[ih - 1], c[ih + 1], c[ih - sx], c[ih + sx], c[ih - sxy], c[ih + sxy],       \
      t->hm + TB_SOR_MAT(m) * TB_SOR_NMAT, mat[ih - 1], mat[ih + 1], mat[ih - sx], mat[ih + sx],  \
      mat[ih - sxy], mat[ih + sxy], rxm[ih], rxp[ih], rym, ryp, rzm, rzp, omega, &out)

/* The simd loop for I = LO .. HI of the body (the variadic arguments), which
 * defines the point's residual rk: its square summed into r2 where want (a
 * constant in each inlined copy of the rows), and no reduction at all where
 * not. (A reduction of want ? rk^2 : 0 made GCC 12 keep a vector of zeros
 * and add its 64 lanes one by one after every loop: some 260 cycles a row,
 * a cycle a point at nx = 512, in every iteration; one build-machine core,
 * in its L2, 1.39 -> 2.56 G updates/s in float without it.) */
#define TB_SOR_WANT_FOR(TYPE, I, LO, HI, ...)                                                     \
  do {                                                                                            \
    if (want) {                                                                                   \
      _Pragma("omp simd reduction(+ : r2)")                                                       \
      for (TYPE I = (LO); I <= (HI); I++) {                                                       \
        __VA_ARGS__;                                                                              \
        r2 += (double)rk * (double)rk;                                                            \
      }                                                                                           \
    } else {                                                                                      \
      _Pragma("omp simd")                                                                         \
      for (TYPE I = (LO); I <= (HI); I++) {                                                       \
        __VA_ARGS__;                                                                              \
        (void)rk;                                                                                 \
      }                                                                                           \
    }                                                                                             \
  } while (0)

/* Points a .. a + cnt - 1 of a row by POINT into v, those below `from`
 * left as they are (the tail step's lanes that the whole steps updated);
 * electrodes (TB_SOR_FIXED) are held at HOLD (SOR's own value, Jacobi's
 * previous iterate); a held or kept point's residual counts 0. */
#define TB_SOR_ROW_SPAN(T, SFX, POINT, HOLD, a, cnt, from)                                        \
  do {                                                                                            \
    const int64_t a_ = (a), c_ = (cnt), f_ = (from);                                              \
    TB_SOR_WANT_FOR(int64_t, q_, 0, c_ - 1, const int64_t ih = a_ + q_;                          \
                    const unsigned m = mat[ih]; T out; POINT(T, SFX, ih, m, r, out);              \
                    v[ih] = ih < f_ ? v[ih] : (m & TB_SOR_FIXED) ? HOLD : out;                    \
                    const T rk = r * (((m & TB_SOR_FIXED) || ih < f_) ? (T)0 : (T)1));            \
  } while (0)

/* Points lo .. hi of a row by POINT in whole steps and, where the row has
 * a step or more, a last step over its end (above), a span of the constant
 * TB_SOR_STEP points, which GCC compiles without a remainder loop (a span
 * of a run-time count there ran wave at nx = 382 1.5 times slower); a
 * shorter row's rest as it is. */
#define TB_SOR_ROW_STEPS(T, SFX, POINT, HOLD, lo, hi)                                             \
  do {                                                                                            \
    const int64_t n_ = (hi) - (lo) + 1, rest_ = n_ % TB_SOR_STEP, whole_ = (lo) + n_ - rest_;     \
    TB_SOR_ROW_SPAN(T, SFX, POINT, HOLD, lo, whole_ - (lo), lo);                                  \
    if (rest_ && n_ >= TB_SOR_STEP)                                                               \
      TB_SOR_ROW_SPAN(T, SFX, POINT, HOLD, (hi) + 1 - TB_SOR_STEP, TB_SOR_STEP, whole_);          \
    else if (rest_)                                                                               \
      TB_SOR_ROW_SPAN(T, SFX, POINT, HOLD, whole_, rest_, whole_);                                \
  } while (0)

/* The six coefficients cw_ .. ct_ and the diagonal d_ of a point whose faces
 * all have h, from the spacing factors xm, xp, ym, yp, zm, zp (sor.h's
 * tb_sor_coefs_*: tb_sor_apply on them gives tb_sor_update's bits). */
#define TB_SOR_COEFS(T, SFX, h, xm, xp, ym, yp, zm, zp)                                           \
  T c_[6];                                                                                        \
  const T d_ = tb_sor_coefs_##SFX(h, xm, xp, ym, yp, zm, zp, c_);                                 \
  const T cw_ = c_[0], ce_ = c_[1], cs_ = c_[2], cn_ = c_[3], cb_ = c_[4], ct_ = c_[5]

/* A row: the uniform rows (all faces' harmonic mean h) by CONST where the
 * spacing factors of x are constant (t->xc; the coefficients then once a
 * row), else by UNIFORM; the others by FACES. */
#define TB_SOR_ROW(T, SFX, CONST, UNIFORM, FACES, HOLD, lo, hi)                                   \
  do {                                                                                            \
    if (um >= 0 && t->xc) {                                                                       \
      const T h = t->hm[um * (TB_SOR_NMAT + 1)];                                                  \
      TB_SOR_COEFS(T, SFX, h, t->cxm, t->cxp, rym, ryp, rzm, rzp);                                \
      TB_SOR_ROW_STEPS(T, SFX, CONST, HOLD, lo, hi);                                              \
    } else if (um >= 0) {                                                                         \
      const T h = t->hm[um * (TB_SOR_NMAT + 1)];                                                  \
      TB_SOR_ROW_STEPS(T, SFX, UNIFORM, HOLD, lo, hi);                                            \
    } else                                                                                        \
      TB_SOR_ROW_STEPS(T, SFX, FACES, HOLD, lo, hi);                                              \
  } while (0)

#define TB_SOR_CPU(T, SFX)                                                                        \
  /* The spacing tables and the harmonic means of the coefficient array; xc: the factors of x   \
   * are one pair (cxm, cxp) at every interior point (the uniform mesh). */                       \
  typedef struct {                                                                                \
    const T *rxm, *rxp, *rym, *ryp, *rzm, *rzp, *hm;                                              \
    int xc;                                                                                       \
    T cxm, cxp;                                                                                   \
  } tb_sor_tab_##SFX;                                                                             \
  static tb_sor_tab_##SFX tb_sor_tab_##SFX##_of(const tb_sor_t *s, const T *cf)                   \
  {                                                                                               \
    tb_sor_tab_##SFX t = {cf + s->ax[0], cf + s->ax[0] + s->nx + 2, cf + s->ax[1],                \
                          cf + s->ax[1] + s->ny + 2, cf + s->ax[2], cf + s->ax[2] + s->nz + 2,    \
                          cf + s->hm, 1, 0, 0};                                                   \
    t.cxm = t.rxm[1];                                                                             \
    t.cxp = t.rxp[1];                                                                             \
    for (int64_t i = 2; i <= s->nx; i++)                                                          \
      t.xc &= t.rxm[i] == t.cxm && t.rxp[i] == t.cxp;                                             \
    return t;                                                                                     \
  }                                                                                               \
  /* Colour col of points ia..ib of row (j, k) in the natural layout, in place; returns the       \
   * residual's square sum. */                                                                    \
  static double tb_sor_line_##SFX(const tb_sor_t *s, T *v, const T *f, const uint8_t *mat,        \
                                  const tb_sor_tab_##SFX *t, T omega, int col, int64_t j,         \
                                  int64_t k, int64_t ia, int64_t ib)                              \
  {                                                                                               \
    const int64_t sx = s->sx, sxy = s->sxy, row = sx * j + sxy * k;                               \
    const int64_t i0 = ia + ((ia + j + k + col) & 1);                                             \
    const T rzm = t->rzm[k], rzp = t->rzp[k], rym = t->rym[j], ryp = t->ryp[j];                   \
    double r2 = 0.0;                                                                              \
    _Pragma("omp simd reduction(+ : r2)")                                                         \
    for (int64_t i = i0; i <= ib; i += 2) {                                                       \
      const int64_t c = row + i;                                                                  \
      const unsigned m = mat[c];                                                                  \
      T out;                                                                                      \
      const T r = tb_sor_point_##SFX(                                                             \
          v[c], f[c], v[c - 1], v[c + 1], v[c - sx], v[c + sx], v[c - sxy], v[c + sxy],           \
          t->hm + TB_SOR_MAT(m) * TB_SOR_NMAT, mat[c - 1], mat[c + 1], mat[c - sx], mat[c + sx],  \
          mat[c - sxy], mat[c + sxy], t->rxm[i], t->rxp[i], rym, ryp, rzm, rzp, omega, &out);     \
      const int held = (m & TB_SOR_FIXED) != 0;                                                   \
      v[c] = held ? v[c] : out;                                                                   \
      r2 += held ? 0.0 : (double)r * (double)r;                                                   \
    }                                                                                             \
    return r2;                                                                                    \
  }                                                                                               \
  /* Colour col of plane k. */                                                                    \
  static double tb_sor_plane_##SFX(const tb_sor_t *s, T *v, const T *f,                           \
                                   const uint8_t *mat, const tb_sor_tab_##SFX *t, T omega,        \
                                   int col, int64_t k)                                            \
  {                                                                                               \
    double r2 = 0.0;                                                                              \
    for (int64_t j = 1; j <= s->ny; j++)                                                          \
      r2 += tb_sor_line_##SFX(s, v, f, mat, t, omega, col, j, k, 1, s->nx);                       \
    return r2;                                                                                    \
  }                                                                                               \
  /* One iteration in the natural layout (colours 0 then 1). */                                   \
  static double tb_sor_iter_nat_##SFX(const tb_sor_t *s, T *v, const T *f,                        \
                                      const uint8_t *mat, const tb_sor_tab_##SFX *t, T omega,     \
                                      int threads)                                                \
  {                                                                                               \
    double r2 = 0.0;                                                                              \
    _Pragma("omp parallel num_threads(threads) reduction(+ : r2)")                                \
    for (int col = 0; col < 2; col++) {                                                           \
      _Pragma("omp for schedule(static)")                                                         \
      for (int64_t k = 1; k <= s->nz; k++)                                                        \
        r2 += tb_sor_plane_##SFX(s, v, f, mat, t, omega, col, k);                                 \
    }                                                                                             \
    return r2;                                                                                    \
  }                                                                                               \
  /* Colour col of row (j, k) in the colour-split layout; returns the residual's square sum.      \
   * i = 2 ih + p: the colour's points of the row; west at ih + p - 1, east at ih + p of the      \
   * other colour's row. want: the residual is summed (the iterations tb_sor_wants; 0 in the      \
   * others, whose loops then carry no reduction: tb_sor_srow). The row goes in whole vector      \
   * steps (TB_SOR_STEP points): the first n - n % STEP points, then, where the row has           \
   * STEP points or more, its last STEP with the points already updated masked out (a point      \
   * reads only the other colour and its own value, so the masked lanes change nothing), so      \
   * that no point of a long row goes through GCC's scalar remainder loop. */                     \
  static inline __attribute__((always_inline)) double tb_sor_srow_body_##SFX(                     \
      const tb_sor_t *s, const tb_sor_cpu_t *st, const tb_sor_tab_##SFX *t, T omega, int col,     \
      int64_t j, int64_t k, const int want)                                                       \
  {                                                                                               \
    const int64_t w = st->w, wz = w * (s->ny + 2), p = (j + k + col) & 1, row = w * j + wz * k;   \
    T *v = (T *)st->v[col] + row;                                                                 \
    const T *o = (const T *)st->v[col ^ 1] + row, *f = (const T *)st->f[col] + row;               \
    const uint8_t *mat = st->mat[col] + row, *mo = st->mat[col ^ 1] + row;                        \
    const T *rxm = (const T *)st->rx[2 * p], *rxp = (const T *)st->rx[2 * p + 1];                 \
    const T rym = t->rym[j], ryp = t->ryp[j], rzm = t->rzm[k], rzp = t->rzp[k];                   \
    const int um = st->urow[j + (s->ny + 2) * k];                                                 \
    const int64_t lo = 1 - p, hi = (s->nx - p) >> 1;                                              \
    double r2 = 0.0;                                                                              \
    TB_SOR_ROW(T, SFX, TB_SOR_SROW_CONST, TB_SOR_SROW_UNIFORM, TB_SOR_SROW_FACES, v[ih], lo,      \
               hi);                                                                               \
    return r2;                                                                                    \
  }                                                                                               \
  /* Row (j, k) of Jacobi's iteration from the iterate src into v (omega 1), its rows as          \
   * split's: contiguous, the uniform rows without the neighbours' materials, whole steps. */     \
  static double tb_sor_jrow_##SFX(const tb_sor_t *s, const int8_t *urow, const T *src, T *dst,    \
                                  const T *fs, const uint8_t *ms, const tb_sor_tab_##SFX *t,      \
                                  T omega, int64_t j, int64_t k)                                  \
  {                                                                                               \
    const int64_t sx = s->sx, sxy = s->sxy, row = sx * j + sxy * k;                               \
    const T *c = src + row, *f = fs + row, *rxm = t->rxm, *rxp = t->rxp;                          \
    T *v = dst + row;                                                                             \
    const uint8_t *mat = ms + row;                                                                \
    const T rym = t->rym[j], ryp = t->ryp[j], rzm = t->rzm[k], rzp = t->rzp[k];                   \
    const int um = urow[j + (s->ny + 2) * k], want = 1;                                           \
    double r2 = 0.0;                                                                              \
    TB_SOR_ROW(T, SFX, TB_SOR_NROW_CONST, TB_SOR_NROW_UNIFORM, TB_SOR_NROW_FACES, c[ih], 1,       \
               s->nx);                                                                            \
    return r2;                                                                                    \
  }                                                                                               \
  static double tb_sor_iter_jacobi_##SFX(const tb_sor_t *s, const int8_t *urow, const T *src,     \
                                         T *dst, const T *f, const uint8_t *mat,                  \
                                         const tb_sor_tab_##SFX *t, int threads)                  \
  {                                                                                               \
    double r2 = 0.0;                                                                              \
    _Pragma("omp parallel for schedule(static) num_threads(threads) reduction(+ : r2)")           \
    for (int64_t k = 1; k <= s->nz; k++)                                                          \
      for (int64_t j = 1; j <= s->ny; j++)                                                        \
        r2 += tb_sor_jrow_##SFX(s, urow, src, dst, f, mat, t, (T)1, j, k);                        \
    return r2;                                                                                    \
  }                                                                                               \
  /* Colour col of row (j, k) in the natural layout, dense: every point of the row is             \
   * computed in contiguous vectors (no stride-2 gathers), and only the colour's free points      \
   * are stored (a masked store, tb_sor_dstore, which returns the point's residual or 0). A       \
   * colour point reads only the other colour's values and its own, none of which the row's       \
   * stores change, so it gets the two-pass bits whatever the vector width; the other             \
   * colour's results are dropped (finite: their operands are). 32-bit indices into per-          \
   * neighbour row pointers. The grid comes twice, as vo (stored) and v (read), and               \
   * tb_sor_drow is not inlined: where GCC 12 sees the stores and the x neighbours' loads on      \
   * one pointer it refuses the simd loop (the dependence at distance 1, which the colours        \
   * make harmless, caps its vector length at 1). */                                              \
  static inline __attribute__((always_inline)) T tb_sor_dstore_##SFX(T *o, T out, T r, int other, \
                                                                     unsigned m)                  \
  {                                                                                               \
    const T keep = (other | (m & TB_SOR_FIXED)) ? (T)0 : (T)1;                                    \
    if (keep != (T)0)                                                                             \
      *o = out;                                                                                   \
    return r * keep;                                                                              \
  }                                                                                               \
  static inline __attribute__((always_inline)) double tb_sor_drow_body_##SFX(                     \
      const tb_sor_t *s, const int8_t *urow, T *vo, const T *v, const T *f, const uint8_t *mat,   \
      const tb_sor_tab_##SFX *t, T omega, int col, int64_t j, int64_t k, const int want)          \
  {                                                                                               \
    const int64_t sx = s->sx, sxy = s->sxy, row = sx * j + sxy * k;                               \
    const int q = (int)((j + k + col) & 1), nx = (int)s->nx;                                      \
    const T *vc = v + row;                                                                        \
    T *wo = vo + row;                                                                             \
    const T *vs = vc - sx, *vn = vc + sx, *vb = vc - sxy, *vt = vc + sxy, *fc = f + row;          \
    const uint8_t *mc = mat + row;                                                                \
    const T *rxm = t->rxm, *rxp = t->rxp;                                                         \
    const T rym = t->rym[j], ryp = t->ryp[j], rzm = t->rzm[k], rzp = t->rzp[k];                   \
    const int um = urow[j + (s->ny + 2) * k];                                                     \
    double r2 = 0.0;                                                                              \
    if (um >= 0) {                                                                                \
      const T h = t->hm[um * (TB_SOR_NMAT + 1)];                                                  \
      TB_SOR_WANT_FOR(int, i, 1, nx, T out;                                                       \
                      const T r = tb_sor_update_##SFX(vc[i], fc[i], vc[i - 1], vc[i + 1], vs[i],  \
                                                      vn[i], vb[i], vt[i], h, h, h, h, h, h,      \
                                                      rxm[i], rxp[i], rym, ryp, rzm, rzp, omega,  \
                                                      &out);                                      \
                      const T rk = tb_sor_dstore_##SFX(wo + i, out, r, (i ^ q) & 1, mc[i]));      \
      return r2;                                                                                  \
    }                                                                                             \
    const uint8_t *ms = mc - sx, *mn = mc + sx, *mb = mc - sxy, *mt = mc + sxy;                   \
    TB_SOR_WANT_FOR(int, i, 1, nx, const unsigned m = mc[i]; T out;                               \
                    const T r = tb_sor_point_##SFX(vc[i], fc[i], vc[i - 1], vc[i + 1], vs[i],     \
                                                   vn[i], vb[i], vt[i],                           \
                                                   t->hm + TB_SOR_MAT(m) * TB_SOR_NMAT,           \
                                                   mc[i - 1], mc[i + 1], ms[i], mn[i], mb[i],     \
                                                   mt[i], rxm[i], rxp[i], rym, ryp, rzm, rzp,     \
                                                   omega, &out);                                  \
                    const T rk = tb_sor_dstore_##SFX(wo + i, out, r, (i ^ q) & 1, m));            \
    return r2;                                                                                    \
  }                                                                                               \
  /* The rows with the residual's sum specialised in or out (want, a constant in each copy). */   \
  static double tb_sor_srow_##SFX(const tb_sor_t *s, const tb_sor_cpu_t *st,                      \
                                  const tb_sor_tab_##SFX *t, T omega, int col, int64_t j,         \
                                  int64_t k, int want)                                            \
  {                                                                                               \
    return want ? tb_sor_srow_body_##SFX(s, st, t, omega, col, j, k, 1)                           \
                : tb_sor_srow_body_##SFX(s, st, t, omega, col, j, k, 0);                          \
  }                                                                                               \
  __attribute__((noinline)) static double tb_sor_drow_##SFX(                                      \
      const tb_sor_t *s, const int8_t *urow, T *vo, const T *v, const T *f, const uint8_t *mat,   \
      const tb_sor_tab_##SFX *t, T omega, int col, int64_t j, int64_t k, int want)                \
  {                                                                                               \
    return want ? tb_sor_drow_body_##SFX(s, urow, vo, v, f, mat, t, omega, col, j, k, 1)          \
                : tb_sor_drow_body_##SFX(s, urow, vo, v, f, mat, t, omega, col, j, k, 0);         \
  }                                                                                               \
  /* One iteration in the colour-split layout: red, then black, over the planes. */               \
  static double tb_sor_iter_split_##SFX(const tb_sor_t *s, const tb_sor_cpu_t *st,                \
                                        const tb_sor_tab_##SFX *t, T omega, int threads,          \
                                        int want)                                                 \
  {                                                                                               \
    double r2 = 0.0;                                                                              \
    _Pragma("omp parallel num_threads(threads) reduction(+ : r2)")                                \
    for (int col = 0; col < 2; col++) {                                                           \
      _Pragma("omp for schedule(static)")                                                         \
      for (int64_t k = 1; k <= s->nz; k++)                                                        \
        for (int64_t j = 1; j <= s->ny; j++)                                                      \
          r2 += tb_sor_srow_##SFX(s, st, t, omega, col, j, k, want);                              \
    }                                                                                             \
    return r2;                                                                                    \
  }                                                                                               \
  /* Colour col of row (j, k) in the layout of the sweep `form`: fused's natural row (every        \
   * point of the colour, tb_sor_line), dense's (tb_sor_drow) or the split layout's (tb_sor_srow:  \
   * split and wave). fused's row sums its residual always (want is for the others). */            \
  static double tb_sor_row_##SFX(const tb_sor_t *s, const tb_sor_cpu_t *st,                        \
                                 const tb_sor_tab_##SFX *t, T omega, int form, T *v, const T *f,   \
                                 const uint8_t *mat, int col, int64_t j, int64_t k, int want)      \
  {                                                                                                \
    if (form == TB_SOR_FUSED)                                                                      \
      return tb_sor_line_##SFX(s, v, f, mat, t, omega, col, j, k, 1, s->nx);                       \
    if (form == TB_SOR_DENSE)                                                                      \
      return tb_sor_drow_##SFX(s, st->urow, v, v, f, mat, t, omega, col, j, k, want);              \
    return tb_sor_srow_##SFX(s, st, t, omega, col, j, k, want);                                    \
  }                                                                                                \
  /* Colour col of the interior rows of plane k (tb_sor_row). */                                   \
  static double tb_sor_rows_##SFX(const tb_sor_t *s, const tb_sor_cpu_t *st,                       \
                                  const tb_sor_tab_##SFX *t, T omega, int form, T *v,              \
                                  const T *f, const uint8_t *mat, int col, int64_t k, int want)    \
  {                                                                                                \
    double r2 = 0.0;                                                                               \
    for (int64_t j = 1; j <= s->ny; j++)                                                           \
      r2 += tb_sor_row_##SFX(s, st, t, omega, form, v, f, mat, col, j, k, want);                   \
    return r2;                                                                                     \
  }                                                                                                \
  /* One iteration in place by planes, by the calling thread of the team (fused, and wave's and    \
   * dense's share planes): the thread owns planes k0..k1 (the static share) and marches up        \
   * them, red on plane k + 1, then black on plane k, so each plane is fetched once an             \
   * iteration. Red on the first and last planes of every share comes first, before a barrier:     \
   * black on a share's edge plane needs red on the neighbouring share's edge, and red there       \
   * needs the old black of this share's edge. */                                                  \
  static double tb_sor_march_##SFX(const tb_sor_t *s, const tb_sor_cpu_t *st,                      \
                                   const tb_sor_tab_##SFX *t, T omega, int form, T *v,             \
                                   const T *f, const uint8_t *mat, int want)                       \
  {                                                                                                \
    int64_t lo, hi;                                                                                \
    double r2 = 0.0;                                                                               \
    tb_cpu_share(s->nz, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);                    \
    const int64_t k0 = lo + 1, k1 = hi;                                                            \
    if (k0 <= k1)                                                                                  \
      r2 += tb_sor_rows_##SFX(s, st, t, omega, form, v, f, mat, 0, k0, want);                      \
    if (k0 < k1)                                                                                   \
      r2 += tb_sor_rows_##SFX(s, st, t, omega, form, v, f, mat, 0, k1, want);                      \
    _Pragma("omp barrier")                                                                         \
    for (int64_t k = k0; k <= k1; k++) {                                                           \
      if (k + 1 < k1)                                                                              \
        r2 += tb_sor_rows_##SFX(s, st, t, omega, form, v, f, mat, 0, k + 1, want);                 \
      r2 += tb_sor_rows_##SFX(s, st, t, omega, form, v, f, mat, 1, k, want);                       \
    }                                                                                              \
    return r2;                                                                                     \
  }                                                                                                \
  /* One fused iteration: the team's march over the natural layout's rows. */                      \
  static double tb_sor_iter_fused_##SFX(const tb_sor_t *s, T *v, const T *f, const uint8_t *mat,   \
                                        const tb_sor_tab_##SFX *t, T omega, int threads)           \
  {                                                                                                \
    double r2 = 0.0;                                                                               \
    _Pragma("omp parallel num_threads(threads) reduction(+ : r2)")                                 \
    r2 += tb_sor_march_##SFX(s, NULL, t, omega, TB_SOR_FUSED, v, f, mat, 1);                       \
    return r2;                                                                                     \
  }                                                                                                \
  /* One iteration in the colour-split layout, one pass: in phase k every thread takes red on     \
   * row (j, k + 1), then black on row (j, k), for the rows j of its share; then it waits for     \
   * the others (sync barrier) or publishes its phase count (sync flags, below). Black (j, k)     \
   * reads red on (j, k +- 1) and (j +- 1, k), all updated (the earlier phases, and (j, k + 1)    \
   * just before by the same thread); red (j, k + 1) reads black on (j, k), (j +- 1, k + 1) and   \
   * (j, k + 2), none updated yet ((j, k) comes after it in the same thread, the others in later  \
   * phases). So every point sees the two-pass values. With flags a thread starts phase k once    \
   * the threads of rows lo - 1 and hi (its neighbours t -+ 1) have finished phase k - 1: then    \
   * red on their rows of plane k is written, and neither can start phase k + 1 (which writes     \
   * black on plane k + 1, read here) before this thread has finished phase k. Only the first     \
   * min(threads, ny) threads have rows (tb_cpu_share), so neighbours are found among them.       \
   * form TB_SOR_DENSE (the dense variant): the same order over the natural layout's rows v,       \
   * f, mat (tb_sor_drow), which reads and writes the same colours of the same rows; with share    \
   * planes, tb_sor_march instead. */                                                              \
  static double tb_sor_iter_wave_##SFX(const tb_sor_t *s, const tb_sor_cpu_t *st,                 \
                                       const tb_sor_tab_##SFX *t, T omega, int threads, int flags, \
                                       int form, T *v, const T *f, const uint8_t *mat,             \
                                       int want)                                                  \
  {                                                                                               \
    double r2 = 0.0;                                                                              \
    _Pragma("omp parallel num_threads(threads) reduction(+ : r2)")                                \
    if (st->planes)                                                                               \
      r2 += tb_sor_march_##SFX(s, st, t, omega, form, v, f, mat, want);                            \
    else {                                                                                        \
      const int nt = omp_get_num_threads(), tid = omp_get_thread_num();                           \
      const int na = s->ny < nt ? (int)s->ny : nt;                                                \
      int64_t lo, hi;                                                                             \
      tb_cpu_share(s->ny, nt, tid, &lo, &hi);                                                     \
      if (flags) {                                                                                \
        atomic_store_explicit(&st->done[tid].n, 0, memory_order_relaxed);                         \
        _Pragma("omp barrier")                                                                    \
      }                                                                                           \
      for (int64_t k = 0; k <= s->nz && (!flags || tid < na); k++) {                              \
        if (flags && tid > 0)                                                                     \
          tb_sor_wait(&st->done[tid - 1], k);                                                     \
        if (flags && tid + 1 < na)                                                                \
          tb_sor_wait(&st->done[tid + 1], k);                                                     \
        for (int64_t j = lo + 1; j <= hi; j++) {                                                  \
          if (k < s->nz)                                                                          \
            r2 += tb_sor_row_##SFX(s, st, t, omega, form, v, f, mat, 0, j, k + 1, want);           \
          if (k > 0)                                                                              \
            r2 += tb_sor_row_##SFX(s, st, t, omega, form, v, f, mat, 1, j, k, want);               \
        }                                                                                         \
        if (flags)                                                                                \
          atomic_store_explicit(&st->done[tid].n, k + 1, memory_order_release);                   \
        else {                                                                                    \
          _Pragma("omp barrier")                                                                  \
        }                                                                                         \
      }                                                                                           \
    }                                                                                             \
    return r2;                                                                                    \
  }                                                                                               \
  /* Move the natural layout to the colour-split one (to = 1) or back, a row at a time: the       \
   * row's even points go to colour (j + k) & 1, its odd ones to the other, at i / 2. */          \
  static void tb_sor_split_##SFX(const tb_sor_t *s, int64_t w, T *nat, T *const *half, int to,    \
                                 int threads)                                                     \
  {                                                                                               \
    const int64_t ny2 = s->ny + 2, pairs = (s->nx + 2) / 2, odd = (s->nx + 2) & 1;                \
    _Pragma("omp parallel for schedule(static) num_threads(threads)")                             \
    for (int64_t k = 0; k < s->nz + 2; k++)                                                       \
      for (int64_t j = 0; j < ny2; j++) {                                                         \
        T *n = nat + s->sx * j + s->sxy * k, *e = half[(j + k) & 1] + w * (j + ny2 * k),          \
          *o = half[(j + k + 1) & 1] + w * (j + ny2 * k);                                         \
        if (to) {                                                                                 \
          _Pragma("omp simd")                                                                     \
          for (int64_t ih = 0; ih < pairs; ih++) {                                                \
            e[ih] = n[2 * ih];                                                                    \
            o[ih] = n[2 * ih + 1];                                                                \
          }                                                                                       \
          if (odd)                                                                                \
            e[pairs] = n[2 * pairs];                                                              \
        } else {                                                                                  \
          _Pragma("omp simd")                                                                     \
          for (int64_t ih = 0; ih < pairs; ih++) {                                                \
            n[2 * ih] = e[ih];                                                                    \
            n[2 * ih + 1] = o[ih];                                                                \
          }                                                                                       \
          if (odd)                                                                                \
            n[2 * pairs] = e[pairs];                                                              \
        }                                                                                         \
      }                                                                                           \
  }                                                                                               \
  static int tb_sor_run_##SFX(tb_ctx_t *ctx, int layout)                                          \
  {                                                                                               \
    const tb_sor_t *s = ctx->p->priv;                                                             \
    const tb_sor_cpu_t *st = ctx->state;                                                          \
    const int threads = tb_cpu_threads(ctx);                                                      \
    T *v = ctx->buf[s->v];                                                                        \
    const T *f = ctx->buf[s->f];                                                                  \
    const uint8_t *mat = ctx->buf[s->mat];                                                        \
    const tb_sor_tab_##SFX t = tb_sor_tab_##SFX##_of(s, ctx->buf[s->coef]);                       \
    T *pair[2] = {v, st->v2};                                                                     \
    const T omega = (T)s->omega;                                                                  \
    double r0 = 0.0, rel = 1.0;                                                                   \
    int64_t it = 1;                                                                               \
    const int split = layout == TB_SOR_SPLIT || layout == TB_SOR_WAVE;                            \
    const int flags = st->done != NULL;                                                           \
    if (split)                                                                                    \
      tb_sor_split_##SFX(s, st->w, v, (T *const *)st->v, 1, threads);                             \
    if (layout == TB_SOR_JACOBI)                                                                  \
      memcpy(st->v2, v, (size_t)s->cells * sizeof(T));                                            \
    for (;; it++) {                                                                               \
      const int want = tb_sor_wants(s, it);                                                       \
      double r2;                                                                                  \
      switch (layout) {                                                                           \
      case TB_SOR_SPLIT:                                                                          \
        r2 = tb_sor_iter_split_##SFX(s, st, &t, omega, threads, want);                            \
        break;                                                                                    \
      case TB_SOR_WAVE:                                                                           \
        r2 = tb_sor_iter_wave_##SFX(s, st, &t, omega, threads, flags, TB_SOR_WAVE, v, f, mat,      \
                                    want);                                                         \
        break;                                                                                    \
      case TB_SOR_DENSE:                                                                          \
        r2 = tb_sor_iter_wave_##SFX(s, st, &t, omega, threads, flags, TB_SOR_DENSE, v, f, mat,     \
                                    want);                                                         \
        break;                                                                                    \
      case TB_SOR_FUSED:                                                                          \
        r2 = tb_sor_iter_fused_##SFX(s, v, f, mat, &t, omega, threads);                           \
        break;                                                                                    \
      case TB_SOR_NATURAL:                                                                        \
        r2 = tb_sor_iter_nat_##SFX(s, v, f, mat, &t, omega, threads);                             \
        break;                                                                                    \
      default:                                                                                    \
        r2 = tb_sor_iter_jacobi_##SFX(s, st->urow, pair[(it - 1) & 1], pair[it & 1], f, mat, &t,  \
                                      threads);                                                   \
      }                                                                                           \
      const int stop_ = tb_sor_stop(s, it, r2, &r0, &rel);                                        \
      if (stop_ < 0)                                                                              \
        return TB_EINTR;                                                                          \
      if (stop_)                                                                                  \
        break;                                                                                    \
    }                                                                                             \
    if (split)                                                                                    \
      tb_sor_split_##SFX(s, st->w, v, (T *const *)st->v, 0, threads);                             \
    if (layout == TB_SOR_JACOBI && (it & 1))                                                      \
      memcpy(v, st->v2, (size_t)s->cells * sizeof(T));                                            \
    tb_sor_finish(ctx, it, r0, rel);                                                              \
    return TB_OK;                                                                                 \
  }

TB_SOR_CPU(float, f)
TB_SOR_CPU(double, d)

/* The distributed twins' state: the plan (sor.h) and the faces' buffers. */
typedef struct tb_sor_cpu_mpi {
  tb_sor_plan_t pl;
  void *sendbuf, *recvbuf;
} tb_sor_cpu_mpi_t;

/* Colour col over the rank's box with its exchange: the boxes before the
 * post (blocking: the whole box; overlapped: the faces that travel), the
 * faces packed in parallel, the exchange posted by the main thread, the
 * rest swept while the halos travel, the wait, the layers unpacked. The
 * residual's square sum; *rc the first error. Only the main thread calls
 * MPI (MPI_THREAD_FUNNELED). */
#define TB_SOR_MPI(T, SFX)                                                                        \
  static double tb_sor_box_##SFX(const tb_sor_t *s, T *v, const T *f, const uint8_t *mat,         \
                                 const tb_sor_tab_##SFX *t, T omega, int col,                     \
                                 const tb_sor_box_t *b)                                           \
  {                                                                                               \
    const int64_t ny = b->hi[1] - b->lo[1] + 1, rows = ny * (b->hi[2] - b->lo[2] + 1);            \
    double r2 = 0.0;                                                                              \
    _Pragma("omp for schedule(static)")                                                           \
    for (int64_t q = 0; q < rows; q++)                                                            \
      r2 += tb_sor_line_##SFX(s, v, f, mat, t, omega, col, b->lo[1] + q % ny,                     \
                              b->lo[2] + q / ny, b->lo[0], b->hi[0]);                             \
    return r2;                                                                                    \
  }                                                                                               \
  /* Copy colour col between the grid and the buffers: out of the sent faces (pack), or into      \
   * the received layers. */                                                                      \
  static void tb_sor_faces_##SFX(const tb_sor_cpu_mpi_t *m, T *v, int col, int pack)              \
  {                                                                                               \
    for (int d = 0; d < 6; d++) {                                                                 \
      const tb_sor_face_t *fc = pack ? &m->pl.send[d] : &m->pl.recv[d];                           \
      T *buf = (T *)(pack ? m->sendbuf : m->recvbuf) + m->pl.off[d];                              \
      if (m->pl.off[d + 1] == m->pl.off[d])                                                       \
        continue;                                                                                 \
      _Pragma("omp for schedule(static) nowait")                                                  \
      for (int64_t r = 0; r < fc->nb; r++)                                                        \
        for (int64_t q = 0; q < fc->w; q++) {                                                     \
          const int64_t c = tb_sor_face_at(fc, col, r, q);                                        \
          if (c < 0)                                                                              \
            continue;                                                                             \
          if (pack)                                                                               \
            buf[r * fc->w + q] = v[c];                                                            \
          else                                                                                    \
            v[c] = buf[r * fc->w + q];                                                            \
        }                                                                                         \
    }                                                                                             \
    _Pragma("omp barrier")                                                                        \
  }                                                                                               \
  static double tb_sor_mpi_colour_##SFX(const tb_sor_t *s, const tb_sor_cpu_mpi_t *m, T *v,       \
                                        const T *f, const uint8_t *mat,                           \
                                        const tb_sor_tab_##SFX *t, T omega, int threads, int col, \
                                        int *rc)                                                  \
  {                                                                                               \
    tb_mpi_halo_t h;                                                                              \
    void *send[6], *recv[6];                                                                      \
    int64_t bytes[6];                                                                             \
    double r2 = 0.0;                                                                              \
    int err = TB_OK;                                                                              \
    const tb_sor_plan_t *pl = &m->pl;                                                             \
    for (int d = 0; d < 6; d++) {                                                                 \
      send[d] = (T *)m->sendbuf + pl->off[d];                                                     \
      recv[d] = (T *)m->recvbuf + pl->off[d];                                                     \
      bytes[d] = (pl->off[d + 1] - pl->off[d]) * (int64_t)sizeof(T);                              \
    }                                                                                             \
    _Pragma("omp parallel num_threads(threads) reduction(+ : r2)")                                \
    {                                                                                             \
      for (int q = 0; q < pl->nbefore; q++)                                                       \
        r2 += tb_sor_box_##SFX(s, v, f, mat, t, omega, col, &pl->sweep[q]);                       \
      tb_sor_faces_##SFX(m, v, col, 1);                                                           \
      _Pragma("omp master")                                                                       \
      err = tb_mpi_halo_start(&pl->cart, &h, send, recv, bytes);                                  \
      for (int q = pl->nbefore; q < pl->nbefore + pl->nafter; q++)                                \
        r2 += tb_sor_box_##SFX(s, v, f, mat, t, omega, col, &pl->sweep[q]);                       \
      _Pragma("omp master")                                                                       \
      if (!err)                                                                                   \
        err = tb_mpi_halo_wait(&h);                                                               \
      _Pragma("omp barrier")                                                                      \
      tb_sor_faces_##SFX(m, v, col, 0);                                                           \
    }                                                                                             \
    *rc = err;                                                                                    \
    return r2;                                                                                    \
  }                                                                                               \
  static int tb_sor_mpi_run_##SFX(tb_ctx_t *ctx)                                                  \
  {                                                                                               \
    const tb_sor_t *s = ctx->p->priv;                                                             \
    const tb_sor_cpu_mpi_t *m = ctx->state;                                                       \
    const int threads = tb_cpu_threads(ctx);                                                      \
    T *v = ctx->buf[s->v];                                                                        \
    const T *f = ctx->buf[s->f];                                                                  \
    const uint8_t *mat = ctx->buf[s->mat];                                                        \
    const tb_sor_tab_##SFX t = tb_sor_tab_##SFX##_of(s, ctx->buf[s->coef]);                       \
    const T omega = (T)s->omega;                                                                  \
    double r0 = 0.0, rel = 1.0;                                                                   \
    int64_t it = 1;                                                                               \
    int rc = TB_OK;                                                                               \
    for (;; it++) {                                                                               \
      double r2 = 0.0;                                                                            \
      for (int col = 0; col < 2 && !rc; col++)                                                    \
        r2 += tb_sor_mpi_colour_##SFX(s, m, v, f, mat, &t, omega, threads, col, &rc);             \
      if (!rc && tb_sor_wants(s, it))                                                             \
        rc = tb_mpi_allreduce_sum(&r2, 1, TB_KIND_F64);                                           \
      if (rc)                                                                                     \
        return rc;                                                                                \
      const int stop_ = tb_sor_stop(s, it, r2, &r0, &rel);                                        \
      if (stop_ < 0)                                                                              \
        return TB_EINTR;                                                                          \
      if (stop_)                                                                                  \
        break;                                                                                    \
    }                                                                                             \
    tb_sor_finish(ctx, it, r0, rel);                                                              \
    return TB_OK;                                                                                 \
  }

TB_SOR_MPI(float, f)
TB_SOR_MPI(double, d)

static void tb_sor_cpu_release(tb_ctx_t *ctx)
{
  tb_sor_cpu_t *st = ctx->state;
  if (st) {
    for (int c = 0; c < 2; c++) {
      free(st->v[c]);
      free(st->f[c]);
      free(st->mat[c]);
    }
    for (int c = 0; c < 4; c++)
      free(st->rx[c]);
    free(st->urow);
    free(st->v2);
    free(st->done);
  }
  free(st);
  ctx->state = NULL;
}

/* The split layouts' scratch: v, f and the materials of each colour,
 * first-touched as the sweeps use them (split: the threads' shares of the
 * planes; wave: their shares of the rows of every plane), f and the
 * materials filled; the spacing factors of x by parity; the uniform rows. */
static int tb_sor_cpu_split_prepare(tb_ctx_t *ctx, tb_sor_cpu_t *st, int layout)
{
  const tb_sor_t *s = ctx->p->priv;
  const size_t e = tb_kind_size(tb_prec_kind(ctx->p->prec));
  const int threads = tb_cpu_threads(ctx);
  for (int c = 0; c < 2; c++)
    if (!(st->v[c] = malloc((size_t)st->half * e)) || !(st->f[c] = malloc((size_t)st->half * e)) ||
        !(st->mat[c] = malloc((size_t)st->half)))
      return tb_fail(TB_ENOMEM, "out of memory for the colour-split arrays");
  for (int c = 0; c < 4; c++)
    if (!(st->rx[c] = calloc((size_t)st->w, e)))
      return tb_fail(TB_ENOMEM, "out of memory");
  if (!(st->urow = malloc((size_t)((s->ny + 2) * (s->nz + 2)))))
    return tb_fail(TB_ENOMEM, "out of memory");
  const int64_t w = st->w, ny2 = s->ny + 2, nz2 = s->nz + 2;
#pragma omp parallel num_threads(threads)
  {
    const int nt = omp_get_num_threads(), tid = omp_get_thread_num();
    int64_t lo = 0, hi = ny2, k0 = 0, k1 = nz2;
    if (layout == TB_SOR_WAVE && !st->planes)
      tb_cpu_share(ny2, nt, tid, &lo, &hi);
    else
      tb_cpu_share(nz2, nt, tid, &k0, &k1);
    for (int64_t k = k0; k < k1; k++)
      for (int c = 0; c < 2; c++) {
        const size_t at = (size_t)(lo * w + k * w * ny2), n = (size_t)((hi - lo) * w);
        memset((char *)st->v[c] + at * e, 0, n * e);
        memset((char *)st->f[c] + at * e, 0, n * e);
        memset(st->mat[c] + at, 0, n);
      }
  }
  const uint8_t *mat = ctx->buf[s->mat];
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t c = 0; c < s->cells; c++) {
    const int64_t i = c % s->sx, j = c / s->sx % (s->ny + 2), k = c / s->sxy;
    const int col = (int)((i + j + k) & 1);
    const int64_t h = tb_sor_half_index(s, st->w, c);
    st->mat[col][h] = mat[c];
    memcpy((char *)st->f[col] + (size_t)h * e, (const char *)ctx->buf[s->f] + (size_t)c * e, e);
  }
  const char *cf = ctx->buf[s->coef];
  for (int p = 0; p < 2; p++)
    for (int64_t ih = 0; 2 * ih + p <= s->nx + 1; ih++)
      for (int q = 0; q < 2; q++)
        memcpy((char *)st->rx[2 * p + q] + (size_t)ih * e,
               cf + (size_t)(s->ax[0] + q * (s->nx + 2) + 2 * ih + p) * e, e);
  tb_sor_uniform_rows(s, mat, st->urow);
  return TB_OK;
}

/* Scratch for a layout (natural and fused have none), first-touched with the
 * sweeps' static schedule. */
static int tb_sor_cpu_prepare(tb_ctx_t *ctx, int layout)
{
  const tb_sor_t *s = ctx->p->priv;
  const size_t e = tb_kind_size(tb_prec_kind(ctx->p->prec));
  const int threads = tb_cpu_threads(ctx);
  tb_sor_cpu_t *st = calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  st->w = (s->nx + 3) / 2;
  st->half = st->w * (s->ny + 2) * (s->nz + 2);
  if (layout == TB_SOR_JACOBI) {
    if (!(st->v2 = malloc((size_t)s->cells * e)))
      return tb_fail(TB_ENOMEM, "out of memory for jacobi's second iterate");
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t k = 0; k < s->nz + 2; k++)
      memset((char *)st->v2 + (size_t)(k * s->sxy) * e, 0, (size_t)s->sxy * e);
  }
  if (layout == TB_SOR_WAVE || layout == TB_SOR_DENSE)
    st->planes = tb_tune(ctx, "share")->i == TB_SOR_SHARE_PLANES;
  if ((layout == TB_SOR_WAVE || layout == TB_SOR_DENSE) &&
      tb_tune(ctx, "sync")->i == TB_SOR_SYNC_FLAGS && !st->planes &&
      !(st->done = aligned_alloc(sizeof(tb_sor_done_t), (size_t)threads * sizeof(tb_sor_done_t))))
    return tb_fail(TB_ENOMEM, "out of memory");
  if (layout == TB_SOR_SPLIT || layout == TB_SOR_WAVE)
    return tb_sor_cpu_split_prepare(ctx, st, layout);
  /* dense indexes a row's points with 32-bit integers (i + 1 must not overflow). */
  if (layout == TB_SOR_DENSE && s->nx > INT_MAX - 1)
    return tb_fail(TB_EUNSUP, "rows of %lld points are over the dense sweep's 32-bit indices",
                   (long long)s->nx);
  if (layout == TB_SOR_DENSE || layout == TB_SOR_JACOBI) {
    if (!(st->urow = malloc((size_t)((s->ny + 2) * (s->nz + 2)))))
      return tb_fail(TB_ENOMEM, "out of memory");
    tb_sor_uniform_rows(s, ctx->buf[s->mat], st->urow);
  }
  return TB_OK;
}

static int tb_sor_prep_nat(tb_ctx_t *ctx) { return tb_sor_cpu_prepare(ctx, TB_SOR_NATURAL); }
static int tb_sor_prep_split(tb_ctx_t *ctx) { return tb_sor_cpu_prepare(ctx, TB_SOR_SPLIT); }
static int tb_sor_prep_jacobi(tb_ctx_t *ctx) { return tb_sor_cpu_prepare(ctx, TB_SOR_JACOBI); }
static int tb_sor_prep_fused(tb_ctx_t *ctx) { return tb_sor_cpu_prepare(ctx, TB_SOR_FUSED); }
static int tb_sor_prep_wave(tb_ctx_t *ctx) { return tb_sor_cpu_prepare(ctx, TB_SOR_WAVE); }
static int tb_sor_prep_dense(tb_ctx_t *ctx) { return tb_sor_cpu_prepare(ctx, TB_SOR_DENSE); }

static int tb_sor_run_layout(tb_ctx_t *ctx, int layout)
{
  return ctx->p->prec == TB_FLOAT ? tb_sor_run_f(ctx, layout) : tb_sor_run_d(ctx, layout);
}

static int tb_sor_run_nat(tb_ctx_t *ctx) { return tb_sor_run_layout(ctx, TB_SOR_NATURAL); }
static int tb_sor_run_split(tb_ctx_t *ctx) { return tb_sor_run_layout(ctx, TB_SOR_SPLIT); }
static int tb_sor_run_jacobi(tb_ctx_t *ctx) { return tb_sor_run_layout(ctx, TB_SOR_JACOBI); }
static int tb_sor_run_fused(tb_ctx_t *ctx) { return tb_sor_run_layout(ctx, TB_SOR_FUSED); }
static int tb_sor_run_wave(tb_ctx_t *ctx) { return tb_sor_run_layout(ctx, TB_SOR_WAVE); }
static int tb_sor_run_dense(tb_ctx_t *ctx) { return tb_sor_run_layout(ctx, TB_SOR_DENSE); }

static void tb_sor_mpi_release(tb_ctx_t *ctx)
{
  tb_sor_cpu_mpi_t *m = ctx->state;
  if (m) {
    tb_sor_plan_free(&m->pl);
    free(m->sendbuf);
    free(m->recvbuf);
  }
  free(m);
  ctx->state = NULL;
}

/* The plan and the faces' buffers. */
static int tb_sor_mpi_prepare(tb_ctx_t *ctx, int overlap)
{
  const size_t e = tb_kind_size(tb_prec_kind(ctx->p->prec));
  tb_sor_cpu_mpi_t *m = calloc(1, sizeof *m);
  int rc;
  if (!m)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = m;
  if ((rc = tb_sor_plan_make(ctx, overlap, &m->pl)))
    return rc;
  if (!(m->sendbuf = malloc((size_t)m->pl.off[6] * e + 1)) ||
      !(m->recvbuf = malloc((size_t)m->pl.off[6] * e + 1)))
    return tb_fail(TB_ENOMEM, "out of memory for the halo buffers");
  return TB_OK;
}

static int tb_sor_prep_mpi(tb_ctx_t *ctx) { return tb_sor_mpi_prepare(ctx, 0); }
static int tb_sor_prep_mpi_overlap(tb_ctx_t *ctx) { return tb_sor_mpi_prepare(ctx, 1); }

static int tb_sor_run_mpi(tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? tb_sor_mpi_run_f(ctx) : tb_sor_mpi_run_d(ctx);
}

/* Every rank's box into every rank's grid, for the verifier. */
static int tb_sor_mpi_collect(tb_ctx_t *ctx)
{
  const tb_sor_t *s = ctx->p->priv;
  const tb_sor_cpu_mpi_t *m = ctx->state;
  return tb_sor_mpi_gather(s, &m->pl.cart, ctx->buf[s->v],
                           tb_kind_size(tb_prec_kind(ctx->p->prec)));
}

#define TB_SOR_PRECS (TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE))

TB_VARIANT(tb_sor_natural, "natural", &tb_algo_sor, TB_SOR_PRECS, 0, NULL, 0, tb_sor_prep_nat,
           tb_sor_run_nat, NULL, tb_sor_cpu_release,
           "red then black over the natural layout (stride 2), residual fused");
TB_VARIANT(tb_sor_split, "split", &tb_algo_sor, TB_SOR_PRECS, 0, NULL, 0, tb_sor_prep_split,
           tb_sor_run_split, NULL, tb_sor_cpu_release,
           "red and black stored apart: each colour's sweep contiguous, residual fused");
TB_VARIANT(tb_sor_fused, "fused", &tb_algo_sor, TB_SOR_PRECS, 0, NULL, 0, tb_sor_prep_fused,
           tb_sor_run_fused, NULL, tb_sor_cpu_release,
           "in place, each thread up its planes: red on k + 1, then black on k (one pass)");
TB_VARIANT(tb_sor_wave, "wave", &tb_algo_sor, TB_SOR_PRECS, 0, tb_sor_wave_tuning,
           TB_COUNT(tb_sor_wave_tuning), tb_sor_prep_wave, tb_sor_run_wave, NULL,
           tb_sor_cpu_release,
           "split, one pass: the team up the planes, red on row (j, k + 1) then black on (j, k)");
TB_VARIANT(tb_sor_dense, "dense", &tb_algo_sor, TB_SOR_PRECS, 0, tb_sor_wave_tuning,
           TB_COUNT(tb_sor_wave_tuning), tb_sor_prep_dense, tb_sor_run_dense, NULL,
           tb_sor_cpu_release,
           "wave's order in the natural layout: whole rows in contiguous vectors, the colour's "
           "points stored (no split of v)");
TB_VARIANT(tb_sor_jacobi, "jacobi", &tb_algo_sor, TB_SOR_PRECS, 0, NULL, 0, tb_sor_prep_jacobi,
           tb_sor_run_jacobi, NULL, tb_sor_cpu_release,
           "Jacobi (two arrays), the baseline the red-black ordering is measured against");

TB_VARIANT(tb_sor_mpi, "mpi", &tb_algo_sor, TB_SOR_PRECS, TB_V_MPI, NULL, 0, tb_sor_prep_mpi,
           tb_sor_run_mpi, tb_sor_mpi_collect, tb_sor_mpi_release,
           "MPI ranks: a box each of the 3-D process grid (-P pgrid), natural's sweeps, the "
           "colour's face points exchanged after each colour");
TB_VARIANT(tb_sor_mpi_overlap, "mpi-overlap", &tb_algo_sor, TB_SOR_PRECS, TB_V_MPI, NULL, 0,
           tb_sor_prep_mpi_overlap, tb_sor_run_mpi, tb_sor_mpi_collect, tb_sor_mpi_release,
           "MPI ranks: boxes of the 3-D process grid, the faces swept first, their exchange "
           "under the interior's sweep");

TB_VARIANT_LIST(sor, cpu, &tb_sor_natural, &tb_sor_split, &tb_sor_fused, &tb_sor_wave,
                &tb_sor_dense, &tb_sor_jacobi, &tb_sor_mpi, &tb_sor_mpi_overlap);
