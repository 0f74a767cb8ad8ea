/* twinbench: list ranking's OpenMP twins.
 *
 * walk    the serial walk from the head: one dependent random access a node;
 *         for a tree, from each node up to the first node of known depth
 *         (a stack of the nodes passed), which gives them theirs;
 * wyllie  Wyllie's pointer jumping: every node's rank and successor
 *         replaced by rank + rank(successor) and successor(successor),
 *         ceil(log2 n) parallel passes between double buffers: O(n log n)
 *         work, every access a random gather;
 * hj      Helman and JaJa's sublists: random splitters (and the head) cut the
 *         list into about n / spacing sublists; the threads walk them (eight
 *         at a time each, interleaved, so that eight misses are in flight),
 *         recording each node's sublist and its place in it; one thread
 *         chains the sublists' lengths from the head; a last pass turns
 *         places into ranks. O(n) work. Lists only: a tree's paths to the
 *         root share nodes, so its sublists would overlap. */
#include <config.h>

#include <omp.h>
#include <stdlib.h>

#include "../common/refmath.h"
#include "../families/scan.h"
#include "cpu.h"

/* The sublists each Helman-JaJa walker interleaves. */
enum { TB_HJ_WAYS = 8 };

typedef struct tb_listrank_cpu {
  int64_t s;                    /* hj: splitters */
  int32_t *owner, *spl, *len, *next, *off; /* hj */
  int32_t *r1, *n0, *n1;        /* wyllie: the second rank buffer, the successor buffers */
  int32_t *stack;               /* walk, tree: the nodes passed */
} tb_listrank_cpu_t;

enum { TB_LV_WALK, TB_LV_WYLLIE, TB_LV_HJ };

static const tb_param_def_t tb_listrank_cpu_tuning[] = {
    {"spacing", "nodes per random splitter on average (hj): n / spacing sublists",
     TB_PARAM_INT, "1024", 2, 1 << 30, NULL, 0, "64,256,1024,4096,16384"},
};

static void tb_walk(const int32_t *succ, int32_t head, int32_t *rank, int64_t n)
{
  int32_t v = head;
  for (int64_t k = n - 1; k >= 0; k--) {
    rank[v] = (int32_t)k;
    v = succ[v];
  }
}

/* A tree's depths, serially: every rank unknown (-1), then from each node
 * of unknown depth up to the root or a node of known depth, the nodes
 * passed stacked and given their depths on the way back. */
static void tb_walk_tree(const int32_t *succ, int32_t *rank, int32_t *stack, int64_t n)
{
  for (int64_t i = 0; i < n; i++)
    rank[i] = -1;
  for (int64_t i = 0; i < n; i++) {
    int64_t top = 0;
    int32_t v = (int32_t)i;
    while (v != TB_LIST_END && rank[v] < 0) {
      stack[top++] = v;
      v = succ[v];
    }
    int32_t d = v == TB_LIST_END ? -1 : rank[v];
    while (top > 0)
      rank[stack[--top]] = ++d;
  }
}

static void tb_wyllie(const int32_t *succ, int32_t *rank, tb_listrank_cpu_t *st, int64_t n,
                      int threads)
{
  const int steps = tb_log2_ceil(n);
  int32_t *r[2] = {rank, st->r1}, *nx[2] = {st->n0, st->n1};
  int b = steps % 2; /* so that the last pass writes rank */
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < n; i++) {
    r[b][i] = succ[i] == TB_LIST_END ? 0 : 1;
    nx[b][i] = succ[i];
  }
  for (int k = 0; k < steps; k++, b ^= 1) {
    const int32_t *rs = r[b], *ns = nx[b];
    int32_t *rd = r[b ^ 1], *nd = nx[b ^ 1];
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < n; i++) {
      const int32_t j = ns[i];
      rd[i] = j == TB_LIST_END ? rs[i] : rs[i] + rs[j];
      nd[i] = j == TB_LIST_END ? TB_LIST_END : ns[j];
    }
  }
}

