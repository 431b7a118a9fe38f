#include <algorithm>
#include <cmath>
#include <numeric>

#include <xtensor/xview.hpp>

#include "base/random.hpp"
#include "data/data.hpp"
#include "base/error.hpp"
#include "linalg/blas.hpp"

namespace facto {

namespace {

void require_sizes(int64_t M, int64_t N, int64_t K)
{
    require(M >= 1 && K >= 1 && N >= K, FACTO_ERROR_INVALID_ARGUMENT,
            "separable data needs M >= 1, K >= 1 and N >= K, got M = " + std::to_string(M) +
                ", N = " + std::to_string(N) + ", K = " + std::to_string(K));
}

void require_snr(double snr_db)
{
    require(!std::isnan(snr_db) && snr_db > -HUGE_VAL, FACTO_ERROR_INVALID_ARGUMENT,
            "snr_db must be a number above -inf (+inf = no noise), got " + value_text(snr_db));
}

// Data with X = W H + noise: the columns permuted at random (H's too), the anchors' new places.
SeparableData permuted(const Matrix& X, Matrix W, const Matrix& H, Rng& rng)
{
    const std::size_t m = X.shape()[0], k = W.shape()[1], n = X.shape()[1];
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
    require_snr(snr_db);
    Rng rng(seed);
    const std::size_t m = static_cast<std::size_t>(M), k = static_cast<std::size_t>(K), n = k + k * (k - 1) / 2;
    Matrix W = uniform_W(M, K, rng);
    Matrix H = xt::zeros<double>({k, n});
    for (std::size_t j = 0; j < k; ++j) H(j, j) = 1.0;
    std::size_t l = k;
    for (std::size_t i = 0; i < k; ++i)
        for (std::size_t j = i + 1; j < k; ++j, ++l) H(i, l) = H(j, l) = 0.5;
    Matrix X({m, n});
    blas::gemm(false, false, 1.0, W, H, 0.0, X);
    // Each midpoint moves away from the mean w of W's columns, x_l += delta (x_l - w), out of the
    // convex hull of W: the adversarial noise of Gillis & Vavasis's middle-points experiment, which
    // Gillis & Luce [30] use (Gaussian noise on the midpoints does not reproduce Fig. 2: SPA then
    // succeeds from 18 dB on); delta sets 10 log10(||W H||^2 / ||noise||^2) to snr_db.
    std::vector<double> mean(m, 0.0);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < k; ++j) mean[i] += W(i, j) / static_cast<double>(k);
    double noise = 0.0;
    for (std::size_t c = k; c < n; ++c)
        for (std::size_t i = 0; i < m; ++i) noise += (X(i, c) - mean[i]) * (X(i, c) - mean[i]);
    const double delta = std::sqrt(blas::frobenius_dot(X, X) / (noise * std::pow(10.0, snr_db / 10.0)));
    for (std::size_t c = k; c < n; ++c)
        for (std::size_t i = 0; i < m; ++i) X(i, c) += delta * (X(i, c) - mean[i]);
    return permuted(X, std::move(W), H, rng);
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
    // Gaussian noise of variance sigma^2 on every entry, SNR = 10 log10(||W H||^2 / (M N sigma^2))
    require_snr(snr_db);
    Matrix X({static_cast<std::size_t>(M), n});
    blas::gemm(false, false, 1.0, W, H, 0.0, X);
    const double sigma = std::sqrt(blas::frobenius_dot(X, X) / (static_cast<double>(X.size()) * std::pow(10.0, snr_db / 10.0)));
    for (double& x : X) x += sigma * rng.normal();
    return permuted(X, std::move(W), H, rng);
}

}  // namespace facto
