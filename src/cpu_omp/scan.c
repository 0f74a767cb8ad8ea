/* twinbench: the prefix sum's OpenMP twins.
 *
 * serial   one running sum (depth n);
 * twopass  the blocked two-pass scan in rounds: in each round every thread
 *          takes the next block of `tile` elements (block r T + t), sums it
 *          (pass 1, a simd reduction), the team meets at a barrier, each
 *          thread adds the totals before its block to the carry of the
 *          earlier rounds and scans its block with that offset (pass 2, in
 *          vectors: in-register shift-and-add prefixes and a carry whose
 *          chain is one addition a vector). The block is still in the thread's cache for pass 2,
 *          so memory sees x read once and y written once; y is written
 *          through a small buffer with non-temporal stores where the CPU
 *          has them (no write-allocate read of y). With --sync lookback
 *          the rounds' barriers go: each block publishes its total and
 *          then its inclusive prefix in a flag word of its own, and a
 *          thread looks back over the blocks before its own (at most the
 *          team's size of them) for its offset, as the GPU's single-pass
 *          scan does between tiles; threads then drift apart, so that some
 *          read memory while others write it, instead of all reading and
 *          then all writing between two barriers. With --prefetch next
 *          pass 2 also prefetches the thread's next block into L2, chunk by
 *          chunk, so that its reads overlap this block's writes; with
 *          --prefetch pass1 pass 2 runs the next block's pass 1 chunk by
 *          chunk, so that a thread reads and writes at once, as a copy
 *          does. With --sync lookback and --assign counter a thread takes
 *          each next block from a shared counter instead of t + k T, so
 *          that a faster thread takes more blocks and a slower one fewer
 *          (column imbalance: the most blocks a thread scanned over the
 *          mean). Pass 1 keeps --chains independent vector sums (float's
 *          additions take 4 cycles), and the team's waits for each other
 *          are timed (column wait);
 * jump     pointer jumping (Hillis and Steele) on the CPU: ceil(log2 n)
 *          parallel passes y'_i = y_i + y_{i-d}, d = 1, 2, 4, ..., between
 *          y and a second buffer: O(n log n) work, to show its cost here too.
 * int32 adds in uint32_t: the sums wrap modulo 2^32 (the problem's rule),
 * where signed overflow would be undefined. */
#include <config.h>

#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../common/refmath.h"
#include "../families/scan.h"
#include "cpu.h"
#include "ntstore.h"

/* The elements pass 2 scans into a thread's buffer before streaming them to y. */
enum { TB_SCAN_CHUNK = 1024 };
/* The most blocks a thread sums ahead of its look-back (--lag), plus one. */
enum { TB_SCAN_LAGS = 4 };
/* The blocks a thread holds taken in the look-back: the one it scans, its
 * next (--prefetch) and those it sums ahead (--lag): at most TB_SCAN_LAGS + 1. */
enum { TB_SCAN_RING = 8 };

/* A value of any of the problem's element types. */
typedef union tb_scan_val {
  uint32_t i;
  float f;
  double d;
} tb_scan_val_t;

/* One thread's block total, alone on its cache line; two per thread, used
 * in alternate rounds, so that one barrier a round suffices. */
typedef struct tb_scan_slot {
  tb_scan_val_t v;
  char pad[64 - sizeof(double)];
} tb_scan_slot_t;

/* A block's state in the look-back (sync lookback), alone on its cache
 * line: its total (agg) and its inclusive prefix (incl), each written once
 * before the flag that announces it is released, so that a reader who
 * acquired the flag reads a finished value. */
enum { TB_LINK_NONE, TB_LINK_AGG, TB_LINK_INCL };
typedef struct tb_scan_link {
  tb_scan_val_t agg, incl;
  atomic_int flag;
  char pad[64 - 2 * sizeof(tb_scan_val_t) - sizeof(atomic_int)];
} tb_scan_link_t;

/* The next block to take (--assign counter), alone on its cache line, so
 * that the threads' fetch-adds do not share a line with a block's state. */
typedef struct tb_scan_counter {
  atomic_llong next;
  char pad[64 - sizeof(atomic_llong)];
} tb_scan_counter_t;

typedef struct tb_scan_cpu {
  tb_scan_slot_t *slot; /* twopass, sync barrier: 2 x threads */
  tb_scan_link_t *link; /* twopass, sync lookback: one a block */
  tb_scan_counter_t *counter; /* twopass, assign counter: the next block to take */
  void *tmp;            /* jump: the second buffer */
  int vw;               /* twopass: pass 2's vector width, 0, 1, 2: 16, 32, 64 bytes */
  int prefetch;         /* twopass: what pass 2 does about the thread's next block (TB_PREFETCH_*) */
  int64_t pfdist;       /* twopass, prefetch pass1: chunks pass 1 prefetches ahead (0: none) */
  int chains;           /* twopass: pass 1's independent sums, 0, 1, 2: 1, 2, 4 of them */
  int carry;            /* twopass: pass 2's vectors a carry step, 0, 1, 2: 1, 2, 4 */
  int lag;              /* twopass, sync lookback: the thread's blocks summed ahead of its look-back */
  double waited;        /* twopass: seconds the team spent waiting for other threads, summed */
  int64_t most;         /* twopass: the most blocks one thread scanned in the last run */
} tb_scan_cpu_t;

/* The flag of a block once it has left TB_LINK_NONE (acquired), polled
 * politely (tb_cpu_backoff); the seconds spent polling, if any, are added
 * to *waited (the clock is read only when the first poll fails). */
