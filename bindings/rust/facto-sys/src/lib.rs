//! Raw declarations of facto's C ABI, kept in step with `include/facto/facto.h` (version 0.3).
//! Every function is `unsafe`; the `facto` crate is the safe layer. See facto.h for the contract of
//! each call (ownership, errors, threads).
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_void};

pub type facto_status = i32;

pub const FACTO_VERSION_MAJOR: i32 = 0;

pub const FACTO_OK: facto_status = 0;
pub const FACTO_CONVERGED: facto_status = 1;
pub const FACTO_ITERATION_LIMIT: facto_status = 2;
pub const FACTO_TIME_LIMIT: facto_status = 3;
pub const FACTO_STOPPED_BY_CALLBACK: facto_status = 4;
pub const FACTO_STOPPED_BY_REQUEST: facto_status = 5;
pub const FACTO_STALLED: facto_status = 6;
pub const FACTO_ERROR_INVALID_ARGUMENT: facto_status = -1;
pub const FACTO_ERROR_NULL_POINTER: facto_status = -2;
pub const FACTO_ERROR_NOT_FINITE: facto_status = -3;
pub const FACTO_ERROR_DIMENSION: facto_status = -4;
pub const FACTO_ERROR_NOT_SYMMETRIC: facto_status = -5;
pub const FACTO_ERROR_UNKNOWN_PARAMETER: facto_status = -6;
pub const FACTO_ERROR_PARAMETER_TYPE: facto_status = -7;
pub const FACTO_ERROR_OUT_OF_RANGE: facto_status = -8;
pub const FACTO_ERROR_BUFFER_TOO_SMALL: facto_status = -9;
pub const FACTO_ERROR_UNSUPPORTED: facto_status = -10;
pub const FACTO_ERROR_BAD_STATE: facto_status = -11;
pub const FACTO_ERROR_OUT_OF_MEMORY: facto_status = -12;
pub const FACTO_ERROR_IO: facto_status = -13;
pub const FACTO_ERROR_PARSE: facto_status = -14;
pub const FACTO_ERROR_NUMERICAL: facto_status = -15;
pub const FACTO_ERROR_INFEASIBLE: facto_status = -16;
pub const FACTO_ERROR_INTERNAL: facto_status = -99;

pub const FACTO_SPARSE_CSR: i32 = 0;
pub const FACTO_SPARSE_CSC: i32 = 1;
pub const FACTO_SPARSE_COO: i32 = 2;
pub const FACTO_BANDWIDTH_MEDIAN_RULE: f64 = 0.0;
pub const FACTO_SIMILARITY_GAUSSIAN: i32 = 0;
pub const FACTO_SIMILARITY_COSINE: i32 = 1;
pub const FACTO_SIMILARITY_AUTO: i32 = 2;
pub const FACTO_SEARCH_EXACT: i32 = 0;
pub const FACTO_SEARCH_HNSW: i32 = 1;
pub const FACTO_SEARCH_AUTO: i32 = 2;
pub const FACTO_SEARCH_HNSW_FROM: i64 = 20000;
pub const FACTO_SEPARABLE_MIDPOINTS: i32 = 0;
pub const FACTO_SEPARABLE_DIRICHLET: i32 = 1;
pub const FACTO_MANIFOLD_TWO_RINGS: i32 = 0;
pub const FACTO_MANIFOLD_TREFOIL: i32 = 1;
pub const FACTO_MANIFOLD_TWO_MOONS: i32 = 2;
pub const FACTO_MANIFOLD_BLOBS: i32 = 3;
pub const FACTO_ROW_MAJOR: i32 = 0;
pub const FACTO_COL_MAJOR: i32 = 1;
pub const FACTO_PARAM_DOUBLE: i32 = 1;
pub const FACTO_PARAM_INT: i32 = 2;
pub const FACTO_PARAM_STRING: i32 = 3;
pub const FACTO_OUTPUT_DOUBLE: i32 = 1;
pub const FACTO_OUTPUT_INT64: i32 = 2;
pub const FACTO_SCALE_NONE: i32 = 0;
pub const FACTO_SCALE_MINMAX: i32 = 1;
pub const FACTO_SCALE_ZSCORE: i32 = 2;
pub const FACTO_SCALE_AUTO: i32 = 3;

