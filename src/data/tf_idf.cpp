#include <cmath>
#include <string>

#include "base/error.hpp"
#include "data/data.hpp"

namespace facto {

TfIdf tf_idf(const CsrMatrix& counts, int64_t min_df)
{
    require(min_df >= 1, FACTO_ERROR_OUT_OF_RANGE, "min_df must be at least 1, got " + std::to_string(min_df));
    const auto D = static_cast<std::size_t>(counts.rows), V = static_cast<std::size_t>(counts.cols);
    std::vector<int64_t> df(V, 0);
    for (std::size_t i = 0; i < D; ++i)
        for (int64_t p = counts.indptr[i]; p < counts.indptr[i + 1]; ++p) {
            // a count in (0, 1) is refused by tf_idf_weights below
            if (counts.values[static_cast<std::size_t>(p)] > 0.0) ++df[static_cast<std::size_t>(counts.indices[static_cast<std::size_t>(p)])];
        }
    TfIdf result;
    for (std::size_t t = 0; t < V; ++t)
        if (df[t] >= min_df && df[t] < static_cast<int64_t>(D)) {
            result.terms.push_back(static_cast<int64_t>(t));
            result.df.push_back(df[t]);
        }
    for (int64_t f : result.df) result.idf.push_back(std::log(static_cast<double>(D) / static_cast<double>(f)));
    result.F = tf_idf_weights(counts, kept_columns(result, counts.cols), result.idf, TermWeighting::Sublinear);
    return result;
}

std::vector<int64_t> kept_columns(const TfIdf& tfidf, int64_t vocabulary)
{
    std::vector<int64_t> column(static_cast<std::size_t>(vocabulary), -1);
    for (std::size_t j = 0; j < tfidf.terms.size(); ++j) column[static_cast<std::size_t>(tfidf.terms[j])] = static_cast<int64_t>(j);
    return column;
}

CsrMatrix tf_idf_weights(const CsrMatrix& counts, const std::vector<int64_t>& column, const std::vector<double>& idf,
                         TermWeighting weighting)
{
    require(column.size() == static_cast<std::size_t>(counts.cols), FACTO_ERROR_DIMENSION,
            "the counts have " + std::to_string(counts.cols) + " terms, the vocabulary " + std::to_string(column.size()));
    const auto D = static_cast<std::size_t>(counts.rows);
    CsrMatrix F;
    F.rows = counts.rows, F.cols = static_cast<int64_t>(idf.size());
    F.indptr.assign(D + 1, 0);
    for (std::size_t i = 0; i < D; ++i) {
        for (int64_t p = counts.indptr[i]; p < counts.indptr[i + 1]; ++p) {
            const double c = counts.values[static_cast<std::size_t>(p)];
            require(c == 0.0 || c >= 1.0, FACTO_ERROR_OUT_OF_RANGE,
                    "count (" + std::to_string(i) + ", " + std::to_string(counts.indices[static_cast<std::size_t>(p)]) +
                        ") = " + value_text(c) + ": counts must be 0 or at least 1");
            const int64_t j = column[static_cast<std::size_t>(counts.indices[static_cast<std::size_t>(p)])];
            if (c <= 0.0 || j < 0) continue;
            F.indices.push_back(j);
            const double tf = weighting == TermWeighting::Sublinear ? 1.0 + std::log(c) : c;
            F.values.push_back(tf * idf[static_cast<std::size_t>(j)]);
        }
        F.indptr[i + 1] = static_cast<int64_t>(F.values.size());
        if (weighting == TermWeighting::UnitRows) {
            const auto row = F.values.begin() + F.indptr[i];
            double norm = 0.0;
            for (auto v = row; v != F.values.end(); ++v) norm += *v * *v;
            norm = std::sqrt(norm);
            for (auto v = row; v != F.values.end(); ++v) *v /= norm;  // an empty row has no entry to divide
        }
    }
    return F;
}

}  // namespace facto
