// A fitted model: what applying a solved problem to new data needs, as named arrays, and the rule of each
// job that gives new points their rows, labels or positions (docs/architecture.md, "Applying a fitted
// model to new points"). A model holds numbers only (no problem, no solver), so it outlives both, is
// saved as its arrays and rebuilt from them.
//
// The arrays of each kind (row-major doubles; integers such as labels are held exactly):
//   simplicial_symnmf  W (n x k)              new rows: affinities to the n fitted points (q x n)
//   symnmf             H (n x r)              new rows: similarities to the n fitted points (q x n)
//   edm_completion     X (n x r)              new rows: squared distances to the n points (q x n, sparse: observed ones)
//   self_dictionary    W (M x K, the anchors)  new data: columns (M x q)
//   topics             topics (K x V), idf (1 x V, 0 on pruned terms)   new documents: counts (q x V)
//   communities        extension (N x K), pure (K x K)   new nodes: edges to the N fitted nodes (q x N)
//   nomad              labels (n x 1), embedding (n x e), and within (c x 1) with center_labels (c x 1):
//                      new rows of D (q x n); or centers (c x d) with center_labels: new points (q x d)
// and the feature rules of the two SymNMF kinds, which make apply take features instead of affinities:
//   rbf_features (n x p, scaled), rbf_scaling (2 x p), rbf_settings (1 x 2: bandwidth, scaling)
//   knn_features (n x p, scaled), knn_settings (1 x 3: k, similarity, scale neighbour; since 0.4.0 1 x 4 with
//   the scaling's code, or 1 x 5 with the neighbour search's too: exact when absent), knn_scale, knn_degree
//   (n x 1), and with a scaling other than none knn_scaling (2 x p); for sparse features (since 0.4.0),
//   knn_csr_indptr ((n + 1) x 1), knn_csr_indices and knn_csr_data (nnz x 1), knn_csr_shape (1 x 2: n, p)
//   in place of knn_features, never scaled, searched exactly
//
// Each kind's contract (check_model) is what its capture guarantees and its apply relies on: the shapes
// above, every array non-empty and finite (at most 1e100 in magnitude, as all input), and the values the
// fit can give: W's rows on the simplex, H, topics, idf, knn_scale and knn_degree >= 0, the SymNMF ranks
// at most n, at least K kept terms (idf > 0), pure's rows independent, NOMAD's labels integers in
// [0, n - 1] whose distinct values are center_labels, exactly one of within and centers, one feature rule
// whole or none, its k and scale neighbour integers in [1, n - 1] and its codes among the enums'. A model
// is checked when it is captured, loaded, saved and applied, so none that breaks it reaches an apply,
// however it was built.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "linalg/gram_operator.hpp"
#include "linalg/matrix.hpp"
#include "linalg/sparse.hpp"
#include "solvers/solver.hpp"

namespace facto {

struct Model {
    std::string kind;
    std::map<std::string, Matrix> arrays;
    std::string settings = "{}";  // the caller's JSON object saved with the model (save_model)

