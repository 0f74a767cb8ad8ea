/* twinbench: the command-line program. It parses, calls the runner and writes
 * the report; the work is in src/common/. Exit status: 0 success, 1 a runtime
 * error, 2 bad usage or input, 3 a result failed verification, 69 a requested
 * backend is not available, 130 interrupted. */
#include <config.h>

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/env.h"
#include "common/mem.h"
#include "common/params.h"
#include "common/parse.h"
#include "common/registry.h"
#include "common/outfile.h"
#include "common/report.h"
#include "common/result.h"
#include "common/runner.h"
#include "common/topo.h"

enum {
  TB_EXIT_OK = 0,
  TB_EXIT_ERROR = 1,
  TB_EXIT_USAGE = 2,
  TB_EXIT_VERIFY = 3,
  TB_EXIT_UNAVAILABLE = 69,
  TB_EXIT_INTERRUPTED = 130
};

static void tb_die_usage(const char *cmd, const char *msg)
{
  fprintf(stderr, "twinbench %s: %s (see 'twinbench %s --help')\n", cmd, msg, cmd);
}

/* The exit status for an error status from the library. */
static int tb_exit_for(int rc)
{
  switch (rc) {
  case TB_EINVAL:
  case TB_ENOMEM:
  case TB_EUNSUP: return TB_EXIT_USAGE;
  case TB_ENODEV: return TB_EXIT_UNAVAILABLE;
  case TB_EINTR: return TB_EXIT_INTERRUPTED;
  default: return TB_EXIT_ERROR;
  }
}

static int tb_error(int rc)
{
  fprintf(stderr, "twinbench: %s\n", tb_error_detail()[0] ? tb_error_detail() : tb_strerror(rc));
  return tb_exit_for(rc);
}

/* ---- help texts -------------------------------------------------------- */

static const char tb_usage_main[] =
    "usage: twinbench COMMAND [OPTIONS]\n"
    "\n"
    "Compare OpenMP CPU code with CUDA GPU code on the same problems: every\n"
    "result is verified and reported with its time, bandwidth and the fraction\n"
    "of the machine's limit measured in the same run.\n"
    "\n"
    "commands:\n"
    "  info           the CPU topology (hwloc) and the GPU\n"
    "  list [ALGO]    the algorithms, or one algorithm's parameters and variants\n"
    "  run ALGO ...   run, verify and report an algorithm over sweeps\n"
    "  help [COMMAND] this text, or a command's\n"
    "\n"
    "Each command takes --help. 'man twinbench' has the details.\n";

static const char tb_usage_info[] =
    "usage: twinbench info\n"
    "\n"
    "Print the build, the CPU topology (packages, NUMA nodes, cores, PUs,\n"
    "caches) and each GPU (name, SMs, memory, clocks, driver).\n";

static const char tb_usage_list[] =
    "usage: twinbench list [ALGO]\n"
    "\n"
    "Without ALGO: every algorithm with its variants per backend. With ALGO:\n"
    "its size, precisions, parameters with defaults and ranges, presets,\n"
    "variants and columns.\n";

