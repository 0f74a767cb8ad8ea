/* twinbench: the STREAM family's OpenMP twin. Static schedule over the same
 * iteration space the backend first-touched, so each thread streams its own
 * pages; the dot product accumulates in double. */
#include <config.h>

#include "../families/stream.h"
#include "../common/refmath.h"
#include "cpu.h"

/* The five kernels for one element type T; the suffix names the instance. */
#define TB_STREAM_KERNELS(T, SFX)                                                              \
  static void tb_stream_##SFX(int op, T *restrict c, const T *restrict a, const T *restrict b, \
                              int64_t n, int threads)                                           \
  {                                                                                             \
    const T q = (T)TB_STREAM_Q;                                                                 \
    switch (op) {                                                                               \
    case TB_STREAM_COPY:                                                                        \
      _Pragma("omp parallel for simd schedule(static) num_threads(threads)")                    \
      for (int64_t i = 0; i < n; i++)                                                           \
        c[i] = a[i];                                                                            \
      break;                                                                                    \
    case TB_STREAM_SCALE:                                                                       \
      _Pragma("omp parallel for simd schedule(static) num_threads(threads)")                    \
      for (int64_t i = 0; i < n; i++)                                                           \
        c[i] = q * a[i];                                                                        \
      break;                                                                                    \
    case TB_STREAM_ADD:                                                                         \
      _Pragma("omp parallel for simd schedule(static) num_threads(threads)")                    \
      for (int64_t i = 0; i < n; i++)                                                           \
        c[i] = a[i] + b[i];                                                                     \
      break;                                                                                    \
    case TB_STREAM_TRIAD:                                                                       \
      _Pragma("omp parallel for simd schedule(static) num_threads(threads)")                    \
      for (int64_t i = 0; i < n; i++)                                                           \
        c[i] = a[i] + q * b[i];                                                                 \
      break;                                                                                    \
    default: {                                                                                  \
      /* Each thread keeps L independent sums over its blocks of L elements                    \
       * (vector registers, and a short chain for the bound), then adds them                    \
       * as a tree; the tail of fewer than L elements comes last. */                            \
      enum { L = TB_STREAM_DOT_LANES };                                                         \
      const int64_t nb = n / L;                                                                 \
      double s = 0.0;                                                                           \
      _Pragma("omp parallel num_threads(threads) reduction(+ : s)")                             \
      {                                                                                         \
        double acc[L] = {0.0};                                                                  \
        _Pragma("omp for schedule(static) nowait")                                              \
        for (int64_t j = 0; j < nb; j++)                                                        \
          _Pragma("omp simd")                                                                   \
          for (int k = 0; k < L; k++)                                                           \
            acc[k] += (double)a[j * L + k] * (double)b[j * L + k];                              \
        for (int w = L / 2; w > 0; w /= 2)                                                      \
          for (int k = 0; k < w; k++)                                                           \
            acc[k] += acc[k + w];                                                               \
        s += acc[0];                                                                            \
      }                                                                                         \
      for (int64_t i = nb * L; i < n; i++)                                                      \
        s += (double)a[i] * (double)b[i];                                                       \
      c[0] = (T)s;                                                                              \
    }                                                                                           \
    }                                                                                           \
  }

TB_STREAM_KERNELS(float, f32)
TB_STREAM_KERNELS(double, f64)

void tb__cpu_triad_f64(double *restrict c, const double *restrict a, const double *restrict b,
                       int64_t n, int threads)
{
  tb_stream_f64(TB_STREAM_TRIAD, c, a, b, n, threads);
}

/* The dot's depth: a thread's chain over its share of the blocks, the tree
 * of its L sums, at most one addition per thread where OpenMP combines them
 * (in any order), and the tail. */
static int tb_stream_omp_prepare(tb_ctx_t *ctx)
{
  const tb_stream_t *s = ctx->p->priv;
  const int64_t n = ctx->p->n, nb = n / TB_STREAM_DOT_LANES;
  const int threads = tb_cpu_threads(ctx);
  if (s->op == TB_STREAM_DOT)
    ctx->extra[TB_STREAM_DEPTH] = (double)((nb + threads - 1) / threads +
                                           tb_log2_ceil(TB_STREAM_DOT_LANES) + threads +
                                           n % TB_STREAM_DOT_LANES);
  return TB_OK;
}

static int tb_stream_omp_run(tb_ctx_t *ctx)
{
  const tb_stream_t *s = ctx->p->priv;
  void *b = s->b >= 0 ? ctx->buf[s->b] : NULL;
  if (ctx->p->prec == TB_FLOAT)
    tb_stream_f32(s->op, ctx->buf[s->c], ctx->buf[s->a], b, ctx->p->n, tb_cpu_threads(ctx));
  else
    tb_stream_f64(s->op, ctx->buf[s->c], ctx->buf[s->a], b, ctx->p->n, tb_cpu_threads(ctx));
  return TB_OK;
}

TB_VARIANT(tb_stream_omp, "omp", &tb_algo_stream, TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
           0, NULL, 0, tb_stream_omp_prepare, tb_stream_omp_run, NULL, NULL,
           "OpenMP parallel for simd, static schedule, first-touched arrays; dot: 16 sums a thread");

TB_VARIANT_LIST(stream, cpu, &tb_stream_omp);
