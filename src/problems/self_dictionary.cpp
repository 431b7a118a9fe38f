#include "problems/self_dictionary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include <xtensor/xmath.hpp>
#include <xtensor/xnorm.hpp>
#include <xtensor/xview.hpp>

#include "base/random.hpp"
#include "base/error.hpp"
#include "facto/facto.h"
#include "sets/row_simplices.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "linalg/simplex_least_squares.hpp"
#include "linalg/successive_projection.hpp"
#include "problems/row_blocks.hpp"

namespace facto {

namespace {
// exp(a) for a <= 0, without glibc's slow underflow path: with mu = 1e-5 most arguments of the
// softmax are far below -745, where exp is 0 in double.
double exp_nonpositive(double a) { return a < -746.0 ? 0.0 : std::exp(a); }
}  // namespace

namespace {
// X^T, once X is known finite (the message names X's own entry).
Matrix finite_transpose(const Matrix& X)
{
    require_finite(X, "X");
    return xt::transpose(X);
}
}  // namespace

SelfDictionary::SelfDictionary(Matrix X, int64_t K, double lambda, double mu)
    : SelfDictionary(finite_transpose(X), K, lambda, mu, std::nullopt)
{
}

SelfDictionary::SelfDictionary(const CsrMatrix& X, int64_t K, double lambda, double mu)
    : sparse_Xt_(transpose(X)), sparse_(true), K_(K), lambda_(lambda), mu_(mu),
      columns_(static_cast<std::size_t>(X.cols))
{
    require(std::all_of(X.values.begin(), X.values.end(), [](double v) { return std::isfinite(v); }),
            FACTO_ERROR_NOT_FINITE, "X: a stored value is not finite");
    initialize();
}

std::shared_ptr<const SelfDictionary> SelfDictionary::distributed(const Matrix& X, int64_t N, int64_t first, int64_t K,
                                                                  double lambda, double mu,
                                                                  std::shared_ptr<const Collectives> collectives)
{
    const int64_t m = static_cast<int64_t>(X.shape()[0]), columns = static_cast<int64_t>(X.shape()[1]);
    RowBlocks blocks = RowBlocks::agree(
        std::move(collectives), first, columns, N,
        [&] {
            require_block(first, columns, N, "columns", "an M x N X, N");
            require_finite(X, "X");
            require(std::isfinite(mu) && std::isfinite(lambda), FACTO_ERROR_NOT_FINITE,
                    "mu = " + value_text(mu) + " and lambda = " + value_text(lambda) + " must be finite");
        },
        {{"M", static_cast<double>(m)}, {"K", static_cast<double>(K)}, {"lambda", lambda}, {"mu", mu}}, "columns");
    // X^T whole on every process: each process's points (rows of X^T) in rank order (its memory agreed on
    // by the gather)
    const Matrix mine = xt::transpose(X);
    Matrix Xt = blocks.gather(mine.data(), static_cast<std::size_t>(m), "X, gathered on every process");
    return std::shared_ptr<const SelfDictionary>(new SelfDictionary(std::move(Xt), K, lambda, mu, std::move(blocks)));
}

SelfDictionary::SelfDictionary(Matrix Xt, int64_t K, double lambda, double mu, std::optional<RowBlocks> blocks)
    : Xt_(std::move(Xt)), K_(K), lambda_(lambda), mu_(mu), blocks_(std::move(blocks)),
      first_(blocks_ ? static_cast<std::size_t>(blocks_->first()) : 0),
      columns_(blocks_ ? static_cast<std::size_t>(blocks_->rows()) : Xt_.shape()[0])
{
    initialize();
}

void SelfDictionary::initialize()
{
    require(N() >= 2 && M() >= 1, FACTO_ERROR_DIMENSION,
            "X must be M x N with M >= 1 and N >= 2, got " + std::to_string(M()) + " x " + std::to_string(N()));
    require(K_ >= 0 && K_ <= N(), FACTO_ERROR_DIMENSION,
            "K = " + std::to_string(K_) + " must be 0 (unknown) or satisfy 1 <= K <= N = " + std::to_string(N()));
    require(std::isfinite(mu_) && std::isfinite(lambda_), FACTO_ERROR_NOT_FINITE,
            "mu = " + value_text(mu_) + " and lambda = " + value_text(lambda_) + " must be finite");
    require(mu_ > 0.0 && mu_ <= kMaxMagnitude && lambda_ <= kMaxMagnitude, FACTO_ERROR_OUT_OF_RANGE,
            "mu = " + value_text(mu_) + " must be in (0, 1e100] and lambda = " + value_text(lambda_) +
                " at most 1e100 (negative = heuristic)");
    x_norm_.resize(static_cast<std::size_t>(N()));
    for (std::size_t l = 0; l < x_norm_.size(); ++l) {
        double sum = 0.0;
        if (sparse_)
            sum = squared_norm(l);
        else
            for (std::size_t k = 0; k < Xt_.shape()[1]; ++k) sum += Xt_(l, k) * Xt_(l, k);
        x_norm_[l] = std::sqrt(sum);
        x_norm_max_ = std::max(x_norm_max_, x_norm_[l]);
    }
    require(lambda_ >= 0.0 || K_ > 0, FACTO_ERROR_INVALID_ARGUMENT,
            "lambda < 0 asks for the heuristic ||X - X C0||_F / K, which needs K; give K or lambda >= 0");
    if (K_ > 0) {
        // Sec. V-B: SPA picks K columns; the warm start C0 is built from them when a solver asks
        SuccessiveProjection spa = sparse_ ? SuccessiveProjection(sparse_Xt_) : SuccessiveProjection(Xt_);
        for (int64_t k = 0; k < K_; ++k) spa.next();
        spa_picks_ = spa.selected();
        if (const Collectives* c = collectives()) {  // process 0's picks everywhere (processes whose BLAS kernels differ could tie apart)
            std::vector<double> picks(spa_picks_.size(), 0.0);
            if (c->rank() == 0) std::copy(spa_picks_.begin(), spa_picks_.end(), picks.begin());
            c->sum(picks.data(), picks.size());
            std::copy(picks.begin(), picks.end(), spa_picks_.begin());
        }
    }
    if (lambda_ < 0.0)  // Sec. V-A: ||X - X C0||_F / K
        lambda_ = std::sqrt(residual_squared(warm_start(resolve_threads(0)))) / static_cast<double>(K_);
}

RowSoftmax SelfDictionary::row_softmax(const SimplexColumns& C, std::size_t threads) const
{
    const std::size_t n = static_cast<std::size_t>(N()), columns = C.columns.size();
    RowSoftmax s;
    s.max.assign(n, 0.0);
    s.sum.assign(n, static_cast<double>(n));
    s.zero.assign(n, 1.0 / static_cast<double>(n));
    std::vector<double> count(n, 0.0);
    for (const auto& column : C.columns)
        for (const auto& e : column) {
            const auto i = static_cast<std::size_t>(e.row);
            s.max[i] = std::max(s.max[i], e.value);
            count[i] += 1.0;
        }
    if (const Collectives* c = collectives()) {  // every process's columns: the rows' largest entries (>= 0) and counts
        max_of_nonnegative(*c, s.max.data(), n);
        c->sum(count.data(), n);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (count[i] > 0.0) s.rows.push_back(static_cast<int64_t>(i));
    // the near entries, by columns: counted, then written with their exponentials
    const double lowest = -746.0 * mu_;
    const auto near = [&](const SimplexColumns::Entry& e) {
        return e.value - s.max[static_cast<std::size_t>(e.row)] >= lowest;
    };
    s.near_start.assign(columns + 1, 0);
    parallel_for(columns, grain_for(64), threads, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t l = lo; l < hi; ++l)
            for (const auto& e : C.columns[l]) s.near_start[l + 1] += near(e) ? 1 : 0;
    });
    std::partial_sum(s.near_start.begin(), s.near_start.end(), s.near_start.begin());
    s.near_rows.resize(s.near_start[columns]);
    s.near_exp.resize(s.near_start[columns]);
    parallel_for(columns, grain_for(64), threads, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t l = lo; l < hi; ++l) {
            std::size_t k = s.near_start[l];
            for (const auto& e : C.columns[l])
                if (near(e)) {
                    s.near_rows[k] = e.row;
                    s.near_exp[k++] = std::exp((e.value - s.max[static_cast<std::size_t>(e.row)]) / mu_);
                }
        }
    });
    std::vector<double> near_sum(n, 0.0);  // each row's near exponentials (every process's)
    for (std::size_t k = 0; k < s.near_rows.size(); ++k)
        near_sum[static_cast<std::size_t>(s.near_rows[k])] += s.near_exp[k];
    reduce_sums(near_sum.data(), n);
    for (int64_t r : s.rows) {
        const auto i = static_cast<std::size_t>(r);
        // the N - count zeros of the row, each exp(-max / mu) after the shift, and the near entries
        s.sum[i] = (static_cast<double>(n) - count[i]) * exp_nonpositive(-s.max[i] / mu_) + near_sum[i];
        s.zero[i] = exp_nonpositive(-s.max[i] / mu_) / s.sum[i];
        // phi_mu(C(n, :)) = max_n + mu log(sum_n / N); rows without a nonzero contribute mu log 1 = 0
        s.phi += s.max[i] + mu_ * std::log(s.sum[i] / static_cast<double>(n));
    }
    return s;
}

