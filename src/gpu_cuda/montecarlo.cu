/* twinbench: the Monte Carlo family's CUDA twins (sums of samples in double,
 * reduced on the GPU; with math=fast in float, each thread first adds
 * TB_MC_FSUM_GROUPS Philox groups in float):
 *   twostep:  the published pipeline: cuRAND's host API (Philox4_32_10)
 *             writes every normal to device memory, then a payoff kernel
 *             reads them, many blocks per option, and a last kernel adds each
 *             option's per-block sums. cuRAND's stream of normals is not our
 *             Philox mapping, so its prices differ from the other twins' by
 *             sampling error: they are verified statistically, like all.
 *   fused:    normals made in registers from our Philox mapping (the CPU
 *             twin's paths), many blocks per option, then the same last kernel.
 *   fused1b:  the same fused kernel with one block per option, which
 *             finishes its option itself (no second kernel).
 *   mpi:      fused's blocks split over MPI ranks (tbmpi.h): each rank runs
 *             its share of the (option, part) blocks, the ranks' block sums
 *             are gathered (MPI_Allgatherv, on device memory where the
 *             library is CUDA-aware, else through the host), and every rank
 *             adds each option's in block order: fused's prices bit for bit
 *             (the same blocks per option: they follow the job's options).
 *   The fused kernels in double take the terminal price's exponential and
 *   Box-Muller's logarithm from tables in shared memory (mcmath.h; the
 *   tuning parameter tables: none, exp, or all, the default): the library's
 *   log and exp are most of their double-unit work, and the table forms
 *   spend 11 and 10 double operations where the library spends about 31 and
 *   18, within the same 4-ulp allowance of the verifier. The uniforms are
 *   Philox's as before, so the paths are the same; prices may differ from
 *   tables=none's in the last bits.
 *   Blocks per option for twostep and fused: grid / options with an explicit
 *   --grid, else enough blocks for about four waves of the GPU, at most one
 *   group of paths per thread. Block sizes must be multiples of 32 (the
 *   block reduction); others are skipped. */
#include <config.h>

#include <cuda_runtime.h>
#include <curand.h>
#include <stdlib.h>

#include <type_traits>

#include "../common/tbmpi.h"
#include "mcmath.h"
#include "options.cuh"

