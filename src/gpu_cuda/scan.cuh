/* twinbench: the scan family's device building blocks (CUDA C++ only),
 * shared by the prefix sum and the stream compaction:
 *   - a tile of B x IPT elements per block, loaded and stored coalesced
 *     through a warp-private transposition in shared memory, so that each
 *     thread then holds IPT consecutive elements; element-wide accesses, or
 *     16-byte vector ones (ACC_VEC16: a quarter or half the instructions,
 *     each warp's access 512 contiguous bytes), or 16-byte vectors in shared
 *     memory too (ACC_WIDE: the transposition unpadded, a thread's elements
 *     read and written as whole vectors, a quarter or half of the shared
 *     memory instructions, and every global load of the tile issued before
 *     the first shared-memory store);
 *   - the block-wide scan of a tile (serial over a thread's elements, warp
 *     shuffles over the threads, one warp over the warps' totals);
 *   - the tile states of the single-pass scan with decoupled look-back
 *     (Merrill and Garland 2016): each tile publishes its aggregate (flag A)
 *     as soon as it knows it and its inclusive prefix (flag P) once it has
 *     looked back far enough; a warp looks back 32 tiles at a time,
 *     after a first sleep (lookdelay: CUB's tunings for sm_90 sleep about
 *     1.2 us here, the time a predecessor's store takes to reach L2),
 *     spinning on the window or sleeping between polls (backoff, doubling
 *     from the tuning's nanoseconds), which leaves the memory system and
 *     the SM's issue slots to the tiles that are loading;
 *   - the tile order: tile numbers from a counter in the order blocks
 *     start, or the block index itself (as CUB numbers its tiles), which
 *     spares each block an atomic's round trip and a barrier before its
 *     first load.
 * int32 problems run as unsigned int, whose sums wrap modulo 2^32. */
#ifndef TB_SCAN_CUH
#define TB_SCAN_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>
#include <type_traits>

#include "cuda_util.h"

/* The building blocks have internal linkage (an unnamed namespace), so that
 * each CUDA file that includes them gets its own kernels. */
