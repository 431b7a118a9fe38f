"""Fit once, apply to new data: hold-out evaluation and the choice of k (docs/benchmarks.md, "Applying a
fitted model"). Not a test: it prints tables and writes PNGs, asserts nothing.

    python3 benchmarks/holdout.py RESULTS_DIR [holdout|select_k] ...

holdout: on each data set, fit on 80% (a seeded split), apply the fitted model to the other 20%, and
compare the held-out points' accuracy with refitting on 100% (the same points' labels in the full fit)
and with scikit-learn's KMeans.predict or NMF.transform on the same split and seeds; and the time per
sample of applying against the fit's. Data: satimage (data/satimage.csv), the 10,000 Fashion-MNIST test
images (Debian's dataset-fashion-mnist), TDT2's documents (topic proportions of held-out documents
against their labels) and DBLP2 (held-out nodes' memberships from their edges to the fitted nodes, SRC),
the last two from the benchmark data directory ($FACTO_DATA, benchmarks/README.md).

select_k: the criteria of facto.select_k over k on satimage (6 classes), 2000 Fashion-MNIST images (10)
and TDT2 document subsets of known K (the [NFW] subsets, K = 5 and 10), and where each criterion's pick
falls.
"""
import gzip
import os
import sys
import time

import numpy as np

import facto

RESULTS = sys.argv[1] if len(sys.argv) > 1 else "build/benchmarks/results"
DATA = os.environ.get("FACTO_DATA", "benchmarks/data")
SEED = 0


def split(n, fraction=0.8, seed=SEED):
    order = np.random.default_rng(seed).permutation(n)
    cut = int(round(fraction * n))
    return np.sort(order[:cut]), np.sort(order[cut:])


def satimage():
    X = np.loadtxt("data/satimage.csv", delimiter=",")
    y = np.loadtxt("data/satimage_labels.csv").astype(np.int64)
    return X, y


def fashion(count=10000):
    """The first `count` of Fashion-MNIST's 10,000 test images and then its 60,000 training images."""
    root = "/usr/share/datasets/fashion-mnist/"
    images, labels = [], []
    for part in ("t10k", "train"):
        with gzip.open(root + part + "-images-idx3-ubyte.gz") as f:
            images.append(np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 784))
        with gzip.open(root + part + "-labels-idx1-ubyte.gz") as f:
            labels.append(np.frombuffer(f.read(), np.uint8, offset=8))
        if sum(len(y) for y in labels) >= count:
            break
    return np.concatenate(images)[:count] / 255.0, np.concatenate(labels)[:count].astype(np.int64)


def corpus(name):
    """A [NFW] corpus of the data directory ("tdt2", "reuters21578"): its document-term counts (CSR) and each
    document's topic (-1 where unlabelled)."""
    import scipy.sparse
    counts = facto.read_matrix_market(os.path.join(DATA, f"merit/{name}_doc_term.mtx.gz"))
    C = scipy.sparse.csr_matrix((counts.data, counts.indices, counts.indptr), shape=counts.shape)
    labels = np.loadtxt(os.path.join(DATA, f"merit/{name}_labels.csv.gz"), delimiter=",", skiprows=1,
                        usecols=(0, 1)).astype(np.int64)
    y = np.full(C.shape[0], -1, dtype=np.int64)
    y[labels[:, 0] - 1] = labels[:, 1]
    return C, y


def tdt2():
    return corpus("tdt2")


def timed(f):
    start = time.perf_counter()
    value = f()
    return value, time.perf_counter() - start


ROWS = []  # the holdout table's rows, for its figure


def row(cells, widths):
    if not isinstance(cells[1], str):
        ROWS.append(cells)
    print("  ".join(f"{c:>{w}}" if not isinstance(c, float) else f"{c:>{w}.4f}" for c, w in zip(cells, widths)),
          flush=True)


WIDTHS = (26, 9, 9, 9, 9, 11, 11, 9)


def header():
    row(("data / method", "n_fit", "n_new", "held-out", "refit", "fit s", "apply s", "ratio"), WIDTHS)


def clusterers(X, y, name, methods, kmeans_k):
    """Held-out accuracy of each facto clusterer against refitting on everything and KMeans.predict."""
    train, test = split(X.shape[0])
    for label, make in methods:
        est, fit_s = timed(lambda: make().fit(X[train]))
        predicted, apply_s = timed(lambda: est.predict(X[test]))
        held_out = facto.clustering_accuracy(predicted, y[test])
        full = make().fit(X)
        refit = facto.clustering_accuracy(full.labels_[test], y[test])
        ratio = (fit_s / len(train)) / (apply_s / len(test))
        row((f"{name} / {label}", len(train), len(test), held_out, refit, fit_s, apply_s, ratio), WIDTHS)
    from sklearn.cluster import KMeans
    km, fit_s = timed(lambda: KMeans(n_clusters=kmeans_k, n_init=10, random_state=SEED).fit(X[train]))
    predicted, apply_s = timed(lambda: km.predict(X[test]))
    full = KMeans(n_clusters=kmeans_k, n_init=10, random_state=SEED).fit(X)
    row((f"{name} / sklearn KMeans", len(train), len(test), facto.clustering_accuracy(predicted, y[test]),
         facto.clustering_accuracy(full.labels_[test], y[test]), fit_s, apply_s,
         (fit_s / len(train)) / (apply_s / len(test))), WIDTHS)


