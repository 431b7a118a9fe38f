// SPA, the successive projection algorithm (the greedy baseline of Nguyen, Fu & Wu, Sec. V) on the
// self_dictionary problem.
#pragma once

#include <memory>

#include "linalg/successive_projection.hpp"
#include "solvers/self_dictionary_solver.hpp"

namespace facto {

// A SuccessiveProjection run as a solver: one pick per iteration, K iterations (stationarity = picks
// left), then C(selected, :) = H from the simplex-constrained least squares. Objective: half the
// squared residual after projecting out the picks.
class Spa final : public SelfDictionarySolver {
public:
    explicit Spa(std::shared_ptr<const SelfDictionary> problem);
    const char* algorithm() const override { return "spa"; }

private:
    void start(Matrix C0) override;
    void start_default(uint64_t seed) override;
    double iterate_once() override;
    double current_objective() const override;
    double current_stationarity() const override;

    std::unique_ptr<SuccessiveProjection> spa_;
};

}  // namespace facto
