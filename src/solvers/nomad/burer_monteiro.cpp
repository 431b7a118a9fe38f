#include "solvers/nomad/burer_monteiro.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <xtensor/xnorm.hpp>
#include <xtensor/xview.hpp>

#include "base/error.hpp"
#include "base/random.hpp"
#include "linalg/blas.hpp"
#include "linalg/lanczos.hpp"
#include "linalg/lbfgsb.hpp"
#include "linalg/parallel.hpp"
#include "linalg/spectral_projected_gradient.hpp"
#include "metrics/metrics.hpp"
#include "problems/symnmf.hpp"
#include "solvers/low_rank/coordinate_descent.hpp"
#include "solvers/nomad/nomad_partition_bound.hpp"
#include "solvers/nomad/nomad_specs.hpp"

namespace facto {

namespace {
// u[k] += (Y^T 1)_k, Y n x r row-major (a loop, also for a block without rows, where xtensor's reduction
// would offset a null pointer)
void add_column_sums(const double* Y, std::size_t n, std::size_t r, double* u)
{
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k) u[k] += Y[i * r + k];
}

std::vector<ParamSpec> burer_monteiro_params()
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    return {
        objective_tolerance_off(),
        real_param("tolerance", 0.0, 0.0, inf,
                   "CONVERGED when the projected gradient of L (D / ||D||_F) at the end of an outer iteration is at "
                   "most this, feasibility_tolerance holds, and no escape (a nonnegative y with y^T S y below -this) "
                   "is found while Y has fewer than rank columns; 0 = automatic: 1e-6 where the solve goes on on the "
                   "feasible factors (sphere method, restore_below > 0: on the first 10,000 Fashion-MNIST test images "
                   "1e-4 stopped 3.4e-4 below the 1e-6 answer), else 1e-4 (lbfgsb's multipliers did not reach 1e-6 "
                   "in 10,000 outer iterations on the first 1000)"),
        real_param("feasibility_tolerance", 1e-5, 0.0, inf,
                   "CONVERGED needs max_i |(Q 1)_i - 1| and |Tr Q - K| / K at most this"),
        int_param("rank", 0, 0, 1000000,
                  "r, the columns of Y, in [K, n]; 0 = min(n, 3 K) with the sphere method (2 K, [NLR]'s, left 2 of 6 "
                  "Fashion-MNIST starts 0.6-0.9% below the optimum), min(n, 2 K) otherwise. The random and symnmf "
                  "starts take r columns, the kmeans start K, and escapes add columns up to r"),
        real_param("penalty", 0.0, 0.0, inf,
                   "sigma, the penalty on Q 1 = 1 in (32); 0 = automatic: 1 (the paper's) for lbfgsb and spg, "
                   "0.5 K / n for sphere (the penalty's sum over n rows then weighs as Tr(D Q) / ||D||_F)"),
        real_param("trace_penalty", 1.0, 0.0, inf, "phi, the penalty on Tr Q = K in (32) (the paper: 1)"),
        real_param("dual_step", 1.0, 0.0, inf, "eta of the multiplier updates (33b-c) (the paper: 1)"),
        int_param("inner_iterations", 0, 0, 1000000,
                  "iterations of the inner method per outer iteration, at most; 0 = automatic: 1000 for lbfgsb and "
                  "spg (the subproblem solved), 10 for sphere (a few steps between multiplier updates, as [NLR]); "
                  "a stop request or time limit ends them early"),
        real_param("inner_tolerance", 1e-8, 0.0, inf,
                   "the inner method stops when the projected gradient of L (D / ||D||_F) is at most this"),
        real_param("inner_decrease", 1e7, 0.0, inf,
                   "the inner method also stops when L's relative decrease is below this times the machine "
                   "epsilon, divided by t + 1 at outer iteration t (L-BFGS-B's factr)"),
        int_param("lbfgs_memory", 10, 1, 100, "correction pairs L-BFGS-B keeps (spg: its nonmonotone window)"),
        real_param("restore_below", 0.1, 0.0, 1.0,
                   "sphere method: once an outer iteration ends with max_i |(Q 1)_i - 1| at most this, Y is restored "
                   "onto NOMAD's feasible factors (Gauss-Newton on Y's support) and the solve goes on by gradient "
                   "projection on them with least-squares multipliers, feasible at every step (on the first 10,000 "
                   "Fashion-MNIST test images the method of multipliers alone took 460 outer iterations, most of them "
                   "on the row sums, this 20; 2e-2 to 3e-1 reached the same answers there and on 1000 images, 1e-1 the "
                   "soonest, 1 a lower local solution); 0 = never, [NLR]'s method of multipliers to the end"),
        choice_param("inner_method", "auto", "auto|sphere|lbfgsb|spg",
                     "the solver of (33a): sphere (spectral projected gradient on {Y >= 0, ||Y||_F^2 = K}: Tr Q = K "
                     "held exactly by rescaling, the trace penalty idle, as [NLR]), lbfgsb (L-BFGS-B in the box "
                     "0 <= Y <= 1 with the trace penalty, the paper's), spg (the same box by spectral projected "
                     "gradient: no O(m n r) work per iteration besides the products); auto: sphere, but lbfgsb when "
                     "rank is K, where every feasible Q is a hard clustering (spg on a distributed nomad, which "
                     "refuses lbfgsb)"),
        choice_param("start", "auto", "auto|random|symnmf|kmeans",
                     "random: r columns of uniform random entries from the seed ([NLR]); symnmf: a symmetric NMF of D "
                     "(App. D; coordinate descent, needs D's n^2 entries); kmeans: the scaled indicators of kernel "
                     "k-means on D (products with D only; K columns, more by escapes); auto: random with the sphere "
                     "method, else symnmf when D was given and kmeans when the problem holds points (a distributed "
                     "nomad refuses symnmf)"),
        int_param("start_iterations", 100, 0, 1000000,
                  "coordinate descent sweeps of the symmetric NMF start, or Lloyd iterations of the k-means one"),
        int_param("start_replicates", 3, 1, 1000,
                  "kernel k-means runs of the kmeans start, from seeds seed, seed + 1, ...: the clustering of largest "
                  "Tr(D X) starts (a hard clustering is stationary for L, so the start's quality is the answer's)"),
        int_param("bound_parts", 0, 0, 1000000,
                  "on points, the parts K' of the partition whose aggregated nonnegativity Q Z >= 0 the upper_bound "
                  "output's dual bound uses (k-means on D's principal components); 0 = min(4 K, 64), at most n"),
        int_param("bound_iterations", 200, 0, 1000000,
                  "on points, projected gradient iterations on that bound's multiplier (O(n (r + K') K' + (r + 2 K')^3) "
                  "each, r the principal components kept), at most, and within the multiply-adds the solve's products "
                  "took (or 1e9, a second's), so that the certificate costs no more than the solve (1000 Reuters TF-IDF "
                  "documents, whose flat spectrum keeps 982 components, took 110 s for 200 after a 1.9 s solve); "
                  "0: the spectral bound of k-means alone"),
    };
}
}  // namespace

