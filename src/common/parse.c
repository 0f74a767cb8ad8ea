/* twinbench: parsing of sizes, numbers, comma-separated lists and ranges. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "status.h"

/* One unsigned term: digits with an optional suffix, or 2^k. Advances *p. */
static int tb_parse_term(const char **p, const char *all, uint64_t *out)
{
  const char *s = *p;
  uint64_t v = 0;
  if (!isdigit((unsigned char)*s))
    return tb_fail(TB_EINVAL, "'%s' is not a number (use digits, a K/M/G/T suffix or 2^k)", all);
  while (isdigit((unsigned char)*s)) {
    unsigned d = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - d) / 10)
      return tb_fail(TB_EINVAL, "'%s' overflows 64 bits", all);
    v = v * 10 + d;
    s++;
  }
  if (*s == '^') {
    if (v != 2)
      return tb_fail(TB_EINVAL, "'%s': only powers of two (2^k) are understood", all);
    s++;
    if (!isdigit((unsigned char)*s))
      return tb_fail(TB_EINVAL, "'%s': 2^ must be followed by an exponent", all);
    unsigned long k = 0;
    while (isdigit((unsigned char)*s)) {
      k = k * 10 + (unsigned long)(*s - '0');
      if (k > 1000)
        break;
      s++;
    }
    if (k > 62)
      return tb_fail(TB_EINVAL, "'%s' overflows 64 bits", all);
    v = (uint64_t)1 << k;
  } else {
    int shift = 0;
    switch (*s) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: break;
    }
    if (shift) {
      if (v > (UINT64_MAX >> shift))
        return tb_fail(TB_EINVAL, "'%s' overflows 64 bits", all);
      v <<= shift;
      s++;
    }
  }
  *p = s;
  *out = v;
  return TB_OK;
}

int tb_parse_int(const char *s, int64_t *out)
{
  const char *p = s;
  int neg = 0, rc;
  uint64_t a, b = 0;
  if (!s || !*s)
    return tb_fail(TB_EINVAL, "empty number");
  if (*p == '-') {
    neg = 1;
    p++;
  }
  if ((rc = tb_parse_term(&p, s, &a)))
    return rc;
  if (*p == '+' || *p == '-') {
    const char *op = p++;
    int minus = *op == '-';
    if ((rc = tb_parse_term(&p, s, &b)))
      return rc;
    if (minus) {
      /* 1-2 is more likely a range than a subtraction: say how ranges are written. */
      if (b > a && !neg)
        return tb_fail(TB_EINVAL, "'%s' is negative; ranges are written A:B, as in %.*s:%s", s,
                       (int)(op - s), s, op + 1);
      if (b > a)
        return tb_fail(TB_EINVAL, "'%s' is negative", s);
      a -= b;
    } else {
      if (a > UINT64_MAX - b)
        return tb_fail(TB_EINVAL, "'%s' overflows 64 bits", s);
      a += b;
    }
  }
  if (*p)
    return tb_fail(TB_EINVAL, "'%s' is not a number (unexpected '%s')", s, p);
  if (a > (uint64_t)INT64_MAX)
    return tb_fail(TB_EINVAL, "'%s' overflows 64 bits", s);
  *out = neg ? -(int64_t)a : (int64_t)a;
  return TB_OK;
}

int tb_parse_size(const char *s, const char *what, int64_t *out)
{
  int64_t v = 0;
  if (s && s[0] == '-' && s[1])
    return tb_fail(TB_EINVAL, "%s '%s' is negative", what, s);
  if (tb_parse_int(s, &v))
    return tb_fail(TB_EINVAL, "%s %s", what, tb_error_detail());
  if (v < 1)
    return tb_fail(TB_EINVAL, "%s '%s' must be at least 1", what, s);
  *out = v;
  return TB_OK;
}

int tb_parse_real(const char *s, double *out)
{
  char *end;
  if (!s || !*s)
    return tb_fail(TB_EINVAL, "empty number");
  errno = 0;
  double v = strtod(s, &end);
  if (*end || end == s || isnan(v) || (isinf(v) && errno != ERANGE))
    return tb_fail(TB_EINVAL, "'%s' is not a finite number", s);
  if (isinf(v))
    return tb_fail(TB_EINVAL, "'%s' is too large for a double", s);
  /* ERANGE also flags a subnormal result: a valid number, kept; only a
   * number too small to be told from 0 is refused. */
  if (errno == ERANGE && v == 0.0)
    return tb_fail(TB_EINVAL, "'%s' is too small for a double: it would be read as 0", s);
  *out = v;
  return TB_OK;
}

