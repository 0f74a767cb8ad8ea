/* twinbench: helpers shared by the OpenMP twins. */
#ifndef TB_CPU_H
#define TB_CPU_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/algo.h"
#include "../common/topo.h"

/* A configuration of the CPU backend: a team of threads placed by a policy
 * (tests may make one with just threads set, to run a twin by hand). */
typedef struct tb_cpu_config {
  int threads;         /* the team's size */
  int placement;       /* tb_placement_t */
  int team;            /* from the user's thread list: the team variants run in it */
  int serial;          /* the serial variants (TB_V_SERIAL) run in it */
  int64_t ceiling_elems; /* elements per array of the memory ceilings */
  tb_topo_t *topo;
  tb_binding_t binding; /* while entered */
} tb_cpu_config_t;

/* The team a CPU twin runs with. */
static inline int tb_cpu_threads(const tb_ctx_t *ctx)
{
  return ((const tb_cpu_config_t *)ctx->cfg)->threads;
}

/* Thread t's share [lo, hi) of n iterations under schedule(static) with
 * `threads` threads: the first n % threads threads take one more. The
 * backend's first touch and the variants' static loops use the same split,
 * so each thread finds its pages on its own NUMA node. */
static inline void tb_cpu_share(int64_t n, int threads, int t, int64_t *lo, int64_t *hi)
{
  int64_t q = n / threads, r = n % threads;
  *lo = t * q + (t < r ? t : r);
  *hi = *lo + q + (t < r);
}

/* Ask for the `bytes` at p ahead of their use, a 64-byte line at a time: into
 * every cache level (l1 nonzero: prefetcht0 on x86, for data the next steps
 * read) or into L2 and beyond (prefetcht1, for a block that the thread
 * reaches only after streaming out the current one). */
static inline void tb_cpu_prefetch(const void *p, size_t bytes, int l1)
{
  for (size_t i = 0; i < bytes; i += 64)
    if (l1)
      __builtin_prefetch((const char *)p + i, 0, 3);
    else
      __builtin_prefetch((const char *)p + i, 0, 2);
}

/* One poll of a spin wait that has polled `spins` times before: x86's pause
 * for a while (the sibling thread gets the pipeline), then a yield of the
 * core at every poll: a team larger than its cores, or a busy machine, would
 * otherwise spin away the time slice of the very thread it waits for. */
static inline void tb_cpu_backoff(int spins)
{
  if (spins >= 1024)
    sched_yield();
#if defined(__x86_64__) || defined(__i386__)
  else
    __builtin_ia32_pause();
#endif
}

/* STREAM's op (TB_STREAM_*) in double with plain stores and a team of
 * `threads` (q = TB_STREAM_Q): the stream twin's kernel, which also
 * measures the CPU's copy and triad ceilings with plain stores. */
void tb__cpu_stream_f64(int op, double *restrict c, const double *restrict a,
                        const double *restrict b, int64_t n, int threads);

#endif
