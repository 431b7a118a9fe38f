"""Problem and Solver: thin Python objects over facto's opaque handles."""
import collections
import contextlib
import ctypes
import enum
import json
import os
import signal
import threading
from collections import namedtuple

import numpy as np

from . import _lib
from ._lib import lib, check


class StopReason(enum.IntEnum):
    """Why iterating stopped (the positive facto statuses)."""
    RUNNING = 0
    CONVERGED = 1
    ITERATION_LIMIT = 2
    TIME_LIMIT = 3
    STOPPED_BY_CALLBACK = 4
    STOPPED_BY_REQUEST = 5
    STALLED = 6


Progress = namedtuple("Progress", "iteration objective stationarity step_size relative_change "
                                  "elapsed_seconds stop_reason feasibility tolerance")
Progress.__doc__ = ("Progress of a solver: iteration count, objective, the stationarity measure its tolerance "
                    "bounds (relative to the problem's scale), last step, timing, stop reason, and the "
                    "violation of constraints its iterates need not meet (NOMAD; 0 otherwise), and the bound on "
                    "stationarity in force (the parameter tolerance, or its automatic value where that is 0).")

ParamInfo = namedtuple("ParamInfo", "name type default lower upper choices description")
Algorithm = namedtuple("Algorithm", "name is_default description")


def problem_kinds():
    """The problem kinds that have algorithms, from the library's registry ("simplicial_symnmf", ...)."""
    return [lib.facto_problem_kind_name(i).decode() for i in range(lib.facto_problem_kind_count())]


def algorithms(kind=None):
    """The algorithms of a problem kind (its default first), as Algorithm(name, is_default, description)
    from the library's registry; without a kind, a dict of every kind's."""
    if kind is None:
        return {k: algorithms(k) for k in problem_kinds()}
    count = ctypes.c_int64()
    check(lib.facto_algorithm_count(kind.encode(), ctypes.byref(count)), _lib.last_error)
    table = []
    for i in range(count.value):
        info = _lib.AlgorithmInfo()
        info.struct_size = ctypes.sizeof(info)
        check(lib.facto_algorithm_describe(kind.encode(), i, ctypes.byref(info)), _lib.last_error)
        table.append(Algorithm(info.name.decode(), bool(info.is_default), info.description.decode()))
    return table


def default_algorithm(kind):
    """The library's default algorithm for a problem kind."""
    return next(a.name for a in algorithms(kind) if a.is_default)


def _param_entry(info):
    """A ParamInfo from the library's facto_param_info."""
    if info.type == _lib.PARAM_DOUBLE:
        entry = ("double", info.default_double, info.lower_double, info.upper_double, None)
    elif info.type == _lib.PARAM_INT:
        entry = ("int", info.default_int, info.lower_int, info.upper_int, None)
    else:
        entry = ("string", info.default_string.decode(), None, None, info.choices.decode().split("|"))
    return ParamInfo(info.name.decode(), *entry, info.description.decode())


def problem_params(kind):
    """The named parameters of a problem kind (what its constructor takes beyond the data and the rank),
    as ParamInfo with the library's defaults and the reason for each; [] for a kind without any."""
    count = ctypes.c_int64()
    check(lib.facto_problem_param_count(kind.encode(), ctypes.byref(count)), _lib.last_error)
    table = []
    for i in range(count.value):
        info = _lib.ParamInfo()
        info.struct_size = ctypes.sizeof(info)
        check(lib.facto_problem_param_info(kind.encode(), i, ctypes.byref(info)), _lib.last_error)
        table.append(_param_entry(info))
    return table


def _given(**params):
    """The problem parameters a caller chose (None: the library's default), as the by-name constructors
    take them: a count, an array of names and one of values. `lam` is the library's "lambda"."""
    chosen = {("lambda" if name == "lam" else name): float(value) for name, value in params.items() if value is not None}
    names = (ctypes.c_char_p * max(len(chosen), 1))(*[name.encode() for name in chosen])
    values = np.array(list(chosen.values()) or [0.0])
    return len(chosen), names, values, values.ctypes.data_as(_lib.c_double_p)


class CsrMatrix(collections.namedtuple("CsrMatrix", "indptr indices data shape")):
    """A sparse matrix in compressed sparse row form, as facto's helpers return it (the attribute
    names follow scipy.sparse.csr_matrix, so scipy.sparse.csr_matrix((data, indices, indptr), shape)
    converts it)."""

    def toarray(self):
        dense = np.zeros(self.shape)
        for row in range(self.shape[0]):
            lo, hi = self.indptr[row], self.indptr[row + 1]
            dense[row, self.indices[lo:hi]] += self.data[lo:hi]
        return dense


