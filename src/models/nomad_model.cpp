// The model of NOMAD's clustering ([TSC]): new points labelled by the nearest cluster mean, the assignment
// step of the K-means its SDP relaxes, and embedded by the Nystrom extension of Q.
//
// Nearest mean through D alone: in the space whose inner products are D, ||phi(x) - mu_c||^2 =
// D(x, x) - 2 mean_{i in c} D(x, i) + mean_{i, j in c} D_ij, and the first term is the same for every c;
// so a new point's row of D (its inner products with the fitted points) and each cluster's `within`
// (the last term) decide. On features the means themselves are kept (use_points).
//
// Embedding: with Q = U L U^T and the fitted embedding Y = U L^{1/2}, the Nystrom extension of a new
// point whose row of Q is q is y = L^{-1/2} U^T q. Taking q as the mean of Q's rows over the point's
// cluster (the row K-means' Q = sum_c 1_c 1_c^T / n_c gives it) makes y the mean of the fitted embedding
// over that cluster.
#include <algorithm>
#include <string>

#include <xtensor/xview.hpp>

#include "base/error.hpp"
#include "metrics/metrics.hpp"
#include "linalg/parallel.hpp"
#include "models/model.hpp"
#include "problems/nomad.hpp"

namespace facto::models {

// Each cluster's mean of D over its block, mean_{i, j in c} D_ij, in the order of cluster_means' labels.
Matrix within_means(const GramOperator& D, const std::vector<int64_t>& labels, const std::vector<int64_t>& clusters,
                    std::size_t threads)
{
    const std::size_t n = labels.size(), c = clusters.size();
    std::vector<double> size(c, 0.0);
    std::vector<std::size_t> row(n);
    for (std::size_t i = 0; i < n; ++i) {
        row[i] = static_cast<std::size_t>(std::lower_bound(clusters.begin(), clusters.end(), labels[i]) - clusters.begin());
        size[row[i]] += 1.0;
    }
    Matrix Z({n, c}, 0.0);  // Z_ic = 1 / n_c on cluster c
    for (std::size_t i = 0; i < n; ++i) Z(i, row[i]) = 1.0 / size[row[i]];
    Matrix C = Matrix::from_shape({c, n});  // Z^T D
    D.left_multiply(Z.data(), c, C.data(), threads);
    Matrix within({c, 1}, 0.0);
    for (std::size_t i = 0; i < n; ++i) within(row[i], 0) += C(row[i], i) / size[row[i]];
    return within;
}

namespace {
void capture_nomad(const Solver& solver, Model& model)
{
    const auto* problem = dynamic_cast<const Nomad*>(&solver.problem());
    require(problem != nullptr, FACTO_ERROR_UNSUPPORTED,
            "a model of a NOMAD layer: apply the first layer's model, then the layers' labels of its labels");
    model.arrays["labels"] = matrix_of(solver.output("labels"));
    model.arrays["embedding"] = matrix_of(solver.output("embedding"));
    const std::vector<int64_t> labels = integers(model.arrays["labels"], "the solver's labels");
    const ClusterMeans clusters = cluster_means(model.arrays["embedding"], labels);
    model.arrays["center_labels"] = column_of(clusters.labels);
    model.arrays["within"] = within_means(problem->D(), labels, clusters.labels, resolve_threads(0));
}

// labels: integers in [0, n - 1] of the n fitted points (an embedding row each; the fit's components, or
// a caller's k-means labels, are fewer than its points, and cluster_means sizes its tables by the largest),
// whose distinct values, increasing, are center_labels; then each cluster's within (new rows of D) or
// center (new points), exactly one.
void check_nomad(const Model& model)
{
    const Matrix& fitted = require_array(model, "labels", -1, 1);
    const auto n = static_cast<int64_t>(fitted.shape()[0]);
    require_array(model, "embedding", n, -1);
    std::vector<int64_t> clusters = integers(fitted, "the nomad model's 'labels'");
    const auto [low, high] = std::minmax_element(clusters.begin(), clusters.end());
    require(*low >= 0 && *high < n, FACTO_ERROR_BAD_STATE,
            "the nomad model's 'labels' hold " + std::to_string(*low < 0 ? *low : *high) +
                ": the labels of its n = " + std::to_string(n) + " fitted points are in [0, n - 1]");
    std::sort(clusters.begin(), clusters.end());
    clusters.erase(std::unique(clusters.begin(), clusters.end()), clusters.end());
    const auto c = static_cast<int64_t>(clusters.size());
    require(integers(require_array(model, "center_labels", c, 1), "the nomad model's 'center_labels'") == clusters,
            FACTO_ERROR_BAD_STATE, "the nomad model's 'center_labels' are not the clusters of its labels");
    require(model.has("within") != model.has("centers"), FACTO_ERROR_BAD_STATE,
            std::string("the nomad model has ") +
                (model.has("within") ? "both 'within' and 'centers'" : "neither 'within' nor 'centers'") +
                ": it has one, 'within' to take new rows of D or 'centers' to take new points");
    if (model.has("within"))
        require_array(model, "within", c, 1);
    else
        require_array(model, "centers", c, -1);
}

Applied apply_nomad(const Model& model, const NewData& Y, std::size_t)
{
    const std::vector<int64_t> labels = integers(model.array("labels"), "the nomad model's 'labels'");
    const ClusterMeans embedding = cluster_means(model.array("embedding"), labels);
    const auto c = static_cast<int64_t>(embedding.labels.size());
    const auto n = static_cast<int64_t>(labels.size());
    std::vector<int64_t> nearest;  // row of each new point's cluster in embedding.labels' order
    std::vector<double> distance;   // to its cluster's mean (in D's space, up to the point's D(x, x))
    if (model.has("centers")) {
        const Matrix& centers = model.array("centers");
        require_columns(Y, static_cast<int64_t>(centers.shape()[1]), "model's points have as many features");
        const Matrix& points = Y.dense();
        nearest = nearest_centers(points, centers);
        for (std::size_t l = 0; l < nearest.size(); ++l)
            distance.push_back(xt::sum(xt::square(xt::row(points, l) - xt::row(centers, static_cast<std::size_t>(nearest[l]))))());
    } else {
        const Matrix& within = model.array("within");
        require_columns(Y, n, "model's new rows of D are inner products with its " + std::to_string(n) + " fitted points");
        const Matrix& rows = Y.dense();
        std::vector<double> size(static_cast<std::size_t>(c), 0.0);
        std::vector<std::size_t> row_of(labels.size());
        for (std::size_t i = 0; i < labels.size(); ++i) {
            row_of[i] = static_cast<std::size_t>(
                std::lower_bound(embedding.labels.begin(), embedding.labels.end(), labels[i]) - embedding.labels.begin());
            size[row_of[i]] += 1.0;
        }
        std::vector<double> score(static_cast<std::size_t>(c));
        for (std::size_t l = 0; l < rows.shape()[0]; ++l) {
            for (std::size_t a = 0; a < score.size(); ++a) score[a] = within(a, 0);
            for (std::size_t i = 0; i < labels.size(); ++i) score[row_of[i]] -= 2.0 * rows(l, i) / size[row_of[i]];
            const auto best = std::min_element(score.begin(), score.end());
            nearest.push_back(static_cast<int64_t>(best - score.begin()));
            distance.push_back(*best);
        }
    }
    Applied out;
    out.residuals = std::move(distance);
    out.rows = Matrix::from_shape({nearest.size(), embedding.means.shape()[1]});
    for (std::size_t l = 0; l < nearest.size(); ++l) {
        const auto a = static_cast<std::size_t>(nearest[l]);
        xt::row(out.rows, static_cast<std::ptrdiff_t>(l)) = xt::row(embedding.means, static_cast<std::ptrdiff_t>(a));
        out.labels.push_back(embedding.labels[a]);
    }
    return out;
}
}  // namespace

const KindRule& nomad_model()
{
    static const KindRule rule{"nomad",
                               {{"labels", "the fitted points' clusters (n x 1)"},
                                {"embedding", "the fitted points' embedding (n x e)"},
                                {"within", "each cluster's mean of D over its block, for new rows of D (c x 1)"},
                                {"centers", "each cluster's mean of the fitted points, for new points (c x d)"},
                                {"center_labels", "the clusters' labels, in the order of within or centers (c x 1)"}},
                               "new rows of D (q x n) with 'within', new points (q x d, dense or sparse) with 'centers'", false, capture_nomad, check_nomad, apply_nomad, "embedding", 1};
    return rule;
}

}  // namespace facto::models