static inline int tb_scan_wait(atomic_int *flag, double *waited)
{
  int f = atomic_load_explicit(flag, memory_order_acquire);
  if (f != TB_LINK_NONE)
    return f;
  const double t0 = omp_get_wtime();
  for (int spins = 0; (f = atomic_load_explicit(flag, memory_order_acquire)) == TB_LINK_NONE;
       spins++)
    tb_cpu_backoff(spins);
  *waited += omp_get_wtime() - t0;
  return f;
}

/* Copy len elements of ELEM bytes from a thread's buffer to dst: streamed
 * (non-temporal) where the CPU has such stores, plainly otherwise. The
 * copy moves bits (int32 goes as float lanes). */
static void tb_scan_put(void *dst, const void *buf, int64_t len, size_t elem)
{
#if TB_HAVE_NT
  if (elem == 4)
    tb_nt_span_f32(TB_STREAM_COPY, dst, buf, NULL, 0.0f, 0, len);
  else
    tb_nt_span_f64(TB_STREAM_COPY, dst, buf, NULL, 0.0, 0, len);
#else
  memcpy(dst, buf, (size_t)len * elem);
#endif
}

/* Non-temporal stores need a fence before the region's end; plain stores none. */
static inline void tb_scan_fence(void)
{
#if TB_HAVE_NT
  tb_nt_fence();
#endif
}

/* The vectors pass 2 may scan in (tuning simd) are 16, 32 or 64 bytes
 * wide (width index 0, 1, 2), and auto's the widest the target has. Every
 * width compiles on every target (GCC splits a vector wider than the
 * target's), so a sweep can compare them: GCC itself prefers 32-byte
 * vectors on some AVX-512 CPUs. */
#if defined(__AVX512F__)
#define TB_SCAN_AUTO_WIDTH 2
#elif defined(__AVX__)
#define TB_SCAN_AUTO_WIDTH 1
#else
#define TB_SCAN_AUTO_WIDTH 0
#endif

/* Pass 2 of one chunk in vectors of B bytes of element type T (M: its slot
 * member; I: the integer type of T's width, for the shuffles' lane masks): each
 * vector's in-register prefix (log2 of its lanes shift-and-add steps,
 * shifting in zeros), plus the carry of everything before it. The carry is
 * the broadcast of the vector's last prefix added to the old carry, which
 * is the very value (same operands, same rounding) that broadcasting the
 * last output would give, but leaves only that one addition on the chain
 * from vector to vector: GCC's inscan loop broadcasts the last output and
 * so also carries the broadcast's latency, which for float (4-cycle adds)
 * made pass 2 about half as fast as for int32. With K > 1 (tuning carry)
 * a step takes K vectors: vector k > 0 adds the broadcast totals of the
 * step's vectors before it (a running sum off the chain) and then the
 * carry, and the carry takes the step's total at once: one addition on the
 * chain every K vectors, float's 4 cycles shared by 16 K lanes of 64 bytes
 * where int32 has 1 cycle a vector. An element then sees at most
 * log2(lanes) + K + 1 additions inside its vector and step, plus one per
 * earlier step of the block: within the tile the bound allows (doc/scan.md).
 * Returns the elements done (a multiple of the lanes); *s is the carry
 * after them. */
#define TB_SCAN_VEC_KERNEL(T, M, I, B)                                                           \
  typedef T tb_vec_##M##B __attribute__((vector_size(B)));                                       \
  typedef I tb_lane_##M##B __attribute__((vector_size(B)));                                      \
  /* One step of K vectors at x (the masks in up, steps of them). */                             \
  static inline __attribute__((always_inline)) void tb_vstep_##M##B(                             \
      const T *restrict x, T *restrict buf, tb_vec_##M##B *carry, int excl, int K,               \
      const tb_lane_##M##B *up, int steps)                                                       \
  {                                                                                              \
    enum { W = B / (int)sizeof(T) };                                                             \
    const tb_vec_##M##B zero = {0};                                                              \
    const tb_lane_##M##B last = (tb_lane_##M##B){0} + (I)(W - 1);                                \
    tb_vec_##M##B local = zero;                                                                  \
    for (int k = 0; k < K; k++) {                                                                \
      tb_vec_##M##B v;                                                                           \
      memcpy(&v, x + k * W, sizeof v);                                                           \
      for (int j = 0; j < steps; j++)                                                            \
        v += __builtin_shuffle(v, zero, up[j]);                                                  \
      /* The exclusive prefix of lane j is the inclusive one of lane j - 1. */                   \
      tb_vec_##M##B p = excl ? __builtin_shuffle(v, zero, up[0]) : v;                            \
      if (k > 0)                                                                                 \
        p += local;                                                                              \
      const tb_vec_##M##B out = *carry + p;                                                      \
      memcpy(buf + k * W, &out, sizeof out);                                                     \
      /* The broadcast of the vector's total (a shuffle, not an addition). */                    \
      local = k > 0 ? local + __builtin_shuffle(v, last) : __builtin_shuffle(v, last);           \
    }                                                                                            \
    *carry += local;                                                                             \
  }                                                                                              \
  static inline __attribute__((always_inline)) int64_t tb_vscan_##M##B(                          \
      const T *restrict x, T *restrict buf, int64_t len, T *s, int excl, int K)                  \
  {                                                                                              \
    enum { W = B / (int)sizeof(T) };                                                             \
    /* up[k]: lane i takes lane i - 2^k, lanes below 2^k a zero (an index */                     \
    /* past W picks the second operand's, a zero vector's, lane). */                             \
    tb_lane_##M##B up[6];                                                                        \
    int steps = 0;                                                                               \
    for (int d = 1; d < W; d <<= 1, steps++)                                                     \
      for (int i = 0; i < W; i++)                                                                \
        up[steps][i] = (I)(i >= d ? i - d : W + i);                                              \
    tb_vec_##M##B carry = (tb_vec_##M##B){0} + *s;                                               \
    int64_t i = 0;                                                                               \
    for (; i + K * W <= len; i += K * W)                                                         \
      tb_vstep_##M##B(x + i, buf + i, &carry, excl, K, up, steps);                               \
    for (; i + W <= len; i += W)                                                                 \
      tb_vstep_##M##B(x + i, buf + i, &carry, excl, 1, up, steps);                               \
    *s = carry[0];                                                                               \
    return i;                                                                                    \
  }                                                                                              \
  static int64_t tb_vscan_##M##B##_1(const T *restrict x, T *restrict buf, int64_t len, T *s,    \
                                     int excl)                                                   \
  {                                                                                              \
    return tb_vscan_##M##B(x, buf, len, s, excl, 1);                                             \
  }                                                                                              \
  static int64_t tb_vscan_##M##B##_2(const T *restrict x, T *restrict buf, int64_t len, T *s,    \
                                     int excl)                                                   \
  {                                                                                              \
    return tb_vscan_##M##B(x, buf, len, s, excl, 2);                                             \
  }                                                                                              \
  static int64_t tb_vscan_##M##B##_4(const T *restrict x, T *restrict buf, int64_t len, T *s,    \
                                     int excl)                                                   \
  {                                                                                              \
    return tb_vscan_##M##B(x, buf, len, s, excl, 4);                                             \
  }

