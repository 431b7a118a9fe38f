// A Solver is one algorithm bound to one problem. It owns the iterate and the algorithm state; the
// stopping rules, timing, progress and callback are shared by every algorithm and live here.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "linalg/matrix.hpp"
#include "solvers/params.hpp"
#include "problems/problem.hpp"

namespace facto {

struct Progress {
    int32_t stop_reason = 0;  // 0 running, else FACTO_CONVERGED ... FACTO_STOPPED_BY_REQUEST
    int64_t iteration = 0;
    double objective = std::numeric_limits<double>::quiet_NaN();
    double stationarity = std::numeric_limits<double>::quiet_NaN();
    double step_size = std::numeric_limits<double>::quiet_NaN();
    double relative_change = std::numeric_limits<double>::quiet_NaN();
    double elapsed_seconds = 0.0;
    double feasibility = 0.0;  // constraint violation; 0 where iterates are feasible by construction
    double tolerance = std::numeric_limits<double>::quiet_NaN();  // tolerance() at the last iteration
};

class Solver {
public:
    // Returns true to stop the solve.
    using Callback = std::function<bool(const Progress&)>;

    virtual ~Solver() = default;
    Solver(const Solver&) = delete;
    Solver& operator=(const Solver&) = delete;

    virtual const char* algorithm() const = 0;
    const Problem& problem() const { return *problem_; }

    const Params& params() const { return params_; }
    Params& mutable_params();  // throws Error(BAD_STATE) inside the callback

    // Start from X (validated and made feasible by the problem); resets state and progress.
    void set_iterate(const Matrix& X);
    // Draws the initial point from the `seed` parameter unless an iterate exists (step and solve do
    // this themselves).
    void initialize();
    // The current iterate; throws Error(BAD_STATE) before initialize, step, solve or set_iterate.
    const Matrix& iterate() const;

    // One iteration, then the stopping rules: FACTO_OK or the positive stop reason.
    int32_t step();
    // Steps until a stopping rule fires; returns the positive stop reason.
    int32_t solve();

    const Progress& progress() const { return progress_; }
    void set_callback(Callback callback) { callback_ = std::move(callback); }
    void request_stop() noexcept { stop_requested_.store(true, std::memory_order_relaxed); }
    bool in_callback() const { return in_callback_; }
    // True once an iterate exists (after initialize, step, solve or set_iterate).
    bool started() const { return started_; }
    // The stationarity bound CONVERGED uses: the parameter tolerance (a solver whose parameter has an
    // automatic value, 0, resolves it here).
    virtual double tolerance() const { return common_.tolerance; }

    // Named outputs; by default the problem's, computed from the dense iterate.
    virtual std::vector<OutputSpec> output_specs() const { return problem_->output_specs(); }
    virtual Output output(const std::string& name) const;

protected:
    Solver(std::shared_ptr<const Problem> problem, const std::vector<ParamSpec>& specific_params);

    // Build the algorithm state at the feasible point X0.
    virtual void start(Matrix X0) = 0;
    // Build it when the caller gave no iterate: by default at the problem's random point for `seed`.
    virtual void start_default(uint64_t seed) { start(problem_->random_point(seed)); }
    // Objective and stationarity measure at the current iterate (from the state, no recomputation).
    // The stationarity measure is the one `tolerance` bounds: scale-free, relative to the problem's own
    // scale as each solver documents.
    virtual double current_objective() const = 0;
    virtual double current_stationarity() const = 0;
    // The violation of the constraints the iterates need not satisfy (NOMAD's), bounded by the
    // parameter feasibility_tolerance where the solver has one; 0 by default.
    virtual double current_feasibility() const { return 0.0; }
    // True when the last iteration could not move the iterate and the next one cannot either: by
    // default a step of 0 (no trial step was accepted).
    virtual bool stuck() const { return progress_.step_size == 0.0; }
    // Refuses a combination of parameter values (throws Error naming them); runs after every set and
    // reset, which are undone when it throws.
    virtual void check_params(const Params&) const {}
    // One iteration; returns the step size it used.
    virtual double iterate_once() = 0;
    virtual const Matrix& current() const = 0;
    // True once a stop was requested or time_limit is reached, counting the running step. An algorithm
    // whose one iteration runs many inner steps checks it between them and ends the iteration early,
    // so that request_stop and time_limit act within one inner step; the request itself stays pending
    // for step's stopping rules. Inside start and start_default it counts the start's own time, so a
    // long start can end early too (and must still leave a valid state).
    bool interrupted() const;

    // The common parameters, bound to the table (feasibility_tolerance is inf where the solver has none).
    struct CommonSettings {
        int64_t max_iterations = 0, objective_window = 0, seed = 0, callback_every = 0, threads = 0;
        double time_limit = 0.0, tolerance = 0.0, objective_tolerance = 0.0, feasibility_tolerance = 0.0;
    };
    const CommonSettings& common() const { return common_; }

private:
    Progress progress_;
    // CONVERGED: stationarity at most tolerance and feasibility at most feasibility_tolerance.
    bool converged() const;
    int32_t stopping_rule() const;
    bool time_is_up(double elapsed_seconds) const;  // time_limit set and reached
    bool objective_settled() const;
    void fill_initial_progress();
    void require_not_in_callback(const char* what) const;
    // Runs start or start_default (`build`) begun at t0, with interrupted() live inside it.
    void run_start(const std::function<void()>& build, std::chrono::steady_clock::time_point t0);

    std::shared_ptr<const Problem> problem_;
    Params params_;
    CommonSettings common_;
    Callback callback_;
    std::deque<double> recent_objectives_;  // the last objective_window + 1 objectives
    std::atomic<bool> stop_requested_{false};
    std::chrono::steady_clock::time_point step_start_{};
    bool started_ = false;
    bool in_callback_ = false;
    bool starting_ = false;  // inside start or start_default: interrupted() counts from step_start_ alone
};

// The parameters every solver has (stopping rules, seed, callback cadence).
std::vector<ParamSpec> common_params();
// common_params' objective_tolerance with default 0 (off), for the solvers whose objective can settle
// at an infeasible iterate (NOMAD's); a solver's spec of a common name replaces the common one.
ParamSpec objective_tolerance_off();

// The stationarity measure of the Frank-Wolfe solvers (and of projected gradient on the same sets): the
// Frank-Wolfe gap relative to the objective at the start of the run, `start_objective` (the gap itself
// when that is 0: the start was then a global minimum of a nonnegative objective). The gap bounds
// f - f* on a convex problem, so this bounds the suboptimality relative to where the run began.
inline double relative_gap(double gap, double start_objective)
{
    return start_objective > 0.0 ? gap / start_objective : gap;
}

// The output "gaps" of the Frank-Wolfe solvers: 1 x 3, the Frank-Wolfe gap, the away gap and their sum,
// the pairwise gap (absolute, in the objective's units).
OutputSpec gaps_spec();
Output gaps_output(double frank_wolfe_gap, double away_gap);

}  // namespace facto
