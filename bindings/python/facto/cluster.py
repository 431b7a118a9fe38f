"""scikit-learn style clustering by facto's problems: simplicial SymNMF, SymNMF and NOMAD.

Each fits on features (n_samples x n_features) or, with affinity="precomputed", on an n x n matrix
(dense, or scipy.sparse where the problem is sparse). They are transductive, like SpectralClustering:
fit, fit_predict and fit_transform, no predict or transform of new points.
"""
import numpy as np

from ._base import ClusterMixin, FactoEstimator, precomputed_tags, symmetric_input, validate
from .core import Problem
from .data import gaussian_affinity, kmeans, knn_similarity


class SimplicialSymNMF(ClusterMixin, FactoEstimator):
    """Probabilistic clustering by simplicial symmetric NMF (Zhao & Gordon):
    min 1/4 ||P - W W^T||^2 over W >= 0 with rows on the simplex; labels_ = the argmax of each row.

    Parameters
    ----------
    n_clusters : int, default 2. The rank k.
    affinity : "rbf" (default: P_ij = exp(-||x_i - x_j||^2 / bandwidth) of the rows of X after
        `scaling`) or "precomputed" (X is P, n x n; a sparse P is made dense).
    bandwidth : float, default 1.0.  scaling : "minmax" (default, each feature to [-1, 1]), "zscore", "none".
    solver : "frank_wolfe" (default), "projected_gradient" or "penalty_method".
    max_iter, tol, random_state, solver_params : see facto's estimators (None: the solver's defaults).

    Attributes: labels_, membership_ (W, n x k), gap_ (the Frank-Wolfe gap), n_iter_, objective_,
    stationarity_, stop_reason_, n_features_in_.
    """

    def __init__(self, n_clusters=2, *, affinity="rbf", bandwidth=1.0, scaling="minmax", solver="frank_wolfe",
                 max_iter=None, tol=None, random_state=None, solver_params=None):
        self.n_clusters = n_clusters
        self.affinity = affinity
        self.bandwidth = bandwidth
        self.scaling = scaling
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.solver_params = solver_params

    def _more_tags(self):
        return precomputed_tags(self.affinity == "precomputed")

    def fit(self, X, y=None, callback=None):
        """Fits on X; `callback(progress) -> stop?` is called every iteration."""
        if self.affinity == "precomputed":
            P = symmetric_input(self, X, accept_sparse=True)
            P = P.toarray() if hasattr(P, "toarray") else P
        elif self.affinity == "rbf":
            P = gaussian_affinity(validate(self, X), self.bandwidth, self.scaling)
        else:
            raise ValueError(f"affinity must be 'rbf' or 'precomputed', got {self.affinity!r}")
        out = self._solve(Problem.simplicial_symnmf(P, self.n_clusters), self.solver, callback,
                          outputs=("labels", "gaps"), iterate=True)
        self.membership_ = out["iterate"]
        self.labels_ = out["labels"]
        self.gap_ = float(out["gaps"][0, 0])
        return self

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns membership_ (n x k, rows on the simplex)."""
        return self.fit(X, y, callback).membership_


class SymNMFClustering(ClusterMixin, FactoEstimator):
    """Clustering by symmetric NMF, min 1/2 ||M - H H^T||^2 over H >= 0 (n x k), labels_ the argmax of
    each row of H (Kuang, Yun & Park), solved by Dyn-NoLips (Dragomir et al.) or a baseline.

    Parameters
    ----------
    n_clusters : int, default 2.
    affinity : "nearest_neighbors" (default: the sparse normalized kNN graph of the rows of X, Kuang et al.
        Sec. 7.1), "rbf" (dense Gaussian affinity) or "precomputed" (X is M: dense or scipy.sparse, kept sparse).
    n_neighbors : int, default 0 (floor(log2 n) + 1).  similarity : "gaussian" (self-tuning) or "cosine",
        for the kNN graph.  bandwidth, scaling : of the rbf affinity.
    solver : "nolips" (default), "projected_gradient", "beta_snmf", "coordinate_descent", "sym_hals", "sym_anls".
    max_iter, tol, random_state, solver_params : see facto's estimators.

    Attributes: labels_, embedding_ (H), n_iter_, objective_, stationarity_, stop_reason_, n_features_in_.
    """

    def __init__(self, n_clusters=2, *, affinity="nearest_neighbors", n_neighbors=0, similarity="gaussian",
                 bandwidth=1.0, scaling="minmax", solver="nolips", max_iter=None, tol=None, random_state=None,
                 solver_params=None):
        self.n_clusters = n_clusters
        self.affinity = affinity
        self.n_neighbors = n_neighbors
        self.similarity = similarity
        self.bandwidth = bandwidth
        self.scaling = scaling
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.solver_params = solver_params

    def _more_tags(self):
        return precomputed_tags(self.affinity == "precomputed")

    def _affinity(self, X):
        if self.affinity == "precomputed":
            return symmetric_input(self, X, accept_sparse=True)
        X = validate(self, X)
        if self.affinity == "nearest_neighbors":
            return knn_similarity(X, self.n_neighbors, self.similarity)
        if self.affinity == "rbf":
            return gaussian_affinity(X, self.bandwidth, self.scaling)
        raise ValueError(f"affinity must be 'nearest_neighbors', 'rbf' or 'precomputed', got {self.affinity!r}")

    def fit(self, X, y=None, callback=None):
        """Fits on X; `callback(progress) -> stop?` is called every iteration."""
        problem = Problem.symnmf(self._affinity(X), self.n_clusters)
        out = self._solve(problem, self.solver, callback, outputs=("labels",), iterate=True)
        self.embedding_ = out["iterate"]
        self.labels_ = out["labels"]
        return self

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns embedding_ (H, n x k)."""
        return self.fit(X, y, callback).embedding_


