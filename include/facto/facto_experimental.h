/*
 * facto_experimental.h -- the experimental and distributed tiers of facto's C ABI.
 *
 * The functions here are exported by the same library as facto.h's and follow all of facto.h's
 * conventions, but carry no stability promise: they may change or go away in any minor release, and
 * the ABI check against the last release (tests/abi/check.sh) does not cover them. Two tiers share
 * this header:
 *   experimental  the data generators and measures of the papers' experiments (the Helix, NOMAD's
 *                 manifolds, separable data, sampled distances and their error), which the CLI, the
 *                 tests and the bindings' examples use to reproduce those experiments (capi/experimental/);
 *   distributed   the runtime of problems whose data is spread over processes: a handle on the host's
 *                 collective operations (MPI's come from facto_mpi.h) and the collective constructors
 *                 of the distributed SymNMF, NOMAD and self-dictionary problems, which facto.h's
 *                 solvers then run (capi/distributed/).
 * A program that needs only facto.h's promise does not include this file.
 */
#ifndef FACTO_FACTO_EXPERIMENTAL_H
#define FACTO_FACTO_EXPERIMENTAL_H

#include "facto.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Experimental: the papers' data generators and measures                                           */
/* ---------------------------------------------------------------------------------------------- */

/* The Helix of Dragomir et al. Sec. 4.2: n points x_i = (cos 3t, sin 3t, 2t), t uniform on [0, 2 pi]
 * from `seed`, written row-major into the caller's `out` (capacity >= 3 n values). Errors: NULL_POINTER, DIMENSION (n < 1),
 * BUFFER_TOO_SMALL. */
FACTO_API facto_status facto_helix_points(int64_t n, uint64_t seed, double* out, int64_t capacity);

/* The synthetic manifolds of Tepper et al., n points (rows of X, n x dim) and the manifold or blob of
 * each (labels), reproducible from seed:
 *   FACTO_MANIFOLD_TWO_RINGS  dim 2: n / 2 points evenly spaced on the unit circle (label 0), the rest
 *                             on the circle of radius `parameter` in (0, 1) (label 1) (Fig. 4: 0.5);
 *   FACTO_MANIFOLD_TREFOIL    dim 3: (sin t + 2 sin 2t, cos t - 2 cos 2t, -sin 3t), t = 2 pi i / n (Fig. 1);
 *   FACTO_MANIFOLD_TWO_MOONS  dim 2: n / 2 points on the upper unit semicircle (label 0), the rest on
 *                             the lower one shifted by (1, -1/2), evenly spaced in angle (Fig. 5);
 *   FACTO_MANIFOLD_BLOBS      dim 2: six Gaussian blobs of deviation `parameter` around (-10, -10),
 *                             (-10, 0), (0, -10), (10, 10), (10, 0), (0, 10), n split in that order.
 * Gaussian noise of deviation `noise` (>= 0) is added to the rings and the moons. X goes to `X`
 * (capacity >= n dim, in `layout`), the labels to `labels` (capacity >= n).
 * Errors: NULL_POINTER, INVALID_ARGUMENT (kind, layout, parameter or noise out of range),
 * DIMENSION (n < 2; n < 1 for the trefoil and blobs), BUFFER_TOO_SMALL, OUT_OF_MEMORY. */
#define FACTO_MANIFOLD_TWO_RINGS 0
#define FACTO_MANIFOLD_TREFOIL 1
#define FACTO_MANIFOLD_TWO_MOONS 2
#define FACTO_MANIFOLD_BLOBS 3
FACTO_API facto_status facto_manifold_points(int32_t kind, int64_t n, double parameter, double noise, uint64_t seed,
                                             double* X, int64_t capacity, int32_t layout, int64_t* labels,
                                             int64_t labels_capacity);

