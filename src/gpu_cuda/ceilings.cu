/* twinbench: the GPU backend's ceilings, measured on the current device.
 *
 * Memory (GB/s): buffers of up to 1 GiB each, sized down like the device-copy
 * limit (backend.cu) so that they take at most half the free memory, filled
 * with a non-zero byte pattern. read is a summing kernel of 16-byte loads,
 * copy the better of cudaMemcpyAsync and a 16-byte copy kernel, triad
 * a = b + q c in 16-byte accesses; each kernel is tried at a few block and
 * grid shapes and the best kept. gather is out[i] = in[idx[i]] over three
 * such buffers of 4-byte elements, the indices random (uniform, with
 * repeats) over the whole table, so that nearly every read fetches a 32-byte
 * sector of its own from memory: GB/s at 32 bytes a read, the streamed
 * index and output not counted, as list ranking's cost model counts.
 * Compute (GFLOP/s): every thread runs independent FMA chains, enough of them
 * that the FMA latency is hidden, on blocks that fill every SM; the number of
 * steps is calibrated so that a launch takes a few milliseconds.
 * Every measurement is the best of ten launches after two warm-ups, timed
 * with CUDA events on one stream of its own. */
#include <config.h>

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "cuda_util.h"

namespace {

/* The most bytes of each memory buffer, and the least it is halved to. */
const int64_t tb_ceil_max_bytes = TB_GPU_CEILING_BYTES;
const int64_t tb_ceil_min_bytes = (int64_t)1 << 24;

/* The byte every memory buffer is filled with: as a double, 0x3C3C... is
 * about 8.7e-19, a normal number, so sums and triads stay finite and clear
 * of denormals; not zero, so that nothing could skip a zero page. */
const int tb_ceil_fill = 0x3C;

/* Launches per measurement: the first ones warm up (clocks, caches, lazy
 * module loading), the best of the rest counts. */
const int tb_ceil_warmups = 2;
const int tb_ceil_timed = 10;

/* The triad's scalar, STREAM's. */
const double tb_ceil_q = 3.0;

/* The block and grid shapes the memory kernels try: a wave is as many blocks
 * as are resident on the whole device at once (occupancy x SMs). One wave
 * has long loops and no tail of late blocks; many waves have short loops and
 * let the block scheduler balance the SMs; which is faster differs between
 * devices, so both are timed. The texts are the memory kinds' *how. */
struct tb_ceil_shape {
  int block, waves;
  const char *how[4]; /* indexed by TB_CEIL_READ, TB_CEIL_COPY, TB_CEIL_TRIAD, and the gather */
};

#define TB_CEIL_SHAPE(BLOCK, WAVES, TEXT)                                                        \
  {BLOCK, WAVES,                                                                                 \
   {"read kernel, 16-byte loads, " TEXT, "copy kernel, 16-byte accesses, " TEXT,                \
    "triad kernel, 16-byte accesses, " TEXT, "gather kernel, 4 reads in flight a thread, " TEXT}}

/* The index of a memory kind's text in a shape's how[]. */
int tb_ceil_how_slot(int kind)
{
  return kind == TB_CEIL_GATHER ? 3 : kind;
}

const tb_ceil_shape tb_ceil_shapes[] = {
    TB_CEIL_SHAPE(256, 1, "one wave of 256-thread blocks"),
    TB_CEIL_SHAPE(512, 4, "4 waves of 512-thread blocks"),
    TB_CEIL_SHAPE(256, 32, "32 waves of 256-thread blocks"),
};
const int tb_ceil_nshapes = (int)(sizeof tb_ceil_shapes / sizeof tb_ceil_shapes[0]);

/* The FMA kernels: independent chains per thread (FP32 FMA latency is 4
 * cycles on recent GPUs, FP64 a few more; 8 chains with many warps resident
 * keep every pipeline busy), and steps per chain per trip of the loop (the
 * loop's counter and branch take issue slots, 32 steps make them about 1%
 * of the instructions). */
const int tb_fma_chains = 8;
const int tb_fma_unroll = 32;
const int tb_fma_block = 256;

/* The trips of the calibration launch, and the time a measured launch aims
 * at: a few milliseconds is long against launch overhead and event
 * resolution, and twelve of them keep a call short (about 0.06 s on an
 * H100) on any device, slow FP64 included, since the trips scale. */
const int tb_fma_calib_trips = 256;
const double tb_fma_target_ms = 5.0;
const int64_t tb_fma_max_trips = (int64_t)1 << 24;

/* What a measurement holds, freed by tb_ceil_free whatever happened. */
struct tb_ceil_res {
  cudaStream_t stream;
  cudaEvent_t ev[2];
  void *buf[3];
  double *part;      /* device: the read kernel's per-block sums */
  double *host_part; /* host: the same, copied back to check them */
  void *out;         /* device: where the FMA kernels would write a sentinel hit */
  unsigned long long *bad; /* device: the gather's wrong outputs */
  int sms;
};

/* ---- Kernels ------------------------------------------------------------ */

/* The largest block of the memory kernels' shapes. */
const int tb_ceil_max_block = 512;

/* Sum of the n doubles of a: a grid-stride loop of 16-byte loads, four of them
 * in flight per thread per trip (all four are issued before the adds wait on
 * them), then the rest one at a time, and the odd last double, if any, by
 * thread 0. Each block writes its sum to part[blockIdx.x], so no load can be
 * elided. The block size must be a multiple of 32 (tb_block_sum). Without
 * the launch bounds' minimum of two blocks, ptxas (CUDA 13.0, sm_90) keeps to
 * 32 registers and waits for the first load before issuing the other three. */
__global__ void __launch_bounds__(tb_ceil_max_block, 2)
    tb_k_ceil_read(const double *__restrict__ a, int64_t n, double *__restrict__ part)
{
  const double2 *av = reinterpret_cast<const double2 *>(a);
  const int64_t nv = n / 2, stride = (int64_t)gridDim.x * blockDim.x;
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  double acc[4] = {0.0, 0.0, 0.0, 0.0};
  for (; i + 3 * stride < nv; i += 4 * stride) {
    double2 x[4];
#pragma unroll
    for (int u = 0; u < 4; u++)
      x[u] = av[i + u * stride];
#pragma unroll
    for (int u = 0; u < 4; u++)
      acc[u] += x[u].x + x[u].y;
  }
  for (; i < nv; i += stride) {
    const double2 x = av[i];
    acc[0] += x.x + x.y;
  }
  if ((n & 1) && blockIdx.x == 0 && threadIdx.x == 0)
    acc[0] += a[n - 1];
  const double s = tb_block_sum((acc[0] + acc[1]) + (acc[2] + acc[3]));
  if (threadIdx.x == 0)
    part[blockIdx.x] = s;
}

/* c = a over n doubles: 16-byte loads and stores in a grid-stride loop, then
 * the odd last double, if any. */
__global__ void tb_k_ceil_copy(const double *__restrict__ a, double *__restrict__ c, int64_t n)
{
  const double2 *av = reinterpret_cast<const double2 *>(a);
  double2 *cv = reinterpret_cast<double2 *>(c);
  const int64_t nv = n / 2, stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (int64_t i = tid; i < nv; i += stride)
    cv[i] = av[i];
  for (int64_t i = 2 * nv + tid; i < n; i += stride)
    c[i] = a[i];
}

/* a = b + q c over n doubles, likewise. */
__global__ void tb_k_ceil_triad(double *__restrict__ a, const double *__restrict__ b,
                                const double *__restrict__ c, double q, int64_t n)
{
  double2 *av = reinterpret_cast<double2 *>(a);
  const double2 *bv = reinterpret_cast<const double2 *>(b);
  const double2 *cv = reinterpret_cast<const double2 *>(c);
  const int64_t nv = n / 2, stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (int64_t i = tid; i < nv; i += stride) {
    const double2 y = bv[i], z = cv[i];
    av[i] = make_double2(y.x + q * z.x, y.y + q * z.y);
  }
  for (int64_t i = 2 * nv + tid; i < n; i += stride)
    a[i] = b[i] + q * c[i];
}

/* The gather's table entry j, and the random index of output i into a
 * table of m entries: a 64-bit finaliser (splitmix64's) of i scaled to
 * [0, m) by its high half (m <= 2^32). */
__device__ __forceinline__ unsigned tb_ceil_table_at(int64_t j)
{
  return (unsigned)j * 2654435761u + 0x5bd1e995u;
}

__device__ __forceinline__ unsigned tb_ceil_index_at(int64_t i, int64_t m)
{
  unsigned long long z = (unsigned long long)i + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (unsigned)(((z >> 32) * (unsigned long long)m) >> 32);
}

/* The gather's table and indices. */
__global__ void tb_k_ceil_gather_fill(unsigned *__restrict__ in, unsigned *__restrict__ idx,
                                      int64_t m)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
    in[i] = tb_ceil_table_at(i);
    idx[i] = tb_ceil_index_at(i, m);
  }
}

