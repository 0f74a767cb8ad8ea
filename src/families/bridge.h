/* twinbench: the Brownian bridge family (J. du Toit's NAG study, 2012).
 *
 * A d-dimensional Brownian motion with covariance Sigma = C C' is built at
 * times t_1 < ... < t_N = T after t0 from normals Z, point by point in a
 * construction order (a permutation of 1..N that starts with N): X_T first,
 * then each point s from its nearest already-known neighbours l < s < r:
 *   X_s = [X_l (r - s) + X_r (s - l)] / (r - l) + C sqrt((r - s)(s - l)/(r - l)) Z_i,
 * Z_i the i-th normal of the construction order. The output is the path
 * (X at t_1..t_N) or its scaled increments (X_i - X_{i-1}) / (t_i - t_{i-1}).
 *
 * Memory layout (both backends see the same arrays): paths are grouped in
 * tiles of TB_BRIDGE_LANES = 32. Element (path p, row j, dimension k) of the
 * normals (j = position in the construction order) and of the output (j =
 * time index - 1) is at
 *   ((tile * N + j) * d + k) * 32 + lane,   tile = p / 32, lane = p % 32.
 * A warp of 32 GPU threads (one path each) reads and writes 32 consecutive
 * values per step: 128-byte lines in float, fully coalesced. A CPU thread
 * owns whole tiles: each tile is one contiguous block of N d 32 values, read
 * once and written once, and the 32 lanes are the SIMD width of its loops.
 * The arrays are padded to whole tiles; the padding lanes hold normals too
 * (so any variant may compute them) but are never checked nor dumped.
 *
 * The initialisation turns the user's order into an execution plan: an
 * equivalent order (every point still after both its neighbours, with its
 * own normal) that needs the fewest local-stack slots, with per-step slot
 * indices and precomputed weights. Variants build it in their prepare and
 * report its time (column init_ms) and its stack (column stack). */
#ifndef TB_BRIDGE_H
#define TB_BRIDGE_H

#include <stdint.h>

#include "../common/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TB_BRIDGE_LANES 32      /* paths per tile */
#define TB_BRIDGE_MAX_DIM 8     /* dimensions (the GPU kernels are compiled for each) */
#define TB_BRIDGE_MAX_STEPS 16384
/* The most bytes an order, times or matrix file may hold: about 1 KiB a
 * line at the most steps, and a bound on what an endless source can make
 * us read. */
#define TB_BRIDGE_MAX_TEXT ((int64_t)16 << 20)

enum { TB_BRIDGE_PATHS = 0, TB_BRIDGE_INCREMENTS = 1 };

/* Stack slots: slot 0 holds the start value x0 (the left neighbour t0),
 * slot 1 is a sink for points no later step reads (so that every step can
 * store without a branch), points live in slots 2 and up. */
enum { TB_BRIDGE_SLOT_X0 = 0, TB_BRIDGE_SLOT_SINK = 1, TB_BRIDGE_SLOT0 = 2 };

/* Where a step finds a neighbour when it may reuse the previous step's three
 * points (held in registers): the stack, or the previous step's L, R or S. */
enum { TB_BRIDGE_FROM_STACK = 0, TB_BRIDGE_FROM_L, TB_BRIDGE_FROM_R, TB_BRIDGE_FROM_S };

/* Step flags. */
enum {
  TB_BRIDGE_INC_L = 1u << 0, /* increments: the step writes (S - L) il at row out - 1 */
  TB_BRIDGE_INC_R = 1u << 1, /* increments: the step writes (R - S) ir at row out */
  TB_BRIDGE_STORE = 1u << 2, /* a later step reads S from the stack (not from registers) */
  TB_BRIDGE_SRC_L = 3,       /* bit shift of L's TB_BRIDGE_FROM_* (2 bits) */
  TB_BRIDGE_SRC_R = 5        /* bit shift of R's TB_BRIDGE_FROM_* (2 bits) */
};

/* One step of an execution plan (12 bytes). */
typedef struct tb_bridge_step {
  uint16_t out;  /* time index 1..N of the point built */
  uint16_t z;    /* its normal: its position in the user's order, 0-based */
  uint16_t l, r; /* stack slots of its left and right neighbours */
  uint16_t s;    /* stack slot it is stored to (TB_BRIDGE_SLOT_SINK if never read) */
  uint16_t flags;
} tb_bridge_step_t;

/* The weights of one step: X = wl L + wr R + sig C Z (sig includes C when
 * d = 1, and C is then taken as 1); il, ir the inverse time steps of the
 * increments it writes (0 when it writes none). */
enum { TB_BRIDGE_WL, TB_BRIDGE_WR, TB_BRIDGE_SIG, TB_BRIDGE_IL, TB_BRIDGE_IR, TB_BRIDGE_NW };

typedef struct tb_bridge_plan {
  int nsteps;
  int stack;              /* slots for points: the least over all equivalent orders */
  int slots;              /* stack + TB_BRIDGE_SLOT0 */
  tb_bridge_step_t *step; /* nsteps, in execution order */
  double *w;              /* nsteps x TB_BRIDGE_NW weights */
} tb_bridge_plan_t;