namespace {
namespace tb_scan_dev {

/* The index of element i of a warp's region of 32 IPT elements in shared
 * memory, padded by one word in 32 so that a thread reading its IPT
 * consecutive elements meets no bank conflict. */
__device__ __forceinline__ int pad(int i)
{
  return i + (i >> 5);
}

/* The shared memory of a tile of `block` threads: the padded warp regions
 * and 33 slots for the warps' totals and the tile's prefix. */
template <typename T> constexpr size_t smem_bytes(int block, int ipt)
{
  return ((size_t)block * ipt + (size_t)block * ipt / 32 + 40) * sizeof(T);
}

template <typename T> __device__ __forceinline__ T *smem()
{
  extern __shared__ __align__(16) unsigned char tb_scan_smem_raw[];
  return reinterpret_cast<T *>(tb_scan_smem_raw);
}

/* The warp-private region of the calling warp and the slots after all regions. */
template <typename T, int IPT> __device__ __forceinline__ T *warp_region()
{
  return smem<T>() + (threadIdx.x >> 5) * (32 * IPT + IPT);
}
template <typename T, int IPT> __device__ __forceinline__ T *slots()
{
  return smem<T>() + (blockDim.x >> 5) * (32 * IPT + IPT);
}

/* The tile's global accesses (tuning access): element-wide; 16-byte
 * vectors in global memory through the padded element-wise transposition;
 * 16-byte vectors in global and shared memory (the transposition unpadded). */
enum { ACC_SCALAR, ACC_VEC16, ACC_WIDE };

/* A 16-byte vector of 4-byte or 8-byte elements, and its elements. */
template <typename T> struct vec16 {
  typedef typename std::conditional<sizeof(T) == 4, uint4, ulonglong2>::type type;
  static constexpr int n = 16 / (int)sizeof(T);
};

/* Load the tile at `base` (elements past n read as zero): coalesced
 * warp-striped reads into the warp's region, then each thread takes its IPT
 * consecutive elements v[] (tile position threadIdx.x * IPT + j). With
 * ACC_VEC16 or ACC_WIDE a whole warp's part is read in 16-byte vectors (IPT
 * a multiple of the vector's elements and `in` 16-byte aligned: the plan
 * checks both). ACC_WIDE first issues all of the thread's vector loads,
 * then moves them through the region unpadded, 16 bytes an instruction
 * each way (a thread's IPT elements are IPT / per whole vectors there);
 * a part that is not whole goes element-wise through the padded layout,
 * which the same warp then reads back (the branch is the warp's, so the
 * layouts never mix). */
template <typename T, int IPT, int ACC = ACC_SCALAR>
__device__ __forceinline__ void load_tile(const T *__restrict__ in, int64_t base, int64_t n, T *v)
{
  static_assert(ACC == ACC_SCALAR || IPT % vec16<T>::n == 0, "whole vectors a thread");
  typedef typename vec16<T>::type V;
  constexpr int per = vec16<T>::n;
  T *w = warp_region<T, IPT>();
  const int lane = threadIdx.x & 31;
  const int64_t wbase = base + (int64_t)(threadIdx.x >> 5) * 32 * IPT;
  const bool whole = wbase + 32 * IPT <= n;
  if (ACC == ACC_WIDE && whole) {
    const V *src = reinterpret_cast<const V *>(in + wbase);
    V *wv = reinterpret_cast<V *>(w);
    V r[IPT / per];
#pragma unroll
    for (int k = 0; k < IPT / per; k++)
      r[k] = src[k * 32 + lane];
#pragma unroll
    for (int k = 0; k < IPT / per; k++)
      wv[k * 32 + lane] = r[k];
    __syncwarp();
#pragma unroll
    for (int q = 0; q < IPT / per; q++) {
      const V x = wv[lane * (IPT / per) + q];
      memcpy(v + q * per, &x, sizeof x);
    }
    __syncwarp();
    return;
  }
  if (ACC == ACC_VEC16 && whole) {
    const V *src = reinterpret_cast<const V *>(in + wbase);
#pragma unroll
    for (int k = 0; k < IPT / per; k++) {
      const V x = src[k * 32 + lane];
      T e[per];
      memcpy(e, &x, sizeof x);
#pragma unroll
      for (int c = 0; c < per; c++)
        w[pad((k * 32 + lane) * per + c)] = e[c];
    }
  } else if (whole) {
#pragma unroll
    for (int k = 0; k < IPT; k++)
      w[pad(k * 32 + lane)] = in[wbase + k * 32 + lane];
  } else {
#pragma unroll
    for (int k = 0; k < IPT; k++) {
      const int64_t g = wbase + k * 32 + lane;
      w[pad(k * 32 + lane)] = g < n ? in[g] : T(0);
    }
  }
  __syncwarp();
#pragma unroll
  for (int j = 0; j < IPT; j++)
    v[j] = w[pad(lane * IPT + j)];
  __syncwarp();
}

/* Store a thread's IPT consecutive elements v[] back to the tile at base
 * (elements past n dropped), coalesced through the warp's region; with
 * ACC_VEC16 in 16-byte vectors where the warp's part is whole, as
 * load_tile; with ACC_WIDE through the unpadded region in 16-byte vectors
 * both ways. */
template <typename T, int IPT, int ACC = ACC_SCALAR>
__device__ __forceinline__ void store_tile(T *__restrict__ out, int64_t base, int64_t n,
                                           const T *v)
{
  static_assert(ACC == ACC_SCALAR || IPT % vec16<T>::n == 0, "whole vectors a thread");
  typedef typename vec16<T>::type V;
  constexpr int per = vec16<T>::n;
  T *w = warp_region<T, IPT>();
  const int lane = threadIdx.x & 31;
  const int64_t wbase = base + (int64_t)(threadIdx.x >> 5) * 32 * IPT;
  const bool whole = wbase + 32 * IPT <= n;
  if (ACC == ACC_WIDE && whole) {
    V *dst = reinterpret_cast<V *>(out + wbase);
    V *wv = reinterpret_cast<V *>(w);
#pragma unroll
    for (int q = 0; q < IPT / per; q++) {
      V x;
      memcpy(&x, v + q * per, sizeof x);
      wv[lane * (IPT / per) + q] = x;
    }
    __syncwarp();
#pragma unroll
    for (int k = 0; k < IPT / per; k++)
      dst[k * 32 + lane] = wv[k * 32 + lane];
    __syncwarp();
    return;
  }
#pragma unroll
  for (int j = 0; j < IPT; j++)
    w[pad(lane * IPT + j)] = v[j];
  __syncwarp();
  if (ACC == ACC_VEC16 && whole) {
    V *dst = reinterpret_cast<V *>(out + wbase);
#pragma unroll
    for (int k = 0; k < IPT / per; k++) {
      T e[per];
#pragma unroll
      for (int c = 0; c < per; c++)
        e[c] = w[pad((k * 32 + lane) * per + c)];
      V x;
      memcpy(&x, e, sizeof x);
      dst[k * 32 + lane] = x;
    }
  } else if (whole) {
#pragma unroll
    for (int k = 0; k < IPT; k++)
      out[wbase + k * 32 + lane] = w[pad(k * 32 + lane)];
  } else {
#pragma unroll
    for (int k = 0; k < IPT; k++) {
      const int64_t g = wbase + k * 32 + lane;
      if (g < n)
        out[g] = w[pad(k * 32 + lane)];
    }
  }
  __syncwarp();
}

/* The inclusive scan of v over a warp (Kogge-Stone shuffles: 5 levels). */
template <typename T> __device__ __forceinline__ T warp_inclusive(T v)
{
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    T u = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o)
      v += u;
  }
  return v;
}

