// Lloyd's k-means with k-means++ seeding: how the authors of [NFW] cluster the documents by their
// estimated topic weights (Table II's accuracy), and GeoNMF's grouping of candidate pure nodes.
#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <utility>

#include "base/error.hpp"
#include "base/random.hpp"
#include "linalg/gram_rows.hpp"
#include "metrics/metrics.hpp"

namespace facto {

namespace {

double squared_distance(const double* x, const double* c, std::size_t d)
{
    double sum = 0.0;
    for (std::size_t j = 0; j < d; ++j) sum += (x[j] - c[j]) * (x[j] - c[j]);
    return sum;
}

// The row of C nearest to x (first on ties) and its squared distance.
std::pair<int64_t, double> nearest_center(const double* x, const Matrix& C)
{
    const std::size_t d = C.shape()[1];
    int64_t best = 0;
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < C.shape()[0]; ++k) {
        const double dist = squared_distance(x, &C(k, 0), d);
        if (dist < nearest) nearest = dist, best = static_cast<int64_t>(k);
    }
    return {best, nearest};
}

// An index drawn with probability proportional to weight[i] (total their sum; the last index when 0).
std::size_t draw(const std::vector<double>& weight, double total, Rng& rng)
{
    double target = rng.uniform() * total;
    for (std::size_t i = 0; i < weight.size() && total > 0.0; ++i)
        if ((target -= weight[i]) < 0.0) return i;
    return weight.size() - 1;
}

// k-means++: the first center uniform, each next one drawn with probability proportional to the
// squared distance to the nearest center so far.
Matrix seed_centers(const Matrix& X, std::size_t K, Rng& rng)
{
    const std::size_t n = X.shape()[0], d = X.shape()[1];
    Matrix C = Matrix::from_shape({K, d});
    std::vector<double> nearest(n, std::numeric_limits<double>::infinity());
    std::size_t pick = static_cast<std::size_t>(rng.uniform() * static_cast<double>(n));
    for (std::size_t k = 0; k < K; ++k) {
        std::copy(&X(pick, 0), &X(pick, 0) + d, &C(k, 0));
        double total = 0.0;
        for (std::size_t i = 0; i < n; ++i) total += nearest[i] = std::min(nearest[i], squared_distance(&X(i, 0), &C(k, 0), d));
        pick = draw(nearest, total, rng);
    }
    return C;
}

// One Lloyd run from C; returns the within-cluster sum of squares.
double lloyd(const Matrix& X, Matrix& C, std::vector<int64_t>& labels, int max_iterations)
{
    const std::size_t n = X.shape()[0], d = X.shape()[1], K = C.shape()[0];
    std::vector<double> distance(n);
    double cost = 0.0;
    for (int iteration = 0; iteration <= max_iterations; ++iteration) {
        bool changed = false;
        cost = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            const auto [best, nearest] = nearest_center(&X(i, 0), C);
            changed = changed || labels[i] != best;
            labels[i] = best, distance[i] = nearest, cost += nearest;
        }
        if (!changed || iteration == max_iterations) break;
        C.fill(0.0);
        std::vector<std::size_t> size(K, 0);
        for (std::size_t i = 0; i < n; ++i) {
            const auto k = static_cast<std::size_t>(labels[i]);
            ++size[k];
            for (std::size_t j = 0; j < d; ++j) C(k, j) += X(i, j);
        }
        for (std::size_t k = 0; k < K; ++k) {
            if (size[k] == 0) {  // an emptied cluster restarts at the worst-served point
                const auto far = static_cast<std::size_t>(std::max_element(distance.begin(), distance.end()) - distance.begin());
                std::copy(&X(far, 0), &X(far, 0) + d, &C(k, 0));
                distance[far] = 0.0;
                continue;
            }
            for (std::size_t j = 0; j < d; ++j) C(k, j) /= static_cast<double>(size[k]);
        }
    }
    return cost;
}

}  // namespace

