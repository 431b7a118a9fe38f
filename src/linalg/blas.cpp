#include "linalg/blas.hpp"

#include <cblas.h>

#include "facto/error.hpp"

namespace facto::blas {

namespace {
blasint as_int(std::size_t v) { return static_cast<blasint>(v); }
}  // namespace

void gemm(bool trans_a, bool trans_b, double alpha, const Matrix& A, const Matrix& B, double beta, Matrix& C)
{
    const std::size_t m = trans_a ? A.shape()[1] : A.shape()[0];
    const std::size_t k = trans_a ? A.shape()[0] : A.shape()[1];
    const std::size_t kb = trans_b ? B.shape()[1] : B.shape()[0];
    const std::size_t n = trans_b ? B.shape()[0] : B.shape()[1];
    require(k == kb && C.shape()[0] == m && C.shape()[1] == n, FACTO_ERROR_INTERNAL, "gemm: shapes do not fit");
    if (m == 0 || n == 0) return;
    cblas_dgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
                as_int(m), as_int(n), as_int(k), alpha, A.data(), as_int(A.shape()[1]), B.data(),
                as_int(B.shape()[1]), beta, C.data(), as_int(C.shape()[1]));
}

void gram(const Matrix& A, Matrix& C)
{
    const std::size_t n = A.shape()[0], k = A.shape()[1];
    require(C.shape()[0] == k && C.shape()[1] == k, FACTO_ERROR_INTERNAL, "gram: shapes do not fit");
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, as_int(k), as_int(n), 1.0, A.data(), as_int(k), 0.0,
                C.data(), as_int(k));
    for (std::size_t i = 0; i < k; ++i)
        for (std::size_t j = 0; j < i; ++j) C(i, j) = C(j, i);
}

void gemv(const Matrix& A, const Vector& x, Vector& y)
{
    require(A.shape()[1] == x.size() && A.shape()[0] == y.size(), FACTO_ERROR_INTERNAL, "gemv: shapes do not fit");
    cblas_dgemv(CblasRowMajor, CblasNoTrans, as_int(A.shape()[0]), as_int(A.shape()[1]), 1.0, A.data(),
                as_int(A.shape()[1]), x.data(), 1, 0.0, y.data(), 1);
}

double frobenius_dot(const Matrix& A, const Matrix& B)
{
    require(A.size() == B.size(), FACTO_ERROR_INTERNAL, "frobenius_dot: sizes differ");
    return cblas_ddot(as_int(A.size()), A.data(), 1, B.data(), 1);
}

}  // namespace facto::blas
