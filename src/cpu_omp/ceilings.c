/* twinbench: the CPU backend's measured ceilings.
 *
 * Memory: STREAM-style kernels over arrays that the team first-touched with
 * the kernels' own static split (tb_cpu_share), so each thread streams pages
 * of its own NUMA node; the best of ten runs after two warm-ups, as STREAM
 * reports. Copy and triad are measured with plain stores and with
 * non-temporal stores, and the better one counts: non-temporal stores skip
 * the read of each output line before it is written (write-allocate), which
 * wins on most servers but loses where the output would have stayed in a
 * cache, and a twin may use either.
 *
 * Gather: out[i] = in[idx[i]] over 4-byte elements at random indices
 * (uniform, with repeats) into a table of as many bytes as one memory
 * array, so that nearly every read misses the caches and fetches a line of
 * its own; counted at 32 bytes a read (the GPU's sector, which list
 * ranking's cost model counts on both backends), the streamed index and
 * output not counted.
 *
 * Compute: every thread runs independent chains of multiply-adds on vector
 * registers of the build's width. A chain waits for its previous result, so
 * the FMA units are only kept busy with at least latency x ports chains in
 * flight: 4 x 2 = 8 on current Intel and AMD cores, 5 x 2 = 10 on Haswell;
 * 12 covers them all and still fits the 16 registers of AVX2 with x and y. */
#include <config.h>

#include <math.h>
#include <omp.h>
#include <stdint.h>

#include "../common/algo.h"
#include "../common/mem.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../families/stream.h"
#include "ceilings.h"
#include "cpu.h"
#include "ntstore.h"

/* acc * x + y becomes one fused instruction only where the target has FMA and
 * the compiler contracts: GCC does by default (-ffp-contract=fast) but not
 * under a strict -std=c11, clang always within an expression. Elsewhere it is
 * a multiply and an add, and *how says so. */
#if defined(__FP_FAST_FMA) && (defined(__clang__) || !defined(__STRICT_ANSI__))
#define TB_CEIL_OP "FMA"
#else
#define TB_CEIL_OP "multiply-add"
#endif

#define TB_CEIL_CHAINS 12
#define TB_CEIL_STR(x) #x
#define TB_CEIL_XSTR(x) TB_CEIL_STR(x)

/* The best of ten runs of `call` after two warm-ups, in seconds. */
#define TB_CEIL_BEST(best, call)                                                               \
  do {                                                                                         \
    best = 1e300;                                                                              \
    for (int r_ = 0; r_ < 12; r_++) {                                                          \
      double t0_ = tb_wtime();                                                                 \
      call;                                                                                    \
      double t_ = tb_wtime() - t0_;                                                            \
      if (r_ >= 2 && t_ < best)                                                                \
        best = t_;                                                                             \
    }                                                                                          \
  } while (0)

/* ---- Memory ------------------------------------------------------------ */

/* The inputs: small multiples of 1/16, never zero, so that a + q b and any
 * sum of up to 2^49 a's are exact in double whatever the order or
 * fusing, and the checks can ask for equality. */
static inline double tb_ceil_a(int64_t i)
{
  return 1.0 + 0.125 * (double)(i & 7);
}

static inline double tb_ceil_b(int64_t i)
{
  return 2.0 - 0.0625 * (double)(i & 15);
}

/* What element i of the output must hold after a copy or a triad. */
static inline double tb_ceil_want(int triad, int64_t i)
{
  return triad ? tb_ceil_a(i) + TB_STREAM_Q * tb_ceil_b(i) : tb_ceil_a(i);
}

/* What the output holds before a kernel runs: a value neither kernel writes,
 * so that an element a kernel skipped is found. */
#define TB_CEIL_SENTINEL 0.5

/* First touch (or refill) with the team and the kernels' split: a and b get
 * the inputs, c the sentinel (each where not NULL). */
static void tb_ceil_fill(double *a, double *b, double *c, int64_t n, int threads)
{
#pragma omp parallel num_threads(threads)
  {
    int64_t lo, hi;
    tb_cpu_share(n, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);
    for (int64_t i = lo; i < hi; i++) {
      if (a)
        a[i] = tb_ceil_a(i);
      if (b)
        b[i] = tb_ceil_b(i);
      if (c)
        c[i] = TB_CEIL_SENTINEL;
    }
  }
}


