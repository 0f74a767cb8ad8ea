/* twinbench: the red-black SOR family's CUDA twins.
 *
 * published: the seeds' layout: one thread per point, 16 x 16 blocks over x
 *            and y, the grid's third dimension over the planes; a launch per
 *            colour, in which the other colour's threads idle.
 * split:     red and black stored apart (v, f and the materials), so each
 *            colour's threads read their points contiguously; the run splits
 *            v on entry and merges it on exit (timed), f and the materials
 *            once in prepare.
 * fused:     one launch an iteration: each block marches up a column of
 *            planes and updates red on plane k + 1, then black on plane k,
 *            reading the previous iterate and writing the next (two arrays),
 *            so v, f and the materials cross once an iteration instead of once
 *            a colour. The red values of the tile's ring, which black needs,
 *            are recomputed from the previous iterate (never written); the
 *            arithmetic of every point is the two-pass one, so the result is
 *            the same bits.
 * jacobi:    the baseline, two arrays, one launch an iteration.
 * The residual's square sum is reduced inside the sweep kernels: a double
 * per block (warp shuffles, then across the warps), and in the iterations
 * the stopping rule reads it, one block sums the partials and the host reads
 * that one number.
 *
 * The distributed twins (MPI runs, tbmpi.h), as the CPU's (cpu_omp/sor.c):
 * the interior points split into a box a rank over the 3-D process grid,
 * each colour swept over the rank's box with published's kernel (launched
 * on boxes through shifted pointers, so every point is published's
 * arithmetic), the colour's points of the box's faces packed by a kernel
 * and exchanged with the six neighbours after each colour by the transport
 * (comm.h): MPI on device buffers, MPI through pinned host buffers (one
 * copy each way), or NCCL's sends and receives (overlapped: on a stream of
 * their own beside the sweep's). mpi exchanges after the colour's sweep;
 * mpi-overlap sweeps the faces that travel, posts the exchange and launches
 * the rest, which runs on the GPU while the halos travel. The residual is reduced
 * over the ranks where the solver reads it. */
#include <config.h>

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/tbmpi.h"
#include "../families/sor.h"
#include "comm.h"
#include "cuda_util.h"

