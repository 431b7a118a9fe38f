#include "solvers/nomad/nomad_partition_bound.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/gram_operator.hpp"
#include "metrics/metrics.hpp"

namespace facto {

namespace {
// The sum of the K - 1 largest of `values` and `zeros` more zeros.
double largest_sum(std::vector<double> values, std::size_t zeros, int64_t K)
{
    const std::size_t k = static_cast<std::size_t>(K - 1);
    values.insert(values.end(), std::min(zeros, k), 0.0);
    const std::size_t count = std::min(k, values.size());
    std::partial_sort(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(count), values.end(), std::greater<>());
    return std::accumulate(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(count), 0.0);
}

double sigmoid(double x) { return x >= 0.0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x)); }
double softplus(double x) { return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

// The entropy smoothing of the sum of the K - 1 largest of theta and `zeros` zeros at temperature mu:
//     max { sum_j p_j theta_j + mu sum_j h(p_j) : 0 <= p <= 1, sum_j p_j = K - 1 }  (h the binary entropy)
//   = t (K - 1) + mu sum_j softplus((theta_j - t) / mu),
// t the multiplier of the sum, where sum_j sigmoid((theta_j - t) / mu) = K - 1 (found by bisection);
// p_j = sigmoid((theta_j - t) / mu) is its gradient in theta_j.
double smoothed_largest_sum(const Vector& theta, double zeros, int64_t K, double mu, std::vector<double>& p)
{
    const double k = static_cast<double>(K - 1);
    const auto count = [&](double t) {
        double sum = zeros * sigmoid(-t / mu);
        for (const double v : theta) sum += sigmoid((v - t) / mu);
        return sum;
    };
    double low = std::min(0.0, theta.size() ? theta(0) : 0.0) - 40.0 * mu;
    double high = std::max(0.0, theta.size() ? theta(theta.size() - 1) : 0.0) + 40.0 * mu;
    for (int halving = 0; halving < 100; ++halving) {
        const double t = 0.5 * (low + high);
        (count(t) > k ? low : high) = t;
    }
    const double t = 0.5 * (low + high);
    double value = t * k + mu * zeros * softplus(-t / mu);
    p.resize(theta.size());
    for (std::size_t j = 0; j < theta.size(); ++j) {
        value += mu * softplus((theta(j) - t) / mu);
        p[j] = sigmoid((theta(j) - t) / mu);
    }
    return value;
}
}  // namespace

PartitionDual::PartitionDual(const Matrix& F, int64_t K, double tail_fraction)
    : n_(F.shape()[0]), r_(0), K_(K), components_(GramOperator::factored(Matrix({n_, 0})))
{
    const std::size_t d = F.shape()[1];
    require(K >= 1 && static_cast<std::size_t>(K) <= n_, FACTO_ERROR_OUT_OF_RANGE,
            "nomad_partition_bound: K must be in [1, n]");
    require(tail_fraction >= 0.0, FACTO_ERROR_OUT_OF_RANGE, "nomad_partition_bound: tail_fraction must be >= 0");
    // (J F)^T (J F) = F^T F - n mu mu^T (mu the mean row); <D, E> = ||F^T 1||^2 / n = n ||mu||^2
    std::vector<double> mu(d, 0.0);
    for (std::size_t i = 0; i < n_; ++i)
        for (std::size_t k = 0; k < d; ++k) mu[k] += F(i, k);
    for (double& v : mu) v /= static_cast<double>(n_);
    mean_ = static_cast<double>(n_) * blas::dot(mu.data(), mu.data(), d);
    // J D J's spectrum from the smaller of (J F)^T (J F) (d x d) and J F F^T J (n x n): the same nonzero
    // eigenvalues; the components J F V_r are, from the second, U_r diag(sigma_r)^1/2
    const bool by_points = d > n_;
    const std::size_t m = by_points ? n_ : d;
    Matrix C({m, m});
    if (by_points) {
        blas::gemm(false, true, 1.0, F, F, 0.0, C);
        std::vector<double> row_means(n_, 0.0);
        for (std::size_t i = 0; i < n_; ++i) row_means[i] = blas::dot(&F(i, 0), mu.data(), d);
        const double all = blas::dot(mu.data(), mu.data(), d);  // (F_i - mu) . (F_j - mu) = D_ij - F_i . mu - F_j . mu + mu . mu
        for (std::size_t i = 0; i < n_; ++i)
            for (std::size_t j = 0; j < n_; ++j) C(i, j) += all - row_means[i] - row_means[j];
    } else {
        blas::gram(F, C);
        for (std::size_t a = 0; a < d; ++a)
            for (std::size_t b = 0; b < d; ++b) C(a, b) -= static_cast<double>(n_) * mu[a] * mu[b];
    }
    Vector lambda;
    blas::symmetric_eigen(C, lambda);
    std::vector<double> sigma(m);  // J D J's nonzero spectrum, descending
    for (std::size_t i = 0; i < m; ++i) sigma[i] = std::max(lambda(m - 1 - i), 0.0);
    const std::size_t k = static_cast<std::size_t>(K - 1);
    const auto sum = [&](std::size_t first) {
        return std::accumulate(sigma.begin() + static_cast<std::ptrdiff_t>(std::min(first, m)),
                               sigma.begin() + static_cast<std::ptrdiff_t>(std::min(first + k, m)), 0.0);
    };
    top_ = sum(0);
    while (r_ < m && sum(r_) > tail_fraction * top_) ++r_;
    tail_ = sum(r_);
    trace_ = std::accumulate(sigma.begin(), sigma.end(), 0.0);
    sigma_.assign(sigma.begin(), sigma.begin() + static_cast<std::ptrdiff_t>(r_));
    // F_r = (F - 1 mu^T) V_r, V_r's columns being C's last r rows (eigenvectors), largest first; by points
    // U_r sigma_r^1/2 with U_r's columns C's last r rows
    Matrix Fr({n_, r_});
    if (r_ > 0 && by_points) {
        for (std::size_t j = 0; j < r_; ++j)
            for (std::size_t i = 0; i < n_; ++i) Fr(i, j) = C(m - 1 - j, i) * std::sqrt(sigma[j]);
    } else if (r_ > 0) {
        Matrix V({d, r_});
        for (std::size_t j = 0; j < r_; ++j)
            for (std::size_t a = 0; a < d; ++a) V(a, j) = C(d - 1 - j, a);
        blas::gemm(false, false, 1.0, F, V, 0.0, Fr);
        for (std::size_t j = 0; j < r_; ++j) {
            double shift = 0.0;
            for (std::size_t a = 0; a < d; ++a) shift += mu[a] * V(a, j);
            for (std::size_t i = 0; i < n_; ++i) Fr(i, j) -= shift;
        }
    }
    components_ = GramOperator::factored(std::move(Fr));
}

