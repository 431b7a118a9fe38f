/* .Call glue between R and facto's C ABI (facto.h). No math here.
 *
 * Rules kept throughout:
 *  - R matrices are column-major: they go in and come out with FACTO_COL_MAJOR, never transposed.
 *  - Handles live in external pointers with finalizers; facto_*_free(NULL) is a no-op, so an explicit
 *    free (which clears the pointer) and the finalizer never double-free.
 *  - This file never raises an R error while facto may be on the C stack: a failure is returned as
 *    a "facto_failure" value (status, name, message) and R/facto.R raises the condition.
 *  - The iteration callback runs R code under R_ToplevelExec, inside an R-level tryCatch, so neither an
 *    R error nor an interrupt can longjmp through facto's C++ frames; the condition is kept and
 *    re-raised in R after the solve returns.
 *  - Every solver has the trampoline installed, with or without an R callback, so that Ctrl-C (a
 *    pending R interrupt, seen by R_CheckUserInterrupt under R_ToplevelExec) stops a solve through
 *    facto_solver_request_stop at the end of the iteration; R then raises an "interrupt" condition. */
#include <stdlib.h>
#include <string.h>

#include <R.h>
#include <R_ext/Rdynload.h>
#include <Rinternals.h>

#include <facto/facto_experimental.h>

/* ---- failures as values --------------------------------------------------------------------- */

static SEXP failure(facto_status status, const char* message)
{
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
    SEXP names = PROTECT(Rf_allocVector(STRSXP, 3));
    SET_VECTOR_ELT(out, 0, Rf_ScalarInteger(status));
    SET_VECTOR_ELT(out, 1, Rf_mkString(facto_status_string(status)));
    SET_VECTOR_ELT(out, 2, Rf_mkString(message ? message : ""));
    SET_STRING_ELT(names, 0, Rf_mkChar("status"));
    SET_STRING_ELT(names, 1, Rf_mkChar("status_name"));
    SET_STRING_ELT(names, 2, Rf_mkChar("message"));
    Rf_setAttrib(out, R_NamesSymbol, names);
    Rf_setAttrib(out, R_ClassSymbol, Rf_mkString("facto_failure"));
    UNPROTECT(2);
    return out;
}

/* ---- handles -------------------------------------------------------------------------------- */

typedef struct solver_box {
    facto_solver* solver;
    SEXP callback;     /* R function or R_NilValue; protected through the external pointer */
    SEXP runner;       /* facto:::run_callback, protected likewise */
    SEXP pending;      /* condition raised by the callback, preserved until read */
    int interrupted;   /* the user interrupted the running step or solve */
    int running;       /* a step or solve is on the C stack (its callback may run R code) */
} solver_box;

static SEXP problem_tag, solver_tag;

/* The iteration callback every solver has (below): the R callback, if any, then the interrupt check. */
static int32_t trampoline(const facto_solver* solver, const facto_progress* progress, void* user_data);

static void problem_finalizer(SEXP ptr)
{
    facto_problem_free((facto_problem*)R_ExternalPtrAddr(ptr));
    R_ClearExternalPtr(ptr);
}

static void release_pending(solver_box* box)
{
    if (box->pending != R_NilValue) R_ReleaseObject(box->pending);
    box->pending = R_NilValue;
}

static void solver_finalizer(SEXP ptr)
{
    solver_box* box = (solver_box*)R_ExternalPtrAddr(ptr);
    if (!box) return;
    facto_solver_free(box->solver);
    release_pending(box);
    free(box);
    R_ClearExternalPtr(ptr);
}

static facto_problem* problem_of(SEXP ptr)
{
    if (TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrTag(ptr) != problem_tag) return NULL;
    return (facto_problem*)R_ExternalPtrAddr(ptr);
}

static solver_box* box_of(SEXP ptr)
{
    if (TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrTag(ptr) != solver_tag) return NULL;
    return (solver_box*)R_ExternalPtrAddr(ptr);
}

#define SOLVER_OR_FAIL(box, ptr)                                                                 \
    solver_box* box = box_of(ptr);                                                               \
    if (!box || !box->solver) return failure(FACTO_ERROR_NULL_POINTER, "not a live facto solver")

static SEXP solver_failure(solver_box* box, facto_status status)
{
    return failure(status, facto_solver_last_error(box->solver));
}

/* ---- problems ------------------------------------------------------------------------------- */

/* A new problem handle in an external pointer with a finalizer, or the failure of its constructor. */
static SEXP wrap_problem(facto_status st, facto_problem* problem)
{
    if (st < 0) return failure(st, facto_last_error());
    SEXP ptr = PROTECT(R_MakeExternalPtr(problem, problem_tag, R_NilValue));
    R_RegisterCFinalizerEx(ptr, problem_finalizer, TRUE);
    UNPROTECT(1);
    return ptr;
}

/* R's 1-based numeric indices as 0-based int64 (R_alloc'ed, freed by R after the .Call). */
static int64_t* zero_based(SEXP v)
{
    const R_xlen_t n = Rf_xlength(v);
    int64_t* out = (int64_t*)R_alloc((size_t)(n > 0 ? n : 1), sizeof(int64_t));
    SEXP real = PROTECT(Rf_coerceVector(v, REALSXP));
    for (R_xlen_t k = 0; k < n; ++k) out[k] = (int64_t)REAL(real)[k] - 1;
    UNPROTECT(1);
    return out;
}

SEXP facto_r_symnmf(SEXP M, SEXP r)
{
    if (!Rf_isReal(M) || !Rf_isMatrix(M)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "M must be a numeric matrix");
    const int64_t rows = Rf_nrows(M), cols = Rf_ncols(M);
    facto_problem* problem = NULL;
    const facto_status st =
        facto_problem_new_symnmf(REAL(M), rows, cols, rows > 0 ? rows : 1, FACTO_COL_MAJOR, (int64_t)Rf_asReal(r), &problem);
    return wrap_problem(st, problem);
}

/* Sparse M as 1-based triplets (i, j, x) of an n x n matrix. */
SEXP facto_r_symnmf_sparse(SEXP i, SEXP j, SEXP x, SEXP n, SEXP r)
{
    const R_xlen_t nnz = Rf_xlength(x);
    if (Rf_xlength(i) != nnz || Rf_xlength(j) != nnz || !Rf_isReal(x))
        return failure(FACTO_ERROR_INVALID_ARGUMENT, "i, j and x must have the same length, x numeric");
    const int64_t size = (int64_t)Rf_asReal(n);
    facto_problem* problem = NULL;
    const facto_status st = facto_problem_new_symnmf_sparse(FACTO_SPARSE_COO, size, size, nnz, zero_based(i),
                                                            zero_based(j), REAL(x), (int64_t)Rf_asReal(r), &problem);
    return wrap_problem(st, problem);
}

SEXP facto_r_edm_completion(SEXP n, SEXP r, SEXP i, SEXP j, SEXP d)
{
    const R_xlen_t count = Rf_xlength(d);
    if (Rf_xlength(i) != count || Rf_xlength(j) != count || !Rf_isReal(d))
        return failure(FACTO_ERROR_INVALID_ARGUMENT, "i, j and d must have the same length, d numeric");
    facto_problem* problem = NULL;
    const facto_status st = facto_problem_new_edm_completion((int64_t)Rf_asReal(n), (int64_t)Rf_asReal(r), count,
                                                             zero_based(i), zero_based(j), REAL(d), &problem);
    return wrap_problem(st, problem);
}

SEXP facto_r_simplicial_symnmf(SEXP P, SEXP k)
{
    if (!Rf_isReal(P) || !Rf_isMatrix(P)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "P must be a numeric matrix");
    const int64_t rows = Rf_nrows(P), cols = Rf_ncols(P);
    facto_problem* problem = NULL;
    const facto_status st = facto_problem_new_simplicial_symnmf(REAL(P), rows, cols, rows > 0 ? rows : 1,
                                                                FACTO_COL_MAJOR, (int64_t)Rf_asReal(k), &problem);
    return wrap_problem(st, problem);
}

