/* twinbench: the Brownian bridge family's CUDA twins, the report's strategy
 * ladder. One thread builds one path (all d dimensions); a warp is a tile of
 * 32 paths, so every load of a normal and every store of an output is 32
 * consecutive values (bridge.h). The local stack is a per-thread array in
 * local memory (cached in L1; in shared memory for smem); the plan's steps
 * are 12 bytes of 16-bit indices and flags, its weights 5 values of the
 * precision.
 *
 * const:    (1) the plan and C in constant memory, read step by step.
 * prefetch: (3) as const, with the normals of P steps (parameter prefetch)
 *           loaded into registers before those steps are computed.
 * shared:   (4) C in registers; the plan in global memory, streamed through
 *           shared memory in chunks of TB_BRIDGE_CHUNK steps; the next
 *           step's indices and its normals are loaded while the current step
 *           is computed.
 * reuse:    (5) as shared, and a step takes a neighbour from the previous
 *           step's three points (L, R and the point built) when it is one
 *           of them, a uniform branch on the step's flags; points no step
 *           reads from the stack are never stored; the normals of P steps
 *           are prefetched into registers (prefetch 1: the report's "5
 *           without prefetch").
 * wide:     (5) with V adjacent paths per thread (parameter width), so that
 *           every load and store moves V values in 16-byte accesses at most
 *           (one for V = 4 in float, two for V = 8) and the step's indices,
 *           weights and branches are shared by V paths; the normals of the next P steps are always in
 *           flight (a ring of P registers: step k's normal is used as step
 *           k + P's is requested) rather than loaded P at a time; and, with
 *           cache stream, the normals and outputs, touched once, are loaded
 *           and stored evict-first (__ldcs, __stcs), which keeps the L1 for
 *           the stack. Why: strategy 5 in float reached 0.79 of the device
 *           copy on an H200 and 0.85 in double: a path per thread moves 4
 *           bytes per step for some 40 instructions, so the float kernel
 *           issues nearly as long as it waits for memory.
 * smem:     (6) the stack in shared memory, branch-free steps, the plan
 *           staged as byte offsets, V paths a thread and the ring of P
 *           normals of wide (tb_k_smem below says why and what lost).
 * The arithmetic of a point is the CPU twins', fused the same way, so both
 * backends agree to the bit on the same normals. */
#include <config.h>

#include <cuda_runtime.h>
#include <type_traits>
#include <stdlib.h>
#include <string.h>

#include "../families/bridge.h"
#include "cuda_util.h"

