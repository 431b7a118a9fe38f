#include "solvers/registry.hpp"

#include <limits>
#include <string>

#include "base/error.hpp"
#include "problems/community_model.hpp"
#include "problems/distributed_nomad.hpp"
#include "problems/distributed_symnmf.hpp"
#include "problems/edm_completion.hpp"
#include "problems/topic_model.hpp"
#include "solvers/low_rank/beta_snmf.hpp"
#include "solvers/low_rank/coordinate_descent.hpp"
#include "solvers/low_rank/gradient_descent.hpp"
#include "solvers/low_rank/nolips.hpp"
#include "solvers/low_rank/sym_anls.hpp"
#include "solvers/low_rank/sym_hals.hpp"
#include "solvers/nomad/burer_monteiro.hpp"
#include "solvers/nomad/nomad_admm.hpp"
#include "solvers/nomad/nomad_auto.hpp"
#include "solvers/nomad/nomad_cgm.hpp"
#include "solvers/self_dictionary/fast_anchor.hpp"
#include "solvers/self_dictionary/fast_gradient.hpp"
#include "solvers/self_dictionary/geonmf.hpp"
#include "solvers/self_dictionary/merit.hpp"
#include "solvers/self_dictionary/snpa.hpp"
#include "solvers/self_dictionary/spa.hpp"
#include "solvers/simplicial_symnmf/frank_wolfe.hpp"
#include "solvers/simplicial_symnmf/penalty_method.hpp"
#include "solvers/simplicial_symnmf/projected_gradient.hpp"

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
    bool is_default;  // the one a front end runs when the user names none; one per kind
    const char* description;
    Factory factory;
};

