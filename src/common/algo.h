/* twinbench: the shared interface between algorithms, backends and the runner.
 *
 * An algorithm (tb_algo_t) owns the problem: its parameters, the arrays it
 * declares, the seeded generator, the reference and verifier, and the cost
 * model. A variant (tb_variant_t) is one implementation of it on one backend,
 * with its own tuning parameters (knobs that change its speed, never the
 * answer); it sees the problem's arrays through the backend (host working
 * copies on the CPU, device buffers on the GPU) and supplies prepare / run /
 * collect / release, of which only run is timed. A backend (tb_backend_t)
 * owns its configurations (the CPU: a bound team of threads; the GPU: a
 * device): it enumerates them from its own options, enters and leaves them,
 * describes each as named columns, moves the arrays, times runs and
 * measures the ceilings (memory and compute) that place each row on its
 * roofline. The runner (runner.h) sweeps problems, configurations and
 * tuning points without knowing what they are; adding an algorithm is a
 * descriptor, variants and one line in src/families/families.def. */
#ifndef TB_ALGO_H
#define TB_ALGO_H

#include <stdint.h>
#include <stdio.h>

#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TB_MAX_ARRAYS 12
#define TB_MAX_PARAMS 16
#define TB_MAX_COLUMNS 16
#define TB_MAX_TUNING 12        /* tuning parameters of one variant */
#define TB_MAX_CONFIG_COLUMNS 8 /* columns of one backend's configurations */

/* ---- Parameters -------------------------------------------------------- */

/* Problem parameters (an algorithm's), tuning parameters (a variant's) and
 * backend options (a backend's sweep axes) share one description. Each is
 * also a command-line option --NAME LIST. */
typedef enum tb_param_type {
  TB_PARAM_INT,    /* an integer in [min, max] (K/M/G suffixes and 2^k accepted) */
  TB_PARAM_REAL,   /* a real number in [min, max] */
  TB_PARAM_CHOICE, /* one of choices[] */
  TB_PARAM_TEXT    /* free text (a file name, a matrix), checked by its user */
} tb_param_type_t;

enum tb_param_flags {
  TB_PARAM_AUTO = 1u << 0, /* INT: the word auto is a value too (i = 0): the user's rule */
  TB_PARAM_POW2 = 1u << 1  /* INT: a power of two */
};

typedef struct tb_param_def {
  const char *name;
  const char *summary;
  tb_param_type_t type;
  const char *defaults;       /* the default value list, as the user would type it */
  double min, max;            /* inclusive range, for INT and REAL */
  const char *const *choices; /* NULL-terminated, for CHOICE */
  unsigned flags;             /* tb_param_flags */
  const char *sweep;          /* the value list the word sweep stands for, or NULL */
} tb_param_def_t;

/* One value of a parameter. For CHOICE, i is the index into choices[]; for
 * TEXT, s is the text; s is always the value as the user wrote it. */
typedef struct tb_param_value {
  int64_t i;
  double r;
  const char *s; /* owned by the sweep or a static table */
} tb_param_value_t;

/* A result column particular to an algorithm or a backend (NaN in a row = no
 * value). */
enum tb_column_flags {
  TB_COL_TEXT = 1u << 0, /* a text value, not a number */
  TB_COL_WIDE = 1u << 1, /* after the figures in CSV and JSON, not among what ran */
  TB_COL_LIST = 1u << 2, /* text: space-separated integers, a list in JSON; too long for the table */
  TB_COL_TIME = 1u << 3  /* a per_run column shown as median seconds per item, not items per second */
};

typedef struct tb_column_def {
  const char *name;
  const char *format; /* printf format for one double, e.g. "%.6g" */
  const char *summary;
  unsigned flags; /* tb_column_flags */
} tb_column_def_t;

/* One value of such a column in a row: a number (NaN: none), or text when
 * text is set (malloc'd, owned by the row). */
typedef struct tb_cell {
  double num;
  char *text;
} tb_cell_t;

/* A named size (e.g. the problem size of a published table). */
typedef struct tb_preset {
  const char *name;
  int64_t size;
  const char *summary;
} tb_preset_t;

/* ---- Problems ---------------------------------------------------------- */

typedef enum tb_role {
  TB_IN = 1,   /* read by variants, never written */
  TB_OUT = 2,  /* written by variants; poisoned before the runs */
  TB_INOUT = 3 /* updated in place: restored from the problem before every run */
} tb_role_t;

typedef struct tb_array {
  const char *name;
  tb_kind_t kind;
  tb_role_t role;
  int64_t count;
  void *host; /* canonical contents (IN and INOUT only), allocated by the runner */
} tb_array_t;

