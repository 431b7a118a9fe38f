// facto_problem_*: creating problems from caller data.
#include "handles.hpp"

#include <cmath>

#include "problems/community_model.hpp"
#include "problems/distributed_nomad.hpp"
#include "problems/distributed_symnmf.hpp"
#include "problems/edm_completion.hpp"
#include "problems/topic_model.hpp"
#include "solvers/nomad/multilayer_nomad.hpp"
#include "problems/nomad.hpp"
#include "problems/self_dictionary.hpp"
#include "problems/simplicial_symnmf.hpp"
#include "linalg/sparse.hpp"
#include "problems/symnmf.hpp"

using facto::capi::guarded;
using facto::capi::require_pointer;
using facto::require;

namespace {

// *out = a new handle on the problem make() builds (inside the guard: make may throw).
template <class Make>
facto_status new_problem(facto_problem** out, const Make& make)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        auto handle = std::make_unique<facto_problem>();
        handle->problem = make();
        *out = handle.release();
        return FACTO_OK;
    });
}

// The format and sizes of a sparse argument (facto.h, "Sparse input formats").
void require_sparse_shape(int32_t format, int64_t rows, int64_t cols, int64_t nnz)
{
    require(format == FACTO_SPARSE_CSR || format == FACTO_SPARSE_CSC || format == FACTO_SPARSE_COO,
            FACTO_ERROR_INVALID_ARGUMENT,
            "format must be FACTO_SPARSE_CSR, _CSC or _COO, got " + std::to_string(format));
    require(rows >= 0 && cols >= 0 && nnz >= 0, FACTO_ERROR_INVALID_ARGUMENT,
            "negative size: rows = " + std::to_string(rows) + ", cols = " + std::to_string(cols) +
                ", nnz = " + std::to_string(nnz));
}

// The sparse argument as CSR (its arrays checked and copied).
facto::CsrMatrix sparse_in(int32_t format, int64_t rows, int64_t cols, int64_t nnz, const int64_t* ptr,
                           const int64_t* idx, const double* values)
{
    require_pointer(ptr, "ptr");
    if (format == FACTO_SPARSE_COO) return facto::csr_from_triplets(rows, cols, ptr, idx, values, nnz);
    const int64_t outer = format == FACTO_SPARSE_CSR ? rows : cols;
    require(ptr[outer] == nnz, FACTO_ERROR_INVALID_ARGUMENT,
            "nnz = " + std::to_string(nnz) + " but ptr[" + std::to_string(outer) + "] = " + std::to_string(ptr[outer]));
    return facto::csr_from_compressed(rows, cols, ptr, idx, values, format == FACTO_SPARSE_CSC);
}

}  // namespace