/* Walk the live sublists among splitters [g, g + ways) together: each
 * node gets its place in its sublist (in rank) and its sublist (in owner);
 * each sublist its length and the sublist after it (or TB_LIST_END). */
static void tb_hj_walk(const int32_t *succ, int32_t *rank, tb_listrank_cpu_t *st, int64_t g)
{
  int32_t node[TB_HJ_WAYS], id[TB_HJ_WAYS], d[TB_HJ_WAYS];
  int act = 0;
  for (int64_t j = g; j < g + TB_HJ_WAYS && j < st->s; j++) {
    if (st->owner[st->spl[j]] != j) { /* a repeated splitter: another id walks it */
      st->len[j] = 0;
      continue;
    }
    node[act] = st->spl[j];
    id[act] = (int32_t)j;
    d[act++] = 0;
  }
  while (act > 0)
    for (int w = 0; w < act;) {
      const int32_t v = node[w], nx = succ[v];
      rank[v] = d[w];
      if (nx == TB_LIST_END || st->owner[nx] >= 0) { /* the tail, or the next splitter */
        st->len[id[w]] = d[w] + 1;
        st->next[id[w]] = nx == TB_LIST_END ? TB_LIST_END : st->owner[nx];
        act--;
        node[w] = node[act];
        id[w] = id[act];
        d[w] = d[act];
        continue;
      }
      st->owner[nx] = id[w];
      node[w] = nx;
      d[w]++;
      w++;
    }
}

static void tb_hj(const int32_t *succ, int32_t head, int32_t *rank, tb_listrank_cpu_t *st,
                  int64_t n, int threads)
{
  const int64_t s = st->s;
  st->spl[0] = head;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < n; i++)
    st->owner[i] = -1;
  /* In order, so that a node drawn twice belongs to its last splitter. */
  for (int64_t j = 0; j < s; j++)
    st->owner[st->spl[j]] = (int32_t)j;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t g = 0; g < s; g += TB_HJ_WAYS)
    tb_hj_walk(succ, rank, st, g);
  /* The sublists' offsets from the head, along their chain. */
  int32_t o = 0;
  for (int32_t c = st->owner[head]; c != TB_LIST_END; c = st->next[c]) {
    st->off[c] = o;
    o += st->len[c];
  }
  const int32_t last = (int32_t)(n - 1);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < n; i++)
    rank[i] = last - (st->off[st->owner[i]] + rank[i]);
}

static int tb_listrank_cpu_prepare(tb_ctx_t *ctx, int kind)
{
  const int64_t n = ctx->p->n;
  const int threads = tb_cpu_threads(ctx);
  tb_listrank_cpu_t *st = calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  const tb_listrank_t *l = ctx->p->priv;
  if (kind == TB_LV_WALK) {
    ctx->extra[TB_LISTRANK_LAUNCHES] = 1;
    if (l->shape == TB_SHAPE_TREE && !(st->stack = malloc((size_t)n * sizeof(int32_t))))
      return tb_fail(TB_ENOMEM, "out of memory for the walk's stack");
    return TB_OK;
  }
  if (kind == TB_LV_WYLLIE) {
    st->r1 = malloc((size_t)n * sizeof(int32_t));
    st->n0 = malloc((size_t)n * sizeof(int32_t));
    st->n1 = malloc((size_t)n * sizeof(int32_t));
    if (!st->r1 || !st->n0 || !st->n1)
      return tb_fail(TB_ENOMEM, "out of memory for Wyllie's buffers");
    /* First touch in the passes' static split. */
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < n; i++)
      st->r1[i] = st->n0[i] = st->n1[i] = 0;
    ctx->extra[TB_LISTRANK_LAUNCHES] = 1 + tb_log2_ceil(n);
    return TB_OK;
  }
  if (l->shape == TB_SHAPE_TREE)
    return tb_fail(TB_EUNSUP, "Helman-JaJa ranks lists: a tree's sublists would overlap");
  const int64_t spacing = tb_tune(ctx, "spacing")->i;
  st->s = n / spacing > 0 ? n / spacing : 1;
  st->owner = malloc((size_t)n * sizeof(int32_t));
  st->spl = malloc((size_t)st->s * sizeof(int32_t));
  st->len = malloc((size_t)st->s * sizeof(int32_t));
  st->next = malloc((size_t)st->s * sizeof(int32_t));
  st->off = malloc((size_t)st->s * sizeof(int32_t));
  if (!st->owner || !st->spl || !st->len || !st->next || !st->off)
    return tb_fail(TB_ENOMEM, "out of memory for the sublists");
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < n; i++)
    st->owner[i] = 0;
  for (int64_t j = 1; j < st->s; j++)
    st->spl[j] = (int32_t)tb_list_splitter(j, n, ctx->p->seed);
  ctx->extra[TB_LISTRANK_SPLITTERS] = (double)st->s;
  ctx->extra[TB_LISTRANK_LAUNCHES] = 3;
  return TB_OK;
}

