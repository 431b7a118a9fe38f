// facto_problem_*: the stable tier's problems, created from caller data, and what every problem answers.
#include "../inputs.hpp"

#include <cmath>

#include "problems/community_model.hpp"
#include "problems/edm_completion.hpp"
#include "problems/topic_model.hpp"
#include "solvers/nomad/multilayer_nomad.hpp"
#include "problems/nomad.hpp"
#include "problems/self_dictionary.hpp"
#include "problems/simplicial_symnmf.hpp"
#include "linalg/sparse.hpp"
#include "problems/symnmf.hpp"

using facto::capi::guarded;
using facto::capi::named_parameters;
using facto::capi::new_problem;
using facto::capi::require_pointer;
using facto::capi::require_sparse_shape;
using facto::capi::sparse_in;

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

facto_status facto_problem_new_topics(int32_t format, int64_t rows, int64_t cols, int64_t nnz, const int64_t* ptr,
                                      const int64_t* idx, const double* values, int64_t K, int64_t min_df, int64_t rank,
                                      double lambda, double mu, facto_problem** out)
{
    return new_problem(out, [&] {
        require_sparse_shape(format, rows, cols, nnz);
        return std::make_shared<facto::TopicModel>(sparse_in(format, rows, cols, nnz, ptr, idx, values), K, min_df,
                                                   rank, lambda, mu,
                                                   named_parameters("topics", 0, nullptr, nullptr)->get_double("refine"));
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

facto_status facto_problem_new_topics_named(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                            const int64_t* ptr, const int64_t* idx, const double* values, int64_t K,
                                            int64_t count, const char* const* param_names, const double* param_values,
                                            facto_problem** out)
{
    return new_problem(out, [&] {
        const auto p = named_parameters("topics", count, param_names, param_values);
        require_sparse_shape(format, rows, cols, nnz);
        return std::make_shared<facto::TopicModel>(sparse_in(format, rows, cols, nnz, ptr, idx, values), K,
                                                   p->get_int("min_df"), p->get_int("rank"), p->get_double("lambda"),
                                                   p->get_double("mu"), p->get_double("refine"));
    });
}

facto_status facto_problem_new_communities_named(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                                 const int64_t* ptr, const int64_t* idx, const double* values,
                                                 int64_t K, int64_t count, const char* const* param_names,
                                                 const double* param_values, facto_problem** out)
{
    return new_problem(out, [&] {
        const auto p = named_parameters("communities", count, param_names, param_values);
        require_sparse_shape(format, rows, cols, nnz);
        return std::make_shared<facto::CommunityModel>(sparse_in(format, rows, cols, nnz, ptr, idx, values), K,
                                                       p->get_double("energy"), p->get_double("lambda"),
                                                       p->get_double("mu"));
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

facto_status facto_problem_new_self_dictionary_named(const double* X, int64_t rows, int64_t cols, int64_t ld,
                                                     int32_t layout, int64_t K, int64_t count,
                                                     const char* const* param_names, const double* param_values,
                                                     facto_problem** out)
{
    return new_problem(out, [&] {
        const auto p = named_parameters("self_dictionary", count, param_names, param_values);
        return std::make_shared<facto::SelfDictionary>(facto::copy_in(X, rows, cols, ld, layout, "X"), K,
                                                       p->get_double("lambda"), p->get_double("mu"));
    });
}

facto_status facto_problem_new_self_dictionary_sparse(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                                      const int64_t* ptr, const int64_t* idx, const double* values,
                                                      int64_t K, int64_t count, const char* const* param_names,
                                                      const double* param_values, facto_problem** out)
{
    return new_problem(out, [&] {
        const auto p = named_parameters("self_dictionary", count, param_names, param_values);
        require_sparse_shape(format, rows, cols, nnz);
        return std::make_shared<facto::SelfDictionary>(sparse_in(format, rows, cols, nnz, ptr, idx, values), K,
                                                       p->get_double("lambda"), p->get_double("mu"));
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
    return new_problem(out, [&] {
        facto::Matrix copy;  // column-major X only: the row-major one is read where it lies
        return facto::Nomad::from_points(facto::rows_in(X, rows, cols, ld, layout, "X", copy), K);
    });
}

facto_status facto_problem_new_nomad_points_float(const float* X, int64_t rows, int64_t cols, int64_t ld,
                                                  int32_t layout, int64_t K, facto_problem** out)
{
    return new_problem(out, [&] {
        facto::SingleMatrix copy;  // column-major X: its row-major copy is kept, not copied again
        const facto::DenseRows points = facto::rows_in(X, rows, cols, ld, layout, "X", copy);
        return layout == FACTO_COL_MAJOR ? facto::Nomad::from_points(std::move(copy), K)
                                         : facto::Nomad::from_points(points, K);
    });
}

facto_status facto_problem_new_nomad_points_sparse(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                                   const int64_t* ptr, const int64_t* idx, const double* values,
                                                   int64_t K, facto_problem** out)
{
    return new_problem(out, [&] {
        require_sparse_shape(format, rows, cols, nnz);
        return facto::Nomad::from_points(sparse_in(format, rows, cols, nnz, ptr, idx, values), K);
    });
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
