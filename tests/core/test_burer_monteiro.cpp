// NOMAD's Burer-Monteiro heuristic ([TSC] Sec. 4 and App. E): the gradient of the augmented
// Lagrangian (32) against finite differences, feasibility of its Q, its objective against coinor-csdp's
// exact optimum, and the paper's observation that r = K gives hard clusterings and r > K soft ones.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "solvers/nomad/burer_monteiro.hpp"
#include "data/data.hpp"
#include "base/error.hpp"
#include "solvers/nomad/nomad_auto.hpp"
#include "solvers/registry.hpp"
#include "csdp_reference.hpp"
#include "linalg/blas.hpp"
#include "long_case.hpp"

using namespace facto;
using namespace facto::test;

namespace {

std::unique_ptr<Solver> burer_monteiro(std::shared_ptr<const Nomad> problem, int64_t rank = 0)
{
    auto solver = make_solver(std::move(problem), "burer_monteiro");
    solver->mutable_params().set_int("rank", rank);
    return solver;
}

double smallest_eigenvalue(Matrix A)
{
    Vector values;
    blas::symmetric_eigen(A, values);
    return values(0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(burer_monteiro_suite)

BOOST_AUTO_TEST_CASE(gradient_matches_finite_differences)
{
    auto problem = std::make_shared<const Nomad>(nomad_gram(two_rings(20, 0.5, 0.05, 2).X), 3);
    auto solver = burer_monteiro(problem, 5);
    solver->mutable_params().set_string("inner_method", "lbfgsb");  // the trace's multiplier moves too
    solver->mutable_params().set_double("penalty", 2.0);
    solver->mutable_params().set_double("trace_penalty", 3.0);
    for (int t = 0; t < 2; ++t) solver->step();  // nonzero multipliers mu and lambda
    auto& bm = dynamic_cast<BurerMonteiro&>(*solver);
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> uniform(0.0, 0.5);
    std::vector<double> Y(20 * 5), G(Y.size()), ignored(Y.size());
    for (double& y : Y) y = uniform(random);
    bm.lagrangian(Y.data(), G.data());
    const double h = 1e-6;
    for (std::size_t k = 0; k < Y.size(); k += 7) {
        const double y = Y[k];
        Y[k] = y + h;
        const double up = bm.lagrangian(Y.data(), ignored.data());
        Y[k] = y - h;
        const double down = bm.lagrangian(Y.data(), ignored.data());
        Y[k] = y;
        // central differences: O(h^2) truncation plus eps |L| / h of rounding, absolute
        BOOST_TEST(std::fabs(G[k] - (up - down) / (2.0 * h)) <= 1e-6 * std::max(1.0, std::fabs(G[k])));
    }
}

BOOST_AUTO_TEST_CASE(q_is_feasible_and_below_the_exact_optimum)
{
    // Two noisy rings, n = 30, K = 4 (the nomad suite's csdp instance). Q = Y Y^T with Y >= 0 is psd and
    // nonnegative by construction; the equalities hold to the tolerance; a feasible Q cannot beat the
    // SDP's optimum, and this local solution is close to it
    const Matrix D = nomad_gram(two_rings(30, 0.5, 0.02, 6).X);
    const double exact = csdp_objective(D, 4, "bm_csdp");
    BOOST_TEST_REQUIRE(std::isfinite(exact), "coinor-csdp did not run: install it (bash tests/run.sh does)");
    for (const char* inner : {"sphere", "lbfgsb", "spg"}) {  // the solvers of (33a)
        BOOST_TEST_CONTEXT("inner_method " << inner) {
            auto solver = burer_monteiro(std::make_shared<const Nomad>(D, 4));
            solver->mutable_params().set_string("inner_method", inner);
            BOOST_TEST(solver->solve() == FACTO_CONVERGED);
            const double tolerance = solver->params().get_double("feasibility_tolerance");
            const std::vector<double> f = solver->output("feasibility").doubles;
            BOOST_TEST(f[1] == 0.0);                // no negative entry
            BOOST_TEST(f[2] <= tolerance);          // max_i |(Q 1)_i - 1|
            BOOST_TEST(f[3] <= 4.0 * tolerance);    // |Tr Q - K| <= K tolerance
            BOOST_TEST(smallest_eigenvalue(solver->iterate()) > -1e-12);
            // weak duality with csdp's dual solution: what a psd Q with these residuals can reach (1e-6
            // of csdp's own accuracy added)
            const double objective = solver->progress().objective;
            BOOST_TEST(objective <= csdp_certified_bound(csdp_dual("bm_csdp"), solver->iterate(), 4) + 1e-6 * exact);
            // a local solution, near the optimum on this instance (2e-3: three times the deviation
            // measured on every BLAS kernel, -6.6e-4)
            BOOST_TEST(objective >= exact * (1.0 - 2e-3));
        }
    }
}

BOOST_AUTO_TEST_CASE(the_sphere_method_holds_the_trace_and_reaches_planted_clusters_from_every_seed)
{
    // [NLR]'s form, the default: Y on the nonnegative sphere ||Y||_F^2 = K, so Tr Q = K at every iterate
    // (to rounding, then to the feasible phase's restoration, 1e-12), from a random start. On separated
    // blobs (n = 40, K = 4) NOMAD's optimum is the planted clustering's Q; coinor-csdp gives it, and every
    // seed ends within 1e-4 of it
    const Matrix centers{{0.0, 0.0}, {8.0, 0.0}, {0.0, 8.0}, {8.0, 8.0}};
    const Matrix D = nomad_gram(gaussian_blobs(40, centers, 0.5, 4).X);
    const double exact = csdp_objective(D, 4, "bm_blobs_csdp");
    BOOST_TEST_REQUIRE(std::isfinite(exact), "coinor-csdp did not run: install it (bash tests/run.sh does)");
    auto problem = std::make_shared<const Nomad>(D, 4);
    for (int64_t seed = 0; seed < 4; ++seed) {
        BOOST_TEST_CONTEXT("seed " << seed) {
            auto solver = burer_monteiro(problem);
            solver->mutable_params().set_int("seed", seed);
            solver->initialize();
            BOOST_TEST(solver->output("feasibility").doubles[3] <= 1e-13 * 4.0);  // |Tr Q - K| from the start
            BOOST_TEST(solver->solve() == FACTO_CONVERGED);
            BOOST_TEST(solver->output("factor").spec.cols == 12);  // r = 3 K
            const std::vector<double> f = solver->output("feasibility").doubles;
            BOOST_TEST(f[3] <= 1e-12 * 4.0);
            BOOST_TEST(f[2] <= solver->params().get_double("feasibility_tolerance"));
            const double objective = solver->progress().objective;
            BOOST_TEST(objective >= exact * (1.0 - 1e-4));
            BOOST_TEST(objective <= csdp_certified_bound(csdp_dual("bm_blobs_csdp"), solver->iterate(), 4) + 1e-6 * exact);
            // the planted clusters are Q's components, and the labels say so
            BOOST_TEST(solver->output("label_rule").ints[0] == LabelRule::kComponents);
        }
    }
}

BOOST_AUTO_TEST_CASE(the_feasible_phase_ends_exactly_feasible_at_a_kkt_point)
{
    // The default goes on on NOMAD's feasible factors once the row sums are near 1 (restore_below): at
    // the end Q 1 = 1 and Tr Q = K to rounding, not to feasibility_tolerance, and Y is a KKT point of
    // min -Tr(D Y Y^T) / ||D||_F over the factors: with x the multipliers that least-squares fit
    // G = -2 D Y / ||D||_F on Y's support (from the constraints' Jacobian in dense form, here), R = G - J^T x
    // has ||[Y - R]_+ - Y||_inf at most the automatic tolerance 1e-6, and it is the stationarity the
    // solver reports. Two rings, n = 200, K = 16 (Q soft: no planted clustering is optimal); a feasible Q
    // is below the optimum, 120.3055 by nomad_admm's dual bound. Without the phase ([NLR]'s multipliers
    // to the end, restore_below 0) the row sums hold only to feasibility_tolerance.
    const std::size_t n = 200, K = 16;
    const Matrix D = nomad_gram(two_rings(n, 0.5, 0.0, 0).X);
    auto problem = std::make_shared<const Nomad>(D, static_cast<int64_t>(K));
    auto solver = burer_monteiro(problem);
    BOOST_TEST(solver->solve() == FACTO_CONVERGED);
    const std::vector<double> f = solver->output("feasibility").doubles;
    BOOST_TEST(f[2] <= 1e-11);  // the restoration's 1e-12 and the rounding of a sum over 200 rows
    BOOST_TEST(f[3] <= 1e-11 * static_cast<double>(K));
    const double objective = solver->progress().objective;
    BOOST_TEST(objective <= 120.3056);
    BOOST_TEST(objective >= 120.3055 * (1.0 - 1e-3));
    const Matrix Y = dynamic_cast<const BurerMonteiro&>(*solver).factor();
    const std::size_t r = Y.shape()[1];
    Matrix G({n, r});
    blas::gemm(false, false, -2.0 / problem->frobenius_norm(), D, Y, 0.0, G);
    std::vector<double> u(r, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k) u[k] += Y(i, k);
    std::vector<std::pair<std::size_t, std::size_t>> support;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k)
            if (Y(i, k) > 0.0) support.emplace_back(i, k);
    // J^T (z, zeta) at (i, k) is z_i u_k + sum_j z_j Y_jk + 2 zeta Y_ik: row (i, k) of A, A x = g least squares
    Matrix A({support.size(), n + 1}, 0.0);
    Vector g = xt::zeros<double>({support.size()}), x = xt::zeros<double>({n + 1});
    for (std::size_t p = 0; p < support.size(); ++p) {
        const auto [i, k] = support[p];
        for (std::size_t j = 0; j < n; ++j) A(p, j) = Y(j, k);
        A(p, i) += u[k];
        A(p, n) = 2.0 * Y(i, k);
        g(p) = G(i, k);
    }
    Matrix normal({n + 1, n + 1});
    blas::gram(A, normal);
    for (std::size_t p = 0; p < support.size(); ++p)
        for (std::size_t j = 0; j <= n; ++j) x(j) += A(p, j) * g(p);
    BOOST_TEST_REQUIRE(blas::solve_positive_definite(normal.data(), n + 1, x.data(), 1));
    double stationarity = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k) {
            double normal_part = x(i) * u[k] + 2.0 * x(n) * Y(i, k);
            for (std::size_t j = 0; j < n; ++j) normal_part += x(j) * Y(j, k);
            const double R = G(i, k) - normal_part;
            stationarity = std::max(stationarity, std::fabs(std::max(Y(i, k) - R, 0.0) - Y(i, k)));
        }
    BOOST_TEST(stationarity <= 1e-6);
    // the solver's multipliers come from conjugate gradients to 1e-10 relative: the same measure
    BOOST_TEST(std::fabs(stationarity - solver->progress().stationarity) <= 1e-9);
    auto multipliers_alone = burer_monteiro(problem);
    multipliers_alone->mutable_params().set_double("restore_below", 0.0);
    BOOST_TEST(multipliers_alone->solve() == FACTO_CONVERGED);
    const double row_sums = multipliers_alone->output("feasibility").doubles[2];
    BOOST_TEST(row_sums <= multipliers_alone->params().get_double("feasibility_tolerance"));
    BOOST_TEST(row_sums > 1e-10);
}

BOOST_AUTO_TEST_CASE(nomads_default_certifies_small_instances_and_factors_large_ones, FACTO_LONG_CASE)
{
    // "auto", the nomad kind's default: nomad_admm to its certified gap up to kLargestCertified points,
    // within 1e-4 of coinor-csdp's optimum on planted blobs, two rings and two moons (n = 40, K = 4), its
    // dual bound above that optimum; burer_monteiro beyond
    BOOST_TEST(std::string(default_algorithm("nomad")) == "auto");
    const Matrix centers{{0.0, 0.0}, {3.0, 0.0}, {0.0, 3.0}, {3.0, 3.0}};  // overlapping: no planted Q
    const std::pair<const char*, Matrix> instances[] = {
        {"blobs", nomad_gram(gaussian_blobs(40, centers, 1.0, 5).X)},
        {"rings", nomad_gram(two_rings(40, 0.5, 0.02, 6).X)},
        {"moons", nomad_gram(two_moons(40, 0.05, 7).X)}};
    for (const auto& [name, D] : instances) {
        BOOST_TEST_CONTEXT(name) {
            const double exact = csdp_objective(D, 4, std::string("auto_csdp_") + name);
            BOOST_TEST_REQUIRE(std::isfinite(exact), "coinor-csdp did not run: install it (bash tests/run.sh does)");
            auto solver = make_solver(std::make_shared<const Nomad>(D, 4), "auto");
            BOOST_TEST(std::string(solver->algorithm()) == "nomad_admm");
            BOOST_TEST(solver->solve() == FACTO_CONVERGED);
            BOOST_TEST(solver->progress().objective == exact, boost::test_tools::tolerance(1e-4));
            BOOST_TEST(solver->output("upper_bound").doubles[0] >= exact * (1.0 - 1e-7));  // csdp's accuracy
        }
    }
    const int64_t large = kLargestCertified + 1;
    auto beyond = make_solver(std::make_shared<const Nomad>(nomad_gram(two_rings(large, 0.5, 0.02, 1).X), 4), "auto");
    BOOST_TEST(std::string(beyond->algorithm()) == "burer_monteiro");
}

BOOST_AUTO_TEST_CASE(rank_k_gives_hard_clusters_and_a_larger_rank_soft_ones, FACTO_LONG_CASE)
{
    // Sec. 4 and Fig. 12 on two rings (n = 200, K = 16; the convex optimum is 120.3055 by nomad_admm's
    // dual bound, the authors' code reports 120.32): with r = K, Q is a hard clustering (Kulis et al.'s
    // observation); with r = 2 K the rows share clusters, Q puts no mass between the rings and its
    // objective is near the optimum.
    // Hard: Q = Y Y^T >= 0 with row sums <= 1 + delta has lambda_max <= 1 + delta (Perron); the K
    // eigenvalues mu of Y^T Y then lie in [0, 1 + delta] and sum to K +- tau (tau = |Tr Q - K|), so
    // ||Y^T Y - I||_F^2 = sum (mu - 1)^2 <= sum |mu - 1| <= tau + 2 K delta: the columns of Y >= 0 are
    // nearly orthonormal, i.e. nearly disjoint. Soft: Tr Q - ||Q||_F^2 = sum mu (1 - mu), at most
    // (tau + 2 K delta)(1 + delta) for a hard clustering, is far above that.
    const LabeledPoints rings = two_rings(200, 0.5, 0.0, 0);
    auto problem = std::make_shared<const Nomad>(nomad_gram(rings.X), 16);
    double objective[2];
    for (int64_t r : {16, 32}) {
        auto solver = burer_monteiro(problem, r);
        solver->mutable_params().set_string("inner_method", "lbfgsb");  // the paper's form
        BOOST_TEST(solver->solve() == FACTO_CONVERGED);
        const Matrix& Y = dynamic_cast<const BurerMonteiro&>(*solver).factor();
        const Matrix& Q = solver->iterate();
        const std::vector<double> f = solver->output("feasibility").doubles;
        const double hard_limit = f[3] + 2.0 * 16.0 * f[2];
        objective[r / 16 - 1] = solver->progress().objective;
        double across = 0.0;
        for (std::size_t i = 0; i < 200; ++i)
            for (std::size_t j = 0; j < 200; ++j)
                if (rings.labels[i] != rings.labels[j]) across = std::max(across, Q(i, j));
        BOOST_TEST_CONTEXT("r = " << r) {
            if (r == 16) {
                Matrix YtY({16, 16});
                blas::gram(Y, YtY);
                BOOST_TEST(xt::sum(xt::square(YtY - xt::eye<double>(16)))() <= hard_limit + 1e-12);
            } else {
                BOOST_TEST(xt::sum(xt::diagonal(Q))() - xt::sum(Q * Q)() >= 100.0 * hard_limit);
                BOOST_TEST(across < 1e-6);  // entries within a ring are ~ K / n = 0.08
            }
        }
    }
    // the authors' code's value (not certified); -4e-4 measured on every BLAS kernel
    BOOST_TEST(objective[1] == 120.32, boost::test_tools::tolerance(2e-3));
    BOOST_TEST(objective[0] < 0.95 * objective[1]);
}

BOOST_AUTO_TEST_CASE(starts_from_a_given_q_reproducibly_and_rejects_bad_settings)
{
    auto problem = std::make_shared<const Nomad>(nomad_gram(two_rings(40, 0.5, 0.02, 3).X), 4);
    // a given Q (here the problem's feasible start) is factored and the run is the same every time
    double objective[2];
    for (double& value : objective) {
        auto solver = burer_monteiro(problem);
        solver->set_iterate(problem->random_point(0));
        BOOST_TEST(solver->solve() == FACTO_CONVERGED);
        value = solver->progress().objective;
        BOOST_TEST(solver->output("feasibility").doubles[2] <= solver->params().get_double("feasibility_tolerance"));
        BOOST_TEST(solver->output("factor").spec.cols == 12);  // r = 3 K
    }
    BOOST_TEST(objective[0] == objective[1]);
    auto solver = burer_monteiro(problem);
    BOOST_CHECK_EXCEPTION(solver->output("factor"), Error, [](const Error& e) { return e.status() == FACTO_ERROR_BAD_STATE; });
    // a rank outside [K, n] is refused when set, and the rank in use stays
    BOOST_CHECK_EXCEPTION(solver->mutable_params().set_int("rank", 3), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_OUT_OF_RANGE; });
    BOOST_TEST(solver->params().get_int("rank") == 0);
    BOOST_CHECK_NO_THROW(solver->step());
}

