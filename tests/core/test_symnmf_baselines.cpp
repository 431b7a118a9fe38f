// The SymNMF baselines of Dragomir et al. Sec. 4.1: projected gradient with Armijo, beta-SNMF,
// coordinate descent (exact quartic per entry) and SymHALS. Each decreases f where its theory says it
// does, reaches a stationary point on a planted instance, and uses sparse and dense M alike.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "solvers/beta_snmf.hpp"
#include "solvers/coordinate_descent.hpp"
#include "solvers/gradient_descent.hpp"
#include "metrics/metrics.hpp"
#include "solvers/registry.hpp"
#include "sets/row_simplices.hpp"
#include "solvers/sym_hals.hpp"
#include "problems/symnmf.hpp"
#include "fixtures.hpp"
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
    for (const char* name : {"projected_gradient", "beta_snmf", "coordinate_descent", "sym_hals"}) {
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
    for (const char* name : {"projected_gradient", "beta_snmf", "coordinate_descent", "sym_hals"}) {
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

BOOST_AUTO_TEST_SUITE_END()