double SelfDictionary::residual_column(const SimplexColumns& C, std::size_t l, double* r) const
{
    const std::size_t m = static_cast<std::size_t>(M());
    const double* x = &Xt_(first_ + l, 0);
    for (std::size_t k = 0; k < m; ++k) r[k] = -x[k];
    for (const auto& e : C.columns[l]) {
        const double* xj = &Xt_(static_cast<std::size_t>(e.row), 0);
        for (std::size_t k = 0; k < m; ++k) r[k] += e.value * xj[k];
    }
    return blas::dot(r, r, m);
}

double SelfDictionary::residual_squared(const SimplexColumns& C) const
{
    std::vector<double> r(static_cast<std::size_t>(M()), 0.0);
    double sum = 0.0;
    if (sparse_) {
        // the same sums over the stored entries of x_l and the points it mixes: r is zero between columns
        // and only their entries are touched, O(their non-zeros) a column instead of O(M)
        std::vector<int64_t> touched;
        std::vector<bool> marked(r.size(), false);
        const auto add = [&](std::size_t point, double a) {
            for (int64_t p = sparse_Xt_.indptr[point]; p < sparse_Xt_.indptr[point + 1]; ++p) {
                const auto c = static_cast<std::size_t>(sparse_Xt_.indices[static_cast<std::size_t>(p)]);
                if (!marked[c]) touched.push_back(static_cast<int64_t>(c));
                marked[c] = true;
                r[c] += a * sparse_Xt_.values[static_cast<std::size_t>(p)];
            }
        };
        for (std::size_t l = 0; l < C.columns.size(); ++l) {
            add(first_ + l, -1.0);
            for (const auto& e : C.columns[l]) add(static_cast<std::size_t>(e.row), e.value);
            for (const int64_t c : touched) {
                sum += r[static_cast<std::size_t>(c)] * r[static_cast<std::size_t>(c)];
                r[static_cast<std::size_t>(c)] = 0.0;
                marked[static_cast<std::size_t>(c)] = false;
            }
            touched.clear();
        }
    } else {
        for (std::size_t l = 0; l < C.columns.size(); ++l) sum += residual_column(C, l, r.data());
    }
    reduce_sums(&sum, 1);
    return sum;
}

