/* twinbench: the Brownian bridge's OpenMP kernels for one element type.
 * bridge.c includes this file once per precision, with T (the type) and SFX
 * (the suffix of the function names) defined; it has no include guard on
 * purpose. Every value is computed as the CUDA twins compute it:
 *   W = C_j0 Z_0 (+ fused C_jm Z_m),  X = fma(sig, W, fma(wr, R, wl * L)),
 * with C folded into sig when d = 1, so both backends agree to the bit. */

#define TB_CAT_(a, b) a##_##b
#define TB_CAT(a, b) TB_CAT_(a, b)
#define TB_NAME(f) TB_CAT(f, SFX)
#define TB_FMA(a, b, c) _Generic((T)0, float: fmaf, default: fma)((a), (b), (c))

/* One step of one tile's 32 lanes for dimension j: lv, rv, sv are the
 * neighbours' and the point's stack rows, zk the step's normals (all
 * dimensions), o the output row of the point. sv may be lv or rv (a point
 * takes the slot of a neighbour read for the last time), but only lane for
 * lane, which simd allows. The case d = 1 (C folded into sig, W = Z) has its
 * own loop: with the sum over C in the same loop, gcc vectorizes neither.
 * Both loops store unconditionally (paths; increments are taken afterwards,
 * see tb_bridge_increments), so they vectorize without masked stores. */
static inline void TB_NAME(tb_bridge_lanes)(const T *lv, const T *rv, T *sv,
                                            const T *restrict zk, T *restrict o, const T *w,
                                            const T *c, int d, int j)
{
  const T wl = w[TB_BRIDGE_WL], wr = w[TB_BRIDGE_WR], sig = w[TB_BRIDGE_SIG];
  if (d == 1) {
#pragma omp simd simdlen(64 / sizeof(T))
    for (int q = 0; q < TB_BRIDGE_LANES; q++) {
      const T v = TB_FMA(sig, zk[q], TB_FMA(wr, rv[q], wl * lv[q]));
      o[q] = v;
      sv[q] = v;
    }
    return;
  }
#pragma omp simd simdlen(64 / sizeof(T))
  for (int q = 0; q < TB_BRIDGE_LANES; q++) {
    T wz = c[j * d] * zk[q];
    for (int m = 1; m <= j; m++)
      wz = TB_FMA(c[j * d + m], zk[m * TB_BRIDGE_LANES + q], wz);
    const T v = TB_FMA(sig, wz, TB_FMA(wr, rv[q], wl * lv[q]));
    o[q] = v;
    sv[q] = v;
  }
}

/* Increments mode: the scaled increments D_i = (X_i - X_{i-1}) inv_i, X_0 =
 * x0, of a built tile of paths. These are the values and the operations the
 * CUDA twins compute as (S - L) il and (R - S) ir (inv_i is the plans' il and
 * ir, bit for bit). Taking them from the built tile, row by row, replaces
 * per-step flag tests and conditional stores inside the build's SIMD loop.
 * A staged tile (buf) is streamed out to x as its increments, row after row
 * in address order, with the vector-wide non-temporal stores of
 * tb_bridge_stream_out; an unstaged tile is turned into its increments in
 * place, from the last row to the first (each row still finds the path
 * value of the row before it). Rows are d x 32 values, a multiple of 64
 * bytes. */
typedef T TB_NAME(tb_bridge_vt) __attribute__((vector_size(TB_BRIDGE_VB), __may_alias__));

static void TB_NAME(tb_bridge_increments)(const tb_bridge_t *b, const T *inv, const T *buf, T *x)
{
  typedef TB_NAME(tb_bridge_vt) vt;
  const size_t row = (size_t)b->dim * TB_BRIDGE_LANES, w = TB_BRIDGE_VB / sizeof(T);
  const T x0 = (T)b->x0;
  if (buf) {
    for (size_t e = 0; e < row; e += w)
      tb_bridge_stream(x + e, (tb_bridge_vi)((*(const vt *)(buf + e) - x0) * inv[0]));
    for (int i = 1; i < b->steps; i++) {
      const T *cur = buf + (size_t)i * row;
      for (size_t e = 0; e < row; e += w)
        tb_bridge_stream(x + (size_t)i * row + e,
                         (tb_bridge_vi)((*(const vt *)(cur + e) - *(const vt *)(cur - row + e)) *
                                        inv[i]));
    }
    return;
  }
  for (int i = b->steps - 1; i >= 1; i--) {
    T *cur = x + (size_t)i * row;
    for (size_t e = 0; e < row; e += w)
      *(vt *)(cur + e) = (*(const vt *)(cur + e) - *(const vt *)(cur - row + e)) * inv[i];
  }
  for (size_t e = 0; e < row; e += w)
    *(vt *)(x + e) = (*(const vt *)(x + e) - x0) * inv[0];
}

/* One tile of paths (its normals z, its outputs x), step by step. The
 * stack holds slots x d rows of 32 lanes. */
