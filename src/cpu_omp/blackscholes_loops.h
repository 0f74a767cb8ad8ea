/* twinbench: the Black-Scholes OpenMP twin's generic simd loops (kernel=
 * generic), included by blackscholes.c and by blackscholes_w256.c, which
 * compile them at the two vector widths of the `width` tuning parameter:
 * each includes options_cpu.h first (it sets the width for the formulas
 * inlined into the loops, TB_OPTIONS_CPU_W256 choosing 256 bits), then this
 * header, with TB_BS_LOOPS_TAB(SFX) naming the table of a precision's loops
 * and TB_BS_LOOPS_LINK its linkage. The loops' source is one, so the two
 * widths run the same operations on each option. */
#ifndef TB_BS_LOOPS_H
#define TB_BS_LOOPS_H

#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "cpu.h"
#include "ntstore.h"

#include "../families/options.h"

/* One generic loop: (b, buf, n, threads, span). */
typedef void tb_bs_loop_fn(const tb_bs_t *, void *const *, int64_t, int, int);

/* The 256-bit loops exist where GCC builds AVX-512 (elsewhere the build's
 * own width is the only one, and the parameter offers 512 alone). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)
#define TB_BS_HAVE_W256 1
extern tb_bs_loop_fn *const tb_bs_omp_w256_f32[3][3][8];
extern tb_bs_loop_fn *const tb_bs_omp_w256_f64[3][3][8];
#else
#define TB_BS_HAVE_W256 0
#endif

/* dst[0..m) = src[0..m) for the precision SFX: the outputs are written
 * once and read by no one until the verifier, so the whole vectors go to
 * memory with non-temporal stores (no read of the line first, which plain
 * stores cost: a third more traffic), the ends plainly. */
#if TB_HAVE_NT
#define TB_BS_OUT(SFX, dst, src, m) tb_nt_span_##SFX(TB_STREAM_COPY, dst, src, NULL, 0, 0, m)
#define TB_BS_FENCE() tb_nt_fence()
#else
#define TB_BS_OUT(SFX, dst, src, m) memcpy(dst, src, (size_t)(m) * sizeof *(dst))
#define TB_BS_FENCE() ((void)0)
#endif

/* Options per block at most (the `span` tuning parameter chooses up to
 * this): the block's d1, d2 and K stay in L1 between the stages (3 x 2 KiB
 * in double at the default 256). At 1024 (3 x 8 KiB, the value before the
 * parameter) they and the input and output lines of the block outgrew a
 * 32 KiB L1 in double; on the Zen 4 build machine, one thread, 2^24
 * options, 256 took double 50 ms against 58 to 62 ms, float 15.5 against
 * 17 to 18 (doc/options.md); 64 to 512 were within noise of each other. A
 * core's two hyperthreads share its L1, so the sweep decides on each host. */
#define TB_BS_SPAN_MAX 4096

/* One pass over the options; VARY: per-option r and v, EXACT: the erfc CDF,
 * FAST: math=fast, STAGES: the tuning parameter stages, 0 split, 1 fused,
 * 2 halves (constants, so each of the 24 loops is specialised). Each thread
 * takes its static share (tb_cpu_share, the split the backend
 * first-touched) in blocks and prices a block either in three simd loops
 * (split): d1, d2 and K; N of the 2 x block d's; the call and the put (as
 * tb_bs_price ends), or in one (fused: tb_bs_price whole), or in two
 * (halves): d1, d2, K and N(d1); N(d2), the call and the put. The prices
 * leave through non-temporal stores.
 * Each split stage's dependency chain per vector is a fraction of
 * tb_bs_price's (some 150 cycles), so more vectors overlap; but the first
 * stage holds every division and square root of a price (three or four a
 * vector), so where the divider is slow (Intel's 512-bit one: a division
 * every 10 cycles in float, 16 in double) it waits on the divider while
 * the FMA ports idle, and the fused loop lets the divisions overlap the
 * CDFs' arithmetic. Measured here (Zen, fast dividers), split gained little
 * (float, one thread: 21 against 22 ms for 2^24 options), the stores from
 * L1 more; the `stages` sweep decides on each machine. halves is between
 * the two: its first loop holds the divider's work of a price (float
 * cdf=div: 4 divisions and a square root, about 50 cycles a vector on
 * Intel's 512-bit divider) beside some 72 vector instructions (36 cycles of
 * issue), where split's first stage has 43 (21.5) for 32 divider cycles,
 * and each loop's chain is about half of the fused one's. */
