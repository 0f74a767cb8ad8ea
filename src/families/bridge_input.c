/* twinbench: the Brownian bridge family's readers of user input: order and
 * times files, covariance matrices (inline or in a file) and raw normals.
 * Every error is one line naming the file and the line (text) or the byte
 * offset (binary). */
#include <config.h>

#include <errno.h>
#include <float.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge.h"
#include "../common/mem.h"
#include "../common/parse.h"
#include "../common/textfile.h"

/* The numbers of a text, row by row (a line of a file, or a row of inline
 * text); blank rows are skipped. Messages name a place as "FILE:LINE:" or,
 * for inline text, "TEXT: row ROW:". */
typedef struct tb_table {
  const char *src;
  int inline_text;
  int rows;
  int *cols;  /* numbers on each row */
  int *line;  /* the row's line number (1-based) */
  double *val;
  int nval;
  int ccap, lcap, vcap; /* the room in cols, line and val */
} tb_table_t;

static void tb_table_free(tb_table_t *t)
{
  free(t->cols);
  free(t->line);
  free(t->val);
  t->cols = t->line = NULL;
  t->val = NULL;
}

/* The place of line `line` of t, for messages. */
static const char *tb_table_where(const tb_table_t *t, int line, char *buf, size_t len)
{
  snprintf(buf, len, t->inline_text ? "%s: row %d" : "%s:%d", t->src, line);
  return buf;
}

/* Make room for element n of a growing array of elements of size sz. */
static int tb_grow(void **a, int n, int *cap, size_t sz)
{
  if (n < *cap)
    return TB_OK;
  int c = *cap ? 2 * *cap : 64;
  void *b = realloc(*a, (size_t)c * sz);
  if (!b)
    return tb_fail(TB_ENOMEM, "out of memory");
  *a = b;
  *cap = c;
  return TB_OK;
}

/* Add the numbers of row `text`, line `lineno`, to t. */
static int tb_table_row(tb_table_t *t, char *text, int lineno)
{
  char where[400];
  int count = 0, rc = TB_OK;
  for (char *save = NULL, *tok = strtok_r(text, " \t\r\v\f", &save); tok && !rc;
       tok = strtok_r(NULL, " \t\r\v\f", &save)) {
    double x;
    if (tb_parse_real(tok, &x))
      rc = tb_fail(TB_EINVAL, "%s: %s", tb_table_where(t, lineno, where, sizeof where),
                   tb_error_detail());
    else if (!(rc = tb_grow((void **)&t->val, t->nval, &t->vcap, sizeof *t->val))) {
      t->val[t->nval++] = x;
      count++;
    }
  }
  if (rc || !count)
    return rc;
  if ((rc = tb_grow((void **)&t->cols, t->rows, &t->ccap, sizeof *t->cols)) ||
      (rc = tb_grow((void **)&t->line, t->rows, &t->lcap, sizeof *t->line)))
    return rc;
  t->cols[t->rows] = count;
  t->line[t->rows++] = lineno;
  return TB_OK;
}

/* Read the file at path into t (what says what it is for, in messages). */
static int tb_table_file(const char *path, const char *what, tb_table_t *t)
{
  tb_textfile_t f;
  char *line;
  int64_t lineno;
  int rc = tb_textfile_read(&f, path, TB_BRIDGE_MAX_TEXT);
  if (rc && f.open_errno)
    rc = tb_fail(rc, "cannot open the %s file '%s': %s", what, path, strerror(f.open_errno));
  t->src = path;
  t->inline_text = 0;
  /* The size limit keeps the line count well inside an int. */
  while (!rc && tb_textfile_next(&f, &line, &lineno))
    rc = tb_table_row(t, line, (int)lineno);
  tb_textfile_free(&f);
  if (rc)
    tb_table_free(t);
  return rc;
}

/* Read inline text, rows separated by ';', into t (whose src is set). */
static int tb_table_inline(const char *spec, tb_table_t *t)
{
  char *text = strdup(spec);
  int rc = TB_OK, row = 0;
  if (!text)
    return tb_fail(TB_ENOMEM, "out of memory");
  t->inline_text = 1;
  for (char *r = text, *next; r && !rc; r = next) {
    if ((next = strchr(r, ';')))
      *next++ = '\0';
    rc = tb_table_row(t, r, ++row);
  }
  free(text);
  if (rc)
    tb_table_free(t);
  return rc;
}

/* Each row of t must hold exactly `want` numbers (what names them). */
static int tb_table_cols(const tb_table_t *t, int want, const char *what)
{
  char where[400];
  for (int i = 0; i < t->rows; i++)
    if (t->cols[i] != want)
      return tb_fail(TB_EINVAL, "%s: %d numbers, expected %d %s",
                     tb_table_where(t, t->line[i], where, sizeof where), t->cols[i], want, what);
  return TB_OK;
}