def _as_matrix(array, name, dtype=np.float64):
    """(array, pointer, rows, cols, ld, layout) for a 2-D array of `dtype` (float64, or float32), without
    copying a C- or Fortran-ordered input of that dtype."""
    a = np.asarray(array, dtype=dtype)
    if a.ndim != 2:
        raise _lib.FactoValueError(-4, f"{name} must be a 2-D array, got {a.ndim} dimension(s)")
    if a.flags.c_contiguous:
        layout, ld = _lib.ROW_MAJOR, max(a.shape[1], 1)
    elif a.flags.f_contiguous:
        layout, ld = _lib.COL_MAJOR, max(a.shape[0], 1)
    else:
        a = np.ascontiguousarray(a)
        layout, ld = _lib.ROW_MAJOR, max(a.shape[1], 1)
    pointer = _lib.c_float_p if a.dtype == np.float32 else _lib.c_double_p
    return a, a.ctypes.data_as(pointer), a.shape[0], a.shape[1], ld, layout


def _progress_tuple(p):
    return Progress(p.iteration, p.objective, p.stationarity, p.step_size, p.relative_change,
                    p.elapsed_seconds, StopReason(p.stop_reason), p.feasibility, p.tolerance)


class _Handle:
    """Owns one facto handle: freed by close(), by `with`, or by the garbage collector."""
    _free = None
    _handle = None  # also when __init__ failed before the handle existed

    def __init__(self, handle):
        self._handle = handle

    def close(self):
        handle, self._handle = self._handle, None
        if handle:
            type(self)._free(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    @property
    def _h(self):
        if not self._handle:
            raise _lib.FactoStateError(-11, f"this {type(self).__name__} has been closed")
        return self._handle


class Problem(_Handle):
    """An optimization problem; its data are copied in and never change."""
    _free = lib.facto_problem_free

    @classmethod
    def simplicial_symnmf(cls, P, k):
        """min 1/4 ||P - W W^T||_F^2  s.t.  W >= 0, W 1 = 1, for a symmetric n x n P and rank k."""
        a, ptr, rows, cols, ld, layout = _as_matrix(P, "P")
        handle = ctypes.c_void_p()
        check(lib.facto_problem_new_simplicial_symnmf(ptr, rows, cols, ld, layout, int(k), ctypes.byref(handle)),
              _lib.last_error)
        return cls(handle.value)

    @staticmethod
    def _csr(M, name):
        """(rows, cols, indptr, indices, values) of a facto.CsrMatrix, anything with .tocsr() (scipy.sparse)
        or a dense 2-D array (its nonzeros)."""
        if isinstance(M, CsrMatrix):
            csr = M
        elif hasattr(M, "tocsr"):
            csr = M.tocsr()
        else:
            a = np.asarray(M, dtype=np.float64)
            if a.ndim != 2:
                raise _lib.FactoValueError(-4, f"{name} must be a 2-D array or sparse matrix, got {a.ndim} dimension(s)")
            rows, cols = np.nonzero(a)
            indptr = np.zeros(a.shape[0] + 1, dtype=np.int64)
            np.add.at(indptr, rows + 1, 1)
            csr = CsrMatrix(np.cumsum(indptr), cols, a[rows, cols], a.shape)
        return (csr.shape[0], csr.shape[1], np.ascontiguousarray(csr.indptr, dtype=np.int64),
                np.ascontiguousarray(csr.indices, dtype=np.int64), np.ascontiguousarray(csr.data, dtype=np.float64))

    @classmethod
    def symnmf(cls, M, r):
        """min 1/2 ||M - X X^T||_F^2  s.t.  X >= 0, X n x r, for a symmetric M: a dense array, a
        facto.CsrMatrix, or anything with .tocsr() (scipy.sparse), stored in full (both triangles)."""
        handle = ctypes.c_void_p()
        csr = M if isinstance(M, CsrMatrix) else (M.tocsr() if hasattr(M, "tocsr") else None)
        if csr is None:
            a, ptr, rows, cols, ld, layout = _as_matrix(M, "M")
            check(lib.facto_problem_new_symnmf(ptr, rows, cols, ld, layout, int(r), ctypes.byref(handle)),
                  _lib.last_error)
            return cls(handle.value)
        rows, cols, indptr, indices, values = cls._csr(csr, "M")
        check(lib.facto_problem_new_symnmf_sparse(_lib.SPARSE_CSR, rows, cols, values.size,
                                                  indptr.ctypes.data_as(_lib.c_int64_p),
                                                  indices.ctypes.data_as(_lib.c_int64_p),
                                                  values.ctypes.data_as(_lib.c_double_p), int(r),
                                                  ctypes.byref(handle)), _lib.last_error)
        return cls(handle.value)

    @classmethod
    def edm_completion(cls, n, r, i, j, d):
        """min 1/2 sum_k (||x_i[k] - x_j[k]||^2 - d[k])^2 over X (n x r), from observed pairs (0-based
        indices, squared distances)."""
        i = np.ascontiguousarray(i, dtype=np.int64).ravel()
        j = np.ascontiguousarray(j, dtype=np.int64).ravel()
        d = np.ascontiguousarray(d, dtype=np.float64).ravel()
        if not (i.size == j.size == d.size):
            raise _lib.FactoValueError(-4, f"i, j and d differ in length: {i.size}, {j.size}, {d.size}")
        handle = ctypes.c_void_p()
        check(lib.facto_problem_new_edm_completion(int(n), int(r), i.size, i.ctypes.data_as(_lib.c_int64_p),
                                                   j.ctypes.data_as(_lib.c_int64_p),
                                                   d.ctypes.data_as(_lib.c_double_p), ctypes.byref(handle)),
              _lib.last_error)
        return cls(handle.value)

    @classmethod
    def self_dictionary(cls, X, K=0, lam=None, mu=None):
        """Self-dictionary separable NMF (Nguyen, Fu & Wu, eq. 18): min 1/2 ||X - X C||_F^2 + lam Phi_mu(C),
        columns of C (N x N) on the simplex, for data X of shape M x N (one point per column). K is the
        number of anchors (0 = unknown). lam and mu: None takes the library's defaults
        (problem_params("self_dictionary"): lam the paper's heuristic ||X - X C0||_F / K, which needs K);
        lam=0 is MERIT(0). Solvers "merit" and "spa"; read the outputs "selected", "H" and "nnz". A
        facto.CsrMatrix or scipy.sparse X stays sparse (its points' non-zeros): "spa", "snpa" and
        "fast_anchor" run on it, "merit" and "fast_gradient" (dense M x N or N x N arrays) refuse it."""
        count, names, _, values = _given(lam=lam, mu=mu)
        handle = ctypes.c_void_p()
        if isinstance(X, CsrMatrix) or hasattr(X, "tocsr"):
            rows, cols, indptr, indices, data = cls._csr(X, "X")
            check(lib.facto_problem_new_self_dictionary_sparse(_lib.SPARSE_CSR, rows, cols, data.size,
                                                               indptr.ctypes.data_as(_lib.c_int64_p),
                                                               indices.ctypes.data_as(_lib.c_int64_p),
                                                               data.ctypes.data_as(_lib.c_double_p), int(K), count,
                                                               names, values, ctypes.byref(handle)), _lib.last_error)
            return cls(handle.value)
        a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
        check(lib.facto_problem_new_self_dictionary_named(ptr, rows, cols, ld, layout, int(K), count, names, values,
                                                          ctypes.byref(handle)), _lib.last_error)
        return cls(handle.value)

    @classmethod
    def topics(cls, counts, K, min_df=None, rank=None, lam=None, mu=None, refine=None):
        """Anchor-word topic modeling (Nguyen, Fu & Wu Sec. V-B) from a documents x terms count matrix
        (facto.CsrMatrix, scipy.sparse or dense): terms in fewer than min_df documents (or in all) dropped,
        TF-IDF, the word-word correlation reduced to `rank` dimensions (0: 2K), then a self-dictionary
        problem whose anchors are anchor words, their topics refined with the documents' weights until a
        sweep gains less than `refine` (0: the paper's topics); None takes the library's default
        (problem_params("topics")).
        Outputs: "selected", "topics" (K x V), "top_terms", "document_topics", "labels", "coherence",
        "similarity_count" (and "H", "nnz")."""
        rows, cols, indptr, indices, values = cls._csr(counts, "counts")
        count, names, _, chosen = _given(min_df=min_df, rank=rank, lam=lam, mu=mu, refine=refine)
        handle = ctypes.c_void_p()
        check(lib.facto_problem_new_topics_named(_lib.SPARSE_CSR, rows, cols, values.size,
                                                 indptr.ctypes.data_as(_lib.c_int64_p),
                                                 indices.ctypes.data_as(_lib.c_int64_p),
                                                 values.ctypes.data_as(_lib.c_double_p), int(K), count, names, chosen,
                                                 ctypes.byref(handle)), _lib.last_error)
        return cls(handle.value)

    @classmethod
    def communities(cls, A, K, energy=None, lam=None, mu=None):
        """Mixed-membership community detection (Nguyen, Fu & Wu Sec. V-C) from a symmetric adjacency matrix
        (both triangles; facto.CsrMatrix, scipy.sparse or dense): the top-K eigenvectors over the nodes that
        carry `energy` of their energy, as a self-dictionary problem whose anchors are pure nodes; None takes
        the library's default (problem_params("communities")). Outputs: "selected", "memberships" (N x K),
        "labels", "nodes" (and "H", "nnz")."""
        rows, cols, indptr, indices, values = cls._csr(A, "A")
        count, names, _, chosen = _given(energy=energy, lam=lam, mu=mu)
        handle = ctypes.c_void_p()
        check(lib.facto_problem_new_communities_named(_lib.SPARSE_CSR, rows, cols, values.size,
                                                      indptr.ctypes.data_as(_lib.c_int64_p),
                                                      indices.ctypes.data_as(_lib.c_int64_p),
                                                      values.ctypes.data_as(_lib.c_double_p), int(K), count, names,
                                                      chosen, ctypes.byref(handle)), _lib.last_error)
        return cls(handle.value)

    @classmethod
    def nomad(cls, D, K):
        """NOMAD (Tepper, Sengupta & Chklovskii): max Tr(D Q) s.t. Q 1 = 1, Tr Q = K, Q psd, Q >= 0, for a
        symmetric n x n D (facto.nomad_gram forms the paper's from points). Solvers "nomad_cgm" (the
        conditional gradient method) and "burer_monteiro" (Q = Y Y^T with Y >= 0 n x r, a local solution;
        extra output "factor"); outputs "Q", "embedding" (n x (K - 1)), "feasibility" (RMS and max of Q's
        negative part, row-sum and trace errors) and "labels" (the connected components of Q's graph, edges
        where Q_ij > component_threshold K / n, a solver parameter)."""
        a, ptr, rows, cols, ld, layout = _as_matrix(D, "D")
        handle = ctypes.c_void_p()
        check(lib.facto_problem_new_nomad(ptr, rows, cols, ld, layout, int(K), ctypes.byref(handle)),
              _lib.last_error)
        return cls(handle.value)

    @classmethod
    def nomad_points(cls, X, K):
        """NOMAD on the points X (n x d, rows): D is the paper's Gram matrix of them (as facto.nomad_gram),
        kept as their centered, scaled coordinates and never formed, so memory is linear in n.
        "burer_monteiro" works through products with them (its default start is then kernel k-means) and
        computes every output but "Q" from its factor, and its "upper_bound" there includes the partition
        dual bound (parameters bound_parts, bound_iterations; linear memory); "nomad_cgm" forms D when it
        starts. A facto.CsrMatrix or scipy.sparse X (counts, TF-IDF) stays sparse: its centring is left
        implicit, memory in its non-zeros (the partition bound, which needs dense coordinates, is left out).
        A float32 X (images) is kept in single precision, half the memory, and centred in float64 as the
        products read it: the same D."""
        handle = ctypes.c_void_p()
        if isinstance(X, CsrMatrix) or hasattr(X, "tocsr"):
            rows, cols, indptr, indices, values = cls._csr(X, "X")
            check(lib.facto_problem_new_nomad_points_sparse(_lib.SPARSE_CSR, rows, cols, values.size,
                                                            indptr.ctypes.data_as(_lib.c_int64_p),
                                                            indices.ctypes.data_as(_lib.c_int64_p),
                                                            values.ctypes.data_as(_lib.c_double_p), int(K),
                                                            ctypes.byref(handle)), _lib.last_error)
            return cls(handle.value)
        single = getattr(X, "dtype", None) == np.float32
        a, ptr, rows, cols, ld, layout = _as_matrix(X, "X", np.float32 if single else np.float64)
        build = lib.facto_problem_new_nomad_points_float if single else lib.facto_problem_new_nomad_points
        check(build(ptr, rows, cols, ld, layout, int(K), ctypes.byref(handle)), _lib.last_error)
        return cls(handle.value)

    @classmethod
    def nomad_layer(cls, solver, K):
        """The next layer of multi-layer NOMAD (Sec. 3.1): NOMAD on D = the current Q of `solver` (a solver of
        a nomad problem that has an iterate) with K no larger than that problem's."""
        handle = ctypes.c_void_p()
        check(lib.facto_problem_new_nomad_layer(solver._h, int(K), ctypes.byref(handle)), _lib.last_error)
        return cls(handle.value)

    def _error(self):
        return lib.facto_problem_last_error(self._h)

    @property
    def kind(self):
        return lib.facto_problem_kind(self._h).decode()

    @property
    def iterate_shape(self):
        rows, cols = ctypes.c_int64(), ctypes.c_int64()
        check(lib.facto_problem_iterate_shape(self._h, ctypes.byref(rows), ctypes.byref(cols)), self._error)
        return rows.value, cols.value

    def objective(self, X):
        """The objective at any point X of the iterate's shape."""
        a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
        value = ctypes.c_double()
        check(lib.facto_problem_objective(self._h, ptr, rows, cols, ld, layout, ctypes.byref(value)), self._error)
        return value.value


@contextlib.contextmanager
def _interrupt_requests_stop(handle):
    """While a solve runs on the main thread under Python's default SIGINT handler, Ctrl-C asks it to stop
    at the end of the current iteration (facto_solver_request_stop); yields a function telling whether it
    did. Python runs signal handlers only between bytecodes, never during the C call, so the signal's byte
    reaches a helper thread through signal.set_wakeup_fd, and the helper makes the request."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield lambda: False
        return
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    interrupted = threading.Event()
    previous_fd = -1

    def watch():
        while True:
            data = os.read(read_fd, 64)
            if not data:
                return
            if signal.SIGINT in data:
                interrupted.set()
                lib.facto_solver_request_stop(handle)
            if previous_fd != -1:  # another user of the wakeup fd (an event loop) still hears its signals
                with contextlib.suppress(OSError):
                    os.write(previous_fd, data)

    helper = threading.Thread(target=watch, name="facto-interrupt", daemon=True)
    previous_handler, woken = None, False  # restored in reverse, only what was installed
    try:
        previous_fd = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
        woken = True
        helper.start()
        previous_handler = signal.signal(signal.SIGINT, lambda signum, frame: interrupted.set())
        yield interrupted.is_set
    finally:
        if previous_handler is not None:
            signal.signal(signal.SIGINT, previous_handler)
        if woken:
            signal.set_wakeup_fd(previous_fd)
        os.close(write_fd)  # the helper reads end-of-file and returns
        if helper.is_alive():
            helper.join()
        os.close(read_fd)


class Solver(_Handle):
    """One algorithm bound to one problem; owns the iterate. Parameters may be given as keywords.

    `algorithm` is one of facto.algorithms(problem.kind), or "auto" (the default): that kind's default.

    `solver.params` reads and writes parameters by name (`solver.params["tolerance"] = 1e-8`).
    A callback is any callable taking a Progress; a truthy return value stops the solve, and an
    exception raised inside it stops the solve and is re-raised by step()/solve(). Ctrl-C during solve()
    on the main thread stops the solve at the end of the current iteration and then raises
    KeyboardInterrupt; the solver keeps its iterate and can go on.
    """
    _free = lib.facto_solver_free

    def __init__(self, problem, algorithm="auto", callback=None, **params):
        algorithm = "auto" if algorithm is None else algorithm  # None, as before 0.4.0: the kind's default
        handle = ctypes.c_void_p()
        check(lib.facto_solver_new(problem._h, algorithm.encode(), ctypes.byref(handle)), _lib.last_error)
        super().__init__(handle.value)
        self._callback = None
        self._trampoline = None  # keeps the C function pointer alive while installed
        self._pending = None     # exception raised inside the callback, re-raised after the step
        for name, value in params.items():
            self.params[name] = value
        if callback is not None:
            self.set_callback(callback)

    @classmethod
    def _adopt(cls, handle):
        """A Solver owning a handle the library made."""
        s = cls.__new__(cls)
        _Handle.__init__(s, handle)
        s._callback = s._trampoline = s._pending = None
        return s

    def next_nomad_layer(self, K):
        """Multi-layer NOMAD's next layer ([TSC] Sec. 3.1): a new Solver of this one's algorithm and
        parameter values (not its callback) on NOMAD whose D is this solver's Q, with K no larger than this
        problem's (facto_solver_new_nomad_layer)."""
        handle = ctypes.c_void_p()
        check(lib.facto_solver_new_nomad_layer(self._h, int(K), ctypes.byref(handle)), _lib.last_error)
        return Solver._adopt(handle.value)

    def _error(self):
        return lib.facto_solver_last_error(self._h)

    @property
    def algorithm(self):
        return lib.facto_solver_algorithm(self._h).decode()

    @property
    def params(self):
        return _Params(self)

    def param_info(self):
        """The parameter table: name, type, default, bounds or choices, description."""
        count = ctypes.c_int64()
        check(lib.facto_solver_param_count(self._h, ctypes.byref(count)), self._error)
        table = []
        for i in range(count.value):
            info = _lib.ParamInfo()
            info.struct_size = ctypes.sizeof(info)
            check(lib.facto_solver_param_info(self._h, i, ctypes.byref(info)), self._error)
            table.append(_param_entry(info))
        return table

    def set_iterate(self, X):
        a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
        check(lib.facto_solver_set_iterate(self._h, ptr, rows, cols, ld, layout), self._error)

    def set_callback(self, callback):
        """Install a callable(progress) -> stop?, or remove it with None."""
        if callback is None:
            check(lib.facto_solver_set_callback(self._h, _lib.CALLBACK(), None, None), self._error)
            self._callback = self._trampoline = None
            return

        def trampoline(solver, progress, user_data):
            try:
                return 1 if callback(_progress_tuple(progress.contents)) else 0
            except BaseException as e:  # stored, the solve stops, step()/solve() re-raise it
                self._pending = e
                return 1

        self._trampoline = _lib.CALLBACK(trampoline)
        check(lib.facto_solver_set_callback(self._h, self._trampoline, None, None), self._error)
        self._callback = callback

    def _run(self, fn, interruptible):
        self._pending = None
        with (_interrupt_requests_stop(self._h) if interruptible else contextlib.nullcontext(lambda: False)) \
                as interrupted:
            status = fn(self._h)
        if self._pending is not None:
            pending, self._pending = self._pending, None
            raise pending
        check(status, self._error)
        if interrupted():
            raise KeyboardInterrupt(f"facto: the solve stopped at iteration {self.progress.iteration} "
                                    f"({StopReason(status).name}); the solver keeps its iterate")
        return StopReason(status)

    def step(self):
        """One iteration; returns StopReason.RUNNING, or why a stopping rule fired."""
        return self._run(lib.facto_solver_step, interruptible=False)

    def solve(self):
        """Iterate until a stopping rule fires; returns why."""
        return self._run(lib.facto_solver_solve, interruptible=True)

    def request_stop(self):
        """Ask a running solve to stop after the current iteration (callable from any thread)."""
        check(lib.facto_solver_request_stop(self._h), _lib.last_error)

    @property
    def progress(self):
        p = _lib.Progress()
        p.struct_size = ctypes.sizeof(p)
        check(lib.facto_solver_progress(self._h, ctypes.byref(p)), self._error)
        return _progress_tuple(p)

    @property
    def iterate(self):
        """A copy of the current iterate (C-ordered float64 array)."""
        rows, cols = ctypes.c_int64(), ctypes.c_int64()
        check(lib.facto_solver_iterate_shape(self._h, ctypes.byref(rows), ctypes.byref(cols)), self._error)
        out = np.empty((rows.value, cols.value), dtype=np.float64)
        check(lib.facto_solver_copy_iterate(self._h, out.ctypes.data_as(_lib.c_double_p), out.size,
                                            _lib.ROW_MAJOR), self._error)
        return out

    def output_names(self):
        count = ctypes.c_int64()
        check(lib.facto_solver_output_count(self._h, ctypes.byref(count)), self._error)
        names = []
        for i in range(count.value):
            name = ctypes.c_char_p()
            check(lib.facto_solver_output_name(self._h, i, ctypes.byref(name)), self._error)
            names.append(name.value.decode())
        return names

    def output(self, name):
        """A named output as an array (int64 or float64); column vectors come back 1-D."""
        kind, rows, cols = ctypes.c_int32(), ctypes.c_int64(), ctypes.c_int64()
        check(lib.facto_solver_output_shape(self._h, name.encode(), ctypes.byref(kind), ctypes.byref(rows),
                                            ctypes.byref(cols)), self._error)
        if kind.value == _lib.OUTPUT_INT64:
            out = np.empty((rows.value, cols.value), dtype=np.int64)
            fn, ptr = lib.facto_solver_copy_output_int64, out.ctypes.data_as(_lib.c_int64_p)
        else:
            out = np.empty((rows.value, cols.value), dtype=np.float64)
            fn, ptr = lib.facto_solver_copy_output_double, out.ctypes.data_as(_lib.c_double_p)
        check(fn(self._h, name.encode(), ptr, out.size, _lib.ROW_MAJOR), self._error)
        return out[:, 0] if cols.value == 1 else out

    @property
    def labels(self):
        return self.output("labels")


Applied = namedtuple("Applied", "rows labels residuals")
Applied.__doc__ = ("What a Model gives new points: their rows (q x columns: memberships, coefficients, topic "
                   "proportions, positions or NOMAD's embedding), labels (-1 where the job has none) and "
                   "residuals (the squared error of the model's reconstruction of each point's input).")


class Model(_Handle):
    """A fitted model: what applying a solved problem to new data needs, as named arrays (facto.h,
    "Models"). Made from a solved Solver (Model.from_solver), from arrays (Model(kind, arrays), as a
    saved model is rebuilt) or from a directory (Model.load); `apply` gives new points their rows,
    labels and residuals by the job's rule."""
    _free = lib.facto_model_free

    def __init__(self, kind, arrays=None):
        handle = ctypes.c_void_p()
        check(lib.facto_model_new(str(kind).encode(), ctypes.byref(handle)), _lib.last_error)
        super().__init__(handle.value)
        for name, values in (arrays or {}).items():
            self.set_array(name, values)

    @classmethod
    def _adopt(cls, handle):
        m = cls.__new__(cls)
        _Handle.__init__(m, handle)
        return m

    @classmethod
    def from_solver(cls, solver):
        """The model of a solver's current iterate."""
        handle = ctypes.c_void_p()
        check(lib.facto_solver_model(solver._h, ctypes.byref(handle)), solver._error)
        return cls._adopt(handle.value)

    @classmethod
    def load(cls, directory):
        """A model saved by save() (or the command line's --save-model). The directory is untrusted input: its
        arrays must be regular files there (no link is followed) named by the model's kind, and the model
        must keep its kind's contract, else a FactoError names the file, the array and the rule."""
        handle = ctypes.c_void_p()
        check(lib.facto_model_load(os.fspath(directory).encode(), ctypes.byref(handle)), _lib.last_error)
        return cls._adopt(handle.value)

    def _error(self):
        return lib.facto_model_last_error(self._h)

    @property
    def kind(self):
        return lib.facto_model_kind(self._h).decode()

    @property
    def settings(self):
        """The JSON text saved with the model ("{}" unless loaded)."""
        return lib.facto_model_settings(self._h).decode()

    def describe(self):
        """What the model holds, as a dict: "kind", "takes" (what apply takes), "columns", "training_features"
        (whether a copy of the fitted points' features is inside: a feature rule keeps one to place new
        points among them) and "arrays", one dict per array with "name", "rows", "cols", "holds" and
        "training_features"."""
        text = ctypes.c_char_p()
        check(lib.facto_model_describe(self._h, ctypes.byref(text)), self._error)
        return json.loads(text.value.decode())

    def drop_training_features(self):
        """Removes the feature rule and with it the copy of the training points, so that the model can be
        shared without the data; apply then takes affinity rows, not features."""
        check(lib.facto_model_drop_training_features(self._h), self._error)

    @property
    def arrays(self):
        """{name: array} copies of the model's arrays."""
        count = ctypes.c_int64()
        check(lib.facto_model_array_count(self._h, ctypes.byref(count)), self._error)
        out = {}
        for i in range(count.value):
            name = ctypes.c_char_p()
            check(lib.facto_model_array_name(self._h, i, ctypes.byref(name)), self._error)
            rows, cols = ctypes.c_int64(), ctypes.c_int64()
            check(lib.facto_model_array_shape(self._h, name.value, ctypes.byref(rows), ctypes.byref(cols)), self._error)
            values = np.empty((rows.value, cols.value))
            check(lib.facto_model_copy_array(self._h, name.value, values.ctypes.data_as(_lib.c_double_p), values.size),
                  self._error)
            out[name.value.decode()] = values
        return out

    def set_array(self, name, values):
        a = np.ascontiguousarray(values, dtype=np.float64)
        a = a.reshape(-1, 1) if a.ndim == 1 else a
        check(lib.facto_model_set_array(self._h, str(name).encode(), a.ctypes.data_as(_lib.c_double_p), a.shape[0],
                                        a.shape[1] if a.ndim == 2 else 0), self._error)

    def save(self, directory, settings=None):
        """Writes the model as a directory of .npy files and model.json, with `settings` (a dict, or JSON
        text) for the record. Only a facto model's own files there are replaced: a file of the same name
        that is not (a user's X.npy) raises FactoIOError before anything is written."""
        text = None if settings is None else (settings if isinstance(settings, str) else json.dumps(settings))
        check(lib.facto_model_save(self._h, os.fspath(directory).encode(), None if text is None else text.encode()),
              self._error)

    def use_gaussian_affinity(self, X, bandwidth=None, scaling="minmax"):
        """apply then takes features: new points' Gaussian affinities to the fitted points X, scaled as X was
        (bandwidth None: the median rule, its value on X kept in the model)."""
        if scaling not in _lib.SCALINGS:
            raise _lib.FactoValueError(-1, f"scaling must be one of {sorted(_lib.SCALINGS)}, got {scaling!r}")
        a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
        check(lib.facto_model_use_gaussian_affinity(self._h, ptr, rows, cols, ld, layout, _lib.bandwidth_code(bandwidth),
                                                    _lib.SCALINGS[scaling]), self._error)

    def use_knn_similarity(self, X, k=0, kind="auto", scaling="auto", search="auto"):
        """apply then takes features: new points, scaled as X was, join the kNN graph of the fitted points X,
        their neighbours found by the graph's search (knn_similarity's arguments). A facto.CsrMatrix or
        scipy.sparse X unscaled (the cosine graph's automatic scaling) stays sparse in the model, and new
        points, dense or sparse, are searched exactly among its rows."""
        codes = (_lib.choice(kind, _lib.SIMILARITIES, "kind"), _lib.choice(scaling, _lib.SCALINGS, "scaling"),
                 _lib.choice(search, _lib.SEARCHES, "search"))
        if isinstance(X, CsrMatrix) or hasattr(X, "tocsr"):
            rows, cols, indptr, indices, values = Problem._csr(X, "X")
            check(lib.facto_model_use_knn_similarity_sparse(self._h, _lib.SPARSE_CSR, rows, cols, values.size,
                                                            indptr.ctypes.data_as(_lib.c_int64_p),
                                                            indices.ctypes.data_as(_lib.c_int64_p),
                                                            values.ctypes.data_as(_lib.c_double_p), int(k), *codes),
                  self._error)
            return
        a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
        check(lib.facto_model_use_knn_similarity_search(self._h, ptr, rows, cols, ld, layout, int(k), *codes),
              self._error)

    def use_points(self, X):
        """(NOMAD) apply then takes points: labelled by the nearest mean of the fitted points X (dense, or a
        facto.CsrMatrix or scipy.sparse: the model keeps the clusters' means, never the points)."""
        if isinstance(X, CsrMatrix) or hasattr(X, "tocsr"):
            rows, cols, indptr, indices, values = Problem._csr(X, "X")
            check(lib.facto_model_use_points_sparse(self._h, _lib.SPARSE_CSR, rows, cols, values.size,
                                                    indptr.ctypes.data_as(_lib.c_int64_p),
                                                    indices.ctypes.data_as(_lib.c_int64_p),
                                                    values.ctypes.data_as(_lib.c_double_p)), self._error)
            return
        a, ptr, rows, cols, ld, layout = _as_matrix(X, "X")
        check(lib.facto_model_use_points(self._h, ptr, rows, cols, ld, layout), self._error)

    def use_gram(self, D):
        """(NOMAD) apply then takes new rows of D: labelled by the nearest cluster mean in D's space."""
        a, ptr, rows, cols, ld, layout = _as_matrix(D, "D")
        check(lib.facto_model_use_gram(self._h, ptr, rows, cols, ld, layout), self._error)

    def apply(self, Y):
        """Applied(rows, labels, residuals) of new points Y: a dense array, a facto.CsrMatrix or scipy.sparse
        (self_dictionary: one point per column, as the problem's X)."""
        cols = ctypes.c_int64()
        check(lib.facto_model_apply_columns(self._h, ctypes.byref(cols)), self._error)
        sparse = isinstance(Y, CsrMatrix) or hasattr(Y, "tocsr")
        if sparse:
            q, n, indptr, indices, values = Problem._csr(Y, "Y")
        else:
            a, ptr, q, n, ld, layout = _as_matrix(Y, "Y")
        points = n if self.kind == "self_dictionary" else q
        rows = np.empty((points, cols.value))
        labels = np.empty(points, dtype=np.int64)
        residuals = np.empty(points)
        out = (rows.ctypes.data_as(_lib.c_double_p), rows.size, labels.ctypes.data_as(_lib.c_int64_p),
               residuals.ctypes.data_as(_lib.c_double_p))
        if sparse:
            check(lib.facto_model_apply_sparse(self._h, _lib.SPARSE_CSR, q, n, values.size,
                                               indptr.ctypes.data_as(_lib.c_int64_p),
                                               indices.ctypes.data_as(_lib.c_int64_p),
                                               values.ctypes.data_as(_lib.c_double_p), *out), self._error)
        else:
            check(lib.facto_model_apply(self._h, ptr, q, n, ld, layout, *out), self._error)
        return Applied(rows, labels, residuals)


class _Params:
    """Dict-like view of a solver's parameters; types come from the solver's own table."""

    def __init__(self, solver):
        self._solver = solver
        self._types = {p.name: p.type for p in solver.param_info()}

    def __iter__(self):
        return iter(self._types)

    def __len__(self):
        return len(self._types)

    def keys(self):
        return self._types.keys()

    def items(self):
        return [(name, self[name]) for name in self._types]

    def _type(self, name):
        # Unknown names go to the library, which raises the error that names the parameter.
        return self._types.get(name, "double")

    def __getitem__(self, name):
        s = self._solver
        kind = self._type(name)
        if kind == "int":
            v = ctypes.c_int64()
            check(lib.facto_solver_get_int(s._h, name.encode(), ctypes.byref(v)), s._error)
        elif kind == "string":
            v = ctypes.c_char_p()
            check(lib.facto_solver_get_string(s._h, name.encode(), ctypes.byref(v)), s._error)
            return v.value.decode()
        else:
            v = ctypes.c_double()
            check(lib.facto_solver_get_double(s._h, name.encode(), ctypes.byref(v)), s._error)
        return v.value

    def __setitem__(self, name, value):
        s = self._solver
        kind = self._type(name)
        if kind == "string" or isinstance(value, str):
            check(lib.facto_solver_set_string(s._h, name.encode(), str(value).encode()), s._error)
        elif kind == "int" or isinstance(value, (bool, np.bool_)):
            if isinstance(value, float) and not float(value).is_integer():
                raise _lib.FactoTypeError(-7, f"parameter '{name}' is an integer, got {value!r}")
            check(lib.facto_solver_set_int(s._h, name.encode(), int(value)), s._error)
        else:
            check(lib.facto_solver_set_double(s._h, name.encode(), float(value)), s._error)

    def reset(self):
        check(lib.facto_solver_reset_params(self._solver._h), self._solver._error)

    def __repr__(self):
        return repr(dict(self.items()))
