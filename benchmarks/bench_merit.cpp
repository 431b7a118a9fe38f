// [NFW] (Nguyen, Fu & Wu): MERIT and SPA on the paper's synthetic settings; not part of the tests.
//
//   bench_merit table1 [trials]   Table I: N = 200, M = 80, SNR 10 dB, K in {40, 50, 60, 70}; success
//                                 rate, MRSA, RAE, seconds and iterations per trial, the share of
//                                 solves that ended CONVERGED; MERIT with its defaults (the paper's
//                                 steps 2 / (t + 2) to the relative gap 1e-3), MERIT with pairwise
//                                 steps ("MERIT-p", to the same tolerance), with corrective steps
//                                 ("MERIT-c"), and SPA
//   bench_merit fig2 [trials]     Fig. 2: (M, N, K) = (50, 55, 10), H = [I, midpoints], SNR 4..20 dB
//   bench_merit sizes SECONDS VARIANTS N...
//                                 seconds to the default stop against N on Table I's model (M = 80,
//                                 K = 40), each variant (comma-separated) within SECONDS, one
//                                 iteration against its X^T R product as GEMMs
//   bench_merit scale N [iters] [variant]
//                                 Fig. 4 (b): (M, K) = (50, 40), SNR 10 dB, one N per process: setup
//                                 and iteration seconds, the peak resident memory of the problem
//                                 and solver (above what the caller holds; the peak is reset with
//                                 /proc/self/clear_refs) against the model X + nnz(C) + one gradient
//                                 block (256 columns, at most 4096 rows: 8 MiB), and one iteration
//                                 against OpenBLAS computing its X^T R in such blocks (timed between
//                                 its iterations)
//
// MERIT runs with the paper's settings (SPA warm start, t_init = round(1 / RMSE_init), lambda by the
// heuristic ||X - X C0||_F / K, mu = 1e-5) and facto's default stopping rules, with the default
// (vanilla) steps, (MERIT-p) pairwise ones or (MERIT-c) corrective ones. Success is K-hat = K;
// MRSA compares W with X(:, K-hat) after the best matching of columns (Hungarian), as Gillis & Luce
// define it; "MRSA unmatched" pairs them by position instead (see docs/benchmarks.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "facto/facto.h"
#include "metrics/metrics.hpp"
#include "solvers/registry.hpp"
#include "problems/self_dictionary.hpp"
#include "linalg/blas.hpp"
#include "measure.hpp"

using namespace facto;
using facto::bench::Clock;
using facto::bench::resident_mib;
using facto::bench::seconds_since;
using facto::bench::SweepReference;
using facto::bench::median;

