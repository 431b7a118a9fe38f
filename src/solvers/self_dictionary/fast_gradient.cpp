#include "solvers/self_dictionary/fast_gradient.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>

#include <xtensor/xnoalias.hpp>

#include "base/error.hpp"
#include "base/random.hpp"
#include "linalg/blas.hpp"
#include "linalg/nonnegative_least_squares.hpp"
#include "linalg/parallel.hpp"
#include "linalg/simplex_least_squares.hpp"
#include "linalg/successive_projection.hpp"

namespace facto {

FastGradient::FastGradient(std::shared_ptr<const SelfDictionary> problem)
    : SelfDictionarySolver(std::move(problem),
                           {int_param("max_iterations", 500, 0, std::numeric_limits<int64_t>::max(),
                                      "iteration limit ([NFW] ran 50 on topics, 20 on communities)"),
                            real_param("tolerance", 1e-6, 0.0, std::numeric_limits<double>::infinity(),
                                       "CONVERGED when diag(X) changes by at most this, relative, in a step")})
{
    dictionary_->require_dense("fast_gradient", "its iterate is a dense N x N matrix and its gradient M x N");
}

void FastGradient::start(Matrix)
{
    throw Error(FACTO_ERROR_UNSUPPORTED, "fast_gradient starts from X = 0 as its authors' code does; it takes no iterate");
}

double FastGradient::residual_squared() const
{
    const Matrix& Xt = dictionary_->Xt();
    Matrix T = Matrix::from_shape({Xt.shape()[1], Xt.shape()[0]});  // M X - M, M x N
    blas::gemm(true, false, 1.0, Xt, X_, 0.0, T);
    T -= xt::transpose(Xt);
    return xt::sum(T * T)();
}

void FastGradient::start_default(uint64_t seed)
{
    const int64_t K = dictionary_->K();
    require(K > 0, FACTO_ERROR_INVALID_ARGUMENT, "fast_gradient needs K (give K to the problem)");
    const Matrix& Xt = dictionary_->Xt();
    const std::size_t N = Xt.shape()[0], M = Xt.shape()[1];
    require_memory(3.0 * 8.0 * static_cast<double>(N) * static_cast<double>(N),
                   "fast_gradient's three " + std::to_string(N) + " x " + std::to_string(N) + " matrices");
    std::vector<double> w(N, 0.0);
    for (std::size_t l = 0; l < N; ++l)
        for (std::size_t k = 0; k < M; ++k) w[l] += std::abs(Xt(l, k));
    rows_.emplace(std::move(w));
    Rng rng(seed);
    p_.resize(N);
    for (double& p : p_) p = 1.0 + 0.01 * (rng.uniform() - 0.5);
    // mu and p from SPA's K columns and their nonnegative least squares fit (fgnsr_init)
    SuccessiveProjection spa(Xt);
    for (int64_t k = 0; k < K; ++k) spa.next();
    std::vector<int64_t> J = spa.selected();
    std::sort(J.begin(), J.end());
    Matrix W = Matrix::from_shape({J.size(), M});
    for (std::size_t j = 0; j < J.size(); ++j) std::copy(&Xt(J[j], 0), &Xt(J[j], 0) + M, &W(j, 0));
    Matrix G = Matrix::from_shape({J.size(), J.size()}), B = Matrix::from_shape({J.size(), N});
    blas::gemm(false, true, 1.0, W, W, 0.0, G);
    blas::gemm(false, true, 1.0, W, Xt, 0.0, B);
    Matrix H = xt::zeros<double>({J.size(), N});
    nonnegative_least_squares(G, B, H, 1e-10, 500);
    Matrix fit = Matrix::from_shape({N, M});  // (W^T H)^T
    blas::gemm(true, false, 1.0, H, W, 0.0, fit);
    const double error = xt::sum(xt::square(fit - Xt))() + 1e-3;
    double picked = 0.0;
    for (int64_t j : J) picked += p_[static_cast<std::size_t>(j)];
    mu_ = error / picked;
    for (double& p : p_) p *= error / picked;
    Matrix gram = Matrix::from_shape({M, M});
    blas::gemm(true, false, 1.0, Xt, Xt, 0.0, gram);
    Vector lambda;
    blas::symmetric_eigen(gram, lambda);
    step_ = lambda(M - 1) > 0.0 ? 1.0 / lambda(M - 1) : 0.0;
    X_ = xt::zeros<double>({N, N});
    Y_ = X_;
    Z_ = Matrix::from_shape({N, N});
    alpha_ = 0.05, sigma_ = 0.1, sigma_direction_ = 0, restarted_ = false;
    diagonal_change_ = 1.0;  // nothing measured yet: every entry is still to be found
    objective_ = 0.5 * residual_squared();
    update_columns();
}

void FastGradient::update_columns()
{
    const std::size_t N = X_.shape()[0];
    std::vector<int64_t> order(N);
    std::iota(order.begin(), order.end(), int64_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return X_(a, a) > X_(b, b); });
    std::vector<int64_t> J(order.begin(), order.begin() + dictionary_->K());
    std::sort(J.begin(), J.end());
    C_ = SimplexColumns::from_selected(J, dictionary_->coefficients(J, resolve_threads(common().threads)));
}