/* out[i] = in[idx[i]] over m elements: a grid-stride loop with four
 * gathers in flight a thread (the four indices loaded, then the four
 * random reads issued before any is used), then the rest one at a time. */
__global__ void tb_k_ceil_gather(const unsigned *__restrict__ in, const unsigned *__restrict__ idx,
                                 unsigned *__restrict__ out, int64_t m)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < m; i += 4 * stride) {
    unsigned j[4], v[4];
#pragma unroll
    for (int u = 0; u < 4; u++)
      j[u] = idx[i + u * stride];
#pragma unroll
    for (int u = 0; u < 4; u++)
      v[u] = in[j[u]];
#pragma unroll
    for (int u = 0; u < 4; u++)
      out[i + u * stride] = v[u];
  }
  for (; i < m; i += stride)
    out[i] = in[idx[i]];
}

/* The gather's wrong outputs, counted into *bad. */
__global__ void tb_k_ceil_gather_check(const unsigned *__restrict__ out, int64_t m,
                                       unsigned long long *bad)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  unsigned long long wrong = 0;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride)
    wrong += out[i] != tb_ceil_table_at(tb_ceil_index_at(i, m));
  if (wrong)
    atomicAdd(bad, wrong);
}

__device__ __forceinline__ float tb_fma(float a, float x, float y)
{
  return fmaf(a, x, y);
}

