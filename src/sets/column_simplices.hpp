// The feasible set of the self-dictionary problem: N x N matrices whose columns lie on the probability
// simplex (C >= 0, 1^T C = 1^T), with its sparse iterate SimplexColumns (O(nnz) memory; MERIT's C has
// O(KN) nonzeros). The LMO over it is fused into MERIT's gradient sweep (solvers/self_dictionary/merit_sweep.hpp), the
// set's fast path: the gradient is never formed.
#pragma once

#include <cstdint>
#include <vector>

#include "linalg/matrix.hpp"
#include "sets/simplex.hpp"

namespace facto {

// An N x N matrix whose columns lie on the probability simplex, stored by columns (nonzeros only,
// rows increasing within a column: MERIT's sweep passes them to the product's scan as they are).
struct SimplexColumns {
    struct Entry {
        int64_t row;
        double value;
    };
    std::vector<std::vector<Entry>> columns;

    int64_t nnz() const;
    // C(row, l), 0 where it is not stored. O(log nnz(c_l)).
    double value(std::size_t l, int64_t row) const;
    // Whether row is stored in column l. O(log nnz(c_l)).
    bool contains(std::size_t l, int64_t row) const;
    // Column l := (1 - alpha) column l + alpha e_row (eq. 21; alpha = 1 replaces the column); a new
    // row goes to its place in the column.
    void frank_wolfe_update(std::size_t l, int64_t row, double alpha);
    // Column l moved by `step` along an away or pairwise direction (sets/simplex.hpp): pairwise adds
    // step at row s (its place kept) and takes it from row a; away scales the column by 1 + step and
    // takes step from row a. Row a leaves the column when `dropped` (the whole weight moved) or when
    // rounding leaves it at 0; neither step adds a row that the LMO vertex s did not.
    void away_or_pairwise_update(std::size_t l, const BlockDirection& direction, double step, bool dropped);
    // Column l := (1 - tau) column l + tau target (both on the simplex; target's rows increasing); at
    // tau = 1 the column becomes target.
    void blend(std::size_t l, const std::vector<Entry>& target, double tau);
    static SimplexColumns from_dense(const Matrix& C);
    // C(selected, :) = H, C zero elsewhere, from Ht = H^T (N x |selected|).
    static SimplexColumns from_selected(const std::vector<int64_t>& selected, const Matrix& Ht);
    // Dense rows x columns.size() (rows = N: the columns held may be a block of C's); square by default.
    Matrix to_dense(std::size_t rows) const;
    Matrix to_dense() const { return to_dense(columns.size()); }
};

// The columns first .. first + columns - 1 of the n x n matrices of the set (all of them by default).
class ColumnSimplices {
public:
    explicit ColumnSimplices(int64_t n, int64_t first = 0, int64_t columns = -1)
        : n_(n), first_(first), columns_(columns < 0 ? n : columns)
    {
    }
    // C (n x columns) validated to lie in the set within `tolerance` on each column sum, then
    // renormalized exactly. Throws Error(DIMENSION / NOT_FINITE / INFEASIBLE).
    Matrix feasible_point(const Matrix& C, double tolerance) const;
    // Dense n x columns, every column a vertex e_j with j drawn from seed (one draw per column of all n,
    // so a block holds the same columns as the whole).
    Matrix random_point(uint64_t seed) const;

private:
    int64_t n_, first_, columns_;
};

}  // namespace facto
