/* twinbench: what the spectral Poisson family's CUDA twins (poisson.cu,
 * poisson_mpi.cu) share of cuFFT: its results as twinbench statuses and its
 * types and calls by precision (CUDA C++ only). */
#ifndef TB_POISSON_FFT_CUH
#define TB_POISSON_FFT_CUH

#include <cufft.h>
#include <cufftXt.h>

#include "../common/algo.h"
#include "../common/status.h"

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
 * TB_ENOMEM, so that a size over the device's memory says so). */
int tb_cufft_status(cufftResult r, const char *what, const char *file, int line)
{
  return tb_fail(r == CUFFT_ALLOC_FAILED ? TB_ENOMEM : TB_EDEVICE,
                 "%s: %s (cuFFT error %d) at %s:%d", what, tb_cufft_name(r), (int)r, file, line);
}

#define TB_CUFFT(call)                                                                          \
  do {                                                                                          \
    cufftResult tb_r_ = (call);                                                                 \
    if (tb_r_ != CUFFT_SUCCESS)                                                                 \
      return tb_cufft_status(tb_r_, #call, __FILE__, __LINE__);                                 \
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

} /* namespace */

#endif
