/* twinbench: the scan family: prefix sums (scan), stream compaction
 * (compact) and list ranking (listrank), which share the prefix-sum and
 * pointer-jumping machinery of their twins, and the seeds' two examples
 * (series, cdf).
 *
 * scan      y_i = x_0 + ... + x_i (inclusive) or x_0 + ... + x_{i-1}
 *           (exclusive, y_0 = 0) over n elements of int32, float or double.
 *           int32 sums wrap modulo 2^32: both backends add in unsigned 32-bit
 *           arithmetic (C's signed overflow is undefined), and the reference
 *           is the same sum modulo 2^32, so int32 is exact at any n.
 * compact   the elements of x below a threshold, in their order, and their
 *           count (stable stream compaction).
 * series    sum_{i=1}^{n} 1/i^2 (the seeds' OpenMP example), against pi^2/6
 *           minus the tail.
 * cdf       the empirical CDF of n Irwin-Hall samples at 100 thresholds.
 * listrank  the distance of every node of a singly linked list to its tail;
 *           the list visits the nodes in the order of a random permutation;
 *           or (shape tree) every node's depth in a random tree.
 * See doc/scan.md for the error bounds and the cost models. */
#ifndef TB_SCAN_H
#define TB_SCAN_H

#include <stdint.h>

#include "../common/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- scan -------------------------------------------------------------- */

enum { TB_SCAN_INCLUSIVE, TB_SCAN_EXCLUSIVE };

/* The scan's columns, in ctx->extra and in the rows. */
enum {
  TB_SCAN_DEPTH,    /* the most additions between an input and an output (h of the bound) */
  TB_SCAN_LAUNCHES, /* kernel launches (GPU) or parallel passes over the data (CPU) */
  TB_SCAN_WAIT,     /* CPU twopass: the share of its threads' time spent waiting for others */
  TB_SCAN_IMBALANCE /* CPU twopass: the most blocks a thread scanned over the mean */
};

typedef struct tb_scan {
  int kind; /* TB_SCAN_INCLUSIVE or TB_SCAN_EXCLUSIVE */
  int x;    /* the n inputs */
  int y;    /* the n prefix sums */
} tb_scan_t;

extern const tb_algo_t tb_algo_scan;

/* The depth of a blocked scan's order: `blocks` block totals combined in a
 * chain (each block's offset is the previous offset plus one total), and
 * each element reaching its output through at most `tile` additions inside
 * its block's total and `tile` more inside its block's own prefix, plus the
 * offset's addition to the block and the total's to the chain:
 * blocks + 2 tile + 2. A running sum is one block (its depth is n). */
int64_t tb_scan_blocked_depth(int64_t blocks, int64_t tile);

/* ---- compact ----------------------------------------------------------- */

enum { TB_COMPACT_RESULT, TB_COMPACT_LAUNCHES };

typedef struct tb_compact {
  int x;           /* the n inputs */
  int y;           /* the kept inputs, in order, in y[0 .. count) */
  int count;       /* one int64: how many were kept */
  double below;    /* the threshold: x_i < below is kept */
  int64_t kept;    /* the reference count, from the generator */
} tb_compact_t;

extern const tb_algo_t tb_algo_compact;

/* ---- listrank ---------------------------------------------------------- */

enum { TB_LISTRANK_LAUNCHES, TB_LISTRANK_SPLITTERS };

/* The problem's shapes: a list, or a tree (succ is the parent, rank the depth). */
enum { TB_SHAPE_LIST, TB_SHAPE_TREE };

/* The end of the list: the tail's successor (a tree: the root's parent). */
#define TB_LIST_END (-1)

typedef struct tb_listrank {
  int shape; /* TB_SHAPE_LIST or TB_SHAPE_TREE */
  int succ; /* succ[i]: the node after i, or TB_LIST_END for the tail */
  int head; /* one int32: the first node */
  int rank; /* rank[i]: the links from i to the tail (the tail's is 0) */
} tb_listrank_t;

extern const tb_algo_t tb_algo_listrank;

/* Helman-JaJa's random splitters: splitter j >= 1 of a list of n nodes
 * drawn with seed is node tb_list_splitter(j, n, seed), uniform (repeats
 * possible); splitter 0 is the head. The list itself visits the nodes in
 * the order of a random permutation (a Feistel network keyed by Philox). */
int64_t tb_list_splitter(int64_t j, int64_t n, uint64_t seed);

/* ---- series ------------------------------------------------------------ */

enum { TB_SERIES_RESULT, TB_SERIES_DEPTH };

/* The most terms: 2^32, whose index and square stay exact in 64 bits and
 * whose run stays seconds long. */
#define TB_SERIES_MAX_N ((int64_t)1 << 32)

typedef struct tb_series {
  int sum; /* the one-element output */
} tb_series_t;

extern const tb_algo_t tb_algo_series;

/* ---- cdf --------------------------------------------------------------- */

/* The uniforms a sample sums, and the thresholds t_k = 10 (k + 1) / 101. */
#define TB_CDF_TERMS 10
#define TB_CDF_THRESHOLDS 100

enum { TB_CDF_ZMAX, TB_CDF_LAUNCHES };

typedef struct tb_cdf {
  int x;      /* the n samples */
  int counts; /* TB_CDF_THRESHOLDS int64: counts[k] = #{i : x_i < t_k} */
} tb_cdf_t;

extern const tb_algo_t tb_algo_cdf;

/* Threshold k (0 .. TB_CDF_THRESHOLDS - 1), in double; the twins compare in
 * their precision with it rounded there. */
double tb_cdf_threshold(int k);

#ifdef __cplusplus
}
#endif
#endif