class NOMADClustering(ClusterMixin, FactoEstimator):
    """K-means clustering through its nonnegative SDP relaxation (NOMAD, Tepper, Sengupta & Chklovskii):
    max Tr(D Q) over Q psd, Q >= 0, Q 1 = 1, Tr Q = K, D the centred Gram matrix of the points.

    Parameters
    ----------
    n_clusters : int, default 2. K.
    affinity : "points" (default: X holds the points; D is applied through them, memory linear in n) or
        "precomputed" (X is D, n x n symmetric).
    solver : "auto" (default: "burer_monteiro" on points, "nomad_cgm" on a precomputed D), "burer_monteiro"
        (Q = Y Y^T, Y >= 0: completely positive Q only, exact on well-separated clusters), "nomad_cgm"
        (the paper's conditional gradient), "nomad_admm" (to the SDP's optimum with a certified bound; n^2
        memory and an n x n eigendecomposition per step).
    assign_labels : "kmeans" (default: k-means on the rows of the factor Y, or of Q; at most K labels) or
        "components" (the paper's rule: connected components of Q's graph, edges where
        Q_ij > component_threshold K / n; may give more than K labels).
    certify : bool, default True. Compute upper_bound_ (for burer_monteiro: k-means and certificates, about
        half a solve's time at n = 70,000; False leaves it NaN).
    max_iter, tol, random_state, solver_params : see facto's estimators.

    Attributes: labels_, embedding_ (n x 2, from Q), feasibility_ (the RMS and largest of Q's negative
    part, the row-sum and trace errors), upper_bound_ (a bound on the SDP's optimum: certified up to
    n = 2000, and above it by burer_monteiro's partition bound on points; the other bounds above n = 2000
    rest on a Krylov eigenvalue estimate),
    factor_ (burer_monteiro) or Q_ (the others), solver_, n_iter_, objective_ (Tr(D Q)), stationarity_,
    stop_reason_, n_features_in_.
    """

    def __init__(self, n_clusters=2, *, affinity="points", solver="auto", assign_labels="kmeans", certify=True,
                 max_iter=None, tol=None, random_state=None, solver_params=None):
        self.n_clusters = n_clusters
        self.affinity = affinity
        self.solver = solver
        self.assign_labels = assign_labels
        self.certify = certify
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.solver_params = solver_params

    def _more_tags(self):
        return precomputed_tags(self.affinity == "precomputed")

    def fit(self, X, y=None, callback=None):
        """Fits on X; `callback(progress) -> stop?` is called every iteration."""
        if self.assign_labels not in ("kmeans", "components"):
            raise ValueError(f"assign_labels must be 'kmeans' or 'components', got {self.assign_labels!r}")
        if self.affinity == "points":
            problem = Problem.nomad_points(validate(self, X), self.n_clusters)
        elif self.affinity == "precomputed":
            problem = Problem.nomad(symmetric_input(self, X, accept_sparse=False), self.n_clusters)
        else:
            raise ValueError(f"affinity must be 'points' or 'precomputed', got {self.affinity!r}")
        self.solver_ = self.solver if self.solver != "auto" else (
            "burer_monteiro" if self.affinity == "points" else "nomad_cgm")
        kept = "factor" if self.solver_ == "burer_monteiro" else "Q"
        outputs = ("labels", "embedding", "feasibility", kept) + (("upper_bound",) if self.certify else ())
        out = self._solve(problem, self.solver_, callback, outputs=outputs)
        for stale in ("Q_", "factor_"):  # a refit with another solver
            self.__dict__.pop(stale, None)
        setattr(self, kept + "_", out[kept])
        self.embedding_ = out["embedding"]
        self.feasibility_ = out["feasibility"]
        self.upper_bound_ = float(np.ravel(out["upper_bound"])[0]) if self.certify else float("nan")
        if self.assign_labels == "components":
            self.labels_ = out["labels"]
        else:
            self.labels_ = kmeans(out[kept], self.n_clusters, seed=self._seed() or 0)
        return self

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns embedding_ (n x 2)."""
        return self.fit(X, y, callback).embedding_
