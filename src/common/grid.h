/* twinbench: a grid of text cells printed as an aligned text table or as a
 * Markdown table, and comment lines wrapped to the table's width. */
#ifndef TB_GRID_H
#define TB_GRID_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The width the table and its comments keep to. */
#define TB_TABLE_WIDTH 120

typedef struct tb_grid {
  int ncols, nrows, cap;
  char **cell;         /* (nrows + 1) x ncols, row 0 the heading; NULL: empty */
  unsigned char *left; /* per column: aligned left (text) rather than right */
  char **trail;        /* per row: text after the last cell, or NULL */
  int failed;          /* an allocation failed: the grid prints nothing */
} tb_grid_t;

void tb_grid_init(tb_grid_t *g, int ncols);
void tb_grid_free(tb_grid_t *g);
/* Set the heading of column c. */
void tb_grid_head(tb_grid_t *g, int c, const char *text, int left);
/* Start a new row; returns its index. */
int tb_grid_row(tb_grid_t *g);
/* Set cell (row, c) of a row tb_grid_row started; "" or NULL shows as "-". */
void tb_grid_set(tb_grid_t *g, int row, int c, const char *text);
void tb_grid_trail(tb_grid_t *g, int row, const char *text);
/* The width of the grid as text, the rows' trailing text included. */
int tb_grid_width(const tb_grid_t *g);
/* Print it: aligned text with two spaces between columns, or Markdown. */
void tb_grid_print(FILE *f, const tb_grid_t *g, int markdown);

/* A comment: in text, lines of "# " words wrapped at TB_TABLE_WIDTH
 * (continuation lines indented); in Markdown, one paragraph. */
void tb_comment(FILE *f, int markdown, const char *text);

#ifdef __cplusplus
}
#endif
#endif
