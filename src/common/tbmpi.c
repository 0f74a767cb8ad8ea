/* twinbench: the MPI layer over the MPI library (tbmpi.h). */
#include <config.h>

#include <limits.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_MPI_EXT_H
#include <mpi-ext.h>
#endif

#include "status.h"
#include "tbmpi.h"

_Static_assert(sizeof(MPI_Request) <= sizeof(((tb_mpi_halo_t *)0)->req[0]),
               "an MPI_Request fits in a slot of tb_mpi_halo_t");
_Static_assert(sizeof(MPI_Comm) <= sizeof(((tb_mpi_cart_t *)0)->comm),
               "an MPI_Comm fits in tb_mpi_cart_t");

static struct {
  int active;
  int rank, size, local_rank, local_size, nodes;
  MPI_Comm local; /* the ranks of this node */
  double comm_s;  /* the communication clock, in seconds */
  int fault;     /* the fault point has fired (or was not asked for) */
} tb_mpi = {0, 0, 1, 0, 1, 1, MPI_COMM_NULL, 0.0, 0};

int tb_mpi_built(void)
{
  return 1;
}

int tb_mpi_init(void)
{
  int leader;
  if (!tb_mpi_launched())
    return TB_OK;
  /* The runs are funnelled: OpenMP teams compute, the main thread alone
   * calls MPI. */
  int provided;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    return tb_fail(TB_ENODEV, "MPI_Init_thread failed");
  tb_mpi.active = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &tb_mpi.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &tb_mpi.size);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, tb_mpi.rank, MPI_INFO_NULL,
                      &tb_mpi.local);
  MPI_Comm_rank(tb_mpi.local, &tb_mpi.local_rank);
  MPI_Comm_size(tb_mpi.local, &tb_mpi.local_size);
  /* A node is counted by its node-local rank 0. */
  leader = tb_mpi.local_rank == 0;
  MPI_Allreduce(&leader, &tb_mpi.nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return TB_OK;
}

void tb_mpi_finalize(void)
{
  if (tb_mpi.active) {
    MPI_Comm_free(&tb_mpi.local);
    MPI_Finalize();
  }
  tb_mpi.active = 0;
}

int tb_mpi_active(void)
{
  return tb_mpi.active;
}

int tb_mpi_rank(void)
{
  return tb_mpi.rank;
}

int tb_mpi_size(void)
{
  return tb_mpi.size;
}

int tb_mpi_local_rank(void)
{
  return tb_mpi.local_rank;
}

int tb_mpi_local_size(void)
{
  return tb_mpi.local_size;
}

int tb_mpi_nodes(void)
{
  return tb_mpi.nodes;
}

void tb_mpi_local_peers(uint64_t key, int *index, int *count)
{
  uint64_t *keys;
  *index = 0;
  *count = 1;
  if (!tb_mpi.active || tb_mpi.local_size == 1 ||
      !(keys = malloc((size_t)tb_mpi.local_size * sizeof *keys)))
    return;
  MPI_Allgather(&key, 1, MPI_UINT64_T, keys, 1, MPI_UINT64_T, tb_mpi.local);
  *count = 0;
  for (int r = 0; r < tb_mpi.local_size; r++)
    if (keys[r] == key) {
      *index += r < tb_mpi.local_rank;
      (*count)++;
    }
  free(keys);
}

void tb_mpi_abort(int status)
{
  if (!tb_mpi.active)
    return;
  fflush(stdout);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, status);
}

void tb_mpi_barrier(void)
{
  if (tb_mpi.active)
    MPI_Barrier(MPI_COMM_WORLD);
}

static double tb_mpi_reduce1(double x, MPI_Op op)
{
  double y = x;
  if (tb_mpi.active)
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
  return y;
}

double tb_mpi_max(double x)
{
  return tb_mpi_reduce1(x, MPI_MAX);
}

double tb_mpi_min(double x)
{
  return tb_mpi_reduce1(x, MPI_MIN);
}

double tb_mpi_sum(double x)
{
  return tb_mpi_reduce1(x, MPI_SUM);
}

void tb_mpi_comm_reset(void)
{
  tb_mpi.comm_s = 0.0;
}

double tb_mpi_comm_ms(void)
{
  return 1e3 * tb_mpi.comm_s;
}

void tb_mpi_comm_add(double seconds)
{
  tb_mpi.comm_s += seconds;
}

int tb_mpi_bcast(void *buf, int64_t bytes, int root)
{
  if (!tb_mpi.active)
    return TB_OK;
  if (bytes > INT_MAX)
    return tb_fail(TB_EUNSUP, "a broadcast of %lld bytes is more than MPI counts",
                   (long long)bytes);
  MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD);
  return TB_OK;
}

