#include "problems/edm_completion.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "base/random.hpp"
#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"

namespace facto {

namespace {
// g = from on n entries; returns the sum of the stationarity terms g^2.
double copy_and_measure(const double* __restrict from, double* __restrict g, std::size_t n)
{
    double lanes[kPassLanes] = {};
    for_lanes(0, n, [&](std::size_t i, std::size_t lane) {
        g[i] = from[i];
        lanes[lane] += stationarity_term(false, 0.0, g[i]);
    });
    return lanes_sum(lanes);
}
}  // namespace

EdmCompletion::EdmCompletion(int64_t n, int64_t r, const int64_t* i, const int64_t* j, const double* d, int64_t count)
    : n_(n), r_(r)
{
    require(n >= 2 && n <= std::numeric_limits<uint32_t>::max(), FACTO_ERROR_DIMENSION,
            "n = " + std::to_string(n) + " points: need 2 <= n < 2^32");
    require(r >= 1, FACTO_ERROR_DIMENSION, "rank r = " + std::to_string(r) + " must be >= 1");
    require(count >= 1, FACTO_ERROR_INVALID_ARGUMENT,
            "count = " + std::to_string(count) + " observed pairs: need at least 1");
    for (const auto& [array, name] : {std::pair<const void*, const char*>{i, "i"}, {j, "j"}, {d, "d"}})
        require(array != nullptr, FACTO_ERROR_NULL_POINTER, std::string("the pair array ") + name + " is NULL");
    // the pairs by rows (indices, values, offsets) and a solver's n x r arrays (iterate, gradient, steps)
    require_memory(8.0 * (static_cast<double>(n) + 1.0 + 4.0 * static_cast<double>(count)) +
                       64.0 * static_cast<double>(n) * static_cast<double>(r),
                   "edm_completion with n = " + std::to_string(n) + ", r = " + std::to_string(r));
    indptr_.assign(static_cast<std::size_t>(n) + 1, 0);
    double d_squares = 0.0, d_sum = 0.0;
    for (int64_t k = 0; k < count; ++k) {
        if (!(i[k] >= 0 && i[k] < n && j[k] >= 0 && j[k] < n && i[k] != j[k]))
            throw Error(FACTO_ERROR_INVALID_ARGUMENT, "pair " + std::to_string(k) + " = (" + std::to_string(i[k]) + ", " +
                                                          std::to_string(j[k]) + "): need two distinct indices in [0, " +
                                                          std::to_string(n) + ")");
        if (!std::isfinite(d[k]))
            throw Error(FACTO_ERROR_NOT_FINITE, "d of pair " + std::to_string(k) + " is " + value_text(d[k]));
        if (d[k] > kMaxMagnitude || d[k] < 0.0)
            throw Error(FACTO_ERROR_OUT_OF_RANGE, "d of pair " + std::to_string(k) + " is " + value_text(d[k]) +
                                                      (d[k] < 0.0 ? ": d holds squared distances, which are >= 0"
                                                                  : ", above 1e100: its products would overflow; rescale"));
        ++indptr_[static_cast<std::size_t>(i[k]) + 1];
        ++indptr_[static_cast<std::size_t>(j[k]) + 1];
        d_squares += d[k] * d[k];
        d_sum += d[k];
    }
    for (std::size_t row = 0; row < static_cast<std::size_t>(n); ++row) {
        max_degree_ = std::max(max_degree_, indptr_[row + 1]);
        indptr_[row + 1] += indptr_[row];
    }
    neighbor_.resize(static_cast<std::size_t>(2 * count));
    distance_.resize(static_cast<std::size_t>(2 * count));
    std::vector<int64_t> next(indptr_.begin(), indptr_.end() - 1);
    for (int64_t k = 0; k < count; ++k) {
        const auto place = [&](int64_t from, int64_t to) {
            const auto slot = static_cast<std::size_t>(next[static_cast<std::size_t>(from)]++);
            neighbor_[slot] = static_cast<uint32_t>(to);
            distance_[slot] = d[k];
        };
        place(i[k], j[k]);
        place(j[k], i[k]);
    }
    d_norm_ = std::sqrt(d_squares);
    mean_d_ = d_sum / static_cast<double>(count);
}

double EdmCompletion::objective(const Matrix& X) const
{
    require_shape(X, n_, r_, "X");
    Evaluation e;
    return evaluate(X, e, 1);
}

Matrix EdmCompletion::random_point(uint64_t seed) const
{
    // E ||x_i - x_j||^2 = 2 r s^2 for independent N(0, s^2) entries.
    const double s = mean_d_ > 0.0 ? std::sqrt(mean_d_ / (2.0 * static_cast<double>(r_))) : 1.0;
    Rng rng(seed);
    Matrix X({static_cast<std::size_t>(n_), static_cast<std::size_t>(r_)});
    for (auto& x : X) x = s * rng.normal();
    return X;
}

Matrix EdmCompletion::feasible_point(const Matrix& X) const
{
    require_shape(X, n_, r_, "iterate");
    require_finite(X, "iterate");
    return X;
}

Output EdmCompletion::output(const std::string& name, const Matrix&) const
{
    throw Error(FACTO_ERROR_UNKNOWN_PARAMETER, "edm_completion has no output '" + name + "'");
}

double EdmCompletion::evaluate(const Matrix& X, Evaluation& e, std::size_t threads) const
{
    const std::size_t r = X.shape()[1];
    if (e.first.shape() != X.shape()) e.first = Matrix(X.shape());
    if (e.second.shape()[0] != X.shape()[0] || e.second.shape()[1] != 1) e.second = Matrix({X.shape()[0], 1});
    Matrix& G = e.first;
    parallel_for(static_cast<std::size_t>(n_), 256, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t row = begin; row < end; ++row) {
            const double* xi = &X(row, 0);
            double* gi = &G(row, 0);
            std::fill(gi, gi + r, 0.0);
            double f_row = 0.0;
            for (auto p = static_cast<std::size_t>(indptr_[row]); p < static_cast<std::size_t>(indptr_[row + 1]); ++p) {
                const double* xj = &X(neighbor_[p], 0);
                double dist = 0.0;
                for (std::size_t k = 0; k < r; ++k) dist += (xi[k] - xj[k]) * (xi[k] - xj[k]);
                const double residual = dist - distance_[p];
                f_row += residual * residual;
                for (std::size_t k = 0; k < r; ++k) gi[k] += residual * (xi[k] - xj[k]);
            }
            for (std::size_t k = 0; k < r; ++k) gi[k] *= 2.0;  // g_i = 2 sum_j r_ij (x_i - x_j)
            e.second(row, 0) = 0.25 * f_row;  // each pair is seen from both ends: 1/2 r^2 = 2 x 1/4 r^2
        }
    });
    double f = 0.0;
    for (std::size_t row = 0; row < static_cast<std::size_t>(n_); ++row) f += e.second(row, 0);
    return f;
}

