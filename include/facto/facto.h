/*
 * facto.h -- the stable C ABI of facto, first-order solvers for structured low-rank matrix problems.
 *
 * This is the only header of facto with a stability promise. Everything is reached through two opaque
 * handles, a Problem (immutable data + mathematics) and a Solver (one algorithm bound to one problem,
 * owning the iterate), plus a Matrix handle for reading data files.
 * Which algorithms run on which problem, and each problem's default, is the library's registry
 * (facto_algorithm_describe), which every front end reads.
 *
 * facto has three tiers, each in its own folder of capi/:
 *   stable        this header: problems, solvers, parameters, results, data helpers and metrics.
 *                 Within a major version, calls and struct fields are only added, never changed
 *                 (checked against the last release by tests/abi/check.sh).
 *   experimental  facto_experimental.h, first part: the papers' data generators and measures (the
 *                 Helix, NOMAD's manifolds, separable data, sampled distances and their error).
 *   distributed   facto_experimental.h, second part: the host's collective operations and the
 *                 problems whose data is spread over processes; facto_mpi.h gives MPI's collectives
 *                 (libfacto_mpi). Their solvers and results are this header's.
 * The last two are exported by the same library and follow these conventions, without the promise.
 *
 * Conventions, which hold for every function below unless its comment says otherwise:
 *   - Fallible functions return facto_status: 0 is FACTO_OK, negative values are errors, positive
 *     values are information (why a solve stopped). Values are explicit and never renumbered.
 *   - After an error on a handle, facto_*_last_error(handle) gives a message naming the offending
 *     argument or parameter. Errors without a usable handle (creation, NULL handle, data helpers) set
 *     a thread-local message read by facto_last_error(). A failed call leaves handles usable and
 *     unchanged.
 *   - Sizes and indices are int64_t, values are double, enum-like arguments are int32_t.
 *   - Input values must be finite (NaN or Inf is NOT_FINITE) and at most 1e100 in magnitude (above is
 *     OUT_OF_RANGE: products of such values overflow); the message names the entry and its value.
 *   - Input arrays are copied; facto never keeps a pointer to caller memory after a call returns.
 *     Dense matrices are passed as (data, rows, cols, ld, layout): with FACTO_ROW_MAJOR element (i, j)
 *     is data[i * ld + j] and ld >= cols; with FACTO_COL_MAJOR it is data[i + j * ld] and ld >= rows.
 *   - Results are copied out into caller buffers of stated capacity (in elements, dense, no padding);
 *     a buffer that is too small is FACTO_ERROR_BUFFER_TOO_SMALL, never an overflow. facto never
 *     returns memory for the caller to free; returned strings are static or owned by the handle, as
 *     each function says.
 *   - Threads: distinct handles may be used from distinct threads at once (several solvers may share
 *     one problem). One handle must be used by one thread at a time, except facto_solver_request_stop,
 *     which any thread may call at any time.
 *   - Memory: before a large allocation facto estimates what it needs and fails with OUT_OF_MEMORY
 *     when that exceeds MemAvailable + SwapFree, or the environment variable FACTO_MEMORY_LIMIT_MB
 *     (a host process's budget for facto, in MiB) when it is set and smaller. A value that is not a
 *     positive number makes those calls fail with INVALID_ARGUMENT naming it.
 *   - Nothing is ever printed; nothing ever aborts or throws across this boundary.
 */
#ifndef FACTO_FACTO_H
#define FACTO_FACTO_H

#include <stdint.h>

#if defined(_WIN32)
#  define FACTO_API __declspec(dllexport)
#elif defined(__GNUC__)
#  define FACTO_API __attribute__((visibility("default")))
#else
#  define FACTO_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Versioning                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

#define FACTO_VERSION_MAJOR 0
#define FACTO_VERSION_MINOR 4
#define FACTO_VERSION_PATCH 0
/* FACTO_VERSION_NUMBER is MAJOR * 10000 + MINOR * 100 + PATCH. */
#define FACTO_VERSION_NUMBER (FACTO_VERSION_MAJOR * 10000 + FACTO_VERSION_MINOR * 100 + FACTO_VERSION_PATCH)

/* Version of the library actually loaded, as FACTO_VERSION_NUMBER. Bindings compare its major part
 * (value / 10000) with the header's FACTO_VERSION_MAJOR. Never fails. */
FACTO_API int32_t facto_version_number(void);
/* Version of the loaded library as a static string "MAJOR.MINOR.PATCH". Never fails. */
FACTO_API const char* facto_version(void);

/* ---------------------------------------------------------------------------------------------- */
/* Status codes                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

typedef int32_t facto_status;

#define FACTO_OK 0
/* Positive: success, and why iterating stopped (the same values are the facto_progress stop_reason). */
#define FACTO_CONVERGED 1                /* stationarity <= tolerance (and feasibility <= feasibility_tolerance) */
#define FACTO_ITERATION_LIMIT 2          /* max_iterations reached */
#define FACTO_TIME_LIMIT 3               /* time_limit seconds spent in the solver */
#define FACTO_STOPPED_BY_CALLBACK 4      /* the iteration callback returned nonzero */
#define FACTO_STOPPED_BY_REQUEST 5       /* facto_solver_request_stop was called */
#define FACTO_STALLED 6                  /* no progress is possible (no step accepted, or the objective stayed in
                                            the objective_tolerance band) while stationarity > tolerance: the
                                            iterate is NOT certified stationary */
/* Negative: errors. */
#define FACTO_ERROR_INVALID_ARGUMENT (-1) /* a malformed argument (bad layout, ld, negative size, ...) */
#define FACTO_ERROR_NULL_POINTER (-2)     /* a required pointer or handle is NULL */
#define FACTO_ERROR_NOT_FINITE (-3)       /* input data contain NaN or Inf */
#define FACTO_ERROR_DIMENSION (-4)        /* shapes do not fit (non-square matrix, rank out of range, ...) */
#define FACTO_ERROR_NOT_SYMMETRIC (-5)    /* a matrix that must be symmetric is not */
#define FACTO_ERROR_UNKNOWN_PARAMETER (-6) /* no parameter or output of that name */
#define FACTO_ERROR_PARAMETER_TYPE (-7)   /* parameter exists but has another type */
#define FACTO_ERROR_OUT_OF_RANGE (-8)     /* value outside the parameter's bounds or choices */
#define FACTO_ERROR_BUFFER_TOO_SMALL (-9) /* caller's output capacity is below the size needed */
#define FACTO_ERROR_UNSUPPORTED (-10)     /* no such solver for this problem, or unsupported file format */
#define FACTO_ERROR_BAD_STATE (-11)       /* call not allowed now (e.g. step inside its own callback) */
#define FACTO_ERROR_OUT_OF_MEMORY (-12) /* an allocation would exceed the memory available (see Memory above) */
#define FACTO_ERROR_IO (-13)              /* a file could not be opened, read or written */
#define FACTO_ERROR_PARSE (-14)           /* a file's contents are malformed */
#define FACTO_ERROR_NUMERICAL (-15)       /* the computation broke down (non-finite objective, ...) */
#define FACTO_ERROR_INFEASIBLE (-16)      /* a given iterate is outside the problem's feasible set */
#define FACTO_ERROR_INTERNAL (-99)        /* a bug in facto: please report it with the message */

/* Static name of a status ("FACTO_OK", "FACTO_ERROR_DIMENSION", ...); "unknown status" otherwise. */
FACTO_API const char* facto_status_string(facto_status status);

/* Message of the last failed call on this thread that had no usable handle (creation, NULL handle,
 * data helpers). Owned by the library, valid until the next facto call on this thread. Never NULL
 * ("" when there is none). */
FACTO_API const char* facto_last_error(void);

/* Layouts of dense matrices. */
#define FACTO_ROW_MAJOR 0 /* C, numpy default */
#define FACTO_COL_MAJOR 1 /* Fortran, Julia, R */

/* ---------------------------------------------------------------------------------------------- */
/* Problems                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

typedef struct facto_problem facto_problem;
typedef struct facto_solver facto_solver; /* see "Solvers" below */

/* Simplicial symmetric NMF (Zhao & Gordon):  min_W 1/4 ||P - W W^T||_F^2  s.t.  W >= 0, W 1 = 1,
 * W of shape n x k. P is n x n, symmetric (to a relative tolerance of 1e-10 of its largest entry) and
 * finite; it is copied (and symmetrized exactly). 1 <= k <= n.
 * Errors: NULL_POINTER (P or out), INVALID_ARGUMENT (layout, ld), DIMENSION (rows != cols, k out of
 * range), NOT_FINITE, OUT_OF_RANGE (an entry above 1e100), NOT_SYMMETRIC, OUT_OF_MEMORY. On error *out
 * is set to NULL. */
FACTO_API facto_status facto_problem_new_simplicial_symnmf(const double* P, int64_t rows, int64_t cols,
                                                           int64_t ld, int32_t layout, int64_t k,
                                                           facto_problem** out);

/* Symmetric NMF (Dragomir, d'Aspremont & Bolte):  min_X 1/2 ||M - X X^T||_F^2  s.t.  X >= 0, X of
 * shape n x r, for a dense symmetric M (copied, symmetrized exactly; same checks as above), 1 <= r <= n.
 * Errors: as facto_problem_new_simplicial_symnmf. */
FACTO_API facto_status facto_problem_new_symnmf(const double* M, int64_t rows, int64_t cols, int64_t ld,
                                                int32_t layout, int64_t r, facto_problem** out);

/* Sparse input formats. Indices are 0-based int64; entries may come in any order; duplicates are
 * summed; explicit zeros are kept as stored entries. */
#define FACTO_SPARSE_CSR 0 /* ptr: rows + 1 offsets (ptr[0] = 0, nondecreasing, ptr[rows] = nnz); idx: columns */
#define FACTO_SPARSE_CSC 1 /* ptr: cols + 1 offsets; idx: rows */
#define FACTO_SPARSE_COO 2 /* ptr: row of each entry; idx: column of each entry (nnz of each) */

