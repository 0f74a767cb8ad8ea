/* twinbench: energy counters and the arithmetic on their readings.
 *
 * A backend that can tell how much energy its hardware used (the GPU board
 * through NVML, the CPU packages and their DRAM through Linux's powercap)
 * reads its counters into a tb_energy_reading_t; the runner reads them
 * around the timed repeats of a row and turns two readings into joules with
 * tb_energy_joules. Counters are cumulative and some wrap: a powercap
 * counter returns to 0 after max_energy_range_uj, NVML's 64-bit millijoule
 * counter does not wrap in practice. doc/energy.md has the derivations. */
#ifndef TB_ENERGY_H
#define TB_ENERGY_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TB_ENERGY_MAX_DOMAINS 8

/* A counter advances in steps, NVML's every 20 to 100 ms depending on the
 * GPU, RAPL's about every millisecond, so a difference over a window of w
 * seconds may be off by one step at each end: at worst 2 x 100 ms / w of
 * the energy. A row's window is stretched with
 * more timed runs to at least TB_ENERGY_MIN_WINDOW seconds, and until its
 * counters moved, but not beyond TB_ENERGY_MAX_WINDOW seconds; a window
 * still too short then leaves the row without energy (flag energy-short). */
#define TB_ENERGY_MIN_WINDOW 0.5
#define TB_ENERGY_MAX_WINDOW 2.0

/* The most timed runs a window may take. The adaptive repeats stop at
 * TB_MAX_REPEATS (100000), which a run of a few microseconds (Black-Scholes
 * on 4096 options: 4 us) reaches in 0.4 s, short of the window; a run with
 * its timer calls takes at least some 100 ns, so 0.5 s is within 5 million,
 * 40 MB of times. */
#define TB_ENERGY_MAX_RUNS 5000000

/* One counter's reading: value in units of unit_j joules; range is where it
 * wraps (the counter runs over [0, range]), 0 when it does not. */
typedef struct tb_energy_counter {
  uint64_t value;
  uint64_t range;
  double unit_j;
} tb_energy_counter_t;

/* One reading of a backend's counters (n of them, in the same order on
 * every reading), taken at host time t (tb_wtime, seconds). */
typedef struct tb_energy_reading {
  int n;
  tb_energy_counter_t c[TB_ENERGY_MAX_DOMAINS];
  double t;
} tb_energy_reading_t;

/* The joules between two readings of the same counters, each counter
 * unwrapped once; NaN when they are not comparable (no counters, different
 * counts, units or ranges) or a counter that does not wrap went backwards, or one
 * that wraps reads beyond its range. A counter may wrap at most once per
 * window: RAPL's ranges are about 65,700 J or 262,000 J, over a minute at
 * 1 kW, and a row's window is at most TB_ENERGY_MAX_WINDOW. */
double tb_energy_joules(const tb_energy_reading_t *before, const tb_energy_reading_t *after);

/* Whether a window of the given seconds whose counters moved by the given
 * joules is long enough to report: at least TB_ENERGY_MIN_WINDOW and more
 * than 0 J. */
int tb_energy_enough(double seconds, double joules);

struct tb_backend;

/* A line for `twinbench info`: what backend be's energy counters count in
 * configuration cfg, or why they cannot be read. */
void tb_energy_info(FILE *f, const struct tb_backend *be, void *cfg);

/* Whether the runner should time more runs to lengthen a window of the
 * given seconds and joules after runs runs (at most max_runs). */
int tb_energy_more(double seconds, double joules, int runs, int max_runs);

#ifdef __cplusplus
}
#endif
#endif
