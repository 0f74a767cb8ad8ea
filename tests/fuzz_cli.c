/* twinbench tests: a seeded fuzzer of the command line.
 *
 * usage: fuzz_cli [-s SEED] [-n CASES] [-c CASE] [-j JOBS] [-t SECONDS] [-k] [-m] [-v] TWINBENCH
 *
 * The options and the algorithms' parameters are read from the program itself
 * (run --help, list, list ALGO), so the fuzzer keeps up when they change. Each
 * case is a command line built from them with hostile values (overflowing and
 * malformed numbers, empty list items, long and non-UTF-8 strings, format
 * characters, special files) and, where an option reads a file, a malformed
 * file. A case depends only on the seed and its number, never on -j or on the
 * other cases, so `-c CASE` reruns one case exactly.
 *
 * Every case runs in its own folder under one temporary folder (made here and
 * removed at the end), with its own special files: a directory, two FIFOs with
 * a writer and a reader at their other ends (as <(cmd) and >(cmd) would),
 * symlinks and, when root, private device nodes made with mknod (never the
 * machine's own /dev). Values never name an absolute path nor climb out with
 * "..", so nothing outside the temporary folder is touched.
 *
 * A case fails on: death by a signal, no exit within the timeout (hang), a
 * sanitizer report on stderr, an exit status the manual does not list (0 1 2 3
 * 69 130), a refusal (2) that is not exactly one line on stderr, raw control
 * characters on stderr (a value echoed unescaped), a temporary report file
 * (*.tmp.*) left behind, or a special file of the case's folder (device node,
 * FIFO, symlink, directory) replaced or changed.
 *
 * Exit status: 0 every case passed, 1 some failed, 99 the fuzzer could not run. */
#define _GNU_SOURCE /* memmem; mknod, mkfifo, nftw and mkdtemp come with it */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- Settings and the process's state ---- */

static struct {
  uint64_t seed;
  long cases, only; /* only: the one case to run, or -1 */
  int jobs, keep, minimize, verbose;
  double timeout;
  char tb[PATH_MAX];  /* the program's absolute path: cases run in their own folders */
  char tmp[512];      /* the temporary folder, "" until made */
  int can_mknod;
} G = {.seed = 1, .cases = 500, .only = -1, .jobs = 2, .timeout = 10};

static volatile sig_atomic_t G_stop;

static void on_signal(int sig)
{
  G_stop = sig;
}

static void rm_tree(const char *path);

static _Noreturn void die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("fuzz_cli: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  if (G.tmp[0])
    rm_tree(G.tmp);
  exit(99);
}

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- The program's options, read from its help ---- */

enum { MAX_WORDS = 48, MAX_OPTS = 64, MAX_ALGOS = 16, MAX_PARAMS = 24, MAX_NAMES = 24 };

typedef struct {
  const char *name;                    /* long name, without -- */
  char shortopt;                       /* 0 when it has none */
  const char *arg;                     /* its placeholder (LIST, N, FILE...), NULL for a flag */
  int writes;                          /* a FILE the program writes */
  const char *words[MAX_WORDS];        /* the words of its description: likely values, */
  int nwords, nlead;                   /* the likeliest first (see add_desc) */
} opt_t;

enum { P_ENUM, P_INT, P_REAL, P_TEXT };

typedef struct {
  const char *name;
  int kind;
  double lo, hi;                       /* P_INT, P_REAL: the valid range */
  long dflt;                           /* P_INT: the default, when it is a plain number */
  const char *words[MAX_WORDS];        /* P_ENUM: the values; otherwise the description's words, */
  int nwords, nlead;                   /* the likeliest first (see add_desc) */
} param_t;

typedef struct {
  const char *name;
  param_t param[MAX_PARAMS];
  int nparams;
  const char *variant[MAX_NAMES], *precision[MAX_NAMES], *preset[MAX_NAMES], *column[MAX_NAMES];
  const char *accepts[MAX_NAMES]; /* the options only some algorithms take ("input: --input FILE is accepted") */
  int nvariants, nprecisions, npresets, ncolumns, naccepts;
} algo_t;

static struct {
  opt_t opt[MAX_OPTS];
  int nopts;
  algo_t algo[MAX_ALGOS];
  int nalgos;
  char mem[1 << 18]; /* the strings above */
  size_t used;
} M;

static const char *model_str(const char *s, size_t n)
{
  if (M.used + n + 1 > sizeof M.mem)
    die("the program's help outgrew the fuzzer's tables");
  char *p = memcpy(M.mem + M.used, s, n);
  p[n] = '\0';
  M.used += n + 1;
  return p;
}

/* Add the words of text (lower-case runs of letters, digits and '_', two or
 * more long) to a word list, once each. */
static void add_words(const char **words, int *n, const char *text)
{
  static const char first[] = "abcdefghijklmnopqrstuvwxyz";
  static const char rest[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
  for (const char *p = text; *p;) {
    size_t len = strchr(first, *p) && (p == text || !strchr(rest, p[-1])) ? strspn(p, rest) : 0;
    if (len < 2) {
      p++;
      continue;
    }
    int dup = 0;
    for (int i = 0; i < *n && !dup; i++)
      dup = strlen(words[i]) == len && !strncmp(words[i], p, len);
    if (!dup && *n < MAX_WORDS)
      words[(*n)++] = model_str(p, len);
    p += len;
  }
}

/* Add the words of a description; return how many come before its first
 * parenthesis, where help texts list the values ("cpu, gpu (default: ...)"). */
static int add_desc(const char **words, int *n, const char *desc)
{
  char lead[512];
  snprintf(lead, sizeof lead, "%.*s", (int)strcspn(desc, "("), desc);
  add_words(words, n, lead);
  int nlead = *n;
  add_words(words, n, desc + strlen(lead));
  return nlead;
}

static void add_name(const char **names, int *n, const char *s, size_t len)
{
  if (len && *n < MAX_NAMES)
    names[(*n)++] = model_str(s, len);
}

/* The program's standard output for argv, or NULL when it does not exit 0. */
static char *capture(char *const argv[])
{
  int fd[2];
  if (pipe(fd))
    die("pipe: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0)
    die("fork: %s", strerror(errno));
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    execv(argv[0], argv);
    _exit(127);
  }
  close(fd[1]);
  size_t len = 0, cap = 1 << 16;
  char *s = malloc(cap);
  ssize_t got;
  while (s && (got = read(fd[0], s + len, cap - len - 1)) > 0)
    if ((len += (size_t)got) + 1 == cap && !(s = realloc(s, cap *= 2)))
      die("out of memory");
  close(fd[0]);
  int st;
  waitpid(pid, &st, 0);
  if (!s || !WIFEXITED(st) || WEXITSTATUS(st)) {
    free(s);
    return NULL;
  }
  s[len] = '\0';
  return s;
}

static opt_t *find_opt(const char *name)
{
  for (int i = 0; i < M.nopts; i++)
    if (!strcmp(M.opt[i].name, name))
      return &M.opt[i];
  return NULL;
}

/* `run --help`: an option line is "  -x, --name ARG  description" or
 * "      --name ARG  description"; deeper-indented lines continue the
 * description. --NAME (the parameters' form) is read from `list ALGO`. */
static void read_run_help(char *text)
{
  opt_t *last = NULL;
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char *p = line + strspn(line, " ");
    if (p == line || (*p != '-' && p - line < 10)) {
      last = NULL;
      continue;
    }
    if (*p != '-') {
      if (last)
        add_words(last->words, &last->nwords, p);
      continue;
    }
    opt_t o = {0};
    if (p[1] != '-') {
      o.shortopt = p[1];
      p += 2;
      p += strspn(p, ", ");
    }
    if (strncmp(p, "--", 2))
      continue;
    p += 2;
    size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789-");
    if (!n || (p[n] && p[n] != ' ') || M.nopts == MAX_OPTS)
      continue;
    o.name = model_str(p, n);
    p += n;
    if (p[0] == ' ' && p[1] && p[1] != ' ') {
      size_t m = strcspn(p + 1, " ");
      o.arg = model_str(p + 1, m);
      p += 1 + m;
      const char *alt = strchr(o.arg, '|'); /* LIST|sweep: sweep is a value */
      if (alt)
        add_words(o.words, &o.nwords, alt);
    }
    o.nlead = add_desc(o.words, &o.nwords, p);
    o.writes = o.arg && strstr(o.arg, "FILE") && strstr(p, "write");
    M.opt[M.nopts] = o;
    last = &M.opt[M.nopts++];
  }
}

/* A parameter line of `list ALGO`: "name  description; default D; one of a b"
 * or "...; integer in [lo, hi]", "real in [lo, hi]", "text". The variants'
 * tuning parameters have the same form; one that several variants share
 * (block) is read once. */
static void read_param(algo_t *a, const char *p)
{
  size_t n = strcspn(p, " ");
  for (int i = 0; i < a->nparams; i++)
    if (strlen(a->param[i].name) == n && !strncmp(a->param[i].name, p, n))
      return;
  if (a->nparams == MAX_PARAMS)
    return;
  param_t *q = &a->param[a->nparams++];
  q->name = model_str(p, n);
  const char *desc = p + n, *s;
  q->kind = P_TEXT;
  if ((s = strstr(desc, "; one of "))) {
    q->kind = P_ENUM;
    for (s += 9; *s; s += strspn(s, " ")) {
      size_t m = strcspn(s, " ");
      if (q->nwords < MAX_WORDS)
        q->words[q->nwords++] = model_str(s, m);
      s += m;
    }
    q->nlead = q->nwords;
  } else if ((s = strstr(desc, "integer in [")) || (s = strstr(desc, "real in ["))) {
    q->kind = *s == 'i' ? P_INT : P_REAL;
    char *end;
    q->lo = strtod(strchr(s, '[') + 1, &end);
    q->hi = strtod(end + strspn(end, ", "), NULL);
  } else
    q->nlead = add_desc(q->words, &q->nwords, desc);
  q->dflt = (s = strstr(desc, "; default ")) ? strtol(s + 10, NULL, 10) : 0;
}

/* `list ALGO`: sections at indent 2 ("size:", "precisions:", "input:",
 * "presets:", "parameters ...:", "variants:", "columns:"), items at 4. */
static void read_algo(algo_t *a, char *text)
{
  char section[16] = "";
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    size_t indent = strspn(line, " ");
    char *p = line + indent;
    if (indent == 2) {
      size_t n = strcspn(p, " :(");
      snprintf(section, sizeof section, "%.*s", (int)n, p);
      p += n + strspn(p + n, ": ");
      if (strstr(p, "is accepted"))
        add_name(a->accepts, &a->naccepts, section, strlen(section));
      else if (!strcmp(section, "precisions"))
        for (size_t m; *p && *p != ' '; p += m + (p[m] == ','))
          add_name(a->precision, &a->nprecisions, p, m = strcspn(p, ", "));
    }
    if (indent < 2)
      continue;
    if (!strcmp(section, "presets") && strstr(p, " = "))
      add_name(a->preset, &a->npresets, p, strcspn(p, " "));
    else if (indent == 4 && !strcmp(section, "parameters"))
      read_param(a, p);
    else if (indent == 4 && !strcmp(section, "columns"))
      add_name(a->column, &a->ncolumns, p, strcspn(p, " "));
    else if (indent == 4 && !strcmp(section, "variants")) {
      p += strcspn(p, " ");
      p += strspn(p, " ");
      if (*p != '(')
        add_name(a->variant, &a->nvariants, p, strcspn(p, " "));
    } else if (indent > 4 && !strcmp(section, "variants"))
      read_param(a, p);
  }
}