/* A named numeric vector of problem parameters (what the caller chose; the library has the defaults) as
 * the by-name constructors take it: the names (allocated for this call) and the values. */
static int64_t named_params(SEXP params, const char*** names, const double** values)
{
    const int64_t count = Rf_isReal(params) ? Rf_xlength(params) : 0;
    SEXP labels = Rf_getAttrib(params, R_NamesSymbol);
    *names = (const char**)R_alloc((size_t)(count > 0 ? count : 1), sizeof **names);
    for (int64_t i = 0; i < count; ++i) (*names)[i] = CHAR(STRING_ELT(labels, i));
    *values = count > 0 ? REAL(params) : NULL;
    return count;
}

SEXP facto_r_self_dictionary(SEXP X, SEXP K, SEXP params)
{
    if (!Rf_isReal(X) || !Rf_isMatrix(X)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "X must be a numeric matrix");
    const int64_t rows = Rf_nrows(X), cols = Rf_ncols(X);
    const char** names;
    const double* values;
    const int64_t count = named_params(params, &names, &values);
    facto_problem* problem = NULL;
    const facto_status st = facto_problem_new_self_dictionary_named(
        REAL(X), rows, cols, rows > 0 ? rows : 1, FACTO_COL_MAJOR, (int64_t)Rf_asReal(K), count, names, values, &problem);
    return wrap_problem(st, problem);
}

/* A problem of a sparse matrix by one of facto.h's by-name sparse constructors, from 1-based triplets
 * (i, j, x) of a rows x cols matrix. */
typedef facto_status (*sparse_named_constructor)(int32_t, int64_t, int64_t, int64_t, const int64_t*, const int64_t*,
                                                 const double*, int64_t, int64_t, const char* const*, const double*,
                                                 facto_problem**);
static SEXP sparse_named_problem(sparse_named_constructor make, SEXP i, SEXP j, SEXP x, int64_t rows, int64_t cols,
                                 SEXP K, SEXP params)
{
    const R_xlen_t nnz = Rf_xlength(x);
    if (Rf_xlength(i) != nnz || Rf_xlength(j) != nnz || !Rf_isReal(x))
        return failure(FACTO_ERROR_INVALID_ARGUMENT, "i, j and x must have the same length, x numeric");
    const char** names;
    const double* values;
    const int64_t count = named_params(params, &names, &values);
    facto_problem* problem = NULL;
    const facto_status st = make(FACTO_SPARSE_COO, rows, cols, nnz, zero_based(i), zero_based(j), REAL(x),
                                 (int64_t)Rf_asReal(K), count, names, values, &problem);
    return wrap_problem(st, problem);
}

/* The self-dictionary problem of sparse X, shape = (rows, cols). */
SEXP facto_r_self_dictionary_sparse(SEXP i, SEXP j, SEXP x, SEXP shape, SEXP K, SEXP params)
{
    if (Rf_xlength(shape) != 2 || !Rf_isReal(shape))
        return failure(FACTO_ERROR_INVALID_ARGUMENT, "shape must be (rows, cols)");
    return sparse_named_problem(facto_problem_new_self_dictionary_sparse, i, j, x, (int64_t)REAL(shape)[0],
                                (int64_t)REAL(shape)[1], K, params);
}

/* Topics from the triplets of a rows x cols count matrix. */
SEXP facto_r_topics(SEXP i, SEXP j, SEXP x, SEXP rows, SEXP cols, SEXP K, SEXP params)
{
    return sparse_named_problem(facto_problem_new_topics_named, i, j, x, (int64_t)Rf_asReal(rows),
                                (int64_t)Rf_asReal(cols), K, params);
}

/* Communities from the triplets of an n x n adjacency matrix (both triangles). */
SEXP facto_r_communities(SEXP i, SEXP j, SEXP x, SEXP n, SEXP K, SEXP params)
{
    return sparse_named_problem(facto_problem_new_communities_named, i, j, x, (int64_t)Rf_asReal(n),
                                (int64_t)Rf_asReal(n), K, params);
}

SEXP facto_r_spearman(SEXP estimated, SEXP truth)
{
    if (!Rf_isReal(estimated) || !Rf_isMatrix(estimated) || !Rf_isReal(truth) || !Rf_isMatrix(truth) ||
        Rf_nrows(estimated) != Rf_nrows(truth) || Rf_ncols(estimated) != Rf_ncols(truth))
        return failure(FACTO_ERROR_DIMENSION, "estimated and truth must be numeric matrices of one shape");
    double src = 0.0;
    const facto_status st = facto_averaged_spearman(REAL(estimated), REAL(truth), Rf_nrows(truth), Rf_ncols(truth),
                                                    FACTO_COL_MAJOR, &src);
    return st < 0 ? failure(st, facto_last_error()) : Rf_ScalarReal(src);
}

SEXP facto_r_kmeans(SEXP X, SEXP K, SEXP replicates, SEXP seed)
{
    if (!Rf_isReal(X) || !Rf_isMatrix(X)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "X must be a numeric matrix");
    const int64_t rows = Rf_nrows(X);
    int64_t* labels = (int64_t*)R_alloc((size_t)(rows > 0 ? rows : 1), sizeof(int64_t));
    const facto_status st = facto_kmeans(REAL(X), rows, Rf_ncols(X), rows > 0 ? rows : 1, FACTO_COL_MAJOR,
                                         (int64_t)Rf_asReal(K), Rf_asInteger(replicates), (uint64_t)Rf_asReal(seed),
                                         labels);
    if (st < 0) return failure(st, facto_last_error());
    SEXP out = PROTECT(Rf_allocVector(INTSXP, rows));
    for (int64_t r = 0; r < rows; ++r) INTEGER(out)[r] = (int)labels[r] + 1;
    UNPROTECT(1);
    return out;
}

SEXP facto_r_nomad(SEXP D, SEXP K)
{
    if (!Rf_isReal(D) || !Rf_isMatrix(D)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "D must be a numeric matrix");
    const int64_t rows = Rf_nrows(D), cols = Rf_ncols(D);
    facto_problem* problem = NULL;
    const facto_status st = facto_problem_new_nomad(REAL(D), rows, cols, rows > 0 ? rows : 1, FACTO_COL_MAJOR,
                                                    (int64_t)Rf_asReal(K), &problem);
    return wrap_problem(st, problem);
}

SEXP facto_r_nomad_points(SEXP X, SEXP K)
{
    if (!Rf_isReal(X) || !Rf_isMatrix(X)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "X must be a numeric matrix");
    const int64_t rows = Rf_nrows(X), cols = Rf_ncols(X);
    facto_problem* problem = NULL;
    const facto_status st = facto_problem_new_nomad_points(REAL(X), rows, cols, rows > 0 ? rows : 1, FACTO_COL_MAJOR,
                                                           (int64_t)Rf_asReal(K), &problem);
    return wrap_problem(st, problem);
}

SEXP facto_r_nomad_points_sparse(SEXP i, SEXP j, SEXP x, SEXP shape, SEXP K)
{
    const R_xlen_t nnz = Rf_xlength(x);
    if (Rf_xlength(i) != nnz || Rf_xlength(j) != nnz || !Rf_isReal(x) || Rf_xlength(shape) != 2)
        return failure(FACTO_ERROR_INVALID_ARGUMENT, "i, j and x must have the same length, x numeric");
    facto_problem* problem = NULL;
    const facto_status st = facto_problem_new_nomad_points_sparse(FACTO_SPARSE_COO, (int64_t)REAL(shape)[0],
                                                                  (int64_t)REAL(shape)[1], nnz, zero_based(i),
                                                                  zero_based(j), REAL(x), (int64_t)Rf_asReal(K), &problem);
    return wrap_problem(st, problem);
}

SEXP facto_r_nomad_layer(SEXP solver_ptr, SEXP K)
{
    SOLVER_OR_FAIL(box, solver_ptr);
    facto_problem* problem = NULL;
    const facto_status st = facto_problem_new_nomad_layer(box->solver, (int64_t)Rf_asReal(K), &problem);
    return wrap_problem(st, problem);
}

