/* twinbench: the plan layouts of the Poisson family's GPU variant cols
 * (poisson_cols.cu), apart so that tests/test_poisson_cols_layout checks
 * them on the host: where each plan reads and writes, and how the callback
 * splits an offset. C and C++. */
#ifndef TB_POISSON_COLS_H
#define TB_POISSON_COLS_H

#include <stdint.h>

#include "../families/poisson.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The four plans, in the order the pipeline runs them. */
enum { TB_CL_ROWS_FWD, TB_CL_COLS_FWD, TB_CL_COLS_INV, TB_CL_ROWS_INV, TB_CL_PLANS };

/* The tuning parameter layout: where value c of row r lives. */
enum { TB_CL_NATURAL, TB_CL_TRANSPOSED };

/* The advanced layout of one plan, as cufftMakePlanMany takes it: element
 * x of transform b at b dist + x stride (rank 2: (x0 embed[1] + x1) stride),
 * the input side i, the output side o. */
typedef struct tb_poisson_cols_shape {
  int rank, len[2], embed[2], batch;
  int istride, idist, ostride, odist;
} tb_poisson_cols_shape_t;

/* The shape of plan `which` (TB_CL_...) of problem s in `layout`. */
tb_poisson_cols_shape_t tb__poisson_cols_shape(const tb_poisson_t *s, int layout, int which);

/* The length by which the callbacks split an offset of `layout` into a row
 * and a column (tb_poisson_cb_info.half). */
int64_t tb__poisson_cols_split(const tb_poisson_t *s, int layout);

#ifdef __cplusplus
}
#endif
#endif
