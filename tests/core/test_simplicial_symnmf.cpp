// The problem's mathematics: objective by the trace identity, gradient (eq. 7) against finite
// differences, the line polynomial, the vertex product, and input validation.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "base/error.hpp"
#include "fixtures.hpp"
#include "linalg/blas.hpp"

using namespace facto;
using namespace facto::test;

BOOST_AUTO_TEST_SUITE(simplicial_symnmf)

BOOST_AUTO_TEST_CASE(objective_trace_identity_matches_dense_formula)
{
    const auto problem = make_problem(random_affinity(30, 3, 1), 4);
    const Matrix W = random_matrix(30, 4, 2);  // any point, feasible or not
    BOOST_TEST(problem->objective(W) == dense_objective(problem->P(), W), boost::test_tools::tolerance(1e-10));
}

BOOST_AUTO_TEST_CASE(gradient_matches_central_finite_differences)
{
    const auto problem = make_problem(random_affinity(12, 2, 3), 3);
    const Matrix W = problem->random_point(4);
    Matrix PW(W.shape()), WtW({3, 3}), G(W.shape());
    problem->multiply(W, PW);
    blas::gram(W, WtW);
    problem->gradient(W, PW, WtW, G);
    const double h = 1e-6;
    for (std::size_t i = 0; i < W.shape()[0]; ++i)
        for (std::size_t j = 0; j < W.shape()[1]; ++j) {
            Matrix plus = W, minus = W;
            plus(i, j) += h;
            minus(i, j) -= h;
            const double fd = (problem->objective(plus) - problem->objective(minus)) / (2 * h);
            BOOST_TEST(G(i, j) == fd, boost::test_tools::tolerance(1e-6));
        }
}

BOOST_AUTO_TEST_CASE(line_polynomial_matches_objective_along_the_segment)
{
    const auto problem = make_problem(random_affinity(25, 3, 5), 3);
    const Matrix W = problem->random_point(6);
    const Matrix S = problem->random_point(7);
    const Matrix D = S - W;
    Matrix PW(W.shape()), PD(W.shape()), WtW({3, 3}), G(W.shape());
    problem->multiply(W, PW);
    problem->multiply(D, PD);
    blas::gram(W, WtW);
    problem->gradient(W, PW, WtW, G);
    const Quartic q = problem->along(W, D, PD, WtW, G, problem->objective(W));
    for (double gamma : {0.0, 0.1, 0.37, 0.8, 1.0, 1.7}) {
        const Matrix point = W + gamma * D;
        BOOST_TEST(q(gamma) == dense_objective(problem->P(), point), boost::test_tools::tolerance(1e-9));
    }
}

BOOST_AUTO_TEST_CASE(row_polynomial_matches_objective_when_one_row_moves)
{
    const auto problem = make_problem(random_affinity(25, 3, 15), 4);
    const Matrix W = problem->random_point(16);
    Matrix PW(W.shape()), WtW({4, 4});
    problem->multiply(W, PW);
    blas::gram(W, WtW);
    const double f0 = problem->objective(W);
    const std::vector<double> d{0.3, -0.7, 0.0, 0.4};  // any direction: the polynomial is not restricted to the set
    for (std::size_t i : {std::size_t{0}, std::size_t{11}, std::size_t{24}}) {
        const Quartic q = problem->along_row(i, &W(i, 0), d.data(), &PW(i, 0), WtW, f0);
        for (double gamma : {0.0, 0.2, 0.9, 2.5}) {
            Matrix point = W;
            for (std::size_t j = 0; j < 4; ++j) point(i, j) += gamma * d[j];
            BOOST_TEST(q(gamma) == dense_objective(problem->P(), point), boost::test_tools::tolerance(1e-10));
        }
    }
}

BOOST_AUTO_TEST_CASE(sparse_product_equals_dense_product)
{
    const auto problem = make_problem(random_affinity(17, 2, 8), 4);
    const std::vector<int64_t> vertex{0, 3, 1, 1, 2, 0, 3, 3, 2, 1, 0, 0, 2, 3, 1, 2, 0};
    Matrix S = xt::zeros<double>({17, 4});
    for (std::size_t i = 0; i < 17; ++i) S(i, static_cast<std::size_t>(vertex[i])) = 1.0;
    S(3, 0) = -0.25;  // a pairwise direction's row
    S(5, 2) = 0.5;
    Matrix PS({17, 4}), work({4, 17});
    problem->multiply_sparse(S, PS, work);
    const Matrix reference = xt::linalg::dot(problem->P(), S);
    BOOST_TEST(xt::allclose(PS, reference, 1e-13, 1e-13));
}

BOOST_AUTO_TEST_CASE(curvature_bound_uses_spectral_norm)
{
    const auto problem = make_problem(random_affinity(40, 3, 9), 3);
    const auto eig = xt::linalg::eigh(problem->P());
    const double largest = xt::amax(xt::abs(std::get<0>(eig)))();
    BOOST_TEST(problem->spectral_norm() == largest, boost::test_tools::tolerance(1e-8));
    BOOST_TEST(problem->curvature_bound() == 2.0 * 40 * (3.0 * 40 + largest), boost::test_tools::tolerance(1e-8));
}

BOOST_AUTO_TEST_CASE(rejects_bad_input_with_the_right_status)
{
    const auto create = [](Matrix P, int64_t k) { return status_of([&] { SimplicialSymNMF(std::move(P), k); }); };
    Matrix P = random_affinity(6, 2, 10);
    BOOST_TEST(create(P, 0) == FACTO_ERROR_DIMENSION);
    BOOST_TEST(create(P, 7) == FACTO_ERROR_DIMENSION);
    BOOST_TEST(create(Matrix({6, 5}, 0.0), 2) == FACTO_ERROR_DIMENSION);
    Matrix asymmetric = P;
    asymmetric(0, 1) += 1e-3;
    BOOST_TEST(create(asymmetric, 2) == FACTO_ERROR_NOT_SYMMETRIC);
    Matrix with_nan = P;
    with_nan(2, 2) = std::nan("");
    BOOST_TEST(create(with_nan, 2) == FACTO_ERROR_NOT_FINITE);
    BOOST_TEST(create(P, 6) == FACTO_OK);
}

BOOST_AUTO_TEST_SUITE_END()
