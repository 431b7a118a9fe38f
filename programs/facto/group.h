/* The processes the CLI runs on: one (facto, group_single.c) or the ranks of an MPI job (facto-mpi under
 * mpirun, group_mpi.c). The rest of programs/facto/ is the same program for both; only these calls differ. */
#pragma once

#include <facto/facto_experimental.h>

/* Starts and ends the group (MPI_Init / MPI_Finalize); group_start returns 0 on failure. A process that
 * ends with a nonzero status ends the whole job (MPI_Abort): the others may be waiting in a collective. */
int group_start(int* argc, char*** argv);
void group_end(int status);
/* 1 when the problems are distributed ones (facto-mpi, even on one rank), 0 for facto. */
int group_distributed(void);
/* This process's rank and the number of processes. */
int64_t group_rank(void);
int64_t group_size(void);

/* SymNMF of the whole rows x cols M given in CSR (every process holds it): one process's sparse problem,
 * or this rank's rows (the rows split evenly in rank order) as a distributed problem. */
facto_status group_symnmf(int64_t rows, int64_t cols, const int64_t* indptr, const int64_t* indices, const double* values, int64_t r,
                          facto_problem** out);

/* NOMAD on the n points X (n x d, row-major; every process holds them all): one process's problem, or
 * this rank's points (split evenly in rank order) as a distributed problem. */
facto_status group_nomad_points(const double* X, int64_t n, int64_t d, int64_t K, facto_problem** out);

/* The self-dictionary problem on the M x N data X (column-major, one point per column; every process
 * holds it all) with the problem parameters o gives (the library's defaults for the rest): one process's
 * problem, or this rank's columns (split evenly in rank order) as a distributed problem. */
struct options;
facto_status group_self_dictionary(const double* X, int64_t M, int64_t N, int64_t K, const struct options* o,
                                   facto_problem** out);

/* The sum of `value` over the processes, on every process. */
int64_t group_sum(int64_t value);

/* Gathers the processes' row blocks (row-major, `cols` values per row, `rows` rows here, in `mine`) into
 * `all` on rank 0 (untouched elsewhere); 0 on every process when any lacks its buffer (NULL) or the
 * counts exceed MPI's. */
int group_gather_rows(const double* mine, int64_t rows, int64_t cols, double* all);
