/* twinbench: what the Poisson family's cuFFT callbacks (poisson_cb.cu) read
 * through their caller_info pointer: the shape of the half spectrum and the
 * solve's constants. */
#ifndef TB_POISSON_CB_H
#define TB_POISSON_CB_H

typedef struct tb_poisson_cb_info {
  long long n;    /* N, points a side */
  long long half; /* N / 2 + 1, the complex values of a row */
  int dim;        /* 2 or 3 */
  int small;      /* the half spectrum has fewer than 2^32 values: 32-bit index math */
  double k0;      /* 2 pi / L */
  double scale;   /* 1 / N^dim */
} tb_poisson_cb_info;

#endif
