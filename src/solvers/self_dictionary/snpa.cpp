#include "solvers/self_dictionary/snpa.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "sets/row_simplices.hpp"

namespace facto {

namespace {

// Rows of Y projected onto {h >= 0, sum h <= 1}: clipped at 0, or onto the simplex when the clipped
// row sums above 1.
void project_capped(Matrix& Y)
{
    Matrix onto_simplex = Y;
    RowSimplices::project(onto_simplex);
    const std::size_t k = Y.shape()[1];
    for (std::size_t l = 0; l < Y.shape()[0]; ++l) {
        double sum = 0.0;
        for (std::size_t j = 0; j < k; ++j) sum += Y(l, j) = std::max(Y(l, j), 0.0);
        if (sum > 1.0) std::copy(&onto_simplex(l, 0), &onto_simplex(l, 0) + k, &Y(l, 0));
    }
}

}  // namespace

Snpa::Snpa(std::shared_ptr<const SelfDictionary> problem) : GreedyAnchors(std::move(problem), {}) {}

void Snpa::begin(uint64_t)
{
    const auto N = static_cast<std::size_t>(dictionary_->N());
    Ht_ = Matrix::from_shape({N, 0});
    x_norm2_.assign(N, 0.0);
    for (std::size_t l = 0; l < N; ++l) x_norm2_[l] = dictionary_->squared_norm(l);
    norm2_ = x_norm2_;
}

void Snpa::refit(const std::vector<int64_t>& picks)
{
    const auto N = static_cast<std::size_t>(dictionary_->N());
    const std::size_t k = picks.size();
    const Matrix W = dictionary_->points(picks);  // the picks' data points as rows
    Matrix G = Matrix::from_shape({k, k});
    blas::gemm(false, true, 1.0, W, W, 0.0, G);
    const Matrix Bt = dictionary_->products(W, 0, N);  // X^T W
    Matrix spectrum = G;
    Vector lambda;
    blas::symmetric_eigen(spectrum, lambda);
    const double step = lambda(k - 1) > 0.0 ? 1.0 / lambda(k - 1) : 0.0;
    Matrix H = xt::zeros<double>({N, k});  // the previous weights, 0 on the new pick
    for (std::size_t l = 0; l < N && k > 1; ++l) std::copy(&Ht_(l, 0), &Ht_(l, 0) + (k - 1), &H(l, 0));
    Matrix Y = H, gradient = Matrix::from_shape({N, k});
    double t = 1.0;
    for (int iteration = 0; iteration < 100; ++iteration) {  // Nesterov's scheme, constant step 1/L
        blas::gemm(false, false, 1.0, Y, G, 0.0, gradient);
        gradient -= Bt;
        Matrix next = Y - step * gradient;
        project_capped(next);
        const double t_next = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
        Y = next + ((t - 1.0) / t_next) * (next - H);
        H = std::move(next);
        t = t_next;
    }
    Ht_ = std::move(H);
    // ||x_l - W^T h_l||^2 = ||x_l||^2 - 2 h^T b + h^T G h
    Matrix HG = Matrix::from_shape({N, k});
    blas::gemm(false, false, 1.0, Ht_, G, 0.0, HG);
    for (std::size_t l = 0; l < N; ++l)
        norm2_[l] = std::max(0.0, x_norm2_[l] + blas::dot(&Ht_(l, 0), &HG(l, 0), k) -
                                      2.0 * blas::dot(&Ht_(l, 0), &Bt(l, 0), k));
}

int64_t Snpa::pick()
{
    // the largest residual norm; near ties (within 1e-6 relative) go to the larger data point (Gillis's
    // code); a column picked before is never picked again
    auto free = [&](std::size_t l) { return std::find(picks_.begin(), picks_.end(), static_cast<int64_t>(l)) == picks_.end(); };
    double top = 0.0;
    for (std::size_t l = 0; l < norm2_.size(); ++l)
        if (free(l)) top = std::max(top, norm2_[l]);
    std::size_t best = norm2_.size();
    for (std::size_t l = 0; l < norm2_.size(); ++l)
        if (free(l) && norm2_[l] >= (1.0 - 1e-6) * top && (best == norm2_.size() || x_norm2_[l] > x_norm2_[best]))
            best = l;
    std::vector<int64_t> picks = picks_;
    picks.push_back(static_cast<int64_t>(best));
    refit(picks);
    return static_cast<int64_t>(best);
}

double Snpa::residual() const { return 0.5 * std::accumulate(norm2_.begin(), norm2_.end(), 0.0); }

}  // namespace facto
