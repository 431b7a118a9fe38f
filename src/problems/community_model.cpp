#include "problems/community_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include <xtensor/xview.hpp>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "sets/row_simplices.hpp"
#include "linalg/krylov_schur.hpp"

namespace facto {

struct CommunityModel::Spectral {
    Matrix V;
    Vector values;
    std::vector<int64_t> nodes;
    Matrix X;  // V(nodes, :)^T
    std::vector<double> degrees;
};

CommunityModel::Spectral CommunityModel::spectral(const CsrMatrix& A, int64_t K, double energy)
{
    require(A.rows == A.cols && A.rows >= 2, FACTO_ERROR_DIMENSION,
            "the adjacency matrix must be square with at least 2 nodes, got " + std::to_string(A.rows) + " x " +
                std::to_string(A.cols));
    require(K >= 1 && K < A.rows, FACTO_ERROR_DIMENSION,
            "K = " + std::to_string(K) + " communities must be in [1, N = " + std::to_string(A.rows) + ")");
    require(std::isfinite(energy) && energy > 0.0 && energy <= 1.0, FACTO_ERROR_OUT_OF_RANGE,
            "energy = " + value_text(energy) + " must be in (0, 1]");
    require_symmetric(A, "the adjacency matrix");
    const auto N = static_cast<std::size_t>(A.rows);
    const Eigenpairs E = extreme_eigenpairs(
        N, static_cast<std::size_t>(K), [&](const double* x, double* y) { spmv(A, x, y); }, Spectrum::LargestMagnitude,
        1e-10, 0);
    require(E.converged, FACTO_ERROR_NUMERICAL,
            "the top eigenvectors of the adjacency matrix did not converge in " + std::to_string(E.products) +
                " products");
    Spectral s{E.vectors, E.values, {}, {}, std::vector<double>(N, 0.0)};
    for (std::size_t i = 0; i < N; ++i)
        for (int64_t p = A.indptr[i]; p < A.indptr[i + 1]; ++p) s.degrees[i] += A.values[static_cast<std::size_t>(p)];
    // Sec. V-C: the fewest nodes whose squared row norms reach `energy` of the total, ties at the cut kept
    std::vector<double> norm2(N, 0.0);
    for (std::size_t i = 0; i < N; ++i)
        for (std::size_t k = 0; k < static_cast<std::size_t>(K); ++k) norm2[i] += s.V(i, k) * s.V(i, k);
    std::vector<std::size_t> order(N);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return norm2[a] > norm2[b]; });
    std::vector<double> cumulative(N);
    double sum = 0.0;
    for (std::size_t r = 0; r < N; ++r) cumulative[r] = sum += norm2[order[r]];
    std::size_t count = 0;
    while (count + 1 < N && cumulative[count] < energy * sum) ++count;
    const double cut = std::max(norm2[order[count]], std::numeric_limits<double>::min());
    for (std::size_t i = 0; i < N; ++i)
        if (norm2[i] >= cut) s.nodes.push_back(static_cast<int64_t>(i));
    require(static_cast<int64_t>(s.nodes.size()) >= std::max<int64_t>(K, 2), FACTO_ERROR_DIMENSION,
            "only " + std::to_string(s.nodes.size()) + " nodes kept at energy " + value_text(energy) +
                ": fewer than K = " + std::to_string(K) + " (raise energy)");
    s.X = Matrix::from_shape({static_cast<std::size_t>(K), s.nodes.size()});
    for (std::size_t j = 0; j < s.nodes.size(); ++j)
        for (std::size_t k = 0; k < static_cast<std::size_t>(K); ++k) s.X(k, j) = s.V(static_cast<std::size_t>(s.nodes[j]), k);
    return s;
}

CommunityModel::CommunityModel(const CsrMatrix& A, int64_t K, double energy, double lambda, double mu)
    : CommunityModel(spectral(A, K, energy), K, lambda, mu)
{
}

CommunityModel::CommunityModel(Spectral s, int64_t K, double lambda, double mu)
    : SelfDictionary(std::move(s.X), K, lambda, mu),
      V_(std::move(s.V)),
      values_(std::move(s.values)),
      nodes_(std::move(s.nodes)),
      degrees_(std::move(s.degrees))
{
}