void SelfDictionary::residual(const SimplexColumns& C, Matrix& R, std::size_t threads) const
{
    const std::size_t columns = C.columns.size();
    if (R.shape()[0] != columns || R.shape()[1] != static_cast<std::size_t>(M()))
        R = Matrix({columns, static_cast<std::size_t>(M())});
    residual_rows(C, {0, columns}, R.data(), threads);
}

void SelfDictionary::residual_rows(const SimplexColumns& C, Range columns, double* rows, std::size_t threads) const
{
    const std::size_t m = static_cast<std::size_t>(M());
    parallel_for(columns.end - columns.begin, grain_for(m), threads, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t c = lo; c < hi; ++c) residual_column(C, columns.begin + c, rows + c * m);
    });
}

double SelfDictionary::softmax_excess(const RowSoftmax& softmax, std::size_t e) const
{
    const auto i = static_cast<std::size_t>(softmax.near_rows[e]);
    return softmax.near_exp[e] / softmax.sum[i] - softmax.zero[i];
}

double SelfDictionary::softmax_weight(const RowSoftmax& softmax, std::size_t n, double before, double after) const
{
    // row n's terms exp((C(n, j) - max) / mu) sum to softmax.sum; without entry l they sum to `others`
    const double top = softmax.max[n];
    const double others = std::max(softmax.sum[n] - exp_nonpositive((before - top) / mu_), 0.0);
    if (after > top) return 1.0 / (1.0 + others * exp_nonpositive((top - after) / mu_));
    const double term = exp_nonpositive((after - top) / mu_);
    return term / (others + term);
}

