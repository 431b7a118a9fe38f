#include "linalg/gram_operator.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/lanczos.hpp"
#include "linalg/parallel.hpp"

namespace facto {

namespace {
template <class... F>
struct Visitor : F... {
    using F::operator()...;
};
template <class... F>
Visitor(F...) -> Visitor<F...>;

// C = U^T F F^T (r x n, row-major; U n x r row-major) for F = s (X - 1 m^T): first W = F^T U =
// s (X^T U - m (U^T 1)^T) (d x r, from X^T's rows), then C(k, i) = s (x_i . w_k - m . w_k). Each output
// entry is summed by one thread in a fixed order: the same on any number of threads.
void centered_product(const CsrMatrix& X, const CsrMatrix& Xt, const std::vector<double>& m, double s,
                      const double* U, std::size_t r, double* C, std::size_t threads)
{
    const auto n = static_cast<std::size_t>(X.rows), d = static_cast<std::size_t>(X.cols);
    std::vector<double> column_sums(r, 0.0), W(d * r), mW(r, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k) column_sums[k] += U[i * r + k];
    parallel_for(d, 64, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t c = begin; c < end; ++c) {
            double* w = &W[c * r];
            for (std::size_t k = 0; k < r; ++k) w[k] = -m[c] * column_sums[k];
            for (int64_t p = Xt.indptr[c]; p < Xt.indptr[c + 1]; ++p) {
                const double* u = U + static_cast<std::size_t>(Xt.indices[static_cast<std::size_t>(p)]) * r;
                const double v = Xt.values[static_cast<std::size_t>(p)];
                for (std::size_t k = 0; k < r; ++k) w[k] += v * u[k];
            }
            for (std::size_t k = 0; k < r; ++k) w[k] *= s;
        }
    });
    for (std::size_t c = 0; c < d; ++c)
        for (std::size_t k = 0; k < r; ++k) mW[k] += m[c] * W[c * r + k];
    parallel_for(n, 64, threads, [&](std::size_t begin, std::size_t end) {
        std::vector<double> sum(r);
        for (std::size_t i = begin; i < end; ++i) {
            for (std::size_t k = 0; k < r; ++k) sum[k] = -mW[k];
            for (int64_t p = X.indptr[i]; p < X.indptr[i + 1]; ++p) {
                const double* w = &W[static_cast<std::size_t>(X.indices[static_cast<std::size_t>(p)]) * r];
                const double v = X.values[static_cast<std::size_t>(p)];
                for (std::size_t k = 0; k < r; ++k) sum[k] += v * w[k];
            }
            for (std::size_t k = 0; k < r; ++k) C[k * n + i] = s * sum[k];
        }
    });
}

// Rows of D at a time for the centred storage's passes over all of D (its norm, Tr(D Q), its triangle).
constexpr std::size_t kCenteredRows = 64;
// Rows of F formed at a time from single-precision points: 1024 d doubles (6.3 MB at d = 784), rows
// enough for GEMMs at full speed.
constexpr std::size_t kFactorRows = 1024;
}  // namespace

void for_each_row_block(const Matrix& F,
                        const std::function<void(std::size_t, std::size_t, const double*, std::size_t)>& visit)
{
    const std::size_t n = F.shape()[0], d = F.shape()[1], block = 256;
    std::vector<double> rows(std::min(block, n) * n);
    for (std::size_t first = 0; first < n; first += block) {
        const std::size_t count = std::min(block, n - first), width = n - first;
        blas::gemm(false, true, count, width, d, 1.0, &F(first, 0), d, &F(first, 0), d, 0.0, rows.data(), width);
        visit(first, count, rows.data(), width);
    }
}

GramOperator::GramOperator(PackedSymmetric D) : storage_(std::make_shared<const PackedSymmetric>(std::move(D))) {}

GramOperator GramOperator::factored(Matrix F) { return GramOperator(Factor{std::move(F)}); }

