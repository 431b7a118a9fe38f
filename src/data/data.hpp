// Reading and writing data, and building similarity matrices.
#pragma once

#include <cstdint>
#include <cstdio>
#include <istream>
#include <string>
#include <vector>

#include "facto/facto.h"
#include "linalg/matrix.hpp"
#include "linalg/sparse.hpp"

namespace facto {

class Collectives;

// CSV: fields separated by commas, semicolons, tabs or spaces; a non-numeric first line is a header.
Matrix read_csv(const std::string& path);
// .npy version 1-3, little-endian <f8, <f4, <i8, <i4 or uint8 (|u1), C or Fortran order, 1-D (as a column) or 2-D; the
// header's shape is checked against the bytes that follow it before anything is allocated. From a file
// (gzip-compressed or not), or from a stream positioned at the magic (`path` names it in errors).
Matrix read_npy(const std::string& path);
Matrix read_npy(std::istream& in, const std::string& path);
// X as .npy version 1.0, '<f8', C order (what numpy.save writes for a float64 array), into an open file,
// flushed; Error(IO) naming `path`. The caller closes the file.
void write_npy(std::FILE* file, const Matrix& X, const std::string& path);
// By extension: ".npy" -> read_npy, anything else -> read_csv. Rejects NaN/Inf.
Matrix read_matrix(const std::string& path);
// read_matrix's values held in single precision, 4 bytes each (10^6 images of 784 pixels in 3.1 GB): only
// values that single precision holds exactly (float32 and uint8 files, integers up to 2^24, ...), never
// rounded: Error(UNSUPPORTED) names the first other one. A .npy file is converted as it is read.
SingleMatrix read_matrix_single(const std::string& path);

void write_csv(const std::string& path, const Matrix& X);

enum class Scaling : int32_t { None = 0, MinMax = 1, ZScore = 2 };

// What a scaling learnt from its columns, so that new rows are scaled as the fitted ones were: per
// column, MinMax's low and high, ZScore's mean and standard deviation (unused for None).
struct ColumnScaling {
    Scaling scaling = Scaling::None;
    Vector first, second;
};
// The statistics of X's columns for `scaling`.
ColumnScaling column_scaling(const Matrix& X, Scaling scaling);
ColumnScaling column_scaling(const DenseRows& X, Scaling scaling);
// A caller's rows read in place, each value scaled as it is read (no `scaling`: as they are): the kNN
// graph's dense features without a scaled copy of them, and scale_columns' map. Each column's map is
// kept as (x - origin) * factor + shift (a constant column: 0). Error(DIMENSION) for a scaling learnt on
// another number of columns.
struct ScaledRows {
    DenseRows rows;
    std::vector<double> origin, factor, shift;  // empty: unscaled
    explicit ScaledRows(const DenseRows& X, const ColumnScaling* scaling = nullptr);
    bool scaled() const { return !factor.empty(); }
    double operator()(std::size_t i, std::size_t c) const
    {
        const double x = rows(i, c);
        return factor.empty() ? x : (x - origin[c]) * factor[c] + shift[c];
    }
};
// Columns scaled in place by statistics learnt elsewhere: MinMax maps [low, high] to [-1, 1], ZScore
// (x - mean) / sd; a column that was constant becomes 0. Error(DIMENSION) for another number of columns.
void scale_columns(Matrix& X, const ColumnScaling& s);
// Columns scaled in place by their own statistics: MinMax to [-1, 1], ZScore to mean 0 / std 1
// (constant columns become 0).
void scale_columns(Matrix& X, Scaling scaling);

// For the rows x_i of X: P_ij = exp(-||x_i - x_j||^2 / bandwidth) (squared distances from one GEMM), P_ii
// = 1; bandwidth 0 is resolve_bandwidth's rule. Error(OUT_OF_RANGE) for a negative or non-finite bandwidth.
Matrix gaussian_affinity(const Matrix& X, double bandwidth);
// The bandwidth itself when positive; for 0, the median rule: a quarter of the median of the squared
// distances ||x_i - x_j||^2 over pairs i < j (of the positive ones when at least half are 0; 1 when
// all are). Measured against fixed bandwidths and [ZP]'s local scales on four labelled sets
// (docs/architecture.md): the only rule within 0.02 of k-means' accuracy on all four.
double resolve_bandwidth(const Matrix& X, double bandwidth);
// The affinities of new rows to fitted ones by the same kernel: m x n, entry (l, j) =
// exp(-||y_l - x_j||^2 / bandwidth) (y the rows of Y, scaled as X was; bandwidth > 0, the fit's resolved
// one). Error(DIMENSION) when Y and X differ in columns.
Matrix gaussian_cross_affinity(const Matrix& Y, const Matrix& X, double bandwidth);

// Matrix Market: "coordinate" (real, integer or pattern; general or symmetric, a symmetric file's
// mirror entries added) or "array" (real or integer, general). 1-based indices in the file.
CsrMatrix read_matrix_market(const std::string& path);

// The similarity graph of Kuang, Yun & Park 2015, Sec. 7.1, for the rows of a feature matrix:
// Gaussian:  S_ij = exp(-||x_i - x_j||^2 / (s_i s_j)), s_i the distance from x_i to its `scale_neighbor`-th
//            nearest neighbour (self-tuning, 7 in the paper; the farthest other point when n <= 7);
// Cosine:    S_ij = <x_i, x_j> / (||x_i|| ||x_j||) (text; negative values clipped to 0).
// Each row keeps its k most similar other points (k = 0: floor(log2 n) + 1, at most n - 1); the graph is the union
// of both directions; finally S_ij / sqrt(d_i d_j) with d the row sums. Distances come from GEMMs on
// blocks of rows, so memory stays O(n (block + k)).
enum class Similarity : int32_t { Gaussian = 0, Cosine = 1 };
// How each point's neighbours are found: Exact compares it with every other point (O(n^2 p) in GEMMs);
// Hnsw searches an HNSW index [HNSW] built on the points (O(n log n p); on Fashion-MNIST's 70,000
// images 95-97% of the exact neighbours, about 10x sooner: docs/benchmarks.md, "Nearest neighbours for
// the kNN graph"); Auto is Exact below kHnswFrom points and Hnsw from there.
enum class NeighborSearch : int32_t { Exact = FACTO_SEARCH_EXACT, Hnsw = FACTO_SEARCH_HNSW, Auto = FACTO_SEARCH_AUTO };
constexpr int64_t kHnswFrom = FACTO_SEARCH_HNSW_FROM;
NeighborSearch resolve_search(NeighborSearch search, int64_t n);
CsrMatrix knn_similarity(const Matrix& X, int64_t k, Similarity kind, int64_t scale_neighbor = 7,
                         NeighborSearch search = NeighborSearch::Auto);
// The same graph of sparse rows (CSR features: counts, TF-IDF), without a dense copy: memory in X's
// non-zeros plus O(n) per thread. Its neighbours are found exactly (Auto is Exact; Hnsw is
// Error(UNSUPPORTED)), from products over X's columns (an inverted index): the same graph as the dense
// rows' up to the products' rounding.
CsrMatrix knn_similarity(const CsrMatrix& X, int64_t k, Similarity kind, int64_t scale_neighbor = 7,
                         NeighborSearch search = NeighborSearch::Auto);
// The kernel the graph's automatic choice takes for X: Cosine when X is nonnegative with at least 90% of
// its entries 0 (counts or TF-IDF: text, where a document's length is not its topic and min-max scaling
// inflates rare terms), Gaussian otherwise. On the defaults panel's 1000 Reuters TF-IDF documents SymNMF's
// accuracy is 0.50-0.51 on the cosine graph and 0.37-0.38 on the scaled Gaussian one; on satimage (dense)
// the cosine graph loses 0.1.
// Whether `zeros` of `entries` values are at least 90% of them: features facto takes as sparse (counts,
// TF-IDF): the kNN graph's automatic kernel, NOMAD's sparse storage of points.
inline bool mostly_zeros(double zeros, double entries) { return 10.0 * zeros >= 9.0 * entries; }
Similarity automatic_similarity(const Matrix& X);
Similarity automatic_similarity(const DenseRows& X);
Similarity automatic_similarity(const CsrMatrix& X);
// The same graph with what new points need to join it (knn_cross_similarity): the kernel, k (resolved),
// the points' scales s_i and degrees d_i, and the search that found the neighbours (resolved).
struct KnnGraph {
    CsrMatrix S;
    Similarity kind;
    int64_t k, scale_neighbor;
    std::vector<double> scale, degree;
    NeighborSearch search = NeighborSearch::Exact;
};
KnnGraph knn_graph(const Matrix& X, int64_t k, Similarity kind, int64_t scale_neighbor = 7,
                   NeighborSearch search = NeighborSearch::Auto);
KnnGraph knn_graph(const CsrMatrix& X, int64_t k, Similarity kind, int64_t scale_neighbor = 7,
                   NeighborSearch search = NeighborSearch::Auto);
// The graph of X's scaled rows (finite, checked by the caller), read in place: the same
// graph as that of the scaled copy, without the copy. Beyond the neighbour lists (O(n m)), an HNSW search
// keeps each row in single precision and its links (4 p + 100 bytes a point); an exact one copies the
// rows when they are scaled.
KnnGraph knn_graph(const ScaledRows& X, int64_t k, Similarity kind, int64_t scale_neighbor = 7,
                   NeighborSearch search = NeighborSearch::Auto);
// New points' rows in the graph of X (q x n, k stored entries per row): each new point y keeps its k nearest fitted points
// (found by the graph's search: an HNSW index is built on X again, as the graph's was)
// j, S_yj = exp(-||y - x_j||^2 / (s_y s_j)) with s_y its distance to its scale_neighbor-th nearest fitted
// point (or the cosine, clipped at 0), divided by sqrt(d_y d_j), d_y the sum of its row and d_j the
// fitted degree; the fitted graph itself is not changed. Error(DIMENSION) for other features, or a graph whose
// scales, degrees, k or scale neighbour do not fit X's n points.
CsrMatrix knn_cross_similarity(const Matrix& Y, const Matrix& X, const KnnGraph& graph);
// The same of sparse new points among sparse fitted ones (the graph of knn_graph(CsrMatrix)), searched
// exactly: memory in their non-zeros; UNSUPPORTED for a graph whose search was HNSW.
CsrMatrix knn_cross_similarity(const CsrMatrix& Y, const CsrMatrix& X, const KnnGraph& graph);

// A document-term count matrix weighted for topic modeling as the authors of [NFW] do (Sec. V-B; Deng
// Cai's tfidf): the terms in fewer than `min_df` documents are dropped, each count c > 0 becomes
// (1 + ln c) ln(D / df) (df counted over the D documents given), and terms in every document (idf = 0)
// are dropped too. Counts are 0 or at least 1 (Error(OUT_OF_RANGE) naming the entry otherwise).
struct TfIdf {
    CsrMatrix F;                 // D x N: documents x kept terms
    std::vector<int64_t> terms;  // the count matrix's column of each kept term, increasing
    std::vector<int64_t> df;     // document frequency of each kept term
    std::vector<double> idf;     // ln(D / df) of each kept term
};
TfIdf tf_idf(const CsrMatrix& counts, int64_t min_df);
// Each of the `vocabulary` count columns' kept column in tfidf (-1 for a dropped term).
std::vector<int64_t> kept_columns(const TfIdf& tfidf, int64_t vocabulary);
// How a count c of a term with inverse document frequency idf is weighted: [NFW]'s (1 + ln c) idf, or
// c idf with each document's row then scaled to unit Euclidean norm (scikit-learn's TfidfTransformer with
// the plain idf, what the topic job's refinement fits: every document counts alike).
enum class TermWeighting { Sublinear = 0, UnitRows = 1 };
// Counts (D x V, 0 or at least 1) weighted by idf learnt elsewhere: count c of term t becomes
// c idf[column[t]] as `weighting` says, in column column[t] of the result (D x idf.size()); terms with
// column -1 are dropped. Error(DIMENSION) when column has not V entries, OUT_OF_RANGE naming a bad count.
CsrMatrix tf_idf_weights(const CsrMatrix& counts, const std::vector<int64_t>& column, const std::vector<double>& idf,
                         TermWeighting weighting);

// The Helix of [DAB] Sec. 4.2: x_i = (cos 3t_i, sin 3t_i, 2t_i), t_i uniform on [0, 2 pi].
Matrix helix_points(int64_t n, uint64_t seed);

// Observed pairs of an EDM completion instance: each pair i < j kept independently with probability
// `fraction` (geometric skips: O(kept pairs) time), d = ||x_i - x_j||^2. Sorted by (i, j).
struct ObservedPairs {
    std::vector<int64_t> i, j;
    std::vector<double> d;
};
ObservedPairs sample_pairs(const Matrix& X, double fraction, uint64_t seed);

// Separable data X = W H + V of [NFW] Sec. V-A: W (M x K) uniform on (0, 1), H = [I_K, H2]
// with columns on the simplex, noise V at `snr_db` (+inf = none), columns of X randomly permuted;
// `anchors` lists where the columns of I_K went (increasing). Reproducible from seed.
struct SeparableData {
    Matrix X, W, H;
    std::vector<int64_t> anchors;
};
// Fig. 2 (the setting of Gillis & Luce [30]): H2 = all K (K - 1) / 2 midpoints (e_i + e_j) / 2; noise on
// the midpoints only, each moved away from the mean w of W's columns, v_l = delta (W h_l - w), with
// 10 log10(||W H||^2 / ||V||^2) = snr_db (adversarial: it pushes them out of the convex hull of W);
// N = K + K (K - 1) / 2.
SeparableData separable_midpoints(int64_t M, int64_t K, double snr_db, uint64_t seed);
// Fig. 4 / Table I: N - K columns of H2 from the uniform Dirichlet, zero-mean Gaussian noise on every
// entry with SNR = 10 log10(sum_l ||W h_l||^2 / (M N sigma^2)).
SeparableData separable_dirichlet(int64_t M, int64_t N, int64_t K, double snr_db, uint64_t seed);

// Points (one per row) and the manifold each belongs to.
struct LabeledPoints {
    Matrix X;
    std::vector<int64_t> labels;
};
// The synthetic manifolds of [TSC], all reproducible from seed:
// two concentric rings: n / 2 points evenly spaced on the unit circle (label 0), the rest on the circle
// of radius `factor` (label 1), plus Gaussian noise of deviation `noise` (Fig. 4: factor 0.5, no noise);
LabeledPoints two_rings(int64_t n, double factor, double noise, uint64_t seed);
// the trefoil knot (sin t + 2 sin 2t, cos t - 2 cos 2t, -sin 3t), t = 2 pi i / n (Fig. 1a);
LabeledPoints trefoil_knot(int64_t n);
// two interleaved semicircles, n / 2 points on the upper unit one (label 0), the rest on the lower one
// shifted by (1, -1/2), evenly spaced in angle, plus Gaussian noise (Fig. 5: noise 0.05);
LabeledPoints two_moons(int64_t n, double noise, uint64_t seed);
// isotropic Gaussian blobs of the given deviation around the rows of `centers`, the points split as
// evenly as possible in center order (label = center).
LabeledPoints gaussian_blobs(int64_t n, const Matrix& centers, double deviation, uint64_t seed);
// NOMAD's input (Sec. 1): the Gram matrix D = Y Y^T of the points (rows of X, finite, not all 0), Y
// being the points centered by their mean and divided by the largest norm of the (uncentered) points.
// nomad_features returns Y (n x d), nomad_gram D (exactly symmetric). With collectives, X is this
// process's block of the points (possibly none; d columns everywhere): the mean and the largest norm are
// all the processes' (collective), and Y is the block's rows.
Matrix nomad_features(const DenseRows& X, const Collectives* collectives = nullptr);
inline Matrix nomad_features(const Matrix& X, const Collectives* collectives = nullptr)
{
    return nomad_features(rows_of(X), collectives);
}
Matrix nomad_gram(const Matrix& X);
// The same map left implicit, for storage that does not hold Y (sparse points, whose centring would fill
// every zero; points in single precision): Y = scale (X - 1 mean^T), returned as the rows' mean (d
// values) and scale = 1 / max_i ||x_i||; the same checks, the same collectives.
struct Centring {
    std::vector<double> mean;
    double scale;
};
Centring nomad_centring(const DenseRows& X, const Collectives* collectives = nullptr);
Centring nomad_centring(const CsrMatrix& X);

}  // namespace facto
