/* The seam between the runner and the backends is real: a backend defined
 * here, a serial host backend with its own sweep axis (the chunk its one
 * thread works through the arrays in) and a STREAM twin with its own tuning
 * parameter (an unroll factor), registers through the public interface and
 * runs through the unchanged grammar, runner, rows and output beside the
 * CPU backend. Checked: the row counts (each variant once per configuration
 * of its own backend and tuning point of its own, whatever the other
 * backend's values), every row verified, the columns each backend and
 * variant brings, the speedup summary (one line per problem, naming each
 * backend's best configuration), and that the CPU's options do not reach
 * the test backend nor its tuning the CPU. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/columns.h"
#include "common/grammar.h"
#include "common/params.h"
#include "common/registry.h"
#include "common/report.h"
#include "common/runner.h"
#include "common/timer.h"
#include "families/stream.h"
#include "testutil.h"

/* ---- The backend ------------------------------------------------------- */

typedef struct host_config {
  int64_t chunk;
} host_config_t;

typedef struct host_state {
  double t0;
} host_state_t;

static const tb_param_def_t host_options[] = {
    {"chunk", "elements the thread works through at a time", TB_PARAM_INT, "4096", 1, 1 << 30,
     NULL, 0, NULL},
};

static const tb_column_def_t host_columns[] = {{"chunk", "%.0f", "the chunk", 0}};

static int host_probe(void)
{
  return TB_OK;
}

static int host_configs(tb_topo_t *topo, const char *const *text, tb_configs_t *out)
{
  tb_param_value_t *v;
  int n, rc;
  (void)topo;
  if ((rc = tb_param_parse_list(&host_options[0], text[0], &v, &n)))
    return rc;
  out->n = n;
  out->cfg = calloc((size_t)n, sizeof *out->cfg);
  for (int i = 0; i < n; i++) {
    host_config_t *c = calloc(1, sizeof *c);
    c->chunk = v[i].i;
    out->cfg[i] = c;
  }
  tb_param_list_free(v, n);
  return TB_OK;
}

static int host_runs(const void *cfg, const tb_variant_t *v)
{
  (void)cfg;
  (void)v;
  return 1;
}

static void host_needs(const void *cfg, const tb_problem_t *p, int64_t *host, int64_t *own)
{
  (void)cfg;
  *host = 0;
  for (int i = 0; i < p->narrays; i++)
    *host += tb_array_bytes(&p->array[i]);
  *own = 0;
}

static int host_enter(void *cfg)
{
  (void)cfg;
  return TB_OK;
}

static void host_leave(void *cfg)
{
  (void)cfg;
}

/* A copy of 4 MiB, best of five: bytes read plus written. */
/* The host's ceilings: memcpy for every memory kind, a serial chain of
 * multiply-adds for the compute kinds. */
