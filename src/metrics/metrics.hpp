// Evaluation metrics.
#pragma once

#include <cstdint>
#include <vector>

#include "linalg/matrix.hpp"
#include "linalg/sparse.hpp"
#include "linalg/gram_operator.hpp"
#include "linalg/gram_rows.hpp"
#include "linalg/symmetric.hpp"

namespace facto {

// Minimum-cost perfect assignment of rows to columns of a square cost matrix (Hungarian algorithm,
// O(m^3)); result[i] is the column assigned to row i.
std::vector<int64_t> min_cost_assignment(const Matrix& cost);

// Fraction of points whose predicted label maps to their true label under the best one-to-one
// matching of labels; labels are arbitrary integers.
double clustering_accuracy(const std::vector<int64_t>& predicted, const std::vector<int64_t>& truth);

// Normalized RMSE of the distance matrix of X against that of X_true over all pairs i < j:
//     sqrt(sum (||x_i - x_j||^2 - ||t_i - t_j||^2)^2 / sum ||t_i - t_j||^4),
// exact when n (n - 1) / 2 <= max_pairs, else over max_pairs pairs drawn uniformly from `seed`.
// Invariant to rigid motions of X.
double distance_nrmse(const Matrix& X, const Matrix& X_true, int64_t max_pairs, uint64_t seed);

// Mean-removed spectral angle between the columns of W and of W_hat (M x K each) after the matching
// that minimizes the total angle (Hungarian), in [0, 100]: mean over k of (100 / pi) arccos of the
// correlation of the mean-removed columns (Gillis & Luce, as Nguyen, Fu & Wu report it).
double mrsa(const Matrix& W, const Matrix& W_hat);
// Relative approximation error 1 - ||X - W_hat H_hat||_F / ||X||_F.
double relative_approximation(const Matrix& X, const Matrix& W_hat, const Matrix& H_hat);

// Spearman's rank correlation of column i of A with column j of B (same number of rows): the Pearson
// correlation of their ranks, ties given their average rank; 0 when a column is constant.
double spearman_correlation(const Matrix& A, std::size_t i, const Matrix& B, std::size_t j);
// The averaged Spearman rank correlation (SRC) of estimated memberships H_hat against true ones H
// (n nodes x K communities each): the mean of the correlations of matched columns, under the
// matching of estimated to true communities that maximizes their sum (Hungarian). In [-1, 1].
double averaged_spearman(const Matrix& H_hat, const Matrix& H);

// The `count` largest entries of each row of T (K x N, one topic per row), as column indices by
// decreasing value, ties by increasing index (count <= N).
std::vector<std::vector<int64_t>> top_terms(const Matrix& T, std::size_t count);
// Topic coherence (Mimno et al. 2011, "UMass"): for each topic with top terms w_1, ..., w_L,
// sum_{n < m} log((D(w_n, w_m) + 0.01) / D(w_n)), D counting the documents that contain all the terms
// named; the mean over topics. With both_halves, twice that, as [NFW] reports it (its authors' code
// sums both halves of the symmetric score matrix). `documents` is terms x documents (CSR; a stored
// entry means the term occurs); every top term must occur somewhere. Higher is better (<= 0).
double topic_coherence(const CsrMatrix& documents, const std::vector<std::vector<int64_t>>& top, bool both_halves);
// Similarity count of [NFW] (Table II): the sum over pairs of topics of the number of terms their
// top lists share. Lower is better.
int64_t similarity_count(const std::vector<std::vector<int64_t>>& top);

// The connected components of the graph with an edge i - j (i != j) wherever A_ij > threshold, by
// union-find over A's upper triangle (O(n^2), one pass): labels in [0, components), numbered in the
// order of each component's smallest point (so they depend on A and the threshold alone).
std::vector<int64_t> connected_components(const PackedSymmetric& A, double threshold);
// The same for A = U U^T (U n x r), never formed: blocks of its rows by GEMM, O(n r) memory besides U.
std::vector<int64_t> connected_components_of_factor(const Matrix& U, double threshold);

// Lloyd's k-means on the rows of X (n x d) into K clusters, seeded by k-means++ (Arthur &
// Vassilvitskii), `replicates` runs from `seed` keeping the one of least within-cluster sum of squares,
// each run until no label changes or max_iterations. Labels in [0, K); an emptied cluster takes the
// point farthest from its center.
std::vector<int64_t> kmeans(const Matrix& X, int64_t K, int replicates, uint64_t seed, int max_iterations = 300);
// k-means' assignment step: for each row of Y, the index of the nearest row of the centers C (squared
// Euclidean distance, ties to the smaller index), the same rule as kmeans' iterations.
std::vector<int64_t> nearest_centers(const Matrix& Y, const Matrix& C);
// The mean of the rows of X (n x d, dense or sparse) of each label some row has (labels >= 0, n of them),
// in label order: means (c x d) and the label of each. Error(DIMENSION) for n labels not of X's rows,
// INVALID_ARGUMENT for a negative label.
struct ClusterMeans {
    Matrix means;
    std::vector<int64_t> labels;
};
ClusterMeans cluster_means(const Matrix& X, const std::vector<int64_t>& labels);
ClusterMeans cluster_means(const CsrMatrix& X, const std::vector<int64_t>& labels);

// The consensus matrix of several clusterings of the same n points (Monti et al. 2003): C_ij the fraction
// of the clusterings in which i and j share a label (a negative label shares with nothing). n x n.
Matrix consensus_matrix(const std::vector<std::vector<int64_t>>& runs);
// Its stability scores, both 1 when every clustering agrees: the cophenetic correlation (Brunet et al.
// 2004), Pearson's correlation over the pairs i < j of 1 - C_ij with the height at which the
// average-linkage tree of the distances 1 - C first joins i and j (1 when the distances are all equal);
// and the dispersion (Kim & Park 2007), (1 / n^2) sum_ij 4 (C_ij - 1/2)^2, in [0, 1]. O(n^2) time and
// memory.
struct ConsensusScores {
    double cophenetic, dispersion;
};
ConsensusScores consensus_scores(const Matrix& C);

// Kernel k-means (Lloyd's iteration in the space whose inner products are D), through products with D
// alone: one D Z (n x K) per iteration and O(n K) memory whatever D's storage (for D = F F^T, k-means
// of the rows of F). Seeded by k-means++ from `seed` (one product per center); until no label changes
// or max_iterations; an emptied cluster takes the worst-served point. Labels in [0, K).
std::vector<int64_t> kernel_kmeans(const GramOperator& D, int64_t K, uint64_t seed, int max_iterations,
                                   std::size_t threads);
// The same on the rows of D that this process holds (linalg/gram_rows.hpp), collective when D.collectives
// is set: the labels of those rows, every decision taken alike on every process, the clustering that
// one process holding all of D finds (up to the order of the sums, which decides only ties).
std::vector<int64_t> kernel_kmeans(const GramRows& D, int64_t K, uint64_t seed, int max_iterations);

}  // namespace facto
