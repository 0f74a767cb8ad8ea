/* twinbench: the option pricing algorithms' inputs: generation and the CSV reader. */
#include <config.h>

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options_io.h"
#include "../common/refmath.h"
#include "../common/rng.h"
#include "../common/textfile.h"

enum { TB_COL_S, TB_COL_X, TB_COL_T, TB_COL_R, TB_COL_V, TB_NCOLS };

/* The columns of a CSV file: their names, defaults (NAN: required) and ranges. */
static const struct {
  const char *name;
  double dflt, lo, hi;
  int lo_open; /* the lower end is excluded */
} tb_cols[TB_NCOLS] = {
    {"S", NAN, 0.0, 1e9, 1},
    {"X", NAN, 0.0, 1e9, 1},
    {"T", NAN, 0.0, 100.0, 1},
    {"r", TB_OPTIONS_R, -1.0, 1.0, 0},
    {"v", TB_OPTIONS_V, 0.0, 5.0, 1},
};

/* What a pass over a file learned: the count, and whether r and v vary. */
typedef struct tb_csv_summary {
  int64_t n;
  double first[TB_NCOLS];
  int varies[TB_NCOLS];
} tb_csv_summary_t;

/* The text of s without leading and trailing blanks, in place. */
static char *tb_trim(char *s)
{
  while (isspace((unsigned char)*s))
    s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1]))
    *--e = '\0';
  return s;
}

/* Split line at commas into at most max fields; returns the count (max + 1 if more). */
static int tb_split(char *line, char **field, int max)
{
  int n = 0;
  for (char *p = line;; p++) {
    char *c = strchr(p, ',');
    if (n == max)
      return max + 1;
    field[n++] = p;
    if (!c)
      return n;
    *c = '\0';
    p = c;
  }
}

/* Map the header's fields to columns (col[k] = the column of field k). */
static int tb_header(const char *path, long long lineno, char *line, int *col, int *nfields)
{
  char *field[TB_NCOLS + 1];
  int seen[TB_NCOLS] = {0};
  int n = tb_split(line, field, TB_NCOLS);
  if (n > TB_NCOLS)
    return tb_fail(TB_EINVAL, "%s:%lld: the header has more than %d columns (expected S,X,T[,r,v])",
                   path, lineno, TB_NCOLS);
  for (int k = 0; k < n; k++) {
    char *name = tb_trim(field[k]);
    int c = 0;
    while (c < TB_NCOLS && strcasecmp(name, tb_cols[c].name))
      c++;
    if (c == TB_NCOLS)
      return tb_fail(TB_EINVAL, "%s:%lld: unknown column '%s' in the header (expected S,X,T[,r,v])",
                     path, lineno, name);
    if (seen[c]++)
      return tb_fail(TB_EINVAL, "%s:%lld: column %s is named twice in the header", path, lineno,
                     tb_cols[c].name);
    col[k] = c;
  }
  for (int c = TB_COL_S; c <= TB_COL_T; c++)
    if (!seen[c])
      return tb_fail(TB_EINVAL, "%s:%lld: the header has no column %s (expected S,X,T[,r,v])",
                     path, lineno, tb_cols[c].name);
  *nfields = n;
  return TB_OK;
}