__device__ __forceinline__ double tb_fma(double a, double x, double y)
{
  return fma(a, x, y);
}

/* FMA throughput: tb_fma_chains independent chains c = c x + y per thread,
 * tb_fma_unroll steps of each per trip, trips times. With x just under 1 and
 * y = 1 - x the chains converge to 1 from their start just above it: no
 * overflow, no denormals. The chains start apart (and x, y and the sentinel
 * are parameters) so that the compiler can neither merge them nor fold them;
 * their sum is stored only if it equals the sentinel, which the host makes
 * impossible, so the stores cost nothing but the chains must be computed. */
template <typename T>
__global__ void __launch_bounds__(tb_fma_block)
    tb_k_ceil_fma(T x, T y, T sentinel, int trips, T *out)
{
  T c[tb_fma_chains];
#pragma unroll
  for (int k = 0; k < tb_fma_chains; k++)
    c[k] = T(1) + T(threadIdx.x + 1) * T(k + 1) * T(1e-7);
#pragma unroll 1
  for (int t = 0; t < trips; t++) {
#pragma unroll
    for (int u = 0; u < tb_fma_unroll; u++) {
#pragma unroll
      for (int k = 0; k < tb_fma_chains; k++)
        c[k] = tb_fma(c[k], x, y);
    }
  }
  T s = T(0);
#pragma unroll
  for (int k = 0; k < tb_fma_chains; k++)
    s += c[k];
  if (s == sentinel)
    out[0] = s;
}

/* ---- Host side ---------------------------------------------------------- */

/* Time warmups + timed calls of enqueue() (an int function that enqueues one
 * launch or copy on r->stream and returns a status), each between the two
 * events: the best of the last `timed`, in milliseconds. */
template <typename F>
int tb_ceil_time(const tb_ceil_res *r, int warmups, int timed, F enqueue, double *best_ms)
{
  double best = HUGE_VAL;
  for (int k = 0; k < warmups + timed; k++) {
    float ms = 0.0f;
    TB_CUDA(cudaEventRecord(r->ev[0], r->stream));
    int rc = enqueue();
    if (rc)
      return rc;
    TB_CUDA(cudaEventRecord(r->ev[1], r->stream));
    TB_CUDA(cudaEventSynchronize(r->ev[1]));
    TB_CUDA(cudaEventElapsedTime(&ms, r->ev[0], r->ev[1]));
    if (k >= warmups && ms < best)
      best = ms;
  }
  if (!(best > 0.0) || !isfinite(best))
    return tb_fail(TB_EDEVICE, "a ceiling measurement took no measurable time");
  *best_ms = best;
  return TB_OK;
}

