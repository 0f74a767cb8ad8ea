/* The Poisson GPU variant panel's kernel body (poisson_panel.cuh), run on
 * the host exactly as a block runs it: each phase for every thread of the
 * block in turn, the block's barrier between phases (no GPU needed). In
 * the three schemes (radix 4, radix 16, and radix 32: radix 16 with a last
 * stage of up to 32 values), float and double, for every N = 4 .. 8192 and
 * P = 1, 2, 4 (and 8 up to N = 1024) on Philox inputs:
 *   1. the forward column FFT (load and the forward stages) against a
 *      long-double FFT, in the order the frequency map says, within the
 *      FFT bound of doc/poisson.md, eps = 7 log2(N) u;
 *   2. load, forward, solve, inverse and store of one panel (the first and
 *      the last, partial, one) against the long-double transform, exact
 *      multiplier and inverse, within (eps R + 12 u)(1 + eps) + eps with
 *      R from the reference's spectrum (doc/poisson_panel.md); the columns
 *      outside the panel unchanged; the transposed layout of the half
 *      spectrum, radix 16 and 32 with the staged twiddle table, and
 *      radix 16 and 32 taking two butterflies a thread at a time (ilp = 2,
 *      with and without a thread's odd last one: both are made sure to
 *      occur), bit for bit as the natural layout, the flat table and one
 *      butterfly at a time;
 *   3. the whole pipeline (the rows' R2C and C2R in long double in place
 *      of cuFFT's, every panel of the half spectrum in between) passed by
 *      the family's verifier on the single mode and the textbook Gaussian,
 *      and failed without the solve phase (the control);
 *   4. radix 16's and 32's solve frequencies, one digit reversal a
 *      butterfly: the identity they rest on, at every N. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"
#include "common/refmath.h"
#include "common/rng.h"
#include "families/poisson.h"
#include "gpu_cuda/poisson_panel.cuh"
#include "testutil.h"

static const long double PI_L = 3.141592653589793238462643383279502884L;

/* In-place FFT of n points in long double, split into re and im: X_k =
 * sum x_j exp(sign 2 pi i j k / n), unnormalised, by the family's
 * reference transform (tb_poisson_ref_fft, interleaved). */
static void ref_fft(long double *re, long double *im, int n, int sign)
{
  long double *x = (long double *)malloc(2 * (size_t)n * sizeof *x);
  CHECK(x != NULL, "out of memory");
  if (!x)
    return;
  for (int i = 0; i < n; i++) {
    x[2 * i] = re[i];
    x[2 * i + 1] = im[i];
  }
  CHECK(tb_poisson_ref_fft(x, n, sign) == TB_OK, "out of memory");
  for (int i = 0; i < n; i++) {
    re[i] = x[2 * i];
    im[i] = x[2 * i + 1];
  }
  free(x);
}

/* The exact multiplier of column c and frequency index i of the N of in,
 * with L = 1 (k0 = 2 pi) as setup makes in. */
static long double ref_multiplier(long long c, long long i, const tb_poisson_cb_info *in)
{
  const long double k0 = 2.0L * PI_L, fc = (long double)tb_poisson_freq(c, in->n),
                    fi = (long double)tb_poisson_freq(i, in->n);
  const long double k2 = k0 * k0 * (fc * fc + fi * fi), m = (long double)in->n;
  return k2 > 0.0L ? -1.0L / (k2 * m * m) : 0.0L;
}

/* The schemes: the `radix` parameter's value, the stages' log2 radix and
 * the log2 of the largest radix of the last stage (poisson_panel.cu's
 * tables). */
static const struct {
  int radix, lr, lastlr;
} schemes[] = {{4, 2, 2}, {16, 4, 4}, {32, 4, 5}};
static const int nschemes = (int)(sizeof schemes / sizeof *schemes);

/* A block's run of phases first..last of the panel at c0 in the scheme of
 * g.lr: every thread of the block through each phase, then the next (the
 * barrier); radix 16 and 32 with ilp butterflies a thread at a time (1 or
 * 2, the `ilp` parameter). */
