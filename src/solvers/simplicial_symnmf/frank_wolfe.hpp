// Frank-Wolfe for simplicial SymNMF ([ZG] Alg. 1 with the O(nk) LMO of Alg. 2), and its
// away-step and pairwise variants (Lacoste-Julien & Jaggi 2015; beyond the paper).
//
// Variants (parameter "variant"):
//   pairwise  each row moves mass from its away vertex to its LMO vertex (the default: it converges
//             linearly where vanilla's gap falls as 1/t; docs/benchmarks.md, "Defaults that finish")
//   vanilla   every row moves toward its LMO vertex with one common step (Alg. 1, the paper's)
//   away      each row moves toward its LMO vertex or away from its away vertex (the support's
//             largest gradient entry), whichever gap is larger
// A row's away or pairwise step is bounded by the weight on its away vertex (a drop step zeroes it).
//
// Step rules of the vanilla variant (parameter "step_rule"; "auto" = open_loop):
//   open_loop    gamma = 2 / (t + 2)  (vanilla's default: fastest to a given objective, docs/benchmarks.md)
//   line_search  exact minimizer over [0, 1] of the quartic gamma -> f(W + gamma D) (beyond the paper)
//   curvature    gamma = min(g / C, 1), Alg. 1 line 6; C = parameter "curvature", 0 = Thm. 3 bound
// Every rule costs one pass over P per iteration: P W is updated as P W + gamma (P S - P W), where
// P S for the one-hot LMO vertex S is a sum of rows of P (no GEMM).
//
// The away and pairwise variants always take exact steps ("auto" or "line_search"), row by row: the
// rows in turn, each moved by the exact minimizer of its own quartic at the current W, within its bound
// (block-coordinate Frank-Wolfe with exact block steps). W^T W follows each move; P W follows in
// chunks of rows (a row's P W row is corrected for its chunk's earlier moves from the chunk's block of
// P), so P is read once per pass, on `threads` threads. An iteration is one pass over the rows. docs/architecture.md says why the rows move
// in turn rather than together. The stationarity reported is the Frank-Wolfe gap relative to the
// objective at the start (relative_gap); output "gaps" gives it absolute with the away and pairwise gaps.
#pragma once

#include "sets/row_simplices.hpp"
#include "solvers/simplicial_symnmf/simplicial_symnmf_solver.hpp"

namespace facto {

class FrankWolfe final : public SimplicialSymNMFSolver {
public:
    explicit FrankWolfe(std::shared_ptr<const SimplicialSymNMF> problem);
    const char* algorithm() const override { return "frank_wolfe"; }

    // Coefficients of gamma -> f(W + gamma D) for the current vanilla FW direction (for tests and tools).
    Quartic current_line() const;
    // The curvature constant C used by the curvature rule.
    double curvature_constant();

private:
    void start(Matrix W0) override;
    double iterate_once() override;
    // Refuses a step_rule other than auto or line_search with the away and pairwise variants.
    void check_params(const Params& p) const override;
    double vanilla_step();
    void direction(Matrix& D, Matrix& PD, Matrix& work) const;
    // Row i's away or pairwise direction at gradient row g (into d, k entries) and its exact step.
    double row_step(std::size_t i, const double* g, const double* pw, BlockDirection& choice, double* d) const;
    double sweep_rows();

    enum class StepRule { open_loop, line_search, curvature };
    // bound to the parameters "variant", "step_rule" (auto = open_loop) and "curvature"
    FrankWolfeVariant variant_ = FrankWolfeVariant::vanilla;
    StepRule step_rule_ = StepRule::open_loop;
    double given_curvature_ = 0.0;
    Matrix D_, PD_, work_;
    double curvature_ = 0.0;    // cached Thm. 3 bound (0 = not computed yet)
    int64_t since_exact_ = 0;   // sweeps since P W was last recomputed by a GEMM
};

std::vector<ParamSpec> frank_wolfe_params();

}  // namespace facto
