# R interface to facto. Problems and solvers are external pointers freed by finalizers (or at once by
# facto_free); matrices go in and out column-major, without transposes; facto's errors are R
# conditions of class "facto_error" carrying status and status_name.

STOP_REASONS <- c("running", "converged", "iteration_limit", "time_limit", "stopped_by_callback",
                  "stopped_by_request", "stalled")
SCALINGS <- c(none = 0L, minmax = 1L, zscore = 2L, auto = 3L)
SIMILARITIES <- c(gaussian = 0L, cosine = 1L, auto = 2L)  # FACTO_SIMILARITY_*
SEARCHES <- c(exact = 0L, hnsw = 1L, auto = 2L)  # FACTO_SEARCH_*
BANDWIDTH_MEDIAN_RULE <- 0  # FACTO_BANDWIDTH_MEDIAN_RULE

# The call the user made into the package: the outermost frame running one of its functions.
user_call <- function() {
  ns <- environment(user_call)
  for (i in seq_len(sys.nframe() - 1)) {
    env <- environment(sys.function(i))
    if (!is.null(env) && identical(topenv(env), ns)) return(sys.call(i))
  }
  NULL
}

facto_condition <- function(failure, call = user_call()) {
  structure(class = c(paste0("facto_", tolower(sub("^FACTO_ERROR_", "", failure$status_name))), "facto_error",
                      "error", "condition"),
            list(message = paste0(failure$message, " (", failure$status_name, ")"), call = call,
                 status = failure$status, status_name = failure$status_name))
}

# Returns x, or raises the facto_error (or the callback's condition) that it carries.
checked <- function(x) {
  if (inherits(x, "facto_failure")) stop(facto_condition(x))
  if (inherits(x, "condition")) stop(x)
  x
}

# An error of the user's call about an argument of theirs (not a facto_error: the library never saw it).
argument_error <- function(...) stop(simpleError(paste0(...), user_call()))

# x as a base double matrix: from a numeric matrix, a data frame of numbers or a dense Matrix object;
# `name` is the user's name for it, for the error.
numeric_matrix <- function(x, name = deparse(substitute(x))) {
  if (inherits(x, "sparseMatrix")) argument_error(name, " must be a dense matrix here, got a sparse ", class(x)[1])
  if (is.data.frame(x)) {
    bad <- names(x)[!vapply(x, function(column) is.numeric(column) || is.logical(column), NA)]
    if (length(bad)) argument_error(name, " has columns that are not numeric: ", paste(bad, collapse = ", "))
  }
  if (inherits(x, "Matrix") || is.data.frame(x)) x <- as.matrix(x)
  if (is.null(dim(x)) && (is.numeric(x) || is.logical(x)))
    argument_error(name, " must be a matrix (one point per row), got a vector of length ", length(x),
                   ": matrix(", name, ") makes it ", length(x), " points of one feature")
  if (!is.matrix(x) || !(is.numeric(x) || is.logical(x)))
    argument_error(name, " must be a numeric matrix, got ", paste(class(x), collapse = "/"))
  storage.mode(x) <- "double"
  x
}

# A count (rank, number of clusters, points): one finite whole number, as a double for the glue.
whole_number <- function(x, name = deparse(substitute(x))) {
  if (!is.numeric(x) || length(x) != 1 || !is.finite(x) || x != round(x))
    argument_error(name, " must be one whole number, got ", paste(format(x), collapse = " "))
  as.double(x)
}

# Called from C under R_ToplevelExec for every callback: never lets an R error escape.
run_callback <- function(f, progress) {
  tryCatch(list(stop = isTRUE(f(progress)), error = NULL),
           error = function(e) list(stop = TRUE, error = e))
}

# Simplicial symmetric NMF: min 1/4 ||P - W W^T||_F^2, W >= 0, rows of W summing to 1.
facto_simplicial_symnmf <- function(P, k) {
  P <- numeric_matrix(P)
  structure(class = "facto_problem", list(ptr = checked(.Call(C_facto_r_simplicial_symnmf, P, whole_number(k)))))
}

problem_of <- function(ptr) structure(class = "facto_problem", list(ptr = checked(ptr)))

# A sparse matrix as facto's helpers return it: 1-based triplets i, j, x of an n x ncol matrix (square
# unless ncol is given).
facto_sparse <- function(i, j, x, n, ncol = n)
  structure(class = "facto_sparse", list(i = i, j = j, x = x, n = n, ncol = ncol))

