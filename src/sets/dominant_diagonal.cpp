#include "sets/dominant_diagonal.hpp"

#include <algorithm>
#include <utility>

namespace facto {

DominantDiagonal::DominantDiagonal(std::vector<double> w) : w_(std::move(w)), inverse_(w_.size())
{
    for (std::size_t l = 0; l < w_.size(); ++l) inverse_[l] = w_[l] > 0.0 ? 1.0 / w_[l] : 0.0;
}

void DominantDiagonal::project_row(double* z, std::size_t i, std::vector<Break>& breaks) const
{
    const std::size_t N = w_.size();
    const double wi = w_[i], inverse_wi = inverse_[i];
    if (wi == 0.0) {  // no caps: the row is clipped to its bounds
        for (std::size_t l = 0; l < N; ++l) z[l] = std::max(z[l], 0.0);
        z[i] = std::min(z[i], 1.0);
        return;
    }
    breaks.clear();
    double fixed_slope = 1.0, fixed_offset = z[i];  // entries capped for every d < 1 (t_l >= 1)
    double slope = 0.0, offset = 0.0;                // and those with a breakpoint t_l in (0, 1)
    for (std::size_t l = 0; l < N; ++l) {
        if (l == i || z[l] <= 0.0 || inverse_[l] == 0.0) continue;
        const double c = w_[l] * inverse_wi, t = z[l] * wi * inverse_[l];
        if (t >= 1.0)
            fixed_slope += c * c, fixed_offset += c * z[l];
        else
            breaks.push_back({t, c * c, c * z[l]}), slope += c * c, offset += c * z[l];
    }
    // Newton's method on g from d = 0, where every entry is capped: g is concave (each entry adds
    // c_l min(c_l d - z_l, 0)), so each step lands left of the root and releases the entries whose
    // breakpoint it passes; a step that releases none is on the root's linear piece.
    double d = (fixed_offset + offset) / (fixed_slope + slope);
    while (d < 1.0) {
        std::size_t kept = 0;
        slope = fixed_slope, offset = fixed_offset;
        for (const Break& b : breaks)
            if (b.t > d) breaks[kept++] = b, slope += b.c2, offset += b.cz;
        if (kept == breaks.size()) break;
        breaks.resize(kept);
        d = offset / slope;
    }
    d = std::clamp(d, 0.0, 1.0);
    const double scale = d * inverse_wi;
    for (std::size_t l = 0; l < N; ++l) z[l] = std::min(std::max(z[l], 0.0), w_[l] * scale);
    z[i] = d;
}

}  // namespace facto
