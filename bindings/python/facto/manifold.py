"""scikit-learn style Euclidean distance matrix completion (Dragomir, d'Aspremont & Bolte Sec. 4.2):
an embedding from some observed distances. Transductive, like MDS: fit and fit_transform."""
import numpy as np

from ._base import FactoEstimator, symmetric_input, validate
from .core import Problem


class EDMCompletion(FactoEstimator):
    """min 1/2 sum over observed pairs (||x_i - x_j||^2 - d_ij^2)^2 over X (n x n_components), by Dyn-NoLips
    with a quartic kernel or gradient descent.

    Parameters
    ----------
    n_components : int, default 3. The embedding's dimension r.
    metric : "precomputed" (default: X is an n x n dissimilarity matrix; a scipy.sparse X observes its
        stored entries, a dense X every pair whose entry is not NaN) or "euclidean" (the distances
        between X's rows, every pair).
    squared : bool, default False. The entries are squared distances already.
    solver : "nolips" (default) or "gradient_descent".
    max_iter, tol, random_state, solver_params : see facto's estimators.

    Attributes: embedding_ (n x n_components), n_pairs_ (the pairs observed), n_iter_, objective_,
    stationarity_, stop_reason_, n_features_in_.
    """

    def __init__(self, n_components=3, *, metric="precomputed", squared=False, solver="nolips", max_iter=None,
                 tol=None, random_state=None, solver_params=None):
        self.n_components = n_components
        self.metric = metric
        self.squared = squared
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.solver_params = solver_params

    def _more_tags(self):
        # precomputed: an n x n matrix whose NaN entries are the pairs not observed
        return {"pairwise": self.metric == "precomputed", "allow_nan": self.metric == "precomputed"}

    def _pairs(self, X):
        """(i, j, d, n) over the observed pairs i < j, d the squared distances. A pair stored twice must hold
        one value, to 1e-9 relative (both triangles of a symmetric matrix)."""
        if self.metric == "euclidean":
            X = validate(self, X)
            n = X.shape[0]
            i, j = np.triu_indices(n, 1)
            d = np.concatenate([((X[k + 1:] - X[k]) ** 2).sum(axis=1) for k in range(n - 1)])
            return i, j, d, n
        if self.metric != "precomputed":
            raise ValueError(f"metric must be 'precomputed' or 'euclidean', got {self.metric!r}")
        M = symmetric_input(self, X, accept_sparse=("coo", "csr", "csc"), allow_nan=True)
        if hasattr(M, "tocoo"):
            M = M.tocoo()  # duplicates kept, as stored
            i, j, d = M.row, M.col, M.data
        else:
            i, j = np.nonzero(~np.isnan(M))
            d = M[i, j]
        if np.any(d < 0):
            raise ValueError("Negative values in data passed to EDMCompletion: distances must be nonnegative")
        lower, upper = np.minimum(i, j), np.maximum(i, j)
        keep = lower < upper
        pairs, first, which = np.unique(np.stack([lower[keep], upper[keep]]), axis=1, return_index=True,
                                        return_inverse=True)
        d = d[keep]
        stored = d[first][which.ravel()]  # the first value stored for each entry's pair
        conflict = np.flatnonzero(np.abs(d - stored) > 1e-9 * np.maximum(d, stored))
        if conflict.size:
            k = conflict[0]
            raise ValueError(f"the pair ({lower[keep][k]}, {upper[keep][k]}) is given two distances, "
                             f"{stored[k]} and {d[k]}")
        d = d[first]
        return pairs[0], pairs[1], d if self.squared else d ** 2, M.shape[0]

    def fit(self, X, y=None, callback=None):
        """Fits on X; `callback(progress) -> stop?` is called every iteration."""
        i, j, d, n = self._pairs(X)
        self.n_pairs_ = int(i.size)
        problem = Problem.edm_completion(n, self.n_components, i, j, d)
        self.embedding_ = self._solve(problem, self.solver, callback, iterate=True)["iterate"]
        return self

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns embedding_ (n x n_components)."""
        return self.fit(X, y, callback).embedding_
