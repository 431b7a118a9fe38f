"""The workflow around a fit: new data through the fitted model (predict, transform, score), restarts
(n_init), choosing k (select_k), saved models, progress (verbose), Ctrl-C's partial fit, sparse
features, parameter validation, and scikit-learn's model selection on top."""
import os
import pickle
import signal
import threading

import numpy as np
import pytest

import facto
from test_facto import DATA, _planted_corpus, blobs  # noqa: F401 (blobs is a fixture)

scipy_sparse = pytest.importorskip("scipy.sparse")

CLUSTERERS = [
    lambda: facto.SimplicialSymNMF(n_clusters=3, bandwidth=4.0, scaling="none"),
    lambda: facto.SymNMFClustering(n_clusters=3),
    lambda: facto.SymNMFClustering(n_clusters=3, affinity="rbf", bandwidth=4.0, scaling="none"),
    lambda: facto.NOMADClustering(n_clusters=3, solver="burer_monteiro"),  # the default's admm: seconds a fit
]


def _split(X, y):
    test = np.arange(X.shape[0]) % 5 == 0
    return X[~test], y[~test], X[test], y[test]


@pytest.mark.parametrize("make", CLUSTERERS)
def test_held_out_points_get_their_blob_and_the_fitted_points_their_own_labels(blobs, make):
    X, y = blobs
    X_train, y_train, X_test, y_test = _split(X, y)
    estimator = make().fit(X_train)
    assert facto.clustering_accuracy(estimator.labels_, y_train) == 1.0
    predicted = estimator.predict(X_test)
    # the same cluster names as the fit: the accuracy over fitted and new points together is 1
    both = np.concatenate([estimator.labels_, predicted])
    assert facto.clustering_accuracy(both, np.concatenate([y_train, y_test])) == 1.0
    assert estimator.transform(X_test).shape[0] == X_test.shape[0]
    assert np.isfinite(estimator.score(X_test)) and estimator.score(X_test) <= 0.0
    with pytest.raises(ValueError, match="features"):
        estimator.predict(X_test[:, :2])


def test_the_simplicial_model_gives_the_fitted_points_their_rows(blobs):
    # at a stationary W the least squares rule gives back W's rows; the Frank-Wolfe gap at the tolerance
    # (1e-6 relative by default) bounds the distance: 1e-3 covers it on these 90 points
    X, _ = blobs
    estimator = facto.SimplicialSymNMF(n_clusters=3, bandwidth=4.0, scaling="none").fit(X)
    assert np.max(np.abs(estimator.transform(X) - estimator.membership_)) < 1e-3
    np.testing.assert_array_equal(estimator.predict(X), estimator.labels_)


def test_nomad_predicts_by_the_nearest_center_and_embeds_in_k_minus_one_dimensions(blobs):
    X, y = blobs
    estimator = facto.NOMADClustering(n_clusters=3).fit(X)
    assert estimator.embedding_.shape == (X.shape[0], 2)
    assert estimator.cluster_centers_.shape == (3, X.shape[1])
    distances = ((X[:, None, :] - estimator.cluster_centers_[None]) ** 2).sum(-1)
    np.testing.assert_array_equal(estimator.predict(X), np.argmin(distances, axis=1))
    # score is minus k-means' inertia of the fitted labels (KMeans.score's convention)
    assert estimator.score(X) == pytest.approx(-distances.min(axis=1).sum(), rel=1e-12)
    D = facto.nomad_gram(X)
    on_d = facto.NOMADClustering(n_clusters=3, affinity="precomputed").fit(D)
    np.testing.assert_array_equal(on_d.predict(D), on_d.labels_)


