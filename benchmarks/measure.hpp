// Timing, memory and trace helpers shared by the benchmarks (not part of the library).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <xtensor/xbuilder.hpp>

#include "base/error.hpp"
#include "facto/facto.h"
#include "linalg/blas.hpp"
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

// The reference of a MERIT iteration's cost: its X^T R product (N x M times M x N) as GEMMs, block by
// block into one buffer, the calls MERIT made before its kernel kept only the column minima.
struct SweepReference {
    static constexpr std::size_t kTile = 256, kRows = 4096;
    SweepReference(std::size_t N, std::size_t M)
        : N(N), M(M), R(xt::ones<double>({N, M})), Gt(Matrix::from_shape({std::min(kTile, N), std::min(N, kRows)}))
    {
    }
    // Seconds for one product with X^T (N x M).
    double seconds(const Matrix& Xt)
    {
        const std::size_t tile = Gt.shape()[0], rows = Gt.shape()[1];
        const auto g0 = Clock::now();
        for (std::size_t c = 0; c < N; c += tile)
            for (std::size_t r = 0; r < N; r += rows)
                blas::gemm(false, true, std::min(tile, N - c), std::min(rows, N - r), M, 1.0, &R(c, 0), M, &Xt(r, 0), M,
                           0.0, Gt.data(), std::min(rows, N - r));
        return seconds_since(g0);
    }
    // The median of three products after a first one, which touches OpenBLAS's buffers.
    double typical_seconds(const Matrix& Xt)
    {
        seconds(Xt);
        double s[3] = {seconds(Xt), seconds(Xt), seconds(Xt)};
        std::sort(s, s + 3);
        return s[1];
    }
    std::size_t N, M;
    Matrix R, Gt;
};

// The median of v (NaN when empty: no sample).
inline double median(std::vector<double> v)
{
    if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

// A solve timed from the start: initialize() then solve(), each iteration's solver seconds recorded by
// a callback that replaces the solver's own for the solve.
struct TimedSolve {
    int32_t reason;
    double start, seconds, per_iteration;  // initialize's seconds, the whole's, one iteration's median
};
inline TimedSolve timed_solve(Solver& solver)
{
    std::vector<double> per_iteration;
    double last = 0.0;
    // the recorder reads this frame: it leaves the solver with the frame, by return or by exception
    struct Recorder {
        Solver& solver;
        ~Recorder() { solver.set_callback(nullptr); }
    } recorder{solver};
    solver.set_callback([&](const Progress& p) {
        per_iteration.push_back(p.elapsed_seconds - last);
        last = p.elapsed_seconds;
        return false;
    });
    const auto t0 = Clock::now();
    solver.initialize();
    const double start = seconds_since(t0);
    last = solver.progress().elapsed_seconds;
    const int32_t reason = solver.solve();
    return {reason, start, seconds_since(t0), median(per_iteration)};
}

// A stop reason's name, as the C API's without its prefix ("CONVERGED").
inline const char* stop_name(int32_t reason)
{
    const char* name = status_name(reason);
    return std::strncmp(name, "FACTO_", 6) == 0 ? name + 6 : name;
}

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