template <typename T, typename C>
static void run_block(C *sm, C *w, const C *tw, const tb_panel_geom &g, int c0,
                      const tb_poisson_cb_info *in, int first, int last, int skip, int ilp = 1)
{
  for (int ph = first; ph <= last; ph++)
    if (ph != skip)
      for (int tid = 0; tid < g.threads; tid++) {
        if (g.lr == 2)
          tb_panel_phase<T, C>(ph, sm, w, tw, g, c0, in, tid);
        else if (ilp == 2)
          tb_panel_phase16<T, C, 5, 2>(ph, sm, w, tw, g, c0, in, tid);
        else
          tb_panel_phase16<T, C, 5>(ph, sm, w, tw, g, c0, in, tid);
      }
}

/* Whether some pass of radix up to 16 of g gives a thread two butterflies
 * or more (ilp = 2 takes a pair: paired) and whether one gives a thread an
 * odd number of them, three or more (a pair, then the last alone:
 * remainder), counted as tb_panel_pass16 loops; radix 32's pass takes one
 * at a time at any ilp and does not count. */
static int ilp_paired, ilp_remainder;
static void count_ilp(const tb_panel_geom &g)
{
  for (int stage = 0; stage < tb_panel_stages(g); stage++) {
    const int lr = tb_panel_stage_lr(g.logn - g.lr * stage, g);
    const int count = (g.n >> lr) << g.logp;
    if (lr == 5)
      continue;
    for (int tid = 0; tid < g.threads && tid < count; tid++) {
      const int mine = (count - tid + g.threads - 1) / g.threads;
      ilp_paired |= mine >= 2;
      ilp_remainder |= mine >= 3 && mine % 2;
    }
  }
}

/* The radix-16 scheme's passes of the panel at c0 as the test needs them
 * apart from its phases: the forward stages alone (the spectrum left in
 * shared memory) where fwd_only, else the whole panel with the solve left
 * out (the control). */
template <typename T, typename C>
static void run_passes16(C *sm, C *w, const C *tw, const tb_panel_geom &g, int c0,
                         const tb_poisson_cb_info *in, int fwd_only)
{
  const int last = tb_panel_stages(g) - 1;
  for (int k = 0; k <= (fwd_only ? last : 2 * last); k++) {
    const int stage = k <= last ? k : 2 * last - k;
    unsigned what = k <= last ? (unsigned)TB_PANEL_FWD : 0u;
    if (k >= last && !fwd_only)
      what |= TB_PANEL_INV;
    if (stage == 0)
      what |= (k == 0 ? (unsigned)TB_PANEL_LOAD : 0u) |
              (k == 2 * last && !fwd_only ? (unsigned)TB_PANEL_STORE : 0u);
    for (int tid = 0; tid < g.threads; tid++)
      tb_panel_pass16_any<T, C, 5>(sm, w, tw, g, c0, in, stage, what, tid);
  }
}

template <typename T, typename C> struct panel_case {
  tb_panel_geom g;
  tb_poisson_cb_info in;
  C *tw, *sm;
};

/* Shape and constants of N, P, `threads` and scheme sc; the twiddles and a
 * poisoned panel in shared memory. */
template <typename T, typename C>
static int setup(panel_case<T, C> *pc, int n, int logp, int threads, int sc)
{
  const tb_panel_geom g = tb_panel_geom_make(tb_log2_ceil(n), logp, n / 2 + 1, threads,
                                             (int)sizeof(C), schemes[sc].lr, schemes[sc].lastlr);
  pc->g = g;
  const tb_poisson_cb_info in = {n, n / 2 + 1, 2, 1, 2.0 * M_PI / 1.0, 1.0 / ((double)n * n)};
  pc->in = in;
  pc->tw = (C *)malloc((size_t)n * sizeof(C));
  pc->sm = (C *)malloc(((size_t)n << logp) * sizeof(C));
  if (!pc->tw || !pc->sm)
    return -1;
  tb_panel_twiddles<T>(pc->tw, n);
  for (size_t k = 0; k < ((size_t)n << logp); k++)
    pc->sm[k].x = pc->sm[k].y = (T)NAN;
  return 0;
}

