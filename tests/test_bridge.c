/* The Brownian bridge family, through its C interface:
 *   the order helpers and the neighbour finder;
 *   the planner: its stack is the least over every equivalent order (all of
 *     them enumerated on small trees);
 *   (a) unit vectors give the bridge matrix A with A A' = (min(t_i, t_j) - t0)
 *     Sigma (and, for increments, A A' = diag(1 / dt) x Sigma), to 1e-12 in
 *     double, for bisection, sequential and random orders, both CPU variants
 *     and the reference;
 *   (b) two equivalent orders with the matching permutation of the normals
 *     give identical paths, and a different order does not;
 *   (c) on 10^6 paths of 64 steps, the mean, the variance t and the
 *     covariance min(s, t) within 5 standard errors; the increments
 *     uncorrelated, with variance 1 / dt;
 *   the verifier passes the variants' results and fails a value off by twice
 *   its bound and a value never written. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "families/bridge.h"
#include "common/mem.h"
#include "common/params.h"
#include "common/registry.h"
#include "common/runner.h"
#include "cpu_omp/cpu.h"
#include "testutil.h"

/* A problem with its parameter values (which it points into) and an output. */
typedef struct tp {
  tb_problem_t p;
  tb_param_value_t pv[TB_MAX_PARAMS];
  tb_bridge_t *b;
  void *out;
  size_t e;
} tp_t;

/* Create a bridge problem; kv lists "name=value" overrides, NULL-terminated. */
static int tp_make(tp_t *t, tb_prec_t prec, int64_t n, uint64_t seed, const char *const *kv)
{
  const tb_algo_t *a = &tb_algo_bridge;
  memset(t, 0, sizeof *t);
  for (int k = 0; k < a->nparams; k++) {
    const char *text = a->params[k].defaults;
    size_t len = strlen(a->params[k].name);
    for (int i = 0; kv && kv[i]; i++)
      if (!strncmp(kv[i], a->params[k].name, len) && kv[i][len] == '=')
        text = kv[i] + len + 1;
    if (tb_param_parse_value(&a->params[k], text, &t->pv[k]))
      return TB_EINVAL;
  }
  int rc = tb_problem_create(&t->p, a, prec, n, seed, t->pv);
  CHECK(rc == TB_OK, "create: %s", tb_error_detail());
  if (rc)
    return rc;
  t->b = t->p.priv;
  t->e = tb_kind_size(tb_prec_kind(prec));
  t->out = tb_alloc(tb_array_bytes(&t->p.array[t->b->x]));
  return t->out ? TB_OK : TB_ENOMEM;
}

static void tp_free(tp_t *t)
{
  tb_free(t->out);
  tb_problem_destroy(&t->p);
  for (int k = 0; k < tb_algo_bridge.nparams; k++)
    tb_param_value_free(&t->pv[k]);
}

/* Value (path, row, dim) of an array of the problem's precision. */
static double tp_at(const tp_t *t, const void *a, int64_t path, int row, int k)
{
  int64_t i = tb_bridge_at(t->b->steps, t->b->dim, path, row, k);
  return t->e == 4 ? ((const float *)a)[i] : ((const double *)a)[i];
}

static void tp_set(const tp_t *t, void *a, int64_t path, int row, int k, double v)
{
  int64_t i = tb_bridge_at(t->b->steps, t->b->dim, path, row, k);
  if (t->e == 4)
    ((float *)a)[i] = (float)v;
  else
    ((double *)a)[i] = v;
}

/* Run CPU variant `name` into t->out. */
static void tp_run(tp_t *t, const char *name, int threads)
{
  const tb_variant_t *v = CPU_VARIANT(&tb_algo_bridge, name);
  tb_cpu_config_t cfg = {.threads = threads};
  tb_ctx_t ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.p = &t->p;
  ctx.v = v;
  ctx.cfg = &cfg;
  ctx.buf[t->b->z] = t->p.array[t->b->z].host;
  ctx.buf[t->b->x] = t->out;
  tb_poison(t->out, tb_prec_kind(t->p.prec), 0, t->p.array[t->b->x].count);
  ctx.extra[TB_BRIDGE_COL_STACK] = ctx.extra[TB_BRIDGE_COL_INIT_MS] = -1;
  int rc = v->prepare(&ctx);
  CHECK(rc == TB_OK, "%s prepare: %s", name, tb_error_detail());
  if (!rc)
    v->run(&ctx);
  /* The columns the initialisation fills: its time and the plan's stack. */
  tb_bridge_plan_t plan;
  if (tb_bridge_plan_build(t->b, &plan) == TB_OK) {
    CHECK(ctx.extra[TB_BRIDGE_COL_STACK] == plan.stack, "%s: stack column %g, the plan's %d",
          name, ctx.extra[TB_BRIDGE_COL_STACK], plan.stack);
    tb_bridge_plan_free(&plan);
  } else {
    CHECK(0, "plan: %s", tb_error_detail());
  }
  CHECK(ctx.extra[TB_BRIDGE_COL_INIT_MS] >= 0, "%s: no init_ms column", name);
  v->release(&ctx);
}

