/* twinbench: the Poisson family's cuFFT LTO callbacks, compiled to LTO-IR
 * (a fatbin the build embeds in poisson.cu) and linked into a plan at run
 * time by cufftXtSetJITCallback: the solve applied as the forward R2C
 * transform stores each value of the half spectrum (store callbacks), or as
 * the inverse C2R transform loads it (load callbacks), so that no kernel and
 * no pass over memory is left for it.
 *
 * Linkage: cuFFT compiles a small wrapper with NVRTC that declares the
 * callback by the name given to cufftXtSetJITCallback, as a C++ function of
 * the documented signature (cufftJITCallbackStoreC and the others in
 * cufftXt.h), and links it with this fatbin through nvJitLink. The wrapper
 * therefore refers to the C++ (mangled) symbol of exactly that signature:
 * these functions must have C++ linkage, sit in the global namespace and
 * match the signature to the type (unsigned long long offset). An extern "C"
 * definition leaves the wrapper's reference unresolved and the plan fails
 * with CUFFT_INTERNAL_ERROR (the H200 run of 2026-11-24). */
#include <cufftXt.h>

#include "poisson_cb.h"

namespace {

/* The multiplier of half-spectrum value `offset`: -scale / |k|^2, 0 for the
 * zero mode. The index splits into the row r (2-D: i1; 3-D: i0 N + i1) and
 * the column c; 32-bit divisions where the spectrum allows (all sizes the
 * family benchmarks). Host code too, so that tests/test_poisson_cols_layout
 * checks it. */
template <typename T>
__host__ __device__ __forceinline__ T tb_cb_factor(unsigned long long offset, const tb_poisson_cb_info *in)
{
  unsigned long long r, c, i0 = 0, i1;
  if (in->small) {
    const unsigned o = (unsigned)offset, h = (unsigned)in->half;
    r = o / h;
    c = o - (unsigned)r * h;
  } else {
    r = offset / in->half;
    c = offset - r * in->half;
  }
  if (in->dim == 3) {
    i0 = r / in->n;
    i1 = r - i0 * in->n;
  } else {
    i1 = r;
  }
  return tb_poisson_multiplier<T>((long long)c, (long long)i1, (long long)i0, in);
}

/* v times the multiplier of its place in the half spectrum. */
template <typename T, typename C>
__device__ __forceinline__ C tb_cb_solve(C v, unsigned long long offset, const void *info)
{
  const T g = tb_cb_factor<T>(offset, (const tb_poisson_cb_info *)info);
  v.x *= g;
  v.y *= g;
  return v;
}

} /* namespace */

/* The store callbacks of the forward R2C plan (CUFFT_CB_ST_COMPLEX and
 * CUFFT_CB_ST_COMPLEX_DOUBLE): the solved value stored in its place. */
__device__ void tb_poisson_cb_store_f(void *out, unsigned long long offset, cufftComplex v,
                                      void *info, void *smem)
{
  (void)smem;
  ((cufftComplex *)out)[offset] = tb_cb_solve<float>(v, offset, info);
}

__device__ void tb_poisson_cb_store_d(void *out, unsigned long long offset, cufftDoubleComplex v,
                                      void *info, void *smem)
{
  (void)smem;
  ((cufftDoubleComplex *)out)[offset] = tb_cb_solve<double>(v, offset, info);
}

/* The load callbacks of the inverse C2R plan (CUFFT_CB_LD_COMPLEX and
 * CUFFT_CB_LD_COMPLEX_DOUBLE): the spectrum as the forward transform left
 * it, solved as it is read. */
__device__ cufftComplex tb_poisson_cb_load_f(void *in, unsigned long long offset, void *info,
                                             void *smem)
{
  (void)smem;
  return tb_cb_solve<float>(((const cufftComplex *)in)[offset], offset, info);
}

__device__ cufftDoubleComplex tb_poisson_cb_load_d(void *in, unsigned long long offset,
                                                   void *info, void *smem)
{
  (void)smem;
  return tb_cb_solve<double>(((const cufftDoubleComplex *)in)[offset], offset, info);
}