namespace {

/* The published launch: 16 x 16 threads (one block of 256, folded). */
const int tb_sor_bx = 16, tb_sor_by = 16;
/* The split and fused launches: 32 x 8 threads, 32 along the contiguous axis. */
const int tb_sor_wx = 32, tb_sor_wy = 8;
/* The fused sweep's planes per block (a column of the grid), and the final sum's block. */
const int tb_sor_zchunk = 32, tb_sor_sum_block = 1024;

/* The problem's geometry and arrays as kernels see them. */
template <typename T> struct tb_sor_k {
  const T *f, *cf;
  const uint8_t *mat;
  int64_t nx, ny, nz, sx, sxy;
  int64_t rx[6]; /* offsets of rxm, rxp, rym, ryp, rzm, rzp in cf */
  int64_t hm;
  T omega;
};

__device__ __forceinline__ float tb_sor_point(float vc, float fc, float vw, float ve, float vs,
                                              float vn, float vb, float vt, const float *hm,
                                              unsigned mw, unsigned me, unsigned ms, unsigned mn,
                                              unsigned mb, unsigned mt, float a, float b, float c,
                                              float d, float e, float g, float w, float *out)
{
  return tb_sor_point_f(vc, fc, vw, ve, vs, vn, vb, vt, hm, mw, me, ms, mn, mb, mt, a, b, c, d, e,
                        g, w, out);
}

__device__ __forceinline__ double tb_sor_point(double vc, double fc, double vw, double ve,
                                               double vs, double vn, double vb, double vt,
                                               const double *hm, unsigned mw, unsigned me,
                                               unsigned ms, unsigned mn, unsigned mb, unsigned mt,
                                               double a, double b, double c, double d, double e,
                                               double g, double w, double *out)
{
  return tb_sor_point_d(vc, fc, vw, ve, vs, vn, vb, vt, hm, mw, me, ms, mn, mb, mt, a, b, c, d, e,
                        g, w, out);
}

__device__ __forceinline__ float tb_sor_update(float vc, float fc, float vw, float ve, float vs,
                                               float vn, float vb, float vt, float hw, float he,
                                               float hs, float hn, float hb, float ht, float a,
                                               float b, float c, float d, float e, float g,
                                               float w, float *out)
{
  return tb_sor_update_f(vc, fc, vw, ve, vs, vn, vb, vt, hw, he, hs, hn, hb, ht, a, b, c, d, e, g,
                         w, out);
}

__device__ __forceinline__ double tb_sor_update(double vc, double fc, double vw, double ve,
                                                double vs, double vn, double vb, double vt,
                                                double hw, double he, double hs, double hn,
                                                double hb, double ht, double a, double b,
                                                double c, double d, double e, double g, double w,
                                                double *out)
{
  return tb_sor_update_d(vc, fc, vw, ve, vs, vn, vb, vt, hw, he, hs, hn, hb, ht, a, b, c, d, e, g,
                         w, out);
}

/* Point c = (i, j, k) of the natural layout updated from src with omega w:
 * the residual, and the new value in *out. */
template <typename T>
__device__ __forceinline__ T tb_sor_at(const tb_sor_k<T> &q, const T *src, int64_t c, int64_t i,
                                       int64_t j, int64_t k, T w, T *out)
{
  const uint8_t *m = q.mat;
  const int64_t sx = q.sx, sxy = q.sxy;
  return tb_sor_point(src[c], q.f[c], src[c - 1], src[c + 1], src[c - sx], src[c + sx],
                      src[c - sxy], src[c + sxy], q.cf + q.hm + TB_SOR_MAT(m[c]) * TB_SOR_NMAT,
                      m[c - 1], m[c + 1], m[c - sx], m[c + sx], m[c - sxy], m[c + sxy],
                      q.cf[q.rx[0] + i], q.cf[q.rx[1] + i], q.cf[q.rx[2] + j], q.cf[q.rx[3] + j],
                      q.cf[q.rx[4] + k], q.cf[q.rx[5] + k], w, out);
}

/* The block's sum of r2 into partial[block] (blocks of 256 threads). */
__device__ __forceinline__ void tb_sor_partial(double r2, double *partial)
{
  r2 = tb_block_sum(r2);
  if (threadIdx.x == 0)
    partial[blockIdx.x + (int64_t)gridDim.x * (blockIdx.y + (int64_t)gridDim.y * blockIdx.z)] = r2;
}

/* published: colour col (or every point, JACOBI, from src to dst). */
template <typename T, bool RES, bool JACOBI>
__global__ void __launch_bounds__(256) tb_k_sor_nat(tb_sor_k<T> q, const T *src, T *dst, int col,
                                                     double *partial)
{
  const int64_t i = 1 + (int64_t)blockIdx.x * tb_sor_bx + (threadIdx.x % tb_sor_bx);
  const int64_t j = 1 + (int64_t)blockIdx.y * tb_sor_by + (threadIdx.x / tb_sor_bx);
  const int64_t k = 1 + (int64_t)blockIdx.z;
  double r2 = 0.0;
  if (i <= q.nx && j <= q.ny && (JACOBI || ((i + j + k) & 1) == col)) {
    const int64_t c = i + q.sx * j + q.sxy * k;
    T out;
    const T r = tb_sor_at(q, src, c, i, j, k, JACOBI ? T(1) : q.omega, &out);
    const bool held = (q.mat[c] & TB_SOR_FIXED) != 0;
    if (!held)
      dst[c] = out;
    else if (JACOBI)
      dst[c] = src[c];
    if (RES && !held)
      r2 = (double)r * (double)r;
  }
  if (RES)
    tb_sor_partial(r2, partial);
}

/* The colour-split arrays of one precision. */
template <typename T> struct tb_sor_half {
  T *v[2];
  const T *f[2];
  const uint8_t *mat[2];
  int64_t w, wz; /* points of a colour a row, and a plane */
};

/* split: colour col; thread x walks the colour's points of a row. */
template <typename T, bool RES>
__global__ void __launch_bounds__(256) tb_k_sor_split(tb_sor_k<T> q, tb_sor_half<T> h, int col,
                                                       double *partial)
{
  const int64_t j = 1 + (int64_t)blockIdx.y * tb_sor_wy + (threadIdx.x / tb_sor_wx);
  const int64_t k = 1 + (int64_t)blockIdx.z;
  const int64_t p = (j + k + col) & 1;
  const int64_t ih = (int64_t)blockIdx.x * tb_sor_wx + (threadIdx.x % tb_sor_wx) + 1 - p;
  double r2 = 0.0;
  if (j <= q.ny && ih <= (q.nx - p) >> 1) {
    const int64_t w = h.w, wz = h.wz, c = ih + w * j + wz * k, i = 2 * ih + p;
    T *v = h.v[col];
    const T *o = h.v[col ^ 1];
    const uint8_t *mm = h.mat[col], *mo = h.mat[col ^ 1];
    const unsigned m = mm[c];
    T out;
    const T r = tb_sor_point(
        v[c], h.f[col][c], o[c + p - 1], o[c + p], o[c - w], o[c + w], o[c - wz], o[c + wz],
        q.cf + q.hm + TB_SOR_MAT(m) * TB_SOR_NMAT, mo[c + p - 1], mo[c + p], mo[c - w], mo[c + w],
        mo[c - wz], mo[c + wz], q.cf[q.rx[0] + i], q.cf[q.rx[1] + i], q.cf[q.rx[2] + j],
        q.cf[q.rx[3] + j], q.cf[q.rx[4] + k], q.cf[q.rx[5] + k], q.omega, &out);
    if (!(m & TB_SOR_FIXED)) {
      v[c] = out;
      if (RES)
        r2 = (double)r * (double)r;
    }
  }
  if (RES)
    tb_sor_partial(r2, partial);
}

/* Natural layout to the colour-split one (TO) or back: a grid-stride loop over the cells. */
template <typename T, bool TO>
__global__ void tb_k_sor_layout(T *nat, T *red, T *black, int64_t sx, int64_t ny2, int64_t w,
                                int64_t cells)
{
  for (int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; c < cells;
       c += (int64_t)gridDim.x * blockDim.x) {
    const int64_t i = c % sx, r = c / sx, j = r % ny2, k = r / ny2;
    T *x = ((i + j + k) & 1 ? black : red) + i / 2 + w * r;
    if (TO)
      *x = nat[c];
    else
      nat[c] = *x;
  }
}

/* fused: the red value of point (i, j, k) of the next iterate as black sees
 * it (computed from src where the point is red, interior and free, else
 * src's); with OWN (an output thread that owns this red plane) it is written
 * to dst and its residual counted. */
template <typename T, bool RES>
__device__ __forceinline__ T tb_sor_red(const tb_sor_k<T> &q, const T *src, T *dst, int64_t i,
                                        int64_t j, int64_t k, bool inside, bool own, double *r2)
{
  if (!inside)
    return T(0);
  const int64_t c = i + q.sx * j + q.sxy * k;
  if (i < 1 || i > q.nx || j < 1 || j > q.ny || k < 1 || k > q.nz || ((i + j + k) & 1) ||
      (q.mat[c] & TB_SOR_FIXED))
    return src[c];
  T out;
  const T r = tb_sor_at(q, src, c, i, j, k, q.omega, &out);
  if (own) {
    dst[c] = out;
    if (RES)
      *r2 = fma((double)r, (double)r, *r2);
  }
  return out;
}

/* fused: one iteration. A block of 32 x 8 threads covers a tile of x and y
 * with a ring of one point (its 30 x 6 inner threads are the tile's outputs)
 * and marches over tb_sor_zchunk planes: at step k it computes red on plane
 * k + 1 (the ring's only for the black of the tile), then black on plane k
 * from red on planes k - 1, k (its ring, from shared memory) and k + 1. The
 * red planes live in three shared buffers, so one barrier a step separates
 * writing a buffer from the last reads of what it held. A chunk starting at
 * k0 recomputes red on planes k0 - 1 and k0 without writing them (their
 * owner is the chunk below), except the first, which owns plane 1. */
template <typename T, bool RES>
__global__ void __launch_bounds__(256) tb_k_sor_fused(tb_sor_k<T> q, const T *src, T *dst,
                                                       double *partial)
{
  __shared__ T buf[3][tb_sor_wy][tb_sor_wx];
  const int tx = threadIdx.x % tb_sor_wx, ty = threadIdx.x / tb_sor_wx;
  const int64_t i = (int64_t)blockIdx.x * (tb_sor_wx - 2) + tx;
  const int64_t j = (int64_t)blockIdx.y * (tb_sor_wy - 2) + ty;
  const int64_t k0 = 1 + (int64_t)blockIdx.z * tb_sor_zchunk;
  const int64_t k1 = k0 + tb_sor_zchunk - 1 < q.nz ? k0 + tb_sor_zchunk - 1 : q.nz;
  const bool inside = i <= q.nx + 1 && j <= q.ny + 1;
  const bool out = inside && tx >= 1 && tx < tb_sor_wx - 1 && ty >= 1 && ty < tb_sor_wy - 1 &&
                   i >= 1 && i <= q.nx && j >= 1 && j <= q.ny;
  double r2 = 0.0;
  T prev = tb_sor_red<T, RES>(q, src, dst, i, j, k0 - 1, inside, false, &r2);
  T cur = tb_sor_red<T, RES>(q, src, dst, i, j, k0, inside, out && k0 == 1, &r2);
  buf[k0 % 3][ty][tx] = cur;
  for (int64_t k = k0; k <= k1; k++) {
    const T next = tb_sor_red<T, RES>(q, src, dst, i, j, k + 1, inside, out, &r2);
    buf[(k + 1) % 3][ty][tx] = next;
    __syncthreads();
    const int64_t c = i + q.sx * j + q.sxy * k;
    if (out && ((i + j + k) & 1) && !(q.mat[c] & TB_SOR_FIXED)) {
      const T(*b)[tb_sor_wx] = buf[k % 3];
      const uint8_t *m = q.mat;
      const int64_t sx = q.sx, sxy = q.sxy;
      T v;
      const T r = tb_sor_point(
          src[c], q.f[c], b[ty][tx - 1], b[ty][tx + 1], b[ty - 1][tx], b[ty + 1][tx], prev, next,
          q.cf + q.hm + TB_SOR_MAT(m[c]) * TB_SOR_NMAT, m[c - 1], m[c + 1], m[c - sx], m[c + sx],
          m[c - sxy], m[c + sxy], q.cf[q.rx[0] + i], q.cf[q.rx[1] + i], q.cf[q.rx[2] + j],
          q.cf[q.rx[3] + j], q.cf[q.rx[4] + k], q.cf[q.rx[5] + k], q.omega, &v);
      dst[c] = v;
      if (RES)
        r2 = fma((double)r, (double)r, r2);
    }
    prev = cur;
    cur = next;
  }
  if (RES)
    tb_sor_partial(r2, partial);
}

/* stream: the colour-split arrays of both iterates, and the uniform rows. */
template <typename T> struct tb_sor_sk {
  const T *sr, *sb; /* the previous iterate: red, black */
  T *dr, *db;       /* the next */
  const T *fr, *fb;
  const uint8_t *mr, *mb;
  const int8_t *urow; /* tb_sor_uniform_rows, index j + (ny + 2) k */
  int64_t wz;         /* points of a colour a plane: w (ny + 2) */
  int w, bx, by, zchunk;
  int um; /* lean: the problem's one material index */
  int l2ahead; /* lean: the planes its L2 prefetches run ahead of its loads (0: none) */
  int pipe;    /* lean: the steps its asynchronous copies run ahead (0: register loads) */
};

/* stream and roll: a point of the split layout whose neighbours' values and
 * spacing factors are given; c its index in its colour's arrays, p its
 * row's parity (i = 2 ih + p), mo the other colour's materials, um its row's
 * uniform material or -1 (then the six faces' materials are read). */
template <typename T>
__device__ __forceinline__ T tb_sor_sup(const tb_sor_k<T> &q, const uint8_t *mo, int64_t c, int p,
                                        int64_t w, int64_t wz, int um, unsigned m, T vc, T fc,
                                        T vw, T ve, T vs, T vn, T vb, T vt, T rxm, T rxp, T rym,
                                        T ryp, T rzm, T rzp, T *out)
{
  if (um >= 0) {
    const T h = __ldg(q.cf + q.hm + um * (TB_SOR_NMAT + 1));
    return tb_sor_update(vc, fc, vw, ve, vs, vn, vb, vt, h, h, h, h, h, h, rxm, rxp, rym, ryp,
                         rzm, rzp, q.omega, out);
  }
  const T *hm = q.cf + q.hm + TB_SOR_MAT(m) * TB_SOR_NMAT;
  return tb_sor_update(vc, fc, vw, ve, vs, vn, vb, vt, hm[TB_SOR_MAT(mo[c + p - 1])],
                       hm[TB_SOR_MAT(mo[c + p])], hm[TB_SOR_MAT(mo[c - w])],
                       hm[TB_SOR_MAT(mo[c + w])], hm[TB_SOR_MAT(mo[c - wz])],
                       hm[TB_SOR_MAT(mo[c + wz])], rxm, rxp, rym, ryp, rzm, rzp, q.omega, out);
}

/* stream: tb_sor_sup with the point's spacing factors read here. */
template <typename T>
__device__ __forceinline__ T tb_sor_spt(const tb_sor_k<T> &q, const uint8_t *mo, int64_t c, int p,
                                        int w, int64_t wz, int i, int j, int64_t k, int um,
                                        unsigned m, T vc, T fc, T vw, T ve, T vs, T vn, T vb,
                                        T vt, T *out)
{
  return tb_sor_sup(q, mo, c, p, w, wz, um, m, vc, fc, vw, ve, vs, vn, vb, vt, q.cf[q.rx[0] + i],
                    q.cf[q.rx[1] + i], q.cf[q.rx[2] + j], q.cf[q.rx[3] + j], q.cf[q.rx[4] + k],
                    q.cf[q.rx[5] + k], out);
}

/* stream: red at slot (ih, j) of plane k of the next iterate, from the
 * previous one: the new value where the point is interior and free, else
 * the stored one (never read where !inside: a slot outside the arrays).
 * With own, written to the next iterate and its residual counted. */
template <typename T, bool RES>
__device__ __forceinline__ T tb_sor_sred(const tb_sor_k<T> &q, const tb_sor_sk<T> &a, int ih,
                                         int j, int64_t k, bool inside, bool own, double *r2)
{
  if (!inside)
    return T(0);
  const int64_t c = a.wz * k + ih + (int64_t)a.w * j;
  const T vc = a.sr[c];
  const int p = (j + (int)(k & 1)) & 1, i = 2 * ih + p;
  if (i < 1 || i > q.nx || j < 1 || j > q.ny || k < 1 || k > q.nz)
    return vc;
  const unsigned m = a.mr[c];
  if (m & TB_SOR_FIXED)
    return vc;
  const T *o = a.sb;
  T out;
  const T r = tb_sor_spt(q, a.mb, c, p, a.w, a.wz, i, j, k, a.urow[j + (q.ny + 2) * k], m, vc,
                         a.fr[c], o[c + p - 1], o[c + p], o[c - a.w], o[c + a.w], o[c - a.wz],
                         o[c + a.wz], &out);
  if (own) {
    a.dr[c] = out;
    if (RES)
      *r2 = fma((double)r, (double)r, *r2);
  }
  return out;
}

/* stream: one iteration in the colour-split layout, both colours in one
 * pass. A block of bx x by threads covers slots ih (the colour's points of
 * a row) and rows j, with a ring of one slot and one row (its inner
 * (bx - 2) x (by - 2) threads are the tile's outputs), and marches up
 * zchunk planes: at step k every thread computes red on plane k + 1 from
 * the previous iterate (the ring's only for the tile's black, never
 * written), then the inner threads black on plane k from red on planes
 * k - 1 and k + 1 (their own, in registers) and on plane k (the x and y
 * neighbours, from shared memory). Warps run along a row, so a row's
 * uniform material is the same for the whole warp (bx a multiple of 32).
 * Three shared planes make one barrier a step enough (the fused sweep's
 * argument); a chunk starting at k0 recomputes red on k0 - 1 and k0 without
 * writing them (the chunk below owns them), except the first, which owns
 * plane 1. The arithmetic of every point is the two-pass one: the same bits. */
template <typename T, bool RES>
__global__ void __launch_bounds__(1024) tb_k_sor_stream(tb_sor_k<T> q, tb_sor_sk<T> a,
                                                         double *partial)
{
  extern __shared__ double tb_sor_smem[];
  T *buf = reinterpret_cast<T *>(tb_sor_smem);
  const int bx = a.bx, by = a.by, plane = bx * by;
  const int tx = (int)threadIdx.x % bx, ty = (int)threadIdx.x / bx;
  const int ih = (int)blockIdx.x * (bx - 2) + tx - 1;
  const int j = (int)blockIdx.y * (by - 2) + ty;
  const int64_t k0 = 1 + (int64_t)blockIdx.z * a.zchunk;
  const int64_t k1 = k0 + a.zchunk - 1 < q.nz ? k0 + a.zchunk - 1 : q.nz;
  const bool inside = ih >= 0 && ih < a.w && j <= q.ny + 1;
  const bool inner = inside && tx >= 1 && tx < bx - 1 && ty >= 1 && ty < by - 1 && j >= 1 &&
                     j <= q.ny;
  double r2 = 0.0;
  T prev = tb_sor_sred<T, RES>(q, a, ih, j, k0 - 1, inside, false, &r2);
  T cur = tb_sor_sred<T, RES>(q, a, ih, j, k0, inside, inner && k0 == 1, &r2);
  buf[(int)(k0 % 3) * plane + threadIdx.x] = cur;
  for (int64_t k = k0; k <= k1; k++) {
    /* Black's own loads go out before red's, so both are in flight together. */
    const int p = (j + (int)(k & 1) + 1) & 1, i = 2 * ih + p;
    const bool black = inner && i >= 1 && i <= q.nx;
    const int64_t c = a.wz * k + ih + (int64_t)a.w * j;
    unsigned m = TB_SOR_FIXED;
    T vc = T(0), fc = T(0);
    if (black) {
      m = a.mb[c];
      vc = a.sb[c];
      fc = a.fb[c];
    }
    const T next = tb_sor_sred<T, RES>(q, a, ih, j, k + 1, inside, inner, &r2);
    buf[(int)((k + 1) % 3) * plane + threadIdx.x] = next;
    __syncthreads();
    if (black && !(m & TB_SOR_FIXED)) {
      const T *b = buf + (int)(k % 3) * plane + threadIdx.x;
      T v;
      const T r = tb_sor_spt(q, a.mr, c, p, a.w, a.wz, i, j, k, a.urow[j + (q.ny + 2) * k], m, vc,
                             fc, b[p - 1], b[p], b[-bx], b[bx], prev, next, &v);
      a.db[c] = v;
      if (RES)
        r2 = fma((double)r, (double)r, r2);
    }
    prev = cur;
    cur = next;
  }
  if (RES)
    tb_sor_partial(r2, partial);
}

/* roll: one step's loads, issued a step ahead of their use (k the step:
 * black is updated on plane k, red on plane k + 1). Every value is loaded
 * once a step: the previous black of plane k + 2 (the thread's slot and, for
 * the tile's first and last rows, the row beyond), red's old value, f and
 * material on plane k + 1, black's f and material on plane k, row
 * (j, k + 1)'s uniform material and plane k + 1's z spacing factors. */
template <typename T> struct tb_sor_ahead {
  T ob, oh, sr, fr, fb, rzm, rzp;
  unsigned mr, mb;
  int um;
};

/* roll: step k's loads into *x. cb is the thread's slot on plane 0 and hc
 * its halo row's (hload: the thread loads one); what the thread does not
 * use is left zero (materials held, rows not uniform). Every index lies in
 * the arrays: planes 0 .. nz + 1, rows 0 .. ny + 1. */
template <typename T>
__device__ __forceinline__ void tb_sor_fetch(const tb_sor_k<T> &q, const tb_sor_sk<T> &a, int k,
                                             int cb, int hc, int j, bool inside, bool inner,
                                             bool hload, tb_sor_ahead<T> *x)
{
  const int nz = (int)q.nz, wz = (int)a.wz, c1 = cb + wz * (k + 1);
  x->ob = x->oh = x->sr = x->fr = x->fb = T(0);
  x->mr = x->mb = TB_SOR_FIXED;
  x->um = -1;
  x->rzm = __ldg(q.cf + q.rx[4] + k + 1);
  x->rzp = __ldg(q.cf + q.rx[5] + k + 1);
  if (inside) {
    if (k + 2 <= nz + 1) {
      x->ob = __ldg(a.sb + c1 + wz);
      if (hload)
        x->oh = __ldg(a.sb + hc + wz * (k + 2));
    }
    x->sr = __ldg(a.sr + c1);
    x->fr = __ldg(a.fr + c1);
    x->mr = __ldg(a.mr + c1);
    x->um = __ldg(a.urow + j + ((int)q.ny + 2) * (k + 1));
  }
  if (inner) {
    x->fb = __ldg(a.fb + c1 - wz);
    x->mb = __ldg(a.mb + c1 - wz);
  }
}

/* roll and lean: a point's residual r into the square sum where the sweep
 * reduces it. */
template <bool RES, typename T> __device__ __forceinline__ void tb_sor_count(T r, double *r2)
{
  if (RES)
    *r2 = fma((double)r, (double)r, *r2);
}

/* roll and lean: the values rolled through registers move on a step: red
 * of planes k - 1 and k (prev, cur) take k and k + 1 (next), the previous
 * black of planes k and k + 1 (ob0, ob1) take k + 1 and k + 2 (ob). */
template <typename T>
__device__ __forceinline__ void tb_sor_roll_on(T *prev, T *cur, T next, T *ob0, T *ob1, T ob)
{
  *prev = *cur;
  *cur = next;
  *ob0 = *ob1;
  *ob1 = ob;
}

/* roll and lean: the three shared red planes move on a step (the oldest
 * becomes the next). */
__device__ __forceinline__ void tb_sor_turn(int *prev, int *cur, int *next)
{
  const int oldest = *prev;
  *prev = *cur;
  *cur = *next;
  *next = oldest;
}

/* roll and lean: a thread's place in its block's tile (tb_k_sor_roll's
 * scheme): the block's bx x by threads and the sizes of a red plane and of a
 * black one with its two outer rows in shared memory; the thread's slot ih
 * of row j; the problem's sides and the split arrays' row and plane; the
 * chunk's planes k0..k1; whether the thread lies in the arrays (inside), on
 * an interior row (jin), in the tile's inner part there (inner); and the
 * row beyond the tile that the tile's first row (hrow -1) and last (1) also
 * load (hload: it exists) into the shared black plane's outer rows, at hs,
 * the thread's own slot there being os. */
struct tb_sor_tile {
  int bx, by, plane, oplane, tx, ty, ih, j, nx, ny, nz, w, wz, k0, k1, hrow, os, hs;
  bool inside, jin, inner, hload;
};

template <typename T>
__device__ __forceinline__ tb_sor_tile tb_sor_tile_of(const tb_sor_k<T> &q, const tb_sor_sk<T> &a)
{
  tb_sor_tile t;
  t.bx = a.bx;
  t.by = a.by;
  t.plane = t.bx * t.by;
  t.oplane = t.plane + 2 * t.bx;
  t.tx = (int)threadIdx.x % t.bx;
  t.ty = (int)threadIdx.x / t.bx;
  t.ih = (int)blockIdx.x * (t.bx - 2) + t.tx - 1;
  t.j = (int)blockIdx.y * (t.by - 2) + t.ty;
  t.nx = (int)q.nx;
  t.ny = (int)q.ny;
  t.nz = (int)q.nz;
  t.w = a.w;
  t.wz = (int)a.wz;
  t.k0 = 1 + (int)blockIdx.z * a.zchunk;
  t.k1 = min(t.k0 + a.zchunk - 1, t.nz);
  t.inside = t.ih >= 0 && t.ih < t.w && t.j <= t.ny + 1;
  t.jin = t.j >= 1 && t.j <= t.ny;
  t.inner = t.inside && t.tx >= 1 && t.tx < t.bx - 1 && t.ty >= 1 && t.ty < t.by - 1 && t.jin;
  t.hrow = t.ty == 0 ? -1 : t.ty == t.by - 1 ? 1 : 0;
  t.hload = t.inside && t.hrow != 0 && t.j + t.hrow >= 0 && t.j + t.hrow <= t.ny + 1;
  t.os = (t.ty + 1) * t.bx + t.tx;
  t.hs = t.hrow < 0 ? t.tx : (t.by + 1) * t.bx + t.tx;
  return t;
}

/* roll: stream's scheme (the same tiles, ring, chunks and ownership of the
 * red planes; see tb_k_sor_stream) with every array element loaded once a
 * step and everything else kept on chip: the previous black of planes k,
 * k + 1 and k + 2 rolls through registers (black's own old value, red's z
 * neighbours), and plane k + 1 also sits in one of two shared planes with a
 * row beyond the tile on either side (red's x and y neighbours); red of
 * planes k - 1, k and k + 1 as in stream. Red on plane k + 1 and black on
 * plane k share the coordinate i = 2 ih + ((j + k + 1) & 1), so the x
 * spacing factors of the slot's two points and the y ones of its row are
 * read once, before the march. Loads run a step ahead (tb_sor_fetch), index
 * arithmetic is 32-bit (the arrays' slots fit, checked in prepare) and the
 * register cap is the template's REGS (__maxnreg__, the tuning's regs). One
 * barrier a step: step k writes shared black plane k + 2 (last read by step
 * k - 1's red, before step k - 1's barrier) and red plane k + 1 (last read by
 * step k - 2's black, before step k - 1's barrier), and reads plane k + 1's
 * black (written by step k - 1, or the prologue, before a barrier). The
 * arithmetic of every point is the two-pass one: the same bits. */
template <typename T, bool RES, int REGS>
__global__ void __maxnreg__(REGS) tb_k_sor_roll(tb_sor_k<T> q, tb_sor_sk<T> a, double *partial)
{
  extern __shared__ double tb_sor_smem[];
  const tb_sor_tile t = tb_sor_tile_of(q, a);
  T *const red = reinterpret_cast<T *>(tb_sor_smem), *const old = red + 3 * t.plane;
  const int cb = t.ih + t.w * t.j, hc = cb + t.w * t.hrow;
  T rxm0 = T(0), rxp0 = T(0), rxm1 = T(0), rxp1 = T(0), rym = T(0), ryp = T(0);
  if (t.inside) {
    rym = __ldg(q.cf + q.rx[2] + t.j);
    ryp = __ldg(q.cf + q.rx[3] + t.j);
    if (2 * t.ih <= t.nx + 1) {
      rxm0 = __ldg(q.cf + q.rx[0] + 2 * t.ih);
      rxp0 = __ldg(q.cf + q.rx[1] + 2 * t.ih);
    }
    if (2 * t.ih + 1 <= t.nx + 1) {
      rxm1 = __ldg(q.cf + q.rx[0] + 2 * t.ih + 1);
      rxp1 = __ldg(q.cf + q.rx[1] + 2 * t.ih + 1);
    }
  }
  double r2 = 0.0;
  T prev = tb_sor_sred<T, RES>(q, a, t.ih, t.j, t.k0 - 1, t.inside, false, &r2);
  T cur = tb_sor_sred<T, RES>(q, a, t.ih, t.j, t.k0, t.inside, t.inner && t.k0 == 1, &r2);
  T ob0 = T(0), ob1 = T(0), oh1 = T(0);
  int ub = -1;
  if (t.inside) {
    ob0 = __ldg(a.sb + cb + t.wz * t.k0);
    ob1 = __ldg(a.sb + cb + t.wz * (t.k0 + 1));
    if (t.hload)
      oh1 = __ldg(a.sb + hc + t.wz * (t.k0 + 1));
    ub = __ldg(a.urow + t.j + (t.ny + 2) * t.k0);
  }
  T rzm = __ldg(q.cf + q.rx[4] + t.k0), rzp = __ldg(q.cf + q.rx[5] + t.k0);
  tb_sor_ahead<T> x;
  tb_sor_fetch(q, a, t.k0, cb, hc, t.j, t.inside, t.inner, t.hload, &x);
  int rprev = 2 * t.plane, rcur = 0, rnext = t.plane;
  red[rcur + threadIdx.x] = cur;
  old[((t.k0 + 1) & 1) * t.oplane + t.os] = ob1;
  if (t.hload)
    old[((t.k0 + 1) & 1) * t.oplane + t.hs] = oh1;
  __syncthreads();
  for (int k = t.k0; k <= t.k1; k++) {
    const tb_sor_ahead<T> s = x;
    if (k < t.k1)
      tb_sor_fetch(q, a, k + 1, cb, hc, t.j, t.inside, t.inner, t.hload, &x);
    old[(k & 1) * t.oplane + t.os] = s.ob;
    if (t.hload)
      old[(k & 1) * t.oplane + t.hs] = s.oh;
    const int p = (t.j + k + 1) & 1, i = 2 * t.ih + p;
    const bool iin = i >= 1 && i <= t.nx;
    const T rxm = p ? rxm1 : rxm0, rxp = p ? rxp1 : rxp0;
    /* Red on plane k + 1 from the previous black. */
    T next = s.sr;
    if (t.inside && iin && t.jin && k + 1 <= t.nz && !(s.mr & TB_SOR_FIXED)) {
      const T *o = old + ((k + 1) & 1) * t.oplane + t.os;
      const int c = cb + t.wz * (k + 1);
      const T r = tb_sor_sup(q, a.mb, c, p, t.w, t.wz, s.um, s.mr, s.sr, s.fr, o[p - 1], o[p],
                             o[-t.bx], o[t.bx], ob0, s.ob, rxm, rxp, rym, ryp, s.rzm, s.rzp,
                             &next);
      if (t.inner) {
        a.dr[c] = next;
        tb_sor_count<RES>(r, &r2);
      }
    }
    red[rnext + threadIdx.x] = next;
    __syncthreads();
    /* Black on plane k from the new red. */
    if (t.inner && iin && !(s.mb & TB_SOR_FIXED)) {
      const T *b = red + rcur + threadIdx.x;
      const int c = cb + t.wz * k;
      T v;
      const T r = tb_sor_sup(q, a.mr, c, p, t.w, t.wz, ub, s.mb, ob0, s.fb, b[p - 1], b[p],
                             b[-t.bx], b[t.bx], prev, next, rxm, rxp, rym, ryp, rzm, rzp, &v);
      a.db[c] = v;
      tb_sor_count<RES>(r, &r2);
    }
    tb_sor_roll_on(&prev, &cur, next, &ob0, &ob1, s.ob);
    ub = s.um;
    rzm = s.rzm;
    rzp = s.rzp;
    tb_sor_turn(&rprev, &rcur, &rnext);
  }
  if (RES)
    tb_sor_partial(r2, partial);
}

/* The update's two halves at either precision, for lean (sor.h's operations). */
__device__ __forceinline__ float tb_sor_mul(float a, float b) { return TB_SOR_MULF(a, b); }
__device__ __forceinline__ double tb_sor_mul(double a, double b) { return TB_SOR_MULD(a, b); }
__device__ __forceinline__ float tb_sor_diag4(float cw, float h, float rxp, float rym, float ryp)
{
  return tb_sor_diag4_f(cw, h, h, h, rxp, rym, ryp);
}
__device__ __forceinline__ double tb_sor_diag4(double cw, double h, double rxp, double rym,
                                               double ryp)
{
  return tb_sor_diag4_d(cw, h, h, h, rxp, rym, ryp);
}
__device__ __forceinline__ float tb_sor_diag(float d4, float h, float rzm, float rzp)
{
  return tb_sor_diag_f(d4, h, h, rzm, rzp);
}
__device__ __forceinline__ double tb_sor_diag(double d4, double h, double rzm, double rzp)
{
  return tb_sor_diag_d(d4, h, h, rzm, rzp);
}
__device__ __forceinline__ float tb_sor_apply(float vc, float fc, float vw, float ve, float vs,
                                              float vn, float vb, float vt, float cw, float ce,
                                              float cs, float cn, float cb, float ct, float d,
                                              float w, float *out)
{
  return tb_sor_apply_f(vc, fc, vw, ve, vs, vn, vb, vt, cw, ce, cs, cn, cb, ct, d, w, out);
}
__device__ __forceinline__ double tb_sor_apply(double vc, double fc, double vw, double ve,
                                               double vs, double vn, double vb, double vt,
                                               double cw, double ce, double cs, double cn,
                                               double cb, double ct, double d, double w,
                                               double *out)
{
  return tb_sor_apply_d(vc, fc, vw, ve, vs, vn, vb, vt, cw, ce, cs, cn, cb, ct, d, w, out);
}

/* lean: a step's loads (roll's tb_sor_ahead less the uniform row, which
 * lean does not need): the previous black of plane k + 2 (the slot's and
 * the halo row's), red's old value, f and material on plane k + 1, and
 * plane k + 1's z spacing factors. */
template <typename T> struct tb_sor_lx {
  T ob, oh, sr, fr, rzm, rzp;
  unsigned mr;
};

/* lean: step k's loads into *x; c is the slot's offset on plane k + 1 (a
 * 32-bit unsigned offset: no sign extension in the addresses), dh the halo
 * row's from the slot's (0 for a thread without one), rz plane k + 1's rzm
 * (its rzp zs on). Every thread loads, from offsets inside the arrays
 * (slot 0 for one outside them, plane k + 1 again where black's plane
 * k + 2 does not exist: beyond false), so no branch and no convergence
 * barrier surround the loads; what a thread does not use is never read. */
template <typename T>
__device__ __forceinline__ void tb_sor_lfetch(const tb_sor_sk<T> &a, unsigned c, unsigned wz,
                                              int dh, const T *rz, int zs, bool beyond,
                                              tb_sor_lx<T> *x)
{
  const unsigned cz = beyond ? c + wz : c;
  x->rzm = __ldg(rz);
  x->rzp = __ldg(rz + zs);
  x->ob = __ldg(a.sb + cz);
  x->oh = __ldg(a.sb + (cz + dh));
  x->sr = __ldg(a.sr + c);
  x->fr = __ldg(a.fr + c);
  x->mr = __ldg(a.mr + c);
}

/* lean: a prefetch into L2 of the line holding global address g
 * (prefetch.global.L2, SASS CCTL.E.PF2): a hint that holds no register and
 * reads no value, so it raises the bytes in flight without changing a
 * result. */
__device__ __forceinline__ void tb_sor_l2(unsigned long long g)
{
  asm volatile("prefetch.global.L2 [%0];" ::"l"(g));
}
__device__ __forceinline__ void tb_sor_l2(const void *p) { tb_sor_l2(__cvta_generic_to_global(p)); }

/* lean with l2ahead: L2 prefetches of what the slot's loads will read at
 * offset o (a plane ahead of them): the previous iterate's red and black
 * (and the halo row's black, halo: the thread loads one, dh from the slot),
 * f and the materials of both colours. o is the loads' offset on a plane
 * that exists, so every address lies in the arrays. */
template <typename T>
__device__ __forceinline__ void tb_sor_lpf(const tb_sor_sk<T> &a, unsigned o, int dh, bool halo)
{
  tb_sor_l2(a.sb + o);
  if (halo)
    tb_sor_l2(a.sb + (o + dh));
  tb_sor_l2(a.sr + o);
  tb_sor_l2(a.fr + o);
  tb_sor_l2(a.fb + o);
  tb_sor_l2(a.mr + o);
  tb_sor_l2(a.mb + o);
}

/* lean's ways to prefetch (the tuning's l2mode): each thread its own
 * elements, or a warp's row segments split among its lanes. */
enum { TB_SOR_L2_NONE, TB_SOR_L2_THREAD, TB_SOR_L2_LANE };

/* l2mode lane: one lane's prefetch job, a 32-byte sector of one of the
 * warp's row segments: its global address on the plane being prefetched,
 * the stride to the next plane, and whether the job exists. */
struct tb_sor_lpj {
  unsigned long long at, stride;
  bool on;
};

/* l2mode lane: the jobs of a sweep in precision T: the warp's 32 threads
 * are 32 consecutive slots of one row (bx is a multiple of 32), and what
 * their loads read on a plane is seven row segments: the previous iterate's
 * black, red, f of red and of black, the halo row's black (a tile's first
 * and last rows) of 32 e bytes, which span at most e + 1 sectors, and the
 * materials of both colours, 32 bytes, at most 2 sectors. */
template <typename T> struct tb_sor_lpn {
  static const int value = (int)sizeof(T) + 1, jobs = 5 * value + 4, per_lane = (jobs + 31) / 32;
};

/* l2mode lane: job `job` of the warp of the thread at t on plane kp. A
 * segment's bytes are those of its slots inside the row ([max(ih0, 0),
 * min(ih0 + 31, w - 1)], ih0 the warp's first slot) on a row that exists
 * (0 .. ny + 1), so each sector's address, the segment's first byte plus 32
 * per part clamped to its last byte, lies in its array on any plane
 * 0 .. nz + 1; a job past the list, on a segment without a slot or on a halo
 * row the warp does not have is off. */
template <typename T>
__device__ __forceinline__ tb_sor_lpj tb_sor_lpjob(const tb_sor_sk<T> &a, const tb_sor_tile &t,
                                                   int job, int kp)
{
  const int nv = tb_sor_lpn<T>::value;
  tb_sor_lpj r = {0ull, 0ull, false};
  const int seg = job < 5 * nv ? job / nv : 5 + (job - 5 * nv) / 2;
  const int part = job < 5 * nv ? job % nv : (job - 5 * nv) % 2;
  const int ih0 = t.ih - (int)(threadIdx.x & 31u), lo = max(ih0, 0), hi = min(ih0 + 31, t.w - 1);
  const int row = seg == 4 ? t.j + t.hrow : t.j;
  if (job >= tb_sor_lpn<T>::jobs || lo > hi || row < 0 || row > t.ny + 1 ||
      (seg == 4 && t.hrow == 0))
    return r;
  const void *base = seg == 0 || seg == 4 ? (const void *)a.sb
                     : seg == 1           ? (const void *)a.sr
                     : seg == 2           ? (const void *)a.fr
                     : seg == 3           ? (const void *)a.fb
                     : seg == 5           ? (const void *)a.mr
                                          : (const void *)a.mb;
  const unsigned long long e = seg < 5 ? sizeof(T) : 1u, rw = (unsigned long long)row * t.w;
  const unsigned long long first = e * (rw + lo), last = e * (rw + hi) + e - 1;
  r.stride = e * (unsigned long long)t.wz;
  r.at = __cvta_generic_to_global(base) + min(first + 32u * part, last) +
         r.stride * (unsigned long long)kp;
  r.on = true;
  return r;
}

/* l2mode lane: a lane's jobs prefetched on their plane (when go), and moved
 * on to the next plane. */
template <typename T> __device__ __forceinline__ void tb_sor_lpstep(tb_sor_lpj *j, bool go)
{
#pragma unroll
  for (int n = 0; n < tb_sor_lpn<T>::per_lane; n++) {
    if (go && j[n].on)
      tb_sor_l2(j[n].at);
    j[n].at += j[n].stride;
  }
}

/* lean and its pipe: the update of a point whose x and y neighbours lie
 * around o (its slot in a shared plane of the other colour; p its parity, bx
 * the tile's row) and whose z neighbours are vb and vt: the diagonal from
 * d4 (its x and y terms) and its plane's z factors rzm and rzp, then
 * tb_sor_apply with the coefficients. */
template <typename T>
__device__ __forceinline__ T tb_sor_lapply(const T *o, int p, int bx, T vc, T fc, T vb, T vt,
                                           T cw, T ce, T cs, T cn, T cb, T ct, T h, T rzm, T rzp,
                                           T d4, T w, T *out)
{
  const T d = tb_sor_diag(d4, h, rzm, rzp);
  return tb_sor_apply(vc, fc, o[p - 1], o[p], o[-bx], o[bx], vb, vt, cw, ce, cs, cn, cb, ct, d, w,
                      out);
}

/* lean and its pipe: the problem's one harmonic mean *h, and the thread's
 * coefficients: of the slot's two parities p (i = 2 ih + p) west, east and
 * the diagonal's sum over x and y; of its row south and north. Bit p of
 * *rok (*bok): the thread updates red (black) at parity p. */
template <typename T>
__device__ __forceinline__ void tb_sor_lcoef(const tb_sor_k<T> &q, const tb_sor_sk<T> &a,
                                             const tb_sor_tile &t, T *h, T *cw, T *ce, T *d4,
                                             T *cs, T *cn, unsigned *rok, unsigned *bok)
{
  *h = __ldg(q.cf + q.hm + a.um * (TB_SOR_NMAT + 1));
  *rok = *bok = 0;
  T rym = T(0), ryp = T(0);
  if (t.inside) {
    rym = __ldg(q.cf + q.rx[2] + t.j);
    ryp = __ldg(q.cf + q.rx[3] + t.j);
  }
  *cs = tb_sor_mul(*h, rym);
  *cn = tb_sor_mul(*h, ryp);
  for (int p = 0; p < 2; p++) {
    const int i = 2 * t.ih + p;
    T rxm = T(0), rxp = T(0);
    if (t.inside && i <= t.nx + 1) {
      rxm = __ldg(q.cf + q.rx[0] + i);
      rxp = __ldg(q.cf + q.rx[1] + i);
    }
    cw[p] = tb_sor_mul(*h, rxm);
    ce[p] = tb_sor_mul(*h, rxp);
    d4[p] = tb_sor_diag4(cw[p], *h, rxp, rym, ryp);
    const bool iin = i >= 1 && i <= t.nx;
    *rok |= (unsigned)(t.inside && t.jin && iin) << p;
    *bok |= (unsigned)(t.inner && iin) << p;
  }
}

/* lean: roll's scheme (the same tiles, ring, chunks, ownership of the red
 * planes, planes rolled through registers, shared planes and one barrier a
 * step; see tb_k_sor_roll) for a problem of one material (every interior
 * row uniform with the same index a.um, checked in prepare; electrodes are
 * still held by their bit), cut to fewer instructions a point. The faces'
 * six harmonic means are then one value h, so each coefficient of the
 * update is h times a spacing factor: the x ones (the slot's two parities)
 * and y ones, and the diagonal's first four terms, are computed once a
 * thread before the march, the z ones once a plane, and tb_sor_apply_* does
 * the rest: the general update's operations in its order, so the same bits.
 * No uniform-row or neighbour-material loads, and no branch around the
 * loads (tb_sor_lfetch); the arrays are indexed by one 32-bit unsigned
 * offset advanced a plane a step (no index products, no sign extension);
 * the slot's parity flips each step and picks the coefficients. The loop
 * runs TURN steps a turn (the tuning's turn, even: the two load sets
 * alternate): 2, or 6, after which the values rolled through registers
 * (periods 1, 2 and 3) are back in the registers they started in; nvcc 13
 * still moves about as many a step, but its code for 6 runs fewer
 * instructions a point (doc/sor.md), with more registers live. With PF
 * (the tuning's l2ahead P > 0, and l2mode) step k also prefetches into L2
 * everything the slot's loads read on plane k + 2 + P, P planes beyond the
 * farthest plane red's loads of step k reach (black's previous value:
 * P - 1; black's f and material: P + 2), and the block does so for the first
 * P such planes before its march: more bytes in flight, no register held for
 * the data; planes up to the chunk's last read (k1 + 2) and the arrays' last
 * (nz + 1). TB_SOR_L2_THREAD: each thread its own elements (seven
 * prefetches a step); TB_SOR_L2_LANE: the warp's segments a sector a lane
 * (one prefetch a step in float, two in double, and a running address a
 * job). */
template <typename T, bool RES, int REGS, int TURN, int PF>
__global__ void __maxnreg__(REGS) tb_k_sor_lean(tb_sor_k<T> q, tb_sor_sk<T> a, double *partial)
{
  extern __shared__ double tb_sor_smem[];
  const tb_sor_tile t = tb_sor_tile_of(q, a);
  T *const red = reinterpret_cast<T *>(tb_sor_smem), *const old = red + 3 * t.plane;
  const int zs = t.nz + 2;
  /* A thread outside the arrays walks slot 0 (and one without a halo row
   * its own slot), which it never reads. */
  const int cb = t.inside ? t.ih + t.w * t.j : 0, hc = t.hload ? cb + t.w * t.hrow : cb;
  T h, cw[2], ce[2], d4[2], cs, cn;
  unsigned rok, bok;
  tb_sor_lcoef(q, a, t, &h, cw, ce, d4, &cs, &cn, &rok, &bok);
  double r2 = 0.0;
  T prev = tb_sor_sred<T, RES>(q, a, t.ih, t.j, t.k0 - 1, t.inside, false, &r2);
  T cur = tb_sor_sred<T, RES>(q, a, t.ih, t.j, t.k0, t.inside, t.inner && t.k0 == 1, &r2);
  T ob0 = T(0), ob1 = T(0), oh1 = T(0);
  if (t.inside) {
    ob0 = __ldg(a.sb + cb + t.wz * t.k0);
    ob1 = __ldg(a.sb + cb + t.wz * (t.k0 + 1));
    if (t.hload)
      oh1 = __ldg(a.sb + hc + t.wz * (t.k0 + 1));
  }
  /* Plane k's z factors and coefficients (black's at step k). */
  T rzm = __ldg(q.cf + q.rx[4] + t.k0), rzp = __ldg(q.cf + q.rx[5] + t.k0);
  T zm = tb_sor_mul(h, rzm), zp = tb_sor_mul(h, rzp);
  /* The slot's offset on plane k + 1 at step k (red's; black's is wz less),
   * and the z factors of step k0's fetch. */
  const unsigned uwz = (unsigned)t.wz;
  unsigned c = (unsigned)(cb + t.wz * (t.k0 + 1));
  const int dh = hc - cb;
  const T *rz = q.cf + q.rx[4] + t.k0 + 1;
  tb_sor_lx<T> x = {T(0), T(0), T(0), T(0), T(0), T(0), TB_SOR_FIXED};
  tb_sor_lfetch(a, c, uwz, dh, rz, zs, t.k0 + 2 <= t.nz + 1, &x);
  /* Step k prefetches plane k + 2 + P, at offset c + pw, while k + P <= plim:
   * the plane is then at most k1 + 2 and nz + 1. */
  const unsigned pw = PF == TB_SOR_L2_THREAD ? (unsigned)(1 + a.l2ahead) * uwz : 0u;
  const int plim = PF ? min(t.k1, t.nz - 1) - a.l2ahead : 0;
  tb_sor_lpj pj[tb_sor_lpn<T>::per_lane];
  if (PF == TB_SOR_L2_LANE)
    for (int n = 0; n < tb_sor_lpn<T>::per_lane; n++)
      pj[n] = tb_sor_lpjob(a, t, (int)(threadIdx.x & 31u) + 32 * n, t.k0 + 2);
  for (int u = 0; PF && u < a.l2ahead; u++) {
    const bool go = t.k0 + u <= plim + a.l2ahead;
    if (PF == TB_SOR_L2_LANE)
      tb_sor_lpstep<T>(pj, go);
    else if (go)
      tb_sor_lpf(a, c + (unsigned)(1 + u) * uwz, dh, t.hload);
  }
  int rprev = 2 * t.plane, rcur = 0, rnext = t.plane, p = (t.j + t.k0 + 1) & 1;
  red[rcur + threadIdx.x] = cur;
  old[((t.k0 + 1) & 1) * t.oplane + t.os] = ob1;
  if (t.hload)
    old[((t.k0 + 1) & 1) * t.oplane + t.hs] = oh1;
  __syncthreads();
  /* Step k with the loads s fetched a step before; it fetches step k + 1's
   * into ahead. The loop below runs it twice a turn with the two load sets
   * swapped, so no copy of them is made. Black's f and material on plane k
   * are loaded in the step: red's update and the barrier lie between the
   * loads and their use. */
  const auto step = [&](int k, const tb_sor_lx<T> &s, tb_sor_lx<T> &ahead) {
    const T fb = __ldg(a.fb + (c - uwz));
    const unsigned mb = __ldg(a.mb + (c - uwz));
    if (k < t.k1)
      tb_sor_lfetch(a, c + uwz, uwz, dh, rz + (k + 1 - t.k0), zs, k + 3 <= t.nz + 1, &ahead);
    if (PF == TB_SOR_L2_LANE)
      tb_sor_lpstep<T>(pj, k <= plim);
    else if (PF && k <= plim)
      tb_sor_lpf(a, c + pw, dh, t.hload);
    old[(k & 1) * t.oplane + t.os] = s.ob;
    if (t.hload)
      old[(k & 1) * t.oplane + t.hs] = s.oh;
    const T cwp = p ? cw[1] : cw[0], cep = p ? ce[1] : ce[0], d4p = p ? d4[1] : d4[0];
    const T zm1 = tb_sor_mul(h, s.rzm), zp1 = tb_sor_mul(h, s.rzp);
    /* Red on plane k + 1 from the previous black. */
    T next = s.sr;
    if ((rok >> p & 1u) && k + 1 <= t.nz && !(s.mr & TB_SOR_FIXED)) {
      const T r = tb_sor_lapply(old + ((k + 1) & 1) * t.oplane + t.os, p, t.bx, s.sr, s.fr, ob0,
                                s.ob, cwp, cep, cs, cn, zm1, zp1, h, s.rzm, s.rzp, d4p, q.omega,
                                &next);
      if (t.inner) {
        a.dr[c] = next;
        tb_sor_count<RES>(r, &r2);
      }
    }
    red[rnext + threadIdx.x] = next;
    __syncthreads();
    /* Black on plane k from the new red. */
    if ((bok >> p & 1u) && !(mb & TB_SOR_FIXED)) {
      T v;
      const T r = tb_sor_lapply(red + rcur + threadIdx.x, p, t.bx, ob0, fb, prev, next, cwp, cep,
                                cs, cn, zm, zp, h, rzm, rzp, d4p, q.omega, &v);
      a.db[c - uwz] = v;
      tb_sor_count<RES>(r, &r2);
    }
    c += uwz;
    tb_sor_roll_on(&prev, &cur, next, &ob0, &ob1, s.ob);
    rzm = s.rzm;
    rzp = s.rzp;
    zm = zm1;
    zp = zp1;
    p ^= 1;
    tb_sor_turn(&rprev, &rcur, &rnext);
  };
  tb_sor_lx<T> y = x;
  for (int k = t.k0; k <= t.k1; k += TURN) {
    step(k, x, y);
    if (k + 1 > t.k1)
      break;
    step(k + 1, y, x);
    if constexpr (TURN == 6) {
      for (int u = 2; u < 6; u += 2) {
        if (k + u > t.k1)
          break;
        step(k + u, x, y);
        if (k + u + 1 > t.k1)
          break;
        step(k + u + 1, y, x);
      }
    }
  }
  if (RES)
    tb_sor_partial(r2, partial);
}

/* pipe (lean's tuning pipe d > 0): an asynchronous copy (cp.async, SASS
 * LDGSTS) of N bytes (4 or 8: an element or a word of materials) from global
 * address g to shared address s. It holds no register for the data: the
 * bytes land in shared memory while the thread runs on. A thread's copies of
 * a step form one group (tb_sor_commit); tb_sor_wait waits for the older
 * groups. The memory clobbers keep the compiler from moving shared-memory
 * accesses across them. */
template <int N> __device__ __forceinline__ void tb_sor_cp(const void *s, const void *g)
{
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(
                   (unsigned)__cvta_generic_to_shared(s)),
               "l"(__cvta_generic_to_global(g)), "n"(N)
               : "memory");
}
__device__ __forceinline__ void tb_sor_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void tb_sor_wait_n()
{
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}
/* The calling thread's groups complete but the newest d - 1 (d = 1 .. 4, the
 * pipe's depth; wait_group takes its count as an immediate). */
