/* twinbench: the spectral Poisson family's distributed CUDA twin (MPI runs,
 * tbmpi.h; one rank per device, ranks beyond the devices sharing them), the
 * CPU twin's decomposition (cpu_omp/poisson_mpi.c, doc/mpi.md) on cuFFT.
 *
 * mpi  the rank's slab of f (P = N / R rows, or z planes) through a batched
 *      cuFFT R2C (rows, or 2-D planes); the pack, one 2-D copy a block
 *      (cudaMemcpy2DAsync: block d is the P pieces of the spectrum rows that
 *      rank d will own, zeros in the 2-D padding columns); the all-to-all by
 *      the transport (comm.h: MPI_Alltoall on the device buffers, or through
 *      pinned host buffers, the copies inside the timed run, or NCCL's sends
 *      and receives with every rank), which
 *      leaves the rank an N x (its lines) matrix; a batched C2C along the
 *      slab axis (stride: the lines, each line a column), the solve kernel
 *      (coalesced along the lines), the inverse; MPI_Alltoall back, the
 *      unpack (the pack's copies reversed) and a batched C2R into the rank's
 *      slab of u. The zero mode is rank 0's first value of the matrix;
 *      collect (untimed) gathers the slabs of u on every rank for the
 *      verifier. */
#include <config.h>

#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "../common/tbmpi.h"
#include "../common/timer.h"
#include "../families/poisson.h"
#include "comm.h"
#include "cuda_util.h"
#include "poisson.cuh"

