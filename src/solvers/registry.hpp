// Which solver runs on which problem: one table, in registry.cpp.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "problems/problem.hpp"
#include "solvers/solver.hpp"

namespace facto {

// A new solver running `algorithm` on `problem`; throws Error(UNSUPPORTED) naming the algorithms
// that exist for the problem's kind.
std::unique_ptr<Solver> make_solver(std::shared_ptr<const Problem> problem, std::string_view algorithm);

// Names of the algorithms available for a problem kind.
std::vector<const char*> algorithms_for(std::string_view kind);

}  // namespace facto
