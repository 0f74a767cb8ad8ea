/* twinbench: status codes and per-thread error details. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "status.h"
#include "types.h"

static _Thread_local char tb_detail[512];

const char *tb_strerror(int status)
{
  switch (status) {
  case TB_OK: return "success";
  case TB_EINVAL: return "invalid argument";
  case TB_ENOMEM: return "out of memory";
  case TB_EIO: return "input/output error";
  case TB_ENODEV: return "backend not available";
  case TB_EDEVICE: return "device error";
  case TB_EUNSUP: return "not supported";
  case TB_ETOPO: return "topology or binding error";
  case TB_EINTR: return "interrupted";
  default: return "unknown error";
  }
}

/* A message is one line of printable text, whatever user text it quotes:
 * control characters and bytes outside ASCII become '?'. */
static void tb_line_only(char *s)
{
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
      *s = '?';
}

int tb_fail(int status, const char *fmt, ...)
{
  /* Format aside first: callers often wrap the previous detail in a new one. */
  char msg[sizeof tb_detail];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  tb_line_only(msg);
  memcpy(tb_detail, msg, sizeof tb_detail);
  return status;
}

const char *tb_error_detail(void)
{
  return tb_detail;
}

void tb_error_clear(void)
{
  tb_detail[0] = '\0';
}

static int tb_progress_shown, tb_notes_off;

void tb_note_quiet(int quiet)
{
  tb_notes_off = quiet;
}

/* Notes held back while a check runs. */
#define TB_HELD_NOTES 8
static struct {
  int on, n;
  char line[TB_HELD_NOTES][512];
} tb_held;

void tb_note_progress(int shown)
{
  tb_progress_shown = shown;
}

static void tb_note_print(const char *line)
{
  if (tb_notes_off)
    return;
  fprintf(stderr, "%stwinbench: note: %s\n", tb_progress_shown ? "\r\033[K" : "", line);
  tb_progress_shown = 0;
}

void tb_note(const char *fmt, ...)
{
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  tb_line_only(line);
  if (!tb_held.on)
    tb_note_print(line);
  else if (tb_held.n < TB_HELD_NOTES)
    memcpy(tb_held.line[tb_held.n++], line, sizeof line);
}

void tb_note_hold(void)
{
  tb_held.on = 1;
  tb_held.n = 0;
}

void tb_note_release(int print)
{
  for (int i = 0; print && i < tb_held.n; i++)
    tb_note_print(tb_held.line[i]);
  tb_held.on = 0;
  tb_held.n = 0;
}

int tb_name_index(const char *const *names, int n, const char *s, const char *what, int *index)
{
  char known[512], shown[64];
  size_t len = 0;
  known[0] = '\0';
  for (int i = 0; n < 0 ? names[i] != NULL : i < n; i++) {
    if (!strcmp(names[i], s)) {
      *index = i;
      return TB_OK;
    }
    if (len < sizeof known)
      len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "", names[i]);
  }
  return tb_fail(TB_EINVAL, "%s '%s' (known: %s)", what, tb_printable(s, shown, sizeof shown),
                 len ? known : "none");
}

const char *tb_printable(const char *s, char *buf, size_t len)
{
  size_t k = 0;
  for (; s && *s && k + 1 < len; s++)
    buf[k++] = (*s >= 0x20 && *s < 0x7f) ? *s : '?';
  buf[k] = '\0';
  if (s && *s && len > 4)
    memcpy(buf + len - 4, "...", 4);
  return buf;
}

size_t tb_kind_size(tb_kind_t k)
{
  switch (k) {
  case TB_KIND_I32:
  case TB_KIND_U32:
  case TB_KIND_F32: return 4;
  case TB_KIND_I64:
  case TB_KIND_F64: return 8;
  case TB_KIND_U8: return 1;
  }
  return 1;
}

tb_kind_t tb_prec_kind(tb_prec_t p)
{
  switch (p) {
  case TB_INT32: return TB_KIND_I32;
  case TB_FLOAT: return TB_KIND_F32;
  default: return TB_KIND_F64;
  }
}

static const char *const tb_prec_names[TB_NPREC] = {"int32", "float", "double"};

const char *tb_prec_name(tb_prec_t p)
{
  return (unsigned)p < TB_NPREC ? tb_prec_names[p] : "?";
}

int tb_prec_parse(const char *s, tb_prec_t *p)
{
  int i = 0, rc = tb_name_index(tb_prec_names, TB_NPREC, s, "unknown precision", &i);
  *p = (tb_prec_t)i;
  return rc;
}

int tb_utf8_seq(const unsigned char *b, size_t avail)
{
  int n;
  if (b[0] < 0x80)
    return 1;
  unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
  if (b[0] >= 0xC2 && b[0] <= 0xDF)
    n = 2;
  else if (b[0] >= 0xE0 && b[0] <= 0xEF) {
    n = 3;
    if (b[0] == 0xE0)
      lo = 0xA0;
    else if (b[0] == 0xED)
      hi = 0x9F;
  } else if (b[0] >= 0xF0 && b[0] <= 0xF4) {
    n = 4;
    if (b[0] == 0xF0)
      lo = 0x90;
    else if (b[0] == 0xF4)
      hi = 0x8F;
  } else
    return 0;
  for (int k = 1; k < n; k++) {
    if ((size_t)k >= avail)
      return -1;
    if (b[k] < (k == 1 ? lo : 0x80) || b[k] > (k == 1 ? hi : 0xBF))
      return 0;
  }
  return n;
}
