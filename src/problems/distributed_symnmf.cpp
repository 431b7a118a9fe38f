#include "problems/distributed_symnmf.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "base/error.hpp"
#include "base/random.hpp"
#include "linalg/blas.hpp"
#include "problems/row_blocks.hpp"
#include "problems/symnmf.hpp"

namespace facto {

namespace {

// ||M u - M^T u||^2 and ||u||^2 for the fixed random u, from every process's rows (collective).
std::array<double, 2> asymmetry(const CsrMatrix& rows, int64_t n, int64_t first_row, const Collectives& c)
{
    Rng rng(0x5eed);
    std::vector<double> u(static_cast<std::size_t>(n)), transposed(static_cast<std::size_t>(n), 0.0);
    for (double& x : u) x = rng.uniform() - 0.5;
    std::vector<double> product(static_cast<std::size_t>(rows.rows));
    spmv(rows, u.data(), product.data());
    for (int64_t i = 0; i < rows.rows; ++i)
        for (int64_t k = rows.indptr[i]; k < rows.indptr[i + 1]; ++k)
            transposed[static_cast<std::size_t>(rows.indices[k])] +=
                rows.values[k] * u[static_cast<std::size_t>(first_row + i)];
    c.sum(transposed.data(), transposed.size());
    std::array<double, 2> sums{0.0, 0.0};
    for (int64_t i = 0; i < rows.rows; ++i) {
        const double d = product[i] - transposed[static_cast<std::size_t>(first_row + i)];
        sums[0] += d * d;
    }
    for (double x : u) sums[1] += x * x;
    c.sum(sums.data(), 1);  // ||u||^2 is the same everywhere
    return sums;
}

}  // namespace

DistributedSymNMF::DistributedSymNMF(CsrMatrix rows, int64_t n, int64_t first_row, int64_t r,
                                     std::shared_ptr<const Collectives> c)
    : rows_(std::move(rows)),
      blocks_(RowBlocks::agree(
          std::move(c), first_row, rows_.rows, n,
          [&] {
              require(rows_.cols == n && n > 0, FACTO_ERROR_DIMENSION,
                      "this process's rows of M must have n = " + std::to_string(n) + " > 0 columns, got " +
                          std::to_string(rows_.cols));
              require_block(first_row, rows_.rows, n, "rows", "an n x n M, n");
              SymNMF::require_rank_and_memory(n, r);
          },
          {{"r", static_cast<double>(r)}})),
      r_(r)
{
    const Collectives& comm = blocks_.collectives();
    double sums[2] = {frobenius_norm_squared(rows_), sum_abs(rows_)};
    comm.sum(sums, 2);
    M_norm_ = std::sqrt(sums[0]);
    mean_abs_ = sums[1] / (static_cast<double>(n) * static_cast<double>(n));
    const std::array<double, 2> a = asymmetry(rows_, n, first_row, comm);
    require(std::sqrt(a[0]) <= 1e-10 * M_norm_ * std::sqrt(a[1]), FACTO_ERROR_NOT_SYMMETRIC,
            "M is not symmetric: ||M u - M^T u|| = " + value_text(std::sqrt(a[0])) + " for a random u of norm " +
                value_text(std::sqrt(a[1])) + ", ||M||_F = " + value_text(M_norm_));
    build_halo(blocks_.starts());
}

void DistributedSymNMF::build_halo(const std::vector<int64_t>& starts)
{
    const Collectives& comm = blocks_.collectives();
    const std::size_t P = static_cast<std::size_t>(comm.size());
    const int64_t first = first_row(), last = first_row() + rows_.rows;
    // the distinct columns outside this block, increasing: their holders' ranks increase with them
    std::vector<int64_t> halo(rows_.indices);
    std::sort(halo.begin(), halo.end());
    halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
    halo.erase(std::lower_bound(halo.begin(), halo.end(), first), std::lower_bound(halo.begin(), halo.end(), last));
    std::vector<int64_t> wanted(P, 0);  // rows wanted from each process
    for (int64_t j : halo) ++wanted[static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), j) - starts.begin() - 1)];
    // each process learns how many of its rows, and which, every other one wants
    const std::vector<int64_t> ones(P, 1);
    std::vector<double> wanted_here(wanted.begin(), wanted.end()), asked(P);
    comm.exchange(wanted_here.data(), ones, asked.data(), ones);
    std::vector<int64_t> asked_counts(asked.begin(), asked.end());
    std::vector<double> request(halo.begin(), halo.end()), requested(static_cast<std::size_t>(
                                                                std::accumulate(asked_counts.begin(), asked_counts.end(), int64_t{0})));
    comm.exchange(request.data(), wanted, requested.data(), asked_counts);
    send_rows_.clear();
    for (double j : requested) send_rows_.push_back(static_cast<int64_t>(j) - first);
    for (std::size_t q = 0; q < P; ++q) send_counts_.push_back(asked_counts[q] * r_), receive_counts_.push_back(wanted[q] * r_);
    // columns renumbered into e.gathered's rows, an increasing map: each row's sums keep their order
    below_ = std::lower_bound(halo.begin(), halo.end(), first) - halo.begin();
    for (int64_t& j : rows_.indices)
        j = j >= first && j < last ? below_ + (j - first)
                                   : (std::lower_bound(halo.begin(), halo.end(), j) - halo.begin()) + (j < first ? 0 : rows_.rows);
    rows_.cols = rows_.rows + static_cast<int64_t>(halo.size());
}

