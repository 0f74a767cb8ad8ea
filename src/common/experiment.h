/* twinbench: experiment files (doc/experiments.md): a study's named run
 * lines, with variables the program fills from the machine, run into
 * results files that grow a row at a time, so that an interrupted study
 * resumes where it stopped. */
#ifndef TB_EXPERIMENT_H
#define TB_EXPERIMENT_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tb_exp_opts {
  const char *file;        /* the experiment file */
  const char *results_dir; /* --results DIR (default "results") */
  const char *machine;     /* --machine NAME, or NULL: the host name */
  const char *only;        /* --only NAME,...: the run lines to run, or NULL: all */
  int force;               /* --force: redo the rows already recorded */
  int dry_run;             /* --dry-run: say what would run, write nothing */
} tb_exp_opts_t;

/* What an experiment did, for the exit status. */
typedef struct tb_exp_outcome {
  int failures; /* rows of this session that failed verification */
  int rows;     /* rows measured in this session */
} tb_exp_outcome_t;

/* Run the experiment. On a bad file, the one-line error
 * (tb_error_detail(): "FILE:LINE: message") and nothing written. */
int tb_experiment_run(const tb_exp_opts_t *o, tb_exp_outcome_t *out);

#ifdef __cplusplus
}
#endif
#endif