/* One data line: the five values of an option, checked. */
static int tb_row(const char *path, long long lineno, char *line, const int *col, int nfields,
                  double *val)
{
  char *field[TB_NCOLS + 1];
  int n = tb_split(line, field, TB_NCOLS);
  if (n != nfields)
    return tb_fail(TB_EINVAL, "%s:%lld: %s%d fields, but the header names %d", path, lineno,
                   n > TB_NCOLS ? "more than " : "", n > TB_NCOLS ? TB_NCOLS : n, nfields);
  for (int c = 0; c < TB_NCOLS; c++)
    val[c] = tb_cols[c].dflt;
  for (int k = 0; k < n; k++) {
    int c = col[k];
    char *text = tb_trim(field[k]), *end;
    if (!*text) {
      if (isnan(tb_cols[c].dflt))
        return tb_fail(TB_EINVAL, "%s:%lld: %s is empty", path, lineno, tb_cols[c].name);
      continue;
    }
    double x = strtod(text, &end);
    if (*end || end == text || !isfinite(x))
      return tb_fail(TB_EINVAL, "%s:%lld: %s is '%s', not a finite number", path, lineno,
                     tb_cols[c].name, text);
    if (x > tb_cols[c].hi || x < tb_cols[c].lo || (tb_cols[c].lo_open && x == tb_cols[c].lo))
      return tb_fail(TB_EINVAL, "%s:%lld: %s = %s is outside %c%g, %g]", path, lineno,
                     tb_cols[c].name, text, tb_cols[c].lo_open ? '(' : '[', tb_cols[c].lo,
                     tb_cols[c].hi);
    val[c] = x;
  }
  return TB_OK;
}

/* Store value x at element i of array a (in the problem's precision). */
static void tb_store(tb_array_t *a, int64_t i, double x)
{
  if (a->kind == TB_KIND_F32)
    ((float *)a->host)[i] = (float)x;
  else
    ((double *)a->host)[i] = x;
}

/* Read and check the CSV file of options at path into o->file (five values
 * an option, in column order), and what sum says of them. */
static int tb_csv_read(const char *path, tb_optset_t *o, tb_csv_summary_t *sum)
{
  tb_textfile_t f;
  char *text;
  int64_t lineno, cap = 0;
  int col[TB_NCOLS], nfields = 0, have_header = 0;
  int rc = tb_textfile_read(&f, path, TB_OPTIONS_MAX_BYTES);
  memset(sum, 0, sizeof *sum);
  while (!rc && tb_textfile_next(&f, &text, &lineno)) {
    text = tb_trim(text);
    if (!*text || *text == '#')
      continue;
    if (!have_header) {
      rc = tb_header(path, lineno, text, col, &nfields);
      have_header = 1;
      continue;
    }
    if (sum->n == cap) {
      cap = cap ? 2 * cap : 1024;
      double *v = realloc(o->file, (size_t)cap * TB_NCOLS * sizeof *v);
      if (!v) {
        rc = tb_fail(TB_ENOMEM, "%s: out of memory at line %lld", path, (long long)lineno);
        break;
      }
      o->file = v;
    }
    double *val = o->file + sum->n * TB_NCOLS;
    if ((rc = tb_row(path, lineno, text, col, nfields, val)))
      break;
    for (int c = 0; c < TB_NCOLS; c++) {
      if (sum->n == 0)
        sum->first[c] = val[c];
      sum->varies[c] |= val[c] != sum->first[c];
    }
    sum->n++;
  }
  if (!rc && !have_header)
    rc = tb_fail(TB_EINVAL, f.size ? "%s: no header, only blank and comment lines (expected a "
                                     "header S,X,T[,r,v] and one option per line)"
                                   : "%s: empty file (expected a header S,X,T[,r,v] and one "
                                     "option per line)",
                 path);
  else if (!rc && sum->n == 0)
    rc = tb_fail(TB_EINVAL, "%s: no options after the header", path);
  tb_textfile_free(&f);
  return rc;
}