#[repr(C)]
pub struct facto_problem {
    _private: [u8; 0],
}
#[repr(C)]
pub struct facto_solver {
    _private: [u8; 0],
}
#[repr(C)]
pub struct facto_matrix {
    _private: [u8; 0],
}
#[repr(C)]
pub struct facto_sparse {
    _private: [u8; 0],
}
#[repr(C)]
pub struct facto_model {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct facto_param_info {
    pub struct_size: u32,
    pub type_: i32,
    pub name: *const c_char,
    pub description: *const c_char,
    pub default_double: f64,
    pub lower_double: f64,
    pub upper_double: f64,
    pub default_int: i64,
    pub lower_int: i64,
    pub upper_int: i64,
    pub default_string: *const c_char,
    pub choices: *const c_char,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct facto_algorithm_info {
    pub struct_size: u32,
    pub is_default: i32,
    pub name: *const c_char,
    pub description: *const c_char,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct facto_progress {
    pub struct_size: u32,
    pub stop_reason: i32,
    pub iteration: i64,
    pub objective: f64,
    pub stationarity: f64,
    pub step_size: f64,
    pub relative_change: f64,
    pub elapsed_seconds: f64,
    pub feasibility: f64,
    /// since 0.4.0
    pub tolerance: f64,
}

pub type facto_callback =
    Option<unsafe extern "C" fn(*const facto_solver, *const facto_progress, *mut c_void) -> i32>;
pub type facto_destroy = Option<unsafe extern "C" fn(*mut c_void)>;

extern "C" {
    pub fn facto_version_number() -> i32;
    pub fn facto_version() -> *const c_char;
    pub fn facto_status_string(status: facto_status) -> *const c_char;
    pub fn facto_last_error() -> *const c_char;

    pub fn facto_problem_new_simplicial_symnmf(p: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, k: i64,
                                               out: *mut *mut facto_problem) -> facto_status;
    pub fn facto_problem_free(problem: *mut facto_problem);
    pub fn facto_problem_kind(problem: *const facto_problem) -> *const c_char;
    pub fn facto_problem_last_error(problem: *const facto_problem) -> *const c_char;
    pub fn facto_problem_iterate_shape(problem: *const facto_problem, rows: *mut i64, cols: *mut i64) -> facto_status;
    pub fn facto_problem_objective(problem: *const facto_problem, x: *const f64, rows: i64, cols: i64, ld: i64,
                                   layout: i32, value: *mut f64) -> facto_status;

    pub fn facto_problem_kind_count() -> i64;
    pub fn facto_problem_kind_name(index: i64) -> *const c_char;
    pub fn facto_algorithm_count(kind: *const c_char, count: *mut i64) -> facto_status;
    pub fn facto_algorithm_describe(kind: *const c_char, index: i64, info: *mut facto_algorithm_info)
        -> facto_status;
    pub fn facto_solver_new(problem: *mut facto_problem, algorithm: *const c_char,
                            out: *mut *mut facto_solver) -> facto_status;
    pub fn facto_solver_new_nomad_layer(previous: *const facto_solver, k: i64, out: *mut *mut facto_solver)
        -> facto_status;
    pub fn facto_solver_free(solver: *mut facto_solver);
    pub fn facto_solver_algorithm(solver: *const facto_solver) -> *const c_char;
    pub fn facto_solver_last_error(solver: *const facto_solver) -> *const c_char;
    pub fn facto_solver_param_count(solver: *const facto_solver, count: *mut i64) -> facto_status;
    pub fn facto_solver_param_info(solver: *const facto_solver, index: i64, info: *mut facto_param_info)
        -> facto_status;
    pub fn facto_problem_param_count(kind: *const c_char, count: *mut i64) -> facto_status;
    pub fn facto_problem_param_info(kind: *const c_char, index: i64, info: *mut facto_param_info) -> facto_status;
    pub fn facto_solver_set_double(solver: *mut facto_solver, name: *const c_char, value: f64) -> facto_status;
    pub fn facto_solver_set_int(solver: *mut facto_solver, name: *const c_char, value: i64) -> facto_status;
    pub fn facto_solver_set_string(solver: *mut facto_solver, name: *const c_char, value: *const c_char)
        -> facto_status;
    pub fn facto_solver_get_double(solver: *const facto_solver, name: *const c_char, value: *mut f64)
        -> facto_status;
    pub fn facto_solver_get_int(solver: *const facto_solver, name: *const c_char, value: *mut i64) -> facto_status;
    pub fn facto_solver_get_string(solver: *const facto_solver, name: *const c_char, value: *mut *const c_char)
        -> facto_status;
    pub fn facto_solver_reset_params(solver: *mut facto_solver) -> facto_status;
    pub fn facto_solver_set_iterate(solver: *mut facto_solver, x: *const f64, rows: i64, cols: i64, ld: i64,
                                    layout: i32) -> facto_status;
    pub fn facto_solver_step(solver: *mut facto_solver) -> facto_status;
    pub fn facto_solver_solve(solver: *mut facto_solver) -> facto_status;
    pub fn facto_solver_request_stop(solver: *mut facto_solver) -> facto_status;
    pub fn facto_solver_progress(solver: *const facto_solver, progress: *mut facto_progress) -> facto_status;
    pub fn facto_solver_set_callback(solver: *mut facto_solver, callback: facto_callback, user_data: *mut c_void,
                                     destroy: facto_destroy) -> facto_status;
    pub fn facto_solver_iterate_shape(solver: *const facto_solver, rows: *mut i64, cols: *mut i64) -> facto_status;
    pub fn facto_solver_copy_iterate(solver: *const facto_solver, out: *mut f64, capacity: i64, layout: i32)
        -> facto_status;
    pub fn facto_solver_output_count(solver: *const facto_solver, count: *mut i64) -> facto_status;
    pub fn facto_solver_output_name(solver: *const facto_solver, index: i64, name: *mut *const c_char)
        -> facto_status;
    pub fn facto_solver_output_shape(solver: *const facto_solver, name: *const c_char, type_: *mut i32,
                                     rows: *mut i64, cols: *mut i64) -> facto_status;
    pub fn facto_solver_copy_output_double(solver: *const facto_solver, name: *const c_char, out: *mut f64,
                                           capacity: i64, layout: i32) -> facto_status;
    pub fn facto_solver_copy_output_int64(solver: *const facto_solver, name: *const c_char, out: *mut i64,
                                          capacity: i64, layout: i32) -> facto_status;

    pub fn facto_matrix_read(path: *const c_char, out: *mut *mut facto_matrix) -> facto_status;
    pub fn facto_matrix_new(data: *const f64, rows: i64, cols: i64, ld: i64, layout: i32,
                            out: *mut *mut facto_matrix) -> facto_status;
    pub fn facto_matrix_free(matrix: *mut facto_matrix);
    pub fn facto_matrix_shape(matrix: *const facto_matrix, rows: *mut i64, cols: *mut i64) -> facto_status;
    pub fn facto_matrix_data(matrix: *const facto_matrix) -> *const f64;
    pub fn facto_write_csv(path: *const c_char, data: *const f64, rows: i64, cols: i64, ld: i64, layout: i32)
        -> facto_status;
    pub fn facto_gaussian_affinity(x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, bandwidth: f64,
                                   scaling: i32, out: *mut *mut facto_matrix) -> facto_status;
    pub fn facto_clustering_accuracy(predicted: *const i64, truth: *const i64, n: i64, accuracy: *mut f64)
        -> facto_status;

    pub fn facto_problem_new_symnmf(m: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, r: i64,
                                    out: *mut *mut facto_problem) -> facto_status;
    pub fn facto_problem_new_symnmf_sparse(format: i32, rows: i64, cols: i64, nnz: i64, ptr: *const i64,
                                           idx: *const i64, values: *const f64, r: i64,
                                           out: *mut *mut facto_problem) -> facto_status;
    pub fn facto_problem_new_edm_completion(n: i64, r: i64, count: i64, i: *const i64, j: *const i64, d: *const f64,
                                            out: *mut *mut facto_problem) -> facto_status;
    pub fn facto_sparse_read(path: *const c_char, out: *mut *mut facto_sparse) -> facto_status;
    pub fn facto_sparse_free(matrix: *mut facto_sparse);
    pub fn facto_sparse_shape(matrix: *const facto_sparse, rows: *mut i64, cols: *mut i64, nnz: *mut i64)
        -> facto_status;
    pub fn facto_sparse_copy_csr(matrix: *const facto_sparse, indptr: *mut i64, indices: *mut i64, values: *mut f64)
        -> facto_status;
    pub fn facto_sparse_copy_coo(matrix: *const facto_sparse, row: *mut i64, col: *mut i64, values: *mut f64)
        -> facto_status;
    pub fn facto_knn_similarity(x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, k: i64, kind: i32,
                                out: *mut *mut facto_sparse) -> facto_status;
    pub fn facto_knn_similarity_scaled(x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, k: i64, kind: i32,
                                       scaling: i32, out: *mut *mut facto_sparse) -> facto_status;
    pub fn facto_knn_similarity_search(x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, k: i64, kind: i32,
                                       scaling: i32, search: i32, out: *mut *mut facto_sparse) -> facto_status;
    pub fn facto_knn_similarity_search_float(x: *const f32, rows: i64, cols: i64, ld: i64, layout: i32, k: i64,
                                             kind: i32, scaling: i32, search: i32, out: *mut *mut facto_sparse)
                                             -> facto_status;
    pub fn facto_knn_search_for(n: i64, search: i32) -> i32;
    pub fn facto_knn_similarity_sparse(format: i32, rows: i64, cols: i64, nnz: i64, ptr: *const i64, idx: *const i64,
                                       values: *const f64, k: i64, kind: i32, scaling: i32, search: i32,
                                       out: *mut *mut facto_sparse) -> facto_status;
    pub fn facto_helix_points(n: i64, seed: u64, out: *mut f64, capacity: i64) -> facto_status;
    pub fn facto_sample_pairs(x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, fraction: f64, seed: u64,
                              out: *mut *mut facto_sparse) -> facto_status;
    pub fn facto_distance_nrmse(x: *const f64, x_true: *const f64, n: i64, r: i64, layout: i32, max_pairs: i64,
                                seed: u64, nrmse: *mut f64) -> facto_status;

    pub fn facto_problem_new_self_dictionary_named(x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32,
                                                   k: i64, count: i64, param_names: *const *const c_char,
                                                   param_values: *const f64, out: *mut *mut facto_problem)
        -> facto_status;
    pub fn facto_problem_new_self_dictionary_sparse(format: i32, rows: i64, cols: i64, nnz: i64, ptr: *const i64,
                                                    idx: *const i64, values: *const f64, k: i64, count: i64,
                                                    param_names: *const *const c_char, param_values: *const f64,
                                                    out: *mut *mut facto_problem) -> facto_status;
    pub fn facto_separable_data(kind: i32, m: i64, n: i64, k: i64, snr_db: f64, seed: u64, x: *mut f64,
                                capacity: i64, layout: i32, anchors: *mut i64, anchors_capacity: i64)
        -> facto_status;

    pub fn facto_problem_new_topics_named(format: i32, rows: i64, cols: i64, nnz: i64, ptr: *const i64,
                                          idx: *const i64, values: *const f64, k: i64, count: i64,
                                          param_names: *const *const c_char, param_values: *const f64,
                                          out: *mut *mut facto_problem) -> facto_status;
    pub fn facto_problem_new_communities_named(format: i32, rows: i64, cols: i64, nnz: i64, ptr: *const i64,
                                               idx: *const i64, values: *const f64, k: i64, count: i64,
                                               param_names: *const *const c_char, param_values: *const f64,
                                               out: *mut *mut facto_problem) -> facto_status;
    pub fn facto_averaged_spearman(estimated: *const f64, truth: *const f64, n: i64, k: i64, layout: i32,
                                   src: *mut f64) -> facto_status;
    pub fn facto_kmeans(x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, k: i64, replicates: i32,
                        seed: u64, labels: *mut i64) -> facto_status;

    pub fn facto_problem_new_nomad(d: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, k: i64,
                                   out: *mut *mut facto_problem) -> facto_status;
    pub fn facto_problem_new_nomad_points(x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, k: i64,
                                          out: *mut *mut facto_problem) -> facto_status;
    pub fn facto_problem_new_nomad_points_float(x: *const f32, rows: i64, cols: i64, ld: i64, layout: i32, k: i64,
                                          out: *mut *mut facto_problem) -> facto_status;
    pub fn facto_problem_new_nomad_points_sparse(format: i32, rows: i64, cols: i64, nnz: i64, ptr: *const i64,
                                                 idx: *const i64, values: *const f64, k: i64,
                                                 out: *mut *mut facto_problem) -> facto_status;
    pub fn facto_problem_new_nomad_layer(previous: *const facto_solver, k: i64, out: *mut *mut facto_problem)
        -> facto_status;
    pub fn facto_nomad_gram(x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32, out: *mut *mut facto_matrix)
        -> facto_status;
    pub fn facto_manifold_points(kind: i32, n: i64, parameter: f64, noise: f64, seed: u64, x: *mut f64,
                                 capacity: i64, layout: i32, labels: *mut i64, labels_capacity: i64)
        -> facto_status;

    pub fn facto_solver_model(solver: *const facto_solver, out: *mut *mut facto_model) -> facto_status;
    pub fn facto_model_new(kind: *const c_char, out: *mut *mut facto_model) -> facto_status;
    pub fn facto_model_free(model: *mut facto_model);
    pub fn facto_model_kind(model: *const facto_model) -> *const c_char;
    pub fn facto_model_last_error(model: *const facto_model) -> *const c_char;
    pub fn facto_model_array_count(model: *const facto_model, count: *mut i64) -> facto_status;
    pub fn facto_model_array_name(model: *const facto_model, index: i64, name: *mut *const c_char) -> facto_status;
    pub fn facto_model_array_shape(model: *const facto_model, name: *const c_char, rows: *mut i64, cols: *mut i64)
        -> facto_status;
    pub fn facto_model_copy_array(model: *const facto_model, name: *const c_char, out: *mut f64, capacity: i64)
        -> facto_status;
    pub fn facto_model_set_array(model: *mut facto_model, name: *const c_char, data: *const f64, rows: i64, cols: i64)
        -> facto_status;
    pub fn facto_model_save(model: *const facto_model, directory: *const c_char, settings: *const c_char)
        -> facto_status;
    pub fn facto_model_load(directory: *const c_char, out: *mut *mut facto_model) -> facto_status;
    pub fn facto_model_settings(model: *const facto_model) -> *const c_char;
    pub fn facto_model_describe(model: *const facto_model, json: *mut *const c_char) -> facto_status;
    pub fn facto_model_drop_training_features(model: *mut facto_model) -> facto_status;
    pub fn facto_model_use_gaussian_affinity(model: *mut facto_model, x: *const f64, rows: i64, cols: i64, ld: i64,
                                             layout: i32, bandwidth: f64, scaling: i32) -> facto_status;
    pub fn facto_model_use_knn_similarity(model: *mut facto_model, x: *const f64, rows: i64, cols: i64, ld: i64,
                                          layout: i32, k: i64, kind: i32) -> facto_status;
    pub fn facto_model_use_knn_similarity_scaled(model: *mut facto_model, x: *const f64, rows: i64, cols: i64, ld: i64,
                                                 layout: i32, k: i64, kind: i32, scaling: i32) -> facto_status;
    pub fn facto_model_use_knn_similarity_search(model: *mut facto_model, x: *const f64, rows: i64, cols: i64, ld: i64,
                                                 layout: i32, k: i64, kind: i32, scaling: i32, search: i32)
        -> facto_status;
    pub fn facto_model_use_knn_similarity_sparse(model: *mut facto_model, format: i32, rows: i64, cols: i64, nnz: i64,
                                                 ptr: *const i64, idx: *const i64, values: *const f64, k: i64,
                                                 kind: i32, scaling: i32, search: i32) -> facto_status;
    pub fn facto_model_use_points(model: *mut facto_model, x: *const f64, rows: i64, cols: i64, ld: i64, layout: i32)
        -> facto_status;
    pub fn facto_model_use_points_sparse(model: *mut facto_model, format: i32, rows: i64, cols: i64, nnz: i64,
                                         ptr: *const i64, idx: *const i64, values: *const f64) -> facto_status;
    pub fn facto_model_use_gram(model: *mut facto_model, d: *const f64, rows: i64, cols: i64, ld: i64, layout: i32)
        -> facto_status;
    pub fn facto_model_apply_columns(model: *const facto_model, cols: *mut i64) -> facto_status;
    pub fn facto_model_apply(model: *const facto_model, y: *const f64, rows: i64, cols: i64, ld: i64, layout: i32,
                             out: *mut f64, capacity: i64, labels: *mut i64, residuals: *mut f64) -> facto_status;
    pub fn facto_model_apply_sparse(model: *const facto_model, format: i32, rows: i64, cols: i64, nnz: i64,
                                    ptr: *const i64, idx: *const i64, values: *const f64, out: *mut f64,
                                    capacity: i64, labels: *mut i64, residuals: *mut f64) -> facto_status;
    pub fn facto_consensus(labels: *const i64, runs: i64, n: i64, consensus: *mut f64, cophenetic: *mut f64,
                           dispersion: *mut f64) -> facto_status;
}
