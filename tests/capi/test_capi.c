/* Tests of the C ABI as a C program sees it: every error path returns the right status with a message
 * and leaves the handles usable; callbacks; free order; thread rules. Prints "N passed, M failed". */
#include <facto/facto_experimental.h>

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

/* The versioned structs only grow at their end (their struct_size tells the library how much a caller
 * has): the fields of 0.1.0 keep their offsets. The ABI check leaves these two types to this. */
_Static_assert(offsetof(facto_progress, stop_reason) == 4 && offsetof(facto_progress, iteration) == 8 &&
                   offsetof(facto_progress, objective) == 16 && offsetof(facto_progress, stationarity) == 24 &&
                   offsetof(facto_progress, step_size) == 32 && offsetof(facto_progress, relative_change) == 40 &&
                   offsetof(facto_progress, elapsed_seconds) == 48 && offsetof(facto_progress, feasibility) == 56,
               "facto_progress: 0.1.0's fields moved");
_Static_assert(offsetof(facto_param_info, type) == 4 && offsetof(facto_param_info, name) == 8 &&
                   offsetof(facto_param_info, description) == 16 && offsetof(facto_param_info, default_double) == 24 &&
                   offsetof(facto_param_info, choices) == 80,
               "facto_param_info: 0.1.0's fields moved");
_Static_assert(offsetof(facto_algorithm_info, is_default) == 4 && offsetof(facto_algorithm_info, name) == 8 &&
                   offsetof(facto_algorithm_info, description) == 16,
               "facto_algorithm_info: 0.2.0's fields moved");

#define N 24
#define K 3

/* A symmetric affinity of N points in K groups (entries in (0, 1]). */
/* Two sparse matrices of the same shape, stored entries and structure, their values within 1e-12. */
static int same_sparse(const facto_sparse* a, const facto_sparse* b)
{
    int64_t rows[2], cols[2], nnz[2];
    facto_sparse_shape(a, &rows[0], &cols[0], &nnz[0]);
    facto_sparse_shape(b, &rows[1], &cols[1], &nnz[1]);
    if (rows[0] != rows[1] || cols[0] != cols[1] || nnz[0] != nnz[1]) return 0;
    int64_t* ip[2] = {malloc((size_t)(rows[0] + 1) * sizeof(int64_t)), malloc((size_t)(rows[0] + 1) * sizeof(int64_t))};
    int64_t* ix[2] = {malloc((size_t)nnz[0] * sizeof(int64_t) + 1), malloc((size_t)nnz[0] * sizeof(int64_t) + 1)};
    double* vx[2] = {malloc((size_t)nnz[0] * sizeof(double) + 1), malloc((size_t)nnz[0] * sizeof(double) + 1)};
    facto_sparse_copy_csr(a, ip[0], ix[0], vx[0]);
    facto_sparse_copy_csr(b, ip[1], ix[1], vx[1]);
    int same = memcmp(ip[0], ip[1], (size_t)(rows[0] + 1) * sizeof(int64_t)) == 0 &&
               memcmp(ix[0], ix[1], (size_t)nnz[0] * sizeof(int64_t)) == 0;
    for (int64_t e = 0; e < nnz[0]; ++e) same = same && fabs(vx[0][e] - vx[1][e]) <= 1e-12;
    for (int u = 0; u < 2; ++u) free(ip[u]), free(ix[u]), free(vx[u]);
    return same;
}

static void make_affinity(double* P)
{
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            const double d = (i % K == j % K) ? 0.1 * fabs((double)(i - j)) / N : 2.0 + 0.01 * (i + j);
            P[i * N + j] = exp(-d * d);
        }
}

static facto_problem* make_problem(void)
{
    double P[N * N];
    make_affinity(P);
    facto_problem* problem = NULL;
    facto_problem_new_simplicial_symnmf(P, N, N, N, FACTO_ROW_MAJOR, K, &problem);
    return problem;
}

static facto_solver* make_solver(facto_problem* problem, const char* algorithm)
{
    facto_solver* s = NULL;
    facto_solver_new(problem, algorithm, &s);
    return s;
}

static void test_version(void)
{
    CHECK(facto_version_number() == FACTO_VERSION_NUMBER);
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", FACTO_VERSION_MAJOR, FACTO_VERSION_MINOR, FACTO_VERSION_PATCH);
    CHECK(strcmp(facto_version(), expected) == 0);
    CHECK(strcmp(facto_status_string(FACTO_ERROR_DIMENSION), "FACTO_ERROR_DIMENSION") == 0);
    CHECK(strcmp(facto_status_string(12345), "unknown status") == 0);
}

static void test_problem_errors(void)
{
    double P[N * N];
    facto_problem* p = (facto_problem*)1;
    make_affinity(P);

    P[5] = NAN;
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, N, N, N, FACTO_ROW_MAJOR, K, &p), FACTO_ERROR_NOT_FINITE,
                 facto_last_error());
    CHECK(p == NULL);
    CHECK(strstr(facto_last_error(), "P") != NULL);
    P[5] = INFINITY;
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, N, N, N, FACTO_ROW_MAJOR, K, &p), FACTO_ERROR_NOT_FINITE,
                 facto_last_error());
    make_affinity(P);
    P[1] += 0.5;
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, N, N, N, FACTO_ROW_MAJOR, K, &p), FACTO_ERROR_NOT_SYMMETRIC,
                 facto_last_error());
    make_affinity(P);
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, N, N - 1, N, FACTO_ROW_MAJOR, K, &p), FACTO_ERROR_DIMENSION,
                 facto_last_error());
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, N, N, N, FACTO_ROW_MAJOR, 0, &p), FACTO_ERROR_DIMENSION,
                 facto_last_error());
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, N, N, N, FACTO_ROW_MAJOR, N + 1, &p), FACTO_ERROR_DIMENSION,
                 facto_last_error());
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(NULL, N, N, N, FACTO_ROW_MAJOR, K, &p), FACTO_ERROR_NULL_POINTER,
                 facto_last_error());
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, N, N, N, FACTO_ROW_MAJOR, K, NULL), FACTO_ERROR_NULL_POINTER,
                 facto_last_error());
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, N, N, N, 7, K, &p), FACTO_ERROR_INVALID_ARGUMENT,
                 facto_last_error());
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, N, N, N - 1, FACTO_ROW_MAJOR, K, &p),
                 FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, -1, -1, N, FACTO_ROW_MAJOR, K, &p),
                 FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());
    /* Sizes that cannot be allocated (2^48 doubles: std::bad_alloc) or even addressed (the product
     * overflows) are out-of-memory errors, found before any caller memory is read. ASan's operator new
     * aborts instead of throwing, so the first case runs only without it. */
    const int64_t absurd = (int64_t)1 << 32;
#ifndef __SANITIZE_ADDRESS__
    const int64_t huge = (int64_t)1 << 24;
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, huge, huge, huge, FACTO_ROW_MAJOR, K, &p),
                 FACTO_ERROR_OUT_OF_MEMORY, facto_last_error());
#endif
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, absurd, absurd, absurd, FACTO_ROW_MAJOR, K, &p),
                 FACTO_ERROR_OUT_OF_MEMORY, facto_last_error());
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, N, N, N, FACTO_ROW_MAJOR, K, &p), FACTO_OK, "");
    CHECK(p != NULL && strcmp(facto_problem_kind(p), "simplicial_symnmf") == 0);

    int64_t rows = 0, cols = 0;
    CHECK_STATUS(facto_problem_iterate_shape(p, &rows, &cols), FACTO_OK, "");
    CHECK(rows == N && cols == K);
    CHECK_STATUS(facto_problem_iterate_shape(NULL, &rows, &cols), FACTO_ERROR_NULL_POINTER, facto_last_error());

    /* The same point in both layouts has the same objective; a wrong shape is a DIMENSION error. */
    double W[N * K], Wt[K * N], f_row = 0.0, f_col = 0.0;
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < K; ++j) W[i * K + j] = Wt[j * N + i] = (i + j) % K == 0 ? 0.6 : 0.2;
    CHECK_STATUS(facto_problem_objective(p, W, N, K, K, FACTO_ROW_MAJOR, &f_row), FACTO_OK, "");
    CHECK_STATUS(facto_problem_objective(p, Wt, N, K, N, FACTO_COL_MAJOR, &f_col), FACTO_OK, "");
    CHECK(f_row == f_col && f_row > 0.0);
    CHECK_STATUS(facto_problem_objective(p, W, K, N, N, FACTO_ROW_MAJOR, &f_row), FACTO_ERROR_DIMENSION,
                 facto_problem_last_error(p));
    facto_problem_free(p);
}

static void test_solver_errors(void)
{
    facto_problem* p = make_problem();
    facto_solver* s = (facto_solver*)1;
    CHECK_STATUS(facto_solver_new(p, "simplex_method", &s), FACTO_ERROR_UNSUPPORTED, facto_last_error());
    CHECK(s == NULL);
    CHECK(strstr(facto_last_error(), "frank_wolfe") != NULL); /* the message lists what exists */
    CHECK_STATUS(facto_solver_new(NULL, "frank_wolfe", &s), FACTO_ERROR_NULL_POINTER, facto_last_error());
    CHECK_STATUS(facto_solver_new(p, NULL, &s), FACTO_ERROR_NULL_POINTER, facto_last_error());
    s = make_solver(p, "frank_wolfe");
    CHECK(s != NULL && strcmp(facto_solver_algorithm(s), "frank_wolfe") == 0);

    /* NULL handles: a status and a thread-local message, never a crash. */
    facto_progress prog;
    prog.struct_size = sizeof prog;
    CHECK_STATUS(facto_solver_step(NULL), FACTO_ERROR_NULL_POINTER, facto_last_error());
    CHECK_STATUS(facto_solver_solve(NULL), FACTO_ERROR_NULL_POINTER, facto_last_error());
    CHECK_STATUS(facto_solver_progress(NULL, &prog), FACTO_ERROR_NULL_POINTER, facto_last_error());
    CHECK_STATUS(facto_solver_set_double(NULL, "tolerance", 1.0), FACTO_ERROR_NULL_POINTER, facto_last_error());
    CHECK_STATUS(facto_solver_request_stop(NULL), FACTO_ERROR_NULL_POINTER, facto_last_error());
    CHECK_STATUS(facto_solver_copy_iterate(NULL, NULL, 0, FACTO_ROW_MAJOR), FACTO_ERROR_NULL_POINTER,
                 facto_last_error());
    CHECK(facto_solver_algorithm(NULL) == NULL);
    CHECK(facto_problem_kind(NULL) == NULL);

    /* Parameters: unknown, wrong type, out of range, bad choice; the message names the parameter. */
    CHECK_STATUS(facto_solver_set_double(s, "tolerence", 1e-3), FACTO_ERROR_UNKNOWN_PARAMETER,
                 facto_solver_last_error(s));
    CHECK(strstr(facto_solver_last_error(s), "tolerence") != NULL);
    CHECK_STATUS(facto_solver_set_double(s, "max_iterations", 10.5), FACTO_ERROR_PARAMETER_TYPE,
                 facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_set_string(s, "tolerance", "small"), FACTO_ERROR_PARAMETER_TYPE,
                 facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_set_double(s, "tolerance", -1.0), FACTO_ERROR_OUT_OF_RANGE, facto_solver_last_error(s));
    CHECK(strstr(facto_solver_last_error(s), "tolerance") != NULL);
    CHECK_STATUS(facto_solver_set_double(s, "tolerance", NAN), FACTO_ERROR_OUT_OF_RANGE, facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_set_int(s, "max_iterations", -5), FACTO_ERROR_OUT_OF_RANGE, facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_set_string(s, "step_rule", "armijo"), FACTO_ERROR_OUT_OF_RANGE,
                 facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_set_string(s, "step_rule", "line_search"), FACTO_OK, "");
    CHECK(facto_solver_last_error(s)[0] == '\0'); /* a successful call clears the message */
    const char* rule = NULL;
    CHECK_STATUS(facto_solver_get_string(s, "step_rule", &rule), FACTO_OK, "");
    CHECK(rule && strcmp(rule, "line_search") == 0);
    CHECK_STATUS(facto_solver_reset_params(s), FACTO_OK, "");
    CHECK_STATUS(facto_solver_get_string(s, "step_rule", &rule), FACTO_OK, "");
    CHECK(rule && strcmp(rule, "auto") == 0);

    /* Buffers and outputs. */
    double W[N * K];
    int64_t labels[N];
    CHECK_STATUS(facto_solver_copy_iterate(s, W, N * K, FACTO_ROW_MAJOR), FACTO_ERROR_BAD_STATE,
                 facto_solver_last_error(s)); /* no iterate yet */
    CHECK_STATUS(facto_solver_copy_output_int64(s, "labels", labels, N, FACTO_ROW_MAJOR), FACTO_ERROR_BAD_STATE,
                 facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_step(s), FACTO_OK, "");
    CHECK_STATUS(facto_solver_copy_iterate(s, W, N * K - 1, FACTO_ROW_MAJOR), FACTO_ERROR_BUFFER_TOO_SMALL,
                 facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_copy_iterate(s, W, N * K, 9), FACTO_ERROR_INVALID_ARGUMENT, facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_copy_output_int64(s, "labels", labels, N - 1, FACTO_ROW_MAJOR),
                 FACTO_ERROR_BUFFER_TOO_SMALL, facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_copy_output_double(s, "labels", W, N, FACTO_ROW_MAJOR), FACTO_ERROR_PARAMETER_TYPE,
                 facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_copy_output_int64(s, "clusters", labels, N, FACTO_ROW_MAJOR),
                 FACTO_ERROR_UNKNOWN_PARAMETER, facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_copy_output_int64(s, "labels", labels, N, FACTO_ROW_MAJOR), FACTO_OK, "");
    int64_t count = 0, rows = 0, cols = 0;
    int32_t type = 0;
    const char* name = NULL;
    CHECK_STATUS(facto_solver_output_count(s, &count), FACTO_OK, "");
    CHECK(count == 2);
    CHECK_STATUS(facto_solver_output_name(s, 0, &name), FACTO_OK, "");
    CHECK(name && strcmp(name, "labels") == 0);
    CHECK_STATUS(facto_solver_output_name(s, 1, &name), FACTO_OK, "");
    CHECK(name && strcmp(name, "gaps") == 0);
    CHECK_STATUS(facto_solver_output_name(s, 2, &name), FACTO_ERROR_OUT_OF_RANGE, facto_solver_last_error(s));
    CHECK_STATUS(facto_solver_output_shape(s, "labels", &type, &rows, &cols), FACTO_OK, "");
    CHECK(type == FACTO_OUTPUT_INT64 && rows == N && cols == 1);
    /* gaps: the Frank-Wolfe gap (the reported stationarity times the objective at the start), the away
     * gap, the pairwise gap; each a sum of nonnegative terms, each term up to rounding */
    double gaps[3];
    facto_progress gp;
    gp.struct_size = sizeof gp;
    CHECK_STATUS(facto_solver_copy_output_double(s, "gaps", gaps, 3, FACTO_ROW_MAJOR), FACTO_OK, "");
    CHECK_STATUS(facto_solver_progress(s, &gp), FACTO_OK, "");
    CHECK(gp.stationarity >= 0.0 && gaps[0] >= 0.0 && gaps[1] >= -1e-12 * gp.objective && gaps[2] >= gaps[0] - 1e-12 * gp.objective);

    /* Iterates: infeasible, wrong shape, NaN; then a valid one is taken and copied back in both layouts. */
    for (int i = 0; i < N * K; ++i) W[i] = 1.0 / K;
    W[0] = -0.1;
    CHECK_STATUS(facto_solver_set_iterate(s, W, N, K, K, FACTO_ROW_MAJOR), FACTO_ERROR_INFEASIBLE,
                 facto_solver_last_error(s));
    W[0] = NAN;
    CHECK_STATUS(facto_solver_set_iterate(s, W, N, K, K, FACTO_ROW_MAJOR), FACTO_ERROR_NOT_FINITE,
                 facto_solver_last_error(s));
    W[0] = 1.0 / K;
    CHECK_STATUS(facto_solver_set_iterate(s, W, K, N, N, FACTO_ROW_MAJOR), FACTO_ERROR_DIMENSION,
                 facto_solver_last_error(s));
    for (int i = 0; i < N; ++i) {
        W[i * K + 0] = 0.5;
        W[i * K + 1] = 0.3;
        W[i * K + 2] = 0.2;
    }
    CHECK_STATUS(facto_solver_set_iterate(s, W, N, K, K, FACTO_ROW_MAJOR), FACTO_OK, "");
    double back[N * K], back_col[N * K];
    CHECK_STATUS(facto_solver_copy_iterate(s, back, N * K, FACTO_ROW_MAJOR), FACTO_OK, "");
    CHECK_STATUS(facto_solver_copy_iterate(s, back_col, N * K, FACTO_COL_MAJOR), FACTO_OK, "");
    CHECK(fabs(back[1] - 0.3) < 1e-15 && fabs(back_col[N] - 0.3) < 1e-15);
    CHECK_STATUS(facto_solver_progress(s, &prog), FACTO_OK, "");
    CHECK(prog.iteration == 0 && prog.objective > 0.0);

    /* Progress structs: too small is an error; an older, shorter struct is filled without overflow. */
    prog.struct_size = 4;
    CHECK_STATUS(facto_solver_progress(s, &prog), FACTO_ERROR_INVALID_ARGUMENT, facto_solver_last_error(s));
    struct {
        facto_progress head;
        unsigned char guard[16];
    } shorter;
    memset(&shorter, 0xAB, sizeof shorter);
    shorter.head.struct_size = (uint32_t)(sizeof(uint32_t) + sizeof(int32_t) + sizeof(int64_t));
    CHECK_STATUS(facto_solver_progress(s, &shorter.head), FACTO_OK, "");
    CHECK(shorter.head.iteration == 0);
    const unsigned char* tail = (const unsigned char*)&shorter.head.objective;
    CHECK(tail[0] == 0xAB && shorter.guard[0] == 0xAB);

    /* The handle still works after all these errors. */
    CHECK_STATUS(facto_solver_step(s), FACTO_OK, "");
    facto_solver_free(s);
    facto_problem_free(p);
}

