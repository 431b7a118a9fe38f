#include "solvers/nomad/nomad_cgm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/lanczos.hpp"
#include "linalg/parallel.hpp"
#include "solvers/nomad/nomad_specs.hpp"

namespace facto {

namespace {

std::vector<ParamSpec> nomad_cgm_params()
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    return {
        objective_tolerance_off(),
        real_param("tolerance", 5e-3, 0.0, inf,
                   "CONVERGED when the relative duality gap |bound - Tr(D Q)| / max(|bound|, |Tr(D Q)|) is at most "
                   "this (bound: the Lagrangian dual at the multiplier of Q >= 0), and feasibility_tolerance holds"),
        real_param("feasibility_tolerance", 5e-3, 0.0, inf,
                   "CONVERGED needs Q's largest negative entry relative to the entries' mean K / n (the reference "
                   "code's measure, which it stops at 1e-2) and the equality residuals at most this"),
        int_param("inner_iterations", 10, 1, 1000000,
                  "conditional gradient steps per multiplier update (N_inner); "
                  "a stop request or time limit ends them early"),
        real_param("penalty", 1.0, 0.0, inf, "gamma of the augmented Lagrangian (13)"),
        choice_param("penalty_growth", "sqrt", "sqrt|none",
                     "sqrt: gamma sqrt(t + 1) at outer iteration t (the authors' code; converges); none: gamma fixed "
                     "(Alg. 2 as printed; the objective drifts, docs/architecture.md)"),
        real_param("dual_step", 1.0, 0.0, inf, "tau of the multiplier update (15b)"),
        choice_param("penalty_scaling", "spectral", "spectral|none",
                     "spectral: gamma and tau are multiplied by lambda_max(D) / (3.90625 K), 3.90625 being "
                     "lambda_max(D) / K on the paper's two rings (n = 200, K = 16), where gamma = tau = 1 match the "
                     "authors' code, so that the penalty follows the scale of D and of Q's entries; none: as given"),
        real_param("lanczos_tolerance", 1.0, 0.0, 1.0,
                   "relative accuracy of the linear step at outer iteration t: this / (t + 1) (the paper: 1)"),
        int_param("lanczos_steps", 40, 2, 100000, "Lanczos vectors kept before a restart"),
        choice_param("step_rule", "open_loop", "open_loop|line_search",
                     "open_loop: 2 / (k + 2) (Alg. 2); line_search: the larger of that and the exact minimizer of "
                     "the augmented Lagrangian along the step (the authors' code)"),
    };
}
}  // namespace

NomadCgm::NomadCgm(std::shared_ptr<const Nomad> problem)
    : Solver(problem, with_label_params(nomad_cgm_params())), nomad_(std::move(problem))
{
    Params& p = mutable_params();
    p.bind("inner_iterations", settings_.inner_iterations);
    bind_label_rule(p, settings_.labels);
    p.bind("lanczos_steps", settings_.lanczos_steps);
    p.bind("penalty", settings_.penalty);
    p.bind("dual_step", settings_.dual_step);
    p.bind("lanczos_tolerance", settings_.lanczos_tolerance);
    p.bind("penalty_growth", settings_.grow_penalty, {{"sqrt", true}, {"none", false}});
    p.bind("penalty_scaling", settings_.spectral_scaling, {{"spectral", true}, {"none", false}});
    p.bind("step_rule", settings_.line_search, {{"open_loop", false}, {"line_search", true}});
}

void NomadCgm::start(Matrix)
{
    throw Error(FACTO_ERROR_UNSUPPORTED,
                "nomad_cgm takes no iterate: its first conditional-gradient step (length 1, Alg. 1) replaces any "
                "start (burer_monteiro starts from a given Q)");
}

void NomadCgm::start_default(uint64_t seed)
{
    Matrix Q0 = nomad_->random_point(seed);
    const std::size_t n = static_cast<std::size_t>(nomad_->n());
    threads_ = resolve_threads(common().threads);
    // D's triangle (formed here when the problem holds points), and P, Gamma and the gradient
    D_ = nomad_->D().triangle("nomad_cgm");
    require_memory(3.0 * 8.0 * double(n) * double(n + 1) / 2.0, "nomad_cgm's P, Gamma and gradient");
    const double e = 1.0 / static_cast<double>(n);
    for (double& q : Q0) q -= e;
    P_ = PackedSymmetric::from_upper(Q0);
    Gamma_ = PackedSymmetric(n, 0.0);
    G_ = PackedSymmetric(n, 0.0);
    v_.assign(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) v_[i] = std::cos(static_cast<double>(i + 1));
    dual_v_ = v_;
    steps_ = outer_ = products_ = 0;
    penalty_ = settings_.penalty;
    inner_gap_ = std::numeric_limits<double>::infinity();  // not measured before the first step
    // Tr(D E) = 1^T D 1 / n, so that Tr(D Q) = <D, P> + mean_D_ (an array of 1 / n to take <D, E> with
    // would have been as large as D)
    mean_D_ = total(*D_) * e;
    // lambda_max(D) / K = 62.5 / 16 on the paper's two rings (n = 200, K = 16)
    scale_ = settings_.spectral_scaling
                 ? nomad_->D().largest_eigenvalue(threads_) / (3.90625 * static_cast<double>(nomad_->K()))
                 : 1.0;
    measure();
}

