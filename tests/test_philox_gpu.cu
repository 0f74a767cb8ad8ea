/* Philox4x32-10 on the device gives the host's words and uniforms bit for bit,
 * and Box-Muller normals that agree to rounding. Skips (77) without a GPU. */
#include <config.h>

#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/philox.h"

struct tb_out {
  uint32_t w[4];
  float f[4];
  double d[2];
  float zf[2];
  double zd[2];
};

__global__ void tb_k_philox(tb_out *out, uint64_t seed, uint32_t stream, uint64_t first, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tb_philox4_t r = tb_philox_block(seed, stream, first + (uint64_t)i * 7919u);
  tb_out o;
  for (int j = 0; j < 4; j++) {
    o.w[j] = r.v[j];
    o.f[j] = tb_u01_f32(r.v[j]);
  }
  o.d[0] = tb_u01_f64(r.v[0], r.v[1]);
  o.d[1] = tb_u01_f64(r.v[2], r.v[3]);
  tb_box_muller_f32(o.f[0], o.f[1], &o.zf[0], &o.zf[1]);
  tb_box_muller_f64(o.d[0], o.d[1], &o.zd[0], &o.zd[1]);
  out[i] = o;
}

static int tb_skip_or_fail(cudaError_t e, const char *what)
{
  fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) ? 77 : 99;
}

int main(void)
{
  const int n = 1 << 20;
  const uint64_t seed = 0x0123456789abcdefull, first = 0xfffffffffff00000ull;
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess)
    return tb_skip_or_fail(e, "cudaGetDeviceCount");
  if (count == 0)
    return 77;
  tb_out *d = NULL, *h = (tb_out *)malloc(n * sizeof *h);
  if (!h)
    return 99;
  if ((e = cudaMalloc(&d, n * sizeof *d)) != cudaSuccess)
    return tb_skip_or_fail(e, "cudaMalloc");
  tb_k_philox<<<(n + 255) / 256, 256>>>(d, seed, 77, first, n);
  if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaDeviceSynchronize()) != cudaSuccess)
    return tb_skip_or_fail(e, "kernel");
  if ((e = cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost)) != cudaSuccess)
    return tb_skip_or_fail(e, "cudaMemcpy");
  long bad_words = 0, bad_uniforms = 0, bad_normals = 0;
  double worst_f = 0, worst_d = 0;
  for (int i = 0; i < n; i++) {
    tb_philox4_t r = tb_philox_block(seed, 77, first + (uint64_t)i * 7919u);
    for (int j = 0; j < 4; j++) {
      bad_words += h[i].w[j] != r.v[j];
      bad_uniforms += h[i].f[j] != tb_u01_f32(r.v[j]);
    }
    double u0 = tb_u01_f64(r.v[0], r.v[1]), u1 = tb_u01_f64(r.v[2], r.v[3]);
    bad_uniforms += (h[i].d[0] != u0) + (h[i].d[1] != u1);
    float zf[2];
    double zd[2];
    tb_box_muller_f32(tb_u01_f32(r.v[0]), tb_u01_f32(r.v[1]), &zf[0], &zf[1]);
    tb_box_muller_f64(u0, u1, &zd[0], &zd[1]);
    for (int j = 0; j < 2; j++) {
      /* Rounding of log, sqrt and sin/cos: a few ulp of the radius (<= ~5.8). */
      double ef = fabs((double)h[i].zf[j] - zf[j]), ed = fabs(h[i].zd[j] - zd[j]);
      worst_f = ef > worst_f ? ef : worst_f;
      worst_d = ed > worst_d ? ed : worst_d;
      bad_normals += ef > 8 * 6.0 * ldexp(1.0, -24) || ed > 8 * 6.0 * ldexp(1.0, -53);
    }
  }
  printf("words differing: %ld, uniforms differing: %ld, normals beyond rounding: %ld "
         "(largest differences %.3g float, %.3g double)\n",
         bad_words, bad_uniforms, bad_normals, worst_f, worst_d);
  cudaFree(d);
  free(h);
  return bad_words || bad_uniforms || bad_normals ? 1 : 0;
}
