/* twinbench tests: a minimal checking harness for the Automake test driver
 * (exit 0 pass, 1 fail, 77 skip, 99 hard error). */
#ifndef TB_TESTUTIL_H
#define TB_TESTUTIL_H

#include <stdio.h>

static int tb_test_failures;

#define CHECK(cond, ...)                                                                        \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      tb_test_failures++;                                                                       \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);                 \
      fprintf(stderr, __VA_ARGS__);                                                             \
      fputc('\n', stderr);                                                                      \
    }                                                                                           \
  } while (0)

/* The CPU backend's variant of algo called name (registry.h and a
 * tb_algo_t in scope). */
#define CPU_VARIANT(algo, name) tb_variant_find((algo), 0, (name))

#define TEST_EXIT()                                                                             \
  do {                                                                                          \
    if (tb_test_failures)                                                                       \
      fprintf(stderr, "%d check(s) failed\n", tb_test_failures);                                \
    return tb_test_failures ? 1 : 0;                                                            \
  } while (0)

#endif
