/* twinbench: the environment block of JSON reports. */
#include <config.h>

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "env.h"
#include "gitrev.h"
#include "json.h"
#include "registry.h"
#include "status.h"
#include "topo.h"

const char *tb_git_revision(void)
{
  return TB_GIT_REVISION;
}

void tb_build_print(FILE *f)
{
  fprintf(f, "twinbench %s (%s)\n", PACKAGE_VERSION, TB_GIT_REVISION);
  fprintf(f, "  built with: %s; OpenMP %d; hwloc API %x.%x; CUDA %s; FFTW3 %s\n", TB_CONFIG_CC,
          _OPENMP, HWLOC_API_VERSION >> 16, (HWLOC_API_VERSION >> 8) & 0xff,
#ifdef TB_HAVE_CUDA
          "yes (" TB_CONFIG_NVCCFLAGS ")",
#else
          "no",
#endif
#ifdef TB_HAVE_FFTW
          "yes"
#else
          "no"
#endif
  );
}

static void tb_json_kv(FILE *f, const char *key, const char *value, int last)
{
  fprintf(f, "    \"%s\": ", key);
  if (value)
    tb_json_string(f, value);
  else
    fputs("null", f);
  fputs(last ? "\n" : ",\n", f);
}

/* The first line of a small system file, without its end, or NULL. */
static const char *tb_read_line(const char *path, char *buf, size_t len)
{
  FILE *in = fopen(path, "r");
  if (!in)
    return NULL;
  const char *got = fgets(buf, (int)len, in);
  fclose(in);
  if (!got)
    return NULL;
  buf[strcspn(buf, "\n")] = '\0';
  return buf;
}

/* What the environment says about threads and devices: OMP_*, GOMP_*,
 * CUDA_VISIBLE_DEVICES, as an object. */
static void tb_env_vars(FILE *f)
{
  extern char **environ;
  int first = 1;
  fprintf(f, "    \"variables\": {");
  for (char **e = environ; e && *e; e++) {
    if (strncmp(*e, "OMP_", 4) && strncmp(*e, "GOMP_", 5) && strncmp(*e, "CUDA_VISIBLE_DEVICES=", 21))
      continue;
    const char *eq = strchr(*e, '=');
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(eq ? eq - *e : (long)strlen(*e)), *e);
    fprintf(f, "%s", first ? "" : ", ");
    tb_json_string(f, name);
    fputs(": ", f);
    tb_json_string(f, eq ? eq + 1 : "");
    first = 0;
  }
  fprintf(f, "},\n");
}

/* The CPU's frequency governor and current clock, the huge pages' mode, and the load
 * average. */
static void tb_env_load(FILE *f)
{
  char buf[256];
  double l1, l5, l15;
  tb_json_kv(f, "cpu_governor",
             tb_read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof buf),
             0);
  const char *khz = tb_read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", buf,
                                 sizeof buf);
  if (khz)
    fprintf(f, "    \"cpu_mhz\": %.0f,\n", atof(khz) / 1000.0);
  else
    fprintf(f, "    \"cpu_mhz\": null,\n");
  /* The transparent huge pages' mode, the bracketed word of "always [madvise] never": with
   * madvise the buffers here get 4 KiB pages (none asks for huge ones). */
  const char *thp = tb_read_line("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof buf);
  const char *lb = thp ? strchr(thp, '[') : NULL, *rb = lb ? strchr(lb, ']') : NULL;
  if (rb) {
    buf[rb - buf] = '\0';
    thp = lb + 1;
  } else
    thp = NULL;
  tb_json_kv(f, "transparent_hugepages", thp, 0);
  if (tb_read_line("/proc/loadavg", buf, sizeof buf) &&
      sscanf(buf, "%lf %lf %lf", &l1, &l5, &l15) == 3)
    fprintf(f, "    \"load_average\": [%g, %g, %g],\n", l1, l5, l15);
  else
    fprintf(f, "    \"load_average\": null,\n");
}