SEXP facto_r_problem_free(SEXP ptr)
{
    if (problem_of(ptr)) problem_finalizer(ptr);
    return R_NilValue;
}

SEXP facto_r_problem_info(SEXP ptr)
{
    facto_problem* problem = problem_of(ptr);
    if (!problem) return failure(FACTO_ERROR_NULL_POINTER, "not a live facto problem");
    int64_t rows = 0, cols = 0;
    facto_problem_iterate_shape(problem, &rows, &cols);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(out, 0, Rf_mkString(facto_problem_kind(problem)));
    SEXP shape = PROTECT(Rf_allocVector(REALSXP, 2));
    REAL(shape)[0] = (double)rows;
    REAL(shape)[1] = (double)cols;
    SET_VECTOR_ELT(out, 1, shape);
    UNPROTECT(2);
    return out;
}

SEXP facto_r_objective(SEXP ptr, SEXP X)
{
    facto_problem* problem = problem_of(ptr);
    if (!problem) return failure(FACTO_ERROR_NULL_POINTER, "not a live facto problem");
    if (!Rf_isReal(X) || !Rf_isMatrix(X)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "X must be a numeric matrix");
    double value = 0.0;
    const int64_t rows = Rf_nrows(X);
    const facto_status st = facto_problem_objective(problem, REAL(X), rows, Rf_ncols(X), rows > 0 ? rows : 1,
                                                    FACTO_COL_MAJOR, &value);
    if (st < 0) return failure(st, facto_problem_last_error(problem));
    return Rf_ScalarReal(value);
}

/* ---- solvers -------------------------------------------------------------------------------- */

/* An R handle owning a solver the library made (status st); the failure when st < 0. */
static SEXP wrap_solver(facto_status st, facto_solver* solver)
{
    if (st < 0) return failure(st, facto_last_error());
    solver_box* box = (solver_box*)malloc(sizeof *box);
    if (!box) {
        facto_solver_free(solver);
        return failure(FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    box->solver = solver;
    box->callback = R_NilValue;
    box->runner = R_NilValue;
    box->pending = R_NilValue;
    box->interrupted = 0;
    box->running = 0;
    facto_solver_set_callback(solver, trampoline, box, NULL); /* Ctrl-C, without an R callback too */
    SEXP ptr = PROTECT(R_MakeExternalPtr(box, solver_tag, R_NilValue));
    R_RegisterCFinalizerEx(ptr, solver_finalizer, TRUE);
    UNPROTECT(1);
    return ptr;
}

SEXP facto_r_solver_new(SEXP problem_ptr, SEXP algorithm)
{
    facto_problem* problem = problem_of(problem_ptr);
    if (!problem) return failure(FACTO_ERROR_NULL_POINTER, "not a live facto problem");
    facto_solver* solver = NULL;
    const facto_status st = facto_solver_new(problem, CHAR(STRING_ELT(algorithm, 0)), &solver);
    return wrap_solver(st, solver);
}

/* Multi-layer NOMAD's next layer: a solver of the same algorithm and settings (facto_solver_new_nomad_layer). */
SEXP facto_r_solver_nomad_layer(SEXP ptr, SEXP K)
{
    SOLVER_OR_FAIL(box, ptr);
    facto_solver* solver = NULL;
    const facto_status st = facto_solver_new_nomad_layer(box->solver, (int64_t)Rf_asReal(K), &solver);
    return wrap_solver(st, solver);
}

SEXP facto_r_solver_free(SEXP ptr)
{
    solver_box* box = box_of(ptr);
    if (box && box->running) return failure(FACTO_ERROR_BAD_STATE, "a solver cannot be freed inside its own callback");
    if (box) solver_finalizer(ptr);
    return R_NilValue;
}

SEXP facto_r_solver_algorithm(SEXP ptr)
{
    SOLVER_OR_FAIL(box, ptr);
    return Rf_mkString(facto_solver_algorithm(box->solver));
}

/* Type (FACTO_PARAM_*) of a parameter, 0 when unknown (the library then reports the name). */
static int32_t param_type(facto_solver* s, const char* name)
{
    int64_t count = 0;
    facto_solver_param_count(s, &count);
    for (int64_t i = 0; i < count; ++i) {
        facto_param_info info;
        info.struct_size = sizeof info;
        if (facto_solver_param_info(s, i, &info) == FACTO_OK && strcmp(info.name, name) == 0) return info.type;
    }
    return 0;
}

SEXP facto_r_set(SEXP ptr, SEXP name_sexp, SEXP value)
{
    SOLVER_OR_FAIL(box, ptr);
    const char* name = CHAR(STRING_ELT(name_sexp, 0));
    const int32_t type = param_type(box->solver, name);
    facto_status st;
    if (Rf_isString(value)) {
        st = facto_solver_set_string(box->solver, name, CHAR(STRING_ELT(value, 0)));
    } else if (type == FACTO_PARAM_INT) {
        const double v = Rf_asReal(value);
        if (v != (double)(int64_t)v) return failure(FACTO_ERROR_PARAMETER_TYPE, "this parameter takes a whole number");
        st = facto_solver_set_int(box->solver, name, (int64_t)v);
    } else {
        st = facto_solver_set_double(box->solver, name, Rf_asReal(value));
    }
    return st < 0 ? solver_failure(box, st) : R_NilValue;
}

SEXP facto_r_get(SEXP ptr, SEXP name_sexp)
{
    SOLVER_OR_FAIL(box, ptr);
    const char* name = CHAR(STRING_ELT(name_sexp, 0));
    const int32_t type = param_type(box->solver, name);
    if (type == FACTO_PARAM_STRING) {
        const char* v = NULL;
        const facto_status st = facto_solver_get_string(box->solver, name, &v);
        return st < 0 ? solver_failure(box, st) : Rf_mkString(v);
    }
    double v = 0.0;
    const facto_status st = facto_solver_get_double(box->solver, name, &v);
    if (st < 0) return solver_failure(box, st);
    return type == FACTO_PARAM_INT && v <= 2147483647.0 ? Rf_ScalarInteger((int)v) : Rf_ScalarReal(v);
}

/* The registry: every problem kind's algorithms (the default first) as columns kind, name, default,
 * description; `kind` a string for one kind's only. */
SEXP facto_r_algorithms(SEXP kind)
{
    const int one = Rf_isString(kind) && Rf_length(kind) == 1;
    const int64_t kinds = one ? 1 : facto_problem_kind_count();
    int64_t total = 0;
    for (int64_t k = 0; k < kinds; ++k) {
        int64_t count = 0;
        const facto_status st =
            facto_algorithm_count(one ? CHAR(STRING_ELT(kind, 0)) : facto_problem_kind_name(k), &count);
        if (st < 0) return failure(st, facto_last_error());
        total += count;
    }
    SEXP kinds_out = PROTECT(Rf_allocVector(STRSXP, total)), names = PROTECT(Rf_allocVector(STRSXP, total));
    SEXP defaults = PROTECT(Rf_allocVector(LGLSXP, total)), descriptions = PROTECT(Rf_allocVector(STRSXP, total));
    int64_t row = 0;
    for (int64_t k = 0; k < kinds; ++k) {
        const char* name = one ? CHAR(STRING_ELT(kind, 0)) : facto_problem_kind_name(k);
        int64_t count = 0;
        facto_algorithm_count(name, &count);
        for (int64_t a = 0; a < count; ++a, ++row) {
            facto_algorithm_info info;
            info.struct_size = sizeof info;
            facto_algorithm_describe(name, a, &info);
            SET_STRING_ELT(kinds_out, row, Rf_mkChar(name));
            SET_STRING_ELT(names, row, Rf_mkChar(info.name));
            LOGICAL(defaults)[row] = info.is_default;
            SET_STRING_ELT(descriptions, row, Rf_mkChar(info.description));
        }
    }
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 4));
    SET_VECTOR_ELT(out, 0, kinds_out);
    SET_VECTOR_ELT(out, 1, names);
    SET_VECTOR_ELT(out, 2, defaults);
    SET_VECTOR_ELT(out, 3, descriptions);
    UNPROTECT(5);
    return out;
}

