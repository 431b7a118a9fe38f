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

int64_t SuccessiveProjection::next()
{
    const std::size_t n = R_.shape()[0], m = R_.shape()[1];
    require(selected_.size() < n, FACTO_ERROR_BAD_STATE, "SPA has already picked every column");
    // the column of largest residual norm not picked yet (first on ties)
    std::size_t j = n;
    for (std::size_t l = 0; l < n; ++l)
        if (!picked_[l] && (j == n || norm2_[l] > norm2_[j])) j = l;
    selected_.push_back(static_cast<int64_t>(j));
    picked_[j] = true;
    const double norm = std::sqrt(norm2_[j]);
    if (norm == 0.0) return static_cast<int64_t>(j);  // the residual is already zero
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
    return static_cast<int64_t>(j);
}

double SuccessiveProjection::residual() const
{
    return 0.5 * std::accumulate(norm2_.begin(), norm2_.end(), 0.0);
}

}  // namespace facto