GramOperator GramOperator::centered(CsrMatrix X, std::vector<double> mean, double scale)
{
    // columns without a non-zero (mean 0) add nothing to D: dropped, so that products cost O(nnz r)
    // whatever the vocabulary
    std::vector<int64_t> kept(static_cast<std::size_t>(X.cols), -1);
    for (int64_t c : X.indices) kept[static_cast<std::size_t>(c)] = 0;
    std::vector<double> kept_mean;
    for (std::size_t c = 0; c < kept.size(); ++c)
        if (kept[c] == 0) {
            kept[c] = static_cast<int64_t>(kept_mean.size());
            kept_mean.push_back(mean[c]);
        }
    for (int64_t& c : X.indices) c = kept[static_cast<std::size_t>(c)];
    X.cols = static_cast<int64_t>(kept_mean.size());
    auto Xt = std::make_shared<const CsrMatrix>(transpose(X));
    std::vector<double> a(static_cast<std::size_t>(X.rows), 0.0);
    spmv(X, kept_mean.data(), a.data());
    double mm = 0.0;
    for (double v : kept_mean) mm += v * v;
    return GramOperator(Centered{std::make_shared<const CsrMatrix>(std::move(X)), std::move(Xt), std::move(kept_mean),
                                 scale, std::move(a), mm});
}

GramOperator GramOperator::centered(SingleMatrix X, std::vector<double> mean, double scale)
{
    return GramOperator(SingleCentered{std::make_shared<const SingleMatrix>(std::move(X)), std::move(mean), scale});
}

void GramOperator::for_each_factor_block(const SingleCentered& f, std::size_t threads,
                                         const std::function<void(std::size_t, std::size_t, const double*)>& visit)
{
    // F_ic = (x_ic - m_c) s, as nomad_features forms it from the same values
    const SingleMatrix& X = *f.X;
    const std::size_t n = X.shape()[0], d = X.shape()[1];
    std::vector<double> block(std::min(kFactorRows, n) * d);
    for (std::size_t first = 0; first < n; first += kFactorRows) {
        const std::size_t count = std::min(kFactorRows, n - first);
        parallel_for(count, 64, threads, [&](std::size_t begin, std::size_t end) {
            for (std::size_t b = begin; b < end; ++b) {
                const float* x = &X(first + b, 0);
                double* y = &block[b * d];
                for (std::size_t c = 0; c < d; ++c) y[c] = (static_cast<double>(x[c]) - f.mean[c]) * f.scale;
            }
        });
        visit(first, count, block.data());
    }
}

Matrix GramOperator::factor_of(const SingleCentered& f)
{
    const std::size_t n = f.X->shape()[0], d = f.X->shape()[1];
    require_memory(8.0 * double(n) * double(d), "the points' " + std::to_string(n) + " x " + std::to_string(d) + " factor");
    Matrix F({n, d});
    for_each_factor_block(f, resolve_threads(0), [&](std::size_t first, std::size_t count, const double* block) {
        std::copy(block, block + count * d, &F(first, 0));
    });
    return F;
}

void GramOperator::for_each_centered_block(const Centered& f,
                                           const std::function<void(std::size_t, std::size_t, const double*)>& visit) const
{
    // D_ij = s^2 (x_i . x_j - a_i - a_j + m . m), a = X m; x_i . x_j over x_i's columns' lists in X^T
    const CsrMatrix &X = *f.X, &Xt = *f.Xt;
    const std::size_t n = this->n();
    const double s2 = f.scale * f.scale;
    std::vector<double> rows(kCenteredRows * n);
    for (std::size_t first = 0; first < n; first += kCenteredRows) {
        const std::size_t count = std::min(kCenteredRows, n - first);
        parallel_for(count, 4, resolve_threads(0), [&](std::size_t begin, std::size_t end) {
            for (std::size_t b = begin; b < end; ++b) {
                const std::size_t i = first + b;
                double* row = rows.data() + b * n;
                std::fill(row, row + n, 0.0);
                for (int64_t p = X.indptr[i]; p < X.indptr[i + 1]; ++p) {
                    const auto c = static_cast<std::size_t>(X.indices[static_cast<std::size_t>(p)]);
                    const double v = X.values[static_cast<std::size_t>(p)];
                    for (int64_t q = Xt.indptr[c]; q < Xt.indptr[c + 1]; ++q)
                        row[static_cast<std::size_t>(Xt.indices[static_cast<std::size_t>(q)])] += v * Xt.values[static_cast<std::size_t>(q)];
                }
                for (std::size_t j = 0; j < n; ++j) row[j] = s2 * (row[j] - f.a[i] - f.a[j] + f.mm);
            }
        });
        visit(first, count, rows.data());
    }
}

