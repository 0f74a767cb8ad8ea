/* twinbench: the MPI layer of a build without MPI: one rank on one node.
 * A launcher that starts several copies of such a build is refused, since
 * each copy would run the whole sweep on its own and print its own report. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "tbmpi.h"

int tb_mpi_built(void)
{
  return 0;
}

int tb_mpi_init(void)
{
  const char *size = getenv("OMPI_COMM_WORLD_SIZE");
  if (!size)
    size = getenv("PMI_SIZE");
  if (tb_mpi_launched() && size && atoi(size) > 1)
    return tb_fail(TB_EUNSUP, "started by an MPI launcher with %d ranks, but twinbench was built "
                              "without MPI (configure --with-mpi)",
                   atoi(size));
  return TB_OK;
}

void tb_mpi_finalize(void) {}

int tb_mpi_active(void)
{
  return 0;
}

int tb_mpi_rank(void)
{
  return 0;
}

int tb_mpi_size(void)
{
  return 1;
}

int tb_mpi_local_rank(void)
{
  return 0;
}

int tb_mpi_local_size(void)
{
  return 1;
}

int tb_mpi_nodes(void)
{
  return 1;
}

void tb_mpi_local_peers(uint64_t key, int *index, int *count)
{
  (void)key;
  *index = 0;
  *count = 1;
}

void tb_mpi_abort(int status)
{
  (void)status;
}

void tb_mpi_barrier(void) {}

double tb_mpi_max(double x)
{
  return x;
}

double tb_mpi_min(double x)
{
  return x;
}

double tb_mpi_sum(double x)
{
  return x;
}

void tb_mpi_comm_reset(void) {}

double tb_mpi_comm_ms(void)
{
  return 0.0;
}

void tb_mpi_comm_add(double seconds)
{
  (void)seconds;
}

int tb_mpi_bcast(void *buf, int64_t bytes, int root)
{
  (void)buf;
  (void)bytes;
  (void)root;
  return TB_OK;
}

int tb_mpi_allreduce_sum(void *buf, int64_t count, tb_kind_t kind)
{
  (void)buf;
  (void)count;
  (void)kind;
  return TB_OK;
}

int tb_mpi_allgather_bytes(void *buf, int64_t n, int64_t bytes)
{
  (void)buf;
  (void)n;
  (void)bytes;
  return TB_OK;
}

/* With one rank the one block goes to itself. */
int tb_mpi_alltoall(const void *send, void *recv, int64_t count, int64_t bytes)
{
  memcpy(recv, send, (size_t)(count * bytes));
  return TB_OK;
}

/* With one rank the grid is 1 x 1 x 1 and has no neighbour: nothing
 * travels. */
void tb_mpi_cart_dims(int ranks, int dims[3])
{
  dims[0] = dims[1] = 1;
  dims[2] = ranks;
}

int tb_mpi_cart_create(const int dims[3], tb_mpi_cart_t *c)
{
  memset(c, 0, sizeof *c);
  for (int a = 0; a < 3; a++) {
    c->dims[a] = dims[a];
    c->nbr[a][0] = c->nbr[a][1] = -1;
  }
  return TB_OK;
}

void tb_mpi_cart_free(tb_mpi_cart_t *c)
{
  (void)c;
}

void tb_mpi_cart_coords(const tb_mpi_cart_t *c, int r, int coords[3])
{
  (void)c;
  (void)r;
  coords[0] = coords[1] = coords[2] = 0;
}

int tb_mpi_halo_start(const tb_mpi_cart_t *c, tb_mpi_halo_t *h, void *const send[6],
                      void *const recv[6], const int64_t bytes[6])
{
  (void)c;
  (void)send;
  (void)recv;
  (void)bytes;
  h->n = 0;
  return TB_OK;
}

int tb_mpi_halo_wait(tb_mpi_halo_t *h)
{
  (void)h;
  return TB_OK;
}

int tb_mpi_allgatherv(const void *mine, int64_t count, void *all, int64_t elem)
{
  memmove(all, mine, (size_t)(count * elem));
  return TB_OK;
}

int tb_mpi_cuda_aware(void)
{
  return 0;
}

int tb_mpi_fault_point(void)
{
  return TB_OK;
}