/* Symmetric NMF with a sparse M (objective and gradient in O(nnz r + n r^2)). M is stored in full
 * (both triangles): every stored M_ij needs a stored M_ji within 1e-10 of the largest |M_ij|; entries
 * are used as given. For CSR/CSC, nnz must equal ptr[rows] (ptr[cols]). Arrays are copied.
 * Errors: NULL_POINTER, INVALID_ARGUMENT (format, negative sizes, an index out of range, ptr not
 * nondecreasing from 0, nnz inconsistent with ptr; the message names the entry), NOT_FINITE,
 * DIMENSION (not square, r out of range), NOT_SYMMETRIC, OUT_OF_MEMORY. */
FACTO_API facto_status facto_problem_new_symnmf_sparse(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                                       const int64_t* ptr, const int64_t* idx, const double* values,
                                                       int64_t r, facto_problem** out);

/* Euclidean distance matrix completion (Dragomir et al. Sec. 4.2):
 *     min_X 1/2 sum_k (||x_{i[k]} - x_{j[k]}||^2 - d[k])^2,   X of shape n x r, unconstrained,
 * over `count` observed pairs: 0-based indices i[k] != j[k] in [0, n), squared distances d[k] >= 0. A
 * pair listed twice counts twice. Arrays are copied (12 bytes per pair and endpoint). Solvers: "nolips"
 * (kernel "universal" or "gram") and "gradient_descent".
 * Errors: NULL_POINTER, DIMENSION (n < 2, n >= 2^32, r < 1), INVALID_ARGUMENT (count < 1, an index out
 * of range or i == j; the message names the pair), NOT_FINITE, OUT_OF_RANGE (d < 0 or above 1e100),
 * OUT_OF_MEMORY. On error *out is
 * set to NULL; on success the caller owns *out (facto_problem_free). */
FACTO_API facto_status facto_problem_new_edm_completion(int64_t n, int64_t r, int64_t count, const int64_t* i,
                                                        const int64_t* j, const double* d, facto_problem** out);

/* Self-dictionary separable NMF, SD-MMV (Nguyen, Fu & Wu, eq. 18):
 *     min_C 1/2 ||X - X C||_F^2 + lambda Phi_mu(C)  s.t.  C >= 0, 1^T C = 1^T,
 * Phi_mu(C) = sum_n mu log((1/N) sum_j exp(C(n, j) / mu)), for data X of shape M x N (rows x cols; one
 * point per column; copied, finite). The iterate C is N x N but solvers keep only its nonzeros: read the
 * outputs "selected" (int64 anchors, increasing), "H" (|selected| x N, simplex-constrained least squares
 * on X(:, selected)) and "nnz"; copying the dense iterate is refused (UNSUPPORTED) above 2^27 entries.
 * K: number of anchors, 0 when unknown (then "selected" is every row of C whose largest entry exceeds
 * 0.5); known, "selected" is the K rows of C with the largest entries (the paper's rule) unless more
 * than K rows have a nonzero and SPA on their points, each scaled by its row's largest entry, gives K
 * anchors that fit X better (at a small lambda the largest entries tie near 1 on the data's hull).
 * lambda >= 0, or negative for the paper's heuristic ||X - X C0||_F / K with C0 the SPA warm start
 * (needs K); lambda = 0 is MERIT(0). mu > 0 (the paper: 1e-5). With K given, SPA and the simplex least
 * squares run here once (the warm start). Solvers: "merit" (Frank-Wolfe, Alg. 1) and, needing K, the
 * baselines "spa", "snpa" (Gillis's successive nonnegative projection, Nguyen, Fu & Wu's "XRAY"), "fast_anchor"
 * (Arora et al.'s anchor words) and "fast_gradient" (Gillis & Luce's FGNSR: three dense N x N arrays).
 * Errors: NULL_POINTER, INVALID_ARGUMENT (layout, ld, lambda < 0 without K), DIMENSION (M < 1, N < 2,
 * K outside [0, N]), NOT_FINITE (X, mu or lambda), OUT_OF_RANGE (mu <= 0; mu, lambda or an entry above
 * 1e100), OUT_OF_MEMORY. On error *out is set to NULL;
 * on success the caller owns *out (facto_problem_free). */
FACTO_API facto_status facto_problem_new_self_dictionary(const double* X, int64_t rows, int64_t cols, int64_t ld,
                                                         int32_t layout, int64_t K, double lambda, double mu,
                                                         facto_problem** out);

/* Anchor-word topic modeling (Nguyen, Fu & Wu Sec. V-B): a self-dictionary problem (above) built from a
 * corpus, whose anchors are anchor words. counts is the D x V document-term count matrix (sparse, as
 * for facto_problem_new_symnmf_sparse; entries 0 or at least 1). Terms in fewer than min_df documents
 * (the paper: 2; 0, since 0.4.0: 1% of the D documents, at least 2, the registry's default) or in all of
 * them are dropped (N terms remain), the counts weighted by TF-IDF
 * (1 + ln c) ln(D / df), the word-word correlation P = F^T F / D (N x N, never formed) scaled to unit
 * column sums, and reduced to its leading `rank` singular directions (0: 2K); the problem's X is that
 * rank x N matrix. K >= 1 topics; lambda, mu as for facto_problem_new_self_dictionary (the paper's
 * 1e-6, 1e-5 are 5e-7, 1e-5 here: its authors' code minimizes twice facto's objective). The anchors'
 * topics (the paper's, from the word-word matrix) are then refined (since 0.4.0; the by-name form's
 * "refine", 1e-3 here): the documents' TF-IDF with raw counts, each row scaled to unit norm, is
 * factored as weights x topics by alternating HALS sweeps from the anchors' topics until a sweep gains
 * less than `refine` of the fit; refine = 0 keeps the paper's topics and TF-IDF. Outputs,
 * besides the self-dictionary ones ("selected" as vocabulary columns): "topics" (K x V, each row a
 * topic's word distribution, 0 on dropped terms), "top_terms" (int64, K x min(20, N), vocabulary
 * columns by decreasing weight), "document_topics" (D x K, rows summing to 1, or 0 for a
 * document without a kept term), "labels" (int64 D x 1, the largest proportion, -1 for such a
 * document), "coherence" and "similarity_count" (1 x 1, the paper's Table II scores over the top 20
 * terms, the coherence as its authors' code counts it, each pair of terms twice; the count is int64),
 * "umass_coherence" (1 x 1, Mimno et al.'s definition, each pair once: half of "coherence"). Solvers: those of self_dictionary ("fast_anchor" searches the word-word
 * matrix's normalized rows, not X). Memory O(nnz + N (rank + 60)).
 * Errors: as facto_problem_new_symnmf_sparse (no symmetry needed), OUT_OF_RANGE (a count in (0, 1),
 * min_df < 0), DIMENSION (D < 2; K, rank out of range; fewer than max(K, 2) terms kept), NUMERICAL
 * (the singular vectors did not converge). On error *out is set to NULL; on success the caller owns
 * *out (facto_problem_free). */
FACTO_API facto_status facto_problem_new_topics(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                                const int64_t* ptr, const int64_t* idx, const double* values,
                                                int64_t K, int64_t min_df, int64_t rank, double lambda, double mu,
                                                facto_problem** out);

/* Mixed-membership community detection (Nguyen, Fu & Wu Sec. V-C): a self-dictionary problem on the
 * top-K eigenvectors V (N x K, largest magnitude) of a symmetric adjacency matrix A (sparse, both
 * triangles stored as for facto_problem_new_symnmf_sparse), over the nodes whose squared row norms of V
 * are at least the n*-th largest, n* the fewest that carry `energy` of the total (the paper: 0.99; 1
 * keeps every node with a nonzero row). Its anchors are pure nodes. Outputs, besides the
 * self-dictionary ones ("selected" as node indices): "memberships" (N x K for every node: V
 * V(selected, :)^{-1}, entries below 1e-12 set to 0, rows scaled to sum 1), "labels" (int64 N x 1, the
 * largest membership) and "nodes" (int64 n* x 1, the nodes kept). Solvers: "merit", "spa" (with
 * energy = 1, SPA is SPOC of Mao, Sarkar & Chakrabarti), "snpa", "fast_gradient" and "geonmf" (Mao et
 * al.'s pure nodes; needs energy = 1 and K positive leading eigenvalues). 1 <= K < N; lambda, mu as for
 * facto_problem_new_self_dictionary (the paper's 1e-6, 1e-5 are 5e-7, 1e-5 here, as for topics).
 * Errors: as facto_problem_new_symnmf_sparse, OUT_OF_RANGE (energy outside (0, 1]), DIMENSION (fewer
 * than max(K, 2) nodes kept), NUMERICAL (eigenvectors did not converge; reading "memberships" or
 * "labels" when the pure nodes' rows of V are singular). On error *out is set to NULL; on success the
 * caller owns *out (facto_problem_free). */
FACTO_API facto_status facto_problem_new_communities(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                                     const int64_t* ptr, const int64_t* idx, const double* values,
                                                     int64_t K, double energy, double lambda, double mu,
                                                     facto_problem** out);

/* By-name forms of the three constructors above (since 0.4.0): the kind's named parameters
 * (facto_problem_param_info: "lambda", "mu"; topics also "min_df", "rank", "refine"; communities also "energy")
 * start at the library's defaults, and the `count` pairs param_names[i] = param_values[i] replace
 * some (an integer parameter takes an integral value; a name given twice keeps the last). Front ends
 * pass only what their user chose, so every default lives in the library. The arrays are only read;
 * with count = 0 they may be NULL. Errors: as the positional form's, and UNKNOWN_PARAMETER (a name the
 * kind does not have; the message lists them), PARAMETER_TYPE (a fractional value for an integer),
 * OUT_OF_RANGE (a value outside the parameter's bounds), INVALID_ARGUMENT (count < 0), NULL_POINTER.
 * On error *out is set to NULL; on success the caller owns *out (facto_problem_free). */
