/* twinbench: the kernel body of the Poisson GPU variant panel (its
 * derivations in doc/poisson_panel.md), as host-and-device functions of a
 * thread index, so that tests/test_poisson_panel_fft runs exactly this code
 * on the host, looping over a block's threads between the barriers.
 *
 * A block takes a panel of P adjacent complex columns of the half spectrum
 * (rows of N/2 + 1 values, N a power of two) into shared memory, N x P
 * values with column k of the panel in every P-th place (value i of column
 * k at i P + k, swizzled against bank conflicts: tb_panel_at), and runs through phases separated by the block's barriers:
 *   load      the panel from global memory, P consecutive values of each
 *             row, several loads in flight a thread;
 *   forward   the length-N FFT of each column, decimation in frequency:
 *             radix-4 stages, a radix-2 stage last where log2 N is odd,
 *             in place, leaving the spectrum in digit-reversed order;
 *   solve     each value times the solve's multiplier of its column and of
 *             the frequency its place holds (tb_poisson_multiplier, the
 *             callbacks' function);
 *   inverse   the inverse FFT by decimation in time, the forward stages'
 *             mirror in reverse order with the conjugate twiddles: it takes
 *             the digit-reversed order and leaves the natural one, so no
 *             permutation pass is needed either way;
 *   store     the panel back in place.
 * That is the radix-4 scheme (geometry lr = 2, tb_panel_phase). The radix-16
 * scheme (lr = 4, tb_panel_phase16) runs the same transforms in stages of
 * radix 16 (the last 2, 4 or 8 where needed), each thread a column's 16
 * values in registers, the load folded into the first forward stage, the
 * solve and the first inverse stage into the last forward stage, the store
 * into the last inverse stage. The radix-32 scheme (lr = 4, lastlr = 5) is
 * radix 16 whose last stage may take up to 32 values (8192 = 16 x 16 x 32:
 * three stages instead of four).
 * The twiddles W_N^k = exp(-2 pi i k / N), k < N, come from a table made on
 * the host in long double and rounded once to the precision. */
#ifndef TB_POISSON_PANEL_CUH
#define TB_POISSON_PANEL_CUH

#include <cuda_runtime.h>
#include <math.h>
#include <stddef.h>

#include "poisson_cb.h"

