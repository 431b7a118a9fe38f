// Self-dictionary separable NMF (Nguyen, Fu & Wu): the sweep's column minima and gaps against a dense
// gradient checked by finite differences, C's columns kept sorted by the Frank-Wolfe update, the
// softmax Y at mu = 1e-5 against a shift-free reference, Lemma 2's bounds on Phi_mu, the simplex
// least squares' optimality conditions, MERIT's feasibility, support (Thm. 1) and gap, exact recovery
// of noiseless planted anchors, and a reduced Table I setting.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>

#include "data/data.hpp"
#include "solvers/self_dictionary/merit.hpp"
#include "metrics/metrics.hpp"
#include "solvers/registry.hpp"
#include "problems/self_dictionary.hpp"
#include "solvers/self_dictionary/spa.hpp"
#include "fixtures.hpp"
#include "linalg/blas.hpp"
#include "linalg/simplex_least_squares.hpp"
#include "linalg/successive_projection.hpp"
#include "long_case.hpp"

#include <xtensor/xview.hpp>

using namespace facto;
using namespace facto::test;

namespace {

// A feasible C with a few random nonzeros per column.
SimplexColumns random_columns(std::size_t n, std::size_t per_column, uint64_t seed)
{
    Rng rng(seed);
    SimplexColumns C;
    C.columns.resize(n);
    for (auto& column : C.columns) {
        double sum = 0.0;
        for (std::size_t k = 0; k < per_column; ++k) {
            const auto row = static_cast<int64_t>(rng.uniform() * static_cast<double>(n));
            const double v = rng.exponential();
            auto it = std::find_if(column.begin(), column.end(), [&](const auto& e) { return e.row == row; });
            if (it == column.end())
                column.push_back({row, v});
            else
                it->value += v;
            sum += v;
        }
        for (auto& e : column) e.value /= sum;
        std::sort(column.begin(), column.end(), [](const auto& a, const auto& b) { return a.row < b.row; });
    }
    return C;
}

std::unique_ptr<Solver> run(std::shared_ptr<const SelfDictionary> problem, const char* algorithm, int64_t iterations,
                            const char* warm_start = "auto")
{
    auto solver = make_solver(problem, algorithm);
    if (std::string(algorithm) == "merit") solver->mutable_params().set_string("warm_start", warm_start);
    solver->mutable_params().set_int("max_iterations", iterations);
    solver->mutable_params().set_double("tolerance", 0.0);
    solver->mutable_params().set_double("objective_tolerance", 0.0);
    solver->solve();
    return solver;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(self_dictionary)

BOOST_AUTO_TEST_CASE(sweep_vertices_and_gaps_match_a_dense_gradient_and_finite_differences)
{
    // mu = 0.05: every support entry's lambda Y term counts, and all are left out of the product's
    // search; mu = 1e-5: only those near their row's maximum, the others are searched with the rest
    const std::size_t m = 5, n = 12;
    const double lambda = 0.3;
    for (double mu : {0.05, 1e-5}) {
        const SelfDictionary problem(random_matrix(m, n, 3), 3, lambda, mu);
        const SimplexColumns C = random_columns(n, 3, 4);
        const Matrix dense = C.to_dense();
        const Matrix G = dense_self_dictionary_gradient(problem, dense);
        if (mu > 0.01) BOOST_TEST(xt::amax(xt::abs(G - finite_difference_gradient(problem, dense, 1e-6)))() < 1e-6);
        Matrix residual;
        problem.residual(C, residual, 2);
        for (const Matrix* kept : std::vector<const Matrix*>{&residual, nullptr})
            for (int64_t block : {1, 5, 12}) {
                std::vector<int64_t> vertex;
                SweepWork work;
                work.find_away = true;
                const Sweep sweep = merit_sweep(problem, C, kept, vertex, block, 2, work);
                double gap = 0.0, away_gap = 0.0;
                for (std::size_t l = 0; l < n; ++l) {
                    double smallest = HUGE_VAL, largest = -HUGE_VAL, inner = 0.0;
                    for (std::size_t i = 0; i < n; ++i) {
                        smallest = std::min(smallest, G(i, l));
                        if (dense(i, l) > 0.0) largest = std::max(largest, G(i, l));
                        inner += dense(i, l) * G(i, l);
                    }
                    BOOST_TEST_CONTEXT("mu " << mu << " block " << block << " column " << l) {
                        const double at_vertex = G(static_cast<std::size_t>(vertex[l]), l);
                        BOOST_TEST(at_vertex == smallest, boost::test_tools::tolerance(1e-12));
                        BOOST_TEST(work.gap[l] == inner - smallest, boost::test_tools::tolerance(1e-12));
                        // the away vertex: the support's largest gradient entry
                        BOOST_REQUIRE(work.away[l] >= 0);
                        BOOST_TEST(dense(static_cast<std::size_t>(work.away[l]), l) > 0.0);
                        BOOST_TEST(G(static_cast<std::size_t>(work.away[l]), l) == largest,
                                   boost::test_tools::tolerance(1e-12));
                    }
                    gap += inner - smallest;
                    away_gap += largest - inner;
                }
                BOOST_TEST(sweep.gap == gap, boost::test_tools::tolerance(1e-12));
                BOOST_TEST(sweep.away_gap == away_gap, boost::test_tools::tolerance(1e-10));
                BOOST_TEST(sweep.objective == problem.objective(dense), boost::test_tools::tolerance(1e-12));
            }
    }
}

BOOST_AUTO_TEST_CASE(sweep_does_not_depend_on_the_blocks)
{
    // N = 4100: one column per block, or all of them; with R or forming each block's residual rows
    const std::size_t n = 4100;
    const SelfDictionary problem(xt::abs(random_matrix(4, n, 30)), 0, 0.2, 1e-5);
    const SimplexColumns C = random_columns(n, 3, 31);
    Matrix R;
    problem.residual(C, R, 2);
    std::vector<int64_t> narrow, wide;
    SweepWork work;
    const Sweep a = merit_sweep(problem, C, &R, narrow, 1, 2, work);
    const Sweep b = merit_sweep(problem, C, &R, wide, static_cast<int64_t>(n), 3, work);
    BOOST_TEST(narrow == wide);
    BOOST_TEST(a.objective == b.objective);
    BOOST_TEST(a.gap == b.gap, boost::test_tools::tolerance(1e-12));
    // without R, each block forms its residual rows itself: the same sweep
    std::vector<int64_t> formed;
    const Sweep c = merit_sweep(problem, C, nullptr, formed, 300, 2, work);
    BOOST_TEST(formed == wide);
    BOOST_TEST(c.objective == a.objective, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(c.gap == a.gap, boost::test_tools::tolerance(1e-12));
}

// Two equal points are one anchor: facto's selection passes over a row whose point repeats a taken
// one's (exactly, or to rounding), where the paper's rule takes the K largest row maxima as they come.
BOOST_AUTO_TEST_CASE(selection_takes_one_of_equal_points)
{
    for (double rounding : {0.0, 1e-14}) {
        BOOST_TEST_CONTEXT("twin off by " << rounding)
        {
            Matrix X = xt::zeros<double>({std::size_t{3}, std::size_t{6}});  // e1, e2, e3, e1's twin, two mixtures
            X(0, 0) = 1.0, X(1, 1) = 1.0, X(2, 2) = 1.0, X(0, 3) = 1.0 + rounding, X(1, 3) = rounding;
            X(0, 4) = X(1, 4) = 0.5, X(1, 5) = X(2, 5) = 0.5;
            const SelfDictionary problem(X, 3, 1e-6, 1e-5);
            Matrix C = xt::zeros<double>({std::size_t{6}, std::size_t{6}});  // row maxima 1, 1, 0.8, 1 (the twin)
            C(0, 0) = 1.0, C(1, 1) = 1.0, C(2, 2) = 0.8, C(0, 2) = 0.2, C(3, 3) = 1.0;
            C(0, 4) = C(1, 4) = 0.5, C(1, 5) = C(2, 5) = 0.5;
            const SimplexColumns columns = SimplexColumns::from_dense(C);
            const RowSoftmax softmax = problem.row_softmax(columns);
            BOOST_TEST(problem.largest_row_maxima(softmax) == (std::vector<int64_t>{0, 1, 3}), boost::test_tools::per_element());
            BOOST_TEST(problem.largest_row_maxima(softmax, true) == (std::vector<int64_t>{0, 1, 2}),
                       boost::test_tools::per_element());
            const std::vector<int64_t> selected = problem.select(columns);  // e1 from either twin, the fit decides
            BOOST_TEST(((selected == std::vector<int64_t>{0, 1, 2}) || (selected == std::vector<int64_t>{1, 2, 3})));
        }
    }
    Matrix X = xt::ones<double>({std::size_t{2}, std::size_t{4}});  // fewer distinct points than K: still K rows
    const SelfDictionary same(X, 2, 1e-6, 1e-5);
    const SimplexColumns C = SimplexColumns::from_selected({1, 2}, xt::ones<double>({std::size_t{4}, std::size_t{2}}) / 2.0);
    BOOST_TEST(same.largest_row_maxima(same.row_softmax(C), true) == (std::vector<int64_t>{1, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(frank_wolfe_updates_keep_columns_on_the_simplex_with_rows_increasing)
{
    // the sweep hands each column's rows to the product's scan as they are: they must stay sorted
    const std::size_t n = 40;
    SimplexColumns C = SimplexColumns::from_selected({31, 4, 17}, xt::ones<double>({n, std::size_t{3}}) / 3.0);
    Rng rng(5);
    for (int t = 0; t < 400; ++t) {
        const auto l = static_cast<std::size_t>(rng.uniform() * n);
        const auto row = static_cast<int64_t>(rng.uniform() * n);
        C.frank_wolfe_update(l, row, 2.0 / (t + 3.0));
    }
    for (const auto& column : C.columns) {
        double sum = 0.0;
        for (std::size_t k = 0; k < column.size(); ++k) {
            sum += column[k].value;
            if (k > 0) BOOST_TEST(column[k - 1].row < column[k].row);
        }
        BOOST_TEST(sum == 1.0, boost::test_tools::tolerance(1e-12));
    }
}

BOOST_AUTO_TEST_CASE(softmax_is_finite_and_exact_at_mu_1e_minus_5)
{
    const double mu = 1e-5;
    const std::size_t n = 6;
    const SelfDictionary problem(random_matrix(3, n, 1), 0, 0.1, mu);
    SimplexColumns C;
    C.columns.resize(n);
    C.columns[0] = {{2, 0.7}, {4, 0.3}};
    C.columns[1] = {{2, 0.69999}, {4, 0.30001}};
    C.columns[2] = {{2, 0.5}, {5, 0.5}};
    for (std::size_t l = 3; l < n; ++l) C.columns[l] = {{2, 1.0}};
    const RowSoftmax s = problem.row_softmax(C);
    const Matrix dense = C.to_dense();
    for (int64_t r : s.rows) {
        const auto i = static_cast<std::size_t>(r);
        double row_max = 0.0;
        for (std::size_t j = 0; j < n; ++j) row_max = std::max(row_max, dense(i, j));
        for (std::size_t l = 0; l < n; ++l) {
            // shift-free reference Y(i, l) = 1 / sum_j exp((C(i, j) - C(i, l)) / mu) in long double
            long double denominator = 0.0L;
            for (std::size_t j = 0; j < n; ++j)
                denominator += std::exp((static_cast<long double>(dense(i, j)) - dense(i, l)) / mu);
            const double reference = static_cast<double>(1.0L / denominator);
            const double y = dense(i, l) == 0.0 ? s.zero[i] : std::exp((dense(i, l) - s.max[i]) / mu) / s.sum[i];
            BOOST_TEST(std::isfinite(y));
            BOOST_TEST(std::fabs(y - reference) <= 1e-14 + 1e-12 * reference);
        }
    }
    // rows without a nonzero: Y = 1/N exactly; Lemma 2: ||c||_inf - mu log N <= phi_mu(c) <= ||c||_inf
    BOOST_TEST(s.zero[0] == 1.0 / static_cast<double>(n));
    double sum_max = 0.0;
    for (int64_t r : s.rows) sum_max += s.max[static_cast<std::size_t>(r)];
    BOOST_TEST(std::isfinite(s.phi));
    BOOST_TEST(s.phi <= sum_max + 1e-15);
    BOOST_TEST(s.phi >= sum_max - static_cast<double>(s.rows.size()) * mu * std::log(static_cast<double>(n)));
}

BOOST_AUTO_TEST_CASE(simplex_least_squares_meets_its_optimality_conditions)
{
    const SeparableData data = separable_dirichlet(20, 40, 5, 15.0, 8);
    const Matrix Xt = xt::transpose(data.X);
    // well posed; more picks than features (W^T W singular); a column picked twice
    const std::vector<std::vector<int64_t>> cases = {
        {data.anchors[0], data.anchors[2], data.anchors[4], 7},
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24},
        {data.anchors[1], data.anchors[1], 3}};
    for (const auto& picked : cases)
        for (std::size_t threads : {1, 3}) {
            const Matrix Ht = simplex_least_squares(Xt, picked, threads);
            Matrix Wt({picked.size(), Xt.shape()[1]});
            for (std::size_t k = 0; k < picked.size(); ++k)
                xt::row(Wt, static_cast<std::ptrdiff_t>(k)) = xt::row(Xt, picked[k]);
            // gradient rows: (H^T W^T - X^T) W ; at the optimum g_k = min g wherever h_k > 0
            Matrix R = Xt * -1.0, G({Xt.shape()[0], picked.size()});
            blas::gemm(false, false, 1.0, Ht, Wt, 1.0, R);
            blas::gemm(false, true, 1.0, R, Wt, 0.0, G);
            const double scale = xt::amax(xt::abs(G))() + xt::amax(Wt)() * xt::amax(Wt)();
            BOOST_TEST_CONTEXT(picked.size() << " picks, " << threads << " threads")
            for (std::size_t l = 0; l < Ht.shape()[0]; ++l) {
                double sum = 0.0, g_min = G(l, 0);
                for (std::size_t k = 0; k < picked.size(); ++k) g_min = std::min(g_min, G(l, k));
                for (std::size_t k = 0; k < picked.size(); ++k) {
                    BOOST_TEST(Ht(l, k) >= 0.0);
                    sum += Ht(l, k);
                    BOOST_TEST(Ht(l, k) * (G(l, k) - g_min) <= 1e-10 * scale);
                }
                BOOST_TEST(sum == 1.0, boost::test_tools::tolerance(1e-12));
            }
        }
}

BOOST_AUTO_TEST_CASE(noiseless_anchors_are_recovered_with_the_support_inside_them)
{
    const SeparableData data = separable_dirichlet(30, 60, 6, HUGE_VAL, 2);
    for (const char* warm : {"none", "spa"}) {
        for (double lambda : {0.0, -1.0}) {  // MERIT(0) (Thm. 1) and the heuristic lambda (Thm. 4)
            auto problem = std::make_shared<const SelfDictionary>(data.X, 6, lambda, 1e-5);
            auto solver = run(problem, "merit", 300, warm);
            const auto& C = static_cast<const Merit&>(*solver).columns();
            BOOST_TEST_CONTEXT("warm_start " << warm << ", lambda " << problem->lambda())
            {
            BOOST_TEST(solver->output("selected").ints == data.anchors);
            for (const auto& column : C.columns) {
                double sum = 0.0;
                for (const auto& e : column) {
                    BOOST_TEST(e.value >= 0.0);
                    BOOST_TEST(std::binary_search(data.anchors.begin(), data.anchors.end(), e.row));
                    sum += e.value;
                }
                BOOST_TEST(sum == 1.0, boost::test_tools::tolerance(1e-12));
            }
            BOOST_TEST(solver->output("nnz").ints[0] <= 6 * 60);
            }
        }
    }
    auto problem = std::make_shared<const SelfDictionary>(data.X, 6, 0.0, 1e-5);
    BOOST_TEST(run(problem, "spa", 10)->output("selected").ints == data.anchors);
}

BOOST_AUTO_TEST_CASE(the_frank_wolfe_gap_bounds_the_suboptimality_along_the_run)
{
    // f is convex: f(C_t) - f* <= gap(C_t) at every iterate, for every variant (f* <= f(C_last))
    const SeparableData data = separable_midpoints(20, 6, 20.0, 5);
    auto problem = std::make_shared<const SelfDictionary>(data.X, 6, -1.0, 1e-5);
    for (const char* variant : {"vanilla", "pairwise", "corrective"}) {
        BOOST_TEST_CONTEXT(variant)
        {
            auto solver = make_solver(problem, "merit");
            solver->mutable_params().set_string("variant", variant);
            std::vector<double> objective, gap;
            solver->initialize();
            for (int t = 0; t < 400; ++t) {
                objective.push_back(solver->progress().objective);
                gap.push_back(frank_wolfe_gap(*solver));
                solver->step();
            }
            const double f_last = solver->progress().objective;
            for (std::size_t t = 0; t < objective.size(); ++t) {
                BOOST_TEST(gap[t] >= -1e-10);
                BOOST_TEST(objective[t] - f_last <= gap[t] + 1e-10);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(corrective_steps_descend_and_certify_table_one_in_a_few_iterations)
{
    // Each corrective step minimizes f along the segment to the columns' targets (theta = 0 allowed), so
    // f never increases; on Table I's model (K = 60, heuristic lambda) the step that makes every column
    // exact on its rows certifies the default tolerance where vanilla steps take ~1800 iterations
    // (docs/benchmarks.md), and the anchors are the row maxima's.
    int found = 0;
    const int trials = 4;
    for (int seed = 1; seed <= trials; ++seed) {
        const SeparableData data = separable_dirichlet(80, 200, 60, 10.0, static_cast<uint64_t>(seed));
        auto problem = std::make_shared<const SelfDictionary>(data.X, 60, -1.0, 1e-5);
        auto solver = make_solver(problem, "merit");
        solver->mutable_params().set_string("variant", "corrective");
        solver->mutable_params().set_int("max_iterations", 200);
        solver->initialize();
        double before = solver->progress().objective;
        while (solver->progress().stop_reason == 0) {  // running
            solver->step();
            // up to rounding: f's sums run over N M terms, and R moves with C between exact recomputations
            BOOST_TEST(solver->progress().objective <= before + 1e-12 * std::abs(before));
            before = solver->progress().objective;
        }
        BOOST_TEST(solver->progress().stop_reason == FACTO_CONVERGED);
        BOOST_TEST(solver->progress().stationarity <= 1e-3);
        found += solver->output("selected").ints == data.anchors;
    }
    BOOST_TEST(found >= trials - 1);
}

BOOST_AUTO_TEST_CASE(open_loop_merit_meets_the_frank_wolfe_duality_gap_rate)
{
    // Jaggi 2013, Thm. 2: with steps 2 / (t + 2) from t = 0, min_{s <= T} gap_s <= (27 / 4) 2 C_f / (T + 2)
    // for T >= 1. With lambda = 0, f = 1/2 ||X - X C||^2 over N simplices has C_f <= sum_l diam(X Delta)^2
    // = N max_ij ||x_i - x_j||^2.
    const SeparableData data = separable_midpoints(20, 6, 20.0, 5);
    auto problem = std::make_shared<const SelfDictionary>(data.X, 6, 0.0, 1e-5);
    const Matrix X = xt::transpose(problem->Xt());
    const std::size_t N = X.shape()[1];
    double diameter = 0.0;
    for (std::size_t i = 0; i < N; ++i)
        for (std::size_t j = 0; j < N; ++j)
            diameter = std::max(diameter, xt::sum(xt::square(xt::col(X, static_cast<std::ptrdiff_t>(i)) -
                                                             xt::col(X, static_cast<std::ptrdiff_t>(j))))());
    const double C = static_cast<double>(N) * diameter;
    auto solver = make_solver(problem, "merit");
    solver->mutable_params().set_string("variant", "vanilla");
    solver->mutable_params().set_string("warm_start", "none");
    solver->mutable_params().set_int("t_init", 0);
    solver->initialize();
    double smallest = frank_wolfe_gap(*solver);
    for (int T = 1; T <= 400; ++T) {
        solver->step();
        smallest = std::min(smallest, frank_wolfe_gap(*solver));
        BOOST_REQUIRE(smallest <= 13.5 * C / (T + 2.0));
    }
}

// The baselines of Tables II and IV on noiseless separable data: every one finds the anchors exactly
// (FastAnchor also through a random projection to fewer dimensions than M, which keeps the K vertices
// vertices with probability 1).
BOOST_AUTO_TEST_CASE(baselines_recover_noiseless_anchors)
{
    const SeparableData data = separable_dirichlet(30, 60, 6, HUGE_VAL, 2);
    auto problem = std::make_shared<const SelfDictionary>(data.X, 6, 0.0, 1e-5);
    for (const char* algorithm : {"snpa", "fast_anchor", "fast_gradient"}) {
        BOOST_TEST_CONTEXT(algorithm)
        {
            auto solver = make_solver(problem, algorithm);
            const facto_status stop = solver->solve();  // FastGradient's mu keeps moving: it may stop at the limit
            BOOST_TEST((stop == FACTO_CONVERGED || std::string(algorithm) == "fast_gradient"));
            BOOST_TEST(solver->output("selected").ints == data.anchors, boost::test_tools::per_element());
        }
    }
    auto projected = make_solver(problem, "fast_anchor");
    projected->mutable_params().set_int("projection", 10);
    projected->solve();
    BOOST_TEST(projected->output("selected").ints == data.anchors, boost::test_tools::per_element());
}

// Sparse points (text-like: each anchor on its own 8 of 40 features, each point a mix of two anchors, so
// 60% of X is 0), given as CSR and given densely: SPA, SNPA and FastAnchor pick the planted anchors from
// both, and the sparse problem's objective, outputs, lambda heuristic and model are the dense one's to
// rounding (the same sums over the non-zeros, in another order); with noise on the non-zeros, the picks
// of both still agree. The solvers that need the points dense refuse the sparse problem.
BOOST_AUTO_TEST_CASE(sparse_points_give_the_dense_points_anchors_and_outputs)
{
    constexpr std::size_t M = 40, K = 5, N = 60;
    const std::vector<int64_t> anchors = {3, 14, 27, 38, 51};
    Rng rng(17);
    Matrix W = xt::zeros<double>({M, K}), H = xt::zeros<double>({K, N});
    for (std::size_t k = 0; k < K; ++k)
        for (std::size_t f = 8 * k; f < 8 * k + 8; ++f) W(f, k) = 0.5 + rng.uniform();
    for (std::size_t l = 0, a = 0; l < N; ++l) {
        if (a < K && static_cast<int64_t>(l) == anchors[a]) {
            H(a++, l) = 1.0;
            continue;
        }
        const double w = 0.1 + 0.8 * rng.uniform();
        H(l % K, l) = w;
        H((l + 2) % K, l) += 1.0 - w;
    }
    for (const double noise : {0.0, 0.05}) {
        BOOST_TEST_CONTEXT("noise " << noise)
        {
            Matrix X = xt::zeros<double>({M, N});
            blas::gemm(false, false, 1.0, W, H, 0.0, X);
            for (double& x : X) x *= x > 0.0 ? 1.0 + noise * (rng.uniform() - 0.5) : 0.0;
            const CsrMatrix sparse_X = csr_from_dense(rows_of(X));
            BOOST_TEST(sparse_X.nnz() <= static_cast<int64_t>(M * N) / 2);
            auto dense = std::make_shared<const SelfDictionary>(X, K, -1.0, 1e-5);
            auto sparse = std::make_shared<const SelfDictionary>(sparse_X, K, -1.0, 1e-5);
            BOOST_TEST(sparse->sparse());
            // f's sums round at eps ||X||_F^2 in either order; lambda = sqrt(2 f(C0)) / K then differs by at
            // most sqrt(eps) ||X||_F / K, which the noiseless case (f(C0) at rounding level) reaches
            const double scale = xt::sum(xt::square(X))();
            BOOST_TEST(std::abs(sparse->lambda() - dense->lambda()) <= 1e-6 * std::sqrt(scale) / K);
            for (const char* algorithm : {"spa", "snpa", "fast_anchor"}) {
                BOOST_TEST_CONTEXT(algorithm)
                {
                    auto by_dense = make_solver(dense, algorithm), by_sparse = make_solver(sparse, algorithm);
                    BOOST_TEST(by_dense->solve() == FACTO_CONVERGED);
                    BOOST_TEST(by_sparse->solve() == FACTO_CONVERGED);
                    const std::vector<int64_t> picked = by_sparse->output("selected").ints;
                    BOOST_TEST(picked == by_dense->output("selected").ints, boost::test_tools::per_element());
                    if (noise == 0.0) BOOST_TEST(picked == anchors, boost::test_tools::per_element());
                    const double f = by_dense->progress().objective;
                    BOOST_TEST(std::abs(by_sparse->progress().objective - f) <= 1e-12 * scale);
                    const std::vector<double> h = by_dense->output("H").doubles, hs = by_sparse->output("H").doubles;
                    double worst = 0.0;
                    for (std::size_t e = 0; e < h.size(); ++e) worst = std::max(worst, std::abs(h[e] - hs[e]));
                    BOOST_TEST(worst <= 1e-10);  // coefficients on the simplex, from K x K systems of condition ~1e2
                    BOOST_TEST(std::abs(sparse->objective(by_dense->iterate()) - dense->objective(by_dense->iterate())) <=
                               1e-12 * scale);
                    BOOST_TEST(sparse->points(picked) == dense->points(picked));
                }
            }
            for (const char* algorithm : {"merit", "fast_gradient"})
                BOOST_TEST(status_of([&] { make_solver(sparse, algorithm); }) == FACTO_ERROR_UNSUPPORTED);
        }
    }
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
BOOST_AUTO_TEST_CASE(sparse_points_fit_in_memory_their_dense_form_would_not)
{
    // 4000 documents of 20 non-zeros among 10^6 terms (the points), 32 GB dense. In a child process
    // limited to 1 GiB of address space the problem is built (with SPA's warm start and the lambda
    // heuristic), and SPA and SNPA pick K = 4 anchors with their coefficients (memory in the non-zeros
    // and K (M + N)); the dense form's allocation fails there. (Not under the sanitizers, whose shadow
    // memory the limit forbids.)
    BOOST_TEST(facto::test::within_address_space(1ul << 30, [] {
        auto problem = std::make_shared<const SelfDictionary>(transpose(sparse_rows(4000, 1000000, 20, 43)), 4, -1.0, 1e-5);
        bool ok = problem->lambda() > 0.0 && dense_allocation_fails(1000000, 4000);
        for (const char* algorithm : {"spa", "snpa"}) {
            auto solver = make_solver(problem, algorithm);
            ok = ok && solver->solve() == FACTO_CONVERGED && solver->output("selected").ints.size() == 4 &&
                 solver->output("H").doubles.size() == 4 * 4000;
        }
        return ok;
    }));
}
#endif

// Gillis & Luce's midpoint setting ([NFW] Fig. 2): noise pushes the midpoints outside the convex
// hull, where the greedy SPA picks them; FastGradient's convex model keeps the true vertices.
BOOST_AUTO_TEST_CASE(fast_gradient_resists_midpoint_noise_that_misleads_spa)
{
    int fast_gradient = 0, spa = 0;
    for (uint64_t seed = 1; seed <= 5; ++seed) {
        const SeparableData data = separable_midpoints(20, 8, 18.0, seed);
        auto problem = std::make_shared<const SelfDictionary>(data.X, 8, 0.0, 1e-5);
        fast_gradient += run(problem, "fast_gradient", 300)->output("selected").ints == data.anchors;
        spa += run(problem, "spa", 8)->output("selected").ints == data.anchors;
    }
    BOOST_TEST_MESSAGE("fast_gradient " << fast_gradient << " spa " << spa);
    BOOST_TEST(fast_gradient > spa);
}

BOOST_AUTO_TEST_CASE(reduced_table_one_merit_succeeds_where_spa_fails, FACTO_LONG_CASE)
{
    // Table I, K = 60, N = 200, M = 80, SNR = 10 dB: MERIT 1.00, SPA 0.42 over 50 trials (8 here). The
    // selection is the K rows of C with the largest entries: each trial must decide it by a margin
    // between the K-th and (K+1)-th row maxima far above C's rounding (~1e-11), so that the count
    // does not hinge on the last bits of the data or of BLAS.
    int merit = 0, spa = 0;
    const int trials = 8;
    for (int seed = 1; seed <= trials; ++seed) {
        const SeparableData data = separable_dirichlet(80, 200, 60, 10.0, static_cast<uint64_t>(seed));
        auto problem = std::make_shared<const SelfDictionary>(data.X, 60, -1.0, 1e-5);
        const auto solver = run(problem, "merit", 200);
        const Matrix C = solver->iterate();
        std::vector<double> row_max(C.shape()[0]);
        for (std::size_t i = 0; i < row_max.size(); ++i) row_max[i] = xt::amax(xt::row(C, static_cast<std::ptrdiff_t>(i)))();
        std::sort(row_max.begin(), row_max.end(), std::greater<>());
        BOOST_TEST(row_max[59] - row_max[60] > 1e-6);
        merit += solver->output("selected").ints == data.anchors;
        spa += run(problem, "spa", 60)->output("selected").ints == data.anchors;
    }
    BOOST_TEST(merit >= trials - 1);
    BOOST_TEST(spa <= trials - 3);
}

BOOST_AUTO_TEST_CASE(generators_plant_the_anchors_at_the_requested_snr)
{
    const SeparableData mid = separable_midpoints(7, 5, HUGE_VAL, 3);
    BOOST_TEST(mid.X.shape()[1] == 5u + 10u);
    for (std::size_t k = 0; k < 5; ++k) {  // the k-th anchor is column k of W, wherever it was permuted to
        const auto column = static_cast<std::size_t>(mid.anchors[k]);
        std::size_t j = 0;
        while (j < 5 && std::fabs(mid.H(j, column) - 1.0) > 0.0) ++j;
        BOOST_REQUIRE(j < 5);
        for (std::size_t i = 0; i < 7; ++i) BOOST_TEST(mid.X(i, column) == mid.W(i, j));
    }
    // Fig. 2's noise: only on the midpoints, each moved away from the mean of W's columns by one common
    // factor, at exactly the requested SNR
    const SeparableData noisy = separable_midpoints(20, 6, 12.0, 5);
    Matrix exact({20, 21});
    blas::gemm(false, false, 1.0, noisy.W, noisy.H, 0.0, exact);
    const Matrix moved = noisy.X - exact;
    BOOST_TEST(10.0 * std::log10(blas::frobenius_dot(exact, exact) / blas::frobenius_dot(moved, moved)) == 12.0,
               boost::test_tools::tolerance(1e-9));
    const Vector w_mean = xt::mean(noisy.W, {1});
    double delta = -1.0;
    for (std::size_t l = 0; l < 21; ++l) {
        const bool anchor = std::find(noisy.anchors.begin(), noisy.anchors.end(), static_cast<int64_t>(l)) !=
                            noisy.anchors.end();
        for (std::size_t i = 0; i < 20; ++i) {
            if (anchor) {
                BOOST_TEST(moved(i, l) == 0.0);
                continue;
            }
            const double ratio = moved(i, l) / (exact(i, l) - w_mean(i));
            if (delta < 0.0) delta = ratio;
            BOOST_TEST(ratio == delta, boost::test_tools::tolerance(1e-9));
        }
    }
    BOOST_TEST(delta > 0.0);
    const SeparableData data = separable_dirichlet(50, 2000, 10, 10.0, 4);
    Matrix clean({50, 2000});
    blas::gemm(false, false, 1.0, data.W, data.H, 0.0, clean);
    const Matrix noise = data.X - clean;
    const double snr = 10.0 * std::log10(blas::frobenius_dot(clean, clean) / blas::frobenius_dot(noise, noise));
    BOOST_TEST(std::fabs(snr - 10.0) < 0.1);
    for (std::size_t l = 0; l < 2000; ++l) BOOST_TEST(xt::sum(xt::view(data.H, xt::all(), l))() == 1.0,
                                                      boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(mrsa_and_rae_score_known_estimates)
{
    const Matrix W = random_matrix(30, 4, 6);
    Matrix permuted = W;  // columns 0 and 2 swapped, column 1 scaled and shifted: the same angles
    xt::view(permuted, xt::all(), 0) = xt::view(W, xt::all(), 2);
    xt::view(permuted, xt::all(), 2) = xt::view(W, xt::all(), 0);
    xt::view(permuted, xt::all(), 1) = 3.0 * xt::view(W, xt::all(), 1) + 1.0;
    BOOST_TEST(mrsa(W, permuted) < 1e-5);
    const Matrix w = xt::view(W, xt::all(), xt::range(0, 1));
    BOOST_TEST(mrsa(w, Matrix(-1.0 * w)) == 100.0, boost::test_tools::tolerance(1e-6));  // opposite: the largest angle
    const Matrix H = random_matrix(4, 12, 7);
    Matrix X({30, 12});
    blas::gemm(false, false, 1.0, W, H, 0.0, X);
    BOOST_TEST(relative_approximation(X, W, H) == 1.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(relative_approximation(X, W, Matrix(xt::zeros<double>({4, 12}))) == 0.0,
               boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(bad_input_is_refused_by_name)
{
    const Matrix X = random_matrix(4, 10, 1);
    BOOST_TEST(status_of([&] { SelfDictionary(X, 0, -1.0, 1e-5); }) == FACTO_ERROR_INVALID_ARGUMENT);
    BOOST_TEST(status_of([&] { SelfDictionary(X, 11, 0.0, 1e-5); }) == FACTO_ERROR_DIMENSION);
    BOOST_TEST(status_of([&] { SelfDictionary(X, 2, 0.0, 0.0); }) == FACTO_ERROR_OUT_OF_RANGE);
    Matrix bad = X;
    bad(1, 1) = std::nan("");
    BOOST_TEST(status_of([&] { SelfDictionary(bad, 2, 0.0, 1e-5); }) == FACTO_ERROR_NOT_FINITE);
    auto unknown_K = std::make_shared<const SelfDictionary>(X, 0, 0.1, 1e-5);
    BOOST_TEST(status_of([&] { make_solver(unknown_K, "spa")->step(); }) == FACTO_ERROR_INVALID_ARGUMENT);
    auto solver = make_solver(unknown_K, "merit");  // refused when set
    BOOST_TEST(status_of([&] { solver->mutable_params().set_string("warm_start", "spa"); }) ==
               FACTO_ERROR_INVALID_ARGUMENT);
    Matrix not_simplex = xt::zeros<double>({10, 10});
    BOOST_TEST(status_of([&] { make_solver(unknown_K, "merit")->set_iterate(not_simplex); }) == FACTO_ERROR_INFEASIBLE);
}

BOOST_AUTO_TEST_SUITE_END()
