#include "sets/kmeans_factors.hpp"

#include <algorithm>
#include <cmath>

namespace facto {

namespace {
constexpr int kConjugateGradientSteps = 100;
}

double KmeansFactors::total(double value) const
{
    sum_over(collectives, &value, 1);
    return value;
}

std::vector<double> KmeansFactors::column_sums(const double* Y) const
{
    std::vector<double> u(columns, 0.0);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t k = 0; k < columns; ++k) u[k] += Y[i * columns + k];
    sum_over(collectives, u.data(), columns);
    return u;
}

double KmeansFactors::violation(const double* Y) const
{
    const std::vector<double> u = column_sums(Y);
    double largest = 0.0, squares = 0.0;
    for (std::size_t i = 0; i < rows; ++i) {
        double row_sum = 0.0;
        for (std::size_t k = 0; k < columns; ++k) {
            row_sum += Y[i * columns + k] * u[k];
            squares += Y[i * columns + k] * Y[i * columns + k];
        }
        largest = std::max(largest, std::fabs(row_sum - 1.0));
        if (std::isnan(row_sum)) largest = row_sum;
    }
    squares = total(squares);
    const double trace = std::fabs(squares - K) / K;
    return std::isnan(trace) ? trace : std::max(largest_over(collectives, largest), trace);
}

void KmeansFactors::adjoint(const double* Y, const std::vector<double>& u, const std::vector<double>& x, bool masked,
                            double* D) const
{
    // J^T (z, zeta) = z u^T + 1 (Y^T z)^T + 2 zeta Y, on the support when masked
    std::vector<double> v(columns, 0.0);  // Y^T z
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t k = 0; k < columns; ++k) v[k] += Y[i * columns + k] * x[i];
    sum_over(collectives, v.data(), columns);
    const double zeta = x[rows];
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t k = 0; k < columns; ++k) {
            const double y = Y[i * columns + k];
            D[i * columns + k] = masked && !(y > 0.0) ? 0.0 : x[i] * u[k] + v[k] + 2.0 * zeta * y;
        }
}

namespace {
// out := J(D) = (D u + Y D^T 1, 2 <Y, D>) for D n x r (rows held here), u = Y^T 1
void forward(const double* Y, const double* D, std::size_t rows, std::size_t columns, const std::vector<double>& u,
             const Collectives* collectives, std::vector<double>& out)
{
    std::vector<double> s(columns + 1, 0.0);  // D^T 1, then <Y, D>
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t k = 0; k < columns; ++k) {
            s[k] += D[i * columns + k];
            s[columns] += Y[i * columns + k] * D[i * columns + k];
        }
    sum_over(collectives, s.data(), columns + 1);
    out.resize(rows + 1);
    for (std::size_t i = 0; i < rows; ++i) {
        double value = 0.0;
        for (std::size_t k = 0; k < columns; ++k) value += D[i * columns + k] * u[k] + Y[i * columns + k] * s[k];
        out[i] = value;
    }
    out[rows] = 2.0 * s[columns];
}
}  // namespace

KmeansFactors::Linearization KmeansFactors::linearize(const double* Y) const
{
    Linearization l;
    l.u = column_sums(Y);
    l.a.assign(rows, 0.0);
    l.yu.assign(rows, 0.0);
    l.m.assign(columns + 1, 0.0);  // then ||Y||^2
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t k = 0; k < columns; ++k) {
            const double y = Y[i * columns + k], on = y > 0.0 ? 1.0 : 0.0;
            l.a[i] += on * l.u[k] * l.u[k];
            l.yu[i] += y * l.u[k];
            l.m[k] += on;
            l.m[columns] += y * y;
        }
    sum_over(collectives, l.m.data(), columns + 1);
    l.squares = l.m[columns];
    l.m.resize(columns);
    return l;
}

void KmeansFactors::normal_product(const double* Y, const Linearization& l, const std::vector<double>& x,
                                   std::vector<double>& out) const
{
    // J J^T (z, zeta) in two passes over Y, without forming J^T: with v = Y^T z, t = M^T z and
    // s = (J^T x)^T 1 = u o t + m o v + 2 zeta u, row i is z_i a_i + sum_k (M_ik u_k v_k + Y_ik s_k) +
    // 2 zeta (Y u)_i and the trace's 2 (z^T Y u + v^T u + 2 zeta ||Y||^2)
    const double zeta = x[rows];
    std::vector<double> sums(2 * columns + 1, 0.0);  // v, t, z^T Y u
    double* v = sums.data();
    double* t = v + columns;
    for (std::size_t i = 0; i < rows; ++i) {
        const double* y = Y + i * columns;
        for (std::size_t k = 0; k < columns; ++k) v[k] += y[k] * x[i], t[k] += y[k] > 0.0 ? x[i] : 0.0;
        sums[2 * columns] += x[i] * l.yu[i];
    }
    sum_over(collectives, sums.data(), sums.size());
    std::vector<double> s(columns), uv(columns);
    double vu = 0.0;
    for (std::size_t k = 0; k < columns; ++k) {
        s[k] = l.u[k] * t[k] + l.m[k] * v[k] + 2.0 * zeta * l.u[k];
        uv[k] = l.u[k] * v[k];
        vu += uv[k];
    }
    out.resize(rows + 1);
    for (std::size_t i = 0; i < rows; ++i) {
        const double* y = Y + i * columns;
        double value = 0.0;
        for (std::size_t k = 0; k < columns; ++k) value += (y[k] > 0.0 ? uv[k] : 0.0) + y[k] * s[k];
        out[i] = x[i] * l.a[i] + value + 2.0 * zeta * l.yu[i];
    }
    out[rows] = 2.0 * (sums[2 * columns] + vu + 2.0 * zeta * l.squares);
}

