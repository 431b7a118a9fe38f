// Dyn-NoLips ([DAB] App. B Alg. 2) for any problem of the class (P): SymNMF with the
// universal kernel and projection (eq. 14), EDM completion with the universal kernel (eq. 7) or the
// Gram kernel (Prop. 2.4, unconstrained problems only).
//
// Each iteration tries X+ = T_lambda(X) and halves lambda until the decrease condition (22)
//     f(X+) <= f(X) + <grad f(X), X+ - X> + D_h(X+, X) / lambda
// holds, then doubles lambda (up to max_step) for the next iteration. Each trial costs one
// evaluation of f, whose products are reused for the next gradient when accepted; with the universal
// kernel and a problem whose f has a linear product (SymNMF's M X), a halved trial combines that
// product from the rejected trial's instead of multiplying again (universal_trial). D_h is computed
// as a sum of nonnegative terms, so the test stays meaningful for tiny steps. The stationarity
// measure is ||X - Pi_+(X - grad f(X))||_F (||grad f(X)||_F for unconstrained problems) relative to
// 2 ||data|| ||X||_F (relative_residual). An iteration in which no trial passes (22) is a step of 0:
// the solve ends STALLED.
#pragma once

#include <memory>
#include <optional>

#include "solvers/low_rank/gram_kernel.hpp"
#include "problems/low_rank_problem.hpp"
#include "solvers/solver.hpp"
#include "solvers/low_rank/universal_kernel.hpp"

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
    // Refuses kernel 'gram' on a problem with X >= 0.
    void check_params(const Params& p) const override;
    double current_objective() const override { return f_; }
    double current_stationarity() const override { return residual_; }
    const Matrix& current() const override { return X_; }
    void refresh_gradient();
    // One trial at lambda: T_lambda(X) into trial_X_, its Displacement, and f(T) (returned).
    double universal_trial(double lambda, bool halved);
    double gram_trial(double lambda);
    double halved_numerator(double c, double lambda);
    // The sums of a distributed problem's blocks (Problem::reduce_sums); nothing on one process.
    void reduce(Displacement& s) const;
    double bregman_distance();

    std::shared_ptr<const LowRankProblem> low_rank_;
    bool gram_ = false, reuse_ = false;
    std::optional<GramMap> gram_map_;
    std::size_t threads_ = 1;
    Matrix X_, G_, trial_X_;
    Matrix XtX_, grad_h_, delta_, XtD_, DtD_;  // Gram kernel only
    LowRankProblem::Evaluation eval_, trial_eval_;
    Displacement displacement_;  // of the last trial from X
    double f_ = 0.0, residual_ = 0.0, x_norm2_ = 0.0;  // x_norm2_ = ||X||^2
    double lambda_ = 0.0;  // step to try first at the next iteration
    double tau_ = 0.0;     // tau of the last trial
    std::vector<std::vector<MatrixEntry>> chunk_corrections_;  // Delta of a halved trial, by chunk
    std::vector<MatrixEntry> corrections_;

    // The parameters, bound to the table (a kernel constant 0 = the default).
    struct Settings {
        bool gram_kernel = false;
        double alpha = 0.0, beta = 0.0, sigma = 0.0, initial_step = 0.0, max_step = 0.0, gram_tolerance = 0.0;
        int64_t max_backtracks = 0, gram_max_inner = 0, reuse_products = 0;
    } settings_;
};

std::vector<ParamSpec> nolips_params();

}  // namespace facto
