// Multi-layer NOMAD ([TSC] Sec. 3.1): layer 1 solves NOMAD on D with K_1, and layer l + 1 on
// D_{l+1} = Q_l, the previous layer's solution, with K_{l+1} <= K_l.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "problems/nomad.hpp"
#include "solvers/solver.hpp"

namespace facto {

// The next layer's problem: NOMAD on D = the iterate Q of `previous` (a started solver of a nomad
// problem) with K <= the previous K. Error(INVALID_ARGUMENT) for another problem kind, BAD_STATE before
// the solver has an iterate, OUT_OF_RANGE for K larger than the previous one (or below 1).
std::shared_ptr<const Nomad> nomad_layer(const Solver& previous, int64_t K);

// Every layer's Q for the sequence K (non-increasing, each in [1, n]), each layer solved by `algorithm`
// ("nomad_cgm" or "burer_monteiro") to its stopping rules; `configure` (if set) sets its parameters
// first. Error(INVALID_ARGUMENT) for an empty K, OUT_OF_RANGE for an increasing one.
std::vector<Matrix> multilayer_nomad(const Matrix& D, const std::vector<int64_t>& K,
                                     const std::string& algorithm = "nomad_cgm",
                                     const std::function<void(Solver&)>& configure = {});

}  // namespace facto