# The 1-based triplets of a numeric matrix, a sparse Matrix (symmetric ones expanded, duplicates summed) or a
# facto_sparse, as list(i, j, x, rows, cols).
as_triplets <- function(M, name = deparse(substitute(M))) {
  if (inherits(M, "facto_sparse")) return(list(i = M$i, j = M$j, x = as.double(M$x), rows = M$n, cols = M$ncol))
  if (inherits(M, "sparseMatrix")) {
    M <- as(as(as(M, "dMatrix"), "generalMatrix"), "CsparseMatrix")
    return(list(i = M@i + 1L, j = rep.int(seq_len(ncol(M)), diff(M@p)), x = M@x, rows = nrow(M), cols = ncol(M)))
  }
  M <- numeric_matrix(M, name)
  at <- which(M != 0 | is.na(M), arr.ind = TRUE)  # NA and NaN go to the library, which refuses them
  list(i = at[, 1], j = at[, 2], x = as.double(M[at]), rows = nrow(M), cols = ncol(M))
}

as.matrix.facto_sparse <- function(x, ...) {
  M <- matrix(0, x$n, x$ncol)
  M[cbind(x$i, x$j)] <- x$x
  M
}

# Symmetric NMF (Dragomir et al.): min 1/2 ||M - X X^T||_F^2, X >= 0, X n x r; M a symmetric numeric
# matrix, a sparse Matrix or a facto_sparse (both triangles stored).
facto_symnmf <- function(M, r) {
  if (inherits(M, c("facto_sparse", "sparseMatrix"))) {
    t <- as_triplets(M)
    if (t$rows != t$cols) argument_error("M must be square, got ", t$rows, " x ", t$cols)
    return(problem_of(.Call(C_facto_r_symnmf_sparse, as.double(t$i), as.double(t$j), t$x, as.double(t$rows),
                            whole_number(r))))
  }
  problem_of(.Call(C_facto_r_symnmf, numeric_matrix(M), whole_number(r)))
}

# EDM completion: min 1/2 sum_k (||x_i[k] - x_j[k]||^2 - d[k])^2 over X (n x r); 1-based pair indices.
facto_edm_completion <- function(n, r, i, j, d) {
  problem_of(.Call(C_facto_r_edm_completion, whole_number(n), whole_number(r), as.double(i), as.double(j), as.double(d)))
}

# The problem parameters a caller chose (NULL: the library's default, facto_problem_params(kind)) as
# the named numeric vector the by-name constructors take.
chosen_params <- function(...) {
  given <- Filter(Negate(is.null), list(...))
  for (name in names(given))
    if (!is.numeric(given[[name]]) || length(given[[name]]) != 1)
      argument_error(name, " must be one number or NULL (the library's default), got ", deparse(given[[name]]))
  vapply(given, as.double, 0.0)
}

# The named parameters of a problem kind (what its constructor takes beyond the data and the rank) as a
# data frame (name, type, default, range, description: why the default), from the library.
facto_problem_params <- function(kind) {
  cols <- checked(.Call(C_facto_r_problem_params, kind))
  data.frame(name = cols[[1]], type = cols[[2]], default = cols[[3]], range = cols[[4]], description = cols[[5]],
             stringsAsFactors = FALSE)
}

# Self-dictionary separable NMF (Nguyen, Fu & Wu): min 1/2 ||X - X C||_F^2 + lambda Phi_mu(C), columns
# of C on the simplex, for data X (M x N, one point per column). K anchors (0 = unknown); lambda and mu
# NULL take the library's defaults (facto_problem_params("self_dictionary"): lambda the paper's heuristic
# ||X - X C0||_F / K, which needs K); lambda = 0 is MERIT(0). Solvers "merit" and "spa"; read
# facto_selected(solver) and facto_output(solver, "H").
facto_self_dictionary <- function(X, K = 0, lambda = NULL, mu = NULL) {
  if (inherits(X, c("facto_sparse", "sparseMatrix"))) {  # kept sparse: spa, snpa, fast_anchor run on it
    t <- as_triplets(X)
    return(problem_of(.Call(C_facto_r_self_dictionary_sparse, as.double(t$i), as.double(t$j), t$x,
                            as.double(c(t$rows, t$cols)), whole_number(K), chosen_params(lambda = lambda, mu = mu))))
  }
  X <- numeric_matrix(X)
  problem_of(.Call(C_facto_r_self_dictionary, X, whole_number(K), chosen_params(lambda = lambda, mu = mu)))
}