BOOST_AUTO_TEST_CASE(a_stop_request_ends_the_symnmf_start_after_its_first_sweep)
{
    // the symmetric NMF start's coordinate descent sees burer_monteiro's stop request: one sweep, the
    // same start as start_iterations = 1; a time limit far away changes nothing
    auto problem = std::make_shared<const Nomad>(nomad_gram(two_rings(100, 0.5, 0.02, 3).X), 8);
    auto one = burer_monteiro(problem), stopped = burer_monteiro(problem), limited = burer_monteiro(problem),
         plain = burer_monteiro(problem);
    for (Solver* solver : {one.get(), stopped.get(), limited.get(), plain.get()})
        solver->mutable_params().set_string("start", "symnmf");
    one->mutable_params().set_int("start_iterations", 1);
    stopped->mutable_params().set_int("start_iterations", 100000);
    limited->mutable_params().set_double("time_limit", 100.0);
    stopped->request_stop();
    for (Solver* solver : {one.get(), stopped.get(), limited.get(), plain.get()}) solver->initialize();
    BOOST_TEST(stopped->progress().objective == one->progress().objective);
    BOOST_TEST(limited->progress().objective == plain->progress().objective);
    BOOST_TEST(plain->progress().objective != one->progress().objective);
    BOOST_TEST(stopped->solve() == FACTO_STOPPED_BY_REQUEST);
}

BOOST_AUTO_TEST_SUITE_END()