/* The verifier's verdict on t->out. */
static tb_verdict_t tp_verify(tp_t *t, tb_check_t *chk)
{
  void *view[TB_MAX_ARRAYS] = {0};
  double extra[TB_MAX_COLUMNS];
  memset(chk, 0, sizeof *chk);
  view[t->b->z] = t->p.array[t->b->z].host;
  view[t->b->x] = t->out;
  CHECK(tb_algo_bridge.verify(&t->p, view, extra, chk) == TB_OK, "verify: %s", tb_error_detail());
  return chk->verdict;
}

/* ---- Orders and the planner -------------------------------------------- */

static void test_orders(void)
{
  int o[9], l[9], r[9];
  static const int bis8[8] = {8, 4, 2, 6, 1, 3, 5, 7};
  CHECK(tb_bridge_order_bisection(8, o) == TB_OK, "bisection");
  CHECK(!memcmp(o, bis8, sizeof bis8), "bisection of 8 is %d %d %d %d %d %d %d %d", o[0], o[1],
        o[2], o[3], o[4], o[5], o[6], o[7]);
  tb_bridge_order_random(9, 42, o);
  int seen = 0;
  for (int i = 0; i < 9; i++)
    seen |= 1 << o[i];
  CHECK(o[0] == 9 && seen == 0x3fe, "random order is not a permutation starting with 9");
  CHECK(tb_bridge_neighbours(9, o, "x", NULL, l, r) == TB_OK, "random order rejected");
  CHECK(l[0] == 0 && r[0] == -1, "T's neighbours are %d and %d", l[0], r[0]);
  tb_bridge_order_sequential(9, o);
  CHECK(tb_bridge_neighbours(9, o, "x", NULL, l, r) == TB_OK && l[3] == 2 && r[3] == 9,
        "sequential point 3 between %d and %d", l[3], r[3]);
  o[4] = o[5];
  CHECK(tb_bridge_neighbours(9, o, "x", NULL, l, r) == TB_EINVAL &&
            strstr(tb_error_detail(), "position 6: index 5 appears twice"),
        "duplicate: %s", tb_error_detail());
  o[4] = 0;
  CHECK(tb_bridge_neighbours(9, o, "x", NULL, l, r) == TB_EINVAL &&
            strstr(tb_error_detail(), "0 is not a time index in 1..9"),
        "out of range: %s", tb_error_detail());
  tb_bridge_order_sequential(9, o);
  o[0] = 1, o[1] = 9;
  CHECK(tb_bridge_neighbours(9, o, "x", NULL, l, r) == TB_EINVAL &&
            strstr(tb_error_detail(), "T is built first"),
        "T not first: %s", tb_error_detail());
}

/* The least stack over every order listing each point after its parent
 * (enumerated depth first over the points available next). */
static void least_stack(const tb_bridge_t *b, const int *parent, int *exec, int k, char *done,
                        int *best)
{
  const int n = b->steps;
  if (k == n) {
    tb_bridge_plan_t plan;
    CHECK(tb_bridge_plan_from(b, exec, &plan) == TB_OK, "plan_from: %s", tb_error_detail());
    if (plan.stack < *best)
      *best = plan.stack;
    tb_bridge_plan_free(&plan);
    return;
  }
  for (int s = 1; s <= n; s++)
    if (!done[s] && (parent[s] == 0 || done[parent[s]])) {
      done[s] = 1;
      exec[k] = s;
      least_stack(b, parent, exec, k + 1, done, best);
      done[s] = 0;
    }
}

/* The later-built neighbour of each point (0 for T). */
static void parents(const tb_bridge_t *b, int *parent)
{
  int pos[TB_BRIDGE_MAX_STEPS + 1];
  pos[0] = -1;
  for (int i = 0; i < b->steps; i++)
    pos[b->order[i]] = i;
  for (int i = 0; i < b->steps; i++) {
    int l = b->left[i], r = b->right[i];
    parent[b->order[i]] = i == 0 ? 0 : (r >= 0 && pos[r] > pos[l]) ? r : l;
  }
}

