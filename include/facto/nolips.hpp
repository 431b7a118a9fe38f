// Dyn-NoLips (Dragomir et al., App. B Alg. 2) with the universal kernel, for SymNMF (eq. 14).
//
// Each iteration tries X+ = T_lambda(X) and halves lambda until the decrease condition (22)
//     f(X+) <= f(X) + <grad f(X), X+ - X> + D_h(X+, X) / lambda
// holds, then doubles lambda (up to max_step) for the next iteration. Each trial costs one product
// M X+, reused for the next gradient when accepted. The stationarity measure is the projected-gradient
// residual ||X - Pi_+(X - grad f(X))||_F.
#pragma once

#include <memory>

#include "facto/solver.hpp"
#include "facto/symnmf.hpp"

namespace facto {

class NoLips final : public Solver {
public:
    explicit NoLips(std::shared_ptr<const SymNMF> problem);
    const char* algorithm() const override { return "nolips"; }

    // The kernel constants in use (parameters, or the paper's alpha = 6, sigma = 2 ||M||_F).
    double alpha() const;
    double sigma() const;

private:
    void start(Matrix X0) override;
    double iterate_once() override;
    double current_objective() const override { return f_; }
    double current_stationarity() const override { return residual_; }
    const Matrix& current() const override { return X_; }
    void refresh_gradient();

    std::shared_ptr<const SymNMF> symnmf_;
    Matrix X_, MX_, XtX_, G_;
    Matrix trial_X_, trial_MX_, trial_XtX_;
    double f_ = 0.0, residual_ = 0.0;
    double lambda_ = 0.0;  // step to try first at the next iteration
};

std::vector<ParamSpec> nolips_params();

}  // namespace facto