BurerMonteiro::BurerMonteiro(std::shared_ptr<const NomadProblem> problem)
    : Solver(problem, with_label_params(burer_monteiro_params())), nomad_(std::move(problem))
{
    n_ = static_cast<std::size_t>(nomad_->n());
    const RowBlocks* blocks = nomad_->row_blocks();
    first_ = blocks ? static_cast<std::size_t>(blocks->first()) : 0;
    K_ = nomad_->K();
    Params& p = mutable_params();
    p.bind("rank", settings_.rank);
    bind_label_rule(p, settings_.labels);
    p.bind("start_iterations", settings_.start_iterations);
    p.bind("start_replicates", settings_.start_replicates);
    p.bind("bound_parts", settings_.bound_parts);
    p.bind("bound_iterations", settings_.bound_iterations);
    p.bind("start", settings_.start,
           {{"auto", Start::automatic}, {"random", Start::random}, {"symnmf", Start::symnmf}, {"kmeans", Start::kmeans}});
    p.bind("lbfgs_memory", settings_.lbfgs_memory);
    p.bind("restore_below", settings_.restore_below);
    p.bind("inner_method", settings_.inner,
           {{"auto", Inner::automatic}, {"sphere", Inner::sphere}, {"lbfgsb", Inner::lbfgsb}, {"spg", Inner::spg}});
    p.bind("inner_iterations", settings_.inner_iterations);
    p.bind("penalty", settings_.penalty);
    p.bind("trace_penalty", settings_.trace_penalty);
    p.bind("dual_step", settings_.dual_step);
    p.bind("inner_tolerance", settings_.inner_tolerance);
    p.bind("inner_decrease", settings_.inner_decrease);
}

