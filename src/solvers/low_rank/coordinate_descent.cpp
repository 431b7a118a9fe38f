#include "solvers/low_rank/coordinate_descent.hpp"

#include <vector>

#include "linalg/blas.hpp"
#include "linalg/polynomial.hpp"

namespace facto {

CoordinateDescent::CoordinateDescent(std::shared_ptr<const SymNMF> problem) : SymNMFSolver(std::move(problem), {}) {}

// Moves x_i1 ... x_ir in turn; XtX and mx_row (row i of M X) are kept current.
void CoordinateDescent::update_row(std::size_t i, Matrix& XtX, double* mx_row)
{
    const std::size_t r = X_.shape()[1];
    double* x = &X_(i, 0);
    const double m_ii = symnmf_->M().diagonal(static_cast<int64_t>(i));
    double row_norm2 = 0.0;
    for (std::size_t k = 0; k < r; ++k) row_norm2 += x[k] * x[k];
    for (std::size_t k = 0; k < r; ++k) {
        double x_xtx = 0.0;  // (X X^T X)_ik
        for (std::size_t l = 0; l < r; ++l) x_xtx += x[l] * XtX(l, k);
        const double rx = mx_row[k] - x_xtx;  // (R X)_ik
        const double xk = x[k];
        const double p = XtX(k, k) + xk * xk - (m_ii - row_norm2);
        const double y = argmin_depressed_quartic_nonnegative(p - 3.0 * xk * xk, 2.0 * xk * xk * xk - p * xk - rx);
        const double s = y - xk;
        if (s == 0.0) continue;
        for (std::size_t l = 0; l < r; ++l)
            if (l != k) {
                XtX(k, l) += s * x[l];
                XtX(l, k) = XtX(k, l);
            }
        XtX(k, k) += s * (2.0 * xk + s);
        row_norm2 += s * (2.0 * xk + s);
        mx_row[k] += m_ii * s;
        x[k] = y;
    }
}

double CoordinateDescent::iterate_once()
{
    const std::size_t n = X_.shape()[0], r = X_.shape()[1];
    Matrix XtX = eval_.second;  // exact at the start of each sweep
    std::vector<double> mx_row(r);
    for (std::size_t i = 0; i < n; ++i) {
        symnmf_->M().multiply_row(static_cast<int64_t>(i), X_, mx_row.data());
        update_row(i, XtX, mx_row.data());
    }
    measure();
    return 1.0;
}

}  // namespace facto
