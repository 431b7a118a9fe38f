"""Tests of the Python binding: native arrays in and out, parameters, stepping, callbacks, errors,
handle lifetimes, the estimator, and the cross-language fixture."""
import gc
import os
import pathlib
import threading

import numpy as np
import pytest

import facto

DATA = pathlib.Path(__file__).resolve().parents[3] / "tests" / "data"


@pytest.fixture
def blobs():
    X = np.loadtxt(DATA / "blobs.csv", delimiter=",", skiprows=1)
    y = np.loadtxt(DATA / "blobs_labels.csv").astype(np.int64)
    return X, y


@pytest.fixture
def affinity(blobs):
    return facto.gaussian_affinity(blobs[0], bandwidth=4.0, scaling="none")


def test_problem_from_either_memory_order_gives_the_same_objective(affinity):
    W = np.full((affinity.shape[0], 3), 1.0 / 3)
    with facto.Problem.simplicial_symnmf(affinity, 3) as c_order, \
            facto.Problem.simplicial_symnmf(np.asfortranarray(affinity), 3) as f_order:
        assert c_order.kind == "simplicial_symnmf"
        assert c_order.iterate_shape == (90, 3)
        dense = 0.25 * np.linalg.norm(affinity - W @ W.T) ** 2
        assert c_order.objective(W) == pytest.approx(dense, rel=1e-12)
        assert f_order.objective(np.asfortranarray(W)) == c_order.objective(W)


def test_parameters_by_name(affinity):
    with facto.Problem.simplicial_symnmf(affinity, 3) as problem, facto.Solver(problem, tolerance=1e-9) as s:
        assert s.params["tolerance"] == 1e-9
        s.params["max_iterations"] = 25
        s.params["step_rule"] = "line_search"
        assert s.params["max_iterations"] == 25 and isinstance(s.params["max_iterations"], int)
        assert s.params["step_rule"] == "line_search"
        info = {p.name: p for p in s.param_info()}
        assert info["step_rule"].choices == ["auto", "open_loop", "line_search", "curvature"]
        assert info["max_iterations"].type == "int" and info["max_iterations"].lower == 0
        s.params.reset()
        assert s.params["step_rule"] == "auto"


def test_the_registry_lists_each_kinds_algorithms_with_one_default_first(affinity):
    table = facto.algorithms()
    assert list(table) == facto.problem_kinds() and "nomad" in table
    for kind, listed in table.items():
        assert [a.is_default for a in listed] == [True] + [False] * (len(listed) - 1), kind
        assert len({a.name for a in listed}) == len(listed) and all(a.description for a in listed)
        assert facto.default_algorithm(kind) == listed[0].name
    with facto.Problem.simplicial_symnmf(affinity, 3) as problem:
        with facto.Solver(problem) as s:  # no algorithm: the kind's default
            assert s.algorithm == facto.default_algorithm("simplicial_symnmf")
        for a in facto.algorithms(problem.kind):
            with facto.Solver(problem, a.name) as s:
                assert s.algorithm == a.name
    with pytest.raises(facto.FactoValueError, match="simplicial_symnmf"):
        facto.algorithms("no_such_kind")


def test_problem_parameters_default_to_the_librarys_table():
    """A parameter left at None is the library's default: the problem built so has the objective of the one
    built with the table's defaults given, and another value changes it; the table refuses a bad value."""
    table = {p.name: p for p in facto.problem_params("self_dictionary")}
    assert set(table) == {"lambda", "mu"} and all(p.description for p in table.values())
    assert facto.problem_params("symnmf") == []
    X, _ = facto.separable_data(8, 12, 3, snr_db=30, seed=2)
    C = np.eye(12)  # at a constant C, Phi_mu is 1 whatever mu
    with facto.Problem.self_dictionary(X, 3) as chosen, \
            facto.Problem.self_dictionary(X, 3, table["lambda"].default, table["mu"].default) as given, \
            facto.Problem.self_dictionary(X, 3, mu=1e-2) as other:
        assert chosen.objective(C) == given.objective(C) != other.objective(C)
    with pytest.raises(facto.FactoValueError, match="mu"):
        facto.Problem.self_dictionary(X, 3, mu=-1.0)
    with facto.Problem.self_dictionary(X, 3) as problem, facto.Solver(problem, "auto") as s:
        assert s.algorithm == facto.default_algorithm("self_dictionary")


