/* twinbench: the red-black SOR family: -div(eps grad v) = f on a box.
 *
 * The grid holds nx x ny x nz interior points and a layer of Dirichlet
 * boundary points around them; every array has (nx+2)(ny+2)(nz+2) elements,
 * x fastest: cell (i, j, k) is at i + sx j + sxy k. Each cell has a material
 * byte: its low bits index a table of permittivities, TB_SOR_FIXED marks an
 * electrode, whose potential is held. A face between two cells has the
 * harmonic mean of their permittivities (the table hm, indexed by the two
 * materials), scaled by the per-axis spacing factors rxm and rxp of the
 * (possibly stretched) mesh. Red points have i + j + k even and are updated
 * first; then black. See doc/sor.md for the derivations.
 *
 * Every variant on both backends computes a point's update with the same
 * operations in the same order (tb_sor_point_f / _d below, explicit fused
 * multiply-adds and no other product next to a sum), so the CPU and GPU twins
 * of a method produce the same bits whatever the layout or schedule. */
#ifndef TB_SOR_H
#define TB_SOR_H

#include <math.h>
#include <stdint.h>

#include "../common/problem.h"
#include "../common/tbmpi.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TB_SOR_MANUFACTURED, TB_SOR_LAPLACE, TB_SOR_CAPACITOR };
enum { TB_SOR_UNIFORM, TB_SOR_STRETCHED };

/* The algorithm's columns, in ctx->extra and in the rows. */
enum {
  TB_SOR_ITERATIONS, /* iterations to the stop */
  TB_SOR_RESIDUAL,   /* the solver's ||r|| / ||r_0|| at the stop */
  TB_SOR_ERR,        /* max |v - v_exact| (verifier) */
  TB_SOR_ERR_DISC,   /* the discrete solution's error, where it has a closed form */
  TB_SOR_TRUE_RES,   /* the verifier's true relative residual of the result */
  TB_SOR_GLUPS,      /* cell updates per second / 1e9 (runner) */
  TB_SOR_SWEEP_MS,   /* median time per iteration, ms (runner) */
  TB_SOR_BYTES,      /* the byte floor per cell update */
  TB_SOR_R0,         /* the solver's ||r_0|| (wide) */
  TB_SOR_PX,         /* the MPI twins' process grid: ranks along x, y, z */
  TB_SOR_PY,
  TB_SOR_PZ,
  TB_SOR_HALO        /* the MPI twins' halo bytes a rank sends an iteration, the largest rank's */
};

/* The material byte: an index into the tables and the electrode bit. */
#define TB_SOR_FIXED 0x80u
#define TB_SOR_NMAT 8
#define TB_SOR_MAT(m) ((m) & (TB_SOR_NMAT - 1))

/* The flops of one point update: six coefficients (multiplies), the
 * weighted neighbour sum (six FMAs), the diagonal (five FMAs), the residual
 * (one FMA), the division and the relaxation (one FMA): 6 + 12 + 10 + 2 + 1
 * + 2 = 33. */
#define TB_SOR_FLOPS 33

/* The problem as variants see it. */
typedef struct tb_sor {
  int64_t nx, ny, nz; /* interior points per axis */
  int64_t sx, sxy;    /* strides of y and z: nx + 2 and (nx + 2)(ny + 2) */
  int64_t cells;      /* (nx + 2)(ny + 2)(nz + 2) */
  int64_t nfree;      /* interior points that are not electrodes */
  int64_t maxiter, check;
  double omega, tol;
  int problem, mesh;
  int v, f, mat, coef; /* array indices */
  /* Offsets in coef: rxm of axis a at ax[a], rxp at ax[a] + n_a + 2; the
   * harmonic means hm[m1 * TB_SOR_NMAT + m2] at hm. */
  int64_t ax[3], hm;
  /* The iterations of the last run: the one figure of the cost that only a
   * run knows. Every run stores it (tb_sor_finish); cost and per_run read it
   * after the runs of a row. */
  int64_t last_iters;
  /* The MPI twins' process grid (-P pgrid, or MPI_Dims_create's): ranks
   * along x, y and z; 1 x 1 x 1 outside MPI runs. */
  int pgrid[3];
} tb_sor_t;

extern const tb_algo_t tb_algo_sor;

