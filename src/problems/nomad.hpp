// NOMAD, the nonnegative SDP relaxation of K-means ([TSC] Sec. 1):
//     max_Q Tr(D Q)   s.t.  Q 1 = 1,  Tr Q = K,  Q psd,  Q >= 0,
// D symmetric n x n: given dense (kept as its upper triangle), or as the paper's Gram matrix of n points
// (nomad_features in data/data.hpp), kept as the n x d factor and never formed (linalg/gram_operator.hpp).
// The objective reported is Tr(D Q), to be maximized.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "problems/nomad_problem.hpp"
#include "problems/problem.hpp"
#include "linalg/blas.hpp"
#include "linalg/gram_operator.hpp"
#include "linalg/symmetric.hpp"

namespace facto {

// How far Q is from NOMAD's constraints.
struct NomadFeasibility {
    double negative_rmse;  // RMS of the negative entries of Q, over those entries (paper, Fig. 13)
    double negative_max;   // largest |Q_ij| among the negative entries (0 if none)
    double row_sum;        // max_i |(Q 1)_i - 1|
    double trace;          // |Tr Q - K|
};

// An upper bound of NOMAD's optimum certified by a clustering (clustering_bound).
struct NomadBound {
    double clustering;  // Tr(D X) at the clustering's X = sum_a 1_a 1_a^T / n_a
    double bound;       // max Tr(D Q) over NOMAD's feasible set is at most this
    double z;           // the certificate's scalar: the clustering is optimal when lambda <= z (and K' = K)
    double lambda;      // lambda_max of P (B + 2 D) P on the clusters' complement, Lanczos value + residual
};

class Nomad final : public NomadProblem {
public:
    // Validates D (square, finite, symmetric to 1e-10 relative; symmetrized exactly) and 1 <= K <= n;
    // keeps its upper triangle.
    Nomad(Matrix D, int64_t K);
    // D = F F^T for F = nomad_features(X), the rows of X being the n points (finite, not all 0; only
    // read), kept as F (n d values instead of n^2 / 2); points in single precision as a copy of theirs,
    // centred as products read them (GramOperator::centered: half the memory); points at least 90% zeros
    // (counts, TF-IDF given densely) as the sparse points' D below, their non-zeros (on Reuters' TF-IDF
    // 34x sooner than the dense F's square).
    static std::shared_ptr<const Nomad> from_points(const DenseRows& X, int64_t K);
    static std::shared_ptr<const Nomad> from_points(const Matrix& X, int64_t K) { return from_points(rows_of(X), K); }
    // The same of points in single precision, kept (not copied).
    static std::shared_ptr<const Nomad> from_points(SingleMatrix X, int64_t K);
    // The same D of sparse points (CSR, finite), kept as X's non-zeros (twice: X and X^T) and the mean,
    // never densified (nomad_centring): memory in the non-zeros, products in 4 nnz r.
    static std::shared_ptr<const Nomad> from_points(CsrMatrix X, int64_t K);

    const char* kind() const override { return "nomad"; }
    std::array<int64_t, 2> iterate_shape() const override { return {n(), n()}; }
    // Tr(D Q).
    double objective(const Matrix& Q) const override;
    // Q0 = E + (K - 1) / (n - 1) (I - E), E = 1 1^T / n: feasible (psd, nonnegative, Q0 1 = 1,
    // Tr Q0 = K) for every seed.
    Matrix random_point(uint64_t seed) const override;
    // Checks the shape, finiteness and symmetry of Q, and max_i |(Q 1)_i - 1| and |Tr Q - K| / K at most
    // kStartTolerance; returns Q with its upper triangle mirrored.
    Matrix feasible_point(const Matrix& Q) const override;
    // "Q" (n x n), "embedding" (n x embedding_columns(): the eigenvectors of Q for its K - 1 largest
    // eigenvalues below the constant one, scaled by the square roots of those eigenvalues), "feasibility" (1 x 4:
    // NomadFeasibility in order), "labels" (n x 1, int64: K clusters by the LabelRule, components
    // numbered by each one's smallest point), "label_rule" (1 x 1, int64: LabelRule::kComponents or
    // kKmeans, the rule "labels" took).
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name, const Matrix& Q) const override;
    // The same from Q's upper triangle, without an n x n dense copy (but for "Q" itself and k-means'
    // labels, which take Q's rows).
    Output output(const std::string& name, const PackedSymmetric& Q, const LabelRule& rule = {}) const;

