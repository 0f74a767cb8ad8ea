/* twinbench: result rows and their output (table, CSV, JSON).
 *
 * Every row carries the same core columns, then the algorithm's parameters,
 * then the algorithm's own columns; README.md documents the schema. */
#ifndef TB_RESULT_H
#define TB_RESULT_H

#include <stdio.h>

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

typedef enum tb_format { TB_FMT_TABLE, TB_FMT_CSV, TB_FMT_JSON } tb_format_t;
int tb_format_parse(const char *s, int *format);

/* What a report says about the run besides its rows. */
typedef struct tb_report {
  const tb_algo_t *algo;
  const tb_topo_t *topo;
  int have_gpu;
  tb_device_info_t gpu;
  const char *gpu_absent_reason;
  const char *command_line;
  int interrupted;
} tb_report_t;

/* Write the rows (and, for JSON, the environment and the speedups). */
int tb_report_write(FILE *f, int format, const tb_results_t *res, const tb_report_t *rep);

/* The CPU-vs-GPU speedup summary as text; writes nothing when no problem ran
 * on both backends. */
void tb_report_speedups(FILE *f, const tb_results_t *res);

/* Check a --pivot specification (ROWS:COL[:CELL]) against algo's columns. */
int tb_pivot_check(const tb_algo_t *algo, const char *spec);

/* The results as a table: one row per distinct value of the ROWS columns
 * (joined with +), one column per value of COL, each cell the best CELL
 * (default gbs; lowest for *_ms and error, highest otherwise), then each
 * row's best, where it was, and its ratio to the first row's best. */
int tb_report_pivot(FILE *f, const tb_results_t *res, const tb_algo_t *algo, const char *spec);

/* Open a temporary file beside path for writing; tb_outfile_commit renames it
 * over path, tb_outfile_abort removes it. */
typedef struct tb_outfile {
  FILE *f;
  char *path;
  char *tmp;
} tb_outfile_t;
int tb_outfile_open(tb_outfile_t *o, const char *path);
int tb_outfile_commit(tb_outfile_t *o);
void tb_outfile_abort(tb_outfile_t *o);

#ifdef __cplusplus
}
#endif
#endif
