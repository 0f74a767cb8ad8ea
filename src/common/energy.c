/* twinbench: the arithmetic on energy counter readings. */
#include <config.h>

#include <math.h>

#include "algo.h"
#include "energy.h"

/* One counter's advance from a to b, in its units, or -1 when it cannot be
 * told: a wrapping counter runs over [0, range], so after a wrap it advanced
 * by range - a up to the wrap, 1 count onto 0, and b beyond. */
static double tb_counter_delta(const tb_energy_counter_t *a, const tb_energy_counter_t *b)
{
  if (a->range && (a->value > a->range || b->value > a->range))
    return -1.0;
  if (b->value >= a->value)
    return (double)(b->value - a->value);
  if (!a->range)
    return -1.0;
  return (double)(a->range - a->value) + 1.0 + (double)b->value;
}

double tb_energy_joules(const tb_energy_reading_t *before, const tb_energy_reading_t *after)
{
  double joules = 0.0;
  if (before->n <= 0 || before->n != after->n || before->n > TB_ENERGY_MAX_DOMAINS)
    return NAN;
  for (int i = 0; i < before->n; i++) {
    const tb_energy_counter_t *a = &before->c[i], *b = &after->c[i];
    double d;
    if (a->unit_j != b->unit_j || a->range != b->range || !(a->unit_j > 0) ||
        (d = tb_counter_delta(a, b)) < 0)
      return NAN;
    joules += d * a->unit_j;
  }
  return joules;
}

int tb_energy_enough(double seconds, double joules)
{
  return seconds >= TB_ENERGY_MIN_WINDOW && joules > 0;
}

int tb_energy_more(double seconds, double joules, int runs, int max_runs)
{
  /* A reading that cannot be told (NaN) does not get better with time. */
  if (isnan(joules) && seconds >= TB_ENERGY_MIN_WINDOW)
    return 0;
  return !tb_energy_enough(seconds, joules) && seconds < TB_ENERGY_MAX_WINDOW && runs < max_runs;
}

void tb_energy_info(FILE *f, const tb_backend_t *be, void *cfg)
{
  tb_energy_reading_t r;
  char what[400];
  if (be->energy_read && be->energy_read(cfg, &r) == TB_OK) {
    be->energy_what(cfg, what, sizeof what);
    fprintf(f, "  energy: %s\n", what);
  } else
    fprintf(f, "  energy: not measured: %s\n",
            be->energy_read ? tb_error_detail() : "the backend has no energy counter");
  tb_error_clear();
}
