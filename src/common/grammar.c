/* twinbench: the run grammar. */
#include <config.h>

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grammar.h"
#include "params.h"
#include "parse.h"
#include "registry.h"
#include "report.h"

enum {
  O_DUMP = 256, O_SEED, O_NOVERIFY, O_PIVOT, O_COLUMNS, O_WIDE, O_MIN_TIME, O_MAX_NOISE, O_ENERGY,
  O_SETTING = 1024 /* + the index of a name */
};

static const struct option tb_base_opts[] = {
    {"backend", required_argument, NULL, 'b'},  {"variant", required_argument, NULL, 'v'},
    {"precision", required_argument, NULL, 'p'}, {"size", required_argument, NULL, 'n'},
    {"param", required_argument, NULL, 'P'},    {"repeat", required_argument, NULL, 'r'},
    {"warmup", required_argument, NULL, 'w'},   {"format", required_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},   {"input", required_argument, NULL, 'i'},
    {"dump", required_argument, NULL, O_DUMP},  {"seed", required_argument, NULL, O_SEED},
    {"no-verify", no_argument, NULL, O_NOVERIFY}, {"pivot", required_argument, NULL, O_PIVOT},
    {"columns", required_argument, NULL, O_COLUMNS}, {"wide", no_argument, NULL, O_WIDE},
    {"min-time", required_argument, NULL, O_MIN_TIME},
    {"max-noise", required_argument, NULL, O_MAX_NOISE},
    {"energy", no_argument, NULL, O_ENERGY},
    {"quiet", no_argument, NULL, 'q'},          {"help", no_argument, NULL, 'h'}};
enum { TB_NBASE = sizeof tb_base_opts / sizeof tb_base_opts[0] };

/* ':' first: a missing value is reported as ':', not as an unknown option. */
static const char tb_short_opts[] = ":b:v:p:n:P:t:r:w:f:o:i:qh";

/* Short forms of parameters. */
static const struct {
  char c;
  const char *name;
} tb_aliases[] = {{'t', "threads"}};

static char tb_alias_of(const char *name)
{
  for (size_t i = 0; i < sizeof tb_aliases / sizeof tb_aliases[0]; i++)
    if (!strcmp(tb_aliases[i].name, name))
      return tb_aliases[i].c;
  return 0;
}

static const char tb_usage_head[] =
    "usage: twinbench run ALGO [OPTIONS]\n"
    "\n"
    "Every list option is a sweep axis; all combinations run.\n"
    "  -b, --backend LIST      backends to run (default: all; a missing one is skipped when\n"
    "                          another runs)\n"
    "  -v, --variant LIST      variants to run (default: all)\n"
    "  -p, --precision LIST    int32, float, double (default: the algorithm's)\n"
    "  -n, --size LIST         sizes: 1000, 4K, 16M, 2^22, 2^22+5, ranges (below), a preset\n"
    "                          name, or auto (STREAM's rule: 4 x the last-level caches,\n"
    "                          2^25..2^28)\n"
    "  -P, --param NAME=LIST   a parameter (repeatable); --NAME LIST is the same\n"
    "  -r, --repeat N          timed runs per configuration (default 10)\n"
    "  -w, --warmup N          untimed runs before them (default 2)\n"
    "      --min-time S        repeat (beyond --repeat) until the timed runs add to S seconds\n"
    "      --max-noise PCT     repeat (beyond --repeat) until the runs' cv is at most PCT\n"
    "                          percent, or after 15 s of runs (or twice --min-time)\n"
    "  -o, --output FILE       also write the report to FILE (repeatable, up to 8); the\n"
    "                          format is the extension's: .csv, .json, .md (Markdown),\n"
    "                          .txt (the table); '-' is stdout. The table stays on the\n"
    "                          terminal unless an output is '-' or --quiet is given\n"
    "  -f, --format F          table, csv, json or markdown: the format on stdout when no\n"
    "                          --output is given, and of outputs whose extension is none\n"
    "                          of those (default table)\n"
    "      --columns LIST      the table's columns, by their CSV names, in this order\n"
    "      --wide              every column in the table (default: those that vary and the\n"
    "                          figures, within 120 characters; the rest once above it)\n"
    "  -q, --quiet             no progress line, notes or table on the terminal (errors\n"
    "                          still; without --output the report still goes to stdout)\n"
    "  -i, --input FILE        read the problem from FILE (algorithms that take input)\n"
    "      --dump FILE         write the first verified configuration's results as CSV\n"
    "      --seed S            seed of the generated problems (default 1)\n"
    "      --no-verify         do not verify (rows are marked 'skipped')\n"
    "      --energy            read the backends' energy counters around each row's runs:\n"
    "                          joules per run, mean power, J/GB (runs are added until the\n"
    "                          window is 0.5 s; see twinbench info for the counters)\n"
    "      --pivot ROWS:COL[:CELL]  also show the results as a table: rows by the\n"
    "                          columns ROWS (joined with +), one column per value of\n"
    "                          COL, cells the best CELL (default gbs), with the best\n"
    "                          per row and its ratio to the first row's best\n"
    "  -h, --help              this text\n"
    "\n"
    "Parameters, each also an option --NAME LIST: the algorithm's (twinbench list ALGO),\n"
    "the variants' tuning parameters (twinbench list ALGO; a variant without the\n"
    "parameter ignores it), and the backends' options:\n";

