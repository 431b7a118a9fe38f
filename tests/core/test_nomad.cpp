// NOMAD (Tepper, Sengupta & Chklovskii): the generators and the Gram matrix, the packed symmetric
// products, the conditional gradient iterates' invariants (P 1 = 0, Tr P = K - 1, psd), its first
// linear step against a dense LAPACK eigensolver, and its optimum against coinor-csdp's.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <memory>
#include <vector>

#include "data/data.hpp"
#include "metrics/metrics.hpp"
#include "problems/nomad.hpp"
#include "problems/simplicial_symnmf.hpp"
#include "solvers/nomad/multilayer_nomad.hpp"
#include "solvers/nomad/nomad_cgm.hpp"
#include "solvers/nomad/nomad_dual_bound.hpp"
#include "solvers/registry.hpp"
#include "linalg/symmetric.hpp"
#include "csdp_reference.hpp"
#include "fixtures.hpp"
#include "linalg/blas.hpp"
#include "long_case.hpp"

using namespace facto;
using namespace facto::test;

namespace {

// The eigenvalues (ascending) and eigenvectors (rows) of a dense symmetric matrix.
std::pair<Vector, Matrix> eigen(Matrix A)
{
    Vector values;
    blas::symmetric_eigen(A, values);
    return {values, A};
}

struct CgmRun {
    double objective;
    std::vector<double> feasibility;  // NomadFeasibility in order
};

// nomad_cgm with one string parameter set, for `iterations` outer iterations.
CgmRun run_cgm(const std::shared_ptr<const Nomad>& problem, const char* name, const char* value, int64_t iterations)
{
    auto solver = make_solver(problem, "nomad_cgm");
    solver->mutable_params().set_string(name, value);
    solver->mutable_params().set_int("max_iterations", iterations);
    solver->mutable_params().set_double("tolerance", 0.0);
    solver->mutable_params().set_double("feasibility_tolerance", 0.0);
    solver->solve();
    return {solver->progress().objective, solver->output("feasibility").doubles};
}

// nomad_cgm run to CONVERGED at the given tolerances (both the duality gap and the feasibility), then
// what convergence implies about the optimum `exact` (an interior-point solver's, accurate to ~1e-8):
// its dual bound is an upper bound of the optimum, so Tr(D Q) >= bound - gap >= exact - gap.
std::unique_ptr<Solver> converge_cgm(const std::shared_ptr<const Nomad>& problem, const char* rule, double tolerance,
                                     double exact, double feasibility_tolerance = 0.0)
{
    auto solver = make_solver(problem, "nomad_cgm");
    solver->mutable_params().set_string("step_rule", rule);
    solver->mutable_params().set_double("tolerance", tolerance);
    solver->mutable_params().set_double("feasibility_tolerance",
                                        feasibility_tolerance > 0.0 ? feasibility_tolerance : tolerance);
    solver->mutable_params().set_int("max_iterations", 20000);
    BOOST_TEST(solver->solve() == FACTO_CONVERGED);
    const double objective = solver->progress().objective;
    const double bound = dynamic_cast<const NomadCgm&>(*solver).upper_bound();
    BOOST_TEST(bound >= exact * (1.0 - 1e-7));
    BOOST_TEST(objective >= exact - tolerance * std::max(std::fabs(bound), std::fabs(objective)));
    // the equality constraints hold by construction, up to the rounding of n-term row sums
    const std::vector<double> feasibility = solver->output("feasibility").doubles;
    BOOST_TEST(feasibility[2] < 1e-10);
    BOOST_TEST(feasibility[3] < 1e-10);
    return solver;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nomad)

BOOST_AUTO_TEST_CASE(generators_and_the_gram_matrix)
{
    const LabeledPoints rings = two_rings(40, 0.5, 0.0, 1);
    for (std::size_t i = 0; i < 40; ++i) {
        const double radius = std::hypot(rings.X(i, 0), rings.X(i, 1));
        BOOST_TEST(radius == (rings.labels[i] == 0 ? 1.0 : 0.5), boost::test_tools::tolerance(1e-14));
    }
    const LabeledPoints knot = trefoil_knot(30), moons = two_moons(31, 0.05, 2);
    BOOST_TEST(knot.X.shape()[1] == 3u);
    BOOST_TEST(moons.labels[15] == 1);  // 15 upper points, then 16 lower ones
    const Matrix centers = {{-10.0, -10.0}, {10.0, 10.0}, {0.0, 10.0}};
    const LabeledPoints blobs = gaussian_blobs(10, centers, 1.0, 3);
    BOOST_TEST((blobs.labels == std::vector<int64_t>{0, 0, 0, 0, 1, 1, 1, 2, 2, 2}));
    // D = Y Y^T with Y centered: D 1 = 0, symmetric, and D_ii = ||y_i||^2 <= 4
    const Matrix D = nomad_gram(blobs.X);
    for (std::size_t i = 0; i < 10; ++i) {
        double row = 0.0;
        for (std::size_t j = 0; j < 10; ++j) {
            row += D(i, j);
            BOOST_TEST(D(i, j) == D(j, i));
        }
        BOOST_TEST(std::fabs(row) < 1e-12);
        BOOST_TEST(D(i, i) <= 4.0);
    }
}

BOOST_AUTO_TEST_CASE(packed_products_match_dense_ones_on_any_thread_count)
{
    for (std::size_t n : {1, 2, 9, 100}) {
        const Matrix B = random_matrix(n, n, n);
        const Matrix A = B + xt::transpose(B), C = random_matrix(n, n, n + 1);
        const PackedSymmetric S = PackedSymmetric::from_upper(A), T = PackedSymmetric::from_upper(C + xt::transpose(C));
        BOOST_TEST(S.to_dense() == A);
        std::vector<double> x(n), one(n), three(n);
        for (std::size_t i = 0; i < n; ++i) x[i] = std::sin(static_cast<double>(i) + 0.5);
        multiply(S, x.data(), one.data(), 1);
        multiply(S, x.data(), three.data(), 3);
        BOOST_TEST(one == three);  // bitwise
        for (std::size_t i = 0; i < n; ++i) {
            double y = 0.0;
            for (std::size_t j = 0; j < n; ++j) y += A(i, j) * x[j];
            BOOST_TEST(one[i] == y, boost::test_tools::tolerance(1e-12));
        }
        const Matrix D = C + xt::transpose(C);
        BOOST_TEST(inner(S, T) == blas::frobenius_dot(A, D), boost::test_tools::tolerance(1e-12));
        BOOST_TEST(total(S) == xt::sum(A)(), boost::test_tools::tolerance(1e-12));
    }
}

BOOST_AUTO_TEST_CASE(iterates_keep_the_equality_constraints_and_stay_psd)
{
    const std::size_t n = 30;
    const int64_t K = 4;
    auto problem = std::make_shared<const Nomad>(nomad_gram(two_rings(n, 0.5, 0.01, 4).X), K);
    auto solver = make_solver(problem, "nomad_cgm");
    solver->mutable_params().set_int("inner_iterations", 3);
    solver->initialize();
    for (int t = 0; t < 8; ++t) {
        solver->step();
        const Matrix& Q = solver->iterate();
        const NomadFeasibility f = Nomad::feasibility(PackedSymmetric::from_upper(Q), K);
        BOOST_TEST_CONTEXT("iteration " << t) {
            BOOST_TEST(f.row_sum < 1e-10);
            BOOST_TEST(f.trace < 1e-10);
            const auto [values, vectors] = eigen(Q);
            BOOST_TEST(values(0) > -1e-10);
            BOOST_TEST(solver->progress().objective == problem->objective(Q), boost::test_tools::tolerance(1e-10));
        }
    }
}

BOOST_AUTO_TEST_CASE(the_first_linear_step_is_the_top_eigenvector_of_d)
{
    // From the feasible start, Q >= 0, so the gradient is -D (Gamma = 0), and D is centered (J D J = D):
    // the first vertex is (K - 1) u u^T, u D's top eigenvector, and the step 2 / (0 + 2) = 1 takes it
    // (at the paper's accuracy 1 / (t + 1) = 1 the first Ritz vector would be a rough one: tightened).
    const std::size_t n = 24;
    const int64_t K = 3;
    const Matrix D = nomad_gram(random_matrix(n, 5, 8));
    auto problem = std::make_shared<const Nomad>(D, K);
    auto solver = make_solver(problem, "nomad_cgm");
    solver->mutable_params().set_int("inner_iterations", 1);
    solver->mutable_params().set_double("lanczos_tolerance", 1e-12);
    solver->step();
    const auto [values, vectors] = eigen(D);
    const PackedSymmetric& P = dynamic_cast<const NomadCgm&>(*solver).P();
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i; j < n; ++j)
            BOOST_TEST(P(i, j) == (K - 1) * vectors(n - 1, i) * vectors(n - 1, j), boost::test_tools::tolerance(1e-6));
}