namespace {

/* Normals from our Philox mapping, made in registers: a group is the
 * tb_opt<T>::w normals of one Philox block. */
template <typename T> struct tb_src_philox {
  static const int w = tb_opt<T>::w;
  static const bool fsum = tb_opt<T>::fsum; /* float sums of a full group, for math=fast */
  uint64_t seed;
  __device__ __forceinline__ void init(T, T) {}
  __device__ __forceinline__ tb_mc_sum_t sum(int64_t o, int64_t g, int count, T s, T x, T mu,
                                             T sig, int put, int anti, int fast) const
  {
    return tb_opt<T>::group(seed, (uint64_t)o, (uint64_t)g, count, s, x, mu, sig, put, anti,
                            fast);
  }
  __device__ __forceinline__ tb_mc_fsum_t fsum_full(int64_t o, int64_t g, T s, T x, T mu, T sig,
                                                    int put, int anti, int fast) const
  {
    return tb_opt<T>::fgroup(seed, (uint64_t)o, (uint64_t)g, s, x, mu, sig, put, anti, fast);
  }
};

/* The largest Box-Muller radius of the double uniforms, sqrt(-2 ln 2^-53) =
 * 8.57, rounded up: |z| stays below it. */
const double tb_mc_rmax_f64 = 8.6;

/* The tables of mcmath.h in one array, as the kernels keep them in shared
 * memory: exp's 2^(j/128), then log's c_j and L_j. */
enum {
  TB_MC_TAB_EXP = 0,
  TB_MC_TAB_C = TB_MCEXP_N,
  TB_MC_TAB_L = TB_MCEXP_N + TB_MCLOG_N,
  TB_MC_TAB_N = TB_MCEXP_N + 2 * TB_MCLOG_N
};

/* tb_src_philox<double> with the terminal price's e^x (2^x with math=fast)
 * from mcmath.h's table, and with LOG Box-Muller's ln u1 too; init copies the
 * tables to shared memory. The uniforms, the angle, the radius's square root
 * and the order of the sums are tb_mc_words_f64's (options_math.h); only the
 * log and exp differ. An option whose arguments mu + sig z could leave the
 * table exp's range (|mu| + |sig| r_max > TB_MCEXP_MAX, or not a number)
 * takes the library's functions, tb_mc_group_f64: one test per option, the
 * same for every thread of a block. */
template <bool LOG> struct tb_src_philox_tab {
  static const int w = TB_MC_W_F64;
  static const bool fsum = false;
  uint64_t seed;
  const double *gtab; /* the tables in device memory (TB_MC_TAB_N) */
  const double *tab;  /* the block's copy in shared memory */
  bool in_range;
  __device__ __forceinline__ void init(double mu, double sig)
  {
    __shared__ double stab[TB_MC_TAB_N];
    for (int j = threadIdx.x; j < (LOG ? TB_MC_TAB_N : TB_MCEXP_N); j += blockDim.x)
      stab[j] = gtab[j];
    __syncthreads();
    tab = stab;
    in_range = fabs(mu) + fabs(sig) * tb_mc_rmax_f64 <= TB_MCEXP_MAX;
  }
  /* One sample: tb_mc_sample_f64 with the table's exponential. */
  __device__ __forceinline__ double sample(double s, double x, double mu, double sig, double z,
                                           int put, int anti, int fast) const
  {
    const double *t = tab + TB_MC_TAB_EXP;
    const double st = s * (fast ? tb_mcexp2(mu + sig * z, t) : tb_mcexp(mu + sig * z, t));
    double y = tb__pos_f64(put ? x - st : st - x);
    if (anti) {
      const double st2 = s * (fast ? tb_mcexp2(mu - sig * z, t) : tb_mcexp(mu - sig * z, t));
      y = 0.5 * (y + tb__pos_f64(put ? x - st2 : st2 - x));
    }
    return y;
  }
  __device__ __forceinline__ tb_mc_sum_t sum(int64_t o, int64_t g, int count, double s, double x,
                                             double mu, double sig, int put, int anti,
                                             int fast) const
  {
    if (!in_range)
      return tb_mc_group_f64(seed, (uint64_t)o, (uint64_t)g, count, s, x, mu, sig, put, anti,
                             fast);
    const tb_philox4_t b = tb_philox_block(seed, TB_MC_STREAM, ((uint64_t)o << 32) | (uint64_t)g);
    const double u1 = tb_u01_f64(b.v[0], b.v[1]), u2 = tb_u01_f64(b.v[2], b.v[3]);
    double z0, z1;
    if (LOG) { /* tb_mc_box_muller_f64 with the table's log (both forms take -2 ln u1) */
      const double r = sqrt(-2.0 * tb_mclog(u1, tab + TB_MC_TAB_C, tab + TB_MC_TAB_L));
      double sn, cs;
      tb__sincos_turn_f64(u2, &sn, &cs);
      z0 = r * cs;
      z1 = r * sn;
    } else
      tb_mc_box_muller_f64(u1, u2, fast, &z0, &z1);
    const double y0 = sample(s, x, mu, sig, z0, put, anti, fast);
    const double y1 = count > 1 ? sample(s, x, mu, sig, z1, put, anti, fast) : 0.0;
    tb_mc_sum_t r = {y0 + y1, y0 * y0 + y1 * y1};
    return r;
  }
};

/* Normals cuRAND wrote to memory, option o's at z[o * samples ...]. WIDE: a
 * group is the normals of one 16-byte load (four floats, two doubles; the
 * two-step variant takes it when every option's normals fill whole loads),
 * summed in the precision like a Philox group; otherwise a group is one
 * normal. Either way neighbouring threads read neighbouring words. */
template <typename T, bool WIDE> struct tb_src_mem {
  typedef tb_vec16_t<T> V;
  static const int w = WIDE ? (int)(sizeof(V) / sizeof(T)) : 1;
  static const bool fsum = false;
  const T *z;
  int64_t samples;
  __device__ __forceinline__ void init(T, T) {}
  __device__ __forceinline__ tb_mc_sum_t sum(int64_t o, int64_t g, int count, T s, T x, T mu,
                                             T sig, int put, int anti, int fast) const
  {
    (void)count; /* groups are always full: samples is a multiple of w */
    T zz[w];
    if constexpr (WIDE) {
      const V q = reinterpret_cast<const V *>(z + o * samples)[g];
      const T *qq = reinterpret_cast<const T *>(&q);
#pragma unroll
      for (int k = 0; k < w; k++)
        zz[k] = qq[k];
    } else
      zz[0] = z[o * samples + g];
    T a = 0, b = 0;
#pragma unroll
    for (int k = 0; k < w; k++) {
      const T y = tb_opt<T>::sample(s, x, mu, sig, zz[k], put, anti, fast);
      a += y;
      b += y * y;
    }
    tb_mc_sum_t r = {(double)a, (double)b};
    return r;
  }
  __device__ __forceinline__ tb_mc_fsum_t fsum_full(int64_t, int64_t, T, T, T, T, int, int,
                                                    int) const
  {
    return tb_mc_fsum_t{0.0f, 0.0f}; /* never called: fsum is false */
  }
};

/* The discounted price and standard error of option o from its sums. */
template <typename T>
__device__ __forceinline__ void tb_mc_store(const tb_opt_in<T> &in, int64_t o, double s1,
                                            double s2, int64_t samples, T *price, T *se)
{
  const T r = in.r ? in.r[o] : in.r0;
  double p, e;
  tb_mc_finish(s1, s2, samples, exp(-(double)r * (double)in.t[o]), &p, &e);
  price[o] = (T)p;
  se[o] = (T)e;
}

/* Block b (b0 + the block's index: a distributed launch runs a range of
 * them) works on option b / bpo, part b % bpo: its threads take the groups
 * part * blockDim + tid, stepping by bpo * blockDim, and the block sums them
 * (in double). With FAST and a source that has float sums, a thread adds
 * TB_MC_FSUM_GROUPS of its groups in float before it adds them to its double
 * sums. With DIRECT (one block per option) thread 0 finishes the option;
 * otherwise it writes the block's sums to partial[2b], [2b + 1]. */
template <typename T, typename SRC, bool PUT, bool ANTI, bool DIRECT, bool FAST>
__global__ void tb_k_mc(SRC src, tb_opt_in<T> in, int64_t samples, int bpo, int64_t b0,
                        double *__restrict__ partial, T *__restrict__ price, T *__restrict__ se)
{
  const int64_t bid = b0 + blockIdx.x;
  const int64_t o = bid / bpo;
  const int part = (int)(bid % bpo);
  const T s = in.s[o], x = in.x[o];
  T mu, sig;
  tb_opt<T>::drift(in.t[o], in.r ? in.r[o] : in.r0, in.v ? in.v[o] : in.v0, FAST, &mu, &sig);
  src.init(mu, sig);
  const int w = SRC::w;
  const int64_t full = samples / w, groups = (samples + w - 1) / w;
  const int64_t step = (int64_t)bpo * blockDim.x;
  double a = 0.0, b = 0.0;
  int64_t g = (int64_t)part * blockDim.x + threadIdx.x;
  if constexpr (FAST && SRC::fsum) {
    const int k = TB_MC_FSUM_GROUPS;
    for (; g + (k - 1) * step < full; g += k * step) {
      float fa = 0.0f, fb = 0.0f;
#pragma unroll
      for (int j = 0; j < k; j++) {
        const tb_mc_fsum_t y = src.fsum_full(o, g + j * step, s, x, mu, sig, PUT, ANTI, FAST);
        fa += y.s1;
        fb += y.s2;
      }
      a += fa;
      b += fb;
    }
  }
  for (; g < full; g += step) {
    const tb_mc_sum_t y = src.sum(o, g, w, s, x, mu, sig, PUT, ANTI, FAST);
    a += y.s1;
    b += y.s2;
  }
  if (g < groups) { /* the last, partial group */
    const tb_mc_sum_t y =
        src.sum(o, g, (int)(samples - full * w), s, x, mu, sig, PUT, ANTI, FAST);
    a += y.s1;
    b += y.s2;
  }
  a = tb_block_sum(a);
  __syncthreads(); /* tb_block_sum's shared scratch is reused by the next call */
  b = tb_block_sum(b);
  if (threadIdx.x == 0) {
    if (DIRECT)
      tb_mc_store(in, o, a, b, samples, price, se);
    else {
      partial[2 * bid] = a;
      partial[2 * bid + 1] = b;
    }
  }
}

/* Each option's price and standard error from its bpo blocks' sums, added in
 * block order. */
template <typename T>
__global__ void tb_k_mc_final(tb_opt_in<T> in, int64_t samples, int bpo, int64_t n,
                              const double *__restrict__ partial, T *__restrict__ price,
                              T *__restrict__ se)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < n; o += stride) {
    double s1 = 0.0, s2 = 0.0;
    for (int k = 0; k < bpo; k++) {
      s1 += partial[2 * (o * bpo + k)];
      s2 += partial[2 * (o * bpo + k) + 1];
    }
    tb_mc_store(in, o, s1, s2, samples, price, se);
  }
}