/* Tests 1 and 2 at one N, P and precision; returns the largest ratio of an
 * error to its bound. */
template <typename T, typename C> static double one_panel(int n, int logp, int sc, uint64_t seed)
{
  panel_case<T, C> pc;
  const int threads = 64 + 3 * logp; /* not a power of two: no stride is special */
  if (setup(&pc, n, logp, threads, sc)) {
    CHECK(0, "out of memory");
    return 0;
  }
  const tb_panel_geom &g = pc.g;
  const int half = g.half, stages = tb_panel_stages(g), phases = tb_panel_phases(g);
  const size_t count = (size_t)n * half;
  const double u = tb_unit_roundoff(sizeof(T) == 4 ? TB_FLOAT : TB_DOUBLE), eps = 7.0 * g.logn * u;
  C *w = (C *)malloc(count * sizeof(C)), *w0 = (C *)malloc(count * sizeof(C));
  C *ws = (C *)malloc(count * sizeof(C)), *tws = (C *)malloc((size_t)n * sizeof(C));
  long double *re = (long double *)malloc(2 * (size_t)n * sizeof(long double)), *im = re + n;
  if (!w || !w0 || !ws || !tws || !re) {
    CHECK(0, "out of memory");
    return 0;
  }
  tb_rng_uniform(sizeof(T) == 4 ? TB_FLOAT : TB_DOUBLE, w0, 2 * (int64_t)count, seed, 7, -1.0, 1.0);
  double worst = 0;
  const int starts[2] = {0, ((half - 1) >> logp) << logp};
  for (int which = 0; which < 2; which++) {
    const int c0 = starts[which], width = half - c0 < g.p ? half - c0 : g.p;
    /* 1: the forward transform, read from shared memory. */
    memcpy(w, w0, count * sizeof(C));
    if (sc == 0)
      run_block<T, C>(pc.sm, w, pc.tw, g, c0, &pc.in, 0, stages, -1);
    else
      run_passes16<T, C>(pc.sm, w, pc.tw, g, c0, &pc.in, 1);
    for (int col = 0; col < width; col++) {
      for (int i = 0; i < n; i++) {
        re[i] = w0[(size_t)i * half + c0 + col].x;
        im[i] = w0[(size_t)i * half + c0 + col].y;
      }
      ref_fft(re, im, n, -1);
      long double err = 0, norm = 0;
      for (int pos = 0; pos < n; pos++) {
        const int f = tb_panel_freq(pos, g);
        const C v = pc.sm[tb_panel_at((pos << logp) + col, g)];
        err += (v.x - re[f]) * (v.x - re[f]) + (v.y - im[f]) * (v.y - im[f]);
        norm += re[f] * re[f] + im[f] * im[f];
      }
      const double rel = (double)sqrtl(err / norm);
      worst = fmax(worst, rel / eps);
      CHECK(rel <= eps, "%s N %d P %d radix %d column %d: forward error %.3g above %.3g",
            sizeof(T) == 4 ? "float" : "double", n, g.p, schemes[sc].radix, c0 + col, rel, eps);
    }
    /* 2: the whole block, stored in place; again in the transposed layout
     * (value c of row r at c N + r), and radix 16 and 32 with the staged
     * twiddle table, each of which must give the same bits. */
    memcpy(w, w0, count * sizeof(C));
    run_block<T, C>(pc.sm, w, pc.tw, g, c0, &pc.in, 0, phases - 1, -1);
    {
      tb_panel_geom gt = g;
      gt.rs = 1;
      gt.cs = n;
      for (int r = 0; r < n; r++)
        for (int c = 0; c < half; c++)
          ws[(size_t)c * n + r] = w0[(size_t)r * half + c];
      run_block<T, C>(pc.sm, ws, pc.tw, gt, c0, &pc.in, 0, phases - 1, -1);
      int same = 1;
      for (int r = 0; r < n; r++)
        for (int c = 0; c < half; c++)
          same &= !memcmp(&ws[(size_t)c * n + r], &w[(size_t)r * half + c], sizeof(C));
      CHECK(same, "%s N %d P %d radix %d: the transposed layout gives other bits than the natural",
            sizeof(T) == 4 ? "float" : "double", n, g.p, schemes[sc].radix);
    }
    if (sc > 0) {
      tb_panel_geom gs = g;
      gs.staged = 1;
      tb_panel_twiddles_staged(tws, pc.tw, gs);
      memcpy(ws, w0, count * sizeof(C));
      run_block<T, C>(pc.sm, ws, tws, gs, c0, &pc.in, 0, phases - 1, -1);
      CHECK(!memcmp(w, ws, count * sizeof(C)),
            "%s N %d P %d radix %d: the staged twiddle table gives other bits than the flat one",
            sizeof(T) == 4 ? "float" : "double", n, g.p, schemes[sc].radix);
      memcpy(ws, w0, count * sizeof(C));
      run_block<T, C>(pc.sm, ws, pc.tw, g, c0, &pc.in, 0, phases - 1, -1, 2);
      CHECK(!memcmp(w, ws, count * sizeof(C)),
            "%s N %d P %d radix %d: two butterflies a thread at a time (ilp = 2) give other "
            "bits than one",
            sizeof(T) == 4 ? "float" : "double", n, g.p, schemes[sc].radix);
      count_ilp(g);
    }
    for (int c = 0; c < half; c++) {
      if (c < c0 || c >= c0 + width) {
        for (int i = 0; i < n; i++)
          CHECK(!memcmp(&w[(size_t)i * half + c], &w0[(size_t)i * half + c], sizeof(C)),
                "N %d P %d radix %d: column %d outside the panel at %d changed", n, g.p, schemes[sc].radix,
                c, c0);
        continue;
      }
      for (int i = 0; i < n; i++) {
        re[i] = w0[(size_t)i * half + c].x;
        im[i] = w0[(size_t)i * half + c].y;
      }
      ref_fft(re, im, n, -1);
      /* R = max|s| ||F|| / ||s F||: how much the forward transform's error
       * can grow against the solved spectrum (doc/poisson.md, step 3). */
      long double smax = 0, nf = 0, nsf = 0;
      for (int i = 0; i < n; i++) {
        const long double s = ref_multiplier(c, i, &pc.in), a = re[i] * re[i] + im[i] * im[i];
        smax = fmaxl(smax, fabsl(s));
        nf += a;
        nsf += s * s * a;
        re[i] *= s;
        im[i] *= s;
      }
      ref_fft(re, im, n, 1);
      long double err = 0, norm = 0;
      for (int i = 0; i < n; i++) {
        const C v = w[(size_t)i * half + c];
        err += (v.x - re[i]) * (v.x - re[i]) + (v.y - im[i]) * (v.y - im[i]);
        norm += re[i] * re[i] + im[i] * im[i];
      }
      const double r = (double)(smax * sqrtl(nf / nsf));
      const double bound = (eps * r + 12 * u) * (1 + eps) + eps, rel = (double)sqrtl(err / norm);
      worst = fmax(worst, rel / bound);
      CHECK(rel <= bound, "%s N %d P %d radix %d column %d: solve error %.3g above %.3g (R %.3g)",
            sizeof(T) == 4 ? "float" : "double", n, g.p, schemes[sc].radix, c, rel, bound, r);
    }
  }
  free(w);
  free(w0);
  free(ws);
  free(tws);
  free(re);
  free(pc.tw);
  free(pc.sm);
  return worst;
}

