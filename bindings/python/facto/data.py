"""Data helpers of facto: reading matrices, similarity graphs, the Helix, separable data, and metrics."""
import ctypes
from collections import namedtuple

import numpy as np

from . import _lib
from ._lib import lib, check
from .core import CsrMatrix, Model, Problem, _as_matrix


def _matrix_to_array(handle):
    """Copies a facto_matrix into a new array and frees the handle."""
    try:
        rows, cols = ctypes.c_int64(), ctypes.c_int64()
        check(lib.facto_matrix_shape(handle, ctypes.byref(rows), ctypes.byref(cols)), _lib.last_error)
        data = lib.facto_matrix_data(handle)
        return np.ctypeslib.as_array(data, shape=(rows.value, cols.value)).copy()
    finally:
        lib.facto_matrix_free(handle)


def read_matrix(path):
    """Reads a CSV or .npy file with facto's own reader (the one the CLI uses)."""
    handle = ctypes.c_void_p()
    check(lib.facto_matrix_read(str(path).encode(), ctypes.byref(handle)), _lib.last_error)
    return _matrix_to_array(handle.value)


def write_csv(path, X):
    a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
    check(lib.facto_write_csv(str(path).encode(), ptr, rows, cols, ld, layout), _lib.last_error)


def gaussian_affinity(X, bandwidth=None, scaling="minmax"):
    """P_ij = exp(-||x_i - x_j||^2 / bandwidth) of the rows of X, after scaling its columns
    ("minmax" to [-1, 1], "zscore", or "none"); bandwidth None: the median rule, a quarter
    of the median of ||x_i - x_j||^2 over the pairs."""
    if scaling not in _lib.SCALINGS:
        raise _lib.FactoValueError(-1, f"scaling must be one of {sorted(_lib.SCALINGS)}, got {scaling!r}")
    a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
    handle = ctypes.c_void_p()
    check(lib.facto_gaussian_affinity(ptr, rows, cols, ld, layout, _lib.bandwidth_code(bandwidth),
                                      _lib.SCALINGS[scaling], ctypes.byref(handle)), _lib.last_error)
    return _matrix_to_array(handle.value)


def clustering_accuracy(predicted, truth):
    """Fraction of points matched under the best one-to-one mapping of labels (Hungarian)."""
    p = np.ascontiguousarray(predicted, dtype=np.int64).ravel()
    t = np.ascontiguousarray(truth, dtype=np.int64).ravel()
    if p.shape != t.shape:
        raise _lib.FactoValueError(-4, f"label vectors differ in length: {p.size} and {t.size}")
    value = ctypes.c_double()
    check(lib.facto_clustering_accuracy(p.ctypes.data_as(_lib.c_int64_p), t.ctypes.data_as(_lib.c_int64_p),
                                        p.size, ctypes.byref(value)), _lib.last_error)
    return value.value


def _sparse_to_csr(handle):
    """Copies a facto_sparse into a CsrMatrix and frees the handle."""
    try:
        rows, cols, nnz = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int64()
        check(lib.facto_sparse_shape(handle, ctypes.byref(rows), ctypes.byref(cols), ctypes.byref(nnz)),
              _lib.last_error)
        indptr = np.empty(rows.value + 1, dtype=np.int64)
        indices = np.empty(nnz.value, dtype=np.int64)
        data = np.empty(nnz.value, dtype=np.float64)
        check(lib.facto_sparse_copy_csr(handle, indptr.ctypes.data_as(_lib.c_int64_p),
                                        indices.ctypes.data_as(_lib.c_int64_p),
                                        data.ctypes.data_as(_lib.c_double_p)), _lib.last_error)
        return CsrMatrix(indptr, indices, data, (rows.value, cols.value))
    finally:
        lib.facto_sparse_free(handle)


def read_matrix_market(path):
    """Reads a Matrix Market file (coordinate or array; symmetric files expanded) as a CsrMatrix."""
    handle = ctypes.c_void_p()
    check(lib.facto_sparse_read(str(path).encode(), ctypes.byref(handle)), _lib.last_error)
    return _sparse_to_csr(handle.value)


