// NOMAD on points: D = Y Y^T kept as Y. Every storage of D gives the same products; a
// problem built from points gives the same objective and Lagrangian gradient as one built from its
// Gram matrix; burer_monteiro on points recovers planted well-separated clusters exactly, with outputs
// computed from its factor equal to those from Q; kernel k-means works through products alone.
#include <boost/test/unit_test.hpp>

#include <xtensor/xadapt.hpp>
#include <xtensor/xmath.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>

#include <xtensor-blas/xlinalg.hpp>

#include "base/error.hpp"
#include "csdp_reference.hpp"
#include "data/data.hpp"
#include "fixtures.hpp"
#include "linalg/blas.hpp"
#include "linalg/gram_operator.hpp"
#include "linalg/sparse.hpp"
#include "metrics/metrics.hpp"
#include "solvers/nomad/burer_monteiro.hpp"
#include "solvers/registry.hpp"

using namespace facto;
using facto::test::status_of;
using facto::test::uniform_matrix;

namespace {

double relative_difference(const std::vector<double>& a, const std::vector<double>& b)
{
    double difference = 0.0, size = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k) difference += (a[k] - b[k]) * (a[k] - b[k]), size += b[k] * b[k];
    return std::sqrt(difference / size);
}

// Four Gaussian blobs in 10 dimensions, centers 20 apart and deviation 0.3: far beyond the separation
// at which the K-means SDP recovers the planted clustering exactly (Iguchi et al. 2017).
LabeledPoints separated_blobs(int64_t n)
{
    Matrix centers({4, 10}, 0.0);
    for (std::size_t k = 0; k < 4; ++k) centers(k, k) = 20.0;
    return gaussian_blobs(n, centers, 0.3, 5);
}

// Every operation of D held as S against D held as its dense factor F (n points): the products and the
// norm of c D for two c, 1^T D 1 = 0 (centred points), Tr(D Q), the diagonal, lambda_max and the triangle,
// to the rounding of sums of at most n terms of size 1 (1e-12 relative).
void expect_the_factors_operations(const GramOperator& S, const GramOperator& F, std::size_t n)
{
    const Matrix U = uniform_matrix(n, 4, 8, -1.0, 1.0), Q = uniform_matrix(n, n, 9, -1.0, 1.0);
    for (const double c : {1.0, 2.5}) {
        const GramOperator Sc = S.with_fast_products(c), Fc = F.with_fast_products(c);
        std::vector<double> got(4 * n), expected(4 * n);
        Sc.left_multiply(U.data(), 4, got.data(), 2);
        Fc.left_multiply(U.data(), 4, expected.data(), 1);
        BOOST_TEST(relative_difference(got, expected) <= 1e-12);
        BOOST_TEST(Sc.frobenius_norm() == Fc.frobenius_norm(), boost::test_tools::tolerance(1e-12));
    }
    BOOST_TEST(std::fabs(S.total()) <= 1e-12 * S.frobenius_norm() * double(n));
    BOOST_TEST(S.inner(Q) == F.inner(Q), boost::test_tools::tolerance(1e-12));
    BOOST_TEST(relative_difference(S.diagonal(), F.diagonal()) <= 1e-12);
    BOOST_TEST(S.largest_eigenvalue(2) == F.largest_eigenvalue(1), boost::test_tools::tolerance(1e-8));
    BOOST_TEST(relative_difference(S.triangle("test")->values, F.triangle("test")->values) <= 1e-12);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nomad_points)

