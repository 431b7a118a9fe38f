"""What facto's scikit-learn style estimators share: the base classes (scikit-learn's own when it is
installed, small stand-ins when it is not), parameter and input validation, and one solve (with
restarts, progress and Ctrl-C) whose handles are closed before fit returns, so that fitted estimators
hold only numpy arrays and numbers (they pickle and clone). A fitted estimator keeps its model's arrays
and applies them to new data through facto.Model (transform, predict, score).
"""
import inspect
import numbers

import numpy as np

from .core import Model, Solver, StopReason, algorithms

try:
    from sklearn.base import BaseEstimator, ClusterMixin, TransformerMixin
    from sklearn.exceptions import NotFittedError

    HAVE_SKLEARN = True
    try:  # scikit-learn >= 1.6: a function, and force_all_finite renamed
        from sklearn.utils.validation import validate_data as _sklearn_validate_data
    except ImportError:
        _sklearn_validate_data = None
    try:
        from sklearn.utils._param_validation import InvalidParameterError as _InvalidParameterBase
    except ImportError:  # scikit-learn < 1.2
        class _InvalidParameterBase(ValueError, TypeError):
            pass
except ImportError:  # the package works without scikit-learn; these follow its conventions
    HAVE_SKLEARN = False

    class _InvalidParameterBase(ValueError, TypeError):
        pass

    class NotFittedError(ValueError, AttributeError):
        """The estimator is used before fit (scikit-learn's NotFittedError)."""

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
            if isinstance(dtype, (list, tuple)):  # scikit-learn's rule: keep a listed dtype, else the first
                dtype = X.dtype if getattr(X, "dtype", None) in dtype else dtype[0]
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
            elif X.shape[1] != getattr(self, "n_features_in_", X.shape[1]):
                raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                                 f"{self.n_features_in_} features as input.")
            return X

    class ClusterMixin:
        _estimator_type = "clusterer"

        def fit_predict(self, X, y=None, **kwargs):
            return self.fit(X, y, **kwargs).labels_

    class TransformerMixin:
        def fit_transform(self, X, y=None, **kwargs):
            return self.fit(X, y, **kwargs).transform(X)


class InvalidParameterError(_InvalidParameterBase):
    """A constructor parameter of the wrong type or outside its range, raised by fit (scikit-learn's
    InvalidParameterError where scikit-learn is installed; a ValueError and a TypeError)."""


def validate(estimator, X, accept_sparse=False, allow_nan=False, reset=True, min_samples=2, dtype=np.float64):
    """X as float64 (dense, or scipy.sparse when accept_sparse names formats; a float32 X stays float32
    when dtype lists both, as scikit-learn reads a list), finite (NaN allowed when allow_nan), at least
    min_samples samples; sets n_features_in_ (reset) or checks it. scikit-learn's own checks where
    installed."""
    finite = "allow-nan" if allow_nan else True
    if HAVE_SKLEARN and _sklearn_validate_data is not None:
        return _sklearn_validate_data(estimator, X, accept_sparse=accept_sparse, dtype=dtype,
                                      ensure_min_samples=min_samples, ensure_all_finite=finite, reset=reset)
    return estimator._validate_data(X, accept_sparse=accept_sparse, dtype=dtype, ensure_min_samples=min_samples,
                                    force_all_finite=finite, reset=reset)


def dense_features(estimator, X, reset=True, min_samples=2):
    """Features as a dense array: scipy.sparse ones are accepted and made dense (n x p doubles), since the
    affinities facto builds from features read them densely."""
    X = validate(estimator, X, accept_sparse=("csr", "csc", "coo"), reset=reset, min_samples=min_samples)
    return X.toarray() if hasattr(X, "toarray") else X


# ---- parameter constraints, checked by fit as scikit-learn's estimators do

class Integer:
    """An int (not a bool) in [low, high]; None allowed when optional."""

    def __init__(self, low, high=None, optional=False):
        self.low, self.high, self.optional = low, high, optional

    def accepts(self, value):
        if value is None:
            return self.optional
        return (isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= self.low
                and (self.high is None or value <= self.high))

    def __str__(self):
        upper = "inf)" if self.high is None else f"{self.high}]"
        return f"an int in the range [{self.low}, {upper}" + (" or None" if self.optional else "")


class Real:
    """A real number (not a bool) above low (or at it, when closed); None allowed when optional."""

    def __init__(self, low, closed=True, optional=False):
        self.low, self.closed, self.optional = low, closed, optional

    def accepts(self, value):
        if value is None:
            return self.optional
        if not isinstance(value, numbers.Real) or isinstance(value, bool) or not np.isfinite(value):
            return False
        return value >= self.low if self.closed else value > self.low

    def __str__(self):
        return (f"a float in the range {'[' if self.closed else '('}{self.low}, inf)" +
                (" or None" if self.optional else ""))


