// Frank-Wolfe for simplicial SymNMF (Zhao & Gordon, Alg. 1 with the O(nk) LMO of Alg. 2).
//
// Step rules (parameter "step_rule"):
//   open_loop    gamma = 2 / (t + 2)  (the default: fastest to a given objective, docs/benchmarks.md)
//   line_search  exact minimizer over [0, 1] of the quartic gamma -> f(W + gamma D) (beyond the paper)
//   curvature    gamma = min(g / C, 1), Alg. 1 line 6; C = parameter "curvature", 0 = Thm. 3 bound
// Every rule costs one pass over P per iteration: P W is updated as P W + gamma (P S - P W), where
// P S for the one-hot LMO vertex S is a sum of rows of P (no GEMM).
#pragma once

#include "facto/simplicial_symnmf_solver.hpp"

namespace facto {

class FrankWolfe final : public SimplicialSymNMFSolver {
public:
    explicit FrankWolfe(std::shared_ptr<const SimplicialSymNMF> problem);
    const char* algorithm() const override { return "frank_wolfe"; }

    // Coefficients of gamma -> f(W + gamma D) for the current FW direction (for tests and tools).
    Quartic current_line() const;
    // The curvature constant C used by the curvature rule.
    double curvature_constant();

private:
    void start(Matrix W0) override;
    double iterate_once() override;
    void direction(Matrix& D, Matrix& PD, Matrix& work) const;

    Matrix D_, PD_, work_;
    double curvature_ = 0.0;  // cached Thm. 3 bound (0 = not computed yet)
};

std::vector<ParamSpec> frank_wolfe_params();

}  // namespace facto