std::size_t GramOperator::n() const
{
    return std::visit(Visitor{[](const std::shared_ptr<const PackedSymmetric>& T) { return T->n; },
                              [](const Square& S) { return S.D.shape()[0]; },
                              [](const Factor& f) { return f.F.shape()[0]; },
                              [](const Centered& f) { return static_cast<std::size_t>(f.X->rows); },
                              [](const SingleCentered& f) { return f.X->shape()[0]; }},
                      storage_);
}

double GramOperator::stored_values() const
{
    return std::visit(Visitor{[](const std::shared_ptr<const PackedSymmetric>& T) { return double(T->values.size()); },
                              [](const Square& S) { return double(S.D.size()); },
                              [](const Factor& f) { return double(f.F.size()); },
                              [](const Centered& f) { return 2.0 * double(f.X->nnz()) + double(f.mean.size()); },
                              [](const SingleCentered& f) { return double(f.X->size()); }},
                      storage_);
}

void GramOperator::multiply(const double* x, double* y, std::size_t threads) const
{
    left_multiply(x, 1, y, threads);
}

void GramOperator::left_multiply(const double* U, std::size_t r, double* C, std::size_t threads) const
{
    const std::size_t n = this->n();
    std::visit(Visitor{[&](const std::shared_ptr<const PackedSymmetric>& T) {
                           // row k of C is D u_k, u_k column k of U
                           std::vector<double> u(n);
                           for (std::size_t k = 0; k < r; ++k) {
                               for (std::size_t i = 0; i < n; ++i) u[i] = U[i * r + k];
                               facto::multiply(*T, u.data(), C + k * n, threads);
                           }
                       },
                       [&](const Square& S) {
                           // U^T D rather than D U: OpenBLAS then packs the thin operand, 3.3x faster at
                           // n = 1000, r = 32 (0.93 against 3.09 ms)
                           blas::gemm(true, false, r, n, n, 1.0, U, r, S.D.data(), n, 0.0, C, n);
                       },
                       [&](const Factor& f) {
                           // (U^T F) F^T: r x d, then r x n
                           const std::size_t d = f.F.shape()[1];
                           std::vector<double> UtF(r * d);
                           blas::gemm(true, false, r, d, n, 1.0, U, r, f.F.data(), d, 0.0, UtF.data(), d);
                           blas::gemm(false, true, r, n, d, 1.0, UtF.data(), d, f.F.data(), d, 0.0, C, n);
                       },
                       [&](const Centered& f) { centered_product(*f.X, *f.Xt, f.mean, f.scale, U, r, C, threads); },
                       [&](const SingleCentered& f) {
                           // the factored product block by block: U^T F summed over F's blocks, then
                           // C's columns of each block
                           const std::size_t d = f.X->shape()[1];
                           std::vector<double> UtF(r * d, 0.0);
                           for_each_factor_block(f, threads, [&](std::size_t first, std::size_t count, const double* F) {
                               blas::gemm(true, false, r, d, count, 1.0, U + first * r, r, F, d, 1.0, UtF.data(), d);
                           });
                           for_each_factor_block(f, threads, [&](std::size_t first, std::size_t count, const double* F) {
                               blas::gemm(false, true, r, count, d, 1.0, UtF.data(), d, F, d, 0.0, C + first, n);
                           });
                       }},
               storage_);
}

