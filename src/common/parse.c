/* twinbench: parsing of sizes, numbers and comma-separated lists. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
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
    int minus = *p == '-';
    p++;
    if ((rc = tb_parse_term(&p, s, &b)))
      return rc;
    if (minus) {
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
