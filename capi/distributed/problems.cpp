// The distributed tier's problems (facto_experimental.h, "Distributed problems"): each process builds
// the problem from its own block of the data, collectively over the host's operations.
#include "../inputs.hpp"

#include "problems/distributed_nomad.hpp"
#include "problems/distributed_symnmf.hpp"
#include "problems/self_dictionary.hpp"

using facto::require;
using facto::capi::new_problem;
using facto::capi::require_pointer;
using facto::capi::require_sparse_shape;
using facto::capi::sparse_in;

extern "C" {

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

}  // extern "C"