def test_step_once_then_solve_with_a_callback_that_stops_early(affinity):
    with facto.Problem.simplicial_symnmf(affinity, 3) as problem, \
            facto.Solver(problem, variant="vanilla", objective_tolerance=0) as s:
        assert s.step() == facto.StopReason.RUNNING
        assert s.progress.iteration == 1 and s.progress.step_size == 1.0  # open loop: 2/(0+2)
        seen = []
        s.set_callback(lambda p: seen.append(p.iteration) or p.iteration >= 6)
        assert s.solve() == facto.StopReason.STOPPED_BY_CALLBACK
        assert seen == [2, 3, 4, 5, 6]
        W = s.iterate
        assert W.shape == (90, 3) and W.flags.c_contiguous
        assert np.all(W >= 0) and np.allclose(W.sum(axis=1), 1.0, atol=1e-12)
        labels = s.labels
        assert labels.dtype == np.int64 and labels.shape == (90,)
        assert np.array_equal(labels, W.argmax(axis=1))
        assert s.output_names() == ["labels", "gaps"]


def test_an_exception_in_the_callback_stops_the_solve_and_reaches_the_caller(affinity):
    class Boom(Exception):
        pass

    def callback(progress):
        if progress.iteration == 3:
            raise Boom("from the callback")

    with facto.Problem.simplicial_symnmf(affinity, 3) as problem, facto.Solver(problem, callback=callback) as s:
        with pytest.raises(Boom):
            s.solve()
        assert s.progress.iteration == 3
        s.set_callback(None)
        assert s.step() in (facto.StopReason.RUNNING, facto.StopReason.CONVERGED)  # still usable


def test_native_errors_for_bad_input(affinity):
    bad = affinity.copy()
    bad[0, 1] = np.nan
    with pytest.raises(ValueError) as e:
        facto.Problem.simplicial_symnmf(bad, 3)
    assert e.value.status_name == "FACTO_ERROR_NOT_FINITE" and "P" in e.value.message
    with pytest.raises(facto.FactoValueError, match="square"):
        facto.Problem.simplicial_symnmf(affinity[:, :10], 3)
    with pytest.raises(ValueError, match="rank"):
        facto.Problem.simplicial_symnmf(affinity, 0)
    with facto.Problem.simplicial_symnmf(affinity, 3) as problem:
        with pytest.raises(KeyError, match="tolerence"):
            facto.Solver(problem, tolerence=1e-3)
        with pytest.raises(ValueError, match="not one of"):
            facto.Solver(problem, step_rule="newton")
        with pytest.raises(ValueError, match="no algorithm"):
            facto.Solver(problem, "simplex")
        s = facto.Solver(problem)
        with pytest.raises(facto.FactoStateError):
            s.iterate  # nothing stepped yet
        with pytest.raises(ValueError):
            s.params["tolerance"] = -1.0
        with pytest.raises(TypeError):
            s.params["max_iterations"] = 2.5
        with pytest.raises(facto.FactoValueError, match="INFEASIBLE"):
            s.set_iterate(np.ones((90, 3)))
        s.step()  # every error above left the solver usable
        s.close()


def test_the_penalty_method_ends_feasible(affinity, blobs):
    with facto.Problem.simplicial_symnmf(affinity, 3) as problem, facto.Solver(problem, "penalty_method") as s:
        reason = s.solve()
        assert reason in (facto.StopReason.CONVERGED, facto.StopReason.STALLED)
        assert s.progress.feasibility <= s.params["feasibility_tolerance"]
        W = s.iterate
        assert abs(W.sum(axis=1) - 1).max() <= s.params["feasibility_tolerance"]
        alpha, beta = s.output("penalties").ravel()
        assert alpha >= 1.0 and beta >= 1.0  # they start at 1 and only grow
        assert facto.clustering_accuracy(s.labels, blobs[1]) == 1.0


def test_handles_can_be_freed_in_any_order(affinity):
    problem = facto.Problem.simplicial_symnmf(affinity, 3)
    first, second = facto.Solver(problem, max_iterations=5), facto.Solver(problem, "projected_gradient",
                                                                          max_iterations=5)
    problem.close()  # the solvers keep the problem's data alive
    first.solve()
    second.solve()
    with pytest.raises(facto.FactoStateError):
        problem.kind
    del first
    gc.collect()
    second.close()
    second.close()  # closing twice is harmless
    orphan = facto.Solver(facto.Problem.simplicial_symnmf(affinity, 3))  # problem freed by the GC at once
    gc.collect()
    assert orphan.step() == facto.StopReason.RUNNING