double EdmCompletion::gradient(const Matrix&, const Evaluation& e, Matrix& G, std::size_t threads) const
{
    const auto sum = parallel_sums<1>(G.size(), kPassChunk, kPassGrain, threads, [&](std::size_t begin, std::size_t end, auto& s) {
        s[0] += copy_and_measure(e.first.data() + begin, G.data() + begin, end - begin);
    });
    return std::sqrt(sum[0]);
}

namespace {
// g(y) = 1/2 sum_j (||y - x_j||^2 - d_j)^2 over one new point's observed pairs, its gradient and Hessian.
struct PointFit {
    const Matrix& X;
    const std::vector<std::size_t>& j;
    const std::vector<double>& d;

    double value(const std::vector<double>& y) const
    {
        double g = 0.0;
        for (std::size_t p = 0; p < j.size(); ++p) {
            const double res = squared_distance(y, j[p]) - d[p];
            g += 0.5 * res * res;
        }
        return g;
    }
    double squared_distance(const std::vector<double>& y, std::size_t row) const
    {
        double s = 0.0;
        for (std::size_t k = 0; k < y.size(); ++k) s += (y[k] - X(row, k)) * (y[k] - X(row, k));
        return s;
    }
    // grad g = 2 sum r_j (y - x_j), Hess g = sum 4 (y - x_j)(y - x_j)^T + 2 r_j I; returns the gradient's
    // scale 1 + sum_j d_j ||y - x_j|| (for the relative stop).
    double derivatives(const std::vector<double>& y, std::vector<double>& grad, std::vector<double>& hess) const
    {
        const std::size_t r = y.size();
        std::fill(grad.begin(), grad.end(), 0.0);
        std::fill(hess.begin(), hess.end(), 0.0);
        double scale = 1.0;
        for (std::size_t p = 0; p < j.size(); ++p) {
            const double res = squared_distance(y, j[p]) - d[p];
            scale += d[p] * std::sqrt(squared_distance(y, j[p]));
            for (std::size_t a = 0; a < r; ++a) {
                const double ua = y[a] - X(j[p], a);
                grad[a] += 2.0 * res * ua;
                hess[a * r + a] += 2.0 * res;
                for (std::size_t b = 0; b < r; ++b) hess[a * r + b] += 4.0 * ua * (y[b] - X(j[p], b));
            }
        }
        return scale;
    }
};

// Multilateration: subtracting the mean of ||y||^2 - 2 x_j^T y + ||x_j||^2 = d_j over j leaves the linear
// -2 (x_j - xbar)^T y = (d_j - dbar) - (||x_j||^2 - mean ||x||^2), solved by its normal equations;
// the observed points' mean when they are affinely dependent.
std::vector<double> multilateration(const PointFit& f, std::size_t r)
{
    const std::size_t m = f.j.size();
    std::vector<double> mean(r, 0.0), rhs(r, 0.0), normal(r * r, 0.0), norms(m);
    double dbar = 0.0, nbar = 0.0;
    for (std::size_t p = 0; p < m; ++p) {
        norms[p] = 0.0;
        for (std::size_t k = 0; k < r; ++k) mean[k] += f.X(f.j[p], k) / static_cast<double>(m), norms[p] += f.X(f.j[p], k) * f.X(f.j[p], k);
        dbar += f.d[p] / static_cast<double>(m), nbar += norms[p] / static_cast<double>(m);
    }
    for (std::size_t p = 0; p < m; ++p) {
        const double b = (f.d[p] - dbar) - (norms[p] - nbar);
        for (std::size_t a = 0; a < r; ++a) {
            const double ua = -2.0 * (f.X(f.j[p], a) - mean[a]);
            rhs[a] += ua * b;
            for (std::size_t c = 0; c < r; ++c) normal[a * r + c] += ua * -2.0 * (f.X(f.j[p], c) - mean[c]);
        }
    }
    double trace = 0.0;
    for (std::size_t a = 0; a < r; ++a) trace += normal[a * r + a];
    std::vector<double> y = rhs;
    std::vector<double> factor = normal;
    bool ok = trace > 0.0 && blas::solve_positive_definite(factor.data(), r, y.data(), 1);
    for (double v : y) ok = ok && std::isfinite(v);
    return ok ? y : mean;
}
}  // namespace

