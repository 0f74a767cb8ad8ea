/* twinbench: the GPU backend of a build without CUDA. It has no variants and
 * reports itself unavailable, so the registry links, every GPU request gets
 * a clear answer, and the command line still knows the block and grid
 * tuning parameters (a script written for a GPU build runs its CPU part).
 * Makefile.am compiles this file instead of the CUDA sources, never beside
 * them; the runner calls nothing but probe, info and env_json of a backend
 * whose probe fails. */
#include <config.h>

#include <string.h>

#include "../common/json.h"
#include "gpu.h"

static const tb_variant_t *const *const tb_gpu_variants[] = {NULL};

static const tb_param_def_t tb_gpu_tuning[] = TB_GPU_BACKEND_TUNING;

static const char tb_stub_why[] = "this twinbench was built without CUDA (configure found no "
                                  "working CUDA toolkit, or was given --without-cuda)";

static int tb_stub_probe(void)
{
  return tb_fail(TB_ENODEV, "%s", tb_stub_why);
}

static void tb_stub_info(FILE *f)
{
  fprintf(f, "GPU: none (%s)\n", tb_stub_why);
}

static void tb_stub_env_json(FILE *f)
{
  fprintf(f, "{\"absent\": ");
  tb_json_string(f, tb_stub_why);
  fputc('}', f);
}

const tb_backend_t tb_backend_gpu = {
    .name = "gpu",
    .summary = "CUDA twins (not in this build)",
    .flags = TB_BACKEND_OFFLOAD,
    .variants = tb_gpu_variants,
    .tuning = tb_gpu_tuning,
    .ntuning = TB_COUNT(tb_gpu_tuning),
    .probe = tb_stub_probe,
    .info = tb_stub_info,
    .env_json = tb_stub_env_json,
};
