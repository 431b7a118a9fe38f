#include "facto/merit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "facto/error.hpp"
#include "linalg/parallel.hpp"

namespace facto {

namespace {
std::vector<ParamSpec> merit_params()
{
    return {
        choice_param("warm_start", "auto", "auto|spa|none",
                     "start without a given iterate: SPA + simplex least squares (Sec. V-B), C = 0 (Alg. 1), or "
                     "auto = spa when K is known"),
        int_param("t_init", -1, -1, std::numeric_limits<int64_t>::max() / 4,
                  "first t of the steps 2 / (t + 2); -1 = round(1 / RMSE_init) after a warm start, 0 otherwise"),
        int_param("block", 1024, 1, std::numeric_limits<int32_t>::max(),
                  "gradient columns per pass over X (their residual rows are formed together when R is not kept)"),
    };
}
}  // namespace

Merit::Merit(std::shared_ptr<const SelfDictionary> problem) : SelfDictionarySolver(std::move(problem), merit_params()) {}

void Merit::begin(bool warm)
{
    threads_ = resolve_threads(params().get_int("threads"));
    const int64_t t_init = params().get_int("t_init");
    if (t_init >= 0 || !warm) {
        t_ = static_cast<double>(std::max<int64_t>(t_init, 0));
    } else {
        // Sec. V-B: t_init = round(1 / RMSE_init), RMSE_init = ||X - X C0||_F / sqrt(N)
        const double rmse = std::sqrt(dictionary_->residual_squared(C_) / static_cast<double>(dictionary_->N()));
        t_ = std::round(1.0 / std::max(rmse, 1e-12));
    }
    keep_residual_ = dictionary_->N() <= kKeepResidualUpTo;
    if (keep_residual_) dictionary_->residual(C_, R_, threads_);
    since_exact_ = 0;
    sweep_ = dictionary_->sweep(C_, keep_residual_ ? &R_ : nullptr, vertex_, params().get_int("block"), threads_, work_);
}

void Merit::start(Matrix C0)
{
    C_ = SimplexColumns::from_dense(C0);
    begin(true);
}

void Merit::start_default(uint64_t)
{
    const std::string mode = params().get_string("warm_start");
    require(mode != "spa" || dictionary_->K() > 0, FACTO_ERROR_INVALID_ARGUMENT,
            "warm_start 'spa' needs K (give K to the problem, or use warm_start 'none')");
    const bool warm = mode == "spa" || (mode == "auto" && dictionary_->K() > 0);
    if (warm) {
        C_ = dictionary_->warm_start(resolve_threads(params().get_int("threads")));
    } else {
        C_ = SimplexColumns{};
        C_.columns.resize(static_cast<std::size_t>(dictionary_->N()));
    }
    begin(warm);
}

double Merit::iterate_once()
{
    const double alpha = 2.0 / (t_ + 2.0);  // Alg. 1 line 8
    const Matrix& Xt = dictionary_->Xt();
    const std::size_t m = Xt.shape()[1];
    // R follows C, except every 32nd iteration, when it is recomputed from C
    const bool move_residual = keep_residual_ && ++since_exact_ < 32;
    parallel_for(vertex_.size(), grain_for(m), threads_, [&](std::size_t begin, std::size_t end) {
        for (std::size_t l = begin; l < end; ++l) {
            C_.frank_wolfe_update(l, vertex_[l], alpha);  // line 18
            if (!move_residual) continue;
            // X c_l moves the same way: r_l := (1 - alpha) r_l + alpha (x_j - x_l)
            const double *xj = &Xt(static_cast<std::size_t>(vertex_[l]), 0), *xl = &Xt(l, 0);
            double* r = &R_(l, 0);
            for (std::size_t k = 0; k < m; ++k) r[k] = (1.0 - alpha) * r[k] + alpha * (xj[k] - xl[k]);
        }
    });
    if (keep_residual_ && !move_residual) {
        dictionary_->residual(C_, R_, threads_);
        since_exact_ = 0;
    }
    t_ += 1.0;
    sweep_ = dictionary_->sweep(C_, keep_residual_ ? &R_ : nullptr, vertex_, params().get_int("block"), threads_, work_);
    return alpha;
}

}  // namespace facto
