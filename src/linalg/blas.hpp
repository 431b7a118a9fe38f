// The BLAS (and LAPACK) calls of the core, on row-major xtensor containers, into preallocated outputs (no
// temporaries). Implemented over OpenBLAS's CBLAS in blas.cpp, which is the
// only file that includes <cblas.h> (it clashes with xtensor-blas's own declarations).
#pragma once

#include "linalg/matrix.hpp"

namespace facto::blas {

// C = alpha * op(A) * op(B) + beta * C.
void gemm(bool trans_a, bool trans_b, double alpha, const Matrix& A, const Matrix& B, double beta, Matrix& C);
// The same on row-major blocks given by pointer and leading dimension (op(A) m x k, op(B) k x n).
void gemm(bool trans_a, bool trans_b, std::size_t m, std::size_t n, std::size_t k, double alpha, const double* A,
          std::size_t lda, const double* B, std::size_t ldb, double beta, double* C, std::size_t ldc);

// C = A^T A for A n x k (full symmetric result), on `threads` of facto's threads. For k <= 64 (the
// iterates' tall, thin shape) facto's own kernel in tall_skinny.cpp (faster than OpenBLAS's dsyrk at
// that shape: docs/benchmarks.md, "Kernels"), with sums in fixed row groups so that C does not depend
// on `threads`; dsyrk above.
void gram(const Matrix& A, Matrix& C, std::size_t threads = 1);

// C = A S for A n x k and S k x k, on `threads` of facto's threads: for k <= 64 facto's own kernel in
// tall_skinny.cpp (docs/benchmarks.md, "Kernels"; OpenBLAS's idle threads then also stop competing
// with facto's), dgemm above. Rows are independent, so C does not depend on `threads`.
void times_small(const Matrix& A, const Matrix& S, Matrix& C, std::size_t threads = 1);

// The upper triangle of C = A^T A by dsyrk (the lower one is left as it was).
void syrk_upper(const Matrix& A, Matrix& C);

// y = A x.
void gemv(const Matrix& A, const Vector& x, Vector& y);

// <A, B> = sum_ij A_ij B_ij.
double frobenius_dot(const Matrix& A, const Matrix& B);

// x^T y for n values, summed in order: for short vectors (MERIT's M = 50) a call into OpenBLAS's
// ddot costs more than the sum, and for long ones (Lanczos's n) it would wake OpenBLAS's threads.
inline double dot(const double* x, const double* y, std::size_t n)
{
    double sum = 0.0;
    for (std::size_t k = 0; k < n; ++k) sum += x[k] * y[k];
    return sum;
}

// LAPACK dposv: solves A Z = B in place for symmetric positive definite A (n x n, either layout: it is
// symmetric) and B holding nrhs right-hand sides of length n one after another (Z overwrites B, A its
// Cholesky factor). False when A is not positive definite to working precision. Up to kSmallSystem
// unknowns the same factorization runs here instead.
constexpr std::size_t kSmallSystem = 32;
bool solve_positive_definite(double* A, std::size_t n, double* B, std::size_t nrhs);

// LAPACK dgesv: solves A Z = B in place for a general A (n x n, column-major: a row-major A is read as
// A^T) and B holding nrhs right-hand sides of length n one after another (Z overwrites B, A its LU
// factors). False when A is exactly singular.
bool solve_general(double* A, std::size_t n, double* B, std::size_t nrhs);

// The singular values of A (LAPACK dgesvd), largest first.
Vector singular_values(Matrix A);

// LAPACK dsyev (r <= 64) or dsyevd on a symmetric r x r matrix: A := P with A_in = P^T diag(eigenvalues) P
// (the rows of P are orthonormal eigenvectors), eigenvalues ascending. Error(INTERNAL) if LAPACK fails.
void symmetric_eigen(Matrix& A, Vector& eigenvalues);

// The eigenvalues of a symmetric n x n A, ascending (LAPACK dsytrd and dsterf: no eigenvectors, a third
// of dsyevd's work). A is overwritten.
Vector symmetric_eigenvalues(Matrix& A);

// Up to this n facto's certificates take their eigenvalues from symmetric_eigenvalues (backward stable)
// rather than from a Krylov solve (an estimate: it can settle on a lower eigenvalue): O(n^2) memory and
// ~4/3 n^3 flops, ~0.05 s at n = 1000.
constexpr std::size_t kDenseSpectrumLimit = 2000;

}  // namespace facto::blas