FACTO_API facto_status facto_problem_new_self_dictionary_named(const double* X, int64_t rows, int64_t cols,
                                                               int64_t ld, int32_t layout, int64_t K, int64_t count,
                                                               const char* const* param_names,
                                                               const double* param_values, facto_problem** out);
FACTO_API facto_status facto_problem_new_topics_named(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                                      const int64_t* ptr, const int64_t* idx, const double* values,
                                                      int64_t K, int64_t count, const char* const* param_names,
                                                      const double* param_values, facto_problem** out);
FACTO_API facto_status facto_problem_new_communities_named(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                                           const int64_t* ptr, const int64_t* idx,
                                                           const double* values, int64_t K, int64_t count,
                                                           const char* const* param_names,
                                                           const double* param_values, facto_problem** out);
/* The self-dictionary problem of a sparse X (since 0.4.0; rows x cols = M x N, one data point per column:
 * a TF-IDF matrix's documents or terms) in one of the sparse input formats, by name as
 * facto_problem_new_self_dictionary_named: its points are kept as their non-zeros, never made dense,
 * so "spa" and "snpa" (the default) run in memory linear in the non-zeros and K (M + N) ("fast_anchor"
 * adds its M x projection random matrix), with the dense problem's anchors, objective and outputs to
 * rounding (SPA's objective, its residual downdated, to eps ||X||_F^2); "merit" and "fast_gradient",
 * which form a dense M x N residual or N x N arrays, refuse it (UNSUPPORTED at facto_solver_new). The
 * arrays are only read. Errors: as facto_problem_new_symnmf_sparse's for the arrays (no symmetry
 * needed), as facto_problem_new_self_dictionary_named's for K and the parameters. On error *out is set to
 * NULL; on success the caller owns *out (facto_problem_free). */
FACTO_API facto_status facto_problem_new_self_dictionary_sparse(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                                                const int64_t* ptr, const int64_t* idx,
                                                                const double* values, int64_t K, int64_t count,
                                                                const char* const* param_names,
                                                                const double* param_values, facto_problem** out);

/* NOMAD, the nonnegative SDP relaxation of K-means (Tepper, Sengupta & Chklovskii):
 *     max_Q Tr(D Q)  s.t.  Q 1 = 1,  Tr Q = K,  Q psd,  Q >= 0,
 * for D n x n, symmetric (to 1e-10 of its largest entry; symmetrized exactly) and finite, typically the
 * Gram matrix of centered data (the paper divides the points by their largest norm first). D is
 * copied (kept as its upper triangle, n (n + 1) / 2 values). 1 <= K <= n. The iterate is Q (n x n);
 * the reported objective is Tr(D Q), to be maximized. Outputs: "Q", "embedding" (n x max(1, K - 1):
 * the K - 1 leading eigenvectors of Q - 1 1^T / n, the clusters' space, scaled by the square roots of
 * their eigenvalues; n x 2 before 0.3.0), "feasibility"
 * (1 x 4: RMS of Q's negative entries, the largest of them in absolute value, max_i |(Q 1)_i - 1|,
 * |Tr Q - K|) and "labels" (int64, n x 1: the hard assignment of the paper's Sec. 3, the connected
 * components of Q's graph with an edge wherever Q_ij > component_threshold K / n, a parameter of each
 * solver, default 0.05; numbered in the order of each component's smallest point). Solvers: "nomad_cgm" (conditional gradient augmented Lagrangian, Alg. 2; Q psd and the
 * equalities hold to rounding, Q >= 0 up to the method's tolerance) and "burer_monteiro" (Q = Y Y^T
 * with Y >= 0 n x r, by L-BFGS-B, Sec. 4: psd and nonnegative by construction, equalities to the
 * tolerance, a local solution; extra outputs "factor", Y, and "upper_bound", 1 x 1: an upper bound of
 * the optimum, the least of a clustering's certificate (the dual certificate of Iguchi, Mixon, Peterson
 * & Villar; its eigenvalue from a dense eigensolve up to n = 2000, O(n^2) memory, above that a Lanczos
 * estimate in O(n K) memory; equal to the objective when the clusters are well separated, loose on
 * manifolds) and, on points, the partition dual bound (weak duality for Q <= I and Q Z >= 0 over a
 * k-means partition Z into bound_parts parts, its multiplier by bound_iterations projected gradient
 * steps; O(n (r + K')) memory; the spectral bound of k-means at 0 steps)),
 * and "nomad_admm" (ADMM with a dense spectral projection, n up to a few thousand: Q psd and the
 * equalities to rounding, Q >= 0 to the tolerance, the SDP's optimum to a certified duality gap; output
 * "upper_bound", the Lagrangian dual bound at its multiplier, as nomad_cgm's (certified up to n = 2000);
 * it honours
 * facto_solver_set_iterate, e.g. burer_monteiro's Q, whose row sums and trace a start may miss by 1e-5
 * relative).
 * Errors: NULL_POINTER, INVALID_ARGUMENT (layout, ld), DIMENSION (not square, K out of range),
 * NOT_FINITE, NOT_SYMMETRIC, OUT_OF_MEMORY. On error *out is set to NULL; on success the caller owns
 * *out (facto_problem_free). */
FACTO_API facto_status facto_problem_new_nomad(const double* D, int64_t rows, int64_t cols, int64_t ld,
                                               int32_t layout, int64_t K, facto_problem** out);

/* NOMAD on n points, the rows of X (n x d, finite, not all 0; only read): D is the paper's Gram matrix
 * of them (as facto_nomad_gram: Y Y^T, Y = (X - the mean of the rows) / max_i ||x_i||), kept as Y
 * (n d values; a row-major X is read where it lies, not copied first) and never formed, so that memory
 * is linear in n (70,000 points of dimension 784: D would take 39 GB, Y 439 MB). The same problem, iterate, objective and outputs as
 * facto_problem_new_nomad on that D. "burer_monteiro" works through products with Y in O(n (d + r))
 * memory (its default start is then kernel k-means) and computes every output but "Q" from its factor
 * without an n x n matrix; "nomad_cgm" forms D's triangle when it starts, refused (OUT_OF_MEMORY) when
 * it does not fit. Points at least 90% zeros (counts, TF-IDF given densely; since 0.4.0) are kept as
 * their non-zeros, as facto_problem_new_nomad_points_sparse keeps them. 1 <= K <= n.
 * Errors: NULL_POINTER, INVALID_ARGUMENT (layout, ld; every point 0), DIMENSION (n or d < 1, K out of
 * range), NOT_FINITE, OUT_OF_MEMORY. On error *out is set to NULL; on success the caller owns *out
 * (facto_problem_free). */
FACTO_API facto_status facto_problem_new_nomad_points(const double* X, int64_t rows, int64_t cols, int64_t ld,
                                                      int32_t layout, int64_t K, facto_problem** out);

/* The same problem of points in single precision (since 0.4.0; images: facto_matrix_read_float), for
 * half the memory: X is copied as it is (4 bytes a value) and each product forms Y's rows from it in
 * double precision, block by block, as facto_problem_new_nomad_points forms them (the same D; its
 * products differ only in the order of their sums). 10^6 images of 784 pixels take 3.1 GB here instead
 * of 6.3; the caller may free X on return. Points at least 90% zeros are kept as their non-zeros alike.
 * Errors, ownership: as facto_problem_new_nomad_points'. */
FACTO_API facto_status facto_problem_new_nomad_points_float(const float* X, int64_t rows, int64_t cols, int64_t ld,
                                                            int32_t layout, int64_t K, facto_problem** out);

/* The same problem of sparse points (since 0.4.0): X (rows x cols: counts, TF-IDF) in one of the sparse
 * input formats, copied as CSR. Centring would fill every zero, so Y = (X - 1 mean^T) / max_i ||x_i|| is
 * kept implicitly: X's non-zeros twice (X and its transpose) and the mean, memory in the non-zeros,
 * "burer_monteiro"'s products in 4 nnz r; ||D||_F, which it takes once at its start, costs one pass
 * over D's rows (O(n^2) work, O(n) memory a row). D is facto_problem_new_nomad_points' D of X's dense
 * form up to rounding relative to the uncentred points' norms (the mean is subtracted after the
 * products); the partition dual bound of "upper_bound" is left out (it needs Y dense). The arrays are
 * only read; on success the caller owns *out (facto_problem_free), on error it is NULL. Errors: as
 * facto_problem_new_symnmf_sparse's for the arrays (no symmetry needed), as
 * facto_problem_new_nomad_points' for the points and K. */
FACTO_API facto_status facto_problem_new_nomad_points_sparse(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                                             const int64_t* ptr, const int64_t* idx,
                                                             const double* values, int64_t K, facto_problem** out);

/* The next layer's problem of multi-layer NOMAD (Sec. 3.1): a new "nomad" problem whose D is the current
 * iterate Q of `previous` (a solver of a nomad problem that has an iterate, not running on another
 * thread), with 1 <= K <= the previous problem's K. facto_solver_new_nomad_layer also gives it a solver
 * with the previous one's settings, which is how the layers are run. `previous` is only read and may be
 * freed afterwards.
 * Errors: NULL_POINTER, INVALID_ARGUMENT (previous is not a nomad solver), BAD_STATE (previous has no
 * iterate yet), OUT_OF_RANGE (K), OUT_OF_MEMORY. On error *out is set to NULL; on success the caller
 * owns *out (facto_problem_free). */
FACTO_API facto_status facto_problem_new_nomad_layer(const facto_solver* previous, int64_t K, facto_problem** out);

/* Release a problem. NULL is a no-op. Solvers created on it keep its data alive, so problems and
 * solvers may be freed in any order. Never calls user code; safe in a garbage collector's finalizer. */
FACTO_API void facto_problem_free(facto_problem* problem);

