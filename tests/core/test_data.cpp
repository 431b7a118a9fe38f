// Readers, writer, affinity, scaling and clustering accuracy.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <string>

#include <xtensor/xbuilder.hpp>

#include "data/data.hpp"
#include "data/nearest_neighbors.hpp"
#include "base/error.hpp"
#include "linalg/sparse.hpp"
#include "metrics/metrics.hpp"
#include "fixtures.hpp"

using namespace facto;
using namespace facto::test;

namespace {

std::string temp_path(const std::string& name) { return "facto_test_" + name; }

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Writes a version-1 .npy file with the given descr/order/shape and raw little-endian bytes.
void write_npy(const std::string& path, const std::string& descr, bool fortran, const std::string& shape,
               const void* data, std::size_t bytes)
{
    std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                         ", 'shape': " + shape + ", }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    out.write("\x93NUMPY\x01\x00", 8);
    const uint16_t length = static_cast<uint16_t>(header.size());
    const char length_bytes[2] = {static_cast<char>(length & 0xff), static_cast<char>(length >> 8)};
    out.write(length_bytes, 2);
    out << header;
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(data)

BOOST_AUTO_TEST_CASE(csv_with_header_and_various_separators)
{
    write_text(temp_path("a.csv"), "x,y,z\n1,2,3\n4.5,-6e-1,+7\n\n");
    const Matrix A = read_matrix(temp_path("a.csv"));
    BOOST_TEST(A == (Matrix{{1, 2, 3}, {4.5, -0.6, 7}}));
    write_text(temp_path("b.csv"), "1 2\t \n3   4\r\n");
    BOOST_TEST(read_matrix(temp_path("b.csv")) == (Matrix{{1, 2}, {3, 4}}));
    write_text(temp_path("c.csv"), "1;2\n3;4\n");
    BOOST_TEST(read_matrix(temp_path("c.csv")) == (Matrix{{1, 2}, {3, 4}}));
}

BOOST_AUTO_TEST_CASE(csv_errors_name_the_line)
{
    write_text(temp_path("ragged.csv"), "1,2\n3\n");
    write_text(temp_path("word.csv"), "1,2\n3,abc\n");
    write_text(temp_path("nan.csv"), "1,nan\n");
    BOOST_TEST(status_of([] { read_matrix(temp_path("ragged.csv")); }) == FACTO_ERROR_PARSE);
    try {
        read_matrix(temp_path("word.csv"));
        BOOST_FAIL("no error");
    } catch (const Error& e) {
        BOOST_TEST(std::string(e.what()).find("line 2, field 2") != std::string::npos);
    }
    BOOST_TEST(status_of([] { read_matrix(temp_path("nan.csv")); }) == FACTO_ERROR_NOT_FINITE);
    BOOST_TEST(status_of([] { read_matrix(temp_path("does_not_exist.csv")); }) == FACTO_ERROR_IO);
}

BOOST_AUTO_TEST_CASE(csv_round_trip_is_exact)
{
    const Matrix X = random_matrix(7, 3, 5);
    write_csv(temp_path("round.csv"), X);
    BOOST_TEST(read_matrix(temp_path("round.csv")) == X);
}

BOOST_AUTO_TEST_CASE(npy_dtypes_and_orders)
{
    const double d[6] = {1, 2, 3, 4, 5, 6};
    write_npy(temp_path("c.npy"), "<f8", false, "(2, 3)", d, sizeof d);
    BOOST_TEST(read_matrix(temp_path("c.npy")) == (Matrix{{1, 2, 3}, {4, 5, 6}}));
    write_npy(temp_path("f.npy"), "<f8", true, "(2, 3)", d, sizeof d);
    BOOST_TEST(read_matrix(temp_path("f.npy")) == (Matrix{{1, 3, 5}, {2, 4, 6}}));
    const float f[3] = {0.5f, 1.5f, -2.0f};
    write_npy(temp_path("v.npy"), "<f4", false, "(3,)", f, sizeof f);
    BOOST_TEST(read_matrix(temp_path("v.npy")) == (Matrix{{0.5}, {1.5}, {-2.0}}));
    const int64_t i[4] = {1, -2, 3, 4};
    write_npy(temp_path("i.npy"), "<i8", false, "(2, 2)", i, sizeof i);
    BOOST_TEST(read_matrix(temp_path("i.npy")) == (Matrix{{1, -2}, {3, 4}}));
    const uint8_t bytes[6] = {0, 7, 255, 128, 1, 2};
    write_npy(temp_path("b.npy"), "|u1", true, "(3, 2)", bytes, sizeof bytes);
    BOOST_TEST(read_matrix(temp_path("b.npy")) == (Matrix{{0, 128}, {7, 1}, {255, 2}}));
    write_npy(temp_path("b.npy"), "|u1", false, "(3, 3)", bytes, sizeof bytes);
    BOOST_TEST(status_of([] { read_matrix(temp_path("b.npy")); }) == FACTO_ERROR_PARSE);
    write_npy(temp_path("u.npy"), "<u2", false, "(2,)", i, 4);
    BOOST_TEST(status_of([] { read_matrix(temp_path("u.npy")); }) == FACTO_ERROR_UNSUPPORTED);
    write_npy(temp_path("short.npy"), "<f8", false, "(4, 4)", d, sizeof d);
    BOOST_TEST(status_of([] { read_matrix(temp_path("short.npy")); }) == FACTO_ERROR_PARSE);
    // A shape whose byte count overflows is rejected before anything is allocated.
    write_npy(temp_path("huge.npy"), "<f8", false, "(4294967296, 4294967296)", d, sizeof d);
    BOOST_TEST(status_of([] { read_matrix(temp_path("huge.npy")); }) == FACTO_ERROR_PARSE);
    write_text(temp_path("not.npy"), "just text");
    BOOST_TEST(status_of([] { read_matrix(temp_path("not.npy")); }) == FACTO_ERROR_PARSE);
    // shapes that are not numpy's tuples (the first was read as digits picked anywhere; the last threw
    // std::out_of_range, an INTERNAL error)
    for (const char* shape : {"22200000038655PY", "(2 3)", "(-1, 2)", "(2, x)", "(,)", "(99999999999999999999,)"}) {
        write_npy(temp_path("shape.npy"), "<f8", false, shape, d, sizeof d);
        BOOST_TEST(status_of([] { read_matrix(temp_path("shape.npy")); }) == FACTO_ERROR_PARSE, shape);
    }
    write_npy(temp_path("py2.npy"), "<f8", false, "(3L, 2L)", d, sizeof d);
    BOOST_TEST(read_matrix(temp_path("py2.npy")).shape()[0] == 3u);
    // an empty array with 10^15 - 1 rows is read at once (a loop over its rows timed out under the fuzzer)
    write_npy(temp_path("empty.npy"), "<f8", false, "(999999999999999, 0)", d, 0);
    BOOST_TEST(read_matrix(temp_path("empty.npy")).shape()[0] == 999999999999999u);
}

BOOST_AUTO_TEST_CASE(files_read_in_single_precision_hold_the_values_exactly_or_are_refused)
{
    // uint8 in Fortran order and float32: the values read_matrix holds, in single precision
    const uint8_t bytes[6] = {0, 7, 255, 128, 1, 2};
    write_npy(temp_path("b.npy"), "|u1", true, "(3, 2)", bytes, sizeof bytes);
    const SingleMatrix B = read_matrix_single(temp_path("b.npy"));
    BOOST_TEST(xt::cast<double>(B) == read_matrix(temp_path("b.npy")));
    const float f[4] = {0.1f, -1e30f, 3.0f, 16777216.0f};
    write_npy(temp_path("v.npy"), "<f4", false, "(2, 2)", f, sizeof f);
    BOOST_TEST(read_matrix_single(temp_path("v.npy")) == (SingleMatrix{{0.1f, -1e30f}, {3.0f, 16777216.0f}}));
    // a double single precision would round, in a .npy or a CSV file, is refused, never rounded
    for (const double v : {0.1, 16777217.0, 1e39}) {
        const double d[2] = {1.0, v};
        write_npy(temp_path("d.npy"), "<f8", false, "(1, 2)", d, sizeof d);
        BOOST_TEST(read_matrix(temp_path("d.npy"))(0, 1) == v);
        BOOST_TEST(status_of([] { read_matrix_single(temp_path("d.npy")); }) == FACTO_ERROR_UNSUPPORTED);
    }
    write_text(temp_path("tenth.csv"), "1,2\n0.5,0.1\n");
    BOOST_TEST(status_of([] { read_matrix_single(temp_path("tenth.csv")); }) == FACTO_ERROR_UNSUPPORTED);
    write_text(temp_path("half.csv"), "1,2\n0.5,-3\n");
    BOOST_TEST(read_matrix_single(temp_path("half.csv")) == (SingleMatrix{{1.0f, 2.0f}, {0.5f, -3.0f}}));
    // a NaN is refused as not finite, as read_matrix refuses it
    const double nan[2] = {1.0, std::nan("")};
    write_npy(temp_path("nan.npy"), "<f8", false, "(1, 2)", nan, sizeof nan);
    BOOST_TEST(status_of([] { read_matrix_single(temp_path("nan.npy")); }) == FACTO_ERROR_NOT_FINITE);
}

BOOST_AUTO_TEST_CASE(gaussian_affinity_matches_its_definition)
{
    const Matrix X = random_matrix(9, 4, 6);
    const Matrix P = gaussian_affinity(X, 2.5);
    for (std::size_t i = 0; i < 9; ++i)
        for (std::size_t j = 0; j < 9; ++j) {
            double d2 = 0.0;
            for (std::size_t c = 0; c < 4; ++c) d2 += (X(i, c) - X(j, c)) * (X(i, c) - X(j, c));
            BOOST_TEST(P(i, j) == std::exp(-d2 / 2.5), boost::test_tools::tolerance(1e-12));
        }
    BOOST_TEST(status_of([&] { gaussian_affinity(X, -1.0); }) == FACTO_ERROR_OUT_OF_RANGE);
    BOOST_TEST(status_of([&] { gaussian_affinity(X, std::nan("")); }) == FACTO_ERROR_OUT_OF_RANGE);
}

BOOST_AUTO_TEST_CASE(the_median_rule_takes_a_quarter_of_the_median_squared_distance)
{
    // bandwidth 0: b = median_{i<j} ||x_i - x_j||^2 / 4, found here by sorting the n (n - 1) / 2 pairs
    // (odd count: the middle one; even: nth_element's upper middle)
    for (const std::size_t n : {9, 12}) {
        const Matrix X = random_matrix(n, 3, 40 + n);
        std::vector<double> pairs;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) {
                double d2 = 0.0;
                for (std::size_t c = 0; c < 3; ++c) d2 += (X(i, c) - X(j, c)) * (X(i, c) - X(j, c));
                pairs.push_back(d2);
            }
        std::sort(pairs.begin(), pairs.end());
        const double b = pairs[pairs.size() / 2] / 4.0;
        BOOST_TEST(resolve_bandwidth(X, 0.0) == b, boost::test_tools::tolerance(1e-12));
        BOOST_TEST(resolve_bandwidth(X, 2.5) == 2.5);
        BOOST_TEST(xt::amax(xt::abs(gaussian_affinity(X, 0.0) - gaussian_affinity(X, resolve_bandwidth(X, 0.0))))() < 1e-15);
    }
    // most pairs coincide: the median of the positive ones (here the single distance 1, so b = 1/4);
    // every point equal: any bandwidth gives P = 1
    const Matrix twins{{0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}};
    BOOST_TEST(resolve_bandwidth(twins, 0.0) == 0.25);
    const Matrix same({3, 2}, 1.0);
    BOOST_TEST(xt::all(xt::equal(gaussian_affinity(same, 0.0), 1.0)));
    BOOST_TEST(status_of([&] { resolve_bandwidth(same, -1.0); }) == FACTO_ERROR_OUT_OF_RANGE);
    BOOST_TEST(status_of([&] { gaussian_cross_affinity(same, same, 0.0); }) == FACTO_ERROR_OUT_OF_RANGE);
}

BOOST_AUTO_TEST_CASE(column_scalings)
{
    Matrix X{{1, 5, 2}, {3, 5, 4}, {2, 5, 9}};
    Matrix M = X;
    scale_columns(M, Scaling::MinMax);
    BOOST_TEST(xt::allclose(M, Matrix{{-1, 0, -1}, {1, 0, -3.0 / 7}, {0, 0, 1}}, 1e-15, 1e-15));
    Matrix Z = X;
    scale_columns(Z, Scaling::ZScore);
    BOOST_TEST(std::fabs(xt::mean(xt::view(Z, xt::all(), 0))()) < 1e-15);
    BOOST_TEST(xt::mean(xt::square(xt::view(Z, xt::all(), 2)))() == 1.0, boost::test_tools::tolerance(1e-14));
    BOOST_TEST(xt::amax(xt::abs(xt::view(Z, xt::all(), 1)))() == 0.0);
}

BOOST_AUTO_TEST_CASE(accuracy_is_invariant_to_relabelling)
{
    const std::vector<int64_t> truth{0, 0, 1, 1, 2, 2, 2};
    BOOST_TEST(clustering_accuracy({7, 7, 3, 3, 5, 5, 5}, truth) == 1.0);
    BOOST_TEST(clustering_accuracy({1, 1, 1, 1, 1, 1, 1}, truth) == 3.0 / 7.0);
    BOOST_TEST(clustering_accuracy({0, 1, 2, 3, 4, 5, 6}, truth) == 3.0 / 7.0);
    BOOST_TEST(clustering_accuracy({0, 0, 2, 1, 2, 2, 1}, truth) == 5.0 / 7.0);
}

BOOST_AUTO_TEST_CASE(hungarian_matches_brute_force)
{
    for (uint64_t seed = 0; seed < 20; ++seed) {
        const Matrix cost = random_matrix(5, 5, seed);
        std::vector<int64_t> perm{0, 1, 2, 3, 4};
        double best = 1e300;
        do {
            double c = 0.0;
            for (std::size_t i = 0; i < 5; ++i) c += cost(i, static_cast<std::size_t>(perm[i]));
            best = std::min(best, c);
        } while (std::next_permutation(perm.begin(), perm.end()));
        const std::vector<int64_t> a = min_cost_assignment(cost);
        double c = 0.0;
        for (std::size_t i = 0; i < 5; ++i) c += cost(i, static_cast<std::size_t>(a[i]));
        BOOST_TEST(c == best, boost::test_tools::tolerance(1e-12));
    }
}

BOOST_AUTO_TEST_CASE(matrix_market_coordinate_symmetric_pattern_and_array)
{
    const std::string general = "mm_general.mtx", symmetric = "mm_symmetric.mtx", array = "mm_array.mtx";
    std::ofstream(general) << "%%MatrixMarket matrix coordinate real general\n% comment\n3 3 3\n1 2 0.5\n2 1 0.5\n3 3 2\n";
    std::ofstream(symmetric) << "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n";
    std::ofstream(array) << "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n";
    const CsrMatrix a = read_matrix_market(general);
    BOOST_TEST(a.rows == 3);
    BOOST_TEST(a.nnz() == 3);
    BOOST_TEST(a.indices[0] == 1);
    BOOST_TEST(a.values[2] == 2.0);
    const CsrMatrix b = read_matrix_market(symmetric);
    BOOST_TEST(b.nnz() == 3);  // (1, 0) mirrored to (0, 1), diagonal once
    BOOST_TEST(b.indptr[1] == 1);
    const CsrMatrix c = read_matrix_market(array);  // column-major: [[1, 3], [2, 4]]
    BOOST_TEST(c.values[1] == 3.0);
    BOOST_TEST(c.values[2] == 2.0);
    std::ofstream("mm_bad.mtx") << "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n";
    BOOST_TEST(status_of([] { read_matrix_market("mm_bad.mtx"); }) == FACTO_ERROR_PARSE);
    std::ofstream("mm_complex.mtx") << "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n";
    BOOST_TEST(status_of([] { read_matrix_market("mm_complex.mtx"); }) == FACTO_ERROR_UNSUPPORTED);
    BOOST_TEST(status_of([] { read_matrix_market("no_such_file.mtx"); }) == FACTO_ERROR_IO);
}

BOOST_AUTO_TEST_CASE(matrix_market_sizes_beyond_the_file_are_refused_before_allocating)
{
    // a small file cannot hold 6.7e12 entries (which once went to reserve()), nor a 1e10 x 1e10 array
    // (whose rows * cols overflows int64)
    write_text(temp_path("mm_many.mtx"), "%%MatrixMarket matrix coordinate real symmetric\n3 3 6666660000001\n1 1 1\n");
    write_text(temp_path("mm_huge_array.mtx"), "%%MatrixMarket matrix array real general\n10000000000 10000000000\n1\n");
    write_text(temp_path("mm_exact.mtx"), "%%MatrixMarket matrix array real general\n2 1\n1\n2");
    try {
        read_matrix_market(temp_path("mm_many.mtx"));
        BOOST_FAIL("no error");
    } catch (const Error& e) {
        BOOST_TEST(e.status() == FACTO_ERROR_PARSE);
        BOOST_TEST(std::string(e.what()).find("line 2: the size line declares 6.66666e+12 entries, but the rest of "
                                              "the file holds 3 at most") != std::string::npos,
                   e.what());
    }
    BOOST_TEST(status_of([] { read_matrix_market(temp_path("mm_huge_array.mtx")); }) == FACTO_ERROR_PARSE);
    // a size line that is not two (three) integers: once read as 0 x 0, or as 2222222222 x 0 (whose
    // row pointers took 18 GB)
    for (const char* size : {"abc", "3 3 2 junk", "2222222222\x01 7", "3 -1 0", "3 3"}) {
        write_text(temp_path("mm_size.mtx"), std::string("%%MatrixMarket matrix coordinate real general\n") + size +
                                                 "\n1 1 1\n2 2 1\n");
        BOOST_TEST(status_of([] { read_matrix_market(temp_path("mm_size.mtx")); }) == FACTO_ERROR_PARSE, size);
    }
    // and the same empty rows within a memory budget
    write_text(temp_path("mm_tall.mtx"), "%%MatrixMarket matrix array real general\n2222222222 0\n");
    setenv("FACTO_MEMORY_LIMIT_MB", "64", 1);
    BOOST_TEST(status_of([] { read_matrix_market(temp_path("mm_tall.mtx")); }) == FACTO_ERROR_OUT_OF_MEMORY);
    setenv("FACTO_MEMORY_LIMIT_MB", "-3", 1);
    BOOST_TEST(status_of([] { read_matrix_market(temp_path("mm_tall.mtx")); }) == FACTO_ERROR_INVALID_ARGUMENT);
    unsetenv("FACTO_MEMORY_LIMIT_MB");
    const CsrMatrix exact = read_matrix_market(temp_path("mm_exact.mtx"));  // "1\n2": two entries in three bytes
    BOOST_TEST(exact.nnz() == 2);
}

BOOST_AUTO_TEST_CASE(hnsw_neighbours_are_the_exact_ones_to_a_recall_and_never_closer)
{
    // 2000 Gaussian points in 6 dimensions, 12 neighbours each, as a graph (self) and as queries of 300
    // other points. What holds whatever the index: each list is distinct others in ascending (key, index),
    // its keys the exact ones of its pairs, and its t-th key at least the exact t-th (the t-th smallest of
    // a subset). Recall: at this dimension an HNSW search with 32 candidates finds nearly every exact
    // neighbour (above 0.99 measured); 0.9 fails any broken search, whose lists would share ~k/n = 0.6%.
    // The index is built from a fixed seed on one thread: two builds give the same lists.
    const std::size_t n = 2000, m = 12;
    const Matrix X = random_matrix(n, 6, 31), Y = random_matrix(300, 6, 32);
    for (Similarity kind : {Similarity::Gaussian, Similarity::Cosine})
        for (const bool self : {true, false}) {
            const Matrix& queries = self ? X : Y;
            const std::size_t q = queries.shape()[0];
            const Neighbors exact = nearest(queries, X, m, kind, self, NeighborSearch::Exact);
            const Neighbors approximate = nearest(queries, X, m, kind, self, NeighborSearch::Hnsw);
            std::size_t found = 0;
            bool ordered = true, keyed = true, never_closer = true;
            for (std::size_t i = 0; i < q; ++i) {
                std::vector<int64_t> mine(approximate.index.begin() + static_cast<std::ptrdiff_t>(i * m),
                                          approximate.index.begin() + static_cast<std::ptrdiff_t>((i + 1) * m));
                for (std::size_t t = 0; t < m; ++t) {
                    const auto j = static_cast<std::size_t>(mine[t]);
                    const double key = kind == Similarity::Gaussian
                                           ? xt::sum(xt::square(xt::row(queries, i) - xt::row(X, j)))()
                                           : -xt::sum(xt::row(queries, i) * xt::row(X, j))() /
                                                 std::sqrt(xt::sum(xt::square(xt::row(queries, i)))() *
                                                           xt::sum(xt::square(xt::row(X, j)))());
                    keyed = keyed && std::abs(approximate.key[i * m + t] - key) <= 1e-12 * (1.0 + std::abs(key));
                    never_closer = never_closer && approximate.key[i * m + t] >= exact.key[i * m + t] - 1e-12;
                    if (t > 0)
                        ordered = ordered && std::make_pair(approximate.key[i * m + t - 1], mine[t - 1]) <
                                                 std::make_pair(approximate.key[i * m + t], mine[t]);
                    ordered = ordered && !(self && j == i);
                    found += static_cast<std::size_t>(std::count(exact.index.begin() + static_cast<std::ptrdiff_t>(i * m),
                                                                 exact.index.begin() + static_cast<std::ptrdiff_t>((i + 1) * m),
                                                                 mine[t]));
                }
            }
            BOOST_TEST(ordered);
            BOOST_TEST(keyed);
            BOOST_TEST(never_closer);
            BOOST_TEST(static_cast<double>(found) / static_cast<double>(q * m) >= 0.9);
            const Neighbors again = nearest(queries, X, m, kind, self, NeighborSearch::Hnsw);
            BOOST_TEST((again.index == approximate.index && again.key == approximate.key));
        }
}

BOOST_AUTO_TEST_CASE(the_knn_graph_by_hnsw_is_symmetric_and_auto_switches_at_its_threshold)
{
    // the graph's construction after the search is the exact path's: exactly symmetric, no diagonal; Auto
    // resolves by n; an unknown code is refused
    const Matrix X = random_matrix(600, 4, 33);
    const KnnGraph graph = knn_graph(X, 0, Similarity::Gaussian, 7, NeighborSearch::Hnsw);
    BOOST_TEST(static_cast<int32_t>(graph.search) == static_cast<int32_t>(NeighborSearch::Hnsw));
    BOOST_TEST(static_cast<int32_t>(knn_graph(X, 0, Similarity::Gaussian).search) == static_cast<int32_t>(NeighborSearch::Exact));
    Matrix S = xt::zeros<double>({600, 600});
    for (std::size_t i = 0; i < 600; ++i)
        for (int64_t p = graph.S.indptr[i]; p < graph.S.indptr[i + 1]; ++p) S(i, static_cast<std::size_t>(graph.S.indices[p])) = graph.S.values[p];
    BOOST_TEST(xt::allclose(S, xt::transpose(S), 0.0, 0.0));
    BOOST_TEST(xt::amax(xt::abs(xt::diagonal(S)))() == 0.0);
    BOOST_TEST(static_cast<int32_t>(resolve_search(NeighborSearch::Auto, kHnswFrom - 1)) == static_cast<int32_t>(NeighborSearch::Exact));
    BOOST_TEST(static_cast<int32_t>(resolve_search(NeighborSearch::Auto, kHnswFrom)) == static_cast<int32_t>(NeighborSearch::Hnsw));
    BOOST_TEST(status_of([] { resolve_search(static_cast<NeighborSearch>(3), 10); }) == FACTO_ERROR_INVALID_ARGUMENT);
}

BOOST_AUTO_TEST_CASE(rows_read_in_place_and_scaled_as_read_give_the_scaled_copys_graph)
{
    // scale_columns maps a copy by ScaledRows' own map, so both searches see the scaled copy's values
    // bit for bit: the same graph, exactly; rows with padding (stride > p) read alike
    const Matrix X = 3.0 * random_matrix(500, 6, 71) + 2.0;
    Matrix padded = xt::zeros<double>({500, 9});
    xt::view(padded, xt::all(), xt::range(0, 6)) = X;
    const DenseRows in_place{padded.data(), 500, 6, 9};
    for (const Scaling how : {Scaling::MinMax, Scaling::ZScore, Scaling::None})
        for (const NeighborSearch search : {NeighborSearch::Exact, NeighborSearch::Hnsw})
            for (const Similarity kind : {Similarity::Gaussian, Similarity::Cosine}) {
                const ColumnScaling scaling = column_scaling(in_place, how);
                Matrix copy = X;
                scale_columns(copy, column_scaling(X, how));
                const CsrMatrix A = knn_graph(ScaledRows(in_place, &scaling), 0, kind, 7, search).S;
                const CsrMatrix B = knn_graph(copy, 0, kind, 7, search).S;
                BOOST_TEST((A.indptr == B.indptr && A.indices == B.indices && A.values == B.values),
                           "scaling " << static_cast<int>(how) << ", search " << static_cast<int>(search) << ", kind "
                                      << static_cast<int>(kind));
            }
    // a scaling learnt on other columns is refused
    const ColumnScaling narrow = column_scaling(rows_of(Matrix(xt::view(X, xt::all(), xt::range(0, 4)))), Scaling::MinMax);
    BOOST_TEST(status_of([&] { (void)ScaledRows(in_place, &narrow); }) == FACTO_ERROR_DIMENSION);
}


BOOST_AUTO_TEST_CASE(the_knn_graph_of_sparse_rows_is_the_dense_rows_graph)
{
    // 300 rows of 12 columns among 200: the same kernel choice, the same edges, and values equal to
    // rounding (the edges' sums are the dense ones bit for bit; the keys that order the neighbours differ
    // in the products' last bits, 1e-15 relative, and no two candidates of a row are that close here);
    // HNSW takes dense rows only
    const CsrMatrix X = sparse_rows(300, 200, 12, 41);
    const Matrix D = dense_from_csr(X);
    BOOST_TEST(static_cast<int32_t>(automatic_similarity(X)) == static_cast<int32_t>(automatic_similarity(D)));
    for (Similarity kind : {Similarity::Gaussian, Similarity::Cosine}) {
        const KnnGraph sparse = knn_graph(X, 0, kind), dense = knn_graph(D, 0, kind, 7, NeighborSearch::Exact);
        BOOST_TEST(sparse.S.indptr == dense.S.indptr);
        BOOST_TEST(sparse.S.indices == dense.S.indices);
        double largest = 0.0;
        for (std::size_t e = 0; e < sparse.S.values.size() && sparse.S.indices == dense.S.indices; ++e)
            largest = std::max(largest, std::abs(sparse.S.values[e] - dense.S.values[e]));
        BOOST_TEST(largest <= 1e-12);
    }
    BOOST_TEST(status_of([&] { knn_graph(X, 0, Similarity::Cosine, 7, NeighborSearch::Hnsw); }) == FACTO_ERROR_UNSUPPORTED);
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
BOOST_AUTO_TEST_CASE(the_sparse_knn_graph_fits_in_memory_its_dense_form_would_not)
{
    // 4000 rows of 20 non-zeros among 10^7 columns: 320 GB dense. In a child process limited to 1 GiB of
    // address space the sparse graph is built whole (its memory is in the non-zeros and O(n) per thread);
    // the dense form's first allocation fails there. (Not under the sanitizers, whose shadow memory the
    // limit forbids.)
    BOOST_TEST(within_address_space(1ul << 30, [] {
        const CsrMatrix S = knn_similarity(sparse_rows(4000, 10000000, 20, 43), 0, Similarity::Cosine);
        return S.rows == 4000 && S.nnz() >= 4000 * 12 && dense_allocation_fails(4000, 10000000);
    }));
}
#endif

BOOST_AUTO_TEST_CASE(knn_graph_matches_a_brute_force_construction)
{
    // Kuang et al. Sec. 7.1 built by hand (full distance matrix, sort each row) on a small point set.
    const std::size_t n = 40;
    const Matrix X = random_matrix(n, 3, 8);
    for (Similarity kind : {Similarity::Gaussian, Similarity::Cosine}) {
        const CsrMatrix S = knn_similarity(X, 0, kind);
        const std::size_t k = static_cast<std::size_t>(std::floor(std::log2(40.0))) + 1;
        Matrix dist({n, n}), ref = xt::zeros<double>({n, n});
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                const double d2 = xt::sum(xt::square(xt::row(X, i) - xt::row(X, j)))();
                const double cosine = xt::sum(xt::row(X, i) * xt::row(X, j))() /
                                      std::sqrt(xt::sum(xt::square(xt::row(X, i)))() * xt::sum(xt::square(xt::row(X, j)))());
                dist(i, j) = kind == Similarity::Gaussian ? d2 : -cosine;
            }
        std::vector<double> scale(n);
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<std::pair<double, std::size_t>> order;
            for (std::size_t j = 0; j < n; ++j)
                if (j != i) order.emplace_back(dist(i, j), j);
            std::sort(order.begin(), order.end());
            scale[i] = std::sqrt(order[6].first);
            for (std::size_t t = 0; t < k; ++t) ref(i, order[t].second) = ref(order[t].second, i) = 1.0;
        }
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                if (ref(i, j) != 0.0)
                    ref(i, j) = kind == Similarity::Gaussian ? std::exp(-dist(i, j) / (scale[i] * scale[j]))
                                                             : std::max(0.0, -dist(i, j));
        const Vector degree = xt::sum(ref, {1});
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) ref(i, j) /= std::sqrt(degree(i) * degree(j));
        Matrix got = xt::zeros<double>({n, n});
        for (std::size_t i = 0; i < n; ++i)
            for (int64_t p = S.indptr[i]; p < S.indptr[i + 1]; ++p) got(i, static_cast<std::size_t>(S.indices[p])) = S.values[p];
        BOOST_TEST(xt::allclose(got, ref, 1e-12, 1e-14));
        BOOST_TEST(xt::allclose(got, xt::transpose(got), 0.0, 0.0));  // exactly symmetric
    }
    BOOST_TEST(status_of([&] { knn_similarity(X, 40, Similarity::Cosine); }) == FACTO_ERROR_OUT_OF_RANGE);
}