/* The solver's schedule: the residual is reduced in iteration 1 (its norm is
 * r_0), in every iteration that is a multiple of check and in the last
 * allowed (maxiter); the solver stops after such an iteration when
 * ||r|| < tol ||r_0||, or after maxiter, with the residual of its last
 * iteration either way. */
static inline int tb_sor_wants(const tb_sor_t *s, int64_t it)
{
  return it == 1 || it % s->check == 0 || it >= s->maxiter;
}

/* After iteration it with the residual's square sum r2 (when wanted): 1 to
 * stop, -1 where a stop was asked for (tb_run_stopping; the run returns
 * TB_EINTR: a solve of minutes must not hold a signal until it ends), else
 * 0. Keeps r_0 and the relative residual. */
static inline int tb_sor_stop(const tb_sor_t *s, int64_t it, double r2, double *r0, double *rel)
{
  if (tb_run_stopping())
    return -1;
  if (it == 1) {
    *r0 = sqrt(r2);
    *rel = 1.0;
    if (*r0 == 0.0) { /* nothing to solve: every point is held */
      *rel = 0.0;
      return 1;
    }
    return it >= s->maxiter;
  }
  if (tb_sor_wants(s, it)) {
    *rel = sqrt(r2) / *r0;
    if (*rel < s->tol)
      return 1;
  }
  return it >= s->maxiter;
}

/* Record a finished run: its columns and the iterations for the cost. */
void tb_sor_finish(tb_ctx_t *ctx, int64_t iters, double r0, double rel);

/* ---- The MPI twins' 3-D decomposition (doc/mpi.md) ----------------------
 * The rank at coordinates (cx, cy, cz) of the process grid owns a box of
 * interior points, lo[a]..hi[a] on axis a (inclusive), each axis split as
 * tb_mpi_part splits items. After each colour the rank sends the points of
 * that colour on its box's faces to the neighbours (the other colour's
 * points there did not change) and receives theirs into the layer around
 * its box. */
typedef struct tb_sor_box {
  int64_t lo[3], hi[3];
} tb_sor_box_t;

void tb_sor_box_of(const tb_sor_t *s, const int coords[3], tb_sor_box_t *b);

/* Whether a box holds no point. */
static inline int tb_sor_box_empty(const tb_sor_box_t *b)
{
  return b->hi[0] < b->lo[0] || b->hi[1] < b->lo[1] || b->hi[2] < b->lo[2];
}

/* The points of a box. */
static inline int64_t tb_sor_box_points(const tb_sor_box_t *b)
{
  return tb_sor_box_empty(b) ? 0
                             : (b->hi[0] - b->lo[0] + 1) * (b->hi[1] - b->lo[1] + 1) *
                                   (b->hi[2] - b->lo[2] + 1);
}

/* The boxes one colour's sweep visits, in order, into out[0..7): the whole
 * box (blocking), or first the layers that travel (each face with a
 * neighbour: has[a][side]) and then the rest (overlapped; *early of them
 * are the faces). Returns how many; empty boxes are left out. */
int tb_sor_sweep_boxes(const tb_sor_box_t *b, const int has[3][2], int overlap, tb_sor_box_t *out,
                       int *early);

/* A face as the exchange packs it: the points origin + a sa + r sb of the
 * grid (a < na, r < nb) whose colour is the one sent; row r keeps w =
 * (na + 1) / 2 slots, slot q the a = 2 q + ((col + par + r) & 1), par the
 * colour of the origin (the last slot of a row may be unused). The sender's
 * face and the receiver's layer are the same points of the grid, so both
 * sides agree on every slot. */
typedef struct tb_sor_face {
  int64_t origin, sa, sb, na, nb, w;
  int par;
} tb_sor_face_t;

/* Direction d = 2 a + side (side 0: below): the face the box sends (its
 * own layer, recv 0) or the layer it receives (recv 1), over the box's
 * extent on the other two axes. */
void tb_sor_face_of(const tb_sor_t *s, const tb_sor_box_t *b, int d, int recv, tb_sor_face_t *f);

/* What a distributed twin needs of the decomposition, made in prepare
 * (both backends): the process grid, the rank's box, the boxes one
 * colour's sweep visits (sweep[0..nbefore) before the exchange is posted:
 * the whole box when blocking, the faces that travel when overlapped; then
 * nafter more), the faces sent and the layers received (direction d's
 * slots from off[d] in the buffers; off[6] in all). */