void SelfDictionary::row_shift(const RowSoftmax& softmax, std::vector<double>& shift) const
{
    const double inverse_n = 1.0 / static_cast<double>(N());
    shift.assign(static_cast<std::size_t>(N()), 0.0);
    for (int64_t r : softmax.rows)
        shift[static_cast<std::size_t>(r)] = lambda_ * (softmax.zero[static_cast<std::size_t>(r)] - inverse_n);
}

double SelfDictionary::objective(const Matrix& C) const
{
    agree_on_errors(collectives(), [&] { require_shape(C, N(), columns(), "C"); });
    const SimplexColumns S = SimplexColumns::from_dense(C);
    return 0.5 * residual_squared(S) + lambda_ * row_softmax(S).phi;
}

Matrix SelfDictionary::random_point(uint64_t seed) const { return set().random_point(seed); }

Matrix SelfDictionary::feasible_point(const Matrix& C) const
{
    Matrix feasible;
    agree_on_errors(collectives(), [&] { feasible = set().feasible_point(C, 1e-8); });
    return feasible;
}

std::vector<int64_t> SelfDictionary::largest_row_maxima(const RowSoftmax& softmax, bool distinct_points) const
{
    // ||C(n, :)||_inf largest first, the smaller index on ties; rows without a nonzero come last
    std::vector<int64_t> all(static_cast<std::size_t>(N()));
    std::iota(all.begin(), all.end(), 0);
    std::stable_sort(all.begin(), all.end(), [&](int64_t a, int64_t b) {
        return softmax.max[static_cast<std::size_t>(a)] > softmax.max[static_cast<std::size_t>(b)];
    });
    const auto equal_points = [&](int64_t a, int64_t b) {
        const auto i = static_cast<std::size_t>(a), j = static_cast<std::size_t>(b);
        const double scale = 1e-10 * std::max(x_norm_[i], x_norm_[j]);
        return (sparse_ ? distance_and_dot(sparse_Xt_, i, sparse_Xt_, j).first
                        : xt::norm_sq(xt::row(Xt_, i) - xt::row(Xt_, j))()) <= scale * scale;
    };
    std::vector<int64_t> rows, passed;
    for (std::size_t e = 0; e < all.size() && rows.size() < static_cast<std::size_t>(K_); ++e) {
        const int64_t r = all[e];
        const bool repeats = distinct_points && std::any_of(rows.begin(), rows.end(), [&](int64_t t) { return equal_points(r, t); });
        (repeats ? passed : rows).push_back(r);
    }
    for (std::size_t e = 0; rows.size() < static_cast<std::size_t>(K_); ++e) rows.push_back(passed[e]);  // fewer distinct points than K
    std::sort(rows.begin(), rows.end());
    return rows;
}

std::vector<int64_t> SelfDictionary::select(const SimplexColumns& C, double threshold) const
{
    const RowSoftmax softmax = row_softmax(C);
    std::vector<int64_t> rows;
    if (K_ > 0) {
        rows = largest_row_maxima(softmax, true);
        if (softmax.rows.size() > static_cast<std::size_t>(K_)) {
            std::vector<int64_t> extreme = weighted_extreme_rows(softmax);
            if (extreme != rows && anchor_fit(extreme) < anchor_fit(rows)) rows = std::move(extreme);
        }
    } else {
        for (int64_t r : softmax.rows)
            if (softmax.max[static_cast<std::size_t>(r)] > threshold) rows.push_back(r);
    }
    return rows;
}

