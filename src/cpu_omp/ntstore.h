/* twinbench: non-temporal (streaming) stores for the OpenMP twins and the
 * CPU's ceilings. A non-temporal store writes a whole vector register to
 * memory without first reading the line it lands in (no write-allocate)
 * and without keeping it in the caches: for outputs far larger than the
 * caches that saves a third of a copy's traffic and a quarter of a triad's;
 * for outputs that would have stayed in cache it loses. x86 only; elsewhere
 * TB_HAVE_NT is 0 and the kernels store plainly. */
#ifndef TB_NTSTORE_H
#define TB_NTSTORE_H

#include <omp.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "../families/stream.h"
#include "cpu.h"

/* The build's vector registers. */
#if defined(__AVX512F__)
#define TB_VB 64
#define TB_VB_BITS "512"
#elif defined(__AVX__)
#define TB_VB 32
#define TB_VB_BITS "256"
#else
#define TB_VB 16
#define TB_VB_BITS "128"
#endif

/* Vectors of floats and doubles in registers, and the same at any element
 * alignment for loads from the arrays. */
typedef float tb_vf __attribute__((vector_size(TB_VB)));
typedef float tb_vfu __attribute__((vector_size(TB_VB), aligned(4), __may_alias__));
typedef double tb_vd __attribute__((vector_size(TB_VB)));
typedef double tb_vdu __attribute__((vector_size(TB_VB), aligned(8), __may_alias__));

#if defined(__SSE2__)
#define TB_HAVE_NT 1
/* Store v to dst (aligned to TB_VB) with a non-temporal store. */
static inline void tb_nt_f32(float *dst, tb_vf v)
{
#if defined(__AVX512F__)
  _mm512_stream_ps(dst, (__m512)v);
#elif defined(__AVX__)
  _mm256_stream_ps(dst, (__m256)v);
#else
  _mm_stream_ps(dst, (__m128)v);
#endif
}

static inline void tb_nt_f64(double *dst, tb_vd v)
{
#if defined(__AVX512F__)
  _mm512_stream_pd(dst, (__m512d)v);
#elif defined(__AVX__)
  _mm256_stream_pd(dst, (__m256d)v);
#else
  _mm_stream_pd(dst, (__m128d)v);
#endif
}

/* Order a thread's non-temporal stores before the region's barrier, so
 * that the other threads (and the verifier) see them. */
static inline void tb_nt_fence(void)
{
  _mm_sfence();
}
#else
#define TB_HAVE_NT 0
#endif

#if TB_HAVE_NT
/* For element type T (SFX f32 or f64, VTU its unaligned vector type):
 * tb_nt_span writes c[lo, hi) of STREAM's copy, scale, add or triad (op:
 * TB_STREAM_*; a copy of a alone takes b NULL) with non-temporal stores:
 * plainly up to the first element of c on a vector boundary and after the
 * last whole vector, streamed between; the caller fences. tb_nt_stream runs
 * it on each thread's static share (tb_cpu_share, the split the arrays were
 * first-touched with) and fences. */
#define TB_NT_STREAM_KERNEL(T, SFX, VTU)                                                         \
  static inline T tb_nt_elem_##SFX(int op, const T *a, const T *b, T q, int64_t i)               \
  {                                                                                              \
    return op == TB_STREAM_COPY    ? a[i]                                                        \
           : op == TB_STREAM_SCALE ? q * a[i]                                                    \
           : op == TB_STREAM_ADD   ? a[i] + b[i]                                                 \
                                   : a[i] + q * b[i];                                            \
  }                                                                                              \
  static inline void tb_nt_span_##SFX(int op, T *restrict c, const T *restrict a,               \
                                      const T *restrict b, T q, int64_t lo, int64_t hi)          \
  {                                                                                              \
    enum { L = TB_VB / sizeof(T) };                                                              \
    int64_t i;                                                                                   \
    for (i = lo; i < hi && (uintptr_t)(c + i) % TB_VB != 0; i++)                                 \
      c[i] = tb_nt_elem_##SFX(op, a, b, q, i);                                                   \
    switch (op) {                                                                                \
    case TB_STREAM_COPY:                                                                         \
      for (; i + L <= hi; i += L)                                                                \
        tb_nt_##SFX(c + i, *(const VTU *)(a + i));                                               \
      break;                                                                                     \
    case TB_STREAM_SCALE:                                                                        \
      for (; i + L <= hi; i += L)                                                                \
        tb_nt_##SFX(c + i, q * *(const VTU *)(a + i));                                           \
      break;                                                                                     \
    case TB_STREAM_ADD:                                                                          \
      for (; i + L <= hi; i += L)                                                                \
        tb_nt_##SFX(c + i, *(const VTU *)(a + i) + *(const VTU *)(b + i));                       \
      break;                                                                                     \
    default:                                                                                     \
      for (; i + L <= hi; i += L)                                                                \
        tb_nt_##SFX(c + i, *(const VTU *)(a + i) + q * *(const VTU *)(b + i));                   \
    }                                                                                            \
    for (; i < hi; i++)                                                                          \
      c[i] = tb_nt_elem_##SFX(op, a, b, q, i);                                                   \
  }                                                                                              \
  static inline void tb_nt_stream_##SFX(int op, T *restrict c, const T *restrict a,             \
                                        const T *restrict b, T q, int64_t n, int threads)        \
  {                                                                                              \
    _Pragma("omp parallel num_threads(threads)")                                                 \
    {                                                                                            \
      int64_t lo, hi;                                                                            \
      tb_cpu_share(n, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);                    \
      tb_nt_span_##SFX(op, c, a, b, q, lo, hi);                                                  \
      tb_nt_fence();                                                                             \
    }                                                                                            \
  }

TB_NT_STREAM_KERNEL(float, f32, tb_vfu)
TB_NT_STREAM_KERNEL(double, f64, tb_vdu)
#endif

#endif