def test_n_init_one_is_a_plain_fit_and_more_starts_never_do_worse(blobs):
    X, _ = blobs
    plain = facto.SeparableNMF(n_components=3, solver="merit", random_state=5, max_iter=30).fit(X)
    once = facto.SeparableNMF(n_components=3, solver="merit", random_state=5, max_iter=30, n_init=1).fit(X)
    np.testing.assert_array_equal(plain.weights_, once.weights_)
    singles = [facto.SymNMFClustering(n_clusters=4, random_state=5 + r, n_init=1).fit(X) for r in range(5)]
    # SymNMFClustering's default is five starts: the lowest of the five single starts' objectives
    best = facto.SymNMFClustering(n_clusters=4, random_state=5).fit(X)
    assert best.n_init == 5 and best.objective_ == min(single.objective_ for single in singles)
    np.testing.assert_array_equal(best.embedding_, min(singles, key=lambda single: single.objective_).embedding_)
    # maximized; burer_monteiro, whose starts differ (the default's admm ends at one optimum from any)
    nomad = facto.NOMADClustering(n_clusters=4, solver="burer_monteiro", random_state=5, n_init=3).fit(X)
    assert nomad.objective_ == max(facto.NOMADClustering(n_clusters=4, solver="burer_monteiro",
                                                         random_state=5 + r).fit(X).objective_ for r in range(3))


def test_consensus_of_identical_restarts_is_perfectly_stable():
    labels = np.array([[0, 0, 1, 1, 2, 2]] * 4)
    C, cophenetic, dispersion = facto.consensus(labels)
    assert cophenetic == pytest.approx(1.0) and dispersion == pytest.approx(1.0)
    np.testing.assert_array_equal(C, (labels[0][:, None] == labels[0][None]).astype(float))


def test_the_cophenetic_correlation_is_scipys():
    hierarchy = pytest.importorskip("scipy.cluster.hierarchy")
    from scipy.spatial.distance import squareform
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 3, size=(7, 40))
    C, cophenetic, dispersion = facto.consensus(labels)
    distances = squareform(1.0 - C, checks=False)
    expected, _ = hierarchy.cophenet(hierarchy.linkage(distances, "average"), distances)
    assert cophenetic == pytest.approx(expected, abs=1e-12)
    assert dispersion == pytest.approx(np.mean(4.0 * (C - 0.5) ** 2), rel=1e-12)


@pytest.mark.long
def test_select_k_finds_the_blobs(blobs):
    # three far blobs: restarts agree at k = 2 and 3 and split differently beyond (the dispersion drops
    # after 3), and the objective's largest improvement ends at 3
    X, _ = blobs
    # (burer_monteiro: restarts of the default, the certified SDP optimum, agree at every k)
    for estimator in (facto.SymNMFClustering(), facto.NOMADClustering(solver="burer_monteiro")):
        table = facto.select_k(estimator, X, [2, 3, 4, 5], n_init=6)
        assert list(table.table["k"]) == [2, 3, 4, 5]
        assert table.table["dispersion"][1] == pytest.approx(1.0) and table.table["cophenetic"][1] == pytest.approx(1.0)
        assert table.best("dispersion") == 3 and table.best("objective") == 3, table
        assert "cophenetic" in repr(table)
    # identical restarts at every k: no stability evidence, the objective's elbow still at 3
    flat = facto.select_k(facto.SimplicialSymNMF(bandwidth=4.0, scaling="none"), X, [2, 3, 4], n_init=2)
    assert flat.best("objective") == 3
    counts = _planted_corpus()[0]
    counts = scipy_sparse.csr_matrix((counts.data, counts.indices, counts.indptr), shape=counts.shape)
    topics = facto.select_k(facto.AnchorTopicModel(solver="spa", min_df=1), counts, [2, 3], n_init=2)
    assert "coherence" in topics.table
    assert topics.best("dispersion") is None  # SPA is deterministic: every restart agrees


@pytest.mark.long
def test_plots_are_drawn_with_matplotlib(blobs):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    X, _ = blobs
    axes = facto.select_k(facto.NOMADClustering(solver="burer_monteiro"), X, [2, 3], n_init=2).plot()
    assert len(axes) == 3 and axes[1].get_title() == "cophenetic"


