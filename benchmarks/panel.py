"""The defaults panel: what a user gets without choosing, beside scikit-learn, on labelled data nobody
tuned facto on (docs/benchmarks.md, "The defaults panel"). Not a test: it prints a table, asserts nothing.

    python3 benchmarks/panel.py [quick|full] [clustering|separable]

Every row is one fit in this process, on the same data and seed: clustering accuracy against the classes
(Hungarian matching), seconds, and facto's stop reason. facto's estimators run with their defaults
(solver "auto", the library's parameters); the papers' configurations that the defaults replaced run
beside them ("paper: ..."), and scikit-learn's KMeans (k-means++, n_init 10) and SpectralClustering
(on its kNN graph: its default rbf kernel with gamma 1 did not finish on digits in 5 minutes) as the
references a user compares with. Data: scikit-learn's wine, breast-cancer and
digits, the bundled satimage, and the TF-IDF (scikit-learn's TfidfTransformer, sparse) of 1000 Reuters
documents of its 10 largest topics (a seeded sample; the benchmark data directory, benchmarks/README.md);
"full" adds the 10,000 Fashion-MNIST test images (Debian's dataset-fashion-mnist), all 70,000, and the
TF-IDF of TDT2's 9394 labelled documents. A row a method cannot take at that size says so.

The second table is separable NMF's: fitted on a seeded 80% of digits and satimage ("full": and the
10,000 Fashion-MNIST images), the relative error ||X - W H|| / ||X|| of the other 20% through the fitted
anchors (transform, then inverse_transform), beside scikit-learn's NMF (nndsvda) at the same K, which is
not restricted to anchors.
"""
import sys
import time
import warnings

import numpy as np
from sklearn.cluster import KMeans, SpectralClustering
from sklearn.datasets import load_breast_cancer, load_digits, load_wine
from sklearn.decomposition import NMF

import facto
from holdout import corpus, fashion, satimage, split, tdt2

SEED = 0


def reuters(count=1000, topics=10):
    """TF-IDF of `count` documents drawn (seeded) from Reuters-21578's `topics` largest topics."""
    from sklearn.feature_extraction.text import TfidfTransformer
    C, y = corpus("reuters21578")
    largest = np.argsort(-np.bincount(y[y >= 0]))[:topics]
    kept = np.sort(np.random.default_rng(SEED).permutation(np.flatnonzero(np.isin(y, largest)))[:count])
    X = TfidfTransformer().fit_transform(C[kept])
    return X[:, np.flatnonzero(X.getnnz(axis=0))], y[kept]


def tdt2_tfidf():
    from sklearn.feature_extraction.text import TfidfTransformer
    C, y = tdt2()
    known = np.flatnonzero(y >= 0)
    X = TfidfTransformer().fit_transform(C[known])
    return X[:, np.flatnonzero(X.getnnz(axis=0))], y[known]


def data_sets(mode):
    sets = [("wine", *load_wine(return_X_y=True)), ("breast-cancer", *load_breast_cancer(return_X_y=True)),
            ("digits", *load_digits(return_X_y=True)), ("satimage", *satimage()),
            ("Reuters TF-IDF 1k", *reuters())]
    if mode == "full":
        sets += [("Fashion-MNIST 10k", *fashion(10000)), ("Fashion-MNIST 70k", *fashion(70000)),
                 ("TDT2 TF-IDF", *tdt2_tfidf())]
    return sets


def methods(K, n):
    """(name, estimator, reason) triples; a None estimator is skipped for its reason."""
    dense_kernel = "the dense n x n kernel: %.0f GB" % (8e-9 * n * n) if n > 20000 else None
    large = "above 20,000 points: not measured" if n > 20000 else None
    return [
        ("sklearn KMeans", KMeans(K, n_init=10, random_state=SEED), None),
        ("sklearn SpectralClustering (kNN graph)",
         SpectralClustering(K, affinity="nearest_neighbors", random_state=SEED), large),
        ("SimplicialSymNMF", facto.SimplicialSymNMF(K, random_state=SEED), dense_kernel),
        ("  paper: bandwidth=1.0 (120 s limit)",
         facto.SimplicialSymNMF(K, bandwidth=1.0, random_state=SEED, solver_params={"time_limit": 120}), dense_kernel),
        ("SymNMFClustering", facto.SymNMFClustering(K, random_state=SEED), None),
        ("NOMADClustering", facto.NOMADClustering(K, random_state=SEED), None),
        ("  paper: inner_method=lbfgsb, start=kmeans",
         facto.NOMADClustering(K, solver="burer_monteiro", random_state=SEED,
                               solver_params={"inner_method": "lbfgsb", "start": "kmeans"}), None),
    ]


def fit(estimator, X):
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimator.fit(X)
    return time.perf_counter() - start


def separable_methods(K):
    return [
        ("SeparableNMF", facto.SeparableNMF(K, random_state=SEED)),
        ("  solver=spa", facto.SeparableNMF(K, solver="spa", random_state=SEED)),
        ("  paper: solver=merit (60 s limit)",
         facto.SeparableNMF(K, solver="merit", random_state=SEED, solver_params={"time_limit": 60})),
        ("sklearn NMF (nndsvda, not separable)", NMF(K, init="nndsvda", max_iter=1000, random_state=SEED)),
    ]


def separable(mode, K=10):
    """Held-out relative error of separable NMF's anchors (the module's second table)."""
    print("\n| data (n, K) | method | held-out relative error | seconds | stop |")
    print("|---|---|---|---|---|")
    sets = [("digits", load_digits(return_X_y=True)[0]), ("satimage", satimage()[0])]
    if mode == "full":
        sets.append(("Fashion-MNIST 10k", fashion(10000)[0]))
    for name, X in sets:
        X = np.ascontiguousarray(X, dtype=float)
        fitted, held = split(X.shape[0])
        for label, estimator in separable_methods(K):
            seconds = fit(estimator, X[fitted])
            rebuilt = estimator.inverse_transform(estimator.transform(X[held]))
            error = np.linalg.norm(X[held] - rebuilt) / np.linalg.norm(X[held])
            stop = getattr(estimator, "stop_reason_", "")
            print(f"| {name} ({X.shape[0]}, {K}) | {label} | {error:.3f} | {seconds:.2f} | {stop} |", flush=True)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "quick"
    only = sys.argv[2] if len(sys.argv) > 2 else None  # "clustering" or "separable": one table
    if only != "clustering":
        separable(mode)
    if only == "separable":
        return
    print("\n| data (n, K) | method | accuracy | seconds | stop |")
    print("|---|---|---|---|---|")
    for name, X, y in data_sets(mode):
        if not hasattr(X, "tocsr"):  # scipy.sparse stays sparse: the estimators take it as users give it
            X = np.ascontiguousarray(X, dtype=float)
        K = len(np.unique(y))
        for label, estimator, skipped in methods(K, X.shape[0]):
            where = f"{name} ({X.shape[0]}, {K})"
            if skipped:
                print(f"| {where} | {label} | not run ({skipped}) | | |", flush=True)
                continue
            seconds = fit(estimator, X)
            accuracy = facto.clustering_accuracy(estimator.labels_, y)
            stop = getattr(estimator, "stop_reason_", "")
            print(f"| {where} | {label} | {accuracy:.3f} | {seconds:.2f} | {stop} |", flush=True)


if __name__ == "__main__":
    main()
