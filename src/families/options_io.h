/* twinbench: the inputs shared by the option pricing algorithms (Black-Scholes
 * and Monte Carlo): a set of European options, generated from the seed or read
 * from a CSV file, declared as arrays of the problem.
 *
 * Generated options follow NVIDIA's 2008 studies: S uniform in [5, 30], X in
 * [1, 100], T in [0.25, 10] years, every option at r = 0.02 and v = 0.30.
 *
 * A CSV file (--input FILE.csv) has a header naming its columns, S, X and T
 * and optionally r and v (in any order, case ignored), then one option per
 * line. An empty r or v field, or a missing r or v column, takes the default
 * (0.02, 0.30). Blank lines and lines starting with '#' are skipped. Values
 * must be finite, with S and X in (0, 1e9], T in (0, 100], r in [-1, 1] and
 * v in (0, 5]; anything else is refused with the file and line. The file
 * is read once, in setup, through the shared text reader (textfile.h): it
 * may be a FIFO or a pipe, holds at most TB_OPTIONS_MAX_BYTES and lines of
 * at most TB_TEXTFILE_MAX_LINE bytes, and must be text. When every
 * option has the same r and v, they are scalars of the problem (three input
 * arrays, as for generated options); otherwise r and v are both arrays too. */
#ifndef TB_OPTIONS_IO_H
#define TB_OPTIONS_IO_H

#include <stdio.h>

#include "../common/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TB_OPTIONS_R 0.02 /* the published rate, the default of a CSV row */
#define TB_OPTIONS_V 0.30 /* the published volatility */

/* The most bytes an options file may hold: millions of options (about 40
 * bytes each), and a bound on what an endless source can make us read. */
#define TB_OPTIONS_MAX_BYTES ((int64_t)256 << 20)

/* Where a problem keeps its options' inputs. */
typedef struct tb_optset {
  int s, x, t; /* array indices of spot, strike and years to expiry */
  int r, v;    /* array indices of per-option rate and volatility (both or neither), or -1 */
  double r0, v0; /* every option's rate and volatility when r, v are -1 */
  double *file;  /* the input file's options, S, X, T, r, v each, read in setup;
                    NULL when they are generated */
} tb_optset_t;

/* One option's inputs, as the variants see them (rounded to the precision). */
typedef struct tb_option {
  double s, x, t, r, v;
} tb_option_t;

/* Declare the input arrays of problem p (from setup). With an input file,
 * read and check it all, keep its options in o and set p->n to their count
 * (and add the bytes kept to p->extra_host_bytes). */
int tb_optset_setup(tb_problem_t *p, tb_optset_t *o);

/* Fill the input arrays: from the options setup read, or from the seed
 * (Philox streams 1-3). */
int tb_optset_generate(tb_problem_t *p, const tb_optset_t *o);

/* Release what setup kept of o (from the algorithm's cleanup). */
void tb_optset_free(tb_optset_t *o);

/* Option i of problem p. */
void tb_optset_get(const tb_problem_t *p, const tb_optset_t *o, int64_t i, tb_option_t *opt);

/* Option i of the input file as setup read it (o->file not NULL): from
 * setup on, before the arrays exist. */
void tb_optset_file_get(const tb_optset_t *o, int64_t i, tb_option_t *opt);

/* Element i of array a (in the problem's precision) as a double. */
double tb_optset_elem(const tb_problem_t *p, const void *a, int64_t i);

/* The bytes of one run, STREAM-style, into c (its flops are the caller's):
 * each input array read once and `outputs` arrays of one element per
 * option written once. */
void tb_optset_cost(const tb_problem_t *p, const tb_optset_t *o, int outputs, tb_cost_t *c);

/* Write option i's inputs as the first five CSV fields "S,X,T,r,v" with
 * enough digits to read back the same values. */
void tb_optset_dump_row(FILE *f, const tb_problem_t *p, const tb_optset_t *o, int64_t i);


#ifdef __cplusplus
}
#endif
#endif
