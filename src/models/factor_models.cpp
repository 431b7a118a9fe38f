// The models of the factorizations whose rows are points: simplicial SymNMF ([ZG]) and SymNMF ([DAB]) by
// least squares of new affinity rows on the fitted factor, EDM completion ([DAB] Sec. 4.2) by the fit's
// objective in one more row; and the feature rules that rebuild new affinities as the fit's were built.
#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>

#include <xtensor/xmath.hpp>
#include <xtensor/xview.hpp>

#include "base/error.hpp"
#include "models/model.hpp"
#include "problems/edm_completion.hpp"
#include "problems/simplicial_symnmf.hpp"
#include "problems/symnmf.hpp"
#include "sets/row_simplices.hpp"

namespace facto::models {

namespace {
// How far a simplicial W's row sums may be from 1: a fit's rows sum to 1 up to rounding.
constexpr double kSimplexTolerance = 1e-6;

// The first of a rule's arrays the model has (nullptr for none) and the first of those the rule always
// holds that it has not.
std::pair<const char*, const char*> rule_held(const Model& model, const std::vector<ArrayInfo>& rule)
{
    const char *held = nullptr, *missing = nullptr;
    for (const ArrayInfo& a : rule) {
        if (model.has(a.name) && !held) held = a.name;
        if (!a.optional && !model.has(a.name) && !missing) missing = a.name;
    }
    return {held, missing};
}

// The kNN rule's sparse features (knn_csr_*, scipy's CSR fields) for n fitted points, checked as any
// sparse input is (indptr from 0 to nnz, never decreasing; column indices in [0, p); finite values);
// Error(BAD_STATE) naming what breaks.
CsrMatrix knn_csr_features(const Model& model, int64_t n)
{
    require_array(model, kKnnCsrShape, 1, 2);
    require_integer(model, kKnnCsrShape, 0, "the number of points", n, n);
    require_integer(model, kKnnCsrShape, 1, "the number of features", 1, kHeldIntegers - 1);
    // the exact search indexes the fitted rows by column: p + 1 offsets (OUT_OF_MEMORY for a p that cannot be)
    require_memory(8.0 * (model.array(kKnnCsrShape)(0, 1) + 1.0), "the sparse kNN features' index of their columns");
    const Matrix& data = require_array(model, "knn_csr_data", -1, 1);
    const std::vector<int64_t> indptr = integers(require_array(model, "knn_csr_indptr", n + 1, 1), "'knn_csr_indptr'");
    const std::vector<int64_t> indices =
        integers(require_array(model, "knn_csr_indices", static_cast<int64_t>(data.shape()[0]), 1), "'knn_csr_indices'");
    // the offsets end at the entries held (csr_from_compressed reads as many as the last offset says)
    require(indptr.back() == static_cast<int64_t>(data.shape()[0]), FACTO_ERROR_BAD_STATE,
            "the " + model.kind + " model's 'knn_csr_indptr' ends at " + std::to_string(indptr.back()) + " where " +
                "'knn_csr_data' holds " + std::to_string(data.shape()[0]) + " entries");
    try {
        return csr_from_compressed(n, static_cast<int64_t>(model.array(kKnnCsrShape)(0, 1)), indptr.data(), indices.data(),
                                   data.data(), false);
    } catch (const Error& e) {
        throw Error(FACTO_ERROR_BAD_STATE, "the " + model.kind + " model's sparse kNN features ('knn_csr_*'): " + e.what());
    }
}

// The feature rule's contract on n fitted points: one rule whole (or none), its arrays' shapes, its
// settings' codes and counts (the kNN graph's k and scale neighbour in [1, n - 1], as knn_graph takes
// them), and scales and degrees >= 0 (the kernel's denominators).
void check_feature_rule(const Model& model, int64_t n)
{
    const auto [gaussian, gaussian_missing] = rule_held(model, gaussian_rule_arrays());
    const auto [knn, knn_missing] = rule_held(model, knn_rule_arrays());
    require(!gaussian || !knn, FACTO_ERROR_BAD_STATE,
            "the " + model.kind + " model has arrays of both feature rules ('" + (gaussian ? gaussian : "") + "' and '" +
                (knn ? knn : "") + "'): a model applies one");
    for (const auto& [held, missing, what] :
         {std::make_tuple(gaussian, gaussian_missing, "Gaussian"), std::make_tuple(knn, knn_missing, "kNN")})
        require(!held || !missing, FACTO_ERROR_BAD_STATE,
                "the " + model.kind + " model has '" + (held ? held : "") + "' but not '" + (missing ? missing : "") +
                    "': the " + what + " feature rule needs all of its arrays");
    if (gaussian) {
        const auto p = static_cast<int64_t>(require_array(model, "rbf_features", n, -1).shape()[1]);
        require_array(model, "rbf_scaling", 2, p);
        const Matrix& settings = require_array(model, "rbf_settings", 1, 2);
        require(settings(0, 0) > 0.0, FACTO_ERROR_BAD_STATE,
                "the " + model.kind + " model's 'rbf_settings' holds the bandwidth " + value_text(settings(0, 0)) +
                    ": it must be > 0");
        require_integer(model, "rbf_settings", 1, "the scaling", 0, 2);
    }
    if (knn) {
        require(n >= 2, FACTO_ERROR_BAD_STATE,
                "the " + model.kind + " model's kNN rule needs at least 2 fitted points, it has 1");
        const bool sparse = model.has(kKnnCsrShape);
        for (const char* name : {"knn_csr_indptr", "knn_csr_indices", "knn_csr_data"})
            require(sparse || !model.has(name), FACTO_ERROR_BAD_STATE,
                    "the " + model.kind + " model has '" + name + "' but not '" + kKnnCsrShape + "'");
        require(sparse != model.has("knn_features"), FACTO_ERROR_BAD_STATE,
                "the " + model.kind + " model's kNN rule holds its features " +
                    (sparse ? "both densely ('knn_features') and sparse ('knn_csr_*')" : "neither densely ('knn_features') nor sparse ('knn_csr_*')") +
                    ": it needs one form");
        const int64_t p = sparse ? knn_csr_features(model, n).cols
                                 : static_cast<int64_t>(require_array(model, "knn_features", n, -1).shape()[1]);
        const Matrix& settings = require_array(model, "knn_settings", 1, -1);
        const std::size_t values = settings.shape()[1];
        require(values >= 3 && values <= 5, FACTO_ERROR_BAD_STATE,
                "the " + model.kind + " model's 'knn_settings' has " + std::to_string(values) +
                    " values: k, the similarity, the scale neighbour and (since 0.4.0) the scaling and the search");
        require_integer(model, "knn_settings", 0, "k", 1, n - 1);
        require_integer(model, "knn_settings", 1, "the similarity", 0, 1);
        require_integer(model, "knn_settings", 2, "the scale neighbour", 1, n - 1);
        if (values >= 4) require_integer(model, "knn_settings", 3, "the scaling", 0, 2);
        if (values == 5) require_integer(model, "knn_settings", 4, "the neighbour search", 0, 1);
        const bool scaled = values >= 4 && settings(0, 3) != 0.0;
        require(scaled == model.has(kKnnScaling), FACTO_ERROR_BAD_STATE,
                "the " + model.kind + " model's kNN rule " + (scaled ? "scales its features but has no '" : "has '") +
                    kKnnScaling + (scaled ? "'" : "' but no scaling in 'knn_settings'"));
        if (scaled) require_array(model, kKnnScaling, 2, p);
        // sparse rows are neither scaled (that fills their zeros) nor searched approximately (knn_graph's rule)
        require(!sparse || (!scaled && (values < 5 || settings(0, 4) == 0.0)), FACTO_ERROR_BAD_STATE,
                "the " + model.kind + " model's kNN rule on sparse features has a scaling or an HNSW search in "
                "'knn_settings': sparse rows are searched exactly, unscaled");
        for (const char* name : {"knn_scale", "knn_degree"}) {
            require_array(model, name, n, 1);
            require_nonnegative(model, name);
        }
    }
}

// The new points' affinity rows to the fitted ones when a feature rule is set (features in, q x n out,
// dense for the Gaussian kernel, sparse for the kNN graph), else nothing.
struct Affinities {
    Matrix dense;
    CsrMatrix sparse;
    bool made = false, is_sparse = false;
};

Affinities affinities_from_features(const Model& model, const NewData& Y)
{
    Affinities out;
    if (model.has("rbf_features")) {
        const Matrix& X = model.array("rbf_features");
        const Matrix& shift = model.array("rbf_scaling");
        const Matrix& settings = model.array("rbf_settings");
        require_columns(Y, static_cast<int64_t>(X.shape()[1]), "model's affinity is built from the features it was fitted on");
        ColumnScaling s{static_cast<Scaling>(static_cast<int32_t>(settings(0, 1))), xt::row(shift, 0), xt::row(shift, 1)};
        Matrix points = Y.dense();
        scale_columns(points, s);
        out.dense = gaussian_cross_affinity(points, X, settings(0, 0));
        out.made = true;
    } else if (model.has("knn_settings")) {
        const Matrix& settings = model.array("knn_settings");
        KnnGraph graph;
        graph.kind = static_cast<Similarity>(static_cast<int32_t>(settings(0, 1)));
        graph.k = static_cast<int64_t>(settings(0, 0)), graph.scale_neighbor = static_cast<int64_t>(settings(0, 2));
        // a model saved before the search was kept (3 or 4 settings) searched exactly
        graph.search = settings.shape()[1] == 5 ? static_cast<NeighborSearch>(static_cast<int32_t>(settings(0, 4)))
                                                : NeighborSearch::Exact;
        const Matrix &scale = model.array("knn_scale"), &degree = model.array("knn_degree");
        graph.scale.assign(scale.begin(), scale.end());
        graph.degree.assign(degree.begin(), degree.end());
        const std::string what = "model's kNN graph is built from the features it was fitted on";
        if (model.has(kKnnCsrShape)) {  // sparse fitted rows: the new ones as their non-zeros
            const CsrMatrix X = knn_csr_features(model, static_cast<int64_t>(graph.degree.size()));
            require_columns(Y, X.cols, what);
            out.sparse = knn_cross_similarity(Y.is_sparse() ? Y.sparse() : csr_from_dense(rows_of(Y.dense())), X, graph);
        } else {
            const Matrix& X = model.array("knn_features");
            require_columns(Y, static_cast<int64_t>(X.shape()[1]), what);
            Matrix points = Y.dense();
            if (const auto scaling = model.arrays.find(kKnnScaling); scaling != model.arrays.end())
                scale_columns(points, ColumnScaling{static_cast<Scaling>(static_cast<int32_t>(settings(0, 3))),
                                                    xt::row(scaling->second, 0), xt::row(scaling->second, 1)});
            out.sparse = knn_cross_similarity(points, X, graph);
        }
        out.made = out.is_sparse = true;
    }
    return out;
}
}  // namespace

namespace {
// SymNMF's factor F (n x rank, W or H): >= 0, its rank at most its points (the problems' Gram matrix is
// rank x rank).
const Matrix& checked_factor(const Model& model, const char* name)
{
    const Matrix& F = require_array(model, name, -1, -1);
    require(F.shape()[1] <= F.shape()[0], FACTO_ERROR_BAD_STATE,
            "the " + model.kind + " model's '" + name + "' is " + std::to_string(F.shape()[0]) + " x " +
                std::to_string(F.shape()[1]) + ": its rank is at most its number of points, " + std::to_string(F.shape()[0]));
    require_nonnegative(model, name);
    return F;
}

// New points' rows by `solve` (SimplicialSymNMF's or SymNMF's apply) from their affinity rows, as given or
// as the feature rule made them from features; labelled by the largest entry, as the fit's "labels".
template <class Solve>
Applied apply_to_affinities(const Model& model, const char* name, const NewData& Y, std::size_t threads, Solve solve)
{
    const Matrix& F = model.array(name);
    const Affinities A = affinities_from_features(model, Y);
    if (!A.made)
        require_columns(Y, static_cast<int64_t>(F.shape()[0]),
                        "model's affinity rows are to its " + std::to_string(F.shape()[0]) + " fitted points");
    const NewData made_dense(A.dense), made_sparse(A.sparse);
    const NewData& rows = A.made ? (A.is_sparse ? made_sparse : made_dense) : Y;
    Applied out;
    out.rows = solve(F, rows);
    out.labels = row_argmax(out.rows);
    out.residuals = residuals(rows, F, out.rows, threads);
    return out;
}

// [ZG]'s W. A solver whose iterates may be infeasible (the penalty method ends within its
// feasibility_tolerance, and is anywhere before) gives the nearest feasible W, its rows projected onto the
// simplex; a feasible iterate is kept bit for bit.
void capture_simplicial(const Solver& solver, Model& model)
{
    Matrix W = solver.iterate();
    if (RowSimplices::first_row_off(W, kSimplexTolerance) < W.shape()[0]) RowSimplices::project(W);
    model.arrays["W"] = std::move(W);
}

// W on the row simplices (to 1e-6 per row: a fit's rows sum to 1 up to rounding).
void check_simplicial(const Model& model)
{
    const Matrix& W = checked_factor(model, "W");
    const std::size_t off = RowSimplices::first_row_off(W, kSimplexTolerance);
    require(off == W.shape()[0], FACTO_ERROR_BAD_STATE,
            "the simplicial_symnmf model's 'W' has row " + std::to_string(off) + " summing to " +
                value_text(off < W.shape()[0] ? xt::sum(xt::row(W, off))() : 1.0) + ": its rows must be on the simplex (sum 1)");
    check_feature_rule(model, static_cast<int64_t>(W.shape()[0]));
}

Applied apply_simplicial(const Model& model, const NewData& Y, std::size_t threads)
{
    return apply_to_affinities(model, "W", Y, threads, [&](const Matrix& W, const NewData& rows) {
        return SimplicialSymNMF::apply(W, rows.dense(), threads);  // on the simplex: dense affinity rows
    });
}

// [DAB]'s H, clipped at 0 (a feasible iterate is kept bit for bit).
void capture_symnmf(const Solver& solver, Model& model) { model.arrays["H"] = xt::maximum(solver.iterate(), 0.0); }

void check_symnmf(const Model& model)
{
    check_feature_rule(model, static_cast<int64_t>(checked_factor(model, "H").shape()[0]));
}

Applied apply_symnmf(const Model& model, const NewData& Y, std::size_t threads)
{
    return apply_to_affinities(model, "H", Y, threads, [](const Matrix& H, const NewData& rows) {
        return rows.is_sparse() ? SymNMF::apply(H, rows.sparse()) : SymNMF::apply(H, rows.dense());
    });
}

// The positions X, anything finite.
void capture_edm(const Solver& solver, Model& model) { model.arrays["X"] = solver.iterate(); }

void check_edm(const Model& model) { require_array(model, "X", -1, -1); }

// [DAB] Sec. 4.2's objective in one more row: the position fitting its observed squared distances, and
// the residual sum_j (||y - x_j||^2 - d_j)^2.
Applied apply_edm(const Model& model, const NewData& Y, std::size_t)
{
    const Matrix& X = model.array("X");
    const auto n = static_cast<int64_t>(X.shape()[0]);
    require_columns(Y, n, "model's new squared distances are to its " + std::to_string(n) + " points");
    const CsrMatrix& d = Y.sparse();
    Applied out;
    out.rows = EdmCompletion::apply(X, d);
    out.labels.assign(out.rows.shape()[0], -1);
    for (std::size_t l = 0; l < out.rows.shape()[0]; ++l) {
        double sum = 0.0;
        for (int64_t p = d.indptr[l]; p < d.indptr[l + 1]; ++p) {
            const auto j = static_cast<std::size_t>(d.indices[static_cast<std::size_t>(p)]);
            const double e = xt::sum(xt::square(xt::row(out.rows, l) - xt::row(X, j)))() - d.values[static_cast<std::size_t>(p)];
            sum += e * e;
        }
        out.residuals.push_back(sum);
    }
    return out;
}
}  // namespace

const std::vector<ArrayInfo>& gaussian_rule_arrays()
{
    static const std::vector<ArrayInfo> arrays = {
        {"rbf_features", "the fitted points' features (n x p, scaled): a copy of the training data", true},
        {"rbf_scaling", "the fitted columns' scaling (2 x p)"},
        {"rbf_settings", "the bandwidth and the scaling (1 x 2)"},
    };
    return arrays;
}

const std::vector<ArrayInfo>& knn_rule_arrays()
{
    static const std::vector<ArrayInfo> arrays = {
        {"knn_features", "the fitted points' features (n x p, scaled), when dense: a copy of the training data", true, true},
        {"knn_csr_indptr", "the sparse fitted points' row offsets ((n + 1) x 1)", false, true},
        {"knn_csr_indices", "the column of each stored feature (nnz x 1): a copy of the training data", true, true},
        {"knn_csr_data", "the value of each stored feature (nnz x 1): a copy of the training data", true, true},
        {kKnnCsrShape, "n and p, the sparse features' shape (1 x 2)", false, true},
        {"knn_settings", "k, the similarity, the scale neighbour, the scaling and the search (1 x 3 to 5)"},
        {"knn_scale", "each fitted point's self-tuned scale (n x 1)"},
        {"knn_degree", "each fitted point's degree in the graph (n x 1)"},
        {kKnnScaling, "the fitted columns' scaling (2 x p), when the rule scales them", false, true},
    };
    return arrays;
}

const KindRule& simplicial_symnmf_model()
{
    static const KindRule rule{"simplicial_symnmf",
                               {{"W", "the factor: a row on the simplex per fitted point (n x k)"}},
                               "affinities to the n fitted points (q x n)", true, capture_simplicial, check_simplicial, apply_simplicial, "W", 1};
    return rule;
}

const KindRule& symnmf_model()
{
    static const KindRule rule{"symnmf", {{"H", "the factor: a row per fitted point (n x r)"}},
                               "similarities to the n fitted points (q x n, dense or sparse)", true, capture_symnmf,
                               check_symnmf, apply_symnmf, "H", 1};
    return rule;
}

const KindRule& edm_completion_model()
{
    static const KindRule rule{"edm_completion", {{"X", "the positions: a row per point (n x r)"}},
                               "squared distances to the n points (q x n, sparse: the observed ones)", false, capture_edm,
                               check_edm, apply_edm, "X", 1};
    return rule;
}

}  // namespace facto::models

