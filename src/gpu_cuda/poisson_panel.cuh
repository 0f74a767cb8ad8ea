/* twinbench: the kernel body of the Poisson GPU variant panel (its
 * derivations in doc/poisson_panel.md), as host-and-device functions of a
 * thread index, so that tests/test_poisson_panel_fft runs exactly this code
 * on the host, looping over a block's threads between the barriers.
 *
 * A block takes a panel of P adjacent complex columns of the half spectrum
 * (rows of N/2 + 1 values, N a power of two) into shared memory, N x P
 * values with column k of the panel in every P-th place (value i of column
 * k at i P + k, swizzled against bank conflicts: tb_panel_at), and runs through phases separated by the block's barriers:
 *   load      the panel from global memory, P consecutive values of each
 *             row, several loads in flight a thread;
 *   forward   the length-N FFT of each column, decimation in frequency:
 *             radix-4 stages, a radix-2 stage last where log2 N is odd,
 *             in place, leaving the spectrum in digit-reversed order;
 *   solve     each value times the solve's multiplier of its column and of
 *             the frequency its place holds (tb_poisson_multiplier, the
 *             callbacks' function);
 *   inverse   the inverse FFT by decimation in time, the forward stages'
 *             mirror in reverse order with the conjugate twiddles: it takes
 *             the digit-reversed order and leaves the natural one, so no
 *             permutation pass is needed either way;
 *   store     the panel back in place.
 * The twiddles W_N^k = exp(-2 pi i k / N), k < N, come from a table made on
 * the host in long double and rounded once to the precision. */
#ifndef TB_POISSON_PANEL_CUH
#define TB_POISSON_PANEL_CUH

#include <cuda_runtime.h>
#include <math.h>
#include <stddef.h>

#include "poisson_cb.h"

