#include "linalg/sparse.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>

#include "base/error.hpp"
#include "linalg/parallel.hpp"

namespace facto {

namespace {
std::string entry_name(int64_t k, int64_t i, int64_t j)
{
    return "entry " + std::to_string(k) + " at (" + std::to_string(i) + ", " + std::to_string(j) + ")";
}
}  // namespace

CsrMatrix csr_from_triplets(int64_t rows, int64_t cols, const int64_t* row, const int64_t* col, const double* value,
                            int64_t nnz)
{
    require(rows >= 0 && cols >= 0 && nnz >= 0, FACTO_ERROR_INVALID_ARGUMENT,
            "sparse matrix: negative size: rows = " + std::to_string(rows) + ", cols = " + std::to_string(cols) +
                ", nnz = " + std::to_string(nnz));
    for (const auto& [array, name] : {std::pair<const void*, const char*>{row, "row"}, {col, "column"}, {value, "value"}})
        require(nnz == 0 || array != nullptr, FACTO_ERROR_NULL_POINTER,
                std::string("sparse matrix: the ") + name + " array is NULL (nnz = " + std::to_string(nnz) + ")");
    // the offsets, the order, the indices and the values
    require_memory(8.0 * (static_cast<double>(rows) + 1.0) + 24.0 * static_cast<double>(nnz),
                   "sparse matrix " + std::to_string(rows) + " x " + std::to_string(cols) + " with " +
                       std::to_string(nnz) + " entries");
    for (int64_t k = 0; k < nnz; ++k) {
        if (row[k] < 0 || row[k] >= rows || col[k] < 0 || col[k] >= cols)
            throw Error(FACTO_ERROR_INVALID_ARGUMENT, "sparse matrix: " + entry_name(k, row[k], col[k]) +
                                                          " is outside " + std::to_string(rows) + " x " +
                                                          std::to_string(cols));
        if (!(std::fabs(value[k]) <= kMaxMagnitude))
            throw Error(std::isfinite(value[k]) ? FACTO_ERROR_OUT_OF_RANGE : FACTO_ERROR_NOT_FINITE,
                        "sparse matrix: " + entry_name(k, row[k], col[k]) + " is " + value_text(value[k]) +
                            (std::isfinite(value[k]) ? ", above 1e100 in magnitude: rescale the data" : ""));
    }
    // Order by (row, col), then sum duplicates.
    std::vector<int64_t> order(static_cast<std::size_t>(nnz));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return row[a] != row[b] ? row[a] < row[b] : col[a] < col[b]; });
    CsrMatrix A;
    A.rows = rows;
    A.cols = cols;
    A.indptr.assign(static_cast<std::size_t>(rows) + 1, 0);
    for (std::size_t t = 0; t < order.size(); ++t) {
        const int64_t k = order[t];
        if (t > 0 && row[order[t - 1]] == row[k] && col[order[t - 1]] == col[k]) {
            A.values.back() += value[k];
            continue;
        }
        A.indices.push_back(col[k]);
        A.values.push_back(value[k]);
        A.indptr[static_cast<std::size_t>(row[k]) + 1] += 1;
    }
    std::partial_sum(A.indptr.begin(), A.indptr.end(), A.indptr.begin());
    return A;
}

CsrMatrix csr_from_compressed(int64_t rows, int64_t cols, const int64_t* indptr, const int64_t* indices,
                              const double* values, bool by_columns)
{
    const int64_t outer = by_columns ? cols : rows;
    require(rows >= 0 && cols >= 0, FACTO_ERROR_INVALID_ARGUMENT,
            "sparse matrix: negative shape " + std::to_string(rows) + " x " + std::to_string(cols));
    require(indptr != nullptr, FACTO_ERROR_NULL_POINTER, "sparse matrix: indptr is NULL");
    require(indptr[0] == 0, FACTO_ERROR_INVALID_ARGUMENT,
            "sparse matrix: indptr[0] must be 0, got " + std::to_string(indptr[0]));
    for (int64_t i = 0; i < outer; ++i)
        if (indptr[i + 1] < indptr[i])
            throw Error(FACTO_ERROR_INVALID_ARGUMENT, "sparse matrix: indptr decreases at " + std::to_string(i) + ": " +
                                                          std::to_string(indptr[i]) + " then " +
                                                          std::to_string(indptr[i + 1]));
    const int64_t nnz = indptr[outer];
    require_memory(8.0 * static_cast<double>(nnz), "sparse matrix with " + std::to_string(nnz) + " entries");
    std::vector<int64_t> major(static_cast<std::size_t>(nnz));
    for (int64_t i = 0; i < outer; ++i)
        std::fill(major.begin() + indptr[i], major.begin() + indptr[i + 1], i);
    return by_columns ? csr_from_triplets(rows, cols, indices, major.data(), values, nnz)
                      : csr_from_triplets(rows, cols, major.data(), indices, values, nnz);
}

