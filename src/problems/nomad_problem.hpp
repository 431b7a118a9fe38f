// What NOMAD's factored solver (burer_monteiro) asks of its problem, whether D is on one process
// (Nomad) or the points are spread over several (DistributedNomad): one interface, so the solver holds
// one pointer. The rows held here, and the collectives, come from Problem::row_blocks().
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "linalg/gram_operator.hpp"
#include "linalg/gram_rows.hpp"
#include "problems/problem.hpp"

namespace facto {

class Nomad;

// c D, as the factored solver keeps it: the operator on one process, the scaled points' rows held here
// when they are spread.
struct ScaledNomad {
    std::optional<GramOperator> D;
    Matrix points;
};

class NomadProblem : public Problem {
public:
    virtual int64_t n() const = 0;
    virtual int64_t K() const = 0;
    // Collective: ||D||_F.
    virtual double frobenius_norm() const = 0;
    // c D (c > 0) into `scaled`, once per solver.
    virtual void scale(double c, ScaledNomad& scaled) const = 0;
    // The rows of the scaled D held here, for block products on `threads`; they refer to `scaled`.
    virtual GramRows scaled_rows(const ScaledNomad& scaled, std::size_t threads) const = 0;
    // Collective: output `name` at Q = U U^T, U the factor's rows held here, without forming Q (but for
    // "Q" itself, on one process).
    virtual Output output_of_factor(const std::string& name, const Matrix& U, double component_threshold) const = 0;
    // The problem with all of D on this process, for what needs it whole (the symnmf start, the
    // clustering certificates): itself on one process, none when the points are spread.
    virtual const Nomad* whole() const { return nullptr; }
};

}  // namespace facto
