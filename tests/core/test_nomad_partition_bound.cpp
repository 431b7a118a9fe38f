// NOMAD's partition dual bound on points: the smoothed dual's gradient against finite
// differences; at G = 0 the spectral bound of k-means, computed here from the dense J D J; never below
// NOMAD's exact optimum (coinor-csdp), whatever the partition; burer_monteiro's upper_bound on points
// uses it.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <numeric>

#include "base/error.hpp"
#include "csdp_reference.hpp"
#include "data/data.hpp"
#include "fixtures.hpp"
#include "linalg/blas.hpp"
#include "problems/nomad.hpp"
#include "solvers/nomad/nomad_partition_bound.hpp"
#include "solvers/registry.hpp"

using namespace facto;
using facto::test::csdp_objective;
using facto::test::uniform_matrix;

namespace {

std::vector<int64_t> cyclic_labels(std::size_t n, int64_t parts)
{
    std::vector<int64_t> labels(n);
    for (std::size_t i = 0; i < n; ++i) labels[i] = static_cast<int64_t>(i) % parts;
    return labels;
}

// (1) at G from the dense matrices, every component kept: <D, E> + 2 <G, E Z> + the sum of the K - 1
// largest eigenvalues of J (F F^T + Z G^T + G Z^T) J (the one for the constant vector, 0, left out).
double dense_bound(const Matrix& F, int64_t K, const std::vector<int64_t>& labels, const Matrix& G)
{
    const std::size_t n = F.shape()[0];
    Matrix A({n, n});
    blas::gemm(false, true, 1.0, F, F, 0.0, A);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            A(i, j) += G(i, static_cast<std::size_t>(labels[j])) + G(j, static_cast<std::size_t>(labels[i]));
    const double nd = static_cast<double>(n), mean = std::accumulate(A.begin(), A.end(), 0.0) / nd;
    Vector rows(xt::mean(A, {1})), columns(xt::mean(A, {0}));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) A(i, j) += mean / nd - rows(i) - columns(j);
    // the constant vector is an eigenvector of J A J with eigenvalue 0: push it below the others
    for (double& a : A) a -= 1e6 / nd;
    Vector lambda;
    blas::symmetric_eigen(A, lambda);
    double top = 0.0;
    for (int64_t k = 1; k < K; ++k) top += lambda(n - static_cast<std::size_t>(k));
    return mean + top;
}

// An upper bound of evaluate's margin (K - 1) (2 sqrt(eps) + eps) max s, max s the largest eigenvalue of
// the Gram matrix of [F_r, J Z, J G], at most its trace Tr(J D J) + n + ||G||_F^2, plus 1e-10 of the
// bound for the two eigensolvers' rounding.
double margin(const PartitionDual& dual, int64_t K, std::size_t n, const Matrix& G, double bound)
{
    const double eps = std::numeric_limits<double>::epsilon();
    return static_cast<double>(K - 1) * (2.0 * std::sqrt(eps) + eps) *
               (dual.trace() + static_cast<double>(n) + blas::frobenius_dot(G, G)) +
           1e-10 * std::fabs(bound);
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
    // the exact value is (1) from the dense n x n matrix, plus at most the margin
    const double dense = dense_bound(F, 4, cyclic_labels(n, 5), G);
    BOOST_TEST(at.exact >= dense - 1e-10 * std::fabs(dense));
    BOOST_TEST(at.exact <= dense + margin(dual, 4, n, G, dense));
}