BOOST_AUTO_TEST_CASE(every_storage_of_d_gives_the_same_products)
{
    // triangle, square and factor of D = F F^T (n = 37, d = 5): the products agree to rounding (1e-13
    // relative: sums of 5, 20 or 37 terms of size 1), and so do the scalars
    const std::size_t n = 37, d = 5, r = 3;
    const Matrix F = uniform_matrix(n, d, 1, -1.0, 1.0);
    Matrix D({n, n});
    blas::gemm(false, true, 1.0, F, F, 0.0, D);
    const GramOperator triangle(PackedSymmetric::from_upper(D)), factor = GramOperator::factored(F);
    const GramOperator square = triangle.with_fast_products(2.0), scaled_factor = factor.with_fast_products(2.0);
    BOOST_TEST(factor.is_factored());
    BOOST_TEST(triangle.stored_values() == double(n * (n + 1) / 2));
    BOOST_TEST(factor.stored_values() == double(n * d));
    const Matrix U = uniform_matrix(n, r, 2, -1.0, 1.0);
    std::vector<double> expected(r * n), got(r * n);
    for (std::size_t k = 0; k < r; ++k)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) expected[k * n + i] += U(j, k) * D(j, i);
    for (const GramOperator* op : {&triangle, &factor}) {
        op->left_multiply(U.data(), r, got.data(), 2);
        BOOST_TEST(relative_difference(got, expected) <= 1e-13);
    }
    for (double& e : expected) e *= 2.0;
    for (const GramOperator* op : {&square, &scaled_factor}) {
        op->left_multiply(U.data(), r, got.data(), 1);
        BOOST_TEST(relative_difference(got, expected) <= 1e-13);
    }
    const double frobenius = std::sqrt(blas::frobenius_dot(D, D)), sum = xt::sum(D)();
    const Matrix Q = uniform_matrix(n, n, 3, -1.0, 1.0);
    for (const GramOperator* op : {&triangle, &factor}) {
        BOOST_TEST(op->frobenius_norm() == frobenius, boost::test_tools::tolerance(1e-13));
        BOOST_TEST(op->total() == sum, boost::test_tools::tolerance(1e-12));
        BOOST_TEST(op->inner(Q) == blas::frobenius_dot(D, Q), boost::test_tools::tolerance(1e-12));
        const std::vector<double> diagonal = op->diagonal();
        for (std::size_t i = 0; i < n; ++i) BOOST_TEST(diagonal[i] == D(i, i), boost::test_tools::tolerance(1e-14));
    }
    // lambda_max of F F^T is sigma_max(F)^2
    const double sigma = blas::singular_values(F)(0);
    BOOST_TEST(factor.largest_eigenvalue(1) == sigma * sigma, boost::test_tools::tolerance(1e-8));
    BOOST_TEST(triangle.largest_eigenvalue(2) == sigma * sigma, boost::test_tools::tolerance(1e-8));
    // the triangle formed from F, and the stored one shared, not copied
    const auto formed = factor.triangle("test");
    for (std::size_t k = 0; k < formed->values.size(); ++k)
        BOOST_TEST(formed->values[k] == triangle.triangle("test")->values[k], boost::test_tools::tolerance(1e-13));
    BOOST_TEST(triangle.triangle("test").get() == triangle.triangle("test").get());
    // more features than points: the fast products form the square c F F^T (n^2 <= n d values), the same
    // products
    const Matrix wide = uniform_matrix(8, 20, 4, -1.0, 1.0), V = uniform_matrix(8, r, 5, -1.0, 1.0);
    Matrix wide_D({8, 8});
    blas::gemm(false, true, 3.0, wide, wide, 0.0, wide_D);
    const GramOperator fast = GramOperator::factored(wide).with_fast_products(3.0);
    BOOST_TEST(!fast.is_factored());
    BOOST_TEST(fast.stored_values() == 64.0);
    std::vector<double> wide_expected(r * 8, 0.0), wide_got(r * 8);
    for (std::size_t k = 0; k < r; ++k)
        for (std::size_t i = 0; i < 8; ++i)
            for (std::size_t j = 0; j < 8; ++j) wide_expected[k * 8 + i] += V(j, k) * wide_D(j, i);
    fast.left_multiply(V.data(), r, wide_got.data(), 1);
    BOOST_TEST(relative_difference(wide_got, wide_expected) <= 1e-13);
}

