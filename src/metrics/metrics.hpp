// Evaluation metrics.
#pragma once

#include <cstdint>
#include <vector>

#include "linalg/matrix.hpp"

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

}  // namespace facto
