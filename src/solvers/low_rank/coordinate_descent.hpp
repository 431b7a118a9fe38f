// Coordinate descent for SymNMF (Vandaele, Gillis, Lei, Zhong & Dhillon 2016), a baseline of Dragomir
// et al. Sec. 4.1. Each entry x_ik in turn moves to the exact minimizer over x_ik >= 0 of the quartic
// ||M - X X^T||^2 restricted to that entry:
//     y = x_ik + s minimizes y^4/4 + P y^2/2 + Q y over y >= 0, with
//     p = (X^T X)_kk + x_ik^2 - R_ii,  P = p - 3 x_ik^2,  Q = 2 x_ik^3 - p x_ik - (R X)_ik,
// R = M - X X^T. Row i of M X is formed once per row (O(nnz(M_i) r)); X^T X, ||x_i||^2 and (M X)_ik are
// updated after each move, so a sweep costs O(nnz(M) r + n r^2), like one gradient.
#pragma once

#include "solvers/low_rank/symnmf_solver.hpp"

namespace facto {

class CoordinateDescent final : public SymNMFSolver {
public:
    explicit CoordinateDescent(std::shared_ptr<const SymNMF> problem);
    const char* algorithm() const override { return "coordinate_descent"; }

private:
    double iterate_once() override;
    void update_row(std::size_t i, Matrix& XtX, double* mx_row);
};

}  // namespace facto