namespace {

/* The decomposition (cpu_omp/poisson_mpi.c's, whose comment derives it):
 * piece d of spectrum row z starts at z zs + d (nq qs + dc) and holds
 * count(d) values; block d is its P pieces, `lines` values apart, each
 * followed by lines - count(d) zeros (2-D padding). */
struct tb_pgeo {
  int64_t ranks, rank, n, p, h, nq, cols, zs, qs, dc, lines, block;
};

int64_t tb_pgeo_count(const tb_pgeo &g, int64_t d)
{
  const int64_t v = g.h - d * g.dc;
  return (g.nq - 1) * g.cols + (v < 0 ? 0 : v < g.cols ? v : g.cols);
}

/* The solve on the N x lines matrix w: value (z, l) times -scale /
 * (kline[l] + k2[z]); the zero mode (rank 0's (0, 0)) set to zero. Threads
 * along the lines (coalesced), a grid-stride loop over z in y. */
template <typename T, typename C>
__global__ void tb_k_pmpi_solve(C *__restrict__ w, const T *__restrict__ kline,
                                const T *__restrict__ k2, int64_t lines, int64_t n, T scale,
                                int zero)
{
  const int64_t l = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (l >= lines)
    return;
  const T kl = kline[l];
  for (int64_t z = blockIdx.y; z < n; z += gridDim.y) {
    const T g = zero && l == 0 && z == 0 ? T(0) : -scale / (kl + k2[z]);
    C v = w[z * lines + l];
    v.x *= g;
    v.y *= g;
    w[z * lines + l] = v;
  }
}

struct tb_pmpi_gpu {
  tb_pgeo g;
  cufftHandle fwd, inv, line; /* the slab's R2C and C2R, the lines' C2C (strided) */
  int have[3];
  void *work;          /* the spectrum slab */
  void *send, *recv;   /* ranks blocks each; recv is the N x lines matrix */
  void *hsend, *hrecv; /* staged: their pinned host copies */
  void *kline, *k2;    /* T: each line's |k|^2 without the slab axis's, k^2 of an axis */
  int xport;           /* the transport (comm.h) */
  tb_nccl_t *nccl;     /* nccl: the communicator */
  dim3 grid; /* the solve's */
};

const tb_param_def_t tb_pmpi_gpu_tuning[] = {TB_GPU_BLOCK("256"), TB_GPU_TRANSPORT};

/* The all-to-all of `from` into `to` (device buffers) by the transport:
 * for MPI the stream drained first, since the library knows nothing of it,
 * and staged through the pinned host buffers. */
template <typename C> int tb_pmpi_exchange(tb_ctx_t *ctx, tb_pmpi_gpu *st, void *from, void *to)
{
  cudaStream_t stream = tb_gpu_stream(ctx);
  const size_t bytes = (size_t)(st->g.block * st->g.ranks) * sizeof(C);
  if (st->xport == TB_XPORT_NCCL)
    return tb_nccl_alltoall(st->nccl, from, to, st->g.block, (int64_t)sizeof(C), stream);
  TB_CUDA(cudaStreamSynchronize(stream));
  if (st->xport == TB_XPORT_AWARE)
    return tb_mpi_alltoall(from, to, st->g.block, (int64_t)sizeof(C));
  TB_CUDA(cudaMemcpyAsync(st->hsend, from, bytes, cudaMemcpyDeviceToHost, stream));
  TB_CUDA(cudaStreamSynchronize(stream));
  int rc = tb_mpi_alltoall(st->hsend, st->hrecv, st->g.block, (int64_t)sizeof(C));
  if (rc)
    return rc;
  TB_CUDA(cudaMemcpyAsync(to, st->hrecv, bytes, cudaMemcpyHostToDevice, stream));
  return TB_OK;
}

/* The pack (slab to blocks, with the padding zeroed) or the unpack (back):
 * one 2-D copy a block on the run's stream. */
template <typename C>
int tb_pmpi_pack(tb_ctx_t *ctx, const tb_pgeo &g, C *blocks, C *slab, int back)
{
  cudaStream_t stream = tb_gpu_stream(ctx);
  const size_t ce = sizeof(C), bp = (size_t)g.lines * ce, sp = (size_t)g.zs * ce;
  for (int64_t d = 0; d < g.ranks; d++) {
    const int64_t count = tb_pgeo_count(g, d);
    C *piece = slab + d * (g.nq * g.qs + g.dc), *row = blocks + d * g.block;
    if (count && back)
      TB_CUDA(cudaMemcpy2DAsync(piece, sp, row, bp, (size_t)count * ce, (size_t)g.p,
                                cudaMemcpyDeviceToDevice, stream));
    if (count && !back)
      TB_CUDA(cudaMemcpy2DAsync(row, bp, piece, sp, (size_t)count * ce, (size_t)g.p,
                                cudaMemcpyDeviceToDevice, stream));
    if (count < g.lines && !back)
      TB_CUDA(cudaMemset2DAsync(row + count, bp, 0, (size_t)(g.lines - count) * ce, (size_t)g.p,
                                stream));
  }
  return TB_OK;
}

template <typename T> int tb_pmpi_gpu_run_t(tb_ctx_t *ctx)
{
  typedef typename tb_fft<T>::C C;
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  tb_pmpi_gpu *st = (tb_pmpi_gpu *)ctx->state;
  const tb_pgeo &g = st->g;
  cudaStream_t stream = tb_gpu_stream(ctx);
  const int64_t off = g.rank * g.p * (s->total / s->n);
  C *work = (C *)st->work, *send = (C *)st->send, *recv = (C *)st->recv;
  int rc;
  TB_CUFFT(tb_fft<T>::exec_r2c(st->fwd, (T *)ctx->buf[s->f] + off, work));
  if ((rc = tb_pmpi_pack<C>(ctx, g, send, work, 0)) ||
      (rc = tb_pmpi_exchange<C>(ctx, st, send, recv)))
    return rc;
  TB_CUFFT(tb_fft<T>::exec_c2c(st->line, recv, CUFFT_FORWARD));
  tb_k_pmpi_solve<T, C><<<st->grid, tb_gpu_block(ctx), 0, stream>>>(
      recv, (const T *)st->kline, (const T *)st->k2, g.lines, g.n, T(1.0 / (double)s->total),
      g.rank == 0);
  TB_CUDA_LAUNCH("poisson mpi solve");
  TB_CUFFT(tb_fft<T>::exec_c2c(st->line, recv, CUFFT_INVERSE));
  if ((rc = tb_pmpi_exchange<C>(ctx, st, recv, send)) ||
      (rc = tb_pmpi_pack<C>(ctx, g, send, work, 1)))
    return rc;
  TB_CUFFT(tb_fft<T>::exec_c2r(st->inv, work, (T *)ctx->buf[s->u] + off));
  return TB_OK;
}

/* A batched plan on the run's stream: `batch` transforms of rank r of
 * sizes nn, the input laid out as arrays of ie (its last extent: N real
 * values or H complex ones), `stride` apart within a transform and idist
 * between transforms, the output as oe, odist, with the same stride. */
int tb_pmpi_plan(tb_ctx_t *ctx, cufftHandle *h, int *have, int r, int *nn, int *ie, int stride,
                 int idist, int *oe, int odist, cufftType type, int batch)
{
  size_t ws = 0;
  TB_CUFFT(cufftCreate(h));
  *have = 1;
  TB_CUFFT(cufftMakePlanMany(*h, r, nn, ie, stride, idist, oe, stride, odist, type, batch, &ws));
  TB_CUFFT(cufftSetStream(*h, tb_gpu_stream(ctx)));
  return TB_OK;
}

/* The geometry, buffers, tables, plans and launch shapes. */
template <typename T> int tb_pmpi_gpu_prepare_t(tb_ctx_t *ctx, tb_pmpi_gpu *st)
{
  typedef typename tb_fft<T>::C C;
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  tb_pgeo &g = st->g;
  const int64_t ranks = tb_mpi_size();
  if (s->n % ranks)
    return tb_fail(TB_EUNSUP, "poisson mpi: N = %lld is not a multiple of the %d MPI ranks",
                   (long long)s->n, (int)ranks);
  g.ranks = ranks;
  g.rank = tb_mpi_rank();
  g.n = s->n;
  g.h = s->half;
  g.p = s->n / ranks;
  if (s->dim == 2) {
    g.nq = 1;
    g.cols = g.dc = (g.h + ranks - 1) / ranks;
    g.zs = g.h;
  } else {
    g.nq = g.p;
    g.cols = g.qs = g.h;
    g.zs = s->n * g.h;
  }
  g.lines = g.nq * g.cols;
  g.block = g.lines * g.p;
  if (g.block * ranks > INT_MAX || s->total / s->n > INT_MAX)
    return tb_fail(TB_EUNSUP, "poisson mpi: %d-D N = %lld is more than cuFFT's and MPI's int "
                   "counts on %d ranks", s->dim, (long long)s->n, (int)ranks);
  const size_t all = (size_t)(g.block * ranks) * sizeof(C);
  TB_CUDA(cudaMalloc(&st->work, (size_t)(g.p * g.zs) * sizeof(C)));
  TB_CUDA(cudaMalloc(&st->send, all));
  TB_CUDA(cudaMalloc(&st->recv, all));
  int rc = tb_gpu_transport(ctx, &st->xport, &st->nccl);
  if (rc)
    return rc;
  if (st->xport == TB_XPORT_STAGED) {
    TB_CUDA(cudaMallocHost(&st->hsend, all));
    TB_CUDA(cudaMallocHost(&st->hrecv, all));
  }
  /* The tables, in the precision, as the one-process solve's wavenumbers. */
  T *k2 = (T *)malloc((size_t)(g.n + g.lines) * sizeof(T)), *kl = k2 + g.n;
  if (!k2)
    return tb_fail(TB_ENOMEM, "out of memory");
  double *k2d = (double *)malloc((size_t)g.n * sizeof(double));
  if (!k2d) {
    free(k2);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  for (int64_t i = 0; i < g.n; i++) {
    const double k = 2.0 * M_PI / s->L * (double)tb_poisson_freq(i, g.n);
    k2d[i] = k * k;
    k2[i] = (T)k2d[i];
  }
  for (int64_t l = 0; l < g.lines; l++) {
    const int64_t x = g.rank * g.dc + l % g.cols, y = g.rank * g.nq + l / g.cols;
    kl[l] = (T)(x >= g.h ? 1.0 : s->dim == 2 ? k2d[x] : k2d[y] + k2d[x]);
  }
  free(k2d);
  cudaError_t e = cudaMalloc(&st->k2, (size_t)g.n * sizeof(T));
  if (e == cudaSuccess)
    e = cudaMalloc(&st->kline, (size_t)g.lines * sizeof(T));
  if (e == cudaSuccess)
    e = tb_gpu_copy(ctx, st->k2, k2, (size_t)g.n * sizeof(T), cudaMemcpyHostToDevice);
  if (e == cudaSuccess)
    e = tb_gpu_copy(ctx, st->kline, kl, (size_t)g.lines * sizeof(T), cudaMemcpyHostToDevice);
  free(k2);
  if (e != cudaSuccess)
    return tb_cuda_status(e, "poisson mpi's tables", __FILE__, __LINE__);

  /* The slab: P rows (planes) of N (N x N) reals, N^(dim-1) apart, and of
   * H (N x H) complex values, N^(dim-2) H apart; the lines: the columns of
   * the N x lines matrix, N values `lines` apart, adjacent lines 1 apart. */
  const int r = s->dim - 1, n = (int)g.n, h = (int)g.h;
  int nn[2] = {n, n}, re[2] = {n, n}, ce[2] = {r == 1 ? h : n, h};
  const int rdist = (int)(s->total / s->n), cdist = (int)g.zs;
  const double t0 = tb_wtime();
  if ((rc = tb_pmpi_plan(ctx, &st->fwd, &st->have[0], r, nn, re, 1, rdist, ce, cdist,
                         tb_fft<T>::r2c, (int)g.p)) ||
      (rc = tb_pmpi_plan(ctx, &st->inv, &st->have[1], r, nn, ce, 1, cdist, re, rdist,
                         tb_fft<T>::c2r, (int)g.p)) ||
      (rc = tb_pmpi_plan(ctx, &st->line, &st->have[2], 1, nn, nn, (int)g.lines, 1, nn, 1,
                         tb_fft<T>::c2c, (int)g.lines)))
    return rc;
  ctx->extra[TB_POISSON_PLAN_MS] = 1e3 * (tb_wtime() - t0);
  ctx->extra[TB_POISSON_ROUNDTRIP] = 0.0;
  if ((rc = tb_gpu_fit(ctx, tb_k_pmpi_solve<T, C>, 0, NULL, NULL)))
    return rc;
  const int block = tb_gpu_block(ctx);
  st->grid = dim3((unsigned)((g.lines + block - 1) / block), (unsigned)(g.n < 65535 ? g.n : 65535));
  return TB_OK;
}

int tb_pmpi_gpu_prepare(tb_ctx_t *ctx)
{
  tb_pmpi_gpu *st = (tb_pmpi_gpu *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  return ctx->p->prec == TB_FLOAT ? tb_pmpi_gpu_prepare_t<float>(ctx, st)
                                  : tb_pmpi_gpu_prepare_t<double>(ctx, st);
}

int tb_pmpi_gpu_run(tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? tb_pmpi_gpu_run_t<float>(ctx) : tb_pmpi_gpu_run_t<double>(ctx);
}

/* Every rank's slab of u into every rank's device u, through the host
 * (untimed: for the verifier). */
int tb_pmpi_gpu_collect(tb_ctx_t *ctx)
{
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  const int64_t e = (int64_t)tb_kind_size(tb_prec_kind(ctx->p->prec)), bytes = s->total * e;
  char *host = (char *)malloc((size_t)bytes);
  if (!host)
    return tb_fail(TB_ENOMEM, "out of memory for the gathered solution");
  cudaError_t ce = tb_gpu_copy(ctx, host, ctx->buf[s->u], (size_t)bytes, cudaMemcpyDeviceToHost);
  int rc = ce != cudaSuccess ? tb_cuda_status(ce, "reading u", __FILE__, __LINE__) : TB_OK;
  if (!rc && !(rc = tb_mpi_allgather_bytes(host, s->n, s->total / s->n * e)) &&
      (ce = tb_gpu_copy(ctx, ctx->buf[s->u], host, (size_t)bytes, cudaMemcpyHostToDevice)) !=
          cudaSuccess)
    rc = tb_cuda_status(ce, "writing the gathered u", __FILE__, __LINE__);
  free(host);
  return rc;
}

void tb_pmpi_gpu_release(tb_ctx_t *ctx)
{
  tb_pmpi_gpu *st = (tb_pmpi_gpu *)ctx->state;
  if (!st)
    return;
  const cufftHandle plans[3] = {st->fwd, st->inv, st->line};
  for (int k = 0; k < 3; k++)
    if (st->have[k])
      cufftDestroy(plans[k]);
  cudaFree(st->work);
  cudaFree(st->send);
  cudaFree(st->recv);
  cudaFree(st->k2);
  cudaFree(st->kline);
  cudaFreeHost(st->hsend);
  cudaFreeHost(st->hrecv);
  tb_nccl_free(st->nccl);
  free(st);
  ctx->state = NULL;
}

} /* namespace */

extern "C" const tb_variant_t tb__poisson_gpu_mpi = {
    "mpi",
    "MPI ranks: slabs of the slowest axis, cuFFT R2C of the slab, 2-D copies into the blocks, "
    "the all-to-all (the transpose; --transport: MPI on device or pinned host buffers, or "
    "NCCL), strided C2C along the slab axis, "
    "solve, C2C back, the all-to-all back, C2R",
    &tb_algo_poisson,
    TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    TB_V_MPI,
    tb_pmpi_gpu_tuning,
    TB_COUNT(tb_pmpi_gpu_tuning),
    tb_pmpi_gpu_prepare,
    tb_pmpi_gpu_run,
    tb_pmpi_gpu_collect,
    tb_pmpi_gpu_release};
