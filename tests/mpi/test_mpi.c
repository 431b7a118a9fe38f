/* The distributed SymNMF solvers, NOMAD's burer_monteiro and MERIT on MPI ranks through libfacto_mpi
 * (CTest runs this under mpirun -np 1, 2 and 4): every rank's block of the iterate (of the factor, of C's
 * columns) equals the single-process solver's to 1e-12, with the same objective and steps (the same
 * labels, the same anchors); a callback stopping on rank 0 stops every rank at the
 * same step; a bad block on the last rank fails the construction on every rank. Each rank prints
 * "N passed, M failed"; the exit code is nonzero on every rank when any rank failed. */
#include <facto/facto_mpi.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "../capi/check.h"

#define N 60
#define R 3

static int rank = 0, size = 1;

/* The first row of process p's block: the rows split as evenly as they go. */
static int64_t block_start(int64_t p) { return p * N / size; }

/* A symmetric sparse M with a random pattern (the same on every rank: a fixed linear congruential
 * generator), in CSR: three groups of dense-ish rows plus noise, so that the factorization has structure. */
static int64_t make_graph(int64_t* ptr, int64_t* idx, double* values)
{
    double M[N][N];
    uint64_t state = 12345;
    memset(M, 0, sizeof M);
    for (int i = 0; i < N; ++i)
        for (int j = 0; j <= i; ++j) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            const double u = (double)(state >> 11) / 9007199254740992.0;
            const double p = (i % R == j % R) ? 0.5 : 0.05;
            if (u < p) M[i][j] = M[j][i] = 0.5 + u;
        }
    int64_t nnz = 0;
    for (int i = 0; i < N; ++i) {
        ptr[i] = nnz;
        for (int j = 0; j < N; ++j)
            if (M[i][j] != 0.0) idx[nnz] = j, values[nnz++] = M[i][j];
    }
    ptr[N] = nnz;
    return nnz;
}

static int64_t ptr[N + 1], idx[N * N];
static double values[N * N];

/* This rank's block of M as a distributed problem (CSR rows first .. last - 1, offsets from 0). */
static facto_status block_problem(facto_collectives* c, facto_problem** out)
{
    const int64_t first = block_start(rank), last = block_start(rank + 1);
    int64_t block_ptr[N + 1];
    for (int64_t i = first; i <= last; ++i) block_ptr[i - first] = ptr[i] - ptr[first];
    return facto_problem_new_symnmf_distributed(c, N, first, FACTO_SPARSE_CSR, last - first, ptr[last] - ptr[first],
                                                block_ptr, idx + ptr[first], values + ptr[first], R, out);
}

static void configure(facto_solver* s, int64_t iterations)
{
    facto_solver_set_int(s, "max_iterations", iterations);
    facto_solver_set_double(s, "tolerance", 0.0);
    facto_solver_set_double(s, "objective_tolerance", 0.0);
}

/* The start every run takes: X0 > 0, the same on every rank. */
static void start_point(double* X)
{
    for (int i = 0; i < N * R; ++i) X[i] = 0.05 + 0.2 * fabs(sin(1.7 * i));
}