static const char tb_usage_run[] =
    "usage: twinbench run ALGO [OPTIONS]\n"
    "\n"
    "Every list option is a sweep axis; all combinations run.\n"
    "  -b, --backend LIST      cpu, gpu (default: cpu,gpu; a missing GPU is then skipped)\n"
    "  -v, --variant LIST      variants to run (default: all)\n"
    "  -p, --precision LIST    int32, float, double (default: the algorithm's)\n"
    "  -n, --size LIST         sizes: 1000, 4K, 16M, 2^22, 2^22+5, a preset name, or auto\n"
    "                          (STREAM's rule: 4 x the last-level caches, 2^25..2^28)\n"
    "  -P, --param KEY=LIST    an algorithm parameter (repeatable)\n"
    "  -t, --threads LIST|sweep  CPU threads (sweep: 1, 2, 4, ... cores, then all PUs;\n"
    "                          default: one per core)\n"
    "      --placement LIST    compact, scatter, cores (default: cores)\n"
    "      --block LIST|sweep  GPU threads per block (sweep: 32 .. 1024; default 256)\n"
    "      --grid LIST|auto    GPU blocks (auto: one full wave; default auto)\n"
    "  -r, --repeat N          timed runs per configuration (default 10)\n"
    "  -w, --warmup N          untimed runs before them (default 2)\n"
    "  -f, --format F          table, csv or json (default table)\n"
    "  -o, --output FILE       write the report to FILE (atomically) instead of stdout\n"
    "  -i, --input FILE        read the problem from FILE (algorithms that take input)\n"
    "      --dump FILE         write the first verified configuration's results as CSV\n"
    "      --seed S            seed of the generated problems (default 1)\n"
    "      --no-verify         do not verify (rows are marked 'skipped')\n"
    "      --pivot ROWS:COL[:CELL]  also show the results as a table: rows by the\n"
    "                          columns ROWS (joined with +), one column per value of\n"
    "                          COL, cells the best CELL (default gbs), with the best\n"
    "                          per row and its ratio to the first row's best\n"
    "      --NAME LIST         the same as --param NAME=LIST\n"
    "      --limit-size N      elements per array of the CPU's limit measurement\n"
    "                          (default: 4 x the last-level caches, in [2^25, 2^28])\n"
    "  -h, --help              this text\n"
    "\n"
    "Times are medians over the repeats (min and max are reported too). GPU\n"
    "kernels are timed with CUDA events; transfers separately, from pageable and\n"
    "pinned memory. Bytes are counted STREAM-style (no write-allocate).\n";

/* ---- info -------------------------------------------------------------- */

static int tb_cmd_info(int argc, char **argv)
{
  static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  int c;
  while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    if (c == 'h') {
      fputs(tb_usage_info, stdout);
      return TB_EXIT_OK;
    }
    tb_die_usage("info", "unknown option");
    return TB_EXIT_USAGE;
  }
  if (optind < argc) {
    tb_die_usage("info", "takes no arguments");
    return TB_EXIT_USAGE;
  }
  tb_topo_t *topo;
  int rc = tb_topo_open(&topo);
  if (rc)
    return tb_error(rc);
  tb_build_print(stdout);
  tb_topo_print(topo, stdout);
  tb_device_info_t g;
  char b1[32], b2[32];
  if (tb_backends[TB_GPU]->probe(&g)) {
    printf("GPU: none (%s)\n", tb_error_detail());
  } else {
    printf("GPU 0: %s (PCI %s)\n", g.name, g.pci_bus);
    printf("  compute capability %d.%d   SMs: %d   memory: %s   L2: %s\n", g.cc_major, g.cc_minor,
           g.sms, tb_format_bytes((double)g.global_mem, b1), tb_format_bytes((double)g.l2_bytes, b2));
    printf("  SM clock %d MHz   memory clock %d MHz   bus %d bits   threads/block %d   "
           "threads/SM %d\n",
           g.clock_khz / 1000, g.mem_clock_khz / 1000, g.bus_width_bits, g.max_threads_per_block,
           g.max_threads_per_sm);
    printf("  driver %d.%d   runtime %d.%d   device code: %s\n", g.driver_version / 1000,
           (g.driver_version % 1000) / 10, g.runtime_version / 1000,
           (g.runtime_version % 1000) / 10, g.compiler);
  }
  tb_topo_close(topo);
  return TB_EXIT_OK;
}

/* ---- list -------------------------------------------------------------- */

static void tb_list_variants(const tb_algo_t *a, int backend, FILE *f)
{
  int first = 1;
  for (const tb_variant_t *const *v = tb_backends[backend]->variants; *v; v++)
    if ((*v)->algo == a) {
      fprintf(f, "%s%s", first ? "" : ", ", (*v)->name);
      first = 0;
    }
  if (first)
    fprintf(f, "%s", backend == TB_GPU ? "(none in this build)" : "(none)");
}

