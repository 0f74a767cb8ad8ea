/* twinbench: how the GPU's distributed twins move their messages (CUDA C++
 * only). The tuning parameter `transport` chooses, per row:
 *
 *   aware   MPI on device buffers (a CUDA-aware library, asked at run time)
 *   staged  MPI through pinned host copies (one copy each way)
 *   nccl    NCCL on device buffers, queued on a stream (configure found NCCL)
 *   auto    aware where the library is CUDA-aware, else staged (the default;
 *           TB_MPI_CUDA_AWARE=0 makes it staged)
 *
 * A transport the run cannot have is refused in prepare (TB_EUNSUP), so the
 * row is skipped with a note; every rank decides alike. NCCL's time is
 * counted on the MPI layer's communication clock (tb_mpi_comm_add) as MPI's
 * is: from the post to the end of the wait, the stream drained before the
 * post so that the clock holds the exchange alone. */
#ifndef TB_GPU_COMM_H
#define TB_GPU_COMM_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "../common/algo.h"
#include "../common/tbmpi.h"

enum tb_xport { TB_XPORT_AUTO, TB_XPORT_AWARE, TB_XPORT_STAGED, TB_XPORT_NCCL };

extern const char *const tb_gpu_xports[];

/* The tuning parameter of every distributed GPU twin. */
#define TB_GPU_TRANSPORT                                                                         \
  {"transport",                                                                                \
   "how the ranks' messages travel: aware (CUDA-aware MPI on device buffers), staged (MPI "    \
   "through pinned host copies), nccl (NCCL on device buffers); auto: aware where the MPI "     \
   "library is CUDA-aware, else staged",                                                        \
   TB_PARAM_CHOICE, "auto", 0, 0, tb_gpu_xports, 0, "aware,staged,nccl"}

/* An NCCL communicator over every rank of the job (opaque: NULL without
 * NCCL). */
typedef struct tb_nccl tb_nccl_t;

/* Resolve ctx's transport (recorded for the row) into *xport; with nccl,
 * create the communicator (a collective of every rank) into *nccl. The
 * refusals (TB_EUNSUP): aware where MPI is not CUDA-aware, nccl in a build
 * without NCCL, or where ranks share a GPU (NCCL takes one GPU a rank). */
int tb_gpu_transport(tb_ctx_t *ctx, int *xport, tb_nccl_t **nccl);

/* Destroy a communicator (NULL: nothing). */
void tb_nccl_free(tb_nccl_t *nc);

/* The sum over the ranks of count elements of kind at the device buffer
 * buf, in place, on stream s, waited for. */
int tb_nccl_allreduce_sum(tb_nccl_t *nc, void *buf, int64_t count, tb_kind_t kind,
                          cudaStream_t s);

/* Post the halo exchange of tb_mpi_halo_start (the same directions and
 * neighbours of grid c) as NCCL sends and receives on stream s, the
 * stream `after` drained first; tb_nccl_wait completes it. */
int tb_nccl_halo_start(tb_nccl_t *nc, const tb_mpi_cart_t *c, void *const send[6],
                       void *const recv[6], const int64_t bytes[6], cudaStream_t after,
                       cudaStream_t s);

/* tb_mpi_alltoall on device buffers through NCCL (a send and a receive
 * with every rank, itself too) on stream s, the stream drained first and
 * waited for after. */
int tb_nccl_alltoall(tb_nccl_t *nc, const void *send, void *recv, int64_t count, int64_t bytes,
                     cudaStream_t s);

/* Wait for what was posted on s; the time of the wait is communication. */
int tb_nccl_wait(cudaStream_t s);

#endif