std::vector<int64_t> nearest_centers(const Matrix& Y, const Matrix& C)
{
    std::vector<int64_t> labels(Y.shape()[0]);
    for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = nearest_center(&Y(i, 0), C).first;
    return labels;
}

namespace {
// The means of the rows of each label some row has: add(i, means_row) adds row i into its cluster's row.
ClusterMeans means_of(std::size_t n, std::size_t d, const std::vector<int64_t>& labels,
                      const std::function<void(std::size_t, double*)>& add)
{
    require(labels.size() == n, FACTO_ERROR_DIMENSION,
            std::to_string(labels.size()) + " labels for " + std::to_string(n) + " points");
    int64_t clusters = 0;
    for (int64_t l : labels) {
        require(l >= 0, FACTO_ERROR_INVALID_ARGUMENT, "labels must be >= 0, got " + std::to_string(l));
        clusters = std::max(clusters, l + 1);
    }
    std::vector<double> count(static_cast<std::size_t>(clusters), 0.0);
    for (int64_t l : labels) count[static_cast<std::size_t>(l)] += 1.0;
    ClusterMeans out;
    std::vector<int64_t> row_of(count.size(), -1);
    for (std::size_t c = 0; c < count.size(); ++c)
        if (count[c] > 0.0) row_of[c] = static_cast<int64_t>(out.labels.size()), out.labels.push_back(static_cast<int64_t>(c));
    out.means = Matrix({out.labels.size(), d}, 0.0);
    for (std::size_t i = 0; i < n; ++i) add(i, &out.means(static_cast<std::size_t>(row_of[static_cast<std::size_t>(labels[i])]), 0));
    for (std::size_t c = 0; c < out.labels.size(); ++c)
        for (std::size_t k = 0; k < d; ++k) out.means(c, k) /= count[static_cast<std::size_t>(out.labels[c])];
    return out;
}
}  // namespace

ClusterMeans cluster_means(const Matrix& X, const std::vector<int64_t>& labels)
{
    const std::size_t d = X.shape()[1];
    return means_of(X.shape()[0], d, labels, [&](std::size_t i, double* mean) {
        for (std::size_t k = 0; k < d; ++k) mean[k] += X(i, k);
    });
}

ClusterMeans cluster_means(const CsrMatrix& X, const std::vector<int64_t>& labels)
{
    return means_of(static_cast<std::size_t>(X.rows), static_cast<std::size_t>(X.cols), labels, [&](std::size_t i, double* mean) {
        for (int64_t p = X.indptr[i]; p < X.indptr[i + 1]; ++p)
            mean[static_cast<std::size_t>(X.indices[static_cast<std::size_t>(p)])] += X.values[static_cast<std::size_t>(p)];
    });
}

std::vector<int64_t> kmeans(const Matrix& X, int64_t K, int replicates, uint64_t seed, int max_iterations)
{
    const auto n = static_cast<int64_t>(X.shape()[0]);
    require(X.shape()[1] >= 1, FACTO_ERROR_DIMENSION, "kmeans: the points need at least one coordinate");
    require(K >= 1 && K <= n, FACTO_ERROR_DIMENSION,
            "kmeans: K = " + std::to_string(K) + " must be in [1, " + std::to_string(n) + "]");
    require(replicates >= 1 && max_iterations >= 1, FACTO_ERROR_OUT_OF_RANGE,
            "kmeans: replicates and max_iterations must be at least 1");
    require_finite(X, "X");
    Rng rng(seed);
    std::vector<int64_t> best, labels;
    double best_cost = std::numeric_limits<double>::infinity();
    for (int r = 0; r < replicates; ++r) {
        Matrix C = seed_centers(X, static_cast<std::size_t>(K), rng);
        labels.assign(static_cast<std::size_t>(n), -1);
        const double cost = lloyd(X, C, labels, max_iterations);
        if (cost < best_cost) best_cost = cost, best = labels;
    }
    return best;
}