/* Separable data X = W H + V of Nguyen, Fu & Wu Sec. V-A, for facto_problem_new_self_dictionary:
 * W (M x K) uniform on (0, 1), H = [I_K, H2] with columns on the simplex, noise V at `snr_db`
 * (INFINITY = no noise), columns randomly permuted, all from `seed`. kind FACTO_SEPARABLE_MIDPOINTS
 * (Fig. 2): H2 = the K (K - 1) / 2 midpoints (e_i + e_j) / 2, so N must be K + K (K - 1) / 2, each moved
 * away from the mean w of W's columns, v_l = delta (W h_l - w) (the adversarial noise of Gillis & Luce's
 * setting), 10 log10(||W H||^2 / ||V||^2) = snr_db; FACTO_SEPARABLE_DIRICHLET (Fig. 4, Table I): N - K
 * uniform Dirichlet columns, Gaussian V on every entry, 10 log10(sum_l ||W h_l||^2 / (M N sigma^2)) =
 * snr_db. X (M x N, in `layout`) goes to `X` (capacity >= M N values),
 * the K anchor columns (increasing) to `anchors` (capacity >= K).
 * Errors: NULL_POINTER, INVALID_ARGUMENT (kind, layout, M < 1, K < 1, N < K, snr_db NaN or -inf),
 * DIMENSION (midpoints with the wrong N), BUFFER_TOO_SMALL, OUT_OF_MEMORY. */
#define FACTO_SEPARABLE_MIDPOINTS 0
#define FACTO_SEPARABLE_DIRICHLET 1
FACTO_API facto_status facto_separable_data(int32_t kind, int64_t M, int64_t N, int64_t K, double snr_db, uint64_t seed,
                                            double* X, int64_t capacity, int32_t layout, int64_t* anchors,
                                            int64_t anchors_capacity);

/* Observed pairs for EDM completion: each pair i < j of the rows of X (n x r) is kept independently
 * with probability `fraction` (from `seed`), with value d_ij = ||x_i - x_j||^2. The result is n x n,
 * upper triangular; copy it out as COO for facto_problem_new_edm_completion. Time O(kept pairs).
 * Errors: NULL_POINTER, INVALID_ARGUMENT (layout; fraction not in (0, 1]), NOT_FINITE, OUT_OF_MEMORY. */
FACTO_API facto_status facto_sample_pairs(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                          double fraction, uint64_t seed, facto_sparse** out);

/* Normalized RMSE between the distance matrices of X and X_true (both n x r, dense with the same
 * layout, leading dimension r for row-major and n for column-major) over all pairs i < j:
 * sqrt(sum (||x_i - x_j||^2 - ||t_i - t_j||^2)^2 / sum ||t_i - t_j||^4). Exact when n (n - 1) / 2 <=
 * max_pairs, otherwise estimated on max_pairs pairs drawn from `seed`. Invariant to rigid motions;
 * the inputs are only read.
 * Errors: NULL_POINTER, INVALID_ARGUMENT (layout, max_pairs < 1, all true distances 0), DIMENSION
 * (n < 2), NOT_FINITE. */
FACTO_API facto_status facto_distance_nrmse(const double* X, const double* X_true, int64_t n, int64_t r,
                                            int32_t layout, int64_t max_pairs, uint64_t seed, double* nrmse);

/* ---------------------------------------------------------------------------------------------- */
/* Distributed: collectives, and SymNMF on sparse M, NOMAD on points, self-dictionary (MERIT)        */
/* ---------------------------------------------------------------------------------------------- */

