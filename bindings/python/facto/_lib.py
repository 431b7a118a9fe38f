"""Loading libfacto and declaring its C ABI (facto.h) for ctypes. Nothing here computes anything.

Search order for the shared library:
  1. the FACTO_LIBRARY environment variable: a full path to libfacto.so.0 (or any file name);
  2. the copy `pip install` built from the repository's sources into the package (facto/_native);
  3. the dynamic loader's search path, "libfacto.so.0" (where `cmake --install` puts it, e.g.
     /usr/local/lib, plus LD_LIBRARY_PATH);
  4. ctypes.util.find_library("facto").
The library's major version must equal the one this package was written for.
"""
import ctypes
import ctypes.util
import os

ABI_MAJOR = 0

c_double_p = ctypes.POINTER(ctypes.c_double)
c_float_p = ctypes.POINTER(ctypes.c_float)
c_int64_p = ctypes.POINTER(ctypes.c_int64)

ROW_MAJOR = 0
COL_MAJOR = 1

PARAM_DOUBLE, PARAM_INT, PARAM_STRING = 1, 2, 3
OUTPUT_DOUBLE, OUTPUT_INT64 = 1, 2
SCALINGS = {"none": 0, "minmax": 1, "zscore": 2, "auto": 3}
SIMILARITIES = {"gaussian": 0, "cosine": 1, "auto": 2}
SEARCHES = {"exact": 0, "hnsw": 1, "auto": 2}
BANDWIDTH_MEDIAN_RULE = 0.0  # FACTO_BANDWIDTH_MEDIAN_RULE


def choice(value, table, what):
    """The code of `value` in SCALINGS, SIMILARITIES or SEARCHES; FactoValueError naming the choices otherwise."""
    if value not in table:
        raise FactoValueError(-4, f"{what} must be one of {sorted(table)}, got {value!r}")
    return table[value]


def bandwidth_code(bandwidth):
    """The ABI's bandwidth: None is the median rule; a number must be positive (0 is refused, not
    taken for the median rule, so that a computed bandwidth of 0 stays an error)."""
    if bandwidth is None:
        return BANDWIDTH_MEDIAN_RULE
    if not float(bandwidth) > 0.0:
        raise FactoValueError(-8, f"bandwidth must be positive or None (the median rule), got {bandwidth!r}")
    return float(bandwidth)
SPARSE_CSR = 0


class Progress(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("stop_reason", ctypes.c_int32),
        ("iteration", ctypes.c_int64),
        ("objective", ctypes.c_double),
        ("stationarity", ctypes.c_double),
        ("step_size", ctypes.c_double),
        ("relative_change", ctypes.c_double),
        ("elapsed_seconds", ctypes.c_double),
        ("feasibility", ctypes.c_double),
        ("tolerance", ctypes.c_double),  # since 0.4.0
    ]


class ParamInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("type", ctypes.c_int32),
        ("name", ctypes.c_char_p),
        ("description", ctypes.c_char_p),
        ("default_double", ctypes.c_double),
        ("lower_double", ctypes.c_double),
        ("upper_double", ctypes.c_double),
        ("default_int", ctypes.c_int64),
        ("lower_int", ctypes.c_int64),
        ("upper_int", ctypes.c_int64),
        ("default_string", ctypes.c_char_p),
        ("choices", ctypes.c_char_p),
    ]


class AlgorithmInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("is_default", ctypes.c_int32),
        ("name", ctypes.c_char_p),
        ("description", ctypes.c_char_p),
    ]


CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.POINTER(Progress), ctypes.c_void_p)


def _candidates():
    env = os.environ.get("FACTO_LIBRARY")
    if env:
        yield env
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_native", "libfacto.so.0")
    if os.path.exists(bundled):
        yield bundled
    yield "libfacto.so.0"
    found = ctypes.util.find_library("facto")
    if found:
        yield found


def _load():
    errors = []
    for candidate in _candidates():
        try:
            return ctypes.CDLL(candidate)
        except OSError as e:
            errors.append(f"{candidate}: {e}")
    raise ImportError("facto: cannot load libfacto (set FACTO_LIBRARY to its path, or install it with "
                      "`cmake --install`); tried " + "; ".join(errors))


lib = _load()

_P = ctypes.c_void_p  # opaque handles
_S = ctypes.c_int32
_I = ctypes.c_int64
_D = ctypes.c_double
_STR = ctypes.c_char_p

