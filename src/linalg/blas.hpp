// The BLAS (and LAPACK) calls of the core, on row-major xtensor containers, into preallocated outputs (no
// temporaries). Implemented over OpenBLAS's CBLAS in blas.cpp, which is the
// only file that includes <cblas.h> (it clashes with xtensor-blas's own declarations).
#pragma once

#include "facto/matrix.hpp"

namespace facto::blas {

// C = alpha * op(A) * op(B) + beta * C.
void gemm(bool trans_a, bool trans_b, double alpha, const Matrix& A, const Matrix& B, double beta, Matrix& C);

// C = A^T A (full symmetric result; syrk then mirror).
void gram(const Matrix& A, Matrix& C);

// y = A x.
void gemv(const Matrix& A, const Vector& x, Vector& y);

// <A, B> = sum_ij A_ij B_ij.
double frobenius_dot(const Matrix& A, const Matrix& B);

// LAPACK dsyev on a symmetric r x r matrix: A := P with A_in = P^T diag(eigenvalues) P (the rows of
// P are orthonormal eigenvectors), eigenvalues ascending. Error(INTERNAL) if LAPACK fails.
void symmetric_eigen(Matrix& A, Vector& eigenvalues);

}  // namespace facto::blas
