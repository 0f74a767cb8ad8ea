/* twinbench: Philox4x32-10 counter-based random numbers, for host and device.
 *
 * One header serves C host code, C++ host code and CUDA device code, so that a
 * problem generated on the host and one generated inside a kernel see the same
 * 32-bit words and the same uniforms, bit for bit: every conversion below is
 * exact integer arithmetic or an exactly representable floating-point result.
 *
 * The generator is the one published by Salmon, Moraes, Dror and Shaw,
 * "Parallel random numbers: as easy as 1, 2, 3" (SC'11): ten rounds of a
 * Feistel-like network built on 32x32->64-bit multiplication, with a Weyl
 * key schedule. A counter of four words and a key of two words give four
 * output words; advancing the counter gives a new independent block.
 *
 * twinbench's convention: the key is the 64-bit seed; the counter is
 * {block low word, block high word, stream, 0}, where the stream tells apart
 * the independent sequences of one problem (one per input array, say). */
#ifndef TB_PHILOX_H
#define TB_PHILOX_H

#include <math.h>
#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tb_philox4 {
  uint32_t v[4];
} tb_philox4_t;

typedef struct tb_philox_key {
  uint32_t v[2];
} tb_philox_key_t;

/* The round multipliers and the Weyl key increments (golden ratio, sqrt(3)-1). */
#define TB_PHILOX_M0 0xD2511F53u
#define TB_PHILOX_M1 0xCD9E8D57u
#define TB_PHILOX_W0 0x9E3779B9u
#define TB_PHILOX_W1 0xBB67AE85u

/* One Philox round: two 32x32 products whose halves are mixed with the key. */
static inline TB_HD tb_philox4_t tb__philox_round(tb_philox4_t c, tb_philox_key_t k)
{
  tb_philox4_t o;
#if defined(__CUDA_ARCH__)
  /* The high and low words as two 32-bit multiplies: nvcc turns the 64-bit
   * product below into a wide multiply plus an add of zero per word. */
  o.v[0] = __umulhi(TB_PHILOX_M1, c.v[2]) ^ c.v[1] ^ k.v[0];
  o.v[1] = TB_PHILOX_M1 * c.v[2];
  o.v[2] = __umulhi(TB_PHILOX_M0, c.v[0]) ^ c.v[3] ^ k.v[1];
  o.v[3] = TB_PHILOX_M0 * c.v[0];
#else
  uint64_t p0 = (uint64_t)TB_PHILOX_M0 * c.v[0];
  uint64_t p1 = (uint64_t)TB_PHILOX_M1 * c.v[2];
  o.v[0] = (uint32_t)(p1 >> 32) ^ c.v[1] ^ k.v[0];
  o.v[1] = (uint32_t)p1;
  o.v[2] = (uint32_t)(p0 >> 32) ^ c.v[3] ^ k.v[1];
  o.v[3] = (uint32_t)p0;
#endif
  return o;
}

/* Philox4x32-10: four random words from counter c under key k. */
static inline TB_HD tb_philox4_t tb_philox4x32_10(tb_philox4_t c, tb_philox_key_t k)
{
  c = tb__philox_round(c, k);
  /* Unrolled, the ten rounds are straight-line code: a CPU loop over blocks
   * then vectorizes (the option twins' simd loops rely on it). */
#if defined(__CUDA_ARCH__)
#pragma unroll
#elif defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC unroll 9
#endif
  for (int r = 1; r < 10; r++) {
    k.v[0] += TB_PHILOX_W0;
    k.v[1] += TB_PHILOX_W1;
    c = tb__philox_round(c, k);
  }
  return c;
}

/* The four words of block `block` of stream `stream` under seed `seed`. */
static inline TB_HD tb_philox4_t tb_philox_block(uint64_t seed, uint32_t stream, uint64_t block)
{
  tb_philox4_t c;
  tb_philox_key_t k;
  c.v[0] = (uint32_t)block;
  c.v[1] = (uint32_t)(block >> 32);
  c.v[2] = stream;
  c.v[3] = 0;
  k.v[0] = (uint32_t)seed;
  k.v[1] = (uint32_t)(seed >> 32);
  return tb_philox4x32_10(c, k);
}

/* A float uniform on the open interval (0, 1) from the top 23 bits of x:
 * (k + 1/2) 2^-23 is exact in single precision, so host and device agree.
 * Written k 2^-23 + 2^-24 (both terms and the sum exact) so that a compiler
 * may fuse it into one multiply-add without changing a bit. */
static inline TB_HD float tb_u01_f32(uint32_t x)
{
  return (float)(x >> 9) * 1.1920928955078125e-07f + 5.9604644775390625e-08f; /* 2^-23, 2^-24 */
}

/* A double uniform on (0, 1) from 52 bits of two words, exact likewise. */
static inline TB_HD double tb_u01_f64(uint32_t hi, uint32_t lo)
{
  uint64_t k = ((uint64_t)hi << 20) ^ (uint64_t)(lo >> 12);
  return ((double)k + 0.5) * 2.220446049250313e-16; /* 2^-52 */
}

/* Two independent standard normals from two uniforms on (0, 1) (Box-Muller).
 * Host and device libraries round log/sin/cos differently, so these agree to
 * a few units in the last place, not bit for bit. */
static inline TB_HD void tb_box_muller_f32(float u1, float u2, float *z0, float *z1)
{
  float r = sqrtf(-2.0f * logf(u1));
  float t = 6.28318530717958647692f * u2;
  *z0 = r * cosf(t);
  *z1 = r * sinf(t);
}

static inline TB_HD void tb_box_muller_f64(double u1, double u2, double *z0, double *z1)
{
  double r = sqrt(-2.0 * log(u1));
  double t = 6.28318530717958647692 * u2;
  *z0 = r * cos(t);
  *z1 = r * sin(t);
}

/* The largest |z| tb_box_muller draws: sqrt(-2 ln u1) at the smallest u1,
 * 6.7 in float (counting cuRAND's 2^-32), 8.6 in double. */
static inline double tb_box_muller_zmax(tb_prec_t prec)
{
  return prec == TB_FLOAT ? 6.7 : 8.6;
}

#ifdef __cplusplus
}
#endif
#endif
