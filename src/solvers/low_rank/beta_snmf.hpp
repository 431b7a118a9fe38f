// beta-SNMF (He, Xie, Zdunek, Zhou & Cichocki 2011), the multiplicative baseline of Dragomir et al.
// Sec. 4.1: X := X o (1 - beta + beta (M X) / (X X^T X)), elementwise, beta = 0.99 as advised.
// One product M X per iteration; X stays nonnegative (an entry that is 0 stays 0).
#pragma once

#include "solvers/low_rank/symnmf_solver.hpp"

namespace facto {

class BetaSNMF final : public SymNMFSolver {
public:
    explicit BetaSNMF(std::shared_ptr<const SymNMF> problem);
    const char* algorithm() const override { return "beta_snmf"; }

private:
    double iterate_once() override;
    Matrix XXtX_;
    double beta_ = 0.0;  // the parameter "beta"
};

}  // namespace facto
