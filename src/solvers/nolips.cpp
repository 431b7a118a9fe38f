#include "facto/nolips.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "facto/error.hpp"
#include "facto/universal_kernel.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"

namespace facto {

std::vector<ParamSpec> nolips_params()
{
    const double inf = std::numeric_limits<double>::infinity();
    return {
        choice_param("kernel", "universal", "universal|gram",
                     "Bregman kernel: universal (eq. 6) or gram (eq. 10, unconstrained problems only)"),
        real_param("alpha", 0.0, 0.0, inf, "kernel's alpha; 0 = the paper's value (SymNMF 6, EDM 6 L_EDM)"),
        real_param("beta", 0.0, 0.0, inf, "Gram kernel's beta; 0 = alpha (Sec. 4.2)"),
        real_param("sigma", 0.0, 0.0, inf, "kernel's sigma; 0 = the paper's value (SymNMF 2 ||M||_F, EDM 2 ||P(D)||)"),
        real_param("initial_step", 1.0, 1e-300, inf, "first lambda tried (1 = 1/L, always admissible)"),
        real_param("max_step", 1e6, 1e-300, inf, "lambda_max of Alg. 2"),
        int_param("max_backtracks", 60, 1, 1000, "halvings per iteration before the step is declared zero"),
        real_param("gram_tolerance", 0.0, 0.0, 1.0,
                   "epsilon of Alg. 3 on ||grad phi(mu)|| / ||eta|| (paper 1e-6, which bounds the attainable "
                   "accuracy); 0 = until mu stops moving"),
        int_param("gram_max_inner", 1000, 1, 1000000, "inner NoLips iterations of Alg. 3 at most"),
    };
}

NoLips::NoLips(std::shared_ptr<const LowRankProblem> problem)
    : Solver(problem, nolips_params()), low_rank_(std::move(problem))
{
}

double NoLips::alpha() const
{
    const double a = params().get_double("alpha");
    return a > 0.0 ? a : low_rank_->default_alpha();
}

double NoLips::beta() const
{
    const double b = params().get_double("beta");
    return b > 0.0 ? b : alpha();
}

double NoLips::sigma() const
{
    const double s = params().get_double("sigma");
    return s > 0.0 ? s : low_rank_->default_sigma();
}

void NoLips::start(Matrix X0)
{
    gram_ = params().get_string("kernel") == "gram";
    require(!(gram_ && low_rank_->nonnegative()), FACTO_ERROR_UNSUPPORTED,
            std::string("kernel 'gram' needs an unconstrained problem; ") + low_rank_->kind() +
                " has X >= 0 (use kernel 'universal')");
    threads_ = resolve_threads(params().get_int("threads"));
    const std::size_t r = X0.shape()[1];
    X_ = std::move(X0);
    G_ = Matrix(X_.shape());
    trial_X_ = Matrix(X_.shape());
    if (gram_) {
        gram_map_.emplace(GramKernel{alpha(), beta(), sigma()}, params().get_double("gram_tolerance"),
                          params().get_int("gram_max_inner"));
        delta_ = Matrix(X_.shape());
        grad_h_ = Matrix(X_.shape());
        XtX_ = Matrix({r, r});
        XtD_ = Matrix({r, r});
        DtD_ = Matrix({r, r});
    }
    f_ = low_rank_->evaluate(X_, eval_, threads_);
    x_norm2_ = blas::frobenius_dot(X_, X_);
    refresh_gradient();
    lambda_ = params().get_double("initial_step");
}

// The gradient, the stationarity residual and, for the Gram kernel, X^T X at the current X.
void NoLips::refresh_gradient()
{
    low_rank_->gradient(X_, eval_, G_, threads_);
    residual_ = low_rank_->stationarity(X_, G_);
    if (gram_) blas::gram(X_, XtX_);  // only the Gram kernel needs X^T X; h_u needs ||X||^2
}

// One pass over (X, T, G): the inner products with D = T - X that (22) and D_h need, and ||T||^2;
// D is stored in delta_ for the Gram kernel's r x r products.
NoLips::Displacement NoLips::displacement()
{
    const std::size_t size = X_.size();
    const double *x = X_.data(), *t = trial_X_.data(), *g = G_.data();
    double* d = delta_.data();
    Displacement s;
    for (std::size_t i = 0; i < size; ++i) {
        const double di = t[i] - x[i];
        if (gram_) d[i] = di;
        s.x_d += x[i] * di;
        s.d_d += di * di;
        s.g_d += g[i] * di;
        s.t_t += t[i] * t[i];
    }
    return s;
}

double NoLips::bregman_distance(const Displacement& s)
{
    if (gram_) {
        blas::gemm(true, false, 1.0, X_, delta_, 0.0, XtD_);
        blas::gram(delta_, DtD_);
        return GramKernel{alpha(), beta(), sigma()}.bregman(XtX_, XtD_, DtD_);
    }
    return universal_bregman(alpha(), sigma(), x_norm2_, s.x_d, s.d_d);
}

// T_lambda(X): Prop. 2.4 on V = grad h_g(X) - lambda grad f(X) for the Gram kernel; eq. (7) / (14)
// for the universal kernel, whose grad h_u(X) = (alpha ||X||^2 + sigma) X (eq. 8) is never stored.
void NoLips::bregman_map(double lambda)
{
    if (gram_) {
        xt::noalias(trial_X_) = grad_h_ - lambda * G_;
        gram_map_->apply(trial_X_);
    } else {
        universal_map(X_, alpha() * x_norm2_ + sigma(), G_, lambda, alpha(), sigma(), low_rank_->nonnegative(),
                      trial_X_);
    }
}

double NoLips::iterate_once()
{
    const int64_t max_backtracks = params().get_int("max_backtracks");
    if (gram_) GramKernel{alpha(), beta(), sigma()}.gradient(X_, XtX_, grad_h_);
    for (int64_t trial = 0; trial < max_backtracks; ++trial, lambda_ *= 0.5) {
        bregman_map(lambda_);
        const double f_trial = low_rank_->evaluate(trial_X_, trial_eval_, threads_);
        const Displacement s = displacement();
        if (f_trial <= f_ + s.g_d + bregman_distance(s) / lambda_) {  // decrease condition (22)
            std::swap(X_, trial_X_);
            std::swap(eval_, trial_eval_);
            f_ = f_trial;
            x_norm2_ = s.t_t;
            refresh_gradient();
            const double used = lambda_;
            lambda_ = std::min(2.0 * lambda_, params().get_double("max_step"));  // Alg. 2
            return used;
        }
    }
    lambda_ = params().get_double("initial_step");
    return 0.0;  // no admissible step at working precision: X is kept
}

}  // namespace facto