static void tb_list_precisions(unsigned mask, FILE *f)
{
  int first = 1;
  for (int p = 0; p < TB_NPREC; p++)
    if (mask & TB_PREC_BIT(p)) {
      fprintf(f, "%s%s", first ? "" : ",", tb_prec_name((tb_prec_t)p));
      first = 0;
    }
}

static int tb_cmd_list(int argc, char **argv)
{
  static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  int c;
  while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    if (c == 'h') {
      fputs(tb_usage_list, stdout);
      return TB_EXIT_OK;
    }
    tb_die_usage("list", "unknown option");
    return TB_EXIT_USAGE;
  }
  if (optind == argc) {
    for (const tb_algo_t *const *a = tb_algos; *a; a++) {
      printf("%-14s %s\n", (*a)->name, (*a)->summary);
      printf("%-14s cpu: ", "");
      tb_list_variants(*a, TB_CPU, stdout);
      printf("\n%-14s gpu: ", "");
      tb_list_variants(*a, TB_GPU, stdout);
      printf("\n");
    }
    return TB_EXIT_OK;
  }
  if (optind + 1 < argc) {
    tb_die_usage("list", "takes at most one algorithm");
    return TB_EXIT_USAGE;
  }
  const tb_algo_t *a = tb_algo_find(argv[optind]);
  if (!a) {
    fprintf(stderr, "twinbench: unknown algorithm '%s' (see 'twinbench list')\n", argv[optind]);
    return TB_EXIT_USAGE;
  }
  printf("%s: %s\n", a->name, a->summary);
  printf("  size:        %s (default %s)\n", a->size_meaning, a->default_sizes);
  printf("  precisions:  ");
  tb_list_precisions(a->precisions, stdout);
  printf(" (default ");
  tb_list_precisions(a->default_precisions, stdout);
  printf(")\n");
  if (a->flags & TB_ALGO_INPUT)
    printf("  input:       --input FILE is accepted\n");
  if (a->dump)
    printf("  dump:        --dump FILE is accepted\n");
  for (int i = 0; i < a->npresets; i++)
    printf("  %s %-12s = %lld: %s\n", i ? "            " : "presets:   ", a->presets[i].name,
           (long long)a->presets[i].size, a->presets[i].summary);
  if (a->nparams)
    printf("  parameters (--param KEY=LIST, or --KEY LIST):\n");
  for (int i = 0; i < a->nparams; i++) {
    const tb_param_def_t *d = &a->params[i];
    printf("    %-12s %s; default %s; ", d->name, d->summary, d->defaults);
    if (d->type == TB_PARAM_CHOICE) {
      printf("one of");
      for (int k = 0; d->choices[k]; k++)
        printf(" %s", d->choices[k]);
      printf("\n");
    } else if (d->type == TB_PARAM_TEXT)
      printf("text\n");
    else
      printf("%s in [%g, %g]\n", d->type == TB_PARAM_INT ? "integer" : "real", d->min, d->max);
  }
  printf("  variants:\n");
  for (int b = 0; b < TB_NBACKENDS; b++)
    for (const tb_variant_t *const *v = tb_backends[b]->variants; *v; v++)
      if ((*v)->algo == a) {
        printf("    %-4s %-16s ", tb_backends[b]->name, (*v)->name);
        tb_list_precisions((*v)->precisions, stdout);
        printf("%s%s%s: %s\n", ((*v)->flags & TB_V_THREADS) ? "; threads" : "",
               ((*v)->flags & TB_V_BLOCK) ? "; block" : "", ((*v)->flags & TB_V_GRID) ? "; grid" : "",
               (*v)->summary);
      }
  if (!tb_variant_count(a, TB_GPU))
    printf("    gpu  (none in this build)\n");
  if (a->ncolumns)
    printf("  columns:\n");
  for (int i = 0; i < a->ncolumns; i++)
    printf("    %-12s %s\n", a->columns[i].name, a->columns[i].summary);
  printf("  error:       %s\n", a->error_meaning);
  return TB_EXIT_OK;
}

/* ---- run --------------------------------------------------------------- */

