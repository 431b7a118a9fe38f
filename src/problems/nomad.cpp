#include "problems/nomad.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <xtensor/xmath.hpp>

#include "base/error.hpp"
#include "data/data.hpp"
#include "facto/facto.h"
#include "linalg/blas.hpp"
#include "linalg/lanczos.hpp"
#include "linalg/parallel.hpp"
#include "metrics/metrics.hpp"

namespace facto {

namespace {
// D's upper triangle, after the checks of the dense constructor.
PackedSymmetric checked_triangle(Matrix& D)
{
    const int64_t rows = static_cast<int64_t>(D.shape()[0]), cols = static_cast<int64_t>(D.shape()[1]);
    require(rows == cols && rows > 0, FACTO_ERROR_DIMENSION,
            "D must be square and non-empty, got " + std::to_string(rows) + " x " + std::to_string(cols));
    require_finite(D, "D");
    require_symmetric(D, "D");
    // packed D, and nomad_cgm's packed P, Gamma and gradient: four upper triangles
    const double n = static_cast<double>(rows);
    require_memory(4.0 * 8.0 * n * (n + 1.0) / 2.0, "nomad with n = " + std::to_string(rows));
    return PackedSymmetric::from_upper(D);
}

// A clustering's certificate terms (Nomad::clustering_bound): its labels, cluster sizes n_a, u (n x K',
// u(i, b) = u_ab(i) for i in a) and rho (K' x K', symmetric).
struct CertificateTerms {
    const std::vector<int64_t>& labels;
    const std::vector<double>& count;
    const Matrix& u;
    const Matrix& rho;
};

// y = P x, P the projection on the complement of the clusters' indicators (x minus its cluster's mean);
// `mean` holds K' values. y may be x.
void project_off_clusters(const CertificateTerms& t, const double* x, double* y, std::vector<double>& mean)
{
    std::fill(mean.begin(), mean.end(), 0.0);
    for (std::size_t i = 0; i < t.labels.size(); ++i) mean[static_cast<std::size_t>(t.labels[i])] += x[i];
    for (std::size_t i = 0; i < t.labels.size(); ++i) {
        const auto a = static_cast<std::size_t>(t.labels[i]);
        y[i] = x[i] - mean[a] / t.count[a];
    }
}

// lambda_max of A = P (B + 2 D) P on P's range, B^{ab} = u_ab u_ba^T / rho_ab, from above: a dense
// eigenvalue decomposition of A - c (I - P), c = 2 ||A||_F putting the indicators below the rest
// (dsytrd and dsterf are backward stable: within 8 n eps ||A - c (I - P)|| <= 24 n eps ||A||_F; the
// projection's rounding adds as much relative to 2 D + B).
double certificate_lambda_dense(const GramOperator& D, const CertificateTerms& t)
{
    const std::size_t n = t.labels.size(), clusters = t.count.size();
    Matrix A = 2.0 * D.triangle("nomad's clustering certificate")->to_dense();
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const auto a = static_cast<std::size_t>(t.labels[i]), b = static_cast<std::size_t>(t.labels[j]);
            if (a != b && t.rho(a, b) > 0.0) A(i, j) += t.u(i, b) * t.u(j, a) / t.rho(a, b);
        }
    // P A P: each row less its clusters' means, then each column less its clusters' means (rounding
    // relative to ||A|| before, which may be far above ||P A P|| for a D that is not centred)
    const double formed = std::sqrt(blas::frobenius_dot(A, A));
    std::vector<double> mean(clusters);
    for (std::size_t i = 0; i < n; ++i) project_off_clusters(t, &A(i, 0), &A(i, 0), mean);
    Matrix column_sum({clusters, n}, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) column_sum(static_cast<std::size_t>(t.labels[i]), j) += A(i, j);
    for (std::size_t i = 0; i < n; ++i) {
        const auto a = static_cast<std::size_t>(t.labels[i]);
        for (std::size_t j = 0; j < n; ++j) A(i, j) -= column_sum(a, j) / t.count[a];
    }
    const double norm = std::sqrt(blas::frobenius_dot(A, A)), c = norm > 0.0 ? 2.0 * norm : 1.0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (t.labels[i] == t.labels[j]) A(i, j) -= c / t.count[static_cast<std::size_t>(t.labels[i])];
    const Vector values = blas::symmetric_eigenvalues(A);
    return values(n - 1) + 24.0 * static_cast<double>(n) * std::numeric_limits<double>::epsilon() * (norm + formed);
}

// The same by Lanczos from a fixed start, through products with D and O(n K') work: an estimate (it can
// settle on a lower eigenvalue), for n above blas::kDenseSpectrumLimit.
double certificate_lambda_lanczos(const GramOperator& D, const CertificateTerms& t, std::size_t threads)
{
    const std::size_t n = t.labels.size(), clusters = t.count.size();
    std::vector<double> projected(n), product(n), mean(clusters), v(n);
    Matrix through({clusters, clusters});
    for (std::size_t i = 0; i < n; ++i) v[i] = std::cos(static_cast<double>(i + 1));
    project_off_clusters(t, v.data(), v.data(), mean);
    const Eigenpair pair = smallest_eigenpair(
        n,
        [&](const double* x, double* y) {
            project_off_clusters(t, x, projected.data(), mean);
            D.multiply(projected.data(), product.data(), threads);
            through.fill(0.0);  // through(b, a) = u_ba^T x_b
            for (std::size_t j = 0; j < n; ++j) {
                const auto b = static_cast<std::size_t>(t.labels[j]);
                for (std::size_t a = 0; a < clusters; ++a) through(b, a) += t.u(j, a) * projected[j];
            }
            for (std::size_t i = 0; i < n; ++i) {
                const auto a = static_cast<std::size_t>(t.labels[i]);
                double sum = 2.0 * product[i];
                for (std::size_t b = 0; b < clusters; ++b)
                    if (b != a && t.rho(a, b) > 0.0) sum += t.u(i, b) * through(b, a) / t.rho(a, b);
                product[i] = -sum;  // the smallest eigenpair of -A
            }
            project_off_clusters(t, product.data(), y, mean);
        },
        v, 1e-8);
    return -pair.value + pair.residual;
}
}  // namespace

