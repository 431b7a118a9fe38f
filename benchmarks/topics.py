"""The topic job's defaults beside scikit-learn (docs/benchmarks.md, "The topic job's defaults"). Not a
test: it prints a table, asserts nothing.

    python3 benchmarks/topics.py [quick|full|heldout]

On [NFW]'s own K = 10 document subsets of TDT2 and Reuters (trials 1-10; quick: trials 1-3) and, in
full, on all of TDT2's labelled documents, each method fits in this process on the same counts:
facto's default (solver "auto", min_df 0: 1% of the documents, refine 1e-3), each anchor step under
that default, SPA without the refinement, the paper's pipeline (min_df 2, refine 0) with SPA and with
MERIT, scikit-learn's NMF on TF-IDF (nndsvda) and LDA on the counts. heldout: subsets the defaults
were not chosen on (K = 5 and 20, trials 1-10; K = 10, trials 11-20), for the default, SPA without
the refinement, the paper's SPA and scikit-learn's NMF. Per method, the means over the subsets of:
clustering accuracy and NMI of each
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


def subsets(name, topics=K, trials=range(1, 51)):
    """The documents (rows of the counts) of [NFW]'s `topics`-topic subsets of corpus `name`, those trials."""
    found = []
    with gzip.open(os.path.join(DATA, f"merit/{name}_kclass_subsets.csv.gz"), "rt") as lines:
        for line in lines:
            fields = line.strip().split(",")
            if not line.startswith("#") and int(fields[1]) == topics and int(fields[2]) in trials:
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


def facto_fit(solver, min_df, refine=None):
    def fit(counts, K):
        model = facto.topic_model(counts, K, solver=solver, min_df=min_df, refine=refine)
        return model.labels, [list(row) for row in model.top_terms]
    return fit


def sklearn_nmf(counts, K):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nmf = NMF(K, init="nndsvda", max_iter=500, random_state=0)
        W = nmf.fit_transform(TfidfTransformer().fit_transform(counts))
    return W.argmax(axis=1), [list(np.argsort(-row)[:TOP]) for row in nmf.components_]


def sklearn_lda(counts, K):
    lda = LatentDirichletAllocation(K, random_state=0)
    theta = lda.fit_transform(counts)
    return theta.argmax(axis=1), [list(np.argsort(-row)[:TOP]) for row in lda.components_]


METHODS = [
    ("facto default (auto: spa, min_df 1%, refine 1e-3)", facto_fit("auto", None)),
    ("  snpa, refined", facto_fit("snpa", None)),
    ("  fast_anchor, refined", facto_fit("fast_anchor", None)),
    ("  merit, refined", facto_fit("merit", None)),
    ("  spa unrefined (refine 0)", facto_fit("spa", None, 0)),
    ("paper: spa, min_df 2, refine 0", facto_fit("spa", 2, 0)),
    ("paper: merit, min_df 2, refine 0", facto_fit("merit", 2, 0)),
    ("sklearn NMF on TF-IDF (nndsvda)", sklearn_nmf),
    ("sklearn LDA on counts", sklearn_lda),
]


HELDOUT = [METHODS[0], METHODS[4], METHODS[5], METHODS[7]]


def run(name, pieces, methods=METHODS, topics=K):
    """pieces: (counts, topics) pairs; one table row per method, means over the pieces."""
    for label, fit in methods:
        rows = []
        for counts, truth in pieces:
            start = time.perf_counter()
            labels, top = fit(counts, topics)
            seconds = time.perf_counter() - start
            coherence, shared = scores(counts, top)
            rows.append((facto.clustering_accuracy(labels, truth), normalized_mutual_info_score(truth, labels),
                         coherence, shared, seconds))
        mean = np.mean(rows, axis=0)
        memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
        print(f"| {name} | {label} | {mean[0]:.3f} | {mean[1]:.3f} | {mean[2]:.1f} | {mean[3]:.1f} | {mean[4]:.2f} | "
              f"{memory:.0f} |", flush=True)


def pieces_of(C, topic, documents):
    """(counts over the terms they use, true topics) of each subset of documents."""
    pieces = []
    for rows in documents:
        counts = C[rows]
        pieces.append((counts[:, np.flatnonzero(counts.getnnz(axis=0))], topic[rows]))
    return pieces


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "quick"
    trials = 10 if mode == "full" else 3
    print("| corpus | method | accuracy | NMI | coherence | similarity count | seconds | peak MB |")
    print("|---|---|---|---|---|---|---|---|")
    for name in ("tdt2", "reuters21578"):
        C, topic = corpus(name)
        if mode == "heldout":
            for topics, first in ((5, 1), (20, 1), (10, 11)):
                pieces = pieces_of(C, topic, subsets(name, topics, range(first, first + 10)))
                run(f"{name} K = {topics} subsets {first}-{first + 9}", pieces, HELDOUT, topics)
            continue
        run(f"{name} K = 10 subsets 1-{trials}", pieces_of(C, topic, subsets(name, K, range(1, trials + 1))))
    if mode == "full":
        C, topic = corpus("tdt2")
        known = np.flatnonzero(topic >= 0)
        counts = C[known]
        run("all of TDT2", [(counts[:, np.flatnonzero(counts.getnnz(axis=0))], topic[known])])


if __name__ == "__main__":
    main()