/* A parameter table (names, types, defaults, ranges, descriptions) of `count` entries that describe(owner,
 * i, info) fills: a solver's or a problem kind's. */
typedef facto_status (*describe_param)(const void* owner, int64_t index, facto_param_info* info);

static facto_status describe_solver_param(const void* owner, int64_t index, facto_param_info* info)
{
    return facto_solver_param_info((const facto_solver*)owner, index, info);
}

static facto_status describe_problem_param(const void* owner, int64_t index, facto_param_info* info)
{
    return facto_problem_param_info((const char*)owner, index, info);
}

static SEXP param_table(int64_t count, describe_param describe, const void* owner)
{
    SEXP names = PROTECT(Rf_allocVector(STRSXP, count)), types = PROTECT(Rf_allocVector(STRSXP, count));
    SEXP defaults = PROTECT(Rf_allocVector(STRSXP, count)), ranges = PROTECT(Rf_allocVector(STRSXP, count));
    SEXP descriptions = PROTECT(Rf_allocVector(STRSXP, count));
    for (int64_t i = 0; i < count; ++i) {
        facto_param_info p;
        p.struct_size = sizeof p;
        describe(owner, i, &p);
        char value[64], range[128];
        if (p.type == FACTO_PARAM_DOUBLE) {
            snprintf(value, sizeof value, "%.15g", p.default_double);
            snprintf(range, sizeof range, "[%.15g, %.15g]", p.lower_double, p.upper_double);
        } else if (p.type == FACTO_PARAM_INT) {
            snprintf(value, sizeof value, "%lld", (long long)p.default_int);
            snprintf(range, sizeof range, "[%lld, %lld]", (long long)p.lower_int, (long long)p.upper_int);
        } else {
            snprintf(value, sizeof value, "%s", p.default_string);
            snprintf(range, sizeof range, "%s", p.choices);
        }
        SET_STRING_ELT(names, i, Rf_mkChar(p.name));
        SET_STRING_ELT(types, i, Rf_mkChar(p.type == FACTO_PARAM_DOUBLE ? "double"
                                           : p.type == FACTO_PARAM_INT ? "int" : "string"));
        SET_STRING_ELT(defaults, i, Rf_mkChar(value));
        SET_STRING_ELT(ranges, i, Rf_mkChar(range));
        SET_STRING_ELT(descriptions, i, Rf_mkChar(p.description));
    }
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 5));
    SET_VECTOR_ELT(out, 0, names);
    SET_VECTOR_ELT(out, 1, types);
    SET_VECTOR_ELT(out, 2, defaults);
    SET_VECTOR_ELT(out, 3, ranges);
    SET_VECTOR_ELT(out, 4, descriptions);
    UNPROTECT(6);
    return out;
}

SEXP facto_r_params(SEXP ptr)
{
    SOLVER_OR_FAIL(box, ptr);
    int64_t count = 0;
    facto_solver_param_count(box->solver, &count);
    return param_table(count, describe_solver_param, box->solver);
}

SEXP facto_r_problem_params(SEXP kind)
{
    if (!Rf_isString(kind) || Rf_length(kind) != 1) return failure(FACTO_ERROR_INVALID_ARGUMENT, "kind must be a string");
    const char* name = CHAR(STRING_ELT(kind, 0));
    int64_t count = 0;
    const facto_status st = facto_problem_param_count(name, &count);
    if (st < 0) return failure(st, facto_last_error());
    return param_table(count, describe_problem_param, name);
}

SEXP facto_r_reset(SEXP ptr)
{
    SOLVER_OR_FAIL(box, ptr);
    const facto_status st = facto_solver_reset_params(box->solver);
    return st < 0 ? solver_failure(box, st) : R_NilValue;
}

SEXP facto_r_set_iterate(SEXP ptr, SEXP X)
{
    SOLVER_OR_FAIL(box, ptr);
    if (!Rf_isReal(X) || !Rf_isMatrix(X)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "X must be a numeric matrix");
    const int64_t rows = Rf_nrows(X);
    const facto_status st =
        facto_solver_set_iterate(box->solver, REAL(X), rows, Rf_ncols(X), rows > 0 ? rows : 1, FACTO_COL_MAJOR);
    return st < 0 ? solver_failure(box, st) : R_NilValue;
}

static SEXP progress_list(const facto_progress* p)
{
    const char* names[] = {"iteration", "objective", "stationarity", "step_size", "relative_change", "elapsed_seconds",
                           "stop_reason", "feasibility", "tolerance"};
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 9)), n = PROTECT(Rf_allocVector(STRSXP, 9));
    SET_VECTOR_ELT(out, 0, Rf_ScalarReal((double)p->iteration));
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal(p->objective));
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal(p->stationarity));
    SET_VECTOR_ELT(out, 3, Rf_ScalarReal(p->step_size));
    SET_VECTOR_ELT(out, 4, Rf_ScalarReal(p->relative_change));
    SET_VECTOR_ELT(out, 5, Rf_ScalarReal(p->elapsed_seconds));
    SET_VECTOR_ELT(out, 6, Rf_ScalarInteger(p->stop_reason));
    SET_VECTOR_ELT(out, 7, Rf_ScalarReal(p->feasibility));
    SET_VECTOR_ELT(out, 8, Rf_ScalarReal(p->tolerance));
    for (int i = 0; i < 9; ++i) SET_STRING_ELT(n, i, Rf_mkChar(names[i]));
    Rf_setAttrib(out, R_NamesSymbol, n);
    UNPROTECT(2);
    return out;
}

SEXP facto_r_progress(SEXP ptr)
{
    SOLVER_OR_FAIL(box, ptr);
    facto_progress p;
    p.struct_size = sizeof p;
    facto_solver_progress(box->solver, &p);
    return progress_list(&p);
}

/* ---- the callback --------------------------------------------------------------------------- */

typedef struct callback_call {
    solver_box* box;
    const facto_progress* progress;
    SEXP result; /* list(stop = , error = ), preserved */
} callback_call;

/* Everything that touches R runs here, under R_ToplevelExec: allocation, lookup and evaluation. */
static void evaluate_callback(void* data)
{
    callback_call* c = (callback_call*)data;
    SEXP progress = PROTECT(progress_list(c->progress));
    SEXP call = PROTECT(Rf_lang3(c->box->runner, c->box->callback, progress));
    c->result = Rf_eval(call, R_GlobalEnv);
    R_PreserveObject(c->result);
    UNPROTECT(2);
}

static void check_interrupt(void* unused)
{
    (void)unused;
    R_CheckUserInterrupt();
}

/* An interrupt (or any jump out of R code): a stop request, which facto honours at the end of this
 * step (a request made inside the callback ends the step that called it). */
static void interrupt(solver_box* box)
{
    box->interrupted = 1;
    facto_solver_request_stop(box->solver);
}

static int32_t trampoline(const facto_solver* solver, const facto_progress* progress, void* user_data)
{
    (void)solver;
    solver_box* box = (solver_box*)user_data;
    int stop = 0;
    if (box->callback != R_NilValue) {
        callback_call c = {box, progress, R_NilValue};
        if (!R_ToplevelExec(evaluate_callback, &c)) {
            interrupt(box);
            return 0;
        }
        SEXP error = VECTOR_ELT(c.result, 1);
        stop = Rf_asLogical(VECTOR_ELT(c.result, 0)) == TRUE || error != R_NilValue;
        if (error != R_NilValue) {
            release_pending(box);
            box->pending = error;
            R_PreserveObject(error);
        }
        R_ReleaseObject(c.result);
    }
    if (!R_ToplevelExec(check_interrupt, NULL)) interrupt(box);
    return stop;
}

