// Which solver runs on which problem, and which one is each problem's default: one table, in
// registry.cpp, which the C ABI exports (facto_algorithm_count, facto_algorithm_describe) to every front end.
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

// One algorithm of a problem kind, as the registry lists it (static strings).
struct AlgorithmInfo {
    const char* name;
    bool is_default;          // the one front ends run when the user names none
    const char* description;  // one line, citing papers by the keys of docs/references.md
};

// The problem kinds that have solvers, in the registry's order.
std::vector<const char*> problem_kinds();

// The algorithms of a problem kind, its default first; empty for an unknown kind.
std::vector<AlgorithmInfo> algorithms_for(std::string_view kind);

// The default algorithm of a problem kind; nullptr for an unknown kind.
const char* default_algorithm(std::string_view kind);

}  // namespace facto