static void test_planner(void)
{
  static const char *const orders[] = {"order=bisection", "order=sequential", "order=random"};
  for (int n = 1; n <= 9; n++)
    for (int oi = 0; oi < 3; oi++)
      for (uint64_t seed = 1; seed <= (oi == 2 ? 6u : 1u); seed++) {
        char steps[32];
        snprintf(steps, sizeof steps, "steps=%d", n);
        const char *kv[] = {steps, orders[oi], NULL};
        tp_t t;
        if (tp_make(&t, TB_DOUBLE, 1, seed, kv))
          continue;
        tb_bridge_plan_t plan;
        CHECK(tb_bridge_plan_build(t.b, &plan) == TB_OK, "plan: %s", tb_error_detail());
        int parent[10], exec[10], best = 1 << 30;
        char done[10] = {0};
        parents(t.b, parent);
        least_stack(t.b, parent, exec, 0, done, &best);
        CHECK(plan.stack == best, "n %d %s seed %d: plan stack %d, least %d", n, orders[oi],
              (int)seed, plan.stack, best);
        tb_bridge_plan_free(&plan);
        tp_free(&t);
      }
  /* The sequential order needs 2 slots (T and the last point); bisection
   * about one per level. */
  const char *kv[] = {"steps=64", NULL};
  tp_t t;
  if (!tp_make(&t, TB_DOUBLE, 1, 1, kv)) {
    tb_bridge_plan_t plan;
    CHECK(tb_bridge_plan_build(t.b, &plan) == TB_OK && plan.stack == 6,
          "bisection of 64 needs %d slots, expected 6", plan.stack);
    tb_bridge_plan_free(&plan);
    tp_free(&t);
  }
}

/* ---- (a) the bridge matrix ---------------------------------------------- */

/* Feed path (i, k) the unit vector e_(i, k), so that output (row, l) of that
 * path is A[(row, l), (i, k)]; check A A' against the covariance. */
static void bridge_matrix(const char *order, const char *times, int d, const char *cov,
                          const char *t0, const char *mode)
{
  const int n = 16;
  char o[64], tm[128], dim[32], cv[64], st[32], md[32], t0s[32];
  snprintf(o, sizeof o, "order=%s", order);
  snprintf(tm, sizeof tm, "times=%s", times);
  snprintf(dim, sizeof dim, "dim=%d", d);
  snprintf(cv, sizeof cv, "cov=%s", cov);
  snprintf(st, sizeof st, "steps=%d", n);
  snprintf(md, sizeof md, "mode=%s", mode);
  snprintf(t0s, sizeof t0s, "t0=%s", t0);
  const char *kv[] = {o, tm, dim, cv, st, md, t0s, NULL};
  tp_t t;
  if (tp_make(&t, TB_DOUBLE, (int64_t)n * d, 9, kv))
    return;
  const tb_bridge_t *b = t.b;
  const int inc = b->mode == TB_BRIDGE_INCREMENTS, m = n * d;
  void *z = t.p.array[b->z].host;
  memset(z, 0, (size_t)tb_array_bytes(&t.p.array[b->z]));
  for (int i = 0; i < n; i++)
    for (int k = 0; k < d; k++)
      tp_set(&t, z, i * d + k, i, k, 1.0);
  long double *x = malloc((size_t)((n + 1) * d) * sizeof *x);
  double *g = malloc((size_t)((n + 1) * d) * sizeof *g), *a = malloc((size_t)m * m * sizeof *a);
  if (!x || !g || !a)
    exit(99);
  for (int pass = 0; pass < 3; pass++) { /* omp, path, the reference */
    if (pass < 2)
      tp_run(&t, pass ? "path" : "omp", 2);
    for (int p = 0; p < m; p++) {
      if (pass == 2)
        tb_bridge_reference(b, TB_DOUBLE, z, p, x, g);
      for (int row = 0; row < n; row++)
        for (int l = 0; l < d; l++) {
          double v = tp_at(&t, t.out, p, row, l);
          if (pass == 2) {
            long double xs = x[(row + 1) * d + l], xp = x[row * d + l];
            v = (double)(inc ? (xs - xp) / ((long double)b->t[row + 1] - b->t[row]) : xs);
          }
          a[(row * d + l) * m + p] = v;
        }
    }
    double worst = 0.0;
    for (int i = 0; i < m; i++)
      for (int j = 0; j < m; j++) {
        double s = 0.0;
        for (int p = 0; p < m; p++)
          s += a[i * m + p] * a[j * m + p];
        int ri = i / d, rj = j / d, li = i % d, lj = j % d;
        double want = b->sigma[li * d + lj];
        if (inc)
          want = ri == rj ? want / (b->t[ri + 1] - b->t[ri]) : 0.0;
        else
          want *= fmin(b->t[ri + 1], b->t[rj + 1]) - b->t0;
        double e = fabs(s - want) / fmax(1.0, fabs(want));
        worst = e > worst || isnan(e) ? e : worst;
      }
    CHECK(worst <= 1e-12, "(a) %s %s d=%d %s, %s: A A' off by %.3g", order, times, d, mode,
          pass == 2 ? "reference" : pass ? "path" : "omp", worst);
  }
  free(x);
  free(g);
  free(a);
  tp_free(&t);
}

