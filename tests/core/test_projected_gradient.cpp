// The projected-gradient baseline: monotone decrease (backtracking), feasibility, planted recovery.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "metrics/metrics.hpp"
#include "solvers/simplicial_symnmf/projected_gradient.hpp"
#include "sets/row_simplices.hpp"
#include "fixtures.hpp"

using namespace facto;
using namespace facto::test;

BOOST_AUTO_TEST_SUITE(projected_gradient)

BOOST_AUTO_TEST_CASE(objective_decreases_monotonically_and_iterates_stay_feasible)
{
    const auto problem = make_problem(random_affinity(50, 3, 21), 5);
    ProjectedGradient pgd(problem);
    pgd.mutable_params().set_double("objective_tolerance", 0.0);
    pgd.initialize();
    double previous = pgd.progress().objective;
    const double start = previous;
    for (int t = 0; t < 150; ++t) {
        pgd.step();
        // the Armijo test accepts f(W(t)) <= f(W) + sigma <G, W(t) - W>, the last term <= 0 up to rounding
        BOOST_REQUIRE(pgd.progress().objective <= previous + objective_rounding(*problem, pgd.iterate()));
        previous = pgd.progress().objective;
        const Matrix& W = pgd.iterate();
        BOOST_REQUIRE(xt::amin(W)() >= 0.0);
        BOOST_REQUIRE(xt::allclose(xt::sum(W, {1}), xt::ones<double>({50}), 0.0, 1e-12));
    }
    BOOST_TEST(previous < 0.9 * start);
    BOOST_TEST(pgd.progress().objective == dense_objective(problem->P(), pgd.iterate()),
               boost::test_tools::tolerance(1e-10));
}

BOOST_AUTO_TEST_CASE(planted_clusters_are_recovered)
{
    const std::size_t n = 40, k = 4;
    const auto problem = make_problem(planted_affinity(n, k), k);
    ProjectedGradient pgd(problem);
    pgd.mutable_params().set_int("max_iterations", 3000);
    pgd.mutable_params().set_double("tolerance", 1e-9);
    pgd.mutable_params().set_double("objective_tolerance", 0.0);
    pgd.solve();
    std::vector<int64_t> truth(n);
    for (std::size_t i = 0; i < n; ++i) truth[i] = static_cast<int64_t>(i % k);
    BOOST_TEST(pgd.progress().objective < 1e-6);
    BOOST_TEST(clustering_accuracy(row_argmax(pgd.iterate()), truth) == 1.0);
}

BOOST_AUTO_TEST_CASE(negligible_weights_are_not_away_vertices)
{
    // Projected gradient leaves entries like 1e-300, which no step can take mass from: they are not in
    // the support that defines the away gap (they once gave away gaps of 5e3 beside a Frank-Wolfe gap of
    // 4e-3). Every row on vertex 0 plus 1e-300 on the others: the away gap is the pure vertex's, 0 (up
    // to the 1e-300 terms of <g, w>).
    const auto problem = make_problem(random_affinity(20, 2, 8), 3);
    Matrix W = xt::zeros<double>({20, 3});
    for (std::size_t i = 0; i < 20; ++i) {
        W(i, 0) = 1.0;
        W(i, 1) = W(i, 2) = 1e-300;
    }
    ProjectedGradient pgd(problem);
    pgd.set_iterate(W);
    BOOST_TEST(std::fabs(pgd.output("gaps").doubles[1]) <= 1e-290);
}

BOOST_AUTO_TEST_SUITE_END()
