"""scikit-learn style separable NMF and anchor-word topic models (Nguyen, Fu & Wu: MERIT, with SPA and
the other anchor pickers as solvers). Both apply to new data once fitted (facto.Model): transform gives
new samples' coefficients on the anchors (new documents' topic proportions), inverse_transform maps
coefficients back through components_, score is minus the sum of the new samples' residuals."""
import numpy as np

from ._base import FactoEstimator, Integer, Options, Real, TransformerMixin, solvers_of, validate
from .core import Problem


class SeparableNMF(TransformerMixin, FactoEstimator):
    """Separable NMF by self-dictionary: every sample (row of X) is a convex combination of n_components
    anchor samples, X ~ H^T X[anchors_], picked by MERIT (min 1/2 ||X^T - X^T C||^2 + lam Phi_mu(C), the
    columns of C on the simplex) or SPA.

    Parameters
    ----------
    n_components : int, default 2. The number of anchors K.
    solver : "auto" (default: the library's default for self_dictionary), "merit", "spa", "snpa",
        "fast_anchor" or "fast_gradient".
    lam, mu : the weight and smoothing of Phi_mu; None (default) takes the library's defaults
        (facto.problem_params("self_dictionary"): lam the paper's heuristic ||X - X C0||_F / K); lam=0 is
        MERIT(0).
    max_iter, tol, n_init, random_state, verbose, solver_params : see facto's estimators.

    A scipy.sparse X (TF-IDF) stays sparse, never made dense: "spa", "snpa" (the default) and "fast_anchor"
    run on its non-zeros; "merit" and "fast_gradient" refuse it.

    Attributes: anchors_ (the anchor samples' indices, increasing), components_ (X[anchors_], dense),
    weights_ (n_samples x K, rows on the simplex: the least squares of each sample on the anchors),
    n_iter_, objective_, stationarity_, stop_reason_, interrupted_, n_features_in_.
    """

    _constraints = {"n_components": Integer(1), "solver": Options(solvers_of("self_dictionary", "auto")),
                    "lam": Real(0.0, optional=True), "mu": Real(0.0, False, optional=True)}

    def __init__(self, n_components=2, *, solver="auto", lam=None, mu=None, max_iter=None, tol=None, n_init=1,
                 random_state=None, verbose=0, solver_params=None):
        self.n_components = n_components
        self.solver = solver
        self.lam = lam
        self.mu = mu
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.random_state = random_state
        self.verbose = verbose
        self.solver_params = solver_params

    def fit(self, X, y=None, callback=None):
        """Fits on X (n_samples x n_features); `callback(progress) -> stop?` is called every iteration."""
        self._validate_params()
        X = validate(self, X, accept_sparse="csr")
        problem = Problem.self_dictionary(X.T, self.n_components, self.lam, self.mu)
        self._solve(problem, self.solver, callback, outputs=("selected", "H"), on_result=lambda out: self._fitted(out, X))
        return self

    def _fitted(self, out, X):
        self.anchors_ = out["selected"]
        self.components_ = X[self.anchors_].toarray() if hasattr(X, "toarray") else X[self.anchors_]
        self.weights_ = np.atleast_2d(out["H"]).T.copy()

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns weights_ (n_samples x K)."""
        return self.fit(X, y, callback).weights_

    def transform(self, X):
        """New samples' coefficients on the anchors (n_new x K, rows on the simplex)."""
        return self._applied(validate(self, X, accept_sparse="csr", reset=False, min_samples=1).T).rows

    def inverse_transform(self, W):
        """Samples from coefficients: W components_ (n x n_features)."""
        return np.asarray(W, dtype=np.float64) @ self.components_

    def score(self, X, y=None):
        """Minus the sum over new samples of ||x - components_^T w||^2 (higher is better)."""
        return -float(np.sum(self._applied(validate(self, X, reset=False, min_samples=1).T).residuals))


# scikit-learn's checks that fit AnchorTopicModel on fractional data
_FRACTIONAL_DATA_CHECKS = ("check_estimators_dtypes", "check_fit_score_takes_y", "check_estimators_fit_returns_self",
                           "check_dtype_object", "check_pipeline_consistency", "check_estimators_nan_inf",
                           "check_estimators_overwrite_params", "check_estimator_sparse_data",
                           "check_estimators_pickle", "check_methods_sample_order_invariance",
                           "check_methods_subset_invariance", "check_fit2d_1feature", "check_dict_unchanged",
                           "check_dont_overwrite_parameters", "check_fit_idempotent", "check_fit_check_is_fitted",
                           "check_n_features_in", "check_fit2d_predict1d", "check_transformer_general",
                           "check_transformer_data_not_an_array", "check_transformer_preserve_dtypes",
                           "check_transformer_n_iter")