/* Static name of the problem kind ("simplicial_symnmf", "symnmf", "edm_completion", "self_dictionary",
 * "nomad", ...: facto_problem_kind_name lists them all); NULL for a NULL handle. */
FACTO_API const char* facto_problem_kind(const facto_problem* problem);

/* Message of the last failed call on this problem (owned by the handle, valid until the next call on
 * it); "" when none; the thread-local message for NULL. */
FACTO_API const char* facto_problem_last_error(const facto_problem* problem);

/* Shape of the problem's iterate (for simplicial_symnmf: n x k). Errors: NULL_POINTER. */
FACTO_API facto_status facto_problem_iterate_shape(const facto_problem* problem, int64_t* rows,
                                                   int64_t* cols);

/* Objective value of the problem at a given point X of the iterate's shape (copied in; it need not be
 * feasible). Errors: NULL_POINTER, INVALID_ARGUMENT, DIMENSION, NOT_FINITE, NUMERICAL (the value
 * overflows; *value is left unchanged). */
FACTO_API facto_status facto_problem_objective(const facto_problem* problem, const double* X, int64_t rows,
                                               int64_t cols, int64_t ld, int32_t layout,
                                               double* value);

/* ---------------------------------------------------------------------------------------------- */
/* Solvers                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* --- Algorithms: which exist for which problem kind, and each kind's default --------------------- */

/* Number of problem kinds that have algorithms, for facto_problem_kind_name. Never fails (0 only when
 * memory for a list of ten pointers runs out). */
FACTO_API int64_t facto_problem_kind_count(void);

/* Static name of problem kind `index` in [0, facto_problem_kind_count()) ("simplicial_symnmf",
 * "symnmf", ...: what facto_problem_kind returns), in the order front ends list them; NULL outside. */
FACTO_API const char* facto_problem_kind_name(int64_t index);

/* Description of one algorithm. The caller sets struct_size = sizeof(facto_algorithm_info) before the
 * call; the library fills the fields that fit and never writes past struct_size, so fields added at the
 * end in later versions keep older callers working. Strings are static. */
typedef struct facto_algorithm_info {
    uint32_t struct_size;
    int32_t is_default;         /* 1 for the kind's default (exactly one per kind, listed first), else 0 */
    const char* name;           /* what facto_solver_new takes */
    const char* description;    /* one line, citing papers by the keys of docs/references.md */
} facto_algorithm_info;

/* Number of algorithms for problem kind `kind` (a name facto_problem_kind returns).
 * Errors: NULL_POINTER, INVALID_ARGUMENT (no such kind; the message lists the kinds). */
FACTO_API facto_status facto_algorithm_count(const char* kind, int64_t* count);

/* Algorithm `index` in [0, count) of problem kind `kind`, its default first. Errors: NULL_POINTER,
 * INVALID_ARGUMENT (no such kind, or struct_size too small for the first fields), OUT_OF_RANGE. */
FACTO_API facto_status facto_algorithm_describe(const char* kind, int64_t index, facto_algorithm_info* info);

/* --- Creating a solver -------------------------------------------------------------------------- */

/* Create a solver running `algorithm` on `problem`: one of the algorithms facto_algorithm_describe
 * lists for facto_problem_kind(problem) (docs/algorithms.md prints the table), or "auto", the kind's
 * default (since 0.4.0; facto_solver_algorithm then names it, except for nomad's rule "auto").
 * The solver holds a reference on the problem. Its parameters start at their defaults; its iterate is
 * drawn from the `seed` parameter by the first step or solve, unless facto_solver_set_iterate gives one.
 * Errors: NULL_POINTER, UNSUPPORTED (no such algorithm for this problem kind; the message lists those
 * that exist), OUT_OF_MEMORY. */
FACTO_API facto_status facto_solver_new(facto_problem* problem, const char* algorithm, facto_solver** out);

/* The next layer of multi-layer NOMAD (Sec. 3.1): a new solver running previous's algorithm, with
 * previous's parameter values (not its callback or iterate), on facto_problem_new_nomad_layer(previous,
 * K). Multi-layer NOMAD of D for K_1 >= K_2 >= ... >= K_L is this loop, which the CLI (--layers) and
 * every binding's multilayer_nomad run:
 *     solver = a solver on facto_problem_new_nomad(D, K_1) (or _points), parameters set; solve it;
 *     for l = 2..L: next = facto_solver_new_nomad_layer(solver, K_l); free solver; solver = next; solve;
 * layer l's answer being the l-th solver's iterate Q. Errors: as facto_problem_new_nomad_layer's.
 * On error *out is set to NULL; on success the caller owns *out (facto_solver_free). */
FACTO_API facto_status facto_solver_new_nomad_layer(const facto_solver* previous, int64_t K, facto_solver** out);

/* Release a solver; NULL is a no-op. Runs the callback's destroy function, if any; never calls the
 * callback itself. Must not be called from inside the solver's own callback. */
FACTO_API void facto_solver_free(facto_solver* solver);

/* Static name of the solver's algorithm ("frank_wolfe", ...); NULL for a NULL handle. */
FACTO_API const char* facto_solver_algorithm(const facto_solver* solver);

/* Message of the last failed call on this solver, as for problems. */
FACTO_API const char* facto_solver_last_error(const facto_solver* solver);

/* --- Parameters (settings are separate from state; see facto_param_info for the table) ---------- */

#define FACTO_PARAM_DOUBLE 1
#define FACTO_PARAM_INT 2
#define FACTO_PARAM_STRING 3 /* one of a fixed set of choices */

/* Description of one parameter. The caller sets struct_size = sizeof(facto_param_info) before the
 * call; the library fills only the fields that fit, so the struct can grow at its end. All strings
 * are static (valid for the life of the process). */
typedef struct facto_param_info {
    uint32_t struct_size;
    int32_t type;               /* FACTO_PARAM_* */
    const char* name;
    const char* description;    /* one line, with the unit or meaning of special values */
    double default_double;      /* defaults and bounds: the *_double ones for DOUBLE, *_int for INT */
    double lower_double;
    double upper_double;        /* may be +Inf */
    int64_t default_int;
    int64_t lower_int;
    int64_t upper_int;
    const char* default_string; /* STRING: the default choice */
    const char* choices;        /* STRING: the choices, separated by '|' */
} facto_param_info;

/* Number of parameters of this solver. Errors: NULL_POINTER. */
FACTO_API facto_status facto_solver_param_count(const facto_solver* solver, int64_t* count);
/* Describe parameter number `index` (0 <= index < count). Errors: NULL_POINTER, OUT_OF_RANGE,
 * INVALID_ARGUMENT (struct_size too small to hold even the first fields). */
FACTO_API facto_status facto_solver_param_info(const facto_solver* solver, int64_t index,
                                               facto_param_info* info);

/* Number of named parameters of problem kind `kind` (since 0.4.0): what its by-name constructor takes
 * beyond the data and the rank (0 for a kind without any). Errors: NULL_POINTER, INVALID_ARGUMENT (no
 * such kind). */
FACTO_API facto_status facto_problem_param_count(const char* kind, int64_t* count);

/* Named parameter `index` in [0, count) of problem kind `kind`: name, type, default, bounds and a line
 * saying why the default (static strings). Errors: NULL_POINTER,
 * INVALID_ARGUMENT (no such kind, struct_size too small), OUT_OF_RANGE. */
FACTO_API facto_status facto_problem_param_info(const char* kind, int64_t index, facto_param_info* info);

/* Set a parameter by name. A DOUBLE parameter also accepts set_int. Takes effect at the next step.
 * A value that conflicts with another parameter or with the problem is refused here, and the previous
 * value stays (frank_wolfe's step_rule open_loop or curvature is for variant vanilla: set the variant
 * first; nolips' kernel gram needs a problem without X >= 0; merit's warm_start spa needs K;
 * burer_monteiro's rank lies in [K, n]). Errors: NULL_POINTER, UNKNOWN_PARAMETER, PARAMETER_TYPE,
 * OUT_OF_RANGE (value outside the bounds, NaN, or a string not among the choices), INVALID_ARGUMENT or
 * UNSUPPORTED (a conflict; the message names both sides), BAD_STATE (inside the callback). The message
 * names the parameter and its bounds. */
FACTO_API facto_status facto_solver_set_double(facto_solver* solver, const char* name, double value);
FACTO_API facto_status facto_solver_set_int(facto_solver* solver, const char* name, int64_t value);
FACTO_API facto_status facto_solver_set_string(facto_solver* solver, const char* name, const char* value);

/* Read a parameter. get_string's string is owned by the solver and valid until that parameter is set
 * again, the parameters are reset or the solver is freed. Errors: NULL_POINTER, UNKNOWN_PARAMETER,
 * PARAMETER_TYPE (get_double on an INT parameter is allowed). */
FACTO_API facto_status facto_solver_get_double(const facto_solver* solver, const char* name, double* value);
FACTO_API facto_status facto_solver_get_int(const facto_solver* solver, const char* name, int64_t* value);
FACTO_API facto_status facto_solver_get_string(const facto_solver* solver, const char* name,
                                               const char** value);

/* Reset every parameter to its default. Errors: NULL_POINTER, BAD_STATE (inside the callback). */
FACTO_API facto_status facto_solver_reset_params(facto_solver* solver);

/* --- Iterating ---------------------------------------------------------------------------------- */

/* Start from the given point (copied in), discarding the solver's state and progress. For
 * simplicial_symnmf the point must be n x k, nonnegative, with rows summing to 1 within 1e-9 (rows
 * are then renormalized exactly). spa and nomad_cgm take no start (UNSUPPORTED: SPA starts from the
 * data, nomad_cgm's first step would replace it). Errors: NULL_POINTER, INVALID_ARGUMENT, DIMENSION,
 * NOT_FINITE, INFEASIBLE, UNSUPPORTED, BAD_STATE (inside the callback). */