std::vector<int64_t> SelfDictionary::weighted_extreme_rows(const RowSoftmax& softmax) const
{
    // SPA on the points of C's rows with a nonzero, each x_n scaled by ||C(n, :)||_inf
    const std::size_t m = static_cast<std::size_t>(M());
    Matrix weighted;
    CsrMatrix weighted_sparse;
    if (sparse_) {
        weighted_sparse = select_rows(sparse_Xt_, softmax.rows);
        for (std::size_t i = 0; i < softmax.rows.size(); ++i)
            for (int64_t p = weighted_sparse.indptr[i]; p < weighted_sparse.indptr[i + 1]; ++p)
                weighted_sparse.values[static_cast<std::size_t>(p)] *= softmax.max[static_cast<std::size_t>(softmax.rows[i])];
    } else {
        weighted = Matrix({softmax.rows.size(), m});
        for (std::size_t i = 0; i < softmax.rows.size(); ++i) {
            const auto n = static_cast<std::size_t>(softmax.rows[i]);
            for (std::size_t k = 0; k < m; ++k) weighted(i, k) = softmax.max[n] * Xt_(n, k);
        }
    }
    SuccessiveProjection spa = sparse_ ? SuccessiveProjection(weighted_sparse) : SuccessiveProjection(weighted);
    std::vector<int64_t> rows;
    for (int64_t k = 0; k < K_; ++k) rows.push_back(softmax.rows[static_cast<std::size_t>(spa.next())]);
    std::sort(rows.begin(), rows.end());
    return rows;
}

double SelfDictionary::anchor_fit(const std::vector<int64_t>& anchors) const
{
    return residual_squared(SimplexColumns::from_selected(anchors, coefficients(anchors, resolve_threads(0))));
}

SimplexColumns SelfDictionary::warm_start(std::size_t threads) const
{
    require(K_ > 0, FACTO_ERROR_INVALID_ARGUMENT, "the SPA warm start needs K");
    return SimplexColumns::from_selected(spa_picks_, coefficients(spa_picks_, threads));
}

void SelfDictionary::require_dense(const char* algorithm, const char* why) const
{
    require(!sparse_, FACTO_ERROR_UNSUPPORTED,
            std::string(algorithm) + " needs the points dense (" + why + "); on sparse X take spa, snpa or fast_anchor");
}

double SelfDictionary::squared_norm(std::size_t l) const
{
    if (!sparse_) return blas::dot(&Xt_(l, 0), &Xt_(l, 0), Xt_.shape()[1]);
    double sum = 0.0;
    for (int64_t p = sparse_Xt_.indptr[l]; p < sparse_Xt_.indptr[l + 1]; ++p)
        sum += sparse_Xt_.values[static_cast<std::size_t>(p)] * sparse_Xt_.values[static_cast<std::size_t>(p)];
    return sum;
}

Matrix SelfDictionary::points(const std::vector<int64_t>& rows) const
{
    const std::size_t m = static_cast<std::size_t>(M());
    Matrix W = xt::zeros<double>({rows.size(), m});
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto n = static_cast<std::size_t>(rows[i]);
        if (!sparse_) {
            std::copy(&Xt_(n, 0), &Xt_(n, 0) + m, &W(i, 0));
            continue;
        }
        for (int64_t p = sparse_Xt_.indptr[n]; p < sparse_Xt_.indptr[n + 1]; ++p)
            W(i, static_cast<std::size_t>(sparse_Xt_.indices[static_cast<std::size_t>(p)])) = sparse_Xt_.values[static_cast<std::size_t>(p)];
    }
    return W;
}

Matrix SelfDictionary::products(const Matrix& Wt, std::size_t first, std::size_t count) const
{
    const std::size_t k = Wt.shape()[0], m = static_cast<std::size_t>(M());
    Matrix B = Matrix::from_shape({count, k});
    if (count == 0 || k == 0) return xt::zeros<double>({count, k});
    if (!sparse_) {
        blas::gemm(false, true, count, k, m, 1.0, &Xt_(first, 0), m, Wt.data(), m, 0.0, B.data(), k);
        return B;
    }
    // a sparse problem is never distributed: its columns are all N points
    require(first == 0 && count == static_cast<std::size_t>(N()), FACTO_ERROR_INTERNAL,
            "products of a sparse problem's points are of all of them");
    spmm(sparse_Xt_, Matrix(xt::transpose(Wt)), B, resolve_threads(0));
    return B;
}

Matrix SelfDictionary::coefficients(const std::vector<int64_t>& anchors, std::size_t threads) const
{
    if (!sparse_) return simplex_least_squares(Xt_, anchors, threads, first_, columns_);
    return simplex_coefficients(Matrix(xt::transpose(points(anchors))), sparse_Xt_, "X", threads);
}

