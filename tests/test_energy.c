/* Energy counters: the arithmetic on recorded readings (energy.h). The
 * readings are what the backends return: powercap microjoule counters that
 * wrap at max_energy_range_uj, NVML's millijoule counter that does not.
 * Then the speedup summary's energy ratio, on rows made by hand. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/columns.h"
#include "common/energy.h"
#include "common/registry.h"
#include "common/report.h"
#include "testutil.h"

/* A reading of one counter. */
static tb_energy_reading_t one(uint64_t value, uint64_t range, double unit_j, double t)
{
  tb_energy_reading_t r = {1, {{value, range, unit_j}}, t};
  return r;
}

/* A row of STREAM at size n on backend b, with a time and an energy. */
static tb_result_t row(int b, int64_t n, double ms, double joules)
{
  tb_result_t r;
  memset(&r, 0, sizeof r);
  r.algo = tb_algo_find("stream");
  r.variant = tb_variant_find(r.algo, 0, "omp");
  r.backend = tb_backend_at(b);
  r.bi = b;
  r.prec = TB_DOUBLE;
  r.n = n;
  for (int k = 0; k < TB_MAX_PARAMS; k++)
    r.param[k].s = "copy";
  for (int k = 0; k < TB_MAX_CONFIG_COLUMNS; k++)
    r.config[k].num = NAN;
  for (int k = 0; k < TB_MAX_TUNING; k++)
    r.tune[k].num = NAN;
  r.repeats = 1;
  r.median_ms = ms;
  r.check.verdict = TB_PASS;
  r.cost.read = r.cost.written = 8.0 * (double)n;
  r.ceiling_gbs = r.ceiling_gflops = NAN;
  r.xfer.h2d_pinned_ms = r.xfer.d2h_pinned_ms = NAN;
  r.xfer.h2d_pageable_ms = r.xfer.d2h_pageable_ms = NAN;
  r.energy_j = joules;
  r.avg_w = joules / (ms * 1e-3);
  return r;
}

/* The speedup summary: the energy ratio of the best rows where both have
 * energy, none where one has not; the text view shows the figure only
 * where some problem has it. */
static void test_speedup_energy(void)
{
  tb_results_t res = {NULL, 0, 0};
  tb__speedup_t *sp = NULL;
  char text[8192];
  /* Problem 1000: the GPU's faster row (not its most frugal) is its best. */
  tb_result_t rows[] = {row(0, 1000, 4.0, 2.0), row(1, 1000, 1.0, 0.5), row(1, 1000, 2.0, 0.1),
                        row(0, 2000, 8.0, 4.0), row(1, 2000, 2.0, NAN)};
  for (int i = 0; i < TB_COUNT(rows); i++)
    CHECK(tb_results_push(&res, &rows[i]) == TB_OK, "push");
  int ns = tb__speedups(&res, &sp);
  CHECK(ns == 2, "%d speedups", ns);
  if (ns == 2) {
    CHECK(sp[0].kernel == 4.0 && sp[0].energy == 4.0, "n=1000: kernel %g energy %g",
          sp[0].kernel, sp[0].energy);
    CHECK(sp[1].kernel == 4.0 && isnan(sp[1].energy), "n=2000: energy %g without a GPU figure",
          sp[1].energy);
  }
  free(sp);
  FILE *f = tmpfile();
  size_t len = 0;
  if (f) {
    tb_report_speedups(f, &res, 0);
    rewind(f);
    len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
  }
  text[len] = '\0';
  /* kernel, hardware (none: no ceilings), energy */
  CHECK(strstr(text, "  hardware  energy  ") && strstr(text, "4.00x         -   4.00x"),
        "the summary lacks the energy ratio:\n%s", text);
  /* Without energy on any row, no energy figure. */
  for (int i = 0; i < res.n; i++)
    res.r[i].energy_j = NAN;
  if ((f = tmpfile())) {
    tb_report_speedups(f, &res, 0);
    rewind(f);
    len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    CHECK(len > 0 && !strstr(text, "energy"), "an energy figure without energy:\n%s", text);
  }
  tb_results_free(&res);
}

