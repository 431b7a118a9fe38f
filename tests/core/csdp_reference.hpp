// NOMAD's exact optimum from coinor-csdp (an interior-point SDP solver from Debian), for the tests and
// the benchmarks: the instance is written in SDPA sparse format and csdp is run as a program.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "linalg/matrix.hpp"

namespace facto::test {

// Tr(D Q*) for NOMAD by coinor-csdp's interior-point method (NaN when csdp cannot be run): Q in an
// n x n block, the constraints Q 1 = 1 and Tr Q = K, and Q_ij - s_ij = 0 with the slacks s_ij >= 0
// in a diagonal block. SDPA sparse format: entries of the upper triangles, symmetric matrices.
inline double csdp_objective(const Matrix& D, int64_t K, const std::string& base)
{
    const std::size_t n = D.shape()[0], pairs = n * (n - 1) / 2;
    std::ofstream f(base + ".dat-s");
    f.precision(17);
    f << n + 1 + pairs << "\n2\n" << n << " -" << pairs << "\n";
    for (std::size_t i = 0; i < n; ++i) f << "1 ";
    f << K;
    for (std::size_t p = 0; p < pairs; ++p) f << " 0";
    f << "\n";
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i; j < n; ++j)
            if (D(i, j) != 0.0) f << "0 1 " << i + 1 << " " << j + 1 << " " << D(i, j) << "\n";
    for (std::size_t i = 0; i < n; ++i)  // (Q 1)_i = 1
        for (std::size_t j = 0; j < n; ++j)
            f << i + 1 << " 1 " << std::min(i, j) + 1 << " " << std::max(i, j) + 1 << " " << (i == j ? 1.0 : 0.5)
              << "\n";
    for (std::size_t i = 0; i < n; ++i) f << n + 1 << " 1 " << i + 1 << " " << i + 1 << " 1\n";  // Tr Q = K
    for (std::size_t i = 0, p = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j, ++p) {  // Q_ij - s_p = 0
            f << n + 2 + p << " 1 " << i + 1 << " " << j + 1 << " 0.5\n";
            f << n + 2 + p << " 2 " << p + 1 << " " << p + 1 << " -1\n";
        }
    f.close();
    const std::string command =
        "OMP_NUM_THREADS=1 csdp " + base + ".dat-s " + base + ".sol > " + base + ".out 2>&1";
    if (std::system(command.c_str()) != 0) return NAN;
    std::ifstream out(base + ".out");
    for (std::string line; std::getline(out, line);)
        if (line.rfind("Primal objective value:", 0) == 0) return std::stod(line.substr(23));
    return NAN;
}

// csdp's dual solution of the run above (its .sol file's first line): y for the constraints in order,
// (Q 1)_i = 1 (n), Tr Q = K, Q_ij - s_ij = 0 (the pairs i < j row by row). Empty when unreadable.
inline std::vector<double> csdp_dual(const std::string& base)
{
    std::ifstream in(base + ".sol");
    std::string line;
    std::getline(in, line);
    std::istringstream values(line);
    std::vector<double> y;
    for (double v; values >> v;) y.push_back(v);
    return y;
}

// Weak duality with csdp's y: for every X = diag(Q, S), Q psd, S >= 0 (here S_ij = [Q_ij]_+),
//     Tr(D Q) = sum_k y_k tr(A_k X) - tr(Z X) <= a^T y + sum_k |y_k| |tr(A_k X) - a_k|,
// which bounds Tr(D Q) by the dual objective plus the constraint residuals of Q weighted by |y|:
// an upper bound of what an approximately feasible psd Q can reach, on every machine.
inline double csdp_certified_bound(const std::vector<double>& y, const Matrix& Q, int64_t K)
{
    const std::size_t n = Q.shape()[0];
    double bound = y[n] * static_cast<double>(K), trace = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        double row = 0.0;
        for (std::size_t j = 0; j < n; ++j) row += Q(i, j);
        bound += y[i] + std::fabs(y[i]) * std::fabs(row - 1.0);
        trace += Q(i, i);
    }
    bound += std::fabs(y[n]) * std::fabs(trace - static_cast<double>(K));
    for (std::size_t i = 0, p = n + 1; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j, ++p) bound += std::fabs(y[p]) * std::max(-Q(i, j), 0.0);
    return bound;
}

}  // namespace facto::test
