"""scikit-learn style Euclidean distance matrix completion (Dragomir, d'Aspremont & Bolte Sec. 4.2):
an embedding from some observed distances, and the positions of new points from their distances to the
embedded ones (transform)."""
import numpy as np

from ._base import FactoEstimator, Flag, Integer, Options, solvers_of, symmetric_input, transform_checks, validate
from .core import CsrMatrix, Problem


def _squared_norms(X):
    """The rows' squared norms, of a dense array or scipy.sparse rows (without densifying them)."""
    return np.asarray(X.multiply(X).sum(axis=1)).ravel() if hasattr(X, "multiply") else (X * X).sum(axis=1)


class EDMCompletion(FactoEstimator):
    """min 1/2 sum over observed pairs (||x_i - x_j||^2 - d_ij^2)^2 over X (n x n_components), by Dyn-NoLips
    with a quartic kernel or gradient descent.

    Parameters
    ----------
    n_components : int, default 3. The embedding's dimension r.
    metric : "precomputed" (default: X is an n x n dissimilarity matrix; a scipy.sparse X observes its
        stored entries, a dense X every pair whose entry is not NaN) or "euclidean" (the distances
        between X's rows, every pair; scipy.sparse rows, counts or TF-IDF, stay sparse: the distances come
        from their inner products).
    squared : bool, default False. The entries are squared distances already.
    solver : "auto" (default: the library's default for edm_completion), "nolips" or "gradient_descent".
    max_iter, tol, n_init, random_state, verbose, solver_params : see facto's estimators.

    Attributes: embedding_ (n x n_components), n_pairs_ (the pairs observed), n_iter_, objective_,
    stationarity_, stop_reason_, interrupted_, n_features_in_.
    New points (transform): each minimizes the fit's objective in one more row with the embedding fixed,
    from its distances to the n embedded points (q x n as the fit's: NaN or unstored where unobserved;
    metric="euclidean": new features, every distance); at least n_components + 1 observed per point.
    """

    _constraints = {"n_components": Integer(1), "metric": Options(["precomputed", "euclidean"]), "squared": Flag(),
                    "solver": Options(solvers_of("edm_completion", "auto"))}

    def __init__(self, n_components=3, *, metric="precomputed", squared=False, solver="auto", max_iter=None,
                 tol=None, n_init=1, random_state=None, verbose=0, solver_params=None):
        self.n_components = n_components
        self.metric = metric
        self.squared = squared
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.random_state = random_state
        self.verbose = verbose
        self.solver_params = solver_params

    def _more_tags(self):
        # precomputed: an n x n matrix whose NaN entries are the pairs not observed
        reason = ("the checks' random data have no exact embedding in n_components dimensions: transform, the "
                  "stationarity rule of one more point, agrees with the fitted embedding only at a stationary fit "
                  "of consistent distances (tests/test_estimators.py checks it on the Helix)")
        return {"pairwise": self.metric == "precomputed", "allow_nan": self.metric == "precomputed",
                "_xfail_checks": transform_checks(reason)}

    def _pairs(self, X):
        """(i, j, d, n) over the observed pairs i < j, d the squared distances. A pair stored twice must hold
        one value, to 1e-9 relative (both triangles of a symmetric matrix)."""
        if self.metric == "euclidean":
            X = validate(self, X, accept_sparse="csr")
            n = X.shape[0]
            i, j = np.triu_indices(n, 1)
            if hasattr(X, "tocsr"):  # ||x_k||^2 + ||x_l||^2 - 2 x_k . x_l, from the rows' non-zeros
                norms = _squared_norms(X)
                d = np.concatenate([np.maximum(norms[k + 1:] + norms[k] - 2.0 * (X[k + 1:] @ X[k].T).toarray().ravel(),
                                               0.0) for k in range(n - 1)])
            else:
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
        self._validate_params()
        i, j, d, n = self._pairs(X)
        self.n_pairs_ = int(i.size)
        self._fit_X = validate(self, X, accept_sparse="csr") if self.metric == "euclidean" else None
        problem = Problem.edm_completion(n, self.n_components, i, j, d)
        self._solve(problem, self.solver, callback, iterate=True,
                    on_result=lambda out: setattr(self, "embedding_", out["iterate"]))
        return self

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns embedding_ (n x n_components)."""
        return self.fit(X, y, callback).embedding_

    def _new_distances(self, X):
        """New points' squared distances to the fitted ones, sparse over the observed pairs."""
        if self.metric == "euclidean":
            Y = validate(self, X, accept_sparse="csr", reset=False, min_samples=1)
            F = self._fit_X
            cross = Y @ F.T
            cross = cross.toarray() if hasattr(cross, "toarray") else np.asarray(cross)
            return (_squared_norms(Y)[:, None] - 2.0 * cross + _squared_norms(F)[None, :]).clip(min=0.0)
        M = validate(self, X, accept_sparse=("coo", "csr", "csc"), allow_nan=True, reset=False, min_samples=1)
        if np.any((M.data if hasattr(M, "tocsr") else np.nan_to_num(M, nan=0.0)) < 0):
            raise ValueError("Negative values in data passed to EDMCompletion: distances must be nonnegative")
        if hasattr(M, "tocsr"):
            M = M.tocsr()
            data = M.data if self.squared else M.data ** 2
            return CsrMatrix(M.indptr.astype(np.int64), M.indices.astype(np.int64), data, M.shape)
        rows, cols = np.nonzero(~np.isnan(M))
        data = M[rows, cols] if self.squared else M[rows, cols] ** 2
        indptr = np.searchsorted(rows, np.arange(M.shape[0] + 1)).astype(np.int64)
        return CsrMatrix(indptr, cols.astype(np.int64), data, M.shape)

    def transform(self, X):
        """Positions of new points (q x n_components) in the fitted embedding's frame."""
        return self._applied(self._new_distances(X)).rows

    def score(self, X, y=None):
        """Minus the sum over new points of their squared distance errors (higher is better)."""
        return -float(np.sum(self._applied(self._new_distances(X)).residuals))