void Nomad::check_K(int64_t K, int64_t n)
{
    require(K >= 1 && K <= n, FACTO_ERROR_DIMENSION,
            "K = " + std::to_string(K) + " must satisfy 1 <= K <= n = " + std::to_string(n));
}

Nomad::Nomad(Matrix D, int64_t K) : D_(checked_triangle(D)), K_(K) { check_K(K, n()); }

bool Nomad::checked_sparse(const DenseRows& X, int64_t K)
{
    check_K(K, static_cast<int64_t>(X.n));
    // points at least 90% zeros (counts, TF-IDF, given densely) are kept as their non-zeros
    double zeros = 0.0;
    for (std::size_t i = 0; i < X.n; ++i)
        for (std::size_t c = 0; c < X.p; ++c) zeros += X(i, c) == 0.0 ? 1.0 : 0.0;
    const bool sparse = X.n * X.p > 0 && mostly_zeros(zeros, static_cast<double>(X.n * X.p));
    if (sparse) require_finite(X, "X");  // (nomad_centring checks the dense storages' points)
    return sparse;
}

std::shared_ptr<const Nomad> Nomad::from_points(const DenseRows& X, int64_t K)
{
    if (X.single) {
        check_K(K, static_cast<int64_t>(X.n));  // before the copy
        require_memory(4.0 * double(X.n) * double(X.p), "nomad: a copy of the " + std::to_string(X.n) + " points");
        SingleMatrix copy({X.n, X.p});
        for (std::size_t i = 0; i < X.n; ++i) std::copy_n(X.single + i * X.stride, X.p, &copy(i, 0));
        return from_points(std::move(copy), K);
    }
    if (checked_sparse(X, K)) return from_points(csr_from_dense(X), K);
    return std::shared_ptr<const Nomad>(new Nomad(GramOperator::factored(nomad_features(X)), K));
}