def topics(K=30):
    """TDT2: held-out documents' main topic against their labels; scikit-learn's NMF.transform."""
    C, y = tdt2()
    train, test = split(C.shape[0])
    make = lambda: facto.AnchorTopicModel(n_components=K, solver="spa")  # noqa: E731
    est, fit_s = timed(lambda: make().fit(C[train]))
    predicted, apply_s = timed(lambda: est.predict(C[test]))
    known = predicted >= 0
    held_out = facto.clustering_accuracy(predicted[known], y[test][known])
    full = make().fit(C)
    refit = facto.clustering_accuracy(full.labels_[test], y[test])
    row((f"TDT2 K={K} / facto spa", len(train), len(test), held_out, refit, fit_s, apply_s,
         (fit_s / len(train)) / (apply_s / len(test))), WIDTHS)
    print(f"    ({int((~known).sum())} held-out documents with no kept term: label -1, left out of the accuracy)")
    from sklearn.decomposition import NMF
    from sklearn.feature_extraction.text import TfidfTransformer
    tfidf = TfidfTransformer().fit(C[train])
    nmf, fit_s = timed(lambda: NMF(n_components=K, init="nndsvd", random_state=SEED, max_iter=300).fit(
        tfidf.transform(C[train])))
    W, apply_s = timed(lambda: nmf.transform(tfidf.transform(C[test])))
    nmf_full = NMF(n_components=K, init="nndsvd", random_state=SEED, max_iter=300)
    W_full = nmf_full.fit_transform(TfidfTransformer().fit_transform(C))
    row(("TDT2 / sklearn NMF", len(train), len(test), facto.clustering_accuracy(W.argmax(1), y[test]),
         facto.clustering_accuracy(W_full[test].argmax(1), y[test]), fit_s, apply_s,
         (fit_s / len(train)) / (apply_s / len(test))), WIDTHS)


def communities(which=2, K=3):
    """DBLP: held-out nodes' memberships from their edges to the fitted nodes, SRC against the truth."""
    import scipy.sparse
    A = facto.read_matrix_market(os.path.join(DATA, f"merit/dblp{which}_adjacency.mtx.gz"))
    A = scipy.sparse.csr_matrix((A.data, A.indices, A.indptr), shape=A.shape)
    theta = np.loadtxt(os.path.join(DATA, f"merit/dblp{which}_membership.csv.gz"), delimiter=",")
    train, test = split(A.shape[0])
    A_train = A[train][:, train]

    def fit(adjacency):
        with facto.Problem.communities(adjacency, K, energy=0.99) as problem, facto.Solver(problem, "spa") as s:
            s.solve()
            return facto.Model.from_solver(s), s.output("memberships")

    (model, _), fit_s = timed(lambda: fit(A_train))
    applied, apply_s = timed(lambda: model.apply(A[test][:, train]))
    known = applied.labels >= 0
    held_out = facto.averaged_spearman(applied.rows[known], theta[test][known])
    _, full = fit(A)
    refit = facto.averaged_spearman(full[test][known], theta[test][known])
    row((f"DBLP{which} / facto spa (SRC)", len(train), len(test), held_out, refit, fit_s, apply_s,
         (fit_s / len(train)) / (apply_s / len(test))), WIDTHS)
    print(f"    ({int((~known).sum())} held-out nodes with no edge to a fitted node: label -1, left out)")


def holdout():
    print("Held-out accuracy (clustering accuracy; SRC for DBLP) of the 20% a model fitted on 80% never saw, "
          "against the same points' labels in a fit on 100%, and the time per sample of fitting over "
          "applying (ratio)\n")
    header()
    X, y = satimage()
    clusterers(X, y, "satimage", [
        ("SimplicialSymNMF", lambda: facto.SimplicialSymNMF(n_clusters=6)),
        ("SymNMFClustering", lambda: facto.SymNMFClustering(n_clusters=6, random_state=SEED)),
        ("NOMADClustering", lambda: facto.NOMADClustering(n_clusters=6, certify=False)),
    ], 6)
    if os.path.exists("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz"):
        X, y = fashion()
        clusterers(X, y, "Fashion-MNIST", [
            ("SymNMFClustering", lambda: facto.SymNMFClustering(n_clusters=10, random_state=SEED)),
            ("NOMADClustering", lambda: facto.NOMADClustering(n_clusters=10, certify=False)),
        ], 10)
    if os.path.exists(os.path.join(DATA, "merit/tdt2_doc_term.mtx.gz")):
        topics()
        communities()
    plot_holdout(ROWS, os.path.join(RESULTS, "holdout.png"))