@pytest.mark.long
def test_grid_search_scores_are_finite_with_and_without_scoring(blobs):
    pytest.importorskip("sklearn")
    from sklearn.model_selection import GridSearchCV
    X, y = blobs
    search = GridSearchCV(facto.SimplicialSymNMF(bandwidth=4.0, scaling="none"), {"n_clusters": [2, 3, 4]},
                          scoring="adjusted_rand_score", cv=3).fit(X, y)
    assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))
    assert search.best_params_ == {"n_clusters": 3}
    plain = GridSearchCV(facto.NOMADClustering(solver="burer_monteiro"), {"n_clusters": [2, 3]}, cv=3).fit(X)
    assert np.all(np.isfinite(plain.cv_results_["mean_test_score"]))


def test_a_saved_model_applies_like_the_estimator_after_pickle_and_reload(blobs, tmp_path):
    X, _ = blobs
    estimator = facto.SymNMFClustering(n_clusters=3).fit(X)
    expected = estimator.predict(X)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(estimator)).predict(X), expected)
    estimator.save_model(tmp_path / "model")
    with facto.Model.load(tmp_path / "model") as model:
        assert model.kind == "symnmf" and '"estimator": "SymNMFClustering"' in model.settings
        applied = model.apply(X)
    np.testing.assert_array_equal(applied.labels, expected)
    with pytest.raises(facto.NotFittedError):
        facto.SymNMFClustering().predict(X)


def test_a_model_says_it_holds_the_training_points_and_saves_without_them(blobs, tmp_path):
    X, _ = blobs
    estimator = facto.SymNMFClustering(n_clusters=3).fit(X)
    estimator.save_model(tmp_path / "full")
    estimator.save_model(tmp_path / "bare", training_features=False)
    with facto.Model.load(tmp_path / "full") as full, facto.Model.load(tmp_path / "bare") as bare:
        described = full.describe()
        assert described["training_features"] and described["columns"] == 3
        copies = {a["name"]: (a["rows"], a["cols"]) for a in described["arrays"] if a["training_features"]}
        assert copies == {"knn_features": X.shape}
        assert bare.describe()["training_features"] is False and list(bare.arrays) == ["H"]
        with pytest.raises(facto.FactoError, match="fitted points"):
            bare.apply(X)  # features, which only the rule left out could place
        assert bare.apply(np.eye(X.shape[0])[:2]).rows.shape == (2, 3)  # rows of affinities to the fitted points
    assert (tmp_path / "full" / "knn_features.npy").exists() and not (tmp_path / "bare" / "knn_features.npy").exists()


def test_topics_of_new_documents_and_unknown_ones(tmp_path):
    counts, labels = _planted_corpus()
    model = facto.AnchorTopicModel(n_components=3, solver="spa", min_df=1).fit(counts.toarray())
    proportions = model.transform(counts.toarray())
    np.testing.assert_allclose(proportions, model.fit_transform(counts.toarray()), atol=1e-12)
    assert facto.clustering_accuracy(model.predict(counts.toarray()), labels) == 1.0
    np.testing.assert_allclose(model.inverse_transform(proportions).sum(axis=1), 1.0)
    empty = np.zeros((1, counts.shape[1]))
    assert model.predict(empty)[0] == -1 and not model.transform(empty).any()
    assert model.top_terms_.shape == (3, 9)
    with facto.Problem.topics(counts, 3, 1) as problem, facto.Solver(problem, "spa") as solver:
        solver.solve()
        paper = float(np.ravel(solver.output("coherence"))[0])
    assert model.coherence_ == pytest.approx(paper / 2.0)  # each pair once; the paper's tables count it twice


def test_separable_nmf_transforms_new_samples_and_back():
    X, anchors = facto.separable_data(20, 60, 4, seed=3)  # one point per column
    estimator = facto.SeparableNMF(n_components=4, solver="spa").fit(X.T)
    H = estimator.transform(X.T)
    np.testing.assert_allclose(H, estimator.weights_, atol=1e-10)
    np.testing.assert_allclose(estimator.inverse_transform(H), X.T, atol=0.5 * np.abs(X).max())


