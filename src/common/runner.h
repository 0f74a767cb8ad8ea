/* twinbench: the runner, which sweeps every axis of a run and measures,
 * verifies and records each configuration.
 *
 * Loop order: precision, size, parameter point (one problem each, generated
 * once), backend, backend configuration (entered once: the CPU binds its
 * team), variant, tuning point. For each: prepare, poison the outputs, warm
 * up, time `repeat` runs, collect, download, verify, record, release. The
 * runner knows backends, configurations and tuning only through the
 * interface of algo.h. */
#ifndef TB_RUNNER_H
#define TB_RUNNER_H

#include <stdio.h>

#include "algo.h"
#include "problem.h"
#include "registry.h"
#include "result.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TB_MAX_OPTIONS 8 /* options of one backend */

/* The adaptive repeats stop at TB_MAX_REPEATS runs, and --max-noise after
 * TB_NOISE_TIMEOUT seconds of timed runs (or twice --min-time). */
#define TB_MAX_REPEATS 100000
#define TB_NOISE_TIMEOUT 15.0

/* A NAME=LIST setting of the command line that is no problem parameter and
 * no backend option: a tuning parameter of some variants. */
typedef struct tb_setting {
  const char *name;
  const char *list;
} tb_setting_t;

typedef struct tb_sweep {
  const tb_algo_t *algo;
  int use[TB_MAX_BACKENDS]; /* backends to run */
  char **variants;          /* variant names to run; NULL for all */
  int nvariants;
  tb_prec_t prec[TB_NPREC];
  int nprec;
  int64_t *sizes; /* TB_SIZE_AUTO: the STREAM rule for the precision */
  int nsizes;
  tb_param_value_t *pv[TB_MAX_PARAMS]; /* the values of each problem parameter */
  int npv[TB_MAX_PARAMS];
  const char *option[TB_MAX_BACKENDS][TB_MAX_OPTIONS]; /* backend options (NULL: default) */
  tb_setting_t *tuning; /* the tuning settings, as given */
  int ntuning;
  int repeat, warmup;
  double min_time;  /* --min-time: repeat until the timed runs add to this many seconds (0: off) */
  double max_noise; /* --max-noise: repeat until cv is at most this (0: off) */
  int verify;
  int energy;   /* --energy: read the backends' energy counters around the timed runs */
  uint64_t seed;
  const char *input_path;
  const char *dump_path;
  FILE *dump;   /* where the first verified configuration's results go (--dump), or NULL */
  int progress; /* a progress line on stderr */
  /* Optional hooks of a caller that records rows as they finish (the
   * experiment command). Each point (a variant's tuning point in a backend
   * configuration, for one problem) has a key, "PROBLEM | BACKEND
   * configuration C | VARIANT TUNING" (tb_problem_text, the configuration's
   * place in the backend's list, the tuning values as asked): skip(arg, key)
   * is asked before the point's problem is filled and before it is
   * prepared, and a non-zero answer leaves the point out (an earlier run
   * recorded it); row(arg, key, row) is told of each row once it is
   * measured and verified, and a non-zero status stops the sweep. */
  int (*skip)(void *arg, const char *key);
  int (*row)(void *arg, const char *key, const tb_result_t *row);
  void *hook_arg;
} tb_sweep_t;

/* One variant's tuning values: a list per tuning parameter. */
typedef struct tb_tuning {
  const tb_variant_t *v;
  int b; /* its backend */
  tb_param_value_t *val[TB_MAX_TUNING];
  int nval[TB_MAX_TUNING];
} tb_tuning_t;

/* What the runner prepared and learned besides the rows. */
typedef struct tb_run_state {
  tb_topo_t *topo;
  int usable[TB_MAX_BACKENDS];        /* requested and available */
  char reason[TB_MAX_BACKENDS][256];  /* why a backend is not usable */
  tb_configs_t configs[TB_MAX_BACKENDS];
  tb_tuning_t *tuning; /* one per variant that may run */
  int ntuning;
  double *ceiling[TB_MAX_BACKENDS]; /* per configuration and kind (TB_NCEIL), 0 = not measured */
  int failures;      /* rows that failed verification */
  int unverifiable;  /* rows whose bound could not tell */
  int interrupted;
  long refused;      /* configurations a variant refused here (prepare's TB_EUNSUP): a note, no row */
  int energy[TB_MAX_BACKENDS];             /* the backend's energy counters can be read */
  char energy_what[TB_MAX_BACKENDS][256];  /* what they count, or why they are not read */
  int dumped;          /* the dump is written */
  char dump_what[128]; /* of which configuration */
} tb_run_state_t;

/* Validate the sweep against the registry and the machine before anything
 * runs and prepare the run: variants, precisions and tuning values exist,
 * the requested backends are there (one missing beside others is dropped
 * with a note), their configurations parse, every problem sets up and fits
 * in host and device memory. Release st with tb_run_state_free. Its notes
 * (a backend skipped, say) are held back when it succeeds: the caller
 * releases them with tb_note_release once its own checks have passed, so
 * that a refusal is one line. */
int tb_sweep_check(tb_sweep_t *s, tb_topo_t *topo, tb_run_state_t *st);
void tb_run_state_free(tb_run_state_t *st);

/* The columns of the rows the sweep can make (after tb_sweep_check): the
 * backends it uses and the variants that may run. */
struct tb_colset;
void tb_sweep_columns(const tb_sweep_t *s, const tb_run_state_t *st, struct tb_colset *cs);

/* The rows a sweep will make at most (after tb_sweep_check; points that a
 * variant refuses as unsupported make none). */
long tb_sweep_total(const tb_sweep_t *s, const tb_run_state_t *st);

/* Run the sweep, appending a row per configuration to res. On an error or an
 * interrupt the rows already measured stay in res. */
int tb_sweep_run(const tb_sweep_t *s, tb_run_state_t *st, tb_results_t *res);

/* Ask a running sweep to stop after the current configuration
 * (async-signal-safe). */
void tb_runner_interrupt(void);

/* Whether variant v is selected by the sweep (by name, for the precision). */
int tb_sweep_selects(const tb_sweep_t *s, const tb_variant_t *v, tb_prec_t prec);

#ifdef __cplusplus
}
#endif
#endif