std::shared_ptr<const Nomad> Nomad::from_points(SingleMatrix X, int64_t K)
{
    const DenseRows rows = rows_of(X);
    if (checked_sparse(rows, K)) return from_points(csr_from_dense(rows), K);
    Centring c = nomad_centring(rows);
    return std::shared_ptr<const Nomad>(new Nomad(GramOperator::centered(std::move(X), std::move(c.mean), c.scale), K));
}

std::shared_ptr<const Nomad> Nomad::from_points(CsrMatrix X, int64_t K)
{
    check_K(K, X.rows);
    Centring c = nomad_centring(X);
    return std::shared_ptr<const Nomad>(new Nomad(GramOperator::centered(std::move(X), std::move(c.mean), c.scale), K));
}

double Nomad::objective(const Matrix& Q) const
{
    require_shape(Q, n(), n(), "Q");
    return D_.inner(Q);
}

Matrix Nomad::random_point(uint64_t) const
{
    const std::size_t n = D_.n();
    const double e = 1.0 / static_cast<double>(n);
    const double c = n > 1 ? static_cast<double>(K_ - 1) / static_cast<double>(n - 1) : 0.0;
    require_memory(8.0 * double(n) * double(n), "nomad's start Q of order " + std::to_string(n));
    Matrix Q({n, n});
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) Q(i, j) = e + c * ((i == j ? 1.0 : 0.0) - e);
    return Q;
}

Matrix Nomad::feasible_point(const Matrix& Q) const
{
    const std::size_t n = D_.n();
    require_shape(Q, static_cast<int64_t>(n), static_cast<int64_t>(n), "iterate");
    require_finite(Q, "Q");
    Matrix S = Q;
    require_symmetric(S, "Q");
    const NomadFeasibility f = feasibility(PackedSymmetric::from_upper(S), K_);
    require(f.row_sum <= kStartTolerance && f.trace <= kStartTolerance * static_cast<double>(K_),
            FACTO_ERROR_INFEASIBLE,
            "Q must satisfy Q 1 = 1 and Tr Q = K to 1e-5 (relative): max |Q 1 - 1| = " + std::to_string(f.row_sum) +
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
            {"embedding", FACTO_OUTPUT_DOUBLE, n(), embedding_columns()},
            {"feasibility", FACTO_OUTPUT_DOUBLE, 1, 4},
            labels_spec(n()),
            {"label_rule", FACTO_OUTPUT_INT64, 1, 1}};
}

std::pair<std::vector<int64_t>, int64_t> nomad_labels(const std::function<std::vector<int64_t>()>& components,
                                                      const std::function<Matrix()>& rows, std::size_t n, int64_t K,
                                                      const LabelRule& rule)
{
    const bool automatic = rule.kind == LabelRule::Kind::automatic;
    if (rule.kind == LabelRule::Kind::components || (automatic && n <= LabelRule::kComponentsUpTo)) {
        std::vector<int64_t> labels = components();
        const int64_t count = labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end()) + 1;
        if (rule.kind == LabelRule::Kind::components || count == K) return {std::move(labels), LabelRule::kComponents};
    }
    return {kmeans(rows(), K, 10, rule.seed), LabelRule::kKmeans};
}

Output Nomad::output(const std::string& name, const Matrix& Q) const
{
    if (name == "Q") return Output{output_specs()[0], std::vector<double>(Q.begin(), Q.end()), {}};
    return output(name, PackedSymmetric::from_upper(Q));
}