/* One instance: an algorithm at one precision, size and parameter point. */
typedef struct tb_problem {
  const struct tb_algo *algo;
  tb_prec_t prec;
  int64_t n;
  uint64_t seed;
  const char *input_path; /* --input FILE, or NULL: generate from the seed */
  tb_param_value_t param[TB_MAX_PARAMS];
  int narrays;
  tb_array_t array[TB_MAX_ARRAYS];
  int64_t extra_host_bytes;   /* host memory the algorithm adds beyond the arrays */
  int64_t extra_device_bytes; /* device scratch a GPU variant may add beyond the arrays */
  int overflow;               /* a count of setup overflowed 64 bits (tb_count_mul) */
  void *priv;                 /* the algorithm's own state (scalars, reference) */
} tb_problem_t;

typedef enum tb_verdict {
  TB_SKIPPED = 0,  /* not verified (--no-verify, or nothing to compare) */
  TB_PASS,
  TB_FAIL,
  TB_UNVERIFIABLE /* checked, but the bound is too loose to tell a wrong result */
} tb_verdict_t;

typedef struct tb_check {
  tb_verdict_t verdict;
  double error;     /* the algorithm's error figure (its error_meaning says which) */
  double tolerance; /* the derived bound it was checked against */
  char note[200];   /* for a failure or an unverifiable result: where and why */
} tb_check_t;

/* ---- Algorithms -------------------------------------------------------- */

/* The ceilings a backend measures in each of its configurations: three
 * memory ceilings by read:write mix, in GB/s (10^9 bytes), two compute
 * ceilings, FMA throughput in GFLOP/s (an FMA counts two flops), and the
 * rate of random accesses, a gather out[i] = in[idx[i]] at random indices,
 * in GB/s at 32 bytes (a GPU memory sector) an access. */
typedef enum tb_ceiling_kind {
  TB_CEIL_READ = 0, /* read-only traffic (a sum) */
  TB_CEIL_COPY,     /* 1:1 read:write (a copy) */
  TB_CEIL_TRIAD,    /* 2:1 read:write (a triad) */
  TB_CEIL_FP32,     /* FP32 FMA throughput */
  TB_CEIL_FP64,     /* FP64 FMA throughput */
  TB_CEIL_GATHER,   /* random 4-byte reads, counted as 32 bytes each */
  TB_NCEIL
} tb_ceiling_kind_t;

/* What one run of a problem costs, from the algorithm's model: the fewest
 * bytes read and written (STREAM-style: each array element once, no
 * write-allocate) and the floating-point operations (an FMA counts two;
 * integer work counts none). The read:write mix picks the memory ceiling a
 * row is held against, the precision its compute ceiling; a cost whose
 * bytes are random accesses counted at 32 bytes each (random = 1) is held
 * against the gather ceiling instead. */
typedef struct tb_cost {
  double read, written, flops;
  int random;
} tb_cost_t;

enum tb_algo_flags {
  TB_ALGO_INPUT = 1u << 0,  /* setup/generate read p->input_path (--input FILE) */
  TB_ALGO_COMPUTE = 1u << 1 /* compute-bound: its few bytes make no bandwidth worth a column */
};

typedef struct tb_algo {
  const char *name;
  const char *summary;
  unsigned flags;              /* tb_algo_flags */
  unsigned precisions;         /* TB_PREC_BIT mask of supported precisions */
  unsigned default_precisions; /* those run when --precision is not given */
  const char *default_sizes;   /* as the user would type --size */
  const char *size_meaning;    /* what n counts, e.g. "elements per array" */
  const tb_preset_t *presets;
  int npresets;
  const tb_param_def_t *params;
  int nparams;
  const tb_column_def_t *columns;
  int ncolumns;
  const char *error_meaning; /* what the error column holds */

  /* Check parameters and declare the arrays (no large allocation). With an
   * input file, setup reads enough of it to set p->n. */
  int (*setup)(tb_problem_t *p);
  /* Fill the IN and INOUT arrays from the seed, or from p->input_path. */
  int (*generate)(tb_problem_t *p);
  /* Compare the arrays a variant produced (view[i] is array i on the host)
   * with the reference; may fill columns (extra[]). */
  int (*verify)(tb_problem_t *p, void *const *view, double *extra, tb_check_t *chk);
  /* What one run costs (tb_cost_t). */
  void (*cost)(const tb_problem_t *p, tb_cost_t *c);
  /* Optional: write the problem and a variant's results as CSV (--dump). */
  int (*dump)(const tb_problem_t *p, void *const *view, FILE *f);
  /* Optional: release p->priv. */
  void (*cleanup)(tb_problem_t *p);
  /* Optional: rate columns. The work items of one run that column k counts
   * (options priced, paths simulated), or NaN for a column that is not a
   * rate; the runner sets each rate column to items / median seconds in
   * every row, verified or not, because only the runner knows the time
   * (a TB_COL_TIME column gets median seconds / items instead). */
  double (*per_run)(const tb_problem_t *p, int column);
} tb_algo_t;

