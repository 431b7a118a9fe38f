// Bound-constrained minimization by L-BFGS-B (Byrd, Lu, Nocedal & Zhu 1995), through Debian's
// liblbfgsb (Morales & Nocedal's version 3.0 of the authors' Fortran code) by reverse communication.
// Its state lives in the caller's work arrays, so separate calls may run on separate threads.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace facto {

struct LbfgsbSettings {
    int memory = 10;               // correction pairs kept (m)
    int max_iterations = 1000;     // L-BFGS-B iterations
    double factr = 1e7;            // stop when the relative decrease of f is below factr * eps
    double pgtol = 1e-8;           // ... or the projected gradient's largest entry is below this
    std::function<bool()> interrupted;  // if set, checked at each new iterate: true stops there
    double step = 0.0;  // SPG only: the first Barzilai-Borwein length (0: 1 / the projected gradient)
};

struct LbfgsbResult {
    int iterations = 0;
    double projected_gradient = 0.0;  // the largest entry of the projected gradient at the final x
    double step = 0.0;  // SPG only: the Barzilai-Borwein length for a next call to start from
    std::string message;  // the library's final task string (CONVERGENCE: ..., or the limit)
};

// Minimizes f over lower <= x_i <= upper from x (moved into the box first), in place; an infinite
// bound is none (both infinite: unconstrained L-BFGS).
// fg(x, g) returns f(x) and writes its gradient to g (x.size() values each).
LbfgsbResult minimize_in_box(std::vector<double>& x, double lower, double upper,
                             const std::function<double(const double*, double*)>& fg, const LbfgsbSettings& settings);

}  // namespace facto
