/* twinbench: the shared interface between algorithms, backends and the runner.
 *
 * An algorithm (tb_algo_t) owns the problem: its parameters, the arrays it
 * declares, the seeded generator, the reference and verifier, and the cost
 * model. A variant (tb_variant_t) is one implementation of it on one backend;
 * it sees the problem's arrays through the backend (host working copies on the
 * CPU, device buffers on the GPU) and supplies prepare / run / collect /
 * release, of which only run is timed. A backend (tb_backend_t) moves the
 * arrays, times runs, and measures the machine limit the results are held
 * against. The runner (runner.h) sweeps the axes and knows nothing of any
 * particular algorithm; adding one is a descriptor, variants and registry
 * entries. */
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

/* ---- Parameters -------------------------------------------------------- */

typedef enum tb_param_type {
  TB_PARAM_INT,   /* an integer in [min, max] (K/M/G suffixes and 2^k accepted) */
  TB_PARAM_REAL,  /* a real number in [min, max] */
  TB_PARAM_CHOICE, /* one of choices[] */
  TB_PARAM_TEXT    /* free text (a file name, a matrix), checked by the algorithm's setup */
} tb_param_type_t;

typedef struct tb_param_def {
  const char *name;
  const char *summary;
  tb_param_type_t type;
  const char *defaults;        /* the default value list, as the user would type it */
  double min, max;             /* inclusive range, for INT and REAL */
  const char *const *choices;  /* NULL-terminated, for CHOICE */
} tb_param_def_t;

/* One value of a parameter. For CHOICE, i is the index into choices[]; for
 * TEXT, s is the text. Every parameter is also a command-line option
 * --NAME VALUE, the same as --param NAME=VALUE. */
typedef struct tb_param_value {
  int64_t i;
  double r;
  const char *s; /* the value as text, owned by the sweep or a static table */
} tb_param_value_t;

/* A result column particular to an algorithm (NaN in a row = no value). */
typedef struct tb_column_def {
  const char *name;
  const char *format; /* printf format for one double, e.g. "%.6g" */
  const char *summary;
} tb_column_def_t;

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
  void *priv;                 /* the algorithm's own state (scalars, reference) */
} tb_problem_t;

typedef enum tb_verdict {
  TB_SKIPPED = 0, /* not verified (--no-verify, or nothing to compare) */
  TB_PASS,
  TB_FAIL
} tb_verdict_t;

typedef struct tb_check {
  tb_verdict_t verdict;
  double error;     /* the algorithm's error figure (its error_meaning says which) */
  double tolerance; /* the derived bound it was checked against */
  char note[200];   /* for a failure: where and by how much */
} tb_check_t;

/* ---- Algorithms -------------------------------------------------------- */

/* Which measured limit an algorithm's results are held against. */
typedef enum tb_limit_kind {
  TB_LIMIT_STREAM = 0, /* CPU: STREAM triad; GPU: device-to-device copy */
  TB_LIMIT_READ = 1,   /* CPU: STREAM-style read-only sum; GPU: device-to-device copy */
  TB_NLIMITS
} tb_limit_kind_t;

enum tb_algo_flags {
  TB_ALGO_INPUT = 1u << 0 /* setup/generate read p->input_path (--input FILE) */
};

typedef struct tb_algo {
  const char *name;
  const char *summary;
  unsigned flags;              /* tb_algo_flags */
  tb_limit_kind_t limit;       /* the limit its bandwidth is compared with */
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
  /* The fewest bytes moved (STREAM-style, no write-allocate) and the flops. */
  void (*cost)(const tb_problem_t *p, double *bytes, double *flops);
  /* Optional: write the problem and a variant's results as CSV (--dump). */
  int (*dump)(const tb_problem_t *p, void *const *view, FILE *f);
  /* Optional: release p->priv. */
  void (*cleanup)(tb_problem_t *p);
  /* Optional: rate columns. The work items of one run that column k counts
   * (options priced, paths simulated), or NaN for a column that is not a
   * rate; the runner sets each rate column to items / median seconds in
   * every row, verified or not, because only the runner knows the time. */
  double (*per_run)(const tb_problem_t *p, int column);
} tb_algo_t;

/* ---- Devices, contexts, variants, backends ---------------------------- */

