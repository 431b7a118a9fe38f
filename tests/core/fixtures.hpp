// Small instances and brute-force references shared by the core tests.
#pragma once

#include <cmath>
#include <functional>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xtensor-blas/xlinalg.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xview.hpp>

#include "base/random.hpp"
#include "data/data.hpp"
#include "problems/edm_completion.hpp"
#include "base/error.hpp"
#include "problems/nomad.hpp"
#include "problems/self_dictionary.hpp"
#include "problems/simplicial_symnmf.hpp"
#include "solvers/solver.hpp"
#include "problems/symnmf.hpp"
#include "linalg/blas.hpp"

namespace facto::test {

// Whether `body` returns true in a child process limited to `bytes` of address space (RLIMIT_AS; an
// exception there is false): memory bounds of code whose data's dense form would not fit. Not for the
// sanitizers' builds, whose shadow memory the limit forbids.
inline bool within_address_space(std::size_t bytes, const std::function<bool()>& body)
{
    const pid_t child = fork();
    if (child < 0) return false;
    if (child == 0) {
        const rlimit limit{bytes, bytes};
        setrlimit(RLIMIT_AS, &limit);
        bool ok = false;
        try {
            ok = body();
        } catch (...) {
        }
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Whether a dense rows x cols Matrix fails to allocate here.
inline bool dense_allocation_fails(std::size_t rows, std::size_t cols)
{
    try {
        Matrix D({rows, cols});
    } catch (const std::exception&) {
        return true;
    }
    return false;
}

// n rows of `per_row` distinct columns of [0, cols), seeded, values in (0, 1]: counts-like sparse rows
inline CsrMatrix sparse_rows(int64_t n, int64_t cols, int64_t per_row, uint64_t seed)
{
    std::vector<int64_t> rows, columns;
    std::vector<double> values;
    uint64_t state = seed;
    auto next = [&state] { return (state = state * 6364136223846793005ull + 1442695040888963407ull) >> 11; };
    for (int64_t i = 0; i < n; ++i)
        for (int64_t t = 0; t < per_row; ++t) {
            rows.push_back(i);
            columns.push_back(static_cast<int64_t>(next() % static_cast<uint64_t>(cols)));
            values.push_back(static_cast<double>(next() % 1000 + 1) / 1000.0);
        }
    return csr_from_triplets(n, cols, rows.data(), columns.data(), values.data(), static_cast<int64_t>(values.size()));
}

// Gaussian-kernel P of n random points in `dim` dimensions (symmetric, psd, entries in (0, 1]).
inline Matrix random_affinity(std::size_t n, std::size_t dim, uint64_t seed, double bandwidth = 1.0)
{
    Rng rng(seed);
    Matrix X({n, dim});
    for (auto& x : X) x = rng.normal();
    return gaussian_affinity(X, bandwidth);
}

inline Matrix random_matrix(std::size_t rows, std::size_t cols, uint64_t seed)
{
    Rng rng(seed);
    Matrix X({rows, cols});
    for (auto& x : X) x = rng.normal();
    return X;
}

// Entries uniform on [low, high), drawn by std::mt19937_64 (a stream independent of facto's Rng).
inline Matrix uniform_matrix(std::size_t rows, std::size_t cols, uint64_t seed, double low, double high)
{
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(low, high);
    Matrix A({rows, cols});
    for (double& a : A) a = uniform(random);
    return A;
}

// 1/4 ||P - W W^T||_F^2 formed densely, the reference for the trace identity.
inline double dense_objective(const Matrix& P, const Matrix& W)
{
    const Matrix R = P - xt::linalg::dot(W, xt::transpose(W));
    return 0.25 * xt::sum(R * R)();
}

// P = W* W*^T for hard cluster indicators W* (n points in k clusters, labels i mod k).
inline Matrix planted_affinity(std::size_t n, std::size_t k)
{
    Matrix P = xt::zeros<double>({n, n});
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) P(i, j) = (i % k == j % k) ? 1.0 : 0.0;
    return P;
}

// The self-dictionary gradient X^T (X C - X) + lambda Y at a dense C, Y the row-wise softmax of C / mu
// (shifted by the row's maximum, in long double): the reference for the sweep and the variants.
inline Matrix dense_self_dictionary_gradient(const SelfDictionary& problem, const Matrix& C)
{
    const std::size_t n = C.shape()[0];
    Matrix X = xt::transpose(problem.Xt()), R = -X, G({n, n});
    blas::gemm(false, false, 1.0, X, C, 1.0, R);
    blas::gemm(true, false, 1.0, X, R, 0.0, G);
    for (std::size_t i = 0; i < n; ++i) {
        const long double top = xt::amax(xt::row(C, i))();
        long double sum = 0.0L;
        for (std::size_t j = 0; j < n; ++j) sum += std::exp((C(i, j) - top) / problem.mu());
        for (std::size_t j = 0; j < n; ++j)
            G(i, j) += problem.lambda() * static_cast<double>(std::exp((C(i, j) - top) / problem.mu()) / sum);
    }
    return G;
}

// Central differences of problem.objective at X, entry by entry, with step h.
inline Matrix finite_difference_gradient(const Problem& problem, const Matrix& X, double h = 1e-6)
{
    Matrix G(X.shape());
    for (std::size_t i = 0; i < X.shape()[0]; ++i)
        for (std::size_t j = 0; j < X.shape()[1]; ++j) {
            Matrix plus = X, minus = X;
            plus(i, j) += h;
            minus(i, j) -= h;
            G(i, j) = (problem.objective(plus) - problem.objective(minus)) / (2 * h);
        }
    return G;
}

// The absolute Frank-Wolfe gap of a Frank-Wolfe solver (output "gaps"; the progress reports it relative
// to the objective at the start).
inline double frank_wolfe_gap(const Solver& solver) { return solver.output("gaps").doubles[0]; }

// A bound of the rounding error of the trace-identity objective 1/4 (||P||^2 - 2 <P W, W> + ||W^T W||^2)
// (n x k W, one GEMM of length n, dot products of length n k and k^2): each term carries at most
// (n k + n + k^2) eps of its own size.
inline double objective_rounding(const SimplicialSymNMF& problem, const Matrix& W)
{
    const std::size_t n = W.shape()[0], k = W.shape()[1];
    const Matrix PW = xt::linalg::dot(problem.P(), W), WtW = xt::linalg::dot(xt::transpose(W), W);
    const double terms = problem.P_norm_squared() + 2.0 * std::fabs(xt::sum(PW * W)()) + xt::sum(WtW * WtW)();
    return static_cast<double>(n * k + n + k * k) * 2.220446049250313e-16 * terms / 4.0;
}

// The status of the facto::Error that f() throws, or FACTO_OK when it throws nothing.
template <class F>
facto_status status_of(F&& f)
{
    try {
        f();
    } catch (const Error& e) {
        return e.status();
    }
    return FACTO_OK;
}

inline std::shared_ptr<const SimplicialSymNMF> make_problem(Matrix P, int64_t k)
{
    return std::make_shared<const SimplicialSymNMF>(std::move(P), k);
}

// A small instance of every problem kind.
inline std::vector<std::shared_ptr<const Problem>> one_of_each_kind()
{
    const Matrix P = random_affinity(30, 3, 5);
    const Matrix X = random_matrix(30, 3, 6);
    const ObservedPairs pairs = sample_pairs(X, 0.5, 7);
    return {make_problem(P, 3), std::make_shared<const SymNMF>(P, 3),
            std::make_shared<const EdmCompletion>(30, 3, pairs.i.data(), pairs.j.data(), pairs.d.data(),
                                                  static_cast<int64_t>(pairs.d.size())),
            std::make_shared<const SelfDictionary>(separable_dirichlet(10, 30, 3, 20.0, 8).X, 3, -1.0, 1e-5),
            std::make_shared<const Nomad>(nomad_gram(X), 3)};
}

// Topic k of 3 has its anchor word k and shares words 3..8 in pairs ({3, 4}: topics 0 and 1, {5, 6}: 1
// and 2, {7, 8}: 0 and 2); each of the 20 documents per topic contains its topic's five words once.
struct PlantedCorpus {
    CsrMatrix counts;
    std::vector<std::vector<int64_t>> words;  // each topic's words
    std::vector<int64_t> topic;               // each document's topic
};

inline PlantedCorpus planted_corpus()
{
    PlantedCorpus c;
    c.words = {{0, 3, 4, 7, 8}, {1, 3, 4, 5, 6}, {2, 5, 6, 7, 8}};
    std::vector<int64_t> row, col;
    for (int64_t d = 0; d < 60; ++d) {
        c.topic.push_back(d % 3);
        for (int64_t w : c.words[static_cast<std::size_t>(d % 3)]) row.push_back(d), col.push_back(w);
    }
    const std::vector<double> ones(row.size(), 1.0);
    c.counts = csr_from_triplets(60, 9, row.data(), col.data(), ones.data(), static_cast<int64_t>(row.size()));
    return c;
}

// Memberships of 60 nodes in 3 communities: node k is pure in community k, the others mixed with every
// membership at least 0.1; A = Theta B Theta^T (dense, as weights).
struct PlantedGraph {
    Matrix theta;
    CsrMatrix A;
};

inline PlantedGraph planted_graph()
{
    const std::size_t n = 60, K = 3;
    PlantedGraph g{xt::zeros<double>({n, K}), {}};
    Rng rng(17);
    for (std::size_t i = 0; i < n; ++i) {
        if (i < K) {
            g.theta(i, i) = 1.0;
            continue;
        }
        double sum = 0.0;
        for (std::size_t k = 0; k < K; ++k) sum += g.theta(i, k) = 0.1 + rng.exponential();
        for (std::size_t k = 0; k < K; ++k) g.theta(i, k) = 0.1 + 0.7 * (g.theta(i, k) - 0.1) / (sum - 0.3);
    }
    const Matrix B = {{0.8, 0.1, 0.05}, {0.1, 0.7, 0.1}, {0.05, 0.1, 0.9}};
    Matrix TB = Matrix::from_shape({n, K}), A = Matrix::from_shape({n, n});
    blas::gemm(false, false, 1.0, g.theta, B, 0.0, TB);
    blas::gemm(false, true, 1.0, TB, g.theta, 0.0, A);
    std::vector<int64_t> row, col;
    std::vector<double> value;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            row.push_back(static_cast<int64_t>(i)), col.push_back(static_cast<int64_t>(j)),
                value.push_back(0.5 * (A(i, j) + A(j, i)));
    g.A = csr_from_triplets(60, 60, row.data(), col.data(), value.data(), static_cast<int64_t>(value.size()));
    return g;
}

}  // namespace facto::test
