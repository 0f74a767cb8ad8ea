/* twinbench: the empirical CDF's OpenMP twins.
 *
 * count  as published: one parallel count per threshold (100 passes over
 *        the sample, each a simd reduction);
 * hist   one pass: each sample's bin (the number of thresholds at or below
 *        it: a guess from the thresholds' spacing, corrected by exact
 *        comparisons) into the thread's own histogram, the histograms added
 *        and turned into counts by a prefix sum over the bins. */
#include <config.h>

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../families/scan.h"
#include "cpu.h"

enum { TB_NBINS = TB_CDF_THRESHOLDS + 1 };

#define TB_CDF_CPU_KERNELS(T, M)                                                                 \
  static void tb_cdf_count_##M(const T *restrict x, int64_t n, int64_t *counts, int threads)     \
  {                                                                                              \
    for (int k = 0; k < TB_CDF_THRESHOLDS; k++) {                                                \
      const T t = (T)tb_cdf_threshold(k);                                                        \
      int64_t m = 0;                                                                             \
      _Pragma("omp parallel for simd schedule(static) num_threads(threads) reduction(+ : m)")    \
      for (int64_t i = 0; i < n; i++)                                                            \
        m += x[i] < t;                                                                           \
      counts[k] = m;                                                                             \
    }                                                                                            \
  }                                                                                              \
  static void tb_cdf_hist_##M(const T *restrict x, int64_t n, int64_t *counts, int threads,      \
                              int64_t *hist)                                                     \
  {                                                                                              \
    T t[TB_CDF_THRESHOLDS];                                                                      \
    for (int k = 0; k < TB_CDF_THRESHOLDS; k++)                                                  \
      t[k] = (T)tb_cdf_threshold(k);                                                             \
    memset(hist, 0, (size_t)threads * TB_NBINS * sizeof *hist);                                  \
    _Pragma("omp parallel num_threads(threads)")                                                 \
    {                                                                                            \
      int64_t *h = hist + (size_t)omp_get_thread_num() * TB_NBINS;                               \
      _Pragma("omp for schedule(static)")                                                        \
      for (int64_t i = 0; i < n; i++) {                                                          \
        const T v = x[i];                                                                        \
        const T g = v * (T)((TB_CDF_THRESHOLDS + 1.0) / TB_CDF_TERMS);                           \
        int j = g <= 0 ? 0 : g >= TB_CDF_THRESHOLDS ? TB_CDF_THRESHOLDS : (int)g;                \
        while (j > 0 && v < t[j - 1])                                                            \
          j--;                                                                                   \
        while (j < TB_CDF_THRESHOLDS && !(v < t[j]))                                             \
          j++;                                                                                   \
        h[j]++;                                                                                  \
      }                                                                                          \
    }                                                                                            \
    int64_t run = 0;                                                                             \
    for (int k = 0; k < TB_CDF_THRESHOLDS; k++) {                                                \
      for (int th = 0; th < threads; th++)                                                       \
        run += hist[(size_t)th * TB_NBINS + k];                                                  \
      counts[k] = run;                                                                           \
    }                                                                                            \
  }

TB_CDF_CPU_KERNELS(float, f)
TB_CDF_CPU_KERNELS(double, d)

static int tb_cdf_prepare_count(tb_ctx_t *ctx)
{
  ctx->extra[TB_CDF_LAUNCHES] = TB_CDF_THRESHOLDS;
  return TB_OK;
}

static int tb_cdf_prepare_hist(tb_ctx_t *ctx)
{
  ctx->extra[TB_CDF_LAUNCHES] = 1;
  ctx->state = calloc((size_t)tb_cpu_threads(ctx) * TB_NBINS, sizeof(int64_t));
  return ctx->state ? TB_OK : tb_fail(TB_ENOMEM, "out of memory");
}

static int tb_cdf_run_count(tb_ctx_t *ctx)
{
  const tb_cdf_t *c = ctx->p->priv;
  if (ctx->p->prec == TB_FLOAT)
    tb_cdf_count_f(ctx->buf[c->x], ctx->p->n, ctx->buf[c->counts], tb_cpu_threads(ctx));
  else
    tb_cdf_count_d(ctx->buf[c->x], ctx->p->n, ctx->buf[c->counts], tb_cpu_threads(ctx));
  return TB_OK;
}

static int tb_cdf_run_hist(tb_ctx_t *ctx)
{
  const tb_cdf_t *c = ctx->p->priv;
  if (ctx->p->prec == TB_FLOAT)
    tb_cdf_hist_f(ctx->buf[c->x], ctx->p->n, ctx->buf[c->counts], tb_cpu_threads(ctx),
                  ctx->state);
  else
    tb_cdf_hist_d(ctx->buf[c->x], ctx->p->n, ctx->buf[c->counts], tb_cpu_threads(ctx),
                  ctx->state);
  return TB_OK;
}

static void tb_cdf_release(tb_ctx_t *ctx)
{
  free(ctx->state);
  ctx->state = NULL;
}

#define TB_CDF_PRECS (TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE))

TB_VARIANT(tb_cdf_cpu_count, "count", &tb_algo_cdf, TB_CDF_PRECS, 0, NULL, 0, tb_cdf_prepare_count,
           tb_cdf_run_count, NULL, NULL, "one parallel count per threshold (100 passes)");
TB_VARIANT(tb_cdf_cpu_hist, "hist", &tb_algo_cdf, TB_CDF_PRECS, 0, NULL, 0, tb_cdf_prepare_hist,
           tb_cdf_run_hist, NULL, tb_cdf_release,
           "one pass: per-thread histograms of the bins, then a prefix sum over the bins");

TB_VARIANT_LIST(cdf, cpu, &tb_cdf_cpu_count, &tb_cdf_cpu_hist);
