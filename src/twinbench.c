/* twinbench: the command-line program. It parses, calls the runner and writes
 * the report; the work is in src/common/. Exit status: 0 success, 1 a runtime
 * error, 2 bad usage or input, 3 a result failed verification, 69 a
 * requested backend is not available, 130 interrupted. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/ceilings.h"
#include "common/columns.h"
#include "common/env.h"
#include "common/experiment.h"
#include "common/grammar.h"
#include "common/outfile.h"
#include "common/params.h"
#include "common/parse.h"
#include "common/registry.h"
#include "common/report.h"
#include "common/runner.h"
#include "common/tbmpi.h"
#include "common/topo.h"

enum {
  TB_EXIT_OK = 0,
  TB_EXIT_ERROR = 1,
  TB_EXIT_USAGE = 2,
  TB_EXIT_VERIFY = 3,
  TB_EXIT_UNAVAILABLE = 69,
  TB_EXIT_INTERRUPTED = 130
};

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

/* What a command printed on stdout reached it (a full disk, a closed pipe). */
static int tb_stdout_done(int status)
{
  if (fflush(stdout) || ferror(stdout)) {
    fprintf(stderr, "twinbench: writing the output failed: %s\n", strerror(errno ? errno : EIO));
    return status == TB_EXIT_OK ? TB_EXIT_ERROR : status;
  }
  return status;
}

/* ---- MPI runs ---------------------------------------------------------- */

/* The checks before a sweep fail alike on every rank (the same command
 * line), except for the files that rank 0 alone claims: after them the
 * ranks agree, so that a refusal is one line (rank 0's, or else the first
 * failing rank's) and every rank leaves with a non-zero status instead of
 * waiting for the others in the sweep. Returns the job's status. */
static int tb_mpi_agree(int rc)
{
  const int failed = tb_mpi_max(rc != 0) > 0;
  const int root_failed = tb_mpi_max(tb_mpi_rank() == 0 && rc) > 0;
  const double first = tb_mpi_min(rc ? tb_mpi_rank() : INT_MAX);
  int status = TB_EXIT_OK;
  if (!failed)
    return TB_EXIT_OK;
  if (rc && (tb_mpi_rank() == 0 || (!root_failed && tb_mpi_rank() == (int)first)))
    status = tb_error(rc);
  else if (rc)
    status = tb_exit_for(rc);
  return (int)tb_mpi_max(status ? status : TB_EXIT_ERROR);
}

/* An error during the sweep, on one rank or several: the other ranks may be
 * waiting for this one in a collective, so the job ends here with the
 * rank's one-line message (in a run of one process, or after an interrupt
 * the ranks agreed on: the message, and the run goes on to report what it
 * measured). */
