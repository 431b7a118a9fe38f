// FastAnchor (Arora, Ge, Halpern, Mimno, Moitra, Sontag, Wu & Zhu 2013, "A practical algorithm for
// topic modeling with provable guarantees", FastAnchorWords), the topic-modeling baseline of paper
// 002's Table II, on the self_dictionary problem: greedy anchor selection (SPA's Gram-Schmidt
// farthest-point steps) on the problem's anchor-search points, each data point normalized to unit
// 1-norm and randomly projected to `projection` dimensions (SelfDictionary::anchor_search_points; on a
// topic model, the rows of the word-word co-occurrence matrix, not its PCA summary X).
#pragma once

#include <memory>

#include "linalg/successive_projection.hpp"
#include "solvers/self_dictionary/greedy_anchors.hpp"

namespace facto {

// One pick per iteration (greedy_anchors.hpp); the projection is drawn from the solver's seed.
// Objective: half the squared residual of the projected points.
class FastAnchor final : public GreedyAnchors {
public:
    explicit FastAnchor(std::shared_ptr<const SelfDictionary> problem);
    const char* algorithm() const override { return "fast_anchor"; }

private:
    void begin(uint64_t seed) override;
    int64_t pick() override { return spa_->next(); }
    double residual() const override { return spa_->residual(); }

    int64_t projection_ = 1000;
    std::unique_ptr<SuccessiveProjection> spa_;
};

}  // namespace facto
