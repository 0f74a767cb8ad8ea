/* twinbench: status codes and error messages.
 *
 * Functions return 0 or a negative tb_status. The function that detects a
 * problem records a one-line explanation with tb_fail(); the caller that
 * reports it reads tb_error_detail(). The detail is per thread. */
#ifndef TB_STATUS_H
#define TB_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tb_status {
  TB_OK = 0,
  TB_EINVAL = -1,  /* invalid argument or input */
  TB_ENOMEM = -2,  /* out of memory, or a size that does not fit */
  TB_EIO = -3,     /* a file could not be read or written */
  TB_ENODEV = -4,  /* the backend or its device is not available */
  TB_EDEVICE = -5, /* the device runtime reported an error */
  TB_EUNSUP = -6,  /* a combination the variant does not support */
  TB_ETOPO = -7,   /* topology or thread binding failed */
  TB_EINTR = -8    /* interrupted by the user */
} tb_status_t;

/* A short description of a status code. */
const char *tb_strerror(int status);

/* Record a printf-style explanation for the current thread and return status. */
int tb_fail(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The explanation recorded by the last tb_fail() on this thread ("" if none). */
const char *tb_error_detail(void);

/* Forget the recorded explanation. */
void tb_error_clear(void);

/* Print "twinbench: note: ..." on stderr as one line, first clearing a
 * progress line that tb_note_progress said is shown. */
void tb_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void tb_note_progress(int shown);

/* Hold notes back (on = 1) until a check has passed: tb_note_release(1)
 * prints what was held, tb_note_release(0) drops it (the check failed, and
 * its one-line error says all). */
/* --quiet: notes are not printed. */
void tb_note_quiet(int quiet);
void tb_note_hold(void);
void tb_note_release(int print);

/* The index of s among names[0..n) (n < 0: names is NULL-terminated), or
 * TB_EINVAL with "<what> 's' (known: a, b, c)". */
int tb_name_index(const char *const *names, int n, const char *s, const char *what, int *index);

/* The length of the UTF-8 sequence at b (avail bytes of it present: a NUL
 * ends a string early enough), 0 if it is not valid UTF-8, or -1 if it may
 * be valid but is cut short. The ranges are those of RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF. An ASCII byte is 1. */
int tb_utf8_seq(const unsigned char *b, size_t avail);

/* s as text that is safe to echo in a message: bytes outside printable
 * ASCII become '?', and it is cut to len - 1 bytes (with "..." at the end
 * when cut). Returns buf. */
const char *tb_printable(const char *s, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
