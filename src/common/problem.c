/* twinbench: problems: an algorithm at one precision, size and parameter
 * point, its arrays, and the checks of its results. */
#include <config.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "params.h"
#include "problem.h"
#include "status.h"

int64_t tb_stream_rule_elems(int64_t llc_bytes, int64_t elem_bytes)
{
  int64_t n = (4 * llc_bytes + elem_bytes - 1) / elem_bytes;
  if (n < ((int64_t)1 << 25))
    n = (int64_t)1 << 25;
  if (n > ((int64_t)1 << 28))
    n = (int64_t)1 << 28;
  return n;
}

int64_t tb_count_mul(tb_problem_t *p, int64_t a, int64_t b)
{
  int64_t r;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r)) {
    if (p)
      p->overflow = 1;
    return INT64_MAX;
  }
  return r;
}

int64_t tb_count_add(tb_problem_t *p, int64_t a, int64_t b)
{
  int64_t r;
  if (a < 0 || b < 0 || __builtin_add_overflow(a, b, &r)) {
    if (p)
      p->overflow = 1;
    return INT64_MAX;
  }
  return r;
}

int tb_problem_add_array(tb_problem_t *p, const char *name, tb_kind_t kind, tb_role_t role,
                         int64_t count)
{
  if (p->narrays == TB_MAX_ARRAYS)
    return tb_fail(TB_EINVAL, "%s declares more than %d arrays", p->algo->name, TB_MAX_ARRAYS);
  tb_array_t *a = &p->array[p->narrays];
  a->name = name;
  a->kind = kind;
  a->role = role;
  a->count = count;
  a->host = NULL;
  tb_count_mul(p, count, (int64_t)tb_kind_size(kind)); /* marks a byte count that overflows */
  return p->narrays++;
}

int64_t tb_array_bytes(const tb_array_t *a)
{
  return tb_count_mul(NULL, a->count, (int64_t)tb_kind_size(a->kind));
}

int tb_check_fail(tb_check_t *chk, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(chk->note, sizeof chk->note, fmt, ap);
  va_end(ap);
  chk->verdict = TB_FAIL;
  return TB_OK;
}

int tb_check_against(tb_check_t *chk, double err, double tolerance)
{
  chk->error = err;
  chk->tolerance = tolerance;
  chk->verdict = err <= tolerance ? TB_PASS : TB_FAIL;
  return chk->verdict == TB_FAIL;
}

int tb_check_unverifiable(tb_check_t *chk, const char *fmt, ...)
{
  va_list ap;
  if (chk->verdict != TB_PASS)
    return TB_OK;
  va_start(ap, fmt);
  vsnprintf(chk->note, sizeof chk->note, fmt, ap);
  va_end(ap);
  chk->verdict = TB_UNVERIFIABLE;
  return TB_OK;
}

const char *tb_poison_note(double x)
{
  return x == x ? "" : " (never written: still poisoned)";
}

int tb_problem_setup(tb_problem_t *p, const tb_algo_t *algo, tb_prec_t prec, int64_t n,
                     uint64_t seed, const char *input_path, const tb_param_value_t *params)
{
  int rc;
  memset(p, 0, sizeof *p);
  p->algo = algo;
  p->prec = prec;
  p->n = n;
  p->seed = seed;
  p->input_path = input_path;
  for (int k = 0; k < algo->nparams; k++)
    p->param[k] = params[k];
  if ((rc = algo->setup(p)))
    return rc;
  if (p->overflow) {
    char what[256];
    tb_problem_text(p, what, sizeof what);
    return tb_fail(TB_ENOMEM, "%s does not fit in memory: its element or byte counts overflow "
                              "64 bits",
                   what);
  }
  return TB_OK;
}

void tb_problem_free_priv(tb_problem_t *p)
{
  free(p->priv);
  p->priv = NULL;
}

void tb_problem_destroy(tb_problem_t *p)
{
  if (p->algo && p->algo->cleanup)
    p->algo->cleanup(p);
  for (int i = 0; i < p->narrays; i++) {
    tb_free(p->array[i].host);
    p->array[i].host = NULL;
  }
}

int tb_problem_fill(tb_problem_t *p)
{
  char buf[32];
  for (int i = 0; i < p->narrays; i++) {
    tb_array_t *a = &p->array[i];
    if (a->role == TB_OUT)
      continue;
    a->host = tb_alloc(tb_array_bytes(a));
    if (!a->host)
      return tb_fail(TB_ENOMEM, "cannot allocate %s for array %s",
                     tb_format_bytes((double)tb_array_bytes(a), buf), a->name);
  }
  return p->algo->generate(p);
}

int tb_problem_create(tb_problem_t *p, const tb_algo_t *algo, tb_prec_t prec, int64_t n,
                      uint64_t seed, const tb_param_value_t *params)
{
  int rc = tb_problem_setup(p, algo, prec, n, seed, NULL, params);
  if (!rc)
    rc = tb_problem_fill(p);
  if (rc)
    tb_problem_destroy(p);
  return rc;
}

void tb_problem_text(const tb_problem_t *p, char *buf, size_t len)
{
  size_t k = (size_t)snprintf(buf, len, "%s %s size %lld%s", p->algo->name,
                              tb_prec_name(p->prec), (long long)p->n, p->algo->nparams ? " " : "");
  if (k < len)
    tb_params_format(p->algo->params, p->algo->nparams, p->param, buf + k, len - k);
}

