/* twinbench: the transports of the GPU's distributed twins (comm.h). The
 * NCCL path is compiled where configure found NCCL (TB_HAVE_NCCL); this one
 * object is the whole of it either way, so no stub can be linked beside it. */
#include <config.h>

#include <stdlib.h>

#ifdef TB_HAVE_NCCL
#include <nccl.h>
#endif

#include "../common/parse.h"
#include "../common/timer.h"
#include "comm.h"
#include "cuda_util.h"

const char *const tb_gpu_xports[] = {"auto", "aware", "staged", "nccl", NULL};

#ifdef TB_HAVE_NCCL

struct tb_nccl {
  ncclComm_t comm;
};

#define TB_NCCL(call)                                                                          \
  do {                                                                                         \
    ncclResult_t tb_nccl_e = (call);                                                           \
    if (tb_nccl_e != ncclSuccess)                                                              \
      return tb_fail(TB_EDEVICE, "%s: %s at %s:%d", #call, ncclGetErrorString(tb_nccl_e),      \
                     __FILE__, __LINE__);                                                      \
  } while (0)

/* Every rank on a GPU of its own (NCCL refuses two ranks on one device):
 * no two ranks of a node on the same PCI bus id (which, unlike a device
 * index, CUDA_VISIBLE_DEVICES does not renumber); agreed by every rank. */
static int tb_nccl_one_gpu_a_rank(void)
{
  char bus[32] = "";
  int dev = 0, index, count;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetPCIBusId(bus, (int)sizeof bus, dev) != cudaSuccess)
    bus[0] = 0;
  tb_mpi_local_peers(tb_fnv1a(bus), &index, &count);
  return tb_mpi_max(count > 1 ? 1.0 : 0.0) == 0.0;
}

static int tb_nccl_make(tb_nccl_t **out)
{
  ncclUniqueId id;
  tb_nccl_t *nc;
  if (!tb_nccl_one_gpu_a_rank())
    return tb_fail(TB_EUNSUP, "transport=nccl: NCCL takes one GPU a rank, and ranks of a node "
                              "share a GPU (%d ranks there)",
                   tb_mpi_local_size());
  if (tb_mpi_rank() == 0)
    TB_NCCL(ncclGetUniqueId(&id));
  int rc = tb_mpi_bcast(&id, (int64_t)sizeof id, 0);
  if (rc)
    return rc;
  if (!(nc = (tb_nccl_t *)calloc(1, sizeof *nc)))
    return tb_fail(TB_ENOMEM, "out of memory");
  ncclResult_t e = ncclCommInitRank(&nc->comm, tb_mpi_size(), id, tb_mpi_rank());
  if (e != ncclSuccess) {
    free(nc);
    return tb_fail(TB_EDEVICE, "ncclCommInitRank: %s", ncclGetErrorString(e));
  }
  *out = nc;
  return TB_OK;
}

void tb_nccl_free(tb_nccl_t *nc)
{
  if (nc) {
    ncclCommDestroy(nc->comm);
    free(nc);
  }
}

static ncclDataType_t tb_nccl_type(tb_kind_t kind)
{
  return kind == TB_KIND_I32 ? ncclInt32 : kind == TB_KIND_F32 ? ncclFloat32 : ncclFloat64;
}

/* One send to and one receive from peer, inside a group. */
static ncclResult_t tb_nccl_pair(tb_nccl_t *nc, int peer, const void *send, void *recv,
                                 size_t bytes, cudaStream_t s)
{
  ncclResult_t e = ncclSend(send, bytes, ncclChar, peer, nc->comm, s);
  return e == ncclSuccess ? ncclRecv(recv, bytes, ncclChar, peer, nc->comm, s) : e;
}

/* End a group whose calls returned e (the first failure, or success). */
static int tb_nccl_group_end(ncclResult_t e)
{
  const ncclResult_t g = ncclGroupEnd();
  if (e != ncclSuccess || g != ncclSuccess)
    return tb_fail(TB_EDEVICE, "%s: %s", e != ncclSuccess ? "ncclSend/ncclRecv" : "ncclGroupEnd",
                   ncclGetErrorString(e != ncclSuccess ? e : g));
  return TB_OK;
}

