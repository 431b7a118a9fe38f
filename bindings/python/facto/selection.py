"""Choosing k: restarts of an estimator over a range of k, the consensus of their clusterings and its
stability scores (facto_consensus), the objective curve and, for topic models, the coherence.

    table = facto.select_k(facto.SymNMFClustering(), X, range(2, 9), n_init=10)
    table.best("dispersion"); table.best("objective"); table.plot()   # plot: matplotlib, when installed

What the criteria mean, and when they mislead (docs/architecture.md, "Restarts and choosing k"):
- cophenetic (Brunet et al. 2004): how well the consensus matrix is reproduced by a tree; 1 when every
  restart gives the same clustering. Pick the k before it drops. It is 1 for any k where the solver is
  deterministic (SPA, or restarts that converge to one answer) and says nothing there.
- dispersion (Kim & Park 2007): how close the consensus entries are to 0 or 1, in [0, 1]; the same
  reading, and it separates stable from unstable k more sharply than the cophenetic correlation.
- objective: the best restart's objective; it improves with k whatever the data, so look for the elbow,
  the end of the largest improvement.
- coherence (topic models): Mimno et al.'s UMass coherence of the best restart; it usually falls as k
  grows, since more topics share fewer distinctive words.
Stability rewards k that split the data the same way every time, which a wrong k with one dominant
split can also do: read it beside the objective and, where labels exist for part of the data, accuracy.
"""
import ctypes

import numpy as np

from . import _lib
from ._lib import check, lib


def consensus(labels):
    """(C, cophenetic, dispersion) of clusterings of the same points (labels: runs x n; negative labels
    share with nothing): C_ij the fraction of runs in which i and j share a label."""
    runs = np.ascontiguousarray(np.atleast_2d(labels), dtype=np.int64)
    C = np.empty((runs.shape[1], runs.shape[1]))
    cophenetic, dispersion = ctypes.c_double(), ctypes.c_double()
    check(lib.facto_consensus(runs.ctypes.data_as(_lib.c_int64_p), runs.shape[0], runs.shape[1],
                              C.ctypes.data_as(_lib.c_double_p), ctypes.byref(cophenetic), ctypes.byref(dispersion)),
          _lib.last_error)
    return C, cophenetic.value, dispersion.value


class KSelection:
    """select_k's table: one row per k (columns k, objective, cophenetic, dispersion, and coherence for
    topic models), as a dict of arrays in `table`, with the consensus matrices in `consensus`."""

    def __init__(self, table, consensus_matrices, maximize):
        self.table = table
        self.consensus = consensus_matrices
        self._maximize = maximize

    def best(self, criterion="dispersion"):
        """A k read off one criterion, by the rules its authors use: for "cophenetic" and "dispersion"
        the k just before the score first drops (Brunet et al.: where it begins to fall), None when it
        never drops (every k equally stable: no evidence); for "objective" the k that ends its largest
        improvement (the elbow); for "coherence" the largest."""
        ks, values = self.table["k"], np.asarray(self.table[criterion], dtype=float)
        if criterion == "coherence":
            return int(ks[np.nanargmax(values)])
        steps = np.diff(values)
        if criterion == "objective":
            gains = steps if self._maximize else -steps
            return int(ks[int(np.argmax(gains)) + 1])
        falls = np.flatnonzero(-steps > 1e-9)
        return int(ks[falls[0]]) if falls.size else None

    def __repr__(self):
        names = [c for c in ("k", "objective", "cophenetic", "dispersion", "coherence") if c in self.table]
        rows = ["  ".join(f"{name:>12}" for name in names)]
        for r in range(len(self.table["k"])):
            rows.append("  ".join(f"{self.table[name][r]:>12.6g}" for name in names))
        return "\n".join(rows)

    def plot(self, axes=None):
        """The criteria against k, one panel each (matplotlib); returns the axes."""
        import matplotlib.pyplot as plt

        names = [c for c in ("objective", "cophenetic", "dispersion", "coherence") if c in self.table]
        if axes is None:
            _, axes = plt.subplots(1, len(names), figsize=(3.2 * len(names), 3.0), squeeze=False)
            axes = axes[0]
        for ax, name in zip(axes, names):
            ax.plot(self.table["k"], self.table[name], marker="o")
            ax.set_xlabel("k")
            ax.set_title(name)
        return axes


def _rank_parameter(estimator):
    for name in ("n_clusters", "n_components"):
        if name in estimator.get_params():
            return name
    raise ValueError(f"{type(estimator).__name__} has no n_clusters or n_components")


def select_k(estimator, X, ks, n_init=10, random_state=0):
    """Fits a copy of `estimator` n_init times for each k in ks (seeds random_state + r, one start each),
    and returns a KSelection: the best objective over the restarts, the consensus of their labels_ with
    its cophenetic correlation and dispersion, and the best restart's coherence_ where the estimator has
    one (topic models)."""
    name = _rank_parameter(estimator)
    params = {p: v for p, v in estimator.get_params().items() if p not in (name, "n_init", "random_state")}
    table = {"k": [], "objective": [], "cophenetic": [], "dispersion": []}
    matrices, maximize = {}, bool(getattr(estimator, "_maximize", False))
    for k in ks:
        labels, objectives, coherences = [], [], []
        for r in range(int(n_init)):
            fitted = type(estimator)(**params, **{name: int(k)}, n_init=1, random_state=int(random_state) + r)
            fitted.fit(X)
            labels.append(fitted.labels_)
            objectives.append(fitted.objective_)
            if hasattr(fitted, "coherence_"):
                coherences.append(fitted.coherence_)
        C, cophenetic, dispersion = consensus(np.array(labels))
        best = int(np.argmax(objectives) if maximize else np.argmin(objectives))
        table["k"].append(int(k))
        table["objective"].append(objectives[best])
        table["cophenetic"].append(cophenetic)
        table["dispersion"].append(dispersion)
        if coherences:
            table.setdefault("coherence", []).append(coherences[best])
        matrices[int(k)] = C
    return KSelection({key: np.asarray(v) for key, v in table.items()}, matrices, maximize)
