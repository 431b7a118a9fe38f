"""The defaults panel: what a user gets without choosing, beside scikit-learn, on labelled data nobody
tuned facto on (docs/benchmarks.md, "The defaults panel"). Not a test: it prints a table, asserts nothing.

    python3 benchmarks/panel.py [quick|full]

Every row is one fit in this process, on the same data and seed: clustering accuracy against the classes
(Hungarian matching), seconds, and facto's stop reason. facto's estimators run with their defaults
(solver "auto", the library's parameters); the papers' configurations that the defaults replaced run
beside them ("paper: ..."), and scikit-learn's KMeans (k-means++, n_init 10) and SpectralClustering
(on its kNN graph: its default rbf kernel with gamma 1 did not finish on digits in 5 minutes) as the
references a user compares with. Data: scikit-learn's wine, breast-cancer and
digits, the bundled satimage; "full" adds the 10,000 Fashion-MNIST test images (Debian's
dataset-fashion-mnist).
"""
import sys
import time
import warnings

import numpy as np
from sklearn.cluster import KMeans, SpectralClustering
from sklearn.datasets import load_breast_cancer, load_digits, load_wine

import facto
from holdout import fashion, satimage

SEED = 0


def data_sets(mode):
    sets = [("wine", *load_wine(return_X_y=True)), ("breast-cancer", *load_breast_cancer(return_X_y=True)),
            ("digits", *load_digits(return_X_y=True)), ("satimage", *satimage())]
    if mode == "full":
        sets.append(("Fashion-MNIST 10k", *fashion(10000)))
    return sets


def methods(K, n):
    """(name, estimator) pairs; a None estimator is skipped with its reason in the name."""
    rows = [
        ("sklearn KMeans", KMeans(K, n_init=10, random_state=SEED)),
        ("sklearn SpectralClustering (kNN graph)",
         SpectralClustering(K, affinity="nearest_neighbors", random_state=SEED) if n <= 20000 else None),
        ("SimplicialSymNMF", facto.SimplicialSymNMF(K, random_state=SEED)),
        ("  paper: bandwidth=1.0 (120 s limit)",
         facto.SimplicialSymNMF(K, bandwidth=1.0, random_state=SEED, solver_params={"time_limit": 120})),
        ("SymNMFClustering", facto.SymNMFClustering(K, random_state=SEED)),
        ("NOMADClustering", facto.NOMADClustering(K, random_state=SEED)),
    ]
    return rows


def fit(estimator, X):
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimator.fit(X)
    return time.perf_counter() - start


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "quick"
    print("| data (n, K) | method | accuracy | seconds | stop |")
    print("|---|---|---|---|---|")
    for name, X, y in data_sets(mode):
        X = np.ascontiguousarray(X, dtype=float)
        K = len(np.unique(y))
        for label, estimator in methods(K, X.shape[0]):
            where = f"{name} ({X.shape[0]}, {K})"
            if estimator is None:
                print(f"| {where} | {label} | skipped (dense n x n kernel) | | |", flush=True)
                continue
            seconds = fit(estimator, X)
            accuracy = facto.clustering_accuracy(estimator.labels_, y)
            stop = getattr(estimator, "stop_reason_", "")
            print(f"| {where} | {label} | {accuracy:.3f} | {seconds:.2f} | {stop} |", flush=True)


if __name__ == "__main__":
    main()
