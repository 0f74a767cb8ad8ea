/* twinbench: the Poisson family's GPU variant panel, the twin of the CPU
 * panel: the 2-D transform split into its axes, the column axis, the solve
 * and the column axis back done in one kernel while a panel of columns sits
 * in shared memory.
 *
 *   1. the rows: cuFFT's batched 1-D R2C of the N rows of f into the half
 *      spectrum (natural layout, N/2 + 1 values a row; cols's plan);
 *   2. one kernel (poisson_panel.cuh): a block a panel of P adjacent
 *      columns, loaded into shared memory, the column FFT forward, the
 *      solve and scale, the column FFT inverse, stored back in place;
 *   3. the rows back: cuFFT's batched 1-D C2R into u (cols's plan).
 * Each stage reads and writes the data once: the family's byte floor.
 * The column FFT is radix-2^k, so N must be a power of two, and the N x P
 * panel must fit in a block's shared memory; other sizes, and 3-D, are
 * skipped with a note. Tuning: `panel` (P), `radix` (the column FFT's
 * stages: 4 through shared memory, 16 in registers, or 32: radix 16 with a
 * last stage of up to 32 values), `minblocks` (the blocks an SM the
 * kernel's registers are bounded for), `twiddle` (the twiddle table's
 * layout), `ilp` (the butterflies a thread of radix 16 and 32 takes at
 * a time), `layout` (the half spectrum's, cols's natural or transposed)
 * and `block` (threads a block).
 * The breakdown: fwd_ms the rows' R2C, solve_ms the panel kernel, inv_ms
 * the rows' C2R. Derivations: doc/poisson_panel.md. */
#include <config.h>

#include <stdlib.h>

#include "../common/refmath.h"
#include "../common/timer.h"
#include "poisson.cuh"
#include "poisson_cols.h"
#include "poisson_panel.cuh"