# Anchor-word topic modeling (Nguyen, Fu & Wu Sec. V-B): a self-dictionary problem built from a documents x
# terms count matrix (numeric matrix or facto_sparse): terms in fewer than min_df documents (or in all)
# dropped, TF-IDF, the word-word correlation reduced to rank dimensions (0: 2K), the anchors' topics refined
# with the documents' weights until a sweep gains less than `refine` (0: the paper's topics); NULL takes the
# library's default (facto_problem_params("topics")). Solvers "merit", "spa", "snpa", "fast_anchor",
# "fast_gradient"; outputs "topics", "top_terms", "document_topics", "labels", "coherence",
# "similarity_count" (see topic_model for all at once).
facto_topics <- function(counts, K, min_df = NULL, rank = NULL, lambda = NULL, mu = NULL, refine = NULL) {
  t <- as_triplets(counts)
  problem_of(.Call(C_facto_r_topics, as.double(t$i), as.double(t$j), t$x, as.double(t$rows), as.double(t$cols),
                   whole_number(K), chosen_params(min_df = min_df, rank = rank, lambda = lambda, mu = mu,
                                                  refine = refine)))
}

# Mixed-membership community detection (Nguyen, Fu & Wu Sec. V-C): a self-dictionary problem on the top-K
# eigenvectors of a symmetric adjacency matrix (numeric matrix or facto_sparse, both triangles) over the
# nodes carrying `energy` of the energy; NULL takes the library's default (facto_problem_params("communities")).
# Solvers "merit", "spa" (SPOC with energy = 1), "snpa", "fast_gradient", "geonmf" (energy = 1); outputs
# "memberships", "labels", "nodes".
facto_communities <- function(A, K, energy = NULL, lambda = NULL, mu = NULL) {
  t <- as_triplets(A)
  problem_of(.Call(C_facto_r_communities, as.double(t$i), as.double(t$j), t$x, as.double(t$rows), whole_number(K),
                   chosen_params(energy = energy, lambda = lambda, mu = mu)))
}

# Averaged Spearman rank correlation (SRC) of estimated memberships against true ones (n x K matrices).
facto_spearman <- function(estimated, truth) {
  estimated <- numeric_matrix(estimated)
  truth <- numeric_matrix(truth)
  checked(.Call(C_facto_r_spearman, estimated, truth))
}

# k-means labels (1-based) of the rows of X: Lloyd from k-means++ seeds, the best of `replicates` runs.
facto_kmeans <- function(X, K, replicates = 10, seed = 0) {
  X <- numeric_matrix(X)
  checked(.Call(C_facto_r_kmeans, X, whole_number(K), as.integer(replicates), as.double(seed)))
}

# NOMAD (Tepper, Sengupta & Chklovskii): max Tr(D Q) s.t. Q 1 = 1, Tr Q = K, Q psd, Q >= 0, for a symmetric
# n x n D (facto_nomad_gram forms the paper's from points). Solvers "nomad_cgm" (conditional gradient) and
# "burer_monteiro" (Q = Y Y^T with Y >= 0 n x r, a local solution; extra output "factor"); the iterate is Q;
# outputs "embedding" (n x (K - 1)), "feasibility" (RMS and max of Q's negative part, row-sum and trace errors) and
# "labels" (the connected components of Q's graph, edges where Q_ij > component_threshold K / n).
facto_nomad <- function(D, K) {
  D <- numeric_matrix(D)
  problem_of(.Call(C_facto_r_nomad, D, whole_number(K)))
}

# NOMAD on the points X (n x d, rows): D is the paper's Gram matrix of them (as facto_nomad_gram), kept as
# their centered, scaled coordinates and never formed, so memory is linear in n. "burer_monteiro" works
# through products with them (its default start is then kernel k-means) and computes every output but "Q"
# from its factor; "nomad_cgm" forms D when it starts. A sparse Matrix (dgCMatrix) or facto_sparse X stays
# sparse: its centring left implicit, memory in its non-zeros.
facto_nomad_points <- function(X, K) {
  if (inherits(X, c("facto_sparse", "sparseMatrix"))) {
    t <- as_triplets(X)
    return(problem_of(.Call(C_facto_r_nomad_points_sparse, as.double(t$i), as.double(t$j), t$x,
                            as.double(c(t$rows, t$cols)), whole_number(K))))
  }
  X <- numeric_matrix(X)
  problem_of(.Call(C_facto_r_nomad_points, X, whole_number(K)))
}

