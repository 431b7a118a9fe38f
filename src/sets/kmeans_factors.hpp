// The nonnegative factors of NOMAD's feasible set ([TSC] Sec. 4, [NLR]): Y n x r with
//     Y >= 0,  c(Y) = (Y Y^T 1 - 1, ||Y||_F^2 - K) = 0,
// so that Q = Y Y^T is psd, nonnegative, has row sums 1 and trace K. On the support M of Y (its positive
// entries) the constraints' Jacobian and its adjoint are
//     J(Delta) = (Delta u + Y Delta^T 1, 2 <Y, Delta>),   J^T(z, zeta) = M o (z u^T + 1 (Y^T z)^T + 2 zeta Y),
// u = Y^T 1, and J J^T (order n + 1) is well conditioned near the set (about the diagonal
// sum_k M_ik u_k^2, which its Jacobi preconditioner takes out), so its systems take a few dozen
// conjugate-gradient steps of O(n r) each, no product with D. Two operations on it make gradient
// projection on the set (Rosen's method) possible for burer_monteiro:
// - restore: the Gauss-Newton projection onto c = 0 moving only the support (Y := [Y + J^T x]_+ with
//   J J^T x = -c, repeated), a retraction near the set;
// - reduce: the least-squares multipliers x = argmin ||M o (G - J^T x)|| of a gradient G and the
//   reduced gradient R = G - (x u^T + 1 (Y^T x)^T + 2 x_n Y) everywhere; Y is a KKT point of min f over
//   the set when [Y - R]_+ = Y (R = 0 on the support, R >= 0 off it).
// With collectives, Y, G, R and x's first n values are this process's rows; the sums are collective.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "base/collectives.hpp"

namespace facto {

struct KmeansFactors {
    KmeansFactors(std::size_t rows, std::size_t columns, double K, const Collectives* collectives)
        : rows(rows), columns(columns), K(K), collectives(collectives)
    {
    }
    std::size_t rows, columns;  // of Y held here (n x r on one process)
    double K;
    const Collectives* collectives;

    // max(max_i |(Y Y^T 1)_i - 1|, |||Y||^2 - K| / K) over every process: what the solver calls feasibility.
    double violation(const double* Y) const;
    // Y := the Gauss-Newton projection of Y onto the set (in place, Y >= 0 first); true when the
    // violation ends at most `target` within `sweeps` (false: Y is left where the sweeps ended, also when
    // `interrupted`, asked before each sweep, says so; collective when distributed, as it is here).
    bool restore(double* Y, double target, int sweeps = 10, const std::function<bool()>& interrupted = {}) const;
    // R := the reduced gradient of G at Y (both rows x columns, row-major); x (rows + 1 values: the rows'
    // multipliers, then the trace's) is the least-squares multipliers, its values on entry the conjugate
    // gradients' start (resized to rows + 1 with zeros when it has another size).
    void reduce(const double* Y, const double* G, std::vector<double>& x, double* R) const;

private:
    // What J J^T needs of Y besides Y: u = Y^T 1, a_i = sum_k M_ik u_k^2, (Y u)_i, m_k = the support's
    // size in column k, ||Y||^2 (sums over every process)
    struct Linearization {
        std::vector<double> u, a, yu, m;
        double squares = 0.0;
    };
    Linearization linearize(const double* Y) const;
    // Solves J J^T x = b on the support of Y by Jacobi-preconditioned conjugate gradients from x, to a
    // residual norm at most relative * ||b||.
    void solve(const double* Y, const Linearization& l, const std::vector<double>& b, std::vector<double>& x,
               double relative) const;
    // out := J J^T x (the rows' values, then the trace's).
    void normal_product(const double* Y, const Linearization& l, const std::vector<double>& x,
                        std::vector<double>& out) const;
    // D := J^T x on the support (masked) or everywhere, u = Y^T 1.
    void adjoint(const double* Y, const std::vector<double>& u, const std::vector<double>& x, bool masked,
                 double* D) const;
    // u = Y^T 1 summed over the processes.
    std::vector<double> column_sums(const double* Y) const;
    double total(double value) const;
};

}  // namespace facto
