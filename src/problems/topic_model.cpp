#include "problems/topic_model.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/error.hpp"
#include "base/random.hpp"
#include "linalg/alternating_nmf.hpp"
#include "linalg/blas.hpp"
#include "linalg/krylov_schur.hpp"
#include "linalg/nonnegative_least_squares.hpp"
#include "linalg/parallel.hpp"
#include <xtensor/xview.hpp>
#include "metrics/metrics.hpp"
#include "sets/row_simplices.hpp"

namespace facto {

struct TopicModel::Reduced {
    TfIdf tfidf;
    CsrMatrix Ft;
    std::vector<double> s;
    Matrix X;
    int64_t vocabulary;
    CsrMatrix G;
};

int64_t TopicModel::automatic_min_df(int64_t documents)
{
    return std::max<int64_t>(2, (documents + 50) / 100);
}

TopicModel::Reduced TopicModel::reduce(const CsrMatrix& counts, int64_t K, int64_t min_df, int64_t rank,
                                       double refine)
{
    require(counts.rows >= 2, FACTO_ERROR_DIMENSION,
            "the corpus needs at least 2 documents, got " + std::to_string(counts.rows));
    require(refine >= 0.0 && refine <= 1.0, FACTO_ERROR_OUT_OF_RANGE,
            "refine must be in [0, 1] (0: the anchors' topics unrefined), got " + value_text(refine));
    require(min_df >= 0, FACTO_ERROR_OUT_OF_RANGE,
            "min_df must be 0 (1% of the documents) or at least 1, got " + std::to_string(min_df));
    if (min_df == 0) min_df = automatic_min_df(counts.rows);
    Reduced r{tf_idf(counts, min_df), {}, {}, {}, counts.cols, {}};
    const CsrMatrix& F = r.tfidf.F;
    const int64_t N = F.cols;
    require(N >= std::max<int64_t>(K, 2), FACTO_ERROR_DIMENSION,
            std::to_string(N) + " terms occur in at least min_df = " + std::to_string(min_df) +
                " documents but not in all of them: too few for K = " + std::to_string(K));
    require(K >= 1, FACTO_ERROR_DIMENSION, "K = " + std::to_string(K) + " topics: at least 1");
    require(rank == 0 || (rank >= K && rank <= N), FACTO_ERROR_DIMENSION,
            "rank = " + std::to_string(rank) + " must be 0 (2K) or in [K, N = " + std::to_string(N) + "]");
    if (rank == 0) rank = std::min(2 * K, N);
    require_memory(8.0 * static_cast<double>(N) * static_cast<double>(3 * rank + 60), "the topic model's reduction");
    r.Ft = transpose(F);
    const auto n = static_cast<std::size_t>(N);
    const double D = static_cast<double>(F.rows);
    std::vector<double> t(static_cast<std::size_t>(F.rows)), p(n);
    // y = P x = F^T (F x) / D
    auto correlate = [&](const double* x, double* y) {
        spmv(F, x, t.data());
        spmv(r.Ft, t.data(), y);
        for (std::size_t j = 0; j < n; ++j) y[j] /= D;
    };
    r.s.assign(n, 0.0);
    const std::vector<double> ones(n, 1.0);
    correlate(ones.data(), r.s.data());
    // P-bar P-bar^T x = P diag(1/s^2) P x: its leading eigenvectors are P-bar's left singular vectors
    auto apply = [&](const double* x, double* y) {
        correlate(x, p.data());
        for (std::size_t j = 0; j < n; ++j) p[j] /= r.s[j] * r.s[j];
        correlate(p.data(), y);
    };
    const Eigenpairs U = extreme_eigenpairs(n, static_cast<std::size_t>(rank), apply, Spectrum::LargestAlgebraic,
                                            1e-10, 0);
    require(U.converged, FACTO_ERROR_NUMERICAL,
            "the leading singular vectors of the word-word matrix did not converge in " +
                std::to_string(U.products) + " products");
    r.X = Matrix::from_shape({static_cast<std::size_t>(rank), n});
    std::vector<double> u(n);
    for (std::size_t k = 0; k < static_cast<std::size_t>(rank); ++k) {  // X = U^T P diag(1/s)
        for (std::size_t j = 0; j < n; ++j) u[j] = U.vectors(j, k);
        correlate(u.data(), &r.X(k, 0));
        for (std::size_t j = 0; j < n; ++j) r.X(k, j) /= r.s[j];
    }
    if (refine > 0.0) r.G = tf_idf_weights(counts, kept_columns(r.tfidf, counts.cols), r.tfidf.idf,
                                           TermWeighting::UnitRows);
    return r;
}

TopicModel::TopicModel(const CsrMatrix& counts, int64_t K, int64_t min_df, int64_t rank, double lambda, double mu,
                       double refine)
    : TopicModel(reduce(counts, K, min_df, rank, refine), K, lambda, mu, refine)
{
}

TopicModel::TopicModel(Reduced reduced, int64_t K, double lambda, double mu, double refine)
    : SelfDictionary(std::move(reduced.X), K, lambda, mu),
      tfidf_(std::move(reduced.tfidf)),
      Ft_(std::move(reduced.Ft)),
      column_sum_(std::move(reduced.s)),
      vocabulary_(reduced.vocabulary),
      refine_(refine),
      G_(std::move(reduced.G)),
      Gt_(refine > 0.0 ? transpose(G_) : CsrMatrix{})
{
}

Matrix TopicModel::topics(const std::vector<int64_t>& selected) const
{
    const std::size_t K = selected.size(), N = static_cast<std::size_t>(this->N()), D = static_cast<std::size_t>(documents());
    // B = P(:, J) = F^T F(:, J) / D (N x K), G = B^T B, R = B^T P = (F B)^T F / D
    Matrix Bt = Matrix::from_shape({K, N});
    std::vector<double> f(D), g(D);
    for (std::size_t k = 0; k < K; ++k) {
        std::fill(f.begin(), f.end(), 0.0);
        const auto j = static_cast<std::size_t>(selected[k]);
        for (int64_t p = Ft_.indptr[j]; p < Ft_.indptr[j + 1]; ++p)
            f[static_cast<std::size_t>(Ft_.indices[static_cast<std::size_t>(p)])] = Ft_.values[static_cast<std::size_t>(p)];
        spmv(Ft_, f.data(), &Bt(k, 0));
    }
    Bt /= static_cast<double>(D);
    Matrix G = Matrix::from_shape({K, K}), R = Matrix::from_shape({K, N});
    blas::gemm(false, true, 1.0, Bt, Bt, 0.0, G);
    for (std::size_t k = 0; k < K; ++k) {
        spmv(tfidf_.F, &Bt(k, 0), g.data());
        spmv(Ft_, g.data(), &R(k, 0));
    }
    R /= static_cast<double>(D);
    // started from the unconstrained least squares clipped at 0, as the authors' code does
    Matrix Ht = xt::transpose(R), factor = G;  // rows of R^T: one right-hand side (K values) per term
    if (!blas::solve_positive_definite(factor.data(), K, Ht.data(), N)) Ht.fill(0.0);
    Matrix H = xt::maximum(xt::transpose(Ht), 0.0);
    nonnegative_least_squares(G, R, H, 1e-10, 500);
    scale_rows_to_one(H);
    return H;
}

Matrix TopicModel::document_topics(const Matrix& T) const
{
    Matrix W = document_weights(weighted_documents(), T);
    scale_rows_to_one(W);
    return W;
}

Matrix TopicModel::fitted_topics(const std::vector<int64_t>& selected) const
{
    std::lock_guard<std::mutex> hold(last_mutex_);
    if (selected != last_selected_ || last_topics_.size() == 0) {
        const Matrix T = topics(selected);
        last_topics_ = refine_ > 0.0 ? refined(T) : T;
        last_selected_ = selected;
    }
    return last_topics_;
}

// G ~ W T by alternating HALS from the anchors' topics T and their NNLS weights, which the first sweep
// over T's rows starts from; the result's rows scaled to sum 1 as topics() scales T's (alternating_nmf
// loses no topic: a row of T that is zero is one topics() gave).
Matrix TopicModel::refined(const Matrix& T) const
{
    Matrix H = T, W = document_weights(G_, T);
    alternating_nmf(G_, Gt_, W, H, refine_, kRefineSweeps, resolve_threads(0));
    scale_rows_to_one(H);
    return H;
}

Matrix TopicModel::document_weights(const CsrMatrix& F, const Matrix& T)
{
    const std::size_t K = T.shape()[0], D = static_cast<std::size_t>(F.rows);
    Matrix G = Matrix::from_shape({K, K});
    blas::gemm(false, true, 1.0, T, T, 0.0, G);
    Matrix FT = Matrix::from_shape({D, K});  // F T^T: row i is T's products with document i
    spmm(F, xt::eval(xt::transpose(T)), FT, resolve_threads(0));
    Matrix B = xt::transpose(FT);
    Matrix W = xt::zeros<double>({K, D});  // W^T, started at 0: HALS's first sweep is its own warm start
    nonnegative_least_squares(G, B, W, 1e-10, 500);
    return xt::transpose(W);
}

Matrix TopicModel::anchor_search_points(int64_t rows, uint64_t seed) const
{
    const auto n = static_cast<std::size_t>(N()), c = static_cast<std::size_t>(std::min(rows, N()));
    const auto D = static_cast<std::size_t>(documents());
    require_memory(8.0 * static_cast<double>(c) * static_cast<double>(2 * n + D), "FastAnchor's projected points");
    Matrix R = xt::zeros<double>({n, c});
    if (c == n) {
        for (std::size_t j = 0; j < n; ++j) R(j, j) = 1.0;
    } else {
        Rng rng(seed);
        for (double& r : R) r = rng.normal();
    }
    Matrix FR = Matrix::from_shape({D, c}), points = Matrix::from_shape({n, c});
    const std::size_t threads = resolve_threads(0);
    spmm(tfidf_.F, R, FR, threads);
    spmm(Ft_, FR, points, threads);  // D P R: P is symmetric, so row n is P-bar(:, n)^T R times D s_n
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t k = 0; k < c; ++k) points(j, k) /= static_cast<double>(D) * column_sum_[j];
    return points;
}