/* Parse a list of positive integers, with `word` standing for the nexp
 * values of `expansion` (wherever and however often it appears). */
static int tb_parse_int_list(const char *what, const char *text, const char *word,
                             const int *expansion, int nexp, int **out, int *n)
{
  char **items;
  int count, rc, k = 0;
  if ((rc = tb_list_split(text, &items, &count)))
    return tb_fail(rc, "%s: %s", what, tb_error_detail());
  int *v = malloc((size_t)count * (size_t)(nexp > 1 ? nexp : 1) * sizeof *v);
  if (!v) {
    tb_list_free(items, count);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  for (int i = 0; i < count && !rc; i++) {
    int64_t x;
    if (word && !strcmp(items[i], word)) {
      for (int j = 0; j < nexp; j++)
        v[k++] = expansion[j];
      continue;
    }
    if ((rc = tb_parse_size(items[i], what, &x)))
      break;
    if (x > 1 << 30)
      rc = tb_fail(TB_EINVAL, "%s '%s' is too large", what, items[i]);
    v[k++] = (int)x;
  }
  tb_list_free(items, count);
  if (rc) {
    free(v);
    return rc;
  }
  *out = v;
  *n = k;
  return TB_OK;
}

typedef struct tb_run_opts {
  tb_sweep_t s;
  int format;
  const char *output;
  const char *pivot;
  char **params; /* the --param and --NAME settings, as NAME=LIST */
  char *command_line;
} tb_run_opts_t;

static void tb_run_opts_free(tb_run_opts_t *o)
{
  tb_sweep_t *s = &o->s;
  tb_list_free(s->variants, s->nvariants);
  free(s->sizes);
  for (int k = 0; k < TB_MAX_PARAMS; k++) {
    for (int j = 0; j < s->npv[k]; j++)
      tb_param_value_free(&s->pv[k][j]);
    free(s->pv[k]);
  }
  free(s->threads);
  free(s->placements);
  free(s->blocks);
  free(s->grids);
  for (int i = 0; o->params && o->params[i]; i++)
    free(o->params[i]);
  free(o->params);
  free(o->command_line);
}

static int tb_set_sizes(tb_sweep_t *s, const char *text)
{
  char **items;
  int count, rc;
  if ((rc = tb_list_split(text, &items, &count)))
    return tb_fail(rc, "--size: %s", tb_error_detail());
  free(s->sizes);
  s->sizes = malloc((size_t)count * sizeof *s->sizes);
  s->nsizes = 0;
  for (int i = 0; i < count && !rc && s->sizes; i++) {
    int p = 0;
    for (; p < s->algo->npresets; p++)
      if (!strcmp(s->algo->presets[p].name, items[i]))
        break;
    if (p < s->algo->npresets)
      s->sizes[s->nsizes++] = s->algo->presets[p].size;
    else if (!strcmp(items[i], "auto"))
      s->sizes[s->nsizes++] = TB_SIZE_AUTO;
    else if (!(rc = tb_parse_size(items[i], "size", &s->sizes[s->nsizes])))
      s->nsizes++;
  }
  if (!s->sizes)
    rc = tb_fail(TB_ENOMEM, "out of memory");
  tb_list_free(items, count);
  return rc;
}

static int tb_set_precisions(tb_sweep_t *s, const char *text, unsigned mask)
{
  char **items;
  int count, rc = TB_OK;
  s->nprec = 0;
  if (!text) {
    for (int p = 0; p < TB_NPREC; p++)
      if (mask & TB_PREC_BIT(p))
        s->prec[s->nprec++] = (tb_prec_t)p;
    return TB_OK;
  }
  if ((rc = tb_list_split(text, &items, &count)))
    return tb_fail(rc, "--precision: %s", tb_error_detail());
  for (int i = 0; i < count && !rc; i++) {
    tb_prec_t p;
    if ((rc = tb_prec_parse(items[i], &p)))
      break;
    int dup = 0;
    for (int j = 0; j < s->nprec; j++)
      dup |= s->prec[j] == p;
    if (!dup)
      s->prec[s->nprec++] = p;
  }
  tb_list_free(items, count);
  return rc;
}

static int tb_set_param(tb_sweep_t *s, const char *arg)
{
  const char *eq = strchr(arg, '=');
  char name[128];
  if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof name)
    return tb_fail(TB_EINVAL, "--param takes KEY=LIST, not '%s'", arg);
  memcpy(name, arg, (size_t)(eq - arg));
  name[eq - arg] = '\0';
  int k = tb_param_find(s->algo, name);
  if (k < 0) {
    char known[512];
    size_t len = 0;
    known[0] = '\0';
    for (int i = 0; i < s->algo->nparams && len < sizeof known; i++)
      len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "",
                              s->algo->params[i].name);
    return tb_fail(TB_EINVAL, "unknown parameter '%s' for %s (known: %s)", name, s->algo->name,
                   len ? known : "none");
  }
  for (int j = 0; j < s->npv[k]; j++)
    tb_param_value_free(&s->pv[k][j]);
  free(s->pv[k]);
  s->pv[k] = NULL;
  s->npv[k] = 0;
  return tb_param_parse_list(&s->algo->params[k], eq + 1, &s->pv[k], &s->npv[k]);
}

