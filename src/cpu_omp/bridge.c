/* twinbench: the Brownian bridge family's OpenMP twins.
 *
 * Both variants give each thread whole tiles of 32 paths (bridge.h): the
 * static split over tiles matches, to within a tile, the split over elements
 * that the backend first-touched the arrays with, and a tile is one
 * contiguous block of N d 32 normals in and as many values out.
 *
 * omp:  the tile's 32 paths at once, the lanes as the SIMD width: every step
 *       is a few vector loads from the local stack (slots x d x 32 values,
 *       in L1), a vector load of 32 normals, fused multiply-adds, and vector
 *       stores of 32 outputs and of the stack slot. The outputs go to a tile
 *       buffer that is then streamed out in address order with non-temporal
 *       stores, and the next tile's normals are prefetched in address order
 *       (staged tiles only: a longer one would evict the tile being built):
 *       the plan visits a tile's rows in its own order, which the hardware
 *       prefetchers do not follow, and plain stores would first read every
 *       output line (write-allocate). Measured on 1 and 2 cores of a Xeon VM
 *       at the table size, float paths: 106 ms without the buffer, 55 ms with
 *       it (1 core); building 2 or 4 tiles at once to overlap their
 *       dependency chains gained nothing, so a thread builds one at a time.
 * path: one path at a time, scalar, as the report's CPU code did: the stack
 *       is slots x d scalars, and the strided loads and stores hit the tile's
 *       lines, which stay in L1 over its 32 paths (about 7x slower than omp:
 *       each step waits for the one before through the stack).
 *
 * Both compute every value with the same fused operations in the same order
 * as the CUDA twins (X = fma(sig, W, fma(wr, R, wl L))), so that the two
 * backends agree to the last bit on the same normals. */
#include <config.h>

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "../families/bridge.h"
#include "../common/mem.h"
#include "cpu.h"

/* Tiles up to this size are built in a per-thread buffer and then streamed
 * out in address order (see tb_bridge_stream_out). */
#define TB_BRIDGE_STAGE_MAX (256 * 1024)

/* What prepare builds: the plan, its weights and C in the precision, and per
 * thread a stack and a tile buffer (a page apart, so no two threads share a
 * line). */
typedef struct tb_bridge_cpu {
  tb_bridge_plan_t plan;
  void *w;       /* nsteps x TB_BRIDGE_NW weights */
  void *c;       /* d x d */
  void *inv;     /* N inverse time steps, 1 / (t_i - t_{i-1}) (increments) */
  void *scratch; /* threads x stride bytes: the stack, then the tile buffer */
  size_t stride, stack_bytes, tile_bytes;
  int whole_tile; /* omp: whole tiles, the lanes as SIMD; path: a path at a time */
  int stage;      /* build tiles in the buffer */
} tb_bridge_cpu_t;

/* The non-temporal stores are vector-register wide. */
#if defined(__AVX512F__)
#define TB_BRIDGE_VB 64
#elif defined(__AVX__)
#define TB_BRIDGE_VB 32
#else
#define TB_BRIDGE_VB 16
#endif
typedef long long tb_bridge_vi __attribute__((vector_size(TB_BRIDGE_VB), __may_alias__));

/* Store one vector to dst (aligned to its size) with a non-temporal store:
 * the line is written without being read first (no write-allocate). */
static inline void tb_bridge_stream(void *dst, tb_bridge_vi v)
{
#if defined(__AVX512F__)
  _mm512_stream_si512((__m512i *)dst, (__m512i)v);
#elif defined(__AVX__)
  _mm256_stream_si256((__m256i *)dst, (__m256i)v);
#elif defined(__SSE2__)
  _mm_stream_si128((__m128i *)dst, (__m128i)v);
#else
  *(tb_bridge_vi *)dst = v;
#endif
}

/* Copy built tiles (bytes a multiple of 64, both ends 64-byte aligned) to
 * the output with non-temporal stores: whole lines in address order, where
 * the plan's order would have written them scattered over the tile. */
static void tb_bridge_stream_out(void *dst, const void *src, size_t bytes)
{
  for (size_t i = 0; i < bytes; i += TB_BRIDGE_VB)
    tb_bridge_stream((char *)dst + i, *(const tb_bridge_vi *)((const char *)src + i));
}

