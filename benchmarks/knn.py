"""Nearest-neighbour search for the kNN similarity graph at 70,000 points: facto's exact graph beside
approximate searches that Debian packages (docs/benchmarks.md, "Nearest neighbours for the kNN graph").
Not a test: it prints a table, asserts nothing.

    python3 benchmarks/knn.py [quick|full]

Fashion-MNIST's 70,000 images (quick: the first 10,000), scaled per pixel to [0, 1] as facto's Gaussian
graph scales them (min-max), k = floor(log2 n) + 1 neighbours as facto's default. In this process, on
the same points and threads (OMP_NUM_THREADS, default 2): facto's exact kNN similarity graph (blocked
products, then the kernel and the normalization) and its HNSW graph (recall: the share of the exact
graph's edges it has), FAISS's exact search (IndexFlatL2) as the reference
neighbour lists, and the approximate searches of hnswlib (HNSW, Malkov & Yashunin) and FAISS (HNSW and
IVF), each at a few settings: seconds to build the index, seconds to find every point's k neighbours,
recall@k against the exact lists (ties at the k-th distance are counted as found), and the index's
memory; then SymNMF's clustering accuracy (one seeded start, 10 clusters) on facto's two graphs. nanoflann is not measured: a k-d tree at 784 dimensions visits nearly every point.
"""
import os
import resource
import sys
import time

import faiss
import hnswlib
import numpy as np
import scipy.sparse

import facto
from holdout import fashion


def recall(found, exact, exact_distances, points):
    """Mean over points of the share of their exact k neighbours found (a found point at the k-th exact
    distance counts as one: ties)."""
    k = exact.shape[1]
    hits = 0
    for i in range(len(points)):
        mine = set(found[i][found[i] != i][:k].tolist())
        truth = set(exact[i].tolist())
        tied = 0
        if len(mine - truth):
            extra = np.array(sorted(mine - truth))
            d = ((points[extra] - points[i]) ** 2).sum(axis=1)
            tied = int(np.sum(d <= exact_distances[i, -1] * (1 + 1e-6)))
        hits += min(k, len(mine & truth) + tied)
    return hits / (len(points) * k)