/* ---- Contexts and variants --------------------------------------------- */

/* Host-device transfer times of one configuration (NaN where not applicable). */
typedef struct tb_xfer {
  double h2d_pageable_ms;
  double h2d_pinned_ms;
  double d2h_pageable_ms;
  double d2h_pinned_ms;
} tb_xfer_t;

struct tb_variant;

/* Everything a variant sees while it runs. What cfg and bstate are is the
 * backend's business: its twins read them through the backend's helpers
 * (cpu_omp/cpu.h, gpu_cuda/cuda_util.h). */
typedef struct tb_ctx {
  const tb_problem_t *p;
  const struct tb_variant *v;
  const void *cfg;          /* the backend configuration the variant runs in */
  void *bstate;             /* the backend's own (attach ... detach) */
  void *buf[TB_MAX_ARRAYS]; /* array i on the backend: host working copy or device pointer */
  const tb_param_value_t *tune; /* the variant's tuning point, one value per v->tuning[] */
  double tuned[TB_MAX_TUNING];  /* what an auto value resolved to (NaN: as given) */
  void *state;                  /* the variant's own (prepare ... release) */
  double extra[TB_MAX_COLUMNS]; /* algorithm columns a variant may fill */
} tb_ctx_t;

enum tb_variant_flags {
  TB_V_SERIAL = 1u << 0, /* runs on one thread whatever the configuration: once per sweep */
  /* Runs in MPI runs of several ranks (tbmpi.h). MPI: the problem is the
   * whole job's, and the variant splits it over the ranks itself (strong
   * scaling). MPI_WEAK: every rank runs the whole problem on its own data
   * (weak scaling): a row's bytes and flops are the ranks' together. */
  TB_V_MPI = 1u << 1,
  TB_V_MPI_WEAK = 1u << 2
};

typedef struct tb_variant {
  const char *name;
  const char *summary;
  const tb_algo_t *algo;
  unsigned precisions; /* TB_PREC_BIT mask */
  unsigned flags;      /* tb_variant_flags */
  const tb_param_def_t *tuning; /* its tuning parameters */
  int ntuning;
  /* Optional, untimed: scratch and tables. TB_EUNSUP skips the configuration. */
  int (*prepare)(tb_ctx_t *ctx);
  /* The timed region: compute the outputs from the inputs. */
  int (*run)(tb_ctx_t *ctx);
  /* Optional, untimed: finish the outputs after the last run. */
  int (*collect)(tb_ctx_t *ctx);
  /* Optional: free what prepare took. */
  void (*release)(tb_ctx_t *ctx);
} tb_variant_t;

/* Whether a stop was asked for (a signal) that a run in progress should
 * honour: a run of many steps (an iterative solve) polls it between steps
 * and returns TB_EINTR, so that the stop does not wait for the run's end
 * (the row is then not recorded; the rows before it are). Always 0 in an
 * MPI run of several ranks, whose ranks stop together between rows. */
int tb_run_stopping(void);

/* C linkage for the descriptors a CUDA file exports. */
#ifdef __cplusplus
#define TB_EXTERN_C extern "C"
#else
#define TB_EXTERN_C
#endif

/* The elements of a static array. */
#define TB_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* One variant descriptor, file-local (a family exports its list):
 * TB_VARIANT(tb_x, "name", &tb_algo_x, precisions, flags, tuning table or
 * NULL, ntuning, prepare, run, collect, release, "summary"). */
#define TB_VARIANT(ID, NAME, ALGO, PRECS, FLAGS, TUNING, NTUNING, PREPARE, RUN, COLLECT, RELEASE,  \
                   SUMMARY)                                                                      \
  static const tb_variant_t ID = {NAME,     SUMMARY, ALGO,    PRECS,   FLAGS,  TUNING,           \
                                  NTUNING,  PREPARE, RUN,     COLLECT, RELEASE}

/* A family's variants on one backend, NULL-terminated, exported as
 * tb_<family>_<backend>_variants for the backend's registry. */
#define TB_VARIANT_LIST(FAMILY, BACKEND, ...)                                                    \
  TB_EXTERN_C const tb_variant_t *const tb_##FAMILY##_##BACKEND##_variants[] = {__VA_ARGS__, NULL}

/* The value of tuning parameter `name` in ctx's tuning point, or NULL when
 * the variant has no such parameter. */
const tb_param_value_t *tb_tune(const tb_ctx_t *ctx, const char *name);