# The next layer of multi-layer NOMAD (Sec. 3.1): NOMAD on D = the current Q of `solver` (a solver of a
# NOMAD problem that has an iterate) with K no larger than that problem's.
facto_nomad_layer <- function(solver, K) problem_of(.Call(C_facto_r_nomad_layer, solver$ptr, whole_number(K)))

# Multi-layer NOMAD's next layer: a solver of `solver`'s algorithm and settings (not its callback) on
# NOMAD whose D is `solver`'s Q, with K no larger than that problem's (facto_solver_new_nomad_layer).
facto_solver_nomad_layer <- function(solver, K) {
  structure(class = "facto_solver", list(ptr = checked(.Call(C_facto_r_solver_nomad_layer, solver$ptr,
                                                             whole_number(K)))))
}

# Multi-layer NOMAD ([TSC] Sec. 3.1): layer 1 is NOMAD on D with K[1], layer l + 1 NOMAD on layer l's Q
# with K[l + 1] (non-increasing), each solved by `algorithm` (NULL: the nomad kind's default) with the
# parameters in `...`, which every layer keeps. Returns the list of every layer's Q: facto.h's loop over
# facto_solver_new_nomad_layer, the same in every binding.
facto_multilayer_nomad <- function(D, K, algorithm = NULL, ...) {
  if (length(K) == 0) argument_error("facto_multilayer_nomad needs at least one K")
  layers <- vector("list", length(K))
  solver <- facto_solver(facto_nomad(D, K[1]), algorithm, ...)
  for (l in seq_along(K)) {
    if (l > 1) {
      previous <- solver
      solver <- facto_solver_nomad_layer(previous, K[l])
      facto_free(previous)
    }
    facto_solve(solver)
    layers[[l]] <- facto_iterate(solver)
  }
  facto_free(solver)
  layers
}

# NOMAD's input: the Gram matrix of the rows of X centered by their mean and divided by the largest norm
# of the (uncentered) rows.
facto_nomad_gram <- function(X) {
  X <- numeric_matrix(X)
  checked(.Call(C_facto_r_nomad_gram, X))
}

# Separable data X = W H + V of Nguyen, Fu & Wu Sec. V-A: list(X = M x N matrix, anchors = the K anchor
# columns, 1-based and increasing). kind "dirichlet" (Table I) or "midpoints" (Fig. 2, N = K + K (K - 1) / 2).
facto_separable_data <- function(M, N, K, snr_db = Inf, kind = c("dirichlet", "midpoints"), seed = 0) {
  kind <- match.arg(kind)
  checked(.Call(C_facto_r_separable_data, if (kind == "midpoints") 0L else 1L, as.double(M), as.double(N),
                whole_number(K), as.double(snr_db), as.double(seed)))
}

# The normalized kNN similarity graph of Kuang et al. 2015 Sec. 7.1 of the rows of X (a facto_sparse);
# k = 0 means floor(log2 n) + 1; X's columns scaled first ("auto": min-max for the Gaussian graph, none for
# the cosine one; "none": Kuang et al.'s graph); kind "auto": the cosine for nonnegative X with at least 90%
# zeros (counts, TF-IDF), the Gaussian otherwise; search: how the neighbours are found ("auto": exact
# below 20,000 points, an HNSW index from there). A sparse Matrix (dgCMatrix) or facto_sparse X gives its
# dense form's graph; unscaled (the cosine graph's "auto") its rows stay sparse and are searched exactly.
facto_knn_similarity <- function(X, k = 0, kind = c("auto", "gaussian", "cosine"),
                                 scaling = c("auto", "minmax", "zscore", "none"), search = c("auto", "exact", "hnsw")) {
  kind <- match.arg(kind)
  scaling <- match.arg(scaling)
  search <- SEARCHES[[match.arg(search)]]
  if (inherits(X, c("facto_sparse", "sparseMatrix"))) {
    t <- as_triplets(X)
    s <- checked(.Call(C_facto_r_knn_similarity_sparse, as.double(t$i), as.double(t$j), t$x,
                       as.double(c(t$rows, t$cols)), whole_number(k), SIMILARITIES[[kind]], SCALINGS[[scaling]], search))
    return(facto_sparse(s[[1]], s[[2]], s[[3]], s[[4]]))
  }
  X <- numeric_matrix(X)
  s <- checked(.Call(C_facto_r_knn_similarity, X, whole_number(k), SIMILARITIES[[kind]], SCALINGS[[scaling]], search))
  facto_sparse(s[[1]], s[[2]], s[[3]], s[[4]])
}

