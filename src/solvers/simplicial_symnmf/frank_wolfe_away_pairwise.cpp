// The away-step and pairwise variants of Frank-Wolfe for simplicial SymNMF (facto/frank_wolfe.hpp):
// per-row directions over the product of simplices, the rows in turn, each with its own exact step.
#include <algorithm>
#include <cmath>

#include <xtensor/xnoalias.hpp>

#include "solvers/simplicial_symnmf/frank_wolfe.hpp"
#include "linalg/parallel.hpp"
#include "linalg/polynomial.hpp"

namespace facto {

double FrankWolfe::row_step(std::size_t i, const double* g, const double* pw, BlockDirection& choice, double* d) const
{
    const std::size_t k = point_.W.shape()[1];
    const double* w = &point_.W(i, 0);
    const SimplexVertices v = simplex_vertices(g, w, k);
    const std::size_t s = v.s, a = v.a;
    choice = block_direction(variant_, static_cast<int64_t>(s), static_cast<int64_t>(a), g[s], g[a], v.g_w, w[a]);
    if (choice.kind == BlockDirection::none) return 0.0;
    // toward e_s - w, away w - e_a, pairwise e_s - e_a
    for (std::size_t j = 0; j < k; ++j)
        d[j] = choice.kind == BlockDirection::toward ? -w[j] : choice.kind == BlockDirection::away ? w[j] : 0.0;
    if (choice.kind != BlockDirection::away) d[s] += 1.0;
    if (choice.kind != BlockDirection::toward) d[a] -= 1.0;
    // the exact minimizer of the row's quartic on [0, max_step], by scaling gamma = max_step t
    const Quartic q = symnmf_->along_row(i, w, d, pw, point_.WtW, point_.f);
    const double m = choice.max_step;
    return m * minimize_quartic_on_unit_interval(q.c1 * m, q.c2 * m * m, q.c3 * m * m * m, q.c4 * m * m * m * m);
}

namespace {
// w += scale d; a drop step (`dropped`: the whole away weight moved) zeroes the away entry exactly, and
// rounding never leaves a negative entry.
void move_row(double* w, const double* d, std::size_t k, double scale, bool dropped, const BlockDirection& choice)
{
    for (std::size_t j = 0; j < k; ++j) w[j] = std::max(w[j] + scale * d[j], 0.0);
    if (dropped && choice.kind != BlockDirection::toward) w[choice.a] = 0.0;
}
}  // namespace

double FrankWolfe::sweep_rows()
{
    Matrix& W = point_.W;
    Matrix& A = point_.WtW;
    const Matrix& P = symnmf_->P();
    const std::size_t n = W.shape()[0], k = W.shape()[1];
    const std::size_t threads = resolve_threads(common().threads);
    xt::noalias(work_) = xt::transpose(point_.PW);  // (P W)^T, k x n: brought up to date after each chunk
    std::vector<double> g(k), pw(k), d(k);
    double largest = 0.0;
    // Rows go in chunks of kChunk. Within a chunk, row i's P W row is (P W)^T's column i plus the moves
    // of the chunk's earlier rows j, sum_j P(i, j) gamma_j d_j; after the chunk, every row of (P W)^T
    // takes the chunk's moves in one pass over the chunk's rows of P, split over threads by columns (so
    // each entry is summed in the same order whatever the thread count).
    constexpr std::size_t kChunk = 256;
    Matrix moves({kChunk, k});  // gamma_j d_j of the chunk's rows
    for (std::size_t c0 = 0; c0 < n; c0 += kChunk) {
        const std::size_t c1 = std::min(n, c0 + kChunk);
        moves.fill(0.0);
        bool moved = false;
        for (std::size_t i = c0; i < c1; ++i) {
            double* w = &W(i, 0);
            const double* p = &P(i, 0);
            for (std::size_t j = 0; j < k; ++j) {
                pw[j] = work_(j, i);
                for (std::size_t e = c0; e < i; ++e) pw[j] += p[e] * moves(e - c0, j);
            }
            for (std::size_t j = 0; j < k; ++j) {
                g[j] = -pw[j];
                for (std::size_t l = 0; l < k; ++l) g[j] += A(j, l) * w[l];  // row i of eq. (7) at the current W
            }
            BlockDirection choice;
            const double gamma = row_step(i, g.data(), pw.data(), choice, d.data());
            if (!(gamma > 0.0)) continue;
            // W^T W += gamma (w d^T + d w^T) + gamma^2 d d^T; P W += gamma P(:, i) d^T after the chunk
            for (std::size_t j = 0; j < k; ++j)
                for (std::size_t l = 0; l < k; ++l) A(j, l) += gamma * (w[j] * d[l] + d[j] * w[l] + gamma * d[j] * d[l]);
            for (std::size_t j = 0; j < k; ++j) moves(i - c0, j) = gamma * d[j];
            move_row(w, d.data(), k, gamma, gamma == choice.max_step, choice);
            largest = std::max(largest, gamma);
            moved = true;
        }
        if (moved) symnmf_->add_rows(c0, c1 - c0, moves, work_, threads);
    }
    // P W follows the rows' moves to rounding; a GEMM every 16 sweeps keeps the drift from accumulating
    if (++since_exact_ >= 16) {
        symnmf_->multiply(W, point_.PW);
        since_exact_ = 0;
    } else {
        xt::noalias(point_.PW) = xt::transpose(work_);
    }
    point_.refresh(*symnmf_);
    return largest;
}

}  // namespace facto