std::vector<OutputSpec> TopicModel::output_specs(const SimplexColumns&) const { return output_specs(); }

std::vector<OutputSpec> TopicModel::output_specs() const
{
    std::vector<OutputSpec> specs = SelfDictionary::specs(K());
    const int64_t top = std::min(kTopTerms, N());
    specs.push_back({"topics", FACTO_OUTPUT_DOUBLE, K(), vocabulary_});
    specs.push_back({"top_terms", FACTO_OUTPUT_INT64, K(), top});
    specs.push_back({"document_topics", FACTO_OUTPUT_DOUBLE, documents(), K()});
    specs.push_back({"labels", FACTO_OUTPUT_INT64, documents(), 1});
    specs.push_back({"coherence", FACTO_OUTPUT_DOUBLE, 1, 1});
    specs.push_back({"umass_coherence", FACTO_OUTPUT_DOUBLE, 1, 1});
    specs.push_back({"similarity_count", FACTO_OUTPUT_INT64, 1, 1});
    return specs;
}

Output TopicModel::output(const std::string& name, const SimplexColumns& C) const
{
    const std::vector<OutputSpec> specs = output_specs(C);
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const OutputSpec& s) { return name == s.name; });
    if (spec == specs.end() || name == "nnz" || name == "H") return SelfDictionary::output(name, C);
    const std::vector<int64_t> selected = select(C);
    Output out{*spec, {}, {}};
    if (name == "selected") {
        for (int64_t j : selected) out.ints.push_back(terms()[static_cast<std::size_t>(j)]);
        return out;
    }
    const Matrix T = fitted_topics(selected);
    const std::vector<std::vector<int64_t>> top =
        top_terms(T, static_cast<std::size_t>(std::min(kTopTerms, N())));
    if (name == "topics") {
        out.doubles.assign(static_cast<std::size_t>(K() * vocabulary_), 0.0);
        for (std::size_t k = 0; k < T.shape()[0]; ++k)
            for (std::size_t j = 0; j < T.shape()[1]; ++j)
                out.doubles[k * static_cast<std::size_t>(vocabulary_) + static_cast<std::size_t>(terms()[j])] = T(k, j);
    } else if (name == "top_terms") {
        for (const auto& words : top)
            for (int64_t j : words) out.ints.push_back(terms()[static_cast<std::size_t>(j)]);
    } else if (name == "coherence") {
        out.doubles = {topic_coherence(Ft_, top, true)};
    } else if (name == "umass_coherence") {
        out.doubles = {topic_coherence(Ft_, top, false)};
    } else if (name == "similarity_count") {
        out.ints = {similarity_count(top)};
    } else {
        const Matrix W = document_topics(T);
        if (name == "document_topics") return Output{*spec, std::vector<double>(W.begin(), W.end()), {}};
        for (std::size_t i = 0; i < W.shape()[0]; ++i) {  // labels
            std::size_t best = 0;
            for (std::size_t k = 1; k < W.shape()[1]; ++k)
                if (W(i, k) > W(i, best)) best = k;
            out.ints.push_back(W(i, best) > 0.0 ? static_cast<int64_t>(best) : -1);
        }
    }
    return out;
}

}  // namespace facto
