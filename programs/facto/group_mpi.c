/* The CLI on the ranks of an MPI job (facto-mpi): each rank reads the same input, keeps its block of rows
 * of M, and the distributed solver runs on MPI_COMM_WORLD through libfacto_mpi; rank 0 writes the results. */
#include "group.h"

#include "cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <facto/facto_mpi.h>
#include <mpi.h>

int group_start(int* argc, char*** argv) { return MPI_Init(argc, argv) == MPI_SUCCESS; }

void group_end(int status)
{
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (status != 0 && size > 1) MPI_Abort(MPI_COMM_WORLD, status);
    MPI_Finalize();
}

int group_distributed(void) { return 1; }

int64_t group_rank(void)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

int64_t group_size(void)
{
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

/* The first row of rank p's block. */
static int64_t block_start(int64_t n, int64_t p) { return p * n / group_size(); }

facto_status group_symnmf(int64_t n, int64_t cols, const int64_t* indptr, const int64_t* indices, const double* values,
                          int64_t r, facto_problem** out)
{
    *out = NULL;
    if (cols != n) {
        char message[96];
        snprintf(message, sizeof message, "M must be square and non-empty, got %lld x %lld", (long long)n, (long long)cols);
        return facto_set_last_error(FACTO_ERROR_DIMENSION, message);
    }
    facto_collectives* c = NULL;
    facto_status st = facto_collectives_new_mpi(MPI_Comm_c2f(MPI_COMM_WORLD), &c);
    if (st < 0) return st;
    const int64_t first = block_start(n, group_rank()), last = block_start(n, group_rank() + 1);
    int64_t* ptr = malloc((size_t)(last - first + 1) * sizeof *ptr);
    if (!ptr) {
        facto_collectives_free(c);
        return facto_set_last_error(FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (int64_t i = first; i <= last; ++i) ptr[i - first] = indptr[i] - indptr[first];
    st = facto_problem_new_symnmf_distributed(c, n, first, FACTO_SPARSE_CSR, last - first, indptr[last] - indptr[first],
                                              ptr, indices + indptr[first], values + indptr[first], r, out);
    free(ptr);
    facto_collectives_free(c);
    return st;
}

facto_status group_nomad_points(const double* X, int64_t n, int64_t d, int64_t K, facto_problem** out)
{
    *out = NULL;
    facto_collectives* c = NULL;
    facto_status st = facto_collectives_new_mpi(MPI_Comm_c2f(MPI_COMM_WORLD), &c);
    if (st < 0) return st;
    const int64_t first = block_start(n, group_rank()), last = block_start(n, group_rank() + 1);
    st = facto_problem_new_nomad_distributed(c, n, first, X + first * d, last - first, d, d, FACTO_ROW_MAJOR, K, out);
    facto_collectives_free(c);
    return st;
}

facto_status group_self_dictionary(const double* X, int64_t M, int64_t N, int64_t K, const options* o,
                                   facto_problem** out)
{
    *out = NULL;
    facto_collectives* c = NULL;
    facto_status st = facto_collectives_new_mpi(MPI_Comm_c2f(MPI_COMM_WORLD), &c);
    if (st < 0) return st;
    const int64_t first = block_start(N, group_rank()), last = block_start(N, group_rank() + 1);
    st = facto_problem_new_self_dictionary_distributed(c, N, first, X + first * M, M, last - first, M, FACTO_COL_MAJOR,
                                                       K, problem_param(o, "distributed_self_dictionary", "lambda"),
                                                       problem_param(o, "distributed_self_dictionary", "mu"), out);
    facto_collectives_free(c);
    return st;
}

int64_t group_sum(int64_t value)
{
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    return value;
}

int group_gather_rows(const double* mine, int64_t rows, int64_t cols, double* all)
{
    const int size = (int)group_size();
    int* counts = malloc((size_t)size * sizeof *counts);
    int* offsets = malloc((size_t)size * sizeof *offsets);
    int64_t count = rows * cols;
    int ok = counts && offsets && count <= INT_MAX && (mine || count == 0) && (all || group_rank() != 0);
    int64_t all_ok = ok;
    MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    if (all_ok) {
        int mine_count = (int)count;
        MPI_Gather(&mine_count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
        int64_t offset = 0;
        for (int p = 0; group_rank() == 0 && p < size; ++p) offsets[p] = (int)offset, offset += counts[p];
        all_ok = offset <= INT_MAX;
        MPI_Bcast(&all_ok, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
        if (all_ok)
            MPI_Gatherv(mine, mine_count, MPI_DOUBLE, all, counts, offsets, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    if (!all_ok && group_rank() == 0) fprintf(stderr, "facto: gathering the results failed (memory or MPI's int counts)\n");
    free(counts);
    free(offsets);
    return (int)all_ok;
}
