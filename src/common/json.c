/* twinbench: JSON text. */
#include <config.h>

#include <math.h>

#include "json.h"
#include "status.h"

void tb_json_string(FILE *f, const char *s)
{
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  fputc('"', f);
  while (*p) {
    int n = tb_utf8_seq(p, 4); /* the NUL at the end is no continuation byte */
    if (n <= 0) {
      fputs("\\ufffd", f); /* a byte that is no UTF-8: the replacement character */
      p++;
    } else if (n > 1) {
      fwrite(p, 1, (size_t)n, f);
      p += n;
    } else {
      if (*p == '"' || *p == '\\')
        fprintf(f, "\\%c", *p);
      else if (*p == '\n')
        fputs("\\n", f);
      else if (*p < 0x20 || *p == 0x7f)
        fprintf(f, "\\u%04x", *p);
      else
        fputc(*p, f);
      p++;
    }
  }
  fputc('"', f);
}

void tb_json_number(FILE *f, double x)
{
  if (isfinite(x))
    fprintf(f, "%.17g", x);
  else
    fputs("null", f);
}