__device__ __forceinline__ void tb_sor_wait(int d)
{
  if (d <= 1)
    tb_sor_wait_n<0>();
  else if (d == 2)
    tb_sor_wait_n<1>();
  else if (d == 3)
    tb_sor_wait_n<2>();
  else
    tb_sor_wait_n<3>();
}

/* pipe: the words of materials a warp copies a plane, each colour: its 32
 * slots' bytes start anywhere in a word, so they span at most 9 words. */
constexpr int tb_sor_mwords = 9;
/* pipe's deepest pipeline (tb_sor_wait's cases). */
const int tb_sor_pipe_max = 4;

/* pipe's ring slot: step k's group of copies, in bytes: the previous black
 * of plane k + 2 with a row beyond the tile on either side, red's previous
 * value and f on plane k + 1, black's f on plane k, and the materials' words
 * of both colours (tb_sor_mwords a warp, each). */
__host__ __device__ int tb_sor_pipe_slot(int bx, int by, int e)
{
  return (bx * (by + 2) + 3 * bx * by) * e + 2 * (bx * by / 32) * tb_sor_mwords * 4;
}

/* pipe's shared memory at depth d: roll's three red planes and a ring of
 * d + 3 slots (step k reads the black planes of slots k - 2, k - 1 and k,
 * and slot k's values; the copies of steps k + 1 .. k + d are on their
 * way). */
