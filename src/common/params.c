/* twinbench: parsing and lookup of algorithm parameters. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "parse.h"

int tb_param_parse_value(const tb_param_def_t *d, const char *text, tb_param_value_t *v)
{
  memset(v, 0, sizeof *v);
  switch (d->type) {
  case TB_PARAM_INT:
    if (tb_parse_int(text, &v->i))
      return tb_fail(TB_EINVAL, "parameter %s: %s", d->name, tb_error_detail());
    v->r = (double)v->i;
    break;
  case TB_PARAM_REAL:
    if (tb_parse_real(text, &v->r))
      return tb_fail(TB_EINVAL, "parameter %s: %s", d->name, tb_error_detail());
    break;
  case TB_PARAM_TEXT:
    if (!*text)
      return tb_fail(TB_EINVAL, "parameter %s: empty value", d->name);
    break;
  case TB_PARAM_CHOICE: {
    int k = 0;
    for (; d->choices[k]; k++)
      if (!strcmp(d->choices[k], text))
        break;
    if (!d->choices[k]) {
      char known[512];
      size_t len = 0;
      known[0] = '\0';
      for (int j = 0; d->choices[j] && len < sizeof known; j++)
        len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", j ? ", " : "",
                                d->choices[j]);
      return tb_fail(TB_EINVAL, "parameter %s: unknown value '%s' (known: %s)", d->name, text,
                     known);
    }
    v->i = k;
    v->r = k;
    break;
  }
  }
  if ((d->type == TB_PARAM_INT || d->type == TB_PARAM_REAL) && (v->r < d->min || v->r > d->max))
    return tb_fail(TB_EINVAL, "parameter %s: %s is outside [%g, %g]", d->name, text, d->min,
                   d->max);
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

int tb_param_parse_list(const tb_param_def_t *d, const char *list, tb_param_value_t **vals,
                        int *n)
{
  char **items;
  int count, rc;
  if ((rc = tb_list_split(list, &items, &count)))
    return tb_fail(rc, "parameter %s: %s", d->name, tb_error_detail());
  tb_param_value_t *v = calloc((size_t)count, sizeof *v);
  if (!v) {
    tb_list_free(items, count);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  for (int i = 0; i < count; i++)
    if ((rc = tb_param_parse_value(d, items[i], &v[i]))) {
      for (int j = 0; j < i; j++)
        tb_param_value_free(&v[j]);
      free(v);
      tb_list_free(items, count);
      return rc;
    }
  tb_list_free(items, count);
  *vals = v;
  *n = count;
  return TB_OK;
}

int tb_param_find(const tb_algo_t *algo, const char *name)
{
  for (int k = 0; k < algo->nparams; k++)
    if (!strcmp(algo->params[k].name, name))
      return k;
  return -1;
}

void tb_params_format(const tb_algo_t *algo, const tb_param_value_t *pv, char *buf, size_t len)
{
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < algo->nparams && k < len; i++)
    k += (size_t)snprintf(buf + k, len - k, "%s%s=%s", i ? " " : "", algo->params[i].name,
                          pv[i].s);
}