static void test_param_table(void)
{
    facto_problem* p = make_problem();
    const char* algorithms[] = {"frank_wolfe", "projected_gradient"};
    for (int a = 0; a < 2; ++a) {
        facto_solver* s = make_solver(p, algorithms[a]);
        int64_t count = 0;
        CHECK_STATUS(facto_solver_param_count(s, &count), FACTO_OK, "");
        CHECK(count >= 6);
        for (int64_t i = 0; i < count; ++i) {
            facto_param_info info;
            info.struct_size = sizeof info;
            CHECK_STATUS(facto_solver_param_info(s, i, &info), FACTO_OK, "");
            CHECK(info.name && info.description && info.description[0]);
            if (info.type == FACTO_PARAM_DOUBLE) {
                double v = NAN;
                CHECK(info.lower_double <= info.default_double && info.default_double <= info.upper_double);
                CHECK_STATUS(facto_solver_get_double(s, info.name, &v), FACTO_OK, "");
                CHECK(v == info.default_double);
                CHECK_STATUS(facto_solver_set_double(s, info.name, info.default_double), FACTO_OK, "");
            } else if (info.type == FACTO_PARAM_INT) {
                int64_t v = -1;
                CHECK(info.lower_int <= info.default_int && info.default_int <= info.upper_int);
                CHECK_STATUS(facto_solver_get_int(s, info.name, &v), FACTO_OK, "");
                CHECK(v == info.default_int);
            } else {
                const char* v = NULL;
                CHECK(info.type == FACTO_PARAM_STRING && strstr(info.choices, info.default_string) != NULL);
                CHECK_STATUS(facto_solver_get_string(s, info.name, &v), FACTO_OK, "");
                CHECK(v && strcmp(v, info.default_string) == 0);
            }
        }
        facto_param_info info;
        info.struct_size = sizeof info;
        CHECK_STATUS(facto_solver_param_info(s, count, &info), FACTO_ERROR_OUT_OF_RANGE, facto_solver_last_error(s));
        facto_solver_free(s);
    }
    facto_problem_free(p);
}

typedef struct callback_log {
    int calls;
    int destroyed;
    facto_status step_inside;
    facto_status set_inside;
    facto_status progress_inside;
} callback_log;

static int32_t stop_at_five(const facto_solver* s, const facto_progress* p, void* user_data)
{
    callback_log* log = (callback_log*)user_data;
    ++log->calls;
    facto_progress mine;
    mine.struct_size = sizeof mine;
    log->progress_inside = facto_solver_progress(s, &mine);
    /* Mutating calls from inside the callback are refused, not undefined behaviour. */
    log->step_inside = facto_solver_step((facto_solver*)s);
    log->set_inside = facto_solver_set_double((facto_solver*)s, "tolerance", 1.0);
    return p->iteration >= 5;
}

static void destroy_log(void* user_data) { ((callback_log*)user_data)->destroyed += 1; }

static void test_callback(void)
{
    facto_problem* p = make_problem();
    facto_solver* s = make_solver(p, "frank_wolfe");
    callback_log log = {0, 0, 0, 0, 0};
    facto_solver_set_string(s, "variant", "vanilla"); /* never stationary: only the callback stops it */
    facto_solver_set_double(s, "objective_tolerance", 0.0);
    facto_solver_set_double(s, "tolerance", 0.0);
    CHECK_STATUS(facto_solver_set_callback(s, stop_at_five, &log, destroy_log), FACTO_OK, "");
    CHECK_STATUS(facto_solver_solve(s), FACTO_STOPPED_BY_CALLBACK, "");
    facto_progress prog;
    prog.struct_size = sizeof prog;
    facto_solver_progress(s, &prog);
    CHECK(prog.iteration == 5 && prog.stop_reason == FACTO_STOPPED_BY_CALLBACK);
    CHECK(log.calls == 5);
    CHECK(log.step_inside == FACTO_ERROR_BAD_STATE);
    CHECK(log.set_inside == FACTO_ERROR_BAD_STATE);
    CHECK(log.progress_inside == FACTO_OK);
    /* Replacing the callback destroys the old user data; so does freeing the solver. */
    callback_log second = {0, 0, 0, 0, 0};
    CHECK_STATUS(facto_solver_set_callback(s, stop_at_five, &second, destroy_log), FACTO_OK, "");
    CHECK(log.destroyed == 1 && second.destroyed == 0);
    CHECK_STATUS(facto_solver_step(s), FACTO_STOPPED_BY_CALLBACK, ""); /* iteration 6 >= 5 */
    facto_solver_free(s);
    CHECK(second.destroyed == 1);
    facto_problem_free(p);
}

static void test_free_rules(void)
{
    facto_problem_free(NULL);
    facto_solver_free(NULL);
    facto_matrix_free(NULL);
    CHECK(1);
    /* Free the problem first: its solvers keep it alive. Two solvers on one problem. */
    facto_problem* p = make_problem();
    facto_solver* fw = make_solver(p, "frank_wolfe");
    facto_solver* pgd = make_solver(p, "projected_gradient");
    facto_problem_free(p);
    facto_solver_set_int(fw, "max_iterations", 30);
    facto_solver_set_int(pgd, "max_iterations", 30);
    const facto_status a = facto_solver_solve(fw), b = facto_solver_solve(pgd);
    CHECK(a > 0 && b > 0);
    facto_progress pf, pp;
    pf.struct_size = pp.struct_size = sizeof pf;
    facto_solver_progress(fw, &pf);
    facto_solver_progress(pgd, &pp);
    CHECK(pf.iteration > 0 && pp.iteration > 0 && isfinite(pf.objective) && isfinite(pp.objective));
    facto_solver_free(fw);
    facto_solver_free(pgd);
}

typedef struct thread_job {
    facto_solver* solver;
    facto_status status;
} thread_job;

static void* run_solve(void* arg)
{
    thread_job* job = (thread_job*)arg;
    job->status = facto_solver_solve(job->solver);
    return NULL;
}

static void test_threads(void)
{
    facto_problem* p = make_problem();
    const char* algorithms[2] = {"frank_wolfe", "projected_gradient"};
    facto_solver *serial[2], *parallel[2];
    for (int i = 0; i < 2; ++i) {
        serial[i] = make_solver(p, algorithms[i]);
        parallel[i] = make_solver(p, algorithms[i]);
        facto_solver_set_int(serial[i], "seed", 7 + i);
        facto_solver_set_int(parallel[i], "seed", 7 + i);
        facto_solver_set_int(serial[i], "max_iterations", 200);
        facto_solver_set_int(parallel[i], "max_iterations", 200);
        facto_solver_solve(serial[i]);
    }
    pthread_t threads[2];
    thread_job jobs[2];
    for (int i = 0; i < 2; ++i) {
        jobs[i].solver = parallel[i];
        pthread_create(&threads[i], NULL, run_solve, &jobs[i]);
    }
    for (int i = 0; i < 2; ++i) pthread_join(threads[i], NULL);
    for (int i = 0; i < 2; ++i) {
        double a[N * K], b[N * K];
        CHECK(jobs[i].status > 0);
        facto_solver_copy_iterate(serial[i], a, N * K, FACTO_ROW_MAJOR);
        facto_solver_copy_iterate(parallel[i], b, N * K, FACTO_ROW_MAJOR);
        CHECK(memcmp(a, b, sizeof a) == 0);
        facto_solver_free(serial[i]);
        facto_solver_free(parallel[i]);
    }
    facto_problem_free(p);
}

static void* request_stop_later(void* arg)
{
    struct timespec delay = {0, 20 * 1000 * 1000};
    nanosleep(&delay, NULL);
    facto_solver_request_stop((facto_solver*)arg);
    return NULL;
}

static void test_request_stop_from_another_thread(void)
{
    facto_problem* p = make_problem();
    facto_solver* s = make_solver(p, "frank_wolfe");
    /* open-loop steps never reach a floor where the solve stalls: only the request can end it */
    facto_solver_set_string(s, "variant", "vanilla");
    facto_solver_set_double(s, "tolerance", 0.0);
    facto_solver_set_double(s, "objective_tolerance", 0.0);
    facto_solver_set_int(s, "max_iterations", 1000000000);
    pthread_t t;
    pthread_create(&t, NULL, request_stop_later, s);
    CHECK_STATUS(facto_solver_solve(s), FACTO_STOPPED_BY_REQUEST, "");
    pthread_join(t, NULL);
    facto_solver_free(s);
    facto_problem_free(p);
}