int tb_mpi_allreduce_sum(void *buf, int64_t count, tb_kind_t kind)
{
  MPI_Datatype t = kind == TB_KIND_I32 ? MPI_INT32_T : kind == TB_KIND_F32 ? MPI_FLOAT : MPI_DOUBLE;
  if (!tb_mpi.active)
    return TB_OK;
  if (count > INT_MAX)
    return tb_fail(TB_EUNSUP, "an all-reduce of %lld elements is more than MPI counts",
                   (long long)count);
  const double t0 = MPI_Wtime();
  MPI_Allreduce(MPI_IN_PLACE, buf, (int)count, t, MPI_SUM, MPI_COMM_WORLD);
  tb_mpi.comm_s += MPI_Wtime() - t0;
  return TB_OK;
}

int tb_mpi_allgather_bytes(void *buf, int64_t n, int64_t bytes)
{
  MPI_Datatype item;
  int *count, *displ, rc = TB_OK;
  if (!tb_mpi.active)
    return TB_OK;
  if (n > INT_MAX || bytes > INT_MAX)
    return tb_fail(TB_EUNSUP, "a gather of %lld items of %lld bytes is more than MPI counts",
                   (long long)n, (long long)bytes);
  count = malloc(2 * (size_t)tb_mpi.size * sizeof *count);
  if (!count)
    return tb_fail(TB_ENOMEM, "out of memory");
  displ = count + tb_mpi.size;
  for (int r = 0; r < tb_mpi.size; r++) {
    int64_t lo, hi;
    tb_mpi_share(n, r, &lo, &hi);
    count[r] = (int)(hi - lo);
    displ[r] = (int)lo;
  }
  const double t0 = MPI_Wtime();
  MPI_Type_contiguous((int)bytes, MPI_BYTE, &item);
  MPI_Type_commit(&item);
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, count, displ, item, MPI_COMM_WORLD);
  MPI_Type_free(&item);
  tb_mpi.comm_s += MPI_Wtime() - t0;
  free(count);
  return rc;
}

int tb_mpi_alltoall(const void *send, void *recv, int64_t count, int64_t bytes)
{
  MPI_Datatype item;
  if (!tb_mpi.active) {
    memcpy(recv, send, (size_t)(count * bytes));
    return TB_OK;
  }
  if (count > INT_MAX || bytes > INT_MAX)
    return tb_fail(TB_EUNSUP, "an all-to-all of %lld items of %lld bytes is more than MPI counts",
                   (long long)count, (long long)bytes);
  const double t0 = MPI_Wtime();
  MPI_Type_contiguous((int)bytes, MPI_BYTE, &item);
  MPI_Type_commit(&item);
  MPI_Alltoall(send, (int)count, item, recv, (int)count, item, MPI_COMM_WORLD);
  MPI_Type_free(&item);
  tb_mpi.comm_s += MPI_Wtime() - t0;
  return TB_OK;
}

/* ---- The Cartesian process grid and its halo exchange ------------------ */

void tb_mpi_cart_dims(int ranks, int dims[3])
{
  int d[3] = {0, 0, 0};
  dims[0] = dims[1] = 1;
  dims[2] = ranks;
  if (!tb_mpi.active || ranks <= 1)
    return;
  /* MPI_Dims_create orders its dimensions non-increasing; z takes the
   * first (the most ranks), since a z face is the plane the layout keeps
   * whole rows of. */
  MPI_Dims_create(ranks, 3, d);
  dims[0] = d[2];
  dims[1] = d[1];
  dims[2] = d[0];
}

static MPI_Comm tb_mpi_cart_comm(const tb_mpi_cart_t *c)
{
  MPI_Comm comm;
  memcpy(&comm, &c->comm, sizeof comm);
  return comm;
}

int tb_mpi_cart_create(const int dims[3], tb_mpi_cart_t *c)
{
  const int periods[3] = {0, 0, 0};
  MPI_Comm comm = MPI_COMM_NULL;
  memset(c, 0, sizeof *c);
  for (int a = 0; a < 3; a++) {
    c->dims[a] = dims[a];
    c->nbr[a][0] = c->nbr[a][1] = -1;
  }
  memcpy(&c->comm, &comm, sizeof comm);
  if (!tb_mpi.active)
    return TB_OK;
  if ((int64_t)dims[0] * dims[1] * dims[2] != tb_mpi.size)
    return tb_fail(TB_EINVAL, "a process grid %dx%dx%d for %d ranks", dims[0], dims[1], dims[2],
                   tb_mpi.size);
  /* No reordering: a rank keeps its world rank, so the grid's numbering
   * (z fastest) is the one tb_mpi_cart_coords reports for any rank. */
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &comm);
  memcpy(&c->comm, &comm, sizeof comm);
  MPI_Cart_coords(comm, tb_mpi.rank, 3, c->coords);
  for (int a = 0; a < 3; a++) {
    int lo, hi;
    MPI_Cart_shift(comm, a, 1, &lo, &hi);
    c->nbr[a][0] = lo == MPI_PROC_NULL ? -1 : lo;
    c->nbr[a][1] = hi == MPI_PROC_NULL ? -1 : hi;
  }
  return TB_OK;
}

void tb_mpi_cart_free(tb_mpi_cart_t *c)
{
  MPI_Comm comm = tb_mpi_cart_comm(c);
  if (comm != MPI_COMM_NULL)
    MPI_Comm_free(&comm);
  memcpy(&c->comm, &comm, sizeof comm);
}