static void test_bridge_matrix(const char *times_file)
{
  static const char *const orders[] = {"bisection", "sequential", "random"};
  for (int oi = 0; oi < 3; oi++) {
    bridge_matrix(orders[oi], "uniform", 1, "identity", "0", "paths");
    bridge_matrix(orders[oi], times_file, 1, "2.5", "0.125", "paths");
    bridge_matrix(orders[oi], times_file, 2, "2 0.6; 0.6 1", "0.125", "paths");
    bridge_matrix(orders[oi], "uniform", 3, "1 0.5 0.2; 0.5 2 -0.3; 0.2 -0.3 1.5", "-1",
                  "paths");
    bridge_matrix(orders[oi], times_file, 2, "2 0.6; 0.6 1", "0.125", "increments");
  }
}

/* ---- (b) equivalent orders ---------------------------------------------- */

/* Write order o of n points to a file. */
static void write_order(const char *path, const int *o, int n)
{
  FILE *f = fopen(path, "w");
  if (!f)
    exit(99);
  for (int i = 0; i < n; i++)
    fprintf(f, "%d\n", o[i]);
  fclose(f);
}

/* Build with the order in file `path`, the normals of `ref` moved to follow
 * each point; return whether the paths equal ref's exactly. */
static int same_paths(const tp_t *ref, const char *spec, const char *variant)
{
  const tb_bridge_t *a = ref->b;
  char o[300], st[32], dim[32];
  snprintf(o, sizeof o, "order=%s", spec);
  snprintf(st, sizeof st, "steps=%d", a->steps);
  snprintf(dim, sizeof dim, "dim=%d", a->dim);
  const char *kv[] = {o, st, dim, "cov=1 0.3; 0.3 0.5", "mode=paths", NULL};
  tp_t t;
  if (tp_make(&t, ref->p.prec, ref->p.n, 3, kv))
    return -1;
  const int n = a->steps, d = a->dim;
  int pos[TB_BRIDGE_MAX_STEPS + 1];
  for (int i = 0; i < n; i++)
    pos[a->order[i]] = i;
  void *z = t.p.array[t.b->z].host;
  for (int64_t p = 0; p < ref->p.n; p++)
    for (int i = 0; i < n; i++)
      for (int k = 0; k < d; k++)
        tp_set(&t, z, p, i, k, tp_at(ref, ref->p.array[a->z].host, p, pos[t.b->order[i]], k));
  tp_run(&t, variant, 2);
  int same = 1;
  for (int64_t p = 0; p < ref->p.n && same; p++)
    for (int row = 0; row < n; row++)
      for (int k = 0; k < d; k++)
        same &= tp_at(&t, t.out, p, row, k) == tp_at(ref, ref->out, p, row, k);
  tb_check_t chk;
  CHECK(tp_verify(&t, &chk) == TB_PASS, "(b) %s: %s", spec, chk.note);
  tp_free(&t);
  return same;
}

