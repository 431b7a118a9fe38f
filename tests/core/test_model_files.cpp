// Saved models are untrusted input (docs/architecture.md, "Saved models: untrusted input"). A model of every
// kind is saved, then edited as a truncated download, a hand edit or a hostile file would edit it: every
// edit is refused at load with a status and a message naming the directory, or it leaves a model that keeps
// its kind's contract and applies to new data with finite results or a clear error. Under AddressSanitizer
// (the sanitizer stage) none of them reads outside an array. Each rule of the contract refuses what breaks
// it, by name; array names cannot reach outside the directory, links and FIFOs are refused, and saving
// replaces only a model's own files.
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <xtensor/xview.hpp>

#include "data/data.hpp"
#include "fixtures.hpp"
#include "models/model.hpp"
#include "problems/community_model.hpp"
#include "problems/topic_model.hpp"
#include "sets/row_simplices.hpp"
#include "solvers/registry.hpp"

using namespace facto;
using namespace facto::test;
namespace fs = std::filesystem;

namespace {

// A model and new data it takes (q x width; self_dictionary's new points are columns).
struct Fitted {
    std::string name;
    Model model;
    Matrix data;
};

Model captured(std::shared_ptr<const Problem> problem, const char* algorithm, int steps)
{
    auto solver = make_solver(std::move(problem), algorithm);
    for (int s = 0; s < steps && solver->step() == FACTO_OK; ++s) {
    }
    return capture_model(*solver);
}

Matrix first_rows(const Matrix& A, std::size_t rows) { return xt::view(A, xt::range(0, rows), xt::all()); }

// One model of every kind, and each feature rule, fitted in a few steps on small data.
std::vector<Fitted> models_of_every_kind()
{
    std::vector<Fitted> out;
    const Matrix X = random_matrix(24, 3, 6);
    const Matrix P = gaussian_affinity(X, 2.0);
    Model simplicial = captured(std::make_shared<const SimplicialSymNMF>(P, 3), "frank_wolfe", 5);
    out.push_back({"simplicial_symnmf", simplicial, first_rows(P, 4)});
    use_gaussian_affinity(simplicial, X, 2.0, Scaling::MinMax);
    out.push_back({"simplicial_symnmf, Gaussian rule", simplicial, first_rows(X, 4)});
    const KnnGraph graph = knn_graph(X, 0, Similarity::Gaussian);
    Model symnmf = captured(std::make_shared<const SymNMF>(graph.S, 3), "nolips", 5);
    out.push_back({"symnmf", symnmf, first_rows(P, 4)});
    use_knn_similarity(symnmf, X, 0, Similarity::Gaussian);
    out.push_back({"symnmf, kNN rule", symnmf, first_rows(X, 4)});
    Matrix counts = xt::abs(X);  // nonnegative, two of three entries stored a row: text-like sparse features
    for (std::size_t i = 0; i < counts.shape()[0]; ++i) counts(i, i % 3) = 0.0;
    const CsrMatrix sparse = csr_from_dense(rows_of(counts));
    Model sparse_knn = captured(std::make_shared<const SymNMF>(knn_graph(sparse, 0, Similarity::Cosine).S, 3), "nolips", 5);
    use_knn_similarity(sparse_knn, sparse, 0, Similarity::Cosine);
    out.push_back({"symnmf, sparse kNN rule", sparse_knn, first_rows(counts, 4)});
    const std::vector<std::shared_ptr<const Problem>> kinds = one_of_each_kind();  // n = 30 points
    out.push_back({"edm_completion", captured(kinds[2], "nolips", 5), uniform_matrix(4, 30, 3, 0.5, 2.0)});
    out.push_back({"self_dictionary", captured(kinds[3], "spa", 3), uniform_matrix(10, 4, 4, 0.0, 1.0)});
    const PlantedCorpus corpus = planted_corpus();
    Matrix documents({4, 9}, 0.0);
    for (int64_t w : corpus.words[1]) documents(0, static_cast<std::size_t>(w)) = 2.0;
    documents(1, 0) = 1.0;
    out.push_back({"topics", captured(std::make_shared<const TopicModel>(corpus.counts, 3, 1, 0, 1e-6, 1e-5, 1e-3), "spa", 3),
                   documents});
    const PlantedGraph graph60 = planted_graph();
    out.push_back({"communities", captured(std::make_shared<const CommunityModel>(graph60.A, 3, 1.0, 1e-6, 1e-5), "spa", 3),
                   uniform_matrix(4, 60, 5, 0.0, 1.0)});
    Model nomad = captured(kinds[4], "nomad_cgm", 2);
    out.push_back({"nomad", nomad, uniform_matrix(4, 30, 6, -1.0, 1.0)});
    use_points(nomad, random_matrix(30, 3, 6));
    out.push_back({"nomad, points", nomad, random_matrix(4, 3, 7)});
    return out;
}

std::string bytes_of(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes)
{
    fs::remove(path);
    std::ofstream(path, std::ios::binary) << bytes;
}

void write_array(const std::string& path, const Matrix& A)
{
    fs::remove(path);
    std::FILE* file = std::fopen(path.c_str(), "wb");
    write_npy(file, A, path);
    std::fclose(file);
}

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const std::size_t at = text.find(from);
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// A fresh copy of the saved model `from` in `to`.
void copy_model(const std::string& from, const std::string& to)
{
    fs::remove_all(to);
    fs::copy(from, to);
}

// Loads an edited model: a refusal names the directory and is not an internal error; an accepted model
// keeps its contract and applies with finite results or a clear error. Returns whether it was accepted.
bool load_and_apply(const std::string& directory, const Matrix& data, const std::string& edit)
{
    BOOST_TEST_CONTEXT(edit)
    {
        Model model;
        try {
            model = load_model(directory);
        } catch (const Error& e) {
            BOOST_TEST(e.status() != FACTO_ERROR_INTERNAL);
            BOOST_TEST(std::string(e.what()).find(directory) != std::string::npos, e.what());
            return false;
        }
        BOOST_CHECK_NO_THROW(check_model(model));
        try {
            const Applied applied = apply_model(model, data, 1);
            BOOST_TEST(std::all_of(applied.rows.begin(), applied.rows.end(), [](double v) { return std::isfinite(v); }));
            BOOST_TEST(std::all_of(applied.residuals.begin(), applied.residuals.end(), [](double v) { return std::isfinite(v); }));
            BOOST_TEST(applied.labels.size() == applied.rows.shape()[0]);
        } catch (const Error& e) {
            BOOST_TEST(e.status() != FACTO_ERROR_INTERNAL, e.what());
        }
    }
    return true;
}

using Edit = std::pair<const char*, std::function<Matrix(const Matrix&)>>;

// Edits of one array's values and shape, as a hand edit or a hostile file would make them.
std::vector<Edit> array_edits()
{
    const auto set00 = [](double v) {
        return [v](const Matrix& A) {
            Matrix B = A;
            B(0, 0) = v;
            return B;
        };
    };
    return {
        {"first row only", [](const Matrix& A) { return first_rows(A, 1); }},
        {"last row dropped", [](const Matrix& A) { return first_rows(A, std::max<std::size_t>(A.shape()[0] - 1, 1)); }},
        {"a row added", [](const Matrix& A) { return Matrix(xt::concatenate(xt::xtuple(A, xt::view(A, xt::range(0, 1), xt::all())))); }},
        {"first column only", [](const Matrix& A) { return Matrix(xt::view(A, xt::all(), xt::range(0, 1))); }},
        {"a column added", [](const Matrix& A) { return Matrix(xt::concatenate(xt::xtuple(A, xt::view(A, xt::all(), xt::range(0, 1))), 1)); }},
        {"transposed", [](const Matrix& A) { return Matrix(xt::transpose(A)); }},
        {"zeros", [](const Matrix& A) { return Matrix(xt::zeros_like(A)); }},
        {"(0, 0) = -1", set00(-1.0)},
        {"(0, 0) = 0.5", set00(0.5)},
        {"(0, 0) = 2", set00(2.0)},
        {"(0, 0) = 1e6", set00(1e6)},
        {"(0, 0) = -3e15", set00(-3e15)},
        {"(0, 0) = 1e16", set00(1e16)},
        {"(0, 0) = 1e90", set00(1e90)},
        {"(0, 0) = 1e300", set00(1e300)},
        {"(0, 0) = nan", set00(std::numeric_limits<double>::quiet_NaN())},
        {"(0, 0) = inf", set00(std::numeric_limits<double>::infinity())},
    };
}

// An edit of a file's text or bytes.
using TextEdit = std::pair<std::string, std::function<std::string(const std::string&)>>;

// Edits of an .npy file's bytes: truncation, a header that lies about the data.
std::vector<TextEdit> byte_edits()
{
    return {
        {"empty file", [](const std::string&) { return std::string(); }},
        {"header only", [](const std::string& b) { return b.substr(0, 128); }},
        {"half its bytes", [](const std::string& b) { return b.substr(0, b.size() / 2); }},
        {"last byte dropped", [](const std::string& b) { return b.substr(0, b.size() - 1); }},
        {"float32", [](const std::string& b) { return replaced(b, "<f8", "<f4"); }},
        {"int32", [](const std::string& b) { return replaced(b, "<f8", "<i4"); }},
        {"big-endian", [](const std::string& b) { return replaced(b, "<f8", ">f8"); }},
        {"complex", [](const std::string& b) { return replaced(b, "'<f8'", "'<c16'"); }},
        {"Fortran order", [](const std::string& b) { return replaced(b, "False", "True "); }},
        {"shape of 10^12 rows", [](const std::string& b) { return replaced(b, "'shape': (", "'shape': (1000000000000"); }},
        {"no shape", [](const std::string& b) { return replaced(b, "'shape'", "'shapf'"); }},
        {"0 rows", [](const std::string& b) { return replaced(b, "'shape': (", "'shape': (0, 1), 'x': ("); }},
        {"not npy", [](const std::string& b) { return replaced(b, "NUMPY", "NUMPZ"); }},
    };
}

// Edits of model.json's text.
std::vector<TextEdit> json_edits(const Model& model)
{
    std::vector<TextEdit> edits = {
        {"truncated", [](const std::string& t) { return t.substr(0, t.size() / 2); }},
        {"empty", [](const std::string&) { return std::string(); }},
        {"format_version 2", [](const std::string& t) { return replaced(t, "\"format_version\": 1", "\"format_version\": 2"); }},
        {"another format", [](const std::string& t) { return replaced(t, "facto model", "facto modes"); }},
        {"no arrays", [](const std::string& t) { return replaced(t, "\"arrays\": [", "\"arrays\": [], \"x\": ["); }},
        {"a path as a name", [](const std::string& t) { return replaced(t, "\"arrays\": [", "\"arrays\": [\"../facto_test_models/W\", "); }},
        {"an absolute name", [](const std::string& t) { return replaced(t, "\"arrays\": [", "\"arrays\": [\"/etc/passwd\", "); }},
        {"a name with .npy", [](const std::string& t) { return replaced(t, "\"arrays\": [\"", "\"arrays\": [\"W.npy\", \""); }},
        {"settings not an object", [](const std::string& t) { return replaced(t, "\"settings\": {", "\"settings\": 5, \"s\": {"); }},
        {"text after the object", [](const std::string& t) { return t + "{}"; }},
    };
    const auto first = model.arrays.begin()->first;
    edits.push_back({"the first array listed twice", [first](const std::string& t) {
                         return replaced(t, "\"arrays\": [", "\"arrays\": [\"" + first + "\", ");
                     }});
    edits.push_back({"the first array dropped", [first](const std::string& t) {
                         return replaced(replaced(t, "\"" + first + "\", ", ""), "\"" + first + "\"", "");
                     }});
    for (const char* kind : {"simplicial_symnmf", "symnmf", "edm_completion", "self_dictionary", "topics",
                                    "communities", "nomad", "kmeans"})
        edits.push_back({std::string("kind ") + kind, [&model, kind](const std::string& t) {
                             return replaced(t, "\"kind\": \"" + model.kind + "\"", "\"kind\": \"" + std::string(kind) + "\"");
                         }});
    return edits;
}

bool refused(const std::function<void()>& call, facto_status status, const std::string& fragment)
{
    try {
        call();
    } catch (const Error& e) {
        const bool ok = e.status() == status && std::string(e.what()).find(fragment) != std::string::npos;
        if (!ok) BOOST_TEST_MESSAGE("got " << status_name(e.status()) << ": " << e.what());
        return ok;
    }
    BOOST_TEST_MESSAGE("not refused");
    return false;
}

Model with_array(Model model, const std::string& name, Matrix values)
{
    model.arrays[name] = std::move(values);
    return model;
}

Model without_array(Model model, const std::string& name)
{
    model.arrays.erase(name);
    return model;
}

const Fitted& fitted(const std::vector<Fitted>& all, const std::string& name)
{
    return *std::find_if(all.begin(), all.end(), [&](const Fitted& f) { return f.name == name; });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(model_files)

BOOST_AUTO_TEST_CASE(no_edit_of_a_saved_model_crashes_or_gives_non_finite_answers)
{
    const std::string original = "facto_test_models_original", edited = "facto_test_models_edited";
    for (const Fitted& f : models_of_every_kind()) {
        BOOST_TEST_CONTEXT(f.name)
        {
            fs::remove_all(original);
            save_model(f.model, original, "{}");
            BOOST_TEST(load_and_apply(original, f.data, "unedited"));
            for (const auto& [name, values] : f.model.arrays) {
                const std::string file = name + ".npy";
                for (const Edit& edit : array_edits()) {
                    copy_model(original, edited);
                    write_array(edited + "/" + file, edit.second(values));
                    load_and_apply(edited, f.data, file + ": " + edit.first);
                }
                for (const auto& [what, edit] : byte_edits()) {
                    copy_model(original, edited);
                    write_bytes(edited + "/" + file, edit(bytes_of(original + "/" + file)));
                    load_and_apply(edited, f.data, file + ": " + what);
                }
            }
            // every array cut to its first row at once
            copy_model(original, edited);
            for (const auto& [name, values] : f.model.arrays) write_array(edited + "/" + name + ".npy", first_rows(values, 1));
            load_and_apply(edited, f.data, "every array's first row");
            for (const auto& [what, edit] : json_edits(f.model)) {
                copy_model(original, edited);
                write_bytes(edited + "/model.json", edit(bytes_of(original + "/model.json")));
                load_and_apply(edited, f.data, "model.json: " + what);
            }
        }
    }
    fs::remove_all(original);
    fs::remove_all(edited);
}

BOOST_AUTO_TEST_CASE(an_infeasible_iterate_gives_the_nearest_feasible_factor)
{
    // [ZG]'s penalty method leaves W off the simplex (beyond the contract's 1e-6 after one step): its model
    // holds W's rows projected onto the simplex, and keeps the contract; Frank-Wolfe's feasible W is kept
    // bit for bit
    const auto problem = std::make_shared<const SimplicialSymNMF>(gaussian_affinity(random_matrix(24, 3, 6), 2.0), 3);
    auto penalty = make_solver(problem, "penalty_method");
    penalty->step();
    const Matrix& W = penalty->iterate();
    BOOST_TEST(xt::amax(xt::abs(xt::sum(W, {1}) - 1.0))() + std::max(0.0, -xt::amin(W)()) > 1e-6);
    const Model model = capture_model(*penalty);
    Matrix projected = W;
    RowSimplices::project(projected);
    BOOST_TEST(model.array("W") == projected);
    BOOST_CHECK_NO_THROW(check_model(model));
    auto fw = make_solver(problem, "frank_wolfe");
    fw->step();
    BOOST_TEST(capture_model(*fw).array("W") == fw->iterate());
}

BOOST_AUTO_TEST_CASE(the_reported_edits_are_refused_by_name)
{
    // a kNN model whose arrays are cut to their first row, or whose k exceeds its fitted points: both
    // crashed apply before the contract was checked (a SIGSEGV, and heap corruption)
    const Fitted f = fitted(models_of_every_kind(), "symnmf, kNN rule");
    const std::string directory = "facto_test_models_reported";
    fs::remove_all(directory);
    save_model(f.model, directory, "{}");
    Matrix settings = f.model.array("knn_settings");
    settings(0, 0) = 1000.0;
    write_array(directory + "/knn_settings.npy", settings);
    BOOST_TEST(refused([&] { load_model(directory); }, FACTO_ERROR_BAD_STATE, "'knn_settings' holds k = 1000"));
    BOOST_TEST(refused([&] { load_model(directory); }, FACTO_ERROR_BAD_STATE, directory));
    for (const auto& [name, values] : f.model.arrays) write_array(directory + "/" + name + ".npy", first_rows(values, 1));
    BOOST_TEST(refused([&] { load_model(directory); }, FACTO_ERROR_BAD_STATE, "'H' is 1 x 3: its rank is at most"));
    fs::remove_all(directory);
}

BOOST_AUTO_TEST_CASE(each_rule_of_the_contract_refuses_what_breaks_it)
{
    // every rule, broken once in a model built from arrays (as set_array builds one), is refused by check,
    // save and apply alike, naming the array; the unbroken models pass
    const std::vector<Fitted> all = models_of_every_kind();
    for (const Fitted& f : all) BOOST_CHECK_NO_THROW(check_model(f.model));
    const auto entry = [](const Matrix& A, std::size_t i, std::size_t j, double v) {
        Matrix B = A;
        B(i, j) = v;
        return B;
    };
    struct Broken {
        const char* model;
        Model broken;
        const char* fragment;
    };
    const auto& gaussian = fitted(all, "simplicial_symnmf, Gaussian rule").model;
    const auto& knn = fitted(all, "symnmf, kNN rule").model;
    const auto& sparse_knn = fitted(all, "symnmf, sparse kNN rule").model;
    Matrix indptr = sparse_knn.array("knn_csr_indptr");
    std::swap(indptr(3, 0), indptr(4, 0));
    const auto& topics = fitted(all, "topics").model;
    const auto& communities = fitted(all, "communities").model;
    const auto& nomad = fitted(all, "nomad").model;
    const auto& points = fitted(all, "nomad, points").model;
    Matrix doubled_row = gaussian.array("W");
    xt::row(doubled_row, 0) *= 2.0;
    Matrix dependent = communities.array("pure");
    xt::row(dependent, 2) = xt::row(dependent, 1);
    const std::vector<Broken> cases = {
        {"simplicial", with_array(gaussian, "W", entry(gaussian.array("W"), 0, 0, -0.5)), "'W' has entry (0, 0) = -0.5"},
        {"simplicial", with_array(gaussian, "W", doubled_row), "'W' has row 0 summing to 2"},
        {"symnmf", with_array(knn, "H", entry(knn.array("H"), 1, 0, -1.0)), "'H' has entry (1, 0) = -1"},
        {"symnmf", with_array(knn, "H", first_rows(knn.array("H"), 5)), "'knn_features' is 24 x 3 where its other arrays need 5 x any"},
        {"symnmf", with_array(fitted(all, "symnmf").model, "H", Matrix({2, 3}, 0.5)), "rank is at most its number of points, 2"},
        {"knn", with_array(knn, "knn_settings", entry(knn.array("knn_settings"), 0, 0, 24.0)), "'knn_settings' holds k = 24"},
        {"knn", with_array(knn, "knn_settings", entry(knn.array("knn_settings"), 0, 0, 2.5)), "k = 2.5"},
        {"knn", with_array(knn, "knn_settings", entry(knn.array("knn_settings"), 0, 1, 2.0)), "the similarity = 2"},
        {"knn", with_array(knn, "knn_settings", entry(knn.array("knn_settings"), 0, 2, 0.0)), "the scale neighbour = 0"},
        {"knn", with_array(knn, "knn_settings", entry(knn.array("knn_settings"), 0, 4, 2.0)), "the neighbour search = 2"},
        {"knn", with_array(knn, "knn_settings", Matrix({{3.0, 0.0, 3.0, 0.0, 0.0, 0.0}})), "'knn_settings' has 6 values"},
        {"knn", with_array(knn, "knn_scale", entry(knn.array("knn_scale"), 3, 0, -1.0)), "'knn_scale' has entry (3, 0)"},
        {"knn", with_array(knn, "knn_degree", first_rows(knn.array("knn_degree"), 23)), "'knn_degree' is 23 x 1"},
        {"knn", without_array(knn, "knn_scale"), "has 'knn_features' but not 'knn_scale'"},
        {"knn", with_array(knn, "rbf_settings", Matrix({{1.0, 0.0}})), "both feature rules"},
        {"sparse knn", with_array(sparse_knn, "knn_csr_indptr", indptr), "sparse kNN features ('knn_csr_*'): "},
        {"sparse knn", with_array(sparse_knn, "knn_csr_indptr", entry(sparse_knn.array("knn_csr_indptr"), 24, 0, 50.0)),
         "'knn_csr_indptr' ends at 50 where 'knn_csr_data' holds 48 entries"},
        {"sparse knn", with_array(sparse_knn, "knn_csr_indices", entry(sparse_knn.array("knn_csr_indices"), 5, 0, 3.0)),
         "sparse kNN features ('knn_csr_*'): "},
        {"sparse knn", with_array(sparse_knn, "knn_csr_indices", entry(sparse_knn.array("knn_csr_indices"), 5, 0, 0.5)),
         "'knn_csr_indices' entry 5 is 0.5"},
        {"sparse knn", with_array(sparse_knn, "knn_csr_shape", Matrix({{23.0, 3.0}})), "the number of points = 23"},
        {"sparse knn", with_array(sparse_knn, "knn_csr_shape", Matrix({{24.0, 0.0}})), "the number of features = 0"},
        {"sparse knn", with_array(sparse_knn, "knn_csr_data", first_rows(sparse_knn.array("knn_csr_data"), 47)),
         "'knn_csr_indices' is 48 x 1 where its other arrays need 47 x 1"},
        {"sparse knn", with_array(sparse_knn, "knn_features", knn.array("knn_features")), "both densely"},
        {"sparse knn", without_array(sparse_knn, "knn_csr_shape"), "has 'knn_csr_indptr' but not 'knn_csr_shape'"},
        {"sparse knn", with_array(sparse_knn, "knn_settings", entry(sparse_knn.array("knn_settings"), 0, 4, 1.0)),
         "on sparse features has a scaling or an HNSW search"},
        {"knn", without_array(knn, "knn_features"), "neither densely"},
        {"gaussian", with_array(gaussian, "rbf_settings", Matrix({{0.0, 1.0}})), "the bandwidth 0"},
        {"gaussian", with_array(gaussian, "rbf_settings", Matrix({{1.0, 3.0}})), "the scaling = 3"},
        {"gaussian", with_array(gaussian, "rbf_scaling", first_rows(gaussian.array("rbf_scaling"), 1)), "'rbf_scaling' is 1 x 3"},
        {"topics", with_array(topics, "topics", entry(topics.array("topics"), 0, 1, -0.1)), "'topics' has entry (0, 1)"},
        {"topics", with_array(topics, "idf", Matrix({1, 8}, 1.0)), "'idf' is 1 x 8 where its other arrays need 1 x 9"},
        {"topics", with_array(topics, "idf", entry(topics.array("idf"), 0, 2, -1.0)), "'idf' has entry (0, 2) = -1"},
        {"topics", with_array(topics, "idf", Matrix({1, 9}, 0.0)), "keeps 0 terms (idf > 0) for its 3 topics"},
        {"communities", with_array(communities, "pure", dependent), "'pure' rows are linearly dependent"},
        {"communities", with_array(communities, "pure", Matrix({2, 2}, 1.0)), "'pure' is 2 x 2 where its other arrays need 3 x 3"},
        {"nomad", with_array(nomad, "labels", entry(nomad.array("labels"), 4, 0, 0.5)), "'labels' entry 4 is 0.5"},
        {"nomad", with_array(nomad, "labels", entry(nomad.array("labels"), 4, 0, -1.0)), "'labels' hold -1: the labels of its n = 30 fitted points are in [0, n - 1]"},
        {"nomad", with_array(nomad, "labels", entry(nomad.array("labels"), 4, 0, 1e16)), "'labels' entry 4 is 1e+16"},
        {"nomad", with_array(nomad, "labels", entry(nomad.array("labels"), 4, 0, 1e9)), "'labels' hold 1000000000"},
        {"nomad", with_array(nomad, "center_labels", nomad.array("center_labels") + 1.0), "'center_labels' are not the clusters"},
        {"nomad", with_array(nomad, "embedding", first_rows(nomad.array("embedding"), 29)), "'embedding' is 29 x"},
        {"nomad", with_array(nomad, "within", Matrix({1, 1}, 0.0)), "'within' is 1 x 1"},
        {"nomad", with_array(nomad, "centers", Matrix({nomad.array("within").shape()[0], 3}, 0.0)), "both 'within' and 'centers'"},
        {"nomad", without_array(nomad, "within"), "neither 'within' nor 'centers'"},
        {"points", with_array(points, "centers", Matrix({1, 3}, 0.0)), "'centers' is 1 x 3"},
    };
    const std::string directory = "facto_test_models_contract";
    for (const Broken& c : cases) {
        BOOST_TEST_CONTEXT(c.model << ": " << c.fragment)
        {
            BOOST_TEST(refused([&] { check_model(c.broken); }, FACTO_ERROR_BAD_STATE, c.fragment));
            BOOST_TEST(refused([&] { applied_columns(c.broken); }, FACTO_ERROR_BAD_STATE, c.fragment));
            BOOST_TEST(refused([&] { save_model(c.broken, directory, "{}"); }, FACTO_ERROR_BAD_STATE, c.fragment));
            BOOST_TEST(!fs::exists(directory));  // refused before anything is written
        }
    }
    // an EDM model of fewer points than a position needs distances refuses before it allocates
    Model edm = empty_model("edm_completion");
    set_array(edm, "X", Matrix({2, 3}, 1.0));
    BOOST_TEST(refused([&] { apply_model(edm, Matrix({1, 2}, 1.0), 1); }, FACTO_ERROR_DIMENSION, "needs r + 1 = 4"));
    // set_array refuses what no contract can use: an unknown name, an empty array, a non-finite entry
    Model model = empty_model("symnmf");
    BOOST_TEST(refused([&] { set_array(model, "../H", Matrix({2, 2}, 1.0)); }, FACTO_ERROR_UNKNOWN_PARAMETER, "no array '../H'"));
    BOOST_TEST(refused([&] { set_array(model, "H", Matrix({0, 2})); }, FACTO_ERROR_DIMENSION, "'H' is 0 x 2"));
    BOOST_TEST(refused([&] { set_array(model, "H", Matrix({2, 2}, std::nan(""))); }, FACTO_ERROR_NOT_FINITE, "'H': entry (0, 0)"));
    BOOST_TEST(model.arrays.empty());
    // a model filled without set_array (as a capture fills one) is held to the same: check refuses NaN
    model.arrays["H"] = Matrix({2, 2}, std::nan(""));
    BOOST_TEST(refused([&] { check_model(model); }, FACTO_ERROR_NOT_FINITE, "'H': entry (0, 0) is nan"));
}

BOOST_AUTO_TEST_CASE(names_links_and_special_files_cannot_reach_outside_the_directory)
{
    const Fitted f = fitted(models_of_every_kind(), "simplicial_symnmf");
    const std::string directory = "facto_test_models_links", outside = "facto_test_models_outside";
    fs::remove_all(directory);
    fs::remove_all(outside);
    save_model(f.model, directory, "{}");
    save_model(f.model, outside, "{}");
    const std::string json = bytes_of(directory + "/model.json");
    // a name that is a path is refused before any file is opened (an unknown name, not a read error)
    for (const char* name : {"../facto_test_models_outside/W", "/etc/passwd", "W/../W", ""}) {
        BOOST_TEST_CONTEXT(name)
        {
            write_bytes(directory + "/model.json", replaced(json, "[\"W\"]", std::string("[\"") + name + "\"]"));
            BOOST_TEST(refused([&] { load_model(directory); }, FACTO_ERROR_UNKNOWN_PARAMETER, "no array"));
        }
    }
    write_bytes(directory + "/model.json", json);
    // a link, even to a valid array, is not followed; nor is model.json a link
    fs::remove(directory + "/W.npy");
    fs::create_symlink(fs::absolute(outside + "/W.npy"), directory + "/W.npy");
    BOOST_TEST(refused([&] { load_model(directory); }, FACTO_ERROR_IO, "symbolic link"));
    fs::remove(directory + "/W.npy");
    fs::copy(outside + "/W.npy", directory + "/W.npy");
    fs::remove(directory + "/model.json");
    fs::create_symlink(fs::absolute(outside + "/model.json"), directory + "/model.json");
    BOOST_TEST(refused([&] { load_model(directory); }, FACTO_ERROR_IO, "symbolic link"));
    fs::remove(directory + "/model.json");
    write_bytes(directory + "/model.json", json);
    // a FIFO is refused at once, not waited on; a directory is refused
    fs::remove(directory + "/W.npy");
    BOOST_REQUIRE(::mkfifo((directory + "/W.npy").c_str(), 0600) == 0);
    BOOST_TEST(refused([&] { load_model(directory); }, FACTO_ERROR_IO, "a FIFO"));
    fs::remove(directory + "/W.npy");
    fs::create_directory(directory + "/W.npy");
    BOOST_TEST(refused([&] { load_model(directory); }, FACTO_ERROR_IO, "a directory"));
    fs::remove_all(directory);
    fs::remove_all(outside);
}

BOOST_AUTO_TEST_CASE(saving_replaces_only_the_models_own_files)
{
    const std::vector<Fitted> all = models_of_every_kind();
    const Model& edm = fitted(all, "edm_completion").model;
    const std::string directory = "facto_test_models_save", outside = "facto_test_models_save_outside";
    fs::remove_all(directory);
    fs::remove_all(outside);
    fs::create_directory(directory);
    // a user's X.npy (not a model's), or another program's model.json, is never replaced
    write_bytes(directory + "/X.npy", "the user's data");
    BOOST_TEST(refused([&] { save_model(edm, directory, "{}"); }, FACTO_ERROR_IO, "X.npy' is there and is not a file of"));
    BOOST_TEST(bytes_of(directory + "/X.npy") == "the user's data");
    BOOST_TEST(!fs::exists(directory + "/model.json"));
    fs::remove(directory + "/X.npy");
    write_bytes(directory + "/model.json", "{\"name\": \"another program's\"}");
    BOOST_TEST(refused([&] { save_model(edm, directory, "{}"); }, FACTO_ERROR_IO, "is not a facto model's"));
    BOOST_TEST(bytes_of(directory + "/model.json") == "{\"name\": \"another program's\"}");
    fs::remove(directory + "/model.json");
    // saving over a facto model replaces its files, a link among them is replaced and not written through,
    // and the arrays the new model has not are removed; no temporary file is left
    const Model& points = fitted(all, "nomad, points").model;
    const Model& nomad = fitted(all, "nomad").model;
    save_model(points, directory, "{}");
    fs::create_directory(outside);
    write_bytes(outside + "/kept", "outside");
    fs::remove(directory + "/labels.npy");
    fs::create_symlink(fs::absolute(outside + "/kept"), directory + "/labels.npy");
    fs::permissions(directory + "/embedding.npy", fs::perms::owner_read | fs::perms::owner_write);
    save_model(nomad, directory, "{\"second\": true}");
    BOOST_TEST(bytes_of(outside + "/kept") == "outside");
    BOOST_TEST(!fs::is_symlink(directory + "/labels.npy"));
    BOOST_TEST((fs::status(directory + "/embedding.npy").permissions() == (fs::perms::owner_read | fs::perms::owner_write)));
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(directory)) files.push_back(entry.path().filename().string());
    std::sort(files.begin(), files.end());
    BOOST_TEST(files == (std::vector<std::string>{"center_labels.npy", "embedding.npy", "labels.npy", "model.json", "within.npy"}),
               boost::test_tools::per_element());
    const Model loaded = load_model(directory);
    BOOST_TEST(loaded.settings == "{\"second\": true}");
    for (const auto& [name, values] : nomad.arrays) BOOST_TEST(loaded.array(name) == values);
    // settings are one JSON object: text after it could add members to model.json
    BOOST_TEST(refused([&] { save_model(nomad, directory, "{\"a\": 1}, \"arrays\": [\"labels\"], \"b\": {}"); },
                       FACTO_ERROR_INVALID_ARGUMENT, "text after the object"));
    for (const char* settings : {"{\"a\": [1}", "{\"a\": 1]", "{\"a\" 1}", "{\"a\": 01}", "{\"a\": nan}", "{\"a\": 1,}", "{\"a\": 1} x"})
        BOOST_TEST(refused([&] { save_model(nomad, directory, settings); }, FACTO_ERROR_INVALID_ARGUMENT, "JSON object"), settings);
    save_model(nomad, directory, " {\"a\": [1, -2.5e-3, true, null, {\"b\": \"}\\\"\"}], \"c\": 0} ");
    fs::remove_all(directory);
    fs::remove_all(outside);
}

BOOST_AUTO_TEST_SUITE_END()
