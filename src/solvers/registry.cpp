#include "solvers/registry.hpp"

#include <string>

#include "base/error.hpp"
#include "solvers/low_rank/beta_snmf.hpp"
#include "solvers/nomad/burer_monteiro.hpp"
#include "solvers/low_rank/coordinate_descent.hpp"
#include "solvers/self_dictionary/fast_anchor.hpp"
#include "solvers/self_dictionary/fast_gradient.hpp"
#include "problems/community_model.hpp"
#include "problems/distributed_nomad.hpp"
#include "problems/distributed_symnmf.hpp"
#include "problems/edm_completion.hpp"
#include "problems/topic_model.hpp"
#include "solvers/simplicial_symnmf/frank_wolfe.hpp"
#include "solvers/self_dictionary/geonmf.hpp"
#include "solvers/low_rank/gradient_descent.hpp"
#include "solvers/self_dictionary/merit.hpp"
#include "solvers/low_rank/nolips.hpp"
#include "solvers/nomad/nomad_admm.hpp"
#include "solvers/nomad/nomad_cgm.hpp"
#include "solvers/simplicial_symnmf/penalty_method.hpp"
#include "solvers/simplicial_symnmf/projected_gradient.hpp"
#include "solvers/self_dictionary/snpa.hpp"
#include "solvers/self_dictionary/spa.hpp"
#include "solvers/low_rank/sym_anls.hpp"
#include "solvers/low_rank/sym_hals.hpp"

namespace facto {

namespace {

using Factory = std::unique_ptr<Solver> (*)(std::shared_ptr<const Problem>);

template <class P, class S>
std::unique_ptr<Solver> build(std::shared_ptr<const Problem> problem)
{
    return std::make_unique<S>(std::static_pointer_cast<const P>(std::move(problem)));
}

struct Entry {
    const char* kind;
    const char* algorithm;
    Factory factory;
};

const Entry table[] = {
    {"simplicial_symnmf", "frank_wolfe", &build<SimplicialSymNMF, FrankWolfe>},
    {"simplicial_symnmf", "projected_gradient", &build<SimplicialSymNMF, ProjectedGradient>},
    {"simplicial_symnmf", "penalty_method", &build<SimplicialSymNMF, PenaltyMethod>},
    {"symnmf", "nolips", &build<SymNMF, NoLips>},
    {"symnmf", "projected_gradient", &build<SymNMF, GradientDescent>},
    {"symnmf", "beta_snmf", &build<SymNMF, BetaSNMF>},
    {"symnmf", "coordinate_descent", &build<SymNMF, CoordinateDescent>},
    {"symnmf", "sym_hals", &build<SymNMF, SymHALS>},
    {"symnmf", "sym_anls", &build<SymNMF, SymANLS>},
    {"distributed_symnmf", "nolips", &build<DistributedSymNMF, NoLips>},
    {"distributed_symnmf", "projected_gradient", &build<DistributedSymNMF, GradientDescent>},
    {"edm_completion", "nolips", &build<EdmCompletion, NoLips>},
    {"edm_completion", "gradient_descent", &build<EdmCompletion, GradientDescent>},
    {"self_dictionary", "merit", &build<SelfDictionary, Merit>},
    {"distributed_self_dictionary", "merit", &build<SelfDictionary, Merit>},
    {"self_dictionary", "spa", &build<SelfDictionary, Spa>},
    {"self_dictionary", "snpa", &build<SelfDictionary, Snpa>},
    {"self_dictionary", "fast_anchor", &build<SelfDictionary, FastAnchor>},
    {"self_dictionary", "fast_gradient", &build<SelfDictionary, FastGradient>},
    {"topics", "merit", &build<TopicModel, Merit>},
    {"topics", "spa", &build<TopicModel, Spa>},
    {"topics", "snpa", &build<TopicModel, Snpa>},
    {"topics", "fast_anchor", &build<TopicModel, FastAnchor>},
    {"topics", "fast_gradient", &build<TopicModel, FastGradient>},
    {"communities", "merit", &build<CommunityModel, Merit>},
    {"communities", "spa", &build<CommunityModel, Spa>},
    {"communities", "snpa", &build<CommunityModel, Snpa>},
    {"communities", "fast_gradient", &build<CommunityModel, FastGradient>},
    {"communities", "geonmf", &build<CommunityModel, GeoNmf>},
    {"nomad", "nomad_cgm", &build<Nomad, NomadCgm>},
    {"nomad", "burer_monteiro", &build<Nomad, BurerMonteiro>},
    {"nomad", "nomad_admm", &build<Nomad, NomadAdmm>},
    {"distributed_nomad", "burer_monteiro", &build<DistributedNomad, BurerMonteiro>},
};

}  // namespace

std::vector<const char*> algorithms_for(std::string_view kind)
{
    std::vector<const char*> names;
    for (const Entry& e : table)
        if (kind == e.kind) names.push_back(e.algorithm);
    return names;
}

std::unique_ptr<Solver> make_solver(std::shared_ptr<const Problem> problem, std::string_view algorithm)
{
    require(problem != nullptr, FACTO_ERROR_NULL_POINTER, "problem is NULL");
    for (const Entry& e : table)
        if (algorithm == e.algorithm && std::string_view(problem->kind()) == e.kind) return e.factory(std::move(problem));
    std::string known;
    for (const char* name : algorithms_for(problem->kind())) known += std::string(known.empty() ? "" : ", ") + name;
    throw Error(FACTO_ERROR_UNSUPPORTED, "no algorithm '" + std::string(algorithm) + "' for problem '" +
                                             problem->kind() + "' (available: " + known + ")");
}

}  // namespace facto
