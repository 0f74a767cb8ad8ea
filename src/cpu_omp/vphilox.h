/* twinbench: Philox4x32-10 blocks in vectors, for the OpenMP twins.
 *
 * A Philox round multiplies two 32-bit words into 64-bit products and keeps
 * both halves. x86 vectors have no 32-bit multiply-high; their widening
 * multiply (vpmuludq: the low 32 bits of each 64-bit lane into a 64-bit
 * product) does both halves at once. So the words of eight blocks live in
 * 64-bit lanes: a product is one multiply, its high word one swap of the
 * lane's halves, and its low word is the product itself (the next multiply
 * and the xors read only the low 32 bits of a lane; what is above them
 * there never reaches a result). A round is then two multiplies, two swaps
 * and two three-way xors per eight blocks. GCC does not find this on its
 * own: from the scalar (uint64_t)a * b on 32-bit words in a simd loop it
 * widens the words and uses the full 64-bit multiply (vpmullq: three
 * micro-operations on Intel cores), or keeps 256-bit vectors.
 *
 * Why a swap (vpshufd) and not a shift right by 32 (vpsrlq): on Intel's
 * cores with 512-bit vectors the immediate shifts issue on port 0 only,
 * the swap on port 5, so the swap takes the high words off the port that
 * the shifts would crowd, the multiplies and xors being free to use both;
 * on this build machine's Zen cores the two cost the same (the gain there
 * is the packing below). And why 32-bit lanes do not win: a
 * 16-lane round needs the same four multiplies (even and odd words), and
 * the high and low words of both products must then be interleaved back
 * into 16 lanes (four permutes), against four swaps and two more xors here.
 *
 * Sixteen blocks go through the rounds at a time, as two vectors of eight
 * (two independent chains: a round is a multiply, a swap and a xor in a
 * row, some 7 cycles, so the rounds of one vector alone would leave the
 * ports idle); their words leave as one 16-lane vector a word, gathered
 * from the low halves of both by one two-source permute (vpermt2d) where
 * narrowing each (vpmovqd) takes two micro-operations per eight blocks.
 *
 * With AVX-512 the blocks are made sixteen at a time with intrinsics;
 * without it, one at a time by philox.h. Both give philox.h's words bit for
 * bit (tests/test_options.c compares them). */
#ifndef TB_VPHILOX_H
#define TB_VPHILOX_H

#include <stdint.h>

#include "../common/philox.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

/* The blocks a call makes at a time: n is rounded up to it. */
#if defined(__AVX512F__)
#define TB_VPHILOX_LANES 16
#else
#define TB_VPHILOX_LANES 1
#endif

#if defined(__AVX512F__)
/* One Philox round on eight blocks in 64-bit lanes (c[0..3] the words),
 * with the round keys ka, kb: the high words by a swap of each lane's
 * halves, which leaves them in the low halves the xors and the next
 * multiply read. */
static inline void tb__vphilox_round(__m512i c[4], __m512i m0, __m512i m1, __m512i ka, __m512i kb)
{
  const __m512i p0 = _mm512_mul_epu32(c[0], m0), p1 = _mm512_mul_epu32(c[2], m1);
  const __m512i h0 = _mm512_shuffle_epi32(p0, (_MM_PERM_ENUM)0xB1);
  const __m512i h1 = _mm512_shuffle_epi32(p1, (_MM_PERM_ENUM)0xB1);
  c[0] = _mm512_ternarylogic_epi64(h1, c[1], ka, 0x96);
  c[1] = p1;
  c[2] = _mm512_ternarylogic_epi64(h0, c[3], kb, 0x96);
  c[3] = p0;
}
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
  const __m512i lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), eight = _mm512_set1_epi64(8);
  /* the low halves of the 64-bit lanes of a (elements 0, 2, ..., 14), then of b (16, ...) */
  const __m512i low = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  for (int64_t i = 0; i < n; i += TB_VPHILOX_LANES) {
    /* the counter's low word wraps modulo 2^32 as philox.h's does: the
     * multiplies read only the low halves, where lo + i + lane wraps */
    const __m512i c0 = _mm512_add_epi64(_mm512_set1_epi64((int64_t)(uint32_t)(lo + (uint32_t)i)),
                                        lane);
    __m512i x[4] = {c0, c1i, c2i, _mm512_setzero_si512()};
    __m512i y[4] = {_mm512_add_epi64(c0, eight), c1i, c2i, _mm512_setzero_si512()};
    for (int r = 0; r < 10; r++) {
      tb__vphilox_round(x, m0, m1, k0[r], k1[r]);
      tb__vphilox_round(y, m0, m1, k0[r], k1[r]);
    }
    for (int j = 0; j < 4; j++)
      _mm512_storeu_si512(w[j] + i, _mm512_permutex2var_epi32(x[j], low, y[j]));
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