BOOST_AUTO_TEST_CASE(agrees_with_an_exact_interior_point_solve, FACTO_LONG_CASE)
{
    // Two noisy rings, n = 30, K = 4: the exact optimum and dual solution from coinor-csdp (which
    // tests/run.sh installs). Run to a duality gap and infeasibility of 1e-3 with either step rule:
    // the objective is then bracketed by exact - gap and csdp's weak-duality bound for the psd Q
    // (the dual objective plus Q's residuals weighted by |y|; 1e-6 of csdp's own accuracy added)
    const Matrix D = nomad_gram(two_rings(30, 0.5, 0.02, 6).X);
    const int64_t K = 4;
    const double exact = csdp_objective(D, K, "nomad_csdp");
    BOOST_TEST_REQUIRE(std::isfinite(exact), "coinor-csdp did not run: install it (bash tests/run.sh does)");
    const std::vector<double> y = csdp_dual("nomad_csdp");
    BOOST_TEST_REQUIRE(y.size() == 30u + 1u + 30u * 29u / 2u);
    auto problem = std::make_shared<const Nomad>(D, K);
    for (const char* rule : {"open_loop", "line_search"}) {
        BOOST_TEST_CONTEXT(rule) {
            const auto solver = converge_cgm(problem, rule, 1e-3, exact);
            BOOST_TEST(solver->progress().objective <= csdp_certified_bound(y, solver->iterate(), K) + 1e-6 * exact);
        }
    }
}