namespace {

// Columns `selected` of X (M x N) as an M x |selected| matrix.
Matrix columns_of(const Matrix& X, const std::vector<int64_t>& selected)
{
    Matrix W({X.shape()[0], selected.size()});
    for (std::size_t k = 0; k < selected.size(); ++k)
        for (std::size_t i = 0; i < X.shape()[0]; ++i) W(i, k) = X(i, static_cast<std::size_t>(selected[k]));
    return W;
}

// The solver's output "H" (|selected| x N) as a matrix.
Matrix fitted_H(const Solver& solver, std::size_t N)
{
    const Output H = solver.output("H");
    Matrix H_hat({H.doubles.size() / N, N});
    std::copy(H.doubles.begin(), H.doubles.end(), H_hat.begin());
    return H_hat;
}

// The mean-removed spectral angle of the columns paired by position, not matched.
double mrsa_unmatched(const Matrix& W, const Matrix& W_hat)
{
    double total = 0.0;
    const std::size_t k = W.shape()[1];
    for (std::size_t j = 0; j < k; ++j) {
        Matrix a({W.shape()[0], 1}), b({W.shape()[0], 1});
        for (std::size_t i = 0; i < W.shape()[0]; ++i) a(i, 0) = W(i, j), b(i, 0) = W_hat(i, j);
        total += mrsa(a, b);
    }
    return total / static_cast<double>(k);
}

struct Scores {
    double success = 0, mrsa = 0, mrsa_unmatched = 0, rae = 0, seconds = 0, iterations = 0, converged = 0;
};

// One solver on one instance, added to `s` with weight 1 / trials; `variant`: MERIT's.
void score(const SeparableData& data, const char* algorithm, int64_t K, int trials, Scores& s,
           const char* variant = "vanilla")
{
    auto problem = std::make_shared<const SelfDictionary>(data.X, K, -1.0, 1e-5);
    auto solver = make_solver(problem, algorithm);
    if (std::string(algorithm) == "merit") solver->mutable_params().set_string("variant", variant);
    const auto t0 = Clock::now();
    const int32_t reason = solver->solve();
    const double seconds = seconds_since(t0);
    const Output selected = solver->output("selected");
    const Matrix W_hat = columns_of(data.X, selected.ints), H_hat = fitted_H(*solver, data.X.shape()[1]);
    const double w = 1.0 / trials;
    s.success += w * (selected.ints == data.anchors ? 1.0 : 0.0);
    s.mrsa += w * mrsa(data.W, W_hat);
    s.mrsa_unmatched += w * mrsa_unmatched(data.W, W_hat);
    s.rae += w * relative_approximation(data.X, W_hat, H_hat);
    s.seconds += w * seconds;
    s.iterations += w * static_cast<double>(solver->progress().iteration);
    s.converged += w * (reason == FACTO_CONVERGED ? 1.0 : 0.0);
}

void table1(int trials)
{
    std::printf("Table I: N = 200, M = 80, SNR = 10 dB, %d trials per K (the paper: 50)\n", trials);
    std::printf("%4s  %-8s %8s %8s %10s %8s %10s %8s %10s\n", "K", "solver", "success", "MRSA", "MRSA unm.", "RAE",
                "seconds", "iters", "converged");
    for (int64_t K : {40, 50, 60, 70}) {
        Scores merit, paper, corrective, spa;
        for (int t = 0; t < trials; ++t) {
            const SeparableData data = separable_dirichlet(80, 200, K, 10.0, 1000 * static_cast<uint64_t>(K) + t);
            score(data, "merit", K, trials, merit);
            score(data, "merit", K, trials, paper, "pairwise");
            score(data, "merit", K, trials, corrective, "corrective");
            score(data, "spa", K, trials, spa);
        }
        for (const auto& [name, s] : {std::pair<const char*, const Scores&>{"MERIT", merit}, {"MERIT-p", paper},
                                      {"MERIT-c", corrective}, {"SPA", spa}})
            std::printf("%4lld  %-8s %8.2f %8.4f %10.4f %8.4f %10.4f %8.0f %10.2f\n", static_cast<long long>(K), name,
                        s.success, s.mrsa, s.mrsa_unmatched, s.rae, s.seconds, s.iterations, s.converged);
    }
}

void fig2(int trials)
{
    std::printf("Fig. 2: (M, N, K) = (50, 55, 10), H = [I, midpoints], %d trials per SNR (the paper: 50)\n", trials);
    std::printf("%6s %14s %16s %16s %14s %12s %14s %14s %12s\n", "SNR", "MERIT success", "MERIT-p success",
                "MERIT-c success", "SPA success", "MERIT MRSA", "MERIT-p MRSA", "MERIT-c MRSA", "SPA MRSA");
    for (double snr = 4.0; snr <= 20.0; snr += 2.0) {
        Scores merit, paper, corrective, spa;
        for (int t = 0; t < trials; ++t) {
            const SeparableData data = separable_midpoints(50, 10, snr, 7000 + 100 * static_cast<uint64_t>(snr) + t);
            score(data, "merit", 10, trials, merit);
            score(data, "merit", 10, trials, paper, "pairwise");
            score(data, "merit", 10, trials, corrective, "corrective");
            score(data, "spa", 10, trials, spa);
        }
        std::printf("%6.0f %14.2f %16.2f %16.2f %14.2f %12.4f %14.4f %14.4f %12.4f\n", snr, merit.success, paper.success,
                    corrective.success, spa.success, merit.mrsa, paper.mrsa, corrective.mrsa, spa.mrsa);
    }
}

void scale(int64_t n, int64_t iterations, const std::string& variant)
{
    const int64_t m = 50, K = 40;
    auto t0 = Clock::now();
    SeparableData data = separable_dirichlet(m, n, K, 10.0, 11);
    const std::vector<int64_t> anchors = data.anchors;
    Matrix X = std::move(data.X);
    data = SeparableData{};
    const double generated = seconds_since(t0);
    const std::size_t N = static_cast<std::size_t>(n), tile = std::min(N, SweepReference::kTile),
                      rows = std::min(N, SweepReference::kRows);
    // One pass here also lets OpenBLAS touch its own buffers before the baseline.
    SweepReference reference_sweep(N, static_cast<std::size_t>(m));
    reference_sweep.seconds(Matrix(xt::transpose(X)));
    // What the caller holds (X, the reference's buffers) is the baseline; the peak is reset to it.
    const double baseline = resident_mib("VmRSS:");
    facto::bench::reset_peak();
    t0 = Clock::now();
    auto problem = std::make_shared<const SelfDictionary>(std::move(X), K, -1.0, 1e-5);
    std::printf("N = %lld: data %.2f s, problem (copy, SPA, lambda from the warm start) %.2f s\n",
                static_cast<long long>(n), generated, seconds_since(t0));
    auto solver = make_solver(problem, "merit");
    solver->mutable_params().set_string("variant", variant);
    solver->mutable_params().set_int("max_iterations", iterations);
    solver->mutable_params().set_double("tolerance", 0.0);
    solver->mutable_params().set_double("objective_tolerance", 0.0);
    std::vector<double> per_iteration, reference;
    double last = 0.0;
    solver->set_callback([&](const Progress& p) {
        per_iteration.push_back(p.elapsed_seconds - last);
        last = p.elapsed_seconds;
        // Every tenth iteration, three passes of the reference, then half a second of busy waiting:
        // OpenBLAS's threads spin in sched_yield after a call (~0.1 s while the caller sleeps, longer
        // while it works; measured here) and slowed MERIT, which uses none of them, by up to 2x at
        // N = 200. Sleeping instead left this VM running the next iterations ~1.7x slower for a
        // while. The iteration after the wait starts cold; the medians leave it out.
        if (p.iteration % 10 == 1) {
            for (int pass = 0; pass < 3; ++pass) reference.push_back(reference_sweep.seconds(problem->Xt()));
            const auto w0 = Clock::now();
            while (seconds_since(w0) < 0.5) continue;
        }
        return false;
    });
    t0 = Clock::now();
    solver->initialize();
    const double start = seconds_since(t0);
    last = solver->progress().elapsed_seconds;
    solver->solve();
    const int64_t nnz = solver->output("nnz").ints[0];
    const bool success = solver->output("selected").ints == anchors;
    const double peak = resident_mib("VmHWM:") - baseline;
    const double mib = 1.0 / (1024.0 * 1024.0), x_size = static_cast<double>(m) * static_cast<double>(n) * 8.0 * mib;
    const double model = x_size + static_cast<double>(nnz) * 16.0 * mib + static_cast<double>(tile * rows) * 8.0 * mib;
    std::printf("  %s: start (warm start C0, R, first sweep) %.2f s; %lld iterations: %.4f s each (median), "
                "the same GEMMs %.4f s, ratio %.2f\n",
                variant.c_str(), start, static_cast<long long>(solver->progress().iteration), median(per_iteration),
                median(reference),
                median(per_iteration) / median(reference));
    std::printf("  nnz(C) = %lld (%.1f per column), success %s\n", static_cast<long long>(nnz),
                static_cast<double>(nnz) / static_cast<double>(n), success ? "yes" : "no");
    const double bare = model - static_cast<double>(tile * rows) * 8.0 * mib;
    std::printf("  peak resident memory of the problem and solver: %.1f MiB; X + nnz(C) + one gradient block "
                "%.1f MiB, ratio %.2f; X + nnz(C) alone %.1f MiB, ratio %.2f\n",
                peak, model, peak / model, bare, peak / bare);
}

// Seconds to MERIT's default stop against N on Table I's model (M = 80, K = 40, SNR 10 dB), for each
// variant given, each solve within `limit` seconds: iterations, how it stopped, the relative gap, one
// iteration's median seconds against the reference product timed before the solve (median of 3), and
// success and RAE as in Table I.
void sizes(double limit, const std::vector<int64_t>& Ns, const std::vector<std::string>& variants)
{
    const int64_t m = 80, K = 40;
    std::printf("Table I's model at N (M = 80, K = 40, SNR 10 dB), %.0f s limit per solve\n", limit);
    std::printf("%7s %-11s %-16s %7s %10s %9s %12s %11s %7s %8s %7s %8s\n", "N", "variant", "stop", "iters", "seconds",
                "gap", "s/iteration", "reference", "ratio", "us/(N K)", "success", "RAE");
    for (int64_t n : Ns) {
        const SeparableData data = separable_dirichlet(m, n, K, 10.0, 11);
        SweepReference reference(static_cast<std::size_t>(n), static_cast<std::size_t>(m));
        const Matrix Xt = xt::transpose(data.X);
        const double product = reference.typical_seconds(Xt);
        for (const std::string& variant : variants) {
            auto problem = std::make_shared<const SelfDictionary>(data.X, K, -1.0, 1e-5);
            auto solver = make_solver(problem, "merit");
            solver->mutable_params().set_string("variant", variant);
            solver->mutable_params().set_double("time_limit", limit);
            const auto [reason, start, seconds, each] = facto::bench::timed_solve(*solver);
            const Output selected = solver->output("selected");
            const double rae = relative_approximation(data.X, columns_of(data.X, selected.ints),
                                                      fitted_H(*solver, static_cast<std::size_t>(n)));
            std::printf("%7lld %-11s %-16s %7lld %10.2f %9.2e %12.4f %11.4f %7.2f %8.3f %7s %8.4f\n",
                        static_cast<long long>(n), variant.c_str(), facto::bench::stop_name(reason),
                        static_cast<long long>(solver->progress().iteration), seconds, solver->progress().stationarity,
                        each, product, each / product, 1e6 * each / (static_cast<double>(n) * static_cast<double>(K)),
                        selected.ints == data.anchors ? "yes" : "no", rae);
            std::fflush(stdout);
        }
    }
}

std::vector<std::string> split(const std::string& list)
{
    std::vector<std::string> parts;
    std::size_t begin = 0;
    for (std::size_t comma; (comma = list.find(',', begin)) != std::string::npos; begin = comma + 1)
        parts.push_back(list.substr(begin, comma - begin));
    parts.push_back(list.substr(begin));
    return parts;
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "table1";
    if (mode == "table1") table1(argc > 2 ? std::stoi(argv[2]) : 50);
    else if (mode == "fig2") fig2(argc > 2 ? std::stoi(argv[2]) : 50);
    else if (mode == "scale")
        scale(argc > 2 ? std::stoll(argv[2]) : 1000, argc > 3 ? std::stoll(argv[3]) : 20, argc > 4 ? argv[4] : "vanilla");
    else if (mode == "sizes" && argc > 4) {
        std::vector<int64_t> Ns;
        for (int a = 4; a < argc; ++a) Ns.push_back(std::stoll(argv[a]));
        sizes(std::stod(argv[2]), Ns, split(argv[3]));
    } else {
        std::fprintf(stderr, "usage: bench_merit table1|fig2 [trials] | scale N [iterations] [variant] | "
                             "sizes SECONDS VARIANT[,VARIANT...] N...\n");
        return 2;
    }
    return 0;
}
