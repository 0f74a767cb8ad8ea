/* twinbench: reports of a run's rows (table, CSV, JSON) and their views
 * (the speedup summary and the pivot table). */
#ifndef TB_REPORT_H
#define TB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "columns.h"
#include "registry.h"
#include "result.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tb_format { TB_FMT_TABLE, TB_FMT_CSV, TB_FMT_JSON, TB_FMT_MARKDOWN } tb_format_t;
int tb_format_parse(const char *s, int *format);
/* The format a file name's extension names (.txt, .csv, .json, .md), or -1. */
int tb_format_of_path(const char *path);

/* What a report says about the run besides its rows. */
/* The version of the JSON report's layout (doc/report.schema.json). */
#define TB_REPORT_SCHEMA_VERSION 2

typedef struct tb_report {
  const tb_algo_t *algo;
  const tb_topo_t *topo;
  const tb_colset_t *cols; /* the columns of the rows */
  const char *command_line;
  int interrupted;
  uint64_t seed;
  int repeats, warmups, verify;
  const int *columns;  /* --columns: the table's columns (indices into cols), or NULL */
  int ncolumns;
  int wide;            /* --wide: every column in the table */
  double min_time, max_noise; /* the adaptive repeats' --min-time (s) and --max-noise (cv); 0: off */
  /* Per backend the run used: what its energy counters count, or why it
   * has none (NULL: not used). */
  const char *energy[TB_MAX_BACKENDS];
} tb_report_t;

/* Write the rows (and, for JSON, the environment and the speedups). */
int tb_report_write(FILE *f, int format, const tb_results_t *res, const tb_report_t *rep);

/* The speedup summary as text or Markdown: for each problem that ran on two
 * backends, the best of each and the first's time over the other's; writes
 * nothing when no problem did. */
void tb_report_speedups(FILE *f, const tb_results_t *res, int markdown);

/* The table (text or Markdown) of report_table.c. */
int tb_report_table(FILE *f, const tb_results_t *res, const tb_report_t *rep, int markdown);

/* What the size counts, how times, bandwidth and the roofline were taken, and
 * (unless brief) what the error is, as a comment of the table (text or
 * Markdown) or CSV. */
void tb_report_heading(FILE *f, const tb_report_t *rep, int markdown, int brief);

/* The columns a --columns list names, as indices into cols, into a fresh
 * array *columns of *n (free it); an unknown name is TB_EINVAL. */
int tb_columns_parse(const tb_colset_t *cols, const char *spec, int **columns, int *n);

/* Check a --pivot specification (ROWS:COL[:CELL]) against the columns. */
int tb_pivot_check(const tb_colset_t *cols, const char *spec);

/* The results as a table: one row per distinct value of the ROWS columns
 * (joined with +), one column per value of COL, each cell the best CELL
 * (default gbs; lowest for *_ms, error, energy_j and j_per_gb, highest otherwise), then each
 * row's best, where it was, and its ratio to the first row's best. */
int tb_report_pivot(FILE *f, const tb_results_t *res, const tb_colset_t *cols, const char *spec);

#ifdef __cplusplus
}
#endif
#endif