namespace {

/* wide's loads and stores (its tuning parameter cache): evict-first or plain. */
enum { TB_BRIDGE_CACHE_STREAM, TB_BRIDGE_CACHE_PLAIN };

/* Stack slots a GPU thread holds (x0 and the sink included). */
const int TB_BRIDGE_GPU_SLOTS = 32;
/* Steps of the plan in constant memory (indices 12 KiB, weights 40 KiB in double). */
const int TB_BRIDGE_CONST_STEPS = 1024;
/* Steps staged through shared memory at a time (a multiple of every P). */
const int TB_BRIDGE_CHUNK = 128;
/* Registers of prefetched normals a thread may hold (P x d, P x V x d for wide). */
const int TB_BRIDGE_MAX_PREFETCH = 64;
/* Values of a step a wide thread may hold (V x d): V is there to fill 16-byte
 * accesses and to share a step's decoding among paths, which d dimensions
 * already do; the bound also keeps the kernels few enough to compile. */
const int TB_BRIDGE_MAX_WIDE = 8;
/* The largest P (the parameter's). On the H200, smem's best float tuning is
 * P 32 (with V 2); P 64, a whole 64-step path requested at its start, lost
 * to the registers its ring takes (doc/bridge.md). */
const int TB_BRIDGE_MAX_P = 64;
/* Whether a ring of P normals for V paths of d dimensions fits a thread:
 * P x V x d registers of normals, V x d values of a step (the kernel tables
 * build only these; auto picks among them). */
constexpr bool tb_bridge_fits(int p, int v, int d)
{
  return p * v * d <= TB_BRIDGE_MAX_PREFETCH && v * d <= TB_BRIDGE_MAX_WIDE;
}

static_assert(sizeof(tb_bridge_step_t) == 12, "a step is three 32-bit words");
static_assert(TB_BRIDGE_CHUNK % TB_BRIDGE_MAX_P == 0, "wide's ring of P normals spans chunks");

__constant__ uint3 tb_c_step[TB_BRIDGE_CONST_STEPS];
__constant__ double tb_c_w[TB_BRIDGE_CONST_STEPS * TB_BRIDGE_NW]; /* float or double */
__constant__ double tb_c_chol[TB_BRIDGE_MAX_DIM * TB_BRIDGE_MAX_DIM];

/* A step's indices, unpacked from its three words (little-endian halves). */
struct tb_step {
  int out, z, l, r, s;
  unsigned flags;
};

__device__ __forceinline__ tb_step tb_unpack(uint3 v)
{
  tb_step s;
  s.out = (int)(v.x & 0xffffu);
  s.z = (int)(v.x >> 16);
  s.l = (int)(v.y & 0xffffu);
  s.r = (int)(v.y >> 16);
  s.s = (int)(v.z & 0xffffu);
  s.flags = v.z >> 16;
  return s;
}

/* Everything a kernel needs, by value. */
template <typename T> struct tb_kargs {
  const T *z;
  T *x;
  int64_t npad; /* paths including the last tile's padding */
  int n;
  int inc;
  T x0;
  const uint3 *step; /* the plan in global memory (shared, reuse, wide) */
  const T *w;        /* its weights, TB_BRIDGE_NW a step (TB_BRIDGE_SW for smem) */
  const int4 *rec;   /* smem's plan: two int4 a step (tb_srec) */
  T chol[TB_BRIDGE_MAX_DIM * TB_BRIDGE_MAX_DIM];
};

/* The values a thread computes with: T (one path) or a tb_vec of V adjacent
 * paths of a tile (wide), whose arithmetic is lane by lane with the same
 * operations, so that every lane rounds as a one-path thread does. */
template <typename T, int V> struct alignas(sizeof(T) * V) tb_vec {
  T v[V];
};

template <typename T, int V>
__device__ __forceinline__ tb_vec<T, V> operator-(const tb_vec<T, V> &a, const tb_vec<T, V> &b)
{
  tb_vec<T, V> r;
#pragma unroll
  for (int q = 0; q < V; q++)
    r.v[q] = a.v[q] - b.v[q];
  return r;
}

template <typename T, int V>
__device__ __forceinline__ tb_vec<T, V> operator*(const tb_vec<T, V> &a, T b)
{
  tb_vec<T, V> r;
#pragma unroll
  for (int q = 0; q < V; q++)
    r.v[q] = a.v[q] * b;
  return r;
}

template <typename T, int V>
__device__ __forceinline__ tb_vec<T, V> operator*(T a, const tb_vec<T, V> &b)
{
  tb_vec<T, V> r;
#pragma unroll
  for (int q = 0; q < V; q++)
    r.v[q] = a * b.v[q];
  return r;
}

/* fma(a, b, c), lane by lane for a tb_vec. */
template <typename T> __device__ __forceinline__ T tb_fma(T a, T b, T c)
{
  return fma(a, b, c);
}

template <typename T, int V>
__device__ __forceinline__ tb_vec<T, V> tb_fma(T a, const tb_vec<T, V> &b, const tb_vec<T, V> &c)
{
  tb_vec<T, V> r;
#pragma unroll
  for (int q = 0; q < V; q++)
    r.v[q] = fma(a, b.v[q], c.v[q]);
  return r;
}

/* Load and store the values at p: plain for T (the strategies 1 to 5 as
 * they were), in 16-byte accesses at most for a tb_vec, evict-first when CS
 * (cache stream). */
template <bool CS, typename T> __device__ __forceinline__ void tb_get(const T *__restrict__ p, T &v)
{
  v = *p;
}

template <bool CS, typename T> __device__ __forceinline__ void tb_put(T *__restrict__ p, T v)
{
  *p = v;
}

template <bool CS, typename T, int V>
__device__ __forceinline__ void tb_get(const T *__restrict__ p, tb_vec<T, V> &v)
{
  constexpr int E = V * sizeof(T) > 16 ? 16 / (int)sizeof(T) : V;
  typedef typename tb_cuvec<T, E>::type N;
#pragma unroll
  for (int i = 0; i < V; i += E) {
    N x;
    if constexpr (CS)
      x = __ldcs(reinterpret_cast<const N *>(p + i));
    else
      x = __ldg(reinterpret_cast<const N *>(p + i));
    memcpy(&v.v[i], &x, sizeof x);
  }
}

template <bool CS, typename T, int V>
__device__ __forceinline__ void tb_put(T *__restrict__ p, const tb_vec<T, V> &v)
{
  constexpr int E = V * sizeof(T) > 16 ? 16 / (int)sizeof(T) : V;
  typedef typename tb_cuvec<T, E>::type N;
#pragma unroll
  for (int i = 0; i < V; i += E) {
    N x;
    memcpy(&x, &v.v[i], sizeof x);
    if constexpr (CS)
      __stcs(reinterpret_cast<N *>(p + i), x);
    else
      *reinterpret_cast<N *>(p + i) = x;
  }
}

/* The normals of one step for this thread's path (or paths). */
template <typename T, int D, bool CS = false, typename U>
__device__ __forceinline__ void tb_load_z(const T *__restrict__ zt, int row, U (&zv)[D])
{
#pragma unroll
  for (int j = 0; j < D; j++)
    tb_get<CS>(zt + (row * D + j) * TB_BRIDGE_LANES, zv[j]);
}

/* S = wl L + wr R + sig C Z, fused as the CPU twins do (C folded into sig when D = 1). */
template <typename T, int D, typename CM, typename U>
__device__ __forceinline__ void tb_point(const U (&L)[D], const U (&R)[D], const U (&zv)[D],
                                         const T *w, const CM &c, U (&S)[D])
{
  const T wl = w[TB_BRIDGE_WL], wr = w[TB_BRIDGE_WR], sig = w[TB_BRIDGE_SIG];
#pragma unroll
  for (int j = 0; j < D; j++) {
    U wz = zv[0];
    if (D > 1) {
      wz = c[j * D] * zv[0];
#pragma unroll
      for (int m = 1; m <= j; m++)
        wz = tb_fma(c[j * D + m], zv[m], wz);
    }
    S[j] = tb_fma(sig, wz, tb_fma(wr, R[j], wl * L[j]));
  }
}

/* The outputs of a step at o, the row of its point: the point, or the
 * increments it closes (the one ending at the point in that row, the one
 * starting there in the next). */
template <typename T, int D, bool CS = false, typename U>
__device__ __forceinline__ void tb_store_out(T *__restrict__ o, unsigned flags, const T *w,
                                             int inc, const U (&L)[D], const U (&R)[D],
                                             const U (&S)[D])
{
  if (!inc) {
#pragma unroll
    for (int j = 0; j < D; j++)
      tb_put<CS>(o + j * TB_BRIDGE_LANES, S[j]);
    return;
  }
  if (flags & TB_BRIDGE_INC_L) {
    const T il = w[TB_BRIDGE_IL];
#pragma unroll
    for (int j = 0; j < D; j++)
      tb_put<CS>(o + j * TB_BRIDGE_LANES, (S[j] - L[j]) * il);
  }
  if (flags & TB_BRIDGE_INC_R) {
    const T ir = w[TB_BRIDGE_IR];
#pragma unroll
    for (int j = 0; j < D; j++)
      tb_put<CS>(o + (D + j) * TB_BRIDGE_LANES, (R[j] - S[j]) * ir);
  }
}

/* This thread's group of V adjacent paths of a tile (V = 1: its path): its
 * normals and outputs, offset by its first lane; false for a thread past
 * the last path (it still takes part in the staging). */
template <typename T, int D, int V>
__device__ __forceinline__ bool tb_group(const tb_kargs<T> &a, const T *&zt, T *&xt)
{
  const int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t at =
      (q / (TB_BRIDGE_LANES / V)) * a.n * D * TB_BRIDGE_LANES + q % (TB_BRIDGE_LANES / V) * V;
  zt = a.z + at;
  xt = a.x + at;
  return q * V < a.npad;
}

/* C of the constant-memory variants. */
template <typename T> struct tb_const_chol {
  __device__ __forceinline__ T operator[](int i) const
  {
    return reinterpret_cast<const T *>(tb_c_chol)[i];
  }
};

/* One step of the constant-memory variants, with its normals in zv. */
template <typename T, int D>
__device__ __forceinline__ void tb_const_step(int k, const T (&zv)[D], T (&st)[TB_BRIDGE_GPU_SLOTS][D],
                                              T *__restrict__ xt, int inc)
{
  const tb_step s = tb_unpack(tb_c_step[k]);
  const T *w = reinterpret_cast<const T *>(tb_c_w) + k * TB_BRIDGE_NW;
  T L[D], R[D], S[D];
#pragma unroll
  for (int j = 0; j < D; j++) {
    L[j] = st[s.l][j];
    R[j] = st[s.r][j];
  }
  tb_point<T, D>(L, R, zv, w, tb_const_chol<T>(), S);
  tb_store_out<T, D>(xt + (s.out - 1) * D * TB_BRIDGE_LANES, s.flags, w, inc, L, R, S);
#pragma unroll
  for (int j = 0; j < D; j++)
    st[s.s][j] = S[j];
}

/* (1) and (3): the plan in constant memory; P normals prefetched (P = 1: none). */
template <typename T, int D, int P> __global__ void tb_k_const(const tb_kargs<T> a)
{
  const T *zt;
  T *xt;
  if (!tb_group<T, D, 1>(a, zt, xt))
    return;
  T st[TB_BRIDGE_GPU_SLOTS][D];
#pragma unroll
  for (int j = 0; j < D; j++)
    st[TB_BRIDGE_SLOT_X0][j] = a.x0;
  for (int k0 = 0; k0 < a.n; k0 += P) {
    T zv[P][D];
#pragma unroll
    for (int i = 0; i < P; i++)
      if (k0 + i < a.n)
        tb_load_z<T, D>(zt, (int)(tb_c_step[k0 + i].x >> 16), zv[i]);
#pragma unroll
    for (int i = 0; i < P; i++)
      if (k0 + i < a.n)
        tb_const_step<T, D>(k0 + i, zv[i], st, xt, a.inc);
  }
}

/* Stage the records of steps [k0, k0 + ms) of a plan (R of them a step)
 * and the weights of steps [k0, k0 + mw) (W a step) into shared memory (all
 * threads take part). */
template <int R, int W, typename S, typename T>
__device__ __forceinline__ void tb_stage(const S *rec, const T *w, int k0, int ms, int mw, S *sh,
                                         T *sw)
{
  __syncthreads(); /* the previous chunk is done with */
  for (int i = threadIdx.x; i < R * ms; i += blockDim.x)
    sh[i] = rec[R * k0 + i];
  for (int i = threadIdx.x; i < mw * W; i += blockDim.x)
    sw[i] = w[k0 * W + i];
  __syncthreads();
}

/* C in registers. */
template <typename T, int D> struct tb_reg_chol {
  T v[D > 1 ? D * D : 1];
  __device__ __forceinline__ T operator[](int i) const { return v[i]; }
};

template <typename T, int D> __device__ __forceinline__ tb_reg_chol<T, D> tb_chol_regs(const tb_kargs<T> &a)
{
  tb_reg_chol<T, D> c;
#pragma unroll
  for (int i = 0; i < (D > 1 ? D * D : 1); i++)
    c.v[i] = a.chol[i];
  return c;
}

/* (4): the plan streamed through shared memory, the next step's indices and
 * normals loaded ahead of the current step's arithmetic. */
template <typename T, int D, int P> __global__ void tb_k_shared(const tb_kargs<T> a)
{
  __shared__ uint3 sh_step[TB_BRIDGE_CHUNK];
  __shared__ T sh_w[TB_BRIDGE_CHUNK * TB_BRIDGE_NW];
  const T *zt;
  T *xt;
  const bool live = tb_group<T, D, 1>(a, zt, xt);
  const tb_reg_chol<T, D> c = tb_chol_regs<T, D>(a);
  T st[TB_BRIDGE_GPU_SLOTS][D];
#pragma unroll
  for (int j = 0; j < D; j++)
    st[TB_BRIDGE_SLOT_X0][j] = a.x0;
  for (int k0 = 0; k0 < a.n; k0 += TB_BRIDGE_CHUNK) {
    const int m = min(TB_BRIDGE_CHUNK, a.n - k0);
    tb_stage<1, TB_BRIDGE_NW>(a.step, a.w, k0, m, m, sh_step, sh_w);
    if (!live)
      continue;
    tb_step cur = tb_unpack(sh_step[0]);
    T zc[D];
    tb_load_z<T, D>(zt, cur.z, zc);
    for (int i = 0; i < m; i++) {
      tb_step nxt = cur;
      T zn[D];
#pragma unroll
      for (int j = 0; j < D; j++)
        zn[j] = zc[j];
      if (i + 1 < m) {
        nxt = tb_unpack(sh_step[i + 1]);
        tb_load_z<T, D>(zt, nxt.z, zn);
      }
      const T *w = sh_w + i * TB_BRIDGE_NW;
      T L[D], R[D], S[D];
#pragma unroll
      for (int j = 0; j < D; j++) {
        L[j] = st[cur.l][j];
        R[j] = st[cur.r][j];
      }
      tb_point<T, D>(L, R, zc, w, c, S);
      tb_store_out<T, D>(xt + (cur.out - 1) * D * TB_BRIDGE_LANES, cur.flags, w, a.inc, L, R, S);
#pragma unroll
      for (int j = 0; j < D; j++) {
        st[cur.s][j] = S[j];
        zc[j] = zn[j];
      }
      cur = nxt;
    }
  }
}

/* A neighbour: from the stack, or from the previous step's points. */
template <typename T, int D>
__device__ __forceinline__ void tb_fetch(unsigned src, int slot, const T (&st)[TB_BRIDGE_GPU_SLOTS][D],
                                         const T (&pl)[D], const T (&pr)[D], const T (&ps)[D],
                                         T (&v)[D])
{
  if (src == TB_BRIDGE_FROM_STACK) {
#pragma unroll
    for (int j = 0; j < D; j++)
      v[j] = st[slot][j];
  } else {
#pragma unroll
    for (int j = 0; j < D; j++)
      v[j] = src == TB_BRIDGE_FROM_L ? pl[j] : src == TB_BRIDGE_FROM_R ? pr[j] : ps[j];
  }
}

/* One step of strategy 5 (reuse, wide): the neighbours from the stack or
 * from the previous step's points, the point, its outputs, its stack slot
 * if a later step reads it there, and the previous step's points moved on. */
template <typename T, int D, bool CS = false, typename U, typename CM>
__device__ __forceinline__ void tb_reuse_step(const tb_step &s, const T *w, const CM &c,
                                              const U (&zv)[D], U (&st)[TB_BRIDGE_GPU_SLOTS][D],
                                              U (&pl)[D], U (&pr)[D], U (&ps)[D],
                                              T *__restrict__ xt, int inc)
{
  U L[D], R[D], S[D];
  tb_fetch<U, D>((s.flags >> TB_BRIDGE_SRC_L) & 3u, s.l, st, pl, pr, ps, L);
  tb_fetch<U, D>((s.flags >> TB_BRIDGE_SRC_R) & 3u, s.r, st, pl, pr, ps, R);
  tb_point<T, D>(L, R, zv, w, c, S);
  tb_store_out<T, D, CS>(xt + (s.out - 1) * D * TB_BRIDGE_LANES, s.flags, w, inc, L, R, S);
  if (s.flags & TB_BRIDGE_STORE) {
#pragma unroll
    for (int j = 0; j < D; j++)
      st[s.s][j] = S[j];
  }
#pragma unroll
  for (int j = 0; j < D; j++) {
    pl[j] = L[j];
    pr[j] = R[j];
    ps[j] = S[j];
  }
}

/* (5): as (4), reusing the previous step's points, with P normals prefetched. */
template <typename T, int D, int P> __global__ void tb_k_reuse(const tb_kargs<T> a)
{
  __shared__ uint3 sh_step[TB_BRIDGE_CHUNK];
  __shared__ T sh_w[TB_BRIDGE_CHUNK * TB_BRIDGE_NW];
  const T *zt;
  T *xt;
  const bool live = tb_group<T, D, 1>(a, zt, xt);
  const tb_reg_chol<T, D> c = tb_chol_regs<T, D>(a);
  T st[TB_BRIDGE_GPU_SLOTS][D], pl[D], pr[D], ps[D];
#pragma unroll
  for (int j = 0; j < D; j++)
    st[TB_BRIDGE_SLOT_X0][j] = pl[j] = pr[j] = ps[j] = a.x0;
  for (int k0 = 0; k0 < a.n; k0 += TB_BRIDGE_CHUNK) {
    const int m = min(TB_BRIDGE_CHUNK, a.n - k0);
    tb_stage<1, TB_BRIDGE_NW>(a.step, a.w, k0, m, m, sh_step, sh_w);
    if (!live)
      continue;
    for (int i0 = 0; i0 < m; i0 += P) {
      T zv[P][D];
#pragma unroll
      for (int i = 0; i < P; i++)
        if (i0 + i < m)
          tb_load_z<T, D>(zt, (int)(sh_step[i0 + i].x >> 16), zv[i]);
#pragma unroll
      for (int i = 0; i < P; i++) {
        if (i0 + i >= m)
          break;
        tb_reuse_step<T, D>(tb_unpack(sh_step[i0 + i]), sh_w + (i0 + i) * TB_BRIDGE_NW, c,
                            zv[i], st, pl, pr, ps, xt, a.inc);
      }
    }
  }
}

/* Request the normals of a plan's first P steps (of n) into the ring of a
 * thread, zv[i] for step i, from at(i), step i's normals in the thread's
 * tile (wide, smem). */
template <typename T, int D, int P, bool CS, typename U, typename F>
__device__ __forceinline__ void tb_ring_fill(int n, F at, U (&zv)[P][D])
{
#pragma unroll
  for (int i = 0; i < P; i++)
    if (i < n)
      tb_load_z<T, D, CS>(at(i), 0, zv[i]);
}

/* (5) wide: V adjacent paths of a tile per thread (its lanes V u .. V u +
 * V - 1), the normals of the next P steps always in flight, evict-first
 * loads and stores when CS. The staging takes P steps beyond the chunk, for
 * the indices of the normals requested ahead. */
template <typename T, int D, int P, int V, bool CS> __global__ void tb_k_wide(const tb_kargs<T> a)
{
  typedef tb_vec<T, V> vec;
  __shared__ uint3 sh_step[TB_BRIDGE_CHUNK + TB_BRIDGE_MAX_P];
  __shared__ T sh_w[TB_BRIDGE_CHUNK * TB_BRIDGE_NW];
  const T *zt;
  T *xt;
  const bool live = tb_group<T, D, V>(a, zt, xt);
  const tb_reg_chol<T, D> c = tb_chol_regs<T, D>(a);
  vec st[TB_BRIDGE_GPU_SLOTS][D], pl[D], pr[D], ps[D], zv[P][D];
#pragma unroll
  for (int j = 0; j < D; j++)
#pragma unroll
    for (int q = 0; q < V; q++)
      st[TB_BRIDGE_SLOT_X0][j].v[q] = pl[j].v[q] = pr[j].v[q] = ps[j].v[q] = a.x0;
  for (int k0 = 0; k0 < a.n; k0 += TB_BRIDGE_CHUNK) {
    const int m = min(TB_BRIDGE_CHUNK, a.n - k0);
    tb_stage<1, TB_BRIDGE_NW>(a.step, a.w, k0, min(m + P, a.n - k0), m, sh_step, sh_w);
    if (!live)
      continue;
    if (k0 == 0)
      tb_ring_fill<T, D, P, CS>(
          a.n, [&](int i) { return zt + (int)(sh_step[i].x >> 16) * D * TB_BRIDGE_LANES; }, zv);
    /* Step k's normals are in zv[k % P]: the chunk is a multiple of P. */
    for (int i0 = 0; i0 < m; i0 += P) {
#pragma unroll
      for (int i = 0; i < P; i++) {
        const int k = i0 + i;
        if (k >= m)
          break;
        vec zc[D];
#pragma unroll
        for (int j = 0; j < D; j++)
          zc[j] = zv[i][j];
        if (k0 + k + P < a.n)
          tb_load_z<T, D, CS>(zt, (int)(sh_step[k + P].x >> 16), zv[i]);
        tb_reuse_step<T, D, CS>(tb_unpack(sh_step[k]), sh_w + k * TB_BRIDGE_NW, c, zc, st, pl, pr,
                                ps, xt, a.inc);
      }
    }
  }
}

/* (6) smem: the stack in shared memory, so that a step is branch-free: it
 * reads L and R from the stack and stores S there (to the sink when no later
 * step reads it), with no local memory and no reuse branches. A thread
 * builds V = width adjacent paths of a tile (as wide), in vector accesses.
 * The block's dynamic shared memory holds the staged plan and the stack
 * laid out [slot][dim][thread] (V values an entry), so that a warp reads and
 * writes consecutive values, free of bank conflicts. The plan is staged as
 * byte offsets (tb_srec) and TB_BRIDGE_SW weights a step, so that every
 * address is one add; the normals of the next P steps are always in flight
 * (a ring of P registers). Why: reuse in float spent some 40 instructions
 * a step (16-bit unpacking, branches, local loads and stores) for 8 bytes
 * of traffic a path, and issued nearly as long as it waited for memory. The
 * plan is not read from constant memory: on an H100 a first version did,
 * and at full occupancy warps at different steps thrashed the constant
 * cache (0.30 of the copy at block 128 against 0.60 at block 512). */

/* A step of smem's plan: {z row, output row, L slot, R slot} and {S slot,
 * flags} as byte offsets (rows of the tile, slots of the stack). */
struct tb_srec {
  int4 a, b;
};

/* Weights a staged step holds (TB_BRIDGE_NW, padded for 16-byte loads). */
const int TB_BRIDGE_SW = 8;

/* A byte offset from p. */
template <typename T> __device__ __forceinline__ T *tb_at(T *p, int off)
{
  return reinterpret_cast<T *>(reinterpret_cast<char *>(p) + off);
}

template <typename T> __device__ __forceinline__ const T *tb_at(const T *p, int off)
{
  return reinterpret_cast<const T *>(reinterpret_cast<const char *>(p) + off);
}

/* Step k of the staged plan, with its normals in zc. */
template <typename T, int D, typename U, typename CM>
__device__ __forceinline__ void tb_smem_step(const tb_srec *rec, const T *sw, int k, int inc,
                                             const U (&zc)[D], T *xt, U *const (&stk)[D],
                                             const CM &c)
{
  U L[D], R[D], S[D];
  const int4 r = rec[k].a;
  const int2 q = make_int2(rec[k].b.x, rec[k].b.y);
  const T *w = sw + k * TB_BRIDGE_SW;
#pragma unroll
  for (int j = 0; j < D; j++) {
    L[j] = *tb_at(stk[j], r.z);
    R[j] = *tb_at(stk[j], r.w);
  }
  tb_point<T, D>(L, R, zc, w, c, S);
  tb_store_out<T, D>(tb_at(xt, r.y), (unsigned)q.y, w, inc, L, R, S);
#pragma unroll
  for (int j = 0; j < D; j++)
    *tb_at(stk[j], q.x) = S[j];
}

/* Step k with its normals in zv; when pre, the normals of step k + P are
 * requested into zv once they have been read. */
template <typename T, int D, int P, typename U, typename CM>
__device__ __forceinline__ void tb_smem_ring_step(const tb_srec *rec, const T *sw, int k, bool pre,
                                                  int inc, U (&zv)[D], const T *zt, T *xt,
                                                  U *const (&stk)[D], const CM &c)
{
  U zc[D];
#pragma unroll
  for (int j = 0; j < D; j++)
    zc[j] = zv[j];
  if (pre)
    tb_load_z<T, D>(tb_at(zt, rec[k + P].a.x), 0, zv);
  tb_smem_step<T, D>(rec, sw, k, inc, zc, xt, stk, c);
}

/* The plan is staged chunk by chunk (all of it at once for up to
 * TB_BRIDGE_CHUNK steps), with P records beyond the chunk for the normals
 * requested ahead. A persistent grid (one wave of resident blocks, each
 * thread building path group after path group with its ring of normals
 * running on from one path into the next) was measured on an H100 and lost:
 * 0.83 to 0.86 of the device copy against 0.88 to 0.90 for a thread a path
 * group, its extra state costing registers (64 against 48 at P 16 in float). */
template <typename T, int D, int P, int V> __global__ void tb_k_smem(const tb_kargs<T> a)
{
  typedef typename std::conditional<V == 1, T, tb_vec<T, V>>::type U;
  extern __shared__ int4 tb_sh[];
  const int cap = min(a.n, TB_BRIDGE_CHUNK);
  const tb_srec *rec = reinterpret_cast<const tb_srec *>(tb_sh);   /* cap + P */
  T *sw = reinterpret_cast<T *>(tb_sh + 2 * (cap + P));             /* cap x SW */
  U *stk0 = reinterpret_cast<U *>(sw + cap * TB_BRIDGE_SW);         /* the stack */
  const T *zt;
  T *xt;
  const bool live = tb_group<T, D, V>(a, zt, xt);
  const tb_reg_chol<T, D> c = tb_chol_regs<T, D>(a);
  U *stk[D];
#pragma unroll
  for (int j = 0; j < D; j++) {
    stk[j] = stk0 + j * blockDim.x + threadIdx.x; /* slot 0 (x0) is at offset 0 */
#pragma unroll
    for (int m = 0; m < V; m++)
      reinterpret_cast<T *>(stk[j])[m] = a.x0;
  }
  U zv[P][D];
  for (int k0 = 0; k0 < a.n; k0 += cap) {
    const int m = min(cap, a.n - k0);
    tb_stage<2, TB_BRIDGE_SW>(a.rec, a.w, k0, min(m + P, a.n - k0), m, tb_sh, sw);
    if (!live)
      continue;
    if (k0 == 0)
      tb_ring_fill<T, D, P, false>(a.n, [&](int i) { return tb_at(zt, rec[i].a.x); }, zv);
    /* Step k's normals are in zv[k % P]: cap is n or a multiple of P. A
     * group of P steps whose normals P ahead are all there to request goes
     * without checks. */
    for (int i0 = 0; i0 < m; i0 += P) {
      if (i0 + P <= m && k0 + i0 + 2 * P <= a.n) {
#pragma unroll
        for (int i = 0; i < P; i++)
          tb_smem_ring_step<T, D, P>(rec, sw, i0 + i, true, a.inc, zv[i], zt, xt, stk, c);
      } else {
#pragma unroll
        for (int i = 0; i < P; i++)
          if (i0 + i < m)
            tb_smem_ring_step<T, D, P>(rec, sw, i0 + i, k0 + i0 + i + P < a.n, a.inc, zv[i], zt,
                                       xt, stk, c);
      }
    }
  }
}

/* ---- Kernel tables: by strategy, dimension, P, V and cache hints ------ */

enum { TB_KCONST, TB_KPREFETCH, TB_KSHARED, TB_KREUSE, TB_KWIDE, TB_KSMEM };

template <typename T> using tb_kernel_t = void (*)(tb_kargs<T>);

/* The kernel of strategy K for (D, P, V, CS), or null where P x V x D
 * registers of normals are more than a thread may hold, or V x D values of
 * a step more than a wide thread may. */
template <typename T, int K, int D, int P, int V, bool CS> tb_kernel_t<T> tb_kernel_of()
{
  if constexpr (!tb_bridge_fits(P, V, D))
    return nullptr;
  else if constexpr (K == TB_KCONST || K == TB_KPREFETCH)
    return tb_k_const<T, D, P>;
  else if constexpr (K == TB_KSHARED)
    return tb_k_shared<T, D, P>;
  else if constexpr (K == TB_KREUSE)
    return tb_k_reuse<T, D, P>;
  else if constexpr (K == TB_KSMEM)
    return tb_k_smem<T, D, P, V>;
  else
    return tb_k_wide<T, D, P, V, CS>;
}

template <typename T, int K, int P, int V, bool CS> tb_kernel_t<T> tb_kernel_by_dim(int d)
{
  static const tb_kernel_t<T> table[TB_BRIDGE_MAX_DIM] = {
      tb_kernel_of<T, K, 1, P, V, CS>(), tb_kernel_of<T, K, 2, P, V, CS>(),
      tb_kernel_of<T, K, 3, P, V, CS>(), tb_kernel_of<T, K, 4, P, V, CS>(),
      tb_kernel_of<T, K, 5, P, V, CS>(), tb_kernel_of<T, K, 6, P, V, CS>(),
      tb_kernel_of<T, K, 7, P, V, CS>(), tb_kernel_of<T, K, 8, P, V, CS>()};
  return table[d - 1];
}

/* Strategies 3 and 5 take P from the parameter; 1 and 4 prefetch no group. */
template <typename T, int K, int V, bool CS> tb_kernel_t<T> tb_kernel_by_p(int d, int p)
{
  if constexpr (K == TB_KCONST || K == TB_KSHARED)
    return tb_kernel_by_dim<T, K, 1, V, CS>(d);
  else
    switch (p) {
    case 1: return tb_kernel_by_dim<T, K, 1, V, CS>(d);
    case 2: return tb_kernel_by_dim<T, K, 2, V, CS>(d);
    case 4: return tb_kernel_by_dim<T, K, 4, V, CS>(d);
    case 8: return tb_kernel_by_dim<T, K, 8, V, CS>(d);
    case 16: return tb_kernel_by_dim<T, K, 16, V, CS>(d);
    case 32: return tb_kernel_by_dim<T, K, 32, V, CS>(d);
    default: return tb_kernel_by_dim<T, K, 64, V, CS>(d);
    }
}

/* wide and smem take V (1, 2, 4 or 8) from the parameters, wide also the cache hints. */
template <typename T, int K> tb_kernel_t<T> tb_kernel(int d, int p, int v, bool cs)
{
  if constexpr (K == TB_KSMEM) {
    typedef tb_kernel_t<T> (*pick_t)(int, int);
    static const pick_t by_width[4] = {
        tb_kernel_by_p<T, K, 1, false>, tb_kernel_by_p<T, K, 2, false>,
        tb_kernel_by_p<T, K, 4, false>, tb_kernel_by_p<T, K, 8, false>};
    (void)cs;
    return by_width[v == 8 ? 3 : v == 4 ? 2 : v - 1](d, p);
  } else if constexpr (K != TB_KWIDE)
    return tb_kernel_by_p<T, K, 1, false>(d, p);
  else {
    typedef tb_kernel_t<T> (*pick_t)(int, int);
    static const pick_t by_width[4][2] = {
        {tb_kernel_by_p<T, K, 1, false>, tb_kernel_by_p<T, K, 1, true>},
        {tb_kernel_by_p<T, K, 2, false>, tb_kernel_by_p<T, K, 2, true>},
        {tb_kernel_by_p<T, K, 4, false>, tb_kernel_by_p<T, K, 4, true>},
        {tb_kernel_by_p<T, K, 8, false>, tb_kernel_by_p<T, K, 8, true>}};
    return by_width[v == 8 ? 3 : v == 4 ? 2 : v - 1][cs](d, p);
  }
}

/* ---- Variants ---------------------------------------------------------- */

struct tb_bridge_gpu {
  tb_bridge_plan_t plan;
  void *step, *w; /* the plan in global memory (shared, reuse, wide, smem) */
  void *kernel;
  int grid;
  size_t smem; /* dynamic shared memory of a block (smem's stack) */
  unsigned char args[sizeof(tb_kargs<double>)];
};

/* smem's plan (tb_srec) into rec and its weights into w, for a block of
 * `block` threads of V paths. */
template <typename T>
void tb_srec_fill(const tb_bridge_plan_t *plan, int dim, int block, int v, int4 *rec, T *w)
{
  /* Byte offsets: rows of the tile (d x 32 values), slots of the stack (d x
   * block entries of V values). */
  const int row = dim * TB_BRIDGE_LANES * (int)sizeof(T);
  const int slot = dim * block * v * (int)sizeof(T);
  for (int i = 0; i < plan->nsteps; i++) {
    const tb_bridge_step_t *q = &plan->step[i];
    rec[2 * i] = make_int4(q->z * row, (q->out - 1) * row, q->l * slot, q->r * slot);
    rec[2 * i + 1] = make_int4(q->s * slot, q->flags, 0, 0);
    for (int m = 0; m < TB_BRIDGE_SW; m++)
      w[i * TB_BRIDGE_SW + m] = m < TB_BRIDGE_NW ? (T)plan->w[i * TB_BRIDGE_NW + m] : (T)0;
  }
}

/* The plan where the variant reads it: constant memory (const and
 * prefetch) or global memory (shared, reuse, wide: the plan's steps; smem:
 * its records). */
template <typename T, int K>
int tb_bridge_upload(const tb_ctx_t *ctx, tb_bridge_gpu *st, const T *chol, int v)
{
  const tb_bridge_t *b = (const tb_bridge_t *)ctx->p->priv;
  const int n = st->plan.nsteps, nw = K == TB_KSMEM ? TB_BRIDGE_SW : TB_BRIDGE_NW;
  const size_t wbytes = (size_t)n * nw * sizeof(T);
  const size_t sbytes = K == TB_KSMEM ? (size_t)n * 2 * sizeof(int4) : (size_t)n * sizeof(tb_bridge_step_t);
  T *w = (T *)malloc(wbytes);
  int4 *rec = K == TB_KSMEM ? (int4 *)malloc(sbytes) : NULL;
  const void *steps = K == TB_KSMEM ? (const void *)rec : (const void *)st->plan.step;
  if (!w || (K == TB_KSMEM && !rec)) {
    free(w);
    free(rec);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  if (K == TB_KSMEM)
    tb_srec_fill<T>(&st->plan, b->dim, tb_gpu_block(ctx), v, rec, w);
  else
    for (int i = 0; i < n * TB_BRIDGE_NW; i++)
      w[i] = (T)st->plan.w[i];
  cudaError_t e;
  if (K == TB_KCONST || K == TB_KPREFETCH) {
    e = cudaMemcpyToSymbol(tb_c_step, steps, sbytes);
    if (e == cudaSuccess)
      e = cudaMemcpyToSymbol(tb_c_w, w, wbytes);
    if (e == cudaSuccess)
      e = cudaMemcpyToSymbol(tb_c_chol, chol, TB_BRIDGE_MAX_DIM * TB_BRIDGE_MAX_DIM * sizeof(T));
  } else {
    e = cudaMalloc(&st->step, sbytes);
    if (e == cudaSuccess)
      e = cudaMalloc(&st->w, wbytes);
    if (e == cudaSuccess)
      e = tb_gpu_copy(ctx, st->step, steps, sbytes, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
      e = tb_gpu_copy(ctx, st->w, w, wbytes, cudaMemcpyHostToDevice);
  }
  /* The symbols' copies ran in the legacy stream: wait for them before the
   * twin's non-blocking stream reads the constants. */
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize();
  free(w);
  free(rec);
  if (e != cudaSuccess)
    return tb_cuda_status(e, "uploading the plan", __FILE__, __LINE__);
  return TB_OK;
}

/* smem's dynamic shared memory: the staged plan and the block's stack,
 * refused when a block may not have that much. */
template <typename T>
int tb_bridge_smem(const tb_ctx_t *ctx, const tb_bridge_gpu *st, tb_kernel_t<T> kernel, int p,
                   int v, size_t *bytes)
{
  const tb_bridge_t *b = (const tb_bridge_t *)ctx->p->priv;
  const int cap = st->plan.nsteps < TB_BRIDGE_CHUNK ? st->plan.nsteps : TB_BRIDGE_CHUNK;
  const int block = tb_gpu_block(ctx);
  const size_t stack = (size_t)st->plan.slots * b->dim * block * v * sizeof(T);
  int dev = 0, optin = 0;
  *bytes = (size_t)(cap + p) * 2 * sizeof(int4) + (size_t)cap * TB_BRIDGE_SW * sizeof(T) + stack;
  TB_CUDA(cudaGetDevice(&dev));
  TB_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (*bytes > (size_t)optin)
    return tb_fail(TB_EUNSUP, "a stack of %d slots x dim %d x width %d x block %d and the plan "
                              "need %zu bytes of shared memory; a block may have %d",
                   st->plan.slots, b->dim, v, block, *bytes, optin);
  TB_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)*bytes));
  return TB_OK;
}