FACTO_API facto_status facto_solver_set_iterate(facto_solver* solver, const double* X, int64_t rows,
                                                int64_t cols, int64_t ld, int32_t layout);

/* Perform exactly one iteration, then evaluate the stopping rules. Returns FACTO_OK when no rule
 * fired, else the positive reason (FACTO_CONVERGED, ...); stepping again after a stop is allowed and
 * performs another iteration. The callback runs on this thread after the iteration.
 * Errors: NULL_POINTER, BAD_STATE (called from inside the callback), NUMERICAL, OUT_OF_MEMORY. */
FACTO_API facto_status facto_solver_step(facto_solver* solver);

/* Step until a stopping rule fires and return its positive reason; returns at once if a rule already
 * holds (max_iterations reached, stationarity and feasibility within tolerance). FACTO_CONVERGED means
 * the solver's stationarity measure is at most its "tolerance" (and, where it has one, the constraint
 * violation at most "feasibility_tolerance"); FACTO_STALLED that no progress is possible short of that.
 * Errors as facto_solver_step. */
FACTO_API facto_status facto_solver_solve(facto_solver* solver);

/* Ask a running solve to stop after the current iteration (it then returns FACTO_STOPPED_BY_REQUEST).
 * nomad_cgm, burer_monteiro and nomad_admm, whose iteration is up to inner_iterations inner steps, end
 * the running iteration after its current inner step (as they do when time_limit runs out), and
 * burer_monteiro's start after its current k-means replicate or symmetric NMF sweep. Callable from any
 * thread, including signal handlers' helper threads and the iteration callback itself; atomic. The
 * request is consumed by the step that completes next (a request made inside the callback: by that same
 * step), which returns FACTO_STOPPED_BY_REQUEST unless it stopped for another reason, or by a
 * solve that returns at once (converged, or at max_iterations): a request never outlives the solve that
 * meets it. Errors: NULL_POINTER. */
FACTO_API facto_status facto_solver_request_stop(facto_solver* solver);

/* Progress of the solver. The caller sets struct_size = sizeof(facto_progress); the library fills the
 * fields that fit, so the struct only ever grows at its end. Before the first step, iteration is 0
 * and the values describe the initial point once it exists (NaN before). */
typedef struct facto_progress {
    uint32_t struct_size;
    int32_t stop_reason;     /* 0 while running, else the positive status that stopped the last solve/step */
    int64_t iteration;       /* iterations performed since the iterate was set */
    double objective;        /* objective at the current iterate */
    double stationarity;     /* the solver's stationarity measure, relative to the problem's scale (each solver's
                                parameter "tolerance" says how): what "tolerance" bounds */
    double step_size;        /* step size used by the last iteration (0: no step was accepted) */
    double relative_change;  /* |f_prev - f| / max(|f_prev|, tiny) of the last iteration */
    double elapsed_seconds;  /* wall time spent inside step/solve since the iterate was set */
    /* since 0.2.0: */
    double feasibility;      /* violation of the constraints the iterates need not satisfy (nomad_cgm,
                                burer_monteiro; what "feasibility_tolerance" bounds), else 0 */
    /* since 0.4.0: */
    double tolerance;        /* the bound on stationarity that CONVERGED used at the last iteration: the parameter
                                "tolerance", or its automatic value where the parameter is 0 (burer_monteiro) */
} facto_progress;

/* Copy the progress into *progress (see struct_size). Allowed inside the callback.
 * Errors: NULL_POINTER, INVALID_ARGUMENT (struct_size too small to hold even the first fields). */
FACTO_API facto_status facto_solver_progress(const facto_solver* solver, facto_progress* progress);

/* --- Callback ----------------------------------------------------------------------------------- */

/* Called on the thread that called step/solve, after every `callback_every`-th iteration (a solver
 * parameter, default 1). Return 0 to continue, nonzero to stop (FACTO_STOPPED_BY_CALLBACK). Inside
 * the callback only const getters may be called on this solver (progress, iterate, outputs,
 * parameters); step, solve, set_* return FACTO_ERROR_BAD_STATE. The callback must not throw or
 * longjmp through facto. */
typedef int32_t (*facto_callback)(const facto_solver* solver, const facto_progress* progress, void* user_data);
/* Optional destructor of user_data, run when the callback is replaced or the solver is freed. */
typedef void (*facto_destroy)(void* user_data);

/* Install (or with callback = NULL, remove) the iteration callback. The previous user_data's destroy
 * function, if any, runs first. Errors: NULL_POINTER (solver), BAD_STATE (inside the callback). */
FACTO_API facto_status facto_solver_set_callback(facto_solver* solver, facto_callback callback,
                                                 void* user_data, facto_destroy destroy);

/* --- Results ------------------------------------------------------------------------------------ */

/* Shape of the iterate. Errors: NULL_POINTER. */
FACTO_API facto_status facto_solver_iterate_shape(const facto_solver* solver, int64_t* rows, int64_t* cols);

/* Copy the current iterate into out (capacity in elements, dense in `layout`). Allowed inside the
 * callback. Errors: NULL_POINTER, INVALID_ARGUMENT, BUFFER_TOO_SMALL, BAD_STATE (no iterate yet:
 * nothing was stepped, solved or set). */
FACTO_API facto_status facto_solver_copy_iterate(const facto_solver* solver, double* out, int64_t capacity,
                                                 int32_t layout);

#define FACTO_OUTPUT_DOUBLE 1
#define FACTO_OUTPUT_INT64 2

/* Named outputs of a solver, derived from its iterate. simplicial_symnmf and symnmf solvers have
 * "labels" (int64, n x 1: index of the first largest entry of each row, the cluster of each point);
 * self_dictionary solvers have "selected", "H" and "nnz" (see facto_problem_new_self_dictionary; their
 * shapes follow the current iterate, and spa's are defined once it has picked K columns). The
 * Frank-Wolfe solvers (frank_wolfe, projected_gradient on simplicial_symnmf, merit) add "gaps" (1 x 3:
 * the Frank-Wolfe, away and pairwise gaps, absolute); penalty_method adds "penalties" (1 x 2: its
 * current coefficients alpha, beta); sym_anls has "Y" (n x r, the other factor); nomad solvers have "Q",
 * "embedding", "feasibility" and "labels" (the connected components of Q's graph); nomad_cgm and
 * nomad_admm add "upper_bound" (1 x 1: an upper bound of max Tr(D Q) from the Lagrangian dual at their
 * current multiplier, using Q <= I: the sum of the K - 1 largest eigenvalues of J (D - Gamma) J, from a
 * dense eigensolve up to n = 2000, a Krylov-Schur estimate above; nomad_cgm's stationarity uses a
 * cheaper Lanczos estimate while Q is infeasible), burer_monteiro "factor" (n x r, Q = Y Y^T, r the
 * columns in use: escapes add columns up to the parameter rank) and "upper_bound" (certificates in linear
 * memory, see above).
 * Number of outputs; errors: NULL_POINTER. */
FACTO_API facto_status facto_solver_output_count(const facto_solver* solver, int64_t* count);
/* Static name of output `index`; errors: NULL_POINTER, OUT_OF_RANGE. */
FACTO_API facto_status facto_solver_output_name(const facto_solver* solver, int64_t index, const char** name);
/* Element type (FACTO_OUTPUT_*) and shape of a named output. Errors: NULL_POINTER, UNKNOWN_PARAMETER. */
FACTO_API facto_status facto_solver_output_shape(const facto_solver* solver, const char* name, int32_t* type,
                                                 int64_t* rows, int64_t* cols);
/* Copy a named output of type DOUBLE / INT64. Errors: NULL_POINTER, UNKNOWN_PARAMETER, PARAMETER_TYPE
 * (wrong element type), INVALID_ARGUMENT, BUFFER_TOO_SMALL, BAD_STATE (no iterate yet). */
FACTO_API facto_status facto_solver_copy_output_double(const facto_solver* solver, const char* name,
                                                       double* out, int64_t capacity, int32_t layout);
FACTO_API facto_status facto_solver_copy_output_int64(const facto_solver* solver, const char* name,
                                                      int64_t* out, int64_t capacity, int32_t layout);

/* ---------------------------------------------------------------------------------------------- */
/* Models: a fit applied to new data                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* A fitted model holds what applying a solved problem to new points needs, as named arrays of doubles
 * (row-major; integers such as labels held exactly), and nothing else: it outlives its problem and
 * solver, is saved as its arrays and rebuilt from them (facto_model_new, facto_model_set_array).
 * The arrays of each kind, and what facto_model_apply takes (q new points):
 *   simplicial_symnmf  "W" (n x k)          affinities to the n fitted points, q x n
 *   symnmf             "H" (n x r)          similarities to the n fitted points, q x n (dense or sparse)
 *   edm_completion     "X" (n x r)          squared distances to the n points, q x n (sparse: the observed)
 *   self_dictionary    "W" (M x K anchors)  new data points as columns, M x q
 *   topics             "topics" (K x V), "idf" (1 x V, 0 on pruned terms)   counts, q x V
 *   communities        "extension" (N x K: V / eigenvalues), "pure" (K x K: V's pure rows)
 *                                          edges to the N fitted nodes, q x N (dense or sparse)
 *   nomad              "labels" (n x 1), "embedding" (n x e), "center_labels" (c x 1) and "within"
 *                      (c x 1): new rows of D, q x n; or "centers" (c x d): new points, q x d
 * With a feature rule (facto_model_use_gaussian_affinity / _use_knn_similarity, which add "rbf_*" or
 * "knn_*" arrays) the two SymNMF kinds take new points' features (q x p) instead. What each job does
 * with them is in docs/architecture.md, "Applying a fitted model to new points". */
typedef struct facto_model facto_model;

