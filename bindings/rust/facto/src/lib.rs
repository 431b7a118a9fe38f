//! Safe Rust bindings to facto, first-order solvers for structured low-rank matrix problems.
//!
//! A thin layer over the C ABI (`facto.h`, through the `facto-sys` crate): owned handles freed by
//! `Drop`, `Result<T, facto::Error>`, slices with a row/column-major [`Layout`], closures as iteration
//! callbacks. No math is reimplemented here.
//!
//! ```no_run
//! use facto::{Layout, MatrixRef, Problem, Solver};
//! # fn main() -> Result<(), facto::Error> {
//! let p = vec![1.0, 0.2, 0.2, 1.0];
//! let problem = Problem::simplicial_symnmf(MatrixRef::new(&p, 2, 2, Layout::RowMajor)?, 1)?;
//! let mut solver = Solver::new(&problem, "frank_wolfe")?;
//! solver.set("max_iterations", 100)?;
//! solver.set_callback(|progress| progress.iteration >= 50)?;
//! let reason = solver.solve()?;
//! let w = solver.iterate(Layout::ColMajor)?;
//! # Ok(()) }
//! ```
//!
//! Threads: `Problem` and `Solver` are `Send` (a handle may move between threads) but not `Sync`
//! (one handle is used by one thread at a time, as facto.h requires). Several solvers may share one
//! problem and run on distinct threads.

use std::any::Any;
use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::{c_char, c_void};
use std::panic::{self, AssertUnwindSafe};
use std::ptr::{self, NonNull};

use facto_sys as sys;

/// Memory order of a dense matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Row after row (C, numpy's default).
    RowMajor,
    /// Column after column (Fortran, R, Julia, nalgebra).
    ColMajor,
}

impl Layout {
    fn raw(self) -> i32 {
        match self {
            Layout::RowMajor => sys::FACTO_ROW_MAJOR,
            Layout::ColMajor => sys::FACTO_COL_MAJOR,
        }
    }
}

/// A facto error: the C status, its name, and the library's message.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    status: i32,
    message: String,
}

impl Error {
    /// The `facto_status` value (negative).
    pub fn status(&self) -> i32 {
        self.status
    }
    /// The status's name, e.g. `"FACTO_ERROR_NOT_FINITE"`.
    pub fn status_name(&self) -> &'static str {
        status_name(self.status)
    }
    /// The library's message, naming the offending argument or parameter.
    pub fn message(&self) -> &str {
        &self.message
    }
    fn new(status: i32, message: impl Into<String>) -> Error {
        Error { status, message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.status_name())
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

fn status_name(status: i32) -> &'static str {
    unsafe { CStr::from_ptr(sys::facto_status_string(status)) }.to_str().unwrap_or("?")
}

fn text(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

/// Turns a status into a Result; `message` reads the library's message after a failure.
fn check(status: i32, message: impl FnOnce() -> *const c_char) -> Result<i32> {
    if status < 0 {
        Err(Error::new(status, text(message())))
    } else {
        Ok(status)
    }
}

fn thread_message() -> *const c_char {
    unsafe { sys::facto_last_error() }
}

fn c_string(s: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::new(sys::FACTO_ERROR_INVALID_ARGUMENT, format!("'{}' contains a NUL byte", s)))
}

/// Version of the loaded library, "MAJOR.MINOR.PATCH".
pub fn version() -> &'static str {
    unsafe { CStr::from_ptr(sys::facto_version()) }.to_str().unwrap_or("?")
}

/// A borrowed dense matrix: `rows * cols` values in `layout`, of f64 (every function) or f32 (the
/// functions generic over [`Feature`]).
#[derive(Debug, Clone, Copy)]
pub struct MatrixRef<'a, T = f64> {
    data: &'a [T],
    rows: usize,
    cols: usize,
    layout: Layout,
}

impl<'a, T> MatrixRef<'a, T> {
    /// Fails with `FACTO_ERROR_DIMENSION` unless `data.len() == rows * cols`.
    pub fn new(data: &'a [T], rows: usize, cols: usize, layout: Layout) -> Result<MatrixRef<'a, T>> {
        if rows.checked_mul(cols) != Some(data.len()) {
            return Err(Error::new(sys::FACTO_ERROR_DIMENSION,
                                  format!("{} values cannot form a {} x {} matrix", data.len(), rows, cols)));
        }
        Ok(MatrixRef { data, rows, cols, layout })
    }

    fn ld(&self) -> i64 {
        let ld = match self.layout {
            Layout::RowMajor => self.cols,
            Layout::ColMajor => self.rows,
        };
        ld.max(1) as i64
    }
}

/// An owned dense matrix returned by facto.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    pub data: Vec<f64>,
    pub rows: usize,
    pub cols: usize,
    pub layout: Layout,
}

impl Matrix {
    /// Entry (i, j), whatever the layout.
    pub fn get(&self, i: usize, j: usize) -> f64 {
        match self.layout {
            Layout::RowMajor => self.data[i * self.cols + j],
            Layout::ColMajor => self.data[i + j * self.rows],
        }
    }

    /// A borrowed view, e.g. to pass the result back to facto.
    pub fn view(&self) -> MatrixRef<'_> {
        MatrixRef { data: &self.data, rows: self.rows, cols: self.cols, layout: self.layout }
    }
}

/// Why iterating stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// No stopping rule fired (after a single step).
    Running,
    Converged,
    IterationLimit,
    TimeLimit,
    StoppedByCallback,
    StoppedByRequest,
    /// No progress was possible while the stationarity measure was above tolerance: not certified.
    Stalled,
}

impl StopReason {
    fn from_raw(status: i32) -> StopReason {
        match status {
            sys::FACTO_CONVERGED => StopReason::Converged,
            sys::FACTO_ITERATION_LIMIT => StopReason::IterationLimit,
            sys::FACTO_TIME_LIMIT => StopReason::TimeLimit,
            sys::FACTO_STOPPED_BY_CALLBACK => StopReason::StoppedByCallback,
            sys::FACTO_STOPPED_BY_REQUEST => StopReason::StoppedByRequest,
            sys::FACTO_STALLED => StopReason::Stalled,
            _ => StopReason::Running,
        }
    }
}

/// Progress of a solver.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    pub iteration: i64,
    pub objective: f64,
    /// The stationarity measure `tolerance` bounds, relative to the problem's scale (see the solver).
    pub stationarity: f64,
    pub step_size: f64,
    pub relative_change: f64,
    pub elapsed_seconds: f64,
    pub stop_reason: StopReason,
    /// The violation of the constraints the iterates need not meet (NOMAD's solvers; 0 otherwise).
    pub feasibility: f64,
    /// The bound on `stationarity` in force: the parameter `tolerance`, or its automatic value where that is 0.
    pub tolerance: f64,
}

impl From<&sys::facto_progress> for Progress {
    fn from(p: &sys::facto_progress) -> Progress {
        Progress {
            iteration: p.iteration,
            objective: p.objective,
            stationarity: p.stationarity,
            step_size: p.step_size,
            relative_change: p.relative_change,
            elapsed_seconds: p.elapsed_seconds,
            stop_reason: StopReason::from_raw(p.stop_reason),
            feasibility: p.feasibility,
            tolerance: p.tolerance,
        }
    }
}

/// A parameter value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    F64(f64),
    I64(i64),
    Str(String),
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::F64(v)
    }
}
impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::I64(v)
    }
}
impl From<i32> for Value {
    fn from(v: i32) -> Value {
        Value::I64(v as i64)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Str(v.to_string())
    }
}

/// One row of a solver's parameter table.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamInfo {
    pub name: String,
    pub description: String,
    /// The default, whose variant is the parameter's type.
    pub default: Value,
    /// Bounds of numeric parameters (as f64), None for strings.
    pub bounds: Option<(f64, f64)>,
    /// Choices of string parameters.
    pub choices: Vec<String>,
}

/// One algorithm of a problem kind, from the library's registry.
#[derive(Debug, Clone, PartialEq)]
pub struct Algorithm {
    pub name: String,
    /// The kind's default (exactly one per kind, listed first).
    pub is_default: bool,
    pub description: String,
}