# Reads a Matrix Market file as a facto_sparse (symmetric files expanded).
facto_read_mtx <- function(path) {
  s <- checked(.Call(C_facto_r_read_mtx, path.expand(path)))
  facto_sparse(s[[1]], s[[2]], s[[3]], s[[4]], s[[5]])
}

# n Helix points (cos 3t, sin 3t, 2t), t uniform on [0, 2 pi], as an n x 3 matrix.
facto_helix <- function(n, seed = 0) checked(.Call(C_facto_r_helix, whole_number(n), as.double(seed)))

# Each pair i < j of rows of X kept with probability `fraction`: list(i, j, d), 1-based, d squared.
facto_sample_pairs <- function(X, fraction, seed = 0) {
  X <- numeric_matrix(X)
  s <- checked(.Call(C_facto_r_sample_pairs, X, as.double(fraction), as.double(seed)))
  list(i = s[[1]], j = s[[2]], d = s[[3]])
}

# Normalized RMSE of all pairwise squared distances of X against X_true.
facto_distance_nrmse <- function(X, X_true, max_pairs = 1e7, seed = 0) {
  X <- numeric_matrix(X)
  X_true <- numeric_matrix(X_true)
  checked(.Call(C_facto_r_distance_nrmse, X, X_true, as.double(max_pairs), as.double(seed)))
}

print.facto_problem <- function(x, ...) {
  info <- checked(.Call(C_facto_r_problem_info, x$ptr))
  cat(sprintf("<facto problem %s, iterate %d x %d>\n", info[[1]], info[[2]][1], info[[2]][2]))
  invisible(x)
}

facto_objective <- function(problem, X) {
  X <- numeric_matrix(X)
  checked(.Call(C_facto_r_objective, problem$ptr, X))
}

# A solver running `algorithm` on `problem`; parameters may be given by name in `...`.
facto_solver <- function(problem, algorithm = "auto", ..., callback = NULL) {
  if (is.null(algorithm)) algorithm <- "auto"  # the library's default for the problem's kind
  solver <- structure(class = "facto_solver",
                      list(ptr = checked(.Call(C_facto_r_solver_new, problem$ptr, algorithm))))
  params <- list(...)
  if (length(params) && (is.null(names(params)) || any(names(params) == "")))
    argument_error("solver parameters go by name (e.g. max_iterations = 100); got an unnamed argument")
  if (anyDuplicated(names(params)))
    argument_error("the parameter ", names(params)[anyDuplicated(names(params))], " is given twice")
  for (name in names(params)) facto_set(solver, name, params[[name]])
  if (!is.null(callback)) facto_set_callback(solver, callback)
  solver
}

print.facto_solver <- function(x, ...) {
  p <- facto_progress(x)
  cat(sprintf("<facto solver %s: iteration %d, objective %g, stationarity %g>\n",
              checked(.Call(C_facto_r_solver_algorithm, x$ptr)), as.integer(p$iteration), p$objective,
              p$stationarity))
  invisible(x)
}

facto_set <- function(solver, name, value) {
  invisible(checked(.Call(C_facto_r_set, solver$ptr, name, value)))
}

facto_get <- function(solver, name) checked(.Call(C_facto_r_get, solver$ptr, name))

# The parameter table as a data frame (name, type, default, range or choices, description).
# The library's registry: the algorithms of every problem kind (or of one), the default first.
facto_algorithms <- function(kind = NULL) {
  if (!is.null(kind) && !(is.character(kind) && length(kind) == 1 && !is.na(kind)))
    argument_error("kind must be one problem kind's name, e.g. \"nomad\"")
  cols <- checked(.Call(C_facto_r_algorithms, kind))
  data.frame(kind = cols[[1]], name = cols[[2]], default = cols[[3]], description = cols[[4]],
             stringsAsFactors = FALSE)
}

facto_params <- function(solver) {
  cols <- checked(.Call(C_facto_r_params, solver$ptr))
  data.frame(name = cols[[1]], type = cols[[2]], default = cols[[3]], range = cols[[4]], description = cols[[5]],
             stringsAsFactors = FALSE)
}

facto_reset_params <- function(solver) invisible(checked(.Call(C_facto_r_reset, solver$ptr)))

facto_set_iterate <- function(solver, W) {
  W <- numeric_matrix(W)
  invisible(checked(.Call(C_facto_r_set_iterate, solver$ptr, W)))
}