namespace {

/* A panel's shape: the column length N = 2^logn, P = 2^logp columns a
 * panel, the row length of the half spectrum in global memory (N/2 + 1),
 * the threads of a block, the swizzle of shared memory (tb_panel_at), lr,
 * log2 of the stages' radix: 2 (radix 4 through shared memory, the phases
 * of tb_panel_phase) or 4 (radix 16 in registers, tb_panel_phase16), and
 * lastlr, log2 of the largest radix the last stage may take: lr, or 5 for
 * the radix-32 scheme (a last stage of up to 32 values where radix 16
 * would end in 16 and 2), and staged, whether radix 16 and 32 read their
 * twiddles from the staged table (tb_panel_twiddles_staged) instead of the
 * flat one, and rs, cs, the strides in global memory of a row and a column
 * of the half spectrum (tb_panel_gat; staged, rs and cs set apart from
 * tb_panel_geom_make, which leaves the flat table and the natural layout). */
struct tb_panel_geom {
  int n, logn;
  int p, logp;
  int half;
  int threads;
  int swlog, swshift, swsrc;
  int lr, lastlr;
  int staged;
  int rs, cs;
};

/* The place in shared memory of panel value a (value i of column k is
 * a = i P + k). A warp's access of complex values is served 128 bytes at a
 * time (G = 16 float or 8 double values); a stage whose blocks are short
 * (m P < G) would put a warp's butterflies on the same banks, up to 4 times
 * as many passes as a stage needs (the last stage at P = 4 float, the last
 * two at P = 1). XOR-ing the low log2 G bits of a with its higher bits
 * shifted by min(log2 P, log2 G - 1) spreads them: a model of the bank
 * mapping counts a quarter to a third fewer passes over the stages at
 * N = 4096, P = 1, 2, 4 float and P = 1, 2 double, the least any shift gave
 * but at P = 1 float (doc/poisson_panel.md). The map permutes each aligned group of G places, so consecutive values stay
 * in one 128-byte group (the loads and stores keep their order). Radix 16
 * takes the higher bits from log2 P + 4 on (swsrc) instead: its last stage's
 * warp spans the columns and consecutive blocks of 16 P places, whose
 * numbers those bits hold, so they land on distinct banks (the bank model
 * of doc/poisson_panel.md: the least passes at N = 4096 and 8192 at every
 * P that fits; its other stages' warps cover whole aligned groups, which
 * any such map keeps whole). */
__host__ __device__ __forceinline__ int tb_panel_at(int a, const tb_panel_geom &g)
{
  return a ^ (((a >> g.swsrc) << g.swshift) & ((1 << g.swlog) - 1));
}

/* The shape of N = 2^logn, P = 2^logp, row length half and `threads` a
 * block, for complex values of `bytes` bytes (8 or 16), stages of radix
 * 2^lr (lr 2 or 4) with a last stage of up to 2^lastlr values (lastlr = lr,
 * or 5 with lr = 4). The radix-32 scheme's swizzle takes its bits from
 * log2 P + the last stage's log2 radix on: its last stage's warp spans
 * consecutive blocks of 2^last P places, whose numbers those bits hold (at
 * a last stage of radix 32, bits from log2 P + 4 would give two
 * neighbouring blocks one XOR: twice the least passes). Radix 16 keeps
 * log2 P + 4 at every N, its measured map. */
inline tb_panel_geom tb_panel_geom_make(int logn, int logp, int half, int threads, int bytes,
                                        int lr, int lastlr)
{
  const int swlog = bytes == 8 ? 4 : 3;
  int last = logn;
  while (last > lastlr)
    last -= lr;
  const tb_panel_geom g = {1 << logn,
                           logn,
                           1 << logp,
                           logp,
                           half,
                           threads,
                           swlog,
                           logp < swlog - 1 ? logp : swlog - 1,
                           lr == 2 ? swlog : logp + (lastlr > lr ? last : 4),
                           lr,
                           lastlr,
                           0,
                           half,
                           1};
  return g;
}

/* The offset in global memory of value `row` of half-spectrum column c:
 * row rs + c cs, natural (rows of N/2 + 1 values: rs = N/2 + 1, cs = 1, a
 * warp's consecutive rows a row apart) or transposed (columns of N values,
 * as cols's transposed plans write them: rs = 1, cs = N, a warp's
 * consecutive rows consecutive). */
__host__ __device__ __forceinline__ size_t tb_panel_gat(int row, int c, const tb_panel_geom &g)
{
  return (size_t)row * (size_t)g.rs + (size_t)c * (size_t)g.cs;
}

/* The bytes each thread keeps in flight in the load and store phases (8
 * float or 4 double complex values: more double values spill registers
 * under the kernel's 64-register bound); their loops are unrolled on the
 * device (the host compiler, which runs them in the test, knows no such
 * pragma). */
constexpr int TB_PANEL_INFLIGHT_BYTES = 64;
#ifdef __CUDA_ARCH__
#define TB_PANEL_UNROLL _Pragma("unroll")
#else
#define TB_PANEL_UNROLL
#endif

/* The FFT's stages: stages of radix 2^lr while more than 2^lastlr values
 * are left, then one stage of what is left (at lastlr = lr: log2 N / lr
 * stages of radix 2^lr and one of 2, 4 or 8 where lr does not divide
 * log2 N; at lastlr = 5: 8192 = 16 x 16 x 32, 512 = 16 x 32): the
 * fewest k with log2 N - k lr <= lastlr, plus one, in closed form for
 * N >= 4 (the family refuses smaller N). Stage s works on blocks of
 * L = N / 2^(lr s) values. */
__host__ __device__ __forceinline__ int tb_panel_stages(const tb_panel_geom &g)
{
  return (g.logn - g.lastlr + 2 * g.lr - 1) / g.lr;
}

/* log2 of the radix of the stage on blocks of 2^logl values. */
__host__ __device__ __forceinline__ int tb_panel_stage_lr(int logl, const tb_panel_geom &g)
{
  return logl <= g.lastlr ? logl : g.lr;
}

/* The phases. Radix 4: load, the forward stages, solve, the inverse
 * stages, store. Radix 16: the first forward stage loading from global
 * memory, the other forward stages, the last forward stage with the solve
 * and the first inverse stage (the same values in the same registers), the
 * other inverse stages, the last storing to global memory: 2 S - 1. */
__host__ __device__ __forceinline__ int tb_panel_phases(const tb_panel_geom &g)
{
  return g.lr == 2 ? 2 * tb_panel_stages(g) + 3 : 2 * tb_panel_stages(g) - 1;
}

/* The frequency whose value the forward transform leaves at place pos: a
 * stage of radix r on blocks of L = r m values sends frequency
 * d + r (the sub-transform's frequency) to sub-block d, m values long, so
 * the digits of pos in the stages' mixed radix, read from the first stage,
 * are the frequency's from its lowest. */
__host__ __device__ __forceinline__ int tb_panel_freq(int pos, const tb_panel_geom &g)
{
  int f = 0, shift = 0;
  for (int logl = g.logn; logl > 0;) {
    const int lr = tb_panel_stage_lr(logl, g), logm = logl - lr;
    f |= ((pos >> logm) & ((1 << lr) - 1)) << shift;
    shift += lr;
    logl = logm;
  }
  return f;
}

/* log2 of a register DFT's radix R (2 .. 32). */
__host__ __device__ constexpr int tb_panel_log2r(int r)
{
  return r == 2 ? 1 : r == 4 ? 2 : r == 8 ? 3 : r == 16 ? 4 : 5;
}

/* Complex arithmetic on float2 and double2. */
template <typename C> __host__ __device__ __forceinline__ C tb_cadd(C a, C b)
{
  a.x += b.x;
  a.y += b.y;
  return a;
}

template <typename C> __host__ __device__ __forceinline__ C tb_csub(C a, C b)
{
  a.x -= b.x;
  a.y -= b.y;
  return a;
}

/* a times w, or times conj(w) where conj. */
template <typename C> __host__ __device__ __forceinline__ C tb_cmul(C a, C w, bool conj)
{
  C r;
  if (conj) {
    r.x = a.x * w.x + a.y * w.y;
    r.y = a.y * w.x - a.x * w.y;
  } else {
    r.x = a.x * w.x - a.y * w.y;
    r.y = a.y * w.x + a.x * w.y;
  }
  return r;
}

/* a times -i (fwd) or i: exact. */
template <typename C> __host__ __device__ __forceinline__ C tb_crot(C a, bool fwd)
{
  C r;
  r.x = fwd ? a.y : -a.y;
  r.y = fwd ? -a.x : a.x;
  return r;
}

/* A twiddle, through the read-only data path on the device. */
template <typename C> __host__ __device__ __forceinline__ C tb_panel_tw(const C *tw, int k)
{
#ifdef __CUDA_ARCH__
  return __ldg(tw + k);
#else
  return tw[k];
#endif
}

/* One stage of the column transforms, thread tid's butterflies: forward
 * (decimation in frequency: the radix-r DFT of x[j + q m], q < r, then
 * output d times W_L^(j d), to x[j + d m]) or inverse (decimation in time:
 * input d times conj(W_L^(j d)), then the inverse radix-r DFT). Butterflies
 * are numbered column fastest, so a warp's accesses to shared memory are
 * consecutive while m >= 32 / P. */
template <typename C>
__host__ __device__ __forceinline__ void tb_panel_stage(C *sm, const C *tw, const tb_panel_geom &g,
                                                        int stage, bool fwd, int tid)
{
  const int logl = g.logn - 2 * stage, lr = logl >= 2 ? 2 : 1, logm = logl - lr;
  const int twlog = g.logn - logl; /* W_L^e = W_N^(e N / L) */
  const int count = (g.n >> lr) << g.logp, step = (1 << logm) << g.logp;
  for (int b = tid; b < count; b += g.threads) {
    const int col = b & (g.p - 1), bb = b >> g.logp;
    const int j = bb & ((1 << logm) - 1), blk = bb >> logm;
    const int x = (((blk << logl) + j) << g.logp) + col;
    if (lr == 1) {
      const int x0 = tb_panel_at(x, g), x1 = tb_panel_at(x + step, g);
      C a0 = sm[x0], a1 = sm[x1];
      const C w = tb_panel_tw(tw, j << twlog);
      if (!fwd)
        a1 = tb_cmul(a1, w, true);
      const C d = tb_csub(a0, a1);
      sm[x0] = tb_cadd(a0, a1);
      sm[x1] = fwd ? tb_cmul(d, w, false) : d;
      continue;
    }
    C a[4];
    for (int q = 0; q < 4; q++)
      a[q] = sm[tb_panel_at(x + q * step, g)];
    if (!fwd)
      for (int d = 1; d < 4; d++)
        a[d] = tb_cmul(a[d], tb_panel_tw(tw, (j * d) << twlog), true);
    /* y0 = t0 + t2, y2 = t0 - t2, y1 = t1 -+ i t3, y3 = t1 +- i t3 (the
     * upper signs forward: W_4 = -i). */
    const C t0 = tb_cadd(a[0], a[2]), t1 = tb_csub(a[0], a[2]);
    const C t2 = tb_cadd(a[1], a[3]), t3 = tb_crot(tb_csub(a[1], a[3]), fwd);
    a[0] = tb_cadd(t0, t2);
    a[1] = tb_cadd(t1, t3);
    a[2] = tb_csub(t0, t2);
    a[3] = tb_csub(t1, t3);
    if (fwd)
      for (int d = 1; d < 4; d++)
        a[d] = tb_cmul(a[d], tb_panel_tw(tw, (j * d) << twlog), false);
    for (int q = 0; q < 4; q++)
      sm[tb_panel_at(x + q * step, g)] = a[q];
  }
}

/* Thread tid's part of phase `phase` of the panel whose first column is c0
 * (columns from the half spectrum's end on are zeros in shared memory and
 * are never stored): w the half spectrum in global memory, sm the panel in
 * shared memory, tw the twiddles, in the solve's constants. */
template <typename T, typename C>
__host__ __device__ __forceinline__ void tb_panel_phase(int phase, C *sm, C *w, const C *tw,
                                                        const tb_panel_geom &g, int c0,
                                                        const tb_poisson_cb_info *in, int tid)
{
  const int stages = tb_panel_stages(g), total = g.n << g.logp;
  const int width = g.half - c0 < g.p ? g.half - c0 : g.p;
  constexpr int inflight = TB_PANEL_INFLIGHT_BYTES / (int)sizeof(C);
  if (phase == 0 || phase == 2 * stages + 2) {
    const bool load = phase == 0;
    for (int t0 = tid; t0 < total; t0 += inflight * g.threads) {
      C v[inflight];
TB_PANEL_UNROLL
      for (int e = 0; e < inflight; e++) {
        const int t = t0 + e * g.threads, col = t & (g.p - 1);
        C *at = w + tb_panel_gat(t >> g.logp, c0 + col, g);
        if (t < total && load) {
          v[e].x = v[e].y = T(0);
          if (col < width)
            v[e] = *at;
        } else if (t < total && col < width) {
          *at = sm[tb_panel_at(t, g)];
        }
      }
      if (load) {
TB_PANEL_UNROLL
        for (int e = 0; e < inflight; e++)
          if (t0 + e * g.threads < total)
            sm[tb_panel_at(t0 + e * g.threads, g)] = v[e];
      }
    }
  } else if (phase <= stages) {
    tb_panel_stage(sm, tw, g, phase - 1, true, tid);
  } else if (phase == stages + 1) {
    for (int t = tid; t < total; t += g.threads) {
      const int col = t & (g.p - 1);
      if (col < width) {
        const T s = tb_poisson_multiplier<T>(c0 + col, tb_panel_freq(t >> g.logp, g), 0, in);
        C *v = sm + tb_panel_at(t, g);
        v->x *= s;
        v->y *= s;
      }
    }
  } else {
    tb_panel_stage(sm, tw, g, 2 * stages + 1 - phase, false, tid);
  }
}

/* cos(pi k / 16) for k = 0 .. 8 to 20 digits. */
__host__ __device__ __forceinline__ double tb_panel_cospi16(int k)
{
  switch (k) {
  case 0: return 1.0;
  case 1: return 0.98078528040323044913;
  case 2: return 0.92387953251128675613;
  case 3: return 0.83146961230254523708;
  case 4: return 0.70710678118654752440;
  case 5: return 0.55557023301960222474;
  case 6: return 0.38268343236508977173;
  case 7: return 0.19509032201612826785;
  default: return 0.0;
  }
}

/* W_32^k = exp(-2 pi i k / 32) for k = 0 .. 15, the register DFTs'
 * internal twiddles (W_16^k = W_32^(2 k): radix 16's are the same
 * constants as before radix 32 came), as constants: cos and sin of pi k / 16
 * from tb_panel_cospi16 (sin(pi k / 16) = cos(pi (8 - k) / 16)), rounded to
 * the precision: float's from double, which errs by at most u (1 + 2^-29),
 * within the bound's mu <= u. After the device's unrolling k is a constant
 * and the switch folds away. */
template <typename T, typename C> __host__ __device__ __forceinline__ C tb_panel_w32(int k)
{
  const double x = k <= 8 ? tb_panel_cospi16(k) : -tb_panel_cospi16(16 - k);
  const double y = k <= 8 ? tb_panel_cospi16(8 - k) : tb_panel_cospi16(k - 8);
  C w;
  w.x = (T)x;
  w.y = (T)-y;
  return w;
}

/* The radix-R DFT (R = 2, 4, 8, 16 or 32) of a[0..R-1] in registers, forward
 * (X_d = sum a_q W_R^(q d)) or inverse (the conjugate twiddles),
 * unnormalised, left in natural order: log2 R radix-2 levels by
 * decimation in frequency, each a sum and a difference and the difference
 * times W_len^j (exact for j = 0 and for -i or i), then the bit reversal,
 * which the device's unrolling makes a renaming of registers. The levels'
 * butterflies are one loop of constant trip count so that it unrolls
 * completely. */
template <typename T, typename C, int R>
__host__ __device__ __forceinline__ void tb_panel_dft(C *a, bool fwd)
{
  constexpr int lr = tb_panel_log2r(R);
TB_PANEL_UNROLL
  for (int t = 0; t < lr * (R / 2); t++) {
    const int lev = t / (R / 2), i = t % (R / 2), half = R >> (lev + 1);
    const int lo = (i / half) * 2 * half + i % half, j = i % half;
    const int k = j * (16 / half); /* W_(2 half)^j = W_32^(16 j / half) */
    const C u = a[lo], v = a[lo + half];
    a[lo] = tb_cadd(u, v);
    const C d = tb_csub(u, v);
    a[lo + half] = k == 0 ? d : k == 8 ? tb_crot(d, fwd) : tb_cmul(d, tb_panel_w32<T, C>(k), !fwd);
  }
TB_PANEL_UNROLL
  for (int i = 0; i < R; i++) {
    int rev = 0;
    for (int b = 0; b < lr; b++)
      rev |= ((i >> b) & 1) << (lr - 1 - b);
    if (i < rev) {
      const C t = a[i];
      a[i] = a[rev];
      a[rev] = t;
    }
  }
}

/* What a radix-16 pass does (tb_panel_pass16's `what`): load its values
 * from global memory (else shared), the forward stage, the solve, the
 * inverse stage, store to global memory (else shared). */
enum {
  TB_PANEL_LOAD = 1,
  TB_PANEL_FWD = 2,
  TB_PANEL_SOLVE = 4,
  TB_PANEL_INV = 8,
  TB_PANEL_STORE = 16
};

/* W_L^(j d), the twiddle of output d of butterfly j of the radix-16 or -32
 * stage on blocks of L = 2^logl values (m = 2^logm): from the flat table,
 * W_N^((j d) N / L), or where g.staged from the stage's run of the staged
 * table, entry N - L + (d - 1) m + j (tb_panel_twiddles_staged): the same
 * value, but a warp's butterflies (consecutive j) read consecutive entries
 * where the flat table's are j d N / L apart (up to 32 sectors a request
 * instead of 8 in float). */
template <typename C>
__host__ __device__ __forceinline__ C tb_panel_tw16(const C *tw, const tb_panel_geom &g, int logl,
                                                    int logm, int j, int d)
{
  return tb_panel_tw(tw, g.staged ? g.n - (1 << logl) + ((d - 1) << logm) + j
                                  : (j * d) << (g.logn - logl));
}

/* K butterflies of one pass of radix R = 2^(stage's lr) over stage
 * `stage`'s blocks (L = 2^logl values, m = 2^logm = L / R; step the
 * distance of a butterfly's values, width the panel's columns within the
 * half spectrum): butterflies b + k g.threads, k < K, numbered column
 * fastest as in tb_panel_stage, each holding the R values x[j + q m] of
 * one column in registers. Forward: the radix-R DFT, output d times
 * W_L^(j d), back to x[j + d m]; solve: each value times its multiplier
 * (the last stage, m = 1: the place is the frequency's of tb_panel_freq);
 * inverse: input d times conj(W_L^(j d)), the inverse radix-R DFT. Loaded
 * values of the columns from the half spectrum's end on are zeros, and
 * those are never stored. Each step is done for all K butterflies before
 * the next, so that at K = 2 both butterflies' loads are in flight
 * together (the stores of one butterfly may alias the loads of another
 * as far as the compiler knows, so it cannot hoist them itself); the
 * butterflies are independent, each value gets the same operations in
 * the same order, and the results are the same bits at any K. */
template <typename T, typename C, int R, int K>
__host__ __device__ __forceinline__ void tb_panel_bfly16(C *sm, C *w, const C *tw,
                                                         const tb_panel_geom &g, int c0,
                                                         const tb_poisson_cb_info *in, int logl,
                                                         int logm, int step, int width,
                                                         unsigned what, int b)
{
  constexpr int lr = tb_panel_log2r(R);
  int col[K], j[K], x[K];
  C a[K][R];
TB_PANEL_UNROLL
  for (int k = 0; k < K; k++) {
    const int bk = b + k * g.threads, bb = bk >> g.logp;
    col[k] = bk & (g.p - 1);
    j[k] = bb & ((1 << logm) - 1);
    x[k] = ((((bb >> logm) << logl) + j[k]) << g.logp) + col[k];
  }
TB_PANEL_UNROLL
  for (int k = 0; k < K; k++) {
TB_PANEL_UNROLL
    for (int q = 0; q < R; q++) {
      if (!(what & TB_PANEL_LOAD)) {
        a[k][q] = sm[tb_panel_at(x[k] + q * step, g)];
      } else {
        a[k][q].x = a[k][q].y = T(0);
        if (col[k] < width)
          a[k][q] = w[tb_panel_gat((x[k] + q * step) >> g.logp, c0 + col[k], g)];
      }
    }
  }
  if (what & TB_PANEL_FWD) {
TB_PANEL_UNROLL
    for (int k = 0; k < K; k++) {
      tb_panel_dft<T, C, R>(a[k], true);
      if (j[k]) {
TB_PANEL_UNROLL
        for (int d = 1; d < R; d++)
          a[k][d] = tb_cmul(a[k][d], tb_panel_tw16(tw, g, logl, logm, j[k], d), false);
      }
    }
  }
  if (what & TB_PANEL_SOLVE) {
    /* The solve comes in the last stage (m = 1, step = P, j = 0): value d
     * is at place pos + d, pos = x >> log2 P a multiple of R, and the
     * frequency map (tb_panel_freq) takes the last stage's digit, the low
     * lr bits of the place, to the highest, log2 N - lr on, and the other
     * digits from the bits above: f(pos + d) = f(pos) | d 2^(log2 N - lr).
     * So one digit reversal a butterfly instead of one a value, the same
     * frequencies (the host test checks the identity at every N). */
    const int fshift = g.logn - lr;
TB_PANEL_UNROLL
    for (int k = 0; k < K; k++) {
      if (col[k] < width) {
        const int f0 = tb_panel_freq(x[k] >> g.logp, g);
TB_PANEL_UNROLL
        for (int d = 0; d < R; d++) {
          const T s = tb_poisson_multiplier<T>(c0 + col[k], f0 | (d << fshift), 0, in);
          a[k][d].x *= s;
          a[k][d].y *= s;
        }
      }
    }
  }
  if (what & TB_PANEL_INV) {
TB_PANEL_UNROLL
    for (int k = 0; k < K; k++) {
      if (j[k]) {
TB_PANEL_UNROLL
        for (int d = 1; d < R; d++)
          a[k][d] = tb_cmul(a[k][d], tb_panel_tw16(tw, g, logl, logm, j[k], d), true);
      }
      tb_panel_dft<T, C, R>(a[k], false);
    }
  }
TB_PANEL_UNROLL
  for (int k = 0; k < K; k++) {
TB_PANEL_UNROLL
    for (int q = 0; q < R; q++) {
      if (!(what & TB_PANEL_STORE))
        sm[tb_panel_at(x[k] + q * step, g)] = a[k][q];
      else if (col[k] < width)
        w[tb_panel_gat((x[k] + q * step) >> g.logp, c0 + col[k], g)] = a[k][q];
    }
  }
}

/* One pass of radix R over stage `stage`'s blocks: thread tid's
 * butterflies tid + i g.threads (tb_panel_bfly16), one at a time at
 * ILP = 1; at ILP = 2 two at a time (i and i + 1) while the thread has two
 * left, then the last one alone where it has an odd number, so that a
 * thread's second butterfly's loads need not wait for its first's stores
 * (doc/poisson_panel.md, "ilp"). */
template <typename T, typename C, int R, int ILP>
__host__ __device__ __forceinline__ void tb_panel_pass16(C *sm, C *w, const C *tw,
                                                         const tb_panel_geom &g, int c0,
                                                         const tb_poisson_cb_info *in, int stage,
                                                         unsigned what, int tid)
{
  constexpr int lr = tb_panel_log2r(R);
  const int logl = g.logn - g.lr * stage, logm = logl - lr;
  const int count = (g.n >> lr) << g.logp, step = (1 << logm) << g.logp;
  const int width = g.half - c0 < g.p ? g.half - c0 : g.p;
  int b = tid;
  if (ILP == 2)
    for (; b + g.threads < count; b += 2 * g.threads)
      tb_panel_bfly16<T, C, R, 2>(sm, w, tw, g, c0, in, logl, logm, step, width, what, b);
  for (; b < count; b += g.threads)
    tb_panel_bfly16<T, C, R, 1>(sm, w, tw, g, c0, in, logl, logm, step, width, what, b);
}

/* tb_panel_pass16 at the radix of stage `stage` (16, or what is left of
 * log2 N in the last stage: up to 32 where g.lastlr = 5). LASTLR, the
 * largest g.lastlr the caller passes, leaves the radix-32 pass out of the
 * radix-16 kernel, whose registers stay its own. ILP is the butterflies a
 * thread takes at a time (tb_panel_pass16) in the passes of radix up to
 * 16; the radix-32 pass takes one at a time at any ILP, its 32 values
 * already filling the registers. */
template <typename T, typename C, int LASTLR, int ILP = 1>
__host__ __device__ __forceinline__ void tb_panel_pass16_any(C *sm, C *w, const C *tw,
                                                             const tb_panel_geom &g, int c0,
                                                             const tb_poisson_cb_info *in,
                                                             int stage, unsigned what, int tid)
{
  switch (tb_panel_stage_lr(g.logn - g.lr * stage, g)) {
  case 1: tb_panel_pass16<T, C, 2, ILP>(sm, w, tw, g, c0, in, stage, what, tid); break;
  case 2: tb_panel_pass16<T, C, 4, ILP>(sm, w, tw, g, c0, in, stage, what, tid); break;
  case 3: tb_panel_pass16<T, C, 8, ILP>(sm, w, tw, g, c0, in, stage, what, tid); break;
  case 5:
    if (LASTLR >= 5)
      tb_panel_pass16<T, C, 32, 1>(sm, w, tw, g, c0, in, stage, what, tid);
    break;
  default: tb_panel_pass16<T, C, 16, ILP>(sm, w, tw, g, c0, in, stage, what, tid); break;
  }
}

/* Thread tid's part of phase `phase` of the radix-16 and radix-32 schemes
 * (tb_panel_phases): phase p < S - 1 the forward stage p, phase S - 1 the
 * last forward stage, the solve and the last stage's inverse, phase
 * S - 1 + k the inverse of stage S - 1 - k; the first stage loads from and
 * the last inverse stores to global memory (at S = 1 one phase does all).
 * The arguments are tb_panel_phase's; LASTLR and ILP are
 * tb_panel_pass16_any's. */
template <typename T, typename C, int LASTLR, int ILP = 1>
__host__ __device__ __forceinline__ void tb_panel_phase16(int phase, C *sm, C *w, const C *tw,
                                                          const tb_panel_geom &g, int c0,
                                                          const tb_poisson_cb_info *in, int tid)
{
  const int last = tb_panel_stages(g) - 1;
  const int stage = phase <= last ? phase : 2 * last - phase;
  unsigned what = phase < last ? (unsigned)TB_PANEL_FWD
                  : phase == last
                      ? (unsigned)(TB_PANEL_FWD | TB_PANEL_SOLVE | TB_PANEL_INV)
                      : (unsigned)TB_PANEL_INV;
  if (stage == 0)
    what |= (phase == 0 ? (unsigned)TB_PANEL_LOAD : 0u) |
            (phase == 2 * last ? (unsigned)TB_PANEL_STORE : 0u);
  tb_panel_pass16_any<T, C, LASTLR, ILP>(sm, w, tw, g, c0, in, stage, what, tid);
}

/* The twiddle table: tw[k] = W_N^k = exp(-2 pi i k / N) for k < N, in long
 * double and rounded once to the precision (N a power of two: the angle
 * 2 pi k / N in long double errs by 2^-64 relatively, far below either
 * precision's unit roundoff). Host code. */
template <typename T, typename C> void tb_panel_twiddles(C *tw, int n)
{
  const long double pi = 3.141592653589793238462643383279502884L;
  for (int k = 0; k < n; k++) {
    const long double a = 2.0L * pi * (long double)k / (long double)n;
    tw[k].x = (T)cosl(a);
    tw[k].y = (T)-sinl(a);
  }
}

/* The staged twiddle table of the radix-16 and -32 schemes from the flat
 * one (N entries each): stage by stage, the stage on blocks of L values
 * (m = L / R) takes entries N - L .. N - m - 1, W_L^(j d) at
 * N - L + (d - 1) m + j for d = 1 .. R - 1, j < m, copied from the flat
 * table's W_N^((j d) N / L), so both tables give the same values; the
 * stages take N - 1 entries in all (the sum of L - m telescopes), and the
 * last, unread, is W_N^0. Host code. */
template <typename C> void tb_panel_twiddles_staged(C *staged, const C *flat, const tb_panel_geom &g)
{
  for (int logl = g.logn; logl > 0;) {
    const int lr = tb_panel_stage_lr(logl, g), logm = logl - lr;
    for (int d = 1; d < (1 << lr); d++)
      for (int j = 0; j < (1 << logm); j++)
        staged[g.n - (1 << logl) + ((d - 1) << logm) + j] = flat[(j * d) << (g.logn - logl)];
    logl = logm;
  }
  staged[g.n - 1] = flat[0];
}

} /* namespace */

#endif
