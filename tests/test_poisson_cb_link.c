/* The Poisson family's LTO callbacks link the way cuFFT links them, without a
 * GPU: cuFFT's plan compiles, with NVRTC, a wrapper that declares the
 * callback by the name given to cufftXtSetJITCallback as a C++ function of
 * the documented signature (cufftXt.h: cufftJITCallbackStoreC and the
 * others), then links it with the callback's fatbin through nvJitLink. This
 * test does the same for each of the four callbacks and each architecture
 * the fatbin was built for, and links an undeclared name as a control that
 * must fail (the extern "C" callbacks of the first version failed so, and
 * cuFFT turned it into CUFFT_INTERNAL_ERROR on the H200). */
#include <config.h>

#include <cuda_runtime_api.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cuda/poisson_cb_fatbin.h"

/* A callback as cuFFT's wrapper declares it: its name, the element type,
 * and whether it loads (returns the element) or stores it. */
typedef struct tb_cb {
  const char *name, *type;
  int load;
} tb_cb_t;

static const tb_cb_t tb_cbs[] = {
    {"tb_poisson_cb_store_f", "float2", 0},
    {"tb_poisson_cb_store_d", "double2", 0},
    {"tb_poisson_cb_load_f", "float2", 1},
    {"tb_poisson_cb_load_d", "double2", 1},
};

/* The wrapper's source: the declaration and a kernel that calls it. */
static void tb_glue(char *src, size_t len, const tb_cb_t *cb)
{
  if (cb->load)
    snprintf(src, len,
             "extern __device__ %s %s(void *a, unsigned long long offset, void *info, void *smem);\n"
             "extern \"C\" __global__ void tb_k(void *a, %s *o, void *i)\n"
             "{ o[threadIdx.x] = %s(a, threadIdx.x, i, 0); }\n",
             cb->type, cb->name, cb->type, cb->name);
  else
    snprintf(src, len,
             "extern __device__ void %s(void *a, unsigned long long offset, %s e, void *info,\n"
             "                          void *smem);\n"
             "extern \"C\" __global__ void tb_k(void *a, %s e, void *i)\n"
             "{ %s(a, threadIdx.x, e, i, 0); }\n",
             cb->name, cb->type, cb->type, cb->name);
}

/* Compile the wrapper of cb for compute capability arch to LTO-IR and link
 * it with the fatbin for sm_arch. Returns 0 when linked, 1 when the link
 * failed (log in log), -1 when the tools failed otherwise. */
static int tb_link(const tb_cb_t *cb, const char *arch, char *log, size_t loglen)
{
  char src[1024], opt[32], lopt[32];
  const char *copts[3], *lopts[2];
  nvrtcProgram prog;
  size_t n = 0;
  int rc = -1;
  tb_glue(src, sizeof src, cb);
  snprintf(opt, sizeof opt, "-arch=compute_%s", arch);
  snprintf(lopt, sizeof lopt, "-arch=sm_%s", arch);
  copts[0] = opt;
  copts[1] = "-dlto";
  copts[2] = "-rdc=true";
  lopts[0] = lopt;
  lopts[1] = "-lto";
  *log = 0;
  if (nvrtcCreateProgram(&prog, src, "glue.cu", 0, NULL, NULL) != NVRTC_SUCCESS)
    return -1;
  nvrtcResult cr = nvrtcCompileProgram(prog, 3, copts);
  char *ir = NULL;
  if (cr == NVRTC_SUCCESS && nvrtcGetLTOIRSize(prog, &n) == NVRTC_SUCCESS && (ir = malloc(n)) &&
      nvrtcGetLTOIR(prog, ir) == NVRTC_SUCCESS) {
    nvJitLinkHandle h;
    if (nvJitLinkCreate(&h, 2, lopts) == NVJITLINK_SUCCESS) {
      nvJitLinkResult r = nvJitLinkAddData(h, NVJITLINK_INPUT_LTOIR, ir, n, "glue");
      if (r == NVJITLINK_SUCCESS)
        r = nvJitLinkAddData(h, NVJITLINK_INPUT_FATBIN, tb_poisson_cb_fatbin,
                             sizeof tb_poisson_cb_fatbin, "poisson_cb");
      if (r == NVJITLINK_SUCCESS)
        r = nvJitLinkComplete(h);
      size_t ls = 0;
      if (r != NVJITLINK_SUCCESS && nvJitLinkGetErrorLogSize(h, &ls) == NVJITLINK_SUCCESS &&
          ls > 1 && ls <= loglen)
        nvJitLinkGetErrorLog(h, log);
      rc = r == NVJITLINK_SUCCESS ? 0 : 1;
      nvJitLinkDestroy(&h);
    }
  } else if (cr != NVRTC_SUCCESS) {
    snprintf(log, loglen, "nvrtc: %s", nvrtcGetErrorString(cr));
  }
  free(ir);
  nvrtcDestroyProgram(&prog);
  return rc;
}

int main(void)
{
  char archs[64], log[4096];
  int fails = 0, links = 0;
  /* TB_POISSON_CB_ARCHS: "80 sm_90" and the like. */
  snprintf(archs, sizeof archs, "%s", TB_POISSON_CB_ARCHS);
  for (char *a = strtok(archs, " "); a; a = strtok(NULL, " ")) {
    const char *arch = strncmp(a, "sm_", 3) ? a : a + 3;
    for (size_t k = 0; k < sizeof tb_cbs / sizeof tb_cbs[0]; k++) {
      int rc = tb_link(&tb_cbs[k], arch, log, sizeof log);
      if (rc) {
        printf("FAIL: %s did not link for sm_%s%s: %s\n", tb_cbs[k].name, arch,
               rc < 0 ? " (NVRTC or nvJitLink failed)" : "", log);
        fails++;
      }
      links++;
    }
    const tb_cb_t missing = {"tb_poisson_cb_missing", "float2", 0};
    if (tb_link(&missing, arch, log, sizeof log) != 1) {
      printf("FAIL: an undefined callback linked (or the tools failed) for sm_%s\n", arch);
      fails++;
    }
  }
  if (!links) {
    printf("FAIL: the fatbin names no architecture ('%s')\n", TB_POISSON_CB_ARCHS);
    fails++;
  }
  printf("%d links, %d failures\n", links, fails);
  return fails ? 1 : 0;
}
