/* twinbench: parsing and lookup of parameters. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "parse.h"

/* The text of a number for messages: an integer without a fraction. */
static const char *tb_num_text(double x, char *buf, size_t len)
{
  snprintf(buf, len, "%.17g", x);
  return buf;
}

static int tb_param_range(const tb_param_def_t *d, const char *text, const tb_param_value_t *v)
{
  char lo[32], hi[32];
  if (v->r < d->min)
    return tb_fail(TB_EINVAL, "--%s '%s' must be at least %s", d->name, text,
                   tb_num_text(d->min, lo, sizeof lo));
  if (v->r > d->max)
    return tb_fail(TB_EINVAL, "--%s '%s' must be at most %s", d->name, text,
                   tb_num_text(d->max, hi, sizeof hi));
  if ((d->flags & TB_PARAM_POW2) && (v->i & (v->i - 1)))
    return tb_fail(TB_EINVAL, "--%s '%s' is not a power of two", d->name, text);
  return TB_OK;
}

static int tb_param_choice(const tb_param_def_t *d, const char *text, tb_param_value_t *v)
{
  char what[80];
  int k = 0;
  snprintf(what, sizeof what, "--%s: unknown value", d->name);
  int rc = tb_name_index(d->choices, -1, text, what, &k);
  v->i = k;
  v->r = k;
  return rc;
}

int tb_param_parse_value(const tb_param_def_t *d, const char *text, tb_param_value_t *v)
{
  int rc = TB_OK;
  memset(v, 0, sizeof *v);
  switch (d->type) {
  case TB_PARAM_INT:
    if ((d->flags & TB_PARAM_AUTO) && !strcmp(text, "auto"))
      break;
    if (tb_parse_int(text, &v->i))
      return tb_fail(TB_EINVAL, "--%s %s", d->name, tb_error_detail());
    v->r = (double)v->i;
    rc = tb_param_range(d, text, v);
    break;
  case TB_PARAM_REAL:
    if (tb_parse_real(text, &v->r))
      return tb_fail(TB_EINVAL, "--%s %s", d->name, tb_error_detail());
    rc = tb_param_range(d, text, v);
    break;
  case TB_PARAM_TEXT:
    if (!*text)
      return tb_fail(TB_EINVAL, "--%s: empty value", d->name);
    break;
  case TB_PARAM_CHOICE: rc = tb_param_choice(d, text, v); break;
  }
  if (rc)
    return rc;
  v->s = strdup(text);
  if (!v->s)
    return tb_fail(TB_ENOMEM, "out of memory");
  return TB_OK;
}

void tb_param_value_free(tb_param_value_t *v)
{
  free((char *)v->s);
  v->s = NULL;
}

void tb_param_list_free(tb_param_value_t *vals, int n)
{
  for (int i = 0; vals && i < n; i++)
    tb_param_value_free(&vals[i]);
  free(vals);
}

/* The items of a list of d's values: an integer parameter's ranges expand
 * to their values; other parameters take no ranges (a real range would end
 * where rounding puts it, and a name has no successor). */
static int tb_param_split(const tb_param_def_t *d, const char *list, char ***items, int *count)
{
  char what[80];
  int rc;
  snprintf(what, sizeof what, "--%s", d->name);
  if (d->type == TB_PARAM_INT)
    return tb_list_split_ints(list, what, items, count);
  if ((rc = tb_list_split(list, items, count)))
    return tb_fail(rc, "%s: %s", what, tb_error_detail());
  for (int i = 0; d->type != TB_PARAM_TEXT && i < *count; i++)
    if (strchr((*items)[i], ':')) {
      rc = tb_fail(TB_EINVAL, "%s '%s': ranges (A:B) are for integer parameters; list the "
                   "values instead", what, (*items)[i]);
      tb_list_free(*items, *count);
      return rc;
    }
  return TB_OK;
}