/* Record what an auto tuning value resolved to (a row shows it). */
void tb_tune_resolved(tb_ctx_t *ctx, const char *name, double value);

/* ---- Backends ---------------------------------------------------------- */

enum tb_backend_flags {
  TB_BACKEND_OFFLOAD = 1u << 0 /* arrays cross to a device: rows get transfer times */
};

/* A backend's configurations for one sweep: n opaque handles, its own. */
typedef struct tb_configs {
  int n;
  void **cfg;
} tb_configs_t;

/* A configs_free for configurations that are one allocation each. */
void tb_configs_free(tb_configs_t *c);

struct tb_topo;
struct tb_energy_reading;

typedef struct tb_backend {
  const char *name;
  const char *summary;
  unsigned flags;                      /* tb_backend_flags */
  const char *ceiling_names[TB_NCEIL]; /* how each kind of ceiling is measured */
  /* Its variants: one NULL-terminated list per family, the lists NULL-terminated. */
  const tb_variant_t *const *const *variants;
  /* Its sweep axes, options --NAME LIST of the run command. Their values
   * reach configs() as text: the backend parses them (with the topology). */
  const tb_param_def_t *options;
  int noptions;
  /* Tuning parameters common to its variants (block and grid), known to the
   * command line even in a build without its variants. */
  const tb_param_def_t *tuning;
  int ntuning;
  /* The columns each row gets from its configuration. */
  const tb_column_def_t *columns;
  int ncolumns;

  /* TB_OK, or TB_ENODEV with the reason (tb_fail). */
  int (*probe)(void);
  /* A few lines for `twinbench info`, and a JSON value for a report's
   * environment (the backend's hardware and software). */
  void (*info)(FILE *f);
  void (*env_json)(FILE *f);
  /* Memory of the backend's own (its device), or NULL when it uses the host's. */
  int (*mem_available)(int64_t *bytes);
  /* The configurations of a sweep from the option values (text[k] for
   * options[k]: the user's list, or the default). TB_EINVAL for bad values. */
  int (*configs)(struct tb_topo *topo, const char *const *text, tb_configs_t *out);
  void (*configs_free)(tb_configs_t *c);
  /* Whether variant v runs in configuration cfg. */
  int (*runs)(const void *cfg, const tb_variant_t *v);
  /* Host bytes (beside the problem's own arrays) and own bytes (its device)
   * that a problem takes while it runs in cfg. */
  void (*needs)(const void *cfg, const tb_problem_t *p, int64_t *host, int64_t *own);
  /* Take the configuration (the CPU binds its team) and give it back. A
   * configuration that cannot be had exactly (an unbindable team) is noted
   * by the backend and recorded in its columns, not an error. */
  int (*enter)(void *cfg);
  void (*leave)(void *cfg);
  /* The ceiling of the given kind (tb_ceiling_kind_t) in the entered
   * configuration: GB/s or GFLOP/s. */
  int (*measure_ceiling)(void *cfg, int kind, double *value);
  /* The bytes of cache that arrays must exceed to be measured from memory
   * (the CPU's last-level caches, the GPU's L2), 0 when unknown. */
  int64_t (*cache_bytes)(const void *cfg);
  /* Give ctx the backend's copies of the problem's arrays (ctx->buf), moving
   * inputs in; fills the host-to-device fields of xfer. */
  int (*attach)(tb_ctx_t *ctx, tb_xfer_t *xfer);
  /* Before runs: restore INOUT arrays; with poison, also poison the
   * outputs. It returns when the device has finished all work queued
   * before it (the runner relies on it before reading energy counters). */
  int (*reset)(tb_ctx_t *ctx, int poison);
  int (*timer_start)(tb_ctx_t *ctx);
  int (*timer_stop)(tb_ctx_t *ctx, double *ms);
  /* After runs: a host view of every array (view[i]); fills the
   * device-to-host fields of xfer. */
  int (*download)(tb_ctx_t *ctx, void **view, tb_xfer_t *xfer);
  void (*detach)(tb_ctx_t *ctx);
  /* After a variant's runs in cfg: the values of its columns for the row
   * (cells[k] for columns[k]). */
  int (*record)(void *cfg, const tb_ctx_t *ctx, tb_cell_t *cells);
  /* Optional (NULL: no energy counter): read the cumulative energy
   * counters that cover cfg's hardware into *r (energy.h), or fail
   * (tb_fail) saying why they cannot be read; and what they count, with the
   * board's power limit where known, as a line for the reports. The runner
   * reads them around a row's timed repeats. */
  int (*energy_read)(void *cfg, struct tb_energy_reading *r);
  void (*energy_what)(const void *cfg, char *buf, size_t len);
} tb_backend_t;

#ifdef __cplusplus
}
#endif
#endif
