/* twinbench: parsing and lookup of algorithm parameters. */
#ifndef TB_PARAMS_H
#define TB_PARAMS_H

#include "algo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parse one value of parameter d, checking its type and range. The value
 * keeps a private copy of text (free with tb_param_value_free). */
int tb_param_parse_value(const tb_param_def_t *d, const char *text, tb_param_value_t *v);
void tb_param_value_free(tb_param_value_t *v);

/* Parse a comma-separated list of values of d into a fresh array. */
int tb_param_parse_list(const tb_param_def_t *d, const char *list, tb_param_value_t **vals,
                        int *n);

/* The index of the parameter called name in algo, or -1. */
int tb_param_find(const tb_algo_t *algo, const char *name);

/* The values pv of algo's parameters as "name=value name=value ..." in buf
 * (truncated to len). */
void tb_params_format(const tb_algo_t *algo, const tb_param_value_t *pv, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