/* A file of n numbers, one per line: the order (time indices) or the times. */
static int tb_table_column(const char *path, int is_order, int n, tb_table_t *t)
{
  const char *noun = is_order ? "time indices" : "times";
  int rc = tb_table_file(path, is_order ? "order" : "times", t);
  if (rc)
    return rc;
  rc = tb_table_cols(t, 1, is_order ? "(a time index)" : "(a time)");
  if (!rc && t->rows == 0)
    rc = tb_fail(TB_EINVAL, "%s holds no %s: expected %d (steps is %d), one per line", path, noun,
                 n, n);
  else if (!rc && t->rows > TB_BRIDGE_MAX_STEPS)
    rc = tb_fail(TB_EINVAL, "%s holds %d %s, more than the %d steps allowed", path, t->rows,
                 noun, TB_BRIDGE_MAX_STEPS);
  else if (!rc && t->rows != n)
    rc = tb_fail(TB_EINVAL, "%s holds %d %s but steps is %d (use --steps %d)", path, t->rows,
                 noun, n, t->rows);
  if (rc)
    tb_table_free(t);
  return rc;
}

int tb__bridge_read_order(const char *path, int n, int *order, int *line)
{
  tb_table_t t = {0};
  int rc = tb_table_column(path, 1, n, &t);
  for (int i = 0; i < n && !rc; i++) {
    double x = t.val[i];
    if (x != floor(x) || x < -1e9 || x > 1e9)
      rc = tb_fail(TB_EINVAL, "%s:%d: %g is not a time index", path, t.line[i], x);
    order[i] = (int)x;
    line[i] = t.line[i];
  }
  tb_table_free(&t);
  return rc;
}

int tb__bridge_read_times(const char *path, int n, double t0, double *t)
{
  tb_table_t tab = {0};
  int rc = tb_table_column(path, 0, n, &tab);
  t[0] = t0;
  for (int i = 0; i < n && !rc; i++) {
    double x = tab.val[i];
    if (!(x > t[i]))
      rc = tb_fail(TB_EINVAL, "%s:%d: time %.17g is not after %s %.17g", path, tab.line[i], x,
                   i ? "the previous time" : "t0 =", t[i]);
    else
      t[i + 1] = x;
  }
  tb_table_free(&tab);
  return rc;
}

/* The lower-triangular Cholesky factor of the d x d matrix s (row-major). */
static int tb_cholesky(const double *s, int d, double *c, const char *what)
{
  memset(c, 0, (size_t)d * (size_t)d * sizeof *c);
  for (int j = 0; j < d; j++) {
    double p = s[j * d + j];
    for (int k = 0; k < j; k++)
      p -= c[j * d + k] * c[j * d + k];
    if (!(p > 0.0))
      return tb_fail(TB_EINVAL, "%s is not positive definite (pivot %d is %g)", what, j + 1, p);
    c[j * d + j] = sqrt(p);
    for (int i = j + 1; i < d; i++) {
      double x = s[i * d + j];
      for (int k = 0; k < j; k++)
        x -= c[i * d + k] * c[j * d + k];
      c[i * d + j] = x / c[j * d + j];
    }
  }
  return TB_OK;
}

/* The variants round C to the run's precision, and their error bound takes
 * each entry rounded with a relative error of at most u. No entry may
 * overflow the precision, and each row must keep an entry in its normal
 * range: a row below it throughout would be lost (subnormals have fewer
 * digits, and a GPU may flush them to zero), while a tiny entry beside a
 * normal one is within the bound. Subnormal entries of Sigma are fine in
 * themselves: the factor of a positive pivot is its square root, far inside
 * the normal range. */
static int tb_chol_fits(const double *c, int d, tb_prec_t prec, const char *src)
{
  const int f = prec == TB_FLOAT;
  const double lo = f ? FLT_MIN : DBL_MIN;
  const char *fix = f ? "scale the matrix or run in double" : "scale the matrix";
  for (int i = 0; i < d; i++) {
    double big = 0.0;
    for (int j = 0; j <= i; j++) {
      const double x = f ? (double)(float)c[i * d + j] : c[i * d + j];
      if (isinf(x))
        return tb_fail(TB_EINVAL, "%s: entry %d,%d of the Cholesky factor, %g, is too large for "
                       "%s: %s", src, i + 1, j + 1, c[i * d + j], tb_prec_name(prec), fix);
      big = fmax(big, fabs(c[i * d + j]));
    }
    if (big < lo)
      return tb_fail(TB_EINVAL, "%s: row %d of the Cholesky factor is below the smallest normal "
                     "%s (%g) throughout (at most %g), and the variants would lose it: %s",
                     src, i + 1, tb_prec_name(prec), lo, big, fix);
  }
  return TB_OK;
}