static const char tb_usage_tail[] =
    "\n"
    "A list of integers (sizes, threads, integer parameters) takes ranges too, each\n"
    "ending at B: A:B doubles (2^16:2^24; 1:12 is 1,2,4,8,12), A:B:S steps by S\n"
    "(1:16:1, 2:8:2), A:B:*F multiplies by F (1:64:*4); items mix: 1,3:12:3,16.\n"
    "\n"
    "Times are medians over the repeats (min and max are reported too). GPU\n"
    "kernels are timed with CUDA events; transfers separately, from pageable and\n"
    "pinned memory. Bytes are counted STREAM-style (no write-allocate).\n";

void tb_grammar_usage(FILE *f)
{
  fputs(tb_usage_head, f);
  for (int b = 0; b < tb_backend_count(); b++) {
    const tb_backend_t *be = tb_backend_at(b);
    for (int k = 0; k < be->noptions; k++) {
      char c = tb_alias_of(be->options[k].name);
      fprintf(f, "  %c%c%c --%-18s %s: %s (default %s)\n", c ? '-' : ' ', c ? c : ' ',
              c ? ',' : ' ', be->options[k].name, be->name, be->options[k].summary,
              be->options[k].defaults);
    }
    for (int k = 0; k < be->ntuning; k++)
      fprintf(f, "      --%-18s %s: %s (default %s%s%s)\n", be->tuning[k].name, be->name,
              be->tuning[k].summary, be->tuning[k].defaults,
              be->tuning[k].sweep ? "; sweep: " : "",
              be->tuning[k].sweep ? be->tuning[k].sweep : "");
  }
  fputs(tb_usage_tail, f);
}

/* ---- The names that are options ---------------------------------------- */

int tb_grammar_is_fixed(const char *name)
{
  for (int i = 0; i < TB_NBASE; i++)
    if (!strcmp(tb_base_opts[i].name, name))
      return 1;
  return 0;
}

/* Every parameter name of the build, once: problem parameters, backend
 * options, backend and variant tuning parameters. */
typedef struct tb_names {
  int n;
  const char *name[512];
} tb_names_t;

static void tb_names_add(tb_names_t *nm, const char *name)
{
  for (int i = 0; i < nm->n; i++)
    if (!strcmp(nm->name[i], name))
      return;
  if (tb_grammar_is_fixed(name))
    return;
  if (nm->n < (int)(sizeof nm->name / sizeof nm->name[0]))
    nm->name[nm->n++] = name;
}