    // How far from Q 1 = 1 and Tr Q = K a start may be: burer_monteiro's default feasibility tolerance,
    // so that its answer starts another solver (nomad_admm's polish).
    static constexpr double kStartTolerance = 1e-5;

    int64_t n() const override { return static_cast<int64_t>(D_.n()); }
    int64_t K() const override { return K_; }
    const GramOperator& D() const { return D_; }
    double frobenius_norm() const override { return D_.frobenius_norm(); }
    // c D with one-GEMM products (GramOperator::with_fast_products), and all of its rows.
    void scale(double c, ScaledNomad& scaled) const override { scaled.D = D_.with_fast_products(c); }
    GramRows scaled_rows(const ScaledNomad& scaled, std::size_t threads) const override
    {
        return all_rows(*scaled.D, threads);
    }
    const Nomad* whole() const override { return this; }

    // The same at Q = U U^T (U n x r) without forming Q (but for "Q" itself).
    Output output_of_factor(const std::string& name, const Matrix& U,
                            const LabelRule& rule) const override;
    Output output_of_factor(const std::string& name, const Matrix& U) const { return output_of_factor(name, U, {}); }
    std::pair<std::vector<int64_t>, int64_t> labels_of_factor(const Matrix& U, const LabelRule& rule) const override;

    // The dual certificate of Iguchi, Mixon, Peterson & Villar (2017, Sec. 3.2) built on a clustering
    // (labels in [0, K'), every cluster nonempty) through products with D (O(n K') memory) or, up to
    // dense_limit, one dense n x n matrix:
    // weak duality with multipliers that make the clustering's X complementary gives, for every
    // feasible Q, Tr(D Q) <= Tr(D X) + (z (K - K') + K max(0, lambda - z)) / 2. Valid for any labels
    // and any symmetric D; equal to Tr(D X) (X certified optimal) when the clusters are separated
    // enough. K = 1 returns Tr(D E), the one feasible point's. lambda comes from a dense eigenvalue
    // decomposition (certified) up to n = dense_limit, above it from Lanczos (an estimate).
    NomadBound clustering_bound(const std::vector<int64_t>& labels, std::size_t threads,
                                std::size_t dense_limit = blas::kDenseSpectrumLimit) const;
    // Tr(D X) at that clustering's X (the same checks on labels), by one product with D.
    double clustering_objective(const std::vector<int64_t>& labels, std::size_t threads) const;

    // The fitted clustering applied to new points: the label of the nearest cluster mean, the means of
    // the fitted points X (rows) by their labels (>= 0; a label no point has is no cluster). On points
    // NOMAD's D is the Gram matrix of features F = (X - mean) / largest norm, and Tr(D Q) at a
    // clustering's Q is minus the K-means cost in F up to a constant: so this is the assignment step of
    // the K-means the SDP relaxes, and F's affine map with one scale leaves the nearest mean unchanged.
    // Ties go to the smaller label. Error(DIMENSION) for other widths or a labels vector not of X's
    // rows, INVALID_ARGUMENT for a negative label.
    static std::vector<int64_t> apply_labels(const Matrix& X, const std::vector<int64_t>& labels, const Matrix& X_new);

    static NomadFeasibility feasibility(const PackedSymmetric& Q, int64_t K);
    static NomadFeasibility feasibility_of_factor(const Matrix& U, int64_t K);

private:
    Nomad(GramOperator D, int64_t K) : D_(std::move(D)), K_(K) {}
    // A clustering's sums through D: C = Z^T D (Z its indicators), the cluster sizes n_a, the within sums
    // 1_a^T D 1_a, and Tr(D X) = sum_a s_a / n_a.
    struct ClusterSums {
        Matrix C;
        std::vector<double> count, within;
        double objective;
    };
    ClusterSums cluster_sums(const std::vector<int64_t>& labels, std::size_t threads) const;
    static void check_K(int64_t K, int64_t n);
    // Checks K; whether the points are at least 90% zeros (kept sparse; then checked finite here).
    static bool checked_sparse(const DenseRows& X, int64_t K);
    // Q's "embedding" (n x m, row-major) from products with Q.
    static std::vector<double> embedding(std::size_t size, std::size_t m,
                                         const std::function<void(const double*, double*)>& Q_times);
    // The embedding's columns: K - 1 (at least 1, at most n - 1), the dimension of the clusters' space.
    int64_t embedding_columns() const { return std::max<int64_t>(1, std::min(K_ - 1, n() - 1)); }

    GramOperator D_;
    int64_t K_;
};

}  // namespace facto