double DistributedSymNMF::objective(const Matrix& X) const
{
    agree_on_errors(blocks_.collectives(), [&] { require_shape(X, rows_.rows, r_, "X"); });
    Evaluation e;
    return evaluate(X, e, 1);
}

Matrix DistributedSymNMF::random_point(uint64_t seed) const
{
    return symnmf_random_point(n(), r_, mean_abs_, seed, first_row(), rows_.rows);
}

Matrix DistributedSymNMF::feasible_point(const Matrix& X) const
{
    Matrix feasible;
    agree_on_errors(blocks_.collectives(), [&] {
        require_shape(X, rows_.rows, r_, "iterate");
        feasible = SymNMF::set().feasible_point(X, "symnmf");
    });
    return feasible;
}

double DistributedSymNMF::evaluate(const Matrix& X, Evaluation& e, std::size_t threads) const
{
    const std::size_t rows = static_cast<std::size_t>(rows_.cols), r = static_cast<std::size_t>(r_);
    if (e.gathered.shape()[0] != rows || e.gathered.shape()[1] != r) e.gathered = Matrix({rows, r});
    // the halo: this block's rows the others need out, theirs in, around this block's own
    std::vector<double> send(send_rows_.size() * r);
    for (std::size_t k = 0; k < send_rows_.size(); ++k)
        std::copy_n(X.data() + send_rows_[k] * r_, r, send.data() + k * r);
    // the halo arrives at the front of e.gathered; the rows above this block then move up past it
    blocks_.collectives().exchange(send.data(), send_counts_, e.gathered.data(), receive_counts_);
    const auto below = static_cast<std::ptrdiff_t>(below_ * r_), halo = static_cast<std::ptrdiff_t>(e.gathered.size() - X.size());
    std::copy_backward(e.gathered.begin() + below, e.gathered.begin() + halo, e.gathered.end());
    std::copy(X.begin(), X.end(), e.gathered.begin() + below);
    if (e.first.shape() != X.shape()) e.first = Matrix(X.shape());
    spmm(rows_, e.gathered, e.first, threads);
    // X^T X and <M X, X> summed in one collective
    if (e.second.shape()[0] != r || e.second.shape()[1] != r) e.second = Matrix({r, r});
    blas::gram(X, e.second, threads);
    std::vector<double> sums(e.second.begin(), e.second.end());
    sums.push_back(blas::frobenius_dot(e.first, X));
    reduce_sums(sums.data(), sums.size());
    std::copy(sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(r * r), e.second.begin());
    // eq. (37), halved: f = 1/2 (||M||^2 - 2 <MX, X> + ||X^T X||^2)
    return 0.5 * (M_norm_ * M_norm_ - 2.0 * sums[r * r] + blas::frobenius_dot(e.second, e.second));
}

double DistributedSymNMF::gradient(const Matrix& X, const Evaluation& e, Matrix& G, std::size_t threads) const
{
    double terms = symnmf_gradient_terms(X, e.first, e.second, G, threads);
    reduce_sums(&terms, 1);
    return std::sqrt(terms);
}

}  // namespace facto