/* Whether c holds the copy or triad at a sample of elements: both ends of
 * every thread's share, where plain and streamed stores meet, and a spread
 * of others. */
static int tb_ceil_check(const double *c, int triad, int64_t n, int threads, const char *kernel)
{
  enum { SPREAD = 61 };
  for (int t = 0; t < threads; t++) {
    int64_t lo, hi;
    tb_cpu_share(n, threads, t, &lo, &hi);
    const int64_t at[4] = {lo, lo + 1, hi - 2, hi - 1};
    for (int k = 0; k < 4; k++)
      if (at[k] >= lo && at[k] < hi && c[at[k]] != tb_ceil_want(triad, at[k]))
        return tb_fail(TB_EINVAL, "the %s ceiling's %s kernel left c[%lld] = %g (want %g)",
                       triad ? "triad" : "copy", kernel, (long long)at[k], c[at[k]],
                       tb_ceil_want(triad, at[k]));
  }
  for (int k = 0; k < SPREAD; k++) {
    int64_t i = (int64_t)((double)n * k / SPREAD);
    if (c[i] != tb_ceil_want(triad, i))
      return tb_fail(TB_EINVAL, "the %s ceiling's %s kernel left c[%lld] = %g (want %g)",
                     triad ? "triad" : "copy", kernel, (long long)i, c[i], tb_ceil_want(triad, i));
  }
  return TB_OK;
}

/* The exact sum of tb_ceil_a and tb_ceil_b over [0, n): 11.5 for each
 * whole group of 8 a's, 24.5 for each of 16 b's. */
static double tb_ceil_sum_want(int64_t n)
{
  int64_t r = n % 8, q = n % 16;
  return 11.5 * (double)(n / 8) + (double)r + 0.0625 * (double)(r * (r - 1)) +
         24.5 * (double)(n / 16) + 2.0 * (double)q - 0.03125 * (double)(q * (q - 1));
}

/* A read-only sum as fast as the build allows: each thread sums its static
 * share of a and of b (two streams, as a dot product reads: on some
 * machines one stream cannot keep enough reads in flight) into
 * TB_CEIL_LANES independent accumulators (vector registers, and chains
 * short enough to keep the loads, not the adds, the limit). */
#define TB_CEIL_LANES 16
static double tb_ceil_sum(const double *restrict a, const double *restrict b, int64_t n,
                          int threads)
{
  double s = 0.0;
#pragma omp parallel num_threads(threads) reduction(+ : s)
  {
    int64_t lo, hi;
    double acc[TB_CEIL_LANES] = {0.0};
    tb_cpu_share(n, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);
    int64_t i = lo;
    for (; i + TB_CEIL_LANES <= hi; i += TB_CEIL_LANES)
#pragma omp simd
      for (int k = 0; k < TB_CEIL_LANES; k++)
        acc[k] += a[i + k] + b[i + k];
    for (; i < hi; i++)
      acc[0] += a[i] + b[i];
    for (int k = 0; k < TB_CEIL_LANES; k++)
      s += acc[k];
  }
  return s;
}

/* The memory ceilings on arrays the caller allocated (b NULL for copy,
 * c NULL for read): the best time and what won. */
static int tb_ceil_memory_time(int kind, double *a, double *b, double *c, int64_t n, int threads,
                               double *best, const char **how)
{
  if (kind == TB_CEIL_READ) {
    double s = 0.0;
    TB_CEIL_BEST(*best, s = tb_ceil_sum(a, b, n, threads));
    if (!(s > 0.0) || s != tb_ceil_sum_want(n))
      return tb_fail(TB_EINVAL, "the read ceiling's sum came out %.17g (want %.17g)", s,
                     tb_ceil_sum_want(n));
    *how = "sum of two arrays, 16 accumulators a thread";
    return TB_OK;
  }
  const int triad = kind == TB_CEIL_TRIAD, op = triad ? TB_STREAM_TRIAD : TB_STREAM_COPY;
  double t;
  int rc;
  TB_CEIL_BEST(t, tb__cpu_stream_f64(op, c, a, b, n, threads));
  if ((rc = tb_ceil_check(c, triad, n, threads, "plain-store")) != TB_OK)
    return rc;
  *best = t;
  *how = "plain stores";
#if TB_HAVE_NT
  /* Back to the sentinel, so that the plain kernel's output cannot hide an
   * element the streaming kernel missed. */
  tb_ceil_fill(NULL, NULL, c, n, threads);
  TB_CEIL_BEST(t, tb_nt_stream_f64(op, c, a, b, TB_STREAM_Q, n, threads));
  if ((rc = tb_ceil_check(c, triad, n, threads, "non-temporal")) != TB_OK)
    return rc;
  if (t < *best) {
    *best = t;
    *how = "non-temporal stores";
  }
#endif
  return TB_OK;
}

