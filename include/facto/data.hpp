// Reading and writing data, and building similarity matrices.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "facto/matrix.hpp"

namespace facto {

// CSV: fields separated by commas, semicolons, tabs or spaces; a non-numeric first line is a header.
Matrix read_csv(const std::string& path);
// .npy version 1-3, little-endian <f8, <f4, <i8, <i4, C or Fortran order, 1-D (as a column) or 2-D.
Matrix read_npy(const std::string& path);
// By extension: ".npy" -> read_npy, anything else -> read_csv. Rejects NaN/Inf.
Matrix read_matrix(const std::string& path);

void write_csv(const std::string& path, const Matrix& X);

enum class Scaling : int32_t { None = 0, MinMax = 1, ZScore = 2 };

// Columns scaled in place: MinMax to [-1, 1], ZScore to mean 0 / std 1 (constant columns become 0).
void scale_columns(Matrix& X, Scaling scaling);

// P_ij = exp(-||x_i - x_j||^2 / bandwidth) for the rows x_i of X (squared distances from one GEMM).
Matrix gaussian_affinity(const Matrix& X, double bandwidth);

// The Helix of Dragomir et al. Sec. 4.2: x_i = (cos 3t_i, sin 3t_i, 2t_i), t_i uniform on [0, 2 pi].
Matrix helix_points(int64_t n, uint64_t seed);

// Observed pairs of an EDM completion instance: each pair i < j kept independently with probability
// `fraction` (geometric skips: O(kept pairs) time), d = ||x_i - x_j||^2. Sorted by (i, j).
struct ObservedPairs {
    std::vector<int64_t> i, j;
    std::vector<double> d;
};
ObservedPairs sample_pairs(const Matrix& X, double fraction, uint64_t seed);

}  // namespace facto
