/* twinbench: the spectral Poisson family's CUDA twins, on cuFFT.
 *
 * c2c       the published pipeline (NVIDIA, 2008): a kernel copies f into a
 *           complex array, cuFFT's in-place complex forward transform, a
 *           solve kernel divides by -|k|^2 (wavenumbers from the indices),
 *           the inverse transform, and a kernel takes the real part and
 *           scales it by 1/N^dim;
 * c2c_smem  the same with the published optimisation of the solve: each
 *           block stages its columns' and rows' k^2 (from tables made in
 *           prepare) in shared memory;
 * r2c       cuFFT R2C from f into the half spectrum, one kernel that solves
 *           and scales (the spectrum as one flat array, two values a thread:
 *           a 16-byte access in float, two in double), C2R straight into u;
 * cb        the solve and scale in an LTO callback (poisson_cb.cu), linked
 *           into a plan at run time by cufftXtSetJITCallback (cuFFT compiles
 *           its glue with NVRTC and links it with nvJitLink, both loaded
 *           beside libcufft): side=store, the R2C plan's store callback;
 *           side=load, the C2R plan's load callback. No kernel of its own;
 *           where cuFFT cannot set or link the callback, the variant is
 *           skipped with a note naming the call, cuFFT's result, the
 *           device's and the LTO-IR's architectures;
 * fftonly   R2C and C2R alone, no kernel: the baseline the solve is timed
 *           against (verified as the round trip u = N^dim f).
 * cols      (poisson_cols.cu) the transform split by hand into batched
 *           1-D transforms of the rows and of the columns, the callback on
 *           a column transform.
 * panel     (poisson_panel.cu) cuFFT's batched R2C of the rows, one kernel
 *           that transforms, solves and transforms back a panel of columns
 *           in shared memory, cuFFT's batched C2R of the rows.
 * The plans are made in prepare, on the run's stream; their time is the
 * plan_ms column, apart from the timed run. The published solve kernels walk
 * the spectrum as rows of contiguous values: x over the columns, a
 * grid-stride loop over the rows in y, so no thread divides a 64-bit index
 * per value. After the timed runs, collect times the pipeline stage by stage
 * with events (the breakdown columns in_ms, fwd_ms, solve_ms, inv_ms,
 * out_ms), apart from the timed figures. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/timer.h"
#include "poisson.cuh"

namespace {

/* ---- Kernels ----------------------------------------------------------- */

/* The published real2complex: w = f + 0 i. */
template <typename T, typename C>
__global__ void tb_k_to_complex(const T *__restrict__ f, C *__restrict__ w, int64_t m)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += stride) {
    C v;
    v.x = f[j];
    v.y = T(0);
    w[j] = v;
  }
}

/* The published complex2real with the scaling: u = Re(w) / N^dim. */
template <typename T, typename C>
__global__ void tb_k_real_part(const C *__restrict__ w, T *__restrict__ u, int64_t m, T scale)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += stride)
    u[j] = w[j].x * scale;
}

__device__ __forceinline__ int64_t tb_dfreq(int64_t i, int64_t n)
{
  return i < n / 2 ? i : i - n;
}

/* Multiply w by -scale / |k|^2 (0 for the zero mode, whose |k|^2 alone is 0).
 * The spectrum is `rows` rows of `cols` contiguous values; a row's index is
 * i1 (2-D) or i0 N + i1 (3-D). Thread x takes one column; the rows are a
 * grid-stride loop in y whose (i0, i1) advance without a division. The
 * wavenumbers come from the indices: k0 times the signed frequency. The
 * published solve (scale 1, the scaling left to the last kernel) and the
 * fused solve-and-scale of r2c (scale 1/N^dim) are this kernel. */
template <typename T, typename C, int D>
__global__ void tb_k_solve(C *__restrict__ w, int64_t rows, int64_t cols, int64_t n, T k0, T scale)
{
  const int64_t col = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols)
    return;
  const T kc = k0 * (T)tb_dfreq(col, n), kc2 = kc * kc;
  const int64_t gy = gridDim.y, q = D == 3 ? gy / n : 0, rem = D == 3 ? gy % n : gy;
  int64_t r = blockIdx.y, i0 = D == 3 ? r / n : 0, i1 = D == 3 ? r % n : r;
  for (; r < rows; r += gy) {
    const T ka = k0 * (T)tb_dfreq(i1, n);
    T k2 = ka * ka + kc2;
    if (D == 3) {
      const T kb = k0 * (T)tb_dfreq(i0, n);
      k2 += kb * kb;
    }
    const T g = k2 > T(0) ? -scale / k2 : T(0);
    C *p = w + r * cols + col;
    C v = *p;
    v.x *= g;
    v.y *= g;
    *p = v;
    i1 += rem;
    i0 += q;
    if (i1 >= n) {
      i1 -= n;
      i0++;
    }
  }
}