std::vector<int64_t> kernel_kmeans(const GramOperator& D, int64_t K, uint64_t seed, int max_iterations,
                                   std::size_t threads)
{
    return kernel_kmeans(all_rows(D, threads), K, seed, max_iterations);
}

namespace {

// k-means++'s next center: the global index drawn with probability proportional to nearest[i] over
// every process's rows (`mine` the sum of this process's; `draw`'s walk, process by process).
std::size_t draw_over(const GramRows& D, const std::vector<double>& nearest, double mine, Rng& rng)
{
    if (!D.collectives) return draw(nearest, mine, rng);
    const Collectives& c = *D.collectives;
    std::vector<double> totals(static_cast<std::size_t>(c.size()));
    c.allgather(&mine, totals.data(), std::vector<int64_t>(totals.size(), 1));
    double total = 0.0;
    for (double t : totals) total += t;
    double target = rng.uniform() * total;
    int64_t owner = c.size() - 1;  // the last process when the walk runs out (draw's last index)
    for (std::size_t p = 0; p < totals.size() && total > 0.0; ++p) {
        if (target - totals[p] < 0.0) {
            owner = static_cast<int64_t>(p);
            break;
        }
        target -= totals[p];
    }
    int64_t pick = -1;
    if (owner == c.rank()) {
        pick = static_cast<int64_t>(D.first + D.rows) - 1;
        for (std::size_t i = 0; i < D.rows && total > 0.0; ++i)
            if ((target -= nearest[i]) < 0.0) {
                pick = static_cast<int64_t>(D.first + i);
                break;
            }
    }
    pick = c.max(pick);
    return pick >= 0 ? static_cast<std::size_t>(pick) : D.n - 1;  // an empty last process: the last row
}

// The worst-served point among those whose cluster keeps another (size > 1), the first such on ties,
// with its label: over every process's rows. Returns {global index or n if none, label}.
std::pair<std::size_t, int64_t> worst_served(const GramRows& D, const std::vector<double>& nearest,
                                             const std::vector<int64_t>& labels, const std::vector<double>& size)
{
    std::size_t far = D.rows;
    for (std::size_t i = 0; i < D.rows; ++i)
        if (size[static_cast<std::size_t>(labels[i])] > 1.0 && (far == D.rows || nearest[i] > nearest[far])) far = i;
    if (!D.collectives) return {far, far < D.rows ? labels[far] : -1};
    const Collectives& c = *D.collectives;
    const std::size_t P = static_cast<std::size_t>(c.size());
    const double mine[3] = {far < D.rows ? 1.0 : 0.0, far < D.rows ? nearest[far] : 0.0,
                            far < D.rows ? static_cast<double>(labels[far]) : -1.0};
    std::vector<double> all(3 * P);
    c.allgather(mine, all.data(), std::vector<int64_t>(P, 3));
    std::size_t best = P;  // the first process holding the largest (its point has the lowest index)
    for (std::size_t p = 0; p < P; ++p)
        if (all[3 * p] == 1.0 && (best == P || all[3 * p + 1] > all[3 * best + 1])) best = p;
    if (best == P) return {D.n, -1};
    const bool here = best == static_cast<std::size_t>(c.rank());
    int64_t index = here ? static_cast<int64_t>(D.first + far) : -1;
    index = c.max(index);
    return {static_cast<std::size_t>(index), static_cast<int64_t>(all[3 * best + 2])};
}

}  // namespace

