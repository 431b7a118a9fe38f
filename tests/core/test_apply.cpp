// A fitted factor applied to new points: the rows of new points by the least squares of their affinity
// rows against the factor (simplex-constrained for simplicial SymNMF, nonnegative for SymNMF). Planted
// rows are recovered exactly, the rows of the training affinity give back a stationary factor's rows
// within the distance its Frank-Wolfe gap allows, and bad input is refused by name.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include <xtensor-blas/xlinalg.hpp>

#include "data/data.hpp"
#include "linalg/blas.hpp"
#include "metrics/metrics.hpp"
#include "models/model.hpp"
#include "problems/edm_completion.hpp"
#include "linalg/simplex_least_squares.hpp"
#include "problems/simplicial_symnmf.hpp"
#include "problems/nomad.hpp"
#include "problems/self_dictionary.hpp"
#include "problems/symnmf.hpp"
#include "solvers/registry.hpp"
#include "fixtures.hpp"

using namespace facto;
using namespace facto::test;

namespace {

// Rows on the simplex, uniform in [0, 1] then normalized, every tenth entry 0 (a face, as fits have).
Matrix simplex_rows(std::size_t m, std::size_t k, uint64_t seed)
{
    Matrix H = uniform_matrix(m, k, seed, 0.0, 1.0);
    for (std::size_t i = 0; i < m; ++i) {
        if (k > 1) H(i, (i * 7) % k) = 0.0;
        double sum = 0.0;
        for (std::size_t j = 0; j < k; ++j) sum += H(i, j);
        for (std::size_t j = 0; j < k; ++j) H(i, j) /= sum;
    }
    return H;
}

double min_eigenvalue_of_gram(const Matrix& W)
{
    Matrix Q({W.shape()[1], W.shape()[1]});
    blas::gemm(true, false, 1.0, W, W, 0.0, Q);
    return blas::symmetric_eigenvalues(Q)(0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(apply)

BOOST_AUTO_TEST_CASE(the_gram_form_gives_the_selected_columns_least_squares)
{
    // simplex_least_squares_gram with Q = W^T W, B = X^T W is the same computation as the self-dictionary
    // form on W = X(:, selected): the same numbers, bit for bit
    const Matrix Xt = uniform_matrix(300, 20, 3, 0.0, 1.0);  // N = 300 points of dimension 20
    const std::vector<int64_t> selected = {4, 77, 150, 299, 12};
    const Matrix H = simplex_least_squares(Xt, selected);
    Matrix Wt({selected.size(), 20});
    for (std::size_t i = 0; i < selected.size(); ++i)
        for (std::size_t j = 0; j < 20; ++j) Wt(i, j) = Xt(static_cast<std::size_t>(selected[i]), j);
    Matrix Q({selected.size(), selected.size()}), B({300, selected.size()});
    blas::gemm(false, true, 1.0, Wt, Wt, 0.0, Q);
    blas::gemm(false, true, 1.0, Xt, Wt, 0.0, B);
    BOOST_TEST(simplex_least_squares_gram(Q, B, 2) == H);
}

BOOST_AUTO_TEST_CASE(planted_simplex_rows_are_recovered)
{
    // P_new = H W^T with H on the simplex: the residual is 0 at H, the minimizer is unique (W^T W is
    // nonsingular), so apply returns H up to rounding amplified by cond(W^T W) (1e-9 leaves room for
    // a condition number near 1e6)
    const std::size_t n = 80, k = 5, m = 40;
    const Matrix W = simplex_rows(n, k, 1), H = simplex_rows(m, k, 2);
    Matrix P_new({m, n});
    blas::gemm(false, true, 1.0, H, W, 0.0, P_new);
    const Matrix A = SimplicialSymNMF::apply(W, P_new, 2);
    BOOST_TEST(xt::amax(xt::abs(A - H))() < 1e-9);
}

BOOST_AUTO_TEST_CASE(planted_nonnegative_rows_are_recovered)
{
    const std::size_t n = 80, r = 6, m = 30;
    const Matrix X = uniform_matrix(n, r, 4, 0.0, 1.0);
    Matrix H = uniform_matrix(m, r, 5, 0.0, 2.0);
    for (std::size_t i = 0; i < m; ++i) H(i, (i * 5) % r) = 0.0;  // on the orthant's faces
    Matrix M_new({m, n});
    blas::gemm(false, true, 1.0, H, X, 0.0, M_new);
    const Matrix A = SymNMF::apply(X, M_new);
    BOOST_TEST(xt::amin(A)() >= 0.0);
    BOOST_TEST(xt::amax(xt::abs(A - H))() < 1e-9);
}

BOOST_AUTO_TEST_CASE(the_training_rows_give_back_a_stationary_factor)
{
    // Row i of grad f is W^T W w_i - W^T p_i, the gradient of phi_i(w) = 1/2 ||p_i - W w||^2 at w_i, so
    // f's Frank-Wolfe gap g is the sum of the rows' gaps, each at least phi_i(w_i) - phi_i(a_i) >=
    // lambda/2 ||w_i - a_i||^2 (a_i = apply's row, the minimizer; lambda = lambda_min(W^T W)): hence
    // ||W - A||_F^2 <= 2 g / lambda, and no row of A fits worse than W's
    const std::size_t n = 90, k = 3;
    const Matrix P = random_affinity(n, 2, 7, 4.0);
    auto solver = make_solver(make_problem(P, k), "frank_wolfe");
    solver->mutable_params().set_double("tolerance", 1e-9);
    solver->solve();
    const Matrix W = solver->iterate();
    const double gap = frank_wolfe_gap(*solver), lambda = min_eigenvalue_of_gram(W);
    const Matrix A = SimplicialSymNMF::apply(W, P, 1);
    BOOST_TEST(xt::sum(xt::square(A - W))() <= 2.0 * gap / lambda * (1.0 + 1e-6) + 1e-24);
    Matrix fitted({n, n}), applied({n, n});
    blas::gemm(false, true, 1.0, W, W, 0.0, fitted);
    blas::gemm(false, true, 1.0, A, W, 0.0, applied);
    for (std::size_t i = 0; i < n; ++i) {
        const double by_fit = xt::sum(xt::square(xt::row(P, i) - xt::row(fitted, i)))();
        const double by_apply = xt::sum(xt::square(xt::row(P, i) - xt::row(applied, i)))();
        BOOST_TEST(by_apply <= by_fit * (1.0 + 1e-12) + 1e-28);
    }
}

BOOST_AUTO_TEST_CASE(new_rows_are_scaled_and_compared_as_the_fitted_ones)
{
    // the statistics learnt on X scale X exactly as scale_columns(X) does, and a new row equal to a
    // fitted one is scaled to the same numbers; the cross affinity of X with itself is its affinity
    // (the diagonal's 1 up to the rounding of ||x||^2 + ||x||^2 - 2 <x, x>, about 1e-15 ||x||^2 / bandwidth)
    const Matrix X = uniform_matrix(50, 4, 8, -3.0, 5.0);
    for (const Scaling scaling : {Scaling::MinMax, Scaling::ZScore}) {
        const ColumnScaling s = column_scaling(X, scaling);
        Matrix by_own = X, by_learnt = X, row = xt::view(X, xt::range(17, 18), xt::all());
        scale_columns(by_own, scaling);
        scale_columns(by_learnt, s);
        scale_columns(row, s);
        BOOST_TEST(by_learnt == by_own);
        BOOST_TEST(Matrix(xt::view(by_own, xt::range(17, 18), xt::all())) == row);
        const Matrix P = gaussian_affinity(by_own, 2.0), cross = gaussian_cross_affinity(by_own, by_own, 2.0);
        BOOST_TEST(xt::amax(xt::abs(P - cross))() < 1e-12);
    }
    Matrix narrow({1, 3}, 0.0);
    BOOST_CHECK_THROW(scale_columns(narrow, column_scaling(X, Scaling::MinMax)), Error);
    BOOST_CHECK_THROW(gaussian_cross_affinity(Matrix({2, 3}, 0.0), X, 1.0), Error);
}

BOOST_AUTO_TEST_CASE(held_out_points_of_separated_blobs_get_their_blob)
{
    // fit on 80% of three far blobs, apply to the other 20% through the same kernel: every held-out
    // point lands in its own blob's cluster (the fit's labels name the clusters)
    const Matrix centers = {{0.0, 0.0}, {10.0, 0.0}, {0.0, 10.0}};
    const LabeledPoints blobs = gaussian_blobs(150, centers, 0.7, 11);
    std::vector<std::size_t> train, test;
    for (std::size_t i = 0; i < 150; ++i) (i % 5 == 0 ? test : train).push_back(i);
    const Matrix X_train = xt::view(blobs.X, xt::keep(train), xt::all()), X_test = xt::view(blobs.X, xt::keep(test), xt::all());
    auto solver = make_solver(make_problem(gaussian_affinity(X_train, 8.0), 3), "frank_wolfe");
    solver->solve();
    const Matrix A = SimplicialSymNMF::apply(solver->iterate(), gaussian_cross_affinity(X_test, X_train, 8.0), 1);
    std::vector<int64_t> fitted, truth_train, applied, truth_test;
    for (std::size_t i : train) truth_train.push_back(blobs.labels[i]);
    for (std::size_t i : test) truth_test.push_back(blobs.labels[i]);
    fitted = row_argmax(solver->iterate());
    applied = row_argmax(A);
    BOOST_TEST(clustering_accuracy(fitted, truth_train) == 1.0);
    // the same cluster names as the fit: the accuracy of (fitted + applied) against the truth is 1
    std::vector<int64_t> all_labels = fitted, all_truth = truth_train;
    all_labels.insert(all_labels.end(), applied.begin(), applied.end());
    all_truth.insert(all_truth.end(), truth_test.begin(), truth_test.end());
    BOOST_TEST(clustering_accuracy(all_labels, all_truth) == 1.0);
}

BOOST_AUTO_TEST_CASE(a_new_point_joins_the_knn_graph_by_its_own_neighbours_and_scale)
{
    // one new point, its row checked entry by entry against the definition, computed here by brute force
    const Matrix X = uniform_matrix(40, 3, 12, 0.0, 1.0), Y = uniform_matrix(2, 3, 13, 0.0, 1.0);
    const KnnGraph graph = knn_graph(X, 5, Similarity::Gaussian, 4);
    BOOST_TEST(graph.S.nnz() == knn_similarity(X, 5, Similarity::Gaussian, 4).nnz());
    const CsrMatrix cross = knn_cross_similarity(Y, X, graph);
    BOOST_TEST(cross.nnz() == 2 * 5);  // k stored entries per new point
    Matrix S({2, 40}, 0.0);
    for (std::size_t l = 0; l < 2; ++l)
        for (auto e = cross.indptr[l]; e < cross.indptr[l + 1]; ++e)
            S(l, static_cast<std::size_t>(cross.indices[static_cast<std::size_t>(e)])) = cross.values[static_cast<std::size_t>(e)];
    for (std::size_t l = 0; l < 2; ++l) {
        std::vector<std::pair<double, std::size_t>> d2;
        for (std::size_t j = 0; j < 40; ++j)
            d2.push_back({xt::sum(xt::square(xt::row(Y, l) - xt::row(X, j)))(), j});
        std::sort(d2.begin(), d2.end());
        const double sy = std::sqrt(d2[3].first);  // the 4th nearest
        double degree = 0.0;
        std::vector<double> value(40, 0.0);
        for (std::size_t t = 0; t < 5; ++t) {
            const std::size_t j = d2[t].second;
            value[j] = std::exp(-d2[t].first / (sy * graph.scale[j]));
            degree += value[j];
        }
        for (std::size_t j = 0; j < 40; ++j) {
            const double want = value[j] > 0.0 ? value[j] / std::sqrt(degree * graph.degree[j]) : 0.0;
            BOOST_TEST(S(l, j) == want, boost::test_tools::tolerance(1e-12));
        }
    }
    BOOST_CHECK_THROW(knn_cross_similarity(Matrix({1, 2}, 0.0), X, graph), Error);
}

BOOST_AUTO_TEST_CASE(held_out_points_of_separated_blobs_get_their_blob_in_the_graph)
{
    // SymNMF on the kNN graph of 80% of three far blobs; the other 20% join the graph and get a row by
    // apply: every one lands in its own blob's cluster
    const Matrix centers = {{0.0, 0.0}, {10.0, 0.0}, {0.0, 10.0}};
    const LabeledPoints blobs = gaussian_blobs(150, centers, 0.7, 11);
    std::vector<std::size_t> train, test;
    for (std::size_t i = 0; i < 150; ++i) (i % 5 == 0 ? test : train).push_back(i);
    const Matrix X_train = xt::view(blobs.X, xt::keep(train), xt::all()), X_test = xt::view(blobs.X, xt::keep(test), xt::all());
    const KnnGraph graph = knn_graph(X_train, 0, Similarity::Gaussian);
    auto solver = make_solver(std::make_shared<const SymNMF>(graph.S, 3), "nolips");
    solver->solve();
    const Matrix A = SymNMF::apply(solver->iterate(), knn_cross_similarity(X_test, X_train, graph));
    std::vector<int64_t> labels = row_argmax(solver->iterate()), truth;
    for (std::size_t i : train) truth.push_back(blobs.labels[i]);
    BOOST_TEST(clustering_accuracy(labels, truth) == 1.0);
    const std::vector<int64_t> applied = row_argmax(A);
    labels.insert(labels.end(), applied.begin(), applied.end());
    for (std::size_t i : test) truth.push_back(blobs.labels[i]);
    BOOST_TEST(clustering_accuracy(labels, truth) == 1.0);
}

BOOST_AUTO_TEST_CASE(new_columns_get_their_coefficients_on_the_anchors)
{
    // noiseless separable data X = W [I, H2]: SPA finds the K anchors, the fit's "H" is the simplex least
    // squares of X on them, and apply gives the same for the fitted columns (to rounding: another GEMM
    // order) and the exact coefficients of new columns W h
    const SeparableData data = separable_dirichlet(20, 100, 4, std::numeric_limits<double>::infinity(), 5);
    auto solver = make_solver(std::make_shared<const SelfDictionary>(data.X, 4, 0.0, 1e-5), "spa");
    solver->solve();
    const std::vector<int64_t> selected = solver->output("selected").ints;
    BOOST_TEST(selected.size() == 4u);
    const Matrix W = xt::view(data.X, xt::all(), xt::keep(selected));
    const Output H = solver->output("H");  // K x N
    // the two differ only in the rounding of B = W^T x (another GEMM): eps ~ 1e-16 amplified by the
    // active set's solves with W^T W (condition number here below 1e4), on coefficients in [0, 1]; an
    // absolute 1e-10 (a relative one would fail on the coefficients that are 0 up to rounding)
    const Matrix A = SelfDictionary::apply(W, data.X, 2);  // N x K
    double largest = 0.0;
    for (std::size_t l = 0; l < 100; ++l)
        for (std::size_t k = 0; k < 4; ++k) largest = std::max(largest, std::abs(A(l, k) - H.doubles[k * 100 + l]));
    BOOST_TEST(largest < 1e-10);
    const Matrix h = simplex_rows(30, 4, 9);  // 30 new columns' coefficients
    Matrix X_new({20, 30});
    blas::gemm(false, true, 1.0, W, h, 0.0, X_new);
    BOOST_TEST(xt::amax(xt::abs(SelfDictionary::apply(W, X_new) - h))() < 1e-9);
    BOOST_CHECK_THROW(SelfDictionary::apply(W, Matrix({19, 2}, 0.1)), Error);
}

BOOST_AUTO_TEST_CASE(new_points_get_the_label_of_the_nearest_cluster_mean_in_nomads_features)
{
    // the rule in X equals the rule in NOMAD's features F = (X - mean) / largest norm (computed here with
    // the fitted points' mean and norm), and new points of three far blobs get their blob's label
    const Matrix centers = {{0.0, 0.0}, {10.0, 0.0}, {0.0, 10.0}};
    const LabeledPoints fitted = gaussian_blobs(90, centers, 0.7, 21), fresh = gaussian_blobs(30, centers, 0.7, 22);
    const std::vector<int64_t> labels = Nomad::apply_labels(fitted.X, fitted.labels, fresh.X);
    BOOST_TEST(labels == fresh.labels, boost::test_tools::per_element());
    const Matrix F = nomad_features(fitted.X);
    const Vector mean = xt::mean(fitted.X, {0});
    double largest = 0.0;
    for (std::size_t i = 0; i < 90; ++i) largest = std::max(largest, std::sqrt(xt::sum(xt::square(xt::row(fitted.X, i)))()));
    const Matrix F_new = (fresh.X - xt::view(mean, xt::newaxis(), xt::all())) / largest;
    BOOST_TEST(Nomad::apply_labels(F, fitted.labels, F_new) == labels, boost::test_tools::per_element());
    BOOST_CHECK_THROW(Nomad::apply_labels(fitted.X, {0, 1}, fresh.X), Error);
    BOOST_CHECK_THROW(Nomad::apply_labels(fitted.X, fitted.labels, Matrix({2, 3}, 0.0)), Error);
}

BOOST_AUTO_TEST_CASE(bad_input_is_refused_by_name)
{
    const Matrix W = simplex_rows(10, 2, 1);
    BOOST_CHECK_EXCEPTION(SimplicialSymNMF::apply(W, Matrix({3, 9}, 0.5)), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_DIMENSION; });
    Matrix bad({3, 10}, 0.5);
    bad(1, 4) = std::nan("");
    BOOST_CHECK_EXCEPTION(SymNMF::apply(W, bad), Error, [](const Error& e) {
        return e.status() == FACTO_ERROR_NOT_FINITE && std::string(e.what()).find("M_new") != std::string::npos;
    });
}

// ---- models: the same rules through a captured model, its feature rules, and a model rebuilt from its arrays

namespace {
struct Split {
    Matrix train, test;
    std::vector<int64_t> train_truth, test_truth;
};

// Three far blobs, every fifth point held out.
Split blob_split(std::size_t n, uint64_t seed)
{
    const Matrix centers = {{0.0, 0.0}, {10.0, 0.0}, {0.0, 10.0}};
    const LabeledPoints blobs = gaussian_blobs(static_cast<int64_t>(n), centers, 0.7, seed);
    std::vector<std::size_t> train, test;
    Split s;
    for (std::size_t i = 0; i < n; ++i) {
        (i % 5 == 0 ? test : train).push_back(i);
        (i % 5 == 0 ? s.test_truth : s.train_truth).push_back(blobs.labels[i]);
    }
    s.train = xt::view(blobs.X, xt::keep(train), xt::all());
    s.test = xt::view(blobs.X, xt::keep(test), xt::all());
    return s;
}

// The model rebuilt from its arrays, as a saved model is reloaded.
Model rebuilt(const Model& model)
{
    Model copy = empty_model(model.kind);
    for (const auto& [name, values] : model.arrays) set_array(copy, name, values);
    return copy;
}

// SymNMF on the kNN graph of the fitted points, solved, and its model with the kNN rule.
struct KnnFit {
    KnnGraph graph;
    std::unique_ptr<Solver> solver;
    Model model;
};

KnnFit knn_fit(const Matrix& X)
{
    KnnFit fit{knn_graph(X, 0, Similarity::Gaussian), nullptr, {}};
    fit.solver = make_solver(std::make_shared<const SymNMF>(fit.graph.S, 3), "nolips");
    fit.solver->solve();
    fit.model = capture_model(*fit.solver);
    use_knn_similarity(fit.model, X, 0, Similarity::Gaussian);
    return fit;
}

bool same(const Applied& a, const Applied& b)
{
    return a.rows == b.rows && a.labels == b.labels && a.residuals == b.residuals;
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_simplicial_symnmf_model_applies_the_fits_rule_to_affinities_or_features)
{
    // the model's rows are SimplicialSymNMF::apply's; with the Gaussian rule, features give the same rows
    // as their affinities made by hand with the fitted scaling (to the rounding of the two kernels' sums,
    // ~1e-15 relative on affinities in [0, 1], amplified by the simplex solve's Gram matrix: 1e-9); a
    // model rebuilt from its arrays applies bit for bit alike
    const Split s = blob_split(150, 11);
    Matrix scaled = s.train;
    const ColumnScaling scaling = column_scaling(s.train, Scaling::MinMax);
    scale_columns(scaled, scaling);
    auto solver = make_solver(make_problem(gaussian_affinity(scaled, 1.0), 3), "frank_wolfe");
    solver->solve();
    Model model = capture_model(*solver);
    BOOST_TEST(model.kind == "simplicial_symnmf");
    Matrix test = s.test;
    scale_columns(test, scaling);
    const Matrix P_new = gaussian_cross_affinity(test, scaled, 1.0);
    const Applied by_rows = apply_model(model, P_new, 1);
    BOOST_TEST(by_rows.rows == SimplicialSymNMF::apply(solver->iterate(), P_new, 1));
    BOOST_TEST(by_rows.labels == row_argmax(by_rows.rows), boost::test_tools::per_element());
    BOOST_TEST(applied_columns(model) == 3);
    // residuals: ||p_l - W w_l||^2 computed directly (the expanded form loses ~eps ||p_l||^2 to cancellation)
    Matrix reconstruction({P_new.shape()[0], P_new.shape()[1]});
    blas::gemm(false, true, 1.0, by_rows.rows, solver->iterate(), 0.0, reconstruction);
    for (std::size_t l = 0; l < P_new.shape()[0]; ++l) {
        const double direct = xt::sum(xt::square(xt::row(P_new, l) - xt::row(reconstruction, l)))();
        BOOST_TEST(std::abs(by_rows.residuals[l] - direct) <= 1e-12 * xt::sum(xt::square(xt::row(P_new, l)))());
    }
    use_gaussian_affinity(model, s.train, 1.0, Scaling::MinMax);
    const Applied by_features = apply_model(model, s.test, 1);
    BOOST_TEST(xt::amax(xt::abs(by_features.rows - by_rows.rows))() < 1e-9);
    BOOST_TEST(same(apply_model(rebuilt(model), s.test, 1), by_features));
    // the median rule (bandwidth 0): the model keeps the bandwidth it resolved to on the fitted points,
    // so features give the rows of the affinities made by hand at that bandwidth
    Model by_rule = model;
    use_gaussian_affinity(by_rule, s.train, 0.0, Scaling::MinMax);
    const double b = resolve_bandwidth(scaled, 0.0);
    BOOST_TEST(by_rule.array("rbf_settings")(0, 0) == b);
    const Matrix P_rule = gaussian_cross_affinity(test, scaled, b);
    BOOST_TEST(xt::amax(xt::abs(apply_model(by_rule, s.test, 1).rows - SimplicialSymNMF::apply(solver->iterate(), P_rule, 1)))() < 1e-9);
    std::vector<int64_t> labels = row_argmax(solver->iterate()), truth = s.train_truth;
    labels.insert(labels.end(), by_features.labels.begin(), by_features.labels.end());
    truth.insert(truth.end(), s.test_truth.begin(), s.test_truth.end());
    BOOST_TEST(clustering_accuracy(labels, truth) == 1.0);
}

BOOST_AUTO_TEST_CASE(a_symnmf_model_with_the_knn_rule_joins_new_points_to_the_fitted_graph)
{
    // features through the kNN rule give SymNMF::apply of knn_cross_similarity in the fitted graph, exactly
    const Split s = blob_split(150, 12);
    const KnnFit fit = knn_fit(s.train);
    const Applied applied = apply_model(fit.model, s.test, 1);
    BOOST_TEST(applied.rows == SymNMF::apply(fit.solver->iterate(), knn_cross_similarity(s.test, s.train, fit.graph)));
    BOOST_TEST(same(apply_model(rebuilt(fit.model), s.test, 1), applied));
    // sparse similarity rows without a rule: the same as their dense form (one product either way, to rounding)
    Model plain = capture_model(*fit.solver);
    const CsrMatrix cross = knn_cross_similarity(s.test, s.train, fit.graph);
    const Applied sparse = apply_model(plain, cross, 1);
    BOOST_TEST(sparse.rows == applied.rows);
}

BOOST_AUTO_TEST_CASE(a_knn_rule_finds_new_points_neighbours_by_the_fits_search)
{
    // the HNSW rule keeps its search in 'knn_settings' and applies as knn_cross_similarity in an HNSW graph
    // (the index built on the fitted points again, the same index); settings without the search (saved
    // before it was kept) apply as the exact search
    const Split s = blob_split(150, 14);
    const KnnFit fit = knn_fit(s.train);
    Model hnsw = fit.model;
    use_knn_similarity(hnsw, s.train, 0, Similarity::Gaussian, Scaling::None, NeighborSearch::Hnsw);
    const Matrix& settings = hnsw.array("knn_settings");
    BOOST_TEST(settings.shape()[1] == 5u);
    BOOST_TEST(settings(0, 4) == static_cast<double>(static_cast<int32_t>(NeighborSearch::Hnsw)));
    KnnGraph graph = knn_graph(s.train, 0, Similarity::Gaussian, 7, NeighborSearch::Hnsw);
    BOOST_TEST(apply_model(hnsw, s.test, 1).rows ==
               SymNMF::apply(fit.solver->iterate(), knn_cross_similarity(s.test, s.train, graph)));
    BOOST_TEST(same(apply_model(rebuilt(hnsw), s.test, 1), apply_model(hnsw, s.test, 1)));
    Model old = fit.model;
    old.arrays["knn_settings"] = xt::view(fit.model.array("knn_settings"), xt::all(), xt::range(0, 4));
    BOOST_TEST(same(apply_model(old, s.test, 1), apply_model(fit.model, s.test, 1)));
}

BOOST_AUTO_TEST_CASE(a_scaled_knn_rule_scales_new_points_by_the_fitted_columns)
{
    // with a scaling, the rule's graph is the graph of the scaled features, and new points are scaled by the
    // fitted columns' statistics (not their own) before joining it: exactly SymNMF::apply of
    // knn_cross_similarity on points scaled by hand; the contract refuses a scaling without its
    // statistics and statistics without a scaling
    Split s = blob_split(150, 13);
    for (std::size_t i = 0; i < s.train.shape()[0]; ++i) s.train(i, 1) *= 1000.0;  // unequal ranges
    for (std::size_t i = 0; i < s.test.shape()[0]; ++i) s.test(i, 1) *= 1000.0;
    const ColumnScaling scaling = column_scaling(s.train, Scaling::MinMax);
    Matrix train = s.train, test = s.test;
    scale_columns(train, scaling);
    scale_columns(test, scaling);
    const KnnFit fit = knn_fit(train);
    Model model = fit.model;
    use_knn_similarity(model, s.train, 0, Similarity::Gaussian, Scaling::MinMax);
    BOOST_TEST(model.array("knn_features") == train);
    const Applied applied = apply_model(model, s.test, 1);
    BOOST_TEST(applied.rows == SymNMF::apply(fit.solver->iterate(), knn_cross_similarity(test, train, fit.graph)));
    BOOST_TEST(same(apply_model(rebuilt(model), s.test, 1), applied));
    Model lost = model;
    lost.arrays.erase(models::kKnnScaling);
    BOOST_TEST(status_of([&] { check_model(lost); }) == FACTO_ERROR_BAD_STATE);
    Model stray = fit.model;  // the unscaled rule, its settings' scaling none
    stray.arrays[models::kKnnScaling] = model.array(models::kKnnScaling);
    BOOST_TEST(status_of([&] { check_model(stray); }) == FACTO_ERROR_BAD_STATE);
}

BOOST_AUTO_TEST_CASE(edm_positions_of_new_points_are_exact_from_exact_distances)
{
    // fitted points in general position; each new point observes 4 (r + 1 = 3 suffice) or all its squared distances:
    // g(y) has its zero at the true position, which multilateration reaches exactly on exact data and
    // Newton keeps (1e-9: the distances' rounding through the normal equations of 40 points in [0, 4])
    const Matrix X = uniform_matrix(40, 2, 31, 0.0, 4.0), Y = uniform_matrix(6, 2, 32, 0.0, 4.0);
    Model model = empty_model("edm_completion");
    set_array(model, "X", X);
    std::vector<int64_t> rows, cols;
    std::vector<double> values;
    for (std::size_t l = 0; l < 6; ++l)
        for (std::size_t j = 0; j < 40; ++j)
            if (l % 2 == 0 || j % 13 == 0) {  // odd points see 4 distances (j = 0, 13, 26, 39)
                rows.push_back(static_cast<int64_t>(l)), cols.push_back(static_cast<int64_t>(j));
                values.push_back(xt::sum(xt::square(xt::row(Y, l) - xt::row(X, j)))());
            }
    const CsrMatrix d = csr_from_triplets(6, 40, rows.data(), cols.data(), values.data(), static_cast<int64_t>(values.size()));
    const Applied applied = apply_model(model, d, 1);
    BOOST_TEST(xt::amax(xt::abs(applied.rows - Y))() < 1e-9);
    BOOST_TEST(applied.labels == std::vector<int64_t>(6, -1), boost::test_tools::per_element());
    for (double r : applied.residuals) BOOST_TEST(r < 1e-12);  // exact distances: g's zero
    // two distances do not place a point in the plane
    const int64_t few[] = {0, 0}, to[] = {0, 1};
    const double two[] = {1.0, 2.0};
    BOOST_CHECK_EXCEPTION(apply_model(model, csr_from_triplets(1, 40, few, to, two, 2), 1), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_DIMENSION; });
}

BOOST_AUTO_TEST_CASE(a_self_dictionary_model_gives_the_fits_coefficients)
{
    const SeparableData data = separable_dirichlet(20, 100, 4, std::numeric_limits<double>::infinity(), 5);
    auto solver = make_solver(std::make_shared<const SelfDictionary>(data.X, 4, 0.0, 1e-5), "spa");
    solver->solve();
    const Model model = capture_model(*solver);
    const Applied applied = apply_model(model, data.X, 1);  // the fitted columns: the fit's H (see above: 1e-10)
    const Output H = solver->output("H");
    double largest = 0.0;
    for (std::size_t l = 0; l < 100; ++l)
        for (std::size_t k = 0; k < 4; ++k) largest = std::max(largest, std::abs(applied.rows(l, k) - H.doubles[k * 100 + l]));
    BOOST_TEST(largest < 1e-10);
    BOOST_CHECK_EXCEPTION(apply_model(model, Matrix({19, 2}, 0.1), 1), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_DIMENSION; });
    // residuals: 0 (to rounding) for columns in the anchors' hull, ||x - W h||^2 for one outside it
    const Matrix& W = model.array("W");
    const Matrix h = simplex_rows(5, 4, 13);
    Matrix X_new({20, 6});
    xt::view(X_new, xt::all(), xt::range(0, 5)) = xt::linalg::dot(W, xt::transpose(h));
    xt::view(X_new, xt::all(), 5) = 2.0 * xt::col(W, 0) - xt::col(W, 1);  // outside the simplex's hull
    const Applied coefficients = apply_model(model, X_new, 1);
    const double scale = xt::sum(xt::square(W))();
    for (std::size_t l = 0; l < 5; ++l) BOOST_TEST(coefficients.residuals[l] <= 1e-12 * scale);
    const Matrix fitted = xt::linalg::dot(W, xt::transpose(xt::view(coefficients.rows, xt::range(5, 6), xt::all())));
    const double direct = xt::sum(xt::square(xt::col(X_new, 5) - xt::col(fitted, 0)))();
    BOOST_TEST(direct > 0.0);
    BOOST_TEST(std::abs(coefficients.residuals[5] - direct) <= 1e-10 * scale);
}

BOOST_AUTO_TEST_CASE(a_nomad_model_labels_new_points_by_the_nearest_mean_through_points_or_d)
{
    // three far blobs: the fitted labels are the blobs; new points get their blob's label by the means
    // of the points and by their rows of D (the same rule in D's space: the labels agree), and their
    // embedding is their cluster's mean embedding
    const Split s = blob_split(150, 21);
    const auto problem = Nomad::from_points(s.train, 3);
    auto solver = make_solver(problem, "burer_monteiro");
    solver->solve();
    Model model = capture_model(*solver);
    const std::vector<int64_t> fitted = solver->output("labels").ints;
    BOOST_TEST(clustering_accuracy(fitted, s.train_truth) == 1.0);
    // rows of D for the new points: F_new F^T with F = nomad_features of the fitted points
    const Matrix F = nomad_features(s.train);
    const Vector mean = xt::mean(s.train, {0});
    double largest = 0.0;
    for (std::size_t i = 0; i < s.train.shape()[0]; ++i)
        largest = std::max(largest, std::sqrt(xt::sum(xt::square(xt::row(s.train, i)))()));
    const Matrix F_new = (s.test - xt::view(mean, xt::newaxis(), xt::all())) / largest;
    Matrix D_new({s.test.shape()[0], s.train.shape()[0]});
    blas::gemm(false, true, 1.0, F_new, F, 0.0, D_new);
    const Applied by_d = apply_model(model, D_new, 1);
    // the same rule through use_gram on the dense D = F F^T: the same labels and distances (to rounding)
    Model from_gram = empty_model("nomad");
    set_array(from_gram, "labels", model.array("labels"));
    set_array(from_gram, "embedding", model.array("embedding"));
    Matrix D({F.shape()[0], F.shape()[0]});
    blas::gemm(false, true, 1.0, F, F, 0.0, D);
    use_gram(from_gram, D);
    const Applied by_gram = apply_model(from_gram, D_new, 1);
    BOOST_TEST(by_gram.labels == by_d.labels, boost::test_tools::per_element());
    for (std::size_t l = 0; l < by_d.labels.size(); ++l) BOOST_TEST(std::abs(by_gram.residuals[l] - by_d.residuals[l]) <= 1e-12);
    use_points(model, s.train);
    const Applied by_points = apply_model(model, s.test, 1);
    BOOST_TEST(by_d.labels == by_points.labels, boost::test_tools::per_element());
    BOOST_TEST(by_points.labels == Nomad::apply_labels(s.train, fitted, s.test), boost::test_tools::per_element());
    std::vector<int64_t> labels = fitted, truth = s.train_truth;
    labels.insert(labels.end(), by_points.labels.begin(), by_points.labels.end());
    truth.insert(truth.end(), s.test_truth.begin(), s.test_truth.end());
    BOOST_TEST(clustering_accuracy(labels, truth) == 1.0);
    const Output embedding = solver->output("embedding");
    const Matrix E = xt::adapt(embedding.doubles, std::vector<std::size_t>{static_cast<std::size_t>(embedding.spec.rows),
                                                                           static_cast<std::size_t>(embedding.spec.cols)});
    const ClusterMeans means = cluster_means(E, fitted);
    for (std::size_t l = 0; l < by_points.labels.size(); ++l) {
        const auto a = static_cast<std::size_t>(std::find(means.labels.begin(), means.labels.end(), by_points.labels[l]) -
                                                means.labels.begin());
        BOOST_TEST(Matrix(xt::view(by_points.rows, xt::range(l, l + 1), xt::all())) ==
                   Matrix(xt::view(means.means, xt::range(a, a + 1), xt::all())));
    }
    BOOST_TEST(same(apply_model(rebuilt(model), s.test, 1), by_points));
    // residuals on points: the squared distance to the cluster's mean of the fitted points (k-means' cost)
    const ClusterMeans centers = cluster_means(s.train, fitted);
    for (std::size_t l = 0; l < by_points.labels.size(); ++l) {
        const auto a = static_cast<std::size_t>(std::find(centers.labels.begin(), centers.labels.end(), by_points.labels[l]) -
                                                centers.labels.begin());
        const double direct = xt::sum(xt::square(xt::row(s.test, l) - xt::row(centers.means, a)))();
        BOOST_TEST(std::abs(by_points.residuals[l] - direct) <= 1e-12 * (1.0 + direct));
    }
}

BOOST_AUTO_TEST_CASE(models_refuse_what_they_cannot_apply)
{
    BOOST_CHECK_EXCEPTION(empty_model("nonsense"), Error, [](const Error& e) { return e.status() == FACTO_ERROR_INVALID_ARGUMENT; });
    Model model = empty_model("symnmf");
    BOOST_CHECK_EXCEPTION(set_array(model, "W", Matrix({2, 2}, 1.0)), Error, [](const Error& e) {
        return e.status() == FACTO_ERROR_UNKNOWN_PARAMETER && std::string(e.what()).find("H") != std::string::npos;
    });
    BOOST_CHECK_EXCEPTION(apply_model(model, Matrix({1, 2}, 0.0), 1), Error,  // no factor yet
                          [](const Error& e) { return e.status() == FACTO_ERROR_BAD_STATE; });
    set_array(model, "H", simplex_rows(10, 2, 3));
    BOOST_CHECK_EXCEPTION(apply_model(model, Matrix({3, 9}, 0.5), 1), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_DIMENSION; });
    Matrix nan({3, 10}, 0.5);
    nan(2, 2) = std::nan("");
    BOOST_CHECK_EXCEPTION(apply_model(model, nan, 1), Error, [](const Error& e) { return e.status() == FACTO_ERROR_NOT_FINITE; });
    BOOST_CHECK_EXCEPTION(set_array(model, "H", nan), Error, [](const Error& e) { return e.status() == FACTO_ERROR_NOT_FINITE; });
    // a rule's features must be of the fitted points; arrays that disagree are named
    BOOST_CHECK_EXCEPTION(use_gaussian_affinity(model, Matrix({9, 2}, 0.0), 1.0, Scaling::None), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_DIMENSION; });
    set_array(model, "rbf_features", Matrix({9, 2}, 0.0));
    BOOST_CHECK_EXCEPTION(apply_model(model, Matrix({1, 2}, 0.0), 1), Error, [](const Error& e) {
        return e.status() == FACTO_ERROR_BAD_STATE && std::string(e.what()).find("rbf_features") != std::string::npos;
    });
    Model nomad = empty_model("nomad");
    BOOST_CHECK_THROW(use_points(nomad, Matrix({3, 2}, 0.0)), Error);  // no labels to take means by
}

