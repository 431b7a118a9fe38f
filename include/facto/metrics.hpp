// Evaluation metrics.
#pragma once

#include <cstdint>
#include <vector>

#include "facto/matrix.hpp"

namespace facto {

// Minimum-cost perfect assignment of rows to columns of a square cost matrix (Hungarian algorithm,
// O(m^3)); result[i] is the column assigned to row i.
std::vector<int64_t> min_cost_assignment(const Matrix& cost);

// Fraction of points whose predicted label maps to their true label under the best one-to-one
// matching of labels; labels are arbitrary integers.
double clustering_accuracy(const std::vector<int64_t>& predicted, const std::vector<int64_t>& truth);

}  // namespace facto
