/* The Poisson GPU variant cols addresses the half spectrum consistently, on
 * the host (no GPU needed): for each layout, dimension and size, the rows'
 * R2C writes value c of row r where the column transforms (batch c) read and
 * write it and where the rows' C2R reads it, each of the N^(dim-1) (N/2 + 1)
 * places exactly once; the real rows are contiguous; and the LTO callback's
 * multiplier at that offset, split as cols tells the callback to split it,
 * is -1/(|k|^2 N^dim) of value (r, c) (0 for the zero mode), in float and
 * double, on the callback's 32-bit and 64-bit index paths. A control: the
 * transposed layout's offsets split by the natural row length must give a
 * wrong multiplier somewhere, or the check could not see a wrong split. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu_cuda/poisson_cb.cu"
#include "gpu_cuda/poisson_cols.h"

static int fails;

static void fail(const char *what, int dim, long long n, int layout, long long r, long long c)
{
  if (++fails <= 10)
    printf("FAIL: %s (dim %d, N %lld, layout %s, row %lld, column %lld)\n", what, dim, n,
           layout == TB_CL_TRANSPOSED ? "transposed" : "natural", r, c);
}

/* The offset of element x (2-D grid of rows: x = i0 N + i1) of transform b. */
static long long offset_of(const tb_poisson_cols_shape_t *p, int in, long long b, long long x)
{
  const long long stride = in ? p->istride : p->ostride, dist = in ? p->idist : p->odist;
  if (p->rank == 2)
    return b * dist + ((x / p->len[1]) * p->embed[1] + x % p->len[1]) * stride;
  return b * dist + x * stride;
}

/* The exact multiplier of value c of row r, in long double. */
static long double expected(const tb_poisson_t *s, long long r, long long c)
{
  const long long idx[3] = {c, r % s->n, r / s->n};
  const long double k0 = 2.0L * 3.141592653589793238462643383279502884L / (long double)s->L;
  long double k2 = 0.0L;
  for (int a = 0; a < s->dim; a++) {
    const long double k = k0 * (long double)tb_poisson_freq(idx[a], s->n);
    k2 += k * k;
  }
  return k2 > 0.0L ? -1.0L / (k2 * (long double)s->total) : 0.0L;
}

/* The callback's multiplier in precision T against the exact one. k0 is
 * rounded to T and k = k0 f rounds once more, so k^2 (one rounding of its
 * own) errs by at most 2 (2 u) + u = 5 u; the two sums of positive terms add
 * 2 u, the scale rounded to T u, the divide u: 9 u to first order. 12 u
 * leaves room for the second-order terms and the long-double reference. */
template <typename T>
static int factor_ok(const tb_poisson_cb_info *info, long long o, long double want, double u)
{
  const long double got = (long double)tb_cb_factor<T>((unsigned long long)o, info);
  return fabsl(got - want) <= 12.0L * (long double)u * fabsl(want);
}

/* Check every value of one layout; returns how many multipliers a split by
 * `split` got wrong (the control's count), failing on everything else. */
static long long check(int dim, long long n, int layout, long long split, int control)
{
  tb_poisson_t s = {};
  s.dim = dim;
  s.n = n;
  s.rows = dim == 2 ? n : n * n;
  s.total = s.rows * n;
  s.half = n / 2 + 1;
  s.L = 2.5;
  const long long h = s.rows * s.half;
  tb_poisson_cols_shape_t p[TB_CL_PLANS];
  for (int k = 0; k < TB_CL_PLANS; k++)
    p[k] = tb__poisson_cols_shape(&s, layout, k);
  if (!control) {
    for (int k = TB_CL_ROWS_FWD; k <= TB_CL_ROWS_INV; k += TB_CL_ROWS_INV) {
      const int fwd = k == TB_CL_ROWS_FWD;
      if (p[k].rank != 1 || p[k].len[0] != n || p[k].batch != s.rows ||
          (fwd ? p[k].istride : p[k].ostride) != 1 || (fwd ? p[k].idist : p[k].odist) != n)
        fail("a row plan's shape (rank 1, N long, N^(dim-1) contiguous real rows)", dim, n,
             layout, -1, -1);
    }
    for (int k = TB_CL_COLS_FWD; k <= TB_CL_COLS_INV; k++)
      if (p[k].rank != dim - 1 || p[k].len[0] != n || (dim == 3 && p[k].len[1] != n) ||
          p[k].batch != s.half || p[k].istride != p[k].ostride || p[k].idist != p[k].odist)
        fail("a column plan's shape (rank dim - 1, N a side, N/2 + 1 in place)", dim, n, layout,
             -1, -1);
  }
  const tb_poisson_cb_info base = {n, split, dim, 1, 2.0 * M_PI / s.L, 1.0 / (double)s.total};
  tb_poisson_cb_info wide = base;
  wide.small = 0;
  unsigned char *seen = (unsigned char *)calloc((size_t)h, 1);
  long long wrong = 0;
  if (!seen) {
    fail("out of memory", dim, n, layout, -1, -1);
    return 0;
  }
  for (long long r = 0; r < s.rows; r++)
    for (long long c = 0; c < s.half; c++) {
      const long long o = offset_of(&p[TB_CL_ROWS_FWD], 0, r, c);
      const long double want = expected(&s, r, c);
      const int ok = factor_ok<double>(&base, o, want, 0x1p-53) &&
                     factor_ok<double>(&wide, o, want, 0x1p-53) &&
                     factor_ok<float>(&base, o, want, 0x1p-24) &&
                     factor_ok<float>(&wide, o, want, 0x1p-24);
      wrong += !ok;
      if (control)
        continue;
      if (!ok)
        fail("the callback's multiplier", dim, n, layout, r, c);
      if (o < 0 || o >= h || seen[o]++)
        fail("the rows' R2C writes outside the half spectrum or twice to one place", dim, n,
             layout, r, c);
      if (offset_of(&p[TB_CL_ROWS_INV], 1, r, c) != o)
        fail("the rows' C2R reads another place", dim, n, layout, r, c);
      for (int k = TB_CL_COLS_FWD; k <= TB_CL_COLS_INV; k++)
        if (offset_of(&p[k], 1, c, r) != o)
          fail("a column transform reads another place", dim, n, layout, r, c);
    }
  free(seen);
  return wrong;
}

int main(void)
{
  static const long long sizes2[] = {4, 6, 16, 30, 64, 130, 4096};
  static const long long sizes3[] = {4, 6, 16, 30, 64};
  int points = 0;
  for (int layout = TB_CL_NATURAL; layout <= TB_CL_TRANSPOSED; layout++)
    for (int dim = 2; dim <= 3; dim++) {
      const long long *sz = dim == 2 ? sizes2 : sizes3;
      const int count = dim == 2 ? (int)(sizeof sizes2 / sizeof *sizes2)
                                 : (int)(sizeof sizes3 / sizeof *sizes3);
      for (int i = 0; i < count; i++) {
        tb_poisson_t s = {};
        s.dim = dim;
        s.n = sz[i];
        s.half = sz[i] / 2 + 1;
        check(dim, sz[i], layout, tb__poisson_cols_split(&s, layout), 0);
        points++;
        if (layout == TB_CL_TRANSPOSED && sz[i] >= 6 &&
            !check(dim, sz[i], layout, sz[i] / 2 + 1, 1))
          fail("control: the wrong split went unseen", dim, sz[i], layout, -1, -1);
      }
    }
  printf("%d layouts checked, %d failures\n", points, fails);
  return fails ? 1 : 0;
}
