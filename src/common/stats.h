/* twinbench: timing statistics. */
#ifndef TB_STATS_H
#define TB_STATS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tb_stats {
  double median, min, max, mean, stddev;
  int n;
} tb_stats_t;

/* Statistics of x[0..n); n >= 1. The median of an even count is the mean of
 * the two middle values. x is not modified. Returns TB_EINVAL for n < 1. */
int tb_stats_compute(const double *x, int n, tb_stats_t *s);

#ifdef __cplusplus
}
#endif
#endif