static void test_data_helpers(void)
{
    facto_matrix* m = (facto_matrix*)1;
    CHECK_STATUS(facto_matrix_read("/nonexistent/file.csv", &m), FACTO_ERROR_IO, facto_last_error());
    CHECK(m == NULL);
    CHECK_STATUS(facto_matrix_read(NULL, &m), FACTO_ERROR_NULL_POINTER, facto_last_error());
    const double X[6] = {1, 2, 3, 4, 5, 6}; /* 2 x 3, column-major */
    CHECK_STATUS(facto_write_csv("facto_capi_test.csv", X, 2, 3, 2, FACTO_COL_MAJOR), FACTO_OK, "");
    CHECK_STATUS(facto_matrix_read("facto_capi_test.csv", &m), FACTO_OK, "");
    int64_t rows = 0, cols = 0;
    facto_matrix_shape(m, &rows, &cols);
    const double* d = facto_matrix_data(m);
    CHECK(rows == 2 && cols == 3 && d[0] == 1 && d[1] == 3 && d[3] == 2 && d[5] == 6);
    facto_matrix_free(m);
    CHECK(facto_matrix_data(NULL) == NULL);

    CHECK_STATUS(facto_gaussian_affinity(X, 2, 3, 3, FACTO_ROW_MAJOR, -1.0, FACTO_SCALE_NONE, &m),
                 FACTO_ERROR_OUT_OF_RANGE, facto_last_error());
    /* the median rule with 2 points: the one squared distance, 27, over 4, so P_01 = exp(-4) */
    CHECK_STATUS(facto_gaussian_affinity(X, 2, 3, 3, FACTO_ROW_MAJOR, FACTO_BANDWIDTH_MEDIAN_RULE, FACTO_SCALE_NONE, &m),
                 FACTO_OK, "");
    CHECK(fabs(facto_matrix_data(m)[1] - exp(-4.0)) < 1e-15 && facto_matrix_data(m)[0] == 1.0);
    facto_matrix_free(m);
    CHECK_STATUS(facto_gaussian_affinity(X, 2, 3, 3, FACTO_ROW_MAJOR, 1.0, 17, &m), FACTO_ERROR_INVALID_ARGUMENT,
                 facto_last_error());
    CHECK_STATUS(facto_gaussian_affinity(X, 2, 3, 3, FACTO_ROW_MAJOR, 2.0, FACTO_SCALE_NONE, &m), FACTO_OK, "");
    d = facto_matrix_data(m);
    CHECK(fabs(d[1] - exp(-27.0 / 2.0)) < 1e-15 && d[0] == 1.0 && d[1] == d[2]);
    facto_matrix_free(m);

    const int64_t truth[4] = {0, 0, 1, 1}, pred[4] = {5, 5, 4, 5};
    double acc = 0.0;
    CHECK_STATUS(facto_clustering_accuracy(pred, truth, 4, &acc), FACTO_OK, "");
    CHECK(acc == 0.75);
    CHECK_STATUS(facto_clustering_accuracy(pred, truth, 0, &acc), FACTO_ERROR_DIMENSION, facto_last_error());
    CHECK_STATUS(facto_clustering_accuracy(NULL, truth, 4, &acc), FACTO_ERROR_NULL_POINTER, facto_last_error());
}

static void test_symnmf(void)
{
    double M[N * N];
    make_affinity(M);
    facto_problem *dense = NULL, *sparse = NULL;
    CHECK_STATUS(facto_problem_new_symnmf(M, N, N, N, FACTO_ROW_MAJOR, K, &dense), FACTO_OK, "");
    CHECK(dense && strcmp(facto_problem_kind(dense), "symnmf") == 0);

    /* The same M as COO triplets, in reverse order and with every entry split into two duplicates. */
    int64_t rows[2 * N * N], cols[2 * N * N];
    double values[2 * N * N];
    int64_t nnz = 0;
    for (int k = N * N - 1; k >= 0; --k)
        for (int half = 0; half < 2; ++half) {
            rows[nnz] = k / N;
            cols[nnz] = k % N;
            values[nnz++] = 0.5 * M[k];
        }
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, N, N, nnz, rows, cols, values, K, &sparse),
                 FACTO_OK, "");
    double X[N * K], f_dense = 0.0, f_sparse = 0.0;
    for (int i = 0; i < N * K; ++i) X[i] = 0.1 + 0.01 * (i % 7);
    facto_problem_objective(dense, X, N, K, K, FACTO_ROW_MAJOR, &f_dense);
    facto_problem_objective(sparse, X, N, K, K, FACTO_ROW_MAJOR, &f_sparse);
    CHECK(fabs(f_dense - f_sparse) <= 1e-12 * f_dense);

    /* Sparse input errors name what is wrong. */
    facto_problem* p = (facto_problem*)1;
    CHECK_STATUS(facto_problem_new_symnmf_sparse(7, N, N, nnz, rows, cols, values, K, &p), FACTO_ERROR_INVALID_ARGUMENT,
                 facto_last_error());
    CHECK(p == NULL);
    rows[3] = N;
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, N, N, nnz, rows, cols, values, K, &p),
                 FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());
    CHECK(strstr(facto_last_error(), "entry 3") != NULL);
    rows[3] = 0;
    values[5] = NAN;
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, N, N, nnz, rows, cols, values, K, &p),
                 FACTO_ERROR_NOT_FINITE, facto_last_error());
    const int64_t ptr[3] = {0, 1, 2}, idx[2] = {1, 0};
    const double asym[2] = {1.0, 2.0};
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_CSR, 2, 2, 2, ptr, idx, asym, 1, &p),
                 FACTO_ERROR_NOT_SYMMETRIC, facto_last_error());
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_CSR, 2, 2, 3, ptr, idx, asym, 1, &p),
                 FACTO_ERROR_INVALID_ARGUMENT, facto_last_error()); /* nnz disagrees with ptr */
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_CSR, 2, 3, 2, ptr, idx, asym, 1, &p),
                 FACTO_ERROR_DIMENSION, facto_last_error());

    /* nolips runs on both and agrees; frank_wolfe does not exist for symnmf. */
    facto_solver *a = NULL, *b = NULL;
    CHECK_STATUS(facto_solver_new(dense, "frank_wolfe", &a), FACTO_ERROR_UNSUPPORTED, facto_last_error());
    CHECK_STATUS(facto_solver_new(dense, "nolips", &a), FACTO_OK, "");
    CHECK_STATUS(facto_solver_new(sparse, "nolips", &b), FACTO_OK, "");
    facto_solver_set_int(a, "max_iterations", 30);
    facto_solver_set_int(b, "max_iterations", 30);
    CHECK(facto_solver_solve(a) > 0 && facto_solver_solve(b) > 0);
    double Wa[N * K], Wb[N * K];
    facto_solver_copy_iterate(a, Wa, N * K, FACTO_COL_MAJOR);
    facto_solver_copy_iterate(b, Wb, N * K, FACTO_COL_MAJOR);
    double worst = 0.0;
    for (int i = 0; i < N * K; ++i) worst = fmax(worst, fabs(Wa[i] - Wb[i]));
    CHECK(worst <= 1e-10);
    int64_t labels[N];
    CHECK_STATUS(facto_solver_copy_output_int64(a, "labels", labels, N, FACTO_ROW_MAJOR), FACTO_OK, "");
    facto_solver_free(a);
    facto_solver_free(b);
    facto_problem_free(dense);
    facto_problem_free(sparse);
}

/* EDM completion end to end on the Helix, the sparse helpers, and every SymNMF solver by name. */
/* Self-dictionary NMF: noiseless Fig. 2 data, MERIT and SPA both find the anchors; outputs by shape. */
static void test_self_dictionary(void)
{
    enum { SM = 12, SK = 5, SN = SK + SK * (SK - 1) / 2 };
    double X[SM * SN];
    int64_t anchors[SK];
    CHECK_STATUS(facto_separable_data(FACTO_SEPARABLE_MIDPOINTS, SM, SN + 1, SK, INFINITY, 3, X, SM * SN,
                                      FACTO_COL_MAJOR, anchors, SK),
                 FACTO_ERROR_DIMENSION, facto_last_error());
    CHECK_STATUS(facto_separable_data(FACTO_SEPARABLE_MIDPOINTS, SM, SN, SK, INFINITY, 3, X, SM * SN, FACTO_COL_MAJOR,
                                      anchors, SK),
                 FACTO_OK, "");
    facto_problem* p = (facto_problem*)1;
    CHECK_STATUS(facto_problem_new_self_dictionary(X, SM, SN, SM, FACTO_COL_MAJOR, 0, -1.0, 1e-5, &p),
                 FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());
    CHECK(p == NULL && strstr(facto_last_error(), "needs K") != NULL);
    CHECK_STATUS(facto_problem_new_self_dictionary(X, SM, SN, SM, FACTO_COL_MAJOR, SK, -1.0, 1e-5, &p), FACTO_OK, "");
    CHECK(strcmp(facto_problem_kind(p), "self_dictionary") == 0);
    const char* algorithms[] = {"merit", "spa", "merit", "merit"};
    const char* variants[] = {"vanilla", NULL, "away", "pairwise"};
    for (int a = 0; a < 4; ++a) {
        facto_solver* s = NULL;
        CHECK_STATUS(facto_solver_new(p, algorithms[a], &s), FACTO_OK, "");
        facto_solver_set_int(s, "max_iterations", 300);
        if (variants[a]) {
            CHECK_STATUS(facto_solver_set_string(s, "variant", "sideways"), FACTO_ERROR_OUT_OF_RANGE,
                         facto_solver_last_error(s));
            CHECK_STATUS(facto_solver_set_string(s, "variant", variants[a]), FACTO_OK, "");
        }
        const facto_status st = facto_solver_solve(s); /* away-step MERIT may stall at its rounding floor */
        CHECK(st == FACTO_ITERATION_LIMIT || st == FACTO_CONVERGED || st == FACTO_STALLED);
        int32_t type = 0;
        int64_t rows = 0, cols = 0;
        CHECK_STATUS(facto_solver_output_shape(s, "selected", &type, &rows, &cols), FACTO_OK, "");
        CHECK(type == FACTO_OUTPUT_INT64 && rows == SK && cols == 1);
        int64_t selected[SK];
        CHECK_STATUS(facto_solver_copy_output_int64(s, "selected", selected, SK, FACTO_ROW_MAJOR), FACTO_OK, "");
        CHECK(memcmp(selected, anchors, sizeof anchors) == 0);
        CHECK_STATUS(facto_solver_output_shape(s, "H", &type, &rows, &cols), FACTO_OK, "");
        CHECK(type == FACTO_OUTPUT_DOUBLE && rows == SK && cols == SN);
        double C[SN * SN];
        CHECK_STATUS(facto_solver_copy_iterate(s, C, SN * SN, FACTO_COL_MAJOR), FACTO_OK, "");
        double column_sum = 0.0;
        for (int i = 0; i < SN; ++i) column_sum += C[i];
        CHECK(fabs(column_sum - 1.0) < 1e-12);
        double gaps[3]; /* MERIT: Frank-Wolfe, away and pairwise gaps */
        CHECK_STATUS(facto_solver_copy_output_double(s, "gaps", gaps, 3, FACTO_ROW_MAJOR),
                     variants[a] ? FACTO_OK : FACTO_ERROR_UNKNOWN_PARAMETER, facto_solver_last_error(s));
        facto_progress mp;
        mp.struct_size = sizeof mp;
        facto_solver_progress(s, &mp);
        /* sums of terms that are nonnegative up to rounding, zero at convergence */
        if (variants[a])
            CHECK(gaps[0] >= -1e-12 * fabs(mp.objective) && gaps[1] >= -1e-12 * fabs(mp.objective) &&
                  gaps[2] >= gaps[0] - 1e-12 * fabs(mp.objective));
        facto_solver_free(s);
    }
    /* the same X as COO triplets (since 0.4.0): the sparse problem's SPA and SNPA pick the anchors and give
     * the dense problem's H to rounding; merit, which needs the points dense, is refused */
    int64_t xi[SM * SN], xj[SM * SN];
    for (int e = 0; e < SM * SN; ++e) xi[e] = e % SM, xj[e] = e / SM; /* column-major X */
    facto_problem* sp = NULL;
    CHECK_STATUS(facto_problem_new_self_dictionary_sparse(FACTO_SPARSE_COO, SM, SN, SM * SN, xi, xj, X, SK, 0, NULL, NULL,
                                                          &sp),
                 FACTO_OK, facto_last_error());
    const char* pickers[] = {"spa", "snpa"};
    for (int a = 0; a < 2; ++a) {
        facto_solver *by_dense = make_solver(p, pickers[a]), *by_sparse = make_solver(sp, pickers[a]);
        CHECK(facto_solver_solve(by_dense) == FACTO_CONVERGED && facto_solver_solve(by_sparse) == FACTO_CONVERGED);
        int64_t selected[SK];
        CHECK_STATUS(facto_solver_copy_output_int64(by_sparse, "selected", selected, SK, FACTO_ROW_MAJOR), FACTO_OK, "");
        CHECK(memcmp(selected, anchors, sizeof anchors) == 0);
        double H[2][SK * SN], worst = 0.0;
        CHECK(facto_solver_copy_output_double(by_dense, "H", H[0], SK * SN, FACTO_ROW_MAJOR) == FACTO_OK);
        CHECK(facto_solver_copy_output_double(by_sparse, "H", H[1], SK * SN, FACTO_ROW_MAJOR) == FACTO_OK);
        for (int e = 0; e < SK * SN; ++e) worst = fmax(worst, fabs(H[0][e] - H[1][e]));
        CHECK(worst <= 1e-10); /* simplex coefficients (at most 1) from K x K systems of moderate condition */
        facto_solver_free(by_dense);
        facto_solver_free(by_sparse);
    }
    facto_solver* refused = (facto_solver*)1;
    CHECK_STATUS(facto_solver_new(sp, "merit", &refused), FACTO_ERROR_UNSUPPORTED, facto_last_error());
    CHECK(refused == NULL && strstr(facto_last_error(), "on sparse X take spa") != NULL);
    facto_problem_free(sp);
    facto_problem_free(p);
}