static int tb_sweep_error(int rc)
{
  /* An interrupt is agreed on by every rank (the runner's stop points): they
   * all stop at the same point and rank 0 reports the rows measured. */
  if (tb_mpi_size() > 1 && rc != TB_EINTR) {
    fprintf(stderr, "twinbench: MPI rank %d of %d: %s\n", tb_mpi_rank(), tb_mpi_size(),
            tb_error_detail()[0] ? tb_error_detail() : tb_strerror(rc));
    tb_mpi_abort(tb_exit_for(rc));
  }
  return tb_error(rc);
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
    "  experiment FILE  run a study's run lines into resumable results files\n"
    "  report FILE... a Markdown report with figures from results files (needs\n"
    "                 python3 with matplotlib)\n"
    "  help [COMMAND] this text, or a command's\n"
    "\n"
    "Each command takes --help. 'man twinbench' has the details.\n";

static const char tb_usage_info[] =
    "usage: twinbench info [--ceilings [-b LIST] [BACKEND OPTIONS]]\n"
    "\n"
    "Print the build, the CPU topology (packages, NUMA nodes, cores, PUs,\n"
    "caches) and what each backend has (the OpenMP runtime, the GPU).\n"
    "\n"
    "With --ceilings: measure and print, for every configuration of the\n"
    "backends (-b, --backend LIST; default all that are available), the\n"
    "ceilings a run holds its rows against: memory bandwidth for read-only,\n"
    "1:1 and 2:1 read:write traffic, and FP32 and FP64 FMA throughput. The\n"
    "backend options of 'twinbench run' choose the configurations, e.g.\n"
    "  twinbench info --ceilings -t 1,16\n";

static const char tb_usage_list[] =
    "usage: twinbench list [ALGO]\n"
    "\n"
    "Without ALGO: every algorithm with its variants per backend. With ALGO:\n"
    "its size, precisions, parameters with defaults and ranges, presets,\n"
    "variants with their tuning parameters, and columns.\n";

static const char tb_usage_experiment[] =
    "usage: twinbench experiment FILE [--force] [--dry-run] [--results DIR]\n"
    "                            [--machine NAME] [--only NAME,...]\n"
    "\n"
    "Run every run line of the experiment file FILE (doc/experiments.md): a\n"
    "'study NAME' line, variables 'NAME = VALUE' used as $NAME or ${NAME}\n"
    "(built-ins from this machine: CORES, PUS, THREADS, MEM, LLC, GPU, GPU_MEM;\n"
    "$((EXPR)) computes integers), and lines 'run NAME: ALGO OPTIONS' whose\n"
    "options are those of 'twinbench run' (no report options). Each row is\n"
    "added as it finishes to DIR/STUDY/MACHINE.csv and .json, each rewritten\n"
    "whole through a temporary file; a second run skips the rows recorded for\n"
    "the same run line and configuration, so an interrupted study resumes.\n"
    "A run line whose backends are missing here (a GPU line without a GPU) is\n"
    "skipped with a note.\n"
    "\n"
    "      --force         make the recorded rows again (they are replaced)\n"
    "      --dry-run       print the expanded run lines and their row counts;\n"
    "                      write nothing\n"
    "      --results DIR   the results folder (default: results)\n"
    "      --machine NAME  the results file's name (default: the host name)\n"
    "      --only LIST     run only these run lines, by name\n"
    "  -h, --help          this text\n"
    "\n"
    "Exit status: 0 done, 1 a runtime error, 2 a bad file or option, 3 a row\n"
    "failed verification (it is recorded), 130 interrupted (the rows made\n"
    "are kept).\n";

/* Options of info and list: --help alone. Returns -1 to go on, or an exit status. */
static int tb_help_only(int argc, char **argv, const char *cmd, const char *usage)
{
  static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    if (c == 'h') {
      fputs(usage, stdout);
      return tb_stdout_done(TB_EXIT_OK);
    }
    char shown[64];
    fprintf(stderr, "twinbench %s: unknown option '%s' (see 'twinbench %s --help')\n", cmd,
            tb_printable(argv[optind - 1], shown, sizeof shown), cmd);
    return TB_EXIT_USAGE;
  }
  return -1;
}

/* ---- info -------------------------------------------------------------- */

/* info --ceilings [-b LIST] [--OPTION LIST | --OPTION=LIST | -t LIST]...:
 * the backends' options as a run takes them. */
