// SNPA, the successive nonnegative projection algorithm (Gillis 2014), on the self_dictionary problem:
// the greedy baseline that paper 002's authors ran as "XRAY" in Table II (their wrapper calls SNPA;
// docs/paper002_real_data.md). Like SPA it picks the column of largest residual norm, but the residual
// is what is left after fitting every column as a combination of the picks with nonnegative weights
// summing to at most 1, not after an orthogonal projection.
#pragma once

#include <memory>
#include <vector>

#include "solvers/self_dictionary_solver.hpp"

namespace facto {

// One pick per iteration, K iterations (stationarity = picks left). After each pick the weights H
// (picks x N) minimize ||X - X(:, J) H||_F over {H >= 0, 1^T H <= 1^T} by 100 steps of Nesterov's
// accelerated projected gradient from the previous weights (Gillis 2014, Alg. 1, as his code does);
// the final C has C(J, :) = the simplex-constrained least squares on the picks, like SPA's. Objective:
// half the squared residual.
class Snpa final : public SelfDictionarySolver {
public:
    explicit Snpa(std::shared_ptr<const SelfDictionary> problem);
    const char* algorithm() const override { return "snpa"; }

private:
    void start(Matrix C0) override;
    void start_default(uint64_t seed) override;
    double iterate_once() override;
    double current_objective() const override;
    double current_stationarity() const override;

    // H := the weights of every column on the picks (Ht_: N x picks), and the residual norms.
    void refit();

    std::vector<int64_t> picks_;
    Matrix Ht_;                 // N x picks
    std::vector<double> norm2_;  // squared residual norm of each column
    std::vector<double> x_norm2_;
};

}  // namespace facto
