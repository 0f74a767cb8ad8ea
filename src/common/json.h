/* twinbench: JSON text: the one place where strings are escaped. */
#ifndef TB_JSON_H
#define TB_JSON_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Write s as a JSON string literal (NULL as an empty string): valid UTF-8
 * whatever s holds (a byte that is no UTF-8 becomes U+FFFD). */
void tb_json_string(FILE *f, const char *s);

/* Write x as a JSON number (null when it is not finite). */
void tb_json_number(FILE *f, double x);

#ifdef __cplusplus
}
#endif
#endif
