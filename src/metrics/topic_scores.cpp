// [NFW]'s topic-modeling scores (Sec. V-B, Table II).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "base/error.hpp"
#include "metrics/metrics.hpp"

namespace facto {

std::vector<std::vector<int64_t>> top_terms(const Matrix& T, std::size_t count)
{
    const std::size_t N = T.shape()[1];
    require(count <= N, FACTO_ERROR_DIMENSION,
            "top_terms: " + std::to_string(count) + " terms asked of " + std::to_string(N));
    std::vector<std::vector<int64_t>> top(T.shape()[0]);
    std::vector<int64_t> order(N);
    for (std::size_t k = 0; k < top.size(); ++k) {
        std::iota(order.begin(), order.end(), int64_t(0));
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(),
                          [&](int64_t a, int64_t b) {
                              const double x = T(k, static_cast<std::size_t>(a)), y = T(k, static_cast<std::size_t>(b));
                              return x > y || (x == y && a < b);
                          });
        top[k].assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count));
    }
    return top;
}

double topic_coherence(const CsrMatrix& documents, const std::vector<std::vector<int64_t>>& top, bool both_halves)
{
    require(!top.empty(), FACTO_ERROR_DIMENSION, "topic_coherence: no topics");
    auto occurrences = [&](int64_t term) {
        require(term >= 0 && term < documents.rows, FACTO_ERROR_INTERNAL, "topic_coherence: term out of range");
        const auto t = static_cast<std::size_t>(term);
        return std::make_pair(documents.indices.begin() + documents.indptr[t],
                              documents.indices.begin() + documents.indptr[t + 1]);
    };
    double total = 0.0;
    for (const std::vector<int64_t>& words : top) {
        double score = 0.0;
        for (std::size_t n = 0; n < words.size(); ++n) {
            const auto [first, last] = occurrences(words[n]);
            const auto alone = static_cast<double>(last - first);
            require(alone > 0.0, FACTO_ERROR_INVALID_ARGUMENT,
                    "topic_coherence: term " + std::to_string(words[n]) + " occurs in no document");
            for (std::size_t m = n + 1; m < words.size(); ++m) {
                const auto [begin, end] = occurrences(words[m]);
                std::size_t both = 0;
                for (auto a = first, b = begin; a != last && b != end;) {  // sorted lists: merge
                    if (*a < *b) ++a;
                    else if (*b < *a) ++b;
                    else ++both, ++a, ++b;
                }
                score += (both_halves ? 2.0 : 1.0) * std::log((static_cast<double>(both) + 0.01) / alone);
            }
        }
        total += score;
    }
    return total / static_cast<double>(top.size());
}

int64_t similarity_count(const std::vector<std::vector<int64_t>>& top)
{
    int64_t count = 0;
    for (std::size_t a = 0; a < top.size(); ++a)
        for (std::size_t b = a + 1; b < top.size(); ++b)
            for (int64_t term : top[a]) count += std::count(top[b].begin(), top[b].end(), term);
    return count;
}

}  // namespace facto
