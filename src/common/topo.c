/* twinbench: topology, placement policies and thread binding with hwloc. */
#include <config.h>

#include <hwloc.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "parse.h"
#include "status.h"
#include "tbmpi.h"
#include "topo.h"

struct tb_topo {
  hwloc_topology_t h; /* the PUs teams are placed on: those of the affinity mask */
  struct tb_topo *whole; /* the whole machine: this one, unless the mask leaves PUs out */
  int synthetic;
  char model[128];
};

const char *const tb_placement_names[TB_NPLACEMENTS + 1] = {"compact", "scatter", "cores", NULL};

/* Restrict t's placement to the PUs of set; the whole machine stays in
 * t->whole, for what describes the machine. */
static int tb_topo_restrict_set(tb_topo_t *t, hwloc_const_cpuset_t set)
{
  hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(t->h);
  if (hwloc_bitmap_isincluded(all, set))
    return TB_OK;
  if (!hwloc_bitmap_intersects(all, set))
    return tb_fail(TB_ETOPO, "the affinity mask holds none of the machine's PUs");
  if (t->whole == t) {
    tb_topo_t *w = malloc(sizeof *w);
    if (!w)
      return tb_fail(TB_ENOMEM, "out of memory");
    *w = *t;
    w->whole = w;
    if (hwloc_topology_dup(&w->h, t->h)) {
      free(w);
      return tb_fail(TB_ENOMEM, "out of memory");
    }
    t->whole = w;
  }
  if (hwloc_topology_restrict(t->h, set, 0))
    return tb_fail(TB_ETOPO, "hwloc could not restrict the topology to the affinity mask");
  return TB_OK;
}

/* The PUs the process was given, into set; -1 where they cannot be read.
 * An OpenMP runtime that binds threads itself (OMP_PROC_BIND, OMP_PLACES,
 * GOMP_CPU_AFFINITY) bound this thread to its first place when it started,
 * so there the mask is the union of its places, which it built from the mask
 * it started with. */
static int tb_process_mask(hwloc_topology_t h, hwloc_bitmap_t set)
{
  int nplaces = omp_get_proc_bind() != omp_proc_bind_false ? omp_get_num_places() : 0;
  if (nplaces <= 0)
    return hwloc_get_cpubind(h, set, HWLOC_CPUBIND_PROCESS);
  hwloc_bitmap_zero(set);
  for (int p = 0; p < nplaces; p++) {
    int n = omp_get_place_num_procs(p);
    int *ids = n > 0 ? malloc((size_t)n * sizeof *ids) : NULL;
    if (!ids)
      return -1;
    omp_get_place_proc_ids(p, ids);
    for (int i = 0; i < n; i++)
      hwloc_bitmap_set(set, (unsigned)ids[i]);
    free(ids);
  }
  return 0;
}

/* In an MPI run, ranks of one node that were given the same mask (mpirun
 * binding them to a package, or not at all) split it: rank `index` of
 * `count` keeps its share of the mask's cores, as tb_mpi_share splits items
 * (or of its PUs, where there are fewer cores than ranks), so that the
 * ranks' teams do not compete for the same cores. A rank that mpirun bound
 * alone (to its own cores) keeps its mask. */
static void tb_mask_rank_share(hwloc_topology_t h, hwloc_bitmap_t set)
{
  char *list = NULL;
  int index, count;
  if (!tb_mpi_active() || hwloc_bitmap_list_asprintf(&list, set) < 0)
    return;
  const uint64_t key = tb_fnv1a(list); /* the mask's list */
  free(list);
  tb_mpi_local_peers(key, &index, &count);
  if (count == 1)
    return;
  hwloc_obj_type_t type = HWLOC_OBJ_CORE;
  int n = hwloc_get_nbobjs_inside_cpuset_by_type(h, set, type);
  if (n < count) {
    type = HWLOC_OBJ_PU;
    n = hwloc_get_nbobjs_inside_cpuset_by_type(h, set, type);
  }
  if (n < count)
    return;
  /* The share of `count` parts of n, as tb_mpi_share splits n items. */
  const int q = n / count, r = n % count, lo = index * q + (index < r ? index : r);
  const int hi = lo + q + (index < r);
  hwloc_bitmap_t mine = hwloc_bitmap_alloc();
  if (!mine)
    return;
  for (int i = lo; i < hi; i++)
    hwloc_bitmap_or(mine, mine, hwloc_get_obj_inside_cpuset_by_type(h, set, type, (unsigned)i)->cpuset);
  hwloc_bitmap_and(set, set, mine);
  hwloc_bitmap_free(mine);
}

