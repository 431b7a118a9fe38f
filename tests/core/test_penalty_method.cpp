// The penalty method of Zhao et al. 2015, Zhao & Gordon's baseline: each outer iteration lowers its
// penalized objective and doubles the coefficients while the iterate is infeasible; a solve ends at a
// feasible point, stationary for (1) when the inner loops are long enough.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>

#include "metrics/metrics.hpp"
#include "sets/row_simplices.hpp"
#include "solvers/simplicial_symnmf/penalty_method.hpp"
#include "fixtures.hpp"

using namespace facto;
using namespace facto::test;

namespace {

// L(W) = f(W) + alpha/2 ||W 1 - 1||^2 + beta/2 ||min(W, 0)||^2, from scratch.
double penalized(const SimplicialSymNMF& problem, const Matrix& W, double alpha, double beta)
{
    const Vector rows = xt::sum(W, {1}) - 1.0;
    const Matrix negative = xt::minimum(W, 0.0);
    return dense_objective(problem.P(), W) + 0.5 * alpha * xt::sum(rows * rows)() +
           0.5 * beta * xt::sum(negative * negative)();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(penalty_method)

BOOST_AUTO_TEST_CASE(each_outer_iteration_lowers_its_penalized_objective_and_doubles_the_coefficients)
{
    const auto problem = make_problem(random_affinity(60, 3, 31), 4);
    PenaltyMethod solver(problem);
    solver.mutable_params().set_double("row_sum_penalty", 0.5);
    solver.mutable_params().set_double("nonnegativity_penalty", 3.0);
    solver.mutable_params().set_double("feasibility_tolerance", 0.0);  // the coefficients always grow
    solver.initialize();
    double alpha = 0.5, beta = 3.0;
    for (int t = 0; t < 20; ++t) {
        const Matrix before = solver.iterate();
        solver.step();
        // L-BFGS's line searches ask for sufficient decrease: outer iteration t lowers L_t
        const double rounding = 1e-12 * (1.0 + penalized(*problem, before, alpha, beta));
        BOOST_REQUIRE(penalized(*problem, solver.iterate(), alpha, beta) <= penalized(*problem, before, alpha, beta) + rounding);
        alpha *= 2.0;
        beta *= 2.0;
        const Output penalties = solver.output("penalties");
        BOOST_REQUIRE_EQUAL(penalties.doubles[0], alpha);  // exact: powers of two times the start
        BOOST_REQUIRE_EQUAL(penalties.doubles[1], beta);
    }
}

BOOST_AUTO_TEST_CASE(the_default_solve_ends_feasible)
{
    // The coefficients grow until W is feasible to feasibility_tolerance; then the objective settles
    // (STALLED: its projection is not certified stationary) or the projection is stationary.
    const auto problem = make_problem(random_affinity(60, 2, 32), 3);
    PenaltyMethod solver(problem);
    const int32_t status = solver.solve();
    BOOST_TEST((status == FACTO_CONVERGED || status == FACTO_STALLED));
    const Matrix& W = solver.iterate();
    const double tolerance = solver.params().get_double("feasibility_tolerance");
    BOOST_TEST(solver.progress().feasibility <= tolerance);
    BOOST_TEST(xt::amin(W)() >= -tolerance);
    BOOST_TEST(xt::amax(xt::abs(xt::sum(W, {1}) - 1.0))() <= tolerance);
}

BOOST_AUTO_TEST_CASE(with_long_inner_loops_the_limit_is_stationary_for_the_constrained_problem)
{
    const std::size_t n = 60, k = 3;
    const auto problem = make_problem(random_affinity(n, 2, 32), k);
    PenaltyMethod solver(problem);
    solver.mutable_params().set_int("inner_iterations", 1000);
    solver.mutable_params().set_double("tolerance", 1e-5);
    BOOST_TEST(solver.solve() == FACTO_CONVERGED);
    // the Frank-Wolfe gap at W's projection, from scratch, relative to f at the start
    Matrix projection = solver.iterate();
    RowSimplices::project(projection);
    const Matrix G = xt::linalg::dot(projection, xt::linalg::dot(xt::transpose(projection), projection)) -
                     xt::linalg::dot(problem->P(), projection);
    double gap = 0.0;  // sum_i (<G_i, w_i> - min_j G_ij)
    for (std::size_t i = 0; i < n; ++i) {
        double smallest = G(i, 0), inner = 0.0;
        for (std::size_t j = 0; j < k; ++j) {
            smallest = std::min(smallest, G(i, j));
            inner += G(i, j) * projection(i, j);
        }
        gap += inner - smallest;
    }
    const double start = dense_objective(problem->P(), problem->random_point(solver.params().get_int("seed")));
    BOOST_TEST(gap / start <= 1e-5 * (1.0 + 1e-6));
    BOOST_TEST(frank_wolfe_gap(solver) == gap, boost::test_tools::tolerance(1e-6));
    BOOST_TEST(solver.progress().feasibility <= solver.params().get_double("feasibility_tolerance"));
}

BOOST_AUTO_TEST_CASE(planted_clusters_are_recovered)
{
    const std::size_t n = 40, k = 4;
    const auto problem = make_problem(planted_affinity(n, k), k);
    PenaltyMethod solver(problem);
    solver.solve();
    std::vector<int64_t> truth(n);
    for (std::size_t i = 0; i < n; ++i) truth[i] = static_cast<int64_t>(i % k);
    BOOST_TEST(clustering_accuracy(row_argmax(solver.iterate()), truth) == 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