BOOST_AUTO_TEST_CASE(the_ky_fan_bound_is_the_dense_sum_and_lies_above_the_optimum)
{
    // The Ky Fan form of the dual bound, <D - Gamma, E> plus the sum of the K - 1 largest eigenvalues of
    // J (D - Gamma) J on 1-perp, at multipliers Gamma <= 0 from 0 (the spectral bound) to 10x D's mean
    // entry, on noisy rings with n = 30 (Krylov-Schur's basis spans everything) and n = 100 (it restarts):
    // above a dense eigensolve's value but for rounding and not more above it than its eigensolvers'
    // tolerances allow (below), not above the lambda_max form by more than that (that form is at least
    // the exact one), strictly below it at Gamma = 0; K = 2 (the forms coincide)
    // and K = n (every eigenvalue) included. From a block W that is only near the top eigenvectors
    // (perturbed by 1e-3 and 1e-2) the block bound stays above the dense sum: its residual term is
    // what keeps it there. And above coinor-csdp's optimum (n = 30, K = 4). The certified form
    // (nomad_dense_dual_bound) is the dense sum up to its rounding margin.
    const Matrix D30 = nomad_gram(two_rings(30, 0.5, 0.02, 6).X);
    const double exact = csdp_objective(D30, 4, "ky_fan_csdp");
    BOOST_TEST_REQUIRE(std::isfinite(exact), "coinor-csdp did not run: install it (bash tests/run.sh does)");
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (std::size_t n : {30, 100}) {
        const Matrix D = n == 30 ? D30 : nomad_gram(two_rings(n, 0.5, 0.02, 1).X);
        const PackedSymmetric Dp = PackedSymmetric::from_upper(D);
        double mean_entry = 0.0;
        for (double d : D) mean_entry += std::fabs(d) / double(n * n);
        for (double size : {0.0, 0.1, 1.0, 10.0}) {
            Matrix Gamma({n, n}, 0.0);
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = i; j < n; ++j) Gamma(i, j) = Gamma(j, i) = -size * mean_entry * uniform(rng);
            const PackedSymmetric Gp = PackedSymmetric::from_upper(Gamma);
            // the dense spectrum of J (D - Gamma) J - c E: the spectrum on 1-perp and -c, c = 2 ||D - Gamma||_F
            const Matrix A = D - Gamma;
            // the code's norm, ||D||_F + ||Gamma||_F >= ||D - Gamma||_2, which scales its tolerances
            double norm_D = 0.0, norm_Gamma = 0.0;
            for (std::size_t k = 0; k < D.size(); ++k) {
                norm_D += D.data()[k] * D.data()[k];
                norm_Gamma += Gamma.data()[k] * Gamma.data()[k];
            }
            const double norm = std::sqrt(norm_D) + std::sqrt(norm_Gamma);
            std::vector<double> row(n, 0.0);
            double mean = 0.0, frobenius = 0.0;  // mean: <D - Gamma, E>
            for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < n; ++j) {
                    row[i] += A(i, j) / double(n);
                    frobenius += A(i, j) * A(i, j);
                }
                mean += row[i];
            }
            const double c = 2.0 * std::sqrt(frobenius);
            Matrix B({n, n});
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j) B(i, j) = A(i, j) - row[i] - row[j] + (mean - c) / double(n);
            const auto [values, vectors] = eigen(B);  // ascending; eigenvectors as rows
            for (int64_t K : {int64_t{2}, int64_t{4}, int64_t{16}, static_cast<int64_t>(n)}) {
                BOOST_TEST_CONTEXT("n " << n << ", Gamma " << size << " x mean |D|, K " << K) {
                    const std::size_t m = static_cast<std::size_t>(K) - 1;
                    double top = 0.0;
                    for (std::size_t k = 0; k < m; ++k) top += values[n - 1 - k];
                    const double dense = mean + top, ky_fan = nomad_ky_fan_bound(Dp, Gp, K, 40, 2);
                    std::vector<double> v(n);
                    for (std::size_t i = 0; i < n; ++i) v[i] = std::sin(double(i) + 1.0);
                    const double largest = nomad_dual_bound(Dp, Gp, K, Spectraplex(40), v, 2);
                    const double exact_form = nomad_dense_dual_bound(Dp, Gp, K);
                    // the dense forms differ by rounding (backward-stable eigensolves of matrices of norm
                    // <= 3 norm, n eps each) plus the certified form's margin 24 m n eps norm
                    const double eps = std::numeric_limits<double>::epsilon(), md = double(m), nd = double(n);
                    const double dense_slack = (24.0 + 6.0) * md * nd * eps * norm;
                    // the block form: Krylov-Schur residuals <= 1e-8 ||A|| give sqrt(m) ||R||_F <= 1e-8 m
                    // norm; C's Lanczos bound (residual <= 1e-6 norm) exceeds lambda_{m+1} by at most that
                    // and adds to the sum only where it passes lambda_m, at most m times; its margin
                    // 8 m (n + m) eps norm
                    const double gap = values[n - m] - values[n - m - 1];  // lambda_m - lambda_{m+1}
                    const double ky_fan_slack = 1e-8 * md * norm + (gap > 1e-6 * norm ? 0.0 : 1e-6 * md * norm) +
                                                8.0 * md * (nd + md) * eps * norm + dense_slack;
                    BOOST_TEST(exact_form >= dense - 1e-12 * std::fabs(dense));
                    BOOST_TEST(exact_form <= dense + dense_slack);
                    BOOST_TEST(ky_fan >= dense - 1e-12 * std::fabs(dense));
                    BOOST_TEST(ky_fan <= dense + ky_fan_slack);
                    BOOST_TEST(ky_fan <= largest + ky_fan_slack);
                    if (n == 30 && K == 4) BOOST_TEST(ky_fan >= exact * (1.0 - 1e-7));
                    if (size == 0.0 && K == 4) BOOST_TEST(ky_fan < largest - 1e-3 * std::fabs(largest));
                    if (K != 16) continue;
                    // the block bound from the top eigenvectors perturbed and made orthonormal again
                    for (double noise : {1e-3, 1e-2}) {
                        Matrix Wt({m, n});
                        for (std::size_t k = 0; k < m; ++k)
                            for (std::size_t i = 0; i < n; ++i)
                                Wt(k, i) = vectors(n - 1 - k, i) + noise * (2.0 * uniform(rng) - 1.0);
                        for (std::size_t k = 0; k < m; ++k) {  // Gram-Schmidt, twice
                            for (int pass = 0; pass < 2; ++pass)
                                for (std::size_t l = 0; l < k; ++l) {
                                    double overlap = 0.0;
                                    for (std::size_t i = 0; i < n; ++i) overlap += Wt(k, i) * Wt(l, i);
                                    for (std::size_t i = 0; i < n; ++i) Wt(k, i) -= overlap * Wt(l, i);
                                }
                            double length = 0.0;
                            for (std::size_t i = 0; i < n; ++i) length += Wt(k, i) * Wt(k, i);
                            for (std::size_t i = 0; i < n; ++i) Wt(k, i) /= std::sqrt(length);
                        }
                        const auto apply = [&](const double* x, double* y) {
                            for (std::size_t i = 0; i < n; ++i) {
                                y[i] = 0.0;
                                for (std::size_t j = 0; j < n; ++j) y[i] += B(i, j) * x[j];
                            }
                        };
                        const double block = ky_fan_block_bound(n, apply, Wt, c, 40);
                        BOOST_TEST(block >= top - 1e-12 * std::fabs(top));
                        // sqrt(m) ||R||_F <= sqrt(m) 2 ||A|| ||W - W_exact||_F, the latter about
                        // noise sqrt(m n / 3): 2 m noise sqrt(n / 3) ||A|| <= 174 noise ||A|| here, below
                        // 100 noise c = 200 noise ||A||_F (second-order terms aside)
                        BOOST_TEST(block <= top + 100.0 * noise * c);
                    }
                }
            }
        }
    }
    // nomad_cgm held to a duality gap tighter than its infeasibility certifies its bound (the Ky Fan form)
    // once feasible: it stops at a bound below the lambda_max form at its last multiplier, still above
    // the optimum
    const auto solver = converge_cgm(std::make_shared<const Nomad>(D30, 4), "open_loop", 1e-4, exact, 5e-3);
    const NomadCgm& cgm = dynamic_cast<const NomadCgm&>(*solver);
    std::vector<double> v(30);
    for (std::size_t i = 0; i < 30; ++i) v[i] = std::sin(double(i) + 1.0);
    const double largest = nomad_dual_bound(PackedSymmetric::from_upper(D30), cgm.Gamma(), 4, Spectraplex(40), v, 2);
    BOOST_TEST(cgm.upper_bound() < largest - 1e-6 * std::fabs(largest));
    // a stopping rule met at the feasible start (tolerances of 1) is met against the certified bound,
    // not the Lanczos estimate: the reported gap is the one at the dense Ky Fan form (Gamma = 0)
    auto loose = make_solver(std::make_shared<const Nomad>(D30, 4), "nomad_cgm");
    loose->mutable_params().set_double("tolerance", 1.0);
    loose->mutable_params().set_double("feasibility_tolerance", 1.0);
    BOOST_TEST(loose->solve() == FACTO_CONVERGED);
    const PackedSymmetric zero(30, 0.0);
    const double certified = nomad_dense_dual_bound(PackedSymmetric::from_upper(D30), zero, 4);
    BOOST_TEST(dynamic_cast<const NomadCgm&>(*loose).upper_bound() == certified);
    BOOST_TEST(loose->progress().stationarity ==
                   relative_duality_gap(certified, loose->progress().objective),
               boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(with_the_scaled_penalty_open_loop_steps_do_not_stall)
{
    // Noisy rings whose clusters hold ~6 points (n = 100, K = 16). Exact optimum 53.459391: coinor-csdp,
    // 52-74 s, through benchmarks/bench_nomad.cpp scale. With gamma = tau = 1 the 2 / (k + 2) steps stall
    // (after 1000 outer iterations 60% below the optimum); with the spectral scale (0.5 here) both step
    // rules converge to the default duality gap and infeasibility (5e-3)
    const double exact = 53.459391;
    auto problem = std::make_shared<const Nomad>(nomad_gram(two_rings(100, 0.5, 0.02, 1).X), 16);
    const CgmRun unscaled = run_cgm(problem, "penalty_scaling", "none", 1000);
    BOOST_TEST(unscaled.objective < 0.5 * exact);
    for (const char* rule : {"open_loop", "line_search"})
        BOOST_TEST_CONTEXT(rule) { converge_cgm(problem, rule, 5e-3, exact); }
}

BOOST_AUTO_TEST_CASE(the_penalty_scales_with_d, FACTO_LONG_CASE)
{
    // Two rings with n = 600 (lambda_max(D) = 187.5, three times the paper's n = 200 example): with the
    // paper's gamma = tau = 1 the penalty is too weak for D and Q is still far from nonnegative after 200
    // outer iterations; scaled by lambda_max(D) / (3.90625 K) (= 3 here) it is where n = 200 gets with 1
    // (max [Q]_- n / K about 0.02 on every BLAS kernel measured, against 0.18 unscaled: ratios 8-10)
    auto problem = std::make_shared<const Nomad>(nomad_gram(two_rings(600, 0.5, 0.0, 0).X), 16);
    double violation[2], rmse[2];
    for (int scaled = 0; scaled < 2; ++scaled) {
        const CgmRun run = run_cgm(problem, "penalty_scaling", scaled ? "spectral" : "none", 200);
        violation[scaled] = run.feasibility[1] * 600.0 / 16.0;
        rmse[scaled] = run.feasibility[0];
    }
    BOOST_TEST(violation[1] < 0.05);
    BOOST_TEST(violation[0] > 3.0 * violation[1]);
    BOOST_TEST(rmse[0] > 3.0 * rmse[1]);
}

BOOST_AUTO_TEST_CASE(two_rings_put_no_mass_between_the_rings, FACTO_LONG_CASE)
{
    // Fig. 4: two rings (n = 200) and K = 16 > 2. Q's entries within a ring are ~ K / n = 0.08; between
    // the rings they vanish at the optimum. The default solve (duality gap and infeasibility 5e-3) leaves
    // a little: a start that mixed the rings would have as much mass across as within, the optimum none;
    // 2% (and no entry above 1/16 of the mean entry within) is far from the first and from rounding.
    const LabeledPoints rings = two_rings(200, 0.5, 0.0, 0);
    auto problem = std::make_shared<const Nomad>(nomad_gram(rings.X), 16);
    auto solver = make_solver(problem, "nomad_cgm");
    BOOST_TEST(solver->solve() == FACTO_CONVERGED);
    const Matrix& Q = solver->iterate();
    double within = 0.0, across = 0.0, largest_across = 0.0;
    for (std::size_t i = 0; i < 200; ++i)
        for (std::size_t j = 0; j < 200; ++j) {
            if (rings.labels[i] == rings.labels[j]) {
                within += Q(i, j);
            } else {
                across += std::max(Q(i, j), 0.0);  // negative entries are the method's infeasibility
                largest_across = std::max(largest_across, Q(i, j));
            }
        }
    BOOST_TEST(largest_across < 0.08 / 16);
    BOOST_TEST(across < 2e-2 * within);
    // Sec. 3's hard assignment: Q's connected components are the rings, at the threshold that the
    // entries across stay below (checked above); two components for K = 16, which the automatic rule
    // would pass to k-means
    solver->mutable_params().set_double("component_threshold", 1.0 / 16);
    solver->mutable_params().set_string("label_rule", "components");
    const Output labels = solver->output("labels");
    BOOST_TEST(clustering_accuracy(labels.ints, rings.labels) == 1.0);
    BOOST_TEST(*std::max_element(labels.ints.begin(), labels.ints.end()) == 1);
    // the authors' code reaches 120.32 (not a certified optimum); within the default duality gap
    BOOST_TEST(solver->progress().objective == 120.32, boost::test_tools::tolerance(5e-3));
}

BOOST_AUTO_TEST_CASE(labels_are_the_components_of_a_planted_block_q_or_k_means_when_they_are_not_k)
{
    // Q = blockdiag(J_5 / 5, J_7 / 7, J_8 / 8) with its points shuffled: Q 1 = 1, Tr Q = 3 = K. Each block
    // is one component; a cross entry above the threshold (K / n times component_threshold) joins two,
    // one below does not; a singleton block is its own component.
    const std::vector<std::size_t> sizes = {5, 7, 8, 1};
    std::vector<int64_t> block;
    for (std::size_t b = 0; b < sizes.size(); ++b) block.insert(block.end(), sizes[b], static_cast<int64_t>(b));
    const std::size_t n = block.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937_64 shuffle(5);
    std::shuffle(order.begin(), order.end(), shuffle);
    Matrix Q = xt::zeros<double>({n, n});
    std::vector<int64_t> truth(n);
    for (std::size_t i = 0; i < n; ++i) {
        truth[order[i]] = block[i];
        for (std::size_t j = 0; j < n; ++j)
            if (block[i] == block[j]) Q(order[i], order[j]) = 1.0 / static_cast<double>(sizes[block[i]]);
    }
    auto problem = std::make_shared<const Nomad>(Matrix(xt::zeros<double>({n, n})), 4);
    const double edge = LabelRule::kComponentThreshold * 4.0 / static_cast<double>(n);
    const auto labels_of = [&](const Matrix& A) { return problem->output("labels", A).ints; };
    std::vector<int64_t> labels = labels_of(Q);
    BOOST_TEST(clustering_accuracy(labels, truth) == 1.0);
    BOOST_TEST(*std::max_element(labels.begin(), labels.end()) == 3);
    BOOST_TEST(labels[0] == 0);  // numbered in the order of each component's smallest point
    BOOST_TEST(problem->output("label_rule", Q).ints[0] == LabelRule::kComponents);  // K components: their rule
    std::size_t a = 0, b = 0;  // a point of block 0 and one of block 1
    while (truth[a] != 0) ++a;
    while (truth[b] != 1) ++b;
    Q(a, b) = Q(b, a) = 0.99 * edge;
    labels = labels_of(Q);
    BOOST_TEST(clustering_accuracy(labels, truth) == 1.0);
    Q(a, b) = Q(b, a) = 1.01 * edge;
    LabelRule components;
    components.kind = LabelRule::Kind::components;
    labels = problem->output("labels", PackedSymmetric::from_upper(Q), components).ints;
    BOOST_TEST(labels[a] == labels[b]);
    BOOST_TEST(*std::max_element(labels.begin(), labels.end()) == 2);  // blocks 0 and 1 joined, 2 and 3 apart
    // three components for K = 4: the automatic rule takes k-means on Q's rows, whose four blocks differ
    // in every row
    BOOST_TEST(problem->output("label_rule", Q).ints[0] == LabelRule::kKmeans);
    BOOST_TEST(clustering_accuracy(labels_of(Q), truth) == 1.0);
}

BOOST_AUTO_TEST_CASE(the_embedding_holds_the_k_minus_one_leading_eigenpairs_of_q_minus_e)
{
    const std::size_t n = 30;
    auto problem = std::make_shared<const Nomad>(nomad_gram(trefoil_knot(n).X), 5);
    auto solver = make_solver(problem, "nomad_cgm");
    solver->mutable_params().set_int("max_iterations", 20);
    solver->solve();
    Matrix P = solver->iterate() - 1.0 / static_cast<double>(n);
    const Output output = solver->output("embedding");
    BOOST_TEST(output.spec.cols == 4);  // K - 1
    const std::vector<double>& embedding = output.doubles;
    const auto [values, vectors] = eigen(P);
    for (std::size_t k = 0; k < 4; ++k) {
        // column k is sqrt(lambda) u for the k-th largest eigenpair (lambda, u) of Q - E
        double length2 = 0.0, along = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            length2 += embedding[4 * i + k] * embedding[4 * i + k];
            along += embedding[4 * i + k] * vectors(n - 1 - k, i);
        }
        BOOST_TEST(length2 == values(n - 1 - k), boost::test_tools::tolerance(1e-8));
        BOOST_TEST(std::fabs(along) == std::sqrt(values(n - 1 - k)), boost::test_tools::tolerance(1e-6));
    }
}

