/* twinbench: what the Poisson family's cuFFT callbacks (poisson_cb.cu) read
 * through their caller_info pointer: the shape of the half spectrum and the
 * solve's constants. */
#ifndef TB_POISSON_CB_H
#define TB_POISSON_CB_H

typedef struct tb_poisson_cb_info {
  long long n;    /* N, points a side */
  long long half; /* N / 2 + 1, the complex values of a row */
  int dim;        /* 2 or 3 */
  int small;      /* the half spectrum has fewer than 2^32 values: 32-bit index math */
  double k0;      /* 2 pi / L */
  double scale;   /* 1 / N^dim */
} tb_poisson_cb_info;

#ifdef __CUDACC__
/* The solve's multiplier of the half-spectrum value of column c and row
 * indices i1 and i0 (2-D: i0 = 0): -scale / |k|^2, 0 for the zero mode,
 * computed in T from the indices' signed frequencies. The callbacks
 * (poisson_cb.cu), which split an offset into these indices, and panel's
 * kernel (poisson_panel.cuh), which knows them, share it. */
template <typename T>
__host__ __device__ __forceinline__ T tb_poisson_multiplier(long long c, long long i1, long long i0,
                                                            const tb_poisson_cb_info *in)
{
  const long long n = in->n;
  const T k0 = (T)in->k0;
  const T kc = k0 * (T)(c < n / 2 ? c : c - n);
  const T ka = k0 * (T)(i1 < n / 2 ? i1 : i1 - n);
  const T kb = k0 * (T)(i0 < n / 2 ? i0 : i0 - n);
  const T k2 = kc * kc + ka * ka + kb * kb;
  return k2 > T(0) ? -(T)in->scale / k2 : T(0);
}
#endif

#endif
