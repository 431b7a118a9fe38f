#include "solvers/nomad/nomad_specs.hpp"

#include <limits>

namespace facto {

std::vector<ParamSpec> with_label_params(std::vector<ParamSpec> specs)
{
    specs.insert(specs.end(), {choice_param("label_rule", "auto", "auto|components|kmeans",
                         "the output labels: components, the connected components of Q's graph (Sec. 3's hard "
                         "assignment); kmeans, k-means on Q's rows (burer_monteiro: on Y's, Q = Y Y^T; 10 "
                         "k-means++ replicates from the seed); auto: the components when there are exactly K, else "
                         "kmeans, and kmeans alone above 100,000 points, where the components' pass costs more "
                         "than the solve (the output label_rule says which ran: 0 components, 1 kmeans)"),
            real_param("component_threshold", LabelRule::kComponentThreshold, 0.0,
                       std::numeric_limits<double>::infinity(),
                       "the components' graph has an edge wherever Q_ij > component_threshold K / n")});
    return specs;
}

void bind_label_rule(Params& p, LabelRule& rule)
{
    p.bind("label_rule", rule.kind,
           {{"auto", LabelRule::Kind::automatic},
            {"components", LabelRule::Kind::components},
            {"kmeans", LabelRule::Kind::kmeans}});
    p.bind("component_threshold", rule.component_threshold);
}

OutputSpec upper_bound_spec() { return {"upper_bound", FACTO_OUTPUT_DOUBLE, 1, 1}; }

}  // namespace facto
