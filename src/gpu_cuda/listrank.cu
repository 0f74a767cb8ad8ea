/* twinbench: list ranking's CUDA twins.
 *
 * wyllie  Wyllie's pointer jumping as published: one launch sets every
 *         node's rank (1, or 0 for the tail) and successor, then
 *         ceil(log2 n) launches replace them by rank + rank(successor) and
 *         successor(successor), between double buffers;
 * hj      Helman and JaJa's sublists: random splitters (drawn on the host
 *         in prepare, the head added as splitter 0 in the run) cut the list
 *         into about n / spacing sublists; one thread walks each, recording
 *         every node's sublist and place; the sublists' chain is ranked by
 *         Wyllie's pointer jumping over the splitters, weighted by their
 *         lengths; a last launch turns places into ranks. Lists only.
 * Wyllie's jumps give a tree's depths as they give a list's ranks (shape
 * tree: succ is the parent).
 * Every access to a node is a random gather or scatter of 4 bytes, so one
 * 32-byte sector per access reaches memory. */
#include <config.h>

#include <cuda_runtime.h>
#include <stdlib.h>

#include "../common/refmath.h"
#include "../families/scan.h"
#include "cuda_util.h"

namespace {

/* The grid-stride loop over i in [0, n). */
#define TB_FOR_EACH(i, n)                                                                        \
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);                      \
       i += (int64_t)gridDim.x * blockDim.x)

/* Wyllie's start: rank 1 a link (0 for the tail), the successors as given. */
__global__ void k_wyllie_init(const int *__restrict__ succ, int *__restrict__ r,
                              int *__restrict__ nx, int64_t n)
{
  TB_FOR_EACH(i, n)
  {
    const int s = succ[i];
    r[i] = s == TB_LIST_END ? 0 : 1;
    nx[i] = s;
  }
}

/* One jump: r'_i = r_i + r_{nx_i}, nx'_i = nx_{nx_i} (the end stays the end). */
__global__ void k_wyllie_jump(const int *__restrict__ r, const int *__restrict__ nx,
                              int *__restrict__ r2, int *__restrict__ nx2, int64_t n)
{
  TB_FOR_EACH(i, n)
  {
    const int j = nx[i];
    r2[i] = j == TB_LIST_END ? r[i] : r[i] + r[j];
    nx2[i] = j == TB_LIST_END ? TB_LIST_END : nx[j];
  }
}

/* Helman-JaJa, launch 1: no node has a sublist yet. */
__global__ void k_hj_clear(int *__restrict__ owner, int64_t n)
{
  TB_FOR_EACH(i, n)
  owner[i] = -1;
}

/* Launch 2: each splitter claims its node; of a node drawn twice one
 * claim wins, and only the winner walks. Splitter 0 is the head. */
__global__ void k_hj_mark(int *__restrict__ spl, int *__restrict__ owner, const int *head,
                          int64_t s)
{
  TB_FOR_EACH(j, s)
  {
    if (j == 0)
      spl[0] = *head;
    owner[j == 0 ? *head : spl[j]] = (int)j;
  }
}

/* Launch 3: one thread per splitter walks its sublist to the next
 * splitter or the tail: each node's place (in rank) and sublist (in
 * owner); the sublist's length (in len, 0 for a losing repeat) and the
 * sublist after it (in next, TB_LIST_END at the tail). */
__global__ void k_hj_walk(const int *__restrict__ succ, const int *__restrict__ spl,
                          int *__restrict__ owner, int *__restrict__ rank, int *__restrict__ len,
                          int *__restrict__ next, int64_t s)
{
  TB_FOR_EACH(j, s)
  {
    int v = spl[j], d = 0;
    if (owner[v] != (int)j) {
      len[j] = 0;
      next[j] = TB_LIST_END;
      continue;
    }
    for (;;) {
      rank[v] = d;
      const int nx = succ[v];
      if (nx == TB_LIST_END) {
        next[j] = TB_LIST_END;
        break;
      }
      const int o = owner[nx];
      if (o >= 0) {
        next[j] = o;
        break;
      }
      owner[nx] = (int)j;
      v = nx;
      d++;
    }
    len[j] = d + 1;
  }
}

/* The last launch: a node at place d of sublist j is (the nodes from the
 * sublist's splitter to the tail) - 1 - d links from the tail. */