size_t tb_sor_pipe_smem(int bx, int by, int d, size_t e)
{
  return 3 * (size_t)bx * by * e + (size_t)(d + 3) * tb_sor_pipe_slot(bx, by, (int)e);
}

/* lean's pipelined form (the tuning's pipe d > 0): lean's tiles, ring,
 * chunks, ownership of the red planes, coefficients and arithmetic (the
 * same bits), with every value of the arrays brought into shared memory by
 * asynchronous copies d steps ahead of its use instead of register loads a
 * step ahead: the bytes in flight grow d-fold and hold no register (lean's
 * loads a step ahead held seven values, and the previous black of planes k
 * and k + 1 rolled through registers). Step k's group of copies, issued at
 * step k - d (the first d by the prologue), fills the ring's slot k
 * (tb_sor_pipe_slot; plane nz + 1 again for black's past the grid, never
 * read; a warp's 32 bytes of materials as the words that hold them, since
 * a copy takes 4, 8 or 16 aligned bytes). The ring has d + 3 slots, so step
 * k's copies go to slot k - 3's. The prologue's group also brings black
 * planes k0 and k0 + 1 into slots k0 - 2 and k0 - 1. One barrier a step, at
 * its top, after the thread's wait for its group of step k: it makes every
 * thread's copies of step k visible, and ends every read of slot k - 3 (its
 * black plane k - 1 was last read at step k - 1) before the copies of step
 * k + d overwrite it. The red planes rotate as in roll: black at step k reads
 * red plane k, written at step k - 1 before the barrier; red plane k + 1
 * overwrites plane k - 2, last read at step k - 2. With PF, L2 prefetches P
 * planes beyond the copies (lean's l2ahead and l2mode, d planes further on). */
