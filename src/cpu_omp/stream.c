/* twinbench: the STREAM family's OpenMP twin. Static schedule over the same
 * iteration space the backend first-touched, so each thread streams its own
 * pages; copy, scale, add and triad store plainly or non-temporally (the
 * stores tuning parameter; auto: non-temporal past the last-level caches);
 * the dot product accumulates in double. */
#include <config.h>

#include "../families/stream.h"
#include "../common/refmath.h"
#include "cpu.h"
#include "ntstore.h"

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

void tb__cpu_stream_f64(int op, double *restrict c, const double *restrict a,
                        const double *restrict b, int64_t n, int threads)
{
  tb_stream_f64(op, c, a, b, n, threads);
}

enum { TB_STORES_AUTO, TB_STORES_PLAIN, TB_STORES_NT };
static const char *const tb_stream_stores[] = {"auto", "plain", "nt", NULL};
static const tb_param_def_t tb_stream_omp_tuning[] = {
    {"stores", "how copy, scale, add and triad write: plain, nt (non-temporal: no read of the "
               "line first, nothing kept in cache) or auto (nt when the arrays exceed the "
               "last-level caches)",
     TB_PARAM_CHOICE, "auto", 0, 0, tb_stream_stores, 0, "plain,nt"},
};

/* The dot's depth: a thread's chain over its share of the blocks, the tree
 * of its L sums, at most one addition per thread where OpenMP combines them
 * (in any order), and the tail. The stores as run: auto resolved, plain
 * for the dot (it writes one number) and where the build has no
 * non-temporal stores. */
static int tb_stream_omp_prepare(tb_ctx_t *ctx)
{
  const tb_stream_t *s = ctx->p->priv;
  const int64_t n = ctx->p->n, nb = n / TB_STREAM_DOT_LANES;
  const int threads = tb_cpu_threads(ctx);
  int64_t bytes = 0;
  int stores = (int)tb_tune(ctx, "stores")->i;
  if (s->op == TB_STREAM_DOT)
    ctx->extra[TB_STREAM_DEPTH] = (double)((nb + threads - 1) / threads +
                                           tb_log2_ceil(TB_STREAM_DOT_LANES) + threads +
                                           n % TB_STREAM_DOT_LANES);
  for (int i = 0; i < ctx->p->narrays; i++)
    bytes += tb_array_bytes(&ctx->p->array[i]);
  if (stores == TB_STORES_AUTO)
    stores = bytes > tb_topo_llc_bytes(((const tb_cpu_config_t *)ctx->cfg)->topo) ? TB_STORES_NT
                                                                                : TB_STORES_PLAIN;
  if (s->op == TB_STREAM_DOT || !TB_HAVE_NT)
    stores = TB_STORES_PLAIN;
  tb_tune_resolved(ctx, "stores", stores);
  return TB_OK;
}

static int tb_stream_omp_run(tb_ctx_t *ctx)
{
  const tb_stream_t *s = ctx->p->priv;
  void *b = s->b >= 0 ? ctx->buf[s->b] : NULL;
  const int threads = tb_cpu_threads(ctx);
#if TB_HAVE_NT
  if (ctx->tuned[0] == TB_STORES_NT) {
    if (ctx->p->prec == TB_FLOAT)
      tb_nt_stream_f32(s->op, ctx->buf[s->c], ctx->buf[s->a], b, (float)TB_STREAM_Q, ctx->p->n,
                       threads);
    else
      tb_nt_stream_f64(s->op, ctx->buf[s->c], ctx->buf[s->a], b, TB_STREAM_Q, ctx->p->n, threads);
    return TB_OK;
  }
#endif
  if (ctx->p->prec == TB_FLOAT)
    tb_stream_f32(s->op, ctx->buf[s->c], ctx->buf[s->a], b, ctx->p->n, threads);
  else
    tb_stream_f64(s->op, ctx->buf[s->c], ctx->buf[s->a], b, ctx->p->n, threads);
  return TB_OK;
}

/* In an MPI run every rank runs STREAM on its own arrays (weak scaling):
 * the row's bandwidth is the ranks' together. */
TB_VARIANT(tb_stream_omp, "omp", &tb_algo_stream, TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
           TB_V_MPI_WEAK, tb_stream_omp_tuning, TB_COUNT(tb_stream_omp_tuning), tb_stream_omp_prepare,
           tb_stream_omp_run, NULL, NULL,
           "OpenMP parallel for simd, static schedule, first-touched arrays, plain or "
           "non-temporal stores; dot: 16 sums a thread");

TB_VARIANT_LIST(stream, cpu, &tb_stream_omp);