static void tb_names_collect(tb_names_t *nm)
{
  nm->n = 0;
  for (const tb_algo_t *const *a = tb_algos; *a; a++)
    for (int k = 0; k < (*a)->nparams; k++)
      tb_names_add(nm, (*a)->params[k].name);
  for (int b = 0; b < tb_backend_count(); b++) {
    const tb_backend_t *be = tb_backend_at(b);
    for (int k = 0; k < be->noptions; k++)
      tb_names_add(nm, be->options[k].name);
    for (int k = 0; k < be->ntuning; k++)
      tb_names_add(nm, be->tuning[k].name);
    for (const tb_variant_t *const *v = tb_backend_variants(b); *v; v++)
      for (int k = 0; k < (*v)->ntuning; k++)
        tb_names_add(nm, (*v)->tuning[k].name);
  }
}

/* The getopt table: the fixed options, then one per name. */
static struct option *tb_options_table(const tb_names_t *nm)
{
  struct option *opts = calloc((size_t)(TB_NBASE + nm->n + 1), sizeof *opts);
  if (!opts)
    return NULL;
  memcpy(opts, tb_base_opts, sizeof tb_base_opts);
  for (int j = 0; j < nm->n; j++)
    opts[TB_NBASE + j] = (struct option){nm->name[j], required_argument, NULL, O_SETTING + j};
  return opts;
}

/* ---- Settings ---------------------------------------------------------- */

