// NOMAD by the alternating direction method of multipliers (Boyd, Parikh, Chu, Peleato & Eckstein 2011,
// Sec. 5, the splitting of a convex problem over the intersection of two sets): with
// S = {Q psd, Q 1 = 1, Tr Q = K} and the orthant,
//     min -Tr(D Q) + I_S(Q) + I_{>= 0}(Z)   s.t.  Q = Z,
// each step in scaled form (U the scaled multiplier of Q = Z):
//     Q := Pi_S(Z - U + D / rho)     (Q = E + the spectraplex projection of J (Z - U + D / rho) J)
//     Z := [Q' + U]_+
//     U := U + Q' - Z                (= min(Q' + U, 0) <= 0)
// with Q' = alpha Q + (1 - alpha) Z, alpha the parameter relaxation (Boyd et al. Sec. 3.4.3).
// Pi_S is spectral (Spectraplex::project: one dense symmetric eigendecomposition), so the method is for
// D small enough to hold as a dense n x n matrix (n up to a few thousand). rho = penalty ||D||_F / sqrt(K),
// the ratio of D's size to Q's (a clustering's Q has ||Q||_F = sqrt(K)).
//
// One solver iteration is `inner_iterations` steps, then the measures: objective Tr(D Q) at the projected Q (psd, Q 1 =
// 1 and Tr Q = K to rounding); stationarity the relative duality gap against NOMAD's Lagrangian dual bound at the
// multiplier Gamma = rho U <= 0 of Q >= 0, certified (solvers/nomad/nomad_dual_bound.hpp; output "upper_bound"); feasibility
// as nomad_cgm's, the largest negative entry of Q relative to K / n and the equality residuals. At a fixed point Q = Z
// is optimal and the bound meets Tr(D Q). The solver honours a given start (Z := Q0, U := 0): a burer_monteiro answer
// can be polished to the SDP's optimum.
#pragma once

#include <memory>
#include <vector>

#include "problems/nomad.hpp"
#include "solvers/nomad/nomad_dual_bound.hpp"
#include "solvers/solver.hpp"

namespace facto {

class NomadAdmm final : public Solver {
public:
    explicit NomadAdmm(std::shared_ptr<const Nomad> problem);
    const char* algorithm() const override { return "nomad_admm"; }

    // An upper bound of NOMAD's optimum max Tr(D Q) at the current multiplier (valid whatever the
    // iterate).
    double upper_bound() const { return bound_; }
    // The problem's outputs at Q, and "upper_bound" (1 x 1).
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name) const override;

private:
    void start(Matrix Q0) override;
    void start_default(uint64_t seed) override { start(nomad_->random_point(seed)); }
    double iterate_once() override;
    double current_objective() const override { return objective_; }
    double current_stationarity() const override { return relative_duality_gap(bound_, objective_); }
    double current_feasibility() const override { return violation_; }
    const Matrix& current() const override { return Q_; }

    // One ADMM step (the three updates above); returns ||Z - Z_old||_F.
    double admm_step();
    // objective_, violation_ and bound_ at Q_ and U_.
    void measure();

    std::shared_ptr<const Nomad> nomad_;
    std::shared_ptr<const PackedSymmetric> D_;  // the problem's triangle, or one formed from its points
    Matrix D_dense_, Q_, Z_, U_, work_;
    double rho_ = 1.0, objective_ = 0.0, violation_ = 0.0, bound_ = 0.0;
    std::size_t threads_ = 1;

    struct Settings {
        int64_t inner_iterations = 0, lanczos_steps = 0;
        double penalty = 0.0, relaxation = 0.0;
        LabelRule labels;
    } settings_;
};

}  // namespace facto
