#include "solvers/nomad/nomad_auto.hpp"

#include <string>

#include "solvers/nomad/burer_monteiro.hpp"
#include "solvers/nomad/nomad_admm.hpp"

namespace facto {

const char* nomad_auto_description()
{
    static const std::string line = "nomad_admm up to n = " + std::to_string(kLargestCertified) +
                                    " (the SDP's optimum with a certified gap), burer_monteiro beyond; the parameters "
                                    "are those of the solver it makes, which reports its own name";
    return line.c_str();
}

std::unique_ptr<Solver> make_nomad_auto(std::shared_ptr<const Nomad> problem)
{
    if (problem->n() <= kLargestCertified) return std::make_unique<NomadAdmm>(std::move(problem));
    return std::make_unique<BurerMonteiro>(std::move(problem));
}

}  // namespace facto