__global__ void k_hj_final(const int *__restrict__ owner, const int *__restrict__ tail_nodes,
                           int *__restrict__ rank, int64_t n)
{
  TB_FOR_EACH(i, n)
  rank[i] = tail_nodes[owner[i]] - 1 - rank[i];
}

enum { TB_LG_WYLLIE, TB_LG_HJ };

struct tb_listrank_gpu {
  int kind, grid, sgrid, steps, ssteps;
  int64_t s;
  int *buf[6]; /* wyllie: r1, nx0, nx1; hj: owner, spl, len/r, next/nx, r2, nx2 */
};

/* Wyllie's passes over m nodes: init into the buffer that makes the last
 * jump land in r0. Returns the launches' status. */
int tb_wyllie_launch(cudaStream_t stream, int block, int grid, int steps, const int *succ,
                     int *r0, int *r1, int *nx0, int *nx1, int64_t m)
{
  int *r[2] = {r0, r1}, *nx[2] = {nx0, nx1};
  int b = steps % 2;
  k_wyllie_init<<<grid, block, 0, stream>>>(succ, r[b], nx[b], m);
  TB_CUDA_LAUNCH("wyllie init");
  for (int k = 0; k < steps; k++, b ^= 1) {
    k_wyllie_jump<<<grid, block, 0, stream>>>(r[b], nx[b], r[b ^ 1], nx[b ^ 1], m);
    TB_CUDA_LAUNCH("wyllie jump");
  }
  return TB_OK;
}

/* Wyllie's weighted jumps over the sublists: r = len, nx = next to start
 * (no init launch: the walk wrote them). Returns which of the two rank
 * buffers holds the sums (0: buf[2], 1: buf[4]), or a failed launch's status. */
int tb_hj_rank_sublists(const tb_listrank_gpu *st, cudaStream_t stream, int block)
{
  int *r[2] = {st->buf[2], st->buf[4]}, *nx[2] = {st->buf[3], st->buf[5]};
  int b = 0;
  for (int k = 0; k < st->ssteps; k++, b ^= 1) {
    k_wyllie_jump<<<st->sgrid, block, 0, stream>>>(r[b], nx[b], r[b ^ 1], nx[b ^ 1], st->s);
    TB_CUDA_LAUNCH("sublist jump");
  }
  return b; /* the buffer holding the sums */
}