/* The model of a solver's current iterate (after facto_solver_solve or steps): a new handle in *out the
 * caller owns (facto_model_free); the solver is not changed. An iterate off the factor's feasible set (the
 * penalty method's, within its feasibility_tolerance) gives the nearest feasible factor: W's rows
 * projected onto the simplex, H clipped at 0. Errors: NULL_POINTER, BAD_STATE (no iterate yet; the model
 * would break its kind's contract), NOT_FINITE (a non-finite iterate), DIMENSION (nothing selected),
 * UNSUPPORTED (a distributed problem, a NOMAD layer), OUT_OF_MEMORY. On error *out is NULL. */
FACTO_API facto_status facto_solver_model(const facto_solver* solver, facto_model** out);

/* An empty model of a problem kind, to be filled by facto_model_set_array (a saved model reloaded).
 * Errors: NULL_POINTER, INVALID_ARGUMENT (a kind without models). On error *out is NULL. */
FACTO_API facto_status facto_model_new(const char* kind, facto_model** out);

/* Release a model; NULL is a no-op. */
FACTO_API void facto_model_free(facto_model* model);

/* The model's problem kind (valid while the model lives), NULL for NULL. */
FACTO_API const char* facto_model_kind(const facto_model* model);

/* Message of the last failed call on this model (empty after a success); for NULL, facto_last_error(). */
FACTO_API const char* facto_model_last_error(const facto_model* model);

/* The model's arrays: their number, the name of array `index` (in name order; valid until the model is
 * changed or freed), a named array's shape, and a copy of it (row-major, capacity in elements).
 * Errors: NULL_POINTER, OUT_OF_RANGE (index), UNKNOWN_PARAMETER (name), BUFFER_TOO_SMALL. */
FACTO_API facto_status facto_model_array_count(const facto_model* model, int64_t* count);
FACTO_API facto_status facto_model_array_name(const facto_model* model, int64_t index, const char** name);
FACTO_API facto_status facto_model_array_shape(const facto_model* model, const char* name, int64_t* rows,
                                               int64_t* cols);
FACTO_API facto_status facto_model_copy_array(const facto_model* model, const char* name, double* out,
                                              int64_t capacity);

/* Set (copy in) one array, row-major rows x cols. The kind's contract (the shapes above, and the values a
 * fit gives: docs/architecture.md, "Saved models: untrusted input") is checked on the whole model when it
 * is applied or saved, so a model may be filled in any order. Errors: NULL_POINTER, UNKNOWN_PARAMETER (a
 * name the kind has not; the message lists them), DIMENSION (rows or cols < 1), NOT_FINITE, OUT_OF_RANGE
 * (an entry above 1e100 in magnitude), OUT_OF_MEMORY. */
FACTO_API facto_status facto_model_set_array(facto_model* model, const char* name, const double* data, int64_t rows,
                                             int64_t cols);

/* Save the model as a directory (made if missing): one .npy per array (numpy.load reads them) and
 * model.json giving the format, the kind, the array names and `settings`, one JSON object the caller
 * chooses (how the model was fitted, for the record), written verbatim; NULL keeps the model's own (those
 * it was loaded with, else {}). Only a facto model's own files are replaced: each file is written new
 * and renamed into place (a symbolic link there is replaced, never written through), the previous
 * model's arrays this one has not are removed, and a file of the same name that is not the previous facto
 * model's (a user's X.npy, another program's model.json) is refused before anything is written.
 * Errors: NULL_POINTER, INVALID_ARGUMENT (settings not one JSON object), BAD_STATE (arrays missing or
 * breaking the kind's contract), IO (the directory, a file that is not the model's, a write). */
FACTO_API facto_status facto_model_save(const facto_model* model, const char* directory, const char* settings);

/* Load a model saved by facto_model_save into a new handle in *out (the caller's; facto_model_free). The
 * directory is untrusted input: only the array names of the model's kind are read (a name is never a
 * path), each file must be a regular file of the directory (a symbolic link, FIFO or directory is
 * refused), sizes are checked against the bytes the files hold, and the whole model is checked against
 * its kind's contract before the handle exists. Errors: NULL_POINTER, IO (no model.json or array file
 * there, a link, not a regular file), PARSE (not a facto model, an array listed twice, settings not an
 * object, a malformed .npy), UNSUPPORTED (a newer format, an .npy dtype), INVALID_ARGUMENT (a kind without
 * models), UNKNOWN_PARAMETER (an array the kind has not), DIMENSION (an empty array), NOT_FINITE,
 * OUT_OF_RANGE (an entry above 1e100), BAD_STATE (the kind's contract broken: the message names the array
 * and the rule), OUT_OF_MEMORY. Every message names the directory or the file. On error *out is NULL. */
FACTO_API facto_status facto_model_load(const char* directory, facto_model** out);

/* The settings saved with the model (a JSON object's text; "{}" for a model not loaded), valid while the
 * model lives; NULL for NULL. */
FACTO_API const char* facto_model_settings(const facto_model* model);

/* What the model holds, as one JSON object in *json (valid until the model is changed, described again or
 * freed; since 0.4.0): {"kind", "takes": what facto_model_apply takes, "columns": what it writes per
 * point (null while the model is incomplete or breaks its kind's contract), "training_features": whether
 * the model holds a copy of the training data, "arrays": [{"name", "rows", "cols", "holds": what it
 * holds, "training_features"}] in name order}. A feature rule keeps the fitted points' features
 * ("rbf_features", "knn_features": scaled, n x p; or "knn_csr_indices" and "knn_csr_data", sparse) to
 * place new points among them; no other array is the
 * data (NOMAD's "centers" are cluster means). Errors: NULL_POINTER. */
FACTO_API facto_status facto_model_describe(const facto_model* model, const char** json);

/* Remove the model's feature rule (its "rbf_*" or "knn_*" arrays, the copy of the training data among
 * them; since 0.4.0), so that it can be shared without the data: it then applies to affinity rows, as a
 * model fitted on an affinity does. Nothing changes for a model without one. Errors: NULL_POINTER. */
FACTO_API facto_status facto_model_drop_training_features(facto_model* model);

/* Feature rules. The model then applies to new points' features: for simplicial_symnmf and symnmf models
 * fitted on the matrix that facto_gaussian_affinity or facto_knn_similarity made from X (n x p, the
 * same arguments), their affinities to the fitted points are built the same way (the fitted column
 * scaling and bandwidth, the median rule's value as resolved on X; or each new point's k nearest fitted points with the fitted points' self-tuned
 * scales and degrees, the graph itself unchanged). The kNN rule recomputes the fitted graph's scales:
 * it costs what facto_knn_similarity does. For nomad models, X (n x d) are the fitted points and new
 * points take the nearest mean of the fitted points under the model's "labels"; with _use_gram, D
 * (n x n, symmetric: the fit's D) gives each cluster's "within" for new rows of D, as facto_solver_model
 * does with the solved problem's D (for labels set since). X and D are copied; a rule replaces the other. Errors: NULL_POINTER, INVALID_ARGUMENT (layout, kind, another model kind),
 * DIMENSION (X not of the fitted points), OUT_OF_RANGE (bandwidth, k), NOT_FINITE, NOT_SYMMETRIC,
 * BAD_STATE (the factor, or NOMAD's labels and embedding, not set yet), OUT_OF_MEMORY. */
FACTO_API facto_status facto_model_use_gaussian_affinity(facto_model* model, const double* X, int64_t rows,
                                                         int64_t cols, int64_t ld, int32_t layout, double bandwidth,
                                                         int32_t scaling);
FACTO_API facto_status facto_model_use_knn_similarity(facto_model* model, const double* X, int64_t rows, int64_t cols,
                                                      int64_t ld, int32_t layout, int64_t k, int32_t kind);
/* The kNN rule of a graph made by facto_knn_similarity_scaled (the same X, k, kind and scaling; since
 * 0.4.0): new points are scaled by the fitted columns' statistics, kept in the model ("knn_scaling"),
 * before they join the graph; FACTO_SIMILARITY_AUTO resolves on X as the graph's did. facto_model_use_knn_similarity
 * is this with FACTO_SCALE_NONE. Errors: as
 * facto_model_use_knn_similarity's, and INVALID_ARGUMENT for an unknown scaling. */
FACTO_API facto_status facto_model_use_knn_similarity_scaled(facto_model* model, const double* X, int64_t rows,
                                                             int64_t cols, int64_t ld, int32_t layout, int64_t k,
                                                             int32_t kind, int32_t scaling);
/* The kNN rule of a graph made by facto_knn_similarity_search (the same X, k, kind, scaling and search;
 * since 0.4.0; X is copied into the model): new points' neighbours among the fitted ones are found by the
 * same search, resolved on X and kept in the model ("knn_settings"; a model saved without it searches
 * exactly). With HNSW each
 * apply builds the index on the fitted points again, as the graph's was (the same index), before it
 * searches. facto_model_use_knn_similarity_scaled is this with FACTO_SEARCH_AUTO. Errors: as
 * facto_model_use_knn_similarity_scaled's, and INVALID_ARGUMENT for an unknown search. */
FACTO_API facto_status facto_model_use_knn_similarity_search(facto_model* model, const double* X, int64_t rows,
                                                             int64_t cols, int64_t ld, int32_t layout, int64_t k,
                                                             int32_t kind, int32_t scaling, int32_t search);
/* The kNN rule of a graph made by facto_knn_similarity_sparse (the same sparse X, k, kind, scaling and
 * search; since 0.4.0). With the scaling FACTO_SCALE_NONE (AUTO's choice for the cosine graph, which text
 * takes) the model keeps X sparse ("knn_csr_indptr", "_indices", "_data", "_shape": scipy's CSR fields;
 * memory in its non-zeros) and new points, dense or sparse (facto_model_apply_sparse), are searched
 * exactly among the fitted ones; a scaling that fills the zeros keeps X densely, as
 * facto_model_use_knn_similarity_search would. The arrays are only read. Errors: as
 * facto_knn_similarity_sparse's for the arrays and the search (UNSUPPORTED: HNSW on sparse rows), as
 * facto_model_use_knn_similarity_search's for the model, INVALID_ARGUMENT (X kept sparse without a
 * stored entry). */
