"""The topic job's defaults beside scikit-learn (docs/benchmarks.md, "The topic job's defaults"). Not a
test: it prints a table, asserts nothing.

    python3 benchmarks/topics.py [quick|full]

On [NFW]'s own K = 10 document subsets of TDT2 and Reuters (trials 1-10; quick: trials 1-3) and, in
full, on all of TDT2's labelled documents, each method fits in this process on the same counts:
facto's default (solver "auto", min_df 0: 1% of the documents), each anchor step under that default,
the paper's pipeline (min_df 2) with SPA and with MERIT, scikit-learn's NMF on TF-IDF (nndsvda) and
LDA on the counts. Per method, the means over the subsets of: clustering accuracy and NMI of each
document's largest topic weight against its topic, [NFW]'s coherence (Table II's, each pair of the 20
top terms counted twice, computed here alike for every method from the counts) and similarity count
(top terms shared between topics), seconds per fit, and the largest resident memory of the process
after each method's runs. Data: the benchmark data directory ($FACTO_DATA, benchmarks/README.md).
"""
import gzip
import os
import resource
import sys
import time
import warnings

import numpy as np
from sklearn.decomposition import NMF, LatentDirichletAllocation
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.metrics import normalized_mutual_info_score

import facto
from holdout import DATA, corpus

K = 10
TOP = 20


def subsets(name):
    """The documents (rows of the counts) of each of [NFW]'s K-topic subsets of corpus `name`."""
    found = []
    with gzip.open(os.path.join(DATA, f"merit/{name}_kclass_subsets.csv.gz"), "rt") as lines:
        for line in lines:
            fields = line.strip().split(",")
            if not line.startswith("#") and int(fields[1]) == K:
                found.append(np.array(fields[6].split(), dtype=np.int64) - 1)
    return found


def scores(counts, top):
    """[NFW]'s coherence (each pair twice) and similarity count of the top terms (K lists of columns)."""
    occurs = (counts > 0).tocsc().astype(np.float64)
    coherence = 0.0
    for words in top:
        sub = occurs[:, words]
        both = (sub.T @ sub).toarray()
        alone = np.diag(both)
        n, m = np.triu_indices(len(words), 1)
        coherence += 2.0 * np.sum(np.log((both[n, m] + 0.01) / alone[n]))
    shared = sum(len(np.intersect1d(top[a], top[b])) for a in range(len(top)) for b in range(a + 1, len(top)))
    return coherence / len(top), shared


def facto_fit(solver, min_df):
    def fit(counts):
        model = facto.topic_model(counts, K, solver=solver, min_df=min_df)
        return model.labels, [list(row) for row in model.top_terms]
    return fit


def sklearn_nmf(counts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nmf = NMF(K, init="nndsvda", max_iter=500, random_state=0)
        W = nmf.fit_transform(TfidfTransformer().fit_transform(counts))
    return W.argmax(axis=1), [list(np.argsort(-row)[:TOP]) for row in nmf.components_]


def sklearn_lda(counts):
    lda = LatentDirichletAllocation(K, random_state=0)
    theta = lda.fit_transform(counts)
    return theta.argmax(axis=1), [list(np.argsort(-row)[:TOP]) for row in lda.components_]


METHODS = [
    ("facto default (auto: spa, min_df 1%)", facto_fit("auto", None)),
    ("  snpa, min_df 1%", facto_fit("snpa", None)),
    ("  fast_anchor, min_df 1%", facto_fit("fast_anchor", None)),
    ("  merit, min_df 1%", facto_fit("merit", None)),
    ("paper: spa, min_df 2", facto_fit("spa", 2)),
    ("paper: merit, min_df 2", facto_fit("merit", 2)),
    ("sklearn NMF on TF-IDF (nndsvda)", sklearn_nmf),
    ("sklearn LDA on counts", sklearn_lda),
]


def run(name, pieces):
    """pieces: (counts, topics) pairs; one table row per method, means over the pieces."""
    for label, fit in METHODS:
        rows = []
        for counts, truth in pieces:
            start = time.perf_counter()
            labels, top = fit(counts)
            seconds = time.perf_counter() - start
            coherence, shared = scores(counts, top)
            rows.append((facto.clustering_accuracy(labels, truth), normalized_mutual_info_score(truth, labels),
                         coherence, shared, seconds))
        mean = np.mean(rows, axis=0)
        memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
        print(f"| {name} | {label} | {mean[0]:.3f} | {mean[1]:.3f} | {mean[2]:.1f} | {mean[3]:.1f} | {mean[4]:.2f} | "
              f"{memory:.0f} |", flush=True)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "quick"
    trials = 10 if mode == "full" else 3
    print("| corpus | method | accuracy | NMI | coherence | similarity count | seconds | peak MB |")
    print("|---|---|---|---|---|---|---|---|")
    for name in ("tdt2", "reuters21578"):
        C, topic = corpus(name)
        pieces = []
        for rows in subsets(name)[:trials]:
            counts = C[rows]
            pieces.append((counts[:, np.flatnonzero(counts.getnnz(axis=0))], topic[rows]))
        run(f"{name} K = 10 subsets 1-{trials}", pieces)
    if mode == "full":
        C, topic = corpus("tdt2")
        known = np.flatnonzero(topic >= 0)
        counts = C[known]
        run("all of TDT2", [(counts[:, np.flatnonzero(counts.getnnz(axis=0))], topic[known])])


if __name__ == "__main__":
    main()