void BurerMonteiro::check_params(const Params& p) const
{
    const int64_t n = static_cast<int64_t>(n_), r = p.get_int("rank");
    require(r == 0 || (r >= K_ && r <= n), FACTO_ERROR_OUT_OF_RANGE,
            "burer_monteiro: rank must be in [K, n] = [" + std::to_string(K_) + ", " + std::to_string(n) + "], got " +
                std::to_string(r));
    require(!nomad_->row_blocks() || (p.get_string("inner_method") != "lbfgsb" && p.get_string("start") != "symnmf"),
            FACTO_ERROR_UNSUPPORTED,
            "burer_monteiro on a distributed nomad solves (33a) by spg and starts from kernel k-means (inner_method "
            "lbfgsb and start symnmf need all of Y or D on one process)");
}

std::size_t BurerMonteiro::rank() const
{
    const int64_t n = static_cast<int64_t>(n_), r = settings_.rank;
    return static_cast<std::size_t>(r == 0 ? std::min(n, (sphere() ? 3 : 2) * K_) : r);
}

void BurerMonteiro::factor_start(Matrix M, uint64_t seed)
{
    CoordinateDescent snmf(std::make_shared<const SymNMF>(std::move(M), static_cast<int64_t>(rank())));
    snmf.mutable_params().set_int("seed", static_cast<int64_t>(seed));
    snmf.mutable_params().set_int("max_iterations", settings_.start_iterations);
    snmf.mutable_params().set_double("tolerance", 0.0);
    snmf.mutable_params().set_double("objective_tolerance", 0.0);
    snmf.set_callback([this](const Progress&) { return interrupted(); });  // a stop request ends the sweeps
    snmf.initialize();
    if (settings_.start_iterations > 0) snmf.solve();
    Y_ = snmf.iterate();
    normalize_start();
}

void BurerMonteiro::kmeans_start(uint64_t seed)
{
    // Y_ik = 1 / sqrt(n_k) for i in cluster k: K columns, Y Y^T the clustering's Q, feasible, from the
    // replicate of largest Tr(Y^T D Y) = Tr(D X) (a stop request or the time limit ends the replicates
    // after the first). Further columns come from escapes (escape()), not from noise: a hard clustering
    // is a stationary point of L, and noise columns cost the inner solves most of their time without
    // leaving it (Fashion-MNIST, docs/architecture.md)
    double best = -std::numeric_limits<double>::infinity();
    std::vector<int64_t> kept;
    for (int64_t replicate = 0; replicate < settings_.start_replicates && (replicate == 0 || !interrupted_anywhere());
         ++replicate) {
        std::vector<int64_t> labels = kernel_kmeans(rows_, K_, seed + static_cast<uint64_t>(replicate),
                                                    static_cast<int>(std::max<int64_t>(settings_.start_iterations, 1)));
        set_indicators(labels);
        YtD_ = Matrix({Y_.shape()[1], Y_.shape()[0]});
        double objective = product(Y_.data());
        sum(&objective, 1);
        if (objective > best) best = objective, kept = std::move(labels);
    }
    set_indicators(kept);
    normalize_start();
}

void BurerMonteiro::set_indicators(const std::vector<int64_t>& labels)
{
    const std::size_t K = static_cast<std::size_t>(K_);
    std::vector<double> size(K, 0.0);
    for (int64_t l : labels) ++size[static_cast<std::size_t>(l)];
    sum(size.data(), K);
    Y_ = Matrix({labels.size(), K}, 0.0);
    for (std::size_t i = 0; i < labels.size(); ++i)
        Y_(i, static_cast<std::size_t>(labels[i])) = 1.0 / std::sqrt(size[static_cast<std::size_t>(labels[i])]);
}

void BurerMonteiro::normalize_start()
{
    // scale so that 1^T Y Y^T 1 / n = ||Y^T 1||^2 / n = 1; from Y = 0 (a stationary point of L) take the
    // constant Y with Y Y^T = E
    const std::size_t r = Y_.shape()[1];
    std::vector<double> u(r, 0.0);
    add_column_sums(Y_.data(), Y_.shape()[0], r, u.data());
    sum(u.data(), r);
    const double mean_row_sum = blas::dot(u.data(), u.data(), r) / static_cast<double>(n_);
    if (mean_row_sum > 0.0 && std::isfinite(mean_row_sum))
        Y_ /= std::sqrt(mean_row_sum);
    else
        Y_.fill(1.0 / std::sqrt(static_cast<double>(n_ * r)));
    Y_ = xt::clip(Y_, 0.0, 1.0);
}

void BurerMonteiro::prepare_data()
{
    threads_ = resolve_threads(common().threads);
    if (!rows_.left_multiply) {
        scale_ = nomad_->frobenius_norm();
        if (!(scale_ > 0.0)) scale_ = 1.0;
        nomad_->scale(1.0 / scale_, scaled_);
    }
    rows_ = nomad_->scaled_rows(scaled_, threads_);
    product_columns_ = 0.0;
}

