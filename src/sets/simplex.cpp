#include "sets/simplex.hpp"

namespace facto {

SimplexVertices simplex_vertices(const double* g, const double* w, std::size_t k)
{
    SimplexVertices v{0, k, 0.0};
    for (std::size_t j = 0; j < k; ++j) {
        v.g_w += g[j] * w[j];                                    // Alg. 2 line 1: <grad, x>
        if (g[j] < g[v.s]) v.s = j;                              // Alg. 2 line 8: argmin_j grad_ij
        if (w[j] > kNegligibleWeight && (v.a == k || g[j] > g[v.a])) v.a = j;  // the support's worst
    }
    if (v.a == k) v.a = v.s;
    return v;
}

std::vector<std::pair<std::string_view, FrankWolfeVariant>> frank_wolfe_variant_names()
{
    return {{"vanilla", FrankWolfeVariant::vanilla}, {"away", FrankWolfeVariant::away},
            {"pairwise", FrankWolfeVariant::pairwise}};
}

BlockDirection block_direction(FrankWolfeVariant variant, int64_t s, int64_t a, double g_s, double g_a, double g_w,
                               double w_a)
{
    BlockDirection d;
    d.s = s;
    d.a = a;
    const double toward_gap = g_w - g_s, away_gap = g_a - g_w;
    if (variant == FrankWolfeVariant::pairwise) {
        if (s == a || !(g_a - g_s > 0.0)) return d;
        d.kind = BlockDirection::pairwise;
        d.slope = g_s - g_a;
        d.max_step = w_a;
    } else if (variant == FrankWolfeVariant::away && away_gap > toward_gap && w_a < 1.0) {
        d.kind = BlockDirection::away;
        d.slope = -away_gap;
        d.max_step = w_a / (1.0 - w_a);
    } else if (toward_gap > 0.0) {
        d.kind = BlockDirection::toward;
        d.slope = -toward_gap;
        d.max_step = 1.0;
    }
    return d;
}

}  // namespace facto
