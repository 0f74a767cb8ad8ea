/* twinbench: the reader of the user's text files (see textfile.h). */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "status.h"
#include "textfile.h"

/* ---- What text is ------------------------------------------------------ */

/* How far a read has been checked: the bytes, the line and where it starts. */
typedef struct tb_scan {
  size_t done;
  int64_t line;
  size_t line_start;
} tb_scan_t;

/* Check b[s->done .. len) as text, line by line; at eof, the end of the
 * text. A sequence cut short by the end of a read waits for the next. The
 * message names the line and the column, never the bytes themselves. */
static int tb_scan_text(tb_scan_t *s, const unsigned char *b, size_t len, int eof,
                        const char *path)
{
  size_t i = s->done;
  const char *what = NULL;
  while (i < len) {
    unsigned char c = b[i];
    int n = 1;
    if (c == '\n') {
      s->line++;
      s->line_start = ++i;
      continue;
    }
    if (c == 0)
      what = "a NUL byte";
    else if ((c < 0x20 && c != '\t' && c != '\r' && c != '\v' && c != '\f') || c == 0x7F)
      what = "a control character";
    else if (c >= 0x80) {
      n = tb_utf8_seq(b + i, len - i);
      if (n < 0 && !eof)
        break;
      if (n <= 0)
        what = "a byte that is not UTF-8";
      else if (c == 0xC2 && b[i + 1] < 0xA0) /* U+0080..U+009F */
        what = "a control character";
    }
    if (what)
      return tb_fail(TB_EINVAL, "%s:%lld: binary data, not text (%s at column %lld)", path,
                     (long long)s->line, what, (long long)(i - s->line_start + 1));
    i += (size_t)n;
    if (i - s->line_start > TB_TEXTFILE_MAX_LINE)
      return tb_fail(TB_EINVAL, "%s:%lld: line longer than %d bytes", path, (long long)s->line,
                     TB_TEXTFILE_MAX_LINE);
  }
  s->done = i;
  return TB_OK;
}

/* ---- Reading ----------------------------------------------------------- */

/* Read fd to its end into f->text, checking it as it comes: at most
 * max_bytes, starting with room for hint bytes (a regular file's size). */
static int tb_textfile_load(tb_textfile_t *f, int fd, size_t hint, size_t max_bytes)
{
  /* A stream starts with room for what a pipe holds (64 KiB on Linux). */
  const size_t limit = max_bytes + 2; /* one byte more than allowed, and the NUL */
  size_t cap = (hint > 65536 ? hint : 65536) + 2, len = 0;
  tb_scan_t scan = {0, 1, 0};
  if (cap > limit)
    cap = limit;
  if (!(f->text = malloc(cap)))
    return tb_fail(TB_ENOMEM, "%s: out of memory", f->path);
  for (;;) {
    if (len + 1 == cap) {
      size_t c = cap > limit / 2 ? limit : 2 * cap;
      char *t = realloc(f->text, c);
      if (!t)
        return tb_fail(TB_ENOMEM, "%s: out of memory after %zu bytes", f->path, len);
      f->text = t;
      cap = c;
    }
    ssize_t r = read(fd, f->text + len, cap - 1 - len);
    if (r < 0 && errno == EINTR)
      return tb_fail(TB_EINTR, "%s: interrupted while reading it", f->path);
    if (r < 0)
      return tb_fail(TB_EINVAL, "%s: read error after %zu bytes: %s", f->path, len,
                     strerror(errno));
    if (r == 0)
      break;
    len += (size_t)r;
    if (len > max_bytes)
      return tb_fail(TB_EINVAL, "%s: more than the %zu bytes this input may hold", f->path,
                     max_bytes);
    int rc = tb_scan_text(&scan, (const unsigned char *)f->text, len, 0, f->path);
    if (rc)
      return rc;
  }
  f->text[len] = '\0';
  f->size = len;
  return tb_scan_text(&scan, (const unsigned char *)f->text, len, 1, f->path);
}

/* The contents of the FIFOs, pipes and character devices read so far. */
typedef struct tb_kept {
  dev_t dev;
  ino_t ino;
  char *text;
  size_t size;
} tb_kept_t;

static tb_kept_t *tb_kept;
static size_t tb_nkept;

static const tb_kept_t *tb_kept_find(const struct stat *st)
{
  for (size_t i = 0; i < tb_nkept; i++)
    if (tb_kept[i].dev == st->st_dev && tb_kept[i].ino == st->st_ino)
      return &tb_kept[i];
  return NULL;
}

