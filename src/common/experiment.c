/* twinbench: experiment files and their results (doc/experiments.md). */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "columns.h"
#include "env.h"
#include "experiment.h"
#include "grammar.h"
#include "json.h"
#include "outfile.h"
#include "parse.h"
#include "registry.h"
#include "report.h"
#include "runner.h"
#include "status.h"
#include "textfile.h"
#include "timer.h"
#include "topo.h"

#define TB_EXP_MAX_VARS 128
#define TB_EXP_MAX_RUNS 256
#define TB_EXP_MAX_ARGS 256
/* The results files are read whole; a study's rows stay far below this. */
#define TB_EXP_MAX_FILE ((size_t)1 << 30)

/* The columns every results row starts with, before the run's own. */
static const char *const tb_exp_prefix[] = {"study", "machine", "run", "hash", "key"};
enum { TB_EXP_NPREFIX = sizeof tb_exp_prefix / sizeof tb_exp_prefix[0] };

typedef struct tb_exp_var {
  char *name, *value;
} tb_exp_var_t;

/* One run line, parsed and checked. */
typedef struct tb_exp_run {
  char *name;
  char *line;  /* expanded: ALGO OPTIONS..., blanks squeezed */
  char hash[17];
  int lineno;
  int selected; /* --only */
  int usable;   /* checked; 0: skipped with a note (no backend of it here) */
  char *arg[TB_EXP_MAX_ARGS]; /* "run", then the words; the options point into them */
  int nargs;
  tb_run_opts_t o;
  tb_run_state_t st;
  int parsed, checked;
  char absent[256]; /* why none of the backends it names is here, or "" */
  tb_colset_t *cols;
  long total;
  char **keys; /* this session's rows of the line, by their index in its results */
  int nkeys;
} tb_exp_run_t;

/* A recorded row: its identity, its CSV fields (by the header's columns;
 * missing ones are empty) and its JSON object on one line. */
typedef struct tb_exp_row {
  char *run, *hash, *key;
  char **field;
  int nfield;
  char *json;
} tb_exp_row_t;

typedef struct tb_exp {
  const tb_exp_opts_t *o;
  tb_exp_outcome_t *out;
  tb_topo_t *topo;
  char *study;
  char machine[128];
  tb_exp_var_t var[TB_EXP_MAX_VARS];
  int nvar;
  tb_exp_run_t run[TB_EXP_MAX_RUNS];
  int nrun;
  char *dir, *csv_path, *json_path;
  int dir_fd;
  char **header;
  int nheader;
  tb_exp_row_t *rows;
  int nrows, caprows;
  char **sessions; /* the JSON file's session objects, one line each */
  int nsessions;
  int session;       /* this session's number */
  int session_added; /* its object is in sessions */
  char *command;     /* this session's command line */
  long done, total, fresh; /* progress: rows recorded, to be, made in this session */
  long refused; /* configurations of the lines run that a variant refused here: no row */
  double start;
  int progress_shown;
} tb_exp_t;

static char *tb_exp_strdup(const char *s)
{
  char *d = strdup(s);
  if (!d)
    tb_fail(TB_ENOMEM, "out of memory");
  return d;
}