class Options:
    """One of a list of strings (a callable gives the list when it comes from the library's registry)."""

    def __init__(self, options):
        self.options = options

    def _list(self):
        return list(self.options() if callable(self.options) else self.options)

    def accepts(self, value):
        return isinstance(value, str) and value in self._list()

    def __str__(self):
        return "a str among {" + ", ".join(repr(o) for o in self._list()) + "}"


class Seed:
    """None, an int in [0, 2**32 - 1] (numpy's seed range) or a numpy RandomState."""

    def accepts(self, value):
        return (value is None or isinstance(value, np.random.RandomState) or
                (isinstance(value, numbers.Integral) and not isinstance(value, bool) and 0 <= value < 2**32))

    def __str__(self):
        return "None, an int in the range [0, 2**32 - 1] or an instance of 'numpy.random.RandomState'"


class Flag:
    def accepts(self, value):
        return isinstance(value, (bool, np.bool_))

    def __str__(self):
        return "a bool"


class Mapping:
    def accepts(self, value):
        return value is None or isinstance(value, dict)

    def __str__(self):
        return "a dict or None"


def solvers_of(kind, *extra):
    """The registry's algorithms of a problem kind (and extra names), for Options."""
    return lambda: list(extra) + [a.name for a in algorithms(kind)]


COMMON_CONSTRAINTS = {"max_iter": Integer(1, optional=True), "tol": Real(0.0, optional=True), "random_state": Seed(),
                      "solver_params": Mapping(), "n_init": Integer(1), "verbose": Integer(0)}


