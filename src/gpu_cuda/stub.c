/* twinbench: the GPU backend of a build without CUDA. It has no variants and
 * reports itself unavailable, so the registry links and every GPU request
 * gets a clear answer. Makefile.am compiles this file instead of the CUDA
 * sources, never beside them. */
#include <config.h>

#include <string.h>

#include "../common/algo.h"

static const tb_variant_t *const tb_gpu_variants[] = {NULL};

static int tb_stub_unavailable(void)
{
  return tb_fail(TB_ENODEV, "this twinbench was built without CUDA (configure found no working "
                            "CUDA toolkit, or was given --without-cuda)");
}

static int tb_stub_probe(tb_device_info_t *info)
{
  memset(info, 0, sizeof *info);
  return tb_stub_unavailable();
}

static int tb_stub_mem(int64_t *bytes)
{
  *bytes = 0;
  return tb_stub_unavailable();
}

static int tb_stub_ctx(tb_ctx_t *ctx)
{
  (void)ctx;
  return tb_stub_unavailable();
}

static int tb_stub_limit(tb_ctx_t *ctx, int kind, double *gbs)
{
  (void)ctx;
  (void)kind;
  *gbs = 0.0;
  return tb_stub_unavailable();
}

static int tb_stub_xfer(tb_ctx_t *ctx, tb_xfer_t *xfer)
{
  (void)ctx;
  (void)xfer;
  return tb_stub_unavailable();
}

static int tb_stub_reset(tb_ctx_t *ctx, int poison)
{
  (void)ctx;
  (void)poison;
  return tb_stub_unavailable();
}

static int tb_stub_stop(tb_ctx_t *ctx, double *ms)
{
  (void)ctx;
  *ms = 0.0;
  return tb_stub_unavailable();
}

static int tb_stub_download(tb_ctx_t *ctx, void **view, tb_xfer_t *xfer)
{
  (void)ctx;
  (void)view;
  (void)xfer;
  return tb_stub_unavailable();
}

static void tb_stub_detach(tb_ctx_t *ctx)
{
  (void)ctx;
}

const tb_backend_t tb_backend_gpu = {
    .name = "gpu",
    .limit_names = {"device-to-device copy", "device-to-device copy"},
    .variants = tb_gpu_variants,
    .probe = tb_stub_probe,
    .mem_available = tb_stub_mem,
    .measure_limit = tb_stub_limit,
    .attach = tb_stub_xfer,
    .reset = tb_stub_reset,
    .timer_start = tb_stub_ctx,
    .timer_stop = tb_stub_stop,
    .download = tb_stub_download,
    .detach = tb_stub_detach,
};