/* Pass 1 of len elements in vectors of B bytes (after TB_SCAN_VEC_KERNEL,
 * whose vector type it uses): their sum, kept in K independent vector sums
 * (tuning chains) that meet at the end. Each vector's addition waits for
 * the previous one on its chain: one sum is GCC's simd reduction, which for
 * float and double (4-cycle additions, 1 for int32) caps a core at one
 * vector per 4 cycles, 16 bytes a cycle with 64-byte vectors, where 2 loads
 * a cycle would allow 128. Any order of additions keeps the block total's
 * depth within the tile's (doc/scan.md). */
#define TB_SCAN_SUM_KERNEL(T, M, B, K)                                                           \
  static T tb_vsum_##M##B##_##K(const T *restrict x, int64_t len)                                \
  {                                                                                              \
    enum { W = B / (int)sizeof(T) };                                                             \
    tb_vec_##M##B acc[K];                                                                        \
    for (int k = 0; k < K; k++)                                                                  \
      acc[k] = (tb_vec_##M##B){0};                                                               \
    int64_t i = 0;                                                                               \
    for (; i + K * W <= len; i += K * W)                                                         \
      for (int k = 0; k < K; k++) {                                                              \
        tb_vec_##M##B v;                                                                         \
        memcpy(&v, x + i + k * W, sizeof v);                                                     \
        acc[k] += v;                                                                             \
      }                                                                                          \
    for (int k = 1; k < K; k++)                                                                  \
      acc[0] += acc[k];                                                                          \
    T s = 0;                                                                                     \
    for (int j = 0; j < W; j++)                                                                  \
      s += acc[0][j];                                                                            \
    for (; i < len; i++)                                                                         \
      s += x[i];                                                                                 \
    return s;                                                                                    \
  }

/* The scan and sum kernels of every width (and for the sums, every number
 * of chains: 1, 2, 4) for element type T, and their tables. */
#define TB_SCAN_VEC_WIDTH(T, M, I, B)                                                            \
  TB_SCAN_VEC_KERNEL(T, M, I, B)                                                                 \
  TB_SCAN_SUM_KERNEL(T, M, B, 1)                                                                 \
  TB_SCAN_SUM_KERNEL(T, M, B, 2)                                                                 \
  TB_SCAN_SUM_KERNEL(T, M, B, 4)
#define TB_SCAN_VEC_KERNELS(T, M, I)                                                             \
  TB_SCAN_VEC_WIDTH(T, M, I, 16)                                                                 \
  TB_SCAN_VEC_WIDTH(T, M, I, 32)                                                                 \
  TB_SCAN_VEC_WIDTH(T, M, I, 64)                                                                 \
  static int64_t (*const tb_vscan_##M[][3])(const T *restrict, T *restrict, int64_t, T *,        \
                                            int) = {                                             \
      {tb_vscan_##M##16_1, tb_vscan_##M##16_2, tb_vscan_##M##16_4},                              \
      {tb_vscan_##M##32_1, tb_vscan_##M##32_2, tb_vscan_##M##32_4},                              \
      {tb_vscan_##M##64_1, tb_vscan_##M##64_2, tb_vscan_##M##64_4}};                             \
  static T (*const tb_vsum_##M[][3])(const T *restrict, int64_t) = {                             \
      {tb_vsum_##M##16_1, tb_vsum_##M##16_2, tb_vsum_##M##16_4},                                 \
      {tb_vsum_##M##32_1, tb_vsum_##M##32_2, tb_vsum_##M##32_4},                                 \
      {tb_vsum_##M##64_1, tb_vsum_##M##64_2, tb_vsum_##M##64_4}};

TB_SCAN_VEC_KERNELS(uint32_t, i, uint32_t)
TB_SCAN_VEC_KERNELS(float, f, int32_t)
TB_SCAN_VEC_KERNELS(double, d, int64_t)

/* What pass 2 does about the thread's next block (tuning prefetch): nothing;
 * prefetch it into L2; or read and sum it (its pass 1), chunk by chunk. */
enum { TB_PREFETCH_OFF, TB_PREFETCH_NEXT, TB_PREFETCH_PASS1 };

/* Block b's elements [lo, hi) in blocks of `tile`, cut at n (a block at or
 * past n is empty). */
static inline void tb_scan_span(int64_t b, int64_t tile, int64_t n, int64_t *lo, int64_t *hi)
{
  *lo = b * tile < n ? b * tile : n;
  *hi = *lo + tile < n ? *lo + tile : n;
}

/* The block a thread takes k-th (k = 0, 1, ...) in the look-back: with
 * --assign static block t + k nt (round-robin), with counter the shared
 * counter's next (a relaxed fetch-add: the index orders no data, the
 * blocks' flags do, by release and acquire). Either way a thread's blocks
 * come in increasing order. */
static inline int64_t tb_scan_take(tb_scan_counter_t *counter, int t, int nt, int64_t k)
{
  if (counter)
    return (int64_t)atomic_fetch_add_explicit(&counter->next, 1, memory_order_relaxed);
  return t + k * nt;
}

/* Keep in st the most blocks one thread scanned (mine: this thread's). */
static void tb_scan_most(tb_scan_cpu_t *st, int64_t mine)
{
#pragma omp critical(tb_scan_most)
  if (mine > st->most)
    st->most = mine;
}

/* Prefetch the elements [p, p + len) of x (elements of e bytes) that lie
 * below end, into every cache level (l1 nonzero) or into L2. */
static inline void tb_scan_prefetch(const void *x, size_t e, int64_t p, int64_t len, int64_t end,
                                    int l1)
{
  if (p < end)
    tb_cpu_prefetch((const char *)x + p * (int64_t)e, (size_t)(end - p < len ? end - p : len) * e,
                    l1);
}

/* The kernels for element type T (M: its slot member). */
#define TB_SCAN_CPU_KERNELS(T, M)                                                                \
  static void tb_serial_##M(const T *restrict x, T *restrict y, int64_t n, int excl)            \
  {                                                                                              \
    T s = 0;                                                                                     \
    if (excl)                                                                                    \
      for (int64_t i = 0; i < n; i++) {                                                          \
        y[i] = s;                                                                                \
        s += x[i];                                                                               \
      }                                                                                          \
    else                                                                                         \
      for (int64_t i = 0; i < n; i++) {                                                          \
        s += x[i];                                                                               \
        y[i] = s;                                                                                \
      }                                                                                          \
  }                                                                                              \
                                                                                                 \
  /* Pass 1 of x[lo, hi): its sum, in the vectors and chains of st. */                           \
  static T tb_block_sum_##M(const T *restrict x, int64_t lo, int64_t hi,                         \
                            const tb_scan_cpu_t *st)                                             \
  {                                                                                              \
    return tb_vsum_##M[st->vw][st->chains](x + lo, hi - lo);                                     \
  }                                                                                              \
                                                                                                 \
  /* Pass 2 of one block: y[lo, hi) from offset s, through buf. With */                          \
  /* --prefetch next each chunk also prefetches into L2 the chunk nt */                          \
  /* blocks on (`ahead` elements: the thread's next block). With */                              \
  /* --prefetch pass1 each chunk also runs pass 1 over the chunk at the same */                  \
  /* place in [nlo, nhi) (the thread's next block; else that is empty) and */                    \
  /* returns its sum; that block is never longer than this one (it starts */                     \
  /* later and both end at n at the latest), so this block's chunks cover */                     \
  /* it. After its chunk's sum pass 1 prefetches, into every level, the */                       \
  /* chunk --pfdist chunks on: those reads fly while this chunk is scanned */                    \
  /* and written, where the hardware prefetchers stop at each 4 KiB page. */                     \
  static T tb_block_scan_##M(const T *restrict x, T *restrict y, int64_t lo, int64_t hi, T s,    \
                             int excl, int64_t n, int64_t ahead, int64_t nlo, int64_t nhi,       \
                             const tb_scan_cpu_t *st, T *restrict buf)                           \
  {                                                                                              \
    const int64_t dist = st->pfdist * TB_SCAN_CHUNK;                                             \
    T next = 0;                                                                                  \
    for (int64_t c = lo; c < hi; c += TB_SCAN_CHUNK) {                                           \
      const int64_t len = hi - c < TB_SCAN_CHUNK ? hi - c : TB_SCAN_CHUNK;                       \
      const T *restrict xc = x + c;                                                              \
      if (ahead)                                                                                 \
        tb_scan_prefetch(x, sizeof(T), c + ahead, len, n, 0);                                    \
      const int64_t a = nlo + (c - lo);                                                          \
      if (a < nhi) {                                                                             \
        next += tb_block_sum_##M(x, a, a + len < nhi ? a + len : nhi, st);                       \
        if (dist)                                                                                \
          tb_scan_prefetch(x, sizeof(T), a + dist, len, nhi, 1);                                 \
      }                                                                                          \
      /* The vectors, then the last few elements one by one. */                                  \
      for (int64_t i = tb_vscan_##M[st->vw][st->carry](xc, buf, len, &s, excl); i < len; i++) {  \
        buf[i] = excl ? s : s + xc[i];                                                           \
        s += xc[i];                                                                              \
      }                                                                                          \
      tb_scan_put(y + c, buf, len, sizeof(T));                                                   \
    }                                                                                            \
    return next;                                                                                 \
  }                                                                                              \
                                                                                                 \
  /* The blocks in rounds: in round r thread t takes block r nt + t, sums */                     \
  /* it (or has summed it during the previous round's pass 2, with */                            \
  /* --prefetch pass1), publishes the total in the round's set of slots, */                      \
  /* meets the team at a barrier and scans the block from the totals before */                   \
  /* it. Two sets of slots, used in alternate rounds, suffice: a thread */                       \
  /* writes round r + 1's slot only after the barrier of round r, which */                       \
  /* every reader of round r - 1's slots (the same set) has passed. */                           \
  static void tb_rounds_##M(const T *restrict x, T *restrict y, int64_t n, int excl,            \
                            int threads, int64_t tile, tb_scan_cpu_t *st)                        \
  {                                                                                              \
    _Pragma("omp parallel num_threads(threads)")                                                 \
    {                                                                                            \
      const int t = omp_get_thread_num(), nt = omp_get_num_threads();                           \
      const int pipe = st->prefetch == TB_PREFETCH_PASS1;                                        \
      /* The thread's next block starts nt blocks on. */                                         \
      const int64_t ahead = st->prefetch == TB_PREFETCH_NEXT ? (int64_t)nt * tile : 0;           \
      T buf[TB_SCAN_CHUNK] __attribute__((aligned(64)));                                         \
      T carry = 0, part = 0;                                                                     \
      double waited = 0;                                                                         \
      int64_t mine = 0;                                                                          \
      int64_t lo, hi, nlo, nhi;                                                                  \
      if (pipe) {                                                                                \
        tb_scan_span(t, tile, n, &lo, &hi);                                                      \
        part = tb_block_sum_##M(x, lo, hi, st);                                                  \
      }                                                                                          \
      for (int64_t r = 0; r * nt * tile < n; r++) {                                              \
        tb_scan_span(r * nt + t, tile, n, &lo, &hi);                                             \
        tb_scan_span(pipe ? (r + 1) * nt + t : (n + tile - 1) / tile, tile, n, &nlo, &nhi);      \
        tb_scan_slot_t *tot = st->slot + (r & 1) * nt;                                               \
        if (!pipe)                                                                               \
          part = tb_block_sum_##M(x, lo, hi, st);                                                \
        tot[t].v.M = part;                                                                       \
        const double t0 = omp_get_wtime();                                                       \
        _Pragma("omp barrier")                                                                   \
        waited += omp_get_wtime() - t0;                                                          \
        T off = carry;                                                                           \
        for (int j = 0; j < t; j++)                                                              \
          off += tot[j].v.M;                                                                     \
        T all = off;                                                                             \
        for (int j = t; j < nt; j++)                                                             \
          all += tot[j].v.M;                                                                     \
        carry = all;                                                                             \
        part = tb_block_scan_##M(x, y, lo, hi, off, excl, n, ahead, nlo, nhi, st, buf);          \
        mine += lo < hi;                                                                         \
      }                                                                                          \
      tb_scan_fence();                                                                           \
      _Pragma("omp atomic")                                                                      \
      st->waited += waited;                                                                      \
      tb_scan_most(st, mine);                                                                    \
    }                                                                                            \
  }                                                                                              \
                                                                                                 \
  /* The blocks of `tile` elements chained by look-back: the flags (and the */                   \
  /* counter) reset (one barrier), then each thread takes its blocks in */                       \
  /* increasing order (tb_scan_take: round-robin, or from the counter) and */                    \
  /* for each publishes its total, finds its offset from the blocks before */                    \
  /* it (the nearest inclusive prefix plus the totals after it), publishes */                    \
  /* its prefix and scans the block from its offset while it is still in */                      \
  /* cache. With --prefetch pass1 a block's total comes from the pass 2 of */                    \
  /* the thread's block before it (the first block's from a pass of its */                       \
  /* own). A thread takes its next block (with --prefetch) and the blocks */                     \
  /* it sums ahead (--lag) before it scans this one: the same blocks as */                       \
  /* before with static, the counter's next ones with counter. */                                \
  /* No deadlock either way: the counter hands out 0, 1, 2, ... in order, */                     \
  /* so all the blocks before a taken one are taken too. The lowest block */                     \
  /* whose prefix is not yet published belongs to a thread whose earlier */                      \
  /* blocks all are (they are lower); until it scans that block the thread */                    \
  /* only sums, takes and scans, none of which waits, and the block's */                         \
  /* look-back waits only for lower blocks, all published: it finishes, */                       \
  /* and so, block after block, do all. */                                                       \
  static void tb_chained_##M(const T *restrict x, T *restrict y, int64_t n, int excl,            \
                             int threads, int64_t tile, tb_scan_cpu_t *st)                       \
  {                                                                                              \
    const int64_t blocks = (n + tile - 1) / tile;                                                \
    tb_scan_link_t *link = st->link;                                                             \
    _Pragma("omp parallel num_threads(threads)")                                                 \
    {                                                                                            \
      const int t = omp_get_thread_num(), nt = omp_get_num_threads();                            \
      const int pipe = st->prefetch == TB_PREFETCH_PASS1;                                        \
      /* The blocks the thread takes beyond the one it scans. */                                 \
      const int64_t reach = st->lag + (st->prefetch != TB_PREFETCH_OFF);                         \
      T buf[TB_SCAN_CHUNK] __attribute__((aligned(64)));                                         \
      /* The thread's blocks in the order it took them (its k-th at */                           \
      /* k % TB_SCAN_RING) and the totals of those summed ahead: k, the */                       \
      /* next to scan; ks, the next to sum; kt, the next to take. */                             \
      int64_t qb[TB_SCAN_RING], k = 0, ks = 0, kt = 0, mine = 0;                                 \
      T qs[TB_SCAN_RING], part = 0;                                                              \
      double waited = 0;                                                                         \
      int64_t lo, hi, nlo, nhi;                                                                  \
      for (int64_t b = t; b < blocks; b += nt)                                                   \
        atomic_store_explicit(&link[b].flag, TB_LINK_NONE, memory_order_relaxed);                \
      if (st->counter && t == 0)                                                                 \
        atomic_store_explicit(&st->counter->next, 0, memory_order_relaxed);                      \
      _Pragma("omp barrier")                                                                     \
      for (;; k++, mine++) {                                                                     \
        for (; kt <= k + reach; kt++)                                                            \
          qb[kt % TB_SCAN_RING] = tb_scan_take(st->counter, t, nt, kt);                          \
        const int64_t b = qb[k % TB_SCAN_RING];                                                  \
        if (b >= blocks)                                                                         \
          break;                                                                                 \
        /* The thread's next block (past the last: none to prefetch or sum). */                  \
        const int64_t nb = reach > st->lag ? qb[(k + 1) % TB_SCAN_RING] : blocks;                \
        const int64_t ahead = st->prefetch == TB_PREFETCH_NEXT ? (nb - b) * tile : 0;            \
        tb_scan_span(b, tile, n, &lo, &hi);                                                      \
        tb_scan_span(pipe ? nb : blocks, tile, n, &nlo, &nhi);                                   \
        if (pipe) {                                                                              \
          if (k == 0)                                                                            \
            part = tb_block_sum_##M(x, lo, hi, st);                                              \
          link[b].agg.M = part;                                                                  \
          atomic_store_explicit(&link[b].flag, TB_LINK_AGG, memory_order_release);               \
        } else {                                                                                 \
          /* This block's total, and with --lag L those of the thread's */                       \
          /* next L blocks, summed and published before its look-back. */                        \
          for (; ks <= k + st->lag && qb[ks % TB_SCAN_RING] < blocks; ks++) {                    \
            const int64_t bs = qb[ks % TB_SCAN_RING];                                            \
            int64_t slo, shi;                                                                    \
            tb_scan_span(bs, tile, n, &slo, &shi);                                               \
            qs[ks % TB_SCAN_RING] = tb_block_sum_##M(x, slo, shi, st);                           \
            link[bs].agg.M = qs[ks % TB_SCAN_RING];                                              \
            atomic_store_explicit(&link[bs].flag, TB_LINK_AGG, memory_order_release);            \
          }                                                                                      \
          part = qs[k % TB_SCAN_RING];                                                           \
        }                                                                                        \
        T off = 0;                                                                               \
        for (int64_t j = b - 1; j >= 0; j--) {                                                   \
          if (tb_scan_wait(&link[j].flag, &waited) == TB_LINK_INCL) {                            \
            off += link[j].incl.M;                                                               \
            break;                                                                               \
          }                                                                                      \
          off += link[j].agg.M;                                                                  \
        }                                                                                        \
        link[b].incl.M = off + part;                                                             \
        atomic_store_explicit(&link[b].flag, TB_LINK_INCL, memory_order_release);                \
        part = tb_block_scan_##M(x, y, lo, hi, off, excl, n, ahead, nlo, nhi, st, buf);          \
      }                                                                                          \
      tb_scan_fence();                                                                           \
      _Pragma("omp atomic")                                                                      \
      st->waited += waited;                                                                      \
      tb_scan_most(st, mine);                                                                    \
    }                                                                                            \
  }                                                                                              \
                                                                                                 \
  /* twopass: chained by look-back where prepare made the blocks' states, */                     \
  /* else in rounds between barriers. */                                                         \
  static void tb_twopass_##M(const T *restrict x, T *restrict y, int64_t n, int excl,           \
                             int threads, int64_t tile, tb_scan_cpu_t *st)                       \
  {                                                                                              \
    if (st->link)                                                                                \
      tb_chained_##M(x, y, n, excl, threads, tile, st);                                          \
    else                                                                                         \
      tb_rounds_##M(x, y, n, excl, threads, tile, st);                                           \
  }                                                                                              \
                                                                                                 \
  /* One pass of pointer jumping: dst_i = src_i + src_{i-d} (0 below d); the */                  \
  /* first pass reads x itself, shifted by one place for an exclusive scan. */                   \
  static void tb_jump_##M(const T *restrict x, T *restrict y, T *restrict tmp, int64_t n,       \
                          int excl, int threads, int steps)                                      \
  {                                                                                              \
    for (int k = 0; k < steps; k++) {                                                            \
      const int64_t d = (int64_t)1 << k;                                                         \
      T *restrict dst = (steps - 1 - k) % 2 == 0 ? y : tmp;                                      \
      const T *restrict src = dst == y ? tmp : y;                                                \
      if (k == 0) {                                                                              \
        const int64_t sh = excl ? 1 : 0;                                                         \
        _Pragma("omp parallel for simd schedule(static) num_threads(threads)")                   \
        for (int64_t i = 0; i < n; i++) {                                                        \
          T a = i >= sh ? x[i - sh] : 0, b = i >= d + sh ? x[i - d - sh] : 0;                    \
          dst[i] = a + b;                                                                        \
        }                                                                                        \
      } else {                                                                                   \
        _Pragma("omp parallel for simd schedule(static) num_threads(threads)")                   \
        for (int64_t i = 0; i < n; i++)                                                          \
          dst[i] = i >= d ? src[i] + src[i - d] : src[i];                                        \
      }                                                                                          \
    }                                                                                            \
  }

TB_SCAN_CPU_KERNELS(uint32_t, i)
TB_SCAN_CPU_KERNELS(float, f)
TB_SCAN_CPU_KERNELS(double, d)

enum { TB_SV_SERIAL, TB_SV_TWOPASS, TB_SV_JUMP };

/* The passes of pointer jumping over n elements: ceil(log2 n), at least one
 * (which, for n = 1, copies or shifts x into y). */
static int tb_scan_jump_steps(int64_t n)
{
  int s = tb_log2_ceil(n);
  return s > 0 ? s : 1;
}

static const char *const tb_scan_syncs[] = {"barrier", "lookback", NULL};
static const char *const tb_scan_chains[] = {"1", "2", "4", NULL};
static const char *const tb_scan_prefetches[] = {"off", "next", "pass1", NULL};
static const char *const tb_scan_assigns[] = {"auto", "static", "counter", NULL};
/* The choices of simd: auto, then the width indexes 0, 1, 2 in order. */
static const char *const tb_scan_simds[] = {"auto", "16", "32", "64", NULL};
enum { TB_SYNC_BARRIER, TB_SYNC_LOOKBACK };
enum { TB_ASSIGN_AUTO, TB_ASSIGN_STATIC, TB_ASSIGN_COUNTER };

static const tb_param_def_t tb_scan_cpu_tuning[] = {
    {"tile", "elements a thread scans per round (twopass): its block stays in its core's "
             "cache between the two passes; larger tiles take fewer rounds (a barrier each)",
     TB_PARAM_INT, "32768", 64, 1 << 24, NULL, 0, "16384,32768,65536,131072,262144"},
    {"sync", "how a block finds its offset (twopass): barrier, the team meets after each "
             "round's totals; lookback, each block looks back over the blocks before it for "
             "their published totals and prefixes, no barrier", TB_PARAM_CHOICE, "lookback", 0,
     0, tb_scan_syncs, 0, "barrier,lookback"},
    {"prefetch", "what pass 2 (twopass) does about the thread's next block while it scans and "
                 "streams out this one: off, nothing; next, prefetches it into L2; pass1, reads "
                 "and sums it (that block's pass 1)", TB_PARAM_CHOICE, "off", 0, 0,
     tb_scan_prefetches, 0, "off,next,pass1"},
    {"pfdist", "with --prefetch pass1 (twopass), how many 1024-element chunks ahead of its "
               "reads pass 1 of the next block prefetches (0: none, the hardware's prefetchers "
               "alone)", TB_PARAM_INT, "1", 0, 64, NULL, 0, "0,1,2,4"},
    {"chains", "independent vector sums pass 1 (twopass) keeps: 1, one chain of additions "
               "(GCC's simd reduction); 2 or 4 interleaved, for float and double's 4-cycle "
               "additions", TB_PARAM_CHOICE, "4", 0, 0, tb_scan_chains, 0, "1,2,4"},
    {"carry", "vectors pass 2 (twopass) scans a step: 1, the running carry takes one "
              "addition a vector; 2 or 4, one addition a step (a step's vectors add their "
              "earlier totals off the chain)", TB_PARAM_CHOICE, "1", 0, 0, tb_scan_chains, 0,
     "1,2,4"},
    {"simd", "bytes of the vectors pass 1 sums and pass 2 scans in (twopass): 16, 32 or 64; "
             "auto, the widest the target has", TB_PARAM_CHOICE, "auto", 0, 0, tb_scan_simds, 0, "16,32,64"},
    {"lag", "with --sync lookback (twopass), how many of its next blocks a thread sums and "
            "publishes before it looks back for this block's offset: 0, none; L, its look-back "
            "waits L blocks later, L + 1 blocks held in its cache", TB_PARAM_INT, "0", 0,
     TB_SCAN_LAGS - 1, NULL, 0, "0,1,2"},
    {"assign", "twopass: which blocks a thread scans: static, block t + k T, round-robin; "
               "counter (--sync lookback), the next block of a shared counter, so that a faster "
               "thread takes more of them; auto: counter with the look-back, static with "
               "barrier rounds", TB_PARAM_CHOICE, "auto", 0, 0, tb_scan_assigns, 0,
     "static,counter"},
};

static int tb_scan_cpu_prepare(tb_ctx_t *ctx, int kind)
{
  const tb_problem_t *p = ctx->p;
  const int threads = tb_cpu_threads(ctx);
  tb_scan_cpu_t *st = calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  switch (kind) {
  case TB_SV_SERIAL:
    ctx->extra[TB_SCAN_DEPTH] = (double)p->n;
    ctx->extra[TB_SCAN_LAUNCHES] = 1;
    break;
  case TB_SV_TWOPASS: {
    const int64_t tile = tb_tune(ctx, "tile")->i, blocks = (p->n + tile - 1) / tile;
    const int simd = (int)tb_tune(ctx, "simd")->i;
    st->vw = simd > 0 ? simd - 1 : TB_SCAN_AUTO_WIDTH;
    st->prefetch = (int)tb_tune(ctx, "prefetch")->i;
    st->pfdist = tb_tune(ctx, "pfdist")->i;
    st->chains = (int)tb_tune(ctx, "chains")->i;
    st->carry = (int)tb_tune(ctx, "carry")->i;
    st->lag = (int)tb_tune(ctx, "lag")->i;
    const int lookback = tb_tune(ctx, "sync")->i == TB_SYNC_LOOKBACK;
    if (st->lag && !lookback)
      return tb_fail(TB_EUNSUP, "lag=%d: only the look-back waits (--sync lookback)", st->lag);
    if (st->lag && st->prefetch == TB_PREFETCH_PASS1)
      return tb_fail(TB_EUNSUP, "lag=%d: --prefetch pass1 sums the next block in pass 2 instead",
                     st->lag);
    /* auto: the counter wherever the look-back lets it, measured ahead of
     * the round-robin deal at 16 threads (doc/scan.md, "--assign"). */
    int assign = (int)tb_tune(ctx, "assign")->i;
    if (assign == TB_ASSIGN_AUTO)
      assign = lookback ? TB_ASSIGN_COUNTER : TB_ASSIGN_STATIC;
    tb_tune_resolved(ctx, "assign", assign);
    const int counter = assign == TB_ASSIGN_COUNTER;
    if (counter && !lookback)
      return tb_fail(TB_EUNSUP, "assign=counter: the barrier rounds deal the blocks round-robin "
                                "(--sync lookback)");
    if (counter) {
      st->counter = aligned_alloc(sizeof(tb_scan_counter_t), sizeof(tb_scan_counter_t));
      if (!st->counter)
        return tb_fail(TB_ENOMEM, "out of memory");
    }
    if (lookback) {
      st->link = aligned_alloc(sizeof(tb_scan_link_t), (size_t)blocks * sizeof(tb_scan_link_t));
      if (!st->link)
        return tb_fail(TB_ENOMEM, "out of memory");
      /* A block's prefix is a nearer block's prefix plus the totals in
       * between and its own: along the chain back to block 0 each block's
       * total is added at most once and each step adds one prefix, so at
       * most 2 blocks additions carry an input's total to an offset. */
      ctx->extra[TB_SCAN_DEPTH] = (double)tb_scan_blocked_depth(2 * blocks, tile);
    } else {
      st->slot = aligned_alloc(sizeof(tb_scan_slot_t),
                               2 * (size_t)threads * sizeof(tb_scan_slot_t));
      if (!st->slot)
        return tb_fail(TB_ENOMEM, "out of memory");
      ctx->extra[TB_SCAN_DEPTH] = (double)tb_scan_blocked_depth(blocks, tile);
    }
    ctx->extra[TB_SCAN_LAUNCHES] = 2;
    break;
  }
  default: {
    const size_t e = tb_kind_size(tb_prec_kind(p->prec));
    st->tmp = malloc((size_t)p->n * e);
    if (!st->tmp)
      return tb_fail(TB_ENOMEM, "out of memory");
    /* First touch by the threads that use it, in the same static split. */
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < p->n; i++)
      memset((char *)st->tmp + i * e, 0, e);
    ctx->extra[TB_SCAN_DEPTH] = tb_scan_jump_steps(p->n);
    ctx->extra[TB_SCAN_LAUNCHES] = tb_scan_jump_steps(p->n);
  }
  }
  return TB_OK;
}

static int tb_scan_cpu_run(tb_ctx_t *ctx, int kind)
{
  const tb_scan_t *s = ctx->p->priv;
  tb_scan_cpu_t *st = ctx->state;
  const void *x = ctx->buf[s->x];
  void *y = ctx->buf[s->y];
  const int64_t n = ctx->p->n;
  const int excl = s->kind == TB_SCAN_EXCLUSIVE, threads = tb_cpu_threads(ctx);
  const tb_prec_t prec = ctx->p->prec;
  switch (kind) {
  case TB_SV_SERIAL:
    if (prec == TB_INT32)
      tb_serial_i(x, y, n, excl);
    else if (prec == TB_FLOAT)
      tb_serial_f(x, y, n, excl);
    else
      tb_serial_d(x, y, n, excl);
    break;
  case TB_SV_TWOPASS: {
    const int64_t tile = tb_tune(ctx, "tile")->i;
    const double t0 = omp_get_wtime();
    st->waited = 0;
    st->most = 0;
    if (prec == TB_INT32)
      tb_twopass_i(x, y, n, excl, threads, tile, st);
    else if (prec == TB_FLOAT)
      tb_twopass_f(x, y, n, excl, threads, tile, st);
    else
      tb_twopass_d(x, y, n, excl, threads, tile, st);
    /* The team's waits over its threads' time in this run (the last run's
     * share is the row's). */
    const double span = omp_get_wtime() - t0;
    ctx->extra[TB_SCAN_WAIT] = span > 0 ? st->waited / (threads * span) : 0;
    /* The most blocks a thread scanned over the mean, blocks / threads. */
    ctx->extra[TB_SCAN_IMBALANCE] = (double)st->most * threads / (double)((n + tile - 1) / tile);
    break;
  }
  default: {
    const int steps = tb_scan_jump_steps(n);
    if (prec == TB_INT32)
      tb_jump_i(x, y, st->tmp, n, excl, threads, steps);
    else if (prec == TB_FLOAT)
      tb_jump_f(x, y, st->tmp, n, excl, threads, steps);
    else
      tb_jump_d(x, y, st->tmp, n, excl, threads, steps);
  }
  }
  return TB_OK;
}

static void tb_scan_cpu_release(tb_ctx_t *ctx)
{
  tb_scan_cpu_t *st = ctx->state;
  if (st) {
    free(st->slot);
    free(st->link);
    free(st->counter);
    free(st->tmp);
  }
  free(st);
  ctx->state = NULL;
}

#define TB_SCAN_ALL (TB_PREC_BIT(TB_INT32) | TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE))

#define TB_SCAN_CPU_VARIANT(NAME, KIND, FLAGS, TUNING, NTUNING, SUMMARY)                         \
  static int tb_scan_prepare_##NAME(tb_ctx_t *ctx)                                               \
  {                                                                                              \
    return tb_scan_cpu_prepare(ctx, KIND);                                                       \
  }                                                                                              \
  static int tb_scan_run_##NAME(tb_ctx_t *ctx)                                                   \
  {                                                                                              \
    return tb_scan_cpu_run(ctx, KIND);                                                           \
  }                                                                                              \
  TB_VARIANT(tb_scan_cpu_##NAME, #NAME, &tb_algo_scan, TB_SCAN_ALL, FLAGS, TUNING, NTUNING,      \
             tb_scan_prepare_##NAME, tb_scan_run_##NAME, NULL, tb_scan_cpu_release, SUMMARY);

TB_SCAN_CPU_VARIANT(serial, TB_SV_SERIAL, TB_V_SERIAL, NULL, 0, "one thread, one running sum")
TB_SCAN_CPU_VARIANT(twopass, TB_SV_TWOPASS, 0, tb_scan_cpu_tuning, TB_COUNT(tb_scan_cpu_tuning),
                    "blocked two-pass in rounds (sum, barrier, vector scan from the offset; the "
                    "block stays in cache), non-temporal stores")
TB_SCAN_CPU_VARIANT(jump, TB_SV_JUMP, 0, NULL, 0,
                    "pointer jumping (Hillis-Steele), ceil(log2 n) parallel passes, double buffer")

TB_VARIANT_LIST(scan, cpu, &tb_scan_cpu_serial, &tb_scan_cpu_twopass, &tb_scan_cpu_jump);
