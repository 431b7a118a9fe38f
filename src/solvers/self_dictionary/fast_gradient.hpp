// FastGradient (Gillis & Luce 2018, "A fast gradient method for nonnegative sparse regression with
// self-dictionary", FGNSR), the convex baseline of [NFW] (Tables II and IV, the memory comparison
// of Figs. 6 and 7), on the self_dictionary problem:
//     min_X 1/2 ||M - M X||_F^2 + mu p^T diag(X)
//     s.t. X >= 0, X_ii <= 1, w_i X_ij <= w_j X_ii   (w: the column 1-norms of M),
// X dense N x N, by Nesterov's accelerated projected gradient with constant step 1 / sigma_max(M)^2,
// restarted whenever the objective rises; the rows are projected onto the constraint polyhedron
// exactly (Newton's method on the diagonal entry, a few O(N) passes per row). The K anchors are the
// largest diagonal entries. Like the authors' code: X starts at 0, p = 1 plus a 1% spread drawn from
// the seed, mu and p are scaled from SPA's residual, and mu moves at each restart toward Tr X = K/2 + 1.
// Memory: three N x N matrices (X, the extrapolated point, and the step's target), refused by the
// memory check when they do not fit (about 9.6 GB at N = 20000), against MERIT's O(N K).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "sets/dominant_diagonal.hpp"
#include "solvers/self_dictionary/self_dictionary_solver.hpp"

namespace facto {

// Objective: the penalized objective above; stationarity: the relative change of diag(X) in the last
// step (CONVERGED below `tolerance`). C(J, :) is the simplex-constrained least squares on the current
// anchors J after every step, so the outputs follow the iterate.
class FastGradient final : public SelfDictionarySolver {
public:
    explicit FastGradient(std::shared_ptr<const SelfDictionary> problem);
    const char* algorithm() const override { return "fast_gradient"; }

private:
    void start(Matrix C0) override;
    void start_default(uint64_t seed) override;
    double iterate_once() override;
    double current_objective() const override { return objective_; }
    double current_stationarity() const override { return diagonal_change_; }

    // ||M - M X||_F^2 for the current X.
    double residual_squared() const;
    // C's anchors from the largest diagonal entries of X.
    void update_columns();

    Matrix X_, Y_, Z_;          // iterate, extrapolated point, projected step (the previous iterate after a step)
    std::vector<double> p_;      // diagonal weights
    std::optional<DominantDiagonal> rows_;  // the feasible set, from the column 1-norms of M
    double mu_ = 0.0, sigma_ = 0.1, step_ = 0.0, alpha_ = 0.05, objective_ = 0.0, diagonal_change_ = 0.0;
    int sigma_direction_ = 0;
    bool restarted_ = false;
};

}  // namespace facto
