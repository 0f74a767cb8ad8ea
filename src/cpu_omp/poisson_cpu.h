/* twinbench: what the spectral Poisson family's FFTW twins (poisson.c,
 * poisson_mpi.c) share: the solve of one panel of spectrum lines. */
#ifndef TB_POISSON_CPU_H
#define TB_POISSON_CPU_H

#include <stdint.h>

/* n rows (the first axis, whose k^2 is k2[i]) of b complex values `stride`
 * values apart, the columns' own k^2 in kc: each value times -scale /
 * (k2[i] + kc[c]). The zero mode (divided by zero here) is the caller's to
 * set. One function per element type (float, double). */
void tb_poisson_panel_solve_f32(void *w, int64_t n, int64_t stride, int64_t b, const double *k2,
                                const double *kc, double scale);
void tb_poisson_panel_solve_f64(void *w, int64_t n, int64_t stride, int64_t b, const double *k2,
                                const double *kc, double scale);

#endif
