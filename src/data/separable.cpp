#include <algorithm>
#include <cmath>
#include <numeric>

#include <xtensor/xview.hpp>

#include "data/random.hpp"
#include "facto/data.hpp"
#include "facto/error.hpp"
#include "linalg/blas.hpp"

namespace facto {

namespace {

void require_sizes(int64_t M, int64_t N, int64_t K)
{
    require(M >= 1 && K >= 1 && N >= K, FACTO_ERROR_INVALID_ARGUMENT,
            "separable data needs M >= 1, K >= 1 and N >= K, got M = " + std::to_string(M) +
                ", N = " + std::to_string(N) + ", K = " + std::to_string(K));
}

// X = W H + noise on the columns from `noisy_from`, at snr_db; then a random permutation of the
// columns (applied to H too) and the anchors' new places.
SeparableData finish(Matrix W, Matrix H, std::size_t noisy_from, double snr_db, Rng& rng)
{
    require(!std::isnan(snr_db) && snr_db > -HUGE_VAL, FACTO_ERROR_INVALID_ARGUMENT, "snr_db must be a number (+inf = no noise)");
    const std::size_t m = W.shape()[0], k = W.shape()[1], n = H.shape()[1];
    Matrix X({m, n});
    blas::gemm(false, false, 1.0, W, H, 0.0, X);
    const double signal = blas::frobenius_dot(X, X);
    const double sigma = std::sqrt(signal / (static_cast<double>(m * n) * std::pow(10.0, snr_db / 10.0)));
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t l = noisy_from; l < n; ++l) X(i, l) += sigma * rng.normal();
    std::vector<std::size_t> place(n);  // column l goes to place[l] (Fisher-Yates)
    std::iota(place.begin(), place.end(), 0);
    for (std::size_t l = n - 1; l > 0; --l)
        std::swap(place[l], place[static_cast<std::size_t>(rng.uniform() * static_cast<double>(l + 1))]);
    SeparableData data{Matrix({m, n}), std::move(W), Matrix({k, n}), {}};
    for (std::size_t l = 0; l < n; ++l) {
        xt::view(data.X, xt::all(), place[l]) = xt::view(X, xt::all(), l);
        xt::view(data.H, xt::all(), place[l]) = xt::view(H, xt::all(), l);
    }
    for (std::size_t j = 0; j < k; ++j) data.anchors.push_back(static_cast<int64_t>(place[j]));
    std::sort(data.anchors.begin(), data.anchors.end());
    return data;
}

Matrix uniform_W(int64_t M, int64_t K, Rng& rng)
{
    Matrix W({static_cast<std::size_t>(M), static_cast<std::size_t>(K)});
    for (double& w : W) w = rng.uniform();
    return W;
}

}  // namespace

SeparableData separable_midpoints(int64_t M, int64_t K, double snr_db, uint64_t seed)
{
    require_sizes(M, K, K);
    Rng rng(seed);
    const std::size_t k = static_cast<std::size_t>(K), n = k + k * (k - 1) / 2;
    Matrix W = uniform_W(M, K, rng);
    Matrix H = xt::zeros<double>({k, n});
    for (std::size_t j = 0; j < k; ++j) H(j, j) = 1.0;
    std::size_t l = k;
    for (std::size_t i = 0; i < k; ++i)
        for (std::size_t j = i + 1; j < k; ++j, ++l) H(i, l) = H(j, l) = 0.5;
    return finish(std::move(W), std::move(H), k, snr_db, rng);
}

SeparableData separable_dirichlet(int64_t M, int64_t N, int64_t K, double snr_db, uint64_t seed)
{
    require_sizes(M, N, K);
    Rng rng(seed);
    const std::size_t k = static_cast<std::size_t>(K), n = static_cast<std::size_t>(N);
    Matrix W = uniform_W(M, K, rng);
    Matrix H = xt::zeros<double>({k, n});
    for (std::size_t j = 0; j < k; ++j) H(j, j) = 1.0;
    for (std::size_t l = k; l < n; ++l) {  // Dirichlet(1): normalized exponentials
        double sum = 0.0;
        for (std::size_t j = 0; j < k; ++j) sum += H(j, l) = rng.exponential();
        for (std::size_t j = 0; j < k; ++j) H(j, l) /= sum;
    }
    return finish(std::move(W), std::move(H), 0, snr_db, rng);
}

}  // namespace facto