FACTO_API facto_status facto_model_use_knn_similarity_sparse(facto_model* model, int32_t format, int64_t rows,
                                                             int64_t cols, int64_t nnz, const int64_t* ptr,
                                                             const int64_t* idx, const double* values, int64_t k,
                                                             int32_t kind, int32_t scaling, int32_t search);
FACTO_API facto_status facto_model_use_points(facto_model* model, const double* X, int64_t rows, int64_t cols,
                                              int64_t ld, int32_t layout);
/* facto_model_use_points of sparse points (since 0.4.0; a fit on facto_problem_new_nomad_points_sparse):
 * X (rows x cols: counts, TF-IDF) in one of the sparse input formats, only read; the model keeps the
 * clusters' means (dense, one row per cluster: K cols values, not the points). New points may then be
 * dense or sparse (facto_model_apply_sparse). Errors: as facto_problem_new_nomad_points_sparse's for the
 * arrays, as facto_model_use_points' for the model. */
FACTO_API facto_status facto_model_use_points_sparse(facto_model* model, int32_t format, int64_t rows, int64_t cols,
                                                     int64_t nnz, const int64_t* ptr, const int64_t* idx,
                                                     const double* values);
FACTO_API facto_status facto_model_use_gram(facto_model* model, const double* D, int64_t rows, int64_t cols,
                                            int64_t ld, int32_t layout);

/* Columns of what facto_model_apply writes per new point: k, r or K (the new rows, proportions or
 * memberships), r (EDM positions), e (NOMAD's embedding). Errors: NULL_POINTER, BAD_STATE (arrays missing
 * or breaking the kind's contract: the message names them). */
FACTO_API facto_status facto_model_apply_columns(const facto_model* model, int64_t* cols);

/* Apply the model to q new points given densely (rows x cols in `layout`) or sparse (facto.h's sparse
 * input formats; unlisted entries 0, or unobserved for EDM distances): writes q rows of
 * facto_model_apply_columns values into out (row-major, capacity in elements); when labels is not NULL,
 * q labels: the largest entry's column (the fit's rule), NOMAD's cluster, or -1 where there is none
 * (EDM; a document with no term the model kept; a node with no edge to a fitted node); when residuals
 * is not NULL, q residuals: the squared error of the model's reconstruction of each point's input
 * (||a - B c||^2 of its affinity row, data column, TF-IDF row or Nystrom eigenvector row; the squared
 * distance to its cluster's mean for NOMAD, on rows of D up to the point's own D(x, x); the sum of
 * squared distance errors for EDM), the job's objective at the new point, lower is better explained.
 * Dense EDM distances count as all observed. The model is not changed.
 * Errors: NULL_POINTER, INVALID_ARGUMENT (layout, format), DIMENSION (new data of another width, the
 * message saying what it should be; an EDM point with fewer than r + 1 distances), NOT_FINITE,
 * OUT_OF_RANGE (a count in (0, 1), a negative distance), BAD_STATE (arrays missing or breaking the kind's
 * contract), NUMERICAL (a point's row or residual overflows: data near 1e100), BUFFER_TOO_SMALL,
 * OUT_OF_MEMORY. */
FACTO_API facto_status facto_model_apply(const facto_model* model, const double* Y, int64_t rows, int64_t cols,
                                         int64_t ld, int32_t layout, double* out, int64_t capacity, int64_t* labels,
                                         double* residuals);
FACTO_API facto_status facto_model_apply_sparse(const facto_model* model, int32_t format, int64_t rows, int64_t cols,
                                                int64_t nnz, const int64_t* ptr, const int64_t* idx,
                                                const double* values, double* out, int64_t capacity,
                                                int64_t* labels, double* residuals);

/* ---------------------------------------------------------------------------------------------- */
/* Data helpers                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

typedef struct facto_matrix facto_matrix;

/* Read a dense numeric matrix from a file: ".npy" (little-endian float64/float32/int64/int32/uint8, either
 * order) by its extension, otherwise CSV (comma, whitespace or semicolon separated; a first line that
 * is not numeric is taken as a header and skipped; every row must have the same number of fields).
 * Errors: NULL_POINTER, IO, PARSE (the message gives line and field), UNSUPPORTED (npy dtype),
 * NOT_FINITE, OUT_OF_MEMORY. */
FACTO_API facto_status facto_matrix_read(const char* path, facto_matrix** out);

/* The same file's values held in single precision, 4 bytes each (since 0.4.0): 10^6 images of 784
 * pixels in 3.1 GB instead of 6.3, for facto_knn_similarity_search_float. Only values that single
 * precision holds exactly are taken (float32 and uint8 .npy files, integers up to 2^24): any other is
 * refused, never rounded (UNSUPPORTED, naming the entry: read the file with facto_matrix_read). A .npy
 * file is converted as it is read, a CSV file read in double precision first. The matrix's values are
 * then at facto_matrix_data_float (facto_matrix_data gives NULL). Errors: as facto_matrix_read's. */
FACTO_API facto_status facto_matrix_read_float(const char* path, facto_matrix** out);

/* Create a matrix by copying caller data. Errors: NULL_POINTER, INVALID_ARGUMENT, OUT_OF_MEMORY. */
FACTO_API facto_status facto_matrix_new(const double* data, int64_t rows, int64_t cols, int64_t ld,
                                        int32_t layout, facto_matrix** out);

/* Release a matrix; NULL is a no-op. */
FACTO_API void facto_matrix_free(facto_matrix* matrix);

/* Shape; errors: NULL_POINTER. */
FACTO_API facto_status facto_matrix_shape(const facto_matrix* matrix, int64_t* rows, int64_t* cols);

/* Borrowed, read-only, row-major pointer to the matrix's rows*cols values, valid until the matrix is
 * freed. NULL for a NULL handle and for a matrix read by facto_matrix_read_float. */
FACTO_API const double* facto_matrix_data(const facto_matrix* matrix);

/* The same for a matrix read by facto_matrix_read_float (since 0.4.0); NULL for any other and for NULL. */
FACTO_API const float* facto_matrix_data_float(const facto_matrix* matrix);

/* Write a dense matrix as CSV (values with 17 significant digits, integers without decimals).
 * Errors: NULL_POINTER, INVALID_ARGUMENT, IO. */
FACTO_API facto_status facto_write_csv(const char* path, const double* data, int64_t rows, int64_t cols,
                                       int64_t ld, int32_t layout);

/* Feature scalings for facto_gaussian_affinity and facto_knn_similarity_scaled. */
#define FACTO_SCALE_NONE 0
#define FACTO_SCALE_MINMAX 1 /* each column mapped affinely onto [-1, 1] (constant columns to 0) */
#define FACTO_SCALE_ZSCORE 2 /* each column to mean 0, standard deviation 1 (constant columns to 0) */
#define FACTO_SCALE_AUTO 3   /* by the kernel (since 0.4.0): MINMAX for the Gaussian affinity and the Gaussian kNN
                                graph, NONE for the cosine graph (text), the front ends' default */

/* Gaussian-kernel affinity of the rows x_i of X (n x p):  P_ij = exp(-||x_i - x_j||^2 / bandwidth),
 * after scaling the columns of X as `scaling` says. Bandwidth FACTO_BANDWIDTH_MEDIAN_RULE (0, since
 * 0.4.0) takes a quarter of the median of ||x_i - x_j||^2 over the pairs (the front ends' default:
 * on scikit-learn's digits, wine, breast-cancer and satimage it was the only rule measured within 0.02
 * of k-means' accuracy on all four; docs/architecture.md). Zhao & Gordon use bandwidth 1 on features
 * scaled to [-1, 1]. Creates an n x n matrix with P_ii = 1. Errors: NULL_POINTER, INVALID_ARGUMENT
 * (layout, scaling), OUT_OF_RANGE (bandwidth < 0 or not finite), NOT_FINITE, OUT_OF_MEMORY. */
#define FACTO_BANDWIDTH_MEDIAN_RULE 0.0
FACTO_API facto_status facto_gaussian_affinity(const double* X, int64_t rows, int64_t cols, int64_t ld,
                                               int32_t layout, double bandwidth, int32_t scaling,
                                               facto_matrix** out);

/* Clustering accuracy: the largest fraction of points whose predicted label maps to their true label
 * under a one-to-one matching of labels (Hungarian algorithm). Labels are arbitrary int64 values.
 * Errors: NULL_POINTER, DIMENSION (n < 1). */
FACTO_API facto_status facto_clustering_accuracy(const int64_t* predicted, const int64_t* truth, int64_t n,
                                                 double* accuracy);

/* Averaged Spearman rank correlation (SRC, Nguyen, Fu & Wu Table IV) of estimated memberships against
 * true ones, both n x K dense (same layout, ld = K for row-major, n for column-major): the Spearman
 * correlation (average ranks for ties; 0 for a constant column) of every estimated community with
 * every true one, the matching that maximizes their sum (Hungarian), and the mean of the K matched
 * values, in [-1, 1]. Errors: NULL_POINTER, INVALID_ARGUMENT (layout), DIMENSION (n < 2, K < 1),
 * NOT_FINITE. */
FACTO_API facto_status facto_averaged_spearman(const double* estimated, const double* truth, int64_t n, int64_t K,
                                               int32_t layout, double* src);

/* k-means on the rows of X (n x d): Lloyd's iterations from k-means++ seeds, the best of `replicates`
 * runs (least within-cluster sum of squares), reproducible from seed. labels receives n values in
 * [0, K). Errors: NULL_POINTER, INVALID_ARGUMENT (layout, ld), DIMENSION (K outside [1, n]),
 * OUT_OF_RANGE (replicates < 1), NOT_FINITE. */
FACTO_API facto_status facto_kmeans(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                    int64_t K, int32_t replicates, uint64_t seed, int64_t* labels);