void BurerMonteiro::start_default(uint64_t seed)
{
    prepare_data();
    const Nomad* whole = nomad_->whole();
    const bool automatic = settings_.start == Start::automatic;
    const bool symnmf = settings_.start == Start::symnmf || (automatic && !sphere() && whole && !whole->D().is_factored());
    if (settings_.start == Start::random || (automatic && sphere())) {
        random_start(seed);
    } else if (symnmf) {
        Matrix M = whole->D().triangle("burer_monteiro's symnmf start")->to_dense();
        M /= scale_;
        factor_start(std::move(M), seed);
    } else {
        kmeans_start(seed);
    }
    begin();
}

void BurerMonteiro::start(Matrix Q0)
{
    prepare_data();
    factor_start(std::move(Q0), static_cast<uint64_t>(common().seed));
    begin();
}

void BurerMonteiro::random_start(uint64_t seed)
{
    // drawn for all n points in one sequence, each process keeping its rows (the single-process draws)
    const std::size_t n = n_, r = rank();
    Rng rng(seed);
    Y_ = Matrix({nomad_->row_blocks() ? static_cast<std::size_t>(nomad_->row_blocks()->rows()) : n, r});
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t k = 0; k < r; ++k) {
            const double value = rng.uniform();
            if (j >= first_ && j < first_ + Y_.shape()[0]) Y_(j - first_, k) = value;
        }
    normalize_start();
}

bool BurerMonteiro::sphere() const
{
    // automatic: the sphere but at rank K, where every feasible Q is a hard clustering, which the random
    // start rarely reaches (two rings, n = 200, K = 16: it ends on a degenerate point) and the paper's form
    // from its start is
    return settings_.inner == Inner::sphere || (settings_.inner == Inner::automatic && settings_.rank != K_);
}

double BurerMonteiro::tolerance() const
{
    return common().tolerance > 0.0 ? common().tolerance : sphere() && settings_.restore_below > 0.0 ? 1e-6 : 1e-4;
}

double BurerMonteiro::radius() const { return std::sqrt(static_cast<double>(K_)); }

void BurerMonteiro::onto_sphere()
{
    project_to_nonnegative_sphere(Y_.data(), Y_.size(), Y_.shape()[1], radius(), 1.0, Y_.data(), problem().collectives());
}

double BurerMonteiro::sigma() const
{
    return settings_.penalty > 0.0     ? settings_.penalty
           : sphere() ? 0.5 * static_cast<double>(K_) / static_cast<double>(n_)
                                       : 1.0;
}

void BurerMonteiro::begin()
{
    const std::size_t n = Y_.shape()[0];  // the rows held here
    if (sphere()) onto_sphere();  // Tr Q = K from the start
    YtD_ = Matrix({Y_.shape()[1], n});
    mu_.assign(n, 0.0);
    lambda_ = 0.0;
    step_ = 0.0;
    outer_ = 0;
    on_set_ = false;
    multipliers_.clear();
    inner_gradient_ = std::numeric_limits<double>::infinity();  // no inner solve yet
    measure();
}

double BurerMonteiro::product_work() const
{
    // each product reads D's stored values once per column of Y (twice for a factor: two GEMMs)
    const double per_column = scaled_.D ? scaled_.D->stored_values() * (scaled_.D->is_factored() ? 2.0 : 1.0) : 0.0;
    return product_columns_ * per_column;
}

double BurerMonteiro::product(const double* Y)
{
    const std::size_t n = Y_.shape()[0], r = Y_.shape()[1];
    product_columns_ += static_cast<double>(r);
    rows_.left_multiply(Y, r, YtD_.data());
    double YDY = 0.0;
    for (std::size_t k = 0; k < r; ++k)
        for (std::size_t i = 0; i < n; ++i) YDY += YtD_(k, i) * Y[i * r + k];
    return YDY;
}

