/* twinbench: Brownian bridge construction orders and the initialisation that
 * turns an order into a least-stack execution plan.
 *
 * The points of an order form a binary tree: a point's parent is the later
 * built of its two neighbours, its left child the first point built between
 * its left neighbour and itself, its right child the first built between
 * itself and its right neighbour. Both neighbours of a point are ancestors
 * of it, so an order is equivalent to the user's (every point after both
 * neighbours, keeping its normal) exactly when it lists each point after its
 * parent. A point must stay on the stack while a later step still reads it:
 * its left subtree's rightmost spine reads it as the right neighbour, its
 * right subtree's leftmost spine as the left one.
 *
 * The least stack over depth-first orders comes from a dynamic programme on
 * the tree (g below): for each point, whether its left or its right subtree
 * goes first, given which of its neighbours are still needed after its
 * subtree. A step reads its neighbours before it stores its point, so the
 * point may take the slot of a neighbour read for the last time. The test
 * suite checks on small trees that no order at all (depth-first or not)
 * needs fewer slots. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "../common/philox.h"
#include "../common/timer.h"

int tb_bridge_order_bisection(int n, int *order)
{
  /* Breadth first over intervals (l, r): each interval of two or more steps
   * contributes its midpoint and splits there, so 2n - 1 intervals pass
   * through the queue. */
  int(*queue)[2] = malloc((size_t)(2 * n) * sizeof *queue);
  int head = 0, tail = 0, k = 0;
  if (!queue)
    return tb_fail(TB_ENOMEM, "out of memory");
  order[k++] = n;
  queue[tail][0] = 0;
  queue[tail++][1] = n;
  while (head < tail) {
    int l = queue[head][0], r = queue[head++][1];
    if (r - l < 2)
      continue;
    int m = l + (r - l) / 2;
    order[k++] = m;
    queue[tail][0] = l;
    queue[tail++][1] = m;
    queue[tail][0] = m;
    queue[tail++][1] = r;
  }
  free(queue);
  return TB_OK;
}

void tb_bridge_order_sequential(int n, int *order)
{
  order[0] = n;
  for (int i = 1; i < n; i++)
    order[i] = i;
}