Matrix CommunityModel::pure_rows(const std::vector<int64_t>& anchors) const
{
    const std::size_t K = V_.shape()[1];
    require(anchors.size() == K, FACTO_ERROR_DIMENSION,
            std::to_string(anchors.size()) + " pure nodes for " + std::to_string(K) + " communities");
    Matrix pure = Matrix::from_shape({K, K});
    for (std::size_t a = 0; a < K; ++a)
        for (std::size_t k = 0; k < K; ++k) pure(a, k) = V_(static_cast<std::size_t>(anchors[a]), k);
    return pure;
}

double CommunityModel::condition(const Matrix& pure)
{
    const Vector sigma = blas::singular_values(pure);
    const double smallest = sigma(sigma.size() - 1);
    return smallest > 0.0 ? sigma(0) / smallest : std::numeric_limits<double>::infinity();
}

Matrix CommunityModel::on_pure_nodes(Matrix pure, Matrix rows)
{
    const std::size_t K = pure.shape()[0], N = rows.shape()[0];
    const double c = condition(pure);
    require(c <= kLargestCondition, FACTO_ERROR_NUMERICAL,
            "the pure nodes' eigenvector rows are linearly dependent (condition " + value_text(c) + ")");
    // H^T = V(J, :)^{-T} V^T: the column-major K x K V(J, :) read row-major is its transpose, and the
    // row-major N x K rows are column-major K x N, node i's right-hand side contiguous
    require(blas::solve_general(pure.data(), K, rows.data(), N), FACTO_ERROR_NUMERICAL, "the pure nodes' rows are singular");
    return rows;
}

std::vector<bool> CommunityModel::normalize_memberships(Matrix& H)
{
    for (double& h : H) h = h < 1e-12 ? 0.0 : h;
    return scale_rows_to_one(H);
}

Matrix CommunityModel::memberships(const std::vector<int64_t>& anchors) const
{
    Matrix H = on_pure_nodes(pure_rows(anchors), V_);
    const std::size_t N = H.shape()[0], K = H.shape()[1];
    const std::vector<bool> empty = normalize_memberships(H);
    std::vector<double> mean(K, 0.0);
    for (std::size_t i = 0; i < N; ++i)
        for (std::size_t k = 0; k < K && !empty[i]; ++k) mean[k] += H(i, k);
    const auto filled = static_cast<double>(std::count(empty.begin(), empty.end(), false));
    for (std::size_t i = 0; i < N; ++i)
        for (std::size_t k = 0; k < K && empty[i]; ++k) H(i, k) = filled > 0.0 ? mean[k] / filled : 1.0 / static_cast<double>(K);
    return H;
}

Matrix CommunityModel::eigenvector_extension() const
{
    Matrix E = V_;
    for (std::size_t k = 0; k < E.shape()[1]; ++k) xt::col(E, static_cast<std::ptrdiff_t>(k)) /= values_(k);
    return E;
}

std::vector<OutputSpec> CommunityModel::output_specs(const SimplexColumns&) const { return output_specs(); }

std::vector<OutputSpec> CommunityModel::output_specs() const
{
    std::vector<OutputSpec> specs = SelfDictionary::specs(K());
    const auto n = static_cast<int64_t>(V_.shape()[0]);
    specs.push_back({"memberships", FACTO_OUTPUT_DOUBLE, n, K()});
    specs.push_back({"labels", FACTO_OUTPUT_INT64, n, 1});
    specs.push_back({"nodes", FACTO_OUTPUT_INT64, N(), 1});
    return specs;
}

Output CommunityModel::output(const std::string& name, const SimplexColumns& C) const
{
    const std::vector<OutputSpec> specs = output_specs(C);
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const OutputSpec& s) { return name == s.name; });
    if (spec == specs.end() || name == "nnz" || name == "H") return SelfDictionary::output(name, C);
    Output out{*spec, {}, {}};
    if (name == "nodes") {
        out.ints = nodes_;
        return out;
    }
    std::vector<int64_t> anchors = select(C);
    for (int64_t& j : anchors) j = nodes_[static_cast<std::size_t>(j)];
    if (name == "selected") {
        out.ints = anchors;
        return out;
    }
    const Matrix H = memberships(anchors);
    if (name == "memberships") return Output{*spec, std::vector<double>(H.begin(), H.end()), {}};
    for (std::size_t i = 0; i < H.shape()[0]; ++i) {  // labels
        std::size_t best = 0;
        for (std::size_t k = 1; k < H.shape()[1]; ++k)
            if (H(i, k) > H(i, best)) best = k;
        out.ints.push_back(static_cast<int64_t>(best));
    }
    return out;
}

}  // namespace facto
