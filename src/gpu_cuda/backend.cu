/* twinbench: the CUDA backend. Arrays live in device memory; inputs are
 * uploaded once per problem (timed from pageable and from pinned host memory),
 * outputs downloaded after each configuration (timed likewise); kernels are
 * timed with CUDA events on the backend's stream; the ceilings (ceilings.cu)
 * are measured on the same device in the same process. The board's energy
 * counter is NVML's, where configure found NVML (TB_HAVE_NVML). */
#include <config.h>

#include <cuda_runtime.h>
#include <math.h>
#ifdef TB_HAVE_NVML
#include <nvml.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/energy.h"
#include "../common/json.h"
#include "../common/mem.h"
#include "../common/runner.h"
#include "../common/tbmpi.h"
#include "ceilings.h"
#include "cuda_util.h"

extern "C" const tb_variant_t *const *const tb_gpu_variants[];
extern "C" const tb_backend_t tb_backend_gpu;

namespace {

const tb_param_def_t tb_gpu_tuning[] = TB_GPU_BACKEND_TUNING;

struct tb_gpu_state {
  tb_gpu_attached_t pub; /* first: what the twins read (cuda_util.h) */
  cudaStream_t stream;
  cudaEvent_t ev0, ev1;
  void *pristine[TB_MAX_ARRAYS]; /* device copies of INOUT inputs */
  void *host_out[TB_MAX_ARRAYS]; /* pageable host buffers the outputs come back to */
  void *pinned;                  /* pinned staging buffer for the pinned timings */
  int64_t pinned_bytes;
};

int tb_gpu_have_probe = 0, tb_gpu_probe_rc = 0;
/* The device of this process: in an MPI run the node-local rank's, modulo
 * the devices (ranks beyond the devices share them); else device 0. */
static int tb_gpu_device;
tb_device_info_t tb_gpu_info;
char tb_gpu_probe_msg[512];

int tb_gpu_probe_once(void)
{
  int count = 0, dev = 0;
  tb_device_info_t *g = &tb_gpu_info;
  cudaDeviceProp prop;
  memset(g, 0, sizeof *g);
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess)
    return tb_fail(TB_ENODEV, "no usable CUDA device (%s: %s)", cudaGetErrorName(e),
                   cudaGetErrorString(e));
  if (count < 1)
    return tb_fail(TB_ENODEV, "no CUDA device found");
  dev = tb_gpu_device = tb_mpi_local_rank() % count;
  TB_CUDA(cudaSetDevice(dev));
  TB_CUDA(cudaGetDeviceProperties(&prop, dev));
  snprintf(g->name, sizeof g->name, "%s", prop.name);
  TB_CUDA(cudaDeviceGetPCIBusId(g->pci_bus, (int)sizeof g->pci_bus, dev));
  g->cc_major = prop.major;
  g->cc_minor = prop.minor;
  g->sms = prop.multiProcessorCount;
  g->warp_size = prop.warpSize;
  g->max_threads_per_block = prop.maxThreadsPerBlock;
  g->max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  g->global_mem = (int64_t)prop.totalGlobalMem;
  g->l2_bytes = prop.l2CacheSize;
  g->shared_per_block = (int64_t)prop.sharedMemPerBlock;
  g->shared_per_sm = (int64_t)prop.sharedMemPerMultiprocessor;
  TB_CUDA(cudaDeviceGetAttribute(&g->clock_khz, cudaDevAttrClockRate, dev));
  TB_CUDA(cudaDeviceGetAttribute(&g->mem_clock_khz, cudaDevAttrMemoryClockRate, dev));
  TB_CUDA(cudaDeviceGetAttribute(&g->bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
  TB_CUDA(cudaDriverGetVersion(&g->driver_version));
  TB_CUDA(cudaRuntimeGetVersion(&g->runtime_version));
  snprintf(g->compiler, sizeof g->compiler, "nvcc %d.%d.%d", __CUDACC_VER_MAJOR__,
           __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__);
  TB_CUDA(cudaFree(0)); /* create the context now, outside any timing */
  return TB_OK;
}

int tb_gpu_probe(void)
{
  if (!tb_gpu_have_probe) {
    tb_gpu_probe_rc = tb_gpu_probe_once();
    snprintf(tb_gpu_probe_msg, sizeof tb_gpu_probe_msg, "%s", tb_error_detail());
    tb_gpu_have_probe = 1;
  }
  if (tb_gpu_probe_rc)
    return tb_fail(tb_gpu_probe_rc, "%s", tb_gpu_probe_msg);
  return TB_OK;
}

/* ---- Energy ------------------------------------------------------------ */

#ifdef TB_HAVE_NVML
/* NVML, started on the first reading and shut down with the
 * configurations; the device is found by its PCI bus id, which unlike an
 * index is the same whatever CUDA_VISIBLE_DEVICES says. */
struct tb_nvml {
  int started;
  nvmlDevice_t dev;
  char bus[sizeof ((tb_device_info_t *)0)->pci_bus]; /* whose handle dev is; "" for none */
  double limit_w, enforced_w; /* the board's power limits; NaN: NVML did not say */
};
tb_nvml tb_gpu_nvml;

/* An NVML error as a tb_status, in words. */
int tb_nvml_fail(const char *what, nvmlReturn_t e)
{
  return tb_fail(TB_ENODEV, "NVML %s: %s%s", what, nvmlErrorString(e),
                 e == NVML_ERROR_NOT_SUPPORTED ? " (the total-energy counter needs a Volta or "
                                                 "later GPU)"
                                               : "");
}

/* Start NVML (once) and take the handle of the configuration's device. */
int tb_nvml_open(const tb_gpu_config_t *c)
{
  tb_nvml *n = &tb_gpu_nvml;
  nvmlReturn_t e;
  unsigned int mw = 0;
  if (n->started && !strcmp(n->bus, c->dev.pci_bus))
    return TB_OK;
  if (!n->started) {
    if ((e = nvmlInit_v2()) != NVML_SUCCESS)
      return tb_nvml_fail("could not start (nvmlInit)", e);
    n->started = 1;
  }
  n->bus[0] = '\0';
  if ((e = nvmlDeviceGetHandleByPciBusId_v2(c->dev.pci_bus, &n->dev)) != NVML_SUCCESS)
    return tb_nvml_fail("found no device at the GPU's PCI bus id", e);
  snprintf(n->bus, sizeof n->bus, "%s", c->dev.pci_bus);
  /* The limits are for the report; a board that does not say has none. */
  n->limit_w = nvmlDeviceGetPowerManagementLimit(n->dev, &mw) == NVML_SUCCESS ? 1e-3 * mw : NAN;
  n->enforced_w = nvmlDeviceGetEnforcedPowerLimit(n->dev, &mw) == NVML_SUCCESS ? 1e-3 * mw : NAN;
  return TB_OK;
}

void tb_nvml_close(void)
{
  if (tb_gpu_nvml.started)
    nvmlShutdown();
  tb_gpu_nvml.started = 0;
  tb_gpu_nvml.bus[0] = '\0';
}

/* The board's total energy since the driver loaded: one 64-bit counter in
 * millijoules, which does not wrap in practice (2^64 mJ lasts 585,000 years
 * at 1 kW). */
int tb_gpu_energy_read(void *cfg, tb_energy_reading_t *r)
{
  unsigned long long mj = 0;
  int rc = tb_nvml_open((const tb_gpu_config_t *)cfg);
  if (rc)
    return rc;
  nvmlReturn_t e = nvmlDeviceGetTotalEnergyConsumption(tb_gpu_nvml.dev, &mj);
  if (e != NVML_SUCCESS)
    return tb_nvml_fail("total energy", e);
  r->n = 1;
  r->c[0].value = (uint64_t)mj;
  r->c[0].range = 0;
  r->c[0].unit_j = 1e-3;
  return TB_OK;
}

void tb_gpu_energy_what(const void *cfg, char *buf, size_t len)
{
  const tb_gpu_config_t *c = (const tb_gpu_config_t *)cfg;
  char limit[96] = "";
  if (!isnan(tb_gpu_nvml.limit_w) && !isnan(tb_gpu_nvml.enforced_w))
    snprintf(limit, sizeof limit, ", power limit %.0f W (enforced %.0f W)", tb_gpu_nvml.limit_w,
             tb_gpu_nvml.enforced_w);
  else if (!isnan(tb_gpu_nvml.limit_w))
    snprintf(limit, sizeof limit, ", power limit %.0f W", tb_gpu_nvml.limit_w);
  snprintf(buf, len, "NVML total energy of the board of GPU %d (PCI %s, mJ)%s", c->device,
           c->dev.pci_bus, limit);
}
#else
void tb_nvml_close(void)
{
}

int tb_gpu_energy_read(void *cfg, tb_energy_reading_t *r)
{
  (void)cfg;
  (void)r;
  return tb_fail(TB_ENODEV, "this twinbench was built without NVML (configure found no nvml.h "
                            "and libnvidia-ml, or was given --without-nvml)");
}

void tb_gpu_energy_what(const void *cfg, char *buf, size_t len)
{
  (void)cfg;
  snprintf(buf, len, "no counter");
}
#endif

/* The configurations go, and NVML with them. */
void tb_gpu_configs_free(tb_configs_t *c)
{
  tb_nvml_close();
  tb_configs_free(c);
}

/* The info line of device 0's energy counter; NVML is shut down after. */
void tb_gpu_energy_info(FILE *f)
{
  tb_gpu_config_t c;
  memset(&c, 0, sizeof c);
  c.dev = tb_gpu_info;
  tb_energy_info(f, &tb_backend_gpu, &c);
  tb_nvml_close();
}

void tb_gpu_info_print(FILE *f)
{
  const tb_device_info_t *g = &tb_gpu_info;
  char b1[32], b2[32];
  if (tb_gpu_probe()) {
    fprintf(f, "GPU: none (%s)\n", tb_error_detail());
    return;
  }
  fprintf(f, "GPU 0: %s (PCI %s)\n", g->name, g->pci_bus);
  fprintf(f, "  compute capability %d.%d   SMs: %d   memory: %s   L2: %s\n", g->cc_major,
          g->cc_minor, g->sms, tb_format_bytes((double)g->global_mem, b1),
          tb_format_bytes((double)g->l2_bytes, b2));
  fprintf(f, "  SM clock %d MHz   memory clock %d MHz   bus %d bits   threads/block %d   "
             "threads/SM %d\n",
          g->clock_khz / 1000, g->mem_clock_khz / 1000, g->bus_width_bits,
          g->max_threads_per_block, g->max_threads_per_sm);
  fprintf(f, "  driver %d.%d   runtime %d.%d   device code: %s\n", g->driver_version / 1000,
          (g->driver_version % 1000) / 10, g->runtime_version / 1000,
          (g->runtime_version % 1000) / 10, g->compiler);
  tb_gpu_energy_info(f);
}

void tb_gpu_env_json(FILE *f)
{
  const tb_device_info_t *g = &tb_gpu_info;
  char buf[32];
  if (tb_gpu_probe()) {
    fprintf(f, "{\"absent\": ");
    tb_json_string(f, tb_error_detail());
    fputc('}', f);
    return;
  }
  fprintf(f, "{\"name\": ");
  tb_json_string(f, g->name);
  fprintf(f, ", \"pci_bus\": ");
  tb_json_string(f, g->pci_bus);
  fprintf(f, ", \"compute_capability\": \"%d.%d\", \"sms\": %d, \"memory\": ", g->cc_major,
          g->cc_minor, g->sms);
  tb_json_string(f, tb_format_bytes((double)g->global_mem, buf));
  fprintf(f, ", \"memory_bytes\": %lld, \"l2_bytes\": %lld, \"clock_mhz\": %d, "
             "\"memory_clock_mhz\": %d, \"bus_width_bits\": %d, \"driver_version\": \"%d.%d\", "
             "\"runtime_version\": \"%d.%d\", \"device_compiler\": ",
          (long long)g->global_mem, (long long)g->l2_bytes, g->clock_khz / 1000,
          g->mem_clock_khz / 1000, g->bus_width_bits, g->driver_version / 1000,
          (g->driver_version % 1000) / 10, g->runtime_version / 1000,
          (g->runtime_version % 1000) / 10);
  tb_json_string(f, g->compiler);
  fputc('}', f);
}

/* One configuration: the device the probe chose and described. */
int tb_gpu_configs(tb_topo *topo, const char *const *text, tb_configs_t *out)
{
  (void)topo;
  (void)text;
  memset(out, 0, sizeof *out);
  int rc = tb_gpu_probe();
  if (rc)
    return rc;
  tb_gpu_config_t *cfg = (tb_gpu_config_t *)calloc(1, sizeof *cfg);
  out->cfg = (void **)calloc(1, sizeof *out->cfg);
  if (!cfg || !out->cfg) {
    free(cfg);
    free(out->cfg);
    out->cfg = NULL;
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  cfg->device = tb_gpu_device;
  cfg->dev = tb_gpu_info;
  out->cfg[0] = cfg;
  out->n = 1;
  return TB_OK;
}

int tb_gpu_runs(const void *cfg, const tb_variant_t *v)
{
  (void)cfg;
  (void)v;
  return 1;
}

/* Host: the outputs' download buffers and the pinned staging buffer (the
 * largest array). Device: the arrays, a pristine copy of INOUT arrays, the
 * variants' scratch, and at least the memory ceilings' three buffers. */
void tb_gpu_needs(const void *cfg, const tb_problem_t *p, int64_t *host, int64_t *own)
{
  int64_t in = 0, out = 0, inout = 0, largest = 0;
  (void)cfg;
  for (int i = 0; i < p->narrays; i++) {
    int64_t b = tb_array_bytes(&p->array[i]);
    if (p->array[i].role == TB_IN)
      in = tb_count_add(NULL, in, b);
    else if (p->array[i].role == TB_OUT)
      out = tb_count_add(NULL, out, b);
    else
      inout = tb_count_add(NULL, inout, b);
    if (b > largest)
      largest = b;
  }
  *host = tb_count_add(NULL, tb_count_add(NULL, out, inout), largest);
  *own = tb_count_add(NULL, tb_count_add(NULL, in, out), tb_count_mul(NULL, 2, inout));
  *own = tb_count_add(NULL, *own, p->extra_device_bytes);
  if (*own < 3 * TB_GPU_CEILING_BYTES)
    *own = 3 * TB_GPU_CEILING_BYTES;
}

int tb_gpu_enter(void *cfg)
{
  TB_CUDA(cudaSetDevice(((tb_gpu_config_t *)cfg)->device));
  return TB_OK;
}

void tb_gpu_leave(void *cfg)
{
  (void)cfg;
}

int tb_gpu_record(void *cfg, const tb_ctx_t *ctx, tb_cell_t *cells)
{
  (void)cfg;
  (void)ctx;
  (void)cells;
  return TB_OK;
}

int tb_gpu_mem_available(int64_t *bytes)
{
  size_t free_b = 0, total = 0;
  TB_CUDA(cudaMemGetInfo(&free_b, &total));
  *bytes = (int64_t)free_b;
  return TB_OK;
}

/* Elapsed milliseconds of work enqueued between two events. */
int tb_gpu_elapsed(cudaEvent_t e0, cudaEvent_t e1, double *ms)
{
  float f = 0.0f;
  TB_CUDA(cudaEventSynchronize(e1));
  TB_CUDA(cudaEventElapsedTime(&f, e0, e1));
  *ms = f;
  return TB_OK;
}

/* A timed copy on stream s. */
int tb_gpu_timed_copy(void *dst, const void *src, int64_t bytes, cudaMemcpyKind kind,
                      cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1, double *ms)
{
  TB_CUDA(cudaEventRecord(e0, s));
  TB_CUDA(cudaMemcpyAsync(dst, src, (size_t)bytes, kind, s));
  TB_CUDA(cudaEventRecord(e1, s));
  return tb_gpu_elapsed(e0, e1, ms);
}

int tb_gpu_measure_ceiling(void *cfg, int kind, double *value)
{
  (void)cfg; /* entered: the current device */
  return tb_gpu_ceiling(kind, value, NULL);
}

/* Arrays that fit in L2 are measured from it. */
int64_t tb_gpu_cache_bytes(const void *cfg)
{
  return ((const tb_gpu_config_t *)cfg)->dev.l2_bytes;
}

void tb_gpu_detach(tb_ctx_t *ctx);

int tb_gpu_attach_impl(tb_ctx_t *ctx, tb_gpu_state *st, tb_xfer_t *xfer)
{
  const tb_problem_t *p = ctx->p;
  int64_t largest = 0;
  TB_CUDA(cudaStreamCreateWithFlags(&st->stream, cudaStreamNonBlocking));
  TB_CUDA(cudaEventCreate(&st->ev0));
  TB_CUDA(cudaEventCreate(&st->ev1));
  st->pub.stream = st->stream;
  for (int i = 0; i < p->narrays; i++) {
    const tb_array_t *a = &p->array[i];
    int64_t bytes = tb_array_bytes(a);
    if (bytes > largest)
      largest = bytes;
    TB_CUDA(cudaMalloc(&ctx->buf[i], (size_t)bytes));
    if (a->role != TB_IN) {
      st->host_out[i] = tb_alloc(bytes);
      if (!st->host_out[i])
        return tb_fail(TB_ENOMEM, "cannot allocate the host buffer for %s", a->name);
    }
    if (a->role == TB_INOUT)
      TB_CUDA(cudaMalloc(&st->pristine[i], (size_t)bytes));
  }
  TB_CUDA(cudaMallocHost(&st->pinned, (size_t)largest));
  st->pinned_bytes = largest;
  xfer->h2d_pageable_ms = xfer->h2d_pinned_ms = 0.0;
  for (int i = 0; i < p->narrays; i++) {
    const tb_array_t *a = &p->array[i];
    int64_t bytes = tb_array_bytes(a);
    double ms;
    int rc;
    if (a->role == TB_OUT)
      continue;
    rc = tb_gpu_timed_copy(ctx->buf[i], a->host, bytes, cudaMemcpyHostToDevice, st->stream,
                           st->ev0, st->ev1, &ms);
    if (rc)
      return rc;
    xfer->h2d_pageable_ms += ms;
    memcpy(st->pinned, a->host, (size_t)bytes);
    rc = tb_gpu_timed_copy(ctx->buf[i], st->pinned, bytes, cudaMemcpyHostToDevice, st->stream,
                           st->ev0, st->ev1, &ms);
    if (rc)
      return rc;
    xfer->h2d_pinned_ms += ms;
    if (a->role == TB_INOUT)
      TB_CUDA(cudaMemcpyAsync(st->pristine[i], ctx->buf[i], (size_t)bytes,
                              cudaMemcpyDeviceToDevice, st->stream));
  }
  TB_CUDA(cudaStreamSynchronize(st->stream));
  return TB_OK;
}

int tb_gpu_attach(tb_ctx_t *ctx, tb_xfer_t *xfer)
{
  tb_gpu_state *st = (tb_gpu_state *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->bstate = st;
  int rc = tb_gpu_attach_impl(ctx, st, xfer);
  if (rc) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", tb_error_detail());
    tb_gpu_detach(ctx);
    return tb_fail(rc, "%s", msg);
  }
  return TB_OK;
}

int tb_gpu_reset(tb_ctx_t *ctx, int poison)
{
  tb_gpu_state *st = (tb_gpu_state *)ctx->bstate;
  const tb_problem_t *p = ctx->p;
  for (int i = 0; i < p->narrays; i++) {
    const tb_array_t *a = &p->array[i];
    int64_t bytes = tb_array_bytes(a);
    if (a->role == TB_INOUT)
      TB_CUDA(cudaMemcpyAsync(ctx->buf[i], st->pristine[i], (size_t)bytes,
                              cudaMemcpyDeviceToDevice, st->stream));
    else if (a->role == TB_OUT && poison) {
      /* All-ones bytes are NaN in floating point; integers get 0xA5 bytes. */
      int byte = (a->kind == TB_KIND_F32 || a->kind == TB_KIND_F64) ? 0xFF : 0xA5;
      TB_CUDA(cudaMemsetAsync(ctx->buf[i], byte, (size_t)bytes, st->stream));
    }
  }
  TB_CUDA(cudaStreamSynchronize(st->stream));
  return TB_OK;
}

int tb_gpu_timer_start(tb_ctx_t *ctx)
{
  tb_gpu_state *st = (tb_gpu_state *)ctx->bstate;
  TB_CUDA(cudaEventRecord(st->ev0, st->stream));
  return TB_OK;
}

int tb_gpu_timer_stop(tb_ctx_t *ctx, double *ms)
{
  tb_gpu_state *st = (tb_gpu_state *)ctx->bstate;
  TB_CUDA(cudaEventRecord(st->ev1, st->stream));
  int rc = tb_gpu_elapsed(st->ev0, st->ev1, ms);
  if (rc)
    return rc;
  TB_CUDA(cudaGetLastError());
  return TB_OK;
}

int tb_gpu_download(tb_ctx_t *ctx, void **view, tb_xfer_t *xfer)
{
  tb_gpu_state *st = (tb_gpu_state *)ctx->bstate;
  const tb_problem_t *p = ctx->p;
  xfer->d2h_pageable_ms = xfer->d2h_pinned_ms = 0.0;
  for (int i = 0; i < p->narrays; i++) {
    const tb_array_t *a = &p->array[i];
    int64_t bytes = tb_array_bytes(a);
    double ms;
    int rc;
    if (a->role == TB_IN) {
      view[i] = a->host;
      continue;
    }
    rc = tb_gpu_timed_copy(st->pinned, ctx->buf[i], bytes, cudaMemcpyDeviceToHost, st->stream,
                           st->ev0, st->ev1, &ms);
    if (rc)
      return rc;
    xfer->d2h_pinned_ms += ms;
    rc = tb_gpu_timed_copy(st->host_out[i], ctx->buf[i], bytes, cudaMemcpyDeviceToHost,
                           st->stream, st->ev0, st->ev1, &ms);
    if (rc)
      return rc;
    xfer->d2h_pageable_ms += ms;
    view[i] = st->host_out[i];
  }
  return TB_OK;
}

void tb_gpu_detach(tb_ctx_t *ctx)
{
  tb_gpu_state *st = (tb_gpu_state *)ctx->bstate;
  if (!st)
    return;
  if (st->stream)
    cudaStreamSynchronize(st->stream);
  for (int i = 0; i < ctx->p->narrays; i++) {
    cudaFree(ctx->buf[i]);
    cudaFree(st->pristine[i]);
    tb_free(st->host_out[i]);
    ctx->buf[i] = NULL;
  }
  cudaFreeHost(st->pinned);
  if (st->ev0)
    cudaEventDestroy(st->ev0);
  if (st->ev1)
    cudaEventDestroy(st->ev1);
  if (st->stream)
    cudaStreamDestroy(st->stream);
  free(st);
  ctx->bstate = NULL;
}

} /* namespace */

extern "C" const tb_backend_t tb_backend_gpu = {
    "gpu",
    "CUDA twins on one device, timed with CUDA events",
    TB_BACKEND_OFFLOAD,
    {"read-only kernel, 16-byte loads, block sums",
     "device-to-device copy or a 16-byte copy kernel (the better)",
     "triad kernel a = b + q c, 16-byte accesses",
     "FP32 FMA chains (fmaf), every SM full",
     "FP64 FMA chains (fma), every SM full",
     "gather kernel out[i] = in[idx[i]], 4-byte elements at random indices over a table "
     "as large as the copy's buffers: 32 bytes (one sector) a read"},
    tb_gpu_variants,
    NULL,
    0,
    tb_gpu_tuning,
    TB_COUNT(tb_gpu_tuning),
    NULL,
    0,
    tb_gpu_probe,
    tb_gpu_info_print,
    tb_gpu_env_json,
    tb_gpu_mem_available,
    tb_gpu_configs,
    tb_gpu_configs_free,
    tb_gpu_runs,
    tb_gpu_needs,
    tb_gpu_enter,
    tb_gpu_leave,
    tb_gpu_measure_ceiling,
    tb_gpu_cache_bytes,
    tb_gpu_attach,
    tb_gpu_reset,
    tb_gpu_timer_start,
    tb_gpu_timer_stop,
    tb_gpu_download,
    tb_gpu_detach,
    tb_gpu_record,
    tb_gpu_energy_read,
    tb_gpu_energy_what,
};