BOOST_AUTO_TEST_CASE(the_automatic_kernel_is_the_cosine_on_sparse_nonnegative_features_only)
{
    // a 20 x 10 count matrix with 10% of its entries nonzero: the cosine; one more zero entry made nonzero
    // (89% zeros) or one entry negative: the Gaussian
    Matrix counts = xt::zeros<double>({20, 10});
    for (std::size_t i = 0; i < 20; ++i) counts(i, (3 * i) % 10) = 1.0 + static_cast<double>(i % 4);
    BOOST_TEST(static_cast<int>(automatic_similarity(counts)) == static_cast<int>(Similarity::Cosine));
    Matrix denser = counts;
    denser(0, 1) = 2.0;
    BOOST_TEST(static_cast<int>(automatic_similarity(denser)) == static_cast<int>(Similarity::Gaussian));
    Matrix signed_counts = counts;
    signed_counts(0, 0) = -1.0;
    BOOST_TEST(static_cast<int>(automatic_similarity(signed_counts)) == static_cast<int>(Similarity::Gaussian));
    BOOST_TEST(static_cast<int>(automatic_similarity(uniform_matrix(30, 4, 9, 0.1, 1.0))) ==
               static_cast<int>(Similarity::Gaussian));
}

BOOST_AUTO_TEST_CASE(a_cosine_graph_does_not_depend_on_the_features_scale)
{
    // cosines are scale-free; features of 2^299 ~ 1e90 (below the 1e100 input bound) have squared norms of
    // ~1e180, whose product overflows: the graph and new points' rows must be those of the unscaled features
    // (a power of 2 scales every product and sum exactly, so the neighbours are the same; 1e-12 on values
    // in [0, 1] is far above any rounding left)
    const Matrix X = uniform_matrix(30, 4, 9, 0.1, 1.0), Y = uniform_matrix(3, 4, 10, 0.1, 1.0);
    const double large_scale = std::ldexp(1.0, 299);
    const KnnGraph plain = knn_graph(X, 0, Similarity::Cosine), large = knn_graph(large_scale * X, 0, Similarity::Cosine);
    BOOST_TEST(large.S.indices == plain.S.indices, boost::test_tools::per_element());
    for (std::size_t e = 0; e < plain.S.values.size(); ++e) BOOST_TEST(std::abs(large.S.values[e] - plain.S.values[e]) <= 1e-12);
    const CsrMatrix rows = knn_cross_similarity(Y, X, plain), large_rows = knn_cross_similarity(large_scale * Y, large_scale * X, large);
    BOOST_TEST(large_rows.indices == rows.indices, boost::test_tools::per_element());
    for (std::size_t e = 0; e < rows.values.size(); ++e) BOOST_TEST(std::abs(large_rows.values[e] - rows.values[e]) <= 1e-12);
}

