// NOMAD's partition dual bound on points (issue 24): the smoothed dual's gradient against finite
// differences; at G = 0 the spectral bound of k-means, computed here from the dense J D J; never below
// NOMAD's exact optimum (coinor-csdp), whatever the partition; burer_monteiro's upper_bound on points
// uses it.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <numeric>
#include <random>

#include "base/error.hpp"
#include "csdp_reference.hpp"
#include "data/data.hpp"
#include "linalg/blas.hpp"
#include "problems/nomad.hpp"
#include "solvers/nomad_partition_bound.hpp"
#include "solvers/registry.hpp"

using namespace facto;
using facto::test::csdp_objective;

namespace {

Matrix uniform_matrix(std::size_t rows, std::size_t cols, uint64_t seed, double low, double high)
{
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(low, high);
    Matrix A({rows, cols});
    for (double& a : A) a = uniform(random);
    return A;
}

std::vector<int64_t> cyclic_labels(std::size_t n, int64_t parts)
{
    std::vector<int64_t> labels(n);
    for (std::size_t i = 0; i < n; ++i) labels[i] = static_cast<int64_t>(i) % parts;
    return labels;
}

// <D, E> + the sum of the K - 1 largest eigenvalues of J D J for D = F F^T, from the dense matrix.
double dense_spectral_bound(const Matrix& F, int64_t K)
{
    const std::size_t n = F.shape()[0];
    Matrix D({n, n});
    blas::gemm(false, true, 1.0, F, F, 0.0, D);
    const double mean = std::accumulate(D.begin(), D.end(), 0.0) / static_cast<double>(n);
    Vector rows(xt::mean(D, {1})), columns(xt::mean(D, {0}));
    Matrix JDJ({n, n});
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) JDJ(i, j) = D(i, j) - rows(i) - columns(j) + mean / static_cast<double>(n);
    Vector lambda;
    blas::symmetric_eigen(JDJ, lambda);
    double top = 0.0;
    for (int64_t k = 1; k < K; ++k) top += lambda(n - static_cast<std::size_t>(k));
    return mean + top;
}

// Overlapping Gaussian blobs: four centers 1.5 apart in 5 dimensions, deviation 1 (NOMAD's optimum is
// no clustering there).
Matrix overlapping_blobs(int64_t n, uint64_t seed)
{
    Matrix centers({4, 5}, 0.0);
    for (std::size_t k = 0; k < 4; ++k) centers(k, k) = 1.5;
    return gaussian_blobs(n, centers, 1.0, seed).X;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nomad_partition_dual)

BOOST_AUTO_TEST_CASE(the_smoothed_gradient_matches_finite_differences)
{
    // F 30 x 6 (not centred), K = 4, five parts, G > 0 random. Central differences of the smoothed value
    // along a random direction, step 1e-5: error O(h^2 f''') ~ 1e-9 against a slope of order 1, and
    // rounding 1e-16 / 1e-5: 1e-6 relative allowed
    const std::size_t n = 30;
    const Matrix F = uniform_matrix(n, 6, 1, -1.0, 1.0);
    PartitionDual dual(F, 4, 0.0);
    dual.partition(cyclic_labels(n, 5));
    const Matrix G = uniform_matrix(n, 5, 2, 0.0, 0.2), direction = uniform_matrix(n, 5, 3, -1.0, 1.0);
    const double mu = 0.05 * dual.trace() / 4.0, h = 1e-5;
    Matrix gradient({n, 5});
    const PartitionDual::Value at = dual.evaluate(G.data(), mu, gradient.data());
    const Matrix plus = G + h * direction, minus = G - h * direction;
    const double slope =
        (dual.evaluate(plus.data(), mu, nullptr).smoothed - dual.evaluate(minus.data(), mu, nullptr).smoothed) / (2 * h);
    const double predicted = blas::frobenius_dot(gradient, direction);
    BOOST_TEST(std::fabs(slope - predicted) <= 1e-6 * std::max(1.0, std::fabs(predicted)));
    // the smoothing is an upper bound of the exact sum, by at most mu (n - 1) ln 2 (the entropy's maximum)
    BOOST_TEST(at.smoothed >= at.exact);
    BOOST_TEST(at.smoothed - at.exact <= mu * static_cast<double>(n - 1) * std::log(2.0));
}

