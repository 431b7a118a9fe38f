#include "linalg/gram_rows.hpp"

#include <algorithm>

#include "linalg/blas.hpp"

namespace facto {

GramRows all_rows(const GramOperator& D, std::size_t threads)
{
    GramRows rows;
    rows.n = rows.rows = D.n();
    rows.diagonal = D.diagonal();
    rows.column = [&D, threads](std::size_t pick, double* column) {
        std::vector<double> unit(D.n(), 0.0);
        unit[pick] = 1.0;
        D.multiply(unit.data(), column, threads);
    };
    rows.left_multiply = [&D, threads](const double* Z, std::size_t m, double* C) { D.left_multiply(Z, m, C, threads); };
    return rows;
}

GramRows factor_rows(const Matrix& F, std::size_t first, std::size_t n, const Collectives* collectives)
{
    GramRows rows;
    const std::size_t here = F.shape()[0], d = F.shape()[1];
    rows.n = n, rows.first = first, rows.rows = here, rows.collectives = collectives;
    for (std::size_t i = 0; i < here; ++i) rows.diagonal.push_back(blas::dot(&F(i, 0), &F(i, 0), d));
    rows.column = [&F, first, here, d, collectives](std::size_t pick, double* column) {
        std::vector<double> f(d, 0.0);  // f_pick from the process holding it, zeros elsewhere: the sum is exact
        if (pick >= first && pick < first + here) std::copy_n(&F(pick - first, 0), d, f.data());
        sum_over(collectives, f.data(), d);
        if (here > 0) blas::gemm(false, true, 1, here, d, 1.0, f.data(), d, F.data(), d, 0.0, column, here);
    };
    rows.left_multiply = [&F, here, d, collectives](const double* Z, std::size_t m, double* C) {
        // (Z^T F) F^T as GramOperator's factored product: m x d summed over the processes, then m x rows
        std::vector<double> ZtF(m * d, 0.0);
        if (here > 0) blas::gemm(true, false, m, d, here, 1.0, Z, m, F.data(), d, 0.0, ZtF.data(), d);
        sum_over(collectives, ZtF.data(), ZtF.size());
        if (here > 0) blas::gemm(false, true, m, here, d, 1.0, ZtF.data(), d, F.data(), d, 0.0, C, here);
    };
    return rows;
}

}  // namespace facto
