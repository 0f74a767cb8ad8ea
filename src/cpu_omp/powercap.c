/* twinbench: the CPU's energy counters. Linux's powercap class exposes
 * RAPL (Intel, and AMD since Zen) as zones intel-rapl:P (package P) with
 * subzones intel-rapl:P:S (core, uncore, dram). Each zone has energy_uj, a
 * counter in microjoules that wraps after max_energy_range_uj. The package
 * zones and the DRAM subzones are read: core and uncore are parts of their
 * package's count, psys (the platform) overlaps both, and the
 * intel-rapl-mmio zones repeat the package counters. Since Linux 5.10
 * energy_uj is readable by root only. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/status.h"
#include "powercap.h"

typedef struct tb_zone {
  char path[512]; /* its energy_uj */
  char name[32];  /* package-0, dram */
  uint64_t range; /* max_energy_range_uj */
} tb_zone_t;

static struct {
  int scanned, rc, n;
  tb_zone_t zone[TB_ENERGY_MAX_DOMAINS];
  char why[400];
} tb_pc;

/* One unsigned decimal from a sysfs file; errno says why not. */
static int tb_pc_read_u64(const char *path, uint64_t *x)
{
  char line[64], *end;
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  char *got = fgets(line, sizeof line, f);
  fclose(f);
  errno = EINVAL;
  if (!got)
    return -1;
  *x = strtoull(line, &end, 10);
  return end == line ? -1 : 0;
}

/* A zone's name (the first line of its name file), or "" when it has none. */
static void tb_pc_name(const char *root, const char *zone, char *name, size_t len)
{
  char path[512];
  FILE *f;
  name[0] = '\0';
  snprintf(path, sizeof path, "%s/%s/name", root, zone);
  if ((f = fopen(path, "r"))) {
    if (fgets(name, (int)len, f))
      name[strcspn(name, "\n")] = '\0';
    fclose(f);
  }
}

/* Add the zone if it is a package or a DRAM zone whose counter reads. */
static int tb_pc_add(const char *root, const char *zone)
{
  tb_zone_t *z = &tb_pc.zone[tb_pc.n];
  char path[512];
  uint64_t now;
  tb_pc_name(root, zone, z->name, sizeof z->name);
  if (strncmp(z->name, "package-", 8) && strcmp(z->name, "dram"))
    return TB_OK;
  if (tb_pc.n == TB_ENERGY_MAX_DOMAINS)
    return tb_fail(TB_ENODEV, "more than %d package and DRAM zones under %s",
                   TB_ENERGY_MAX_DOMAINS, root);
  snprintf(path, sizeof path, "%s/%s/max_energy_range_uj", root, zone);
  if (tb_pc_read_u64(path, &z->range) || z->range == 0)
    return tb_fail(TB_ENODEV, "%s cannot be read (%s)", path, strerror(errno));
  snprintf(z->path, sizeof z->path, "%s/%s/energy_uj", root, zone);
  if (tb_pc_read_u64(z->path, &now))
    return tb_fail(TB_ENODEV, "%s cannot be read (%s%s)", z->path, strerror(errno),
                   errno == EACCES ? "; since Linux 5.10 RAPL counters are for root only" : "");
  tb_pc.n++;
  return TB_OK;
}

/* Find the zones: intel-rapl:P and intel-rapl:P:S, named package-P or dram. */
static int tb_pc_scan(void)
{
  const char *root = getenv(TB_POWERCAP_ENV);
  int rc = TB_OK;
  struct dirent *e;
  DIR *d;
  if (!root || !*root)
    root = TB_POWERCAP_ROOT;
  if (!(d = opendir(root)))
    return tb_fail(TB_ENODEV, "%s %s (a virtual machine or a kernel without RAPL exposes no "
                              "CPU energy counter)",
                   root, errno == ENOENT ? "is absent" : strerror(errno));
  while (!rc && (e = readdir(d)))
    if (!strncmp(e->d_name, "intel-rapl:", 11))
      rc = tb_pc_add(root, e->d_name);
  closedir(d);
  if (!rc && !tb_pc.n)
    rc = tb_fail(TB_ENODEV, "%s has no RAPL package zone", root);
  return rc;
}

int tb__cpu_energy_read(void *cfg, tb_energy_reading_t *r)
{
  (void)cfg;
  if (!tb_pc.scanned) {
    tb_pc.rc = tb_pc_scan();
    snprintf(tb_pc.why, sizeof tb_pc.why, "%s", tb_pc.rc ? tb_error_detail() : "");
    tb_pc.scanned = 1;
  }
  if (tb_pc.rc)
    return tb_fail(tb_pc.rc, "%s", tb_pc.why);
  r->n = tb_pc.n;
  for (int i = 0; i < tb_pc.n; i++) {
    if (tb_pc_read_u64(tb_pc.zone[i].path, &r->c[i].value))
      return tb_fail(TB_EIO, "%s cannot be read (%s)", tb_pc.zone[i].path, strerror(errno));
    r->c[i].range = tb_pc.zone[i].range;
    r->c[i].unit_j = 1e-6;
  }
  return TB_OK;
}

void tb__cpu_energy_what(const void *cfg, char *buf, size_t len)
{
  size_t k = (size_t)snprintf(buf, len, "powercap RAPL counters (uJ) of the whole packages, idle "
                                        "cores included:");
  (void)cfg;
  for (int i = 0; i < tb_pc.n && k < len; i++)
    k += (size_t)snprintf(buf + k, len - k, "%s %s", i ? "," : "", tb_pc.zone[i].name);
}