static void test_nomad(void)
{
    /* two groups of points on a line, their centered Gram matrix; K = 2 */
    enum { NN = 8 };
    double x[NN], D[NN * NN];
    double mean = 0.0;
    for (int i = 0; i < NN; ++i) mean += (x[i] = (i < NN / 2 ? -1.0 : 1.0) + 0.05 * i) / NN;
    for (int i = 0; i < NN; ++i)
        for (int j = 0; j < NN; ++j) D[i * NN + j] = (x[i] - mean) * (x[j] - mean);
    facto_problem* p = (facto_problem*)1;
    CHECK_STATUS(facto_problem_new_nomad(D, NN, NN, NN, FACTO_ROW_MAJOR, NN + 1, &p), FACTO_ERROR_DIMENSION,
                 facto_last_error());
    CHECK(p == NULL && strstr(facto_last_error(), "K = 9") != NULL);
    D[1] += 1.0;
    CHECK_STATUS(facto_problem_new_nomad(D, NN, NN, NN, FACTO_ROW_MAJOR, 2, &p), FACTO_ERROR_NOT_SYMMETRIC,
                 facto_last_error());
    D[1] -= 1.0;
    CHECK_STATUS(facto_problem_new_nomad(D, NN, NN, NN, FACTO_ROW_MAJOR, 2, &p), FACTO_OK, "");
    CHECK(strcmp(facto_problem_kind(p), "nomad") == 0);
    facto_solver* s = NULL;
    CHECK_STATUS(facto_solver_new(p, "nomad_cgm", &s), FACTO_OK, "");
    CHECK(facto_solver_solve(s) == FACTO_CONVERGED);
    facto_progress np;
    np.struct_size = sizeof np;
    double tolerance = 0.0, feasibility_tolerance = 0.0, bound = 0.0;
    CHECK_STATUS(facto_solver_progress(s, &np), FACTO_OK, "");
    facto_solver_get_double(s, "tolerance", &tolerance);
    facto_solver_get_double(s, "feasibility_tolerance", &feasibility_tolerance);
    CHECK(np.stationarity <= tolerance && np.feasibility <= feasibility_tolerance);
    CHECK_STATUS(facto_solver_copy_output_double(s, "upper_bound", &bound, 1, FACTO_ROW_MAJOR), FACTO_OK, "");
    CHECK(fabs(bound - np.objective) <= tolerance * fmax(fabs(bound), fabs(np.objective)));
    double feasibility[4], Q[NN * NN];
    CHECK_STATUS(facto_solver_copy_output_double(s, "feasibility", feasibility, 4, FACTO_ROW_MAJOR), FACTO_OK, "");
    CHECK(feasibility[2] < 1e-10 && feasibility[3] < 1e-10);
    /* the two groups: entries ~1/4 within a group, none between them at the optimum; a sixteenth of
     * the within entries is far above what the tolerances leave */
    CHECK_STATUS(facto_solver_copy_iterate(s, Q, NN * NN, FACTO_ROW_MAJOR), FACTO_OK, "");
    CHECK(Q[0 * NN + NN - 1] < 0.25 / 16 && Q[0 * NN + 1] > 0.1);

    /* multi-layer NOMAD: the next layer's D is this Q; K must not grow */
    facto_problem* layer = (facto_problem*)1;
    CHECK_STATUS(facto_problem_new_nomad_layer(s, 3, &layer), FACTO_ERROR_OUT_OF_RANGE, facto_last_error());
    CHECK(layer == NULL && strstr(facto_last_error(), "non-increasing") != NULL);
    CHECK_STATUS(facto_problem_new_nomad_layer(NULL, 1, &layer), FACTO_ERROR_NULL_POINTER, facto_last_error());
    CHECK_STATUS(facto_problem_new_nomad_layer(s, 1, &layer), FACTO_OK, "");
    /* ... and facto_solver_new_nomad_layer gives it a solver of the same algorithm and settings */
    facto_solver* next = (facto_solver*)1;
    CHECK_STATUS(facto_solver_new_nomad_layer(s, 3, &next), FACTO_ERROR_OUT_OF_RANGE, facto_last_error());
    CHECK(next == NULL);
    CHECK_STATUS(facto_solver_new_nomad_layer(NULL, 1, &next), FACTO_ERROR_NULL_POINTER, facto_last_error());
    CHECK_STATUS(facto_solver_set_int(s, "seed", 7), FACTO_OK, "");
    CHECK_STATUS(facto_solver_set_double(s, "tolerance", 1e-7), FACTO_OK, "");
    CHECK_STATUS(facto_solver_new_nomad_layer(s, 1, &next), FACTO_OK, facto_last_error());
    int64_t next_seed = 0;
    double next_tolerance = 0.0;
    facto_solver_get_int(next, "seed", &next_seed);
    facto_solver_get_double(next, "tolerance", &next_tolerance);
    CHECK(next && !strcmp(facto_solver_algorithm(next), facto_solver_algorithm(s)) && next_seed == 7 &&
          next_tolerance == 1e-7);
    facto_solver_free(s);  /* the layers keep their own copy of D */

    /* Burer-Monteiro on the same problem: Q = Y Y^T, Y >= 0 n x r (r = 2 K = 4), feasible to the tolerance */
    CHECK_STATUS(facto_solver_new(p, "burer_monteiro", &s), FACTO_OK, "");
    CHECK_STATUS(facto_solver_set_int(s, "rank", 4), FACTO_OK, "");
    int32_t type = 0;
    int64_t shape[2] = {0, 0};
    CHECK_STATUS(facto_solver_output_shape(s, "factor", &type, &shape[0], &shape[1]), FACTO_OK, "");
    CHECK(type == FACTO_OUTPUT_DOUBLE && shape[0] == NN && shape[1] == 4);
    double Y[NN * 4];
    CHECK_STATUS(facto_solver_copy_output_double(s, "factor", Y, NN * 4, FACTO_ROW_MAJOR), FACTO_ERROR_BAD_STATE,
                 facto_solver_last_error(s));
    CHECK(facto_solver_solve(s) == FACTO_CONVERGED);
    CHECK_STATUS(facto_solver_copy_output_double(s, "feasibility", feasibility, 4, FACTO_ROW_MAJOR), FACTO_OK, "");
    facto_solver_get_double(s, "feasibility_tolerance", &feasibility_tolerance);
    CHECK(feasibility[0] == 0.0 && feasibility[2] <= feasibility_tolerance && feasibility[3] <= 2 * feasibility_tolerance);
    CHECK_STATUS(facto_solver_copy_output_double(s, "factor", Y, NN * 4, FACTO_ROW_MAJOR), FACTO_OK, "");
    CHECK_STATUS(facto_solver_copy_iterate(s, Q, NN * NN, FACTO_ROW_MAJOR), FACTO_OK, "");
    for (int k = 0; k < NN * 4; ++k) CHECK(Y[k] >= 0.0 && Y[k] <= 1.0);
    double q07 = 0.0;
    for (int k = 0; k < 4; ++k) q07 += Y[k] * Y[(NN - 1) * 4 + k];
    CHECK(fabs(q07 - Q[NN - 1]) < 1e-14 && Q[NN - 1] < 0.25 / 16 && Q[1] > 0.1);
    facto_solver_free(s);
    facto_problem_free(p);

    /* the layer: K = 1 makes Q = 1 1^T / n, by a solver on it and by the next layer's solver */
    CHECK_STATUS(facto_solver_new(layer, "nomad_cgm", &s), FACTO_OK, "");
    CHECK(facto_solver_solve(s) > 0 && facto_solver_solve(next) > 0);
    CHECK_STATUS(facto_solver_copy_iterate(s, Q, NN * NN, FACTO_ROW_MAJOR), FACTO_OK, "");
    CHECK(fabs(Q[3] - 1.0 / NN) < 1e-12);
    CHECK_STATUS(facto_solver_copy_iterate(next, Q, NN * NN, FACTO_ROW_MAJOR), FACTO_OK, "");
    CHECK(fabs(Q[3] - 1.0 / NN) < 1e-12);
    facto_solver_free(s);
    facto_solver_free(next);
    facto_problem_free(layer);

    /* the generators and the Gram matrix through the ABI */
    enum { RN = 20 };
    double rings[RN * 2];
    int64_t labels[RN];
    CHECK_STATUS(facto_manifold_points(FACTO_MANIFOLD_TWO_RINGS, RN, 1.5, 0.0, 1, rings, RN * 2, FACTO_ROW_MAJOR,
                                       labels, RN),
                 FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());
    CHECK_STATUS(facto_manifold_points(FACTO_MANIFOLD_TWO_RINGS, RN, 0.5, 0.0, 1, rings, RN * 2 - 1, FACTO_ROW_MAJOR,
                                       labels, RN),
                 FACTO_ERROR_BUFFER_TOO_SMALL, facto_last_error());
    CHECK_STATUS(facto_manifold_points(FACTO_MANIFOLD_TWO_RINGS, RN, 0.5, 0.0, 1, rings, RN * 2, FACTO_ROW_MAJOR,
                                       labels, RN),
                 FACTO_OK, "");
    CHECK(labels[0] == 0 && labels[RN - 1] == 1 && fabs(hypot(rings[2 * (RN - 1)], rings[2 * RN - 1]) - 0.5) < 1e-14);
    facto_matrix* gram = NULL;
    CHECK_STATUS(facto_nomad_gram(rings, RN, 2, 2, FACTO_ROW_MAJOR, &gram), FACTO_OK, "");
    int64_t rows = 0, cols = 0;
    facto_matrix_shape(gram, &rows, &cols);
    CHECK(rows == RN && cols == RN);
    const double* G = facto_matrix_data(gram);
    for (int i = 0; i < RN; ++i) {
        double sum = 0.0;
        for (int j = 0; j < RN; ++j) sum += G[i * RN + j];
        CHECK(fabs(sum) < 1e-12 && G[i * RN + (i + 3) % RN] == G[((i + 3) % RN) * RN + i]);
    }

    /* the same problem from the points, D kept as their centered, scaled coordinates: nomad_cgm forms
     * the same triangle (three steps agree to rounding), burer_monteiro runs on products with them */
    facto_problem *from_points = NULL, *from_gram = NULL, *from_sparse = NULL;
    CHECK_STATUS(facto_problem_new_nomad_points(rings, RN, 2, 2, FACTO_ROW_MAJOR, 4, &from_points), FACTO_OK, "");
    CHECK_STATUS(facto_problem_new_nomad(G, RN, RN, RN, FACTO_ROW_MAJOR, 4, &from_gram), FACTO_OK, "");
    CHECK(strcmp(facto_problem_kind(from_points), "nomad") == 0);
    /* and from the points as sparse (COO) rows, their centring implicit: the same triangle to rounding */
    int64_t point_row[RN * 2], point_col[RN * 2];
    for (int e = 0; e < RN * 2; ++e) point_row[e] = e / 2, point_col[e] = e % 2;
    CHECK_STATUS(facto_problem_new_nomad_points_sparse(FACTO_SPARSE_COO, RN, 2, RN * 2, point_row, point_col, rings, 4,
                                                       &from_sparse),
                 FACTO_OK, facto_last_error());
    /* and from the points in single precision (column-major: the copy kept), D of the same values as
     * doubles: nomad_cgm's steps agree with those on the widened points to rounding */
    float single[RN * 2];
    double widened[RN * 2];
    for (int e = 0; e < RN * 2; ++e) single[(e % 2) * RN + e / 2] = (float)rings[e], widened[e] = (double)(float)rings[e];
    facto_problem *from_single = NULL, *from_widened = NULL;
    CHECK_STATUS(facto_problem_new_nomad_points_float(single, RN, 2, RN, FACTO_COL_MAJOR, 4, &from_single), FACTO_OK,
                 facto_last_error());
    CHECK_STATUS(facto_problem_new_nomad_points(widened, RN, 2, 2, FACTO_ROW_MAJOR, 4, &from_widened), FACTO_OK, "");
    facto_problem* five[5] = {from_points, from_gram, from_sparse, from_single, from_widened};
    double objectives[5];
    for (int which = 0; which < 5; ++which) {
        CHECK_STATUS(facto_solver_new(five[which], "nomad_cgm", &s), FACTO_OK, "");
        for (int t = 0; t < 3; ++t) facto_solver_step(s);
        CHECK_STATUS(facto_solver_progress(s, &np), FACTO_OK, "");
        objectives[which] = np.objective;
        facto_solver_free(s);
    }
    CHECK(fabs(objectives[0] - objectives[1]) <= 1e-9 * fabs(objectives[1]));
    CHECK(fabs(objectives[2] - objectives[1]) <= 1e-9 * fabs(objectives[1]));
    CHECK(fabs(objectives[3] - objectives[4]) <= 1e-9 * fabs(objectives[4]));
    facto_problem_free(from_widened);
    facto_problem_free(from_single);
    facto_problem_free(from_sparse);
    CHECK_STATUS(facto_solver_new(from_points, "burer_monteiro", &s), FACTO_OK, "");
    CHECK(facto_solver_solve(s) == FACTO_CONVERGED);
    CHECK_STATUS(facto_solver_copy_output_double(s, "feasibility", feasibility, 4, FACTO_ROW_MAJOR), FACTO_OK, "");
    facto_solver_get_double(s, "feasibility_tolerance", &feasibility_tolerance);
    CHECK(feasibility[0] == 0.0 && feasibility[2] <= feasibility_tolerance && feasibility[3] <= 4 * feasibility_tolerance);
    /* an upper bound of the optimum: above this nearly feasible Q's objective (its residuals 1e-5 move
     * Tr(D Q) by far less than 1e-3 of it) */
    CHECK_STATUS(facto_solver_copy_output_double(s, "upper_bound", &bound, 1, FACTO_ROW_MAJOR), FACTO_OK, "");
    CHECK_STATUS(facto_solver_progress(s, &np), FACTO_OK, "");
    CHECK(bound >= np.objective * (1.0 - 1e-3));
    int64_t point_labels[RN];
    CHECK_STATUS(facto_solver_copy_output_int64(s, "labels", point_labels, RN, FACTO_ROW_MAJOR), FACTO_OK, "");
    for (int i = 0; i < RN; ++i) CHECK(point_labels[i] >= 0 && point_labels[i] < RN);
    facto_solver_free(s);
    facto_problem_free(from_points);
    facto_problem_free(from_gram);
    facto_matrix_free(gram);
}