BOOST_AUTO_TEST_CASE(sparse_points_give_their_dense_forms_d_and_clustering)
{
    // 90 documents of 3 topics, 8 draws each among their topic's 40 of 120 terms (about 93% zeros): the
    // implicitly centred sparse storage is the dense points' D (their factor) to rounding (sums of at
    // most 120 terms of size 1: 1e-12 relative) in every operation, and burer_monteiro finds the labels
    // it finds on D formed densely, the topics
    std::vector<int64_t> rows, columns, topics;
    std::vector<double> values;
    std::mt19937_64 rng(17);
    for (int64_t i = 0; i < 90; ++i) {
        topics.push_back(i % 3);
        for (int t = 0; t < 8; ++t) {
            rows.push_back(i);
            columns.push_back(40 * (i % 3) + static_cast<int64_t>(rng() % 40));
            values.push_back(1.0 + static_cast<double>(rng() % 4));
        }
    }
    const CsrMatrix X = csr_from_triplets(90, 120, rows.data(), columns.data(), values.data(), static_cast<int64_t>(values.size()));
    const Matrix dense = dense_from_csr(X);
    const auto by_rows = Nomad::from_points(X, 3);
    const GramOperator& S = by_rows->D();
    const GramOperator F = GramOperator::factored(nomad_features(dense));
    BOOST_TEST(S.is_factored());
    BOOST_TEST(S.factor() == nullptr);
    // the same points given densely, 90% zeros or more, are kept so too
    BOOST_TEST(Nomad::from_points(dense, 3)->D().factor() == nullptr);
    Matrix filled = dense + 1.0;
    BOOST_TEST(Nomad::from_points(filled, 3)->D().factor() != nullptr);
    std::vector<int64_t> used = X.indices;  // the columns with a non-zero: the others are not kept
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    BOOST_TEST(S.stored_values() == 2.0 * double(X.nnz()) + double(used.size()));
    expect_the_factors_operations(S, F, 90);
    // the same clustering as on D formed densely (a triangle)
    const auto by_gram = std::make_shared<const Nomad>(nomad_gram(dense), 3);
    std::vector<int64_t> labels[2];
    for (int t = 0; t < 2; ++t) {
        auto solver = make_solver(t ? std::static_pointer_cast<const Problem>(by_gram) : by_rows, "burer_monteiro");
        solver->mutable_params().set_string("start", "kmeans");  // the points' default start, on both
        BOOST_TEST(solver->solve() == FACTO_CONVERGED);
        labels[t] = solver->output("labels").ints;
    }
    BOOST_TEST(labels[0] == labels[1]);
    BOOST_TEST(clustering_accuracy(labels[0], topics) == 1.0);
    BOOST_TEST(status_of([] { Nomad::from_points(CsrMatrix{2, 3, {0, 0, 0}, {}, {}}, 1); }) == FACTO_ERROR_INVALID_ARGUMENT);
}