/* Teams go inside the affinity the process was given (taskset, a batch
 * system's cpuset): binding a thread outside it would measure PUs the user
 * kept for something else. Where the mask cannot be read, the whole machine. */
static int tb_topo_restrict_to_process(tb_topo_t *t)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  int rc = TB_OK;
  if (!set)
    return tb_fail(TB_ENOMEM, "out of memory");
  if (!tb_process_mask(t->h, set)) {
    tb_mask_rank_share(t->h, set);
    rc = tb_topo_restrict_set(t, set);
  }
  hwloc_bitmap_free(set);
  return rc;
}

int tb_topo_restrict(tb_topo_t *t, const char *pus)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  int rc;
  if (!set)
    return tb_fail(TB_ENOMEM, "out of memory");
  if (hwloc_bitmap_list_sscanf(set, pus) || hwloc_bitmap_iszero(set))
    rc = tb_fail(TB_EINVAL, "'%s' is not a list of PUs", pus);
  else
    rc = tb_topo_restrict_set(t, set);
  hwloc_bitmap_free(set);
  return rc;
}

static int tb_topo_load(tb_topo_t **out, const char *synthetic)
{
  tb_topo_t *t = calloc(1, sizeof *t);
  if (!t)
    return tb_fail(TB_ENOMEM, "out of memory");
  t->whole = t;
  if (hwloc_topology_init(&t->h)) {
    free(t);
    return tb_fail(TB_ETOPO, "hwloc could not initialise a topology");
  }
  if (synthetic && hwloc_topology_set_synthetic(t->h, synthetic)) {
    hwloc_topology_destroy(t->h);
    free(t);
    return tb_fail(TB_EINVAL, "invalid synthetic topology '%s'", synthetic);
  }
  if (hwloc_topology_load(t->h)) {
    hwloc_topology_destroy(t->h);
    free(t);
    return tb_fail(TB_ETOPO, "hwloc could not load the topology");
  }
  t->synthetic = synthetic != NULL;
  snprintf(t->model, sizeof t->model, "unknown CPU");
  hwloc_obj_t pkg = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, 0);
  const char *m = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
  if (m)
    snprintf(t->model, sizeof t->model, "%s", m);
  int rc = synthetic ? TB_OK : tb_topo_restrict_to_process(t);
  if (rc) {
    tb_topo_close(t);
    return rc;
  }
  *out = t;
  return TB_OK;
}

int tb_topo_open(tb_topo_t **t)
{
  return tb_topo_load(t, NULL);
}

int tb_topo_open_synthetic(const char *desc, tb_topo_t **t)
{
  return tb_topo_load(t, desc);
}

void tb_topo_close(tb_topo_t *t)
{
  if (!t)
    return;
  if (t->whole != t)
    tb_topo_close(t->whole);
  hwloc_topology_destroy(t->h);
  free(t);
}

const tb_topo_t *tb_topo_whole(const tb_topo_t *t)
{
  return t->whole;
}

void tb_topo_affinity(const tb_topo_t *t, char *buf, size_t len)
{
  hwloc_bitmap_list_snprintf(buf, len, hwloc_topology_get_topology_cpuset(t->h));
}

static int tb_count(const tb_topo_t *t, hwloc_obj_type_t type)
{
  int n = hwloc_get_nbobjs_by_type(t->h, type);
  return n > 0 ? n : 0;
}

int tb_topo_npus(const tb_topo_t *t)
{
  return tb_count(t, HWLOC_OBJ_PU);
}

int tb_topo_ncores(const tb_topo_t *t)
{
  int n = tb_count(t, HWLOC_OBJ_CORE);
  return n ? n : tb_topo_npus(t);
}

int tb_topo_npackages(const tb_topo_t *t)
{
  int n = tb_count(t, HWLOC_OBJ_PACKAGE);
  return n ? n : 1;
}

int tb_topo_nnuma(const tb_topo_t *t)
{
  int n = tb_count(t, HWLOC_OBJ_NUMANODE);
  return n ? n : 1;
}

static const hwloc_obj_type_t tb_cache_types[] = {
    HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE,
    HWLOC_OBJ_L5CACHE};

int64_t tb_topo_llc_bytes(const tb_topo_t *t)
{
  for (int i = 4; i >= 0; i--) {
    int n = tb_count(t, tb_cache_types[i]);
    if (!n)
      continue;
    int64_t sum = 0;
    for (int j = 0; j < n; j++)
      sum += (int64_t)hwloc_get_obj_by_type(t->h, tb_cache_types[i], (unsigned)j)->attr->cache.size;
    return sum;
  }
  return 0;
}

const char *tb_topo_cpu_model(const tb_topo_t *t)
{
  return t->model;
}