void tb_bridge_order_random(int n, uint64_t seed, int *order)
{
  tb_bridge_order_sequential(n, order);
  /* Fisher-Yates over positions 1..n-1, one Philox block per swap. */
  for (int i = n - 1; i > 1; i--) {
    tb_philox4_t w = tb_philox_block(seed, 0x62726467u /* "brdg" */, (uint64_t)i);
    int j = 1 + (int)(((uint64_t)w.v[0] * (uint64_t)i) >> 32);
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

/* Where entry i of an order came from, for messages: "FILE:LINE" or "position i". */
static const char *tb_where(const char *src, const int *line, int i, char *buf, size_t len)
{
  if (line)
    snprintf(buf, len, "%s:%d", src, line[i]);
  else
    snprintf(buf, len, "%s: position %d", src, i + 1);
  return buf;
}

int tb_bridge_neighbours(int n, const int *order, const char *src, const int *line, int *left,
                         int *right)
{
  int *seen = calloc((size_t)n + 1, sizeof *seen); /* 1 + the position of each index */
  int *prev = malloc((size_t)(n + 1) * sizeof *prev), *next = malloc((size_t)(n + 1) * sizeof *next);
  char where[300];
  int rc = TB_OK;
  if (!seen || !prev || !next) {
    rc = tb_fail(TB_ENOMEM, "out of memory");
    goto out;
  }
  for (int i = 0; i < n && !rc; i++) {
    int s = order[i];
    if (s < 1 || s > n)
      rc = tb_fail(TB_EINVAL, "%s: %d is not a time index in 1..%d",
                   tb_where(src, line, i, where, sizeof where), s, n);
    else if (seen[s])
      rc = tb_fail(TB_EINVAL, "%s: index %d appears twice (first at %s %d)",
                   tb_where(src, line, i, where, sizeof where), s, line ? "line" : "position",
                   line ? line[seen[s] - 1] : seen[s]);
    else if (i == 0 && s != n)
      rc = tb_fail(TB_EINVAL, "%s: the order starts with %d, not %d (T is built first)",
                   tb_where(src, line, i, where, sizeof where), s, n);
    else
      seen[s] = i + 1;
  }
  if (rc)
    goto out;
  /* Remove the points from the full list in reverse order: when a point
   * goes, the points beside it are exactly those built before it. */
  for (int s = 0; s <= n; s++) {
    prev[s] = s - 1;
    next[s] = s < n ? s + 1 : -1;
  }
  for (int i = n - 1; i >= 0; i--) {
    int s = order[i];
    left[i] = prev[s];
    right[i] = next[s];
    next[prev[s]] = next[s];
    if (next[s] >= 0)
      prev[next[s]] = prev[s];
  }
out:
  free(seen);
  free(prev);
  free(next);
  return rc;
}

void tb_bridge_plan_free(tb_bridge_plan_t *plan)
{
  free(plan->step);
  free(plan->w);
  memset(plan, 0, sizeof *plan);
}

/* The weights of the step that builds point s from l and r (r < 0: none). */
static void tb_bridge_weights(const tb_bridge_t *b, int s, int l, int r, double *w)
{
  const double *t = b->t;
  double c = b->dim == 1 ? b->chol[0] : 1.0;
  memset(w, 0, TB_BRIDGE_NW * sizeof *w);
  if (r < 0) {
    w[TB_BRIDGE_WL] = 1.0;
    w[TB_BRIDGE_SIG] = c * sqrt(t[s] - t[l]);
  } else {
    double span = t[r] - t[l];
    w[TB_BRIDGE_WL] = (t[r] - t[s]) / span;
    w[TB_BRIDGE_WR] = (t[s] - t[l]) / span;
    w[TB_BRIDGE_SIG] = c * sqrt((t[r] - t[s]) * (t[s] - t[l]) / span);
  }
  if (l == s - 1)
    w[TB_BRIDGE_IL] = tb_bridge_inv_dt(b, s);
  if (r == s + 1)
    w[TB_BRIDGE_IR] = tb_bridge_inv_dt(b, r);
}

/* Where a neighbour x of a step is found, given the previous step's points. */
static unsigned tb_bridge_source(int x, int pl, int pr, int ps)
{
  if (x < 0)
    return TB_BRIDGE_FROM_STACK;
  return x == ps ? TB_BRIDGE_FROM_S : x == pl ? TB_BRIDGE_FROM_L : x == pr ? TB_BRIDGE_FROM_R
                                                                        : TB_BRIDGE_FROM_STACK;
}

int tb_bridge_plan_from(const tb_bridge_t *b, const int *exec, tb_bridge_plan_t *plan)
{
  const int n = b->steps;
  int *pos = malloc((size_t)(n + 1) * sizeof *pos);     /* time index -> user position */
  int *last = malloc((size_t)(n + 1) * sizeof *last);   /* the last step that reads a point */
  int *slot = malloc((size_t)(n + 1) * sizeof *slot);   /* a point's stack slot */
  int *done = calloc((size_t)n + 1, sizeof *done);      /* built yet (t0 counts as built) */
  char *busy = calloc((size_t)n + TB_BRIDGE_SLOT0 + 1, 1); /* slots in use */
  char *fromstack = calloc((size_t)n + 1, 1); /* some step reads the point from the stack */
  int rc = TB_OK, live = 0, peak = 0;

  memset(plan, 0, sizeof *plan);
  plan->step = calloc((size_t)n, sizeof *plan->step);
  plan->w = malloc((size_t)n * TB_BRIDGE_NW * sizeof *plan->w);
  if (!pos || !last || !slot || !done || !busy || !fromstack || !plan->step || !plan->w) {
    rc = tb_fail(TB_ENOMEM, "out of memory");
    goto out;
  }
  for (int i = 0; i < n; i++)
    pos[b->order[i]] = i;
  done[0] = 1;
  for (int s = 0; s <= n; s++)
    last[s] = -1;
  for (int k = 0; k < n; k++) {
    int s = exec[k];
    if (s < 1 || s > n || done[s]) {
      rc = tb_fail(TB_EINVAL, "execution order: step %d builds %d, not a new point in 1..%d", k,
                   s, n);
      goto out;
    }
    int l = b->left[pos[s]], r = b->right[pos[s]];
    if (!done[l] || (r >= 0 && !done[r])) {
      rc = tb_fail(TB_EINVAL, "execution order: step %d builds %d before its neighbour %d", k, s,
                   done[l] ? r : l);
      goto out;
    }
    done[s] = 1;
    last[l] = k;
    if (r >= 0)
      last[r] = k;
  }

  /* Slots: read the neighbours, free those read for the last time, then
   * take the lowest free slot for the new point if a later step reads it. */
  int pl = -1, pr = -1, ps = -1;
  slot[0] = TB_BRIDGE_SLOT_X0;
  for (int k = 0; k < n; k++) {
    int s = exec[k], l = b->left[pos[s]], r = b->right[pos[s]];
    tb_bridge_step_t *st = &plan->step[k];
    st->out = (uint16_t)s;
    st->z = (uint16_t)pos[s];
    st->l = (uint16_t)slot[l];
    st->r = (uint16_t)(r >= 0 ? slot[r] : TB_BRIDGE_SLOT_X0);
    for (int j = 0; j < 2; j++) {
      int x = j ? r : l;
      if (x >= 1 && last[x] == k) {
        busy[slot[x]] = 0;
        live--;
      }
    }
    slot[s] = TB_BRIDGE_SLOT_SINK;
    if (last[s] >= 0) {
      int q = TB_BRIDGE_SLOT0;
      while (busy[q])
        q++;
      busy[q] = 1;
      slot[s] = q;
      if (++live > peak)
        peak = live;
    }
    st->s = (uint16_t)slot[s];
    tb_bridge_weights(b, s, l, r, &plan->w[(size_t)k * TB_BRIDGE_NW]);
    unsigned sl = k ? tb_bridge_source(l, pl, pr, ps) : TB_BRIDGE_FROM_STACK;
    unsigned sr = k ? tb_bridge_source(r, pl, pr, ps) : TB_BRIDGE_FROM_STACK;
    if (sl == TB_BRIDGE_FROM_STACK && l >= 1)
      fromstack[l] = 1;
    if (sr == TB_BRIDGE_FROM_STACK && r >= 1)
      fromstack[r] = 1;
    st->flags = (uint16_t)((sl << TB_BRIDGE_SRC_L) | (sr << TB_BRIDGE_SRC_R) |
                           (l == s - 1 ? TB_BRIDGE_INC_L : 0u) |
                           (r == s + 1 ? TB_BRIDGE_INC_R : 0u));
    pl = l;
    pr = r;
    ps = s;
  }
  for (int k = 0; k < n; k++)
    if (fromstack[exec[k]])
      plan->step[k].flags |= TB_BRIDGE_STORE;
  plan->nsteps = n;
  plan->stack = peak;
  plan->slots = peak + TB_BRIDGE_SLOT0;
out:
  free(pos);
  free(last);
  free(slot);
  free(done);
  free(busy);
  free(fromstack);
  if (rc)
    tb_bridge_plan_free(plan);
  return rc;
}

/* The dynamic programme's table for one point: the peak number of live
 * points among its two neighbours and its subtree while the subtree is built
 * depth first, for each (left neighbour needed afterwards, right neighbour
 * needed afterwards), and which child goes first to reach it. */
typedef struct tb_bridge_node {
  int l, r;     /* neighbours (0: t0, -1: none) */
  int kid[2];   /* left and right child, or -1 */
  int g[2][2];  /* g[lo][ro] */
  char first[2][2]; /* 0: left child first, 1: right child first */
} tb_bridge_node_t;

static int tb_imax(int a, int b)
{
  return a > b ? a : b;
}

/* Fill node s's table from its children's (already filled). */
static void tb_bridge_node_solve(tb_bridge_node_t *nd, int s)
{
  tb_bridge_node_t *x = &nd[s];
  const int a = x->kid[0], b = x->kid[1], A = a >= 0, B = b >= 0;
  const int rl = x->l >= 1, rr = x->r >= 1;
  for (int lo = 0; lo < 2; lo++)
    for (int ro = 0; ro < 2; ro++) {
      int before = rl + rr;
      int after = (rl && (A || lo)) + (rr && (B || ro)) + (A || B);
      int step = tb_imax(before, after);
      /* Left subtree first: it reads l and s, while r waits for the right
       * subtree or the outside; then the right subtree reads s and r. */
      int left_first = tb_imax(A ? nd[a].g[lo][B] + (rr && (B || ro)) : 0,
                               B ? nd[b].g[0][ro] + (rl && lo) : 0);
      int right_first = tb_imax(B ? nd[b].g[A][ro] + (rl && (A || lo)) : 0,
                                A ? nd[a].g[lo][0] + (rr && ro) : 0);
      x->first[lo][ro] = (char)(right_first < left_first);
      x->g[lo][ro] = tb_imax(step, right_first < left_first ? right_first : left_first);
    }
}

int tb_bridge_plan_build(const tb_bridge_t *b, tb_bridge_plan_t *plan)
{
  const int n = b->steps;
  tb_bridge_node_t *nd = malloc((size_t)(n + 1) * sizeof *nd);
  int *pos = malloc((size_t)(n + 1) * sizeof *pos);
  int *exec = malloc((size_t)n * sizeof *exec);
  int(*task)[3] = malloc((size_t)(n + 1) * sizeof *task);
  int rc = TB_OK;
  if (!nd || !pos || !exec || !task) {
    rc = tb_fail(TB_ENOMEM, "out of memory");
    goto out;
  }
  pos[0] = -1;
  for (int i = 0; i < n; i++)
    pos[b->order[i]] = i;
  for (int s = 1; s <= n; s++)
    nd[s].kid[0] = nd[s].kid[1] = -1;
  for (int i = 0; i < n; i++) {
    int s = b->order[i], l = b->left[i], r = b->right[i];
    nd[s].l = l;
    nd[s].r = r;
    if (i == 0)
      continue;
    int parent = (r >= 0 && pos[r] > pos[l]) ? r : l;
    nd[parent].kid[parent == r ? 0 : 1] = s;
  }
  /* Children are built after their parents: solve in reverse order. */
  for (int i = n - 1; i >= 0; i--)
    tb_bridge_node_solve(nd, b->order[i]);

  /* Depth first from T, each subtree in its best child order. */
  int ntask = 0, k = 0;
  task[ntask][0] = n;
  task[ntask][1] = task[ntask][2] = 0;
  ntask++;
  while (ntask > 0) {
    ntask--;
    int s = task[ntask][0], lo = task[ntask][1], ro = task[ntask][2];
    const tb_bridge_node_t *x = &nd[s];
    int A = x->kid[0] >= 0, B = x->kid[1] >= 0, second, first;
    int flags[2][2]; /* [child][lo, ro] */
    exec[k++] = s;
    if (!x->first[lo][ro]) {
      first = 0;
      flags[0][0] = lo, flags[0][1] = B;
      flags[1][0] = 0, flags[1][1] = ro;
    } else {
      first = 1;
      flags[1][0] = A, flags[1][1] = ro;
      flags[0][0] = lo, flags[0][1] = 0;
    }
    second = 1 - first;
    for (int c = 0; c < 2; c++) {
      int kid = c ? first : second; /* push the second first so the first pops first */
      if (x->kid[kid] < 0)
        continue;
      task[ntask][0] = x->kid[kid];
      task[ntask][1] = flags[kid][0];
      task[ntask][2] = flags[kid][1];
      ntask++;
    }
  }
  if ((rc = tb_bridge_plan_from(b, exec, plan)))
    goto out;
  if (plan->stack != nd[n].g[0][0])
    rc = tb_fail(TB_EINVAL, "internal error: the plan needs %d stack slots, the tree %d",
                 plan->stack, nd[n].g[0][0]);
out:
  if (rc && plan->step)
    tb_bridge_plan_free(plan);
  free(nd);
  free(pos);
  free(exec);
  free(task);
  return rc;
}

int tb_bridge_plan_timed(tb_ctx_t *ctx, tb_bridge_plan_t *plan)
{
  double t = tb_wtime();
  int rc = tb_bridge_plan_build((const tb_bridge_t *)ctx->p->priv, plan);
  if (rc)
    return rc;
  ctx->extra[TB_BRIDGE_COL_INIT_MS] = 1e3 * (tb_wtime() - t);
  ctx->extra[TB_BRIDGE_COL_STACK] = plan->stack;
  return TB_OK;
}
