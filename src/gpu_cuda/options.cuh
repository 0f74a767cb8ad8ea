/* twinbench: what the option families' CUDA twins share: the formulas of
 * options_math.h by element type, and the device arrays of an option set. */
#ifndef TB_OPTIONS_CUH
#define TB_OPTIONS_CUH

#include "../families/options.h"
#include "../families/options_math.h"
#include "cuda_util.h"

namespace {

template <typename T> struct tb_opt;

template <> struct tb_opt<float> {
  static const int w = TB_MC_W_F32;
  static const bool fsum = true; /* math=fast adds groups in float (TB_MC_FSUM_GROUPS) */
  static __device__ __forceinline__ void bs(float s, float x, float t, float r, float v, int exact,
                                            int fast, float *c, float *p)
  {
    tb_bs_price_f32(s, x, t, r, v, exact, fast, c, p);
  }
  static __device__ __forceinline__ void drift(float t, float r, float v, int fast, float *mu,
                                               float *sig)
  {
    tb_mc_drift_f32(t, r, v, fast, mu, sig);
  }
  static __device__ __forceinline__ float sample(float s, float x, float mu, float sig, float z,
                                                 int put, int anti, int fast)
  {
    return tb_mc_sample_f32(s, x, mu, sig, z, put, anti, fast);
  }
  static __device__ __forceinline__ tb_mc_fsum_t fgroup(uint64_t seed, uint64_t o, uint64_t g,
                                                        float s, float x, float mu, float sig,
                                                        int put, int anti, int fast)
  {
    return tb_mc_fgroup_f32(seed, o, g, TB_MC_W_F32, s, x, mu, sig, put, anti, fast);
  }
  static __device__ __forceinline__ tb_mc_sum_t group(uint64_t seed, uint64_t o, uint64_t g,
                                                      int count, float s, float x, float mu,
                                                      float sig, int put, int anti, int fast)
  {
    return tb_mc_group_f32(seed, o, g, count, s, x, mu, sig, put, anti, fast);
  }
};

template <> struct tb_opt<double> {
  static const int w = TB_MC_W_F64;
  static const bool fsum = false;
  static __device__ __forceinline__ void bs(double s, double x, double t, double r, double v,
                                            int exact, int fast, double *c, double *p)
  {
    tb_bs_price_f64(s, x, t, r, v, exact, fast, c, p);
  }
  static __device__ __forceinline__ void drift(double t, double r, double v, int fast,
                                               double *mu, double *sig)
  {
    tb_mc_drift_f64(t, r, v, fast, mu, sig);
  }
  static __device__ __forceinline__ double sample(double s, double x, double mu, double sig,
                                                  double z, int put, int anti, int fast)
  {
    return tb_mc_sample_f64(s, x, mu, sig, z, put, anti, fast);
  }
  static __device__ __forceinline__ tb_mc_fsum_t fgroup(uint64_t, uint64_t, uint64_t, double,
                                                        double, double, double, int, int, int)
  {
    return tb_mc_fsum_t{0.0f, 0.0f}; /* never called: fsum is false */
  }
  static __device__ __forceinline__ tb_mc_sum_t group(uint64_t seed, uint64_t o, uint64_t g,
                                                      int count, double s, double x, double mu,
                                                      double sig, int put, int anti, int fast)
  {
    return tb_mc_group_f64(seed, o, g, count, s, x, mu, sig, put, anti, fast);
  }
};

/* The device arrays of an option set: inputs, and r, v (NULL: the scalars). */
template <typename T> struct tb_opt_in {
  const T *s, *x, *t, *r, *v;
  T r0, v0;
};

template <typename T> tb_opt_in<T> tb_opt_in_of(const tb_ctx_t *ctx, const tb_optset_t *o)
{
  tb_opt_in<T> in;
  in.s = (const T *)ctx->buf[o->s];
  in.x = (const T *)ctx->buf[o->x];
  in.t = (const T *)ctx->buf[o->t];
  in.r = o->r >= 0 ? (const T *)ctx->buf[o->r] : NULL;
  in.v = o->v >= 0 ? (const T *)ctx->buf[o->v] : NULL;
  in.r0 = (T)o->r0;
  in.v0 = (T)o->v0;
  return in;
}

} /* namespace */

#endif
