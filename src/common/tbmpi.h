/* twinbench: the MPI layer. Everything outside src/common/tbmpi.c knows MPI
 * only through these functions, so that a build without MPI links the stub
 * (tbmpi_stub.c) and CUDA files never include <mpi.h>.
 *
 * MPI is initialised only when the process was started by a launcher
 * (mpirun, mpiexec, srun: tb_mpi_launched), so that a plain run takes
 * exactly the single-process path it takes without MPI. A run under a
 * launcher, with any number of ranks including one, is an MPI run: its rows
 * get the ranks, nodes and comm_ms columns.
 *
 * Errors: MPI's own errors keep MPI_ERRORS_ARE_FATAL, the default handler
 * on MPI_COMM_WORLD (a failed call ends the whole job with the library's
 * message); an error of twinbench's own on one rank ends the job through
 * tb_mpi_abort, since the other ranks may be waiting for it in a
 * collective and would otherwise wait for ever. */
#ifndef TB_TBMPI_H
#define TB_TBMPI_H

#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether MPI support is built in. */
int tb_mpi_built(void);

/* Whether a launcher started this process (its environment says so). */
int tb_mpi_launched(void);

/* Initialise MPI when launched (else nothing): the ranks, the node-local
 * ranks (MPI_Comm_split_type SHARED) and the nodes. TB_EUNSUP with a
 * message when launched by a launcher but MPI is not built in with more
 * than one rank. */
int tb_mpi_init(void);
void tb_mpi_finalize(void);

/* Whether this is an MPI run (initialised), and its shape; without MPI
 * rank 0 of 1 on 1 node. */
int tb_mpi_active(void);
int tb_mpi_rank(void);
int tb_mpi_size(void);
int tb_mpi_local_rank(void);
int tb_mpi_local_size(void);
int tb_mpi_nodes(void);

/* Among the ranks of this node, those whose key equals this rank's (the
 * affinity masks the launcher gave them): how many (*count) and this
 * rank's place among them (*index); 0 of 1 without MPI. */
void tb_mpi_local_peers(uint64_t key, int *index, int *count);

/* End every rank of the job with this exit status (after this rank's
 * message); returns only when MPI is not active. */
void tb_mpi_abort(int status);

/* Collectives on every rank (no-ops, or the value itself, without MPI). */
void tb_mpi_barrier(void);
double tb_mpi_max(double x);
double tb_mpi_min(double x);
double tb_mpi_sum(double x);

/* ---- What the distributed twins use ------------------------------------ */

/* Rank r's share [lo, hi) of n items split as evenly as possible over the
 * ranks (the first n % size ranks get one more). */
void tb_mpi_share(int64_t n, int rank, int64_t *lo, int64_t *hi);

/* Part `index` [lo, hi) of n items split so over `parts` parts (an axis of
 * a process grid). */
void tb_mpi_part(int64_t n, int parts, int index, int64_t *lo, int64_t *hi);

/* The communication clock: every call below adds the wall time it spends in
 * MPI to it. The runner resets it before a row's timed runs and reads the
 * total after them. */
void tb_mpi_comm_reset(void);
double tb_mpi_comm_ms(void);

/* Add seconds spent communicating outside this layer (NCCL's exchanges,
 * which the GPU twins time themselves) to the communication clock. */
void tb_mpi_comm_add(double seconds);

/* Rank root's `bytes` bytes at buf into every rank's buf (NCCL's unique id
 * travels so); nothing without MPI. */
int tb_mpi_bcast(void *buf, int64_t bytes, int root);

/* Sum count elements of kind (I32, F32, F64) over the ranks, in place. */
int tb_mpi_allreduce_sum(void *buf, int64_t count, tb_kind_t kind);

/* Gather every rank's share of n items of `bytes` each (tb_mpi_share) into
 * every rank's buf, in place. */
int tb_mpi_allgather_bytes(void *buf, int64_t n, int64_t bytes);

/* The balanced all-to-all: rank r's send holds size blocks of `count`
 * elements of `bytes` each, block d for rank d; its recv gets block r of
 * every rank s, in block s. The buffers may be device pointers only when
 * tb_mpi_cuda_aware says so. Without MPI, send is copied to recv. */
int tb_mpi_alltoall(const void *send, void *recv, int64_t count, int64_t bytes);

/* ---- A 3-D Cartesian process grid and its halo exchange ----------------- */

/* The process grid of a run: dims[a] ranks along axis a (x, y, z), this
 * rank's coordinates, and its neighbours below and above on each axis
 * (nbr[a][0], nbr[a][1]; -1 at the grid's edge). The ranks are numbered
 * as MPI_Cart_create numbers them without reordering: the world's ranks,
 * z fastest, so that the grid 1 x 1 x R is the slabs of rank order. */
typedef struct tb_mpi_cart {
  int dims[3], coords[3], nbr[3][2];
  uint64_t comm; /* the library's communicator (an MPI_Comm fits) */
} tb_mpi_cart_t;

/* MPI_Dims_create's balanced grid of `ranks` over three axes, the most
 * ranks on z, then y: dims[2] >= dims[1] >= dims[0]. Without MPI, or
 * before it is initialised, only one rank: 1 x 1 x 1. */
void tb_mpi_cart_dims(int ranks, int dims[3]);

/* Create the grid of dims (their product is the job's ranks), a collective
 * of every rank; without MPI (or not launched) the one rank's 1 x 1 x 1. */
int tb_mpi_cart_create(const int dims[3], tb_mpi_cart_t *c);
void tb_mpi_cart_free(tb_mpi_cart_t *c);

/* Rank r's coordinates in the grid. */
void tb_mpi_cart_coords(const tb_mpi_cart_t *c, int r, int coords[3]);

/* The exchange with the six neighbours: direction d = 2 a + s is axis a,
 * side s (0: below, 1: above). send[d] goes to that neighbour, recv[d] is
 * filled from it, bytes[d] each way (0, or no neighbour: nothing). A
 * message to the neighbour above carries tag 2 a + 1, one to the neighbour
 * below 2 a, so each is matched with its direction. tb_mpi_halo_start
 * posts them, tb_mpi_halo_wait completes them; the time between is not
 * counted as communication (the overlapped variants compute then). The
 * buffers may be device pointers only when tb_mpi_cuda_aware says so. */
typedef struct tb_mpi_halo {
  uint64_t req[12][2]; /* the library's requests (an MPI_Request fits in each) */
  int n;
} tb_mpi_halo_t;
int tb_mpi_halo_start(const tb_mpi_cart_t *c, tb_mpi_halo_t *h, void *const send[6],
                      void *const recv[6], const int64_t bytes[6]);
int tb_mpi_halo_wait(tb_mpi_halo_t *h);

/* Gather every rank's `count` elements of `elem` bytes (mine) into all, in
 * rank order, on every rank; the counts may differ between the ranks. */
int tb_mpi_allgatherv(const void *mine, int64_t count, void *all, int64_t elem);

/* Whether the library passes device pointers (CUDA-aware), asked at run
 * time (Open MPI's MPIX_Query_cuda_support); 0 without MPI. */
int tb_mpi_cuda_aware(void);

/* Fault injection for the tests (TB_MPI_FAULT=RANK:error or RANK:die): on
 * that rank, the first call fails with an error (error) or kills the
 * process with SIGKILL (die). The runner calls it before each timed run. */
int tb_mpi_fault_point(void);

#ifdef __cplusplus
}
#endif
#endif