Matrix SelfDictionary::anchor_search_points(int64_t rows, uint64_t seed) const
{
    if (sparse_) {  // the same points from the non-zeros: scaled in place, projected by a sparse product
        CsrMatrix scaled = sparse_Xt_;
        for (std::size_t l = 0; l < static_cast<std::size_t>(scaled.rows); ++l) {
            double norm = 0.0;
            for (int64_t p = scaled.indptr[l]; p < scaled.indptr[l + 1]; ++p) norm += std::abs(scaled.values[static_cast<std::size_t>(p)]);
            for (int64_t p = scaled.indptr[l]; p < scaled.indptr[l + 1] && norm > 0.0; ++p) scaled.values[static_cast<std::size_t>(p)] /= norm;
        }
        if (M() <= rows) return dense_from_csr(scaled);
        Rng rng(seed);
        Matrix R = Matrix::from_shape({static_cast<std::size_t>(M()), static_cast<std::size_t>(rows)});
        for (double& r : R) r = rng.normal();
        Matrix projected = Matrix::from_shape({static_cast<std::size_t>(N()), static_cast<std::size_t>(rows)});
        spmm(scaled, R, projected, resolve_threads(0));
        return projected;
    }
    Matrix scaled = Xt_;
    for (std::size_t l = 0; l < scaled.shape()[0]; ++l) {
        double norm = 0.0;
        for (std::size_t k = 0; k < scaled.shape()[1]; ++k) norm += std::abs(scaled(l, k));
        for (std::size_t k = 0; k < scaled.shape()[1] && norm > 0.0; ++k) scaled(l, k) /= norm;
    }
    if (M() <= rows) return scaled;
    Rng rng(seed);
    Matrix R = Matrix::from_shape({static_cast<std::size_t>(M()), static_cast<std::size_t>(rows)});
    for (double& r : R) r = rng.normal();
    Matrix projected = Matrix::from_shape({static_cast<std::size_t>(N()), static_cast<std::size_t>(rows)});
    blas::gemm(false, false, 1.0, scaled, R, 0.0, projected);
    return projected;
}

std::vector<OutputSpec> SelfDictionary::specs(int64_t selected) const
{
    return {{"selected", FACTO_OUTPUT_INT64, selected, 1},
            {"H", FACTO_OUTPUT_DOUBLE, selected, columns()},
            {"nnz", FACTO_OUTPUT_INT64, 1, 1}};
}

std::vector<OutputSpec> SelfDictionary::output_specs(const SimplexColumns& C) const
{
    return specs(K_ > 0 ? K_ : static_cast<int64_t>(select(C).size()));  // select takes K rows when K is known
}

std::vector<OutputSpec> SelfDictionary::output_specs() const { return specs(K_); }

Output SelfDictionary::output(const std::string& name, const SimplexColumns& C) const
{
    if (name == "nnz") {
        double nnz = static_cast<double>(C.nnz());
        reduce_sums(&nnz, 1);
        return Output{specs(0)[2], {}, {static_cast<int64_t>(nnz)}};
    }
    std::vector<int64_t> selected = select(C);
    const std::vector<OutputSpec> shapes = specs(static_cast<int64_t>(selected.size()));
    if (name == "selected") return Output{shapes[0], {}, std::move(selected)};
    if (name == "H") {
        const Matrix H = xt::transpose(coefficients(selected, resolve_threads(0)));
        return Output{shapes[1], std::vector<double>(H.begin(), H.end()), {}};
    }
    std::string known;
    for (const OutputSpec& spec : output_specs(C)) known += std::string(known.empty() ? "" : ", ") + spec.name;
    throw Error(FACTO_ERROR_UNKNOWN_PARAMETER, "unknown output '" + name + "' (" + kind() + " has: " + known + ")");
}

Output SelfDictionary::output(const std::string& name, const Matrix& C) const
{
    return output(name, SimplexColumns::from_dense(C));
}

Matrix SelfDictionary::apply(const Matrix& W, const Matrix& X_new, std::size_t threads)
{
    const Matrix points = xt::transpose(X_new);  // one new data point per row
    return simplex_coefficients(W, points, "the new data points (X_new)", threads);
}

}  // namespace facto
