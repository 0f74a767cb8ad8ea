/* twinbench: the STREAM family (copy, scale, add, triad, dot).
 *
 * Each operation is a problem of its own (parameter op), so the CPU and GPU
 * twins of one operation are compared with each other. Every kernel reads its
 * inputs and writes its output once per run, which keeps runs idempotent:
 *   copy  c = a          scale c = q a        add  c = a + b
 *   triad c = a + q b    dot   s = sum a b (accumulated in double) */
#ifndef TB_STREAM_H
#define TB_STREAM_H

#include "../common/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TB_STREAM_COPY, TB_STREAM_SCALE, TB_STREAM_ADD, TB_STREAM_TRIAD, TB_STREAM_DOT };

/* The columns: dot's result, and the depth of its summation (the most
 * additions between a product and the sum), which each variant states for
 * the order it sums in. */
enum { TB_STREAM_RESULT, TB_STREAM_DEPTH };

/* The dot's independent accumulators in each CPU thread. */
#define TB_STREAM_DOT_LANES 16

/* The STREAM scalar. */
#define TB_STREAM_Q 3.0

/* The problem as variants see it: which array is which (-1 when unused). */
typedef struct tb_stream {
  int op;
  int a, b, c; /* c is the output: an array of n, or one element for dot */
} tb_stream_t;

extern const tb_algo_t tb_algo_stream;

#ifdef __cplusplus
}
#endif
#endif
