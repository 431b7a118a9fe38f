// The class of Dragomir, d'Aspremont & Bolte's problem (P):  min_X f(X) + g(X),  f(X) = F(X X^T),
// F convex with an L_F-Lipschitz gradient, g = 0 or the indicator of X >= 0. The Bregman solvers
// (nolips) and the Euclidean baselines (projected_gradient, gradient_descent) see a problem only
// through this interface.
#pragma once

#include <cstddef>

#include "facto/problem.hpp"

namespace facto {

class LowRankProblem : public Problem {
public:
    // The products at X that evaluate() forms and gradient() reuses: for SymNMF M X and X^T X, for
    // EDM completion the residual of every observed pair (in `first`, `second` unused).
    struct Evaluation {
        Matrix first, second;
    };

    // True when g is the indicator of X >= 0 (Bregman maps then project, eq. 14).
    virtual bool nonnegative() const = 0;

    // f(X), filling e for gradient(); `threads` for the problem's own parallel loops.
    virtual double evaluate(const Matrix& X, Evaluation& e, std::size_t threads) const = 0;
    // G = grad f(X) from the Evaluation of the same X.
    virtual void gradient(const Matrix& X, const Evaluation& e, Matrix& G, std::size_t threads) const = 0;

    // The stationarity measure of every solver of the class: the projected-gradient residual
    // ||X - Pi_+(X - G)|| = ||min(X, G)||_F with X >= 0, ||G||_F without constraints.
    double stationarity(const Matrix& X, const Matrix& G) const;

    // The kernel constants the paper sets for this problem (f is then 1-smooth relative to h_u, or
    // to h_g with beta = alpha): SymNMF alpha = 6, sigma = 2 ||M||_F (Sec. 4.1); EDM alpha = 6 L_EDM,
    // sigma = 2 ||P_Omega(D)|| (Sec. 4.2).
    virtual double default_alpha() const = 0;
    virtual double default_sigma() const = 0;
};

}  // namespace facto
