#include <algorithm>
#include <cmath>

#include "base/error.hpp"
#include "metrics/metrics.hpp"
#include "linalg/blas.hpp"

namespace facto {

double mrsa(const Matrix& W, const Matrix& W_hat)
{
    const std::size_t m = W.shape()[0], k = W.shape()[1];
    require(W_hat.shape()[0] == m && W_hat.shape()[1] == k && k > 0, FACTO_ERROR_DIMENSION,
            "mrsa: W and W_hat must have the same non-empty shape");
    // the columns of A mean-removed and normalized, as rows
    const auto centred = [m, k](const Matrix& A) {
        Matrix C({k, m});
        for (std::size_t j = 0; j < k; ++j) {
            double mean = 0.0, norm = 0.0;
            for (std::size_t i = 0; i < m; ++i) mean += A(i, j) / static_cast<double>(m);
            for (std::size_t i = 0; i < m; ++i) {
                C(j, i) = A(i, j) - mean;
                norm += C(j, i) * C(j, i);
            }
            norm = std::sqrt(norm);
            for (std::size_t i = 0; i < m; ++i) C(j, i) = norm > 0.0 ? C(j, i) / norm : 0.0;
        }
        return C;
    };
    // angle(i, j) between column i of W and column j of W_hat, in [0, 100]
    Matrix angle({k, k});
    blas::gemm(false, true, 1.0, centred(W), centred(W_hat), 0.0, angle);
    for (double& a : angle) a = 100.0 / M_PI * std::acos(std::clamp(a, -1.0, 1.0));
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
