/* The CLI on one process: the whole problem here, nothing to gather. */
#include "group.h"

#include "cli.h"

#include <string.h>

int group_start(int* argc, char*** argv)
{
    (void)argc, (void)argv;
    return 1;
}

void group_end(int status) { (void)status; }

int64_t group_rank(void) { return 0; }

int64_t group_size(void) { return 1; }

facto_status group_symnmf(int64_t rows, int64_t cols, const int64_t* indptr, const int64_t* indices, const double* values,
                          int64_t r, facto_problem** out)
{
    return facto_problem_new_symnmf_sparse(FACTO_SPARSE_CSR, rows, cols, indptr[rows], indptr, indices, values, r, out);
}

int group_distributed(void) { return 0; }

facto_status group_nomad_points(const double* X, int64_t n, int64_t d, int64_t K, facto_problem** out)
{
    return facto_problem_new_nomad_points(X, n, d, d, FACTO_ROW_MAJOR, K, out);
}

facto_status group_self_dictionary(const double* X, int64_t M, int64_t N, int64_t K, const options* o,
                                   facto_problem** out)
{
    return facto_problem_new_self_dictionary_named(X, M, N, M, FACTO_COL_MAJOR, K, o->n_params, o->param_names,
                                                   o->param_values, out);
}

int64_t group_sum(int64_t value) { return value; }

int group_gather_rows(const double* mine, int64_t rows, int64_t cols, double* all)
{
    if (!all || (!mine && rows * cols > 0)) return 0;
    memcpy(all, mine, (size_t)(rows * cols) * sizeof *all);
    return 1;
}