namespace facto {

namespace {
// The factor of a model the feature rules apply to (its kind's first array).
const Matrix& symnmf_factor(const Model& model, const char* rule)
{
    const models::KindRule& kind = models::kind_rule(model.kind);
    if (!kind.feature_rules) {
        std::string kinds;
        for (const std::string& k : models::feature_rule_kinds()) kinds += (kinds.empty() ? "" : " and ") + k;
        throw Error(FACTO_ERROR_INVALID_ARGUMENT, std::string("a ") + rule + " rule is for " + kinds + " models, not " + model.kind);
    }
    return models::require_array(model, kind.arrays.front().name, -1, -1);
}


// A scaling's statistics as the model keeps them: 2 x p, row 0 the first (low or mean), row 1 the second.
Matrix scaling_rows(const ColumnScaling& s)
{
    const std::size_t p = s.first.size();
    Matrix rows = Matrix::from_shape({2, p});
    for (std::size_t j = 0; j < p; ++j) {
        rows(0, j) = s.first(j);
        rows(1, j) = s.second(j);
    }
    return rows;
}

void require_fitted_points(const Matrix& factor, const Matrix& X)
{
    require(X.shape()[0] == factor.shape()[0], FACTO_ERROR_DIMENSION,
            "the features have " + std::to_string(X.shape()[0]) + " points, the model was fitted on " +
                std::to_string(factor.shape()[0]));
    require_finite(X, "X");
}
}  // namespace

void drop_feature_rule(Model& model)
{
    for (const auto* rule : {&models::gaussian_rule_arrays(), &models::knn_rule_arrays()})
        for (const models::ArrayInfo& a : *rule) model.arrays.erase(a.name);
}

void use_gaussian_affinity(Model& model, Matrix X, double bandwidth, Scaling scaling)
{
    require_fitted_points(symnmf_factor(model, "Gaussian affinity"), X);
    const ColumnScaling s = column_scaling(X, scaling);
    scale_columns(X, s);
    bandwidth = resolve_bandwidth(X, bandwidth);  // the median rule's value kept, as the fit's affinity used it
    Matrix shift = scaling_rows(s);
    drop_feature_rule(model);
    model.arrays["rbf_features"] = std::move(X);
    model.arrays["rbf_scaling"] = std::move(shift);
    model.arrays["rbf_settings"] = Matrix({{bandwidth, static_cast<double>(static_cast<int32_t>(scaling))}});
}

namespace {
// The kNN rule's arrays beside its features: the graph's settings (with the scaling's code), each fitted
// point's scale and degree; the previous rule's arrays removed first.
void keep_knn_graph(Model& model, const KnnGraph& graph, Scaling scaling)
{
    drop_feature_rule(model);
    model.arrays["knn_settings"] = Matrix({{static_cast<double>(graph.k), static_cast<double>(static_cast<int32_t>(graph.kind)),
                                            static_cast<double>(graph.scale_neighbor), static_cast<double>(static_cast<int32_t>(scaling)),
                                            static_cast<double>(static_cast<int32_t>(graph.search))}});
    const std::size_t n = graph.scale.size();
    Matrix scale = Matrix::from_shape({n, 1}), degree = Matrix::from_shape({n, 1});
    std::copy(graph.scale.begin(), graph.scale.end(), scale.begin());
    std::copy(graph.degree.begin(), graph.degree.end(), degree.begin());
    model.arrays["knn_scale"] = std::move(scale);
    model.arrays["knn_degree"] = std::move(degree);
}
}  // namespace

void use_knn_similarity(Model& model, Matrix X, int64_t k, Similarity kind, Scaling scaling, NeighborSearch search)
{
    require_fitted_points(symnmf_factor(model, "kNN similarity"), X);
    const ColumnScaling s = column_scaling(X, scaling);
    scale_columns(X, s);
    keep_knn_graph(model, knn_graph(X, k, kind, 7, search), scaling);
    if (scaling != Scaling::None) model.arrays[models::kKnnScaling] = scaling_rows(s);
    model.arrays["knn_features"] = std::move(X);
}

void use_knn_similarity(Model& model, const CsrMatrix& X, int64_t k, Similarity kind, NeighborSearch search)
{
    const Matrix& factor = symnmf_factor(model, "kNN similarity");
    require(X.rows == static_cast<int64_t>(factor.shape()[0]), FACTO_ERROR_DIMENSION,
            "the features have " + std::to_string(X.rows) + " points, the model was fitted on " +
                std::to_string(factor.shape()[0]));
    require(X.nnz() > 0, FACTO_ERROR_INVALID_ARGUMENT, "the features have no stored entry: every point is 0");
    keep_knn_graph(model, knn_graph(X, k, kind, 7, search), Scaling::None);  // knn_graph checks the values finite
    Matrix data = Matrix::from_shape({X.values.size(), 1});
    std::copy(X.values.begin(), X.values.end(), data.begin());
    model.arrays["knn_csr_indptr"] = models::column_of(X.indptr);
    model.arrays["knn_csr_indices"] = models::column_of(X.indices);
    model.arrays["knn_csr_data"] = std::move(data);
    model.arrays[models::kKnnCsrShape] = Matrix({{static_cast<double>(X.rows), static_cast<double>(X.cols)}});
}

}  // namespace facto
