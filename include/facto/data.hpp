// Reading and writing data, and building similarity matrices.
#pragma once

#include <cstdint>
#include <string>

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

}  // namespace facto
