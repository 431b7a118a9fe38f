"""scikit-learn style separable NMF and anchor-word topic models (Nguyen, Fu & Wu: MERIT, with SPA and
the other anchor pickers as solvers). Both are transductive: fit and fit_transform."""
import numpy as np

from ._base import FactoEstimator, validate
from .core import Problem


class SeparableNMF(FactoEstimator):
    """Separable NMF by self-dictionary: every sample (row of X) is a convex combination of n_components
    anchor samples, X ~ H^T X[anchors_], picked by MERIT (min 1/2 ||X^T - X^T C||^2 + lam Phi_mu(C), the
    columns of C on the simplex) or SPA.

    Parameters
    ----------
    n_components : int, default 2. The number of anchors K.
    solver : "merit" (default), "spa", "snpa", "fast_anchor" or "fast_gradient".
    lam : float or None (default: the paper's heuristic ||X - X C0||_F / K; 0 is MERIT(0)).  mu : the
        smoothing of Phi_mu, default 1e-5.
    max_iter, tol, random_state, solver_params : see facto's estimators.

    Attributes: anchors_ (the anchor samples' indices, increasing), components_ (X[anchors_]),
    weights_ (n_samples x K, rows on the simplex: the least squares of each sample on the anchors),
    n_iter_, objective_, stationarity_, stop_reason_, n_features_in_.
    """

    def __init__(self, n_components=2, *, solver="merit", lam=None, mu=1e-5, max_iter=None, tol=None,
                 random_state=None, solver_params=None):
        self.n_components = n_components
        self.solver = solver
        self.lam = lam
        self.mu = mu
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.solver_params = solver_params

    def fit(self, X, y=None, callback=None):
        """Fits on X (n_samples x n_features); `callback(progress) -> stop?` is called every iteration."""
        X = validate(self, X)
        problem = Problem.self_dictionary(X.T, self.n_components, self.lam, self.mu)
        out = self._solve(problem, self.solver, callback, outputs=("selected", "H"))
        self.anchors_ = out["selected"]
        self.components_ = X[self.anchors_]
        self.weights_ = np.atleast_2d(out["H"]).T.copy()
        return self

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns weights_ (n_samples x K)."""
        return self.fit(X, y, callback).weights_


# scikit-learn's checks that fit AnchorTopicModel on fractional data
_FRACTIONAL_DATA_CHECKS = ("check_estimators_dtypes", "check_fit_score_takes_y", "check_estimators_fit_returns_self",
                           "check_dtype_object", "check_pipeline_consistency", "check_estimators_nan_inf",
                           "check_estimators_overwrite_params", "check_estimator_sparse_data",
                           "check_estimators_pickle", "check_methods_sample_order_invariance",
                           "check_methods_subset_invariance", "check_fit2d_1feature", "check_dict_unchanged",
                           "check_dont_overwrite_parameters", "check_fit_idempotent", "check_fit_check_is_fitted",
                           "check_n_features_in", "check_fit2d_predict1d")


class AnchorTopicModel(FactoEstimator):
    """Anchor-word topics of a documents x terms count matrix (Nguyen, Fu & Wu Sec. V-B): terms in fewer
    than min_df documents (or in all) dropped, TF-IDF, the word-word correlation reduced to `rank`
    dimensions, then anchor words by `solver`. Takes counts as from CountVectorizer (scipy.sparse or dense).

    Parameters
    ----------
    n_components : int, default 10. The number of topics K.
    min_df : int, default 2.  rank : int, default 0 (2 K).  lam, mu : MERIT's, defaults 5e-7 and 1e-5.
    solver : "merit" (default), "spa", "snpa", "fast_anchor" or "fast_gradient".
    max_iter, tol, random_state, solver_params : see facto's estimators.

    Attributes: anchors_ (the anchor words' term indices), components_ (K x n_terms, each topic's term
    distribution), top_terms_ (K x 10 term indices), labels_ (each document's main topic), coherence_,
    n_iter_, objective_, stationarity_, stop_reason_, n_features_in_.
    """

    def __init__(self, n_components=10, *, min_df=2, rank=0, lam=5e-7, mu=1e-5, solver="merit", max_iter=None,
                 tol=None, random_state=None, solver_params=None):
        self.n_components = n_components
        self.min_df = min_df
        self.rank = rank
        self.lam = lam
        self.mu = mu
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.solver_params = solver_params

    def _more_tags(self):
        reason = "fits fractional data, and counts must be whole (0 or at least 1)"
        return {"requires_positive_X": True, "X_types": ["2darray", "sparse"],
                "_xfail_checks": {check: reason for check in _FRACTIONAL_DATA_CHECKS}}

    def fit(self, X, y=None, callback=None):
        """Fits on the counts X (n_documents x n_terms, nonnegative)."""
        X = validate(self, X, accept_sparse="csr")
        if (X.data if hasattr(X, "tocsr") else X).min(initial=0.0) < 0:
            raise ValueError("Negative values in data passed to AnchorTopicModel: counts must be nonnegative")
        problem = Problem.topics(X, self.n_components, self.min_df, self.rank, self.lam, self.mu)
        out = self._solve(problem, self.solver, callback,
                          outputs=("selected", "topics", "top_terms", "document_topics", "labels", "coherence"))
        self.anchors_ = out["selected"]
        self.components_ = out["topics"]
        self.top_terms_ = out["top_terms"]
        self.labels_ = out["labels"]
        self.coherence_ = out["coherence"]
        self._document_topics = out["document_topics"]
        return self

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns each document's topic proportions (n_documents x K)."""
        return self.fit(X, y, callback)._document_topics