static int tb_ceil_memory(int kind, int threads, int64_t n, double *gbs, const char **how)
{
  const int narrays = kind == TB_CEIL_COPY ? 2 : kind == TB_CEIL_TRIAD ? 3 : 2;
  if (n < 1)
    return tb_fail(TB_EINVAL, "a memory ceiling needs at least one element (got %lld)",
                   (long long)n);
  if (n > INT64_MAX / 8)
    return tb_fail(TB_ENOMEM, "%lld doubles do not fit in memory", (long long)n);
  double *arr[3] = {NULL, NULL, NULL};
  for (int k = 0; k < narrays; k++)
    if (!(arr[k] = tb_alloc(n * 8))) {
      for (int j = 0; j < k; j++)
        tb_free(arr[j]);
      return tb_fail(TB_ENOMEM, "cannot allocate the ceiling's %d arrays of %lld doubles",
                     narrays, (long long)n);
    }
  /* a is the input of all three; read sums it and arr[1] (b), copy writes
   * arr[1], triad reads it (b) and writes arr[2]. */
  const int read = kind == TB_CEIL_READ;
  double *a = arr[0], *b = read || narrays == 3 ? arr[1] : NULL;
  double *c = read ? NULL : arr[narrays - 1];
  tb_ceil_fill(a, b, c, n, threads);
  double best = 0.0;
  int rc = tb_ceil_memory_time(kind, a, b, c, n, threads, &best, how);
  for (int k = 0; k < narrays; k++)
    tb_free(arr[k]);
  if (rc != TB_OK)
    return rc;
  *gbs = 8.0 * narrays * (double)n / best * 1e-9;
  return TB_OK;
}

/* ---- Gather ------------------------------------------------------------ */

/* The most table elements of the gather: 4 GiB, which int32 indices name. */
#define TB_CEIL_GATHER_MAX ((int64_t)1 << 30)

/* The gather's table entry j and the random index of output i into a table
 * of m entries: a 64-bit finaliser (splitmix64's) of i, scaled to [0, m)
 * by its high half (m <= 2^32). */
static inline uint32_t tb_ceil_table(int64_t j)
{
  return (uint32_t)j * 2654435761u + 0x5bd1e995u;
}

static inline uint32_t tb_ceil_index(int64_t i, int64_t m)
{
  uint64_t z = (uint64_t)i + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (uint32_t)(((z >> 32) * (uint64_t)m) >> 32);
}

static void tb_ceil_gather_run(const uint32_t *restrict in, const uint32_t *restrict idx,
                               uint32_t *restrict out, int64_t m, int threads)
{
#pragma omp parallel num_threads(threads)
  {
    int64_t lo, hi;
    tb_cpu_share(m, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);
    for (int64_t i = lo; i < hi; i++)
      out[i] = in[idx[i]];
  }
}

/* The gather's rate over a table of m = 2 elems 4-byte entries (as many
 * bytes as one array of the memory ceilings, at most TB_CEIL_GATHER_MAX),
 * first-touched by the team in the kernel's split; every output is checked
 * after the runs. GB/s at 32 bytes a read. */
