// SymNMF and Dyn-NoLips with the universal kernel (Dragomir, d'Aspremont & Bolte): tau solves its cubic,
// the Bregman map satisfies its optimality condition, relative smoothness holds with the paper's
// constants, Psi decreases (Thm. 3.1), steps stay above 1/(2L) (Lemma B.1), a planted instance is found.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

#include "metrics/metrics.hpp"
#include "solvers/low_rank/nolips.hpp"
#include "sets/row_simplices.hpp"
#include "problems/symnmf.hpp"
#include "solvers/low_rank/universal_kernel.hpp"
#include "fixtures.hpp"
#include "linalg/blas.hpp"

using namespace facto;
using namespace facto::test;

namespace {

double dense_symnmf_objective(const Matrix& M, const Matrix& X)
{
    const Matrix R = M - xt::linalg::dot(X, xt::transpose(X));
    return 0.5 * xt::sum(R * R)();
}

Matrix gradient_of(const SymNMF& problem, const Matrix& X)
{
    LowRankProblem::Evaluation e;
    Matrix G(X.shape());
    problem.evaluate(X, e, 1);
    problem.gradient(X, e, G, 1);
    return G;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nolips)

BOOST_AUTO_TEST_CASE(tau_solves_its_cubic_to_machine_precision)
{
    const double eps = std::numeric_limits<double>::epsilon();
    for (double sigma : {0.0, 1e-3, 1.0, 1e3}) {
        BOOST_TEST(universal_tau(sigma, 0.0) == sigma);
        for (double e = -300; e <= 300; e += 0.5) {
            const double c = std::pow(10.0, e);
            const double z = universal_tau(sigma, c);
            BOOST_REQUIRE(z >= sigma);
            const long double zl = z, residual = zl * zl * (zl - sigma) - c;
            const long double scale = zl * zl * zl + sigma * zl * zl + c;
            BOOST_REQUIRE_MESSAGE(std::fabs(static_cast<double>(residual)) <= 8 * eps * static_cast<double>(scale),
                                  "sigma " << sigma << " c " << c << " z " << z);
        }
    }
}

BOOST_AUTO_TEST_CASE(bregman_map_satisfies_grad_h_of_T_equals_the_projected_U)
{
    const double alpha = 6.0, sigma = 3.0;
    for (uint64_t seed = 0; seed < 5; ++seed) {
        const Matrix U = random_matrix(20, 4, seed);
        for (bool nonnegative : {false, true}) {
            Matrix T = U;
            universal_map(T, alpha, sigma, nonnegative);
            const Matrix target = nonnegative ? Matrix(xt::maximum(U, 0.0)) : U;
            const Matrix grad_h = (alpha * blas::frobenius_dot(T, T) + sigma) * T;  // eq. (33) / (14)
            BOOST_TEST(xt::allclose(grad_h, target, 1e-12, 1e-14));
        }
    }
}

BOOST_AUTO_TEST_CASE(the_threaded_passes_compute_the_map_and_its_displacement)
{
    const double alpha = 6.0, sigma = 3.0, s = 2.5, lambda = 0.7;
    const Matrix X = xt::abs(random_matrix(9000, 7, 21)), G = random_matrix(9000, 7, 22);  // several chunks
    for (bool nonnegative : {false, true}) {
        Matrix expected = s * X - lambda * G;
        universal_map(expected, alpha, sigma, nonnegative);
        Matrix T(X.shape());
        const double norm2 = universal_numerator(X, s, G, lambda, nonnegative, T, 3);
        const Displacement d = universal_rescale(X, G, 1.0 / universal_tau(sigma, alpha * norm2), T, 3);
        BOOST_TEST(xt::allclose(T, expected, 1e-13, 1e-15));
        const Matrix D = T - X;
        BOOST_TEST(d.x_d == blas::frobenius_dot(X, D), boost::test_tools::tolerance(1e-12));
        BOOST_TEST(d.d_d == blas::frobenius_dot(D, D), boost::test_tools::tolerance(1e-12));
        BOOST_TEST(d.g_d == blas::frobenius_dot(G, D), boost::test_tools::tolerance(1e-12));
        BOOST_TEST(d.t_t == blas::frobenius_dot(T, T), boost::test_tools::tolerance(1e-12));
    }
}

BOOST_AUTO_TEST_CASE(relative_smoothness_holds_with_the_papers_constants)
{
    // f(X) <= f(Y) + <grad f(Y), X - Y> + D_h(X, Y) with alpha = 6, sigma = 2 ||M||_F (Sec. 4.1, L = 1).
    const SymNMF problem(random_affinity(25, 3, 4), 3);
    const double alpha = 6.0, sigma = 2.0 * problem.M_norm();
    for (uint64_t seed = 0; seed < 60; ++seed) {
        const double scale = std::pow(10.0, static_cast<double>(seed % 5) - 2.0);
        const Matrix X = scale * random_matrix(25, 3, 1000 + seed), Y = scale * random_matrix(25, 3, 2000 + seed);
        const Matrix G = gradient_of(problem, Y);
        const double ny = blas::frobenius_dot(Y, Y);
        const double bregman = universal_h(alpha, sigma, blas::frobenius_dot(X, X)) - universal_h(alpha, sigma, ny) -
                               (alpha * ny + sigma) * (blas::frobenius_dot(Y, X) - ny);
        const double lhs = problem.objective(X);
        const double rhs = problem.objective(Y) + blas::frobenius_dot(G, X) - blas::frobenius_dot(G, Y) + bregman;
        BOOST_REQUIRE(lhs <= rhs + 1e-10 * std::max(1.0, std::fabs(rhs)));
    }
}

BOOST_AUTO_TEST_CASE(symnmf_objective_and_gradient)
{
    const SymNMF problem(random_affinity(15, 2, 5), 3);
    const Matrix X = random_matrix(15, 3, 6);
    BOOST_TEST(problem.objective(X) == dense_symnmf_objective(random_affinity(15, 2, 5), X),
               boost::test_tools::tolerance(1e-10));
    const Matrix G = gradient_of(problem, X);
    BOOST_TEST(xt::allclose(G, finite_difference_gradient(problem, X), 1e-6, 1e-8));
    BOOST_TEST(status_of([] { SymNMF(random_affinity(5, 2, 1), 6); }) == FACTO_ERROR_DIMENSION);
    BOOST_TEST(status_of([&] { problem.feasible_point(-X); }) == FACTO_ERROR_INFEASIBLE);
}

BOOST_AUTO_TEST_CASE(psi_decreases_and_steps_stay_above_half_of_one_over_L)
{
    auto problem = std::make_shared<const SymNMF>(random_affinity(60, 3, 7), 5);
    NoLips solver(problem);
    solver.mutable_params().set_double("objective_tolerance", 0.0);
    solver.initialize();
    double previous = solver.progress().objective;
    // f = 1/2 (||M||^2 - 2 <M X, X> + ||X^T X||^2) is computed to about 8 n eps ||M||^2
    const double rounding = 8.0 * 60.0 * 2.220446049250313e-16 * problem->M_norm() * problem->M_norm();
    for (int k = 0; k < 200; ++k) {
        const double before = solver.progress().stationarity;
        solver.step();
        const Progress& p = solver.progress();
        BOOST_REQUIRE(p.objective <= previous + rounding);  // Thm. 3.1: Psi(X^k) nonincreasing
        // Lemma B.1: lambda_k >= min(lambda_0, 1/(2L)), L = 1 (in exact arithmetic: not at the rounding
        // floor, where (22) is decided by the rounding of f)
        if (before > 1e-8) BOOST_REQUIRE(p.step_size >= 0.5);
        BOOST_REQUIRE(xt::amin(solver.iterate())() >= 0.0);
        previous = p.objective;
    }
    BOOST_TEST(solver.progress().objective == dense_symnmf_objective(random_affinity(60, 3, 7), solver.iterate()),
               boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(planted_symnmf_is_recovered)
{
    const std::size_t n = 40, r = 4;
    auto problem = std::make_shared<const SymNMF>(planted_affinity(n, r), r);
    std::vector<int64_t> truth(n);
    for (std::size_t i = 0; i < n; ++i) truth[i] = static_cast<int64_t>(i % r);
    NoLips solver(problem);
    solver.mutable_params().set_int("max_iterations", 5000);
    solver.mutable_params().set_double("tolerance", 1e-9);
    solver.mutable_params().set_double("objective_tolerance", 0.0);
    solver.solve();
    BOOST_TEST(solver.progress().objective < 1e-10 * problem->M_norm() * problem->M_norm());
    BOOST_TEST(clustering_accuracy(row_argmax(solver.iterate()), truth) == 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