/* runner is facto's internal run_callback (looked up by the R caller, where an error is safe). */
SEXP facto_r_set_callback(SEXP ptr, SEXP callback, SEXP runner)
{
    SOLVER_OR_FAIL(box, ptr);
    const facto_status st = facto_solver_set_callback(box->solver, trampoline, box, NULL);
    if (st < 0) return solver_failure(box, st);
    SEXP keep = PROTECT(Rf_allocVector(VECSXP, 2)); /* keeps both alive with the solver */
    SET_VECTOR_ELT(keep, 0, callback);
    SET_VECTOR_ELT(keep, 1, runner);
    R_SetExternalPtrProtected(ptr, keep);
    UNPROTECT(1);
    box->callback = callback;
    box->runner = runner;
    return R_NilValue;
}

/* step or solve; returns the status (with attribute "interrupted" TRUE when the user interrupted it),
 * or the pending callback condition (class "condition"). */
static SEXP run(SEXP ptr, facto_status (*fn)(facto_solver*))
{
    SOLVER_OR_FAIL(box, ptr);
    release_pending(box);
    box->interrupted = 0;
    box->running = 1;
    const facto_status st = fn(box->solver);
    box->running = 0;
    if (box->pending != R_NilValue) {
        SEXP condition = PROTECT(box->pending);
        release_pending(box);
        UNPROTECT(1);
        return condition;
    }
    if (st < 0) return solver_failure(box, st);
    SEXP status = PROTECT(Rf_ScalarInteger(st));
    if (box->interrupted) Rf_setAttrib(status, Rf_install("interrupted"), Rf_ScalarLogical(TRUE));
    box->interrupted = 0;
    UNPROTECT(1);
    return status;
}

SEXP facto_r_step(SEXP ptr) { return run(ptr, facto_solver_step); }
SEXP facto_r_solve(SEXP ptr) { return run(ptr, facto_solver_solve); }

/* ---- results -------------------------------------------------------------------------------- */

SEXP facto_r_iterate(SEXP ptr)
{
    SOLVER_OR_FAIL(box, ptr);
    int64_t rows = 0, cols = 0;
    facto_solver_iterate_shape(box->solver, &rows, &cols);
    SEXP out = PROTECT(Rf_allocMatrix(REALSXP, (int)rows, (int)cols));
    const facto_status st = facto_solver_copy_iterate(box->solver, REAL(out), rows * cols, FACTO_COL_MAJOR);
    UNPROTECT(1);
    return st < 0 ? solver_failure(box, st) : out;
}

/* A named output: a numeric matrix for DOUBLE outputs, a numeric vector of the stored (0-based)
 * values for INT64 outputs. */
SEXP facto_r_output(SEXP ptr, SEXP name_sexp)
{
    SOLVER_OR_FAIL(box, ptr);
    const char* name = CHAR(STRING_ELT(name_sexp, 0));
    int32_t type = 0;
    int64_t rows = 0, cols = 0;
    facto_status st = facto_solver_output_shape(box->solver, name, &type, &rows, &cols);
    if (st < 0) return solver_failure(box, st);
    if (type == FACTO_OUTPUT_DOUBLE) {
        SEXP out = PROTECT(Rf_allocMatrix(REALSXP, (int)rows, (int)cols));
        st = facto_solver_copy_output_double(box->solver, name, REAL(out), rows * cols, FACTO_COL_MAJOR);
        UNPROTECT(1);
        return st < 0 ? solver_failure(box, st) : out;
    }
    int64_t* values = (int64_t*)R_alloc((size_t)(rows * cols > 0 ? rows * cols : 1), sizeof(int64_t));
    st = facto_solver_copy_output_int64(box->solver, name, values, rows * cols, FACTO_COL_MAJOR);
    if (st < 0) return solver_failure(box, st);
    SEXP out = PROTECT(Rf_allocVector(REALSXP, rows * cols));
    for (int64_t i = 0; i < rows * cols; ++i) REAL(out)[i] = (double)values[i];
    UNPROTECT(1);
    return out;
}

/* ---- data helpers --------------------------------------------------------------------------- */

/* The matrix a facto call made, copied into an R matrix and freed; or the call's failure. */
static SEXP matrix_result(facto_status st, facto_matrix* M)
{
    if (st < 0) return failure(st, facto_last_error());
    int64_t n = 0, m = 0;
    facto_matrix_shape(M, &n, &m);
    SEXP out = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)m));
    const double* data = facto_matrix_data(M); /* row-major */
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < m; ++j) REAL(out)[i + j * n] = data[i * m + j];
    facto_matrix_free(M);
    UNPROTECT(1);
    return out;
}

SEXP facto_r_gaussian_affinity(SEXP X, SEXP bandwidth, SEXP scaling)
{
    if (!Rf_isReal(X) || !Rf_isMatrix(X)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "X must be a numeric matrix");
    const int64_t rows = Rf_nrows(X);
    facto_matrix* P = NULL;
    const facto_status st = facto_gaussian_affinity(REAL(X), rows, Rf_ncols(X), rows > 0 ? rows : 1, FACTO_COL_MAJOR,
                                                    Rf_asReal(bandwidth), Rf_asInteger(scaling), &P);
    return matrix_result(st, P);
}

SEXP facto_r_nomad_gram(SEXP X)
{
    if (!Rf_isReal(X) || !Rf_isMatrix(X)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "X must be a numeric matrix");
    const int64_t rows = Rf_nrows(X);
    facto_matrix* D = NULL;
    const facto_status st = facto_nomad_gram(REAL(X), rows, Rf_ncols(X), rows > 0 ? rows : 1, FACTO_COL_MAJOR, &D);
    return matrix_result(st, D);
}

SEXP facto_r_accuracy(SEXP predicted, SEXP truth)
{
    const R_xlen_t n = Rf_xlength(predicted);
    if (n != Rf_xlength(truth)) return failure(FACTO_ERROR_DIMENSION, "label vectors differ in length");
    int64_t* p = (int64_t*)R_alloc((size_t)(n > 0 ? n : 1), sizeof(int64_t));
    int64_t* t = (int64_t*)R_alloc((size_t)(n > 0 ? n : 1), sizeof(int64_t));
    SEXP pr = PROTECT(Rf_coerceVector(predicted, REALSXP)), tr = PROTECT(Rf_coerceVector(truth, REALSXP));
    for (R_xlen_t i = 0; i < n; ++i) {
        p[i] = (int64_t)REAL(pr)[i];
        t[i] = (int64_t)REAL(tr)[i];
    }
    UNPROTECT(2);
    double accuracy = 0.0;
    const facto_status st = facto_clustering_accuracy(p, t, n, &accuracy);
    return st < 0 ? failure(st, facto_last_error()) : Rf_ScalarReal(accuracy);
}

/* A facto_sparse as list(i, j, x, n) with 1-based indices; frees the handle. */
static SEXP sparse_to_list(facto_sparse* m)
{
    int64_t rows = 0, cols = 0, nnz = 0;
    facto_sparse_shape(m, &rows, &cols, &nnz);
    int64_t* i = (int64_t*)R_alloc((size_t)(nnz > 0 ? nnz : 1), sizeof(int64_t));
    int64_t* j = (int64_t*)R_alloc((size_t)(nnz > 0 ? nnz : 1), sizeof(int64_t));
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 5));
    SEXP ri = PROTECT(Rf_allocVector(REALSXP, nnz)), rj = PROTECT(Rf_allocVector(REALSXP, nnz));
    SEXP rx = PROTECT(Rf_allocVector(REALSXP, nnz));
    facto_sparse_copy_coo(m, i, j, REAL(rx));
    facto_sparse_free(m);
    for (int64_t k = 0; k < nnz; ++k) {
        REAL(ri)[k] = (double)(i[k] + 1);
        REAL(rj)[k] = (double)(j[k] + 1);
    }
    SET_VECTOR_ELT(out, 0, ri);
    SET_VECTOR_ELT(out, 1, rj);
    SET_VECTOR_ELT(out, 2, rx);
    SET_VECTOR_ELT(out, 3, Rf_ScalarReal((double)rows));
    SET_VECTOR_ELT(out, 4, Rf_ScalarReal((double)cols));
    UNPROTECT(4);
    return out;
}