static void read_model(void)
{
  char *argv[4] = {G.tb, "run", "--help", NULL};
  char *text = capture(argv);
  if (!text)
    die("'%s run --help' failed", G.tb);
  read_run_help(text);
  free(text);
  /* The cheap defaults of every valid-looking case need these. */
  static const char *const needed[] = {"size", "repeat", "warmup", "ceiling-size", "backend"};
  for (int i = 0; i < COUNT(needed); i++)
    if (!find_opt(needed[i]))
      die("'run --help' has no --%s (%d options read): the fuzzer needs it", needed[i], M.nopts);

  argv[1] = "list";
  argv[2] = NULL;
  if (!(text = capture(argv)))
    die("'%s list' failed", G.tb);
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
    if (*line >= 'a' && *line <= 'z' && M.nalgos < MAX_ALGOS)
      M.algo[M.nalgos++].name = model_str(line, strcspn(line, " "));
  free(text);
  if (!M.nalgos)
    die("'list' named no algorithm");
  for (int i = 0; i < M.nalgos; i++) {
    argv[2] = (char *)M.algo[i].name;
    if (!(text = capture(argv)))
      die("'%s list %s' failed", G.tb, M.algo[i].name);
    read_algo(&M.algo[i], text);
    free(text);
  }
}

/* ---- A case: its command line, its files, and the generator's state ---- */

enum { MAX_ARGS = 256, MAX_GROUPS = 64, MAX_FILES = 16, CASE_MEM = 4 << 20 };

typedef struct {
  long index;
  uint64_t rng;
  const char *arg[MAX_ARGS];
  int group[MAX_ARGS], narg;
  /* Arguments come in groups (an option and its value); the minimizer drops
   * whole groups, never the fixed ones (the command and the cheap defaults). */
  int ngroups, fixed[MAX_GROUPS], tail[MAX_GROUPS], drop[MAX_GROUPS];
  const char *file[MAX_FILES], *data[MAX_FILES];
  size_t len[MAX_FILES];
  int nfiles;
  size_t argbytes;
  int gentle; /* valid values only: such cases get past the checks, to the runs and the writers */
  int fifo_in, fifo_out; /* each FIFO is named once: its peer opens it once */
  /* The options the case fuzzes: they get no cheap default. */
  const char *fuzzed[MAX_GROUPS];
  int nfuzzed;
  /* The values the files are made to fit: paths, steps and dimensions. */
  long size, steps, dim;
  char *mem;
  size_t used;
} case_t;

