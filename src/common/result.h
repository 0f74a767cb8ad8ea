/* twinbench: result rows, one per measured configuration, and the figures
 * derived from them. A row carries what ran (the algorithm, variant and
 * backend, the problem), the columns its backend describes its
 * configuration with, the variant's tuning values as run, the timings and
 * the check; README.md documents the schema. */
#ifndef TB_RESULT_H
#define TB_RESULT_H

#include <stddef.h>

#include "algo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tb_result {
  const tb_algo_t *algo;
  const tb_variant_t *variant;
  const tb_backend_t *backend;
  int bi, ci; /* the backend's index and the configuration's, in the run */
  tb_prec_t prec;
  int64_t n;
  tb_param_value_t param[TB_MAX_PARAMS];
  tb_cell_t config[TB_MAX_CONFIG_COLUMNS]; /* backend->columns[k] */
  tb_cell_t tune[TB_MAX_TUNING];           /* variant->tuning[k], as run */
  int repeats;
  double median_ms, min_ms, max_ms, mean_ms, stddev_ms;
  double *samples; /* the time of each repeat in ms (malloc'd, owned by the row) */
  tb_xfer_t xfer;
  tb_cost_t cost;        /* per run, from the algorithm's cost model */
  int mem_ceiling;       /* the memory ceiling of its read:write mix (tb_ceiling_kind_t) */
  int comp_ceiling;      /* the compute ceiling of its precision, or -1 (no flops) */
  double ceiling_gbs;    /* that ceiling, measured in this configuration */
  double ceiling_gflops; /* the compute ceiling of its precision; NaN: none (integers) */
  double footprint;      /* bytes of the problem's arrays */
  double cache_bytes;    /* the backend's cache they must exceed (0: unknown) */
  tb_check_t check;
  double extra[TB_MAX_COLUMNS];
  /* Energy, where the backend has a counter (energy.h): joules per run (the
   * counters' advance over the timed repeats, over their number) and the
   * mean power over that window; NaN when not measured. energy_short: the
   * counters were read but the window stayed too short to tell. */
  double energy_j, avg_w;
  int energy_short;
  /* An MPI run's shape (0 ranks: not an MPI run) and the time per run the
   * slowest rank spent in MPI calls (tbmpi.h's communication clock). */
  int ranks, nodes;
  double comm_ms;
} tb_result_t;

typedef struct tb_results {
  tb_result_t *r;
  int n, cap;
} tb_results_t;

/* Append a copy of *row (the list takes over its cells' text). */
int tb_results_push(tb_results_t *res, const tb_result_t *row);
void tb_results_free(tb_results_t *res);

/* Free the text a row's cells hold. */
void tb_result_free(tb_result_t *row);

/* Derived figures of a row (NaN where not meaningful). */
double tb_result_bytes(const tb_result_t *r); /* read plus written */
double tb_result_gbs(const tb_result_t *r);
double tb_result_gflops(const tb_result_t *r);
double tb_result_cv(const tb_result_t *r); /* stddev / mean of the repeats */
double tb_result_intensity(const tb_result_t *r); /* flops per byte */
double tb_result_j_per_gb(const tb_result_t *r);  /* energy_j over GB moved */

/* The roofline: the least time the row's ceilings allow for its cost,
 * max(bytes / ceiling_gbs, flops / ceiling_gflops), in ms; whether the
 * flops term is the larger (compute-bound); and that least time over the
 * median, the fraction of the attainable min(peak, intensity x bandwidth)
 * the row reached. */
double tb_result_bound_ms(const tb_result_t *r);
int tb_result_compute_bound(const tb_result_t *r);
double tb_result_roofline(const tb_result_t *r);

/* The memory ceiling of a cost's read:write mix, the nearest by the
 * written fraction of its bytes: read-only (0; a sum's one result), 2:1
 * (1/3) or 1:1 (1/2); the gather ceiling for a cost of random accesses. */
int tb_cost_mem_ceiling(const tb_cost_t *c);

/* A memory ceiling's read:write mix ("read-only", "1:1", "2:1", "random")
 * and a ceiling's short name ("read", "copy", "triad", "fp32", "fp64",
 * "gather"); whether a kind is of memory (GB/s) or of compute (GFLOP/s). */
const char *tb_ceiling_mix_name(int kind);
const char *tb_ceiling_name(int kind);
int tb_ceiling_is_memory(int kind);

/* The compute ceiling of a cost in a precision: FP32 or FP64, or -1 when
 * it counts no flops (integers count none). */
int tb_cost_compute_ceiling(const tb_cost_t *c, tb_prec_t prec);

/* What makes a row's figures suspect; each carries a note in every format. */
#define TB_ROOFLINE_ABOVE 1.05 /* above its roofline by more than noise */
#define TB_CV_NOISY 0.05       /* repeats spread by more than 5% */
enum tb_row_flags {
  TB_FLAG_ABOVE = 1u << 0,  /* roofline > TB_ROOFLINE_ABOVE */
  TB_FLAG_CACHED = 1u << 1, /* its arrays fit in the backend's cache */
  TB_FLAG_NOISY = 1u << 2,  /* cv > TB_CV_NOISY */
  TB_FLAG_ENERGY_SHORT = 1u << 3 /* the energy window stayed too short to tell */
};
unsigned tb_result_flags(const tb_result_t *r);

/* The flags as words ("above-ceiling in-cache noisy"), and as sentences
 * for a note; "" when none. */
void tb_result_flag_words(const tb_result_t *r, char *buf, size_t len);
void tb_result_flag_note(const tb_result_t *r, char *buf, size_t len);

/* The row's note: its check's, then the flags' (what the note column and
 * the table's notes hold); "" when none. */
void tb_result_note(const tb_result_t *r, char *buf, size_t len);
double tb_result_xfer_ms(const tb_result_t *r);         /* pinned H2D + D2H */
double tb_result_e2e_ms(const tb_result_t *r);          /* with pinned transfers */
double tb_result_e2e_pageable_ms(const tb_result_t *r); /* with pageable transfers */

/* The value of a row's configuration column or tuning parameter called
 * name: NULL when it has none. */
const tb_cell_t *tb_result_cell(const tb_result_t *r, const char *name);

/* What ran, as text: "omp threads=4 placement=cores" or "vec16 block=256
 * grid=4224": the variant, then its configuration's short columns and its
 * tuning values. */
void tb_result_config_text(const tb_result_t *r, char *buf, size_t len);

/* The backend configuration alone: "threads=4 placement=cores" ("" for a
 * backend whose configurations have no short columns). */
void tb_result_configuration(const tb_result_t *r, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