template <typename T, typename SRC, bool DIRECT>
using tb_mc_kernel_t = void (*)(SRC, tb_opt_in<T>, int64_t, int, int64_t, double *, T *, T *);

/* The kernel for the problem's payoff, antithetic and math choices. */
template <typename T, typename SRC, bool DIRECT>
tb_mc_kernel_t<T, SRC, DIRECT> tb_mc_kernel(const tb_mc_t *m)
{
  static const tb_mc_kernel_t<T, SRC, DIRECT> table[2][2][2] = {
      {{tb_k_mc<T, SRC, false, false, DIRECT, false>, tb_k_mc<T, SRC, false, false, DIRECT, true>},
       {tb_k_mc<T, SRC, false, true, DIRECT, false>, tb_k_mc<T, SRC, false, true, DIRECT, true>}},
      {{tb_k_mc<T, SRC, true, false, DIRECT, false>, tb_k_mc<T, SRC, true, false, DIRECT, true>},
       {tb_k_mc<T, SRC, true, true, DIRECT, false>, tb_k_mc<T, SRC, true, true, DIRECT, true>}}};
  return table[m->put][m->anti][m->fast];
}

enum { TB_MC_TWOSTEP, TB_MC_FUSED, TB_MC_FUSED1B, TB_MC_MPI };