/* The grid of a memory kernel of `work` 16-byte items in shape s: s.waves
 * waves of resident blocks, but no more blocks than items; 0 if the kernel
 * cannot run blocks of that size. */
template <typename K>
int tb_ceil_grid(const tb_ceil_res *r, K kernel, const tb_ceil_shape *s, int64_t work, int *grid)
{
  int per_sm = 0;
  TB_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, s->block, 0));
  int64_t g = (int64_t)per_sm * r->sms * s->waves;
  const int64_t need = (work + s->block - 1) / s->block;
  if (g > need)
    g = need;
  *grid = per_sm > 0 ? (int)(g > 0 ? g : 1) : 0;
  return TB_OK;
}

/* The stream, the events and the SM count every kind needs. */
int tb_ceil_setup(tb_ceil_res *r)
{
  int dev = 0;
  TB_CUDA(cudaGetDevice(&dev));
  TB_CUDA(cudaDeviceGetAttribute(&r->sms, cudaDevAttrMultiProcessorCount, dev));
  TB_CUDA(cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking));
  TB_CUDA(cudaEventCreate(&r->ev[0]));
  TB_CUDA(cudaEventCreate(&r->ev[1]));
  return TB_OK;
}

/* nbuf buffers of *bytes each: 1 GiB, halved (down to 16 MiB) while they
 * would take more than half the free memory; filled with tb_ceil_fill.
 * *n doubles each, *work pairs of them (16-byte items, the last maybe half). */
int tb_ceil_buffers(tb_ceil_res *r, int nbuf, int64_t *bytes, int64_t *n, int64_t *work)
{
  size_t free_b = 0, total = 0;
  TB_CUDA(cudaMemGetInfo(&free_b, &total));
  int64_t b = tb_ceil_max_bytes;
  while (b > tb_ceil_min_bytes && nbuf * b > (int64_t)free_b / 2)
    b /= 2;
  for (int i = 0; i < nbuf; i++) {
    TB_CUDA(cudaMalloc(&r->buf[i], (size_t)b));
    TB_CUDA(cudaMemsetAsync(r->buf[i], tb_ceil_fill, (size_t)b, r->stream));
  }
  TB_CUDA(cudaStreamSynchronize(r->stream));
  *bytes = b;
  *n = b / (int64_t)sizeof(double);
  *work = (*n + 1) / 2;
  return TB_OK;
}

/* The best rate over the shapes of one kernel: grid_of(k, &grid) gives the
 * grid of shape k (below 1: the shape is skipped), launch(grid, block)
 * enqueues one run, check(k, grid) vets its output after the timed runs;
 * moved is the bytes of one run. Raises *best, naming the shape in *how. */
template <typename G, typename L, typename C>
int tb_ceil_best_shape(tb_ceil_res *r, int kind, double moved, G grid_of, L launch, C check,
                       double *best, const char **how)
{
  for (int k = 0; k < tb_ceil_nshapes; k++) {
    const int block = tb_ceil_shapes[k].block;
    int grid = 0;
    double ms = 0.0;
    int rc = grid_of(k, &grid);
    if (rc)
      return rc;
    if (grid < 1)
      continue;
    if ((rc = tb_ceil_time(r, tb_ceil_warmups, tb_ceil_timed, [&]() { return launch(grid, block); },
                           &ms)) ||
        (rc = check(k, grid)))
      return rc;
    const double g = moved / (ms * 1e6);
    if (g > *best) {
      *best = g;
      *how = tb_ceil_shapes[k].how[tb_ceil_how_slot(kind)];
    }
  }
  return TB_OK;
}

/* Read: the summing kernel at every shape. After each shape's launches the
 * block sums come back and must add up to the buffer's sum, so a kernel that
 * skipped loads, or read garbage, fails instead of reporting a ceiling. */