def test_request_stop_from_another_thread(affinity):
    with facto.Problem.simplicial_symnmf(affinity, 3) as problem, \
            facto.Solver(problem, variant="vanilla", tolerance=0, objective_tolerance=0, max_iterations=10**9) as s:
        # open-loop steps neither converge nor stall: only the request can end this solve
        timer = threading.Timer(0.05, s.request_stop)
        timer.start()
        assert s.solve() == facto.StopReason.STOPPED_BY_REQUEST
        timer.join()


def test_estimator_clusters_the_blobs(blobs):
    X, y = blobs
    est = facto.SimplicialSymNMF(n_clusters=3, bandwidth=4.0, scaling="none", random_state=1)
    W = est.fit_transform(X)
    assert W.shape == (90, 3)
    assert est.n_iter_ > 0 and est.objective_ > 0
    assert facto.clustering_accuracy(est.labels_, y) == 1.0
    assert est.get_params()["n_clusters"] == 3
    pre = facto.SimplicialSymNMF(n_clusters=3, affinity="precomputed", solver="projected_gradient")
    labels = pre.fit_predict(facto.gaussian_affinity(X, 4.0, "none"))
    assert facto.clustering_accuracy(labels, y) == 1.0


def test_data_helpers_agree_with_numpy(tmp_path, blobs):
    X, _ = blobs
    assert np.array_equal(facto.read_matrix(DATA / "blobs.csv"), X)
    facto.write_csv(tmp_path / "x.csv", np.asfortranarray(X[:5]))
    assert np.array_equal(np.loadtxt(tmp_path / "x.csv", delimiter=","), X[:5])
    sq = (X * X).sum(1)
    reference = np.exp(-np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0) / 4.0)
    assert np.allclose(facto.gaussian_affinity(X, 4.0, "none"), reference, rtol=1e-12, atol=1e-14)
    # no bandwidth: the median rule, a quarter of the median squared distance over the pairs i < j (an odd
    # count here or nth_element's upper middle, which sorting gives at index m // 2); 0 is refused
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0)
    pairs = np.sort(D2[np.triu_indices(len(X), 1)])
    median_rule = np.exp(-D2 / (pairs[len(pairs) // 2] / 4))
    np.fill_diagonal(median_rule, 1.0)
    assert np.allclose(facto.gaussian_affinity(X, scaling="none"), median_rule, rtol=1e-10, atol=1e-14)
    with pytest.raises(facto.FactoValueError, match="median rule"):
        facto.gaussian_affinity(X, 0.0)
    with pytest.raises(OSError):
        facto.read_matrix(tmp_path / "missing.csv")


def test_cross_language_fixture():
    reference = os.environ.get("FACTO_FIXTURE_REFERENCE")
    if not reference:
        pytest.skip("FACTO_FIXTURE_REFERENCE not set (CTest sets it)")
    P = np.loadtxt(DATA / "fixture" / "affinity.csv", delimiter=",")
    with facto.Problem.simplicial_symnmf(P, 3) as problem, \
            facto.Solver(problem, seed=7, max_iterations=40, tolerance=0, objective_tolerance=0) as s:
        s.solve()
        W = s.iterate
    assert np.max(np.abs(W - np.loadtxt(reference, delimiter=","))) <= 1e-12


def test_the_knn_graph_scales_its_features_first(blobs):
    # "auto" is min-max for the Gaussian graph and none for the cosine one: the graph of the features scaled
    # by hand; the SymNMF model's rule scales new points by the fitted columns' statistics
    X, _ = blobs
    X = X * np.array([1.0, 1000.0, 1.0])  # unequal ranges
    low, high = X.min(0), X.max(0)
    scaled = 2 * (X - low) / (high - low) - 1
    by_hand = facto.knn_similarity(scaled, scaling="none").toarray()
    assert np.allclose(facto.knn_similarity(X).toarray(), by_hand, rtol=1e-12, atol=1e-15)
    assert np.allclose(facto.knn_similarity(X, kind="cosine").toarray(),
                       facto.knn_similarity(X, kind="cosine", scaling="none").toarray(), rtol=0, atol=0)
    est = facto.SymNMFClustering(3, random_state=0).fit(X)
    reference = facto.SymNMFClustering(3, random_state=0, scaling="none").fit(scaled)
    assert np.array_equal(est.labels_, reference.labels_)
    new = X[:5] + 0.01
    assert np.allclose(est.transform(new), reference.transform(2 * (new - low) / (high - low) - 1), rtol=1e-10, atol=1e-12)


def test_the_knn_graph_by_hnsw_clusters_as_the_exact_one(blobs):
    # the HNSW search on 90 points searches 32 candidates, a third of them: it finds the exact graph's
    # neighbours (well-separated blobs), so the graph is the exact one to rounding and the clustering the
    # same; its model finds new points' neighbours by the same search; "auto" is exact below the threshold
    X, y = blobs
    exact = facto.knn_similarity(X, search="exact").toarray()
    assert np.allclose(facto.knn_similarity(X, search="hnsw").toarray(), exact, rtol=1e-12, atol=1e-15)
    assert facto.knn_search_for(90) == "exact" and facto.knn_search_for(10**6) == "hnsw"
    assert facto.knn_search_for(90, "hnsw") == "hnsw"
    est = facto.SymNMFClustering(3, neighbor_search="hnsw", random_state=0).fit(X)
    assert facto.clustering_accuracy(est.labels_, y) == 1.0 and est.neighbor_search_ == "hnsw"
    assert np.array_equal(est.predict(X[:10] + 0.01), est.labels_[:10])
    assert facto.SymNMFClustering(3, random_state=0).fit(X).neighbor_search_ == "exact"
    with pytest.raises(facto.FactoValueError, match="search must be one of"):
        facto.knn_similarity(X, search="annoy")


def test_float32_features_give_the_graph_of_their_values_in_float64(blobs):
    # a float32 array is read in single precision where it lies (C or Fortran order): each value read is
    # the float64 of the same value, so the graph is the float64 array's, exactly, for both searches
    X, _ = blobs
    single = X.astype(np.float32)
    for search in ("exact", "hnsw"):
        for kind in ("gaussian", "cosine"):
            reference = facto.knn_similarity(single.astype(np.float64), kind=kind, search=search).toarray()
            for layout in (single, np.asfortranarray(single)):
                assert np.array_equal(facto.knn_similarity(layout, kind=kind, search=search).toarray(), reference)
    single[3, 1] = np.nan
    with pytest.raises(facto.FactoValueError, match=r"entry \(3, 1\)"):
        facto.knn_similarity(single)


def test_sparse_features_give_the_dense_features_graph_and_labels():
    # TF-IDF-like rows (95% zeros): scipy.sparse goes in as sparse rows (the cosine graph, columns as they
    # are) and gives the dense rows' graph to rounding, so SymNMF's labels are the same; with the
    # Gaussian kernel (min-max scaled, which fills the zeros) the dense rows' graph too; sparse rows are
    # not searched by HNSW
    scipy_sparse = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(5)
    topics = rng.integers(0, 3, 150)
    dense = rng.random((150, 120)) * (rng.random((150, 120)) < 0.03)
    for t in range(3):
        dense[topics == t, 40 * t:40 * t + 40] += (rng.random((np.sum(topics == t), 40)) < 0.15)
    X = scipy_sparse.csr_matrix(dense)
    assert np.allclose(facto.knn_similarity(X).toarray(), facto.knn_similarity(dense).toarray(), rtol=1e-12, atol=1e-15)
    by_sparse = facto.SymNMFClustering(3, random_state=0).fit(X)
    by_dense = facto.SymNMFClustering(3, random_state=0).fit(dense)
    assert np.array_equal(by_sparse.labels_, by_dense.labels_)
    assert facto.clustering_accuracy(by_sparse.labels_, topics) >= 0.9
    assert np.array_equal(by_sparse.predict(X[:5]), by_dense.predict(dense[:5]))
    # the model keeps the rows sparse (their 5% of stored entries, never the dense copy) and gives new
    # points, dense or sparse, the dense rule's rows to rounding
    kind, arrays = by_sparse._complete_model()
    assert "knn_features" not in arrays and arrays["knn_csr_data"].size == X.nnz
    assert np.allclose(by_sparse.transform(X[5:20]), by_dense.transform(dense[5:20]), rtol=1e-10, atol=1e-12)
    assert np.allclose(by_sparse.transform(dense[5:20]), by_dense.transform(dense[5:20]), rtol=1e-10, atol=1e-12)
    assert np.allclose(facto.knn_similarity(X, kind="gaussian").toarray(),
                       facto.knn_similarity(dense, kind="gaussian", search="exact").toarray(), rtol=1e-12, atol=1e-15)
    with pytest.raises(facto.FactoError, match="HNSW search takes dense features"):
        facto.knn_similarity(X, search="hnsw")


def test_nomad_on_sparse_points_gives_the_dense_points_labels():
    # documents of 3 topics as scipy.sparse: NOMAD keeps them sparse (centred implicitly) and finds the
    # dense points' objective to rounding, the same labels and cluster means, and new documents alike
    scipy_sparse = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(11)
    topics = np.arange(120) % 3
    dense = np.zeros((120, 90))
    for i, t in enumerate(topics):
        dense[i, 30 * t + rng.integers(0, 30, 8)] += rng.integers(1, 5, 8)
    X = scipy_sparse.csr_matrix(dense)
    by_sparse = facto.NOMADClustering(3, random_state=0).fit(X)
    by_dense = facto.NOMADClustering(3, random_state=0).fit(dense)
    assert np.array_equal(by_sparse.labels_, by_dense.labels_)
    assert facto.clustering_accuracy(by_sparse.labels_, topics) == 1.0
    assert by_sparse.objective_ == pytest.approx(by_dense.objective_, rel=1e-9)
    assert np.allclose(by_sparse.cluster_centers_, by_dense.cluster_centers_, rtol=1e-12, atol=1e-14)
    assert np.array_equal(by_sparse.predict(X[:7]), by_dense.predict(dense[:7]))


def test_nomad_on_float32_points_gives_the_float64_points_labels():
    # images' grey levels in float32 (values single precision holds): kept in single precision, centred
    # in float64 as the products read them, so the same D, objective, labels, cluster means and new
    # points' labels as the same values in float64
    rng = np.random.default_rng(12)
    truth = np.arange(150) % 3
    X = np.clip(np.rint(60.0 + 140.0 * np.eye(3, 16)[truth] + 20.0 * rng.standard_normal((150, 16))), 0, 255)
    single = X.astype(np.float32)
    by_single = facto.NOMADClustering(3, random_state=0).fit(single)
    by_double = facto.NOMADClustering(3, random_state=0).fit(X)
    assert np.array_equal(by_single.labels_, by_double.labels_)
    assert facto.clustering_accuracy(by_single.labels_, truth) == 1.0
    assert by_single.objective_ == pytest.approx(by_double.objective_, rel=1e-9)
    assert np.allclose(by_single.cluster_centers_, by_double.cluster_centers_, rtol=1e-12)
    assert np.array_equal(by_single.predict(single[:9]), by_double.predict(X[:9]))


def test_symnmf_on_a_knn_graph_with_every_solver(blobs):
    X, y = blobs
    graph = facto.knn_similarity(X)
    dense = graph.toarray()
    assert np.allclose(dense, dense.T, rtol=0, atol=0) and np.all(np.diag(dense) == 0)
    assert graph.indptr[-1] >= 90 * 7  # floor(log2 90) + 1 = 7 neighbours each
    for solver in ["nolips", "projected_gradient", "beta_snmf", "coordinate_descent", "sym_hals", "sym_anls"]:
        with facto.Problem.symnmf(graph, 3) as problem, \
                facto.Solver(problem, solver, seed=2, max_iterations=2000, objective_tolerance=0) as s:
            s.solve()
            assert s.algorithm == solver
            assert s.progress.objective < problem.objective(np.full((90, 3), 0.1))
            if solver != "beta_snmf":  # the multiplicative updates settle in a worse local minimum here
                assert facto.clustering_accuracy(s.labels, y) == 1.0, solver
    with facto.Problem.symnmf(dense, 3) as d, facto.Problem.symnmf(graph, 3) as sp:
        Z = np.random.default_rng(0).random((90, 3))
        assert d.objective(Z) == pytest.approx(sp.objective(Z), rel=1e-12)


def test_edm_completion_recovers_the_helix_with_both_kernels():
    points = facto.helix(200, seed=3)
    i, j, d = facto.sample_pairs(points, 0.2, seed=4)
    assert np.all(i < j) and np.allclose(d, ((points[i] - points[j]) ** 2).sum(1))
    with facto.Problem.edm_completion(200, 3, i, j, d) as problem:
        assert problem.kind == "edm_completion"
        assert problem.objective(points) < 1e-20
        for kernel in ["universal", "gram"]:
            with facto.Solver(problem, "nolips", kernel=kernel, max_iterations=20000, tolerance=1e-9) as s:
                s.solve()
                assert facto.distance_nrmse(s.iterate, points) < 1e-6
    with pytest.raises(facto.FactoValueError):
        facto.Problem.edm_completion(200, 3, i, i, d)


def test_matrix_market_reader(tmp_path):
    path = tmp_path / "m.mtx"
    path.write_text("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0.5\n3 3 2\n")
    m = facto.read_matrix_market(path)
    assert np.array_equal(m.toarray(), [[0, 0.5, 0], [0.5, 0, 0], [0, 0, 2]])
    with pytest.raises(OSError):
        facto.read_matrix_market(tmp_path / "missing.mtx")


def test_self_dictionary_finds_the_anchors_with_merit_and_spa():
    X, anchors = facto.separable_data(50, 55, 10, kind="midpoints", seed=3)  # Fig. 2, no noise
    for solver in ("merit", "spa"):
        selected, H = facto.select_anchors(X, 10, solver=solver, max_iterations=300)
        assert selected.dtype == np.int64 and list(selected) == list(anchors)
        assert H.shape == (10, 55)
        assert np.allclose(H.sum(axis=0), 1.0) and H.min() >= 0.0
        assert np.allclose(X[:, selected] @ H, X, atol=1e-8)  # noiseless: an exact fit


def test_self_dictionary_outputs_and_errors():
    X, anchors = facto.separable_data(30, 120, 12, snr_db=30.0, seed=4)
    with facto.Problem.self_dictionary(X, 12) as problem, facto.Solver(problem, "merit", max_iterations=200) as s:
        assert problem.kind == "self_dictionary" and problem.iterate_shape == (120, 120)
        s.solve()
        assert sorted(s.output_names()) == ["H", "gaps", "nnz", "selected"]
        assert list(s.output("selected")) == list(anchors)
        assert 120 <= s.output("nnz")[0] < 120 * 120  # a nonzero per column at least; C never dense
    with pytest.raises(facto.FactoValueError, match="heuristic"):
        facto.Problem.self_dictionary(X, 0)  # lam=None needs K
    with pytest.raises(facto.FactoValueError):
        facto.separable_data(10, 20, 5, kind="midpoints")  # N must be 5 + 10


def test_away_and_pairwise_frank_wolfe_reach_the_stationary_point(affinity, blobs):
    budget = dict(max_iterations=300, tolerance=1e-12, objective_tolerance=0)
    with facto.Problem.simplicial_symnmf(affinity, 3) as problem:
        with facto.Solver(problem, "frank_wolfe", variant="vanilla", **budget) as vanilla:
            vanilla.solve()
            assert vanilla.progress.stationarity > 1e-8  # open-loop steps zig-zag
            vanilla_objective = vanilla.progress.objective
        for variant in ("away", "pairwise"):
            with facto.Solver(problem, "frank_wolfe", variant=variant, **budget) as s:
                assert s.solve() == facto.StopReason.CONVERGED
                toward, away, pairwise = s.output("gaps").ravel()
                assert s.progress.stationarity <= 1e-12 and toward >= 0
                scale = 1e-12 * s.progress.objective  # each gap a sum of terms nonnegative up to rounding
                assert away >= -scale and pairwise >= toward - scale
                assert s.progress.objective <= vanilla_objective
        # a step rule that the variant cannot take is refused when set
        with pytest.raises(facto.FactoValueError, match="vanilla"):
            facto.Solver(problem, "frank_wolfe", variant="pairwise", step_rule="open_loop")
    model = facto.SimplicialSymNMF(n_clusters=3, bandwidth=4.0, scaling="none", tol=1e-9,
                                   solver_params={"variant": "pairwise", "objective_tolerance": 0}).fit(blobs[0])
    assert facto.clustering_accuracy(model.labels_, blobs[1]) == 1.0 and model.stationarity_ <= 1e-9
    assert model.stop_reason_ == "CONVERGED"


def test_pairwise_merit_with_lambda_zero_fits_each_column_exactly():
    X, anchors = facto.separable_data(30, 100, 6, snr_db=20.0, seed=3)
    with facto.Problem.self_dictionary(X, 6, lam=0.0) as problem:
        gaps = {}
        for variant in ("vanilla", "pairwise"):
            with facto.Solver(problem, "merit", variant=variant, max_iterations=1000, tolerance=0,
                              objective_tolerance=0) as s:
                s.solve()
                gaps[variant] = s.output("gaps")[0, 0]
        assert gaps["pairwise"] < 1e-9 < gaps["vanilla"]


def test_nomad_separates_two_rings():
    X, labels = facto.manifold_points("two_rings", 200, 0.5)
    assert X.shape == (200, 2) and list(labels[:100]) == [0] * 100 and list(labels[100:]) == [1] * 100
    D = facto.nomad_gram(X)
    assert np.allclose(D, D.T) and np.allclose(D.sum(axis=1), 0.0)
    with facto.Problem.nomad(D, 16) as problem:
        assert problem.kind == "nomad" and problem.iterate_shape == (200, 200)
        with facto.Solver(problem, "nomad_cgm", component_threshold=1 / 16, label_rule="components") as s:  # the bound checked below
            s.solve()
            Q, feasibility = s.output("Q"), s.output("feasibility").ravel()
            assert facto.clustering_accuracy(s.output("labels").ravel(), labels) == 1.0  # Sec. 3: components
    assert Q.shape == (200, 200)
    assert abs(np.trace(D @ Q) - 120.32) < 0.6  # the reference implementation's, within the duality gap 5e-3
    assert feasibility[2] < 1e-10 and feasibility[3] < 1e-10  # Q 1 = 1, Tr Q = K
    assert Q[:100, 100:].max() < 0.08 / 16  # no mass between the rings (Fig. 4): entries within are ~0.08
    # D kept as the points: the same objective, up to the rounding of sums of 40,000 terms of size ~0.01
    # against a total of 120 (a few 1e-14 relative)
    with facto.Problem.nomad_points(X, 16) as points:
        assert points.objective(Q) == pytest.approx(np.trace(D @ Q), rel=1e-12)
    with pytest.raises(facto.FactoValueError):
        facto.Problem.nomad(D, 201)  # K > n
    with pytest.raises(facto.FactoValueError):
        facto.manifold_points("spiral", 10)


def test_nomad_from_points_keeps_d_implicit():
    # four blobs far apart: burer_monteiro on the points (D never formed) finds them exactly, and the
    # problem's objective is the dense one's
    rng = np.random.default_rng(3)
    X = np.repeat(20.0 * np.eye(4, 10), 30, axis=0) + 0.3 * rng.standard_normal((120, 10))
    truth = np.repeat(np.arange(4), 30)
    with facto.Problem.nomad_points(X, 4) as problem, facto.Solver(problem, "burer_monteiro") as s:
        assert problem.kind == "nomad" and problem.iterate_shape == (120, 120)
        assert s.solve() == facto.StopReason.CONVERGED
        assert facto.clustering_accuracy(s.output("labels").ravel(), truth) == 1.0
        f = s.output("feasibility").ravel()
        assert f[0] == 0.0 and f[2] <= 1e-5
        # tolerance 0 is automatic: the progress carries the bound in force, and the stationarity is below it
        assert s.params["tolerance"] == 0.0 and s.progress.tolerance == 1e-6
        assert s.progress.stationarity <= s.progress.tolerance
        # certified: the clustering's dual certificate meets the objective (to the residuals' 1e-5)
        assert abs(s.output("upper_bound")[0] - s.progress.objective) <= 1e-4 * s.progress.objective
        Q = s.output("Q")
        assert abs(s.progress.objective - np.sum(facto.nomad_gram(X) * Q)) < 1e-10 * s.progress.objective
    # float32 points are kept in single precision: D of their values as float64, to the rounding of sums
    single = X.astype(np.float32)
    with facto.Problem.nomad_points(single, 4) as a, facto.Problem.nomad_points(single.astype(np.float64), 4) as b:
        assert a.objective(Q) == pytest.approx(b.objective(Q), rel=1e-12)
    with pytest.raises(facto.FactoValueError):
        facto.Problem.nomad_points(np.zeros((5, 2)), 2)  # every point is 0


def test_burer_monteiro_and_multilayer_nomad():
    X, labels = facto.manifold_points("two_rings", 100, 0.5)
    # Burer-Monteiro's Q = Y Y^T (Y >= 0, r = 2 K): nonnegative and psd by construction, the equalities
    # to the feasibility tolerance (1e-5); a local solution near the convex optimum 54.649526 (coinor-csdp),
    # which a Q feasible to 1e-5 can exceed by the multipliers times that, ~1e-5 relative
    Q, feasibility = facto.nomad(X, 8, solver="burer_monteiro")
    assert feasibility[0] == 0.0 and feasibility[2] <= 1e-5 and feasibility[3] <= 8e-5
    assert np.linalg.eigvalsh(Q).min() > -1e-12
    assert 54.649526 * (1 - 5e-3) < np.sum(facto.nomad_gram(X) * Q) < 54.649526 * (1 + 1e-3)
    with facto.Problem.nomad(facto.nomad_gram(X), 8) as problem, \
            facto.Solver(problem, "burer_monteiro", rank=8) as s:  # r = K: a hard clustering
        assert s.solve() == facto.StopReason.CONVERGED
        Y = s.output("factor")
        f = s.output("feasibility").ravel()
        # Y^T Y's eigenvalues lie in [0, 1 + delta] (Perron) and sum to K +- tau: ||Y^T Y - I||^2 <= tau + 2 K delta,
        # nearly orthonormal nonnegative columns, i.e. nearly disjoint supports
        assert Y.shape == (100, 8) and np.sum((Y.T @ Y - np.eye(8)) ** 2) <= f[3] + 2 * 8 * f[2] + 1e-12
        with pytest.raises(facto.FactoValueError):
            facto.Problem.nomad_layer(s, 9)  # K must not grow
    # two layers: the second's D is the first's Q
    layers = facto.multilayer_nomad(facto.nomad_gram(X), [8, 4], "burer_monteiro")
    assert len(layers) == 2 and layers[1].shape == (100, 100)
    # the second layer to burer_monteiro's feasibility tolerance (1e-5, kept from the first layer)
    assert abs(np.trace(layers[1]) - 4) < 1e-4 and np.abs(layers[1].sum(axis=1) - 1).max() <= 1e-5
    with pytest.raises(facto.FactoValueError):
        facto.multilayer_nomad(facto.nomad_gram(X), [4, 8])


def _planted_corpus():
    counts = facto.read_matrix_market(DATA / "planted_corpus.mtx")
    labels = np.loadtxt(DATA / "planted_corpus_labels.csv", delimiter=",", skiprows=1)[:, 1].astype(np.int64)
    return counts, labels


def test_topic_model_finds_the_planted_anchor_words_with_every_solver():
    counts, labels = _planted_corpus()
    words = [f"w{j}" for j in range(9)]
    for solver in ("merit", "spa", "snpa", "fast_anchor", "fast_gradient"):
        model = facto.topic_model(counts, 3, solver=solver, vocabulary=words, min_df=1)
        assert model.anchors == ["w0", "w1", "w2"], solver
        assert [row[0] for row in model.top_terms] == ["w0", "w1", "w2"]
        assert model.topics.shape == (3, 9) and np.allclose(model.topics.sum(axis=1), 1.0)
        assert facto.clustering_accuracy(model.labels, labels) == 1.0
        assert np.allclose(model.document_topics[np.arange(60), labels], 1.0)
        assert model.coherence < 0
    dense = facto.topic_model(counts.toarray(), 3, solver="spa", min_df=1)  # dense counts work the same
    assert list(dense.anchors) == [0, 1, 2]


def test_the_refinement_is_one_parameter_and_applies_as_it_fitted():
    rng = np.random.default_rng(3)  # unstructured counts: the refinement moves the anchors' topics
    counts = rng.poisson(rng.uniform(0.2, 3.0, size=(1, 40)), size=(120, 40)).astype(float)
    paper = facto.topic_model(counts, 4, solver="spa", min_df=1, refine=0)
    refined = facto.topic_model(counts, 4, solver="spa", min_df=1)
    assert list(paper.anchors) == list(refined.anchors)  # the anchor step is the same
    assert np.abs(paper.topics - refined.topics).max() > 1e-6
    for fit in (paper, refined):
        assert np.allclose(fit.topics.sum(axis=1), 1.0) and fit.topics.min() >= 0
        assert np.allclose(fit.model.apply(counts).rows, fit.document_topics, atol=1e-12)
    with pytest.raises(facto.FactoValueError, match="refine"):
        facto.topic_model(counts, 4, refine=2)


def test_communities_recover_planted_memberships_and_src_is_one():
    A = facto.read_matrix_market(DATA / "planted_graph.mtx.gz")
    truth = np.loadtxt(DATA / "planted_graph_membership.csv", delimiter=",")
    for solver in ("merit", "spa", "snpa", "geonmf"):
        found = facto.detect_communities(A, 3, solver=solver, energy=1.0)
        assert list(found.pure_nodes) == [0, 1, 2], solver
        assert np.allclose(found.memberships, truth, atol=1e-8)
        assert facto.averaged_spearman(found.memberships, truth) == pytest.approx(1.0, abs=1e-12)
    with pytest.raises(ValueError, match="energy"):
        facto.Problem.communities(A, 3, energy=0.0)


def test_kmeans_and_spearman_helpers():
    X, y = facto.manifold_points("blobs", 120, parameter=0.05, seed=1)
    assert facto.clustering_accuracy(facto.kmeans(X, 6, seed=2), y) == 1.0
    H = np.array([[0.9, 0.1], [0.2, 0.8], [0.5, 0.5], [0.0, 1.0]])
    assert facto.averaged_spearman(H[:, ::-1], H) == pytest.approx(1.0)  # matching undoes the swap
    with pytest.raises(ValueError):
        facto.averaged_spearman(H, H[:3])
