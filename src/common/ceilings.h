/* twinbench: the ceilings of every configuration of the chosen backends,
 * measured now and printed as a table (`twinbench info --ceilings`). */
#ifndef TB_CEILINGS_H
#define TB_CEILINGS_H

#include <stdio.h>

#include "runner.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* use[b]: whether backend b is measured; option[b][k]: the text of its
 * option k (NULL: the default), as a run takes them. */
int tb_ceilings_print(FILE *f, tb_topo_t *topo, const int *use,
                      const char *const (*option)[TB_MAX_OPTIONS]);

#ifdef __cplusplus
}
#endif
#endif
