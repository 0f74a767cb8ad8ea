/* twinbench: list ranking's problem, reference, verifier and cost. */
#include <config.h>

#include <stdlib.h>

#include "../common/philox.h"
#include "scan.h"

static const char *const tb_listrank_shapes[] = {"list", "tree", NULL};

static const tb_param_def_t tb_listrank_params[] = {
    {"shape", "list: a linked list in random order (rank = links to the tail); tree: a random "
              "recursive tree (each node's parent uniform among the nodes before it, in random "
              "labels; rank = depth, links to the root)", TB_PARAM_CHOICE, "list", 0, 0,
     tb_listrank_shapes, 0, "list,tree"},
};

static const tb_column_def_t tb_listrank_columns[] = {
    [TB_LISTRANK_LAUNCHES] = {"launches", "%.0f",
                              "GPU: kernel launches per ranking; CPU: parallel passes", 0},
    [TB_LISTRANK_SPLITTERS] = {"splitters", "%.0f",
                               "Helman-JaJa: the sublists (random splitters and the head)", 0},
};

static const tb_preset_t tb_listrank_presets[] = {
    {"list16m", (int64_t)1 << 24, "the study's small list: 2^24 nodes (64 MiB of successors)"},
    {"list134m", (int64_t)1 << 27, "the study's large list: 2^27 nodes (512 MiB of successors)"},
};

/* The problem's private state: what variants see, and the reference. */
typedef struct tb_listrank_priv {
  tb_listrank_t pub;
  int32_t *expect; /* expect[i]: node i's rank */
} tb_listrank_priv_t;

/* Murmur3's 32-bit finaliser: the Feistel rounds' mixing of a half. */
static inline uint32_t tb_mix32(uint32_t h)
{
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/* A 4-round Feistel network on 2h bits (h >= 1), its round keys one Philox
 * block of the seed: a bijection of 0 .. 4^h - 1. */
static uint64_t tb_feistel(uint64_t v, int h, const uint32_t key[4])
{
  const uint64_t mask = ((uint64_t)1 << h) - 1;
  uint64_t l = v >> h, r = v & mask;
  for (int k = 0; k < 4; k++) {
    uint64_t t = l ^ (tb_mix32((uint32_t)r ^ key[k] ^ (uint32_t)(r >> 32)) & mask);
    l = r;
    r = t;
  }
  return (l << h) | r;
}

/* The Feistel network's half width h for n nodes: the least with 4^h >= n. */
static int tb_list_half(int64_t n)
{
  int h = 1;
  while (((int64_t)1 << (2 * h)) < n)
    h++;
  return h;
}

/* The node at position k of the list: cycle walking applies the bijection
 * of 0 .. 4^h - 1 until the value falls in 0 .. n-1, which makes a
 * bijection of 0 .. n-1 (4^h < 4n: fewer than four steps on average). */
static int64_t tb_list_node(int64_t k, int64_t n, int h, const uint32_t key[4])
{
  uint64_t v = (uint64_t)k;
  do
    v = tb_feistel(v, h, key);
  while (v >= (uint64_t)n);
  return (int64_t)v;
}

int64_t tb_list_splitter(int64_t j, int64_t n, uint64_t seed)
{
  const tb_philox4_t r = tb_philox_block(seed, 6, (uint64_t)j);
  return (int64_t)((((uint64_t)r.v[0] << 32 | r.v[1]) >> 1) % (uint64_t)n);
}

static int tb_listrank_setup(tb_problem_t *p)
{
  if (p->n < 1)
    return tb_fail(TB_EINVAL, "listrank needs at least one node (size %lld)", (long long)p->n);
  if (p->n > INT32_MAX)
    return tb_fail(TB_EINVAL, "listrank: size %lld is above %ld, the most nodes int32 links "
                   "can name", (long long)p->n, (long)INT32_MAX);
  tb_listrank_priv_t *lp = calloc(1, sizeof *lp);
  if (!lp)
    return tb_fail(TB_ENOMEM, "out of memory");
  p->priv = lp;
  lp->pub.shape = (int)p->param[0].i;
  lp->pub.succ = tb_problem_add_array(p, "succ", TB_KIND_I32, TB_IN, p->n);
  lp->pub.head = tb_problem_add_array(p, "head", TB_KIND_I32, TB_IN, 1);
  lp->pub.rank = tb_problem_add_array(p, "rank", TB_KIND_I32, TB_OUT, p->n);
  /* The reference ranks, and the generator's order or the twins' scratch:
   * up to three n-arrays of int32 (Wyllie's second rank and two successor
   * buffers; Helman-JaJa's owners and its splitters' arrays; the tree
   * walk's stack). */
  p->extra_host_bytes = tb_count_mul(p, p->n, 16);
  p->extra_device_bytes = tb_count_mul(p, p->n, 16);
  return p->overflow ? TB_EINVAL : TB_OK;
}

/* The nodes visit positions 0..n-1 in the order of a random permutation:
 * node order[k] at position k. A list links order[k] to order[k + 1] (the
 * tail to none), so order[k]'s rank is n - 1 - k. A tree gives order[k]
 * (k >= 1) the parent order[r_k], r_k uniform on 0..k-1 (Philox), and
 * order[0] none (the root, in head): a random recursive tree, depth about
 * ln n; order[k]'s depth is its parent's plus one, found in position order
 * (a parent's position is smaller). */
static int tb_listrank_generate(tb_problem_t *p)
{
  tb_listrank_priv_t *lp = p->priv;
  const int64_t n = p->n;
  int32_t *succ = p->array[lp->pub.succ].host;
  free(lp->expect);
  lp->expect = malloc((size_t)n * sizeof *lp->expect);
  int32_t *order = malloc((size_t)n * sizeof *order), *depth = NULL;
  if (lp->pub.shape == TB_SHAPE_TREE)
    depth = malloc((size_t)n * sizeof *depth);
  if (!lp->expect || !order || (lp->pub.shape == TB_SHAPE_TREE && !depth)) {
    free(order);
    free(depth);
    return tb_fail(TB_ENOMEM, "out of memory for the list's order (%lld nodes)", (long long)n);
  }
  const int h = tb_list_half(n);
  const tb_philox4_t key = tb_philox_block(p->seed, 5, 0);
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < n; k++)
    order[k] = (int32_t)tb_list_node(k, n, h, key.v);
  if (lp->pub.shape == TB_SHAPE_LIST) {
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < n; k++) {
      succ[order[k]] = k + 1 < n ? order[k + 1] : TB_LIST_END;
      lp->expect[order[k]] = (int32_t)(n - 1 - k);
    }
  } else {
    depth[0] = 0;
    succ[order[0]] = TB_LIST_END;
    for (int64_t k = 1; k < n; k++) {
      const tb_philox4_t r = tb_philox_block(p->seed, 7, (uint64_t)k);
      const int64_t up = (int64_t)((((uint64_t)r.v[0] << 32) | r.v[1]) % (uint64_t)k);
      succ[order[k]] = order[up];
      depth[k] = depth[up] + 1;
    }
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < n; k++)
      lp->expect[order[k]] = depth[k];
  }
  *(int32_t *)p->array[lp->pub.head].host = order[0];
  free(order);
  free(depth);
  return TB_OK;
}