typedef struct tb_sor_plan {
  tb_mpi_cart_t cart;
  int have_cart;
  tb_sor_box_t box, sweep[7];
  int nbefore, nafter;
  tb_sor_face_t send[6], recv[6];
  int64_t off[7];
} tb_sor_plan_t;

/* Make the plan (tb_mpi_cart_create: a collective of every rank) and the
 * row's MPI columns; free it with tb_sor_plan_free. */
int tb_sor_plan_make(tb_ctx_t *ctx, int overlap, tb_sor_plan_t *pl);
void tb_sor_plan_free(tb_sor_plan_t *pl);

/* Every rank's box of the solution into every rank's grid (a host array
 * of elements of e bytes), for the verifier: a collective of the ranks. */
int tb_sor_mpi_gather(const tb_sor_t *s, const tb_mpi_cart_t *cart, void *grid, size_t e);

/* The slots of a face. */
static TB_HD TB_INLINE int64_t tb_sor_face_slots(const tb_sor_face_t *f)
{
  return f->nb * f->w;
}

/* The grid offset of slot q of row r for colour col, or -1 (unused). */
static TB_HD TB_INLINE int64_t tb_sor_face_at(const tb_sor_face_t *f, int col, int64_t r,
                                              int64_t q)
{
  const int64_t a = 2 * q + ((col + f->par + r) & 1);
  return a < f->na ? f->origin + a * f->sa + r * f->sb : -1;
}

/* The uniform rows: row[j + (ny + 2) k] is the material index (TB_SOR_MAT)
 * shared by every point of row (j, k) and every neighbour of its interior
 * points, or -1 (also on the boundary rows, which no sweep updates). A
 * sweep of such a row takes hm[m][m] for all six faces without reading the
 * neighbours' materials; it still reads each point's own material byte (the
 * electrode bit). Computed once per problem in a variant's prepare. */
void tb_sor_uniform_rows(const tb_sor_t *s, const uint8_t *mat, int8_t *row);

/* ---- The point update, shared by every variant ---------------------------
 * vc the point, vw ve vs vn vb vt its neighbours (-x +x -y +y -z +z), hm the
 * row of the harmonic-mean table of the point's material, mw..mt the
 * neighbours' materials, r* the spacing factors. Returns the residual
 * f - (A v) at the point before the update and stores the new value. */
#if defined(__CUDA_ARCH__)
#define TB_SOR_MULF(a, b) __fmul_rn(a, b)
#define TB_SOR_FMAF(a, b, c) __fmaf_rn(a, b, c)
#define TB_SOR_DIVF(a, b) __fdiv_rn(a, b)
#define TB_SOR_MULD(a, b) __dmul_rn(a, b)
#define TB_SOR_FMAD(a, b, c) __fma_rn(a, b, c)
#define TB_SOR_DIVD(a, b) __ddiv_rn(a, b)
#else
#define TB_SOR_MULF(a, b) ((a) * (b))
#define TB_SOR_FMAF(a, b, c) fmaf(a, b, c)
#define TB_SOR_DIVF(a, b) ((a) / (b))
#define TB_SOR_MULD(a, b) ((a) * (b))
#define TB_SOR_FMAD(a, b, c) fma(a, b, c)
#define TB_SOR_DIVD(a, b) ((a) / (b))
#endif

/* The diagonal is an FMA chain over the coefficients' factors, and each
 * coefficient is a lone product feeding an FMA, so no compiler can contract
 * a product into a sum differently on the two backends. The update takes
 * the six faces' harmonic means hw..ht; tb_sor_point_* looks them up from
 * the materials, and a variant that knows them equal (a uniform row,
 * tb_sor_uniform_rows) passes one value six times: the same operands, so
 * the same bits. tb_sor_apply_* is the update's second half, from the six
 * coefficients cw..ct (hw rxm .. ht rzp) and the diagonal d. The diagonal
 * is tb_sor_diag4_*'s chain over the x and y faces (from cw) and then
 * tb_sor_diag_*'s over the z faces; tb_sor_coefs_* gives the coefficients
 * and the diagonal of a point whose six faces all have h. A sweep that
 * computes them once for many points (the CPU's uniform rows on a uniform
 * x mesh, the GPU's lean sweep) through these functions gets the update's
 * bits. */