static void test_edm_and_sparse_helpers(void)
{
    enum { HN = 60 };
    double points[HN * 3];
    CHECK_STATUS(facto_helix_points(HN, 5, points, HN * 3 - 1), FACTO_ERROR_BUFFER_TOO_SMALL, facto_last_error());
    CHECK_STATUS(facto_helix_points(HN, 5, points, HN * 3), FACTO_OK, "");
    facto_sparse* pairs = (facto_sparse*)1;
    CHECK_STATUS(facto_sample_pairs(points, HN, 3, 3, FACTO_ROW_MAJOR, 1.5, 1, &pairs), FACTO_ERROR_INVALID_ARGUMENT,
                 facto_last_error());
    CHECK(pairs == NULL);
    CHECK_STATUS(facto_sample_pairs(points, HN, 3, 3, FACTO_ROW_MAJOR, 0.3, 1, &pairs), FACTO_OK, "");
    int64_t rows = 0, cols = 0, count = 0;
    CHECK_STATUS(facto_sparse_shape(pairs, &rows, &cols, &count), FACTO_OK, "");
    CHECK(rows == HN && cols == HN && count > 0 && count < HN * (HN - 1) / 2);
    int64_t* i = malloc((size_t)count * sizeof *i);
    int64_t* j = malloc((size_t)count * sizeof *j);
    double* d = malloc((size_t)count * sizeof *d);
    CHECK_STATUS(facto_sparse_copy_coo(pairs, i, j, d), FACTO_OK, "");
    int upper = 1;
    for (int64_t k = 0; k < count; ++k) upper &= i[k] < j[k] && d[k] > 0.0;
    CHECK(upper);
    facto_sparse_free(pairs);

    facto_problem* edm = NULL;
    const int64_t saved = j[0];
    j[0] = i[0];
    CHECK_STATUS(facto_problem_new_edm_completion(HN, 3, count, i, j, d, &edm), FACTO_ERROR_INVALID_ARGUMENT,
                 facto_last_error());
    CHECK(strstr(facto_last_error(), "pair 0") != NULL);
    j[0] = saved;
    CHECK_STATUS(facto_problem_new_edm_completion(HN, 3, count, i, j, d, &edm), FACTO_OK, "");
    CHECK(edm && strcmp(facto_problem_kind(edm), "edm_completion") == 0);
    double f_truth = 1.0;
    CHECK_STATUS(facto_problem_objective(edm, points, HN, 3, 3, FACTO_ROW_MAJOR, &f_truth), FACTO_OK, "");
    CHECK(f_truth < 1e-20);
    const char* kernels[] = {"universal", "gram"};
    for (int which = 0; which < 3; ++which) {
        facto_solver* s = NULL;
        CHECK_STATUS(facto_solver_new(edm, which < 2 ? "nolips" : "gradient_descent", &s), FACTO_OK, "");
        if (which < 2) CHECK_STATUS(facto_solver_set_string(s, "kernel", kernels[which]), FACTO_OK, "");
        facto_solver_set_int(s, "max_iterations", 30000);
        facto_solver_set_double(s, "tolerance", 1e-10);
        CHECK(facto_solver_solve(s) > 0);
        double X[HN * 3], nrmse = 1.0;
        CHECK_STATUS(facto_solver_copy_iterate(s, X, HN * 3, FACTO_ROW_MAJOR), FACTO_OK, "");
        CHECK_STATUS(facto_distance_nrmse(X, points, HN, 3, FACTO_ROW_MAJOR, 100000, 1, &nrmse), FACTO_OK, "");
        CHECK(nrmse < 1e-6);
        int64_t none = 0;
        CHECK_STATUS(facto_solver_output_count(s, &none), FACTO_OK, "");
        CHECK(none == 0);
        facto_solver_free(s);
    }
    facto_problem_free(edm);
    free(i);
    free(j);
    free(d);

    /* kNN graph of the Helix points -> CSR -> sparse symnmf; every SymNMF solver runs on it. */
    facto_sparse* graph = NULL;
    CHECK_STATUS(facto_knn_similarity(points, HN, 3, 3, FACTO_ROW_MAJOR, 0, 9, &graph), FACTO_ERROR_INVALID_ARGUMENT,
                 facto_last_error());
    /* the scaled graph is the graph of the scaled features: AUTO is min-max for the Gaussian graph, none for
       the cosine one; the same CSR, entry for entry, as scaling by hand. The automatic kernel of the Helix
       (signed, dense) is the Gaussian. */
    {
        double lo[3], hi[3], scaled[HN * 3];
        for (int c = 0; c < 3; ++c) {
            lo[c] = hi[c] = points[c];
            for (int i = 1; i < HN; ++i) {
                lo[c] = fmin(lo[c], points[i * 3 + c]);
                hi[c] = fmax(hi[c], points[i * 3 + c]);
            }
            for (int i = 0; i < HN; ++i) scaled[i * 3 + c] = 2.0 * (points[i * 3 + c] - lo[c]) / (hi[c] - lo[c]) - 1.0;
        }
        const struct { const double* x; int32_t kind, scaling; } pairs[3][2] = {
            {{scaled, FACTO_SIMILARITY_GAUSSIAN, FACTO_SCALE_NONE}, {points, FACTO_SIMILARITY_GAUSSIAN, FACTO_SCALE_AUTO}},
            {{points, FACTO_SIMILARITY_COSINE, FACTO_SCALE_NONE}, {points, FACTO_SIMILARITY_COSINE, FACTO_SCALE_AUTO}},
            {{scaled, FACTO_SIMILARITY_GAUSSIAN, FACTO_SCALE_NONE}, {points, FACTO_SIMILARITY_AUTO, FACTO_SCALE_AUTO}}};
        for (int t = 0; t < 3; ++t) {
            facto_sparse* g[2] = {NULL, NULL};
            for (int u = 0; u < 2; ++u)
                CHECK_STATUS(facto_knn_similarity_scaled(pairs[t][u].x, HN, 3, 3, FACTO_ROW_MAJOR, 0, pairs[t][u].kind,
                                                         pairs[t][u].scaling, &g[u]),
                             FACTO_OK, "");
            CHECK(same_sparse(g[0], g[1]));
            for (int u = 0; u < 2; ++u) facto_sparse_free(g[u]);
        }
        CHECK_STATUS(facto_knn_similarity_scaled(points, HN, 3, 3, FACTO_ROW_MAJOR, 0, FACTO_SIMILARITY_GAUSSIAN, 4, &graph),
                     FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());
        CHECK(graph == NULL);
    }
    {
        /* the HNSW search on 60 points finds every exact neighbour (its candidate list, 32, is half the
           points): the same graph to rounding; the automatic search is exact below FACTO_SEARCH_HNSW_FROM */
        CHECK(facto_knn_search_for(FACTO_SEARCH_HNSW_FROM - 1, FACTO_SEARCH_AUTO) == FACTO_SEARCH_EXACT);
        CHECK(facto_knn_search_for(FACTO_SEARCH_HNSW_FROM, FACTO_SEARCH_AUTO) == FACTO_SEARCH_HNSW);
        CHECK(facto_knn_search_for(10, FACTO_SEARCH_HNSW) == FACTO_SEARCH_HNSW);
        CHECK(facto_knn_search_for(10, 7) == -1);
        facto_sparse* g[2] = {NULL, NULL};
        for (int u = 0; u < 2; ++u)
            CHECK_STATUS(facto_knn_similarity_search(points, HN, 3, 3, FACTO_ROW_MAJOR, 0, FACTO_SIMILARITY_GAUSSIAN,
                                                     FACTO_SCALE_AUTO, u ? FACTO_SEARCH_HNSW : FACTO_SEARCH_EXACT, &g[u]),
                         FACTO_OK, "");
        CHECK(same_sparse(g[0], g[1]));
        for (int u = 0; u < 2; ++u) facto_sparse_free(g[u]);
        /* row-major rows with padding are read in place, column-major ones copied: the same graph, both
           searches, scaled or not */
        double padded[HN * 5], by_column[HN * 3];
        for (int i = 0; i < HN; ++i)
            for (int c = 0; c < 5; ++c) {
                padded[i * 5 + c] = c < 3 ? points[i * 3 + c] : NAN; /* the padding is never read */
                if (c < 3) by_column[i + c * HN] = points[i * 3 + c];
            }
        for (int u = 0; u < 2; ++u)
            for (int32_t scaling = FACTO_SCALE_NONE; scaling <= FACTO_SCALE_ZSCORE; ++scaling) {
                const int32_t search = u ? FACTO_SEARCH_HNSW : FACTO_SEARCH_EXACT;
                CHECK_STATUS(facto_knn_similarity_search(padded, HN, 3, 5, FACTO_ROW_MAJOR, 0, FACTO_SIMILARITY_GAUSSIAN,
                                                         scaling, search, &g[0]),
                             FACTO_OK, "");
                CHECK_STATUS(facto_knn_similarity_search(by_column, HN, 3, HN, FACTO_COL_MAJOR, 0,
                                                         FACTO_SIMILARITY_GAUSSIAN, scaling, search, &g[1]),
                             FACTO_OK, "");
                CHECK(same_sparse(g[0], g[1]));
                for (int v = 0; v < 2; ++v) facto_sparse_free(g[v]);
            }
        /* features in single precision, padded row-major (read in place) or column-major (copied), give the
           graph of the same values as doubles exactly, for both kernels, every scaling and both searches */
        float single_padded[HN * 5], single_by_column[HN * 3];
        double rounded[HN * 3];
        for (int i = 0; i < HN; ++i)
            for (int c = 0; c < 5; ++c) {
                single_padded[i * 5 + c] = c < 3 ? (float)points[i * 3 + c] : NAN;
                if (c < 3) single_by_column[i + c * HN] = (float)points[i * 3 + c];
                if (c < 3) rounded[i * 3 + c] = (double)(float)points[i * 3 + c];
            }
        for (int u = 0; u < 2; ++u)
            for (int32_t kind = FACTO_SIMILARITY_GAUSSIAN; kind <= FACTO_SIMILARITY_COSINE; ++kind)
                for (int32_t scaling = FACTO_SCALE_NONE; scaling <= FACTO_SCALE_ZSCORE; ++scaling) {
                    const int32_t search = u ? FACTO_SEARCH_HNSW : FACTO_SEARCH_EXACT;
                    facto_sparse* h[3] = {NULL, NULL, NULL};
                    CHECK_STATUS(facto_knn_similarity_search(rounded, HN, 3, 3, FACTO_ROW_MAJOR, 0, kind, scaling, search,
                                                             &h[0]),
                                 FACTO_OK, "");
                    CHECK_STATUS(facto_knn_similarity_search_float(single_padded, HN, 3, 5, FACTO_ROW_MAJOR, 0, kind,
                                                                   scaling, search, &h[1]),
                                 FACTO_OK, "");
                    CHECK_STATUS(facto_knn_similarity_search_float(single_by_column, HN, 3, HN, FACTO_COL_MAJOR, 0, kind,
                                                                   scaling, search, &h[2]),
                                 FACTO_OK, "");
                    CHECK(same_sparse(h[0], h[1]) && same_sparse(h[0], h[2]));
                    for (int v = 0; v < 3; ++v) facto_sparse_free(h[v]);
                }
        /* a file read in single precision holds the values facto_matrix_read holds, at its own pointer */
        {
            facto_matrix *as_double = NULL, *as_single = NULL;
            CHECK_STATUS(facto_write_csv("facto_capi_single.csv", rounded, HN, 3, 3, FACTO_ROW_MAJOR), FACTO_OK, "");
            CHECK_STATUS(facto_matrix_read("facto_capi_single.csv", &as_double), FACTO_OK, "");
            CHECK_STATUS(facto_matrix_read_float("facto_capi_single.csv", &as_single), FACTO_OK, facto_last_error());
            int64_t r = 0, c = 0;
            CHECK_STATUS(facto_matrix_shape(as_single, &r, &c), FACTO_OK, "");
            CHECK(r == HN && c == 3 && facto_matrix_data(as_single) == NULL && facto_matrix_data_float(as_double) == NULL);
            const float* f = facto_matrix_data_float(as_single);
            const double* d = facto_matrix_data(as_double);
            int same = f != NULL && d != NULL;
            for (int e = 0; same && e < HN * 3; ++e) same = (double)f[e] == d[e] && d[e] == rounded[e];
            CHECK(same);
            facto_matrix_free(as_double);
            facto_matrix_free(as_single);
            remove("facto_capi_single.csv");
        }
        /* the same points as COO triplets: the sparse rows' cosine graph is the dense rows' */
        int64_t ti[HN * 3], tj[HN * 3];
        for (int e = 0; e < HN * 3; ++e) ti[e] = e / 3, tj[e] = e % 3;
        CHECK_STATUS(facto_knn_similarity_sparse(FACTO_SPARSE_COO, HN, 3, HN * 3, ti, tj, points, 0,
                                                 FACTO_SIMILARITY_COSINE, FACTO_SCALE_AUTO, FACTO_SEARCH_AUTO, &g[0]),
                     FACTO_OK, "");
        CHECK_STATUS(facto_knn_similarity(points, HN, 3, 3, FACTO_ROW_MAJOR, 0, FACTO_SIMILARITY_COSINE, &g[1]), FACTO_OK,
                     "");
        CHECK(same_sparse(g[0], g[1]));
        for (int u = 0; u < 2; ++u) facto_sparse_free(g[u]);
    }
    CHECK_STATUS(facto_knn_similarity(points, HN, 3, 3, FACTO_ROW_MAJOR, 0, FACTO_SIMILARITY_GAUSSIAN, &graph),
                 FACTO_OK, "");
    int64_t nnz = 0;
    facto_sparse_shape(graph, &rows, &cols, &nnz);
    CHECK(nnz >= HN * 6); /* at least floor(log2 60) + 1 = 6 neighbours each */
    int64_t indptr[HN + 1];
    int64_t* indices = malloc((size_t)nnz * sizeof *indices);
    double* values = malloc((size_t)nnz * sizeof *values);
    CHECK_STATUS(facto_sparse_copy_csr(graph, indptr, indices, values), FACTO_OK, "");
    facto_sparse_free(graph);
    facto_problem* symnmf = NULL;
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_CSR, HN, HN, nnz, indptr, indices, values, 4, &symnmf),
                 FACTO_OK, "");
    const char* solvers[] = {"nolips", "projected_gradient", "beta_snmf", "coordinate_descent", "sym_hals", "sym_anls"};
    for (int k = 0; k < 6; ++k) {
        facto_solver* s = NULL;
        CHECK_STATUS(facto_solver_new(symnmf, solvers[k], &s), FACTO_OK, "");
        CHECK(s && strcmp(facto_solver_algorithm(s), solvers[k]) == 0);
        facto_solver_set_int(s, "max_iterations", 20);
        facto_progress first, last;
        first.struct_size = last.struct_size = sizeof first;
        CHECK_STATUS(facto_solver_step(s), FACTO_OK, "");
        facto_solver_progress(s, &first);
        CHECK(facto_solver_solve(s) > 0);
        facto_solver_progress(s, &last);
        CHECK(last.objective < first.objective);
        facto_solver_free(s);
    }
    facto_solver* g = NULL;
    CHECK_STATUS(facto_solver_new(symnmf, "nolips", &g), FACTO_OK, "");
    /* refused when set (not at the first step), and the kernel stays universal */
    CHECK_STATUS(facto_solver_set_string(g, "kernel", "gram"), FACTO_ERROR_UNSUPPORTED, facto_solver_last_error(g));
    const char* kernel = NULL;
    CHECK_STATUS(facto_solver_get_string(g, "kernel", &kernel), FACTO_OK, "");
    CHECK(kernel && strcmp(kernel, "universal") == 0);
    CHECK_STATUS(facto_solver_step(g), FACTO_OK, "");
    facto_solver_free(g);
    facto_problem_free(symnmf);
    free(indices);
    free(values);
    CHECK_STATUS(facto_sparse_read("/nonexistent/m.mtx", &graph), FACTO_ERROR_IO, facto_last_error());
}

