/* twinbench: report files. */
#ifndef TB_OUTFILE_H
#define TB_OUTFILE_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Open a temporary file beside path for writing; tb_outfile_commit renames it
 * over path, tb_outfile_abort removes it. */
typedef struct tb_outfile {
  FILE *f;
  char *path;
  char *tmp;
} tb_outfile_t;
int tb_outfile_open(tb_outfile_t *o, const char *path);
int tb_outfile_commit(tb_outfile_t *o);
void tb_outfile_abort(tb_outfile_t *o);

#ifdef __cplusplus
}
#endif
#endif
