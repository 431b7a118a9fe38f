#include <algorithm>
#include <cmath>

#include <xtensor/xnoalias.hpp>

#include "facto/error.hpp"
#include "facto/metrics.hpp"
#include "linalg/blas.hpp"

namespace facto {

double mrsa(const Matrix& W, const Matrix& W_hat)
{
    const std::size_t m = W.shape()[0], k = W.shape()[1];
    require(W_hat.shape()[0] == m && W_hat.shape()[1] == k && k > 0, FACTO_ERROR_DIMENSION,
            "mrsa: W and W_hat must have the same non-empty shape");
    // angle(i, j) between mean-removed column i of W and column j of W_hat, in [0, 100]
    const auto centred = [m](const Matrix& A, std::size_t j) {
        std::vector<double> v(m);
        double mean = 0.0;
        for (std::size_t i = 0; i < m; ++i) mean += A(i, j) / static_cast<double>(m);
        double norm = 0.0;
        for (std::size_t i = 0; i < m; ++i) norm += (v[i] = A(i, j) - mean) * v[i];
        norm = std::sqrt(norm);
        for (double& x : v) x = norm > 0.0 ? x / norm : 0.0;
        return v;
    };
    Matrix angle({k, k});
    for (std::size_t i = 0; i < k; ++i) {
        const std::vector<double> a = centred(W, i);
        for (std::size_t j = 0; j < k; ++j) {
            const std::vector<double> b = centred(W_hat, j);
            double c = 0.0;
            for (std::size_t t = 0; t < m; ++t) c += a[t] * b[t];
            angle(i, j) = 100.0 / M_PI * std::acos(std::clamp(c, -1.0, 1.0));
        }
    }
    const std::vector<int64_t> match = min_cost_assignment(angle);
    double total = 0.0;
    for (std::size_t i = 0; i < k; ++i) total += angle(i, static_cast<std::size_t>(match[i]));
    return total / static_cast<double>(k);
}

double relative_approximation(const Matrix& X, const Matrix& W_hat, const Matrix& H_hat)
{
    require(W_hat.shape()[0] == X.shape()[0] && H_hat.shape()[1] == X.shape()[1] &&
                W_hat.shape()[1] == H_hat.shape()[0],
            FACTO_ERROR_DIMENSION, "relative_approximation: shapes do not fit");
    Matrix R = X;
    blas::gemm(false, false, -1.0, W_hat, H_hat, 1.0, R);
    return 1.0 - std::sqrt(blas::frobenius_dot(R, R) / blas::frobenius_dot(X, X));
}

}  // namespace facto