BOOST_AUTO_TEST_CASE(a_saved_model_loads_back_and_applies_identically)
{
    // every array through .npy and back is the same bits, so the reloaded model applies bit for bit alike;
    // the settings come back verbatim; what is not a saved model is refused by name
    const Split s = blob_split(60, 41);
    const Model model = knn_fit(s.train).model;
    const std::string directory = "facto_test_model_dir";
    save_model(model, directory, "{\"solver\": \"nolips\", \"k\": 3}");
    const Model loaded = load_model(directory);
    BOOST_TEST(loaded.kind == "symnmf");
    BOOST_TEST(loaded.settings == "{\"solver\": \"nolips\", \"k\": 3}");
    BOOST_TEST(loaded.arrays.size() == model.arrays.size());
    for (const auto& [name, values] : model.arrays) BOOST_TEST(loaded.array(name) == values);
    BOOST_TEST(same(apply_model(loaded, s.test, 1), apply_model(model, s.test, 1)));
    BOOST_CHECK_EXCEPTION(save_model(model, directory, "[1, 2]"), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_INVALID_ARGUMENT; });
    BOOST_CHECK_EXCEPTION(load_model("facto_test_no_such_model"), Error, [](const Error& e) {
        return e.status() == FACTO_ERROR_IO && std::string(e.what()).find("model.json") != std::string::npos;
    });
    {
        std::ofstream json(directory + "/model.json");
        json << "{\"format\": \"something else\", \"kind\": \"symnmf\", \"arrays\": [\"H\"]}";
    }
    BOOST_CHECK_EXCEPTION(load_model(directory), Error, [](const Error& e) { return e.status() == FACTO_ERROR_PARSE; });
    std::filesystem::remove_all(directory);
}

BOOST_AUTO_TEST_SUITE_END()
