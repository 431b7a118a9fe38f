// GeoNMF (Mao, Sarkar & Chakrabarti, "On mixed memberships and symmetric nonnegative matrix
// factorizations", ICML 2017), the community-detection baseline of [NFW]'s Table IV, on the
// communities problem: pure nodes by the geometry of the degree-scaled eigenvectors, as the authors'
// code picks them (docs/nfw_real_data.md):
//   X_o = D^{-1/2} V E^{1/2} (degrees D, the top-K eigenpairs, which must be positive);
//   candidates: the rows with ||x_i||^2 > (1 - epsilon) max ||x||^2 (epsilon grown until K are there);
//   k-means (K clusters) on the candidates; in each cluster the node whose d_i ||x_i||^2 is the
//   smallest among those at or above the cluster's q-quantile of it;
//   while X_o(pure, :) has condition number above 2 (1.5 for mean degree >= 250): epsilon grows by
//   0.025 up to 0.4, then q shrinks by 0.01 (down to 0.7, or 0.8) as epsilon keeps growing.
// The memberships are then the problem's (V V(pure, :)^{-1}, which is GeoNMF's
// D^{1/2} X_o X_o(pure, :)^{-1} D^{-1/2}(pure, pure)). Run it on a problem with energy = 1: its pure
// nodes need not be among the nodes a smaller energy keeps.
#pragma once

#include <memory>

#include "problems/community_model.hpp"
#include "solvers/self_dictionary/self_dictionary_solver.hpp"

namespace facto {

// One iteration; k-means takes the best of 20 runs from the solver's seed (the authors' code meant
// to, but keeps its last run). Parameters epsilon (0.25) and q (0.95), the authors' defaults.
class GeoNmf final : public SelfDictionarySolver {
public:
    explicit GeoNmf(std::shared_ptr<const CommunityModel> problem);
    const char* algorithm() const override { return "geonmf"; }

private:
    void start(Matrix C0) override;
    void start_default(uint64_t seed) override;
    double iterate_once() override;
    double current_objective() const override;
    double current_stationarity() const override { return done_ ? 0.0 : 1.0; }

    std::shared_ptr<const CommunityModel> model_;
    double epsilon_ = 0.25, q_ = 0.95;
    uint64_t seed_ = 0;
    bool done_ = false;
};

}  // namespace facto
