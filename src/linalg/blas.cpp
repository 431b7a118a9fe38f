#include "linalg/blas.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/error.hpp"

extern "C" void dsyev_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
                       double* work, const int* lwork, int* info, std::size_t jobz_len, std::size_t uplo_len);

extern "C" void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
                        double* work, const int* lwork, int* iwork, const int* liwork, int* info, std::size_t jobz_len,
                        std::size_t uplo_len);

extern "C" void dsytrd_(const char* uplo, const int* n, double* a, const int* lda, double* d, double* e, double* tau,
                        double* work, const int* lwork, int* info, std::size_t uplo_len);

extern "C" void dsterf_(const int* n, double* d, double* e, int* info);

extern "C" void dposv_(const char* uplo, const int* n, const int* nrhs, double* a, const int* lda, double* b,
                       const int* ldb, int* info, std::size_t uplo_len);

extern "C" void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv, double* b, const int* ldb,
                       int* info);

extern "C" void dgesvd_(const char* jobu, const char* jobvt, const int* m, const int* n, double* a, const int* lda,
                        double* s, double* u, const int* ldu, double* vt, const int* ldvt, double* work,
                        const int* lwork, int* info, std::size_t jobu_len, std::size_t jobvt_len);

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
    gemm(trans_a, trans_b, m, n, k, alpha, A.data(), A.shape()[1], B.data(), B.shape()[1], beta, C.data(),
         C.shape()[1]);
}

void gemm(bool trans_a, bool trans_b, std::size_t m, std::size_t n, std::size_t k, double alpha, const double* A,
          std::size_t lda, const double* B, std::size_t ldb, double beta, double* C, std::size_t ldc)
{
    if (m == 0 || n == 0) return;
    cblas_dgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
                as_int(m), as_int(n), as_int(k), alpha, A, as_int(lda), B, as_int(ldb), beta, C, as_int(ldc));
}

void syrk_upper(const Matrix& A, Matrix& C)
{
    const std::size_t n = A.shape()[0], k = A.shape()[1];
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, as_int(k), as_int(n), 1.0, A.data(), as_int(k), 0.0,
                C.data(), as_int(k));
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

bool solve_positive_definite(double* A, std::size_t n, double* B, std::size_t nrhs)
{
    if (n <= kSmallSystem) {
        // Cholesky A = L L^T in A's lower triangle, row-major (LAPACK's upper factor, column-major):
        // below this size OpenBLAS's call costs more than the arithmetic and takes a lock that threads
        // solving many small systems at once queue on.
        for (std::size_t j = 0; j < n; ++j) {
            double d = A[j * n + j];
            for (std::size_t k = 0; k < j; ++k) d -= A[j * n + k] * A[j * n + k];
            if (!(d > 0.0)) return false;
            d = A[j * n + j] = std::sqrt(d);
            for (std::size_t i = j + 1; i < n; ++i) {
                double v = A[i * n + j];
                for (std::size_t k = 0; k < j; ++k) v -= A[i * n + k] * A[j * n + k];
                A[i * n + j] = v / d;
            }
        }
        for (std::size_t c = 0; c < nrhs; ++c) {
            double* b = B + c * n;
            for (std::size_t i = 0; i < n; ++i) {  // L y = b
                for (std::size_t k = 0; k < i; ++k) b[i] -= A[i * n + k] * b[k];
                b[i] /= A[i * n + i];
            }
            for (std::size_t i = n; i-- > 0;) {  // L^T z = y
                for (std::size_t k = i + 1; k < n; ++k) b[i] -= A[k * n + i] * b[k];
                b[i] /= A[i * n + i];
            }
        }
        return true;
    }
    const int order = static_cast<int>(n), columns = static_cast<int>(nrhs);
    int info = 0;
    dposv_("U", &order, &columns, A, &order, B, &order, &info, 1);
    return info == 0;
}

bool solve_general(double* A, std::size_t n, double* B, std::size_t nrhs)
{
    const int order = static_cast<int>(n), columns = static_cast<int>(nrhs);
    std::vector<int> pivots(n);
    int info = 0;
    dgesv_(&order, &columns, A, &order, pivots.data(), B, &order, &info);
    return info == 0;
}