void PartitionDual::partition(const std::vector<int64_t>& labels)
{
    require(labels.size() == n_, FACTO_ERROR_DIMENSION, "nomad_partition_bound: one label per point");
    require(std::all_of(labels.begin(), labels.end(), [](int64_t a) { return a >= 0; }), FACTO_ERROR_INVALID_ARGUMENT,
            "nomad_partition_bound: labels must be >= 0");
    labels_ = labels;
    parts_ = *std::max_element(labels.begin(), labels.end()) + 1;
    const std::size_t p = static_cast<std::size_t>(parts_);
    count_.assign(p, 0.0);
    components_by_part_ = Matrix({r_, p}, 0.0);  // F_r^T Z
    for (std::size_t i = 0; i < n_; ++i) {
        const std::size_t a = static_cast<std::size_t>(labels[i]);
        count_[a] += 1.0;
        for (std::size_t j = 0; j < r_; ++j) components_by_part_(j, a) += components()(i, j);
    }
}

PartitionDual::Value PartitionDual::evaluate(const double* G, double mu, double* gradient) const
{
    require(parts_ > 0, FACTO_ERROR_BAD_STATE, "nomad_partition_bound: no partition");
    const std::size_t n = n_, r = r_, p = static_cast<std::size_t>(parts_), m = r + 2 * p, zg = r + p;
    const double nd = static_cast<double>(n);
    std::vector<double> column_sums(p, 0.0);  // G^T 1
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t b = 0; b < p; ++b) column_sums[b] += G[i * p + b];
    // C = W^T W, W = [F_r, J Z, J G] (F_r is centred, so F_r^T J = F_r^T); its upper triangle
    Matrix C({m, m}, 0.0);
    for (std::size_t j = 0; j < r; ++j) {
        C(j, j) = sigma_[j];
        for (std::size_t a = 0; a < p; ++a) C(j, r + a) = components_by_part_(j, a);
    }
    if (r > 0) blas::gemm(true, false, r, p, n, 1.0, components().data(), r, G, p, 0.0, &C(0, zg), m);
    blas::gemm(true, false, p, p, n, 1.0, G, p, G, p, 0.0, &C(zg, zg), m);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t a = static_cast<std::size_t>(labels_[i]);
        for (std::size_t b = 0; b < p; ++b) C(r + a, zg + b) += G[i * p + b];
    }
    for (std::size_t a = 0; a < p; ++a) {
        C(r + a, r + a) += count_[a];
        for (std::size_t b = 0; b < p; ++b) {
            C(r + a, r + b) -= count_[a] * count_[b] / nd;
            C(r + a, zg + b) -= count_[a] * column_sums[b] / nd;
            C(zg + a, zg + b) -= column_sums[a] * column_sums[b] / nd;
        }
    }
    for (std::size_t a = 0; a < m; ++a)
        for (std::size_t b = 0; b < a; ++b) C(a, b) = C(b, a);
    Matrix WtZ = xt::view(C, xt::all(), xt::range(r, zg));  // W^T Z = W^T J Z, for the gradient
    // C = V S V^T; W M0 W^T (M0 = diag(I_r, [0 I; I 0])) has the eigenvalues of B = S^1/2 V^T M0 V S^1/2
    // on range(W), and 0 on its n - 1 - rank(W) other dimensions in 1-perp. Directions with
    // s <= eps max s are dropped: W = W_kept + W_dropped with ||W_dropped||^2 <= eps max s shifts each
    // eigenvalue by at most (2 sqrt(eps) + eps) max s (Weyl), added to the bound as a margin that also
    // covers the rounding of C itself (n eps max s for n <= 10^8)
    Vector s;
    blas::symmetric_eigen(C, s);
    const double largest = std::max(s(m - 1), 0.0), eps = std::numeric_limits<double>::epsilon();
    std::vector<std::size_t> kept;
    for (std::size_t j = 0; j < m; ++j)
        if (s(j) > eps * largest) kept.push_back(j);
    const std::size_t q = kept.size();
    Matrix R({m, q}), M0R({m, q});
    for (std::size_t c = 0; c < q; ++c)
        for (std::size_t a = 0; a < m; ++a) R(a, c) = std::sqrt(s(kept[c])) * C(kept[c], a);
    for (std::size_t a = 0; a < m; ++a) {
        const std::size_t from = a < r ? a : (a < zg ? a + p : a - p);
        for (std::size_t c = 0; c < q; ++c) M0R(a, c) = R(from, c);
    }
    Matrix B({q, q});
    blas::gemm(true, false, 1.0, R, M0R, 0.0, B);
    Vector theta = xt::zeros<double>({std::size_t{0}});  // W = 0 (J D J = 0, one part, G = 0): no eigenvalue
    if (q > 0) blas::symmetric_eigen(B, theta);
    const double zeros = n - 1 > q ? static_cast<double>(n - 1 - q) : 0.0;
    // <D, E> + 2 <G, E Z> + tail_r, and the margin
    double base = mean_ + tail_ + static_cast<double>(K_ - 1) * (2.0 * std::sqrt(eps) + eps) * largest;
    for (std::size_t a = 0; a < p; ++a) base += 2.0 * count_[a] * column_sums[a] / nd;
    Value value{base + largest_sum(std::vector<double>(theta.begin(), theta.end()), static_cast<std::size_t>(zeros), K_),
                base};
    if (K_ == 1) {  // P = 0: (1) is linear in G
        if (gradient)
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t b = 0; b < p; ++b) gradient[i * p + b] = 2.0 * count_[b] / nd;
        return value;
    }
    std::vector<double> weight;
    value.smoothed += smoothed_largest_sum(theta, zeros, K_, mu, weight);
    if (!gradient) return value;
    // d/dG of 2 <G, (E + P) Z> with P = W N diag(weight) N^T W^T, N = V S^-1/2 Y (Y: B's eigenvectors),
    // the zeros' share vanishing since J Z lies in range(W): 2 (E Z + W A), A = N diag(weight) N^T W^T Z
    Matrix Vs({m, q});
    for (std::size_t c = 0; c < q; ++c)
        for (std::size_t a = 0; a < m; ++a) Vs(a, c) = C(kept[c], a) / std::sqrt(std::max(s(kept[c]), 1e-12 * largest));
    Matrix N({m, q}), X({q, p}), A({m, p});
    blas::gemm(false, true, 1.0, Vs, B, 0.0, N);
    blas::gemm(true, false, 1.0, N, WtZ, 0.0, X);
    for (std::size_t c = 0; c < q; ++c)
        for (std::size_t b = 0; b < p; ++b) X(c, b) *= weight[c];
    blas::gemm(false, false, 1.0, N, X, 0.0, A);
    // W A = F_r A_F + J Z A_Z + J G A_G, with J x = x - mean(x)
    if (r > 0) blas::gemm(false, false, n, p, r, 1.0, components().data(), r, A.data(), p, 0.0, gradient, p);
    else std::fill(gradient, gradient + n * p, 0.0);
    blas::gemm(false, false, n, p, p, 1.0, G, p, &A(zg, 0), p, 1.0, gradient, p);
    std::vector<double> mean(p, 0.0);  // (count^T A_Z + column_sums^T A_G) / n
    for (std::size_t b = 0; b < p; ++b) {
        for (std::size_t a = 0; a < p; ++a) mean[b] += count_[a] * A(r + a, b) + column_sums[a] * A(zg + a, b);
        mean[b] /= nd;
    }
    for (std::size_t i = 0; i < n; ++i) {  // row by row (the rows of G are contiguous)
        const std::size_t a = static_cast<std::size_t>(labels_[i]);
        for (std::size_t b = 0; b < p; ++b)
            gradient[i * p + b] = 2.0 * (count_[b] / nd + gradient[i * p + b] + A(r + a, b) - mean[b]);
    }
    return value;
}

