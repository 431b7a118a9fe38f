// NOMAD by the Burer-Monteiro heuristic of [TSC] (Sec. 4 and App. E): Q = Y Y^T
// with Y n x r nonnegative (the paper's Y^T), r >= K, which makes Q psd and nonnegative by
// construction, and the method of multipliers on the two equality constraints:
//     L(Y, mu, lambda) = -Tr(D Y Y^T) + sigma/2 ||Y Y^T 1 - 1||^2 - mu^T (Y Y^T 1 - 1)
//                        + phi/2 (||Y||_F^2 - K)^2 - lambda (||Y||_F^2 - K)                     (32)
// One solver iteration is one outer iteration of (33): Y := argmin of L from the current Y (33a), then
// mu -= eta sigma (Y Y^T 1 - 1) (33b), lambda -= eta phi (||Y||^2 - K) (33c). D is divided by ||D||_F
// inside L (the objective reported is Tr(D Q) with the D given).
//
// Two forms of (33a), by the parameter inner_method:
// - sphere (the default, [NLR]'s form): Y on the nonnegative sphere {Y >= 0, ||Y||_F^2 = K} with rows of
//   norm at most 1 (Q_ii <= 1 holds at every feasible Q; the cap keeps out spikes, one row of norm
//   sqrt(K), stationary points that a random start at r = K reached on two rings), so Tr Q = K
//   holds exactly (the trace terms vanish) and only the row sums have a multiplier; a few (10) steps of
//   spectral projected gradient along the projection arc between multiplier updates, its length carried
//   from one outer iteration to the next; sigma = 0.5 K / n, which weighs the penalty's sum over n
//   rows like Tr(D Q) / ||D||_F; a random nonnegative start with r = 3 K columns. On the first 1000
//   Fashion-MNIST test images (K = 10) this reaches within 2.1e-5 of NOMAD's certified optimum from 12 of
//   12 seeds in 5-20 s on one thread, where the paper's form below stops 0.49% under it; with r = 2 K,
//   [NLR]'s, 2 of 6 seeds stopped 0.6-0.9% under it (docs/architecture.md).
// - lbfgsb (the paper's): L-BFGS-B in the box 0 <= Y <= 1 with both penalties (sigma = phi = 1), to an
//   accuracy that tightens as 1 / (t + 1) at outer iteration t (with a fixed one the constraint
//   residuals stalled near 1e-6); spg: the same box by spectral projected gradient. Their start is a
//   symmetric NMF of D (App. D; facto's coordinate_descent) scaled so that the rows of Q sum to 1 on
//   average, or, on a problem given by its points, whose D is never formed, kernel k-means (parameter
//   start): K columns, the clustering's Q. A Q given by set_iterate is factored as by the symmetric NMF
//   start.
//
// The feasible phase (sphere method, parameter restore_below): once an outer iteration ends with the row
// sums within restore_below of 1, Y is restored onto NOMAD's feasible factors {Y >= 0, Y Y^T 1 = 1,
// ||Y||_F^2 = K} (sets/kmeans_factors.hpp: Gauss-Newton on Y's support) and every later outer iteration
// is inner_iterations steps of gradient projection on them (Rosen's method: the reduced gradient of
// -Tr(D Y Y^T) at the least-squares multipliers, a step along it, the restoration back onto the set as
// the retraction, SPG's Barzilai-Borwein lengths and nonmonotone search), feasible to 1e-12 at every
// step. The multipliers' tail goes: on the first 10,000 Fashion-MNIST test images the method of
// multipliers alone took 460 outer iterations (132 s on two threads), the row sums jumping between 1e-4
// and 3e-3 for 400 of them; with the phase 20 (18 s on one thread) to a higher objective. mu and lambda are
// the least-squares multipliers there (x's rows and trace), the stationarity ||[Y - R]_+ - Y||_inf
// their KKT residual.
//
// Escapes: an outer iteration that ends stationary and feasible (to tolerance and
// feasibility_tolerance) with fewer than `rank` columns looks for a nonnegative unit y with
// y^T S y < -tolerance, S = grad_Q L (HALLaR's escape step in the nonnegative orthant), and appends
// the column of best length along it; the solve ends CONVERGED only when none is found (or the
// columns are `rank`). A hard clustering, the k-means start, is stationary for L: only an escape
// leaves it (two rings n = 200, K = 16: 119.42 to 120.09).
//
// The problem is not convex: the Y reached is a local solution, whose Tr(D Q) is at most NOMAD's
// optimum (r = K gives hard clusterings; larger r approaches the convex solution, Sec. 4, Fig. 12).
// Progress: objective Tr(D Q); stationarity the largest entry of the projected gradient of L at the
// end of (33a) (||P(Y - G) - Y||_inf with P the projection onto the sphere or the box, D / ||D||_F: the
// KKT residual at the updated multipliers; after an escape, at the grown Y);
// feasibility the larger of max_i |(Q 1)_i - 1| and |Tr Q - K| / K; step size the relative change
// of Y (0 does not end the solve: the multipliers still move). The solver keeps D / ||D||_F as the
// square (n^2 values) when D was given, as the scaled points (n d) when the problem holds points, and
// its state is O(n r): on points nothing n x n is formed unless "Q" or the iterate is asked for.
//
// On a distributed nomad (problems/distributed_nomad.hpp) Y, mu and the gradient are
// distributed by the points' rows: every product Y^T D sums r d values over the processes, and the
// Lagrangian's scalars (u = Y^T 1, ||Y||^2, Tr(Y^T D Y), Y^T w) r + 2 and r + 1 more; (33a) is solved by
// SPG on the sphere or the box (L-BFGS-B's subspace steps are not distributed; the sphere's norm is one
// more sum), and the random start's and the escape's values are drawn for all n points, so every process
// takes the single-process decisions and the blocks of Y agree with the single-process Y up to the order
// of the sums.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "linalg/gram_rows.hpp"
#include "linalg/lbfgsb.hpp"
#include "sets/kmeans_factors.hpp"
#include "problems/nomad.hpp"
#include "problems/nomad_problem.hpp"
#include "solvers/solver.hpp"

