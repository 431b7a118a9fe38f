#include "solvers/low_rank/nolips.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "base/error.hpp"
#include "solvers/low_rank/universal_kernel.hpp"
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
        int_param("reuse_products", 1, 0, 1,
                  "1: a halved trial combines M T from the rejected trial's products (SymNMF, universal kernel; "
                  "exact in exact arithmetic); 0: multiply every trial"),
    };
}

NoLips::NoLips(std::shared_ptr<const LowRankProblem> problem)
    : Solver(problem, nolips_params()), low_rank_(std::move(problem))
{
    Params& p = mutable_params();
    p.bind("kernel", settings_.gram_kernel, {{"universal", false}, {"gram", true}});
    p.bind("alpha", settings_.alpha);
    p.bind("beta", settings_.beta);
    p.bind("sigma", settings_.sigma);
    p.bind("initial_step", settings_.initial_step);
    p.bind("max_step", settings_.max_step);
    p.bind("gram_tolerance", settings_.gram_tolerance);
    p.bind("max_backtracks", settings_.max_backtracks);
    p.bind("gram_max_inner", settings_.gram_max_inner);
    p.bind("reuse_products", settings_.reuse_products);
}

double NoLips::alpha() const
{
    return settings_.alpha > 0.0 ? settings_.alpha : low_rank_->default_alpha();
}

double NoLips::beta() const
{
    return settings_.beta > 0.0 ? settings_.beta : alpha();
}

double NoLips::sigma() const
{
    return settings_.sigma > 0.0 ? settings_.sigma : low_rank_->default_sigma();
}

void NoLips::check_params(const Params& p) const
{
    require(!(p.get_string("kernel") == "gram" && low_rank_->nonnegative()), FACTO_ERROR_UNSUPPORTED,
            std::string("kernel 'gram' needs an unconstrained problem; ") + low_rank_->kind() +
                " has X >= 0 (use kernel 'universal')");
    // (a distributed problem without X >= 0 would need X^T X and the Gram kernel's products summed)
    require(!(p.get_string("kernel") == "gram" && low_rank_->collectives()), FACTO_ERROR_UNSUPPORTED,
            "kernel 'gram' does not run on a distributed problem (use kernel 'universal')");
}

void NoLips::start(Matrix X0)
{
    gram_ = settings_.gram_kernel;
    threads_ = resolve_threads(common().threads);
    reuse_ = !gram_ && settings_.reuse_products == 1 && low_rank_->linear_product();
    const std::size_t r = X0.shape()[1];
    X_ = std::move(X0);
    G_ = Matrix(X_.shape());
    trial_X_ = Matrix(X_.shape());
    if (gram_) {
        gram_map_.emplace(GramKernel{alpha(), beta(), sigma()}, settings_.gram_tolerance, settings_.gram_max_inner);
        delta_ = Matrix(X_.shape());
        grad_h_ = Matrix(X_.shape());
        XtX_ = Matrix({r, r});
        XtD_ = Matrix({r, r});
        DtD_ = Matrix({r, r});
    }
    f_ = low_rank_->evaluate(X_, eval_, threads_);
    x_norm2_ = blas::frobenius_dot(X_, X_);
    low_rank_->reduce_sums(&x_norm2_, 1);  // a distributed problem's X: every process's block
    refresh_gradient();
    lambda_ = settings_.initial_step;
}

// The gradient, the stationarity residual and, for the Gram kernel, X^T X at the current X.
void NoLips::refresh_gradient()
{
    residual_ = relative_residual(*low_rank_, low_rank_->gradient(X_, eval_, G_, threads_), std::sqrt(x_norm2_));
    if (gram_) blas::gram(X_, XtX_);  // only the Gram kernel needs X^T X; h_u needs ||X||^2
}

double NoLips::bregman_distance()
{
    const Displacement& s = displacement_;
    if (gram_) {
        xt::noalias(delta_) = trial_X_ - X_;
        blas::gemm(true, false, 1.0, X_, delta_, 0.0, XtD_);
        blas::gram(delta_, DtD_);
        return GramKernel{alpha(), beta(), sigma()}.bregman(XtX_, XtD_, DtD_);
    }
    return universal_bregman(alpha(), sigma(), x_norm2_, s.x_d, s.d_d);
}

// Prop. 2.4 on V = grad h_g(X) - lambda grad f(X).
double NoLips::gram_trial(double lambda)
{
    xt::noalias(trial_X_) = grad_h_ - lambda * G_;
    gram_map_->apply(trial_X_);
    displacement_ = universal_rescale(X_, G_, 1.0, trial_X_, threads_);
    return low_rank_->evaluate(trial_X_, trial_eval_, threads_);
}