/* The items of list with the word sweep replaced by d's sweep list. */
static int tb_param_items(const tb_param_def_t *d, const char *list, char ***items, int *count)
{
  char **raw, **sw = NULL;
  int nraw, nsw = 0, rc;
  if ((rc = tb_param_split(d, list, &raw, &nraw)))
    return rc;
  int words = 0;
  for (int i = 0; i < nraw; i++)
    words += d->sweep && !strcmp(raw[i], "sweep");
  if (!words) {
    *items = raw;
    *count = nraw;
    return TB_OK;
  }
  if ((rc = tb_param_split(d, d->sweep, &sw, &nsw))) {
    tb_list_free(raw, nraw);
    return rc;
  }
  char **out = calloc((size_t)(nraw + words * nsw), sizeof *out);
  int k = 0;
  for (int i = 0; out && i < nraw && rc == TB_OK; i++)
    if (!strcmp(raw[i], "sweep")) {
      for (int j = 0; j < nsw && rc == TB_OK; j++)
        if (!(out[k++] = strdup(sw[j])))
          rc = tb_fail(TB_ENOMEM, "out of memory");
    } else if (!(out[k++] = strdup(raw[i])))
      rc = tb_fail(TB_ENOMEM, "out of memory");
  if (!out)
    rc = tb_fail(TB_ENOMEM, "out of memory");
  tb_list_free(raw, nraw);
  tb_list_free(sw, nsw);
  if (rc) {
    tb_list_free(out, k);
    return rc;
  }
  *items = out;
  *count = k;
  return TB_OK;
}

int tb_param_parse_list(const tb_param_def_t *d, const char *list, tb_param_value_t **vals,
                        int *n)
{
  char **items = NULL;
  int count = 0, rc;
  if ((rc = tb_param_items(d, list, &items, &count)))
    return rc;
  tb_param_value_t *v = calloc((size_t)count, sizeof *v);
  if (!v) {
    tb_list_free(items, count);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  for (int i = 0; i < count; i++)
    if ((rc = tb_param_parse_value(d, items[i], &v[i]))) {
      tb_param_list_free(v, i);
      tb_list_free(items, count);
      return rc;
    }
  tb_list_free(items, count);
  *vals = v;
  *n = count;
  return TB_OK;
}

int tb_param_index(const tb_param_def_t *defs, int n, const char *name)
{
  for (int k = 0; k < n; k++)
    if (!strcmp(defs[k].name, name))
      return k;
  return -1;
}

void tb_params_format(const tb_param_def_t *defs, int n, const tb_param_value_t *pv, char *buf,
                      size_t len)
{
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && k < len; i++)
    k += (size_t)snprintf(buf + k, len - k, "%s%s=%s", i ? " " : "", defs[i].name, pv[i].s);
}

void tb_params_names(const tb_param_def_t *defs, int n, char *buf, size_t len)
{
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && k < len; i++)
    k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", defs[i].name);
}

int tb_params_point(const tb_param_def_t *defs, int n, const char *settings,
                    tb_param_value_t *point)
{
  int rc = TB_OK, k;
  memset(point, 0, (size_t)n * sizeof *point);
  for (k = 0; k < n && !rc; k++) {
    char first[256];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(defs[k].defaults, ","), defs[k].defaults);
    rc = tb_param_parse_value(&defs[k], first, &point[k]);
  }
  while (!rc && settings) {
    char name[64], value[256];
    int used = 0;
    settings += strspn(settings, " ");
    if (!*settings)
      break;
    if (sscanf(settings, " %63[^= ]=%255s%n", name, value, &used) != 2) {
      rc = tb_fail(TB_EINVAL, "settings '%s' are not NAME=VALUE ...", settings);
      break;
    }
    settings += used;
    if ((k = tb_param_index(defs, n, name)) < 0) {
      rc = tb_fail(TB_EINVAL, "no parameter '%s'", name);
      break;
    }
    tb_param_value_free(&point[k]);
    rc = tb_param_parse_value(&defs[k], value, &point[k]);
  }
  if (rc)
    tb_params_point_free(point, n);
  return rc;
}

void tb_params_point_free(tb_param_value_t *point, int n)
{
  for (int k = 0; k < n; k++)
    tb_param_value_free(&point[k]);
}

const tb_param_value_t *tb_tune(const tb_ctx_t *ctx, const char *name)
{
  int k = tb_param_index(ctx->v->tuning, ctx->v->ntuning, name);
  return k < 0 ? NULL : &ctx->tune[k];
}

void tb_tune_resolved(tb_ctx_t *ctx, const char *name, double value)
{
  int k = tb_param_index(ctx->v->tuning, ctx->v->ntuning, name);
  if (k >= 0)
    ctx->tuned[k] = value;
}
