// Which solver runs on which problem, which one is each problem's default, and each problem's named
// parameters with their defaults: the tables in registry.cpp, which the C ABI exports
// (facto_algorithm_describe, facto_problem_param_info) to every front end.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "problems/problem.hpp"
#include "solvers/params.hpp"
#include "solvers/solver.hpp"

namespace facto {

// A new solver running `algorithm` on `problem`; "auto" is the kind's default (nomad's default is a rule
// named auto that picks its solver by the problem). Throws Error(UNSUPPORTED) naming the algorithms that
// exist for the problem's kind.
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

// The named parameters of a problem kind: what its constructors take beyond the data and the rank, with
// defaults, bounds and why each default (facto_problem_param_info; the by-name constructors start from
// these defaults). Empty for a kind without any, or no kind.
const std::vector<ParamSpec>& problem_parameters(std::string_view kind);

}  // namespace facto