int tb_listrank_gpu_prepare(tb_ctx_t *ctx, int kind)
{
  const int64_t n = ctx->p->n;
  tb_listrank_gpu *st = (tb_listrank_gpu *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  st->kind = kind;
  int rc = tb_gpu_grid(ctx, k_wyllie_jump, n, 0, TB_GPU_WAVES, &st->grid);
  if (rc)
    return rc;
  if (kind == TB_LG_WYLLIE) {
    st->steps = tb_log2_ceil(n);
    for (int k = 0; k < 3; k++)
      TB_CUDA(cudaMalloc(&st->buf[k], (size_t)n * sizeof(int)));
    ctx->extra[TB_LISTRANK_LAUNCHES] = 1 + st->steps;
    return TB_OK;
  }
  if (((const tb_listrank_t *)ctx->p->priv)->shape == TB_SHAPE_TREE)
    return tb_fail(TB_EUNSUP, "Helman-JaJa ranks lists: a tree's sublists would overlap");
  const int64_t spacing = tb_tune(ctx, "spacing")->i;
  st->s = n / spacing > 0 ? n / spacing : 1;
  st->ssteps = tb_log2_ceil(st->s);
  const int block = tb_gpu_block(ctx);
  int64_t sg = (st->s + block - 1) / block;
  st->sgrid = (int)(sg < st->grid ? sg : st->grid);
  TB_CUDA(cudaMalloc(&st->buf[0], (size_t)n * sizeof(int)));
  for (int k = 1; k < 6; k++)
    TB_CUDA(cudaMalloc(&st->buf[k], (size_t)st->s * sizeof(int)));
  int *spl = (int *)malloc((size_t)st->s * sizeof(int));
  if (!spl)
    return tb_fail(TB_ENOMEM, "out of memory for the splitters");
  spl[0] = 0; /* the head, set by k_hj_mark */
  for (int64_t j = 1; j < st->s; j++)
    spl[j] = (int)tb_list_splitter(j, n, ctx->p->seed);
  cudaError_t e = tb_gpu_copy(ctx, st->buf[1], spl, (size_t)st->s * sizeof(int), cudaMemcpyHostToDevice);
  free(spl);
  TB_CUDA(e);
  ctx->extra[TB_LISTRANK_SPLITTERS] = (double)st->s;
  ctx->extra[TB_LISTRANK_LAUNCHES] = 4 + st->ssteps;
  return TB_OK;
}

int tb_listrank_gpu_run(tb_ctx_t *ctx)
{
  const tb_listrank_t *l = (const tb_listrank_t *)ctx->p->priv;
  const tb_listrank_gpu *st = (const tb_listrank_gpu *)ctx->state;
  cudaStream_t stream = tb_gpu_stream(ctx);
  const int *succ = (const int *)ctx->buf[l->succ], *head = (const int *)ctx->buf[l->head];
  int *rank = (int *)ctx->buf[l->rank];
  const int64_t n = ctx->p->n;
  const int block = tb_gpu_block(ctx);
  if (st->kind == TB_LG_WYLLIE)
    return tb_wyllie_launch(stream, block, st->grid, st->steps, succ, rank, st->buf[0],
                            st->buf[1], st->buf[2], n);
  int *owner = st->buf[0], *spl = st->buf[1];
  k_hj_clear<<<st->grid, block, 0, stream>>>(owner, n);
  TB_CUDA_LAUNCH("hj clear");
  k_hj_mark<<<st->sgrid, block, 0, stream>>>(spl, owner, head, st->s);
  TB_CUDA_LAUNCH("hj mark");
  k_hj_walk<<<st->sgrid, block, 0, stream>>>(succ, spl, owner, rank, st->buf[2], st->buf[3],
                                             st->s);
  TB_CUDA_LAUNCH("hj walk");
  int b = tb_hj_rank_sublists(st, stream, block);
  if (b < 0)
    return b;
  k_hj_final<<<st->grid, block, 0, stream>>>(owner, b ? st->buf[4] : st->buf[2], rank, n);
  TB_CUDA_LAUNCH("hj final");
  return TB_OK;
}

int tb_listrank_prepare_wyllie(tb_ctx_t *ctx)
{
  return tb_listrank_gpu_prepare(ctx, TB_LG_WYLLIE);
}

int tb_listrank_prepare_hj(tb_ctx_t *ctx)
{
  return tb_listrank_gpu_prepare(ctx, TB_LG_HJ);
}

void tb_listrank_gpu_release(tb_ctx_t *ctx)
{
  tb_listrank_gpu *st = (tb_listrank_gpu *)ctx->state;
  if (st)
    for (int k = 0; k < 6; k++)
      cudaFree(st->buf[k]);
  free(st);
  ctx->state = NULL;
}

const tb_param_def_t tb_listrank_tuning_hj[] = {
    TB_GPU_BLOCK("256"),
    TB_GPU_GRID(TB_GPU_GRID_WAVES),
    {"spacing", "nodes per random splitter on average: n / spacing sublists, one walking "
                "thread each", TB_PARAM_INT, "64", 2, 1 << 30, NULL, 0, "16,32,64,128,256,1024"},
};

TB_VARIANT(tb_listrank_gpu_wyllie, "wyllie", &tb_algo_listrank, TB_PREC_BIT(TB_INT32), 0,
           tb_gpu_gridstride_tuning, TB_COUNT(tb_gpu_gridstride_tuning),
           tb_listrank_prepare_wyllie, tb_listrank_gpu_run, NULL, tb_listrank_gpu_release,
           "Wyllie's pointer jumping: 1 + ceil(log2 n) launches, double buffers");
TB_VARIANT(tb_listrank_gpu_hj, "hj", &tb_algo_listrank, TB_PREC_BIT(TB_INT32), 0,
           tb_listrank_tuning_hj, TB_COUNT(tb_listrank_tuning_hj), tb_listrank_prepare_hj,
           tb_listrank_gpu_run, NULL, tb_listrank_gpu_release,
           "Helman-JaJa: random splitters, a thread a sublist, the sublists ranked by "
           "weighted pointer jumping");

} /* namespace */

TB_VARIANT_LIST(listrank, gpu, &tb_listrank_gpu_wyllie, &tb_listrank_gpu_hj);