/* The problem, as variants, verifier and tests see it. */
typedef struct tb_bridge {
  int steps; /* N */
  int dim;   /* d */
  int mode;  /* TB_BRIDGE_PATHS or TB_BRIDGE_INCREMENTS */
  int64_t paths, tiles;
  double t0, x0;
  double *t;         /* t[0] = t0, t[1..N] */
  int *order;        /* order[i]: time index (1..N) of the i-th point built */
  int *left, *right; /* per order position: the neighbours' time indices (right -1 for T) */
  double *chol;      /* the d x d lower-triangular factor C, row-major */
  double *sigma;     /* Sigma = C C' as the user gave it (or C C' for a given C) */
  const char *normals; /* the normals file, or NULL for Philox */
  double zmax;         /* the largest |normal| of the file (0 for Philox) */
  long double *wref; /* per order position: wl, wr, sig (without C), for the reference */
  int z, x;          /* array indices: the normals (in), the output (out) */
} tb_bridge_t;

/* The algorithm's columns (ctx->extra[] indices). */
enum { TB_BRIDGE_COL_INIT_MS, TB_BRIDGE_COL_STACK };

/* The index of (path, row, dim) in the tile layout. */
static inline TB_HD int64_t tb_bridge_at(int steps, int dim, int64_t path, int row, int k)
{
  int64_t tile = path / TB_BRIDGE_LANES, lane = path % TB_BRIDGE_LANES;
  return ((tile * steps + row) * dim + k) * TB_BRIDGE_LANES + lane;
}

/* The index in the tile layout of value q of the normals as a file lists
 * them: path after path, Z_0..Z_{N-1} per path, d values per Z. */
static inline int64_t tb_bridge_at_file(const tb_bridge_t *b, int64_t q)
{
  const int64_t per_path = (int64_t)b->steps * b->dim, rem = q % per_path;
  return tb_bridge_at(b->steps, b->dim, q / per_path, (int)(rem / b->dim), (int)(rem % b->dim));
}

/* The inverse time step before t_i (i = 1..N) that scales the increment
 * ending at t_i: the plans' il and ir and the CPU's increment pass take it
 * from here, so both backends scale by the same rounded value. */
static inline double tb_bridge_inv_dt(const tb_bridge_t *b, int i)
{
  return 1.0 / (b->t[i] - b->t[i - 1]);
}

extern const tb_algo_t tb_algo_bridge;

/* ---- Orders and plans (bridge_plan.c) -------------------------------- */

/* The standard orders of n points: bisection (T, then the midpoints level by
 * level; TB_ENOMEM is its only error), sequential (T, then 1..n-1) and
 * random (T, then a permutation of 1..n-1 drawn with Philox from seed). */
int tb_bridge_order_bisection(int n, int *order);
void tb_bridge_order_sequential(int n, int *order);
void tb_bridge_order_random(int n, uint64_t seed, int *order);

/* Check that order is a permutation of 1..n starting with n and find each
 * point's nearest known neighbours when it is built (0 stands for t0, -1
 * for "none", the right of T). An error names src and the entry: line[i]
 * when line is given (a file's line numbers), else the position. */
int tb_bridge_neighbours(int n, const int *order, const char *src, const int *line, int *left,
                         int *right);

/* The initialisation: the least-stack execution plan of b's order. */
int tb_bridge_plan_build(const tb_bridge_t *b, tb_bridge_plan_t *plan);

/* The plan of a given execution order exec (time indices), which must be
 * equivalent to b's order: each point after both of its neighbours. */
int tb_bridge_plan_from(const tb_bridge_t *b, const int *exec, tb_bridge_plan_t *plan);

void tb_bridge_plan_free(tb_bridge_plan_t *plan);

/* A variant's initialisation: build ctx's problem's plan, timing it on the
 * host clock, and fill the columns init_ms and stack. */
int tb_bridge_plan_timed(tb_ctx_t *ctx, tb_bridge_plan_t *plan);

/* ---- The reference (bridge.c) ----------------------------------------- */

/* The reference of one path in long double, in the user's order: x[(s * d +
 * k)] for time indices s = 0..N (s = 0 is t0), and g, the magnitude the
 * rounding errors of the construction are proportional to (see bridge.c).
 * z is the normals array in the problem's precision. */
void tb_bridge_reference(const tb_bridge_t *b, tb_prec_t prec, const void *z, int64_t path,
                         long double *x, double *g);

/* ---- Internal: the readers of user input (bridge_input.c) ------------ */

/* An order file of n 1-based time indices, one per line; line[i] is the
 * line of order[i] (for the neighbours' messages). */
int tb__bridge_read_order(const char *path, int n, int *order, int *line);

/* A times file of n increasing times after t0, one per line, into t[1..n]
 * (t[0] = t0). */
int tb__bridge_read_times(const char *path, int n, double t0, double *t);

/* Sigma (is_chol 0) or C (is_chol 1) from spec: "identity", a file with a
 * row per line, or inline rows separated by ';'. Fills sigma and its
 * lower-triangular Cholesky factor chol (d x d, row-major), which must be
 * usable in precision prec. param names the parameter in messages. */
int tb__bridge_read_matrix(const char *spec, const char *param, int is_chol, int d,
                           tb_prec_t prec, double *sigma, double *chol);

/* Check that the normals file holds exactly b's paths x steps x dim values
 * of the precision, every one finite (before anything runs); *zmax gets
 * the largest |value|. */
int tb__bridge_normals_check(const char *path, const tb_bridge_t *b, tb_prec_t prec,
                             double *zmax);

/* Read the normals file into z (tile layout), checking every value is finite. */
int tb__bridge_normals_read(const char *path, const tb_bridge_t *b, tb_prec_t prec, void *z);

#ifdef __cplusplus
}
#endif
#endif