double BurerMonteiro::lagrangian(const double* Y, double* G)
{
    const std::size_t n = Y_.shape()[0], r = Y_.shape()[1];
    const double sigma = this->sigma(), phi = settings_.trace_penalty;
    // u = Y^T 1, ||Y||^2 and Tr(Y^T D Y), summed over the processes in one collective
    u_.assign(r + 2, 0.0);
    add_column_sums(Y, n, r, u_.data());
    u_[r] = blas::dot(Y, Y, n * r);
    u_[r + 1] = product(Y);
    sum(u_.data(), r + 2);
    const double t = u_[r] - static_cast<double>(K_), YDY = u_[r + 1];
    u_.resize(r);
    w_.resize(n);
    std::vector<double> ytw(r + 1, 0.0);  // Y^T w, then the rows' terms of L
    double& rows_value = ytw[r];
    for (std::size_t i = 0; i < n; ++i) {
        const double excess = blas::dot(Y + i * r, u_.data(), r) - 1.0;  // (Y u - 1)_i
        rows_value += (0.5 * sigma * excess - mu_[i]) * excess;
        w_[i] = sigma * excess - mu_[i];
        for (std::size_t k = 0; k < r; ++k) ytw[k] += Y[i * r + k] * w_[i];
    }
    sum(ytw.data(), r + 1);
    const double value = -YDY + (0.5 * phi * t - lambda_) * t + rows_value;
    const double c = 2.0 * (phi * t - lambda_);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k)
            G[i * r + k] = -2.0 * YtD_(k, i) + w_[i] * u_[k] + ytw[k] + c * Y[i * r + k];
    return value;
}

LbfgsbSettings BurerMonteiro::inner_settings() const
{
    LbfgsbSettings settings;
    settings.memory = static_cast<int>(settings_.lbfgs_memory);
    settings.max_iterations = static_cast<int>(settings_.inner_iterations > 0 ? settings_.inner_iterations
                                               : sphere()                   ? 10
                                                                            : 1000);
    settings.pgtol = settings_.inner_tolerance;
    settings.factr = settings_.inner_decrease / static_cast<double>(outer_ + 1);
    settings.interrupted = [this] { return interrupted(); };
    settings.step = step_;  // SPG goes on from the last call's length
    return settings;
}

double BurerMonteiro::iterate_once()
{
    if (on_set_) return iterate_on_set();
    // (33a): minimize L from the current Y, on the nonnegative sphere or in the box 0 <= Y <= 1
    const LbfgsbSettings settings = inner_settings();
    std::vector<double> y(Y_.begin(), Y_.end());
    const auto L = [this](const double* Y, double* G) { return lagrangian(Y, G); };
    const Collectives* collectives = problem().collectives();
    const LbfgsbResult inner =
        sphere() ? minimize_on_nonnegative_sphere_spg(y, Y_.shape()[1], radius(), 1.0, L, settings, collectives)
        : settings_.inner == Inner::spg || nomad_->row_blocks() ? minimize_in_box_spg(y, 0.0, 1.0, L, settings, collectives)
                                        : minimize_in_box(y, 0.0, 1.0, L, settings);
    inner_gradient_ = inner.projected_gradient;
    step_ = inner.step;
    const double change = move_to(y);
    // (33b-c)
    const double eta = settings_.dual_step;
    const double sigma = this->sigma(), phi = settings_.trace_penalty;
    for (std::size_t i = 0; i < mu_.size(); ++i) mu_[i] -= eta * sigma * (row_sums_[i] - 1.0);
    lambda_ -= eta * phi * (squares_ - static_cast<double>(K_));
    if (sphere() && feasibility_ <= settings_.restore_below && !interrupted_anywhere()) enter_set();
    escape_if_stationary();
    return change;
}

double BurerMonteiro::move_to(const std::vector<double>& y)
{
    double change = 0.0;  // ||Y_new - Y||_F^2, the step size's numerator
    for (std::size_t k = 0; k < y.size(); ++k) {
        change += (y[k] - Y_.data()[k]) * (y[k] - Y_.data()[k]);
        Y_.data()[k] = y[k];
    }
    sum(&change, 1);
    const double size = squares_;  // ||Y||_F^2 before the step
    ++outer_;
    measure();
    return size > 0.0 ? std::sqrt(change / size) : std::sqrt(change);
}

void BurerMonteiro::escape_if_stationary()
{
    // a point that would end the solve first tries to escape by one more column (off the feasible
    // factors: the method of multipliers goes on from it)
    if (Y_.shape()[1] < rank() && inner_gradient_ <= tolerance() && feasibility_ <= common().feasibility_tolerance &&
        !interrupted_anywhere() && escape()) {
        on_set_ = false;
        multipliers_.clear();
        inner_gradient_ = projected_gradient();
    }
}

KmeansFactors BurerMonteiro::factors() const
{
    return KmeansFactors{Y_.shape()[0], Y_.shape()[1], static_cast<double>(K_), problem().collectives()};
}

