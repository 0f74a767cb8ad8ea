/* twinbench: timing statistics. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "status.h"

static int tb_cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int tb_stats_compute(const double *x, int n, tb_stats_t *s)
{
  if (n < 1)
    return tb_fail(TB_EINVAL, "no samples");
  double *y = malloc((size_t)n * sizeof *y);
  if (!y)
    return tb_fail(TB_ENOMEM, "out of memory for %d samples", n);
  memcpy(y, x, (size_t)n * sizeof *y);
  qsort(y, (size_t)n, sizeof *y, tb_cmp_double);
  s->n = n;
  s->min = y[0];
  s->max = y[n - 1];
  s->median = (n % 2) ? y[n / 2] : 0.5 * (y[n / 2 - 1] + y[n / 2]);
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += y[i];
  s->mean = sum / n;
  double ss = 0.0;
  for (int i = 0; i < n; i++)
    ss += (y[i] - s->mean) * (y[i] - s->mean);
  s->stddev = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
  free(y);
  return TB_OK;
}