static int tb_listrank_cpu_run(tb_ctx_t *ctx, int kind)
{
  const tb_listrank_t *l = ctx->p->priv;
  const int32_t *succ = ctx->buf[l->succ], head = *(const int32_t *)ctx->buf[l->head];
  int32_t *rank = ctx->buf[l->rank];
  const int threads = tb_cpu_threads(ctx);
  switch (kind) {
  case TB_LV_WALK:
    if (l->shape == TB_SHAPE_TREE)
      tb_walk_tree(succ, rank, ((tb_listrank_cpu_t *)ctx->state)->stack, ctx->p->n);
    else
      tb_walk(succ, head, rank, ctx->p->n);
    break;
  case TB_LV_WYLLIE: tb_wyllie(succ, rank, ctx->state, ctx->p->n, threads); break;
  default: tb_hj(succ, head, rank, ctx->state, ctx->p->n, threads);
  }
  return TB_OK;
}

static void tb_listrank_cpu_release(tb_ctx_t *ctx)
{
  tb_listrank_cpu_t *st = ctx->state;
  if (st) {
    free(st->owner);
    free(st->spl);
    free(st->len);
    free(st->next);
    free(st->off);
    free(st->r1);
    free(st->n0);
    free(st->n1);
    free(st->stack);
  }
  free(st);
  ctx->state = NULL;
}

#define TB_LISTRANK_CPU_VARIANT(NAME, KIND, FLAGS, TUNING, NTUNING, SUMMARY)                     \
  static int tb_listrank_prepare_##NAME(tb_ctx_t *ctx)                                           \
  {                                                                                              \
    return tb_listrank_cpu_prepare(ctx, KIND);                                                   \
  }                                                                                              \
  static int tb_listrank_run_##NAME(tb_ctx_t *ctx)                                               \
  {                                                                                              \
    return tb_listrank_cpu_run(ctx, KIND);                                                       \
  }                                                                                              \
  TB_VARIANT(tb_listrank_cpu_##NAME, #NAME, &tb_algo_listrank, TB_PREC_BIT(TB_INT32), FLAGS,     \
             TUNING, NTUNING, tb_listrank_prepare_##NAME, tb_listrank_run_##NAME, NULL,          \
             tb_listrank_cpu_release, SUMMARY);

TB_LISTRANK_CPU_VARIANT(walk, TB_LV_WALK, TB_V_SERIAL, NULL, 0,
                        "the serial walk from the head (a tree: up from each node to a known depth)")
TB_LISTRANK_CPU_VARIANT(wyllie, TB_LV_WYLLIE, 0, NULL, 0,
                        "Wyllie's pointer jumping: ceil(log2 n) passes of random gathers")
TB_LISTRANK_CPU_VARIANT(hj, TB_LV_HJ, 0, tb_listrank_cpu_tuning, TB_COUNT(tb_listrank_cpu_tuning),
                        "Helman-JaJa: random splitters, sublists walked 8 at a time a thread, "
                        "their chain ranked serially")

TB_VARIANT_LIST(listrank, cpu, &tb_listrank_cpu_walk, &tb_listrank_cpu_wyllie, &tb_listrank_cpu_hj);