BOOST_AUTO_TEST_CASE(multilayer_nomad_returns_every_layer_feasible)
{
    const std::vector<int64_t> K = {8, 4, 2};
    const Matrix D = nomad_gram(two_moons(40, 0.05, 5).X);
    for (const char* algorithm : {"nomad_cgm", "burer_monteiro"}) {
        // nomad_cgm keeps the equalities at every iterate, up to rounding: 100 iterations will do (set on
        // the first layer, carried to the next ones); burer_monteiro meets them to its feasibility
        // tolerance once it converges (its default budget)
        const bool cgm = std::string(algorithm) == "nomad_cgm";
        std::vector<int32_t> reasons;
        std::unique_ptr<Solver> solver = make_solver(std::make_shared<const Nomad>(D, K[0]), algorithm);
        if (cgm) solver->mutable_params().set_int("max_iterations", 100);
        const int64_t budget = solver->params().get_int("max_iterations");
        for (std::size_t l = 0; l < K.size(); ++l) {
            if (l > 0) solver = next_nomad_layer(*solver, K[l]);
            BOOST_TEST(solver->params().get_int("max_iterations") == budget);
            solver->set_callback([&](const Progress& p) {
                if (p.stop_reason != FACTO_OK) reasons.push_back(p.stop_reason);
                return false;
            });
            solver->solve();
            const NomadFeasibility f = Nomad::feasibility(PackedSymmetric::from_upper(solver->iterate()), K[l]);
            const double tolerance = cgm ? 1e-10 : 1e-5;
            BOOST_TEST_CONTEXT(algorithm << ", layer " << l) {
                BOOST_TEST(f.row_sum < tolerance);
                BOOST_TEST(f.trace < tolerance * K[l]);
            }
        }
        if (!cgm) BOOST_TEST(reasons == std::vector<int32_t>(3, FACTO_CONVERGED), boost::test_tools::per_element());
        BOOST_CHECK_EXCEPTION(next_nomad_layer(*solver, 3), Error,
                              [](const Error& e) { return e.status() == FACTO_ERROR_OUT_OF_RANGE; });
    }
    auto other = make_solver(std::make_shared<const SimplicialSymNMF>(xt::eye<double>(3), 1), "frank_wolfe");
    other->solve();
    BOOST_CHECK_EXCEPTION(next_nomad_layer(*other, 1), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_INVALID_ARGUMENT; });
}

BOOST_AUTO_TEST_CASE(bad_input_is_refused_by_name)
{
    BOOST_CHECK_THROW(Nomad(Matrix({3, 2}), 1), Error);
    BOOST_CHECK_THROW(Nomad(xt::eye<double>(3), 0), Error);
    BOOST_CHECK_THROW(Nomad(xt::eye<double>(3), 4), Error);
    Matrix asymmetric = xt::eye<double>(3);
    asymmetric(0, 1) = 1.0;
    BOOST_CHECK_THROW(Nomad(asymmetric, 2), Error);
    const Nomad problem(xt::eye<double>(3), 2);
    BOOST_CHECK_THROW(problem.feasible_point(xt::eye<double>(3)), Error);  // rows sum to 1, trace 3 != 2
    BOOST_TEST(problem.feasible_point(problem.random_point(0)) == problem.random_point(0));
}

BOOST_AUTO_TEST_SUITE_END()
