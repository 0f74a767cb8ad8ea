/* twinbench: host memory helpers. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem.h"
#include "status.h"

void *tb_alloc(int64_t bytes)
{
  void *p = NULL;
  long page = sysconf(_SC_PAGESIZE);
  if (bytes < 1)
    bytes = 1;
  if (page < 64)
    page = 4096;
  if (posix_memalign(&p, (size_t)page, (size_t)bytes) != 0)
    return NULL;
  return p;
}

void tb_free(void *p)
{
  free(p);
}

void tb_poison(void *base, tb_kind_t k, int64_t lo, int64_t hi)
{
  size_t sz = tb_kind_size(k);
  if (hi <= lo)
    return;
  /* All-ones bytes are a quiet NaN in both float and double. */
  int byte = (k == TB_KIND_F32 || k == TB_KIND_F64) ? 0xFF : 0xA5;
  memset((char *)base + (size_t)lo * sz, byte, (size_t)(hi - lo) * sz);
}

int tb_host_mem_available(int64_t *bytes)
{
  FILE *f = fopen("/proc/meminfo", "r");
  char line[256];
  long long kb = -1;
  if (f) {
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
        break;
    fclose(f);
  }
  if (kb < 0) {
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages < 0 || page < 0)
      return tb_fail(TB_EIO, "cannot tell how much host memory is available");
    *bytes = (int64_t)pages * page;
    return TB_OK;
  }
  *bytes = (int64_t)kb * 1024;
  return TB_OK;
}

const char *tb_format_bytes(double bytes, char *buf)
{
  static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 6) {
    bytes /= 1024.0;
    u++;
  }
  snprintf(buf, 32, u ? "%.2f %s" : "%.0f %s", bytes, unit[u]);
  return buf;
}