/* A distributed problem is built on every process of a group, each from its own block of the data, with
 * the group's collective operations, which the host provides (MPI's, or any other): facto.h needs no
 * MPI header. Every process then makes the same calls (solver, parameters, step or solve) in the same
 * order: each call that computes is collective. The calls on the problems and solvers built on one
 * facto_collectives come from one thread at a time (their collectives must not interleave). Every
 * process gets the same objective, stationarity and final stop reason; a callback, a time limit or a
 * stop request on any process stops every process at the same step (a callback sees its own process's
 * reason before that agreement), and an error in one process's data or arguments is returned on every
 * process. A failure inside a step (a failing operation, memory) is returned on that process only, and
 * the others wait in their next collective: end the job then (MPI_Abort; facto-mpi does).
 *
 * The operations, each returning 0 on success (anything else fails the facto call in progress with
 * FACTO_ERROR_IO on this process, its message ending with the one the operation gave to
 * facto_set_last_error, if any):
 *   sum:       values[k] = the sum over the processes of their values[k], k < count, on every process,
 *              identical to the last bit on all of them (the solvers decide from these sums: MPI_Allreduce
 *              with MPI_SUM as Open MPI and MPICH implement it qualifies);
 *   max:       values[k] = the largest of the processes' values[k], k < count, on every process;
 *   allgather: all = the processes' blocks in rank order, process p giving counts[p] doubles (mine is
 *              this process's), for `processes` processes;
 *   exchange:  all-to-all: this process sends send_counts[q] doubles to process q (the blocks of send
 *              in rank order) and receives receive_counts[q] from process q (the blocks of receive in
 *              rank order), for `processes` processes (MPI_Alltoallv); send or receive may be NULL
 *              when their counts are all 0. */
typedef int32_t (*facto_sum_fn)(void* user_data, double* values, int64_t count);
typedef int32_t (*facto_max_fn)(void* user_data, int64_t* values, int64_t count);
typedef int32_t (*facto_allgather_fn)(void* user_data, const double* mine, double* all, const int64_t* counts,
                                      int64_t processes);
typedef int32_t (*facto_exchange_fn)(void* user_data, const double* send, const int64_t* send_counts, double* receive,
                                     const int64_t* receive_counts, int64_t processes);

typedef struct facto_collectives facto_collectives;

/* Collective operations for this process, `rank` of `size` (0 <= rank < size). user_data is passed to
 * each operation; destroy (may be NULL) is called with it once the handle, every problem built on it
 * and their solvers are freed. On error destroy is not called and *out is NULL.
 * Errors: NULL_POINTER (out or an operation), INVALID_ARGUMENT (rank or size), OUT_OF_MEMORY. */
FACTO_API facto_status facto_collectives_new(int64_t rank, int64_t size, facto_sum_fn sum, facto_max_fn max,
                                             facto_allgather_fn allgather, facto_exchange_fn exchange, void* user_data,
                                             facto_destroy destroy, facto_collectives** out);

/* Release the handle (the problems built on it keep the operations alive); NULL is a no-op. */
FACTO_API void facto_collectives_free(facto_collectives* collectives);

/* Sets this thread's facto_last_error() message (NULL is "") and returns `status`: for libraries layered
 * on facto (libfacto_mpi), whose errors then read like facto's own, and for the host's operations above,
 * whose message joins the error of the facto call that their failure ends. */
FACTO_API facto_status facto_set_last_error(facto_status status, const char* message);

/* Collective: SymNMF (as facto_problem_new_symnmf_sparse) with M distributed by rows: this process
 * gives rows first_row .. first_row + rows - 1 of the n x n symmetric M (`format` FACTO_SPARSE_CSR or
 * _COO, rows x n, 0-based global column indices; ptr/idx/values as for facto_problem_new_symnmf_sparse,
 * non-NULL also for an empty block). Every process gives the same n and r; the blocks follow each other
 * in rank order from row 0 and cover all n rows (a process may give none). M's symmetry is checked by
 * one product with a fixed random vector u: ||M u - M^T u|| <= 1e-10 ||M||_F ||u|| (looser than the
 * entrywise check of facto_problem_new_symnmf_sparse; M is used as given). The problem's iterate is
 * this process's block of X (rows x r): facto_problem_objective (collective), facto_solver_copy_iterate
 * and facto_solver_set_iterate take the block, and the output "labels" is the block's. Solvers: "nolips"
 * (universal kernel), "projected_gradient". Each product exchanges the halo (the rows of X among this
 * process's columns that other processes hold, r values each, one all-to-all) and sums r^2 + 1 values.
 * libfacto_mpi (facto_mpi.h) gives an MPI communicator's collectives.
 * Errors (on every process, except NULL_POINTER for collectives or out, which only this process sees):
 * NULL_POINTER, INVALID_ARGUMENT, DIMENSION (the blocks, n or r differing between processes, r out of
 * range), NOT_FINITE, NOT_SYMMETRIC, OUT_OF_MEMORY, IO (a collective failed). */