/* Both solvers on the blocks against one process holding all of M (every rank computes that one). */
static void test_agreement(facto_collectives* c, const char* algorithm)
{
    /* 30 iterations: NoLips is then at a stationarity of about 1e-5. Near 1e-8 its line search compares
     * objectives that differ in the last bits, where the order of the sums decides (a few steps later
     * the runs differ by 1e-8): agreement to 1e-12 is what holds while the decisions are not ties. */
    const int64_t first = block_start(rank), rows = block_start(rank + 1) - first, iterations = 30;
    facto_problem *whole = NULL, *block = NULL;
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_CSR, N, N, ptr[N], ptr, idx, values, R, &whole),
                 FACTO_OK, facto_last_error());
    CHECK_STATUS(block_problem(c, &block), FACTO_OK, facto_last_error());
    facto_solver *single = NULL, *mine = NULL;
    facto_solver_new(whole, algorithm, &single);
    CHECK_STATUS(facto_solver_new(block, algorithm, &mine), FACTO_OK, facto_last_error());
    configure(single, iterations);
    configure(mine, iterations);
    if (strcmp(algorithm, "nolips") == 0) facto_solver_set_int(single, "reuse_products", 0); /* as on blocks */
    double X0[N * R];
    start_point(X0);
    CHECK_STATUS(facto_solver_set_iterate(single, X0, N, R, R, FACTO_ROW_MAJOR), FACTO_OK, facto_solver_last_error(single));
    CHECK_STATUS(facto_solver_set_iterate(mine, X0 + first * R, rows, R, R, FACTO_ROW_MAJOR), FACTO_OK,
                 facto_solver_last_error(mine));
    CHECK(facto_solver_solve(single) == FACTO_ITERATION_LIMIT);
    CHECK_STATUS(facto_solver_solve(mine), FACTO_ITERATION_LIMIT, facto_solver_last_error(mine));

    double X[N * R], Xb[N * R + 1], largest = 0.0, diff = 0.0;
    facto_solver_copy_iterate(single, X, N * R, FACTO_ROW_MAJOR);
    CHECK(facto_solver_copy_iterate(mine, Xb, rows * R + 1, FACTO_ROW_MAJOR) == FACTO_OK);
    for (int i = 0; i < N * R; ++i) largest = fmax(largest, fabs(X[i]));
    for (int64_t i = 0; i < rows * R; ++i) diff = fmax(diff, fabs(X[first * R + i] - Xb[i]));
    /* the same operations with the sums in another order: a few ulps per step, contracted by the method */
    CHECK(diff <= 1e-12 * largest);
    facto_progress a, b;
    a.struct_size = b.struct_size = sizeof a;
    facto_solver_progress(single, &a);
    facto_solver_progress(mine, &b);
    CHECK(fabs(a.objective - b.objective) <= 1e-12 * a.objective);
    CHECK(a.step_size == b.step_size); /* the same line searches */
    CHECK(a.iteration == b.iteration);
    if (diff > 1e-12 * largest) fprintf(stderr, "rank %d, %s: iterates differ by %.3g of %.3g\n", rank, algorithm, diff, largest);
    facto_solver_free(single);
    facto_solver_free(mine);
    facto_problem_free(whole);
    facto_problem_free(block);
}

/* Three noisy clusters of N points in the plane (the same on every rank: a fixed generator). */
static void make_points(double* X)
{
    uint64_t state = 777;
    for (int i = 0; i < N; ++i)
        for (int k = 0; k < 2; ++k) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            const double u = (double)(state >> 11) / 9007199254740992.0;
            X[2 * i + k] = (k == 0 ? cos(2.1 * (i % 3)) : sin(2.1 * (i % 3))) + 0.6 * (u - 0.5);
        }
}

/* burer_monteiro on this rank's points against one process holding all of them, over two short outer
 * iterations (SPG amplifies the sums' rounding over long inner solves; tests/core/test_distributed.cpp
 * says by how much). */
