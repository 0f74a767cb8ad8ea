/* twinbench: list ranking's problem, reference, verifier and cost. */
#include <config.h>

#include <stdlib.h>

#include "../common/philox.h"
#include "scan.h"

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

/* The problem's private state: what variants see, and the list's order. */
typedef struct tb_listrank_priv {
  tb_listrank_t pub;
  int32_t *order; /* order[k]: the node at position k (the reference) */
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
  lp->pub.succ = tb_problem_add_array(p, "succ", TB_KIND_I32, TB_IN, p->n);
  lp->pub.head = tb_problem_add_array(p, "head", TB_KIND_I32, TB_IN, 1);
  lp->pub.rank = tb_problem_add_array(p, "rank", TB_KIND_I32, TB_OUT, p->n);
  /* The reference order, and the twins' scratch: up to three n-arrays of
   * int32 (Wyllie's second rank and two successor buffers; Helman-JaJa's
   * owners and its splitters' arrays). */
  p->extra_host_bytes = tb_count_mul(p, p->n, 16);
  p->extra_device_bytes = tb_count_mul(p, p->n, 16);
  return p->overflow ? TB_EINVAL : TB_OK;
}

/* The list visits the nodes in the order of a random permutation: node
 * order[k] is at position k, its successor order[k + 1], the tail's none. */
static int tb_listrank_generate(tb_problem_t *p)
{
  tb_listrank_priv_t *lp = p->priv;
  const int64_t n = p->n;
  int32_t *succ = p->array[lp->pub.succ].host;
  free(lp->order);
  lp->order = malloc((size_t)n * sizeof *lp->order);
  if (!lp->order)
    return tb_fail(TB_ENOMEM, "out of memory for the list's order (%lld nodes)", (long long)n);
  const int h = tb_list_half(n);
  const tb_philox4_t key = tb_philox_block(p->seed, 5, 0);
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < n; k++)
    lp->order[k] = (int32_t)tb_list_node(k, n, h, key.v);
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < n; k++)
    succ[lp->order[k]] = k + 1 < n ? lp->order[k + 1] : TB_LIST_END;
  *(int32_t *)p->array[lp->pub.head].host = lp->order[0];
  return TB_OK;
}

/* Exact: the node at position k is n - 1 - k links from the tail. The
 * error is the number of wrong ranks. */
static int tb_listrank_verify(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk)
{
  const tb_listrank_priv_t *lp = p->priv;
  const int32_t *rank = view[lp->pub.rank];
  const int64_t n = p->n;
  int64_t bad = 0, first = INT64_MAX;
  (void)extra;
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first)
  for (int64_t k = 0; k < n; k++)
    if (rank[lp->order[k]] != n - 1 - k) {
      bad++;
      if (k < first)
        first = k;
    }
  if (tb_check_against(chk, (double)bad, 0.0))
    return tb_check_fail(chk, "%lld wrong ranks; the first at list position %lld: node %ld has "
                         "rank %ld, expected %lld", (long long)bad, (long long)first,
                         (long)lp->order[first], (long)rank[lp->order[first]],
                         (long long)(n - 1 - first));
  return TB_OK;
}

/* A walk reads each successor once and writes each rank once, both at
 * random places: one 32-byte sector each (the memory's smallest transfer
 * on the GPU; the CPU moves 64-byte lines, so its rows understate its
 * traffic). No flops. */
static void tb_listrank_cost(const tb_problem_t *p, tb_cost_t *c)
{
  c->read = 32.0 * (double)p->n;
  c->written = 32.0 * (double)p->n;
  c->flops = 0.0;
}

static void tb_listrank_cleanup(tb_problem_t *p)
{
  tb_listrank_priv_t *lp = p->priv;
  if (lp)
    free(lp->order);
  tb_problem_free_priv(p);
}

const tb_algo_t tb_algo_listrank = {
    .name = "listrank",
    .summary = "list ranking of a random linked list: serial walk, Wyllie's pointer jumping, "
               "Helman-JaJa's splitters",
    .flags = 0,
    .precisions = TB_PREC_BIT(TB_INT32),
    .default_precisions = TB_PREC_BIT(TB_INT32),
    .default_sizes = "2^22",
    .size_meaning = "nodes of the list",
    .presets = tb_listrank_presets,
    .npresets = TB_COUNT(tb_listrank_presets),
    .params = NULL,
    .nparams = 0,
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