static void test_equivalent(const char *dir)
{
  const char *kv[] = {"order=bisection", "steps=32", "dim=2", "cov=1 0.3; 0.3 0.5", NULL};
  tp_t a;
  char path[512];
  if (tp_make(&a, TB_FLOAT, 1000, 17, kv))
    return;
  const int n = a.b->steps;
  int o[32], parent[33], done[33] = {0};
  tb_bridge_plan_t plan;
  CHECK(tb_bridge_plan_build(a.b, &plan) == TB_OK, "plan: %s", tb_error_detail());
  parents(a.b, parent);
  for (int variant = 0; variant < 2; variant++) {
    const char *name = variant ? "path" : "omp";
    tp_run(&a, name, 2);
    /* The plan's own depth-first order. */
    for (int k = 0; k < n; k++)
      o[k] = plan.step[k].out;
    snprintf(path, sizeof path, "%s/dfs.order", dir);
    write_order(path, o, n);
    CHECK(same_paths(&a, path, name) == 1, "(b) %s: the depth-first order differs", name);
    /* A random order listing each point after its parent. */
    memset(done, 0, sizeof done);
    done[0] = 1;
    for (int k = 0, lcg = 12345; k < n; k++) {
      int avail[32], na = 0;
      for (int s = 1; s <= n; s++)
        if (!done[s] && done[parent[s]])
          avail[na++] = s;
      lcg = (int)((lcg * 1103515245u + 12345u) & 0x7fffffff);
      o[k] = avail[lcg % na];
      done[o[k]] = 1;
    }
    snprintf(path, sizeof path, "%s/random.order", dir);
    write_order(path, o, n);
    CHECK(same_paths(&a, path, name) == 1, "(b) %s: a random equivalent order differs", name);
    /* The sequential order is not equivalent: its paths differ. */
    CHECK(same_paths(&a, "sequential", name) == 0, "(b) %s: sequential gave the same paths",
          name);
  }
  tb_bridge_plan_free(&plan);
  tp_free(&a);
}

/* ---- (c) statistics ----------------------------------------------------- */

/* Sums of x_i and x_i x_j (i <= j) over every path of t's output. */
static void moments(const tp_t *t, double *s1, double *s2)
{
  const int n = t->b->steps;
  const float *x = t->out;
#pragma omp parallel
  {
    double *m1 = calloc((size_t)n, sizeof *m1), *m2 = calloc((size_t)n * n, sizeof *m2);
    if (!m1 || !m2)
      exit(99);
#pragma omp for schedule(static)
    for (int64_t tile = 0; tile < t->b->tiles; tile++) {
      const float *xt = x + tile * n * TB_BRIDGE_LANES;
      int lanes = (int)(t->p.n - tile * TB_BRIDGE_LANES < TB_BRIDGE_LANES
                            ? t->p.n - tile * TB_BRIDGE_LANES
                            : TB_BRIDGE_LANES);
      for (int i = 0; i < n; i++)
        for (int q = 0; q < lanes; q++)
          m1[i] += xt[i * TB_BRIDGE_LANES + q];
      for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
          double s = 0.0;
          for (int q = 0; q < lanes; q++)
            s += (double)xt[i * TB_BRIDGE_LANES + q] * xt[j * TB_BRIDGE_LANES + q];
          m2[i * n + j] += s;
        }
    }
#pragma omp critical
    {
      for (int i = 0; i < n; i++)
        s1[i] += m1[i];
      for (int i = 0; i < n * n; i++)
        s2[i] += m2[i];
    }
    free(m1);
    free(m2);
  }
}

static void test_statistics(void)
{
  enum { N = 64, CHUNKS = 8 };
  const int64_t per = 125000, total = per * CHUNKS; /* 10^6 paths */
  for (int inc = 0; inc < 2; inc++) {
    double *s1 = calloc(N, sizeof *s1), *s2 = calloc(N * N, sizeof *s2), t[N + 1];
    if (!s1 || !s2)
      exit(99);
    for (int c = 0; c < CHUNKS; c++) {
      const char *kv[] = {inc ? "mode=increments" : "mode=paths", NULL};
      tp_t tp;
      if (tp_make(&tp, TB_FLOAT, per, 1000 + c, kv))
        return;
      tp_run(&tp, "omp", 2);
      moments(&tp, s1, s2);
      memcpy(t, tp.b->t, sizeof t);
      tp_free(&tp);
    }
    int bad = 0;
    for (int i = 0; i < N; i++) {
      /* paths: X_i ~ N(0, t_i), E X_i X_j = min; increments: D_i ~ N(0, 1/dt_i), independent */
      double vi = inc ? 1.0 / (t[i + 1] - t[i]) : t[i + 1];
      double mean = s1[i] / total, se = sqrt(vi / total);
      if (fabs(mean) > 5 * se && bad++ < 5)
        CHECK(0, "(c) %s %d: mean %.4g, more than 5 standard errors (%.3g) from 0",
              inc ? "increment" : "X", i + 1, mean, se);
      for (int j = i; j < N; j++) {
        double vj = inc ? 1.0 / (t[j + 1] - t[j]) : t[j + 1];
        double want = inc ? (i == j ? vi : 0.0) : t[i + 1]; /* min(t_i, t_j) with i <= j */
        double got = s2[i * N + j] / total, se2 = sqrt((vi * vj + want * want) / total);
        if (fabs(got - want) > 5 * se2 && bad++ < 5)
          CHECK(0, "(c) %s %d,%d: E[x_i x_j] = %.5g, expected %.5g (5 standard errors: %.3g)",
                inc ? "increments" : "X", i + 1, j + 1, got, want, 5 * se2);
      }
    }
    CHECK(bad == 0, "(c) %s: %d moments off by more than 5 standard errors",
          inc ? "increments" : "paths", bad);
    free(s1);
    free(s2);
  }
}

