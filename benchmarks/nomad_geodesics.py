"""[TSC] (NOMAD), Sec. 3.2 and Fig. 10: how well embeddings preserve geodesic distances on noisy data.

For one manifold (one ring of 200 points) and two manifolds (two rings, 200 points), the points are
z-scored and 5 d noise dimensions of standard deviation sigma = 0.05 and 0.10 are appended. The ground
truth is the geodesic distance on the clean points: Dijkstra on their 10-nearest-neighbour graph. Each
method's geodesics are Dijkstra on its own graph: the 10-nearest-neighbour graph of its 2-D embedding
(PCA, the same as classical MDS on Euclidean distances; Isomap; spectral embedding; LLE; LTSA; from
Debian's python3-sklearn, 5 neighbours each), of the noisy points themselves (NO-EMB), and for NOMAD
(K = n / 10) Q's graph: an edge wherever Q_ij >= 0.05 K / n (the threshold of facto's "labels"), of
length sqrt(Q_ii + Q_jj - 2 Q_ij) (the paper gives the distance Q_ii + Q_jj - 2 Q_ij, the authors'
script its square root). The authors' script cuts at Q_ij < 1e-5 instead; on facto's Q, solved to
nomad_cgm's default tolerance, that keeps entries at the solver's noise level (~1e-3 K / n) as
shortcuts between far points, and NOMAD's score at p = 25-50 falls to 0.5 (measured). The
bullseye score at percentile p: for each point, the fraction of its p% nearest points by the ground
truth that are also its p% nearest by the method, averaged over the points.

usage: /usr/bin/python3 benchmarks/nomad_geodesics.py <out dir>   (FACTO_LIBRARY may name libfacto)
Writes nomad_fig10.csv and nomad_fig10.png; prints the scores at p = 5, 10, 25 and 50."""
import csv
import pathlib
import sys

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra
from sklearn.decomposition import PCA
from sklearn.manifold import Isomap, LocallyLinearEmbedding, SpectralEmbedding
from sklearn.neighbors import kneighbors_graph

import facto

NEIGHBOURS = 10
CUT = 0.05  # relative to K / n: the default component_threshold of NOMAD's output "labels"
PERCENTILES = [1, 2, 3, 4] + list(range(5, 51, 5))


def knn_geodesics(X):
    graph = kneighbors_graph(X, NEIGHBOURS, mode="distance")
    return dijkstra(graph.maximum(graph.T), directed=False)


def nomad_geodesics(X):
    n = X.shape[0]
    K = n // NEIGHBOURS
    with facto.Problem.nomad(facto.nomad_gram(X), K) as problem, \
            facto.Solver(problem, "nomad_cgm") as solver:
        reason = solver.solve()
        Q = solver.output("Q")
        components = int(solver.output("labels").max()) + 1
    d = np.diag(Q)
    lengths = np.sqrt(np.maximum(d[:, None] + d[None, :] - 2 * Q, 0.0))
    lengths[Q < CUT * K / n] = 0.0  # no edge
    np.fill_diagonal(lengths, 0.0)
    return dijkstra(csr_matrix(lengths), directed=False), reason, components


def embeddings(X, seed):
    return {
        "PCA / classical MDS": PCA(n_components=2, random_state=seed).fit_transform(X),
        "Isomap": Isomap(n_neighbors=5, n_components=2).fit_transform(X),
        "spectral embedding": SpectralEmbedding(n_components=2, n_neighbors=5, random_state=seed).fit_transform(X),
        "LLE": LocallyLinearEmbedding(n_neighbors=5, n_components=2, random_state=seed).fit_transform(X),
        "LTSA": LocallyLinearEmbedding(n_neighbors=5, n_components=2, method="ltsa", eigen_solver="dense",
                                       random_state=seed).fit_transform(X),
    }


def bullseye(truth, estimate, p):
    n = truth.shape[0]
    size = max(n * p // 100, 1)
    score = 0.0
    for u in range(n):
        a = set(np.argsort(truth[u], kind="stable")[:size])
        b = set(np.argsort(estimate[u], kind="stable")[:size])
        score += len(a & b) / size
    return score / n


def manifolds():
    X, labels = facto.manifold_points("two_rings", 400, 0.5, 0.0, seed=0)
    yield "one manifold", X[labels == 0]
    X, _ = facto.manifold_points("two_rings", 200, 0.5, 0.0, seed=0)
    yield "two manifolds", X


def main(out):
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name, X in manifolds():
        X = (X - X.mean(axis=0)) / X.std(axis=0)
        truth = knn_geodesics(X)
        for sigma in (0.05, 0.10):
            rng = np.random.default_rng(0)
            noisy = np.hstack([X, sigma * rng.standard_normal((X.shape[0], 5 * X.shape[1]))])
            geodesics = {"NO-EMB": knn_geodesics(noisy)}
            geodesics.update({m: knn_geodesics(E) for m, E in embeddings(noisy, 0).items()})
            geodesics["NOMAD"], reason, components = nomad_geodesics(noisy)
            print(f"{name}, sigma {sigma}: NOMAD ended {facto.StopReason(reason).name}, Q's graph has "
                  f"{components} connected component(s) at the default threshold")
            for method, estimate in geodesics.items():
                for p in PERCENTILES:
                    rows.append((name, sigma, method, p, bullseye(truth, estimate, p)))
    with open(out / "nomad_fig10.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["manifolds", "sigma", "method", "percentile", "score"])
        writer.writerows(rows)
    print(f"{'manifolds':<14} {'sigma':>5} {'method':<20} " + " ".join(f"p={p:<4}" for p in (5, 10, 25, 50)))
    for name in ("one manifold", "two manifolds"):
        for sigma in (0.05, 0.10):
            for method in dict.fromkeys(r[2] for r in rows):
                scores = {r[3]: r[4] for r in rows if r[0] == name and r[1] == sigma and r[2] == method}
                print(f"{name:<14} {sigma:>5} {method:<20} " + " ".join(f"{scores[p]:.3f} " for p in (5, 10, 25, 50)))
    plot(rows, out / "nomad_fig10.png")


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(10, 8), sharey=True)
    for i, name in enumerate(("one manifold", "two manifolds")):
        for j, sigma in enumerate((0.05, 0.10)):
            ax = axes[i][j]
            for method in dict.fromkeys(r[2] for r in rows):
                series = [(r[3], r[4]) for r in rows if r[0] == name and r[1] == sigma and r[2] == method]
                ax.plot([p for p, _ in series], [s for _, s in series], "o-" if method == "NOMAD" else ".-",
                        label=method, linewidth=2.5 if method == "NOMAD" else 1)
            ax.set_title(f"{name}, noise sigma {sigma}")
            ax.set_xlabel("percentile p")
            ax.set_ylabel("bullseye score")
            ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("Geodesic distances kept by each embedding ([TSC], Fig. 10)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]))
