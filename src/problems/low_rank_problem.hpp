// The class of Dragomir, d'Aspremont & Bolte's problem (P):  min_X f(X) + g(X),  f(X) = F(X X^T),
// F convex with an L_F-Lipschitz gradient, g = 0 or the indicator of X >= 0. The Bregman solvers
// (nolips) and the Euclidean baselines (projected_gradient, gradient_descent) see a problem only
// through this interface.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "problems/problem.hpp"

namespace facto {

// One nonzero of a sparse n x r matrix: flat row-major index and value.
struct MatrixEntry {
    std::size_t index;
    double value;
};

class LowRankProblem : public Problem {
public:
    // The products at X that evaluate() forms and gradient() reuses: for SymNMF M X and X^T X, for
    // EDM completion the residual of every observed pair (in `first`, `second` unused); the rows of X
    // a distributed problem's product needs, its own and those received from other processes, in
    // `gathered`.
    struct Evaluation {
        Matrix first, second, gathered;
    };

    // True when g is the indicator of X >= 0, the set sets/orthant.hpp (Bregman maps then project, eq. 14).
    virtual bool nonnegative() const = 0;

    // f(X), filling e for gradient(); `threads` for the problem's own parallel loops.
    virtual double evaluate(const Matrix& X, Evaluation& e, std::size_t threads) const = 0;
    // G = grad f(X) from the Evaluation of the same X; returns the stationarity measure of every
    // solver of the class, taken in the same pass: the projected-gradient residual
    // ||X - Pi_+(X - G)|| = ||min(X, G)||_F with X >= 0, ||G||_F without constraints.
    virtual double gradient(const Matrix& X, const Evaluation& e, Matrix& G, std::size_t threads) const = 0;

    // The kernel constants the paper sets for this problem (f is then 1-smooth relative to h_u, or
    // to h_g with beta = alpha): SymNMF alpha = 6, sigma = 2 ||M||_F (Sec. 4.1); EDM alpha = 6 L_EDM,
    // sigma = 2 ||P_Omega(D)|| (Sec. 4.2).
    virtual double default_alpha() const = 0;
    virtual double default_sigma() const = 0;
    // The size of the data: ||M||_F for SymNMF, ||P_Omega(D)|| (each observed pair once) for EDM
    // completion. Scales the stationarity measure (relative_residual).
    virtual double data_norm() const = 0;

    // Optional structure: f(X) = phi(L X, X^T X) with L linear and symmetric, Evaluation::first = L X
    // (SymNMF: L = M). A solver that evaluates Y = a X + b Z + D, with X and Z evaluated and D
    // sparse, may then form L Y = a L X + b L Z + L D instead of multiplying again.
    virtual bool linear_product() const { return false; }
    // out += scale * L D, D given by its entries; only when linear_product().
    virtual void add_linear_product(const std::vector<MatrixEntry>& D, double scale, Matrix& out) const;
    // f(X) when e.first already holds L X: fills the rest of e; only when linear_product().
    virtual double evaluate_given_product(const Matrix& X, Evaluation& e, std::size_t threads) const;
};

// The stationarity measure every solver of the class reports and `tolerance` bounds: the residual of
// LowRankProblem::gradient relative to 2 ||data|| ||X||_F, the size of the terms of grad f (SymNMF:
// grad f = 2 (X X^T - M) X), so that scaling the data by c (and X by sqrt(c)) leaves it unchanged and
// it does not depend on the start. 0 when the residual is 0 (X = 0 with data 0).
inline double relative_residual(const LowRankProblem& problem, double residual, double x_norm)
{
    return residual == 0.0 ? 0.0 : residual / (2.0 * problem.data_norm() * x_norm);
}

// The square of one entry of the stationarity measure (see LowRankProblem::gradient).
inline double stationarity_term(bool nonnegative, double x, double g)
{
    const double m = nonnegative ? std::min(x, g) : g;
    return m * m;
}

}  // namespace facto