class AnchorTopicModel(TransformerMixin, FactoEstimator):
    """Anchor-word topics of a documents x terms count matrix (Nguyen, Fu & Wu Sec. V-B): terms in fewer
    than min_df documents (or in all) dropped, TF-IDF, the word-word correlation reduced to `rank`
    dimensions, anchor words by `solver`, then their topics refined together with the documents' weights
    (HALS on the documents' unit-row TF-IDF). Takes counts as from CountVectorizer (scipy.sparse or dense).

    Parameters
    ----------
    n_components : int, default 10. The number of topics K.
    min_df, rank (0: 2 K), lam, mu, refine : the problem's parameters; None (default) takes the library's
        defaults (facto.problem_params("topics"), each with the reason for it): min_df 0, 1% of the
        documents (at least 2), where the paper's 2 lets rare words be anchors; refine 1e-3, the
        refinement stops when a sweep gains less than that fraction of the fit (0: the anchors' topics as
        the paper forms them, which trail scikit-learn's NMF on small corpora: docs/benchmarks.md).
    solver : "auto" (default: the library's default for topics, SPA), "merit", "spa", "snpa",
        "fast_anchor" or "fast_gradient": the anchor step. The paper's pipeline is min_df=2, refine=0,
        solver="merit".
    max_iter, tol, n_init, random_state, verbose, solver_params : see facto's estimators.

    Attributes: anchors_ (the anchor words' term indices), components_ (K x n_terms, each topic's term
    distribution), top_terms_ (K x 20 term indices by decreasing weight, the paper's 20), labels_ (each
    document's main topic, -1 for a document with no kept term), coherence_ (Mimno et al.'s UMass
    coherence over the top 20 terms, each pair once, the mean over topics; the paper's tables and the
    command line count each pair twice: twice this), n_iter_, objective_, stationarity_, stop_reason_,
    interrupted_, n_features_in_.
    New documents (transform): their topic proportions from components_ by the fit's rule (the fit's
    vocabulary pruning and TF-IDF weights, nonnegative least squares, rows scaled to sum 1); a document
    with no kept term gets a row of zeros (predict: -1).
    """

    _constraints = {"n_components": Integer(1), "min_df": Integer(0, optional=True), "rank": Integer(0, optional=True),
                    "lam": Real(0.0, optional=True), "mu": Real(0.0, False, optional=True),
                    "refine": Real(0.0, optional=True),
                    "solver": Options(solvers_of("topics", "auto"))}

    def __init__(self, n_components=10, *, min_df=None, rank=None, lam=None, mu=None, refine=None, solver="auto",
                 max_iter=None, tol=None, n_init=1, random_state=None, verbose=0, solver_params=None):
        self.n_components = n_components
        self.min_df = min_df
        self.rank = rank
        self.lam = lam
        self.mu = mu
        self.refine = refine
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.random_state = random_state
        self.verbose = verbose
        self.solver_params = solver_params

    def _more_tags(self):
        reason = "fits fractional data, and counts must be whole (0 or at least 1)"
        return {"requires_positive_X": True, "X_types": ["2darray", "sparse"],
                "_xfail_checks": {check: reason for check in _FRACTIONAL_DATA_CHECKS}}

    def _counts(self, X, reset):
        X = validate(self, X, accept_sparse="csr", reset=reset, min_samples=2 if reset else 1)
        if (X.data if hasattr(X, "tocsr") else X).min(initial=0.0) < 0:
            raise ValueError("Negative values in data passed to AnchorTopicModel: counts must be nonnegative")
        return X

    def fit(self, X, y=None, callback=None):
        """Fits on the counts X (n_documents x n_terms, nonnegative)."""
        self._validate_params()
        X = self._counts(X, reset=True)
        problem = Problem.topics(X, self.n_components, self.min_df, self.rank, self.lam, self.mu, self.refine)
        self._solve(problem, self.solver, callback,
                    outputs=("selected", "topics", "top_terms", "document_topics", "labels", "umass_coherence"),
                    on_result=self._fitted)
        return self

    def _fitted(self, out):
        self.anchors_ = out["selected"]
        self.components_ = out["topics"]
        self.top_terms_ = out["top_terms"]
        self.labels_ = out["labels"]
        self.coherence_ = float(np.ravel(out["umass_coherence"])[0])
        self._document_topics = out["document_topics"]

    def fit_transform(self, X, y=None, callback=None):
        """Fits and returns each document's topic proportions (n_documents x K)."""
        return self.fit(X, y, callback)._document_topics

    def transform(self, X):
        """New documents' topic proportions (n_new x K; zeros for a document with no kept term)."""
        return self._applied(self._counts(X, reset=False)).rows

    def predict(self, X):
        """New documents' main topic (-1 for a document with no kept term)."""
        return self._applied(self._counts(X, reset=False)).labels

    def inverse_transform(self, W):
        """Term distributions from topic proportions: W components_ (n x n_terms)."""
        return np.asarray(W, dtype=np.float64) @ self.components_

    def score(self, X, y=None):
        """Minus the sum over new documents of the residual of their TF-IDF rows on the topics."""
        return -float(np.sum(self._applied(self._counts(X, reset=False)).residuals))