void BurerMonteiro::enter_set()
{
    std::vector<double> y(Y_.begin(), Y_.end());
    if (!factors().restore(y.data(), kRestored)) return;  // not yet: the multipliers go on
    std::copy(y.begin(), y.end(), Y_.begin());
    on_set_ = true;
    step_ = 0.0;
    multipliers_.clear();
    measure();
    std::vector<double> R(y.size());
    value_on_set(Y_.data(), R.data());
    inner_gradient_ = largest(box_projected_gradient(Y_.data(), R.data(), R.size(), 0.0, std::numeric_limits<double>::infinity()));
    adopt_multipliers();
}

double BurerMonteiro::value_on_set(const double* Y, double* R)
{
    // f = -Tr(Y^T D Y) (L on the set: the penalties and multipliers' terms vanish), G = -2 D Y, and
    // R its reduced gradient at the least-squares multipliers (started from the last ones)
    const std::size_t n = Y_.shape()[0], r = Y_.shape()[1];
    double YDY = product(Y);
    sum(&YDY, 1);
    gradient_.resize(n * r);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k) gradient_[i * r + k] = -2.0 * YtD_(k, i);
    factors().reduce(Y, gradient_.data(), multipliers_, R);
    return -YDY;
}

void BurerMonteiro::adopt_multipliers()
{
    // R = G - J^T x is L's gradient at mu = x (the rows') and lambda = x_n (the trace's) on the set
    std::copy(multipliers_.begin(), multipliers_.begin() + static_cast<std::ptrdiff_t>(mu_.size()), mu_.begin());
    lambda_ = multipliers_.back();
}

double BurerMonteiro::iterate_on_set()
{
    // 10 steps of gradient projection along the retraction onto the feasible factors (its Armijo search
    // and Barzilai-Borwein lengths SPG's), from the last call's length
    std::vector<double> y(Y_.begin(), Y_.end());
    const KmeansFactors set = factors();
    const auto retract = [this, &set](const double* v, double* out) {
        if (out != v) std::copy(v, v + set.rows * set.columns, out);
        return set.restore(out, kRestored, 10, [this] { return interrupted_anywhere(); });
    };
    const auto f = [this](const double* Y, double* R) { return value_on_set(Y, R); };
    const LbfgsbResult inner = minimize_by_retraction_spg(y, retract, radius(), f, inner_settings(), problem().collectives());
    inner_gradient_ = inner.projected_gradient;
    step_ = inner.step;
    const double change = move_to(y);
    adopt_multipliers();
    escape_if_stationary();
    return change;
}

void BurerMonteiro::apply_s(const double* Z, std::size_t m, double* SZ)
{
    // S Z = -D Z + (w (1^T Z) + 1 (w^T Z)) / 2 + c Z (Z n x m, row-major), with w = sigma (Y Y^T 1 - 1) - mu
    // and c = phi (||Y||^2 - K) - lambda: 2 S Y is the gradient of L, S its gradient in Q = Y Y^T
    const std::size_t n = mu_.size();  // the rows held here
    const double sigma = this->sigma(), c = settings_.trace_penalty * (squares_ - static_cast<double>(K_)) - lambda_;
    std::vector<double> ZtD(m * n), w(n), sums(2 * m, 0.0);  // 1^T Z, then w^T Z
    rows_.left_multiply(Z, m, ZtD.data());
    for (std::size_t i = 0; i < n; ++i) {
        w[i] = sigma * (row_sums_[i] - 1.0) - mu_[i];
        for (std::size_t k = 0; k < m; ++k) sums[k] += Z[i * m + k], sums[m + k] += w[i] * Z[i * m + k];
    }
    sum(sums.data(), 2 * m);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < m; ++k)
            SZ[i * m + k] = -ZtD[k * n + i] + 0.5 * (w[i] * sums[k] + sums[m + k]) + c * Z[i * m + k];
}

