// Mixed-membership community detection ([NFW] Sec. V-C, in the setting of Mao,
// Sarkar & Chakrabarti): the self-dictionary problem on the top-K eigenvectors V (N x K) of a network's
// adjacency matrix, over the nodes that carry a fraction `energy` of the rows' squared norms. Its
// anchors are pure nodes; every node's memberships follow from them as SPOC's estimator does
// (H = V V(J, :)^{-1}, docs/architecture.md, "Community detection"). With energy = 1 every node with a
// nonzero row is kept and the "spa" solver is SPOC (Mao, Sarkar & Chakrabarti 2017).
#pragma once

#include <cstdint>
#include <vector>

#include "linalg/sparse.hpp"
#include "problems/self_dictionary.hpp"

namespace facto {

class CommunityModel final : public SelfDictionary {
public:
    // A: N x N symmetric adjacency (finite; weights allowed), N >= 2; 1 <= K < N; energy in (0, 1] (the
    // paper: 0.99): the nodes kept are those whose squared row norm of V is at least the n*-th largest,
    // n* the fewest whose sum reaches energy times the total. lambda and mu as for SelfDictionary.
    CommunityModel(const CsrMatrix& A, int64_t K, double energy, double lambda, double mu);

    const char* kind() const override { return "communities"; }
    // The self-dictionary outputs ("selected" as node indices) and: "memberships" (N x K, each node's
    // memberships summing to 1), "labels" (int64, N x 1, the largest membership), "nodes" (int64,
    // n* x 1, the nodes kept, increasing; the problem's columns).
    std::vector<OutputSpec> output_specs() const override;
    std::vector<OutputSpec> output_specs(const SimplexColumns& C) const override;
    Output output(const std::string& name, const SimplexColumns& C) const override;

    // The nodes kept (increasing) and the eigenvectors (N x K) and eigenvalues (largest magnitude first).
    const std::vector<int64_t>& nodes() const { return nodes_; }
    const Matrix& eigenvectors() const { return V_; }
    const Vector& eigenvalues() const { return values_; }
    // The weighted degree of every node, A 1.
    const std::vector<double>& degrees() const { return degrees_; }

    // Memberships of all N nodes from the pure nodes `anchors` (K node indices): H = V V(anchors, :)^{-1},
    // entries below 1e-12 set to 0, rows scaled to sum 1 (a row of zeros takes the mean of the others).
    // Error(NUMERICAL) when V(anchors, :) is singular to working precision (condition above 1e12).
    Matrix memberships(const std::vector<int64_t>& anchors) const;
    // What new nodes need: E = V diag(1/eigenvalues) (N x K), so that a node with edges a (1 x N) to the
    // fitted nodes has the eigenvector row v = a^T E (the Nystrom extension of A V = V diag(values): on a
    // fitted node's own row of A, its row of V), and the pure nodes' rows V(anchors, :) (K x K).
    Matrix eigenvector_extension() const;
    Matrix pure_rows(const std::vector<int64_t>& anchors) const;
    // Raw memberships of eigenvector rows (N' x K): rows V(J, :)^{-1}; Error(NUMERICAL) when the pure rows
    // are singular to working precision (condition above kLargestCondition).
    static Matrix on_pure_nodes(Matrix pure, Matrix rows);
    // The 2-norm condition number of the pure rows (inf when singular), and the largest they may have.
    static double condition(const Matrix& pure);
    static constexpr double kLargestCondition = 1e12;
    // Raw memberships clipped at 1e-12 and each row scaled to sum 1; returns which rows were all zero
    // (left zero).
    static std::vector<bool> normalize_memberships(Matrix& H);

private:
    struct Spectral;
    CommunityModel(Spectral spectral, int64_t K, double lambda, double mu);
    static Spectral spectral(const CsrMatrix& A, int64_t K, double energy);

    Matrix V_;
    Vector values_;
    std::vector<int64_t> nodes_;
    std::vector<double> degrees_;
};

}  // namespace facto
