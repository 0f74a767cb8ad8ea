/* twinbench: the environment block of JSON reports. */
#include <config.h>

#include <hwloc.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "env.h"
#include "gitrev.h"
#include "json.h"
#include "registry.h"
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

void tb_env_json(FILE *f, const tb_report_t *rep)
{
  char host[256] = "unknown", date[64] = "";
  time_t now = time(NULL);
  struct tm tm;
  if (gethostname(host, sizeof host))
    snprintf(host, sizeof host, "unknown");
  host[sizeof host - 1] = '\0';
  if (gmtime_r(&now, &tm))
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  fprintf(f, "{\n");
  tb_json_kv(f, "date", date, 0);
  tb_json_kv(f, "host", host, 0);
  tb_json_kv(f, "command", rep->command_line, 0);
  tb_json_kv(f, "git_revision", tb_git_revision(), 0);
  tb_json_kv(f, "cc", TB_CONFIG_CC " " __VERSION__, 0);
  tb_json_kv(f, "cflags", TB_CONFIG_CFLAGS, 0);
  tb_json_kv(f, "nvccflags", TB_CONFIG_NVCCFLAGS, 0);
  tb_json_kv(f, "cpu_model", tb_topo_cpu_model(rep->topo), 0);
  fprintf(f, "    \"packages\": %d,\n    \"numa_nodes\": %d,\n    \"cores\": %d,\n    \"pus\": %d,\n",
          tb_topo_npackages(rep->topo), tb_topo_nnuma(rep->topo), tb_topo_ncores(rep->topo),
          tb_topo_npus(rep->topo));
  fprintf(f, "    \"llc_bytes\": %lld,\n", (long long)tb_topo_llc_bytes(rep->topo));
  tb_json_kv(f, "OMP_PROC_BIND", getenv("OMP_PROC_BIND"), 0);
  tb_json_kv(f, "OMP_PLACES", getenv("OMP_PLACES"), 0);
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
