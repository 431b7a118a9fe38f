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
    : blocks_(RowBlocks::agree(
          std::move(c), first_row, static_cast<int64_t>(X.shape()[0]), n,
          [&] {
              require(n >= 1, FACTO_ERROR_DIMENSION, "nomad: n = " + std::to_string(n) + " must be at least 1");
              require_block(first_row, static_cast<int64_t>(X.shape()[0]), n, "points", "n");
              require(X.shape()[1] >= 1, FACTO_ERROR_DIMENSION, "nomad: the points X must have at least one column");
              require(K >= 1 && K <= n, FACTO_ERROR_DIMENSION,
                      "K = " + std::to_string(K) + " must satisfy 1 <= K <= n = " + std::to_string(n));
              require_finite(X, "X");
          },
          {{"K", static_cast<double>(K)}, {"d", static_cast<double>(X.shape()[1])}})),
      K_(K),
      F_(nomad_features(X, &blocks_.collectives()))  // every process sees the same largest norm: all refuse alike
{
}

double DistributedNomad::objective(const Matrix& Q) const
{
    agree_on_errors(blocks_.collectives(), [&] { require_shape(Q, rows(), n(), "Q"); });
    // Tr(D Q) = sum_j f_j . (Q^T F)_j, Q^T F summed over the processes' rows
    const std::size_t n = static_cast<std::size_t>(this->n()), d = F_.shape()[1], here = F_.shape()[0];
    std::vector<double> QtF(n * d, 0.0);
    if (here > 0) blas::gemm(true, false, n, d, here, 1.0, Q.data(), n, F_.data(), d, 0.0, QtF.data(), d);
    reduce_sums(QtF.data(), QtF.size());
    double trace = 0.0;
    for (std::size_t i = 0; i < here; ++i)
        trace += blas::dot(&F_(i, 0), &QtF[(static_cast<std::size_t>(first_row()) + i) * d], d);
    reduce_sums(&trace, 1);
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
    return {{"feasibility", FACTO_OUTPUT_DOUBLE, 1, 4}, labels_spec(rows()), {"label_rule", FACTO_OUTPUT_INT64, 1, 1}};
}

Output DistributedNomad::output(const std::string& name, const Matrix&) const
{
    if (name == "labels" || name == "label_rule" || name == "feasibility")
        throw Error(FACTO_ERROR_UNSUPPORTED, "a distributed nomad's output '" + name + "' comes from burer_monteiro's factor");
    throw Error(FACTO_ERROR_UNKNOWN_PARAMETER, "unknown output '" + name + "' (distributed_nomad has: feasibility, labels, label_rule)");
}

Output DistributedNomad::output_of_factor(const std::string& name, const Matrix& U, const LabelRule& rule) const
{
    if (name != "labels" && name != "label_rule" && name != "feasibility")  // refused alike on every process, before the collective
        throw Error(FACTO_ERROR_UNKNOWN_PARAMETER,
                    "unknown output '" + name + "' (distributed_nomad has: feasibility, labels, label_rule)");
    if (name == "labels" || name == "label_rule") {
        auto [labels, which] = labels_of_factor(U, rule);
        if (name == "label_rule") return Output{output_specs()[2], {}, {which}};
        return Output{output_specs()[1], {}, std::move(labels)};
    }
    const Matrix all = blocks_.gather(U.data(), U.shape()[1], "the gathered factor");
    const NomadFeasibility f = Nomad::feasibility_of_factor(all, K_);
    return Output{output_specs()[0], {f.negative_rmse, f.negative_max, f.row_sum, f.trace}, {}};
}

std::pair<std::vector<int64_t>, int64_t> DistributedNomad::labels_of_factor(const Matrix& U, const LabelRule& rule) const
{
    // every process the same, from all the rows
    const Matrix all = blocks_.gather(U.data(), U.shape()[1], "the gathered factor");
    const double mean_diagonal = static_cast<double>(K_) / static_cast<double>(n());
    const auto [labels, which] = nomad_labels(
        [&] { return connected_components_of_factor(all, rule.component_threshold * mean_diagonal); },
        [&] { return all; }, all.shape()[0], K_, rule);
    const auto first = labels.begin() + first_row();
    return {std::vector<int64_t>(first, first + rows()), which};
}

double DistributedNomad::frobenius_norm() const
{
    const std::size_t d = F_.shape()[1];
    Matrix FtF({d, d}, 0.0);  // stays 0 on a process without points
    blas::gemm(true, false, 1.0, F_, F_, 0.0, FtF);
    reduce_sums(FtF.data(), FtF.size());
    return std::sqrt(blas::frobenius_dot(FtF, FtF));
}

void DistributedNomad::scale(double c, ScaledNomad& scaled) const { scaled.points = std::sqrt(c) * F_; }

GramRows DistributedNomad::scaled_rows(const ScaledNomad& scaled, std::size_t) const
{
    return factor_rows(scaled.points, static_cast<std::size_t>(first_row()), static_cast<std::size_t>(n()), collectives());
}

}  // namespace facto