int tb_ceil_read(tb_ceil_res *r, double *gbs, const char **how)
{
  int64_t bytes = 0, n = 0, work = 0;
  int rc = tb_ceil_buffers(r, 1, &bytes, &n, &work);
  if (rc)
    return rc;
  const double *a = (const double *)r->buf[0];
  int grids[tb_ceil_nshapes], most = 1;
  for (int k = 0; k < tb_ceil_nshapes; k++) {
    rc = tb_ceil_grid(r, tb_k_ceil_read, &tb_ceil_shapes[k], work, &grids[k]);
    if (rc)
      return rc;
    if (tb_ceil_shapes[k].block % 32 || tb_ceil_shapes[k].block > tb_ceil_max_block)
      grids[k] = 0; /* tb_block_sum needs whole warps; the launch bounds cap the block */
    if (grids[k] > most)
      most = grids[k];
  }
  TB_CUDA(cudaMalloc(&r->part, (size_t)most * sizeof(double)));
  r->host_part = (double *)malloc((size_t)most * sizeof(double));
  if (!r->host_part)
    return tb_fail(TB_ENOMEM, "out of memory");

  /* What the sum must be: n copies of the fill pattern as a double. */
  uint64_t pattern;
  double v;
  memset(&pattern, tb_ceil_fill, sizeof pattern);
  memcpy(&v, &pattern, sizeof v);
  const double expect = (double)n * v;

  double best = 0.0;
  *how = NULL;
  rc = tb_ceil_best_shape(
      r, TB_CEIL_READ, (double)bytes,
      [&](int k, int *grid) {
        *grid = grids[k];
        return (int)TB_OK;
      },
      [&](int grid, int block) {
        tb_k_ceil_read<<<grid, block, 0, r->stream>>>(a, n, r->part);
        TB_CUDA_LAUNCH("ceiling read");
        return (int)TB_OK;
      },
      [&](int k, int grid) {
        double sum = 0.0;
        TB_CUDA(cudaMemcpyAsync(r->host_part, r->part, (size_t)grid * sizeof(double),
                                cudaMemcpyDeviceToHost, r->stream));
        TB_CUDA(cudaStreamSynchronize(r->stream));
        for (int b = 0; b < grid; b++)
          sum += r->host_part[b];
        if (!isfinite(sum) || !(fabs(sum - expect) <= 1e-6 * expect))
          return tb_fail(TB_EDEVICE, "the read ceiling kernel summed %.17g, not %.17g (%s)", sum,
                         expect, tb_ceil_shapes[k].how[TB_CEIL_READ]);
        return (int)TB_OK;
      },
      &best, how);
  if (rc)
    return rc;
  if (!*how)
    return tb_fail(TB_EUNSUP, "the read ceiling kernel runs at none of its block sizes");
  *gbs = best;
  return TB_OK;
}

/* No check of a kernel's output beyond its launch. */
int tb_ceil_unchecked(int, int)
{
  return TB_OK;
}

/* Copy: the runtime's device-to-device copy, then the copy kernel at every
 * shape; bytes read plus bytes written. */
int tb_ceil_copy(tb_ceil_res *r, double *gbs, const char **how)
{
  int64_t bytes = 0, n = 0, work = 0;
  int rc = tb_ceil_buffers(r, 2, &bytes, &n, &work);
  if (rc)
    return rc;
  const double *a = (const double *)r->buf[0];
  double *c = (double *)r->buf[1];
  double ms = 0.0;
  rc = tb_ceil_time(r, tb_ceil_warmups, tb_ceil_timed, [&]() {
    TB_CUDA(cudaMemcpyAsync(c, a, (size_t)bytes, cudaMemcpyDeviceToDevice, r->stream));
    return (int)TB_OK;
  }, &ms);
  if (rc)
    return rc;
  double best = 2.0 * (double)bytes / (ms * 1e6);
  *how = "device-to-device copy";
  rc = tb_ceil_best_shape(
      r, TB_CEIL_COPY, 2.0 * (double)bytes,
      [&](int k, int *grid) {
        return tb_ceil_grid(r, tb_k_ceil_copy, &tb_ceil_shapes[k], work, grid);
      },
      [&](int grid, int block) {
        tb_k_ceil_copy<<<grid, block, 0, r->stream>>>(a, c, n);
        TB_CUDA_LAUNCH("ceiling copy");
        return (int)TB_OK;
      },
      tb_ceil_unchecked, &best, how);
  *gbs = best;
  return rc;
}