/* The additions between an element and its tile-local prefix in
 * block_scan: IPT - 1 in the thread's running sum, 5 in the warp scan,
 * `over` over the warps' totals (warp 0's shuffle scan: 5; summed by every
 * thread, blockscan lanes: one a warp), 2 joining them, 1 for the tile's
 * offset. */
constexpr int tile_depth(int ipt, int over = 5)
{
  return ipt + 7 + over;
}

/* The block's scan of the threads' totals t: returns the exclusive prefix
 * of the calling thread's total (of its first element within the tile);
 * *agg gets the tile's total in every thread. s is the tile's slots (33
 * values; slots<T, IPT>() of the tile's element type, whose room also
 * holds 40 values of a narrower type). Warp shuffles scan the threads'
 * totals; then either warp 0 scans the warps' totals between two
 * barriers, or (lanes, as CUB's warp-scans block scan does) every thread
 * sums the warps' totals itself after the first barrier, in warp order
 * (broadcast reads of shared memory), so that the block meets one barrier
 * fewer and warp 0 goes on to publish the tile's aggregate at once. With
 * lanes the slots are read after the call: the caller writes none of them
 * again. */
template <typename T>
__device__ __forceinline__ T block_scan_total(T t, T *agg, T *s, bool lanes = false)
{
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
  const T incl = warp_inclusive(t);
  T excl = __shfl_up_sync(0xffffffffu, incl, 1);
  if (lane == 0)
    excl = T(0);
  if (lane == 31)
    s[wid] = incl;
  __syncthreads();
  if (lanes) {
    T before = T(0), all = T(0);
    for (int w = 0; w < nw; w++) {
      const T x = s[w];
      if (w == wid)
        before = all;
      all += x;
    }
    *agg = all;
    return before + excl;
  }
  if (wid == 0) {
    const T wt = lane < nw ? s[lane] : T(0);
    const T wi = warp_inclusive(wt);
    T we = __shfl_up_sync(0xffffffffu, wi, 1);
    if (lane < nw)
      s[lane] = lane == 0 ? T(0) : we;
    if (lane == 31)
      s[32] = wi;
  }
  __syncthreads();
  *agg = s[32];
  return s[wid] + excl;
}

/* block_scan_total of the sum of the thread's elements v[] (a running sum). */
template <typename T, int IPT>
__device__ __forceinline__ T block_scan(const T *v, T *agg, T *s, bool lanes = false)
{
  T t = v[0];
#pragma unroll
  for (int j = 1; j < IPT; j++)
    t += v[j];
  return block_scan_total<T>(t, agg, s, lanes);
}

/* ---- Decoupled look-back: the tile states ------------------------------ */

enum { FLAG_X = 0, FLAG_A = 1, FLAG_P = 2 };