BOOST_AUTO_TEST_CASE(at_zero_it_is_the_spectral_bound)
{
    // with every component kept (tail_fraction 0) the bound at G = 0 is <D, E> + top_{K-1}(J D J), here
    // from the dense matrix, plus at most the margin; also with an empty part (label 2 unused)
    const std::size_t n = 40;
    const Matrix F = uniform_matrix(n, 7, 4, -0.5, 1.0), zero({n, 4}, 0.0);
    std::vector<int64_t> labels = cyclic_labels(n, 4);
    for (int64_t& a : labels) a = a == 2 ? 3 : a;
    for (const int64_t K : {1, 3, 6}) {
        const double spectral = dense_bound(F, K, labels, zero);
        PartitionDual dual(F, K, 0.0);
        dual.partition(labels);
        BOOST_TEST(dual.spectral() == spectral, boost::test_tools::tolerance(1e-10));
        const double exact = dual.evaluate(zero.data(), 1.0, nullptr).exact;
        BOOST_TEST(exact >= spectral - 1e-10 * std::fabs(spectral));
        BOOST_TEST(exact <= spectral + margin(dual, K, n, zero, spectral));
    }
}

BOOST_AUTO_TEST_CASE(more_features_than_points_take_the_components_from_the_points_gram)
{
    // d > n (a TF-IDF corpus): J D J's spectrum and components come from the n x n Gram instead of the
    // d x d covariance; the bound at G = 0 and at a G > 0 is still (1) from the dense matrix, within the
    // margin, with every component kept and with the fewest that a tail of 1e-3 allows
    const std::size_t n = 24;
    const Matrix F = uniform_matrix(n, 60, 9, -0.5, 1.0);
    const Matrix zero({n, 4}, 0.0), G = uniform_matrix(n, 4, 10, 0.0, 0.3);
    for (const double tail_fraction : {0.0, 1e-3}) {
        BOOST_TEST_CONTEXT("tail_fraction " << tail_fraction) {
            PartitionDual dual(F, 3, tail_fraction);
            BOOST_TEST(dual.components().shape()[1] <= n);
            dual.partition(cyclic_labels(n, 4));
            for (const Matrix* at : {&zero, &G}) {
                const double dense = dense_bound(F, 3, cyclic_labels(n, 4), *at);
                const double exact = dual.evaluate(at->data(), 1.0, nullptr).exact;
                BOOST_TEST(exact >= dense - 1e-10 * std::fabs(dense));
                if (tail_fraction == 0.0) BOOST_TEST(exact <= dense + margin(dual, 3, n, *at, dense));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(the_components_left_out_count_by_their_tail)
{
    // F with column scales 1, 1/2, ..., 1/64: J D J's spectrum decays, and a tail fraction of 0.3 keeps
    // fewer than K - 1 = 5 components. tail() is the sum of the 5 eigenvalues after the r kept (dense
    // eigensolver: 1e-10), and dropping components never lowers the bound (Ky Fan: top(A + B) <=
    // top(A) + top(B))
    const std::size_t n = 50, d = 7;
    Matrix F = uniform_matrix(n, d, 6, -1.0, 1.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < d; ++k) F(i, k) /= std::pow(2.0, static_cast<double>(k));
    PartitionDual truncated(F, 6, 0.3), full(F, 6, 0.0);
    const std::size_t r = truncated.components().shape()[1];
    BOOST_TEST_REQUIRE(r < 5u);
    BOOST_TEST(full.components().shape()[1] == d);
    Matrix D({n, n});
    blas::gemm(false, true, 1.0, F, F, 0.0, D);
    Vector rows(xt::mean(D, {1})), columns(xt::mean(D, {0}));
    const double mean = std::accumulate(D.begin(), D.end(), 0.0) / static_cast<double>(n * n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) D(i, j) += mean - rows(i) - columns(j);
    Vector lambda;
    blas::symmetric_eigen(D, lambda);
    double tail = 0.0;
    for (std::size_t k = r; k < r + 5; ++k) tail += std::max(lambda(n - 1 - k), 0.0);
    BOOST_TEST(truncated.tail() == tail, boost::test_tools::tolerance(1e-10));
    const Matrix zero({n, 3}, 0.0);
    truncated.partition(cyclic_labels(n, 3));
    full.partition(cyclic_labels(n, 3));
    BOOST_TEST(truncated.evaluate(zero.data(), 1.0, nullptr).exact >= full.spectral());
}

BOOST_AUTO_TEST_CASE(it_is_never_below_the_exact_optimum)
{
    // overlapping blobs, n = 30, K = 4, against coinor-csdp's optimum (accurate to ~1e-8 relative: 1e-7
    // allowed): every partition's optimized bound is above it, and below the spectral bound it starts at
    // (whose Q has negative sums over the parts here). With single points the relaxation is NOMAD itself
    // and its dual meets the optimum (strong duality): 300 steps come within 1e-2 (measured 8.7e-4)
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
        BOOST_TEST(b.bound < b.spectral);
        if (parts == 30) BOOST_TEST(b.bound <= exact * (1.0 + 1e-2));
        // a budget of the multiply-adds of 5 steps ((r + 2 K')^3 + n (r + K') K' each) takes 5: the same
        // first steps, so a bound between the spectral one and the 300 steps' (still above the optimum)
        const double r = static_cast<double>(b.rank), p = static_cast<double>(parts);
        settings.budget = 5.5 * (std::pow(r + 2.0 * p, 3.0) + 30.0 * (r + p) * p);
        const PartitionBound cheap = nomad_partition_bound(F, 4, settings);
        BOOST_TEST(cheap.iterations == 5);
        BOOST_TEST(cheap.bound >= b.bound);
        BOOST_TEST(cheap.bound <= cheap.spectral);
    }
    // burer_monteiro's upper_bound on these points: at least its own objective less its feasibility
    // (1e-5 of K / n per row: Tr(D Q) moves by at most that times ||D||_1 / n), and at least the optimum
    auto problem = Nomad::from_points(X, 4);
    auto solver = make_solver(problem, "burer_monteiro");
    BOOST_TEST(solver->solve() == FACTO_CONVERGED);
    const double upper = solver->output("upper_bound").doubles[0];
    BOOST_TEST(upper >= exact * (1.0 - 1e-7));
    BOOST_TEST(upper >= solver->progress().objective * (1.0 - 1e-4));
    solver->mutable_params().set_int("bound_iterations", 0);  // the spectral bound alone: looser
    BOOST_TEST(solver->output("upper_bound").doubles[0] > upper);
}

BOOST_AUTO_TEST_CASE(degenerate_cases_have_their_exact_bound)
{
    // K = 1: Q = E is the one feasible point, the bound is Tr(D E) = ||F^T 1||^2 / n (plus nothing: no
    // eigenvalue is summed); points all equal: J D J = 0, every feasible Q has Tr(D Q) = Tr(D E), r = 0;
    // more parts than points are n parts: the same bound as n parts
    const std::size_t n = 12;
    const Matrix F = uniform_matrix(n, 3, 7, 0.0, 1.0);
    double total = 0.0;
    for (std::size_t k = 0; k < 3; ++k) {
        double column = 0.0;
        for (std::size_t i = 0; i < n; ++i) column += F(i, k);
        total += column * column;
    }
    PartitionBoundSettings settings;
    const PartitionBound one = nomad_partition_bound(F, 1, settings);
    BOOST_TEST(one.bound == total / static_cast<double>(n), boost::test_tools::tolerance(1e-12));
    const Matrix same = xt::ones<double>({n, std::size_t{3}});
    const PartitionBound flat = nomad_partition_bound(same, 3, settings);
    BOOST_TEST(flat.rank == 0);
    BOOST_TEST(flat.bound == static_cast<double>(3 * n), boost::test_tools::tolerance(1e-12));
    settings.parts = 100;
    settings.iterations = 20;
    const PartitionBound many = nomad_partition_bound(F, 3, settings);
    settings.parts = static_cast<int64_t>(n);
    BOOST_TEST(many.bound == nomad_partition_bound(F, 3, settings).bound);
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