/* Choosing the number of clusters from restarts: the consensus matrix of `runs` clusterings of the same
 * n points (labels: runs x n, row-major; a negative label shares with nothing), C_ij the fraction of
 * runs in which i and j share a label, written to consensus (n x n, row-major) unless NULL; and its
 * stability scores, both 1 when every run agrees: the cophenetic correlation (Brunet et al. 2004:
 * Pearson's correlation of 1 - C_ij with the height at which the average-linkage tree of 1 - C joins i
 * and j) and the dispersion (Kim & Park 2007: (1 / n^2) sum_ij 4 (C_ij - 1/2)^2). O(n^2) time and
 * memory. Errors: NULL_POINTER (labels, cophenetic, dispersion), DIMENSION (runs < 1, n < 2),
 * OUT_OF_MEMORY. */
FACTO_API facto_status facto_consensus(const int64_t* labels, int64_t runs, int64_t n, double* consensus,
                                       double* cophenetic, double* dispersion);

/* Sparse matrices made by the data helpers below, in compressed sparse row form. Pass them to
 * facto_problem_new_symnmf_sparse (CSR) or facto_problem_new_edm_completion (COO) through the copy
 * functions. Every helper that makes one sets *out to a new handle the caller owns and releases with
 * facto_sparse_free, or to NULL on error; the handle is never modified afterwards. */
typedef struct facto_sparse facto_sparse;

/* Read a Matrix Market file: "coordinate" (real, integer or pattern; general or symmetric, whose
 * mirror entries are added) or "array" (real or integer, general). Duplicates are summed.
 * Errors: NULL_POINTER, IO, PARSE (names the entry), UNSUPPORTED (complex, hermitian, skew),
 * NOT_FINITE, OUT_OF_MEMORY. */
FACTO_API facto_status facto_sparse_read(const char* path, facto_sparse** out);

/* Release a sparse matrix; NULL is a no-op. */
FACTO_API void facto_sparse_free(facto_sparse* matrix);

/* Shape and number of stored entries. Errors: NULL_POINTER. */
FACTO_API facto_status facto_sparse_shape(const facto_sparse* matrix, int64_t* rows, int64_t* cols, int64_t* nnz);

/* Copy out as CSR into caller-owned arrays of rows + 1, nnz and nnz elements (columns increasing
 * within a row), or as COO (row, col, value; row-major order) into three caller-owned arrays of nnz
 * elements (facto_sparse_shape gives the sizes; with nnz = 0 only indptr is written). The matrix is
 * not changed. Errors: NULL_POINTER. */
FACTO_API facto_status facto_sparse_copy_csr(const facto_sparse* matrix, int64_t* indptr, int64_t* indices,
                                             double* values);
FACTO_API facto_status facto_sparse_copy_coo(const facto_sparse* matrix, int64_t* row, int64_t* col, double* values);

/* Similarities for facto_knn_similarity. */
#define FACTO_SIMILARITY_GAUSSIAN 0 /* exp(-||x_i - x_j||^2 / (s_i s_j)), s_i = distance to the 7th neighbour
                                      (the farthest when n <= 7) */
#define FACTO_SIMILARITY_COSINE 1   /* <x_i, x_j> / (||x_i|| ||x_j||), negative values clipped to 0 (text) */
#define FACTO_SIMILARITY_AUTO 2     /* since 0.4.0: the cosine when X is nonnegative with at least 90% of its
                                      entries 0 (counts, TF-IDF), the Gaussian otherwise; on 1000 Reuters
                                      TF-IDF documents SymNMF's accuracy is 0.50 on the cosine graph, 0.38 on
                                      the Gaussian (docs/benchmarks.md, the defaults panel) */

/* How the kNN graph finds each point's neighbours (since 0.4.0). */
#define FACTO_SEARCH_EXACT 0 /* every pair compared: O(n^2 p) in GEMMs on blocks of rows, memory O(n (k + 256)) */
#define FACTO_SEARCH_HNSW 1  /* an HNSW index (Malkov & Yashunin; hnswlib) built on the points in row order,
                               on one thread, from a fixed seed (the same X gives the same graph), searched on
                               all threads: O(n log n p), memory O(n p) in single precision; on Fashion-MNIST's
                               70,000 images 97% of the exact neighbours about 10x sooner (docs/benchmarks.md) */
#define FACTO_SEARCH_AUTO 2  /* exact below FACTO_SEARCH_HNSW_FROM points, HNSW from there: the functions
                               that take no search argument */
#define FACTO_SEARCH_HNSW_FROM 20000

/* The sparse similarity graph of Kuang, Yun & Park 2015, Sec. 7.1, for the rows of X (n x p): each
 * point keeps its k most similar others (k = 0: floor(log2 n) + 1, at most n - 1), the graph is symmetrized (union)
 * and normalized as S_ij / sqrt(d_i d_j), d the row sums. The result is symmetric with an empty
 * diagonal, ready for SymNMF. The neighbours are found by FACTO_SEARCH_AUTO (exact below 20,000 points;
 * before 0.4.0 always exact). Errors: NULL_POINTER, INVALID_ARGUMENT (layout, kind), DIMENSION (n < 2),
 * OUT_OF_RANGE (k >= n), NOT_FINITE, OUT_OF_MEMORY. */
FACTO_API facto_status facto_knn_similarity(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                            int64_t k, int32_t kind, facto_sparse** out);

/* The same graph of X's rows after scaling its columns as `scaling` says (FACTO_SCALE_*; since 0.4.0):
 * facto_knn_similarity is this with FACTO_SCALE_NONE, [KYP]'s graph. On features of unequal ranges the
 * Gaussian graph follows the widest column; min-max scaling (FACTO_SCALE_AUTO's choice for it) took
 * SymNMF's accuracy from 0.71 to 0.97 on wine and from 0.82 to 0.94 on breast-cancer
 * (docs/benchmarks.md, the defaults panel). Errors: as facto_knn_similarity's, and INVALID_ARGUMENT
 * for an unknown scaling. */
FACTO_API facto_status facto_knn_similarity_scaled(const double* X, int64_t rows, int64_t cols, int64_t ld,
                                                   int32_t layout, int64_t k, int32_t kind, int32_t scaling,
                                                   facto_sparse** out);
/* The same graph with its neighbours found by `search` (FACTO_SEARCH_*; since 0.4.0):
 * facto_knn_similarity_scaled is this with FACTO_SEARCH_AUTO. X is only read: row-major X where it
 * lies, scaled as it is read (no copy; the HNSW index holds its rows in single precision, 4 cols bytes
 * a row), column-major X copied once. *out is a new matrix the caller frees (facto_sparse_free), NULL
 * on error. Errors: as facto_knn_similarity_scaled's, and
 * INVALID_ARGUMENT for an unknown search. */
FACTO_API facto_status facto_knn_similarity_search(const double* X, int64_t rows, int64_t cols, int64_t ld,
                                                   int32_t layout, int64_t k, int32_t kind, int32_t scaling,
                                                   int32_t search, facto_sparse** out);
/* The same graph of features in single precision (since 0.4.0): what facto_knn_similarity_search
 * makes of the same values in double precision, exactly (each value is read as that double), for half
 * the memory of features that single precision holds (images). The exact search copies them as
 * doubles (its products are in double precision); the HNSW search does not. Errors: as
 * facto_knn_similarity_search's. */
FACTO_API facto_status facto_knn_similarity_search_float(const float* X, int64_t rows, int64_t cols, int64_t ld,
                                                         int32_t layout, int64_t k, int32_t kind, int32_t scaling,
                                                         int32_t search, facto_sparse** out);
/* The graph of sparse rows (since 0.4.0): X (rows x cols: counts, TF-IDF) in one of the sparse input
 * formats, copied as CSR; facto_knn_similarity_search's graph of X's dense form with the same k, kind,
 * scaling and search, resolved on X alike. With the scaling FACTO_SCALE_NONE (AUTO's choice for the
 * cosine graph, which text takes) the rows stay sparse: memory in their non-zeros plus O(rows) per
 * thread, the inner products accumulated over the columns of each row's non-zeros (an inverted index),
 * the same graph up to their rounding, the neighbours found exactly (search EXACT or AUTO; HNSW takes
 * dense rows: UNSUPPORTED). A scaling that fills the zeros (MINMAX, ZSCORE, AUTO for the Gaussian graph)
 * makes the rows dense first, as a caller would. AUTO searches sparse input exactly at any size. The
 * arrays are only read; *out is a new matrix the caller frees (facto_sparse_free), NULL on error.
 * Errors: as facto_problem_new_symnmf_sparse's for the arrays (no symmetry needed), as
 * facto_knn_similarity_search's, and UNSUPPORTED. */
FACTO_API facto_status facto_knn_similarity_sparse(int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                                   const int64_t* ptr, const int64_t* idx, const double* values,
                                                   int64_t k, int32_t kind, int32_t scaling, int32_t search,
                                                   facto_sparse** out);
/* The search FACTO_SEARCH_AUTO (or any other code) takes for n dense points: FACTO_SEARCH_EXACT or _HNSW,
 * what the graph of that many points runs (for a report; sparse input: AUTO is EXACT). No allocation, no
 * error state: -1 for an unknown code. */
FACTO_API int32_t facto_knn_search_for(int64_t n, int32_t search);

/* NOMAD's input (Tepper et al. Sec. 1): D = Y Y^T for the rows x_i of X (n x d), Y = (X - the mean of
 * the rows) / max_i ||x_i||: a new n x n matrix in *out, exactly symmetric, D 1 = 0, which the caller
 * owns (facto_matrix_free); X is only read.
 * Errors: NULL_POINTER, INVALID_ARGUMENT (layout, ld; every point 0), DIMENSION (n or d < 1),
 * NOT_FINITE, OUT_OF_MEMORY. On error *out is set to NULL. */
FACTO_API facto_status facto_nomad_gram(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                        facto_matrix** out);

#ifdef __cplusplus
}
#endif

#endif /* FACTO_FACTO_H */