double NomadCgm::form_gradient()
{
    const double gamma = penalty_, e = 1.0 / static_cast<double>(P_.n);
    const std::size_t size = G_.values.size();
    const double* D = D_->values.data();
    double norm2 = 0.0;
    for (std::size_t k = 0; k < size; ++k) {
        const double g = -D[k] + Gamma_.values[k] + gamma * std::min(P_.values[k] + e, 0.0);
        G_.values[k] = g;
        norm2 += 2.0 * g * g;  // an upper bound of ||G||_F^2 (the diagonal counted twice)
    }
    return std::sqrt(norm2);
}

void NomadCgm::inner_step(double accuracy)
{
    const std::size_t n = P_.n;
    const double K = static_cast<double>(nomad_->K());
    // Alg. 2 line 6: the smallest eigenvector of J G J with v^T 1 = 0
    const double shift = form_gradient();
    if (nomad_->K() == 1) {
        // H = (K - 1) v v^T = 0 whatever v is (and n = 1 leaves no v with v^T 1 = 0): the step only
        // shrinks P toward 0, the one feasible point Q = 1 1^T / n
        inner_gap_ = inner(G_, P_);
        const double alpha = 2.0 / (static_cast<double>(steps_) + 2.0);
        for (double& x : P_.values) x *= 1.0 - alpha;
        ++steps_;
        return;
    }
    const auto product_with_gradient = [&](const double* x, double* y) { multiply(G_, x, y, threads_); };
    products_ += spectraplex().linear_minimizer(product_with_gradient, shift, v_, accuracy).products;
    // the Frank-Wolfe gap <G, P - H>, H = (K - 1) v v^T (v^T J G J v = v^T G v: v^T 1 = 0)
    std::vector<double> product(n);
    multiply(G_, v_.data(), product.data(), threads_);
    inner_gap_ = inner(G_, P_) - (K - 1.0) * blas::dot(v_.data(), product.data(), n);
    // lines 7-9: P := (1 - alpha) P + alpha (K - 1) v v^T, alpha = 2 / (k + 2) or, with the line search,
    // the larger of that and the exact minimizer of g along the segment
    double alpha = 2.0 / (static_cast<double>(steps_) + 2.0);
    if (settings_.line_search) alpha = std::max(alpha, exact_step(-inner_gap_));
    const double c = alpha * (K - 1.0);
    for (std::size_t i = 0; i < n; ++i) {
        double* row = &P_.values[P_.start(i)];
        const double vi = c * v_[i];
        for (std::size_t j = i; j < n; ++j) row[j - i] = (1.0 - alpha) * row[j - i] + vi * v_[j];
    }
    ++steps_;
}

double NomadCgm::along(double eta, double& curvature) const
{
    // g'(eta) - g'(0) = gamma sum_ij d_ij ([x_ij + eta d_ij]_- - [x_ij]_-), x = P + E, d = (K - 1) v v^T - P;
    // the curvature gamma sum d_ij^2 over the entries negative at eta (off-diagonal ones twice)
    const std::size_t n = P_.n;
    const double e = 1.0 / static_cast<double>(n), K1 = static_cast<double>(nomad_->K()) - 1.0;
    double change = 0.0, bend = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double* row = &P_.values[P_.start(i)];
        const double vi = K1 * v_[i];
        for (std::size_t j = i; j < n; ++j) {
            const double x = row[j - i] + e, d = vi * v_[j] - row[j - i], y = x + eta * d;
            const double weight = j == i ? 1.0 : 2.0;
            change += weight * d * (std::min(y, 0.0) - std::min(x, 0.0));
            bend += y < 0.0 ? weight * d * d : 0.0;
        }
    }
    curvature = penalty_ * bend;
    return penalty_ * change;
}

