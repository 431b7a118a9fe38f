// SNPA, the successive nonnegative projection algorithm (Gillis 2014), on the self_dictionary problem:
// the greedy baseline that the authors of [NFW] ran as "XRAY" in Table II (their wrapper calls SNPA;
// docs/nfw_real_data.md). Like SPA it picks the column of largest residual norm, but the residual
// is what is left after fitting every column as a combination of the picks with nonnegative weights
// summing to at most 1, not after an orthogonal projection.
#pragma once

#include <memory>
#include <vector>

#include "solvers/self_dictionary/greedy_anchors.hpp"

namespace facto {

// One pick per iteration (greedy_anchors.hpp). After each pick the weights H (picks x N) minimize
// ||X - X(:, J) H||_F over {H >= 0, 1^T H <= 1^T} by 100 steps of Nesterov's accelerated projected
// gradient from the previous weights (Gillis 2014, Alg. 1, as his code does). Objective: half the
// squared residual.
class Snpa final : public GreedyAnchors {
public:
    explicit Snpa(std::shared_ptr<const SelfDictionary> problem);
    const char* algorithm() const override { return "snpa"; }

private:
    void begin(uint64_t seed) override;
    int64_t pick() override;
    double residual() const override;

    // H := the weights of every column on `picks` (Ht_: N x picks), and the residual norms.
    void refit(const std::vector<int64_t>& picks);

    Matrix Ht_;                 // N x picks
    std::vector<double> norm2_;  // squared residual norm of each column
    std::vector<double> x_norm2_;
};

}  // namespace facto