/* The states of the tiles of a 4-byte type: one 64-bit word per tile, the
 * flag in the low half and the value's bits in the high half, written and
 * read whole (an aligned 64-bit access is single-copy atomic), so no fence
 * is needed between value and flag. The accesses are relaxed at GPU scope
 * (every reader is a block of the same grid), as CUB's are: a volatile
 * access compiles to the system scope's strong load and store, which the
 * look-back's polls need not pay for. Zeroed before each scan. */
template <typename T, bool WORD = sizeof(T) == 4> struct tile_states {
  unsigned long long *word;

  __device__ __forceinline__ void publish(int64_t tile, int flag, T v) const
  {
    unsigned bits;
    memcpy(&bits, &v, sizeof bits);
    const unsigned long long w = ((unsigned long long)bits << 32) | (unsigned)flag;
    asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(word + tile), "l"(w) : "memory");
  }
  __device__ __forceinline__ int read(int64_t tile, T *v) const
  {
    unsigned long long w;
    asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(w) : "l"(word + tile) : "memory");
    const unsigned bits = (unsigned)(w >> 32);
    memcpy(v, &bits, sizeof bits);
    return (int)(unsigned)w;
  }
  static size_t bytes(int64_t tiles) { return (size_t)tiles * sizeof(unsigned long long); }
  void bind(void *base, int64_t) { word = (unsigned long long *)base; }
};

/* The states of an 8-byte type: the aggregate and the inclusive prefix in
 * arrays of their own (each written once, before its flag, with a fence
 * between), so that a reader who saw flag A never reads a value that the
 * tile's later P overwrote. Flags zeroed before each scan. */
