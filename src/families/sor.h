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
  TB_SOR_R0          /* the solver's ||r_0|| (wide) */
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
 * stop. Keeps r_0 and the relative residual. */
static inline int tb_sor_stop(const tb_sor_t *s, int64_t it, double r2, double *r0, double *rel)
{
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
 * the same bits. */
#define TB_SOR_POINT(T, SFX, MUL, FMA, DIV)                                                      \
  static TB_HD TB_INLINE T tb_sor_update_##SFX(                                                  \
      T vc, T fc, T vw, T ve, T vs, T vn, T vb, T vt, T hw, T he, T hs, T hn, T hb, T ht, T rxm,  \
      T rxp, T rym, T ryp, T rzm, T rzp, T omega, T *out)                                        \
  {                                                                                              \
    T s = FMA(MUL(hw, rxm), vw, fc);                                                             \
    s = FMA(MUL(he, rxp), ve, s);                                                                \
    s = FMA(MUL(hs, rym), vs, s);                                                                \
    s = FMA(MUL(hn, ryp), vn, s);                                                                \
    s = FMA(MUL(hb, rzm), vb, s);                                                                \
    s = FMA(MUL(ht, rzp), vt, s);                                                                \
    T d = MUL(hw, rxm);                                                                          \
    d = FMA(he, rxp, d);                                                                         \
    d = FMA(hs, rym, d);                                                                         \
    d = FMA(hn, ryp, d);                                                                         \
    d = FMA(hb, rzm, d);                                                                         \
    d = FMA(ht, rzp, d);                                                                         \
    const T r = FMA(-d, vc, s);                                                                  \
    *out = FMA(omega, DIV(r, d), vc);                                                            \
    return r;                                                                                    \
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
