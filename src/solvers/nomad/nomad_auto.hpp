// NOMAD's default algorithm, "auto": the best answer each size affords. Up to kLargestCertified points,
// nomad_admm, whose iterates reach the SDP's optimum with a certified duality gap (its dense n x n
// eigendecompositions cost O(n^3) per step); beyond, burer_monteiro, the factored local solution in
// memory linear in n. The solver made reports its own name (Solver::algorithm), so front ends say
// which ran.
#pragma once

#include <memory>

#include "problems/nomad.hpp"
#include "solvers/solver.hpp"

namespace facto {

inline constexpr int64_t kLargestCertified = 200;

// The registry's line for it (a static string).
const char* nomad_auto_description();
// nomad_admm when problem->n() <= kLargestCertified, else burer_monteiro.
std::unique_ptr<Solver> make_nomad_auto(std::shared_ptr<const Nomad> problem);

}  // namespace facto
