// The SymNMF baselines of [DAB] Sec. 4.1: projected gradient with Armijo, beta-SNMF,
// coordinate descent (exact quartic per entry), SymHALS and SymANLS. Each decreases f where its theory says it
// does, reaches a stationary point on a planted instance, and uses sparse and dense M alike.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

#include "solvers/low_rank/beta_snmf.hpp"
#include "solvers/low_rank/coordinate_descent.hpp"
#include "solvers/low_rank/gradient_descent.hpp"
#include "metrics/metrics.hpp"
#include "solvers/registry.hpp"
#include "sets/row_simplices.hpp"
#include "solvers/low_rank/sym_hals.hpp"
#include "problems/symnmf.hpp"
#include "fixtures.hpp"
#include "linalg/blas.hpp"
#include "linalg/polynomial.hpp"

using namespace facto;
using namespace facto::test;

namespace {

CsrMatrix to_csr(const Matrix& M)
{
    std::vector<int64_t> rows, cols;
    std::vector<double> values;
    for (std::size_t i = 0; i < M.shape()[0]; ++i)
        for (std::size_t j = 0; j < M.shape()[1]; ++j)
            if (M(i, j) != 0.0) {
                rows.push_back(static_cast<int64_t>(i));
                cols.push_back(static_cast<int64_t>(j));
                values.push_back(M(i, j));
            }
    return csr_from_triplets(static_cast<int64_t>(M.shape()[0]), static_cast<int64_t>(M.shape()[1]), rows.data(),
                             cols.data(), values.data(), static_cast<int64_t>(values.size()));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(symnmf_baselines)

BOOST_AUTO_TEST_CASE(depressed_quartic_minimizer_beats_a_fine_grid)
{
    Rng rng(3);
    for (int trial = 0; trial < 2000; ++trial) {
        const double P = 20.0 * (rng.uniform() - 0.5), Q = 20.0 * (rng.uniform() - 0.5);
        const auto value = [&](double y) { return y * y * y * y / 4 + P * y * y / 2 + Q * y; };
        const double y = argmin_depressed_quartic_nonnegative(P, Q);
        BOOST_REQUIRE(y >= 0.0);
        double grid_best = 0.0;
        for (double g = 0.0; g <= 6.0; g += 1e-3) grid_best = std::min(grid_best, value(g));
        BOOST_REQUIRE_MESSAGE(value(y) <= grid_best + 1e-9, "P " << P << " Q " << Q << " y " << y);
        if (y > 0.0) BOOST_REQUIRE(std::fabs(y * y * y + P * y + Q) <= 1e-10 * (1 + std::fabs(Q)));  // stationary
    }
}

BOOST_AUTO_TEST_CASE(monotone_baselines_decrease_f_every_iteration)
{
    // Projected gradient (Armijo) and exact coordinate descent are descent methods by construction.
    auto problem = std::make_shared<const SymNMF>(random_affinity(50, 3, 2), 4);
    for (const char* name : {"projected_gradient", "coordinate_descent"}) {
        auto solver = make_solver(problem, name);
        solver->mutable_params().set_double("objective_tolerance", 0.0);
        solver->initialize();
        double previous = solver->progress().objective;
        // up to the rounding of f = 1/2 (||M||^2 - 2 <M X, X> + ||X^T X||^2), about 8 n eps ||M||^2
        const double rounding = 8.0 * 50.0 * 2.220446049250313e-16 * problem->M_norm() * problem->M_norm();
        for (int k = 0; k < 100; ++k) {
            solver->step();
            BOOST_REQUIRE_MESSAGE(solver->progress().objective <= previous + rounding, name << " at " << k);
            BOOST_REQUIRE(xt::amin(solver->iterate())() >= 0.0);
            previous = solver->progress().objective;
        }
    }
}

BOOST_AUTO_TEST_CASE(every_baseline_recovers_a_planted_instance)
{
    const std::size_t n = 40, r = 4;
    auto problem = std::make_shared<const SymNMF>(planted_affinity(n, r), r);
    std::vector<int64_t> truth(n);
    for (std::size_t i = 0; i < n; ++i) truth[i] = static_cast<int64_t>(i % r);
    for (const char* name : {"projected_gradient", "beta_snmf", "coordinate_descent", "sym_hals", "sym_anls"}) {
        auto solver = make_solver(problem, name);
        solver->mutable_params().set_int("max_iterations", 20000);
        solver->mutable_params().set_double("tolerance", 1e-8);
        solver->mutable_params().set_double("objective_tolerance", 0.0);
        solver->mutable_params().set_int("seed", 4);
        solver->solve();
        BOOST_TEST_MESSAGE(name << ": " << solver->progress().iteration << " iterations, f " << solver->progress().objective);
        BOOST_TEST(solver->progress().objective < 1e-8 * problem->M_norm() * problem->M_norm(), name);
        BOOST_TEST(clustering_accuracy(row_argmax(solver->iterate()), truth) == 1.0, name);
    }
}

BOOST_AUTO_TEST_CASE(sparse_and_dense_m_give_the_same_iterates)
{
    const Matrix M = random_affinity(30, 2, 6, 0.5);
    auto dense = std::make_shared<const SymNMF>(M, 3);
    auto sparse = std::make_shared<const SymNMF>(to_csr(M), 3);
    for (const char* name : {"projected_gradient", "beta_snmf", "coordinate_descent", "sym_hals", "sym_anls"}) {
        auto a = make_solver(dense, name), b = make_solver(sparse, name);
        for (auto* s : {a.get(), b.get()}) {
            s->mutable_params().set_int("max_iterations", 30);
            s->mutable_params().set_double("objective_tolerance", 0.0);
            s->solve();
        }
        BOOST_TEST(xt::allclose(a->iterate(), b->iterate(), 1e-9, 1e-12), name);
    }
}

BOOST_AUTO_TEST_CASE(beta_snmf_stalls_rather_than_converges_where_an_entry_is_locked_at_zero)
{
    // Multiplicative updates scale each entry, so one that starts at 0 stays 0. M = 1 1^T (n = 10),
    // r = 1: from X0 = 1 with x_0 = 0 the other entries settle, while grad_0 f = -2 sum_j M_0j x_j < 0
    // keeps x_0 non-stationary: the objective stops moving at a point that is not stationary, and the
    // solve must say STALLED, not CONVERGED.
    const std::size_t n = 10;
    auto problem = std::make_shared<const SymNMF>(Matrix(xt::ones<double>({n, n})), 1);
    auto solver = make_solver(problem, "beta_snmf");
    Matrix X0 = xt::ones<double>({n, std::size_t{1}});
    X0(0, 0) = 0.0;
    solver->set_iterate(X0);
    BOOST_TEST(solver->solve() == FACTO_STALLED);
    BOOST_TEST(solver->iterate()(0, 0) == 0.0);
    BOOST_TEST(solver->progress().stationarity > solver->params().get_double("tolerance"));
}

namespace {

// SymANLS's other factor, from its output "Y".
Matrix anls_y(const Solver& solver, std::size_t n, std::size_t r)
{
    const Output y = solver.output("Y");
    Matrix Y({n, r});
    std::copy(y.doubles.begin(), y.doubles.end(), Y.begin());
    return Y;
}

// The penalized objective F(X, Y) = 1/2 ||M - X Y^T||^2 + mu/2 ||X - Y||^2 of SymANLS and the
// projected-gradient residuals ||min(X, grad_X F)||, ||min(Y, grad_Y F)||, relative to ||M|| ||X||.
struct Penalized {
    double F, residual_x, residual_y;
};

Penalized penalized(const Matrix& M, const Matrix& X, const Matrix& Y, double mu)
{
    const Matrix R = M - xt::linalg::dot(X, xt::transpose(Y));
    const Matrix D = X - Y;
    const Matrix grad_x = -xt::linalg::dot(R, Y) + mu * D, grad_y = -xt::linalg::dot(xt::transpose(R), X) - mu * D;
    const double scale = std::sqrt(blas::frobenius_dot(M, M) * blas::frobenius_dot(X, X));
    const auto projected = [](const Matrix& A, const Matrix& g) {
        const Matrix p = xt::minimum(A, g);
        return std::sqrt(blas::frobenius_dot(p, p));
    };
    return {0.5 * blas::frobenius_dot(R, R) + 0.5 * mu * blas::frobenius_dot(D, D), projected(X, grad_x) / scale,
            projected(Y, grad_y) / scale};
}

}  // namespace

BOOST_AUTO_TEST_CASE(sym_anls_minimizes_each_block_exactly_and_reaches_a_penalized_stationary_point)
{
    // Each half-step solves its block exactly, so F(X, Y) never increases and, with Y updated last,
    // the Y residual vanishes after every iteration; at the limit the X residual vanishes too.
    const std::size_t n = 50, r = 4;
    const Matrix M = random_affinity(n, 3, 8);
    auto problem = std::make_shared<const SymNMF>(M, r);
    const double mu = 0.1;
    auto solver = make_solver(problem, "sym_anls");
    solver->mutable_params().set_double("mu", mu);
    solver->mutable_params().set_double("objective_tolerance", 0.0);
    solver->initialize();
    double previous = std::numeric_limits<double>::infinity();
    const double rounding = 8.0 * n * 2.220446049250313e-16 * problem->M_norm() * problem->M_norm();
    for (int k = 0; k < 2000; ++k) {
        solver->step();
        const Penalized p = penalized(M, solver->iterate(), anls_y(*solver, n, r), mu);
        BOOST_REQUIRE_MESSAGE(p.F <= previous + rounding, "F rose at iteration " << k);
        BOOST_REQUIRE_MESSAGE(p.residual_y <= 1e-10, "Y is not its block's minimizer at " << k << ": " << p.residual_y);
        previous = p.F;
    }
    const Penalized last = penalized(M, solver->iterate(), anls_y(*solver, n, r), mu);
    BOOST_TEST(last.residual_x <= 1e-8);
    BOOST_TEST(xt::amin(solver->iterate())() >= 0.0);
}

BOOST_AUTO_TEST_CASE(sym_anls_reaches_the_symmetric_limit_when_mu_exceeds_zhu_et_al_s_bound)
{
    // Zhu, Li, Liu & Li (2018), Sec. 3: a stationary point of the penalized problem with
    // ||X Y^T||_2 < 2 mu + sigma_n(M) has X = Y, and alternating methods stay in that region when
    // mu > (||M||_2 - sigma_n(M)) / 2; X is then a stationary point of SymNMF itself.
    const std::size_t n = 40, r = 3;
    const Matrix M = random_affinity(n, 2, 9);
    Matrix eigenvectors = M;
    Vector eigenvalues;
    blas::symmetric_eigen(eigenvectors, eigenvalues);  // M is positive definite: sigma_n = lambda_min
    const double bound = 0.5 * (eigenvalues(n - 1) - eigenvalues(0));
    auto problem = std::make_shared<const SymNMF>(M, r);
    auto solver = make_solver(problem, "sym_anls");
    solver->mutable_params().set_double("mu", 1.1 * bound);
    solver->mutable_params().set_double("tolerance", 1e-9);
    solver->mutable_params().set_double("objective_tolerance", 0.0);
    solver->mutable_params().set_int("max_iterations", 100000);
    BOOST_TEST(solver->solve() == FACTO_CONVERGED);
    BOOST_TEST(solver->progress().feasibility <= 1e-7);  // ||X - Y|| / ||X||
    BOOST_TEST(solver->progress().stationarity <= 1e-9);  // SymNMF's own residual at X
}

BOOST_AUTO_TEST_SUITE_END()
