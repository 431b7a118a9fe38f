/* Degenerate inputs through the C ABI: zero, constant and rank-one matrices, n = 1, k = 1, k = n,
 * identical and duplicated columns, for every problem and every solver. Each gives a clear error (a
 * status with a message) or a defined result: a finite objective, a finite iterate and finite outputs.
 * Where the answer is known (the one feasible point when k = 1), it is checked. Prints "N passed,
 * M failed". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Runs `algorithm` for 50 iterations; checks the outcome and returns the solver (NULL on error). */
static facto_solver* run(facto_problem* p, const char* algorithm, const char* variant, const char* what)
{
    facto_solver* s = NULL;
    CHECK_STATUS(facto_solver_new(p, algorithm, &s), FACTO_OK, facto_last_error());
    if (!s) return NULL;
    facto_solver_set_int(s, "max_iterations", 50);
    if (variant) facto_solver_set_string(s, "variant", variant);
    const facto_status st = facto_solver_solve(s);
    if (st < 0) { /* a clear error is a defined outcome */
        CHECK(facto_solver_last_error(s)[0] != '\0');
        if (st != FACTO_ERROR_INVALID_ARGUMENT) fprintf(stderr, "%s %s: %s\n", what, algorithm, facto_solver_last_error(s));
        CHECK(st == FACTO_ERROR_INVALID_ARGUMENT); /* the only one expected here: SPA without K */
        facto_solver_free(s);
        return NULL;
    }
    facto_progress pr;
    pr.struct_size = sizeof pr;
    facto_solver_progress(s, &pr);
    CHECK(isfinite(pr.objective) && !isnan(pr.stationarity));
    int64_t count = 0;
    facto_solver_output_count(s, &count);
    for (int64_t o = 0; o < count; ++o) {
        const char* name = NULL;
        int32_t type = 0;
        int64_t rows = 0, cols = 0;
        facto_solver_output_name(s, o, &name);
        CHECK_STATUS(facto_solver_output_shape(s, name, &type, &rows, &cols), FACTO_OK, facto_solver_last_error(s));
        if (type != FACTO_OUTPUT_DOUBLE || rows * cols == 0) continue;
        double* v = malloc(sizeof(double) * (size_t)(rows * cols));
        CHECK_STATUS(facto_solver_copy_output_double(s, name, v, rows * cols, FACTO_ROW_MAJOR), FACTO_OK,
                     facto_solver_last_error(s));
        int finite = 1;
        for (int64_t i = 0; i < rows * cols; ++i) finite &= isfinite(v[i]) != 0;
        if (!finite) fprintf(stderr, "%s %s: output %s is not finite\n", what, algorithm, name);
        CHECK(finite);
        free(v);
    }
    return s;
}

/* The iterate (rows x cols, row-major) is finite, and within `tolerance` of `expected` when given. */
static void check_iterate(facto_solver* s, int64_t rows, int64_t cols, const double* expected, double tolerance)
{
    double* X = malloc(sizeof(double) * (size_t)(rows * cols));
    CHECK_STATUS(facto_solver_copy_iterate(s, X, rows * cols, FACTO_ROW_MAJOR), FACTO_OK, facto_solver_last_error(s));
    double worst = 0.0;
    int finite = 1;
    for (int64_t i = 0; i < rows * cols; ++i) {
        finite &= isfinite(X[i]) != 0;
        if (expected) worst = fmax(worst, fabs(X[i] - expected[i]));
    }
    CHECK(finite && worst <= tolerance);
    free(X);
}

enum { N = 6 };