std::vector<double> GramOperator::diagonal() const
{
    std::vector<double> d(n());
    std::visit(Visitor{[&](const std::shared_ptr<const PackedSymmetric>& T) {
                           for (std::size_t i = 0; i < d.size(); ++i) d[i] = T->values[T->start(i)];
                       },
                       [&](const Square& S) {
                           for (std::size_t i = 0; i < d.size(); ++i) d[i] = S.D(i, i);
                       },
                       [&](const Factor& f) {
                           const std::size_t width = f.F.shape()[1];
                           for (std::size_t i = 0; i < d.size(); ++i) d[i] = blas::dot(&f.F(i, 0), &f.F(i, 0), width);
                       },
                       [&](const Centered& f) {
                           // s^2 ||x_i - m||^2 = s^2 (||m||^2 + sum over x_i's non-zeros of x (x - 2 m_c))
                           for (std::size_t i = 0; i < d.size(); ++i) {
                               double sum = f.mm;
                               for (int64_t p = f.X->indptr[i]; p < f.X->indptr[i + 1]; ++p) {
                                   const double x = f.X->values[static_cast<std::size_t>(p)];
                                   sum += x * (x - 2.0 * f.mean[static_cast<std::size_t>(f.X->indices[static_cast<std::size_t>(p)])]);
                               }
                               d[i] = f.scale * f.scale * sum;
                           }
                       },
                       [&](const SingleCentered& f) {
                           const std::size_t width = f.X->shape()[1];
                           for_each_factor_block(f, resolve_threads(0), [&](std::size_t first, std::size_t count, const double* F) {
                               for (std::size_t b = 0; b < count; ++b) d[first + b] = blas::dot(F + b * width, F + b * width, width);
                           });
                       }},
               storage_);
    return d;
}

double GramOperator::inner(const Matrix& Q) const
{
    return std::visit(Visitor{[&](const std::shared_ptr<const PackedSymmetric>& T) {
                                  double sum = 0.0;
                                  for (std::size_t i = 0; i < T->n; ++i)
                                      for (std::size_t j = 0; j < T->n; ++j) sum += (*T)(i, j) * Q(i, j);
                                  return sum;
                              },
                              [&](const Square& S) { return blas::frobenius_dot(S.D, Q); },
                              [&](const Factor& f) {
                                  // Tr(F^T Q F) = <Q F, F>
                                  Matrix QF(f.F.shape());
                                  blas::gemm(false, false, 1.0, Q, f.F, 0.0, QF);
                                  return blas::frobenius_dot(QF, f.F);
                              },
                              [&](const Centered& f) {
                                  // sum_ij D_ij Q_ij over blocks of D's rows
                                  const std::size_t n = Q.shape()[0];
                                  double sum = 0.0;
                                  for_each_centered_block(f, [&](std::size_t first, std::size_t count, const double* rows) {
                                      for (std::size_t b = 0; b < count; ++b) sum += blas::dot(rows + b * n, &Q(first + b, 0), n);
                                  });
                                  return sum;
                              },
                              [&](const SingleCentered& f) { return GramOperator(Factor{factor_of(f)}).inner(Q); }},
                      storage_);
}

double GramOperator::frobenius_norm() const
{
    return std::visit(Visitor{[](const std::shared_ptr<const PackedSymmetric>& T) { return std::sqrt(facto::inner(*T, *T)); },
                              [](const Square& S) { return std::sqrt(blas::frobenius_dot(S.D, S.D)); },
                              [](const Factor& f) {
                                  // ||F F^T||_F = ||F^T F||_F: the smaller of the two Gram matrices
                                  const std::size_t n = f.F.shape()[0], d = f.F.shape()[1];
                                  Matrix G({std::min(n, d), std::min(n, d)});
                                  blas::gemm(d <= n, d > n, 1.0, f.F, f.F, 0.0, G);
                                  return std::sqrt(blas::frobenius_dot(G, G));
                              },
                              [this](const Centered& f) {
                                  // D's rows in blocks: the work of the products of every row with X
                                  const std::size_t n = this->n();
                                  double sum = 0.0;
                                  for_each_centered_block(f, [&](std::size_t, std::size_t count, const double* rows) {
                                      sum += blas::dot(rows, rows, count * n);
                                  });
                                  return std::sqrt(sum);
                              },
                              [](const SingleCentered& f) {
                                  // ||F^T F||_F with F^T F summed over F's blocks (d x d; D itself when n <= d)
                                  const std::size_t n = f.X->shape()[0], d = f.X->shape()[1];
                                  if (n <= d) return GramOperator(Factor{factor_of(f)}).frobenius_norm();
                                  Matrix G = xt::zeros<double>({d, d});
                                  for_each_factor_block(f, resolve_threads(0), [&](std::size_t, std::size_t count, const double* F) {
                                      blas::gemm(true, false, d, d, count, 1.0, F, d, F, d, 1.0, G.data(), d);
                                  });
                                  return std::sqrt(blas::frobenius_dot(G, G));
                              }},
                      storage_);
}

