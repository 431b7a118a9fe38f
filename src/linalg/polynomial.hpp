// Exact minimization of a quartic polynomial on [0, 1], for the Frank-Wolfe line search.
#pragma once

namespace facto {

// argmin over gamma in [0, 1] of  c1 g + c2 g^2 + c3 g^3 + c4 g^4  (the constant term does not
// matter). Candidates are the endpoints and the roots of the cubic derivative in (0, 1), found by
// bisection on the intervals where the derivative is monotone (split at the roots of the second
// derivative), so no root is missed and none is inaccurate.
double minimize_quartic_on_unit_interval(double c1, double c2, double c3, double c4);

}  // namespace facto
