// NOMAD by the conditional gradient augmented Lagrangian of [TSC] (Alg. 2): with
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
// Progress: objective Tr(D Q); stationarity the relative duality gap against the Lagrangian dual bound at the
// multiplier Gamma (solvers/nomad/nomad_dual_bound.hpp: a warm-started Lanczos estimate while Q is infeasible, the certified
// Ky Fan form once the feasibility meets its tolerance); feasibility the larger of max_ij [Q_ij]_- n / K, the largest
// violation of Q >= 0 relative to the entries' mean K / n (the reference implementation's stopping measure), and the
// equality residuals max_i |(Q 1)_i - 1| and |Tr Q - K| / K. CONVERGED needs both below their tolerances. The RMS of
// the negative part is in the "feasibility" output, the dual bound in "upper_bound". The solver takes no iterate
// (set_iterate is UNSUPPORTED): its first step replaces any start.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "problems/nomad.hpp"
#include "sets/spectraplex.hpp"
#include "solvers/nomad/nomad_dual_bound.hpp"
#include "solvers/solver.hpp"

namespace facto {

class NomadCgm final : public Solver {
public:
    explicit NomadCgm(std::shared_ptr<const Nomad> problem);
    const char* algorithm() const override { return "nomad_cgm"; }

    const PackedSymmetric& P() const { return P_; }
    // The multiplier of Q >= 0 (<= 0), as an upper triangle.
    const PackedSymmetric& Gamma() const { return Gamma_; }
    // The Frank-Wolfe gap <grad g, P - H> of the last inner step (before it was taken; +inf before
    // the first).
    double inner_gap() const { return inner_gap_; }
    // Products with the gradient made by the inner steps' Lanczos solves so far (the dual bound's are
    // not counted).
    int64_t products() const { return products_; }
    // An upper bound of NOMAD's optimum max Tr(D Q) from the Lagrangian dual at the current multiplier
    // of Q >= 0, certified (nomad_certified_dual_bound; computed here if the last measure only
    // estimated it), valid whatever the iterate: with the objective of a nearly feasible Q it brackets
    // the optimum.
    double upper_bound() const;
    // The problem's outputs, all but "Q" from the packed iterate without an n x n dense copy, and
    // "upper_bound" (1 x 1).
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name) const override;

private:
    void start(Matrix Q0) override;
    void start_default(uint64_t seed) override;
    double iterate_once() override;
    double current_objective() const override { return objective_; }
    double current_stationarity() const override;
    double current_feasibility() const override { return violation_; }
    const Matrix& current() const override;

    // G = -D + Gamma + gamma [P + E]_- (Alg. 2 line 4); returns ||G||_F.
    double form_gradient();
    // One step of Alg. 1 (lines 5-9 of Alg. 2) at Lanczos accuracy `accuracy`.
    void inner_step(double accuracy);
    // g'(eta) - g'(0) along P + eta ((K - 1) v v^T - P), and g''(eta) in `curvature` (one pass).
    double along(double eta, double& curvature) const;
    // The minimizer over [0, 1] of g along that segment, given g'(0) = slope.
    double exact_step(double slope) const;
    // objective_, violation_ and bound_ at the current P and Gamma.
    void measure();
    // nomad_certified_dual_bound at Gamma_.
    double certified_bound() const;
    // The feasible set, whose LMO runs Lanczos with the parameter lanczos_steps.
    Spectraplex spectraplex() const { return Spectraplex(static_cast<std::size_t>(settings_.lanczos_steps)); }

    std::shared_ptr<const Nomad> nomad_;
    std::shared_ptr<const PackedSymmetric> D_;  // the problem's triangle, or one formed from its points
    PackedSymmetric P_, Gamma_, G_;
    std::vector<double> v_;       // the last eigenvector: the next Lanczos start
    std::vector<double> dual_v_;  // the same for the dual bound's eigenproblem
    int64_t steps_ = 0, outer_ = 0, products_ = 0;
    double objective_ = 0.0, violation_ = 0.0, inner_gap_ = 0.0, mean_D_ = 0.0, penalty_ = 1.0, scale_ = 1.0;
    // the dual bound at Gamma_ (solvers/nomad/nomad_dual_bound.hpp): the Lanczos estimate, or certified
    mutable double bound_ = 0.0;
    mutable bool certified_ = false;
    std::size_t threads_ = 1;
    mutable Matrix dense_;

    // The parameters, bound to the table.
    struct Settings {
        int64_t inner_iterations = 0, lanczos_steps = 0;
        double penalty = 0.0, dual_step = 0.0, lanczos_tolerance = 0.0;
        LabelRule labels;
        bool grow_penalty = true, spectral_scaling = true, line_search = false;
    } settings_;
};

}  // namespace facto