#define TB_BS_FN(T, SFX, M, STAGES, VARY, EXACT, FAST)                                            \
  static void tb_bs_omp_##M##SFX##_##STAGES##VARY##EXACT##FAST(const tb_bs_t *b, void *const *buf, \
                                                               int64_t n, int threads, int span)  \
  {                                                                                               \
    const T *restrict s = buf[b->in.s], *restrict x = buf[b->in.x], *restrict t = buf[b->in.t];   \
    const T *restrict r = VARY ? buf[b->in.r] : NULL, *restrict v = VARY ? buf[b->in.v] : NULL;   \
    T *restrict call = buf[b->call], *restrict put = buf[b->put];                                 \
    const T r0 = (T)b->in.r0, v0 = (T)b->in.v0;                                                   \
    _Pragma("omp parallel num_threads(threads)")                                                  \
    {                                                                                             \
      T d[2 * TB_BS_SPAN_MAX], k[TB_BS_SPAN_MAX];                                                 \
      int64_t lo, hi;                                                                             \
      tb_cpu_share(n, omp_get_num_threads(), omp_get_thread_num(), &lo, &hi);                     \
      for (int64_t i0 = lo; i0 < hi; i0 += span) {                                                \
        const int m = (int)(hi - i0 < span ? hi - i0 : span);                                     \
        const T *restrict sb = s + i0, *restrict xb = x + i0, *restrict tb = t + i0;              \
        const T *restrict rb = VARY ? r + i0 : NULL, *restrict vb = VARY ? v + i0 : NULL;         \
        T *restrict cb = call + i0, *restrict pb = put + i0;                                      \
        if (STAGES == 1) {                                                                        \
          _Pragma("omp simd")                                                                     \
          for (int j = 0; j < m; j++)                                                             \
            tb_bs_price_##M##cpu_##SFX(sb[j], xb[j], tb[j], VARY ? rb[j] : r0,                    \
                                       VARY ? vb[j] : v0, EXACT, FAST, &d[j], &d[m + j]);         \
        } else if (STAGES == 2) {                                                                 \
          _Pragma("omp simd")                                                                     \
          for (int j = 0; j < m; j++) {                                                           \
            T d1, d2;                                                                             \
            tb_bs_d_##M##cpu_##SFX(sb[j], xb[j], tb[j], VARY ? rb[j] : r0, VARY ? vb[j] : v0,     \
                                   FAST, &d1, &d2, &k[j]);                                        \
            d[j] = tb_cnd_##M##cpu_##SFX(d1, EXACT, FAST);                                        \
            d[m + j] = d2;                                                                        \
          }                                                                                       \
          _Pragma("omp simd")                                                                     \
          for (int j = 0; j < m; j++) {                                                           \
            const T n1 = d[j], n2 = tb_cnd_##M##cpu_##SFX(d[m + j], EXACT, FAST);                 \
            tb_bs_combine_##M##cpu_##SFX(sb[j], k[j], n1, n2, &d[j], &d[m + j]);                  \
          }                                                                                       \
        } else {                                                                                  \
          _Pragma("omp simd")                                                                     \
          for (int j = 0; j < m; j++)                                                             \
            tb_bs_d_##M##cpu_##SFX(sb[j], xb[j], tb[j], VARY ? rb[j] : r0, VARY ? vb[j] : v0,     \
                                   FAST, &d[j], &d[m + j], &k[j]);                                \
          _Pragma("omp simd")                                                                     \
          for (int j = 0; j < 2 * m; j++)                                                         \
            d[j] = tb_cnd_##M##cpu_##SFX(d[j], EXACT, FAST);                                      \
          _Pragma("omp simd")                                                                     \
          for (int j = 0; j < m; j++) {                                                           \
            const T n1 = d[j], n2 = d[m + j];                                                     \
            tb_bs_combine_##M##cpu_##SFX(sb[j], k[j], n1, n2, &d[j], &d[m + j]);                  \
          }                                                                                       \
        }                                                                                         \
        TB_BS_OUT(SFX, cb, d, m);                                                                 \
        TB_BS_OUT(SFX, pb, d + m, m);                                                             \
      }                                                                                           \
      TB_BS_FENCE();                                                                              \
    }                                                                                             \
  }

/* The eight loops of a precision, CDF instance (options_cpu.h: M is empty,
 * x_ or mvec_) and stages choice F, indexed [vary][exact][fast]. */
#define TB_BS_OMP8(T, SFX, M, F) TB_OPTIONS_EACH8(TB_BS_FN, T, SFX, M, F)
#define TB_BS_OMP8_TAB(SFX, M, F)                                                                 \
  {tb_bs_omp_##M##SFX##_##F##000, tb_bs_omp_##M##SFX##_##F##001,                                  \
   tb_bs_omp_##M##SFX##_##F##010, tb_bs_omp_##M##SFX##_##F##011,                                  \
   tb_bs_omp_##M##SFX##_##F##100, tb_bs_omp_##M##SFX##_##F##101,                                  \
   tb_bs_omp_##M##SFX##_##F##110, tb_bs_omp_##M##SFX##_##F##111}

/* The 24 loops of a CDF instance, indexed [stages][vary][exact][fast]. */
#define TB_BS_OMP24(T, SFX, M)                                                                    \
  TB_BS_OMP8(T, SFX, M, 0) TB_BS_OMP8(T, SFX, M, 1) TB_BS_OMP8(T, SFX, M, 2)
#define TB_BS_OMP24_TAB(SFX, M)                                                                   \
  {TB_BS_OMP8_TAB(SFX, M, 0), TB_BS_OMP8_TAB(SFX, M, 1), TB_BS_OMP8_TAB(SFX, M, 2)}

/* The 72 loops of a precision, indexed [instance][stages][vary][exact][fast]. */
#define TB_BS_OMP(T, SFX)                                                                         \
  TB_BS_OMP24(T, SFX, )                                                                           \
  TB_BS_OMP24(T, SFX, x_)                                                                         \
  TB_BS_OMP24(T, SFX, mvec_)                                                                      \
  TB_BS_LOOPS_LINK tb_bs_loop_fn *const TB_BS_LOOPS_TAB(SFX)[3][3][8] = {                        \
      TB_BS_OMP24_TAB(SFX, ), TB_BS_OMP24_TAB(SFX, x_), TB_BS_OMP24_TAB(SFX, mvec_)};

TB_BS_OMP(float, f32)
TB_BS_OMP(double, f64)

#endif
