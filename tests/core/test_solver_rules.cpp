// Stopping rules, callback, stop requests, parameters and reproducibility, shared by all solvers.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>

#include "base/error.hpp"
#include "solvers/params.hpp"
#include "solvers/registry.hpp"
#include "fixtures.hpp"

using namespace facto;
using namespace facto::test;

namespace {
// Frank-Wolfe takes the open-loop steps of vanilla Frank-Wolfe here: they neither converge nor stall
// within these tests' budgets, so only the rule under test ends a solve.
std::unique_ptr<Solver> solver_for(const char* algorithm, uint64_t seed = 1)
{
    auto solver = make_solver(make_problem(random_affinity(40, 3, seed), 4), algorithm);
    if (std::string(algorithm) == "frank_wolfe") solver->mutable_params().set_string("variant", "vanilla");
    return solver;
}
// Every solver of every problem kind, with no stopping rule but the budget of iterations.
template <class F>
void for_every_solver(F&& f)
{
    for (const auto& problem : one_of_each_kind())
        for (const auto& [algorithm, is_default, description] : algorithms_for(problem->kind())) {
            BOOST_TEST_CONTEXT(problem->kind() << " / " << algorithm)
            {
                auto solver = make_solver(problem, algorithm);
                solver->mutable_params().set_double("objective_tolerance", 0.0);
                solver->mutable_params().set_double("tolerance", 0.0);
                solver->mutable_params().set_int("max_iterations", 1000000);
                f(*solver);
            }
        }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(solver_rules)

BOOST_AUTO_TEST_CASE(bound_settings_follow_every_accepted_change_and_no_refused_one)
{
    enum class Rule { exact, open };
    Params p({real_param("step", 1.0, 0.0, 10.0, ""), int_param("count", 3, 0, 100, ""),
              choice_param("rule", "exact", "exact|open", "")});
    double step = 0.0;
    int64_t count = 0;
    Rule rule = Rule::open;
    p.bind("step", step);
    p.bind("count", count);
    p.bind("rule", rule, {{"exact", Rule::exact}, {"open", Rule::open}});
    BOOST_TEST(step == 1.0);  // bound fields hold the defaults at once
    BOOST_TEST(count == 3);
    BOOST_TEST((rule == Rule::exact));
    p.set_check([](const Params& q) {
        require(!(q.get_string("rule") == "open" && q.get_double("step") > 5.0), FACTO_ERROR_INVALID_ARGUMENT,
                "open with a long step");
    });
    p.set_double("step", 7.0);
    p.set_int("count", 9);
    BOOST_TEST(step == 7.0);
    BOOST_TEST(count == 9);
    BOOST_TEST(status_of([&] { p.set_string("rule", "open"); }) == FACTO_ERROR_INVALID_ARGUMENT);
    BOOST_TEST((rule == Rule::exact));  // the refused combination left the field as it was
    BOOST_TEST(status_of([&] { p.set_double("step", 11.0); }) == FACTO_ERROR_OUT_OF_RANGE);
    BOOST_TEST(step == 7.0);
    p.set_double("step", 2.0);
    p.set_string("rule", "open");
    BOOST_TEST((rule == Rule::open));
    p.reset();
    BOOST_TEST(step == 1.0);
    BOOST_TEST(count == 3);
    BOOST_TEST((rule == Rule::exact));
    Rule partial = Rule::exact;  // a binding that forgets a choice is a programming error
    BOOST_TEST(status_of([&] { p.bind("rule", partial, {{"exact", Rule::exact}}); }) == FACTO_ERROR_INTERNAL);
}

BOOST_AUTO_TEST_CASE(a_request_met_by_another_stop_is_spent_with_it)
{
    for_every_solver([](Solver& solver) {
        // the step that meets the request stops for another reason (the iteration limit, or a finite
        // method's end): the request is spent, and the next solve runs to its own end
        solver.mutable_params().set_int("max_iterations", 1);
        solver.request_stop();
        BOOST_TEST(solver.solve() != FACTO_STOPPED_BY_REQUEST);
        // a request met by a solve with nothing to do (at its iteration limit) is spent the same way
        solver.request_stop();
        BOOST_TEST(solver.solve() != FACTO_STOPPED_BY_REQUEST);
        solver.mutable_params().set_int("max_iterations", 3);
        BOOST_TEST(solver.solve() != FACTO_STOPPED_BY_REQUEST);
        // a request made inside the callback (as the R binding turns Ctrl-C into one) ends that same step,
        // unless the step stopped for another reason; either way none is left for the next step
        solver.mutable_params().set_int("max_iterations", 1000000);
        const int64_t from = solver.progress().iteration;
        solver.set_callback([&](const Progress& p) {
            if (p.iteration == from + 2) solver.request_stop();
            return false;
        });
        const int32_t reason = solver.solve();
        if (reason == FACTO_STOPPED_BY_REQUEST) BOOST_TEST(solver.progress().iteration == from + 2);
        else BOOST_TEST(solver.progress().iteration <= from + 2);
        solver.set_callback(nullptr);
        BOOST_TEST(solver.step() != FACTO_STOPPED_BY_REQUEST);
    });
}

BOOST_AUTO_TEST_CASE(request_stop_and_time_limit_end_every_solver_within_one_iteration)
{
    for_every_solver([](Solver& solver) {
        // a request made before the solve ends it after one iteration
        solver.request_stop();
        BOOST_TEST(solver.solve() == FACTO_STOPPED_BY_REQUEST);
        BOOST_TEST(solver.progress().iteration == 1);
        // a request from another thread, once the solve is running, ends it within one iteration (SPA,
        // a finite method, may finish its K picks first)
        std::atomic<int64_t> seen{0};
        std::atomic<bool> done{false};
        solver.set_callback([&](const Progress& p) {
            seen.store(p.iteration);
            return false;
        });
        const int64_t from = solver.progress().iteration;
        std::atomic<int64_t> requested_at{0};
        std::atomic<bool> requested{false};
        std::thread stopper([&] {
            while (seen.load() < from + 3 && !done.load()) std::this_thread::yield();
            if (done.load()) return;
            // request first, then read the iteration: however the threads interleave, the request was
            // made no later than iteration requested_at
            solver.request_stop();
            requested_at.store(seen.load());
            requested.store(true);
        });
        const int32_t reason = solver.solve();
        done.store(true);
        stopper.join();
        // SPA's K picks, or a solver that stalled at its rounding floor before the request landed (or
        // in the iteration it landed in: the rules come before the request): a finite end, with
        // nothing left to interrupt
        if (reason == FACTO_CONVERGED || reason == FACTO_STALLED) return;
        BOOST_TEST(requested.load());
        BOOST_TEST(reason == FACTO_STOPPED_BY_REQUEST);
        BOOST_TEST(solver.progress().iteration <= requested_at.load() + 2);  // the request may land mid-iteration
        // a time limit already spent ends the next solve after one iteration (as STALLED where that
        // iteration could not move: that rule comes first)
        solver.set_callback(nullptr);
        solver.mutable_params().set_double("time_limit", 1e-12);
        const int64_t before = solver.progress().iteration;
        const int32_t limited = solver.solve();
        BOOST_TEST((limited == FACTO_TIME_LIMIT || limited == FACTO_STALLED));
        BOOST_TEST(solver.progress().iteration == before + 1);
    });
}

// NOMAD's iteration is inner_iterations conditional-gradient steps, Burer-Monteiro's an L-BFGS-B run
// of up to inner_iterations: a request or a spent time limit ends it after its first inner step, so
// the iterate is the one inner_iterations = 1 gives (without the check: 10^6 inner steps).
BOOST_AUTO_TEST_CASE(request_stop_and_time_limit_cut_long_inner_loops)
{
    for (const auto& problem : one_of_each_kind()) {
        if (problem->kind() != std::string("nomad")) continue;
        for (const auto& [algorithm, is_default, description] : algorithms_for(problem->kind()))
            for (const bool by_request : {true, false}) {
                BOOST_TEST_CONTEXT(algorithm << (by_request ? " / request" : " / time limit"))
                {
                    auto cut = make_solver(problem, algorithm), one = make_solver(problem, algorithm);
                    if (std::string(algorithm) == "burer_monteiro") {
                        for (auto* s : {cut.get(), one.get()}) {  // no L-BFGS-B stop but the budget
                            s->mutable_params().set_string("inner_method", "lbfgsb");
                            s->mutable_params().set_string("start", "symnmf");
                            s->mutable_params().set_double("inner_tolerance", 0.0);
                            s->mutable_params().set_double("inner_decrease", 0.0);
                        }
                        // the stop cuts its symmetric NMF start after the first sweep too
                        one->mutable_params().set_int("start_iterations", 1);
                    }
                    cut->mutable_params().set_int("inner_iterations", 1000000);
                    one->mutable_params().set_int("inner_iterations", 1);
                    if (by_request)
                        cut->request_stop();
                    else
                        cut->mutable_params().set_double("time_limit", 1e-12);
                    BOOST_TEST(cut->step() == (by_request ? FACTO_STOPPED_BY_REQUEST : FACTO_TIME_LIMIT));
                    one->step();
                    BOOST_TEST(cut->iterate() == one->iterate());
                }
            }
    }
}

BOOST_AUTO_TEST_CASE(max_iterations_then_resume_after_raising_it)
{
    for (const char* algorithm : {"frank_wolfe", "projected_gradient"}) {
        auto s = solver_for(algorithm);
        s->mutable_params().set_double("objective_tolerance", 0.0);
        s->mutable_params().set_double("tolerance", 0.0);
        s->mutable_params().set_int("max_iterations", 7);
        BOOST_TEST(s->solve() == FACTO_ITERATION_LIMIT);
        BOOST_TEST(s->progress().iteration == 7);
        BOOST_TEST(s->solve() == FACTO_ITERATION_LIMIT);  // nothing more to do
        BOOST_TEST(s->progress().iteration == 7);
        s->mutable_params().set_int("max_iterations", 10);
        BOOST_TEST(s->solve() == FACTO_ITERATION_LIMIT);
        BOOST_TEST(s->progress().iteration == 10);
    }
}

BOOST_AUTO_TEST_CASE(the_stationarity_tolerance_converges_and_the_objective_band_stalls)
{
    auto s = solver_for("frank_wolfe");
    s->mutable_params().set_double("objective_tolerance", 0.0);
    s->mutable_params().set_double("tolerance", 1e30);
    BOOST_TEST(s->solve() == FACTO_CONVERGED);
    BOOST_TEST(s->progress().iteration == 0);  // already below tolerance at the start

    // The band rule: stop once the last objective_window + 1 objectives lie within the relative band,
    // as STALLED (the stationarity measure is still above tolerance: no certified stationary point).
    auto r = solver_for("frank_wolfe");
    r->mutable_params().set_double("objective_tolerance", 1e-3);
    r->mutable_params().set_int("objective_window", 5);
    r->mutable_params().set_double("tolerance", 0.0);
    std::vector<double> seen;
    r->set_callback([&](const Progress& p) {
        seen.push_back(p.objective);
        return false;
    });
    BOOST_TEST(r->solve() == FACTO_STALLED);
    BOOST_TEST(r->progress().stationarity > 0.0);
    BOOST_REQUIRE(seen.size() >= 6);
    const auto band = [&](std::size_t end) {
        const auto [lo, hi] = std::minmax_element(seen.begin() + static_cast<std::ptrdiff_t>(end - 6),
                                                  seen.begin() + static_cast<std::ptrdiff_t>(end));
        return (*hi - *lo) / *lo;
    };
    BOOST_TEST(band(seen.size()) <= 1e-3);
    for (std::size_t end = 6; end < seen.size(); ++end) BOOST_TEST(band(end) > 1e-3);  // not earlier
}

BOOST_AUTO_TEST_CASE(converged_means_stationary_whatever_ended_the_objective_band)
{
    // when the band and the tolerance hold at the same iteration, the answer is certified: CONVERGED
    auto s = solver_for("frank_wolfe");
    s->mutable_params().set_double("objective_tolerance", 1e300);
    s->mutable_params().set_int("objective_window", 1);
    s->mutable_params().set_double("tolerance", 1e300);
    s->mutable_params().set_int("max_iterations", 3);
    s->step();
    BOOST_TEST(s->step() == FACTO_CONVERGED);
    // every solver: a CONVERGED solve has its stationarity measure at most the tolerance (the one in
    // force: the parameter's automatic value resolved where it has one)
    for (const auto& problem : one_of_each_kind())
        for (const auto& [algorithm, is_default, description] : algorithms_for(problem->kind())) {
            BOOST_TEST_CONTEXT(problem->kind() << " / " << algorithm)
            {
                auto solver = make_solver(problem, algorithm);
                solver->mutable_params().set_int("max_iterations", 3000);
                if (solver->solve() != FACTO_CONVERGED) continue;
                BOOST_TEST(solver->progress().stationarity <= solver->tolerance());
                const double set = solver->params().get_double("tolerance");
                if (set > 0.0) BOOST_TEST(solver->tolerance() == set);
                if (solver->params().has("feasibility_tolerance"))
                    BOOST_TEST(solver->progress().feasibility <= solver->params().get_double("feasibility_tolerance"));
            }
        }
}

BOOST_AUTO_TEST_CASE(an_iteration_that_accepts_no_step_stalls_the_solve)
{
    // a first trial step far too long and a single trial: nothing is accepted, the iterate stays, and
    // the solve ends STALLED at once instead of retrying the same trials until max_iterations. On
    // simplicial SymNMF the longest steps reach the vertices, which with P = I (k = 2) put rows together
    // and raise f: 1/4 ||I - W W^T||^2 is about n^2 / 8 there, against n^2 / 16 at a dense start.
    std::vector<std::shared_ptr<const Problem>> problems = one_of_each_kind();
    problems[0] = make_problem(xt::eye<double>(30), 2);
    for (const auto& problem : problems)
        for (const auto& [algorithm, is_default, description] : algorithms_for(problem->kind())) {
            const std::string name = algorithm;
            if (name != "projected_gradient" && name != "nolips" && name != "gradient_descent") continue;
            BOOST_TEST_CONTEXT(problem->kind() << " / " << algorithm)
            {
                auto solver = make_solver(problem, algorithm);
                solver->mutable_params().set_double("initial_step", 1e200);
                solver->mutable_params().set_int("max_backtracks", 1);
                solver->mutable_params().set_int("max_iterations", 10);
                solver->initialize();
                const Matrix start = solver->iterate();
                BOOST_TEST(solver->solve() == FACTO_STALLED);
                BOOST_TEST(solver->progress().iteration == 1);
                BOOST_TEST(solver->progress().step_size == 0.0);
                BOOST_TEST(solver->iterate() == start);
            }
        }
}

BOOST_AUTO_TEST_CASE(callback_stops_and_sees_progress)
{
    auto s = solver_for("frank_wolfe");
    s->mutable_params().set_double("objective_tolerance", 0.0);
    s->mutable_params().set_int("callback_every", 3);
    std::vector<int64_t> seen;
    s->set_callback([&](const Progress& p) {
        seen.push_back(p.iteration);
        return p.iteration >= 9;
    });
    BOOST_TEST(s->solve() == FACTO_STOPPED_BY_CALLBACK);
    BOOST_TEST(seen == (std::vector<int64_t>{3, 6, 9}));
    BOOST_TEST(s->progress().stop_reason == FACTO_STOPPED_BY_CALLBACK);
}

BOOST_AUTO_TEST_CASE(callback_cannot_step_or_change_parameters)
{
    auto s = solver_for("projected_gradient");
    facto_status inner_step = FACTO_OK, inner_param = FACTO_OK;
    Solver* raw = s.get();
    s->set_callback([&](const Progress&) {
        inner_step = status_of([&] { raw->step(); });
        inner_param = status_of([&] { raw->mutable_params().set_int("seed", 3); });
        return true;
    });
    s->step();
    BOOST_TEST(inner_step == FACTO_ERROR_BAD_STATE);
    BOOST_TEST(inner_param == FACTO_ERROR_BAD_STATE);
    BOOST_TEST(s->step() == FACTO_STOPPED_BY_CALLBACK);  // usable afterwards
}

BOOST_AUTO_TEST_CASE(request_stop_is_honoured_once)
{
    auto s = solver_for("frank_wolfe");
    s->mutable_params().set_double("objective_tolerance", 0.0);
    s->mutable_params().set_int("max_iterations", 20);
    s->request_stop();
    BOOST_TEST(s->solve() == FACTO_STOPPED_BY_REQUEST);
    BOOST_TEST(s->progress().iteration == 1);
    BOOST_TEST(s->solve() == FACTO_ITERATION_LIMIT);
}

BOOST_AUTO_TEST_CASE(time_limit_stops)
{
    auto s = solver_for("frank_wolfe");
    s->mutable_params().set_double("objective_tolerance", 0.0);
    s->mutable_params().set_double("tolerance", 0.0);
    s->mutable_params().set_int("max_iterations", 1000000000);
    s->mutable_params().set_double("time_limit", 0.05);
    BOOST_TEST(s->solve() == FACTO_TIME_LIMIT);
    BOOST_TEST(s->progress().elapsed_seconds >= 0.05);
}

BOOST_AUTO_TEST_CASE(same_seed_same_result_and_different_seed_different_start)
{
    auto a = solver_for("frank_wolfe"), b = solver_for("frank_wolfe"), c = solver_for("frank_wolfe");
    c->mutable_params().set_int("seed", 99);
    for (auto* s : {a.get(), b.get(), c.get()}) s->initialize();
    BOOST_TEST(a->iterate() != c->iterate());  // the seeds' starts
    for (auto* s : {a.get(), b.get(), c.get()}) {
        s->mutable_params().set_int("max_iterations", 25);
        s->solve();
    }
    BOOST_TEST(a->iterate() == b->iterate());
}

BOOST_AUTO_TEST_CASE(parameters_are_typed_bounded_and_named_in_errors)
{
    auto s = solver_for("frank_wolfe");
    Params& p = s->mutable_params();
    BOOST_TEST(status_of([&] { p.set_double("no_such", 1.0); }) == FACTO_ERROR_UNKNOWN_PARAMETER);
    BOOST_TEST(status_of([&] { p.set_double("seed", 1.5); }) == FACTO_ERROR_PARAMETER_TYPE);
    BOOST_TEST(status_of([&] { p.set_double("tolerance", -1.0); }) == FACTO_ERROR_OUT_OF_RANGE);
    BOOST_TEST(status_of([&] { p.set_double("tolerance", std::nan("")); }) == FACTO_ERROR_OUT_OF_RANGE);
    BOOST_TEST(status_of([&] { p.set_string("step_rule", "exact"); }) == FACTO_ERROR_OUT_OF_RANGE);
    BOOST_TEST(status_of([&] { p.set_int("tolerance", 2); }) == FACTO_OK);  // ints are accepted for doubles
    BOOST_TEST(p.get_double("tolerance") == 2.0);
    std::string message;
    try {
        p.set_int("max_iterations", -1);
    } catch (const Error& e) {
        message = e.what();
    }
    BOOST_TEST(message.find("max_iterations") != std::string::npos);
    p.reset();
    BOOST_TEST(p.get_double("tolerance") == 1e-6);
    BOOST_TEST(p.get_string("step_rule") == "auto");
}

BOOST_AUTO_TEST_CASE(unknown_algorithm_is_unsupported)
{
    BOOST_TEST(status_of([] { solver_for("nolips"); }) == FACTO_ERROR_UNSUPPORTED);
}

BOOST_AUTO_TEST_SUITE_END()