/* The tuning parameter tables of the fused kernels: the library's log and
 * exp, mcmath.h's exp, or its log and exp (double only: float rows resolve
 * to none). */
enum { TB_MC_TABLES_NONE, TB_MC_TABLES_EXP, TB_MC_TABLES_ALL };
const char *const tb_mc_tables[] = {"none", "exp", "all", NULL};
#define TB_MC_TABLES_PARAM                                                                        \
  {"tables", "the double kernels' table-driven math (shared memory, low-degree polynomials, "    \
             "within the library's 4 ulps): none (the library's log and exp), exp (the "         \
             "terminal price's), all (Box-Muller's log too); float takes none",                 \
   TB_PARAM_CHOICE, "all", 0, 0, tb_mc_tables, 0, "none,exp,all"}

/* Threads per block of the last kernel, which adds each option's block sums. */
const int tb_mc_final_block = 256;

struct tb_mc_gpu_state {
  int bpo;              /* blocks per option */
  int grid;             /* blocks of the payoff kernel: options x bpo */
  bool wide;            /* twostep: groups of one 16-byte load of normals */
  double *tab;          /* fused with tables: mcmath.h's (NULL: the library's log and exp) */
  bool logtab;          /* fused with tables=all: the log's too */
  double *partial;      /* per-block sums (many blocks per option) */
  void *normals;        /* twostep: the normals */
  int64_t nnormals;     /* twostep: how many (even, as cuRAND asks) */
  curandGenerator_t gen; /* twostep */
  bool have_gen;
  int64_t b_lo, b_hi;   /* mpi: the rank's blocks */
  double *host;         /* mpi, not CUDA-aware: the block sums on the host */
  int aware;            /* mpi: the gather reads and writes device memory */
};