static int tb_cmd_ceilings(int argc, char **argv)
{
  const char *option[TB_MAX_BACKENDS][TB_MAX_OPTIONS] = {{NULL}};
  const char *backends = NULL;
  int use[TB_MAX_BACKENDS] = {0};
  char shown[64];
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i], *eq = strchr(arg, '='), *val = NULL;
    char name[64];
    if (!strcmp(arg, "--ceilings"))
      continue;
    if (!strncmp(arg, "--", 2) && strlen(arg) < sizeof name + 2)
      snprintf(name, sizeof name, "%.*s", (int)(eq ? eq - arg - 2 : (long)strlen(arg) - 2),
               arg + 2);
    else if (!strcmp(arg, "-t") || !strcmp(arg, "-b"))
      snprintf(name, sizeof name, "%s", arg[1] == 't' ? "threads" : "backend");
    else {
      fprintf(stderr, "twinbench info: unexpected '%s' (see 'twinbench info --help')\n",
              tb_printable(arg, shown, sizeof shown));
      return TB_EXIT_USAGE;
    }
    if (eq && !strncmp(arg, "--", 2))
      val = eq + 1;
    else if (i + 1 < argc)
      val = argv[++i];
    else {
      fprintf(stderr, "twinbench info: option '%s' needs a value\n",
              tb_printable(arg, shown, sizeof shown));
      return TB_EXIT_USAGE;
    }
    int found = !strcmp(name, "backend");
    if (found)
      backends = val;
    for (int b = 0; b < tb_backend_count(); b++)
      for (int k = 0; k < tb_backend_at(b)->noptions; k++)
        if (!strcmp(tb_backend_at(b)->options[k].name, name)) {
          option[b][k] = val;
          found = 1;
        }
    if (!found) {
      fprintf(stderr, "twinbench info: '--%s' is no backend option (see 'twinbench run --help')\n",
              tb_printable(name, shown, sizeof shown));
      return TB_EXIT_USAGE;
    }
  }
  int asked[TB_MAX_BACKENDS] = {0};
  if (backends) {
    char **names = NULL;
    int n = 0, rc = tb_list_split(backends, &names, &n), b;
    for (int i = 0; i < n && !rc; i++)
      if (!(rc = tb_backend_parse(names[i], &b)))
        asked[b] = 1;
    tb_list_free(names, n);
    if (rc)
      return tb_error(rc);
  }
  for (int b = 0; b < tb_backend_count(); b++) {
    const tb_backend_t *be = tb_backend_at(b);
    if (backends && !asked[b])
      continue;
    if (be->probe() == TB_OK)
      use[b] = 1;
    else if (asked[b]) {
      fprintf(stderr, "twinbench: the %s backend is not available: %s\n", be->name,
              tb_error_detail());
      return TB_EXIT_UNAVAILABLE;
    } else
      fprintf(stderr, "twinbench: note: the %s backend is not available: %s\n", be->name,
              tb_error_detail());
  }
  tb_topo_t *topo;
  int rc = tb_topo_open(&topo);
  if (!rc)
    rc = tb_ceilings_print(stdout, topo, use, (const char *const(*)[TB_MAX_OPTIONS])option);
  if (topo)
    tb_topo_close(topo);
  return rc ? tb_error(rc) : tb_stdout_done(TB_EXIT_OK);
}

static int tb_cmd_info(int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--ceilings"))
      return tb_cmd_ceilings(argc - 1, argv + 1);
  int status = tb_help_only(argc, argv, "info", tb_usage_info);
  if (status >= 0)
    return status;
  if (optind < argc) {
    fprintf(stderr, "twinbench info: takes no arguments but --ceilings (see 'twinbench info "
                    "--help')\n");
    return TB_EXIT_USAGE;
  }
  tb_topo_t *topo;
  int rc = tb_topo_open(&topo);
  if (rc)
    return tb_error(rc);
  tb_build_print(stdout);
  tb_topo_print(topo, stdout);
  for (int b = 0; b < tb_backend_count(); b++) {
    printf("%s backend: %s\n", tb_backend_at(b)->name, tb_backend_at(b)->summary);
    if (tb_backend_at(b)->info)
      tb_backend_at(b)->info(stdout);
  }
  tb_topo_close(topo);
  return tb_stdout_done(TB_EXIT_OK);
}

/* ---- list -------------------------------------------------------------- */

