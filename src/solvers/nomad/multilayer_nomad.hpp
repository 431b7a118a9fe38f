// Multi-layer NOMAD ([TSC] Sec. 3.1): layer 1 solves NOMAD on D with K_1, and layer l + 1 on
// D_{l+1} = Q_l, the previous layer's solution, with K_{l+1} <= K_l.
#pragma once

#include <memory>

#include "problems/nomad.hpp"
#include "solvers/solver.hpp"

namespace facto {

// The next layer's problem: NOMAD on D = the iterate Q of `previous` (a started solver of a nomad
// problem) with K <= the previous K. Error(INVALID_ARGUMENT) for another problem kind, BAD_STATE before
// the solver has an iterate, OUT_OF_RANGE for K larger than the previous one (or below 1).
std::shared_ptr<const Nomad> nomad_layer(const Solver& previous, int64_t K);

// The next layer's solver: `previous`'s algorithm with its parameter values (not its callback or
// iterate) on nomad_layer(previous, K). Multi-layer NOMAD of D for K_1 >= K_2 >= ... is a solver on
// Nomad(D, K_1), solved, then for each next K the next layer of the last solver, solved: the loop every
// front end runs through facto_solver_new_nomad_layer. Errors as nomad_layer's.
std::unique_ptr<Solver> next_nomad_layer(const Solver& previous, int64_t K);

}  // namespace facto
