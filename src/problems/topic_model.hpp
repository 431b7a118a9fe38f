// Anchor-word topic modeling ([NFW] Sec. V-B, after Arora et al. 2013): the
// self-dictionary problem on the noise-reduced word-word correlation matrix of a corpus. Its anchors
// are anchor words, one per topic; the topics, the documents' topic weights and the paper's scores are
// outputs computed from them. The preprocessing follows the paper's authors' code (docs/architecture.md,
// "Topic modeling"):
//   F = TF-IDF of the counts, rare terms dropped (data.hpp, tf_idf), D x N;
//   P = F^T F / D, the N x N word-word correlation matrix, never formed: every product goes through F;
//   P-bar = P diag(1/s), s = P 1 (columns summing to 1);
//   X = U^T P-bar with U the leading `rank` left singular vectors of P-bar (2K by default), rank x N.
// The anchors' topics (topics(), as [NFW]'s authors estimate them) then start a refinement (refine > 0,
// the default): the documents' unit-row TF-IDF G (D x N, TermWeighting::UnitRows) factored as W T by
// alternating HALS sweeps from T and its document weights, until a sweep lowers the fit by less than
// `refine` of it. The topics reported are the refined T's rows scaled to sum 1, every document's weights
// its NNLS weights on them (docs/architecture.md, "Topics, the refinement").
// Memory: O(nnz(F) + N (rank + basis)) for the preprocessing (twice nnz(F) more when refining), then the
// self-dictionary problem's.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "data/data.hpp"
#include "linalg/sparse.hpp"
#include "problems/self_dictionary.hpp"

namespace facto {

class TopicModel final : public SelfDictionary {
public:
    // The number of top terms per topic in "top_terms", coherence and similarity count (the paper's 20).
    static constexpr int64_t kTopTerms = 20;

    // counts: D x V document-term counts (0 or at least 1), D >= 2; K topics, 1 <= K <= the terms kept;
    // min_df >= 1 (the paper: 2 for K <= 10) or 0, automatic_min_df(D); rank 0 (= min(2K, N)) or
    // K <= rank <= N; lambda and mu as for SelfDictionary; refine in [0, 1], 0 for [NFW]'s topics as the
    // anchors give them (1: a single sweep). Error(DIMENSION) when fewer than max(K, 2) terms survive the
    // pruning, OUT_OF_RANGE for refine outside [0, 1].
    TopicModel(const CsrMatrix& counts, int64_t K, int64_t min_df, int64_t rank, double lambda, double mu,
               double refine);
    // The refinement's cap on its sweeps: on [NFW]'s corpora the tolerance 1e-3 stops it after 3-15.
    static constexpr int kRefineSweeps = 500;
    // The automatic document-frequency threshold: 1% of the D documents (rounded), at least 2. Anchors
    // must be words frequent enough for their co-occurrence to be estimated (Arora et al. 2013 restrict the
    // candidates so); on TDT2's ten K = 10 subsets SPA's accuracy is 0.79 (NMI 0.75) at 1% against 0.71
    // (0.64) at the paper's 2 documents, and 0.73-0.79 from 0.5% to 1.5% (docs/benchmarks.md).
    static int64_t automatic_min_df(int64_t documents);

    const char* kind() const override { return "topics"; }
    // The self-dictionary outputs ("selected" as vocabulary columns) and: "topics" (K x V, each row a
    // topic's distribution over the whole vocabulary, zero on pruned terms), "top_terms" (int64,
    // K x min(20, N): vocabulary columns by decreasing weight), "document_topics" (D x K, each
    // document's topic proportions, a row of zeros when none of its terms was kept), "labels" (int64,
    // D x 1, the largest proportion, -1 for such documents), "coherence" (as [NFW] reports it, each pair
    // of top terms counted twice), "umass_coherence" (Mimno et al.'s, each pair once) and "similarity_count" (1 x 1,
    // metrics/metrics.hpp; int64 for the count).
    std::vector<OutputSpec> output_specs() const override;
    std::vector<OutputSpec> output_specs(const SimplexColumns& C) const override;
    Output output(const std::string& name, const SimplexColumns& C) const override;

    int64_t documents() const { return tfidf_.F.rows; }
    int64_t vocabulary() const { return vocabulary_; }
    // Vocabulary column of each kept term (the problem's columns), increasing.
    const std::vector<int64_t>& terms() const { return tfidf_.terms; }
    const TfIdf& tfidf() const { return tfidf_; }
    // How the topics' document weights (and a fitted model's for new documents) weigh the counts:
    // UnitRows when refining, [NFW]'s Sublinear otherwise.
    TermWeighting weighting() const { return refine_ > 0.0 ? TermWeighting::UnitRows : TermWeighting::Sublinear; }
    // The rows the document weights are fitted to: F, or G when refining (D x N).
    const CsrMatrix& weighted_documents() const { return refine_ > 0.0 ? G_ : tfidf_.F; }
    // F^T (kept terms x documents), as the coherence score reads it.
    const CsrMatrix& term_documents() const { return Ft_; }

    // The topic-word matrix over the kept terms (K x N, rows summing to 1) from the anchor words
    // `selected`, as the paper's authors estimate it: min_{H >= 0} ||P - P(:, selected) H||_F by HALS
    // (500 sweeps at most, from the unconstrained solution clipped at 0), each row scaled to sum 1.
    // P's products go through F: O(K nnz(F) + K^2 N) per sweep-free step, K^2 N per sweep.
    Matrix topics(const std::vector<int64_t>& selected) const;
    // FastAnchor's points: the columns of P-bar (word n's co-occurrence distribution), through a
    // Gaussian random projection to `rows` dimensions when N > rows, as Arora et al. do (rows: N x rows
    // or N x N).
    Matrix anchor_search_points(int64_t rows, uint64_t seed) const override;

    // Each document's weights on the topics T (K x N): min_{W >= 0} ||F - W T||_F by HALS (G for F when
    // refining), rows scaled to sum 1 (D x K).
    Matrix document_topics(const Matrix& T) const;
    // The job's topics from the anchor words `selected`: topics(selected), refined as the header says
    // when refine > 0 (K x N, rows summing to 1). The last answer is kept for the next call with the same
    // anchors (each output reads it).
    Matrix fitted_topics(const std::vector<int64_t>& selected) const;
    // The weights before that scaling for any documents' TF-IDF rows F (D' x N, weighted as the fit's:
    // tf_idf_weights): how a fitted model gives new documents theirs. A document with no kept term gets a
    // row of zeros.
    static Matrix document_weights(const CsrMatrix& F, const Matrix& T);

private:
    struct Reduced;
    TopicModel(Reduced reduced, int64_t K, double lambda, double mu, double refine);
    static Reduced reduce(const CsrMatrix& counts, int64_t K, int64_t min_df, int64_t rank, double refine);
    Matrix refined(const Matrix& T) const;

    TfIdf tfidf_;
    CsrMatrix Ft_;                   // F^T: terms x documents
    std::vector<double> column_sum_;  // s = P 1
    int64_t vocabulary_;
    double refine_;
    CsrMatrix G_, Gt_;  // G and G^T when refining, empty otherwise
    mutable std::mutex last_mutex_;  // the last fitted_topics answer
    mutable std::vector<int64_t> last_selected_;
    mutable Matrix last_topics_;
};

}  // namespace facto