/* Test 3: the pipeline on problem p with panels of 2^logp columns in the
 * scheme sc, the solve left out where control; the verifier's verdict. */
template <typename T, typename C>
static tb_verdict_t pipeline(tb_problem_t *p, int logp, int sc, int control)
{
  const tb_poisson_t *s = (const tb_poisson_t *)p->priv;
  const int n = (int)s->n, half = (int)s->half;
  panel_case<T, C> pc;
  C *w = (C *)malloc((size_t)n * half * sizeof(C));
  T *u = (T *)malloc((size_t)n * n * sizeof(T));
  long double *re = (long double *)malloc(2 * (size_t)n * sizeof(long double)), *im = re + n;
  if (setup(&pc, n, logp, 96, sc) || !w || !u || !re) {
    CHECK(0, "out of memory");
    return TB_FAIL;
  }
  const T *f = (const T *)p->array[s->f].host;
  for (int r = 0; r < n; r++) {
    for (int i = 0; i < n; i++) {
      re[i] = f[(size_t)r * n + i];
      im[i] = 0;
    }
    ref_fft(re, im, n, -1);
    for (int c = 0; c < half; c++) {
      w[(size_t)r * half + c].x = (T)re[c];
      w[(size_t)r * half + c].y = (T)im[c];
    }
  }
  const int solve = control ? tb_panel_stages(pc.g) + 1 : -1;
  for (int c0 = 0; c0 < half; c0 += pc.g.p) {
    if (sc > 0 && control)
      run_passes16<T, C>(pc.sm, w, pc.tw, pc.g, c0, &pc.in, 0);
    else
      run_block<T, C>(pc.sm, w, pc.tw, pc.g, c0, &pc.in, 0, tb_panel_phases(pc.g) - 1, solve);
  }
  /* C2R: the Hermitian extension of each row (the imaginary parts of the
   * zero and Nyquist values ignored, as cuFFT ignores them). */
  for (int r = 0; r < n; r++) {
    for (int c = 0; c < half; c++) {
      re[c] = w[(size_t)r * half + c].x;
      im[c] = c == 0 || c == n / 2 ? 0 : w[(size_t)r * half + c].y;
    }
    for (int c = half; c < n; c++) {
      re[c] = re[n - c];
      im[c] = -im[n - c];
    }
    ref_fft(re, im, n, 1);
    for (int i = 0; i < n; i++)
      u[(size_t)r * n + i] = (T)re[i];
  }
  void *view[TB_MAX_ARRAYS] = {0};
  double extra[TB_MAX_COLUMNS];
  tb_check_t chk;
  for (int k = 0; k < TB_MAX_COLUMNS; k++)
    extra[k] = NAN;
  extra[TB_POISSON_ROUNDTRIP] = 0;
  memset(&chk, 0, sizeof chk);
  view[s->f] = p->array[s->f].host;
  view[s->u] = u;
  CHECK(p->algo->verify(p, view, extra, &chk) == TB_OK, "verify returned an error");
  if (!control)
    printf("  %s N %4d P %d radix %2d: error %.3g, tolerance %.3g\n",
           sizeof(T) == 4 ? "float " : "double", n, pc.g.p, schemes[sc].radix, chk.error, chk.tolerance);
  free(w);
  free(u);
  free(re);
  free(pc.tw);
  free(pc.sm);
  return chk.verdict;
}

