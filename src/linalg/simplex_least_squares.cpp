#include <algorithm>
#include <cmath>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "facto/row_simplices.hpp"
#include "facto/self_dictionary.hpp"
#include "linalg/blas.hpp"

namespace facto {

Matrix simplex_least_squares(const Matrix& Xt, const std::vector<int64_t>& selected)
{
    const std::size_t n = Xt.shape()[0], m = Xt.shape()[1], k = selected.size();
    Matrix Ht = xt::ones<double>({n, k}) / static_cast<double>(std::max<std::size_t>(k, 1));
    if (k == 0) return Ht;
    Matrix Wt({k, m});
    for (std::size_t i = 0; i < k; ++i)
        std::copy(&Xt(static_cast<std::size_t>(selected[i]), 0), &Xt(static_cast<std::size_t>(selected[i]), 0) + m, &Wt(i, 0));
    Matrix gram({k, k}), B({n, k});
    blas::gemm(false, true, 1.0, Wt, Wt, 0.0, gram);  // W^T W
    blas::gemm(false, true, 1.0, Xt, Wt, 0.0, B);     // (W^T X)^T
    Matrix eigenvectors = gram;
    Vector eigenvalues;
    blas::symmetric_eigen(eigenvectors, eigenvalues);
    const double L = eigenvalues(k - 1);  // Lipschitz constant of the gradient H -> W^T (W H - X)
    if (!(L > 0.0)) return Ht;
    // FISTA on H^T: Y - (Y W^T W - X^T W) / L projected row by row onto the simplex, restarted
    // whenever the momentum points uphill (O'Donoghue & Candes' gradient restart)
    Matrix Y = Ht, next(Ht.shape()), step(Ht.shape()), back(Ht.shape());
    double t = 1.0;
    for (int it = 0; it < 5000; ++it) {
        xt::noalias(step) = B;
        blas::gemm(false, false, 1.0, Y, gram, -1.0, step);  // gradient at Y: Y gram - B
        xt::noalias(next) = Y - step / L;
        project_rows_onto_simplex(next);
        xt::noalias(step) = next - Ht;  // the move, reusing the gradient's buffer
        const double moved = blas::frobenius_dot(step, step), size = blas::frobenius_dot(next, next);
        xt::noalias(back) = Y - next;
        if (blas::frobenius_dot(back, step) > 0.0) {  // uphill: restart
            t = 1.0;
            xt::noalias(Y) = next;
        } else {
            const double t_next = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
            xt::noalias(Y) = next + ((t - 1.0) / t_next) * step;
            t = t_next;
        }
        std::swap(Ht, next);
        if (moved <= 1e-20 * size) break;
    }
    return Ht;
}

}  // namespace facto