/* The values of P and V given as auto (0): the deepest ring, then the
 * widest V, whose P x V x d normals fit in the registers a thread may hold
 * for them (and V x d values of a step in a wide thread), P at most 32 and V
 * at most 2 (smem) or 4 (wide). smem's rule is the H200's measurement
 * (2026-11-29, doc/bridge.md): at the NAG size, at d = 1, 2 and 3, in float
 * and double, the deepest ring that fits was the fastest (P 32 at d 1 and 2,
 * P 16 at d 3), and V 2 beside P 32 at d 1 (float 0.877 of the copy against
 * 0.870 at V 1; double tied). wide's V is its old default 4 where that fits. */
void tb_bridge_auto(bool smem, int d, int *p, int *v)
{
  const int vmax = smem ? 2 : 4;
  if (!*p)
    for (*p = 32; *p > 1 && !tb_bridge_fits(*p, *v ? *v : 1, d); *p /= 2)
      ;
  if (!*v)
    for (*v = vmax; *v > 1 && !tb_bridge_fits(*p, *v, d); *v /= 2)
      ;
}

template <typename T, int K> int tb_bridge_prepare_t(tb_ctx_t *ctx, tb_bridge_gpu *st)
{
  const tb_bridge_t *b = (const tb_bridge_t *)ctx->p->priv;
  const tb_param_value_t *tp = tb_tune(ctx, "prefetch"), *tw = tb_tune(ctx, "width");
  const tb_param_value_t *tc = tb_tune(ctx, "cache");
  int p = tp ? (int)tp->i : 1, v = tw ? (int)tw->i : 1;
  const bool cs = tc && tc->i == TB_BRIDGE_CACHE_STREAM;
  tb_bridge_auto(K == TB_KSMEM, b->dim, &p, &v);
  if (tp)
    tb_tune_resolved(ctx, "prefetch", p);
  if (tw)
    tb_tune_resolved(ctx, "width", v);
  int rc = tb_bridge_plan_timed(ctx, &st->plan);
  if (rc)
    return rc;
  const int n = st->plan.nsteps;
  if (K != TB_KSMEM && st->plan.slots > TB_BRIDGE_GPU_SLOTS)
    return tb_fail(TB_EUNSUP, "the plan needs %d stack slots; a GPU thread holds %d",
                   st->plan.slots, TB_BRIDGE_GPU_SLOTS);
  if ((K == TB_KCONST || K == TB_KPREFETCH) && n > TB_BRIDGE_CONST_STEPS)
    return tb_fail(TB_EUNSUP, "%d steps do not fit in constant memory (at most %d)", n,
                   TB_BRIDGE_CONST_STEPS);
  if (v * b->dim > TB_BRIDGE_MAX_WIDE)
    return tb_fail(TB_EUNSUP, "width %d x dim %d values a step are more than the %d a thread may "
                              "hold (use a smaller width)",
                   v, b->dim, TB_BRIDGE_MAX_WIDE);
  if (p * v * b->dim > TB_BRIDGE_MAX_PREFETCH) {
    if (v == 1)
      return tb_fail(TB_EUNSUP, "prefetch %d x dim %d normals are more than the %d registers a "
                                "thread may hold for them",
                     p, b->dim, TB_BRIDGE_MAX_PREFETCH);
    return tb_fail(TB_EUNSUP, "prefetch %d x width %d x dim %d normals are more than the %d "
                              "registers a thread may hold for them",
                   p, v, b->dim, TB_BRIDGE_MAX_PREFETCH);
  }
  tb_kernel_t<T> kernel = tb_kernel<T, K>(b->dim, p, v, cs);
  if (K == TB_KSMEM && (rc = tb_bridge_smem<T>(ctx, st, kernel, p, v, &st->smem)))
    return rc;
  if ((rc = tb_gpu_fit(ctx, kernel, st->smem, NULL, NULL)))
    return rc;

  tb_kargs<T> a;
  memset(&a, 0, sizeof a);
  for (int i = 0; i < b->dim * b->dim; i++)
    a.chol[i] = (T)b->chol[i];
  if ((rc = tb_bridge_upload<T, K>(ctx, st, a.chol, v)))
    return rc;
  a.z = (const T *)ctx->buf[b->z];
  a.x = (T *)ctx->buf[b->x];
  a.npad = b->tiles * TB_BRIDGE_LANES;
  a.n = n;
  a.inc = b->mode == TB_BRIDGE_INCREMENTS;
  a.x0 = (T)b->x0;
  a.step = (const uint3 *)st->step;
  a.w = (const T *)st->w;
  a.rec = (const int4 *)st->step;
  memcpy(st->args, &a, sizeof a);
  st->kernel = (void *)kernel;
  const int block = tb_gpu_block(ctx);
  int64_t grid = (a.npad / v + block - 1) / block;
  if (grid > 0x7fffffff)
    return tb_fail(TB_EUNSUP, "%lld blocks are more than a grid holds", (long long)grid);
  st->grid = (int)grid;
  return TB_OK;
}

