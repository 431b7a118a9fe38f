#include "facto/nolips.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "facto/universal_kernel.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"

namespace facto {

std::vector<ParamSpec> nolips_params()
{
    const double inf = std::numeric_limits<double>::infinity();
    return {
        choice_param("kernel", "universal", "universal", "Bregman kernel: the universal quartic kernel (eq. 6)"),
        real_param("alpha", 0.0, 0.0, inf, "kernel's alpha; 0 = the paper's value for the problem (SymNMF: 6)"),
        real_param("sigma", 0.0, 0.0, inf, "kernel's sigma; 0 = the paper's value (SymNMF: 2 ||M||_F)"),
        real_param("initial_step", 1.0, 1e-300, inf, "first lambda tried (1 = 1/L, always admissible)"),
        real_param("max_step", 1e6, 1e-300, inf, "lambda_max of Alg. 2"),
        int_param("max_backtracks", 60, 1, 1000, "halvings per iteration before the step is declared zero"),
    };
}

NoLips::NoLips(std::shared_ptr<const SymNMF> problem) : Solver(problem, nolips_params()), symnmf_(std::move(problem))
{
}

double NoLips::alpha() const
{
    const double a = params().get_double("alpha");
    return a > 0.0 ? a : 6.0;  // Sec. 4.1: F(Y) = 1/2 ||M - Y||^2 has L_F = 1, alpha = 6 L_F
}

double NoLips::sigma() const
{
    const double s = params().get_double("sigma");
    return s > 0.0 ? s : 2.0 * symnmf_->M_norm();  // Sec. 4.1: sigma = 2 ||grad F(0)|| = 2 ||M||
}

void NoLips::start(Matrix X0)
{
    const std::size_t n = X0.shape()[0], r = X0.shape()[1];
    X_ = std::move(X0);
    MX_ = Matrix({n, r});
    XtX_ = Matrix({r, r});
    G_ = Matrix({n, r});
    trial_X_ = Matrix({n, r});
    trial_MX_ = Matrix({n, r});
    trial_XtX_ = Matrix({r, r});
    symnmf_->multiply(X_, MX_, resolve_threads(params().get_int("threads")));
    blas::gram(X_, XtX_);
    f_ = symnmf_->objective(X_, MX_, XtX_);
    refresh_gradient();
    lambda_ = params().get_double("initial_step");
}

// The gradient at X and the projected-gradient residual ||X - Pi_+(X - G)|| = ||min(X, G)||.
void NoLips::refresh_gradient()
{
    symnmf_->gradient(X_, MX_, XtX_, G_);
    residual_ = std::sqrt(xt::sum(xt::square(xt::minimum(X_, G_)))());
}

double NoLips::iterate_once()
{
    const double a = alpha(), s = sigma();
    const double x_norm2 = blas::frobenius_dot(X_, X_);
    const double h_x = universal_h(a, s, x_norm2);
    const double scale = a * x_norm2 + s;  // grad h(X) = scale X
    const int64_t max_backtracks = params().get_int("max_backtracks");
    for (int64_t trial = 0; trial < max_backtracks; ++trial, lambda_ *= 0.5) {
        xt::noalias(trial_X_) = scale * X_ - lambda_ * G_;  // U, eq. (8)
        universal_map(trial_X_, a, s, true);               // X+ = T_lambda(X), eq. (14)
        symnmf_->multiply(trial_X_, trial_MX_, resolve_threads(params().get_int("threads")));
        blas::gram(trial_X_, trial_XtX_);
        const double f_trial = symnmf_->objective(trial_X_, trial_MX_, trial_XtX_);
        const double x_dot_trial = blas::frobenius_dot(X_, trial_X_);
        const double bregman = universal_h(a, s, blas::frobenius_dot(trial_X_, trial_X_)) - h_x -
                               scale * (x_dot_trial - x_norm2);  // D_h(X+, X), eq. (3)
        const double linear = blas::frobenius_dot(G_, trial_X_) - blas::frobenius_dot(G_, X_);
        if (f_trial <= f_ + linear + bregman / lambda_) {  // decrease condition (22)
            std::swap(X_, trial_X_);
            std::swap(MX_, trial_MX_);
            std::swap(XtX_, trial_XtX_);
            f_ = f_trial;
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
