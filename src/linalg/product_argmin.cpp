// Column minima of shift 1^T + A B^T by a GEMM-style kernel (A packed by panels, an 8 x 6 register
// tile of twelve four-double accumulators) that compares the tile with the columns' running minima
// instead of writing the product. The accumulators start at the rows' shift, padding rows at +inf, so
// the tile needs no fix-up before it is compared; B's rows are read where they are (the kernel
// broadcasts single values of B, which need no packing). Measured here against OpenBLAS's dgemm of
// the same shape (M = 50, N = 1000): 1.97 ms against 2.0 ms on one thread, 1.05 ms on two.
#include "linalg/product_argmin.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "linalg/parallel.hpp"
#include "linalg/target_clones.hpp"

namespace facto {

namespace {

constexpr std::size_t kRows = 8, kColumns = 6;  // the register tile
constexpr std::size_t kPanelValues = 1u << 14;   // A's packed panel at most: 128 KiB, in L2 while B's rows pass

using Quad = double __attribute__((vector_size(32)));

// Packs A's rows [first, first + height) as Ap[t][k kRows + q] for tiles t of kRows rows, and their
// shift as shift_p[t kRows + q]; padding rows are zero with shift +inf, so their entries are +inf.
void pack_rows(const double* A, const double* shift, std::size_t first, std::size_t height, std::size_t m,
               double* Ap, double* shift_p)
{
    const std::size_t tiles = (height + kRows - 1) / kRows;
    for (std::size_t t = 0; t < tiles; ++t) {
        double* p = Ap + t * m * kRows;
        for (std::size_t q = 0; q < kRows; ++q) {
            const std::size_t i = t * kRows + q;
            const double* a = A + (first + i) * m;
            for (std::size_t k = 0; k < m; ++k) p[k * kRows + q] = i < height ? a[k] : 0.0;
            shift_p[i] = i < height ? shift[first + i] : HUGE_VAL;
        }
    }
}

using Mask = decltype(Quad{} < Quad{});

// The lanes of a tile column (the quads c0, c1) that are below best, folded to four rows.
__attribute__((always_inline)) inline void lower_than(const Quad& c0, const Quad& c1, double best, Mask& lower)
{
    const Quad smaller = c0 < c1 ? c0 : c1, limit = {best, best, best, best};
    lower = smaller < limit;
}

__attribute__((always_inline)) inline bool any_lane(const Mask& mask)
{
    return (mask[0] | mask[1] | mask[2] | mask[3]) != 0;
}

// The tile of g for kRows packed rows (Ap, their shift s) and the kColumns rows of B at b[j], depth m,
// stored in tile[j kRows + q]; returns the columns j (bit j) with an entry below best[j]. The twelve
// accumulators are named, not an array, so that they stay in registers at -O2 as well (an array of
// them went through the stack there: 30x slower). Storing the tile every time costs what spilling the
// accumulators did (there are not enough registers to compare them in place), and one test on all
// six columns' comparisons leaves the tile in most cases (a new minimum is rare once the first rows
// are scanned).
__attribute__((always_inline)) inline unsigned product_tile(const double* __restrict Ap, const double* s,
                                                            const double* const* b, std::size_t m,
                                                            const double* best, double* __restrict tile)
{
    Quad c00, c01;
    std::memcpy(&c00, s, sizeof c00);
    std::memcpy(&c01, s + 4, sizeof c01);
    Quad c10 = c00, c11 = c01, c20 = c00, c21 = c01, c30 = c00, c31 = c01, c40 = c00, c41 = c01, c50 = c00,
         c51 = c01;
    const double *b0 = b[0], *b1 = b[1], *b2 = b[2], *b3 = b[3], *b4 = b[4], *b5 = b[5];
    for (std::size_t k = 0; k < m; ++k) {
        Quad a0, a1;
        std::memcpy(&a0, Ap + k * kRows, sizeof a0);
        std::memcpy(&a1, Ap + k * kRows + 4, sizeof a1);
        c00 += a0 * b0[k], c01 += a1 * b0[k];
        c10 += a0 * b1[k], c11 += a1 * b1[k];
        c20 += a0 * b2[k], c21 += a1 * b2[k];
        c30 += a0 * b3[k], c31 += a1 * b3[k];
        c40 += a0 * b4[k], c41 += a1 * b4[k];
        c50 += a0 * b5[k], c51 += a1 * b5[k];
    }
    std::memcpy(tile, &c00, sizeof c00);
    std::memcpy(tile + 4, &c01, sizeof c01);
    std::memcpy(tile + 8, &c10, sizeof c10);
    std::memcpy(tile + 12, &c11, sizeof c11);
    std::memcpy(tile + 16, &c20, sizeof c20);
    std::memcpy(tile + 20, &c21, sizeof c21);
    std::memcpy(tile + 24, &c30, sizeof c30);
    std::memcpy(tile + 28, &c31, sizeof c31);
    std::memcpy(tile + 32, &c40, sizeof c40);
    std::memcpy(tile + 36, &c41, sizeof c41);
    std::memcpy(tile + 40, &c50, sizeof c50);
    std::memcpy(tile + 44, &c51, sizeof c51);
    Mask lower[kColumns];
    lower_than(c00, c01, best[0], lower[0]);
    lower_than(c10, c11, best[1], lower[1]);
    lower_than(c20, c21, best[2], lower[2]);
    lower_than(c30, c31, best[3], lower[3]);
    lower_than(c40, c41, best[4], lower[4]);
    lower_than(c50, c51, best[5], lower[5]);
    if (!any_lane(lower[0] | lower[1] | lower[2] | lower[3] | lower[4] | lower[5])) return 0;
    unsigned below = 0;
    for (unsigned j = 0; j < kColumns; ++j) below |= static_cast<unsigned>(any_lane(lower[j])) << j;
    return below;
}

// One panel of A's rows [first, first + height) (packed: Ap, shift_p) against B's b rows, updating the
// columns' minima (best, where; best holds -inf past column b) in row order and reporting the listed
// rows' values. next[l] is the
// position in listed.rows of column l's first listed row not yet passed; rows only increase, so it
// only moves forward, and a tile is checked against the group's next listed row only.
FACTO_TARGET_CLONES
void scan_panel(const double* Ap, const double* shift_p, std::size_t first, std::size_t height, const double* B,
                std::size_t b, std::size_t m, ListedRows listed, double* best, std::size_t* where, std::size_t* next)
{
    constexpr std::size_t kNone = ~std::size_t{0};
    const std::size_t tiles = (height + kRows - 1) / kRows;
    for (std::size_t l0 = 0; l0 < b; l0 += kColumns) {
        const double* rows[kColumns];  // a short last group repeats its first column, and ignores it
        std::size_t upcoming[kColumns];  // each column's next listed row
        for (std::size_t j = 0; j < kColumns; ++j) {
            const std::size_t l = l0 + j < b ? l0 + j : l0;
            rows[j] = B + l * m;
            upcoming[j] = l0 + j < b && next[l] < listed.start[l + 1] ? static_cast<std::size_t>(listed.rows[next[l]])
                                                                      : kNone;
        }
        std::size_t soonest = *std::min_element(upcoming, upcoming + kColumns);
        for (std::size_t t = 0; t < tiles; ++t) {
            const std::size_t row0 = first + t * kRows;
            unsigned keep = 0;
            if (soonest < row0 + kRows)
                for (std::size_t j = 0; j < kColumns; ++j)
                    keep |= static_cast<unsigned>(upcoming[j] < row0 + kRows) << j;
            double tile[kRows * kColumns];
            const unsigned below = product_tile(Ap + t * m * kRows, shift_p + t * kRows, rows, m, best + l0, tile);
            if ((below | keep) == 0) continue;
            for (unsigned bits = keep; bits != 0; bits &= bits - 1) {  // the listed rows: values out, then +inf
                const auto j = static_cast<std::size_t>(__builtin_ctz(bits));
                const std::size_t l = l0 + j, end = listed.start[l + 1];
                std::size_t e = next[l];
                for (; e < end && static_cast<std::size_t>(listed.rows[e]) < row0 + kRows; ++e) {
                    const std::size_t q = j * kRows + static_cast<std::size_t>(listed.rows[e]) - row0;
                    listed.values[e] = tile[q];
                    tile[q] = HUGE_VAL;
                }
                next[l] = e;
                upcoming[j] = e < end ? static_cast<std::size_t>(listed.rows[e]) : kNone;
            }
            if (keep != 0) soonest = *std::min_element(upcoming, upcoming + kColumns);
            for (unsigned bits = below; bits != 0; bits &= bits - 1) {
                const auto j = static_cast<std::size_t>(__builtin_ctz(bits));
                const std::size_t l = l0 + j;
                for (std::size_t q = 0; q < kRows; ++q)
                    if (tile[j * kRows + q] < best[l]) best[l] = tile[j * kRows + q], where[l] = row0 + q;
            }
        }
    }
}

}  // namespace

void product_column_argmin(const double* A, std::size_t n, const double* shift, const double* B, std::size_t b,
                           std::size_t m, ListedRows listed, std::size_t* row, double* value, std::size_t threads)
{
    // Each thread takes its own rows against all columns, so A is packed once; panels are small
    // enough that every thread gets one.
    const std::size_t width = (b + kColumns - 1) / kColumns * kColumns;
    const std::size_t per_thread = (n + threads - 1) / threads;
    const std::size_t most_rows = std::max(kRows, kPanelValues / std::max<std::size_t>(m, 1) / kRows * kRows);
    const std::size_t per_part = (per_thread + most_rows - 1) / most_rows;  // panels per thread
    const std::size_t panel_rows = ((per_thread + per_part - 1) / per_part + kRows - 1) / kRows * kRows;
    const std::size_t panels = (n + panel_rows - 1) / panel_rows, parts = std::min(threads, panels);
    // the caller's buffers, kept between calls (MERIT makes N / block calls per iteration)
    thread_local std::vector<double> partial_best;
    thread_local std::vector<std::size_t> partial_where, partial_next;
    partial_best.assign(parts * width, HUGE_VAL);
    for (std::size_t p = 0; p < parts; ++p)  // the short last group's missing columns never ask to be kept
        std::fill(partial_best.begin() + static_cast<std::ptrdiff_t>(p * width + b),
                  partial_best.begin() + static_cast<std::ptrdiff_t>((p + 1) * width), -HUGE_VAL);
    partial_where.assign(parts * width, n);
    partial_next.resize(parts * width);
    double* best = partial_best.data();
    std::size_t *where = partial_where.data(), *next = partial_next.data();
    parallel_for(parts, 1, threads, [&](std::size_t p0, std::size_t p1) {
        thread_local std::vector<double> Ap, shift_p;  // each thread's packed panel
        Ap.resize(panel_rows * m);
        shift_p.resize(panel_rows);
        for (std::size_t p = p0; p < p1; ++p) {
            const std::size_t begin = p * panels / parts, end = (p + 1) * panels / parts;
            for (std::size_t l = 0; l < b; ++l)  // the first listed row at or after the part's first
                next[p * width + l] = static_cast<std::size_t>(
                    std::lower_bound(listed.rows + listed.start[l], listed.rows + listed.start[l + 1],
                                     static_cast<int64_t>(begin * panel_rows)) - listed.rows);
            for (std::size_t panel = begin; panel < end; ++panel) {
                const std::size_t first = panel * panel_rows, height = std::min(panel_rows, n - first);
                pack_rows(A, shift, first, height, m, Ap.data(), shift_p.data());
                scan_panel(Ap.data(), shift_p.data(), first, height, B, b, m, listed, best + p * width,
                           where + p * width, next + p * width);
            }
        }
    });
    // the parts in row order; a later part wins only with a smaller value, so the first row is kept on
    // ties and the result does not depend on how the rows were split
    for (std::size_t l = 0; l < b; ++l) {
        row[l] = n;
        value[l] = HUGE_VAL;
        for (std::size_t p = 0; p < parts; ++p)
            if (best[p * width + l] < value[l]) value[l] = best[p * width + l], row[l] = where[p * width + l];
    }
}

}  // namespace facto
