// What the greedy anchor pickers on the self_dictionary problem share (SPA, SNPA, FastAnchor; the
// baselines of [NFW]): they start from the data alone (no iterate), pick one column per iteration,
// K iterations in all (stationarity = picks left), and then set C(J, :) to the simplex-constrained least
// squares of X on the picks J, so their outputs read like MERIT's.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "solvers/self_dictionary/self_dictionary_solver.hpp"

namespace facto {

class GreedyAnchors : public SelfDictionarySolver {
protected:
    using SelfDictionarySolver::SelfDictionarySolver;
    // Prepares the picker for a run drawn from `seed` (needs K, checked before).
    virtual void begin(uint64_t seed) = 0;
    // The next column picked.
    virtual int64_t pick() = 0;
    // The objective reported: half the squared residual the picker leaves.
    virtual double residual() const = 0;

    std::vector<int64_t> picks_;

private:
    void start(Matrix C0) final;
    void start_default(uint64_t seed) final;
    double iterate_once() final;
    double current_objective() const final { return residual(); }
    double current_stationarity() const final;
};

}  // namespace facto
