/* What every part of the command line uses: its clock, its error messages, a string test, sparse arrays. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "group.h"

/* Seconds on a monotonic clock. */
double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A failed call's message on stderr (with the rank on several processes); returns 1. */
int fail(const char* what, facto_status status, const char* message)
{
    if (group_size() > 1) fprintf(stderr, "facto[rank %lld]: ", (long long)group_rank());
    else fprintf(stderr, "facto: ");
    fprintf(stderr, "%s: %s (%s)\n", what, message, facto_status_string(status));
    return 1;
}

const char* const search_names[3] = {"exact", "hnsw", "auto"};

/* Whether s ends with suffix. */
int ends_with(const char* s, const char* suffix)
{
    const size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

void free_csr(csr_arrays* a)
{
    free(a->indptr), free(a->indices), free(a->values);
    a->indptr = a->indices = NULL, a->values = NULL;
}

int copy_csr(const facto_sparse* M, csr_arrays* a)
{
    facto_sparse_shape(M, &a->rows, &a->cols, &a->nnz);
    a->indptr = malloc((size_t)(a->rows + 1) * sizeof *a->indptr);
    a->indices = malloc((size_t)(a->nnz > 0 ? a->nnz : 1) * sizeof *a->indices);
    a->values = malloc((size_t)(a->nnz > 0 ? a->nnz : 1) * sizeof *a->values);
    if (a->indptr && a->indices && a->values) return facto_sparse_copy_csr(M, a->indptr, a->indices, a->values) >= 0;
    free_csr(a);
    fail("sparse matrix", FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
    return 0;
}

int read_csr(const char* path, csr_arrays* a)
{
    facto_sparse* M = NULL;
    const facto_status st = facto_sparse_read(path, &M);
    if (st < 0) return fail(path, st, facto_last_error()), 0;
    const int copied = copy_csr(M, a);
    facto_sparse_free(M);
    return copied;
}