static int host_ceiling(void *cfg, int kind, double *value)
{
  const size_t bytes = (size_t)1 << 22;
  char *a, *b;
  double best = 1e300, *gbs = value;
  (void)cfg;
  if (kind == TB_CEIL_FP32 || kind == TB_CEIL_FP64) {
    volatile double x = 0.999;
    double acc = 1.0, t0 = tb_wtime();
    for (int i = 0; i < 1000000; i++)
      acc = acc * x + 1e-3;
    *value = 2e6 / ((tb_wtime() - t0) * 1e9) + (acc > 0 ? 0.0 : NAN);
    return TB_OK;
  }
  a = malloc(bytes);
  b = malloc(bytes);
  if (!a || !b) {
    free(a);
    free(b);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  memset(a, 0x5a, bytes);
  for (int r = 0; r < 5; r++) {
    double t0 = tb_wtime();
    memcpy(b, a, bytes);
    double t = tb_wtime() - t0;
    best = t < best && t > 0 ? t : best;
  }
  *gbs = 2.0 * (double)bytes / best * 1e-9 + (b[bytes - 1] == 0x5a ? 0.0 : NAN);
  free(a);
  free(b);
  return TB_OK;
}

static int host_attach(tb_ctx_t *ctx, tb_xfer_t *xfer)
{
  (void)xfer;
  ctx->bstate = calloc(1, sizeof(host_state_t));
  for (int i = 0; i < ctx->p->narrays; i++) {
    const tb_array_t *a = &ctx->p->array[i];
    ctx->buf[i] = malloc((size_t)tb_array_bytes(a));
    if (a->role != TB_OUT)
      memcpy(ctx->buf[i], a->host, (size_t)tb_array_bytes(a));
  }
  return ctx->bstate ? TB_OK : tb_fail(TB_ENOMEM, "out of memory");
}

static int host_reset(tb_ctx_t *ctx, int poison)
{
  for (int i = 0; poison && i < ctx->p->narrays; i++)
    if (ctx->p->array[i].role == TB_OUT)
      memset(ctx->buf[i], 0xff, (size_t)tb_array_bytes(&ctx->p->array[i]));
  return TB_OK;
}

static int host_timer_start(tb_ctx_t *ctx)
{
  ((host_state_t *)ctx->bstate)->t0 = tb_wtime();
  return TB_OK;
}

static int host_timer_stop(tb_ctx_t *ctx, double *ms)
{
  *ms = 1e3 * (tb_wtime() - ((host_state_t *)ctx->bstate)->t0);
  return TB_OK;
}

static int host_download(tb_ctx_t *ctx, void **view, tb_xfer_t *xfer)
{
  (void)xfer;
  for (int i = 0; i < ctx->p->narrays; i++)
    view[i] = ctx->buf[i];
  return TB_OK;
}

static void host_detach(tb_ctx_t *ctx)
{
  for (int i = 0; i < ctx->p->narrays; i++)
    free(ctx->buf[i]);
  free(ctx->bstate);
}

static int host_record(void *cfg, const tb_ctx_t *ctx, tb_cell_t *cells)
{
  (void)ctx;
  cells[0].num = (double)((host_config_t *)cfg)->chunk;
  return TB_OK;
}

/* ---- Its STREAM twin ----------------------------------------------------- */

/* c = op(a, b) element by element, chunk by chunk, `unroll` elements a step. */
static int host_stream_run(tb_ctx_t *ctx)
{
  const tb_stream_t *s = ctx->p->priv;
  const int64_t n = ctx->p->n, chunk = ((const host_config_t *)ctx->cfg)->chunk;
  const int64_t unroll = tb_tune(ctx, "unroll")->i;
  const double *a = ctx->buf[s->a], *b = s->b >= 0 ? ctx->buf[s->b] : NULL;
  double *c = ctx->buf[s->c], dot = 0.0;
  for (int64_t lo = 0; lo < n; lo += chunk)
    for (int64_t i = lo; i < lo + chunk && i < n; i += unroll)
      for (int64_t k = i; k < i + unroll && k < lo + chunk && k < n; k++)
        switch (s->op) {
        case TB_STREAM_COPY: c[k] = a[k]; break;
        case TB_STREAM_SCALE: c[k] = TB_STREAM_Q * a[k]; break;
        case TB_STREAM_ADD: c[k] = a[k] + b[k]; break;
        case TB_STREAM_TRIAD: c[k] = a[k] + TB_STREAM_Q * b[k]; break;
        default: dot += a[k] * b[k];
        }
  if (s->op == TB_STREAM_DOT)
    c[0] = dot;
  return TB_OK;
}

static const tb_param_def_t host_stream_tuning[] = {
    {"unroll", "elements a step", TB_PARAM_INT, "1", 1, 64, NULL, 0, NULL},
};

TB_VARIANT(host_stream, "serial", &tb_algo_stream, TB_PREC_BIT(TB_DOUBLE), 0, host_stream_tuning,
           TB_COUNT(host_stream_tuning), NULL, host_stream_run, NULL, NULL,
           "one thread, chunk by chunk");

static const tb_variant_t *const host_stream_list[] = {&host_stream, NULL};
static const tb_variant_t *const *const host_lists[] = {host_stream_list, NULL};

static const tb_backend_t host_backend = {
    .name = "host",
    .summary = "a serial host backend of the tests",
    .ceiling_names = {"memcpy", "memcpy", "memcpy", "multiply-adds", "multiply-adds", "memcpy"},
    .variants = host_lists,
    .options = host_options,
    .noptions = TB_COUNT(host_options),
    .columns = host_columns,
    .ncolumns = TB_COUNT(host_columns),
    .probe = host_probe,
    .configs = host_configs,
    .configs_free = tb_configs_free,
    .runs = host_runs,
    .needs = host_needs,
    .enter = host_enter,
    .leave = host_leave,
    .measure_ceiling = host_ceiling,
    .attach = host_attach,
    .reset = host_reset,
    .timer_start = host_timer_start,
    .timer_stop = host_timer_stop,
    .download = host_download,
    .detach = host_detach,
    .record = host_record,
};

/* ---- The run ------------------------------------------------------------- */

/* Rows of backend `name` with a value v in column col (NULL: any). */
static int count_rows(const tb_results_t *res, const char *name, const char *col, double v)
{
  int n = 0;
  for (int i = 0; i < res->n; i++) {
    const tb_result_t *r = &res->r[i];
    const tb_cell_t *c = col ? tb_result_cell(r, col) : NULL;
    if (!strcmp(r->backend->name, name) && (!col || (c && c->num == v)))
      n++;
  }
  return n;
}

static void check_report(const tb_results_t *res, const tb_colset_t *cols, const tb_report_t *rep)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CHECK(tb_report_write(f, TB_FMT_CSV, res, rep) == TB_OK, "csv: %s", tb_error_detail());
  fclose(f);
  CHECK(strstr(text, ",threads,placement,chunk,stores,unroll,median_ms,") != NULL,
        "the CSV header lacks the backends' and the variant's columns: %.300s", text);
  free(text);
  f = open_memstream(&text, &len);
  tb_report_speedups(f, res, 0);
  fclose(f);
  /* The problems differ in op only: op is the first column, the precision
   * and size are said once above. */
  int lines = (strstr(text, "\ncopy ") != NULL) + (strstr(text, "\ntriad ") != NULL);
  CHECK(lines == 2, "%d speedup lines, expected one per problem (2): %s", lines, text);
  CHECK(strstr(text, "every problem: precision=double size=1000") != NULL,
        "the speedup summary does not say the common precision and size once: %s", text);
  CHECK(strstr(text, "\ntriad  omp ") && strstr(text, " host serial") &&
            strstr(text, "threads=") && strstr(text, "chunk="),
        "the speedup summary does not name each backend's best configuration: %s", text);
  /* Settings that both best rows of a backend share are said once above
   * (the GPU's block, stores and unroll made the quick start's table 133
   * columns wide); the ones that tell the rows apart stay in the cells. */
  const char *grid = strstr(text, "\nop ");
  CHECK(grid && !strstr(grid, "placement=") && strstr(text, "placement=cores"),
        "the speedup summary does not give the shared settings once: %s", text);
  free(text);
  /* The table: the columns that vary, the rest once above, within 120. */
  f = open_memstream(&text, &len);
  CHECK(tb_report_write(f, TB_FMT_TABLE, res, rep) == TB_OK, "table: %s", tb_error_detail());
  fclose(f);
  CHECK(strstr(text, "\n# same on every row that has it: algo=stream precision=double size=1000 "
                    "placement=cores") != NULL,
        "the table does not give the constant columns once: %s", text);
  CHECK(strstr(text, "\nvariant  backend  ") != NULL, "table heading: %s", text);
  for (char *line = text, *end; *line; line = end + (*end != 0)) {
    end = line + strcspn(line, "\n");
    CHECK(end - line <= 120, "a table line of %d characters: %.*s", (int)(end - line),
          (int)(end - line), line);
  }
  free(text);
  CHECK(tb_pivot_check(cols, "op:chunk:median_ms") == TB_OK, "pivot on the backend's column: %s",
        tb_error_detail());
}

