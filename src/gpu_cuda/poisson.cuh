/* twinbench: what the Poisson family's CUDA files share (poisson.cu, the
 * 2-D and 3-D cuFFT plans; poisson_cols.cu, the transform decomposed into
 * rows and columns): cuFFT's results as statuses, its types and calls by
 * precision, the LTO callbacks' setting and linking with the note of what
 * failed, and the stage-by-stage timing behind the breakdown columns. */
#ifndef TB_POISSON_CUH
#define TB_POISSON_CUH

#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>
#include <math.h>

#include "../common/stats.h"
#include "../families/poisson.h"
#include "cuda_util.h"
#include "gpu_cuda/poisson_cb_fatbin.h"
#include "poisson_cb.h"

/* The variants cols (poisson_cols.cu) and panel (poisson_panel.cu), listed
 * with poisson.cu's variants. */
extern "C" const tb_variant_t tb__poisson_gpu_cols, tb__poisson_gpu_panel;

/* Make cols's plan `which` (TB_CL_..., poisson_cols.h) of `layout`, of
 * cuFFT type `type`, in h (created), on the run's stream; panel makes its
 * row plans with it. */
cufftResult tb__poisson_cols_make(const tb_ctx_t *ctx, cufftHandle h, int layout, int which,
                                  cufftType type);

