#include "sets/spectraplex.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "linalg/blas.hpp"
#include "sets/row_simplices.hpp"

namespace facto {

namespace {
double mean(const double* x, std::size_t n)
{
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += x[i];
    return sum / static_cast<double>(n);
}
}  // namespace

std::function<void(const double*, double*)>
Spectraplex::on_complement(std::size_t n, const std::function<void(const double*, double*)>& product_with, double shift)
{
    return [n, product_with, shift, centred = std::vector<double>(n), product = std::vector<double>(n)](
               const double* x, double* y) mutable {
        const double centre = mean(x, n);
        for (std::size_t i = 0; i < n; ++i) centred[i] = x[i] - centre;
        product_with(centred.data(), product.data());
        const double back = mean(product.data(), n);
        for (std::size_t i = 0; i < n; ++i) y[i] = product[i] - back + shift * centre;
    };
}

Eigenpair Spectraplex::linear_minimizer(const std::function<void(const double*, double*)>& product_with, double norm,
                                        std::vector<double>& v, double accuracy) const
{
    const std::size_t n = v.size();
    const auto apply = on_complement(n, product_with, norm);
    double centre = mean(v.data(), n);  // start orthogonal to 1
    for (double& x : v) x -= centre;
    const Eigenpair pair = smallest_eigenpair(n, apply, v, accuracy, lanczos_steps_);
    // the eigenvector stays in 1^T v = 0 up to rounding; remove what is left
    centre = mean(v.data(), n);
    for (double& x : v) x -= centre;
    const double length = std::sqrt(blas::dot(v.data(), v.data(), n));
    for (double& x : v) x /= length;
    return pair;
}

std::size_t Spectraplex::project(const Matrix& A, double trace, Matrix& P)
{
    const std::size_t n = A.shape()[0];
    P = Matrix({n, n}, 0.0);
    if (!(trace > 0.0)) return 0;
    // B = J A J - c E: the eigenvector 1 of J A J (eigenvalue 0) moved to -c, below every eigenvalue the
    // simplex keeps (its threshold is at least lambda_min - trace, and lambda_min >= -max row sum of |B|)
    std::vector<double> row(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) row[i] = mean(&A(i, 0), n);
    const double all = mean(row.data(), n);
    Matrix B({n, n});
    double widest = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        double width = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            B(i, j) = 0.5 * (A(i, j) + A(j, i)) - row[i] - row[j] + all;
            width += std::fabs(B(i, j));
        }
        widest = std::max(widest, width);
    }
    const double shift = (trace + 2.0 * widest + 1.0) / static_cast<double>(n);
    for (double& b : B) b -= shift;
    Vector eigenvalues;
    blas::symmetric_eigen(B, eigenvalues);
    // the eigenvalues projected onto { x >= 0, sum x = trace }
    Matrix x({std::size_t{1}, n});
    for (std::size_t k = 0; k < n; ++k) x(0, k) = eigenvalues(k) / trace;
    RowSimplices::project(x);
    // P = sum_k x_k v_k v_k^T = W^T W, W's rows sqrt(x_k) v_k
    std::vector<std::size_t> kept;
    for (std::size_t k = 0; k < n; ++k)
        if (x(0, k) > 0.0) kept.push_back(k);
    Matrix W({kept.size(), n});
    for (std::size_t r = 0; r < kept.size(); ++r) {
        const double scale = std::sqrt(trace * x(0, kept[r]));
        for (std::size_t j = 0; j < n; ++j) W(r, j) = scale * B(kept[r], j);
    }
    if (!kept.empty()) blas::gemm(true, false, 1.0, W, W, 0.0, P);
    return kept.size();
}

}  // namespace facto
