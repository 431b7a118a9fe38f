#include "linalg/lbfgsb.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/error.hpp"

// L-BFGS-B 3.0's driver. gfortran passes the lengths of the two CHARACTER*60 arguments last.
extern "C" void setulb_(const int* n, const int* m, double* x, const double* l, const double* u, const int* nbd,
                        double* f, double* g, const double* factr, const double* pgtol, double* wa, int* iwa,
                        char* task, const int* iprint, char* csave, int* lsave, int* isave, double* dsave,
                        std::size_t task_length, std::size_t csave_length);

namespace facto {

namespace {
constexpr std::size_t text = 60;

bool starts_with(const char* task, const char* prefix) { return std::strncmp(task, prefix, std::strlen(prefix)) == 0; }

std::string trimmed(const char* task)
{
    std::string s(task, text);
    return s.substr(0, s.find_last_not_of(' ') + 1);
}
}  // namespace

LbfgsbResult minimize_in_box(std::vector<double>& x, double lower, double upper,
                             const std::function<double(const double*, double*)>& fg, const LbfgsbSettings& settings)
{
    require(x.size() <= static_cast<std::size_t>(1) << 30, FACTO_ERROR_INVALID_ARGUMENT,
            "L-BFGS-B takes at most 2^30 unknowns");
    const int n = static_cast<int>(x.size()), m = settings.memory, iprint = -1;
    const std::size_t un = x.size(), um = static_cast<std::size_t>(m);
    for (double& v : x) v = std::clamp(v, lower, upper);
    std::vector<double> l(un, lower), u(un, upper), g(un), wa(2 * um * un + 5 * un + 11 * um * um + 8 * um);
    // nbd: 0 unbounded, 1 lower bound only, 2 both, 3 upper only (an infinite bound is no bound)
    const int bounds = std::isfinite(lower) ? (std::isfinite(upper) ? 2 : 1) : (std::isfinite(upper) ? 3 : 0);
    std::vector<int> nbd(un, bounds), iwa(3 * un);
    char task[text], csave[text];
    int lsave[4] = {}, isave[44] = {};
    double dsave[29] = {}, f = 0.0;
    std::memset(task, ' ', text);
    std::memcpy(task, "START", 5);
    LbfgsbResult result;
    for (;;) {
        setulb_(&n, &m, x.data(), l.data(), u.data(), nbd.data(), &f, g.data(), &settings.factr, &settings.pgtol,
                wa.data(), iwa.data(), task, &iprint, csave, lsave, isave, dsave, text, text);
        if (starts_with(task, "FG")) {
            f = fg(x.data(), g.data());
            require(std::isfinite(f), FACTO_ERROR_NUMERICAL, "L-BFGS-B: the function became non-finite");
            continue;
        }
        if (!starts_with(task, "NEW_X")) break;
        result.iterations = isave[29];           // the iteration count (isave(30))
        result.projected_gradient = dsave[12];  // its infinity norm at the new x (dsave(13))
        const bool limit = result.iterations >= settings.max_iterations;
        if (limit || (settings.interrupted && settings.interrupted())) {
            const char* stop = limit ? "STOP: iteration limit" : "STOP: interrupted";
            std::memset(task, ' ', text);
            std::memcpy(task, stop, std::strlen(stop));
            break;
        }
    }
    result.message = trimmed(task);
    require(!starts_with(task, "ERROR"), FACTO_ERROR_INVALID_ARGUMENT, "L-BFGS-B: " + result.message);
    return result;
}

}  // namespace facto