double GramOperator::total() const
{
    const std::size_t n = this->n();
    std::vector<double> ones(n, 1.0), y(n);
    multiply(ones.data(), y.data(), 1);
    double sum = 0.0;
    for (double v : y) sum += v;
    return sum;
}

double GramOperator::largest_eigenvalue(std::size_t threads) const
{
    const std::size_t n = this->n();
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = std::cos(static_cast<double>(i + 1));
    const Eigenpair pair = smallest_eigenpair(
        n,
        [&](const double* x, double* y) {
            multiply(x, y, threads);
            for (std::size_t i = 0; i < n; ++i) y[i] = -y[i];
        },
        v, 1e-8);
    return std::max(-pair.value, 0.0);
}

GramOperator GramOperator::with_fast_products(double c) const
{
    require(c > 0.0 && std::isfinite(c), FACTO_ERROR_INVALID_ARGUMENT, "with_fast_products: c must be positive");
    return std::visit(Visitor{[&](const std::shared_ptr<const PackedSymmetric>& T) {
                                  require_memory(8.0 * double(T->n) * double(T->n),
                                                 "D as a square of order " + std::to_string(T->n));
                                  Matrix D = T->to_dense();
                                  D *= c;
                                  return GramOperator(Square{std::move(D)});
                              },
                              [&](const Square& S) { return GramOperator(Square{S.D * c}); },
                              [&](const Factor& f) {
                                  // with at least as many features as points the square is no larger
                                  // than F and its products cost n^2 r instead of 2 n d r
                                  const std::size_t n = f.F.shape()[0], d = f.F.shape()[1];
                                  if (n > d) return GramOperator(Factor{f.F * std::sqrt(c)});
                                  Matrix D({n, n});
                                  blas::gemm(false, true, c, f.F, f.F, 0.0, D);
                                  for (std::size_t i = 0; i < n; ++i)  // exactly symmetric
                                      for (std::size_t j = 0; j < i; ++j) D(i, j) = D(j, i);
                                  return GramOperator(Square{std::move(D)});
                              },
                              [&](const Centered& f) {
                                  // sqrt(c) F: the non-zeros shared, the scale changed
                                  return GramOperator(Centered{f.X, f.Xt, f.mean, f.scale * std::sqrt(c), f.a, f.mm});
                              },
                              [&](const SingleCentered& f) {
                                  // sqrt(c) F as the points' scale; with at least as many features as
                                  // points, the square (no larger than F in double precision)
                                  if (f.X->shape()[0] <= f.X->shape()[1])
                                      return GramOperator(Factor{factor_of(f)}).with_fast_products(c);
                                  return GramOperator(SingleCentered{f.X, f.mean, f.scale * std::sqrt(c)});
                              }},
                      storage_);
}

std::shared_ptr<const PackedSymmetric> GramOperator::triangle(const char* what) const
{
    if (const auto* T = std::get_if<std::shared_ptr<const PackedSymmetric>>(&storage_)) return *T;
    const std::size_t n = this->n();
    require_memory(8.0 * double(n) * double(n + 1) / 2.0,
                   std::string(what) + ": D's triangle of order " + std::to_string(n));
    if (const auto* S = std::get_if<Square>(&storage_)) return std::make_shared<const PackedSymmetric>(PackedSymmetric::from_upper(S->D));
    auto T = std::make_shared<PackedSymmetric>(n);
    if (const auto* f = std::get_if<Centered>(&storage_)) {
        for_each_centered_block(*f, [&](std::size_t first, std::size_t count, const double* rows) {
            for (std::size_t b = 0; b < count; ++b)
                std::copy(rows + b * n + first + b, rows + (b + 1) * n, &T->values[T->start(first + b)]);
        });
        return T;
    }
    // D_ij = f_i . f_j
    const auto copy_upper = [&](std::size_t first, std::size_t count, const double* rows, std::size_t width) {
        for (std::size_t b = 0; b < count; ++b)
            std::copy(rows + b * width + b, rows + (b + 1) * width, &T->values[T->start(first + b)]);
    };
    if (const auto* single = std::get_if<SingleCentered>(&storage_))
        for_each_row_block(factor_of(*single), copy_upper);
    else
        for_each_row_block(std::get<Factor>(storage_).F, copy_upper);
    return T;
}

}  // namespace facto