template <typename T, bool RES, int REGS, int PF>
__global__ void __maxnreg__(REGS) tb_k_sor_pipe(tb_sor_k<T> q, tb_sor_sk<T> a, double *partial)
{
  extern __shared__ double tb_sor_smem[];
  const tb_sor_tile t = tb_sor_tile_of(q, a);
  const int d = a.pipe, tid = (int)threadIdx.x, e = (int)sizeof(T);
  T *const red = reinterpret_cast<T *>(tb_sor_smem);
  unsigned char *const ring = reinterpret_cast<unsigned char *>(red + 3 * t.plane);
  /* A slot's parts (bytes): the black plane, then red's previous value, red's
   * f and black's f at pe apart from the thread's xs, then the words of mr
   * and of mb (mcol apart), the warp's at xm. */
  const int pe = t.plane * e, mcol = t.plane / 32 * tb_sor_mwords * 4;
  const int slot = tb_sor_pipe_slot(t.bx, t.by, e), rsize = (d + 3) * slot;
  const int xo = t.os * e, xh = t.hs * e, xs = t.oplane * e + tid * e;
  const int xm = t.oplane * e + 3 * pe + tid / 32 * tb_sor_mwords * 4;
  /* The warp's slots in the arrays (lo .. hi of row j; none: !wseg), its
   * segment's first byte on plane 0 and the thread's byte from there (0
   * outside the arrays: a byte of the warp's words, never used). */
  const int ih0 = t.ih - (tid & 31), lo = max(ih0, 0), hi = min(ih0 + 31, t.w - 1);
  const bool wseg = lo <= hi && t.j <= t.ny + 1;
  const unsigned mrow = (unsigned)(t.w * t.j + lo), mi = t.inside ? (unsigned)(t.ih - lo) : 0u;
  const unsigned lane = (unsigned)tid & 31u, mlen = (unsigned)(hi - lo);
  const int cb = t.inside ? t.ih + t.w * t.j : 0, dh = t.hload ? t.w * t.hrow : 0;
  const unsigned uwz = (unsigned)t.wz;
  T h, cw[2], ce[2], d4[2], cs, cn;
  unsigned rok, bok;
  tb_sor_lcoef(q, a, t, &h, cw, ce, d4, &cs, &cn, &rok, &bok);
  /* The previous black of plane kp into the slot at byte n of the ring. */
  const auto bcopy = [&](int kp, int n) {
    const unsigned g = (unsigned)cb + uwz * (unsigned)kp;
    tb_sor_cp<sizeof(T)>(ring + n + xo, a.sb + g);
    if (t.hload)
      tb_sor_cp<sizeof(T)>(ring + n + xh, a.sb + (g + dh));
  };
  /* The materials of plane kp (colour array m) into the warp's words at s. */
  const auto mcopy = [&](const uint8_t *m, int kp, unsigned char *s) {
    const unsigned b = mrow + uwz * (unsigned)kp;
    if (wseg && lane <= ((b + mlen) >> 2) - (b >> 2))
      tb_sor_cp<4>(s + 4 * lane, m + ((b & ~3u) + 4 * lane));
  };
  /* Step s's group into the slot at byte n (nothing past the chunk),
   * committed. */
  const auto copy = [&](int s, int n) {
    if (s <= t.k1) {
      bcopy(min(s + 2, t.nz + 1), n);
      const unsigned o = (unsigned)cb + uwz * (unsigned)s;
      unsigned char *const x = ring + n + xs;
      tb_sor_cp<sizeof(T)>(x, a.sr + (o + uwz));
      tb_sor_cp<sizeof(T)>(x + pe, a.fr + (o + uwz));
      tb_sor_cp<sizeof(T)>(x + 2 * pe, a.fb + o);
      unsigned char *const ms = ring + n + xm;
      mcopy(a.mr, s + 1, ms);
      mcopy(a.mb, s, ms + mcol);
    }
    tb_sor_commit();
  };
  /* The ring's slots of steps k, k - 1, k - 2 and k - 3 (= k + d), bytes. */
  int q0 = 0, q1 = (d + 2) * slot, q2 = (d + 1) * slot, q3 = d * slot;
  bcopy(t.k0, q2);
  bcopy(t.k0 + 1, q1);
  for (int u = 0; u < d; u++)
    copy(t.k0 + u, u * slot);
  /* L2 prefetches P planes beyond the copies: step k prefetches plane
   * k + 2 + d + P while k <= plim (the plane at most k1 + 2 and nz + 1), the
   * prologue the first P (lean's, d planes on). */
  const unsigned c1 = (unsigned)(cb + t.wz * (t.k0 + 1));
  const unsigned pw = PF == TB_SOR_L2_THREAD ? (unsigned)(1 + d + a.l2ahead) * uwz : 0u;
  const int plim = PF ? min(t.k1, t.nz - 1) - a.l2ahead - d : 0;
  tb_sor_lpj pj[tb_sor_lpn<T>::per_lane];
  if (PF == TB_SOR_L2_LANE)
    for (int n = 0; n < tb_sor_lpn<T>::per_lane; n++)
      pj[n] = tb_sor_lpjob(a, t, (int)lane + 32 * n, t.k0 + 2 + d);
  for (int u = 0; PF && u < a.l2ahead; u++) {
    const bool go = t.k0 + u <= plim + a.l2ahead;
    if (PF == TB_SOR_L2_LANE)
      tb_sor_lpstep<T>(pj, go);
    else if (go)
      tb_sor_lpf(a, c1 + (unsigned)(1 + d + u) * uwz, dh, t.hload);
  }
  double r2 = 0.0;
  T prev = tb_sor_sred<T, RES>(q, a, t.ih, t.j, t.k0 - 1, t.inside, false, &r2);
  red[tid] = tb_sor_sred<T, RES>(q, a, t.ih, t.j, t.k0, t.inside, t.inner && t.k0 == 1, &r2);
  /* Plane k's z factors and coefficients (black's at step k), and plane
   * k + 1's (red's) at rz + k - k0. */
  T rzm = __ldg(q.cf + q.rx[4] + t.k0), rzp = __ldg(q.cf + q.rx[5] + t.k0);
  T zm = tb_sor_mul(h, rzm), zp = tb_sor_mul(h, rzp);
  const T *const rz = q.cf + q.rx[4] + t.k0 + 1;
  const int zs = t.nz + 2;
  /* c: the slot's offset on plane k + 1 at step k; mk: the warp's
   * segment's first byte on plane k. */
  unsigned c = c1, mk = mrow + uwz * (unsigned)t.k0;
  int rprev = 2 * t.plane, rcur = 0, rnext = t.plane, p = (t.j + t.k0 + 1) & 1;
  for (int k = t.k0; k <= t.k1; k++) {
    /* Issued before the wait, which hides their latency. */
    const T rzm1 = __ldg(rz + (k - t.k0)), rzp1 = __ldg(rz + (k - t.k0) + zs);
    tb_sor_wait(d);
    __syncthreads();
    copy(k + d, q3);
    if (PF == TB_SOR_L2_LANE)
      tb_sor_lpstep<T>(pj, k <= plim);
    else if (PF && k <= plim)
      tb_sor_lpf(a, c + pw, dh, t.hload);
    const T *const o = reinterpret_cast<const T *>(ring + q1 + xo);
    const T ob0 = *reinterpret_cast<const T *>(ring + q2 + xo);
    const T ob2 = *reinterpret_cast<const T *>(ring + q0 + xo);
    const T *const x = reinterpret_cast<const T *>(ring + q0 + xs);
    const T sr = x[0], fr = x[t.plane], fb = x[2 * t.plane];
    const unsigned char *const ms = ring + q0 + xm + mi;
    const unsigned mr = ms[(mk + uwz) & 3u], mb = ms[mcol + (mk & 3u)];
    const T cwp = p ? cw[1] : cw[0], cep = p ? ce[1] : ce[0], d4p = p ? d4[1] : d4[0];
    const T zm1 = tb_sor_mul(h, rzm1), zp1 = tb_sor_mul(h, rzp1);
    /* Red on plane k + 1 from the previous black. */
    T next = sr;
    if ((rok >> p & 1u) && k + 1 <= t.nz && !(mr & TB_SOR_FIXED)) {
      const T r = tb_sor_lapply(o, p, t.bx, sr, fr, ob0, ob2, cwp, cep, cs, cn, zm1, zp1, h, rzm1,
                                rzp1, d4p, q.omega, &next);
      if (t.inner) {
        a.dr[c] = next;
        tb_sor_count<RES>(r, &r2);
      }
    }
    red[rnext + tid] = next;
    /* Black on plane k from the new red (plane k's, written at step k - 1). */
    if ((bok >> p & 1u) && !(mb & TB_SOR_FIXED)) {
      T v;
      const T r = tb_sor_lapply(red + rcur + tid, p, t.bx, ob0, fb, prev, next, cwp, cep, cs, cn,
                                zm, zp, h, rzm, rzp, d4p, q.omega, &v);
      a.db[c - uwz] = v;
      tb_sor_count<RES>(r, &r2);
    }
    c += uwz;
    mk += uwz;
    prev = red[rcur + tid];
    rzm = rzm1;
    rzp = rzp1;
    zm = zm1;
    zp = zp1;
    p ^= 1;
    q3 = q2;
    q2 = q1;
    q1 = q0;
    q0 = q0 + slot == rsize ? 0 : q0 + slot;
    tb_sor_turn(&rprev, &rcur, &rnext);
  }
  if (RES)
    tb_sor_partial(r2, partial);
}

/* roll's and lean's register caps (the tuning's regs): the kernels, by the caps' names. */
const char *const tb_sor_regs[] = {"40", "48", "64", "80", "128", "255", NULL};
template <typename T, bool RES>
void (*const tb_sor_roll_k[])(tb_sor_k<T>, tb_sor_sk<T>, double *) = {
    tb_k_sor_roll<T, RES, 40>, tb_k_sor_roll<T, RES, 48>,  tb_k_sor_roll<T, RES, 64>,
    tb_k_sor_roll<T, RES, 80>, tb_k_sor_roll<T, RES, 128>, tb_k_sor_roll<T, RES, 255>};
/* lean's steps a loop turn (the tuning's turn), and its kernels by turn and cap. */
const char *const tb_sor_turns[] = {"2", "6", NULL};
#define TB_SOR_LEAN_CAPS(TURN, PF)                                                               \
  {tb_k_sor_lean<T, RES, 40, TURN, PF>, tb_k_sor_lean<T, RES, 48, TURN, PF>,                     \
   tb_k_sor_lean<T, RES, 64, TURN, PF>, tb_k_sor_lean<T, RES, 80, TURN, PF>,                     \
   tb_k_sor_lean<T, RES, 128, TURN, PF>, tb_k_sor_lean<T, RES, 255, TURN, PF>}
/* ... and by its L2 prefetches (none where l2ahead is 0, else the tuning's
 * l2mode), turn and cap. */
const char *const tb_sor_l2modes[] = {"thread", "lane", NULL};
template <typename T, bool RES>
void (*const tb_sor_lean_k[][2][6])(tb_sor_k<T>, tb_sor_sk<T>, double *) = {
    {TB_SOR_LEAN_CAPS(2, TB_SOR_L2_NONE), TB_SOR_LEAN_CAPS(6, TB_SOR_L2_NONE)},
    {TB_SOR_LEAN_CAPS(2, TB_SOR_L2_THREAD), TB_SOR_LEAN_CAPS(6, TB_SOR_L2_THREAD)},
    {TB_SOR_LEAN_CAPS(2, TB_SOR_L2_LANE), TB_SOR_LEAN_CAPS(6, TB_SOR_L2_LANE)}};
/* lean's pipe by its L2 prefetches and cap. */
#define TB_SOR_PIPE_CAPS(PF)                                                                     \
  {tb_k_sor_pipe<T, RES, 40, PF>, tb_k_sor_pipe<T, RES, 48, PF>,                                 \
   tb_k_sor_pipe<T, RES, 64, PF>, tb_k_sor_pipe<T, RES, 80, PF>,                                 \
   tb_k_sor_pipe<T, RES, 128, PF>, tb_k_sor_pipe<T, RES, 255, PF>}
