// NOMAD's default algorithm, "auto": the best answer each size affords. Up to kLargestCertified points,
// nomad_admm, whose iterates reach the SDP's optimum with a certified duality gap (its dense n x n
// eigendecompositions cost O(n^3) per step); beyond, burer_monteiro, the factored local solution in
// memory linear in n. The bound is where nomad_admm's time stays within 10x of burer_monteiro's: on
// random subsets of scikit-learn's wine (K = 3) nomad_admm took 0.1 s at n = 40 (burer_monteiro 0.07 s,
// the same objective to 1e-6), 0.4-2.8 s at n = 60-100, and 125 s at n = 178 (all of wine), where
// burer_monteiro's answer was within 6e-5 of the optimum in 0.06 s with the same labels
// (docs/benchmarks.md, the defaults panel). The solver made reports its own name (Solver::algorithm), so front ends say
// which ran.
#pragma once

#include <memory>

#include "problems/nomad.hpp"
#include "solvers/solver.hpp"

namespace facto {

inline constexpr int64_t kLargestCertified = 50;

// The registry's line for it (a static string).
const char* nomad_auto_description();
// nomad_admm when problem->n() <= kLargestCertified, else burer_monteiro.
std::unique_ptr<Solver> make_nomad_auto(std::shared_ptr<const Nomad> problem);

}  // namespace facto