/* The host's name and the date (UTC, ISO 8601). */
static void tb_host_date(char *host, size_t hlen, char *date, size_t dlen)
{
  time_t now = time(NULL);
  struct tm tm;
  if (gethostname(host, hlen))
    snprintf(host, hlen, "unknown");
  host[hlen - 1] = '\0';
  date[0] = '\0';
  if (gmtime_r(&now, &tm))
    strftime(date, dlen, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void tb_env_context(FILE *f, const tb_report_t *rep, const char *prefix)
{
  char host[256], date[64], shown[1024], cmd[1024];
  tb_host_date(host, sizeof host, date, sizeof date);
  fprintf(f, "%stwinbench %s (%s), %s, on %s: %s\n", prefix, PACKAGE_VERSION, tb_git_revision(),
          date, tb_printable(host, shown, 128), tb_printable(rep->command_line, cmd, sizeof cmd));
  fprintf(f, "%scpu: %s; %d packages, %d cores, %d PUs; seed=%llu repeats=%d warmups=%d verify=%s%s\n",
          prefix, tb_printable(tb_topo_cpu_model(rep->topo), shown, 128),
          tb_topo_npackages(rep->topo), tb_topo_ncores(rep->topo), tb_topo_npus(rep->topo),
          (unsigned long long)rep->seed, rep->repeats, rep->warmups, rep->verify ? "yes" : "no",
          rep->interrupted ? "; interrupted: the rows measured before the interrupt" : "");
}

void tb_env_json(FILE *f, const tb_report_t *rep)
{
  char host[256], date[64];
  tb_host_date(host, sizeof host, date, sizeof date);
  fprintf(f, "{\n");
  tb_json_kv(f, "date", date, 0);
  tb_json_kv(f, "host", host, 0);
  tb_json_kv(f, "command", rep->command_line, 0);
  tb_json_kv(f, "git_revision", tb_git_revision(), 0);
  tb_json_kv(f, "cc", TB_CONFIG_CC " " __VERSION__, 0);
  tb_json_kv(f, "cflags", TB_CONFIG_CFLAGS, 0);
  tb_json_kv(f, "nvccflags", TB_CONFIG_NVCCFLAGS, 0);
  tb_json_kv(f, "cpu_model", tb_topo_cpu_model(rep->topo), 0);
  const tb_topo_t *whole = tb_topo_whole(rep->topo);
  char mask[256];
  fprintf(f, "    \"packages\": %d,\n    \"numa_nodes\": %d,\n    \"cores\": %d,\n    \"pus\": %d,\n",
          tb_topo_npackages(whole), tb_topo_nnuma(whole), tb_topo_ncores(whole),
          tb_topo_npus(whole));
  tb_topo_affinity(rep->topo, mask, sizeof mask);
  tb_json_kv(f, "affinity", mask, 0);
  fprintf(f, "    \"allowed_cores\": %d,\n    \"allowed_pus\": %d,\n", tb_topo_ncores(rep->topo),
          tb_topo_npus(rep->topo));
  fprintf(f, "    \"llc_bytes\": %lld,\n", (long long)tb_topo_llc_bytes(rep->topo));
  tb_env_vars(f);
  tb_env_load(f);
  fprintf(f, "    \"energy\": {");
  for (int b = 0, n = 0; b < tb_backend_count(); b++)
    if (rep->energy[b]) {
      fprintf(f, "%s", n++ ? ", " : "");
      tb_json_string(f, tb_backend_at(b)->name);
      fputs(": ", f);
      tb_json_string(f, rep->energy[b]);
    }
  fprintf(f, "},\n");
  fprintf(f, "    \"backends\": {");
  for (int b = 0; b < tb_backend_count(); b++) {
    const tb_backend_t *be = tb_backend_at(b);
    fprintf(f, "%s\n      ", b ? "," : "");
    tb_json_string(f, be->name);
    fputs(": ", f);
    if (be->env_json)
      be->env_json(f);
    else
      fputs("null", f);
  }
  fprintf(f, "\n    }\n");
  fprintf(f, "  }");
}