static volatile sig_atomic_t tb_signalled;

static void tb_on_signal(int sig)
{
  (void)sig;
  tb_signalled = 1;
  tb_runner_interrupt();
}

static char *tb_join_args(int argc, char **argv)
{
  size_t len = 16;
  for (int i = 0; i < argc; i++)
    len += strlen(argv[i]) + 1;
  char *s = malloc(len);
  if (!s)
    return NULL;
  strcpy(s, "twinbench");
  for (int i = 0; i < argc; i++) {
    strcat(s, " ");
    strcat(s, argv[i]);
  }
  return s;
}

static int tb_run_parse(int argc, char **argv, tb_run_opts_t *o, tb_topo_t *topo, int *exit_now)
{
  enum { O_PLACEMENT = 256, O_BLOCK, O_GRID, O_DUMP, O_SEED, O_NOVERIFY, O_LIMIT, O_PIVOT,
         O_ALGO_PARAM = 1024 };
  static const struct option base_opts[] = {
      {"backend", required_argument, NULL, 'b'},   {"variant", required_argument, NULL, 'v'},
      {"precision", required_argument, NULL, 'p'}, {"size", required_argument, NULL, 'n'},
      {"param", required_argument, NULL, 'P'},     {"threads", required_argument, NULL, 't'},
      {"placement", required_argument, NULL, O_PLACEMENT},
      {"block", required_argument, NULL, O_BLOCK}, {"grid", required_argument, NULL, O_GRID},
      {"repeat", required_argument, NULL, 'r'},    {"warmup", required_argument, NULL, 'w'},
      {"format", required_argument, NULL, 'f'},    {"output", required_argument, NULL, 'o'},
      {"input", required_argument, NULL, 'i'},     {"dump", required_argument, NULL, O_DUMP},
      {"seed", required_argument, NULL, O_SEED},   {"no-verify", no_argument, NULL, O_NOVERIFY},
      {"limit-size", required_argument, NULL, O_LIMIT}, {"pivot", required_argument, NULL, O_PIVOT},
      {"help", no_argument, NULL, 'h'}};
  enum { NBASE = sizeof base_opts / sizeof base_opts[0] };
  static const int block_sweep[] = {32, 64, 128, 256, 512, 1024};
  static const int auto_grid[] = {0}; /* --grid auto: the variant picks */
  tb_sweep_t *s = &o->s;
  const char *backends = NULL, *precisions = NULL, *sizes = NULL, *threads = NULL;
  const char *placements = "cores", *blocks = "256", *grids = "auto";
  int nparams = 0, c, rc = TB_OK;
  int64_t x;

  /* Every algorithm's parameters are options too: --NAME VALUE is --param NAME=VALUE. */
  const tb_param_def_t *pdefs[256];
  int npdefs = 0;
  for (const tb_algo_t *const *a = tb_algos; *a; a++)
    for (int k = 0; k < (*a)->nparams && npdefs < 256; k++) {
      int dup = 0;
      for (int j = 0; j < npdefs; j++)
        dup |= !strcmp(pdefs[j]->name, (*a)->params[k].name);
      if (!dup)
        pdefs[npdefs++] = &(*a)->params[k];
    }
  struct option opts[NBASE + 256 + 1];
  memcpy(opts, base_opts, sizeof base_opts);
  for (int j = 0; j < npdefs; j++) {
    opts[NBASE + j].name = pdefs[j]->name;
    opts[NBASE + j].has_arg = required_argument;
    opts[NBASE + j].flag = NULL;
    opts[NBASE + j].val = O_ALGO_PARAM + j;
  }
  memset(&opts[NBASE + npdefs], 0, sizeof opts[0]);
  o->params = calloc((size_t)argc + 1, sizeof *o->params);
  char **params = o->params;

  *exit_now = 0;
  if (!params)
    return tb_fail(TB_ENOMEM, "out of memory");
  s->repeat = 10;
  s->warmup = 2;
  s->verify = 1;
  s->seed = 1;
  o->format = TB_FMT_TABLE;
  opterr = 0;
  while (!rc && (c = getopt_long(argc, argv, "b:v:p:n:P:t:r:w:f:o:i:h", opts, NULL)) != -1) {
    switch (c) {
    case 'b': backends = optarg; break;
    case 'v':
      tb_list_free(s->variants, s->nvariants);
      s->variants = NULL;
      rc = tb_list_split(optarg, &s->variants, &s->nvariants);
      break;
    case 'p': precisions = optarg; break;
    case 'n': sizes = optarg; break;
    case 'P':
      if (!(params[nparams++] = strdup(optarg)))
        rc = tb_fail(TB_ENOMEM, "out of memory");
      break;
    case 't': threads = optarg; break;
    case O_PLACEMENT: placements = optarg; break;
    case O_BLOCK: blocks = optarg; break;
    case O_GRID: grids = optarg; break;
    case 'r':
      if (!(rc = tb_parse_size(optarg, "--repeat", &x)) && x > 1000000)
        rc = tb_fail(TB_EINVAL, "--repeat %s is too large", optarg);
      s->repeat = (int)x;
      break;
    case 'w':
      if (!strcmp(optarg, "0"))
        s->warmup = 0;
      else if (!(rc = tb_parse_size(optarg, "--warmup", &x)) && x > 1000000)
        rc = tb_fail(TB_EINVAL, "--warmup %s is too large", optarg);
      else
        s->warmup = (int)x;
      break;
    case 'f': rc = tb_format_parse(optarg, &o->format); break;
    case 'o': o->output = optarg; break;
    case 'i': s->input_path = optarg; break;
    case O_DUMP: s->dump_path = optarg; break;
    case O_SEED:
      if (!(rc = tb_parse_int(optarg, &x)) && x < 0)
        rc = tb_fail(TB_EINVAL, "--seed %s is negative", optarg);
      s->seed = (uint64_t)x;
      break;
    case O_NOVERIFY: s->verify = 0; break;
    case O_PIVOT: o->pivot = optarg; break;
    case O_LIMIT:
      if (!(rc = tb_parse_size(optarg, "--limit-size", &x)) && x > ((int64_t)1 << 34))
        rc = tb_fail(TB_EINVAL, "--limit-size %s is too large", optarg);
      s->limit_elems = x;
      break;
    case 'h':
      fputs(tb_usage_run, stdout);
      *exit_now = 1;
      return TB_OK;
    default:
      if (c >= O_ALGO_PARAM && c < O_ALGO_PARAM + npdefs) {
        const char *name = pdefs[c - O_ALGO_PARAM]->name;
        size_t len = strlen(name) + strlen(optarg) + 2;
        if ((params[nparams] = malloc(len)))
          snprintf(params[nparams++], len, "%s=%s", name, optarg);
        else
          rc = tb_fail(TB_ENOMEM, "out of memory");
      } else if (optopt)
        rc = tb_fail(TB_EINVAL, "option -%c is unknown or needs a value", optopt);
      else
        rc = tb_fail(TB_EINVAL, "unknown option '%s'", argv[optind - 1]);
    }
  }
  if (rc)
    return rc;
  if (optind >= argc)
    return tb_fail(TB_EINVAL, "run needs an algorithm (see 'twinbench list')");
  s->algo = tb_algo_find(argv[optind]);
  if (!s->algo)
    return tb_fail(TB_EINVAL, "unknown algorithm '%s' (see 'twinbench list')", argv[optind]);
  if ((rc = tb_algo_fits(s->algo)))
    return rc;
  if (optind + 1 < argc)
    return tb_fail(TB_EINVAL, "unexpected argument '%s' after the algorithm", argv[optind + 1]);

  /* Backends. */
  if (backends) {
    char **items;
    int count;
    if (!(rc = tb_list_split(backends, &items, &count))) {
      for (int i = 0; i < count && !rc; i++) {
        int b;
        if (!(rc = tb_backend_parse(items[i], &b)))
          s->use[b] = 1;
      }
      tb_list_free(items, count);
    }
  } else
    s->use[TB_CPU] = s->use[TB_GPU] = 1;

  /* Parameters: defaults, then the user's. */
  for (int k = 0; k < s->algo->nparams && !rc; k++)
    rc = tb_param_parse_list(&s->algo->params[k], s->algo->params[k].defaults, &s->pv[k],
                             &s->npv[k]);
  for (int i = 0; i < nparams && !rc; i++)
    rc = tb_set_param(s, params[i]);
  if (rc)
    return rc;

  if ((rc = tb_set_precisions(s, precisions, s->algo->default_precisions)))
    return rc;
  if (s->input_path) {
    if (!(s->algo->flags & TB_ALGO_INPUT))
      return tb_fail(TB_EINVAL, "%s does not read input files (--input)", s->algo->name);
    if (sizes)
      return tb_fail(TB_EINVAL, "--size cannot be combined with --input: the file sets the size");
    sizes = "1";
  }
  if (s->dump_path && !s->algo->dump)
    return tb_fail(TB_EINVAL, "%s does not write dumps (--dump)", s->algo->name);
  if ((rc = tb_set_sizes(s, sizes ? sizes : s->algo->default_sizes)))
    return rc;

  /* Threads and placement. */
  int sweep[64], nsweep = tb_topo_thread_sweep(topo, sweep);
  if (threads) {
    if ((rc = tb_parse_int_list("--threads", threads, "sweep", sweep, nsweep, &s->threads,
                                &s->nthreads)))
      return rc;
  } else {
    s->threads = malloc(sizeof *s->threads);
    if (!s->threads)
      return tb_fail(TB_ENOMEM, "out of memory");
    s->threads[0] = tb_topo_ncores(topo);
    s->nthreads = 1;
  }
  {
    char **items;
    int count;
    if ((rc = tb_list_split(placements, &items, &count)))
      return tb_fail(rc, "--placement: %s", tb_error_detail());
    s->placements = malloc((size_t)count * sizeof *s->placements);
    s->nplacements = count;
    for (int i = 0; i < count && !rc; i++)
      rc = s->placements ? tb_placement_parse(items[i], &s->placements[i])
                         : tb_fail(TB_ENOMEM, "out of memory");
    tb_list_free(items, count);
    if (rc)
      return rc;
  }
  if ((rc = tb_parse_int_list("--block", blocks, "sweep", block_sweep, 6, &s->blocks,
                              &s->nblocks)))
    return rc;
  if ((rc = tb_parse_int_list("--grid", grids, "auto", auto_grid, 1, &s->grids, &s->ngrids)))
    return rc;
  s->progress = isatty(STDERR_FILENO);
  return TB_OK;
}