void KmeansFactors::solve(const double* Y, const Linearization& l, const std::vector<double>& b, std::vector<double>& x,
                          double relative) const
{
    // inner products over every process's rows, the trace's entry (the same everywhere) once
    const auto dot = [&](const std::vector<double>& a, const std::vector<double>& c) {
        double value = 0.0;
        for (std::size_t i = 0; i < rows; ++i) value += a[i] * c[i];
        return total(value) + a[rows] * c[rows];
    };
    // Jacobi: (J J^T)_ii = a_i + 2 (Y u)_i + sum_k Y_ik^2 m_k, and 4 ||Y||^2 for the trace
    std::vector<double> diagonal(rows + 1, 1.0);
    for (std::size_t i = 0; i < rows; ++i) {
        double d = l.a[i] + 2.0 * l.yu[i];
        for (std::size_t k = 0; k < columns; ++k) d += Y[i * columns + k] * Y[i * columns + k] * l.m[k];
        if (d > 0.0) diagonal[i] = d;
    }
    if (l.squares > 0.0) diagonal[rows] = 4.0 * l.squares;
    const double target = relative * std::sqrt(dot(b, b));
    x.resize(rows + 1, 0.0);
    std::vector<double> residual(rows + 1), z(rows + 1), p, product;
    normal_product(Y, l, x, product);
    for (std::size_t i = 0; i <= rows; ++i) residual[i] = b[i] - product[i];
    for (std::size_t i = 0; i <= rows; ++i) z[i] = residual[i] / diagonal[i];
    p = z;
    double rz = dot(residual, z);
    for (int step = 0; step < kConjugateGradientSteps && std::sqrt(dot(residual, residual)) > target; ++step) {
        normal_product(Y, l, p, product);
        const double curvature = dot(p, product);
        if (!(curvature > 0.0)) break;
        const double alpha = rz / curvature;
        for (std::size_t i = 0; i <= rows; ++i) x[i] += alpha * p[i], residual[i] -= alpha * product[i];
        for (std::size_t i = 0; i <= rows; ++i) z[i] = residual[i] / diagonal[i];
        const double next = dot(residual, z);
        for (std::size_t i = 0; i <= rows; ++i) p[i] = z[i] + next / rz * p[i];
        rz = next;
    }
}

bool KmeansFactors::restore(double* Y, double target, int sweeps, const std::function<bool()>& interrupted) const
{
    const std::size_t n = rows * columns;
    for (std::size_t k = 0; k < n; ++k) Y[k] = std::max(Y[k], 0.0);
    std::vector<double> c(rows + 1), x, D(n);
    for (int sweep = 0;; ++sweep) {
        const double violation = this->violation(Y);
        if (violation <= target) return true;
        if (!std::isfinite(violation) || sweep == sweeps || (interrupted && interrupted())) return false;
        // c = (Y u - 1, ||Y||^2 - K); J J^T x = -c to a relative residual of min(0.1, violation) (the
        // forcing term of an inexact Newton method: quadratic convergence without solving far from the set)
        const Linearization l = linearize(Y);
        for (std::size_t i = 0; i < rows; ++i) c[i] = 1.0 - l.yu[i];
        c[rows] = K - l.squares;
        x.assign(rows + 1, 0.0);
        solve(Y, l, c, x, std::min(0.1, violation));
        adjoint(Y, l.u, x, true, D.data());
        for (std::size_t k = 0; k < n; ++k) Y[k] = std::max(Y[k] + D[k], 0.0);
    }
}

void KmeansFactors::reduce(const double* Y, const double* G, std::vector<double>& x, double* R) const
{
    const std::size_t n = rows * columns;
    const Linearization l = linearize(Y);
    std::vector<double> b;
    for (std::size_t k = 0; k < n; ++k) R[k] = Y[k] > 0.0 ? G[k] : 0.0;  // M o G
    forward(Y, R, rows, columns, l.u, collectives, b);
    if (x.size() != rows + 1) x.assign(rows + 1, 0.0);
    solve(Y, l, b, x, 1e-10);
    adjoint(Y, l.u, x, false, R);
    for (std::size_t k = 0; k < n; ++k) R[k] = G[k] - R[k];
}

}  // namespace facto
