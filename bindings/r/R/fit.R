# The model-fitting interface: one function per job, taking R matrices (dense, data frames, or sparse
# Matrix objects), solving to the end and returning a "facto_fit" (a list with the answer in R's terms,
# 1-based, and the run's record) with print and summary methods. The handle API underneath
# (facto_solver, facto_step, ...) stays available for stepping and warm starts.

# Solves `problem` with `algorithm`, the solver parameters `params` (a named list) and `callback`; reads the
# outputs named in `outputs` ("iterate" is the iterate) and frees both handles. Returns list(values, run).
solve_and_read <- function(problem, algorithm, params, callback, outputs) {
  force(problem)  # before on.exit: a problem that fails to build is not built again there
  on.exit(facto_free(problem))
  solver <- do.call(facto_solver, c(list(problem, algorithm), params, list(callback = callback)))
  on.exit(facto_free(solver), add = TRUE)
  facto_solve(solver)
  p <- facto_progress(solver)
  table <- facto_params(solver)
  values <- lapply(stats::setNames(outputs, outputs),
                   function(o) if (o == "iterate") facto_iterate(solver) else facto_output(solver, o))
  run <- list(algorithm = algorithm, stop_reason = p$stop_reason, iterations = as.integer(p$iteration),
              objective = p$objective, stationarity = p$stationarity, feasibility = p$feasibility,
              seconds = p$elapsed_seconds,
              parameters = stats::setNames(lapply(table$name, function(n) facto_get(solver, n)), table$name),
              defaults = stats::setNames(table$default, table$name))
  list(values = values, run = run)
}

new_fit <- function(class, values, run, call)
  structure(c(values, list(run = run, call = call)), class = c(class, "facto_fit"))

# 1-based labels from facto's 0-based ones (0 stays 0 for the topic model's document without a term).
one_based <- function(labels) as.integer(labels) + 1L

simplicial_symnmf <- function(P, k, algorithm = "frank_wolfe", ..., callback = NULL) {
  out <- solve_and_read(facto_simplicial_symnmf(P, k), algorithm, list(...), callback, c("iterate", "labels"))
  new_fit("facto_simplicial_symnmf", list(W = out$values$iterate, labels = one_based(out$values$labels)),
          out$run, match.call())
}

symnmf <- function(M, r, algorithm = "nolips", ..., callback = NULL) {
  out <- solve_and_read(facto_symnmf(M, r), algorithm, list(...), callback, c("iterate", "labels"))
  new_fit("facto_symnmf", list(X = out$values$iterate, labels = one_based(out$values$labels)), out$run, match.call())
}

separable_nmf <- function(X, K, algorithm = "merit", lambda = NULL, mu = 1e-5, ..., callback = NULL) {
  X <- numeric_matrix(X)
  out <- solve_and_read(facto_self_dictionary(X, K, lambda, mu), algorithm, list(...), callback, c("selected", "H"))
  anchors <- one_based(out$values$selected)
  new_fit("facto_separable_nmf", list(anchors = anchors, W = X[, anchors, drop = FALSE], H = out$values$H),
          out$run, match.call())
}

nomad <- function(x, K, algorithm = NULL, gram = FALSE, assign_labels = c("kmeans", "components"), certify = TRUE,
                  ..., callback = NULL) {
  assign_labels <- match.arg(assign_labels)
  if (is.null(algorithm)) algorithm <- if (gram) "nomad_cgm" else "burer_monteiro"
  kept <- if (algorithm == "burer_monteiro") "factor" else "Q"
  problem <- if (gram) facto_nomad(x, K) else facto_nomad_points(x, K)
  outputs <- c(kept, "labels", "embedding", "feasibility", if (certify) "upper_bound")
  out <- solve_and_read(problem, algorithm, list(...), callback, outputs)
  v <- out$values
  seed <- out$run$parameters$seed
  labels <- if (assign_labels == "components") one_based(v$labels) else facto_kmeans(v[[kept]], K, seed = seed)
  values <- list(labels = labels, embedding = v$embedding,
                 feasibility = stats::setNames(as.numeric(v$feasibility), c("rms_negative", "max_negative",
                                                                             "row_sums", "trace")),
                 upper_bound = if (certify) as.numeric(v$upper_bound) else NA_real_)
  values[[kept]] <- v[[kept]]
  new_fit("facto_nomad", values, out$run, match.call())
}

# The observed pairs i < j of a dissimilarity matrix: a dense matrix whose NA entries are unobserved, or a
# sparse Matrix whose stored entries are observed. A pair given in both triangles must agree (1e-9 relative).
observed_pairs <- function(x) {
  if (inherits(x, "sparseMatrix")) {
    t <- as_triplets(x)
    keep <- !is.na(t$x)
  } else {
    x <- numeric_matrix(x)
    t <- list(i = row(x), j = col(x), x = as.vector(x), rows = nrow(x), cols = ncol(x))
    keep <- !is.na(t$x)
  }
  if (t$rows != t$cols) stop("a dissimilarity matrix must be square, got ", t$rows, " x ", t$cols)
  i <- pmin(t$i, t$j)[keep]
  j <- pmax(t$i, t$j)[keep]
  d <- t$x[keep]
  if (any(d < 0)) stop("distances must be nonnegative")
  off <- i < j
  i <- i[off]; j <- j[off]; d <- d[off]
  key <- (j - 1) * t$rows + i
  first <- match(key, key)
  clash <- which(abs(d - d[first]) > 1e-9 * pmax(d, d[first]))
  if (length(clash)) stop(sprintf("the pair (%d, %d) is given two distances, %g and %g", i[clash[1]], j[clash[1]],
                                  d[first[clash[1]]], d[clash[1]]))
  unique_ <- !duplicated(key)
  list(n = t$rows, i = i[unique_], j = j[unique_], d = d[unique_])
}

