#include "solvers/solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>

#include "base/error.hpp"

namespace facto {

namespace {
constexpr int64_t int_max = std::numeric_limits<int64_t>::max();
constexpr double inf = std::numeric_limits<double>::infinity();
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

std::vector<ParamSpec> common_params()
{
    return {
        int_param("max_iterations", 10000, 0, int_max,
                  "stop (ITERATION_LIMIT) after this many iterations: a safety net, not the rule that normally ends a "
                  "solve"),
        real_param("time_limit", 0.0, 0.0, inf, "stop after this many seconds inside the solver; 0 = no limit"),
        real_param("tolerance", 1e-6, 0.0, inf,
                   "CONVERGED when the stationarity measure, relative to the problem's own scale (see the solver), "
                   "is at most this"),
        real_param("objective_tolerance", 1e-12, 0.0, inf,
                   "STALLED when the objective stayed within this relative band over the last objective_window "
                   "iterations while the stationarity measure is above tolerance; 0 = off"),
        int_param("objective_window", 10, 1, 1000000,
                  "iterations the objective_tolerance band must hold (1 = consecutive values)"),
        int_param("seed", 0, 0, int_max, "seed of the random initial point (used when no iterate is set)"),
        int_param("callback_every", 1, 1, int_max, "call the iteration callback every this many iterations"),
        int_param("threads", 0, 0, 1024,
                  "threads for facto's own loops; 0 = all cores (BLAS threads: OPENBLAS_NUM_THREADS)"),
    };
}

ParamSpec objective_tolerance_off()
{
    return real_param("objective_tolerance", 0.0, 0.0, inf,
                      "as for every solver, but off by default: the objective of an infeasible iterate can settle "
                      "while the iterate is still moving toward the feasible set");
}

OutputSpec gaps_spec() { return {"gaps", FACTO_OUTPUT_DOUBLE, 1, 3}; }

Output gaps_output(double frank_wolfe_gap, double away_gap)
{
    return Output{gaps_spec(), {frank_wolfe_gap, away_gap, frank_wolfe_gap + away_gap}, {}};
}

Solver::Solver(std::shared_ptr<const Problem> problem, const std::vector<ParamSpec>& specific_params)
    : problem_(std::move(problem)), params_([&] {
          // a specific spec with a common name replaces the common one (another default for this solver)
          auto specs = common_params();
          for (const ParamSpec& spec : specific_params) {
              auto same = std::find_if(specs.begin(), specs.end(),
                                       [&](const ParamSpec& c) { return std::string(c.name) == spec.name; });
              if (same != specs.end()) *same = spec; else specs.push_back(spec);
          }
          return specs;
      }())
{
    params_.set_check([this](const Params& p) { check_params(p); });
    params_.bind("max_iterations", common_.max_iterations);
    params_.bind("objective_window", common_.objective_window);
    params_.bind("seed", common_.seed);
    params_.bind("callback_every", common_.callback_every);
    params_.bind("threads", common_.threads);
    params_.bind("time_limit", common_.time_limit);
    params_.bind("tolerance", common_.tolerance);
    params_.bind("objective_tolerance", common_.objective_tolerance);
    common_.feasibility_tolerance = inf;
    if (params_.has("feasibility_tolerance")) params_.bind("feasibility_tolerance", common_.feasibility_tolerance);
}

void Solver::require_not_in_callback(const char* what) const
{
    require(!in_callback_, FACTO_ERROR_BAD_STATE,
            std::string(what) + " is not allowed inside the solver's own callback (only const getters are)");
}

Params& Solver::mutable_params()
{
    require_not_in_callback("changing a parameter");
    return params_;
}

void Solver::set_iterate(const Matrix& X)
{
    require_not_in_callback("set_iterate");
    const auto t0 = Clock::now();
    Matrix X0 = problem_->feasible_point(X);
    run_start([&] { start(std::move(X0)); }, t0);
    started_ = true;
    progress_ = Progress{};
    progress_.elapsed_seconds = seconds_since(t0);
    fill_initial_progress();
}

void Solver::initialize()
{
    require_not_in_callback("initialize");
    if (started_) return;
    const auto t0 = Clock::now();
    run_start([&] { start_default(static_cast<uint64_t>(common_.seed)); }, t0);
    started_ = true;
    progress_ = Progress{};
    progress_.elapsed_seconds = seconds_since(t0);
    fill_initial_progress();
}

void Solver::run_start(const std::function<void()>& build, std::chrono::steady_clock::time_point t0)
{
    // a long start (burer_monteiro's kernel k-means replicates) checks interrupted() like a step does,
    // its time counted from t0
    step_start_ = t0;
    starting_ = true;
    try {
        build();
    } catch (...) {
        starting_ = false;
        throw;
    }
    starting_ = false;
}

const Matrix& Solver::iterate() const
{
    require(started_, FACTO_ERROR_BAD_STATE, "the solver has no iterate yet (step it, or set one)");
    return current();
}

void Solver::fill_initial_progress()
{
    recent_objectives_.assign(1, current_objective());
    progress_.objective = current_objective();
    progress_.stationarity = current_stationarity();
    progress_.feasibility = current_feasibility();
    progress_.tolerance = tolerance();
}

Output Solver::output(const std::string& name) const
{
    return problem_->output(name, iterate());
}

// True when the last objective_window + 1 objectives lie in a band of relative width
// objective_tolerance. A band over a window, not one difference: methods that are not monotone
// (open-loop Frank-Wolfe) can show one tiny difference while still far from stationary.
bool Solver::objective_settled() const
{
    const double tolerance = common_.objective_tolerance;
    const std::size_t window = static_cast<std::size_t>(common_.objective_window);
    if (tolerance <= 0.0 || recent_objectives_.size() < window + 1) return false;
    const auto last = recent_objectives_.end();
    const auto [lo, hi] = std::minmax_element(last - static_cast<std::ptrdiff_t>(window + 1), last);
    return *hi - *lo <= tolerance * std::fabs(*lo);
}

bool Solver::converged() const
{
    return progress_.stationarity <= tolerance() && progress_.feasibility <= common_.feasibility_tolerance;
}

int32_t Solver::stopping_rule() const
{
    const Progress& p = progress_;
    if (converged()) return FACTO_CONVERGED;
    if (stuck() || objective_settled()) return FACTO_STALLED;
    if (p.iteration >= common_.max_iterations) return FACTO_ITERATION_LIMIT;
    if (time_is_up(p.elapsed_seconds)) return FACTO_TIME_LIMIT;
    return FACTO_OK;
}

bool Solver::time_is_up(double elapsed_seconds) const
{
    return common_.time_limit > 0.0 && elapsed_seconds >= common_.time_limit;
}

bool Solver::interrupted() const
{
    return stop_requested_.load(std::memory_order_relaxed) ||
           time_is_up((starting_ ? 0.0 : progress_.elapsed_seconds) + seconds_since(step_start_));
}

int32_t Solver::step()
{
    require_not_in_callback("step");
    initialize();
    step_start_ = Clock::now();
    const double previous = progress_.objective;
    progress_.stop_reason = FACTO_OK;
    progress_.step_size = iterate_once();
    progress_.objective = current_objective();
    progress_.stationarity = current_stationarity();
    progress_.feasibility = current_feasibility();
    progress_.tolerance = tolerance();
    progress_.iteration += 1;
    progress_.relative_change =
        std::fabs(previous - progress_.objective) / std::max(std::fabs(previous), std::numeric_limits<double>::min());
    progress_.elapsed_seconds += seconds_since(step_start_);
    require(std::isfinite(progress_.objective), FACTO_ERROR_NUMERICAL,
            "the objective became non-finite at iteration " + std::to_string(progress_.iteration));

    recent_objectives_.push_back(progress_.objective);
    if (recent_objectives_.size() > static_cast<std::size_t>(common_.objective_window) + 1)
        recent_objectives_.pop_front();
    int32_t reason = stopping_rule();
    // a request is consumed by the step it meets, also when that step stops for another reason (it must
    // not stop a later solve)
    if (stop_requested_.exchange(false) && reason == FACTO_OK) reason = FACTO_STOPPED_BY_REQUEST;
    progress_.stop_reason = reason;
    std::exception_ptr failure;  // a distributed problem's callback's, thrown once the processes agree
    if (callback_ && progress_.iteration % common_.callback_every == 0) {
        in_callback_ = true;
        bool stop = false;
        try {
            stop = callback_(progress_);
        } catch (...) {
            in_callback_ = false;
            if (!problem_->collectives()) throw;
            failure = std::current_exception();  // the other processes first learn that this one stops
            stop = true;
        }
        in_callback_ = false;
        if (stop && reason == FACTO_OK) progress_.stop_reason = reason = FACTO_STOPPED_BY_CALLBACK;
    }
    // a request made during the callback (a host turning Ctrl-C into one) ends this step too
    if (stop_requested_.exchange(false) && reason == FACTO_OK)
        progress_.stop_reason = reason = FACTO_STOPPED_BY_REQUEST;
    // a distributed problem: time limits, callbacks and requests are each process's own, and every
    // process must stop at the same step (the codes are ordered; the largest wins)
    if (const Collectives* c = problem_->collectives())
        progress_.stop_reason = reason = static_cast<int32_t>(c->max(reason));
    if (failure) std::rethrow_exception(failure);
    return reason;
}

int32_t Solver::solve()
{
    require_not_in_callback("solve");
    initialize();
    // a solve that has nothing to do spends a pending request too, as the step that meets it would
    const bool done = converged();
    if (done || progress_.iteration >= common_.max_iterations) {
        stop_requested_.store(false);
        return progress_.stop_reason = done ? FACTO_CONVERGED : FACTO_ITERATION_LIMIT;
    }
    for (;;) {
        const int32_t reason = step();
        if (reason != FACTO_OK) return reason;
    }
}

}  // namespace facto
