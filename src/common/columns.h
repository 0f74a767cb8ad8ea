/* twinbench: the columns of a run's rows, as every output format and view
 * sees them: what ran and the problem's size, the backends' configuration
 * columns, the variants' tuning parameters, the timings and figures, the
 * backends' long columns, then the algorithm's parameters and its own
 * columns. The set is built from the backends and variants a run may use,
 * so that the formats carry the same columns whatever ran. */
#ifndef TB_COLUMNS_H
#define TB_COLUMNS_H

#include <stdio.h>

#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The core columns: what ran, then (after the configuration and tuning
 * columns) the figures; the note of a check comes last of all, after the
 * algorithm's columns (free text: the one column that may hold commas). */
enum {
  C_ALGO, C_VARIANT, C_BACKEND, C_PREC, C_SIZE, C_NHEAD,
  C_MEDIAN = C_NHEAD, C_MIN, C_MAX, C_MEAN, C_STDDEV, C_CV, C_XFER, C_E2E, C_GBS, C_GFLOPS,
  C_CEIL_GBS, C_CEIL_GFLOPS, C_INTENSITY, C_BOUND, C_ROOFLINE, C_VERIFIED, C_ERROR, C_TOLERANCE,
  C_REPEATS, C_BYTES, C_BYTES_READ, C_BYTES_WRITTEN, C_FLOPS, C_MIX, C_FLAGS, C_H2D_PAGEABLE,
  C_D2H_PAGEABLE, C_H2D_PINNED, C_D2H_PINNED, C_E2E_PAGEABLE, C_ENERGY, C_AVG_W, C_J_PER_GB,
  C_RANKS, C_NODES, C_COMM_MS, C_NOTE, C_NCORE
};

/* The energy columns (C_ENERGY ... C_J_PER_GB, and a _per_j twin of each of
 * the algorithm's _per_s rate columns) are in a set only where a backend of
 * the run can read its energy counters. */
#define TB_RATE_SUFFIX "_per_s"
#define TB_ENERGY_RATE_SUFFIX "_per_j"

/* How the table shows a column (CSV and JSON carry every column). */
typedef enum tb_show {
  TB_SHOW_ALWAYS, /* a figure every row has: always a column */
  TB_SHOW_KEY,    /* says what ran: a column where it varies, else once above the table */
  TB_SHOW_FIGURE, /* a measured figure: a column, the first to go when the table is too wide */
  TB_SHOW_HIDDEN  /* only with --wide or --columns */
} tb_show_t;

typedef enum tb_col_kind {
  TB_CK_CORE,   /* index: C_* */
  TB_CK_CONFIG, /* a backend's configuration column, by name */
  TB_CK_TUNE,   /* a variant's tuning parameter, by name */
  TB_CK_PARAM,  /* index: the algorithm's parameter */
  TB_CK_EXTRA,  /* index: the algorithm's column */
  TB_CK_PER_J   /* index: the algorithm's rate column whose items per joule this counts */
} tb_col_kind_t;

typedef struct tb_col {
  tb_col_kind_t kind;
  int index;
  const char *name;   /* in every format */
  tb_show_t show;     /* in the table */
  int drop;           /* TB_SHOW_FIGURE: the higher, the sooner it leaves a too-wide table */
  const char *format; /* the table's printf format of a number */
  unsigned flags;     /* TB_COL_* */
} tb_col_t;

#define TB_MAX_COLS 160

typedef struct tb_colset {
  const tb_algo_t *algo;
  int n;
  tb_col_t col[TB_MAX_COLS];
  int npending; /* the backends' and variants' columns until tb_colset_end orders them */
  tb_col_t pending[TB_MAX_COLS];
  int energy;   /* set before tb_colset_end: the energy columns are wanted */
  int mpi;      /* set before tb_colset_end: an MPI run, with the ranks columns */
  char per_j_name[TB_MAX_COLUMNS][64]; /* the names of the TB_CK_PER_J columns */
} tb_colset_t;

/* Start a set for algo, add every backend and variant the run may use
 * (columns of the same name appear once), and finish it in its order. */
void tb_colset_begin(tb_colset_t *cs, const tb_algo_t *algo);
void tb_colset_add_backend(tb_colset_t *cs, const tb_backend_t *be);
void tb_colset_add_variant(tb_colset_t *cs, const tb_variant_t *v);
void tb_colset_end(tb_colset_t *cs);

/* The index of the column called name (CSV names), or -1. */
int tb_colset_find(const tb_colset_t *cs, const char *name);

/* One cell: empty, text, or a number with its formats for tables and CSV/JSON. */
typedef struct tb_val {
  int kind; /* 0 empty, 1 text, 2 number */
  double num;
  const char *table_fmt;
  char text[1024];
} tb_val_t;

/* The value of column c of row r. */
void tb_colset_value(const tb_colset_t *cs, const tb_result_t *r, int c, tb_val_t *v);

/* The cell as CSV/JSON text, and as the table shows it. */
const char *tb__plain(const tb_val_t *v, char *buf, size_t len);
const char *tb__tabled(const tb_val_t *v, char *buf, size_t len);

/* The best rows of each problem on a backend and on the reference backend
 * (the first, in registry order, that has rows). */
typedef struct tb__speedup {
  const tb_result_t *ref, *other, *other_pinned, *other_pageable;
  double kernel, pinned, pageable; /* best reference over best other: kernel, with transfers */
  double hardware; /* what the two rows' ceilings predict for kernel: their roofline times' ratio */
  double energy;   /* the best rows' joules per run, reference over other; NaN unless both have */
} tb__speedup_t;

/* The speedups of res into a fresh array *out (free it); returns their count. */
int tb__speedups(const tb_results_t *res, tb__speedup_t **out);

/* The JSON report (report_json.c). */
struct tb_report;
void tb__write_json(FILE *f, const tb_results_t *res, const struct tb_report *rep);
/* One CSV field, quoted when it holds a separator, a quote or a line end;
 * a comma before it unless it is the first of its line. */
void tb__csv_field(FILE *f, const char *s, int first);

/* One row as the JSON report's "results" hold it (an object on one line). */
void tb__json_row(FILE *f, const tb_colset_t *cs, const tb_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