_PROTOTYPES = {
    "facto_version_number": (ctypes.c_int32, []),
    "facto_version": (_STR, []),
    "facto_status_string": (_STR, [_S]),
    "facto_last_error": (_STR, []),
    "facto_problem_new_simplicial_symnmf": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, _I,
                                                 ctypes.POINTER(_P)]),
    "facto_problem_free": (None, [_P]),
    "facto_problem_kind": (_STR, [_P]),
    "facto_problem_last_error": (_STR, [_P]),
    "facto_problem_iterate_shape": (_S, [_P, c_int64_p, c_int64_p]),
    "facto_problem_objective": (_S, [_P, c_double_p, _I, _I, _I, ctypes.c_int32, c_double_p]),
    "facto_problem_kind_count": (_I, []),
    "facto_problem_kind_name": (_STR, [_I]),
    "facto_algorithm_count": (_S, [_STR, c_int64_p]),
    "facto_algorithm_describe": (_S, [_STR, _I, ctypes.POINTER(AlgorithmInfo)]),
    "facto_solver_new": (_S, [_P, _STR, ctypes.POINTER(_P)]),
    "facto_solver_new_nomad_layer": (_S, [_P, _I, ctypes.POINTER(_P)]),
    "facto_solver_free": (None, [_P]),
    "facto_solver_algorithm": (_STR, [_P]),
    "facto_solver_last_error": (_STR, [_P]),
    "facto_solver_param_count": (_S, [_P, c_int64_p]),
    "facto_solver_param_info": (_S, [_P, _I, ctypes.POINTER(ParamInfo)]),
    "facto_problem_param_count": (_S, [_STR, c_int64_p]),
    "facto_problem_param_info": (_S, [_STR, _I, ctypes.POINTER(ParamInfo)]),
    "facto_solver_set_double": (_S, [_P, _STR, _D]),
    "facto_solver_set_int": (_S, [_P, _STR, _I]),
    "facto_solver_set_string": (_S, [_P, _STR, _STR]),
    "facto_solver_get_double": (_S, [_P, _STR, c_double_p]),
    "facto_solver_get_int": (_S, [_P, _STR, c_int64_p]),
    "facto_solver_get_string": (_S, [_P, _STR, ctypes.POINTER(_STR)]),
    "facto_solver_reset_params": (_S, [_P]),
    "facto_solver_set_iterate": (_S, [_P, c_double_p, _I, _I, _I, ctypes.c_int32]),
    "facto_solver_step": (_S, [_P]),
    "facto_solver_solve": (_S, [_P]),
    "facto_solver_request_stop": (_S, [_P]),
    "facto_solver_progress": (_S, [_P, ctypes.POINTER(Progress)]),
    "facto_solver_set_callback": (_S, [_P, CALLBACK, ctypes.c_void_p, ctypes.c_void_p]),
    "facto_solver_iterate_shape": (_S, [_P, c_int64_p, c_int64_p]),
    "facto_solver_copy_iterate": (_S, [_P, c_double_p, _I, ctypes.c_int32]),
    "facto_solver_output_count": (_S, [_P, c_int64_p]),
    "facto_solver_output_name": (_S, [_P, _I, ctypes.POINTER(_STR)]),
    "facto_solver_output_shape": (_S, [_P, _STR, ctypes.POINTER(ctypes.c_int32), c_int64_p, c_int64_p]),
    "facto_solver_copy_output_double": (_S, [_P, _STR, c_double_p, _I, ctypes.c_int32]),
    "facto_solver_copy_output_int64": (_S, [_P, _STR, c_int64_p, _I, ctypes.c_int32]),
    "facto_matrix_read": (_S, [_STR, ctypes.POINTER(_P)]),
    "facto_matrix_free": (None, [_P]),
    "facto_matrix_shape": (_S, [_P, c_int64_p, c_int64_p]),
    "facto_matrix_data": (c_double_p, [_P]),
    "facto_write_csv": (_S, [_STR, c_double_p, _I, _I, _I, ctypes.c_int32]),
    "facto_gaussian_affinity": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, _D, ctypes.c_int32,
                                     ctypes.POINTER(_P)]),
    "facto_clustering_accuracy": (_S, [c_int64_p, c_int64_p, _I, c_double_p]),
    "facto_consensus": (_S, [c_int64_p, _I, _I, c_double_p, c_double_p, c_double_p]),
    "facto_problem_new_symnmf": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.POINTER(_P)]),
    "facto_problem_new_symnmf_sparse": (_S, [ctypes.c_int32, _I, _I, _I, c_int64_p, c_int64_p, c_double_p, _I,
                                             ctypes.POINTER(_P)]),
    "facto_problem_new_edm_completion": (_S, [_I, _I, _I, c_int64_p, c_int64_p, c_double_p, ctypes.POINTER(_P)]),
    "facto_sparse_read": (_S, [_STR, ctypes.POINTER(_P)]),
    "facto_sparse_free": (None, [_P]),
    "facto_sparse_shape": (_S, [_P, c_int64_p, c_int64_p, c_int64_p]),
    "facto_sparse_copy_csr": (_S, [_P, c_int64_p, c_int64_p, c_double_p]),
    "facto_sparse_copy_coo": (_S, [_P, c_int64_p, c_int64_p, c_double_p]),
    "facto_knn_similarity": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.c_int32, ctypes.POINTER(_P)]),
    "facto_knn_similarity_scaled": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.c_int32, ctypes.c_int32,
                                         ctypes.POINTER(_P)]),
    "facto_knn_similarity_search": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.c_int32, ctypes.c_int32,
                                         ctypes.c_int32, ctypes.POINTER(_P)]),
    "facto_knn_similarity_search_float": (_S, [c_float_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.c_int32,
                                               ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(_P)]),
    "facto_knn_search_for": (ctypes.c_int32, [_I, ctypes.c_int32]),
    "facto_knn_similarity_sparse": (_S, [ctypes.c_int32, _I, _I, _I, c_int64_p, c_int64_p, c_double_p, _I,
                                         ctypes.c_int32, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(_P)]),
    "facto_helix_points": (_S, [_I, ctypes.c_uint64, c_double_p, _I]),
    "facto_sample_pairs": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, _D, ctypes.c_uint64, ctypes.POINTER(_P)]),
    "facto_distance_nrmse": (_S, [c_double_p, c_double_p, _I, _I, ctypes.c_int32, _I, ctypes.c_uint64, c_double_p]),
    "facto_separable_data": (_S, [ctypes.c_int32, _I, _I, _I, _D, ctypes.c_uint64, c_double_p, _I, ctypes.c_int32,
                                  c_int64_p, _I]),
    "facto_problem_new_self_dictionary_named": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, _I, _I,
                                                     ctypes.POINTER(_STR), c_double_p, ctypes.POINTER(_P)]),
    "facto_problem_new_self_dictionary_sparse": (_S, [ctypes.c_int32, _I, _I, _I, c_int64_p, c_int64_p, c_double_p, _I,
                                                      _I, ctypes.POINTER(_STR), c_double_p, ctypes.POINTER(_P)]),
    "facto_problem_new_topics_named": (_S, [ctypes.c_int32, _I, _I, _I, c_int64_p, c_int64_p, c_double_p, _I, _I,
                                            ctypes.POINTER(_STR), c_double_p, ctypes.POINTER(_P)]),
    "facto_problem_new_communities_named": (_S, [ctypes.c_int32, _I, _I, _I, c_int64_p, c_int64_p, c_double_p, _I,
                                                 _I, ctypes.POINTER(_STR), c_double_p, ctypes.POINTER(_P)]),
    "facto_averaged_spearman": (_S, [c_double_p, c_double_p, _I, _I, ctypes.c_int32, c_double_p]),
    "facto_kmeans": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.c_int32, ctypes.c_uint64, c_int64_p]),
    "facto_problem_new_nomad": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.POINTER(_P)]),
    "facto_problem_new_nomad_points": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.POINTER(_P)]),
    "facto_problem_new_nomad_points_float": (_S, [c_float_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.POINTER(_P)]),
    "facto_problem_new_nomad_points_sparse": (_S, [ctypes.c_int32, _I, _I, _I, c_int64_p, c_int64_p, c_double_p, _I,
                                                   ctypes.POINTER(_P)]),
    "facto_problem_new_nomad_layer": (_S, [_P, _I, ctypes.POINTER(_P)]),
    "facto_nomad_gram": (_S, [c_double_p, _I, _I, _I, ctypes.c_int32, ctypes.POINTER(_P)]),
    "facto_solver_model": (_S, [_P, ctypes.POINTER(_P)]),
    "facto_model_new": (_S, [_STR, ctypes.POINTER(_P)]),
    "facto_model_free": (None, [_P]),
    "facto_model_kind": (_STR, [_P]),
    "facto_model_last_error": (_STR, [_P]),
    "facto_model_array_count": (_S, [_P, c_int64_p]),
    "facto_model_array_name": (_S, [_P, _I, ctypes.POINTER(_STR)]),
    "facto_model_array_shape": (_S, [_P, _STR, c_int64_p, c_int64_p]),
    "facto_model_copy_array": (_S, [_P, _STR, c_double_p, _I]),
    "facto_model_set_array": (_S, [_P, _STR, c_double_p, _I, _I]),
    "facto_model_save": (_S, [_P, _STR, _STR]),
    "facto_model_load": (_S, [_STR, ctypes.POINTER(_P)]),
    "facto_model_settings": (_STR, [_P]),
    "facto_model_describe": (_S, [_P, ctypes.POINTER(ctypes.c_char_p)]),
    "facto_model_drop_training_features": (_S, [_P]),
    "facto_model_use_gaussian_affinity": (_S, [_P, c_double_p, _I, _I, _I, ctypes.c_int32, _D, ctypes.c_int32]),
    "facto_model_use_knn_similarity": (_S, [_P, c_double_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.c_int32]),
    "facto_model_use_knn_similarity_scaled": (_S, [_P, c_double_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.c_int32,
                                                   ctypes.c_int32]),
    "facto_model_use_knn_similarity_search": (_S, [_P, c_double_p, _I, _I, _I, ctypes.c_int32, _I, ctypes.c_int32,
                                                   ctypes.c_int32, ctypes.c_int32]),
    "facto_model_use_knn_similarity_sparse": (_S, [_P, ctypes.c_int32, _I, _I, _I, c_int64_p, c_int64_p, c_double_p, _I,
                                                   ctypes.c_int32, ctypes.c_int32, ctypes.c_int32]),
    "facto_model_use_points": (_S, [_P, c_double_p, _I, _I, _I, ctypes.c_int32]),
    "facto_model_use_points_sparse": (_S, [_P, ctypes.c_int32, _I, _I, _I, c_int64_p, c_int64_p, c_double_p]),
    "facto_model_use_gram": (_S, [_P, c_double_p, _I, _I, _I, ctypes.c_int32]),
    "facto_model_apply_columns": (_S, [_P, c_int64_p]),
    "facto_model_apply": (_S, [_P, c_double_p, _I, _I, _I, ctypes.c_int32, c_double_p, _I, c_int64_p, c_double_p]),
    "facto_model_apply_sparse": (_S, [_P, ctypes.c_int32, _I, _I, _I, c_int64_p, c_int64_p, c_double_p, c_double_p, _I,
                                      c_int64_p, c_double_p]),
    "facto_manifold_points": (_S, [ctypes.c_int32, _I, _D, _D, ctypes.c_uint64, c_double_p, _I, ctypes.c_int32,
                                   c_int64_p, _I]),
}