void tb_mpi_cart_coords(const tb_mpi_cart_t *c, int r, int coords[3])
{
  MPI_Comm comm = tb_mpi_cart_comm(c);
  coords[0] = coords[1] = coords[2] = 0;
  if (comm != MPI_COMM_NULL)
    MPI_Cart_coords(comm, r, 3, coords);
}

int tb_mpi_halo_start(const tb_mpi_cart_t *c, tb_mpi_halo_t *h, void *const send[6],
                      void *const recv[6], const int64_t bytes[6])
{
  MPI_Request req[12];
  MPI_Comm comm = tb_mpi_cart_comm(c);
  h->n = 0;
  if (comm == MPI_COMM_NULL)
    return TB_OK;
  for (int d = 0; d < 6; d++)
    if (bytes[d] > INT_MAX)
      return tb_fail(TB_EUNSUP, "a halo face of %lld bytes is more than MPI counts",
                     (long long)bytes[d]);
  const double t0 = MPI_Wtime();
  for (int d = 0; d < 6; d++) {
    const int a = d / 2, up = d % 2, peer = c->nbr[a][up];
    if (peer < 0 || !bytes[d])
      continue;
    /* What travels up (to the neighbour above) is tagged 2 a + 1: sent
     * above with that tag, received from below with it; downwards 2 a. */
    MPI_Irecv(recv[d], (int)bytes[d], MPI_BYTE, peer, 2 * a + !up, comm, &req[h->n++]);
    MPI_Isend(send[d], (int)bytes[d], MPI_BYTE, peer, 2 * a + up, comm, &req[h->n++]);
  }
  for (int i = 0; i < h->n; i++)
    memcpy(h->req[i], &req[i], sizeof req[i]);
  tb_mpi.comm_s += MPI_Wtime() - t0;
  return TB_OK;
}

int tb_mpi_halo_wait(tb_mpi_halo_t *h)
{
  MPI_Request req[12];
  if (!h->n)
    return TB_OK;
  for (int i = 0; i < h->n; i++)
    memcpy(&req[i], h->req[i], sizeof req[i]);
  const double t0 = MPI_Wtime();
  MPI_Waitall(h->n, req, MPI_STATUSES_IGNORE);
  tb_mpi.comm_s += MPI_Wtime() - t0;
  h->n = 0;
  return TB_OK;
}

int tb_mpi_allgatherv(const void *mine, int64_t count, void *all, int64_t elem)
{
  MPI_Datatype item;
  int64_t *counts;
  int *cnt, *displ;
  if (!tb_mpi.active) {
    memmove(all, mine, (size_t)(count * elem));
    return TB_OK;
  }
  if (elem > INT_MAX)
    return tb_fail(TB_EUNSUP, "a gather of %lld-byte elements is more than MPI counts",
                   (long long)elem);
  if (!(counts = malloc((size_t)tb_mpi.size * (sizeof *counts + 2 * sizeof *cnt))))
    return tb_fail(TB_ENOMEM, "out of memory");
  cnt = (int *)(counts + tb_mpi.size);
  displ = cnt + tb_mpi.size;
  const double t0 = MPI_Wtime();
  MPI_Allgather(&count, 1, MPI_INT64_T, counts, 1, MPI_INT64_T, MPI_COMM_WORLD);
  int64_t at = 0;
  for (int r = 0; r < tb_mpi.size; r++) {
    cnt[r] = (int)counts[r];
    displ[r] = (int)at;
    at += counts[r];
    if (counts[r] > INT_MAX || at > INT_MAX) {
      free(counts);
      return tb_fail(TB_EUNSUP, "a gather of %lld elements is more than MPI counts",
                     (long long)at);
    }
  }
  MPI_Type_contiguous((int)elem, MPI_BYTE, &item);
  MPI_Type_commit(&item);
  MPI_Allgatherv(mine, (int)count, item, all, cnt, displ, item, MPI_COMM_WORLD);
  MPI_Type_free(&item);
  tb_mpi.comm_s += MPI_Wtime() - t0;
  free(counts);
  return TB_OK;
}

int tb_mpi_cuda_aware(void)
{
  const char *force = getenv("TB_MPI_CUDA_AWARE");
  if (!tb_mpi.active)
    return 0;
  /* TB_MPI_CUDA_AWARE=0 forces host staging, to compare the two paths. */
  if (force && !strcmp(force, "0"))
    return 0;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support();
#else
  return 0;
#endif
}

int tb_mpi_fault_point(void)
{
  const char *f = getenv("TB_MPI_FAULT");
  char *end;
  if (!tb_mpi.active || tb_mpi.fault || !f)
    return TB_OK;
  tb_mpi.fault = 1;
  long r = strtol(f, &end, 10);
  if (end == f || *end != ':' || r != tb_mpi.rank)
    return TB_OK;
  if (!strcmp(end + 1, "die"))
    raise(SIGKILL);
  return tb_fail(TB_EIO, "TB_MPI_FAULT: rank %d fails on purpose", tb_mpi.rank);
}
