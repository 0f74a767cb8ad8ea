/* twinbench: the Poisson family's GPU variant cols: the multidimensional
 * transform split by hand into batched 1-D transforms, so that the solve
 * rides in a callback of a plan cuFFT executes well in float too.
 *
 * cb's callback sits in cuFFT's 2-D (3-D) R2C or C2R plan; in float, cuFFT
 * makes those plans with a callback about 1.8 times slower than without
 * (H100, 4096^2 and 8192^2), while in double the callback costs nothing.
 * cols makes four plans of its own (cufftMakePlanMany):
 *   1. the rows: a batched 1-D R2C of the N^(dim-1) rows of f (contiguous)
 *      into the half spectrum, N/2 + 1 complex values a row;
 *   2. the columns forward: a batched C2C of rank dim - 1 over the other
 *      axes, one transform for each of the N/2 + 1 columns, in place;
 *   3. the columns inverse: the same shape, in place;
 *   4. the rows back: a batched 1-D C2R of the rows into u.
 * The solve and the 1/N^dim scale are the LTO callback of poisson_cb.cu,
 * the same functions cb links: side=store, the forward column transform's
 * store callback; side=load, the inverse column transform's load callback.
 * The callback receives the offset of its value in the array, so that the
 * same functions serve both layouts of the half spectrum (layout):
 *   natural     row-major as the 2-D plans leave it (value c of row r at
 *               r (N/2 + 1) + c): the rows contiguous, each column transform
 *               strided by N/2 + 1, adjacent transforms adjacent in memory;
 *   transposed  the column index outermost (value c of row r at
 *               c N^(dim-1) + r): the row transforms write and read with a
 *               stride, the column transforms are contiguous.
 * No kernel of its own; the stages fwd_ms (steps 1 and 2) and inv_ms (3
 * and 4) in the breakdown columns. Derivations: doc/poisson_cols.md. */
#include <config.h>

#include <limits.h>
#include <stdlib.h>

#include "../common/timer.h"
#include "poisson.cuh"
#include "poisson_cols.h"

/* The real rows are contiguous (N apart); value c of complex row r is at
 * r (N/2 + 1) + c (natural) or c N^(dim-1) + r (transposed). The column
 * transforms run over the dim - 1 outer axes of the grid of rows, one for
 * each c. */
tb_poisson_cols_shape_t tb__poisson_cols_shape(const tb_poisson_t *s, int layout, int which)
{
  const int n = (int)s->n, half = (int)s->half, rows = (int)s->rows;
  const int tr = layout == TB_CL_TRANSPOSED;
  tb_poisson_cols_shape_t p = {};
  if (which == TB_CL_ROWS_FWD || which == TB_CL_ROWS_INV) {
    const int cstride = tr ? rows : 1, cdist = tr ? 1 : half;
    const int fwd = which == TB_CL_ROWS_FWD;
    p.rank = 1;
    p.len[0] = n;
    p.embed[0] = n;
    p.batch = rows;
    p.istride = fwd ? 1 : cstride;
    p.idist = fwd ? n : cdist;
    p.ostride = fwd ? cstride : 1;
    p.odist = fwd ? cdist : n;
  } else {
    p.rank = s->dim - 1;
    p.len[0] = p.len[1] = n;
    p.embed[0] = p.embed[1] = n;
    p.batch = half;
    p.istride = p.ostride = tr ? 1 : half;
    p.idist = p.odist = tr ? rows : 1;
  }
  return p;
}

/* The natural layout's rows are N/2 + 1 long. The transposed layout's
 * offset c N^(dim-1) + r split by N gives the indices in another order;
 * |k|^2 is symmetric in them (doc/poisson_cols.md). */
int64_t tb__poisson_cols_split(const tb_poisson_t *s, int layout)
{
  return layout == TB_CL_TRANSPOSED ? s->n : s->half;
}