/* Order the non-temporal stores before the parallel region ends. */
static void tb_bridge_stream_fence(void)
{
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

#define T float
#define SFX f32
#include "bridge_kernels.h"
#undef T
#undef SFX
#define T double
#define SFX f64
#include "bridge_kernels.h"
#undef T
#undef SFX

static void tb_bridge_cpu_release(tb_ctx_t *ctx)
{
  tb_bridge_cpu_t *st = ctx->state;
  if (!st)
    return;
  tb_bridge_plan_free(&st->plan);
  free(st->w);
  free(st->c);
  free(st->inv);
  tb_free(st->scratch);
  free(st);
  ctx->state = NULL;
}

/* The plan (timed as init_ms), its weights in the precision, and the
 * threads' scratch: a stack of slots x d values for one path, times 32 for
 * a tile, and for whole tiles that are small enough a tile buffer. */
static int tb_bridge_cpu_prepare(tb_ctx_t *ctx, int whole_tile)
{
  const tb_bridge_t *b = ctx->p->priv;
  const size_t e = tb_kind_size(tb_prec_kind(ctx->p->prec));
  tb_bridge_cpu_t *st = calloc(1, sizeof *st);
  if (!st)
    return tb_fail(TB_ENOMEM, "out of memory");
  ctx->state = st;
  int rc = tb_bridge_plan_timed(ctx, &st->plan);
  if (rc)
    return rc;
  st->whole_tile = whole_tile;
  st->tile_bytes = (size_t)b->steps * b->dim * TB_BRIDGE_LANES * e;
  st->stage = whole_tile && st->tile_bytes <= TB_BRIDGE_STAGE_MAX;
  st->stack_bytes =
      ((size_t)st->plan.slots * b->dim * e * (whole_tile ? TB_BRIDGE_LANES : 1) + 63) / 64 * 64;
  st->stride = (st->stack_bytes + (st->stage ? st->tile_bytes : 0) + 4095) / 4096 * 4096;
  st->w = malloc((size_t)st->plan.nsteps * TB_BRIDGE_NW * e);
  st->c = malloc((size_t)(b->dim * b->dim) * e);
  st->inv = malloc((size_t)b->steps * e);
  st->scratch = tb_alloc((int64_t)st->stride * tb_cpu_threads(ctx));
  if (!st->w || !st->c || !st->inv || !st->scratch)
    return tb_fail(TB_ENOMEM, "out of memory");
  if (ctx->p->prec == TB_FLOAT)
    tb_bridge_convert_f32(b, st);
  else
    tb_bridge_convert_f64(b, st);
  return TB_OK;
}

static int tb_bridge_omp_prepare(tb_ctx_t *ctx)
{
  return tb_bridge_cpu_prepare(ctx, 1);
}

static int tb_bridge_path_prepare(tb_ctx_t *ctx)
{
  return tb_bridge_cpu_prepare(ctx, 0);
}

/* Both variants: whole tiles or a path at a time, as prepared. */
static int tb_bridge_cpu_run(tb_ctx_t *ctx)
{
  if (ctx->p->prec == TB_FLOAT)
    tb_bridge_run_f32(ctx);
  else
    tb_bridge_run_f64(ctx);
  return TB_OK;
}

TB_VARIANT(tb_bridge_cpu_omp, "omp", &tb_algo_bridge, TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE),
           0, NULL, 0, tb_bridge_omp_prepare, tb_bridge_cpu_run, NULL, tb_bridge_cpu_release,
           "each thread builds whole tiles of 32 paths, the lanes as SIMD, stack in L1");
TB_VARIANT(tb_bridge_cpu_path, "path", &tb_algo_bridge,
           TB_PREC_BIT(TB_FLOAT) | TB_PREC_BIT(TB_DOUBLE), 0, NULL, 0, tb_bridge_path_prepare,
           tb_bridge_cpu_run, NULL, tb_bridge_cpu_release,
           "each thread builds its tiles' paths one at a time, scalar (the report's CPU code)");

TB_VARIANT_LIST(bridge, cpu, &tb_bridge_cpu_omp, &tb_bridge_cpu_path);
