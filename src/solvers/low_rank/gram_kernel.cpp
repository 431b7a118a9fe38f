#include "solvers/low_rank/gram_kernel.hpp"

#include <cmath>
#include <limits>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "solvers/low_rank/universal_kernel.hpp"
#include "linalg/blas.hpp"

namespace facto {

void GramKernel::gradient(const Matrix& X, const Matrix& XtX, Matrix& H) const
{
    const double x_norm2 = xt::sum(xt::diagonal(XtX))();
    xt::noalias(H) = (alpha * x_norm2 + sigma) * X;
    blas::gemm(false, false, beta, X, XtX, 1.0, H);
}

double GramKernel::bregman(const Matrix& XtX, const Matrix& XtD, const Matrix& DtD) const
{
    const double a = xt::sum(xt::diagonal(XtX))(), c = xt::sum(xt::diagonal(XtD))(), delta = xt::sum(xt::diagonal(DtD))();
    const Matrix E = XtD + xt::transpose(XtD) + DtD;
    return universal_bregman(alpha, sigma, a, c, delta) + 0.25 * beta * blas::frobenius_dot(E, E) +
           0.5 * beta * blas::frobenius_dot(XtX, DtD);
}

GramMap::GramMap(GramKernel kernel, double tolerance, int64_t max_inner)
    : kernel_(kernel), tolerance_(tolerance), max_inner_(max_inner)
{
}

void GramMap::solve_mu(const Vector& eta)
{
    const std::size_t r = eta.size();
    if (mu_.size() != r) mu_ = xt::zeros<double>({r});  // Alg. 3: mu = 0 without a previous value
    const double alpha = kernel_.alpha, beta = kernel_.beta, sigma = kernel_.sigma;
    const double alpha_u = alpha + 3.0 * beta;  // phi is 1-smooth relative to h_u(alpha + 3 beta, sigma)
    const double eta_norm = std::sqrt(xt::sum(xt::square(eta))());
    Matrix v({r, 1});
    const double eps = std::numeric_limits<double>::epsilon();
    last_inner_ = 0;
    if (eta_norm == 0.0) {
        mu_.fill(0.0);
        return;
    }
    for (; last_inner_ < max_inner_; ++last_inner_) {
        const double mu_norm2 = xt::sum(xt::square(mu_))();
        double grad_norm2 = 0.0;
        for (std::size_t i = 0; i < r; ++i) {
            const double grad_phi = alpha * mu_norm2 * mu_(i) + beta * mu_(i) * mu_(i) * mu_(i) + sigma * mu_(i) - eta(i);
            grad_norm2 += grad_phi * grad_phi;
            v(i, 0) = (alpha_u * mu_norm2 + sigma) * mu_(i) - grad_phi;  // grad h_u(mu) - grad phi(mu)
        }
        if (std::sqrt(grad_norm2) < tolerance_ * eta_norm) break;  // Alg. 3's stopping test
        universal_map(v, alpha_u, sigma, false);                    // mu = v / tau_sigma(alpha_u ||v||^2)
        double change2 = 0.0, norm2 = 0.0;
        for (std::size_t i = 0; i < r; ++i) {
            change2 += (v(i, 0) - mu_(i)) * (v(i, 0) - mu_(i));
            norm2 += v(i, 0) * v(i, 0);
            mu_(i) = v(i, 0);
        }
        if (change2 <= 16.0 * eps * eps * norm2) break;  // a fixed point at working precision
    }
}

void GramMap::apply(Matrix& V)
{
    const std::size_t r = V.shape()[1];
    if (P_.shape()[0] != r) {
        P_ = Matrix({r, r});
        C_ = Matrix({r, r});
    }
    blas::gram(V, P_);  // V^T V = P^T diag(eta^2) P
    Vector eigenvalues;
    blas::symmetric_eigen(P_, eigenvalues);
    const Vector eta = xt::sqrt(xt::maximum(eigenvalues, 0.0));
    solve_mu(eta);
    // T = V [alpha Tr(Z) I + beta Z + sigma I]^{-1} with Z = P^T diag(mu^2) P (eq. 11; Alg. 3's last
    // line means mu_i^2), i.e. V C with C = P^T diag(1 / (alpha ||mu||^2 + beta mu_i^2 + sigma)) P.
    const double trace_z = xt::sum(xt::square(mu_))();
    Matrix scaled = P_;
    for (std::size_t i = 0; i < r; ++i) {
        const double d = kernel_.alpha * trace_z + kernel_.beta * mu_(i) * mu_(i) + kernel_.sigma;
        for (std::size_t j = 0; j < r; ++j) scaled(i, j) /= d;
    }
    blas::gemm(true, false, 1.0, P_, scaled, 0.0, C_);
    if (T_.shape() != V.shape()) T_ = Matrix(V.shape());
    blas::gemm(false, false, 1.0, V, C_, 0.0, T_);
    std::swap(V, T_);
}

}  // namespace facto
