/* twinbench: the reduction family's OpenMP twins.
 *
 * serial    one running sum (the order whose float error grows with n);
 * omp       parallel for with reduction(+), static schedule;
 * simd      parallel for simd with reduction(+): vector lanes per thread;
 * padded    the hand-written pattern the reduction clause replaces: each
 *           thread accumulates its share (tb_cpu_share, the split of the
 *           first touch) in its own slot of a shared array, one cache line
 *           per slot so that no two threads write the same line, and one
 *           thread adds the slots in order;
 * pairwise  each thread sums its share by recursive halving down to blocks
 *           of 64 summed in 8 vector lanes, the thread sums by halving too:
 *           depth O(log n), so float error stays small at any n;
 * mpi       distributed over MPI ranks (tbmpi.h): each rank sums its share
 *           of the inputs (tb_mpi_share) as pairwise does, then the ranks'
 *           sums are added with MPI_Allreduce. int32 sums are exact, so the
 *           result is the same bit for bit at any rank count.
 * Every variant accumulates in the problem's precision and states the depth
 * of its order (the longest chain of additions), from which the verifier
 * derives its tolerance. */
#include <config.h>

#include <omp.h>
#include <stdlib.h>

#include "../common/refmath.h"
#include "../common/tbmpi.h"
#include "../families/reduce.h"
#include "cpu.h"

/* One thread's partial sum, alone on its cache line. */
typedef struct tb_reduce_slot {
  union {
    int32_t i;
    float f;
    double d;
  } v;
  char pad[64 - sizeof(double)];
} tb_reduce_slot_t;

enum { TB_PAIRWISE_BASE = 64, TB_PAIRWISE_LANES = 8 };

/* A running sum s += x[i] under PRAGMA: an OpenMP _Pragma, or nothing (one thread). */
#define TB_REDUCE_LOOP(NAME, T, M, PRAGMA)                                                      \
  static void tb_##NAME##_##M(const void *xv, int64_t n, int threads, tb_reduce_slot_t *slot,   \
                              void *out)                                                        \
  {                                                                                             \
    const T *restrict x = xv;                                                                   \
    T s = 0;                                                                                    \
    (void)threads;                                                                              \
    (void)slot;                                                                                 \
    PRAGMA                                                                                      \
    for (int64_t i = 0; i < n; i++)                                                             \
      s += x[i];                                                                                \
    *(T *)out = s;                                                                              \
  }

/* The kernels for element type T, whose slot member is M; each writes the
 * sum to out. */
