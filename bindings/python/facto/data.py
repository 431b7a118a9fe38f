"""Data helpers of facto: reading matrices, the Gaussian affinity, clustering accuracy."""
import ctypes

import numpy as np

from . import _lib
from ._lib import lib, check
from .core import _as_matrix


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


def gaussian_affinity(X, bandwidth=1.0, scaling="minmax"):
    """P_ij = exp(-||x_i - x_j||^2 / bandwidth) of the rows of X, after scaling its columns
    ("minmax" to [-1, 1], "zscore", or "none")."""
    if scaling not in _lib.SCALINGS:
        raise _lib.FactoValueError(-1, f"scaling must be one of {sorted(_lib.SCALINGS)}, got {scaling!r}")
    a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
    handle = ctypes.c_void_p()
    check(lib.facto_gaussian_affinity(ptr, rows, cols, ld, layout, float(bandwidth), _lib.SCALINGS[scaling],
                                      ctypes.byref(handle)), _lib.last_error)
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
