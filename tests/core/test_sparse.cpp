// Sparse M: CSR/CSC/COO construction rules, SpMM, symmetry checks, and the sparse SymNMF path
// against the dense one.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <memory>

#include "solvers/low_rank/nolips.hpp"
#include "linalg/sparse.hpp"
#include "linalg/symmetric_operator.hpp"
#include "problems/symnmf.hpp"
#include "fixtures.hpp"

using namespace facto;
using namespace facto::test;

namespace {

Matrix to_dense(const CsrMatrix& A)
{
    Matrix D = xt::zeros<double>({static_cast<std::size_t>(A.rows), static_cast<std::size_t>(A.cols)});
    for (int64_t i = 0; i < A.rows; ++i)
        for (int64_t p = A.indptr[i]; p < A.indptr[i + 1]; ++p)
            D(static_cast<std::size_t>(i), static_cast<std::size_t>(A.indices[p])) += A.values[p];
    return D;
}

// Triplets of the entries of a dense matrix whose value is above `threshold` (a sparsified affinity).
CsrMatrix sparsify(const Matrix& D, double threshold)
{
    std::vector<int64_t> r, c;
    std::vector<double> v;
    for (std::size_t i = 0; i < D.shape()[0]; ++i)
        for (std::size_t j = 0; j < D.shape()[1]; ++j)
            if (D(i, j) > threshold) r.push_back(i), c.push_back(j), v.push_back(D(i, j));
    return csr_from_triplets(D.shape()[0], D.shape()[1], r.data(), c.data(), v.data(), v.size());
}

// NoLips's iterate after `iterations` steps from the same start, with the given parameters.
Matrix nolips_iterate(std::shared_ptr<const SymNMF> problem, int iterations, int64_t reuse, int64_t threads)
{
    NoLips solver(std::move(problem));
    solver.mutable_params().set_int("max_iterations", iterations);
    solver.mutable_params().set_double("objective_tolerance", 0.0);
    solver.mutable_params().set_double("tolerance", 0.0);
    solver.mutable_params().set_int("reuse_products", reuse);
    solver.mutable_params().set_int("threads", threads);
    solver.solve();
    return solver.iterate();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sparse)

BOOST_AUTO_TEST_CASE(coo_csr_and_csc_inputs_build_the_same_matrix_and_sum_duplicates)
{
    // 3 x 4, unsorted, with a duplicate at (2, 1).
    const int64_t row[] = {2, 0, 2, 1, 2}, col[] = {1, 3, 0, 1, 1};
    const double value[] = {1.5, 2.0, -1.0, 4.0, 0.5};
    const CsrMatrix coo = csr_from_triplets(3, 4, row, col, value, 5);
    const Matrix expected{{0, 0, 0, 2}, {0, 4, 0, 0}, {-1, 2, 0, 0}};
    BOOST_TEST(to_dense(coo) == expected);
    BOOST_TEST(coo.nnz() == 4);
    const int64_t indptr[] = {0, 1, 2, 4}, indices[] = {3, 1, 1, 0};
    const double csr_values[] = {2.0, 4.0, 2.0, -1.0};
    BOOST_TEST(to_dense(csr_from_compressed(3, 4, indptr, indices, csr_values, false)) == expected);
    const int64_t col_ptr[] = {0, 1, 3, 3, 4}, row_idx[] = {2, 1, 2, 0};
    const double csc_values[] = {-1.0, 4.0, 2.0, 2.0};
    BOOST_TEST(to_dense(csr_from_compressed(3, 4, col_ptr, row_idx, csc_values, true)) == expected);
}

BOOST_AUTO_TEST_CASE(bad_sparse_input_is_named)
{
    const int64_t row[] = {0, 3}, col[] = {0, 0};
    const double value[] = {1.0, 2.0}, nan_value[] = {1.0, std::nan("")};
    BOOST_TEST(status_of([&] { csr_from_triplets(3, 3, row, col, value, 2); }) == FACTO_ERROR_INVALID_ARGUMENT);
    const int64_t ok_row[] = {0, 1};
    BOOST_TEST(status_of([&] { csr_from_triplets(3, 3, ok_row, col, nan_value, 2); }) == FACTO_ERROR_NOT_FINITE);
    const int64_t decreasing[] = {0, 2, 1, 2}, indices[] = {0, 1};
    BOOST_TEST(status_of([&] { csr_from_compressed(3, 3, decreasing, indices, value, false); }) ==
               FACTO_ERROR_INVALID_ARGUMENT);
    const int64_t r2[] = {0, 1}, c2[] = {1, 0};
    const double v2[] = {1.0, 1.5};
    BOOST_TEST(status_of([&] { require_symmetric(csr_from_triplets(2, 2, r2, c2, v2, 2), "M"); }) ==
               FACTO_ERROR_NOT_SYMMETRIC);
    const double v3[] = {1.0, 1.0};
    BOOST_TEST(status_of([&] { require_symmetric(csr_from_triplets(2, 2, r2, c2, v3, 2), "M"); }) == FACTO_OK);
    BOOST_TEST(status_of([&] { require_symmetric(csr_from_triplets(2, 2, r2, c2, v3, 1), "M"); }) ==
               FACTO_ERROR_NOT_SYMMETRIC);  // the mirror of (0, 1) is missing
}

BOOST_AUTO_TEST_CASE(spmm_matches_gemm_for_any_thread_count)
{
    const CsrMatrix A = sparsify(random_affinity(700, 3, 3), 0.3);
    const Matrix X = random_matrix(700, 5, 4);
    Matrix one({700, 5}), four({700, 5});
    spmm(A, X, one, 1);
    spmm(A, X, four, 4);
    BOOST_TEST(one == four);  // bitwise: each row is summed in stored order
    BOOST_TEST(xt::allclose(one, xt::linalg::dot(to_dense(A), X), 1e-13, 1e-13));
}

BOOST_AUTO_TEST_CASE(symmetric_operator_gives_the_same_products_in_either_storage)
{
    const CsrMatrix A = sparsify(random_affinity(60, 3, 8), 0.25);
    const Matrix M = to_dense(A);
    const SymmetricOperator sparse(A), dense(M);
    BOOST_TEST(sparse.sparse());
    BOOST_TEST(!dense.sparse());
    BOOST_TEST(sparse.n() == 60);
    BOOST_TEST(dense.n() == 60);
    // Two sums of the same N terms in different orders differ by at most 2 gamma_N <= N eps times the sum
    // of the terms' magnitudes (Higham, Thm. 3.1 and Lemma 3.1): N = 3600 entries for the norms, N = 60
    // products for each entry of M X.
    const double eps = std::numeric_limits<double>::epsilon();
    BOOST_TEST(std::fabs(sparse.frobenius_norm_squared() - dense.frobenius_norm_squared()) <=
               3600.0 * eps * dense.frobenius_norm_squared());
    BOOST_TEST(std::fabs(sparse.sum_abs() - xt::sum(xt::abs(M))()) <= 3600.0 * eps * sparse.sum_abs());
    const Matrix X = random_matrix(60, 4, 9), expected = xt::linalg::dot(M, X);
    const Matrix bound = 60.0 * eps * Matrix(xt::linalg::dot(xt::abs(M), xt::abs(X)));
    const auto within = [&](const Matrix& Y) { return xt::all(xt::abs(Y - expected) <= bound); };
    Matrix from_sparse({60, 4}), from_dense({60, 4});
    sparse.multiply(X, from_sparse, 2);
    dense.multiply(X, from_dense, 2);
    BOOST_TEST(within(from_sparse));
    BOOST_TEST(within(from_dense));
    Matrix rows_sparse({60, 4}), rows_dense({60, 4});
    Matrix columns_sparse = xt::zeros<double>({60, 4}), columns_dense = xt::zeros<double>({60, 4});
    for (std::size_t i = 0; i < 60; ++i) {
        sparse.multiply_row(static_cast<int64_t>(i), X, &rows_sparse(i, 0));
        dense.multiply_row(static_cast<int64_t>(i), X, &rows_dense(i, 0));
        BOOST_TEST(sparse.diagonal(static_cast<int64_t>(i)) == M(i, i));
        BOOST_TEST(dense.diagonal(static_cast<int64_t>(i)) == M(i, i));
        // column k of M X gathered one column of M at a time: sum_j X_jk M(:, j)
        for (std::size_t k = 0; k < 4; ++k) {
            sparse.add_column(i, X(i, k), k, columns_sparse.data(), 4);
            dense.add_column(i, X(i, k), k, columns_dense.data(), 4);
        }
    }
    BOOST_TEST(within(rows_sparse));
    BOOST_TEST(within(rows_dense));
    BOOST_TEST(within(columns_sparse));
    BOOST_TEST(within(columns_dense));
}

BOOST_AUTO_TEST_CASE(sparse_and_dense_symnmf_agree)
{
    const CsrMatrix A = sparsify(random_affinity(80, 3, 5), 0.2);
    const auto sparse = std::make_shared<const SymNMF>(A, 4);
    const auto dense = std::make_shared<const SymNMF>(to_dense(A), 4);
    BOOST_TEST(sparse->sparse());
    BOOST_TEST(sparse->M_norm() == dense->M_norm(), boost::test_tools::tolerance(1e-14));
    const Matrix X = xt::abs(random_matrix(80, 4, 6));
    BOOST_TEST(sparse->objective(X) == dense->objective(X), boost::test_tools::tolerance(1e-12));
    BOOST_TEST(xt::allclose(sparse->random_point(3), dense->random_point(3), 1e-14, 0.0));  // sums of |M| in another order
    NoLips on_sparse(sparse), on_dense(dense);
    for (auto* s : {&on_sparse, &on_dense}) {
        s->mutable_params().set_int("max_iterations", 50);
        s->mutable_params().set_double("objective_tolerance", 0.0);
        s->solve();
    }
    BOOST_TEST(xt::allclose(on_sparse.iterate(), on_dense.iterate(), 1e-9, 1e-12));
    BOOST_TEST(on_sparse.progress().objective == on_dense.progress().objective, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(linear_product_of_sparse_entries_is_m_times_d)
{
    const CsrMatrix A = sparsify(random_affinity(50, 3, 8), 0.3);
    const Matrix D = xt::abs(random_matrix(50, 4, 9)) * (random_matrix(50, 4, 10) > 1.0);  // about 16% nonzero
    std::vector<MatrixEntry> entries;
    for (std::size_t i = 0; i < D.size(); ++i)
        if (D.data()[i] != 0.0) entries.push_back({i, D.data()[i]});
    const Matrix start = random_matrix(50, 4, 11);
    for (const SymNMF& problem : {SymNMF(A, 4), SymNMF(to_dense(A), 4)}) {
        BOOST_TEST(problem.linear_product());
        Matrix out = start;
        problem.add_linear_product(entries, -0.5, out);
        BOOST_TEST(xt::allclose(out, start - 0.5 * xt::linalg::dot(to_dense(A), D), 1e-13, 1e-13));
    }
}

BOOST_AUTO_TEST_CASE(reused_products_give_the_iterates_of_fresh_products)
{
    // A halved trial combines M T from the rejected trial's products: exact in exact arithmetic, so
    // the iterates agree with multiplying every trial up to rounding (and do differ by rounding,
    // which shows the combination ran).
    const CsrMatrix A = sparsify(random_affinity(300, 3, 12), 0.2);
    for (auto problem : {std::make_shared<const SymNMF>(A, 6), std::make_shared<const SymNMF>(to_dense(A), 6)}) {
        const Matrix fresh = nolips_iterate(problem, 150, 0, 2), reused = nolips_iterate(problem, 150, 1, 2);
        const double difference = xt::amax(xt::abs(fresh - reused))(), scale = xt::amax(xt::abs(fresh))();
        BOOST_TEST(difference > 0.0);
        BOOST_TEST(difference <= 1e-10 * scale);
    }
}

BOOST_AUTO_TEST_CASE(nolips_iterates_do_not_depend_on_the_thread_count)
{
    const auto problem = std::make_shared<const SymNMF>(sparsify(random_affinity(3000, 3, 13), 0.5), 5);
    const Matrix one = nolips_iterate(problem, 40, 1, 1);
    BOOST_TEST(nolips_iterate(problem, 40, 1, 2) == one);  // bitwise
    BOOST_TEST(nolips_iterate(problem, 40, 1, 3) == one);
}

BOOST_AUTO_TEST_SUITE_END()
