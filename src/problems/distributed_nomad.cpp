#include "problems/distributed_nomad.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/error.hpp"
#include "data/data.hpp"
#include "facto/facto.h"
#include "linalg/blas.hpp"
#include "metrics/metrics.hpp"
#include "problems/nomad.hpp"
#include "problems/row_blocks.hpp"

namespace facto {

DistributedNomad::DistributedNomad(const Matrix& X, int64_t n, int64_t first_row, int64_t K,
                                   std::shared_ptr<const Collectives> c)
    : n_(n), first_row_(first_row), K_(K), collectives_(std::move(c))
{
    require(collectives_ != nullptr, FACTO_ERROR_NULL_POINTER, "collectives is NULL");
    const Collectives& comm = *collectives_;
    const int64_t rows = static_cast<int64_t>(X.shape()[0]), d = static_cast<int64_t>(X.shape()[1]);
    agree_on_errors(comm, [&] {
        require(n_ >= 1, FACTO_ERROR_DIMENSION, "nomad: n = " + std::to_string(n_) + " must be at least 1");
        require_block(first_row_, rows, n_, "points", "n");
        require(d >= 1, FACTO_ERROR_DIMENSION, "nomad: the points X must have at least one column");
        require(K_ >= 1 && K_ <= n_, FACTO_ERROR_DIMENSION,
                "K = " + std::to_string(K_) + " must satisfy 1 <= K <= n = " + std::to_string(n_));
        require_finite(X, "X");
    });
    starts_ = row_block_starts(comm, first_row_, rows, n_, {{"K", static_cast<double>(K_)}, {"d", static_cast<double>(d)}});
    F_ = nomad_features(X, &comm);  // every process sees the same largest norm: all refuse alike
}

double DistributedNomad::objective(const Matrix& Q) const
{
    agree_on_errors(*collectives_, [&] { require_shape(Q, rows(), n_, "Q"); });
    // Tr(D Q) = sum_j f_j . (Q^T F)_j, Q^T F summed over the processes' rows
    const std::size_t n = static_cast<std::size_t>(n_), d = F_.shape()[1], here = F_.shape()[0];
    std::vector<double> QtF(n * d, 0.0);
    if (here > 0) blas::gemm(true, false, n, d, here, 1.0, Q.data(), n, F_.data(), d, 0.0, QtF.data(), d);
    collectives_->sum(QtF.data(), QtF.size());
    double trace = 0.0;
    for (std::size_t i = 0; i < here; ++i)
        trace += blas::dot(&F_(i, 0), &QtF[(static_cast<std::size_t>(first_row_) + i) * d], d);
    collectives_->sum(&trace, 1);
    return trace;
}

Matrix DistributedNomad::random_point(uint64_t) const
{
    throw Error(FACTO_ERROR_UNSUPPORTED, "a distributed nomad has no dense start: burer_monteiro starts it from kernel k-means");
}

Matrix DistributedNomad::feasible_point(const Matrix&) const
{
    throw Error(FACTO_ERROR_UNSUPPORTED, "a distributed nomad takes no given Q: burer_monteiro starts it from kernel k-means");
}

std::vector<OutputSpec> DistributedNomad::output_specs() const
{
    return {{"feasibility", FACTO_OUTPUT_DOUBLE, 1, 4}, labels_spec(rows())};
}

Output DistributedNomad::output(const std::string& name, const Matrix&) const
{
    if (name == "labels" || name == "feasibility")
        throw Error(FACTO_ERROR_UNSUPPORTED, "a distributed nomad's output '" + name + "' comes from burer_monteiro's factor");
    throw Error(FACTO_ERROR_UNKNOWN_PARAMETER, "unknown output '" + name + "' (distributed_nomad has: feasibility, labels)");
}

Output DistributedNomad::output_of_factor(const std::string& name, const Matrix& U, double component_threshold) const
{
    if (name != "labels" && name != "feasibility")  // refused alike on every process, before the collective
        throw Error(FACTO_ERROR_UNKNOWN_PARAMETER, "unknown output '" + name + "' (distributed_nomad has: feasibility, labels)");
    const Matrix all = gather(U);
    if (name == "labels") {
        const double mean_diagonal = static_cast<double>(K_) / static_cast<double>(n_);
        const std::vector<int64_t> labels = connected_components_of_factor(all, component_threshold * mean_diagonal);
        const auto first = labels.begin() + first_row_;
        return Output{output_specs()[1], {}, std::vector<int64_t>(first, first + rows())};
    }
    const NomadFeasibility f = Nomad::feasibility_of_factor(all, K_);
    return Output{output_specs()[0], {f.negative_rmse, f.negative_max, f.row_sum, f.trace}, {}};
}

double DistributedNomad::frobenius_norm() const
{
    const std::size_t d = F_.shape()[1];
    Matrix FtF({d, d}, 0.0);  // stays 0 on a process without points
    blas::gemm(true, false, 1.0, F_, F_, 0.0, FtF);
    collectives_->sum(FtF.data(), FtF.size());
    return std::sqrt(blas::frobenius_dot(FtF, FtF));
}

GramRows DistributedNomad::scaled_rows(double c, Matrix& scaled) const
{
    scaled = std::sqrt(c) * F_;
    return factor_rows(scaled, static_cast<std::size_t>(first_row_), static_cast<std::size_t>(n_), collectives_.get());
}

Matrix DistributedNomad::gather(const Matrix& U) const
{
    const std::size_t m = U.shape()[1];
    agree_on_errors(*collectives_, [&] { require_memory(8.0 * double(n_) * double(m), "the gathered factor"); });
    Matrix all({static_cast<std::size_t>(n_), m});
    gather_blocks(*collectives_, starts_, U.data(), m, all.data());
    return all;
}

}  // namespace facto
