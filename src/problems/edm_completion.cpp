#include "problems/edm_completion.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "base/random.hpp"
#include "base/error.hpp"
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

}  // namespace facto
