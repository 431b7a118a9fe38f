#include "solvers/self_dictionary/geonmf.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "linalg/simplex_least_squares.hpp"
#include "metrics/metrics.hpp"

namespace facto {

namespace {

// MATLAB's quantile of unsorted values: the sorted value at position q n + 1/2, interpolated
// linearly, clamped to the smallest and largest.
double quantile(std::vector<double> values, double q)
{
    std::sort(values.begin(), values.end());
    const double at = q * static_cast<double>(values.size()) - 0.5;
    if (at <= 0.0) return values.front();
    if (at >= static_cast<double>(values.size() - 1)) return values.back();
    const auto below = static_cast<std::size_t>(at);
    return values[below] + (at - static_cast<double>(below)) * (values[below + 1] - values[below]);
}

// The 2-norm condition number of the rows `rows` of X (K x K).
double condition(const Matrix& X, const std::vector<std::size_t>& rows)
{
    const std::size_t K = X.shape()[1];
    Matrix S = Matrix::from_shape({K, K});
    for (std::size_t a = 0; a < K; ++a) std::copy(&X(rows[a], 0), &X(rows[a], 0) + K, &S(a, 0));
    const Vector sigma = blas::singular_values(std::move(S));
    return sigma(K - 1) > 0.0 ? sigma(0) / sigma(K - 1) : std::numeric_limits<double>::infinity();
}

}  // namespace

GeoNmf::GeoNmf(std::shared_ptr<const CommunityModel> problem)
    : SelfDictionarySolver(problem, {real_param("epsilon", 0.25, 0.0, 1.0,
                                                "candidates: nodes with ||x_i||^2 > (1 - epsilon) max ||x||^2"),
                                     real_param("q", 0.95, 0.0, 1.0,
                                                "pure node of a cluster: the least d_i ||x_i||^2 at or above its "
                                                "q-quantile")}),
      model_(std::move(problem))
{
    mutable_params().bind("epsilon", epsilon_);
    mutable_params().bind("q", q_);
}

void GeoNmf::start(Matrix)
{
    throw Error(FACTO_ERROR_UNSUPPORTED, "geonmf starts from the data alone; it takes no iterate");
}

void GeoNmf::start_default(uint64_t seed)
{
    seed_ = seed, done_ = false;
    C_ = SimplexColumns{};
    C_.columns.resize(static_cast<std::size_t>(dictionary_->N()));
}

double GeoNmf::current_objective() const { return 0.5 * dictionary_->residual_squared(C_); }

double GeoNmf::iterate_once()
{
    if (done_) return 0.0;
    const Matrix& V = model_->eigenvectors();
    const Vector& E = model_->eigenvalues();
    const std::vector<double>& d = model_->degrees();
    const std::size_t N = V.shape()[0], K = V.shape()[1];
    for (std::size_t k = 0; k < K; ++k)
        require(E(k) > 0.0, FACTO_ERROR_NUMERICAL,
                "geonmf needs the K leading eigenvalues positive; eigenvalue " + std::to_string(k) + " is " +
                    value_text(E(k)));
    Matrix Xo = Matrix::from_shape({N, K});  // D^{-1/2} V E^{1/2}
    std::vector<double> a(N, 0.0);
    for (std::size_t i = 0; i < N; ++i)
        for (std::size_t k = 0; k < K; ++k) {
            Xo(i, k) = d[i] > 0.0 ? V(i, k) * std::sqrt(E(k) / d[i]) : 0.0;
            a[i] += Xo(i, k) * Xo(i, k);
        }
    const double mean_degree = std::accumulate(d.begin(), d.end(), 0.0) / static_cast<double>(N);
    const double cond_bound = mean_degree < 250.0 ? 2.0 : 1.5, q_floor = mean_degree < 250.0 ? 0.7 : 0.8;
    const double a_max = *std::max_element(a.begin(), a.end());
    double epsilon = epsilon_, q = q_;
    std::vector<std::size_t> pure;
    for (bool first = true; first || epsilon <= 0.95; first = false) {
        std::vector<std::size_t> S;
        for (;;) {
            S.clear();
            for (std::size_t i = 0; i < N; ++i)
                if (a[i] > (1.0 - epsilon) * a_max) S.push_back(i);
            if (S.size() >= K || epsilon >= 0.95) break;
            epsilon += 0.025;
        }
        require(S.size() >= K, FACTO_ERROR_NUMERICAL, "geonmf found fewer than K candidate pure nodes");
        Matrix candidates = Matrix::from_shape({S.size(), K});
        for (std::size_t c = 0; c < S.size(); ++c) std::copy(&Xo(S[c], 0), &Xo(S[c], 0) + K, &candidates(c, 0));
        const std::vector<int64_t> cluster = kmeans(candidates, static_cast<int64_t>(K), 20, seed_);
        pure.clear();
        for (std::size_t k = 0; k < K; ++k) {
            std::vector<std::size_t> members;
            std::vector<double> beta;
            for (std::size_t c = 0; c < S.size(); ++c)
                if (cluster[c] == static_cast<int64_t>(k)) members.push_back(S[c]), beta.push_back(d[S[c]] * a[S[c]]);
            require(!members.empty(), FACTO_ERROR_NUMERICAL, "geonmf: k-means left a community without candidates");
            const double cut = quantile(beta, q);
            std::size_t best = members.front();
            double best_beta = std::numeric_limits<double>::infinity();
            for (std::size_t m = 0; m < members.size(); ++m)
                if (beta[m] >= cut && beta[m] < best_beta) best_beta = beta[m], best = members[m];
            pure.push_back(best);
        }
        if (condition(Xo, pure) < cond_bound) break;
        if (epsilon <= 0.4) {
            epsilon += 0.025;
            continue;
        }
        if (q <= 0.01) break;
        q -= 0.01, epsilon += 0.025;
        if (q <= q_floor) break;
    }
    // the pure nodes as the problem's columns
    const std::vector<int64_t>& nodes = model_->nodes();
    std::vector<int64_t> J;
    for (std::size_t node : pure) {
        const auto at = std::lower_bound(nodes.begin(), nodes.end(), static_cast<int64_t>(node));
        require(at != nodes.end() && *at == static_cast<int64_t>(node), FACTO_ERROR_INVALID_ARGUMENT,
                "geonmf's pure node " + std::to_string(node) +
                    " is not among the nodes the problem keeps: build it with energy = 1");
        J.push_back(at - nodes.begin());
    }
    std::sort(J.begin(), J.end());
    J.erase(std::unique(J.begin(), J.end()), J.end());
    require(J.size() == K, FACTO_ERROR_NUMERICAL, "geonmf picked the same node for two communities");
    C_ = SimplexColumns::from_selected(J, dictionary_->coefficients(J, resolve_threads(common().threads)));
    done_ = true;
    return 1.0;
}

}  // namespace facto
