/* twinbench: host memory helpers. */
#ifndef TB_MEM_H
#define TB_MEM_H

#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Page-aligned allocation of bytes (at least one byte); NULL on failure.
 * Pages are not touched: the threads that use the memory touch it first. */
void *tb_alloc(int64_t bytes);
void tb_free(void *p);

/* Fill elements [lo, hi) of an array of kind k with a poison value that no
 * variant produces by accident: NaN for floating point, 0xA5 bytes for integers. */
void tb_poison(void *base, tb_kind_t k, int64_t lo, int64_t hi);

/* Memory the host can still give (MemAvailable), in bytes. */
int tb_host_mem_available(int64_t *bytes);

/* "1.50 GiB" and the like, into buf (at least 32 bytes). */
const char *tb_format_bytes(double bytes, char *buf);

#ifdef __cplusplus
}
#endif
#endif