BOOST_AUTO_TEST_CASE(single_precision_points_give_the_double_points_d_and_clustering)
{
    // 1200 "images" of 12 grey levels (integers, which single precision holds exactly) in three blobs:
    // the single-precision storage forms F's blocks of 1024 rows from them as nomad_features forms F, so
    // every operation is the factor's up to the order of its sums (of at most 1200 terms of size 1:
    // 1e-12 relative), across block boundaries, and burer_monteiro ends at the same labels
    Matrix centers({3, 12}, 60.0);
    for (std::size_t k = 0; k < 3; ++k)
        for (std::size_t c = 4 * k; c < 4 * k + 4; ++c) centers(k, c) = 200.0;
    LabeledPoints blobs = gaussian_blobs(1200, centers, 20.0, 21);
    blobs.X = xt::clip(xt::round(blobs.X), 0.0, 255.0);
    const SingleMatrix single = xt::cast<float>(blobs.X);
    const auto by_single = Nomad::from_points(rows_of(single), 3), by_double = Nomad::from_points(blobs.X, 3);
    const GramOperator &S = by_single->D(), &F = by_double->D();
    BOOST_TEST(S.is_factored());
    BOOST_TEST(S.factor() == nullptr);
    BOOST_TEST(F.factor() != nullptr);
    BOOST_TEST(S.stored_values() == 1200.0 * 12.0);
    expect_the_factors_operations(S, F, 1200);
    std::vector<int64_t> labels[2];
    double bounds[2];
    for (int t = 0; t < 2; ++t) {
        auto solver = make_solver(t ? by_double : by_single, "burer_monteiro");
        solver->mutable_params().set_string("start", "kmeans");
        BOOST_TEST(solver->solve() == FACTO_CONVERGED);
        labels[t] = solver->output("labels").ints;
        bounds[t] = solver->output("upper_bound").doubles[0];  // the partition bound included: Y formed
    }
    BOOST_TEST(labels[0] == labels[1]);
    BOOST_TEST(bounds[0] == bounds[1], boost::test_tools::tolerance(1e-6));
    BOOST_TEST(clustering_accuracy(labels[0], blobs.labels) == 1.0);
    // more features than points: D's norm and fast products through the factor formed in double
    const SingleMatrix wide = xt::cast<float>(xt::round(uniform_matrix(8, 20, 4, 0.0, 9.0)));
    const GramOperator Sw = Nomad::from_points(rows_of(wide), 2)->D(), Fw = GramOperator::factored(nomad_features(rows_of(wide)));
    BOOST_TEST(Sw.frobenius_norm() == Fw.frobenius_norm(), boost::test_tools::tolerance(1e-13));
    BOOST_TEST(!Sw.with_fast_products(3.0).is_factored());
    // a point that is not finite is refused before anything is kept
    SingleMatrix bad = wide;
    bad(3, 5) = std::numeric_limits<float>::quiet_NaN();
    BOOST_TEST(status_of([&] { Nomad::from_points(rows_of(bad), 2); }) == FACTO_ERROR_NOT_FINITE);
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
BOOST_AUTO_TEST_CASE(sparse_points_fit_in_memory_their_dense_form_would_not)
{
    // 4000 documents of 20 non-zeros among 10^6 terms: 32 GB dense. In a child process limited to 1 GiB
    // of address space, NOMAD on them is built and burer_monteiro runs (memory in the non-zeros, the
    // mean and the d x r product F^T U); the dense form's allocation fails there. (Not under the
    // sanitizers, whose shadow memory the limit forbids.)
    BOOST_TEST(facto::test::within_address_space(1ul << 30, [] {
        auto problem = Nomad::from_points(facto::test::sparse_rows(4000, 1000000, 20, 43), 4);
        auto solver = make_solver(problem, "burer_monteiro");
        solver->mutable_params().set_int("max_iterations", 5);
        solver->solve();
        return solver->output("labels").ints.size() == 4000 && facto::test::dense_allocation_fails(4000, 1000000);
    }));
}
#endif

BOOST_AUTO_TEST_CASE(points_and_their_gram_matrix_give_the_same_objective_and_gradient)
{
    const LabeledPoints rings = two_rings(30, 0.5, 0.05, 4);
    auto points = Nomad::from_points(rings.X, 3);
    auto dense = std::make_shared<const Nomad>(nomad_gram(rings.X), 3);
    BOOST_TEST(points->D().is_factored());
    BOOST_TEST(!dense->D().is_factored());
    const Matrix Q = dense->random_point(0);
    BOOST_TEST(points->objective(Q) == dense->objective(Q), boost::test_tools::tolerance(1e-12));
    // the Lagrangian (32) and its gradient at the start's zero multipliers, at one Y >= 0
    std::vector<double> values, gradients[2];
    const Matrix Y = uniform_matrix(30, 6, 5, 0.0, 1.0);
    for (const auto& problem : {points, dense}) {
        auto solver = make_solver(problem, "burer_monteiro");
        solver->mutable_params().set_string("start", "symnmf");
        solver->mutable_params().set_int("rank", 6);  // Y's columns
        solver->initialize();
        std::vector<double> G(Y.size());
        values.push_back(dynamic_cast<BurerMonteiro&>(*solver).lagrangian(Y.data(), G.data()));
        gradients[values.size() - 1] = G;
    }
    BOOST_TEST(values[0] == values[1], boost::test_tools::tolerance(1e-12));
    BOOST_TEST(relative_difference(gradients[0], gradients[1]) <= 1e-12);
}

BOOST_AUTO_TEST_CASE(burer_monteiro_on_points_recovers_planted_clusters_exactly)
{
    // Q* = sum_k 1_k 1_k^T / n_k is NOMAD's optimum on these blobs; the default run (kernel k-means start,
    // D never formed) converges to it: labels exact, objective within the feasibility tolerance's reach
    const LabeledPoints blobs = separated_blobs(200);
    auto problem = Nomad::from_points(blobs.X, 4);
    auto solver = make_solver(problem, "burer_monteiro");
    BOOST_TEST(solver->solve() == FACTO_CONVERGED);
    const std::vector<int64_t> labels = solver->output("labels").ints;
    BOOST_TEST(clustering_accuracy(labels, blobs.labels) == 1.0);
    Matrix planted({200, 200}, 0.0);
    std::vector<double> size(4, 0.0);
    for (int64_t l : blobs.labels) ++size[static_cast<std::size_t>(l)];
    for (std::size_t i = 0; i < 200; ++i)
        for (std::size_t j = 0; j < 200; ++j)
            if (blobs.labels[i] == blobs.labels[j]) planted(i, j) = 1.0 / size[static_cast<std::size_t>(blobs.labels[i])];
    const double optimum = problem->objective(planted), tolerance = solver->params().get_double("feasibility_tolerance");
    // |Tr(D (Q - Q*))| <= ||D||_2 ||Q - Q*||_* and a feasible Q near Q* differs by the residuals: a
    // relative 10 x tolerance covers it (the residuals are at most the tolerance)
    BOOST_TEST(std::fabs(solver->progress().objective - optimum) <= 10.0 * tolerance * optimum);
    // the outputs computed from the factor are those of Q itself
    const Matrix& Q = solver->iterate();
    const Output from_q = problem->output("feasibility", Q), from_factor = solver->output("feasibility");
    // residuals of sums of 200 entries of size 1 / 50 near 1 and 4: rounding, 1e-13 absolute
    for (std::size_t k = 0; k < 4; ++k) BOOST_TEST(std::fabs(from_factor.doubles[k] - from_q.doubles[k]) <= 1e-13);
    BOOST_TEST(problem->output("labels", Q).ints == labels);
    // the embedding's Gram matrix, sum_k lambda_k u_k u_k^T over Q - E's K - 1 leading eigenpairs: unique
    // although here the eigenvalues are equal (the planted blocks' Q - E is a projection of rank K - 1)
    const Output from_solver = solver->output("embedding"), from_Q = problem->output("embedding", Q);
    BOOST_TEST(from_solver.spec.cols == 3);
    const auto gram = [](const Output& e) {
        const Matrix E = xt::adapt(e.doubles, std::vector<std::size_t>{static_cast<std::size_t>(e.spec.rows),
                                                                       static_cast<std::size_t>(e.spec.cols)});
        Matrix G({E.shape()[0], E.shape()[0]});
        blas::gemm(false, true, 1.0, E, E, 0.0, G);
        return G;
    };
    const Matrix G = gram(from_solver), expected = gram(from_Q);
    BOOST_TEST(std::sqrt(xt::sum(xt::square(G - expected))() / xt::sum(xt::square(expected))()) <= 1e-6);
}

BOOST_AUTO_TEST_CASE(escapes_leave_the_kmeans_clustering_towards_the_optimum)
{
    // Two rings on points (n = 200, K = 16; NOMAD's optimum 120.3055, within 1e-5 by nomad_admm's dual
    // bound, docs/benchmarks.md). The kernel k-means start is a
    // hard clustering, a stationary point of L: with rank = K no column can be added and the solve ends
    // there; with rank 2 K it adds columns along nonnegative directions of negative curvature, each a
    // descent of L, and ends higher (+0.56% measured) yet still feasible and below the optimum (a
    // feasible Q cannot exceed it: 2e-3 covers the feasibility tolerance's reach). The paper's form
    // (L-BFGS-B in the box) with the kmeans start, which the sphere's default replaces
    const LabeledPoints rings = two_rings(200, 0.5, 0.0, 0);
    auto problem = Nomad::from_points(rings.X, 16);
    double objective[2];
    for (int64_t rank : {16, 32}) {
        auto solver = make_solver(problem, "burer_monteiro");
        solver->mutable_params().set_int("rank", rank);
        solver->mutable_params().set_string("inner_method", "lbfgsb");
        solver->mutable_params().set_string("start", "kmeans");
        BOOST_TEST_CONTEXT("rank " << rank) {
            BOOST_TEST(solver->solve() == FACTO_CONVERGED);
            const int64_t columns = solver->output("factor").spec.cols;
            BOOST_TEST((rank == 16 ? columns == 16 : columns > 16 && columns <= 32));
            const std::vector<double> f = solver->output("feasibility").doubles;
            BOOST_TEST(f[2] <= solver->params().get_double("feasibility_tolerance"));
            objective[rank == 16 ? 0 : 1] = solver->progress().objective;
        }
    }
    BOOST_TEST(objective[1] > objective[0] * (1.0 + 1e-3));
    BOOST_TEST(objective[1] <= 120.306 * (1.0 + 2e-3));
}

BOOST_AUTO_TEST_CASE(a_stop_request_ends_the_kmeans_start_after_its_first_replicate)
{
    // The start's replicates check interrupted() as steps do: with a stop pending, 1000 replicates
    // give the first replicate's clustering (that of start_replicates = 1), and the solve then stops
    // by request after one iteration; a time limit far away lets every replicate run (the start's clock
    // is its own: counted from the clock's epoch, 100 s had long passed)
    const LabeledPoints rings = two_rings(200, 0.5, 0.0, 0);
    auto problem = Nomad::from_points(rings.X, 16);
    auto single = make_solver(problem, "burer_monteiro"), many = make_solver(problem, "burer_monteiro");
    auto three = make_solver(problem, "burer_monteiro"), limited = make_solver(problem, "burer_monteiro");
    for (Solver* solver : {single.get(), many.get(), three.get(), limited.get()})
        solver->mutable_params().set_int("seed", 2);  // a seed whose later replicates do better
    single->mutable_params().set_int("start_replicates", 1);
    many->mutable_params().set_int("start_replicates", 1000);
    limited->mutable_params().set_double("time_limit", 100.0);
    three->initialize();
    limited->initialize();
    BOOST_TEST(limited->progress().objective == three->progress().objective);
    single->initialize();
    BOOST_TEST(three->progress().objective >= single->progress().objective);
    many->request_stop();
    many->initialize();
    BOOST_TEST(many->progress().objective == single->progress().objective);
    BOOST_TEST(many->solve() == FACTO_STOPPED_BY_REQUEST);
    BOOST_TEST(many->progress().iteration == 1);
}

BOOST_AUTO_TEST_CASE(nomad_cgm_on_points_forms_the_same_triangle)
{
    const LabeledPoints rings = two_rings(40, 0.5, 0.02, 6);
    double objective[2];
    int which = 0;
    for (const auto& problem : {Nomad::from_points(rings.X, 4), std::shared_ptr<const Nomad>(std::make_shared<const Nomad>(nomad_gram(rings.X), 4))}) {
        auto solver = make_solver(problem, "nomad_cgm");
        for (int t = 0; t < 3; ++t) solver->step();
        objective[which++] = solver->progress().objective;
    }
    BOOST_TEST(objective[0] == objective[1], boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(kernel_kmeans_clusters_through_products)
{
    // on separated blobs kernel k-means finds the planted clusters from any storage of D, and the same
    // seed gives the same labels from the triangle and from the points
    const LabeledPoints blobs = separated_blobs(120);
    const Matrix F = nomad_features(blobs.X);
    const GramOperator factor = GramOperator::factored(F), triangle(PackedSymmetric::from_upper(nomad_gram(blobs.X)));
    const std::vector<int64_t> from_points = kernel_kmeans(factor, 4, 3, 100, 1);
    BOOST_TEST(clustering_accuracy(from_points, blobs.labels) == 1.0);
    BOOST_TEST(kernel_kmeans(triangle, 4, 3, 100, 2) == from_points);
    BOOST_CHECK_EXCEPTION(kernel_kmeans(factor, 121, 3, 100, 1), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_DIMENSION; });
}

BOOST_AUTO_TEST_CASE(the_clustering_bound_is_never_below_the_exact_optimum)
{
    // Noisy rings, n = 30, K = 4 (an SDP optimum that is no clustering): weak duality makes the bound
    // valid for any labels, so it must not fall below coinor-csdp's optimum (less csdp's accuracy,
    // 1e-7 relative); the clustering's own Tr(D X) is a feasible value, below the optimum
    const LabeledPoints rings = two_rings(30, 0.5, 0.02, 6);
    const Matrix D = nomad_gram(rings.X);
    const double exact = test::csdp_objective(D, 4, "bound_csdp");
    BOOST_TEST_REQUIRE(std::isfinite(exact), "coinor-csdp did not run: install it (bash tests/run.sh does)");
    auto problem = Nomad::from_points(rings.X, 4);
    std::mt19937_64 random(9);
    std::vector<std::vector<int64_t>> clusterings = {kernel_kmeans(problem->D(), 4, 1, 100, 1), rings.labels,
                                                     std::vector<int64_t>(30, 0), std::vector<int64_t>(30)};
    for (int64_t& l : clusterings.back()) l = static_cast<int64_t>(random() % 4);
    for (std::size_t c = 0; c < clusterings.size(); ++c) {
        // lambda from the dense eigenvalues (the default at this n) and from Lanczos (dense_limit 0)
        const NomadBound b = problem->clustering_bound(clusterings[c], 2);
        const NomadBound krylov = problem->clustering_bound(clusterings[c], 2, 0);
        BOOST_TEST_CONTEXT("clustering " << c << ": bound " << b.bound << ", z " << b.z << ", lambda " << b.lambda
                                         << ", Lanczos's " << krylov.lambda) {
            BOOST_TEST(b.bound >= exact * (1.0 - 1e-7));
            BOOST_TEST(krylov.bound >= exact * (1.0 - 1e-7));
            if (c == 0) BOOST_TEST(b.clustering <= exact * (1.0 + 1e-7));
        }
    }
    // the dense D gives the same bound
    const double dense = std::make_shared<const Nomad>(D, 4)->clustering_bound(clusterings[0], 1).bound;
    BOOST_TEST(dense == problem->clustering_bound(clusterings[0], 1).bound, boost::test_tools::tolerance(1e-8));
}

BOOST_AUTO_TEST_CASE(the_clustering_bound_sees_an_eigenvector_orthogonal_to_its_lanczos_start)
{
    // One cluster, so A = 2 J D J, with D = S + w v v^T, S v = 0 and v orthogonal to 1 and to the
    // Lanczos start J cos(i + 1): v is an eigenvector of A, with eigenvalue 2 w just above the rest
    // (w = 0.55 lambda_max(2 J S J)), and a Krylov space from that start stays orthogonal to it but for
    // rounding, which grows slowly at that gap: a Lanczos solve settles on the second eigenvalue (34.1
    // against 2 w = 37.5 when this test called it through dense_limit = 0). lambda
    // bounds lambda_max(A) >= v^T A v = 2 w all the same (S v = 0 to rounding).
    const std::size_t n = 120;
    std::vector<Vector> basis = {Vector::from_shape({n}), Vector::from_shape({n}), Vector::from_shape({n})};
    const Matrix r = uniform_matrix(n, 1, 5, -1.0, 1.0);
    for (std::size_t i = 0; i < n; ++i) {
        basis[0](i) = 1.0;
        basis[1](i) = std::cos(static_cast<double>(i + 1));
        basis[2](i) = r(i, 0);
    }
    for (std::size_t k = 0; k < basis.size(); ++k) {  // Gram-Schmidt, twice
        for (int pass = 0; pass < 2; ++pass)
            for (std::size_t l = 0; l < k; ++l) basis[k] -= xt::sum(basis[k] * basis[l])() * basis[l];
        basis[k] /= std::sqrt(xt::sum(basis[k] * basis[k])());
    }
    const Vector& v = basis[2];
    const Matrix R = uniform_matrix(n, n, 6, -1.0, 1.0);
    Matrix D = Matrix::from_shape({n, n});
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) D(i, j) = R(i, j) + R(j, i);
    const Vector Dv = xt::linalg::dot(D, v);  // S = (I - v v^T) D (I - v v^T)
    const double vDv = xt::sum(v * Dv)();
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) D(i, j) += -v(i) * Dv(j) - Dv(i) * v(j) + vDv * v(i) * v(j);
    Matrix JSJ = D;
    const Vector mean = xt::mean(D, {0});
    const double total = xt::mean(mean)();
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) JSJ(i, j) = 2.0 * (D(i, j) - mean(i) - mean(j) + total);
    const double w = 0.55 * xt::amax(xt::linalg::eigvalsh(JSJ))();
    D += w * xt::linalg::outer(v, v);
    const NomadBound b = std::make_shared<const Nomad>(D, 2)->clustering_bound(std::vector<int64_t>(n, 0), 1);
    BOOST_TEST(b.lambda >= 2.0 * w * (1.0 - 1e-12));
    BOOST_TEST(b.bound >= b.clustering + 0.5 * 2.0 * w * (1.0 - 1e-12));
}