namespace facto {

class BurerMonteiro final : public Solver {
public:
    // On one process (Nomad) or with the points spread over several (DistributedNomad).
    explicit BurerMonteiro(std::shared_ptr<const NomadProblem> problem);
    const char* algorithm() const override { return "burer_monteiro"; }
    // The parameter, or its automatic value for the form of (33a) in use.
    double tolerance() const override;

    // The factor Y (n x r, this process's rows when distributed), Q = Y Y^T.
    const Matrix& factor() const { return Y_; }
    // L(Y, mu, lambda) of (32) with D / ||D||_F at the current multipliers (after the start), and its
    // gradient G = -2 D Y + w u^T + 1 (Y^T w)^T + 2 (phi t - lambda) Y with u = Y^T 1,
    // w = sigma (Y u - 1) - mu, t = ||Y||^2 - K (Y and G n x r, row-major).
    double lagrangian(const double* Y, double* G);
    // The problem's outputs, "factor" (n x r; distributed: this process's rows) and (one process only) "upper_bound" (1 x 1: an upper bound of NOMAD's
    // optimum (O(n^2) memory up to n = 2000, O(n K) above), the least Nomad::clustering_bound of kernel
    // k-means's clustering of D
    // into K clusters and of the labels output when it has at most K components).
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name) const override;

private:
    void start(Matrix Q0) override;
    void start_default(uint64_t seed) override;
    double iterate_once() override;
    double current_objective() const override { return objective_; }
    double current_stationarity() const override { return inner_gradient_; }
    double current_feasibility() const override { return feasibility_; }
    bool stuck() const override { return false; }
    // Refuses a rank outside [K, n] (0 = the default), and on a distributed nomad the symnmf start and
    // L-BFGS-B.
    void check_params(const Params& p) const override;
    const Matrix& current() const override;