def test_edm_positions_of_held_out_points_from_their_distances():
    points = facto.helix(120, seed=2)
    fitted, fresh = points[:100], points[100:]
    estimator = facto.EDMCompletion(n_components=3, metric="euclidean").fit(fitted)
    assert facto.distance_nrmse(estimator.embedding_, fitted) < 1e-3
    placed = estimator.transform(fresh)
    both = np.vstack([estimator.embedding_, placed])
    # the new points sit where their distances put them: the joint distance error stays at the fit's
    assert facto.distance_nrmse(both, points) < 1e-3


def test_verbose_prints_progress(blobs, capsys):
    X, _ = blobs
    facto.SimplicialSymNMF(n_clusters=3, bandwidth=4.0, scaling="none", verbose=1).fit(X)
    out = capsys.readouterr().out
    assert "[SimplicialSymNMF] iteration 10: objective" in out and "CONVERGED after" in out


def test_ctrl_c_keeps_the_partial_fit():
    X, _ = facto.manifold_points("two_rings", 300, 0.5, 0.02, seed=1)
    estimator = facto.NOMADClustering(n_clusters=16, affinity="precomputed", solver="nomad_cgm", tol=0.0,
                                      max_iter=10**9, certify=False,
                                      solver_params={"feasibility_tolerance": 0.0, "objective_tolerance": 0.0,
                                                     "time_limit": 60})
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt, match="partial fit"):
        estimator.fit(facto.nomad_gram(X))
    timer.join()
    assert estimator.interrupted_ and estimator.stop_reason_ == "STOPPED_BY_REQUEST"
    assert estimator.labels_.shape == (300,) and estimator.n_iter_ >= 1
    assert estimator.predict(facto.nomad_gram(X)[:5]).shape == (5,)


def test_sparse_features_are_accepted_where_the_affinity_is_built_from_them(blobs):
    X, y = blobs
    dense = facto.SymNMFClustering(n_clusters=3).fit(X)
    sparse = facto.SymNMFClustering(n_clusters=3).fit(scipy_sparse.csr_matrix(X))
    np.testing.assert_array_equal(sparse.embedding_, dense.embedding_)
    np.testing.assert_array_equal(sparse.predict(scipy_sparse.csr_matrix(X[:5])), dense.predict(X[:5]))


@pytest.mark.parametrize("estimator", [
    facto.SimplicialSymNMF(n_clusters=2.7), facto.SimplicialSymNMF(n_clusters="3"),
    facto.SymNMFClustering(random_state=2**70), facto.SymNMFClustering(random_state="abc"),
    facto.NOMADClustering(None), facto.SymNMFClustering(similarity="bogus"), facto.SymNMFClustering(solver="no_such_algorithm"),
    facto.SimplicialSymNMF(n_init=0), facto.SeparableNMF(n_components=True), facto.EDMCompletion(metric="cosine"),
])
def test_bad_parameters_are_refused_by_name(blobs, estimator):
    with pytest.raises(facto.InvalidParameterError, match="parameter of"):
        estimator.fit(blobs[0])


def test_two_points_fit_without_naming_an_unset_k(blobs):
    estimator = facto.SymNMFClustering(2).fit(blobs[0][:2])
    assert estimator.labels_.shape == (2,)


def test_communities_and_topics_functions_carry_their_model():
    A = facto.read_matrix_market(DATA / "planted_graph.mtx.gz")
    found = facto.detect_communities(A, 3, solver="spa", energy=1.0)
    with found.model as model:
        applied = model.apply(A)
    np.testing.assert_array_equal(applied.labels, found.labels)
    np.testing.assert_allclose(applied.rows, found.memberships, atol=1e-8)  # the Nystrom rows: V's up to its residual
    counts, _ = _planted_corpus()
    topics = facto.topic_model(counts, 3, solver="spa", min_df=1)
    np.testing.assert_array_equal(topics.model.apply(counts).labels, topics.labels)
