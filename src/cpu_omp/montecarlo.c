/* twinbench: the Monte Carlo family's OpenMP twin: parallel over (option,
 * chunk) work items: a chunk is TB_MC_CHUNK Philox groups of one option,
 * summed by one thread (a simd loop over the groups, in double); each
 * option's chunk sums are then added in chunk order. Every sum is formed the
 * same way at any team size, so the prices do not depend on the thread count
 * at all (bit for bit). A chunk's Philox blocks are made first, eight at a
 * time in 64-bit lanes (vphilox.h), into four word arrays in L1; the simd
 * loop over the groups then reads them and runs the formulas of
 * options_math.h with vexp.h's inlined exp, log and sincos (options_cpu.h):
 * no call in the loop.
 *
 * mpi: the same work items split over MPI ranks (tbmpi.h): each rank makes
 * its share of the items (tb_mpi_share), MPI_Allgatherv gives every rank
 * every item's sums, and each option's sums are added in chunk order as
 * above. The items are the same Philox counters whoever makes them, so the
 * prices are the one-rank prices bit for bit at any rank count. */
#include <config.h>

/* First: it sets the vector width for everything after it. */
#include "options_cpu.h"

#include <stdlib.h>

#include "../common/tbmpi.h"
#include "cpu.h"
#include "vphilox.h"

#include "../families/options.h"

/* The loops parameter's values (tb_mc_omp_tuning). */
enum { TB_MC_LOOPS_TWO, TB_MC_LOOPS_ONE };

/* A chunk's Philox words fill whole vectors of blocks (vphilox.h rounds its
 * count up to them). */
_Static_assert(TB_MC_CHUNK % TB_VPHILOX_LANES == 0, "a chunk is whole vectors of Philox blocks");

/* A group's normals into (tb_mc_zput) and out of (tb_mc_zget) column i of
 * a chunk's normal arrays z[0..W-1]. Functions, not statements in the simd
 * loops: OpenMP's lowering, which runs before inlining and unrolling, would
 * keep a loop's local group, indexed by a variable j, in memory (one copy
 * per lane), and the loop would not vectorize. */
#define TB_MC_ZMOVE(T, TZ, SFX, W)                                                                \
  static inline void tb_mc_zput_##SFX(T (*z)[TB_MC_CHUNK], int64_t i, TZ v)                       \
  {                                                                                               \
    for (int j = 0; j < (W); j++)                                                                 \
      z[j][i] = v.v[j];                                                                           \
  }                                                                                               \
  static inline TZ tb_mc_zget_##SFX(T (*z)[TB_MC_CHUNK], int64_t i)                               \
  {                                                                                               \
    TZ v;                                                                                         \
    for (int j = 0; j < (W); j++)                                                                 \
      v.v[j] = z[j][i];                                                                           \
    return v;                                                                                     \
  }
TB_MC_ZMOVE(float, tb_mc_fz_t, f32, TB_MC_W_F32)
TB_MC_ZMOVE(double, tb_mc_dz_t, f64, TB_MC_W_F64)
#undef TB_MC_ZMOVE

/* The samples loop of TB_MC_CHUNK_SUM over the chunk's normals z, by the
 * sums function FN of one instance of the formulas. */
