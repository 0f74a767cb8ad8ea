/* twinbench: vector versions of libm functions for the OpenMP simd loops.
 *
 * A loop that calls expf or logf vectorizes only if the compiler knows a SIMD
 * version of the function. glibc ships them (libmvec, the x86-64 vector
 * function ABI, linked through libm), but <math.h> declares them only under
 * -ffast-math, which would also license reassociation and break the
 * verifiers' rounding bounds. So the option twins declare the few they call,
 * exactly as glibc's <bits/math-vector.h> does. libmvec's functions are
 * accurate to 4 ulps, which is what the option verifiers allow every libm
 * call. erfc and exp2 joined libmvec in glibc 2.35, the others in 2.22; elsewhere the
 * loops still vectorize what they can and call the scalar functions. */
#ifndef TB_VECMATH_H
#define TB_VECMATH_H

#include <math.h>

#if defined(__x86_64__) && defined(__GLIBC__) && !defined(__FAST_MATH__) &&                     \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#define TB_SIMD_DECL _Pragma("omp declare simd notinbranch")
TB_SIMD_DECL float expf(float);
TB_SIMD_DECL float exp2f(float);
TB_SIMD_DECL float logf(float);
TB_SIMD_DECL float erfcf(float);
TB_SIMD_DECL double exp(double);
TB_SIMD_DECL double exp2(double);
TB_SIMD_DECL double log(double);
TB_SIMD_DECL double erfc(double);
#undef TB_SIMD_DECL
#endif

#endif