FACTO_API facto_status facto_problem_new_symnmf_distributed(facto_collectives* collectives, int64_t n,
                                                            int64_t first_row, int32_t format, int64_t rows,
                                                            int64_t nnz, const int64_t* ptr, const int64_t* idx,
                                                            const double* values, int64_t r, facto_problem** out);

/* Collective: NOMAD on points (as facto_problem_new_nomad_points) distributed by rows: this process
 * gives points first_row .. first_row + rows - 1 of the n points, the rows of X (rows x d, `layout` and
 * `ld` as for facto_problem_new_nomad_points, non-NULL also for rows = 0), every process the same n, d
 * and K, the blocks following each other in rank order from point 0 and covering all n (a process may
 * give none). The features Y = (X - mean) / max ||x_i|| take the mean and largest norm over all the
 * processes' points; each process keeps its rows of Y. The iterate is this process's rows of Q
 * (rows x n; facto_solver_copy_iterate is collective and gathers the factor, n r values, on every
 * process); facto_problem_objective is collective; facto_solver_set_iterate is refused (UNSUPPORTED).
 * Solver: "burer_monteiro" only, with inner_method spg and the kmeans start (its defaults here); each
 * product sums r d values over the processes. Outputs: "factor" (this process's rows of Y),
 * "labels" (this process's points') and "feasibility" (all of Q's), each collective (labels and
 * feasibility gather the factor).
 * Errors (on every process, except NULL_POINTER for collectives or out): NULL_POINTER,
 * INVALID_ARGUMENT (layout, ld; every point 0), DIMENSION (the blocks, n, d or K differing between
 * processes, K out of range), NOT_FINITE, OUT_OF_MEMORY, IO (a collective failed). */
FACTO_API facto_status facto_problem_new_nomad_distributed(facto_collectives* collectives, int64_t n,
                                                           int64_t first_row, const double* X, int64_t rows,
                                                           int64_t d, int64_t ld, int32_t layout, int64_t K,
                                                           facto_problem** out);

/* Collective: the self-dictionary problem (as facto_problem_new_self_dictionary) with the data points
 * distributed: this process gives columns first_col .. first_col + cols - 1 of the M x N data X (rows x
 * cols = M x this block, `layout` and `ld` as there, non-NULL also for cols = 0), every process the
 * same M = rows, N, K, lambda and mu, the blocks following each other in rank order from column 0 and
 * covering all N. Every process then holds all of X (gathered once: the LMO's candidates are every
 * point) and the columns of C of its points: the iterate is N x cols (this process's columns of C;
 * facto_problem_objective is collective), the sweep's work and its residuals are the block's, and each
 * sweep reduces 3 N values (Phi's row statistics) and a few sums. SPA's warm start picks are process
 * 0's. Solver: "merit", every variant (those with lambda > 0 and away or pairwise steps choose their
 * common step by a golden section, which the order of the sums moves within sqrt(eps): the same quality
 * as one process, not the same bits). facto_solver_copy_iterate is this process's alone (its columns;
 * refused where they would be too large dense). Outputs: "selected" (all of C's), "H" (|selected| x
 * cols, this process's columns), "nnz" (all of C's), "gaps"; each collective, and with K = 0 (the
 * selection's size decided by all of C) so are facto_solver_output_count, _name and _shape.
 * Errors (on every process, except NULL_POINTER for collectives or out): as
 * facto_problem_new_self_dictionary, and DIMENSION (the blocks, M, N, K, lambda or mu differing between
 * processes), IO (a collective failed). */
FACTO_API facto_status facto_problem_new_self_dictionary_distributed(facto_collectives* collectives, int64_t N,
                                                                     int64_t first_col, const double* X, int64_t rows,
                                                                     int64_t cols, int64_t ld, int32_t layout,
                                                                     int64_t K, double lambda, double mu,
                                                                     facto_problem** out);

#ifdef __cplusplus
}
#endif

#endif /* FACTO_FACTO_EXPERIMENTAL_H */