/* Keep a copy of f's text as the content of the source st describes. */
static int tb_kept_add(const tb_textfile_t *f, const struct stat *st)
{
  tb_kept_t *k = realloc(tb_kept, (tb_nkept + 1) * sizeof *k);
  if (!k)
    return tb_fail(TB_ENOMEM, "%s: out of memory", f->path);
  tb_kept = k;
  k += tb_nkept;
  if (!(k->text = malloc(f->size + 1)))
    return tb_fail(TB_ENOMEM, "%s: out of memory", f->path);
  memcpy(k->text, f->text, f->size + 1);
  k->size = f->size;
  k->dev = st->st_dev;
  k->ino = st->st_ino;
  tb_nkept++;
  return TB_OK;
}

/* A FIFO or pipe, or a character device: read once, then kept. */
static int tb_is_stream(const struct stat *st)
{
  return S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode);
}

/* Start f's lines after a byte-order mark, if its text has one. */
static void tb_textfile_skip_bom(tb_textfile_t *f)
{
  if (f->size >= 3 && !memcmp(f->text, "\xEF\xBB\xBF", 3))
    f->at = 3;
}

/* Open path and read it (its stat is st, taken before the open). */
static int tb_textfile_open_read(tb_textfile_t *f, const char *path, struct stat *st,
                                 size_t max_bytes)
{
  /* O_NOCTTY: a terminal given as a file must not become ours. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    f->open_errno = errno;
    return tb_fail(errno == EINTR ? TB_EINTR : TB_EINVAL, "%s: cannot open: %s", path,
                   strerror(errno));
  }
  /* What was opened, which may differ from what was looked at before. */
  int rc;
  if (fstat(fd, st))
    rc = tb_fail(TB_EINVAL, "%s: cannot open: %s", path, strerror(errno));
  else if (S_ISDIR(st->st_mode))
    rc = tb_fail(TB_EINVAL, "%s: is a directory, not a file", path);
  else if (!S_ISREG(st->st_mode) && !tb_is_stream(st))
    rc = tb_fail(TB_EINVAL, "%s: is %s, not a file, a FIFO or a character device", path,
                 S_ISBLK(st->st_mode) ? "a block device" : "a socket");
  else if (S_ISREG(st->st_mode) && st->st_size > (off_t)max_bytes)
    rc = tb_fail(TB_EINVAL, "%s: more than the %zu bytes this input may hold (it has %lld)", path,
                 max_bytes, (long long)st->st_size);
  else
    rc = tb_textfile_load(f, fd, S_ISREG(st->st_mode) ? (size_t)st->st_size : 0, max_bytes);
  close(fd);
  return rc;
}

int tb_textfile_read(tb_textfile_t *f, const char *path, int64_t max_bytes)
{
  struct stat st;
  memset(f, 0, sizeof *f);
  f->path = path;
  if (stat(path, &st)) {
    f->open_errno = errno;
    return tb_fail(TB_EINVAL, "%s: cannot open: %s", path, strerror(errno));
  }
  const tb_kept_t *k = tb_is_stream(&st) ? tb_kept_find(&st) : NULL;
  if (k) {
    if (!(f->text = malloc(k->size + 1)))
      return tb_fail(TB_ENOMEM, "%s: out of memory", path);
    memcpy(f->text, k->text, k->size + 1);
    f->size = k->size;
    tb_textfile_skip_bom(f);
    return TB_OK;
  }
  int rc = tb_textfile_open_read(f, path, &st, (size_t)max_bytes);
  if (!rc && tb_is_stream(&st))
    rc = tb_kept_add(f, &st);
  if (!rc)
    tb_textfile_skip_bom(f);
  return rc;
}

int tb_textfile_next(tb_textfile_t *f, char **line, int64_t *lineno)
{
  if (f->at >= f->size)
    return 0;
  char *s = f->text + f->at, *e = memchr(s, '\n', f->size - f->at);
  if (!e)
    e = f->text + f->size; /* the last line, without an end */
  f->at = (size_t)(e - f->text) + 1;
  *e = '\0';
  if (e > s && e[-1] == '\r')
    e[-1] = '\0';
  *line = s;
  *lineno = ++f->line;
  return 1;
}

void tb_textfile_free(tb_textfile_t *f)
{
  free(f->text);
  f->text = NULL;
  f->size = f->at = 0;
}