#define TB_MC_ZSUM_LOOP(FN, SFX, W, PUT, ANTI, FAST)                                              \
  {                                                                                               \
    _Pragma("omp simd reduction(+ : a, b)")                                                       \
    for (int64_t i = 0; i < m; i++) {                                                             \
      const tb_mc_sum_t y = FN(tb_mc_zget_##SFX(z, i), W, s, x, mu, sig, PUT, ANTI, FAST);        \
      a += y.s1;                                                                                  \
      b += y.s2;                                                                                  \
    }                                                                                             \
  }

/* The sums of the samples of the m full Philox groups whose words w[0..3]
 * holds. One function per payoff, antithetic and math choice (PUT, ANTI,
 * FAST constants), so that each loop is straight-line code the vectorizer
 * takes. With two (the loops parameter), two simd loops: the groups'
 * normals into z (in L1), then their samples' sums (with `in`, an option
 * whose exponents stay in range, by the in_cpu_ instance's exponential:
 * options_cpu.h); else one loop for both. One loop for both made a
 * vector's dependency chain (the uniform, the log, the square root, a
 * normal, its exponential, the payoff, the sums: some 190 cycles on Intel's cores by llvm-mca) longer than the
 * out-of-order window reaches over (a vector's 310 micro-operations fill
 * it), so successive vectors hardly overlapped; each loop alone has half
 * the chain and half the micro-operations, and its vectors overlap (the
 * counts in doc/options.md, "Seventh pass"). The arithmetic is the same, in
 * the same order (float sums came out the one loop's bit for bit; in double
 * the compiler may pair a sum of two squares into a fused multiply-add the
 * other way round, a last-bit change), and still the same at any team size. */
#define TB_MC_CHUNK_SUM(T, SFX, W, PUT, ANTI, FAST)                                               \
  static void tb_mc_chunk_##SFX##_##PUT##ANTI##FAST(const uint32_t *const w[4],                 \
                                                    T (*z)[TB_MC_CHUNK], T s, T x, T mu, T sig,  \
                                                    int64_t m, int two, int in, double *sum)      \
  {                                                                                               \
    const uint32_t *w0 = w[0], *w1 = w[1], *w2 = w[2], *w3 = w[3];                                \
    double a = 0.0, b = 0.0;                                                                      \
    if (two) {                                                                                    \
      _Pragma("omp simd")                                                                         \
      for (int64_t i = 0; i < m; i++) {                                                           \
        const tb_philox4_t q = {{w0[i], w1[i], w2[i], w3[i]}};                                    \
        tb_mc_zput_##SFX(z, i, tb_mc_normals_cpu_##SFX(q, FAST));                                  \
      }                                                                                           \
      if (in)                                                                                     \
        TB_MC_ZSUM_LOOP(tb_mc_zsum_in_cpu_##SFX, SFX, W, PUT, ANTI, FAST)                         \
      else                                                                                        \
        TB_MC_ZSUM_LOOP(tb_mc_zsum_cpu_##SFX, SFX, W, PUT, ANTI, FAST)                            \
    } else {                                                                                      \
      _Pragma("omp simd reduction(+ : a, b)")                                                     \
      for (int64_t i = 0; i < m; i++) {                                                           \
        const tb_philox4_t q = {{w0[i], w1[i], w2[i], w3[i]}};                                    \
        const tb_mc_sum_t y = tb_mc_words_cpu_##SFX(q, W, s, x, mu, sig, PUT, ANTI, FAST);        \
        a += y.s1;                                                                                \
        b += y.s2;                                                                                \
      }                                                                                           \
    }                                                                                             \
    sum[0] = a;                                                                                   \
    sum[1] = b;                                                                                   \
  }

/* Work item `it`: chunk it % chunks of option it / chunks (its full groups,
 * then the option's last, partial group if the chunk holds it); and option
 * o's price and standard error from its chunk sums, added in chunk order. */
#define TB_MC_OMP(T, SFX, W)                                                                      \
  TB_OPTIONS_EACH8(TB_MC_CHUNK_SUM, T, SFX, W)                                                    \
                                                                                                  \
  static void tb_mc_item_##SFX(const tb_ctx_t *ctx, int64_t it, int64_t chunks, int loops,     \
                               double *sum)                                                       \
  {                                                                                               \
    static void (*const chunk[8])(const uint32_t *const[4], T(*)[TB_MC_CHUNK], T, T, T, T,      \
                                  int64_t, int, int, double *) = {                                \
        tb_mc_chunk_##SFX##_000, tb_mc_chunk_##SFX##_001, tb_mc_chunk_##SFX##_010,                \
        tb_mc_chunk_##SFX##_011, tb_mc_chunk_##SFX##_100, tb_mc_chunk_##SFX##_101,                \
        tb_mc_chunk_##SFX##_110, tb_mc_chunk_##SFX##_111};                                        \
    const tb_mc_t *m = ctx->p->priv;                                                              \
    const int64_t o = it / chunks, c = it % chunks, groups = (m->samples + (W)-1) / (W);          \
    const int64_t full = m->samples / (W), g0 = c * TB_MC_CHUNK;                                  \
    const int64_t g1 = g0 + TB_MC_CHUNK < groups ? g0 + TB_MC_CHUNK : groups;                     \
    const int64_t end = g1 < full ? g1 : full;                                                    \
    const T s = ((const T *)ctx->buf[m->in.s])[o], x = ((const T *)ctx->buf[m->in.x])[o];          \
    const T t = ((const T *)ctx->buf[m->in.t])[o];                                                \
    const T r = m->in.r >= 0 ? ((const T *)ctx->buf[m->in.r])[o] : (T)m->in.r0;                  \
    const T v = m->in.v >= 0 ? ((const T *)ctx->buf[m->in.v])[o] : (T)m->in.v0;                  \
    T mu, sig;                                                                                    \
    tb_mc_drift_cpu_##SFX(t, r, v, m->fast, &mu, &sig);                                           \
    _Alignas(64) uint32_t words[4][TB_MC_CHUNK];                                                  \
    uint32_t *const w[4] = {words[0], words[1], words[2], words[3]};                              \
    _Alignas(64) T z[W][TB_MC_CHUNK];                                                             \
    tb_vphilox_blocks(ctx->p->seed, TB_MC_STREAM, (uint32_t)o, (uint32_t)g0, end - g0, w);       \
    chunk[4 * m->put + 2 * m->anti + m->fast]((const uint32_t *const *)w, z, s, x, mu, sig,       \
                                              end - g0, loops == TB_MC_LOOPS_TWO,                 \
                                              tb_mc_exp_in(mu, sig, ctx->p->prec, m->fast), sum); \
    if (g1 > full) {                                                                              \
      const tb_mc_sum_t y = tb_mc_group_cpu_##SFX(ctx->p->seed, (uint64_t)o, (uint64_t)full,      \
                                                  (int)(m->samples - full * (W)), s, x, mu, sig,  \
                                                  m->put, m->anti, m->fast);                      \
      sum[0] += y.s1;                                                                             \
      sum[1] += y.s2;                                                                             \
    }                                                                                             \
  }                                                                                               \
                                                                                                  \
  static void tb_mc_option_##SFX(const tb_ctx_t *ctx, int64_t o, int64_t chunks,                 \
                                 const double *part)                                              \
  {                                                                                               \
    const tb_mc_t *m = ctx->p->priv;                                                              \
    const T t = ((const T *)ctx->buf[m->in.t])[o];                                                \
    const T r = m->in.r >= 0 ? ((const T *)ctx->buf[m->in.r])[o] : (T)m->in.r0;                  \
    double s1 = 0.0, s2 = 0.0, price, se;                                                         \
    for (int64_t c = 0; c < chunks; c++) {                                                        \
      s1 += part[2 * (o * chunks + c)];                                                           \
      s2 += part[2 * (o * chunks + c) + 1];                                                       \
    }                                                                                             \
    tb_mc_finish(s1, s2, m->samples, exp(-(double)r * (double)t), &price, &se);                   \
    ((T *)ctx->buf[m->price])[o] = (T)price;                                                      \
    ((T *)ctx->buf[m->se])[o] = (T)se;                                                            \
  }

