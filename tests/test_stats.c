/* Timing statistics: median of odd and even counts, extremes, mean, spread. */
#include <config.h>

#include <math.h>

#include "common/stats.h"
#include "common/status.h"
#include "testutil.h"

int main(void)
{
  tb_stats_t s;
  const double odd[] = {5, 1, 4, 2, 3};
  CHECK(tb_stats_compute(odd, 5, &s) == TB_OK, "odd");
  CHECK(s.median == 3 && s.min == 1 && s.max == 5 && s.mean == 3, "odd: %g %g %g %g", s.median,
        s.min, s.max, s.mean);
  CHECK(fabs(s.stddev - sqrt(2.5)) < 1e-15, "stddev %g", s.stddev);
  CHECK(odd[0] == 5 && odd[4] == 3, "input reordered");

  const double even[] = {10, 1, 7, 3};
  CHECK(tb_stats_compute(even, 4, &s) == TB_OK, "even");
  CHECK(s.median == 5 && s.min == 1 && s.max == 10 && s.mean == 5.25, "even: %g %g %g %g",
        s.median, s.min, s.max, s.mean);

  const double one[] = {2.5};
  CHECK(tb_stats_compute(one, 1, &s) == TB_OK && s.median == 2.5 && s.stddev == 0, "one");
  CHECK(tb_stats_compute(one, 0, &s) == TB_EINVAL, "no samples accepted");
  TEST_EXIT();
}