/// The problem kinds that have algorithms ("simplicial_symnmf", ...), from the library's registry.
pub fn problem_kinds() -> Vec<String> {
    let count = unsafe { sys::facto_problem_kind_count() };
    (0..count).map(|i| text(unsafe { sys::facto_problem_kind_name(i) })).collect()
}

/// The algorithms of a problem kind, its default first, from the library's registry.
pub fn algorithms(kind: &str) -> Result<Vec<Algorithm>> {
    let name = c_string(kind)?;
    let mut count = 0i64;
    check(unsafe { sys::facto_algorithm_count(name.as_ptr(), &mut count) }, thread_message)?;
    let mut table = Vec::with_capacity(count as usize);
    for index in 0..count {
        let mut info: sys::facto_algorithm_info = unsafe { std::mem::zeroed() };
        info.struct_size = std::mem::size_of::<sys::facto_algorithm_info>() as u32;
        check(unsafe { sys::facto_algorithm_describe(name.as_ptr(), index, &mut info) }, thread_message)?;
        table.push(Algorithm { name: text(info.name), is_default: info.is_default != 0,
                               description: text(info.description) });
    }
    Ok(table)
}

/// The default algorithm of a problem kind.
pub fn default_algorithm(kind: &str) -> Result<String> {
    Ok(algorithms(kind)?.into_iter().find(|a| a.is_default).map(|a| a.name).unwrap_or_default())
}

/// A parameter table entry from the library's record.
fn param_info(info: &sys::facto_param_info) -> ParamInfo {
    let (default, bounds, choices) = match info.type_ {
        sys::FACTO_PARAM_DOUBLE => (Value::F64(info.default_double), Some((info.lower_double, info.upper_double)),
                                    vec![]),
        sys::FACTO_PARAM_INT => (Value::I64(info.default_int), Some((info.lower_int as f64, info.upper_int as f64)),
                                 vec![]),
        _ => (Value::Str(text(info.default_string)), None, text(info.choices).split('|').map(String::from).collect()),
    };
    ParamInfo { name: text(info.name), description: text(info.description), default, bounds, choices }
}

/// The named parameters of a problem kind (what its constructor takes beyond the data and the rank), with
/// the library's defaults and the reason for each; empty for a kind without any.
pub fn problem_params(kind: &str) -> Result<Vec<ParamInfo>> {
    let name = c_string(kind)?;
    let mut count = 0i64;
    check(unsafe { sys::facto_problem_param_count(name.as_ptr(), &mut count) }, thread_message)?;
    let mut table = Vec::with_capacity(count as usize);
    for index in 0..count {
        let mut info: sys::facto_param_info = unsafe { std::mem::zeroed() };
        info.struct_size = std::mem::size_of::<sys::facto_param_info>() as u32;
        check(unsafe { sys::facto_problem_param_info(name.as_ptr(), index, &mut info) }, thread_message)?;
        table.push(param_info(&info));
    }
    Ok(table)
}

/// The problem parameters a caller chose, as the by-name constructors take them: C names and values.
struct Chosen {
    _names: Vec<CString>,
    pointers: Vec<*const c_char>,
    values: Vec<f64>,
}

impl Chosen {
    fn new(params: &[(&str, f64)]) -> Result<Chosen> {
        let names = params.iter().map(|(name, _)| c_string(name)).collect::<Result<Vec<_>>>()?;
        let pointers = names.iter().map(|n| n.as_ptr()).collect();
        Ok(Chosen { _names: names, pointers, values: params.iter().map(|(_, v)| *v).collect() })
    }
}

/// An optimization problem: its data are copied in and never change.
pub struct Problem {
    raw: NonNull<sys::facto_problem>,
}

// A problem handle may move to another thread; it is not Sync (calls record their message on it).
unsafe impl Send for Problem {}

