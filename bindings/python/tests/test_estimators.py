"""Tests of the scikit-learn style estimators: each recovers planted structure, follows scikit-learn's
conventions (its own check_estimator when scikit-learn is installed, Pipeline, GridSearchCV, clone,
pickle), works without scikit-learn, and Ctrl-C stops a solve cleanly."""
import os
import pickle
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest

import facto
from test_facto import DATA, _planted_corpus, blobs  # noqa: F401 (blobs is a fixture)

scipy_sparse = pytest.importorskip("scipy.sparse")


def _csr(counts):
    return scipy_sparse.csr_matrix((counts.data, counts.indices, counts.indptr), shape=counts.shape)


@pytest.mark.long
def test_the_clusterers_recover_the_blobs(blobs):
    X, y = blobs
    for estimator in (facto.SimplicialSymNMF(n_clusters=3, bandwidth=4.0, scaling="none", random_state=1),
                      facto.SymNMFClustering(n_clusters=3, random_state=1),
                      facto.SymNMFClustering(n_clusters=3, affinity="rbf", bandwidth=4.0, scaling="none"),
                      facto.NOMADClustering(n_clusters=3),
                      facto.NOMADClustering(n_clusters=3, solver="nomad_admm", assign_labels="components")):
        labels = estimator.fit_predict(X)
        assert facto.clustering_accuracy(labels, y) == 1.0, estimator
        assert estimator.n_features_in_ == X.shape[1]
        assert estimator.n_iter_ >= 1 and estimator.stop_reason_ == "CONVERGED", estimator


def test_a_sparse_precomputed_affinity_stays_sparse_and_agrees_with_the_dense_one(blobs):
    X, y = blobs
    graph = facto.knn_similarity(X)
    M = scipy_sparse.csr_matrix((graph.data, graph.indices, graph.indptr), shape=graph.shape)
    sparse = facto.SymNMFClustering(n_clusters=3, affinity="precomputed", random_state=2).fit(M)
    dense = facto.SymNMFClustering(n_clusters=3, affinity="precomputed", random_state=2).fit(M.toarray())
    assert facto.clustering_accuracy(sparse.labels_, y) == 1.0
    assert sparse.objective_ == pytest.approx(dense.objective_, rel=1e-9)
    with pytest.raises(ValueError, match="square"):
        facto.SymNMFClustering(affinity="precomputed").fit(M[:, :50])


@pytest.mark.long
def test_nomad_clustering_on_d_reports_a_bound_above_its_objective(blobs):
    X, y = blobs
    D = facto.nomad_gram(X)
    model = facto.NOMADClustering(n_clusters=3, affinity="precomputed", solver="nomad_admm").fit(D)
    assert model.solver_ == "nomad_admm" and model.Q_.shape == (90, 90)
    # the gap nomad_admm converged on (its tolerance 1e-5; Q is feasible to 1e-5, so Tr(D Q) may pass the bound)
    assert abs(model.upper_bound_ - model.objective_) / model.upper_bound_ <= 1e-5
    assert facto.clustering_accuracy(model.labels_, y) == 1.0


def test_separable_nmf_finds_the_anchor_samples():
    X, anchors = facto.separable_data(20, 60, 4, seed=3)  # one point per column
    model = facto.SeparableNMF(n_components=4)
    W = model.fit_transform(X.T)  # one sample per row
    assert list(model.anchors_) == list(anchors)
    assert np.allclose(model.components_, X.T[anchors])
    assert W.shape == (60, 4) and np.allclose(W.sum(axis=1), 1.0) and np.all(W >= -1e-12)
    assert np.allclose(W @ model.components_, X.T, atol=1e-6)


def test_separable_nmf_keeps_scipy_sparse_samples_sparse():
    # documents of 4 topics (each topic's own 10 of 40 terms, each document a mix of two topics: 25-50%
    # of the entries stored), the anchors among them: scipy.sparse gives the dense samples' anchors and
    # weights to rounding with every solver that takes sparse points; merit, which would make them dense,
    # is refused
    scipy_sparse = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(4)
    topics = np.zeros((4, 40))
    for t in range(4):
        topics[t, 10 * t:10 * t + 10] = rng.random(10) + 0.5
    weights = np.zeros((80, 4))
    weights[:4] = np.eye(4)
    mix = rng.random(76)
    weights[np.arange(4, 80), np.arange(76) % 4] = mix
    weights[np.arange(4, 80), (np.arange(76) + 1) % 4] += 1.0 - mix
    dense = weights @ topics
    sparse = scipy_sparse.csr_matrix(dense)
    for solver in ("snpa", "spa", "fast_anchor"):
        by_dense = facto.SeparableNMF(4, solver=solver).fit(dense)
        by_sparse = facto.SeparableNMF(4, solver=solver).fit(sparse)
        assert list(by_sparse.anchors_) == list(by_dense.anchors_) == [0, 1, 2, 3]
        assert isinstance(by_sparse.components_, np.ndarray) and np.allclose(by_sparse.components_, dense[:4])
        assert np.allclose(by_sparse.weights_, by_dense.weights_, atol=1e-10)
        assert np.allclose(by_sparse.transform(sparse[10:20]), by_dense.transform(dense[10:20]), atol=1e-10)
    with pytest.raises(facto.FactoError, match="on sparse X take spa"):
        facto.SeparableNMF(4, solver="merit").fit(sparse)


