/* twinbench: basic types shared by every part of the program, host and device. */
#ifndef TB_TYPES_H
#define TB_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Functions that CUDA device code may call as well as host code. */
#if defined(__CUDACC__)
#define TB_HD __host__ __device__
#else
#define TB_HD
#endif

/* Inlining that the vectorizer can rely on: a simd loop over a call that the
 * compiler declined to inline (its size heuristics) runs one element at a
 * time. Hot helpers shared by host loops and kernels use it. */
#if defined(__CUDACC__)
#define TB_INLINE __forceinline__
#elif defined(__GNUC__)
#define TB_INLINE inline __attribute__((always_inline))
#else
#define TB_INLINE inline
#endif

/* The precisions (element types) a problem can be posed in. */
typedef enum tb_prec {
  TB_INT32 = 0,
  TB_FLOAT = 1,
  TB_DOUBLE = 2,
  TB_NPREC
} tb_prec_t;

#define TB_PREC_BIT(p) (1u << (p))

/* Element kinds of the arrays a problem declares. */
typedef enum tb_kind {
  TB_KIND_I32,
  TB_KIND_U32,
  TB_KIND_I64,
  TB_KIND_F32,
  TB_KIND_F64,
  TB_KIND_U8
} tb_kind_t;

/* Size in bytes of one element of kind k. */
size_t tb_kind_size(tb_kind_t k);

/* The array element kind that holds values of precision p. */
tb_kind_t tb_prec_kind(tb_prec_t p);

/* "int32", "float" or "double". */
const char *tb_prec_name(tb_prec_t p);

/* Parse a precision name; returns 0, or TB_EINVAL with a message. */
int tb_prec_parse(const char *s, tb_prec_t *p);

#ifdef __cplusplus
}
#endif
#endif