const char *tb_placement_name(int policy)
{
  return (unsigned)policy < TB_NPLACEMENTS ? tb_placement_names[policy] : "?";
}

/* Scatter order below obj: the children's own orders interleaved round-robin,
 * so consecutive threads land in different subtrees at every level. */
static int tb_scatter(hwloc_obj_t obj, int *out)
{
  if (obj->type == HWLOC_OBJ_PU) {
    out[0] = (int)obj->os_index;
    return 1;
  }
  if (obj->arity == 0)
    return 0;
  if (obj->arity == 1)
    return tb_scatter(obj->children[0], out);
  int total = hwloc_bitmap_weight(obj->cpuset);
  if (total <= 0)
    return 0;
  int *tmp = malloc((size_t)total * sizeof *tmp);
  int *len = calloc(obj->arity, sizeof *len);
  int *start = calloc(obj->arity, sizeof *start);
  if (!tmp || !len || !start) {
    free(tmp);
    free(len);
    free(start);
    return -1;
  }
  int used = 0;
  for (unsigned c = 0; c < obj->arity; c++) {
    start[c] = used;
    int got = tb_scatter(obj->children[c], tmp + used);
    if (got < 0) {
      used = -1;
      break;
    }
    len[c] = got;
    used += got;
  }
  int k = 0;
  if (used > 0)
    for (int r = 0; k < used; r++)
      for (unsigned c = 0; c < obj->arity; c++)
        if (r < len[c])
          out[k++] = tmp[start[c] + r];
  free(tmp);
  free(len);
  free(start);
  return used < 0 ? -1 : k;
}

int tb_topo_order(const tb_topo_t *t, int policy, int *order)
{
  int npus = tb_topo_npus(t), k = 0;
  switch (policy) {
  case TB_PLACE_COMPACT:
    for (int i = 0; i < npus; i++)
      order[k++] = (int)hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PU, (unsigned)i)->os_index;
    break;
  case TB_PLACE_CORES: {
    int ncores = tb_count(t, HWLOC_OBJ_CORE);
    if (!ncores)
      return tb_topo_order(t, TB_PLACE_COMPACT, order);
    for (int rank = 0; k < npus; rank++) {
      int placed = 0;
      for (int c = 0; c < ncores; c++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_CORE, (unsigned)c);
        hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(t->h, core->cpuset, HWLOC_OBJ_PU,
                                                             (unsigned)rank);
        if (pu) {
          order[k++] = (int)pu->os_index;
          placed++;
        }
      }
      if (!placed)
        break;
    }
    break;
  }
  case TB_PLACE_SCATTER:
    k = tb_scatter(hwloc_get_root_obj(t->h), order);
    if (k < 0)
      return tb_fail(TB_ENOMEM, "out of memory");
    break;
  default:
    return tb_fail(TB_EINVAL, "unknown placement %d", policy);
  }
  if (k != npus)
    return tb_fail(TB_ETOPO, "placement %s covered %d of %d PUs", tb_placement_name(policy), k,
                   npus);
  return TB_OK;
}

int tb_topo_thread_sweep(const tb_topo_t *t, int *list)
{
  int cores = tb_topo_ncores(t), pus = tb_topo_npus(t), n = 0;
  for (int k = 1; k < cores && n < 62; k *= 2)
    list[n++] = k;
  list[n++] = cores;
  if (pus > cores)
    list[n++] = pus;
  return n;
}

/* Check from inside the team that this thread is bound to and runs on its PU. */
static int tb_thread_on_pu(hwloc_topology_t h, hwloc_const_cpuset_t want, int *seen)
{
  hwloc_bitmap_t s = hwloc_bitmap_alloc();
  int ok = 0;
  *seen = -1;
  if (s && !hwloc_get_cpubind(h, s, HWLOC_CPUBIND_THREAD) && hwloc_bitmap_isequal(s, want) &&
      !hwloc_get_last_cpu_location(h, s, HWLOC_CPUBIND_THREAD)) {
    *seen = hwloc_bitmap_first(s);
    ok = hwloc_bitmap_isincluded(s, want);
  }
  hwloc_bitmap_free(s);
  return ok;
}