int tb_optset_setup(tb_problem_t *p, tb_optset_t *o)
{
  tb_kind_t k = tb_prec_kind(p->prec);
  tb_csv_summary_t sum;
  memset(&sum, 0, sizeof sum);
  o->r0 = TB_OPTIONS_R;
  o->v0 = TB_OPTIONS_V;
  o->file = NULL;
  if (p->input_path) {
    /* Read once, here: generate takes the options from o->file, so that a
     * FIFO or a pipe is not opened again and a file cannot change between. */
    int rc = tb_csv_read(p->input_path, o, &sum);
    if (rc)
      return rc;
    p->n = sum.n;
    p->extra_host_bytes += sum.n * TB_NCOLS * (int64_t)sizeof *o->file;
    o->r0 = sum.first[TB_COL_R];
    o->v0 = sum.first[TB_COL_V];
  }
  /* At most five arrays here, well under TB_MAX_ARRAYS: these cannot fail. */
  o->s = tb_problem_add_array(p, "S", k, TB_IN, p->n);
  o->x = tb_problem_add_array(p, "X", k, TB_IN, p->n);
  o->t = tb_problem_add_array(p, "T", k, TB_IN, p->n);
  /* Rates and volatilities that vary become arrays, both of them, so that a
   * kernel has two forms only: scalars or arrays. */
  o->r = o->v = -1;
  if (sum.varies[TB_COL_R] || sum.varies[TB_COL_V]) {
    o->r = tb_problem_add_array(p, "r", k, TB_IN, p->n);
    o->v = tb_problem_add_array(p, "v", k, TB_IN, p->n);
  }
  return TB_OK;
}

int tb_optset_generate(tb_problem_t *p, const tb_optset_t *o)
{
  if (o->file) {
    const int idx[TB_NCOLS] = {o->s, o->x, o->t, o->r, o->v};
    for (int64_t i = 0; i < p->n; i++)
      for (int c = 0; c < TB_NCOLS; c++)
        if (idx[c] >= 0)
          tb_store(&p->array[idx[c]], i, o->file[i * TB_NCOLS + c]);
    return TB_OK;
  }
  tb_rng_uniform(p->prec, p->array[o->s].host, p->n, p->seed, 1, 5.0, 30.0);
  tb_rng_uniform(p->prec, p->array[o->x].host, p->n, p->seed, 2, 1.0, 100.0);
  tb_rng_uniform(p->prec, p->array[o->t].host, p->n, p->seed, 3, 0.25, 10.0);
  return TB_OK;
}

void tb_optset_free(tb_optset_t *o)
{
  free(o->file);
  o->file = NULL;
}

double tb_optset_elem(const tb_problem_t *p, const void *a, int64_t i)
{
  return (double)tb_elem_ld(a, p->prec, i);
}

/* Element i of input array a, or the scalar x when a is -1, as the variants see it. */
static double tb_input(const tb_problem_t *p, int a, int64_t i, double x)
{
  if (a < 0)
    return p->prec == TB_FLOAT ? (double)(float)x : x;
  return tb_optset_elem(p, p->array[a].host, i);
}

void tb_optset_get(const tb_problem_t *p, const tb_optset_t *o, int64_t i, tb_option_t *opt)
{
  opt->s = tb_input(p, o->s, i, 0.0);
  opt->x = tb_input(p, o->x, i, 0.0);
  opt->t = tb_input(p, o->t, i, 0.0);
  opt->r = tb_input(p, o->r, i, o->r0);
  opt->v = tb_input(p, o->v, i, o->v0);
}

void tb_optset_file_get(const tb_optset_t *o, int64_t i, tb_option_t *opt)
{
  const double *row = o->file + i * TB_NCOLS;
  opt->s = row[TB_COL_S];
  opt->x = row[TB_COL_X];
  opt->t = row[TB_COL_T];
  opt->r = row[TB_COL_R];
  opt->v = row[TB_COL_V];
}

void tb_optset_cost(const tb_problem_t *p, const tb_optset_t *o, int outputs, tb_cost_t *c)
{
  const double array = (double)p->n * (double)tb_kind_size(tb_prec_kind(p->prec));
  c->read = (3 + (o->r >= 0) + (o->v >= 0)) * array;
  c->written = outputs * array;
}

void tb_optset_dump_row(FILE *f, const tb_problem_t *p, const tb_optset_t *o, int64_t i)
{
  tb_option_t opt;
  int digits = tb_prec_digits(p->prec);
  tb_optset_get(p, o, i, &opt);
  fprintf(f, "%.*g,%.*g,%.*g,%.*g,%.*g", digits, opt.s, digits, opt.x, digits, opt.t, digits,
          opt.r, digits, opt.v);
}