# f(progress) is called after every callback_every-th iteration; returning TRUE stops the solve.
# An error inside f stops the solve and is re-raised by facto_step / facto_solve.
facto_set_callback <- function(solver, f) {
  if (!is.null(f)) f <- match.fun(f)
  invisible(checked(.Call(C_facto_r_set_callback, solver$ptr, f, run_callback)))
}

# The stop reason of a step or solve; an interrupt (Ctrl-C) ends it at the end of the iteration, then
# raises a condition of class "facto_interrupt" / "interrupt" (tryCatch(interrupt = ) catches it).
stop_reason <- function(solver, status) {
  status <- checked(status)
  if (isTRUE(attr(status, "interrupted"))) {
    p <- facto_progress(solver)
    stop(structure(class = c("facto_interrupt", "interrupt", "condition"),
                   list(message = sprintf(paste("facto: interrupted; the solve stopped at iteration %d (%s),",
                                                "the solver keeps its iterate"), p$iteration, p$stop_reason),
                        call = NULL)))
  }
  STOP_REASONS[status + 1L]
}

# One iteration; returns "running" or why a stopping rule fired.
facto_step <- function(solver) stop_reason(solver, .Call(C_facto_r_step, solver$ptr))

# Iterates until a stopping rule fires; returns why. Ctrl-C stops it at the end of the current
# iteration and raises a condition of class "interrupt" ("facto_interrupt"); the solver keeps its
# iterate.
facto_solve <- function(solver) stop_reason(solver, .Call(C_facto_r_solve, solver$ptr))

facto_progress <- function(solver) {
  p <- checked(.Call(C_facto_r_progress, solver$ptr))
  p$stop_reason <- STOP_REASONS[p$stop_reason + 1L]
  p
}

# The current iterate as a numeric matrix.
facto_iterate <- function(solver) checked(.Call(C_facto_r_iterate, solver$ptr))

# Cluster of each point, 1-based (facto's 0-based labels + 1).
facto_labels <- function(solver) as.integer(checked(.Call(C_facto_r_output, solver$ptr, "labels"))) + 1L

# A named output of the solver as facto stores it: a numeric matrix for real outputs (e.g. "H"), a
# numeric vector for integer ones (0-based indices, e.g. "selected"; see facto_selected).
facto_output <- function(solver, name) checked(.Call(C_facto_r_output, solver$ptr, name))

# The anchor columns a self_dictionary solver selected, 1-based and increasing.
facto_selected <- function(solver) as.integer(facto_output(solver, "selected")) + 1L

# Frees a problem or solver now (otherwise the garbage collector does). Safe to call twice.
facto_free <- function(x) {
  if (inherits(x, "facto_solver")) checked(.Call(C_facto_r_solver_free, x$ptr))  # refused inside its callback
  if (inherits(x, "facto_problem")) .Call(C_facto_r_problem_free, x$ptr)
  invisible(NULL)
}

# The ABI's bandwidth: NULL is the median rule; a number must be positive (0 is refused, so that a
# computed bandwidth of 0 stays an error).
bandwidth_code <- function(bandwidth) {
  if (is.null(bandwidth)) return(BANDWIDTH_MEDIAN_RULE)
  if (!is.numeric(bandwidth) || length(bandwidth) != 1L || is.na(bandwidth) || !(bandwidth > 0))
    argument_error("bandwidth must be a positive number or NULL (the median rule)")
  as.double(bandwidth)
}

# P_ij = exp(-||x_i - x_j||^2 / bandwidth) for the rows of X, after scaling its columns; bandwidth NULL:
# the median rule, a quarter of the median of ||x_i - x_j||^2 over the pairs.
facto_gaussian_affinity <- function(X, bandwidth = NULL, scaling = c("minmax", "zscore", "none")) {
  scaling <- match.arg(scaling)
  X <- numeric_matrix(X)
  checked(.Call(C_facto_r_gaussian_affinity, X, bandwidth_code(bandwidth), SCALINGS[[scaling]]))
}

facto_accuracy <- function(predicted, truth) checked(.Call(C_facto_r_accuracy, predicted, truth))

facto_version <- function() .Call(C_facto_r_version)[[1]]

.onLoad <- function(libname, pkgname) {
  major <- .Call(C_facto_r_version)[[2]] %/% 10000L
  if (major != 0L) stop("facto: the loaded libfacto has ABI major version ", major, ", this package needs 0")
}