BOOST_AUTO_TEST_CASE(spearman_correlation_matches_hand_computed_ranks)
{
    // x = (1, 2, 3, 4, 5) against y = (5, 6, 7, 8, 7): ranks of y (1, 2, 3.5, 5, 3.5) with the tie averaged;
    // Pearson of (1..5) with them: sum of products of deviations 8, sums of squares 10 and 9.5
    const Matrix X = {{1.0}, {2.0}, {3.0}, {4.0}, {5.0}}, Y = {{5.0}, {6.0}, {7.0}, {8.0}, {7.0}};
    BOOST_TEST(spearman_correlation(X, 0, Y, 0) == 8.0 / std::sqrt(10.0 * 9.5), boost::test_tools::tolerance(1e-15));
    BOOST_TEST(spearman_correlation(X, 0, X, 0) == 1.0);
    const Matrix reversed = {{9.0}, {4.0}, {1.0}, {0.5}, {-3.0}};  // any decreasing column: -1
    BOOST_TEST(spearman_correlation(X, 0, reversed, 0) == -1.0, boost::test_tools::tolerance(1e-15));
    const Matrix constant = {{2.0}, {2.0}, {2.0}, {2.0}, {2.0}};
    BOOST_TEST(spearman_correlation(X, 0, constant, 0) == 0.0);
}

