/* twinbench: the CPU's energy counters, from Linux powercap's RAPL zones. */
#ifndef TB_POWERCAP_H
#define TB_POWERCAP_H

#include <stddef.h>

#include "../common/energy.h"

/* Where the powercap zones are: $TWINBENCH_POWERCAP when set (a copy of
 * the tree, for tests), else /sys/class/powercap. */
#define TB_POWERCAP_ROOT "/sys/class/powercap"
#define TB_POWERCAP_ENV "TWINBENCH_POWERCAP"

/* Read the package and DRAM energy counters of every package into *r (the
 * backend's energy_read: they count the whole packages, whatever team
 * runs), or fail (TB_ENODEV) saying why there are none; the zones are
 * found on the first call. */
int tb__cpu_energy_read(void *cfg, tb_energy_reading_t *r);

/* What the counters count (the backend's energy_what). */
void tb__cpu_energy_what(const void *cfg, char *buf, size_t len);

#endif