    std::size_t rank() const;
    // rows_ := the rows of D / ||D||_F held here, for block products (the square, or the scaled points),
    // on the threads of the parameter; scale_ := ||D||_F and the scaled D once.
    void prepare_data();
    // The processes' sums of values (nothing on one process), and the largest of a value >= 0.
    void sum(double* values, std::size_t count) const { problem().reduce_sums(values, count); }
    double largest(double value) const { return largest_over(problem().collectives(), value); }
    // interrupted() on any process (each decides on its own clock).
    bool interrupted_anywhere() const { return any_over(problem().collectives(), interrupted()); }
    // Y_ := the indicators of a clustering of the rows held here, column k scaled by 1 / sqrt(n_k).
    void set_indicators(const std::vector<int64_t>& labels);
    // The multipliers at 0 and the measures at Y_.
    void begin();
    // Y := a symmetric NMF of M (rank r, coordinate descent from `seed`), normalized; M is moved into
    // the SymNMF problem (no further n x n copy).
    void factor_start(Matrix M, uint64_t seed);
    // Y := the scaled indicators of the best of start_replicates kernel k-means runs on D from `seed`
    // (K columns), normalized.
    void kmeans_start(uint64_t seed);
    // Y := rank() columns of uniform random entries in [0, 1) from `seed`, normalized.
    void random_start(uint64_t seed);
    // Y scaled to mean row sum 1 of Y Y^T, clipped to [0, 1].
    void normalize_start();
    // Whether (33a) runs on the nonnegative sphere ||Y||_F^2 = K (inner method sphere, or auto at rank
    // other than K).
    bool sphere() const;
    // sigma, the penalty parameter's value or its automatic one.
    double sigma() const;
    // sqrt(K), the sphere's radius; Y := its projection onto the sphere, rows capped at norm 1.
    double radius() const;
    void onto_sphere();
    // YtD_ := Y^T D (the columns of the rows held here); returns this process's part of Tr(Y^T D Y).
    double product(const double* Y);
    // The multiply-adds of the products since the start (D's stored values times the columns multiplied).
    double product_work() const;
    // objective_, feasibility_, row_sums_ and squares_ at Y_.
    void measure();
    // S Z for S = grad_Q L at Y_ and the current multipliers (Z and S Z n x m, row-major).
    void apply_s(const double* Z, std::size_t m, double* SZ);
    // Appends a column to Y_ along a nonnegative direction of negative curvature of S, if one is
    // found with y^T S y < -tolerance; returns whether it did.
    bool escape();
    // L-BFGS-B's projected gradient of L at Y_ (one product).
    double projected_gradient();
    // The inner method's settings at this outer iteration.
    LbfgsbSettings inner_settings() const;
    // Y_ := y (one outer iteration more) and the measures there; returns the relative change of Y.
    double move_to(const std::vector<double>& y);
    // At a point that would end the solve with fewer than rank columns: an escape, back to the method of
    // multipliers when one is found.
    void escape_if_stationary();
    // The feasible factors for Y_'s shape (sets/kmeans_factors.hpp).
    KmeansFactors factors() const;
    // Y_ restored onto the feasible factors, if the restoration succeeds, and the solve on them from there.
    void enter_set();
    // -Tr(Y^T D Y) and (R) its reduced gradient on the feasible factors, multipliers_ the least-squares ones.
    double value_on_set(const double* Y, double* R);
    // mu_, lambda_ := multipliers_.
    void adopt_multipliers();
    // One outer iteration on the feasible factors: inner_iterations steps of gradient projection.
    double iterate_on_set();

    std::shared_ptr<const NomadProblem> nomad_;  // on one process or several (nomad_->whole(): one)
    std::size_t n_ = 0, first_ = 0;              // all points, and the first held here
    int64_t K_ = 0;
    ScaledNomad scaled_;  // D / ||D||_F (the square on one process, the scaled points distributed)
    GramRows rows_;       // the rows of D / ||D||_F held here
    double scale_ = 1.0;  // ||D||_F
    Matrix Y_, YtD_;  // YtD_ = Y^T D (r x n), D / ||D||_F
    std::vector<double> mu_, row_sums_, u_, w_;
    double lambda_ = 0.0, objective_ = 0.0, feasibility_ = 0.0, squares_ = 0.0;  // squares_ = ||Y||_F^2 = Tr Q
    double inner_gradient_ = 0.0;  // the projected gradient at the end of the last (33a)
    double product_columns_ = 0.0;  // columns multiplied by D since the start (product_work)
    // on the feasible factors (restore_below): since when, the least-squares multipliers (the rows',
    // then the trace's) and the gradient -2 D Y of the last point
    bool on_set_ = false;
    std::vector<double> multipliers_, gradient_;
    // the restoration's target: the feasible factors' violation at most this
    static constexpr double kRestored = 1e-12;
    // the partition bound's steps may take the solve's multiply-adds, and at least these
    static constexpr double kBoundWork = 1e9;
    double step_ = 0.0;            // SPG's last Barzilai-Borwein length (0: none yet)
    int64_t outer_ = 0;
    std::size_t threads_ = 1;
    mutable Matrix dense_;  // Q's rows held here, when dense_valid_
    mutable bool dense_valid_ = false;
    // the outputs "labels" and "label_rule" at Y_ by labels_rule_, once asked (the components of Y Y^T's
    // graph cost O(n^2 r): the CLI asks for both and the certificate for the labels)
    mutable std::optional<std::pair<std::vector<int64_t>, int64_t>> labels_;
    mutable LabelRule labels_rule_;

    // The parameters, bound to the table.
    enum class Start { automatic, random, symnmf, kmeans };
    enum class Inner { automatic, sphere, lbfgsb, spg };
    struct Settings {
        int64_t rank = 0, start_iterations = 0, start_replicates = 0, lbfgs_memory = 0, inner_iterations = 0;
        int64_t bound_parts = 0, bound_iterations = 0;
        double penalty = 0.0, trace_penalty = 0.0, dual_step = 0.0, inner_tolerance = 0.0, inner_decrease = 0.0;
        double restore_below = 0.0;
        Start start = Start::automatic;
        Inner inner = Inner::automatic;
        LabelRule labels;
    } settings_;
};

}  // namespace facto
