#include "sets/dominant_diagonal.hpp"

#include <algorithm>

namespace facto {

void DominantDiagonal::project_row(double* z, std::size_t i, const std::vector<double>& w,
                                   std::vector<std::pair<double, double>>& breaks)
{
    const std::size_t N = w.size();
    const double wi = w[i];
    breaks.clear();
    double slope = 1.0, offset = z[i];  // the entries capped for every d in the current bracket
    for (std::size_t l = 0; l < N; ++l) {
        if (l == i || z[l] <= 0.0 || w[l] == 0.0 || wi == 0.0) continue;
        const double c = w[l] / wi, t = z[l] / c;
        if (t >= 1.0)
            slope += c * c, offset += c * z[l];
        else
            breaks.emplace_back(t, c);
    }
    auto first = breaks.begin(), last = breaks.end();  // the breakpoints inside the bracket
    while (first != last) {
        const auto middle = first + (last - first) / 2;
        std::nth_element(first, middle, last);
        double s = slope, o = offset;  // g at t_m: capped are the bracket's entries above it
        for (auto b = middle + 1; b != last; ++b) s += b->second * b->second, o += b->second * b->second * b->first;
        if (s * middle->first - o > 0.0) {  // the root lies below t_m: entries from t_m up stay capped
            for (auto b = middle; b != last; ++b) slope += b->second * b->second, offset += b->second * b->second * b->first;
            last = middle;
        } else {
            first = middle + 1;
        }
    }
    const double d = std::clamp(offset / slope, 0.0, 1.0);
    for (std::size_t l = 0; l < N; ++l) {
        if (l == i) continue;
        const double cap = wi == 0.0 ? z[l] : w[l] / wi * d;
        z[l] = std::clamp(z[l], 0.0, std::max(cap, 0.0));
    }
    z[i] = d;
}

}  // namespace facto