/* What the GPU backend reports of its device (zeroed for the CPU). */
typedef struct tb_device_info {
  char name[256];
  char pci_bus[32];
  int cc_major, cc_minor;
  int sms;
  int warp_size;
  int max_threads_per_block;
  int max_threads_per_sm;
  int64_t global_mem;
  int64_t l2_bytes;
  int64_t shared_per_block;
  int64_t shared_per_sm;
  int clock_khz;
  int mem_clock_khz;
  int bus_width_bits;
  int driver_version;
  int runtime_version;
  char compiler[64]; /* the compiler that built the device code */
} tb_device_info_t;

/* Host-device transfer times of one configuration (NaN where not applicable). */
typedef struct tb_xfer {
  double h2d_pageable_ms;
  double h2d_pinned_ms;
  double d2h_pageable_ms;
  double d2h_pinned_ms;
} tb_xfer_t;

struct tb_variant;

/* Everything a variant sees while it runs. */
typedef struct tb_ctx {
  const tb_problem_t *p;
  const struct tb_variant *v;
  void *buf[TB_MAX_ARRAYS]; /* array i on the backend: host working copy or device pointer */
  int threads;              /* CPU: the size of the bound team */
  int block;                /* GPU: threads per block */
  int grid;                 /* GPU: blocks requested, 0 = the variant chooses */
  int grid_used;            /* GPU: blocks the variant launched (set by the variant) */
  void *stream;             /* GPU: the cudaStream_t to launch on */
  const tb_device_info_t *dev;
  int64_t limit_elems;      /* CPU: elements per array of the STREAM-triad limit measurement */
  void *state;              /* the variant's own (prepare ... release) */
  void *bstate;             /* the backend's own (attach ... detach) */
  double extra[TB_MAX_COLUMNS]; /* algorithm columns a variant may fill */
} tb_ctx_t;

enum tb_variant_flags {
  TB_V_THREADS = 1u << 0, /* CPU: runs on the swept thread team (otherwise one thread) */
  TB_V_BLOCK = 1u << 1,   /* GPU: the block size is a launch parameter (swept) */
  TB_V_GRID = 1u << 2     /* GPU: the grid size is a launch parameter (swept) */
};

typedef struct tb_variant {
  const char *name;
  const char *summary;
  const tb_algo_t *algo;
  int backend;         /* TB_CPU or TB_GPU */
  unsigned precisions; /* TB_PREC_BIT mask */
  unsigned flags;      /* tb_variant_flags */
  /* Optional, untimed: scratch and tables. TB_EUNSUP skips the configuration. */
  int (*prepare)(tb_ctx_t *ctx);
  /* The timed region: compute the outputs from the inputs. */
  int (*run)(tb_ctx_t *ctx);
  /* Optional, untimed: finish the outputs after the last run. */
  int (*collect)(tb_ctx_t *ctx);
  /* Optional: free what prepare took. */
  void (*release)(tb_ctx_t *ctx);
} tb_variant_t;

typedef struct tb_backend {
  const char *name;
  const char *limit_names[TB_NLIMITS];   /* what each kind of measured limit is */
  const tb_variant_t *const *variants;   /* NULL-terminated */
  /* TB_OK and a description (GPU), or TB_ENODEV with the reason. */
  int (*probe)(tb_device_info_t *info);
  /* Memory the backend can still allocate. */
  int (*mem_available)(int64_t *bytes);
  /* The bandwidth limit of the given kind (tb_limit_kind_t) for ctx's
   * configuration (CPU: the bound team of ctx->threads), in GB/s. */
  int (*measure_limit)(tb_ctx_t *ctx, int kind, double *gbs);
  /* Give ctx the backend's copies of the problem's arrays (ctx->buf), moving
   * inputs in; fills the host-to-device fields of xfer. */
  int (*attach)(tb_ctx_t *ctx, tb_xfer_t *xfer);
  /* Before runs: restore INOUT arrays; with poison, also poison the outputs. */
  int (*reset)(tb_ctx_t *ctx, int poison);
  int (*timer_start)(tb_ctx_t *ctx);
  int (*timer_stop)(tb_ctx_t *ctx, double *ms);
  /* After runs: a host view of every array (view[i]); fills the
   * device-to-host fields of xfer. */
  int (*download)(tb_ctx_t *ctx, void **view, tb_xfer_t *xfer);
  void (*detach)(tb_ctx_t *ctx);
} tb_backend_t;

#ifdef __cplusplus
}
#endif
#endif