def edges_found(approximate, exact):
    """The share of the exact graph's edges (i, j) that the approximate graph has."""
    a = set(zip(np.repeat(np.arange(approximate.shape[0]), np.diff(approximate.indptr)).tolist(),
                np.asarray(approximate.indices).tolist()))
    e = list(zip(np.repeat(np.arange(exact.shape[0]), np.diff(exact.indptr)).tolist(), np.asarray(exact.indices).tolist()))
    return sum(edge in a for edge in e) / len(e)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "quick"
    threads = int(os.environ.get("OMP_NUM_THREADS", "2"))
    faiss.omp_set_num_threads(threads)
    X, labels = fashion(70000 if mode == "full" else 10000)
    low, high = X.min(axis=0), X.max(axis=0)
    X = ((X - low) / np.where(high > low, high - low, 1.0)).astype(np.float32)
    n, d = X.shape
    k = int(np.floor(np.log2(n))) + 1
    print(f"n = {n}, d = {d}, k = {k}, threads = {threads}")
    print("| method | build s | search s | total s | vs facto exact | recall@k | index MB |")
    print("|---|---|---|---|---|---|---|")

    start = time.perf_counter()
    exact_graph = facto.knn_similarity(X.astype(np.float64), 0, "gaussian", "none", search="exact")
    facto_seconds = time.perf_counter() - start
    print(f"| facto exact kNN graph (kernel and normalization included) | - | - | {facto_seconds:.1f} | 1.00 | 1 | - |",
          flush=True)
    start = time.perf_counter()
    hnsw_graph = facto.knn_similarity(X.astype(np.float64), 0, "gaussian", "none", search="hnsw")
    seconds = time.perf_counter() - start
    print(f"| facto kNN graph, search hnsw (M 12, 32 candidates; graph edges found) | - | - | {seconds:.1f} | "
          f"{seconds / facto_seconds:.2f} | {edges_found(hnsw_graph, exact_graph):.4f} | - |", flush=True)
    for name, graph in (("exact", exact_graph), ("hnsw", hnsw_graph)):
        M = scipy.sparse.csr_matrix((graph.data, graph.indices, graph.indptr), shape=graph.shape)
        start = time.perf_counter()
        fit = facto.SymNMFClustering(10, affinity="precomputed", n_init=1, random_state=0).fit(M)
        print(f"SymNMF (one start, seed 0) on the {name} graph: accuracy "
              f"{facto.clustering_accuracy(fit.labels_, labels):.4f}, {fit.stop_reason_}, "
              f"{time.perf_counter() - start:.1f} s", flush=True)

    def row(name, build, search, found, memory):
        total = build + search
        r = recall(found, exact, exact_d, X) if found is not None else 1.0
        print(f"| {name} | {build:.1f} | {search:.1f} | {total:.1f} | {total / facto_seconds:.2f} | {r:.4f} | "
              f"{memory:.0f} |", flush=True)

    start = time.perf_counter()
    flat = faiss.IndexFlatL2(d)
    flat.add(X)
    build = time.perf_counter() - start
    start = time.perf_counter()
    exact_d, exact = flat.search(X, k + 1)
    search = time.perf_counter() - start
    keep = exact != np.arange(n)[:, None]  # drop each point itself (first, unless tied)
    exact = np.array([row_[m][:k] for row_, m in zip(exact, keep)])
    exact_d = np.array([row_[m][:k] for row_, m in zip(exact_d, keep)])
    row("FAISS IndexFlatL2 (exact)", build, search, None, n * d * 4 / 2**20)

    settings = ((12, 32, (32,), 1), (8, 64, (24, 48), threads), (16, 100, (24, 48), threads),
                (16, 200, (32, 64, 128), threads), (32, 200, (64,), threads))
    for M, construction, efs, builders in settings:  # the first: facto's settings, built on one thread as facto's
        start = time.perf_counter()
        index = hnswlib.Index(space="l2", dim=d)
        index.init_index(max_elements=n, M=M, ef_construction=construction, random_seed=0)
        index.set_num_threads(builders)
        index.add_items(X, np.arange(n))
        build = time.perf_counter() - start
        index.set_num_threads(threads)
        for ef in efs:
            index.set_ef(max(ef, k + 1))
            start = time.perf_counter()
            found, _ = index.knn_query(X, k=k + 1)
            row(f"hnswlib M {M}, ef_construction {construction}, ef {ef}, built on {builders} thread(s)", build,
                time.perf_counter() - start,
                found, (n * (d * 4 + 2 * M * 4 + 8)) / 2**20)
            # the index is built once per M; each row counts its build

    for M, efs in ((32, (64,)),):
        start = time.perf_counter()
        index = faiss.IndexHNSWFlat(d, M)
        index.hnsw.efConstruction = 200
        index.add(X)
        build = time.perf_counter() - start
        for ef in efs:
            index.hnsw.efSearch = ef
            start = time.perf_counter()
            _, found = index.search(X, k + 1)
            row(f"FAISS IndexHNSWFlat M {M}, efSearch {ef}", build, time.perf_counter() - start, found,
                (n * (d * 4 + 2 * M * 4)) / 2**20)

    lists = int(4 * np.sqrt(n))
    start = time.perf_counter()
    quantizer = faiss.IndexFlatL2(d)
    index = faiss.IndexIVFFlat(quantizer, d, lists)
    index.train(X)
    index.add(X)
    build = time.perf_counter() - start
    for probes in (8, 32):
        index.nprobe = probes
        start = time.perf_counter()
        _, found = index.search(X, k + 1)
        row(f"FAISS IndexIVFFlat {lists} lists, nprobe {probes}", build, time.perf_counter() - start, found,
            n * d * 4 / 2**20)
    print(f"peak memory of the process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