BOOST_AUTO_TEST_CASE(averaged_spearman_is_one_on_the_truth_in_any_community_order)
{
    const Matrix H = {{0.9, 0.1, 0.0}, {0.2, 0.5, 0.3}, {0.0, 0.0, 1.0}, {0.4, 0.4, 0.2}, {0.1, 0.7, 0.2}, {0.6, 0.1, 0.3}};
    BOOST_TEST(averaged_spearman(H, H) == 1.0, boost::test_tools::tolerance(1e-15));
    Matrix permuted({6, 3});  // estimated communities in another order, scaled: ranks do not change
    for (std::size_t i = 0; i < 6; ++i) permuted(i, 0) = 2.0 * H(i, 2), permuted(i, 1) = H(i, 0), permuted(i, 2) = H(i, 1) + 1.0;
    BOOST_TEST(averaged_spearman(permuted, H) == 1.0, boost::test_tools::tolerance(1e-15));
    // the matching takes the best total: swapping two true columns of a 2-community truth gives the
    // same value, and the value is the mean of the two matched correlations computed directly
    const Matrix T = {{1.0, 0.0}, {0.7, 0.3}, {0.2, 0.8}, {0.5, 0.5}}, E = {{0.1, 0.8}, {0.4, 0.6}, {0.9, 0.2}, {0.3, 0.4}};
    const double direct = std::max(spearman_correlation(E, 0, T, 0) + spearman_correlation(E, 1, T, 1),
                                   spearman_correlation(E, 0, T, 1) + spearman_correlation(E, 1, T, 0)) / 2.0;
    BOOST_TEST(averaged_spearman(E, T) == direct, boost::test_tools::tolerance(1e-15));
    BOOST_TEST(status_of([&] { averaged_spearman(E, H); }) == FACTO_ERROR_DIMENSION);
}

