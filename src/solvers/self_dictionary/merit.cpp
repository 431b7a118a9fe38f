#include "solvers/self_dictionary/merit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string_view>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "linalg/scalar_minimum.hpp"
#include "linalg/simplex_least_squares.hpp"

namespace facto {

namespace {
std::vector<ParamSpec> merit_params()
{
    return {
        real_param("tolerance", 1e-3, 0.0, std::numeric_limits<double>::infinity(),
                   "CONVERGED when the Frank-Wolfe gap, relative to f at the start, is at most this (it bounds "
                   "f - f*: f is convex)"),
        choice_param("warm_start", "auto", "auto|spa|none",
                     "start without a given iterate: SPA + simplex least squares (Sec. V-B), C = 0 (Alg. 1), or "
                     "auto = spa when K is known"),
        int_param("t_init", -1, -1, std::numeric_limits<int64_t>::max() / 4,
                  "variant vanilla: first t of the steps 2 / (t + 2); -1 = round(1 / RMSE_init) after a warm "
                  "start, 0 otherwise"),
        int_param("block", 1024, 1, std::numeric_limits<int32_t>::max(),
                  "gradient columns per pass over X (their residual rows are formed together when R is not kept)"),
        choice_param("variant", "auto", "auto|vanilla|away|pairwise|corrective",
                     "vanilla: toward the LMO vertex with steps 2 / (t + 2), the paper's Alg. 1; corrective: each "
                     "column to its exact minimizer on its rows and LMO vertex, one common step (5-27 "
                     "iterations on Table I and the topic and community jobs, where vanilla takes thousands); "
                     "pairwise / away: exact column steps; the line-searched three can creep where lambda is "
                     "large and mu makes Phi nearly nonsmooth (docs/benchmarks.md); auto: corrective on the "
                     "topic job, pairwise on the community job (at their default lambda, 5e-7; set vanilla "
                     "with a large one), vanilla otherwise"),
    };
}
}  // namespace

Merit::Merit(std::shared_ptr<const SelfDictionary> problem) : SelfDictionarySolver(std::move(problem), merit_params())
{
    dictionary_->require_dense("merit", "its sweep reads the residual X C - X, a dense M x N matrix");
    mutable_params().bind("variant", variant_,
                          {{"auto", Variant::automatic}, {"vanilla", Variant::vanilla}, {"away", Variant::away},
                           {"pairwise", Variant::pairwise}, {"corrective", Variant::corrective}});
    mutable_params().bind("warm_start", warm_start_,
                          {{"auto", WarmStart::auto_}, {"spa", WarmStart::spa}, {"none", WarmStart::none}});
    mutable_params().bind("t_init", t_init_);
    mutable_params().bind("block", block_);
}

Merit::Variant Merit::variant() const
{
    if (variant_ != Variant::automatic) return variant_;
    // The jobs' lambda (5e-7 by default) leaves Phi's coupling weak: corrective steps certify the topic
    // job in tens of iterations. On graphs their first full steps leave the SPA start's rows, and the
    // point they certify at a gap of 1e-3 picks other pure nodes than Alg. 1 (lower SRC on every DBLP
    // graph); pairwise steps move mass between two rows at a time and certify at Alg. 1's pure nodes, in
    // tens to hundreds of iterations. On the plain problem the heuristic lambda is large and all three
    // creep (docs/benchmarks.md).
    const std::string_view kind = dictionary_->kind();
    if (kind == "topics") return Variant::corrective;
    return kind == "communities" ? Variant::pairwise : Variant::vanilla;
}

void Merit::begin(bool warm)
{
    threads_ = resolve_threads(common().threads);
    if (t_init_ >= 0 || !warm) {
        t_ = static_cast<double>(std::max<int64_t>(t_init_, 0));
    } else {
        // Sec. V-B: t_init = round(1 / RMSE_init), RMSE_init = ||X - X C0||_F / sqrt(N)
        const double rmse = std::sqrt(dictionary_->residual_squared(C_) / static_cast<double>(dictionary_->N()));
        t_ = std::round(1.0 / std::max(rmse, 1e-12));
    }
    keep_residual_ = dictionary_->N() <= kKeepResidualUpTo;
    work_.find_away = variant() == Variant::away || variant() == Variant::pairwise;
    resweep(false);
    start_objective_ = sweep_.objective;
}

void Merit::start(Matrix C0)
{
    C_ = SimplexColumns::from_dense(C0);
    begin(true);
}

void Merit::check_params(const Params& p) const
{
    require(p.get_string("warm_start") != "spa" || dictionary_->K() > 0, FACTO_ERROR_INVALID_ARGUMENT,
            "warm_start 'spa' needs K (give K to the problem, or use warm_start 'none')");
}

void Merit::start_default(uint64_t)
{
    const bool warm = warm_start_ == WarmStart::spa || (warm_start_ == WarmStart::auto_ && dictionary_->K() > 0);
    if (warm) {
        C_ = dictionary_->warm_start(resolve_threads(common().threads));
    } else {
        C_ = SimplexColumns{};
        C_.columns.resize(static_cast<std::size_t>(dictionary_->columns()));
    }
    begin(warm);
}

double Merit::iterate_once()
{
    if (variant() == Variant::vanilla) return open_loop_step();
    if (variant() != Variant::corrective && !work_.find_away) {  // the variant was chosen after the last sweep
        work_.find_away = true;
        resweep(true);
    }
    return line_searched_step();
}

void Merit::resweep(bool residual_moved)
{
    if (keep_residual_ && !residual_moved) {
        dictionary_->residual(C_, R_, threads_);
        since_exact_ = 0;
    }
    sweep_ = merit_sweep(*dictionary_, C_, keep_residual_ ? &R_ : nullptr, vertex_, block_, threads_, work_);
}

double Merit::open_loop_step()
{
    const double alpha = 2.0 / (t_ + 2.0);  // Alg. 1 line 8
    // line 18: every column toward its vertex by alpha (R moves with C, except every 32nd iteration,
    // when it is recomputed from C)
    moves_.resize(vertex_.size());
    for (std::size_t l = 0; l < vertex_.size(); ++l) {
        moves_[l] = Move{BlockDirection{BlockDirection::toward, vertex_[l], vertex_[l], 0.0, 1.0}, alpha, {}};
    }
    const bool move_residual = keep_residual_ && ++since_exact_ < 32;
    move(1.0, move_residual);
    t_ += 1.0;
    resweep(move_residual);
    return alpha;
}

bool Merit::fill_empty_columns()
{
    bool empty = false;
    for (std::size_t l = 0; l < C_.columns.size(); ++l)
        if (C_.columns[l].empty()) {
            C_.frank_wolfe_update(l, vertex_[l], 1.0);
            empty = true;
        }
    empty = any_over(problem().collectives(), empty);  // on any process
    if (empty) resweep(false);
    return empty;
}

double Merit::line_searched_step()
{
    if (fill_empty_columns()) return 1.0;
    const auto [slope, curvature] = variant() == Variant::corrective ? corrective_targets() : column_steps();
    const double theta = dictionary_->lambda() == 0.0 ? 1.0 : common_factor(slope, curvature);
    const bool move_residual = keep_residual_ && ++since_exact_ < 32;
    move(theta, move_residual);
    resweep(move_residual);
    return theta;
}

std::pair<double, double> Merit::summed(const std::vector<double>& slopes, const std::vector<double>& curvatures) const
{
    double sums[2] = {std::accumulate(slopes.begin(), slopes.end(), 0.0),
                      std::accumulate(curvatures.begin(), curvatures.end(), 0.0)};
    problem().reduce_sums(sums, 2);  // over the processes' columns
    return {sums[0], sums[1]};
}

std::pair<double, double> Merit::column_steps()
{
    const Matrix& Xt = dictionary_->Xt();
    const std::size_t n = C_.columns.size(), m = Xt.shape()[1];
    moves_.assign(n, Move{});
    std::vector<double> slopes(n, 0.0), curvatures(n, 0.0);
    const double lambda = dictionary_->lambda();
    parallel_for(n, grain_for(4 * m), threads_, [&](std::size_t begin, std::size_t end) {
        std::vector<double> r(m), xd(m);
        std::vector<DirectionEntry> entries;
        for (std::size_t l = begin; l < end; ++l) {
            const int64_t a = work_.away[l];
            const BlockDirection d = block_direction(block_variant(), vertex_[l], a, work_.vertex_value[l], work_.away_value[l],
                                                     work_.inner[l], a >= 0 ? C_.value(l, a) : 0.0);
            if (d.kind == BlockDirection::none) continue;
            const double* rl = &r[0];
            if (keep_residual_) rl = &R_(l, 0);
            else dictionary_->residual_column(C_, l, r.data());
            // X d: toward x_s - X c_l, away X c_l - x_a, pairwise x_s - x_a, with X c_l = r_l + x_l
            const double *xl = &Xt(dictionary_->first() + l, 0), *xs = &Xt(static_cast<std::size_t>(d.s), 0),
                         *xa = &Xt(static_cast<std::size_t>(d.a), 0);
            for (std::size_t k = 0; k < m; ++k)
                xd[k] = d.kind == BlockDirection::toward ? xs[k] - xl[k] - rl[k]
                        : d.kind == BlockDirection::away ? rl[k] + xl[k] - xa[k]
                                                         : xs[k] - xa[k];
            const double xd2 = blas::dot(xd.data(), xd.data(), m), rd = blas::dot(rl, xd.data(), m);
            // lambda = 0: the exact minimizer of the column's residual term, rd g + xd2 g^2 / 2, on [0, max_step]
            const double step = lambda > 0.0 ? column_step_with_phi(l, d, rd, xd2, entries)
                                : xd2 > 0.0  ? std::clamp(-rd / xd2, 0.0, d.max_step)
                                             : d.max_step;
            moves_[l] = Move{d, step, {}};
            slopes[l] = step * rd;
            curvatures[l] = 0.5 * step * step * xd2;
        }
    });
    return summed(slopes, curvatures);
}

std::pair<double, double> Merit::corrective_targets()
{
    const Matrix& Xt = dictionary_->Xt();
    const std::size_t n = C_.columns.size(), m = Xt.shape()[1];
    moves_.assign(n, Move{});
    std::vector<double> slopes(n, 0.0), curvatures(n, 0.0);
    const double lambda = dictionary_->lambda();
    parallel_for(n, grain_for(64 * m), threads_, [&](std::size_t begin, std::size_t end) {
        std::vector<double> r(m), xd(m);
        std::vector<int64_t> rows;
        for (std::size_t l = begin; l < end; ++l) {
            // the column's rows and its LMO vertex
            rows.clear();
            for (const auto& e : C_.columns[l]) rows.push_back(e.row);
            if (!C_.contains(l, vertex_[l])) rows.insert(std::lower_bound(rows.begin(), rows.end(), vertex_[l]), vertex_[l]);
            const std::size_t k = rows.size();
            // min over the simplex on those rows of 1/2 ||X_S h - x_l||^2 + lambda <y_l(S), h>: Gram
            // Q = X_S^T X_S and b_i = x_{S_i}^T x_l - lambda Y(S_i, l), Y at the current C
            const double* xl = &Xt(dictionary_->first() + l, 0);
            Matrix Q({k, k}), b({1, k});
            for (std::size_t i = 0; i < k; ++i) {
                const double* xi = &Xt(static_cast<std::size_t>(rows[i]), 0);
                for (std::size_t j = 0; j <= i; ++j)
                    Q(i, j) = Q(j, i) = blas::dot(xi, &Xt(static_cast<std::size_t>(rows[j]), 0), m);
                const double c = C_.value(l, rows[i]);
                b(0, i) = blas::dot(xi, xl, m) -
                          lambda * dictionary_->softmax_weight(work_.softmax, static_cast<std::size_t>(rows[i]), c, c);
            }
            const Matrix h = simplex_least_squares_gram(Q, b, 1);
            Move& mv = moves_[l];
            for (std::size_t i = 0; i < k; ++i)
                if (h(0, i) > 0.0) mv.target.push_back({rows[i], h(0, i)});
            // X d = X_S h - x_l - r_l along d = target - c_l
            const double* rl = r.data();
            if (keep_residual_) rl = &R_(l, 0);
            else dictionary_->residual_column(C_, l, r.data());
            for (std::size_t q = 0; q < m; ++q) xd[q] = -xl[q] - rl[q];
            for (const auto& e : mv.target) {
                const double* x = &Xt(static_cast<std::size_t>(e.row), 0);
                for (std::size_t q = 0; q < m; ++q) xd[q] += e.value * x[q];
            }
            mv.step = 1.0;
            slopes[l] = blas::dot(rl, xd.data(), m);
            curvatures[l] = 0.5 * blas::dot(xd.data(), xd.data(), m);
        }
    });
    return summed(slopes, curvatures);
}

double Merit::column_step_with_phi(std::size_t l, const BlockDirection& d, double rd, double xd2,
                                   std::vector<DirectionEntry>& entries) const
{
    // the rows the direction moves, with C(n, l) before the step and d_n
    const auto& column = C_.columns[l];
    entries.clear();
    if (d.kind != BlockDirection::pairwise)
        for (const auto& e : column) entries.push_back({e.row, e.value, d.kind == BlockDirection::away ? e.value : -e.value});
    const auto add = [&](int64_t row, double weight) {
        for (auto& e : entries)
            if (e.row == row) return void(e.direction += weight);
        entries.push_back({row, C_.value(l, row), weight});
    };
    if (d.kind != BlockDirection::away) add(d.s, 1.0);
    if (d.kind != BlockDirection::toward) add(d.a, -1.0);
    // f along the column's own direction, the other columns fixed: rd + xd2 g + lambda sum_n d_n Y(n, l),
    // increasing in g (f is convex); its root in [0, max_step] by bisection
    const double lambda = dictionary_->lambda();
    const auto derivative = [&](double g) {
        double value = rd + g * xd2;
        for (const auto& e : entries)
            value += lambda * e.direction *
                     dictionary_->softmax_weight(work_.softmax, static_cast<std::size_t>(e.row), e.before,
                                                 e.before + g * e.direction);
        return value;
    };
    if (derivative(d.max_step) <= 0.0) return d.max_step;
    double lo = 0.0, hi = d.max_step;
    for (int i = 0; i < 60 && hi - lo > 1e-15 * d.max_step; ++i) (derivative(0.5 * (lo + hi)) < 0.0 ? lo : hi) = 0.5 * (lo + hi);
    return lo;
}

namespace {
void apply_move(SimplexColumns& C, std::size_t l, const BlockDirection& d, double step, double theta,
                const std::vector<SimplexColumns::Entry>& target)
{
    if (!target.empty())
        C.blend(l, target, theta * step);
    else if (d.kind == BlockDirection::toward)
        C.frank_wolfe_update(l, d.s, theta * step);
    else
        C.away_or_pairwise_update(l, d, theta * step, theta == 1.0 && step == d.max_step);
}
}  // namespace

const SimplexColumns& Merit::moved(double theta) const
{
    trial_.columns.resize(C_.columns.size());
    for (std::size_t l = 0; l < moves_.size(); ++l) {
        trial_.columns[l].assign(C_.columns[l].begin(), C_.columns[l].end());  // its capacity kept
        if (moves_[l].step > 0.0) apply_move(trial_, l, moves_[l].direction, moves_[l].step, theta, moves_[l].target);
    }
    return trial_;
}

double Merit::common_factor(double slope, double curvature) const
{
    // f(C + theta D) - f(C) = theta slope + theta^2 curvature + lambda (Phi(C + theta D) - Phi(C)): convex
    // in theta, minimized on [0, 1] to 1e-12 + 1.5e-8 theta by Brent's method (Phi at each trial point,
    // O(nnz(C)))
    const double lambda = dictionary_->lambda();
    const auto h = [&](double theta) {
        return theta * (slope + theta * curvature) + lambda * dictionary_->row_softmax(moved(theta), threads_).phi;
    };
    // theta = 1 (the columns' own steps, drop steps included) whenever f still falls just before it
    if (h(1.0) <= h(1.0 - 1e-6)) return 1.0;
    const ScalarMinimum best = minimize_on_interval(h, 0.0, 1.0, 1e-12);
    return best.value < h(0.0) ? best.x : 0.0;  // 0 when nothing decreases f
}

void Merit::move(double theta, bool move_residual)
{
    const Matrix& Xt = dictionary_->Xt();
    const std::size_t m = Xt.shape()[1];
    parallel_for(moves_.size(), grain_for(m), threads_, [&](std::size_t begin, std::size_t end) {
        for (std::size_t l = begin; l < end; ++l) {
            const Move& mv = moves_[l];
            if (!(mv.step > 0.0)) continue;
            // X c_l moves the same way; r_l = X c_l - x_l
            const double tau = theta * mv.step;
            if (move_residual && !mv.target.empty()) {  // r_l := (1 - tau) r_l + tau (X_S h - x_l)
                double* r = &R_(l, 0);
                const double* xl = &Xt(dictionary_->first() + l, 0);
                for (std::size_t k = 0; k < m; ++k) r[k] = (1.0 - tau) * r[k] - tau * xl[k];
                for (const auto& e : mv.target) {
                    const double* x = &Xt(static_cast<std::size_t>(e.row), 0);
                    for (std::size_t k = 0; k < m; ++k) r[k] += tau * e.value * x[k];
                }
            }
            apply_move(C_, l, mv.direction, mv.step, theta, mv.target);
            if (!move_residual || !mv.target.empty()) continue;
            const double *xl = &Xt(dictionary_->first() + l, 0), *xs = &Xt(static_cast<std::size_t>(mv.direction.s), 0),
                         *xa = &Xt(static_cast<std::size_t>(mv.direction.a), 0);
            double* r = &R_(l, 0);
            if (mv.direction.kind == BlockDirection::toward)
                for (std::size_t k = 0; k < m; ++k) r[k] = (1.0 - tau) * r[k] + tau * (xs[k] - xl[k]);
            else if (mv.direction.kind == BlockDirection::away)
                for (std::size_t k = 0; k < m; ++k) r[k] = (1.0 + tau) * r[k] + tau * (xl[k] - xa[k]);
            else
                for (std::size_t k = 0; k < m; ++k) r[k] += tau * (xs[k] - xa[k]);
        }
    });
}

std::vector<OutputSpec> Merit::output_specs() const
{
    std::vector<OutputSpec> specs = SelfDictionarySolver::output_specs();
    specs.push_back(gaps_spec());
    return specs;
}

Output Merit::output(const std::string& name) const
{
    if (name != "gaps") return SelfDictionarySolver::output(name);
    require(started(), FACTO_ERROR_BAD_STATE, "the solver has no iterate yet (step it, or set one)");
    Sweep sweep = sweep_;
    if (!work_.find_away) {  // vanilla steps do not look for away vertices: one sweep that does
        SweepWork work;
        work.find_away = true;
        std::vector<int64_t> vertex;
        sweep = merit_sweep(*dictionary_, C_, keep_residual_ ? &R_ : nullptr, vertex, block_, threads_, work);
    }
    return gaps_output(sweep.gap, sweep.away_gap);
}

}  // namespace facto
