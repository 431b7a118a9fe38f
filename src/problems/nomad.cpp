#include "problems/nomad.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/error.hpp"
#include "facto/facto.h"
#include "linalg/lanczos.hpp"
#include "linalg/parallel.hpp"
#include "metrics/metrics.hpp"

namespace facto {

Nomad::Nomad(Matrix D, int64_t K) : K_(K)
{
    const int64_t rows = static_cast<int64_t>(D.shape()[0]), cols = static_cast<int64_t>(D.shape()[1]);
    require(rows == cols && rows > 0, FACTO_ERROR_DIMENSION,
            "D must be square and non-empty, got " + std::to_string(rows) + " x " + std::to_string(cols));
    require(K >= 1 && K <= rows, FACTO_ERROR_DIMENSION,
            "K = " + std::to_string(K) + " must satisfy 1 <= K <= n = " + std::to_string(rows));
    require_finite(D, "D");
    require_symmetric(D, "D");
    // packed D, and nomad_cgm's packed P, Gamma and gradient: four upper triangles
    const double n = static_cast<double>(rows);
    require_memory(4.0 * 8.0 * n * (n + 1.0) / 2.0, "nomad with n = " + std::to_string(rows));
    D_ = PackedSymmetric::from_upper(D);
}

double Nomad::objective(const Matrix& Q) const
{
    require_shape(Q, static_cast<int64_t>(D_.n), static_cast<int64_t>(D_.n), "Q");
    double sum = 0.0;
    for (std::size_t i = 0; i < D_.n; ++i)
        for (std::size_t j = 0; j < D_.n; ++j) sum += D_(i, j) * Q(i, j);
    return sum;
}

Matrix Nomad::random_point(uint64_t) const
{
    const std::size_t n = D_.n;
    const double e = 1.0 / static_cast<double>(n);
    const double c = n > 1 ? static_cast<double>(K_ - 1) / static_cast<double>(n - 1) : 0.0;
    Matrix Q({n, n});
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) Q(i, j) = e + c * ((i == j ? 1.0 : 0.0) - e);
    return Q;
}

Matrix Nomad::feasible_point(const Matrix& Q) const
{
    const std::size_t n = D_.n;
    require_shape(Q, static_cast<int64_t>(n), static_cast<int64_t>(n), "iterate");
    require_finite(Q, "Q");
    Matrix S = Q;
    require_symmetric(S, "Q");
    const NomadFeasibility f = feasibility(PackedSymmetric::from_upper(S), K_);
    require(f.row_sum <= 1e-6 && f.trace <= 1e-6 * static_cast<double>(K_), FACTO_ERROR_INFEASIBLE,
            "Q must satisfy Q 1 = 1 and Tr Q = K to 1e-6: max |Q 1 - 1| = " + std::to_string(f.row_sum) +
                ", |Tr Q - K| = " + std::to_string(f.trace));
    return S;
}

NomadFeasibility Nomad::feasibility(const PackedSymmetric& Q, int64_t K)
{
    const std::size_t n = Q.n;
    NomadFeasibility f{0.0, 0.0, 0.0, 0.0};
    std::vector<double> rows(n, 0.0);
    double squares = 0.0, trace = 0.0, count = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i; j < n; ++j) {
            const double q = Q.values[Q.start(i) + j - i], weight = i == j ? 1.0 : 2.0;
            rows[i] += q;
            if (j != i) rows[j] += q;
            if (i == j) trace += q;
            if (q < 0.0) {
                squares += weight * q * q;
                count += weight;
                f.negative_max = std::max(f.negative_max, -q);
            }
        }
    f.negative_rmse = count > 0.0 ? std::sqrt(squares / count) : 0.0;
    for (double r : rows) f.row_sum = std::max(f.row_sum, std::fabs(r - 1.0));
    f.trace = std::fabs(trace - static_cast<double>(K));
    return f;
}

std::vector<OutputSpec> Nomad::output_specs() const
{
    return {{"Q", FACTO_OUTPUT_DOUBLE, n(), n()},
            {"embedding", FACTO_OUTPUT_DOUBLE, n(), 2},
            {"feasibility", FACTO_OUTPUT_DOUBLE, 1, 4},
            labels_spec(n())};
}

Output Nomad::output(const std::string& name, const Matrix& Q) const
{
    if (name == "Q") return Output{output_specs()[0], std::vector<double>(Q.begin(), Q.end()), {}};
    return output(name, PackedSymmetric::from_upper(Q));
}

Output Nomad::output(const std::string& name, const PackedSymmetric& S, double component_threshold) const
{
    const std::vector<OutputSpec> specs = output_specs();
    if (name == "labels") {
        const double mean_diagonal = static_cast<double>(K_) / static_cast<double>(S.n);
        return Output{specs[3], {}, connected_components(S, component_threshold * mean_diagonal)};
    }
    if (name == "Q") {
        const Matrix Q = S.to_dense();
        return Output{specs[0], std::vector<double>(Q.begin(), Q.end()), {}};
    }
    if (name == "feasibility") {
        const NomadFeasibility f = feasibility(S, K_);
        return Output{specs[2], {f.negative_rmse, f.negative_max, f.row_sum, f.trace}, {}};
    }
    if (name == "embedding") {
        // the two leading eigenpairs of P = Q - E (Q's own, without the constant eigenvector), as the
        // smallest of -P and then of -P + lambda_1 v_1 v_1^T (lambda_1 the first's eigenvalue of -P)
        const std::size_t size = D_.n, threads = resolve_threads(0);
        std::vector<double> first, embedding(2 * size, 0.0);
        double first_value = 0.0;
        for (std::size_t k = 0; k < std::min<std::size_t>(2, size); ++k) {
            std::vector<double> v(size);
            for (std::size_t i = 0; i < size; ++i) v[i] = std::cos(static_cast<double>((i + 1) * (k + 1)));
            const Eigenpair pair = smallest_eigenpair(
                size,
                [&](const double* x, double* y) {
                    multiply(S, x, y, threads);
                    double mean = 0.0, along = 0.0;
                    for (std::size_t i = 0; i < size; ++i) mean += x[i];
                    mean /= static_cast<double>(size);
                    for (std::size_t i = 0; i < first.size(); ++i) along += first[i] * x[i];
                    for (std::size_t i = 0; i < size; ++i)
                        y[i] = mean - y[i] - (first.empty() ? 0.0 : first_value * along * first[i]);
                },
                v, 1e-10);
            const double scale = std::sqrt(std::max(0.0, -pair.value));
            for (std::size_t i = 0; i < size; ++i) embedding[2 * i + k] = scale * v[i];
            first = v;
            first_value = pair.value;
        }
        return Output{specs[1], embedding, {}};
    }
    throw Error(FACTO_ERROR_UNKNOWN_PARAMETER, "unknown output '" + name + "' (nomad has: Q, embedding, feasibility, labels)");
}

}  // namespace facto
