/* twinbench: report files, written to a temporary file and renamed over
 * the target. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "status.h"

int tb_outfile_open(tb_outfile_t *o, const char *path)
{
  memset(o, 0, sizeof *o);
  size_t len = strlen(path);
  o->path = strdup(path);
  o->tmp = malloc(len + 16);
  if (!o->path || !o->tmp) {
    tb_outfile_abort(o);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  snprintf(o->tmp, len + 16, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    tb_outfile_abort(o);
    return tb_fail(TB_EIO, "cannot write '%s': %s", path, strerror(e));
  }
  /* mkstemp creates the file private; give it the mode a plain fopen would. */
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  o->f = fdopen(fd, "w");
  if (!o->f) {
    close(fd);
    tb_outfile_abort(o);
    return tb_fail(TB_EIO, "cannot write '%s': %s", path, strerror(errno));
  }
  return TB_OK;
}

int tb_outfile_commit(tb_outfile_t *o)
{
  int bad = fflush(o->f) || ferror(o->f);
  int e = errno;
  if (fclose(o->f))
    bad = 1, e = errno;
  o->f = NULL;
  if (bad) {
    tb_fail(TB_EIO, "writing '%s' failed: %s", o->path, strerror(e));
    tb_outfile_abort(o);
    return TB_EIO;
  }
  if (rename(o->tmp, o->path)) {
    tb_fail(TB_EIO, "cannot rename the report to '%s': %s", o->path, strerror(errno));
    tb_outfile_abort(o);
    return TB_EIO;
  }
  free(o->tmp);
  free(o->path);
  o->tmp = o->path = NULL;
  return TB_OK;
}

void tb_outfile_abort(tb_outfile_t *o)
{
  if (o->f)
    fclose(o->f);
  if (o->tmp)
    unlink(o->tmp);
  free(o->tmp);
  free(o->path);
  memset(o, 0, sizeof *o);
}