static void test_nomad_agreement(facto_collectives* c)
{
    const int64_t first = block_start(rank), rows = block_start(rank + 1) - first, K = 3;
    double X[2 * N];
    make_points(X);
    facto_problem *whole = NULL, *block = NULL;
    CHECK_STATUS(facto_problem_new_nomad_points(X, N, 2, 2, FACTO_ROW_MAJOR, K, &whole), FACTO_OK, facto_last_error());
    CHECK_STATUS(facto_problem_new_nomad_distributed(c, N, first, X + 2 * first, rows, 2, 2, FACTO_ROW_MAJOR, K, &block),
                 FACTO_OK, facto_last_error());
    facto_solver* solvers[2] = {NULL, NULL};
    facto_solver_new(whole, "burer_monteiro", &solvers[0]);
    CHECK_STATUS(facto_solver_new(block, "burer_monteiro", &solvers[1]), FACTO_OK, facto_last_error());
    for (int k = 0; k < 2; ++k) {
        facto_solver_set_int(solvers[k], "max_iterations", 2);
        facto_solver_set_string(solvers[k], "inner_method", "spg");
        facto_solver_set_int(solvers[k], "inner_iterations", 10);
        facto_solver_set_double(solvers[k], "tolerance", 3e-2);
        facto_solver_set_double(solvers[k], "feasibility_tolerance", 0.1);
    }
    const int32_t reason = facto_solver_solve(solvers[0]);
    CHECK_STATUS(facto_solver_solve(solvers[1]), reason, facto_solver_last_error(solvers[1]));
    int64_t shape[2][2];
    int32_t type;
    for (int k = 0; k < 2; ++k)
        CHECK(facto_solver_output_shape(solvers[k], "factor", &type, &shape[k][0], &shape[k][1]) == FACTO_OK);
    CHECK(shape[0][0] == N && shape[1][0] == rows && shape[0][1] == shape[1][1]);
    const int64_t r = shape[0][1];
    double* Y = malloc(sizeof(double) * (size_t)(N * r));
    double* Yb = malloc(sizeof(double) * (size_t)(N * r + 1));
    facto_solver_copy_output_double(solvers[0], "factor", Y, N * r, FACTO_ROW_MAJOR);
    CHECK(facto_solver_copy_output_double(solvers[1], "factor", Yb, rows * r + 1, FACTO_ROW_MAJOR) == FACTO_OK);
    double diff = 0.0; /* Y lies in the box [0, 1]: absolute */
    for (int64_t i = 0; i < rows * r; ++i) diff = fmax(diff, fabs(Y[first * r + i] - Yb[i]));
    CHECK(diff <= 1e-12);
    if (diff > 1e-12) fprintf(stderr, "rank %d, burer_monteiro: factors differ by %.3g\n", rank, diff);
    int64_t labels[N], labels_block[N + 1];
    facto_solver_copy_output_int64(solvers[0], "labels", labels, N, FACTO_ROW_MAJOR);
    CHECK(facto_solver_copy_output_int64(solvers[1], "labels", labels_block, rows + 1, FACTO_ROW_MAJOR) == FACTO_OK);
    int same = 1;
    for (int64_t i = 0; i < rows; ++i) same = same && labels[first + i] == labels_block[i];
    CHECK(same);
    facto_progress a, b;
    a.struct_size = b.struct_size = sizeof a;
    facto_solver_progress(solvers[0], &a);
    facto_solver_progress(solvers[1], &b);
    CHECK(fabs(a.objective - b.objective) <= 1e-12 * fabs(a.objective));
    CHECK(a.iteration == b.iteration);
    free(Y);
    free(Yb);
    for (int k = 0; k < 2; ++k) facto_solver_free(solvers[k]);
    facto_problem_free(whole);
    facto_problem_free(block);
}

/* MERIT (the paper's lambda heuristic) on this rank's columns of separable data against one process
 * holding all of them. */
static void test_merit_agreement(facto_collectives* c)
{
    enum { M = 12, K = 4 };
    const int64_t first = block_start(rank), cols = block_start(rank + 1) - first;
    double X[M * N];
    int64_t anchors[K];
    CHECK_STATUS(facto_separable_data(FACTO_SEPARABLE_DIRICHLET, M, N, K, 25.0, 3, X, M * N, FACTO_COL_MAJOR, anchors, K),
                 FACTO_OK, facto_last_error());
    facto_problem *whole = NULL, *block = NULL;
    CHECK_STATUS(facto_problem_new_self_dictionary(X, M, N, M, FACTO_COL_MAJOR, K, -1.0, 1e-5, &whole), FACTO_OK,
                 facto_last_error());
    CHECK_STATUS(facto_problem_new_self_dictionary_distributed(c, N, first, X + first * M, M, cols, M, FACTO_COL_MAJOR, K,
                                                               -1.0, 1e-5, &block),
                 FACTO_OK, facto_last_error());
    facto_solver* solvers[2] = {NULL, NULL};
    facto_solver_new(whole, "merit", &solvers[0]);
    CHECK_STATUS(facto_solver_new(block, "merit", &solvers[1]), FACTO_OK, facto_last_error());
    for (int k = 0; k < 2; ++k) configure(solvers[k], 40);
    CHECK(facto_solver_solve(solvers[0]) == FACTO_ITERATION_LIMIT);
    CHECK_STATUS(facto_solver_solve(solvers[1]), FACTO_ITERATION_LIMIT, facto_solver_last_error(solvers[1]));
    double* C = malloc(sizeof(double) * N * N);
    double* Cb = malloc(sizeof(double) * (size_t)(N * cols + 1));
    facto_solver_copy_iterate(solvers[0], C, N * N, FACTO_ROW_MAJOR);
    CHECK(facto_solver_copy_iterate(solvers[1], Cb, N * cols + 1, FACTO_ROW_MAJOR) == FACTO_OK);
    double diff = 0.0; /* C's columns lie on the simplex: absolute */
    for (int64_t i = 0; i < N; ++i)
        for (int64_t l = 0; l < cols; ++l) diff = fmax(diff, fabs(C[i * N + first + l] - Cb[i * cols + l]));
    CHECK(diff <= 1e-12);
    if (diff > 1e-12) fprintf(stderr, "rank %d, merit: C differs by %.3g\n", rank, diff);
    int64_t selected[2][K];
    for (int k = 0; k < 2; ++k)
        CHECK(facto_solver_copy_output_int64(solvers[k], "selected", selected[k], K, FACTO_ROW_MAJOR) == FACTO_OK);
    CHECK(memcmp(selected[0], selected[1], sizeof selected[0]) == 0);
    facto_progress a, b;
    a.struct_size = b.struct_size = sizeof a;
    facto_solver_progress(solvers[0], &a);
    facto_solver_progress(solvers[1], &b);
    CHECK(fabs(a.objective - b.objective) <= 1e-12 * fabs(a.objective));
    free(C);
    free(Cb);
    for (int k = 0; k < 2; ++k) facto_solver_free(solvers[k]);
    facto_problem_free(whole);
    facto_problem_free(block);
}