template <typename T, bool RES>
void (*const tb_sor_pipe_k[][6])(tb_sor_k<T>, tb_sor_sk<T>, double *) = {
    TB_SOR_PIPE_CAPS(TB_SOR_L2_NONE), TB_SOR_PIPE_CAPS(TB_SOR_L2_THREAD),
    TB_SOR_PIPE_CAPS(TB_SOR_L2_LANE)};

/* roll's shared memory: three red planes and two black ones with a row on
 * either side. */
size_t tb_sor_roll_smem(int bx, int by, size_t e)
{
  return (3 * (size_t)bx * by + 2 * (size_t)bx * (by + 2)) * e;
}

/* One block sums the n partials into *out. */
__global__ void tb_k_sor_sum(const double *partial, int64_t n, double *out)
{
  double s = 0.0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x)
    s += partial[i];
  s = tb_block_sum(s);
  if (threadIdx.x == 0)
    *out = s;
}

enum {
  TB_SOR_PUBLISHED,
  TB_SOR_SPLIT,
  TB_SOR_FUSED,
  TB_SOR_JACOBI,
  TB_SOR_STREAM,
  TB_SOR_ROLL,
  TB_SOR_LEAN
};

/* The layouts that march up the planes on the split arrays with two iterates. */
bool tb_sor_marches(int layout)
{
  return layout == TB_SOR_STREAM || layout == TB_SOR_ROLL || layout == TB_SOR_LEAN;
}

/* The material index every interior row shares (tb_sor_uniform_rows' row
 * table), or -1: lean takes only such problems. */
int tb_sor_one_material(const tb_sor_t *s, const int8_t *urow)
{
  const int m = urow[1 + (s->ny + 2)];
  for (int64_t k = 1; k <= s->nz; k++)
    for (int64_t j = 1; j <= s->ny; j++)
      if (urow[j + (s->ny + 2) * k] != m)
        return -1;
  return m;
}

struct tb_sor_gpu {
  double *partial, *sum; /* per block, and the final sum (device) */
  double *host;          /* the final sum (pinned) */
  int64_t nblocks;       /* the most partials a launch writes */
  dim3 grid;             /* the sweep kernels' grid */
  void *v2;              /* fused and jacobi: the second iterate */
  void *half[6];         /* split and stream: v, f, mat of red, then of black */
  void *half2[2];        /* stream: v of red and black, the second iterate */
  int8_t *urow;          /* stream: the uniform rows */
  int64_t w, half_cells;
  int bx, by, zchunk; /* stream, roll and lean: the block's shape and its planes */
  int regs;           /* roll and lean: the register cap's index in tb_sor_regs */
  int turn;           /* lean: the steps a loop turn's index in tb_sor_turns */
  int um;             /* lean: the problem's one material index */
  int l2ahead;        /* lean: the planes its L2 prefetches run ahead (0: none) */
  int l2mode;         /* lean: how it prefetches, the index in tb_sor_l2modes */
  int pipe;           /* lean: the steps its asynchronous copies run ahead (0: none) */
};

/* roll's or lean's kernel at the tuning's cap (and lean's turn and prefetches). */
template <typename T, bool RES>
void (*tb_sor_march_k(const tb_sor_gpu *st, int layout))(tb_sor_k<T>, tb_sor_sk<T>, double *)
{
  const int pf = st->l2ahead > 0 ? 1 + st->l2mode : 0;
  return layout == TB_SOR_ROLL ? tb_sor_roll_k<T, RES>[st->regs]
         : st->pipe > 0        ? tb_sor_pipe_k<T, RES>[pf][st->regs]
                               : tb_sor_lean_k<T, RES>[pf][st->turn][st->regs];
}

/* The shared memory of roll's or lean's kernel, elements of e bytes. */
size_t tb_sor_march_smem(const tb_sor_gpu *st, size_t e)
{
  return st->pipe > 0 ? tb_sor_pipe_smem(st->bx, st->by, st->pipe, e)
                      : tb_sor_roll_smem(st->bx, st->by, e);
}

template <typename T> tb_sor_k<T> tb_sor_args(const tb_ctx_t *ctx)
{
  const tb_sor_t *s = (const tb_sor_t *)ctx->p->priv;
  tb_sor_k<T> q;
  q.f = (const T *)ctx->buf[s->f];
  q.cf = (const T *)ctx->buf[s->coef];
  q.mat = (const uint8_t *)ctx->buf[s->mat];
  q.nx = s->nx;
  q.ny = s->ny;
  q.nz = s->nz;
  q.sx = s->sx;
  q.sxy = s->sxy;
  const int64_t n3[3] = {s->nx, s->ny, s->nz};
  for (int a = 0; a < 3; a++) {
    q.rx[2 * a] = s->ax[a];
    q.rx[2 * a + 1] = s->ax[a] + n3[a] + 2;
  }
  q.hm = s->hm;
  q.omega = (T)s->omega;
  return q;
}

/* The launch grid of each layout for colour-sweep kernels. */
dim3 tb_sor_grid(const tb_sor_t *s, int layout)
{
  if (layout == TB_SOR_SPLIT)
    return dim3((unsigned)(((s->nx + 1) / 2 + tb_sor_wx - 1) / tb_sor_wx),
                (unsigned)((s->ny + tb_sor_wy - 1) / tb_sor_wy), (unsigned)s->nz);
  if (layout == TB_SOR_FUSED)
    return dim3((unsigned)((s->nx + tb_sor_wx - 3) / (tb_sor_wx - 2)),
                (unsigned)((s->ny + tb_sor_wy - 3) / (tb_sor_wy - 2)),
                (unsigned)((s->nz + tb_sor_zchunk - 1) / tb_sor_zchunk));
  return dim3((unsigned)((s->nx + tb_sor_bx - 1) / tb_sor_bx),
              (unsigned)((s->ny + tb_sor_by - 1) / tb_sor_by), (unsigned)s->nz);
}

/* stream's and roll's tuning: the block's shape (bx x by, by = block / bx)
 * and its planes, checked; the grid; whether the kernel takes the block. */
template <typename T> int tb_sor_stream_shape(tb_ctx_t *ctx, tb_sor_gpu *st, int layout)
{
  const tb_sor_t *s = (const tb_sor_t *)ctx->p->priv;
  const int block = tb_gpu_block(ctx);
  st->bx = (int)tb_tune(ctx, "bx")->i;
  st->zchunk = (int)tb_tune(ctx, "zchunk")->i;
  if (block % st->bx || block / st->bx < 3)
    return tb_fail(TB_EUNSUP, "block %d is not bx %d times 3 rows or more", block, st->bx);
  st->by = block / st->bx;
  if ((int64_t)st->w * (s->ny + 2) > INT_MAX / 2)
    return tb_fail(TB_EUNSUP, "a plane of %lld x %lld points is over the stream sweep's 32-bit "
                   "slots", (long long)s->nx, (long long)s->ny);
  const int64_t gy = (s->ny + st->by - 3) / (st->by - 2), gz = (s->nz + st->zchunk - 1) / st->zchunk;
  if (gy > 65535 || gz > 65535)
    return tb_fail(TB_EUNSUP, "the stream sweep's grid takes at most 65535 row and plane blocks");
  st->grid = dim3((unsigned)((st->w + st->bx - 3) / (st->bx - 2)), (unsigned)gy, (unsigned)gz);
  if (layout == TB_SOR_STREAM)
    return tb_gpu_fit(ctx, tb_k_sor_stream<T, true>, 3 * (size_t)block * sizeof(T), NULL, NULL);
  /* roll and lean index each colour's arrays, all planes, with 32-bit integers. */
  if (st->half_cells > INT_MAX)
    return tb_fail(TB_EUNSUP, "%lld points of a colour are over the roll sweep's 32-bit indices",
                   (long long)st->half_cells);
  st->regs = (int)tb_tune(ctx, "regs")->i;
  if (layout == TB_SOR_LEAN) {
    st->turn = (int)tb_tune(ctx, "turn")->i;
    st->l2ahead = (int)tb_tune(ctx, "l2ahead")->i;
    st->l2mode = (int)tb_tune(ctx, "l2mode")->i;
    st->pipe = (int)tb_tune(ctx, "pipe")->i;
    if (st->pipe > 0 && st->turn != 0)
      return tb_fail(TB_EUNSUP, "lean's pipe runs a step a turn of its loop: --turn 2 only");
  }
  const size_t smem = tb_sor_march_smem(st, sizeof(T));
  if (st->pipe > 0) {
    /* Over 48 KB a block must be asked for, for both kernels a run launches. */
    char what[64];
    snprintf(what, sizeof what, "lean's pipe %d at block %d x %d", st->pipe, st->bx, st->by);
    const int rc = tb_gpu_fit_smem(ctx, tb_sor_march_k<T, true>(st, layout), smem, what, NULL);
    return rc ? rc : tb_gpu_fit_smem(ctx, tb_sor_march_k<T, false>(st, layout), smem, what, NULL);
  }
  cudaFuncAttributes fa;
  const int rc = tb_gpu_fit(ctx, tb_sor_march_k<T, true>(st, layout), smem, &fa, NULL);
  if (!rc && smem > (size_t)fa.maxDynamicSharedSizeBytes)
    return tb_fail(TB_EUNSUP, "the roll sweep's %zu bytes of shared planes are over the %d a block "
                   "takes", smem, fa.maxDynamicSharedSizeBytes);
  return rc;
}

template <typename T> int tb_sor_prepare_t(tb_ctx_t *ctx, tb_sor_gpu *st, int layout)
{
  const tb_sor_t *s = (const tb_sor_t *)ctx->p->priv;
  if (s->nz > 65535 || s->ny > 65535 * 6)
    return tb_fail(TB_EUNSUP, "the launch grid takes at most 65535 planes");
  st->w = (s->nx + 3) / 2;
  st->half_cells = st->w * (s->ny + 2) * (s->nz + 2);
  if (tb_sor_marches(layout)) {
    const int rc = tb_sor_stream_shape<T>(ctx, st, layout);
    if (rc)
      return rc;
  } else
    st->grid = tb_sor_grid(s, layout);
  st->nblocks = (int64_t)st->grid.x * st->grid.y * st->grid.z;
  TB_CUDA(cudaMalloc(&st->partial, (size_t)(2 * st->nblocks) * sizeof(double)));
  TB_CUDA(cudaMalloc(&st->sum, sizeof(double)));
  TB_CUDA(cudaMallocHost(&st->host, sizeof(double)));
  if (layout == TB_SOR_FUSED || layout == TB_SOR_JACOBI)
    TB_CUDA(cudaMalloc(&st->v2, (size_t)s->cells * sizeof(T)));
  if (layout != TB_SOR_SPLIT && !tb_sor_marches(layout))
    return TB_OK;
  /* Zeroed, so that the slots past a row's last point (never read by an
   * update) hold numbers too: on the sweeps' stream, which is non-blocking,
   * so that the zeroing is ordered before the splits below (a cudaMemset on
   * the legacy stream is not, and zeroed f after its split on the H100). */
  cudaStream_t stream = tb_gpu_stream(ctx);
  const size_t hb = (size_t)st->half_cells * sizeof(T);
  /* The materials in whole words: lean's pipe copies a warp's bytes as the
   * words that hold them. */
  const size_t mb = ((size_t)st->half_cells + 3) & ~(size_t)3;
  for (int c = 0; c < 2; c++) {
    TB_CUDA(cudaMalloc(&st->half[3 * c], hb));
    TB_CUDA(cudaMalloc(&st->half[3 * c + 1], hb));
    TB_CUDA(cudaMalloc(&st->half[3 * c + 2], mb));
    TB_CUDA(cudaMemsetAsync(st->half[3 * c], 0, hb, stream));
    TB_CUDA(cudaMemsetAsync(st->half[3 * c + 1], 0, hb, stream));
    TB_CUDA(cudaMemsetAsync(st->half[3 * c + 2], 0, mb, stream));
    if (tb_sor_marches(layout)) {
      TB_CUDA(cudaMalloc(&st->half2[c], hb));
      TB_CUDA(cudaMemsetAsync(st->half2[c], 0, hb, stream));
    }
  }
  if (tb_sor_marches(layout)) {
    const size_t rows = (size_t)((s->ny + 2) * (s->nz + 2));
    int8_t *urow = (int8_t *)malloc(rows);
    if (!urow)
      return tb_fail(TB_ENOMEM, "out of memory");
    tb_sor_uniform_rows(s, (const uint8_t *)ctx->p->array[s->mat].host, urow);
    st->um = tb_sor_one_material(s, urow);
    if (layout == TB_SOR_LEAN && st->um < 0) {
      free(urow);
      return tb_fail(TB_EUNSUP, "lean takes problems of one material (manufactured, laplace); "
                     "roll takes the others");
    }
    cudaError_t e = cudaMalloc(&st->urow, rows);
    if (e == cudaSuccess)
      e = tb_gpu_copy(ctx, st->urow, urow, rows, cudaMemcpyHostToDevice);
    free(urow);
    TB_CUDA(e);
  }
  /* f, then the materials (as bytes through a one-byte type), split once. */
  const int grid = (int)((s->cells + 255) / 256 < 65536 ? (s->cells + 255) / 256 : 65536);
  tb_k_sor_layout<T, true><<<grid, 256, 0, stream>>>((T *)ctx->buf[s->f], (T *)st->half[1],
                                                     (T *)st->half[4], s->sx, s->ny + 2, st->w,
                                                     s->cells);
  TB_CUDA_LAUNCH("sor split f");
  tb_k_sor_layout<uint8_t, true><<<grid, 256, 0, stream>>>(
      (uint8_t *)ctx->buf[s->mat], (uint8_t *)st->half[2], (uint8_t *)st->half[5], s->sx,
      s->ny + 2, st->w, s->cells);
  TB_CUDA_LAUNCH("sor split materials");
  TB_CUDA(cudaStreamSynchronize(stream));
  return TB_OK;
}

/* The residual's square sum of the iteration just launched (n partials). */
int tb_sor_read(tb_ctx_t *ctx, tb_sor_gpu *st, int64_t n, double *r2)
{
  cudaStream_t stream = tb_gpu_stream(ctx);
  tb_k_sor_sum<<<1, tb_sor_sum_block, 0, stream>>>(st->partial, n, st->sum);
  TB_CUDA_LAUNCH("sor sum");
  TB_CUDA(cudaMemcpyAsync(st->host, st->sum, sizeof(double), cudaMemcpyDeviceToHost, stream));
  TB_CUDA(cudaStreamSynchronize(stream));
  *r2 = *st->host;
  return TB_OK;
}

