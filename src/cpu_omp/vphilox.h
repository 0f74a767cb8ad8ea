/* twinbench: Philox4x32-10 blocks in vectors, for the OpenMP twins.
 *
 * A Philox round multiplies two 32-bit words into 64-bit products and keeps
 * both halves. x86 vectors have no 32-bit multiply-high; their widening
 * multiply (vpmuludq: the low 32 bits of each 64-bit lane into a 64-bit
 * product) does both halves at once. So the words of eight blocks live in
 * 64-bit lanes: a product is one multiply, its high word one shift, and its
 * low word is the product itself (the next multiply reads only the low 32
 * bits of its lane; what is above them there never reaches a result). A
 * round is then two multiplies, two shifts and two three-way xors per
 * eight blocks. GCC does not find this on its own: from the scalar
 * (uint64_t)a * b on 32-bit words in a simd loop it widens the words and
 * uses the full 64-bit multiply (vpmullq: three micro-operations on Intel
 * cores), or keeps 256-bit vectors.
 *
 * With AVX-512 the blocks are made eight at a time with intrinsics; without
 * it, one at a time by philox.h. Both give philox.h's words bit for bit
 * (tests/test_options.c compares them). */
#ifndef TB_VPHILOX_H
#define TB_VPHILOX_H

#include <stdint.h>

#include "../common/philox.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

/* The blocks a call makes at a time: n is rounded up to it. */
#if defined(__AVX512F__)
#define TB_VPHILOX_LANES 8
#else
#define TB_VPHILOX_LANES 1
#endif

/* Words 0 to 3 of blocks (hi << 32 | (lo + i)) of stream `stream` under
 * `seed`, i in [0, n rounded up to TB_VPHILOX_LANES), into w[0..3][i]: the
 * arrays must hold that many. */
static inline void tb_vphilox_blocks(uint64_t seed, uint32_t stream, uint32_t hi, uint32_t lo,
                                     int64_t n, uint32_t *const w[4])
{
#if defined(__AVX512F__)
  /* The round keys, and the counter words every block shares. */
  __m512i k0[10], k1[10];
  uint32_t a = (uint32_t)seed, b = (uint32_t)(seed >> 32);
  for (int r = 0; r < 10; r++, a += TB_PHILOX_W0, b += TB_PHILOX_W1) {
    k0[r] = _mm512_set1_epi64(a);
    k1[r] = _mm512_set1_epi64(b);
  }
  const __m512i m0 = _mm512_set1_epi64(TB_PHILOX_M0), m1 = _mm512_set1_epi64(TB_PHILOX_M1);
  const __m512i c1i = _mm512_set1_epi64(hi), c2i = _mm512_set1_epi64(stream);
  const __m512i lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  for (int64_t i = 0; i < n; i += TB_VPHILOX_LANES) {
    __m512i c0 = _mm512_add_epi64(_mm512_set1_epi64((int64_t)(uint32_t)(lo + (uint32_t)i)), lane);
    __m512i c1 = c1i, c2 = c2i, c3 = _mm512_setzero_si512();
    for (int r = 0; r < 10; r++) {
      const __m512i p0 = _mm512_mul_epu32(c0, m0), p1 = _mm512_mul_epu32(c2, m1);
      c0 = _mm512_ternarylogic_epi64(_mm512_srli_epi64(p1, 32), c1, k0[r], 0x96);
      c1 = p1;
      c2 = _mm512_ternarylogic_epi64(_mm512_srli_epi64(p0, 32), c3, k1[r], 0x96);
      c3 = p0;
    }
    _mm256_storeu_si256((__m256i *)(w[0] + i), _mm512_cvtepi64_epi32(c0));
    _mm256_storeu_si256((__m256i *)(w[1] + i), _mm512_cvtepi64_epi32(c1));
    _mm256_storeu_si256((__m256i *)(w[2] + i), _mm512_cvtepi64_epi32(c2));
    _mm256_storeu_si256((__m256i *)(w[3] + i), _mm512_cvtepi64_epi32(c3));
  }
#else
  for (int64_t i = 0; i < n; i++) {
    const tb_philox4_t b =
        tb_philox_block(seed, stream, (uint64_t)hi << 32 | (uint32_t)(lo + (uint32_t)i));
    for (int j = 0; j < 4; j++)
      w[j][i] = b.v[j];
  }
#endif
}

#endif