// TF-IDF against the formula entry by entry on a corpus whose pruning is known: term 0 is in one
// document (dropped at min_df = 2), term 3 in all three (idf 0, dropped), duplicates summed.
BOOST_AUTO_TEST_CASE(tf_idf_weights_and_prunes_as_the_authors_code)
{
    const std::vector<int64_t> row = {0, 0, 0, 1, 1, 1, 2, 2, 2, 2}, col = {0, 1, 3, 1, 2, 3, 2, 3, 4, 4};
    const std::vector<double> count = {5, 2, 1, 1, 3, 1, 1, 1, 1, 1};
    const CsrMatrix C = csr_from_triplets(3, 5, row.data(), col.data(), count.data(), 10);
    const TfIdf t = tf_idf(C, 2);
    BOOST_TEST(t.terms == (std::vector<int64_t>{1, 2}), boost::test_tools::per_element());
    BOOST_TEST(t.df == (std::vector<int64_t>{2, 2}), boost::test_tools::per_element());
    const double idf = std::log(3.0 / 2.0);
    const std::vector<double> expected = {(1 + std::log(2.0)) * idf, idf, (1 + std::log(3.0)) * idf, idf};
    BOOST_TEST(t.F.values.size() == expected.size());
    for (std::size_t e = 0; e < expected.size(); ++e) BOOST_TEST(std::abs(t.F.values[e] - expected[e]) <= 1e-15);
    const TfIdf all = tf_idf(C, 1);  // term 4 (two counts in one document: c = 2) is kept now
    BOOST_TEST(all.terms == (std::vector<int64_t>{0, 1, 2, 4}), boost::test_tools::per_element());
    BOOST_TEST(std::abs(all.F.values.back() - (1 + std::log(2.0)) * std::log(3.0)) <= 1e-15);
}

