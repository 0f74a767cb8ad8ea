/* twinbench: the columns of result rows, as every output format and view
 * sees them: the core columns, then the algorithm's parameters, then its own
 * columns (internal to the output modules). */
#ifndef TB_COLUMNS_H
#define TB_COLUMNS_H

#include <stdio.h>

#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One cell: empty, text, or a number with its formats for tables and CSV/JSON. */
typedef struct tb_val {
  int kind; /* 0 empty, 1 text, 2 number */
  double num;
  const char *table_fmt;
  double table_mul; /* the table shows num * table_mul */
  char text[1024];
} tb_val_t;

enum {
  C_ALGO, C_VARIANT, C_BACKEND, C_PREC, C_SIZE, C_THREADS, C_PLACEMENT, C_BLOCK, C_GRID,
  C_MEDIAN, C_MIN, C_MAX, C_XFER, C_E2E, C_GBS, C_GFLOPS, C_LIMIT, C_FRAC, C_VERIFIED,
  C_ERROR, C_H2D_PAGEABLE, C_D2H_PAGEABLE, C_H2D_PINNED, C_D2H_PINNED, C_E2E_PAGEABLE,
  C_BINDING, C_BINDING_OK, C_NCORE
};

/* The core columns' names in CSV and JSON, and in the table (NULL: not shown there). */
struct tb__core_col {
  const char *name;
  const char *table_name;
};
extern const struct tb__core_col tb__core[C_NCORE];

void tb__val_text(tb_val_t *v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void tb__val_num(tb_val_t *v, double x, const char *table_fmt);
const char *tb__verdict_name(tb_verdict_t v);

/* The value of core column col of row r. */
void tb__core_value(const tb_result_t *r, int col, tb_val_t *v);

/* The number of columns of algorithm a, a column's name (the table's with
 * table set: NULL when the table does not show it) and a row's value. */
int tb__ncols(const tb_algo_t *a);
const char *tb__col_name(const tb_algo_t *a, int col, int table);
void tb__value(const tb_result_t *r, int col, tb_val_t *v);

/* The cell as CSV/JSON text, and as the table shows it. */
const char *tb__plain(const tb_val_t *v, char *buf, size_t len);
const char *tb__tabled(const tb_val_t *v, char *buf, size_t len);

/* The best rows of each problem that ran on both backends. */
typedef struct tb__speedup {
  const tb_result_t *cpu, *gpu, *gpu_pinned, *gpu_pageable;
  double kernel, pinned, pageable; /* best CPU over best GPU: kernel, with transfers */
} tb__speedup_t;

/* The speedups of res into a fresh array *out (free it); returns their count. */
int tb__speedups(const tb_results_t *res, tb__speedup_t **out);

/* A row's configuration as text: "omp t=4 cores", "vec16 b=256 g=1024". */
void tb__config_text(const tb_result_t *r, char *buf, size_t len);

/* The JSON report (report_json.c). */
struct tb_report;
void tb__write_json(FILE *f, const tb_results_t *res, const struct tb_report *rep);

#ifdef __cplusplus
}
#endif
#endif