static void tb_list_variants(const tb_algo_t *a, int b, FILE *f)
{
  int first = 1;
  for (const tb_variant_t *const *v = tb_backend_variants(b); *v; v++)
    if ((*v)->algo == a) {
      fprintf(f, "%s%s", first ? "" : ", ", (*v)->name);
      first = 0;
    }
  if (first)
    fprintf(f, "(none in this build)");
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

/* One parameter: its summary, default and what it takes. */
static void tb_list_param(const tb_param_def_t *d, const char *indent)
{
  printf("%s%-12s %s; default %s; ", indent, d->name, d->summary, d->defaults);
  if (d->type == TB_PARAM_CHOICE) {
    printf("one of");
    for (int k = 0; d->choices[k]; k++)
      printf(" %s", d->choices[k]);
  } else if (d->type == TB_PARAM_TEXT)
    printf("text");
  else if (d->type == TB_PARAM_INT)
    printf("%s in [%.0f, %.0f]%s%s", (d->flags & TB_PARAM_POW2) ? "a power of two" : "integer",
           d->min, d->max, (d->flags & TB_PARAM_AUTO) ? ", or auto" : "",
           d->sweep ? ", or sweep" : "");
  else
    printf("real in [%g, %g]", d->min, d->max);
  printf("\n");
}

static void tb_list_one(const tb_algo_t *a)
{
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
    printf("  %-12s %s = %lld: %s\n", i ? "" : "presets:", a->presets[i].name,
           (long long)a->presets[i].size, a->presets[i].summary);
  if (a->nparams)
    printf("  parameters (--param NAME=LIST, or --NAME LIST):\n");
  for (int i = 0; i < a->nparams; i++)
    tb_list_param(&a->params[i], "    ");
  printf("  variants (tuning parameters, each also --NAME LIST):\n");
  for (int b = 0; b < tb_backend_count(); b++) {
    for (const tb_variant_t *const *v = tb_backend_variants(b); *v; v++)
      if ((*v)->algo == a) {
        printf("    %-4s %-16s ", tb_backend_at(b)->name, (*v)->name);
        tb_list_precisions((*v)->precisions, stdout);
        printf("%s: %s\n", ((*v)->flags & TB_V_SERIAL) ? "; one thread" : "", (*v)->summary);
        for (int k = 0; k < (*v)->ntuning; k++)
          tb_list_param(&(*v)->tuning[k], "           ");
      }
    if (!tb_variant_count(a, b))
      printf("    %-4s (none in this build)\n", tb_backend_at(b)->name);
  }
  if (a->ncolumns)
    printf("  columns:\n");
  for (int i = 0; i < a->ncolumns; i++)
    printf("    %-12s %s\n", a->columns[i].name, a->columns[i].summary);
  printf("  error:       %s\n", a->error_meaning);
}

static int tb_cmd_list(int argc, char **argv)
{
  int status = tb_help_only(argc, argv, "list", tb_usage_list);
  if (status >= 0)
    return status;
  if (optind == argc) {
    for (const tb_algo_t *const *a = tb_algos; *a; a++) {
      printf("%-14s %s\n", (*a)->name, (*a)->summary);
      for (int b = 0; b < tb_backend_count(); b++) {
        printf("%-14s %s: ", "", tb_backend_at(b)->name);
        tb_list_variants(*a, b, stdout);
        printf("\n");
      }
    }
    return tb_stdout_done(TB_EXIT_OK);
  }
  if (optind + 1 < argc) {
    fprintf(stderr, "twinbench list: takes at most one algorithm (see 'twinbench list --help')\n");
    return TB_EXIT_USAGE;
  }
  const tb_algo_t *a = tb_algo_find(argv[optind]);
  if (!a) {
    char shown[64];
    fprintf(stderr, "twinbench: unknown algorithm '%s' (see 'twinbench list')\n",
            tb_printable(argv[optind], shown, sizeof shown));
    return TB_EXIT_USAGE;
  }
  tb_list_one(a);
  return tb_stdout_done(TB_EXIT_OK);
}

/* ---- run --------------------------------------------------------------- */

static void tb_on_signal(int sig)
{
  (void)sig;
  tb_runner_interrupt();
}

/* SIGINT and SIGTERM stop a sweep in the row that runs, between two of its
 * runs (runner.c; an MPI run's ranks after the row, where they agree); a
 * closed pipe is a write error that the command says, not a silent death. */
static void tb_catch_signals(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = tb_on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
}

/* An output path that names one of the run's inputs, or the other output. */
static int tb_run_path_clash(const tb_run_opts_t *o, const char *out, const char *what)
{
  const tb_sweep_t *s = &o->s;
  char shown[128];
  if (s->input_path && tb_path_same(out, s->input_path))
    return tb_fail(TB_EINVAL, "%s '%s' is the --input file", what,
                   tb_printable(out, shown, sizeof shown));
  for (int k = 0; k < s->algo->nparams; k++)
    for (int j = 0; s->algo->params[k].type == TB_PARAM_TEXT && j < s->npv[k]; j++)
      if (!access(s->pv[k][j].s, F_OK) && tb_path_same(out, s->pv[k][j].s))
        return tb_fail(TB_EINVAL, "%s '%s' is an input of the run (--%s)", what,
                       tb_printable(out, shown, sizeof shown), s->algo->params[k].name);
  return TB_OK;
}

/* The report files of a run, and what goes on stdout. */
typedef struct tb_outputs {
  int n;
  tb_outfile_t file[TB_MAX_OUTPUTS];
  int format[TB_MAX_OUTPUTS];
  int std_format; /* the report on stdout besides the files, or -1: none */
} tb_outputs_t;

/* Claim the report and dump files before any work, so that a bad path costs
 * nothing and an input is never overwritten. */
static int tb_run_claim(tb_run_opts_t *o, tb_outputs_t *out, tb_outfile_t *dump)
{
  char shown[128];
  int rc = TB_OK, to_stdout = 0;
  const int fallback = o->format_given ? o->format : TB_FMT_TABLE;
  out->n = 0;
  for (int i = 0; i < o->noutputs; i++) {
    const char *path = o->output[i];
    for (int j = 0; j < i; j++)
      if (tb_path_same(path, o->output[j]))
        return tb_fail(TB_EINVAL, "--output '%s' is given twice",
                       tb_printable(path, shown, sizeof shown));
    if (o->s.dump_path && tb_path_same(path, o->s.dump_path))
      return tb_fail(TB_EINVAL, "--output and --dump are the same file '%s'",
                     tb_printable(path, shown, sizeof shown));
    if ((rc = tb_run_path_clash(o, path, "--output")))
      return rc;
    to_stdout |= !strcmp(path, "-");
  }
  if (o->s.dump_path && (rc = tb_run_path_clash(o, o->s.dump_path, "--dump")))
    return rc;
  /* Without files the report is on stdout in --format; with files, the
   * table is on the terminal unless one of them is stdout or --quiet. */
  out->std_format = o->noutputs == 0 ? o->format : to_stdout || o->quiet ? -1 : TB_FMT_TABLE;
  for (int i = 0; i < o->noutputs && !rc; i++) {
    int f = strcmp(o->output[i], "-") ? tb_format_of_path(o->output[i]) : -1;
    out->format[i] = f >= 0 ? f : fallback;
    if (!(rc = tb_outfile_open(&out->file[i], o->output[i])))
      out->n++;
  }
  if (!rc && o->s.dump_path)
    rc = tb_outfile_open(dump, o->s.dump_path);
  if (rc)
    for (int i = 0; i < out->n; i++)
      tb_outfile_abort(&out->file[i]);
  o->s.dump = o->s.dump_path && !rc ? dump->f : NULL;
  return rc;
}

/* Keep the dump the run wrote, or leave the old file when it wrote none. */
static int tb_run_dump(const tb_run_opts_t *o, const tb_run_state_t *st, tb_outfile_t *dump,
                       int status)
{
  int rc;
  if (!o->s.dump_path)
    return status;
  if (!st->dumped) {
    tb_outfile_abort(dump);
    fprintf(stderr, "twinbench: no verified result to dump: %s left as it was\n",
            o->s.dump_path);
    return status;
  }
  if ((rc = tb_outfile_commit(dump)))
    return status == TB_EXIT_OK ? tb_error(rc) : status;
  if (!o->quiet)
    fprintf(stderr, "twinbench: wrote %s (%s)\n", o->s.dump_path, st->dump_what);
  return status;
}

/* Write one report file; returns the exit status so far. A run that
 * measured nothing leaves an old file as it was; a file that fails does not
 * keep the others from being written. */
static int tb_run_report_file(const tb_run_opts_t *o, const tb_report_t *rep,
                              const tb_results_t *res, tb_outfile_t *out, const char *path,
                              int format, int status)
{
  int rc;
  if (res->n == 0) {
    tb_outfile_abort(out);
    if (status == TB_EXIT_OK && !o->quiet)
      fprintf(stderr, "twinbench: no results: %s left as it was\n", path);
    return status;
  }
  rc = tb_report_write(out->f, format, res, rep);
  /* The commit sees a failed write too, and names the file. */
  int crc = tb_outfile_commit(out);
  rc = crc ? crc : rc;
  if (rc) {
    tb_outfile_abort(out);
    return status == TB_EXIT_OK ? tb_error(rc) : status;
  }
  if (strcmp(path, "-") && !o->quiet)
    fprintf(stderr, "twinbench: wrote %d result%s to %s\n", res->n, res->n == 1 ? "" : "s",
            path);
  return status;
}

/* Write the report files, the report on stdout and the views; returns the
 * exit status so far. */
static int tb_run_report(const tb_run_opts_t *o, const tb_report_t *rep, const tb_results_t *res,
                         tb_outputs_t *out, int status)
{
  int rc, table_out = out->std_format == TB_FMT_TABLE;
  for (int i = 0; i < out->n; i++) {
    status = tb_run_report_file(o, rep, res, &out->file[i], o->output[i], out->format[i], status);
    table_out |= !strcmp(o->output[i], "-") && out->format[i] == TB_FMT_TABLE;
  }
  if (out->std_format >= 0 && (res->n || o->noutputs == 0) &&
      (rc = tb_report_write(stdout, out->std_format, res, rep)))
    status = status == TB_EXIT_OK ? tb_error(rc) : status;
  /* CSV, JSON and Markdown on stdout stay whole: the views go to stderr. */
  if (!table_out && !o->quiet)
    tb_report_speedups(stderr, res, 0);
  if (o->pivot)
    tb_report_pivot(table_out || o->quiet ? stdout : stderr, res, rep->cols, o->pivot);
  return status;
}

/* The exit status for the rows' verdicts, with a line on stderr. */
static int tb_run_verdicts(const tb_run_state_t *st, const tb_results_t *res, int status)
{
  if (status != TB_EXIT_OK)
    return status;
  if (st->failures) {
    fprintf(stderr, "twinbench: %d of %d results FAILED verification\n", st->failures, res->n);
    return TB_EXIT_VERIFY;
  }
  if (st->unverifiable)
    fprintf(stderr, "twinbench: %d of %d results could not be verified: their bound cannot tell "
                    "a wrong result (see the note of each)\n",
            st->unverifiable, res->n);
  if (res->n == 0) {
    fprintf(stderr, "twinbench: no configuration ran\n");
    return TB_EXIT_ERROR;
  }
  return TB_EXIT_OK;
}

static int tb_cmd_run(int argc, char **argv)
{
  tb_run_opts_t o;
  tb_topo_t *topo = NULL;
  tb_results_t res = {0};
  tb_run_state_t st;
  tb_outputs_t out = {0};
  tb_outfile_t dump = {0};
  tb_colset_t *cols = malloc(sizeof *cols);
  int *columns = NULL, ncolumns = 0; /* --columns, as indices into cols */
  int rc, exit_now, status = TB_EXIT_OK;

  memset(&st, 0, sizeof st);
  if (!cols)
    return tb_error(tb_fail(TB_ENOMEM, "out of memory"));
  /* An interrupt from here on stops the sweep (before it starts, if it
   * comes during the checks) and keeps the rows measured; a closed pipe is a
   * write error that the report says, not a silent death. */
  tb_catch_signals();
  if ((rc = tb_mpi_init())) {
    status = tb_error(rc);
    goto done;
  }
  /* In an MPI run rank 0 alone speaks: notes, progress, reports, dump. */
  const int root = tb_mpi_rank() == 0;
  rc = tb_grammar_parse(argc, argv, &o, &exit_now);
  if (!rc && !exit_now) {
    o.s.progress &= root;
    tb_note_quiet(o.quiet || !root);
    if (!(rc = tb_topo_open(&topo)) && !(rc = tb_sweep_check(&o.s, topo, &st))) {
      tb_sweep_columns(&o.s, &st, cols);
      /* Claim the output file before any work, so an unwritable path costs
       * nothing; rank 0 alone writes. */
      if ((o.pivot && (rc = tb_pivot_check(cols, o.pivot))) ||
          (o.columns && (rc = tb_columns_parse(cols, o.columns, &columns, &ncolumns))) ||
          (root && (rc = tb_run_claim(&o, &out, &dump))))
        tb_note_release(0);
    }
  }
  if ((status = tb_mpi_agree(rc)) != TB_EXIT_OK || exit_now) {
    if (!status && root)
      status = tb_stdout_done(TB_EXIT_OK);
    goto done;
  }
  tb_note_release(1);

  if ((rc = tb_sweep_run(&o.s, &st, &res)))
    status = tb_sweep_error(rc);
  if (!root) {
    status = st.failures ? TB_EXIT_VERIFY : status;
    goto done;
  }
  tb_report_t rep = {o.s.algo,   topo,       cols,         o.command_line, st.interrupted,
                     o.s.seed,   o.s.repeat, o.s.warmup,   o.s.verify,     columns,
                     ncolumns,   o.wide,     o.s.min_time, o.s.max_noise, {NULL}};
  for (int b = 0; b < tb_backend_count(); b++)
    rep.energy[b] = o.s.use[b] && o.s.energy ? st.energy_what[b] : NULL;
  status = tb_run_dump(&o, &st, &dump, status);
  status = tb_run_report(&o, &rep, &res, &out, status);
  status = tb_run_verdicts(&st, &res, status);

done:
  tb_results_free(&res);
  tb_run_state_free(&st);
  tb_run_opts_free(&o);
  if (topo)
    tb_topo_close(topo);
  free(cols);
  free(columns);
  tb_mpi_finalize();
  return tb_stdout_done(status);
}

/* ---- experiment -------------------------------------------------------- */

static int tb_cmd_experiment(int argc, char **argv)
{
  enum { O_FORCE = 256, O_DRY, O_RESULTS, O_MACHINE, O_ONLY };
  static const struct option opts[] = {
      {"force", no_argument, NULL, O_FORCE},         {"dry-run", no_argument, NULL, O_DRY},
      {"results", required_argument, NULL, O_RESULTS},
      {"machine", required_argument, NULL, O_MACHINE},
      {"only", required_argument, NULL, O_ONLY},     {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  tb_exp_opts_t o = {NULL, "results", NULL, NULL, 0, 0};
  tb_exp_outcome_t out;
  char shown[64];
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
    case O_FORCE: o.force = 1; break;
    case O_DRY: o.dry_run = 1; break;
    case O_RESULTS: o.results_dir = optarg; break;
    case O_MACHINE: o.machine = optarg; break;
    case O_ONLY: o.only = optarg; break;
    case 'h': fputs(tb_usage_experiment, stdout); return tb_stdout_done(TB_EXIT_OK);
    case ':':
      fprintf(stderr, "twinbench experiment: option '%s' needs a value\n",
              tb_printable(argv[optind - 1], shown, sizeof shown));
      return TB_EXIT_USAGE;
    default:
      fprintf(stderr, "twinbench experiment: unknown option '%s' (see 'twinbench experiment "
                      "--help')\n",
              tb_printable(argv[optind - 1], shown, sizeof shown));
      return TB_EXIT_USAGE;
    }
  }
  if (optind + 1 != argc) {
    fprintf(stderr, "twinbench experiment: takes one experiment file (see 'twinbench "
                    "experiment --help')\n");
    return TB_EXIT_USAGE;
  }
  o.file = argv[optind];
  /* An interrupt stops the sweep after the configuration that runs; the
   * rows made are in the results files already. */
  tb_catch_signals();
  int rc = tb_experiment_run(&o, &out);
  if (rc)
    return tb_stdout_done(tb_error(rc));
  if (out.failures) {
    fprintf(stderr, "twinbench: %d of %d rows FAILED verification (recorded as such)\n",
            out.failures, out.rows);
    return tb_stdout_done(TB_EXIT_VERIFY);
  }
  return tb_stdout_done(TB_EXIT_OK);
}

/* ---- report ------------------------------------------------------------ */

/* twinbench report: the report tool is a Python program (matplotlib draws
 * the figures), twinbench-report beside this program: in the build folder
 * and in the installed bin folder alike. argv[0] is "report"; the rest goes
 * to the tool unchanged. */
static int tb_cmd_report(int argc, char **argv)
{
  char dir[4096], tool[4200];
  ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
  if (n > 0)
    dir[n] = '\0';
  char *slash = n > 0 ? strrchr(dir, '/') : NULL;
  if (!slash) {
    fprintf(stderr, "twinbench report: cannot find this program's folder (%s)\n",
            n > 0 ? "no folder in /proc/self/exe" : strerror(errno));
    return TB_EXIT_ERROR;
  }
  *slash = '\0';
  snprintf(tool, sizeof tool, "%s/twinbench-report", dir);
  if (access(tool, R_OK)) {
    fprintf(stderr, "twinbench report: the report tool %s is missing (%s)\n", tool,
            strerror(errno));
    return TB_EXIT_UNAVAILABLE;
  }
  /* The tool's first line names the python3 with matplotlib that configure found. */
  char **args = calloc((size_t)argc + 1, sizeof *args);
  if (!args) {
    fprintf(stderr, "twinbench report: out of memory\n");
    return TB_EXIT_ERROR;
  }
  args[0] = tool;
  for (int i = 1; i < argc; i++)
    args[i] = argv[i];
  fflush(NULL);
  execv(tool, args);
  fprintf(stderr, "twinbench report: cannot run %s (%s); it needs python3 with matplotlib\n", tool,
          strerror(errno));
  free(args);
  return TB_EXIT_UNAVAILABLE;
}

/* ---- help -------------------------------------------------------------- */

static int tb_cmd_help(int argc, char **argv)
{
  char shown[64];
  const char *t = argc > 1 ? argv[1] : "";
  if (argc > 2) {
    fprintf(stderr, "twinbench help: takes at most one command (see 'twinbench help')\n");
    return TB_EXIT_USAGE;
  }
  if (!strcmp(t, "run"))
    tb_grammar_usage(stdout);
  else if (!strcmp(t, "experiment"))
    fputs(tb_usage_experiment, stdout);
  else if (!strcmp(t, "report")) {
    static char report[] = "report", help[] = "--help";
    char *args[] = {report, help, NULL};
    return tb_cmd_report(2, args);
  }
  else if (!strcmp(t, "list") || !strcmp(t, "info") || !*t)
    fputs(!strcmp(t, "list") ? tb_usage_list : !strcmp(t, "info") ? tb_usage_info : tb_usage_main,
          stdout);
  else {
    fprintf(stderr,
            "twinbench help: unknown command '%s' (commands: info, list, run, experiment, report, "
            "help)\n",
            tb_printable(t, shown, sizeof shown));
    return TB_EXIT_USAGE;
  }
  return tb_stdout_done(TB_EXIT_OK);
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
    return tb_stdout_done(TB_EXIT_OK);
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
    printf("twinbench %s (%s)\n", PACKAGE_VERSION, tb_git_revision());
    return tb_stdout_done(TB_EXIT_OK);
  }
  if (!strcmp(cmd, "help"))
    return tb_cmd_help(argc - 1, argv + 1);
  /* Each command parses its own options from its own argv. */
  optind = 1;
  if (!strcmp(cmd, "info"))
    return tb_cmd_info(argc - 1, argv + 1);
  if (!strcmp(cmd, "list"))
    return tb_cmd_list(argc - 1, argv + 1);
  if (!strcmp(cmd, "run"))
    return tb_cmd_run(argc - 1, argv + 1);
  if (!strcmp(cmd, "experiment"))
    return tb_cmd_experiment(argc - 1, argv + 1);
  if (!strcmp(cmd, "report"))
    return tb_cmd_report(argc - 1, argv + 1);
  char shown[64];
  fprintf(stderr, "twinbench: unknown command '%s' (commands: info, list, run, experiment, report, "
                  "help)\n",
          tb_printable(cmd, shown, sizeof shown));
  return TB_EXIT_USAGE;
}