template <int K> int tb_bridge_prepare(tb_ctx_t *ctx)
{
  tb_bridge_gpu *st = (tb_bridge_gpu *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  return ctx->p->prec == TB_FLOAT ? tb_bridge_prepare_t<float, K>(ctx, st)
                                  : tb_bridge_prepare_t<double, K>(ctx, st);
}

template <typename T> int tb_bridge_run_t(tb_ctx_t *ctx)
{
  const tb_bridge_gpu *st = (const tb_bridge_gpu *)ctx->state;
  tb_kargs<T> a;
  memcpy(&a, st->args, sizeof a);
  ((tb_kernel_t<T>)st->kernel)<<<st->grid, tb_gpu_block(ctx), st->smem, tb_gpu_stream(ctx)>>>(a);
  TB_CUDA_LAUNCH("bridge");
  return TB_OK;
}

int tb_bridge_run(tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? tb_bridge_run_t<float>(ctx) : tb_bridge_run_t<double>(ctx);
}

void tb_bridge_release(tb_ctx_t *ctx)
{
  tb_bridge_gpu *st = (tb_bridge_gpu *)ctx->state;
  if (!st)
    return;
  tb_bridge_plan_free(&st->plan);
  cudaFree(st->step);
  cudaFree(st->w);
  free(st);
  ctx->state = NULL;
}

/* The tuning parameters: every variant's block, the prefetching ones' P,
 * wide's and smem's V, and wide's cache hints. */
const char *const tb_bridge_caches[] = {"stream", "plain", NULL};

#define TB_BRIDGE_PREFETCH_AS(AUTO, DEFAULT, FLAGS)                                              \
  {"prefetch", "P, the normals a thread holds in registers ahead of the steps that use them" AUTO, \
   TB_PARAM_INT, DEFAULT, 1, TB_BRIDGE_MAX_P, NULL, TB_PARAM_POW2 | (FLAGS), NULL}
#define TB_BRIDGE_PREFETCH TB_BRIDGE_PREFETCH_AS("", "8", 0)
#define TB_BRIDGE_WIDTH(AUTO)                                                                    \
  {"width", "V, adjacent paths per thread, loaded and stored in vector accesses; auto: " AUTO,   \
   TB_PARAM_INT, "auto", 1, 8, NULL, TB_PARAM_POW2 | TB_PARAM_AUTO, NULL}

const tb_param_def_t tb_bridge_tuning_block[] = {TB_GPU_BLOCK("256")};
const tb_param_def_t tb_bridge_tuning_prefetch[] = {TB_GPU_BLOCK("256"), TB_BRIDGE_PREFETCH};
const tb_param_def_t tb_bridge_tuning_wide[] = {
    TB_GPU_BLOCK("256"),
    TB_BRIDGE_PREFETCH,
    TB_BRIDGE_WIDTH("4, or the widest that fits beside P"),
    {"cache", "the loads and stores: stream (evict-first, __ldcs and __stcs: the data is touched "
              "once) or plain",
     TB_PARAM_CHOICE, "stream", 0, 0, tb_bridge_caches, 0, NULL},
};
const tb_param_def_t tb_bridge_tuning_smem[] = {
    TB_GPU_BLOCK("256"),
    TB_BRIDGE_PREFETCH_AS("; auto: the deepest ring of at most 32 whose P x V x d normals fit in "
                          "64 registers",
                          "auto", TB_PARAM_AUTO),
    TB_BRIDGE_WIDTH("2 where it fits beside P (d = 1), else 1")};

#define TB_BRIDGE_VARIANT(NAME, K, TUNING, SUMMARY)                                             \
  TB_VARIANT(tb_bridge_gpu_##NAME, #NAME, &tb_algo_bridge,                                      \
             TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE), 0, TUNING, TB_COUNT(TUNING),       \
             tb_bridge_prepare<K>, tb_bridge_run, NULL, tb_bridge_release, SUMMARY);

