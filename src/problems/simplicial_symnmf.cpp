#include "problems/simplicial_symnmf.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "linalg/power_iteration.hpp"
#include "linalg/simplex_least_squares.hpp"

namespace facto {

SimplicialSymNMF::SimplicialSymNMF(Matrix P, int64_t k) : P_(std::move(P)), k_(k)
{
    const int64_t rows = static_cast<int64_t>(P_.shape()[0]), cols = static_cast<int64_t>(P_.shape()[1]);
    require(rows == cols && rows > 0, FACTO_ERROR_DIMENSION,
            "P must be square and non-empty, got " + std::to_string(rows) + " x " + std::to_string(cols));
    require(k >= 1 && k <= rows, FACTO_ERROR_DIMENSION,
            "rank k = " + std::to_string(k) + " must satisfy 1 <= k <= n = " + std::to_string(rows));
    require_finite(P_, "P");
    require_symmetric(P_, "P");
    P_norm_squared_ = blas::frobenius_dot(P_, P_);
}

double SimplicialSymNMF::objective(const Matrix& W) const
{
    require_shape(W, n(), k_, "W");
    Matrix PW(W.shape()), WtW({W.shape()[1], W.shape()[1]});
    multiply(W, PW);
    blas::gram(W, WtW);
    return objective(W, PW, WtW);
}

Matrix SimplicialSymNMF::random_point(uint64_t seed) const { return set().random_point(seed); }

Matrix SimplicialSymNMF::feasible_point(const Matrix& W) const
{
    return set().feasible_point(W, 1e-9);
}

std::vector<OutputSpec> SimplicialSymNMF::output_specs() const { return {labels_spec(n())}; }

Output SimplicialSymNMF::output(const std::string& name, const Matrix& W) const { return labels_output(name, W); }

double SimplicialSymNMF::spectral_norm() const { return spectral_norm_symmetric(P_); }

double SimplicialSymNMF::curvature_bound() const
{
    const double nn = static_cast<double>(n());
    return 2.0 * nn * (3.0 * nn + spectral_norm());  // Thm. 3: C_f <= 2n (3n + ||P||_2)
}

void SimplicialSymNMF::multiply(const Matrix& W, Matrix& PW) const { blas::gemm(false, false, 1.0, P_, W, 0.0, PW); }

void SimplicialSymNMF::multiply_sparse(const Matrix& D, Matrix& PD, Matrix& work, std::size_t threads) const
{
    // (P D)(:, j) = sum_i D(i, j) P(:, i) = (P symmetric) the sum of the rows i weighted by D(i, j)
    work.fill(0.0);
    add_rows(0, D.shape()[0], D, work, threads);
    xt::noalias(PD) = xt::transpose(work);
}

void SimplicialSymNMF::add_rows(std::size_t first, std::size_t count, const Matrix& D, Matrix& PDt,
                                std::size_t threads) const
{
    const std::size_t nn = P_.shape()[0], k = D.shape()[1];
    parallel_for(nn, 1024, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = 0; i < count; ++i) {
            const double* row = &P_(first + i, 0);
            for (std::size_t j = 0; j < k; ++j) {
                const double weight = D(i, j);
                if (weight == 0.0) continue;
                double* acc = &PDt(j, 0);
                for (std::size_t r = begin; r < end; ++r) acc[r] += weight * row[r];
            }
        }
    });
}

double SimplicialSymNMF::objective(const Matrix& W, const Matrix& PW, const Matrix& WtW) const
{
    // 4 f = ||P||^2 - 2 <PW, W> + ||W^T W||^2
    return 0.25 * (P_norm_squared_ - 2.0 * blas::frobenius_dot(PW, W) + blas::frobenius_dot(WtW, WtW));
}

void SimplicialSymNMF::gradient(const Matrix& W, const Matrix& PW, const Matrix& WtW, Matrix& G) const
{
    // eq. (7): (W W^T - P) W computed as W (W^T W) - P W
    xt::noalias(G) = PW;
    blas::gemm(false, false, 1.0, W, WtW, -1.0, G);
}

Quartic SimplicialSymNMF::along(const Matrix& W, const Matrix& D, const Matrix& PD, const Matrix& WtW,
                                const Matrix& G, double f0) const
{
    // With R = W W^T - P, S = W D^T + D W^T, T = D D^T:
    //   4 f(W + g D) = ||R||^2 + 2g <R,S> + g^2 (||S||^2 + 2 <R,T>) + 2 g^3 <S,T> + g^4 ||T||^2,
    // and with A = W^T D, B = D^T D (k x k):  <R,S> = 2 <G, D>,  <R,T> = ||A||^2 - <PD, D>,
    //   ||S||^2 = 2 <W^T W, B> + 2 tr(A A),  <S,T> = 2 tr(B A),  ||T||^2 = ||B||^2.
    const std::size_t k = W.shape()[1];
    Matrix A({k, k}), B({k, k}), AA({k, k}), BA({k, k});
    blas::gemm(true, false, 1.0, W, D, 0.0, A);
    blas::gram(D, B);
    blas::gemm(false, false, 1.0, A, A, 0.0, AA);
    blas::gemm(false, false, 1.0, B, A, 0.0, BA);
    const double trace_AA = xt::sum(xt::diagonal(AA))();
    const double trace_BA = xt::sum(xt::diagonal(BA))();
    const double R_S = 2.0 * blas::frobenius_dot(G, D);
    const double R_T = blas::frobenius_dot(A, A) - blas::frobenius_dot(PD, D);
    const double S_S = 2.0 * blas::frobenius_dot(WtW, B) + 2.0 * trace_AA;
    return Quartic{f0, 0.5 * R_S, 0.25 * (S_S + 2.0 * R_T), trace_BA, 0.25 * blas::frobenius_dot(B, B)};
}

Quartic SimplicialSymNMF::along_row(std::size_t i, const double* w, const double* d, const double* pw,
                                    const Matrix& WtW, double f0) const
{
    // W' = W + g e_i d^T: P W' = P W + g P(:, i) d^T and W'^T W' = W^T W + g (w d^T + d w^T) + g^2 d d^T, so
    //   4 f(g) = 4 f0 + 4 g <d, WtW w - pw> + 2 g^2 (|w|^2 |d|^2 + (w.d)^2 + d^T WtW d - P_ii |d|^2)
    //            + 4 g^3 (w.d) |d|^2 + g^4 |d|^4.
    const std::size_t k = WtW.shape()[0];
    double slope = 0.0, curvature = 0.0, ww = 0.0, dd = 0.0, wd = 0.0;
    for (std::size_t j = 0; j < k; ++j) {
        double Aw = 0.0, Ad = 0.0;
        for (std::size_t l = 0; l < k; ++l) {
            Aw += WtW(j, l) * w[l];
            Ad += WtW(j, l) * d[l];
        }
        slope += d[j] * (Aw - pw[j]);
        curvature += d[j] * Ad;
        ww += w[j] * w[j];
        dd += d[j] * d[j];
        wd += w[j] * d[j];
    }
    return Quartic{f0, slope, 0.5 * (ww * dd + wd * wd + curvature - P_(i, i) * dd), wd * dd, 0.25 * dd * dd};
}

Matrix SimplicialSymNMF::apply(const Matrix& W, const Matrix& P_new, std::size_t threads)
{
    return simplex_coefficients(W, P_new, "the new points' affinities (P_new)", threads);
}

}  // namespace facto