int tb__bridge_read_matrix(const char *spec, const char *param, int is_chol, int d,
                           tb_prec_t prec, double *sigma, double *chol)
{
  tb_table_t t = {0};
  char src[400];
  int rc;
  if (!strcmp(spec, "identity")) {
    for (int i = 0; i < d * d; i++)
      sigma[i] = chol[i] = (i % (d + 1)) == 0;
    return TB_OK;
  }
  struct stat sb;
  if (stat(spec, &sb) == 0) { /* a file: one row per line */
    if ((rc = tb_table_file(spec, param, &t)))
      return rc;
    snprintf(src, sizeof src, "%s", spec);
  } else { /* inline rows separated by ';' */
    snprintf(src, sizeof src, "%s '%s' (not a file: read as rows separated by ';')", param, spec);
    t.src = src;
    if ((rc = tb_table_inline(spec, &t)))
      return rc;
  }
  if ((rc = tb_table_cols(&t, d, "(dim)")) == TB_OK && t.rows == 0)
    rc = tb_fail(TB_EINVAL, "%s holds no rows: expected %d rows of %d numbers (dim is %d)", src, d,
                 d, d);
  else if (!rc && t.rows != d)
    rc = tb_fail(TB_EINVAL, "%s: %d rows but dim is %d", src, t.rows, d);
  if (rc) {
    tb_table_free(&t);
    return rc;
  }
  double *m = t.val;
  if (!is_chol) {
    double big = 0.0;
    for (int i = 0; i < d * d; i++)
      big = fmax(big, fabs(m[i]));
    for (int i = 0; i < d && !rc; i++)
      for (int j = 0; j < i && !rc; j++)
        if (fabs(m[i * d + j] - m[j * d + i]) > 1e-12 * big)
          rc = tb_fail(TB_EINVAL, "%s: Sigma is not symmetric (entries %d,%d and %d,%d)", src,
                       i + 1, j + 1, j + 1, i + 1);
    if (!rc) {
      memcpy(sigma, m, (size_t)d * (size_t)d * sizeof *sigma);
      rc = tb_cholesky(sigma, d, chol, src);
    }
  } else {
    /* A given C: Sigma = C C'. A lower-triangular C with a positive
     * diagonal is already the factor; any other C is replaced by the factor
     * of C C', which gives motions of the same law. */
    int lower = 1;
    for (int i = 0; i < d; i++)
      for (int j = 0; j < d; j++)
        lower &= j > i ? m[i * d + j] == 0.0 : j < i || m[i * d + j] > 0.0;
    for (int i = 0; i < d; i++)
      for (int j = 0; j < d; j++) {
        double x = 0.0;
        for (int k = 0; k < d; k++)
          x += m[i * d + k] * m[j * d + k];
        sigma[i * d + j] = x;
      }
    if (lower)
      memcpy(chol, m, (size_t)d * (size_t)d * sizeof *chol);
    else
      rc = tb_cholesky(sigma, d, chol, src);
  }
  tb_table_free(&t);
  return rc ? rc : tb_chol_fits(chol, d, prec, src);
}

/* What a file that is not a regular one is, for messages. */
static const char *tb_file_kind(mode_t m)
{
  if (S_ISDIR(m))
    return "a directory";
  if (S_ISFIFO(m))
    return "a FIFO or a pipe";
  if (S_ISCHR(m))
    return "a character device";
  return S_ISBLK(m) ? "a block device" : "a socket";
}

/* Open the normals file at path: a regular file only, because its size is
 * checked in setup before it is read in generate, and a FIFO or a device
 * has no size (and might never end). Its size goes to *bytes. */
static int tb_normals_open(const char *path, int *fd, int64_t *bytes)
{
  struct stat sb;
  *fd = -1;
  /* Look before opening: opening a device can have effects, and opening a
   * FIFO waits for a writer. */
  if (stat(path, &sb) != 0)
    return tb_fail(TB_EINVAL, "cannot open the normals file '%s': %s", path, strerror(errno));
  if (S_ISREG(sb.st_mode)) {
    /* O_NONBLOCK: should the path have become a FIFO since, the open must
     * not wait for a writer (it changes nothing for a regular file). */
    *fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (*fd < 0 || fstat(*fd, &sb) != 0) {
      int err = errno;
      if (*fd >= 0)
        close(*fd);
      *fd = -1;
      return tb_fail(TB_EINVAL, "cannot open the normals file '%s': %s", path, strerror(err));
    }
  }
  if (!S_ISREG(sb.st_mode)) {
    if (*fd >= 0)
      close(*fd);
    *fd = -1;
    return tb_fail(TB_EINVAL, "the normals file '%s' is %s, not a regular file of raw normals",
                   path, tb_file_kind(sb.st_mode));
  }
  *bytes = (int64_t)sb.st_size;
  return TB_OK;
}