TB_BRIDGE_VARIANT(const, TB_KCONST, tb_bridge_tuning_block,
                  "(1) plan in constant memory, local stack per thread")
TB_BRIDGE_VARIANT(prefetch, TB_KPREFETCH, tb_bridge_tuning_prefetch,
                  "(3) as const, the normals of P steps prefetched into registers (prefetch)")
TB_BRIDGE_VARIANT(shared, TB_KSHARED, tb_bridge_tuning_block,
                  "(4) C in registers, plan streamed through shared memory, next indices and "
                  "normals loaded ahead")
TB_BRIDGE_VARIANT(reuse, TB_KREUSE, tb_bridge_tuning_prefetch,
                  "(5) as shared, the previous step's points reused from registers, P normals "
                  "prefetched (prefetch)")
TB_BRIDGE_VARIANT(wide, TB_KWIDE, tb_bridge_tuning_wide,
                  "(5) with V adjacent paths per thread in vector accesses (width), the normals "
                  "of the next P steps always in flight, evict-first hints (cache)")
TB_BRIDGE_VARIANT(smem, TB_KSMEM, tb_bridge_tuning_smem,
                  "(6) the stack in shared memory: branch-free steps, V paths a thread (width), "
                  "the normals of the next P steps always in flight (prefetch)")

} /* namespace */

TB_VARIANT_LIST(bridge, gpu, &tb_bridge_gpu_const, &tb_bridge_gpu_prefetch, &tb_bridge_gpu_shared,
                &tb_bridge_gpu_reuse, &tb_bridge_gpu_wide, &tb_bridge_gpu_smem);
