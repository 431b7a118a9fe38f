// The neighbour lists behind the kNN similarity graph (data/similarity_graph.cpp): exact, by blocked
// GEMMs, or approximate, by a hierarchical navigable small-world graph [HNSW] (hnswlib).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/data.hpp"

namespace facto {

// Each query's m neighbours, best first (q x m, row-major): index into X's rows and key, the squared
// distance (Gaussian) or minus the cosine (Cosine), ties broken by index so that every machine orders
// them alike.
struct Neighbors {
    std::vector<int64_t> index;
    std::vector<double> key;
};

// The m most similar rows of X to every row of Y (other rows, when Y is X: `self`), by `search` (Exact
// or Hnsw, resolved). The HNSW index is built on X in row order, from a fixed seed, on one thread, so
// the same X gives the same lists on every run; the queries run on all threads. It holds each row in
// single precision (4 p bytes a point, scaled as it is read); the keys are then recomputed in double
// precision from the rows. Needs m <= n - self. Error(OUT_OF_MEMORY) when the index cannot be allocated.
Neighbors nearest(const ScaledRows& Y, const ScaledRows& X, std::size_t m, Similarity kind, bool self,
                  NeighborSearch search);
Neighbors nearest(const Matrix& Y, const Matrix& X, std::size_t m, Similarity kind, bool self, NeighborSearch search);
// The same for CSR rows, exactly: each row's inner products with X's rows accumulated over
// the columns of its non-zeros (X transposed once), then its keys over all n rows (a row sharing no
// column is at distance y2 + x2, cosine 0).
Neighbors nearest(const CsrMatrix& Y, const CsrMatrix& X, std::size_t m, Similarity kind, bool self);

// The rows' squared norms.
Vector squared_norms(const ScaledRows& X);  // (of CSR rows: linalg/sparse.hpp)

}  // namespace facto
