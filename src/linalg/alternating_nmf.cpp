#include "linalg/alternating_nmf.hpp"

#include <algorithm>

#include <xtensor/xview.hpp>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/nonnegative_least_squares.hpp"

namespace facto {

namespace {
Matrix gram_of_rows(const Matrix& A)  // A A^T
{
    Matrix G = Matrix::from_shape({A.shape()[0], A.shape()[0]});
    blas::gemm(false, true, 1.0, A, A, 0.0, G);
    return G;
}

bool has_zero_row(const Matrix& A)
{
    for (std::size_t k = 0; k < A.shape()[0]; ++k)
        if (!(xt::amax(xt::row(A, static_cast<std::ptrdiff_t>(k)))() > 0.0)) return true;
    return false;
}
}  // namespace

int alternating_nmf(const CsrMatrix& F, const CsrMatrix& Ft, Matrix& W, Matrix& H, double tolerance, int max_steps,
                    std::size_t threads)
{
    const std::size_t D = static_cast<std::size_t>(F.rows), N = static_cast<std::size_t>(F.cols), K = H.shape()[0];
    require(W.shape()[0] == D && W.shape()[1] == K && H.shape()[1] == N && Ft.rows == F.cols && Ft.cols == F.rows,
            FACTO_ERROR_INTERNAL, "alternating_nmf: shapes do not fit");
    double squares = 0.0;  // ||F||^2
    for (double v : F.values) squares += v * v;
    Matrix Wt = xt::transpose(W), FtW = Matrix::from_shape({N, K}), FHt = Matrix::from_shape({D, K});
    // 1/2 ||F - W H||^2 = 1/2 (||F||^2 - 2 <H F^T, W^T> + <W^T W, H H^T>), B = H F^T, HHt = H H^T
    const auto objective = [&](const Matrix& B, const Matrix& HHt) {
        return 0.5 * (squares - 2.0 * xt::sum(B * Wt)() + xt::sum(gram_of_rows(Wt) * HHt)());
    };
    spmm(F, xt::eval(xt::transpose(H)), FHt, threads);
    double before = objective(xt::transpose(FHt), gram_of_rows(H));
    int steps = 0;
    while (steps < max_steps) {
        const Matrix last_H = H, last_Wt = Wt;
        spmm(Ft, xt::eval(xt::transpose(Wt)), FtW, threads);  // H's sweep: B = W^T F
        nonnegative_least_squares(gram_of_rows(Wt), xt::transpose(FtW), H, 0.0, 1);
        spmm(F, xt::eval(xt::transpose(H)), FHt, threads);  // W's sweep: B = H F^T
        const Matrix B = xt::transpose(FHt), HHt = gram_of_rows(H);
        nonnegative_least_squares(HHt, B, Wt, 0.0, 1);
        if (has_zero_row(H) || has_zero_row(Wt)) {
            H = last_H, Wt = last_Wt;
            break;
        }
        ++steps;
        const double after = objective(B, HHt);
        if (before - after <= tolerance * before) break;
        before = after;
    }
    W = xt::transpose(Wt);
    return steps;
}

}  // namespace facto
