#include "sets/column_simplices.hpp"

#include <algorithm>
#include <numeric>

#include "base/random.hpp"
#include "sets/row_simplices.hpp"

namespace facto {

int64_t SimplexColumns::nnz() const
{
    int64_t count = 0;
    for (const auto& column : columns) count += static_cast<int64_t>(column.size());
    return count;
}

namespace {
// The place of `row` in a column (rows increasing): its entry, or where it would go.
template <class Column>
auto find_row(Column& column, int64_t row)
{
    return std::lower_bound(column.begin(), column.end(), row,
                            [](const SimplexColumns::Entry& e, int64_t r) { return e.row < r; });
}

// column(row) += amount, a new entry going to its place
void add_at(std::vector<SimplexColumns::Entry>& column, int64_t row, double amount)
{
    const auto at = find_row(column, row);
    if (at != column.end() && at->row == row) {
        at->value += amount;
        return;
    }
    // grow by an eighth, not by doubling: columns only ever gain one entry per iteration, and a
    // doubled capacity would leave up to half of C's memory unused
    const auto position = at - column.begin();
    if (column.size() == column.capacity()) column.reserve(column.size() + std::max<std::size_t>(4, column.size() / 8));
    column.insert(column.begin() + position, SimplexColumns::Entry{row, amount});
}
}  // namespace

double SimplexColumns::value(std::size_t l, int64_t row) const
{
    const auto at = find_row(columns[l], row);
    return at != columns[l].end() && at->row == row ? at->value : 0.0;
}

bool SimplexColumns::contains(std::size_t l, int64_t row) const
{
    const auto at = find_row(columns[l], row);
    return at != columns[l].end() && at->row == row;
}

void SimplexColumns::frank_wolfe_update(std::size_t l, int64_t row, double alpha)
{
    auto& column = columns[l];
    if (alpha >= 1.0) {
        column.assign(1, Entry{row, 1.0});
        return;
    }
    for (Entry& e : column) e.value *= 1.0 - alpha;
    add_at(column, row, alpha);
}

void SimplexColumns::away_or_pairwise_update(std::size_t l, const BlockDirection& direction, double step, bool dropped)
{
    auto& column = columns[l];
    if (direction.kind == BlockDirection::away)
        for (Entry& e : column) e.value *= 1.0 + step;
    const auto a = find_row(column, direction.a);
    a->value = std::max(a->value - step, 0.0);
    if (dropped || a->value == 0.0) column.erase(a);
    if (direction.kind == BlockDirection::pairwise) add_at(column, direction.s, step);
}

void SimplexColumns::blend(std::size_t l, const std::vector<Entry>& target, double tau)
{
    auto& column = columns[l];
    if (tau >= 1.0) {
        column.assign(target.begin(), target.end());
        return;
    }
    thread_local std::vector<Entry> merged;
    merged.clear();
    auto a = column.cbegin();
    auto b = target.cbegin();
    while (a != column.cend() || b != target.cend()) {
        if (b == target.cend() || (a != column.cend() && a->row < b->row)) {
            merged.push_back({a->row, (1.0 - tau) * a->value});
            ++a;
        } else if (a == column.cend() || b->row < a->row) {
            merged.push_back({b->row, tau * b->value});
            ++b;
        } else {
            merged.push_back({a->row, (1.0 - tau) * a->value + tau * b->value});
            ++a, ++b;
        }
    }
    column.assign(merged.begin(), merged.end());
}

SimplexColumns SimplexColumns::from_dense(const Matrix& C)
{
    SimplexColumns S;
    S.columns.resize(C.shape()[1]);
    for (std::size_t i = 0; i < C.shape()[0]; ++i)
        for (std::size_t l = 0; l < C.shape()[1]; ++l)
            if (C(i, l) != 0.0) S.columns[l].push_back(Entry{static_cast<int64_t>(i), C(i, l)});
    return S;
}

SimplexColumns SimplexColumns::from_selected(const std::vector<int64_t>& selected, const Matrix& Ht)
{
    std::vector<std::size_t> order(selected.size());  // the selected rows in increasing order
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return selected[a] < selected[b]; });
    SimplexColumns S;
    S.columns.resize(Ht.shape()[0]);
    for (std::size_t l = 0; l < S.columns.size(); ++l) {
        const double* h = &Ht(l, 0);
        const auto positive = std::count_if(h, h + selected.size(), [](double v) { return v > 0.0; });
        S.columns[l].reserve(static_cast<std::size_t>(positive));
        for (std::size_t k : order)
            if (h[k] > 0.0) S.columns[l].push_back(Entry{selected[k], h[k]});
    }
    return S;
}

Matrix SimplexColumns::to_dense(std::size_t rows) const
{
    Matrix C = xt::zeros<double>({rows, columns.size()});
    for (std::size_t l = 0; l < columns.size(); ++l)
        for (const Entry& e : columns[l]) C(static_cast<std::size_t>(e.row), l) = e.value;
    return C;
}

Matrix ColumnSimplices::feasible_point(const Matrix& C, double tolerance) const
{
    return xt::transpose(RowSimplices(columns_, n_).feasible_point(xt::transpose(C), tolerance));
}

Matrix ColumnSimplices::random_point(uint64_t seed) const
{
    const std::size_t n = static_cast<std::size_t>(n_), first = static_cast<std::size_t>(first_),
                      columns = static_cast<std::size_t>(columns_);
    Matrix C = xt::zeros<double>({n, columns});
    Rng rng(seed);
    for (std::size_t l = 0; l < first + columns; ++l) {
        const auto row = static_cast<std::size_t>(rng.uniform() * static_cast<double>(n));
        if (l >= first) C(row, l - first) = 1.0;
    }
    return C;
}

}  // namespace facto