/* The published shared-memory solve: blocks of 32 x by threads over tiles
 * of 32 columns and by rows. Row 0 of the block loads its columns' k^2,
 * column 0 its rows' (3-D: the sum of the two axes' entries), from the
 * table k2 of one axis; every value then reads both from shared memory. */
template <typename T, typename C, int D>
__global__ void tb_k_solve_smem(C *__restrict__ w, int64_t rows, int64_t cols, int64_t n,
                                const T *__restrict__ k2)
{
  __shared__ T kc2[32], kr2[32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t col = (int64_t)blockIdx.x * 32 + tx;
  if (ty == 0 && col < cols)
    kc2[tx] = k2[col];
  const int64_t step = (int64_t)gridDim.y * blockDim.y;
  for (int64_t r0 = (int64_t)blockIdx.y * blockDim.y; r0 < rows; r0 += step) {
    const int64_t r = r0 + ty;
    if (tx == 0 && r < rows)
      kr2[ty] = D == 2 ? k2[r] : k2[r / n] + k2[r % n];
    __syncthreads();
    if (col < cols && r < rows) {
      const T s = kr2[ty] + kc2[tx], g = s > T(0) ? T(-1) / s : T(0);
      C *p = w + r * cols + col;
      C v = *p;
      v.x *= g;
      v.y *= g;
      *p = v;
    }
    __syncthreads();
  }
}

/* Scale a pair of adjacent complex values by g0 and g1: one 16-byte access
 * each way in float (the pair starts at an even index of a 256-byte aligned
 * array), two in double. */
__device__ __forceinline__ void tb_pair_scale(float2 *w, float g0, float g1)
{
  float4 *q = reinterpret_cast<float4 *>(w);
  float4 v = *q;
  v.x *= g0;
  v.y *= g0;
  v.z *= g1;
  v.w *= g1;
  *q = v;
}

__device__ __forceinline__ void tb_pair_scale(double2 *w, double g0, double g1)
{
  double2 a = w[0], b = w[1];
  a.x *= g0;
  a.y *= g0;
  b.x *= g1;
  b.y *= g1;
  w[0] = a;
  w[1] = b;
}

/* The fused solve-and-scale of r2c: the half spectrum as one flat array of
 * `pairs` pairs of values (rows x (N/2 + 1) values, an even count because N
 * is even), a pair a thread in a grid-stride loop, so that the spectrum is
 * read and written once, coalesced, 16 bytes (float) or 32 (double) in
 * flight a thread, and no block idles on the odd column of the row length.
 * A pair's row and column come from one division of its first index by the
 * row length (32-bit where the spectrum has fewer than 2^32 values, as at
 * every size the family benchmarks); the second value is the next column,
 * or the next row's first. The multiplier -scale / |k|^2 (0 for the zero
 * mode) is computed from the indices, nothing loaded. */
template <typename T, typename C, int D>
__global__ void tb_k_solve_flat(C *__restrict__ w, int64_t pairs, int64_t half, int64_t n,
                                int small, T k0, T scale)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; p < pairs; p += stride) {
    const int64_t j = 2 * p;
    const int64_t r = small ? (int64_t)((unsigned)j / (unsigned)half) : j / half;
    int64_t c = j - r * half, i0 = 0, i1 = r;
    if (D == 3) {
      i0 = small ? (int64_t)((unsigned)r / (unsigned)n) : r / n;
      i1 = r - i0 * n;
    }
    T g[2];
    for (int e = 0; e < 2; e++) {
      const T kc = k0 * (T)tb_dfreq(c, n), ka = k0 * (T)tb_dfreq(i1, n);
      T k2 = kc * kc + ka * ka;
      if (D == 3) {
        const T kb = k0 * (T)tb_dfreq(i0, n);
        k2 += kb * kb;
      }
      g[e] = k2 > T(0) ? -scale / k2 : T(0);
      if (++c == half) {
        c = 0;
        if (++i1 == n) {
          i1 = 0;
          i0++;
        }
      }
    }
    tb_pair_scale(w + j, g[0], g[1]);
  }
}

