/* twinbench: result rows, one per measured configuration, and the figures
 * derived from them. Every row carries the same core columns, then the
 * algorithm's parameters, then the algorithm's own columns; README.md
 * documents the schema. */
#ifndef TB_RESULT_H
#define TB_RESULT_H

#include "algo.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tb_result {
  const tb_algo_t *algo;
  const tb_variant_t *variant;
  int backend;
  tb_prec_t prec;
  int64_t n;
  tb_param_value_t param[TB_MAX_PARAMS];
  int threads;   /* CPU team size; 0 for the GPU */
  int placement; /* CPU placement policy; -1 for the GPU */
  int block;     /* GPU threads per block; 0 when not a launch parameter */
  int grid;      /* GPU blocks launched; 0 when not reported */
  int repeats;
  double median_ms, min_ms, max_ms;
  tb_xfer_t xfer;
  double bytes, flops; /* per run, from the algorithm's cost model */
  double limit_gbs;    /* the measured limit of this configuration */
  tb_check_t check;
  double extra[TB_MAX_COLUMNS];
  int nbind;      /* CPU: threads whose binding is recorded */
  int *bind_pu;   /* CPU: OS index of each thread's PU */
  int binding_ok; /* 1 yes, 0 no, -1 not applicable */
  int oversubscribed;
} tb_result_t;

typedef struct tb_results {
  tb_result_t *r;
  int n, cap;
} tb_results_t;

/* Append a copy of *row (the list takes over row->bind_pu). */
int tb_results_push(tb_results_t *res, const tb_result_t *row);
void tb_results_free(tb_results_t *res);

/* Derived figures of a row (NaN where not meaningful). */
double tb_result_gbs(const tb_result_t *r);
double tb_result_gflops(const tb_result_t *r);
double tb_result_xfer_ms(const tb_result_t *r);         /* pinned H2D + D2H */
double tb_result_e2e_ms(const tb_result_t *r);          /* with pinned transfers */
double tb_result_e2e_pageable_ms(const tb_result_t *r); /* with pageable transfers */

#ifdef __cplusplus
}
#endif
#endif
