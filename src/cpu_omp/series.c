/* twinbench: the series of 1/i^2, OpenMP twins.
 *
 * serial  one running sum over i = 1..n;
 * omp     the seeds' example: the terms split over the threads (parallel for
 *         simd, static schedule), each thread's share summed in vector lanes,
 *         the shares added by the reduction clause. Compute-bound: no memory
 *         traffic, so its row is held against the FMA ceiling. */
#include <config.h>

#include "../families/scan.h"
#include "cpu.h"

#define TB_SERIES_CPU_KERNELS(T, M)                                                              \
  static T tb_series_serial_##M(int64_t n)                                                       \
  {                                                                                              \
    T s = 0;                                                                                     \
    for (int64_t i = 1; i <= n; i++) {                                                           \
      const T x = (T)i;                                                                          \
      s += (T)1 / (x * x);                                                                       \
    }                                                                                            \
    return s;                                                                                    \
  }                                                                                              \
  static T tb_series_omp_##M(int64_t n, int threads)                                             \
  {                                                                                              \
    T s = 0;                                                                                     \
    _Pragma("omp parallel for simd schedule(static) num_threads(threads) reduction(+ : s)")      \
    for (int64_t i = 1; i <= n; i++) {                                                           \
      const T x = (T)i;                                                                          \
      s += (T)1 / (x * x);                                                                       \
    }                                                                                            \
    return s;                                                                                    \
  }

TB_SERIES_CPU_KERNELS(float, f)
TB_SERIES_CPU_KERNELS(double, d)

/* The depth of each order: n for the running sum; a thread's share (at most
 * ceil(n / threads) additions whatever the lanes do) and the team's
 * partials (at most threads) for the reduction. */
static int tb_series_prepare_serial(tb_ctx_t *ctx)
{
  ctx->extra[TB_SERIES_DEPTH] = (double)ctx->p->n;
  return TB_OK;
}

static int tb_series_prepare_omp(tb_ctx_t *ctx)
{
  const int threads = tb_cpu_threads(ctx);
  ctx->extra[TB_SERIES_DEPTH] = (double)((ctx->p->n + threads - 1) / threads + threads);
  return TB_OK;
}

static int tb_series_run_serial(tb_ctx_t *ctx)
{
  const tb_series_t *s = ctx->p->priv;
  if (ctx->p->prec == TB_FLOAT)
    *(float *)ctx->buf[s->sum] = tb_series_serial_f(ctx->p->n);
  else
    *(double *)ctx->buf[s->sum] = tb_series_serial_d(ctx->p->n);
  return TB_OK;
}

static int tb_series_run_omp(tb_ctx_t *ctx)
{
  const tb_series_t *s = ctx->p->priv;
  if (ctx->p->prec == TB_FLOAT)
    *(float *)ctx->buf[s->sum] = tb_series_omp_f(ctx->p->n, tb_cpu_threads(ctx));
  else
    *(double *)ctx->buf[s->sum] = tb_series_omp_d(ctx->p->n, tb_cpu_threads(ctx));
  return TB_OK;
}

#define TB_SERIES_PRECS (TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE))

TB_VARIANT(tb_series_cpu_serial, "serial", &tb_algo_series, TB_SERIES_PRECS, TB_V_SERIAL, NULL, 0,
           tb_series_prepare_serial, tb_series_run_serial, NULL, NULL,
           "one thread, one running sum from i = 1");
TB_VARIANT(tb_series_cpu_omp, "omp", &tb_algo_series, TB_SERIES_PRECS, 0, NULL, 0,
           tb_series_prepare_omp, tb_series_run_omp, NULL, NULL,
           "the terms split over the threads: parallel for simd reduction(+), static schedule");

TB_VARIANT_LIST(series, cpu, &tb_series_cpu_serial, &tb_series_cpu_omp);
