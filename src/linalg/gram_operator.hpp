// NOMAD's D ([TSC]), symmetric n x n, behind the operations its solvers ask of it, so that no
// solver branches on the storage. D is kept as one of
//   - its upper triangle (any symmetric D; n (n + 1) / 2 values; nomad_cgm works on such triangles),
//   - the full square (the fastest block products, one GEMM),
//   - the Gram matrix F F^T of n points (F n x d, the rows), never formed: n d values, and
//     D V = F (F^T V) in 2 n d r multiply-adds (at 70,000 points D itself would take 39 GB),
//   - the same of sparse points centred implicitly, F = s (X - 1 m^T) for CSR X (text's TF-IDF), whose
//     centring would fill every zero: X and X^T's non-zeros and m, products in 4 nnz r,
//   - the same of dense points in single precision (images at 10^6 rows: half of F's memory), centred
//     and scaled in double precision block by block as each product reads them: F's values exactly.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <variant>
#include <vector>

#include "linalg/matrix.hpp"
#include "linalg/sparse.hpp"
#include "linalg/symmetric.hpp"

namespace facto {

// The upper triangle of F F^T (F n x d) by blocks of rows, one GEMM each, in O(256 n) memory:
// visit(first, count, rows, width) sees rows[b * width + j] = f_{first + b} . f_{first + j} for
// b < count and j < width = n - first (the entries left of the diagonal, j < b, are computed too).
void for_each_row_block(const Matrix& F,
                        const std::function<void(std::size_t, std::size_t, const double*, std::size_t)>& visit);

class GramOperator {
public:
    // D by its triangle or as F F^T. The caller has validated the data (finite; D symmetric).
    explicit GramOperator(PackedSymmetric D);
    static GramOperator factored(Matrix F);
    // D = F F^T for F = scale (X - 1 mean^T), X n x d sparse (mean: d values; scale > 0), never densified.
    static GramOperator centered(CsrMatrix X, std::vector<double> mean, double scale);
    // The same for dense X in single precision: F's blocks of rows formed as products read them.
    static GramOperator centered(SingleMatrix X, std::vector<double> mean, double scale);

    std::size_t n() const;
    // D is held as F F^T (dense or centred sparse F): positive semidefinite, of rank at most d.
    bool is_factored() const
    {
        return !std::holds_alternative<std::shared_ptr<const PackedSymmetric>>(storage_) &&
               !std::holds_alternative<Square>(storage_);
    }
    // F when D = F F^T is held as its dense factor, else nullptr.
    const Matrix* factor() const
    {
        const Factor* f = std::get_if<Factor>(&storage_);
        return f ? &f->F : nullptr;
    }
    // F when D = F F^T is held as dense points: the factor itself, or F formed in double precision from
    // single-precision points into `formed` (checked against the memory available); else nullptr.
    const Matrix* dense_factor(Matrix& formed) const
    {
        if (const auto* f = std::get_if<SingleCentered>(&storage_)) return &(formed = factor_of(*f));
        return factor();
    }
    // The values held (n (n + 1) / 2, n^2 or n d), for memory estimates.
    double stored_values() const;

    // y = D x (n values each), on `threads` threads.
    void multiply(const double* x, double* y, std::size_t threads) const;
    // C = U^T D (r x n, row-major) for U n x r (row-major): the Burer-Monteiro gradient's product. On a
    // triangle this is r matrix-vector products; with_fast_products() makes it one GEMM.
    void left_multiply(const double* U, std::size_t r, double* C, std::size_t threads) const;
    // D_ii, i = 0..n-1.
    std::vector<double> diagonal() const;
    // Tr(D Q) for a dense n x n Q.
    double inner(const Matrix& Q) const;
    // ||D||_F (= ||F^T F||_F when factored) and 1^T D 1 (= ||F^T 1||^2).
    double frobenius_norm() const;
    double total() const;
    // lambda_max(D) to 1e-8 relative, 0 when D is negative semidefinite.
    double largest_eigenvalue(std::size_t threads) const;

    // c D stored for block products: a triangle becomes the full square (n^2 values; checked against
    // the memory available), a factor F becomes sqrt(c) F, or the square c F F^T when F has at least as
    // many columns as rows (then no larger than F). Requires c > 0.
    GramOperator with_fast_products(double c) const;
    // D's upper triangle: the one stored, or formed from F or the square (checked against the memory
    // available: `what` names the caller in the message).
    std::shared_ptr<const PackedSymmetric> triangle(const char* what) const;

private:
    struct Factor {
        Matrix F;  // n x d
    };
    struct Square {
        Matrix D;  // n x n, symmetric
    };
    struct Centered {
        std::shared_ptr<const CsrMatrix> X, Xt;  // X and its transpose, shared by c D's copies
        std::vector<double> mean;
        double scale;
        std::vector<double> a;  // X m, for D's rows
        double mm;              // m . m
    };
    struct SingleCentered {
        std::shared_ptr<const SingleMatrix> X;  // shared by c D's copies
        std::vector<double> mean;
        double scale;
    };
    using Storage = std::variant<std::shared_ptr<const PackedSymmetric>, Square, Factor, Centered, SingleCentered>;
    explicit GramOperator(Storage storage) : storage_(std::move(storage)) {}
    // D's rows in blocks of 64 on all threads: visit(first, count, rows) sees rows[b * n + j] = D_{first + b, j},
    // in O(64 n) memory (its norm, Tr(D Q) and its triangle).
    void for_each_centered_block(const Centered& f,
                                 const std::function<void(std::size_t, std::size_t, const double*)>& visit) const;

    // F = s (X - 1 m^T) in double precision by blocks of rows: visit(first, count, F_block) sees
    // F_block[b * d + c] = F_{first + b, c}, in O(1024 d) memory; the whole of F for the passes that
    // need it dense (Tr(D Q), D's triangle, and its norm when n <= d: then D is small).
    static void for_each_factor_block(const SingleCentered& f, std::size_t threads,
                                      const std::function<void(std::size_t, std::size_t, const double*)>& visit);
    static Matrix factor_of(const SingleCentered& f);

    Storage storage_;
};

}  // namespace facto
