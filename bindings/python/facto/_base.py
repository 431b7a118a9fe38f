"""What facto's scikit-learn style estimators share: the base classes (scikit-learn's own when it is
installed, small stand-ins when it is not), input validation, and one solve whose handles are closed
before fit returns, so that fitted estimators hold only numpy arrays and numbers (they pickle and clone).
"""
import inspect

import numpy as np

from .core import Solver

try:
    from sklearn.base import BaseEstimator, ClusterMixin

    HAVE_SKLEARN = True
    try:  # scikit-learn >= 1.6: a function, and force_all_finite renamed
        from sklearn.utils.validation import validate_data as _sklearn_validate_data
    except ImportError:
        _sklearn_validate_data = None
except ImportError:  # the package works without scikit-learn; these follow its conventions
    HAVE_SKLEARN = False

    class BaseEstimator:
        """get_params / set_params from the keyword parameters of __init__, as scikit-learn's."""

        @classmethod
        def _get_param_names(cls):
            signature = inspect.signature(cls.__init__)
            return sorted(p.name for p in signature.parameters.values() if p.name != "self")

        def get_params(self, deep=True):
            return {name: getattr(self, name) for name in self._get_param_names()}

        def set_params(self, **params):
            valid = self._get_param_names()
            for name, value in params.items():
                if name not in valid:
                    raise ValueError(f"Invalid parameter {name!r} for estimator {type(self).__name__}; "
                                     f"valid parameters: {valid}")
                setattr(self, name, value)
            return self

        def __repr__(self):
            params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
            return f"{type(self).__name__}({params})"

        def _validate_data(self, X, accept_sparse=False, dtype=np.float64, ensure_min_samples=1,
                           force_all_finite=True, reset=True):
            if hasattr(X, "tocsr"):
                if not accept_sparse:
                    raise TypeError("A sparse matrix was passed, but dense data is required; use X.toarray()")
                X = X.astype(dtype)
                finite = np.isfinite(X.data)
            else:
                X = np.asarray(X, dtype=dtype)
                if X.ndim != 2:
                    raise ValueError(f"Expected 2D array, got {X.ndim}D array instead")
                finite = np.isfinite(X) | (np.isnan(X) if force_all_finite == "allow-nan" else False)
            if X.shape[0] < ensure_min_samples:
                raise ValueError(f"Found array with {X.shape[0]} sample(s) (shape={X.shape}) while a minimum of "
                                 f"{ensure_min_samples} is required.")
            if force_all_finite and not np.all(finite):
                raise ValueError("Input contains NaN or infinity.")
            if reset:
                self.n_features_in_ = X.shape[1]
            return X

    class ClusterMixin:
        _estimator_type = "clusterer"

        def fit_predict(self, X, y=None, **kwargs):
            return self.fit(X, y, **kwargs).labels_


def validate(estimator, X, accept_sparse=False, allow_nan=False):
    """X as float64 (dense, or scipy.sparse when accept_sparse names formats), finite (NaN allowed when
    allow_nan), at least 2 samples; sets n_features_in_. scikit-learn's own checks where installed."""
    finite = "allow-nan" if allow_nan else True
    if HAVE_SKLEARN and _sklearn_validate_data is not None:
        return _sklearn_validate_data(estimator, X, accept_sparse=accept_sparse, dtype=np.float64,
                                      ensure_min_samples=2, ensure_all_finite=finite)
    return estimator._validate_data(X, accept_sparse=accept_sparse, dtype=np.float64, ensure_min_samples=2,
                                    force_all_finite=finite)


class FactoEstimator(BaseEstimator):
    """The estimators' common parameters: solver (a facto algorithm), max_iter and tol (the solver's
    max_iterations and tolerance; None keeps its defaults), random_state (None: the solver's default seed,
    so that a fit is reproducible, unlike scikit-learn's None, the global RNG; an int: that seed; a
    RandomState: a seed drawn from it) and solver_params (a dict of any other solver parameter by its
    facto name, never modified; a fit's callback is fit's own argument)."""

    def _seed(self):
        if self.random_state is None:
            return None
        if isinstance(self.random_state, (int, np.integer)):
            return int(self.random_state)
        return int(self.random_state.randint(np.iinfo(np.int32).max))  # a numpy RandomState

    def _solve(self, problem, algorithm, callback=None, outputs=(), iterate=False):
        """Solves `problem` with `algorithm` and this estimator's settings; sets n_iter_, objective_,
        stationarity_, stop_reason_ (its name, e.g. "CONVERGED") and returns {output: array}, with the
        iterate under "iterate" when asked (it can be large: MERIT's is N x N)."""
        params = dict(self.solver_params or {})
        if self.max_iter is not None:
            params["max_iterations"] = int(self.max_iter)
        if self.tol is not None:
            params["tolerance"] = float(self.tol)
        seed = self._seed()
        if seed is not None:
            params["seed"] = seed
        with problem, Solver(problem, algorithm, callback=callback) as solver:
            for name, value in params.items():
                solver.params[name] = value
            self.stop_reason_ = solver.solve().name
            progress = solver.progress
            values = {name: solver.output(name) for name in outputs}
            if iterate:
                values["iterate"] = solver.iterate
        self.n_iter_ = int(progress.iteration)
        self.objective_ = float(progress.objective)
        self.stationarity_ = float(progress.stationarity)
        return values


def symmetric_input(estimator, X, accept_sparse, allow_nan=False):
    """X validated as a square (n x n) matrix: a precomputed affinity or dissimilarity."""
    X = validate(estimator, X, accept_sparse, allow_nan)
    if X.shape[0] != X.shape[1]:
        raise ValueError(f"a precomputed matrix must be square, got shape {X.shape}")
    return X


def precomputed_tags(precomputed):
    """scikit-learn's tags of a clusterer that takes a precomputed n x n matrix when `precomputed`:
    check_clustering fits on features (it does not make them pairwise, unlike the other checks)."""
    if not precomputed:
        return {}
    reason = "check_clustering passes features, not an n x n matrix, whatever the pairwise tag"
    return {"pairwise": True, "_xfail_checks": {"check_clustering": reason}}