SEXP facto_r_knn_similarity(SEXP X, SEXP k, SEXP kind, SEXP scaling, SEXP search)
{
    if (!Rf_isReal(X) || !Rf_isMatrix(X)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "X must be a numeric matrix");
    const int64_t rows = Rf_nrows(X);
    facto_sparse* S = NULL;
    const facto_status st = facto_knn_similarity_search(REAL(X), rows, Rf_ncols(X), rows > 0 ? rows : 1, FACTO_COL_MAJOR,
                                                        (int64_t)Rf_asReal(k), Rf_asInteger(kind), Rf_asInteger(scaling),
                                                        Rf_asInteger(search), &S);
    return st < 0 ? failure(st, facto_last_error()) : sparse_to_list(S);
}

/* The kNN graph of sparse rows given as 1-based triplets (i, j, x) of a rows x cols matrix. */
SEXP facto_r_knn_similarity_sparse(SEXP i, SEXP j, SEXP x, SEXP shape, SEXP k, SEXP kind, SEXP scaling, SEXP search)
{
    const R_xlen_t nnz = Rf_xlength(x);
    if (Rf_xlength(i) != nnz || Rf_xlength(j) != nnz || !Rf_isReal(x) || Rf_xlength(shape) != 2)
        return failure(FACTO_ERROR_INVALID_ARGUMENT, "i, j and x must have the same length, x numeric");
    facto_sparse* S = NULL;
    const facto_status st = facto_knn_similarity_sparse(FACTO_SPARSE_COO, (int64_t)REAL(shape)[0], (int64_t)REAL(shape)[1],
                                                        nnz, zero_based(i), zero_based(j), REAL(x), (int64_t)Rf_asReal(k),
                                                        Rf_asInteger(kind), Rf_asInteger(scaling), Rf_asInteger(search),
                                                        &S);
    return st < 0 ? failure(st, facto_last_error()) : sparse_to_list(S);
}

SEXP facto_r_read_mtx(SEXP path)
{
    facto_sparse* S = NULL;
    const facto_status st = facto_sparse_read(CHAR(STRING_ELT(path, 0)), &S);
    return st < 0 ? failure(st, facto_last_error()) : sparse_to_list(S);
}

SEXP facto_r_helix(SEXP n, SEXP seed)
{
    const int64_t size = (int64_t)Rf_asReal(n);
    if (size < 1) return failure(FACTO_ERROR_DIMENSION, "n must be at least 1");
    double* rowmajor = (double*)R_alloc((size_t)(3 * size), sizeof(double));
    const facto_status st = facto_helix_points(size, (uint64_t)Rf_asReal(seed), rowmajor, 3 * size);
    if (st < 0) return failure(st, facto_last_error());
    SEXP out = PROTECT(Rf_allocMatrix(REALSXP, (int)size, 3));
    for (int64_t i = 0; i < size; ++i)
        for (int c = 0; c < 3; ++c) REAL(out)[i + c * size] = rowmajor[3 * i + c];
    UNPROTECT(1);
    return out;
}

SEXP facto_r_sample_pairs(SEXP X, SEXP fraction, SEXP seed)
{
    if (!Rf_isReal(X) || !Rf_isMatrix(X)) return failure(FACTO_ERROR_INVALID_ARGUMENT, "X must be a numeric matrix");
    const int64_t rows = Rf_nrows(X);
    facto_sparse* pairs = NULL;
    const facto_status st = facto_sample_pairs(REAL(X), rows, Rf_ncols(X), rows > 0 ? rows : 1, FACTO_COL_MAJOR,
                                               Rf_asReal(fraction), (uint64_t)Rf_asReal(seed), &pairs);
    return st < 0 ? failure(st, facto_last_error()) : sparse_to_list(pairs);
}

SEXP facto_r_distance_nrmse(SEXP X, SEXP X_true, SEXP max_pairs, SEXP seed)
{
    if (!Rf_isReal(X) || !Rf_isMatrix(X) || !Rf_isReal(X_true) || !Rf_isMatrix(X_true) ||
        Rf_nrows(X) != Rf_nrows(X_true) || Rf_ncols(X) != Rf_ncols(X_true))
        return failure(FACTO_ERROR_INVALID_ARGUMENT, "X and X_true must be numeric matrices of the same shape");
    double value = 0.0;
    const facto_status st = facto_distance_nrmse(REAL(X), REAL(X_true), Rf_nrows(X), Rf_ncols(X), FACTO_COL_MAJOR,
                                                 (int64_t)Rf_asReal(max_pairs), (uint64_t)Rf_asReal(seed), &value);
    return st < 0 ? failure(st, facto_last_error()) : Rf_ScalarReal(value);
}

/* list(X = M x N matrix, anchors = 1-based) of facto_separable_data. */
SEXP facto_r_separable_data(SEXP kind, SEXP M, SEXP N, SEXP K, SEXP snr_db, SEXP seed)
{
    const int64_t m = (int64_t)Rf_asReal(M), n = (int64_t)Rf_asReal(N), k = (int64_t)Rf_asReal(K);
    if (m < 1 || n < 1 || k < 1) return failure(FACTO_ERROR_INVALID_ARGUMENT, "M, N and K must be at least 1");
    SEXP X = PROTECT(Rf_allocMatrix(REALSXP, (int)m, (int)n));
    int64_t* anchors = (int64_t*)R_alloc((size_t)k, sizeof(int64_t));
    const facto_status st = facto_separable_data(Rf_asInteger(kind), m, n, k, Rf_asReal(snr_db),
                                                 (uint64_t)Rf_asReal(seed), REAL(X), m * n, FACTO_COL_MAJOR, anchors, k);
    if (st < 0) {
        UNPROTECT(1);
        return failure(st, facto_last_error());
    }
    SEXP a = PROTECT(Rf_allocVector(REALSXP, k));
    for (int64_t i = 0; i < k; ++i) REAL(a)[i] = (double)(anchors[i] + 1);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 2)), names = PROTECT(Rf_allocVector(STRSXP, 2));
    SET_VECTOR_ELT(out, 0, X);
    SET_VECTOR_ELT(out, 1, a);
    SET_STRING_ELT(names, 0, Rf_mkChar("X"));
    SET_STRING_ELT(names, 1, Rf_mkChar("anchors"));
    Rf_setAttrib(out, R_NamesSymbol, names);
    UNPROTECT(4);
    return out;
}

SEXP facto_r_version(void)
{
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(out, 0, Rf_mkString(facto_version()));
    SET_VECTOR_ELT(out, 1, Rf_ScalarInteger(facto_version_number()));
    UNPROTECT(1);
    return out;
}

/* ---- models: an R list(kind, arrays = named list of matrices) rebuilt into a facto_model per call ---- */

/* The facto_model of list(kind, arrays), or NULL with *failed set to the failure. R matrices are
 * column-major and facto_model_set_array takes row-major: transposed here. */
static facto_model* model_of(SEXP model, SEXP* failed)
{
    SEXP kind = VECTOR_ELT(model, 0), arrays = VECTOR_ELT(model, 1), names = Rf_getAttrib(arrays, R_NamesSymbol);
    facto_model* m = NULL;
    facto_status st = facto_model_new(CHAR(STRING_ELT(kind, 0)), &m);
    if (st < 0) return *failed = failure(st, facto_last_error()), NULL;
    for (R_xlen_t a = 0; a < Rf_xlength(arrays); ++a) {
        SEXP values = PROTECT(Rf_coerceVector(VECTOR_ELT(arrays, a), REALSXP));
        const int rows = Rf_isMatrix(values) ? Rf_nrows(values) : (int)Rf_xlength(values);
        const int cols = Rf_isMatrix(values) ? Rf_ncols(values) : 1;
        double* row_major = (double*)R_alloc((size_t)(rows * cols > 0 ? rows * cols : 1), sizeof(double));
        for (int i = 0; i < rows; ++i)
            for (int j = 0; j < cols; ++j) row_major[(size_t)i * cols + j] = REAL(values)[i + (size_t)j * rows];
        st = facto_model_set_array(m, CHAR(STRING_ELT(names, a)), row_major, rows, cols);
        UNPROTECT(1);
        if (st < 0) {
            *failed = failure(st, facto_model_last_error(m));
            facto_model_free(m);
            return NULL;
        }
    }
    return m;
}