static void TB_NAME(tb_bridge_tile)(const tb_bridge_t *b, const tb_bridge_plan_t *pl,
                                    const T *w, const T *c, const T *restrict z, T *restrict x,
                                    T *st)
{
  const int n = b->steps, d = b->dim;
  const size_t row = TB_BRIDGE_LANES;
  for (size_t i = 0; i < (size_t)d * row; i++)
    st[TB_BRIDGE_SLOT_X0 * d * row + i] = (T)b->x0;
  for (int k = 0; k < n; k++) {
    const tb_bridge_step_t *s = &pl->step[k];
    for (int j = 0; j < d; j++)
      TB_NAME(tb_bridge_lanes)(st + ((size_t)s->l * d + j) * row, st + ((size_t)s->r * d + j) * row,
                               st + ((size_t)s->s * d + j) * row, z + (size_t)s->z * d * row,
                               x + ((size_t)(s->out - 1) * d + j) * row, w + k * TB_BRIDGE_NW, c,
                               d, j);
  }
}

/* One path, lane q of a tile, scalar (z and x point at the tile). */
static void TB_NAME(tb_bridge_path)(const tb_bridge_t *b, const tb_bridge_plan_t *pl,
                                    const T *w, const T *c, const T *restrict z, T *restrict x,
                                    T *st, int q)
{
  const int n = b->steps, d = b->dim, inc = b->mode == TB_BRIDGE_INCREMENTS;
  for (int j = 0; j < d; j++)
    st[TB_BRIDGE_SLOT_X0 * d + j] = (T)b->x0;
  for (int k = 0; k < n; k++) {
    const tb_bridge_step_t *s = &pl->step[k];
    const T *wk = w + k * TB_BRIDGE_NW;
    const T *zk = z + (size_t)s->z * d * TB_BRIDGE_LANES + q;
    T *o = x + (size_t)(s->out - 1) * d * TB_BRIDGE_LANES + q;
    for (int j = 0; j < d; j++) {
      T L = st[s->l * d + j], R = st[s->r * d + j], wz = zk[0];
      if (d > 1) {
        wz = c[j * d] * zk[0];
        for (int m = 1; m <= j; m++)
          wz = TB_FMA(c[j * d + m], zk[m * TB_BRIDGE_LANES], wz);
      }
      T v = TB_FMA(wk[TB_BRIDGE_SIG], wz, TB_FMA(wk[TB_BRIDGE_WR], R, wk[TB_BRIDGE_WL] * L));
      if (!inc)
        o[j * TB_BRIDGE_LANES] = v;
      if (inc && (s->flags & TB_BRIDGE_INC_L))
        o[j * TB_BRIDGE_LANES] = (v - L) * wk[TB_BRIDGE_IL];
      if (inc && (s->flags & TB_BRIDGE_INC_R))
        o[(d + j) * TB_BRIDGE_LANES] = (R - v) * wk[TB_BRIDGE_IR];
      st[s->s * d + j] = v;
    }
  }
}

/* The timed region: each thread its share of the tiles (the split the
 * backend first-touched with, to within a tile). */
static void TB_NAME(tb_bridge_run)(tb_ctx_t *ctx)
{
  const tb_bridge_t *b = ctx->p->priv;
  const tb_bridge_cpu_t *st = ctx->state;
  const int64_t per_tile = (int64_t)b->steps * b->dim * TB_BRIDGE_LANES;
  const T *z = ctx->buf[b->z];
  T *x = ctx->buf[b->x];
#pragma omp parallel num_threads(tb_cpu_threads(ctx))
  {
    int64_t lo, hi;
    char *mine = (char *)st->scratch + (size_t)omp_get_thread_num() * st->stride;
    T *stack = (T *)mine, *buf = (T *)(mine + st->stack_bytes);
    tb_cpu_share(b->tiles, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);
    for (int64_t t = lo; t < hi; t++) {
      if (!st->whole_tile) {
        int lanes = t == b->tiles - 1 ? (int)(b->paths - t * TB_BRIDGE_LANES) : TB_BRIDGE_LANES;
        for (int q = 0; q < lanes; q++)
          TB_NAME(tb_bridge_path)(b, &st->plan, st->w, st->c, z + t * per_tile,
                                  x + t * per_tile, stack, q);
        continue;
      }
      if (st->stage && t + 1 < hi) /* a tile too long to stage would evict this one */
        tb_cpu_prefetch(z + (t + 1) * per_tile, st->tile_bytes, 1);
      TB_NAME(tb_bridge_tile)(b, &st->plan, st->w, st->c, z + t * per_tile,
                              st->stage ? buf : x + t * per_tile, stack);
      if (b->mode == TB_BRIDGE_INCREMENTS)
        TB_NAME(tb_bridge_increments)(b, st->inv, st->stage ? buf : NULL, x + t * per_tile);
      else if (st->stage)
        tb_bridge_stream_out(x + t * per_tile, buf, st->tile_bytes);
    }
    tb_bridge_stream_fence();
  }
}

/* The plan's weights, C and the inverse time steps in the precision. */
static void TB_NAME(tb_bridge_convert)(const tb_bridge_t *b, tb_bridge_cpu_t *st)
{
  T *w = st->w, *c = st->c, *inv = st->inv;
  for (int i = 0; i < st->plan.nsteps * TB_BRIDGE_NW; i++)
    w[i] = (T)st->plan.w[i];
  for (int i = 0; i < b->dim * b->dim; i++)
    c[i] = (T)b->chol[i];
  for (int i = 0; i < b->steps; i++)
    inv[i] = (T)tb_bridge_inv_dt(b, i + 1);
}

#undef TB_FMA
#undef TB_NAME
#undef TB_CAT
#undef TB_CAT_