namespace {
// y[c0, c0 + W) = A(i, :) X(:, c0, c0 + W): W accumulators stay in registers while the row's
// nonzeros stream by, instead of a load and store of y per nonzero.
template <std::size_t W>
void row_times_columns(const CsrMatrix& A, std::size_t i, const double* X, std::size_t k, std::size_t c0, double* y)
{
    double acc[W] = {};
    for (int64_t p = A.indptr[i]; p < A.indptr[i + 1]; ++p) {
        const double a = A.values[static_cast<std::size_t>(p)];
        const double* x = X + static_cast<std::size_t>(A.indices[static_cast<std::size_t>(p)]) * k + c0;
        for (std::size_t c = 0; c < W; ++c) acc[c] += a * x[c];
    }
    std::copy(acc, acc + W, y + c0);
}
}  // namespace

void spmm(const CsrMatrix& A, const Matrix& X, Matrix& Y, std::size_t threads)
{
    const std::size_t k = X.shape()[1];
    require(static_cast<int64_t>(X.shape()[0]) == A.cols && static_cast<int64_t>(Y.shape()[0]) == A.rows &&
                Y.shape()[1] == k,
            FACTO_ERROR_INTERNAL, "spmm: shapes do not fit");
    parallel_for(static_cast<std::size_t>(A.rows), 256, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            double* y = &Y(i, 0);
            std::size_t c = 0;
            for (; c + 16 <= k; c += 16) row_times_columns<16>(A, i, X.data(), k, c, y);
            for (; c + 4 <= k; c += 4) row_times_columns<4>(A, i, X.data(), k, c, y);
            for (; c < k; ++c) row_times_columns<1>(A, i, X.data(), k, c, y);
        }
    });
}

void spmv(const CsrMatrix& A, const double* x, double* y)
{
    for (std::size_t i = 0; i < static_cast<std::size_t>(A.rows); ++i) row_times_columns<1>(A, i, x, 1, 0, y + i);
}

std::pair<double, double> distance_and_dot(const CsrMatrix& Y, std::size_t i, const CsrMatrix& X, std::size_t j)
{
    auto a = Y.indptr[i], b = X.indptr[j];
    const auto a_end = Y.indptr[i + 1], b_end = X.indptr[j + 1];
    double d2 = 0.0, dot = 0.0;
    while (a < a_end || b < b_end) {
        const int64_t ca = a < a_end ? Y.indices[static_cast<std::size_t>(a)] : INT64_MAX;
        const int64_t cb = b < b_end ? X.indices[static_cast<std::size_t>(b)] : INT64_MAX;
        const double y = ca <= cb ? Y.values[static_cast<std::size_t>(a)] : 0.0;
        const double x = cb <= ca ? X.values[static_cast<std::size_t>(b)] : 0.0;
        d2 += (y - x) * (y - x);
        if (ca == cb) dot += y * x;
        a += ca <= cb ? 1 : 0;
        b += cb <= ca ? 1 : 0;
    }
    return {d2, dot};
}

Vector squared_norms(const CsrMatrix& X)
{
    Vector out = xt::zeros<double>({static_cast<std::size_t>(X.rows)});
    for (std::size_t i = 0; i < out.size(); ++i)
        for (int64_t p = X.indptr[i]; p < X.indptr[i + 1]; ++p) out(i) += X.values[static_cast<std::size_t>(p)] * X.values[static_cast<std::size_t>(p)];
    return out;
}

Matrix dense_from_csr(const CsrMatrix& A)
{
    require_memory(8.0 * static_cast<double>(A.rows) * static_cast<double>(A.cols),
                   "a " + std::to_string(A.rows) + " x " + std::to_string(A.cols) + " sparse matrix made dense");
    Matrix D({static_cast<std::size_t>(A.rows), static_cast<std::size_t>(A.cols)}, 0.0);
    for (std::size_t i = 0; i < static_cast<std::size_t>(A.rows); ++i)
        for (int64_t p = A.indptr[i]; p < A.indptr[i + 1]; ++p)
            D(i, static_cast<std::size_t>(A.indices[static_cast<std::size_t>(p)])) += A.values[static_cast<std::size_t>(p)];
    return D;
}