/* ---- Variants ---------------------------------------------------------- */

enum { TB_PG_C2C, TB_PG_C2C_SMEM, TB_PG_R2C, TB_PG_CB, TB_PG_FFTONLY };

struct tb_poisson_gpu {
  cufftHandle fwd, inv; /* c2c: one plan for both directions (fwd) */
  int have_fwd, have_inv;
  void *work; /* complex: N^dim (c2c) or N^(dim-1) (N/2 + 1) values */
  void *k2;   /* c2c_smem: k^2 of each index of an axis */
  tb_poisson_cb_info *info; /* cb: the callback's constants, on the device */
  void *info_ptr; /* cb: the caller_info array handed to cuFFT (one pointer), kept
                     as long as the plan in case cuFFT reads it after planning */
  int grid;   /* the copy kernels' grid; r2c: the flat solve's */
  dim3 sgrid, sblock; /* the published solve kernels' launch */
};

/* Make the plan of the problem's shape in h (created), on the run's stream. */
cufftResult tb_poisson_make(const tb_ctx_t *ctx, cufftHandle h, cufftType type)
{
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  const int n = (int)s->n;
  size_t ws = 0;
  cufftResult r = s->dim == 2 ? cufftMakePlan2d(h, n, n, type, &ws)
                              : cufftMakePlan3d(h, n, n, n, type, &ws);
  return r != CUFFT_SUCCESS ? r : cufftSetStream(h, tb_gpu_stream(ctx));
}

/* A plan of the problem's shape on the run's stream. */
int tb_poisson_plan(const tb_ctx_t *ctx, cufftHandle *h, int *have, cufftType type)
{
  TB_CUFFT(cufftCreate(h));
  *have = 1;
  TB_CUFFT(tb_poisson_make(ctx, *h, type));
  return TB_OK;
}

/* cb's plans: the one of `side` with the LTO callback (whose constants
 * prepare put at st->info; tb_poisson_make_cb notes what failed where cuFFT
 * cannot set or link it), the other plain. */
template <typename T> int tb_poisson_plan_cb(const tb_ctx_t *ctx, tb_poisson_gpu *st, int side)
{
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  const int store = side == TB_CB_STORE;
  cufftHandle *h = store ? &st->fwd : &st->inv;
  TB_CUFFT(cufftCreate(h));
  *(store ? &st->have_fwd : &st->have_inv) = 1;
  st->info_ptr = st->info;
  const int rc = tb_poisson_make_cb<T>(
      ctx, *h, side, &st->info_ptr, store ? "R2C" : "C2R",
      s->dim == 2 ? "cufftMakePlan2d" : "cufftMakePlan3d",
      [ctx, store](cufftHandle p) {
        return tb_poisson_make(ctx, p, store ? tb_fft<T>::r2c : tb_fft<T>::c2r);
      });
  if (rc)
    return rc;
  return store ? tb_poisson_plan(ctx, &st->inv, &st->have_inv, tb_fft<T>::c2r)
               : tb_poisson_plan(ctx, &st->fwd, &st->have_fwd, tb_fft<T>::r2c);
}

/* The published solve kernels' launch: `block` threads over the columns
 * (c2c_smem: 32 x block / 32), up to 65535 blocks over the rows. */
int tb_poisson_solve_launch(tb_ctx_t *ctx, tb_poisson_gpu *st, int64_t rows, int64_t cols, int smem)
{
  const int block = tb_gpu_block(ctx);
  if (smem) {
    if (block % 32)
      return tb_fail(TB_EUNSUP, "the shared-memory solve takes blocks of 32 x (block / 32) threads");
    st->sblock = dim3(32, block / 32);
  } else {
    st->sblock = dim3(block);
  }
  st->sgrid = dim3((unsigned)((cols + st->sblock.x - 1) / st->sblock.x),
                   (unsigned)((rows + st->sblock.y - 1) / st->sblock.y < 65535
                                  ? (rows + st->sblock.y - 1) / st->sblock.y
                                  : 65535));
  return TB_OK;
}

