/* twinbench: the CPU backend. Arrays live in host working copies that the
 * bound team first-touches; the limit is a STREAM triad at the same team. */
#include <config.h>

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../common/mem.h"
#include "../common/runner.h"
#include "../common/timer.h"
#include "cpu.h"

extern const tb_variant_t *const tb_cpu_variants[];

typedef struct tb_cpu_state {
  double t0;
} tb_cpu_state_t;

static int tb_cpu_probe(tb_device_info_t *info)
{
  memset(info, 0, sizeof *info);
  return TB_OK;
}

static int tb_cpu_mem_available(int64_t *bytes)
{
  return tb_host_mem_available(bytes);
}

/* Copy (or poison) array i into its working copy, each thread its own share. */
static void tb_cpu_fill(const tb_ctx_t *ctx, int i, int threads, int poison)
{
  const tb_array_t *a = &ctx->p->array[i];
  size_t sz = tb_kind_size(a->kind);
  char *dst = ctx->buf[i];
#pragma omp parallel num_threads(threads)
  {
    int64_t lo, hi;
    tb_cpu_share(a->count, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);
    if (poison)
      tb_poison(dst, a->kind, lo, hi);
    else
      memcpy(dst + lo * sz, (const char *)a->host + lo * sz, (size_t)(hi - lo) * sz);
  }
}

/* The best of ten runs after two warm-ups, as STREAM reports, in seconds. */
#define TB_LIMIT_BEST(best, call)                                                              \
  do {                                                                                         \
    best = 1e300;                                                                              \
    for (int r = 0; r < 12; r++) {                                                             \
      double t0 = tb_wtime();                                                                  \
      call;                                                                                    \
      double t = tb_wtime() - t0;                                                              \
      if (r >= 2 && t < best)                                                                  \
        best = t;                                                                              \
    }                                                                                          \
  } while (0)

/* STREAM triad (3 arrays of traffic) or a read-only sum (1 array), on arrays
 * first-touched by the bound team. */
static int tb_cpu_measure_limit(tb_ctx_t *ctx, int kind, double *gbs)
{
  int64_t n = ctx->limit_elems;
  int read = kind == TB_LIMIT_READ;
  double *a = tb_alloc(n * 8), *b = read ? NULL : tb_alloc(n * 8), *c = read ? NULL : tb_alloc(n * 8);
  int threads = ctx->threads;
  if (!a || (!read && (!b || !c))) {
    tb_free(a);
    tb_free(b);
    tb_free(c);
    return tb_fail(TB_ENOMEM, "cannot allocate the STREAM limit arrays (%lld doubles each)",
                   (long long)n);
  }
#pragma omp parallel num_threads(threads)
  {
    int64_t lo, hi;
    tb_cpu_share(n, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);
    for (int64_t i = lo; i < hi; i++) {
      a[i] = 1.0 + 0.125 * (double)(i & 7);
      if (!read) {
        b[i] = 2.0 - 0.0625 * (double)(i & 15);
        c[i] = 0.5;
      }
    }
  }
  double best, sum = 0.0;
  if (read)
    TB_LIMIT_BEST(best, sum += tb__cpu_sum_f64(a, n, threads));
  else
    TB_LIMIT_BEST(best, tb__cpu_triad_f64(c, a, b, n, threads));
  tb_free(a);
  tb_free(b);
  tb_free(c);
  if (read && !(sum > 0.0))
    return tb_fail(TB_EINVAL, "the read-bandwidth sum came out %g", sum);
  *gbs = (read ? 1.0 : 3.0) * 8.0 * (double)n / best * 1e-9;
  return TB_OK;
}

static int tb_cpu_attach(tb_ctx_t *ctx, tb_xfer_t *xfer)
{
  (void)xfer;
  tb_cpu_state_t *st = calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->bstate = st;
  for (int i = 0; i < ctx->p->narrays; i++) {
    const tb_array_t *a = &ctx->p->array[i];
    ctx->buf[i] = tb_alloc(tb_array_bytes(a));
    if (!ctx->buf[i]) {
      char b[32];
      int rc = tb_fail(TB_ENOMEM, "cannot allocate %s for the working copy of %s",
                       tb_format_bytes((double)tb_array_bytes(a), b), a->name);
      for (int j = 0; j < i; j++)
        tb_free(ctx->buf[j]);
      free(st);
      return rc;
    }
    tb_cpu_fill(ctx, i, ctx->threads, a->role == TB_OUT);
  }
  return TB_OK;
}

static int tb_cpu_reset(tb_ctx_t *ctx, int poison)
{
  for (int i = 0; i < ctx->p->narrays; i++) {
    tb_role_t role = ctx->p->array[i].role;
    if (role == TB_INOUT)
      tb_cpu_fill(ctx, i, ctx->threads, 0);
    else if (role == TB_OUT && poison)
      tb_cpu_fill(ctx, i, ctx->threads, 1);
  }
  return TB_OK;
}

static int tb_cpu_timer_start(tb_ctx_t *ctx)
{
  ((tb_cpu_state_t *)ctx->bstate)->t0 = tb_wtime();
  return TB_OK;
}

static int tb_cpu_timer_stop(tb_ctx_t *ctx, double *ms)
{
  *ms = 1e3 * (tb_wtime() - ((tb_cpu_state_t *)ctx->bstate)->t0);
  return TB_OK;
}

static int tb_cpu_download(tb_ctx_t *ctx, void **view, tb_xfer_t *xfer)
{
  (void)xfer;
  for (int i = 0; i < ctx->p->narrays; i++)
    view[i] = ctx->buf[i];
  return TB_OK;
}

static void tb_cpu_detach(tb_ctx_t *ctx)
{
  for (int i = 0; i < ctx->p->narrays; i++) {
    tb_free(ctx->buf[i]);
    ctx->buf[i] = NULL;
  }
  free(ctx->bstate);
  ctx->bstate = NULL;
}

const tb_backend_t tb_backend_cpu = {
    .name = "cpu",
    .limit_names = {"STREAM triad at the same threads and placement",
                    "STREAM-style read-only sum at the same threads and placement"},
    .variants = tb_cpu_variants,
    .probe = tb_cpu_probe,
    .mem_available = tb_cpu_mem_available,
    .measure_limit = tb_cpu_measure_limit,
    .attach = tb_cpu_attach,
    .reset = tb_cpu_reset,
    .timer_start = tb_cpu_timer_start,
    .timer_stop = tb_cpu_timer_stop,
    .download = tb_cpu_download,
    .detach = tb_cpu_detach,
};