/* Convert a little-endian value of e bytes to the host's order in place. */
static void tb_from_le(unsigned char *p, int e)
{
  const uint16_t one = 1;
  if (*(const unsigned char *)&one == 1)
    return;
  for (int i = 0; i < e / 2; i++) {
    unsigned char c = p[i];
    p[i] = p[e - 1 - i];
    p[e - 1 - i] = c;
  }
}

/* One pass over the normals file: every value finite; into z (the tile
 * layout) when z is not NULL; the largest |value| into *zmax. */
static int tb_normals_pass(const char *path, const tb_bridge_t *b, tb_prec_t prec, void *z,
                           double *zmax)
{
  const int e = (int)tb_kind_size(tb_prec_kind(prec));
  const int64_t total = b->paths * (int64_t)b->steps * b->dim;
  enum { CHUNK = 1 << 16 };
  unsigned char *buf = malloc((size_t)CHUNK * (size_t)e);
  FILE *f = NULL;
  int64_t bytes = 0;
  int fd = -1, rc = buf ? tb_normals_open(path, &fd, &bytes) : tb_fail(TB_ENOMEM, "out of memory");
  if (!rc && bytes != total * e)
    rc = tb_fail(TB_EINVAL, "normals file %s changed size since setup (%lld bytes, then %lld)",
                 path, (long long)(total * e), (long long)bytes);
  if (!rc && !(f = fdopen(fd, "rb")))
    rc = tb_fail(TB_ENOMEM, "out of memory");
  *zmax = 0.0;
  for (int64_t q0 = 0; q0 < total && !rc; q0 += CHUNK) {
    int64_t m = total - q0 < CHUNK ? total - q0 : CHUNK;
    if ((int64_t)fread(buf, (size_t)e, (size_t)m, f) != m) {
      rc = tb_fail(TB_EINVAL, "normals file %s: cannot read byte offset %lld: %s", path,
                   (long long)(q0 * e), ferror(f) ? strerror(errno) : "the file got shorter");
      break;
    }
    for (int64_t j = 0; j < m; j++) {
      unsigned char *p = buf + j * e;
      tb_from_le(p, e);
      double x;
      if (prec == TB_FLOAT) {
        float v;
        memcpy(&v, p, sizeof v);
        x = v;
      } else
        memcpy(&x, p, sizeof x);
      if (!isfinite(x)) {
        rc = tb_fail(TB_EINVAL, "normals file %s: byte offset %lld holds %s, not a finite number",
                     path, (long long)((q0 + j) * e), isnan(x) ? "NaN" : "an infinity");
        break;
      }
      *zmax = fabs(x) > *zmax ? fabs(x) : *zmax;
      if (z)
        memcpy((char *)z + tb_bridge_at_file(b, q0 + j) * e, p, (size_t)e);
    }
  }
  if (f)
    fclose(f);
  else if (fd >= 0)
    close(fd);
  free(buf);
  return rc;
}

int tb__bridge_normals_check(const char *path, const tb_bridge_t *b, tb_prec_t prec,
                             double *zmax)
{
  const int64_t e = (int64_t)tb_kind_size(tb_prec_kind(prec));
  const int64_t per_path = (int64_t)b->steps * b->dim * e;
  const int steps = b->steps, dim = b->dim;
  int64_t bytes;
  int fd, rc = tb_normals_open(path, &fd, &bytes);
  if (rc)
    return rc;
  close(fd);
  if (bytes == 0)
    return tb_fail(TB_EINVAL,
                   "normals file %s is empty: expected %lld paths of %d steps x %d dimensions "
                   "of %s (%lld bytes each)",
                   path, (long long)b->paths, steps, dim, tb_prec_name(prec), (long long)per_path);
  if (bytes % per_path)
    return tb_fail(TB_EINVAL,
                   "normals file %s holds %lld bytes, not a whole number of paths of %d steps x "
                   "%d dimensions of %s (%lld bytes each)",
                   path, (long long)bytes, steps, dim, tb_prec_name(prec), (long long)per_path);
  if (bytes / per_path != b->paths)
    return tb_fail(TB_EINVAL,
                   "normals file %s holds %lld paths of %d steps x %d dimensions of %s, but the "
                   "size is %lld paths (use --size %lld)",
                   path, (long long)(bytes / per_path), steps, dim, tb_prec_name(prec),
                   (long long)b->paths, (long long)(bytes / per_path));
  return tb_normals_pass(path, b, prec, NULL, zmax);
}

int tb__bridge_normals_read(const char *path, const tb_bridge_t *b, tb_prec_t prec, void *z)
{
  double zmax;
  return tb_normals_pass(path, b, prec, z, &zmax);
}
