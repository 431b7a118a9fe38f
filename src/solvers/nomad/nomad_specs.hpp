// What every NOMAD solver shares in its tables: the parameters of its labels and one output.
#pragma once

#include <vector>

#include "problems/nomad_problem.hpp"
#include "solvers/solver.hpp"

namespace facto {

// `specs` and then "label_rule" and "component_threshold": how the output "labels" turns Q into clusters
// (LabelRule).
std::vector<ParamSpec> with_label_params(std::vector<ParamSpec> specs);
// Binds both to `rule` in a solver's table (the seed stays the caller's to set: the solver's own).
void bind_label_rule(Params& p, LabelRule& rule);
// `rule` with k-means seeded by the solver's seed.
inline LabelRule seeded(LabelRule rule, int64_t seed)
{
    rule.seed = static_cast<uint64_t>(seed);
    return rule;
}
// The output "upper_bound": 1 x 1, an upper bound of the optimum max Tr(D Q).
OutputSpec upper_bound_spec();

}  // namespace facto