int main(void)
{
  /* Every N = 4 .. 8192 for radix 16 (each last-stage radix 2, 4, 8 and
   * 16 and one to four stages) and radix 32 (the same but where log2 N
   * mod 4 = 1: a last stage of 32 at N = 32, 512 and 8192, one stage
   * fewer, which the stage counts below make sure of); the radix-4 scheme
   * as before. */
  static const int sizes[] = {4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
  static const struct {
    int logn, stages16, stages32;
  } counts[] = {{5, 2, 1}, {9, 3, 2}, {12, 3, 3}, {13, 4, 3}};
  for (int k = 0; k < (int)(sizeof counts / sizeof *counts); k++) {
    const tb_panel_geom g16 = tb_panel_geom_make(counts[k].logn, 0, 2, 32, 8, 4, 4);
    const tb_panel_geom g32 = tb_panel_geom_make(counts[k].logn, 0, 2, 32, 8, 4, 5);
    CHECK(tb_panel_stages(g16) == counts[k].stages16 && tb_panel_stages(g32) == counts[k].stages32,
          "N = 2^%d: %d stages of radix 16 and %d of radix 32, not %d and %d", counts[k].logn,
          tb_panel_stages(g16), tb_panel_stages(g32), counts[k].stages16, counts[k].stages32);
  }
  /* The solve's frequencies in radix 16 and 32 (tb_panel_bfly16): the
   * last stage's butterfly at place pos (a multiple of its radix R) holds
   * frequency f(pos) | d 2^(log2 N - log2 R) in place pos + d, d < R. */
  for (int sc = 1; sc < nschemes; sc++)
    for (int k = 0; k < (int)(sizeof sizes / sizeof *sizes); k++) {
      const int logn = tb_log2_ceil(sizes[k]);
      const tb_panel_geom g =
          tb_panel_geom_make(logn, 0, sizes[k] / 2 + 1, 32, 8, schemes[sc].lr, schemes[sc].lastlr);
      const int lrl = logn - g.lr * (tb_panel_stages(g) - 1);
      int bad = 0;
      for (int pos = 0; pos < g.n; pos += 1 << lrl)
        for (int d = 0; d < 1 << lrl; d++)
          bad += tb_panel_freq(pos + d, g) != (tb_panel_freq(pos, g) | d << (logn - lrl));
      CHECK(!bad, "radix %d N %d: %d places whose frequency is not the butterfly's and its digit",
            schemes[sc].radix, sizes[k], bad);
    }
  for (int sc = 0; sc < nschemes; sc++)
    for (int k = 0; k < (int)(sizeof sizes / sizeof *sizes); k++)
      for (int logp = 0; logp <= (sizes[k] <= 1024 ? 3 : 2); logp++) {
        const double wf = one_panel<float, float2>(sizes[k], logp, sc, 11 + k);
        const double wd = one_panel<double, double2>(sizes[k], logp, sc, 11 + k);
        printf("radix %2d N %4d P %d: largest error / bound: float %.3f, double %.3f\n",
               schemes[sc].radix, sizes[k], 1 << logp, wf, wd);
      }
  CHECK(ilp_paired && ilp_remainder,
        "ilp = 2 was not run both ways: pairs %d, a pair and an odd last one %d", ilp_paired,
        ilp_remainder);
  /* The pipeline: N 4..256 with every P and both right-hand sides, 1024
   * with P = 2 and the mode, and radix 32's last stage of 32 at 32 and 512
   * with both. */
  static const struct {
    int n, logp, rhs;
  } runs[] = {{4, 0, 1},  {4, 2, 0},   {8, 1, 1},   {16, 0, 0},  {16, 2, 1},
              {32, 0, 1}, {32, 2, 0},  {64, 0, 1},  {64, 1, 0},  {64, 2, 1},
              {256, 0, 0}, {256, 2, 1}, {512, 0, 0}, {512, 1, 1}, {1024, 1, 1}};
  for (int k = 0; k < (int)(sizeof runs / sizeof *runs); k++)
    for (int prec = TB_FLOAT; prec <= TB_DOUBLE; prec++) {
      tb_param_value_t pv[4] = {{0, 1.0, "1"}, {0, 0.1, "0.1"}, {2, 2, "2"},
                                {runs[k].rhs, (double)runs[k].rhs, runs[k].rhs ? "mode" : "gauss"}};
      tb_problem_t p;
      int rc = tb_problem_create(&p, &tb_algo_poisson, (tb_prec_t)prec, runs[k].n, 5 + k, pv);
      CHECK(rc == TB_OK, "create: %s", tb_error_detail());
      if (rc)
        continue;
      const int lp = runs[k].logp;
      const int f = prec == TB_FLOAT;
      for (int sc = 0; sc < nschemes; sc++) {
        CHECK((f ? pipeline<float, float2>(&p, lp, sc, 0)
                 : pipeline<double, double2>(&p, lp, sc, 0)) == TB_PASS,
              "the pipeline failed the verifier: N %d P %d radix %d %s rhs %s", runs[k].n, 1 << lp,
              schemes[sc].radix, f ? "float" : "double", pv[3].s);
        CHECK((f ? pipeline<float, float2>(&p, lp, sc, 1)
                 : pipeline<double, double2>(&p, lp, sc, 1)) == TB_FAIL,
              "control: the pipeline without its solve passed: N %d P %d radix %d", runs[k].n,
              1 << lp, schemes[sc].radix);
      }
      tb_problem_destroy(&p);
    }
  TEST_EXIT();
}