template <typename T> struct tile_states<T, false> {
  unsigned *flag;
  T *agg, *inc;

  __device__ __forceinline__ void publish(int64_t tile, int f, T v) const
  {
    *(volatile T *)((f == FLAG_A ? agg : inc) + tile) = v;
    __threadfence();
    *(volatile unsigned *)(flag + tile) = (unsigned)f;
  }
  __device__ __forceinline__ int read(int64_t tile, T *v) const
  {
    const int f = (int)*(volatile unsigned *)(flag + tile);
    if (f != FLAG_X) {
      __threadfence();
      *v = *(volatile T *)((f == FLAG_A ? agg : inc) + tile);
    }
    return f;
  }
  static size_t bytes(int64_t tiles)
  {
    return (size_t)tiles * (sizeof(unsigned) + 2 * sizeof(T)) + 2 * sizeof(T);
  }
  void bind(void *base, int64_t tiles)
  {
    flag = (unsigned *)base;
    size_t off = ((size_t)tiles * sizeof(unsigned) + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    agg = (T *)((char *)base + off);
    inc = agg + tiles;
  }
  /* Only the flags need zeroing. */
};

/* The tile counter (next_tile) sits in the first bytes of the states'
 * allocation, 16 of them so that the states stay aligned, and one memset
 * zeroes both before a scan (a launch fewer in the timed region). */
const size_t counter_bytes = 16;

/* The bytes of the states to zero before a scan: all the words, or the flags. */
template <typename T> size_t states_clear_bytes(int64_t tiles)
{
  return sizeof(T) == 4 ? (size_t)tiles * sizeof(unsigned long long) : (size_t)tiles * sizeof(unsigned);
}

/* Warp 0 of tile `tile` (> 0), after publishing its aggregate: the sum of
 * every earlier tile, found by looking back 32 tiles a time: wait until
 * none of the 32 is unpublished, add the values of those up to the nearest
 * one with an inclusive prefix (P), and stop there, or go 32 further back.
 * Tile 0 always publishes P, and every earlier tile has been started (tile
 * numbers come from a counter in the order blocks start), so the wait ends.
 * Before its first poll the warp sleeps `delay` nanoseconds (0: none), so
 * that predecessors which are about to publish need not be polled twice.
 * Between polls of a window that is not ready the warp sleeps `backoff`
 * nanoseconds, doubling to at most 1 us (0: it spins). Every lane returns
 * the sum. */
template <typename T, typename S>
__device__ __forceinline__ T look_back(const S &st, int64_t tile, unsigned backoff,
                                      unsigned delay)
{
  const int lane = threadIdx.x & 31;
  T excl = T(0);
  if (delay)
    __nanosleep(delay);
  for (int64_t base = tile - 1;; base -= 32) {
    const int64_t j = base - lane;
    T v = T(0);
    int f;
    for (unsigned ns = backoff;; ns = ns < 512u ? 2u * ns : 1024u) {
      f = j >= 0 ? st.read(j, &v) : (int)FLAG_P;
      if (!__any_sync(0xffffffffu, f == FLAG_X))
        break;
      if (ns)
        __nanosleep(ns);
    }
    const unsigned pmask = __ballot_sync(0xffffffffu, f == FLAG_P);
    const int nearest = pmask ? __ffs(pmask) - 1 : 31;
    T part = lane <= nearest && j >= 0 ? v : T(0);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
      part += __shfl_xor_sync(0xffffffffu, part, o);
    excl = part + excl;
    if (pmask)
      return excl;
  }
}

/* A thread's elements v[] turned into their prefix sums from `run` (the
 * sum of everything before the thread's first element): inclusive or
 * exclusive. */
template <typename T, int IPT> __device__ __forceinline__ void finish(T *v, T run, int excl)
{
  if (excl) {
#pragma unroll
    for (int j = 0; j < IPT; j++) {
      const T x = v[j];
      v[j] = run;
      run += x;
    }
  } else {
#pragma unroll
    for (int j = 0; j < IPT; j++) {
      run += v[j];
      v[j] = run;
    }
  }
}

/* The tuning of the tile kernels that is not a template parameter: the
 * look-back's first sleep between polls (ns), the tile order (1: by block
 * index), the sleep before the look-back's first poll (ns) and the block
 * scan. */
struct tile_opts {
  unsigned backoff;
  int by_block;
  unsigned delay;
  bool lanes; /* the block scan: every thread sums the warps' totals (block_scan_total) */
};

/* The tile this block scans. By counter: the next number from *counter
 * (zeroed with the states before each scan), so that tiles start in the
 * order blocks start, whatever order the hardware starts them in, at the
 * cost of an atomic's round trip and a barrier before the block's first
 * load. By block: blockIdx.x, as CUB numbers its tiles, which relies on
 * the hardware starting blocks in index order (a tile waits only for
 * tiles of lower index, which have then started and so finish). */
__device__ __forceinline__ int64_t next_tile(unsigned long long *counter, int by_block)
{
  if (by_block)
    return blockIdx.x;
  __shared__ int64_t tile_s;
  if (threadIdx.x == 0)
    tile_s = (int64_t)atomicAdd(counter, 1ull);
  __syncthreads();
  return tile_s;
}

/* Warp 0 of tile `tile`, whose total is agg: publish the aggregate, look
 * back for the sum of the tiles before (tile 0: none; sleeps as o's
 * backoff and delay, look_back), publish the inclusive prefix, and leave the exclusive one in
 * *prefix (shared memory: the caller's next barrier shows it to the
 * block). */
template <typename T, typename S>
__device__ __forceinline__ void tile_prefix(const S &st, int64_t tile, T agg, T *prefix,
                                            const tile_opts &o)
{
  if (threadIdx.x >= 32)
    return;
  if (tile == 0) {
    if (threadIdx.x == 0) {
      st.publish(0, FLAG_P, agg);
      *prefix = T(0);
    }
    return;
  }
  if (threadIdx.x == 0)
    st.publish(tile, FLAG_A, agg);
  const T e = look_back<T>(st, tile, o.backoff, o.delay);
  if (threadIdx.x == 0) {
    st.publish(tile, FLAG_P, e + agg);
    *prefix = e;
  }
}

/* lookback: the single pass over tiles of blockDim.x x IPT elements. */
template <typename T, int IPT, int ACC = ACC_SCALAR>
__global__ void k_lookback(const T *__restrict__ in, T *__restrict__ out, int64_t n, int excl,
                           tile_states<T> st, unsigned long long *counter, tile_opts o)
{
  __shared__ T prefix_s;
  const int64_t tile = next_tile(counter, o.by_block), base = tile * blockDim.x * IPT;
  T v[IPT], agg;
  load_tile<T, IPT, ACC>(in, base, n, v);
  const T local = block_scan<T, IPT>(v, &agg, slots<T, IPT>(), o.lanes);
  tile_prefix<T>(st, tile, agg, &prefix_s, o);
  __syncthreads();
  finish<T, IPT>(v, prefix_s + local, excl);
  store_tile<T, IPT, ACC>(out, base, n, v);
}

/* The tuning parameters of the tile kernels: the items a thread holds,
 * 16-byte accesses or element-wide ones, and the look-back's sleeps before
 * its first poll and between polls. The sleeps' defaults are CUB's sm_90
 * values, which won on the H200 machine (2^28, block 128, 24 items, one
 * run, doc/scan.md): int32 scan 0.675 ms against 0.793 ms polling at once
 * and CUB's 0.695; compaction 0.545 against 0.684 and CUB's 0.602. */
#define TB_SCAN_ITEMS                                                                            \
  {"items", "consecutive elements a thread holds (tile = block x items); auto: 16 for "         \
            "4-byte elements, 8 for 8-byte", TB_PARAM_INT, "auto", 4, 24, NULL, TB_PARAM_AUTO,  \
   "4,8,12,16,24"}
const char *const access_choices[] = {"scalar", "vec16", "wide", NULL};
#define TB_SCAN_ACCESS                                                                           \
  {"access", "loads and stores of a tile: scalar, one element an instruction; vec16, 16-byte "   \
             "vectors in global memory (the warp's 32 x 16 contiguous bytes an instruction); "   \
             "wide, 16-byte vectors in global and shared memory (all loads first)",              \
   TB_PARAM_CHOICE, "vec16", 0, 0, tb_scan_dev::access_choices, 0, "scalar,vec16,wide"}
#define TB_SCAN_BACKOFF                                                                          \
  {"backoff", "nanoseconds the look-back's warp first sleeps between polls of a window that is " \
              "not ready, doubling to 1 us; 0 spins", TB_PARAM_INT, "640", 0, 1024, NULL, 0,     \
   "0,32,128,640"}
#define TB_SCAN_DELAY                                                                            \
  {"lookdelay", "nanoseconds the look-back's warp sleeps after publishing its tile's aggregate, " \
                "before its first poll (CUB's sm_90 tuning: about 1200); 0 polls at once",      \
   TB_PARAM_INT, "1245", 0, 4096, NULL, 0, "0,1245"}
const char *const blockscan_choices[] = {"warp0", "lanes", NULL};
#define TB_SCAN_BLOCKSCAN                                                                        \
  {"blockscan", "the scan of the warps' totals in a tile: warp0, warp 0 scans them between two " \
                "barriers; lanes, every thread sums them after one barrier (as CUB)",            \
   TB_PARAM_CHOICE, "warp0", 0, 0, tb_scan_dev::blockscan_choices, 0, "warp0,lanes"}
const char *const order_choices[] = {"counter", "block", NULL};
#define TB_SCAN_ORDER                                                                            \
  {"tileorder", "tile numbers: counter, from an atomic counter in the order blocks start (safe in "  \
            "any start order); block, the block index (as CUB; no atomic before the loads, "     \
            "relies on blocks starting in index order)",                                         \
   TB_PARAM_CHOICE, "counter", 0, 0, tb_scan_dev::order_choices, 0, "counter,block"}

/* The tuning's access (ACC_*), backoff, order, delay and block scan, with the checks
 * that vector accesses need: items a multiple of the vector's elements and
 * every array given 16-byte aligned. */
template <typename T>
int tuned_access(const tb_ctx_t *ctx, int ipt, const void *a, const void *b, int *acc,
                 tile_opts *o)
{
  *acc = (int)tb_tune(ctx, "access")->i;
  o->backoff = (unsigned)tb_tune(ctx, "backoff")->i;
  o->by_block = tb_tune(ctx, "tileorder")->i == 1;
  o->delay = (unsigned)tb_tune(ctx, "lookdelay")->i;
  o->lanes = tb_tune(ctx, "blockscan")->i == 1;
  if (*acc != ACC_SCALAR && (ipt % vec16<T>::n || ((uintptr_t)a | (uintptr_t)b) % 16))
    return tb_fail(TB_EUNSUP, "16-byte accesses need items a multiple of %d and aligned arrays",
                   vec16<T>::n);
  return TB_OK;
}

} /* namespace tb_scan_dev */
} /* namespace */

#endif