Output Nomad::output(const std::string& name, const PackedSymmetric& S, const LabelRule& rule) const
{
    const std::vector<OutputSpec> specs = output_specs();
    if (name == "labels" || name == "label_rule") {
        const double mean_diagonal = static_cast<double>(K_) / static_cast<double>(S.n);
        auto [labels, which] = nomad_labels([&] { return connected_components(S, rule.component_threshold * mean_diagonal); },
                                            [&] { return S.to_dense(); }, S.n, K_, rule);
        if (name == "label_rule") return Output{specs[4], {}, {which}};
        return Output{specs[3], {}, std::move(labels)};
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
        const std::size_t threads = resolve_threads(0);
        return Output{specs[1], embedding(S.n, static_cast<std::size_t>(embedding_columns()),
                                                     [&](const double* x, double* y) { multiply(S, x, y, threads); }), {}};
    }
    throw Error(FACTO_ERROR_UNKNOWN_PARAMETER, "unknown output '" + name + "' (nomad has: Q, embedding, feasibility, labels, label_rule)");
}

Output Nomad::output_of_factor(const std::string& name, const Matrix& U, const LabelRule& rule) const
{
    const std::vector<OutputSpec> specs = output_specs();
    const std::size_t size = U.shape()[0], r = U.shape()[1];
    if (name == "labels" || name == "label_rule") {
        auto [labels, which] = labels_of_factor(U, rule);
        if (name == "label_rule") return Output{specs[4], {}, {which}};
        return Output{specs[3], {}, std::move(labels)};
    }
    if (name == "Q") {
        require_memory(8.0 * double(size) * double(size), "Q of order " + std::to_string(size));
        Matrix Q({size, size});
        blas::gemm(false, true, 1.0, U, U, 0.0, Q);
        return Output{specs[0], std::vector<double>(Q.begin(), Q.end()), {}};
    }
    if (name == "feasibility") {
        const NomadFeasibility f = feasibility_of_factor(U, K_);
        return Output{specs[2], {f.negative_rmse, f.negative_max, f.row_sum, f.trace}, {}};
    }
    if (name == "embedding") {
        std::vector<double> Utx(r);
        return Output{specs[1],
                      embedding(size, static_cast<std::size_t>(embedding_columns()),
                                [&](const double* x, double* y) {
                                    blas::gemm(true, false, r, 1, size, 1.0, U.data(), r, x, 1, 0.0, Utx.data(), 1);
                                    blas::gemm(false, false, size, 1, r, 1.0, U.data(), r, Utx.data(), 1, 0.0, y, 1);
                                }),
                      {}};
    }
    throw Error(FACTO_ERROR_UNKNOWN_PARAMETER, "unknown output '" + name + "' (nomad has: Q, embedding, feasibility, labels, label_rule)");
}

std::pair<std::vector<int64_t>, int64_t> Nomad::labels_of_factor(const Matrix& U, const LabelRule& rule) const
{
    const double mean_diagonal = static_cast<double>(K_) / static_cast<double>(U.shape()[0]);
    return nomad_labels([&] { return connected_components_of_factor(U, rule.component_threshold * mean_diagonal); },
                        [&] { return U; }, U.shape()[0], K_, rule);
}

NomadFeasibility Nomad::feasibility_of_factor(const Matrix& U, int64_t K)
{
    const std::size_t size = U.shape()[0];
    NomadFeasibility f{0.0, 0.0, 0.0, 0.0};
    // Q 1 = U (U^T 1), Tr Q = ||U||_F^2
    const Vector u = xt::sum(U, {0});
    for (std::size_t i = 0; i < size; ++i)
        f.row_sum = std::max(f.row_sum, std::fabs(blas::dot(&U(i, 0), u.data(), u.size()) - 1.0));
    f.trace = std::fabs(blas::dot(U.data(), U.data(), U.size()) - static_cast<double>(K));
    // negative entries: none when U >= 0, else over the blocks of Q's rows
    if (xt::amin(U)() >= 0.0) return f;
    double squares = 0.0, count = 0.0;
    for_each_row_block(U, [&](std::size_t, std::size_t rows_in_block, const double* rows, std::size_t width) {
        for (std::size_t b = 0; b < rows_in_block; ++b)
            for (std::size_t j = b; j < width; ++j) {
                const double q = rows[b * width + j], weight = j == b ? 1.0 : 2.0;
                if (q < 0.0) squares += weight * q * q, count += weight, f.negative_max = std::max(f.negative_max, -q);
            }
    });
    f.negative_rmse = count > 0.0 ? std::sqrt(squares / count) : 0.0;
    return f;
}