impl Problem {
    /// Simplicial symmetric NMF: min 1/4 ||P - W W^T||_F^2, W >= 0, W 1 = 1, P symmetric n x n.
    pub fn simplicial_symnmf(p: MatrixRef<'_>, k: usize) -> Result<Problem> {
        let mut raw = ptr::null_mut();
        check(unsafe {
            sys::facto_problem_new_simplicial_symnmf(p.data.as_ptr(), p.rows as i64, p.cols as i64, p.ld(),
                                                     p.layout.raw(), k as i64, &mut raw)
        }, thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    /// Symmetric NMF: min 1/2 ||M - X X^T||_F^2, X >= 0, X n x r, for a dense symmetric M.
    pub fn symnmf(m: MatrixRef<'_>, r: usize) -> Result<Problem> {
        let mut raw = ptr::null_mut();
        check(unsafe {
            sys::facto_problem_new_symnmf(m.data.as_ptr(), m.rows as i64, m.cols as i64, m.ld(), m.layout.raw(),
                                          r as i64, &mut raw)
        }, thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    /// Symmetric NMF for a sparse M stored in full (both triangles).
    pub fn symnmf_sparse(m: &CsrMatrix, r: usize) -> Result<Problem> {
        let mut raw = ptr::null_mut();
        check(unsafe {
            sys::facto_problem_new_symnmf_sparse(sys::FACTO_SPARSE_CSR, m.rows as i64, m.cols as i64,
                                                 m.values.len() as i64, m.indptr.as_ptr(), m.indices.as_ptr(),
                                                 m.values.as_ptr(), r as i64, &mut raw)
        }, thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    /// EDM completion: min 1/2 sum_k (||x_i[k] - x_j[k]||^2 - d[k])^2 over X (n x r), 0-based pairs.
    pub fn edm_completion(n: usize, r: usize, i: &[i64], j: &[i64], d: &[f64]) -> Result<Problem> {
        if i.len() != d.len() || j.len() != d.len() {
            return Err(Error::new(sys::FACTO_ERROR_DIMENSION,
                                  format!("i, j and d differ in length: {}, {}, {}", i.len(), j.len(), d.len())));
        }
        let mut raw = ptr::null_mut();
        check(unsafe {
            sys::facto_problem_new_edm_completion(n as i64, r as i64, d.len() as i64, i.as_ptr(), j.as_ptr(),
                                                  d.as_ptr(), &mut raw)
        }, thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    /// Self-dictionary separable NMF (Nguyen, Fu & Wu, eq. 18): min 1/2 ||X - X C||_F^2 + lambda Phi_mu(C),
    /// columns of C (N x N) on the simplex, for data X of shape M x N (one point per column). `k`: the
    /// number of anchors (0 = unknown); `params`: the problem parameters chosen by name (`&[("mu", 1e-4)]`),
    /// the library's defaults for the rest ([`problem_params`]: lambda is the paper's heuristic
    /// ||X - X C0||_F / K, which needs k; lambda 0 is MERIT(0)). Solvers "merit" and "spa"; read
    /// [`Solver::selected`] and the output "H".
    pub fn self_dictionary(x: MatrixRef<'_>, k: usize, params: &[(&str, f64)]) -> Result<Problem> {
        let chosen = Chosen::new(params)?;
        let mut raw = ptr::null_mut();
        check(unsafe {
            sys::facto_problem_new_self_dictionary_named(x.data.as_ptr(), x.rows as i64, x.cols as i64, x.ld(),
                                                         x.layout.raw(), k as i64, chosen.values.len() as i64,
                                                         chosen.pointers.as_ptr(), chosen.values.as_ptr(), &mut raw)
        }, thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    /// The same problem of a sparse X (M x N, one point per column: TF-IDF), kept as its non-zeros: "spa",
    /// "snpa" and "fast_anchor" run on it; "merit" and "fast_gradient", which would make it dense, refuse it.
    pub fn self_dictionary_sparse(x: &CsrMatrix, k: usize, params: &[(&str, f64)]) -> Result<Problem> {
        let chosen = Chosen::new(params)?;
        let mut raw = ptr::null_mut();
        check(unsafe {
            sys::facto_problem_new_self_dictionary_sparse(sys::FACTO_SPARSE_CSR, x.rows as i64, x.cols as i64,
                                                          x.values.len() as i64, x.indptr.as_ptr(), x.indices.as_ptr(),
                                                          x.values.as_ptr(), k as i64, chosen.values.len() as i64,
                                                          chosen.pointers.as_ptr(), chosen.values.as_ptr(), &mut raw)
        }, thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    /// Anchor-word topic modeling (Nguyen, Fu & Wu Sec. V-B) from a documents x terms count matrix: terms
    /// in fewer than min_df documents (or in all) dropped, TF-IDF, the word-word correlation reduced to
    /// rank dimensions (0: 2K), as a self-dictionary problem whose anchors are anchor words, their topics
    /// refined with the documents' weights until a sweep gains less than "refine" (0: the paper's topics);
    /// `params` as for [`Problem::self_dictionary`] (min_df, rank, lambda, mu, refine). Outputs
    /// "selected", "topics", "top_terms", "document_topics", "labels", "coherence", "similarity_count".
    pub fn topics(counts: &CsrMatrix, k: usize, params: &[(&str, f64)]) -> Result<Problem> {
        let chosen = Chosen::new(params)?;
        let mut raw = ptr::null_mut();
        check(unsafe {
            sys::facto_problem_new_topics_named(sys::FACTO_SPARSE_CSR, counts.rows as i64, counts.cols as i64,
                                                counts.values.len() as i64, counts.indptr.as_ptr(),
                                                counts.indices.as_ptr(), counts.values.as_ptr(), k as i64,
                                                chosen.values.len() as i64, chosen.pointers.as_ptr(),
                                                chosen.values.as_ptr(), &mut raw)
        }, thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    /// Mixed-membership community detection (Nguyen, Fu & Wu Sec. V-C) from a symmetric adjacency matrix
    /// (both triangles): the top-K eigenvectors over the nodes carrying `energy` of the energy, as a
    /// self-dictionary problem whose anchors are pure nodes; `params` as for [`Problem::self_dictionary`]
    /// (energy, lambda, mu). Outputs "selected", "memberships" (N x K), "labels", "nodes".
    pub fn communities(adjacency: &CsrMatrix, k: usize, params: &[(&str, f64)]) -> Result<Problem> {
        let chosen = Chosen::new(params)?;
        let mut raw = ptr::null_mut();
        check(unsafe {
            sys::facto_problem_new_communities_named(sys::FACTO_SPARSE_CSR, adjacency.rows as i64,
                                                     adjacency.cols as i64, adjacency.values.len() as i64,
                                                     adjacency.indptr.as_ptr(), adjacency.indices.as_ptr(),
                                                     adjacency.values.as_ptr(), k as i64, chosen.values.len() as i64,
                                                     chosen.pointers.as_ptr(), chosen.values.as_ptr(), &mut raw)
        }, thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    /// NOMAD (Tepper, Sengupta & Chklovskii): max Tr(D Q) s.t. Q 1 = 1, Tr Q = K, Q psd, Q >= 0, for a
    /// symmetric n x n D ([`nomad_gram`] forms the paper's from points). Solvers "nomad_cgm" (conditional
    /// gradient) and "burer_monteiro" (Q = Y Y^T with Y >= 0 n x r, a local solution; extra output
    /// "factor"); the iterate is Q; outputs "embedding" (n x (K - 1)) and "feasibility" (RMS and max of Q's
    /// negative part, row-sum and trace errors).
    pub fn nomad(d: MatrixRef<'_>, k: usize) -> Result<Problem> {
        let mut raw = ptr::null_mut();
        check(unsafe {
            sys::facto_problem_new_nomad(d.data.as_ptr(), d.rows as i64, d.cols as i64, d.ld(), d.layout.raw(),
                                         k as i64, &mut raw)
        }, thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    /// NOMAD on the points `x` (n x d, rows): D is the paper's Gram matrix of them (as [`nomad_gram`]),
    /// kept as their centered, scaled coordinates and never formed, so memory is linear in n.
    /// "burer_monteiro" works through products with them (its default start is then kernel k-means) and
    /// computes every output but "Q" from its factor; "nomad_cgm" forms D when it starts. f32 points
    /// (images) are kept in single precision, half the memory, and centred in f64 as products read them.
    pub fn nomad_points<T: Feature>(x: MatrixRef<'_, T>, k: usize) -> Result<Problem> {
        let mut raw = ptr::null_mut();
        check(unsafe { T::nomad_points(x.data.as_ptr(), x.rows as i64, x.cols as i64, x.ld(), x.layout.raw(), k as i64, &mut raw) },
              thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    /// NOMAD on sparse points (counts, TF-IDF): the same D as [`Problem::nomad_points`] of their dense form,
    /// their centring left implicit, memory in the non-zeros.
    pub fn nomad_points_sparse(x: &CsrMatrix, k: usize) -> Result<Problem> {
        let mut raw = ptr::null_mut();
        check(unsafe {
            sys::facto_problem_new_nomad_points_sparse(sys::FACTO_SPARSE_CSR, x.rows as i64, x.cols as i64,
                                                       x.values.len() as i64, x.indptr.as_ptr(), x.indices.as_ptr(),
                                                       x.values.as_ptr(), k as i64, &mut raw)
        }, thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    /// The next layer of multi-layer NOMAD (Sec. 3.1): NOMAD on D = the current Q of `previous` (a solver
    /// of a NOMAD problem that has an iterate) with `k` no larger than that problem's K.
    pub fn nomad_layer(previous: &Solver, k: usize) -> Result<Problem> {
        let mut raw = ptr::null_mut();
        check(unsafe { sys::facto_problem_new_nomad_layer(previous.raw.as_ptr(), k as i64, &mut raw) },
              thread_message)?;
        Ok(Problem { raw: NonNull::new(raw).expect("facto returned OK with a NULL problem") })
    }

    fn message(&self) -> *const c_char {
        unsafe { sys::facto_problem_last_error(self.raw.as_ptr()) }
    }

    /// The problem's kind, e.g. "simplicial_symnmf".
    pub fn kind(&self) -> String {
        text(unsafe { sys::facto_problem_kind(self.raw.as_ptr()) })
    }

    /// Shape of the iterate.
    pub fn iterate_shape(&self) -> (usize, usize) {
        let (mut rows, mut cols) = (0i64, 0i64);
        unsafe { sys::facto_problem_iterate_shape(self.raw.as_ptr(), &mut rows, &mut cols) };
        (rows as usize, cols as usize)
    }

    /// The objective at any point of the iterate's shape.
    pub fn objective(&self, x: MatrixRef<'_>) -> Result<f64> {
        let mut value = 0.0;
        check(unsafe {
            sys::facto_problem_objective(self.raw.as_ptr(), x.data.as_ptr(), x.rows as i64, x.cols as i64, x.ld(),
                                         x.layout.raw(), &mut value)
        }, || self.message())?;
        Ok(value)
    }
}

impl Drop for Problem {
    fn drop(&mut self) {
        unsafe { sys::facto_problem_free(self.raw.as_ptr()) }
    }
}

type CallbackFn = dyn FnMut(&Progress) -> bool + Send;

// What the C callback's user_data points to: the closure and a panic caught inside it.
struct CallbackSlot {
    callback: Box<CallbackFn>,
    panic: Option<Box<dyn Any + Send>>,
}

unsafe extern "C" fn trampoline(_solver: *const sys::facto_solver, progress: *const sys::facto_progress,
                                user_data: *mut c_void) -> i32 {
    let slot = &mut *(user_data as *mut CallbackSlot);
    let progress = Progress::from(&*progress);
    // A panic must not unwind through C: catch it, stop the solve, resume it after step/solve returns.
    match panic::catch_unwind(AssertUnwindSafe(|| (slot.callback)(&progress))) {
        Ok(stop) => stop as i32,
        Err(payload) => {
            slot.panic = Some(payload);
            1
        }
    }
}

/// One algorithm bound to one problem; owns the iterate.
pub struct Solver {
    raw: NonNull<sys::facto_solver>,
    callback: Option<Box<CallbackSlot>>,
}

// The callback is Send, and one solver is used by one thread at a time (&mut self), so a solver may
// move between threads.
unsafe impl Send for Solver {}

impl Solver {
    /// A solver running `algorithm` ("frank_wolfe", "projected_gradient", ...) on `problem`. The solver
    /// keeps the problem's data alive: the problem may be dropped first.
    /// A solver of the problem kind's default algorithm ("auto": the library resolves it).
    pub fn with_default(problem: &Problem) -> Result<Solver> {
        Solver::new(problem, "auto")
    }

    /// Multi-layer NOMAD's next layer ([TSC] Sec. 3.1): a solver of this one's algorithm and parameter
    /// values (not its callback) on NOMAD whose D is this solver's Q, with `k` no larger than this
    /// problem's K (facto_solver_new_nomad_layer).
    pub fn next_nomad_layer(&self, k: usize) -> Result<Solver> {
        let mut raw = ptr::null_mut();
        check(unsafe { sys::facto_solver_new_nomad_layer(self.raw.as_ptr(), k as i64, &mut raw) }, thread_message)?;
        Ok(Solver { raw: NonNull::new(raw).expect("facto returned OK with a NULL solver"), callback: None })
    }

    /// A solver of `algorithm`, one of [`algorithms`] of the problem's kind.
    pub fn new(problem: &Problem, algorithm: &str) -> Result<Solver> {
        let name = c_string(algorithm)?;
        let mut raw = ptr::null_mut();
        check(unsafe { sys::facto_solver_new(problem.raw.as_ptr(), name.as_ptr(), &mut raw) }, thread_message)?;
        Ok(Solver { raw: NonNull::new(raw).expect("facto returned OK with a NULL solver"), callback: None })
    }

    fn message(&self) -> *const c_char {
        unsafe { sys::facto_solver_last_error(self.raw.as_ptr()) }
    }

    pub fn algorithm(&self) -> String {
        text(unsafe { sys::facto_solver_algorithm(self.raw.as_ptr()) })
    }

    /// The parameter table.
    pub fn params(&self) -> Result<Vec<ParamInfo>> {
        let mut count = 0i64;
        check(unsafe { sys::facto_solver_param_count(self.raw.as_ptr(), &mut count) }, || self.message())?;
        let mut table = Vec::with_capacity(count as usize);
        for index in 0..count {
            let mut info: sys::facto_param_info = unsafe { std::mem::zeroed() };
            info.struct_size = std::mem::size_of::<sys::facto_param_info>() as u32;
            check(unsafe { sys::facto_solver_param_info(self.raw.as_ptr(), index, &mut info) }, || self.message())?;
            table.push(param_info(&info));
        }
        Ok(table)
    }

    /// Sets a parameter by name; an integer is accepted for a floating-point parameter.
    pub fn set<V: Into<Value>>(&mut self, name: &str, value: V) -> Result<()> {
        let c_name = c_string(name)?;
        let raw = self.raw.as_ptr();
        let status = match value.into() {
            Value::F64(v) => unsafe { sys::facto_solver_set_double(raw, c_name.as_ptr(), v) },
            Value::I64(v) => unsafe { sys::facto_solver_set_int(raw, c_name.as_ptr(), v) },
            Value::Str(v) => {
                let c_value = c_string(&v)?;
                unsafe { sys::facto_solver_set_string(raw, c_name.as_ptr(), c_value.as_ptr()) }
            }
        };
        check(status, || self.message()).map(|_| ())
    }

    /// Reads a parameter by name, in its own type.
    pub fn get(&self, name: &str) -> Result<Value> {
        let kind = self.params()?.into_iter().find(|p| p.name == name).map(|p| p.default);
        let c_name = c_string(name)?;
        let raw = self.raw.as_ptr();
        match kind {
            Some(Value::I64(_)) => {
                let mut v = 0i64;
                check(unsafe { sys::facto_solver_get_int(raw, c_name.as_ptr(), &mut v) }, || self.message())?;
                Ok(Value::I64(v))
            }
            Some(Value::Str(_)) => {
                let mut v: *const c_char = ptr::null();
                check(unsafe { sys::facto_solver_get_string(raw, c_name.as_ptr(), &mut v) }, || self.message())?;
                Ok(Value::Str(text(v)))
            }
            _ => {
                let mut v = 0.0;
                check(unsafe { sys::facto_solver_get_double(raw, c_name.as_ptr(), &mut v) }, || self.message())?;
                Ok(Value::F64(v))
            }
        }
    }

    /// Every parameter back to its default.
    pub fn reset_params(&mut self) -> Result<()> {
        check(unsafe { sys::facto_solver_reset_params(self.raw.as_ptr()) }, || self.message()).map(|_| ())
    }

    /// Starts from the given point (validated by the problem).
    pub fn set_iterate(&mut self, x: MatrixRef<'_>) -> Result<()> {
        check(unsafe {
            sys::facto_solver_set_iterate(self.raw.as_ptr(), x.data.as_ptr(), x.rows as i64, x.cols as i64, x.ld(),
                                          x.layout.raw())
        }, || self.message()).map(|_| ())
    }

    /// Installs a closure called after every `callback_every`-th iteration; returning true stops the
    /// solve. A panic inside it stops the solve and resumes after `step`/`solve` returns.
    pub fn set_callback<F>(&mut self, callback: F) -> Result<()>
    where
        F: FnMut(&Progress) -> bool + Send + 'static,
    {
        let mut slot = Box::new(CallbackSlot { callback: Box::new(callback), panic: None });
        let user_data = &mut *slot as *mut CallbackSlot as *mut c_void;
        check(unsafe { sys::facto_solver_set_callback(self.raw.as_ptr(), Some(trampoline), user_data, None) },
              || self.message())?;
        self.callback = Some(slot); // the previous closure is dropped only now, after C stopped using it
        Ok(())
    }

    /// Removes the callback.
    pub fn clear_callback(&mut self) -> Result<()> {
        check(unsafe { sys::facto_solver_set_callback(self.raw.as_ptr(), None, ptr::null_mut(), None) },
              || self.message())?;
        self.callback = None;
        Ok(())
    }

    fn run(&mut self, f: unsafe extern "C" fn(*mut sys::facto_solver) -> i32) -> Result<StopReason> {
        let status = unsafe { f(self.raw.as_ptr()) };
        if let Some(payload) = self.callback.as_mut().and_then(|slot| slot.panic.take()) {
            panic::resume_unwind(payload);
        }
        check(status, || self.message()).map(StopReason::from_raw)
    }

    /// Exactly one iteration: `Running`, or the reason a stopping rule fired.
    pub fn step(&mut self) -> Result<StopReason> {
        self.run(sys::facto_solver_step)
    }

    /// Iterates until a stopping rule fires.
    pub fn solve(&mut self) -> Result<StopReason> {
        self.run(sys::facto_solver_solve)
    }

    pub fn progress(&self) -> Progress {
        let mut p = sys::facto_progress {
            struct_size: std::mem::size_of::<sys::facto_progress>() as u32,
            ..Default::default()
        };
        unsafe { sys::facto_solver_progress(self.raw.as_ptr(), &mut p) };
        Progress::from(&p)
    }

    /// A copy of the current iterate in the requested layout.
    pub fn iterate(&self, layout: Layout) -> Result<Matrix> {
        let (mut rows, mut cols) = (0i64, 0i64);
        check(unsafe { sys::facto_solver_iterate_shape(self.raw.as_ptr(), &mut rows, &mut cols) },
              || self.message())?;
        let mut data = vec![0.0; (rows * cols) as usize];
        check(unsafe { sys::facto_solver_copy_iterate(self.raw.as_ptr(), data.as_mut_ptr(), rows * cols, layout.raw()) },
              || self.message())?;
        Ok(Matrix { data, rows: rows as usize, cols: cols as usize, layout })
    }

    fn output_shape(&self, name: &CStr) -> Result<(i32, i64, i64)> {
        let (mut kind, mut rows, mut cols) = (0i32, 0i64, 0i64);
        check(unsafe { sys::facto_solver_output_shape(self.raw.as_ptr(), name.as_ptr(), &mut kind, &mut rows, &mut cols) },
              || self.message())?;
        Ok((kind, rows, cols))
    }

    /// A named integer output (row-major), e.g. "labels".
    pub fn output_i64(&self, name: &str) -> Result<Vec<i64>> {
        let c_name = c_string(name)?;
        let (_, rows, cols) = self.output_shape(&c_name)?;
        let mut out = vec![0i64; (rows * cols) as usize];
        check(unsafe {
            sys::facto_solver_copy_output_int64(self.raw.as_ptr(), c_name.as_ptr(), out.as_mut_ptr(), rows * cols,
                                                sys::FACTO_ROW_MAJOR)
        }, || self.message())?;
        Ok(out)
    }

    /// A named floating-point output.
    pub fn output_f64(&self, name: &str, layout: Layout) -> Result<Matrix> {
        let c_name = c_string(name)?;
        let (_, rows, cols) = self.output_shape(&c_name)?;
        let mut data = vec![0.0; (rows * cols) as usize];
        check(unsafe {
            sys::facto_solver_copy_output_double(self.raw.as_ptr(), c_name.as_ptr(), data.as_mut_ptr(), rows * cols,
                                                 layout.raw())
        }, || self.message())?;
        Ok(Matrix { data, rows: rows as usize, cols: cols as usize, layout })
    }

    /// The cluster of each point (for problems that cluster).
    /// The anchor columns a self_dictionary solver selected (0-based, increasing).
    pub fn selected(&self) -> Result<Vec<i64>> {
        self.output_i64("selected")
    }

    pub fn labels(&self) -> Result<Vec<i64>> {
        self.output_i64("labels")
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        unsafe { sys::facto_solver_free(self.raw.as_ptr()) }
        // self.callback is dropped after the C solver that pointed to it.
    }
}

/// Feature scalings for [`gaussian_affinity`] and [`knn_similarity`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scaling {
    None,
    /// Each column affinely onto [-1, 1].
    MinMax,
    /// Each column to mean 0, standard deviation 1.
    ZScore,
    /// By the kernel: MinMax for the Gaussian affinity and the Gaussian kNN graph, None for the cosine graph.
    Auto,
}

fn scaling_code(scaling: Scaling) -> i32 {
    match scaling {
        Scaling::None => sys::FACTO_SCALE_NONE,
        Scaling::MinMax => sys::FACTO_SCALE_MINMAX,
        Scaling::ZScore => sys::FACTO_SCALE_ZSCORE,
        Scaling::Auto => sys::FACTO_SCALE_AUTO,
    }
}

fn take_matrix(raw: *mut sys::facto_matrix) -> Matrix {
    let (mut rows, mut cols) = (0i64, 0i64);
    let data = unsafe {
        sys::facto_matrix_shape(raw, &mut rows, &mut cols);
        let values = std::slice::from_raw_parts(sys::facto_matrix_data(raw), (rows * cols) as usize).to_vec();
        sys::facto_matrix_free(raw);
        values
    };
    Matrix { data, rows: rows as usize, cols: cols as usize, layout: Layout::RowMajor }
}

/// The ABI's bandwidth: `None` is the median rule; `Some(b)` must be positive (a computed 0 stays
/// an error, not a request for the median rule).
fn bandwidth_code(bandwidth: Option<f64>) -> Result<f64> {
    match bandwidth {
        None => Ok(sys::FACTO_BANDWIDTH_MEDIAN_RULE),
        Some(b) if b > 0.0 => Ok(b),
        Some(b) => Err(Error { status: sys::FACTO_ERROR_OUT_OF_RANGE,
                               message: format!("bandwidth must be positive or None (the median rule), got {b}") }),
    }
}

/// P_ij = exp(-||x_i - x_j||^2 / bandwidth) of the rows of X, after scaling its columns; bandwidth `None`:
/// the median rule, a quarter of the median of ||x_i - x_j||^2 over the pairs.
pub fn gaussian_affinity(x: MatrixRef<'_>, bandwidth: Option<f64>, scaling: Scaling) -> Result<Matrix> {
    let scaling = scaling_code(scaling);
    let bandwidth = bandwidth_code(bandwidth)?;
    let mut raw = ptr::null_mut();
    check(unsafe {
        sys::facto_gaussian_affinity(x.data.as_ptr(), x.rows as i64, x.cols as i64, x.ld(), x.layout.raw(), bandwidth,
                                     scaling, &mut raw)
    }, thread_message)?;
    Ok(take_matrix(raw))
}

/// Reads a CSV or .npy file with facto's reader (row-major result).
pub fn read_matrix(path: &str) -> Result<Matrix> {
    let c_path = c_string(path)?;
    let mut raw = ptr::null_mut();
    check(unsafe { sys::facto_matrix_read(c_path.as_ptr(), &mut raw) }, thread_message)?;
    Ok(take_matrix(raw))
}

/// Fraction of points matched under the best one-to-one mapping of labels.
pub fn clustering_accuracy(predicted: &[i64], truth: &[i64]) -> Result<f64> {
    if predicted.len() != truth.len() {
        return Err(Error::new(sys::FACTO_ERROR_DIMENSION,
                              format!("label vectors differ in length: {} and {}", predicted.len(), truth.len())));
    }
    let mut accuracy = 0.0;
    check(unsafe {
        sys::facto_clustering_accuracy(predicted.as_ptr(), truth.as_ptr(), predicted.len() as i64, &mut accuracy)
    }, thread_message)?;
    Ok(accuracy)
}

/// Averaged Spearman rank correlation (SRC) of estimated memberships against true ones (n x K each).
pub fn averaged_spearman(estimated: MatrixRef<'_>, truth: MatrixRef<'_>) -> Result<f64> {
    if estimated.rows != truth.rows || estimated.cols != truth.cols || estimated.layout != truth.layout
        || estimated.ld() != truth.ld() {
        return Err(Error::new(sys::FACTO_ERROR_DIMENSION, "estimated and truth differ in shape or layout"));
    }
    let mut src = 0.0;
    check(unsafe {
        sys::facto_averaged_spearman(estimated.data.as_ptr(), truth.data.as_ptr(), truth.rows as i64,
                                     truth.cols as i64, truth.layout.raw(), &mut src)
    }, thread_message)?;
    Ok(src)
}

/// k-means labels (0-based) of the rows of X: Lloyd from k-means++ seeds, the best of `replicates` runs.
pub fn kmeans(x: MatrixRef<'_>, k: usize, replicates: i32, seed: u64) -> Result<Vec<i64>> {
    let mut labels = vec![0i64; x.rows];
    check(unsafe {
        sys::facto_kmeans(x.data.as_ptr(), x.rows as i64, x.cols as i64, x.ld(), x.layout.raw(), k as i64,
                          replicates, seed, labels.as_mut_ptr())
    }, thread_message)?;
    Ok(labels)
}

/// A sparse matrix in compressed sparse row form (0-based, columns increasing within a row).
#[derive(Debug, Clone, PartialEq)]
pub struct CsrMatrix {
    pub rows: usize,
    pub cols: usize,
    pub indptr: Vec<i64>,
    pub indices: Vec<i64>,
    pub values: Vec<f64>,
}

fn take_sparse(raw: *mut sys::facto_sparse) -> CsrMatrix {
    let (mut rows, mut cols, mut nnz) = (0i64, 0i64, 0i64);
    unsafe { sys::facto_sparse_shape(raw, &mut rows, &mut cols, &mut nnz) };
    let mut m = CsrMatrix {
        rows: rows as usize,
        cols: cols as usize,
        indptr: vec![0; rows as usize + 1],
        indices: vec![0; nnz as usize],
        values: vec![0.0; nnz as usize],
    };
    unsafe {
        sys::facto_sparse_copy_csr(raw, m.indptr.as_mut_ptr(), m.indices.as_mut_ptr(), m.values.as_mut_ptr());
        sys::facto_sparse_free(raw);
    }
    m
}

/// Similarities for [`knn_similarity`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Similarity {
    /// exp(-||x_i - x_j||^2 / (s_i s_j)), s_i the distance to the 7th neighbour.
    Gaussian,
    /// Cosine of the angle, negative values clipped to 0.
    Cosine,
    /// Cosine for nonnegative features with at least 90% zeros (counts, TF-IDF), Gaussian otherwise.
    Auto,
}

fn similarity_code(kind: Similarity) -> i32 {
    match kind {
        Similarity::Gaussian => sys::FACTO_SIMILARITY_GAUSSIAN,
        Similarity::Cosine => sys::FACTO_SIMILARITY_COSINE,
        Similarity::Auto => sys::FACTO_SIMILARITY_AUTO,
    }
}

/// How [`knn_similarity_search`] finds each point's neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Search {
    /// Every pair compared (blocked GEMMs).
    Exact,
    /// An HNSW index built on the points from a fixed seed: about 97% of the exact neighbours, 10x sooner
    /// at 70,000 points.
    Hnsw,
    /// Exact below [`sys::FACTO_SEARCH_HNSW_FROM`] points, HNSW from there.
    Auto,
}

fn search_code(search: Search) -> i32 {
    match search {
        Search::Exact => sys::FACTO_SEARCH_EXACT,
        Search::Hnsw => sys::FACTO_SEARCH_HNSW,
        Search::Auto => sys::FACTO_SEARCH_AUTO,
    }
}

/// The search the kNN graph of `n` points runs for `search`: `Search::Exact` or `Search::Hnsw`.
pub fn knn_search_for(n: usize, search: Search) -> Search {
    match unsafe { sys::facto_knn_search_for(n as i64, search_code(search)) } {
        sys::FACTO_SEARCH_HNSW => Search::Hnsw,
        _ => Search::Exact,
    }
}

/// The normalized kNN similarity graph of Kuang et al. 2015 Sec. 7.1 of the rows of X (k = 0:
/// floor(log2 n) + 1), X's columns scaled first (`Scaling::Auto`: min-max for the Gaussian graph, none for
/// the cosine one; `Scaling::None`: Kuang et al.'s graph), the neighbours found by `Search::Auto`.
pub fn knn_similarity(x: MatrixRef<'_>, k: usize, kind: Similarity, scaling: Scaling) -> Result<CsrMatrix> {
    knn_similarity_search(x, k, kind, scaling, Search::Auto)
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f64 {}
    impl Sealed for f32 {}
}

/// The precisions facto reads features in: f64, and f32 (half the memory: images) for
/// [`knn_similarity_search`] and [`Problem::nomad_points`], whose results for f32 values are those of
/// the same values as f64.
pub trait Feature: Copy + sealed::Sealed {
    #[doc(hidden)]
    unsafe fn knn_graph(x: *const Self, rows: i64, cols: i64, ld: i64, layout: i32, k: i64, kind: i32, scaling: i32,
                        search: i32, out: *mut *mut sys::facto_sparse) -> i32;
    #[doc(hidden)]
    unsafe fn nomad_points(x: *const Self, rows: i64, cols: i64, ld: i64, layout: i32, k: i64,
                           out: *mut *mut sys::facto_problem) -> i32;
}

impl Feature for f64 {
    unsafe fn knn_graph(x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, k: i64, kind: i32, scaling: i32,
                        search: i32, out: *mut *mut sys::facto_sparse) -> i32 {
        sys::facto_knn_similarity_search(x, rows, cols, ld, layout, k, kind, scaling, search, out)
    }
    unsafe fn nomad_points(x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, k: i64,
                           out: *mut *mut sys::facto_problem) -> i32 {
        sys::facto_problem_new_nomad_points(x, rows, cols, ld, layout, k, out)
    }
}

impl Feature for f32 {
    unsafe fn knn_graph(x: *const f32, rows: i64, cols: i64, ld: i64, layout: i32, k: i64, kind: i32, scaling: i32,
                        search: i32, out: *mut *mut sys::facto_sparse) -> i32 {
        sys::facto_knn_similarity_search_float(x, rows, cols, ld, layout, k, kind, scaling, search, out)
    }
    unsafe fn nomad_points(x: *const f32, rows: i64, cols: i64, ld: i64, layout: i32, k: i64,
                           out: *mut *mut sys::facto_problem) -> i32 {
        sys::facto_problem_new_nomad_points_float(x, rows, cols, ld, layout, k, out)
    }
}

/// [`knn_similarity`] with the neighbours found by `search`, of f64 or f32 features.
pub fn knn_similarity_search<T: Feature>(x: MatrixRef<'_, T>, k: usize, kind: Similarity, scaling: Scaling,
                                         search: Search) -> Result<CsrMatrix> {
    let kind = similarity_code(kind);
    let mut raw = ptr::null_mut();
    check(unsafe {
        T::knn_graph(x.data.as_ptr(), x.rows as i64, x.cols as i64, x.ld(), x.layout.raw(), k as i64, kind,
                     scaling_code(scaling), search_code(search), &mut raw)
    }, thread_message)?;
    Ok(take_sparse(raw))
}

/// The kNN graph of sparse rows (counts, TF-IDF): the graph of their dense form. Unscaled
/// (`Scaling::None`, or `Scaling::Auto` for the cosine graph) the rows stay sparse and are searched
/// exactly (`Search::Hnsw` is refused); a scaling that fills the zeros makes them dense first.
pub fn knn_similarity_sparse(x: &CsrMatrix, k: usize, kind: Similarity, scaling: Scaling, search: Search)
    -> Result<CsrMatrix> {
    let mut raw = ptr::null_mut();
    check(unsafe {
        sys::facto_knn_similarity_sparse(sys::FACTO_SPARSE_CSR, x.rows as i64, x.cols as i64, x.values.len() as i64,
                                         x.indptr.as_ptr(), x.indices.as_ptr(), x.values.as_ptr(), k as i64,
                                         similarity_code(kind), scaling_code(scaling), search_code(search), &mut raw)
    }, thread_message)?;
    Ok(take_sparse(raw))
}

/// Reads a Matrix Market file (symmetric files expanded).
pub fn read_matrix_market(path: &str) -> Result<CsrMatrix> {
    let c_path = c_string(path)?;
    let mut raw = ptr::null_mut();
    check(unsafe { sys::facto_sparse_read(c_path.as_ptr(), &mut raw) }, thread_message)?;
    Ok(take_sparse(raw))
}

/// n Helix points (cos 3t, sin 3t, 2t), t uniform on [0, 2 pi], row-major n x 3.
pub fn helix(n: usize, seed: u64) -> Result<Matrix> {
    let mut data = vec![0.0; 3 * n];
    check(unsafe { sys::facto_helix_points(n as i64, seed, data.as_mut_ptr(), data.len() as i64) }, thread_message)?;
    Ok(Matrix { data, rows: n, cols: 3, layout: Layout::RowMajor })
}

/// Each pair i < j of rows of X kept with probability `fraction`: (i, j, d) with d = ||x_i - x_j||^2.
pub fn sample_pairs(x: MatrixRef<'_>, fraction: f64, seed: u64) -> Result<(Vec<i64>, Vec<i64>, Vec<f64>)> {
    let mut raw = ptr::null_mut();
    check(unsafe {
        sys::facto_sample_pairs(x.data.as_ptr(), x.rows as i64, x.cols as i64, x.ld(), x.layout.raw(), fraction, seed,
                                &mut raw)
    }, thread_message)?;
    let pairs = take_sparse(raw); // upper triangular, rows in order
    let i = (0..pairs.rows)
        .flat_map(|row| std::iter::repeat(row as i64).take((pairs.indptr[row + 1] - pairs.indptr[row]) as usize))
        .collect();
    Ok((i, pairs.indices, pairs.values))
}

/// Normalized RMSE of all pairwise squared distances of X against X_true (same shape and layout).
pub fn distance_nrmse(x: MatrixRef<'_>, x_true: MatrixRef<'_>, max_pairs: i64, seed: u64) -> Result<f64> {
    if (x.rows, x.cols, x.layout) != (x_true.rows, x_true.cols, x_true.layout) {
        return Err(Error::new(sys::FACTO_ERROR_DIMENSION, "X and X_true differ in shape or layout"));
    }
    let mut value = 0.0;
    check(unsafe {
        sys::facto_distance_nrmse(x.data.as_ptr(), x_true.data.as_ptr(), x.rows as i64, x.cols as i64, x.layout.raw(),
                                  max_pairs, seed, &mut value)
    }, thread_message)?;
    Ok(value)
}

/// The two generators of separable data in [`separable_data`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Separable {
    /// Fig. 2: H = [I, all pairwise midpoints], noise on the midpoints only; N = K + K (K - 1) / 2.
    Midpoints,
    /// Fig. 4 / Table I: N - K uniform Dirichlet columns, noise on every column.
    Dirichlet,
}

/// Separable data X = W H + V of Nguyen, Fu & Wu Sec. V-A (M x N, row-major, columns randomly permuted)
/// and its K anchor columns (0-based, increasing); `snr_db` = f64::INFINITY for no noise.
pub fn separable_data(kind: Separable, m: usize, n: usize, k: usize, snr_db: f64, seed: u64)
    -> Result<(Matrix, Vec<i64>)> {
    let kind = match kind {
        Separable::Midpoints => sys::FACTO_SEPARABLE_MIDPOINTS,
        Separable::Dirichlet => sys::FACTO_SEPARABLE_DIRICHLET,
    };
    let mut data = vec![0.0; m * n];
    let mut anchors = vec![0i64; k];
    check(unsafe {
        sys::facto_separable_data(kind, m as i64, n as i64, k as i64, snr_db, seed, data.as_mut_ptr(),
                                  data.len() as i64, Layout::RowMajor.raw(), anchors.as_mut_ptr(), k as i64)
    }, thread_message)?;
    Ok((Matrix { data, rows: m, cols: n, layout: Layout::RowMajor }, anchors))
}

/// The synthetic manifolds of Tepper et al. in [`manifold_points`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Manifold {
    /// 2-D: half the points on the unit circle (label 0), the rest on the circle of radius `parameter`.
    TwoRings,
    /// 3-D: the trefoil knot (one label).
    Trefoil,
    /// 2-D: two interleaved noisy semicircles.
    TwoMoons,
    /// 2-D: six Gaussian blobs of deviation `parameter`.
    Blobs,
}

/// n points of a manifold (rows of an n x dim row-major matrix) and the manifold or blob of each,
/// reproducible from `seed`; `noise` is added to the rings and moons.
pub fn manifold_points(kind: Manifold, n: usize, parameter: f64, noise: f64, seed: u64) -> Result<(Matrix, Vec<i64>)> {
    let (kind, dim) = match kind {
        Manifold::TwoRings => (sys::FACTO_MANIFOLD_TWO_RINGS, 2),
        Manifold::Trefoil => (sys::FACTO_MANIFOLD_TREFOIL, 3),
        Manifold::TwoMoons => (sys::FACTO_MANIFOLD_TWO_MOONS, 2),
        Manifold::Blobs => (sys::FACTO_MANIFOLD_BLOBS, 2),
    };
    let mut data = vec![0.0; n * dim];
    let mut labels = vec![0i64; n];
    check(unsafe {
        sys::facto_manifold_points(kind, n as i64, parameter, noise, seed, data.as_mut_ptr(), data.len() as i64,
                                   Layout::RowMajor.raw(), labels.as_mut_ptr(), n as i64)
    }, thread_message)?;
    Ok((Matrix { data, rows: n, cols: dim, layout: Layout::RowMajor }, labels))
}

/// NOMAD's input: the Gram matrix of the rows of X centered by their mean and divided by the largest
/// norm of the (uncentered) rows (n x n, row-major).
pub fn nomad_gram(x: MatrixRef<'_>) -> Result<Matrix> {
    let mut raw = ptr::null_mut();
    check(unsafe {
        sys::facto_nomad_gram(x.data.as_ptr(), x.rows as i64, x.cols as i64, x.ld(), x.layout.raw(), &mut raw)
    }, thread_message)?;
    Ok(take_matrix(raw))
}

/// Multi-layer NOMAD ([TSC] Sec. 3.1): layer 1 is NOMAD on D with `ks[0]`, layer l + 1 NOMAD on layer l's Q
/// with `ks[l]` (non-increasing), each solved by `algorithm` (None: the nomad kind's default) with the
/// parameters `configure` sets on the first layer's solver, which every layer keeps. Returns every layer's
/// Q (row-major): facto.h's loop over facto_solver_new_nomad_layer, the same in every binding.
pub fn multilayer_nomad<F>(d: MatrixRef<'_>, ks: &[usize], algorithm: Option<&str>, configure: F)
    -> Result<Vec<Matrix>>
where
    F: FnOnce(&mut Solver) -> Result<()>,
{
    let first = *ks.first().ok_or_else(|| {
        Error::new(sys::FACTO_ERROR_INVALID_ARGUMENT, "multilayer_nomad needs at least one K".to_string())
    })?;
    let problem = Problem::nomad(d, first)?;
    let mut solver = match algorithm {
        Some(name) => Solver::new(&problem, name)?,
        None => Solver::with_default(&problem)?,
    };
    configure(&mut solver)?;
    let mut layers = Vec::with_capacity(ks.len());
    for (l, &k) in ks.iter().enumerate() {
        if l > 0 {
            solver = solver.next_nomad_layer(k)?;
        }
        solver.solve()?;
        layers.push(solver.iterate(Layout::RowMajor)?);
    }
    Ok(layers)
}

/// What a [`Model`] gives new points: their rows (row-major, one per point), labels (-1 where the job has
/// none) and residuals (the squared error of the model's reconstruction of each point's input).
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    pub rows: Matrix,
    pub labels: Vec<i64>,
    pub residuals: Vec<f64>,
}

/// A fitted model: what applying a solved problem to new data needs, as named arrays (facto.h,
/// "Models"). It outlives its problem and solver; [`Model::save`] and [`Model::load`] keep it on disk.
pub struct Model {
    raw: NonNull<sys::facto_model>,
}

// Like a problem: it may move between threads, and calls record their message on it.
unsafe impl Send for Model {}

impl Model {
    /// The model of a solver's current iterate.
    pub fn from_solver(solver: &Solver) -> Result<Model> {
        let mut raw = ptr::null_mut();
        check(unsafe { sys::facto_solver_model(solver.raw.as_ptr(), &mut raw) }, || solver.message())?;
        Ok(Model { raw: NonNull::new(raw).expect("facto returned OK with a NULL model") })
    }

    /// An empty model of a problem kind, to be filled by [`Model::set_array`].
    pub fn new(kind: &str) -> Result<Model> {
        let name = c_string(kind)?;
        let mut raw = ptr::null_mut();
        check(unsafe { sys::facto_model_new(name.as_ptr(), &mut raw) }, thread_message)?;
        Ok(Model { raw: NonNull::new(raw).expect("facto returned OK with a NULL model") })
    }

    /// A model saved by [`Model::save`] or the command line's `--save-model`. The directory is untrusted
    /// input: its arrays must be regular files there (no link is followed) named by the kind, and the model
    /// must keep its kind's contract, else an error names the file, the array and the rule.
    pub fn load(directory: &str) -> Result<Model> {
        let path = c_string(directory)?;
        let mut raw = ptr::null_mut();
        check(unsafe { sys::facto_model_load(path.as_ptr(), &mut raw) }, thread_message)?;
        Ok(Model { raw: NonNull::new(raw).expect("facto returned OK with a NULL model") })
    }

    fn message(&self) -> *const c_char {
        unsafe { sys::facto_model_last_error(self.raw.as_ptr()) }
    }

    pub fn kind(&self) -> String {
        text(unsafe { sys::facto_model_kind(self.raw.as_ptr()) })
    }

    /// The JSON settings saved with the model ("{}" unless loaded).
    pub fn settings(&self) -> String {
        text(unsafe { sys::facto_model_settings(self.raw.as_ptr()) })
    }

    /// What the model holds, as the library's JSON object: its kind, what `apply` takes, its columns,
    /// whether a copy of the fitted points' features is inside (`"training_features"`) and each array's
    /// name, shape, what it holds and whether it is that copy.
    pub fn describe(&self) -> Result<String> {
        let mut json = ptr::null();
        check(unsafe { sys::facto_model_describe(self.raw.as_ptr(), &mut json) }, || self.message())?;
        Ok(text(json))
    }

    /// Removes the feature rule and its copy of the training points, so the model can be shared without
    /// the data; `apply` then takes affinity rows, not features.
    pub fn drop_training_features(&mut self) -> Result<()> {
        check(unsafe { sys::facto_model_drop_training_features(self.raw.as_ptr()) }, || self.message())?;
        Ok(())
    }

    /// The names of the model's arrays, in name order.
    pub fn array_names(&self) -> Result<Vec<String>> {
        let mut count = 0i64;
        check(unsafe { sys::facto_model_array_count(self.raw.as_ptr(), &mut count) }, || self.message())?;
        (0..count).map(|i| {
            let mut name = ptr::null();
            check(unsafe { sys::facto_model_array_name(self.raw.as_ptr(), i, &mut name) }, || self.message())?;
            Ok(text(name))
        }).collect()
    }

    /// A copy of a named array (row-major).
    pub fn array(&self, name: &str) -> Result<Matrix> {
        let c_name = c_string(name)?;
        let (mut rows, mut cols) = (0i64, 0i64);
        check(unsafe { sys::facto_model_array_shape(self.raw.as_ptr(), c_name.as_ptr(), &mut rows, &mut cols) },
              || self.message())?;
        let mut data = vec![0.0; (rows * cols) as usize];
        check(unsafe { sys::facto_model_copy_array(self.raw.as_ptr(), c_name.as_ptr(), data.as_mut_ptr(), rows * cols) },
              || self.message())?;
        Ok(Matrix { data, rows: rows as usize, cols: cols as usize, layout: Layout::RowMajor })
    }

    /// Sets one array (row-major `rows x cols` values).
    pub fn set_array(&mut self, name: &str, data: &[f64], rows: usize, cols: usize) -> Result<()> {
        if data.len() != rows * cols {
            return Err(Error::new(sys::FACTO_ERROR_DIMENSION,
                                  format!("{} values for a {} x {} array", data.len(), rows, cols)));
        }
        let c_name = c_string(name)?;
        check(unsafe { sys::facto_model_set_array(self.raw.as_ptr(), c_name.as_ptr(), data.as_ptr(), rows as i64,
                                                  cols as i64) }, || self.message())?;
        Ok(())
    }

    /// Writes the model as a directory of .npy arrays and model.json (with `settings`, a JSON object),
    /// replacing only a facto model's own files there (a user's file of the same name is an error).
    pub fn save(&self, directory: &str, settings: Option<&str>) -> Result<()> {
        let path = c_string(directory)?;
        let settings = settings.map(c_string).transpose()?;
        check(unsafe {
            sys::facto_model_save(self.raw.as_ptr(), path.as_ptr(), settings.as_ref().map_or(ptr::null(), |s| s.as_ptr()))
        }, || self.message())?;
        Ok(())
    }

    /// The Gaussian feature rule: apply then takes features, their affinities built as facto's
    /// [`gaussian_affinity`] built the fitted points' from `x`.
    pub fn use_gaussian_affinity(&mut self, x: MatrixRef<'_>, bandwidth: Option<f64>, scaling: Scaling) -> Result<()> {
        let bandwidth = bandwidth_code(bandwidth)?;
        check(unsafe {
            sys::facto_model_use_gaussian_affinity(self.raw.as_ptr(), x.data.as_ptr(), x.rows as i64, x.cols as i64,
                                                   x.ld(), x.layout.raw(), bandwidth, scaling_code(scaling))
        }, || self.message())?;
        Ok(())
    }

    /// The kNN feature rule: new points, scaled as `x` was, join the fitted points' [`knn_similarity`] graph.
    pub fn use_knn_similarity(&mut self, x: MatrixRef<'_>, k: usize, kind: Similarity, scaling: Scaling) -> Result<()> {
        self.use_knn_similarity_search(x, k, kind, scaling, Search::Auto)
    }

    /// The same rule for a graph made by [`knn_similarity_search`]: new points' neighbours among the fitted
    /// ones are found by the same search.
    pub fn use_knn_similarity_search(&mut self, x: MatrixRef<'_>, k: usize, kind: Similarity, scaling: Scaling,
                                     search: Search) -> Result<()> {
        check(unsafe {
            sys::facto_model_use_knn_similarity_search(self.raw.as_ptr(), x.data.as_ptr(), x.rows as i64,
                                                       x.cols as i64, x.ld(), x.layout.raw(), k as i64,
                                                       similarity_code(kind), scaling_code(scaling),
                                                       search_code(search))
        }, || self.message())?;
        Ok(())
    }

    /// The same rule of a graph made by [`knn_similarity_sparse`] from sparse features (counts, TF-IDF):
    /// unscaled (the cosine graph's automatic scaling), the model keeps their non-zeros, never a dense copy,
    /// and new points, dense or sparse, are searched exactly among them.
    pub fn use_knn_similarity_sparse(&mut self, x: &CsrMatrix, k: usize, kind: Similarity, scaling: Scaling,
                                     search: Search) -> Result<()> {
        check(unsafe {
            sys::facto_model_use_knn_similarity_sparse(self.raw.as_ptr(), sys::FACTO_SPARSE_CSR, x.rows as i64,
                                                       x.cols as i64, x.values.len() as i64, x.indptr.as_ptr(),
                                                       x.indices.as_ptr(), x.values.as_ptr(), k as i64,
                                                       similarity_code(kind), scaling_code(scaling),
                                                       search_code(search))
        }, || self.message())?;
        Ok(())
    }

    /// NOMAD: new points take the nearest mean of the fitted points `x` under the model's labels.
    pub fn use_points(&mut self, x: MatrixRef<'_>) -> Result<()> {
        check(unsafe {
            sys::facto_model_use_points(self.raw.as_ptr(), x.data.as_ptr(), x.rows as i64, x.cols as i64, x.ld(),
                                        x.layout.raw())
        }, || self.message())?;
        Ok(())
    }

    /// The same of sparse fitted points (counts, TF-IDF): the model keeps the clusters' means, not the points.
    pub fn use_points_sparse(&mut self, x: &CsrMatrix) -> Result<()> {
        check(unsafe {
            sys::facto_model_use_points_sparse(self.raw.as_ptr(), sys::FACTO_SPARSE_CSR, x.rows as i64, x.cols as i64,
                                               x.values.len() as i64, x.indptr.as_ptr(), x.indices.as_ptr(),
                                               x.values.as_ptr())
        }, || self.message())?;
        Ok(())
    }

    fn applied(&self, points: usize) -> Result<(Matrix, Vec<i64>, Vec<f64>)> {
        let mut cols = 0i64;
        check(unsafe { sys::facto_model_apply_columns(self.raw.as_ptr(), &mut cols) }, || self.message())?;
        let rows = Matrix { data: vec![0.0; points * cols as usize], rows: points, cols: cols as usize,
                            layout: Layout::RowMajor };
        Ok((rows, vec![0; points], vec![0.0; points]))
    }

    /// New points, dense (self_dictionary: one point per column, as the problem's X).
    pub fn apply(&self, y: MatrixRef<'_>) -> Result<Applied> {
        let points = if self.kind() == "self_dictionary" { y.cols } else { y.rows };
        let (mut rows, mut labels, mut residuals) = self.applied(points)?;
        check(unsafe {
            sys::facto_model_apply(self.raw.as_ptr(), y.data.as_ptr(), y.rows as i64, y.cols as i64, y.ld(),
                                   y.layout.raw(), rows.data.as_mut_ptr(), rows.data.len() as i64, labels.as_mut_ptr(),
                                   residuals.as_mut_ptr())
        }, || self.message())?;
        Ok(Applied { rows, labels, residuals })
    }

    /// New points, sparse (their affinity rows, counts, edges or observed squared distances).
    pub fn apply_sparse(&self, y: &CsrMatrix) -> Result<Applied> {
        let (mut rows, mut labels, mut residuals) = self.applied(y.rows)?;
        check(unsafe {
            sys::facto_model_apply_sparse(self.raw.as_ptr(), sys::FACTO_SPARSE_CSR, y.rows as i64, y.cols as i64,
                                          y.values.len() as i64, y.indptr.as_ptr(), y.indices.as_ptr(),
                                          y.values.as_ptr(), rows.data.as_mut_ptr(), rows.data.len() as i64,
                                          labels.as_mut_ptr(), residuals.as_mut_ptr())
        }, || self.message())?;
        Ok(Applied { rows, labels, residuals })
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        unsafe { sys::facto_model_free(self.raw.as_ptr()) }
    }
}

/// The consensus of clusterings of the same `n` points (`labels`: one run after another, row-major;
/// negative labels share with nothing): the n x n consensus matrix, its cophenetic correlation and its
/// dispersion (facto_consensus).
pub fn consensus(labels: &[i64], n: usize) -> Result<(Matrix, f64, f64)> {
    let runs = if n == 0 { 0 } else { labels.len() / n };
    if runs * n != labels.len() {
        return Err(Error::new(sys::FACTO_ERROR_DIMENSION, format!("{} labels are not runs of {} points", labels.len(), n)));
    }
    let mut c = vec![0.0; n * n];
    let (mut cophenetic, mut dispersion) = (0.0, 0.0);
    check(unsafe {
        sys::facto_consensus(labels.as_ptr(), runs as i64, n as i64, c.as_mut_ptr(), &mut cophenetic, &mut dispersion)
    }, thread_message)?;
    Ok((Matrix { data: c, rows: n, cols: n, layout: Layout::RowMajor }, cophenetic, dispersion))
}