// Coherence and similarity count by hand: documents {0: a b, 1: a c, 2: b c, 3: a b c} over terms
// a = 0, b = 1, c = 2; D(a) = 3, D(a, b) = 2, D(a, c) = 2, D(b, c) = 2.
BOOST_AUTO_TEST_CASE(topic_scores_match_hand_computed_values)
{
    const std::vector<int64_t> term = {0, 0, 0, 1, 1, 1, 2, 2, 2}, doc = {0, 1, 3, 0, 2, 3, 1, 2, 3};
    const std::vector<double> one(9, 1.0);
    const CsrMatrix occurs = csr_from_triplets(3, 4, term.data(), doc.data(), one.data(), 9);
    const std::vector<std::vector<int64_t>> top = {{0, 1, 2}, {2, 0}};
    // topic 1: 2 [log(2.01/3) + log(2.01/3) + log(2.01/3)]; topic 2: 2 log(2.01/3) (D(c) = 3)
    const double expected = (6.0 * std::log(2.01 / 3.0) + 2.0 * std::log(2.01 / 3.0)) / 2.0;
    BOOST_TEST(std::abs(topic_coherence(occurs, top, true) - expected) <= 1e-14);
    BOOST_TEST(std::abs(topic_coherence(occurs, top, false) - expected / 2.0) <= 1e-14);  // each pair once
    BOOST_TEST(similarity_count(top) == 2);
    BOOST_TEST(similarity_count({{0, 1}, {1, 2}, {1, 0}}) == 4);
    const Matrix T = {{0.1, 0.5, 0.5, 0.2}, {0.3, 0.0, 0.3, 0.4}};
    const auto ranked = top_terms(T, 3);  // ties by index
    BOOST_TEST(ranked[0] == (std::vector<int64_t>{1, 2, 3}), boost::test_tools::per_element());
    BOOST_TEST(ranked[1] == (std::vector<int64_t>{3, 0, 2}), boost::test_tools::per_element());
}