/* Square problems: simplicial SymNMF, SymNMF and NOMAD on M (n x n) with rank k. */
static void square(const char* kind, const char* what, const double* M, int64_t n, int64_t k)
{
    static const char* simplicial[] = {"frank_wolfe", "projected_gradient", "penalty_method", NULL};
    static const char* symnmf[] = {"nolips", "projected_gradient", "beta_snmf", "coordinate_descent", "sym_hals", "sym_anls", NULL};
    static const char* nomad[] = {"nomad_cgm", "burer_monteiro", "nomad_admm", NULL};
    facto_problem* p = NULL;
    const int is_nomad = !strcmp(kind, "nomad"), is_simplicial = !strcmp(kind, "simplicial");
    facto_status st = is_simplicial ? facto_problem_new_simplicial_symnmf(M, n, n, n, FACTO_ROW_MAJOR, k, &p)
                      : is_nomad    ? facto_problem_new_nomad(M, n, n, n, FACTO_ROW_MAJOR, k, &p)
                                    : facto_problem_new_symnmf(M, n, n, n, FACTO_ROW_MAJOR, k, &p);
    CHECK_STATUS(st, FACTO_OK, facto_last_error());
    if (st < 0) return;
    const char** algorithms = is_simplicial ? simplicial : is_nomad ? nomad : symnmf;
    /* k = 1 has one feasible point: W = 1 (simplicial), Q = 1 1^T / n (NOMAD) */
    double known[N * N];
    for (int64_t i = 0; i < n * n; ++i) known[i] = is_nomad ? 1.0 / (double)n : 1.0;
    for (int a = 0; algorithms[a]; ++a) {
        const int variants = is_simplicial && a == 0 ? 3 : 1;
        for (int v = 0; v < variants; ++v) {
            static const char* names[] = {"vanilla", "away", "pairwise"};
            facto_solver* s = run(p, algorithms[a], variants > 1 ? names[v] : NULL, what);
            if (!s) continue;
            const int exact = k == 1 && (is_nomad || is_simplicial);
            /* the simplex (k = 1; the penalty method's infeasible iterate within its feasibility measure) and
             * nomad_cgm's iterates (P shrinks geometrically to 0) and nomad_admm's projections reach the point;
             * Burer-Monteiro's Q = Y Y^T >= 0 is within 3 delta + tau of it (delta the largest row-sum
             * error, tau = |Tr Q - 1|: ||Q - E||_F^2 = (a - 1)^2 + 2 ||P Q u||^2 + ||P Q P||_F^2 with
             * u = 1 / sqrt(n), a = u^T Q u, P = I - u u^T, each term bounded by delta and tau) */
            double tolerance = 1e-6;
            if (exact && !strcmp(algorithms[a], "burer_monteiro")) {
                double f[4];
                facto_solver_copy_output_double(s, "feasibility", f, 4, FACTO_ROW_MAJOR);
                tolerance = 3.0 * f[2] + f[3] + 1e-12;
            }
            if (exact && !strcmp(algorithms[a], "penalty_method")) { /* |w_i - 1| = |(W 1)_i - 1| for k = 1 */
                facto_progress pr;
                pr.struct_size = sizeof pr;
                facto_solver_progress(s, &pr);
                tolerance = pr.feasibility + 1e-12;
            }
            check_iterate(s, n, is_nomad ? n : k, exact ? known : NULL, exact ? tolerance : 0.0);
            facto_solver_free(s);
        }
    }
    facto_problem_free(p);
}

static void test_square_problems(void)
{
    double zero[N * N] = {0}, ones[N * N], rank_one[N * N], one = 1.0, nothing = 0.0;
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            ones[i * N + j] = 1.0;
            rank_one[i * N + j] = (i + 1.0) * (j + 1.0);
        }
    const char* kinds[] = {"simplicial", "symnmf", "nomad"};
    for (int t = 0; t < 3; ++t) {
        square(kinds[t], "zero, k = 2", zero, N, 2);
        square(kinds[t], "zero, k = 1", zero, N, 1);
        square(kinds[t], "zero, k = n", zero, N, N);
        square(kinds[t], "constant, k = 2", ones, N, 2);
        square(kinds[t], "constant, k = n", ones, N, N);
        square(kinds[t], "rank one, k = 3", rank_one, N, 3);
        square(kinds[t], "n = 1", &one, 1, 1);
        square(kinds[t], "n = 1, zero", &nothing, 1, 1);
    }
}

