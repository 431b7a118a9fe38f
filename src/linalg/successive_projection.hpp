// Successive projection (SPA, Gillis & Vavasis): greedy anchor selection.
#pragma once

#include <cstdint>
#include <vector>

#include "linalg/matrix.hpp"
#include "linalg/sparse.hpp"

namespace facto {

// K columns of X picked greedily, each the column of largest residual norm after projecting out the
// previous picks (first on ties). Xt is X^T, dense or sparse (CSR, only referred to: it must outlive
// this). Dense, the residual is kept and projected (N x M); sparse, it never is: the picks' residual
// directions u_1, u_2, ... are kept (M values each, orthonormal) and each point's squared residual norm
// is downdated by (u . x_l)^2, O(nnz) per pick, so memory stays in X's non-zeros plus K M. A downdated
// norm is exact to about K eps ||x_l||^2 (the dense residual's to eps^2): a point the picks span can keep
// a rounding-sized norm, so a pick whose residual direction is at the rounding of the point itself is
// set to 0 and the pick made again.
class SuccessiveProjection {
public:
    explicit SuccessiveProjection(const Matrix& Xt);
    explicit SuccessiveProjection(const CsrMatrix& Xt);
    // Picks the next column and projects it out; returns its index.
    int64_t next();
    const std::vector<int64_t>& selected() const { return selected_; }
    // 1/2 ||residual||_F^2 after the picks so far.
    double residual() const;

private:
    void project_dense(std::size_t j);
    // false (and x_j's norm set to 0) when x_j's residual is at the rounding of x_j itself: not a direction
    bool project_sparse(std::size_t j);

    Matrix R_;  // dense: the residual, N x M (rows are the columns of X)
    const CsrMatrix* sparse_ = nullptr;  // sparse: X^T
    std::vector<std::vector<double>> basis_;  // sparse: the picks' unit residual directions
    std::vector<double> point2_;              // sparse: ||x_l||^2
    std::vector<double> norm2_;
    std::vector<bool> picked_;
    std::vector<int64_t> selected_;
};

}  // namespace facto
