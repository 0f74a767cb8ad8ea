/* twinbench: the parts of the MPI layer that do not need MPI: whether a
 * launcher started the process, and the split of n items over the ranks. */
#include <config.h>

#include <stdlib.h>

#include "tbmpi.h"

/* The variables the launchers set in every process they start: Open MPI's
 * mpirun (OMPI_COMM_WORLD_SIZE), PMIx launchers such as Open MPI 5's prterun
 * and Slurm's srun --mpi=pmix (PMIX_RANK), and PMI-1/2 launchers such as
 * MPICH's Hydra and srun --mpi=pmi2 (PMI_SIZE). */
static const char *const tb_launch_vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"};

int tb_mpi_launched(void)
{
  for (int i = 0; i < (int)(sizeof tb_launch_vars / sizeof tb_launch_vars[0]); i++)
    if (getenv(tb_launch_vars[i]))
      return 1;
  return 0;
}

void tb_mpi_part(int64_t n, int parts, int index, int64_t *lo, int64_t *hi)
{
  const int64_t q = n / parts, r = n % parts;
  *lo = index * q + (index < r ? index : r);
  *hi = *lo + q + (index < r);
}

void tb_mpi_share(int64_t n, int rank, int64_t *lo, int64_t *hi)
{
  tb_mpi_part(n, tb_mpi_size(), rank, lo, hi);
}