std::vector<double> Nomad::embedding(std::size_t size, std::size_t m,
                                     const std::function<void(const double*, double*)>& Q_times)
{
    // the m leading eigenpairs of P = Q - E (Q's own, without the constant eigenvector), one at a time as
    // the smallest of -P deflated by those found: -P + sum_j lambda_j v_j v_j^T (lambda_j their eigenvalues
    // of -P)
    std::vector<std::vector<double>> found;
    std::vector<double> values, embedding(m * size, 0.0), along;
    for (std::size_t k = 0; k < std::min(m, size); ++k) {
        std::vector<double> v(size);
        for (std::size_t i = 0; i < size; ++i) v[i] = std::cos(static_cast<double>((i + 1) * (k + 1)));
        const Eigenpair pair = smallest_eigenpair(
            size,
            [&](const double* x, double* y) {
                Q_times(x, y);
                double mean = 0.0;
                for (std::size_t i = 0; i < size; ++i) mean += x[i];
                mean /= static_cast<double>(size);
                along.assign(found.size(), 0.0);
                for (std::size_t j = 0; j < found.size(); ++j) along[j] = blas::dot(found[j].data(), x, size);
                for (std::size_t i = 0; i < size; ++i) {
                    y[i] = mean - y[i];
                    for (std::size_t j = 0; j < found.size(); ++j) y[i] -= values[j] * along[j] * found[j][i];
                }
            },
            v, 1e-10);
        const double scale = std::sqrt(std::max(0.0, -pair.value));
        for (std::size_t i = 0; i < size; ++i) embedding[m * i + k] = scale * v[i];
        found.push_back(v);
        values.push_back(pair.value);
    }
    return embedding;
}

Nomad::ClusterSums Nomad::cluster_sums(const std::vector<int64_t>& labels, std::size_t threads) const
{
    const std::size_t size = D_.n();
    require(labels.size() == size, FACTO_ERROR_DIMENSION, "clustering: one label per point");
    const int64_t largest = labels.empty() ? -1 : *std::max_element(labels.begin(), labels.end());
    require(largest >= 0 && *std::min_element(labels.begin(), labels.end()) >= 0, FACTO_ERROR_INVALID_ARGUMENT,
            "clustering: labels must be nonnegative");
    const std::size_t clusters = static_cast<std::size_t>(largest) + 1;
    ClusterSums sums{Matrix({clusters, size}), std::vector<double>(clusters, 0.0), std::vector<double>(clusters, 0.0),
                     0.0};
    for (int64_t l : labels) ++sums.count[static_cast<std::size_t>(l)];
    for (double c : sums.count) require(c > 0.0, FACTO_ERROR_INVALID_ARGUMENT, "clustering: every cluster needs a point");
    // C = Z^T D (row a: (D 1_a)^T), s_a = 1_a^T D 1_a, the clustering's Tr(D X) = sum_a s_a / n_a
    Matrix Z({size, clusters}, 0.0);
    for (std::size_t i = 0; i < size; ++i) Z(i, static_cast<std::size_t>(labels[i])) = 1.0;
    D_.left_multiply(Z.data(), clusters, sums.C.data(), threads);
    for (std::size_t i = 0; i < size; ++i)
        sums.within[static_cast<std::size_t>(labels[i])] += sums.C(static_cast<std::size_t>(labels[i]), i);
    for (std::size_t a = 0; a < clusters; ++a) sums.objective += sums.within[a] / sums.count[a];
    return sums;
}

double Nomad::clustering_objective(const std::vector<int64_t>& labels, std::size_t threads) const
{
    return cluster_sums(labels, threads).objective;
}