bool BurerMonteiro::escape()
{
    // A column beta^(1/2) y, y >= 0 with ||y|| = 1, changes L by beta y^T S y + beta^2 (sigma s^2 + phi) / 2
    // (s = 1^T y): a descent when y^T S y < 0, and beta = -y^T S y / (sigma s^2 + phi) its best length
    // (HALLaR's escape step, in the nonnegative orthant). Whether S is copositive cannot be decided in
    // general; y is sought by the projected power method y := [gamma y - S y]_+ / ||.|| (gamma >=
    // lambda_max(S), so y^T S y never increases) from four starts at once: the two signed parts of S's
    // smallest eigenvector and two random nonnegative vectors.
    // smallest_eigenpair of a distributed S: blocks of vectors, products and sums collective. The random
    // values are drawn for all n points in one sequence, each process keeping its rows' (the
    // single-process draws)
    const std::size_t n = mu_.size(), r = Y_.shape()[1], m = 4;
    Rng rng(static_cast<uint64_t>(common().seed) + r);
    const auto mine = [&](std::size_t j) { return j >= first_ && j < first_ + n; };
    std::vector<double> low(n), high(n);
    for (std::size_t j = 0; j < n_; ++j) {
        const double a = rng.uniform() - 0.5, b = rng.uniform() - 0.5;
        if (mine(j)) low[j - first_] = a, high[j - first_] = b;
    }
    const Collectives* collectives = problem().collectives();
    smallest_eigenpair(n_, [this](const double* x, double* y) { apply_s(x, 1, y); }, low, 1e-3, 40, 400, collectives);
    const Eigenpair top = smallest_eigenpair(n_, [this](const double* x, double* y) {
        apply_s(x, 1, y);
        for (std::size_t i = 0; i < mu_.size(); ++i) y[i] = -y[i];
    }, high, 1e-2, 40, 400, collectives);
    const double gamma = -top.value + top.residual;
    Matrix Z({n, m}), SZ({n, m});
    for (std::size_t i = 0; i < n; ++i) Z(i, 0) = std::max(low[i], 0.0), Z(i, 1) = std::max(-low[i], 0.0);
    for (std::size_t j = 0; j < n_; ++j) {
        const double a = rng.uniform(), b = rng.uniform();
        if (mine(j)) Z(j - first_, 2) = a, Z(j - first_, 3) = b;
    }
    std::vector<double> curvature(m, 0.0), sums(m);
    const auto column_dots = [&](const Matrix& A, const Matrix& B, std::vector<double>& dots) {  // summed A_k . B_k
        std::fill(dots.begin(), dots.end(), 0.0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < m; ++k) dots[k] += A.data()[i * m + k] * B.data()[i * m + k];
        sum(dots.data(), m);
    };
    for (int iteration = 0;; ++iteration) {
        column_dots(Z, Z, sums);
        for (std::size_t k = 0; k < m; ++k)  // a column that vanished stays 0 (its curvature 0)
            if (sums[k] > 0.0) xt::view(Z, xt::all(), k) /= std::sqrt(sums[k]);
        apply_s(Z.data(), m, SZ.data());
        column_dots(Z, SZ, sums);
        double moved = 0.0;
        for (std::size_t k = 0; k < m; ++k) {
            moved = std::max(moved, std::fabs(sums[k] - curvature[k]));
            curvature[k] = sums[k];
        }
        if ((iteration > 0 && moved <= 1e-3 * tolerance()) || iteration == 100 || interrupted_anywhere()) break;
        Z = xt::maximum(gamma * Z - SZ, 0.0);
    }
    const std::size_t best = static_cast<std::size_t>(std::min_element(curvature.begin(), curvature.end()) - curvature.begin());
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i) s += Z(i, best);
    sum(&s, 1);
    // with both penalties 0, L falls without bound along y: no length to take, no column
    const double curvature_of_penalties = sigma() * s * s + settings_.trace_penalty;
    if (!(curvature[best] < -tolerance()) || !(curvature_of_penalties > 0.0)) return false;
    const double beta = -curvature[best] / curvature_of_penalties;
    Matrix grown({n, r + 1});
    for (std::size_t i = 0; i < n; ++i) {
        std::copy(&Y_(i, 0), &Y_(i, 0) + r, &grown(i, 0));
        grown(i, r) = std::min(std::sqrt(beta) * Z(i, best), 1.0);
    }
    Y_ = std::move(grown);
    if (sphere()) onto_sphere();  // back onto Tr Q = K
    YtD_ = Matrix({r + 1, n});
    measure();
    return true;
}

double BurerMonteiro::projected_gradient()
{
    std::vector<double> G(Y_.size());
    lagrangian(Y_.data(), G.data());
    if (sphere())
        return sphere_projected_gradient(Y_.data(), G.data(), G.size(), Y_.shape()[1], radius(), 1.0, problem().collectives());
    return largest(box_projected_gradient(Y_.data(), G.data(), G.size(), 0.0, 1.0));
}

void BurerMonteiro::measure()
{
    const std::size_t n = Y_.shape()[0], r = Y_.shape()[1];
    // u = Y^T 1, ||Y||^2 = Tr Q and Tr(Y^T D Y), summed over the processes in one collective
    std::vector<double> u(r + 2, 0.0);
    add_column_sums(Y_.data(), n, r, u.data());
    u[r] = blas::dot(Y_.data(), Y_.data(), Y_.size());
    u[r + 1] = product(Y_.data());
    sum(u.data(), r + 2);
    squares_ = u[r];
    objective_ = scale_ * u[r + 1];
    row_sums_.resize(n);
    double residual = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        row_sums_[i] = blas::dot(&Y_(i, 0), u.data(), r);
        residual = std::max(residual, std::fabs(row_sums_[i] - 1.0));
    }
    const double K = static_cast<double>(K_);
    feasibility_ = std::max(largest(residual), std::fabs(squares_ - K) / K);
    dense_ = Matrix{};
    dense_valid_ = false;
    labels_.reset();
}