/* list(kind, arrays, settings) of a facto_model, which is freed. */
static SEXP list_of_model(facto_model* m)
{
    int64_t count = 0;
    facto_model_array_count(m, &count);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 3)), arrays = PROTECT(Rf_allocVector(VECSXP, count));
    SEXP names = PROTECT(Rf_allocVector(STRSXP, count)), labels = PROTECT(Rf_allocVector(STRSXP, 3));
    for (int64_t a = 0; a < count; ++a) {
        const char* name = NULL;
        int64_t rows = 0, cols = 0;
        facto_model_array_name(m, a, &name);
        facto_model_array_shape(m, name, &rows, &cols);
        double* row_major = (double*)R_alloc((size_t)(rows * cols > 0 ? rows * cols : 1), sizeof(double));
        facto_model_copy_array(m, name, row_major, rows * cols);
        SEXP values = PROTECT(Rf_allocMatrix(REALSXP, (int)rows, (int)cols));
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j) REAL(values)[i + j * rows] = row_major[i * cols + j];
        SET_VECTOR_ELT(arrays, a, values);
        SET_STRING_ELT(names, a, Rf_mkChar(name));
        UNPROTECT(1);
    }
    Rf_setAttrib(arrays, R_NamesSymbol, names);
    SET_VECTOR_ELT(out, 0, Rf_mkString(facto_model_kind(m)));
    SET_VECTOR_ELT(out, 1, arrays);
    SET_VECTOR_ELT(out, 2, Rf_mkString(facto_model_settings(m)));
    SET_STRING_ELT(labels, 0, Rf_mkChar("kind"));
    SET_STRING_ELT(labels, 1, Rf_mkChar("arrays"));
    SET_STRING_ELT(labels, 2, Rf_mkChar("settings"));
    Rf_setAttrib(out, R_NamesSymbol, labels);
    facto_model_free(m);
    UNPROTECT(4);
    return out;
}

SEXP facto_r_solver_model(SEXP ptr)
{
    SOLVER_OR_FAIL(box, ptr);
    facto_model* m = NULL;
    const facto_status st = facto_solver_model(box->solver, &m);
    return st < 0 ? solver_failure(box, st) : list_of_model(m);
}

/* The model with a feature rule: "rbf" (X, bandwidth a, scaling b), "knn" (X, k a, kind b, scaling c,
 * search d), "points" (X), "sparse_points" (X the values, 1-based rows a and columns b, c = (rows, cols)),
 * "sparse_knn" (X, a, b and c as for sparse_points, d = (k, kind, scaling, search)) or "gram" (X is D). */
SEXP facto_r_model_rule(SEXP model, SEXP rule_sexp, SEXP X, SEXP a, SEXP b, SEXP c, SEXP d)
{
    SEXP failed = R_NilValue;
    facto_model* m = model_of(model, &failed);
    if (!m) return failed;
    const char* rule = CHAR(STRING_ELT(rule_sexp, 0));
    const int64_t rows = Rf_nrows(X), cols = Rf_ncols(X), ld = rows > 0 ? rows : 1;
    facto_status st;
    if (!strcmp(rule, "rbf"))
        st = facto_model_use_gaussian_affinity(m, REAL(X), rows, cols, ld, FACTO_COL_MAJOR, Rf_asReal(a), Rf_asInteger(b));
    else if (!strcmp(rule, "knn"))
        st = facto_model_use_knn_similarity_search(m, REAL(X), rows, cols, ld, FACTO_COL_MAJOR, (int64_t)Rf_asReal(a),
                                                   Rf_asInteger(b), Rf_asInteger(c), Rf_asInteger(d));
    else if (!strcmp(rule, "points"))
        st = facto_model_use_points(m, REAL(X), rows, cols, ld, FACTO_COL_MAJOR);
    else if (!strcmp(rule, "sparse_points"))
        st = Rf_xlength(a) != Rf_xlength(X) || Rf_xlength(b) != Rf_xlength(X) || Rf_xlength(c) != 2
                 ? FACTO_ERROR_INVALID_ARGUMENT
                 : facto_model_use_points_sparse(m, FACTO_SPARSE_COO, (int64_t)REAL(c)[0], (int64_t)REAL(c)[1],
                                                 (int64_t)Rf_xlength(X), zero_based(a), zero_based(b), REAL(X));
    else if (!strcmp(rule, "sparse_knn"))
        st = Rf_xlength(a) != Rf_xlength(X) || Rf_xlength(b) != Rf_xlength(X) || Rf_xlength(c) != 2 || Rf_xlength(d) != 4
                 ? FACTO_ERROR_INVALID_ARGUMENT
                 : facto_model_use_knn_similarity_sparse(m, FACTO_SPARSE_COO, (int64_t)REAL(c)[0], (int64_t)REAL(c)[1],
                                                         (int64_t)Rf_xlength(X), zero_based(a), zero_based(b), REAL(X),
                                                         (int64_t)REAL(d)[0], (int32_t)REAL(d)[1], (int32_t)REAL(d)[2],
                                                         (int32_t)REAL(d)[3]);
    else
        st = facto_model_use_gram(m, REAL(X), rows, cols, ld, FACTO_COL_MAJOR);
    if (st < 0) {
        failed = failure(st, facto_model_last_error(m));
        facto_model_free(m);
        return failed;
    }
    return list_of_model(m);
}

/* list(rows, labels (0-based), residuals) of new data: a dense matrix (by_columns: its columns are the
 * points, for self-dictionary models) or, when X is NULL, 1-based triplets i, j, x of a rows x cols matrix. */
SEXP facto_r_model_apply(SEXP model, SEXP X, SEXP i, SEXP j, SEXP x, SEXP rows_sexp, SEXP cols_sexp)
{
    SEXP failed = R_NilValue;
    facto_model* m = model_of(model, &failed);
    if (!m) return failed;
    int64_t columns = 0;
    facto_status st = facto_model_apply_columns(m, &columns);
    const int64_t rows = X == R_NilValue ? (int64_t)Rf_asReal(rows_sexp) : Rf_nrows(X);
    const int64_t cols = X == R_NilValue ? (int64_t)Rf_asReal(cols_sexp) : Rf_ncols(X);
    const int64_t q = !strcmp(facto_model_kind(m), "self_dictionary") ? cols : rows;
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
    SEXP values = PROTECT(Rf_allocMatrix(REALSXP, (int)q, (int)columns));
    SEXP labels = PROTECT(Rf_allocVector(REALSXP, q)), residuals = PROTECT(Rf_allocVector(REALSXP, q));
    double* row_major = (double*)R_alloc((size_t)(q * columns > 0 ? q * columns : 1), sizeof(double));
    int64_t* label = (int64_t*)R_alloc((size_t)(q > 0 ? q : 1), sizeof(int64_t));
    if (st >= 0 && X != R_NilValue) {
        st = facto_model_apply(m, REAL(X), rows, cols, rows > 0 ? rows : 1, FACTO_COL_MAJOR, row_major, q * columns,
                               label, REAL(residuals));
    } else if (st >= 0) {
        const int64_t nnz = Rf_xlength(x);
        st = facto_model_apply_sparse(m, FACTO_SPARSE_COO, rows, cols, nnz, zero_based(i), zero_based(j), REAL(x),
                                      row_major, q * columns, label, REAL(residuals));
    }
    if (st < 0) {
        failed = failure(st, facto_model_last_error(m));
        facto_model_free(m);
        UNPROTECT(4);
        return failed;
    }
    for (int64_t r = 0; r < q; ++r) {
        REAL(labels)[r] = (double)label[r];
        for (int64_t c = 0; c < columns; ++c) REAL(values)[r + c * q] = row_major[r * columns + c];
    }
    SET_VECTOR_ELT(out, 0, values);
    SET_VECTOR_ELT(out, 1, labels);
    SET_VECTOR_ELT(out, 2, residuals);
    facto_model_free(m);
    UNPROTECT(4);
    return out;
}