int main(void)
{
  /* A package counter's range on a Skylake server (uJ). */
  const uint64_t range = 262143328850u;
  tb_energy_reading_t a, b;

  /* No wrap: the plain difference, in joules. */
  a = one(1000000, range, 1e-6, 0.0);
  b = one(3500000, range, 1e-6, 1.0);
  CHECK(tb_energy_joules(&a, &b) == 2.5, "plain: %g", tb_energy_joules(&a, &b));

  /* A wrap: from 100 uJ below the top of [0, range] through 0 to 400:
   * 100 to the top, 1 onto 0, 400 beyond. */
  a = one(range - 100, range, 1e-6, 0.0);
  b = one(400, range, 1e-6, 0.5);
  CHECK(fabs(tb_energy_joules(&a, &b) - 501e-6) < 1e-18, "wrap: %.17g",
        tb_energy_joules(&a, &b));
  /* A wrap right onto 0, and from the top itself. */
  a = one(range, range, 1e-6, 0.0);
  b = one(0, range, 1e-6, 1.0);
  CHECK(tb_energy_joules(&a, &b) == 1e-6, "top onto 0: %g", tb_energy_joules(&a, &b));

  /* A reading beyond the counter's range is no reading of it. */
  a = one(range + 1, range, 1e-6, 0.0);
  b = one(5, range, 1e-6, 1.0);
  CHECK(isnan(tb_energy_joules(&a, &b)), "beyond range accepted");

  /* NVML: millijoules, no range; going backwards cannot be a wrap. */
  a = one(384600000ull + 10, 0, 1e-3, 0.0);
  b = one(384600000ull + 10 + 384600, 0, 1e-3, 1.012);
  CHECK(fabs(tb_energy_joules(&a, &b) - 384.6) < 1e-9, "nvml: %.17g", tb_energy_joules(&a, &b));
  CHECK(isnan(tb_energy_joules(&b, &a)), "a counter without a range went backwards");

  /* A package and its DRAM, the DRAM counter wrapping: the sum. */
  a.n = b.n = 2;
  a.c[0] = (tb_energy_counter_t){5000000, range, 1e-6};
  b.c[0] = (tb_energy_counter_t){9000000, range, 1e-6};
  a.c[1] = (tb_energy_counter_t){65712999000u, 65712999613u, 1e-6};
  b.c[1] = (tb_energy_counter_t){386, 65712999613u, 1e-6};
  CHECK(fabs(tb_energy_joules(&a, &b) - (4.0 + 1000e-6)) < 1e-12, "two zones: %.17g",
        tb_energy_joules(&a, &b));

  /* Missing or mismatched readings give no number. */
  a = one(1, range, 1e-6, 0.0);
  b = one(2, range, 1e-6, 1.0);
  b.n = 0;
  CHECK(isnan(tb_energy_joules(&a, &b)), "a reading without counters");
  a.n = 0;
  CHECK(isnan(tb_energy_joules(&a, &b)), "two readings without counters");
  a = one(1, range, 1e-6, 0.0);
  b = one(2, range, 1e-3, 1.0);
  CHECK(isnan(tb_energy_joules(&a, &b)), "different units");
  b = one(2, 0, 1e-6, 1.0);
  CHECK(isnan(tb_energy_joules(&a, &b)), "different ranges");
  b = one(2, range, 0.0, 1.0);
  a.c[0].unit_j = 0.0;
  CHECK(isnan(tb_energy_joules(&a, &b)), "no unit");
  a.n = b.n = TB_ENERGY_MAX_DOMAINS + 1;
  CHECK(isnan(tb_energy_joules(&a, &b)), "too many counters");

  /* The window: long enough and moved, or not. */
  CHECK(tb_energy_enough(TB_ENERGY_MIN_WINDOW, 1.0), "a window of the least length");
  CHECK(!tb_energy_enough(0.9 * TB_ENERGY_MIN_WINDOW, 1.0), "a short window");
  CHECK(!tb_energy_enough(1.5, 0.0), "a counter that did not move (its update interval)");
  CHECK(!tb_energy_enough(1.5, NAN), "a window without a difference");

  /* More runs: while too short and not at either cap. */
  CHECK(tb_energy_more(0.01, NAN, 10, 1000), "a short window before its reading");
  CHECK(tb_energy_more(1.0, 0.0, 10, 1000), "a counter that has not moved yet");
  CHECK(!tb_energy_more(1.0, 0.5, 10, 1000), "enough");
  CHECK(!tb_energy_more(TB_ENERGY_MAX_WINDOW, 0.0, 10, 1000), "the longest window");
  CHECK(!tb_energy_more(0.01, NAN, 1000, 1000), "the most runs");
  CHECK(!tb_energy_more(1.0, NAN, 10, 1000), "an unreadable difference does not improve");

  test_speedup_energy();
  TEST_EXIT();
}