int tb_nccl_allreduce_sum(tb_nccl_t *nc, void *buf, int64_t count, tb_kind_t kind,
                          cudaStream_t s)
{
  TB_CUDA(cudaStreamSynchronize(s));
  const double t0 = tb_wtime();
  TB_NCCL(ncclAllReduce(buf, buf, (size_t)count, tb_nccl_type(kind), ncclSum, nc->comm, s));
  tb_mpi_comm_add(tb_wtime() - t0);
  return tb_nccl_wait(s);
}

int tb_nccl_halo_start(tb_nccl_t *nc, const tb_mpi_cart_t *c, void *const send[6],
                       void *const recv[6], const int64_t bytes[6], cudaStream_t after,
                       cudaStream_t s)
{
  TB_CUDA(cudaStreamSynchronize(after));
  const double t0 = tb_wtime();
  ncclResult_t e = ncclSuccess;
  TB_NCCL(ncclGroupStart());
  for (int d = 0; d < 6 && e == ncclSuccess; d++) {
    const int peer = c->nbr[d / 2][d % 2];
    if (peer >= 0 && bytes[d])
      e = tb_nccl_pair(nc, peer, send[d], recv[d], (size_t)bytes[d], s);
  }
  const int rc = tb_nccl_group_end(e);
  tb_mpi_comm_add(tb_wtime() - t0);
  return rc;
}

int tb_nccl_alltoall(tb_nccl_t *nc, const void *send, void *recv, int64_t count, int64_t bytes,
                     cudaStream_t s)
{
  const size_t block = (size_t)(count * bytes);
  TB_CUDA(cudaStreamSynchronize(s));
  const double t0 = tb_wtime();
  ncclResult_t e = ncclSuccess;
  TB_NCCL(ncclGroupStart());
  for (int r = 0; r < tb_mpi_size() && e == ncclSuccess; r++)
    e = tb_nccl_pair(nc, r, (const char *)send + r * block, (char *)recv + r * block, block, s);
  const int rc = tb_nccl_group_end(e);
  tb_mpi_comm_add(tb_wtime() - t0);
  return rc ? rc : tb_nccl_wait(s);
}

#else /* no NCCL: the transport is refused before any of these is called */

struct tb_nccl {
  int none;
};

static int tb_nccl_make(tb_nccl_t **out)
{
  (void)out;
  return tb_fail(TB_EUNSUP, "transport=nccl: twinbench was built without NCCL (configure "
                            "--with-nccl)");
}

void tb_nccl_free(tb_nccl_t *nc)
{
  (void)nc;
}

int tb_nccl_allreduce_sum(tb_nccl_t *, void *, int64_t, tb_kind_t, cudaStream_t)
{
  return tb_fail(TB_EUNSUP, "built without NCCL");
}

int tb_nccl_halo_start(tb_nccl_t *, const tb_mpi_cart_t *, void *const[6], void *const[6],
                       const int64_t[6], cudaStream_t, cudaStream_t)
{
  return tb_fail(TB_EUNSUP, "built without NCCL");
}

int tb_nccl_alltoall(tb_nccl_t *, const void *, void *, int64_t, int64_t, cudaStream_t)
{
  return tb_fail(TB_EUNSUP, "built without NCCL");
}

#endif

int tb_nccl_wait(cudaStream_t s)
{
  const double t0 = tb_wtime();
  TB_CUDA(cudaStreamSynchronize(s));
  tb_mpi_comm_add(tb_wtime() - t0);
  return TB_OK;
}

int tb_gpu_transport(tb_ctx_t *ctx, int *xport, tb_nccl_t **nccl)
{
  const tb_param_value_t *t = tb_tune(ctx, "transport");
  const int aware = tb_mpi_cuda_aware();
  int x = t ? (int)t->i : TB_XPORT_AUTO;
  *nccl = NULL;
  if (x == TB_XPORT_AUTO)
    x = aware ? TB_XPORT_AWARE : TB_XPORT_STAGED;
  tb_tune_resolved(ctx, "transport", x);
  *xport = x;
  if (x == TB_XPORT_AWARE && !aware)
    return tb_fail(TB_EUNSUP, "transport=aware: the MPI library is not CUDA-aware%s",
                   tb_mpi_active() ? " (MPIX_Query_cuda_support, or TB_MPI_CUDA_AWARE=0)" : "");
  return x == TB_XPORT_NCCL ? tb_nccl_make(nccl) : TB_OK;
}