int tb_topo_bind_team(tb_topo_t *t, int policy, int threads, tb_binding_t *b)
{
  int npus = tb_topo_npus(t);
  memset(b, 0, sizeof *b);
  if (t->synthetic)
    return tb_fail(TB_ETOPO, "a synthetic topology cannot bind threads");
  if (threads < 1)
    return tb_fail(TB_EINVAL, "a team needs at least one thread");
  int *order = malloc((size_t)npus * sizeof *order);
  b->pu = malloc((size_t)threads * sizeof *b->pu);
  b->seen = malloc((size_t)threads * sizeof *b->seen);
  if (!order || !b->pu || !b->seen) {
    free(order);
    tb_binding_free(b);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  int rc = tb_topo_order(t, policy, order);
  if (rc) {
    free(order);
    tb_binding_free(b);
    return rc;
  }
  for (int k = 0; k < threads; k++)
    b->pu[k] = order[k % npus];
  free(order);
  b->threads = threads;
  b->oversubscribed = threads > npus;

  int bad = 0, started = 0;
  omp_set_dynamic(0);
  omp_set_num_threads(threads);
#pragma omp parallel num_threads(threads) reduction(+ : bad, started)
  {
    int k = omp_get_thread_num();
    hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->h, (unsigned)b->pu[k]);
    started++;
    if (!pu || hwloc_set_cpubind(t->h, pu->cpuset, HWLOC_CPUBIND_THREAD))
      bad++;
    else if (!tb_thread_on_pu(t->h, pu->cpuset, &b->seen[k]))
      bad++;
  }
  if (started != threads) {
    tb_binding_free(b);
    return tb_fail(TB_ETOPO, "the OpenMP runtime gave %d threads instead of %d", started, threads);
  }
  b->ok = !bad;
  if (bad)
    snprintf(b->why, sizeof b->why, "%d of %d threads could not be bound to their PU", bad,
             threads);
  return TB_OK;
}

int tb_topo_check_team(tb_topo_t *t, tb_binding_t *b)
{
  int bad = 0, started = 0;
#pragma omp parallel num_threads(b->threads) reduction(+ : bad, started)
  {
    int k = omp_get_thread_num();
    hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->h, (unsigned)b->pu[k]);
    started++;
    if (!pu || !tb_thread_on_pu(t->h, pu->cpuset, &b->seen[k]))
      bad++;
  }
  if (bad || started != b->threads)
    b->ok = 0;
  return TB_OK;
}

void tb_topo_unbind_team(tb_topo_t *t, int threads)
{
  if (t->synthetic)
    return;
  /* Back to the affinity mask, never wider than the process was given. */
  hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(t->h);
#pragma omp parallel num_threads(threads)
  hwloc_set_cpubind(t->h, all, HWLOC_CPUBIND_THREAD);
}

void tb_binding_free(tb_binding_t *b)
{
  free(b->pu);
  free(b->seen);
  b->pu = b->seen = NULL;
  b->threads = 0;
}

void tb_topo_print(const tb_topo_t *placed, FILE *f)
{
  const tb_topo_t *t = placed->whole;
  char buf[32], mask[256];
  hwloc_uint64_t mem = 0;
  int nnuma = tb_count(t, HWLOC_OBJ_NUMANODE);
  for (int i = 0; i < nnuma; i++)
    mem += hwloc_get_obj_by_type(t->h, HWLOC_OBJ_NUMANODE, (unsigned)i)->attr->numanode.local_memory;
  fprintf(f, "CPU: %s\n", t->model);
  fprintf(f, "  packages: %d   NUMA nodes: %d (%s)   cores: %d", tb_topo_npackages(t),
          tb_topo_nnuma(t), tb_format_bytes((double)mem, buf), tb_topo_ncores(t));
  if (placed != t)
    fprintf(f, " (%d allowed)", tb_topo_ncores(placed));
  fprintf(f, "   PUs: %d", tb_topo_npus(t));
  if (placed != t) {
    tb_topo_affinity(placed, mask, sizeof mask);
    fprintf(f, " (%d allowed by the affinity mask: %s)", tb_topo_npus(placed), mask);
  }
  fprintf(f, "\n");
  for (int i = 0; i < nnuma; i++) {
    hwloc_obj_t node = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_NUMANODE, (unsigned)i);
    char *cpus = NULL;
    hwloc_bitmap_list_asprintf(&cpus, node->cpuset);
    fprintf(f, "  NUMA node %u: %s, PUs %s\n", node->os_index,
            tb_format_bytes((double)node->attr->numanode.local_memory, buf), cpus ? cpus : "?");
    free(cpus);
  }
  fprintf(f, "  caches:");
  for (int i = 0; i < 5; i++) {
    int n = tb_count(t, tb_cache_types[i]);
    if (!n)
      continue;
    hwloc_obj_t c = hwloc_get_obj_by_type(t->h, tb_cache_types[i], 0);
    const char *kind = c->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION ? "i"
                       : c->attr->cache.type == HWLOC_OBJ_CACHE_DATA      ? "d"
                                                                          : "";
    fprintf(f, "  L%d%s %d x %s", i + 1, kind, n, tb_format_bytes((double)c->attr->cache.size, buf));
  }
  fprintf(f, "\n");
}