/* Saves list(kind, arrays); without the feature rule's copy of the training points unless `training`. */
SEXP facto_r_model_save(SEXP model, SEXP directory, SEXP settings, SEXP training)
{
    SEXP failed = R_NilValue;
    facto_model* m = model_of(model, &failed);
    if (!m) return failed;
    facto_status st = Rf_asLogical(training) ? FACTO_OK : facto_model_drop_training_features(m);
    if (st >= 0) st = facto_model_save(m, CHAR(STRING_ELT(directory, 0)), CHAR(STRING_ELT(settings, 0)));
    failed = st < 0 ? failure(st, facto_model_last_error(m)) : R_NilValue;
    facto_model_free(m);
    return failed;
}

/* facto_model_describe's JSON of list(kind, arrays). */
SEXP facto_r_model_describe(SEXP model)
{
    SEXP failed = R_NilValue;
    facto_model* m = model_of(model, &failed);
    if (!m) return failed;
    const char* json = NULL;
    const facto_status st = facto_model_describe(m, &json);
    SEXP out = st < 0 ? failure(st, facto_model_last_error(m)) : Rf_mkString(json);
    facto_model_free(m);
    return out;
}

SEXP facto_r_model_load(SEXP directory)
{
    facto_model* m = NULL;
    const facto_status st = facto_model_load(CHAR(STRING_ELT(directory, 0)), &m);
    return st < 0 ? failure(st, facto_last_error()) : list_of_model(m);
}

/* list(consensus, cophenetic, dispersion) of clusterings: an R matrix with one run per row. */
SEXP facto_r_consensus(SEXP labels)
{
    SEXP real = PROTECT(Rf_coerceVector(labels, REALSXP));
    const int64_t runs = Rf_nrows(labels), n = Rf_ncols(labels);
    int64_t* row_major = (int64_t*)R_alloc((size_t)(runs * n > 0 ? runs * n : 1), sizeof(int64_t));
    for (int64_t r = 0; r < runs; ++r)
        for (int64_t i = 0; i < n; ++i) row_major[r * n + i] = (int64_t)REAL(real)[r + i * runs];
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 3)), C = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)n));
    double cophenetic = 0.0, dispersion = 0.0;
    const facto_status st = facto_consensus(row_major, runs, n, REAL(C), &cophenetic, &dispersion);
    if (st < 0) {
        UNPROTECT(3);
        return failure(st, facto_last_error());
    }
    SET_VECTOR_ELT(out, 0, C);  /* symmetric: its row-major copy is its column-major one */
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal(cophenetic));
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal(dispersion));
    UNPROTECT(3);
    return out;
}

/* ---- registration --------------------------------------------------------------------------- */

static const R_CallMethodDef methods[] = {
    {"facto_r_simplicial_symnmf", (DL_FUNC)&facto_r_simplicial_symnmf, 2},
    {"facto_r_symnmf", (DL_FUNC)&facto_r_symnmf, 2},
    {"facto_r_symnmf_sparse", (DL_FUNC)&facto_r_symnmf_sparse, 5},
    {"facto_r_nomad_points_sparse", (DL_FUNC)&facto_r_nomad_points_sparse, 5},
    {"facto_r_self_dictionary_sparse", (DL_FUNC)&facto_r_self_dictionary_sparse, 6},
    {"facto_r_edm_completion", (DL_FUNC)&facto_r_edm_completion, 5},
    {"facto_r_knn_similarity", (DL_FUNC)&facto_r_knn_similarity, 5},
    {"facto_r_knn_similarity_sparse", (DL_FUNC)&facto_r_knn_similarity_sparse, 8},
    {"facto_r_read_mtx", (DL_FUNC)&facto_r_read_mtx, 1},
    {"facto_r_helix", (DL_FUNC)&facto_r_helix, 2},
    {"facto_r_sample_pairs", (DL_FUNC)&facto_r_sample_pairs, 3},
    {"facto_r_distance_nrmse", (DL_FUNC)&facto_r_distance_nrmse, 4},
    {"facto_r_problem_free", (DL_FUNC)&facto_r_problem_free, 1},
    {"facto_r_problem_info", (DL_FUNC)&facto_r_problem_info, 1},
    {"facto_r_objective", (DL_FUNC)&facto_r_objective, 2},
    {"facto_r_solver_new", (DL_FUNC)&facto_r_solver_new, 2},
    {"facto_r_solver_free", (DL_FUNC)&facto_r_solver_free, 1},
    {"facto_r_solver_algorithm", (DL_FUNC)&facto_r_solver_algorithm, 1},
    {"facto_r_solver_nomad_layer", (DL_FUNC)&facto_r_solver_nomad_layer, 2},
    {"facto_r_set", (DL_FUNC)&facto_r_set, 3},
    {"facto_r_get", (DL_FUNC)&facto_r_get, 2},
    {"facto_r_params", (DL_FUNC)&facto_r_params, 1},
    {"facto_r_algorithms", (DL_FUNC)&facto_r_algorithms, 1},
    {"facto_r_reset", (DL_FUNC)&facto_r_reset, 1},
    {"facto_r_set_iterate", (DL_FUNC)&facto_r_set_iterate, 2},
    {"facto_r_progress", (DL_FUNC)&facto_r_progress, 1},
    {"facto_r_set_callback", (DL_FUNC)&facto_r_set_callback, 3},
    {"facto_r_step", (DL_FUNC)&facto_r_step, 1},
    {"facto_r_solve", (DL_FUNC)&facto_r_solve, 1},
    {"facto_r_iterate", (DL_FUNC)&facto_r_iterate, 1},
    {"facto_r_output", (DL_FUNC)&facto_r_output, 2},
    {"facto_r_self_dictionary", (DL_FUNC)&facto_r_self_dictionary, 3},
    {"facto_r_separable_data", (DL_FUNC)&facto_r_separable_data, 6},
    {"facto_r_gaussian_affinity", (DL_FUNC)&facto_r_gaussian_affinity, 3},
    {"facto_r_nomad_gram", (DL_FUNC)&facto_r_nomad_gram, 1},
    {"facto_r_nomad", (DL_FUNC)&facto_r_nomad, 2},
    {"facto_r_nomad_points", (DL_FUNC)&facto_r_nomad_points, 2},
    {"facto_r_nomad_layer", (DL_FUNC)&facto_r_nomad_layer, 2},
    {"facto_r_accuracy", (DL_FUNC)&facto_r_accuracy, 2},
    {"facto_r_topics", (DL_FUNC)&facto_r_topics, 7},
    {"facto_r_communities", (DL_FUNC)&facto_r_communities, 6},
    {"facto_r_problem_params", (DL_FUNC)&facto_r_problem_params, 1},
    {"facto_r_spearman", (DL_FUNC)&facto_r_spearman, 2},
    {"facto_r_kmeans", (DL_FUNC)&facto_r_kmeans, 4},
    {"facto_r_version", (DL_FUNC)&facto_r_version, 0},
    {"facto_r_solver_model", (DL_FUNC)&facto_r_solver_model, 1},
    {"facto_r_model_rule", (DL_FUNC)&facto_r_model_rule, 7},
    {"facto_r_model_apply", (DL_FUNC)&facto_r_model_apply, 7},
    {"facto_r_model_save", (DL_FUNC)&facto_r_model_save, 4},
    {"facto_r_model_describe", (DL_FUNC)&facto_r_model_describe, 1},
    {"facto_r_model_load", (DL_FUNC)&facto_r_model_load, 1},
    {"facto_r_consensus", (DL_FUNC)&facto_r_consensus, 1},
    {NULL, NULL, 0}};

void R_init_facto(DllInfo* dll)
{
    problem_tag = Rf_install("facto_problem");
    solver_tag = Rf_install("facto_solver");
    R_registerRoutines(dll, NULL, methods, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
}