def knn_similarity(X, k=0, kind="auto", scaling="auto", search="auto"):
    """The normalized kNN similarity graph of Kuang et al. 2015 Sec. 7.1 of the rows of X, as a
    CsrMatrix (k = 0: floor(log2 n) + 1; kind "gaussian" (self-tuning), "cosine" or "auto": the cosine
    for nonnegative X with at least 90% zeros, as counts and TF-IDF, the Gaussian otherwise), after scaling X's
    columns: "auto" (min-max for the Gaussian graph, none for the cosine one), "minmax", "zscore" or
    "none" (Kuang et al.'s graph). search: how the neighbours are found, "exact", "hnsw" (an HNSW index:
    about 97% of the exact neighbours, 10x sooner at 70,000 points) or "auto" (exact below
    knn_search_for's threshold, 20,000 points).
    A scipy.sparse X (or a facto.CsrMatrix) gives the graph of its dense form. Where the scaling is none
    (scaling "none", or "auto" for the cosine graph that text takes) its rows stay sparse, never made
    dense, and their neighbours are found exactly (search "auto" or "exact"); a scaling that fills the
    zeros makes them dense first. A float32 array is read in single precision where it lies (half the
    memory of float64: 10^6 images of 784 pixels in 3.1 GB), the graph of its values as float64."""
    codes = (_lib.choice(kind, _lib.SIMILARITIES, "kind"), _lib.choice(scaling, _lib.SCALINGS, "scaling"),
             _lib.choice(search, _lib.SEARCHES, "search"))
    handle = ctypes.c_void_p()
    if isinstance(X, CsrMatrix) or hasattr(X, "tocsr"):
        rows, cols, indptr, indices, values = Problem._csr(X, "X")
        check(lib.facto_knn_similarity_sparse(_lib.SPARSE_CSR, rows, cols, values.size,
                                              indptr.ctypes.data_as(_lib.c_int64_p),
                                              indices.ctypes.data_as(_lib.c_int64_p),
                                              values.ctypes.data_as(_lib.c_double_p), int(k), *codes,
                                              ctypes.byref(handle)), _lib.last_error)
        return _sparse_to_csr(handle.value)
    single = getattr(X, "dtype", None) == np.float32
    a, ptr, rows, cols, ld, layout = _as_matrix(X, "X", np.float32 if single else np.float64)
    search = lib.facto_knn_similarity_search_float if single else lib.facto_knn_similarity_search
    check(search(ptr, rows, cols, ld, layout, int(k), *codes, ctypes.byref(handle)), _lib.last_error)
    return _sparse_to_csr(handle.value)


def knn_search_for(n, search="auto"):
    """The search ("exact" or "hnsw") the kNN graph of n points runs for `search`."""
    code = lib.facto_knn_search_for(int(n), _lib.choice(search, _lib.SEARCHES, "search"))
    return next(name for name, value in _lib.SEARCHES.items() if value == code)


def helix(n, seed=0):
    """n points (cos 3t, sin 3t, 2t), t uniform on [0, 2 pi] (Dragomir et al. Sec. 4.2), n x 3."""
    out = np.empty((int(n), 3))
    check(lib.facto_helix_points(int(n), int(seed), out.ctypes.data_as(_lib.c_double_p), out.size), _lib.last_error)
    return out


def sample_pairs(X, fraction, seed=0):
    """Each pair i < j of rows of X kept with probability `fraction`: arrays (i, j, d), d = ||x_i - x_j||^2."""
    a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
    handle = ctypes.c_void_p()
    check(lib.facto_sample_pairs(ptr, rows, cols, ld, layout, float(fraction), int(seed), ctypes.byref(handle)),
          _lib.last_error)
    pairs = _sparse_to_csr(handle.value)  # upper triangular, rows in order
    i = np.repeat(np.arange(pairs.shape[0], dtype=np.int64), np.diff(pairs.indptr))
    return i, pairs.indices, pairs.data


def distance_nrmse(X, X_true, max_pairs=10_000_000, seed=0):
    """Normalized RMSE of the distance matrix of X against that of X_true over all pairs (exact up to
    max_pairs pairs, sampled beyond)."""
    a = np.ascontiguousarray(X, dtype=np.float64)
    b = np.ascontiguousarray(X_true, dtype=np.float64)
    if a.ndim != 2 or a.shape != b.shape:
        raise _lib.FactoValueError(-4, f"X and X_true must have the same 2-D shape, got {a.shape} and {b.shape}")
    value = ctypes.c_double()
    check(lib.facto_distance_nrmse(a.ctypes.data_as(_lib.c_double_p), b.ctypes.data_as(_lib.c_double_p),
                                   a.shape[0], a.shape[1], _lib.ROW_MAJOR, int(max_pairs), int(seed),
                                   ctypes.byref(value)), _lib.last_error)
    return value.value


_SEPARABLE = {"midpoints": 0, "dirichlet": 1}


