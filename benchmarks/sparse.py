"""Sparse features against their dense form: the kNN graph and SymNMF's clustering, and NOMAD's, of TF-IDF
documents (docs/benchmarks.md, "Sparse features"). Not a test: it prints a table, asserts nothing.

    python3 benchmarks/sparse.py [quick|full] [METHOD,...]

On the labelled documents of [NFW]'s Reuters-21578 (quick) and TDT2 (full adds them) corpora, TF-IDF
(scikit-learn's TfidfTransformer on the counts, the terms in at least 2 documents), 10 clusters: facto's
SymNMFClustering (cosine kNN graph, one seeded start) and NOMADClustering (the K-means SDP on the
documents as points, its defaults) and SeparableNMF (10 anchor documents, its default SNPA; each
document's label its largest weight) given the scipy.sparse matrix and given its dense form, and
scikit-learn's KMeans (n_init 1, seed 0) and NMF (10 components, nndsvda as scikit-learn's default
init; labels the largest weight) on the sparse matrix, each in its own process so that
its peak resident memory is its own: seconds for the graph and for the whole fit, the seconds of
predicting the first 100 documents (which adds SymNMF's kNN rule to its model: the fitted rows, kept
sparse for sparse input), peak MB after both, accuracy, and whether the sparse and dense fits give the
same labels. METHOD,... runs those methods only (sparse, dense, nomad_sparse, nomad_dense,
separable_sparse, separable_dense, kmeans, sklearn_nmf). Data: the benchmark data directory ($FACTO_DATA,
benchmarks/README.md).
"""
import json
import resource
import subprocess
import sys
import time

import numpy as np


def documents(name):
    from sklearn.feature_extraction.text import TfidfTransformer
    from holdout import corpus
    C, y = corpus(name)
    keep = y >= 0
    C, y = C[keep], y[keep]
    C = C[:, np.flatnonzero(np.asarray((C > 0).sum(axis=0)).ravel() >= 2)]
    return TfidfTransformer().fit_transform(C).tocsr(), y


def one(name, method):
    """Runs one method in this process and prints its row as JSON."""
    import facto
    X, y = documents(name)
    start = time.perf_counter()
    if method == "kmeans":
        from sklearn.cluster import KMeans
        estimator = KMeans(10, n_init=1, random_state=0).fit(X)
        features, graph_seconds = X, 0.0
    elif method == "sklearn_nmf":
        from sklearn.decomposition import NMF
        estimator, features, graph_seconds = NMF(10, random_state=0, max_iter=400), X, 0.0
        estimator.labels_ = estimator.fit_transform(X).argmax(axis=1)
        estimator.predict = lambda Y: estimator.transform(Y).argmax(axis=1)
    elif method.startswith("separable"):
        features = X.toarray() if method == "separable_dense" else X
        estimator, graph_seconds = facto.SeparableNMF(10).fit(features), 0.0
        estimator.labels_ = estimator.weights_.argmax(axis=1)
        estimator.predict = lambda Y: estimator.transform(Y).argmax(axis=1)
    elif method.startswith("nomad"):
        features = X.toarray() if method == "nomad_dense" else X
        estimator, graph_seconds = facto.NOMADClustering(10, random_state=0).fit(features), 0.0
    else:
        features = X.toarray() if method == "dense" else X
        t = time.perf_counter()
        facto.knn_similarity(features)
        graph_seconds = time.perf_counter() - t
        estimator = facto.SymNMFClustering(10, n_init=1, random_state=0).fit(features)
    labels, seconds = estimator.labels_, time.perf_counter() - start
    t = time.perf_counter()
    estimator.predict(features[:100])
    print(json.dumps({"seconds": seconds, "graph_seconds": graph_seconds, "predict_seconds": time.perf_counter() - t,
                      "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "accuracy": facto.clustering_accuracy(labels, y), "labels": labels.tolist(),
                      "shape": list(X.shape), "nnz": int(X.nnz)}))


def main():
    if len(sys.argv) == 4:
        return one(sys.argv[2], sys.argv[3])
    mode = sys.argv[1] if len(sys.argv) > 1 else "quick"
    methods = sys.argv[2].split(",") if len(sys.argv) > 2 else [
        "sparse", "dense", "nomad_sparse", "nomad_dense", "separable_sparse", "separable_dense", "kmeans", "sklearn_nmf"]
    print("| corpus (documents x terms, non-zeros) | method | graph s | fit s (graph included) | predict 100 s | peak MB "
          "| accuracy |")
    print("|---|---|---|---|---|---|---|")
    for name in ["reuters21578"] + (["tdt2"] if mode == "full" else []):
        rows = {}
        for method in methods:
            run = subprocess.run([sys.executable, __file__, "one", name, method], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"| {name} | {method} | failed: {run.stderr.strip().splitlines()[-1]} | | | | |", flush=True)
                continue
            rows[method] = r = json.loads(run.stdout)
            label = {"sparse": "facto SymNMFClustering, scipy.sparse", "dense": "facto SymNMFClustering, dense",
                     "nomad_sparse": "facto NOMADClustering, scipy.sparse", "nomad_dense": "facto NOMADClustering, dense",
                     "separable_sparse": "facto SeparableNMF, scipy.sparse", "separable_dense": "facto SeparableNMF, dense",
                     "kmeans": "scikit-learn KMeans, scipy.sparse", "sklearn_nmf": "scikit-learn NMF, scipy.sparse"}[method]
            print(f"| {name} ({r['shape'][0]} x {r['shape'][1]}, {r['nnz']}) | {label} | {r['graph_seconds']:.2f} | "
                  f"{r['seconds']:.2f} | {r['predict_seconds']:.2f} | {r['peak_mb']:.0f} | {r['accuracy']:.4f} |", flush=True)
        for sparse, dense in (("sparse", "dense"), ("nomad_sparse", "nomad_dense"), ("separable_sparse", "separable_dense")):
            if sparse in rows and dense in rows:
                print(f"{name}, {sparse}: sparse and dense labels identical: "
                      f"{rows[sparse]['labels'] == rows[dense]['labels']}")


if __name__ == "__main__":
    main()
