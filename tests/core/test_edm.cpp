// EDM completion and the Gram kernel ([DAB] Sec. 2.3, 4.2, App. C): the
// objective and gradient against brute force and finite differences, the Bregman distances against
// their definition, the Gram map's optimality condition (eq. 33), relative smoothness with the
// paper's constants, and the Helix recovered by both kernels and by gradient descent.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

#include "data/data.hpp"
#include "problems/edm_completion.hpp"
#include "solvers/low_rank/gradient_descent.hpp"
#include "solvers/low_rank/gram_kernel.hpp"
#include "metrics/metrics.hpp"
#include "solvers/low_rank/nolips.hpp"
#include "problems/symnmf.hpp"
#include "solvers/low_rank/universal_kernel.hpp"
#include "fixtures.hpp"
#include "linalg/blas.hpp"

using namespace facto;
using namespace facto::test;

namespace {

std::shared_ptr<const EdmCompletion> make_edm(const Matrix& points, double fraction, int64_t r, uint64_t seed)
{
    const ObservedPairs p = sample_pairs(points, fraction, seed);
    return std::make_shared<const EdmCompletion>(static_cast<int64_t>(points.shape()[0]), r, p.i.data(), p.j.data(),
                                                 p.d.data(), static_cast<int64_t>(p.d.size()));
}

double brute_force_edm(const ObservedPairs& p, const Matrix& X)
{
    double f = 0.0;
    for (std::size_t k = 0; k < p.d.size(); ++k) {
        double dist = 0.0;
        for (std::size_t c = 0; c < X.shape()[1]; ++c) {
            const double diff = X(static_cast<std::size_t>(p.i[k]), c) - X(static_cast<std::size_t>(p.j[k]), c);
            dist += diff * diff;
        }
        f += 0.5 * (dist - p.d[k]) * (dist - p.d[k]);
    }
    return f;
}

double gram_h(const GramKernel& k, const Matrix& X)
{
    Matrix XtX({X.shape()[1], X.shape()[1]});
    blas::gram(X, XtX);
    const double a = blas::frobenius_dot(X, X);
    return 0.25 * k.alpha * a * a + 0.25 * k.beta * blas::frobenius_dot(XtX, XtX) + 0.5 * k.sigma * a;
}

Matrix gram_grad_h(const GramKernel& k, const Matrix& X)
{
    Matrix XtX({X.shape()[1], X.shape()[1]}), H(X.shape());
    blas::gram(X, XtX);
    k.gradient(X, XtX, H);
    return H;
}

double gram_bregman(const GramKernel& k, const Matrix& Y, const Matrix& X)
{
    const std::size_t r = X.shape()[1];
    const Matrix D = Y - X;
    Matrix XtX({r, r}), XtD({r, r}), DtD({r, r});
    blas::gram(X, XtX);
    blas::gemm(true, false, 1.0, X, D, 0.0, XtD);
    blas::gram(D, DtD);
    return k.bregman(XtX, XtD, DtD);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(edm)

BOOST_AUTO_TEST_CASE(pairs_are_sampled_once_each_with_their_distances)
{
    const Matrix points = helix_points(60, 3);
    const ObservedPairs all = sample_pairs(points, 1.0, 1);
    BOOST_TEST(all.d.size() == 60u * 59u / 2u);
    const ObservedPairs some = sample_pairs(points, 0.1, 2);
    const double expected = 0.1 * 1770, spread = std::sqrt(1770 * 0.1 * 0.9);
    BOOST_TEST(std::fabs(static_cast<double>(some.d.size()) - expected) < 5 * spread);
    for (std::size_t k = 0; k < some.d.size(); ++k) {
        BOOST_REQUIRE(some.i[k] < some.j[k]);
        if (k > 0) BOOST_REQUIRE((some.i[k - 1] < some.i[k] || (some.i[k - 1] == some.i[k] && some.j[k - 1] < some.j[k])));
        const auto a = xt::row(points, some.i[k]), b = xt::row(points, some.j[k]);
        BOOST_TEST(some.d[k] == xt::sum(xt::square(a - b))(), boost::test_tools::tolerance(1e-14));
    }
    const ObservedPairs again = sample_pairs(points, 0.1, 2);
    BOOST_TEST(again.j == some.j);
}

BOOST_AUTO_TEST_CASE(objective_and_gradient_match_brute_force_and_finite_differences)
{
    const Matrix points = random_matrix(30, 2, 4);
    const ObservedPairs p = sample_pairs(points, 0.3, 5);
    const EdmCompletion problem(30, 3, p.i.data(), p.j.data(), p.d.data(), static_cast<int64_t>(p.d.size()));
    const Matrix X = random_matrix(30, 3, 6);
    BOOST_TEST(problem.objective(X) == brute_force_edm(p, X), boost::test_tools::tolerance(1e-12));
    LowRankProblem::Evaluation e;
    Matrix G(X.shape());
    problem.evaluate(X, e, 2);
    problem.gradient(X, e, G, 2);
    BOOST_TEST(xt::allclose(G, finite_difference_gradient(problem, X), 1e-5, 1e-6));
}

BOOST_AUTO_TEST_CASE(bad_pairs_are_rejected_by_name)
{
    const int64_t i[] = {0, 1}, j[] = {1, 2}, self[] = {0, 1}, far[] = {1, 7};
    const double d[] = {1.0, 2.0}, negative[] = {1.0, -2.0}, nan[] = {1.0, std::nan("")};
    BOOST_TEST(status_of([&] { EdmCompletion(3, 2, i, j, d, 2); }) == FACTO_OK);
    BOOST_TEST(status_of([&] { EdmCompletion(3, 2, i, self, d, 2); }) == FACTO_ERROR_INVALID_ARGUMENT);
    BOOST_TEST(status_of([&] { EdmCompletion(3, 2, i, far, d, 2); }) == FACTO_ERROR_INVALID_ARGUMENT);
    BOOST_TEST(status_of([&] { EdmCompletion(3, 2, i, j, negative, 2); }) == FACTO_ERROR_OUT_OF_RANGE);
    BOOST_TEST(status_of([&] { EdmCompletion(3, 2, i, j, nan, 2); }) == FACTO_ERROR_NOT_FINITE);
    BOOST_TEST(status_of([&] { EdmCompletion(3, 0, i, j, d, 2); }) == FACTO_ERROR_DIMENSION);
}

BOOST_AUTO_TEST_CASE(bregman_distances_match_their_definition)
{
    const GramKernel k{2.0, 3.0, 0.5};
    for (uint64_t seed = 0; seed < 10; ++seed) {
        const Matrix X = random_matrix(12, 3, seed), Y = random_matrix(12, 3, 100 + seed);
        const double direct = gram_h(k, Y) - gram_h(k, X) - blas::frobenius_dot(gram_grad_h(k, X), Y - X);
        BOOST_TEST(gram_bregman(k, Y, X) == direct, boost::test_tools::tolerance(1e-10));
        const double a = blas::frobenius_dot(X, X), b = blas::frobenius_dot(Y, Y);
        const double universal = universal_h(k.alpha, k.sigma, b) - universal_h(k.alpha, k.sigma, a) -
                                 (k.alpha * a + k.sigma) * (blas::frobenius_dot(X, Y) - a);
        BOOST_TEST(universal_bregman(k.alpha, k.sigma, a, blas::frobenius_dot(X, Y - X),
                                     blas::frobenius_dot(Y - X, Y - X)) == universal,
                   boost::test_tools::tolerance(1e-10));
    }
}

BOOST_AUTO_TEST_CASE(gram_map_satisfies_grad_h_of_T_equals_V)
{
    // Prop. 2.4 / eq. (33): T = T(V) solves grad h_g(T) = V; with Alg. 3's epsilon at 1e-13.
    for (uint64_t seed = 0; seed < 6; ++seed) {
        const GramKernel k{1.0 + static_cast<double>(seed), 0.5 * static_cast<double>(seed), 0.1};
        GramMap map(k, 1e-13, 1000000);
        const Matrix V = random_matrix(40, 4, 300 + seed);
        Matrix T = V;
        map.apply(T);
        BOOST_TEST(xt::allclose(gram_grad_h(k, T), V, 1e-9, 1e-10));
        // A second call warm-starts mu at the solution: the same T.
        Matrix again = V;
        map.apply(again);
        BOOST_TEST(xt::allclose(again, T, 1e-12, 1e-14));
    }
}

BOOST_AUTO_TEST_CASE(relative_smoothness_holds_with_the_papers_edm_constants)
{
    // Sec. 4.2: f is 1-smooth relative to h_u (alpha = 6 L_EDM, sigma = 2 ||P(D)||) and to h_g (beta = alpha).
    auto problem = make_edm(helix_points(40, 8), 0.2, 3, 9);
    const GramKernel k{problem->default_alpha(), problem->default_alpha(), problem->default_sigma()};
    LowRankProblem::Evaluation e;
    for (uint64_t seed = 0; seed < 40; ++seed) {
        const double scale = std::pow(10.0, static_cast<double>(seed % 4) - 2.0);
        const Matrix X = scale * random_matrix(40, 3, 500 + seed), Y = scale * random_matrix(40, 3, 600 + seed);
        Matrix G(Y.shape());
        const double fy = problem->evaluate(Y, e, 1);
        problem->gradient(Y, e, G, 1);
        const double linear = fy + blas::frobenius_dot(G, X - Y);
        const double fx = problem->objective(X);
        const double a = blas::frobenius_dot(Y, Y);
        const double du = universal_bregman(k.alpha, k.sigma, a, blas::frobenius_dot(Y, X - Y), blas::frobenius_dot(X - Y, X - Y));
        BOOST_REQUIRE(fx <= linear + du + 1e-10 * std::max(1.0, std::fabs(fx)));
        BOOST_REQUIRE(fx <= linear + gram_bregman(k, X, Y) + 1e-10 * std::max(1.0, std::fabs(fx)));
    }
}

BOOST_AUTO_TEST_CASE(helix_is_recovered_by_both_kernels_and_by_gradient_descent)
{
    // Sec. 4.2 / Fig. 2: n = 500, 10% of the distances; the normalized RMSE over all distances.
    const Matrix points = helix_points(500, 11);
    auto problem = make_edm(points, 0.1, 3, 12);
    for (const char* which : {"universal", "gram", "gradient_descent"}) {
        std::unique_ptr<Solver> solver;
        if (std::string(which) == "gradient_descent") {
            solver = std::make_unique<GradientDescent>(problem);
        } else {
            solver = std::make_unique<NoLips>(problem);
            solver->mutable_params().set_string("kernel", which);
        }
        solver->mutable_params().set_int("max_iterations", 20000);
        solver->mutable_params().set_double("tolerance", 1e-11);
        solver->mutable_params().set_double("objective_tolerance", 0.0);
        solver->mutable_params().set_int("seed", 13);
        BOOST_TEST(solver->solve() == FACTO_CONVERGED, which);
        const double nrmse = distance_nrmse(solver->iterate(), points, 1000000, 1);
        BOOST_TEST_MESSAGE(which << ": " << solver->progress().iteration << " iterations, nRMSE " << nrmse);
        BOOST_TEST(nrmse < 1e-6, which << " nRMSE " << nrmse);
    }
}

BOOST_AUTO_TEST_CASE(gram_kernel_is_refused_for_nonnegative_problems)
{
    auto problem = std::make_shared<const SymNMF>(random_affinity(20, 2, 1), 2);
    NoLips solver(problem);
    // refused when set, not at the first step; the parameter keeps its value
    BOOST_TEST(status_of([&] { solver.mutable_params().set_string("kernel", "gram"); }) == FACTO_ERROR_UNSUPPORTED);
    BOOST_TEST(solver.params().get_string("kernel") == "universal");
    BOOST_TEST(status_of([&] { solver.step(); }) == FACTO_OK);
}

BOOST_AUTO_TEST_CASE(distance_nrmse_ignores_rigid_motions_and_samples_faithfully)
{
    const Matrix points = helix_points(300, 2);
    Matrix moved(points.shape());
    for (std::size_t i = 0; i < 300; ++i) {  // rotate about z by 0.7 rad and shift
        moved(i, 0) = std::cos(0.7) * points(i, 0) - std::sin(0.7) * points(i, 1) + 5.0;
        moved(i, 1) = std::sin(0.7) * points(i, 0) + std::cos(0.7) * points(i, 1) - 1.0;
        moved(i, 2) = points(i, 2) + 2.0;
    }
    BOOST_TEST(distance_nrmse(moved, points, 1000000, 1) < 1e-13);
    const Matrix noisy = points + 0.01 * random_matrix(300, 3, 4);
    const double exact = distance_nrmse(noisy, points, 1000000, 1);
    const double sampled = distance_nrmse(noisy, points, 20000, 1);
    BOOST_TEST(exact > 0.0);
    BOOST_TEST(sampled == exact, boost::test_tools::tolerance(0.1));
}

BOOST_AUTO_TEST_SUITE_END()
