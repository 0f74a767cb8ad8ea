/* twinbench: the reader of the user's text files (option CSVs, orders,
 * times, matrices), shared by every family so that each one gets the same
 * limits and the same one-line errors.
 *
 * A path is opened once and what was opened is fstat()ed: a directory, a
 * block device or a socket is refused; a regular file, a FIFO or pipe, or a
 * character device is read once into memory, at most max_bytes of it, so
 * that an endless source (a device, a FIFO fed by a program that never
 * stops) ends in an error, never in a hang or in unbounded memory. The
 * content must be UTF-8 text without NUL bytes or control characters other
 * than the blanks tab, CR, VT and FF; anything else is refused with the line
 * and column, and the bytes are never echoed. A line holds at most
 * TB_TEXTFILE_MAX_LINE bytes. A UTF-8 byte-order mark at the start is
 * dropped, and so is the CR of a CRLF line end.
 *
 * A FIFO, a pipe or a character device can be read only once, yet the
 * runner sets a problem up more than once (the memory check, then the run)
 * and a sweep sets up one problem per precision and parameter point. So the
 * content of such a source is kept, by device and inode, for the life of the
 * process, and a later read of it gets the same text without opening it
 * again (a FIFO whose writer is gone would block the open for ever). Regular
 * files are read again each time. Not thread-safe: problems are set up on
 * one thread.
 *
 * Every error is one line naming the path ("PATH: ..." or "PATH:LINE: ...")
 * and returns TB_EINVAL (TB_ENOMEM when memory runs out, TB_EINTR when a
 * signal interrupts a blocked open or read). */
#ifndef TB_TEXTFILE_H
#define TB_TEXTFILE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest line accepted, in bytes, without its end of line: far more
 * than any line of numbers needs, little enough to show in a message. */
#define TB_TEXTFILE_MAX_LINE 4096

typedef struct tb_textfile {
  const char *path;
  char *text;      /* the content, NUL-terminated; lines are cut in place */
  size_t size;     /* bytes of text, without the terminating NUL */
  size_t at;       /* where the next line starts */
  int64_t line;    /* the number of the last line handed out */
  int open_errno;  /* the errno of a failed open, else 0, for a caller that
                      words that failure in its own terms */
} tb_textfile_t;

/* Read the text file at path, at most max_bytes of it, into f (to be freed
 * with tb_textfile_free, also after an error). */
int tb_textfile_read(tb_textfile_t *f, const char *path, int64_t max_bytes);

/* The next line of f, without its end of line, writable in place, and its
 * 1-based number: returns 1, or 0 after the last line. */
int tb_textfile_next(tb_textfile_t *f, char **line, int64_t *lineno);

void tb_textfile_free(tb_textfile_t *f);

#ifdef __cplusplus
}
#endif
#endif
