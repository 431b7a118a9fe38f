// Frank-Wolfe ([ZG] Alg. 1 + 2, the vanilla variant): feasibility, the Thm. 2 rate, the descent
// each step rule guarantees, the planted solution, and the incremental P W against a fresh product.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>

#include "solvers/simplicial_symnmf/frank_wolfe.hpp"
#include "metrics/metrics.hpp"
#include "sets/row_simplices.hpp"
#include "fixtures.hpp"

using namespace facto;
using namespace facto::test;

namespace {

std::unique_ptr<FrankWolfe> make_fw(std::shared_ptr<const SimplicialSymNMF> problem, const char* rule)
{
    auto fw = std::make_unique<FrankWolfe>(std::move(problem));
    fw->mutable_params().set_string("variant", "vanilla");
    fw->mutable_params().set_string("step_rule", rule);
    fw->mutable_params().set_double("objective_tolerance", 0.0);
    fw->mutable_params().set_double("tolerance", 0.0);
    return fw;
}

void require_feasible(const Matrix& W)
{
    for (std::size_t i = 0; i < W.shape()[0]; ++i) {
        double sum = 0.0;
        for (std::size_t j = 0; j < W.shape()[1]; ++j) {
            BOOST_REQUIRE(W(i, j) >= 0.0);
            sum += W(i, j);
        }
        BOOST_REQUIRE(std::fabs(sum - 1.0) <= 1e-12);
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(frank_wolfe)

BOOST_AUTO_TEST_CASE(iterates_stay_in_the_product_of_simplices_for_every_rule)
{
    const auto problem = make_problem(random_affinity(50, 3, 1), 5);
    for (const char* rule : {"line_search", "curvature", "open_loop"}) {
        auto fw = make_fw(problem, rule);
        for (int t = 0; t < 300; ++t) {
            fw->step();
            require_feasible(fw->iterate());
        }
    }
}

BOOST_AUTO_TEST_CASE(reported_objective_matches_a_fresh_computation_after_many_steps)
{
    // P W is updated incrementally; after many steps it must still match P W computed anew.
    const auto problem = make_problem(random_affinity(60, 4, 2), 4);
    auto fw = make_fw(problem, "line_search");
    for (int t = 0; t < 500; ++t) fw->step();
    // two computations of f, each within objective_rounding of the exact value
    BOOST_TEST(std::fabs(fw->progress().objective - dense_objective(problem->P(), fw->iterate())) <=
               2.0 * objective_rounding(*problem, fw->iterate()));
}

BOOST_AUTO_TEST_CASE(gap_falls_as_theorem_2_says_with_the_curvature_rule)
{
    // min_t g_t <= max(2 h0 C, sqrt(2 h0 C)) / sqrt(T + 1), with h0 <= f(x0) since f >= 0.
    for (uint64_t seed = 0; seed < 3; ++seed) {
        const auto problem = make_problem(random_affinity(20, 2, 10 + seed), 3);
        auto fw = make_fw(problem, "curvature");
        fw->initialize();
        const double h0 = fw->progress().objective;
        const double C = fw->curvature_constant();
        const double scale = std::max(2 * h0 * C, std::sqrt(2 * h0 * C));
        double min_gap = frank_wolfe_gap(*fw);
        for (int T = 1; T <= 200; ++T) {
            fw->step();
            BOOST_REQUIRE(frank_wolfe_gap(*fw) >= 0.0);
            min_gap = std::min(min_gap, frank_wolfe_gap(*fw));
            BOOST_REQUIRE(min_gap <= scale / std::sqrt(T + 1.0));
        }
    }
}

BOOST_AUTO_TEST_CASE(curvature_rule_decreases_by_the_descent_lemma_amount)
{
    // gamma = min(g/C, 1) with C >= C_f gives f+ <= f - g^2 / (2C) when g <= C, f+ <= f - g/2 else.
    const auto problem = make_problem(random_affinity(30, 3, 3), 4);
    auto fw = make_fw(problem, "curvature");
    fw->initialize();
    const double C = fw->curvature_constant();
    for (int t = 0; t < 100; ++t) {
        const double f = fw->progress().objective, g = frank_wolfe_gap(*fw);
        fw->step();
        const double guaranteed = g <= C ? g * g / (2 * C) : g / 2;
        BOOST_REQUIRE(fw->progress().objective <= f - guaranteed + 2.0 * objective_rounding(*problem, fw->iterate()));
        BOOST_REQUIRE(fw->progress().step_size == std::min(g / C, 1.0));
    }
}

BOOST_AUTO_TEST_CASE(line_search_is_monotone_and_never_worse_than_the_other_rules_on_one_step)
{
    const auto problem = make_problem(random_affinity(40, 3, 4), 4);
    auto ls = make_fw(problem, "line_search");
    ls->initialize();
    for (int t = 0; t < 60; ++t) {
        const Matrix W = ls->iterate();
        const double f = ls->progress().objective;
        const int64_t iteration = ls->progress().iteration;
        auto curvature = make_fw(problem, "curvature");
        curvature->set_iterate(W);
        curvature->step();
        // open_loop's step depends on t: evaluate f at gamma = 2/(t+2) on this direction directly.
        const Quartic q = ls->current_line();
        const double open_loop_value = q(2.0 / (iteration + 2.0));
        ls->step();
        // the exact minimizer on the segment, up to the rounding of two objective evaluations
        const double slack = 2.0 * objective_rounding(*problem, ls->iterate());
        BOOST_REQUIRE(ls->progress().objective <= f + slack);
        BOOST_REQUIRE(ls->progress().objective <= curvature->progress().objective + slack);
        BOOST_REQUIRE(ls->progress().objective <= open_loop_value + slack);
    }
}

BOOST_AUTO_TEST_CASE(open_loop_uses_two_over_t_plus_two_and_decreases_overall)
{
    const auto problem = make_problem(random_affinity(30, 3, 5), 3);
    auto fw = make_fw(problem, "open_loop");
    fw->initialize();
    const double start = fw->progress().objective;
    for (int t = 0; t < 200; ++t) {
        fw->step();
        BOOST_REQUIRE(fw->progress().step_size == 2.0 / (t + 2.0));
    }
    BOOST_TEST(fw->progress().objective < start);
}

BOOST_AUTO_TEST_CASE(planted_clusters_are_recovered_up_to_permutation)
{
    const std::size_t n = 60, k = 4;
    const auto problem = make_problem(planted_affinity(n, k), k);
    std::vector<int64_t> truth(n);
    for (std::size_t i = 0; i < n; ++i) truth[i] = static_cast<int64_t>(i % k);
    for (uint64_t seed = 0; seed < 3; ++seed) {
        auto fw = make_fw(problem, "line_search");
        fw->mutable_params().set_int("seed", static_cast<int64_t>(seed));
        fw->mutable_params().set_int("max_iterations", 2000);
        fw->mutable_params().set_double("tolerance", 1e-10);
        fw->solve();
        BOOST_TEST(fw->progress().objective < 1e-8);  // P = W* W*^T: f* = 0, reached up to the tolerance
        BOOST_TEST(clustering_accuracy(row_argmax(fw->iterate()), truth) == 1.0);
    }
}

BOOST_AUTO_TEST_SUITE_END()