/* The collectives of one process: every operation leaves the values as they are (allgather copies). */
static int destroyed;
static int32_t sum_one(void* user_data, double* values, int64_t count)
{
    (void)values, (void)count;
    if (!user_data) return 0;
    facto_set_last_error(FACTO_ERROR_IO, "the host says no"); /* non-NULL user_data: a failing host */
    return 3;
}
static int32_t max_one(void* user_data, int64_t* values, int64_t count)
{
    (void)user_data, (void)values, (void)count;
    return 0;
}
static int32_t allgather_one(void* user_data, const double* mine, double* all, const int64_t* counts, int64_t processes)
{
    (void)user_data;
    memcpy(all, mine, (size_t)counts[0] * sizeof(double));
    return processes == 1 ? 0 : 1;
}
static int32_t exchange_one(void* user_data, const double* send, const int64_t* send_counts, double* receive,
                            const int64_t* receive_counts, int64_t processes)
{
    (void)user_data;
    if (send_counts[0] > 0) memcpy(receive, send, (size_t)send_counts[0] * sizeof(double)); /* NULL when empty */
    return processes == 1 && send_counts[0] == receive_counts[0] ? 0 : 1;
}
static void count_destroy(void* user_data)
{
    (void)user_data;
    ++destroyed;
}

/* A distributed SymNMF on one process is the sparse SymNMF: same objective, same NoLips iterates (up to
 * the kernels' order of summation); the host's operations live until the last handle on them goes. */
static void test_distributed_one_process(void)
{
    double M[N * N];
    make_affinity(M);
    int64_t rows[N * N], cols[N * N];
    double values[N * N];
    for (int k = 0; k < N * N; ++k) rows[k] = k / N, cols[k] = k % N, values[k] = M[k];
    facto_collectives* c = NULL;
    destroyed = 0;
    CHECK_STATUS(facto_collectives_new(0, 1, sum_one, max_one, allgather_one, exchange_one, NULL, count_destroy, &c), FACTO_OK, "");
    facto_problem *sparse = NULL, *distributed = NULL;
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, N, N, N * N, rows, cols, values, K, &sparse), FACTO_OK,
                 "");
    CHECK_STATUS(facto_problem_new_symnmf_distributed(c, N, 0, FACTO_SPARSE_COO, N, N * N, rows, cols, values, K,
                                                      &distributed),
                 FACTO_OK, facto_last_error());
    facto_collectives_free(c);
    CHECK(destroyed == 0); /* the problem keeps the operations */
    CHECK(distributed && strcmp(facto_problem_kind(distributed), "distributed_symnmf") == 0);
    double X[N * K], f_sparse = 0.0, f_distributed = 0.0;
    for (int i = 0; i < N * K; ++i) X[i] = 0.1 + 0.01 * (i % 7);
    facto_problem_objective(sparse, X, N, K, K, FACTO_ROW_MAJOR, &f_sparse);
    CHECK_STATUS(facto_problem_objective(distributed, X, N, K, K, FACTO_ROW_MAJOR, &f_distributed), FACTO_OK, "");
    CHECK(fabs(f_sparse - f_distributed) <= 1e-12 * f_sparse);
    facto_solver* a = make_solver(sparse, "nolips");
    facto_solver* b = make_solver(distributed, "nolips");
    facto_solver_set_int(a, "reuse_products", 0); /* row blocks combine no products: the same arithmetic */
    facto_solver* solvers[2] = {a, b};
    for (int s = 0; s < 2; ++s) {
        facto_solver_set_int(solvers[s], "max_iterations", 30);
        facto_solver_set_double(solvers[s], "tolerance", 0.0);
        CHECK(facto_solver_solve(solvers[s]) == FACTO_ITERATION_LIMIT);
    }
    double Xa[N * K], Xb[N * K], largest = 0.0, diff = 0.0;
    facto_solver_copy_iterate(a, Xa, N * K, FACTO_ROW_MAJOR);
    facto_solver_copy_iterate(b, Xb, N * K, FACTO_ROW_MAJOR);
    for (int i = 0; i < N * K; ++i) {
        largest = fmax(largest, fabs(Xa[i]));
        diff = fmax(diff, fabs(Xa[i] - Xb[i]));
    }
    CHECK(diff <= 1e-12 * largest);
    facto_solver_free(a);
    facto_solver_free(b);
    facto_problem_free(sparse);
    facto_problem_free(distributed);
    CHECK(destroyed == 1);

    /* errors: the blocks must cover n rows; a failing host operation is FACTO_ERROR_IO; bad ranks */
    facto_problem* p = (facto_problem*)1;
    CHECK_STATUS(facto_collectives_new(0, 1, sum_one, max_one, allgather_one, exchange_one, NULL, NULL, &c), FACTO_OK, "");
    CHECK_STATUS(facto_problem_new_symnmf_distributed(c, N + 1, 0, FACTO_SPARSE_COO, N, N * N, rows, cols, values, K, &p),
                 FACTO_ERROR_DIMENSION, facto_last_error());
    CHECK(p == NULL && strstr(facto_last_error(), "cover") != NULL);
    CHECK_STATUS(facto_problem_new_symnmf_distributed(c, N, 0, FACTO_SPARSE_CSC, N, N * N, rows, cols, values, K, &p),
                 FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());
    CHECK_STATUS(facto_problem_new_symnmf_distributed(NULL, N, 0, FACTO_SPARSE_COO, N, N * N, rows, cols, values, K, &p),
                 FACTO_ERROR_NULL_POINTER, facto_last_error());
    facto_collectives_free(c);
    CHECK_STATUS(facto_collectives_new(0, 1, sum_one, max_one, allgather_one, exchange_one, &destroyed, NULL, &c), FACTO_OK, "");
    CHECK_STATUS(facto_problem_new_symnmf_distributed(c, N, 0, FACTO_SPARSE_COO, N, N * N, rows, cols, values, K, &p),
                 FACTO_ERROR_IO, facto_last_error());
    CHECK(strstr(facto_last_error(), "'sum'") != NULL && strstr(facto_last_error(), "returned 3): the host says no"));
    CHECK(facto_set_last_error(FACTO_ERROR_DIMENSION, "layered") == FACTO_ERROR_DIMENSION &&
          strcmp(facto_last_error(), "layered") == 0);
    CHECK(facto_set_last_error(FACTO_OK, NULL) == FACTO_OK && facto_last_error()[0] == '\0');
    facto_collectives_free(c);
    c = (facto_collectives*)1;
    CHECK_STATUS(facto_collectives_new(1, 1, sum_one, max_one, allgather_one, exchange_one, NULL, NULL, &c),
                 FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());
    CHECK(c == NULL);
    CHECK_STATUS(facto_collectives_new(0, 1, NULL, max_one, allgather_one, exchange_one, NULL, NULL, &c), FACTO_ERROR_NULL_POINTER,
                 facto_last_error());
    facto_collectives_free(NULL);
}

/* A problem too large for memory fails with OUT_OF_MEMORY before anything is allocated: the
 * constructors estimate what they and a solver will need. */
static void test_out_of_memory(void)
{
    const int64_t i[1] = {0}, j[1] = {1};
    const double d[1] = {1.0};
    facto_problem* p = (facto_problem*)1;
    CHECK_STATUS(facto_problem_new_edm_completion(4000000000LL, 1000, 1, i, j, d, &p), FACTO_ERROR_OUT_OF_MEMORY,
                 facto_last_error());
    CHECK(p == NULL && strstr(facto_last_error(), "GiB") != NULL);
    const int64_t ptr[2] = {0, 0};
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 3000000000LL, 3000000000LL, 0, ptr, ptr, d, 100000, &p),
                 FACTO_ERROR_OUT_OF_MEMORY, facto_last_error());
    CHECK(p == NULL);
    /* a caller matrix whose copy would not fit: checked before copying (the data pointer is never read) */
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(d, 3000000, 3000000, 3000000, FACTO_ROW_MAJOR, 3, &p),
                 FACTO_ERROR_OUT_OF_MEMORY, facto_last_error());
    CHECK(p == NULL && strstr(facto_last_error(), "P") != NULL);
}

/* The registry as the ABI exports it: every kind lists its algorithms with exactly one default, first,
 * and each listed algorithm runs on a problem of that kind (here simplicial_symnmf and nomad, built
 * below) while an unlisted name is refused with a message that lists them. */
static void test_algorithm_table(void)
{
    const int64_t kinds = facto_problem_kind_count();
    CHECK(kinds >= 4);
    CHECK(facto_problem_kind_name(-1) == NULL && facto_problem_kind_name(kinds) == NULL);
    for (int64_t i = 0; i < kinds; ++i) {
        const char* kind = facto_problem_kind_name(i);
        CHECK(kind != NULL && *kind != '\0');
        int64_t count = 0;
        CHECK_STATUS(facto_algorithm_count(kind, &count), FACTO_OK, facto_last_error());
        CHECK(count >= 1);
        int defaults = 0;
        for (int64_t a = 0; a < count; ++a) {
            facto_algorithm_info info;
            memset(&info, 0, sizeof info);
            info.struct_size = sizeof info;
            CHECK_STATUS(facto_algorithm_describe(kind, a, &info), FACTO_OK, facto_last_error());
            CHECK(info.struct_size == sizeof info && info.name && *info.name && info.description && *info.description);
            CHECK(info.is_default == (a == 0));
            defaults += info.is_default;
            for (int64_t b = 0; b < a; ++b) { /* names are unique within a kind */
                facto_algorithm_info earlier;
                earlier.struct_size = sizeof earlier;
                facto_algorithm_describe(kind, b, &earlier);
                CHECK(strcmp(earlier.name, info.name) != 0);
            }
        }
        CHECK(defaults == 1);
        facto_algorithm_info info;
        info.struct_size = sizeof info;
        CHECK_STATUS(facto_algorithm_describe(kind, count, &info), FACTO_ERROR_OUT_OF_RANGE, facto_last_error());
        CHECK_STATUS(facto_algorithm_describe(kind, -1, &info), FACTO_ERROR_OUT_OF_RANGE, facto_last_error());
    }
    int64_t count = -1;
    CHECK_STATUS(facto_algorithm_count("simplicial", &count), FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());
    CHECK(count == -1 && strstr(facto_last_error(), "simplicial_symnmf") != NULL);
    CHECK_STATUS(facto_algorithm_count(NULL, &count), FACTO_ERROR_NULL_POINTER, facto_last_error());
    CHECK_STATUS(facto_algorithm_count("nomad", NULL), FACTO_ERROR_NULL_POINTER, facto_last_error());
    CHECK_STATUS(facto_algorithm_describe("nomad", 0, NULL), FACTO_ERROR_NULL_POINTER, facto_last_error());
    /* an older caller's shorter struct gets what fits and nothing past it */
    struct {
        facto_algorithm_info head;
        unsigned char guard[8];
    } shorter;
    memset(&shorter, 0xAB, sizeof shorter);
    shorter.head.struct_size = (uint32_t)offsetof(facto_algorithm_info, description);
    CHECK_STATUS(facto_algorithm_describe("nomad", 0, &shorter.head), FACTO_OK, facto_last_error());
    CHECK(shorter.head.is_default == 1 && shorter.head.name != NULL);
    const unsigned char* tail = (const unsigned char*)&shorter.head.description;
    CHECK(tail[0] == 0xAB && shorter.guard[0] == 0xAB);
    shorter.head.struct_size = 4;
    CHECK_STATUS(facto_algorithm_describe("nomad", 0, &shorter.head), FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());

    double X[2 * N];
    for (int i = 0; i < N; ++i) X[2 * i] = (double)(i % K), X[2 * i + 1] = 0.1 * i;
    facto_problem* problems[2] = {make_problem(), NULL};
    facto_problem_new_nomad_points(X, N, 2, 2, FACTO_ROW_MAJOR, K, &problems[1]);
    for (int p = 0; p < 2; ++p) {
        CHECK(problems[p] != NULL);
        if (!problems[p]) continue;
        const char* kind = facto_problem_kind(problems[p]);
        CHECK_STATUS(facto_algorithm_count(kind, &count), FACTO_OK, facto_last_error());
        facto_solver* s = NULL;
        CHECK_STATUS(facto_solver_new(problems[p], "no_such_algorithm", &s), FACTO_ERROR_UNSUPPORTED, facto_last_error());
        char message[1024]; /* copied: the next call on this thread replaces facto_last_error() */
        snprintf(message, sizeof message, "%s", facto_last_error());
        for (int64_t a = 0; a < count; ++a) {
            facto_algorithm_info info;
            info.struct_size = sizeof info;
            facto_algorithm_describe(kind, a, &info);
            CHECK(strstr(message, info.name) != NULL);
        }
        for (int64_t a = 0; a < count; ++a) {
            facto_algorithm_info info;
            info.struct_size = sizeof info;
            facto_algorithm_describe(kind, a, &info);
            CHECK_STATUS(facto_solver_new(problems[p], info.name, &s), FACTO_OK, facto_last_error());
            /* a solver reports its name; a rule such as nomad's "auto" the name of one it made */
            int listed = 0;
            for (int64_t b = 0; s && b < count; ++b) {
                facto_algorithm_info made;
                made.struct_size = sizeof made;
                facto_algorithm_describe(kind, b, &made);
                listed += !strcmp(facto_solver_algorithm(s), made.name);
            }
            CHECK(s && listed == 1);
            CHECK(s && (!strcmp(facto_solver_algorithm(s), info.name) || !strcmp(info.name, "auto")));
            facto_solver_free(s);
        }
        facto_problem_free(problems[p]);
    }
}

