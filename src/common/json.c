/* twinbench: JSON text. */
#include <config.h>

#include <math.h>

#include "json.h"

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 when the bytes
 * there are not one (a stray continuation byte, an overlong form, a
 * surrogate, a value past U+10FFFF, a cut sequence). */
static int tb_utf8_length(const unsigned char *s)
{
  int n;
  unsigned min, v;
  if (s[0] < 0x80)
    return 1;
  if ((s[0] & 0xE0) == 0xC0)
    n = 2, min = 0x80, v = s[0] & 0x1F;
  else if ((s[0] & 0xF0) == 0xE0)
    n = 3, min = 0x800, v = s[0] & 0x0F;
  else if ((s[0] & 0xF8) == 0xF0)
    n = 4, min = 0x10000, v = s[0] & 0x07;
  else
    return 0;
  for (int k = 1; k < n; k++) {
    if ((s[k] & 0xC0) != 0x80)
      return 0;
    v = (v << 6) | (s[k] & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
    return 0;
  return n;
}

void tb_json_string(FILE *f, const char *s)
{
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  fputc('"', f);
  while (*p) {
    int n = tb_utf8_length(p);
    if (n == 0) {
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