def test_the_topic_model_takes_scipy_counts():
    counts, labels = _planted_corpus()
    model = facto.AnchorTopicModel(n_components=3, min_df=1)
    proportions = model.fit_transform(_csr(counts))
    assert list(model.anchors_) == [0, 1, 2]
    assert model.components_.shape == (3, 9) and np.allclose(model.components_.sum(axis=1), 1.0)
    assert facto.clustering_accuracy(model.labels_, labels) == 1.0
    assert np.allclose(proportions[np.arange(60), labels], 1.0)
    with pytest.raises(ValueError, match="nonnegative"):
        model.fit(-_csr(counts))


def test_edm_completion_from_observed_pairs_recovers_the_helix():
    points = facto.helix(200, seed=3)
    i, j, d = facto.sample_pairs(points, 0.2, seed=4)
    distances = scipy_sparse.coo_matrix((np.sqrt(d), (i, j)), shape=(200, 200))
    model = facto.EDMCompletion(n_components=3, max_iter=20000, tol=1e-9).fit(distances)
    assert model.n_pairs_ == i.size
    assert facto.distance_nrmse(model.embedding_, points) < 1e-6
    dense = np.full((200, 200), np.nan)  # NaN: not observed
    dense[i, j] = dense[j, i] = d
    squared = facto.EDMCompletion(n_components=3, squared=True, max_iter=20000, tol=1e-9).fit(dense)
    assert squared.n_pairs_ == i.size and np.allclose(squared.embedding_, model.embedding_)
    every = facto.EDMCompletion(n_components=3, metric="euclidean", max_iter=20000, tol=1e-9).fit(points)
    assert every.n_pairs_ == 200 * 199 // 2 and facto.distance_nrmse(every.embedding_, points) < 1e-6
    # sparse rows stay sparse: their distances from inner products, the same pairs to rounding, and the
    # fitted and new points the dense rows' to the solver's tolerance (distances compared: no frame)
    rows = np.zeros((200, 40))
    rows[:, [3, 17, 29]] = points
    of_sparse = facto.EDMCompletion(n_components=3, metric="euclidean", max_iter=20000, tol=1e-9).fit(
        scipy_sparse.csr_matrix(rows))
    assert facto.distance_nrmse(of_sparse.embedding_, points) < 1e-6
    of_dense = facto.EDMCompletion(n_components=3, metric="euclidean", max_iter=20000, tol=1e-9).fit(rows)
    new = rows[:6] + 0.01 * (rows[:6] != 0)
    assert facto.distance_nrmse(np.vstack([of_sparse.embedding_, of_sparse.transform(scipy_sparse.csr_matrix(new))]),
                                np.vstack([of_dense.embedding_, of_dense.transform(new)])) < 1e-6
    with pytest.raises(ValueError, match="nonnegative"):
        facto.EDMCompletion().fit(-distances)
    conflicting = scipy_sparse.coo_matrix(([1.0, 2.0], ([0, 1], [1, 0])), shape=(3, 3))  # d(0, 1) twice
    for form in (conflicting, conflicting.tocsr(), conflicting.toarray()):
        with pytest.raises(ValueError, match="two distances"):
            facto.EDMCompletion().fit(form)


def test_parameters_are_stored_unchanged_and_fitted_estimators_pickle(blobs):
    X, _ = blobs
    settings = {"variant": "vanilla"}
    model = facto.SimplicialSymNMF(n_clusters=3, bandwidth=4.0, scaling="none", solver_params=settings)
    assert model.get_params()["solver_params"] is settings
    model.set_params(max_iter=50, tol=1e-3)
    assert model.max_iter == 50 and model.solver_params == {"variant": "vanilla"}
    with pytest.raises(ValueError):
        model.set_params(no_such_parameter=1)
    model.fit(X)
    assert settings == {"variant": "vanilla"}
    copy = pickle.loads(pickle.dumps(model))
    assert np.array_equal(copy.labels_, model.labels_) and copy.stop_reason_ == model.stop_reason_
    again = facto.SimplicialSymNMF(**model.get_params()).fit(X)  # same parameters, same seed: same answer
    assert np.array_equal(again.membership_, model.membership_)


