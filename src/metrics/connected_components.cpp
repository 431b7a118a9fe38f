#include "metrics/metrics.hpp"

#include <numeric>

namespace facto {

namespace {

// The root of i's tree (its component's smallest point), halving the path on the way.
std::size_t root(std::vector<std::size_t>& parent, std::size_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

}  // namespace

std::vector<int64_t> connected_components(const PackedSymmetric& A, double threshold)
{
    const std::size_t n = A.n;
    std::vector<std::size_t> parent(n);
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    for (std::size_t i = 0; i < n; ++i) {
        const double* row = A.values.data() + A.start(i);  // A(i, i), A(i, i + 1), ...
        for (std::size_t j = i + 1; j < n; ++j) {
            if (!(row[j - i] > threshold)) continue;
            const std::size_t a = root(parent, i), b = root(parent, j);
            if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the smaller index stays the root
        }
    }
    std::vector<int64_t> labels(n, -1), label_of_root(n, -1);
    int64_t next = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t r = root(parent, i);
        if (label_of_root[r] < 0) label_of_root[r] = next++;
        labels[i] = label_of_root[r];
    }
    return labels;
}

}  // namespace facto
