/* Energy counters: the arithmetic on recorded readings (energy.h). The
 * readings are what the backends return: powercap microjoule counters that
 * wrap at max_energy_range_uj, NVML's millijoule counter that does not. */
#include <config.h>

#include <math.h>

#include "common/energy.h"
#include "testutil.h"

/* A reading of one counter. */
static tb_energy_reading_t one(uint64_t value, uint64_t range, double unit_j, double t)
{
  tb_energy_reading_t r = {1, {{value, range, unit_j}}, t};
  return r;
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
  TEST_EXIT();
}