#define TB_SOR_POINT(T, SFX, MUL, FMA, DIV)                                                      \
  static TB_HD TB_INLINE T tb_sor_apply_##SFX(T vc, T fc, T vw, T ve, T vs, T vn, T vb, T vt,    \
                                              T cw, T ce, T cs, T cn, T cb, T ct, T d, T omega,  \
                                              T *out)                                            \
  {                                                                                              \
    T s = FMA(cw, vw, fc);                                                                       \
    s = FMA(ce, ve, s);                                                                          \
    s = FMA(cs, vs, s);                                                                          \
    s = FMA(cn, vn, s);                                                                          \
    s = FMA(cb, vb, s);                                                                          \
    s = FMA(ct, vt, s);                                                                          \
    const T r = FMA(-d, vc, s);                                                                  \
    *out = FMA(omega, DIV(r, d), vc);                                                            \
    return r;                                                                                    \
  }                                                                                              \
  static TB_HD TB_INLINE T tb_sor_diag4_##SFX(T cw, T he, T hs, T hn, T rxp, T rym, T ryp)      \
  {                                                                                              \
    return FMA(hn, ryp, FMA(hs, rym, FMA(he, rxp, cw)));                                         \
  }                                                                                              \
  static TB_HD TB_INLINE T tb_sor_diag_##SFX(T d4, T hb, T ht, T rzm, T rzp)                     \
  {                                                                                              \
    return FMA(ht, rzp, FMA(hb, rzm, d4));                                                       \
  }                                                                                              \
  static TB_HD TB_INLINE T tb_sor_update_##SFX(                                                  \
      T vc, T fc, T vw, T ve, T vs, T vn, T vb, T vt, T hw, T he, T hs, T hn, T hb, T ht, T rxm,  \
      T rxp, T rym, T ryp, T rzm, T rzp, T omega, T *out)                                        \
  {                                                                                              \
    const T cw = MUL(hw, rxm);                                                                   \
    const T d = tb_sor_diag_##SFX(tb_sor_diag4_##SFX(cw, he, hs, hn, rxp, rym, ryp), hb, ht,     \
                                  rzm, rzp);                                                     \
    return tb_sor_apply_##SFX(vc, fc, vw, ve, vs, vn, vb, vt, cw, MUL(he, rxp), MUL(hs, rym),    \
                              MUL(hn, ryp), MUL(hb, rzm), MUL(ht, rzp), d, omega, out);          \
  }                                                                                              \
  static TB_HD TB_INLINE T tb_sor_coefs_##SFX(T h, T rxm, T rxp, T rym, T ryp, T rzm, T rzp,     \
                                              T *c)                                              \
  {                                                                                              \
    c[0] = MUL(h, rxm);                                                                          \
    c[1] = MUL(h, rxp);                                                                          \
    c[2] = MUL(h, rym);                                                                          \
    c[3] = MUL(h, ryp);                                                                          \
    c[4] = MUL(h, rzm);                                                                          \
    c[5] = MUL(h, rzp);                                                                          \
    return tb_sor_diag_##SFX(tb_sor_diag4_##SFX(c[0], h, h, h, rxp, rym, ryp), h, h, rzm, rzp);  \
  }                                                                                              \
  static TB_HD TB_INLINE T tb_sor_point_##SFX(                                                   \
      T vc, T fc, T vw, T ve, T vs, T vn, T vb, T vt, const T *hm, unsigned mw, unsigned me,     \
      unsigned ms, unsigned mn, unsigned mb, unsigned mt, T rxm, T rxp, T rym, T ryp, T rzm,     \
      T rzp, T omega, T *out)                                                                    \
  {                                                                                              \
    return tb_sor_update_##SFX(vc, fc, vw, ve, vs, vn, vb, vt, hm[TB_SOR_MAT(mw)],               \
                               hm[TB_SOR_MAT(me)], hm[TB_SOR_MAT(ms)], hm[TB_SOR_MAT(mn)],       \
                               hm[TB_SOR_MAT(mb)], hm[TB_SOR_MAT(mt)], rxm, rxp, rym, ryp, rzm,  \
                               rzp, omega, out);                                                 \
  }
TB_SOR_POINT(float, f, TB_SOR_MULF, TB_SOR_FMAF, TB_SOR_DIVF)
TB_SOR_POINT(double, d, TB_SOR_MULD, TB_SOR_FMAD, TB_SOR_DIVD)

#ifdef __cplusplus
}
#endif
#endif
