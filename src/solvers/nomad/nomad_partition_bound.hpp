// An upper bound of NOMAD's optimum in O(n (r + K')) memory for D = F F^T given by its n x d factor
// (a certificate at the sizes where the multiplier of Q >= 0, n^2 values, does not fit).
//
// Every feasible Q satisfies 0 <= Q <= I (psd, and Q >= 0 with Q 1 = 1 bounds its spectrum by 1) and
// Q Z >= 0 for the indicators Z (n x K') of any partition of the points (Q >= 0 summed over each part).
// Write Q = E + P (E = 1 1^T / n, P = J Q J, J = I - E): 0 <= P <= J and Tr P = K - 1. With a
// multiplier G >= 0 (n x K') of Q Z >= 0 and J F = F_r V_r^T + F_perp (F_r = J F V_r its r leading
// principal components),
//     Tr(D Q) <= Tr(D Q) + 2 <G, Q Z>
//             <= <D, E> + 2 <G, E Z> + tail_r + top_{K-1}(J (F_r F_r^T + Z G^T + G Z^T) J)     (1)
// where top_{K-1}(A) is the sum of A's K - 1 largest eigenvalues on 1-perp (Ky Fan's maximum of
// Tr(A P) over 0 <= P <= J, Tr P = K - 1) and tail_r = top_{K-1}(F_perp F_perp^T), the sum of the
// K - 1 eigenvalues of J D J after its r-th. The matrix in (1) has rank at most m = r + 2 K', so its
// eigenvalues come from m x m problems (the Gram matrix of [F_r, J Z, J G]): O(n m K' + m^3) work.
//
// G = 0 gives the spectral bound of k-means (Zha et al. 2001, Ding & He 2004) plus the tail; every
// G >= 0 gives a valid bound, and the least over G is the Lagrangian dual of NOMAD relaxed to those
// n K' aggregated constraints (equal to NOMAD's optimum when the parts are single points, r = rank F).
// G is chosen by projected Barzilai-Borwein steps on (1) smoothed by the binary entropy of P's
// eigenvalues (temperature mu, lowered in stages); the bound reported is the exact (1) at the best G
// met, so the optimizer's accuracy decides how tight it is, never whether it holds. Eigenvalues come from
// a Gram matrix, whose rounding and dropped directions a margin of (K - 1) 3e-8 of its norm covers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "linalg/gram_operator.hpp"
#include "linalg/matrix.hpp"

namespace facto {

// (1) for one partition: the principal components, the partition's fixed blocks, and (1) at any G.
class PartitionDual {
public:
    // F n x d (any rows; D = F F^T), 1 <= K <= n. r is the fewest leading components whose tail_r is at
    // most tail_fraction of the spectral bound's eigenvalue sum (r <= d).
    PartitionDual(const Matrix& F, int64_t K, double tail_fraction);

    // The components F_r (n x r), and F_r F_r^T as an operator to partition the points by (kernel k-means).
    const Matrix& components() const { return *components_.factor(); }
    const GramOperator& components_gram() const { return components_; }
    double tail() const { return tail_; }
    // (1) at G = 0 with r = d: <D, E> + the sum of J D J's K - 1 largest eigenvalues.
    double spectral() const { return mean_ + top_; }
    // Tr(J D J).
    double trace() const { return trace_; }

    // The partition: labels in [0, K') for the n points (a part may be empty).
    void partition(const std::vector<int64_t>& labels);
    int64_t parts() const { return parts_; }

    struct Value {
        double exact;     // (1) at G
        double smoothed;  // (1) with top_{K-1} replaced by its entropy smoothing at mu (>= exact)
    };
    // (1) at G (n x K' row-major, G >= 0 not checked: any G >= 0 gives a valid bound) and, when
    // gradient is not null, the smoothed value's gradient in G (n x K') at temperature mu > 0.
    Value evaluate(const double* G, double mu, double* gradient) const;

private:
    std::size_t n_, r_;
    int64_t K_, parts_ = 0;
    GramOperator components_;    // F_r F_r^T, held as F_r (n x r, centred)
    std::vector<double> sigma_;  // the r leading eigenvalues of J D J
    double mean_, top_, tail_, trace_;  // <D, E>, top_{K-1}(J D J), tail_r, Tr(J D J)
    std::vector<int64_t> labels_;
    std::vector<double> count_;  // the parts' sizes
    Matrix components_by_part_;  // F_r^T Z, r x K'
};

struct PartitionBoundSettings {
    int64_t parts = 0;            // K' (0: min(4 K, 64), at most n): the points are split by k-means on F_r
    int iterations = 200;         // projected gradient steps tried (0: G = 0 only)
    // multiply-adds the steps may take in all, each about (r + 2 K')^3 + n (r + K') K' (the eigenproblem
    // and the gradient): fewer steps where the spectrum is flat and r large
    double budget = std::numeric_limits<double>::infinity();
    double tail_fraction = 1e-3;  // for r (PartitionDual)
    uint64_t seed = 0;            // k-means' seed
    std::size_t threads = 1;
};

struct PartitionBound {
    double spectral;  // (1) at G = 0 (with the tail)
    double bound;     // the least (1) met, <= spectral
    int64_t rank;     // r
    int iterations;
};

PartitionBound nomad_partition_bound(const Matrix& F, int64_t K, const PartitionBoundSettings& settings);

}  // namespace facto
