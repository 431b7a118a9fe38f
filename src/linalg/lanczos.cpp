#include "linalg/lanczos.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.hpp"
#include "linalg/matrix.hpp"
#include "linalg/blas.hpp"

namespace facto {

namespace {

// x^T y over the n values here, summed over the processes when there are collectives.
double dot(const double* x, const double* y, std::size_t n, const Collectives* collectives)
{
    double value = blas::dot(x, y, n);
    sum_over(collectives, &value, 1);
    return value;
}

// w -= sum_i (q_i^T w) q_i over the first `count` rows of Q, twice (one classical Gram-Schmidt pass
// leaves components of the order of eps ||w|| / ||w_after||; the second removes them).
void orthogonalize(const std::vector<double>& Q, std::size_t count, std::size_t n, double* w,
                   const Collectives* collectives)
{
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < count; ++i) {
            const double* q = &Q[i * n];
            const double c = dot(q, w, n, collectives);
            for (std::size_t k = 0; k < n; ++k) w[k] -= c * q[k];
        }
}

// The smallest eigenpair of the k x k tridiagonal matrix (alpha, beta): its value and eigenvector s.
double smallest_ritz(const std::vector<double>& alpha, const std::vector<double>& beta, std::size_t k,
                     std::vector<double>& s, double& largest)
{
    Matrix T = xt::zeros<double>({k, k});
    for (std::size_t j = 0; j < k; ++j) {
        T(j, j) = alpha[j];
        if (j + 1 < k) T(j, j + 1) = T(j + 1, j) = beta[j];
    }
    Vector values;
    blas::symmetric_eigen(T, values);  // rows of T: eigenvectors, values ascending
    s.assign(&T(0, 0), &T(0, 0) + k);
    largest = std::max(std::fabs(values(0)), std::fabs(values(k - 1)));
    return values(0);
}

}  // namespace

Eigenpair smallest_eigenpair(std::size_t order, const std::function<void(const double*, double*)>& apply,
                             std::vector<double>& v, double tolerance, std::size_t steps, int64_t max_products,
                             const Collectives* collectives)
{
    const std::size_t n = v.size();  // the values held here: all of them on one process
    require(order >= 1 && (collectives || n == order), FACTO_ERROR_INTERNAL,
            "smallest_eigenpair: the start vector has the wrong size");
    const std::size_t m = std::max<std::size_t>(1, std::min(steps, order));
    std::vector<double> Q(m * n), w(n), alpha(m), beta(m), s;
    Eigenpair result{0.0, HUGE_VAL, 0, false};
    double scale = 0.0;
    const double floor = std::max(tolerance, static_cast<double>(order) * std::numeric_limits<double>::epsilon());
    for (;;) {
        const double norm = std::sqrt(dot(v.data(), v.data(), n, collectives));
        require(norm > 0.0 && std::isfinite(norm), FACTO_ERROR_NUMERICAL,
                "Lanczos: the start vector is zero or not finite");
        for (std::size_t k = 0; k < n; ++k) Q[k] = v[k] / norm;
        std::size_t k = 0;  // Lanczos vectors in Q
        for (std::size_t j = 0; j < m; ++j) {
            const double* q = &Q[j * n];
            apply(q, w.data());
            ++result.products;
            alpha[j] = dot(q, w.data(), n, collectives);
            orthogonalize(Q, j + 1, n, w.data(), collectives);
            beta[j] = std::sqrt(dot(w.data(), w.data(), n, collectives));
            k = j + 1;
            double largest = 0.0;
            result.value = smallest_ritz(alpha, beta, k, s, largest);
            scale = std::max(scale, largest);
            // ||A y - theta y|| = beta_j |s_j| for the Ritz vector y = Q^T s (Paige)
            result.residual = beta[j] * std::fabs(s[j]);
            // a residual below n eps ||A|| is rounding, and n vectors span the whole space (the pair is
            // then exact up to rounding): a tolerance below that (0 included) would chase it through restarts
            result.converged = result.residual <= floor * scale || k == order;
            if (result.converged || j + 1 == m || result.products >= max_products) break;
            if (!(beta[j] > 0.0)) break;  // an invariant subspace: the Ritz pair is exact
            for (std::size_t i = 0; i < n; ++i) Q[(j + 1) * n + i] = w[i] / beta[j];
        }
        // the Ritz vector: the answer, or the next start
        std::fill(v.begin(), v.end(), 0.0);
        for (std::size_t j = 0; j < k; ++j)
            for (std::size_t i = 0; i < n; ++i) v[i] += s[j] * Q[j * n + i];
        const double length = std::sqrt(dot(v.data(), v.data(), n, collectives));
        for (double& x : v) x /= length;
        if (result.converged || !(beta[k - 1] > 0.0) || result.products >= max_products) {
            result.converged = result.converged || !(beta[k - 1] > 0.0);
            return result;
        }
    }
}

}  // namespace facto
