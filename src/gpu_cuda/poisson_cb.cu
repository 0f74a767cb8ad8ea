/* twinbench: the Poisson family's cuFFT store callbacks, compiled to LTO-IR
 * (a fatbin the build embeds in poisson.cu) and linked into the forward
 * R2C plan at run time by cufftXtSetJITCallback: the solve applied as the
 * transform stores each value of the half spectrum, so that no kernel and no
 * pass over memory is left for it. The symbols are extern "C" so that the
 * plan finds them by these names. */
#include <cufftXt.h>

#include "poisson_cb.h"

namespace {

/* The multiplier of half-spectrum value `offset`: -scale / |k|^2, 0 for the
 * zero mode. The index splits into the row r (2-D: i1; 3-D: i0 N + i1) and
 * the column c; 32-bit divisions where the spectrum allows (all sizes the
 * family benchmarks). */
template <typename T>
__device__ __forceinline__ T tb_cb_factor(unsigned long long offset, const tb_poisson_cb_info *in)
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
  const long long n = in->n;
  const T k0 = (T)in->k0;
  const T kc = k0 * (T)((long long)c < n / 2 ? (long long)c : (long long)c - n);
  const T ka = k0 * (T)((long long)i1 < n / 2 ? (long long)i1 : (long long)i1 - n);
  const T kb = k0 * (T)((long long)i0 < n / 2 ? (long long)i0 : (long long)i0 - n);
  const T k2 = kc * kc + ka * ka + kb * kb;
  return k2 > T(0) ? -(T)in->scale / k2 : T(0);
}

/* Store v times its multiplier at `offset` of the half spectrum. */
template <typename T, typename C>
__device__ __forceinline__ void tb_cb_store(void *out, unsigned long long offset, C v, void *info)
{
  const T g = tb_cb_factor<T>(offset, (const tb_poisson_cb_info *)info);
  v.x *= g;
  v.y *= g;
  ((C *)out)[offset] = v;
}

} /* namespace */

extern "C" __device__ void tb_poisson_cb_store_f(void *out, unsigned long long offset,
                                                 cufftComplex v, void *info, void *smem)
{
  (void)smem;
  tb_cb_store<float>(out, offset, v, info);
}

extern "C" __device__ void tb_poisson_cb_store_d(void *out, unsigned long long offset,
                                                 cufftDoubleComplex v, void *info, void *smem)
{
  (void)smem;
  tb_cb_store<double>(out, offset, v, info);
}