/* Make plan `which` (created in h) on the run's stream. */
cufftResult tb__poisson_cols_make(const tb_ctx_t *ctx, cufftHandle h, int layout, int which,
                                  cufftType type)
{
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  const tb_poisson_cols_shape_t p = tb__poisson_cols_shape(s, layout, which);
  size_t ws = 0;
  int len[2] = {p.len[0], p.len[1]}, embed[2] = {p.embed[0], p.embed[1]};
  cufftResult r = cufftMakePlanMany(h, p.rank, len, embed, p.istride, p.idist, embed, p.ostride,
                                    p.odist, type, p.batch, &ws);
  return r != CUFFT_SUCCESS ? r : cufftSetStream(h, tb_gpu_stream(ctx));
}

namespace {

struct tb_poisson_cols {
  cufftHandle plan[TB_CL_PLANS];
  int have[TB_CL_PLANS];
  void *work;               /* the half spectrum: N^(dim-1) (N/2 + 1) complex values */
  tb_poisson_cb_info *info; /* the callback's constants, on the device */
  void *info_ptr; /* the caller_info array handed to cuFFT (one pointer), kept
                     as long as the plans in case cuFFT reads it after planning */
};

template <typename T> int tb_poisson_cols_prepare_t(tb_ctx_t *ctx, tb_poisson_cols *st)
{
  typedef typename tb_fft<T>::C C;
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  const int layout = (int)tb_tune(ctx, "layout")->i, side = (int)tb_tune(ctx, "side")->i;
  static const cufftType types[TB_CL_PLANS] = {tb_fft<T>::r2c, tb_fft<T>::c2c, tb_fft<T>::c2c,
                                               tb_fft<T>::c2r};
  /* cufftMakePlanMany takes int lengths, strides and distances; the
   * largest offset is that of the last grid point. */
  if (s->total > INT_MAX)
    return tb_fail(TB_EUNSUP, "cols plans with int strides: at most %d grid points (N^%d = %lld)",
                   INT_MAX, s->dim, (long long)s->total);
  int rc;
  TB_CUDA(cudaMalloc(&st->work, (size_t)(s->rows * s->half) * sizeof(C)));
  if ((rc = tb_poisson_cb_put(s, tb__poisson_cols_split(s, layout), &st->info)))
    return rc;
  st->info_ptr = st->info;
  const int cb = side == TB_CB_STORE ? TB_CL_COLS_FWD : TB_CL_COLS_INV;
  TB_CUDA(cudaDeviceSynchronize());
  const double t0 = tb_wtime();
  for (int k = 0; k < TB_CL_PLANS; k++) {
    TB_CUFFT(cufftCreate(&st->plan[k]));
    st->have[k] = 1;
    const cufftType type = types[k];
    if (k != cb)
      TB_CUFFT(tb__poisson_cols_make(ctx, st->plan[k], layout, k, type));
    else if ((rc = tb_poisson_make_cb<T>(ctx, st->plan[k], side, &st->info_ptr,
                                         k == TB_CL_COLS_FWD ? "forward column C2C"
                                                             : "inverse column C2C",
                                         "cufftMakePlanMany",
                                         [ctx, layout, k, type](cufftHandle h) {
                                           return tb__poisson_cols_make(ctx, h, layout, k, type);
                                         })))
      return rc;
  }
  TB_CUDA(cudaDeviceSynchronize());
  ctx->extra[TB_POISSON_PLAN_MS] = 1e3 * (tb_wtime() - t0);
  ctx->extra[TB_POISSON_ROUNDTRIP] = 0.0;
  return TB_OK;
}

/* Stage TB_PS_FWD (the rows' R2C, the columns forward) or TB_PS_INV (the
 * columns inverse, the rows' C2R) on the run's stream. */
template <typename T> int tb_poisson_cols_stage_t(tb_ctx_t *ctx, int stage)
{
  typedef typename tb_fft<T>::C C;
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  const tb_poisson_cols *st = (const tb_poisson_cols *)ctx->state;
  C *w = (C *)st->work;
  /* cuFFT's out-of-place R2C leaves its input alone; the cast only drops const. */
  T *f = const_cast<T *>((const T *)ctx->buf[s->f]);
  if (stage == TB_PS_FWD) {
    TB_CUFFT(tb_fft<T>::exec_r2c(st->plan[TB_CL_ROWS_FWD], f, w));
    TB_CUFFT(tb_fft<T>::exec_c2c(st->plan[TB_CL_COLS_FWD], w, CUFFT_FORWARD));
  } else {
    TB_CUFFT(tb_fft<T>::exec_c2c(st->plan[TB_CL_COLS_INV], w, CUFFT_INVERSE));
    TB_CUFFT(tb_fft<T>::exec_c2r(st->plan[TB_CL_ROWS_INV], w, (T *)ctx->buf[s->u]));
  }
  return TB_OK;
}

const unsigned tb_poisson_cols_stages = 1u << TB_PS_FWD | 1u << TB_PS_INV;

void tb_poisson_cols_release(tb_ctx_t *ctx)
{
  tb_poisson_cols *st = (tb_poisson_cols *)ctx->state;
  if (!st)
    return;
  for (int k = 0; k < TB_CL_PLANS; k++)
    if (st->have[k])
      cufftDestroy(st->plan[k]);
  cudaFree(st->work);
  cudaFree(st->info);
  free(st);
  ctx->state = NULL;
}

int tb_poisson_cols_prepare(tb_ctx_t *ctx)
{
  tb_poisson_cols *st = (tb_poisson_cols *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  return ctx->p->prec == TB_FLOAT ? tb_poisson_cols_prepare_t<float>(ctx, st)
                                  : tb_poisson_cols_prepare_t<double>(ctx, st);
}

int tb_poisson_cols_run(tb_ctx_t *ctx)
{
  if (ctx->p->prec == TB_FLOAT)
    return tb_poisson_run_stages(tb_poisson_cols_stages,
                                 [ctx](int g) { return tb_poisson_cols_stage_t<float>(ctx, g); });
  return tb_poisson_run_stages(tb_poisson_cols_stages,
                               [ctx](int g) { return tb_poisson_cols_stage_t<double>(ctx, g); });
}

int tb_poisson_cols_collect(tb_ctx_t *ctx)
{
  if (ctx->p->prec == TB_FLOAT)
    return tb_poisson_time_stages(ctx, tb_poisson_cols_stages,
                                  [ctx](int g) { return tb_poisson_cols_stage_t<float>(ctx, g); });
  return tb_poisson_time_stages(ctx, tb_poisson_cols_stages,
                                [ctx](int g) { return tb_poisson_cols_stage_t<double>(ctx, g); });
}

/* cols's parameters: the callback's side and the half spectrum's layout,
 * each swept by the study (four points). */
const tb_param_def_t tb_poisson_cols_tuning[] = {
    {"side", "cols: the solve in the forward column C2C's store callback (store) or the "
             "inverse column C2C's load callback (load)", TB_PARAM_CHOICE, "store", 0, 0,
     tb_poisson_cb_sides, 0, "store,load"},
    {"layout", "cols: the half spectrum row-major, the column transforms strided (natural), or "
               "column-major, the row transforms strided (transposed)", TB_PARAM_CHOICE,
     "natural", 0, 0, tb_poisson_cols_layouts, 0, "natural,transposed"},
};

} /* namespace */

/* Listed by poisson.cu with the family's other GPU variants. */
extern "C" const tb_variant_t tb__poisson_gpu_cols = {
    "cols",
    "cuFFT batched 1-D transforms: R2C of the rows, C2C of the columns with the solve and scale "
    "in their LTO callback (side: the forward's store or the inverse's load), C2R of the rows",
    &tb_algo_poisson,
    TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    0,
    tb_poisson_cols_tuning,
    TB_COUNT(tb_poisson_cols_tuning),
    tb_poisson_cols_prepare,
    tb_poisson_cols_run,
    tb_poisson_cols_collect,
    tb_poisson_cols_release};
