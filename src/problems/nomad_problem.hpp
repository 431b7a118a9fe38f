// What NOMAD's factored solver (burer_monteiro) asks of its problem, whether D is on one process
// (Nomad) or the points are spread over several (DistributedNomad): one interface, so the solver holds
// one pointer. The rows held here, and the collectives, come from Problem::row_blocks().
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "linalg/gram_operator.hpp"
#include "linalg/gram_rows.hpp"
#include "problems/problem.hpp"

namespace facto {

class Nomad;

// How the output "labels" turns Q into K clusters, a solver parameter ("label_rule",
// "component_threshold"): the connected components of Q's graph, an edge wherever Q_ij >
// component_threshold K / n (Sec. 3's hard assignment), or k-means on Q's rows (on the factor's rows Y,
// Q = Y Y^T: the same distances up to the factor's rotation; 10 k-means++ replicates from `seed`);
// automatic: the components when there are exactly K of them, else k-means; above kComponentsUpTo
// points k-means alone (the components' pass costs n^2 r / 2 multiply-adds: at 10^6 points and r = 30
// it ran for over 40 minutes after a 25-minute solve).
struct LabelRule {
    enum class Kind { automatic, components, kmeans };
    Kind kind = Kind::automatic;
    // The default threshold, relative to K / n (the mean of Q's diagonal): ten times nomad_cgm's default
    // violation tolerance (its largest negative entry relative to K / n), so that entries at the solver's
    // noise level connect nothing, and a tenth of the mean entry within a patch of n / K points.
    static constexpr double kComponentThreshold = 5e-2;
    static constexpr std::size_t kComponentsUpTo = 100000;
    double component_threshold = kComponentThreshold;
    uint64_t seed = 0;
    // The output "label_rule" (1 x 1, int64): which ran.
    static constexpr int64_t kComponents = 0, kKmeans = 1;
    bool operator==(const LabelRule& other) const
    {
        return kind == other.kind && component_threshold == other.component_threshold && seed == other.seed;
    }
};

// The output "labels" by `rule` (for Nomad and DistributedNomad): components() gives the connected
// components, rows() the rows k-means clusters; returns the labels and the rule that ran.
std::pair<std::vector<int64_t>, int64_t> nomad_labels(const std::function<std::vector<int64_t>()>& components,
                                                      const std::function<Matrix()>& rows, std::size_t n, int64_t K,
                                                      const LabelRule& rule);

// c D, as the factored solver keeps it: the operator on one process, the scaled points' rows held here
// when they are spread.
struct ScaledNomad {
    std::optional<GramOperator> D;
    Matrix points;
};

class NomadProblem : public Problem {
public:
    virtual int64_t n() const = 0;
    virtual int64_t K() const = 0;
    // Collective: ||D||_F.
    virtual double frobenius_norm() const = 0;
    // c D (c > 0) into `scaled`, once per solver.
    virtual void scale(double c, ScaledNomad& scaled) const = 0;
    // The rows of the scaled D held here, for block products on `threads`; they refer to `scaled`.
    virtual GramRows scaled_rows(const ScaledNomad& scaled, std::size_t threads) const = 0;
    // Collective: output `name` at Q = U U^T, U the factor's rows held here, without forming Q (but for
    // "Q" itself, on one process).
    virtual Output output_of_factor(const std::string& name, const Matrix& U, const LabelRule& rule) const = 0;
    // Collective: what the outputs "labels" and "label_rule" hold at Q = U U^T (the labels of the rows held
    // here, every process deciding from all the rows), in one computation for a solver to keep.
    virtual std::pair<std::vector<int64_t>, int64_t> labels_of_factor(const Matrix& U, const LabelRule& rule) const = 0;
    // The problem with all of D on this process, for what needs it whole (the symnmf start, the
    // clustering certificates): itself on one process, none when the points are spread.
    virtual const Nomad* whole() const { return nullptr; }
};

}  // namespace facto