// Every problem kind's algorithms, the default first; kinds in the order front ends list them.
const Entry table[] = {
    {"simplicial_symnmf", "frank_wolfe", true,
     "Frank-Wolfe over the row simplices, with the O(nk) linear minimization ([ZG] Alg. 1-2); pairwise steps by "
     "default",
     &build<SimplicialSymNMF, FrankWolfe>},
    {"simplicial_symnmf", "projected_gradient", false,
     "projected gradient onto the row simplices with an Armijo search ([ZG] Sec. 5 baseline)",
     &build<SimplicialSymNMF, ProjectedGradient>},
    {"simplicial_symnmf", "penalty_method", false,
     "quadratic penalties on W 1 = 1 and W >= 0 minimized by L-BFGS ([ZG] Sec. 5 baseline; infeasible iterates)",
     &build<SimplicialSymNMF, PenaltyMethod>},
    {"symnmf", "nolips", true, "Dyn-NoLips: Bregman gradient with the quartic universal kernel ([DAB] Alg. 2)",
     &build<SymNMF, NoLips>},
    {"symnmf", "projected_gradient", false, "projected gradient with an Armijo search ([DAB] Sec. 4.1 baseline)",
     &build<SymNMF, GradientDescent>},
    {"symnmf", "beta_snmf", false, "multiplicative updates of beta-SNMF ([DAB] Sec. 4.1 baseline)",
     &build<SymNMF, BetaSNMF>},
    {"symnmf", "coordinate_descent", false, "exact coordinate descent on each entry ([DAB] Sec. 4.1 baseline)",
     &build<SymNMF, CoordinateDescent>},
    {"symnmf", "sym_hals", false, "HALS on the penalized nonsymmetric problem ([DAB] Sec. 4.1 baseline)",
     &build<SymNMF, SymHALS>},
    {"symnmf", "sym_anls", false,
     "alternating nonnegative least squares on the penalized nonsymmetric problem ([DAB] Sec. 4.1 baseline)",
     &build<SymNMF, SymANLS>},
    {"distributed_symnmf", "nolips", true, "Dyn-NoLips on rows spread over processes ([DAB] Alg. 2)",
     &build<DistributedSymNMF, NoLips>},
    {"distributed_symnmf", "projected_gradient", false, "projected gradient with an Armijo search, distributed",
     &build<DistributedSymNMF, GradientDescent>},
    {"edm_completion", "nolips", true,
     "Dyn-NoLips with the universal kernel, or the Gram kernel by its parameter ([DAB] Alg. 2)",
     &build<EdmCompletion, NoLips>},
    {"edm_completion", "gradient_descent", false, "gradient descent with an Armijo search ([DAB] baseline)",
     &build<EdmCompletion, GradientDescent>},
    {"self_dictionary", "snpa", true,
     "the successive nonnegative projection algorithm, greedy ([NFW] baseline); the default: it finishes in "
     "seconds, with the lowest held-out error on two of the three unseparable sets measured",
     &build<SelfDictionary, Snpa>},
    {"self_dictionary", "merit", false,
     "MERIT: memory-efficient Frank-Wolfe on SD-MMV ([NFW] Alg. 1); the better choice on noisy separable data",
     &build<SelfDictionary, Merit>},
    {"self_dictionary", "spa", false, "the successive projection algorithm, greedy ([NFW] Sec. V baseline)",
     &build<SelfDictionary, Spa>},
    {"self_dictionary", "fast_anchor", false,
     "greedy anchors on normalized, randomly projected points ([AGH]; [NFW] Table II baseline)",
     &build<SelfDictionary, FastAnchor>},
    {"self_dictionary", "fast_gradient", false,
     "accelerated projected gradient on the dense N x N convex program ([GL]; [NFW] baseline)",
     &build<SelfDictionary, FastGradient>},
    {"distributed_self_dictionary", "merit", true, "MERIT on columns spread over processes ([NFW] Alg. 1)",
     &build<SelfDictionary, Merit>},
    {"topics", "spa", true,
     "the successive projection algorithm ([NFW] Table II baseline); the default: the best accuracy and NMI "
     "measured on TDT2's K = 10 subsets among the anchor steps, 2.5-17x sooner than MERIT",
     &build<TopicModel, Spa>},
    {"topics", "merit", false, "MERIT on the word co-occurrence model ([NFW] Sec. V-B)", &build<TopicModel, Merit>},
    {"topics", "snpa", false, "the successive nonnegative projection algorithm ([NFW] Table II baseline)",
     &build<TopicModel, Snpa>},
    {"topics", "fast_anchor", false, "FastAnchorWords ([AGH]; [NFW] Table II baseline)",
     &build<TopicModel, FastAnchor>},
    {"topics", "fast_gradient", false, "FGNSR's accelerated projected gradient ([GL]; [NFW] Table II baseline)",
     &build<TopicModel, FastGradient>},
    {"communities", "merit", true, "MERIT on the degree-scaled eigenvectors ([NFW] Sec. V-C)",
     &build<CommunityModel, Merit>},
    {"communities", "spa", false, "the successive projection algorithm ([NFW] Table IV baseline)",
     &build<CommunityModel, Spa>},
    {"communities", "snpa", false, "the successive nonnegative projection algorithm ([NFW] Table IV baseline)",
     &build<CommunityModel, Snpa>},
    {"communities", "fast_gradient", false, "FGNSR's accelerated projected gradient ([GL]; [NFW] Table IV baseline)",
     &build<CommunityModel, FastGradient>},
    {"communities", "geonmf", false, "GeoNMF's pure nodes by geometry ([MSC]; [NFW] Table IV baseline)",
     &build<CommunityModel, GeoNmf>},
    {"nomad", "auto", true, nomad_auto_description(),
     [](std::shared_ptr<const Problem> problem) { return make_nomad_auto(std::static_pointer_cast<const Nomad>(std::move(problem))); }},
    {"nomad", "nomad_cgm", false, "the conditional-gradient augmented Lagrangian ([TSC] Alg. 2)",
     &build<Nomad, NomadCgm>},
    {"nomad", "burer_monteiro", false,
     "Q = Y Y^T with Y >= 0 ([TSC] Sec. 4, [BM]): the method of multipliers on the nonnegative sphere ([NLR]), "
     "then gradient projection on the feasible factors; the paper's L-BFGS-B form is inner_method=lbfgsb; memory "
     "linear in n",
     &build<Nomad, BurerMonteiro>},
    {"nomad", "nomad_admm", false, "ADMM on Q = Z, psd against nonnegative; certifies the optimum",
     &build<Nomad, NomadAdmm>},
    {"distributed_nomad", "burer_monteiro", true, "the Burer-Monteiro heuristic on rows spread over processes ([TSC] App. E)",
     &build<DistributedNomad, BurerMonteiro>},
};