/* Triad: the triad kernel at every shape; two buffers read, one written. */
int tb_ceil_triad(tb_ceil_res *r, double *gbs, const char **how)
{
  int64_t bytes = 0, n = 0, work = 0;
  int rc = tb_ceil_buffers(r, 3, &bytes, &n, &work);
  if (rc)
    return rc;
  double *a = (double *)r->buf[0];
  const double *b = (const double *)r->buf[1], *c = (const double *)r->buf[2];
  double best = 0.0;
  *how = NULL;
  rc = tb_ceil_best_shape(
      r, TB_CEIL_TRIAD, 3.0 * (double)bytes,
      [&](int k, int *grid) {
        return tb_ceil_grid(r, tb_k_ceil_triad, &tb_ceil_shapes[k], work, grid);
      },
      [&](int grid, int block) {
        tb_k_ceil_triad<<<grid, block, 0, r->stream>>>(a, b, c, tb_ceil_q, n);
        TB_CUDA_LAUNCH("ceiling triad");
        return (int)TB_OK;
      },
      tb_ceil_unchecked, &best, how);
  if (rc)
    return rc;
  if (!*how)
    return tb_fail(TB_EUNSUP, "the triad ceiling kernel runs at none of its block sizes");
  *gbs = best;
  return TB_OK;
}

/* Gather: the table and the indices filled on the device, then the gather
 * kernel at every shape; after each shape's launches every output is
 * checked on the device (a count of wrong ones, which must be 0), so that a
 * kernel that skipped reads fails instead of reporting a ceiling. The
 * output buffer holds the fill pattern before the first launch. */
int tb_ceil_gather(tb_ceil_res *r, double *gbs, const char **how)
{
  int64_t bytes = 0, n = 0, work = 0;
  int rc = tb_ceil_buffers(r, 3, &bytes, &n, &work);
  if (rc)
    return rc;
  const int64_t m = bytes / (int64_t)sizeof(unsigned);
  unsigned *in = (unsigned *)r->buf[0], *idx = (unsigned *)r->buf[1];
  unsigned *out = (unsigned *)r->buf[2];
  int fill_grid = 0;
  if ((rc = tb_ceil_grid(r, tb_k_ceil_gather_fill, &tb_ceil_shapes[0], m, &fill_grid)))
    return rc;
  if (fill_grid < 1)
    return tb_fail(TB_EUNSUP, "the gather ceiling's fill kernel cannot run blocks of %d threads",
                   tb_ceil_shapes[0].block);
  tb_k_ceil_gather_fill<<<fill_grid, tb_ceil_shapes[0].block, 0, r->stream>>>(in, idx, m);
  TB_CUDA_LAUNCH("ceiling gather fill");
  TB_CUDA(cudaMalloc(&r->bad, sizeof *r->bad));
  double best = 0.0;
  *how = NULL;
  rc = tb_ceil_best_shape(
      r, TB_CEIL_GATHER, 32.0 * (double)m,
      [&](int k, int *grid) {
        return tb_ceil_grid(r, tb_k_ceil_gather, &tb_ceil_shapes[k], m, grid);
      },
      [&](int grid, int block) {
        tb_k_ceil_gather<<<grid, block, 0, r->stream>>>(in, idx, out, m);
        TB_CUDA_LAUNCH("ceiling gather");
        return (int)TB_OK;
      },
      [&](int k, int) {
        unsigned long long wrong = 0;
        TB_CUDA(cudaMemsetAsync(r->bad, 0, sizeof *r->bad, r->stream));
        tb_k_ceil_gather_check<<<fill_grid, tb_ceil_shapes[0].block, 0, r->stream>>>(out, m,
                                                                                    r->bad);
        TB_CUDA_LAUNCH("ceiling gather check");
        TB_CUDA(cudaMemcpyAsync(&wrong, r->bad, sizeof wrong, cudaMemcpyDeviceToHost, r->stream));
        TB_CUDA(cudaStreamSynchronize(r->stream));
        if (wrong)
          return tb_fail(TB_EDEVICE, "the gather ceiling kernel left %llu of %lld outputs wrong "
                         "(%s)", wrong, (long long)m, tb_ceil_shapes[k].how[3]);
        return (int)TB_OK;
      },
      &best, how);
  if (rc)
    return rc;
  if (!*how)
    return tb_fail(TB_EUNSUP, "the gather ceiling kernel runs at none of its block sizes");
  *gbs = best;
  return TB_OK;
}

/* FMA throughput in T: blocks of tb_fma_block threads, as many as are
 * resident on the device at once. A first launch loads the kernel and wakes
 * the clocks; the best of two short launches sets the number of trips that
 * takes tb_fma_target_ms; then the best of ten after two warm-ups. */