TB_MC_OMP(float, f32, TB_MC_W_F32)
TB_MC_OMP(double, f64, TB_MC_W_F64)

/* The loops parameter: a chunk's paths in two simd loops, the normals
 * through L1 and then the samples (TB_MC_CHUNK_SUM), or in one loop for
 * both (the form before the seventh pass of doc/options.md), so that one run
 * compares them on the machine at hand. */
static const tb_param_def_t tb_mc_omp_tuning[] = {
    {"loops", "a chunk's paths in two simd loops (the normals through L1, then the samples: "
              "shorter dependency chains a vector) or one loop for both",
     TB_PARAM_CHOICE, "two", 0, 0, (const char *const[]){"two", "one", NULL}, 0, "two,one"},
};

typedef struct tb_mc_omp_state {
  int64_t chunks; /* work items per option */
  double *part;   /* the sum and sum of squares of every work item */
} tb_mc_omp_state_t;

static int tb_mc_omp_prepare(tb_ctx_t *ctx)
{
  const tb_mc_t *m = ctx->p->priv;
  tb_mc_omp_state_t *st = calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  st->chunks = tb_mc_chunks(ctx->p->prec, m->samples);
  st->part = malloc((size_t)(ctx->p->n * st->chunks) * 2 * sizeof *st->part);
  if (!st->part)
    return tb_fail(TB_ENOMEM, "cannot allocate %lld work-item sums",
                   (long long)(ctx->p->n * st->chunks));
  return TB_OK;
}