// k-means separates three far blobs exactly, whatever the seed, and is reproducible for a seed.
BOOST_AUTO_TEST_CASE(kmeans_recovers_separated_blobs)
{
    const Matrix centers = {{0.0, 0.0}, {10.0, 0.0}, {0.0, 10.0}};
    const LabeledPoints blobs = gaussian_blobs(90, centers, 0.5, 3);
    for (uint64_t seed : {1u, 2u, 3u}) {
        const std::vector<int64_t> labels = kmeans(blobs.X, 3, 5, seed);
        BOOST_TEST(clustering_accuracy(labels, blobs.labels) == 1.0);
        BOOST_TEST(labels == kmeans(blobs.X, 3, 5, seed), boost::test_tools::per_element());
    }
}

// A gzip-compressed Matrix Market file reads like the plain one.
BOOST_AUTO_TEST_CASE(gzip_files_read_like_plain_ones)
{
    const std::string plain = "facto_test_gzip.mtx";
    {
        std::ofstream out(plain);
        out << "%%MatrixMarket matrix coordinate integer general\n3 2 2\n1 1 4\n3 2 7\n";
    }
    BOOST_REQUIRE(std::system(("gzip -kf " + plain).c_str()) == 0);
    const CsrMatrix a = read_matrix_market(plain), b = read_matrix_market(plain + ".gz");
    BOOST_TEST(a.values == b.values, boost::test_tools::per_element());
    BOOST_TEST(a.indices == b.indices, boost::test_tools::per_element());
    BOOST_TEST(b.rows == 3);
    std::remove(plain.c_str());
    std::remove((plain + ".gz").c_str());
}

