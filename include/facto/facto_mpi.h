/*
 * facto_mpi.h -- facto's distributed problems over MPI (libfacto_mpi).
 *
 * libfacto_mpi is a separate small library, built when CMake finds an MPI (Open MPI, MPICH, ...): it
 * turns an MPI communicator into the collective operations of facto_experimental.h's distributed
 * problems. This header needs no mpi.h: the communicator crosses as its Fortran handle, the integer
 * MPI_Comm_c2f gives (MPI_Comm_f2c turns it back inside the library), which every MPI binding of every
 * language can produce. Link with -lfacto_mpi -lfacto and the MPI library the program uses (the one
 * libfacto_mpi was built against). Like facto_experimental.h, it carries no stability promise yet.
 *
 *     MPI_Init(&argc, &argv);
 *     facto_collectives* c = NULL;
 *     facto_collectives_new_mpi(MPI_Comm_c2f(MPI_COMM_WORLD), &c);
 *     facto_problem_new_symnmf_distributed(c, n, first_row, FACTO_SPARSE_CSR, rows, nnz, ptr, idx, v, r, &p);
 *     facto_collectives_free(c);
 *     ... solver calls, the same on every rank ...
 *     facto_solver_free(s); facto_problem_free(p);   (before MPI_Finalize)
 *     MPI_Finalize();
 */
#ifndef FACTO_FACTO_MPI_H
#define FACTO_FACTO_MPI_H

#include "facto_experimental.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over the communicator: the operations of a distributed problem on the communicator whose
 * Fortran handle is `fortran_comm` (MPI_Comm_c2f(comm)). Every process of the communicator calls it.
 * The rank and size are the communicator's; facto works on a duplicate of it (MPI_Comm_dup), so its
 * messages never meet the program's. sum is MPI_Allreduce (MPI_SUM on MPI_DOUBLE: MPI gives every
 * process identical results), max MPI_Allreduce (MPI_MAX on MPI_INT64_T), allgather MPI_Allgatherv,
 * exchange MPI_Alltoallv.
 * The duplicate is freed with the last problem built on the handle, which must happen before
 * MPI_Finalize. MPI errors go to the communicator's error handler (by default MPI aborts the job); an
 * MPI call that returns an error fails the facto call in progress with FACTO_ERROR_IO. An operation
 * whose values exceed INT_MAX (the most one MPI call counts: an all-gather's total, an all-to-all's total
 * on any process) fails the same way on every process. Like every call on a distributed problem, the
 * calls on one handle and what is built on it come from one thread at a time, in the same order on
 * every process. The argument errors below are this process's: give every process valid arguments (a
 * process that returns early leaves the others in MPI_Comm_dup).
 * Errors: NULL_POINTER (out), INVALID_ARGUMENT (MPI not initialized or already finalized, a handle
 * outside int or MPI_COMM_NULL's), OUT_OF_MEMORY, IO (MPI_Comm_dup failed). On error *out is NULL. */
FACTO_API facto_status facto_collectives_new_mpi(int64_t fortran_comm, facto_collectives** out);

#ifdef __cplusplus
}
#endif

#endif /* FACTO_FACTO_MPI_H */
