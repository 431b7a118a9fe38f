// Timing, memory and trace helpers shared by the benchmarks (not part of the library).
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "solvers/solver.hpp"

namespace facto::bench {

using Clock = std::chrono::steady_clock;

// The benchmark data directory: $FACTO_DATA, else benchmarks/data (relative to the repository root,
// where benchmarks/run.sh runs the benchmarks). benchmarks/README.md lists its files and their sources.
inline std::string data_dir()
{
    const char* dir = std::getenv("FACTO_DATA");
    return dir && *dir ? dir : "benchmarks/data";
}

// Whether the data directory holds `relative`.
inline bool has_data(const std::string& relative) { return std::ifstream(data_dir() + "/" + relative).good(); }

// The path of the data file `relative` (e.g. "symnmf/orl_similarity.csv"); when it is missing, the
// program ends with a message naming it and how to get it.
inline std::string data_file(const std::string& relative)
{
    const std::string path = data_dir() + "/" + relative;
    if (!has_data(relative)) {
        std::fprintf(stderr,
                     "missing benchmark data: %s\n  get it with `bash benchmarks/fetch_data.sh` (benchmarks/README.md "
                     "lists its source), or point FACTO_DATA (benchmarks/run.sh --data DIR) at a directory holding %s\n",
                     path.c_str(), relative.c_str());
        std::exit(1);
    }
    return path;
}

inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A field of /proc/self/status in MiB ("VmRSS:" now, "VmHWM:" the peak since the last reset_peak()).
inline double resident_mib(const char* key)
{
    std::ifstream status("/proc/self/status");
    std::string word;
    double kib = 0.0;
    while (status >> word)
        if (word == key) {
            status >> kib;
            break;
        }
    return kib / 1024.0;
}

// Resets VmHWM to the current resident size.
inline void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }

// One solver's run: seconds of solver time, objective and stationarity at the start and after each
// iteration.
struct Run {
    std::string name;
    std::vector<double> seconds, objective, gap;
};

// Runs `solver` from X0 for `budget` seconds of solver time, with no stopping rule but the budget and
// stationarity <= gap_target (none by default), recording every iteration.
inline Run trace(Solver& solver, const std::string& name, const Matrix& X0, double budget, double gap_target = -1.0)
{
    Run run{name, {}, {}, {}};
    solver.mutable_params().set_double("time_limit", budget);
    solver.mutable_params().set_double("objective_tolerance", 0.0);
    solver.mutable_params().set_double("tolerance", 0.0);
    solver.mutable_params().set_int("max_iterations", 10000000);
    solver.set_iterate(X0);
    const auto record = [&](const Progress& p) {
        run.seconds.push_back(p.elapsed_seconds);
        run.objective.push_back(p.objective);
        run.gap.push_back(p.stationarity);
        return p.stationarity <= gap_target;
    };
    record(solver.progress());
    solver.set_callback(record);
    solver.solve();
    return run;
}

// Solver time at which the run's objective first reached `target` (infinity if never).
inline double time_to(const Run& run, double target)
{
    for (std::size_t i = 0; i < run.objective.size(); ++i)
        if (run.objective[i] <= target) return run.seconds[i];
    return std::numeric_limits<double>::infinity();
}

}  // namespace facto::bench
