#include "metrics/metrics.hpp"

#include <algorithm>
#include <numeric>


namespace facto {

namespace {

// Union-find over n points, each tree rooted at its component's smallest point.
class Components {
public:
    explicit Components(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), std::size_t{0}); }

    void join(std::size_t i, std::size_t j)
    {
        const std::size_t a = root(i), b = root(j);
        if (a != b) parent_[std::max(a, b)] = std::min(a, b);  // the smaller index stays the root
    }

    // Labels in [0, components), numbered in the order of each component's smallest point.
    std::vector<int64_t> labels()
    {
        const std::size_t n = parent_.size();
        std::vector<int64_t> labels(n, -1), label_of_root(n, -1);
        int64_t next = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t r = root(i);
            if (label_of_root[r] < 0) label_of_root[r] = next++;
            labels[i] = label_of_root[r];
        }
        return labels;
    }

private:
    // The root of i's tree, halving the path on the way.
    std::size_t root(std::size_t i)
    {
        while (parent_[i] != i) {
            parent_[i] = parent_[parent_[i]];
            i = parent_[i];
        }
        return i;
    }

    std::vector<std::size_t> parent_;
};

}  // namespace

std::vector<int64_t> connected_components(const PackedSymmetric& A, double threshold)
{
    const std::size_t n = A.n;
    Components components(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double* row = A.values.data() + A.start(i);  // A(i, i), A(i, i + 1), ...
        for (std::size_t j = i + 1; j < n; ++j)
            if (row[j - i] > threshold) components.join(i, j);
    }
    return components.labels();
}

std::vector<int64_t> connected_components_of_factor(const Matrix& U, double threshold)
{
    Components components(U.shape()[0]);
    for_each_row_block(U, [&](std::size_t first, std::size_t count, const double* rows, std::size_t width) {
        for (std::size_t b = 0; b < count; ++b)
            for (std::size_t j = b + 1; j < width; ++j)
                if (rows[b * width + j] > threshold) components.join(first + b, first + j);
    });
    return components.labels();
}

}  // namespace facto