int tb_list_split(const char *s, char ***items, int *n)
{
  int count = 1;
  for (const char *c = s; *c; c++)
    count += *c == ',';
  char **v = calloc((size_t)count, sizeof *v);
  if (!v)
    return tb_fail(TB_ENOMEM, "out of memory");
  const char *start = s;
  for (int i = 0; i < count; i++) {
    const char *end = strchr(start, ',');
    size_t len = end ? (size_t)(end - start) : strlen(start);
    if (len == 0) {
      tb_list_free(v, i);
      return tb_fail(TB_EINVAL, "empty item in list '%s'", s);
    }
    v[i] = malloc(len + 1);
    if (!v[i]) {
      tb_list_free(v, i);
      return tb_fail(TB_ENOMEM, "out of memory");
    }
    memcpy(v[i], start, len);
    v[i][len] = '\0';
    start = end ? end + 1 : start + len;
  }
  *items = v;
  *n = count;
  return TB_OK;
}

void tb_list_free(char **items, int n)
{
  if (!items)
    return;
  for (int i = 0; i < n; i++)
    free(items[i]);
  free(items);
}

/* The parts of a range item: its start, end and step, and whether the step
 * is a factor (A:B doubles, as A:B:*2 does). */
static int tb_range_parse(const char *item, const char *what, int64_t *a, int64_t *b,
                          int64_t *step, int *factor)
{
  char *t = strdup(item), *part[3] = {NULL, NULL, NULL};
  int np = 0, rc = TB_OK;
  if (!t)
    return tb_fail(TB_ENOMEM, "out of memory");
  for (char *p = t; p; np++) {
    if (np < 3)
      part[np] = p;
    if ((p = strchr(p, ':')))
      *p++ = '\0';
  }
  *factor = np == 2 || part[2][0] == '*';
  const char *stext = np == 3 ? part[2] + (part[2][0] == '*') : "2";
  if (np > 3 || !*part[0] || !*part[1] || !*stext)
    rc = tb_fail(TB_EINVAL, "%s '%s' is not a range: write A:B (doubling), A:B:S (step S) or "
                 "A:B:*F (factor F)", what, item);
  else if (tb_parse_int(part[0], a) || tb_parse_int(part[1], b) || tb_parse_int(stext, step))
    rc = tb_fail(TB_EINVAL, "%s '%s': %s", what, item, tb_error_detail());
  else if (*a > *b)
    rc = tb_fail(TB_EINVAL, "%s '%s' runs backwards: its start is above its end (write %s:%s)",
                 what, item, part[1], part[0]);
  else if (*factor && *step < 2)
    rc = tb_fail(TB_EINVAL, "%s '%s': the factor must be at least 2", what, item);
  else if (*factor && *a < 1)
    rc = tb_fail(TB_EINVAL, "%s '%s': a range that multiplies starts at 1 or more (a range "
                 "with a step, A:B:S, may start lower)", what, item);
  else if (*step < 1)
    rc = tb_fail(TB_EINVAL, "%s '%s': the step must be at least 1", what, item);
  free(t);
  return rc;
}

/* The values of the range item into v[0..room): from its start, stepping or
 * multiplying while below its end, then the end itself. */
static int tb_range_values(const char *item, const char *what, int64_t *v, int room, int *n)
{
  int64_t a, b, step, x;
  int factor = 0, k = 0, rc = tb_range_parse(item, what, &a, &b, &step, &factor);
  if (rc)
    return rc;
  for (x = a;; k++) {
    if (k == room)
      return tb_fail(TB_EINVAL, "%s '%s' gives more than %d values in the list (use a larger "
                     "step)", what, item, TB_LIST_MAX);
    v[k] = x;
    if (x == b)
      break;
    /* The next value, or the end where the next would pass it: computed
     * without overflow (b - x as unsigned is exact, since x <= b). */
    if (factor)
      x = x > b / step ? b : x * step;
    else
      x = (uint64_t)b - (uint64_t)x <= (uint64_t)step ? b : x + step;
  }
  *n = k + 1;
  return TB_OK;
}

int tb_list_split_ints(const char *s, const char *what, char ***items, int *n)
{
  char **raw, **out = NULL;
  int nraw, k = 0, rc;
  if ((rc = tb_list_split(s, &raw, &nraw)))
    return tb_fail(rc, "%s: %s", what, tb_error_detail());
  int64_t *v = malloc(TB_LIST_MAX * sizeof *v);
  if (!v || !(out = calloc(TB_LIST_MAX, sizeof *out)))
    rc = tb_fail(TB_ENOMEM, "out of memory");
  for (int i = 0; i < nraw && !rc; i++) {
    int got = 0;
    if (!strchr(raw[i], ':')) {
      if (k == TB_LIST_MAX) {
        rc = tb_fail(TB_EINVAL, "%s: the list has more than %d values", what, TB_LIST_MAX);
      } else {
        out[k++] = raw[i];
        raw[i] = NULL;
      }
      continue;
    }
    rc = tb_range_values(raw[i], what, v, TB_LIST_MAX - k, &got);
    for (int j = 0; j < got && !rc; j++) {
      char num[24];
      snprintf(num, sizeof num, "%lld", (long long)v[j]);
      if (!(out[k++] = strdup(num)))
        rc = tb_fail(TB_ENOMEM, "out of memory");
    }
  }
  free(v);
  tb_list_free(raw, nraw);
  if (rc) {
    tb_list_free(out, k);
    return rc;
  }
  *items = out;
  *n = k;
  return TB_OK;
}
