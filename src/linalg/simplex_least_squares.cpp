// Columns of H on the simplex minimizing ||X - W H||_F: per column, the quadratic program
//     min 1/2 h^T Q h - b^T h   s.t.  h >= 0, 1^T h = 1,      Q = W^T W,  b = W^T x,
// by a primal active-set method (Nocedal & Wright, Alg. 16.3). Most columns end at once: the
// minimizer over the hyperplane 1^T h = 1 is computed for all columns by one solve with Q, and a column
// where it is nonnegative is done.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "linalg/simplex_least_squares.hpp"
#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"

namespace facto {

namespace {

// Q + ridge I factored and solved against B (n x nrhs, right-hand sides one after another); the ridge,
// 1e-13 max Q_ii at first, grows when Q is singular to working precision (more anchors than
// features, duplicated picks), which moves the minimizer by about that much. A Q that is 0 to working
// precision (W = 0: every h on the simplex fits equally) gets ridge 1, hence the uniform h.
void solve_ridged(const double* Q, std::size_t n, std::size_t stride, const std::vector<std::size_t>& index,
                  double* B, std::size_t nrhs, std::vector<double>& factor, std::vector<double>& copy)
{
    double diagonal = 0.0;
    for (std::size_t i : index) diagonal = std::max(diagonal, Q[i * stride + i]);
    copy.assign(B, B + n * nrhs);
    for (double ridge = diagonal > 1e-280 ? 1e-13 * diagonal : 1.0;; ridge *= 100.0) {
        factor.resize(n * n);
        for (std::size_t a = 0; a < n; ++a)
            for (std::size_t c = 0; c < n; ++c) factor[a * n + c] = Q[index[a] * stride + index[c]] + (a == c ? ridge : 0.0);
        if (blas::solve_positive_definite(factor.data(), n, B, nrhs)) return;
        std::copy(copy.begin(), copy.end(), B);
    }
}

// z = u - nu v with nu = (1^T u - 1) / 1^T v, so that 1^T z = 1 (f values each); true when z >= 0.
bool onto_hyperplane(const double* u, const double* v, std::size_t f, double* z)
{
    double sum_u = 0.0, sum_v = 0.0;
    for (std::size_t a = 0; a < f; ++a) sum_u += u[a], sum_v += v[a];
    const double nu = (sum_u - 1.0) / sum_v;
    bool nonnegative = true;
    for (std::size_t a = 0; a < f; ++a) nonnegative &= (z[a] = u[a] - nu * v[a]) >= 0.0;
    return nonnegative;
}

// The minimizer of 1/2 z^T Q_FF z - b_F^T z over 1^T z = 1 on the free set F: z = u - nu v with
// Q_FF u = b_F, Q_FF v = 1.
void hyperplane_minimizer(const double* Q, std::size_t k, const std::vector<std::size_t>& free, const double* b,
                          std::vector<double>& z, std::vector<double>& work, std::vector<double>& factor,
                          std::vector<double>& copy)
{
    const std::size_t f = free.size();
    work.resize(2 * f);
    for (std::size_t a = 0; a < f; ++a) {
        work[a] = b[free[a]];
        work[f + a] = 1.0;
    }
    solve_ridged(Q, f, k, free, work.data(), 2, factor, copy);
    z.resize(f);
    onto_hyperplane(work.data(), work.data() + f, f, z.data());
}

struct ActiveSetWork {
    std::vector<std::size_t> free;
    std::vector<double> z, work, factor, copy, g;
};

// Alg. 16.3 from the uniform point with every index free; z0 is the hyperplane minimizer on all of
// them. Each step moves toward the free set's minimizer, fixes the first index that would turn
// negative, or, at that minimizer, frees the fixed index of most negative multiplier. h ends on the
// simplex (clipped and renormalized against rounding).
void active_set_column(const double* Q, std::size_t k, const double* b, const double* z0, double* h,
                       ActiveSetWork& w)
{
    std::fill(h, h + k, 1.0 / static_cast<double>(k));
    w.free.resize(k);
    for (std::size_t i = 0; i < k; ++i) w.free[i] = i;
    w.z.assign(z0, z0 + k);
    double scale = 0.0;
    for (std::size_t i = 0; i < k; ++i) scale = std::max({scale, std::fabs(b[i]), Q[i * k + i]});
    for (std::size_t step = 0; step < 10 * k + 10; ++step) {
        if (step > 0) hyperplane_minimizer(Q, k, w.free, b, w.z, w.work, w.factor, w.copy);
        double alpha = 1.0;
        std::size_t blocking = w.free.size();
        for (std::size_t a = 0; a < w.free.size(); ++a) {
            const double p = w.z[a] - h[w.free[a]];
            if (p < 0.0 && h[w.free[a]] < -alpha * p) {
                alpha = h[w.free[a]] / -p;
                blocking = a;
            }
        }
        for (std::size_t a = 0; a < w.free.size(); ++a) h[w.free[a]] += alpha * (w.z[a] - h[w.free[a]]);
        if (blocking < w.free.size()) {
            h[w.free[blocking]] = 0.0;
            w.free.erase(w.free.begin() + static_cast<std::ptrdiff_t>(blocking));
            continue;
        }
        // At the free set's minimizer: multipliers of the fixed indices, g_i + nu with nu = -g on F.
        w.g.assign(k, 0.0);
        for (std::size_t i = 0; i < k; ++i) {
            double gi = -b[i];
            for (std::size_t j = 0; j < k; ++j) gi += Q[i * k + j] * h[j];
            w.g[i] = gi;
        }
        double nu = 0.0;
        for (std::size_t i : w.free) nu -= w.g[i];
        nu /= static_cast<double>(w.free.size());
        std::size_t entering = k;
        double most_negative = -1e-13 * scale;
        for (std::size_t i = 0; i < k; ++i)
            if (h[i] == 0.0 && std::find(w.free.begin(), w.free.end(), i) == w.free.end() && w.g[i] + nu < most_negative) {
                most_negative = w.g[i] + nu;
                entering = i;
            }
        if (entering == k) break;  // KKT holds: optimal
        w.free.insert(std::upper_bound(w.free.begin(), w.free.end(), entering), entering);
    }
    double sum = 0.0;
    for (std::size_t i = 0; i < k; ++i) sum += h[i] = std::max(h[i], 0.0);
    for (std::size_t i = 0; i < k; ++i) h[i] /= sum;
}

// Rows 0 .. width - 1 of Ht (from row `at`) for the right-hand sides B (width x k, row l = W^T x_l):
// the hyperplane minimizers z_l = u_l - nu_l v with Q u_l = b_l, finished by the active set where one
// leaves the orthant. v solves Q v = 1; U is work space.
void solve_rows(const Matrix& Q, const std::vector<double>& v, const double* B, std::size_t width, Matrix& Ht,
                std::size_t at, std::vector<double>& U, std::vector<double>& factor, std::vector<double>& copy,
                std::size_t threads)
{
    const std::size_t k = Q.shape()[0];
    std::vector<std::size_t> all(k);
    for (std::size_t i = 0; i < k; ++i) all[i] = i;
    U.assign(B, B + width * k);
    solve_ridged(Q.data(), k, k, all, U.data(), width, factor, copy);
    parallel_for(width, 64, threads, [&](std::size_t begin, std::size_t end) {
        ActiveSetWork work;
        std::vector<double> z(k);
        for (std::size_t c = begin; c < end; ++c) {
            if (onto_hyperplane(&U[c * k], v.data(), k, z.data()))
                std::copy(z.begin(), z.end(), &Ht(at + c, 0));
            else
                active_set_column(Q.data(), k, &B[c * k], z.data(), &Ht(at + c, 0), work);
        }
    });
}

// v with Q v = 1.
std::vector<double> solve_ones(const Matrix& Q, std::vector<double>& factor, std::vector<double>& copy)
{
    const std::size_t k = Q.shape()[0];
    std::vector<std::size_t> all(k);
    for (std::size_t i = 0; i < k; ++i) all[i] = i;
    std::vector<double> v(k, 1.0);
    solve_ridged(Q.data(), k, k, all, v.data(), 1, factor, copy);
    return v;
}

}  // namespace

Matrix simplex_least_squares(const Matrix& Xt, const std::vector<int64_t>& selected, std::size_t threads,
                             std::size_t first, std::size_t count)
{
    const std::size_t n = std::min(count, Xt.shape()[0] - first), m = Xt.shape()[1], k = selected.size();
    Matrix Ht = xt::ones<double>({n, k}) / static_cast<double>(std::max<std::size_t>(k, 1));
    if (k == 0) return Ht;
    Matrix Wt({k, m});
    for (std::size_t i = 0; i < k; ++i)
        std::copy(&Xt(static_cast<std::size_t>(selected[i]), 0), &Xt(static_cast<std::size_t>(selected[i]), 0) + m, &Wt(i, 0));
    Matrix Q({k, k});
    blas::gemm(false, true, 1.0, Wt, Wt, 0.0, Q);  // W^T W
    std::vector<double> factor, copy, U;
    const std::vector<double> v = solve_ones(Q, factor, copy);
    // Chunks of columns, so that B and U take O(chunk K) memory beside H
    constexpr std::size_t kChunk = 4096;
    Matrix B({std::min(n, kChunk), k});
    for (std::size_t c0 = 0; c0 < n; c0 += kChunk) {
        const std::size_t width = std::min(kChunk, n - c0);
        // row l of B: b_l = W^T x_l
        blas::gemm(false, true, width, k, m, 1.0, &Xt(first + c0, 0), m, Wt.data(), m, 0.0, B.data(), k);
        solve_rows(Q, v, B.data(), width, Ht, c0, U, factor, copy, threads);
    }
    return Ht;
}

Matrix simplex_least_squares_gram(const Matrix& Q, const Matrix& B, std::size_t threads)
{
    const std::size_t n = B.shape()[0], k = Q.shape()[0];
    Matrix Ht = xt::ones<double>({n, k}) / static_cast<double>(std::max<std::size_t>(k, 1));
    if (k == 0 || n == 0) return Ht;
    std::vector<double> factor, copy, U;
    const std::vector<double> v = solve_ones(Q, factor, copy);
    solve_rows(Q, v, B.data(), n, Ht, 0, U, factor, copy, threads);
    return Ht;
}

namespace {
// W^T W and room for B (m x k, row l = W^T y_l) once m points of W's d entries are checked.
Matrix checked_gram(const Matrix& W, std::size_t m, std::size_t d, const char* what, Matrix& B)
{
    require(d == W.shape()[0], FACTO_ERROR_DIMENSION,
            std::string(what) + " must have " + std::to_string(W.shape()[0]) + " entries per point, got " +
                std::to_string(d));
    require_finite(W, "W");
    const auto k = static_cast<double>(W.shape()[1]);
    require_memory(8.0 * k * (2.0 * k + static_cast<double>(m)), "the simplex least squares' K x K Gram matrix");
    Matrix Q({W.shape()[1], W.shape()[1]});
    blas::gemm(true, false, 1.0, W, W, 0.0, Q);  // W^T W
    B = Matrix({m, W.shape()[1]});
    return Q;
}
}  // namespace

Matrix simplex_coefficients(const Matrix& W, const Matrix& Y, const char* what, std::size_t threads)
{
    Matrix B;
    const Matrix Q = checked_gram(W, Y.shape()[0], Y.shape()[1], what, B);
    require_finite(Y, what);
    blas::gemm(false, false, 1.0, Y, W, 0.0, B);  // row l: W^T y_l
    return simplex_least_squares_gram(Q, B, threads);
}

Matrix simplex_coefficients(const Matrix& W, const CsrMatrix& Y, const char* what, std::size_t threads)
{
    Matrix B;
    const Matrix Q = checked_gram(W, static_cast<std::size_t>(Y.rows), static_cast<std::size_t>(Y.cols), what, B);
    require(std::all_of(Y.values.begin(), Y.values.end(), [](double v) { return std::isfinite(v); }),
            FACTO_ERROR_NOT_FINITE, std::string(what) + ": a stored value is not finite");
    spmm(Y, W, B, threads);  // row l: W^T y_l over y_l's stored entries
    return simplex_least_squares_gram(Q, B, threads);
}

}  // namespace facto
