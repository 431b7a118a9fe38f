"""scikit-learn style clustering by facto's problems: simplicial SymNMF, SymNMF and NOMAD.

Each fits on features (n_samples x n_features; scipy.sparse ones are made dense) or, with
affinity="precomputed", on an n x n matrix (dense, or scipy.sparse where the problem is sparse). A fitted
clusterer applies to new data (facto.Model): predict gives new points' clusters, transform their rows
(memberships, or NOMAD's embedding), score the negative sum of their residuals (the job's objective at
the new points, as KMeans.score is minus its inertia: higher is better, and it favours larger
n_clusters, so compare it at one n_clusters or use an external score such as adjusted_rand_score).
New data are features, or with affinity="precomputed" their affinity rows to the n fitted points
(q x n; for NOMAD rows of D).
"""
import numpy as np

from ._base import (ClusterMixin, FactoEstimator, Flag, Integer, Options, Real, dense_features, precomputed_tags,
                    solvers_of, symmetric_input, validate)
from ._lib import SCALINGS, SEARCHES, SIMILARITIES
from .core import Model, Problem
from .data import gaussian_affinity, kmeans, knn_search_for, knn_similarity


class _Clusterer(ClusterMixin, FactoEstimator):
    """predict, transform and score through the fitted model."""

    def _new_data(self, X):
        if self.affinity == "precomputed":
            return validate(self, X, accept_sparse=("csr", "csc", "coo"), reset=False, min_samples=1)
        return dense_features(self, X, reset=False, min_samples=1)

    def predict(self, X):
        """The clusters of new samples (features, or affinity rows with affinity="precomputed")."""
        return self._applied(self._new_data(X)).labels

    def transform(self, X):
        """The rows of new samples: their memberships (NOMAD: their embedding)."""
        return self._applied(self._new_data(X)).rows

    def score(self, X, y=None):
        """Minus the sum of the new samples' residuals: higher is better (see the module's note)."""
        return -float(np.sum(self._applied(self._new_data(X)).residuals))

    _transform_differs = None  # why transform(X) of the fitted X is not fit_transform's, where it is not

    def _more_tags(self):
        return precomputed_tags(self.affinity == "precomputed", self._transform_differs)


