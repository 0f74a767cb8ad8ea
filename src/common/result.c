/* twinbench: result rows and the figures derived from them. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "result.h"
#include "status.h"

int tb_results_push(tb_results_t *res, const tb_result_t *row)
{
  if (res->n == res->cap) {
    int cap = res->cap ? 2 * res->cap : 64;
    tb_result_t *r = realloc(res->r, (size_t)cap * sizeof *r);
    if (!r)
      return tb_fail(TB_ENOMEM, "out of memory for results");
    res->r = r;
    res->cap = cap;
  }
  res->r[res->n++] = *row;
  return TB_OK;
}

void tb_result_free(tb_result_t *row)
{
  for (int k = 0; k < TB_MAX_CONFIG_COLUMNS; k++) {
    free(row->config[k].text);
    row->config[k].text = NULL;
  }
  for (int k = 0; k < TB_MAX_TUNING; k++) {
    free(row->tune[k].text);
    row->tune[k].text = NULL;
  }
}

void tb_results_free(tb_results_t *res)
{
  for (int i = 0; i < res->n; i++)
    tb_result_free(&res->r[i]);
  free(res->r);
  res->r = NULL;
  res->n = res->cap = 0;
}

double tb_result_gbs(const tb_result_t *r)
{
  return r->median_ms > 0 && r->bytes > 0 ? r->bytes / (r->median_ms * 1e6) : NAN;
}

double tb_result_gflops(const tb_result_t *r)
{
  return r->median_ms > 0 && r->flops > 0 ? r->flops / (r->median_ms * 1e6) : NAN;
}

double tb_result_xfer_ms(const tb_result_t *r)
{
  return r->xfer.h2d_pinned_ms + r->xfer.d2h_pinned_ms;
}

/* A backend that keeps its arrays on the host moves nothing. */
double tb_result_e2e_ms(const tb_result_t *r)
{
  return (r->backend->flags & TB_BACKEND_OFFLOAD) ? r->median_ms + tb_result_xfer_ms(r)
                                                  : r->median_ms;
}

double tb_result_e2e_pageable_ms(const tb_result_t *r)
{
  return (r->backend->flags & TB_BACKEND_OFFLOAD)
             ? r->median_ms + r->xfer.h2d_pageable_ms + r->xfer.d2h_pageable_ms
             : r->median_ms;
}

const tb_cell_t *tb_result_cell(const tb_result_t *r, const char *name)
{
  for (int k = 0; k < r->backend->ncolumns; k++)
    if (!strcmp(r->backend->columns[k].name, name))
      return &r->config[k];
  int k = tb_param_index(r->variant->tuning, r->variant->ntuning, name);
  return k < 0 ? NULL : &r->tune[k];
}

/* " name=value" of a cell into buf at *k. */
static void tb_cell_text(char *buf, size_t len, size_t *k, const char *name, const tb_cell_t *c)
{
  if (*k >= len || (!c->text && isnan(c->num)))
    return;
  if (c->text)
    *k += (size_t)snprintf(buf + *k, len - *k, " %s=%s", name, c->text);
  else
    *k += (size_t)snprintf(buf + *k, len - *k, " %s=%.15g", name, c->num);
}

/* The backend configuration's short columns, " name=value" each, at *k. */
static void tb_config_cells(const tb_result_t *r, char *buf, size_t len, size_t *k)
{
  for (int c = 0; c < r->backend->ncolumns; c++)
    if (!(r->backend->columns[c].flags & TB_COL_WIDE))
      tb_cell_text(buf, len, k, r->backend->columns[c].name, &r->config[c]);
}

void tb_result_config_text(const tb_result_t *r, char *buf, size_t len)
{
  size_t k = (size_t)snprintf(buf, len, "%s", r->variant->name);
  tb_config_cells(r, buf, len, &k);
  for (int t = 0; t < r->variant->ntuning; t++)
    tb_cell_text(buf, len, &k, r->variant->tuning[t].name, &r->tune[t]);
}

void tb_result_configuration(const tb_result_t *r, char *buf, size_t len)
{
  size_t k = 0;
  buf[0] = '\0';
  tb_config_cells(r, buf, len, &k);
  if (buf[0] == ' ')
    memmove(buf, buf + 1, strlen(buf));
}
