// Exact minimization of quartic polynomials: on [0, 1] for the Frank-Wolfe line search, and the
// depressed form on y >= 0 for coordinate descent on SymNMF.
#pragma once

namespace facto {

// argmin over gamma in [0, 1] of  c1 g + c2 g^2 + c3 g^3 + c4 g^4  (the constant term does not
// matter). Candidates are the endpoints and the roots of the cubic derivative in (0, 1), found by
// bisection on the intervals where the derivative is monotone (split at the roots of the second
// derivative), so no root is missed and none is inaccurate.
double minimize_quartic_on_unit_interval(double c1, double c2, double c3, double c4);

// argmin over y >= 0 of  y^4 / 4 + P y^2 / 2 + Q y: among 0 and the nonnegative real roots of the
// depressed cubic y^3 + P y + Q (Cardano in its cancellation-free form when it has one real root,
// the trigonometric form when it has three, each polished by Newton steps).
double argmin_depressed_quartic_nonnegative(double P, double Q);

}  // namespace facto