def separable_data(M, N, K, snr_db=float("inf"), kind="dirichlet", seed=0):
    """Separable data X = W H + V of Nguyen, Fu & Wu Sec. V-A (M x N, columns randomly permuted) and its K
    anchor columns (increasing). kind "dirichlet" (Fig. 4, Table I: N - K uniform Dirichlet columns) or
    "midpoints" (Fig. 2: N must be K + K (K - 1) / 2); snr_db = inf for no noise."""
    if kind not in _SEPARABLE:
        raise _lib.FactoValueError(-1, f"kind must be one of {sorted(_SEPARABLE)}, got {kind!r}")
    X = np.empty((int(M), int(N)))
    anchors = np.empty(int(K), dtype=np.int64)
    check(lib.facto_separable_data(_SEPARABLE[kind], int(M), int(N), int(K), float(snr_db), int(seed),
                                   X.ctypes.data_as(_lib.c_double_p), X.size, _lib.ROW_MAJOR,
                                   anchors.ctypes.data_as(_lib.c_int64_p), anchors.size), _lib.last_error)
    return X, anchors


def select_anchors(X, K, solver="auto", lam=None, mu=None, **params):
    """The K anchor columns of X (M x N) by `solver` (auto: the library's default for self_dictionary):
    returns (selected, H) with selected the increasing column indices and H (K x N) the simplex-constrained
    least squares on them, so that X ~ X[:, selected] @ H. lam, mu: None takes the library's defaults
    (problem_params("self_dictionary")). **params are solver parameters by their facto names (e.g.
    max_iterations)."""
    from .core import Problem, Solver
    with Problem.self_dictionary(X, K, lam, mu) as problem, Solver(problem, solver, **params) as s:
        s.solve()
        return s.output("selected"), s.output("H")


def averaged_spearman(estimated, truth):
    """Averaged Spearman rank correlation (SRC) of estimated memberships against true ones (n x K each):
    the Spearman correlation of matched communities (Hungarian), averaged; in [-1, 1]."""
    a = np.ascontiguousarray(estimated, dtype=np.float64)
    b = np.ascontiguousarray(truth, dtype=np.float64)
    if a.ndim != 2 or a.shape != b.shape:
        raise _lib.FactoValueError(-4, f"estimated and truth must be n x K arrays of one shape, got {a.shape} and {b.shape}")
    value = ctypes.c_double()
    check(lib.facto_averaged_spearman(a.ctypes.data_as(_lib.c_double_p), b.ctypes.data_as(_lib.c_double_p),
                                      a.shape[0], a.shape[1], _lib.ROW_MAJOR, ctypes.byref(value)), _lib.last_error)
    return value.value


def kmeans(X, K, replicates=10, seed=0):
    """k-means labels (0..K-1) of the rows of X: Lloyd from k-means++ seeds, the best of `replicates` runs."""
    a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
    labels = np.empty(rows, dtype=np.int64)
    check(lib.facto_kmeans(ptr, rows, cols, ld, layout, int(K), int(replicates), int(seed),
                           labels.ctypes.data_as(_lib.c_int64_p)), _lib.last_error)
    return labels


TopicModel = namedtuple("TopicModel",
                        "anchors topics top_terms document_topics labels coherence similarity_count model")
TopicModel.__doc__ = ("Topics of a corpus: anchor words (vocabulary columns, or words), the K x V topic-word "
                      "matrix, each topic's top terms, the documents' topic proportions and labels, [NFW]'s "
                      "coherence and similarity count, and the fitted facto.Model (model.apply(counts) "
                      "gives new documents their proportions).")


def topic_model(counts, K, solver="auto", vocabulary=None, min_df=None, rank=None, lam=None, mu=None, refine=None,
                **params):
    """Anchor-word topics of a documents x terms count matrix by `solver` (auto: the library's default,
    or "merit", "spa", "snpa", "fast_anchor", "fast_gradient"), refined with the documents' weights
    (refine=0: the paper's topics); with a vocabulary (a sequence of V words) anchors and top terms are
    words. min_df, rank, lam, mu, refine: None takes the library's defaults (problem_params("topics")).
    **params are solver parameters by their facto names (e.g. max_iterations)."""
    from .core import Problem, Solver
    with Problem.topics(counts, K, min_df, rank, lam, mu, refine) as problem, Solver(problem, solver, **params) as s:
        s.solve()
        anchors, top = s.output("selected"), s.output("top_terms")
        if vocabulary is not None:
            anchors = [vocabulary[j] for j in anchors]
            top = [[vocabulary[j] for j in row] for row in top]
        return TopicModel(anchors, s.output("topics"), top, s.output("document_topics"), s.output("labels").ravel(),
                          float(s.output("coherence").ravel()[0]), int(s.output("similarity_count").ravel()[0]),
                          Model.from_solver(s))