/* Exact: every node's rank is the reference's. The error is the number of
 * wrong ranks. */
static int tb_listrank_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  const tb_listrank_priv_t *lp = p->priv;
  const int32_t *rank = view[lp->pub.rank];
  const int64_t n = p->n;
  int64_t bad = 0, first = INT64_MAX;
  (void)extra;
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first)
  for (int64_t i = 0; i < n; i++)
    if (rank[i] != lp->expect[i]) {
      bad++;
      if (i < first)
        first = i;
    }
  if (tb_check_against(chk, (double)bad, 0.0))
    return tb_check_fail(chk, "%lld wrong ranks; the first: node %lld has rank %ld, expected %ld",
                         (long long)bad, (long long)first, (long)rank[first],
                         (long)lp->expect[first]);
  return TB_OK;
}

/* A walk reads each successor once and writes each rank once, both at
 * random places: one 32-byte sector each (the memory's smallest transfer
 * on the GPU; the CPU moves 64-byte lines, so its rows understate its
 * traffic). No flops. Random accesses: the row is held against the
 * backend's gather ceiling, measured at 32 bytes a random read too, so its
 * roofline is the fraction of that backend's random-read rate it reaches
 * (two random accesses a node: a ranking whose every access, read or
 * write, went at the gather's rate would score 1). */
static void tb_listrank_cost(const tb_problem_t *p, tb_cost_t *c)
{
  c->read = 32.0 * (double)p->n;
  c->written = 32.0 * (double)p->n;
  c->flops = 0.0;
  c->random = 1;
}

static void tb_listrank_cleanup(tb_problem_t *p)
{
  tb_listrank_priv_t *lp = p->priv;
  if (lp)
    free(lp->expect);
  tb_problem_free_priv(p);
}

const tb_algo_t tb_algo_listrank = {
    .name = "listrank",
    .summary = "list ranking of a random linked list (serial walk, Wyllie's pointer jumping, "
               "Helman-JaJa's splitters) and node depths of a random tree",
    .flags = 0,
    .precisions = TB_PREC_BIT(TB_INT32),
    .default_precisions = TB_PREC_BIT(TB_INT32),
    .default_sizes = "2^22",
    .size_meaning = "nodes of the list",
    .presets = tb_listrank_presets,
    .npresets = TB_COUNT(tb_listrank_presets),
    .params = tb_listrank_params,
    .nparams = TB_COUNT(tb_listrank_params),
    .columns = tb_listrank_columns,
    .ncolumns = TB_COUNT(tb_listrank_columns),
    .error_meaning = "the number of wrong ranks (bound 0)",
    .setup = tb_listrank_setup,
    .generate = tb_listrank_generate,
    .verify = tb_listrank_verify,
    .cost = tb_listrank_cost,
    .dump = NULL,
    .cleanup = tb_listrank_cleanup,
};