Vector singular_values(Matrix A)
{
    const int m = static_cast<int>(A.shape()[1]), n = static_cast<int>(A.shape()[0]);  // A^T, column-major
    Vector s = Vector::from_shape({static_cast<std::size_t>(std::min(m, n))});
    int info = 0, lwork = std::max(1, 5 * std::max(m, n)), one = 1;
    std::vector<double> work(static_cast<std::size_t>(lwork));
    dgesvd_("N", "N", &m, &n, A.data(), &m, s.data(), nullptr, &one, nullptr, &one, work.data(), &lwork, &info, 1, 1);
    require(info == 0, FACTO_ERROR_INTERNAL, "LAPACK dgesvd failed, info = " + std::to_string(info));
    return s;
}

void symmetric_eigen(Matrix& A, Vector& eigenvalues)
{
    const int n = static_cast<int>(A.shape()[0]);
    require(A.shape()[1] == A.shape()[0], FACTO_ERROR_INTERNAL, "symmetric_eigen: A is not square");
    eigenvalues = Vector::from_shape({A.shape()[0]});
    // Row-major symmetric A is its own column-major image; the column-major eigenvector matrix Q
    // read back row-major is Q^T = P.
    // Small A (the Lanczos and Krylov-Schur projections, called thousands of times): dsyev with 3 n of
    // workspace. Larger A: dsyevd (divide and conquer) with its optimal workspace; dsyev with 3 n runs
    // its unblocked reduction, 2.3x slower at n = 200 (nomad_admm's projections), while the query and
    // allocations of dsyevd made nomad_cgm 1.6x slower at n = 100 through its Lanczos calls.
    int info = 0;
    if (n <= 64) {
        int lwork = std::max(1, 3 * n);
        std::vector<double> work(static_cast<std::size_t>(lwork));
        dsyev_("V", "U", &n, A.data(), &n, eigenvalues.data(), work.data(), &lwork, &info, 1, 1);
        require(info == 0, FACTO_ERROR_INTERNAL, "LAPACK dsyev failed, info = " + std::to_string(info));
        return;
    }
    int lwork = -1, liwork = -1, iwork_size = 0;
    double work_size = 0.0;
    dsyevd_("V", "U", &n, A.data(), &n, eigenvalues.data(), &work_size, &lwork, &iwork_size, &liwork, &info, 1, 1);
    require(info == 0, FACTO_ERROR_INTERNAL, "LAPACK dsyevd workspace query failed, info = " + std::to_string(info));
    lwork = std::max(1, static_cast<int>(work_size));
    liwork = std::max(1, iwork_size);
    std::vector<double> work(static_cast<std::size_t>(lwork));
    std::vector<int> iwork(static_cast<std::size_t>(liwork));
    dsyevd_("V", "U", &n, A.data(), &n, eigenvalues.data(), work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1);
    require(info == 0, FACTO_ERROR_INTERNAL, "LAPACK dsyevd failed, info = " + std::to_string(info));
}

Vector symmetric_eigenvalues(Matrix& A)
{
    const int n = static_cast<int>(A.shape()[0]);
    require(A.shape()[1] == A.shape()[0] && n >= 1, FACTO_ERROR_INTERNAL, "symmetric_eigenvalues: A is not square");
    const auto check = [](int info, const char* routine) {
        require(info == 0, FACTO_ERROR_INTERNAL,
                std::string("LAPACK ") + routine + " failed, info = " + std::to_string(info));
    };
    // A = Q T Q^T (dsytrd; T tridiagonal, its diagonal the eigenvalues' start), then T's eigenvalues
    const std::size_t size_n = static_cast<std::size_t>(n);
    Vector eigenvalues = Vector::from_shape({size_n});
    std::vector<double> e(size_n), tau(size_n);
    int info = 0, lwork = -1;
    double size = 0.0;
    dsytrd_("U", &n, A.data(), &n, eigenvalues.data(), e.data(), tau.data(), &size, &lwork, &info, 1);
    check(info, "dsytrd (query)");
    lwork = std::max(1, static_cast<int>(size));
    std::vector<double> work(static_cast<std::size_t>(lwork));
    dsytrd_("U", &n, A.data(), &n, eigenvalues.data(), e.data(), tau.data(), work.data(), &lwork, &info, 1);
    check(info, "dsytrd");
    dsterf_(&n, eigenvalues.data(), e.data(), &info);
    check(info, "dsterf");
    return eigenvalues;
}

}  // namespace facto::blas
