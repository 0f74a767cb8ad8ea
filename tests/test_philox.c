/* Philox4x32-10 against Random123's published known answers, the exact
 * uniform conversions, and the parallel fills' independence of thread count. */
#include <config.h>

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "common/philox.h"
#include "common/rng.h"
#include "testutil.h"

/* Random123 kat_vectors, "philox4x32 10": counter, key, expected output. */
static const uint32_t kat[3][10] = {
    {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x6627e8d5,
     0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
    {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d,
     0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
    {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09,
     0x94fdcceb, 0x5001e420, 0x24126ea1},
};

int main(void)
{
  for (int t = 0; t < 3; t++) {
    tb_philox4_t c = {{kat[t][0], kat[t][1], kat[t][2], kat[t][3]}};
    tb_philox_key_t k = {{kat[t][4], kat[t][5]}};
    tb_philox4_t r = tb_philox4x32_10(c, k);
    for (int j = 0; j < 4; j++)
      CHECK(r.v[j] == kat[t][6 + j], "vector %d word %d: %08x, expected %08x", t, j, r.v[j],
            kat[t][6 + j]);
  }

  /* The convention: key = seed, counter = {block lo, block hi, stream, 0}. */
  {
    uint64_t seed = 0x299f31d0a4093822ull, block = 0x85a308d3243f6a88ull;
    tb_philox4_t r = tb_philox_block(seed, 0x13198a2e, block);
    CHECK(r.v[0] != 0 || r.v[1] != 0, "block helper produced zeros");
    tb_philox4_t c = {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0}};
    tb_philox_key_t k = {{0xa4093822, 0x299f31d0}};
    tb_philox4_t d = tb_philox4x32_10(c, k);
    CHECK(!memcmp(&r, &d, sizeof r), "tb_philox_block does not follow the documented layout");
  }

  /* Uniform conversions: exact, strictly inside (0, 1), symmetric ends. */
  CHECK(tb_u01_f32(0) == ldexpf(1.0f, -24), "f32 of 0 is %a", tb_u01_f32(0));
  CHECK(tb_u01_f32(0xffffffffu) == 1.0f - ldexpf(1.0f, -24), "f32 of max is %a",
        tb_u01_f32(0xffffffffu));
  CHECK(tb_u01_f64(0, 0) == ldexp(1.0, -53), "f64 of 0 is %a", tb_u01_f64(0, 0));
  CHECK(tb_u01_f64(0xffffffffu, 0xffffffffu) == 1.0 - ldexp(1.0, -53), "f64 of max is %a",
        tb_u01_f64(0xffffffffu, 0xffffffffu));
  for (uint32_t x = 0; x < 1u << 20; x++) {
    uint32_t w = x * 4099u + 7u;
    float f = tb_u01_f32(w);
    double g = tb_u01_f64(w, ~w);
    if (!(f > 0.0f && f < 1.0f) || !(g > 0.0 && g < 1.0)) {
      CHECK(0, "uniform of %08x outside (0,1): %a %a", w, f, g);
      break;
    }
  }

  /* Fills: element i depends only on (seed, stream, i), whatever the team. */
  const int64_t n = 1000003;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  float *fa = malloc(n * sizeof *fa), *fb = malloc(n * sizeof *fb);
  int32_t *ia = malloc(n * sizeof *ia), *ib = malloc(n * sizeof *ib);
  if (!a || !b || !fa || !fb || !ia || !ib)
    return 99;
  omp_set_num_threads(1);
  tb_rng_uniform_f64(a, n, 42, 3, -1.0, 1.0);
  tb_rng_uniform_f32(fa, n, 42, 3, -1.0f, 1.0f);
  tb_rng_int32(ia, n, 42, 3, -1000, 1000);
  omp_set_num_threads(3);
  tb_rng_uniform_f64(b, n, 42, 3, -1.0, 1.0);
  tb_rng_uniform_f32(fb, n, 42, 3, -1.0f, 1.0f);
  tb_rng_int32(ib, n, 42, 3, -1000, 1000);
  CHECK(!memcmp(a, b, n * sizeof *a), "double fill depends on the thread count");
  CHECK(!memcmp(fa, fb, n * sizeof *fa), "float fill depends on the thread count");
  CHECK(!memcmp(ia, ib, n * sizeof *ia), "int fill depends on the thread count");
  {
    tb_philox4_t r = tb_philox_block(42, 3, 12345);
    CHECK(fa[4 * 12345 + 2] == -1.0f + 2.0f * tb_u01_f32(r.v[2]), "float element layout");
    CHECK(a[2 * 12345 + 1] == -1.0 + 2.0 * tb_u01_f64(r.v[2], r.v[3]), "double element layout");
  }

  /* Moments within 5 standard errors: uniforms on [-1,1) and Box-Muller normals. */
  double s1 = 0, s2 = 0, z1 = 0, z2 = 0, imin = 1e9, imax = -1e9;
  for (int64_t i = 0; i < n; i++) {
    s1 += a[i];
    s2 += a[i] * a[i];
    imin = ia[i] < imin ? ia[i] : imin;
    imax = ia[i] > imax ? ia[i] : imax;
  }
  for (int64_t i = 0; i + 1 < n; i += 2) {
    double x, y;
    tb_box_muller_f64(0.5 * (a[i] + 1.0), 0.5 * (a[i + 1] + 1.0), &x, &y);
    z1 += x + y;
    z2 += x * x + y * y;
  }
  double m = (double)(n - n % 2);
  CHECK(fabs(s1 / n) < 5.0 * sqrt(1.0 / 3.0 / n), "uniform mean %g", s1 / n);
  CHECK(fabs(s2 / n - 1.0 / 3.0) < 5.0 * sqrt(4.0 / 45.0 / n), "uniform second moment %g", s2 / n);
  CHECK(fabs(z1 / m) < 5.0 / sqrt(m), "normal mean %g", z1 / m);
  CHECK(fabs(z2 / m - 1.0) < 5.0 * sqrt(2.0 / m), "normal variance %g", z2 / m);
  CHECK(imin == -1000 && imax == 1000, "integer range [%g, %g]", imin, imax);
  free(a);
  free(b);
  free(fa);
  free(fb);
  free(ia);
  free(ib);
  TEST_EXIT();
}