Matrix EdmCompletion::apply(const Matrix& X, const CsrMatrix& distances)
{
    const std::size_t n = X.shape()[0], r = X.shape()[1], q = static_cast<std::size_t>(distances.rows);
    require(distances.cols == static_cast<int64_t>(n), FACTO_ERROR_DIMENSION,
            "the new points' distances have " + std::to_string(distances.cols) + " columns, the fitted points are " +
                std::to_string(n));
    require_finite(X, "X");
    require(q == 0 || n >= r + 1, FACTO_ERROR_DIMENSION,
            "a new point needs r + 1 = " + std::to_string(r + 1) + " observed distances, and the positions have " +
                std::to_string(n) + " points");
    Matrix Y = Matrix::from_shape({q, r});
    std::vector<std::size_t> j;
    std::vector<double> d, grad(r), hess(r * r), step(r), trial(r);
    for (std::size_t l = 0; l < q; ++l) {
        j.clear(), d.clear();
        for (int64_t p = distances.indptr[l]; p < distances.indptr[l + 1]; ++p) {
            const double value = distances.values[static_cast<std::size_t>(p)];
            require(value >= 0.0, FACTO_ERROR_OUT_OF_RANGE,
                    "new point " + std::to_string(l) + "'s squared distance " + value_text(value) + " is negative");
            j.push_back(static_cast<std::size_t>(distances.indices[static_cast<std::size_t>(p)]));
            d.push_back(value);
        }
        require(j.size() >= r + 1, FACTO_ERROR_DIMENSION,
                "new point " + std::to_string(l) + " has " + std::to_string(j.size()) + " observed distances; its " +
                    std::to_string(r) + " coordinates need at least " + std::to_string(r + 1));
        const PointFit f{X, j, d};
        std::vector<double> y = multilateration(f, r);
        double value = f.value(y);
        for (int iteration = 0; iteration < 100; ++iteration) {
            const double scale = f.derivatives(y, grad, hess);
            const double norm = std::sqrt(blas::dot(grad.data(), grad.data(), r));
            if (norm <= 1e-12 * scale) break;
            step = grad;  // Newton's direction where the Hessian is positive definite, else the gradient's
            if (!blas::solve_positive_definite(hess.data(), r, step.data(), 1)) step = grad;
            double t = 1.0, next = value;
            for (int halving = 0; halving < 60; ++halving, t *= 0.5) {
                for (std::size_t k = 0; k < r; ++k) trial[k] = y[k] - t * step[k];
                next = f.value(trial);
                if (next <= value - 1e-4 * t * blas::dot(grad.data(), step.data(), r)) break;
            }
            if (!(next < value)) break;  // no decrease left at working precision
            y = trial, value = next;
        }
        for (std::size_t k = 0; k < r; ++k) Y(l, k) = y[k];
    }
    return Y;
}

}  // namespace facto