// The named parameters of the problems built from data and a rank: one list per kind, each default
// with the reason for it. Constructors check them again (the positional ones take any value).
constexpr double kSmallest = std::numeric_limits<double>::min();
const ParamSpec kLambda = real_param(
    "lambda", -1.0, -1.0, kMaxMagnitude,
    "weight of the smoothed row-max penalty Phi_mu; -1: [NFW] Sec. V-A's heuristic ||X - X C0||_F / K, C0 the "
    "SPA start (needs K); 0 is MERIT(0)");
const ParamSpec kSparseLambda = real_param(
    "lambda", 5e-7, 0.0, kMaxMagnitude,
    "weight of Phi_mu: [NFW] Sec. V-B/C's 1e-6 for its authors' objective, which has no 1/2");
const ParamSpec kMu = real_param("mu", 1e-5, kSmallest, kMaxMagnitude,
                                 "smoothing of Phi_mu, a soft row maximum within about mu ([NFW] Sec. V: 1e-5)");

struct ProblemParameters {
    const char* kind;
    std::vector<ParamSpec> specs;
};

const std::vector<ProblemParameters>& parameter_table()
{
    static const std::vector<ProblemParameters> table = {
        {"self_dictionary", {kLambda, kMu}},
        {"distributed_self_dictionary", {kLambda, kMu}},
        {"topics",
         {int_param("min_df", 0, 0, std::numeric_limits<int64_t>::max(),
                    "drop terms in fewer documents; 0: 1% of them, at least 2 (rare terms make spurious anchors; "
                    "[NFW] Sec. V-B: 2)"),
          int_param("rank", 0, 0, std::numeric_limits<int64_t>::max(),
                    "dimensions kept of the word-word correlation; 0: 2 K, which holds the anchors' simplex"),
          real_param("refine", 1e-3, 0.0, 1.0,
                     "refit the anchors' topics and the documents' weights together (HALS on the unit-row TF-IDF) "
                     "until a sweep gains less than this fraction of the fit; 0: [NFW] Sec. V-B's topics from the "
                     "anchors alone, which lose to scikit-learn's NMF on small corpora (docs/benchmarks.md)"),
          kSparseLambda, kMu}},
        {"communities",
         {real_param("energy", 0.99, kSmallest, 1.0,
                     "keep the fewest nodes carrying this fraction of the eigenvectors' energy ([NFW] Sec. V-C: 0.99; "
                     "1 keeps every node with an edge)"),
          kSparseLambda, kMu}},
    };
    return table;
}

}  // namespace

const std::vector<ParamSpec>& problem_parameters(std::string_view kind)
{
    static const std::vector<ParamSpec> none;
    for (const ProblemParameters& p : parameter_table())
        if (kind == p.kind) return p.specs;
    return none;
}

std::vector<const char*> problem_kinds()
{
    std::vector<const char*> kinds;
    for (const Entry& e : table)
        if (kinds.empty() || std::string_view(kinds.back()) != e.kind) kinds.push_back(e.kind);
    return kinds;
}

std::vector<AlgorithmInfo> algorithms_for(std::string_view kind)
{
    std::vector<AlgorithmInfo> algorithms;
    for (const Entry& e : table)
        if (kind == e.kind) algorithms.push_back({e.algorithm, e.is_default, e.description});
    return algorithms;
}

const char* default_algorithm(std::string_view kind)
{
    for (const Entry& e : table)
        if (kind == e.kind && e.is_default) return e.algorithm;
    return nullptr;
}

std::unique_ptr<Solver> make_solver(std::shared_ptr<const Problem> problem, std::string_view algorithm)
{
    require(problem != nullptr, FACTO_ERROR_NULL_POINTER, "problem is NULL");
    const char* fallback = default_algorithm(problem->kind());
    if (algorithm == "auto" && fallback) algorithm = fallback;
    for (const Entry& e : table)
        if (algorithm == e.algorithm && std::string_view(problem->kind()) == e.kind) return e.factory(std::move(problem));
    std::string known;
    for (const AlgorithmInfo& a : algorithms_for(problem->kind())) known += std::string(known.empty() ? "" : ", ") + a.name;
    throw Error(FACTO_ERROR_UNSUPPORTED, "no algorithm '" + std::string(algorithm) + "' for problem '" +
                                             problem->kind() + "' (available: " + known + ")");
}

}  // namespace facto
