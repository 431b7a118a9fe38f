// The away-step and pairwise variants of Frank-Wolfe, for simplicial SymNMF (rows on simplices) and for
// MERIT (columns on simplices): feasibility and monotone exact steps, convergence of the Frank-Wolfe
// gap to 1e-10 f(start) where vanilla Frank-Wolfe stalls, agreement on planted instances, drop steps,
// MERIT's nnz(C) bound, and the reported gaps.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "data/data.hpp"
#include "solvers/simplicial_symnmf/frank_wolfe.hpp"
#include "solvers/self_dictionary/merit.hpp"
#include "metrics/metrics.hpp"
#include "sets/row_simplices.hpp"
#include "linalg/blas.hpp"
#include "fixtures.hpp"
#include "long_case.hpp"

using namespace facto;
using namespace facto::test;

namespace {

const char* const exact_kinds[] = {"away", "pairwise"};

std::unique_ptr<FrankWolfe> make_variant(std::shared_ptr<const SimplicialSymNMF> problem, const char* variant)
{
    auto fw = std::make_unique<FrankWolfe>(std::move(problem));
    fw->mutable_params().set_string("variant", variant);
    fw->mutable_params().set_double("objective_tolerance", 0.0);
    fw->mutable_params().set_double("tolerance", 0.0);
    return fw;
}

// Iterations until the (absolute) Frank-Wolfe gap is at most `target` (at most `budget`; budget + 1 if
// never).
int64_t iterations_to_gap(Solver& solver, double target, int64_t budget)
{
    solver.mutable_params().set_int("max_iterations", budget);
    solver.mutable_params().set_double("tolerance", 0.0);
    solver.set_callback([&](const Progress&) { return frank_wolfe_gap(solver) <= target; });
    solver.solve();
    return frank_wolfe_gap(solver) <= target ? solver.progress().iteration : budget + 1;
}

// A bound of the rounding error of the Frank-Wolfe gap on simplicial SymNMF: each entry of P W (rows of
// W on the simplex) carries at most n eps sum_l |P_il|, and the gap sums one difference of two such
// entries per row.
double gap_rounding(const SimplicialSymNMF& problem)
{
    const double n = static_cast<double>(problem.P().shape()[0]);
    return 2.0 * n * 2.220446049250313e-16 * xt::sum(xt::abs(problem.P()))();
}

// W* with k pure rows and soft rows on the simplex, and P = W* W*^T plus a small symmetric perturbation.
std::pair<Matrix, Matrix> planted_soft(std::size_t n, std::size_t k, double noise)
{
    Rng rng(77);
    Matrix W = xt::zeros<double>({n, k});
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t home = i % k;
        if (i < 2 * k) {
            W(i, home) = 1.0;
            continue;
        }
        const double share = 0.6 + 0.3 * rng.uniform();
        W(i, home) = share;
        W(i, (home + 1) % k) = 1.0 - share;
    }
    Matrix P = xt::linalg::dot(W, xt::transpose(W));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j <= i; ++j) P(i, j) = P(j, i) = P(i, j) + noise * rng.normal();
    return {W, P};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(frank_wolfe_variants)

