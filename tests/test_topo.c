/* Placement policies on synthetic hwloc topologies, independent of the host,
 * and thread binding on the real one. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "common/status.h"
#include "common/topo.h"
#include "testutil.h"

static void expect_order(tb_topo_t *t, int policy, const int *want, int n)
{
  int got[64];
  int rc = tb_topo_order(t, policy, got);
  CHECK(rc == TB_OK, "order %s: %s", tb_placement_name(policy), tb_error_detail());
  for (int k = 0; k < n; k++)
    if (got[k] != want[k]) {
      CHECK(0, "%s: thread %d on PU %d, expected %d", tb_placement_name(policy), k, got[k],
            want[k]);
      return;
    }
}

int main(void)
{
  tb_topo_t *t;

  /* 2 packages x 4 cores x 2 PUs. */
  CHECK(tb_topo_open_synthetic("pack:2 core:4 pu:2", &t) == TB_OK, "synthetic: %s",
        tb_error_detail());
  CHECK(tb_topo_npackages(t) == 2 && tb_topo_ncores(t) == 8 && tb_topo_npus(t) == 16,
        "counts %d %d %d", tb_topo_npackages(t), tb_topo_ncores(t), tb_topo_npus(t));
  static const int compact[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  static const int cores[] = {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15};
  static const int scatter[] = {0, 8, 2, 10, 4, 12, 6, 14, 1, 9, 3, 11, 5, 13, 7, 15};
  expect_order(t, TB_PLACE_COMPACT, compact, 16);
  expect_order(t, TB_PLACE_CORES, cores, 16);
  expect_order(t, TB_PLACE_SCATTER, scatter, 16);
  int sweep[64], ns = tb_topo_thread_sweep(t, sweep);
  CHECK(ns == 5 && sweep[0] == 1 && sweep[1] == 2 && sweep[2] == 4 && sweep[3] == 8 &&
            sweep[4] == 16,
        "thread sweep of %d entries", ns);
  tb_binding_t b;
  CHECK(tb_topo_bind_team(t, TB_PLACE_CORES, 2, &b) == TB_ETOPO, "synthetic topology bound");
  tb_topo_close(t);

  /* 2 packages x 2 NUMA nodes x 2 cores x 2 PUs: scatter alternates packages
   * first, then NUMA nodes within each, before a second core of any node. */
  CHECK(tb_topo_open_synthetic("pack:2 numa:2 core:2 pu:2", &t) == TB_OK, "synthetic numa");
  CHECK(tb_topo_nnuma(t) == 4, "%d NUMA nodes", tb_topo_nnuma(t));
  static const int scatter_numa[] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
  static const int cores_numa[] = {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15};
  expect_order(t, TB_PLACE_SCATTER, scatter_numa, 16);
  expect_order(t, TB_PLACE_CORES, cores_numa, 16);
  tb_topo_close(t);

  /* No SMT: one PU per core, cores and compact agree. */
  CHECK(tb_topo_open_synthetic("pack:1 core:6 pu:1", &t) == TB_OK, "synthetic flat");
  static const int flat[] = {0, 1, 2, 3, 4, 5};
  expect_order(t, TB_PLACE_CORES, flat, 6);
  expect_order(t, TB_PLACE_COMPACT, flat, 6);
  ns = tb_topo_thread_sweep(t, sweep);
  CHECK(ns == 4 && sweep[3] == 6, "flat sweep ends at %d", sweep[ns - 1]);
  tb_topo_close(t);

  /* An affinity mask (taskset -c 0-3,9,12-15) on 2 packages x 4 cores x 2
   * PUs: placement and counts see its PUs only, and the whole machine stays. */
  CHECK(tb_topo_open_synthetic("pack:2 core:4 pu:2", &t) == TB_OK, "synthetic masked");
  CHECK(tb_topo_restrict(t, "0-3,9,12-15") == TB_OK, "restrict: %s", tb_error_detail());
  CHECK(tb_topo_npus(t) == 9 && tb_topo_ncores(t) == 5 && tb_topo_npackages(t) == 2,
        "masked counts %d PUs %d cores", tb_topo_npus(t), tb_topo_ncores(t));
  CHECK(tb_topo_whole(t) != t && tb_topo_npus(tb_topo_whole(t)) == 16 &&
            tb_topo_ncores(tb_topo_whole(t)) == 8,
        "the whole machine lost");
  char mask[64];
  tb_topo_affinity(t, mask, sizeof mask);
  CHECK(!strcmp(mask, "0-3,9,12-15"), "mask '%s'", mask);
  static const int m_compact[] = {0, 1, 2, 3, 9, 12, 13, 14, 15};
  static const int m_cores[] = {0, 2, 9, 12, 14, 1, 3, 13, 15};
  static const int m_scatter[] = {0, 9, 2, 12, 1, 14, 3, 13, 15};
  expect_order(t, TB_PLACE_COMPACT, m_compact, 9);
  expect_order(t, TB_PLACE_CORES, m_cores, 9);
  expect_order(t, TB_PLACE_SCATTER, m_scatter, 9);
  ns = tb_topo_thread_sweep(t, sweep);
  CHECK(ns == 5 && sweep[2] == 4 && sweep[3] == 5 && sweep[4] == 9, "masked sweep ends at %d",
        sweep[ns - 1]);
  CHECK(tb_topo_restrict(t, "100-101") == TB_ETOPO, "a mask outside the machine accepted");
  CHECK(tb_topo_restrict(t, "x") == TB_EINVAL, "a bad list accepted");
  tb_topo_close(t);
  /* A mask that covers the machine leaves it whole. */
  CHECK(tb_topo_open_synthetic("pack:1 core:2 pu:1", &t) == TB_OK, "synthetic small");
  CHECK(tb_topo_restrict(t, "0-7") == TB_OK && tb_topo_whole(t) == t && tb_topo_npus(t) == 2,
        "a covering mask restricted the topology");
  tb_topo_close(t);

  /* The real machine: every thread of a team lands on its PU, also when
   * there are more threads than PUs. */
  CHECK(tb_topo_open(&t) == TB_OK, "host topology");
  int npus = tb_topo_npus(t);
  for (int policy = 0; policy < TB_NPLACEMENTS; policy++) {
    int threads = npus < 2 ? npus : 2;
    int rc = tb_topo_bind_team(t, policy, threads, &b);
    CHECK(rc == TB_OK && b.ok && !b.oversubscribed, "bind %d threads %s: %s", threads,
          tb_placement_name(policy), tb_error_detail());
    if (rc == TB_OK) {
      CHECK(tb_topo_check_team(t, &b) == TB_OK && b.ok, "binding lost");
      for (int k = 0; k < threads; k++)
        CHECK(b.seen[k] == b.pu[k], "thread %d seen on %d, bound to %d", k, b.seen[k], b.pu[k]);
      tb_topo_unbind_team(t, threads);
      tb_binding_free(&b);
    }
  }
  int rc = tb_topo_bind_team(t, TB_PLACE_COMPACT, npus + 1, &b);
  CHECK(rc == TB_OK && b.ok && b.oversubscribed, "oversubscribed team: %s", tb_error_detail());
  if (rc == TB_OK) {
    CHECK(b.pu[npus] == b.pu[0], "thread %d should wrap to PU %d", npus, b.pu[0]);
    tb_topo_unbind_team(t, npus + 1);
    tb_binding_free(&b);
  }
  tb_topo_close(t);
  TEST_EXIT();
}