edm_completion <- function(x, r, algorithm = "nolips", squared = FALSE, ..., callback = NULL) {
  p <- observed_pairs(x)
  d <- if (squared) p$d else p$d^2
  out <- solve_and_read(facto_edm_completion(p$n, r, p$i, p$j, d), algorithm, list(...), callback, "iterate")
  new_fit("facto_edm_completion", list(X = out$values$iterate, pairs = length(p$i)), out$run, match.call())
}

topic_model <- function(counts, K, algorithm = "merit", vocabulary = NULL, min_df = 2, rank = 0, lambda = 5e-7,
                        mu = 1e-5, ..., callback = NULL) {
  out <- solve_and_read(facto_topics(counts, K, min_df, rank, lambda, mu), algorithm, list(...), callback,
                        c("selected", "topics", "top_terms", "document_topics", "labels", "coherence",
                          "similarity_count"))
  v <- out$values
  name <- function(columns) if (is.null(vocabulary)) columns else matrix(vocabulary[columns], nrow(columns))
  anchors <- one_based(v$selected)
  values <- list(anchors = if (is.null(vocabulary)) anchors else vocabulary[anchors], topics = v$topics,
                 top_terms = name(matrix(one_based(v$top_terms), nrow = K)), document_topics = v$document_topics,
                 labels = one_based(v$labels), coherence = as.numeric(v$coherence),
                 similarity_count = as.numeric(v$similarity_count))
  new_fit("facto_topic_model", values, out$run, match.call())
}

detect_communities <- function(A, K, algorithm = "merit", energy = 0.99, lambda = 5e-7, mu = 1e-5, ...,
                               callback = NULL) {
  out <- solve_and_read(facto_communities(A, K, energy, lambda, mu), algorithm, list(...), callback,
                        c("selected", "memberships", "labels", "nodes"))
  v <- out$values
  new_fit("facto_communities", list(pure_nodes = one_based(v$selected), memberships = v$memberships,
                                    labels = one_based(v$labels), nodes_kept = one_based(v$nodes)),
          out$run, match.call())
}

# "n x m" for a matrix, "length n" for a vector, the value for a scalar.
shape <- function(v) {
  if (is.matrix(v)) sprintf("%d x %d matrix", nrow(v), ncol(v))
  else if (length(v) == 1) format(v, digits = 6)
  else sprintf("%s vector of length %d", typeof(v), length(v))
}

fit_kind <- function(x) sub("^facto_", "", class(x)[1])

print.facto_fit <- function(x, ...) {
  r <- x$run
  cat(sprintf("facto %s fit by %s: %s after %d iterations (%.3g s)\n", fit_kind(x), r$algorithm, r$stop_reason,
              r$iterations, r$seconds))
  cat(sprintf("objective %.8g, stationarity %.3g\n", r$objective, r$stationarity))
  parts <- setdiff(names(x), c("run", "call"))
  for (n in parts) cat(sprintf("  $%s: %s\n", n, shape(x[[n]])))
  invisible(x)
}

summary.facto_fit <- function(object, ...) {
  r <- object$run
  defaults <- r$defaults[names(r$parameters)]
  differs <- function(value, default) {
    if (!is.numeric(value)) return(!identical(as.character(value), default))
    d <- suppressWarnings(as.numeric(default))
    is.na(d) || (value != d && abs(value - d) > 1e-9 * abs(d))  # the table prints defaults to ~10 digits
  }
  parameters <- data.frame(name = names(r$parameters), stringsAsFactors = FALSE,
                           value = unname(vapply(r$parameters, function(v) format(v, digits = 10), "")),
                           default = unname(defaults),
                           changed = unname(mapply(differs, r$parameters, defaults)))
  structure(class = "summary.facto_fit",
            list(kind = fit_kind(object), call = object$call,
                 run = r[c("algorithm", "stop_reason", "iterations", "objective", "stationarity", "feasibility",
                           "seconds")],
                 parameters = parameters,
                 cluster_sizes = if (!is.null(object$labels)) table(object$labels),
                 upper_bound = object$upper_bound, anchors = object$anchors, pairs = object$pairs))
}

print.summary.facto_fit <- function(x, ...) {
  cat("facto", x$kind, "fit\n\nCall:\n")
  print(x$call)
  r <- x$run
  cat(sprintf("\nAlgorithm %s: %s after %d iterations in %.3g s\n", r$algorithm, r$stop_reason, r$iterations,
              r$seconds))
  cat(sprintf("Objective %.10g, stationarity %.3g, feasibility %.3g\n", r$objective, r$stationarity, r$feasibility))
  if (!is.null(x$upper_bound) && is.finite(x$upper_bound))
    cat(sprintf("Certified upper bound %.10g (relative gap %.3g)\n", x$upper_bound,
                (x$upper_bound - r$objective) / max(1, abs(x$upper_bound))))
  if (!is.null(x$anchors)) cat("Anchors:", utils::head(x$anchors, 20), if (length(x$anchors) > 20) "...", "\n")
  if (!is.null(x$pairs)) cat("Observed pairs:", x$pairs, "\n")
  if (!is.null(x$cluster_sizes)) {
    cat("Cluster sizes:\n")
    print(x$cluster_sizes)
  }
  changed <- x$parameters[x$parameters$changed, c("name", "value", "default")]
  cat("\nParameters set (", nrow(changed), " of ", nrow(x$parameters), " differ from the defaults):\n", sep = "")
  if (nrow(changed)) print(changed, row.names = FALSE)
  invisible(x)
}