/* The problem kinds' named parameters: a sound table, and the by-name constructors start from its
 * defaults (the problem built with none given is the positional one at those defaults: equal
 * objectives at one point) and refuse what the table refuses. */
static double param_default(const char* kind, const char* name)
{
    int64_t count = 0;
    facto_problem_param_count(kind, &count);
    for (int64_t i = 0; i < count; ++i) {
        facto_param_info info;
        info.struct_size = sizeof info;
        facto_problem_param_info(kind, i, &info);
        if (!strcmp(info.name, name)) return info.type == FACTO_PARAM_INT ? (double)info.default_int : info.default_double;
    }
    return NAN;
}

static double objective_at_barycenter(const facto_problem* p)
{
    int64_t rows = 0, cols = 0;
    facto_problem_iterate_shape(p, &rows, &cols);
    double* C = malloc((size_t)(rows * cols) * sizeof *C);
    double value = NAN;
    if (!C) return value;
    for (int64_t i = 0; i < rows * cols; ++i) C[i] = 1.0 / (double)rows;
    CHECK_STATUS(facto_problem_objective(p, C, rows, cols, cols, FACTO_ROW_MAJOR, &value), FACTO_OK,
                 facto_problem_last_error(p));
    free(C);
    return value;
}

static void test_problem_params(void)
{
    const int64_t kinds = facto_problem_kind_count();
    int with_params = 0;
    for (int64_t k = 0; k < kinds; ++k) {
        const char* kind = facto_problem_kind_name(k);
        int64_t count = -1;
        CHECK_STATUS(facto_problem_param_count(kind, &count), FACTO_OK, facto_last_error());
        with_params += count > 0;
        for (int64_t i = 0; i < count; ++i) {
            facto_param_info info;
            info.struct_size = sizeof info;
            CHECK_STATUS(facto_problem_param_info(kind, i, &info), FACTO_OK, facto_last_error());
            CHECK(info.name && *info.name && info.description && *info.description);
            if (info.type == FACTO_PARAM_INT)
                CHECK(info.lower_int <= info.default_int && info.default_int <= info.upper_int);
            else
                CHECK(info.type == FACTO_PARAM_DOUBLE && info.lower_double <= info.default_double &&
                      info.default_double <= info.upper_double);
            for (int64_t j = 0; j < i; ++j) {
                facto_param_info earlier;
                earlier.struct_size = sizeof earlier;
                facto_problem_param_info(kind, j, &earlier);
                CHECK(strcmp(earlier.name, info.name) != 0);
            }
        }
        facto_param_info info;
        info.struct_size = sizeof info;
        CHECK_STATUS(facto_problem_param_info(kind, count, &info), FACTO_ERROR_OUT_OF_RANGE, facto_last_error());
    }
    CHECK(with_params >= 3);
    int64_t count = 0;
    CHECK_STATUS(facto_problem_param_count("no_kind", &count), FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());
    CHECK_STATUS(facto_problem_param_count("topics", NULL), FACTO_ERROR_NULL_POINTER, facto_last_error());

    /* self_dictionary: by name with nothing given = positional at the table's defaults */
    enum { SM = 6, SK = 3, SN = 9 };
    double X[SM * SN];
    for (int i = 0; i < SM * SN; ++i) X[i] = 0.5 + 0.5 * sin(1.7 * i + 0.3);
    facto_problem *named = NULL, *positional = NULL, *other = NULL;
    CHECK_STATUS(facto_problem_new_self_dictionary_named(X, SM, SN, SN, FACTO_ROW_MAJOR, SK, 0, NULL, NULL, &named),
                 FACTO_OK, facto_last_error());
    CHECK_STATUS(facto_problem_new_self_dictionary(X, SM, SN, SN, FACTO_ROW_MAJOR, SK,
                                                   param_default("self_dictionary", "lambda"),
                                                   param_default("self_dictionary", "mu"), &positional),
                 FACTO_OK, facto_last_error());
    const char* names[] = {"mu", "lambda", "mu"};
    const double values[] = {1e-3, 0.25, 1e-2};
    CHECK_STATUS(facto_problem_new_self_dictionary_named(X, SM, SN, SN, FACTO_ROW_MAJOR, SK, 3, names, values, &other),
                 FACTO_OK, facto_last_error());
    if (named && positional && other) {
        const double f = objective_at_barycenter(named);
        CHECK(f == objective_at_barycenter(positional));
        facto_problem* given = NULL; /* a name given twice keeps the last */
        facto_problem_new_self_dictionary(X, SM, SN, SN, FACTO_ROW_MAJOR, SK, 0.25, 1e-2, &given);
        CHECK(given && objective_at_barycenter(other) == objective_at_barycenter(given));
        CHECK(objective_at_barycenter(other) != f);
        facto_problem_free(given);
    }
    facto_problem_free(named), facto_problem_free(positional), facto_problem_free(other);
    facto_problem* p = (facto_problem*)1;
    const char* unknown[] = {"lam"};
    const double one[] = {1.0}, negative[] = {-2.0};
    CHECK_STATUS(facto_problem_new_self_dictionary_named(X, SM, SN, SN, FACTO_ROW_MAJOR, SK, 1, unknown, one, &p),
                 FACTO_ERROR_UNKNOWN_PARAMETER, facto_last_error());
    CHECK(p == NULL && strstr(facto_last_error(), "lambda") != NULL);
    CHECK_STATUS(facto_problem_new_self_dictionary_named(X, SM, SN, SN, FACTO_ROW_MAJOR, SK, 1, names, negative, &p),
                 FACTO_ERROR_OUT_OF_RANGE, facto_last_error());
    CHECK_STATUS(facto_problem_new_self_dictionary_named(X, SM, SN, SN, FACTO_ROW_MAJOR, SK, 1, NULL, one, &p),
                 FACTO_ERROR_NULL_POINTER, facto_last_error());
    CHECK_STATUS(facto_problem_new_self_dictionary_named(X, SM, SN, SN, FACTO_ROW_MAJOR, SK, -1, NULL, NULL, &p),
                 FACTO_ERROR_INVALID_ARGUMENT, facto_last_error());

    /* topics: 8 documents over 6 terms (each in 2 to 7 of them); an integer parameter by name */
    int64_t row[48], col[48];
    double counts[48];
    int64_t nnz = 0;
    for (int d = 0; d < 8; ++d)
        for (int v = 0; v < 6; ++v)
            if ((d + v) % 4 != 0 && (d * v + v) % 5 != 1) row[nnz] = d, col[nnz] = v, counts[nnz++] = 1 + (d + 2 * v) % 3;
    const char* topic_names[] = {"min_df", "rank"};
    const double whole[] = {1.0, 3.0}, fractional[] = {1.5, 3.0};
    CHECK_STATUS(facto_problem_new_topics_named(FACTO_SPARSE_COO, 8, 6, nnz, row, col, counts, 2, 0, NULL, NULL, &named),
                 FACTO_OK, facto_last_error());
    CHECK_STATUS(facto_problem_new_topics(FACTO_SPARSE_COO, 8, 6, nnz, row, col, counts, 2,
                                          (int64_t)param_default("topics", "min_df"),
                                          (int64_t)param_default("topics", "rank"), param_default("topics", "lambda"),
                                          param_default("topics", "mu"), &positional),
                 FACTO_OK, facto_last_error());
    if (named && positional) CHECK(objective_at_barycenter(named) == objective_at_barycenter(positional));
    facto_problem_free(named), facto_problem_free(positional);
    CHECK_STATUS(facto_problem_new_topics_named(FACTO_SPARSE_COO, 8, 6, nnz, row, col, counts, 2, 2, topic_names,
                                                whole, &named),
                 FACTO_OK, facto_last_error());
    facto_problem_free(named);
    CHECK_STATUS(facto_problem_new_topics_named(FACTO_SPARSE_COO, 8, 6, nnz, row, col, counts, 2, 2, topic_names,
                                                fractional, &p),
                 FACTO_ERROR_PARAMETER_TYPE, facto_last_error());

    /* communities: a triangle; energy by name, and a solver by "auto" is the kind's default */
    const int64_t tr[6] = {0, 0, 1, 1, 2, 2}, tc[6] = {1, 2, 0, 2, 0, 1};
    const double ones[6] = {1, 1, 1, 1, 1, 1};
    const char* energy[] = {"energy"};
    const double too_much[] = {1.5};
    CHECK_STATUS(facto_problem_new_communities_named(FACTO_SPARSE_COO, 3, 3, 6, tr, tc, ones, 1, 1, energy, one, &named),
                 FACTO_OK, facto_last_error());
    facto_solver* s = NULL;
    CHECK_STATUS(facto_solver_new(named, "auto", &s), FACTO_OK, facto_last_error());
    facto_algorithm_info first;
    first.struct_size = sizeof first;
    facto_algorithm_describe("communities", 0, &first);
    CHECK(s && !strcmp(facto_solver_algorithm(s), first.name));
    facto_solver_free(s);
    facto_problem_free(named);
    CHECK_STATUS(facto_problem_new_communities_named(FACTO_SPARSE_COO, 3, 3, 6, tr, tc, ones, 1, 1, energy, too_much, &p),
                 FACTO_ERROR_OUT_OF_RANGE, facto_last_error());
}

/* A model from a solver applies the fit's rule: through the Gaussian feature rule the fitted points'
 * features give the rows their affinity rows give (1e-9: the rounding of two kernel sums through the
 * simplex solve), the labels of the fit, and a model rebuilt from its arrays applies bit for bit alike. */