#define TB_REDUCE_KERNELS(T, M)                                                                 \
  TB_REDUCE_LOOP(serial, T, M, )                                                                \
  TB_REDUCE_LOOP(                                                                               \
      omp, T, M,                                                                                \
      _Pragma("omp parallel for schedule(static) num_threads(threads) reduction(+ : s)"))       \
  TB_REDUCE_LOOP(                                                                               \
      simd, T, M,                                                                               \
      _Pragma("omp parallel for simd schedule(static) num_threads(threads) reduction(+ : s)"))  \
                                                                                                \
  /* Pairwise: halves down to TB_PAIRWISE_BASE elements, which are summed in */                \
  /* TB_PAIRWISE_LANES independent lanes (one vector) and a tree of the lanes. */               \
  static T tb_pairwise_sum_##M(const T *restrict x, int64_t m)                                  \
  {                                                                                             \
    if (m > TB_PAIRWISE_BASE) {                                                                 \
      int64_t h = m / 2;                                                                        \
      return tb_pairwise_sum_##M(x, h) + tb_pairwise_sum_##M(x + h, m - h);                     \
    }                                                                                           \
    T l[TB_PAIRWISE_LANES] = {0};                                                               \
    int64_t i = 0;                                                                              \
    for (; i + TB_PAIRWISE_LANES <= m; i += TB_PAIRWISE_LANES)                                  \
      for (int k = 0; k < TB_PAIRWISE_LANES; k++)                                               \
        l[k] += x[i + k];                                                                       \
    for (int k = 0; i + k < m; k++)                                                             \
      l[k] += x[i + k];                                                                         \
    return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));                   \
  }                                                                                             \
                                                                                                \
  /* Each thread's share (the split of the first touch) into its slot: one */                  \
  /* running sum kept in the slot (padded), or the pairwise sum. */                             \
  static void tb_shares_##M(const T *x, int64_t n, int threads, tb_reduce_slot_t *slot,         \
                            int pairwise)                                                       \
  {                                                                                             \
    for (int t = 0; t < threads; t++)                                                           \
      slot[t].v.M = 0;                                                                          \
    _Pragma("omp parallel num_threads(threads)")                                                \
    {                                                                                           \
      int64_t lo, hi;                                                                           \
      int t = omp_get_thread_num();                                                             \
      tb_cpu_share(n, omp_get_num_threads(), t, &lo, &hi);                                      \
      if (pairwise)                                                                             \
        slot[t].v.M = tb_pairwise_sum_##M(x + lo, hi - lo);                                     \
      else                                                                                      \
        for (int64_t i = lo; i < hi; i++)                                                       \
          slot[t].v.M += x[i];                                                                  \
    }                                                                                           \
  }                                                                                             \
                                                                                                \
  static void tb_padded_##M(const void *xv, int64_t n, int threads, tb_reduce_slot_t *slot,     \
                            void *out)                                                          \
  {                                                                                             \
    T s = 0;                                                                                    \
    tb_shares_##M(xv, n, threads, slot, 0);                                                     \
    for (int t = 0; t < threads; t++)                                                           \
      s += slot[t].v.M;                                                                         \
    *(T *)out = s;                                                                              \
  }                                                                                             \
                                                                                                \
  /* The per-thread sums s[0..m) (on padded slots) added by halving. */                         \
  static T tb_pairwise_slots_##M(const tb_reduce_slot_t *s, int m)                              \
  {                                                                                             \
    if (m == 1)                                                                                 \
      return s[0].v.M;                                                                          \
    return tb_pairwise_slots_##M(s, m / 2) + tb_pairwise_slots_##M(s + m / 2, m - m / 2);       \
  }                                                                                             \
                                                                                                \
  static void tb_pairwise_##M(const void *xv, int64_t n, int threads, tb_reduce_slot_t *slot,   \
                              void *out)                                                        \
  {                                                                                             \
    tb_shares_##M(xv, n, threads, slot, 1);                                                     \
    *(T *)out = tb_pairwise_slots_##M(slot, threads);                                           \
  }

TB_REDUCE_KERNELS(int32_t, i)
TB_REDUCE_KERNELS(float, f)
TB_REDUCE_KERNELS(double, d)

typedef void (*tb_reduce_cpu_fn)(const void *x, int64_t n, int threads, tb_reduce_slot_t *slot,
                                 void *out);

enum { TB_RV_SERIAL, TB_RV_OMP, TB_RV_SIMD, TB_RV_PADDED, TB_RV_PAIRWISE, TB_RV_MPI };

/* The kernels by variant and precision (TB_INT32, TB_FLOAT, TB_DOUBLE). */
static const tb_reduce_cpu_fn tb_reduce_cpu_fns[][TB_NPREC] = {
    [TB_RV_SERIAL] = {tb_serial_i, tb_serial_f, tb_serial_d},
    [TB_RV_OMP] = {tb_omp_i, tb_omp_f, tb_omp_d},
    [TB_RV_SIMD] = {tb_simd_i, tb_simd_f, tb_simd_d},
    [TB_RV_PADDED] = {tb_padded_i, tb_padded_f, tb_padded_d},
    [TB_RV_PAIRWISE] = {tb_pairwise_i, tb_pairwise_f, tb_pairwise_d},
    [TB_RV_MPI] = {tb_pairwise_i, tb_pairwise_f, tb_pairwise_d},
};

/* The depth of tb_pairwise_sum over m elements: a base block of m <= 64 has
 * lanes of at most ceil(m / 8) additions and a tree of 3 levels; each halving
 * adds one level above its larger half. */
static int64_t tb_pairwise_depth(int64_t m)
{
  return m <= TB_PAIRWISE_BASE ? (m + TB_PAIRWISE_LANES - 1) / TB_PAIRWISE_LANES + 3
                               : 1 + tb_pairwise_depth(m - m / 2);
}

/* The longest addition chain of a variant's order for n elements on a team
 * of `threads`. serial: n. omp, simd, padded: a thread's share is summed into
 * its zero-started partial in some order (at most ceil(n / threads) additions
 * whatever the vector lanes do), then the partials into a zero-started total
 * (at most threads additions). pairwise: its halving depth over a share, then
 * ceil(log2 threads) to add the shares. mpi: pairwise over the largest
 * rank's share, then at most size - 1 additions of the ranks' sums (the
 * all-reduce's order is the library's). */
