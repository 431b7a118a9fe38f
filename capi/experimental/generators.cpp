// The experimental tier's generators and measures of the papers' experiments (facto_experimental.h):
// the Helix, NOMAD's manifolds, separable data, sampled distances and their error.
#include "../inputs.hpp"

#include "data/data.hpp"
#include "metrics/metrics.hpp"

using facto::capi::finite_pair;
using facto::capi::guarded;
using facto::capi::require_pointer;
using facto::capi::wrap;

extern "C" {

facto_status facto_helix_points(int64_t n, uint64_t seed, double* out, int64_t capacity)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        facto::require(n >= 1, FACTO_ERROR_DIMENSION, "n must be at least 1, got " + std::to_string(n));
        const facto::Matrix points = facto::helix_points(n, seed);
        facto::copy_out(points.data(), n, 3, out, capacity, FACTO_ROW_MAJOR);
        return FACTO_OK;
    });
}

facto_status facto_manifold_points(int32_t kind, int64_t n, double parameter, double noise, uint64_t seed, double* X,
                                   int64_t capacity, int32_t layout, int64_t* labels, int64_t labels_capacity)
{
    return guarded(nullptr, [&] {
        facto::require(kind >= FACTO_MANIFOLD_TWO_RINGS && kind <= FACTO_MANIFOLD_BLOBS, FACTO_ERROR_INVALID_ARGUMENT,
                       "kind must be FACTO_MANIFOLD_TWO_RINGS, _TREFOIL, _TWO_MOONS or _BLOBS, got " +
                           std::to_string(kind));
        const facto::Matrix centers = {{-10.0, -10.0}, {-10.0, 0.0}, {0.0, -10.0},
                                       {10.0, 10.0},   {10.0, 0.0},   {0.0, 10.0}};
        const facto::LabeledPoints p = kind == FACTO_MANIFOLD_TWO_RINGS   ? facto::two_rings(n, parameter, noise, seed)
                                       : kind == FACTO_MANIFOLD_TREFOIL   ? facto::trefoil_knot(n)
                                       : kind == FACTO_MANIFOLD_TWO_MOONS ? facto::two_moons(n, noise, seed)
                                       : facto::gaussian_blobs(n, centers, parameter, seed);
        const auto dim = static_cast<int64_t>(p.X.shape()[1]);
        facto::require_out_buffer(X, n, dim, capacity, layout);
        facto::require_out_buffer(labels, n, 1, labels_capacity, FACTO_ROW_MAJOR);
        facto::copy_out(p.X.data(), n, dim, X, capacity, layout);
        facto::copy_out(p.labels.data(), n, 1, labels, labels_capacity, FACTO_ROW_MAJOR);
        return FACTO_OK;
    });
}

facto_status facto_separable_data(int32_t kind, int64_t M, int64_t N, int64_t K, double snr_db, uint64_t seed, double* X,
                                  int64_t capacity, int32_t layout, int64_t* anchors, int64_t anchors_capacity)
{
    return guarded(nullptr, [&] {
        facto::require(kind == FACTO_SEPARABLE_MIDPOINTS || kind == FACTO_SEPARABLE_DIRICHLET,
                       FACTO_ERROR_INVALID_ARGUMENT,
                       "kind must be FACTO_SEPARABLE_MIDPOINTS or _DIRICHLET, got " + std::to_string(kind));
        facto::require(kind != FACTO_SEPARABLE_MIDPOINTS || K < 1 || N == K + K * (K - 1) / 2,
                       FACTO_ERROR_DIMENSION,
                       "midpoint data has N = K + K (K - 1) / 2 columns, got N = " + std::to_string(N) + " for K = " +
                           std::to_string(K));
        facto::require_out_buffer(X, M, N, capacity, layout);
        facto::require_out_buffer(anchors, K, 1, anchors_capacity, FACTO_ROW_MAJOR);
        const facto::SeparableData data = kind == FACTO_SEPARABLE_MIDPOINTS
                                              ? facto::separable_midpoints(M, K, snr_db, seed)
                                              : facto::separable_dirichlet(M, N, K, snr_db, seed);
        facto::copy_out(data.X.data(), M, N, X, capacity, layout);
        facto::copy_out(data.anchors.data(), K, 1, anchors, anchors_capacity, FACTO_ROW_MAJOR);
        return FACTO_OK;
    });
}

facto_status facto_sample_pairs(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                double fraction, uint64_t seed, facto_sparse** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        const facto::Matrix points = facto::copy_in(X, rows, cols, ld, layout, "X");
        facto::require_finite(points, "X");
        const facto::ObservedPairs p = facto::sample_pairs(points, fraction, seed);
        *out = wrap<facto_sparse>(facto::csr_from_triplets(rows, rows, p.i.data(), p.j.data(), p.d.data(),
                                                    static_cast<int64_t>(p.d.size())))
                   .release();
        return FACTO_OK;
    });
}

facto_status facto_distance_nrmse(const double* X, const double* X_true, int64_t n, int64_t r, int32_t layout,
                                  int64_t max_pairs, uint64_t seed, double* nrmse)
{
    return guarded(nullptr, [&] {
        require_pointer(nrmse, "nrmse");
        const auto [a, b] = finite_pair(X, "X", X_true, "X_true", n, r, layout);
        *nrmse = facto::distance_nrmse(a, b, max_pairs, seed);
        return FACTO_OK;
    });
}

}  // extern "C"