const Matrix& BurerMonteiro::current() const
{
    if (!dense_valid_) {  // Q's rows held here: Y's times all of Y (gathered when distributed; a block may be empty)
        agree_on_errors(problem().collectives(), [&] {  // the blocks differ in size: one process may refuse alone
            require_memory(8.0 * double(Y_.shape()[0]) * double(n_), "burer_monteiro's Q = Y Y^T of order " + std::to_string(n_));
        });
        const RowBlocks* blocks = nomad_->row_blocks();
        const Matrix all = blocks ? blocks->gather(Y_.data(), Y_.shape()[1], "the gathered factor") : Matrix{};
        const Matrix& Y = blocks ? all : Y_;
        dense_ = Matrix({Y_.shape()[0], n_});
        blas::gemm(false, true, 1.0, Y_, Y, 0.0, dense_);
        dense_valid_ = true;
    }
    return dense_;
}

std::vector<OutputSpec> BurerMonteiro::output_specs() const
{
    // the rank in use once started; before, the parameter's
    const RowBlocks* blocks = nomad_->row_blocks();
    const int64_t rows = blocks ? blocks->rows() : static_cast<int64_t>(n_);
    const int64_t columns = started() ? static_cast<int64_t>(Y_.shape()[1]) : static_cast<int64_t>(rank());
    std::vector<OutputSpec> specs = Solver::output_specs();
    specs.push_back({"factor", FACTO_OUTPUT_DOUBLE, rows, columns});
    if (nomad_->whole()) specs.push_back(upper_bound_spec());
    return specs;
}

Output BurerMonteiro::output(const std::string& name) const
{
    if (name == "factor") {
        require(started(), FACTO_ERROR_BAD_STATE, "burer_monteiro: no factor before the solver has started");
        return Output{{"factor", FACTO_OUTPUT_DOUBLE, static_cast<int64_t>(Y_.shape()[0]), static_cast<int64_t>(Y_.shape()[1])},
                      std::vector<double>(Y_.begin(), Y_.end()), {}};
    }
    if (const Nomad* whole = nomad_->whole(); name == "upper_bound" && whole) {
        require(started(), FACTO_ERROR_BAD_STATE, "the solver has no iterate yet (step it, or set one)");
        // the least of the certificates of two clusterings into at most K clusters (O(n K) memory above
        // n = 2000, dense below):
        // kernel k-means on D, and Q's connected components when they are at most K; on points, also
        // the dual bound of a partition (O(n (r + K')) memory)
        const uint64_t seed = static_cast<uint64_t>(common().seed);
        const std::vector<int64_t> kmeans = kernel_kmeans(*scaled_.D, whole->K(), seed, 100, threads_);
        double bound = whole->clustering_bound(kmeans, threads_).bound;
        const std::vector<int64_t> components = output("labels").ints;
        if (*std::max_element(components.begin(), components.end()) < whole->K())
            bound = std::min(bound, whole->clustering_bound(components, threads_).bound);
        Matrix formed;  // F of single-precision points
        if (const Matrix* F = whole->D().dense_factor(formed)) {
            PartitionBoundSettings partition;
            partition.parts = settings_.bound_parts;
            partition.iterations = static_cast<int>(settings_.bound_iterations);
            partition.budget = std::max(product_work(), kBoundWork);
            partition.seed = seed;
            partition.threads = threads_;
            bound = std::min(bound, nomad_partition_bound(*F, whole->K(), partition).bound);
        }
        return Output{upper_bound_spec(), {bound}, {}};
    }
    if (!started()) return Solver::output(name);
    if (name == "labels" || name == "label_rule") {
        const LabelRule rule = seeded(settings_.labels, common().seed);
        if (!labels_ || !(rule == labels_rule_)) labels_ = nomad_->labels_of_factor(Y_, labels_rule_ = rule);
        for (const OutputSpec& spec : output_specs())
            if (spec.name == name) return Output{spec, {}, name == "labels" ? labels_->first : std::vector<int64_t>{labels_->second}};
    }
    return nomad_->output_of_factor(name, Y_, seeded(settings_.labels, common().seed));
}

}  // namespace facto