BOOST_AUTO_TEST_CASE(separated_blobs_are_certified_optimal)
{
    // the planted clustering of separated blobs is NOMAD's optimum, and the certificate proves it: lambda
    // <= z, so the bound is the clustering's own Tr(D X) (to Lanczos's 1e-8)
    const LabeledPoints blobs = separated_blobs(200);
    auto problem = Nomad::from_points(blobs.X, 4);
    const NomadBound b = problem->clustering_bound(blobs.labels, 2);
    BOOST_TEST(b.lambda <= b.z);
    BOOST_TEST(b.bound == b.clustering, boost::test_tools::tolerance(1e-12));
    // and burer_monteiro's objective lies between the two up to its feasibility tolerance
    auto solver = make_solver(problem, "burer_monteiro");
    BOOST_TEST(solver->solve() == FACTO_CONVERGED);
    const double upper = solver->output("upper_bound").doubles[0];
    BOOST_TEST(upper == b.bound, boost::test_tools::tolerance(1e-9));
    BOOST_CHECK_EXCEPTION(problem->clustering_bound(std::vector<int64_t>(200, 1), 1), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_INVALID_ARGUMENT; });
}

BOOST_AUTO_TEST_CASE(bad_points_are_refused)
{
    const Matrix zeros({5, 2}, 0.0);
    BOOST_CHECK_EXCEPTION(Nomad::from_points(zeros, 2), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_INVALID_ARGUMENT; });
    BOOST_CHECK_EXCEPTION(Nomad::from_points(uniform_matrix(5, 2, 1, -1.0, 1.0), 6), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_DIMENSION; });
    Matrix nan = uniform_matrix(5, 2, 1, -1.0, 1.0);
    nan(2, 1) = std::nan("");
    BOOST_CHECK_EXCEPTION(Nomad::from_points(nan, 2), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_NOT_FINITE; });
}

BOOST_AUTO_TEST_SUITE_END()
