/* twinbench: the run grammar: `run ALGO [OPTIONS]` as an argument vector,
 * parsed into a sweep. The command line uses it; experiment files can too.
 *
 * Every list option is a sweep axis. Besides the fixed options, every
 * parameter is an option --NAME LIST (the same as --param NAME=LIST): an
 * algorithm's problem parameters, a backend's options (its sweep axes, such
 * as the CPU's threads) and the variants' tuning parameters (such as the
 * GPU's block). A tuning value is swept for the variants that have that
 * parameter and ignored by the others. */
#ifndef TB_GRAMMAR_H
#define TB_GRAMMAR_H

#include <stdio.h>

#include "runner.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The report files one run writes at most. */
#define TB_MAX_OUTPUTS 8

typedef struct tb_run_opts {
  tb_sweep_t s;
  int format;                         /* --format (tb_format_t), default table */
  int format_given;                   /* --format was given */
  const char *output[TB_MAX_OUTPUTS]; /* --output FILE, in order ("-": stdout) */
  int noutputs;
  const char *pivot;   /* --pivot ROWS:COL[:CELL], or NULL */
  const char *columns; /* --columns LIST: the table's columns, or NULL */
  int wide;            /* --wide: every column in the table */
  int quiet;           /* --quiet: no progress, notes or table on the terminal */
  char *command_line; /* the arguments, joined, for the report */
  int nsettings;      /* the --NAME and --param settings, in order */
  tb_setting_t *settings;
} tb_run_opts_t;

/* Parse argv[0..argc) (argv[0] is the command's name, "run") into o. With
 * --help, prints the usage on stdout and sets *exit_now. On an error, the
 * one-line message is in tb_error_detail(). Free o with tb_run_opts_free
 * either way. */
int tb_grammar_parse(int argc, char **argv, tb_run_opts_t *o, int *exit_now);
void tb_run_opts_free(tb_run_opts_t *o);

/* Whether name is one of the run command's own long options (--size,
 * --seed, ...), which no parameter may be called. */
int tb_grammar_is_fixed(const char *name);

/* The usage of the run command, with every backend's options. */
void tb_grammar_usage(FILE *f);

#ifdef __cplusplus
}
#endif
#endif
