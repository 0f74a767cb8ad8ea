/* twinbench: the runner, which sweeps every axis of a run and measures,
 * verifies and records each configuration.
 *
 * Loop order: precision, size, parameter point (one problem each, generated
 * once), backend, CPU team (threads x placement, bound with hwloc), variant,
 * GPU launch configuration (block x grid). For each configuration: prepare,
 * poison the outputs, warm up, time `repeat` runs, collect, download, verify,
 * check the binding, release. */
#ifndef TB_RUNNER_H
#define TB_RUNNER_H

#include "algo.h"
#include "problem.h"
#include "result.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tb_sweep {
  const tb_algo_t *algo;
  int use[TB_NBACKENDS];   /* backends to run */
  char **variants;         /* variant names to run; NULL for all */
  int nvariants;
  tb_prec_t prec[TB_NPREC];
  int nprec;
  int64_t *sizes; /* TB_SIZE_AUTO: the STREAM rule for the precision */
  int nsizes;
  tb_param_value_t *pv[TB_MAX_PARAMS]; /* the values of each parameter */
  int npv[TB_MAX_PARAMS];
  int *threads;
  int nthreads;
  int *placements;
  int nplacements;
  int *blocks;
  int nblocks;
  int *grids; /* 0 = auto */
  int ngrids;
  int repeat, warmup;
  int verify;
  uint64_t seed;
  const char *input_path;
  const char *dump_path;
  int progress; /* a progress line on stderr */
  int64_t limit_elems; /* CPU limit: elements per array; 0 for the STREAM rule */
  int64_t llc_bytes;   /* the host's last-level caches (set by tb_sweep_check) */
} tb_sweep_t;

/* What the runner learned besides the rows. */
typedef struct tb_run_state {
  int gpu_ok;
  tb_device_info_t gpu;
  char gpu_reason[256]; /* why the GPU is not used */
  int failures;         /* rows that failed verification */
  int interrupted;
  int dumped;
} tb_run_state_t;

/* Validate the sweep against the registry and the machine before anything
 * runs: variants and precisions exist, the GPU is there if asked for (a GPU
 * asked for together with the CPU is dropped with a note), every problem
 * fits in host and device memory. */
int tb_sweep_check(tb_sweep_t *s, tb_topo_t *topo, tb_run_state_t *st);

/* Run the sweep, appending a row per configuration to res. On an error or an
 * interrupt the rows already measured stay in res. */
int tb_sweep_run(const tb_sweep_t *s, tb_topo_t *topo, tb_run_state_t *st, tb_results_t *res);

/* Ask a running sweep to stop after the current configuration
 * (async-signal-safe). */
void tb_runner_interrupt(void);

/* Bytes of each of the two buffers of the GPU's device-copy limit measurement. */
#define TB_GPU_LIMIT_BYTES ((int64_t)1 << 30)

#ifdef __cplusplus
}
#endif
#endif