/* ---- The verifier ------------------------------------------------------- */

static void test_verifier(void)
{
  for (int prec = TB_FLOAT; prec <= TB_DOUBLE; prec++)
    for (int inc = 0; inc < 2; inc++) {
      const char *kv[] = {"dim=2", "cov=1 0.4; 0.4 2", "steps=40", "order=random", "x0=0.75",
                          inc ? "mode=increments" : "mode=paths", NULL};
      tp_t t;
      tb_check_t chk;
      if (tp_make(&t, (tb_prec_t)prec, 999, 5 + inc, kv))
        continue;
      for (int v = 0; v < 2; v++) {
        tp_run(&t, v ? "path" : "omp", 2);
        CHECK(tp_verify(&t, &chk) == TB_PASS && chk.error <= chk.tolerance && chk.error > 0,
              "%s %s %s: rejected (error %g, tolerance %g): %s", v ? "path" : "omp",
              tb_prec_name((tb_prec_t)prec), inc ? "increments" : "paths", chk.error,
              chk.tolerance, chk.note);
      }
      /* One value off by twice its bound (u G, or u H for an increment). */
      const tb_bridge_t *b = t.b;
      long double x[41 * 2];
      double g[41 * 2], u = prec == TB_FLOAT ? ldexp(1.0, -24) : ldexp(1.0, -53);
      int64_t path = 500;
      int row = 17, k = 1;
      tb_bridge_reference(b, (tb_prec_t)prec, t.p.array[b->z].host, path, x, g);
      double scale = g[(row + 1) * 2 + k];
      if (inc)
        scale = (g[(row + 1) * 2 + k] + g[row * 2 + k] + fabsl(x[(row + 1) * 2 + k] - x[row * 2 + k])) /
                (b->t[row + 1] - b->t[row]);
      double was = tp_at(&t, t.out, path, row, k);
      tp_set(&t, t.out, path, row, k, was + 2 * chk.tolerance * u * scale);
      CHECK(tp_verify(&t, &chk) == TB_FAIL, "%s %s: a value off by twice its bound accepted",
            tb_prec_name((tb_prec_t)prec), inc ? "increments" : "paths");
      /* A value never written. */
      tp_set(&t, t.out, path, row, k, was);
      tb_poison(t.out, tb_prec_kind((tb_prec_t)prec),
                tb_bridge_at(b->steps, b->dim, 998, 39, 1), tb_bridge_at(b->steps, b->dim, 998, 39, 1) + 1);
      CHECK(tp_verify(&t, &chk) == TB_FAIL && strstr(chk.note, "never written"),
            "%s %s: a poisoned value accepted: %s", tb_prec_name((tb_prec_t)prec),
            inc ? "increments" : "paths", chk.note);
      tp_free(&t);
    }
}

int main(void)
{
  char dir[] = "/tmp/tbbridge.XXXXXX", times[600];
  if (!mkdtemp(dir))
    return 99;
  /* Unequal steps: a times file of 16 points after t0 = 0.125. */
  snprintf(times, sizeof times, "%s/times", dir);
  FILE *f = fopen(times, "w");
  if (!f)
    return 99;
  for (int i = 1; i <= 16; i++)
    fprintf(f, "%.17g\n", 0.125 + 0.01 * i + 0.003 * i * i);
  fclose(f);

  test_orders();
  test_planner();
  test_bridge_matrix(times);
  test_equivalent(dir);
  test_verifier();
  test_statistics();

  char path[700];
  static const char *const files[] = {"times", "dfs.order", "random.order"};
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    unlink(path);
  }
  rmdir(dir);
  TEST_EXIT();
}
