// nomad_admm: NOMAD's optimum to 1e-6 against coinor-csdp's, its dual bound valid at every iteration,
// a default run that ends CONVERGED, and a given start (a burer_monteiro answer) honoured and polished.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "data/data.hpp"
#include "problems/nomad.hpp"
#include "solvers/nomad/nomad_admm.hpp"
#include "solvers/registry.hpp"
#include "csdp_reference.hpp"
#include "fixtures.hpp"
#include "long_case.hpp"

using namespace facto;
using namespace facto::test;

namespace {

double upper_bound(const Solver& solver) { return dynamic_cast<const NomadAdmm&>(solver).upper_bound(); }

// Run to CONVERGED at `tolerance` (duality gap and feasibility), checking at every iteration that the
// dual bound is an upper bound of the exact optimum (csdp's, accurate to ~1e-8 relative: 1e-7 allowed).
void converge(Solver& solver, double tolerance, double exact)
{
    solver.mutable_params().set_double("tolerance", tolerance);
    solver.mutable_params().set_double("feasibility_tolerance", tolerance);
    double lowest_bound = HUGE_VAL;
    solver.set_callback([&](const Progress&) {
        lowest_bound = std::min(lowest_bound, upper_bound(solver));
        return false;
    });
    BOOST_TEST(solver.solve() == FACTO_CONVERGED);
    BOOST_TEST(lowest_bound >= exact * (1.0 - 1e-7));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nomad_admm)

BOOST_AUTO_TEST_CASE(reaches_the_interior_point_optimum_to_1e_6)
{
    // Two noisy rings, n = 30, K = 4 (the nomad suite's csdp instance). At a duality gap of 1e-6:
    // Tr(D Q) >= bound - 1e-6 |bound| >= exact - 1e-6 |bound|, and from above csdp's weak-duality bound
    // for the psd Q with its residuals (1e-6 of csdp's own accuracy added)
    const Matrix D = nomad_gram(two_rings(30, 0.5, 0.02, 6).X);
    const double exact = csdp_objective(D, 4, "admm_csdp");
    BOOST_TEST_REQUIRE(std::isfinite(exact), "coinor-csdp did not run: install it (bash tests/run.sh does)");
    auto solver = make_solver(std::make_shared<const Nomad>(D, 4), "nomad_admm");
    converge(*solver, 1e-6, exact);
    const double objective = solver->progress().objective, bound = upper_bound(*solver);
    BOOST_TEST(objective >= exact - 1e-6 * std::max(std::fabs(bound), std::fabs(objective)));
    BOOST_TEST(objective <= csdp_certified_bound(csdp_dual("admm_csdp"), solver->iterate(), 4) + 1e-6 * exact);
    // Q is the projection onto {psd, Q 1 = 1, Tr Q = K}: the equalities hold to rounding
    const std::vector<double> f = solver->output("feasibility").doubles;
    BOOST_TEST(f[1] <= 1e-6 * 4.0 / 30.0);  // negative entries within the tolerance, relative to K / n
    BOOST_TEST(f[2] <= 1e-12);
    BOOST_TEST(f[3] <= 1e-12);
}

BOOST_AUTO_TEST_CASE(the_bound_stays_above_the_optimum_while_the_top_eigenvector_moves)
{
    // Two rings, n = 200, K = 16 (optimum 120.30528-120.30529: nomad_admm's Tr(D Q) at feasibility 1e-7
    // and its certified bound). In the first iterations the multiplier moves the top eigenvector of
    // J (D - Gamma) J; a Lanczos solve warm-started from the last one converged to a lower eigenvalue
    // there and "bounded" the optimum by 118.9 and 119.9. Every bound reported must be above it.
    auto solver = make_solver(std::make_shared<const Nomad>(nomad_gram(two_rings(200, 0.5, 0.0, 0).X), 16),
                              "nomad_admm");
    solver->mutable_params().set_int("max_iterations", 8);
    solver->mutable_params().set_double("tolerance", 0.0);
    double lowest_bound = HUGE_VAL;
    solver->set_callback([&](const Progress&) {
        lowest_bound = std::min(lowest_bound, upper_bound(*solver));
        return false;
    });
    solver->solve();
    BOOST_TEST(lowest_bound >= 120.305);
}

BOOST_AUTO_TEST_CASE(a_default_run_converges_where_clusters_hold_six_points, FACTO_LONG_CASE)
{
    // Noisy rings, n = 100, K = 16 (exact optimum 53.459391 by coinor-csdp, the nomad suite's instance
    // where nomad_cgm's defaults stop at a gap of 5e-3): the defaults end CONVERGED within their
    // tolerance of the optimum, the bound above it
    const double exact = 53.459391;
    auto solver = make_solver(std::make_shared<const Nomad>(nomad_gram(two_rings(100, 0.5, 0.02, 1).X), 16),
                              "nomad_admm");
    BOOST_TEST(solver->solve() == FACTO_CONVERGED);
    const double tolerance = solver->params().get_double("tolerance");
    BOOST_TEST(upper_bound(*solver) >= exact * (1.0 - 1e-7));
    BOOST_TEST(solver->progress().objective >= exact * (1.0 - tolerance - 1e-7));
}

BOOST_AUTO_TEST_CASE(polishes_a_burer_monteiro_answer_to_the_optimum)
{
    // burer_monteiro's completely positive Q is a local solution below the SDP's optimum on rings; from
    // it (set_iterate: the first progress is its Tr(D Q)) nomad_admm reaches the optimum
    const Matrix D = nomad_gram(two_rings(30, 0.5, 0.02, 6).X);
    const double exact = csdp_objective(D, 4, "admm_polish_csdp");
    BOOST_TEST_REQUIRE(std::isfinite(exact), "coinor-csdp did not run: install it (bash tests/run.sh does)");
    auto problem = std::make_shared<const Nomad>(D, 4);
    auto factored = make_solver(problem, "burer_monteiro");
    BOOST_TEST(factored->solve() == FACTO_CONVERGED);
    const double local = factored->progress().objective;
    auto solver = make_solver(problem, "nomad_admm");
    solver->set_iterate(factored->iterate());
    BOOST_TEST(solver->progress().objective == local, boost::test_tools::tolerance(1e-12));
    converge(*solver, 1e-6, exact);
    BOOST_TEST(solver->progress().objective >= exact * (1.0 - 2e-6));
    BOOST_TEST(solver->progress().objective > local);
}

BOOST_AUTO_TEST_SUITE_END()