static int tb_ceil_gather(int threads, int64_t elems, double *gbs, const char **how)
{
  const int64_t m = elems > TB_CEIL_GATHER_MAX / 2 ? TB_CEIL_GATHER_MAX : 2 * elems;
  if (elems < 1)
    return tb_fail(TB_EINVAL, "the gather ceiling needs at least one element (got %lld)",
                   (long long)elems);
  uint32_t *in = tb_alloc(m * 4), *idx = tb_alloc(m * 4), *out = tb_alloc(m * 4);
  int rc = TB_OK;
  if (!in || !idx || !out) {
    rc = tb_fail(TB_ENOMEM, "cannot allocate the gather ceiling's 3 arrays of %lld int32",
                 (long long)m);
    goto done;
  }
#pragma omp parallel num_threads(threads)
  {
    int64_t lo, hi;
    tb_cpu_share(m, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);
    for (int64_t i = lo; i < hi; i++) {
      in[i] = tb_ceil_table(i);
      idx[i] = tb_ceil_index(i, m);
      out[i] = 0;
    }
  }
  double best;
  TB_CEIL_BEST(best, tb_ceil_gather_run(in, idx, out, m, threads));
  int64_t bad = 0, first = INT64_MAX;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : bad)               \
    reduction(min : first)
  for (int64_t i = 0; i < m; i++)
    if (out[i] != tb_ceil_table(tb_ceil_index(i, m))) {
      bad++;
      first = i < first ? i : first;
    }
  if (bad)
    rc = tb_fail(TB_EINVAL, "the gather ceiling's kernel left %lld wrong outputs (out[%lld] = "
                 "%lu)", (long long)bad, (long long)first, (unsigned long)out[first]);
  else {
    *gbs = 32.0 * (double)m / best * 1e-9;
    *how = "gather at random indices, 32 bytes a read";
  }
done:
  tb_free(in);
  tb_free(idx);
  tb_free(out);
  return rc;
}

/* ---- Compute ----------------------------------------------------------- */

/* What each thread's chains multiply by and add: x just below 1 and y small,
 * so every chain settles near y / (1 - x) ~ 1 and never overflows or turns
 * denormal. Volatile, so the compiler cannot fold them into the loop. */
static volatile double tb_ceil_x = 0.999999, tb_ceil_y = 1e-6;

/* One thread's chains for element type T: TB_CEIL_CHAINS vectors of
 * independent acc = acc x + y, `iters` times each; returns the sum of all
 * lanes so that nothing is dead. */
#define TB_CEIL_FMA_KERNEL(T, SFX)                                                             \
  typedef T tb_ceil_v##SFX __attribute__((vector_size(TB_VB)));                          \
  static double tb_ceil_fma_##SFX(int64_t iters, T x0, T y0)                                   \
  {                                                                                            \
    const tb_ceil_v##SFX zero = {0}, x = zero + x0, y = zero + y0;                             \
    tb_ceil_v##SFX acc[TB_CEIL_CHAINS];                                                        \
    for (int k = 0; k < TB_CEIL_CHAINS; k++)                                                   \
      acc[k] = zero + (T)(1.0 + k / 64.0);                                                     \
    for (int64_t it = 0; it < iters; it++)                                                     \
      _Pragma("GCC unroll 16")                                                                 \
      for (int k = 0; k < TB_CEIL_CHAINS; k++)                                                 \
        acc[k] = acc[k] * x + y;                                                               \
    double s = 0.0;                                                                            \
    for (int k = 0; k < TB_CEIL_CHAINS; k++)                                                   \
      for (int l = 0; l < (int)(TB_VB / sizeof(T)); l++)                                  \
        s += (double)acc[k][l];                                                                \
    return s;                                                                                  \
  }

TB_CEIL_FMA_KERNEL(float, f32)
TB_CEIL_FMA_KERNEL(double, f64)

/* One region of the team running `iters` iterations of the chains: the span
 * of the chains alone, from the first thread's start (after a barrier) to
 * the last one's end, the team's size, and the sum of all its lanes. The fork
 * and the join are outside the span: a team slow to wake can take
 * milliseconds for them (the H100 machine's breakeven study of 2026-11-24
 * measured 16-thread FP32 ceilings of 12.9 and 24.2 GFLOP/s, where a warm
 * team measures some 1300: the figure of the calibration's first count, 4096
 * iterations, 18 us of chains, in a region of 2 ms timed from before the
 * fork, which ends the calibration at once). */