/* The kernels' fit and launch shapes. */
template <typename T> int tb_poisson_kernels(tb_ctx_t *ctx, int kind, tb_poisson_gpu *st)
{
  typedef typename tb_fft<T>::C C;
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  const int d2 = s->dim == 2;
  int rc;
  switch (kind) {
  case TB_PG_C2C:
  case TB_PG_C2C_SMEM:
    if ((rc = tb_gpu_grid(ctx, tb_k_to_complex<T, C>, s->total, 0, TB_GPU_WAVES, &st->grid)) ||
        (rc = tb_gpu_fit(ctx, tb_k_real_part<T, C>, 0, NULL, NULL)))
      return rc;
    if (kind == TB_PG_C2C_SMEM)
      rc = d2 ? tb_gpu_fit(ctx, tb_k_solve_smem<T, C, 2>, 0, NULL, NULL)
              : tb_gpu_fit(ctx, tb_k_solve_smem<T, C, 3>, 0, NULL, NULL);
    else
      rc = d2 ? tb_gpu_fit(ctx, tb_k_solve<T, C, 2>, 0, NULL, NULL)
              : tb_gpu_fit(ctx, tb_k_solve<T, C, 3>, 0, NULL, NULL);
    return rc ? rc : tb_poisson_solve_launch(ctx, st, s->rows, s->n, kind == TB_PG_C2C_SMEM);
  case TB_PG_R2C:
    return d2 ? tb_gpu_grid(ctx, tb_k_solve_flat<T, C, 2>, s->rows * s->half / 2, 0, TB_GPU_WAVES,
                            &st->grid)
              : tb_gpu_grid(ctx, tb_k_solve_flat<T, C, 3>, s->rows * s->half / 2, 0, TB_GPU_WAVES,
                            &st->grid);
  default:
    return TB_OK;
  }
}

template <typename T> int tb_poisson_prepare_t(tb_ctx_t *ctx, int kind, tb_poisson_gpu *st)
{
  typedef typename tb_fft<T>::C C;
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  const int c2c = kind == TB_PG_C2C || kind == TB_PG_C2C_SMEM;
  const int64_t cplx = c2c ? s->total : s->rows * s->half;
  int rc;
  TB_CUDA(cudaMalloc(&st->work, (size_t)cplx * sizeof(C)));
  if (kind == TB_PG_CB && (rc = tb_poisson_cb_put(s, s->half, &st->info)))
    return rc;
  if (kind == TB_PG_C2C_SMEM) {
    T *k2 = (T *)malloc((size_t)s->n * sizeof(T));
    if (!k2)
      return tb_fail(TB_ENOMEM, "out of memory");
    for (int64_t i = 0; i < s->n; i++) {
      T k = (T)(2.0 * M_PI / s->L) * (T)tb_poisson_freq(i, s->n);
      k2[i] = k * k;
    }
    cudaError_t e = cudaMalloc(&st->k2, (size_t)s->n * sizeof(T));
    if (e == cudaSuccess)
      e = tb_gpu_copy(ctx, st->k2, k2, (size_t)s->n * sizeof(T), cudaMemcpyHostToDevice);
    free(k2);
    TB_CUDA(e);
  }
  if ((rc = tb_poisson_kernels<T>(ctx, kind, st)))
    return rc;
  TB_CUDA(cudaDeviceSynchronize());
  const double t0 = tb_wtime();
  if (c2c)
    rc = tb_poisson_plan(ctx, &st->fwd, &st->have_fwd, tb_fft<T>::c2c);
  else if (kind == TB_PG_CB)
    rc = tb_poisson_plan_cb<T>(ctx, st, (int)tb_tune(ctx, "side")->i);
  else if (!(rc = tb_poisson_plan(ctx, &st->fwd, &st->have_fwd, tb_fft<T>::r2c)))
    rc = tb_poisson_plan(ctx, &st->inv, &st->have_inv, tb_fft<T>::c2r);
  if (rc)
    return rc;
  TB_CUDA(cudaDeviceSynchronize());
  ctx->extra[TB_POISSON_PLAN_MS] = 1e3 * (tb_wtime() - t0);
  ctx->extra[TB_POISSON_ROUNDTRIP] = kind == TB_PG_FFTONLY ? 1.0 : 0.0;
  return TB_OK;
}

