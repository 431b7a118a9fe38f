#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/error.hpp"
#include "linalg/successive_projection.hpp"

namespace facto {

SuccessiveProjection::SuccessiveProjection(const Matrix& Xt)
    : R_(Xt), norm2_(Xt.shape()[0], 0.0), picked_(Xt.shape()[0], false)
{
    const std::size_t m = R_.shape()[1];
    for (std::size_t l = 0; l < norm2_.size(); ++l) {
        const double* r = &R_(l, 0);
        for (std::size_t k = 0; k < m; ++k) norm2_[l] += r[k] * r[k];
    }
}

SuccessiveProjection::SuccessiveProjection(const CsrMatrix& Xt)
    : sparse_(&Xt), picked_(static_cast<std::size_t>(Xt.rows), false)
{
    const Vector norms = squared_norms(Xt);
    norm2_.assign(norms.begin(), norms.end());
    point2_ = norm2_;
}

int64_t SuccessiveProjection::next()
{
    const std::size_t n = norm2_.size();
    require(selected_.size() < n, FACTO_ERROR_BAD_STATE, "SPA has already picked every column");
    // the column of largest residual norm not picked yet (first on ties); sparse, a column whose downdated
    // norm was rounding (the picks span it) is set to 0 and the choice made again
    std::size_t j = n;
    for (bool chosen = false; !chosen;) {
        j = n;
        for (std::size_t l = 0; l < n; ++l)
            if (!picked_[l] && (j == n || norm2_[l] > norm2_[j])) j = l;
        chosen = norm2_[j] <= 0.0 || (sparse_ ? project_sparse(j) : (project_dense(j), true));
    }
    selected_.push_back(static_cast<int64_t>(j));
    picked_[j] = true;
    return static_cast<int64_t>(j);
}

void SuccessiveProjection::project_dense(std::size_t j)
{
    const std::size_t n = R_.shape()[0], m = R_.shape()[1];
    const double norm = std::sqrt(norm2_[j]);
    std::vector<double> u(&R_(j, 0), &R_(j, 0) + m);
    for (double& v : u) v /= norm;
    // R := (I - u u^T) R, column by column of X (rows of R_)
    for (std::size_t l = 0; l < n; ++l) {
        double* r = &R_(l, 0);
        const double d = std::inner_product(r, r + m, u.data(), 0.0);
        double s = 0.0;
        for (std::size_t k = 0; k < m; ++k) {
            r[k] -= d * u[k];
            s += r[k] * r[k];
        }
        norm2_[l] = s;
    }
}

bool SuccessiveProjection::project_sparse(std::size_t j)
{
    const CsrMatrix& X = *sparse_;
    // u = x_j minus its components along the earlier directions, twice (classical Gram-Schmidt with
    // reorthogonalization keeps the directions orthonormal to rounding)
    std::vector<double> u(static_cast<std::size_t>(X.cols), 0.0);
    for (int64_t p = X.indptr[j]; p < X.indptr[j + 1]; ++p)
        u[static_cast<std::size_t>(X.indices[static_cast<std::size_t>(p)])] = X.values[static_cast<std::size_t>(p)];
    for (int pass = 0; pass < 2; ++pass)
        for (const std::vector<double>& b : basis_) {
            const double d = std::inner_product(u.begin(), u.end(), b.begin(), 0.0);
            for (std::size_t k = 0; k < u.size(); ++k) u[k] -= d * b[k];
        }
    const double norm = std::sqrt(std::inner_product(u.begin(), u.end(), u.begin(), 0.0));
    // a residual at the rounding level of the point itself is no direction: the picks span x_j
    if (!(norm > 1e-12 * std::sqrt(point2_[j]))) {
        norm2_[j] = 0.0;
        return false;
    }
    for (double& v : u) v /= norm;
    std::vector<double> d(norm2_.size());
    spmv(X, u.data(), d.data());  // u . x_l over x_l's non-zeros
    for (std::size_t l = 0; l < norm2_.size(); ++l) norm2_[l] = std::max(0.0, norm2_[l] - d[l] * d[l]);
    norm2_[j] = 0.0;
    basis_.push_back(std::move(u));
    return true;
}

double SuccessiveProjection::residual() const
{
    return 0.5 * std::accumulate(norm2_.begin(), norm2_.end(), 0.0);
}

}  // namespace facto