for _name, (_restype, _argtypes) in _PROTOTYPES.items():
    _fn = getattr(lib, _name)
    _fn.restype = _restype
    _fn.argtypes = _argtypes

if lib.facto_version_number() // 10000 != ABI_MAJOR:
    raise ImportError(f"facto: loaded library version {lib.facto_version().decode()} has ABI major "
                      f"{lib.facto_version_number() // 10000}, this package needs {ABI_MAJOR}")


# ------------------------------------------------------------------------------------------------
# Errors: every negative status becomes a FactoError subclass that also derives from the matching
# built-in exception, so `except ValueError` works as a Python user expects.

class FactoError(Exception):
    """A facto call failed. `status` is the facto_status value, `status_name` its name."""

    def __init__(self, status, message):
        self.status = status
        self.status_name = lib.facto_status_string(status).decode()
        self.message = message
        super().__init__(f"{message} ({self.status_name})")


class FactoValueError(FactoError, ValueError):
    """Bad input data or argument (NaN, shape, symmetry, out of range, infeasible point, unknown
    algorithm, ...)."""


class FactoKeyError(FactoError, KeyError):
    """No parameter or output of that name."""

    def __str__(self):
        return Exception.__str__(self)


class FactoTypeError(FactoError, TypeError):
    """A parameter or output of another type."""


class FactoMemoryError(FactoError, MemoryError):
    """Out of memory."""


class FactoIOError(FactoError, OSError):
    """A file could not be read or written."""


class FactoStateError(FactoError, RuntimeError):
    """A call not allowed in the solver's current state (e.g. before any iterate exists)."""


_ERROR_CLASSES = {
    -1: FactoValueError, -3: FactoValueError, -4: FactoValueError, -5: FactoValueError,
    -8: FactoValueError, -9: FactoValueError, -10: FactoValueError, -14: FactoValueError, -16: FactoValueError,
    -6: FactoKeyError, -7: FactoTypeError, -12: FactoMemoryError, -13: FactoIOError, -11: FactoStateError,
}


def check(status, message_source):
    """Raises the FactoError for a negative status; message_source() gives the library's message."""
    if status < 0:
        message = message_source()
        raise _ERROR_CLASSES.get(status, FactoError)(status, message.decode() if message else "")
    return status


def last_error():
    return lib.facto_last_error()
