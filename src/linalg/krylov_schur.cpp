#include "linalg/krylov_schur.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "base/random.hpp"
#include "linalg/blas.hpp"

namespace facto {

namespace {

// w -= V_j V_j^T w against the `rows` basis vectors (the rows of V), repeated while a pass removes more
// than half of what is left (Daniel, Gragg, Kaufman & Stewart's criterion; two passes as a rule, more
// when w lies almost in their span); h receives V_j^T w of the incoming w. Returns ||w|| before and
// after.
std::pair<double, double> orthogonalize(const Matrix& V, std::size_t rows, std::size_t n, double* w,
                                        std::vector<double>& h)
{
    std::vector<double> c(rows);
    std::fill(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(rows), 0.0);
    const double before = std::sqrt(blas::dot(w, w, n));
    double norm = before;
    for (int pass = 0; pass < 5; ++pass) {
        blas::gemm(false, false, rows, 1, n, 1.0, V.data(), n, w, 1, 0.0, c.data(), 1);
        blas::gemm(true, false, n, 1, rows, -1.0, V.data(), n, c.data(), 1, 1.0, w, 1);
        for (std::size_t k = 0; k < rows; ++k) h[k] += c[k];
        const double after = std::sqrt(blas::dot(w, w, n));
        const bool enough = pass >= 1 && after > 0.5 * norm;
        norm = after;
        if (enough) break;
    }
    return {before, norm};
}

// A unit vector orthogonal to the first `rows` rows of V, from Gaussian draws (rows < n).
void fresh_direction(const Matrix& V, std::size_t rows, std::size_t n, Rng& rng, double* w)
{
    std::vector<double> h(rows + 1);
    for (;;) {
        for (std::size_t i = 0; i < n; ++i) w[i] = rng.normal();
        const double norm = orthogonalize(V, rows, n, w, h).second;
        if (norm > 1e-8) {
            for (std::size_t i = 0; i < n; ++i) w[i] /= norm;
            return;
        }
    }
}

}  // namespace

Eigenpairs extreme_eigenpairs(std::size_t n, std::size_t K, const std::function<void(const double*, double*)>& apply,
                              Spectrum which, double tolerance, uint64_t seed, std::size_t basis, int64_t max_products)
{
    require(K >= 1 && K <= n, FACTO_ERROR_DIMENSION,
            "extreme_eigenpairs: K = " + std::to_string(K) + " must be in [1, n = " + std::to_string(n) + "]");
    std::size_t m = basis == 0 ? std::min(n, std::max<std::size_t>(2 * K + 20, 40)) : std::min(basis, n);
    if (m < n) m = std::max(m, K + 1);
    require_memory(8.0 * static_cast<double>(m + 1) * static_cast<double>(n) * 2.0, "the Krylov basis");
    Matrix V = Matrix::from_shape({m + 1, n});  // basis vectors as rows; row m holds the residual
    Matrix S = xt::zeros<double>({m, m});        // V^T A V, built column by column
    std::vector<double> h(m + 1);
    Rng rng(seed);
    fresh_direction(V, 0, n, rng, &V(0, 0));

    Eigenpairs result{Vector::from_shape({K}), Matrix::from_shape({n, K}), 0, false};
    std::size_t kept = 0;  // leading Ritz vectors carried over by the last restart
    Matrix Y;
    Vector theta;
    std::vector<std::size_t> order(m);
    for (;;) {
        // Lanczos steps from column `kept` (full reorthogonalization: S's column j is V_j^T A v_j).
        double beta = 0.0;
        for (std::size_t j = kept; j < m; ++j) {
            double* w = &V(j + 1, 0);
            apply(&V(j, 0), w);
            ++result.products;
            const auto [norm, residual] = orthogonalize(V, j + 1, n, w, h);
            for (std::size_t i = 0; i <= j; ++i) S(i, j) = S(j, i) = h[i];
            beta = residual;
            if (j + 1 == n || beta <= 1e-12 * norm) {
                // an invariant subspace: the next vector starts a new Krylov space, uncoupled
                beta = 0.0;
                if (j + 1 < std::min(m, n)) fresh_direction(V, j + 1, n, rng, w);
            } else {
                for (std::size_t i = 0; i < n; ++i) w[i] /= beta;
            }
        }
        // Rayleigh-Ritz on S; the residual of Ritz pair (theta_i, V^T y_i) is beta |y_i(m - 1)|.
        Y = S;
        blas::symmetric_eigen(Y, theta);
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return which == Spectrum::LargestAlgebraic ? theta(a) > theta(b) : std::abs(theta(a)) > std::abs(theta(b));
        });
        double scale = std::numeric_limits<double>::min();
        for (std::size_t i = 0; i < m; ++i) scale = std::max(scale, std::abs(theta(i)));
        bool converged = true;
        for (std::size_t i = 0; i < K; ++i)
            converged = converged && beta * std::abs(Y(order[i], m - 1)) <= tolerance * scale;
        const std::size_t keep = std::min(m - 1, K + (m - K) / 2);
        if (converged || result.products >= max_products || m == n || keep == 0) {
            result.converged = converged || m == n;
            for (std::size_t i = 0; i < K; ++i) {
                result.values(i) = theta(order[i]);
                for (std::size_t r = 0; r < n; ++r) {
                    double sum = 0.0;
                    for (std::size_t l = 0; l < m; ++l) sum += Y(order[i], l) * V(l, r);
                    result.vectors(r, i) = sum;
                }
            }
            return result;
        }
        // Krylov-Schur restart: V_keep = Y_keep V, S = diag(theta_keep) bordered by beta Y_keep(:, m - 1).
        Matrix Ykeep = Matrix::from_shape({keep, m});
        for (std::size_t i = 0; i < keep; ++i)
            for (std::size_t l = 0; l < m; ++l) Ykeep(i, l) = Y(order[i], l);
        Matrix Vkeep = Matrix::from_shape({keep, n});
        blas::gemm(false, false, keep, n, m, 1.0, Ykeep.data(), m, V.data(), n, 0.0, Vkeep.data(), n);
        std::copy(&V(m, 0), &V(m, 0) + n, &V(keep, 0));
        std::copy(Vkeep.begin(), Vkeep.end(), V.begin());
        S.fill(0.0);
        for (std::size_t i = 0; i < keep; ++i) {
            S(i, i) = theta(order[i]);
            S(i, keep) = S(keep, i) = beta * Ykeep(i, m - 1);
        }
        kept = keep;
    }
}

}  // namespace facto