// Consensus of restarts: identical clusterings score 1 and 1; the cophenetic correlation equals the one
// computed from the definition of average linkage (cluster distance = the mean of the original distances
// between members, the closest pair merged each step, here without ties) on a random consensus matrix.
BOOST_AUTO_TEST_CASE(consensus_scores_of_restarts_follow_their_definitions)
{
    const std::vector<int64_t> labels = {0, 0, 1, 1, 2, 2, 2};
    const Matrix same = consensus_matrix({labels, labels, labels});
    const ConsensusScores stable = consensus_scores(same);
    BOOST_TEST(stable.cophenetic == 1.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(stable.dispersion == 1.0, boost::test_tools::tolerance(1e-12));
    // two runs that disagree on one point: C_ij in {0, 1/2, 1}; dispersion counts 4 (C - 1/2)^2
    const Matrix C2 = consensus_matrix({{0, 0, 1, 1}, {0, 0, 0, 1}});
    BOOST_TEST(C2(0, 2) == 0.5);
    BOOST_TEST(C2(2, 3) == 0.5);
    BOOST_TEST(consensus_scores(C2).dispersion == (16.0 - 6.0) / 16.0, boost::test_tools::tolerance(1e-12));
    const Matrix U = uniform_matrix(9, 9, 17, 0.0, 1.0);
    Matrix C = 0.5 * (U + xt::transpose(U));
    for (std::size_t i = 0; i < 9; ++i) C(i, i) = 1.0;
    // average linkage from its definition, O(n^4)
    std::vector<std::vector<std::size_t>> clusters;
    for (std::size_t i = 0; i < 9; ++i) clusters.push_back({i});
    Matrix height({9, 9}, 0.0);
    const auto mean_distance = [&](const std::vector<std::size_t>& A, const std::vector<std::size_t>& B) {
        double sum = 0.0;
        for (std::size_t a : A)
            for (std::size_t b : B) sum += 1.0 - C(a, b);
        return sum / static_cast<double>(A.size() * B.size());
    };
    while (clusters.size() > 1) {
        std::size_t p = 0, q = 1;
        for (std::size_t a = 0; a < clusters.size(); ++a)
            for (std::size_t b = a + 1; b < clusters.size(); ++b)
                if (mean_distance(clusters[a], clusters[b]) < mean_distance(clusters[p], clusters[q])) p = a, q = b;
        const double h = mean_distance(clusters[p], clusters[q]);
        for (std::size_t a : clusters[p])
            for (std::size_t b : clusters[q]) height(a, b) = height(b, a) = h;
        clusters[p].insert(clusters[p].end(), clusters[q].begin(), clusters[q].end());
        clusters.erase(clusters.begin() + static_cast<std::ptrdiff_t>(q));
    }
    std::vector<double> x, y;
    for (std::size_t i = 0; i < 9; ++i)
        for (std::size_t j = i + 1; j < 9; ++j) x.push_back(1.0 - C(i, j)), y.push_back(height(i, j));
    const double mx = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
    const double my = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(y.size());
    double cxy = 0.0, cxx = 0.0, cyy = 0.0;
    for (std::size_t e = 0; e < x.size(); ++e)
        cxy += (x[e] - mx) * (y[e] - my), cxx += (x[e] - mx) * (x[e] - mx), cyy += (y[e] - my) * (y[e] - my);
    BOOST_TEST(consensus_scores(C).cophenetic == cxy / std::sqrt(cxx * cyy), boost::test_tools::tolerance(1e-12));
    BOOST_CHECK_THROW(consensus_matrix({{0, 1}, {0, 1, 2}}), Error);
}

BOOST_AUTO_TEST_SUITE_END()