def test_the_estimators_work_without_scikit_learn(blobs):
    # a fresh interpreter in which importing sklearn fails
    code = """
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name == "sklearn" or name.startswith("sklearn."):
            raise ImportError("no sklearn here")
sys.meta_path.insert(0, Refuse())
import numpy as np, facto
assert not facto._base.HAVE_SKLEARN
X = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
model = facto.NOMADClustering(n_clusters=3)
labels = model.fit_predict(X)
assert model.get_params()["n_clusters"] == 3 and model.set_params(n_clusters=2) is model
assert len(set(labels.tolist())) == 3 and model.n_features_in_ == X.shape[1]
try:
    facto.SeparableNMF().fit(np.zeros((1, 3)))
except ValueError as e:
    assert "1 sample" in str(e)
else:
    raise AssertionError("one sample was accepted")
print(repr(model))
"""
    result = subprocess.run([sys.executable, "-c", code, str(DATA / "blobs.csv")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("NOMADClustering(")


def test_ctrl_c_stops_a_long_solve_cleanly():
    # nomad_cgm with every tolerance 0 on two rings, n = 300: ~15 ms per iteration, for hours
    X, _ = facto.manifold_points("two_rings", 300, 0.5, 0.02, seed=1)
    with facto.Problem.nomad(facto.nomad_gram(X), 16) as problem, \
            facto.Solver(problem, "nomad_cgm", tolerance=0.0, feasibility_tolerance=0.0, objective_tolerance=0.0,
                         max_iterations=10**9, time_limit=60) as solver:  # a failure ends, it does not hang
        for callback in (None, lambda progress: False):  # the helper thread's path, and the callback's
            solver.set_callback(callback)
            before = solver.progress.iteration
            timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
            timer.start()
            with pytest.raises(KeyboardInterrupt, match="stopped at iteration"):
                solver.solve()
            timer.join()
            assert solver.progress.stop_reason == facto.StopReason.STOPPED_BY_REQUEST
            assert solver.progress.iteration > before
            assert np.all(np.isfinite(solver.iterate))
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        solver.params["max_iterations"] = solver.progress.iteration + 5  # it can go on, and no request lingers
        assert solver.solve() == facto.StopReason.ITERATION_LIMIT


sklearn = pytest.importorskip("sklearn")
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

# scikit-learn's checks test the estimator conventions, not convergence: as scikit-learn does for its own
# iterative estimators, the slowest to converge on the checks' small random data run with fewer iterations,
# and NOMAD with burer_monteiro (the default's certified nomad_admm takes seconds per fit at their sizes)
ESTIMATORS = [facto.SimplicialSymNMF(), facto.SimplicialSymNMF(affinity="precomputed"), facto.SymNMFClustering(),
              facto.SymNMFClustering(affinity="precomputed"), facto.NOMADClustering(solver="burer_monteiro"),
              facto.NOMADClustering(affinity="precomputed", solver="burer_monteiro"), facto.SeparableNMF(max_iter=20), facto.AnchorTopicModel(),
              facto.EDMCompletion(max_iter=100), facto.EDMCompletion(metric="euclidean", max_iter=100)]


@parametrize_with_checks(ESTIMATORS)
def test_scikit_learn_check_estimator(estimator, check):
    check(estimator)


def test_pipeline_and_grid_search(blobs):
    from sklearn.metrics import adjusted_rand_score
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = blobs
    pipeline = make_pipeline(StandardScaler(), facto.SymNMFClustering(n_clusters=3, random_state=0))
    assert facto.clustering_accuracy(pipeline.fit_predict(X), y) == 1.0
    everything = np.arange(X.shape[0])

    def agreement(estimator, X_, y_):
        return adjusted_rand_score(y_, estimator.labels_)

    search = GridSearchCV(facto.NOMADClustering(solver="burer_monteiro"), {"n_clusters": [2, 3, 4]},
                          scoring=agreement, cv=[(everything, everything)]).fit(X, y)
    assert search.best_params_ == {"n_clusters": 3}
    assert search.best_score_ == pytest.approx(1.0)
