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
  free(row->samples);
  row->samples = NULL;
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

double tb_result_bytes(const tb_result_t *r)
{
  return r->cost.read + r->cost.written;
}

double tb_result_gbs(const tb_result_t *r)
{
  double bytes = tb_result_bytes(r);
  return r->median_ms > 0 && bytes > 0 ? bytes / (r->median_ms * 1e6) : NAN;
}

double tb_result_gflops(const tb_result_t *r)
{
  return r->median_ms > 0 && r->cost.flops > 0 ? r->cost.flops / (r->median_ms * 1e6) : NAN;
}

double tb_result_cv(const tb_result_t *r)
{
  return r->repeats > 1 && r->mean_ms > 0 ? r->stddev_ms / r->mean_ms : NAN;
}

double tb_result_intensity(const tb_result_t *r)
{
  double bytes = tb_result_bytes(r);
  return bytes > 0 ? r->cost.flops / bytes : NAN;
}

double tb_result_j_per_gb(const tb_result_t *r)
{
  double bytes = tb_result_bytes(r);
  return bytes > 0 ? r->energy_j / (bytes * 1e-9) : NAN;
}

/* The two terms of the roofline's least time, in ms: 0 for a term with no
 * cost or (flops of an integer problem) no ceiling; NaN for a memory term
 * whose ceiling was not measured. */
static void tb_result_terms(const tb_result_t *r, double *mem, double *comp)
{
  double bytes = tb_result_bytes(r);
  *mem = bytes > 0 ? (r->ceiling_gbs > 0 ? bytes / (r->ceiling_gbs * 1e6) : NAN) : 0.0;
  *comp = r->cost.flops > 0 && r->ceiling_gflops > 0 ? r->cost.flops / (r->ceiling_gflops * 1e6)
                                                     : 0.0;
}

double tb_result_bound_ms(const tb_result_t *r)
{
  double mem, comp;
  tb_result_terms(r, &mem, &comp);
  double t = mem > comp ? mem : comp;
  return t > 0 && !isnan(mem) && isfinite(t) ? t : NAN;
}

int tb_result_compute_bound(const tb_result_t *r)
{
  double mem, comp;
  tb_result_terms(r, &mem, &comp);
  return comp > mem;
}

double tb_result_roofline(const tb_result_t *r)
{
  double t = tb_result_bound_ms(r);
  return r->median_ms > 0 ? t / r->median_ms : NAN;
}

int tb_cost_mem_ceiling(const tb_cost_t *c)
{
  if (c->random)
    return TB_CEIL_GATHER;
  /* The written fraction of the traffic: 0 read-only, 1/3 triad, 1/2 copy. */
  double total = c->read + c->written, w = total > 0 ? c->written / total : 0.0;
  return w < 1.0 / 6 ? TB_CEIL_READ : w < 5.0 / 12 ? TB_CEIL_TRIAD : TB_CEIL_COPY;
}

const char *tb_ceiling_mix_name(int kind)
{
  return kind == TB_CEIL_READ     ? "read-only"
         : kind == TB_CEIL_COPY   ? "1:1"
         : kind == TB_CEIL_GATHER ? "random"
                                  : "2:1";
}

const char *tb_ceiling_name(int kind)
{
  static const char *const names[TB_NCEIL] = {"read", "copy", "triad", "fp32", "fp64", "gather"};
  return kind >= 0 && kind < TB_NCEIL ? names[kind] : "?";
}

int tb_ceiling_is_memory(int kind)
{
  return kind != TB_CEIL_FP32 && kind != TB_CEIL_FP64;
}

int tb_cost_compute_ceiling(const tb_cost_t *c, tb_prec_t prec)
{
  if (!(c->flops > 0))
    return -1;
  return prec == TB_FLOAT ? TB_CEIL_FP32 : prec == TB_DOUBLE ? TB_CEIL_FP64 : -1;
}

unsigned tb_result_flags(const tb_result_t *r)
{
  unsigned f = 0;
  if (tb_result_roofline(r) > TB_ROOFLINE_ABOVE)
    f |= TB_FLAG_ABOVE;
  /* Cache matters to a row held to a memory ceiling. */
  if (r->cache_bytes > 0 && r->footprint > 0 && r->footprint <= r->cache_bytes &&
      !tb_result_compute_bound(r))
    f |= TB_FLAG_CACHED;
  if (tb_result_cv(r) > TB_CV_NOISY)
    f |= TB_FLAG_NOISY;
  if (r->energy_short)
    f |= TB_FLAG_ENERGY_SHORT;
  return f;
}

/* Each flag's word and sentence. */
static const struct {
  unsigned flag;
  const char *word, *note;
} tb_flag_text[] = {
    {TB_FLAG_ABOVE, "above-ceiling",
     "above-ceiling: roofline over 1.05 (the probe was beaten or counted traffic stayed in cache)"},
    {TB_FLAG_CACHED, "in-cache", "in-cache: the arrays fit in the CPU's last-level cache or the "
                                 "GPU's L2"},
    {TB_FLAG_NOISY, "noisy", "noisy: the repeats' cv is over 0.05"},
    {TB_FLAG_ENERGY_SHORT, "energy-short",
     "energy-short: the energy counters gave no usable difference within the longest window "
     "a row is given (2 s), so no energy is reported"},
};

static void tb_flags_join(const tb_result_t *r, int words, char *buf, size_t len)
{
  unsigned f = tb_result_flags(r);
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < TB_COUNT(tb_flag_text) && k < len; i++)
    if (f & tb_flag_text[i].flag)
      k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? (words ? " " : "; ") : "",
                            words ? tb_flag_text[i].word : tb_flag_text[i].note);
}

void tb_result_flag_words(const tb_result_t *r, char *buf, size_t len)
{
  tb_flags_join(r, 1, buf, len);
}

void tb_result_flag_note(const tb_result_t *r, char *buf, size_t len)
{
  tb_flags_join(r, 0, buf, len);
}

void tb_result_note(const tb_result_t *r, char *buf, size_t len)
{
  char flags[600];
  tb_result_flag_note(r, flags, sizeof flags);
  snprintf(buf, len, "%s%s%s", r->check.note, r->check.note[0] && flags[0] ? "; " : "", flags);
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
