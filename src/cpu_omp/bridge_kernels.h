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

/* Lane q of a step: the point from its neighbours and its scaled normal
 * wz, then its outputs (o: its row, o2: the next) and its stack row. */
static inline void TB_NAME(tb_bridge_lane)(const T *lv, const T *rv, T *sv, T wz, T *o, T *o2,
                                           const T *w, int inc, unsigned flags, int q)
{
  const T L = lv[q], R = rv[q];
  const T v = TB_FMA(w[TB_BRIDGE_SIG], wz, TB_FMA(w[TB_BRIDGE_WR], R, w[TB_BRIDGE_WL] * L));
  if (!inc)
    o[q] = v;
  if (inc && (flags & TB_BRIDGE_INC_L))
    o[q] = (v - L) * w[TB_BRIDGE_IL];
  if (inc && (flags & TB_BRIDGE_INC_R))
    o2[q] = (R - v) * w[TB_BRIDGE_IR];
  sv[q] = v;
}

/* One step of one tile's 32 lanes for dimension j: lv, rv, sv are the
 * neighbours' and the point's stack rows, zk the step's normals (all
 * dimensions), o the output row of the point (the next row is o + d 32).
 * sv may be lv or rv (a point takes the slot of a neighbour read for the
 * last time), but only lane for lane, which simd allows. The case d = 1
 * (C folded into sig, W = Z) has its own loop: with the sum over C in the
 * same loop, gcc vectorizes neither. */
static inline void TB_NAME(tb_bridge_lanes)(const T *lv, const T *rv, T *sv,
                                            const T *restrict zk, T *restrict o, const T *w,
                                            const T *c, int d, int j, unsigned flags, int inc)
{
  T *restrict o2 = o + (size_t)d * TB_BRIDGE_LANES;
  if (d == 1) {
#pragma omp simd simdlen(64 / sizeof(T))
    for (int q = 0; q < TB_BRIDGE_LANES; q++)
      TB_NAME(tb_bridge_lane)(lv, rv, sv, zk[q], o, o2, w, inc, flags, q);
    return;
  }
#pragma omp simd simdlen(64 / sizeof(T))
  for (int q = 0; q < TB_BRIDGE_LANES; q++) {
    T wz = c[j * d] * zk[q];
    for (int m = 1; m <= j; m++)
      wz = TB_FMA(c[j * d + m], zk[m * TB_BRIDGE_LANES + q], wz);
    TB_NAME(tb_bridge_lane)(lv, rv, sv, wz, o, o2, w, inc, flags, q);
  }
}

/* One tile (its normals z, its outputs x), step by step. The stack holds
 * slots x d rows of 32 lanes. */
static void TB_NAME(tb_bridge_tile)(const tb_bridge_t *b, const tb_bridge_plan_t *pl,
                                    const T *w, const T *c, const T *restrict z, T *restrict x,
                                    T *st)
{
  const int n = b->steps, d = b->dim, inc = b->mode == TB_BRIDGE_INCREMENTS;
  const size_t row = TB_BRIDGE_LANES;
  for (size_t i = 0; i < (size_t)d * row; i++)
    st[TB_BRIDGE_SLOT_X0 * d * row + i] = (T)b->x0;
  for (int k = 0; k < n; k++) {
    const tb_bridge_step_t *s = &pl->step[k];
    for (int j = 0; j < d; j++)
      TB_NAME(tb_bridge_lanes)(st + ((size_t)s->l * d + j) * row, st + ((size_t)s->r * d + j) * row,
                               st + ((size_t)s->s * d + j) * row, z + (size_t)s->z * d * row,
                               x + ((size_t)(s->out - 1) * d + j) * row, w + k * TB_BRIDGE_NW, c,
                               d, j, s->flags, inc);
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
static void TB_NAME(tb_bridge_run)(tb_ctx_t *ctx, int whole_tiles)
{
  const tb_bridge_t *b = ctx->p->priv;
  const tb_bridge_cpu_t *st = ctx->state;
  const int64_t per_tile = (int64_t)b->steps * b->dim * TB_BRIDGE_LANES;
  const T *z = ctx->buf[b->z];
  T *x = ctx->buf[b->x];
#pragma omp parallel num_threads(ctx->threads)
  {
    int64_t lo, hi;
    char *mine = (char *)st->scratch + (size_t)omp_get_thread_num() * st->stride;
    T *stack = (T *)mine, *buf = (T *)(mine + st->stack_bytes);
    tb_cpu_share(b->tiles, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);
    for (int64_t t = lo; t < hi; t++) {
      if (!whole_tiles) {
        int lanes = t == b->tiles - 1 ? (int)(b->paths - t * TB_BRIDGE_LANES) : TB_BRIDGE_LANES;
        for (int q = 0; q < lanes; q++)
          TB_NAME(tb_bridge_path)(b, &st->plan, st->w, st->c, z + t * per_tile,
                                  x + t * per_tile, stack, q);
        continue;
      }
      if (t + 1 < hi)
        tb_bridge_prefetch(z + (t + 1) * per_tile, st->tile_bytes);
      TB_NAME(tb_bridge_tile)(b, &st->plan, st->w, st->c, z + t * per_tile,
                              st->stage ? buf : x + t * per_tile, stack);
      if (st->stage)
        tb_bridge_stream_out(x + t * per_tile, buf, st->tile_bytes);
    }
    tb_bridge_stream_fence();
  }
}

/* The plan's weights and C in the precision. */
static void TB_NAME(tb_bridge_convert)(const tb_bridge_t *b, tb_bridge_cpu_t *st)
{
  T *w = st->w, *c = st->c;
  for (int i = 0; i < st->plan.nsteps * TB_BRIDGE_NW; i++)
    w[i] = (T)st->plan.w[i];
  for (int i = 0; i < b->dim * b->dim; i++)
    c[i] = (T)b->chol[i];
}

#undef TB_FMA
#undef TB_NAME
#undef TB_CAT
#undef TB_CAT_
