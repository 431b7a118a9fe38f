// SPA, the successive projection algorithm (the greedy baseline of [NFW] Sec. V) on the
// self_dictionary problem.
#pragma once

#include <memory>

#include "linalg/successive_projection.hpp"
#include "solvers/self_dictionary/greedy_anchors.hpp"

namespace facto {

// A SuccessiveProjection run as a solver (greedy_anchors.hpp): one pick per iteration. Objective: half
// the squared residual after projecting out the picks.
class Spa final : public GreedyAnchors {
public:
    explicit Spa(std::shared_ptr<const SelfDictionary> problem);
    const char* algorithm() const override { return "spa"; }

private:
    void begin(uint64_t seed) override;
    int64_t pick() override { return spa_->next(); }
    double residual() const override { return spa_->residual(); }

    std::unique_ptr<SuccessiveProjection> spa_;
};

}  // namespace facto
