// The models of self-dictionary separable NMF ([NFW]) and the two jobs built on it: new data points'
// simplex coefficients on the selected anchors; new documents' topic proportions from the fitted topics,
// weighted by the fitted TF-IDF; new nodes' memberships from their edges through the fitted eigenvectors
// and pure nodes.
#include <algorithm>
#include <cmath>
#include <string>

#include <xtensor/xview.hpp>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/simplex_least_squares.hpp"
#include "models/model.hpp"
#include "problems/community_model.hpp"
#include "problems/self_dictionary.hpp"
#include "problems/topic_model.hpp"
#include "sets/row_simplices.hpp"

namespace facto::models {

namespace {
std::vector<int64_t> selected_of(const Solver& solver)
{
    return solver.output("selected").ints;
}

// The argmax of each row, -1 for a row of zeros (a point the model knows nothing about).
std::vector<int64_t> labels_or_unknown(const Matrix& rows)
{
    std::vector<int64_t> labels = row_argmax(rows);
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (!(rows(i, static_cast<std::size_t>(labels[i])) > 0.0)) labels[i] = -1;
    return labels;
}

// Rows of new nodes that their eigenvector rows leave without a membership (their edges reach only nodes
// outside the K eigenvectors' support) from their neighbours: the edge-weighted mean of the fitted nodes'
// memberships, clipped at 0, then as the fit's rows (below 1e-12 to 0, scaled to sum 1); a node without an
// edge to a fitted one stays empty.
void through_neighbours(const NewData& Y, const Matrix& fitted, const std::vector<bool>& empty, Matrix& rows,
                        std::size_t threads)
{
    if (std::none_of(empty.begin(), empty.end(), [](bool e) { return e; })) return;
    Matrix mean = Matrix::from_shape({static_cast<std::size_t>(Y.rows()), fitted.shape()[1]});
    if (Y.is_sparse())
        spmm(Y.sparse(), fitted, mean, threads);
    else
        blas::gemm(false, false, 1.0, Y.dense(), fitted, 0.0, mean);
    for (std::size_t l = 0; l < empty.size(); ++l)
        if (empty[l]) xt::row(rows, static_cast<std::ptrdiff_t>(l)) = xt::maximum(xt::row(mean, static_cast<std::ptrdiff_t>(l)), 0.0);
    CommunityModel::normalize_memberships(rows);
}

// How the topics model weighs counts: its "weighting" (since 0.4.0; 1 when the fit was refined), else
// [NFW]'s.
TermWeighting weighting_of(const Model& model)
{
    return model.has("weighting") && model.array("weighting")(0, 0) == 1.0 ? TermWeighting::UnitRows
                                                                            : TermWeighting::Sublinear;
}

// The topic-word matrix of the fitted topics and the IDF of the fitted counts over the vocabulary (0 on
// pruned terms), as tf_idf weighed them, and the weighting.
void capture_topics(const Solver& solver, Model& model)
{
    const auto& problem = dynamic_cast<const TopicModel&>(solver.problem());
    Matrix idf({1, static_cast<std::size_t>(problem.vocabulary())}, 0.0);
    for (std::size_t j = 0; j < problem.terms().size(); ++j)
        idf(0, static_cast<std::size_t>(problem.terms()[j])) = problem.tfidf().idf[j];
    model.arrays["topics"] = matrix_of(solver.output("topics"));
    model.arrays["idf"] = std::move(idf);
    model.arrays["weighting"] = Matrix({1, 1}, static_cast<double>(problem.weighting()));
}

// topics and idf >= 0 (NNLS topics, logarithms of D / df >= 1) over one vocabulary with at least K kept
// terms.
void check_topics(const Model& model)
{
    const Matrix& topics = require_array(model, "topics", -1, -1);
    const Matrix& idf = require_array(model, "idf", 1, static_cast<int64_t>(topics.shape()[1]));
    require_nonnegative(model, "topics");
    require_nonnegative(model, "idf");
    if (model.has("weighting")) {
        const double w = require_array(model, "weighting", 1, 1)(0, 0);
        require(w == 0.0 || w == 1.0, FACTO_ERROR_BAD_STATE,
                "the topics model's 'weighting' is " + value_text(w) + ": 0 ([NFW]'s TF-IDF) or 1 (unit rows)");
    }
    // the K anchors are kept terms (idf > 0), so there are at least K
    const auto kept = static_cast<std::size_t>(std::count_if(idf.begin(), idf.end(), [](double v) { return v > 0.0; }));
    require(kept >= topics.shape()[0], FACTO_ERROR_BAD_STATE,
            "the topics model's 'idf' keeps " + std::to_string(kept) + " terms (idf > 0) for its " +
                std::to_string(topics.shape()[0]) + " topics: each topic's anchor is a kept term");
}

Applied apply_topics(const Model& model, const NewData& Y, std::size_t threads)
{
    const Matrix &topics = model.array("topics"), &idf = model.array("idf");
    const auto V = static_cast<int64_t>(topics.shape()[1]);
    require_columns(Y, V, "model's vocabulary has " + std::to_string(V) + " terms");
    // the fitted topic-word matrix over the kept terms (idf > 0) and each vocabulary term's kept column
    std::vector<int64_t> column(static_cast<std::size_t>(V), -1);
    std::vector<double> kept_idf;
    for (std::size_t t = 0; t < column.size(); ++t)
        if (idf(0, t) > 0.0) column[t] = static_cast<int64_t>(kept_idf.size()), kept_idf.push_back(idf(0, t));
    const std::size_t K = topics.shape()[0];
    Matrix Tt = Matrix::from_shape({kept_idf.size(), K});  // T^T
    for (std::size_t k = 0; k < K; ++k)
        for (std::size_t t = 0; t < column.size(); ++t)
            if (column[t] >= 0) Tt(static_cast<std::size_t>(column[t]), k) = topics(k, t);
    const CsrMatrix F = tf_idf_weights(Y.sparse(), column, kept_idf, weighting_of(model));
    Applied out;
    out.rows = TopicModel::document_weights(F, xt::transpose(Tt));
    out.residuals = residuals(NewData(F), Tt, out.rows, threads);
    scale_rows_to_one(out.rows);
    out.labels = labels_or_unknown(out.rows);
    return out;
}

// The eigenvector extension and the pure nodes' rows of the fit, and its memberships.
void capture_communities(const Solver& solver, Model& model)
{
    const auto& problem = dynamic_cast<const CommunityModel&>(solver.problem());
    model.arrays["extension"] = problem.eigenvector_extension();
    model.arrays["pure"] = problem.pure_rows(selected_of(solver));
    model.arrays["memberships"] = matrix_of(solver.output("memberships"));
}

// pure's rows independent, as the fit's memberships require them.
void check_communities(const Model& model)
{
    const Matrix& extension = require_array(model, "extension", -1, -1);
    const auto K = static_cast<int64_t>(extension.shape()[1]);
    if (model.arrays.count("memberships")) {  // since 0.4.0: the fitted nodes' rows, for their new neighbours
        require_array(model, "memberships", static_cast<int64_t>(extension.shape()[0]), K);
        require_nonnegative(model, "memberships");
    }
    const double condition = CommunityModel::condition(require_array(model, "pure", K, K));
    require(condition <= CommunityModel::kLargestCondition, FACTO_ERROR_BAD_STATE,
            "the communities model's 'pure' rows are linearly dependent (condition " + value_text(condition) +
                "): they must be the eigenvector rows of K distinct pure nodes");
}

// New nodes' Nystrom eigenvector rows on the pure nodes' (v ~ h V(J, :)), memberships scaled as the fit's.
Applied apply_communities(const Model& model, const NewData& Y, std::size_t threads)
{
    const Matrix &E = model.array("extension"), &pure = model.array("pure");
    const std::size_t K = E.shape()[1];
    require_columns(Y, static_cast<int64_t>(E.shape()[0]),
                    "model's new edges are to its " + std::to_string(E.shape()[0]) + " fitted nodes");
    Matrix v = Matrix::from_shape({static_cast<std::size_t>(Y.rows()), K});  // Nystrom eigenvector rows
    if (Y.is_sparse())
        spmm(Y.sparse(), E, v, threads);
    else
        blas::gemm(false, false, 1.0, Y.dense(), E, 0.0, v);
    Applied out;
    out.rows = CommunityModel::on_pure_nodes(pure, v);
    const std::vector<bool> empty = CommunityModel::normalize_memberships(out.rows);
    out.residuals = residuals(NewData(v), xt::transpose(pure), out.rows, threads);
    for (std::size_t l = 0; l < empty.size(); ++l)
        if (empty[l]) out.residuals[l] = blas::dot(&v(l, 0), &v(l, 0), K);
    if (const auto fitted = model.arrays.find("memberships"); fitted != model.arrays.end())
        through_neighbours(Y, fitted->second, empty, out.rows, threads);
    out.labels = labels_or_unknown(out.rows);
    return out;
}

// The anchors: the selected data columns.
void capture_self_dictionary(const Solver& solver, Model& model)
{
    const auto& problem = dynamic_cast<const SelfDictionary&>(solver.problem());
    const std::vector<int64_t> selected = selected_of(solver);
    model.arrays["W"] = xt::transpose(problem.points(selected));
}

// W anything finite.
void check_self_dictionary(const Model& model) { require_array(model, "W", -1, -1); }

// New data points' simplex coefficients on the anchors; the points are columns, as in the fit (M x q).
Applied apply_self_dictionary(const Model& model, const NewData& Y, std::size_t threads)
{
    const Matrix& W = model.array("W");
    require(Y.rows() == static_cast<int64_t>(W.shape()[0]), FACTO_ERROR_DIMENSION,
            "the new data points (columns) have " + std::to_string(Y.rows()) + " rows; the model's anchors " +
                std::to_string(W.shape()[0]));
    Applied out;
    if (Y.is_sparse()) {  // the points' non-zeros, never a dense copy: W^T y and ||y - W h|| from them
        const CsrMatrix points = transpose(Y.sparse());  // q x M, a point a row
        out.rows = simplex_coefficients(W, points, "the new data points (X_new)", threads);
        out.residuals = residuals(NewData(points), W, out.rows, threads);  // x ~ W h
    } else {
        out.rows = SelfDictionary::apply(W, Y.dense(), threads);
        out.residuals = residuals(NewData(Matrix(xt::transpose(Y.dense()))), W, out.rows, threads);  // x ~ W h
    }
    out.labels = row_argmax(out.rows);
    return out;
}
}  // namespace

const KindRule& self_dictionary_model()
{
    static const KindRule rule{"self_dictionary", {{"W", "the anchors: the K selected data columns (M x K)"}},
                               "new data points as columns (M x q)", false,
                               capture_self_dictionary, check_self_dictionary, apply_self_dictionary, "W", 1};
    return rule;
}

const KindRule& topics_model()
{
    static const KindRule rule{"topics",
                               {{"topics", "the topic-word matrix (K x V)"},
                                {"idf", "each term's inverse document frequency in the fitted corpus, 0 where pruned (1 x V)"},
                                {"weighting", "how counts are weighted: 0 [NFW]'s TF-IDF, 1 unit rows (1 x 1)"}},
                               "documents' term counts (q x V, dense or sparse)", false, capture_topics, check_topics, apply_topics, "topics", 0};
    return rule;
}

const KindRule& communities_model()
{
    static const KindRule rule{"communities",
                               {{"extension", "the eigenvectors over their eigenvalues: a row per fitted node (N x K)"},
                                {"pure", "the pure nodes' eigenvector rows (K x K)"},
                                {"memberships", "the fitted nodes' memberships (N x K)"}},
                               "new nodes' edges to the N fitted nodes (q x N, dense or sparse)", false, capture_communities, check_communities, apply_communities, "extension", 1};
    return rule;
}

}  // namespace facto::models
