/* twinbench: report and dump files. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"
#include "status.h"

static int tb_outfile_fail(tb_outfile_t *o, int status, const char *fmt, const char *path, int e)
{
  char shown[256];
  tb_printable(path, shown, sizeof shown);
  tb_fail(status, fmt, shown, strerror(e));
  tb_outfile_abort(o);
  return status;
}

/* How long a FIFO may take to get its reader (a program started beside
 * twinbench, say), in steps of 50 ms. */
#define TB_FIFO_WAIT_STEPS 60

/* Write in place: a device, or a FIFO a process reads (never blocking for
 * ever on one that nobody reads). */
static int tb_outfile_in_place(tb_outfile_t *o, const char *path, const struct stat *st)
{
  int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  for (int k = 0; fd < 0 && errno == ENXIO && S_ISFIFO(st->st_mode) && k < TB_FIFO_WAIT_STEPS; k++) {
    usleep(50000);
    fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  }
  if (fd < 0 && errno == ENXIO && S_ISFIFO(st->st_mode))
    return tb_outfile_fail(o, TB_EINVAL, "cannot write '%s': a FIFO that no process reads (%s)",
                           path, ENXIO);
  if (fd < 0)
    return tb_outfile_fail(o, TB_EINVAL, "cannot write '%s': %s", path, errno);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (!(o->f = fdopen(fd, "w"))) {
    close(fd);
    return tb_outfile_fail(o, TB_ENOMEM, "cannot write '%s': %s", path, ENOMEM);
  }
  return TB_OK;
}

/* How old (s) a temporary file must be before a later run may take it for
 * one a killed run left: a live run locks its own within microseconds of
 * making it. */
#define TB_STALE_TMP_S 10

/* Remove the temporary files of target that runs killed before their commit
 * left (target.tmp.XXXXXX, SIGKILL leaves no chance to clean up): called
 * with the target's lock held, so no live run of this target is between
 * claim and commit, and each is removed only where no process holds its
 * lock (a live run's is locked from its start to its commit, and released
 * by the kernel when its process dies). */
static void tb_outfile_sweep(const char *target)
{
  const char *slash = strrchr(target, '/');
  const char *base = slash ? slash + 1 : target;
  const size_t dlen = slash ? (size_t)(slash - target) + 1 : 0, blen = strlen(base);
  char dir[PATH_MAX];
  if (dlen >= sizeof dir)
    return;
  memcpy(dir, target, dlen);
  dir[dlen] = '\0';
  DIR *d = opendir(dlen ? dir : ".");
  if (!d)
    return;
  const time_t now = time(NULL);
  for (struct dirent *e; (e = readdir(d));) {
    const char *n = e->d_name;
    if (strncmp(n, base, blen) || strncmp(n + blen, ".tmp.", 5) || strlen(n + blen + 5) != 6)
      continue;
    int fd = openat(dirfd(d), n, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
      continue;
    if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_mtime < now - TB_STALE_TMP_S &&
        !flock(fd, LOCK_EX | LOCK_NB))
      unlinkat(dirfd(d), n, 0);
    close(fd);
  }
  closedir(d);
}

/* The regular (or new) file target: locked, and a temporary file beside it
 * (locked too while this run lives; the stale ones of killed runs swept). */
