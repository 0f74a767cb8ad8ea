/* twinbench: the machine's topology (hwloc), thread placement and binding.
 *
 * Placement policies map thread k of a team to a processing unit (PU):
 *   compact  PUs in topology order: SMT siblings, then cores, then packages.
 *   scatter  round-robin across the topology tree at every level: packages,
 *            NUMA domains (as hwloc groups them), caches, cores, then PUs.
 *   cores    one thread per core (in core order) before any SMT sibling.
 * Placement is over the PUs of the process's affinity mask only; a team
 * larger than those wraps around the order (oversubscription), which the
 * binding record says. Threads bind themselves from inside the
 * OpenMP parallel region, one PU each; the process is never bound before the
 * OpenMP runtime has started its threads. */
#ifndef TB_TOPO_H
#define TB_TOPO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tb_placement {
  TB_PLACE_COMPACT = 0,
  TB_PLACE_SCATTER = 1,
  TB_PLACE_CORES = 2,
  TB_NPLACEMENTS
} tb_placement_t;

typedef struct tb_topo tb_topo_t;

/* What a team's binding turned out to be. */
typedef struct tb_binding {
  int threads;
  int *pu;        /* OS index of the PU each thread was bound to */
  int *seen;      /* OS index of the PU each thread was last seen running on */
  int ok;         /* every thread ran inside its PU, checked after binding and after the runs */
  int oversubscribed; /* more threads than PUs */
  char why[128];      /* when the binding failed: why */
} tb_binding_t;

/* The topology of this machine, restricted to the process's affinity mask
 * (taskset, a batch system's cpuset): the counts, caches, placements and
 * bindings below are those of the PUs in the mask. */
int tb_topo_open(tb_topo_t **t);

/* A synthetic topology (hwloc syntax, e.g. "pack:2 core:4 pu:2") for tests;
 * it cannot bind threads and no affinity mask restricts it. */
int tb_topo_open_synthetic(const char *desc, tb_topo_t **t);

/* Restrict t to the PUs of the list pus (OS indices in hwloc's list syntax,
 * as "0,3-5"), as an affinity mask does; for tests on synthetic topologies. */
int tb_topo_restrict(tb_topo_t *t, const char *pus);

void tb_topo_close(tb_topo_t *t);

/* The whole machine, for describing it: t itself unless the affinity mask
 * leaves PUs out. Owned by t. */
const tb_topo_t *tb_topo_whole(const tb_topo_t *t);

/* The OS indices of t's PUs (those of the affinity mask) in hwloc's list
 * syntax, as "0-3,8", in buf (truncated to len). */
void tb_topo_affinity(const tb_topo_t *t, char *buf, size_t len);

int tb_topo_npus(const tb_topo_t *t);
int tb_topo_ncores(const tb_topo_t *t);
int tb_topo_npackages(const tb_topo_t *t);
int tb_topo_nnuma(const tb_topo_t *t);

/* Total bytes of the last-level caches (0 if unknown). */
int64_t tb_topo_llc_bytes(const tb_topo_t *t);

/* The CPU model string, or "unknown CPU". */
const char *tb_topo_cpu_model(const tb_topo_t *t);

/* The policies' names, indexed by tb_placement_t, NULL-terminated. */
extern const char *const tb_placement_names[TB_NPLACEMENTS + 1];
const char *tb_placement_name(int policy);

/* order[k] = OS index of the PU that thread k of the policy goes to,
 * for k < npus (a team of more threads wraps around). */
int tb_topo_order(const tb_topo_t *t, int policy, int *order);

/* The default thread sweep: 1, 2, 4, ... below the core count, the core
 * count, then the PU count if it is larger. Returns the count written
 * (at most 64) into list. */
int tb_topo_thread_sweep(const tb_topo_t *t, int *list);

/* Bind an OpenMP team of `threads` threads by policy; fills b (free with
 * tb_binding_free). Sets the team size for the following parallel regions.
 * When some thread cannot be bound (a restricted container, say), the team
 * runs unbound: b->ok is cleared and b->why says what failed, and the call
 * still succeeds. */
int tb_topo_bind_team(tb_topo_t *t, int policy, int threads, tb_binding_t *b);

/* Check, from inside a team of b->threads threads, that each still runs on
 * its PU; clears b->ok otherwise. */
int tb_topo_check_team(tb_topo_t *t, tb_binding_t *b);

/* Let a team of `threads` threads and the calling thread run anywhere again. */
void tb_topo_unbind_team(tb_topo_t *t, int threads);

void tb_binding_free(tb_binding_t *b);

/* Print the machine's packages, NUMA nodes, cores, PUs and caches, and how
 * many cores and PUs the affinity mask allows where it leaves some out. */
void tb_topo_print(const tb_topo_t *t, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
