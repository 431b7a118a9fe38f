#include "sets/spectraplex.hpp"

#include <cmath>

#include "linalg/blas.hpp"

namespace facto {

namespace {
double mean(const double* x, std::size_t n)
{
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += x[i];
    return sum / static_cast<double>(n);
}
}  // namespace

Eigenpair Spectraplex::linear_minimizer(const std::function<void(const double*, double*)>& product_with, double norm,
                                        std::vector<double>& v, double accuracy) const
{
    const std::size_t n = v.size();
    std::vector<double> centred(n), product(n);
    const auto apply = [&](const double* x, double* y) {
        const double centre = mean(x, n);
        for (std::size_t i = 0; i < n; ++i) centred[i] = x[i] - centre;
        product_with(centred.data(), product.data());
        const double back = mean(product.data(), n);
        for (std::size_t i = 0; i < n; ++i) y[i] = product[i] - back + norm * centre;
    };
    double centre = mean(v.data(), n);  // start orthogonal to 1
    for (double& x : v) x -= centre;
    const Eigenpair pair = smallest_eigenpair(n, apply, v, accuracy, lanczos_steps_);
    // the eigenvector stays in 1^T v = 0 up to rounding; remove what is left
    centre = mean(v.data(), n);
    for (double& x : v) x -= centre;
    const double length = std::sqrt(blas::dot(v.data(), v.data(), n));
    for (double& x : v) x /= length;
    return pair;
}

}  // namespace facto