static void test_self_dictionary(void)
{
    enum { M = 3, SN = 5 };
    double zero[M * SN] = {0}, identical[M * SN], duplicated[M * SN];
    for (int i = 0; i < M; ++i)
        for (int l = 0; l < SN; ++l) {
            identical[i * SN + l] = i + 1.0;
            duplicated[i * SN + l] = (i + 1.0) * (l % 2 + 1.0);
        }
    struct {
        const char* what;
        const double* X;
        int64_t K;
        double lambda;
    } cases[] = {{"zero X", zero, 2, -1.0},           {"zero X, lambda 0.1", zero, 2, 0.1},
                 {"identical columns", identical, 2, -1.0}, {"duplicated columns, K = 1", duplicated, 1, -1.0},
                 {"duplicated columns, K = N", duplicated, SN, -1.0}, {"K unknown", duplicated, 0, 0.1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        facto_problem* p = NULL;
        CHECK_STATUS(facto_problem_new_self_dictionary(cases[c].X, M, SN, SN, FACTO_ROW_MAJOR, cases[c].K,
                                                       cases[c].lambda, 1e-5, &p),
                     FACTO_OK, facto_last_error());
        if (!p) continue;
        const char* runs[][2] = {{"merit", "vanilla"}, {"merit", "away"}, {"merit", "pairwise"}, {"spa", NULL}};
        for (int r = 0; r < 4; ++r) {
            facto_solver* s = run(p, runs[r][0], runs[r][1], cases[c].what);
            if (!s) continue;
            check_iterate(s, SN, SN, NULL, 0.0);
            if (c == 0) { /* zero X: every H on the simplex fits; facto gives the uniform one */
                double H[2 * SN];
                CHECK_STATUS(facto_solver_copy_output_double(s, "H", H, 2 * SN, FACTO_ROW_MAJOR), FACTO_OK, "");
                for (int i = 0; i < 2 * SN; ++i) CHECK(fabs(H[i] - 0.5) < 1e-12);
            }
            facto_solver_free(s);
        }
        facto_problem_free(p);
    }
}

static void test_edm(void)
{
    const int64_t i[1] = {0}, j[1] = {1};
    const double zero[1] = {0.0}, four[1] = {4.0};
    const char* algorithms[] = {"nolips", "gradient_descent"};
    for (int c = 0; c < 2; ++c) {
        facto_problem* p = NULL;
        CHECK_STATUS(facto_problem_new_edm_completion(2, 1, 1, i, j, c ? four : zero, &p), FACTO_OK, facto_last_error());
        if (!p) continue;
        for (int a = 0; a < 2; ++a) {
            facto_solver* s = run(p, algorithms[a], NULL, c ? "two points 2 apart" : "two points at one place");
            if (!s) continue;
            check_iterate(s, 2, 1, NULL, 0.0);
            facto_solver_free(s);
        }
        facto_problem_free(p);
    }
}

/* Entries above 1e100 in magnitude are refused (OUT_OF_RANGE, the entry named): their products would
 * overflow (found by the fuzzer: X with 1e300 entries gave H = NaN). NaN stays NOT_FINITE. */
static void test_huge_entries(void)
{
    double P[4] = {1.0, 0.5, 0.5, 1e300};
    facto_problem* p = NULL;
    CHECK_STATUS(facto_problem_new_simplicial_symnmf(P, 2, 2, 2, FACTO_ROW_MAJOR, 1, &p), FACTO_ERROR_OUT_OF_RANGE,
                 facto_last_error());
    CHECK(strstr(facto_last_error(), "(1, 1)") != NULL);
    P[3] = NAN;
    CHECK_STATUS(facto_problem_new_self_dictionary(P, 2, 2, 2, FACTO_ROW_MAJOR, 1, 0.0, 1e-5, &p), FACTO_ERROR_NOT_FINITE,
                 facto_last_error());
    const int64_t i[1] = {0}, j[1] = {1};
    const double d[1] = {-1e300 * -1.0};
    CHECK_STATUS(facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 2, 2, 1, i, j, d, 1, &p), FACTO_ERROR_OUT_OF_RANGE,
                 facto_last_error());
    CHECK_STATUS(facto_problem_new_edm_completion(2, 1, 1, i, j, d, &p), FACTO_ERROR_OUT_OF_RANGE, facto_last_error());
    CHECK(p == NULL);
}

int main(void)
{
    test_square_problems();
    test_self_dictionary();
    test_edm();
    test_huge_entries();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