static int32_t stop_at_five(const facto_solver* s, const facto_progress* p, void* user_data)
{
    (void)s, (void)user_data;
    return p->iteration >= 5;
}

/* A callback on rank 0 alone stops every rank after the same iteration. */
static void test_stop_agreement(facto_collectives* c)
{
    facto_problem* block = NULL;
    CHECK_STATUS(block_problem(c, &block), FACTO_OK, facto_last_error());
    facto_solver* s = NULL;
    facto_solver_new(block, "nolips", &s);
    configure(s, 50);
    if (rank == 0) facto_solver_set_callback(s, stop_at_five, NULL, NULL);
    CHECK_STATUS(facto_solver_solve(s), FACTO_STOPPED_BY_CALLBACK, facto_solver_last_error(s));
    facto_progress p;
    p.struct_size = sizeof p;
    facto_solver_progress(s, &p);
    CHECK(p.iteration == 5);
    facto_solver_free(s);
    facto_problem_free(block);
}

/* A column index out of range on the last rank fails the construction on every rank. */
static void test_error_agreement(facto_collectives* c)
{
    const int64_t saved = idx[ptr[N] - 1];
    if (rank == size - 1) idx[ptr[N] - 1] = N;
    facto_problem* block = (facto_problem*)1;
    const facto_status st = block_problem(c, &block);
    CHECK(st < 0 && block == NULL && facto_last_error()[0] != '\0');
    CHECK(st == FACTO_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(facto_last_error(), rank == size - 1 ? "outside" : "another process") != NULL);
    idx[ptr[N] - 1] = saved;
}

static void test_adapter_errors(void)
{
    facto_collectives* c = (facto_collectives*)1;
    CHECK_STATUS(facto_collectives_new_mpi(MPI_Comm_c2f(MPI_COMM_WORLD), NULL), FACTO_ERROR_NULL_POINTER,
                 facto_last_error());
    CHECK_STATUS(facto_collectives_new_mpi((int64_t)1 << 40, &c), FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());
    CHECK(c == NULL);
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    make_graph(ptr, idx, values);
    facto_collectives* c = NULL;
    CHECK_STATUS(facto_collectives_new_mpi(MPI_Comm_c2f(MPI_COMM_WORLD), &c), FACTO_OK, facto_last_error());
    test_agreement(c, "nolips");
    test_agreement(c, "projected_gradient");
    test_nomad_agreement(c);
    test_merit_agreement(c);
    test_stop_agreement(c);
    test_error_agreement(c);
    test_adapter_errors();
    facto_collectives_free(c);
    printf("rank %d of %d: %d passed, %d failed\n", rank, size, passed, failed);
    int any_failed = failed != 0;
    MPI_Allreduce(MPI_IN_PLACE, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any_failed;
}