def plot_holdout(rows, path):
    """Held-out against refit accuracy, and the per-sample ratio (log scale), one bar pair per method."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [r[0] for r in rows]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 0.45 * len(rows) + 1.2), sharey=True)
    y = np.arange(len(rows))
    left.barh(y - 0.2, [r[3] for r in rows], 0.4, label="held-out (apply)")
    left.barh(y + 0.2, [r[4] for r in rows], 0.4, label="refit on 100%")
    left.set_yticks(y, names, fontsize=8)
    left.invert_yaxis()
    left.set_xlabel("accuracy (SRC for DBLP)")
    left.legend(fontsize=8)
    right.barh(y, [r[7] for r in rows], 0.5, color="gray")
    right.axvline(100, color="red", linestyle=":")
    right.set_xscale("log")
    right.set_xlabel("fit s per fitted sample / apply s per new sample")
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    print(f"wrote {path}")


def replot(log):
    """plot_holdout from the table a holdout run printed."""
    rows = []
    for line in open(log):
        parts = line.split()
        if len(parts) >= 9 and parts[-7].isdigit():
            rows.append((" ".join(parts[:-7]), int(parts[-7]), int(parts[-6]), *map(float, parts[-5:])))
    plot_holdout(rows, os.path.join(RESULTS, "holdout.png"))


def select_k():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cases = []
    X, y = satimage()
    cases.append(("satimage (6 classes)", facto.SymNMFClustering(), X, range(2, 11), 8))
    sample = np.sort(np.random.default_rng(SEED).permutation(X.shape[0])[:2000])
    cases.append(("satimage 2000 (6 classes)", facto.NOMADClustering(certify=False), X[sample], range(2, 11), 4))
    if os.path.exists("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz"):
        F, _ = fashion(2000)
        cases.append(("Fashion-MNIST 2000 (10)", facto.SymNMFClustering(), F, range(6, 15), 8))
    figure, axes = plt.subplots(len(cases), 3, figsize=(10, 2.6 * len(cases)), squeeze=False)
    print("Choosing k: where each criterion's reading falls")
    for (name, estimator, data, ks, restarts), ax in zip(cases, axes):
        table, seconds = timed(lambda: facto.select_k(estimator, data, ks, n_init=restarts))
        picks = {c: table.best(c) for c in ("dispersion", "cophenetic", "objective")}
        print(f"\n{name}, {type(estimator).__name__}, {restarts} restarts per k ({seconds:.0f} s): picks {picks}")
        print(table)
        table.plot(ax)
        ax[0].set_ylabel(f"{name}\n{type(estimator).__name__}", fontsize=8)
    # TDT2 subsets of known K: the topics' coherence (SPA is deterministic: stability is 1 everywhere)
    subsets = os.path.join(DATA, "merit/tdt2_kclass_subsets.csv.gz")
    if os.path.exists(subsets):
        C, y = tdt2()
        with gzip.open(subsets, "rt") as f:  # dataset,K,trial,min_df,n_docs,classes,documents (1-based)
            lines = [line.strip().split(",") for line in f if line.strip() and not line.startswith("#")]
        for K in (5, 10):
            fields = next(f for f in lines if f[1] == str(K) and f[2] == "1")
            docs = np.array([int(v) - 1 for v in fields[6].split()])
            table = facto.select_k(facto.AnchorTopicModel(solver="spa", min_df=int(fields[3])), C[docs],
                                   range(max(2, K - 3), K + 4), n_init=1)
            print(f"\nTDT2 subset K = {K} (trial 1, {len(docs)} documents): coherence by k; picks "
                  f"coherence {table.best('coherence')}, objective {table.best('objective')}")
            print(table)
    figure.tight_layout()
    path = os.path.join(RESULTS, "select_k.png")
    figure.savefig(path, dpi=90)
    print(f"\nwrote {path}")


if __name__ == "__main__":
    os.makedirs(RESULTS, exist_ok=True)
    which = sys.argv[2] if len(sys.argv) > 2 else "holdout"
    if which == "replot":  # holdout.py RESULTS replot LOG: the figure of an earlier run's printed table
        replot(sys.argv[3])
    else:
        {"holdout": holdout, "select_k": select_k}[which]()