/* cuRAND's status as a twinbench status. */
int tb_curand_status(curandStatus_t e, const char *what)
{
  return tb_fail(e == CURAND_STATUS_ALLOCATION_FAILED ? TB_ENOMEM : TB_EDEVICE,
                 "%s: cuRAND status %d", what, (int)e);
}

#define TB_CURAND(call)                                                                           \
  do {                                                                                            \
    curandStatus_t tb_e_ = (call);                                                                \
    if (tb_e_ != CURAND_STATUS_SUCCESS)                                                           \
      return tb_curand_status(tb_e_, #call);                                                      \
  } while (0)

/* Check the block size against kernel k and choose the blocks per option:
 * one, or for the many-blocks kernels (groups of w normals) grid / options
 * with an explicit grid, else enough for about four waves of the GPU, and no
 * more than there are groups for every thread. */
template <typename K> int tb_mc_blocks(tb_ctx_t *ctx, K kernel, int w, bool many, int *bpo)
{
  const tb_mc_t *m = (const tb_mc_t *)ctx->p->priv;
  const int64_t n = ctx->p->n;
  const int block = tb_gpu_block(ctx), asked = tb_gpu_grid_asked(ctx);
  if (block % 32)
    return tb_fail(TB_EUNSUP, "the block reduction needs a multiple of 32, not %d", block);
  int per_sm = 0;
  int rc = tb_gpu_fit(ctx, kernel, 0, NULL, many ? &per_sm : NULL);
  if (rc)
    return rc;
  int64_t b = 1;
  if (many) {
    const int64_t waves = 4 * (int64_t)(per_sm > 0 ? per_sm : 1) * tb_gpu_dev(ctx)->sms;
    const int64_t most = ((m->samples + w - 1) / w + block - 1) / block;
    b = asked > 0 ? asked / n : (waves + n - 1) / n;
    b = b < most ? b : most;
    b = b > 1 ? b : 1;
  }
  if (n * b > 0x7fffffff)
    return tb_fail(TB_EUNSUP, "%lld options x %lld blocks exceed the grid limit", (long long)n,
                   (long long)b);
  *bpo = (int)b;
  tb_tune_resolved(ctx, "grid", (double)(n * b));
  return TB_OK;
}

/* The fused kernels' blocks per option (DIRECT: one), for the source the row
 * takes: the tables' where st->tab is set (double only). */
template <typename T, bool DIRECT>
int tb_mc_fused_blocks(tb_ctx_t *ctx, const tb_mc_gpu_state *st, int *bpo)
{
  const tb_mc_t *m = (const tb_mc_t *)ctx->p->priv;
  if constexpr (std::is_same<T, double>::value)
    if (st->tab)
      return st->logtab ? tb_mc_blocks(ctx, tb_mc_kernel<T, tb_src_philox_tab<true>, DIRECT>(m),
                                       TB_MC_W_F64, !DIRECT, bpo)
                        : tb_mc_blocks(ctx, tb_mc_kernel<T, tb_src_philox_tab<false>, DIRECT>(m),
                                       TB_MC_W_F64, !DIRECT, bpo);
  return tb_mc_blocks(ctx, tb_mc_kernel<T, tb_src_philox<T>, DIRECT>(m), tb_opt<T>::w, !DIRECT,
                      bpo);
}

/* Launch the fused kernel of the row (as tb_mc_fused_blocks chose it) on
 * blocks b0 .. b0 + grid - 1 of options x bpo. */
template <typename T, bool DIRECT>
void tb_mc_fused_launch(const tb_ctx_t *ctx, const tb_mc_gpu_state *st, int64_t grid, int bpo,
                        int64_t b0, const tb_opt_in<T> &in, T *price, T *se)
{
  const tb_mc_t *m = (const tb_mc_t *)ctx->p->priv;
  const int block = tb_gpu_block(ctx);
  cudaStream_t stream = tb_gpu_stream(ctx);
  if constexpr (std::is_same<T, double>::value)
    if (st->tab) {
      if (st->logtab) {
        tb_src_philox_tab<true> src = {ctx->p->seed, st->tab, NULL, false};
        tb_mc_kernel<T, tb_src_philox_tab<true>, DIRECT>(m)<<<(unsigned)grid, block, 0, stream>>>(
            src, in, m->samples, bpo, b0, st->partial, price, se);
      } else {
        tb_src_philox_tab<false> src = {ctx->p->seed, st->tab, NULL, false};
        tb_mc_kernel<T, tb_src_philox_tab<false>, DIRECT>(m)<<<(unsigned)grid, block, 0,
                                                              stream>>>(
            src, in, m->samples, bpo, b0, st->partial, price, se);
      }
      return;
    }
  tb_src_philox<T> src = {ctx->p->seed};
  tb_mc_kernel<T, tb_src_philox<T>, DIRECT>(m)<<<(unsigned)grid, block, 0, stream>>>(
      src, in, m->samples, bpo, b0, st->partial, price, se);
}

template <typename T> int tb_mc_prepare_t(tb_ctx_t *ctx, int kind, tb_mc_gpu_state *st)
{
  const tb_mc_t *m = (const tb_mc_t *)ctx->p->priv;
  const int64_t n = ctx->p->n;
  st->wide = m->samples % tb_src_mem<T, true>::w == 0;
  if (kind != TB_MC_TWOSTEP) {
    const int tables =
        std::is_same<T, double>::value ? (int)tb_tune(ctx, "tables")->i : TB_MC_TABLES_NONE;
    if (tables != TB_MC_TABLES_NONE) {
      double h[TB_MC_TAB_N];
      tb_mcexp_table(h + TB_MC_TAB_EXP);
      tb_mclog_table(h + TB_MC_TAB_C, h + TB_MC_TAB_L);
      TB_CUDA(cudaMalloc(&st->tab, sizeof h));
      /* On the kernels' stream: a plain cudaMemcpy from pageable memory may
       * return before its DMA lands, and the kernels' non-blocking stream
       * would not wait for it. The call stages h before it returns. */
      TB_CUDA(cudaMemcpyAsync(st->tab, h, sizeof h, cudaMemcpyHostToDevice, tb_gpu_stream(ctx)));
      st->logtab = tables == TB_MC_TABLES_ALL;
    }
    tb_tune_resolved(ctx, "tables", tables);
  }
  const bool fused = kind == TB_MC_FUSED || kind == TB_MC_MPI;
  int rc = kind == TB_MC_FUSED1B ? tb_mc_fused_blocks<T, true>(ctx, st, &st->bpo)
           : fused               ? tb_mc_fused_blocks<T, false>(ctx, st, &st->bpo)
           : st->wide
               ? tb_mc_blocks(ctx, tb_mc_kernel<T, tb_src_mem<T, true>, false>(m),
                              tb_src_mem<T, true>::w, true, &st->bpo)
               : tb_mc_blocks(ctx, tb_mc_kernel<T, tb_src_mem<T, false>, false>(m),
                              1, true, &st->bpo);
  if (rc)
    return rc;
  st->grid = (int)(n * st->bpo);
  if (kind != TB_MC_FUSED1B)
    TB_CUDA(cudaMalloc(&st->partial, (size_t)st->grid * 2 * sizeof(double)));
  st->b_lo = 0;
  st->b_hi = st->grid;
  if (kind == TB_MC_MPI) {
    tb_mpi_share(st->grid, tb_mpi_rank(), &st->b_lo, &st->b_hi);
    st->aware = tb_mpi_cuda_aware();
    if (!st->aware)
      TB_CUDA(cudaMallocHost(&st->host, (size_t)st->grid * 2 * sizeof(double)));
  }
  if (kind == TB_MC_TWOSTEP) {
    st->nnormals = (n * m->samples + 1) / 2 * 2;
    TB_CUDA(cudaMalloc(&st->normals, (size_t)st->nnormals * sizeof(T)));
    TB_CURAND(curandCreateGenerator(&st->gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    st->have_gen = true;
    TB_CURAND(curandSetPseudoRandomGeneratorSeed(st->gen, ctx->p->seed));
    TB_CURAND(curandSetStream(st->gen, tb_gpu_stream(ctx)));
  }
  return TB_OK;
}

/* cuRAND's normals, in float or double. */
curandStatus_t tb_curand_normals(curandGenerator_t g, float *z, size_t n)
{
  return curandGenerateNormal(g, z, n, 0.0f, 1.0f);
}

curandStatus_t tb_curand_normals(curandGenerator_t g, double *z, size_t n)
{
  return curandGenerateNormalDouble(g, z, n, 0.0, 1.0);
}

template <typename T> int tb_mc_run_t(tb_ctx_t *ctx, int kind)
{
  const tb_mc_t *m = (const tb_mc_t *)ctx->p->priv;
  const tb_mc_gpu_state *st = (const tb_mc_gpu_state *)ctx->state;
  cudaStream_t stream = tb_gpu_stream(ctx);
  const int grid = st->grid, block = tb_gpu_block(ctx);
  const tb_opt_in<T> in = tb_opt_in_of<T>(ctx, &m->in);
  T *price = (T *)ctx->buf[m->price], *se = (T *)ctx->buf[m->se];
  if (kind == TB_MC_TWOSTEP) {
    /* Every run draws the same normals: the generator restarts at offset 0. */
    TB_CURAND(curandSetGeneratorOffset(st->gen, 0));
    TB_CURAND(tb_curand_normals(st->gen, (T *)st->normals, (size_t)st->nnormals));
    if (st->wide) {
      tb_src_mem<T, true> src = {(const T *)st->normals, m->samples};
      tb_mc_kernel<T, tb_src_mem<T, true>, false>(m)<<<grid, block, 0, stream>>>(
          src, in, m->samples, st->bpo, 0, st->partial, price, se);
    } else {
      tb_src_mem<T, false> src = {(const T *)st->normals, m->samples};
      tb_mc_kernel<T, tb_src_mem<T, false>, false>(m)<<<grid, block, 0, stream>>>(
          src, in, m->samples, st->bpo, 0, st->partial, price, se);
    }
    TB_CUDA_LAUNCH("monte carlo payoffs");
  } else {
    if (kind == TB_MC_FUSED1B)
      tb_mc_fused_launch<T, true>(ctx, st, grid, 1, 0, in, price, se);
    else if (st->b_hi > st->b_lo)
      tb_mc_fused_launch<T, false>(ctx, st, st->b_hi - st->b_lo, st->bpo, st->b_lo, in, price, se);
    TB_CUDA_LAUNCH("monte carlo fused");
  }
  if (kind == TB_MC_MPI) {
    /* Every rank's block sums into every rank's partial array. */
    const size_t bytes = (size_t)grid * 2 * sizeof(double);
    int rc;
    if (st->aware) {
      TB_CUDA(cudaStreamSynchronize(stream));
      rc = tb_mpi_allgather_bytes(st->partial, grid, 2 * sizeof(double));
    } else {
      TB_CUDA(cudaMemcpyAsync(st->host, st->partial, bytes, cudaMemcpyDeviceToHost, stream));
      TB_CUDA(cudaStreamSynchronize(stream));
      if (!(rc = tb_mpi_allgather_bytes(st->host, grid, 2 * sizeof(double))))
        TB_CUDA(cudaMemcpyAsync(st->partial, st->host, bytes, cudaMemcpyHostToDevice, stream));
    }
    if (rc)
      return rc;
  }
  if (kind != TB_MC_FUSED1B) {
    const int64_t n = ctx->p->n;
    const int final_grid = (int)((n + tb_mc_final_block - 1) / tb_mc_final_block);
    tb_k_mc_final<T><<<final_grid, tb_mc_final_block, 0, stream>>>(in, m->samples, st->bpo, n,
                                                            st->partial, price, se);
    TB_CUDA_LAUNCH("monte carlo final sums");
  }
  return TB_OK;
}

void tb_mc_release(tb_ctx_t *ctx)
{
  tb_mc_gpu_state *st = (tb_mc_gpu_state *)ctx->state;
  if (st) {
    cudaFree(st->partial);
    cudaFree(st->tab);
    cudaFree(st->normals);
    cudaFreeHost(st->host);
    if (st->have_gen)
      curandDestroyGenerator(st->gen);
  }
  free(st);
  ctx->state = NULL;
}

template <int KIND> int tb_mc_prepare(tb_ctx_t *ctx)
{
  tb_mc_gpu_state *st = (tb_mc_gpu_state *)calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  return ctx->p->prec == TB_FLOAT ? tb_mc_prepare_t<float>(ctx, KIND, st)
                                  : tb_mc_prepare_t<double>(ctx, KIND, st);
}

template <int KIND> int tb_mc_run(tb_ctx_t *ctx)
{
  return ctx->p->prec == TB_FLOAT ? tb_mc_run_t<float>(ctx, KIND) : tb_mc_run_t<double>(ctx, KIND);
}

/* twostep and fused: several blocks per option; fused1b: one. The fused
 * kernels choose their exponential too. */
#define TB_MC_GRID_PARAM                                                                          \
  TB_GPU_GRID("the options times enough blocks each for about 4 waves of resident blocks, "      \
              "at most one group of paths per thread; a number is divided among the options")
const tb_param_def_t tb_mc_gpu_tuning[] = {
    TB_GPU_BLOCK("256"),
    TB_MC_GRID_PARAM,
};
const tb_param_def_t tb_mc_gpu_tuning_fused[] = {
    TB_GPU_BLOCK("256"),
    TB_MC_GRID_PARAM,
    TB_MC_TABLES_PARAM,
};
const tb_param_def_t tb_mc_gpu_tuning_1b[] = {
    TB_GPU_BLOCK("256"),
    TB_MC_TABLES_PARAM,
};

const unsigned tb_mc_precs = TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE);

TB_VARIANT(tb_mc_twostep, "twostep", &tb_algo_montecarlo, tb_mc_precs, 0, tb_mc_gpu_tuning,
           TB_COUNT(tb_mc_gpu_tuning), tb_mc_prepare<TB_MC_TWOSTEP>, tb_mc_run<TB_MC_TWOSTEP>,
           NULL, tb_mc_release,
           "cuRAND (Philox4_32_10) normals to memory, then payoffs, many blocks per option");
TB_VARIANT(tb_mc_fused, "fused", &tb_algo_montecarlo, tb_mc_precs, 0, tb_mc_gpu_tuning_fused,
           TB_COUNT(tb_mc_gpu_tuning_fused), tb_mc_prepare<TB_MC_FUSED>, tb_mc_run<TB_MC_FUSED>,
           NULL, tb_mc_release,
           "Philox normals and payoffs in one kernel, many blocks per option, sums reduced on "
           "the GPU");
TB_VARIANT(tb_mc_fused1b, "fused1b", &tb_algo_montecarlo, tb_mc_precs, 0, tb_mc_gpu_tuning_1b,
           TB_COUNT(tb_mc_gpu_tuning_1b), tb_mc_prepare<TB_MC_FUSED1B>,
           tb_mc_run<TB_MC_FUSED1B>, NULL, tb_mc_release,
           "Philox normals and payoffs in one kernel, one block per option");
TB_VARIANT(tb_mc_mpi, "mpi", &tb_algo_montecarlo, tb_mc_precs, TB_V_MPI, tb_mc_gpu_tuning_fused,
           TB_COUNT(tb_mc_gpu_tuning_fused), tb_mc_prepare<TB_MC_MPI>, tb_mc_run<TB_MC_MPI>, NULL,
           tb_mc_release,
           "MPI ranks: fused's blocks split over the ranks, their sums gathered, added in block "
           "order on every rank (fused's prices bit for bit)");

} /* namespace */

TB_VARIANT_LIST(montecarlo, gpu, &tb_mc_twostep, &tb_mc_fused, &tb_mc_fused1b, &tb_mc_mpi);
