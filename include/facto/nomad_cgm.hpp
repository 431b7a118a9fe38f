// NOMAD by the conditional gradient augmented Lagrangian of Tepper et al. (paper 003, Alg. 2): with
// P = Q - E (E = 1 1^T / n), the method of multipliers on the constraint P + E >= 0 (eq. 13-15), each
// inner problem min g(P, Gamma) over {P psd, Tr P = K - 1, P 1 = 0} taken by `inner_iterations` steps
// of Alg. 1, whose linear step is the smallest eigenvector of J grad g J (J = I - E) orthogonal to 1,
// found matrix-free by facto's Lanczos to the accuracy 1 / (t + 1) at outer iteration t (times the
// parameter lanczos_tolerance).
//
// One solver iteration is one outer iteration of Alg. 2: the inner steps, then
// Gamma := [Gamma + tau (P + E)]_-. gamma and tau are multiplied by lambda_max(D) / (3.90625 K)
// (parameter penalty_scaling; 3.90625 = 62.5 / 16 is lambda_max(D) / K on the paper's two rings with
// n = 200, K = 16, where the paper's gamma = tau = 1 reproduce the authors' results). Scaling D by c is
// scaling gamma and tau by 1 / c, and Q's entries are ~K / n: with the paper's values a penalty too weak
// for D kept the first step's infeasible P (two rings, n = 1000), and one too strong drifted away from
// the optimum (Fashion-MNIST with K = 128; the open-loop steps' stall on noisy rings with n = 100).
// The penalty grows as gamma sqrt(t + 1), as the authors' code does
// (parameter penalty_growth; "none" keeps it fixed as Alg. 2 is printed, which measured drifting away
// from the optimum, docs/architecture.md). The steps are 2 / (k + 2) over all inner steps
// k = 0, 1, ... (the first replaces the start, so every iterate satisfies P 1 = 0 and Tr P = K - 1
// exactly, in exact arithmetic), or with step_rule "line_search" the larger of that and the exact
// minimizer of g along the step. P, Gamma and the gradient are kept as upper triangles.
//
// Progress: objective Tr(D Q); stationarity the larger of max_ij [Q_ij]_- n / K, the largest violation
// of Q >= 0 relative to the entries' mean K / n (the reference implementation's stopping measure), and
// the last inner step's Frank-Wolfe gap relative to max(1, |Tr(D Q)|) (+inf before the first step);
// the RMS of the negative part and the equality residuals are the "feasibility" output.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "facto/nomad.hpp"
#include "facto/solver.hpp"

namespace facto {

class NomadCgm final : public Solver {
public:
    explicit NomadCgm(std::shared_ptr<const Nomad> problem);
    const char* algorithm() const override { return "nomad_cgm"; }

    const PackedSymmetric& P() const { return P_; }
    // The Frank-Wolfe gap <grad g, P - H> of the last inner step (before it was taken; +inf before
    // the first).
    double inner_gap() const { return inner_gap_; }
    // Products with the gradient made by the Lanczos steps so far.
    int64_t products() const { return products_; }
    // The problem's outputs; all but "Q" from the packed iterate, without an n x n dense copy.
    Output output(const std::string& name) const override;

private:
    void start(Matrix Q0) override;
    double iterate_once() override;
    double current_objective() const override { return objective_; }
    double current_stationarity() const override
    {
        return std::max(violation_, inner_gap_ / std::max(1.0, std::fabs(objective_)));
    }
    const Matrix& current() const override;

    // G = -D + Gamma + gamma [P + E]_- (Alg. 2 line 4); returns ||G||_F.
    double form_gradient();
    // One step of Alg. 1 (lines 5-9 of Alg. 2) at Lanczos accuracy `accuracy`.
    void inner_step(double accuracy);
    // g'(eta) - g'(0) along P + eta ((K - 1) v v^T - P), and g''(eta) in `curvature` (one pass).
    double along(double eta, double& curvature) const;
    // The minimizer over [0, 1] of g along that segment, given g'(0) = slope.
    double exact_step(double slope) const;
    // objective_ and violation_ at the current P.
    void measure();

    std::shared_ptr<const Nomad> nomad_;
    PackedSymmetric P_, Gamma_, G_;
    std::vector<double> v_;  // the last eigenvector: the next Lanczos start
    int64_t steps_ = 0, outer_ = 0, products_ = 0;
    double objective_ = 0.0, violation_ = 0.0, inner_gap_ = 0.0, mean_D_ = 0.0, penalty_ = 1.0, scale_ = 1.0;
    std::size_t threads_ = 1;
    mutable Matrix dense_;
};

}  // namespace facto
