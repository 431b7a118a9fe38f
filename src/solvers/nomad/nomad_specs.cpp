#include "solvers/nomad/nomad_specs.hpp"

#include <limits>

#include "problems/nomad.hpp"

namespace facto {

ParamSpec component_threshold_param()
{
    return real_param("component_threshold", Nomad::kComponentThreshold, 0.0,
                      std::numeric_limits<double>::infinity(),
                      "the output labels are the connected components of Q's graph, with an edge wherever "
                      "Q_ij > component_threshold K / n");
}

OutputSpec upper_bound_spec() { return {"upper_bound", FACTO_OUTPUT_DOUBLE, 1, 1}; }

}  // namespace facto