namespace {

/* The name of a cuFFT result, as cufft.h spells it. */
const char *tb_cufft_name(cufftResult r)
{
  static const char *const names[] = {
      "CUFFT_SUCCESS",        "CUFFT_INVALID_PLAN",   "CUFFT_ALLOC_FAILED",
      "CUFFT_INVALID_TYPE",   "CUFFT_INVALID_VALUE",  "CUFFT_INTERNAL_ERROR",
      "CUFFT_EXEC_FAILED",    "CUFFT_SETUP_FAILED",   "CUFFT_INVALID_SIZE",
      "CUFFT_UNALIGNED_DATA", NULL,                   "CUFFT_INVALID_DEVICE",
      NULL,                   "CUFFT_NO_WORKSPACE",   "CUFFT_NOT_IMPLEMENTED",
      NULL,                   "CUFFT_NOT_SUPPORTED",  "CUFFT_MISSING_DEPENDENCY",
      "CUFFT_NVRTC_FAILURE",  "CUFFT_NVJITLINK_FAILURE", "CUFFT_NVSHMEM_FAILURE"};
  const int k = (int)r;
  return k >= 0 && k < TB_COUNT(names) && names[k] ? names[k] : "an unknown cuFFT result";
}

/* cuFFT's failures as twinbench statuses (an allocation failure is
 * TB_ENOMEM, so that a size over the device's memory says so), with the
 * place of the call. */
int tb_cufft_status(cufftResult r, const char *what, const char *file, int line)
{
  return tb_fail(r == CUFFT_ALLOC_FAILED ? TB_ENOMEM : TB_EDEVICE,
                 "%s: %s (cuFFT error %d) at %s:%d", what, tb_cufft_name(r), (int)r, file, line);
}

#define TB_CUFFT(call)                                                                          \
  do {                                                                                          \
    cufftResult tb_r_ = (call);                                                                 \
    if (tb_r_ != CUFFT_SUCCESS)                                                                 \
      return tb_cufft_status(tb_r_, #call, __FILE__, __LINE__);                                \
  } while (0)

/* cuFFT's types and calls by precision. */
template <typename T> struct tb_fft;
template <> struct tb_fft<float> {
  typedef cufftComplex C;
  static constexpr cufftType c2c = CUFFT_C2C, r2c = CUFFT_R2C, c2r = CUFFT_C2R;
  static constexpr cufftXtCallbackType store = CUFFT_CB_ST_COMPLEX, load = CUFFT_CB_LD_COMPLEX;
  static constexpr const char *store_name = "tb_poisson_cb_store_f";
  static constexpr const char *load_name = "tb_poisson_cb_load_f";
  static cufftResult exec_c2c(cufftHandle h, C *w, int dir) { return cufftExecC2C(h, w, w, dir); }
  static cufftResult exec_r2c(cufftHandle h, float *in, C *out) { return cufftExecR2C(h, in, out); }
  static cufftResult exec_c2r(cufftHandle h, C *in, float *out) { return cufftExecC2R(h, in, out); }
};
template <> struct tb_fft<double> {
  typedef cufftDoubleComplex C;
  static constexpr cufftType c2c = CUFFT_Z2Z, r2c = CUFFT_D2Z, c2r = CUFFT_Z2D;
  static constexpr cufftXtCallbackType store = CUFFT_CB_ST_COMPLEX_DOUBLE,
                                       load = CUFFT_CB_LD_COMPLEX_DOUBLE;
  static constexpr const char *store_name = "tb_poisson_cb_store_d";
  static constexpr const char *load_name = "tb_poisson_cb_load_d";
  static cufftResult exec_c2c(cufftHandle h, C *w, int dir) { return cufftExecZ2Z(h, w, w, dir); }
  static cufftResult exec_r2c(cufftHandle h, double *in, C *out) { return cufftExecD2Z(h, in, out); }
  static cufftResult exec_c2r(cufftHandle h, C *in, double *out) { return cufftExecZ2D(h, in, out); }
};

/* The tuning parameter side of the callback variants: the solve in a
 * forward transform's store callback or an inverse transform's load
 * callback. */
enum { TB_CB_STORE, TB_CB_LOAD };
const char *const tb_poisson_cb_sides[] = {"store", "load", NULL};

/* The names of the tuning parameter layout of cols and panel, in the order
 * of TB_CL_NATURAL, TB_CL_TRANSPOSED (poisson_cols.h). */
const char *const tb_poisson_cols_layouts[] = {"natural", "transposed", NULL};

/* The stages of a pipeline, in order, and their breakdown columns. */
enum { TB_PS_IN, TB_PS_FWD, TB_PS_SOLVE, TB_PS_INV, TB_PS_OUT, TB_NSTAGES };

/* The solve's constants (tb_poisson_multiplier's, and the callbacks'): the
 * problem's N, dimension, 2 pi / L and 1 / N^dim, and `row`, the length by
 * which the callbacks split a value's offset into its indices. The half
 * spectrum's natural layout has rows of N/2 + 1 values; a layout with the
 * half axis outermost has rows of N. |k|^2 is a sum over the indices and
 * each index below N gives its own frequency, so either split yields the
 * same multiplier. */
tb_poisson_cb_info tb_poisson_cb_make(const tb_poisson_t *s, int64_t row)
{
  const tb_poisson_cb_info info = {s->n, row, s->dim, s->rows * s->half < ((int64_t)1 << 32),
                                   2.0 * M_PI / s->L, 1.0 / (double)s->total};
  return info;
}

/* The callbacks' constants (tb_poisson_cb_make) on the device (*dev, freed
 * by the caller). The copy runs in the legacy stream: both callers
 * synchronise the device before any plan that reads it runs. */
int tb_poisson_cb_put(const tb_poisson_t *s, int64_t row, tb_poisson_cb_info **dev)
{
  const tb_poisson_cb_info info = tb_poisson_cb_make(s, row);
  TB_CUDA(cudaMalloc(dev, sizeof info));
  TB_CUDA(cudaMemcpy(*dev, &info, sizeof info, cudaMemcpyHostToDevice));
  return TB_OK;
}

/* Set the LTO callback of `side` (precision T) on plan h, created and not
 * yet made, with the caller-info array info_ptr (it must live as long as
 * the plan), then make the plan with make(h), a call named `maker`. The
 * callback is linked when the plan is made; where cuFFT cannot set or link
 * it, the result is TB_EUNSUP (the runner notes and skips the variant) with
 * what failed: the call, cuFFT's result, the callback's symbol, the plan
 * (`what`), the device's architecture and those the LTO-IR was built for
 * (an architecture above all of them is still linked: the LTO-IR of the
 * highest is finalised for it through PTX). */
template <typename T, typename Make>
int tb_poisson_make_cb(const tb_ctx_t *ctx, cufftHandle h, int side, void **info_ptr,
                       const char *what, const char *maker, Make make)
{
  const tb_device_info_t *dev = tb_gpu_dev(ctx);
  const int store = side == TB_CB_STORE;
  const char *sym = store ? tb_fft<T>::store_name : tb_fft<T>::load_name;
  const char *call = "cufftXtSetJITCallback";
  cufftResult r = cufftXtSetJITCallback(h, sym, tb_poisson_cb_fatbin, sizeof tb_poisson_cb_fatbin,
                                        store ? tb_fft<T>::store : tb_fft<T>::load, info_ptr);
  if (r == CUFFT_SUCCESS) {
    call = maker;
    r = make(h);
  }
  if (r == CUFFT_ALLOC_FAILED)
    return tb_cufft_status(r, call, __FILE__, __LINE__);
  if (r == CUFFT_SUCCESS)
    return TB_OK;
  int ver = 0;
  cufftGetVersion(&ver);
  return tb_fail(TB_EUNSUP,
                 "the LTO %s callback %s on the %s plan: %s returned %s (cuFFT error %d); "
                 "device sm_%d%d, callback LTO-IR for sm_%s (nvcc %s), cuFFT %d, which "
                 "compiles its glue with libnvrtc and links it with libnvJitLink, both "
                 "loaded from libcufft's folder at plan time",
                 store ? "store" : "load", sym, what, call, tb_cufft_name(r), (int)r,
                 dev->cc_major, dev->cc_minor, TB_POISSON_CB_ARCHS, TB_POISSON_CB_NVCC, ver);
}

/* One run of a pipeline: stage(g) for each stage g in `has` (a bit each,
 * TB_PS_...), in order, until one fails. */
template <typename Stage> int tb_poisson_run_stages(unsigned has, Stage stage)
{
  int rc = TB_OK;
  for (int g = 0; g < TB_NSTAGES && !rc; g++)
    if (has >> g & 1u)
      rc = stage(g);
  return rc;
}

/* The breakdown: TB_POISSON_STAGE_RUNS runs more, untimed by the runner, an
 * event before the first stage and after each, and each stage's median in
 * its column. `has` holds a bit for each stage (TB_PS_...) of the pipeline,
 * stage(g) launches stage g on the run's stream. The outputs are the same as
 * the timed runs'. */
template <typename Stage> int tb_poisson_time_stages(tb_ctx_t *ctx, unsigned has, Stage stage)
{
  enum { R = TB_POISSON_STAGE_RUNS };
  static const int column[TB_NSTAGES] = {TB_POISSON_IN_MS, TB_POISSON_FWD_MS, TB_POISSON_SOLVE_MS,
                                         TB_POISSON_INV_MS, TB_POISSON_OUT_MS};
  cudaStream_t stream = tb_gpu_stream(ctx);
  cudaEvent_t ev[TB_NSTAGES + 1];
  double ms[TB_NSTAGES][R];
  int made = 0, rc = TB_OK;
  cudaError_t e = cudaSuccess;
  for (; made <= TB_NSTAGES && e == cudaSuccess; made++)
    e = cudaEventCreate(&ev[made]);
  if (e != cudaSuccess)
    made--;
  for (int r = 0; r < R && e == cudaSuccess && !rc; r++) {
    int at = 0, mark[TB_NSTAGES];
    e = cudaEventRecord(ev[0], stream);
    for (int g = 0; g < TB_NSTAGES && e == cudaSuccess && !rc; g++) {
      mark[g] = -1;
      if (!(has >> g & 1u))
        continue;
      if (!(rc = stage(g)))
        e = cudaEventRecord(ev[++at], stream);
      mark[g] = at;
    }
    if (e == cudaSuccess && !rc)
      e = cudaEventSynchronize(ev[at]);
    for (int g = 0; g < TB_NSTAGES && e == cudaSuccess && !rc; g++) {
      float t = NAN;
      if (mark[g] > 0)
        e = cudaEventElapsedTime(&t, ev[mark[g] - 1], ev[mark[g]]);
      ms[g][r] = t;
    }
  }
  for (int k = 0; k < made; k++)
    cudaEventDestroy(ev[k]);
  if (rc)
    return rc;
  TB_CUDA(e);
  for (int g = 0; g < TB_NSTAGES; g++) {
    tb_stats_t st;
    ctx->extra[column[g]] = (has >> g & 1u) && !tb_stats_compute(ms[g], R, &st) ? st.median : NAN;
  }
  return TB_OK;
}

} /* namespace */

#endif