BOOST_AUTO_TEST_CASE(exact_steps_keep_iterates_feasible_and_never_increase_the_objective)
{
    const auto problem = make_problem(random_affinity(50, 3, 1), 5);
    for (const char* kind : exact_kinds) {
        BOOST_TEST_CONTEXT(kind)
        {
            auto fw = make_variant(problem, kind);
            fw->initialize();
            double f = fw->progress().objective;
            for (int t = 0; t < 300; ++t) {
                fw->step();
                const Matrix& W = fw->iterate();
                for (std::size_t i = 0; i < W.shape()[0]; ++i) {
                    const auto row = xt::row(W, static_cast<std::ptrdiff_t>(i));
                    BOOST_REQUIRE(xt::amin(row)() >= 0.0);
                    BOOST_REQUIRE(std::fabs(xt::sum(row)() - 1.0) <= 1e-12);
                }
                // exact steps never increase f: up to the rounding of the two evaluations
                const double rounding = objective_rounding(*problem, W);
                BOOST_REQUIRE(fw->progress().objective <= f + 2.0 * rounding);
                BOOST_REQUIRE(std::fabs(fw->progress().objective - dense_objective(problem->P(), W)) <= 2.0 * rounding);
                f = fw->progress().objective;
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(gap_falls_below_1e_minus_10_of_the_start_where_vanilla_stalls)
{
    for (uint64_t seed : {2u, 3u}) {
        const auto problem = make_problem(random_affinity(60, 3, seed), 4);
        const double f0 = problem->objective(problem->random_point(0)), target = 1e-10 * f0;
        const int64_t budget = 3000;
        for (const char* kind : exact_kinds) {
            BOOST_TEST_CONTEXT(kind << ", seed " << seed)
            {
                auto fw = make_variant(problem, kind);
                BOOST_TEST(iterations_to_gap(*fw, target, budget) <= budget);
            }
        }
        for (const char* rule : {"open_loop", "line_search"}) {
            BOOST_TEST_CONTEXT("vanilla/" << rule << ", seed " << seed)
            {
                auto fw = make_variant(problem, "vanilla");
                fw->mutable_params().set_string("step_rule", rule);
                BOOST_TEST(iterations_to_gap(*fw, target, budget) > budget);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(step_kinds_agree_on_the_stationary_point_of_a_planted_instance)
{
    const std::size_t n = 40, k = 4;
    const auto [W_star, P] = planted_soft(n, k, 1e-3);
    const auto problem = make_problem(P, static_cast<int64_t>(k));
    // the same start for all: W* pulled a quarter of the way to a random point
    const Matrix start = 0.75 * W_star + 0.25 * problem->random_point(5);
    Matrix reference;
    double reference_f = 0.0;
    for (const char* kind : exact_kinds) {
        BOOST_TEST_CONTEXT(kind)
        {
            auto fw = make_variant(problem, kind);
            fw->set_iterate(start);
            // a gap at the rounding level of its own computation: linear convergence gets there
            BOOST_TEST(iterations_to_gap(*fw, gap_rounding(*problem), 5000) <= 5000);
            if (reference.size() == 0) {
                reference = fw->iterate();
                reference_f = fw->progress().objective;
                BOOST_TEST(xt::amax(xt::abs(reference - W_star))() < 0.05);  // near the planted factor
            }
            BOOST_TEST(xt::amax(xt::abs(fw->iterate() - reference))() < 1e-6);
            BOOST_TEST(std::fabs(fw->progress().objective - reference_f) <= 1e-12 * problem->P_norm_squared());
        }
    }
    // vanilla Frank-Wolfe approaches the same point, more slowly
    auto vanilla = make_variant(problem, "vanilla");
    vanilla->mutable_params().set_string("step_rule", "line_search");
    vanilla->set_iterate(start);
    vanilla->mutable_params().set_int("max_iterations", 5000);
    vanilla->solve();
    BOOST_TEST(vanilla->progress().objective >= reference_f * (1 - 1e-10));
    BOOST_TEST(xt::amax(xt::abs(vanilla->iterate() - reference))() < 0.02);
}

BOOST_AUTO_TEST_CASE(pairwise_reaches_the_planted_hard_clusters_from_a_dense_start)
{
    // P = W* W*^T with hard clusters: f* = 0, and every row's largest entry tends to 1, since
    // 1 - max_j w_ij <= 1 - ||w_i||^2 = |P_ii - (W W^T)_ii| <= ||P - W W^T||_F = 2 sqrt(f).
    const std::size_t n = 30, k = 3;
    const auto problem = make_problem(planted_affinity(n, k), k);
    auto fw = make_variant(problem, "pairwise");
    fw->mutable_params().set_int("max_iterations", 200);
    fw->mutable_params().set_double("tolerance", 1e-14);
    BOOST_TEST(fw->solve() == FACTO_CONVERGED);
    const Matrix& W = fw->iterate();
    const double f = dense_objective(problem->P(), W);
    for (std::size_t i = 0; i < n; ++i)
        BOOST_TEST(1.0 - xt::amax(xt::row(W, static_cast<std::ptrdiff_t>(i)))() <= 2.0 * std::sqrt(f) + k * 2.22e-16);
    // f within the trace identity's rounding of 0
    BOOST_TEST(std::fabs(fw->progress().objective) <= objective_rounding(*problem, W));
    std::vector<int64_t> truth(n);
    for (std::size_t i = 0; i < n; ++i) truth[i] = static_cast<int64_t>(i % k);
    BOOST_TEST(clustering_accuracy(row_argmax(W), truth) == 1.0);
}

BOOST_AUTO_TEST_CASE(a_drop_step_zeroes_the_away_entry_exactly)
{
    // P = 2 W* W*^T (hard clusters), W = W* but for row 0 = (1/2, 1/2, 0): row 0's pairwise direction
    // e_0 - e_1 has slope <= -10 over the whole segment [0, 1/2] (its quartic's derivative there lies in
    // [-18.5, -10]), so its exact step is the bound w_01 = 1/2, a drop step, which sets w_01 = 0 and
    // w_00 = 1/2 + 1/2 = 1 exactly. The other rows are at their LMO vertices (gap 0) and stay.
    const std::size_t n = 30, k = 3;
    const auto problem = make_problem(2.0 * planted_affinity(n, k), k);
    Matrix W = xt::zeros<double>({n, k});
    for (std::size_t i = 0; i < n; ++i) W(i, i % k) = 1.0;
    W(0, 0) = W(0, 1) = 0.5;
    auto fw = make_variant(problem, "pairwise");
    fw->set_iterate(W);
    fw->step();
    BOOST_TEST(fw->iterate()(0, 1) == 0.0);
    BOOST_TEST(fw->iterate()(0, 0) == 1.0);
}

BOOST_AUTO_TEST_CASE(gaps_output_reports_the_frank_wolfe_away_and_pairwise_gaps)
{
    const auto problem = make_problem(random_affinity(20, 2, 8), 3);
    auto fw = make_variant(problem, "pairwise");
    for (int t = 0; t < 5; ++t) fw->step();
    const Matrix& W = fw->iterate();
    // brute force: G from the dense formula, the gaps row by row
    const Matrix G = xt::linalg::dot(xt::linalg::dot(W, xt::transpose(W)) - problem->P(), W);
    double toward = 0.0, away = 0.0, pairwise = 0.0;
    for (std::size_t i = 0; i < W.shape()[0]; ++i) {
        double gw = 0.0, lowest = G(i, 0), highest = -HUGE_VAL;
        for (std::size_t j = 0; j < W.shape()[1]; ++j) {
            gw += G(i, j) * W(i, j);
            lowest = std::min(lowest, G(i, j));
            if (W(i, j) > kNegligibleWeight) highest = std::max(highest, G(i, j));
        }
        toward += gw - lowest;
        away += highest - gw;
        pairwise += highest - lowest;
    }
    const Output gaps = fw->output("gaps");
    BOOST_REQUIRE(gaps.doubles.size() == 3u);
    // the progress reports the gap relative to f at the start (seed 0's random point)
    const double f0 = problem->objective(problem->random_point(0));
    BOOST_TEST(fw->progress().stationarity == gaps.doubles[0] / f0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(gaps.doubles[0] == toward, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(gaps.doubles[1] == away, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(gaps.doubles[2] == pairwise, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(rows_in_turn_give_the_same_iterates_on_any_number_of_threads)
{
    // n = 2100: the pass that brings P W up to date after each chunk of rows is split over two threads
    const auto problem = make_problem(random_affinity(2100, 3, 12), 5);
    Matrix iterates[2];
    for (int threads : {1, 2}) {
        auto fw = make_variant(problem, "pairwise");
        fw->mutable_params().set_int("threads", threads);
        for (int t = 0; t < 4; ++t) fw->step();
        iterates[threads - 1] = fw->iterate();
    }
    BOOST_TEST(xt::amax(xt::abs(iterates[0] - iterates[1]))() == 0.0);
}

BOOST_AUTO_TEST_CASE(open_loop_or_curvature_steps_are_refused_when_set_for_away_and_pairwise)
{
    const auto problem = make_problem(random_affinity(10, 2, 9), 2);
    for (const char* variant : {"pairwise", "away"})
        for (const char* rule : {"open_loop", "curvature"}) {
            auto fw = make_variant(problem, variant);
            BOOST_TEST(status_of([&] { fw->mutable_params().set_string("step_rule", rule); }) ==
                       FACTO_ERROR_INVALID_ARGUMENT);
            BOOST_TEST(fw->params().get_string("step_rule") == "auto");  // the refused value is not kept
            BOOST_TEST(status_of([&] { fw->step(); }) == FACTO_OK);
        }
    // the other order: a vanilla rule set first refuses the variant
    auto fw = make_variant(problem, "vanilla");
    fw->mutable_params().set_string("step_rule", "curvature");
    BOOST_TEST(status_of([&] { fw->mutable_params().set_string("variant", "pairwise"); }) ==
               FACTO_ERROR_INVALID_ARGUMENT);
    BOOST_TEST(fw->params().get_string("variant") == "vanilla");
    fw = make_variant(problem, "away");
    fw->mutable_params().set_string("step_rule", "line_search");
    BOOST_TEST(status_of([&] { fw->step(); }) == FACTO_OK);
}

// ---- MERIT (self-dictionary, columns on simplices) ----

namespace {

std::unique_ptr<Merit> make_merit(std::shared_ptr<const SelfDictionary> problem, const char* variant)
{
    auto merit = std::make_unique<Merit>(std::move(problem));
    merit->mutable_params().set_string("variant", variant);
    merit->mutable_params().set_double("objective_tolerance", 0.0);
    merit->mutable_params().set_double("tolerance", 0.0);
    return merit;
}

}  // namespace

BOOST_AUTO_TEST_CASE(merit_variants_keep_columns_on_the_simplex_never_increase_f_and_add_only_lmo_vertices)
{
    const SeparableData data = separable_dirichlet(8, 40, 4, 25.0, 11);
    for (const double lambda : {0.0, 0.2})
        for (const double mu : {0.05, 1e-5})
            for (const char* variant : {"away", "pairwise"}) {
                BOOST_TEST_CONTEXT(variant << ", lambda " << lambda << ", mu " << mu)
                {
                    const auto problem = std::make_shared<const SelfDictionary>(data.X, 4, lambda, mu);
                    auto merit = make_merit(problem, variant);
                    merit->initialize();
                    double f = merit->progress().objective;
                    for (int t = 0; t < 60; ++t) {
                        const Matrix before = merit->iterate();
                        const Matrix G = dense_self_dictionary_gradient(*problem, before);
                        merit->step();
                        const Matrix after = merit->iterate();
                        for (std::size_t l = 0; l < after.shape()[1]; ++l) {
                            const auto column = xt::col(after, static_cast<std::ptrdiff_t>(l));
                            BOOST_REQUIRE(xt::amin(column)() >= 0.0);
                            BOOST_REQUIRE(std::fabs(xt::sum(column)() - 1.0) <= 1e-12);
                            // a row enters a column only as its LMO vertex: a minimizer of the gradient
                            const double lowest = xt::amin(xt::col(G, static_cast<std::ptrdiff_t>(l)))();
                            int entered = 0;
                            for (std::size_t i = 0; i < after.shape()[0]; ++i)
                                if (before(i, l) == 0.0 && after(i, l) != 0.0) {
                                    ++entered;
                                    BOOST_REQUIRE(G(i, l) <= lowest + 1e-9 * (1.0 + std::fabs(lowest)));
                                }
                            BOOST_REQUIRE(entered <= 1);
                        }
                        BOOST_REQUIRE(merit->progress().objective <= f + 1e-13 * std::fabs(f));
                        f = merit->progress().objective;
                    }
                    BOOST_TEST(f == problem->objective(merit->iterate()), boost::test_tools::tolerance(1e-10));
                }
            }
}

BOOST_AUTO_TEST_CASE(merit_variants_reach_gap_1e_minus_10_where_open_loop_merit_does_not, FACTO_LONG_CASE)
{
    // lambda = 0 (eq. 13): the columns are independent, every column step is exact
    const SeparableData data = separable_dirichlet(30, 100, 6, 20.0, 3);
    const auto problem = std::make_shared<const SelfDictionary>(data.X, 6, 0.0, 1e-5);
    const Matrix start = SimplexColumns(problem->warm_start(1)).to_dense();
    const double target = 1e-10 * problem->objective(start);
    // away and pairwise Frank-Wolfe converge linearly on a polytope when f = g(X C) with g strongly
    // convex (Lacoste-Julien & Jaggi 2015): run them to the target (relative to f(start)) within a
    // generous budget; vanilla's gap falls as 1 / t and stays far above it after 1000 iterations
    for (const char* variant : {"away", "pairwise"}) {
        BOOST_TEST_CONTEXT(variant)
        {
            auto merit = make_merit(problem, variant);
            merit->set_iterate(start);
            merit->mutable_params().set_double("tolerance", 1e-10);
            merit->mutable_params().set_int("max_iterations", 20000);
            BOOST_TEST(merit->solve() == FACTO_CONVERGED);
            BOOST_TEST(frank_wolfe_gap(*merit) <= target * (1 + 1e-12));
        }
    }
    auto vanilla = make_merit(problem, "vanilla");
    vanilla->set_iterate(start);
    BOOST_TEST(iterations_to_gap(*vanilla, target, 1000) > 1000);
}

BOOST_AUTO_TEST_CASE(merit_variants_agree_on_the_planted_anchors)
{
    // noiseless separable data and the paper's lambda heuristic: every step kind selects the planted
    // anchors, and with lambda = 0 every one fits X exactly (f -> 0)
    const SeparableData data = separable_dirichlet(20, 80, 5, HUGE_VAL, 21);
    const auto problem = std::make_shared<const SelfDictionary>(data.X, 5, -1.0, 1e-5);
    const auto exact = std::make_shared<const SelfDictionary>(data.X, 5, 0.0, 1e-5);
    for (const char* variant : {"vanilla", "away", "pairwise"}) {
        BOOST_TEST_CONTEXT(variant)
        {
            auto merit = make_merit(problem, variant);
            merit->mutable_params().set_int("max_iterations", 200);
            merit->solve();
            const Output selected = merit->output("selected");
            BOOST_TEST(selected.ints == data.anchors, boost::test_tools::per_element());
            if (std::string(variant) == "vanilla") continue;
            auto fit = make_merit(exact, variant);
            fit->mutable_params().set_string("warm_start", "none");  // from C = 0: f = ||X||^2 / 2
            fit->mutable_params().set_int("max_iterations", 500);
            fit->solve();
            BOOST_TEST(fit->progress().objective <= 1e-20 * 0.5 * xt::sum(data.X * data.X)());
        }
    }
}

BOOST_AUTO_TEST_CASE(merit_reports_its_gaps)
{
    // vanilla steps do not look for away vertices; the output finds them when asked
    const SeparableData data = separable_dirichlet(10, 30, 3, 20.0, 5);
    const auto problem = std::make_shared<const SelfDictionary>(data.X, 3, 0.1, 0.05);
    for (const char* variant : {"vanilla", "pairwise"}) {
        BOOST_TEST_CONTEXT(variant)
        {
            auto merit = make_merit(problem, variant);
            merit->initialize();
            const double f0 = merit->progress().objective;
            for (int t = 0; t < 3; ++t) merit->step();
            const Matrix C = merit->iterate(), G = dense_self_dictionary_gradient(*problem, C);
            double toward = 0.0, away = 0.0, pairwise = 0.0;
            for (std::size_t l = 0; l < C.shape()[1]; ++l) {
                double inner = 0.0, highest = -HUGE_VAL;
                for (std::size_t i = 0; i < C.shape()[0]; ++i) {
                    inner += C(i, l) * G(i, l);
                    if (C(i, l) > 0.0) highest = std::max(highest, G(i, l));
                }
                const double lowest = xt::amin(xt::col(G, static_cast<std::ptrdiff_t>(l)))();
                toward += inner - lowest;
                away += highest - inner;
                pairwise += highest - lowest;
            }
            const Output gaps = merit->output("gaps");
            // the progress reports the gap relative to f at the start
            BOOST_TEST(merit->progress().stationarity == gaps.doubles[0] / f0, boost::test_tools::tolerance(1e-12));
            BOOST_TEST(gaps.doubles[0] == toward, boost::test_tools::tolerance(1e-9));
            BOOST_TEST(gaps.doubles[1] == away, boost::test_tools::tolerance(1e-9));
            BOOST_TEST(gaps.doubles[2] == pairwise, boost::test_tools::tolerance(1e-9));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
