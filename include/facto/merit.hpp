// MERIT (Nguyen, Fu & Wu, Alg. 1): Frank-Wolfe on SD-MMV (eq. 18) with steps 2 / (t + 2) from t_init
// (warm-start Frank-Wolfe, Sec. III-A). Each iteration moves every column c_l toward the vertex e_j,
// j = argmin_n G(n, l) (eq. 21), found by a kernel that computes the gradient in registers and keeps only
// each column's minimum (SelfDictionary::sweep), so memory is X, nnz(C) and O(M x block). Up to N = 4096 the residual R = (X C - X)^T (N x M) is kept
// and moves with C, r_l := (1 - alpha) r_l + alpha (x_j - x_l), O(M) per column instead of
// O(M nnz(c_l)) (a quarter of an iteration at N = 200), recomputed exactly every 32 iterations; above,
// each block's residuals are formed on the way (K / N of the GEMM's cost) and nothing the size of X is
// added. Progress reports f(C) and the Frank-Wolfe gap
// sum_l <g_l, c_l - e_j> at the current C.
//
// Without an iterate from the caller it starts as Sec. V-B does: C0 from SPA and the simplex-constrained
// least squares, t_init = round(1 / RMSE_init) with RMSE_init = ||X - X C0||_F / sqrt(N) (warm_start
// "spa"), or from C = 0 and t = 0 (Alg. 1 without warm start, "none").
#pragma once

#include "facto/self_dictionary_solver.hpp"

namespace facto {

class Merit final : public SelfDictionarySolver {
public:
    explicit Merit(std::shared_ptr<const SelfDictionary> problem);
    const char* algorithm() const override { return "merit"; }

private:
    void start(Matrix C0) override;
    void start_default(uint64_t seed) override;
    double iterate_once() override;
    double current_objective() const override { return sweep_.objective; }
    double current_stationarity() const override { return sweep_.gap; }
    // t_init from the parameter, or round(1 / RMSE) at C_.
    void begin(bool warm);

    std::vector<int64_t> vertex_;
    static constexpr int64_t kKeepResidualUpTo = 4096;
    bool keep_residual_ = false;
    Matrix R_;  // (X C - X)^T when kept
    int64_t since_exact_ = 0;  // iterations since R_ was computed from C_
    SelfDictionary::SweepWork work_;
    SelfDictionary::Sweep sweep_{0.0, 0.0};
    double t_ = 0.0;
    std::size_t threads_ = 1;
};

}  // namespace facto
