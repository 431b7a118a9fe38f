// The Gram kernel of [DAB] (eq. 10), for unconstrained problems:
//     h_g(X) = alpha/4 ||X||^4 + beta/4 ||X^T X||^2 + sigma/2 ||X||^2,
//     grad h_g(X) = (alpha ||X||^2 + sigma) X + beta X (X^T X),
// and its Bregman iteration map (Prop. 2.4, computed as App. C.2 Alg. 3).
#pragma once

#include <cstdint>

#include "linalg/matrix.hpp"

namespace facto {

struct GramKernel {
    double alpha, beta, sigma;

    // H = grad h_g(X), given XtX = X^T X.
    void gradient(const Matrix& X, const Matrix& XtX, Matrix& H) const;
    // D_h(Y, X) from X^T X, X^T Delta and Delta^T Delta (Delta = Y - X), as nonnegative terms: the
    // universal part (universal_bregman) plus beta/4 ||E||^2 + beta/2 <X^T X, Delta^T Delta> with
    // E = Y^T Y - X^T X = X^T Delta + Delta^T X + Delta^T Delta.
    double bregman(const Matrix& XtX, const Matrix& XtD, const Matrix& DtD) const;
};

// T(V) = argmin_U h_g(U) - <V, U>, i.e. the U with grad h_g(U) = V (eq. 33), for V = grad h_g(X) -
// lambda grad f(X). Keeps mu between calls: Alg. 3 warm-starts its inner NoLips from the previous mu.
class GramMap {
public:
    // tolerance: epsilon of Alg. 3 on ||grad phi(mu)|| / ||eta||; the inner loop also stops when mu
    // stops moving (relative change <= 4 eps), so tolerance 0 solves eq. (12) to working precision;
    // max_inner bounds its iterations.
    GramMap(GramKernel kernel, double tolerance, int64_t max_inner);

    // In place, V := T(V).
    void apply(Matrix& V);
    // Inner iterations of the last apply().
    int64_t last_inner_iterations() const { return last_inner_; }

private:
    void solve_mu(const Vector& eta);  // eq. (12) by universal NoLips (Alg. 3's loop)

    GramKernel kernel_;
    double tolerance_;
    int64_t max_inner_;
    int64_t last_inner_ = 0;
    Vector mu_;
    Matrix P_, C_, T_;
};

}  // namespace facto