CsrMatrix csr_from_dense(const DenseRows& A)
{
    CsrMatrix S{static_cast<int64_t>(A.n), static_cast<int64_t>(A.p), {0}, {}, {}};
    for (std::size_t i = 0; i < A.n; ++i) {
        for (std::size_t j = 0; j < A.p; ++j)
            if (A(i, j) != 0.0) {
                S.indices.push_back(static_cast<int64_t>(j));
                S.values.push_back(A(i, j));
            }
        S.indptr.push_back(S.nnz());
    }
    return S;
}

CsrMatrix transpose(const CsrMatrix& A)
{
    CsrMatrix T;
    T.rows = A.cols, T.cols = A.rows;
    T.indptr.assign(static_cast<std::size_t>(A.cols) + 1, 0);
    for (int64_t j : A.indices) ++T.indptr[static_cast<std::size_t>(j) + 1];
    std::partial_sum(T.indptr.begin(), T.indptr.end(), T.indptr.begin());
    T.indices.resize(A.indices.size());
    T.values.resize(A.values.size());
    std::vector<int64_t> next(T.indptr.begin(), T.indptr.end() - 1);
    for (int64_t i = 0; i < A.rows; ++i)  // rows in order: each column of T comes out sorted
        for (int64_t p = A.indptr[static_cast<std::size_t>(i)]; p < A.indptr[static_cast<std::size_t>(i) + 1]; ++p) {
            const auto q = static_cast<std::size_t>(next[static_cast<std::size_t>(A.indices[static_cast<std::size_t>(p)])]++);
            T.indices[q] = i;
            T.values[q] = A.values[static_cast<std::size_t>(p)];
        }
    return T;
}

CsrMatrix select_rows(const CsrMatrix& A, const std::vector<int64_t>& rows)
{
    CsrMatrix S;
    S.rows = static_cast<int64_t>(rows.size()), S.cols = A.cols;
    S.indptr.assign(rows.size() + 1, 0);
    for (std::size_t k = 0; k < rows.size(); ++k) {
        require(rows[k] >= 0 && rows[k] < A.rows, FACTO_ERROR_INVALID_ARGUMENT,
                "row " + std::to_string(rows[k]) + " (entry " + std::to_string(k) + ") is outside [0, " +
                    std::to_string(A.rows) + ")");
        const auto i = static_cast<std::size_t>(rows[k]);
        S.indptr[k + 1] = S.indptr[k] + A.indptr[i + 1] - A.indptr[i];
        S.indices.insert(S.indices.end(), A.indices.begin() + A.indptr[i], A.indices.begin() + A.indptr[i + 1]);
        S.values.insert(S.values.end(), A.values.begin() + A.indptr[i], A.values.begin() + A.indptr[i + 1]);
    }
    return S;
}

double frobenius_norm_squared(const CsrMatrix& A)
{
    double sum = 0.0;
    for (double v : A.values) sum += v * v;
    return sum;
}

double sum_abs(const CsrMatrix& A)
{
    double sum = 0.0;
    for (double v : A.values) sum += std::fabs(v);
    return sum;
}

void require_symmetric(const CsrMatrix& A, const char* what)
{
    require(A.rows == A.cols, FACTO_ERROR_DIMENSION,
            std::string(what) + " must be square, got " + std::to_string(A.rows) + " x " + std::to_string(A.cols));
    double scale = std::numeric_limits<double>::min();
    for (double v : A.values) scale = std::max(scale, std::fabs(v));
    // A_ji by binary search in row j (columns are sorted).
    const auto at = [&](int64_t i, int64_t j) {
        const auto first = A.indices.begin() + A.indptr[i], last = A.indices.begin() + A.indptr[i + 1];
        const auto it = std::lower_bound(first, last, j);
        return it != last && *it == j ? A.values[static_cast<std::size_t>(it - A.indices.begin())] : 0.0;
    };
    for (int64_t i = 0; i < A.rows; ++i)
        for (int64_t p = A.indptr[i]; p < A.indptr[i + 1]; ++p) {
            const int64_t j = A.indices[static_cast<std::size_t>(p)];
            const double difference = A.values[static_cast<std::size_t>(p)] - at(j, i);
            if (std::fabs(difference) > 1e-10 * scale)
                throw Error(FACTO_ERROR_NOT_SYMMETRIC, std::string(what) + " is not symmetric: " + what + "(" +
                                                           std::to_string(i) + ", " + std::to_string(j) + ") - " +
                                                           what + "(" + std::to_string(j) + ", " + std::to_string(i) +
                                                           ") = " + std::to_string(difference));
        }
}

}  // namespace facto
