#include "solvers/nomad/multilayer_nomad.hpp"

#include <string>

#include "base/error.hpp"
#include "solvers/registry.hpp"

namespace facto {

std::shared_ptr<const Nomad> nomad_layer(const Solver& previous, int64_t K)
{
    const auto* problem = dynamic_cast<const Nomad*>(&previous.problem());
    require(problem != nullptr, FACTO_ERROR_INVALID_ARGUMENT,
            std::string("a NOMAD layer follows a nomad solver, not a ") + previous.problem().kind() + " one");
    require(K >= 1 && K <= problem->K(), FACTO_ERROR_OUT_OF_RANGE,
            "multi-layer NOMAD needs K non-increasing: the next K must be in [1, " + std::to_string(problem->K()) +
                "], got " + std::to_string(K));
    return std::make_shared<const Nomad>(previous.iterate(), K);  // Sec. 3.1: D_{l+1} = Q_l
}

std::unique_ptr<Solver> next_nomad_layer(const Solver& previous, int64_t K)
{
    auto next = make_solver(nomad_layer(previous, K), previous.algorithm());
    next->mutable_params().assign(previous.params());
    return next;
}

}  // namespace facto
