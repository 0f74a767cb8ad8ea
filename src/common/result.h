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
  double median_ms, min_ms, max_ms;
  tb_xfer_t xfer;
  double bytes, flops; /* per run, from the algorithm's cost model */
  double limit_gbs;    /* the measured limit of this configuration */
  tb_check_t check;
  double extra[TB_MAX_COLUMNS];
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
double tb_result_gbs(const tb_result_t *r);
double tb_result_gflops(const tb_result_t *r);
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