std::vector<int64_t> kernel_kmeans(const GramRows& D, int64_t K, uint64_t seed, int max_iterations)
{
    const std::size_t n = D.n, rows = D.rows, k_count = static_cast<std::size_t>(K);
    require(K >= 1 && static_cast<std::size_t>(K) <= n, FACTO_ERROR_DIMENSION,
            "kernel_kmeans: K = " + std::to_string(K) + " must be in [1, " + std::to_string(n) + "]");
    require(max_iterations >= 1, FACTO_ERROR_OUT_OF_RANGE, "kernel_kmeans: max_iterations must be at least 1");
    const std::vector<double>& diagonal = D.diagonal;
    Rng rng(seed);
    // k-means++ with ||f_i - f_j||^2 = D_ii - 2 D_ij + D_jj, column j of D by one product
    std::vector<double> nearest(rows, std::numeric_limits<double>::infinity()), column(rows);
    std::vector<int64_t> labels(rows, 0);
    std::size_t pick = static_cast<std::size_t>(rng.uniform() * static_cast<double>(n));
    for (std::size_t k = 0; k < k_count; ++k) {
        D.column(pick, column.data());
        double picked = pick >= D.first && pick < D.first + rows ? diagonal[pick - D.first] : 0.0;  // D_pick,pick
        sum_over(D.collectives, &picked, 1);
        double total = 0.0;
        for (std::size_t i = 0; i < rows; ++i) {
            const double distance = D.first + i == pick ? 0.0 : std::max(diagonal[i] - 2.0 * column[i] + picked, 0.0);
            if (distance < nearest[i]) nearest[i] = distance, labels[i] = static_cast<int64_t>(k);
            total += nearest[i];
        }
        pick = draw_over(D, nearest, total, rng);
    }
    // Lloyd: the distance to the mean of cluster k is D_ii - 2 (D z_k)_i / n_k + z_k^T D z_k / n_k^2
    Matrix Z({rows, k_count}), C({k_count, rows});
    std::vector<double> size(k_count), within(k_count);
    for (int iteration = 0; iteration < max_iterations; ++iteration) {
        Z.fill(0.0);
        std::fill(size.begin(), size.end(), 0.0);
        for (std::size_t i = 0; i < rows; ++i) Z(i, static_cast<std::size_t>(labels[i])) = 1.0, ++size[static_cast<std::size_t>(labels[i])];
        sum_over(D.collectives, size.data(), k_count);
        D.left_multiply(Z.data(), k_count, C.data());  // row k: (D z_k)^T
        std::fill(within.begin(), within.end(), 0.0);
        for (std::size_t i = 0; i < rows; ++i) within[static_cast<std::size_t>(labels[i])] += C(static_cast<std::size_t>(labels[i]), i);
        sum_over(D.collectives, within.data(), k_count);
        bool changed = false;
        for (std::size_t i = 0; i < rows; ++i) {
            int64_t best = labels[i];
            nearest[i] = std::numeric_limits<double>::infinity();
            for (std::size_t k = 0; k < k_count; ++k) {
                if (size[k] == 0.0) continue;
                const double distance = diagonal[i] - 2.0 * C(k, i) / size[k] + within[k] / (size[k] * size[k]);
                if (distance < nearest[i]) nearest[i] = distance, best = static_cast<int64_t>(k);
            }
            changed = changed || best != labels[i];
            labels[i] = best;
        }
        // an emptied cluster takes the worst-served point of a cluster that keeps one (each point once)
        std::fill(size.begin(), size.end(), 0.0);
        for (int64_t l : labels) ++size[static_cast<std::size_t>(l)];
        sum_over(D.collectives, size.data(), k_count);
        for (std::size_t k = 0; k < k_count; ++k)
            if (size[k] == 0.0) {
                const auto [far, label] = worst_served(D, nearest, labels, size);
                --size[static_cast<std::size_t>(label)];
                size[k] = 1.0, changed = true;
                if (far >= D.first && far < D.first + rows) {
                    labels[far - D.first] = static_cast<int64_t>(k);
                    nearest[far - D.first] = -std::numeric_limits<double>::infinity();
                }
            }
        changed = any_over(D.collectives, changed);
        if (!changed) break;
    }
    return labels;
}

}  // namespace facto