namespace {

/* The `radix` parameter's values (auto, then the schemes S = 0, 1, 2 at
 * indexes S + 1), the stages' log2 radix of each scheme and the log2 of
 * the largest radix its last stage takes. */
const char *const tb_panel_radices[] = {"auto", "4", "16", "32", NULL};
const int tb_panel_radix_log[] = {2, 4, 4};
const int tb_panel_radix_last[] = {2, 4, 5};

/* The `twiddle` parameter's values (auto, then the tables at indexes 1
 * and 2): the flat table W_N^k, or the staged one
 * (tb_panel_twiddles_staged, radix 16 and 32). */
const char *const tb_panel_twiddle_tables[] = {"auto", "flat", "staged", NULL};

/* The most threads a block of scheme S's kernel: radix 4 at 1024 (64
 * registers a thread), radix 16 at 512 (128 registers: its 16 complex
 * values of a column take 32 registers in float and 64 in double, which the
 * 64-register bound would spill), radix 32 at 512 in float and 256 in
 * double (its last stage's 32 values take 64 registers in float, 128 in
 * double, which leaves nothing under 128). */
template <typename T, int S> struct tb_panel_bound {
  static constexpr int threads = S == 0 ? 1024 : S == 1 || sizeof(T) == 4 ? 512 : 256;
};

/* The panel kernel: one block a panel, the phases of poisson_panel.cuh with
 * the block's barrier between them; S picks the scheme at compile time, so
 * each kernel's registers are its own scheme's. The launch bound (BT
 * threads, MINB blocks an SM) caps the registers at 64 K / (BT MINB) a
 * thread, so that MINB blocks, one's loads overlapping another's
 * arithmetic, fit where their shared memory does. STAGED (g.staged made a
 * constant of the kernel's copy) folds the twiddle table's choice away, so
 * that neither layout's index arithmetic costs the other registers. ILP
 * is tb_panel_phase16's (radix 16 and 32: 1 or 2 butterflies a thread at a
 * time), so that ILP = 1's kernel is the one-at-a-time code alone. */
template <typename T, typename C, int S, int BT, int MINB, int STAGED, int ILP>
__global__ void __launch_bounds__(BT, MINB)
    tb_k_panel(C *w, const C *__restrict__ tw, tb_panel_geom gp, tb_poisson_cb_info in)
{
  extern __shared__ __align__(16) unsigned char tb_panel_raw[];
  C *sm = reinterpret_cast<C *>(tb_panel_raw);
  tb_panel_geom g = gp;
  g.staged = STAGED;
  const int c0 = (int)blockIdx.x << g.logp, phases = tb_panel_phases(g);
  for (int ph = 0; ph < phases; ph++) {
    if (S == 0)
      tb_panel_phase<T, C>(ph, sm, w, tw, g, c0, &in, (int)threadIdx.x);
    else
      tb_panel_phase16<T, C, S == 2 ? 5 : 4, ILP>(ph, sm, w, tw, g, c0, &in, (int)threadIdx.x);
    if (ph + 1 < phases)
      __syncthreads();
  }
}

template <typename C>
using tb_panel_fn = void (*)(C *, const C *, tb_panel_geom, tb_poisson_cb_info);

/* Scheme S's kernel (radix 16 or 32) bounded for minb blocks an SM: at
 * minb = 1 the scheme's own bound (its most threads, one block), at 2 and 3
 * minb blocks of 256 threads (wide = 0) or of the scheme's most (wide = 1;
 * the same kernel where that is 256); reading the table of ST (staged),
 * IL butterflies a thread at a time. */
template <typename T, typename C, int S, int ST, int IL>
static tb_panel_fn<C> tb_panel_pick(int wide, int minb)
{
  constexpr int bt = tb_panel_bound<T, S>::threads;
  const tb_panel_fn<C> k[2][3] = {
      {tb_k_panel<T, C, S, bt, 1, ST, IL>, tb_k_panel<T, C, S, 256, 2, ST, IL>,
       tb_k_panel<T, C, S, 256, 3, ST, IL>},
      {tb_k_panel<T, C, S, bt, 1, ST, IL>, tb_k_panel<T, C, S, bt, 2, ST, IL>,
       tb_k_panel<T, C, S, bt, 3, ST, IL>}};
  return k[wide][minb - 1];
}

/* tb_panel_pick at ilp butterflies a thread at a time (1 or 2). */
template <typename T, typename C, int S, int ST>
static tb_panel_fn<C> tb_panel_pick_ilp(int wide, int minb, int ilp)
{
  return ilp == 2 ? tb_panel_pick<T, C, S, ST, 2>(wide, minb)
                  : tb_panel_pick<T, C, S, ST, 1>(wide, minb);
}

/* The panel kernel of scheme `scheme` (the `radix` parameter's index) for
 * blocks of `block` threads, bounded for minb blocks an SM (the
 * `minblocks` parameter: 1 the scheme's own bound, 2 and 3 that many
 * blocks of 256 threads where block <= 256, else of the scheme's most),
 * reading the staged twiddle table where staged, else the flat one, ilp
 * butterflies a thread at a time (the `ilp` parameter); NULL where there is
 * none: radix 4 has only minb = 1 (its 1024-thread bound at two blocks
 * would leave 32 registers a thread), the flat table and ilp = 1. */
template <typename T, typename C>
static tb_panel_fn<C> tb_panel_kernel(int scheme, int block, int minb, int staged, int ilp)
{
  const int wide = block > 256;
  if (scheme == 0)
    return minb == 1 && !staged && ilp == 1
               ? tb_k_panel<T, C, 0, tb_panel_bound<T, 0>::threads, 1, 0, 1>
               : NULL;
  if (scheme == 1)
    return staged ? tb_panel_pick_ilp<T, C, 1, 1>(wide, minb, ilp)
                  : tb_panel_pick_ilp<T, C, 1, 0>(wide, minb, ilp);
  return staged ? tb_panel_pick_ilp<T, C, 2, 1>(wide, minb, ilp)
                : tb_panel_pick_ilp<T, C, 2, 0>(wide, minb, ilp);
}

struct tb_poisson_panel {
  cufftHandle plan[2]; /* the rows' R2C and C2R */
  int have[2];
  void *work; /* the half spectrum: N (N/2 + 1) complex values */
  void *tw;   /* the twiddles W_N^k, k < N */
  tb_panel_geom g;
  tb_poisson_cb_info in;
  int scheme, minb, ilp; /* tb_panel_kernel's arguments */
  int grid;    /* panels: ceil((N/2 + 1) / P) */
  size_t smem; /* N P complex values */
};

template <typename T> int tb_poisson_panel_prepare_t(tb_ctx_t *ctx, tb_poisson_panel *st)
{
  typedef typename tb_fft<T>::C C;
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  if (s->dim != 2)
    return tb_fail(TB_EUNSUP, "panel is 2-D only (its 3-D twin would need the middle axis too)");
  const int logn = tb_log2_ceil(s->n);
  if (((int64_t)1 << logn) != s->n)
    return tb_fail(TB_EUNSUP, "panel's column FFT is radix-2^k: N = %lld is no power of two",
                   (long long)s->n);
  int optin = 0, rc = tb_gpu_smem_optin(ctx, &optin);
  if (rc)
    return rc;
  /* auto: 32 bytes of a row (one memory sector: 4 float or 2 double
   * complex values), halved until the panel fits in shared memory. */
  const tb_param_value_t *pv = tb_tune(ctx, "panel");
  int64_t p = pv->i;
  if (!p)
    for (p = 32 / (int64_t)sizeof(C); p > 1 && s->n * p * (int64_t)sizeof(C) > optin; p /= 2)
      ;
  /* The parameter is the CPU panel's too (the same name, range and
   * meaning), so a value the CPU takes is no error here: a skip. */
  const int logp = tb_log2_ceil(p);
  if (((int64_t)1 << logp) != p)
    return tb_fail(TB_EUNSUP, "panel=%lld: the GPU panel's width must be a power of two",
                   (long long)p);
  tb_tune_resolved(ctx, "panel", (double)p);
  st->smem = (size_t)(s->n * p) * sizeof(C);
  if (st->smem > (size_t)optin)
    return tb_fail(TB_EUNSUP,
                   "panel=%lld at N = %lld needs %zu bytes of shared memory a block, the device "
                   "gives at most %d",
                   (long long)p, (long long)s->n, st->smem, optin);
  /* auto, from the H100 sweep of 2026-11-25 (doc/poisson_panel.md):
   * radix 32 where it saves radix 16 a stage, N = 32 x 16^k (8192: 1.074
   * ms against 1.202 in float, 2.701 against 2.843 in double), when the
   * block is within its bound; else radix 16. The staged table wherever
   * the scheme reads it (radix 16 and 32: faster at every size swept). */
  int scheme = (int)tb_tune(ctx, "radix")->i - 1;
  const int minb = (int)tb_tune(ctx, "minblocks")->i;
  if (scheme < 0)
    scheme = logn >= 5 && logn % 4 == 1 && tb_gpu_block(ctx) <= tb_panel_bound<T, 2>::threads ? 2 : 1;
  int staged = (int)tb_tune(ctx, "twiddle")->i - 1;
  if (staged < 0)
    staged = scheme > 0;
  tb_tune_resolved(ctx, "radix", scheme + 1);
  tb_tune_resolved(ctx, "twiddle", staged + 1);
  if (!scheme && minb > 1)
    return tb_fail(TB_EUNSUP, "minblocks=%d: radix 4's kernel is bounded for one block an SM only",
                   minb);
  if (!scheme && staged)
    return tb_fail(TB_EUNSUP, "twiddle=staged: radix 4 reads the flat table only");
  /* auto: one butterfly at a time, ahead of two on the H100 and the H200
   * at every size and precision measured (doc/poisson_panel.md, "ilp"). */
  int ilp = (int)tb_tune(ctx, "ilp")->i;
  if (!ilp)
    ilp = 1;
  tb_tune_resolved(ctx, "ilp", ilp);
  if (!scheme && ilp > 1)
    return tb_fail(TB_EUNSUP, "ilp=%d: radix 4's stages take one butterfly at a time only", ilp);
  st->scheme = scheme;
  st->minb = minb;
  st->ilp = ilp;
  tb_panel_geom g =
      tb_panel_geom_make(logn, logp, (int)s->half, tb_gpu_block(ctx), (int)sizeof(C),
                         tb_panel_radix_log[scheme], tb_panel_radix_last[scheme]);
  g.staged = staged;
  const int layout = (int)tb_tune(ctx, "layout")->i;
  if (layout == TB_CL_TRANSPOSED) {
    g.rs = 1;
    g.cs = (int)s->n;
  }
  st->g = g;
  st->in = tb_poisson_cb_make(s, s->half);
  st->grid = (int)((s->half + p - 1) / p);
  if ((rc = tb_gpu_fit_smem(ctx, tb_panel_kernel<T, C>(scheme, g.threads, minb, g.staged, ilp),
                            st->smem, "panel", NULL)))
    return rc;

  /* The flat table, and the staged one made from it where asked (the
   * kernel reads one of them). */
  C *tw = (C *)malloc(2 * (size_t)s->n * sizeof(C));
  if (!tw)
    return tb_fail(TB_ENOMEM, "out of memory");
  tb_panel_twiddles<T>(tw, (int)s->n);
  if (g.staged)
    tb_panel_twiddles_staged(tw + s->n, tw, g);
  cudaError_t e = cudaMalloc(&st->tw, (size_t)s->n * sizeof(C));
  if (e == cudaSuccess)
    e = tb_gpu_copy(ctx, st->tw, g.staged ? tw + s->n : tw, (size_t)s->n * sizeof(C),
                    cudaMemcpyHostToDevice);
  free(tw);
  TB_CUDA(e);
  TB_CUDA(cudaMalloc(&st->work, (size_t)(s->rows * s->half) * sizeof(C)));

  static const int which[2] = {TB_CL_ROWS_FWD, TB_CL_ROWS_INV};
  static const cufftType types[2] = {tb_fft<T>::r2c, tb_fft<T>::c2r};
  TB_CUDA(cudaDeviceSynchronize());
  const double t0 = tb_wtime();
  for (int k = 0; k < 2; k++) {
    TB_CUFFT(cufftCreate(&st->plan[k]));
    st->have[k] = 1;
    TB_CUFFT(tb__poisson_cols_make(ctx, st->plan[k], layout, which[k], types[k]));
  }
  TB_CUDA(cudaDeviceSynchronize());
  ctx->extra[TB_POISSON_PLAN_MS] = 1e3 * (tb_wtime() - t0);
  ctx->extra[TB_POISSON_ROUNDTRIP] = 0.0;
  return TB_OK;
}

/* Stage TB_PS_FWD (the rows' R2C), TB_PS_SOLVE (the panel kernel) or
 * TB_PS_INV (the rows' C2R) on the run's stream. */
template <typename T> int tb_poisson_panel_stage_t(tb_ctx_t *ctx, int stage)
{
  typedef typename tb_fft<T>::C C;
  const tb_poisson_t *s = (const tb_poisson_t *)ctx->p->priv;
  const tb_poisson_panel *st = (const tb_poisson_panel *)ctx->state;
  C *w = (C *)st->work;
  if (stage == TB_PS_FWD) {
    /* cuFFT's out-of-place R2C leaves its input alone; the cast only drops const. */
    TB_CUFFT(tb_fft<T>::exec_r2c(st->plan[0], const_cast<T *>((const T *)ctx->buf[s->f]), w));
  } else if (stage == TB_PS_SOLVE) {
    tb_panel_kernel<T, C>(st->scheme, st->g.threads, st->minb, st->g.staged, st->ilp)<<<
        st->grid, st->g.threads, st->smem, tb_gpu_stream(ctx)>>>(w, (const C *)st->tw, st->g,
                                                                 st->in);
    TB_CUDA_LAUNCH("panel");
  } else {
    TB_CUFFT(tb_fft<T>::exec_c2r(st->plan[1], w, (T *)ctx->buf[s->u]));
  }
  return TB_OK;
}

const unsigned tb_poisson_panel_stages = 1u << TB_PS_FWD | 1u << TB_PS_SOLVE | 1u << TB_PS_INV;

void tb_poisson_panel_release(tb_ctx_t *ctx)
{
  tb_poisson_panel *st = (tb_poisson_panel *)ctx->state;
  if (!st)
    return;
  for (int k = 0; k < 2; k++)
    if (st->have[k])
      cufftDestroy(st->plan[k]);
  cudaFree(st->work);
  cudaFree(st->tw);
  free(st);
  ctx->state = NULL;
}

int tb_poisson_panel_prepare(tb_ctx_t *ctx)
{
  tb_poisson_panel *st = (tb_poisson_panel *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  return ctx->p->prec == TB_FLOAT ? tb_poisson_panel_prepare_t<float>(ctx, st)
                                  : tb_poisson_panel_prepare_t<double>(ctx, st);
}

int tb_poisson_panel_run(tb_ctx_t *ctx)
{
  if (ctx->p->prec == TB_FLOAT)
    return tb_poisson_run_stages(tb_poisson_panel_stages,
                                 [ctx](int g) { return tb_poisson_panel_stage_t<float>(ctx, g); });
  return tb_poisson_run_stages(tb_poisson_panel_stages,
                               [ctx](int g) { return tb_poisson_panel_stage_t<double>(ctx, g); });
}

int tb_poisson_panel_collect(tb_ctx_t *ctx)
{
  if (ctx->p->prec == TB_FLOAT)
    return tb_poisson_time_stages(ctx, tb_poisson_panel_stages,
                                  [ctx](int g) { return tb_poisson_panel_stage_t<float>(ctx, g); });
  return tb_poisson_time_stages(ctx, tb_poisson_panel_stages,
                                [ctx](int g) { return tb_poisson_panel_stage_t<double>(ctx, g); });
}

/* panel's parameters: the columns of a panel, the radix of the column
 * FFT's stages, the blocks an SM its registers are bounded for, the
 * twiddle table's layout, the butterflies a thread takes at a time, the
 * half spectrum's layout and the threads of a block, all swept by the
 * study. */
const tb_param_def_t tb_poisson_panel_tuning[] = {
    {"panel", "panel: complex columns a block transforms and solves in shared memory (GPU: a "
              "power of two; auto: 32 bytes of a row, halved until N of them fit)",
     TB_PARAM_INT, "auto", 1, 4096, NULL, TB_PARAM_AUTO, "1,2,4,8"},
    {"radix", "panel: the column FFT's stages, radix 4 through shared memory (a barrier a stage) "
              "or radix 16 in registers (load, solve and store folded into the first and last "
              "stages; at most 512 threads a block), or 32: radix 16 with a last stage of up to "
              "32 values (8192 = 16 x 16 x 32; double: at most 256 threads a block); auto: 32 "
              "where it saves radix 16 a stage (N = 32 x 16^k) and the block allows, else 16",
     TB_PARAM_CHOICE, "auto", 0, 0, tb_panel_radices, 0, "4,16,32"},
    {"minblocks", "panel: blocks an SM the kernel's registers are bounded for (radix 16 and 32; "
                  "1: the scheme's own bound; 2, 3: of 256 threads at block <= 256, else of 512, "
                  "64 K / (threads x minblocks) registers a thread, 64 at 512 x 2), so that "
                  "several blocks overlap where shared memory allows",
     TB_PARAM_INT, "1", 1, 3, NULL, 0, "1,2,3"},
    {"twiddle", "panel: the inter-stage twiddles of radix 16 and 32 from the flat table W_N^k "
                "(a warp's j d N / L apart) or the staged one (each stage's W_L^(j d) with j "
                "fastest: a warp's consecutive); the same values; auto: staged where the radix "
                "reads it (16 and 32), else flat",
     TB_PARAM_CHOICE, "auto", 0, 0, tb_panel_twiddle_tables, 0, "flat,staged"},
    {"ilp", "panel: butterflies a thread of radix 16 and 32 takes at a time in the passes of "
            "radix up to 16 (2: both butterflies' loads in flight before either's DFT, the "
            "last alone where a thread has an odd number; radix 32's last pass one at a time); "
            "the same bits; auto: 1",
     TB_PARAM_INT, "auto", 1, 2, NULL, TB_PARAM_AUTO, "1,2"},
    {"layout", "panel: the half spectrum row-major, the panel's loads a row apart (natural), or "
               "column-major, the rows' transforms strided and the panel's loads contiguous "
               "(transposed; cols's plans)",
     TB_PARAM_CHOICE, "natural", 0, 0, tb_poisson_cols_layouts, 0, "natural,transposed"},
    TB_GPU_BLOCK("512"),
};

} /* namespace */

/* Listed by poisson.cu with the family's other GPU variants. */
extern "C" const tb_variant_t tb__poisson_gpu_panel = {
    "panel",
    "cuFFT batched R2C of the rows; one kernel a panel of columns: column FFT, solve and scale, "
    "inverse column FFT in shared memory; cuFFT batched C2R of the rows (2-D, N a power of two)",
    &tb_algo_poisson,
    TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
    0,
    tb_poisson_panel_tuning,
    TB_COUNT(tb_poisson_panel_tuning),
    tb_poisson_panel_prepare,
    tb_poisson_panel_run,
    tb_poisson_panel_collect,
    tb_poisson_panel_release};