Communities = namedtuple("Communities", "pure_nodes memberships labels nodes_kept model")
Communities.__doc__ = ("Mixed memberships: the pure nodes, every node's memberships (N x K), labels, the nodes kept, "
                       "and the fitted facto.Model (model.apply(edges) gives new nodes their memberships from "
                       "their edges to the N fitted nodes).")


def detect_communities(A, K, solver="auto", energy=None, lam=None, mu=None, **params):
    """Mixed-membership communities of a symmetric adjacency matrix by `solver` (auto: the library's
    default, or "merit", "spa", "snpa", "fast_gradient", "geonmf"; SPOC is "spa" with energy=1, and geonmf
    needs energy=1). energy, lam, mu: None takes the library's defaults (problem_params("communities"))."""
    from .core import Problem, Solver
    with Problem.communities(A, K, energy, lam, mu) as problem, Solver(problem, solver, **params) as s:
        s.solve()
        return Communities(s.output("selected"), s.output("memberships"), s.output("labels").ravel(),
                           s.output("nodes").ravel(), Model.from_solver(s))


_MANIFOLDS = {"two_rings": 0, "trefoil": 1, "two_moons": 2, "blobs": 3}
_MANIFOLD_DIM = {"two_rings": 2, "trefoil": 3, "two_moons": 2, "blobs": 2}


def manifold_points(kind, n, parameter=0.5, noise=0.0, seed=0):
    """The synthetic manifolds of Tepper et al.: (X, labels) with X n x dim, one point per row. kind
    "two_rings" (parameter: the inner radius, Fig. 4: 0.5), "trefoil", "two_moons" (Fig. 5: noise 0.05) or
    "blobs" (six Gaussian blobs, parameter: their deviation); noise is added to the rings and moons."""
    if kind not in _MANIFOLDS:
        raise _lib.FactoValueError(-1, f"kind must be one of {sorted(_MANIFOLDS)}, got {kind!r}")
    X = np.empty((int(n), _MANIFOLD_DIM[kind]))
    labels = np.empty(int(n), dtype=np.int64)
    check(lib.facto_manifold_points(_MANIFOLDS[kind], int(n), float(parameter), float(noise), int(seed),
                                    X.ctypes.data_as(_lib.c_double_p), X.size, _lib.ROW_MAJOR,
                                    labels.ctypes.data_as(_lib.c_int64_p), labels.size), _lib.last_error)
    return X, labels


def nomad_gram(X):
    """NOMAD's input: the Gram matrix of the rows of X centered by their mean and divided by the largest
    norm of the (uncentered) rows."""
    a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
    handle = ctypes.c_void_p()
    check(lib.facto_nomad_gram(ptr, rows, cols, ld, layout, ctypes.byref(handle)), _lib.last_error)
    return _matrix_to_array(handle.value)


def nomad(X, K, solver="auto", **params):
    """NOMAD on the points X (rows; Problem.nomad_points keeps D as the points) by `solver` ("auto": the
    nomad kind's default, facto.algorithms("nomad")): returns (Q, feasibility), feasibility the RMS and the
    largest magnitude of Q's negative entries, max_i |(Q 1)_i - 1| and |Tr Q - K|. **params are solver
    parameters by their facto names (e.g. max_iterations, step_rule, rank)."""
    from .core import Problem, Solver
    with Problem.nomad_points(X, K) as problem, Solver(problem, solver, **params) as s:
        s.solve()
        return s.output("Q"), s.output("feasibility").ravel()


def multilayer_nomad(D, Ks, algorithm="auto", **params):
    """Multi-layer NOMAD ([TSC] Sec. 3.1) on the symmetric n x n D (facto.nomad_gram forms the paper's
    from points): layer 1 is NOMAD on D with Ks[0], layer l + 1 NOMAD on layer l's Q with Ks[l]
    (non-increasing), each solved by `algorithm` ("auto": the nomad kind's default) with **params, which
    every layer keeps. Returns the layers' Q, a list of n x n arrays. This is facto.h's loop over
    facto_solver_new_nomad_layer, the same in every binding."""
    if len(Ks) == 0:
        raise _lib.FactoValueError(-1, "multilayer_nomad needs at least one K")
    from .core import Problem, Solver
    with Problem.nomad(D, Ks[0]) as problem:
        solver = Solver(problem, algorithm, **params)
    layers = []
    try:
        for l, K in enumerate(Ks):
            if l > 0:
                solver, previous = solver.next_nomad_layer(K), solver
                previous.close()
            solver.solve()
            layers.append(solver.iterate)
    finally:
        solver.close()
    return layers
