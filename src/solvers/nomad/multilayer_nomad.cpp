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

std::vector<Matrix> multilayer_nomad(const Matrix& D, const std::vector<int64_t>& K, const std::string& algorithm,
                                     const std::function<void(Solver&)>& configure)
{
    require(!K.empty(), FACTO_ERROR_INVALID_ARGUMENT, "multi-layer NOMAD needs at least one K");
    std::vector<Matrix> layers;
    std::unique_ptr<Solver> solver;
    for (int64_t k : K) {
        solver = make_solver(solver ? nomad_layer(*solver, k) : std::make_shared<const Nomad>(D, k), algorithm);
        if (configure) configure(*solver);
        solver->solve();
        layers.push_back(solver->iterate());
    }
    return layers;
}

}  // namespace facto
