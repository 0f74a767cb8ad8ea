/* twinbench: `twinbench info --ceilings`: every ceiling of every backend
 * configuration, measured now, as a table. A run measures the same ones
 * (those its rows need) with the same calls. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ceilings.h"
#include "grid.h"
#include "registry.h"
#include "result.h"
#include "status.h"

/* The configuration's short columns as "name=value ...", from its record
 * (the row a run would make of it), or "device" for a backend without any. */
static int tb_config_text(const tb_backend_t *be, void *cfg, char *buf, size_t len)
{
  tb_result_t row;
  tb_ctx_t ctx;
  memset(&row, 0, sizeof row);
  memset(&ctx, 0, sizeof ctx);
  row.backend = be;
  ctx.cfg = cfg;
  for (int k = 0; k < TB_MAX_CONFIG_COLUMNS; k++)
    row.config[k].num = NAN;
  int rc = be->record(cfg, &ctx, row.config);
  if (!rc)
    tb_result_configuration(&row, buf, len);
  tb_result_free(&row);
  if (!rc && !buf[0])
    snprintf(buf, len, "its device");
  return rc;
}

/* One configuration's row: enter, measure every kind, leave. */
static int tb_ceilings_row(tb_grid_t *g, const tb_backend_t *be, void *cfg)
{
  char text[160];
  double value[TB_NCEIL];
  int rc = be->enter(cfg);
  if (rc)
    return rc;
  rc = tb_config_text(be, cfg, text, sizeof text);
  for (int k = 0; k < TB_NCEIL && !rc; k++)
    rc = be->measure_ceiling(cfg, k, &value[k]);
  be->leave(cfg);
  if (rc)
    return rc;
  int row = tb_grid_row(g), c = 0;
  tb_grid_set(g, row, c++, be->name);
  tb_grid_set(g, row, c++, text);
  for (int k = 0; k < TB_NCEIL; k++) {
    snprintf(text, sizeof text, tb_ceiling_is_memory(k) ? "%.1f" : "%.0f", value[k]);
    tb_grid_set(g, row, c++, text);
  }
  snprintf(text, sizeof text, "%.0f", value[TB_CEIL_GATHER] / 32.0 * 1e3);
  tb_grid_set(g, row, c++, text);
  snprintf(text, sizeof text, "%.1f", value[TB_CEIL_FP32] / value[TB_CEIL_TRIAD]);
  tb_grid_set(g, row, c, text);
  return TB_OK;
}

int tb_ceilings_print(FILE *f, tb_topo_t *topo, const int *use,
                      const char *const (*option)[TB_MAX_OPTIONS])
{
  static const char *const heads[] = {"read", "copy", "triad", "fp32", "fp64", "gather"};
  tb_grid_t g;
  int rc = TB_OK;
  tb_grid_init(&g, TB_NCEIL + 4);
  tb_grid_head(&g, 0, "backend", 1);
  tb_grid_head(&g, 1, "configuration", 1);
  for (int k = 0; k < TB_NCEIL; k++)
    tb_grid_head(&g, 2 + k, heads[k], 0);
  tb_grid_head(&g, TB_NCEIL + 2, "Mgather/s", 0);
  tb_grid_head(&g, TB_NCEIL + 3, "balance", 0);
  for (int b = 0; b < tb_backend_count() && !rc; b++) {
    const tb_backend_t *be = tb_backend_at(b);
    const char *text[TB_MAX_OPTIONS];
    tb_configs_t cfgs = {0, NULL};
    if (!use[b])
      continue;
    for (int k = 0; k < be->noptions; k++)
      text[k] = option[b][k] ? option[b][k] : be->options[k].defaults;
    if ((rc = be->configs(topo, text, &cfgs)))
      break;
    for (int c = 0; c < cfgs.n && !rc; c++)
      rc = tb_ceilings_row(&g, be, cfgs.cfg[c]);
    be->configs_free(&cfgs);
  }
  if (!rc) {
    tb_comment(f, 0, "ceilings, measured now in each configuration: memory in GB/s (GB = 10^9 "
                     "bytes, counted STREAM-style: no write-allocate), read-only, 1:1 (copy) and "
                     "2:1 (triad) read:write; compute in GFLOP/s of FMA (an FMA is 2 flops); "
                     "gather: random reads out[i] = in[idx[i]] of 4-byte elements, in GB/s at "
                     "32 bytes (a GPU memory sector) a read, the index read and the output "
                     "written (8 streamed bytes a gather) not counted, and as millions of "
                     "gathers a second (Mgather/s); balance = fp32 / triad, the flops per byte "
                     "where a float kernel turns compute-bound");
    tb_grid_print(f, &g, 0);
    for (int b = 0; b < tb_backend_count(); b++)
      for (int k = 0; use[b] && k < TB_NCEIL; k++) {
        char line[300];
        snprintf(line, sizeof line, "%s %s: %s", tb_backend_at(b)->name, heads[k],
                 tb_backend_at(b)->ceiling_names[k]);
        tb_comment(f, 0, line);
      }
  }
  rc = rc ? rc : (g.failed ? tb_fail(TB_ENOMEM, "out of memory") : TB_OK);
  tb_grid_free(&g);
  return rc;
}