static int64_t tb_reduce_cpu_depth(int kind, int64_t n, int threads)
{
  int64_t share = (n + threads - 1) / threads;
  const int size = tb_mpi_size();
  switch (kind) {
  case TB_RV_SERIAL: return n;
  case TB_RV_PAIRWISE: return tb_pairwise_depth(share) + tb_log2_ceil(threads);
  case TB_RV_MPI:
    return tb_reduce_cpu_depth(TB_RV_PAIRWISE, (n + size - 1) / size, threads) + size - 1;
  default: return share + threads;
  }
}

static int tb_reduce_cpu_prepare(tb_ctx_t *ctx, int kind)
{
  if (kind == TB_RV_PADDED || kind == TB_RV_PAIRWISE || kind == TB_RV_MPI) {
    ctx->state =
        aligned_alloc(sizeof(tb_reduce_slot_t), (size_t)tb_cpu_threads(ctx) * sizeof(tb_reduce_slot_t));
    if (!ctx->state)
      return tb_fail(TB_ENOMEM, "out of memory");
  }
  ctx->extra[TB_REDUCE_DEPTH] =
      (double)tb_reduce_cpu_depth(kind, ctx->p->n, tb_cpu_threads(ctx));
  return TB_OK;
}

static int tb_reduce_cpu_run(tb_ctx_t *ctx, int kind)
{
  const tb_reduce_t *r = ctx->p->priv;
  const tb_kind_t k = tb_prec_kind(ctx->p->prec);
  int64_t lo = 0, hi = ctx->p->n;
  if (kind == TB_RV_MPI)
    tb_mpi_share(ctx->p->n, tb_mpi_rank(), &lo, &hi);
  tb_reduce_cpu_fns[kind][ctx->p->prec]((const char *)ctx->buf[r->x] + lo * tb_kind_size(k),
                                        hi - lo, tb_cpu_threads(ctx), ctx->state,
                                        ctx->buf[r->sum]);
  return kind == TB_RV_MPI ? tb_mpi_allreduce_sum(ctx->buf[r->sum], 1, k) : TB_OK;
}

static void tb_reduce_cpu_release(tb_ctx_t *ctx)
{
  free(ctx->state);
  ctx->state = NULL;
}

#define TB_REDUCE_ALL (TB_PREC_BIT(TB_INT32) | TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE))

/* One registered variant of kind KIND. */
#define TB_REDUCE_CPU_VARIANT(NAME, KIND, FLAGS, SUMMARY)                                       \
  static int tb_reduce_prepare_##NAME(tb_ctx_t *ctx)                                            \
  {                                                                                             \
    return tb_reduce_cpu_prepare(ctx, KIND);                                                    \
  }                                                                                             \
  static int tb_reduce_run_##NAME(tb_ctx_t *ctx)                                                \
  {                                                                                             \
    return tb_reduce_cpu_run(ctx, KIND);                                                        \
  }                                                                                             \
  TB_VARIANT(tb_reduce_cpu_##NAME, #NAME, &tb_algo_reduce, TB_REDUCE_ALL, FLAGS, NULL, 0,       \
             tb_reduce_prepare_##NAME, tb_reduce_run_##NAME, NULL, tb_reduce_cpu_release, SUMMARY);

TB_REDUCE_CPU_VARIANT(serial, TB_RV_SERIAL, TB_V_SERIAL, "one thread, one running sum (depth n)")
TB_REDUCE_CPU_VARIANT(omp, TB_RV_OMP, 0, "parallel for reduction(+), static schedule")
TB_REDUCE_CPU_VARIANT(simd, TB_RV_SIMD, 0, "parallel for simd reduction(+), static schedule")
TB_REDUCE_CPU_VARIANT(padded, TB_RV_PADDED, 0,
                      "per-thread partial sums in cache-line padded slots, added in order")
TB_REDUCE_CPU_VARIANT(pairwise, TB_RV_PAIRWISE, 0,
                      "pairwise (recursive halving) per thread and across threads: depth O(log n)")
TB_REDUCE_CPU_VARIANT(mpi, TB_RV_MPI, TB_V_MPI,
                      "MPI ranks: pairwise over each rank's share, then MPI_Allreduce")

TB_VARIANT_LIST(reduce, cpu, &tb_reduce_cpu_serial, &tb_reduce_cpu_omp, &tb_reduce_cpu_simd,
                &tb_reduce_cpu_padded, &tb_reduce_cpu_pairwise, &tb_reduce_cpu_mpi);
