/* twinbench: problems: an algorithm posed at one precision, size and
 * parameter point. Setup declares the arrays, the runner (or a test)
 * allocates and generates them, variants compute, the algorithm verifies. */
#ifndef TB_PROBLEM_H
#define TB_PROBLEM_H

#include <stddef.h>

#include "algo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Counts of a problem's elements, bytes and work items, checked: a product
 * or sum that overflows 64 bits (or a negative operand) gives INT64_MAX and
 * marks p (when not NULL), whose setup then fails with a message naming the
 * problem. Every family computes its counts with these. */
int64_t tb_count_mul(tb_problem_t *p, int64_t a, int64_t b);
int64_t tb_count_add(tb_problem_t *p, int64_t a, int64_t b);

/* Declare array a of problem p (called from setup); returns its index. */
int tb_problem_add_array(tb_problem_t *p, const char *name, tb_kind_t kind, tb_role_t role,
                         int64_t count);

/* Bytes of one array (INT64_MAX when that overflows). */
int64_t tb_array_bytes(const tb_array_t *a);

/* Record a failed check with a printf-style note; returns TB_OK (a failed
 * verification is a result, not an error of the program). */
int tb_check_fail(tb_check_t *chk, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- Verification ------------------------------------------------------ */

/* The verifiers' search for the worst element: the largest error (NaN, the
 * poison or a result that is no number, counts as infinite) and where. Each
 * thread keeps its own and merges it under a critical section. */
typedef struct tb_worst {
  double err;
  int64_t at; /* -1: no element seen */
} tb_worst_t;

#define TB_WORST_NONE {0.0, -1}

static inline void tb_worst_see(tb_worst_t *w, double err, int64_t at)
{
  if (!(err == err))
    err = 1.0 / 0.0;
  if (w->at < 0 || err > w->err) {
    w->err = err;
    w->at = at;
  }
}

static inline void tb_worst_merge(tb_worst_t *into, const tb_worst_t *part)
{
  if (part->at >= 0 && (into->at < 0 || part->err > into->err))
    *into = *part;
}

/* Hold error err against tolerance: sets chk's error, tolerance and verdict
 * (pass, or fail); returns 1 when it failed, for the caller to say where
 * with tb_check_fail. */
int tb_check_against(tb_check_t *chk, double err, double tolerance);

/* A passed check whose bound cannot tell a wrong result from a right one
 * (vacuous): the verdict becomes unverifiable, with a printf-style note. */
int tb_check_unverifiable(tb_check_t *chk, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* " (never written: still poisoned)" for a NaN result, else "": for notes. */
const char *tb_poison_note(double x);

/* Set a problem up from its parameter values (its arrays declared, none
 * allocated); input_path is --input FILE or NULL. */
int tb_problem_setup(tb_problem_t *p, const tb_algo_t *algo, tb_prec_t prec, int64_t n,
                     uint64_t seed, const char *input_path, const tb_param_value_t *params);

/* Allocate the IN and INOUT arrays and generate their contents. */
int tb_problem_fill(tb_problem_t *p);

/* Set up, allocate and generate a problem (for tests and tools; the runner
 * does the same for every point of a sweep). On failure nothing is left
 * allocated. */
int tb_problem_create(tb_problem_t *p, const tb_algo_t *algo, tb_prec_t prec, int64_t n,
                      uint64_t seed, const tb_param_value_t *params);

/* The cleanup of an algorithm whose p->priv is one allocation. */
void tb_problem_free_priv(tb_problem_t *p);

/* Release everything a problem holds. */
void tb_problem_destroy(tb_problem_t *p);

/* A size of `auto`: the STREAM rule's elements per array for the precision. */
#define TB_SIZE_AUTO ((int64_t)0)

/* STREAM's rule for arrays that measure memory, not caches: four times the
 * last-level caches, here at least 2^25 and at most 2^28 elements of
 * elem_bytes each. The CPU limit uses it for doubles (or --limit-size), and
 * --size auto for the problem's precision. */
int64_t tb_stream_rule_elems(int64_t llc_bytes, int64_t elem_bytes);

/* Short text of a problem for messages: "stream double size 1000 op=copy". */
void tb_problem_text(const tb_problem_t *p, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
