/* twinbench: text and Markdown tables. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "grid.h"

/* Room for `rows` rows, the heading included. */
static int tb_grid_grow(tb_grid_t *g, int rows)
{
  if (g->failed)
    return -1;
  if (rows <= g->cap)
    return 0;
  int cap = rows < 16 ? 16 : 2 * rows;
  char **cell = realloc(g->cell, (size_t)cap * (size_t)g->ncols * sizeof *cell);
  if (cell)
    g->cell = cell;
  char **trail = realloc(g->trail, (size_t)cap * sizeof *trail);
  if (trail)
    g->trail = trail;
  if (!cell || !trail) {
    g->failed = 1;
    return -1;
  }
  memset(g->cell + (size_t)g->cap * (size_t)g->ncols, 0,
         (size_t)(cap - g->cap) * (size_t)g->ncols * sizeof *cell);
  memset(g->trail + g->cap, 0, (size_t)(cap - g->cap) * sizeof *trail);
  g->cap = cap;
  return 0;
}

void tb_grid_init(tb_grid_t *g, int ncols)
{
  memset(g, 0, sizeof *g);
  g->ncols = ncols;
  g->left = calloc((size_t)ncols + 1, 1);
  g->failed = !g->left;
  tb_grid_grow(g, 1);
}

void tb_grid_free(tb_grid_t *g)
{
  for (size_t i = 0; g->cell && i < (size_t)g->cap * (size_t)g->ncols; i++)
    free(g->cell[i]);
  for (int r = 0; g->trail && r < g->cap; r++)
    free(g->trail[r]);
  free(g->cell);
  free(g->trail);
  free(g->left);
  memset(g, 0, sizeof *g);
}

int tb_grid_row(tb_grid_t *g)
{
  if (tb_grid_grow(g, g->nrows + 2))
    return -1;
  return g->nrows++;
}

static void tb_grid_put(tb_grid_t *g, int at, const char *text)
{
  if (g->failed || !text || !*text)
    return;
  free(g->cell[at]);
  if (!(g->cell[at] = strdup(text)))
    g->failed = 1;
}

void tb_grid_head(tb_grid_t *g, int c, const char *text, int left)
{
  if (g->failed)
    return;
  g->left[c] = (unsigned char)left;
  tb_grid_put(g, c, text);
}

void tb_grid_set(tb_grid_t *g, int row, int c, const char *text)
{
  if (row >= 0 && row < g->nrows)
    tb_grid_put(g, (row + 1) * g->ncols + c, text);
}

void tb_grid_trail(tb_grid_t *g, int row, const char *text)
{
  if (g->failed || row < 0 || row >= g->nrows)
    return;
  free(g->trail[row]);
  if (!(g->trail[row] = strdup(text)))
    g->failed = 1;
}

static const char *tb_grid_at(const tb_grid_t *g, int r, int c)
{
  const char *s = g->cell[r * g->ncols + c];
  return s ? s : "-";
}

static int tb_grid_col_width(const tb_grid_t *g, int c)
{
  int w = 1;
  for (int r = 0; r <= g->nrows; r++) {
    int l = (int)strlen(tb_grid_at(g, r, c));
    w = l > w ? l : w;
  }
  return w;
}

int tb_grid_width(const tb_grid_t *g)
{
  int w = 0, trail = 0;
  for (int c = 0; !g->failed && c < g->ncols; c++)
    w += tb_grid_col_width(g, c) + (c ? 2 : 0);
  for (int r = 0; !g->failed && r < g->nrows; r++)
    if (g->trail[r] && (int)strlen(g->trail[r]) + 2 > trail)
      trail = (int)strlen(g->trail[r]) + 2;
  return w + trail;
}

/* A Markdown cell: a pipe would end it. */
static void tb_md_cell(FILE *f, const char *s)
{
  fputc(' ', f);
  for (; *s; s++) {
    if (*s == '|')
      fputc('\\', f);
    fputc(*s, f);
  }
  fputs(" |", f);
}

void tb_grid_print(FILE *f, const tb_grid_t *g, int markdown)
{
  if (g->failed || g->ncols == 0)
    return;
  int *w = malloc((size_t)g->ncols * sizeof *w);
  if (!w)
    return;
  for (int c = 0; c < g->ncols; c++)
    w[c] = tb_grid_col_width(g, c);
  /* Markdown has no text after a row: the trailing notes get a column. */
  int notes = 0;
  for (int r = 0; r < g->nrows; r++)
    notes |= g->trail[r] != NULL;
  for (int r = 0; r <= g->nrows; r++) {
    if (markdown) {
      fputc('|', f);
      for (int c = 0; c < g->ncols; c++)
        tb_md_cell(f, tb_grid_at(g, r, c));
      if (notes)
        tb_md_cell(f, r == 0 ? "note" : g->trail[r - 1] ? g->trail[r - 1] : "");
      fputc('\n', f);
      if (r == 0) {
        fputc('|', f);
        for (int c = 0; c < g->ncols; c++)
          fputs(g->left[c] ? " --- |" : " ---: |", f);
        fputs(notes ? " --- |\n" : "\n", f);
      }
      continue;
    }
    for (int c = 0; c < g->ncols; c++) {
      const char *s = tb_grid_at(g, r, c);
      if (c == g->ncols - 1 && g->left[c] && !(r > 0 && g->trail[r - 1]))
        fprintf(f, "%s%s", c ? "  " : "", s); /* no trailing blanks */
      else
        fprintf(f, g->left[c] ? "%s%-*s" : "%s%*s", c ? "  " : "", w[c], s);
    }
    if (r > 0 && g->trail[r - 1])
      fprintf(f, "  %s", g->trail[r - 1]);
    fputc('\n', f);
  }
  free(w);
}

void tb_comment(FILE *f, int markdown, const char *text)
{
  if (markdown) {
    fprintf(f, "%s\n\n", text);
    return;
  }
  const char *s = text;
  int col = 0, line = 0;
  while (*s) {
    while (*s == ' ')
      s++;
    size_t l = strcspn(s, " ");
    if (!l)
      break;
    if (col == 0) {
      col = fprintf(f, line ? "#   " : "# ");
    } else if (col + 1 + (int)l > TB_TABLE_WIDTH) {
      fputc('\n', f);
      line++;
      col = fprintf(f, "#   ");
    } else
      col += fprintf(f, " ");
    col += (int)fwrite(s, 1, l, f);
    s += l;
  }
  if (col)
    fputc('\n', f);
}
