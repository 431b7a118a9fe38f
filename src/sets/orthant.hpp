// The nonnegative orthant {X : X >= 0}: SymNMF's feasible set ([DAB] Sec. 4.1). Its LMO is
// unbounded, so the solvers on it take projected or Bregman steps (whose closed form, eq. (14) of the
// paper, clips at 0 inside the universal kernel's own loop).
#pragma once

#include "linalg/matrix.hpp"

namespace facto {

struct NonnegativeOrthant {
    // Euclidean projection, in place: X := max(X, 0).
    static void project(Matrix& X);
    // X validated: finite and >= 0 (Error NOT_FINITE / INFEASIBLE, "iterate: <problem> needs X >= 0").
    static Matrix feasible_point(const Matrix& X, const char* problem);
};

}  // namespace facto