class FactoEstimator(BaseEstimator):
    """The estimators' common parameters: solver (a facto algorithm, or "auto": the library's default for
    the problem kind; fit sets solver_ to the algorithm that ran), max_iter and tol (the solver's
    max_iterations and tolerance; None keeps its defaults), n_init (seeded starts, the best objective
    kept), random_state (None: the solver's default seed, so that a fit is reproducible, unlike
    scikit-learn's None, the global RNG; an int: that seed; a RandomState: a seed drawn from it; start i
    of n_init uses seed + i), verbose (0 quiet; 1 a progress line every 10 iterations and each start's
    end; 2 every iteration, on stdout) and solver_params (a dict of any other solver parameter by its
    facto name, never modified; a fit's callback is fit's own argument).

    Ctrl-C during fit stops the solve within one inner step; the estimator keeps that partial fit (its
    attributes set but for what costs as much as the solve, interrupted_ True) and KeyboardInterrupt is
    raised."""

    _constraints = {}  # the estimator's own, besides COMMON_CONSTRAINTS
    _left_when_interrupted = ()  # outputs an interrupted fit does not compute (its attribute NaN)
    _maximize = False  # whether the problem's objective is maximized (NOMAD's Tr(D Q))

    def _validate_params(self):
        constraints = dict(COMMON_CONSTRAINTS, **self._constraints)
        for name, constraint in constraints.items():
            value = getattr(self, name)
            if not constraint.accepts(value):
                raise InvalidParameterError(f"The {name!r} parameter of {type(self).__name__} must be {constraint}. "
                                            f"Got {value!r} instead.")

    def _seed(self):
        if self.random_state is None:
            return None
        if isinstance(self.random_state, numbers.Integral):
            return int(self.random_state)
        return int(self.random_state.randint(np.iinfo(np.int32).max))  # a numpy RandomState

    def _reporter(self, callback, start):
        """The callback of one start: verbose's progress lines, then the caller's."""
        if not self.verbose and callback is None:
            return None
        every = 1 if self.verbose >= 2 else 10
        prefix = f"[{type(self).__name__}]" + (f" start {start + 1}/{self.n_init}" if self.n_init > 1 else "")

        def report(progress):
            if self.verbose and progress.iteration % every == 0:
                print(f"{prefix} iteration {progress.iteration}: objective {progress.objective:.8g}, stationarity "
                      f"{progress.stationarity:.3g}, {progress.elapsed_seconds:.1f} s", flush=True)
            return callback(progress) if callback is not None else False

        return report

    def _solve(self, problem, algorithm, callback=None, outputs=(), iterate=False, model_rule=None, on_result=None,
               fixed=None):
        """Solves `problem` with `algorithm` ("auto": the library's default) and this estimator's settings
        from n_init seeded starts (one for a solver without a seed), keeping the best objective: sets
        solver_ (the algorithm that ran), n_iter_, objective_,
        stationarity_, stop_reason_ (its name, e.g. "CONVERGED"), interrupted_ and the model applied by
        transform / predict (model_rule(model) adds its feature rule), calls on_result with {output:
        array} (the iterate under "iterate" when asked: it can be large, MERIT's is N x N) and returns
        that dict; `outputs` may be a function of the algorithm that ran. Ctrl-C keeps the best so far, this
        start's partial solve included. `fixed` holds solver parameters the estimator's own arguments
        decide."""
        params = dict(self.solver_params or {}, **(fixed or {}))
        if self.max_iter is not None:
            params["max_iterations"] = int(self.max_iter)
        if self.tol is not None:
            params["tolerance"] = float(self.tol)
        seed, best = self._seed(), None
        with problem:
            for start in range(self.n_init):
                with Solver(problem, algorithm, callback=self._reporter(callback, start)) as solver:
                    for name, value in params.items():
                        solver.params[name] = value
                    seeded = "seed" in solver.params.keys()
                    if seeded and (seed is not None or start > 0):
                        solver.params["seed"] = (seed if seed is not None else solver.params["seed"]) + start
                    try:
                        solver.solve()
                        interrupted = False
                    except KeyboardInterrupt:
                        interrupted = True
                    progress = solver.progress
                    if self.verbose:
                        print(f"[{type(self).__name__}] {progress.stop_reason.name} after {progress.iteration} "
                              f"iterations: objective {progress.objective:.8g}", flush=True)
                    if best is None or self._better(progress.objective, best[0].objective):
                        wanted = outputs(solver.algorithm) if callable(outputs) else outputs
                        if interrupted:  # Ctrl-C is answered now: what costs a solve's time more is left out
                            wanted = tuple(name for name in wanted if name not in self._left_when_interrupted)
                        best = (progress, self._collect(solver, wanted, iterate, model_rule))
                    self.solver_ = solver.algorithm
                    if interrupted or not seeded:
                        break
        progress, (values, model) = best
        self.n_iter_ = int(progress.iteration)
        self.objective_ = float(progress.objective)
        self.stationarity_ = float(progress.stationarity)
        self.stop_reason_ = StopReason(progress.stop_reason).name
        self.interrupted_ = interrupted
        self._model = model
        if on_result is not None:
            on_result(values)
        if interrupted:
            raise KeyboardInterrupt(f"{type(self).__name__}.fit stopped at iteration {progress.iteration}; the "
                                    f"estimator keeps that partial fit (interrupted_ is True)")
        return values

    def _better(self, objective, incumbent):
        if not np.isfinite(incumbent):
            return True
        return objective > incumbent if self._maximize else objective < incumbent

    @staticmethod
    def _collect(solver, outputs, iterate, model_rule):
        values = {name: solver.output(name) for name in outputs}
        if iterate:
            values["iterate"] = solver.iterate
        model = None
        if model_rule is not False:
            with Model.from_solver(solver) as m:
                if model_rule is not None:
                    model_rule(m)
                model = (m.kind, m.arrays)
        return values, model

    # ---- the fitted model applied to new data

    def _complete_model(self):
        """The fitted model (kind, arrays), with any part an estimator adds only when it is first needed."""
        return self._model

    def _applied(self, Y):
        """facto.Applied of new data Y (already validated) by the fitted model."""
        model = getattr(self, "_model", None)
        if model is None:
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet. Call 'fit' with "
                                 "appropriate arguments before using this estimator.")
        kind, arrays = self._complete_model()
        with Model(kind, arrays) as m:
            return m.apply(Y)

    def save_model(self, directory, training_features=True):
        """Writes the fitted model as the command line's --save-model does (facto --apply DIR FILE and
        facto.Model.load read it), with this estimator's parameters as its settings. A model fitted on
        features keeps a copy of them to place new points among them (Model.describe says so);
        training_features=False leaves them out, and the saved model then applies to affinity rows."""
        if getattr(self, "_model", None) is None:
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet.")
        kind, arrays = self._complete_model()
        settings = {"estimator": type(self).__name__,
                    "params": {k: v for k, v in self.get_params().items() if isinstance(v, (str, int, float, bool))}}
        with Model(kind, arrays) as m:
            if not training_features:
                m.drop_training_features()
            m.save(directory, settings)


def symmetric_input(estimator, X, accept_sparse, allow_nan=False):
    """X validated as a square (n x n) matrix: a precomputed affinity or dissimilarity."""
    X = validate(estimator, X, accept_sparse, allow_nan)
    if X.shape[0] != X.shape[1]:
        raise ValueError(f"a precomputed matrix must be square, got shape {X.shape}")
    return X


def precomputed_tags(precomputed, transform_differs=None):
    """scikit-learn's tags of a clusterer that takes a precomputed n x n matrix when `precomputed`:
    check_clustering fits on features (it does not make them pairwise, unlike the other checks). With a
    reason, transform_differs marks the checks that compare fit_transform(X) with fit(X).transform(X)."""
    xfail = dict(transform_checks(transform_differs)) if transform_differs else {}
    if precomputed:
        xfail["check_clustering"] = "check_clustering passes features, not an n x n matrix, whatever the pairwise tag"
    tags = {"pairwise": True} if precomputed else {}
    if xfail:
        tags["_xfail_checks"] = xfail
    return tags


# scikit-learn's checks that fit_transform(X) equals fit(X).transform(X)
TRANSFORM_CHECKS = ("check_transformer_general", "check_transformer_data_not_an_array")


def transform_checks(reason):
    return {name: reason for name in TRANSFORM_CHECKS}