/* "FILE:LINE: message", the one line a bad file gets. */
static int tb_exp_fail(const tb_exp_t *e, int lineno, const char *fmt, ...)
{
  char msg[1024], shown[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  tb_printable(e->o->file, shown, sizeof shown);
  if (lineno > 0)
    return tb_fail(TB_EINVAL, "%s:%d: %s", shown, lineno, msg);
  return tb_fail(TB_EINVAL, "%s: %s", shown, msg);
}

/* A name of a study, run line or machine: it is a path component and a
 * CSV field, so letters, digits, '.', '_' and '-', not starting with '.'. */
static int tb_exp_name_ok(const char *s, size_t len)
{
  if (!len || len > 64 || s[0] == '.')
    return 0;
  for (size_t i = 0; i < len; i++)
    if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
      return 0;
  return 1;
}

/* ---- Variables --------------------------------------------------------- */

static const char *tb_exp_var_get(const tb_exp_t *e, const char *name, size_t len)
{
  for (int i = 0; i < e->nvar; i++)
    if (strlen(e->var[i].name) == len && !strncmp(e->var[i].name, name, len))
      return e->var[i].value;
  return NULL;
}

static int tb_exp_var_set(tb_exp_t *e, const char *name, size_t len, const char *value)
{
  if (e->nvar == TB_EXP_MAX_VARS)
    return tb_fail(TB_EINVAL, "more than %d variables", TB_EXP_MAX_VARS);
  char *n = strndup(name, len), *v = strdup(value);
  if (!n || !v) {
    free(n);
    free(v);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  e->var[e->nvar].name = n;
  e->var[e->nvar++].value = v;
  return TB_OK;
}

static int tb_exp_var_num(tb_exp_t *e, const char *name, long long value)
{
  char text[32];
  snprintf(text, sizeof text, "%lld", value);
  return tb_exp_var_set(e, name, strlen(name), text);
}

/* The built-in variables, from the machine (doc/experiments.md). */
static int tb_exp_builtins(tb_exp_t *e)
{
  const int cores = tb_topo_ncores(e->topo);
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  int64_t gpu_mem = 0;
  int gpu = 0, b, rc;
  char threads[512];
  size_t k = 0;
  /* 1, 2, 4, ... below the core count, then the core count itself. */
  for (int t = 1; t < cores && k < sizeof threads - 16; t *= 2)
    k += (size_t)snprintf(threads + k, sizeof threads - k, "%d,", t);
  snprintf(threads + k, sizeof threads - k, "%d", cores > 0 ? cores : 1);
  if (!tb_backend_parse("gpu", &b) && tb_backend_at(b)->probe() == TB_OK) {
    gpu = 1;
    if (tb_backend_at(b)->mem_available)
      tb_backend_at(b)->mem_available(&gpu_mem);
  }
  tb_error_clear();
  if ((rc = tb_exp_var_num(e, "CORES", cores)) ||
      (rc = tb_exp_var_num(e, "PUS", tb_topo_npus(e->topo))) ||
      (rc = tb_exp_var_set(e, "THREADS", 7, threads)) ||
      (rc = tb_exp_var_num(e, "MEM", pages > 0 && page > 0 ? (long long)pages * page : 0)) ||
      (rc = tb_exp_var_num(e, "LLC", (long long)tb_topo_llc_bytes(e->topo))) ||
      (rc = tb_exp_var_num(e, "GPU", gpu)) || (rc = tb_exp_var_num(e, "GPU_MEM", gpu_mem)))
    return rc;
  return TB_OK;
}

/* ---- Integer arithmetic: $((EXPR)) ------------------------------------- */

typedef struct tb_arith {
  const char *p;
  int bad;
} tb_arith_t;

static long long tb_arith_sum(tb_arith_t *a);

static void tb_arith_blank(tb_arith_t *a)
{
  while (isspace((unsigned char)*a->p))
    a->p++;
}

static long long tb_arith_atom(tb_arith_t *a)
{
  tb_arith_blank(a);
  if (*a->p == '-') {
    a->p++;
    return -tb_arith_atom(a);
  }
  if (*a->p == '(') {
    a->p++;
    long long x = tb_arith_sum(a);
    tb_arith_blank(a);
    if (*a->p != ')')
      a->bad = 1;
    else
      a->p++;
    return x;
  }
  if (!strncmp(a->p, "min(", 4) || !strncmp(a->p, "max(", 4)) {
    int is_min = a->p[1] == 'i';
    a->p += 4;
    long long x = tb_arith_sum(a);
    tb_arith_blank(a);
    a->bad |= *a->p != ',';
    a->p += *a->p == ',';
    long long y = tb_arith_sum(a);
    tb_arith_blank(a);
    a->bad |= *a->p != ')';
    a->p += *a->p == ')';
    return is_min ? (x < y ? x : y) : (x > y ? x : y);
  }
  if (!isdigit((unsigned char)*a->p)) {
    a->bad = 1;
    return 0;
  }
  char *end;
  errno = 0;
  long long x = strtoll(a->p, &end, 10);
  a->bad |= errno != 0;
  a->p = end;
  return x;
}

/* A ^ B, right-associative, B >= 0. */
static long long tb_arith_power(tb_arith_t *a)
{
  long long x = tb_arith_atom(a), r = 1;
  tb_arith_blank(a);
  if (*a->p != '^')
    return x;
  a->p++;
  long long y = tb_arith_power(a);
  if (y < 0 || y > 62) {
    a->bad = 1;
    return 0;
  }
  while (y-- > 0 && !a->bad) {
    if (__builtin_mul_overflow(r, x, &r))
      a->bad = 1;
  }
  return r;
}

static long long tb_arith_product(tb_arith_t *a)
{
  long long x = tb_arith_power(a);
  for (;;) {
    tb_arith_blank(a);
    char op = *a->p;
    if (op != '*' && op != '/' && op != '%')
      return x;
    a->p++;
    long long y = tb_arith_power(a);
    if (op == '*')
      a->bad |= __builtin_mul_overflow(x, y, &x);
    else if (y == 0)
      a->bad = 1;
    else
      x = op == '/' ? x / y : x % y;
  }
}

static long long tb_arith_sum(tb_arith_t *a)
{
  long long x = tb_arith_product(a);
  for (;;) {
    tb_arith_blank(a);
    char op = *a->p;
    if (op != '+' && op != '-')
      return x;
    a->p++;
    long long y = tb_arith_product(a);
    a->bad |= op == '+' ? __builtin_add_overflow(x, y, &x) : __builtin_sub_overflow(x, y, &x);
  }
}

/* ---- Expansion --------------------------------------------------------- */

/* Expand $NAME, ${NAME}, $((EXPR)) and $$ in in[0..len) onto f. */
static int tb_exp_expand_to(const tb_exp_t *e, int lineno, const char *in, size_t len, FILE *f)
{
  for (size_t i = 0; i < len; i++) {
    if (in[i] != '$') {
      fputc(in[i], f);
      continue;
    }
    if (i + 1 < len && in[i + 1] == '$') {
      fputc('$', f);
      i++;
    } else if (i + 2 < len && in[i + 1] == '(' && in[i + 2] == '(') {
      /* The inner text ends at the "))" that closes the first '('. */
      size_t j = i + 3;
      int depth = 0;
      for (; j + 1 < len; j++) {
        if (in[j] == '(')
          depth++;
        else if (in[j] == ')' && depth == 0 && in[j + 1] == ')')
          break;
        else if (in[j] == ')')
          depth--;
      }
      if (j + 1 >= len)
        return tb_exp_fail(e, lineno, "'$((' without its '))'");
      char *inner = NULL;
      size_t isize = 0;
      FILE *m = open_memstream(&inner, &isize);
      if (!m)
        return tb_fail(TB_ENOMEM, "out of memory");
      int rc = tb_exp_expand_to(e, lineno, in + i + 3, j - i - 3, m);
      fclose(m);
      if (rc) {
        free(inner);
        return rc;
      }
      tb_arith_t a = {inner, 0};
      long long x = tb_arith_sum(&a);
      tb_arith_blank(&a);
      if (a.bad || *a.p) {
        char shown[128];
        rc = tb_exp_fail(e, lineno, "bad arithmetic '%s' (integers, + - * / %% ^, min(A,B), "
                                         "max(A,B) and parentheses)",
                         tb_printable(inner, shown, sizeof shown));
        free(inner);
        return rc;
      }
      free(inner);
      fprintf(f, "%lld", x);
      i = j + 1;
    } else {
      size_t j = i + 1, end;
      int braced = j < len && in[j] == '{';
      j += braced;
      end = j;
      while (end < len && (isalnum((unsigned char)in[end]) || in[end] == '_'))
        end++;
      if (end == j || isdigit((unsigned char)in[j]) || (braced && (end >= len || in[end] != '}')))
        return tb_exp_fail(e, lineno, "'$' must start $NAME, ${NAME}, $((EXPR)) or $$");
      const char *v = tb_exp_var_get(e, in + j, end - j);
      if (!v) {
        char shown[80], name[72];
        snprintf(name, sizeof name, "%.*s", (int)(end - j < 70 ? end - j : 70), in + j);
        return tb_exp_fail(e, lineno, "unknown variable '%s'",
                           tb_printable(name, shown, sizeof shown));
      }
      fputs(v, f);
      i = end - 1 + braced;
    }
  }
  return TB_OK;
}

static int tb_exp_expand(const tb_exp_t *e, int lineno, const char *in, char **out)
{
  size_t size = 0;
  *out = NULL;
  FILE *f = open_memstream(out, &size);
  if (!f)
    return tb_fail(TB_ENOMEM, "out of memory");
  int rc = tb_exp_expand_to(e, lineno, in, strlen(in), f);
  if (fclose(f) && !rc)
    rc = tb_fail(TB_ENOMEM, "out of memory");
  if (rc) {
    free(*out);
    *out = NULL;
  }
  return rc;
}

/* ---- The file ---------------------------------------------------------- */

/* A run line's fingerprint (tb_fnv1a) in hexadecimal. */
static void tb_exp_hash(const char *s, char out[17])
{
  snprintf(out, 17, "%016llx", (unsigned long long)tb_fnv1a(s));
}

/* The words of an expanded line into r->arg[1..] (r->arg[0] is "run") and
 * r->line, the words joined by single blanks. */
static int tb_exp_words(tb_exp_t *e, tb_exp_run_t *r, char *text)
{
  size_t size = 0;
  FILE *f = open_memstream(&r->line, &size);
  if (!f || !(r->arg[0] = tb_exp_strdup("run"))) {
    if (f)
      fclose(f);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  r->nargs = 1;
  for (char *w = strtok(text, " \t\v\f"); w; w = strtok(NULL, " \t\v\f")) {
    if (r->nargs == TB_EXP_MAX_ARGS) {
      fclose(f);
      return tb_exp_fail(e, r->lineno, "run %s: more than %d words", r->name, TB_EXP_MAX_ARGS - 1);
    }
    fprintf(f, "%s%s", r->nargs > 1 ? " " : "", w);
    if (!(r->arg[r->nargs++] = tb_exp_strdup(w))) {
      fclose(f);
      return TB_ENOMEM;
    }
  }
  if (fclose(f))
    return tb_fail(TB_ENOMEM, "out of memory");
  tb_exp_hash(r->line, r->hash);
  return TB_OK;
}

/* Parse run line r with the run command's grammar; a run line takes no
 * report options: its rows go to the experiment's results. */
static int tb_exp_parse_run(tb_exp_t *e, tb_exp_run_t *r)
{
  int exit_now, rc;
  char **argv = malloc((size_t)r->nargs * sizeof *argv);
  if (!argv)
    return tb_fail(TB_ENOMEM, "out of memory");
  /* getopt permutes its argument vector: the words stay in r->arg. */
  memcpy(argv, r->arg, (size_t)r->nargs * sizeof *argv);
  rc = tb_grammar_parse(r->nargs, argv, &r->o, &exit_now);
  free(argv);
  r->parsed = 1;
  if (rc)
    return tb_exp_fail(e, r->lineno, "run %s: %s", r->name, tb_error_detail());
  const tb_run_opts_t *o = &r->o;
  if (exit_now || o->noutputs || o->format_given || o->s.dump_path || o->pivot || o->columns ||
      o->wide || o->quiet)
    return tb_exp_fail(e, r->lineno,
                       "run %s: a run line takes no report options (--output, --format, --dump, "
                       "--pivot, --columns, --wide, --quiet, --help): its rows go to the results",
                       r->name);
  return TB_OK;
}

/* Whether every backend that run line r names (-b, --backend) is missing
 * here, and why, into r->absent. Such a line is skipped before it is
 * parsed: a build without a GPU knows no GPU variant's tuning options. */
static void tb_exp_absent(tb_exp_run_t *r)
{
  const char *list = NULL;
  for (int i = 1; i < r->nargs; i++) {
    const char *w = r->arg[i];
    if ((!strcmp(w, "-b") || !strcmp(w, "--backend")) && i + 1 < r->nargs)
      list = r->arg[++i];
    else if (!strncmp(w, "--backend=", 10))
      list = w + 10;
    else if (!strncmp(w, "-b", 2) && w[2])
      list = w + 2;
  }
  char **names = NULL;
  int n = 0, b, here = 0;
  if (!list || tb_list_split(list, &names, &n)) {
    tb_error_clear();
    return;
  }
  for (int k = 0; k < n; k++) {
    if (tb_backend_parse(names[k], &b) || tb_backend_at(b)->probe() == TB_OK)
      here = 1; /* an unknown name is the grammar's to refuse */
    else if (!r->absent[0])
      snprintf(r->absent, sizeof r->absent, "the %s backend is not available: %s",
               tb_backend_at(b)->name, tb_error_detail());
  }
  tb_error_clear();
  tb_list_free(names, n);
  if (here)
    r->absent[0] = '\0';
}

/* One statement: study NAME | NAME = VALUE | run NAME: ALGO OPTIONS. */
static int tb_exp_statement(tb_exp_t *e, char *s, int lineno)
{
  size_t n = 0;
  while (s[n] && (isalnum((unsigned char)s[n]) || strchr("._-", s[n])))
    n++;
  char *rest = s + n;
  while (isspace((unsigned char)*rest))
    rest++;
  if (n == 5 && !strncmp(s, "study", 5) && *rest && *rest != '=') {
    char *end = rest + strcspn(rest, " \t\v\f");
    if (*end)
      *end++ = '\0';
    while (isspace((unsigned char)*end))
      end++;
    if (e->study)
      return tb_exp_fail(e, lineno, "a second 'study' line");
    if (*end || !tb_exp_name_ok(rest, strlen(rest)))
      return tb_exp_fail(e, lineno, "study takes one name of letters, digits, '.', '_', '-'");
    return (e->study = tb_exp_strdup(rest)) ? TB_OK : TB_ENOMEM;
  }
  if (n == 3 && !strncmp(s, "run", 3) && *rest) {
    size_t m = strcspn(rest, ":");
    while (m && isspace((unsigned char)rest[m - 1]))
      m--;
    if (rest[strcspn(rest, ":")] != ':' || !tb_exp_name_ok(rest, m) ||
        strcspn(rest, " \t\v\f:") != m)
      return tb_exp_fail(e, lineno, "expected 'run NAME: ALGO OPTIONS' (a NAME of letters, "
                                    "digits, '.', '_', '-', then ':')");
    if (e->nrun == TB_EXP_MAX_RUNS)
      return tb_exp_fail(e, lineno, "more than %d run lines", TB_EXP_MAX_RUNS);
    for (int i = 0; i < e->nrun; i++)
      if (strlen(e->run[i].name) == m && !strncmp(e->run[i].name, rest, m))
        return tb_exp_fail(e, lineno, "a second run line called '%s' (line %d has it)",
                           e->run[i].name, e->run[i].lineno);
    tb_exp_run_t *r = &e->run[e->nrun++];
    char *text;
    int rc;
    r->lineno = lineno;
    if (!(r->name = strndup(rest, m)))
      return tb_fail(TB_ENOMEM, "out of memory");
    if ((rc = tb_exp_expand(e, lineno, rest + strcspn(rest, ":") + 1, &text)))
      return rc;
    rc = tb_exp_words(e, r, text);
    free(text);
    if (!rc)
      tb_exp_absent(r);
    return rc || r->absent[0] ? rc : tb_exp_parse_run(e, r);
  }
  if (n && *rest == '=' && !isdigit((unsigned char)s[0]) && !memchr(s, '.', n) &&
      !memchr(s, '-', n)) {
    char *value;
    int rc;
    if (tb_exp_var_get(e, s, n))
      return tb_exp_fail(e, lineno, "variable '%.*s' is already set (built-ins: CORES, PUS, "
                                    "THREADS, MEM, LLC, GPU, GPU_MEM)", (int)n, s);
    rest++;
    while (isspace((unsigned char)*rest))
      rest++;
    if ((rc = tb_exp_expand(e, lineno, rest, &value)))
      return rc;
    size_t k = strlen(value);
    while (k && isspace((unsigned char)value[k - 1]))
      value[--k] = '\0';
    rc = tb_exp_var_set(e, s, n, value);
    free(value);
    return rc ? tb_exp_fail(e, lineno, "%s", tb_error_detail()) : TB_OK;
  }
  return tb_exp_fail(e, lineno, "expected 'study NAME', 'NAME = VALUE' or 'run NAME: ALGO "
                                "OPTIONS'");
}

/* Cut a comment: '#' at the start or after a blank, to the line's end. */
static void tb_exp_uncomment(char *s)
{
  for (char *p = s; *p; p++)
    if (*p == '#' && (p == s || isspace((unsigned char)p[-1]))) {
      *p = '\0';
      break;
    }
}

static int tb_exp_parse(tb_exp_t *e)
{
  tb_textfile_t f;
  char *line;
  int64_t lineno;
  int rc = tb_textfile_read(&f, e->o->file, 16 << 20);
  while (!rc && tb_textfile_next(&f, &line, &lineno)) {
    tb_exp_uncomment(line);
    while (isspace((unsigned char)*line))
      line++;
    if (*line)
      rc = tb_exp_statement(e, line, (int)lineno);
  }
  tb_textfile_free(&f);
  if (!rc && !e->study)
    rc = tb_exp_fail(e, 0, "no 'study NAME' line");
  if (!rc && !e->nrun)
    rc = tb_exp_fail(e, 0, "no 'run NAME: ALGO OPTIONS' line");
  return rc;
}

/* --only NAME,...: the run lines to run. */
static int tb_exp_select(tb_exp_t *e)
{
  char **names = NULL;
  int n = 0, rc = TB_OK;
  for (int i = 0; i < e->nrun; i++)
    e->run[i].selected = !e->o->only;
  if (!e->o->only)
    return TB_OK;
  if ((rc = tb_list_split(e->o->only, &names, &n)))
    return tb_fail(rc, "--only: %s", tb_error_detail());
  for (int k = 0; k < n && !rc; k++) {
    int i = 0;
    while (i < e->nrun && strcmp(e->run[i].name, names[k]))
      i++;
    if (i == e->nrun) {
      char shown[80];
      rc = tb_exp_fail(e, 0, "--only: no run line called '%s'",
                       tb_printable(names[k], shown, sizeof shown));
    } else
      e->run[i].selected = 1;
  }
  tb_list_free(names, n);
  return rc;
}

/* Check every selected run line against the registry and the machine. A
 * line whose backends are all missing here (a GPU line on a machine
 * without one) is skipped with a note; any other refusal is the file's. */
static int tb_exp_check(tb_exp_t *e)
{
  for (int i = 0; i < e->nrun; i++) {
    tb_exp_run_t *r = &e->run[i];
    if (!r->selected)
      continue;
    if (r->absent[0]) {
      tb_note("run %s skipped: %s", r->name, r->absent);
      continue;
    }
    int rc = tb_sweep_check(&r->o.s, e->topo, &r->st);
    r->checked = 1;
    if (rc == TB_ENODEV) {
      tb_note("run %s skipped: %s", r->name, tb_error_detail());
      continue;
    }
    if (rc)
      return tb_exp_fail(e, r->lineno, "run %s: %s", r->name, tb_error_detail());
    tb_note_release(1);
    if (!(r->cols = malloc(sizeof *r->cols)))
      return tb_fail(TB_ENOMEM, "out of memory");
    tb_sweep_columns(&r->o.s, &r->st, r->cols);
    r->usable = 1;
    r->total = tb_sweep_total(&r->o.s, &r->st);
  }
  return TB_OK;
}

/* ---- The results files ------------------------------------------------- */

static int tb_exp_slurp(const char *path, char **text)
{
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t size = 0, n;
  *text = NULL;
  if (!f)
    return errno == ENOENT || errno == ENOTDIR
               ? TB_OK
               : tb_fail(TB_EINVAL, "cannot read '%s': %s", path, strerror(errno));
  FILE *m = open_memstream(&buf, &size);
  char chunk[65536];
  while (m && (n = fread(chunk, 1, sizeof chunk, f)) > 0 && size < TB_EXP_MAX_FILE)
    fwrite(chunk, 1, n, m);
  int bad = ferror(f);
  fclose(f);
  if (!m || fclose(m)) {
    free(buf);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  if (bad || size >= TB_EXP_MAX_FILE) {
    free(buf);
    return tb_fail(TB_EINVAL, "cannot read '%s': %s", path, bad ? strerror(EIO) : "too large");
  }
  *text = buf;
  return TB_OK;
}

/* One CSV record at *p into fresh fields; returns their count, 0 at the
 * end, -1 for an unterminated quote. */
static int tb_exp_csv_record(const char **p, char ***fields)
{
  const char *s = *p;
  int n = 0, cap = 0;
  *fields = NULL;
  if (!*s)
    return 0;
  for (;;) {
    char *buf = NULL;
    size_t size = 0;
    FILE *m = open_memstream(&buf, &size);
    if (!m)
      return -1;
    if (*s == '"') {
      for (s++;; s++) {
        if (!*s) {
          fclose(m);
          free(buf);
          return -1;
        }
        if (*s == '"' && s[1] == '"')
          fputc(*s++, m);
        else if (*s == '"')
          break;
        else
          fputc(*s, m);
      }
      s++;
    }
    while (*s && *s != ',' && *s != '\n' && *s != '\r')
      fputc(*s++, m);
    fclose(m);
    if (n == cap) {
      char **g = realloc(*fields, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *g);
      if (!g) {
        free(buf);
        return -1;
      }
      *fields = g;
    }
    (*fields)[n++] = buf;
    if (*s == ',') {
      s++;
      continue;
    }
    if (*s == '\r')
      s++;
    if (*s == '\n')
      s++;
    break;
  }
  *p = s;
  return n;
}

static void tb_exp_fields_free(char **f, int n)
{
  for (int i = 0; i < n; i++)
    free(f[i]);
  free(f);
}

static void tb_exp_row_free(tb_exp_row_t *r)
{
  tb_exp_fields_free(r->field, r->nfield);
  free(r->json);
  memset(r, 0, sizeof *r);
}

/* Room for one more recorded row. */
static int tb_exp_rows_grow(tb_exp_t *e)
{
  if (e->nrows < e->caprows)
    return TB_OK;
  int cap = e->caprows ? 2 * e->caprows : 64;
  tb_exp_row_t *g = realloc(e->rows, (size_t)cap * sizeof *g);
  if (!g)
    return tb_fail(TB_ENOMEM, "out of memory");
  e->rows = g;
  e->caprows = cap;
  return TB_OK;
}

static int tb_exp_header_index(tb_exp_t *e, const char *name)
{
  for (int i = 0; i < e->nheader; i++)
    if (!strcmp(e->header[i], name))
      return i;
  char **h = realloc(e->header, (size_t)(e->nheader + 1) * sizeof *h);
  if (!h || !(h[e->nheader] = strdup(name))) {
    if (h)
      e->header = h;
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  e->header = h;
  return e->nheader++;
}

/* The JSON row object of a row starts with its identity, so that the
 * CSV's record of it finds it: {"run": R, "hash": H, "key": K, */
static char *tb_exp_json_prefix(const char *run, const char *hash, const char *key)
{
  char *buf = NULL;
  size_t size = 0;
  FILE *m = open_memstream(&buf, &size);
  if (!m)
    return NULL;
  fputs("{\"run\": ", m);
  tb_json_string(m, run);
  fputs(", \"hash\": ", m);
  tb_json_string(m, hash);
  fputs(", \"key\": ", m);
  tb_json_string(m, key);
  fputs(", ", m);
  if (fclose(m)) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* The JSON file's items: one per line, "    {...}" with a comma after all
 * but the last of its array; the line before names the array. */
static int tb_exp_load_json(tb_exp_t *e, char *text, char ***rows, int *nrows)
{
  int section = 0, cap = 0; /* 1: sessions, 2: rows */
  *rows = NULL;
  *nrows = 0;
  if (!strstr(text, "\"format\": \"twinbench-experiment\""))
    return tb_fail(TB_EINVAL, "'%s' is no experiment results file: leaving it alone", e->json_path);
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (!strcmp(line, "  \"sessions\": ["))
      section = 1;
    else if (!strcmp(line, "  \"rows\": ["))
      section = 2;
    else if (!strncmp(line, "    {", 5) && section) {
      char *item = line + 4;
      size_t len = strlen(item);
      if (item[len - 1] == ',')
        item[len - 1] = '\0';
      char ***list = section == 1 ? &e->sessions : rows;
      int *n = section == 1 ? &e->nsessions : nrows;
      if (section == 1) {
        int s = (int)strtol(item + strlen("{\"session\": "), NULL, 10);
        e->session = s > e->session ? s : e->session;
      }
      if (*n == cap || section == 1) {
        int want = section == 1 ? *n + 1 : (cap = cap ? 2 * cap : 64);
        char **g = realloc(*list, (size_t)want * sizeof *g);
        if (!g)
          return tb_fail(TB_ENOMEM, "out of memory");
        *list = g;
      }
      if (!((*list)[*n] = tb_exp_strdup(item)))
        return TB_ENOMEM;
      (*n)++;
    } else if (strncmp(line, "    ", 4))
      section = 0;
  }
  return TB_OK;
}

/* Read the results recorded before: a row counts as recorded when both
 * files hold it (a run killed between the two writes left it in one,
 * and it is made again). */
static int tb_exp_load(tb_exp_t *e)
{
  char *csv = NULL, *json = NULL, **jrows = NULL, **f;
  int njrows = 0, n, rc, dropped = 0;
  const char *p;
  for (int k = 0; k < TB_EXP_NPREFIX; k++)
    if ((rc = tb_exp_header_index(e, tb_exp_prefix[k])) < 0)
      return rc;
  if ((rc = tb_exp_slurp(e->csv_path, &csv)) || (rc = tb_exp_slurp(e->json_path, &json)))
    goto out;
  if (json && (rc = tb_exp_load_json(e, json, &jrows, &njrows)))
    goto out;
  p = csv ? csv : "";
  n = tb_exp_csv_record(&p, &f);
  if (n < 0) {
    rc = tb_fail(TB_EINVAL, "%s: the header is no CSV record: leaving it alone", e->csv_path);
    goto out;
  }
  if (n > 0) {
    for (int k = 0; k < n && rc >= 0; k++)
      rc = k < TB_EXP_NPREFIX ? (strcmp(f[k], tb_exp_prefix[k]) ? TB_EINVAL : 0)
                              : tb_exp_header_index(e, f[k]);
    tb_exp_fields_free(f, n);
    if (rc == TB_EINVAL)
      rc = tb_fail(TB_EINVAL, "'%s' is no experiment results file (its header does not start "
                              "study,machine,run,hash,key): leaving it alone",
                   e->csv_path);
    if (rc < 0)
      goto out;
  }
  for (int line = 2; n > 0 && (n = tb_exp_csv_record(&p, &f)) != 0; line++) {
    if (n != e->nheader) {
      if (n > 0)
        tb_exp_fields_free(f, n);
      rc = tb_fail(TB_EINVAL, "%s: record %d has %d fields, the header %d: leaving it alone",
                   e->csv_path, line, n < 0 ? 0 : n, e->nheader);
      goto out;
    }
    char *prefix = tb_exp_json_prefix(f[2], f[3], f[4]);
    int j = 0;
    while (prefix && j < njrows && (!jrows[j] || strncmp(jrows[j], prefix, strlen(prefix))))
      j++;
    free(prefix);
    if (j == njrows) {
      dropped++;
      tb_exp_fields_free(f, n);
      continue;
    }
    if ((rc = tb_exp_rows_grow(e))) {
      tb_exp_fields_free(f, n);
      goto out;
    }
    tb_exp_row_t *r = &e->rows[e->nrows++];
    r->field = f;
    r->nfield = n;
    r->run = f[2];
    r->hash = f[3];
    r->key = f[4];
    r->json = jrows[j];
    jrows[j] = NULL;
  }
  for (int j = 0; j < njrows; j++)
    dropped += jrows[j] != NULL;
  if (dropped)
    tb_note("%d row%s in only one of the results files (a run stopped between the two writes) "
            "will be made again", dropped, dropped == 1 ? "" : "s");
  rc = TB_OK;
out:
  for (int j = 0; j < njrows; j++)
    free(jrows[j]);
  free(jrows);
  free(csv);
  free(json);
  return rc;
}

/* The JSON document: the study, its run lines, the sessions that made its
 * rows (each with its environment) and the rows, one item a line. */
static void tb_exp_write_json(const tb_exp_t *e, FILE *f)
{
  fprintf(f, "{\n  \"format\": \"twinbench-experiment\",\n  \"version\": 1,\n  \"study\": ");
  tb_json_string(f, e->study);
  fputs(",\n  \"machine\": ", f);
  tb_json_string(f, e->machine);
  fputs(",\n  \"file\": ", f);
  tb_json_string(f, e->o->file);
  fputs(",\n  \"runs\": [", f);
  for (int i = 0; i < e->nrun; i++) {
    fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
    tb_json_string(f, e->run[i].name);
    fputs(", \"hash\": ", f);
    tb_json_string(f, e->run[i].hash);
    fputs(", \"line\": ", f);
    tb_json_string(f, e->run[i].line);
    fputc('}', f);
  }
  fputs("\n  ],\n  \"sessions\": [", f);
  for (int i = 0; i < e->nsessions; i++)
    fprintf(f, "%s\n    %s", i ? "," : "", e->sessions[i]);
  fputs("\n  ],\n  \"rows\": [", f);
  for (int i = 0; i < e->nrows; i++)
    fprintf(f, "%s\n    %s", i ? "," : "", e->rows[i].json);
  fputs("\n  ]\n}\n", f);
}

static void tb_exp_write_csv(const tb_exp_t *e, FILE *f)
{
  for (int c = 0; c < e->nheader; c++)
    tb__csv_field(f, e->header[c], c == 0);
  fputc('\n', f);
  for (int i = 0; i < e->nrows; i++) {
    for (int c = 0; c < e->nheader; c++)
      tb__csv_field(f, c < e->rows[i].nfield ? e->rows[i].field[c] : "", c == 0);
    fputc('\n', f);
  }
}

/* Rewrite both files, each through a temporary file renamed over it, so
 * that each is whole whenever the run stops: the JSON first, then the CSV
 * (a row in only one is made again, tb_exp_load). */
static int tb_exp_save(const tb_exp_t *e)
{
  tb_outfile_t of;
  int rc;
  for (int k = 0; k < 2; k++) {
    if ((rc = tb_outfile_open(&of, k ? e->csv_path : e->json_path)))
      return rc;
    if (k)
      tb_exp_write_csv(e, of.f);
    else
      tb_exp_write_json(e, of.f);
    if ((rc = tb_outfile_commit(&of)))
      return rc;
  }
  return TB_OK;
}

/* This session's object: when it ran, the command, the environment. */
static int tb_exp_session(tb_exp_t *e)
{
  char *buf = NULL, date[64];
  size_t size = 0;
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  FILE *m = open_memstream(&buf, &size);
  if (!m)
    return tb_fail(TB_ENOMEM, "out of memory");
  tb_report_t rep;
  memset(&rep, 0, sizeof rep);
  rep.topo = e->topo;
  rep.command_line = e->command;
  fprintf(m, "{\"session\": %d, \"started\": \"%s\", \"command\": ", e->session, date);
  tb_json_string(m, e->command);
  fputs(", \"environment\": ", m);
  tb_env_json(m, &rep);
  fputc('}', m);
  if (fclose(m)) {
    free(buf);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  /* One line: the JSON's line ends are all between its tokens. */
  for (char *p = buf; *p; p++)
    if (*p == '\n')
      *p = ' ';
  char **g = realloc(e->sessions, (size_t)(e->nsessions + 1) * sizeof *g);
  if (!g) {
    free(buf);
    return tb_fail(TB_ENOMEM, "out of memory");
  }
  e->sessions = g;
  e->sessions[e->nsessions++] = buf;
  e->session_added = 1;
  return TB_OK;
}

static tb_exp_row_t *tb_exp_find(const tb_exp_t *e, const char *run, const char *key)
{
  for (int i = 0; i < e->nrows; i++)
    if (!strcmp(e->rows[i].run, run) && !strcmp(e->rows[i].key, key))
      return &e->rows[i];
  return NULL;
}

/* Put a measured row of run line r into the recorded rows, in place of the
 * one of the same key. */
static int tb_exp_record(tb_exp_t *e, const tb_exp_run_t *r, const char *key,
                         const tb_result_t *row)
{
  tb_exp_row_t new_row;
  const tb_colset_t *cs = r->cols;
  char buf[64], *body = NULL, *prefix;
  size_t size = 0;
  tb_val_t v;
  int rc = TB_OK;
  memset(&new_row, 0, sizeof new_row);
  if (!(new_row.field = calloc((size_t)(e->nheader + cs->n), sizeof *new_row.field)))
    return tb_fail(TB_ENOMEM, "out of memory");
  const char *const ident[TB_EXP_NPREFIX] = {e->study, e->machine, r->name, r->hash, key};
  for (int k = 0; k < TB_EXP_NPREFIX && !rc; k++)
    if (!(new_row.field[k] = strdup(ident[k])))
      rc = tb_fail(TB_ENOMEM, "out of memory");
  new_row.nfield = TB_EXP_NPREFIX;
  for (int c = 0; c < cs->n && !rc; c++) {
    int at = tb_exp_header_index(e, cs->col[c].name);
    if (at < 0) {
      rc = at;
      break;
    }
    tb_colset_value(cs, row, c, &v);
    while (new_row.nfield <= at)
      new_row.field[new_row.nfield++] = NULL;
    free(new_row.field[at]);
    if (!(new_row.field[at] = strdup(tb__plain(&v, buf, sizeof buf))))
      rc = tb_fail(TB_ENOMEM, "out of memory");
  }
  for (int c = 0; c < new_row.nfield && !rc; c++)
    if (!new_row.field[c] && !(new_row.field[c] = strdup("")))
      rc = tb_fail(TB_ENOMEM, "out of memory");
  if (!rc && !(prefix = tb_exp_json_prefix(r->name, r->hash, key)))
    rc = tb_fail(TB_ENOMEM, "out of memory");
  if (!rc) {
    FILE *m = open_memstream(&body, &size);
    if (m) {
      fprintf(m, "%s\"session\": %d, \"row\": ", prefix, e->session);
      tb__json_row(m, cs, row);
      fputc('}', m);
    }
    free(prefix);
    if (!m || fclose(m))
      rc = tb_fail(TB_ENOMEM, "out of memory");
    new_row.json = body;
  }
  if (rc) {
    tb_exp_row_free(&new_row);
    return rc;
  }
  new_row.run = new_row.field[2];
  new_row.hash = new_row.field[3];
  new_row.key = new_row.field[4];
  tb_exp_row_t *old = tb_exp_find(e, r->name, key);
  if (old) {
    tb_exp_row_free(old);
    *old = new_row;
    return TB_OK;
  }
  if ((rc = tb_exp_rows_grow(e))) {
    tb_exp_row_free(&new_row);
    return rc;
  }
  e->rows[e->nrows++] = new_row;
  return TB_OK;
}

/* ---- Running ----------------------------------------------------------- */

typedef struct tb_exp_hook {
  tb_exp_t *e;
  tb_exp_run_t *r;
  tb_results_t *res;
} tb_exp_hook_t;

static int tb_exp_skip(void *arg, const char *key)
{
  const tb_exp_hook_t *h = arg;
  const tb_exp_row_t *row = tb_exp_find(h->e, h->r->name, key);
  return !h->e->o->force && row && !strcmp(row->hash, h->r->hash);
}

static void tb_exp_progress(tb_exp_t *e, const tb_exp_run_t *r, const tb_result_t *row)
{
  double elapsed = tb_wtime() - e->start;
  double left = elapsed / (double)e->fresh * (double)(e->total > e->done ? e->total - e->done : 0);
  char cfg[160], eta[48];
  tb_result_config_text(row, cfg, sizeof cfg);
  if (left < 90)
    snprintf(eta, sizeof eta, "about %.0f s left", left);
  else if (left < 5400)
    snprintf(eta, sizeof eta, "about %.0f min left", left / 60);
  else
    snprintf(eta, sizeof eta, "about %.1f h left", left / 3600);
  int tty = isatty(STDERR_FILENO);
  fprintf(stderr, "%s[%s %ld/%ld rows, %.0f s, %s] %s: %.60s %s n=%lld%s", tty ? "\r\033[K" : "",
          e->study, e->done, e->total, elapsed, eta, r->name, cfg, tb_prec_name(row->prec),
          (long long)row->n, tty ? "" : "\n");
  fflush(stderr);
  e->progress_shown = tty;
  tb_note_progress(tty);
}

static int tb_exp_row(void *arg, const char *key, const tb_result_t *row)
{
  tb_exp_hook_t *h = arg;
  tb_exp_t *e = h->e;
  tb_exp_run_t *r = h->r;
  int rc, i = (int)(row - h->res->r);
  if (!e->session_added && (rc = tb_exp_session(e)))
    return rc;
  /* The row's key by its index in the line's results, for the ceilings
   * that the end of the sweep settles (tb_exp_settle). */
  if (i >= r->nkeys) {
    char **g = realloc(r->keys, (size_t)(i + 1) * sizeof *g);
    if (!g)
      return tb_fail(TB_ENOMEM, "out of memory");
    for (int k = r->nkeys; k <= i; k++)
      g[k] = NULL;
    r->keys = g;
    r->nkeys = i + 1;
  }
  if (!(r->keys[i] = tb_exp_strdup(key)))
    return TB_ENOMEM;
  if ((rc = tb_exp_record(e, r, key, row)) || (rc = tb_exp_save(e)))
    return rc;
  e->out->rows++;
  e->out->failures += row->check.verdict == TB_FAIL;
  e->done++;
  e->fresh++;
  tb_exp_progress(e, r, row);
  return TB_OK;
}

/* The sweep's end measures the ceilings again and keeps the higher value
 * (runner.c): the rows written as they finished get the settled figures. */
static int tb_exp_settle(tb_exp_t *e, tb_exp_run_t *r, const tb_results_t *res)
{
  int rc = TB_OK;
  for (int i = 0; i < res->n && i < r->nkeys && !rc; i++)
    if (r->keys[i])
      rc = tb_exp_record(e, r, r->keys[i], &res->r[i]);
  return rc ? rc : res->n ? tb_exp_save(e) : TB_OK;
}

static int tb_exp_run_line(tb_exp_t *e, tb_exp_run_t *r)
{
  tb_results_t res = {0};
  tb_exp_hook_t h = {e, r, &res};
  r->o.s.progress = 0;
  r->o.s.skip = tb_exp_skip;
  r->o.s.row = tb_exp_row;
  r->o.s.hook_arg = &h;
  const long refused = r->st.refused;
  int rc = tb_sweep_run(&r->o.s, &r->st, &res);
  /* Configurations this machine cannot run (a block size over the kernel's
   * limit, shared memory over the device's) are not rows to wait for. */
  e->refused += r->st.refused - refused;
  e->total -= r->st.refused - refused;
  if (!rc)
    rc = tb_exp_settle(e, r, &res);
  tb_results_free(&res);
  return rc;
}

/* The results folder results/STUDY (made), locked for this run; both files
 * claimed once, so that an unwritable place fails before any work. */
static int tb_exp_open_dir(tb_exp_t *e)
{
  char shown[256];
  const char *parts[2] = {e->o->results_dir, e->dir};
  for (int k = 0; k < 2; k++)
    if (mkdir(parts[k], 0777) && errno != EEXIST)
      return tb_fail(TB_EINVAL, "cannot make the results folder '%s': %s",
                     tb_printable(parts[k], shown, sizeof shown), strerror(errno));
  e->dir_fd = open(e->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (e->dir_fd < 0)
    return tb_fail(TB_EINVAL, "cannot open the results folder '%s': %s",
                   tb_printable(e->dir, shown, sizeof shown), strerror(errno));
  if (flock(e->dir_fd, LOCK_EX | LOCK_NB))
    return tb_fail(TB_EINVAL, "'%s': another experiment is writing its results",
                   tb_printable(e->dir, shown, sizeof shown));
  tb_outfile_t of;
  for (int k = 0; k < 2; k++) {
    int rc = tb_outfile_open(&of, k ? e->csv_path : e->json_path);
    if (rc)
      return rc;
    tb_outfile_abort(&of);
  }
  return TB_OK;
}

static int tb_exp_paths(tb_exp_t *e)
{
  const char *m = e->o->machine;
  char host[256];
  if (!m) {
    if (gethostname(host, sizeof host))
      snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = '\0';
    host[strcspn(host, ".")] = '\0';
    m = host;
  }
  if (!tb_exp_name_ok(m, strlen(m))) {
    char shown[80];
    return tb_fail(TB_EINVAL,
                   "machine name '%s': 1 to 64 letters, digits, '.', '_', '-' (--machine NAME)",
                   tb_printable(m, shown, sizeof shown));
  }
  /* tb_exp_name_ok took at most 64 characters: they fit. */
  memcpy(e->machine, m, strlen(m) + 1);
  size_t len = strlen(e->o->results_dir) + strlen(e->study) + strlen(e->machine) + 16;
  if (!(e->dir = malloc(len)) || !(e->csv_path = malloc(len)) || !(e->json_path = malloc(len)))
    return tb_fail(TB_ENOMEM, "out of memory");
  snprintf(e->dir, len, "%s/%s", e->o->results_dir, e->study);
  snprintf(e->csv_path, len, "%s/%s.csv", e->dir, e->machine);
  snprintf(e->json_path, len, "%s/%s.json", e->dir, e->machine);
  return TB_OK;
}

/* The rows recorded of run line r with its present expansion. */
static long tb_exp_recorded(const tb_exp_t *e, const tb_exp_run_t *r)
{
  long n = 0;
  for (int i = 0; i < e->nrows; i++)
    n += !strcmp(e->rows[i].run, r->name) && !strcmp(e->rows[i].hash, r->hash);
  return n;
}

/* Rows of a selected run line made from another expansion of it (the line
 * was edited, or the machine's variables changed) are not its rows: they
 * go, with a note, and the line runs again. */
static void tb_exp_drop_changed(tb_exp_t *e)
{
  for (int i = 0; i < e->nrun; i++) {
    const tb_exp_run_t *r = &e->run[i];
    int dropped = 0, k = 0;
    if (!r->selected || !r->usable)
      continue;
    for (int j = 0; j < e->nrows; j++) {
      if (!strcmp(e->rows[j].run, r->name) && strcmp(e->rows[j].hash, r->hash)) {
        tb_exp_row_free(&e->rows[j]);
        dropped++;
      } else
        e->rows[k++] = e->rows[j];
    }
    e->nrows = k;
    if (dropped)
      tb_note("run %s has changed since its %d recorded row%s: they are dropped and it runs again",
              r->name, dropped, dropped == 1 ? "" : "s");
  }
}

static void tb_exp_dry_run(const tb_exp_t *e)
{
  printf("study %s on %s: results in %s and %s\n", e->study, e->machine, e->csv_path, e->json_path);
  for (int i = 0; i < e->nrun; i++) {
    const tb_exp_run_t *r = &e->run[i];
    if (!r->selected)
      printf("%s: not selected (--only)\n", r->name);
    else if (!r->usable)
      printf("%s: skipped (no backend of it here): twinbench run %s\n", r->name, r->line);
    else
      printf("%s: twinbench run %s  # %ld rows, %ld recorded%s\n", r->name, r->line, r->total,
             tb_exp_recorded(e, r), e->o->force ? " (--force: made again)" : "");
  }
}

static void tb_exp_free(tb_exp_t *e)
{
  for (int i = 0; i < e->nvar; i++) {
    free(e->var[i].name);
    free(e->var[i].value);
  }
  for (int i = 0; i < e->nrun; i++) {
    tb_exp_run_t *r = &e->run[i];
    if (r->checked)
      tb_run_state_free(&r->st);
    if (r->parsed)
      tb_run_opts_free(&r->o);
    for (int k = 0; k < r->nargs; k++)
      free(r->arg[k]);
    for (int k = 0; k < r->nkeys; k++)
      free(r->keys[k]);
    free(r->keys);
    free(r->cols);
    free(r->name);
    free(r->line);
  }
  for (int i = 0; i < e->nrows; i++)
    tb_exp_row_free(&e->rows[i]);
  free(e->rows);
  tb_exp_fields_free(e->header, e->nheader);
  tb_exp_fields_free(e->sessions, e->nsessions);
  if (e->dir_fd > 0)
    close(e->dir_fd);
  free(e->dir);
  free(e->csv_path);
  free(e->json_path);
  free(e->study);
  free(e->command);
  if (e->topo)
    tb_topo_close(e->topo);
}

int tb_experiment_run(const tb_exp_opts_t *o, tb_exp_outcome_t *out)
{
  tb_exp_t *e = calloc(1, sizeof *e);
  int rc;
  if (!e)
    return tb_fail(TB_ENOMEM, "out of memory");
  memset(out, 0, sizeof *out);
  e->o = o;
  e->out = out;
  e->dir_fd = -1;
  size_t len = strlen(o->file) + 32;
  if (!(e->command = malloc(len)))
    rc = tb_fail(TB_ENOMEM, "out of memory");
  else {
    snprintf(e->command, len, "twinbench experiment %s", o->file);
    if (!(rc = tb_topo_open(&e->topo)) && !(rc = tb_exp_builtins(e)) && !(rc = tb_exp_parse(e)) &&
        !(rc = tb_exp_select(e)) && !(rc = tb_exp_paths(e)) && !(rc = tb_exp_check(e)) &&
        !(rc = tb_exp_load(e))) {
      e->session++;
      if (o->dry_run)
        tb_exp_dry_run(e);
      else if (!(rc = tb_exp_open_dir(e))) {
        tb_exp_drop_changed(e);
        for (int i = 0; i < e->nrun; i++)
          if (e->run[i].selected && e->run[i].usable) {
            e->total += e->run[i].total;
            e->done += o->force ? 0 : tb_exp_recorded(e, &e->run[i]);
          }
        e->start = tb_wtime();
        for (int i = 0; i < e->nrun && !rc; i++)
          if (e->run[i].selected && e->run[i].usable)
            rc = tb_exp_run_line(e, &e->run[i]);
        if (e->progress_shown)
          fprintf(stderr, "\r\033[K");
        tb_note_progress(0);
        if (!rc || rc == TB_EINTR) {
          char refused[96] = "";
          if (e->refused)
            snprintf(refused, sizeof refused, " (%ld configuration%s refused here: see the notes)",
                     e->refused, e->refused == 1 ? "" : "s");
          fprintf(stderr, "twinbench: %s: %d row%s made, %ld of %ld recorded in %s%s\n", e->study,
                  out->rows, out->rows == 1 ? "" : "s", e->done, e->total, e->csv_path, refused);
        }
      }
    }
  }
  tb_exp_free(e);
  free(e);
  return rc;
}
