// MERIT ([NFW] Alg. 1): Frank-Wolfe on SD-MMV (eq. 18) with steps 2 / (t + 2) from t_init
// (warm-start Frank-Wolfe, Sec. III-A). Each iteration moves every column c_l toward the vertex e_j,
// j = argmin_n G(n, l) (eq. 21), found by a kernel that computes the gradient in registers and keeps only
// each column's minimum (merit_sweep, solvers/self_dictionary/merit_sweep.hpp), so memory is X, nnz(C) and O(M x block). Up to N = 4096 the residual R = (X C - X)^T (N x M) is kept
// and moves with C, r_l := (1 - alpha) r_l + alpha (x_j - x_l), O(M) per column instead of
// O(M nnz(c_l)) (a quarter of an iteration at N = 200), recomputed exactly every 32 iterations; above,
// each block's residuals are formed on the way (K / N of the GEMM's cost) and nothing the size of X is
// added. Progress reports f(C) and the Frank-Wolfe gap sum_l <g_l, c_l - e_j> at the current C,
// relative to f at the start (output "gaps" gives it absolute).
//
// Variants (parameter "variant", beyond the paper): "vanilla" is Alg. 1; "auto", the default, runs it on
// the plain problem, "corrective" on the topic job and "pairwise" on the community job. "away" and "pairwise" move each
// column toward its LMO vertex or away from its away vertex (the support's row of largest g_l), or
// move mass from the away vertex to the LMO vertex, with steps from each column's exact minimizer of
// 1/2 ||X c_l - x_l||^2 along its direction (slope <g_l, d_l>, curvature ||X d_l||^2), within the
// column's bound. The columns are independent when lambda = 0, so those steps are exact; when
// lambda > 0, Phi couples them through the rows of C, and one common factor theta in [0, 1] scales
// every column's step, minimizing f along the combined direction (Brent's method, f convex); each
// column's step then comes from f along the column's own direction with the others fixed. Neither
// step adds a row that the LMO vertex does not add, so nnz(C) keeps the bound of vanilla MERIT.
// "corrective" (fully corrective on each column's rows): each column's target is the exact minimizer of
// its residual term plus Phi's linear term lambda <y_l, c> over the simplex on its support and LMO
// vertex (a K x K-sized quadratic program, simplex_least_squares_gram), and every column moves
// toward its target by one common factor theta in [0, 1] minimizing f (theta = 1 when lambda = 0).
// The support rarely exceeds M + 1 rows: the program's exact zeros leave it.
//
// Without an iterate from the caller it starts as Sec. V-B does: C0 from SPA and the simplex-constrained
// least squares, t_init = round(1 / RMSE_init) with RMSE_init = ||X - X C0||_F / sqrt(N) (warm_start
// "spa"), or from C = 0 and t = 0 (Alg. 1 without warm start, "none").
#pragma once

#include "solvers/self_dictionary/merit_sweep.hpp"
#include "solvers/self_dictionary/self_dictionary_solver.hpp"

namespace facto {

class Merit final : public SelfDictionarySolver {
public:
    explicit Merit(std::shared_ptr<const SelfDictionary> problem);
    const char* algorithm() const override { return "merit"; }
    // The problem's outputs and "gaps" (1 x 3: the Frank-Wolfe gap, the away gap, the pairwise gap).
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name) const override;

private:
    void start(Matrix C0) override;
    void start_default(uint64_t seed) override;
    double iterate_once() override;
    // Refuses warm_start 'spa' when the problem has no K.
    void check_params(const Params& p) const override;
    double current_objective() const override { return sweep_.objective; }
    // The Frank-Wolfe gap relative to the objective at the start (relative_gap).
    double current_stationarity() const override { return relative_gap(sweep_.gap, start_objective_); }
    // t_init from the parameter, or round(1 / RMSE) at C_.
    void begin(bool warm);
    double open_loop_step();
    // away, pairwise and corrective: the columns' steps or targets, then one common factor (line search
    // on f when lambda > 0)
    double line_searched_step();
    // A column without a row (the C = 0 start) first takes Alg. 1's first step, alpha = 1; true when one
    // did, on any process (then C was swept again).
    bool fill_empty_columns();
    // Each column's target (into moves_); returns the residual term's slope and curvature along the
    // combined direction, as column_steps does.
    std::pair<double, double> corrective_targets();
    // (sum slopes, sum curvatures) over every process's columns
    std::pair<double, double> summed(const std::vector<double>& slopes, const std::vector<double>& curvatures) const;
    FrankWolfeVariant block_variant() const
    {
        return variant() == Variant::away ? FrankWolfeVariant::away : FrankWolfeVariant::pairwise;
    }
    // Each column's direction and its step on the separable part (into moves_); returns
    // (sum_l step_l <r_l, X d_l>, sum_l step_l^2 ||X d_l||^2 / 2), the residual term's slope and
    // curvature along the combined direction.
    std::pair<double, double> column_steps();
    // A row that direction d moves in column l: C(row, l) before the step, and d_row.
    struct DirectionEntry {
        int64_t row;
        double before, direction;
    };
    // lambda > 0: the exact step of f along d in column l alone (the others fixed), residual term
    // rd g + xd2 g^2 / 2; `entries` is a buffer.
    double column_step_with_phi(std::size_t l, const BlockDirection& d, double rd, double xd2,
                                std::vector<DirectionEntry>& entries) const;
    // argmin over theta in [0, 1] of f(C + theta D), D the combined direction of moves_.
    double common_factor(double slope, double curvature) const;
    // C + theta D (in trial_, whose columns keep their capacity from call to call).
    const SimplexColumns& moved(double theta) const;
    mutable SimplexColumns trial_;
    // C_ := C_ + theta D, and R with it when `move_residual`.
    void move(double theta, bool move_residual);
    // The sweep at C_ after C_ changed; R is recomputed from C_ first when kept and not moved along.
    void resweep(bool residual_moved);

    struct Move {
        BlockDirection direction;
        double step = 0.0;
        std::vector<SimplexColumns::Entry> target;  // "corrective": the column's target (step 1)
    };
    std::vector<Move> moves_;

    std::vector<int64_t> vertex_;
    static constexpr int64_t kKeepResidualUpTo = 4096;
    bool keep_residual_ = false;
    Matrix R_;  // (X C - X)^T when kept
    int64_t since_exact_ = 0;  // iterations since R_ was computed from C_
    double start_objective_ = 0.0;  // f at the start, the scale of the stationarity measure
    SweepWork work_;
    Sweep sweep_{0.0, 0.0, 0.0};
    double t_ = 0.0;
    std::size_t threads_ = 1;

    enum class WarmStart { auto_, spa, none };
    enum class Variant { automatic, vanilla, away, pairwise, corrective };
    // The variant that runs: the parameter's, "auto" resolved by the problem's kind.
    Variant variant() const;
    // bound to the parameters "variant", "warm_start", "t_init" and "block"
    Variant variant_ = Variant::automatic;
    WarmStart warm_start_ = WarmStart::auto_;
    int64_t t_init_ = -1, block_ = 1024;
};

}  // namespace facto
