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

int tb_fail(int status, const char *fmt, ...)
{
  /* Format aside first: callers often wrap the previous detail in a new one. */
  char msg[sizeof tb_detail];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
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
  for (int i = 0; i < TB_NPREC; i++)
    if (!strcmp(s, tb_prec_names[i])) {
      *p = (tb_prec_t)i;
      return TB_OK;
    }
  return tb_fail(TB_EINVAL, "unknown precision '%s' (known: int32, float, double)", s);
}
