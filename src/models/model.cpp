// The model container and the table of kinds: which arrays each kind has and which family applies it.
#include "models/model.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/error.hpp"
#include "linalg/blas.hpp"

namespace facto {

namespace {
using models::KindRule;

const std::vector<const KindRule*>& rules()
{
    using namespace models;
    static const std::vector<const KindRule*> table = {&simplicial_symnmf_model(), &symnmf_model(), &edm_completion_model(),
                                                       &self_dictionary_model(), &topics_model(), &communities_model(),
                                                       &nomad_model()};
    return table;
}

const KindRule* find_rule(const std::string& kind)
{
    const auto r = std::find_if(rules().begin(), rules().end(), [&](const KindRule* rule) { return kind == rule->kind; });
    return r == rules().end() ? nullptr : *r;
}

// What every contract needs of an array: not empty (DIMENSION), finite within 1e100 (NOT_FINITE, OUT_OF_RANGE).
void require_usable(const std::string& kind, const std::string& name, const Matrix& values)
{
    const std::string what = "the " + kind + " model's '" + name + "'";
    require(values.shape()[0] >= 1 && values.shape()[1] >= 1, FACTO_ERROR_DIMENSION,
            what + " is " + std::to_string(values.shape()[0]) + " x " + std::to_string(values.shape()[1]) +
                ": a model's arrays are not empty");
    require_finite(values, what.c_str());
}

// The model's rule, after checking the model keeps its kind's contract.
const KindRule& checked(const Model& model)
{
    const KindRule& rule = models::kind_rule(model.kind);
    for (const auto& [name, values] : model.arrays) require_usable(model.kind, name, values);
    rule.check(model);
    return rule;
}
}  // namespace

const Matrix& Model::array(const std::string& name) const
{
    const auto it = arrays.find(name);
    require(it != arrays.end(), FACTO_ERROR_BAD_STATE, "the " + kind + " model has no array '" + name + "'");
    return it->second;
}

std::vector<std::string> array_names(const std::string& kind)
{
    const KindRule* r = find_rule(kind);
    if (!r) return {};
    std::vector<std::string> names;
    for (const models::ArrayInfo& a : r->arrays) names.emplace_back(a.name);
    if (r->feature_rules)
        for (const auto* rule : {&models::gaussian_rule_arrays(), &models::knn_rule_arrays()})
            for (const models::ArrayInfo& a : *rule) names.emplace_back(a.name);
    return names;
}

void require_array_name(const std::string& kind, const std::string& name)
{
    const std::vector<std::string> names = array_names(kind);
    if (std::find(names.begin(), names.end(), name) != names.end()) return;
    std::string known;
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
    throw Error(FACTO_ERROR_UNKNOWN_PARAMETER, "a " + kind + " model has no array '" + name + "' (its arrays: " + known + ")");
}

Model empty_model(const std::string& kind)
{
    models::kind_rule(kind);
    return Model{kind, {}, "{}"};
}

void set_array(Model& model, const std::string& name, Matrix values)
{
    require_array_name(model.kind, name);
    require_usable(model.kind, name, values);
    model.arrays[name] = std::move(values);
}

void check_model(const Model& model) { checked(model); }

Model capture_model(const Solver& solver)
{
    const Problem& problem = solver.problem();
    require(problem.row_blocks() == nullptr, FACTO_ERROR_UNSUPPORTED,
            "a distributed problem's model: each process holds only its rows of the factor");
    require(solver.started(), FACTO_ERROR_BAD_STATE, "the solver has no iterate yet: step or solve it first");
    Model model = empty_model(problem.kind());
    models::kind_rule(model.kind).capture(solver, model);
    check_model(model);
    return model;
}

namespace {
// The description of array `name` among the rule's arrays and the feature rules'.
const models::ArrayInfo* info_of(const KindRule& rule, const std::string& name)
{
    for (const auto* arrays : {&rule.arrays, &models::gaussian_rule_arrays(), &models::knn_rule_arrays()})
        for (const models::ArrayInfo& a : *arrays)
            if (name == a.name) return &a;
    return nullptr;
}
}  // namespace

std::string describe_model(const Model& model)
{
    const KindRule& rule = models::kind_rule(model.kind);
    bool training = false;
    std::string arrays;
    for (const auto& [name, values] : model.arrays) {
        const models::ArrayInfo* info = info_of(rule, name);
        const bool features = info && info->training_features;
        training = training || features;
        arrays += std::string(arrays.empty() ? "" : ", ") + "{\"name\": " + models::quoted(name) +
                  ", \"rows\": " + std::to_string(values.shape()[0]) + ", \"cols\": " + std::to_string(values.shape()[1]) +
                  ", \"holds\": " + models::quoted(info ? info->holds : "") +
                  ", \"training_features\": " + (features ? "true" : "false") + "}";
    }
    std::string columns = "null";
    try {
        columns = std::to_string(applied_columns(model));
    } catch (const Error&) {  // a model still being filled, or broken: no columns to give
    }
    const std::string takes = training ? "new points' features (q x p), made into affinities as the fit's were" : rule.takes;
    return "{\"kind\": " + models::quoted(model.kind) + ", \"takes\": " + models::quoted(takes) + ", \"columns\": " + columns +
           ", \"training_features\": " + (training ? "true" : "false") + ", \"arrays\": [" + arrays + "]}";
}

int64_t applied_columns(const Model& model)
{
    const KindRule& rule = checked(model);
    return static_cast<int64_t>(model.array(rule.width_array).shape()[rule.width_axis]);
}

namespace {
// What apply gave, finite: a model's arrays up to 1e100 and new data as large can overflow a rule's squares
// (EDM's residuals are fourth powers of positions), and an overflow is an error, not an answer.
Applied finite_result(Applied applied)
{
    const std::size_t columns = applied.rows.shape()[1];
    for (std::size_t l = 0; l < applied.residuals.size(); ++l) {
        const double* row = applied.rows.data() + l * columns;
        const bool row_finite = std::all_of(row, row + columns, [](double v) { return std::isfinite(v); });
        if (!row_finite || !std::isfinite(applied.residuals[l]))
            throw Error(FACTO_ERROR_NUMERICAL, "applying the model to new point " + std::to_string(l) + " overflows (its " +
                                                   (row_finite ? "residual" : "row") + " is not finite): rescale the data");
    }
    return applied;
}
}  // namespace

Applied apply_model(const Model& model, const Matrix& Y, std::size_t threads)
{
    const KindRule& rule = checked(model);
    require_finite(Y, "the new data");
    return finite_result(rule.apply(model, models::NewData(Y), threads));
}

Applied apply_model(const Model& model, const CsrMatrix& Y, std::size_t threads)
{
    const KindRule& rule = checked(model);
    return finite_result(rule.apply(model, models::NewData(Y), threads));
}

namespace models {

std::string quoted(const std::string& text)
{
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    return out + "\"";
}

const KindRule& kind_rule(const std::string& kind)
{
    if (const KindRule* r = find_rule(kind)) return *r;
    std::string known;
    for (const KindRule* r : rules()) known += std::string(known.empty() ? "" : ", ") + r->kind;
    throw Error(FACTO_ERROR_INVALID_ARGUMENT, "no model for problem kind '" + kind + "' (models exist for: " + known + ")");
}

std::vector<std::string> feature_rule_kinds()
{
    std::vector<std::string> kinds;
    for (const KindRule* r : rules())
        if (r->feature_rules) kinds.emplace_back(r->kind);
    return kinds;
}

int64_t NewData::rows() const { return sparse_ ? sparse_->rows : static_cast<int64_t>(dense_->shape()[0]); }
int64_t NewData::cols() const { return sparse_ ? sparse_->cols : static_cast<int64_t>(dense_->shape()[1]); }

const Matrix& NewData::dense() const
{
    if (dense_) return *dense_;
    if (made_dense_.size() == 0) made_dense_ = dense_from_csr(*sparse_);
    return made_dense_;
}

const CsrMatrix& NewData::sparse() const
{
    if (sparse_) return *sparse_;
    if (made_sparse_.indptr.empty()) {
        const std::size_t q = dense_->shape()[0], n = dense_->shape()[1];
        made_sparse_.rows = static_cast<int64_t>(q), made_sparse_.cols = static_cast<int64_t>(n);
        made_sparse_.indptr.resize(q + 1);
        made_sparse_.indices.reserve(q * n), made_sparse_.values.reserve(q * n);
        for (std::size_t i = 0; i < q; ++i) {
            made_sparse_.indptr[i] = static_cast<int64_t>(i * n);
            for (std::size_t j = 0; j < n; ++j)
                made_sparse_.indices.push_back(static_cast<int64_t>(j)), made_sparse_.values.push_back((*dense_)(i, j));
        }
        made_sparse_.indptr[q] = static_cast<int64_t>(q * n);
    }
    return made_sparse_;
}

const Matrix& require_array(const Model& model, const std::string& name, int64_t rows, int64_t cols)
{
    const Matrix& A = model.array(name);
    const auto r = static_cast<int64_t>(A.shape()[0]), c = static_cast<int64_t>(A.shape()[1]);
    require((rows < 0 || r == rows) && (cols < 0 || c == cols), FACTO_ERROR_BAD_STATE,
            "the " + model.kind + " model's '" + name + "' is " + std::to_string(r) + " x " + std::to_string(c) +
                " where its other arrays need " + (rows < 0 ? std::string("any") : std::to_string(rows)) + " x " +
                (cols < 0 ? std::string("any") : std::to_string(cols)));
    return A;
}

void require_nonnegative(const Model& model, const std::string& name)
{
    const Matrix& A = model.array(name);
    const auto negative = std::find_if(A.begin(), A.end(), [](double v) { return v < 0.0; });
    if (negative == A.end()) return;
    const auto at = static_cast<std::size_t>(negative - A.begin());
    throw Error(FACTO_ERROR_BAD_STATE, "the " + model.kind + " model's '" + name + "' has entry (" +
                                           std::to_string(at / A.shape()[1]) + ", " + std::to_string(at % A.shape()[1]) +
                                           ") = " + value_text(*negative) + ": its entries must be >= 0");
}

void require_integer(const Model& model, const std::string& name, std::size_t column, const std::string& what,
                     int64_t low, int64_t high)
{
    const double v = model.array(name)(0, column);
    require(v == std::floor(v) && v >= static_cast<double>(low) && v <= static_cast<double>(high), FACTO_ERROR_BAD_STATE,
            "the " + model.kind + " model's '" + name + "' holds " + what + " = " + value_text(v) +
                ": it must be an integer in [" + std::to_string(low) + ", " + std::to_string(high) + "]");
}

void require_columns(const NewData& Y, int64_t cols, const std::string& what)
{
    require(Y.cols() == cols, FACTO_ERROR_DIMENSION,
            "the new data have " + std::to_string(Y.cols()) + " columns; this " + what + " (" + std::to_string(cols) + ")");
}

std::vector<double> residuals(const NewData& A, const Matrix& B, const Matrix& C, std::size_t threads)
{
    const std::size_t q = C.shape()[0], c = C.shape()[1];
    Matrix AB = Matrix::from_shape({q, c}), G = Matrix::from_shape({c, c});
    std::vector<double> norms(q, 0.0);
    if (A.is_sparse()) {
        const CsrMatrix& S = A.sparse();
        spmm(S, B, AB, threads);
        for (std::size_t l = 0; l < q; ++l)
            for (int64_t p = S.indptr[l]; p < S.indptr[l + 1]; ++p)
                norms[l] += S.values[static_cast<std::size_t>(p)] * S.values[static_cast<std::size_t>(p)];
    } else {
        const Matrix& D = A.dense();
        blas::gemm(false, false, 1.0, D, B, 0.0, AB);
        for (std::size_t l = 0; l < q; ++l) norms[l] = blas::dot(&D(l, 0), &D(l, 0), D.shape()[1]);
    }
    blas::gemm(true, false, 1.0, B, B, 0.0, G);
    std::vector<double> out(q), Gc(c);
    for (std::size_t l = 0; l < q; ++l) {
        for (std::size_t a = 0; a < c; ++a) Gc[a] = blas::dot(&G(a, 0), &C(l, 0), c);
        out[l] = std::max(0.0, norms[l] - 2.0 * blas::dot(&C(l, 0), &AB(l, 0), c) + blas::dot(&C(l, 0), Gc.data(), c));
    }
    return out;
}

Matrix matrix_of(const Output& output)
{
    Matrix M = Matrix::from_shape({static_cast<std::size_t>(output.spec.rows), static_cast<std::size_t>(output.spec.cols)});
    if (output.spec.type == FACTO_OUTPUT_INT64)
        std::transform(output.ints.begin(), output.ints.end(), M.begin(), [](int64_t v) { return static_cast<double>(v); });
    else
        std::copy(output.doubles.begin(), output.doubles.end(), M.begin());
    return M;
}

std::vector<int64_t> integers(const Matrix& column, const std::string& what)
{
    std::vector<int64_t> out(column.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const double v = column.data()[i];
        if (!(v == std::floor(v) && std::abs(v) < static_cast<double>(kHeldIntegers)))
            throw Error(FACTO_ERROR_BAD_STATE,
                        what + " entry " + std::to_string(i) + " is " + value_text(v) + ", not an integer below 9e15");
        out[i] = static_cast<int64_t>(v);
    }
    return out;
}

Matrix column_of(const std::vector<int64_t>& values)
{
    Matrix out = Matrix::from_shape({values.size(), 1});
    for (std::size_t i = 0; i < values.size(); ++i) out(i, 0) = static_cast<double>(values[i]);
    return out;
}

}  // namespace models

}  // namespace facto