/* The stages of the pipeline of `kind`, a bit each (TB_PS_...). */
unsigned tb_poisson_stages(int kind)
{
  const int c2c = kind == TB_PG_C2C || kind == TB_PG_C2C_SMEM;
  return 1u << TB_PS_FWD | 1u << TB_PS_INV |
         (kind != TB_PG_CB && kind != TB_PG_FFTONLY ? 1u << TB_PS_SOLVE : 0u) |
         (c2c ? 1u << TB_PS_IN | 1u << TB_PS_OUT : 0u);
}

/* Launch one stage of the pipeline on the run's stream. */
template <typename T> int tb_poisson_stage_t(tb_ctx_t *ctx, int kind, int stage)
{
  typedef typename tb_fft<T>::C C;
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  const tb_poisson_gpu *st = (const tb_poisson_gpu *)ctx->state;
  cudaStream_t stream = tb_gpu_stream(ctx);
  const T *f = (const T *)ctx->buf[s->f];
  T *u = (T *)ctx->buf[s->u];
  C *w = (C *)st->work;
  const T k0 = (T)(2.0 * M_PI / s->L), scale = (T)(1.0 / (double)s->total);
  const int block = tb_gpu_block(ctx), d2 = s->dim == 2;
  const int c2c = kind == TB_PG_C2C || kind == TB_PG_C2C_SMEM;
  switch (stage) {
  case TB_PS_IN:
    tb_k_to_complex<T, C><<<st->grid, block, 0, stream>>>(f, w, s->total);
    TB_CUDA_LAUNCH("real2complex");
    return TB_OK;
  case TB_PS_FWD:
    /* cuFFT's out-of-place R2C leaves its input alone; the cast only drops const. */
    TB_CUFFT(c2c ? tb_fft<T>::exec_c2c(st->fwd, w, CUFFT_FORWARD)
                 : tb_fft<T>::exec_r2c(st->fwd, const_cast<T *>(f), w));
    return TB_OK;
  case TB_PS_SOLVE:
    if (kind == TB_PG_R2C) {
      const int64_t pairs = s->rows * s->half / 2;
      const int small = s->rows * s->half < ((int64_t)1 << 32);
      if (d2)
        tb_k_solve_flat<T, C, 2><<<st->grid, block, 0, stream>>>(w, pairs, s->half, s->n, small, k0,
                                                                 scale);
      else
        tb_k_solve_flat<T, C, 3><<<st->grid, block, 0, stream>>>(w, pairs, s->half, s->n, small, k0,
                                                                 scale);
    } else if (kind == TB_PG_C2C_SMEM) {
      const T *k2 = (const T *)st->k2;
      if (d2)
        tb_k_solve_smem<T, C, 2><<<st->sgrid, st->sblock, 0, stream>>>(w, s->rows, s->n, s->n, k2);
      else
        tb_k_solve_smem<T, C, 3><<<st->sgrid, st->sblock, 0, stream>>>(w, s->rows, s->n, s->n, k2);
    } else if (d2) {
      tb_k_solve<T, C, 2><<<st->sgrid, st->sblock, 0, stream>>>(w, s->rows, s->n, s->n, k0, T(1));
    } else {
      tb_k_solve<T, C, 3><<<st->sgrid, st->sblock, 0, stream>>>(w, s->rows, s->n, s->n, k0, T(1));
    }
    TB_CUDA_LAUNCH("solve");
    return TB_OK;
  case TB_PS_INV:
    TB_CUFFT(c2c ? tb_fft<T>::exec_c2c(st->fwd, w, CUFFT_INVERSE)
                 : tb_fft<T>::exec_c2r(st->inv, w, u));
    return TB_OK;
  default:
    tb_k_real_part<T, C><<<st->grid, block, 0, stream>>>(w, u, s->total, scale);
    TB_CUDA_LAUNCH("complex2real");
    return TB_OK;
  }
}

template <typename T> int tb_poisson_run_t(tb_ctx_t *ctx, int kind)
{
  return tb_poisson_run_stages(tb_poisson_stages(kind),
                               [ctx, kind](int g) { return tb_poisson_stage_t<T>(ctx, kind, g); });
}

/* The breakdown columns (tb_poisson_time_stages) of the stages kind has. */
template <typename T> int tb_poisson_collect_t(tb_ctx_t *ctx, int kind)
{
  return tb_poisson_time_stages(ctx, tb_poisson_stages(kind), [ctx, kind](int g) {
    return tb_poisson_stage_t<T>(ctx, kind, g);
  });
}