static double tb_ceil_fma_region(int fp64, int threads, int64_t iters, int *team, double *sum)
{
  const double x = tb_ceil_x, y = tb_ceil_y;
  double s = 0.0, first = 1e300, last = -1e300;
  int size = threads;
#pragma omp parallel num_threads(threads) reduction(+ : s) reduction(min : first) \
    reduction(max : last)
  {
    if (omp_get_thread_num() == 0)
      size = omp_get_num_threads();
#pragma omp barrier
    first = tb_wtime();
    s += fp64 ? tb_ceil_fma_f64(iters, x, y) : tb_ceil_fma_f32(iters, (float)x, (float)y);
    last = tb_wtime();
  }
  *team = size;
  *sum = s;
  return last - first;
}

/* A run long enough that the barrier's skew and the clock's reads do not
 * count (under 1%), and shorter than a scheduler's time slice, so that on a
 * busy machine some of the TB_CEIL_FMA_RUNS runs go uninterrupted: the
 * calibration and the runs take about 0.05 s. */
#define TB_CEIL_FMA_SECONDS 0.002
#define TB_CEIL_FMA_RUNS 10

static int tb_ceil_compute(int kind, int threads, double *gflops, const char **how)
{
  const int fp64 = kind == TB_CEIL_FP64;
  int team = threads;
  double s = 0.0, t = 0.0;
  /* Calibrate: grow the count until a region takes at least half the target.
   * These regions also warm the team up (threads awake, clocks up for wide
   * vectors); the last, at the final count, is the warm-up of the runs. */
  int64_t iters = 4096;
  for (int k = 0; k < 16; k++) {
    t = tb_ceil_fma_region(fp64, threads, iters, &team, &s);
    if (t >= 0.5 * TB_CEIL_FMA_SECONDS)
      break;
    double f = t > 0.0 ? TB_CEIL_FMA_SECONDS / t : 16.0;
    iters = (int64_t)((double)iters * (f < 2.0 ? 2.0 : f > 16.0 ? 16.0 : f));
  }
  /* A calibration region whose chains the scheduler interrupted can reach
   * the target with little work in it, and the runs at that count are then
   * too short to time. So the runs are redone with more work until the best
   * of them is itself at least half the target. */
  double best = 1e300;
  for (int round = 0; round < 4; round++) {
    best = 1e300;
    for (int r = 0; r < TB_CEIL_FMA_RUNS; r++) {
      t = tb_ceil_fma_region(fp64, threads, iters, &team, &s);
      if (!isfinite(s) || !(s > 0.0))
        return tb_fail(TB_EINVAL, "the FP%d ceiling's chains summed to %g", fp64 ? 64 : 32, s);
      if (t < best)
        best = t;
    }
    if (best >= 0.5 * TB_CEIL_FMA_SECONDS)
      break;
    double f = best > 0.0 ? TB_CEIL_FMA_SECONDS / best : 16.0;
    iters = (int64_t)((double)iters * (f > 16.0 ? 16.0 : f));
  }
  const double lanes = (double)TB_VB / (fp64 ? 8.0 : 4.0);
  *gflops = 2.0 * team * TB_CEIL_CHAINS * lanes * (double)iters / best * 1e-9;
  *how = TB_CEIL_XSTR(TB_CEIL_CHAINS) " chains of " TB_VB_BITS "-bit " TB_CEIL_OP;
  return TB_OK;
}

/* ---- The entry --------------------------------------------------------- */

int tb_cpu_ceiling(int kind, int threads, int64_t elems, double *value, const char **how)
{
  const char *h = NULL;
  int rc;
  if (threads < 1)
    return tb_fail(TB_EINVAL, "a ceiling needs at least one thread (got %d)", threads);
  switch (kind) {
  case TB_CEIL_READ:
  case TB_CEIL_COPY:
  case TB_CEIL_TRIAD:
    rc = tb_ceil_memory(kind, threads, elems, value, &h);
    break;
  case TB_CEIL_FP32:
  case TB_CEIL_FP64:
    rc = tb_ceil_compute(kind, threads, value, &h);
    break;
  case TB_CEIL_GATHER:
    rc = tb_ceil_gather(threads, elems, value, &h);
    break;
  default:
    return tb_fail(TB_EINVAL, "no ceiling of kind %d", kind);
  }
  if (rc == TB_OK && how)
    *how = h;
  return rc;
}
