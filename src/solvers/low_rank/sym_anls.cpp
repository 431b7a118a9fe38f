#include "solvers/low_rank/sym_anls.hpp"

#include <cmath>
#include <limits>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/nonnegative_least_squares.hpp"

namespace facto {

namespace {

// A := argmin_{A >= 0} 1/2 ||M - A B^T||^2 + mu/2 ||A - B||^2 with B fixed, given MB = M B and
// BtB = B^T B: the normal equations (B^T B + mu I) A^T = (M B)^T + mu B^T, solved exactly for H = A^T
// from H = A^T (the warm start). G and R are work matrices (r x r, r x n).
void exact_block(Matrix& A, const Matrix& B, const Matrix& MB, const Matrix& BtB, double mu, Matrix& H, Matrix& G,
                 Matrix& R)
{
    const std::size_t n = A.shape()[0], r = A.shape()[1];
    G = BtB;
    for (std::size_t k = 0; k < r; ++k) G(k, k) += mu;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k) {
            R(k, i) = MB(i, k) + mu * B(i, k);
            H(k, i) = A(i, k);
        }
    nonnegative_least_squares_exact(G, R, H);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k) A(i, k) = H(k, i);
}

}  // namespace

SymANLS::SymANLS(std::shared_ptr<const SymNMF> problem)
    : SymNMFSolver(std::move(problem),
                   {real_param("mu", 0.1, 0.0, std::numeric_limits<double>::infinity(),
                               "penalty mu/2 ||X - Y||^2 (paper: 0.1 for text, 0.01 for images)")})
{
    mutable_params().bind("mu", mu_);
}

void SymANLS::start(Matrix X0)
{
    Y_ = X0;
    const std::size_t n = X0.shape()[0], r = X0.shape()[1];
    H_ = Matrix({r, n});
    B_normal_ = Matrix({r, n});
    G_normal_ = Matrix({r, r});
    SymNMFSolver::start(std::move(X0));
}

double SymANLS::iterate_once()
{
    symnmf_->evaluate(Y_, y_eval_, threads_);
    exact_block(X_, Y_, y_eval_.first, y_eval_.second, mu_, H_, G_normal_, B_normal_);
    measure();  // M X and X^T X for the Y half, and f at the iterate X
    exact_block(Y_, X_, eval_.first, eval_.second, mu_, H_, G_normal_, B_normal_);
    return 1.0;  // each half moves to its exact block minimizer: a full step
}

double SymANLS::current_feasibility() const
{
    double difference = 0.0;  // ||X - Y||_F^2, without an n x r temporary
    for (std::size_t e = 0; e < X_.size(); ++e)
        difference += (X_.data()[e] - Y_.data()[e]) * (X_.data()[e] - Y_.data()[e]);
    const double x_norm = std::sqrt(blas::frobenius_dot(X_, X_));
    return x_norm > 0.0 ? std::sqrt(difference) / x_norm : 0.0;
}

std::vector<OutputSpec> SymANLS::output_specs() const
{
    std::vector<OutputSpec> specs = Solver::output_specs();
    specs.push_back({"Y", FACTO_OUTPUT_DOUBLE, symnmf_->iterate_shape()[0], symnmf_->iterate_shape()[1]});
    return specs;
}

Output SymANLS::output(const std::string& name) const
{
    if (name != "Y") return Solver::output(name);
    require(started(), FACTO_ERROR_BAD_STATE, "sym_anls: no Y before the solver has started");
    return Output{output_specs().back(), std::vector<double>(Y_.begin(), Y_.end()), {}};
}

}  // namespace facto