    // The named array; Error(BAD_STATE) naming what is missing.
    const Matrix& array(const std::string& name) const;
    bool has(const std::string& name) const { return arrays.count(name) > 0; }
};

// What applying gives: one row per new point (q x applied_columns), a label per point (-1 where the job
// has none: EDM positions, a document with no known term, a node with no edge to a fitted node) and its
// residual, the squared error of the model's reconstruction of the point's input: ||a - B^T c||^2 for the
// factorizations (a the point's affinity row, data column, TF-IDF row or Nystrom eigenvector row, c its
// row: topic weights before their scaling to sum 1, memberships after it), the squared distance to its cluster's mean for NOMAD (on
// rows of D, up to the point's own D(x, x), the same for every cluster), sum_j (||y - x_j||^2 - d_j)^2
// for EDM positions.
struct Applied {
    Matrix rows;
    std::vector<int64_t> labels;
    std::vector<double> residuals;
};

// An empty model of a problem kind; Error(INVALID_ARGUMENT) for an unknown kind.
Model empty_model(const std::string& kind);
// The names of a kind's arrays (the table above, the feature rules' included; none for an unknown kind), and
// Error(UNKNOWN_PARAMETER) listing them unless `name` is one.
std::vector<std::string> array_names(const std::string& kind);
void require_array_name(const std::string& kind, const std::string& name);
// Sets one array after checking that the kind has it (Error(UNKNOWN_PARAMETER) listing the names), that it
// is not empty (DIMENSION) and finite (NOT_FINITE, OUT_OF_RANGE above 1e100); the kind's contract is checked
// on the whole model when it is loaded, saved or applied.
void set_array(Model& model, const std::string& name, Matrix values);
// Requires the model to keep its kind's contract (above); Error(BAD_STATE) naming the array and the rule it
// breaks.
void check_model(const Model& model);
// The model of a solved solver's current iterate; Error(BAD_STATE) before it has one, UNSUPPORTED for a
// distributed problem or a NOMAD layer (apply the first layer's model).
Model capture_model(const Solver& solver);

// What the model holds, as one JSON object (facto_model_describe): {"kind", "takes": what apply takes,
// "columns": applied_columns (null while the model breaks its contract), "training_features": whether it
// holds a copy of the fitted points' features, "arrays": [{"name", "rows", "cols", "holds",
// "training_features"}] in name order}.
std::string describe_model(const Model& model);
// Removes a feature rule's arrays, the copy of the training data among them: apply then takes affinity
// rows, as the model without a rule. Nothing to remove for the other kinds.
void drop_feature_rule(Model& model);

// Columns of the rows apply gives (after check_model).
int64_t applied_columns(const Model& model);
// The model applied to new data, dense or sparse, as the table above says (after check_model);
// Error(DIMENSION) for data of another width, NOT_FINITE for NaN or Inf, BAD_STATE for a model that breaks
// its contract, NUMERICAL when a point's row or residual overflows.
Applied apply_model(const Model& model, const Matrix& Y, std::size_t threads);
Applied apply_model(const Model& model, const CsrMatrix& Y, std::size_t threads);

// The feature rules: apply then takes new points' features (q x p) and builds their affinities to the
// fitted points as the fit's were built (gaussian_cross_affinity after the fitted column scaling, or
// knn_cross_similarity in the fitted graph). X is the n x p feature matrix the fit's matrix was built
// from. For simplicial_symnmf and symnmf models; either rule replaces the other.
void use_gaussian_affinity(Model& model, Matrix X, double bandwidth, Scaling scaling);
// The kNN rule scales X's columns first (scaling None: as they are) and keeps the scaling for new points,
// and the search (resolved on X) that finds their neighbours among the fitted points.
void use_knn_similarity(Model& model, Matrix X, int64_t k, Similarity kind, Scaling scaling = Scaling::None,
                        NeighborSearch search = NeighborSearch::Auto);
// The same rule on sparse features (CSR, at least one stored entry), kept sparse (knn_csr_*): unscaled and
// searched exactly, as knn_graph(CsrMatrix) builds the graph (Hnsw: Error(UNSUPPORTED)); apply takes new
// points dense or sparse.
void use_knn_similarity(Model& model, const CsrMatrix& X, int64_t k, Similarity kind,
                        NeighborSearch search = NeighborSearch::Auto);
// For nomad models: apply then takes new points' features, labelled by the nearest mean of the fitted
// points X (n x d, dense or sparse: the means are K x d either way) under the model's labels.
void use_points(Model& model, const Matrix& X);
void use_points(Model& model, const CsrMatrix& X);
// For nomad models: apply then takes new rows of D, labelled by the nearest cluster mean in D's space
// under the model's labels (what capture_model does with the solved problem's D). D is n x n, symmetric.
void use_gram(Model& model, Matrix D);

// The model as directory/model.json and one .npy per array (the directory made if missing), with the
// caller's `settings` (a JSON object, kept verbatim) in model.json (models/model_files.cpp). Saving
// replaces only a model's own files: each file is written new and renamed into place (never written
// through a link); a file of the same name that is not the previous facto model's there is refused
// (IO), and that model's arrays the new one has not are removed. Errors: IO, INVALID_ARGUMENT (settings
// not an object), BAD_STATE (check_model).
void save_model(const Model& model, const std::string& directory, const std::string& settings);
// A saved model read back, checked whole before it is returned. Only the array names of its kind are
// read, each from NAME.npy in the directory, and every file must be a regular file reached without a
// symbolic link. Errors: IO (missing, a link, not a regular file), PARSE (not a facto model, an array
// listed twice, a malformed .npy), UNSUPPORTED (a newer format_version, an .npy dtype), INVALID_ARGUMENT
// (an unknown kind), UNKNOWN_PARAMETER (an array the kind has not), set_array's and check_model's, each
// message naming the directory.
Model load_model(const std::string& directory);

// Each kind's rule (models/*.cpp).
namespace models {
// New data as given, dense or sparse, converted on demand (once) to the form a rule needs.
class NewData {
public:
    explicit NewData(const Matrix& Y) : dense_(&Y) {}
    explicit NewData(const CsrMatrix& Y) : sparse_(&Y) {}
    int64_t rows() const;
    int64_t cols() const;
    bool is_sparse() const { return sparse_ != nullptr; }
    // The values as a dense matrix (unlisted entries 0).
    const Matrix& dense() const;
    // The values as CSR; from dense data every entry is listed (zeros too), as observed.
    const CsrMatrix& sparse() const;

private:
    const Matrix* dense_ = nullptr;
    const CsrMatrix* sparse_ = nullptr;
    mutable Matrix made_dense_;
    mutable CsrMatrix made_sparse_;
};

// One array of a kind's model: its name, what it holds (facto_model_describe), whether it is a copy of the
// fitted points' features (the training data, which a feature rule keeps to place new points among them),
// and for a feature rule's array whether the rule holds it only in some settings.
struct ArrayInfo {
    const char* name;
    const char* holds;
    bool training_features = false;
    bool optional = false;
};
// One kind's model, declared once in its family's file (models/*.cpp) and found by the kind (model.cpp):
// its arrays, what apply takes, whether the feature rules apply to it (the SymNMF kinds), how a solved solver's model is
// captured, the contract it keeps (check), how it applies to new data (on checked models only), and the
// width of what apply gives: array `width_array`'s extent on axis `width_axis`.
struct KindRule {
    const char* kind;
    std::vector<ArrayInfo> arrays;
    const char* takes;  // what apply takes without a feature rule (q new points)
    bool feature_rules;
    void (*capture)(const Solver& solver, Model& model);
    void (*check)(const Model& model);
    Applied (*apply)(const Model& model, const NewData& Y, std::size_t threads);
    const char* width_array;
    std::size_t width_axis;
};
// The rule of a kind; Error(INVALID_ARGUMENT) listing the kinds with models for another.
const KindRule& kind_rule(const std::string& kind);
// The kinds the feature rules apply to.
std::vector<std::string> feature_rule_kinds();
// The kinds' rules (models/factor_models.cpp, separable_models.cpp, nomad_model.cpp).
const KindRule& simplicial_symnmf_model();
const KindRule& symnmf_model();
const KindRule& edm_completion_model();
const KindRule& self_dictionary_model();
const KindRule& topics_model();
const KindRule& communities_model();
const KindRule& nomad_model();
// The arrays of the feature rules (use_gaussian_affinity, use_knn_similarity).
const std::vector<ArrayInfo>& gaussian_rule_arrays();
const std::vector<ArrayInfo>& knn_rule_arrays();
// The kNN rule's column scaling (since 0.4.0), held when its settings name a scaling other than none.
inline constexpr const char* kKnnScaling = "knn_scaling";
// The shape of the kNN rule's sparse features (since 0.4.0), held with knn_csr_indptr, _indices and _data
// in place of knn_features when the fit's features were sparse.
inline constexpr const char* kKnnCsrShape = "knn_csr_shape";
// Integers an array holds are below this in magnitude, where doubles hold every integer exactly.
inline constexpr int64_t kHeldIntegers = 9'000'000'000'000'000;
// mean_{i, j in c} D_ij of each cluster c of `labels`, in the order of `clusters` (increasing labels).
Matrix within_means(const GramOperator& D, const std::vector<int64_t>& labels, const std::vector<int64_t>& clusters,
                    std::size_t threads);
// Array `name` of the given shape (-1: any), else Error(BAD_STATE) naming the disagreement.
const Matrix& require_array(const Model& model, const std::string& name, int64_t rows, int64_t cols);
// Requires every entry of array `name` to be >= 0; Error(BAD_STATE) naming the first that is not.
void require_nonnegative(const Model& model, const std::string& name);
// Requires entry (0, column) of array `name`, `what` it holds, to be an integer in [low, high], so that it
// may be converted; Error(BAD_STATE) naming it otherwise.
void require_integer(const Model& model, const std::string& name, std::size_t column, const std::string& what,
                     int64_t low, int64_t high);
// Requires the new data to have `cols` columns (`what`: what the columns are, for the message).
void require_columns(const NewData& Y, int64_t cols, const std::string& what);
// ||a_l - B^T c_l||^2 for each row l of A (q x n, dense or sparse), B (n x c), C (q x c): ||a_l||^2 -
// 2 c_l . (A B)_l + c_l^T (B^T B) c_l, clipped at 0 (rounding).
std::vector<double> residuals(const NewData& A, const Matrix& B, const Matrix& C, std::size_t threads);
// `text` as a JSON string: in quotes, its quotes and backslashes escaped.
std::string quoted(const std::string& text);
// A solver's output as a matrix of its shape (int64 values held exactly).
Matrix matrix_of(const Output& output);
// The integers held in an n x 1 array, each checked (|v| < kHeldIntegers) before
// it is converted; Error(BAD_STATE) naming `what` and the first entry that is not one.
std::vector<int64_t> integers(const Matrix& column, const std::string& what);
Matrix column_of(const std::vector<int64_t>& values);
}  // namespace models

}  // namespace facto
