/* Every input check of the C ABI, one bad call each. docs/validation.md lists the same checks by id;
 * argv[1] names that file, and the test fails when the table and the cases below do not name the same
 * checks. Each case asserts the check's own status, that the message contains the fragments naming the
 * argument and the offending value or index, and that a failed constructor leaves *out NULL. Writes
 * its scratch files into the working directory. Prints "N passed, M failed". */
#define _POSIX_C_SOURCE 200809L /* setenv, symlink, mkfifo */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

/* Valid fixtures, made once in main. */
static facto_problem *simplicial, *symnmf, *dictionary, *dictionary_no_K, *nomad;
static facto_solver *fw, *fresh_fw, *nomad_solver, *fresh_nomad;
/* What a constructor writes: a sentinel before each case, NULL after a failure. */
static facto_problem* out_problem;
static facto_solver* out_solver;
static facto_matrix* out_matrix;
static facto_sparse* out_sparse;
static facto_model* out_model;
static facto_model *model_fw, *model_nomad; /* the models of fw and nomad_solver */

/* 4 x 4 symmetric data and copies with one bad entry (made in main). */
static double P[16] = {4, 1, 0, 0, 1, 4, 1, 0, 0, 1, 4, 1, 0, 0, 1, 4};
static double P_nan[16], P_huge[16], P_asymmetric[16];
static float P_nan_single[16];
static double W_infeasible[8] = {0.7, 0.7, 0, 1, 0.5, 0.5, 1, 0}, W_negative[8] = {1, -1, 0, 1, 0.5, 0.5, 1, 0};
static double W_nan[8] = {NAN, 0, 0, 1, 0.5, 0.5, 1, 0}, W_huge[8] = {1e90, 0, 0, 1, 0.5, 0.5, 1, 0};
static double X36[18] = {1, 0, 0, 1, 0.5, 0.2, 0, 1, 0, 0.5, 0.5, 0.3, 0, 0, 1, 0, 0, 0.5}; /* 3 x 6 */
static double X36_inf[18];
static double zeros[8];
static double buffer[64];
static int64_t labels[64];
static const int64_t pair_i[2] = {0, 1}, pair_j[2] = {1, 2}, pair_far[2] = {1, 9}, pair_same[2] = {2, 2};
static const double pair_d[2] = {1, 2}, pair_d_inf[2] = {1, INFINITY}, pair_d_negative[2] = {1, -2};
static const double pair_d_huge[2] = {1, 1e200};
static const int64_t coo_row[2] = {0, 1}, coo_col[2] = {1, 0}, coo_col_far[2] = {1, 7}, coo_col_one[2] = {1, 1};
static const double coo_value[2] = {1, 1}, coo_nan[2] = {1, NAN}, coo_huge[2] = {1, 1e200};
static const int64_t csr_ptr[5] = {0, 1, 2, 2, 2}, csr_ptr_start[5] = {1, 1, 2, 2, 2};
static const int64_t csr_ptr_decreasing[5] = {0, 2, 1, 2, 2};
static const int64_t assigned[3] = {0, 1, 1};
/* a corpus of 3 documents x 4 terms, and a 4-node graph of two weighted edges (eigenvalues +-2, +-1) */
static const int64_t doc_row[6] = {0, 0, 1, 1, 2, 2}, doc_col[6] = {0, 1, 1, 2, 2, 3};
static const double doc_count[6] = {1, 2, 1, 3, 1, 1}, doc_fraction[6] = {1, 2, 1, 0.5, 1, 1};
static const char* const refine_name[1] = {"refine"};
static const double refine_two[1] = {2.0};
static const int64_t edge_row[4] = {0, 1, 2, 3}, edge_col[4] = {1, 0, 3, 2};
static const double edge_weight[4] = {1, 1, 2, 2};
static facto_progress small_progress = {2, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static facto_algorithm_info algorithm_info = {sizeof(facto_algorithm_info), 0, NULL, NULL};
static facto_algorithm_info small_algorithm_info = {2, 0, NULL, NULL};
static int64_t count;

/* The message of a case that made and freed its own handles. */
static char kept[1024];
static const char* keep(const char* message)
{
    snprintf(kept, sizeof kept, "%s", message);
    return kept;
}

/* Cases that need more than one call: each returns the status of the call under test, its message in
 * `kept`. */
static facto_status empty_model_columns(void)
{
    facto_model* model = NULL;
    facto_model_new("symnmf", &model);
    const facto_status st = facto_model_apply_columns(model, &count);
    keep(facto_model_last_error(model));
    facto_model_free(model);
    return st;
}

/* A model built from named arrays as facto_model_set_array builds one (names[i]: rows[i] x cols[i] of
 * values[i], the list ending at a NULL name), then asked for its apply columns; its message kept. */
typedef struct {
    const char* name;
    int64_t rows, cols;
    const double* values;
} named_array;

static facto_model* built(const char* kind, const named_array* arrays)
{
    facto_model* model = NULL;
    facto_model_new(kind, &model);
    for (; arrays->name; ++arrays) CHECK(facto_model_set_array(model, arrays->name, arrays->values, arrays->rows, arrays->cols) == FACTO_OK);
    return model;
}

static facto_status built_columns(const char* kind, const named_array* arrays)
{
    facto_model* model = built(kind, arrays);
    const facto_status st = facto_model_apply_columns(model, &count);
    keep(facto_model_last_error(model));
    facto_model_free(model);
    return st;
}

/* The arrays of the contract cases: a 4-point SymNMF factor with a kNN rule on 1 feature, NOMAD's labels
 * of 4 points, two communities' rows. */
static const double H4[8] = {1, 0, 1, 0, 0, 1, 0, 1}, H4_negative[8] = {1, -1, 1, 0, 0, 1, 0, 1};
static const double knn_x[4] = {0, 1, 5, 6}, knn_ones[4] = {1, 1, 1, 1}, knn_k9[3] = {9, 0, 1};
static const double rbf_scaling[2] = {0, 1}, rbf_bandwidth0[2] = {0, 1};
static const double nomad_labels[4] = {0, 0, 1, 1}, nomad_labels_half[4] = {0, 0.5, 1, 1}, nomad_centers[2] = {0, 1};
static const double pure_dependent[4] = {1, 1, 1, 1}, within2[2] = {0, 0};
static const double edm_far[8] = {1e90, 0, 0, 1, 1, 0, 1, 1};

static facto_status contract_knn_k(void)
{
    const named_array arrays[] = {{"H", 4, 2, H4},          {"knn_features", 4, 1, knn_x}, {"knn_settings", 1, 3, knn_k9},
                                  {"knn_scale", 4, 1, knn_ones}, {"knn_degree", 4, 1, knn_ones}, {NULL, 0, 0, NULL}};
    return built_columns("symnmf", arrays);
}

static facto_status contract_rule_partial(void)
{
    const double settings[3] = {2, 0, 1};
    const named_array arrays[] = {{"H", 4, 2, H4}, {"knn_features", 4, 1, knn_x}, {"knn_settings", 1, 3, settings},
                                  {"knn_degree", 4, 1, knn_ones}, {NULL, 0, 0, NULL}};
    return built_columns("symnmf", arrays);
}

static facto_status contract_bandwidth(void)
{
    const named_array arrays[] = {{"H", 4, 2, H4}, {"rbf_features", 4, 1, knn_x}, {"rbf_scaling", 2, 1, rbf_scaling},
                                  {"rbf_settings", 1, 2, rbf_bandwidth0}, {NULL, 0, 0, NULL}};
    return built_columns("symnmf", arrays);
}

static facto_status contract_negative(void)
{
    const named_array arrays[] = {{"H", 4, 2, H4_negative}, {NULL, 0, 0, NULL}};
    return built_columns("symnmf", arrays);
}

static facto_status contract_simplex(void)
{
    const named_array arrays[] = {{"W", 4, 2, W_infeasible}, {NULL, 0, 0, NULL}};
    return built_columns("simplicial_symnmf", arrays);
}

static facto_status contract_shape(void)
{
    const named_array arrays[] = {{"labels", 4, 1, nomad_labels}, {"embedding", 3, 2, H4}, {"center_labels", 2, 1, nomad_centers},
                                  {"within", 2, 1, within2}, {NULL, 0, 0, NULL}};
    return built_columns("nomad", arrays);
}

static facto_status contract_labels(void)
{
    const named_array arrays[] = {{"labels", 4, 1, nomad_labels_half}, {"embedding", 4, 2, H4},
                                  {"center_labels", 2, 1, nomad_centers}, {"within", 2, 1, within2}, {NULL, 0, 0, NULL}};
    return built_columns("nomad", arrays);
}

static facto_status contract_within_centers(void)
{
    const named_array arrays[] = {{"labels", 4, 1, nomad_labels}, {"embedding", 4, 2, H4}, {"center_labels", 2, 1, nomad_centers},
                                  {NULL, 0, 0, NULL}};
    return built_columns("nomad", arrays);
}

static facto_status contract_pure(void)
{
    const named_array arrays[] = {{"extension", 4, 2, H4}, {"pure", 2, 2, pure_dependent}, {NULL, 0, 0, NULL}};
    return built_columns("communities", arrays);
}

static facto_status save_contract(void)
{
    const named_array arrays[] = {{"H", 4, 2, H4_negative}, {NULL, 0, 0, NULL}};
    facto_model* model = built("symnmf", arrays);
    const facto_status st = facto_model_save(model, "facto_validation_contract_saved", NULL);
    keep(facto_model_last_error(model));
    facto_model_free(model);
    return st;
}

/* EDM positions of 1e90: a new point's residual, a fourth power, overflows. */
static facto_status apply_overflow(void)
{
    const named_array arrays[] = {{"X", 4, 2, edm_far}, {NULL, 0, 0, NULL}};
    facto_model* model = built("edm_completion", arrays);
    const double distances[4] = {1, 1, 1, 1};
    const facto_status st = facto_model_apply(model, distances, 1, 4, 4, FACTO_ROW_MAJOR, buffer, 64, labels, buffer + 32);
    keep(facto_model_last_error(model));
    facto_model_free(model);
    return st;
}

static facto_status with_budget(const char* mib)
{
    setenv("FACTO_MEMORY_LIMIT_MB", mib, 1);
    const facto_status status = facto_problem_new_nomad(P, 4, 4, 4, FACTO_ROW_MAJOR, 2, &out_problem);
    keep(facto_last_error());
    unsetenv("FACTO_MEMORY_LIMIT_MB");
    return status;
}

static facto_status step_with(facto_problem* problem, const char* algorithm)
{
    facto_solver* s = NULL;
    facto_status status = facto_solver_new(problem, algorithm, &s);
    if (status != FACTO_OK) return status;
    status = facto_solver_step(s);
    keep(facto_solver_last_error(s));
    facto_solver_free(s);
    return status;
}

/* A parameter a solver refuses when set (a conflict with the problem or another parameter), not at the
 * first step: the set fails, and the solver still steps with the value it had. */
static facto_status set_refused(facto_problem* problem, const char* algorithm, const char* name, const char* value)
{
    facto_solver* s = NULL;
    facto_status status = facto_solver_new(problem, algorithm, &s);
    if (status != FACTO_OK) return status;
    status = strcmp(name, "rank") == 0 ? facto_solver_set_int(s, name, atoi(value))
                                       : facto_solver_set_string(s, name, value);
    keep(facto_solver_last_error(s));
    const facto_status after = facto_solver_step(s);
    facto_solver_free(s);
    return after < 0 ? after : status;
}

static facto_status nomad_cgm_set_iterate(void)
{
    facto_solver* s = NULL;
    facto_solver_new(nomad, "nomad_cgm", &s);
    double Q[16];
    for (int i = 0; i < 16; ++i) Q[i] = i % 5 == 0 ? 0.5 : (i / 4 < 2) == (i % 4 < 2) ? 0.5 : 0.0; /* feasible, K = 2 */
    const facto_status status = facto_solver_set_iterate(s, Q, 4, 4, 4, FACTO_ROW_MAJOR);
    keep(facto_solver_last_error(s));
    facto_solver_free(s);
    return status;
}

/* merit on a self-dictionary problem of sparse points: refused when the solver is made. */
static facto_status merit_on_sparse_points(void)
{
    facto_problem* p = NULL;
    facto_status status = facto_problem_new_self_dictionary_sparse(FACTO_SPARSE_COO, 4, 4, 2, coo_row, coo_col, coo_value,
                                                                   2, 0, NULL, NULL, &p);
    if (status == FACTO_OK) status = step_with(p, "merit");
    keep(facto_last_error());
    facto_problem_free(p);
    return status;
}

static facto_status spa_set_iterate(void)
{
    facto_solver* s = NULL;
    facto_solver_new(dictionary, "spa", &s);
    double C[36] = {0};
    for (int l = 0; l < 6; ++l) C[l * 6 + l] = 1.0; /* feasible: columns on the simplex */
    const facto_status status = facto_solver_set_iterate(s, C, 6, 6, 6, FACTO_ROW_MAJOR);
    keep(facto_solver_last_error(s));
    facto_solver_free(s);
    return status;
}

static facto_status set_iterate_of(facto_problem* problem, const char* algorithm, const double* X)
{
    facto_solver* s = NULL;
    facto_solver_new(problem, algorithm, &s);
    const facto_status status = facto_solver_set_iterate(s, X, 4, 2, 2, FACTO_ROW_MAJOR);
    keep(facto_solver_last_error(s));
    facto_solver_free(s);
    return status;
}

static int32_t step_inside(const facto_solver* s, const facto_progress* progress, void* status)
{
    (void)progress;
    *(facto_status*)status = facto_solver_step((facto_solver*)s);
    keep(facto_solver_last_error(s));
    return 1;
}

static facto_status step_in_callback(void)
{
    facto_solver* s = NULL;
    facto_solver_new(simplicial, "frank_wolfe", &s);
    facto_status inner = FACTO_OK;
    facto_solver_set_callback(s, step_inside, &inner, NULL);
    facto_solver_step(s);
    facto_solver_free(s);
    return inner;
}

/* The dense iterate of self_dictionary is refused above 2^27 entries: N = 11600 > 2^13.5. */
static facto_status huge_dense_iterate(void)
{
    const int64_t N = 11600;
    double* X = malloc(sizeof(double) * N);
    for (int64_t l = 0; l < N; ++l) X[l] = 1.0 + (double)(l % 7);
    facto_problem* p = NULL;
    facto_solver* s = NULL;
    facto_problem_new_self_dictionary(X, 1, N, N, FACTO_ROW_MAJOR, 0, 0.0, 1e-5, &p);
    facto_solver_new(p, "merit", &s);
    facto_solver_step(s);
    const facto_status status = facto_solver_copy_iterate(s, buffer, 64, FACTO_ROW_MAJOR);
    keep(facto_solver_last_error(s));
    facto_solver_free(s);
    facto_problem_free(p);
    free(X);
    return status;
}

static void write_file(const char* path, const char* text, size_t size)
{
    FILE* f = fopen(path, "wb");
    fwrite(text, 1, size, f);
    fclose(f);
}

/* X(id, status, fragment, fragment, call, message): `call` must return `status` and `message`
 * (evaluated after it) must contain both fragments. */
#define CASES(X)                                                                                                       \
    /* dense matrices (every dense input goes through the same copy) */                                              \
    X(dense_null, FACTO_ERROR_NULL_POINTER, "P", "NULL",                                                             \
      facto_problem_new_simplicial_symnmf(NULL, 4, 4, 4, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())      \
    X(out_null, FACTO_ERROR_NULL_POINTER, "out", "NULL",                                                             \
      facto_problem_new_simplicial_symnmf(P, 4, 4, 4, FACTO_ROW_MAJOR, 2, NULL), facto_last_error())                 \
    X(dense_negative_shape, FACTO_ERROR_INVALID_ARGUMENT, "P", "-1 x 4",                                             \
      facto_problem_new_simplicial_symnmf(P, -1, 4, 4, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())        \
    X(dense_layout, FACTO_ERROR_INVALID_ARGUMENT, "layout", "got 7",                                                 \
      facto_problem_new_simplicial_symnmf(P, 4, 4, 4, 7, 2, &out_problem), facto_last_error())                       \
    X(dense_leading_dimension, FACTO_ERROR_INVALID_ARGUMENT, "leading dimension 3", "below 4",                       \
      facto_problem_new_simplicial_symnmf(P, 4, 4, 3, FACTO_COL_MAJOR, 2, &out_problem), facto_last_error())         \
    X(dense_unaddressable, FACTO_ERROR_OUT_OF_MEMORY, "P", "cannot be addressed",                                    \
      facto_problem_new_simplicial_symnmf(P, 1LL << 31, 1LL << 31, 1LL << 31, FACTO_ROW_MAJOR, 2, &out_problem),    \
      facto_last_error())                                                                                            \
    X(dense_out_of_memory, FACTO_ERROR_OUT_OF_MEMORY, "P", "GiB are available",                                      \
      facto_problem_new_simplicial_symnmf(P, 1LL << 24, 1LL << 24, 1LL << 24, FACTO_ROW_MAJOR, 2, &out_problem),    \
      facto_last_error())                                                                                            \
    X(dense_not_finite, FACTO_ERROR_NOT_FINITE, "P: entry (1, 2)", "nan",                                            \
      facto_problem_new_simplicial_symnmf(P_nan, 4, 4, 4, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())     \
    X(dense_magnitude, FACTO_ERROR_OUT_OF_RANGE, "P: entry (0, 3)", "1e+200",                                        \
      facto_problem_new_simplicial_symnmf(P_huge, 4, 4, 4, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())    \
    /* simplicial SymNMF and SymNMF */                                                                               \
    X(simplicial_not_square, FACTO_ERROR_DIMENSION, "square", "4 x 3",                                               \
      facto_problem_new_simplicial_symnmf(P, 4, 3, 4, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())         \
    X(simplicial_rank, FACTO_ERROR_DIMENSION, "k = 5", "n = 4",                                                      \
      facto_problem_new_simplicial_symnmf(P, 4, 4, 4, FACTO_ROW_MAJOR, 5, &out_problem), facto_last_error())         \
    X(simplicial_not_symmetric, FACTO_ERROR_NOT_SYMMETRIC, "P(0, 1) - P(1, 0)", "= 1",                               \
      facto_problem_new_simplicial_symnmf(P_asymmetric, 4, 4, 4, FACTO_ROW_MAJOR, 2, &out_problem),                 \
      facto_last_error())                                                                                            \
    X(symnmf_not_square, FACTO_ERROR_DIMENSION, "M must be square", "3 x 4",                                         \
      facto_problem_new_symnmf(P, 3, 4, 4, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())                    \
    X(symnmf_rank, FACTO_ERROR_DIMENSION, "r = 0", "n = 4",                                                          \
      facto_problem_new_symnmf(P, 4, 4, 4, FACTO_ROW_MAJOR, 0, &out_problem), facto_last_error())                    \
    X(symnmf_not_symmetric, FACTO_ERROR_NOT_SYMMETRIC, "M(0, 1) - M(1, 0)", "= 1",                                   \
      facto_problem_new_symnmf(P_asymmetric, 4, 4, 4, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())         \
    X(symnmf_out_of_memory, FACTO_ERROR_OUT_OF_MEMORY, "symnmf with n = 3000000000", "GiB are available",            \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 3000000000LL, 3000000000LL, 2, coo_row, coo_col, coo_value,  \
                                      8, &out_problem),                                                              \
      facto_last_error())                                                                                            \
    /* sparse SymNMF */                                                                                              \
    X(sparse_format, FACTO_ERROR_INVALID_ARGUMENT, "format", "got 5",                                                \
      facto_problem_new_symnmf_sparse(5, 4, 4, 2, coo_row, coo_col, coo_value, 2, &out_problem), facto_last_error()) \
    X(sparse_null_ptr, FACTO_ERROR_NULL_POINTER, "ptr", "NULL",                                                      \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 4, 4, 2, NULL, coo_col, coo_value, 2, &out_problem),         \
      facto_last_error())                                                                                            \
    X(sparse_null_array, FACTO_ERROR_NULL_POINTER, "value array", "nnz = 2",                                         \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 4, 4, 2, coo_row, coo_col, NULL, 2, &out_problem),           \
      facto_last_error())                                                                                            \
    X(sparse_negative_size, FACTO_ERROR_INVALID_ARGUMENT, "nnz = -1", "rows = 4",                                    \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 4, 4, -1, coo_row, coo_col, coo_value, 2, &out_problem),     \
      facto_last_error())                                                                                            \
    X(sparse_rank, FACTO_ERROR_DIMENSION, "r = 9", "n = 4",                                                          \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 4, 4, 2, coo_row, coo_col, coo_value, 9, &out_problem),      \
      facto_last_error())                                                                                            \
    X(sparse_not_square, FACTO_ERROR_DIMENSION, "M must be square", "4 x 3",                                         \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 4, 3, 2, coo_row, coo_col, coo_value, 2, &out_problem),      \
      facto_last_error())                                                                                            \
    X(sparse_index, FACTO_ERROR_INVALID_ARGUMENT, "entry 1 at (1, 7)", "outside 4 x 4",                              \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 4, 4, 2, coo_row, coo_col_far, coo_value, 2, &out_problem),  \
      facto_last_error())                                                                                            \
    X(sparse_not_finite, FACTO_ERROR_NOT_FINITE, "entry 1 at (1, 0)", "nan",                                         \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 4, 4, 2, coo_row, coo_col, coo_nan, 2, &out_problem),        \
      facto_last_error())                                                                                            \
    X(sparse_magnitude, FACTO_ERROR_OUT_OF_RANGE, "entry 1 at (1, 0)", "1e+200",                                     \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 4, 4, 2, coo_row, coo_col, coo_huge, 2, &out_problem),       \
      facto_last_error())                                                                                            \
    X(sparse_not_symmetric, FACTO_ERROR_NOT_SYMMETRIC, "M(0, 1) - M(1, 0)", "= 1",                                   \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, 4, 4, 2, coo_row, coo_col_one, coo_value, 2, &out_problem),  \
      facto_last_error())                                                                                            \
    X(sparse_nnz_mismatch, FACTO_ERROR_INVALID_ARGUMENT, "nnz = 3", "ptr[4] = 2",                                    \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_CSR, 4, 4, 3, csr_ptr, coo_col, coo_value, 2, &out_problem),      \
      facto_last_error())                                                                                            \
    X(sparse_ptr_start, FACTO_ERROR_INVALID_ARGUMENT, "indptr[0]", "got 1",                                          \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_CSR, 4, 4, 2, csr_ptr_start, coo_col, coo_value, 2,               \
                                      &out_problem),                                                                 \
      facto_last_error())                                                                                            \
    X(sparse_ptr_decreasing, FACTO_ERROR_INVALID_ARGUMENT, "decreases at 1", "2 then 1",                             \
      facto_problem_new_symnmf_sparse(FACTO_SPARSE_CSC, 4, 4, 2, csr_ptr_decreasing, coo_col, coo_value, 2,          \
                                      &out_problem),                                                                 \
      facto_last_error())                                                                                            \
    /* EDM completion */                                                                                             \
    X(edm_points, FACTO_ERROR_DIMENSION, "n = 1", "2 <= n",                                                          \
      facto_problem_new_edm_completion(1, 2, 2, pair_i, pair_j, pair_d, &out_problem), facto_last_error())           \
    X(edm_rank, FACTO_ERROR_DIMENSION, "r = 0", ">= 1",                                                              \
      facto_problem_new_edm_completion(4, 0, 2, pair_i, pair_j, pair_d, &out_problem), facto_last_error())           \
    X(edm_count, FACTO_ERROR_INVALID_ARGUMENT, "count = 0", "at least 1",                                            \
      facto_problem_new_edm_completion(4, 2, 0, pair_i, pair_j, pair_d, &out_problem), facto_last_error())           \
    X(edm_null_array, FACTO_ERROR_NULL_POINTER, "array d", "NULL",                                                   \
      facto_problem_new_edm_completion(4, 2, 2, pair_i, pair_j, NULL, &out_problem), facto_last_error())             \
    X(edm_index, FACTO_ERROR_INVALID_ARGUMENT, "pair 1 = (1, 9)", "[0, 4)",                                          \
      facto_problem_new_edm_completion(4, 2, 2, pair_i, pair_far, pair_d, &out_problem), facto_last_error())         \
    X(edm_same_index, FACTO_ERROR_INVALID_ARGUMENT, "pair 1 = (2, 2)", "distinct",                                   \
      facto_problem_new_edm_completion(4, 2, 2, pair_same, pair_j, pair_d, &out_problem), facto_last_error())        \
    X(edm_not_finite, FACTO_ERROR_NOT_FINITE, "d of pair 1", "inf",                                                  \
      facto_problem_new_edm_completion(4, 2, 2, pair_i, pair_j, pair_d_inf, &out_problem), facto_last_error())       \
    X(edm_negative, FACTO_ERROR_OUT_OF_RANGE, "d of pair 1 is -2", ">= 0",                                           \
      facto_problem_new_edm_completion(4, 2, 2, pair_i, pair_j, pair_d_negative, &out_problem), facto_last_error())  \
    X(edm_magnitude, FACTO_ERROR_OUT_OF_RANGE, "d of pair 1 is 1e+200", "1e100",                                     \
      facto_problem_new_edm_completion(4, 2, 2, pair_i, pair_j, pair_d_huge, &out_problem), facto_last_error())      \
    X(edm_out_of_memory, FACTO_ERROR_OUT_OF_MEMORY, "n = 2147483648, r = 1073741824", "GiB are available",           \
      facto_problem_new_edm_completion(1LL << 31, 1LL << 30, 2, pair_i, pair_j, pair_d, &out_problem),               \
      facto_last_error())                                                                                            \
    /* self-dictionary */                                                                                            \
    X(dictionary_shape, FACTO_ERROR_DIMENSION, "N >= 2", "3 x 1",                                                    \
      facto_problem_new_self_dictionary(X36, 3, 1, 6, FACTO_ROW_MAJOR, 0, 0.0, 1e-5, &out_problem),                  \
      facto_last_error())                                                                                            \
    X(dictionary_K, FACTO_ERROR_DIMENSION, "K = 7", "N = 6",                                                         \
      facto_problem_new_self_dictionary(X36, 3, 6, 6, FACTO_ROW_MAJOR, 7, 0.0, 1e-5, &out_problem),                  \
      facto_last_error())                                                                                            \
    X(dictionary_mu, FACTO_ERROR_OUT_OF_RANGE, "mu = 0", "(0, 1e100]",                                               \
      facto_problem_new_self_dictionary(X36, 3, 6, 6, FACTO_ROW_MAJOR, 2, 0.0, 0.0, &out_problem),                   \
      facto_last_error())                                                                                            \
    X(dictionary_not_finite_weight, FACTO_ERROR_NOT_FINITE, "mu = 1e-05", "lambda = nan",                            \
      facto_problem_new_self_dictionary(X36, 3, 6, 6, FACTO_ROW_MAJOR, 2, NAN, 1e-5, &out_problem),                  \
      facto_last_error())                                                                                            \
    X(dictionary_lambda_needs_K, FACTO_ERROR_INVALID_ARGUMENT, "lambda < 0", "needs K",                              \
      facto_problem_new_self_dictionary(X36, 3, 6, 6, FACTO_ROW_MAJOR, 0, -1.0, 1e-5, &out_problem),                 \
      facto_last_error())                                                                                            \
    X(dictionary_not_finite, FACTO_ERROR_NOT_FINITE, "X: entry (2, 5)", "inf",                                       \
      facto_problem_new_self_dictionary(X36_inf, 3, 6, 6, FACTO_ROW_MAJOR, 2, 0.0, 1e-5, &out_problem),              \
      facto_last_error())                                                                                            \
    /* topics and communities */                                                                                     \
    X(topics_count, FACTO_ERROR_OUT_OF_RANGE, "count (1, 2) = 0.5", "0 or at least 1",                               \
      facto_problem_new_topics(FACTO_SPARSE_COO, 3, 4, 6, doc_row, doc_col, doc_fraction, 2, 1, 0, 0.0, 1e-5,        \
                               &out_problem),                                                                        \
      facto_last_error())                                                                                            \
    X(topics_min_df, FACTO_ERROR_OUT_OF_RANGE, "min_df must be 0 (1% of the documents) or at least 1", "got -1",     \
      facto_problem_new_topics(FACTO_SPARSE_COO, 3, 4, 6, doc_row, doc_col, doc_count, 2, -1, 0, 0.0, 1e-5,          \
                               &out_problem),                                                                        \
      facto_last_error())                                                                                            \
    X(topics_refine, FACTO_ERROR_OUT_OF_RANGE, "'refine' = 2", "outside [0, 1]",                                    \
      facto_problem_new_topics_named(FACTO_SPARSE_COO, 3, 4, 6, doc_row, doc_col, doc_count, 2, 1, refine_name,       \
                                     refine_two, &out_problem),                                                      \
      facto_last_error())                                                                                            \
    X(topics_documents, FACTO_ERROR_DIMENSION, "at least 2 documents", "got 1",                                      \
      facto_problem_new_topics(FACTO_SPARSE_COO, 1, 4, 2, doc_row, doc_col, doc_count, 1, 1, 0, 0.0, 1e-5,           \
                               &out_problem),                                                                        \
      facto_last_error())                                                                                            \
    X(topics_K, FACTO_ERROR_DIMENSION, "4 terms", "too few for K = 5",                                               \
      facto_problem_new_topics(FACTO_SPARSE_COO, 3, 4, 6, doc_row, doc_col, doc_count, 5, 1, 0, 0.0, 1e-5,           \
                               &out_problem),                                                                        \
      facto_last_error())                                                                                            \
    X(topics_no_topic, FACTO_ERROR_DIMENSION, "K = 0", "at least 1",                                                 \
      facto_problem_new_topics(FACTO_SPARSE_COO, 3, 4, 6, doc_row, doc_col, doc_count, 0, 1, 0, 0.0, 1e-5,           \
                               &out_problem),                                                                        \
      facto_last_error())                                                                                            \
    X(topics_rank, FACTO_ERROR_DIMENSION, "rank = 1", "[K, N = 4]",                                                  \
      facto_problem_new_topics(FACTO_SPARSE_COO, 3, 4, 6, doc_row, doc_col, doc_count, 2, 1, 1, 0.0, 1e-5,           \
                               &out_problem),                                                                        \
      facto_last_error())                                                                                            \
    X(communities_not_square, FACTO_ERROR_DIMENSION, "must be square", "4 x 5",                                      \
      facto_problem_new_communities(FACTO_SPARSE_COO, 4, 5, 4, edge_row, edge_col, edge_weight, 2, 0.99, 0.0, 1e-5,  \
                                    &out_problem),                                                                   \
      facto_last_error())                                                                                            \
    X(communities_K, FACTO_ERROR_DIMENSION, "K = 4", "[1, N = 4)",                                                   \
      facto_problem_new_communities(FACTO_SPARSE_COO, 4, 4, 4, edge_row, edge_col, edge_weight, 4, 0.99, 0.0, 1e-5,  \
                                    &out_problem),                                                                   \
      facto_last_error())                                                                                            \
    X(communities_energy, FACTO_ERROR_OUT_OF_RANGE, "energy = 0", "(0, 1]",                                          \
      facto_problem_new_communities(FACTO_SPARSE_COO, 4, 4, 4, edge_row, edge_col, edge_weight, 2, 0.0, 0.0, 1e-5,   \
                                    &out_problem),                                                                   \
      facto_last_error())                                                                                            \
    X(communities_not_symmetric, FACTO_ERROR_NOT_SYMMETRIC, "adjacency", "(0, 1)",                                   \
      facto_problem_new_communities(FACTO_SPARSE_COO, 4, 4, 2, coo_row, coo_col_one, coo_value, 2, 0.99, 0.0, 1e-5,  \
                                    &out_problem),                                                                   \
      facto_last_error())                                                                                            \
    X(communities_kept, FACTO_ERROR_DIMENSION, "only 2 nodes kept", "raise energy",                                  \
      facto_problem_new_communities(FACTO_SPARSE_COO, 4, 4, 4, edge_row, edge_col, edge_weight, 3, 0.5, 0.0, 1e-5,   \
                                    &out_problem),                                                                   \
      facto_last_error())                                                                                            \
    /* NOMAD and its layers */                                                                                       \
    X(nomad_not_square, FACTO_ERROR_DIMENSION, "D must be square", "4 x 2",                                          \
      facto_problem_new_nomad(P, 4, 2, 4, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())                     \
    X(nomad_K, FACTO_ERROR_DIMENSION, "K = 0", "n = 4",                                                              \
      facto_problem_new_nomad(P, 4, 4, 4, FACTO_ROW_MAJOR, 0, &out_problem), facto_last_error())                     \
    X(nomad_not_symmetric, FACTO_ERROR_NOT_SYMMETRIC, "D(0, 1) - D(1, 0)", "= 1",                                    \
      facto_problem_new_nomad(P_asymmetric, 4, 4, 4, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())          \
    X(nomad_out_of_memory, FACTO_ERROR_OUT_OF_MEMORY, "D", "GiB are available",                                      \
      facto_problem_new_nomad(P, 1LL << 24, 1LL << 24, 1LL << 24, FACTO_ROW_MAJOR, 2, &out_problem),                 \
      facto_last_error())                                                                                            \
    X(memory_budget, FACTO_ERROR_OUT_OF_MEMORY, "needs about", "are allowed (FACTO_MEMORY_LIMIT_MB)",               \
      with_budget("0.000001"), kept)                                                                                 \
    X(memory_budget_invalid, FACTO_ERROR_INVALID_ARGUMENT, "FACTO_MEMORY_LIMIT_MB is 'lots'", "positive number",     \
      with_budget("lots"), kept)                                                                                     \
    X(nomad_points_null, FACTO_ERROR_NULL_POINTER, "X", "NULL",                                                      \
      facto_problem_new_nomad_points(NULL, 4, 2, 2, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())           \
    X(nomad_points_K, FACTO_ERROR_DIMENSION, "K = 5", "n = 4",                                                       \
      facto_problem_new_nomad_points(P, 4, 2, 2, FACTO_ROW_MAJOR, 5, &out_problem), facto_last_error())              \
    X(nomad_points_zero, FACTO_ERROR_INVALID_ARGUMENT, "nomad", "every point is 0",                                  \
      facto_problem_new_nomad_points(zeros, 4, 2, 2, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())          \
    X(nomad_points_nan, FACTO_ERROR_NOT_FINITE, "X", "",                                                             \
      facto_problem_new_nomad_points(P_nan, 4, 4, 4, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())          \
    X(nomad_points_ld, FACTO_ERROR_INVALID_ARGUMENT, "leading dimension", "",                                         \
      facto_problem_new_nomad_points(P, 4, 4, 3, FACTO_ROW_MAJOR, 2, &out_problem), facto_last_error())              \
    X(layer_null, FACTO_ERROR_NULL_POINTER, "previous", "NULL", facto_problem_new_nomad_layer(NULL, 1, &out_problem), facto_last_error())         \
    X(layer_kind, FACTO_ERROR_INVALID_ARGUMENT, "nomad solver", "simplicial_symnmf", facto_problem_new_nomad_layer(fw, 1, &out_problem),          \
      facto_last_error())                                                                                            \
    X(layer_no_iterate, FACTO_ERROR_BAD_STATE, "no iterate", "", facto_problem_new_nomad_layer(fresh_nomad, 1, &out_problem), facto_last_error()) \
    X(layer_K, FACTO_ERROR_OUT_OF_RANGE, "[1, 2]", "got 3", facto_problem_new_nomad_layer(nomad_solver, 3, &out_problem), facto_last_error())    \
    X(solver_layer_null, FACTO_ERROR_NULL_POINTER, "previous", "NULL",                                              \
      facto_solver_new_nomad_layer(NULL, 1, &out_solver), facto_last_error())                                        \
    X(solver_layer_kind, FACTO_ERROR_INVALID_ARGUMENT, "nomad solver", "simplicial_symnmf",                          \
      facto_solver_new_nomad_layer(fw, 1, &out_solver), facto_last_error())                                          \
    X(solver_layer_no_iterate, FACTO_ERROR_BAD_STATE, "no iterate", "",                                              \
      facto_solver_new_nomad_layer(fresh_nomad, 1, &out_solver), facto_last_error())                                 \
    X(solver_layer_K, FACTO_ERROR_OUT_OF_RANGE, "[1, 2]", "got 3",                                                   \
      facto_solver_new_nomad_layer(nomad_solver, 3, &out_solver), facto_last_error())                                \
    /* the registry */                                                                                               \
    X(algorithms_kind, FACTO_ERROR_INVALID_ARGUMENT, "'simplicial'", "simplicial_symnmf",                            \
      facto_algorithm_count("simplicial", &count), facto_last_error())                                              \
    X(algorithms_null_kind, FACTO_ERROR_NULL_POINTER, "kind", "NULL", facto_algorithm_count(NULL, &count),          \
      facto_last_error())                                                                                            \
    X(algorithms_index, FACTO_ERROR_OUT_OF_RANGE, "algorithm index 9", "'nomad'",                                    \
      facto_algorithm_describe("nomad", 9, &algorithm_info), facto_last_error())                                     \
    X(algorithms_struct_size, FACTO_ERROR_INVALID_ARGUMENT, "struct_size 2", "too small",                           \
      facto_algorithm_describe("nomad", 0, &small_algorithm_info), facto_last_error())                               \
    /* models */                                                                                                     \
    X(model_no_iterate, FACTO_ERROR_BAD_STATE, "no iterate", "", facto_solver_model(fresh_fw, &out_model),          \
      facto_solver_last_error(fresh_fw))                                                                             \
    X(model_null_solver, FACTO_ERROR_NULL_POINTER, "solver", "NULL", facto_solver_model(NULL, &out_model),          \
      facto_last_error())                                                                                            \
    X(model_kind, FACTO_ERROR_INVALID_ARGUMENT, "'kmeans'", "simplicial_symnmf", facto_model_new("kmeans", &out_model), \
      facto_last_error())                                                                                            \
    X(model_array_unknown, FACTO_ERROR_UNKNOWN_PARAMETER, "no array 'Q'", "W",                                      \
      facto_model_set_array(model_fw, "Q", P, 4, 4), facto_model_last_error(model_fw))                               \
    X(model_array_not_finite, FACTO_ERROR_NOT_FINITE, "W", "nan",                                                    \
      facto_model_set_array(model_fw, "W", W_nan, 4, 2), facto_model_last_error(model_fw))                           \
    X(model_array_missing, FACTO_ERROR_UNKNOWN_PARAMETER, "no array 'H'", "",                                        \
      facto_model_copy_array(model_fw, "H", buffer, 64), facto_model_last_error(model_fw))                           \
    X(model_array_index, FACTO_ERROR_OUT_OF_RANGE, "array index 5", "[0, 1)",                                        \
      facto_model_array_name(model_fw, 5, (const char**)(void*)buffer), facto_model_last_error(model_fw))            \
    X(model_array_buffer, FACTO_ERROR_BUFFER_TOO_SMALL, "holds 3 elements", "8 (4 x 2)",                             \
      facto_model_copy_array(model_fw, "W", buffer, 3), facto_model_last_error(model_fw))                            \
    X(model_apply_width, FACTO_ERROR_DIMENSION, "3 columns", "4 fitted points",                                      \
      facto_model_apply(model_fw, P, 2, 3, 3, FACTO_ROW_MAJOR, buffer, 64, labels, NULL), facto_model_last_error(model_fw)) \
    X(model_apply_not_finite, FACTO_ERROR_NOT_FINITE, "new data", "nan",                                             \
      facto_model_apply(model_fw, P_nan, 4, 4, 4, FACTO_ROW_MAJOR, buffer, 64, labels, NULL),                              \
      facto_model_last_error(model_fw))                                                                              \
    X(model_apply_buffer, FACTO_ERROR_BUFFER_TOO_SMALL, "holds 7 elements", "8 (4 x 2)",                             \
      facto_model_apply(model_fw, P, 4, 4, 4, FACTO_ROW_MAJOR, buffer, 7, labels, NULL), facto_model_last_error(model_fw))  \
    X(model_apply_null_out, FACTO_ERROR_NULL_POINTER, "out", "NULL",                                                 \
      facto_model_apply(model_fw, P, 4, 4, 4, FACTO_ROW_MAJOR, NULL, 64, labels, NULL), facto_model_last_error(model_fw))   \
    X(model_apply_sparse_format, FACTO_ERROR_INVALID_ARGUMENT, "format", "",                                         \
      facto_model_apply_sparse(model_fw, 9, 4, 4, 2, coo_row, coo_col, coo_value, buffer, 64, labels, NULL),               \
      facto_model_last_error(model_fw))                                                                              \
    X(model_rule_kind, FACTO_ERROR_INVALID_ARGUMENT, "Gaussian affinity", "nomad",                                   \
      facto_model_use_gaussian_affinity(model_nomad, P, 4, 4, 4, FACTO_ROW_MAJOR, 1.0, FACTO_SCALE_NONE),            \
      facto_model_last_error(model_nomad))                                                                           \
    X(model_rule_points, FACTO_ERROR_DIMENSION, "features have 3 points", "fitted on 4",                             \
      facto_model_use_knn_similarity(model_fw, X36, 3, 6, 6, FACTO_ROW_MAJOR, 1, FACTO_SIMILARITY_GAUSSIAN),         \
      facto_model_last_error(model_fw))                                                                              \
    X(model_rule_search, FACTO_ERROR_INVALID_ARGUMENT, "neighbour search's code 9", "hnsw (1)",                      \
      facto_model_use_knn_similarity_search(model_fw, P, 4, 4, 4, FACTO_ROW_MAJOR, 1, FACTO_SIMILARITY_GAUSSIAN,    \
                                            FACTO_SCALE_NONE, 9),                                                  \
      facto_model_last_error(model_fw))                                                                              \
    X(model_rule_sparse_empty, FACTO_ERROR_INVALID_ARGUMENT, "no stored entry", "every point is 0",                  \
      facto_model_use_knn_similarity_sparse(model_fw, FACTO_SPARSE_COO, 4, 4, 0, coo_row, coo_col, coo_value, 1,      \
                                            FACTO_SIMILARITY_COSINE, FACTO_SCALE_NONE, FACTO_SEARCH_AUTO),         \
      facto_model_last_error(model_fw))                                                                              \
    X(model_rule_sparse_hnsw, FACTO_ERROR_UNSUPPORTED, "HNSW search takes dense features", "searched exactly",       \
      facto_model_use_knn_similarity_sparse(model_fw, FACTO_SPARSE_COO, 4, 4, 2, coo_row, coo_col, coo_value, 1,      \
                                            FACTO_SIMILARITY_COSINE, FACTO_SCALE_NONE, FACTO_SEARCH_HNSW),         \
      facto_model_last_error(model_fw))                                                                              \
    X(model_rule_bandwidth, FACTO_ERROR_OUT_OF_RANGE, "bandwidth", "got -1",                                         \
      facto_model_use_gaussian_affinity(model_fw, P, 4, 4, 4, FACTO_ROW_MAJOR, -1.0, FACTO_SCALE_NONE),              \
      facto_model_last_error(model_fw))                                                                              \
    X(model_points_count, FACTO_ERROR_DIMENSION, "points are 3", "labels 4",                                         \
      facto_model_use_points(model_nomad, X36, 3, 6, 6, FACTO_ROW_MAJOR), facto_model_last_error(model_nomad))        \
    X(model_null, FACTO_ERROR_NULL_POINTER, "model", "NULL", facto_model_array_count(NULL, &count),                 \
      facto_last_error())                                                                                            \
    X(model_arrays_missing, FACTO_ERROR_BAD_STATE, "symnmf model has no array 'H'", "", empty_model_columns(), kept) \
    X(model_gram_shape, FACTO_ERROR_DIMENSION, "D is 4 x 2", "labels 4",                                             \
      facto_model_use_gram(model_nomad, P, 4, 2, 2, FACTO_ROW_MAJOR), facto_model_last_error(model_nomad))            \
    X(model_save_settings, FACTO_ERROR_INVALID_ARGUMENT, "settings", "JSON object",                                  \
      facto_model_save(model_fw, "facto_validation_model", "[1]"), facto_model_last_error(model_fw))                 \
    X(model_load_missing, FACTO_ERROR_IO, "facto_validation_no_model/model.json", "saved model",                    \
      facto_model_load("facto_validation_no_model", &out_model), facto_last_error())                                 \
    X(model_load_format, FACTO_ERROR_PARSE, "model.json", "not a facto model",                                       \
      facto_model_load("facto_validation_bad_model", &out_model), facto_last_error())                                \
    X(model_load_version, FACTO_ERROR_UNSUPPORTED, "format_version 2", "reads 1",                                    \
      facto_model_load("facto_validation_version_model", &out_model), facto_last_error())                            \
    X(model_load_name, FACTO_ERROR_UNKNOWN_PARAMETER, "no array '../facto_validation_model/W'", "its arrays: W",    \
      facto_model_load("facto_validation_name_model", &out_model), facto_last_error())                               \
    X(model_load_twice, FACTO_ERROR_PARSE, "model.json", "'W' twice",                                                \
      facto_model_load("facto_validation_twice_model", &out_model), facto_last_error())                              \
    X(model_load_settings, FACTO_ERROR_PARSE, "model.json", "JSON object",                                           \
      facto_model_load("facto_validation_settings_model", &out_model), facto_last_error())                           \
    X(model_load_link, FACTO_ERROR_IO, "facto_validation_link_model/W.npy", "symbolic link",                         \
      facto_model_load("facto_validation_link_model", &out_model), facto_last_error())                               \
    X(model_load_not_regular, FACTO_ERROR_IO, "facto_validation_fifo_model/W.npy", "a FIFO",                         \
      facto_model_load("facto_validation_fifo_model", &out_model), facto_last_error())                               \
    X(model_load_truncated, FACTO_ERROR_PARSE, "facto_validation_truncated_model/W.npy", "shorter",                  \
      facto_model_load("facto_validation_truncated_model", &out_model), facto_last_error())                          \
    X(model_load_empty_array, FACTO_ERROR_DIMENSION, "facto_validation_empty_model/W.npy", "0 x 2",                  \
      facto_model_load("facto_validation_empty_model", &out_model), facto_last_error())                              \
    X(model_load_contract, FACTO_ERROR_BAD_STATE, "the model in 'facto_validation_contract_model'", "'W' has entry", \
      facto_model_load("facto_validation_contract_model", &out_model), facto_last_error())                           \
    X(model_contract_shape, FACTO_ERROR_BAD_STATE, "'embedding' is 3 x 2", "4 x any", contract_shape(), kept)       \
    X(model_contract_negative, FACTO_ERROR_BAD_STATE, "'H' has entry (0, 1) = -1", ">= 0", contract_negative(), kept) \
    X(model_contract_simplex, FACTO_ERROR_BAD_STATE, "'W' has row 0 summing to 1.4", "simplex", contract_simplex(), kept) \
    X(model_contract_integer, FACTO_ERROR_BAD_STATE, "'knn_settings' holds k = 9", "[1, 3]", contract_knn_k(), kept) \
    X(model_contract_bandwidth, FACTO_ERROR_BAD_STATE, "'rbf_settings' holds the bandwidth 0", "> 0",               \
      contract_bandwidth(), kept)                                                                                    \
    X(model_contract_rule, FACTO_ERROR_BAD_STATE, "not 'knn_scale'", "all of its arrays", contract_rule_partial(), kept) \
    X(model_contract_labels, FACTO_ERROR_BAD_STATE, "'labels' entry 1 is 0.5", "not an integer", contract_labels(), kept) \
    X(model_contract_within_centers, FACTO_ERROR_BAD_STATE, "neither 'within' nor 'centers'", "new points",         \
      contract_within_centers(), kept)                                                                               \
    X(model_contract_pure, FACTO_ERROR_BAD_STATE, "'pure' rows are linearly dependent", "condition",                \
      contract_pure(), kept)                                                                                         \
    X(model_save_contract, FACTO_ERROR_BAD_STATE, "'H' has entry (0, 1) = -1", "", save_contract(), kept)           \
    X(model_save_foreign_file, FACTO_ERROR_IO, "facto_validation_foreign/W.npy' is there", "not a file of",        \
      facto_model_save(model_fw, "facto_validation_foreign", NULL), facto_model_last_error(model_fw))                \
    X(model_save_foreign_json, FACTO_ERROR_IO, "facto_validation_foreign_json/model.json' is there",               \
      "not a facto model's", facto_model_save(model_fw, "facto_validation_foreign_json", NULL),                      \
      facto_model_last_error(model_fw))                                                                              \
    X(model_apply_overflow, FACTO_ERROR_NUMERICAL, "new point 0 overflows", "rescale", apply_overflow(), kept)     \
    /* problem queries */                                                                                            \
    X(objective_shape, FACTO_ERROR_DIMENSION, "4 x 2", "3 x 2",                                                      \
      facto_problem_objective(simplicial, W_infeasible, 3, 2, 2, FACTO_ROW_MAJOR, buffer),                           \
      facto_problem_last_error(simplicial))                                                                          \
    X(objective_not_finite, FACTO_ERROR_NOT_FINITE, "X: entry (0, 0)", "nan",                                        \
      facto_problem_objective(simplicial, W_nan, 4, 2, 2, FACTO_ROW_MAJOR, buffer),                                  \
      facto_problem_last_error(simplicial))                                                                          \
    X(objective_overflow, FACTO_ERROR_NUMERICAL, "objective at X is inf", "overflows",                            \
      facto_problem_objective(simplicial, W_huge, 4, 2, 2, FACTO_ROW_MAJOR, buffer),                                 \
      facto_problem_last_error(simplicial))                                                                          \
    X(objective_null_value, FACTO_ERROR_NULL_POINTER, "value", "NULL",                                               \
      facto_problem_objective(simplicial, W_infeasible, 4, 2, 2, FACTO_ROW_MAJOR, NULL),                             \
      facto_problem_last_error(simplicial))                                                                          \
    X(problem_null, FACTO_ERROR_NULL_POINTER, "problem", "NULL", facto_problem_iterate_shape(NULL, labels, labels),  \
      facto_last_error())                                                                                            \
    /* solvers: creation, parameters, iterates, outputs */                                                           \
    X(solver_algorithm, FACTO_ERROR_UNSUPPORTED, "newton", "simplicial_symnmf",                                      \
      facto_solver_new(simplicial, "newton", &out_solver), facto_last_error())                                       \
    X(solver_null_problem, FACTO_ERROR_NULL_POINTER, "problem", "NULL",                                              \
      facto_solver_new(NULL, "frank_wolfe", &out_solver), facto_last_error())                                        \
    X(solver_null, FACTO_ERROR_NULL_POINTER, "solver", "NULL", facto_solver_step(NULL), facto_last_error())          \
    X(parameter_unknown, FACTO_ERROR_UNKNOWN_PARAMETER, "'speed'", "max_iterations",                                 \
      facto_solver_set_double(fw, "speed", 1.0), facto_solver_last_error(fw))                                        \
    X(parameter_type, FACTO_ERROR_PARAMETER_TYPE, "'max_iterations'", "int",                                         \
      facto_solver_set_string(fw, "max_iterations", "many"), facto_solver_last_error(fw))                            \
    X(parameter_double_bounds, FACTO_ERROR_OUT_OF_RANGE, "'tolerance' = -1", "[0, inf]",                             \
      facto_solver_set_double(fw, "tolerance", -1.0), facto_solver_last_error(fw))                                   \
    X(parameter_nan, FACTO_ERROR_OUT_OF_RANGE, "'time_limit' = nan", "[0, inf]",                                     \
      facto_solver_set_double(fw, "time_limit", NAN), facto_solver_last_error(fw))                                   \
    X(parameter_int_bounds, FACTO_ERROR_OUT_OF_RANGE, "'max_iterations' = -5", "outside [",                          \
      facto_solver_set_int(fw, "max_iterations", -5), facto_solver_last_error(fw))                                   \
    X(parameter_choice, FACTO_ERROR_OUT_OF_RANGE, "'variant' = 'fastest'", "vanilla|away|pairwise",                  \
      facto_solver_set_string(fw, "variant", "fastest"), facto_solver_last_error(fw))                                \
    X(parameter_index, FACTO_ERROR_OUT_OF_RANGE, "parameter index 99", "outside [0, ",                               \
      facto_solver_param_info(fw, 99, NULL), facto_solver_last_error(fw))                                            \
    X(struct_size, FACTO_ERROR_INVALID_ARGUMENT, "struct_size 2", "too small",                                       \
      facto_solver_progress(fw, &small_progress), facto_solver_last_error(fw))                                       \
    X(iterate_before_start, FACTO_ERROR_BAD_STATE, "no iterate", "",                                                 \
      facto_solver_copy_iterate(fresh_fw, buffer, 64, FACTO_ROW_MAJOR), facto_solver_last_error(fresh_fw))           \
    X(iterate_buffer, FACTO_ERROR_BUFFER_TOO_SMALL, "holds 3 elements", "8 (4 x 2)",                                 \
      facto_solver_copy_iterate(fw, buffer, 3, FACTO_ROW_MAJOR), facto_solver_last_error(fw))                        \
    X(iterate_layout, FACTO_ERROR_INVALID_ARGUMENT, "layout", "got 9",                                               \
      facto_solver_copy_iterate(fw, buffer, 64, 9), facto_solver_last_error(fw))                                     \
    X(set_iterate_shape, FACTO_ERROR_DIMENSION, "4 x 2", "3 x 2",                                                    \
      facto_solver_set_iterate(fw, W_infeasible, 3, 2, 2, FACTO_ROW_MAJOR), facto_solver_last_error(fw))             \
    X(set_iterate_not_finite, FACTO_ERROR_NOT_FINITE, "iterate: entry (0, 0)", "nan",                                \
      set_iterate_of(simplicial, "frank_wolfe", W_nan), kept)                                                        \
    X(set_iterate_off_simplex, FACTO_ERROR_INFEASIBLE, "row 0", "sums to 1.4",                                       \
      set_iterate_of(simplicial, "frank_wolfe", W_infeasible), kept)                                                 \
    X(set_iterate_negative, FACTO_ERROR_INFEASIBLE, "iterate", "X >= 0",                                             \
      set_iterate_of(symnmf, "nolips", W_negative), kept)                                                            \
    X(output_unknown, FACTO_ERROR_UNKNOWN_PARAMETER, "'bogus'", "gaps",                                              \
      facto_solver_copy_output_double(fw, "bogus", buffer, 64, FACTO_ROW_MAJOR), facto_solver_last_error(fw))        \
    X(output_type, FACTO_ERROR_PARAMETER_TYPE, "'gaps'", "element type",                                             \
      facto_solver_copy_output_int64(fw, "gaps", labels, 64, FACTO_ROW_MAJOR), facto_solver_last_error(fw))          \
    X(output_index, FACTO_ERROR_OUT_OF_RANGE, "output index -1", "outside [0, ",                                     \
      facto_solver_output_name(fw, -1, (const char**)(void*)buffer), facto_solver_last_error(fw))                    \
    X(step_in_callback, FACTO_ERROR_BAD_STATE, "step", "callback", step_in_callback(), kept)                         \
    X(step_rule_for_variant, FACTO_ERROR_INVALID_ARGUMENT, "open_loop", "pairwise",                                  \
      set_refused(simplicial, "frank_wolfe", "step_rule", "open_loop"), kept)                                        \
    X(spa_needs_K, FACTO_ERROR_INVALID_ARGUMENT, "spa", "K", step_with(dictionary_no_K, "spa"), kept)    \
    X(spa_takes_no_iterate, FACTO_ERROR_UNSUPPORTED, "spa", "iterate", spa_set_iterate(), kept)                      \
    X(merit_on_sparse_points, FACTO_ERROR_UNSUPPORTED, "merit needs the points dense", "on sparse X take spa",         \
      merit_on_sparse_points(), kept)                                                                                \
    X(merit_warm_start_needs_K, FACTO_ERROR_INVALID_ARGUMENT, "spa", "K",                                            \
      set_refused(dictionary_no_K, "merit", "warm_start", "spa"), kept)                                              \
    X(nomad_cgm_takes_no_iterate, FACTO_ERROR_UNSUPPORTED, "nomad_cgm", "iterate", nomad_cgm_set_iterate(), kept)    \
    X(dense_iterate_too_large, FACTO_ERROR_UNSUPPORTED, "11600 x 11600", "selected", huge_dense_iterate(), kept)                 \
    X(burer_monteiro_rank, FACTO_ERROR_OUT_OF_RANGE, "rank must be in [K, n] = [2, 4]", "got 1",                     \
      set_refused(nomad, "burer_monteiro", "rank", "1"), kept)                                                       \
    X(gram_kernel_constrained, FACTO_ERROR_UNSUPPORTED, "kernel 'gram'", "X >= 0",                                   \
      set_refused(symnmf, "nolips", "kernel", "gram"), kept)                                                         \
    /* files */                                                                                                      \
    X(read_missing, FACTO_ERROR_IO, "facto_validation_missing.csv", "cannot open",                                   \
      facto_matrix_read("facto_validation_missing.csv", &out_matrix), facto_last_error())                            \
    X(read_word, FACTO_ERROR_PARSE, "line 2", "field",                                                               \
      facto_matrix_read("facto_validation_word.csv", &out_matrix), facto_last_error())                               \
    X(read_ragged, FACTO_ERROR_PARSE, "line 2", "fields",                                                            \
      facto_matrix_read("facto_validation_ragged.csv", &out_matrix), facto_last_error())                             \
    X(read_npy_dtype, FACTO_ERROR_UNSUPPORTED, "facto_validation.npy", "<c16",                                       \
      facto_matrix_read("facto_validation.npy", &out_matrix), facto_last_error())                                    \
    X(read_float_inexact, FACTO_ERROR_UNSUPPORTED, "entry (1, 0) = 0.1", "single precision",                         \
      facto_matrix_read_float("facto_validation_tenth.csv", &out_matrix), facto_last_error())                        \
    X(read_sparse_complex, FACTO_ERROR_UNSUPPORTED, "facto_validation_complex.mtx", "complex",                       \
      facto_sparse_read("facto_validation_complex.mtx", &out_sparse), facto_last_error())                            \
    X(read_sparse_entry, FACTO_ERROR_PARSE, "entry 2", "(3, 1) outside 2 x 2",                                                      \
      facto_sparse_read("facto_validation_entry.mtx", &out_sparse), facto_last_error())                              \
    X(write_missing_directory, FACTO_ERROR_IO, "facto_no_such_directory/a.csv", "for writing",                       \
      facto_write_csv("facto_no_such_directory/a.csv", P, 4, 4, 4, FACTO_ROW_MAJOR), facto_last_error())             \
    /* data helpers */                                                                                               \
    X(affinity_bandwidth, FACTO_ERROR_OUT_OF_RANGE, "bandwidth", "got -1",                                           \
      facto_gaussian_affinity(P, 4, 4, 4, FACTO_ROW_MAJOR, -1.0, FACTO_SCALE_NONE, &out_matrix), facto_last_error()) \
    X(affinity_scaling, FACTO_ERROR_INVALID_ARGUMENT, "scaling", "got 9",                                            \
      facto_gaussian_affinity(P, 4, 4, 4, FACTO_ROW_MAJOR, 1.0, 9, &out_matrix), facto_last_error())                 \
    X(consensus_runs, FACTO_ERROR_DIMENSION, "runs must be at least 1", "got 0 and 3",                              \
      facto_consensus(assigned, 0, 3, NULL, buffer, buffer + 1), facto_last_error())                               \
    X(consensus_null, FACTO_ERROR_NULL_POINTER, "cophenetic", "NULL",                                                \
      facto_consensus(assigned, 1, 3, NULL, NULL, buffer), facto_last_error())                                      \
    X(accuracy_n, FACTO_ERROR_DIMENSION, "n must be at least 1", "got 0",                                            \
      facto_clustering_accuracy(assigned, assigned, 0, buffer), facto_last_error())                                  \
    X(spearman_size, FACTO_ERROR_DIMENSION, "n must be at least 2", "1 x 2",                                        \
      facto_averaged_spearman(P, P, 1, 2, FACTO_ROW_MAJOR, buffer), facto_last_error())                              \
    X(spearman_not_finite, FACTO_ERROR_NOT_FINITE, "truth", "nan",                                                   \
      facto_averaged_spearman(P, P_nan, 4, 4, FACTO_ROW_MAJOR, buffer), facto_last_error())                         \
    X(spearman_null, FACTO_ERROR_NULL_POINTER, "src", "NULL",                                                        \
      facto_averaged_spearman(P, P, 4, 4, FACTO_ROW_MAJOR, NULL), facto_last_error())                                \
    X(kmeans_K, FACTO_ERROR_DIMENSION, "K = 5", "[1, 4]",                                                            \
      facto_kmeans(P, 4, 4, 4, FACTO_ROW_MAJOR, 5, 1, 1, labels), facto_last_error())                                \
    X(kmeans_replicates, FACTO_ERROR_OUT_OF_RANGE, "replicates", "at least 1",                                       \
      facto_kmeans(P, 4, 4, 4, FACTO_ROW_MAJOR, 2, 0, 1, labels), facto_last_error())                                \
    X(kmeans_no_coordinates, FACTO_ERROR_DIMENSION, "at least one coordinate", "",                                   \
      facto_kmeans(P, 4, 0, 1, FACTO_ROW_MAJOR, 2, 1, 1, labels), facto_last_error())                                \
    X(kmeans_not_finite, FACTO_ERROR_NOT_FINITE, "X", "nan",                                                         \
      facto_kmeans(P_nan, 4, 4, 4, FACTO_ROW_MAJOR, 2, 1, 1, labels), facto_last_error())                            \
    X(knn_kind, FACTO_ERROR_INVALID_ARGUMENT, "kind", "got 4",                                                       \
      facto_knn_similarity(P, 4, 4, 4, FACTO_ROW_MAJOR, 1, 4, &out_sparse), facto_last_error())                      \
    X(knn_k, FACTO_ERROR_OUT_OF_RANGE, "k = 4", "",                                                                  \
      facto_knn_similarity(P, 4, 4, 4, FACTO_ROW_MAJOR, 4, FACTO_SIMILARITY_COSINE, &out_sparse),                    \
      facto_last_error())                                                                                            \
    X(knn_negative_k, FACTO_ERROR_OUT_OF_RANGE, "k must be >= 0", "got -1",                                          \
      facto_knn_similarity(P, 4, 4, 4, FACTO_ROW_MAJOR, -1, FACTO_SIMILARITY_COSINE, &out_sparse),                   \
      facto_last_error())                                                                                            \
    X(knn_scaling, FACTO_ERROR_INVALID_ARGUMENT, "scaling", "got 7",                                                 \
      facto_knn_similarity_scaled(P, 4, 4, 4, FACTO_ROW_MAJOR, 1, FACTO_SIMILARITY_COSINE, 7, &out_sparse),          \
      facto_last_error())                                                                                            \
    X(knn_search, FACTO_ERROR_INVALID_ARGUMENT, "neighbour search's code -1", "auto (2)",                            \
      facto_knn_similarity_search(P, 4, 4, 4, FACTO_ROW_MAJOR, 1, FACTO_SIMILARITY_COSINE, FACTO_SCALE_NONE, -1,     \
                                  &out_sparse),                                                                      \
      facto_last_error())                                                                                            \
    X(knn_sparse_hnsw, FACTO_ERROR_UNSUPPORTED, "HNSW search takes dense features", "searched exactly",          \
      facto_knn_similarity_sparse(FACTO_SPARSE_COO, 3, 4, 6, doc_row, doc_col, doc_count, 1, FACTO_SIMILARITY_COSINE, \
                                  FACTO_SCALE_NONE, FACTO_SEARCH_HNSW, &out_sparse),                               \
      facto_last_error())                                                                                            \
    X(knn_float_not_finite, FACTO_ERROR_NOT_FINITE, "X: entry (1, 2)", "nan",                                       \
      facto_knn_similarity_search_float(P_nan_single, 4, 4, 4, FACTO_ROW_MAJOR, 1, FACTO_SIMILARITY_COSINE,           \
                                        FACTO_SCALE_NONE, FACTO_SEARCH_EXACT, &out_sparse),                          \
      facto_last_error())                                                                                            \
    X(knn_points, FACTO_ERROR_DIMENSION, "at least 2 points", "",                                                    \
      facto_knn_similarity(P, 1, 4, 4, FACTO_ROW_MAJOR, 1, FACTO_SIMILARITY_COSINE, &out_sparse),                    \
      facto_last_error())                                                                                            \
    X(helix_n, FACTO_ERROR_DIMENSION, "n must be at least 1", "got 0", facto_helix_points(0, 1, buffer, 64),         \
      facto_last_error())                                                                                            \
    X(helix_buffer, FACTO_ERROR_BUFFER_TOO_SMALL, "holds 64 elements", "90 (30 x 3)",                                \
      facto_helix_points(30, 1, buffer, 64), facto_last_error())                                                     \
    X(gram_zero_points, FACTO_ERROR_INVALID_ARGUMENT, "nomad", "every point is 0",                                   \
      facto_nomad_gram(zeros, 4, 2, 2, FACTO_ROW_MAJOR, &out_matrix), facto_last_error())                            \
    X(nomad_sparse_zero_points, FACTO_ERROR_INVALID_ARGUMENT, "nomad", "every point is 0",                          \
      facto_problem_new_nomad_points_sparse(FACTO_SPARSE_COO, 3, 4, 6, doc_row, doc_col, zeros, 2, &out_problem),     \
      facto_last_error())                                                                                            \
    X(nomad_float_not_finite, FACTO_ERROR_NOT_FINITE, "X: entry (1, 2)", "nan",                                     \
      facto_problem_new_nomad_points_float(P_nan_single, 4, 4, 4, FACTO_ROW_MAJOR, 2, &out_problem),                \
      facto_last_error())                                                                                            \
    X(manifold_kind, FACTO_ERROR_INVALID_ARGUMENT, "kind", "got 8",                                                  \
      facto_manifold_points(8, 10, 0.5, 0.0, 1, buffer, 64, FACTO_ROW_MAJOR, labels, 64), facto_last_error())        \
    X(manifold_factor, FACTO_ERROR_INVALID_ARGUMENT, "factor must be in (0, 1)", "got 1.5",                          \
      facto_manifold_points(FACTO_MANIFOLD_TWO_RINGS, 10, 1.5, 0.0, 1, buffer, 64, FACTO_ROW_MAJOR, labels, 64),     \
      facto_last_error())                                                                                            \
    X(manifold_noise, FACTO_ERROR_INVALID_ARGUMENT, "noise", "got -1",                                               \
      facto_manifold_points(FACTO_MANIFOLD_TWO_MOONS, 10, 0.5, -1.0, 1, buffer, 64, FACTO_ROW_MAJOR, labels, 64),    \
      facto_last_error())                                                                                            \
    X(manifold_deviation, FACTO_ERROR_INVALID_ARGUMENT, "deviation", "got -2",                                       \
      facto_manifold_points(FACTO_MANIFOLD_BLOBS, 10, -2.0, 0.0, 1, buffer, 64, FACTO_ROW_MAJOR, labels, 64),        \
      facto_last_error())                                                                                            \
    X(manifold_points, FACTO_ERROR_DIMENSION, "two_rings", "got 1",                                                  \
      facto_manifold_points(FACTO_MANIFOLD_TWO_RINGS, 1, 0.5, 0.0, 1, buffer, 64, FACTO_ROW_MAJOR, labels, 64),      \
      facto_last_error())                                                                                            \
    X(separable_kind, FACTO_ERROR_INVALID_ARGUMENT, "kind", "got 3",                                                 \
      facto_separable_data(3, 2, 4, 2, 20.0, 1, buffer, 64, FACTO_ROW_MAJOR, labels, 64), facto_last_error())        \
    X(separable_midpoints, FACTO_ERROR_DIMENSION, "got N = 4", "K = 3",                                              \
      facto_separable_data(FACTO_SEPARABLE_MIDPOINTS, 2, 4, 3, 20.0, 1, buffer, 64, FACTO_ROW_MAJOR, labels, 64),    \
      facto_last_error())                                                                                            \
    X(separable_sizes, FACTO_ERROR_INVALID_ARGUMENT, "N = 2", "K = 3",                                               \
      facto_separable_data(FACTO_SEPARABLE_DIRICHLET, 2, 2, 3, 20.0, 1, buffer, 64, FACTO_ROW_MAJOR, labels, 64),    \
      facto_last_error())                                                                                            \
    X(separable_snr, FACTO_ERROR_INVALID_ARGUMENT, "snr_db", "got nan",                                              \
      facto_separable_data(FACTO_SEPARABLE_DIRICHLET, 2, 4, 2, NAN, 1, buffer, 64, FACTO_ROW_MAJOR, labels, 64),     \
      facto_last_error())                                                                                            \
    X(sample_fraction, FACTO_ERROR_INVALID_ARGUMENT, "fraction", "got 0",                                            \
      facto_sample_pairs(P, 4, 4, 4, FACTO_ROW_MAJOR, 0.0, 1, &out_sparse), facto_last_error())                      \
    X(nrmse_points, FACTO_ERROR_DIMENSION, "(>= 2) of points", "got 1 and 1",                                                              \
      facto_distance_nrmse(P, P, 1, 4, FACTO_ROW_MAJOR, 100, 1, buffer), facto_last_error())                         \
    X(nrmse_pairs, FACTO_ERROR_INVALID_ARGUMENT, "max_pairs", "got 0",                                               \
      facto_distance_nrmse(P, P, 4, 4, FACTO_ROW_MAJOR, 0, 1, buffer), facto_last_error())                           \
    X(nrmse_zero_distances, FACTO_ERROR_INVALID_ARGUMENT, "true distances", "zero",                                  \
      facto_distance_nrmse(P, zeros, 4, 2, FACTO_ROW_MAJOR, 100, 1, buffer), facto_last_error())

/* What the out variables hold before each case; a failed constructor must set its *out to NULL. */
static char sentinel;

static void reset_outs(void)
{
    out_problem = (facto_problem*)(void*)&sentinel;
    out_solver = (facto_solver*)(void*)&sentinel;
    out_matrix = (facto_matrix*)(void*)&sentinel;
    out_sparse = (facto_sparse*)(void*)&sentinel;
    out_model = (facto_model*)(void*)&sentinel;
}

/* A handle variable the call wrote (named in its text as &name) must be NULL. */
static void check_out(const char* id, const char* call, const char* name, const void* value)
{
    char written[32];
    snprintf(written, sizeof written, "&%s", name);
    if (!strstr(call, written)) return;
    CHECK(value == NULL);
    if (value) fprintf(stderr, "%s: %s is not NULL after the failure\n", id, name);
}

static void check_case(const char* id, const char* call, facto_status got, facto_status want, const char* fragment1,
                       const char* fragment2, const char* message)
{
    const int ok = got == want && message && strstr(message, fragment1) && strstr(message, fragment2);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "%s: got %s '%s', want %s with '%s' and '%s'\n", id, facto_status_string(got),
                message ? message : "(null)", facto_status_string(want), fragment1, fragment2);
    check_out(id, call, "out_problem", out_problem);
    check_out(id, call, "out_solver", out_solver);
    check_out(id, call, "out_matrix", out_matrix);
    check_out(id, call, "out_sparse", out_sparse);
    check_out(id, call, "out_model", out_model);
}

#define RUN_CASE(id, want, fragment1, fragment2, call, message)                                     \
    do {                                                                                            \
        reset_outs();                                                                               \
        const facto_status got_ = (call);                                                           \
        check_case(#id, #call, got_, want, fragment1, fragment2, message);                          \
    } while (0);
#define CASE_NAME(id, want, fragment1, fragment2, call, message) #id,
static const char* const case_names[] = {CASES(CASE_NAME)};
enum { case_count = sizeof case_names / sizeof case_names[0] };

/* The ids of docs/validation.md's table: the first `code` span of each row that starts with "| `". */
static int table_has(const char* path, const char* id, int* rows)
{
    FILE* f = fopen(path, "r");
    if (!f) return 0;
    char line[2048];
    int found = 0;
    *rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "| `", 3) != 0) continue;
        ++*rows;
        const char* end = strchr(line + 3, '`');
        if (end && (size_t)(end - (line + 3)) == strlen(id) && strncmp(line + 3, id, strlen(id)) == 0) ++found;
    }
    fclose(f);
    return found;
}

/* The model directories the fixtures make (a run that stopped early may have left them). */
static void remove_model_directories(void)
{
    const char* models[] = {"facto_validation_bad_model", "facto_validation_version_model", "facto_validation_name_model",
                            "facto_validation_twice_model", "facto_validation_settings_model", "facto_validation_model",
                            "facto_validation_link_model", "facto_validation_fifo_model", "facto_validation_truncated_model",
                            "facto_validation_empty_model", "facto_validation_contract_model", "facto_validation_foreign",
                            "facto_validation_foreign_json"};
    for (size_t d = 0; d < sizeof models / sizeof models[0]; ++d) {
        char path[256];
        snprintf(path, sizeof path, "%s/model.json", models[d]);
        remove(path);
        snprintf(path, sizeof path, "%s/W.npy", models[d]);
        remove(path);
        remove(models[d]);
    }
}

static void make_fixtures(void)
{
    memcpy(P_nan, P, sizeof P);
    P_nan[1 * 4 + 2] = P_nan[2 * 4 + 1] = NAN;
    for (int e = 0; e < 16; ++e) P_nan_single[e] = (float)P_nan[e];
    memcpy(P_huge, P, sizeof P);
    P_huge[0 * 4 + 3] = P_huge[3 * 4 + 0] = 1e200;
    memcpy(P_asymmetric, P, sizeof P);
    P_asymmetric[0 * 4 + 1] += 1.0;
    memcpy(X36_inf, X36, sizeof X36);
    X36_inf[2 * 6 + 5] = INFINITY;
    facto_problem_new_simplicial_symnmf(P, 4, 4, 4, FACTO_ROW_MAJOR, 2, &simplicial);
    facto_problem_new_symnmf(P, 4, 4, 4, FACTO_ROW_MAJOR, 2, &symnmf);
    facto_problem_new_self_dictionary(X36, 3, 6, 6, FACTO_ROW_MAJOR, 2, 0.0, 1e-5, &dictionary);
    facto_problem_new_self_dictionary(X36, 3, 6, 6, FACTO_ROW_MAJOR, 0, 0.1, 1e-5, &dictionary_no_K);
    facto_problem_new_nomad(P, 4, 4, 4, FACTO_ROW_MAJOR, 2, &nomad);
    facto_solver_new(simplicial, "frank_wolfe", &fw);
    facto_solver_step(fw);
    facto_solver_new(simplicial, "frank_wolfe", &fresh_fw);
    facto_solver_new(nomad, "nomad_cgm", &nomad_solver);
    facto_solver_step(nomad_solver);
    facto_solver_new(nomad, "nomad_cgm", &fresh_nomad);
    facto_solver_model(fw, &model_fw);
    facto_solver_model(nomad_solver, &model_nomad);
    CHECK(simplicial && symnmf && dictionary && dictionary_no_K && nomad && fw && fresh_fw && nomad_solver &&
          fresh_nomad && model_fw && model_nomad);
    const char* texts[][2] = {
        {"facto_validation_word.csv", "1,2\n3,four\n"},
        {"facto_validation_ragged.csv", "1,2\n3,4,5\n"},
        {"facto_validation_tenth.csv", "1,2\n0.1,4\n"},
        {"facto_validation_complex.mtx", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 0\n"},
        {"facto_validation_entry.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n3 1 1\n"}};
    for (size_t f = 0; f < sizeof texts / sizeof texts[0]; ++f) write_file(texts[f][0], texts[f][1], strlen(texts[f][1]));
    /* a complex .npy: magic, version 1.0, a 118-byte header (little-endian length), one 16-byte value */
    char npy[10 + 118 + 16] = "\x93NUMPY\x01\x00\x76\x00";
    const char* header = "{'descr': '<c16', 'fortran_order': False, 'shape': (1, 1), }";
    memset(npy + 10, ' ', 118);
    memcpy(npy + 10, header, strlen(header));
    npy[10 + 117] = '\n';
    memset(npy + 128, 0, 16);
    write_file("facto_validation.npy", npy, sizeof npy);
    remove_model_directories();
    /* model directories edited as a hand edit or a hostile file would edit them: model.json of another
     * format, a newer version, a path for a name, a name twice, settings that are not an object */
    const char* jsons[][2] = {
        {"facto_validation_bad_model", "{\"format\": \"other\", \"kind\": \"simplicial_symnmf\", \"arrays\": [\"W\"]}"},
        {"facto_validation_version_model",
         "{\"format\": \"facto model\", \"format_version\": 2, \"kind\": \"simplicial_symnmf\", \"arrays\": [\"W\"]}"},
        {"facto_validation_name_model", "{\"format\": \"facto model\", \"format_version\": 1, \"kind\": \"simplicial_symnmf\", "
                                        "\"arrays\": [\"../facto_validation_model/W\"]}"},
        {"facto_validation_twice_model",
         "{\"format\": \"facto model\", \"format_version\": 1, \"kind\": \"simplicial_symnmf\", \"arrays\": [\"W\", \"W\"]}"},
        {"facto_validation_settings_model", "{\"format\": \"facto model\", \"format_version\": 1, \"kind\": \"simplicial_symnmf\", "
                                            "\"arrays\": [\"W\"], \"settings\": 5}"}};
    for (size_t d = 0; d < sizeof jsons / sizeof jsons[0]; ++d) {
        char path[256];
        CHECK(facto_model_save(model_fw, jsons[d][0], NULL) == FACTO_OK);
        snprintf(path, sizeof path, "%s/model.json", jsons[d][0]);
        write_file(path, jsons[d][1], strlen(jsons[d][1]));
    }
    /* array files that are a link, a FIFO, cut short, empty, or break the kind's contract */
    CHECK(facto_model_save(model_fw, "facto_validation_model", NULL) == FACTO_OK);
    const char* arrays[] = {"facto_validation_link_model", "facto_validation_fifo_model", "facto_validation_truncated_model",
                            "facto_validation_empty_model", "facto_validation_contract_model"};
    for (size_t d = 0; d < sizeof arrays / sizeof arrays[0]; ++d) {
        CHECK(facto_model_save(model_fw, arrays[d], NULL) == FACTO_OK);
        char path[256];
        snprintf(path, sizeof path, "%s/W.npy", arrays[d]);
        remove(path);
    }
    CHECK(symlink("../facto_validation_model/W.npy", "facto_validation_link_model/W.npy") == 0);
    CHECK(mkfifo("facto_validation_fifo_model/W.npy", 0600) == 0);
    char W_npy[128 + 64];
    FILE* f = fopen("facto_validation_model/W.npy", "rb");
    CHECK(f && fread(W_npy, 1, sizeof W_npy, f) == sizeof W_npy && fclose(f) == 0);
    write_file("facto_validation_truncated_model/W.npy", W_npy, 128 + 40);
    char empty[129] = {0};
    memcpy(empty, W_npy, 128);
    char* shape = strstr(empty + 10, "(4, 2)"); /* the header, after the magic and its lengths */
    CHECK(shape != NULL);
    if (shape) memcpy(shape, "(0, 2)", 6);
    write_file("facto_validation_empty_model/W.npy", empty, 128);
    const double negative = -0.25;
    memcpy(W_npy + 128, &negative, sizeof negative); /* W(0, 0): little-endian, as the hosts facto runs on */
    write_file("facto_validation_contract_model/W.npy", W_npy, sizeof W_npy);
    /* directories holding files that are not a facto model's */
    mkdir("facto_validation_foreign", 0700);
    write_file("facto_validation_foreign/W.npy", "a user's data", 13);
    mkdir("facto_validation_foreign_json", 0700);
    write_file("facto_validation_foreign_json/model.json", "{}", 2);
}

static void free_fixtures(void)
{
    facto_model_free(model_fw);
    facto_model_free(model_nomad);
    facto_solver_free(fw);
    facto_solver_free(fresh_fw);
    facto_solver_free(nomad_solver);
    facto_solver_free(fresh_nomad);
    facto_problem_free(simplicial);
    facto_problem_free(symnmf);
    facto_problem_free(dictionary);
    facto_problem_free(dictionary_no_K);
    facto_problem_free(nomad);
    const char* files[] = {"facto_validation_word.csv",    "facto_validation_ragged.csv", "facto_validation_tenth.csv",
                           "facto_validation.npy",         "facto_validation_complex.mtx", "facto_validation_entry.mtx"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; ++f) remove(files[f]);
    remove_model_directories();
}

int main(int argc, char** argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_validation docs/validation.md\n");
        return 2;
    }
    make_fixtures();
    CASES(RUN_CASE)
    /* the table and the cases name the same checks, each once */
    int rows = 0;
    for (int c = 0; c < case_count; ++c) {
        const int found = table_has(argv[1], case_names[c], &rows);
        CHECK(found == 1);
        if (found != 1) fprintf(stderr, "%s: %d rows of %s name it\n", case_names[c], found, argv[1]);
    }
    CHECK(rows == case_count);
    if (rows != case_count) fprintf(stderr, "%s has %d rows, the test %d cases\n", argv[1], rows, (int)case_count);
    free_fixtures();
    printf("%d validation checks: %d passed, %d failed\n", (int)case_count, passed, failed);
    return failed == 0 ? 0 : 1;
}