double NomadCgm::exact_step(double slope) const
{
    // g is convex along the segment and g' piecewise linear and nondecreasing: safeguarded Newton
    // steps on g'(eta) = slope + along(eta) inside a bracket [low, high] of [0, 1]
    if (!(slope < 0.0)) return 0.0;
    double curvature = 0.0;
    if (slope + along(1.0, curvature) <= 0.0) return 1.0;
    double low = 0.0, high = 1.0, eta = 0.0;
    for (int k = 0; k < 40 && high - low > 1e-12; ++k) {
        const double derivative = slope + along(eta, curvature);
        if (derivative <= 0.0) low = eta; else high = eta;
        if (std::fabs(derivative) <= 1e-12 * std::fabs(slope)) break;
        const double next = curvature > 0.0 ? eta - derivative / curvature : high;
        eta = next > low && next < high ? next : 0.5 * (low + high);
    }
    return eta;
}

double NomadCgm::iterate_once()
{
    const double accuracy = settings_.lanczos_tolerance / (static_cast<double>(outer_) + 1.0);
    penalty_ = scale_ * settings_.penalty * (settings_.grow_penalty ? std::sqrt(static_cast<double>(outer_) + 1.0) : 1.0);
    const int64_t inner_iterations = settings_.inner_iterations;
    for (int64_t k = 0; k < inner_iterations && (k == 0 || !interrupted()); ++k) inner_step(accuracy);
    // line 10: Gamma := [Gamma + tau (P + E)]_-
    const double tau = scale_ * settings_.dual_step, e = 1.0 / static_cast<double>(P_.n);
    for (std::size_t k = 0; k < Gamma_.values.size(); ++k)
        Gamma_.values[k] = std::min(Gamma_.values[k] + tau * (P_.values[k] + e), 0.0);
    ++outer_;
    measure();
    return 2.0 / (static_cast<double>(steps_) + 1.0);
}

void NomadCgm::measure()
{
    objective_ = inner(*D_, P_) + mean_D_;
    const std::size_t n = P_.n;
    const double e = 1.0 / static_cast<double>(n), K = static_cast<double>(nomad_->K());
    // Q = P + E: its largest negative entry relative to K / n, and P 1 = 0, Tr P = K - 1 (which the
    // steps keep up to rounding)
    double worst = 0.0, trace = 0.0;
    std::vector<double> rows(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        const double* row = &P_.values[P_.start(i)];
        trace += row[0];
        for (std::size_t j = i; j < n; ++j) {
            worst = std::max(worst, -(row[j - i] + e));
            rows[i] += row[j - i];
            if (j != i) rows[j] += row[j - i];
        }
    }
    double equality = std::fabs(trace - (K - 1.0)) / K;
    for (double r : rows) equality = std::max(equality, std::fabs(r));
    violation_ = std::max(worst / (K * e), equality);
    // the warm-started Lanczos estimate, certified (nomad_dual_bound.hpp) once Q is feasible to the
    // tolerance, where the gap can end the solve, after the first multiplier update (the start is
    // feasible, its gap wide)
    certified_ = outer_ > 0 && violation_ <= common().feasibility_tolerance;
    bound_ = certified_ ? certified_bound()
                        : nomad_dual_bound(*D_, Gamma_, nomad_->K(), spectraplex(), dual_v_, threads_);
    dense_ = Matrix{};
}

std::vector<OutputSpec> NomadCgm::output_specs() const
{
    std::vector<OutputSpec> specs = Solver::output_specs();
    specs.push_back(upper_bound_spec());
    return specs;
}

Output NomadCgm::output(const std::string& name) const
{
    if (name == "upper_bound") {
        require(started(), FACTO_ERROR_BAD_STATE, "the solver has no iterate yet (step it, or set one)");
        return Output{upper_bound_spec(), {upper_bound()}, {}};
    }
    if (name == "Q" || !started()) return Solver::output(name);
    PackedSymmetric Q = P_;
    const double e = 1.0 / static_cast<double>(P_.n);
    for (double& q : Q.values) q += e;
    return nomad_->output(name, Q, seeded(settings_.labels, common().seed));
}

double NomadCgm::certified_bound() const
{
    return nomad_certified_dual_bound(*D_, Gamma_, nomad_->K(), static_cast<std::size_t>(settings_.lanczos_steps),
                                      threads_);
}

double NomadCgm::current_stationarity() const
{
    // measure() certifies feasible iterates after the first multiplier update; the start, or a
    // tolerance changed between solves, can meet the stopping rule against the estimate: certify then
    if (!certified_ && violation_ <= common().feasibility_tolerance &&
        relative_duality_gap(bound_, objective_) <= common().tolerance)
        upper_bound();
    return relative_duality_gap(bound_, objective_);
}

double NomadCgm::upper_bound() const
{
    if (!certified_) {
        bound_ = certified_bound();
        certified_ = true;
    }
    return bound_;
}

const Matrix& NomadCgm::current() const
{
    if (dense_.size() == 0) {
        dense_ = P_.to_dense();
        dense_ += 1.0 / static_cast<double>(P_.n);
    }
    return dense_;
}

}  // namespace facto
