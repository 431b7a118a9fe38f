#include "linalg/nonnegative_least_squares.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "base/error.hpp"
#include "linalg/blas.hpp"

namespace facto {

double projected_gradient_norm(const Matrix& G, const Matrix& B, const Matrix& H)
{
    Matrix gradient = B;
    blas::gemm(false, false, 1.0, G, H, -1.0, gradient);
    double sum = 0.0;
    for (std::size_t e = 0; e < H.size(); ++e) {
        const double g = H.data()[e] > 0.0 ? gradient.data()[e] : std::min(gradient.data()[e], 0.0);
        sum += g * g;
    }
    return std::sqrt(sum);
}

int nonnegative_least_squares(const Matrix& G, const Matrix& B, Matrix& H, double tolerance, int max_sweeps)
{
    const std::size_t K = G.shape()[0], N = B.shape()[1];
    require(G.shape()[1] == K && B.shape()[0] == K && H.shape()[0] == K && H.shape()[1] == N, FACTO_ERROR_INTERNAL,
            "nonnegative_least_squares: shapes do not fit");
    const double start = tolerance > 0.0 ? projected_gradient_norm(G, B, H) : 0.0;
    int sweeps = 0;
    while (sweeps < max_sweeps) {
        ++sweeps;
        for (std::size_t k = 0; k < K; ++k) {
            double* h = &H(k, 0);
            if (!(G(k, k) > 0.0)) {
                std::fill(h, h + N, 0.0);
                continue;
            }
            // Cichocki & Phan's row update, with the row's own term folded back in
            for (std::size_t n = 0; n < N; ++n) {
                double residual = B(k, n);
                for (std::size_t l = 0; l < K; ++l) residual -= G(k, l) * H(l, n);
                h[n] = std::max(0.0, h[n] + residual / G(k, k));
            }
        }
        if (tolerance > 0.0 && projected_gradient_norm(G, B, H) <= tolerance * start) break;
    }
    return sweeps;
}

namespace {

// The state of block principal pivoting, column by column (column j of H in x[j K ...], its gradient
// G x - B in y[j K ...], its passive set in passive[j K ...]).
struct PivotingState {
    std::size_t K;
    std::vector<double> x, y;
    std::vector<uint8_t> passive;
    std::vector<uint8_t> fixed_zero;  // rows with G(k, k) = 0
    bool singular = false;
};

// x_F := G_FF^{-1} B_F, x_G := 0 and y := G x - B for the columns in `columns`, grouped by passive set
// so that each group factors G_FF once (Kim & Park 2011, Sec. 4.2).
void solve_passive(const Matrix& G, const Matrix& B, PivotingState& s, std::vector<std::size_t> columns)
{
    const std::size_t K = s.K;
    const auto set_of = [&](std::size_t j) { return s.passive.begin() + static_cast<std::ptrdiff_t>(j * K); };
    std::sort(columns.begin(), columns.end(), [&](std::size_t a, std::size_t b) {
        return std::lexicographical_compare(set_of(a), set_of(a) + static_cast<std::ptrdiff_t>(K), set_of(b),
                                            set_of(b) + static_cast<std::ptrdiff_t>(K));
    });
    std::vector<std::size_t> F;
    std::vector<double> G_FF, rhs;
    for (std::size_t begin = 0; begin < columns.size();) {
        std::size_t end = begin + 1;
        while (end < columns.size() && std::equal(set_of(columns[begin]), set_of(columns[begin]) + static_cast<std::ptrdiff_t>(K),
                                                  set_of(columns[end])))
            ++end;
        F.clear();
        for (std::size_t k = 0; k < K; ++k)
            if (s.passive[columns[begin] * K + k]) F.push_back(k);
        const std::size_t f = F.size(), group = end - begin;
        G_FF.resize(f * f);
        rhs.resize(f * group);
        for (std::size_t a = 0; a < f; ++a)
            for (std::size_t b = 0; b < f; ++b) G_FF[a * f + b] = G(F[a], F[b]);
        for (std::size_t c = 0; c < group; ++c)
            for (std::size_t a = 0; a < f; ++a) rhs[c * f + a] = B(F[a], columns[begin + c]);
        if (f > 0 && !blas::solve_positive_definite(G_FF.data(), f, rhs.data(), group)) s.singular = true;
        for (std::size_t c = 0; c < group; ++c) {
            const std::size_t j = columns[begin + c];
            double* x = &s.x[j * K];
            std::fill(x, x + K, 0.0);
            for (std::size_t a = 0; a < f; ++a) x[F[a]] = rhs[c * f + a];
            for (std::size_t k = 0; k < K; ++k)
                s.y[j * K + k] = s.passive[j * K + k] ? 0.0 : blas::dot(&G(k, 0), x, K) - B(k, j);
        }
        begin = end;
    }
}

// V := the indices of column j that break the optimality conditions: x_k < 0 on F, y_k < 0 off F
// (below -`slack`, the rounding of y = G x - B).
void infeasible(const PivotingState& s, std::size_t j, double slack, std::vector<std::size_t>& V)
{
    V.clear();
    for (std::size_t k = 0; k < s.K; ++k) {
        if (s.fixed_zero[k]) continue;
        const bool bad = s.passive[j * s.K + k] ? s.x[j * s.K + k] < 0.0 : s.y[j * s.K + k] < -slack;
        if (bad) V.push_back(k);
    }
}

}  // namespace

int nonnegative_least_squares_exact(const Matrix& G, const Matrix& B, Matrix& H)
{
    const std::size_t K = G.shape()[0], N = B.shape()[1];
    require(G.shape()[1] == K && B.shape()[0] == K && H.shape()[0] == K && H.shape()[1] == N, FACTO_ERROR_INTERNAL,
            "nonnegative_least_squares_exact: shapes do not fit");
    PivotingState s{K, std::vector<double>(K * N), std::vector<double>(K * N), std::vector<uint8_t>(K * N),
                    std::vector<uint8_t>(K), false};
    double scale = 0.0;  // the size of G x and B, for the rounding slack of y
    for (std::size_t k = 0; k < K; ++k) {
        s.fixed_zero[k] = !(G(k, k) > 0.0);
        scale = std::max(scale, G(k, k));
    }
    for (std::size_t j = 0; j < N; ++j)
        for (std::size_t k = 0; k < K; ++k) s.passive[j * K + k] = !s.fixed_zero[k] && H(k, j) > 0.0;
    std::vector<std::size_t> all(N);
    std::iota(all.begin(), all.end(), std::size_t{0});
    solve_passive(G, B, s, all);

    // Kim & Park's counters per column: alpha rounds of full exchange left, beta the fewest infeasible seen
    std::vector<int> alpha(N, 3);
    std::vector<std::size_t> beta(N, K + 1);
    std::vector<std::size_t> changed, V;
    int rounds = 0;
    const int max_rounds = static_cast<int>(10 * K) + 100;  // finite in exact arithmetic; rounding can cycle
    for (; rounds < max_rounds && !s.singular; ++rounds) {
        changed.clear();
        for (std::size_t j = 0; j < N; ++j) {
            double column_scale = scale * std::sqrt(blas::dot(&s.x[j * K], &s.x[j * K], K));
            for (std::size_t k = 0; k < K; ++k) column_scale = std::max(column_scale, std::fabs(B(k, j)));
            infeasible(s, j, 1e-12 * column_scale, V);
            if (V.empty()) continue;
            bool all_of_them = true;  // Kim & Park 2011, Alg. 2: the exchange rule
            if (V.size() < beta[j]) {
                beta[j] = V.size();
                alpha[j] = 3;
            } else if (alpha[j] > 0) {
                --alpha[j];
            } else {
                all_of_them = false;  // the backup rule: only the largest infeasible index
            }
            if (all_of_them)
                for (std::size_t k : V) s.passive[j * K + k] ^= 1;
            else
                s.passive[j * K + V.back()] ^= 1;
            changed.push_back(j);
        }
        if (changed.empty()) break;
        solve_passive(G, B, s, changed);
    }
    for (std::size_t j = 0; j < N; ++j)
        for (std::size_t k = 0; k < K; ++k) H(k, j) = std::max(s.x[j * K + k], 0.0);
    if (s.singular || rounds == max_rounds) nonnegative_least_squares(G, B, H, 1e-12, 1000);
    return rounds;
}

}  // namespace facto
