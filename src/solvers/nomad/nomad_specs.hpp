// What every NOMAD solver shares in its tables: one parameter and one output.
#pragma once

#include "solvers/solver.hpp"

namespace facto {

// "component_threshold": the edge threshold of the output "labels", relative to K / n (Nomad::output).
ParamSpec component_threshold_param();
// The output "upper_bound": 1 x 1, an upper bound of the optimum max Tr(D Q).
OutputSpec upper_bound_spec();

}  // namespace facto