extern "C" {

facto_status facto_problem_new_simplicial_symnmf(const double* P, int64_t rows, int64_t cols, int64_t ld,
                                                 int32_t layout, int64_t k, facto_problem** out)
{
    return new_problem(out, [&] {
        return std::make_shared<facto::SimplicialSymNMF>(facto::copy_in(P, rows, cols, ld, layout, "P"), k);
    });
}

facto_status facto_problem_new_symnmf(const double* M, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                      int64_t r, facto_problem** out)
{
    return new_problem(out, [&] {
        return std::make_shared<facto::SymNMF>(facto::copy_in(M, rows, cols, ld, layout, "M"), r);
    });
}

facto_status facto_problem_new_symnmf_sparse(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                             const int64_t* ptr, const int64_t* idx, const double* values, int64_t r,
                                             facto_problem** out)
{
    return new_problem(out, [&] {
        require_sparse_shape(format, rows, cols, nnz);
        facto::SymNMF::require_rank_and_memory(rows, r);  // before M is built
        return std::make_shared<facto::SymNMF>(sparse_in(format, rows, cols, nnz, ptr, idx, values), r);
    });
}

facto_status facto_problem_new_symnmf_distributed(facto_collectives* collectives, int64_t n, int64_t first_row,
                                                 int32_t format, int64_t rows, int64_t nnz, const int64_t* ptr,
                                                 const int64_t* idx, const double* values, int64_t r,
                                                 facto_problem** out)
{
    return new_problem(out, [&] {
        require_pointer(collectives, "collectives");
        std::shared_ptr<const facto::Collectives> c = collectives->collectives;
        facto::CsrMatrix block;
        // this process's arguments, agreed on before the problem's own collective checks
        facto::agree_on_errors(*c, [&] {
            require(format == FACTO_SPARSE_CSR || format == FACTO_SPARSE_COO, FACTO_ERROR_INVALID_ARGUMENT,
                    "format must be FACTO_SPARSE_CSR or _COO (row blocks), got " + std::to_string(format));
            require_sparse_shape(format, rows, n, nnz);
            block = sparse_in(format, rows, n, nnz, ptr, idx, values);
        });
        return std::make_shared<facto::DistributedSymNMF>(std::move(block), n, first_row, r, std::move(c));
    });
}

facto_status facto_problem_new_nomad_distributed(facto_collectives* collectives, int64_t n, int64_t first_row,
                                                const double* X, int64_t rows, int64_t d, int64_t ld, int32_t layout,
                                                int64_t K, facto_problem** out)
{
    return new_problem(out, [&] {
        require_pointer(collectives, "collectives");
        std::shared_ptr<const facto::Collectives> c = collectives->collectives;
        facto::Matrix block;
        facto::agree_on_errors(*c, [&] { block = facto::copy_in(X, rows, d, ld, layout, "X"); });
        return std::make_shared<facto::DistributedNomad>(block, n, first_row, K, std::move(c));
    });
}

facto_status facto_problem_new_self_dictionary_distributed(facto_collectives* collectives, int64_t N, int64_t first_col,
                                                           const double* X, int64_t rows, int64_t cols, int64_t ld,
                                                           int32_t layout, int64_t K, double lambda, double mu,
                                                           facto_problem** out)
{
    return new_problem(out, [&] {
        require_pointer(collectives, "collectives");
        std::shared_ptr<const facto::Collectives> c = collectives->collectives;
        facto::Matrix block;
        facto::agree_on_errors(*c, [&] { block = facto::copy_in(X, rows, cols, ld, layout, "X"); });
        return facto::SelfDictionary::distributed(block, N, first_col, K, lambda, mu, std::move(c));
    });
}

facto_status facto_problem_new_topics(int32_t format, int64_t rows, int64_t cols, int64_t nnz, const int64_t* ptr,
                                      const int64_t* idx, const double* values, int64_t K, int64_t min_df, int64_t rank,
                                      double lambda, double mu, facto_problem** out)
{
    return new_problem(out, [&] {
        require_sparse_shape(format, rows, cols, nnz);
        return std::make_shared<facto::TopicModel>(sparse_in(format, rows, cols, nnz, ptr, idx, values), K, min_df,
                                                   rank, lambda, mu);
    });
}

facto_status facto_problem_new_communities(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                           const int64_t* ptr, const int64_t* idx, const double* values, int64_t K,
                                           double energy, double lambda, double mu, facto_problem** out)
{
    return new_problem(out, [&] {
        require_sparse_shape(format, rows, cols, nnz);
        return std::make_shared<facto::CommunityModel>(sparse_in(format, rows, cols, nnz, ptr, idx, values), K, energy,
                                                       lambda, mu);
    });
}

facto_status facto_problem_new_edm_completion(int64_t n, int64_t r, int64_t count, const int64_t* i, const int64_t* j,
                                              const double* d, facto_problem** out)
{
    return new_problem(out, [&] { return std::make_shared<facto::EdmCompletion>(n, r, i, j, d, count); });
}

facto_status facto_problem_new_self_dictionary(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                               int64_t K, double lambda, double mu, facto_problem** out)
{
    return new_problem(out, [&] {
        return std::make_shared<facto::SelfDictionary>(facto::copy_in(X, rows, cols, ld, layout, "X"), K, lambda, mu);
    });
}

facto_status facto_problem_new_nomad(const double* D, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                     int64_t K, facto_problem** out)
{
    return new_problem(out, [&] {
        return std::make_shared<facto::Nomad>(facto::copy_in(D, rows, cols, ld, layout, "D"), K);
    });
}

facto_status facto_problem_new_nomad_points(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                            int64_t K, facto_problem** out)
{
    return new_problem(out, [&] { return facto::Nomad::from_points(facto::copy_in(X, rows, cols, ld, layout, "X"), K); });
}

facto_status facto_problem_new_nomad_layer(const facto_solver* previous, int64_t K, facto_problem** out)
{
    return new_problem(out, [&] {
        require_pointer(previous, "previous");
        return facto::nomad_layer(*previous->solver, K);
    });
}

void facto_problem_free(facto_problem* problem) { delete problem; }

const char* facto_problem_kind(const facto_problem* problem) { return problem ? problem->problem->kind() : nullptr; }

const char* facto_problem_last_error(const facto_problem* problem)
{
    return problem ? problem->last_error.c_str() : facto_last_error();
}

facto_status facto_problem_iterate_shape(const facto_problem* problem, int64_t* rows, int64_t* cols)
{
    return guarded(problem ? &problem->last_error : nullptr, [&] {
        require_pointer(problem, "problem");
        require_pointer(rows, "rows");
        require_pointer(cols, "cols");
        const auto shape = problem->problem->iterate_shape();
        *rows = shape[0];
        *cols = shape[1];
        return FACTO_OK;
    });
}

facto_status facto_problem_objective(const facto_problem* problem, const double* X, int64_t rows, int64_t cols, int64_t ld,
                                     int32_t layout, double* value)
{
    return guarded(problem ? &problem->last_error : nullptr, [&] {
        require_pointer(problem, "problem");
        facto::Matrix point;
        facto::capi::agreed(*problem->problem, [&] {
            require_pointer(value, "value");
            point = facto::copy_in(X, rows, cols, ld, layout, "X");
            facto::require_finite(point, "X");
        });
        const double objective = problem->problem->objective(point);
        facto::require(std::isfinite(objective), FACTO_ERROR_NUMERICAL,
                       "the objective at X is " + facto::value_text(objective) + " (it overflows): scale X down");
        *value = objective;
        return FACTO_OK;
    });
}

}  // extern "C"