void tb_poisson_gpu_release(tb_ctx_t *ctx)
{
  tb_poisson_gpu *st = (tb_poisson_gpu *)ctx->state;
  if (!st)
    return;
  if (st->have_fwd)
    cufftDestroy(st->fwd);
  if (st->have_inv)
    cufftDestroy(st->inv);
  cudaFree(st->work);
  cudaFree(st->k2);
  cudaFree(st->info);
  free(st);
  ctx->state = NULL;
}

template <int KIND> int tb_poisson_gpu_prepare(tb_ctx_t *ctx)
{
  tb_poisson_gpu *st = (tb_poisson_gpu *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  return ctx->p->prec == TB_FLOAT ? tb_poisson_prepare_t<float>(ctx, KIND, st)
                                  : tb_poisson_prepare_t<double>(ctx, KIND, st);
}

template <int KIND> int tb_poisson_gpu_run(tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? tb_poisson_run_t<float>(ctx, KIND)
                                  : tb_poisson_run_t<double>(ctx, KIND);
}

template <int KIND> int tb_poisson_gpu_collect(tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? tb_poisson_collect_t<float>(ctx, KIND)
                                  : tb_poisson_collect_t<double>(ctx, KIND);
}

const unsigned tb_poisson_precs = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE);

/* cb's parameter: the callback's side, both swept by the study. */
const tb_param_def_t tb_poisson_cb_tuning[] = {
    {"side", "cb: the solve in the R2C plan's store callback (store) or the C2R plan's load "
             "callback (load)", TB_PARAM_CHOICE, "store", 0, 0, tb_poisson_cb_sides, 0,
     "store,load"},
};

#define TB_POISSON_GPU_VARIANT(NAME, KIND, TUNING, NTUNING, SUMMARY)                            \
  TB_VARIANT(tb_poisson_gpu_##NAME, #NAME, &tb_algo_poisson, tb_poisson_precs, 0, TUNING,       \
             NTUNING, tb_poisson_gpu_prepare<KIND>, tb_poisson_gpu_run<KIND>,                   \
             tb_poisson_gpu_collect<KIND>, tb_poisson_gpu_release, SUMMARY)

TB_POISSON_GPU_VARIANT(c2c, TB_PG_C2C, tb_gpu_gridstride_tuning,
                       TB_COUNT(tb_gpu_gridstride_tuning),
                       "the published pipeline: real2complex, cuFFT C2C, solve, inverse C2C, "
                       "complex2real with the scaling");
TB_POISSON_GPU_VARIANT(c2c_smem, TB_PG_C2C_SMEM, tb_gpu_gridstride_tuning,
                       TB_COUNT(tb_gpu_gridstride_tuning),
                       "the published pipeline with each block's k^2 staged in shared memory");
TB_POISSON_GPU_VARIANT(r2c, TB_PG_R2C, tb_gpu_gridstride_tuning,
                       TB_COUNT(tb_gpu_gridstride_tuning),
                       "cuFFT R2C into the half spectrum, one fused solve-and-scale kernel (flat, "
                       "two values a thread), C2R into u");
TB_POISSON_GPU_VARIANT(cb, TB_PG_CB, tb_poisson_cb_tuning, TB_COUNT(tb_poisson_cb_tuning),
                       "cuFFT R2C and C2R with the solve and scale in an LTO callback (side: the "
                       "R2C's store or the C2R's load), no kernel");
TB_POISSON_GPU_VARIANT(fftonly, TB_PG_FFTONLY, NULL, 0,
                       "baseline: cuFFT R2C and C2R alone, no solve (verified as a round trip)");

} /* namespace */

/* The distributed twin (MPI runs only), in poisson_mpi.cu. */
extern "C" const tb_variant_t tb__poisson_gpu_mpi;

TB_VARIANT_LIST(poisson, gpu, &tb_poisson_gpu_c2c, &tb_poisson_gpu_c2c_smem, &tb_poisson_gpu_r2c,
                &tb_poisson_gpu_cb, &tb__poisson_gpu_cols, &tb__poisson_gpu_panel,
                &tb_poisson_gpu_fftonly,
                &tb__poisson_gpu_mpi);