static int tb_setting_add(tb_run_opts_t *o, const char *name, size_t len, const char *list)
{
  char *n = strndup(name, len), *l = strdup(list);
  if (!n || !l) {
    free(n);
    free(l);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  o->settings[o->nsettings].name = n;
  o->settings[o->nsettings++].list = l;
  return TB_OK;
}

/* --param NAME=LIST. */
static int tb_setting_param(tb_run_opts_t *o, const char *arg)
{
  const char *eq = strchr(arg, '=');
  char shown[64];
  if (!eq || eq == arg || eq - arg > 64)
    return tb_fail(TB_EINVAL, "--param takes NAME=LIST, not '%s'",
                   tb_printable(arg, shown, sizeof shown));
  return tb_setting_add(o, arg, (size_t)(eq - arg), eq + 1);
}

/* A message for what getopt refused: argv[optind - 1] (or the short option). */
static int tb_option_error(int c, char **argv, const struct option *opts)
{
  char shown[64];
  const char *arg = argv[optind - 1];
  if (c == ':')
    return tb_fail(TB_EINVAL, "option '%s' needs a value", tb_printable(arg, shown, sizeof shown));
  if (optopt && optopt < 256 && strncmp(arg, "--", 2))
    return tb_fail(TB_EINVAL, "unknown option '-%c'", optopt >= 0x20 && optopt < 0x7f ? optopt : '?');
  if (optopt)
    return tb_fail(TB_EINVAL, "option '%s' takes no value", tb_printable(arg, shown, sizeof shown));
  if (!strncmp(arg, "--", 2)) {
    size_t len = strcspn(arg + 2, "=");
    char alts[256];
    size_t k = 0;
    int matches = 0;
    for (const struct option *p = opts; p->name; p++)
      if (len && !strncmp(p->name, arg + 2, len) && k < sizeof alts) {
        k += (size_t)snprintf(alts + k, sizeof alts - k, "%s--%s", matches ? ", " : "", p->name);
        matches++;
      }
    if (matches > 1) {
      char name[64];
      snprintf(name, sizeof name, "%.*s", (int)len, arg + 2);
      return tb_fail(TB_EINVAL, "option '--%s' is ambiguous (%s)",
                     tb_printable(name, shown, sizeof shown), alts);
    }
  }
  return tb_fail(TB_EINVAL, "unknown option '%s'", tb_printable(arg, shown, sizeof shown));
}

/* ---- Parsing ----------------------------------------------------------- */

static int tb_parse_count(const char *text, const char *what, int zero_ok, int *out)
{
  int64_t x;
  if (zero_ok && !strcmp(text, "0")) {
    *out = 0;
    return TB_OK;
  }
  int rc = tb_parse_size(text, what, &x);
  if (!rc && x > 1000000)
    rc = tb_fail(TB_EINVAL, "%s %s is too large (at most 1000000)", what, text);
  if (!rc)
    *out = (int)x;
  return rc;
}

/* A real number in [lo, hi]. */
static int tb_parse_bounded(const char *text, const char *what, double lo, double hi,
                            double *out)
{
  char shown[64];
  if (tb_parse_real(text, out) || !(*out >= lo && *out <= hi))
    return tb_fail(TB_EINVAL, "%s takes a number in [%g, %g], not '%s'", what, lo, hi,
                   tb_printable(text, shown, sizeof shown));
  return TB_OK;
}

/* One fixed option. */
static int tb_grammar_option(tb_run_opts_t *o, int c, const char *arg, const char **texts)
{
  tb_sweep_t *s = &o->s;
  int64_t x;
  int rc = TB_OK;
  switch (c) {
  case 'b': texts[0] = arg; break;
  case 'v':
    tb_list_free(s->variants, s->nvariants);
    s->variants = NULL;
    if ((rc = tb_list_split(arg, &s->variants, &s->nvariants)))
      rc = tb_fail(rc, "--variant: %s", tb_error_detail());
    break;
  case 'p': texts[1] = arg; break;
  case 'n': texts[2] = arg; break;
  case 'P': rc = tb_setting_param(o, arg); break;
  case 'r': rc = tb_parse_count(arg, "--repeat", 0, &s->repeat); break;
  case 'w': rc = tb_parse_count(arg, "--warmup", 1, &s->warmup); break;
  case 'f':
    rc = tb_format_parse(arg, &o->format);
    o->format_given = 1;
    break;
  case 'o':
    if (o->noutputs == TB_MAX_OUTPUTS)
      rc = tb_fail(TB_EINVAL, "at most %d --output files", TB_MAX_OUTPUTS);
    else
      o->output[o->noutputs++] = arg;
    break;
  case 'q': o->quiet = 1; break;
  case O_COLUMNS: o->columns = arg; break;
  case O_WIDE: o->wide = 1; break;
  case 'i': s->input_path = arg; break;
  case O_DUMP: s->dump_path = arg; break;
  case O_SEED:
    if (!(rc = tb_parse_int(arg, &x)) && x < 0)
      rc = tb_fail(TB_EINVAL, "--seed %s is negative", arg);
    else if (rc)
      rc = tb_fail(rc, "--seed %s", tb_error_detail());
    s->seed = (uint64_t)x;
    break;
  case O_NOVERIFY: s->verify = 0; break;
  case O_ENERGY: s->energy = 1; break;
  case O_MIN_TIME: rc = tb_parse_bounded(arg, "--min-time", 0, 3600, &s->min_time); break;
  case O_MAX_NOISE:
    if (!(rc = tb_parse_bounded(arg, "--max-noise", 0, 100, &s->max_noise)))
      s->max_noise /= 100;
    break;
  case O_PIVOT: o->pivot = arg; break;
  default:
    for (size_t i = 0; i < sizeof tb_aliases / sizeof tb_aliases[0]; i++)
      if (c == tb_aliases[i].c)
        rc = tb_setting_add(o, tb_aliases[i].name, strlen(tb_aliases[i].name), arg);
  }
  return rc;
}

/* The options, into o (texts: --backend, --precision, --size). */
static int tb_grammar_getopt(int argc, char **argv, tb_run_opts_t *o, const char **texts,
                             int *exit_now)
{
  tb_names_t nm;
  int c, rc = TB_OK;
  tb_names_collect(&nm);
  struct option *opts = tb_options_table(&nm);
  if (!opts || !(o->settings = calloc((size_t)argc + 1, sizeof *o->settings))) {
    free(opts);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  optind = 1;
  opterr = 0;
  while (!rc && (c = getopt_long(argc, argv, tb_short_opts, opts, NULL)) != -1) {
    if (c == 'h') {
      tb_grammar_usage(stdout);
      *exit_now = 1;
      break;
    }
    if (c == '?' || c == ':')
      rc = tb_option_error(c, argv, opts);
    else if (c >= O_SETTING)
      rc = tb_setting_add(o, nm.name[c - O_SETTING], strlen(nm.name[c - O_SETTING]), optarg);
    else
      rc = tb_grammar_option(o, c, optarg, texts);
  }
  free(opts);
  return rc;
}

/* Whether name is a tuning parameter of some variant of algo, or common to
 * a backend's variants. */
static int tb_is_tuning(const tb_algo_t *algo, const char *name)
{
  for (int b = 0; b < tb_backend_count(); b++) {
    const tb_backend_t *be = tb_backend_at(b);
    if (tb_param_index(be->tuning, be->ntuning, name) >= 0)
      return 1;
    for (const tb_variant_t *const *v = tb_backend_variants(b); *v; v++)
      if ((*v)->algo == algo && tb_param_index((*v)->tuning, (*v)->ntuning, name) >= 0)
        return 1;
  }
  return 0;
}

/* A backend option: its value goes to every backend that has one of that name. */
static int tb_set_option(tb_sweep_t *s, const tb_setting_t *st)
{
  int found = 0;
  for (int b = 0; b < tb_backend_count(); b++) {
    const tb_backend_t *be = tb_backend_at(b);
    int k = tb_param_index(be->options, be->noptions, st->name);
    if (k >= 0 && k < TB_MAX_OPTIONS) {
      s->option[b][k] = st->list;
      found = 1;
    }
  }
  return found;
}

/* Each setting is a problem parameter, a backend option or a tuning
 * parameter (later ones replace earlier ones of the same name). */
static int tb_grammar_settings(tb_run_opts_t *o)
{
  tb_sweep_t *s = &o->s;
  const tb_algo_t *a = s->algo;
  char known[512], shown[64];
  s->tuning = calloc((size_t)o->nsettings + 1, sizeof *s->tuning);
  if (!s->tuning)
    return tb_fail(TB_ENOMEM, "out of memory");
  for (int i = 0; i < o->nsettings; i++) {
    const tb_setting_t *st = &o->settings[i];
    int k = tb_param_index(a->params, a->nparams, st->name);
    if (k >= 0) {
      tb_param_list_free(s->pv[k], s->npv[k]);
      s->pv[k] = NULL;
      s->npv[k] = 0;
      int rc = tb_param_parse_list(&a->params[k], st->list, &s->pv[k], &s->npv[k]);
      if (rc)
        return rc;
    } else if (tb_set_option(s, st)) {
      continue;
    } else if (tb_is_tuning(a, st->name)) {
      int j = 0;
      while (j < s->ntuning && strcmp(s->tuning[j].name, st->name))
        j++;
      s->tuning[j] = *st;
      s->ntuning += j == s->ntuning;
    } else {
      tb_params_names(a->params, a->nparams, known, sizeof known);
      return tb_fail(TB_EINVAL, "unknown parameter '%s' for %s (known: %s)",
                     tb_printable(st->name, shown, sizeof shown), a->name,
                     known[0] ? known : "none");
    }
  }
  return TB_OK;
}

static int tb_grammar_backends(tb_sweep_t *s, const char *text)
{
  char **items;
  int count, rc;
  if (!text) {
    for (int b = 0; b < tb_backend_count(); b++)
      s->use[b] = 1;
    return TB_OK;
  }
  if ((rc = tb_list_split(text, &items, &count)))
    return tb_fail(rc, "--backend: %s", tb_error_detail());
  for (int i = 0; i < count && !rc; i++) {
    int b;
    if (!(rc = tb_backend_parse(items[i], &b)))
      s->use[b] = 1;
  }
  tb_list_free(items, count);
  return rc;
}

static int tb_grammar_precisions(tb_sweep_t *s, const char *text)
{
  char **items;
  int count, rc = TB_OK;
  s->nprec = 0;
  if (!text) {
    for (int p = 0; p < TB_NPREC; p++)
      if (s->algo->default_precisions & TB_PREC_BIT(p))
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

static int tb_grammar_sizes(tb_sweep_t *s, const char *text)
{
  char **items;
  int count, rc;
  if (s->input_path) {
    if (!(s->algo->flags & TB_ALGO_INPUT))
      return tb_fail(TB_EINVAL, "%s does not read input files (--input)", s->algo->name);
    if (text)
      return tb_fail(TB_EINVAL, "--size cannot be combined with --input: the file sets the size");
    text = "1";
  }
  if ((rc = tb_list_split_ints(text ? text : s->algo->default_sizes, "--size", &items, &count)))
    return rc;
  s->sizes = malloc((size_t)count * sizeof *s->sizes);
  s->nsizes = 0;
  for (int i = 0; i < count && !rc && s->sizes; i++) {
    int p = 0;
    while (p < s->algo->npresets && strcmp(s->algo->presets[p].name, items[i]))
      p++;
    if (p < s->algo->npresets)
      s->sizes[s->nsizes++] = s->algo->presets[p].size;
    else if (!strcmp(items[i], "auto"))
      s->sizes[s->nsizes++] = TB_SIZE_AUTO;
    else if (!(rc = tb_parse_size(items[i], "--size", &s->sizes[s->nsizes])))
      s->nsizes++;
  }
  if (!s->sizes)
    rc = tb_fail(TB_ENOMEM, "out of memory");
  tb_list_free(items, count);
  return rc;
}

/* The algorithm named by the one argument after the options. */
static int tb_grammar_algo(int argc, char **argv, tb_sweep_t *s)
{
  char shown[64];
  if (optind >= argc)
    return tb_fail(TB_EINVAL, "run needs an algorithm (see 'twinbench list')");
  if (!(s->algo = tb_algo_find(argv[optind])))
    return tb_fail(TB_EINVAL, "unknown algorithm '%s' (see 'twinbench list')",
                   tb_printable(argv[optind], shown, sizeof shown));
  if (optind + 1 < argc)
    return tb_fail(TB_EINVAL, "unexpected argument '%s' after the algorithm",
                   tb_printable(argv[optind + 1], shown, sizeof shown));
  return tb_algo_fits(s->algo);
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

int tb_grammar_parse(int argc, char **argv, tb_run_opts_t *o, int *exit_now)
{
  tb_sweep_t *s = &o->s;
  const char *texts[3] = {NULL, NULL, NULL}; /* --backend, --precision, --size */
  int rc;
  memset(o, 0, sizeof *o);
  *exit_now = 0;
  s->repeat = 10;
  s->warmup = 2;
  s->verify = 1;
  s->seed = 1;
  o->format = TB_FMT_TABLE;
  if (!(o->command_line = tb_join_args(argc, argv)))
    return tb_fail(TB_ENOMEM, "out of memory");
  if ((rc = tb_grammar_getopt(argc, argv, o, texts, exit_now)) || *exit_now)
    return rc;
  if ((rc = tb_grammar_algo(argc, argv, s)))
    return rc;
  for (int k = 0; k < s->algo->nparams && !rc; k++)
    rc = tb_param_parse_list(&s->algo->params[k], s->algo->params[k].defaults, &s->pv[k],
                             &s->npv[k]);
  if (!rc)
    rc = tb_grammar_settings(o);
  if (!rc)
    rc = tb_grammar_backends(s, texts[0]);
  if (!rc)
    rc = tb_grammar_precisions(s, texts[1]);
  if (!rc && s->dump_path && !s->algo->dump)
    rc = tb_fail(TB_EINVAL, "%s does not write dumps (--dump)", s->algo->name);
  if (!rc)
    rc = tb_grammar_sizes(s, texts[2]);
  s->progress = isatty(STDERR_FILENO) && !o->quiet;
  return rc;
}

void tb_run_opts_free(tb_run_opts_t *o)
{
  tb_sweep_t *s = &o->s;
  tb_list_free(s->variants, s->nvariants);
  free(s->sizes);
  for (int k = 0; k < TB_MAX_PARAMS; k++)
    tb_param_list_free(s->pv[k], s->npv[k]);
  free(s->tuning);
  for (int i = 0; i < o->nsettings; i++) {
    free((char *)o->settings[i].name);
    free((char *)o->settings[i].list);
  }
  free(o->settings);
  free(o->command_line);
  memset(o, 0, sizeof *o);
}
