/* twinbench: report and dump files.
 *
 * A regular file (or a new one) is written to a temporary file beside it and
 * renamed over it at commit, so that a failed run leaves the old file as it
 * was; while a run writes it, the target is locked, and a second run that
 * asks for the same target is refused. A symbolic link to a regular file is
 * followed and its target replaced, the link kept. Anything else (a device,
 * a FIFO that a process reads, "-" for standard output) is written in
 * place. Paths are checked when the file is claimed, before any work: a
 * directory, a missing folder, a FIFO nobody reads (within 3 s), a target
 * another run is writing are TB_EINVAL; a failed write (a full disk, a
 * closed pipe) is TB_EIO at commit. The temporary file of a run killed
 * before its commit (SIGKILL) is removed by the next run to claim the
 * target. */
#ifndef TB_OUTFILE_H
#define TB_OUTFILE_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tb_outfile {
  FILE *f;
  char *path;   /* as the user gave it, for messages */
  char *target; /* the file renamed over (a link's target), or NULL when in place */
  char *tmp;    /* the temporary file, or NULL when in place */
  int lock_fd;  /* the target, locked while this run writes it, or -1 */
  int created;  /* the target did not exist before: removed again by an abort */
} tb_outfile_t;

/* Claim path for writing; o->f is the stream to write. */
int tb_outfile_open(tb_outfile_t *o, const char *path);

/* Finish: flush, check every write, rename the temporary file over the
 * target. On an error the target is left as it was. */
int tb_outfile_commit(tb_outfile_t *o);

/* Give the claim up, leaving the target as it was. */
void tb_outfile_abort(tb_outfile_t *o);

/* Whether the paths a and b name the same file (or the same new path). */
int tb_path_same(const char *a, const char *b);

#ifdef __cplusplus
}
#endif
#endif