/* The work items [lo, hi) of all n * chunks, then (distributed: after every
 * rank's items are gathered by the team's main thread, the one that calls
 * MPI) every option's price. */
static int tb_mc_cpu_run(tb_ctx_t *ctx, int distributed)
{
  const tb_mc_omp_state_t *st = ctx->state;
  const int64_t n = ctx->p->n, chunks = st->chunks, items = n * chunks;
  const int single = ctx->p->prec == TB_FLOAT;
  const int loops = (int)tb_tune(ctx, "loops")->i;
  double *part = st->part;
  int64_t lo = 0, hi = items;
  int rc = TB_OK;
  if (distributed)
    tb_mpi_share(items, tb_mpi_rank(), &lo, &hi);
#pragma omp parallel num_threads(tb_cpu_threads(ctx))
  {
#pragma omp for schedule(static)
    for (int64_t it = lo; it < hi; it++) {
      if (single)
        tb_mc_item_f32(ctx, it, chunks, loops, &part[2 * it]);
      else
        tb_mc_item_f64(ctx, it, chunks, loops, &part[2 * it]);
    }
    if (distributed) {
#pragma omp master
      rc = tb_mpi_allgather_bytes(part, items, 2 * sizeof *part);
#pragma omp barrier
    }
#pragma omp for schedule(static)
    for (int64_t o = 0; o < n; o++) {
      if (single)
        tb_mc_option_f32(ctx, o, chunks, part);
      else
        tb_mc_option_f64(ctx, o, chunks, part);
    }
  }
  return rc;
}

static int tb_mc_omp_run(tb_ctx_t *ctx)
{
  return tb_mc_cpu_run(ctx, 0);
}

static int tb_mc_mpi_run(tb_ctx_t *ctx)
{
  return tb_mc_cpu_run(ctx, 1);
}

static void tb_mc_omp_release(tb_ctx_t *ctx)
{
  tb_mc_omp_state_t *st = ctx->state;
  if (st)
    free(st->part);
  free(st);
  ctx->state = NULL;
}

TB_VARIANT(tb_mc_omp, "omp", &tb_algo_montecarlo, TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
           0, tb_mc_omp_tuning, TB_COUNT(tb_mc_omp_tuning), tb_mc_omp_prepare, tb_mc_omp_run,
           NULL, tb_mc_omp_release,
           "OpenMP over (option, chunk of paths) items, simd paths, fixed-order double sums");

TB_VARIANT(tb_mc_mpi, "mpi", &tb_algo_montecarlo, TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
           TB_V_MPI, tb_mc_omp_tuning, TB_COUNT(tb_mc_omp_tuning), tb_mc_omp_prepare,
           tb_mc_mpi_run, NULL, tb_mc_omp_release,
           "MPI ranks: omp's work items split over the ranks, gathered, summed in chunk order "
           "(the one-rank prices bit for bit)");

TB_VARIANT_LIST(montecarlo, cpu, &tb_mc_omp, &tb_mc_mpi);