namespace {

/* A panel's shape: the column length N = 2^logn, P = 2^logp columns a
 * panel, the row length of the half spectrum in global memory (N/2 + 1),
 * the threads of a block, and the swizzle of shared memory (tb_panel_at). */
struct tb_panel_geom {
  int n, logn;
  int p, logp;
  int half;
  int threads;
  int swlog, swshift;
};

/* The place in shared memory of panel value a (value i of column k is
 * a = i P + k). A warp's access of complex values is served 128 bytes at a
 * time (G = 16 float or 8 double values); a stage whose blocks are short
 * (m P < G) would put a warp's butterflies on the same banks, up to 4 times
 * as many passes as a stage needs (the last stage at P = 4 float, the last
 * two at P = 1). XOR-ing the low log2 G bits of a with its higher bits
 * shifted by min(log2 P, log2 G - 1) spreads them: a model of the bank
 * mapping counts a quarter to a third fewer passes over the stages at
 * N = 4096, P = 1, 2, 4 float and P = 1, 2 double, the least any shift gave
 * but at P = 1 float (doc/poisson_panel.md). The map permutes each aligned group of G places, so consecutive values stay
 * in one 128-byte group (the loads and stores keep their order). */
__host__ __device__ __forceinline__ int tb_panel_at(int a, const tb_panel_geom &g)
{
  return a ^ (((a >> g.swlog) << g.swshift) & ((1 << g.swlog) - 1));
}

/* The shape of N = 2^logn, P = 2^logp, row length half and `threads` a
 * block, for complex values of `bytes` bytes (8 or 16). */
inline tb_panel_geom tb_panel_geom_make(int logn, int logp, int half, int threads, int bytes)
{
  const int swlog = bytes == 8 ? 4 : 3;
  const tb_panel_geom g = {1 << logn, logn,  1 << logp, logp, half, threads,
                           swlog,     logp < swlog - 1 ? logp : swlog - 1};
  return g;
}

/* The bytes each thread keeps in flight in the load and store phases (8
 * float or 4 double complex values: more double values spill registers
 * under the kernel's 64-register bound); their loops are unrolled on the
 * device (the host compiler, which runs them in the test, knows no such
 * pragma). */
constexpr int TB_PANEL_INFLIGHT_BYTES = 64;
#ifdef __CUDA_ARCH__
#define TB_PANEL_UNROLL _Pragma("unroll")
#else
#define TB_PANEL_UNROLL
#endif

/* The FFT's stages: log2 N / 2 of radix 4, and one of radix 2 where
 * log2 N is odd. Stage s works on blocks of L = N / 4^s values. */
__host__ __device__ __forceinline__ int tb_panel_stages(const tb_panel_geom &g)
{
  return g.logn / 2 + (g.logn & 1);
}

/* The phases: load, the forward stages, solve, the inverse stages, store. */
__host__ __device__ __forceinline__ int tb_panel_phases(const tb_panel_geom &g)
{
  return 2 * tb_panel_stages(g) + 3;
}

/* The frequency whose value the forward transform leaves at place pos: a
 * stage of radix r on blocks of L = r m values sends frequency
 * d + r (the sub-transform's frequency) to sub-block d, m values long, so
 * the digits of pos in the stages' mixed radix, read from the first stage,
 * are the frequency's from its lowest. */
__host__ __device__ __forceinline__ int tb_panel_freq(int pos, const tb_panel_geom &g)
{
  int f = 0, shift = 0;
  for (int logl = g.logn; logl > 0;) {
    const int lr = logl >= 2 ? 2 : 1, logm = logl - lr;
    f |= ((pos >> logm) & ((1 << lr) - 1)) << shift;
    shift += lr;
    logl = logm;
  }
  return f;
}

/* Complex arithmetic on float2 and double2. */
template <typename C> __host__ __device__ __forceinline__ C tb_cadd(C a, C b)
{
  a.x += b.x;
  a.y += b.y;
  return a;
}

template <typename C> __host__ __device__ __forceinline__ C tb_csub(C a, C b)
{
  a.x -= b.x;
  a.y -= b.y;
  return a;
}

/* a times w, or times conj(w) where conj. */
template <typename C> __host__ __device__ __forceinline__ C tb_cmul(C a, C w, bool conj)
{
  C r;
  if (conj) {
    r.x = a.x * w.x + a.y * w.y;
    r.y = a.y * w.x - a.x * w.y;
  } else {
    r.x = a.x * w.x - a.y * w.y;
    r.y = a.y * w.x + a.x * w.y;
  }
  return r;
}

/* a times -i (fwd) or i: exact. */
template <typename C> __host__ __device__ __forceinline__ C tb_crot(C a, bool fwd)
{
  C r;
  r.x = fwd ? a.y : -a.y;
  r.y = fwd ? -a.x : a.x;
  return r;
}

/* A twiddle, through the read-only data path on the device. */
template <typename C> __host__ __device__ __forceinline__ C tb_panel_tw(const C *tw, int k)
{
#ifdef __CUDA_ARCH__
  return __ldg(tw + k);
#else
  return tw[k];
#endif
}

/* One stage of the column transforms, thread tid's butterflies: forward
 * (decimation in frequency: the radix-r DFT of x[j + q m], q < r, then
 * output d times W_L^(j d), to x[j + d m]) or inverse (decimation in time:
 * input d times conj(W_L^(j d)), then the inverse radix-r DFT). Butterflies
 * are numbered column fastest, so a warp's accesses to shared memory are
 * consecutive while m >= 32 / P. */
template <typename C>
__host__ __device__ __forceinline__ void tb_panel_stage(C *sm, const C *tw, const tb_panel_geom &g,
                                                        int stage, bool fwd, int tid)
{
  const int logl = g.logn - 2 * stage, lr = logl >= 2 ? 2 : 1, logm = logl - lr;
  const int twlog = g.logn - logl; /* W_L^e = W_N^(e N / L) */
  const int count = (g.n >> lr) << g.logp, step = (1 << logm) << g.logp;
  for (int b = tid; b < count; b += g.threads) {
    const int col = b & (g.p - 1), bb = b >> g.logp;
    const int j = bb & ((1 << logm) - 1), blk = bb >> logm;
    const int x = (((blk << logl) + j) << g.logp) + col;
    if (lr == 1) {
      const int x0 = tb_panel_at(x, g), x1 = tb_panel_at(x + step, g);
      C a0 = sm[x0], a1 = sm[x1];
      const C w = tb_panel_tw(tw, j << twlog);
      if (!fwd)
        a1 = tb_cmul(a1, w, true);
      const C d = tb_csub(a0, a1);
      sm[x0] = tb_cadd(a0, a1);
      sm[x1] = fwd ? tb_cmul(d, w, false) : d;
      continue;
    }
    C a[4];
    for (int q = 0; q < 4; q++)
      a[q] = sm[tb_panel_at(x + q * step, g)];
    if (!fwd)
      for (int d = 1; d < 4; d++)
        a[d] = tb_cmul(a[d], tb_panel_tw(tw, (j * d) << twlog), true);
    /* y0 = t0 + t2, y2 = t0 - t2, y1 = t1 -+ i t3, y3 = t1 +- i t3 (the
     * upper signs forward: W_4 = -i). */
    const C t0 = tb_cadd(a[0], a[2]), t1 = tb_csub(a[0], a[2]);
    const C t2 = tb_cadd(a[1], a[3]), t3 = tb_crot(tb_csub(a[1], a[3]), fwd);
    a[0] = tb_cadd(t0, t2);
    a[1] = tb_cadd(t1, t3);
    a[2] = tb_csub(t0, t2);
    a[3] = tb_csub(t1, t3);
    if (fwd)
      for (int d = 1; d < 4; d++)
        a[d] = tb_cmul(a[d], tb_panel_tw(tw, (j * d) << twlog), false);
    for (int q = 0; q < 4; q++)
      sm[tb_panel_at(x + q * step, g)] = a[q];
  }
}

/* Thread tid's part of phase `phase` of the panel whose first column is c0
 * (columns from the half spectrum's end on are zeros in shared memory and
 * are never stored): w the half spectrum in global memory, sm the panel in
 * shared memory, tw the twiddles, in the solve's constants. */
template <typename T, typename C>
__host__ __device__ __forceinline__ void tb_panel_phase(int phase, C *sm, C *w, const C *tw,
                                                        const tb_panel_geom &g, int c0,
                                                        const tb_poisson_cb_info *in, int tid)
{
  const int stages = tb_panel_stages(g), total = g.n << g.logp;
  const int width = g.half - c0 < g.p ? g.half - c0 : g.p;
  constexpr int inflight = TB_PANEL_INFLIGHT_BYTES / (int)sizeof(C);
  if (phase == 0 || phase == 2 * stages + 2) {
    const bool load = phase == 0;
    for (int t0 = tid; t0 < total; t0 += inflight * g.threads) {
      C v[inflight];
TB_PANEL_UNROLL
      for (int e = 0; e < inflight; e++) {
        const int t = t0 + e * g.threads, col = t & (g.p - 1);
        C *at = w + ((size_t)(t >> g.logp) * (size_t)g.half + (size_t)(c0 + col));
        if (t < total && load) {
          v[e].x = v[e].y = T(0);
          if (col < width)
            v[e] = *at;
        } else if (t < total && col < width) {
          *at = sm[tb_panel_at(t, g)];
        }
      }
      if (load) {
TB_PANEL_UNROLL
        for (int e = 0; e < inflight; e++)
          if (t0 + e * g.threads < total)
            sm[tb_panel_at(t0 + e * g.threads, g)] = v[e];
      }
    }
  } else if (phase <= stages) {
    tb_panel_stage(sm, tw, g, phase - 1, true, tid);
  } else if (phase == stages + 1) {
    for (int t = tid; t < total; t += g.threads) {
      const int col = t & (g.p - 1);
      if (col < width) {
        const T s = tb_poisson_multiplier<T>(c0 + col, tb_panel_freq(t >> g.logp, g), 0, in);
        C *v = sm + tb_panel_at(t, g);
        v->x *= s;
        v->y *= s;
      }
    }
  } else {
    tb_panel_stage(sm, tw, g, 2 * stages + 1 - phase, false, tid);
  }
}

/* The twiddle table: tw[k] = W_N^k = exp(-2 pi i k / N) for k < N, in long
 * double and rounded once to the precision (N a power of two: the angle
 * 2 pi k / N in long double errs by 2^-64 relatively, far below either
 * precision's unit roundoff). Host code. */
template <typename T, typename C> void tb_panel_twiddles(C *tw, int n)
{
  const long double pi = 3.141592653589793238462643383279502884L;
  for (int k = 0; k < n; k++) {
    const long double a = 2.0L * pi * (long double)k / (long double)n;
    tw[k].x = (T)cosl(a);
    tw[k].y = (T)-sinl(a);
  }
}

} /* namespace */

#endif