// eq. (7) / (14): T = Pi(c X - lambda G) / tau, c = alpha ||X||^2 + sigma (grad h_u(X) = c X, eq. 8).
// A halved trial (the one at 2 lambda was rejected) with a linear product L (SymNMF: L = M) forms
// L T without multiplying: with P' = tau' T' the rejected numerator, Pi(c X - lambda G) equals
// (c X + P') / 2 except where X > 0 and P' was clipped to 0, where it is c X / 2 + Delta, so
//     L T = [(c L X + tau' L T') / 2 + L Delta] / tau,
// exact in exact arithmetic, with Delta sparse (under 1% of the entries on TDT2 after the first
// iterations). Errors inherited from L X and L T' are halved by each combination, so none accumulate.
double NoLips::universal_trial(double lambda, bool halved)
{
    const double c = alpha() * x_norm2_ + sigma();
    const bool combine = halved && reuse_;
    double norm2 = combine ? halved_numerator(c, lambda)
                           : universal_numerator(X_, c, G_, lambda, low_rank_->nonnegative(), trial_X_, threads_);
    low_rank_->reduce_sums(&norm2, 1);
    const double tau = universal_tau(sigma(), alpha() * norm2);
    displacement_ = universal_rescale(X_, G_, 1.0 / tau, trial_X_, threads_);
    reduce(displacement_);
    double f;
    // A dense Delta costs more as single rows of M than as one product.
    if (combine && corrections_.size() * 16 <= X_.size()) {
        const double a = c / (2.0 * tau), b = tau_ / (2.0 * tau);
        const double* lx = eval_.first.data();
        double* lt = trial_eval_.first.data();
        parallel_for(X_.size(), kPassGrain, threads_, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) lt[i] = a * lx[i] + b * lt[i];
        });
        low_rank_->add_linear_product(corrections_, 1.0 / tau, trial_eval_.first);
        f = low_rank_->evaluate_given_product(trial_X_, trial_eval_, threads_);
    } else {
        f = low_rank_->evaluate(trial_X_, trial_eval_, threads_);
    }
    tau_ = tau;
    return f;
}

// A distributed problem's displacement: the sums over every process's block.
void NoLips::reduce(Displacement& s) const
{
    double sums[4] = {s.x_d, s.d_d, s.g_d, s.t_t};
    low_rank_->reduce_sums(sums, 4);
    s = Displacement{sums[0], sums[1], sums[2], sums[3]};
}

namespace {

// Pass 1 of a halved trial on the n entries from `first`, over the rejected T' in t: appends to
// `delta` the entries Delta lives on (X > 0, clipped by the rejected trial: t == 0), then t =
// Pi(c x - lambda g) as universal_numerator does, then Delta's values there (see universal_trial).
// Returns the sum of squares of the new t. The marking goes by blocks of lanes, so it vectorizes; the
// marked entries are rare.
double halved_chunk(const double* x, const double* g, double* t, std::size_t n, std::size_t first, double c,
                    double lambda, bool nonnegative, std::vector<MatrixEntry>& delta)
{
    const std::size_t marked = delta.size();
    if (nonnegative)
        for (std::size_t i = 0; i < n; i += kPassLanes) {
            const std::size_t lanes = std::min(kPassLanes, n - i);
            int clipped = 0;
            for (std::size_t l = 0; l < lanes; ++l) clipped |= (t[i + l] == 0.0) & (x[i + l] > 0.0);
            if (clipped)
                for (std::size_t l = 0; l < lanes; ++l)
                    if (t[i + l] == 0.0 && x[i + l] > 0.0) delta.push_back({first + i + l, 0.0});
        }
    const double norm2 = universal_numerator_chunk(x, g, t, n, c, lambda, nonnegative);
    for (std::size_t k = marked; k < delta.size(); ++k) {
        const std::size_t i = delta[k].index - first;
        delta[k].value = t[i] - 0.5 * c * x[i];
    }
    return norm2;
}

}  // namespace

// Pass 1 of a halved trial, chunk by chunk (each chunk's Delta kept apart, then joined in order).
double NoLips::halved_numerator(double c, double lambda)
{
    chunk_corrections_.resize((X_.size() + kPassChunk - 1) / kPassChunk);
    const double norm2 =
        parallel_sums<1>(X_.size(), kPassChunk, kPassGrain, threads_, [&](std::size_t begin, std::size_t end, auto& sum) {
            std::vector<MatrixEntry>& delta = chunk_corrections_[begin / kPassChunk];
            delta.clear();
            sum[0] += halved_chunk(X_.data() + begin, G_.data() + begin, trial_X_.data() + begin, end - begin, begin, c,
                                   lambda, low_rank_->nonnegative(), delta);
        })[0];
    corrections_.clear();
    for (const auto& delta : chunk_corrections_) corrections_.insert(corrections_.end(), delta.begin(), delta.end());
    return norm2;
}

double NoLips::iterate_once()
{
    const int64_t max_backtracks = settings_.max_backtracks;
    if (gram_) GramKernel{alpha(), beta(), sigma()}.gradient(X_, XtX_, grad_h_);
    for (int64_t trial = 0; trial < max_backtracks; ++trial, lambda_ *= 0.5) {
        const double f_trial = gram_ ? gram_trial(lambda_) : universal_trial(lambda_, trial > 0);
        if (f_trial <= f_ + displacement_.g_d + bregman_distance() / lambda_) {  // decrease condition (22)
            std::swap(X_, trial_X_);
            std::swap(eval_, trial_eval_);
            f_ = f_trial;
            x_norm2_ = displacement_.t_t;
            refresh_gradient();
            const double used = lambda_;
            lambda_ = std::min(2.0 * lambda_, settings_.max_step);  // Alg. 2
            return used;
        }
    }
    lambda_ = settings_.initial_step;
    return 0.0;  // no admissible step at working precision: X is kept
}

}  // namespace facto