static int tb_outfile_atomic(tb_outfile_t *o, const char *target, int exists, mode_t mode)
{
  size_t len = strlen(target);
  if (!(o->target = strdup(target)) || !(o->tmp = malloc(len + 16)))
    return tb_outfile_fail(o, TB_ENOMEM, "cannot write '%s': %s", o->path, ENOMEM);
  o->lock_fd = open(target, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (o->lock_fd < 0)
    return tb_outfile_fail(o, TB_EINVAL, "cannot write '%s': %s", o->path, errno);
  o->created = !exists;
  if (flock(o->lock_fd, LOCK_EX | LOCK_NB))
    return tb_outfile_fail(o, TB_EINVAL, "cannot write '%s': another run is writing it (%s)",
                           o->path, EWOULDBLOCK);
  tb_outfile_sweep(target);
  snprintf(o->tmp, len + 16, "%s.tmp.XXXXXX", target);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    free(o->tmp);
    o->tmp = NULL;
    return tb_outfile_fail(o, TB_EINVAL, "cannot write '%s': %s", o->path, errno);
  }
  flock(fd, LOCK_EX | LOCK_NB);
  /* mkstemp makes the file private; give it the target's mode, or the one
   * a plain fopen would. */
  if (!exists) {
    mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  fchmod(fd, mode & 07777);
  if (!(o->f = fdopen(fd, "w"))) {
    close(fd);
    return tb_outfile_fail(o, TB_ENOMEM, "cannot write '%s': %s", o->path, ENOMEM);
  }
  return TB_OK;
}

int tb_outfile_open(tb_outfile_t *o, const char *path)
{
  struct stat lst, st;
  memset(o, 0, sizeof *o);
  o->lock_fd = -1;
  if (!strcmp(path, "-")) {
    o->f = stdout;
    return TB_OK;
  }
  if (!(o->path = strdup(path)))
    return tb_fail(TB_ENOMEM, "out of memory");
  if (lstat(path, &lst)) {
    if (errno != ENOENT)
      return tb_outfile_fail(o, TB_EINVAL, "cannot write '%s': %s", path, errno);
    return tb_outfile_atomic(o, path, 0, 0);
  }
  if (stat(path, &st)) /* a dangling link: written through, in place */
    st = lst;
  if (S_ISDIR(st.st_mode))
    return tb_outfile_fail(o, TB_EINVAL, "cannot write '%s': %s", path, EISDIR);
  if (S_ISLNK(lst.st_mode) && S_ISREG(st.st_mode)) {
    char *real = realpath(path, NULL);
    if (!real)
      return tb_outfile_fail(o, TB_EINVAL, "cannot write '%s': %s", path, errno);
    int rc = tb_outfile_atomic(o, real, 1, st.st_mode);
    free(real);
    return rc;
  }
  if (S_ISREG(st.st_mode) && !S_ISLNK(lst.st_mode))
    return tb_outfile_atomic(o, path, 1, st.st_mode);
  return tb_outfile_in_place(o, path, &st);
}

int tb_outfile_commit(tb_outfile_t *o)
{
  int bad = fflush(o->f) || ferror(o->f), e = bad ? errno : 0;
  char shown[256];
  if (o->f == stdout) {
    o->f = NULL;
    if (bad)
      return tb_fail(TB_EIO, "writing the report to standard output failed: %s", strerror(e));
    return TB_OK;
  }
  if (fclose(o->f) && !bad)
    bad = 1, e = errno;
  o->f = NULL;
  if (!bad && o->tmp && rename(o->tmp, o->target))
    bad = 1, e = errno;
  if (bad) {
    tb_fail(TB_EIO, "writing '%s' failed: %s", tb_printable(o->path, shown, sizeof shown),
            strerror(e ? e : EIO));
    tb_outfile_abort(o);
    return TB_EIO;
  }
  free(o->tmp);
  o->tmp = NULL;
  o->created = 0;
  tb_outfile_abort(o); /* releases the lock and the names */
  return TB_OK;
}

void tb_outfile_abort(tb_outfile_t *o)
{
  struct stat a, b;
  if (o->f && o->f != stdout)
    fclose(o->f);
  if (o->tmp)
    unlink(o->tmp);
  /* A target this run created (to lock it) goes again, if it is still the
   * empty file it made. */
  if (o->created && o->lock_fd >= 0 && !fstat(o->lock_fd, &a) && a.st_size == 0 &&
      !stat(o->target, &b) && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
    unlink(o->target);
  if (o->lock_fd >= 0)
    close(o->lock_fd);
  free(o->tmp);
  free(o->target);
  free(o->path);
  memset(o, 0, sizeof *o);
  o->lock_fd = -1;
}

int tb_path_same(const char *a, const char *b)
{
  struct stat sa, sb;
  if (!strcmp(a, b))
    return 1;
  if (stat(a, &sa) || stat(b, &sb))
    return 0;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
