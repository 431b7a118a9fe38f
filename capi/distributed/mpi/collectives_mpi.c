/* facto_collectives_new_mpi: a communicator's collectives (MPI_Allreduce, MPI_Allgatherv) as the host
 * operations of facto_experimental.h; libfacto_mpi, the only part of facto that includes mpi.h. */
#include "facto/facto_mpi.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

/* The duplicate communicator and the int counts and displacements MPI_Allgatherv and MPI_Alltoallv take
 * (one per process each: counts and displacements, then those of the other side of an all-to-all). */
typedef struct mpi_group {
    MPI_Comm comm;
    int* counts;
    int* displacements;
    int* other_counts;
    int* other_displacements;
} mpi_group;

/* counts (int64) as MPI's int counts and displacements; 0 when a count or offset exceeds INT_MAX. */
static int int_counts(const int64_t* counts, int64_t processes, int* out, int* displacements)
{
    int64_t offset = 0;
    for (int64_t p = 0; p < processes; ++p) {
        if (counts[p] > INT_MAX || offset > INT_MAX) return 0;
        out[p] = (int)counts[p];
        displacements[p] = (int)offset;
        offset += counts[p];
    }
    return 1;
}

/* 0 after MPI_SUCCESS; otherwise MPI's message, through facto_set_last_error, and 1. */
static int32_t mpi_status(int code, const char* call)
{
    if (code == MPI_SUCCESS) return 0;
    char text[MPI_MAX_ERROR_STRING + 64], reason[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, reason, &length) != MPI_SUCCESS) snprintf(reason, sizeof reason, "error %d", code);
    snprintf(text, sizeof text, "%s: %s", call, reason);
    facto_set_last_error(FACTO_ERROR_IO, text);
    return 1;
}

static int32_t mpi_sum(void* user_data, double* values, int64_t count)
{
    const mpi_group* g = (const mpi_group*)user_data;
    if (count > INT_MAX) return facto_set_last_error(FACTO_ERROR_IO, "a sum of more than INT_MAX values"), 1;
    return mpi_status(MPI_Allreduce(MPI_IN_PLACE, values, (int)count, MPI_DOUBLE, MPI_SUM, g->comm), "MPI_Allreduce");
}

static int32_t mpi_max(void* user_data, int64_t* values, int64_t count)
{
    const mpi_group* g = (const mpi_group*)user_data;
    if (count > INT_MAX) return facto_set_last_error(FACTO_ERROR_IO, "a maximum of more than INT_MAX values"), 1;
    return mpi_status(MPI_Allreduce(MPI_IN_PLACE, values, (int)count, MPI_INT64_T, MPI_MAX, g->comm), "MPI_Allreduce");
}

static int32_t mpi_allgather(void* user_data, const double* mine, double* all, const int64_t* counts,
                             int64_t processes)
{
    const mpi_group* g = (const mpi_group*)user_data;
    int rank = 0;
    MPI_Comm_rank(g->comm, &rank);
    if (!int_counts(counts, processes, g->counts, g->displacements))
        return facto_set_last_error(FACTO_ERROR_IO, "an all-gather beyond INT_MAX values (MPI's int counts)"), 1;
    return mpi_status(MPI_Allgatherv(mine, g->counts[rank], MPI_DOUBLE, all, g->counts, g->displacements, MPI_DOUBLE,
                                     g->comm),
                      "MPI_Allgatherv");
}

static int32_t mpi_exchange(void* user_data, const double* send, const int64_t* send_counts, double* receive,
                            const int64_t* receive_counts, int64_t processes)
{
    const mpi_group* g = (const mpi_group*)user_data;
    /* the counts differ between processes: all refuse together, or the others would wait in the call */
    int fits = int_counts(send_counts, processes, g->counts, g->displacements) &&
               int_counts(receive_counts, processes, g->other_counts, g->other_displacements);
    const int agreed = MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_LAND, g->comm);
    if (agreed != MPI_SUCCESS) return mpi_status(agreed, "MPI_Allreduce");
    if (!fits)
        return facto_set_last_error(FACTO_ERROR_IO, "an all-to-all of more than INT_MAX values on some process (MPI's "
                                                    "int counts)"),
               1;
    return mpi_status(MPI_Alltoallv(send, g->counts, g->displacements, MPI_DOUBLE, receive, g->other_counts,
                                    g->other_displacements, MPI_DOUBLE, g->comm),
                      "MPI_Alltoallv");
}

/* Frees the duplicate unless MPI is already finalized (then it is gone with MPI). */
static void mpi_group_free(void* user_data)
{
    mpi_group* g = (mpi_group*)user_data;
    int finalized = 1;
    MPI_Finalized(&finalized);
    if (!finalized && g->comm != MPI_COMM_NULL) MPI_Comm_free(&g->comm);
    free(g->counts);
    free(g->displacements);
    free(g->other_counts);
    free(g->other_displacements);
    free(g);
}

facto_status facto_collectives_new_mpi(int64_t fortran_comm, facto_collectives** out)
{
    if (!out) return facto_set_last_error(FACTO_ERROR_NULL_POINTER, "out is NULL");
    *out = NULL;
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized)
        return facto_set_last_error(FACTO_ERROR_INVALID_ARGUMENT,
                                    finalized ? "MPI is already finalized" : "MPI is not initialized (call MPI_Init first)");
    const MPI_Comm comm = fortran_comm < INT_MIN || fortran_comm > INT_MAX ? MPI_COMM_NULL
                                                                           : MPI_Comm_f2c((MPI_Fint)fortran_comm);
    if (comm == MPI_COMM_NULL)
        return facto_set_last_error(FACTO_ERROR_INVALID_ARGUMENT,
                                    "fortran_comm is not a communicator's handle (give MPI_Comm_c2f(comm))");
    mpi_group* g = (mpi_group*)calloc(1, sizeof *g);
    if (!g) return facto_set_last_error(FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
    g->comm = MPI_COMM_NULL;
    int rank = 0, size = 0;
    if (mpi_status(MPI_Comm_dup(comm, &g->comm), "MPI_Comm_dup") != 0) {
        mpi_group_free(g);
        return FACTO_ERROR_IO;
    }
    MPI_Comm_rank(g->comm, &rank);
    MPI_Comm_size(g->comm, &size);
    g->counts = (int*)malloc(sizeof(int) * (size_t)size);
    g->displacements = (int*)malloc(sizeof(int) * (size_t)size);
    g->other_counts = (int*)malloc(sizeof(int) * (size_t)size);
    g->other_displacements = (int*)malloc(sizeof(int) * (size_t)size);
    if (!g->counts || !g->displacements || !g->other_counts || !g->other_displacements) {
        mpi_group_free(g);
        return facto_set_last_error(FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    const facto_status st = facto_collectives_new(rank, size, mpi_sum, mpi_max, mpi_allgather, mpi_exchange, g,
                                                mpi_group_free, out);
    if (st != FACTO_OK) mpi_group_free(g);
    return st;
}
