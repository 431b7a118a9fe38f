// Dyn-NoLips (Dragomir et al., App. B Alg. 2) for any problem of the class (P): SymNMF with the
// universal kernel and projection (eq. 14), EDM completion with the universal kernel (eq. 7) or the
// Gram kernel (Prop. 2.4, unconstrained problems only).
//
// Each iteration tries X+ = T_lambda(X) and halves lambda until the decrease condition (22)
//     f(X+) <= f(X) + <grad f(X), X+ - X> + D_h(X+, X) / lambda
// holds, then doubles lambda (up to max_step) for the next iteration. Each trial costs one
// evaluation of f, whose products are reused for the next gradient when accepted. D_h is computed
// as a sum of nonnegative terms, so the test stays meaningful for tiny steps. The stationarity
// measure is ||X - Pi_+(X - grad f(X))||_F (||grad f(X)||_F for unconstrained problems).
#pragma once

#include <memory>
#include <optional>

#include "facto/gram_kernel.hpp"
#include "facto/low_rank_problem.hpp"
#include "facto/solver.hpp"

namespace facto {

class NoLips final : public Solver {
public:
    explicit NoLips(std::shared_ptr<const LowRankProblem> problem);
    const char* algorithm() const override { return "nolips"; }

    // The kernel constants in use (parameters, or the problem's defaults; beta defaults to alpha).
    double alpha() const;
    double beta() const;
    double sigma() const;

private:
    void start(Matrix X0) override;
    double iterate_once() override;
    double current_objective() const override { return f_; }
    double current_stationarity() const override { return residual_; }
    const Matrix& current() const override { return X_; }
    // <X, D>, <D, D>, <grad f(X), D> for D = T - X, and ||T||^2.
    struct Displacement {
        double x_d = 0.0, d_d = 0.0, g_d = 0.0, t_t = 0.0;
    };
    void refresh_gradient();
    void bregman_map(double lambda);
    Displacement displacement();
    double bregman_distance(const Displacement& s);

    std::shared_ptr<const LowRankProblem> low_rank_;
    bool gram_ = false;
    std::optional<GramMap> gram_map_;
    std::size_t threads_ = 1;
    Matrix X_, G_, trial_X_;
    Matrix XtX_, grad_h_, delta_, XtD_, DtD_;  // Gram kernel only
    LowRankProblem::Evaluation eval_, trial_eval_;
    double f_ = 0.0, residual_ = 0.0, x_norm2_ = 0.0;  // x_norm2_ = ||X||^2
    double lambda_ = 0.0;  // step to try first at the next iteration
};

std::vector<ParamSpec> nolips_params();

}  // namespace facto