int main(void)
{
  char *argv[] = {"run",       "stream",  "--backend", "cpu,host", "--size", "1000",
                  "--op",      "triad,copy", "--threads", "1,2",     "--chunk", "7,4096",
                  "--unroll",  "1,4",     "--block",   "64,128",   "--repeat", "2",
                  "--warmup",  "0",       "--ceiling-size", "64K"};
  tb_run_opts_t o;
  tb_run_state_t st;
  tb_results_t res = {0};
  tb_topo_t *topo;
  tb_colset_t *cols = malloc(sizeof *cols);
  int exit_now;

  memset(&st, 0, sizeof st);
  CHECK(tb_backend_register(&host_backend) == TB_OK, "register: %s", tb_error_detail());
  CHECK(tb_backend_register(&host_backend) != TB_OK, "a second backend called host registered");
  CHECK(tb_topo_open(&topo) == TB_OK, "topology: %s", tb_error_detail());
  int rc = tb_grammar_parse((int)(sizeof argv / sizeof argv[0]), argv, &o, &exit_now);
  CHECK(rc == TB_OK, "parse: %s", tb_error_detail());
  if (!rc)
    CHECK((rc = tb_sweep_check(&o.s, topo, &st)) == TB_OK, "check: %s", tb_error_detail());
  tb_note_release(1);
  if (!rc)
    CHECK((rc = tb_sweep_run(&o.s, &st, &res)) == TB_OK, "run: %s", tb_error_detail());
  if (!rc) {
    /* cpu: 2 ops x 2 teams; host: 2 ops x 2 chunks x 2 unrolls; --block reaches neither. */
    CHECK(count_rows(&res, "cpu", NULL, 0) == 4, "%d cpu rows", count_rows(&res, "cpu", NULL, 0));
    CHECK(count_rows(&res, "host", NULL, 0) == 8, "%d host rows",
          count_rows(&res, "host", NULL, 0));
    CHECK(count_rows(&res, "host", "chunk", 7) == 4, "chunk 7 rows");
    CHECK(count_rows(&res, "host", "unroll", 4) == 4, "unroll 4 rows");
    CHECK(count_rows(&res, "cpu", "threads", 2) == 2, "threads 2 rows");
    for (int i = 0; i < res.n; i++)
      CHECK(res.r[i].check.verdict == TB_PASS && res.r[i].ceiling_gbs > 0, "row %d: %s", i,
            res.r[i].check.note);
    tb_sweep_columns(&o.s, &st, cols);
    tb_report_t rep = {.algo = o.s.algo,
                       .topo = topo,
                       .cols = cols,
                       .command_line = o.command_line,
                       .seed = o.s.seed,
                       .repeats = o.s.repeat,
                       .warmups = o.s.warmup,
                       .verify = o.s.verify};
    check_report(&res, cols, &rep);
  }
  tb_results_free(&res);
  tb_run_state_free(&st);
  tb_run_opts_free(&o);
  tb_topo_close(topo);
  free(cols);
  TEST_EXIT();
}
