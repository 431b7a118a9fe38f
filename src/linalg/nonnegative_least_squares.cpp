#include "linalg/nonnegative_least_squares.hpp"

#include <algorithm>
#include <cmath>

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
    const double start = projected_gradient_norm(G, B, H);
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
        if (projected_gradient_norm(G, B, H) <= tolerance * start) break;
    }
    return sweeps;
}

}  // namespace facto
