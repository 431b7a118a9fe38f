"""scikit-learn style Euclidean distance matrix completion (Dragomir, d'Aspremont & Bolte Sec. 4.2):
an embedding from some observed distances. Transductive, like MDS: fit and fit_transform."""
import numpy as np

from ._base import FactoEstimator, symmetric_input
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

    def __init__(self, n_components=3, metric="precomputed", squared=False, solver="nolips", max_iter=None,
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
        """(i, j, d) over the observed pairs i < j, d the squared distances."""
        if self.metric == "euclidean":
            X = self._validate_data(X, ensure_min_samples=2)
            i, j = np.triu_indices(X.shape[0], 1)
            return i, j, ((X[i] - X[j]) ** 2).sum(axis=1), X.shape[0]
        if self.metric != "precomputed":
            raise ValueError(f"metric must be 'precomputed' or 'euclidean', got {self.metric!r}")
        if hasattr(X, "tocoo"):
            M = symmetric_input(self, X, accept_sparse="coo").tocoo()
            i, j, d = M.row, M.col, M.data
        else:
            M = self._validate_data(X, ensure_min_samples=2, force_all_finite="allow-nan")
            if M.shape[0] != M.shape[1]:
                raise ValueError(f"a precomputed matrix must be square, got shape {M.shape}")
            i, j = np.nonzero(~np.isnan(M))
            d = M[i, j]
        if np.any(d < 0):
            raise ValueError("Negative values in data passed to EDMCompletion: distances must be nonnegative")
        lower, upper = np.minimum(i, j), np.maximum(i, j)
        keep = lower < upper
        pairs, first = np.unique(np.stack([lower[keep], upper[keep]]), axis=1, return_index=True)
        d = d[keep][first]
        return pairs[0], pairs[1], d if self.squared else d ** 2, M.shape[0]

    def fit(self, X, y=None, callback=None):
        """Fits on X; `callback(progress) -> stop?` is called every iteration."""
        i, j, d, n = self._pairs(X)
        self.n_pairs_ = int(i.size)
        self.embedding_, _ = self._solve(Problem.edm_completion(n, self.n_components, i, j, d), self.solver,
                                         callback)
        return self

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns embedding_ (n x n_components)."""
        return self.fit(X, y, callback).embedding_