PartitionBound nomad_partition_bound(const Matrix& F, int64_t K, const PartitionBoundSettings& settings)
{
    require(settings.parts >= 0 && settings.iterations >= 0, FACTO_ERROR_OUT_OF_RANGE,
            "nomad_partition_bound: parts and iterations must be >= 0");
    PartitionDual dual(F, K, settings.tail_fraction);
    const int64_t n = static_cast<int64_t>(F.shape()[0]);
    const int64_t parts = std::min(n, settings.parts > 0 ? settings.parts : std::min<int64_t>(4 * K, 64));
    PartitionBound result{0.0, 0.0, static_cast<int64_t>(dual.components().shape()[1]), 0};
    // with J D J = 0 or K = 1 every feasible Q has Tr(D Q) = <D, E> + Tr(J D J P): no partition to use
    if (result.rank == 0 || K == 1) {
        const std::size_t size = static_cast<std::size_t>(n);
        dual.partition(std::vector<int64_t>(size, 0));
        result.spectral = result.bound = dual.evaluate(std::vector<double>(size, 0.0).data(), 1.0, nullptr).exact;
        return result;
    }
    dual.partition(kernel_kmeans(dual.components_gram(), parts, settings.seed, 100, settings.threads));
    // Projected Barzilai-Borwein steps G+ = max(0, G - step g) on (1) smoothed at temperature mu, taken
    // when they lower it (else step / 4), the step carried across stages of 50 taken steps (or one that
    // does not move G), mu from a hundredth of Tr(J D J) / K down by 3 per stage. Measured on
    // Fashion-MNIST (n = 1000, K = 10, 40 parts): 81.66 after 200 steps (docs/benchmarks.md), where the
    // spectral projected gradient restarted per stage (nonmonotone or not, along the segment or the
    // projection arc) stopped at 82.8-83.4 after 300
    const std::size_t size = static_cast<std::size_t>(n * dual.parts());
    std::vector<double> G(size, 0.0), g(size), trial(size), g_trial(size);
    const double first_mu = 1e-2 * dual.trace() / static_cast<double>(K);
    const PartitionDual::Value at_zero = dual.evaluate(G.data(), first_mu, g.data());
    result.spectral = result.bound = at_zero.exact;
    double mu = first_mu, f = at_zero.smoothed, largest = 0.0;
    for (const double gk : g) largest = std::max(largest, std::fabs(gk));
    double step = largest > 0.0 ? 1e-3 / largest : 1.0;
    const double r = static_cast<double>(result.rank), p = static_cast<double>(dual.parts());
    const double step_cost = std::pow(r + 2.0 * p, 3.0) + static_cast<double>(n) * (r + p) * p;
    for (int taken = 0; result.iterations < settings.iterations && (result.iterations + 1) * step_cost <= settings.budget;
         ++result.iterations) {
        for (std::size_t k = 0; k < size; ++k) trial[k] = std::max(G[k] - step * g[k], 0.0);
        const PartitionDual::Value v = dual.evaluate(trial.data(), mu, g_trial.data());
        result.bound = std::min(result.bound, v.exact);
        if (!(v.smoothed <= f)) {
            step /= 4.0;
            continue;
        }
        double ss = 0.0, sy = 0.0;
        for (std::size_t k = 0; k < size; ++k) {
            const double sk = trial[k] - G[k], yk = g_trial[k] - g[k];
            ss += sk * sk, sy += sk * yk;
        }
        if (ss > 0.0) {
            step = sy > 0.0 ? ss / sy : 2.0 * step;
            G.swap(trial), g.swap(g_trial), f = v.smoothed;
        } else if (mu < 1e-12 * first_mu) {
            break;  // stationary at every temperature left
        }
        if (++taken % 50 == 0 || ss == 0.0) {
            mu /= 3.0;
            f = dual.evaluate(G.data(), mu, g.data()).smoothed;
        }
    }
    return result;
}

}  // namespace facto