static int tb_cmd_run(int argc, char **argv)
{
  tb_run_opts_t o;
  tb_topo_t *topo = NULL;
  tb_results_t res = {0};
  tb_run_state_t st;
  tb_outfile_t out = {0};
  int rc, exit_now, status = TB_EXIT_OK;

  memset(&o, 0, sizeof o);
  o.command_line = tb_join_args(argc, argv);
  if ((rc = tb_topo_open(&topo)))
    return tb_error(rc);
  rc = tb_run_parse(argc, argv, &o, topo, &exit_now);
  if (rc || exit_now) {
    status = rc ? tb_error(rc) : TB_EXIT_OK;
    goto done;
  }
  if (o.pivot && (rc = tb_pivot_check(o.s.algo, o.pivot))) {
    status = tb_error(rc);
    goto done;
  }
  if ((rc = tb_sweep_check(&o.s, topo, &st))) {
    status = tb_error(rc);
    goto done;
  }
  /* Claim the output file before any work, so an unwritable path costs nothing. */
  if (o.output && (rc = tb_outfile_open(&out, o.output))) {
    status = tb_error(rc);
    goto done;
  }

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = tb_on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);

  int run_rc = tb_sweep_run(&o.s, topo, &st, &res);
  if (run_rc)
    status = tb_error(run_rc);

  tb_report_t rep = {o.s.algo, topo, st.gpu_ok, st.gpu, st.gpu_reason, o.command_line,
                     st.interrupted};
  FILE *f = o.output ? out.f : stdout;
  rc = tb_report_write(f, o.format, &res, &rep);
  if (!rc && o.output)
    rc = tb_outfile_commit(&out);
  if (rc) {
    if (o.output)
      tb_outfile_abort(&out);
    status = tb_error(rc);
  } else if (o.output)
    fprintf(stderr, "twinbench: wrote %d results to %s\n", res.n, o.output);
  /* CSV and JSON stay machine-readable: the views go to stderr. A table
   * written to a file gets its pivot view on stdout. */
  if (o.format != TB_FMT_TABLE)
    tb_report_speedups(stderr, &res);
  if (o.pivot)
    tb_report_pivot(o.format != TB_FMT_TABLE ? stderr : stdout, &res, o.s.algo, o.pivot);
  if (status == TB_EXIT_OK && st.failures) {
    fprintf(stderr, "twinbench: %d of %d results FAILED verification\n", st.failures, res.n);
    status = TB_EXIT_VERIFY;
  }
  if (status == TB_EXIT_OK && res.n == 0) {
    fprintf(stderr, "twinbench: no configuration ran\n");
    status = TB_EXIT_ERROR;
  }

