// Successive projection (SPA, Gillis & Vavasis): greedy anchor selection.
#pragma once

#include <cstdint>
#include <vector>

#include "linalg/matrix.hpp"

namespace facto {

// K columns of X picked greedily, each the column of largest residual norm after projecting out the
// previous picks (first on ties). Xt is X^T.
class SuccessiveProjection {
public:
    explicit SuccessiveProjection(const Matrix& Xt);
    // Picks the next column and projects it out; returns its index.
    int64_t next();
    const std::vector<int64_t>& selected() const { return selected_; }
    // 1/2 ||residual||_F^2 after the picks so far.
    double residual() const;

private:
    Matrix R_;  // residual, N x M (rows are the columns of X)
    std::vector<double> norm2_;
    std::vector<bool> picked_;
    std::vector<int64_t> selected_;
};

}  // namespace facto