class SimplicialSymNMF(_Clusterer):
    """Probabilistic clustering by simplicial symmetric NMF (Zhao & Gordon):
    min 1/4 ||P - W W^T||^2 over W >= 0 with rows on the simplex; labels_ = the argmax of each row.

    Parameters
    ----------
    n_clusters : int, default 2. The rank k.
    affinity : "rbf" (default: the Gaussian affinity of the rows of X after `scaling`, see bandwidth) or
        "precomputed" (X is P, n x n; a sparse P is made dense).
    bandwidth : float or None, default None: the median rule, a quarter of the median of ||x_i - x_j||^2 over
        the pairs (on four labelled sets the only rule measured within 0.02 of k-means' accuracy on all; see
        docs/architecture.md); a number B gives exp(-||x_i - x_j||^2 / B) (Zhao & Gordon's setting: 1).
    scaling : "minmax" (default, each feature to [-1, 1]), "zscore", "none".
    solver : "auto" (default: the library's default for simplicial_symnmf), "frank_wolfe", "projected_gradient"
        or "penalty_method".
    max_iter, tol, n_init, random_state, verbose, solver_params : see facto's estimators.

    Attributes: labels_, membership_ (W, n x k), gap_ (the Frank-Wolfe gap), n_iter_, objective_,
    stationarity_, stop_reason_, interrupted_, n_features_in_.
    New samples (predict, transform): their rows are the simplex least squares of their affinities to the
    fitted points on W (P ~ W W^T gives p(x) ~ W w(x)), the affinities built as the fit's.
    """

    _constraints = {"n_clusters": Integer(1), "affinity": Options(["rbf", "precomputed"]), "bandwidth": Real(0.0, False, optional=True),
                    "scaling": Options(SCALINGS), "solver": Options(solvers_of("simplicial_symnmf", "auto"))}

    def __init__(self, n_clusters=2, *, affinity="rbf", bandwidth=None, scaling="minmax", solver="auto",
                 max_iter=None, tol=None, n_init=1, random_state=None, verbose=0, solver_params=None):
        self.n_clusters = n_clusters
        self.affinity = affinity
        self.bandwidth = bandwidth
        self.scaling = scaling
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.random_state = random_state
        self.verbose = verbose
        self.solver_params = solver_params

    def fit(self, X, y=None, callback=None):
        """Fits on X; `callback(progress) -> stop?` is called every iteration."""
        self._validate_params()
        rule = None
        if self.affinity == "precomputed":
            P = symmetric_input(self, X, accept_sparse=True)
            P = P.toarray() if hasattr(P, "toarray") else P
        else:
            X = dense_features(self, X)
            P = gaussian_affinity(X, self.bandwidth, self.scaling)
            rule = lambda model: model.use_gaussian_affinity(X, self.bandwidth, self.scaling)  # noqa: E731
        self._solve(Problem.simplicial_symnmf(P, self.n_clusters), self.solver, callback, outputs=("labels", "gaps"),
                    iterate=True, model_rule=rule, on_result=self._fitted)
        return self

    def _fitted(self, out):
        self.membership_ = out["iterate"]
        self.labels_ = out["labels"]
        self.gap_ = float(out["gaps"][0, 0])

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns membership_ (n x k, rows on the simplex)."""
        return self.fit(X, y, callback).membership_


class SymNMFClustering(_Clusterer):
    """Clustering by symmetric NMF, min 1/2 ||M - H H^T||^2 over H >= 0 (n x k), labels_ the argmax of
    each row of H (Kuang, Yun & Park), solved by Dyn-NoLips (Dragomir et al.) or a baseline.

    Parameters
    ----------
    n_clusters : int, default 2.
    affinity : "nearest_neighbors" (default: the sparse normalized kNN graph of the rows of X, Kuang et al.
        Sec. 7.1), "rbf" (dense Gaussian affinity) or "precomputed" (X is M: dense or scipy.sparse, kept sparse).
    n_neighbors : int, default 0 (floor(log2 n) + 1).  similarity : of the kNN graph: "auto" (default: "cosine"
        for nonnegative features with at least 90% zeros, as counts and TF-IDF: 0.50 against 0.38 on the
        panel's Reuters documents; "gaussian" otherwise), "gaussian" (self-tuning) or "cosine".
    neighbor_search : how the kNN graph finds each point's neighbours: "auto" (default: "exact" below 20,000
        points, "hnsw" from there), "exact", or "hnsw" (an HNSW index built on the points from a fixed seed:
        on 70,000 Fashion-MNIST images 97% of the exact neighbours about 10x sooner); new samples find
        theirs the same way. scipy.sparse X gives its dense form's graph; for text (counts, TF-IDF: the
        cosine graph, unscaled) its rows stay sparse there and in the model new samples join, never made
        dense, and are searched exactly.
    bandwidth : of the rbf affinity, as SimplicialSymNMF's (None: the median rule).
    scaling : "auto" (default: min-max for the rbf affinity and the Gaussian kNN graph, none for the cosine
        graph; on the defaults panel min-max took wine from 0.71 to 0.97 and breast-cancer from 0.82 to 0.94),
        "minmax", "zscore" or "none" (Kuang et al.'s graph).
    solver : "auto" (default: the library's default for symnmf), "nolips", "projected_gradient", "beta_snmf",
        "coordinate_descent", "sym_hals", "sym_anls".
    n_init : int, default 5: seeded starts, the lowest objective kept. One start's accuracy on the defaults
        panel varies by seed (digits 0.75-0.81, satimage 0.65-0.79); five found the same lowest objective
        from every first seed tried (digits 0.809, satimage 0.731, above k-means' 0.794 and 0.681), at five
        times one start's seconds, as KMeans' n_init = 10 does.
    max_iter, tol, random_state, verbose, solver_params : see facto's estimators.

    Attributes: labels_, embedding_ (H), n_iter_, objective_, stationarity_, stop_reason_, interrupted_,
    n_features_in_, and neighbor_search_ (the search the kNN graph ran: "exact" or "hnsw").
    New samples (predict, transform): each joins the fitted kNN graph (its k nearest fitted points, its
    own self-tuned scale, the fitted points' scales and degrees; the graph is unchanged) or gets its rbf
    affinities, and its row is the nonnegative least squares of those on H.
    """

    _constraints = {"n_clusters": Integer(1), "affinity": Options(["nearest_neighbors", "rbf", "precomputed"]),
                    "n_neighbors": Integer(0), "similarity": Options(SIMILARITIES), "neighbor_search": Options(SEARCHES),
                    "bandwidth": Real(0.0, False, optional=True),
                    "scaling": Options(SCALINGS), "solver": Options(solvers_of("symnmf", "auto"))}

    def __init__(self, n_clusters=2, *, affinity="nearest_neighbors", n_neighbors=0, similarity="auto",
                 neighbor_search="auto", bandwidth=None, scaling="auto", solver="auto", max_iter=None, tol=None,
                 n_init=5, random_state=None, verbose=0, solver_params=None):
        self.n_clusters = n_clusters
        self.affinity = affinity
        self.n_neighbors = n_neighbors
        self.similarity = similarity
        self.neighbor_search = neighbor_search
        self.bandwidth = bandwidth
        self.scaling = scaling
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.random_state = random_state
        self.verbose = verbose
        self.solver_params = solver_params

    @property
    def _transform_differs(self):
        if self.affinity == "nearest_neighbors":
            return ("a fitted point given to transform joins the kNN graph as a new point, one of its own "
                    "neighbours, so its row is not its fitted row of H (fit_transform's)")
        return None

    def fit(self, X, y=None, callback=None):
        """Fits on X; `callback(progress) -> stop?` is called every iteration."""
        self._validate_params()
        rule, self._deferred_rule = None, None
        if self.affinity == "precomputed":
            M = symmetric_input(self, X, accept_sparse=True)
        elif self.affinity == "nearest_neighbors":
            X = validate(self, X, accept_sparse="csr", min_samples=2)
            sparse = hasattr(X, "toarray")
            graph = (self.n_neighbors, self.similarity, self.scaling, self.neighbor_search)
            if sparse and self.neighbor_search == "auto":  # sparse rows are searched exactly, and their rule alike
                graph = graph[:3] + ("exact",)
            M = knn_similarity(X, *graph)
            self.neighbor_search_ = knn_search_for(X.shape[0], graph[3])
            # sparse X: its rule (which recomputes the graph) waits for the first predict or save
            self._deferred_rule = (X, graph) if sparse else None
            rule = None if sparse else lambda model: model.use_knn_similarity(X, *graph)  # noqa: E731
        else:
            X = dense_features(self, X)
            M = gaussian_affinity(X, self.bandwidth, self.scaling)
            rule = lambda model: model.use_gaussian_affinity(X, self.bandwidth, self.scaling)  # noqa: E731
        self._solve(Problem.symnmf(M, self.n_clusters), self.solver, callback, outputs=("labels",), iterate=True,
                    model_rule=rule, on_result=self._fitted)
        return self

    def _complete_model(self):
        """The model with its kNN rule: for sparse X added here, when it is first needed (a fit that is never
        applied or saved does not build the graph twice). Unscaled, the rule keeps X sparse."""
        deferred = getattr(self, "_deferred_rule", None)
        if deferred is not None:
            X, graph = deferred
            with Model(*self._model) as m:
                m.use_knn_similarity(X, *graph)
                self._model = (m.kind, m.arrays)
            self._deferred_rule = None
        return self._model

    def _fitted(self, out):
        self.embedding_ = out["iterate"]
        self.labels_ = out["labels"]

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns embedding_ (H, n x k)."""
        return self.fit(X, y, callback).embedding_


class NOMADClustering(_Clusterer):
    """K-means clustering through its nonnegative SDP relaxation (NOMAD, Tepper, Sengupta & Chklovskii):
    max Tr(D Q) over Q psd, Q >= 0, Q 1 = 1, Tr Q = K, D the centred Gram matrix of the points.

    Parameters
    ----------
    n_clusters : int, default 2. K.
    affinity : "points" (default: X holds the points; D is applied through them, memory linear in n) or
        "precomputed" (X is D, n x n symmetric).
    solver : "auto" (default: the library's rule for nomad, which solver_ names), "burer_monteiro"
        (Q = Y Y^T, Y >= 0: completely positive Q only, exact on well-separated clusters), "nomad_cgm"
        (the paper's conditional gradient), "nomad_admm" (to the SDP's optimum with a certified bound; n^2
        memory and an n x n eigendecomposition per step).
    assign_labels : "kmeans" (default: k-means on the rows of the factor Y, or of Q; at most K labels) or
        "components" (the paper's rule: connected components of Q's graph, edges where
        Q_ij > component_threshold K / n; may give more than K labels).
    certify : bool, default True. Compute upper_bound_ (for burer_monteiro: k-means and certificates, about
        half a solve's time at n = 70,000, and much more on text, whose flat spectrum keeps many components;
        False, or a Ctrl-C during fit, leaves it NaN).
    max_iter, tol, n_init, random_state, verbose, solver_params : see facto's estimators (n_init keeps the
        start of largest Tr(D Q)).

    Attributes: labels_, cluster_centers_ (affinity="points": the mean of each cluster's points, in label
    order; the labels some point has), embedding_ (n x (K - 1): Q's leading eigenvectors below the
    constant one, scaled by the square roots of their eigenvalues), feasibility_ (the RMS and largest of
    Q's negative part, the row-sum and trace errors), upper_bound_ (a bound on the SDP's optimum:
    certified up to n = 2000, and above it by burer_monteiro's partition bound on points; the other
    bounds above n = 2000 rest on a Krylov eigenvalue estimate), factor_ (burer_monteiro) or Q_ (the
    others), solver_, n_iter_, objective_ (Tr(D Q)), stationarity_, stop_reason_, interrupted_,
    n_features_in_.
    New samples (predict, transform, score): the label of the nearest cluster mean (K-means' assignment
    step, what the SDP relaxes; in D's space for affinity="precomputed", from new rows of D), their
    embedding the mean of their cluster's (the Nystrom extension of Q with the cluster's mean row), their
    residual the squared distance to that mean (score is minus KMeans' inertia).
    """

    _constraints = {"n_clusters": Integer(1), "affinity": Options(["points", "precomputed"]),
                    "solver": Options(solvers_of("nomad", "auto")), "assign_labels": Options(["kmeans", "components"]),
                    "certify": Flag()}
    _maximize = True
    _left_when_interrupted = ("upper_bound",)  # the certificate: half a solve's time at n = 70,000, more on text
    _transform_differs = ("transform gives a point its cluster's mean embedding (the Nystrom extension), "
                          "fit_transform the fitted points' own embedding_")

    def __init__(self, n_clusters=2, *, affinity="points", solver="auto", assign_labels="kmeans", certify=True,
                 max_iter=None, tol=None, n_init=1, random_state=None, verbose=0, solver_params=None):
        self.n_clusters = n_clusters
        self.affinity = affinity
        self.solver = solver
        self.assign_labels = assign_labels
        self.certify = certify
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.random_state = random_state
        self.verbose = verbose
        self.solver_params = solver_params

    def fit(self, X, y=None, callback=None):
        """Fits on X; `callback(progress) -> stop?` is called every iteration."""
        self._validate_params()
        if self.affinity == "points":  # scipy.sparse points stay sparse, float32 ones in single precision
            X = validate(self, X, accept_sparse="csr", dtype=[np.float64, np.float32])
            X = X.tocsr() if hasattr(X, "tocsr") else X  # rows indexed by label for the means below
            problem = Problem.nomad_points(X, self.n_clusters)
        else:
            X = symmetric_input(self, X, accept_sparse=False)
            problem = Problem.nomad(X, self.n_clusters)
        components = self.assign_labels == "components"  # else k-means below: the library's labels unused

        def outputs(algorithm):  # burer_monteiro keeps its factor Y, the others Q
            kept = "factor" if algorithm == "burer_monteiro" else "Q"
            return (("labels",) if components else ()) + ("embedding", "feasibility", kept) + \
                (("upper_bound",) if self.certify else ())

        self._solve(problem, self.solver, callback, outputs=outputs, model_rule=False,
                    on_result=lambda out: self._fitted(out, X),
                    fixed={"label_rule": "components"} if components else None)
        return self

    def _fitted(self, out, X):
        kept = "factor" if "factor" in out else "Q"
        for stale in ("Q_", "factor_", "cluster_centers_"):  # a refit with another solver or affinity
            self.__dict__.pop(stale, None)
        setattr(self, kept + "_", out[kept])
        self.embedding_ = out["embedding"]
        self.feasibility_ = out["feasibility"]
        self.upper_bound_ = float(np.ravel(out["upper_bound"])[0]) if "upper_bound" in out else float("nan")
        if self.assign_labels == "components":
            self.labels_ = out["labels"]
        else:
            self.labels_ = kmeans(out[kept], self.n_clusters, seed=self._seed() or 0)
        # the model of these labels: their means (points) or each cluster's mean of D (precomputed)
        with Model("nomad", {"labels": self.labels_, "embedding": self.embedding_}) as model:
            if self.affinity == "points" and not hasattr(X, "toarray") and X.dtype == np.float32:
                # the clusters' means of single-precision rows, without a float64 copy of them
                clusters = np.unique(self.labels_)
                model.set_array("center_labels", clusters.reshape(-1, 1))
                model.set_array("centers", np.vstack([np.asarray(X[self.labels_ == c].mean(axis=0, dtype=np.float64))
                                                      for c in clusters]))
            elif self.affinity == "points":
                model.use_points(X)
            if self.affinity == "points":
                arrays = model.arrays
                order = np.ravel(arrays["center_labels"]).astype(np.int64)
                self.cluster_centers_ = arrays["centers"][np.argsort(order)]
            else:
                model.use_gram(X)
            self._model = (model.kind, model.arrays)

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns embedding_ (n x (K - 1))."""
        return self.fit(X, y, callback).embedding_