/* One iteration of a layout; res: reduce the residual into the partials
 * (how many in *np). The iterate's parity picks fused's and jacobi's arrays. */
template <typename T, bool RES>
int tb_sor_iterate(tb_ctx_t *ctx, tb_sor_gpu *st, int layout, int64_t it, int64_t *np)
{
  const tb_sor_t *s = (const tb_sor_t *)ctx->p->priv;
  const tb_sor_k<T> q = tb_sor_args<T>(ctx);
  cudaStream_t stream = tb_gpu_stream(ctx);
  const dim3 g = st->grid;
  T *v = (T *)ctx->buf[s->v], *v2 = (T *)st->v2;
  T *src = (it & 1) ? v : v2, *dst = (it & 1) ? v2 : v;
  *np = st->nblocks;
  switch (layout) {
  case TB_SOR_PUBLISHED:
    for (int col = 0; col < 2; col++) {
      tb_k_sor_nat<T, RES, false>
          <<<g, 256, 0, stream>>>(q, v, v, col, st->partial + col * st->nblocks);
      TB_CUDA_LAUNCH("sor published");
    }
    *np = 2 * st->nblocks;
    break;
  case TB_SOR_SPLIT: {
    tb_sor_half<T> h;
    for (int c = 0; c < 2; c++) {
      h.v[c] = (T *)st->half[3 * c];
      h.f[c] = (const T *)st->half[3 * c + 1];
      h.mat[c] = (const uint8_t *)st->half[3 * c + 2];
    }
    h.w = st->w;
    h.wz = st->w * (s->ny + 2);
    for (int col = 0; col < 2; col++) {
      tb_k_sor_split<T, RES><<<g, 256, 0, stream>>>(q, h, col, st->partial + col * st->nblocks);
      TB_CUDA_LAUNCH("sor split");
    }
    *np = 2 * st->nblocks;
    break;
  }
  case TB_SOR_FUSED:
    tb_k_sor_fused<T, RES><<<g, 256, 0, stream>>>(q, src, dst, st->partial);
    TB_CUDA_LAUNCH("sor fused");
    break;
  case TB_SOR_STREAM:
  case TB_SOR_ROLL:
  case TB_SOR_LEAN: {
    /* Iteration it reads the first iterate's arrays when odd, the second's when even. */
    T *one[2] = {(T *)st->half[0], (T *)st->half[3]}, *two[2] = {(T *)st->half2[0],
                                                                 (T *)st->half2[1]};
    T **from = (it & 1) ? one : two, **to = (it & 1) ? two : one;
    tb_sor_sk<T> a;
    a.sr = from[0];
    a.sb = from[1];
    a.dr = to[0];
    a.db = to[1];
    a.fr = (const T *)st->half[1];
    a.fb = (const T *)st->half[4];
    a.mr = (const uint8_t *)st->half[2];
    a.mb = (const uint8_t *)st->half[5];
    a.urow = st->urow;
    a.wz = st->w * (s->ny + 2);
    a.w = (int)st->w;
    a.bx = st->bx;
    a.by = st->by;
    a.zchunk = st->zchunk;
    a.um = st->um;
    a.l2ahead = st->l2ahead;
    a.pipe = st->pipe;
    const int block = st->bx * st->by;
    if (layout == TB_SOR_STREAM) {
      tb_k_sor_stream<T, RES><<<g, block, 3 * (size_t)block * sizeof(T), stream>>>(q, a,
                                                                                 st->partial);
      TB_CUDA_LAUNCH("sor stream");
    } else {
      tb_sor_march_k<T, RES>(st, layout)<<<g, block, tb_sor_march_smem(st, sizeof(T)),
                                           stream>>>(q, a, st->partial);
      TB_CUDA_LAUNCH("sor roll");
    }
    break;
  }
  default:
    tb_k_sor_nat<T, RES, true><<<g, 256, 0, stream>>>(q, src, dst, 0, st->partial);
    TB_CUDA_LAUNCH("sor jacobi");
  }
  return TB_OK;
}

template <typename T> int tb_sor_run_t(tb_ctx_t *ctx, int layout)
{
  const tb_sor_t *s = (const tb_sor_t *)ctx->p->priv;
  tb_sor_gpu *st = (tb_sor_gpu *)ctx->state;
  cudaStream_t stream = tb_gpu_stream(ctx);
  T *v = (T *)ctx->buf[s->v];
  const size_t bytes = (size_t)s->cells * sizeof(T);
  const int lgrid = (int)((s->cells + 255) / 256 < 65536 ? (s->cells + 255) / 256 : 65536);
  const size_t hb = (size_t)st->half_cells * sizeof(T);
  if (layout == TB_SOR_SPLIT || tb_sor_marches(layout)) {
    tb_k_sor_layout<T, true><<<lgrid, 256, 0, stream>>>(v, (T *)st->half[0], (T *)st->half[3],
                                                        s->sx, s->ny + 2, st->w, s->cells);
    TB_CUDA_LAUNCH("sor split v");
    /* stream: the second iterate starts as the first, so its held points are set. */
    for (int c = 0; tb_sor_marches(layout) && c < 2; c++)
      TB_CUDA(cudaMemcpyAsync(st->half2[c], st->half[3 * c], hb, cudaMemcpyDeviceToDevice,
                              stream));
  } else if (st->v2)
    TB_CUDA(cudaMemcpyAsync(st->v2, v, bytes, cudaMemcpyDeviceToDevice, stream));
  double r0 = 0.0, rel = 1.0;
  int64_t it = 1;
  for (;; it++) {
    int64_t np = 0;
    double r2 = 0.0;
    int rc = tb_sor_wants(s, it) ? tb_sor_iterate<T, true>(ctx, st, layout, it, &np)
                                 : tb_sor_iterate<T, false>(ctx, st, layout, it, &np);
    if (!rc && tb_sor_wants(s, it))
      rc = tb_sor_read(ctx, st, np, &r2);
    if (rc)
      return rc;
    const int stop = tb_sor_stop(s, it, r2, &r0, &rel);
    if (stop < 0)
      return TB_EINTR;
    if (stop)
      break;
  }
  if (layout == TB_SOR_SPLIT || tb_sor_marches(layout)) {
    /* stream and roll: iteration it wrote the second iterate's arrays when odd. */
    const bool second = tb_sor_marches(layout) && (it & 1);
    tb_k_sor_layout<T, false><<<lgrid, 256, 0, stream>>>(
        v, (T *)(second ? st->half2[0] : st->half[0]), (T *)(second ? st->half2[1] : st->half[3]),
        s->sx, s->ny + 2, st->w, s->cells);
    TB_CUDA_LAUNCH("sor merge v");
  } else if (st->v2 && (it & 1))
    TB_CUDA(cudaMemcpyAsync(v, st->v2, bytes, cudaMemcpyDeviceToDevice, stream));
  tb_sor_finish(ctx, it, r0, rel);
  return TB_OK;
}

void tb_sor_release(tb_ctx_t *ctx)
{
  tb_sor_gpu *st = (tb_sor_gpu *)ctx->state;
  if (st) {
    cudaFree(st->partial);
    cudaFree(st->sum);
    cudaFreeHost(st->host);
    cudaFree(st->v2);
    for (int c = 0; c < 6; c++)
      cudaFree(st->half[c]);
    cudaFree(st->half2[0]);
    cudaFree(st->half2[1]);
    cudaFree(st->urow);
  }
  free(st);
  ctx->state = NULL;
}

template <int LAYOUT> int tb_sor_prepare(tb_ctx_t *ctx)
{
  tb_sor_gpu *st = (tb_sor_gpu *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  return ctx->p->prec == TB_FLOAT ? tb_sor_prepare_t<float>(ctx, st, LAYOUT)
                                  : tb_sor_prepare_t<double>(ctx, st, LAYOUT);
}

template <int LAYOUT> int tb_sor_run(tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? tb_sor_run_t<float>(ctx, LAYOUT)
                                  : tb_sor_run_t<double>(ctx, LAYOUT);
}

const unsigned tb_sor_precs = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE);

#define TB_SOR_VARIANT(ID, NAME, LAYOUT, SUMMARY)                                                \
  TB_VARIANT(ID, NAME, &tb_algo_sor, tb_sor_precs, 0, NULL, 0, tb_sor_prepare<LAYOUT>,           \
             tb_sor_run<LAYOUT>, NULL, tb_sor_release, SUMMARY)

/* stream's and roll's knobs: the block's shape and the planes a block
 * marches up (a taller tile recomputes fewer ring points, more planes fewer
 * chunk edges, fewer planes more blocks in flight). */
#define TB_SOR_MARCH_TUNING                                                                      \
  TB_GPU_BLOCK("256"),                                                                           \
      {"bx", "threads of a block along x (slots of one colour in a row); rows by = block / bx, " \
             "at least 3", TB_PARAM_INT, "32", 32, 1024, NULL, TB_PARAM_POW2, "32,64,128"},      \
      {"zchunk", "planes a block marches up", TB_PARAM_INT, "32", 1, 65535, NULL, 0,             \
       "8,16,32,64,128"}
const tb_param_def_t tb_sor_tuning_stream[] = {TB_SOR_MARCH_TUNING};
/* roll's also the register cap: fewer registers, more warps resident to hide
 * the loads' latency; more, no spills (the double kernel's). */
#define TB_SOR_ROLL_TUNING                                                                       \
  TB_SOR_MARCH_TUNING,                                                                           \
      {"regs", "roll and lean: the most registers a thread (__maxnreg__): 40, 48, 64, 80, 128 "  \
               "or 255", TB_PARAM_CHOICE, "64", 0, 0, tb_sor_regs, 0, "40,48,64,80,128,255"}
const tb_param_def_t tb_sor_tuning_roll[] = {TB_SOR_ROLL_TUNING};
/* lean's also the steps a turn of its loop: 6, fewer instructions a point,
 * more registers live. */
const tb_param_def_t tb_sor_tuning_lean[] = {
    TB_SOR_ROLL_TUNING,
    {"turn", "lean: steps a turn of the sweep's loop, 2 or 6 (6: fewer instructions a point, "
             "more registers)", TB_PARAM_CHOICE, "2", 0, 0, tb_sor_turns, 0, "2,6"},
    {"l2ahead", "lean: planes its L2 prefetches run ahead of its loads (more bytes in flight, "
                "no registers); 0: none", TB_PARAM_INT, "2", 0, 32, NULL, 0, "0,2,4,8"},
    {"l2mode", "lean with l2ahead: thread (each thread its own elements, seven prefetches a "
               "step) or lane (a warp's row segments a 32-byte sector a lane, one prefetch a "
               "step in float, two in double)", TB_PARAM_CHOICE, "lane", 0, 0, tb_sor_l2modes, 0,
     "thread,lane"},
    {"pipe", "lean: steps ahead its asynchronous copies (cp.async) bring every value into shared "
             "memory (more bytes in flight, no registers; turn 2); 0: register loads a step "
             "ahead", TB_PARAM_INT, "0", 0, tb_sor_pipe_max, NULL, 0, "0,1,2,3,4"},
};

TB_SOR_VARIANT(tb_sor_published, "published", TB_SOR_PUBLISHED,
               "the seeds' layout: a thread a point, 16 x 16 blocks, a launch a colour");
TB_SOR_VARIANT(tb_sor_split, "split", TB_SOR_SPLIT,
               "red and black stored apart: each colour's accesses contiguous");
TB_SOR_VARIANT(tb_sor_fused, "fused", TB_SOR_FUSED,
               "red on plane k + 1 and black on plane k in one pass up the planes, two arrays");
TB_VARIANT(tb_sor_stream, "stream", &tb_algo_sor, tb_sor_precs, 0, tb_sor_tuning_stream,
           TB_COUNT(tb_sor_tuning_stream), tb_sor_prepare<TB_SOR_STREAM>,
           tb_sor_run<TB_SOR_STREAM>, NULL, tb_sor_release,
           "split layout, both colours in one pass up the planes, two iterates (2.5-D)");
TB_VARIANT(tb_sor_roll, "roll", &tb_algo_sor, tb_sor_precs, 0, tb_sor_tuning_roll,
           TB_COUNT(tb_sor_tuning_roll), tb_sor_prepare<TB_SOR_ROLL>, tb_sor_run<TB_SOR_ROLL>,
           NULL, tb_sor_release,
           "stream with each value loaded once: planes rolled through registers, loads a step "
           "ahead, 32-bit indices, a register cap");
TB_VARIANT(tb_sor_lean, "lean", &tb_algo_sor, tb_sor_precs, 0, tb_sor_tuning_lean,
           TB_COUNT(tb_sor_tuning_lean), tb_sor_prepare<TB_SOR_LEAN>, tb_sor_run<TB_SOR_LEAN>,
           NULL, tb_sor_release,
           "roll for one-material problems: coefficients once a thread and a plane, one 32-bit "
           "offset advanced a plane a step, no material lookups (others: roll)");
TB_SOR_VARIANT(tb_sor_jacobi, "jacobi", TB_SOR_JACOBI, "Jacobi (two arrays), the baseline");

/* ---- The distributed twins ---------------------------------------------- */

struct tb_sor_mpi {
  tb_sor_gpu base;        /* partial, sum and host as the single-device twins use them */
  tb_sor_plan_t pl;       /* the decomposition (sor.h) */
  void *dsend, *drecv;    /* the packed faces on the device */
  void *hsend, *hrecv;    /* staged: their pinned host copies */
  int xport;              /* the transport (comm.h) */
  tb_nccl_t *nccl;        /* nccl: the communicator */
  cudaStream_t cs;        /* nccl, overlapped: the exchange's stream, beside the sweep's */
};

/* The published launch over box b: 16 x 16 threads over x and y, one
 * plane of blocks a z plane of the box. */
dim3 tb_sor_box_grid(const tb_sor_box_t *b)
{
  return dim3((unsigned)((b->hi[0] - b->lo[0] + tb_sor_bx) / tb_sor_bx),
              (unsigned)((b->hi[1] - b->lo[1] + tb_sor_by) / tb_sor_by),
              (unsigned)(b->hi[2] - b->lo[2] + 1));
}

