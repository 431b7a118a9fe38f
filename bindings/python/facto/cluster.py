"""scikit-learn style estimators for the problems of facto that cluster."""
from .core import Problem, Solver
from .data import gaussian_affinity


class SimplicialSymNMF:
    """Probabilistic clustering by simplicial symmetric NMF (Zhao & Gordon):
    min 1/4 ||P - W W^T||^2, W >= 0, rows of W on the simplex; labels_ = argmax of each row.

    Parameters
    ----------
    n_clusters : rank k.
    solver : "frank_wolfe" (default) or "projected_gradient".
    affinity : "rbf" (P = exp(-||x_i - x_j||^2 / bandwidth) of the rows of X) or "precomputed"
        (X is P itself).
    bandwidth, scaling : of the rbf affinity (scaling "minmax" maps each feature to [-1, 1]).
    max_iter, tol, random_state : the solver's max_iterations, tolerance (on the Frank-Wolfe gap relative
        to the objective at the start), seed.
    **solver_params : any other solver parameter by its facto name (e.g. variant="vanilla" for the
        paper's Frank-Wolfe).

    Attributes after fit: labels_, membership_ (W), n_iter_, objective_, gap_ (the Frank-Wolfe gap),
    stationarity_ (the measure tol bounds), stop_reason_.
    """

    def __init__(self, n_clusters=2, solver="frank_wolfe", affinity="rbf", bandwidth=1.0, scaling="minmax",
                 max_iter=10000, tol=1e-6, random_state=0, **solver_params):
        self.n_clusters = n_clusters
        self.solver = solver
        self.affinity = affinity
        self.bandwidth = bandwidth
        self.scaling = scaling
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.solver_params = solver_params

    def get_params(self, deep=True):
        params = {name: getattr(self, name) for name in ("n_clusters", "solver", "affinity", "bandwidth",
                                                           "scaling", "max_iter", "tol", "random_state")}
        params.update(self.solver_params)
        return params

    def set_params(self, **params):
        for name, value in params.items():
            if hasattr(self, name) and name != "solver_params":
                setattr(self, name, value)
            else:
                self.solver_params[name] = value
        return self

    def _affinity(self, X):
        if self.affinity == "precomputed":
            return X
        if self.affinity == "rbf":
            return gaussian_affinity(X, self.bandwidth, self.scaling)
        raise ValueError(f"affinity must be 'rbf' or 'precomputed', got {self.affinity!r}")

    def fit(self, X, y=None, callback=None):
        with Problem.simplicial_symnmf(self._affinity(X), self.n_clusters) as problem, \
                Solver(problem, self.solver, callback=callback, max_iterations=self.max_iter, tolerance=self.tol,
                       seed=self.random_state, **self.solver_params) as solver:
            self.stop_reason_ = solver.solve()
            progress = solver.progress
            self.membership_ = solver.iterate
            self.labels_ = solver.labels
            self.gap_ = float(solver.output("gaps")[0, 0])
        self.n_iter_ = progress.iteration
        self.objective_ = progress.objective
        self.stationarity_ = progress.stationarity
        return self

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns W, the n x k cluster-membership probabilities."""
        return self.fit(X, y, callback).membership_

    def fit_predict(self, X, y=None, callback=None):
        return self.fit(X, y, callback).labels_