namespace facto {

void use_gram(Model& model, Matrix D)
{
    require(model.kind == models::nomad_model().kind, FACTO_ERROR_INVALID_ARGUMENT, "a Gram matrix is for nomad models, not " + model.kind);
    const std::vector<int64_t> labels = models::integers(models::require_array(model, "labels", -1, 1), "the model's labels");
    require(D.shape()[0] == labels.size() && D.shape()[1] == labels.size(), FACTO_ERROR_DIMENSION,
            "D is " + std::to_string(D.shape()[0]) + " x " + std::to_string(D.shape()[1]) + ", the model's labels " +
                std::to_string(labels.size()));
    require_finite(D, "D");
    require_symmetric(D, "D");
    const ClusterMeans clusters = cluster_means(models::require_array(model, "embedding", static_cast<int64_t>(labels.size()), -1), labels);
    model.arrays["center_labels"] = models::column_of(clusters.labels);
    model.arrays["within"] =
        models::within_means(GramOperator(PackedSymmetric::from_upper(D)), labels, clusters.labels, resolve_threads(0));
    model.arrays.erase("centers");
}

namespace {
// The points' rule from their cluster means (X dense or sparse, one row a fitted point).
template <class Points>
void keep_means(Model& model, const Points& X, std::size_t rows)
{
    require(model.kind == models::nomad_model().kind, FACTO_ERROR_INVALID_ARGUMENT, "points are for nomad models, not " + model.kind);
    const std::vector<int64_t> labels = models::integers(models::require_array(model, "labels", -1, 1), "the model's labels");
    require(rows == labels.size(), FACTO_ERROR_DIMENSION,
            "the points are " + std::to_string(rows) + ", the model's labels " + std::to_string(labels.size()));
    const ClusterMeans means = cluster_means(X, labels);
    model.arrays["centers"] = means.means;
    model.arrays["center_labels"] = models::column_of(means.labels);
    model.arrays.erase("within");
}
}  // namespace

void use_points(Model& model, const Matrix& X)
{
    require_finite(X, "X");
    keep_means(model, X, X.shape()[0]);
}

void use_points(Model& model, const CsrMatrix& X) { keep_means(model, X, static_cast<std::size_t>(X.rows)); }

}  // namespace facto
