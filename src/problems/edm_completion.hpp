// Euclidean distance matrix completion ([DAB] Sec. 4.2):
//     min_X f(X) = 1/2 sum_{(i,j) in Omega} (||x_i - x_j||^2 - d_ij)^2,   X n x r, unconstrained,
// with Omega a list of observed pairs and d_ij their squared distances. f(X) = F(X X^T) with
// F(Y) = 1/2 ||P_Omega(kappa(Y) - D)||^2 (eq. 15).
//
// The pairs are stored once per endpoint (a symmetric pattern, 12 bytes per incidence), so that the
// objective and the gradient row g_i = 2 sum_{(i,j) in Omega} r_ij (x_i - x_j) come out of one pass
// over the rows, O(|Omega| r), split over threads by rows and independent of the thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "linalg/sparse.hpp"
#include "problems/low_rank_problem.hpp"

namespace facto {

class EdmCompletion final : public LowRankProblem {
public:
    // Pairs (i[k], j[k]) with squared distance d[k] >= 0, k < count: indices in [0, n), i != j; a
    // pair listed twice counts twice. Error INVALID_ARGUMENT / NOT_FINITE / DIMENSION naming the pair.
    EdmCompletion(int64_t n, int64_t r, const int64_t* i, const int64_t* j, const double* d, int64_t count);

    const char* kind() const override { return "edm_completion"; }
    std::array<int64_t, 2> iterate_shape() const override { return {n_, r_}; }
    double objective(const Matrix& X) const override;
    // Gaussian entries scaled so that E ||x_i - x_j||^2 equals the mean observed d.
    Matrix random_point(uint64_t seed) const override;
    // Any finite n x r matrix.
    Matrix feasible_point(const Matrix& X) const override;
    std::vector<OutputSpec> output_specs() const override { return {}; }
    Output output(const std::string& name, const Matrix& X) const override;

    bool nonnegative() const override { return false; }
    // Fills e.first = grad f(X) (fused with the objective) and e.second = the per-row sums of f.
    double evaluate(const Matrix& X, Evaluation& e, std::size_t threads) const override;
    // G = e.first; returns ||G||_F.
    double gradient(const Matrix& X, const Evaluation& e, Matrix& G, std::size_t threads) const override;
    // alpha = 6 L_EDM with L_EDM = 9 max_i |{j : (i, j) in Omega}|; sigma = 2 ||P_Omega(D)||.
    double default_alpha() const override { return 6.0 * 9.0 * static_cast<double>(max_degree_); }
    double default_sigma() const override { return 2.0 * d_norm_; }
    double data_norm() const override { return d_norm_; }

    // The positions of new points (q x r) from their observed squared distances to the fitted points X
    // (n x r): row l of `distances` (q x n, sparse) holds point l's d_lj. Each new point minimizes f's
    // terms in it with X fixed, g(y) = 1/2 sum_j (||y - x_j||^2 - d_lj)^2, the fit's objective in one
    // more row: started at the linear least squares of the differenced equations (multilateration),
    // then by Newton steps with backtracking (gradient steps where the Hessian is indefinite) until
    // ||grad g|| <= 1e-12 (1 + sum_j d_lj ||y - x_j||) or 100 steps. At a stationary X a fitted point's
    // own distances give back a stationary y. Error(DIMENSION) for other columns than n or a point with
    // fewer than r + 1 distances (its position is not determined), OUT_OF_RANGE for a negative d.
    static Matrix apply(const Matrix& X, const CsrMatrix& distances);

    int64_t n() const { return n_; }
    int64_t r() const { return r_; }
    int64_t pairs() const { return static_cast<int64_t>(neighbor_.size() / 2); }

private:
    int64_t n_, r_;
    std::vector<int64_t> indptr_;    // n + 1 offsets into neighbor_ / distance_
    std::vector<uint32_t> neighbor_;  // the other endpoint of each incidence
    std::vector<double> distance_;    // its d_ij
    int64_t max_degree_ = 0;
    double d_norm_ = 0.0, mean_d_ = 0.0;
};

}  // namespace facto