BOOST_AUTO_TEST_CASE(at_zero_it_is_the_spectral_bound)
{
    // with every component kept (tail_fraction 0) the bound at G = 0 is <D, E> + top_{K-1}(J D J), here
    // from the dense matrix (1e-10 relative: two eigensolvers on matrices of size ~10)
    const std::size_t n = 40;
    const Matrix F = uniform_matrix(n, 7, 4, -0.5, 1.0);
    for (const int64_t K : {1, 3, 6}) {
        const double spectral = dense_spectral_bound(F, K);
        PartitionDual dual(F, K, 0.0);
        dual.partition(cyclic_labels(n, 4));
        const Matrix zero({n, 4}, 0.0);
        BOOST_TEST(dual.spectral() == spectral, boost::test_tools::tolerance(1e-10));
        BOOST_TEST(dual.evaluate(zero.data(), 1.0, nullptr).exact == spectral, boost::test_tools::tolerance(1e-10));
        // dropping components adds their tail, never less than what they held (Ky Fan: top(A + B) <= top(A) + top(B))
        PartitionDual truncated(F, K, 0.3);
        truncated.partition(cyclic_labels(n, 4));
        BOOST_TEST(truncated.components().shape()[1] <= 7u);
        BOOST_TEST(truncated.evaluate(zero.data(), 1.0, nullptr).exact >= spectral * (1.0 - 1e-12));
    }
}

BOOST_AUTO_TEST_CASE(it_is_never_below_the_exact_optimum)
{
    // overlapping blobs, n = 30, K = 4, against coinor-csdp's optimum (accurate to ~1e-8 relative: 1e-7
    // allowed): every partition's optimized bound is above it, and below the spectral bound it starts at
    const Matrix X = overlapping_blobs(30, 7);
    const double exact = csdp_objective(nomad_gram(X), 4, "partition_csdp");
    BOOST_TEST_REQUIRE(std::isfinite(exact), "coinor-csdp did not run: install it (bash tests/run.sh does)");
    const Matrix F = nomad_features(X);
    for (const int64_t parts : {4, 8, 30}) {
        PartitionBoundSettings settings;
        settings.parts = parts;
        settings.iterations = 300;
        settings.tail_fraction = 0.0;
        const PartitionBound b = nomad_partition_bound(F, 4, settings);
        BOOST_TEST(b.bound >= exact * (1.0 - 1e-7));
        BOOST_TEST(b.bound <= b.spectral);
        BOOST_TEST(b.iterations <= 300);
    }
    // burer_monteiro's upper_bound on these points: at least its own objective less its feasibility
    // (1e-5 of K / n per row: Tr(D Q) moves by at most that times ||D||_1 / n), and at least the optimum
    auto problem = Nomad::from_points(X, 4);
    auto solver = make_solver(problem, "burer_monteiro");
    BOOST_TEST(solver->solve() == FACTO_CONVERGED);
    const double upper = solver->output("upper_bound").doubles[0];
    BOOST_TEST(upper >= exact * (1.0 - 1e-7));
    BOOST_TEST(upper >= solver->progress().objective * (1.0 - 1e-4));
    solver->mutable_params().set_int("bound_iterations", 0);
    BOOST_TEST(solver->output("upper_bound").doubles[0] >= upper);
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_refused)
{
    const Matrix F = uniform_matrix(10, 3, 5, -1.0, 1.0);
    BOOST_CHECK_EXCEPTION(PartitionDual(F, 11, 0.0), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_OUT_OF_RANGE; });
    PartitionDual dual(F, 3, 0.0);
    BOOST_CHECK_EXCEPTION(dual.partition(std::vector<int64_t>(9, 0)), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_DIMENSION; });
    BOOST_CHECK_EXCEPTION(dual.partition(std::vector<int64_t>(10, -1)), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_INVALID_ARGUMENT; });
}

BOOST_AUTO_TEST_SUITE_END()