/* splitmix64: tiny, and every draw depends only on the case's seed. */
static uint64_t rnd(case_t *c)
{
  uint64_t z = (c->rng += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static unsigned below(case_t *c, unsigned n)
{
  return n ? (unsigned)(rnd(c) % n) : 0;
}

static int chance(case_t *c, unsigned percent)
{
  return below(c, 100) < percent;
}

static double unif(case_t *c, double lo, double hi)
{
  return lo + (hi - lo) * (double)(rnd(c) >> 11) * 0x1p-53;
}

#define PICK(c, a) ((a)[below((c), COUNT(a))])

/* The generators' dice: roll() picks a branch, the valid ones being the low
 * numbers; bad() breaks something. A gentle case always takes the valid branch. */
static unsigned roll(case_t *c)
{
  return c->gentle ? 0 : below(c, 100);
}

static int bad(case_t *c, unsigned percent)
{
  return !c->gentle && chance(c, percent);
}

static char *cmem(case_t *c, size_t n)
{
  if (c->used + n > CASE_MEM)
    die("case %ld outgrew its memory", c->index);
  char *p = c->mem + c->used;
  c->used += n;
  return p;
}

static const char *cfmt(case_t *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = cmem(c, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

static const char *cfill(case_t *c, char ch, size_t n)
{
  char *p = cmem(c, n + 1);
  memset(p, ch, n);
  p[n] = '\0';
  return p;
}

/* File contents are built at the end of the case's memory, one file at a
 * time: put() appends, and nothing else allocates until the file is added. */
static void put(case_t *c, const void *s, size_t n)
{
  memcpy(cmem(c, n), s, n);
}

static void putf(case_t *c, const char *fmt, ...)
{
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  put(c, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void puts_(case_t *c, const char *s)
{
  put(c, s, strlen(s));
}

/* The file built since `start`, under a fresh name from stem. */
static const char *add_file(case_t *c, const char *stem, size_t start)
{
  if (c->nfiles == MAX_FILES)
    die("case %ld has too many files", c->index);
  int k = c->nfiles++;
  c->data[k] = c->mem + start;
  c->len[k] = c->used - start;
  return c->file[k] = cfmt(c, "%s-%d", stem, k);
}

static int group(case_t *c, int fixed)
{
  if (c->ngroups == MAX_GROUPS)
    die("case %ld has too many groups", c->index);
  c->fixed[c->ngroups] = fixed;
  return c->ngroups++;
}

/* Append an argument. The kernel takes at most 128 KiB an argument and 2 MiB
 * in all: longer ones are cut, and past 1 MiB in all they are "x", so that
 * exec never fails. */
static void arg(case_t *c, const char *s)
{
  if (c->narg == MAX_ARGS)
    die("case %ld has too many arguments", c->index);
  size_t n = strlen(s);
  if (c->argbytes + n > (1 << 20))
    s = "x", n = 1;
  else if (n > 100000)
    s = cfmt(c, "%.100000s", s), n = 100000;
  c->argbytes += n + 1;
  c->group[c->narg] = c->ngroups - 1;
  c->arg[c->narg++] = s;
}

static void fuzzed(case_t *c, const char *name)
{
  if (c->nfuzzed < MAX_GROUPS)
    c->fuzzed[c->nfuzzed++] = name;
}

static int is_fuzzed(const case_t *c, const char *name)
{
  for (int i = 0; i < c->nfuzzed; i++)
    if (!strcmp(c->fuzzed[i], name))
      return 1;
  return 0;
}

/* ---- Hostile values ---- */

/* Strings: none is absolute or holds "..", so as a path it stays in the case's folder. */
static const char *const hostile_strings[] = {
    "%s%n%s%n", "%99999999d", "%x%x%x%x%x%x", "%", "%n", "\xff\xfe", "caf\xe9", "\xc3\x28",
    "\x80" "abc", "\x05", "\x1b[31mred", "a\tb", "a\nb", "\x7f", "'", "\"", "$(x)", "`x`", ";",
    "*", "?", "\xc3\xbc" "mlaut", "\xf0\x9f\x92\xa5", "\xe2\x80\xae" "txt", " ", "-", "--", "=",
    "==", "a=b=c", "+", "^", "\\", "", "x", ",", "\t", "\r", "(null)", "\xed\xa0\x80", "\xc0\x80"};

/* A hostile string, or a very long one (under the kernel's 128 KiB an argument). */
static const char *gen_hostile(case_t *c)
{
  static const size_t longs[] = {256, 4097, 40000};
  if (chance(c, 12))
    return cfill(c, "Aa9"[below(c, 3)], PICK(c, longs));
  return PICK(c, hostile_strings);
}

/* Numbers that are refused or tiny wherever they go. */
static const char *const syntax_numbers[] = {
    "", "-1", "-0", "0", "nan", "inf", "-inf", "1.5", "0x10", "1e3", "+1", " 1", "1 ", "2^",
    "^2", "2^-1", "2^2^2", "1KK", "1k", "K", "1Q", "1,", ",1", "1,,2", ",", ",,", "-2^63",
    "1e-308", "007", "1_000", "\xef\xbc\x91", "1\xff", "%d", "2^0", "0^0", "2^+1", "2^62+2^62",
    "1+", "+", "2^63+-1", "1-1", "0K", "-1K", "1.0", "1e0", "0e0"};
/* Numbers of 2^40 and more, or beyond 64 bits: no machine has that much of anything. */
static const char *const huge_numbers[] = {
    "2^63", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551616", "18446744073709551615", "2^62+1", "2^64",
    "2^63-1", "2^63+1", "1e308", "1e309", "-1e308", "99999999999999999999", "16T", "1024T",
    "8388608T", "2^40", "2^50+7", "4611686018427387905", "1T", "9223372036854775807K", "2^53+1",
    "2^62+2^61", "4611686018427387904K", "2^1000", "1e19"};
/* Between 2^16 and 2^40: fine for counts of nothing, costly as sizes. */
static const char *const mid_numbers[] = {"65537",      "100000",     "1048576",
                                         "2147483647", "2147483648", "4294967295",
                                         "4294967296", "4294967297", "1073741824"};

static const char *gen_small(case_t *c)
{
  return cfmt(c, "%u", below(c, 10));
}

/* A number for an option the fuzzer knows nothing about (the seed). */
static const char *gen_number(case_t *c)
{
  unsigned k = roll(c);
  return k < 35 ? gen_small(c) : k < 65 ? PICK(c, huge_numbers) : k < 90 ? PICK(c, syntax_numbers)
                                                                         : PICK(c, mid_numbers);
}

/* A cheap size (1..64) written as the program reads them, and its value. */
static const char *gen_cheap_size(case_t *c, long *value)
{
  long v = 1 + below(c, 64);
  *value = v;
  switch (below(c, 6)) {
  case 0: {
    int k = (int)below(c, 7);
    *value = 1L << k;
    return cfmt(c, "2^%d", k);
  }
  case 1: {
    int k = (int)below(c, 6), m = (int)below(c, 8);
    *value = (1L << k) + m;
    return cfmt(c, "2^%d+%d", k, m);
  }
  case 2: return cfmt(c, "%ld,%u", v, 1 + below(c, 64));
  default: return cfmt(c, "%ld", v);
  }
}

static const char *gen_size(case_t *c, const algo_t *own)
{
  long v;
  unsigned k = roll(c);
  if (k < 25)
    return gen_cheap_size(c, &v);
  if (k < 65)
    return PICK(c, huge_numbers);
  if (k < 85)
    return PICK(c, syntax_numbers);
  if (k < 93) { /* another algorithm's preset: every preset is large, so not our own */
    const algo_t *a = &M.algo[below(c, M.nalgos)];
    if (a != own && a->npresets)
      return a->preset[below(c, a->npresets)];
  }
  return cfmt(c, "%s,%s", gen_cheap_size(c, &v), PICK(c, huge_numbers));
}

static const char *gen_threads(case_t *c)
{
  static const char *const cheap[] = {"1", "2", "3", "4", "1,2", "2,1", "sweep", "1,1", "sweep,1"};
  /* Huge counts, but not 10^4..10^5: those threads are made, slowly, and the
   * run is long rather than wrong. */
  static const char *const huge[] = {"100000", "1048576", "2147483647", "2147483648",
                                     "4294967297", "2^31", "2^31-1", "2^20", "1G", "1M"};
  unsigned k = roll(c);
  return k < 30 ? PICK(c, cheap) : k < 65 ? PICK(c, huge) : k < 80 ? PICK(c, huge_numbers)
                                                                   : PICK(c, syntax_numbers);
}

/* --repeat, --warmup: a million is allowed but takes long; above it is refused. */
static const char *gen_count(case_t *c)
{
  static const char *const cheap[] = {"1", "2", "3"};
  static const char *const big[] = {"1000001", "1M", "1G", "2^20", "2^31", "4294967297", "-1"};
  unsigned k = roll(c);
  const char *v = k < 30 ? PICK(c, cheap) : k < 50 ? PICK(c, big) : k < 75 ? PICK(c, huge_numbers)
                                                                         : PICK(c, syntax_numbers);
  /* 1k is valid: a thousand runs of a slow problem are long, not wrong. */
  return strcasecmp(v, "1k") ? v : "1";
}

/* --ceiling-size: only tiny values and values above its largest (2^34), which
 * no machine could measure with. */
static const char *gen_limit(case_t *c)
{
  static const char *const cheap[] = {"1", "64K", "1K", "4K", "2^16", "3"};
  static const char *const big[] = {"2^34+1", "17G", "2^35", "32G"};
  unsigned k = roll(c);
  return k < 30 ? PICK(c, cheap) : k < 45 ? PICK(c, big) : k < 75 ? PICK(c, huge_numbers)
                                                                   : PICK(c, syntax_numbers);
}

/* --min-time and --max-noise: cheap values (a short time; a noise any run
 * meets), or out of range (each its own: 101 is a valid --min-time of 101 s),
 * or not numbers: a long --min-time or a small --max-noise would be slow,
 * not wrong. */
static const char *gen_adaptive(case_t *c, int noise)
{
  static const char *const cheap_time[] = {"0", "0.01", "0.05", "1e-3", "0.0"};
  static const char *const cheap_noise[] = {"0", "100", "99.5", "1e2"};
  static const char *const out_time[] = {"-1", "3601", "1e400", "nan", "inf", "-0.5", "x"};
  static const char *const out_noise[] = {"-1", "101", "1e400", "nan", "inf", "-0.5", "x"};
  unsigned k = roll(c);
  if (k < 50)
    return noise ? PICK(c, cheap_noise) : PICK(c, cheap_time);
  if (k < 80)
    return noise ? PICK(c, out_noise) : PICK(c, out_time);
  return PICK(c, syntax_numbers);
}

/* Any word the program knows: algorithms, variants, precisions, parameters, values. */
static const char *gen_known_word(case_t *c)
{
  const algo_t *a = &M.algo[below(c, M.nalgos)];
  switch (below(c, 5)) {
  case 0: return a->name;
  case 1:
    if (a->nvariants)
      return a->variant[below(c, a->nvariants)];
    break;
  case 2:
    if (a->nprecisions)
      return a->precision[below(c, a->nprecisions)];
    break;
  case 3:
    if (a->nparams) {
      const param_t *p = &a->param[below(c, a->nparams)];
      if (p->nwords && chance(c, 60))
        return p->words[below(c, (unsigned)p->nwords)];
      return p->name;
    }
    break;
  }
  const opt_t *o = &M.opt[below(c, M.nopts)];
  return o->nwords ? o->words[below(c, o->nwords)] : o->name;
}

/* A word mangled: capitalised, cut short, extended, padded. */
static const char *mangle(case_t *c, const char *w)
{
  size_t n = strlen(w);
  switch (below(c, 5)) {
  case 0: return cfmt(c, "%c%s", (*w >= 'a' && *w <= 'z') ? *w - 32 : *w, n ? w + 1 : "");
  case 1: return cfmt(c, "%.*s", (int)(n ? below(c, (unsigned)n) : 0), w);
  case 2: return cfmt(c, "%sx", w);
  case 3: return cfmt(c, "%s ", w);
  default: return cfmt(c, " %s", w);
  }
}

/* One of words, mostly one of the first nlead (the likely values). */
static const char *pick_word(case_t *c, const char *const *words, int nlead, int nwords)
{
  if (nlead && (c->gentle || chance(c, 75)))
    return words[below(c, (unsigned)nlead)];
  return nwords ? words[below(c, (unsigned)nwords)] : "x";
}

/* A comma-separated list, its items mostly from words, sometimes broken. */
static const char *gen_list_from(case_t *c, const char *const *words, int nlead, int nwords)
{
  int n = 1 + (int)below(c, 3);
  const char *s = "";
  for (int i = 0; i < n; i++) {
    unsigned k = roll(c);
    const char *item = k < 55 ? pick_word(c, words, nlead, nwords)
                       : k < 65 ? gen_known_word(c)
                       : k < 75 ? gen_small(c)
                       : k < 90 ? gen_hostile(c)
                                : mangle(c, pick_word(c, words, nlead, nwords));
    s = i ? cfmt(c, "%s,%s", s, item) : item;
  }
  if (bad(c, 12)) {
    switch (below(c, 5)) {
    case 0: return cfmt(c, ",%s", s);
    case 1: return cfmt(c, "%s,", s);
    case 2: return cfmt(c, "%s,,%s", s, s);
    case 3: return ",";
    default: return "";
    }
  }
  return s;
}

/* ---- Files ---- */

/* Contents that are no file format at all. */
static void gen_garbage(case_t *c)
{
  switch (below(c, 9)) {
  case 0: break; /* empty */
  case 1:
    for (unsigned n = 1 + below(c, 4096); n; n--) {
      char b = (char)rnd(c);
      put(c, &b, 1);
    }
    break;
  case 2: put(c, "S,X,T\n1\0,2,3\n\0\0\0\n", 16); break;
  case 3: {
    size_t n = 1000 + below(c, 130000);
    memset(cmem(c, n), "1A,"[below(c, 3)], n);
    if (chance(c, 50))
      puts_(c, "\n");
    break;
  }
  case 4: puts_(c, "\n\n\n"); break;
  case 5: puts_(c, "\xef\xbb\xbfS,X,T\n100,100,1\n"); break;
  case 6: puts_(c, "%s%n%s%n\n%x%x%x\n"); break;
  case 7: puts_(c, "S,X,T\r100,100,1\r90,100,2\r"); break;
  default: puts_(c, "\xff\xfe\x00\x01\n\xc3\x28\n"); break;
  }
}

/* A bad CSV field. It is written while a file is being built, so it takes
 * nothing from the case's memory. */
static const char *gen_bad_field(case_t *c)
{
  static const char *const pool[] = {"nan", "inf", "-inf", "-1", "0", "1e308", "", "abc", "1e-320",
                                     "-0", "1e309", "0x1p3", " 5", "5 ", "\"5\"", "1,5", "2^3"};
  return chance(c, 80) ? PICK(c, pool) : PICK(c, hostile_strings);
}

/* An options CSV: a header naming S, X, T and maybe r, v, then one option a line. */
static const char *gen_csv(case_t *c)
{
  size_t start = c->used;
  if (bad(c, 15)) {
    gen_garbage(c);
    return add_file(c, "in", start);
  }
  const char *cols[7] = {"S", "X", "T", "r", "v"};
  int ncols = 3 + (int)below(c, 3);
  for (int i = ncols - 1; i > 0; i--) {
    int j = (int)below(c, (unsigned)i + 1);
    const char *t = cols[i];
    cols[i] = cols[j];
    cols[j] = t;
  }
  int header = 1;
  if (bad(c, 25)) {
    switch (below(c, 7)) {
    case 0: ncols--; break;                         /* a column missing */
    case 1: cols[ncols++] = cols[0]; break;         /* a column twice */
    case 2: cols[below(c, (unsigned)ncols)] = "Q"; break;
    case 3: cols[0] = "s"; break;
    case 4: cols[0] = " S"; break;
    case 5: header = 0; break;
    default: cols[ncols++] = "r"; cols[ncols++] = "v"; break; /* more columns than exist */
    }
  }
  const char *eol = chance(c, 10) ? "\r\n" : "\n";
  for (int i = 0; header && i < ncols; i++)
    putf(c, "%s%s", i ? "," : "", cols[i]);
  if (header)
    puts_(c, eol);
  int rows = chance(c, 5) ? 0 : 1 + (int)below(c, 20);
  for (int r = 0; r < rows; r++) {
    int nf = !bad(c, 10) ? ncols : ncols + (chance(c, 50) ? 1 : -1);
    for (int i = 0; i < nf; i++) {
      const char *col = cols[i < ncols ? i : 0];
      double x = *col == 'S' || *col == 'X' ? unif(c, 5, 200)
                 : *col == 'T'              ? unif(c, 0.25, 10)
                 : *col == 'r'              ? unif(c, 0.02, 0.1)
                                            : unif(c, 0.1, 0.6);
      if (i)
        puts_(c, ",");
      if (bad(c, 8))
        puts_(c, gen_bad_field(c));
      else
        putf(c, "%.6g", x);
    }
    if (r + 1 < rows || chance(c, 90))
      puts_(c, eol);
    if (chance(c, 4))
      puts_(c, eol);
  }
  return add_file(c, "in", start);
}

/* An order file: a permutation of 1..N starting with N, maybe broken. */
static void gen_order(case_t *c, long n)
{
  long perm[64];
  long m = n < 1 ? 1 : n > 64 ? 64 : n;
  perm[0] = m;
  for (long i = 1; i < m; i++)
    perm[i] = i;
  for (long i = m - 1; i > 1; i--) {
    long j = 1 + (long)below(c, (unsigned)i);
    long t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  int broken = bad(c, 40) ? (int)below(c, 12) : -1;
  long at = (long)below(c, (unsigned)m);
  for (long i = 0; i < m; i++) {
    if (i == at && broken >= 0) {
      static const char *const bad[] = {"0", "-1", "1000000000", "2.5", "x", "", "1 2", "0x1",
                                        "99999999999999999999", "nan"};
      switch (broken) {
      case 10: putf(c, "%ld\n", perm[m - 1 - i]); continue; /* a duplicate */
      case 11: putf(c, "%ld\n", m + 1); continue;
      default: putf(c, "%s\n", bad[broken]); continue;
      }
    }
    putf(c, "%ld\n", perm[i]);
  }
  if (bad(c, 10))
    puts_(c, "1\n");
}

/* A times file: N increasing times, maybe broken. */
static void gen_times(case_t *c, long n)
{
  long m = n < 1 ? 1 : n > 64 ? 64 : n;
  double t = unif(c, -1, 1);
  int broken = bad(c, 40) ? (int)below(c, 8) : -1;
  long at = (long)below(c, (unsigned)m);
  for (long i = 0; i < m; i++) {
    t += unif(c, 1e-3, 1);
    if (i == at && broken >= 0) {
      static const char *const bad[] = {"nan", "inf", "1e308", "-1e308", "x", "", "1e-320"};
      if (broken == 7)
        putf(c, "%.17g\n%.17g\n", t, t); /* two equal times */
      else
        putf(c, "%s\n", bad[broken]);
      continue;
    }
    putf(c, "%.17g\n", t);
  }
}

/* A d x d matrix (Sigma or its factor), rows separated by sep, maybe broken. */
static void gen_matrix(case_t *c, long d, const char *sep)
{
  long m = d < 1 ? 1 : d > 8 ? 8 : d;
  double a[8][8];
  for (long i = 0; i < m; i++)
    for (long j = 0; j <= i; j++)
      a[i][j] = a[j][i] = i == j ? unif(c, 1, 3) * (double)m : unif(c, -0.5, 0.5);
  int broken = bad(c, 40) ? (int)below(c, 9) : -1;
  long rows = broken == 0 ? m + 1 : broken == 1 && m > 1 ? m - 1 : m;
  for (long i = 0; i < rows; i++) {
    long cols = broken == 2 && i == 0 ? m + 1 : m;
    for (long j = 0; j < cols; j++) {
      double x = a[i % m][j % m];
      const char *bad = NULL;
      if (i == 0 && j == 0) {
        switch (broken) {
        case 3: x = -x; break;         /* not positive definite */
        case 4: bad = "nan"; break;
        case 5: bad = "1e308"; break;
        case 6: x = 1e-308; break;
        case 7: bad = "x"; break;
        }
      }
      if (broken == 8 && i == 0 && j == m - 1 && m > 1)
        x += 1; /* not symmetric */
      if (bad)
        putf(c, "%s%s", j ? " " : "", bad);
      else
        putf(c, "%s%.17g", j ? " " : "", x);
    }
    if (i + 1 < rows)
      puts_(c, sep);
  }
  if (*sep == '\n')
    puts_(c, "\n");
}

/* Raw normals: paths x steps x dim values, in float or double, maybe the wrong length. */
static void gen_normals(case_t *c)
{
  long k = c->size * c->steps * c->dim;
  size_t w = chance(c, 50) ? 4 : 8;
  if (k > (1L << 16) || bad(c, 30))
    k = (long)below(c, 64);
  for (long i = 0; i < k; i++) {
    double x = unif(c, -3, 3);
    if (bad(c, 2))
      x = chance(c, 50) ? NAN : INFINITY;
    if (w == 4) {
      float f = (float)x;
      put(c, &f, 4);
    } else
      put(c, &x, 8);
  }
  if (bad(c, 15))
    put(c, "\x7f", 1); /* a partial value */
}

/* A file for a parameter or option named `what`: its format when the fuzzer
 * knows it, garbage otherwise. */
static const char *gen_file(case_t *c, const char *what)
{
  if (!strcmp(what, "input"))
    return gen_csv(c);
  size_t start = c->used;
  if (bad(c, 10))
    gen_garbage(c);
  else if (!strcmp(what, "order"))
    gen_order(c, c->steps);
  else if (!strcmp(what, "times"))
    gen_times(c, c->steps);
  else if (!strcmp(what, "cov") || !strcmp(what, "chol"))
    gen_matrix(c, c->dim, "\n");
  else if (!strcmp(what, "normals"))
    gen_normals(c);
  else
    gen_garbage(c);
  return add_file(c, what, start);
}

/* The special files every case's folder holds (see make_fixtures). */
static const char *const special_files[] = {"dir", "fifo-in", "fifo-out", "null", "full",
                                            "zero", "link-file", "link-null", "link-dangling",
                                            "link-dir", "link-loop", "link-in", "ro"};

/* A path to read from: mostly a generated file, else something that is not one.
 * fifo-in has a writer (as with --input <(cmd)), once; the zero and full
 * nodes read forever, so they are outputs only. */
static const char *gen_in_path(case_t *c, const char *what)
{
  static const char *const odd[] = {"dir", "dir/", "empty", "null", "link-file", "link-null",
                                    "link-dangling", "link-dir", "link-loop", "missing",
                                    "missing/x.csv", "file.csv", "", "-", "ro", "link-in"};
  if (c->gentle || chance(c, 65))
    return gen_file(c, what);
  if (chance(c, 4) && !c->fifo_in++)
    return "fifo-in";
  if (chance(c, 8))
    return gen_hostile(c);
  return PICK(c, odd);
}

/* A path to write to: a fresh name, or a special file that must stay what it is. */
static const char *gen_out_path(case_t *c)
{
  static const char *const fresh[] = {"out.csv", "r.json", "x", "dir/out.csv", "t.txt",
                                      "%s%n.csv", "out\xff.csv", "new file"};
  static const char *const odd[] = {"file.csv", "null", "full", "zero", "link-file",
                                    "link-null", "link-dangling", "link-dir", "link-loop",
                                    "dir", "dir/", "missing/out.csv", "ro/out.csv", "", "-",
                                    "ro", "empty"};
  unsigned k = below(c, 100);
  if (k < 35)
    return PICK(c, fresh);
  if (k < 38 && !c->fifo_out++)
    return "fifo-out"; /* it has a reader, as with --output >(cmd) */
  if (k < 43)
    return cfill(c, 'o', chance(c, 50) ? 256 : 4097);
  return PICK(c, odd);
}

/* ---- Values for options and parameters ---- */

static const char *gen_param_item(case_t *c, const param_t *p)
{
  unsigned k = roll(c);
  switch (p->kind) {
  case P_ENUM:
    if (k < 70 && p->nwords)
      return p->words[below(c, (unsigned)p->nwords)];
    return k < 80 && p->nwords ? mangle(c, p->words[below(c, (unsigned)p->nwords)]) : gen_hostile(c);
  case P_INT: {
    /* In range only small values, and the largest when it is small too
     * (bridge's 2^14 steps of 8 dimensions take seconds under ASan); out of
     * range anything: the program refuses it before any work. */
    double cheap_hi = p->hi < p->lo + 63 ? p->hi : p->lo + 63;
    if (k < 50) {
      long v = (long)p->lo + (long)below(c, (unsigned)(cheap_hi - p->lo + 1));
      if (!strcmp(p->name, "steps"))
        c->steps = v;
      else if (!strcmp(p->name, "dim"))
        c->dim = v;
      return cfmt(c, "%ld", v);
    }
    if (k < 55 && p->hi <= 1024)
      return cfmt(c, "%.0f", p->hi);
    if (k < 65)
      return cfmt(c, "%.0f", chance(c, 50) ? p->lo - 1 : p->hi + 1);
    if (k < 75) {
      const char *s = PICK(c, mid_numbers);
      return strtod(s, NULL) > p->hi ? s : PICK(c, huge_numbers);
    }
    return k < 88 ? PICK(c, huge_numbers) : PICK(c, syntax_numbers);
  }
  case P_REAL: {
    static const char *const good[] = {"0", "1", "-1", "0.5", "1e-300", "1e300", "-1e300",
                                       "1e-320", "-0", "2.5e-7"};
    static const char *const bad[] = {"1e301", "-1e301", "1e308", "nan", "inf", "-inf", "1e999",
                                      "0x1p3", "", "1,5", "1e", "e5", "--1"};
    return k < 50 ? PICK(c, good) : k < 85 ? PICK(c, bad) : gen_hostile(c);
  }
  default:
    if (c->gentle)
      return p->nlead && chance(c, 50) ? p->words[below(c, (unsigned)p->nlead)]
                                       : gen_file(c, p->name);
    if (k < 35)
      return pick_word(c, p->words, p->nlead, p->nwords);
    if (k < 80)
      return gen_in_path(c, p->name);
    if (k < 90 && (!strcmp(p->name, "cov") || !strcmp(p->name, "chol"))) {
      size_t start = c->used;
      gen_matrix(c, c->dim, chance(c, 80) ? "; " : ";;");
      put(c, "", 1);
      return c->mem + start;
    }
    return gen_hostile(c);
  }
}

static const char *gen_param_value(case_t *c, const param_t *p)
{
  const char *s = gen_param_item(c, p);
  if (chance(c, 15))
    s = cfmt(c, "%s,%s", s, gen_param_item(c, p));
  if (bad(c, 5))
    s = cfmt(c, chance(c, 50) ? "%s," : "%s,,", s);
  return s;
}

static const param_t *random_param(case_t *c, const algo_t *a)
{
  if (a && a->nparams && (c->gentle || chance(c, 80)))
    return &a->param[below(c, (unsigned)a->nparams)];
  for (int tries = 0; tries < 8; tries++) {
    const algo_t *b = &M.algo[below(c, M.nalgos)];
    if (b->nparams)
      return &b->param[below(c, (unsigned)b->nparams)];
  }
  return NULL;
}

/* KEY=LIST for --param. */
static const char *gen_assign(case_t *c, const algo_t *a)
{
  const param_t *p = random_param(c, a);
  unsigned k = roll(c);
  if (p && k < 82)
    return cfmt(c, "%s=%s", p->name, gen_param_value(c, p));
  if (!p || k < 92)
    return cfmt(c, "%s=%s", gen_hostile(c), p ? gen_param_value(c, p) : "1");
  return k < 97 ? p->name : cfmt(c, "=%s", gen_param_value(c, p));
}

/* A name for --pivot: one of names, now and then a hostile one. */
static const char *pivot_name(case_t *c, const char *const *names, int n)
{
  return chance(c, 90) ? names[below(c, (unsigned)n)] : gen_hostile(c);
}

/* ROWS:COL[:CELL] for --pivot, from the names rows carry. */
static const char *gen_pivot(case_t *c, const algo_t *a, const opt_t *o)
{
  const char *names[MAX_WORDS + MAX_PARAMS + MAX_NAMES + 8];
  int n = 0;
  static const char *const runopts[] = {"threads", "variant", "size", "precision", "backend"};
  for (int i = 0; i < COUNT(runopts); i++)
    names[n++] = runopts[i];
  for (int i = 0; a && i < a->nparams; i++)
    names[n++] = a->param[i].name;
  for (int i = 0; a && i < a->ncolumns; i++)
    names[n++] = a->column[i];
  for (int i = 0; i < o->nwords; i++)
    names[n++] = o->words[i];
  const char *rows = pivot_name(c, names, n);
  if (chance(c, 25))
    rows = cfmt(c, "%s+%s", rows, pivot_name(c, names, n));
  const char *s = cfmt(c, "%s:%s", rows, pivot_name(c, names, n));
  if (chance(c, 40))
    s = cfmt(c, "%s:%s", s, pivot_name(c, names, n));
  if (bad(c, 20)) {
    static const char *const odd[] = {"", ":", "::", "a:", ":b", "a:b:c:d", "a++b:c", "+:+",
                                      "threads:threads", "threads:threads:threads"};
    return PICK(c, odd);
  }
  return s;
}

/* A value for the run option o. The options whose cost grows with their
 * value get their own generators; the others are read by their placeholder. */
static const char *gen_value(case_t *c, const algo_t *a, const opt_t *o)
{
  if (!strcmp(o->name, "size"))
    return gen_size(c, a);
  if (!strcmp(o->name, "threads"))
    return gen_threads(c);
  if (!strcmp(o->name, "repeat") || !strcmp(o->name, "warmup"))
    return gen_count(c);
  if (!strcmp(o->name, "ceiling-size"))
    return gen_limit(c);
  if (!strcmp(o->name, "min-time") || !strcmp(o->name, "max-noise"))
    return gen_adaptive(c, o->name[1] == 'a');
  if (strstr(o->arg, "FILE"))
    return o->writes ? gen_out_path(c) : gen_in_path(c, o->name);
  if (strstr(o->arg, "KEY="))
    return gen_assign(c, a);
  if (strchr(o->arg, ':'))
    return gen_pivot(c, a, o);
  if (!strcmp(o->arg, "N") || !strcmp(o->arg, "S"))
    return !bad(c, 15) ? gen_number(c) : gen_hostile(c);
  if (!strcmp(o->name, "variant") && a && a->nvariants && (c->gentle || chance(c, 70)))
    return gen_list_from(c, a->variant, a->nvariants, a->nvariants);
  if (!strcmp(o->name, "precision") && a && a->nprecisions && (c->gentle || chance(c, 50)))
    return gen_list_from(c, a->precision, a->nprecisions, a->nprecisions);
  return gen_list_from(c, o->words, o->nlead, o->nwords);
}

/* ---- Whole command lines ---- */

/* o with its value, in one of the forms getopt_long takes. */
static void emit_option(case_t *c, const algo_t *a, const opt_t *o)
{
  group(c, 0);
  fuzzed(c, o->name);
  if (!o->arg) {
    arg(c, o->shortopt && chance(c, 30) ? cfmt(c, "-%c", o->shortopt) : cfmt(c, "--%s", o->name));
    return;
  }
  const char *v = gen_value(c, a, o);
  unsigned k = below(c, 100);
  if (k < 70) {
    arg(c, cfmt(c, "--%s", o->name));
    arg(c, v);
  } else if (k < 85 || !o->shortopt)
    arg(c, cfmt(c, "--%s=%s", o->name, v));
  else if (k < 93) {
    arg(c, cfmt(c, "-%c", o->shortopt));
    arg(c, v);
  } else
    arg(c, cfmt(c, "-%c%s", o->shortopt, v));
}

static void emit_param(case_t *c, const param_t *p)
{
  const opt_t *po = NULL;
  for (int i = 0; i < M.nopts && !po; i++)
    if (M.opt[i].arg && strstr(M.opt[i].arg, "KEY="))
      po = &M.opt[i];
  group(c, 0);
  fuzzed(c, p->name);
  const char *v = gen_param_value(c, p);
  unsigned k = below(c, 100);
  if (k < 50 || !po) {
    arg(c, cfmt(c, "--%s", p->name));
    arg(c, v);
  } else if (k < 60)
    arg(c, cfmt(c, "--%s=%s", p->name, v));
  else if (k < 85 && po->shortopt) {
    arg(c, cfmt(c, "-%c", po->shortopt));
    arg(c, cfmt(c, "%s=%s", p->name, v));
  } else
    arg(c, cfmt(c, "--%s=%s=%s", po->name, p->name, v));
}

/* Every long option name the run command takes: its own and all parameters. */
static int all_names(const char **names, int max)
{
  int n = 0;
  for (int i = 0; i < M.nopts && n < max; i++)
    names[n++] = M.opt[i].name;
  for (int i = 0; i < M.nalgos; i++)
    for (int j = 0; j < M.algo[i].nparams && n < max; j++)
      names[n++] = M.algo[i].param[j].name;
  return n;
}

/* Whether algorithm a takes option o: not when another algorithm lists o as
 * one it accepts and a does not. */
static int takes(const algo_t *a, const opt_t *o)
{
  int listed = 0, ours = 0;
  for (int i = 0; i < M.nalgos; i++)
    for (int j = 0; j < M.algo[i].naccepts; j++)
      if (!strcmp(M.algo[i].accepts[j], o->name)) {
        listed = 1;
        ours |= &M.algo[i] == a;
      }
  return !listed || ours;
}

/* One fuzzed group: an option, a parameter, or a malformed form of them. */
static void gen_fuzz_group(case_t *c, const algo_t *a)
{
  unsigned k = below(c, c->gentle ? 70 : 100);
  if (k < 45) {
    /* Files and the sizes and counts (where huge values overflow) are few
     * among the options but worth more cases; help ends a case early. */
    static const char *const counts[] = {"size", "threads", "repeat", "warmup", "ceiling-size"};
    const opt_t *files[MAX_OPTS], *o = NULL;
    int n = 0;
    for (int i = 0; i < M.nopts; i++)
      if (M.opt[i].arg && strstr(M.opt[i].arg, "FILE"))
        files[n++] = &M.opt[i];
    for (int tries = 0; tries < 16 && (!o || (c->gentle && !takes(a, o))); tries++) {
      unsigned w = below(c, 100);
      o = n && w < 20 ? files[below(c, (unsigned)n)] : w < 50 ? find_opt(PICK(c, counts)) : NULL;
      if (!o)
        o = &M.opt[below(c, M.nopts)];
      if (!strcmp(o->name, "help") && chance(c, 80))
        o = &M.opt[below(c, M.nopts)];
    }
    emit_option(c, a, o);
  } else if (k < 70) {
    const param_t *p = random_param(c, a);
    if (p)
      emit_param(c, p);
  } else if (k < 75) {
    static const char *const unknown[] = {"--frobnicate", "--sizes", "--Size", "--size-",
                                          "---size", "--=x", "--no-verify-x", "-Z", "-\x05",
                                          "-\xff", "--\xff", "-\xc3\xa9", "--%s%n", "-%", "-=",
                                          "--param-", "-P=", "-\x7f", "-\x1b"};
    group(c, 0);
    arg(c, PICK(c, unknown));
    if (chance(c, 40))
      arg(c, gen_small(c));
  } else if (k < 81) {
    /* A prefix of a long name: getopt_long takes a unique one and must
     * refuse an ambiguous one. */
    const char *names[MAX_OPTS + MAX_ALGOS * MAX_PARAMS];
    int n = all_names(names, COUNT(names));
    const char *name = names[below(c, (unsigned)n)];
    int len = 1 + (int)below(c, (unsigned)strlen(name));
    group(c, 0);
    if (chance(c, 30))
      arg(c, cfmt(c, "--%.*s=%s", len, name, gen_small(c)));
    else {
      arg(c, cfmt(c, "--%.*s", len, name));
      if (chance(c, 70))
        arg(c, chance(c, 70) ? gen_small(c) : gen_hostile(c));
    }
  } else if (k < 85) {
    /* A flag given a value. */
    const opt_t *flags[MAX_OPTS];
    int n = 0;
    for (int i = 0; i < M.nopts; i++)
      if (!M.opt[i].arg)
        flags[n++] = &M.opt[i];
    if (!n)
      return;
    const opt_t *o = flags[below(c, (unsigned)n)];
    group(c, 0);
    fuzzed(c, o->name);
    arg(c, cfmt(c, "--%s=%s", o->name, chance(c, 70) ? "x" : chance(c, 50) ? "" : gen_hostile(c)));
  } else if (k < 89) {
    /* An option without its value, last on the line. */
    const opt_t *o = &M.opt[below(c, M.nopts)];
    int g = group(c, 0);
    c->tail[g] = 1;
    fuzzed(c, o->name);
    if (o->shortopt && chance(c, 30))
      arg(c, cfmt(c, "-%c", o->shortopt));
    else if (chance(c, 80))
      arg(c, cfmt(c, "--%s", o->name));
    else {
      const param_t *p = random_param(c, a);
      arg(c, cfmt(c, "--%s", p ? p->name : o->name));
    }
  } else if (k < 92) {
    /* Short options run together. */
    const opt_t *o = &M.opt[below(c, M.nopts)], *q = &M.opt[below(c, M.nopts)];
    group(c, 0);
    if (o->shortopt && q->shortopt) {
      fuzzed(c, o->name);
      fuzzed(c, q->name);
      arg(c, cfmt(c, "-%c%c%s", o->shortopt, q->shortopt, chance(c, 50) ? gen_small(c) : ""));
    } else
      arg(c, "-");
  } else if (k < 95) {
    group(c, 0);
    arg(c, chance(c, 50) ? gen_hostile(c) : gen_known_word(c));
  } else if (k < 97) {
    group(c, 0);
    arg(c, "--");
    arg(c, chance(c, 50) ? "--size" : gen_hostile(c));
  } else {
    /* One parameter given many times. */
    const param_t *p = random_param(c, a);
    const opt_t *po = NULL;
    for (int i = 0; i < M.nopts && !po; i++)
      if (M.opt[i].arg && strstr(M.opt[i].arg, "KEY=") && M.opt[i].shortopt)
        po = &M.opt[i];
    if (!p || !po)
      return;
    group(c, 0);
    fuzzed(c, p->name);
    const char *v = cfmt(c, "%s=%s", p->name, gen_param_item(c, p));
    for (int i = 17 + (int)below(c, 40); i; i--) {
      arg(c, cfmt(c, "-%c", po->shortopt));
      arg(c, v);
    }
  }
}

/* The cheap defaults, as fixed groups, for every option the case does not fuzz. */
static void add_defaults(case_t *c, const algo_t *a, const char *size, const int *param_default)
{
  static const char *const fixed[][2] = {
      {"ceiling-size", "64K"}, {"repeat", "1"}, {"warmup", "0"}};
  for (int i = 0; i < COUNT(fixed); i++)
    if (!is_fuzzed(c, fixed[i][0])) {
      group(c, 1);
      arg(c, cfmt(c, "--%s", fixed[i][0]));
      arg(c, fixed[i][1]);
    }
  /* With --input the file sets the size: where the algorithm takes one (a
   * fuzzed --input may also have become another option's value, leaving
   * an algorithm without input at its full default size). */
  const opt_t *input = find_opt("input");
  if (!is_fuzzed(c, "size") && !(is_fuzzed(c, "input") && a && input && takes(a, input))) {
    group(c, 1);
    arg(c, "--size");
    arg(c, size);
  }
  if (!is_fuzzed(c, "backend") && chance(c, 85)) {
    group(c, 1);
    arg(c, "--backend");
    arg(c, "cpu");
  }
  /* Always a small team: on a many-core machine busy with the other tests,
   * every parallel region of a team of all its cores waits for a time
   * slice on each, and a run of tiny problems is mostly such regions (the
   * ceilings); a long run is slow, not wrong. */
  if (find_opt("threads") && !is_fuzzed(c, "threads")) {
    static const char *const t[] = {"1", "2", "1,2"};
    group(c, 1);
    arg(c, "--threads");
    arg(c, PICK(c, t));
  }
  for (int i = 0; a && i < a->nparams; i++)
    if (param_default[i] && !is_fuzzed(c, a->param[i].name)) {
      group(c, 1);
      arg(c, cfmt(c, "--%s", a->param[i].name));
      arg(c, cfmt(c, "%d", param_default[i]));
    }
}

static const char *gen_bad_algo(case_t *c)
{
  const algo_t *a = &M.algo[below(c, M.nalgos)];
  switch (below(c, 5)) {
  case 0: return mangle(c, a->name);
  case 1: return "--size";
  case 2: return gen_known_word(c);
  default: return gen_hostile(c);
  }
}

static void gen_run(case_t *c)
{
  c->gentle = chance(c, 35);
  const algo_t *a = c->gentle || chance(c, 93) ? &M.algo[below(c, M.nalgos)] : NULL;
  group(c, 1);
  arg(c, "run");
  arg(c, a ? a->name : gen_bad_algo(c));
  /* The sizes the files are made for, and the integer parameters that get a
   * small value as a cheap default (montecarlo's paths, bridge's steps). */
  const char *size = gen_cheap_size(c, &c->size);
  int param_default[MAX_PARAMS] = {0};
  for (int i = 0; a && i < a->nparams; i++) {
    const param_t *p = &a->param[i];
    long v = p->dflt;
    if (p->kind == P_INT && chance(c, 30)) {
      v = (long)p->lo + (long)below(c, (unsigned)((p->hi < p->lo + 31 ? p->hi : p->lo + 31) - p->lo + 1));
      param_default[i] = (int)v;
    }
    if (!strcmp(p->name, "steps"))
      c->steps = v;
    else if (!strcmp(p->name, "dim"))
      c->dim = v;
  }
  unsigned k = below(c, 100);
  for (int n = c->gentle ? 1 + (int)below(c, 3) : k < 60 ? 1 : k < 90 ? 2 : 3; n; n--)
    gen_fuzz_group(c, a);
  add_defaults(c, a, size, param_default);
}

/* Commands other than run: list, info, help, and words that are none. Never
 * `run ALGO` without the cheap defaults: that is a full benchmark. */
static void gen_other(case_t *c)
{
  static const char *const cmds[] = {"list", "list", "info", "help", "", "RUN", "ru", "--help",
                                     "-h", "--version", "-V", "frobnicate", "lis", "help"};
  static const char *const extra[] = {"--help", "-h", "--version", "extra", "run", "list",
                                      "info", "--frobnicate", "-x", "--", "-"};
  group(c, 1);
  const char *cmd = chance(c, 85) ? PICK(c, cmds) : gen_hostile(c);
  arg(c, cmd);
  int named = !strcmp(cmd, "list") || !strcmp(cmd, "help");
  for (int n = (int)below(c, 4); n; n--) {
    group(c, 0);
    unsigned k = below(c, 100);
    arg(c, k < 40 && named ? (chance(c, 80) ? M.algo[below(c, M.nalgos)].name : "run")
           : k < 70        ? PICK(c, extra)
                           : gen_hostile(c));
  }
}

/* Put the fuzzed groups in a random order after the command, the tail groups last. */
static void shuffle_groups(case_t *c)
{
  int order[MAX_GROUPS], n = 0;
  for (int g = 1; g < c->ngroups; g++)
    if (!c->tail[g])
      order[n++] = g;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)below(c, (unsigned)i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (int g = 1; g < c->ngroups; g++)
    if (c->tail[g])
      order[n++] = g;
  const char *arg2[MAX_ARGS];
  int group2[MAX_ARGS], m = 0;
  for (int i = 0; i < c->narg && c->group[i] == 0; i++) {
    arg2[m] = c->arg[i];
    group2[m++] = 0;
  }
  for (int k = 0; k < n; k++)
    for (int i = 0; i < c->narg; i++)
      if (c->group[i] == order[k]) {
        arg2[m] = c->arg[i];
        group2[m++] = order[k];
      }
  memcpy(c->arg, arg2, sizeof arg2[0] * (size_t)m);
  memcpy(c->group, group2, sizeof group2[0] * (size_t)m);
}

/* Case number index of the seed: a function of the two only. */
static case_t *gen_case(long index)
{
  case_t *c = calloc(1, sizeof *c);
  if (!c || !(c->mem = malloc(CASE_MEM)))
    die("out of memory");
  c->index = index;
  c->rng = G.seed ^ (0xd1342543de82ef95u * (uint64_t)(index + 1));
  rnd(c);
  c->size = c->steps = c->dim = 1;
  if (chance(c, 88))
    gen_run(c);
  else
    gen_other(c);
  shuffle_groups(c);
  return c;
}

static void free_case(case_t *c)
{
  if (c) {
    free(c->mem);
    free(c);
  }
}

/* ---- Printing ---- */

/* The length of the run of one letter or digit at s[i], when it is long
 * enough to print as $(printf ...); 0 otherwise. */
static size_t long_run(const char *s, size_t i, size_t n)
{
  size_t run = 1;
  while (i + run < n && s[i + run] == s[i])
    run++;
  int alnum = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9');
  return alnum && run >= 32 ? run : 0;
}

/* s as one shell word: bare, '...', or $'...' where it holds bytes a terminal
 * would eat; long runs of one letter as $(printf ...), so lines stay short. */
static void print_word(FILE *f, const char *s)
{
  size_t n = strlen(s), bare = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789_@%+=:,./-^");
  for (size_t i = 0; bare == n && i < n; i++)
    if (long_run(s, i, n))
      bare = 0;
  if (n && bare == n) {
    fputs(s, f);
    return;
  }
  if (!n)
    fputs("''", f);
  for (size_t i = 0, run; i < n;) {
    if ((run = long_run(s, i, n))) {
      fprintf(f, "\"$(printf %%0%zud 0 | tr 0 %c)\"", run, s[i]);
      i += run;
      continue;
    }
    size_t j = i;
    int plain = 1;
    for (; j < n && !long_run(s, j, n); j++)
      plain &= (unsigned char)s[j] >= 0x20 && (unsigned char)s[j] < 0x7f;
    fputs(plain ? "'" : "$'", f);
    for (; i < j; i++) {
      unsigned char ch = (unsigned char)s[i];
      if (plain && ch == '\'')
        fputs("'\\''", f);
      else if (plain || (ch >= 0x20 && ch < 0x7f && ch != '\'' && ch != '\\'))
        fputc(ch, f);
      else if (ch == '\'' || ch == '\\')
        fprintf(f, "\\%c", ch);
      else
        fprintf(f, "\\x%02x", ch);
    }
    fputc('\'', f);
  }
}

static void print_command(FILE *f, const case_t *c)
{
  fputs(G.tb, f);
  for (int i = 0; i < c->narg; i++)
    if (!c->drop[c->group[i]]) {
      fputc(' ', f);
      print_word(f, c->arg[i]);
    }
  fputc('\n', f);
}

/* The first lines of a program's stderr, with its odd bytes shown as \xHH. */
static void print_stderr(FILE *f, const char *s, size_t n)
{
  int lines = 0;
  size_t col = 0;
  for (size_t i = 0; i < n && lines < 6; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (col == 0)
      fputs("    | ", f);
    if (ch == '\n') {
      fputc('\n', f);
      lines++;
      col = 0;
      continue;
    }
    if (col++ < 300) {
      if (ch >= 0x20 && ch < 0x7f)
        fputc(ch, f);
      else
        fprintf(f, "\\x%02x", ch);
    }
  }
  if (col)
    fputc('\n', f);
}

/* ---- Running a case ---- */

typedef struct {
  const char *name;
  int present;
  mode_t type;
  dev_t rdev;
  char target[64];
} snap_t;

typedef struct {
  case_t *c;
  pid_t pid, peer[2]; /* the program; the writer of fifo-in and the reader of fifo-out */
  double start;
  int killed;
  char dir[PATH_MAX];
  snap_t snap[COUNT(special_files)];
} slot_t;

static void write_file(const char *path, const void *data, size_t len)
{
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len) || close(fd))
    die("cannot write %s: %s", path, strerror(errno));
}

/* The case's folder: its special files, and the files its command line names. */
static void make_fixtures(slot_t *s)
{
  case_t *c = s->c;
  char p[PATH_MAX + 64];
#define AT(name) (snprintf(p, sizeof p, "%s/%s", s->dir, (name)), p)
  if (mkdir(s->dir, 0700) || mkdir(AT("dir"), 0700) || mkfifo(AT("fifo-in"), 0600) ||
      mkfifo(AT("fifo-out"), 0600))
    die("cannot make the case folder %s: %s", s->dir, strerror(errno));
  /* Private device nodes, when root: the null, full and zero devices' numbers,
   * so that what a run does to them is harmless even where it is a bug. */
  static const struct { const char *name; unsigned minor; } nodes[] = {
      {"null", 3}, {"full", 7}, {"zero", 5}};
  for (int i = 0; G.can_mknod && i < COUNT(nodes); i++)
    if (mknod(AT(nodes[i].name), S_IFCHR | 0666, makedev(1, nodes[i].minor)))
      die("mknod %s: %s", p, strerror(errno));
  write_file(AT("file.csv"), "S,X,T\n100,100,1\n", 16);
  write_file(AT("empty"), "", 0);
  const char *const links[][2] = {
      {"link-file", "file.csv"}, {"link-null", "null"}, {"link-dangling", "nowhere"},
      {"link-dir", "dir"}, {"link-loop", "link-loop"},
      {"link-in", c->nfiles ? c->file[0] : "nowhere"}};
  for (int i = 0; i < COUNT(links); i++)
    if (symlink(links[i][1], AT(links[i][0])))
      die("symlink %s: %s", p, strerror(errno));
  for (int i = 0; i < c->nfiles; i++)
    write_file(AT(c->file[i]), c->data[i], c->len[i]);
  if (mkdir(AT("ro"), 0555))
    die("mkdir %s: %s", p, strerror(errno));
  for (int i = 0; i < COUNT(special_files); i++) {
    struct stat st;
    snap_t *sn = &s->snap[i];
    sn->name = special_files[i];
    sn->present = !lstat(AT(sn->name), &st);
    sn->type = st.st_mode & S_IFMT;
    sn->rdev = st.st_rdev;
    ssize_t n = S_ISLNK(st.st_mode) ? readlink(p, sn->target, sizeof sn->target - 1) : 0;
    sn->target[n > 0 ? n : 0] = '\0';
  }
#undef AT
}

/* The other end of a FIFO the case names, in a process of its own: a
 * writer of a small CSV for fifo-in, a reader to the end for fifo-out. It
 * opens the FIFO once, like a shell's <(cmd) and >(cmd). */
static pid_t start_peer(const slot_t *s, int writer)
{
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/%s", s->dir, writer ? "fifo-in" : "fifo-out");
  pid_t pid = fork();
  if (pid < 0)
    die("fork: %s", strerror(errno));
  if (pid)
    return pid;
  int fd = open(path, writer ? O_WRONLY : O_RDONLY);
  if (writer) {
    static const char csv[] = "S,X,T\n100,100,1\n";
    if (fd >= 0 && write(fd, csv, sizeof csv - 1) < 0)
      _exit(1);
  } else {
    char buf[4096];
    while (fd >= 0 && read(fd, buf, sizeof buf) > 0)
      ;
  }
  _exit(0);
}

static void start_case(slot_t *s, case_t *c, const char *suffix)
{
  s->c = c;
  s->killed = 0;
  snprintf(s->dir, sizeof s->dir, "%s/%ld%s", G.tmp, c->index, suffix);
  make_fixtures(s);
  s->peer[0] = c->fifo_in ? start_peer(s, 1) : 0;
  s->peer[1] = c->fifo_out ? start_peer(s, 0) : 0;
  char *argv[MAX_ARGS + 2];
  int n = 0;
  argv[n++] = G.tb;
  for (int i = 0; i < c->narg; i++)
    if (!c->drop[c->group[i]])
      argv[n++] = (char *)c->arg[i];
  argv[n] = NULL;
  char out[PATH_MAX + 8], err[PATH_MAX + 8];
  snprintf(out, sizeof out, "%s.out", s->dir);
  snprintf(err, sizeof err, "%s.err", s->dir);
  if (G.verbose) {
    printf("case %ld: ", c->index);
    print_command(stdout, c);
    fflush(stdout);
  }
  s->start = now();
  s->pid = fork();
  if (s->pid < 0)
    die("fork: %s", strerror(errno));
  if (s->pid == 0) {
    /* Its own process group, so a timeout kills whatever it started; stdin
     * an empty pipe, so nothing waits on the terminal. */
    int fd[2];
    setpgid(0, 0);
    if (chdir(s->dir) || pipe(fd))
      _exit(126);
    close(fd[1]);
    dup2(fd[0], 0);
    int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (o < 0 || e < 0)
      _exit(126);
    dup2(o, 1);
    dup2(e, 2);
    signal(SIGPIPE, SIG_DFL);
    execv(G.tb, argv);
    dprintf(2, "fuzz_cli: cannot run %s: %s\n", G.tb, strerror(errno));
    _exit(127);
  }
  setpgid(s->pid, s->pid);
}

static int leftover_found;
static char leftover_name[256];

static int find_leftover(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  if (strstr(path + ftw->base, ".tmp.") && !leftover_found++)
    snprintf(leftover_name, sizeof leftover_name, "%s", path + ftw->base);
  return 0;
}

static int make_writable(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)ftw;
  if (flag == FTW_D || flag == FTW_DNR)
    chmod(path, (st->st_mode & 07777) | 0700);
  return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  if (remove(path) && errno != ENOENT)
    fprintf(stderr, "fuzz_cli: cannot remove %s: %s\n", path, strerror(errno));
  return 0;
}

/* Remove a tree without following its symlinks; read-only folders first made writable. */
static void rm_tree(const char *path)
{
  nftw(path, make_writable, 16, FTW_PHYS);
  nftw(path, remove_one, 16, FTW_PHYS | FTW_DEPTH);
}

static const char *type_name(mode_t t)
{
  return t == S_IFCHR ? "char device" : t == S_IFBLK ? "block device" : t == S_IFIFO ? "FIFO"
       : t == S_IFLNK ? "symlink"     : t == S_IFDIR ? "directory"    : t == S_IFREG ? "regular file"
                                                                                     : "special file";
}

typedef struct {
  char key[200];     /* the first failure's class, for grouping and minimizing */
  char detail[1024]; /* every failure, one per line */
  char *err;         /* the program's stderr */
  size_t errlen;
  double seconds;
} verdict_t;

/* Record a failure; the first one names the case's class. */
static void fail(verdict_t *v, const char *fmt, ...)
{
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (!v->key[0])
    snprintf(v->key, sizeof v->key, "%.199s", line);
  size_t n = strlen(v->detail);
  snprintf(v->detail + n, sizeof v->detail - n, "  %s\n", line);
}

/* The length of p up to end or the first byte of stop. */
static int span(const char *p, const char *end, const char *stop)
{
  const char *q = p;
  while (q < end && *q && !strchr(stop, *q))
    q++;
  return (int)(q - p);
}

/* The first stack frame of a sanitizer report from m on that is in the
 * program's sources, "#N 0xADDR in FUNC ../src/FILE:LINE:COL": its " in ",
 * and in *src its file. The sanitizer's own sources are under libsanitizer/. */
static const char *program_frame(const char *m, const char *end, const char **src)
{
  for (const char *p = m; (p = memmem(p, (size_t)(end - p), "src/", 4)); p += 4) {
    const char *line = p;
    while (line > m && line[-1] != '\n')
      line--;
    const char *in = memmem(line, (size_t)(p - line), " in ", 4);
    if (in && !memmem(line, (size_t)(p - line) + (size_t)span(p, end, "\n"), "libsanitizer", 12)) {
      *src = p;
      return in;
    }
  }
  return NULL;
}

/* A sanitizer report's class, to group failures by cause: for UBSan its place
 * and kind ("../src/x.c:45:7: runtime error: signed integer overflow"), for
 * ASan and LSan the kind and the first stack frame in the program's sources. */
static void sanitizer_class(verdict_t *v)
{
  const char *end = v->err + v->errlen, *m;
  if ((m = memmem(v->err, v->errlen, "runtime error: ", 15))) {
    const char *from = m;
    while (from > v->err && from[-1] != '\n')
      from--;
    fail(v, "sanitizer: %.*s", (int)(m + 15 - from) + span(m + 15, end, ":0123456789'\n"), from);
    return;
  }
  static const char *const marks[] = {"AddressSanitizer", "LeakSanitizer",
                                      "UndefinedBehaviorSanitizer"};
  for (int i = 0; i < COUNT(marks); i++) {
    if (!(m = memmem(v->err, v->errlen, marks[i], strlen(marks[i]))))
      continue;
    /* "==PID==ERROR: AddressSanitizer: heap-buffer-overflow on ...", then
     * frames "#N 0xADDR in FUNC ../src/FILE:LINE:COL". */
    char error[64];
    snprintf(error, sizeof error, "ERROR: %s: ", marks[i]);
    const char *kind = memmem(v->err, v->errlen, error, strlen(error)), *src = NULL;
    kind = kind ? kind + strlen(error) : end;
    int klen = span(kind, end, "0123456789(\n");
    const char *on = memmem(kind, (size_t)klen, " on ", 4); /* "SEGV on unknown address" */
    if (on)
      klen = (int)(on - kind);
    while (klen && kind[klen - 1] == ' ')
      klen--;
    const char *in = program_frame(m, end, &src);
    if (in)
      fail(v, "sanitizer: %s: %.*s in %.*s %.*s", marks[i], klen, kind, span(in + 4, end, " \n"),
           in + 4, span(src, end, " \n"), src);
    else
      fail(v, "sanitizer: %s: %.*s", marks[i], klen, kind);
    return;
  }
}

/* The first MiB of a file (a sanitizer's report fits), NUL-terminated. */
static char *read_all(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  size_t cap = 1 << 20;
  char *s = malloc(cap + 1);
  if (!s)
    die("out of memory");
  *len = f ? fread(s, 1, cap, f) : 0;
  s[*len] = '\0';
  if (f)
    fclose(f);
  return s;
}

/* Whether the case's arguments (and with files, its files) hold byte ch: a
 * byte the program prints that is in neither came from the program itself. */
static int case_holds(const case_t *c, char ch, int files)
{
  for (int i = 0; i < c->narg; i++)
    if (ch && !c->drop[c->group[i]] && strchr(c->arg[i], ch))
      return 1;
  for (int i = 0; files && i < c->nfiles; i++)
    if (memchr(c->data[i], ch, c->len[i]))
      return 1;
  return 0;
}

/* Judge a finished case; status as waitpid gave it. */
static void judge(slot_t *s, int status, verdict_t *v)
{
  char path[PATH_MAX + 64];
  memset(v, 0, sizeof *v);
  v->seconds = now() - s->start;
  snprintf(path, sizeof path, "%s.err", s->dir);
  v->err = read_all(path, &v->errlen);
  if (s->killed)
    fail(v, "hang: no exit within %g s", G.timeout);
  sanitizer_class(v);
  if (!s->killed && WIFSIGNALED(status))
    fail(v, "crash: killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
  if (WIFEXITED(status)) {
    int rc = WEXITSTATUS(status);
    if (rc != 0 && rc != 1 && rc != 2 && rc != 3 && rc != 69 && rc != 130)
      fail(v, "exit status %d", rc);
    size_t nl = 0;
    for (size_t i = 0; i < v->errlen; i++)
      nl += v->err[i] == '\n';
    /* Several lines: one of the input's newlines, or the program's own
     * lines, named by the start of the first ("twinbench: gpu backend
     * skipped", "list: invalid option -- ") for grouping. */
    if (rc == 2 && (nl != 1 || v->err[v->errlen - 1] != '\n')) {
      const char *end = v->err + v->errlen;
      int lead = span(v->err, end, ":\n");
      if (v->err + lead < end && v->err[lead] == ':')
        lead += 1 + span(v->err + lead + 1, end, ":'\"0123456789\n");
      if (!v->errlen || nl < 2)
        fail(v, "refusal (exit 2) with %s on stderr", v->errlen ? "a line without a newline" : "nothing");
      else if (case_holds(s->c, '\n', 0)) /* files are lines: a value is one */
        fail(v, "refusal (exit 2) with several lines on stderr: a newline of the input echoed");
      else
        fail(v, "refusal (exit 2) with several lines on stderr, the first '%.*s...'", lead, v->err);
    }
  }
  /* Values echoed raw put the user's control bytes (escapes, carriage
   * returns) on the terminal: the program's messages should show them.
   * Control bytes the input does not hold are the program's own garbage. */
  for (size_t i = 0; i < v->errlen; i++) {
    unsigned char ch = (unsigned char)v->err[i];
    if ((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f) {
      fail(v, case_holds(s->c, (char)ch, 1) ? "raw control characters on stderr, echoed from the input"
                                        : "raw control characters on stderr that the input does not hold");
      break;
    }
  }
  leftover_found = 0;
  nftw(s->dir, find_leftover, 16, FTW_PHYS);
  if (leftover_found)
    fail(v, "left a temporary file behind: %s", leftover_name);
  for (int i = 0; i < COUNT(special_files); i++) {
    const snap_t *sn = &s->snap[i];
    struct stat st;
    char target[64] = "";
    snprintf(path, sizeof path, "%s/%s", s->dir, sn->name);
    if (!sn->present)
      continue;
    if (lstat(path, &st)) {
      fail(v, "removed the %s '%s'", type_name(sn->type), sn->name);
      continue;
    }
    ssize_t n = S_ISLNK(st.st_mode) ? readlink(path, target, sizeof target - 1) : 0;
    target[n > 0 ? n : 0] = '\0';
    if ((st.st_mode & S_IFMT) != sn->type)
      fail(v, "replaced the %s '%s' by a %s", type_name(sn->type), sn->name,
           type_name(st.st_mode & S_IFMT));
    else if (st.st_rdev != sn->rdev || strcmp(target, sn->target))
      fail(v, "changed the %s '%s'", type_name(sn->type), sn->name);
  }
}

/* Wait for the slot's program: 1 when it has finished (status set). */
static int poll_slot(slot_t *s, int *status)
{
  pid_t r = waitpid(s->pid, status, WNOHANG);
  if (r == s->pid)
    return 1;
  if (r < 0 && errno != EINTR)
    die("waitpid: %s", strerror(errno));
  if (!s->killed && (now() - s->start > G.timeout || G_stop)) {
    kill(-s->pid, SIGKILL);
    kill(s->pid, SIGKILL);
    s->killed = 1;
  }
  return 0;
}

static void finish_slot(slot_t *s, int keep)
{
  for (int i = 0; i < 2; i++)
    if (s->peer[i]) {
      kill(s->peer[i], SIGKILL);
      waitpid(s->peer[i], NULL, 0);
    }
  char path[PATH_MAX + 8];
  snprintf(path, sizeof path, "%s.out", s->dir);
  unlink(path);
  snprintf(path, sizeof path, "%s.err", s->dir);
  unlink(path);
  if (!keep)
    rm_tree(s->dir);
}

static void sleep_ms(int ms)
{
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

/* ---- The run: every case, the failures, and their minimal forms ---- */

typedef struct {
  long index;
  char key[200];
} failure_t;

static failure_t *failures;
static long nfailures;

/* Whether failure i is the first of its class. */
static int first_of_class(long i)
{
  for (long j = 0; j < i; j++)
    if (!strcmp(failures[i].key, failures[j].key))
      return 0;
  return 1;
}

/* How the cases ended: exit statuses 0..255, then death by signal, then
 * hangs; a mix with few runs that get past the checks tests little. */
static long outcome[258];

static void count_outcome(const slot_t *s, int status)
{
  outcome[s->killed ? 257 : WIFEXITED(status) ? WEXITSTATUS(status) : 256]++;
}

static void print_outcomes(void)
{
  printf("outcomes:");
  for (int i = 0; i < 256; i++)
    if (outcome[i])
      printf(" exit %d: %ld,", i, outcome[i]);
  printf(" signal: %ld, hang: %ld\n", outcome[256], outcome[257]);
}

static void report(const slot_t *s, const verdict_t *v)
{
  printf("FAIL case %ld (%.2f s):\n%s  command (in the case's folder):\n    ", s->c->index,
         v->seconds, v->detail);
  print_command(stdout, s->c);
  if (v->errlen) {
    printf("  stderr:\n");
    print_stderr(stdout, v->err, v->errlen);
  }
  fflush(stdout);
  failure_t *f = realloc(failures, (size_t)(nfailures + 1) * sizeof *f);
  if (!f)
    die("out of memory");
  failures = f;
  f[nfailures].index = s->c->index;
  snprintf(f[nfailures++].key, sizeof f->key, "%s", v->key);
}

/* Run one case to its end, in a folder apart from a kept one, and judge it. */
static void run_sync(case_t *c, verdict_t *v)
{
  slot_t s;
  int status = 0;
  start_case(&s, c, ".min");
  while (!poll_slot(&s, &status))
    sleep_ms(1);
  judge(&s, status, v);
  finish_slot(&s, 0);
}

/* Drop the groups of case index that the failure does not need, one at a
 * time, as long as the first failure stays the same; print what is left. */
static void minimize(long index, const char *key)
{
  case_t *c = gen_case(index);
  int changed = 1;
  while (changed && !G_stop) {
    changed = 0;
    for (int g = c->ngroups - 1; g > 0 && !G_stop; g--) {
      if (c->fixed[g] || c->drop[g])
        continue;
      verdict_t v;
      c->drop[g] = 1;
      run_sync(c, &v);
      free(v.err);
      if (strcmp(v.key, key))
        c->drop[g] = 0;
      else
        changed = 1;
    }
  }
  printf("  %s (case %ld)\n    ", key, index);
  print_command(stdout, c);
  fflush(stdout);
  free_case(c);
}

static void usage(void)
{
  fputs("usage: fuzz_cli [-s SEED] [-n CASES] [-c CASE] [-j JOBS] [-t SECONDS] [-k] [-m] [-v] "
        "TWINBENCH\n"
        "  -s SEED     the seed (default: $TB_FUZZ_SEED, else 1)\n"
        "  -n CASES    cases 0..CASES-1 (default: $TB_FUZZ_CASES, else 500)\n"
        "  -c CASE     only this case (with -k: its folder is kept, to rerun it by hand)\n"
        "  -j JOBS     cases run at a time (default 2)\n"
        "  -t SECONDS  a case that runs longer hangs (default 10)\n"
        "  -k          keep the folders of failing cases\n"
        "  -m          print a minimal command line for each class of failure\n"
        "  -v          print every case's command line\n",
        stderr);
  exit(99);
}

static long number(const char *s, const char *what)
{
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 0);
  if (errno || end == s || *end || v < 0)
    die("%s '%s' is not a number", what, s);
  return (long)v;
}

int main(int argc, char **argv)
{
  const char *env;
  if ((env = getenv("TB_FUZZ_SEED")) && *env)
    G.seed = (uint64_t)number(env, "TB_FUZZ_SEED");
  if ((env = getenv("TB_FUZZ_CASES")) && *env)
    G.cases = number(env, "TB_FUZZ_CASES");
  int c;
  while ((c = getopt(argc, argv, "s:n:c:j:t:kmvh")) != -1) {
    switch (c) {
    case 's': G.seed = (uint64_t)number(optarg, "-s"); break;
    case 'n': G.cases = number(optarg, "-n"); break;
    case 'c': G.only = number(optarg, "-c"); break;
    case 'j': G.jobs = (int)number(optarg, "-j"); break;
    case 't': G.timeout = (double)number(optarg, "-t"); break;
    case 'k': G.keep = 1; break;
    case 'm': G.minimize = 1; break;
    case 'v': G.verbose = 1; break;
    default: usage();
    }
  }
  if (optind + 1 != argc || G.jobs < 1 || G.jobs > 64)
    usage();
  if (!realpath(argv[optind], G.tb))
    die("%s: %s", argv[optind], strerror(errno));

  struct sigaction sa = {.sa_handler = on_signal};
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  const char *tmpdir = getenv("TMPDIR");
  if (snprintf(G.tmp, sizeof G.tmp, "%s/tbfuzz.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") >=
          (int)sizeof G.tmp ||
      !mkdtemp(G.tmp)) {
    G.tmp[0] = '\0';
    die("cannot make a temporary folder: %s", strerror(errno));
  }
  /* Device nodes need root and a kernel that lets us make them here (not
   * every container does): try one. */
  char probe[PATH_MAX + 8];
  snprintf(probe, sizeof probe, "%s/probe", G.tmp);
  G.can_mknod = geteuid() == 0 && !mknod(probe, S_IFCHR | 0600, makedev(1, 3));
  unlink(probe);

  read_model();
  long first = G.only >= 0 ? G.only : 0, end = G.only >= 0 ? G.only + 1 : G.cases;
  printf("fuzz_cli: seed %llu, cases %ld..%ld, %d at a time, timeout %g s, %d options and "
         "%d algorithms read from %s%s\n",
         (unsigned long long)G.seed, first, end - 1, G.jobs, G.timeout, M.nopts, M.nalgos, G.tb,
         G.can_mknod ? "" : " (no device nodes: not root)");
  fflush(stdout);

  double t0 = now();
  slot_t *slot = calloc((size_t)G.jobs, sizeof *slot);
  if (!slot)
    die("out of memory");
  long next = first, running = 0;
  while ((next < end && !G_stop) || running) {
    for (int j = 0; j < G.jobs && next < end && !G_stop; j++)
      if (!slot[j].c) {
        start_case(&slot[j], gen_case(next++), "");
        running++;
      }
    int busy = 0;
    for (int j = 0; j < G.jobs; j++) {
      int status;
      if (!slot[j].c || !poll_slot(&slot[j], &status))
        continue;
      verdict_t v;
      judge(&slot[j], status, &v);
      count_outcome(&slot[j], status);
      if (G.verbose)
        printf("case %ld: %s %d in %.2f s\n", slot[j].c->index,
               slot[j].killed ? "killed" : WIFEXITED(status) ? "exit" : "signal",
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), v.seconds);
      if (v.key[0] && !G_stop)
        report(&slot[j], &v);
      finish_slot(&slot[j], G.keep && (v.key[0] || G.only >= 0));
      free(v.err);
      free_case(slot[j].c);
      slot[j].c = NULL;
      running--;
      busy = 1;
    }
    if (!busy)
      sleep_ms(1);
  }
  free(slot);
  double took = now() - t0;

  /* The classes of failure, each with its first case. */
  int nclasses = 0;
  for (long i = 0; i < nfailures; i++) {
    if (!first_of_class(i))
      continue;
    long count = 0;
    for (long j = i; j < nfailures; j++)
      count += !strcmp(failures[i].key, failures[j].key);
    if (!nclasses++)
      printf("\nfailure classes (count, first case):\n");
    printf("  %5ld  case %-6ld %s\n", count, failures[i].index, failures[i].key);
  }
  if (G.minimize && nclasses && !G_stop) {
    printf("\nminimal command lines, one per class:\n");
    for (long i = 0; i < nfailures && !G_stop; i++)
      if (first_of_class(i))
        minimize(failures[i].index, failures[i].key);
  }
  printf("\n");
  print_outcomes();
  printf("fuzz_cli: seed %llu: %ld of %ld cases failed (%d classes) in %.1f s\n",
         (unsigned long long)G.seed, nfailures, end - first, nclasses, took);
  if (G.keep && (nfailures || G.only >= 0))
    printf("the folders of these cases, with the files their commands name, are kept in %s\n",
           G.tmp);
  else if (nfailures)
    printf("rerun a case with: %s -s %llu -c CASE -k %s (-k keeps its folder)\n", argv[0],
           (unsigned long long)G.seed, argv[optind]);
  free(failures);
  if (!(G.keep && (nfailures || G.only >= 0)))
    rm_tree(G.tmp);
  if (G_stop)
    return 130;
  return nfailures ? 1 : 0;
}
