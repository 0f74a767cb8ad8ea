/* twinbench: stream compaction's OpenMP twins.
 *
 * serial   one pass, one thread;
 * twopass  each thread counts the kept elements of its static share (a simd
 *          reduction), the team meets at a barrier, and each thread copies its
 *          kept elements from the offset that the counts before it give:
 *          stable, since the shares are in order.
 * Thresholds follow the problem: int32 compares with ceil(below), which
 * keeps exactly the integers below it. */
#include <config.h>

#include <math.h>
#include <omp.h>
#include <stdlib.h>

#include "../families/scan.h"
#include "cpu.h"

/* One thread's count, alone on its cache line. */
typedef struct tb_compact_slot {
  int64_t n;
  char pad[64 - sizeof(int64_t)];
} tb_compact_slot_t;

#define TB_COMPACT_CPU_KERNELS(T, M)                                                              \
  /* x[lo, hi)'s kept elements to y[0, m), m the most of them there are */                    \
  /* room for: every element is stored, the pointer moves on a kept one */                      \
  /* (no branch to mispredict), and the loop ends with the m-th, so that */                    \
  /* nothing lands beyond y[m - 1]. */                                                          \
  static int64_t tb_compact_span_##M(const T *restrict x, T *restrict y, int64_t lo, int64_t hi,  \
                                     T thr, int64_t m)                                            \
  {                                                                                               \
    int64_t j = 0;                                                                                \
    for (int64_t i = lo; i < hi && j < m; i++) {                                                  \
      y[j] = x[i];                                                                                \
      j += x[i] < thr;                                                                            \
    }                                                                                             \
    return j;                                                                                     \
  }                                                                                               \
  static void tb_compact_twopass_##M(const T *restrict x, T *restrict y, int64_t n, T thr,        \
                                     int threads, tb_compact_slot_t *slot, int64_t *count)        \
  {                                                                                               \
    _Pragma("omp parallel num_threads(threads)")                                                  \
    {                                                                                             \
      const int t = omp_get_thread_num(), nt = omp_get_num_threads();                            \
      int64_t lo, hi, m = 0, off = 0;                                                             \
      tb_cpu_share(n, nt, t, &lo, &hi);                                                           \
      _Pragma("omp simd reduction(+ : m)")                                                        \
      for (int64_t i = lo; i < hi; i++)                                                           \
        m += x[i] < thr;                                                                          \
      slot[t].n = m;                                                                              \
      _Pragma("omp barrier")                                                                      \
      for (int j = 0; j < t; j++)                                                                 \
        off += slot[j].n;                                                                         \
      tb_compact_span_##M(x, y + off, lo, hi, thr, m);                                               \
      if (t == nt - 1)                                                                            \
        *count = off + m;                                                                         \
    }                                                                                             \
  }

TB_COMPACT_CPU_KERNELS(int32_t, i)
TB_COMPACT_CPU_KERNELS(float, f)
TB_COMPACT_CPU_KERNELS(double, d)

static int tb_compact_cpu_prepare(tb_ctx_t *ctx, int twopass)
{
  ctx->extra[TB_COMPACT_LAUNCHES] = twopass ? 2 : 1;
  if (!twopass)
    return TB_OK;
  ctx->state = aligned_alloc(sizeof(tb_compact_slot_t),
                             (size_t)tb_cpu_threads(ctx) * sizeof(tb_compact_slot_t));
  return ctx->state ? TB_OK : tb_fail(TB_ENOMEM, "out of memory");
}

static int tb_compact_cpu_run(tb_ctx_t *ctx, int twopass)
{
  const tb_compact_t *c = ctx->p->priv;
  const void *x = ctx->buf[c->x];
  void *y = ctx->buf[c->y];
  int64_t *count = ctx->buf[c->count];
  const int64_t n = ctx->p->n;
  const int threads = tb_cpu_threads(ctx);
  switch (ctx->p->prec) {
  case TB_INT32: {
    const int32_t thr = (int32_t)ceil(c->below);
    if (twopass)
      tb_compact_twopass_i(x, y, n, thr, threads, ctx->state, count);
    else
      *count = tb_compact_span_i(x, y, 0, n, thr, n);
    break;
  }
  case TB_FLOAT:
    if (twopass)
      tb_compact_twopass_f(x, y, n, (float)c->below, threads, ctx->state, count);
    else
      *count = tb_compact_span_f(x, y, 0, n, (float)c->below, n);
    break;
  default:
    if (twopass)
      tb_compact_twopass_d(x, y, n, c->below, threads, ctx->state, count);
    else
      *count = tb_compact_span_d(x, y, 0, n, c->below, n);
  }
  return TB_OK;
}

static void tb_compact_cpu_release(tb_ctx_t *ctx)
{
  free(ctx->state);
  ctx->state = NULL;
}

static int tb_compact_prepare_serial(tb_ctx_t *ctx)
{
  return tb_compact_cpu_prepare(ctx, 0);
}
static int tb_compact_run_serial(tb_ctx_t *ctx)
{
  return tb_compact_cpu_run(ctx, 0);
}
static int tb_compact_prepare_twopass(tb_ctx_t *ctx)
{
  return tb_compact_cpu_prepare(ctx, 1);
}
static int tb_compact_run_twopass(tb_ctx_t *ctx)
{
  return tb_compact_cpu_run(ctx, 1);
}

#define TB_COMPACT_ALL (TB_PREC_BIT(TB_INT32) | TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE))

TB_VARIANT(tb_compact_cpu_serial, "serial", &tb_algo_compact, TB_COMPACT_ALL, TB_V_SERIAL, NULL, 0,
           tb_compact_prepare_serial, tb_compact_run_serial, NULL, tb_compact_cpu_release,
           "one thread, one pass");
TB_VARIANT(tb_compact_cpu_twopass, "twopass", &tb_algo_compact, TB_COMPACT_ALL, 0, NULL, 0,
           tb_compact_prepare_twopass, tb_compact_run_twopass, NULL, tb_compact_cpu_release,
           "per-thread counts (simd), barrier, each share copied from its offset");

TB_VARIANT_LIST(compact, cpu, &tb_compact_cpu_serial, &tb_compact_cpu_twopass);