template <typename T> int tb_ceil_fma(tb_ceil_res *r, double *gflops)
{
  int per_sm = 0;
  TB_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tb_k_ceil_fma<T>,
                                                         tb_fma_block, 0));
  if (per_sm < 1)
    return tb_fail(TB_EUNSUP, "the FMA ceiling kernel cannot run blocks of %d threads",
                   tb_fma_block);
  const int grid = per_sm * r->sms;
  TB_CUDA(cudaMalloc(&r->out, sizeof(T)));
  TB_CUDA(cudaMemsetAsync(r->out, 0, sizeof(T), r->stream));
  /* x just under 1, y = 1 - x: the fixed point of c = c x + y is 1. */
  const T x = T(0.9999), y = T(1) - x, sentinel = T(-1);
  T *out = (T *)r->out;
  int trips = tb_fma_calib_trips;
  auto enqueue = [&]() {
    tb_k_ceil_fma<T><<<grid, tb_fma_block, 0, r->stream>>>(x, y, sentinel, trips, out);
    TB_CUDA_LAUNCH("ceiling fma");
    return (int)TB_OK;
  };
  double ms = 0.0;
  int rc = tb_ceil_time(r, 1, 2, enqueue, &ms);
  if (rc)
    return rc;
  double want = (double)trips * tb_fma_target_ms / ms;
  if (want > (double)tb_fma_max_trips)
    want = (double)tb_fma_max_trips;
  trips = want > 1.0 ? (int)want : 1;
  rc = tb_ceil_time(r, tb_ceil_warmups, tb_ceil_timed, enqueue, &ms);
  if (rc)
    return rc;
  const double flops = 2.0 * (double)grid * tb_fma_block * tb_fma_chains * tb_fma_unroll * trips;
  *gflops = flops / (ms * 1e6);
  return TB_OK;
}

int tb_ceil_measure(tb_ceil_res *r, int kind, double *value, const char **how)
{
  int rc = tb_ceil_setup(r);
  if (rc)
    return rc;
  switch (kind) {
  case TB_CEIL_READ:
    return tb_ceil_read(r, value, how);
  case TB_CEIL_COPY:
    return tb_ceil_copy(r, value, how);
  case TB_CEIL_TRIAD:
    return tb_ceil_triad(r, value, how);
  case TB_CEIL_FP32:
    *how = "FMA kernel, 8 chains a thread, 256-thread blocks filling every SM";
    return tb_ceil_fma<float>(r, value);
  case TB_CEIL_FP64:
    *how = "FMA kernel, 8 chains a thread, 256-thread blocks filling every SM";
    return tb_ceil_fma<double>(r, value);
  case TB_CEIL_GATHER:
    return tb_ceil_gather(r, value, how);
  }
  return tb_fail(TB_EINVAL, "unknown ceiling kind %d", kind);
}

/* Free what r holds. The stream is drained first, so that nothing is freed
 * under a kernel still running after an error. */
void tb_ceil_free(tb_ceil_res *r)
{
  if (r->stream)
    cudaStreamSynchronize(r->stream);
  for (int i = 0; i < 3; i++)
    cudaFree(r->buf[i]);
  cudaFree(r->part);
  cudaFree(r->out);
  cudaFree(r->bad);
  free(r->host_part);
  for (int i = 0; i < 2; i++)
    if (r->ev[i])
      cudaEventDestroy(r->ev[i]);
  if (r->stream)
    cudaStreamDestroy(r->stream);
}

} /* namespace */

extern "C" int tb_gpu_ceiling(int kind, double *value, const char **how)
{
  static_assert(tb_fma_chains == 8 && tb_fma_block == 256, "update the FMA kinds' *how");
  tb_ceil_res r;
  double v = 0.0;
  const char *h = NULL;
  if (kind < 0 || kind >= TB_NCEIL)
    return tb_fail(TB_EINVAL, "unknown ceiling kind %d", kind);
  memset(&r, 0, sizeof r);
  int rc = tb_ceil_measure(&r, kind, &v, &h);
  tb_ceil_free(&r);
  if (rc) {
    /* Clear an error that is not sticky (a failed allocation or launch), so
     * that the next variant's launch check does not report it as its own. */
    (void)cudaGetLastError();
    return rc;
  }
  *value = v;
  if (how)
    *how = h;
  return TB_OK;
}
