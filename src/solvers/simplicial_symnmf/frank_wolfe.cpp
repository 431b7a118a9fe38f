#include "solvers/simplicial_symnmf/frank_wolfe.hpp"

#include <algorithm>
#include <limits>

#include <xtensor/xnoalias.hpp>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "linalg/polynomial.hpp"

namespace facto {

std::vector<ParamSpec> frank_wolfe_params()
{
    return {
        choice_param("variant", "pairwise", "vanilla|away|pairwise",
                     "pairwise: rows move mass from their away vertex to their LMO vertex, exact steps (converges "
                     "linearly, docs/benchmarks.md); vanilla: toward the LMO vertex, the paper's Alg. 1; away: "
                     "away-step"),
        choice_param("step_rule", "auto", "auto|open_loop|line_search|curvature",
                     "vanilla's step: 2/(t+2), exact quartic line search on [0, 1], or min(gap/C, 1) (Alg. 1); "
                     "auto = open_loop. Away and pairwise steps are exact (auto or line_search only)"),
        real_param("curvature", 0.0, 0.0, std::numeric_limits<double>::infinity(),
                   "C of the curvature rule; 0 = the Thm. 3 bound 2n(3n + ||P||_2)"),
    };
}

FrankWolfe::FrankWolfe(std::shared_ptr<const SimplicialSymNMF> problem)
    : SimplicialSymNMFSolver(std::move(problem), frank_wolfe_params())
{
    mutable_params().bind("variant", variant_, frank_wolfe_variant_names());
    mutable_params().bind("step_rule", step_rule_,
                          {{"auto", StepRule::open_loop},
                           {"open_loop", StepRule::open_loop},
                           {"line_search", StepRule::line_search},
                           {"curvature", StepRule::curvature}});
    mutable_params().bind("curvature", given_curvature_);
}

void FrankWolfe::start(Matrix W0)
{
    const std::size_t n = W0.shape()[0], k = W0.shape()[1];
    D_ = Matrix({n, k});
    PD_ = Matrix({n, k});
    work_ = Matrix({k, n});
    since_exact_ = 0;
    reset_point(std::move(W0));
}

// D = S - W (Alg. 1 line 3) and PD = P S - P W, S the LMO vertex.
void FrankWolfe::direction(Matrix& D, Matrix& PD, Matrix& work) const
{
    D.fill(0.0);
    for (std::size_t i = 0; i < point_.vertex.size(); ++i) D(i, static_cast<std::size_t>(point_.vertex[i])) = 1.0;
    symnmf_->multiply_sparse(D, PD, work, resolve_threads(common().threads));
    xt::noalias(PD) -= point_.PW;
    xt::noalias(D) -= point_.W;
}

Quartic FrankWolfe::current_line() const
{
    Matrix D(D_.shape()), PD(PD_.shape()), work(work_.shape());
    direction(D, PD, work);
    return symnmf_->along(point_.W, D, PD, point_.WtW, point_.G, point_.f);
}

double FrankWolfe::curvature_constant()
{
    if (given_curvature_ > 0.0) return given_curvature_;
    if (curvature_ == 0.0) curvature_ = symnmf_->curvature_bound();
    return curvature_;
}

void FrankWolfe::check_params(const Params& p) const
{
    const std::string& variant = p.get_string("variant"), &rule = p.get_string("step_rule");
    require(variant == "vanilla" || rule == "auto" || rule == "line_search", FACTO_ERROR_INVALID_ARGUMENT,
            "step_rule '" + rule + "' is for variant 'vanilla', not '" + variant +
                "': away and pairwise steps are exact (step_rule auto or line_search); set variant first");
}

double FrankWolfe::iterate_once()
{
    return variant_ == FrankWolfeVariant::vanilla ? vanilla_step() : sweep_rows();
}

double FrankWolfe::vanilla_step()
{
    direction(D_, PD_, work_);
    double gamma;
    if (step_rule_ == StepRule::open_loop) {
        gamma = 2.0 / (static_cast<double>(progress().iteration) + 2.0);
    } else if (step_rule_ == StepRule::curvature) {
        gamma = std::min(point_.gap / curvature_constant(), 1.0);  // Alg. 1 line 6
    } else {
        const Quartic q = symnmf_->along(point_.W, D_, PD_, point_.WtW, point_.G, point_.f);
        gamma = minimize_quartic_on_unit_interval(q.c1, q.c2, q.c3, q.c4);
    }
    xt::noalias(point_.W) += gamma * D_;  // Alg. 1 line 7
    xt::noalias(point_.PW) += gamma * PD_;
    point_.refresh(*symnmf_);
    return gamma;
}

}  // namespace facto