done:
  tb_results_free(&res);
  tb_run_opts_free(&o);
  tb_topo_close(topo);
  return status;
}

/* ---- main -------------------------------------------------------------- */

int main(int argc, char **argv)
{
  if (argc < 2) {
    fputs(tb_usage_main, stderr);
    return TB_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    fputs(tb_usage_main, stdout);
    return TB_EXIT_OK;
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
    printf("twinbench %s (%s)\n", PACKAGE_VERSION, tb_git_revision());
    return TB_EXIT_OK;
  }
  if (!strcmp(cmd, "help")) {
    const char *t = argc > 2 ? argv[2] : "";
    fputs(!strcmp(t, "run")    ? tb_usage_run
          : !strcmp(t, "list") ? tb_usage_list
          : !strcmp(t, "info") ? tb_usage_info
                               : tb_usage_main,
          stdout);
    return TB_EXIT_OK;
  }
  /* Each command parses its own options from its own argv. */
  optind = 1;
  if (!strcmp(cmd, "info"))
    return tb_cmd_info(argc - 1, argv + 1);
  if (!strcmp(cmd, "list"))
    return tb_cmd_list(argc - 1, argv + 1);
  if (!strcmp(cmd, "run"))
    return tb_cmd_run(argc - 1, argv + 1);
  fprintf(stderr, "twinbench: unknown command '%s' (commands: info, list, run, help)\n", cmd);
  return TB_EXIT_USAGE;
}