NomadBound Nomad::clustering_bound(const std::vector<int64_t>& labels, std::size_t threads,
                                   std::size_t dense_limit) const
{
    const std::size_t size = D_.n();
    const ClusterSums sums = cluster_sums(labels, threads);
    const Matrix& C = sums.C;
    const std::vector<double>& count = sums.count;
    const std::vector<double>& within = sums.within;
    const std::size_t clusters = count.size();
    NomadBound result{sums.objective, 0.0, 0.0, 0.0};
    if (K_ == 1) {  // Q = 1 1^T / n is the one feasible point
        result.bound = D_.total() / static_cast<double>(size);
        return result;
    }
    // margins m_i(b) = ||x_i - c_b||^2 - ||x_i - c_a||^2 for i in a (distances in D's geometry), the
    // largest z keeping every u_ab >= 0, and u_ab(i) = n_b m_i(b) - z (n_a + n_b) / (2 n_a)
    const std::vector<double> diagonal = D_.diagonal();
    const auto distance = [&](std::size_t i, std::size_t a) {
        return diagonal[i] - 2.0 * C(a, i) / count[a] + within[a] / (count[a] * count[a]);
    };
    Matrix u({size, clusters}, 0.0);
    double z = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < size; ++i) {
        const auto a = static_cast<std::size_t>(labels[i]);
        for (std::size_t b = 0; b < clusters; ++b)
            if (b != a) {
                u(i, b) = distance(i, b) - distance(i, a);
                z = std::min(z, 2.0 * count[a] * count[b] / (count[a] + count[b]) * u(i, b));
            }
    }
    Matrix rho({clusters, clusters}, 0.0);  // rho_ab = 1^T u_ab, symmetric up to rounding: averaged
    for (std::size_t i = 0; i < size; ++i) {
        const auto a = static_cast<std::size_t>(labels[i]);
        for (std::size_t b = 0; b < clusters; ++b)
            if (b != a) {
                u(i, b) = std::max(count[b] * u(i, b) - z * (count[a] + count[b]) / (2.0 * count[a]), 0.0);
                rho(a, b) += u(i, b);
            }
    }
    rho = 0.5 * (rho + xt::transpose(rho));
    if (clusters == size) {  // singletons: the complement is {0}, where S has no eigenvalue to lift
        result.z = z;
        result.lambda = -std::numeric_limits<double>::infinity();
        result.bound = result.clustering + 0.5 * z * (static_cast<double>(K_) - static_cast<double>(clusters));
        return result;
    }
    const CertificateTerms terms{labels, count, u, rho};
    result.lambda = size <= dense_limit ? certificate_lambda_dense(D_, terms)
                                        : certificate_lambda_lanczos(D_, terms, threads);
    // one cluster leaves z free (B = 0): the bound is least at z = lambda
    result.z = z = std::isfinite(z) ? z : result.lambda;
    const double K = static_cast<double>(K_), Kc = static_cast<double>(clusters);
    result.bound = result.clustering + 0.5 * (z * (K - Kc) + K * std::max(0.0, result.lambda - z));
    return result;
}

std::vector<int64_t> Nomad::apply_labels(const Matrix& X, const std::vector<int64_t>& labels, const Matrix& X_new)
{
    require(X_new.shape()[1] == X.shape()[1], FACTO_ERROR_DIMENSION,
            "the new points have " + std::to_string(X_new.shape()[1]) + " features, the fitted ones " +
                std::to_string(X.shape()[1]));
    require_finite(X, "X");
    require_finite(X_new, "X_new");
    const ClusterMeans fitted = cluster_means(X, labels);  // in label order, so that ties go to the smaller label
    std::vector<int64_t> out = nearest_centers(X_new, fitted.means);  // k-means' assignment step
    for (int64_t& l : out) l = fitted.labels[static_cast<std::size_t>(l)];
    return out;
}

}  // namespace facto
