/* twinbench: the environment block of JSON reports. */
#ifndef TB_ENV_H
#define TB_ENV_H

#include <stdio.h>

#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write the environment (CPU, GPU, driver, compilers and flags, git revision,
 * host, date, OpenMP settings) as a JSON object. */
void tb_env_json(FILE *f, const tb_report_t *rep);

/* Two lines of context for a CSV or Markdown report, each starting with
 * prefix: the program, date, host and command; the CPU and the run's seed,
 * repeats, warm-ups and verification. */
void tb_env_context(FILE *f, const tb_report_t *rep, const char *prefix);

/* Print the version, revision and build configuration (two lines). */
void tb_build_print(FILE *f);

/* The git revision the program was built from. */
const char *tb_git_revision(void);

#ifdef __cplusplus
}
#endif
#endif