/* Colour col over box b with published's kernel, its partials from
 * partial[*np] on (*np advanced): the kernel's point (1, 1, 1) is the box's
 * first, through pointers and spacing tables shifted by the box's origin,
 * and its colour test is on the shifted indices, so the colour passed is
 * flipped where the shift's sum is odd. */
template <typename T, bool RES>
int tb_sor_mpi_sweep(tb_ctx_t *ctx, tb_sor_mpi *st, int col, const tb_sor_box_t *b, int64_t *np)
{
  const tb_sor_t *s = (const tb_sor_t *)ctx->p->priv;
  tb_sor_k<T> q = tb_sor_args<T>(ctx);
  const int64_t dx = b->lo[0] - 1, dy = b->lo[1] - 1, dz = b->lo[2] - 1;
  const int64_t off = dx + s->sx * dy + s->sxy * dz;
  T *v = (T *)ctx->buf[s->v] + off;
  q.f += off;
  q.mat += off;
  const int64_t shift[3] = {dx, dy, dz};
  for (int a = 0; a < 6; a++)
    q.rx[a] += shift[a / 2];
  q.nx = b->hi[0] - b->lo[0] + 1;
  q.ny = b->hi[1] - b->lo[1] + 1;
  q.nz = b->hi[2] - b->lo[2] + 1;
  const dim3 g = tb_sor_box_grid(b);
  tb_k_sor_nat<T, RES, false><<<g, 256, 0, tb_gpu_stream(ctx)>>>(
      q, v, v, col ^ (int)((dx + dy + dz) & 1), st->base.partial + *np);
  TB_CUDA_LAUNCH("sor mpi");
  *np += (int64_t)g.x * g.y * g.z;
  return TB_OK;
}

/* Colour col of a face between the grid and its slots in buf (pack: grid
 * to buf; else buf to grid), a thread a slot (tb_sor_face_at). */
template <typename T>
__global__ void __launch_bounds__(256) tb_k_sor_face(tb_sor_face_t f, T *grid, T *buf, int col,
                                                      int pack)
{
  const int64_t n = tb_sor_face_slots(&f);
  for (int64_t x = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; x < n;
       x += (int64_t)gridDim.x * blockDim.x) {
    const int64_t c = tb_sor_face_at(&f, col, x / f.w, x % f.w);
    if (c < 0)
      continue;
    if (pack)
      buf[x] = grid[c];
    else
      grid[c] = buf[x];
  }
}

/* Queue the pack (or unpack) of every face that travels. */
template <typename T> int tb_sor_mpi_faces(tb_ctx_t *ctx, tb_sor_mpi *st, int col, int pack)
{
  const tb_sor_t *s = (const tb_sor_t *)ctx->p->priv;
  T *v = (T *)ctx->buf[s->v];
  const tb_sor_plan_t *pl = &st->pl;
  for (int d = 0; d < 6; d++) {
    const int64_t n = pl->off[d + 1] - pl->off[d];
    if (!n)
      continue;
    const unsigned g = (unsigned)(n < 256 * 4096 ? (n + 255) / 256 : 4096);
    T *buf = (T *)(pack ? st->dsend : st->drecv) + pl->off[d];
    tb_k_sor_face<T><<<g, 256, 0, tb_gpu_stream(ctx)>>>(pack ? pl->send[d] : pl->recv[d], v, buf,
                                                        col, pack);
    TB_CUDA_LAUNCH("sor face");
  }
  return TB_OK;
}

/* The stream NCCL's exchange runs on: the sweep's own where nothing
 * overlaps it, else its own. */
cudaStream_t tb_sor_xstream(tb_ctx_t *ctx, const tb_sor_mpi *st)
{
  return st->cs ? st->cs : tb_gpu_stream(ctx);
}

/* Post the exchange of the packed faces. The stream is synchronised
 * first (staged: after the packed faces' copy to the pinned buffer): the
 * faces must be final before they travel. */
template <typename T> int tb_sor_halo_post(tb_ctx_t *ctx, tb_sor_mpi *st, tb_mpi_halo_t *h)
{
  cudaStream_t stream = tb_gpu_stream(ctx);
  const int staged = st->xport == TB_XPORT_STAGED;
  char *send = (char *)(staged ? st->hsend : st->dsend);
  char *recv = (char *)(staged ? st->hrecv : st->drecv);
  const int64_t *off = st->pl.off;
  void *sp[6], *rp[6];
  int64_t bytes[6];
  if (staged && off[6])
    TB_CUDA(cudaMemcpyAsync(st->hsend, st->dsend, (size_t)off[6] * sizeof(T),
                            cudaMemcpyDeviceToHost, stream));
  for (int d = 0; d < 6; d++) {
    sp[d] = send + off[d] * (int64_t)sizeof(T);
    rp[d] = recv + off[d] * (int64_t)sizeof(T);
    bytes[d] = (off[d + 1] - off[d]) * (int64_t)sizeof(T);
  }
  if (st->xport == TB_XPORT_NCCL)
    return tb_nccl_halo_start(st->nccl, &st->pl.cart, sp, rp, bytes, stream,
                              tb_sor_xstream(ctx, st));
  TB_CUDA(cudaStreamSynchronize(stream));
  return tb_mpi_halo_start(&st->pl.cart, h, sp, rp, bytes);
}

/* Wait for the posted exchange, by its transport. */
int tb_sor_halo_wait(tb_ctx_t *ctx, const tb_sor_mpi *st, tb_mpi_halo_t *h)
{
  return st->xport == TB_XPORT_NCCL ? tb_nccl_wait(tb_sor_xstream(ctx, st)) : tb_mpi_halo_wait(h);
}

/* Complete the exchange and queue the received layers' unpack (staged:
 * after their copy to the device). */
template <typename T> int tb_sor_halo_finish(tb_ctx_t *ctx, tb_sor_mpi *st, tb_mpi_halo_t *h,
                                             int col)
{
  int rc = tb_sor_halo_wait(ctx, st, h);
  if (rc)
    return rc;
  if (st->xport == TB_XPORT_STAGED && st->pl.off[6])
    TB_CUDA(cudaMemcpyAsync(st->drecv, st->hrecv, (size_t)st->pl.off[6] * sizeof(T),
                            cudaMemcpyHostToDevice, tb_gpu_stream(ctx)));
  return tb_sor_mpi_faces<T>(ctx, st, col, 0);
}

/* One colour on the rank's box with its exchange: the boxes before the
 * post (blocking: all of it; overlapped: the faces that travel), the faces
 * packed and posted, the rest launched, which runs on the GPU while the
 * halos travel, the wait and the unpack. */
template <typename T, bool RES>
int tb_sor_mpi_colour(tb_ctx_t *ctx, tb_sor_mpi *st, int col, int64_t *np)
{
  tb_mpi_halo_t h;
  int rc = TB_OK;
  const tb_sor_plan_t *pl = &st->pl;
  for (int q = 0; q < pl->nbefore && !rc; q++)
    rc = tb_sor_mpi_sweep<T, RES>(ctx, st, col, &pl->sweep[q], np);
  if (rc || (rc = tb_sor_mpi_faces<T>(ctx, st, col, 1)) || (rc = tb_sor_halo_post<T>(ctx, st, &h)))
    return rc;
  for (int q = pl->nbefore; q < pl->nbefore + pl->nafter && !rc; q++)
    rc = tb_sor_mpi_sweep<T, RES>(ctx, st, col, &pl->sweep[q], np);
  if (rc) {
    tb_sor_halo_wait(ctx, st, &h);
    return rc;
  }
  return tb_sor_halo_finish<T>(ctx, st, &h, col);
}

template <typename T> int tb_sor_mpi_run_t(tb_ctx_t *ctx)
{
  const tb_sor_t *s = (const tb_sor_t *)ctx->p->priv;
  tb_sor_mpi *st = (tb_sor_mpi *)ctx->state;
  double r0 = 0.0, rel = 1.0;
  int64_t it = 1;
  for (;; it++) {
    int64_t np = 0;
    double r2 = 0.0;
    const bool want = tb_sor_wants(s, it);
    int rc = TB_OK;
    for (int col = 0; col < 2 && !rc; col++)
      rc = want ? tb_sor_mpi_colour<T, true>(ctx, st, col, &np)
                : tb_sor_mpi_colour<T, false>(ctx, st, col, &np);
    if (!rc && want && !(rc = tb_sor_read(ctx, &st->base, np, &r2)))
      rc = tb_mpi_allreduce_sum(&r2, 1, TB_KIND_F64);
    if (rc)
      return rc;
    const int stop = tb_sor_stop(s, it, r2, &r0, &rel);
    if (stop < 0)
      return TB_EINTR;
    if (stop)
      break;
  }
  tb_sor_finish(ctx, it, r0, rel);
  return TB_OK;
}

int tb_sor_mpi_run(tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? tb_sor_mpi_run_t<float>(ctx) : tb_sor_mpi_run_t<double>(ctx);
}

/* The plan (a collective), the partials of its boxes' launches (both
 * colours), and the faces' buffers: on the device, and where MPI is not
 * CUDA-aware pinned host copies. */
template <int OVERLAP> int tb_sor_mpi_prepare(tb_ctx_t *ctx)
{
  const size_t e = tb_kind_size(tb_prec_kind(ctx->p->prec));
  tb_sor_mpi *st = (tb_sor_mpi *)calloc(1, sizeof *st);
  int rc;
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  if ((rc = tb_sor_plan_make(ctx, OVERLAP, &st->pl)))
    return rc;
  int64_t blocks = 0;
  for (int q = 0; q < st->pl.nbefore + st->pl.nafter; q++) {
    const tb_sor_box_t *b = &st->pl.sweep[q];
    const dim3 g = tb_sor_box_grid(b);
    if (b->hi[2] - b->lo[2] >= 65535 || g.y > 65535)
      return tb_fail(TB_EUNSUP, "the launch grid takes at most 65535 planes and 65535 x 16 rows");
    blocks += (int64_t)g.x * g.y * g.z;
  }
  st->base.nblocks = 2 * blocks;
  TB_CUDA(cudaMalloc(&st->base.partial, (size_t)(2 * blocks + 1) * sizeof(double)));
  TB_CUDA(cudaMalloc(&st->base.sum, sizeof(double)));
  TB_CUDA(cudaMallocHost(&st->base.host, sizeof(double)));
  const size_t bytes = (size_t)st->pl.off[6] * e + e;
  TB_CUDA(cudaMalloc(&st->dsend, bytes));
  TB_CUDA(cudaMalloc(&st->drecv, bytes));
  if ((rc = tb_gpu_transport(ctx, &st->xport, &st->nccl)))
    return rc;
  if (st->xport == TB_XPORT_STAGED) {
    TB_CUDA(cudaMallocHost(&st->hsend, bytes));
    TB_CUDA(cudaMallocHost(&st->hrecv, bytes));
  }
  if (st->xport == TB_XPORT_NCCL && OVERLAP)
    TB_CUDA(cudaStreamCreateWithFlags(&st->cs, cudaStreamNonBlocking));
  return TB_OK;
}

/* Every rank's box into every rank's device grid, through the host
 * (untimed: for the verifier). */
int tb_sor_mpi_collect(tb_ctx_t *ctx)
{
  const tb_sor_t *s = (const tb_sor_t *)ctx->p->priv;
  const tb_sor_mpi *st = (const tb_sor_mpi *)ctx->state;
  const size_t e = tb_kind_size(tb_prec_kind(ctx->p->prec)), bytes = (size_t)s->cells * e;
  void *v = ctx->buf[s->v];
  void *host = malloc(bytes);
  if (!host)
    return tb_fail(TB_ENOMEM, "out of memory for the gathered grid");
  cudaError_t err = tb_gpu_copy(ctx, host, v, bytes, cudaMemcpyDeviceToHost);
  int rc = err != cudaSuccess ? tb_cuda_status(err, "reading the grid", __FILE__, __LINE__) : TB_OK;
  if (!rc && !(rc = tb_sor_mpi_gather(s, &st->pl.cart, host, e)) &&
      (err = tb_gpu_copy(ctx, v, host, bytes, cudaMemcpyHostToDevice)) != cudaSuccess)
    rc = tb_cuda_status(err, "writing the gathered grid", __FILE__, __LINE__);
  free(host);
  return rc;
}

void tb_sor_mpi_release(tb_ctx_t *ctx)
{
  tb_sor_mpi *st = (tb_sor_mpi *)ctx->state;
  if (st) {
    tb_sor_plan_free(&st->pl);
    cudaFree(st->base.partial);
    cudaFree(st->base.sum);
    cudaFreeHost(st->base.host);
    cudaFree(st->dsend);
    cudaFree(st->drecv);
    cudaFreeHost(st->hsend);
    cudaFreeHost(st->hrecv);
    tb_nccl_free(st->nccl);
    if (st->cs)
      cudaStreamDestroy(st->cs);
  }
  free(st);
  ctx->state = NULL;
}

const tb_param_def_t tb_sor_tuning_mpi[] = {TB_GPU_TRANSPORT};
TB_VARIANT(tb_sor_gpu_mpi, "mpi", &tb_algo_sor, tb_sor_precs, TB_V_MPI, tb_sor_tuning_mpi,
           TB_COUNT(tb_sor_tuning_mpi), tb_sor_mpi_prepare<0>, tb_sor_mpi_run,
           tb_sor_mpi_collect, tb_sor_mpi_release,
           "MPI ranks: a box each of the 3-D process grid (-P pgrid), published's kernel, the "
           "colour's face points packed on the device and exchanged after each colour "
           "(CUDA-aware MPI, MPI through pinned host buffers, or NCCL: --transport)");
TB_VARIANT(tb_sor_gpu_mpi_overlap, "mpi-overlap", &tb_algo_sor, tb_sor_precs, TB_V_MPI,
           tb_sor_tuning_mpi, TB_COUNT(tb_sor_tuning_mpi),
           tb_sor_mpi_prepare<1>, tb_sor_mpi_run, tb_sor_mpi_collect, tb_sor_mpi_release,
           "MPI ranks: boxes of the 3-D process grid, the faces first, their exchange while the "
           "interior runs on the GPU");

} /* namespace */

TB_VARIANT_LIST(sor, gpu, &tb_sor_published, &tb_sor_split, &tb_sor_fused, &tb_sor_stream,
                &tb_sor_roll, &tb_sor_lean, &tb_sor_jacobi, &tb_sor_gpu_mpi,
                &tb_sor_gpu_mpi_overlap);
