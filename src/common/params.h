/* twinbench: parsing and lookup of parameters (an algorithm's problem
 * parameters, a variant's tuning parameters and a backend's options share
 * tb_param_def_t). */
#ifndef TB_PARAMS_H
#define TB_PARAMS_H

#include <stddef.h>

#include "algo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parse one value of parameter d, checking its type and range. The value
 * keeps a private copy of text (free with tb_param_value_free). */
int tb_param_parse_value(const tb_param_def_t *d, const char *text, tb_param_value_t *v);
void tb_param_value_free(tb_param_value_t *v);

/* Parse a comma-separated list of values of d into a fresh array (free with
 * tb_param_list_free); the word sweep stands for d->sweep where d has one. */
int tb_param_parse_list(const tb_param_def_t *d, const char *list, tb_param_value_t **vals,
                        int *n);
void tb_param_list_free(tb_param_value_t *vals, int n);

/* The index of the parameter called name in defs[0..n), or -1. */
int tb_param_index(const tb_param_def_t *defs, int n, const char *name);

/* The values pv of the parameters defs[0..n) as "name=value name=value ..."
 * in buf (truncated to len). */
void tb_params_format(const tb_param_def_t *defs, int n, const tb_param_value_t *pv, char *buf,
                      size_t len);

/* The names of defs[0..n) as "a, b, c" in buf (truncated to len). */
void tb_params_names(const tb_param_def_t *defs, int n, char *buf, size_t len);

/* One point of parameters defs[0..n): each the first value of its default
 * list, then "name=value" settings (space-separated) over them; for tests
 * and tools that run a variant by hand. Free with tb_params_point_free. */
int tb_params_point(const tb_param_def_t *defs, int n, const char *settings,
                    tb_param_value_t *point);
void tb_params_point_free(tb_param_value_t *point, int n);

#ifdef __cplusplus
}
#endif
#endif