double FastGradient::iterate_once()
{
    const Matrix& Xt = dictionary_->Xt();
    const std::size_t N = Xt.shape()[0], M = Xt.shape()[1];
    const double alpha = alpha_, next_alpha = 0.5 * (std::sqrt(std::pow(alpha, 4) + 4 * alpha * alpha) - alpha * alpha);
    const double beta = alpha * (1.0 - alpha) / (alpha * alpha + next_alpha);
    // Z = Y - step (M^T (M Y - M) + mu diag(p)), projected row by row, and the next extrapolated point
    // Y = Z + beta (Z - X) formed in the same pass over each row (the step is bound by memory traffic)
    Matrix T = Matrix::from_shape({M, N});
    blas::gemm(true, false, 1.0, Xt, Y_, 0.0, T);
    T -= xt::transpose(Xt);
    blas::gemm(false, false, -step_, Xt, T, 0.0, Z_);
    parallel_for(N, 16, resolve_threads(common().threads), [&](std::size_t first, std::size_t last) {
        std::vector<DominantDiagonal::Break> breaks;
        for (std::size_t i = first; i < last; ++i) {
            double *z = &Z_(i, 0), *y = &Y_(i, 0);
            const double* x = &X_(i, 0);
            for (std::size_t l = 0; l < N; ++l) z[l] += y[l];
            z[i] -= step_ * mu_ * p_[i];
            rows_->project_row(z, i, breaks);
            for (std::size_t l = 0; l < N; ++l) y[l] = z[l] + beta * (z[l] - x[l]);
        }
    });
    std::swap(X_, Z_);  // Z_ holds the previous iterate now
    double change = 0.0, size = 0.0, before = 0.0, trace = 0.0, penalty = 0.0;
    for (std::size_t i = 0; i < N; ++i) {
        change += std::abs(X_(i, i) - Z_(i, i)), size += std::abs(X_(i, i)), before += std::abs(Z_(i, i));
        trace += X_(i, i), penalty += p_[i] * X_(i, i);
    }
    diagonal_change_ = size > 0.0 ? change / size : before;
    const double previous = objective_;
    objective_ = 0.5 * residual_squared() + mu_ * penalty;
    if (!restarted_ && previous < objective_) {  // restart; mu moves toward Tr X = K / 2 + 1
        xt::noalias(Y_) = X_;
        alpha_ = 0.05, restarted_ = true;
        const double target = static_cast<double>(dictionary_->K()) / 2.0 + 1.0;
        const int direction = trace < target ? 1 : -1;
        if (sigma_direction_ == -direction) sigma_ /= 2.0;
        mu_ *= direction > 0 ? 1.0 - sigma_ : 1.0 + sigma_;
        sigma_direction_ = direction;
    } else {
        alpha_ = next_alpha, restarted_ = false;
    }
    update_columns();
    return 1.0;
}

}  // namespace facto