static void test_models(void)
{
    double X[N * 2], rows[N * K], again[N * K];
    int64_t fitted[N], labels[N], relabelled[N];
    for (int i = 0; i < N; ++i) X[2 * i] = 10.0 * (i % K) + 0.1 * (i / K), X[2 * i + 1] = 0.05 * i;
    facto_matrix* P = NULL;
    CHECK_STATUS(facto_gaussian_affinity(X, N, 2, 2, FACTO_ROW_MAJOR, 1.0, FACTO_SCALE_MINMAX, &P), FACTO_OK,
                 facto_last_error());
    facto_problem* problem = NULL;
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(facto_matrix_data(P), N, N, N, FACTO_ROW_MAJOR, K, &problem),
                 FACTO_OK, facto_last_error());
    facto_solver* solver = make_solver(problem, "frank_wolfe");
    CHECK(facto_solver_solve(solver) == FACTO_CONVERGED);
    CHECK_STATUS(facto_solver_copy_output_int64(solver, "labels", fitted, N, FACTO_ROW_MAJOR), FACTO_OK,
                 facto_solver_last_error(solver));
    facto_model* model = NULL;
    CHECK_STATUS(facto_solver_model(solver, &model), FACTO_OK, facto_solver_last_error(solver));
    CHECK(strcmp(facto_model_kind(model), "simplicial_symnmf") == 0);
    int64_t cols = 0, count = 0;
    CHECK(facto_model_apply_columns(model, &cols) == FACTO_OK && cols == K);
    CHECK_STATUS(facto_model_apply(model, facto_matrix_data(P), N, N, N, FACTO_ROW_MAJOR, rows, N * K, labels, NULL), FACTO_OK,
                 facto_model_last_error(model));
    CHECK(memcmp(labels, fitted, sizeof labels) == 0);
    CHECK_STATUS(facto_model_use_gaussian_affinity(model, X, N, 2, 2, FACTO_ROW_MAJOR, 1.0, FACTO_SCALE_MINMAX), FACTO_OK,
                 facto_model_last_error(model));
    CHECK_STATUS(facto_model_apply(model, X, N, 2, 2, FACTO_ROW_MAJOR, again, N * K, relabelled, NULL), FACTO_OK,
                 facto_model_last_error(model));
    double largest = 0.0;
    for (int e = 0; e < N * K; ++e) largest = fmax(largest, fabs(rows[e] - again[e]));
    CHECK(largest < 1e-9);
    CHECK(memcmp(relabelled, fitted, sizeof labels) == 0);
    /* rebuilt from its arrays, as a saved model is reloaded */
    facto_model* copy = NULL;
    CHECK_STATUS(facto_model_new("simplicial_symnmf", &copy), FACTO_OK, facto_last_error());
    CHECK(facto_model_array_count(model, &count) == FACTO_OK && count == 4);
    for (int64_t a = 0; a < count; ++a) {
        const char* name = NULL;
        int64_t r = 0, c = 0;
        CHECK(facto_model_array_name(model, a, &name) == FACTO_OK);
        CHECK(facto_model_array_shape(model, name, &r, &c) == FACTO_OK);
        double* values = malloc(sizeof(double) * (size_t)(r * c));
        CHECK(facto_model_copy_array(model, name, values, r * c) == FACTO_OK);
        CHECK_STATUS(facto_model_set_array(copy, name, values, r, c), FACTO_OK, facto_model_last_error(copy));
        free(values);
    }
    double reloaded[N * K];
    CHECK(facto_model_apply(copy, X, N, 2, 2, FACTO_ROW_MAJOR, reloaded, N * K, NULL, NULL) == FACTO_OK);
    CHECK(memcmp(reloaded, again, sizeof again) == 0);
    facto_model_free(copy);
    /* described: the Gaussian rule's copy of the training points named as such; dropped, the model takes
     * affinity rows again, exactly as before the rule, and no longer the points */
    const char* description = NULL;
    char expected[128];
    CHECK_STATUS(facto_model_describe(model, &description), FACTO_OK, facto_model_last_error(model));
    snprintf(expected, sizeof expected, "{\"name\": \"rbf_features\", \"rows\": %d, \"cols\": 2,", N);
    CHECK(strstr(description, expected) != NULL);
    snprintf(expected, sizeof expected, "\"columns\": %d, \"training_features\": true,", K);
    CHECK(strstr(description, expected) != NULL);
    CHECK(strstr(description, "\"name\": \"W\", \"rows\"") != NULL);
    CHECK(facto_model_describe(model, NULL) == FACTO_ERROR_NULL_POINTER);
    CHECK(facto_model_drop_training_features(NULL) == FACTO_ERROR_NULL_POINTER);
    CHECK_STATUS(facto_model_drop_training_features(model), FACTO_OK, facto_model_last_error(model));
    CHECK(facto_model_array_count(model, &count) == FACTO_OK && count == 1);
    CHECK_STATUS(facto_model_describe(model, &description), FACTO_OK, facto_model_last_error(model));
    CHECK(strstr(description, "\"training_features\": true") == NULL);
    CHECK(facto_model_apply(model, X, N, 2, 2, FACTO_ROW_MAJOR, again, N * K, NULL, NULL) == FACTO_ERROR_DIMENSION);
    CHECK_STATUS(facto_model_apply(model, facto_matrix_data(P), N, N, N, FACTO_ROW_MAJOR, again, N * K, NULL, NULL),
                 FACTO_OK, facto_model_last_error(model));
    CHECK(memcmp(rows, again, sizeof again) == 0);
    /* a model still being filled has no columns yet */
    CHECK_STATUS(facto_model_new("nomad", &copy), FACTO_OK, facto_last_error());
    CHECK(facto_model_describe(copy, &description) == FACTO_OK);
    CHECK(strstr(description, "\"columns\": null, \"training_features\": false, \"arrays\": []") != NULL);
    facto_model_free(copy);
    facto_model_free(model);
    facto_solver_free(solver);
    facto_problem_free(problem);
    facto_matrix_free(P);

    /* NOMAD's means of the fitted points, from them dense or sparse (COO): the same sums in the same
     * order, so the same centers exactly, and the fit's labels for the fitted points */
    facto_problem* nomad = NULL;
    CHECK_STATUS(facto_problem_new_nomad_points(X, N, 2, 2, FACTO_ROW_MAJOR, K, &nomad), FACTO_OK, facto_last_error());
    solver = make_solver(nomad, "burer_monteiro");
    CHECK(facto_solver_solve(solver) == FACTO_CONVERGED);
    CHECK_STATUS(facto_solver_copy_output_int64(solver, "labels", fitted, N, FACTO_ROW_MAJOR), FACTO_OK,
                 facto_solver_last_error(solver));
    facto_model *by_dense = NULL, *by_sparse = NULL;
    CHECK_STATUS(facto_solver_model(solver, &by_dense), FACTO_OK, facto_solver_last_error(solver));
    CHECK_STATUS(facto_solver_model(solver, &by_sparse), FACTO_OK, facto_solver_last_error(solver));
    int64_t point_row[N * 2], point_col[N * 2];
    for (int e = 0; e < N * 2; ++e) point_row[e] = e / 2, point_col[e] = e % 2;
    CHECK_STATUS(facto_model_use_points(by_dense, X, N, 2, 2, FACTO_ROW_MAJOR), FACTO_OK, facto_model_last_error(by_dense));
    CHECK_STATUS(facto_model_use_points_sparse(by_sparse, FACTO_SPARSE_COO, N, 2, N * 2, point_row, point_col, X), FACTO_OK,
                 facto_model_last_error(by_sparse));
    double centers[2][K * 2];
    CHECK(facto_model_copy_array(by_dense, "centers", centers[0], K * 2) == FACTO_OK);
    CHECK(facto_model_copy_array(by_sparse, "centers", centers[1], K * 2) == FACTO_OK);
    CHECK(memcmp(centers[0], centers[1], sizeof centers[0]) == 0);
    int64_t e_cols = 0;
    CHECK(facto_model_apply_columns(by_sparse, &e_cols) == FACTO_OK && e_cols >= 1);
    double* embedded = malloc(sizeof(double) * (size_t)(N * e_cols));
    CHECK_STATUS(facto_model_apply(by_sparse, X, N, 2, 2, FACTO_ROW_MAJOR, embedded, N * e_cols, labels, NULL), FACTO_OK,
                 facto_model_last_error(by_sparse));
    CHECK(memcmp(labels, fitted, sizeof labels) == 0);
    /* the points must be the fitted ones */
    CHECK_STATUS(facto_model_use_points_sparse(by_sparse, FACTO_SPARSE_COO, N - 1, 2, 2, point_row, point_col, X),
                 FACTO_ERROR_DIMENSION, facto_model_last_error(by_sparse));
    free(embedded);
    facto_model_free(by_sparse);
    facto_model_free(by_dense);
    facto_solver_free(solver);
    facto_problem_free(nomad);
}

/* A SymNMF fit on the cosine kNN graph of sparse points (text-like: each cluster's own columns) keeps its
 * features sparse in the model: new points, dense or sparse, get the rows the dense rule gives them (the
 * same neighbours and similarities: the sparse sums skip only exact zeros), through a rebuilt copy too;
 * the rule's refusals. */
static void test_sparse_knn_model(void)
{
    enum { P = 2 * K, STORED = 2 * N };
    double dense[N * P] = {0}, values[STORED];
    int64_t row[STORED], col[STORED];
    for (int i = 0; i < N; ++i)
        for (int t = 0; t < 2; ++t) {
            const int e = 2 * i + t, c = 2 * (i % K) + t;
            row[e] = i, col[e] = c;
            values[e] = dense[i * P + c] = t == 0 ? 1.0 + 0.07 * i : 0.3 + 0.011 * i * i;
        }
    facto_sparse* graph = NULL;
    CHECK_STATUS(facto_knn_similarity_sparse(FACTO_SPARSE_COO, N, P, STORED, row, col, values, 4, FACTO_SIMILARITY_COSINE,
                                             FACTO_SCALE_NONE, FACTO_SEARCH_AUTO, &graph),
                 FACTO_OK, facto_last_error());
    int64_t r = 0, c = 0, nnz = 0;
    facto_sparse_shape(graph, &r, &c, &nnz);
    int64_t indptr[N + 1];
    int64_t* indices = malloc((size_t)nnz * sizeof *indices);
    double* weights = malloc((size_t)nnz * sizeof *weights);
    CHECK_STATUS(facto_sparse_copy_csr(graph, indptr, indices, weights), FACTO_OK, "");
    facto_problem* problem = NULL;
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_CSR, N, N, nnz, indptr, indices, weights, K, &problem),
                 FACTO_OK, facto_last_error());
    facto_solver* solver = make_solver(problem, "sym_hals");
    CHECK(facto_solver_solve(solver) > 0);
    facto_model *by_dense = NULL, *by_sparse = NULL, *copy = NULL;
    CHECK_STATUS(facto_solver_model(solver, &by_dense), FACTO_OK, facto_solver_last_error(solver));
    CHECK_STATUS(facto_solver_model(solver, &by_sparse), FACTO_OK, facto_solver_last_error(solver));
    CHECK_STATUS(facto_model_use_knn_similarity_search(by_dense, dense, N, P, P, FACTO_ROW_MAJOR, 4, FACTO_SIMILARITY_COSINE,
                                                       FACTO_SCALE_NONE, FACTO_SEARCH_EXACT),
                 FACTO_OK, facto_model_last_error(by_dense));
    CHECK_STATUS(facto_model_use_knn_similarity_sparse(by_sparse, FACTO_SPARSE_COO, N, P, STORED, row, col, values, 4,
                                                       FACTO_SIMILARITY_COSINE, FACTO_SCALE_NONE, FACTO_SEARCH_AUTO),
                 FACTO_OK, facto_model_last_error(by_sparse));
    int64_t count = 0;
    CHECK(facto_model_array_count(by_sparse, &count) == FACTO_OK && count == 8); /* H, 4 knn_csr_*, settings, scale, degree */
    CHECK(facto_model_array_shape(by_sparse, "knn_csr_data", &r, &c) == FACTO_OK && r == STORED && c == 1);
    CHECK(facto_model_array_shape(by_sparse, "knn_features", &r, &c) == FACTO_ERROR_UNKNOWN_PARAMETER);
    /* rebuilt from its arrays, as a saved model is reloaded */
    CHECK_STATUS(facto_model_new("symnmf", &copy), FACTO_OK, facto_last_error());
    for (int64_t a = 0; a < count; ++a) {
        const char* name = NULL;
        CHECK(facto_model_array_name(by_sparse, a, &name) == FACTO_OK);
        CHECK(facto_model_array_shape(by_sparse, name, &r, &c) == FACTO_OK);
        double* array = malloc(sizeof(double) * (size_t)(r * c));
        CHECK(facto_model_copy_array(by_sparse, name, array, r * c) == FACTO_OK);
        CHECK_STATUS(facto_model_set_array(copy, name, array, r, c), FACTO_OK, facto_model_last_error(copy));
        free(array);
    }
    double rows[4][N * K];
    int64_t labels[4][N];
    CHECK_STATUS(facto_model_apply(by_dense, dense, N, P, P, FACTO_ROW_MAJOR, rows[0], N * K, labels[0], NULL), FACTO_OK,
                 facto_model_last_error(by_dense));
    CHECK_STATUS(facto_model_apply_sparse(by_sparse, FACTO_SPARSE_COO, N, P, STORED, row, col, values, rows[1], N * K,
                                          labels[1], NULL),
                 FACTO_OK, facto_model_last_error(by_sparse));
    CHECK_STATUS(facto_model_apply(by_sparse, dense, N, P, P, FACTO_ROW_MAJOR, rows[2], N * K, labels[2], NULL), FACTO_OK,
                 facto_model_last_error(by_sparse));
    CHECK_STATUS(facto_model_apply(copy, dense, N, P, P, FACTO_ROW_MAJOR, rows[3], N * K, labels[3], NULL), FACTO_OK,
                 facto_model_last_error(copy));
    /* the same affinity rows up to the rounding of the dense rule's norms (1e-12 of rows of order 1) */
    double largest = 0.0, differs = 0.0;
    for (int v = 1; v < 4; ++v)
        for (int e = 0; e < N * K; ++e) {
            largest = fmax(largest, fabs(rows[0][e]));
            differs = fmax(differs, fabs(rows[v][e] - rows[0][e]));
        }
    CHECK(largest > 0.0 && differs <= 1e-12 * largest);
    for (int v = 1; v < 4; ++v) CHECK(memcmp(labels[v], labels[0], sizeof labels[0]) == 0);
    const char* description = NULL;
    CHECK_STATUS(facto_model_describe(by_sparse, &description), FACTO_OK, facto_model_last_error(by_sparse));
    CHECK(strstr(description, "\"name\": \"knn_csr_data\"") && strstr(description, "\"training_features\": true,"));
    /* refusals: an approximate search, no stored entry, other points; a model left as it was */
    CHECK_STATUS(facto_model_use_knn_similarity_sparse(by_sparse, FACTO_SPARSE_COO, N, P, STORED, row, col, values, 4,
                                                       FACTO_SIMILARITY_COSINE, FACTO_SCALE_NONE, FACTO_SEARCH_HNSW),
                 FACTO_ERROR_UNSUPPORTED, facto_model_last_error(by_sparse));
    CHECK_STATUS(facto_model_use_knn_similarity_sparse(by_sparse, FACTO_SPARSE_COO, N, P, 0, row, col, values, 4,
                                                       FACTO_SIMILARITY_COSINE, FACTO_SCALE_NONE, FACTO_SEARCH_AUTO),
                 FACTO_ERROR_INVALID_ARGUMENT, facto_model_last_error(by_sparse));
    CHECK_STATUS(facto_model_use_knn_similarity_sparse(by_sparse, FACTO_SPARSE_COO, N - 1, P, STORED - 2, row, col, values,
                                                       4, FACTO_SIMILARITY_COSINE, FACTO_SCALE_NONE, FACTO_SEARCH_AUTO),
                 FACTO_ERROR_DIMENSION, facto_model_last_error(by_sparse));
    CHECK(facto_model_array_count(by_sparse, &count) == FACTO_OK && count == 8);
    /* dropped: no copy of the points is left */
    CHECK_STATUS(facto_model_drop_training_features(by_sparse), FACTO_OK, facto_model_last_error(by_sparse));
    CHECK(facto_model_array_count(by_sparse, &count) == FACTO_OK && count == 1);
    facto_model_free(copy);
    facto_model_free(by_sparse);
    facto_model_free(by_dense);
    facto_solver_free(solver);
    facto_problem_free(problem);
    facto_sparse_free(graph);
    free(indices);
    free(weights);
}

int main(void)
{
    test_version();
    test_problem_errors();
    test_solver_errors();
    test_param_table();
    test_algorithm_table();
    test_problem_params();
    test_callback();
    test_free_rules();
    test_threads();
    test_request_stop_from_another_thread();
    test_data_helpers();
    test_symnmf();
    test_distributed_one_process();
    test_edm_and_sparse_helpers();
    test_self_dictionary();
    test_nomad();
    test_models();
    test_sparse_knn_model();
    test_out_of_memory();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
